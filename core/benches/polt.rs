//! Polt to Tzar throughput: whole deals (shuffle from a seed, the exchange, trumps and every
//! trick, each action chosen among `legal_actions`) per second for 5, 6 and 7 players, and
//! replays of a three-deal golden record. Run with `cargo bench -p stikis-core --bench polt`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stikis_core::games::polt::{ranks_from_seed, Deal, Options};
use stikis_core::Seed;

/// Plays one deal to the end, picking actions with a small xorshift so the paths vary without
/// the cost of a cryptographic generator in the loop. Returns the Tzar's tricks.
fn play_deal(seats: usize, n: u64, options: Options) -> u8 {
    let seed = Seed::from_u64(n);
    let ranks = ranks_from_seed(seats, seed);
    let mut deal = Deal::from_seed(options, &ranks, seed).expect("a valid deal");
    let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while let Some(seat) = deal.to_act() {
        let legal = deal.legal_actions();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = legal[(x % legal.len() as u64) as usize];
        deal.apply(seat, a).expect("a legal action");
    }
    deal.won()[deal.tzar() as usize]
}

fn deals(c: &mut Criterion) {
    let mut group = c.benchmark_group("polt/deal");
    group.throughput(Throughput::Elements(1));
    for seats in 5..=7 {
        for bowers in [false, true] {
            let options = Options {
                bowers,
                ..Options::default()
            };
            let id = format!("{seats}p{}", if bowers { "-bowers" } else { "" });
            let mut n = 0u64;
            group.bench_function(BenchmarkId::from_parameter(id), |b| {
                b.iter(|| {
                    n += 1;
                    black_box(play_deal(seats, n, options))
                })
            });
        }
    }
    group.finish();
}

fn replay(c: &mut Criterion) {
    let record = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/polt/five_players.json"
    ))
    .expect("the golden record");
    let mut group = c.benchmark_group("polt/replay");
    group.throughput(Throughput::Elements(3));
    group.bench_function("five_players_3_deals", |b| {
        b.iter(|| stikis_core::record::replay(black_box(&record)).expect("replays"))
    });
    group.finish();
}

criterion_group!(benches, deals, replay);
criterion_main!(benches);
