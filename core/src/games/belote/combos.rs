//! Combinations (RULES.md 2.1 and 2.6): finding each hand's sequences and fours of a kind,
//! deciding which team's combinations count, and belote-rebelote. The engine announces them
//! itself; a record never lists them.

use std::fmt;

use arrayvec::ArrayVec;

use super::play::{piquet_suit, Mode};
use crate::cards::{ranks_mask, Card, CardSet, Rank, Suit};

/// One combination in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combo {
    /// A run of `len` (3 or more) in one suit, `top` its highest card.
    Sequence { len: u8, top: Card },
    /// Four cards of one rank.
    Four(Rank),
}

/// Fours are looked for in this order (their strength order), before any run.
const FOUR_ORDER: [Rank; 7] = [
    Rank::Eight,
    Rank::Jack,
    Rank::Nine,
    Rank::Ace,
    Rank::Ten,
    Rank::King,
    Rank::Queen,
];

impl Combo {
    /// Its worth in points (a four of 8s is worth 0 but still beats everything).
    pub fn points(self, mode: Mode) -> u32 {
        match self {
            Combo::Sequence { len: 3, .. } => 20,
            Combo::Sequence { len: 4, .. } => 50,
            Combo::Sequence { .. } => 100,
            Combo::Four(r) => match (r, mode) {
                (Rank::Jack, _) => 200,
                (Rank::Nine, Mode::NoTrump) => 100,
                (Rank::Nine, _) => 140,
                (Rank::Ace, Mode::NoTrump) => 190,
                (Rank::Eight, _) => 0,
                _ => 100,
            },
        }
    }

    /// A key that orders combinations by strength: kind, then height, then trump. Ties left
    /// are broken by the place in the first trick, outside this key.
    pub fn strength(self, mode: Mode) -> u32 {
        match self {
            Combo::Four(r) => {
                let h = 7 - FOUR_ORDER.iter().position(|&x| x == r).unwrap_or(6) as u32;
                4000 + h * 10
            }
            Combo::Sequence { len, top } => {
                let kind = len.min(5) as u32 - 2; // tierce 1, fifty 2, hundred 3
                let height = (top.index() % 13) as u32;
                let suit = Suit::from_index(top.index() / 13);
                let trump = u32::from(matches!(mode, Mode::Trump(t) if t == suit));
                kind * 1000 + height * 10 + trump
            }
        }
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Combo::Sequence { len: 3, top } => write!(f, "tierce to {top}"),
            Combo::Sequence { len: 4, top } => write!(f, "fifty to {top}"),
            Combo::Sequence { len, top } => write!(f, "hundred ({len}) to {top}"),
            Combo::Four(r) => write!(f, "four {}", r.symbol()),
        }
    }
}

/// A hand's combinations: at most two fours, or three runs in a 9-card hand.
pub type Combos = ArrayVec<Combo, 4>;

/// Finds a hand's combinations: fours first (in strength order), then the maximal runs of the
/// cards left, each run of 3 or more being one combination.
pub fn find(hand: CardSet) -> Combos {
    let mut out = Combos::new();
    let mut left = hand;
    // Ranks held in all four suits, as one 13-bit row: most hands have none.
    let b = hand.bits();
    let fours = b & (b >> 13) & (b >> 26) & (b >> 39) & 0x1FFF;
    if fours != 0 {
        for r in FOUR_ORDER {
            if fours & (1 << r as u32) != 0 {
                out.push(Combo::Four(r));
                left = left.minus(ranks_mask(&[r]));
            }
        }
    }
    for s in Suit::ALL {
        // Bits 0..8 are 7 8 9 10 J Q K A: the sequence order is the printed rank order.
        let base = s as u32 * 13 + Rank::Seven as u32;
        let mut bits = (left.intersect(piquet_suit(s)).bits() >> base) as u32;
        while bits != 0 {
            let start = bits.trailing_zeros();
            let len = (bits >> start).trailing_ones();
            if len >= 3 && !out.is_full() {
                let top = Card::from_index((base + start + len - 1) as u8).expect("piquet card");
                out.push(Combo::Sequence { len: len as u8, top });
            }
            bits &= !(((1u32 << len) - 1) << start);
        }
    }
    out
}

/// How many belotes (K and Q of a trump suit) a hand holds: one at most in a suit contract,
/// one per suit in all trumps, none in no trump.
pub fn belotes(hand: CardSet, mode: Mode) -> u32 {
    let has = |s: Suit| hand.contains(Card::new(Rank::King, s)) && hand.contains(Card::new(Rank::Queen, s));
    match mode {
        Mode::Trump(t) => u32::from(has(t)),
        Mode::NoTrump => 0,
        Mode::AllTrumps => Suit::ALL.iter().filter(|&&s| has(s)).count() as u32,
    }
}

/// The outcome of the comparison: which team's combinations count, and what each team scores
/// from combinations and from belote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The team whose combinations are scored, if any team has any.
    pub scoring_team: Option<u8>,
    /// Scored combination points per team (one entry is always 0).
    pub combos: [u32; 2],
    /// Belote points per team (20 each).
    pub belote: [u32; 2],
}

impl Declared {
    /// Combinations plus belote, per team: the `combinations` of a replay's output.
    pub fn total(&self, team: usize) -> u32 {
        self.combos[team] + self.belote[team]
    }
    /// Every scored combination and belote of both teams (z of the Bazar formula, in points).
    pub fn all(&self) -> u32 {
        self.total(0) + self.total(1)
    }
}

/// Compares the combinations of every seat. `order` lists the seats in play order of the
/// first trick; `team` maps a seat to its team (0 or 1).
pub fn compare(
    combos: &[Combos],
    hands: &[CardSet],
    order: &[u8],
    team: impl Fn(u8) -> u8,
    mode: Mode,
) -> Declared {
    let mut d = Declared::default();
    let mut best: Option<(u32, u8)> = None;
    for &seat in order {
        for c in &combos[seat as usize] {
            let s = c.strength(mode);
            // Strictly stronger only: on a full tie the one announced first keeps it.
            let stronger = match best {
                None => true,
                Some((b, _)) => s > b,
            };
            if stronger {
                best = Some((s, team(seat)));
            }
        }
    }
    if let Some((_, t)) = best {
        d.scoring_team = Some(t);
        for &seat in order {
            if team(seat) == t {
                d.combos[t as usize] += combos[seat as usize].iter().map(|c| c.points(mode)).sum::<u32>();
            }
        }
    }
    for &seat in order {
        d.belote[team(seat) as usize] += 20 * belotes(hands[seat as usize], mode);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn fours_are_taken_before_runs() {
        let f = find(cards("JC JD JH JS 10H 9H QH 7C"));
        assert_eq!(f.as_slice(), &[Combo::Four(Rank::Jack)]);
    }

    #[test]
    fn runs_of_five_or_more_are_one_hundred() {
        let f = find(cards("7H 8H 9H 10H JH QH AS KS"));
        assert_eq!(
            f.as_slice(),
            &[Combo::Sequence {
                len: 6,
                top: card("QH")
            }]
        );
        assert_eq!(f[0].points(Mode::NoTrump), 100);
    }

    #[test]
    fn two_separate_tierces_both_count() {
        let f = find(cards("8H 9H 10H 10C JC QC 7S AD"));
        assert_eq!(f.len(), 2);
    }

    #[test]
    fn four_sevens_are_no_combination() {
        assert!(find(cards("7C 7D 7H 7S AC KD QH 9S")).is_empty());
    }

    #[test]
    fn belote_in_all_trumps_counts_per_suit() {
        let h = cards("KC QC KH QH 7S 8S 9D AD");
        assert_eq!(belotes(h, Mode::AllTrumps), 2);
        assert_eq!(belotes(h, Mode::Trump(Suit::Hearts)), 1);
        assert_eq!(belotes(h, Mode::Trump(Suit::Spades)), 0);
        assert_eq!(belotes(h, Mode::NoTrump), 0);
    }
}
