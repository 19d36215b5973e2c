//! What a table session shares across games: the running score sheet and the dealer rotation.
//! Game-specific sheet entries (Zole's pules and tree) live in the game's own module.

use serde::{Deserialize, Serialize};

use crate::game::Seat;

/// The running totals of a table: the sum of every deal's deltas, per seat (or per team).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreSheet {
    pub totals: Vec<i32>,
    pub deals: u32,
}

impl ScoreSheet {
    pub fn new(columns: usize) -> Self {
        ScoreSheet {
            totals: vec![0; columns],
            deals: 0,
        }
    }

    /// Adds one deal's deltas (one per column).
    pub fn add(&mut self, deltas: &[i32]) {
        debug_assert_eq!(deltas.len(), self.totals.len());
        for (t, d) in self.totals.iter_mut().zip(deltas) {
            *t += d;
        }
        self.deals += 1;
    }
}

/// The seat after `seat` in clockwise order at a table of `n`.
pub const fn next_seat(seat: Seat, n: usize) -> Seat {
    ((seat as usize + 1) % n) as Seat
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_sums_deltas() {
        let mut s = ScoreSheet::new(3);
        s.add(&[2, -1, -1]);
        s.add(&[-4, 2, 2]);
        assert_eq!(s.totals, vec![-2, 1, 1]);
        assert_eq!(s.deals, 2);
        assert_eq!(next_seat(2, 3), 0);
        assert_eq!(next_seat(3, 5), 4);
    }
}
