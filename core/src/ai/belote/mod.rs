//! Computer players for the Belote family (Bazar, French classic, head-to-head, Coinche):
//! `random`, `basic` (rules of thumb) and `strong` (sampling and double-dummy search), built by
//! `player` for a level and the table's options. The variant is read from each view, so one
//! player serves any member of the family.

pub mod basic;
pub mod dd;
pub mod sample;
pub mod strong;

use rand::{Rng, RngCore};

use crate::ai::{Budget, Level, Player};
use crate::games::belote::{Action, Bid, Options, SeatView};

/// A player to fill a Belote seat at a table playing by `opts` (any variant).
pub fn player(level: Level, opts: &Options) -> Box<dyn Player<SeatView, Action>> {
    match level {
        Level::Random => Box::new(RandomPlayer),
        Level::Basic => Box::new(basic::Basic),
        Level::Strong => Box::new(strong::StrongPlayer::new(*opts)),
    }
}

/// Any legal action, uniformly at random. For tests and as the arena's floor.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl Player<SeatView, Action> for RandomPlayer {
    fn level(&self) -> Level {
        Level::Random
    }
    fn choose(&mut self, v: &SeatView, rng: &mut dyn RngCore, _budget: &dyn Budget) -> Action {
        let n = v.legal.len();
        v.legal
            .get(rng.random_range(0..n.max(1)))
            .copied()
            .unwrap_or(Action::Bid(Bid::Pass))
    }
}
