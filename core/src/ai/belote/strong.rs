//! The `strong` Belote player: perfect-information Monte Carlo. For each decision it draws
//! worlds consistent with its view (`sample`), solves each one double dummy (`dd`), turns the
//! result into the deal's score for its side (its deltas minus the other side's, by the
//! variant's own scoring with the world's combinations), and picks the action with the best
//! mean. A contract's result is found by a few null-window probes around the points the
//! declaring side needs (made or not, and by how much) rather than by exact card points.
//! Bids are decided by playing each candidate contract out the same way. It stops at its world
//! limit or when the caller's budget says so; with no world solved it plays like `basic`.

use crate::ai::pool::{Pool, Pooled};
use rand::RngCore;

use super::basic;
use super::dd::{index, Goal, Position, Rules, Solver};
use super::sample::{sample_world, Knowledge, World};
use crate::ai::{Budget, Level, Player};
use crate::cards::{Card, CardSet, Suit};
use crate::game::Seat;
use crate::games::belote::combos::{self, Declared};
use crate::games::belote::play::Tables;
use crate::games::belote::{bazar, classic, coinche};
use crate::games::belote::{Action, Bid, Contract, Mode, Options, Phase, SeatView, Variant};

/// What a bid's simulated mean must beat passing by, per unit of the variant's score
/// (tens in Bazar and head-to-head, points in classic and Coinche): double-dummy play
/// flatters the declarer, who in real play does not see the other hands.
fn bid_margin(v: Variant) -> f64 {
    match v {
        Variant::Bazar | Variant::HeadToHead => 3.0,
        Variant::Classic | Variant::Coinche => 30.0,
    }
}

/// Card points in play with the last trick: 162, but in head-to-head only the cards dealt
/// to the two players count.
pub fn total_points(hands: &[CardSet; 4], mode: Mode) -> i32 {
    let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
    Tables::new(mode).set_points(all) as i32 + 10
}

/// The deltas of a finished deal by the variant's scoring: `decl_points` is the declaring
/// side's card points with the last trick, out of `total`.
fn deltas(
    v: Variant,
    opts: &Options,
    c: &Contract,
    decl_points: i32,
    capot: bool,
    d: &Declared,
    total: i32,
) -> [i32; 2] {
    let b = v.team(c.declarer) as usize;
    let mut points = [0u32; 2];
    let capot_team = capot.then_some(b as u8);
    if capot {
        points[b] = 250;
    } else {
        let t = decl_points.clamp(0, total);
        points[b] = t as u32;
        points[1 - b] = (total - t) as u32;
    }
    match v {
        Variant::Bazar => bazar::score(c, v, points, capot_team, d, opts.bazar_rounding),
        Variant::Coinche => coinche::score(c, points, capot_team, d),
        Variant::Classic | Variant::HeadToHead => {
            classic::score(c, v, points, capot_team, d, opts.bazar_rounding)
        }
    }
}

/// Whether the declaring side makes the contract with `t` card points.
fn made(v: Variant, opts: &Options, c: &Contract, t: i32, d: &Declared, total: i32) -> bool {
    let b = v.team(c.declarer) as usize;
    let own = t + d.total(b) as i32;
    match v {
        Variant::Bazar => opts.bazar_rounding.tens(own.max(0) as u32) >= c.tens as u32,
        Variant::Coinche => own >= c.tens as i32 * 10,
        Variant::Classic | Variant::HeadToHead => own > (total - t) + d.total(1 - b) as i32,
    }
}

/// The fewest card points (with the last trick, out of `total`) that make contract `c` with
/// the counted combinations `d`; more than `total` when nothing does.
pub fn need_points(v: Variant, opts: &Options, c: &Contract, d: &Declared, total: i32) -> i32 {
    (0..=total)
        .find(|&x| made(v, opts, c, x, d, total))
        .unwrap_or(total + 1)
}

/// What the solver maximises for a contract: the declaring side's tricks for a capot bid,
/// else its card points.
fn goal(v: Variant, c: &Contract) -> Goal {
    if c.capot {
        Goal::tricks(v.team(c.declarer))
    } else {
        Goal::points(v.team(c.declarer))
    }
}

/// My side's deltas minus the other side's.
fn mine(v: Variant, me: Seat, d: [i32; 2]) -> f64 {
    let t = v.team(me) as usize;
    (d[t] - d[1 - t]) as f64
}

/// The combinations that count, from every seat's hand at the start of the play.
pub fn declared_of(v: Variant, dealer: Seat, hands: &[CardSet; 4], mode: Mode) -> Declared {
    let n = v.seats();
    let mut order = [0u8; 4];
    let mut s = v.next(dealer);
    for o in order.iter_mut().take(n) {
        *o = s;
        s = v.next(s);
    }
    let found: Vec<_> = hands[..n].iter().map(|&h| combos::find(h)).collect();
    combos::compare(&found, &hands[..n], &order[..n], |s| v.team(s), mode)
}

/// The strong player. `max_worlds` caps the worlds per decision when the budget allows more.
pub struct Strong {
    solver: Pooled<Solver>,
    pub max_worlds: usize,
}

/// Solvers lent to strong players: the host builds a player per move.
static SOLVERS: Pool<Solver> = Pool::new();

impl Default for Strong {
    fn default() -> Self {
        Strong::new()
    }
}

/// A contract to play out double dummy in one world, from a position.
struct Trial<'a> {
    v: Variant,
    opts: &'a Options,
    contract: Contract,
    declared: Declared,
    /// The declaring side's card points so far, and whether the other side took a trick.
    base: i32,
    /// Card points in play with the last trick (162 but in head-to-head).
    total: i32,
    opps_took: bool,
}

impl Strong {
    pub fn new() -> Strong {
        Strong {
            solver: SOLVERS.take(Solver::new),
            max_worlds: 200,
        }
    }

    /// The deltas of the trial's contract if the rest goes double dummy from `pos` (the
    /// solver already reset for its rules and `goal`).
    fn result(&mut self, t: &Trial, pos: &Position, budget: &dyn Budget) -> [i32; 2] {
        let c = &t.contract;
        let v = t.v;
        let rem = self.solver.upper_bound(pos);
        if c.capot {
            // The solver counts tricks here (`goal`): every trick left, and none lost so far.
            let all = !t.opps_took && self.solver.at_least_within(pos, rem, budget);
            let pts = if all { t.total } else { t.total / 2 };
            return deltas(v, t.opts, c, pts, all, &t.declared, t.total);
        }
        let need = need_points(v, t.opts, c, &t.declared, t.total);
        let reach = |s: &mut Solver, total: i32| {
            let want = total - t.base;
            want <= 0 || (want <= rem && s.at_least_within(pos, want, budget))
        };
        let pts = if need > t.total {
            t.base + rem / 2
        } else if reach(&mut self.solver, need) {
            if reach(&mut self.solver, need + 20) {
                if !t.opps_took && reach(&mut self.solver, t.base + rem) {
                    return deltas(v, t.opts, c, t.total, true, &t.declared, t.total);
                }
                need + 28
            } else {
                need + 8
            }
        } else if reach(&mut self.solver, need - 20) {
            need - 9
        } else {
            need - 32
        };
        deltas(
            v,
            t.opts,
            c,
            pts.clamp(t.base, t.total),
            false,
            &t.declared,
            t.total,
        )
    }

    fn play(&mut self, v: &SeatView, opts: &Options, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let hint = basic::choose_play(v);
        let plays: CardSet = v
            .legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(c) => Some(*c),
                _ => None,
            })
            .collect();
        let Some(c) = v.contract else {
            return Action::Play(hint);
        };
        if plays.len() <= 1 {
            return Action::Play(hint);
        }
        let var = v.variant;
        let n = var.seats();
        let know = Knowledge::from_view(v, opts);
        let rules = Rules::new(c.mode, n, opts.must_undertrump);
        let tables = Tables::new(c.mode);
        let dteam = var.team(c.declarer);
        let mut base = 0;
        let mut opps_took = false;
        for t in &v.tricks {
            if var.team(t.winner) == dteam {
                base += tables.set_points(t.cards[..t.len as usize].iter().copied().collect()) as i32;
            } else {
                opps_took = true;
            }
        }
        let mut sums = [0f64; 32];
        let mut worlds = 0;
        while worlds < self.max_worlds && !budget.expired() {
            let Some(w) = sample_world(v, &know, rng) else {
                break;
            };
            let mut start = w.hands;
            for (s, h) in start.iter_mut().enumerate().take(n) {
                *h |= know.played[s];
            }
            let declared = v
                .declared
                .unwrap_or_else(|| declared_of(var, v.dealer, &start, c.mode));
            let total = total_points(&start, c.mode);
            let pos = position(v, &w, &rules);
            self.solver.reset(&rules, goal(var, &c));
            let mut world = [0f64; 32];
            for card in plays.iter() {
                let code = rules.code(card);
                let mut next = pos;
                let mut t = Trial {
                    v: var,
                    opts,
                    contract: c,
                    declared,
                    base,
                    total,
                    opps_took,
                };
                if let Some((winner, cards)) = next.play(&rules, code) {
                    if winner % 2 == dteam as usize {
                        t.base +=
                            Goal::points(dteam).trick_value(&rules, &cards[..n], winner, next.is_over());
                    } else {
                        t.opps_took = true;
                    }
                }
                let d = if next.is_over() {
                    let capot = !t.opps_took;
                    deltas(var, opts, &c, t.base, capot, &declared, t.total)
                } else {
                    self.result(&t, &next, budget)
                };
                world[code as usize] = mine(var, v.seat, d);
            }
            // A world cut short by the budget is dropped, not counted half-solved.
            if self.solver.aborted() {
                break;
            }
            for (s, x) in sums.iter_mut().zip(world) {
                *s += x;
            }
            worlds += 1;
        }
        if worlds == 0 {
            return Action::Play(hint);
        }
        // Ties go to the rules-of-thumb card, so equal results still play sensibly.
        let mut best = (sums[rules.code(hint) as usize], hint);
        for card in plays.iter() {
            let s = sums[rules.code(card) as usize];
            if s > best.0 + 1e-9 {
                best = (s, card);
            }
        }
        Action::Play(best.1)
    }

    /// My side's score if `contract` is played double dummy in world `w` (hands at the start
    /// of the play).
    fn simulate(
        &mut self,
        v: &SeatView,
        opts: &Options,
        hands: &[CardSet; 4],
        contract: Contract,
        budget: &dyn Budget,
    ) -> f64 {
        let var = v.variant;
        let n = var.seats();
        let rules = Rules::new(contract.mode, n, opts.must_undertrump);
        let mut bits = [0u32; 4];
        for s in 0..n as Seat {
            bits[index(var, s)] = rules.bits(hands[s as usize]);
        }
        let pos = Position {
            hands: bits,
            leader: index(var, var.next(v.dealer)) as u8,
            trick: [0; 4],
            n_trick: 0,
        };
        let declared = declared_of(var, v.dealer, hands, contract.mode);
        self.solver.reset(&rules, goal(var, &contract));
        let t = Trial {
            v: var,
            opts,
            contract,
            declared,
            base: 0,
            total: total_points(hands, contract.mode),
            opps_took: false,
        };
        let d = self.result(&t, &pos, budget);
        mine(var, v.seat, d)
    }

    fn bid(&mut self, v: &SeatView, opts: &Options, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let fallback = basic::choose_bid(v);
        let var = v.variant;
        let allowed = |b: Bid| v.legal.contains(&Action::Bid(b));
        let me = v.seat;
        let contract = |mode: Mode, tens: u8, declarer: Seat, doubled: u8, capot: bool| Contract {
            mode,
            tens,
            capot,
            declarer,
            doubled,
        };
        // The candidates and the contract each leads to (None: nothing is played, 0).
        let mut cands: Vec<(Bid, Option<Contract>)> = Vec::new();
        match var {
            Variant::Classic | Variant::HeadToHead => {
                cands.push((Bid::Pass, None));
                let turned = v.turned.map(CardSet::single).unwrap_or_default();
                if allowed(Bid::Take) {
                    let s = v.turned.map(basic::suit_of).unwrap_or(Suit::Clubs);
                    cands.push((Bid::Take, Some(contract(Mode::Trump(s), 0, me, 0, false))));
                } else {
                    let mut suits: Vec<Suit> =
                        Suit::ALL.into_iter().filter(|&s| allowed(Bid::Name(s))).collect();
                    suits.sort_by_key(|&s| {
                        std::cmp::Reverse(basic::hand_value(v.hand | turned, Mode::Trump(s)))
                    });
                    for s in suits.into_iter().take(2) {
                        cands.push((Bid::Name(s), Some(contract(Mode::Trump(s), 0, me, 0, false))));
                    }
                }
            }
            Variant::Bazar | Variant::Coinche => {
                let coinche = var == Variant::Coinche;
                let pass_contract = v.high_bid.map(|(t, m, cap, s)| contract(m, t, s, v.doubled, cap));
                cands.push((Bid::Pass, pass_contract));
                if let Some(pc) = pass_contract {
                    for (b, k) in [
                        (Bid::Contra, 1),
                        (Bid::Coinche, 1),
                        (Bid::Recontra, 2),
                        (Bid::Surcoinche, 2),
                    ] {
                        if allowed(b) {
                            cands.push((b, Some(Contract { doubled: k, ..pc })));
                        }
                    }
                }
                let modes: &[Mode] = if coinche {
                    &basic::MODES
                } else {
                    &basic::MODES[..5]
                };
                let mut ranked: Vec<Mode> = modes.to_vec();
                ranked.sort_by_key(|&m| std::cmp::Reverse(basic::hand_value(v.hand, m)));
                let from = v.high_bid.map_or(bazar::MIN_TENS, |h| h.0 + 1);
                for m in ranked.into_iter().take(2) {
                    for tens in [from, from + 1, from + 2] {
                        let b = if coinche {
                            Bid::Points { tens, mode: m }
                        } else {
                            Bid::Tens {
                                tens,
                                mode: m,
                                capot: false,
                            }
                        };
                        if allowed(b) {
                            cands.push((b, Some(contract(m, tens, me, 0, false))));
                        }
                    }
                }
            }
        }
        if cands.len() <= 1 {
            return Action::Bid(fallback);
        }
        let know = Knowledge::from_view(v, opts);
        let mut sums = vec![0f64; cands.len()];
        let mut worlds = 0;
        let max = self.max_worlds.min(60);
        while worlds < max && !budget.expired() {
            let Some(w) = sample_world(v, &know, rng) else {
                break;
            };
            let mut world = vec![0f64; cands.len()];
            let mut cut = false;
            for (i, &(_, c)) in cands.iter().enumerate() {
                let Some(c) = c else { continue };
                let hands = complete(v, &w, c.declarer, rng);
                world[i] = self.simulate(v, opts, &hands, c, budget);
                cut |= self.solver.aborted();
            }
            if cut {
                break;
            }
            for (s, x) in sums.iter_mut().zip(world) {
                *s += x;
            }
            worlds += 1;
        }
        if worlds == 0 {
            return Action::Bid(fallback);
        }
        let margin = bid_margin(var);
        let mut best = (sums[0] / worlds as f64, cands[0].0);
        for (i, &(b, c)) in cands.iter().enumerate().skip(1) {
            // Taking a contract (or doubling) must clear the margin over passing.
            let _ = c;
            let mean = sums[i] / worlds as f64 - margin;
            if mean > best.0 {
                best = (mean, b);
            }
        }
        Action::Bid(best.1)
    }
}

/// The hands at the start of the play in world `w`: in the take/pass variants, the taker gets
/// the turned card and 2 cards of the stock, the others 3 (the stock is unseen, so any of its
/// cards will do).
fn complete(v: &SeatView, w: &World, taker: Seat, rng: &mut dyn RngCore) -> [CardSet; 4] {
    let mut hands = w.hands;
    if !v.variant.has_turned_card() {
        return hands;
    }
    let mut stock: arrayvec::ArrayVec<Card, 32> = w.out.iter().collect();
    rand::seq::SliceRandom::shuffle(&mut stock[..], rng);
    let mut it = stock.into_iter();
    for (s, h) in hands.iter_mut().enumerate().take(v.variant.seats()) {
        let k = if s == taker as usize { 2 } else { 3 };
        for c in it.by_ref().take(k) {
            h.insert(c);
        }
    }
    if let Some(t) = v.turned {
        hands[taker as usize].insert(t);
    }
    hands
}

/// The play position of world `w` as the view shows the table.
pub fn position(v: &SeatView, w: &World, rules: &Rules) -> Position {
    let var = v.variant;
    let mut hands = [0u32; 4];
    for s in 0..var.seats() as Seat {
        hands[index(var, s)] = rules.bits(w.hands[s as usize]);
    }
    let mut trick = [0u8; 4];
    for (i, &(_, c)) in v.trick.iter().enumerate() {
        trick[i] = rules.code(c);
    }
    let leader = v.trick.first().map_or(v.seat, |x| x.0);
    Position {
        hands,
        leader: index(var, leader) as u8,
        trick,
        n_trick: v.trick.len() as u8,
    }
}

/// A strong Belote player playing by `opts` (the table's rules: `must_undertrump`, rounding).
pub struct StrongPlayer {
    pub inner: Strong,
    pub opts: Options,
}

impl StrongPlayer {
    pub fn new(opts: Options) -> StrongPlayer {
        StrongPlayer {
            inner: Strong::new(),
            opts,
        }
    }
}

impl Player<SeatView, Action> for StrongPlayer {
    fn level(&self) -> Level {
        Level::Strong
    }
    fn choose(&mut self, v: &SeatView, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let opts = self.opts;
        match v.phase {
            Phase::Bidding => self.inner.bid(v, &opts, rng, budget),
            _ => self.inner.play(v, &opts, rng, budget),
        }
    }
}
