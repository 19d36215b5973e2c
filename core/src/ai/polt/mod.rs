//! Computer players for Polt to Tzar: `random`, `basic` (rules of thumb: give low cards from
//! short suits, name the longest strong suit, cash boss cards, win cheaply, discard low) and
//! `strong` (Monte Carlo over worlds consistent with the view: the unseen cards dealt to the
//! other seats and the unused pile respecting shown voids and the exchange cards the seat
//! knows, each candidate card played out with the rules of thumb for every seat, the card with
//! the most own tricks on average chosen). Every seat plays for itself: more tricks, higher
//! rank.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

use crate::ai::{Budget, Level, Player};
use crate::cards::{Card, CardSet, Suit, PACK_WITH_JOKER};
use crate::game::Seat;
use crate::games::polt::{hand_size, Action, Options, SeatView, Stage, TrumpOrder, MAX_SEATS};

/// A player to fill a Polt to Tzar seat at a table playing by `opts`.
pub fn player(level: Level, opts: Options) -> Box<dyn Player<SeatView, Action>> {
    match level {
        Level::Random => Box::new(RandomPlayer),
        Level::Basic => Box::new(Basic { opts }),
        Level::Strong => Box::new(Strong {
            opts,
            max_worlds: 300,
        }),
    }
}

/// Any legal action, uniformly at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl Player<SeatView, Action> for RandomPlayer {
    fn level(&self) -> Level {
        Level::Random
    }
    fn choose(&mut self, v: &SeatView, rng: &mut dyn RngCore, _budget: &dyn Budget) -> Action {
        v.legal[rng.random_range(0..v.legal.len())]
    }
}

/// Ordering key for "low" cards: plain before trump, then by strength.
fn low_key(o: TrumpOrder, c: Card) -> (bool, u8) {
    (o.suit_of(c) == o.trump, o.strength(c))
}

fn min_by_key<K: Ord>(set: CardSet, key: impl Fn(Card) -> K) -> Option<Card> {
    set.iter().min_by_key(|&c| key(c))
}

/// Would `c`, played by `seat` now, win the trick so far?
fn wins_now(o: TrumpOrder, trick: &[(Seat, Card)], seat: Seat, c: Card) -> bool {
    let mut t: arrayvec::ArrayVec<(Seat, Card), MAX_SEATS> = trick.iter().copied().collect();
    t.push((seat, c));
    o.winner(&t) == t.len() - 1
}

/// No card in `live` of `c`'s play suit ranks above it.
fn is_boss(o: TrumpOrder, c: Card, live: CardSet) -> bool {
    let s = o.suit_of(c);
    (live & o.cards_of(s))
        .iter()
        .all(|x| o.strength(x) < o.strength(c))
}

/// The rules-of-thumb card: `live` are the cards that may be in the hands of the seats still
/// to play, `after` how many seats play after me in this trick.
pub fn choose_card(
    o: TrumpOrder,
    hand: CardSet,
    trick: &[(Seat, Card)],
    seat: Seat,
    live: CardSet,
    after: usize,
) -> Card {
    let legal = o.playable(hand, trick.first().map(|&(_, c)| c));
    let fallback = legal.first().unwrap_or(Card::JOKER);
    if trick.is_empty() {
        // Cash a boss card, trumps first while trumps are out; else lead low from the
        // longest plain suit.
        let live_trumps = live & o.cards_of(o.trump);
        let bosses: CardSet = legal.iter().filter(|&c| is_boss(o, c, live)).collect();
        let trump_boss = bosses & o.cards_of(o.trump);
        if !trump_boss.is_empty() && !live_trumps.is_empty() {
            return min_by_key(trump_boss, |c| o.strength(c)).unwrap_or(fallback);
        }
        let plain_boss = bosses.minus(o.cards_of(o.trump));
        if !plain_boss.is_empty() {
            return min_by_key(plain_boss, |c| o.strength(c)).unwrap_or(fallback);
        }
        let longest = Suit::ALL
            .into_iter()
            .filter(|&s| s != o.trump)
            .max_by_key(|&s| (legal & o.cards_of(s)).len())
            .map(|s| legal & o.cards_of(s))
            .filter(|s| !s.is_empty())
            .unwrap_or(legal);
        return min_by_key(longest, |c| low_key(o, c)).unwrap_or(fallback);
    }
    let winners: CardSet = legal.iter().filter(|&c| wins_now(o, trick, seat, c)).collect();
    if !winners.is_empty() {
        if after == 0 {
            return min_by_key(winners, |c| low_key(o, c)).unwrap_or(fallback);
        }
        let secure: CardSet = winners.iter().filter(|&c| is_boss(o, c, live)).collect();
        if let Some(c) = min_by_key(secure, |c| low_key(o, c)) {
            return c;
        }
        // A plain-suit trick taken with a trump is likely to hold.
        let led = o.suit_of(trick[0].1);
        let trumps = winners & o.cards_of(o.trump);
        if led != o.trump && !trumps.is_empty() {
            return min_by_key(trumps, |c| o.strength(c)).unwrap_or(fallback);
        }
    }
    min_by_key(legal, |c| low_key(o, c)).unwrap_or(fallback)
}

/// The suit the Tzar names: most cards, weighted by rank.
pub fn choose_trump(hand: CardSet) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| {
            hand.iter()
                .filter(|c| c.suit() == Some(s))
                .map(|c| 4 + c.rank().map(|r| r as i32).unwrap_or(0) / 3)
                .sum::<i32>()
        })
        .unwrap_or(Suit::Spades)
}

/// The card to give: the lowest card of the shortest suit (the receiver hands back his
/// highest of that suit, which is at least as high), never the joker.
pub fn choose_give(hand: CardSet) -> Card {
    let suited = hand.minus(CardSet::single(Card::JOKER));
    let len = |c: Card| hand.iter().filter(|x| x.suit() == c.suit()).count();
    min_by_key(suited, |c| (len(c), c.rank())).unwrap_or(Card::JOKER)
}

/// Where a seat sits in the play order of the view's ranks: the seats after `seat` to the
/// end of the trick that began with `leader`.
fn after_in_trick(v: &SeatView) -> usize {
    v.ranks.len() - v.trick.len() - 1
}

fn order_of(v: &SeatView, opts: &Options) -> TrumpOrder {
    TrumpOrder::new(v.trump.unwrap_or(Suit::Clubs), opts.bowers)
}

/// Cards this seat has seen played.
fn played(v: &SeatView) -> CardSet {
    let mut s: CardSet = v.trick.iter().map(|&(_, c)| c).collect();
    for t in &v.tricks {
        s |= t.cards.iter().map(|&(_, c)| c).collect();
    }
    s
}

fn basic_choice(v: &SeatView, opts: &Options) -> Action {
    let first = v.legal[0];
    match first {
        Action::Give(_) => Action::Give(choose_give(v.hand)),
        Action::Return(_) => {
            // For the joker, keep the longest suit intact.
            let len = |c: Card| v.hand.iter().filter(|x| x.suit() == c.suit()).count();
            v.legal
                .iter()
                .copied()
                .min_by_key(|a| match a {
                    Action::Return(c) => len(*c),
                    _ => usize::MAX,
                })
                .unwrap_or(first)
        }
        Action::Trump(_) => Action::Trump(choose_trump(v.hand)),
        Action::Play(_) => {
            let live = PACK_WITH_JOKER.minus(v.hand).minus(played(v));
            Action::Play(choose_card(
                order_of(v, opts),
                v.hand,
                &v.trick,
                v.seat,
                live,
                after_in_trick(v),
            ))
        }
    }
}

/// The rules-of-thumb player.
#[derive(Clone, Copy, Debug)]
pub struct Basic {
    pub opts: Options,
}

impl Player<SeatView, Action> for Basic {
    fn level(&self) -> Level {
        Level::Basic
    }
    fn choose(&mut self, v: &SeatView, _rng: &mut dyn RngCore, _budget: &dyn Budget) -> Action {
        basic_choice(v, &self.opts)
    }
}

/// What a seat knows about where the cards it cannot see are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Cards whose holder I do not know (other hands or the unused pile).
    pub unseen: CardSet,
    /// Cards I know another seat holds (from the exchange), by seat.
    pub pinned: [CardSet; MAX_SEATS],
    /// Cards each seat holds now.
    pub sizes: [u8; MAX_SEATS],
    /// Play suits each seat has shown it lacks (bit = suit index).
    pub void: [u8; MAX_SEATS],
    pub unused: u8,
}

impl Knowledge {
    pub fn from_view(v: &SeatView, opts: &Options) -> Knowledge {
        let n = v.ranks.len();
        let size = hand_size(n).unwrap_or(0) as u8;
        let o = order_of(v, opts);
        let gone = played(v);
        // Follow each exchange card I saw to where it went last.
        let mut whereabouts: arrayvec::ArrayVec<(Card, Seat), 6> = arrayvec::ArrayVec::new();
        let mut put = |c: Card, s: Seat| {
            whereabouts.retain(|x| x.0 != c);
            whereabouts.push((c, s));
        };
        for e in &v.exchange {
            if let Some(g) = e.given {
                put(g, e.receiver);
            }
            if let Some(r) = e.returned {
                put(r, e.giver);
            }
        }
        let mut pinned = [CardSet::EMPTY; MAX_SEATS];
        for (c, s) in whereabouts {
            if s != v.seat {
                pinned[s as usize].insert(c);
            }
        }
        let mut sizes = [0u8; MAX_SEATS];
        let mut void = [0u8; MAX_SEATS];
        let mut count = |cards: &[(Seat, Card)]| {
            if let Some(&(_, led)) = cards.first() {
                let ls = o.suit_of(led);
                for &(s, c) in cards {
                    sizes[s as usize] += 1;
                    if o.suit_of(c) != ls {
                        void[s as usize] |= 1 << ls as u8;
                    }
                }
            }
        };
        for t in &v.tricks {
            count(&t.cards);
        }
        count(&v.trick);
        for s in 0..n {
            sizes[s] = size - sizes[s];
            pinned[s] = pinned[s].minus(gone).minus(v.hand);
        }
        sizes[v.seat as usize] = v.hand.len() as u8;
        let mut known = v.hand | gone;
        for p in pinned {
            known |= p;
        }
        let unseen = PACK_WITH_JOKER.minus(known);
        let unused = (PACK_WITH_JOKER.len() as usize - n * size as usize) as u8;
        Knowledge {
            unseen,
            pinned,
            sizes,
            void,
            unused,
        }
    }
}

/// Deals the unseen cards to the other seats and the unused pile, respecting sizes, pinned
/// cards and voids: random deals of the most constrained cards first, retried, then a
/// depth-first search, which finds a consistent deal whenever one exists (the real deal is
/// one). Returns every seat's hand.
pub fn sample(v: &SeatView, k: &Knowledge, o: TrumpOrder, rng: &mut dyn RngCore) -> [CardSet; MAX_SEATS] {
    let n = v.ranks.len();
    let mut base = k.pinned;
    base[v.seat as usize] = v.hand;
    let mut need = [0usize; MAX_SEATS + 1];
    for s in 0..n {
        need[s] = (k.sizes[s] as usize).saturating_sub(base[s].len() as usize);
    }
    need[v.seat as usize] = 0;
    // The unused pile is bucket `n`, and takes any card.
    need[n] = k.unused as usize;
    let allowed = |c: Card, b: usize| b == n || k.void[b] >> o.suit_of(c) as u8 & 1 == 0;
    let mut cards: Vec<Card> = k.unseen.iter().collect();
    let options = |c: Card| (0..=n).filter(|&b| need[b] > 0 && allowed(c, b)).count();
    for _ in 0..20 {
        cards.shuffle(rng);
        cards.sort_by_key(|&c| options(c));
        let mut hands = base;
        let mut left = need;
        let mut ok = true;
        for &c in &cards {
            let total: usize = (0..=n).filter(|&b| allowed(c, b)).map(|b| left[b]).sum();
            if total == 0 {
                ok = false;
                break;
            }
            // A bucket in proportion to the room it has left.
            let mut r = rng.random_range(0..total);
            for b in 0..=n {
                if !allowed(c, b) {
                    continue;
                }
                if r < left[b] {
                    left[b] -= 1;
                    if b < n {
                        hands[b].insert(c);
                    }
                    break;
                }
                r -= left[b];
            }
        }
        if ok {
            return hands;
        }
    }
    let mut hands = base;
    let mut left = need;
    cards.sort_by_key(|&c| options(c));
    if !place(&cards, &mut hands, &mut left, n, &allowed) {
        debug_assert!(false, "no world fits the view");
    }
    hands
}

fn place(
    cards: &[Card],
    hands: &mut [CardSet; MAX_SEATS],
    left: &mut [usize; MAX_SEATS + 1],
    n: usize,
    allowed: &impl Fn(Card, usize) -> bool,
) -> bool {
    let Some((&c, rest)) = cards.split_first() else {
        return true;
    };
    for b in 0..=n {
        if left[b] == 0 || !allowed(c, b) {
            continue;
        }
        left[b] -= 1;
        if b < n {
            hands[b].insert(c);
        }
        if place(rest, hands, left, n, allowed) {
            return true;
        }
        left[b] += 1;
        if b < n {
            hands[b].remove(c);
        }
    }
    false
}

/// Plays the rest of the hand with the rules of thumb for every seat, everybody seeing the
/// world's cards as "live", after `me` plays `first`. Returns the tricks `me` takes from here.
fn rollout(v: &SeatView, o: TrumpOrder, mut hands: [CardSet; MAX_SEATS], first: Card) -> u32 {
    let n = v.ranks.len();
    let rank_of = |s: Seat| v.ranks.iter().position(|&x| x == s).unwrap_or(0);
    let mut trick: arrayvec::ArrayVec<(Seat, Card), MAX_SEATS> = v.trick.iter().copied().collect();
    let mut seat = v.seat;
    let mut card = first;
    let mut mine = 0;
    loop {
        hands[seat as usize].remove(card);
        trick.push((seat, card));
        let next = if trick.len() == n {
            let w = trick[o.winner(&trick)].0;
            if w == v.seat {
                mine += 1;
            }
            trick.clear();
            w
        } else {
            v.ranks[(rank_of(seat) + 1) % n]
        };
        if hands[next as usize].is_empty() {
            return mine;
        }
        seat = next;
        let mut live = CardSet::EMPTY;
        for (s, h) in hands.iter().enumerate().take(n) {
            if s != seat as usize {
                live |= *h;
            }
        }
        card = choose_card(o, hands[seat as usize], &trick, seat, live, n - trick.len() - 1);
    }
}

/// The Monte Carlo player.
#[derive(Clone, Copy, Debug)]
pub struct Strong {
    pub opts: Options,
    pub max_worlds: usize,
}

impl Player<SeatView, Action> for Strong {
    fn level(&self) -> Level {
        Level::Strong
    }
    fn choose(&mut self, v: &SeatView, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        if v.stage != Stage::Play || v.legal.len() == 1 {
            return basic_choice(v, &self.opts);
        }
        let o = order_of(v, &self.opts);
        let k = Knowledge::from_view(v, &self.opts);
        let mut sums = [0u32; 16];
        let mut worlds = 0;
        while worlds < self.max_worlds && !(worlds >= 1 && budget.expired()) {
            let hands = sample(v, &k, o, rng);
            for (i, a) in v.legal.iter().enumerate() {
                if let Action::Play(c) = *a {
                    sums[i] += rollout(v, o, hands, c);
                }
            }
            worlds += 1;
        }
        let hint = basic_choice(v, &self.opts);
        let mut best = (
            v.legal
                .iter()
                .position(|&a| a == hint)
                .map(|i| sums[i])
                .unwrap_or(0),
            hint,
        );
        for (i, &a) in v.legal.iter().enumerate() {
            if sums[i] > best.0 {
                best = (sums[i], a);
            }
        }
        best.1
    }
}
