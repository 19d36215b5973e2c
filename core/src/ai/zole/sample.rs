//! What one seat knows about the hidden cards of a Zole deal, and drawing worlds (the other
//! two hands and the cards out of play) consistent with it: the unseen cards, each hand's
//! size, and the categories a seat showed it lacks by not following. Worlds are drawn
//! uniformly among the consistent ones (an exact count over categories, so a consistent world
//! is always found when one exists); the bids are then used as a soft filter.

use rand::{Rng, RngCore};

use super::basic;
use super::dd::{bits, set_of, Bits, CAT_MASK};
use crate::cards::CardSet;
use crate::games::zole::tables::{category, Category};
use crate::games::zole::{Bid, Phase, SeatView};

fn cat_index(c: Category) -> usize {
    match c {
        Category::Trumps => 0,
        Category::Clubs => 1,
        Category::Spades => 2,
        Category::Hearts => 3,
    }
}

/// Everything a seat knows about where the unseen cards can be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// My active index (0 = first hand).
    pub me: usize,
    pub hand: CardSet,
    /// Cards whose place I do not know: in the other two hands or out of play (the talon, or
    /// someone else's bury).
    pub unseen: CardSet,
    /// Cards each active seat holds now.
    pub sizes: [u8; 3],
    /// Unseen cards that are out of play.
    pub out: u8,
    /// Per active seat, bit `k` set: that seat has shown it holds no card of category `k`
    /// (trumps, clubs, spades, hearts).
    pub void: [u8; 3],
    /// Cards each active seat has played so far.
    pub played: [CardSet; 3],
}

impl Knowledge {
    pub fn from_view(v: &SeatView) -> Knowledge {
        let me = v.active.iter().position(|&s| s == v.seat).unwrap_or(0);
        let idx = |s| v.active.iter().position(|&a| a == s).unwrap_or(0);
        let mut void = [0u8; 3];
        let mut played = [CardSet::EMPTY; 3];
        let mut note = |leader: usize, cards: &[crate::cards::Card]| {
            if let Some(&led) = cards.first() {
                let cat = cat_index(category(led));
                for (k, &c) in cards.iter().enumerate() {
                    let p = (leader + k) % 3;
                    played[p].insert(c);
                    if cat_index(category(c)) != cat {
                        void[p] |= 1 << cat;
                    }
                }
            }
        };
        for t in &v.tricks {
            note(idx(t.leader), &t.cards);
        }
        if let Some(l) = v.trick_leader {
            note(idx(l), &v.trick);
        }
        let mut sizes = [0u8; 3];
        for p in 0..3 {
            sizes[p] = 8 - played[p].len() as u8;
        }
        sizes[me] = v.hand.len() as u8;
        let unseen = v.unseen();
        let others: u8 = (0..3).filter(|&p| p != me).map(|p| sizes[p]).sum();
        let out = (unseen.len() as u8).saturating_sub(others);
        // After the deal is over nothing is hidden that matters.
        let unseen = if v.phase == Phase::Done {
            CardSet::EMPTY
        } else {
            unseen
        };
        Knowledge {
            me,
            hand: v.hand,
            unseen,
            sizes,
            out,
            void,
            played,
        }
    }

    fn others(&self) -> [usize; 2] {
        [(self.me + 1) % 3, (self.me + 2) % 3]
    }
}

/// One possible layout of the hidden cards: every active seat's hand now (mine as it is) and
/// the unseen cards out of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct World {
    pub hands: [CardSet; 3],
    pub out: CardSet,
}

fn binom(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// Draws a world uniformly among those consistent with `k`, or `None` when there is none
/// (which a view of a real deal never gives).
pub fn sample(k: &Knowledge, rng: &mut dyn RngCore) -> Option<World> {
    let [a, b] = k.others();
    let un = bits(k.unseen);
    let n: [u32; 4] = [0, 1, 2, 3].map(|c| (un & CAT_MASK[c]).count_ones());
    let allow = |p: usize, c: usize| k.void[p] >> c & 1 == 0;
    let (ca, cb) = (k.sizes[a] as usize, k.sizes[b] as usize);
    if k.unseen.len() as usize != ca + cb + k.out as usize {
        return None;
    }
    // ways[i][x][y]: weighted count of ways to place categories i.. with x cards still to go
    // to seat a, y to seat b, and the rest out of play.
    let mut rest = [0u32; 5];
    for i in (0..4).rev() {
        rest[i] = rest[i + 1] + n[i];
    }
    let mut ways = [[[0f64; 11]; 11]; 5];
    ways[4][0][0] = 1.0;
    for i in (0..4).rev() {
        for x in 0..=ca.min(10) {
            for y in 0..=cb.min(10) {
                let mut w = 0.0;
                for_splits(
                    n[i],
                    x,
                    y,
                    allow(a, i),
                    allow(b, i),
                    rest[i + 1] as usize,
                    |xa, yb, z| {
                        w += multinom(n[i], xa, yb, z) * ways[i + 1][x - xa as usize][y - yb as usize];
                    },
                );
                ways[i][x][y] = w;
            }
        }
    }
    if ways[0][ca][cb] <= 0.0 {
        return None;
    }
    let mut hands = [CardSet::EMPTY; 3];
    hands[k.me] = k.hand;
    let mut out = CardSet::EMPTY;
    let (mut x, mut y) = (ca, cb);
    for i in 0..4 {
        let mut choices: arrayvec::ArrayVec<(u32, u32, u32, f64), 128> = arrayvec::ArrayVec::new();
        let mut total = 0.0;
        for_splits(
            n[i],
            x,
            y,
            allow(a, i),
            allow(b, i),
            rest[i + 1] as usize,
            |xa, yb, z| {
                let w = multinom(n[i], xa, yb, z) * ways[i + 1][x - xa as usize][y - yb as usize];
                if w > 0.0 {
                    total += w;
                    choices.push((xa, yb, z, w));
                }
            },
        );
        let mut r = rng.random::<f64>() * total;
        let mut pick = *choices.last()?;
        for &ch in &choices {
            if r < ch.3 {
                pick = ch;
                break;
            }
            r -= ch.3;
        }
        let (xa, yb, _) = (pick.0, pick.1, pick.2);
        let mut cards = un & CAT_MASK[i];
        let to_a = take_random(&mut cards, xa, rng);
        let to_b = take_random(&mut cards, yb, rng);
        hands[a] |= set_of(to_a);
        hands[b] |= set_of(to_b);
        out |= set_of(cards);
        x -= xa as usize;
        y -= yb as usize;
    }
    Some(World { hands, out })
}

/// Every split of `n` cards of one category into (to a, to b, out) that fits the capacities
/// left, respecting voids. `later` is the number of unseen cards of later categories: the out
/// bucket must leave room so the remaining capacity can still be filled.
fn for_splits(
    n: u32,
    x: usize,
    y: usize,
    ok_a: bool,
    ok_b: bool,
    later: usize,
    mut f: impl FnMut(u32, u32, u32),
) {
    let max_a = if ok_a { n.min(x as u32) } else { 0 };
    let max_b = if ok_b { n.min(y as u32) } else { 0 };
    for xa in 0..=max_a {
        for yb in 0..=max_b.min(n - xa) {
            let z = n - xa - yb;
            // Whatever a and b still need must come from later categories.
            if (x - xa as usize) + (y - yb as usize) > later {
                continue;
            }
            f(xa, yb, z);
        }
    }
}

fn multinom(n: u32, a: u32, b: u32, _z: u32) -> f64 {
    binom(n, a) * binom(n - a, b)
}

fn take_random(cards: &mut Bits, k: u32, rng: &mut dyn RngCore) -> Bits {
    let mut got = 0;
    for _ in 0..k {
        let n = cards.count_ones();
        let mut i = rng.random_range(0..n);
        let mut m = *cards;
        while i > 0 {
            m &= m - 1;
            i -= 1;
        }
        let bit = m & m.wrapping_neg();
        got |= bit;
        *cards &= !bit;
    }
    got
}

/// True if the hands a world gives the other seats fit what they bid: a seat that passed
/// would not have held a hand our rules of thumb call a clear zole, and a zole declarer would
/// have held at least a playable take.
pub fn fits_bids(v: &SeatView, k: &Knowledge, w: &World) -> bool {
    for &(seat, bid) in &v.bids {
        if seat == v.seat {
            continue;
        }
        let Some(p) = v.active.iter().position(|&s| s == seat) else {
            continue;
        };
        let dealt = w.hands[p] | k.played[p];
        if dealt.len() != 8 {
            continue;
        }
        let s = basic::strength(dealt);
        let ok = match bid {
            Bid::Pass => s < basic::ZOLE_STRENGTH,
            Bid::Zole => s >= basic::TAKE_STRENGTH,
            _ => true,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// A world consistent with everything seen, preferring one that fits the bids (a few draws,
/// then any consistent world).
pub fn sample_world(v: &SeatView, k: &Knowledge, rng: &mut dyn RngCore) -> Option<World> {
    let mut last = None;
    for _ in 0..12 {
        let w = sample(k, rng)?;
        if fits_bids(v, k, &w) {
            return Some(w);
        }
        last = Some(w);
    }
    last
}
