//! What every belote variant shares in the play of the cards (RULES.md 2.1): the trump mode,
//! the rank-order and card-point tables (kept apart: several cards are worth 0 but still rank),
//! which cards a seat may play to a trick, and who wins a trick.
//!
//! Everything here works on `CardSet` bitsets over the piquet pack so that a random complete
//! deal stays in the microsecond range (the benchmark target is 500,000 deals per second).

use std::fmt;

use crate::cards::{suit_mask, Card, CardSet, Rank, Suit, PIQUET_PACK};

/// What is trump in a deal: one suit, none (no trump, "height") or every suit (all trumps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Trump(Suit),
    NoTrump,
    AllTrumps,
}

impl Mode {
    /// Parses `C D H S NT AT`.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "NT" => Some(Mode::NoTrump),
            "AT" => Some(Mode::AllTrumps),
            _ => s.parse::<Suit>().ok().map(Mode::Trump),
        }
    }

    /// The trump suit of a suit contract.
    pub const fn trump_suit(self) -> Option<Suit> {
        match self {
            Mode::Trump(s) => Some(s),
            _ => None,
        }
    }

    /// Whether cards of suit `s` rank and count as trumps in this mode.
    pub const fn is_trump_suit(self, s: Suit) -> bool {
        match self {
            Mode::Trump(t) => t as u8 == s as u8,
            Mode::NoTrump => false,
            Mode::AllTrumps => true,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::Trump(s) => write!(f, "{s}"),
            Mode::NoTrump => f.write_str("NT"),
            Mode::AllTrumps => f.write_str("AT"),
        }
    }
}

/// The cards of one suit within the piquet pack.
pub const fn piquet_suit(s: Suit) -> CardSet {
    CardSet(suit_mask(s).0 & PIQUET_PACK.0)
}

/// The piquet ranks in play order of a plain suit, indexed by `Rank as usize - 5` (7 8 9 10 J
/// Q K A): plain order, highest first, is `A 10 K Q J 9 8 7`.
const PLAIN_ORDER: [u8; 8] = [0, 1, 2, 6, 3, 4, 5, 7];
/// Trump order, highest first `J 9 A 10 K Q 8 7`.
const TRUMP_ORDER: [u8; 8] = [0, 1, 6, 4, 7, 2, 3, 5];

/// For each slot, the slots of the same suit that rank above it (bit i = slot i), derived from
/// the order tables at compile time.
const fn above_table(order: [u8; 8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            if order[j] > order[i] {
                out[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    out
}
const ABOVE_PLAIN: [u8; 8] = above_table(PLAIN_ORDER);
const ABOVE_TRUMP: [u8; 8] = above_table(TRUMP_ORDER);

/// Card points, indexed like the order tables (7 8 9 10 J Q K A).
const PLAIN_POINTS: [u8; 8] = [0, 0, 0, 10, 2, 3, 4, 11];
const TRUMP_POINTS: [u8; 8] = [0, 0, 14, 10, 20, 3, 4, 11];
const NO_TRUMP_POINTS: [u8; 8] = [0, 0, 0, 10, 2, 3, 4, 19];
const ALL_TRUMPS_POINTS: [u8; 8] = [0, 0, 9, 5, 13, 2, 3, 6];

/// The index of a piquet card's rank into the tables above.
#[inline]
fn slot(c: Card) -> usize {
    (c.index() % 13) as usize - Rank::Seven as usize
}

#[inline]
fn suit_of(c: Card) -> Suit {
    Suit::from_index(c.index() / 13)
}

/// All per-mode facts the play needs, computed once per deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    pub mode: Mode,
    /// The cards that are trumps (empty in no trump, the whole pack in all trumps).
    pub trumps: CardSet,
}

impl Tables {
    pub const fn new(mode: Mode) -> Tables {
        let trumps = match mode {
            Mode::Trump(s) => piquet_suit(s),
            Mode::NoTrump => CardSet::EMPTY,
            Mode::AllTrumps => PIQUET_PACK,
        };
        Tables { mode, trumps }
    }

    /// The card's rank in its own suit under this mode (higher beats lower), 0..8.
    #[inline]
    pub fn order(&self, c: Card) -> u8 {
        if self.trumps.contains(c) {
            TRUMP_ORDER[slot(c)]
        } else {
            PLAIN_ORDER[slot(c)]
        }
    }

    /// Card points under this mode (RULES.md 2.1 and 2.5).
    #[inline]
    pub fn points(&self, c: Card) -> u32 {
        let s = slot(c);
        (match self.mode {
            Mode::AllTrumps => ALL_TRUMPS_POINTS[s],
            Mode::NoTrump => NO_TRUMP_POINTS[s],
            Mode::Trump(_) if self.trumps.contains(c) => TRUMP_POINTS[s],
            Mode::Trump(_) => PLAIN_POINTS[s],
        }) as u32
    }

    pub fn set_points(&self, set: CardSet) -> u32 {
        set.iter().map(|c| self.points(c)).sum()
    }

    /// The strength of `c` in a trick led with suit `led` (higher wins): cards that cannot win score 0, the
    /// led suit 1..=8, a trump in a suit contract 9..=16.
    #[inline]
    pub fn strength(&self, c: Card, led: Suit) -> u8 {
        let o = self.order(c) + 1;
        if let Mode::Trump(t) = self.mode {
            if suit_of(c) == t {
                return o + 8;
            }
        }
        if suit_of(c) == led {
            o
        } else {
            0
        }
    }

    /// The position (0-based, in play order) of the card that wins the trick so far.
    pub fn winner(&self, trick: &[Card]) -> usize {
        let led = suit_of(trick[0]);
        let mut best = 0;
        let mut best_s = self.strength(trick[0], led);
        for (i, &c) in trick.iter().enumerate().skip(1) {
            let s = self.strength(c, led);
            if s > best_s {
                best = i;
                best_s = s;
            }
        }
        best
    }

    /// The cards of `set` that rank above `c` in `c`'s own suit.
    #[inline]
    fn above(&self, set: CardSet, c: Card) -> CardSet {
        let table = if self.trumps.contains(c) {
            &ABOVE_TRUMP
        } else {
            &ABOVE_PLAIN
        };
        let base = (c.index() / 13) as u32 * 13 + Rank::Seven as u32;
        set.intersect(CardSet((table[slot(c)] as u64) << base))
    }

    /// Which cards of `hand` may be played to the current trick, and which rule limits them.
    /// `trick` is `None` for the lead, else the led suit and the card winning so far;
    /// `partner_winning` tells whether the seat's partner has played and is winning the trick
    /// (never true in head-to-head).
    #[inline]
    pub fn legal(
        &self,
        hand: CardSet,
        trick: Option<(Suit, Card)>,
        partner_winning: bool,
        must_undertrump: bool,
    ) -> (CardSet, Limit) {
        let Some((led, high)) = trick else {
            return (hand, Limit::None);
        };
        let led_cards = hand.intersect(piquet_suit(led));
        match self.mode {
            Mode::NoTrump => {
                if led_cards.is_empty() {
                    (hand, Limit::None)
                } else {
                    (led_cards, Limit::Follow(led))
                }
            }
            Mode::AllTrumps => {
                if led_cards.is_empty() {
                    return (hand, Limit::None);
                }
                let higher = self.above(led_cards, high);
                if higher.is_empty() {
                    (led_cards, Limit::Follow(led))
                } else {
                    (higher, Limit::Beat(led))
                }
            }
            Mode::Trump(t) => {
                let trumps = hand.intersect(self.trumps);
                if led == t {
                    if trumps.is_empty() {
                        return (hand, Limit::None);
                    }
                    let higher = self.above(trumps, high);
                    return if higher.is_empty() {
                        (trumps, Limit::Follow(t))
                    } else {
                        (higher, Limit::Beat(t))
                    };
                }
                if !led_cards.is_empty() {
                    return (led_cards, Limit::Follow(led));
                }
                if partner_winning || trumps.is_empty() {
                    return (hand, Limit::None);
                }
                let higher = if suit_of(high) == t {
                    self.above(trumps, high)
                } else {
                    trumps
                };
                if !higher.is_empty() {
                    (higher, Limit::Overtrump(t))
                } else if must_undertrump {
                    (trumps, Limit::Trump(t))
                } else {
                    (hand, Limit::None)
                }
            }
        }
    }
}

/// The rule that limits a seat's choice of card, named in the error of a card outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    None,
    /// Must play the led suit (or, trumps led, any trump).
    Follow(Suit),
    /// Must beat the highest card of the led suit (trumps led, or all trumps).
    Beat(Suit),
    /// Void in the led suit, partner not winning: must play a trump above every trump in the
    /// trick.
    Overtrump(Suit),
    /// `must_undertrump`: void, cannot overtrump, partner not winning: must still trump.
    Trump(Suit),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn every_deal_holds_152_card_points_in_every_mode() {
        for mode in [
            Mode::Trump(Suit::Hearts),
            Mode::Trump(Suit::Clubs),
            Mode::NoTrump,
            Mode::AllTrumps,
        ] {
            assert_eq!(Tables::new(mode).set_points(PIQUET_PACK), 152, "{mode}");
        }
    }

    #[test]
    fn rank_orders_are_the_tables_of_rules_2_1() {
        let t = Tables::new(Mode::Trump(Suit::Hearts));
        let by_order = |names: &str| {
            let mut v: Vec<Card> = cards(names).iter().collect();
            v.sort_by_key(|&c| std::cmp::Reverse(t.order(c)));
            v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(by_order("AH 10H KH QH JH 9H 8H 7H"), "JH 9H AH 10H KH QH 8H 7H");
        assert_eq!(by_order("AS 10S KS QS JS 9S 8S 7S"), "AS 10S KS QS JS 9S 8S 7S");
    }

    #[test]
    fn winner_is_highest_trump_else_highest_of_led_suit() {
        let t = Tables::new(Mode::Trump(Suit::Hearts));
        assert_eq!(t.winner(&[card("AS"), card("10S"), card("7H"), card("KS")]), 2);
        assert_eq!(t.winner(&[card("KS"), card("AD"), card("10S"), card("QS")]), 2);
        assert_eq!(t.winner(&[card("9H"), card("JH"), card("AH"), card("7S")]), 1);
        let nt = Tables::new(Mode::NoTrump);
        assert_eq!(nt.winner(&[card("9S"), card("AH"), card("JS"), card("7S")]), 2);
        let at = Tables::new(Mode::AllTrumps);
        assert_eq!(at.winner(&[card("AS"), card("JH"), card("9S"), card("7S")]), 2);
    }
}
