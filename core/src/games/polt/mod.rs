//! Polt to Tzar (RULES.md section 3): 5 to 7 players, the 53-card pack, ranks from Tzar down to
//! Polt, the card exchange, trumps named by the Tzar, whist play, and new ranks by tricks.
//!
//! This module owns the rank order helpers shared by the deal, the session and the records:
//! - `options`: the table options and presets;
//! - `play`: card order and trick winners once trumps are named;
//! - `deal`: one hand from the exchange to the last trick;
//! - `session`: a table of N hands, ranks carried from hand to hand, the final standing;
//! - `record`: the record format of RECORD.md and `replay` for game `polt`.

pub mod arena;
pub mod deal;
pub mod options;
pub mod play;
pub mod record;
pub mod session;

use std::cmp::Reverse;
use std::fmt;

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;

use crate::game::{Seat, Seed};

pub use deal::{
    Action, Deal, DealError, Error, Exchange, ExchangeView, Expected, Phase, SeatView, Stage, Trick,
};
pub use options::{JokerRule, Options};
pub use play::TrumpOrder;
pub use session::{HandResult, Session, SessionError, Standing};

pub const MIN_SEATS: usize = 5;
pub const MAX_SEATS: usize = 7;

/// Seats from the Tzar (index 0) down to the Polt (last): `ranks[r]` is the seat holding rank
/// `r`. Seats are players for the whole session; ranks move between them.
pub type RankOrder = ArrayVec<Seat, MAX_SEATS>;

/// Cards dealt to each player: 10 with 5 players, 8 with 6, 7 with 7.
pub const fn hand_size(seats: usize) -> Option<usize> {
    match seats {
        5 => Some(10),
        6 => Some(8),
        7 => Some(7),
        _ => None,
    }
}

/// The named ranks, highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Title {
    Tzar,
    President,
    UpperClass,
    /// One with 6 players, two with 7, none with 5.
    MiddleClass,
    LowerClass,
    Polt,
}

impl Title {
    /// The title of rank index `rank` (0 = Tzar) at a table of `seats`.
    pub const fn of(rank: usize, seats: usize) -> Title {
        match rank {
            0 => Title::Tzar,
            1 => Title::President,
            2 => Title::UpperClass,
            r if r + 1 == seats => Title::Polt,
            r if r + 2 == seats => Title::LowerClass,
            _ => Title::MiddleClass,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Title::Tzar => "Tzar",
            Title::President => "President",
            Title::UpperClass => "Upper Class",
            Title::MiddleClass => "Middle Class",
            Title::LowerClass => "Lower Class",
            Title::Polt => "Polt",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The first deal's ranks, drawn at random from a seed. They come from ChaCha12 stream 1 of the
/// seed, so the same seed can also shuffle the first deal's cards (stream 0) without the two
/// draws being tied to each other.
pub fn ranks_from_seed(seats: usize, seed: Seed) -> RankOrder {
    let mut rng = seed.rng();
    rng.set_stream(1);
    let mut ranks: RankOrder = (0..seats.min(MAX_SEATS) as Seat).collect();
    ranks.shuffle(&mut rng);
    ranks
}

/// The ranks after a hand: most tricks first; equal tricks keep their previous relative order
/// (a stable sort of the old order). `tricks` is indexed by seat.
pub fn next_ranks<T: Ord + Copy>(ranks: &[Seat], tricks: &[T]) -> RankOrder {
    let mut next: RankOrder = ranks.iter().copied().collect();
    next.sort_by_key(|&s| Reverse(tricks[s as usize]));
    next
}

/// True when `ranks` lists each seat `0..seats` exactly once.
pub fn is_rank_order(ranks: &[Seat], seats: usize) -> bool {
    if ranks.len() != seats {
        return false;
    }
    let mut seen = 0u32;
    for &s in ranks {
        if s as usize >= seats || seen & (1 << s) != 0 {
            return false;
        }
        seen |= 1 << s;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_per_table_size() {
        let names = |n: usize| (0..n).map(|r| Title::of(r, n).name()).collect::<Vec<_>>();
        assert_eq!(
            names(5),
            ["Tzar", "President", "Upper Class", "Lower Class", "Polt"]
        );
        assert_eq!(names(6)[3], "Middle Class");
        assert_eq!(names(6)[4], "Lower Class");
        assert_eq!(names(7)[3..5], ["Middle Class", "Middle Class"]);
    }

    #[test]
    fn seeded_first_ranks_are_a_permutation() {
        for n in MIN_SEATS..=MAX_SEATS {
            let r = ranks_from_seed(n, Seed::from_u64(n as u64));
            assert!(is_rank_order(&r, n));
            assert_eq!(r, ranks_from_seed(n, Seed::from_u64(n as u64)));
        }
        assert!(!is_rank_order(&[0, 1, 1, 2, 3], 5));
        assert!(!is_rank_order(&[0, 1, 2, 3, 5], 5));
        assert!(!is_rank_order(&[0, 1, 2, 3], 5));
    }
}
