//! Computer players for every game of stikis-core. A player sees one seat's view and nothing
//! else, draws randomness only from the caller's seeded generator, and asks the caller's
//! `Budget` whether its time is up (core has no clock). The host holds one boxed `Player` per
//! computer seat; `zole::player` and `polt::player` build one for a `Level`.
//!
//! Levels: `random` (legal moves at random, for tests), `basic` (rules of thumb) and `strong`
//! (perfect-information Monte Carlo: sample the hidden cards consistently with the view, solve
//! every sampled world double dummy, play the best average).

use std::fmt;
use std::str::FromStr;

use rand::RngCore;

pub mod belote;
pub mod polt;
pub mod pool;
pub mod zole;

/// The default time a strong player may think per move.
pub const DEFAULT_BUDGET_MS: u64 = 300;

/// Whether the time for this move is up. The caller implements it (with `std::time::Instant`
/// in the host and the arena); a closure `|| bool` is a budget too.
pub trait Budget {
    fn expired(&self) -> bool;
}

impl<F: Fn() -> bool> Budget for F {
    fn expired(&self) -> bool {
        self()
    }
}

/// A budget that never runs out (the strong player then stops at its world limit).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoLimit;

impl Budget for NoLimit {
    fn expired(&self) -> bool {
        false
    }
}

/// How well a computer player plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Random,
    Basic,
    Strong,
}

impl Level {
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(Level::Random),
            "basic" => Ok(Level::Basic),
            "strong" => Ok(Level::Strong),
            _ => Err(format!("unknown level {s:?} (random, basic, strong)")),
        }
    }
}

/// A computer player of one game: given what its seat sees (`V`), it chooses one of the legal
/// actions listed in that view (`A`). It is only asked when it is its seat's turn.
pub trait Player<V, A>: Send {
    fn level(&self) -> Level;
    fn choose(&mut self, view: &V, rng: &mut dyn RngCore, budget: &dyn Budget) -> A;
}
