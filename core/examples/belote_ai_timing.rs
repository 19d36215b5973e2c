//! Timing figures for the Belote computer players, printed as medians and percentiles (which
//! criterion does not give):
//!
//! - the double-dummy solve of a whole Bazar (and Coinche) deal right after the bidding (8
//!   tricks, 32 cards): the exact card points of the declaring team, and the scoring band a
//!   strong decision asks for (made or not, then 20 points more or less);
//! - the strong player's time per decision at a budget (default 300 ms), over whole deals.
//!
//! `cargo run --release -p stikis-core --example belote_ai_timing -- [deals] [strong-deals] [budget-ms]`

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use stikis_core::ai::belote::basic::Basic;
use stikis_core::ai::belote::dd::{index, open_position, Goal, Solver};
use stikis_core::ai::belote::strong::{declared_of, need_points};
use stikis_core::ai::belote::{self as ai};
use stikis_core::ai::{Budget, Level, NoLimit, Player, DEFAULT_BUDGET_MS};
use stikis_core::cards::CardSet;
use stikis_core::games::belote::{Deal, Options, Phase, Variant};
use stikis_core::{Game, Seed};

/// A Bazar deal bid by four rules-of-thumb players, or `None` when they all passed.
fn after_bidding(v: Variant, seed: u64) -> Option<Deal> {
    let mut d = Deal::shuffled(v, Options::default_for(v), (seed % 4) as u8, Seed::from_u64(seed));
    let mut rng = SmallRng::seed_from_u64(seed);
    while d.phase() == Phase::Bidding {
        let s = d.to_act()?;
        let a = Basic.choose(&d.view(s), &mut rng, &NoLimit);
        d.apply(s, a).ok()?;
    }
    (d.phase() == Phase::Play).then_some(d)
}

fn pct(xs: &mut [f64], p: f64) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[((xs.len() as f64 - 1.0) * p).round() as usize]
}

/// The host ends a computer player's budget this much early (host/src/games/mod.rs,
/// `move_budget`), so that whole moves stay within the budget; timed here the same way.
const HOST_MARGIN_MS: u64 = 10;

struct Deadline(Instant);
impl Budget for Deadline {
    fn expired(&self) -> bool {
        Instant::now() >= self.0
    }
}

fn usage_text() -> String {
    format!(
        "\
Timing distributions of the Belote double-dummy solver and of the strong player.

Usage: cargo run --release -p stikis-core --example belote_ai_timing -- [DEALS] [STRONG_DEALS] [BUDGET_MS]

  DEALS          deals solved double-dummy per variant (default 500)
  STRONG_DEALS   whole deals the strong player plays per variant (default 10)
  BUDGET_MS      the strong player's budget per decision in ms (default {DEFAULT_BUDGET_MS})
  -h, --help     print this text
"
    )
}

/// `--help`: the usage on standard output, exit 0. A wrong argument: it and the usage on
/// standard error, exit 2 (as a usage error, not a panic).
fn usage(error: Option<&str>) -> ! {
    match error {
        None => {
            print!("{}", usage_text());
            std::process::exit(0)
        }
        Some(e) => {
            eprint!("{e}\n\n{}", usage_text());
            std::process::exit(2)
        }
    }
}

fn main() {
    let mut args: Vec<u64> = Vec::new();
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            _ => match a.parse() {
                Ok(n) if args.len() < 3 => args.push(n),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let deals = args.first().copied().unwrap_or(500) as usize;
    let strong_deals = args.get(1).copied().unwrap_or(10) as usize;
    let budget_ms = args.get(2).copied().unwrap_or(DEFAULT_BUDGET_MS);

    for v in [Variant::Bazar, Variant::Coinche] {
        let mut solver = Solver::new();
        let (mut exact, mut probe, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
        let mut seed = 0;
        while exact.len() < deals {
            seed += 1;
            let Some(d) = after_bidding(v, seed) else { continue };
            let (rules, pos) = open_position(&d).expect("in play");
            let c = d.contract().expect("contract");
            let team = (index(v, c.declarer) % 2) as u8;
            let n0 = solver.nodes;
            let t = Instant::now();
            solver.reset(&rules, Goal::points(team));
            let value = solver.value(&pos);
            exact.push(t.elapsed().as_secs_f64() * 1e3);
            nodes.push((solver.nodes - n0) as f64);
            // The band the strong player asks for: made or not, then 20 points either way.
            let mut hands = [CardSet::EMPTY; 4];
            for (s, h) in hands.iter_mut().enumerate().take(v.seats()) {
                *h = d.hand(s as u8);
            }
            let declared = declared_of(v, d.dealer(), &hands, c.mode);
            let need = need_points(v, d.options(), &c, &declared, 162);
            let t = Instant::now();
            solver.reset(&rules, Goal::points(team));
            let made = solver.at_least(&pos, need);
            let _ = solver.at_least(&pos, if made { need + 20 } else { need - 20 });
            probe.push(t.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box((value, made));
        }
        println!(
            "{v}: whole-deal double-dummy solve after the bidding, {deals} deals: exact points median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (median {:.0} trick-start nodes); the band a decision needs (made or not, then 20 points either way) median {:.2} ms, p99 {:.2} ms",
            pct(&mut exact, 0.5),
            pct(&mut exact, 0.9),
            pct(&mut exact, 0.99),
            pct(&mut exact, 1.0),
            pct(&mut nodes, 0.5),
            pct(&mut probe, 0.5),
            pct(&mut probe, 0.99),
        );
    }

    if strong_deals == 0 {
        return;
    }
    for v in [Variant::Bazar, Variant::Classic, Variant::Coinche] {
        let opts = Options::default_for(v);
        let mut times = Vec::new();
        for seed in 0..strong_deals as u64 {
            let mut d = Deal::shuffled(v, opts, (seed % 4) as u8, Seed::from_u64(seed + 1000));
            let mut players: Vec<_> = (0..4)
                .map(|s| ai::player(if s % 2 == 0 { Level::Strong } else { Level::Basic }, &opts))
                .collect();
            let mut rng = SmallRng::seed_from_u64(seed);
            while let Some(s) = d.to_act() {
                let view = d.view(s);
                let t = Instant::now();
                let a = players[s as usize].choose(
                    &view,
                    &mut rng,
                    &Deadline(t + Duration::from_millis(budget_ms.saturating_sub(HOST_MARGIN_MS))),
                );
                if s % 2 == 0 && view.legal.len() > 1 {
                    times.push(t.elapsed().as_secs_f64() * 1e3);
                }
                d.apply(s, a).expect("legal");
            }
        }
        println!(
            "{v}: strong decisions at a {budget_ms} ms budget, deadline {HOST_MARGIN_MS} ms early as the host sets it ({} decisions with a choice, {strong_deals} deals): median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            times.len(),
            pct(&mut times, 0.5),
            pct(&mut times, 0.95),
            pct(&mut times, 1.0),
        );
    }
}
