//! Random complete belote deals per second, per variant (target: 500,000 per second on one
//! core for Bazar and Coinche). A deal is shuffled from its own seed (ChaCha20), bid and played
//! to the end by choosing uniformly among the legal actions, except that in the bidding a seat
//! passes three times in four (uniform bids would climb to the ceiling every deal), and scored.
//! Every action goes through `apply` with its full legality check. The legal actions are
//! listed with `legal_actions_into` into one reused list, as a computer player would; "shuffle
//! only" is the cost of the seed's shuffle alone, for comparison.

use criterion::{criterion_group, Criterion, Throughput};
use stikis_core::games::belote::deal::Actions;
use stikis_core::games::belote::{Action, Bid, Deal, Options, Phase, Variant};
use stikis_core::{Game, Seed};

/// splitmix64: a tiny, fast generator for the random choices (the shuffle uses the seed).
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

fn random_deal(v: Variant, n: u64, rng: &mut Mix, legal: &mut Actions) -> i32 {
    let mut deal = Deal::shuffled(
        v,
        Options::default_for(v),
        (n % v.seats() as u64) as u8,
        Seed::from_u64(n),
    );
    while let Some(seat) = deal.to_act() {
        let action = if deal.phase() == Phase::Bidding && rng.below(4) != 0 {
            Action::Bid(Bid::Pass)
        } else {
            deal.legal_actions_into(legal);
            legal[rng.below(legal.len())]
        };
        deal.apply(seat, action).expect("a legal action");
    }
    deal.result().map_or(0, |r| r.deltas[0])
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("belote random deal");
    g.throughput(Throughput::Elements(1));
    for v in Variant::ALL {
        let mut n = 0u64;
        let mut rng = Mix(1);
        let mut legal = Actions::new();
        g.bench_function(v.game_name(), |b| {
            b.iter(|| {
                n += 1;
                random_deal(v, n, &mut rng, &mut legal)
            })
        });
    }
    let mut n = 0u64;
    g.bench_function("shuffle only", |b| {
        b.iter(|| {
            n += 1;
            Seed::from_u64(n).shuffle(stikis_core::cards::PIQUET_PACK)[0]
        })
    });
    g.finish();
}

criterion_group!(benches, bench);

/// `cargo bench -p stikis-core --bench belote -- --rate N [GAME]` plays N random deals per
/// variant in a plain loop and prints deals per second (run it under `perf stat -e task-clock`
/// for the CPU time when other work shares the machine); anything else runs criterion.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--rate") {
        let n: u64 = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
        let only = args.get(i + 2).and_then(|g| Variant::from_game_name(g));
        for v in Variant::ALL.into_iter().filter(|v| only.is_none_or(|o| o == *v)) {
            let mut rng = Mix(1);
            let mut legal = Actions::new();
            let start = std::time::Instant::now();
            let mut sum = 0i64;
            for k in 0..n {
                sum += random_deal(v, k, &mut rng, &mut legal) as i64;
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{:15} {n} deals in {secs:.3} s: {:.0} deals/s (checksum {sum})",
                v.game_name(),
                n as f64 / secs
            );
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
