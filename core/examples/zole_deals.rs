//! Plays N random complete Zole deals in one thread and prints deals per second: a quick
//! benchmark command beside `cargo bench` (`cargo run --release -p stikis-core --example
//! zole_deals -- 1000000`), and a fixed workload for instruction counting under callgrind.

#[path = "../benches/zole_random.rs"]
mod zole_random;

const USAGE: &str = "\
Plays N random complete Zole deals in one thread and prints deals per second.

Usage: cargo run --release -p stikis-core --example zole_deals -- [N]

  N            deals played (default 1000000)
  -h, --help   print this text
";

/// `--help`: the usage on standard output, exit 0. A wrong argument: it and the usage on
/// standard error, exit 2 (as a usage error, not a panic).
fn usage(error: Option<&str>) -> ! {
    match error {
        None => {
            print!("{USAGE}");
            std::process::exit(0)
        }
        Some(e) => {
            eprint!("{e}\n\n{USAGE}");
            std::process::exit(2)
        }
    }
}

fn main() {
    let mut n = None;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            _ => match a.parse::<u64>() {
                Ok(v) if n.is_none() => n = Some(v),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let n = n.unwrap_or(1_000_000);
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
