//! Zole computer players: every level only ever chooses legal actions; the double-dummy
//! solver agrees with plain minimax on small endgames; sampled worlds never contradict what
//! the seat has seen. Seeded loops print their seed on failure.

// Seats index several parallel arrays here; a range reads clearer than zipped iterators.
#![allow(clippy::needless_range_loop)]

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stikis_core::ai::zole::dd::{self, exhaustive, open_position, Goal, Solver};
use stikis_core::ai::zole::sample::{sample, Knowledge};
use stikis_core::ai::zole::strong::{Strong, StrongPlayer};
use stikis_core::ai::zole::{basic::Basic, RandomPlayer};
use stikis_core::ai::{Level, NoLimit, Player};
use stikis_core::cards::CardSet;
use stikis_core::games::zole::tables::Category;
use stikis_core::games::zole::{Action, Bid, Deal, Options, Phase, SeatView};
use stikis_core::Seed;

const PRESETS: [&str; 5] = ["lv", "lv-galdins", "rondo", "catsatcards", "zolite"];

fn iterations(debug: usize, release: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

fn opts_for(seed: u64) -> Options {
    Options::preset(PRESETS[seed as usize % PRESETS.len()]).expect("preset")
}

fn make(level: Level, opts: Options) -> Box<dyn Player<SeatView, Action>> {
    match level {
        Level::Random => Box::new(RandomPlayer),
        Level::Basic => Box::new(Basic),
        Level::Strong => {
            let mut inner = Strong::new();
            inner.max_worlds = 2;
            Box::new(StrongPlayer { inner, opts })
        }
    }
}

/// Plays a whole deal with the given levels per seat; panics (with the seed) on any illegal
/// choice. Returns the finished deal.
fn play(seed: u64, levels: [Level; 3]) -> Deal {
    let opts = opts_for(seed);
    let mut d = Deal::new(opts, 3, (seed % 3) as u8, Seed::from_u64(seed)).expect("deal");
    let mut players: Vec<_> = levels.iter().map(|&l| make(l, opts)).collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    while let Some(s) = d.to_act() {
        let v = d.view(s);
        let a = players[s as usize].choose(&v, &mut rng, &NoLimit);
        assert!(
            v.legal.contains(a),
            "seed {seed}: {:?} chose {a}, not among its legal actions",
            levels[s as usize]
        );
        d.apply(s, a)
            .unwrap_or_else(|e| panic!("seed {seed}: {a} refused: {e}"));
    }
    d
}

#[test]
fn random_and_basic_players_only_choose_legal_actions() {
    for seed in 0..iterations(1000, 5000) as u64 {
        let l = [Level::Random, Level::Basic];
        let levels = [0, 1, 2].map(|s| l[(seed >> s) as usize & 1]);
        let d = play(seed, levels);
        assert_eq!(d.phase(), Phase::Done, "seed {seed}");
    }
}

#[test]
fn strong_players_only_choose_legal_actions() {
    for seed in 0..iterations(60, 1000) as u64 {
        let mut levels = [Level::Basic, Level::Random, Level::Basic];
        levels[seed as usize % 3] = Level::Strong;
        play(10_000 + seed, levels);
    }
}

/// A random deal played at random down to `left` cards per hand, plus `extra` cards of the
/// next trick (0..=2). Take, zole, small zole and galdiņš all occur.
fn endgame(seed: u64, left: u32, extra: usize) -> Option<Deal> {
    let opts = Options::preset(if seed.is_multiple_of(2) {
        "lv-galdins"
    } else {
        "lv"
    })?;
    let mut d = Deal::new(opts, 3, 0, Seed::from_u64(seed)).ok()?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let stop = (8 - left as usize) * 3 + extra;
    while d.phase() != Phase::Done && d.played().len() < stop {
        let s = d.to_act()?;
        let legal = d.legal_actions();
        let a = legal.get(rng.random_range(0..legal.len()))?;
        d.apply(s, a).ok()?;
    }
    (d.phase() == Phase::Play).then_some(d)
}

#[test]
fn solver_agrees_with_exhaustive_search_on_endgames() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for seed in 0..iterations(150, 600) as u64 {
        let left = 3 + (seed % 2) as u32;
        let Some(d) = endgame(seed, left, (seed / 2 % 3) as usize) else {
            continue;
        };
        let pos = open_position(&d);
        let decl = d
            .declarer()
            .and_then(|s| d.active().iter().position(|&a| a == s))
            .unwrap_or(0);
        let me = pos.to_move();
        for goal in [
            Goal::points_of(decl),
            Goal::small_zole(decl),
            Goal::galdins(me, true),
            Goal::galdins(me, false),
        ] {
            let want = exhaustive(&pos, &goal);
            solver.reset(goal);
            assert_eq!(solver.value(&pos), want, "seed {seed}, {goal:?}");
            solver.reset(goal);
            for t in [want - 1, want, want + 1] {
                assert_eq!(
                    solver.at_least(&pos, t),
                    want >= t,
                    "seed {seed}, {goal:?}, at least {t}"
                );
            }
            solver.reset(goal);
            for (c, v) in solver.move_values(&pos) {
                let mut next = pos;
                let done = next.play(c);
                let now = done.map(|(w, t)| goal.trick_value(t, w)).unwrap_or(0);
                assert_eq!(
                    v,
                    now + exhaustive(&next, &goal),
                    "seed {seed}, {goal:?}, move {}",
                    dd::card_of(c)
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} endgames checked");
}

/// Three random hands of `tricks` cards from the 26, a random leader, then `extra` random
/// legal cards of the first trick: spreads of cards real endgames rarely reach.
fn random_position(rng: &mut SmallRng, tricks: usize, extra: usize) -> dd::Position {
    let mut codes: Vec<u8> = (0..26).collect();
    codes.shuffle(rng);
    let mut hands = [0; 3];
    for (i, &c) in codes[..3 * tricks].iter().enumerate() {
        hands[i % 3] |= 1 << c;
    }
    let mut pos = dd::Position {
        hands,
        leader: rng.random_range(0..3),
        trick: [0; 3],
        n_trick: 0,
    };
    for _ in 0..extra {
        let legal: Vec<u32> = (0..26).filter(|c| pos.legal() >> c & 1 == 1).collect();
        pos.play(*legal.choose(rng).expect("a legal card") as u8);
    }
    pos
}

/// The solver (bounds from sure trumps, the two-trick shortcut, equivalent cards collapsed,
/// move ordering, the table) gives plain minimax's values on random positions of four and
/// five tricks, for every kind of goal, as a value, as probes and move by move.
#[test]
fn solver_agrees_with_exhaustive_search_on_random_positions() {
    let mut solver = Solver::new();
    for seed in 0..iterations(60, 400) as u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let tricks = if seed % 4 == 0 { 5 } else { 4 };
        let pos = random_position(&mut rng, tricks, (seed % 3) as usize);
        let d = rng.random_range(0..3);
        let me = pos.to_move();
        for goal in [
            Goal::points_of(d),
            Goal::small_zole(d),
            Goal::galdins(me, true),
            Goal::galdins(me, false),
        ] {
            let want = exhaustive(&pos, &goal);
            solver.reset(goal);
            assert_eq!(solver.value(&pos), want, "seed {seed}, {goal:?}");
            solver.reset(goal);
            for t in [want - 1, want, want + 1, want + 10] {
                assert_eq!(
                    solver.at_least(&pos, t),
                    want >= t,
                    "seed {seed}, {goal:?}, at least {t}"
                );
            }
            solver.reset(goal);
            for (c, v) in solver.move_values(&pos) {
                let mut next = pos;
                let done = next.play(c);
                let now = done.map(|(w, t)| goal.trick_value(t, w)).unwrap_or(0);
                assert_eq!(
                    v,
                    now + exhaustive(&next, &goal),
                    "seed {seed}, {goal:?}, move {}",
                    dd::card_of(c)
                );
            }
        }
    }
}

/// A budget that runs out at its `after`-th poll and counts every poll.
fn polled_budget(after: u32) -> (std::rc::Rc<std::cell::Cell<u32>>, impl Fn() -> bool) {
    let polls = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let p = polls.clone();
    (polls, move || {
        p.set(p.get() + 1);
        p.get() >= after
    })
}

/// A whole deal right after the first hand's take and rules-of-thumb bury, every hand open.
fn whole_deal(seed: u64) -> (dd::Position, i32) {
    use stikis_core::ai::zole::basic::bury_candidates;
    let mut d = Deal::new(Options::lv(), 3, 0, Seed::from_u64(seed)).expect("deal");
    let first = d.active()[0];
    d.apply(first, Action::Bid(Bid::Take)).expect("take");
    let (a, b) = bury_candidates(d.hand(first), 1)[0];
    d.apply(first, Action::Bury(a, b)).expect("bury");
    let base = dd::bits_points(dd::bits(d.buried()));
    (open_position(&d), base)
}

/// A solve whose budget runs out stops within one polling interval (128 trick starts) of
/// the poll that said so, polls no more, says it was cut short, and a reset solver then
/// solves the same deal exactly as a fresh one does.
#[test]
fn solver_gives_up_as_soon_as_its_budget_runs_out() {
    // Seed 1948 is one of the slowest deals of the timing example's first 2000.
    let (pos, base) = whole_deal(1948);
    let mut fresh = Solver::new();
    fresh.reset(Goal::points_of(0));
    let want = fresh.value(&pos);
    assert!(
        fresh.nodes > 10_000,
        "the deal is no slow solve: {} nodes",
        fresh.nodes
    );
    let mut solver = Solver::new();
    for after in [1, 3, 20] {
        let (polls, budget) = polled_budget(after);
        solver.reset(Goal::points_of(0));
        let before = solver.nodes;
        solver.value_within(&pos, &budget);
        assert!(solver.aborted(), "budget out at poll {after}: not aborted");
        assert_eq!(polls.get(), after, "polled again after the budget ran out");
        assert!(
            solver.nodes - before <= 128 * after as u64,
            "{} nodes for {after} polls",
            solver.nodes - before
        );
        // Later probes of the same cut-short solve return at once.
        let at = solver.nodes;
        solver.at_least_within(&pos, 61 - base, &budget);
        assert_eq!(solver.nodes, at);
    }
    solver.reset(Goal::points_of(0));
    assert!(!solver.aborted());
    assert_eq!(solver.value(&pos), want);
}

/// The strong player stops soon after its budget runs out, in every phase, and still
/// chooses a legal action: a budget that runs out at the k-th poll sees only a few more.
#[test]
fn strong_player_stops_soon_after_its_budget_runs_out() {
    let mut checked = [0; 3];
    for seed in 0..iterations(20, 60) as u64 {
        let opts = Options::lv_galdins();
        let mut d = Deal::new(opts, 3, (seed % 3) as u8, Seed::from_u64(seed)).expect("deal");
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut basic = Basic;
        while let Some(s) = d.to_act() {
            let v = d.view(s);
            let phase = [Phase::Bidding, Phase::Bury, Phase::Play]
                .iter()
                .position(|&p| p == v.phase);
            if let Some(i) = phase.filter(|_| v.legal.len() > 1) {
                for after in [1, 5] {
                    let (polls, budget) = polled_budget(after);
                    let mut strong = StrongPlayer {
                        inner: Strong::new(),
                        opts,
                    };
                    let a = strong.choose(&v, &mut rng, &budget);
                    assert!(v.legal.contains(a), "seed {seed}: {a} is not legal");
                    assert!(
                        polls.get() <= after + 2,
                        "seed {seed}, {:?}: {} polls for a budget out at poll {after}",
                        v.phase,
                        polls.get()
                    );
                }
                checked[i] += 1;
            }
            let a = basic.choose(&v, &mut rng, &NoLimit);
            d.apply(s, a).expect("legal");
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "phases checked: {checked:?}");
}

fn cat_mask(k: usize) -> CardSet {
    [
        Category::Trumps,
        Category::Clubs,
        Category::Spades,
        Category::Hearts,
    ][k]
        .mask()
}

/// Checks one sampled world against the real deal as the seat saw it.
fn check_world(seed: u64, d: &Deal, v: &SeatView, k: &Knowledge, w: &stikis_core::ai::zole::sample::World) {
    let active = d.active();
    let me = k.me;
    assert_eq!(w.hands[me], v.hand, "seed {seed}: my hand changed");
    let mut union = w.out;
    for p in 0..3 {
        if p != me {
            assert!(
                (union & w.hands[p]).is_empty(),
                "seed {seed}: a card placed twice"
            );
            union |= w.hands[p];
            // Same size as the real hand.
            assert_eq!(
                w.hands[p].len(),
                d.hand(active[p]).len(),
                "seed {seed}: hand size of {p}"
            );
            for c in 0..4 {
                if k.void[p] >> c & 1 == 1 {
                    assert!(
                        (w.hands[p] & cat_mask(c)).is_empty(),
                        "seed {seed}: void {c} of {p} broken"
                    );
                }
            }
        }
    }
    assert_eq!(
        union,
        v.unseen(),
        "seed {seed}: the world is not the unseen cards"
    );
    // Nothing of what the seat saw is placed anywhere else.
    let mut seen = v.hand | v.buried.unwrap_or_default();
    for t in &v.tricks {
        seen |= t.cards.iter().copied().collect();
    }
    seen |= v.trick.iter().copied().collect();
    assert!((union & seen).is_empty(), "seed {seed}: a seen card in the world");
}

#[test]
fn sampled_worlds_never_contradict_the_view() {
    let mut rng = SmallRng::seed_from_u64(99);
    for seed in 0..iterations(400, 2000) as u64 {
        let opts = opts_for(seed);
        let mut d = Deal::new(opts, 3 + (seed % 3) as usize, 0, Seed::from_u64(seed)).expect("deal");
        let stop = rng.random_range(0..28);
        let mut steps = 0;
        while let Some(s) = d.to_act() {
            let v = d.view(s);
            let k = Knowledge::from_view(&v);
            // The real deal is one of the worlds: the knowledge must hold of it.
            for p in 0..3 {
                let real = d.hand(d.active()[p]);
                for c in 0..4 {
                    if k.void[p] >> c & 1 == 1 {
                        assert!(
                            (real & cat_mask(c)).is_empty(),
                            "seed {seed}: wrong void inferred"
                        );
                    }
                }
            }
            for _ in 0..5 {
                let w = sample(&k, &mut rng).unwrap_or_else(|| panic!("seed {seed}: no world found"));
                check_world(seed, &d, &v, &k, &w);
            }
            if steps >= stop {
                break;
            }
            let legal = d.legal_actions();
            // Avoid all-pass redeals so the play is reached often.
            let skip = (d.bids().len() == 2 && legal.contains(Action::Bid(Bid::Pass))) as usize;
            let a = legal.get(rng.random_range(skip..legal.len())).expect("in range");
            d.apply(s, a).expect("legal");
            steps += 1;
        }
    }
}

#[test]
fn basic_bids_by_strength() {
    use stikis_core::ai::zole::basic::{choose_bid, strength, TAKE_STRENGTH, ZOLE_STRENGTH};
    use stikis_core::cards::cards;
    let strong_hand = cards("QC QS QH QD JC JS AD AC");
    let weak_hand = cards("9D 8D KC 9C KS 9S KH 9H");
    assert!(strength(strong_hand) >= ZOLE_STRENGTH);
    assert!(strength(weak_hand) < TAKE_STRENGTH);
    let rest = stikis_core::cards::ZOLE_DECK.minus(strong_hand);
    let mut it = rest.iter();
    let other: CardSet = it.by_ref().take(8).collect();
    let third: CardSet = it.by_ref().take(8).collect();
    let talon: CardSet = it.collect();
    let d = Deal::from_hands(Options::lv(), 3, 2, &[strong_hand, other, third], talon).expect("deal");
    assert_eq!(choose_bid(&d.view(0)), Bid::Zole);
}
