//! A game's computer players in a match against each other (`stikis arena`, `stikis bench`):
//! what each game's entry in [`super::GAMES`] opens (`GameInfo::computers`). The game plays
//! its deals through with the players of each slot under every rotation of the slots over
//! the seats; the tools around it only count.

use std::time::{Duration, Instant};

use crate::ai::{Budget, Level};
use crate::Seed;

/// Who sits in a slot: a computer player of a level, or the `peek` reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Entrant {
    Ai(Level),
    /// REFERENCE ONLY, NOT A PLAYER: plays its cards double dummy on the real hands (it looks
    /// at every hidden card); bids and buries like `strong`. It measures how far the honest
    /// levels are from perfect information, and exists nowhere but in a match, for the games
    /// that have it (`Computers::peek`).
    Peek,
}

impl Entrant {
    pub fn name(self) -> &'static str {
        match self {
            Entrant::Ai(l) => l.name(),
            Entrant::Peek => "peek",
        }
    }

    /// The level it bids and plays as (`peek` bids as `strong`).
    pub fn level(self) -> Level {
        match self {
            Entrant::Ai(l) => l,
            Entrant::Peek => Level::Strong,
        }
    }
}

impl std::str::FromStr for Entrant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "peek" => Ok(Entrant::Peek),
            s => s.parse().map(Entrant::Ai),
        }
    }
}

/// A match: who sits in each slot, the rules preset (None: the game's default), the seed the
/// deals are drawn from, and a strong player's time per move.
#[derive(Debug, Clone)]
pub struct Match {
    pub entrants: Vec<Entrant>,
    pub rules: Option<String>,
    pub seed: u64,
    pub budget: Duration,
}

impl Match {
    /// The seed of deal `i` of the match.
    pub fn deal_seed(&self, i: usize) -> Seed {
        Seed::from_u64(self.seed.wrapping_mul(1_000_003).wrapping_add(i as u64))
    }

    /// The seed of the players' own randomness in deal `i` under rotation `r`.
    pub fn rng_seed(&self, i: usize, r: usize) -> u64 {
        self.seed ^ ((i as u64) << 8) ^ r as u64
    }

    /// The budget of one move of `who`: only a `strong` player (and `peek`, which bids as
    /// one) asks it, so only theirs reads the clock.
    pub fn deadline(&self, who: Entrant) -> Deadline {
        Deadline((who.level() == Level::Strong).then(|| Instant::now() + self.budget))
    }
}

/// A move's time limit (`Match::deadline`); none for the levels that never ask.
pub struct Deadline(Option<Instant>);

impl Budget for Deadline {
    fn expired(&self) -> bool {
        self.0.is_some_and(|end| Instant::now() >= end)
    }
}

/// One deal of a match under every rotation: per rotation, each slot's score; and the
/// records of the deals played, when asked for (one JSON record each).
pub type Played = (Vec<Vec<i32>>, Vec<String>);

/// One thread's table of a match: its players, kept from deal to deal.
pub trait MatchTable {
    /// Plays deal `i` under every rotation of the slots over the seats.
    fn play(&mut self, i: usize, records: bool) -> Played;
}

/// A game's computer players in a match.
#[derive(Debug, Clone, Copy)]
pub struct Computers {
    /// The fewest and most slots of a match: one per seat, or one per team in a team game.
    pub slots: (usize, usize),
    /// The slots when nobody says (`stikis bench`'s rotations).
    pub default_slots: usize,
    /// Whether the `peek` reference can sit in a slot.
    pub peek: bool,
    /// What a slot's score of a deal counts, for the report ("game points", "tricks").
    pub units: &'static str,
    /// The rules preset a match reads, by name, in the report's words (its JSON), or why it
    /// cannot be played with them.
    pub rules: fn(Option<&str>) -> Result<String, String>,
    /// Opens one thread's table for a match whose slots and rules were checked.
    pub open: fn(&Match) -> Box<dyn MatchTable>,
}
