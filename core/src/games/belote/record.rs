//! Belote records (RECORD.md): the deal and action shapes of `belote-bazar`, `belote-classic`,
//! `belote-h2h` and `coinche`, writing a record from a session, and `replay`, which re-plays a
//! record through the engine and prints the result (or the first fault, with its deal and
//! action numbers).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::coinche;
use super::deal::{Action, Bid, Deal, Phase};
use super::options::Options;
use super::session::Session;
use super::Variant;
use crate::cards::{Card, CardSet};
use crate::game::{Game, Seat};
use crate::record::{Envelope, ReplayError};

/// One deal as a record stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    pub dealer: Seat,
    pub hands: Vec<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turned: Option<Card>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock: Option<Vec<Card>>,
    /// Kept as raw values so that a bad action is reported with its number.
    pub actions: Vec<Value>,
}

/// One action as a record stores it: `{"seat": 0, "bid": "9 H"}` or `{"seat": 0, "play": "JH"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRecord {
    pub seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Card>,
}

impl ActionRecord {
    pub fn new(seat: Seat, a: Action) -> ActionRecord {
        match a {
            Action::Bid(b) => ActionRecord {
                seat,
                bid: Some(b.to_string()),
                play: None,
            },
            Action::Play(c) => ActionRecord {
                seat,
                bid: None,
                play: Some(c),
            },
        }
    }

    pub fn action(&self, v: Variant) -> Result<Action, String> {
        match (&self.bid, self.play) {
            (Some(b), None) => Bid::parse(v, b)
                .map(Action::Bid)
                .ok_or_else(|| format!("unknown bid {b:?}")),
            (None, Some(c)) => Ok(Action::Play(c)),
            _ => Err("an action is one bid or one play".into()),
        }
    }
}

fn sorted(set: CardSet) -> Vec<Card> {
    set.iter().collect()
}

/// The record of a session, with the players' names.
pub fn to_envelope(s: &Session, players: &[String]) -> Envelope {
    let v = s.variant();
    let deals = s
        .deals()
        .iter()
        .map(|d| {
            let rec = DealRecord {
                dealer: d.dealer,
                hands: d.hands.iter().map(|&h| sorted(h)).collect(),
                turned: d.turned,
                stock: v.has_turned_card().then(|| d.stock.clone()),
                actions: d
                    .actions
                    .iter()
                    .map(|&(seat, a)| {
                        serde_json::to_value(ActionRecord::new(seat, a)).expect("plain struct")
                    })
                    .collect(),
            };
            serde_json::to_value(rec).expect("plain struct")
        })
        .collect();
    Envelope {
        game: v.game_name().into(),
        rules: s.options().to_rules(v),
        players: players.to_vec(),
        deals,
    }
}

/// Replays a belote record (any of the four games) into the output of RECORD.md.
pub fn replay(env: &Envelope) -> Result<Value, ReplayError> {
    let v = Variant::from_game_name(&env.game)
        .ok_or_else(|| ReplayError::record(format!("unknown game {:?}", env.game)))?;
    let options = Options::from_rules(v, &env.rules).map_err(ReplayError::record)?;
    if env.players.len() != v.seats() {
        return Err(ReplayError::record(format!(
            "{v} is played by {} players, not {}",
            v.seats(),
            env.players.len()
        )));
    }
    let mut totals = [0i32; 2];
    let mut next_dealer: Option<Seat> = None;
    let mut out = Vec::with_capacity(env.deals.len());
    let mut unfinished = false;
    // Coinche: the deck the last deal left, which the next deal's hands must be a cut of.
    let mut carried: Option<coinche::Deck> = None;
    for (i, raw) in env.deals.iter().enumerate() {
        let n = i + 1;
        if unfinished {
            return Err(ReplayError::deal(
                n,
                format!("deal {} is not finished", n - 1),
            ));
        }
        if totals[0].max(totals[1]) >= options.target && totals[0] != totals[1] {
            return Err(ReplayError::deal(n, "the game is already over"));
        }
        let rec: DealRecord = serde_json::from_value(raw.clone())
            .map_err(|e| ReplayError::deal(n, format!("the deal is malformed ({e})")))?;
        if let Some(d) = next_dealer {
            if rec.dealer != d {
                return Err(ReplayError::deal(
                    n,
                    format!("the dealer must be seat {d}, not seat {}", rec.dealer),
                ));
            }
        }
        let hands: Vec<CardSet> = rec
            .hands
            .iter()
            .enumerate()
            .map(|(seat, h)| {
                let set: CardSet = h.iter().copied().collect();
                if set.len() as usize != h.len() {
                    Err(ReplayError::deal(
                        n,
                        format!("seat {seat} holds a card twice"),
                    ))
                } else {
                    Ok(set)
                }
            })
            .collect::<Result<_, _>>()?;
        let stock = rec.stock.clone().unwrap_or_default();
        if !v.has_turned_card() && (rec.turned.is_some() || rec.stock.is_some()) {
            return Err(ReplayError::deal(
                n,
                format!("{v} has no turned card or stock"),
            ));
        }
        let mut deal = Deal::from_hands(v, options, rec.dealer, &hands, rec.turned, &stock)
            .map_err(|e| ReplayError::deal(n, e.to_string()))?;
        if let Some(deck) = carried.take() {
            let is_cut = (coinche::MIN_CUT..=deck.len() - coinche::MIN_CUT).any(|c| {
                coinche::cut(&deck, c)
                    .is_some_and(|d| coinche::deal(&d, rec.dealer)[..] == hands[..])
            });
            if !is_cut {
                return Err(ReplayError::deal(
                    n,
                    "the hands are not a cut of the cards gathered from the last deal",
                ));
            }
        }
        for (j, a) in rec.actions.iter().enumerate() {
            let fail = |r: String| ReplayError::action(n, j + 1, r);
            let ar: ActionRecord = serde_json::from_value(a.clone())
                .map_err(|e| fail(format!("the action is malformed ({e})")))?;
            let action = ar.action(v).map_err(fail)?;
            deal.apply(ar.seat, action)
                .map_err(|e| fail(e.to_string()))?;
        }
        next_dealer = Some(v.next(rec.dealer));
        if v == Variant::Coinche && deal.phase() == Phase::Done {
            let tricks: Vec<(Seat, [Card; 4])> =
                deal.tricks().iter().map(|t| (t.winner, t.cards)).collect();
            let mut dealt = [CardSet::EMPTY; 4];
            dealt.copy_from_slice(deal.dealt());
            carried = Some(coinche::gather(&tricks, &dealt, rec.dealer));
        }
        out.push(deal_output(&deal, &mut totals, &mut unfinished));
    }
    Ok(json!({"deals": out, "totals": totals}))
}

fn deal_output(deal: &Deal, totals: &mut [i32; 2], unfinished: &mut bool) -> Value {
    let v = deal.variant();
    let mut m = Map::new();
    let contract = deal.contract();
    m.insert(
        "contract".into(),
        match (contract, deal.phase()) {
            (Some(c), _) => c.describe(v).into(),
            (None, Phase::Done) => "redeal".into(),
            (None, _) => Value::Null,
        },
    );
    m.insert("declarer".into(), json!(contract.map(|c| c.declarer)));
    if let Some(c) = contract {
        if let Some(w) = c.doubled_word(v) {
            m.insert("doubled".into(), w.into());
        }
    }
    match deal.result() {
        Some(r) => {
            totals[0] += r.deltas[0];
            totals[1] += r.deltas[1];
            m.insert("team_points".into(), json!(r.team_points));
            m.insert("combinations".into(), json!(r.combinations));
            m.insert("deltas".into(), json!(r.deltas));
        }
        None => {
            *unfinished = true;
            m.insert("complete".into(), false.into());
        }
    }
    m.insert("totals".into(), json!(totals));
    debug_assert!(deal.is_over() == deal.result().is_some());
    Value::Object(m)
}
