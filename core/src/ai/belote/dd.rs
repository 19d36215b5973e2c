//! The double-dummy solver for Belote play (every variant: 4 seats in two teams or head to
//! head, a trump suit, no trump or all trumps, `must_undertrump`): every hand open,
//! alpha-beta over the remaining cards with a transposition table at trick starts, move
//! ordering, and pruning of equivalent cards (neighbours in power with equal points).
//!
//! Cards are recoded per mode to 32 bits, `suit * 8 + power` (power 0..8 in the mode's order
//! of that suit), so "higher in the suit" and "neighbour" are bit tricks. Seats are recoded to
//! play-order indices (`index`), so the next seat is always `+ 1` and team is `index % 2` in
//! every variant (Coinche plays counter-clockwise).

use arrayvec::ArrayVec;

use crate::ai::{Budget, NoLimit};
use crate::cards::{Card, CardSet, PIQUET_PACK};
use crate::game::Seat;
use crate::games::belote::play::Tables;
use crate::games::belote::{Deal, Mode, Variant};
use crate::Game;

/// A set of cards in solver code: bit `i` is code `i`.
pub type Bits = u32;

/// The codes of one suit.
#[inline]
pub const fn suit_mask(s: u8) -> Bits {
    0xFF << (8 * s)
}

/// The codes of `c`'s suit ranking above it.
#[inline]
fn above(c: u8) -> Bits {
    suit_mask(c >> 3) & ((!0u64 << (c + 1)) as Bits)
}

/// The play-order index of a seat (and back: the map is its own inverse).
pub const fn index(v: Variant, s: Seat) -> usize {
    match v {
        Variant::Coinche => (4 - s as usize) % 4,
        _ => s as usize,
    }
}

/// The trick rules and card codes of one deal's mode.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub mode: Mode,
    /// Trump suit index (0..4), for a suit contract.
    pub trump: Option<u8>,
    pub all_trumps: bool,
    pub must_undertrump: bool,
    pub seats: u8,
    enc: [u8; Card::COUNT],
    dec: [Card; 32],
    pts: [u8; 32],
}

impl Rules {
    pub fn new(mode: Mode, seats: usize, must_undertrump: bool) -> Rules {
        let t = Tables::new(mode);
        let mut enc = [255u8; Card::COUNT];
        let mut dec = [Card::JOKER; 32];
        let mut pts = [0u8; 32];
        for c in PIQUET_PACK.iter() {
            let code = (c.index() / 13) * 8 + t.order(c);
            enc[c.index() as usize] = code;
            dec[code as usize] = c;
            pts[code as usize] = t.points(c) as u8;
        }
        Rules {
            mode,
            trump: mode.trump_suit().map(|s| s as u8),
            all_trumps: mode == Mode::AllTrumps,
            must_undertrump,
            seats: seats as u8,
            enc,
            dec,
            pts,
        }
    }

    #[inline]
    pub fn code(&self, c: Card) -> u8 {
        self.enc[c.index() as usize]
    }
    #[inline]
    pub fn card(&self, code: u8) -> Card {
        self.dec[code as usize]
    }
    pub fn bits(&self, set: CardSet) -> Bits {
        set.iter().fold(0, |b, c| b | 1 << self.code(c))
    }
    pub fn set(&self, mut b: Bits) -> CardSet {
        let mut s = CardSet::EMPTY;
        while b != 0 {
            s.insert(self.card(b.trailing_zeros() as u8));
            b &= b - 1;
        }
        s
    }
    #[inline]
    pub fn pts(&self, c: u8) -> i32 {
        self.pts[c as usize] as i32
    }
    pub fn bits_points(&self, mut b: Bits) -> i32 {
        let mut p = 0;
        while b != 0 {
            p += self.pts[b.trailing_zeros() as usize] as i32;
            b &= b - 1;
        }
        p
    }

    #[inline]
    fn is_trump(&self, c: u8) -> bool {
        self.all_trumps || self.trump == Some(c >> 3)
    }

    /// True if `a` takes the trick from `best`, the card winning it so far (of the led suit,
    /// or a trump).
    #[inline]
    pub fn beats(&self, a: u8, best: u8) -> bool {
        if a >> 3 == best >> 3 {
            a > best
        } else {
            !self.all_trumps && self.trump == Some(a >> 3)
        }
    }

    /// Index in `t` of the card winning the (partial) trick.
    #[inline]
    pub fn winner(&self, t: &[u8]) -> usize {
        let mut w = 0;
        for i in 1..t.len() {
            if self.beats(t[i], t[w]) {
                w = i;
            }
        }
        w
    }

    /// The cards of `hand` that may be played on the trick `t` (RULES.md 2.1).
    #[inline]
    pub fn legal(&self, hand: Bits, t: &[u8]) -> Bits {
        let Some(&first) = t.first() else {
            return hand;
        };
        let led = first >> 3;
        let w = self.winner(t);
        let best = t[w];
        let led_cards = hand & suit_mask(led);
        if self.all_trumps {
            if led_cards == 0 {
                return hand;
            }
            let higher = led_cards & above(best);
            return if higher != 0 { higher } else { led_cards };
        }
        let Some(tr) = self.trump else {
            return if led_cards != 0 { led_cards } else { hand };
        };
        let trumps = hand & suit_mask(tr);
        if led == tr {
            if trumps == 0 {
                return hand;
            }
            let higher = trumps & above(best);
            return if higher != 0 { higher } else { trumps };
        }
        if led_cards != 0 {
            return led_cards;
        }
        // Partner (two places back) winning: any card.
        let partner_winning = self.seats == 4 && t.len() >= 2 && (t.len() - w).is_multiple_of(2);
        if partner_winning || trumps == 0 {
            return hand;
        }
        let higher = if best >> 3 == tr {
            trumps & above(best)
        } else {
            trumps
        };
        if higher != 0 {
            higher
        } else if self.must_undertrump {
            trumps
        } else {
            hand
        }
    }
}

/// A play position with every hand open, seats as play-order indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub hands: [Bits; 4],
    pub leader: u8,
    pub trick: [u8; 4],
    pub n_trick: u8,
}

impl Position {
    pub fn to_move(&self, r: &Rules) -> usize {
        (self.leader as usize + self.n_trick as usize) % r.seats as usize
    }
    pub fn legal(&self, r: &Rules) -> Bits {
        r.legal(self.hands[self.to_move(r)], &self.trick[..self.n_trick as usize])
    }
    pub fn is_over(&self) -> bool {
        self.n_trick == 0 && self.hands.iter().all(|&h| h == 0)
    }
    /// Plays `c` (a code) for the seat to move. Returns the winner and the trick's cards when
    /// it completes a trick.
    pub fn play(&mut self, r: &Rules, c: u8) -> Option<(usize, [u8; 4])> {
        let n = r.seats as usize;
        let p = self.to_move(r);
        self.hands[p] &= !(1 << c);
        self.trick[self.n_trick as usize] = c;
        self.n_trick += 1;
        if (self.n_trick as usize) < n {
            return None;
        }
        let w = (self.leader as usize + r.winner(&self.trick[..n])) % n;
        let t = self.trick;
        self.leader = w as u8;
        self.n_trick = 0;
        Some((w, t))
    }
}

/// What the play is about: the team `max_team` (0 or 1, play-order index parity) maximises
/// the sum, over the tricks it wins, of `per_point` times the card points (the last trick
/// 10 more) plus `per_trick`; the other team minimises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    pub max_team: u8,
    pub per_point: i32,
    pub per_trick: i32,
}

impl Goal {
    /// Card points (with the last trick) of a team.
    pub fn points(team: u8) -> Goal {
        Goal {
            max_team: team,
            per_point: 1,
            per_trick: 0,
        }
    }
    /// Tricks of a team (a capot contract asks whether it takes them all).
    pub fn tricks(team: u8) -> Goal {
        Goal {
            max_team: team,
            per_point: 0,
            per_trick: 1,
        }
    }
    /// A finished trick's worth to the maximising team.
    #[inline]
    pub fn trick_value(&self, r: &Rules, t: &[u8], winner: usize, last: bool) -> i32 {
        if winner % 2 != self.max_team as usize {
            return 0;
        }
        let p: i32 = t.iter().map(|&c| r.pts(c)).sum::<i32>() + if last { 10 } else { 0 };
        self.per_trick + self.per_point * p
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    gen: u32,
    lo: i16,
    hi: i16,
    /// The lead that was best (or refuted the window) last time: tried first next time.
    mv: u8,
}

const TT_BITS: u32 = 20;
const INF: i32 = 1 << 20;
const NO_MOVE: u8 = 255;

type Moves = ArrayVec<u8, 9>;

/// A reusable solver; `reset` before each new world, mode or goal.
pub struct Solver {
    tt: Box<[Entry]>,
    gen: u32,
    rules: Rules,
    goal: Goal,
    /// Nodes visited since creation (for benchmarks).
    pub nodes: u64,
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            tt: vec![Entry::default(); 1 << TT_BITS].into_boxed_slice(),
            gen: 0,
            rules: Rules::new(Mode::NoTrump, 4, false),
            goal: Goal::points(0),
            nodes: 0,
            aborted: false,
        }
    }

    /// Forgets every stored position (cheaply, by generation) and sets the rules and goal.
    pub fn reset(&mut self, rules: &Rules, goal: Goal) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.tt.fill(Entry::default());
            self.gen = 1;
        }
        self.rules = *rules;
        self.goal = goal;
        self.aborted = false;
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The value of the rest of the play from `pos` under best play by both sides (tricks
    /// already complete are not counted; the current trick is).
    pub fn value(&mut self, pos: &Position) -> i32 {
        self.value_within(pos, &NoLimit)
    }

    /// Like `value`, but gives up when `budget` runs out; then `aborted()` is true until the
    /// next `reset` and the result means nothing.
    pub fn value_within(&mut self, pos: &Position, budget: &dyn Budget) -> i32 {
        // A binary search of null-window probes: each probe only asks "at least `mid`?",
        // which prunes far more than one wide window, and the table keeps what earlier probes
        // learnt.
        let (mut lo, mut hi) = (0, self.upper_bound(pos));
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            let v = self.node(pos, mid - 1, mid, budget);
            if self.aborted {
                return lo;
            }
            if v >= mid {
                lo = v;
            } else {
                hi = v;
            }
        }
        lo
    }

    /// Whether the rest of the play from `pos` is worth at least `target` (one probe).
    pub fn at_least(&mut self, pos: &Position, target: i32) -> bool {
        self.at_least_within(pos, target, &NoLimit)
    }

    pub fn at_least_within(&mut self, pos: &Position, target: i32, budget: &dyn Budget) -> bool {
        if target <= 0 {
            return true;
        }
        self.node(pos, target - 1, target, budget) >= target
    }

    /// True if a search since the last `reset` was cut short by its budget.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The most the rest of the play from `pos` can be worth.
    pub fn upper_bound(&self, pos: &Position) -> i32 {
        if pos.is_over() {
            return 0;
        }
        let mut all = pos.hands.iter().fold(0, |a, &h| a | h);
        for &c in &pos.trick[..pos.n_trick as usize] {
            all |= 1 << c;
        }
        let tricks = all.count_ones().div_ceil(self.rules.seats as u32) as i32;
        self.goal.per_point * (self.rules.bits_points(all) + 10) + self.goal.per_trick * tricks
    }

    /// The exact value of each legal move from `pos` (code, value including the trick it
    /// completes).
    pub fn move_values(&mut self, pos: &Position) -> ArrayVec<(u8, i32), 9> {
        let mut out = ArrayVec::new();
        let r = self.rules;
        let mut moves = pos.legal(&r);
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let mut next = *pos;
            let v = match next.play(&r, c) {
                Some((w, t)) => {
                    self.goal
                        .trick_value(&r, &t[..r.seats as usize], w, next.is_over())
                        + self.value(&next)
                }
                None => self.value(&next),
            };
            out.push((c, v));
        }
        out
    }

    fn node(&mut self, pos: &Position, alpha: i32, beta: i32, b: &dyn Budget) -> i32 {
        if pos.is_over() {
            return 0;
        }
        if pos.n_trick == 0 {
            self.trick_start(pos.hands, pos.leader as usize, alpha, beta, b)
        } else {
            self.ply(
                pos.hands,
                pos.leader as usize,
                pos.trick,
                pos.n_trick as usize,
                alpha,
                beta,
                NO_MOVE,
                b,
            )
            .0
        }
    }

    fn trick_start(
        &mut self,
        hands: [Bits; 4],
        leader: usize,
        mut alpha: i32,
        mut beta: i32,
        b: &dyn Budget,
    ) -> i32 {
        let all = hands[0] | hands[1] | hands[2] | hands[3];
        if all == 0 || self.aborted {
            return 0;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(32) && b.expired() {
            self.aborted = true;
            return 0;
        }
        let r = self.rules;
        let n = r.seats as usize;
        let g = self.goal;
        if all.count_ones() as usize == n {
            // The last trick: one card each, no choice.
            let mut t = [0u8; 4];
            for (i, x) in t.iter_mut().enumerate().take(n) {
                *x = hands[(leader + i) % n].trailing_zeros() as u8;
            }
            let w = (leader + r.winner(&t[..n])) % n;
            return g.trick_value(&r, &t[..n], w, true);
        }
        let mut rem_max =
            g.per_point * (r.bits_points(all) + 10) + g.per_trick * (all.count_ones() as usize / n) as i32;
        let mut rem_min = 0;
        if let Some(tr) = r.trump {
            // The top live trumps held by one hand win their tricks whatever happens.
            let trumps = all & suit_mask(tr);
            if trumps != 0 {
                let top = 31 - trumps.leading_zeros();
                let holder = (0..n).find(|&i| hands[i] >> top & 1 == 1).unwrap_or(0);
                let h = hands[holder];
                // Live trumps from the top down, as long as the holder has them.
                let mut sure_bits: Bits = 0;
                let mut rest = trumps;
                while rest != 0 {
                    let b = 31 - rest.leading_zeros();
                    if h >> b & 1 == 0 {
                        break;
                    }
                    sure_bits |= 1 << b;
                    rest &= !(1 << b);
                }
                let sure = sure_bits.count_ones() as i32;
                let v = g.per_point * r.bits_points(sure_bits) + g.per_trick * sure;
                if holder % 2 == g.max_team as usize {
                    rem_min = v;
                } else {
                    rem_max -= v;
                }
            }
        }
        if rem_max <= alpha {
            return rem_max;
        }
        if rem_min >= beta {
            return rem_min;
        }
        if beta <= 0 {
            return 0;
        }
        let key = all as u64 | (leader as u64) << 32;
        let idx = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TT_BITS)) as usize;
        let (mut lo, mut hi) = (rem_min, rem_max);
        let e = self.tt[idx];
        let mut hint = NO_MOVE;
        if e.gen == self.gen && e.key == key {
            hint = e.mv;
            lo = e.lo as i32;
            hi = e.hi as i32;
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let (v, mv) = self.ply(hands, leader, [0; 4], 0, alpha, beta, hint, b);
        if self.aborted {
            return v;
        }
        if v <= alpha {
            hi = hi.min(v);
        } else if v >= beta {
            lo = lo.max(v);
        } else {
            lo = v;
            hi = v;
        }
        self.tt[idx] = Entry {
            key,
            gen: self.gen,
            lo: lo as i16,
            hi: hi as i16,
            mv,
        };
        v
    }

    #[allow(clippy::too_many_arguments)]
    fn ply(
        &mut self,
        hands: [Bits; 4],
        leader: usize,
        trick: [u8; 4],
        k: usize,
        mut alpha: i32,
        mut beta: i32,
        hint: u8,
        b: &dyn Budget,
    ) -> (i32, u8) {
        let r = self.rules;
        let n = r.seats as usize;
        let p = (leader + k) % n;
        let maxing = p % 2 == self.goal.max_team as usize;
        let mut moves = self.ordered_moves(&hands, leader, &trick, k);
        if let Some(i) = moves.iter().position(|&m| m == hint) {
            moves[..=i].rotate_right(1);
        }
        let mut best = if maxing { -INF } else { INF };
        let mut best_move = NO_MOVE;
        for c in moves {
            let mut h = hands;
            h[p] &= !(1 << c);
            let mut t = trick;
            t[k] = c;
            let v = if k + 1 < n {
                self.ply(h, leader, t, k + 1, alpha, beta, NO_MOVE, b).0
            } else {
                let w = (leader + r.winner(&t[..n])) % n;
                let last = h.iter().all(|&x| x == 0);
                let tv = self.goal.trick_value(&r, &t[..n], w, last);
                tv + self.trick_start(h, w, alpha - tv, beta - tv, b)
            };
            if (maxing && v > best) || (!maxing && v < best) {
                best = v;
                best_move = c;
            }
            if maxing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        (best, best_move)
    }

    /// The legal moves worth trying, best guesses first. Of cards that are neighbours in power
    /// among the live cards, in one hand, with equal points, only the highest is kept: they
    /// win and lose exactly the same tricks.
    fn ordered_moves(&self, hands: &[Bits; 4], leader: usize, trick: &[u8; 4], k: usize) -> Moves {
        let r = &self.rules;
        let n = r.seats as usize;
        let p = (leader + k) % n;
        let t = &trick[..k];
        let legal = r.legal(hands[p], t);
        let mut live = hands[0] | hands[1] | hands[2] | hands[3];
        for &c in t {
            live |= 1 << c;
        }
        let (best, friend) = if k > 0 {
            let w = r.winner(t);
            (Some(trick[w]), (leader + w) % 2 == p % 2)
        } else {
            (None, false)
        };
        let mut scored: ArrayVec<(i32, u8), 9> = ArrayVec::new();
        let mut m = legal;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let up = live & above(c);
            if up != 0 {
                let nb = up.trailing_zeros();
                if legal >> nb & 1 == 1 && r.pts[nb as usize] == r.pts[c as usize] {
                    continue;
                }
            }
            let pts = r.pts(c);
            let power = (c & 7) as i32;
            let score = match best {
                None => {
                    // Leading: masters first, then trumps high, then low plain cards.
                    let top = up == 0;
                    if top {
                        100 + pts + if r.is_trump(c) { 30 } else { 0 }
                    } else {
                        -pts - if r.is_trump(c) { 20 } else { 0 } - power
                    }
                }
                Some(bc) => {
                    let wins = r.beats(c, bc);
                    if friend {
                        if wins {
                            pts - 50
                        } else {
                            pts * 4
                        }
                    } else if wins {
                        200 + pts * 2 - power
                    } else {
                        -pts * 4 - power
                    }
                }
            };
            scored.push((score, c));
        }
        scored.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        scored.into_iter().map(|(_, c)| c).collect()
    }
}

/// The rules and play position of a real deal in play, every hand open. This peeks at hidden
/// cards: it is for tests, benchmarks and the arena's labelled reference, never for a player.
pub fn open_position(deal: &Deal) -> Option<(Rules, Position)> {
    let v = deal.variant();
    let c = deal.contract()?;
    let rules = Rules::new(c.mode, v.seats(), deal.options().must_undertrump);
    let to_act = deal.to_act()?;
    let view = deal.view(to_act);
    let mut hands = [0; 4];
    for s in 0..v.seats() as Seat {
        hands[index(v, s)] = rules.bits(deal.hand(s));
    }
    let leader = view.trick.first().map_or(to_act, |x| x.0);
    let mut trick = [0u8; 4];
    for (i, &(_, c)) in view.trick.iter().enumerate() {
        trick[i] = rules.code(c);
    }
    Some((
        rules,
        Position {
            hands,
            leader: index(v, leader) as u8,
            trick,
            n_trick: view.trick.len() as u8,
        },
    ))
}

/// Plain minimax over every legal card, no pruning at all: the reference the tests compare the
/// solver against on small endgames.
pub fn exhaustive(r: &Rules, pos: &Position, goal: &Goal) -> i32 {
    if pos.is_over() {
        return 0;
    }
    let p = pos.to_move(r);
    let maxing = p % 2 == goal.max_team as usize;
    let mut best = if maxing { -INF } else { INF };
    let mut m = pos.legal(r);
    while m != 0 {
        let c = m.trailing_zeros() as u8;
        m &= m - 1;
        let mut next = *pos;
        let v = match next.play(r, c) {
            Some((w, t)) => {
                goal.trick_value(r, &t[..r.seats as usize], w, next.is_over()) + exhaustive(r, &next, goal)
            }
            None => exhaustive(r, &next, goal),
        };
        best = if maxing { best.max(v) } else { best.min(v) };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::games::belote::Options;
    use crate::Seed;

    #[test]
    fn codes_agree_with_the_engine_tables() {
        for mode in [Mode::Trump(Suit::Hearts), Mode::NoTrump, Mode::AllTrumps] {
            let r = Rules::new(mode, 4, false);
            let t = Tables::new(mode);
            assert_eq!(r.bits(PIQUET_PACK), u32::MAX);
            assert_eq!(r.bits_points(u32::MAX), 152);
            for c in PIQUET_PACK.iter() {
                assert_eq!(r.card(r.code(c)), c);
            }
            // The trick winner agrees with the engine's on many tricks.
            let all: Vec<Card> = PIQUET_PACK.iter().collect();
            for i in 0..all.len() {
                for j in 0..all.len() {
                    if i == j {
                        continue;
                    }
                    let tr = [all[i], all[j], all[(i + 7) % 32], all[(j + 13) % 32]];
                    let codes = tr.map(|c| r.code(c));
                    if codes.iter().collect::<std::collections::HashSet<_>>().len() == 4 {
                        assert_eq!(t.winner(&tr), r.winner(&codes), "{mode} {tr:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn legal_cards_agree_with_the_engine_in_random_play() {
        for seed in 0..300u64 {
            let v = Variant::ALL[seed as usize % 4];
            let mut o = Options::default_for(v);
            o.must_undertrump = seed % 3 == 0;
            let mut d = Deal::shuffled(v, o, 0, Seed::from_u64(seed));
            let mut rng = Seed::from_u64(seed ^ 99).rng();
            while let Some(s) = d.to_act() {
                let legal = d.legal_actions();
                if let Some((r, pos)) = open_position(&d) {
                    let mine: CardSet = legal
                        .iter()
                        .filter_map(|a| match a {
                            crate::games::belote::Action::Play(c) => Some(*c),
                            _ => None,
                        })
                        .collect();
                    assert_eq!(r.set(pos.legal(&r)), mine, "seed {seed}");
                    assert_eq!(pos.to_move(&r), index(v, s));
                }
                let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                d.apply(s, a).unwrap();
            }
        }
    }
}
