//! stikis-core: the rules of every game stikis hosts, as pure code: cards, engines, sessions
//! and records. No I/O, no async, no clock, no randomness that is not seeded by the caller.

pub mod ai;
pub mod cards;
pub mod game;
pub mod games;
pub mod rating;
pub mod record;
pub mod session;
pub mod tournament;

pub use cards::{Card, CardSet, Rank, Suit};
pub use game::{ActionList, Game, Seat, Seed};
