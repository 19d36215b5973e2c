//! Computer-player benchmarks: the double-dummy solve of a whole Zole deal right after the
//! bury (8 tricks, 24 cards), over many seeded deals so the figure is a distribution.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use stikis_core::ai::zole::basic::bury_candidates;
use stikis_core::ai::zole::dd::{open_position, Goal, Solver};
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
    g.bench_function("zole_dd_whole_deal", |b| {
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
