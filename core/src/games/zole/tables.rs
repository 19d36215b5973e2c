//! Zole's card tables (RULES.md 1.1): which category a card belongs to (trump or one of the
//! three plain suits), its power in a trick and its card points. Rank order and point value
//! are separate tables.

use crate::cards::{Card, CardSet, Rank, Suit, ZOLE_DECK};

/// The four Zole "suits": queens, jacks and diamonds are all trumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    Trumps,
    Clubs,
    Spades,
    Hearts,
}

impl Category {
    pub const fn name(self) -> &'static str {
        match self {
            Category::Trumps => "trumps",
            Category::Clubs => "clubs",
            Category::Spades => "spades",
            Category::Hearts => "hearts",
        }
    }

    pub const fn mask(self) -> CardSet {
        match self {
            Category::Trumps => TRUMPS,
            Category::Clubs => plain(Suit::Clubs),
            Category::Spades => plain(Suit::Spades),
            Category::Hearts => plain(Suit::Hearts),
        }
    }
}

/// Trumps, highest first (RULES.md 1.1).
pub const TRUMP_ORDER: [Card; 14] = [
    Card::new(Rank::Queen, Suit::Clubs),
    Card::new(Rank::Queen, Suit::Spades),
    Card::new(Rank::Queen, Suit::Hearts),
    Card::new(Rank::Queen, Suit::Diamonds),
    Card::new(Rank::Jack, Suit::Clubs),
    Card::new(Rank::Jack, Suit::Spades),
    Card::new(Rank::Jack, Suit::Hearts),
    Card::new(Rank::Jack, Suit::Diamonds),
    Card::new(Rank::Ace, Suit::Diamonds),
    Card::new(Rank::Ten, Suit::Diamonds),
    Card::new(Rank::King, Suit::Diamonds),
    Card::new(Rank::Nine, Suit::Diamonds),
    Card::new(Rank::Eight, Suit::Diamonds),
    Card::new(Rank::Seven, Suit::Diamonds),
];

/// Plain-suit ranks, highest first.
pub const PLAIN_ORDER: [Rank; 4] = [Rank::Ace, Rank::Ten, Rank::King, Rank::Nine];

const fn trump_mask() -> CardSet {
    let mut bits = 0u64;
    let mut i = 0;
    while i < TRUMP_ORDER.len() {
        bits |= TRUMP_ORDER[i].bit();
        i += 1;
    }
    CardSet(bits)
}

const fn plain(s: Suit) -> CardSet {
    let mut bits = 0u64;
    let mut i = 0;
    while i < PLAIN_ORDER.len() {
        bits |= Card::new(PLAIN_ORDER[i], s).bit();
        i += 1;
    }
    CardSet(bits)
}

pub const TRUMPS: CardSet = trump_mask();

/// Power in a trick: trumps 101..=114 (QC highest), plain cards 1..=4 (ace highest). A plain
/// card of a suit other than the one led has no power at all (see `trick_winner`).
const POWER: [u8; Card::COUNT] = {
    let mut p = [0u8; Card::COUNT];
    let mut i = 0;
    while i < TRUMP_ORDER.len() {
        p[TRUMP_ORDER[i].index() as usize] = 114 - i as u8;
        i += 1;
    }
    let suits = [Suit::Clubs, Suit::Spades, Suit::Hearts];
    let mut s = 0;
    while s < 3 {
        let mut r = 0;
        while r < PLAIN_ORDER.len() {
            p[Card::new(PLAIN_ORDER[r], suits[s]).index() as usize] = 4 - r as u8;
            r += 1;
        }
        s += 1;
    }
    p
};

/// Card points: A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0.
const POINTS: [u8; Card::COUNT] = {
    let mut p = [0u8; Card::COUNT];
    let mut i = 0;
    while i < 52 {
        p[i] = match Rank::from_index((i % 13) as u8) {
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            _ => 0,
        };
        i += 1;
    }
    p
};

pub const fn points(c: Card) -> u8 {
    POINTS[c.index() as usize]
}

pub fn set_points(s: CardSet) -> u32 {
    s.iter().map(|c| points(c) as u32).sum()
}

/// Category per card index (cards outside the Zole deck read as hearts; they never occur).
const CATEGORY: [Category; Card::COUNT] = {
    let mut t = [Category::Hearts; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        let c = Card::from_index(i as u8);
        if let Some(c) = c {
            t[i] = if TRUMPS.contains(c) {
                Category::Trumps
            } else {
                match c.suit() {
                    Some(Suit::Clubs) => Category::Clubs,
                    Some(Suit::Spades) => Category::Spades,
                    _ => Category::Hearts,
                }
            };
        }
        i += 1;
    }
    t
};

#[inline]
pub fn category(c: Card) -> Category {
    CATEGORY[c.index() as usize]
}

/// The cards that follow a lead of `led`: its whole category.
#[inline]
pub fn follow_mask(led: Card) -> CardSet {
    category(led).mask()
}

/// The cards of `hand` that may be played on a trick led with `led` (RULES.md 1.5): the led
/// category if held, else anything.
pub fn playable(hand: CardSet, led: Option<Card>) -> CardSet {
    match led {
        None => hand,
        Some(l) => {
            let follow = hand & category(l).mask();
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
    }
}

/// Index (into `trick`) of the card that wins it: the highest trump, else the highest card of
/// the led suit.
pub fn trick_winner(trick: &[Card]) -> usize {
    // Only trumps and the led category have power; others count as zero.
    let live = TRUMPS.union(follow_mask(trick[0]));
    let mut best = 0;
    let mut best_power = 0;
    for (i, &c) in trick.iter().enumerate() {
        let p = if live.contains(c) {
            POWER[c.index() as usize]
        } else {
            0
        };
        if p > best_power {
            best_power = p;
            best = i;
        }
    }
    best
}

/// True if `a` beats `b` when `b` is the card to beat and `led` was led (used by computer
/// players and views; the same order as `trick_winner`).
pub fn beats(a: Card, b: Card, led: Card) -> bool {
    let trick = [led, b, a];
    trick_winner(&trick) == 2 && a != led
}

/// The deck, for checks.
pub const DECK: CardSet = ZOLE_DECK;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{card, cards};

    #[test]
    fn fourteen_trumps_and_four_of_each_plain_suit() {
        assert_eq!(TRUMPS.len(), 14);
        for cat in [Category::Clubs, Category::Spades, Category::Hearts] {
            assert_eq!(cat.mask().len(), 4);
            assert!(cat.mask().is_subset(DECK));
        }
        assert!(TRUMPS.is_subset(DECK));
        assert_eq!(category(card("QH")), Category::Trumps);
        assert_eq!(category(card("JC")), Category::Trumps);
        assert_eq!(category(card("AC")), Category::Clubs);
        assert_eq!(set_points(DECK), 120);
    }

    #[test]
    fn queens_and_jacks_do_not_follow_their_printed_suit() {
        // Lead AH with {KH, QC}: only KH.
        assert_eq!(playable(cards("KH QC"), Some(card("AH"))), cards("KH"));
        // Lead JS with {10H, AC, KH, QC, QS, 9H}: only the trumps QC and QS.
        assert_eq!(
            playable(cards("10H AC KH QC QS 9H"), Some(card("JS"))),
            cards("QC QS")
        );
        // Lead AC with {QC, JC, 9H}: no plain club, so anything.
        assert_eq!(playable(cards("QC JC 9H"), Some(card("AC"))), cards("QC JC 9H"));
        // Lead 7D (a trump) with {QS, AD, AH}: the trumps.
        assert_eq!(playable(cards("QS AD AH"), Some(card("7D"))), cards("QS AD"));
    }

    #[test]
    fn trick_winners() {
        let w = |s: &str| {
            let t: Vec<Card> = s.split_whitespace().map(card).collect();
            trick_winner(&t)
        };
        assert_eq!(w("AH 10H KH"), 0);
        assert_eq!(w("9H AH 10H"), 1);
        assert_eq!(w("AH 7D 10H"), 1, "the lowest trump beats the plain ace");
        assert_eq!(w("AH AC AS"), 0, "off-suit aces win nothing");
        assert_eq!(w("JD QD AD"), 1);
        assert_eq!(w("QS QC JC"), 1);
        assert_eq!(w("AD JD 10D"), 1, "jacks beat the ace of diamonds");
        assert_eq!(w("KC 9C QH"), 2);
        assert!(beats(card("QC"), card("QS"), card("QS")));
        assert!(!beats(card("AS"), card("9H"), card("9H")));
    }
}
