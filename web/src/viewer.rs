//! The story of a closed table for the viewer: its finished deals replayed through the
//! game's host face, every step with every hand open, and the record with its seeds checked
//! by `stikis replay`'s own code.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use stikis_core::cards::Card;
use stikis_core::record::{replay, Envelope};
use stikis_core::Seat;

use stikis_host::games::{new_game, HostedGame, OpenView};
use stikis_host::i18n::Lang;
use stikis_host::picture::Picture;
use stikis_host::store::TableLog;

/// A card played, judged double dummy: every card the player could have played with its
/// value against the best one (0 for the best, less for worse), and what the played card cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub seat: Seat,
    pub played: String,
    pub options: Vec<(String, i32)>,
    pub cost: i32,
}

/// A deal's analysis: one entry per record action (None where nothing was judged).
pub type DealAnalysis = Vec<Option<Judged>>;

/// One step of a deal: the action (None for the deal as dealt) and everything after it.
#[derive(Debug, Clone)]
pub struct Step {
    pub seat: Option<Seat>,
    /// The record action (with its `seat`).
    pub action: Option<Value>,
    pub view: OpenView,
    /// The table's public picture after it: what a player at the table saw (the contract,
    /// the bidding, whose turn, ...), drawn as the live page draws it.
    pub picture: Picture,
    /// Each seat's cards now, in the order its players hold them (Zole: trumps first).
    pub hands: Vec<Vec<Card>>,
    /// The action told as the table says it, in each language of `Lang::ALL` (None for a
    /// card played and for the deal as dealt: the viewer tells those itself).
    pub told: Option<Vec<String>>,
    /// The card played at this step, judged (only when asked for: it takes a solver).
    pub judged: Option<Judged>,
}

#[derive(Debug, Clone)]
pub struct DealStory {
    /// From 1.
    pub no: usize,
    pub dealer: Option<Seat>,
    pub seed: String,
    pub commitment: String,
    pub steps: Vec<Step>,
    /// The deal's result as the chat tells it, in each language of `Lang::ALL`.
    pub told: Vec<String>,
}

impl Step {
    /// The action told in `lang`, when the game tells it.
    pub fn told_in(&self, lang: Lang) -> Option<&str> {
        in_lang(self.told.as_deref()?, lang)
    }
}

impl DealStory {
    /// The deal's result as the chat tells it, in `lang`.
    pub fn told_in(&self, lang: Lang) -> Option<&str> {
        in_lang(&self.told, lang)
    }
}

fn in_lang(told: &[String], lang: Lang) -> Option<&str> {
    let i = Lang::ALL.iter().position(|&l| l == lang)?;
    told.get(i).map(String::as_str)
}

/// Something told in every language, the same way.
fn in_every_lang(tell: impl Fn(Lang) -> Option<String>) -> Option<Vec<String>> {
    Lang::ALL.iter().map(|&l| tell(l)).collect()
}

#[derive(Debug, Clone)]
pub struct Story {
    /// The record of the finished deals, each with its seed: what the download gives.
    pub record: Envelope,
    pub deals: Vec<DealStory>,
    /// `stikis replay` of `record`: its output, or the fault it names.
    pub replay: Result<Value, String>,
}

impl Story {
    pub fn players(&self) -> &[String] {
        &self.record.players
    }
}

/// Replays a table's log into its story. Only finished deals are kept: a deal still in play
/// (a table stopped in the middle of one) is left out whole, hands and all.
pub fn story(log: &TableLog) -> Story {
    let mut record = match log.record() {
        Ok(r) => r,
        Err(e) => {
            return Story {
                record: Envelope {
                    game: log.table.game.clone(),
                    rules: log.table.rules.clone(),
                    players: log.seats.iter().map(|s| s.name.clone()).collect(),
                    deals: Vec::new(),
                },
                deals: Vec::new(),
                replay: Err(e.to_string()),
            }
        }
    };
    let (finished, own) = replay_finished(&record, false);
    // The game's own record: its rules as `stikis replay` reads them (a table's options for
    // the host alone, such as Polt's number of hands, are not in it).
    if let Some(own) = own {
        record = own;
    }
    let deals: Vec<DealStory> = finished
        .into_iter()
        .map(|(i, steps, told)| {
            let row = log.deals.get(i);
            DealStory {
                no: i + 1,
                dealer: record.deals[i]["dealer"]
                    .as_u64()
                    .and_then(|s| Seat::try_from(s).ok()),
                seed: row.map(|r| r.seed_hex.clone()).unwrap_or_default(),
                commitment: row.map(|r| r.commitment_hex.clone()).unwrap_or_default(),
                steps,
                told,
            }
        })
        .collect();
    record.deals.truncate(deals.len());
    for (d, s) in record.deals.iter_mut().zip(&deals) {
        d["seed"] = Value::String(s.seed.clone());
    }
    let text = serde_json::to_vec(&record).unwrap_or_default();
    let replay = replay(&text).map_err(|e| e.to_string());
    Story {
        record,
        deals,
        replay,
    }
}

/// Replays a record's deals through the game's host face while they finish: each finished
/// deal's number (from 0) and steps. With `judge`, every card played is judged double dummy
/// first (slow: for the background analysis only).
/// A finished deal replayed: its index, its steps and its result as the chat tells it.
type Replayed = (usize, Vec<Step>, Vec<String>);

/// Each seat's cards now, as its players hold them.
fn sorted_hands(game: &dyn HostedGame) -> Vec<Vec<Card>> {
    (0..game.seats() as Seat).map(|s| game.hand(s)).collect()
}

fn replay_finished(record: &Envelope, judge: bool) -> (Vec<Replayed>, Option<Envelope>) {
    let mut deals = Vec::new();
    let Ok(mut game) = new_game(&record.game, &record.rules, record.players.len()) else {
        return (deals, None);
    };
    for (i, deal) in record.deals.iter().enumerate() {
        if game
            .restore_deal(&stikis_host::games::without_actions(deal.clone()))
            .is_err()
        {
            break;
        }
        let mut steps = vec![Step {
            seat: None,
            action: None,
            view: game.open_view(),
            picture: game.picture(),
            hands: sorted_hands(game.as_ref()),
            told: None,
            judged: None,
        }];
        let mut finished = None;
        for a in deal["actions"].as_array().into_iter().flatten() {
            let seat = a["seat"].as_u64().and_then(|s| Seat::try_from(s).ok());
            let judged = match (judge, seat, a["play"].as_str()) {
                (true, Some(seat), Some(card)) => game
                    .card_values()
                    .and_then(|values| judge_card(seat, card, values)),
                _ => None,
            };
            let told = in_every_lang(|l| game.action_text(a, l, &record.players));
            match game.apply(a) {
                Ok(report) => finished = report,
                Err(_) => return (deals, None),
            }
            steps.push(Step {
                seat,
                action: Some(a.clone()),
                view: game.open_view(),
                picture: game.picture(),
                hands: sorted_hands(game.as_ref()),
                told,
                judged,
            });
        }
        let Some(report) = finished else {
            break;
        };
        let told = Lang::ALL
            .iter()
            .map(|&l| game.result_text(&report, l, &record.players))
            .collect();
        deals.push((i, steps, told));
    }
    let own = game.record(&record.players);
    (deals, Some(own))
}

fn judge_card(seat: Seat, card: &str, values: Vec<(stikis_core::cards::Card, i32)>) -> Option<Judged> {
    let best = values.iter().map(|v| v.1).max()?;
    let mut options: Vec<(String, i32)> = values.iter().map(|(c, v)| (c.to_string(), v - best)).collect();
    options.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let played = card.parse::<stikis_core::cards::Card>().ok()?.to_string();
    let cost = -options.iter().find(|o| o.0 == played)?.1;
    Some(Judged {
        seat,
        played,
        options,
        cost,
    })
}

/// The double-dummy analysis of every finished deal of a table: per deal, per action. Slow
/// (a solver per card played): run it off the async threads.
pub fn analyse(log: &TableLog) -> Vec<DealAnalysis> {
    let Ok(record) = log.record() else {
        return Vec::new();
    };
    replay_finished(&record, true)
        .0
        .into_iter()
        .map(|(_, steps, _)| steps.into_iter().skip(1).map(|s| s.judged).collect())
        .collect()
}
