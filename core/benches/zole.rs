//! Random complete Zole deals: shuffle from a seed, bidding that ends in a contract, the bury,
//! 24 plays chosen at random among the legal ones, and scoring.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use stikis_core::games::zole::Options;

mod zole_random;
use zole_random::random_deal;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("zole");
    g.throughput(Throughput::Elements(1));
    let opts = Options::lv();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut seed = 0u64;
    g.bench_function("random_deal", |b| {
        b.iter_batched(
            || {
                seed += 1;
                seed
            },
            |s| random_deal(opts, s, &mut rng),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
