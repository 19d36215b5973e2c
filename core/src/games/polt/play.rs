//! Card order in Polt to Tzar play: which suit a card belongs to once trumps are named (the
//! joker, and with `bowers` the left bower, are trumps), what may follow a lead, and who wins
//! a trick. The exchange uses printed suits and the plain order and does not come here.

use crate::cards::{suit_mask, Card, CardSet, Rank, Suit};
use crate::game::Seat;

/// The trick-play order of one deal: the trump suit and whether the jacks migrate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrumpOrder {
    pub trump: Suit,
    pub bowers: bool,
}

impl TrumpOrder {
    pub const fn new(trump: Suit, bowers: bool) -> Self {
        TrumpOrder { trump, bowers }
    }

    /// The jack of the other suit of the trump colour, when bowers are on.
    pub const fn left_bower(self) -> Option<Card> {
        if self.bowers {
            Some(Card::new(Rank::Jack, self.trump.same_colour()))
        } else {
            None
        }
    }

    /// The suit a card belongs to in play.
    pub fn suit_of(self, card: Card) -> Suit {
        match card.suit() {
            None => self.trump,
            Some(s) if Some(card) == self.left_bower() => {
                debug_assert_eq!(s, self.trump.same_colour());
                self.trump
            }
            Some(s) => s,
        }
    }

    /// Every card that belongs to `suit` in play (the joker and left bower only to trumps).
    pub fn cards_of(self, suit: Suit) -> CardSet {
        let mut set = suit_mask(suit);
        if suit == self.trump {
            set.insert(Card::JOKER);
            if let Some(lb) = self.left_bower() {
                set.insert(lb);
            }
        } else if let Some(lb) = self.left_bower() {
            set.remove(lb);
        }
        set
    }

    /// The order of a card within its play suit (higher beats lower): the plain ranks `2..A`
    /// are 0..12, then the left bower, the right bower and the joker.
    pub fn strength(self, card: Card) -> u8 {
        match card.rank() {
            None => 15,
            Some(Rank::Jack) if self.bowers && self.suit_of(card) == self.trump => {
                if card.suit() == Some(self.trump) {
                    14
                } else {
                    13
                }
            }
            Some(r) => r as u8,
        }
    }

    /// The cards of `hand` that may be played to a trick led with `led` (any card when the
    /// hand has none of the led suit, or when leading).
    pub fn playable(self, hand: CardSet, led: Option<Card>) -> CardSet {
        match led {
            None => hand,
            Some(l) => {
                let follow = hand & self.cards_of(self.suit_of(l));
                if follow.is_empty() {
                    hand
                } else {
                    follow
                }
            }
        }
    }

    /// The index in `trick` of the winning card: the highest trump, else the highest card of
    /// the suit led.
    pub fn winner(self, trick: &[(Seat, Card)]) -> usize {
        let led = self.suit_of(trick[0].1);
        let key = |c: Card| {
            let s = self.suit_of(c);
            if s == self.trump {
                Some((1u8, self.strength(c)))
            } else if s == led {
                Some((0, self.strength(c)))
            } else {
                None
            }
        };
        let mut best = 0;
        for (i, &(_, c)) in trick.iter().enumerate().skip(1) {
            if key(c) > key(trick[best].1) {
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn plain_order_without_bowers() {
        let o = TrumpOrder::new(Suit::Hearts, false);
        assert_eq!(o.suit_of(Card::JOKER), Suit::Hearts);
        assert_eq!(o.suit_of(card("JD")), Suit::Diamonds);
        assert!(o.strength(Card::JOKER) > o.strength(card("AH")));
        assert!(o.strength(card("AH")) > o.strength(card("JH")));
        assert_eq!(o.cards_of(Suit::Diamonds).len(), 13);
        assert_eq!(o.cards_of(Suit::Hearts).len(), 14);
    }

    #[test]
    fn bowers_order_for_hearts() {
        let o = TrumpOrder::new(Suit::Hearts, true);
        let order = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "2H"];
        for w in order.windows(2) {
            assert!(o.strength(card(w[0])) > o.strength(card(w[1])), "{w:?}");
            assert_eq!(o.suit_of(card(w[0])), Suit::Hearts);
        }
        assert_eq!(o.cards_of(Suit::Diamonds).len(), 12);
        assert!(!o.cards_of(Suit::Diamonds).contains(card("JD")));
        // Jacks of the other colour stay plain.
        assert_eq!(o.suit_of(card("JS")), Suit::Spades);
        assert!(o.strength(card("QS")) > o.strength(card("JS")));
        assert_eq!(o.playable(cards("JD 5D 3C"), Some(card("KD"))), cards("5D"));
    }

    #[test]
    fn winner_is_highest_trump_else_highest_of_led_suit() {
        let o = TrumpOrder::new(Suit::Spades, false);
        let t = |s: &str| -> Vec<(Seat, Card)> {
            s.split_whitespace()
                .enumerate()
                .map(|(i, c)| (i as Seat, card(c)))
                .collect()
        };
        assert_eq!(o.winner(&t("10H AH 2S KH 3D")), 2);
        assert_eq!(o.winner(&t("10H AD 2C KH 3D")), 3);
        assert_eq!(o.winner(&t("AS JK 2S")), 1);
        assert_eq!(o.winner(&t("JK AS KS")), 0);
    }
}
