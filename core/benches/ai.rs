//! Computer-player benchmarks: the double-dummy solve of a whole Zole deal right after the
//! bury (8 tricks, 24 cards), over many seeded deals: the scoring band a decision needs (is
//! 61 reached, then 91 or 31) and the exact card points. Criterion reports means; the
//! `ai_timing` example prints medians and p99. The same for a whole Bazar deal after the
//! bidding (8 tricks, 32 cards): the made-or-not probe and the exact points (medians and
//! percentiles: the `belote_ai_timing` example).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::SeedableRng;
use stikis_core::ai::belote::basic::Basic;
use stikis_core::ai::belote::dd as belote_dd;
use stikis_core::ai::zole::basic::bury_candidates;
use stikis_core::ai::zole::dd::{open_position, Goal, Solver};
use stikis_core::ai::{NoLimit, Player};
use stikis_core::games::belote;
use stikis_core::games::zole::tables::points;
use stikis_core::games::zole::{Action, Bid, Deal, Options};
use stikis_core::Seed;

/// A deal where the first hand takes and buries by the rules of thumb.
pub fn after_bury(seed: u64) -> Deal {
    let mut d = Deal::new(Options::lv(), 3, 0, Seed::from_u64(seed)).expect("deal");
    let first = d.active()[0];
    d.apply(first, Action::Bid(Bid::Take)).expect("take");
    let (a, b) = bury_candidates(d.hand(first), 1)[0];
    d.apply(first, Action::Bury(a, b)).expect("bury");
    d
}

/// A Bazar deal bid by four rules-of-thumb players (seeds whose deal all passed are skipped).
pub fn belote_after_bidding(seed: &mut u64) -> belote::Deal {
    use stikis_core::Game;
    loop {
        *seed += 1;
        let v = belote::Variant::Bazar;
        let mut d = belote::Deal::shuffled(
            v,
            belote::Options::default_for(v),
            (*seed % 4) as u8,
            Seed::from_u64(*seed),
        );
        let mut rng = rand::rngs::SmallRng::seed_from_u64(*seed);
        while d.phase() == belote::Phase::Bidding {
            let s = d.to_act().expect("bidding");
            let a = Basic.choose(&d.view(s), &mut rng, &NoLimit);
            d.apply(s, a).expect("legal");
        }
        if d.phase() == belote::Phase::Play {
            return d;
        }
    }
}

fn bench_belote(c: &mut Criterion) {
    let mut g = c.benchmark_group("ai");
    g.sample_size(20);
    let mut solver = belote_dd::Solver::new();
    let mut seed = 0u64;
    let setup = |seed: &mut u64| {
        let d = belote_after_bidding(seed);
        let team = d.contract().expect("contract").declarer % 2;
        let (rules, pos) = belote_dd::open_position(&d).expect("in play");
        (rules, pos, team)
    };
    g.bench_function("belote_dd_whole_deal_made", |b| {
        b.iter_batched(
            || setup(&mut seed),
            |(rules, pos, team)| {
                solver.reset(&rules, belote_dd::Goal::points(team));
                solver.at_least(&pos, 82)
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("belote_dd_whole_deal_exact", |b| {
        b.iter_batched(
            || setup(&mut seed),
            |(rules, pos, team)| {
                solver.reset(&rules, belote_dd::Goal::points(team));
                solver.value(&pos)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ai");
    let mut solver = Solver::new();
    let mut seed = 0u64;
    g.bench_function("zole_dd_whole_deal_band", |b| {
        b.iter_batched(
            || {
                seed += 1;
                let d = after_bury(seed);
                let base: i32 = d.buried().iter().map(|c| points(c) as i32).sum();
                (open_position(&d), base)
            },
            |(pos, base)| {
                solver.reset(Goal::points_of(0));
                let won = solver.at_least(&pos, 61 - base);
                solver.at_least(&pos, if won { 91 } else { 31 } - base)
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("zole_dd_whole_deal_exact", |b| {
        b.iter_batched(
            || {
                seed += 1;
                open_position(&after_bury(seed))
            },
            |pos| {
                solver.reset(Goal::points_of(0));
                solver.value(&pos)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench, bench_belote);
criterion_main!(benches);
