//! The Zole score-sheet pools (RULES.md 1.8, 1.11): common and personal pules with their
//! removal priority and payments, the zolite tree, and the end-of-session settlement.

use serde::{Deserialize, Serialize};

use super::options::{AllPass, Options};
use super::scoring::{Kind, Outcome};
use crate::game::Seat;

/// The open pules and tree branches of a score sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pules {
    pub common: u32,
    /// Owners of open personal pules, oldest first (a seat may hold several).
    pub personal: Vec<Seat>,
    pub tree: u32,
}

/// What a deal did to the pules, for leaderboards and messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuleEvents {
    pub common_written: u32,
    /// The seat that removed a common pule.
    pub common_removed_by: Option<Seat>,
    pub personal_written_to: Option<Seat>,
    /// (owner, remover) of a removed personal pule.
    pub personal_removed: Option<(Seat, Seat)>,
    pub tree_added: bool,
    /// Branches paid out by this deal.
    pub tree_paid: u32,
}

impl Pules {
    pub fn any_open(&self) -> bool {
        self.common > 0 || !self.personal.is_empty()
    }

    /// Open personal pules per seat.
    pub fn personal_counts(&self, players: usize) -> Vec<u32> {
        let mut v = vec![0; players];
        for &s in &self.personal {
            if let Some(x) = v.get_mut(s as usize) {
                *x += 1;
            }
        }
        v
    }

    /// Applies one finished deal: adds the pule and tree payments to `deltas` (which hold the
    /// deal's own score) and updates the open pules and branches.
    pub fn apply_deal(&mut self, opts: &Options, o: &Outcome, deltas: &mut [i32]) -> PuleEvents {
        let n = deltas.len();
        let mut ev = PuleEvents::default();
        let pule_contract = match o.kind {
            Kind::Take => true,
            Kind::Zole | Kind::SmallZole => opts.pules_on_zole,
            _ => false,
        };
        match (o.kind, o.declarer, o.declarer_won) {
            (Kind::Pule, _, _) if opts.all_pass == AllPass::Tree => {
                self.tree += 1;
                ev.tree_added = true;
            }
            (Kind::Pule, _, _) => {
                let k = if n >= 4 && !self.any_open() { 2 } else { 1 };
                self.common += k;
                ev.common_written = k;
            }
            (Kind::Tie, _, _) => {
                self.tree += 1;
                ev.tree_added = true;
            }
            (_, Some(d), Some(true)) if pule_contract => self.remove_one(opts, d, deltas, &mut ev),
            (_, Some(d), Some(false)) if pule_contract && self.any_open() => {
                self.personal.push(d);
                ev.personal_written_to = Some(d);
            }
            _ => {}
        }
        if o.kind == Kind::Galdins && opts.all_pass == AllPass::Rondo {
            let k = if n >= 4 { 2 } else { 1 };
            self.common += k;
            ev.common_written = k;
        }
        if self.tree > 0 && o.has_winner() {
            for w in (0..n).filter(|&s| o.winners & (1 << s) != 0) {
                for l in (0..n).filter(|&s| o.losers & (1 << s) != 0) {
                    deltas[w] += self.tree as i32;
                    deltas[l] -= self.tree as i32;
                }
            }
            ev.tree_paid = self.tree;
            self.tree = 0;
        }
        ev
    }

    /// A winning declarer removes his own personal pule (no bonus), else a common pule (+1
    /// from every other player), else the oldest personal pule of another player, whose owner
    /// pays him `personal_pule_payment`.
    fn remove_one(&mut self, opts: &Options, d: Seat, deltas: &mut [i32], ev: &mut PuleEvents) {
        let n = deltas.len();
        if let Some(i) = self.personal.iter().position(|&s| s == d) {
            self.personal.remove(i);
            ev.personal_removed = Some((d, d));
        } else if self.common > 0 {
            self.common -= 1;
            for (s, x) in deltas.iter_mut().enumerate() {
                *x += if s == d as usize { n as i32 - 1 } else { -1 };
            }
            ev.common_removed_by = Some(d);
        } else if !self.personal.is_empty() {
            let owner = self.personal.remove(0);
            let pay = opts.personal_pule_payment as i32;
            deltas[owner as usize] -= pay;
            deltas[d as usize] += pay;
            ev.personal_removed = Some((owner, d));
        }
    }

    /// Closing the table: each open personal pule costs its owner 1 per other player (option
    /// `settle_pules_at_end`); common pules and branches lapse. Returns the deltas.
    pub fn settle_end(&mut self, opts: &Options, players: usize) -> Vec<i32> {
        let mut deltas = vec![0; players];
        if opts.settle_pules_at_end {
            for &owner in &self.personal {
                for (s, x) in deltas.iter_mut().enumerate() {
                    *x += if s == owner as usize {
                        -(players as i32 - 1)
                    } else {
                        1
                    };
                }
            }
        }
        *self = Pules::default();
        deltas
    }
}
