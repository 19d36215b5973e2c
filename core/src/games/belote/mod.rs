//! The Belote family (RULES.md section 2): Bazar, French classic, head-to-head and Coinche.
//!
//! `play` and `combos` hold what every variant shares (trick rules, rank and point tables,
//! combinations); `bazar`, `classic` and `coinche` each own one variant's bidding and scoring
//! (head-to-head lives with French classic, whose take/pass bidding it shares); `deal` is the
//! engine one deal runs in, `session` the deal-after-deal table, `record` the records and replay.

pub mod arena;
pub mod bazar;
pub mod classic;
pub mod coinche;
pub mod combos;
pub mod deal;
pub mod options;
pub mod play;
pub mod record;
pub mod session;

use std::fmt;

use crate::cards::Suit;
use crate::game::Seat;

pub use deal::{Action, Bid, BidRule, Contract, Deal, DealResult, Error, Phase, SeatView};
pub use options::{Options, Rounding};
pub use play::Mode;
pub use session::Session;

/// Which member of the family a table plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Bazar,
    Classic,
    HeadToHead,
    Coinche,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Bazar,
        Variant::Classic,
        Variant::HeadToHead,
        Variant::Coinche,
    ];

    /// The `game` of a record.
    pub const fn game_name(self) -> &'static str {
        match self {
            Variant::Bazar => "belote-bazar",
            Variant::Classic => "belote-classic",
            Variant::HeadToHead => "belote-h2h",
            Variant::Coinche => "coinche",
        }
    }

    pub fn from_game_name(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_name() == s)
    }

    pub const fn seats(self) -> usize {
        match self {
            Variant::HeadToHead => 2,
            _ => 4,
        }
    }

    /// Cards each seat holds when the play starts.
    pub const fn hand_size(self) -> usize {
        match self {
            Variant::HeadToHead => 9,
            _ => 8,
        }
    }

    /// Cards each seat holds before the take (the take/pass variants deal in two parts).
    pub const fn first_hand_size(self) -> usize {
        match self {
            Variant::Classic => 5,
            Variant::HeadToHead => 6,
            _ => 8,
        }
    }

    /// Cards dealt after the take (the stock), in head-to-head only those actually dealt.
    pub const fn stock_size(self) -> usize {
        match self {
            Variant::Classic => 11,
            Variant::HeadToHead => 5,
            _ => 0,
        }
    }

    /// Whether the variant has the take/pass bidding with a turned card.
    pub const fn has_turned_card(self) -> bool {
        matches!(self, Variant::Classic | Variant::HeadToHead)
    }

    pub const fn default_target(self) -> i32 {
        match self {
            Variant::Bazar => 301,
            Variant::Classic | Variant::Coinche => 501,
            Variant::HeadToHead => 101,
        }
    }

    /// The next seat in the direction of play: clockwise, counter-clockwise in Coinche.
    pub const fn next(self, seat: Seat) -> Seat {
        let n = self.seats() as u8;
        match self {
            Variant::Coinche => (seat + n - 1) % n,
            _ => (seat + 1) % n,
        }
    }

    /// A seat's team (0: seats 0 and 2, 1: seats 1 and 3); in head-to-head, the seat itself.
    pub const fn team(self, seat: Seat) -> u8 {
        seat % 2
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.game_name())
    }
}

/// `C D H S`: suits as they are written in bids.
pub(crate) fn suit_from_letter(s: &str) -> Option<Suit> {
    match s {
        "C" | "D" | "H" | "S" => s.parse().ok(),
        _ => None,
    }
}
