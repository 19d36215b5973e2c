//! What every game engine shares: seats, the allocation-free action list, the seed a deal is
//! shuffled from, and the `Game` trait through which the host and the computer players drive
//! any engine the same way.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha12Rng;

use crate::cards::{Card, CardSet};

/// A seat at the table, numbered `0..n` clockwise.
pub type Seat = u8;

/// A fixed-capacity list of actions, filled without touching the heap.
pub type ActionList<A, const N: usize> = ArrayVec<A, N>;

/// The 32-byte seed a deal is shuffled from (ChaCha12). The host draws it from the OS random
/// source, publishes its SHA-256 before the deal and reveals it afterwards; anyone can then
/// re-create the deal with the same seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed from a small number, for tests, benchmarks and reproducible examples.
    pub fn from_u64(n: u64) -> Seed {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&n.to_le_bytes());
        Seed(b)
    }

    pub fn rng(self) -> ChaCha12Rng {
        ChaCha12Rng::from_seed(self.0)
    }

    /// The cards of `deck` in the order this seed shuffles them. The algorithm is fixed here so
    /// that a published seed always re-creates the same deal: the deck in card-index order,
    /// then Fisher-Yates from the top (for i = n-1 down to 1, swap i with j drawn uniformly from
    /// 0..=i), each j drawn from the ChaCha12 stream's next u32 by Lemire's multiply-and-reject
    /// method, which has no bias.
    pub fn shuffle(self, deck: CardSet) -> ArrayVec<Card, 53> {
        let mut cards: ArrayVec<Card, 53> = deck.iter().collect();
        let mut rng = self.rng();
        for i in (1..cards.len()).rev() {
            let j = bounded(&mut rng, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        cards
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({self})")
    }
}

/// A uniform draw from `0..n` (Lemire, "Fast random integer generation in an interval", 2019).
pub(crate) fn bounded(rng: &mut ChaCha12Rng, n: u32) -> u32 {
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// A seed that is not 64 hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits")]
pub struct ParseSeedError;

impl FromStr for Seed {
    type Err = ParseSeedError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.len() != 64 || !s.is_ascii() {
            return Err(ParseSeedError);
        }
        let mut b = [0u8; 32];
        for (i, out) in b.iter_mut().enumerate() {
            *out = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| ParseSeedError)?;
        }
        Ok(Seed(b))
    }
}

/// The common face of every engine: whose turn it is, what they may do, and doing it.
///
/// `apply` either performs a legal action or returns an error naming the broken rule and
/// leaves the state exactly as it was.
pub trait Game {
    type Action: Copy + Eq + fmt::Debug + fmt::Display;
    type Error: std::error::Error;
    /// The legal actions: any allocation-free collection the engine finds cheapest.
    type Actions: IntoIterator<Item = Self::Action>;

    /// Seats at the table (including any sitting this deal out).
    fn seats(&self) -> usize;
    /// The seat that must act now, or `None` when the deal is over.
    fn to_act(&self) -> Option<Seat>;
    /// Exactly the actions `apply` accepts from `to_act()` now.
    fn legal_actions(&self) -> Self::Actions;
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<(), Self::Error>;
    fn is_over(&self) -> bool {
        self.to_act().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::ZOLE_DECK;

    #[test]
    fn seed_hex_round_trip() {
        let s = Seed::from_u64(0xdead_beef);
        let t: Seed = s.to_string().parse().unwrap();
        assert_eq!(s, t);
        assert!("xyz".parse::<Seed>().is_err());
        assert!("zz".repeat(32).parse::<Seed>().is_err());
    }

    #[test]
    fn a_seed_always_gives_the_same_shuffle() {
        let a = Seed::from_u64(7).shuffle(ZOLE_DECK);
        let b = Seed::from_u64(7).shuffle(ZOLE_DECK);
        let c = Seed::from_u64(8).shuffle(ZOLE_DECK);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.iter().copied().collect::<CardSet>(), ZOLE_DECK);
    }

    #[test]
    fn every_card_is_equally_likely_in_every_place() {
        // 26,000 shuffles: each (card, place) cell expects 1,000; a fair shuffle stays well
        // within 800..1200 (about 6.5 standard deviations), a biased one does not.
        let mut counts = [[0u32; 26]; 53];
        for s in 0..26_000u64 {
            for (place, c) in Seed::from_u64(s).shuffle(ZOLE_DECK).iter().enumerate() {
                counts[c.index() as usize][place] += 1;
            }
        }
        for c in ZOLE_DECK {
            for (place, &n) in counts[c.index() as usize].iter().enumerate() {
                assert!((800..1200).contains(&n), "{c} in place {place}: {n} times");
            }
        }
    }

    #[test]
    fn the_seed_to_deal_mapping_is_pinned() {
        // Published seeds must re-create their deals in every later version: this order is
        // part of the public contract (RECORD.md deals carrying a "seed").
        let order: Vec<String> = Seed([0u8; 32])
            .shuffle(ZOLE_DECK)
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(order.join(" "), PINNED_ZERO_SEED_ORDER);
    }

    const PINNED_ZERO_SEED_ORDER: &str =
        "AC 7D 10D 9C 10H KC 9H 10S AS QD QH AD 9S JC KH QC JS KS 8D KD QS JH AH 10C 9D JD";
}
