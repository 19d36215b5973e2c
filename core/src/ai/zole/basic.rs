//! The `basic` Zole player: rules of thumb a club player would teach. Hand strength for the
//! bids, a bury that voids suits and keeps points safe, card counting from the seat's view
//! (which trumps and aces are still out, who has shown a void), playing with the other
//! opponent against a declarer, and ducking tricks in galdiņš and small zole.

use rand::RngCore;

use super::dd::{self, beats, bits, bits_points, card_of, cat, pts, Bits, CAT_MASK};
use super::sample::Knowledge;
use crate::ai::{Budget, Level, Player};
use crate::cards::{Card, CardSet};
use crate::games::zole::{Action, Bid, Contract, Phase, SeatView};

/// Strength at which a hand takes the talon, and at which it plays zole.
pub const TAKE_STRENGTH: i32 = 30;
pub const ZOLE_STRENGTH: i32 = 46;

/// Trump values from QC down to 7D, in solver code order reversed (code 13 = QC).
const TRUMP_VALUE: [i32; 14] = [2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9];

/// A rough worth of an eight- (or ten-) card hand for playing a contract: trumps by rank,
/// plain aces, tens guarded by their ace, and plain voids once the hand has trumps to ruff.
pub fn strength(hand: CardSet) -> i32 {
    let b = bits(hand);
    let trumps = b & CAT_MASK[0];
    let mut s = 0;
    let mut t = trumps;
    while t != 0 {
        s += TRUMP_VALUE[t.trailing_zeros() as usize];
        t &= t - 1;
    }
    let n_trumps = trumps.count_ones();
    for (suit, &mask) in CAT_MASK.iter().enumerate().skip(1) {
        let cards = b & mask;
        let base = 14 + 4 * (suit as u32 - 1);
        let ace = cards >> (base + 3) & 1 == 1;
        let ten = cards >> (base + 2) & 1 == 1;
        if ace {
            s += 4;
        }
        if ten {
            s += if ace { 3 } else { 1 };
        }
        if cards == 0 && n_trumps >= 4 {
            s += 2;
        }
    }
    s
}

/// A hand for small zole: nothing that is likely to win a trick.
pub fn small_zole_hand(hand: CardSet) -> bool {
    let b = bits(hand);
    let trumps = b & CAT_MASK[0];
    // Only 7D 8D 9D KD (codes 0..=3) as trumps, at most two of them.
    let low_trumps = trumps & !0xF == 0 && trumps.count_ones() <= 2;
    let mut plain_ok = true;
    for (suit, &mask) in CAT_MASK.iter().enumerate().skip(1) {
        let cards = b & mask;
        let base = 14 + 4 * (suit as u32 - 1);
        // No ace; a ten only with a lower card to spare.
        if cards >> (base + 3) & 1 == 1 {
            plain_ok = false;
        }
        if cards >> (base + 2) & 1 == 1 && cards.count_ones() > 2 {
            plain_ok = false;
        }
    }
    low_trumps && plain_ok
}

/// The bid rules of thumb: zole with a very strong hand, take with a fair one (a little
/// bolder as first hand, who leads), small zole with a hand that cannot win a trick.
pub fn choose_bid(v: &SeatView) -> Bid {
    let allowed = |b: Bid| v.legal.contains(Action::Bid(b));
    let s = strength(v.hand);
    let first = v.active[0] == v.seat;
    if allowed(Bid::Zole) && s >= ZOLE_STRENGTH {
        return Bid::Zole;
    }
    if allowed(Bid::Take) && s >= TAKE_STRENGTH - if first { 2 } else { 0 } {
        return Bid::Take;
    }
    if allowed(Bid::SmallZole) && small_zole_hand(v.hand) {
        return Bid::SmallZole;
    }
    Bid::Pass
}

/// How good burying `pair` out of `hand` (ten cards) looks: points put safe, plain suits
/// voided, trumps kept, no unguarded ten left behind.
pub fn bury_score(hand: CardSet, pair: CardSet) -> i32 {
    let h = bits(hand);
    let p = bits(pair);
    let after = h & !p;
    let mut s = bits_points(p) * 2;
    let mut t = p & CAT_MASK[0];
    while t != 0 {
        s -= 25 + 3 * t.trailing_zeros() as i32;
        t &= t - 1;
    }
    for (suit, &mask) in CAT_MASK.iter().enumerate().skip(1) {
        let m = mask;
        let base = 14 + 4 * (suit as u32 - 1);
        if h & m != 0 && after & m == 0 {
            s += 12;
        }
        let ace = after >> (base + 3) & 1 == 1;
        let ten = after >> (base + 2) & 1 == 1;
        if ten && !ace {
            s -= 8;
        }
        // A buried ace is safe points but also a trick lost; mildly prefer keeping it.
        if p >> (base + 3) & 1 == 1 {
            s -= 6;
        }
    }
    s
}

/// The `n` best-looking burials, best first.
pub fn bury_candidates(hand: CardSet, n: usize) -> Vec<(Card, Card)> {
    let cards: Vec<Card> = hand.iter().collect();
    let mut all = Vec::with_capacity(45);
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            let pair = CardSet::single(cards[i]) | CardSet::single(cards[j]);
            all.push((bury_score(hand, pair), cards[i], cards[j]));
        }
    }
    all.sort_by_key(|x| std::cmp::Reverse(x.0));
    all.into_iter().take(n).map(|(_, a, b)| (a, b)).collect()
}

fn lowest_by(cards: Bits, key: impl Fn(u8) -> i32) -> u8 {
    let mut best = (i32::MAX, 0u8);
    let mut m = cards;
    while m != 0 {
        let c = m.trailing_zeros() as u8;
        m &= m - 1;
        let k = key(c);
        if k < best.0 {
            best = (k, c);
        }
    }
    best.1
}

fn highest_by(cards: Bits, key: impl Fn(u8) -> i32) -> u8 {
    lowest_by(cards, |c| -key(c))
}

/// Cards of `c`'s category above it among `live`.
fn above(c: u8, live: Bits) -> Bits {
    live & CAT_MASK[cat(c)] & !((2u32 << c) - 1)
}

/// The card to play, by rules of thumb, from the view alone.
pub fn choose_play(v: &SeatView) -> Card {
    let legal = bits(v.legal.plays());
    if legal.count_ones() == 1 {
        return card_of(legal.trailing_zeros() as u8);
    }
    let know = Knowledge::from_view(v);
    let unseen = bits(v.unseen());
    let me = know.me;
    let trick: Vec<u8> = v.trick.iter().map(|&c| dd::code(c)).collect();
    let leader = v
        .trick_leader
        .and_then(|l| v.active.iter().position(|&s| s == l))
        .unwrap_or(me);
    let declarer = v.declarer.and_then(|d| v.active.iter().position(|&s| s == d));
    let contract = v.contract.unwrap_or(Contract::Galdins);
    let avoid = contract == Contract::Galdins || (contract == Contract::SmallZole && declarer == Some(me));
    let c = if avoid {
        play_to_lose(legal, &trick, unseen)
    } else if contract == Contract::SmallZole {
        play_against_small_zole(legal, &trick, leader, declarer.unwrap_or(0), unseen)
    } else {
        play_contract(v, &know, legal, &trick, leader, declarer.unwrap_or(0), unseen)
    };
    card_of(c)
}

/// The best card so far in a trick and its position.
fn best_of(trick: &[u8]) -> (usize, u8) {
    let mut b = 0;
    for i in 1..trick.len() {
        if beats(trick[i], trick[b]) {
            b = i;
        }
    }
    (b, trick[b])
}

fn winners(legal: Bits, best: u8) -> Bits {
    let mut w = 0;
    let mut m = legal;
    while m != 0 {
        let c = m.trailing_zeros() as u8;
        m &= m - 1;
        if beats(c, best) {
            w |= 1 << c;
        }
    }
    w
}

/// Galdiņš, or the declarer of a small zole: take as few tricks (and points) as possible.
fn play_to_lose(legal: Bits, trick: &[u8], unseen: Bits) -> u8 {
    if trick.is_empty() {
        // Lead the card most likely to be beaten: many live cards above it, few points.
        return highest_by(legal, |c| above(c, unseen).count_ones() as i32 * 20 - pts(c));
    }
    let (_, best) = best_of(trick);
    let win = winners(legal, best);
    let lose = legal & !win;
    if lose != 0 {
        // Shed the most dangerous card that still loses: high power, high points.
        return highest_by(lose, |c| pts(c) * 2 + c as i32 + if c < 14 { 20 } else { 0 });
    }
    if trick.len() == 2 {
        highest_by(win, |c| c as i32 - pts(c))
    } else {
        lowest_by(win, |c| c as i32)
    }
}

/// An opponent of a small zole: make the declarer win a trick.
fn play_against_small_zole(legal: Bits, trick: &[u8], leader: usize, declarer: usize, unseen: Bits) -> u8 {
    if trick.is_empty() {
        // Low cards in categories where plenty of higher cards are out.
        return highest_by(legal, |c| above(c, unseen).count_ones() as i32 * 10 - c as i32);
    }
    let (b, best) = best_of(trick);
    let declarer_played = (0..trick.len()).any(|k| (leader + k) % 3 == declarer);
    let declarer_winning = (leader + b) % 3 == declarer;
    let lose = legal & !winners(legal, best);
    if declarer_played && declarer_winning && lose != 0 {
        return highest_by(lose, |c| c as i32);
    }
    lowest_by(legal, |c| c as i32)
}

/// Take or zole, as declarer or as one of the two opponents.
fn play_contract(
    v: &SeatView,
    know: &Knowledge,
    legal: Bits,
    trick: &[u8],
    leader: usize,
    declarer: usize,
    unseen: Bits,
) -> u8 {
    let me = know.me;
    let i_declare = me == declarer;
    if trick.is_empty() {
        return lead_contract(v, know, legal, i_declare, declarer, unseen);
    }
    let (b, best) = best_of(trick);
    let owner = (leader + b) % 3;
    let friend = !i_declare && owner != declarer;
    let last = trick.len() == 2;
    let led_cat = cat(trick[0]);
    let relevant = unseen & (CAT_MASK[0] | CAT_MASK[led_cat]);
    let win = winners(legal, best);
    let trick_pts: i32 = trick.iter().map(|&c| pts(c)).sum();
    // Is the declarer still to play after me?
    let declarer_after = !i_declare && !last && (leader + 2) % 3 == declarer;
    let safe_for_friend = last || !declarer_after || winners(relevant, best) == 0;
    if friend && safe_for_friend {
        // Smear: the most points without spending a high trump.
        return highest_by(legal, |c| pts(c) * 4 - if c < 14 { c as i32 * 2 } else { 0 });
    }
    if win != 0 {
        if last {
            // Win as cheaply in power as possible, collecting points where free.
            return lowest_by(win, |c| c as i32 * 2 - pts(c));
        }
        // A winner that nothing unseen can beat.
        let secure = {
            let mut s = 0;
            let mut m = win;
            while m != 0 {
                let c = m.trailing_zeros() as u8;
                m &= m - 1;
                if winners(relevant, c) == 0 {
                    s |= 1 << c;
                }
            }
            s
        };
        let next_is_friend = !i_declare && (leader + 2) % 3 != declarer;
        if secure != 0 && !next_is_friend {
            return lowest_by(secure, |c| c as i32 * 2 - pts(c));
        }
        if trick_pts >= 10 && !next_is_friend {
            return highest_by(win, |c| c as i32);
        }
        if next_is_friend && friend {
            return lowest_by(legal, |c| pts(c) * 4 + c as i32);
        }
    }
    // Cannot or need not win: throw the cheapest card, keeping trumps.
    lowest_by(legal, |c| pts(c) * 4 + c as i32 + if c < 14 { 30 } else { 0 })
}

fn lead_contract(
    v: &SeatView,
    know: &Knowledge,
    legal: Bits,
    i_declare: bool,
    declarer: usize,
    unseen: Bits,
) -> u8 {
    let trumps = legal & CAT_MASK[0];
    let out_trumps = unseen & CAT_MASK[0];
    let top_aces: Bits = {
        let mut a = 0;
        for suit in 1..4usize {
            let base = 14 + 4 * (suit as u32 - 1);
            let ace = base + 3;
            if legal >> ace & 1 == 1 {
                // Only while nobody who could ruff has shown the void.
                let ruffable = (0..3)
                    .any(|p| p != know.me && (i_declare || p == declarer) && know.void[p] >> suit & 1 == 1);
                if !ruffable {
                    a |= 1 << ace;
                }
            }
        }
        a
    };
    let _ = v;
    if i_declare {
        if trumps != 0 && out_trumps != 0 {
            let top = 31 - trumps.leading_zeros();
            let top_is_boss = out_trumps >> top == 0;
            if top_is_boss || trumps.count_ones() >= out_trumps.count_ones() {
                return top as u8;
            }
        }
        if top_aces != 0 {
            return top_aces.trailing_zeros() as u8;
        }
        let plain = legal & !CAT_MASK[0];
        if plain != 0 {
            return lowest_by(plain, |c| {
                pts(c) * 4 + (legal & CAT_MASK[cat(c)]).count_ones() as i32
            });
        }
        return lowest_by(legal, |c| c as i32);
    }
    if top_aces != 0 {
        return top_aces.trailing_zeros() as u8;
    }
    // Lead a low plain card, preferring suits the declarer still follows.
    let plain = legal & !CAT_MASK[0];
    if plain != 0 {
        return lowest_by(plain, |c| {
            let void = know.void[declarer] >> cat(c) & 1 == 1;
            pts(c) * 4 + if void { 40 } else { 0 }
        });
    }
    lowest_by(legal, |c| c as i32)
}

/// The basic player as a `Player`.
#[derive(Clone, Debug, Default)]
pub struct Basic;

impl Player<SeatView, Action> for Basic {
    fn level(&self) -> Level {
        Level::Basic
    }
    fn choose(&mut self, v: &SeatView, _rng: &mut dyn RngCore, _budget: &dyn Budget) -> Action {
        match v.phase {
            Phase::Bidding => Action::Bid(choose_bid(v)),
            Phase::Bury => {
                let (a, b) = bury_candidates(v.hand, 1)[0];
                Action::Bury(a, b)
            }
            _ => Action::Play(choose_play(v)),
        }
    }
}
