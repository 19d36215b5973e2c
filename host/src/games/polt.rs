//! Polt to Tzar as the host plays it (RULES.md section 3): a core Polt `Session` of an agreed
//! number of hands behind button codes (`g:QC` give, `r:KC` return, `t:H` name trumps, `p:QC`
//! play), messages drawn from the hand (the exchange is shown to the table without its
//! cards: only giver and receiver see them), and the record JSON the action log stores
//! (through the engine's `record.rs`).
//!
//! The table's points are tricks: a hand's deltas are the tricks each seat took, the totals
//! the tricks of the session (the standing itself is the rank order, shown with each hand).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::Value;
use stikis_core::ai::{self, Level};
use stikis_core::cards::{Card, CardSet, Suit};
use stikis_core::games::polt::play::TrumpOrder;
use stikis_core::games::polt::record::{
    action_from_json, action_to_json, deal_record, session_record, DealRecord,
};
use stikis_core::games::polt::{Action, Deal, Error, Options, Phase, Session, Stage, Title};
use stikis_core::record::Envelope;
use stikis_core::{Seat, Seed};

use super::refusal::Refused;
use super::zole::card_label;
use super::{
    listed, name, suit_symbol, with_no_actions, without_actions, DealReport, HostedGame, OpenView, Pressed,
    Refusal,
};
use crate::i18n::{t, Arg, Lang};
use crate::picture::{self, card_decisions, say, Lines, Picture, SeatPicture, Word};

/// How Polt's chat messages say a picture (`crate::draw`).
static LINES: Lines = Lines {
    trick: Some("polt-trick"),
    last_trick: Some("polt-last-trick"),
    taken: Some("polt-tricks-taken"),
    turn: Some("polt-turn"),
    hand: Some("polt-hand"),
    ..Lines::NONE
};

/// Hands a table plays when its rules do not say (`{"hands": N}`).
pub const DEFAULT_HANDS: u32 = 10;

pub struct PoltGame {
    options: Options,
    seats: usize,
    hands: u32,
    /// Made with the first deal: its ranks are drawn from that deal's seed.
    session: Option<Session>,
}

fn title_key(title: Title) -> &'static str {
    match title {
        Title::Tzar => "polt-tzar",
        Title::President => "polt-president",
        Title::UpperClass => "polt-upper-class",
        Title::MiddleClass => "polt-middle-class",
        Title::LowerClass => "polt-lower-class",
        Title::Polt => "polt-polt",
    }
}

fn title_word(lang: Lang, title: Title) -> String {
    t(lang, title_key(title), &[])
}

/// Cards as a whist player holds them: the joker, then trumps (when named), then the other
/// suits alternating colours, each high to low.
fn sorted(cards: CardSet, trump: Option<Suit>) -> Vec<Card> {
    let mut out: Vec<Card> = cards.iter().filter(|c| c.suit().is_none()).collect();
    let mut suits = vec![Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];
    if let Some(s) = trump {
        suits.retain(|&x| x != s);
        suits.insert(0, s);
    }
    for s in suits {
        let mut of_suit: Vec<Card> = cards.iter().filter(|c| c.suit() == Some(s)).collect();
        of_suit.sort_by_key(|c| std::cmp::Reverse(c.rank()));
        out.extend(of_suit);
    }
    out
}

fn labels(cards: impl IntoIterator<Item = Card>) -> String {
    cards.into_iter().map(card_label).collect::<Vec<_>>().join(" ")
}

impl PoltGame {
    /// `rules` is a Polt preset or options object (RECORD.md); the table may add `hands`, the
    /// number of hands it plays, which is the table's, not a rule of play, so it is not
    /// written to the record (a record's hands are its deals).
    pub fn new(rules: &Value, seats: usize) -> Result<PoltGame, Refusal> {
        let mut rules = rules.clone();
        let mut hands = DEFAULT_HANDS;
        if let Some(map) = rules.as_object_mut() {
            if let Some(h) = map.remove("hands") {
                hands = h
                    .as_u64()
                    .filter(|h| (1..=1000).contains(h))
                    .ok_or_else(|| Refusal(format!("bad value for hands: {h} (1 to 1000)")))?
                    as u32;
            }
        }
        let options = Options::from_rules(&rules).map_err(Refusal)?;
        if !(stikis_core::games::polt::MIN_SEATS..=stikis_core::games::polt::MAX_SEATS).contains(&seats) {
            return Err(Refusal(format!(
                "Polt to Tzar is for 5 to 7 players, not {seats}"
            )));
        }
        Ok(PoltGame {
            options,
            seats,
            hands,
            session: None,
        })
    }

    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    fn deal(&self) -> Option<&Deal> {
        self.session.as_ref().and_then(|s| s.current())
    }

    /// Deal `n` (from 1), finished or in progress.
    fn deal_at(&self, n: usize) -> Option<&Deal> {
        let s = self.session.as_ref()?;
        let i = n.checked_sub(1)?;
        s.finished()
            .get(i)
            .or_else(|| s.current().filter(|_| i == s.finished().len()))
    }

    /// The deal being played or the last one played.
    fn last_deal(&self) -> Option<&Deal> {
        self.deal_at(self.deal_no())
    }

    /// Checks a move against the rules; the refusal says in the presser's language which
    /// rule the move breaks.
    fn check(&self, seat: Seat, a: Action, lang: Lang) -> Result<Value, Refusal> {
        // Polt's deals are hands: its own sentence, not the shared "that deal is over".
        let over = || Refusal(t(lang, "polt-over", &[]));
        let d = self.deal().ok_or_else(over)?;
        d.check(seat, a).map_err(|e| {
            let kind = match e {
                Error::Over => return over(),
                Error::NotYourTurn { .. } => Refused::NotYourTurn,
                Error::WrongAction { .. } => Refused::NotNow,
                Error::NotHeld { card, .. } => Refused::NotHeld(card),
                Error::MustReturn { allowed, .. } => match allowed.iter().next() {
                    Some(c) => Refused::MustReturn(c),
                    None => Refused::NotNow,
                },
                Error::MustFollow { has, .. } => match has.iter().next() {
                    Some(c) => Refused::MustFollow(c),
                    None => Refused::NotNow,
                },
            };
            kind.refusal(lang)
        })?;
        Ok(action_to_json(seat, a))
    }
}

impl HostedGame for PoltGame {
    fn game(&self) -> &'static str {
        stikis_core::games::polt::record::GAME
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn start_deal(&mut self, seed: Seed) -> Result<Value, Refusal> {
        let session = match &mut self.session {
            Some(s) => s,
            None => self.session.insert(
                Session::from_seed(self.options, self.seats, self.hands, seed)
                    .map_err(|e| Refusal(e.to_string()))?,
            ),
        };
        let d = session.start_hand(seed).map_err(|e| Refusal(e.to_string()))?;
        serde_json::to_value(deal_record(d))
            .map(without_actions)
            .map_err(|e| Refusal(e.to_string()))
    }

    fn restore_deal(&mut self, deal: &Value) -> Result<(), Refusal> {
        let rec = DealRecord::deserialize(&with_no_actions(deal))
            .map_err(|e| Refusal(format!("a stored deal is malformed ({e})")))?;
        let session = match &mut self.session {
            Some(s) => s,
            None => self.session.insert(
                Session::new(self.options, self.seats, self.hands, &rec.ranks)
                    .map_err(|e| Refusal(e.to_string()))?,
            ),
        };
        if rec.ranks != session.ranks() {
            return Err(Refusal(
                "a stored hand's ranks are not the last hand's result".into(),
            ));
        }
        let hands: Vec<CardSet> = rec.hands.iter().map(|h| h.iter().copied().collect()).collect();
        session
            .start_hand_with(&hands)
            .map_err(|e| Refusal(e.to_string()))?;
        Ok(())
    }

    fn deal_no(&self) -> usize {
        self.session
            .as_ref()
            .map_or(0, |s| s.finished().len() + usize::from(s.current().is_some()))
    }

    fn in_deal(&self) -> bool {
        self.deal().is_some()
    }

    fn to_act(&self) -> Option<Seat> {
        self.deal().and_then(|d| d.to_act())
    }

    fn picture(&self) -> Picture {
        let mut p = Picture::waiting("polt", self.seats);
        p.lines = &LINES;
        p.totals = self.totals();
        p.over = self.is_over();
        let Some(d) = self.last_deal() else {
            return p;
        };
        let open = self.open_view();
        p.deal_no = self.deal_no();
        p.title = Some(Word::Msg(
            "polt-title",
            vec![
                ("deal", Word::Int(self.deal_no() as i64)),
                ("hands", Word::Int(i64::from(self.hands))),
            ],
        ));
        p.phase = match d.stage() {
            Stage::Exchange | Stage::Trump => picture::Phase::Exchange,
            Stage::Play => picture::Phase::Play,
            Stage::Over => picture::Phase::Done,
        };
        let n = d.seat_count();
        p.ranks = d
            .ranks()
            .iter()
            .enumerate()
            .map(|(r, &s)| (Word::msg(title_key(Title::of(r, n))), s))
            .collect();
        // The exchange as the table sees it: who gave and who returned, never which card;
        // one line per pair (the Tzar and the Polt swap two cards: one line, "2 cards").
        if matches!(d.stage(), Stage::Exchange | Stage::Trump) {
            let mut pairs: Vec<(Seat, Seat, usize, bool)> = Vec::new();
            for e in d.exchange() {
                match pairs.iter_mut().find(|p| (p.0, p.1) == (e.giver, e.receiver)) {
                    Some(p) => {
                        p.2 += 1;
                        p.3 &= e.returned.is_some();
                    }
                    None => pairs.push((e.giver, e.receiver, 1, e.returned.is_some())),
                }
            }
            p.exchange = pairs
                .iter()
                .map(|&(giver, receiver, count, done)| {
                    let key = if done { "polt-exchanged" } else { "polt-exchanging" };
                    Word::Msg(
                        key,
                        vec![
                            ("giver", Word::Seat(giver)),
                            ("receiver", Word::Seat(receiver)),
                            ("count", Word::Int(count as i64)),
                        ],
                    )
                })
                .collect();
        }
        p.trump_line = d
            .trump()
            .map(|s| Word::Msg("polt-trump", vec![("suit", Word::Plain(suit_symbol(s).into()))]));
        p.play_from(open, d.stage() == Stage::Play);
        if !d.tricks().is_empty() {
            p.taken = d
                .ranks()
                .iter()
                .map(|&s| (Word::Seat(s), i64::from(d.won()[s as usize])))
                .collect();
        }
        p.to_act = d.to_act();
        let ended = self
            .deal_no()
            .checked_sub(1)
            .and_then(|i| self.session.as_ref()?.results().get(i));
        if let (Stage::Over, Some(r)) = (d.stage(), ended) {
            // No contract and no declarer: the sheet counts each seat's tricks.
            p.result = Some(picture::DealResult {
                ended: None,
                declarer: None,
                declarer_won: None,
                deltas: r.tricks.iter().map(|&x| i64::from(x)).collect(),
                totals: p.totals.iter().map(|&x| i64::from(x)).collect(),
                pules: None,
            });
        }
        p
    }

    fn legal(&self, seat: Seat) -> Vec<Value> {
        match self.deal().filter(|d| d.to_act() == Some(seat)) {
            Some(d) => d
                .legal_actions()
                .iter()
                .map(|&a| action_to_json(seat, a))
                .collect(),
            None => Vec::new(),
        }
    }

    fn seat_picture(&self, seat: Seat) -> SeatPicture {
        let mut p = SeatPicture::new(seat);
        let Some(last) = self.last_deal() else {
            return p;
        };
        let v = last.view(seat);
        p.hand = sorted(v.hand, v.trump);
        let rank = Title::of(last.rank_of(seat), last.seat_count());
        p.notes.push(Word::Msg(
            "polt-your-rank",
            vec![("rank", Word::msg(title_key(rank)))],
        ));
        // What this seat gave and got in the exchange: only giver and receiver see the cards.
        for e in &v.exchange {
            if let Some(c) = e.given {
                let key = if e.giver == seat {
                    "polt-you-gave"
                } else {
                    "polt-you-received"
                };
                p.notes.push(Word::Msg(key, vec![("card", Word::Card(c))]));
            }
            if let Some(c) = e.returned {
                let key = if e.receiver == seat {
                    "polt-you-returned"
                } else {
                    "polt-you-got-back"
                };
                p.notes.push(Word::Msg(key, vec![("card", Word::Card(c))]));
            }
        }
        let Some(d) = self.deal().filter(|d| d.to_act() == Some(seat)) else {
            return p;
        };
        p.to_act = true;
        let legal = d.legal_actions();
        let cards = |prefix: &str| {
            let set: CardSet = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Give(c) | Action::Return(c) | Action::Play(c) => Some(*c),
                    Action::Trump(_) => None,
                })
                .collect();
            card_decisions(sorted(set, d.trump()), prefix, None)
        };
        p.decisions = match d.phase() {
            Phase::Give { .. } => {
                p.prompt.push(Word::msg("polt-give-one"));
                cards("g")
            }
            Phase::Return { received, .. } => {
                p.prompt.push(match received.suit() {
                    Some(s) => Word::Msg(
                        "polt-return-suit",
                        vec![("suit", Word::Plain(suit_symbol(s).into()))],
                    ),
                    None => Word::msg("polt-return-joker"),
                });
                cards("r")
            }
            Phase::Play => cards("p"),
            Phase::Trump => {
                p.prompt.push(Word::msg("polt-name-trump"));
                vec![Suit::ALL
                    .iter()
                    .map(|&s| {
                        say(
                            Word::Msg(
                                "polt-button-trump",
                                vec![("suit", Word::Plain(suit_symbol(s).into()))],
                            ),
                            format!("t:{}", s.letter()),
                        )
                    })
                    .collect()]
            }
            Phase::Over => Vec::new(),
        };
        p
    }

    fn press(&mut self, seat: Seat, code: &str, lang: Lang) -> Result<Pressed, Refusal> {
        let d = self.deal().ok_or_else(|| Refusal(t(lang, "button-stale", &[])))?;
        if d.to_act() != Some(seat) {
            return Err(Refusal(t(lang, "turn-not-yours", &[])));
        }
        let bad = || Refusal(t(lang, "button-bad", &[]));
        let (kind, arg) = code.split_once(':').unwrap_or((code, ""));
        let card = || arg.parse::<Card>().map_err(|_| bad());
        let action = match kind {
            "g" => Action::Give(card()?),
            "r" => Action::Return(card()?),
            "p" => Action::Play(card()?),
            "t" => Action::Trump(arg.parse::<Suit>().map_err(|_| bad())?),
            _ => return Err(bad()),
        };
        self.check(seat, action, lang).map(Pressed::Action)
    }

    fn apply(&mut self, action: &Value) -> Result<Option<DealReport>, Refusal> {
        let (seat, a) = action_from_json(action).map_err(Refusal)?;
        let deal_no = self.deal_no();
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| Refusal("no hand is in progress".into()))?;
        let Some(r) = session.apply(seat, a).map_err(|e| Refusal(e.to_string()))? else {
            return Ok(None);
        };
        let n = r.tricks.len();
        Ok(Some(DealReport {
            deal_no,
            deltas: r.tricks.iter().map(|&x| i32::from(x)).collect(),
            // The Tzar is the table's "declarer": the leaderboard's wins as declarer count the
            // hands played as Tzar (RULES.md 3: time spent as Tzar is kept).
            declarer: r.ranks_before.first().copied(),
            declarer_won: true,
            pules_written: vec![0; n],
            pules_removed: vec![0; n],
        }))
    }

    fn bot_action(&self, level: Level, rng_seed: u64, budget_ms: u64) -> Value {
        let d = self.deal().expect("a bot is asked only during a hand");
        let seat = d.to_act().expect("a bot is asked only on its turn");
        let mut player = ai::polt::player(level, self.options);
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        let budget = super::move_budget(budget_ms);
        let a = player.choose(&d.view(seat), &mut rng, &budget);
        action_to_json(seat, a)
    }

    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.last_deal()
            .map(|d| {
                let v = d.view(seat);
                sorted(v.hand, v.trump)
            })
            .unwrap_or_default()
    }

    fn result_text(&self, report: &DealReport, lang: Lang, names: &[String]) -> String {
        let Some(s) = &self.session else {
            return String::new();
        };
        let Some(r) = s.results().get(report.deal_no.saturating_sub(1)) else {
            return String::new();
        };
        let mut lines = vec![t(
            lang,
            "deal-result-header",
            &[("game", self.game().into()), ("deal", Arg::from(report.deal_no))],
        )];
        let tricks = listed(
            r.ranks_before
                .iter()
                .map(|&seat| (name(names, seat), r.tricks[seat as usize])),
        );
        lines.push(t(lang, "polt-tricks-taken", &[("list", tricks.into())]));
        let n = r.ranks_after.len();
        let ranks: Vec<String> = r
            .ranks_after
            .iter()
            .enumerate()
            .map(|(i, &seat)| format!("{}: {}", title_word(lang, Title::of(i, n)), name(names, seat)))
            .collect();
        lines.push(t(lang, "polt-new-ranks", &[("ranks", ranks.join(" · ").into())]));
        let totals = self.totals();
        let scores = listed((0..self.seats).map(|seat| (name(names, seat as Seat), totals[seat])));
        lines.push(t(lang, "polt-total-tricks", &[("totals", scores.into())]));
        if s.is_over() && report.deal_no == self.deal_no() {
            lines.push(t(
                lang,
                "polt-final",
                &[("name", name(names, s.ranks()[0]).into())],
            ));
        }
        lines.join("\n")
    }

    fn totals(&self) -> Vec<i32> {
        match &self.session {
            Some(s) => s.standing().tricks.iter().map(|&x| x as i32).collect(),
            None => vec![0; self.seats],
        }
    }

    /// Each table is a session of its own, its first ranks drawn at random: nothing of the
    /// chat's sheet is in play at a table (docs/rules-decisions.md).
    fn sheet_extras(&self, _players: &[String]) -> Value {
        Value::Null
    }

    fn carry_in(&mut self, _extras: &Value, _players: &[String]) {}

    /// Nothing is left to settle: the standing is the rank order.
    fn settle(&mut self) -> Vec<i32> {
        vec![0; self.seats]
    }

    fn record(&self, names: &[String]) -> Envelope {
        match &self.session {
            Some(s) => session_record(s, names),
            None => Envelope {
                game: self.game().into(),
                rules: self.options.to_rules(),
                players: names.to_vec(),
                deals: Vec::new(),
            },
        }
    }

    fn open_view(&self) -> OpenView {
        let Some(d) = self.deal_at(self.deal_no()) else {
            return OpenView::default();
        };
        let mut all = d.unused();
        for s in 0..d.seat_count() as Seat {
            all |= d.dealt(s);
        }
        let trumps = match d.trump() {
            Some(t) => {
                let order = TrumpOrder::new(t, d.options().bowers);
                all.iter().filter(|&c| order.suit_of(c) == t).collect()
            }
            None => CardSet::EMPTY,
        };
        OpenView {
            beside: None,
            hands: (0..d.seat_count() as Seat).map(|s| d.hand(s)).collect(),
            tricks: d.tricks().iter().map(|t| (t.cards.to_vec(), t.winner)).collect(),
            trick: d.current_trick().to_vec(),
            trumps,
        }
    }

    /// The cards in hands and the cards nobody was dealt (the joker may be among them): none
    /// is ever shown to the table.
    fn action_text(&self, action: &Value, lang: Lang, names: &[String]) -> Option<String> {
        let (seat, a) = action_from_json(action).ok()?;
        let who = Arg::from(name(names, seat));
        Some(match a {
            Action::Give(c) => t(
                lang,
                "web-act-give",
                &[("name", who), ("card", labels([c]).into())],
            ),
            Action::Return(c) => t(
                lang,
                "web-act-return",
                &[("name", who), ("card", labels([c]).into())],
            ),
            Action::Trump(s) => t(
                lang,
                "web-act-trump",
                &[("name", who), ("suit", suit_symbol(s).into())],
            ),
            Action::Play(_) => return None,
        })
    }

    fn hidden_cards(&self, deal_no: usize) -> Vec<String> {
        let Some(d) = self.deal_at(deal_no) else {
            return Vec::new();
        };
        let mut hidden = d.unused();
        for s in 0..d.seat_count() as Seat {
            hidden |= d.hand(s);
        }
        hidden.iter().map(card_label).collect()
    }

    fn is_over(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.is_over())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn code(a: Action) -> String {
        match a {
            Action::Give(c) => format!("g:{c}"),
            Action::Return(c) => format!("r:{c}"),
            Action::Trump(s) => format!("t:{}", s.letter()),
            Action::Play(c) => format!("p:{c}"),
        }
    }

    #[test]
    fn the_buttons_are_exactly_the_legal_actions_and_press_to_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for seats in 5..=7 {
            let mut g = PoltGame::new(&serde_json::json!({"hands": 3}), seats).unwrap();
            for hand in 0..3u64 {
                g.start_deal(Seed::from_u64(hand + 100 * seats as u64)).unwrap();
                while let Some(seat) = g.to_act() {
                    let legal: Vec<Action> = g.deal().unwrap().legal_actions().iter().copied().collect();
                    let want: BTreeSet<String> = legal.iter().map(|&a| code(a)).collect();
                    let rows = g.buttons(seat, Lang::En);
                    let got: BTreeSet<String> = rows.iter().flatten().map(|b| b.code.clone()).collect();
                    assert_eq!(got, want);
                    assert!(rows.iter().flatten().count() <= 25);
                    for other in (0..seats as Seat).filter(|&s| s != seat) {
                        assert!(g.buttons(other, Lang::En).is_empty());
                    }
                    for &a in &legal {
                        assert_eq!(
                            g.press(seat, &code(a), Lang::En),
                            Ok(Pressed::Action(action_to_json(seat, a)))
                        );
                    }
                    let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                    g.apply(&action_to_json(seat, a)).unwrap();
                }
            }
            assert!(g.is_over());
            assert!(g.start_deal(Seed::from_u64(9)).is_err(), "no hand after the last");
            let tricks: i32 = g.totals().iter().sum();
            let per_hand = stikis_core::games::polt::hand_size(seats).unwrap() as i32;
            assert_eq!(tricks, 3 * per_hand);
        }
    }

    #[test]
    fn hands_are_a_table_option_kept_out_of_the_record_rules() {
        let g = PoltGame::new(&serde_json::json!({"preset": "default", "hands": 4}), 5).unwrap();
        assert_eq!(g.hands, 4);
        assert_eq!(g.record(&[]).rules, Value::String("default".into()));
        assert!(PoltGame::new(&serde_json::json!({"hands": 0}), 5).is_err());
        assert!(PoltGame::new(&Value::String("default".into()), 4).is_err());
        assert!(PoltGame::new(&serde_json::json!({"bowers": true}), 8).is_err());
        assert_eq!(
            PoltGame::new(&Value::String("default".into()), 6).unwrap().hands,
            DEFAULT_HANDS
        );
    }
}
