//! Computer-player benchmarks: the double-dummy solve of a whole Zole deal right after the
//! bury (8 tricks, 24 cards), over many seeded deals: the scoring band a decision needs (is
//! 61 reached, then 91 or 31) and the exact card points. Criterion reports means; the
//! `ai_timing` example prints medians and p99.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use stikis_core::ai::zole::basic::bury_candidates;
use stikis_core::ai::zole::dd::{open_position, Goal, Solver};
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

criterion_group!(benches, bench);
criterion_main!(benches);
