//! Coinche (RULES.md 2.5): its scoring (the Bazar formula in whole points) and its deck, which
//! is never shuffled between deals: tricks are gathered, the player before the dealer cuts,
//! and the cards are dealt counter-clockwise in packets of 3, 2 and 3. The auction is Bazar's
//! (`bazar::ContractAuction`) on the Coinche ladder.

use arrayvec::ArrayVec;

use super::combos::Declared;
use super::deal::Contract;
use super::Variant;
use crate::cards::{Card, CardSet};
use crate::game::{Seat, Seed};

/// A 32-card deck, top card first.
pub type Deck = ArrayVec<Card, 32>;

/// The smallest cut (at least 3 cards, and at least 3 left below).
pub const MIN_CUT: usize = 3;

/// The cards of a Coinche deck.
const PACK: usize = 32;

/// The Coinche deltas, in points, per team (RULES.md 2.5 and 2.6): x = the bid (capot 250),
/// D = 162, or 250 when a team took every trick.
pub fn score(c: &Contract, points: [u32; 2], capot_team: Option<u8>, d: &Declared) -> [i32; 2] {
    let v = Variant::Coinche;
    let b = v.team(c.declarer) as usize;
    let o = 1 - b;
    let total = |t: usize| points[t] + d.total(t);
    let x = c.tens as u32 * 10;
    let y = total(b);
    let made = y >= x && (!c.capot || capot_team == Some(b as u8));
    let dd = if capot_team.is_some() { 250 } else { 162 };
    let z = d.all();
    let mut out = [0i32; 2];
    match c.doubled {
        0 if made => {
            out[b] = (x + y) as i32;
            out[o] = total(o) as i32;
        }
        0 => out[o] = (x + dd + z) as i32,
        k => {
            let winner = if made { b } else { o };
            let m = if k == 1 { 2 } else { 4 };
            out[winner] = (m * x + dd + z) as i32;
        }
    }
    out
}

/// Cuts a deck: the top `n` cards go under the rest. `None` unless 3 ≤ n ≤ len − 3.
pub fn cut(deck: &Deck, n: usize) -> Option<Deck> {
    if n < MIN_CUT || n + MIN_CUT > deck.len() {
        return None;
    }
    Some(deck[n..].iter().chain(&deck[..n]).copied().collect())
}

/// The cut a host makes for a deal dealt from `seed`: 3 + (the seed's first byte mod 27) cards,
/// so the cut is as fair as the shuffle, and a record's seed proves it.
pub fn cut_from_seed(seed: &Seed) -> usize {
    MIN_CUT + seed.0[0] as usize % (PACK - 2 * MIN_CUT + 1)
}

/// Deals a 32-card deck from the top: packets of 3, 2, 3 to each seat in turn, counter-clockwise
/// starting with the player to the dealer's right.
pub fn deal(deck: &Deck, dealer: Seat) -> [CardSet; 4] {
    let v = Variant::Coinche;
    let mut hands = [CardSet::EMPTY; 4];
    let mut it = deck.iter();
    for packet in [3, 2, 3] {
        let mut seat = v.next(dealer);
        for _ in 0..4 {
            for c in it.by_ref().take(packet) {
                hands[seat as usize].insert(*c);
            }
            seat = v.next(seat);
        }
    }
    hands
}

/// Gathers a finished deal into the next deck, top first: each team's tricks in the order won
/// (the last trick won on top, each trick's cards with the first played on top), the dealer's
/// team's pile above the other. A deal that was redealt (all passed) is gathered hand by hand,
/// each hand in card order, starting with the player to the dealer's right.
pub fn gather(tricks: &[(Seat, [Card; 4])], hands: &[CardSet; 4], dealer: Seat) -> Deck {
    let v = Variant::Coinche;
    let mut deck = Deck::new();
    if tricks.is_empty() {
        let mut seat = v.next(dealer);
        for _ in 0..4 {
            deck.extend(hands[seat as usize].iter());
            seat = v.next(seat);
        }
        return deck;
    }
    let dealer_team = v.team(dealer);
    for team in [dealer_team, 1 - dealer_team] {
        for (winner, cards) in tricks.iter().rev() {
            if v.team(*winner) == team {
                deck.extend(cards.iter().copied());
            }
        }
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::PIQUET_PACK;

    #[test]
    fn deals_3_2_3_counter_clockwise_from_the_dealers_right() {
        let deck: Deck = PIQUET_PACK.iter().collect();
        let hands = deal(&deck, 0);
        // Dealer 0: seat 3 is to his right and gets the top three cards.
        let first3: CardSet = deck[..3].iter().copied().collect();
        assert!(first3.is_subset(hands[3]));
        let next3: CardSet = deck[3..6].iter().copied().collect();
        assert!(next3.is_subset(hands[2]));
        assert!(hands.iter().all(|h| h.len() == 8));
        let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        assert_eq!(all, PIQUET_PACK);
    }

    #[test]
    fn a_seed_cuts_3_to_29_cards_by_its_first_byte() {
        let deck: Deck = PIQUET_PACK.iter().collect();
        let mut seen = [false; 30];
        for b in 0..=255u8 {
            let mut seed = Seed::from_u64(1);
            seed.0[0] = b;
            let n = cut_from_seed(&seed);
            assert!(cut(&deck, n).is_some(), "{b}: {n}");
            assert_eq!(n, 3 + b as usize % 27);
            seen[n] = true;
        }
        assert!(seen[3..=29].iter().all(|&s| s), "every legal cut can be drawn");
    }

    #[test]
    fn cut_moves_at_least_three_cards() {
        let deck: Deck = PIQUET_PACK.iter().collect();
        assert!(cut(&deck, 2).is_none());
        assert!(cut(&deck, 30).is_none());
        let c = cut(&deck, 3).unwrap();
        assert_eq!(c[0], deck[3]);
        assert_eq!(c[31], deck[2]);
    }
}
