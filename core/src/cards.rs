//! Cards shared by every game: `Suit`, `Rank`, `Card`, the `CardSet` bitset, the decks of each
//! game, and the canonical names (`QC`, `10D`, `JK`) used in records, tests and messages.
//!
//! Which card beats which, and what a card is worth, are per-game tables in `games/*`; this
//! module knows only the printed faces.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four printed suits, in the order of RULES.md: clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The English plural, as used in rule messages ("must follow hearts").
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    /// Parses a suit letter (`C D H S`) or symbol (`♣ ♦ ♥ ♠`, also the hollow forms).
    pub fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            'C' | 'c' | '♣' | '♧' => Suit::Clubs,
            'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
            'H' | 'h' | '♥' | '♡' => Suit::Hearts,
            'S' | 's' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }

    /// The other suit of the same colour (clubs/spades, diamonds/hearts).
    pub const fn same_colour(self) -> Suit {
        match self {
            Suit::Clubs => Suit::Spades,
            Suit::Spades => Suit::Clubs,
            Suit::Diamonds => Suit::Hearts,
            Suit::Hearts => Suit::Diamonds,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = ParseCardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_char(c).ok_or_else(|| ParseCardError(s.to_string())),
            _ => Err(ParseCardError(s.to_string())),
        }
    }
}

/// Printed ranks, lowest first. The numeric value is only an index: each game has its own order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    pub const fn from_index(i: u8) -> Rank {
        Rank::ALL[i as usize % 13]
    }

    pub const fn symbol(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    fn parse(s: &str) -> Option<Rank> {
        Some(match s {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" | "t" => Rank::Ten,
            "J" | "j" => Rank::Jack,
            "Q" | "q" => Rank::Queen,
            "K" | "k" => Rank::King,
            "A" | "a" => Rank::Ace,
            _ => return None,
        })
    }
}

/// One card: `suit * 13 + rank` for the 52 suited cards, 52 for the joker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const JOKER: Card = Card(52);
    /// Number of distinct card indices (52 suited cards and the joker).
    pub const COUNT: usize = 53;

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 13 + rank as u8)
    }

    /// The card with this index (`0..53`), if any.
    pub const fn from_index(i: u8) -> Option<Card> {
        if i < 53 {
            Some(Card(i))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// Printed suit; `None` for the joker.
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0 / 13))
        }
    }

    /// Printed rank; `None` for the joker.
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank::from_index(self.0 % 13))
        }
    }

    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.symbol(), s.letter()),
            _ => f.write_str("JK"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card {0:?}")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;
    /// Accepts the canonical names (`QC`, `10D`, `JK`), `T` for ten, lower case, and the suit
    /// symbols `♣ ♦ ♥ ♠`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("JK") || t == "🃏" {
            return Ok(Card::JOKER);
        }
        let err = || ParseCardError(s.to_string());
        let last = t.chars().last().ok_or_else(err)?;
        let suit = Suit::from_char(last).ok_or_else(err)?;
        let rank = Rank::parse(&t[..t.len() - last.len_utf8()]).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of cards as a 64-bit bitset (bit `i` is the card with index `i`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits)
    }

    pub const fn bits(self) -> u64 {
        self.0
    }

    pub const fn single(c: Card) -> CardSet {
        CardSet(c.bit())
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn insert(&mut self, c: Card) {
        self.0 |= c.bit();
    }

    pub fn remove(&mut self, c: Card) {
        self.0 &= !c.bit();
    }

    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    pub const fn is_subset(self, o: CardSet) -> bool {
        self.0 & !o.0 == 0
    }

    /// The card with the lowest index, if any.
    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// The `n`-th card (by index order), if the set has that many.
    pub fn nth(self, n: u32) -> Option<Card> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        CardSet(bits).first()
    }

    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, o: CardSet) -> CardSet {
        self.union(o)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, o: CardSet) -> CardSet {
        self.intersect(o)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, o: CardSet) {
        self.0 |= o.0;
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(it: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterates the cards of a set in index order.
#[derive(Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::from_index(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// All cards of one printed suit.
pub const fn suit_mask(s: Suit) -> CardSet {
    CardSet(0x1FFFu64 << (s as u8 * 13))
}

/// All cards of the given ranks in every suit.
pub const fn ranks_mask(ranks: &[Rank]) -> CardSet {
    let mut bits = 0u64;
    let mut i = 0;
    while i < ranks.len() {
        let mut s = 0;
        while s < 4 {
            bits |= 1u64 << (s * 13 + ranks[i] as u8);
            s += 1;
        }
        i += 1;
    }
    CardSet(bits)
}

/// The 52-card pack.
pub const FULL_PACK: CardSet = CardSet((1u64 << 52) - 1);

/// The 53-card pack with the joker (Polt to Tzar).
pub const PACK_WITH_JOKER: CardSet = CardSet((1u64 << 53) - 1);

/// The 32-card piquet pack (belote): `A K Q J 10 9 8 7` in all suits.
pub const PIQUET_PACK: CardSet = ranks_mask(&[
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
]);

/// The 26-card Zole deck: all queens and jacks, `A 10 K 9 8 7` of diamonds, `A 10 K 9` of the
/// other suits.
pub const ZOLE_DECK: CardSet = CardSet(
    ranks_mask(&[
        Rank::Queen,
        Rank::Jack,
        Rank::Ace,
        Rank::Ten,
        Rank::King,
        Rank::Nine,
    ])
    .0 | (1u64 << (Suit::Diamonds as u8 * 13 + Rank::Eight as u8))
        | (1u64 << (Suit::Diamonds as u8 * 13 + Rank::Seven as u8)),
);

/// Shorthand for tests and tables: parses a canonical card name, panicking on a typo.
pub fn card(name: &str) -> Card {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// Shorthand for tests: a set from space-separated card names.
pub fn cards(names: &str) -> CardSet {
    names.split_whitespace().map(card).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_round_trip_for_every_card() {
        for i in 0..53u8 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(card("QC").to_string(), "QC");
        assert_eq!(card("10D").to_string(), "10D");
        assert_eq!(card("JK"), Card::JOKER);
    }

    #[test]
    fn input_accepts_t_and_suit_symbols() {
        assert_eq!(card("TD"), card("10D"));
        assert_eq!(card("Q♣"), card("QC"));
        assert_eq!(card("10♦"), card("10D"));
        assert_eq!(card("A♥"), card("AH"));
        assert_eq!(card("K♠"), card("KS"));
        assert_eq!(card("qs"), card("QS"));
    }

    #[test]
    fn rejects_unknown_names() {
        for bad in ["", "Q", "1D", "11D", "QX", "QCC", "JKK", "ZZ", "♣"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn decks_have_the_right_sizes() {
        assert_eq!(ZOLE_DECK.len(), 26);
        assert_eq!(PIQUET_PACK.len(), 32);
        assert_eq!(FULL_PACK.len(), 52);
        assert_eq!(PACK_WITH_JOKER.len(), 53);
        assert!(ZOLE_DECK.contains(card("7D")) && !ZOLE_DECK.contains(card("7H")));
    }

    #[test]
    fn cardset_operations() {
        let s = cards("QC JS 9H");
        assert_eq!(s.len(), 3);
        assert!(s.contains(card("JS")));
        assert_eq!(s.minus(cards("JS")).len(), 2);
        assert_eq!(s.iter().count(), 3);
        assert_eq!(s.nth(1), s.iter().nth(1));
        assert_eq!(s.nth(3), None);
        assert_eq!(serde_json::to_string(&card("10H")).unwrap(), "\"10H\"");
        assert_eq!(serde_json::from_str::<Card>("\"T♥\"").unwrap(), card("10H"));
    }
}
