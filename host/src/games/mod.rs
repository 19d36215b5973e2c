//! The host's face of each game: a `HostedGame` wraps one core session and speaks in record
//! JSON (the action log stores exactly the record's action objects), short button codes, and
//! rendered text. Adding a game to the bots means implementing this trait and naming the game in
//! `registry.rs` (docs/adding-a-game.md); nothing else in the host knows a rule.

pub mod belote;
pub mod polt;
mod refusal;
pub mod registry;
pub mod zole;

pub(crate) use crate::draw::listed;
pub use crate::picture::name;
pub use crate::picture::OpenView;
pub use registry::{default_rules, game_title, in_teams, new_game, seat_range, settle_sheet, GAMES, HOSTED};

use std::time::{Duration, Instant};

use serde_json::Value;
use stikis_core::ai::{Budget, Level};
use stikis_core::cards::{Card, Suit};
use stikis_core::record::Envelope;
use stikis_core::{Seat, Seed};

use crate::i18n::Lang;
use crate::picture::{Picture, SeatPicture, BUTTONS_PER_ROW};

/// A button of a player's hand: its label and the code the game reads back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameButton {
    pub label: String,
    pub code: String,
    /// Shown but not pressable (`hand_buttons`: a card that cannot be played now).
    pub disabled: bool,
    /// The card of the hand the button is made with, if any (`Choice::card`).
    pub card: Option<Card>,
}

/// What a press did, before it is committed.
#[derive(Debug, Clone, PartialEq)]
pub enum Pressed {
    /// A move to commit: the record action object (with its "seat").
    Action(Value),
    /// A change of the seat's own selection that is not a move (the first card of a burial):
    /// nothing is committed; the hand is redrawn.
    Selection,
}

/// Why a press or an action was refused, in the presser's language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

/// The end of a deal as the host reports and counts it.
#[derive(Debug, Clone, PartialEq)]
pub struct DealReport {
    pub deal_no: usize,
    pub deltas: Vec<i32>,
    pub declarer: Option<Seat>,
    pub declarer_won: bool,
    /// Pules written to / removed by each seat in this deal (common pules count for nobody).
    pub pules_written: Vec<i64>,
    pub pules_removed: Vec<i64>,
}

/// One game as the host plays it. Implementations are pure and synchronous.
pub trait HostedGame: Send + Sync {
    /// The record's `game` name.
    fn game(&self) -> &'static str;
    fn seats(&self) -> usize;
    /// Deals the next deal from a seed; returns the record deal object (no actions).
    fn start_deal(&mut self, seed: Seed) -> Result<Value, Refusal>;
    /// Re-creates a stored deal (after a restart).
    fn restore_deal(&mut self, deal: &Value) -> Result<(), Refusal>;
    /// Deals started so far.
    fn deal_no(&self) -> usize;
    /// True while a deal is being played.
    fn in_deal(&self) -> bool;
    fn to_act(&self) -> Option<Seat>;
    /// The public part of the deal shown (in progress or just ended): never a hidden card.
    fn picture(&self) -> Picture;
    /// `seat`'s private part: its hand, the decisions open to it now (empty when it may not
    /// act: Zole's declarer keeps Surrender while the others play) and what it is asked.
    fn seat_picture(&self, seat: Seat) -> SeatPicture;
    /// Every move the rules allow `seat` now, as record actions: what its decisions must
    /// reach, no more and no less.
    fn legal(&self, seat: Seat) -> Vec<Value>;
    /// The buttons of `seat`'s decisions (`seat_picture`), in rows, labelled in `lang`.
    fn buttons(&self, seat: Seat, lang: Lang) -> Vec<Vec<GameButton>> {
        self.seat_picture(seat)
            .decisions
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|d| GameButton {
                        label: d.choice.label(lang, &[]),
                        code: d.code,
                        disabled: false,
                        card: d.choice.card(),
                    })
                    .collect()
            })
            .collect()
    }
    /// The buttons of `seat`'s hand where a surface can show disabled buttons: `buttons`,
    /// but when cards are to be played, every card of the hand in its order, those that
    /// cannot be played now disabled (with the code their play would have: a press on one is
    /// refused as an illegal move), then the decisions that are no card play.
    fn hand_buttons(&self, seat: Seat, lang: Lang) -> Vec<Vec<GameButton>> {
        use crate::picture::Choice;
        let p = self.seat_picture(seat);
        let plays: Vec<(Card, String)> = p
            .decisions
            .iter()
            .flatten()
            .filter_map(|d| match d.choice {
                Choice::Play(c) => Some((c, d.code.clone())),
                _ => None,
            })
            .collect();
        let kind = plays
            .first()
            .and_then(|(_, code)| code.split_once(':'))
            .map(|(k, _)| k.to_string());
        let Some(kind) = kind.filter(|_| p.hand.iter().any(|c| plays.iter().all(|(p, _)| p != c))) else {
            return self.buttons(seat, lang);
        };
        let cards: Vec<GameButton> = p
            .hand
            .iter()
            .map(|c| match plays.iter().find(|(p, _)| p == c) {
                Some((_, code)) => GameButton {
                    label: Choice::Play(*c).label(lang, &[]),
                    code: code.clone(),
                    disabled: false,
                    card: Some(*c),
                },
                None => GameButton {
                    label: Choice::Play(*c).label(lang, &[]),
                    code: format!("{kind}:{c}"),
                    disabled: true,
                    card: Some(*c),
                },
            })
            .collect();
        let mut rows: Vec<Vec<GameButton>> = cards
            .chunks(BUTTONS_PER_ROW)
            .map(<[GameButton]>::to_vec)
            .collect();
        for row in p.decisions {
            let row: Vec<GameButton> = row
                .into_iter()
                .filter(|d| !matches!(d.choice, Choice::Play(_)))
                .map(|d| GameButton {
                    label: d.choice.label(lang, &[]),
                    code: d.code,
                    disabled: false,
                    card: d.choice.card(),
                })
                .collect();
            if !row.is_empty() {
                rows.push(row);
            }
        }
        rows
    }
    /// Reads a button code pressed by `seat`: a move, a selection, or a refusal.
    fn press(&mut self, seat: Seat, code: &str, lang: Lang) -> Result<Pressed, Refusal>;
    /// Applies a record action (already committed); returns the deal's report when it ended it.
    fn apply(&mut self, action: &Value) -> Result<Option<DealReport>, Refusal>;
    /// A computer player's move for the seat to act, as a record action.
    fn bot_action(&self, level: Level, rng_seed: u64, budget_ms: u64) -> Value;
    /// The public table message: its picture in words (`crate::draw`), never a hidden card.
    fn public_text(&self, lang: Lang, names: &[String]) -> String {
        crate::draw::table_text(&self.picture(), lang, names)
    }
    /// What `seat` sees privately: its own hand and what it may do (`crate::draw`).
    fn hand_text(&self, seat: Seat, lang: Lang, names: &[String]) -> String {
        crate::draw::hand_text(&self.picture(), &self.seat_picture(seat), lang, names)
    }
    /// The result message of a finished deal.
    fn result_text(&self, report: &DealReport, lang: Lang, names: &[String]) -> String;
    fn totals(&self) -> Vec<i32>;
    /// The game's score-sheet extras (Zole: open pules and tree), stored with the chat's
    /// sheet; `players` names the seats (user ids), so a later table seated differently can
    /// carry them on.
    fn sheet_extras(&self, players: &[String]) -> Value;
    /// Starts from the chat's open score sheet: its extras as `sheet_extras` wrote them, and
    /// this table's players by seat. Called before the first deal.
    fn carry_in(&mut self, extras: &Value, players: &[String]);
    /// Closing the table: settles what the rules settle at the end; returns the deltas.
    fn settle(&mut self) -> Vec<i32>;
    /// The session as a record.
    fn record(&self, names: &[String]) -> Envelope;
    /// What the record alone does not tell, to be said beside it: a table that went on from
    /// the chat's score sheet started from state (Zole: open pules) that RECORD.md has no
    /// field for, so `stikis replay` scores its record from an empty sheet.
    fn record_note(&self, _lang: Lang) -> Option<String> {
        None
    }
    /// `seat`'s cards in the last deal, in the order its players sort a hand (Zole: trumps
    /// first): what the live table draws at the bottom of that seat's page.
    fn hand(&self, seat: Seat) -> Vec<Card>;
    /// Every card label of deal `deal_no` (from 1) that no public message may show now: the
    /// cards still in hands and, while the deal runs, the talon and bury. The tests check every
    /// public message about that deal against it.
    fn hidden_cards(&self, deal_no: usize) -> Vec<String>;
    /// The last deal (in progress or just ended) with every hand open: for the viewer of
    /// finished deals only.
    fn open_view(&self) -> OpenView;
    /// A record action told in words as the table says it ("Anna bids: Take", "Anna buries
    /// J♥ 9♠"), for the viewer of finished deals; asked before the action is applied. None
    /// for a card played (the viewer tells plays itself) and for an action it cannot read.
    fn action_text(&self, _action: &Value, _lang: Lang, _names: &[String]) -> Option<String> {
        None
    }
    /// For the viewer's analysis of a finished deal, before a card is played: the
    /// double-dummy value of every card the seat to act may play, for that seat (higher is
    /// better; in the contract's units: card points, or tricks in small zole). None where
    /// there is nothing to solve (not a play, no solver for the game or the contract). It
    /// looks at every hand: never for a deal in play.
    fn card_values(&self) -> Option<Vec<(Card, i32)>> {
        None
    }
    /// True when the game has ended by its own rules (Belote: a side reached the target;
    /// Polt: the agreed number of hands is played): the host deals no more and finishes the
    /// table. Zole is played until the table is stopped.
    fn is_over(&self) -> bool {
        false
    }
    /// `seat`'s half-made choice that is not a move (Zole: the first card of a burial), as
    /// the button code that makes it again: the host keeps it so a restart does not lose it.
    fn selection(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// True while `seat` makes choices that are not moves (Zole: the declarer burying): only
    /// then may another process have kept one (`selection`) that this copy lacks.
    fn selecting(&self, _seat: Seat) -> bool {
        false
    }
}

/// A record deal object as the store keeps it: without its `actions` (the log holds them).
pub fn without_actions(mut deal: Value) -> Value {
    if let Some(m) = deal.as_object_mut() {
        m.remove("actions");
    }
    deal
}

/// A stored deal object as a record's deal: with the empty `actions` the record types need.
pub(crate) fn with_no_actions(deal: &Value) -> Value {
    let mut deal = deal.clone();
    if let Some(m) = deal.as_object_mut() {
        m.insert("actions".into(), Value::Array(Vec::new()));
    }
    deal
}

/// A computer player's budget for one move of `budget_ms`: the strong players poll their
/// budget between pieces of work and return within a few milliseconds of its end, so it ends
/// 10 ms early to keep whole moves within `budget_ms`.
pub(crate) fn move_budget(budget_ms: u64) -> impl Budget {
    let deadline = Instant::now() + Duration::from_millis(budget_ms.saturating_sub(10));
    move || Instant::now() >= deadline
}

/// A computer player's name in `lang` for the seat it holds (seats counted from 1, as people
/// count them).
pub fn computer_name(lang: Lang, seat: Seat) -> String {
    crate::i18n::t(
        lang,
        "computer-name",
        &[("seat", crate::i18n::Arg::from(i64::from(seat) + 1))],
    )
}

/// A suit as messages show it.
pub fn suit_symbol(s: Suit) -> &'static str {
    match s {
        Suit::Clubs => "♣",
        Suit::Diamonds => "♦",
        Suit::Hearts => "♥",
        Suit::Spades => "♠",
    }
}
