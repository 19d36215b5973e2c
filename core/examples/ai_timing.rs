//! Timing figures for the computer players, as distributions (criterion gives means):
//! `cargo run --release -p stikis-core --example ai_timing -- [deals] [strong_deals] [--tail]`
//! prints the median, p99 and max of a double-dummy solve of a whole Zole deal after the bury,
//! and the median, p95 and max of the strong player's move time with the default budget.
//! Every figure is given twice: the thread's CPU time (the cost "on one core", whatever else
//! the machine is doing) and wall time (what a player waits, load included). `--tail` lists
//! every deal of the slowest 1% with its seed and node count (otherwise the five slowest).

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use stikis_core::ai::zole::basic::{bury_candidates, choose_bid};
use stikis_core::ai::zole::dd::{open_position, Goal, Solver};
use stikis_core::ai::{zole, Budget, Level, DEFAULT_BUDGET_MS};
use stikis_core::games::zole::{Action, Bid, Contract, Deal, Options, Phase};
use stikis_core::Seed;

fn after_bury(seed: u64) -> Deal {
    let mut d = Deal::new(Options::lv(), 3, 0, Seed::from_u64(seed)).expect("deal");
    let first = d.active()[0];
    d.apply(first, Action::Bid(Bid::Take)).expect("take");
    let (a, b) = bury_candidates(d.hand(first), 1)[0];
    d.apply(first, Action::Bury(a, b)).expect("bury");
    d
}

/// A deal bid by the rules-of-thumb players, if it ended in a take: the declarer buries and
/// the position is right after the bury.
fn bid_take(seed: u64) -> Option<Deal> {
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
    Some(d)
}

fn bury_points(d: &Deal) -> i32 {
    d.buried()
        .iter()
        .map(|c| stikis_core::games::zole::tables::points(c) as i32)
        .sum()
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// CPU time this thread has used so far: unlike wall time it does not grow while the thread
/// waits for a core on a loaded machine.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// One timed solve or move.
#[derive(Clone, Copy)]
struct Timed {
    seed: u64,
    cpu: Duration,
    wall: Duration,
    nodes: u64,
}

/// "median a, pP b, max c" of one measure of `v`.
fn dist(v: &[Timed], get: fn(&Timed) -> Duration, p: f64) -> String {
    let mut d: Vec<Duration> = v.iter().map(get).collect();
    format!(
        "median {:?}, p{} {:?}, max {:?}",
        pct(&mut d, 0.5),
        (p * 100.0).round(),
        pct(&mut d, p),
        pct(&mut d, 1.0)
    )
}

/// The host ends a computer player's budget this much early (host/src/games/zole.rs), so
/// the move, including the last poll's overrun, fits the budget; measured the same way here.
const HOST_MARGIN_MS: u64 = 10;

struct Deadline(Instant);
impl Budget for Deadline {
    fn expired(&self) -> bool {
        Instant::now() >= self.0
    }
}

const USAGE: &str = "\
Timing distributions of the Zole double-dummy solver and of the strong player.

Usage: cargo run --release -p stikis-core --example ai_timing -- [DEALS] [STRONG_DEALS] [--tail]

  DEALS          deals solved double-dummy in each mode (default 2000)
  STRONG_DEALS   whole deals the strong player plays (default 20)
  --tail         list every deal of the slowest 1% (default: the five slowest)
  -h, --help     print this text
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
    let mut args: Vec<usize> = Vec::new();
    let mut all_tail = false;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            "--tail" => all_tail = true,
            _ => match a.parse() {
                Ok(n) if args.len() < 2 => args.push(n),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let deals = args.first().copied().unwrap_or(2000);
    let strong_deals = args.get(1).copied().unwrap_or(20);
    let mut solver = Solver::new();
    // Three ways to solve: the win/loss probe alone (61), the scoring band (61, then 91 or
    // 31: what scoring a take needs), and the exact card points (binary search of probes).
    for (deals_kind, mode) in [
        ("first hand takes", "probe 61"),
        ("first hand takes", "band"),
        ("first hand takes", "exact points"),
        ("takes bid by basic players", "band"),
        ("takes bid by basic players", "exact points"),
    ] {
        let mut runs = Vec::with_capacity(deals);
        let mut seed = 0u64;
        while runs.len() < deals {
            seed += 1;
            let d = if deals_kind == "first hand takes" {
                after_bury(seed)
            } else {
                match bid_take(seed) {
                    Some(d) => d,
                    None => continue,
                }
            };
            let decl = d
                .active()
                .iter()
                .position(|&s| Some(s) == d.declarer())
                .unwrap_or(0);
            let pos = open_position(&d);
            let base = bury_points(&d);
            let before = solver.nodes;
            let (c0, t0) = (thread_cpu(), Instant::now());
            solver.reset(Goal::points_of(decl));
            match mode {
                "probe 61" => {
                    std::hint::black_box(solver.at_least(&pos, 61 - base));
                }
                "band" => {
                    let won = solver.at_least(&pos, 61 - base);
                    let next = if won { 91 } else { 31 };
                    std::hint::black_box(solver.at_least(&pos, next - base));
                }
                _ => {
                    std::hint::black_box(solver.value(&pos));
                }
            }
            let (wall, cpu) = (t0.elapsed(), thread_cpu() - c0);
            runs.push(Timed {
                seed,
                cpu,
                wall,
                nodes: solver.nodes - before,
            });
        }
        let mean_nodes = runs.iter().map(|r| r.nodes).sum::<u64>() / deals as u64;
        println!("dd whole deal after bury ({deals_kind}), {mode}: {deals} deals, mean nodes {mean_nodes}");
        println!("  cpu:  {}", dist(&runs, |r| r.cpu, 0.99));
        println!("  wall: {}", dist(&runs, |r| r.wall, 0.99));
        runs.sort_by_key(|r| std::cmp::Reverse(r.cpu));
        let shown = if all_tail { deals.div_ceil(100) } else { 5 };
        let tail: Vec<String> = runs
            .iter()
            .take(shown)
            .map(|r| format!("seed {} {:?} {} nodes", r.seed, r.cpu, r.nodes))
            .collect();
        println!("  slowest (cpu): {}", tail.join("; "));
    }
    if strong_deals == 0 {
        return;
    }
    // Strong move times: three strong players play whole deals with the default budget, as
    // the host gives it. Under "lv" strong players often all pass (the pot, no play), so every
    // other deal is played by "lv-galdins", where all passing means a galdiņš to play out.
    let mut moves: Vec<(Phase, Timed)> = Vec::new();
    let mut rng = ChaCha12Rng::seed_from_u64(7);
    for seed in 0..strong_deals as u64 {
        let opts = if seed % 2 == 0 {
            Options::lv()
        } else {
            Options::lv_galdins()
        };
        let mut players: Vec<_> = (0..3).map(|_| zole::player(Level::Strong, opts)).collect();
        let mut d = Deal::new(opts, 3, (seed % 3) as u8, Seed::from_u64(1000 + seed)).expect("deal");
        while let Some(s) = d.to_act() {
            let v = d.view(s);
            let (c0, t0) = (thread_cpu(), Instant::now());
            let budget = Deadline(t0 + Duration::from_millis(DEFAULT_BUDGET_MS - HOST_MARGIN_MS));
            let a = players[s as usize].choose(&v, &mut rng, &budget);
            let (wall, cpu) = (t0.elapsed(), thread_cpu() - c0);
            let timed = Timed {
                seed: 1000 + seed,
                cpu,
                wall,
                nodes: 0,
            };
            moves.push((v.phase, timed));
            d.apply(s, a).expect("legal");
        }
    }
    println!(
        "strong move time ({} moves in {strong_deals} deals, budget {DEFAULT_BUDGET_MS} ms, deadline {} ms as the host sets it):",
        moves.len(),
        DEFAULT_BUDGET_MS - HOST_MARGIN_MS
    );
    for (label, phase) in [
        ("all moves", None),
        ("bids", Some(Phase::Bidding)),
        ("buries", Some(Phase::Bury)),
        ("plays", Some(Phase::Play)),
    ] {
        let of: Vec<Timed> = moves
            .iter()
            .filter(|(p, _)| phase.is_none_or(|ph| *p == ph))
            .map(|(_, t)| *t)
            .collect();
        if of.is_empty() {
            continue;
        }
        println!("  {label} ({}):", of.len());
        println!("    cpu:  {}", dist(&of, |r| r.cpu, 0.95));
        println!("    wall: {}", dist(&of, |r| r.wall, 0.95));
    }
    let over = moves
        .iter()
        .filter(|(_, m)| m.wall > Duration::from_millis(DEFAULT_BUDGET_MS))
        .map(|(_, m)| format!("seed {} {:?}", m.seed, m.wall))
        .collect::<Vec<_>>();
    println!(
        "  over {DEFAULT_BUDGET_MS} ms (wall): {} {}",
        over.len(),
        over.join("; ")
    );
}
