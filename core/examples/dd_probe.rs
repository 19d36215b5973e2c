//! Development probe for the double-dummy solver: node counts of band and exact solves over
//! seeded whole deals, with a checksum of the results so a faster solver can be checked to
//! give the same answers: `cargo run --release -p stikis-core --example dd_probe -- [deals]`.

use std::time::Instant;

use stikis_core::ai::zole::basic::bury_candidates;
use stikis_core::ai::zole::dd::{open_position, Goal, Solver};
use stikis_core::games::zole::{Action, Bid, Deal, Options};
use stikis_core::Seed;

fn after_bury(seed: u64) -> Deal {
    let mut d = Deal::new(Options::lv(), 3, 0, Seed::from_u64(seed)).expect("deal");
    let first = d.active()[0];
    d.apply(first, Action::Bid(Bid::Take)).expect("take");
    let (a, b) = bury_candidates(d.hand(first), 1)[0];
    d.apply(first, Action::Bury(a, b)).expect("bury");
    d
}

fn cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec and a constant clock id.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

/// A deal bid by the rules-of-thumb players that ended in a take, right after the bury.
fn bid_take(seed: u64) -> Option<(Deal, usize)> {
    use stikis_core::ai::zole::basic::choose_bid;
    use stikis_core::games::zole::{Contract, Phase};
    let mut d = Deal::new(Options::lv(), 3, (seed % 3) as u8, Seed::from_u64(seed)).ok()?;
    while d.phase() == Phase::Bidding {
        let s = d.to_act()?;
        d.apply(s, Action::Bid(choose_bid(&d.view(s)))).ok()?;
    }
    if d.contract() != Some(Contract::Take) {
        return None;
    }
    let s = d.declarer()?;
    let (a, b) = bury_candidates(d.hand(s), 1)[0];
    d.apply(s, Action::Bury(a, b)).ok()?;
    let decl = d.active().iter().position(|&a| a == s)?;
    Some((d, decl))
}

const USAGE: &str = "\
Node counts and CPU time of the Zole double-dummy solver over seeded deals, with a checksum.

Usage: cargo run --release -p stikis-core --example dd_probe -- [DEALS] [--exact] [--bid]

  DEALS        deals solved (default 500)
  --exact      solve the exact card points (default: the scoring band, 61 then 91 or 31)
  --bid        deals bid by the rules-of-thumb players that end in a take (default: the
               first hand takes)
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
    let (mut deals, mut exact, mut bid) = (None, false, false);
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            "--exact" => exact = true,
            "--bid" => bid = true,
            _ => match a.parse::<u64>() {
                Ok(n) if deals.is_none() => deals = Some(n),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let deals = deals.unwrap_or(500);
    let mut solver = Solver::new();
    let mut nodes = Vec::new();
    let mut sum = 0i64;
    let mut times = Vec::new();
    let t = Instant::now();
    let mut seed = 0;
    while nodes.len() < deals as usize {
        seed += 1;
        let (d, decl) = if bid {
            match bid_take(seed) {
                Some(x) => x,
                None => continue,
            }
        } else {
            (after_bury(seed), 0)
        };
        let pos = open_position(&d);
        let base: i32 = d
            .buried()
            .iter()
            .map(|c| stikis_core::games::zole::tables::points(c) as i32)
            .sum();
        let before = solver.nodes;
        let c0 = cpu();
        solver.reset(Goal::points_of(decl));
        if exact {
            sum += solver.value(&pos) as i64 * seed as i64;
        } else {
            let won = solver.at_least(&pos, 61 - base);
            let hi = solver.at_least(&pos, if won { 91 } else { 31 } - base);
            sum += (won as i64 * 2 + hi as i64) * seed as i64;
        }
        nodes.push((solver.nodes - before, seed));
        times.push(cpu() - c0);
    }
    let el = t.elapsed();
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let tn = times.len();
    println!(
        "cpu ms: median {:.3}, p99 {:.3}, max {:.3}, total {:.0}",
        times[tn / 2],
        times[(tn - 1) * 99 / 100],
        times[tn - 1],
        times.iter().sum::<f64>()
    );
    nodes.sort();
    let n = nodes.len();
    let total: u64 = nodes.iter().map(|x| x.0).sum();
    println!(
        "{} {deals} deals: checksum {sum}, mean nodes {}, median {}, p99 {}, max {:?}, {:?} total",
        if exact { "exact" } else { "band" },
        total / n as u64,
        nodes[n / 2].0,
        nodes[(n - 1) * 99 / 100].0,
        nodes[n - 1],
        el
    );
}
