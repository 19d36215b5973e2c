//! What one seat knows about the hidden cards of a Belote deal, and drawing worlds (every
//! other hand now, and the cards out of play: the stock during the take/pass bidding, the
//! unused cards of head-to-head) consistent with it: the cards played, the turned card (on
//! the table, then in the taker's hand), the announced combinations (their cards are in the
//! announcer's hand until played), and what each seat showed it lacks by the play rules: a
//! void in the led suit, no trump at all (a discard when it had to trump), or no trump above
//! the best one in the trick (an undertrump, or a trump lead not beaten; in all trumps, a led
//! suit not beaten). Cards are dealt at random to holders with room and allowed by these
//! constraints; when a random choice paints itself into a corner, an augmenting path
//! (bipartite matching) moves earlier cards, so a consistent world is always found when one
//! exists. The bids are then used as a soft filter.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

use super::basic::{hand_value, suit_of};
use crate::cards::{Card, CardSet, Rank, Suit, PIQUET_PACK};
use crate::game::Seat;
use crate::games::belote::combos::Combo;
use crate::games::belote::play::{piquet_suit, Tables};
use crate::games::belote::{Mode, Options, Phase, SeatView, Variant};

/// The cards of an announced combination.
pub fn combo_cards(c: Combo) -> CardSet {
    match c {
        Combo::Four(r) => Suit::ALL.iter().map(|&s| Card::new(r, s)).collect(),
        Combo::Sequence { len, top } => (0..len)
            .filter_map(|i| Card::from_index(top.index().checked_sub(i)?))
            .collect(),
    }
}

/// Everything a seat knows about where the unseen cards can be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    pub variant: Variant,
    pub me: Seat,
    pub hand: CardSet,
    /// Cards whose place I do not know: in the other hands or out of play.
    pub unseen: CardSet,
    /// Per seat, cards known to be in its hand now (the turned card with the taker, the
    /// announced combinations not yet played); not part of `unseen`.
    pub known: [CardSet; 4],
    /// Cards each seat holds now.
    pub sizes: [u8; 4],
    /// Unseen cards that are out of play.
    pub out: u8,
    /// Per seat, cards it cannot hold (shown by the play rules).
    pub cant: [CardSet; 4],
    /// Cards each seat has played so far.
    pub played: [CardSet; 4],
}

impl Knowledge {
    pub fn from_view(v: &SeatView, opts: &Options) -> Knowledge {
        let var = v.variant;
        let n = var.seats();
        let mut played = [CardSet::EMPTY; 4];
        let mut cant = [CardSet::EMPTY; 4];
        let mode = v.contract.map(|c| c.mode);
        let tables = Tables::new(mode.unwrap_or(Mode::NoTrump));
        let mut note = |cards: &[(Seat, Card)]| {
            let Some(&(_, first)) = cards.first() else {
                return;
            };
            let led = suit_of(first);
            let mut best = 0;
            for (k, &(s, c)) in cards.iter().enumerate() {
                let si = s as usize & 3;
                played[si].insert(c);
                if k > 0 {
                    let (best_seat, b) = cards[best];
                    let partner_winning = n == 4 && k >= 2 && var.team(best_seat) == var.team(s);
                    infer(
                        &tables,
                        opts.must_undertrump,
                        led,
                        b,
                        partner_winning,
                        c,
                        &mut cant[si],
                    );
                    if tables.strength(c, led) > tables.strength(b, led) {
                        best = k;
                    }
                }
            }
        };
        for t in &v.tricks {
            let mut cards = arrayvec::ArrayVec::<(Seat, Card), 4>::new();
            let mut s = t.leader;
            for &c in &t.cards[..t.len as usize] {
                cards.push((s, c));
                s = var.next(s);
            }
            note(&cards);
        }
        note(&v.trick);

        let mut seen = v.hand;
        for p in played.iter() {
            seen |= *p;
        }
        let mut known = [CardSet::EMPTY; 4];
        let mut sizes = [0u8; 4];
        let bidding = v.phase == Phase::Bidding;
        for (s, size) in sizes.iter_mut().enumerate().take(n) {
            let full = if bidding {
                var.first_hand_size()
            } else {
                var.hand_size()
            };
            *size = (full - played[s].len() as usize) as u8;
        }
        sizes[v.seat as usize] = v.hand.len() as u8;
        if let Some(t) = v.turned {
            seen.insert(t);
            // After the take the turned card is the taker's until he plays it.
            if let Some(c) = v.contract {
                if c.declarer != v.seat && !played[c.declarer as usize].contains(t) {
                    known[c.declarer as usize].insert(t);
                }
            }
        }
        for &(s, combo) in &v.announced {
            if s != v.seat {
                let cards = combo_cards(combo).minus(played[s as usize]);
                known[s as usize] |= cards;
                seen |= cards;
            }
        }
        let unseen = if v.phase == Phase::Done {
            CardSet::EMPTY
        } else {
            PIQUET_PACK.minus(seen)
        };
        let room: u32 = (0..n)
            .filter(|&s| s != v.seat as usize)
            .map(|s| sizes[s] as u32 - known[s].len())
            .sum();
        let out = unseen.len().saturating_sub(room) as u8;
        Knowledge {
            variant: var,
            me: v.seat,
            hand: v.hand,
            unseen,
            known,
            sizes,
            out,
            cant,
            played,
        }
    }
}

/// What playing `c` on a trick led with `led`, whose best card was `best`, shows about the
/// player's hand.
fn infer(
    t: &Tables,
    must_undertrump: bool,
    led: Suit,
    best: Card,
    partner_winning: bool,
    c: Card,
    cant: &mut CardSet,
) {
    let led_set = piquet_suit(led);
    let above =
        |set: CardSet, x: Card| -> CardSet { set.iter().filter(|&y| t.order(y) > t.order(x)).collect() };
    let follows = suit_of(c) == led;
    if !follows {
        *cant |= led_set;
    }
    match t.mode {
        Mode::NoTrump => {}
        Mode::AllTrumps => {
            if follows && t.order(c) < t.order(best) {
                *cant |= above(led_set, best);
            }
        }
        Mode::Trump(tr) => {
            let trumps = piquet_suit(tr);
            let best_is_trump = suit_of(best) == tr;
            if led == tr {
                if follows && t.order(c) < t.order(best) {
                    *cant |= above(trumps, best);
                }
                return;
            }
            if follows || partner_winning {
                return;
            }
            if suit_of(c) == tr {
                if best_is_trump && t.order(c) < t.order(best) {
                    *cant |= above(trumps, best);
                }
            } else if must_undertrump || !best_is_trump {
                *cant |= trumps;
            } else {
                *cant |= above(trumps, best);
            }
        }
    }
}

/// One possible layout of the hidden cards: every seat's hand now (mine as it is) and the
/// unseen cards out of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct World {
    pub hands: [CardSet; 4],
    pub out: CardSet,
}

const OUT: usize = 4;

/// Draws a world consistent with `k`, or `None` when there is none (which a view of a real
/// deal never gives).
pub fn sample(k: &Knowledge, rng: &mut dyn RngCore) -> Option<World> {
    let n = k.variant.seats();
    let mut cap = [0usize; 5];
    for (s, c) in cap.iter_mut().enumerate().take(n) {
        if s != k.me as usize {
            *c = (k.sizes[s] as usize).checked_sub(k.known[s].len() as usize)?;
        }
    }
    cap[OUT] = k.out as usize;
    let mut cards: arrayvec::ArrayVec<Card, 32> = k.unseen.iter().collect();
    if cards.len() != cap.iter().sum::<usize>() {
        return None;
    }
    cards.shuffle(rng);
    let allowed = |c: Card, h: usize| h == OUT || (h != k.me as usize && h < n && !k.cant[h].contains(c));
    let mut holder = [usize::MAX; 32];
    let mut used = [0usize; 5];
    for i in 0..cards.len() {
        let c = cards[i];
        let free: u32 = (0..5)
            .filter(|&h| allowed(c, h) && used[h] < cap[h])
            .map(|h| (cap[h] - used[h]) as u32)
            .sum();
        if free > 0 {
            // Weighted by room left: without constraints this deals uniformly.
            let mut r = rng.random_range(0..free);
            for h in 0..5 {
                if allowed(c, h) && used[h] < cap[h] {
                    let room = (cap[h] - used[h]) as u32;
                    if r < room {
                        holder[i] = h;
                        used[h] += 1;
                        break;
                    }
                    r -= room;
                }
            }
            continue;
        }
        let mut visited = [false; 5];
        if !augment(
            i,
            &cards[..=i],
            &mut holder,
            &mut used,
            &cap,
            &allowed,
            &mut visited,
        ) {
            return None;
        }
    }
    let mut hands = k.known;
    hands[k.me as usize] = k.hand;
    let mut out = CardSet::EMPTY;
    for (i, &c) in cards.iter().enumerate() {
        match holder[i] {
            OUT => out.insert(c),
            h => hands[h].insert(c),
        }
    }
    Some(World { hands, out })
}

/// Kuhn's augmenting path: places card `i` by moving earlier cards along a chain of holders.
fn augment(
    i: usize,
    cards: &[Card],
    holder: &mut [usize; 32],
    used: &mut [usize; 5],
    cap: &[usize; 5],
    allowed: &dyn Fn(Card, usize) -> bool,
    visited: &mut [bool; 5],
) -> bool {
    let c = cards[i];
    for h in 0..5 {
        if !allowed(c, h) || visited[h] || cap[h] == 0 {
            continue;
        }
        visited[h] = true;
        if used[h] < cap[h] {
            holder[i] = h;
            used[h] += 1;
            return true;
        }
        // Full: try to move one of its cards elsewhere.
        for j in 0..cards.len() {
            if j != i && holder[j] == h {
                let prev = holder[j];
                holder[j] = usize::MAX;
                used[h] -= 1;
                if augment(j, cards, holder, used, cap, allowed, visited) {
                    holder[i] = h;
                    used[h] += 1;
                    return true;
                }
                holder[j] = prev;
                used[h] += 1;
            }
        }
    }
    false
}

/// True if a world fits the bidding: whoever holds the contract (or the highest bid) would
/// have held something in its mode. A soft filter: the bids are people's, not rules.
pub fn fits_bids(v: &SeatView, k: &Knowledge, w: &World) -> bool {
    let (seat, mode) = match (v.contract, v.high_bid) {
        (Some(c), _) => (c.declarer, c.mode),
        (None, Some((_, m, _, s))) => (s, m),
        _ => return true,
    };
    if seat == v.seat || v.variant.team(seat) == v.variant.team(v.seat) && v.variant.seats() == 4 {
        return true;
    }
    let dealt = w.hands[seat as usize] | k.played[seat as usize];
    hand_value(dealt, mode) >= 30 || dealt.contains(jack_of(mode))
}

fn jack_of(m: Mode) -> Card {
    Card::new(Rank::Jack, m.trump_suit().unwrap_or(Suit::Clubs))
}

/// A world consistent with everything seen, preferring one that fits the bids (a few draws,
/// then any consistent world).
pub fn sample_world(v: &SeatView, k: &Knowledge, rng: &mut dyn RngCore) -> Option<World> {
    let mut last = None;
    for _ in 0..8 {
        let w = sample(k, rng)?;
        if fits_bids(v, k, &w) {
            return Some(w);
        }
        last = Some(w);
    }
    last
}

/// True if `w` contradicts nothing `k` knows (the check the tests run on every world).
pub fn consistent(k: &Knowledge, w: &World) -> bool {
    let n = k.variant.seats();
    if w.hands[k.me as usize] != k.hand {
        return false;
    }
    let mut all = w.out;
    for s in 0..n {
        if s != k.me as usize {
            let h = w.hands[s];
            if h.len() != k.sizes[s] as u32 || !k.known[s].is_subset(h) || !h.intersect(k.cant[s]).is_empty()
            {
                return false;
            }
        }
        if !(all.intersect(w.hands[s])).is_empty() {
            return false;
        }
        all |= w.hands[s];
    }
    let mut expect = k.unseen | k.hand;
    for kn in k.known.iter() {
        expect |= *kn;
    }
    all == expect && w.out.len() == k.out as u32
}
