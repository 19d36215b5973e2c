//! The `strong` Zole player: perfect-information Monte Carlo. For each decision it draws
//! worlds consistent with its view (`sample`), solves each one double dummy (`dd`), turns the
//! result into the deal's game points for its seat, and picks the action with the best mean.
//! Bids are decided by playing each candidate contract out the same way (a take with the
//! rules-of-thumb bury of that world's talon), the bury by solving the best-looking burials.
//! It stops at its world limit or when the caller's budget says so, whichever comes first.

use crate::ai::pool::{Pool, Pooled};
use rand::RngCore;

use super::basic;
use super::dd::{bits, bits_points, code, Goal, Position, Solver};
use super::sample::{sample_world, Knowledge, World};
use crate::ai::{Budget, Level, Player};
use crate::cards::{Card, CardSet};
use crate::games::zole::options::TAKE_UNITS;
use crate::games::zole::{Action, AllPass, Bands, Bid, Contract, Options, Phase, SeatView, Surrender};

/// Margins (in game points of the deal for the declarer) a bid's simulated mean must clear:
/// double-dummy play flatters the declarer, who in real play does not see the other hands.
const TAKE_MARGIN: f64 = 0.5;
const ZOLE_MARGIN: f64 = 2.0;
const SMALL_ZOLE_MARGIN: f64 = 2.0;

/// Game points of a take or zole for one seat, from the declarer's card points and whether
/// each side took a trick.
pub fn contract_delta(
    opts: &Options,
    contract: Contract,
    decl_pts: i32,
    decl_took: bool,
    opps_took: bool,
    players: usize,
    i_declare: bool,
) -> f64 {
    let units = if contract == Contract::Take {
        TAKE_UNITS
    } else {
        opts.zole_units
    };
    if opts.tie_at_60 && decl_pts == 60 {
        return 0.0;
    }
    let won = decl_pts >= 61;
    let band = match (opts.bands, won) {
        (Bands::Tricks, true) if !opps_took => 2,
        (Bands::Tricks, true) if decl_pts >= 91 => 1,
        (Bands::Tricks, true) => 0,
        (Bands::Tricks, false) if !decl_took => 5,
        (Bands::Tricks, false) if decl_pts <= 30 => 4,
        (Bands::Tricks, false) => 3,
        (Bands::Points, true) if decl_pts >= 120 => 2,
        (Bands::Points, true) if decl_pts >= 91 => 1,
        (Bands::Points, true) => 0,
        (Bands::Points, false) if decl_pts == 0 => 5,
        (Bands::Points, false) if decl_pts < 30 => 4,
        (Bands::Points, false) => 3,
    };
    let unit = units[band] as f64;
    // A hair of card points breaks ties between equal bands.
    let tie = decl_pts as f64 / 1000.0;
    if i_declare {
        unit * (players as f64 - 1.0) + tie
    } else {
        -unit - tie
    }
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

impl Strong {
    pub fn new() -> Strong {
        Strong {
            solver: SOLVERS.take(Solver::new),
            max_worlds: 400,
        }
    }

    fn enough(&self, worlds: usize, budget: &dyn Budget) -> bool {
        worlds >= self.max_worlds || budget.expired()
    }

    fn play(&mut self, v: &SeatView, opts: &Options, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let plays = v.legal.plays();
        if plays.len() == 1 && !v.legal.contains(Action::Surrender) {
            return Action::Play(plays.first().unwrap_or(Card::JOKER));
        }
        let know = Knowledge::from_view(v);
        let me = know.me;
        let idx = |s| v.active.iter().position(|&a| a == s).unwrap_or(0);
        let declarer = v.declarer.map(idx);
        let contract = v.contract.unwrap_or(Contract::Galdins);
        let goal = match (contract, declarer) {
            (Contract::Take | Contract::Zole, Some(d)) => Goal::points_of(d),
            (Contract::SmallZole, Some(d)) => Goal::small_zole(d),
            _ => Goal::galdins(me, opts.all_pass != AllPass::Rondo),
        };
        let mut sums = [0f64; 26];
        let mut worlds = 0;
        while !self.enough(worlds, budget) {
            let Some(w) = sample_world(v, &know, rng) else {
                break;
            };
            self.solver.reset(goal);
            let pos = position(v, &w);
            let mut world = [0f64; 26];
            for c in plays.iter() {
                world[code(c) as usize] =
                    self.after_move(v, opts, contract, declarer, &w, &pos, code(c), budget);
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
        // Ties go to the rules-of-thumb card, so equal results still play sensibly.
        let hint = basic::choose_play(v);
        let mut best = (sums[code(hint) as usize], hint);
        for c in plays.iter() {
            let s = sums[code(c) as usize];
            if s > best.0 {
                best = (s, c);
            }
        }
        if v.legal.contains(Action::Surrender) && worlds > 0 {
            let give_up = surrender_delta(v, opts, contract);
            if give_up > best.0 / worlds as f64 {
                return Action::Surrender;
            }
        }
        Action::Play(best.1)
    }
    /// My game points in world `w` if I play `c` (a solver code) from `pos` and the rest goes
    /// double dummy.
    #[allow(clippy::too_many_arguments)]
    fn after_move(
        &mut self,
        v: &SeatView,
        opts: &Options,
        contract: Contract,
        declarer: Option<usize>,
        w: &World,
        pos: &Position,
        c: u8,
        budget: &dyn Budget,
    ) -> f64 {
        let me = v.active.iter().position(|&a| a == v.seat).unwrap_or(0);
        let mut next = *pos;
        let done = next.play(c);
        match (contract, declarer) {
            (Contract::Take | Contract::Zole, Some(d)) => {
                let dseat = v.active[d] as usize;
                let mut base = v.trick_points.get(dseat).copied().unwrap_or(0) as i32;
                if contract == Contract::Take {
                    base += match v.buried {
                        Some(b) => bits_points(bits(b)),
                        None => bits_points(bits(w.out)),
                    };
                }
                let dtricks = v.tricks_won.get(dseat).copied().unwrap_or(0) as usize;
                let mut decl_took = dtricks > 0;
                let mut opps_took = v.tricks.len() > dtricks;
                if let Some((winner, t)) = done {
                    if winner == d {
                        base += bits_points(t.iter().fold(0, |b, &c| b | 1 << c));
                        decl_took = true;
                    } else {
                        opps_took = true;
                    }
                }
                self.contract_result(
                    opts,
                    contract,
                    &next,
                    base,
                    decl_took,
                    opps_took,
                    v.players,
                    d == me,
                    budget,
                )
            }
            (Contract::SmallZole, Some(d)) => {
                let lost = match done {
                    Some((winner, _)) if winner == d => true,
                    _ => next.hands.iter().any(|&h| h != 0) && self.solver.at_least_within(&next, 1, budget),
                };
                let unit = if lost { -(opts.small_zole_loss as f64) } else { 6.0 };
                if d == me {
                    unit * (v.players as f64 - 1.0)
                } else {
                    -unit
                }
            }
            _ => {
                let g = Goal::galdins(me, opts.all_pass != AllPass::Rondo);
                let now = done.map(|(winner, t)| g.trick_value(t, winner)).unwrap_or(0);
                -((now + self.solver.value_within(&next, budget)) as f64)
            }
        }
    }

    /// Game points of a take or zole whose declarer has `base` card points before the play
    /// from `pos`: a few null-window probes find the scoring band (61, then 91 and every
    /// point, or 31 and any point) without solving for the exact card points.
    #[allow(clippy::too_many_arguments)]
    fn contract_result(
        &mut self,
        opts: &Options,
        contract: Contract,
        pos: &Position,
        base: i32,
        decl_took: bool,
        opps_took: bool,
        players: usize,
        i_declare: bool,
        budget: &dyn Budget,
    ) -> f64 {
        let rem = if pos.hands.iter().all(|&h| h == 0) {
            0
        } else {
            self.solver.upper_bound(pos)
        };
        let reach = |solver: &mut Solver, total: i32| {
            let need = total - base;
            need <= 0 || (need <= rem && solver.at_least_within(pos, need, budget))
        };
        let (pts, dt, ot) = if reach(&mut self.solver, 61) {
            if reach(&mut self.solver, 91) {
                if rem > 0 && !opps_took && reach(&mut self.solver, base + rem) {
                    (base + rem, true, false)
                } else {
                    (100.max(base), true, true)
                }
            } else {
                (75, true, true)
            }
        } else if reach(&mut self.solver, 31) {
            (45, true, true)
        } else if decl_took || reach(&mut self.solver, base + 1) {
            (15.min(base.max(1)), true, true)
        } else {
            (base, false, true)
        };
        contract_delta(
            opts,
            contract,
            pts,
            dt || decl_took,
            ot || opps_took,
            players,
            i_declare,
        )
    }

    fn bid(&mut self, v: &SeatView, opts: &Options, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let cands: Vec<Bid> = [Bid::Take, Bid::Zole, Bid::SmallZole]
            .into_iter()
            .filter(|&b| v.legal.contains(Action::Bid(b)))
            .collect();
        if cands.is_empty() {
            return Action::Bid(Bid::Pass);
        }
        let know = Knowledge::from_view(v);
        let me = know.me;
        let mut sums = [0f64; 3];
        let mut worlds = 0;
        let max = self.max_worlds.min(120);
        while worlds < max && !budget.expired() {
            let Some(w) = sample_world(v, &know, rng) else {
                break;
            };
            let mut world = [0f64; 3];
            let mut cut = false;
            for (i, &b) in cands.iter().enumerate() {
                world[i] = self.simulate(v, opts, &w, me, b, budget);
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
        let mut best = (0.0, Bid::Pass);
        for (i, &b) in cands.iter().enumerate() {
            let margin = match b {
                Bid::Take => TAKE_MARGIN,
                Bid::Zole => ZOLE_MARGIN,
                _ => SMALL_ZOLE_MARGIN,
            };
            let mean = sums[i] / worlds.max(1) as f64 - margin;
            if mean > best.0 {
                best = (mean, b);
            }
        }
        Action::Bid(best.1)
    }

    /// My game points if I declare `bid` in world `w` and the play goes double dummy.
    fn simulate(
        &mut self,
        v: &SeatView,
        opts: &Options,
        w: &World,
        me: usize,
        bid: Bid,
        budget: &dyn Budget,
    ) -> f64 {
        let mut hands = w.hands.map(bits);
        let n = v.players;
        match bid {
            Bid::Take => {
                let ten = w.hands[me] | w.out;
                let (a, b) = basic::bury_candidates(ten, 1)[0];
                let bury = CardSet::single(a) | CardSet::single(b);
                hands[me] = bits(ten.minus(bury));
                self.solver.reset(Goal::points_of(me));
                let base = bits_points(bits(bury));
                self.contract_result(
                    opts,
                    Contract::Take,
                    &start(hands),
                    base,
                    false,
                    false,
                    n,
                    true,
                    budget,
                )
            }
            Bid::Zole => {
                self.solver.reset(Goal::points_of(me));
                // The talon's points go to the opponents (out of the declarer's reach) but are
                // no trick of theirs.
                self.contract_result(
                    opts,
                    Contract::Zole,
                    &start(hands),
                    0,
                    false,
                    false,
                    n,
                    true,
                    budget,
                )
            }
            _ => {
                self.solver.reset(Goal::small_zole(me));
                let lost = self.solver.at_least_within(&start(hands), 1, budget);
                let unit = if lost { -(opts.small_zole_loss as f64) } else { 6.0 };
                unit * (n as f64 - 1.0)
            }
        }
    }

    fn bury(&mut self, v: &SeatView, opts: &Options, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let cands = basic::bury_candidates(v.hand, 8);
        let know = Knowledge::from_view(v);
        let me = know.me;
        let mut sums = vec![0f64; cands.len()];
        let mut worlds = 0;
        let max = self.max_worlds.min(100);
        while worlds < max && !budget.expired() {
            let Some(w) = sample_world(v, &know, rng) else {
                break;
            };
            self.solver.reset(Goal::points_of(me));
            let mut world = vec![0f64; cands.len()];
            for (i, &(a, b)) in cands.iter().enumerate() {
                let bury = CardSet::single(a) | CardSet::single(b);
                let mut hands = w.hands.map(bits);
                hands[me] = bits(v.hand.minus(bury));
                let base = bits_points(bits(bury));
                world[i] = self.contract_result(
                    opts,
                    Contract::Take,
                    &start(hands),
                    base,
                    false,
                    false,
                    v.players,
                    true,
                    budget,
                );
            }
            if self.solver.aborted() {
                break;
            }
            for (s, x) in sums.iter_mut().zip(world) {
                *s += x;
            }
            worlds += 1;
        }
        let mut best = 0;
        for i in 1..cands.len() {
            if sums[i] > sums[best] {
                best = i;
            }
        }
        let (a, b) = cands[best];
        Action::Bury(a, b)
    }
}

/// The position at the first lead: the first hand (active index 0) leads.
fn start(hands: [u32; 3]) -> Position {
    Position {
        hands,
        leader: 0,
        trick: [0; 3],
        n_trick: 0,
    }
}

/// The play position of world `w` as the view shows the table.
pub fn position(v: &SeatView, w: &World) -> Position {
    let leader = v
        .trick_leader
        .and_then(|l| v.active.iter().position(|&s| s == l))
        .unwrap_or(0);
    let mut trick = [0u8; 3];
    for (i, &c) in v.trick.iter().enumerate() {
        trick[i] = code(c);
    }
    Position {
        hands: w.hands.map(bits),
        leader: leader as u8,
        trick,
        n_trick: v.trick.len() as u8,
    }
}

/// What surrendering now is worth to the declarer.
fn surrender_delta(v: &SeatView, opts: &Options, contract: Contract) -> f64 {
    let n = v.players as f64 - 1.0;
    let units = if contract == Contract::Take {
        TAKE_UNITS
    } else {
        opts.zole_units
    };
    match opts.surrender {
        Surrender::BasicLoss => units[3] as f64 * n,
        _ => {
            // concede_rest: the cards not yet won go to the opponents.
            let so_far = v.trick_points.get(v.seat as usize).copied().unwrap_or(0) as i32;
            let bury = v.buried.map(|b| bits_points(bits(b))).unwrap_or(0);
            let took = v.tricks_won.get(v.seat as usize).copied().unwrap_or(0) > 0;
            contract_delta(opts, contract, so_far + bury, took, true, v.players, true)
        }
    }
}

/// A strong Zole player playing by `opts` (the table's rules: units, bands, all-pass mode).
pub struct StrongPlayer {
    pub inner: Strong,
    pub opts: Options,
}

impl Player<SeatView, Action> for StrongPlayer {
    fn level(&self) -> Level {
        Level::Strong
    }
    fn choose(&mut self, v: &SeatView, rng: &mut dyn RngCore, budget: &dyn Budget) -> Action {
        let opts = self.opts;
        match v.phase {
            Phase::Bidding => self.inner.bid(v, &opts, rng, budget),
            Phase::Bury => self.inner.bury(v, &opts, rng, budget),
            _ => self.inner.play(v, &opts, rng, budget),
        }
    }
}
