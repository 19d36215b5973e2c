//! The legal actions of a Zole deal as a compact value: which bids, which cards may be buried
//! (any two of them), which cards may be played, and whether surrender is open. Listing them is
//! lazy, so asking costs a few instructions and never touches the heap.

use super::deal::{Action, Bid};
use crate::cards::CardSet;

const BIDS: [Bid; 4] = [Bid::Pass, Bid::Take, Bid::Zole, Bid::SmallZole];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Legal {
    /// Bit `b` set: `BIDS[b]` may be called.
    pub(crate) bids: u8,
    /// In the bury phase: every pair of these cards may be buried.
    pub(crate) bury_from: CardSet,
    pub(crate) plays: CardSet,
    pub(crate) surrender: bool,
}

impl Legal {
    pub const NONE: Legal = Legal {
        bids: 0,
        bury_from: CardSet::EMPTY,
        plays: CardSet::EMPTY,
        surrender: false,
    };

    fn pairs(&self) -> usize {
        let n = self.bury_from.len() as usize;
        n * n.saturating_sub(1) / 2
    }

    pub fn len(&self) -> usize {
        self.bids.count_ones() as usize + self.pairs() + self.plays.len() as usize + self.surrender as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards that may be played now (empty outside the play).
    pub fn plays(&self) -> CardSet {
        self.plays
    }

    pub fn contains(&self, a: Action) -> bool {
        match a {
            Action::Bid(b) => self.bids & (1 << b as u8) != 0,
            Action::Bury(x, y) => x != y && self.bury_from.contains(x) && self.bury_from.contains(y),
            Action::Play(c) => self.plays.contains(c),
            Action::Surrender => self.surrender,
        }
    }

    /// The `i`-th action in the order `iter` gives them.
    pub fn get(&self, mut i: usize) -> Option<Action> {
        let nb = self.bids.count_ones() as usize;
        if i < nb {
            let b = (0..4).filter(|b| self.bids & (1 << b) != 0).nth(i)?;
            return Some(Action::Bid(BIDS[b]));
        }
        i -= nb;
        if i < self.pairs() {
            let mut rest = self.bury_from;
            while let Some(a) = rest.first() {
                rest.remove(a);
                let k = rest.len() as usize;
                if i < k {
                    return rest.nth(i as u32).map(|b| Action::Bury(a, b));
                }
                i -= k;
            }
        }
        i -= self.pairs();
        let np = self.plays.len() as usize;
        if i < np {
            return self.plays.nth(i as u32).map(Action::Play);
        }
        (i == np && self.surrender).then_some(Action::Surrender)
    }

    pub fn iter(&self) -> LegalIter {
        LegalIter {
            legal: *self,
            next: 0,
            len: self.len(),
        }
    }
}

impl IntoIterator for Legal {
    type Item = Action;
    type IntoIter = LegalIter;
    fn into_iter(self) -> LegalIter {
        self.iter()
    }
}

/// Iterates the legal actions: bids, burials, plays, surrender.
#[derive(Clone, Debug)]
pub struct LegalIter {
    legal: Legal,
    next: usize,
    len: usize,
}

impl Iterator for LegalIter {
    type Item = Action;
    fn next(&mut self) -> Option<Action> {
        if self.next >= self.len {
            return None;
        }
        self.next += 1;
        self.legal.get(self.next - 1)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for LegalIter {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn lists_every_pair_once_and_get_agrees_with_contains() {
        let l = Legal {
            bury_from: cards("QC QS JH AD 10D KC 9C AS KS 9H"),
            ..Legal::NONE
        };
        assert_eq!(l.len(), 45);
        let all: Vec<Action> = l.iter().collect();
        assert_eq!(all.len(), 45);
        for (i, &a) in all.iter().enumerate() {
            assert!(l.contains(a));
            assert!(all[i + 1..].iter().all(|&b| b != a), "{a} listed twice");
        }
        assert!(
            l.contains(Action::Bury(card("9H"), card("QC"))),
            "order does not matter"
        );
        assert!(!l.contains(Action::Bury(card("9H"), card("9H"))));
        assert!(!l.contains(Action::Bury(card("9H"), card("7D"))));
        let p = Legal {
            bids: 0b0111,
            plays: cards("AH KH"),
            surrender: true,
            ..Legal::NONE
        };
        let v: Vec<String> = p.iter().map(|a| a.to_string()).collect();
        assert_eq!(
            v,
            [
                "bid pass",
                "bid take",
                "bid zole",
                "play KH",
                "play AH",
                "surrender"
            ]
        );
        assert_eq!(p.get(6), None);
    }
}
