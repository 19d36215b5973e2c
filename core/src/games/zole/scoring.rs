//! Scoring one finished Zole deal (RULES.md 1.6-1.7): the contract table, small zole, galdiņš
//! and rondo, surrender, and the zolite 60-60 tie. Pules and the tree belong to the session
//! (`pules.rs`), which adds its payments on top of these deltas.

use arrayvec::ArrayVec;
use serde::Serialize;

use super::deal::{Contract, Deal, Phase};
use super::options::{AllPass, Bands, Surrender, TAKE_UNITS};
use super::tables::set_points;
use crate::game::Seat;

/// What a finished deal came to, as `stikis replay` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Take,
    Zole,
    SmallZole,
    Galdins,
    /// Everybody passed in pule or tree mode: a redeal.
    Pule,
    /// Zolite's 60-60.
    Tie,
}

impl Kind {
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Take => "take",
            Kind::Zole => "zole",
            Kind::SmallZole => "small_zole",
            Kind::Galdins => "galdins",
            Kind::Pule => "pule",
            Kind::Tie => "tie",
        }
    }
}

/// The result of one deal before pules and the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub kind: Kind,
    pub players: u8,
    pub declarer: Option<Seat>,
    /// For take, zole and small zole: did the declarer win? A surrender is a loss.
    pub declarer_won: Option<bool>,
    pub surrendered: bool,
    /// Card points per seat as RECORD.md shows them: the bury with the declarer, the zole talon
    /// (and conceded cards) with the first active opponent clockwise after the declarer.
    pub card_points: [u8; 5],
    pub tricks: [u8; 5],
    /// Game points per seat from the deal itself.
    pub deltas: [i32; 5],
    /// Seats that won and lost the deal (bitmasks), for the tree: each winner receives one
    /// point per branch from each loser. Both empty when nobody paid.
    pub winners: u8,
    pub losers: u8,
}

impl Outcome {
    pub fn card_points(&self) -> &[u8] {
        &self.card_points[..self.players as usize]
    }
    pub fn tricks(&self) -> &[u8] {
        &self.tricks[..self.players as usize]
    }
    pub fn deltas(&self) -> &[i32] {
        &self.deltas[..self.players as usize]
    }
    /// True if the deal had a winner (the tree pays out after such a deal).
    pub fn has_winner(&self) -> bool {
        self.winners != 0 && self.losers != 0
    }
}

fn bit(seat: Seat) -> u8 {
    1 << seat
}

impl Deal {
    /// The scored result, once the deal is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.phase() != Phase::Done {
            return None;
        }
        let n = self.players();
        let mut o = Outcome {
            kind: Kind::Pule,
            players: n as u8,
            declarer: self.declarer(),
            declarer_won: None,
            surrendered: self.surrendered(),
            card_points: [0; 5],
            tricks: [0; 5],
            deltas: [0; 5],
            winners: 0,
            losers: 0,
        };
        o.card_points[..n].copy_from_slice(self.trick_points());
        o.tricks[..n].copy_from_slice(self.tricks());
        match (self.contract(), self.declarer()) {
            (None, _) => {}
            (Some(Contract::Galdins), _) => {
                o.kind = Kind::Galdins;
                self.score_galdins(&mut o)
            }
            (Some(c), Some(d)) => self.score_contract(c, d, &mut o),
            (Some(_), None) => {}
        }
        Some(o)
    }

    /// The first active seat clockwise after `seat`.
    fn next_active_after(&self, seat: Seat) -> Seat {
        let n = self.players();
        (1..n)
            .map(|k| ((seat as usize + k) % n) as Seat)
            .find(|&s| self.is_active(s))
            .unwrap_or(seat)
    }

    fn score_contract(&self, contract: Contract, d: Seat, o: &mut Outcome) {
        let n = self.players();
        let opts = self.options();
        let shown = self.next_active_after(d);
        match contract {
            Contract::Take => o.card_points[d as usize] += set_points(self.buried()) as u8,
            Contract::Zole => o.card_points[shown as usize] += set_points(self.talon()) as u8,
            _ => {}
        }
        let conceded = self.surrendered() && opts.surrender == Surrender::ConcedeRest;
        if conceded {
            o.card_points[shown as usize] += set_points(self.unplayed()) as u8;
        }
        let pts = o.card_points[d as usize] as u32;
        let dtricks = self.tricks()[d as usize] as usize;
        let opp_tricks = self.tricks_done() - dtricks;
        o.kind = match contract {
            Contract::Take => Kind::Take,
            Contract::Zole => Kind::Zole,
            _ => Kind::SmallZole,
        };
        let unit: i32 = if contract == Contract::SmallZole {
            let won = dtricks == 0;
            o.declarer_won = Some(won);
            if won {
                6
            } else {
                -(opts.small_zole_loss as i32)
            }
        } else {
            let units = if contract == Contract::Take {
                TAKE_UNITS
            } else {
                opts.zole_units
            };
            if self.surrendered() && opts.surrender == Surrender::BasicLoss {
                o.declarer_won = Some(false);
                units[3] as i32
            } else if opts.tie_at_60 && pts == 60 {
                o.kind = Kind::Tie;
                return;
            } else {
                let won = pts >= 61;
                o.declarer_won = Some(won && !self.surrendered());
                let band = match (opts.bands, won) {
                    (Bands::Tricks, true) if opp_tricks == 0 && !conceded => 2,
                    (Bands::Tricks, true) if pts >= 91 => 1,
                    (Bands::Tricks, true) => 0,
                    (Bands::Tricks, false) if dtricks == 0 => 5,
                    (Bands::Tricks, false) if pts <= 30 => 4,
                    (Bands::Tricks, false) => 3,
                    (Bands::Points, true) if pts >= 120 => 2,
                    (Bands::Points, true) if pts >= 91 => 1,
                    (Bands::Points, true) => 0,
                    (Bands::Points, false) if pts == 0 => 5,
                    (Bands::Points, false) if pts < 30 => 4,
                    (Bands::Points, false) => 3,
                };
                units[band] as i32
            }
        };
        for s in 0..n {
            o.deltas[s] = if s == d as usize {
                unit * (n as i32 - 1)
            } else {
                -unit
            };
        }
        let others = ((1u16 << n) - 1) as u8 & !bit(d);
        // A surrender counts as a lost contract for the tree (RULES.md 1.11), even in the odd
        // case of a concede_rest declarer who already held 61.
        if o.declarer_won == Some(true) {
            (o.winners, o.losers) = (bit(d), others);
        } else {
            (o.winners, o.losers) = (others, bit(d));
        }
    }

    fn score_galdins(&self, o: &mut Outcome) {
        let n = self.players();
        let active = self.active();
        if self.options().all_pass == AllPass::Rondo {
            return self.score_rondo(o);
        }
        // Most tricks loses; among those, more card points; still tied: nobody pays.
        let key = |s: Seat| (o.tricks[s as usize], o.card_points[s as usize]);
        let worst = active.iter().map(|&s| key(s)).max().unwrap_or((0, 0));
        let mut losers = active.iter().copied().filter(|&s| key(s) == worst);
        if let (Some(loser), None) = (losers.next(), losers.next()) {
            for s in 0..n {
                o.deltas[s] = if s == loser as usize {
                    -2 * (n as i32 - 1)
                } else {
                    2
                };
            }
            o.losers = bit(loser);
            o.winners = ((1u16 << n) - 1) as u8 & !bit(loser);
        }
    }

    fn score_rondo(&self, o: &mut Outcome) {
        let active = self.active();
        let most = active
            .iter()
            .map(|&s| o.card_points[s as usize])
            .max()
            .unwrap_or(0);
        let (mut losers, mut winners) = (ArrayVec::<Seat, 3>::new(), ArrayVec::<Seat, 3>::new());
        for s in active {
            if o.card_points[s as usize] == most {
                losers.push(s);
            } else {
                winners.push(s);
            }
        }
        if winners.is_empty() {
            return;
        }
        let mut total = 0;
        for &w in &winners {
            let gain = if o.tricks[w as usize] == 0 {
                3
            } else if o.card_points[w as usize] <= 30 {
                2
            } else {
                1
            };
            o.deltas[w as usize] = gain;
            o.winners |= bit(w);
            total += gain;
        }
        // Tied losers share: each pays total / k, the remainder one point each in seat order
        // from the dealer's left (the order of `active`).
        let k = losers.len() as i32;
        for (i, &l) in losers.iter().enumerate() {
            let extra = if (i as i32) < total % k { 1 } else { 0 };
            o.deltas[l as usize] = -(total / k + extra);
            o.losers |= bit(l);
        }
    }
}
