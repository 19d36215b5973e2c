//! Plays N random complete Zole deals in one thread and prints deals per second: a quick
//! benchmark command beside `cargo bench` (`cargo run --release -p stikis-core --example
//! zole_deals -- 1000000`), and a fixed workload for instruction counting under callgrind.

#[path = "../benches/zole_random.rs"]
mod zole_random;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(1);
    let opts = stikis_core::games::zole::Options::lv();
    let start = std::time::Instant::now();
    let mut check = 0i64;
    for seed in 0..n {
        check += zole_random::random_deal(opts, seed, &mut rng) as i64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} deals in {secs:.3} s: {:.0} deals/s (checksum {check})",
        n as f64 / secs
    );
}
