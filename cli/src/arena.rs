//! `stikis arena`: computer players against each other over many deals with duplicate
//! seating. Every deal is played once for each rotation of the players over the seats, so
//! each player meets the same cards from every seat; the figures are mean points per deal per
//! level (Zole: game points; Polt to Tzar: tricks) with a 95% confidence interval, and the
//! mean difference between levels.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use stikis_core::ai::{polt, zole, Budget, Level, Player, DEFAULT_BUDGET_MS};
use stikis_core::games::polt as polt_game;
use stikis_core::games::zole::record::to_record;
use stikis_core::games::zole::{Action, Options, SeatView, Session};
use stikis_core::{Seat, Seed};

pub const USAGE: &str = "stikis arena [--game zole|polt] [--deals N] [--players L,L,...] \
[--rules PRESET] [--seed N] [--budget-ms MS] [--threads T] [--records FILE.jsonl]   \
(levels: random, basic, strong; zole seats 3 players, polt 5 to 7)";

#[derive(Clone, Copy, PartialEq, Eq)]
enum GameKind {
    Zole,
    Polt,
}

struct Args {
    game: GameKind,
    deals: usize,
    players: Vec<Level>,
    opts: Options,
    seed: u64,
    budget: Duration,
    threads: usize,
    records: Option<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        game: GameKind::Zole,
        deals: 100,
        players: vec![Level::Strong, Level::Basic, Level::Basic],
        opts: Options::lv(),
        seed: 1,
        budget: Duration::from_millis(DEFAULT_BUDGET_MS),
        threads: 1,
        records: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let val = it.next().ok_or(format!("{flag} needs a value"))?;
        let num = || {
            val.parse::<u64>()
                .map_err(|_| format!("{flag}: not a number: {val}"))
        };
        match flag.as_str() {
            "--deals" => a.deals = num()? as usize,
            "--seed" => a.seed = num()?,
            "--budget-ms" => a.budget = Duration::from_millis(num()?),
            "--threads" => a.threads = (num()? as usize).max(1),
            "--records" => a.records = Some(val.clone()),
            "--rules" => a.opts = Options::preset(val).ok_or(format!("unknown rules preset {val}"))?,
            "--players" => a.players = val.split(',').map(str::parse).collect::<Result<_, _>>()?,
            "--game" => {
                a.game = match val.as_str() {
                    "zole" => GameKind::Zole,
                    "polt" => GameKind::Polt,
                    _ => return Err(format!("unknown game {val} (zole, polt)")),
                }
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let seats_ok = match a.game {
        GameKind::Zole => a.players.len() == 3,
        GameKind::Polt => (5..=7).contains(&a.players.len()),
    };
    if !seats_ok {
        return Err("--players lists one level per seat: three for zole, 5 to 7 for polt".into());
    }
    Ok(a)
}

struct Deadline(Instant);
impl Budget for Deadline {
    fn expired(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// Per rotation, each slot's points; and the records.
type Played = (Vec<Vec<i32>>, Vec<String>);

/// One Zole deal played under every rotation.
fn play_deal(a: &Args, i: usize, players: &mut [Box<dyn Player<SeatView, Action>>]) -> Played {
    let mut out = Vec::new();
    let mut records = Vec::new();
    let dealer = (i % 3) as Seat;
    let seed = Seed::from_u64(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    for r in 0..3 {
        // Seat s is played by slot (s + r) % 3.
        let slot = |s: Seat| (s as usize + r) % 3;
        let mut session = Session::new(a.opts, 3, dealer).expect("a table of three");
        session.deal_from_seed(seed).expect("deal");
        let mut rng = ChaCha12Rng::seed_from_u64(a.seed ^ ((i as u64) << 8) ^ r as u64);
        let mut deltas = vec![0i32; 3];
        while let Some(deal) = session.current() {
            let s = deal.to_act().expect("a deal in progress has a seat to act");
            let v = deal.view(s);
            let budget = Deadline(Instant::now() + a.budget);
            let action = players[slot(s)].choose(&v, &mut rng, &budget);
            if let Some(res) = session.apply(s, action).unwrap_or_else(|e| {
                panic!(
                    "{} chose an illegal action {action} in deal {i}: {e}",
                    players[slot(s)].level()
                )
            }) {
                for (seat, d) in res.deltas.iter().enumerate() {
                    deltas[slot(seat as Seat)] = *d;
                }
            }
        }
        out.push(deltas);
        if a.records.is_some() {
            let names: Vec<String> = (0..3)
                .map(|s| format!("{}#{}", a.players[slot(s)], slot(s)))
                .collect();
            let env = to_record(&session, &names);
            records.push(serde_json::to_string(&env).expect("a record serialises"));
        }
    }
    (out, records)
}

/// One Polt to Tzar hand (first ranks drawn from the seed) under every rotation: per rotation,
/// each slot's tricks, and the records.
fn play_polt(
    a: &Args,
    i: usize,
    players: &mut [Box<dyn Player<polt_game::SeatView, polt_game::Action>>],
) -> Played {
    let n = a.players.len();
    let seed = Seed::from_u64(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let ranks = polt_game::ranks_from_seed(n, seed);
    let opts = polt_game::Options::default_preset();
    let mut out = Vec::new();
    let mut records = Vec::new();
    for r in 0..n {
        let slot = |s: Seat| (s as usize + r) % n;
        let mut session = polt_game::Session::new(opts, n, 1, &ranks).expect("a polt table");
        session.start_hand(seed).expect("deal");
        let mut rng = ChaCha12Rng::seed_from_u64(a.seed ^ ((i as u64) << 8) ^ r as u64);
        while let Some(deal) = session.current() {
            let Some(s) = deal.to_act() else { break };
            let v = deal.view(s);
            let budget = Deadline(Instant::now() + a.budget);
            let action = players[slot(s)].choose(&v, &mut rng, &budget);
            session.apply(s, action).unwrap_or_else(|e| {
                panic!(
                    "{} chose an illegal action {action} in deal {i}: {e}",
                    players[slot(s)].level()
                )
            });
        }
        let won = session
            .results()
            .last()
            .map(|h| h.tricks.clone())
            .unwrap_or_default();
        let mut tricks = vec![0i32; n];
        for (seat, &t) in won.iter().enumerate() {
            tricks[slot(seat as Seat)] = t as i32;
        }
        out.push(tricks);
        if a.records.is_some() {
            let names: Vec<String> = (0..n as Seat)
                .map(|s| format!("{}#{}", a.players[slot(s)], slot(s)))
                .collect();
            let env = polt_game::record::session_record(&session, &names);
            records.push(serde_json::to_string(&env).expect("a record serialises"));
        }
    }
    (out, records)
}

fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (m, 1.96 * (var / n).sqrt())
}

pub fn run(args: &[String]) -> Result<String, String> {
    let a = parse(args)?;
    let started = Instant::now();
    // Deals are split over threads; each thread has its own players.
    let results: Vec<(usize, Vec<Vec<i32>>, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..a.threads)
            .map(|t| {
                let a = &a;
                scope.spawn(move || {
                    let mut zp: Vec<_> = a.players.iter().map(|&l| zole::player(l, a.opts)).collect();
                    let mut pp: Vec<_> = a
                        .players
                        .iter()
                        .map(|&l| polt::player(l, Default::default()))
                        .collect();
                    (t..a.deals)
                        .step_by(a.threads)
                        .map(|i| {
                            let (d, r) = match a.game {
                                GameKind::Zole => play_deal(a, i, &mut zp),
                                GameKind::Polt => play_polt(a, i, &mut pp),
                            };
                            (i, d, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<_> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("arena thread"))
            .collect();
        all.sort_by_key(|x| x.0);
        all
    });
    if let Some(path) = &a.records {
        let mut f = std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
        for (_, _, recs) in &results {
            for r in recs {
                writeln!(f, "{r}").map_err(|e| format!("cannot write {path}: {e}"))?;
            }
        }
    }
    // Per deal, the mean game points of each level over its slots and the three rotations.
    let mut levels: Vec<Level> = a.players.clone();
    levels.sort();
    levels.dedup();
    let per_deal = |l: Level| -> Vec<f64> {
        let slots: Vec<usize> = (0..a.players.len()).filter(|&s| a.players[s] == l).collect();
        results
            .iter()
            .map(|(_, rot, _)| {
                let sum: i32 = rot.iter().map(|d| slots.iter().map(|&s| d[s]).sum::<i32>()).sum();
                sum as f64 / (rot.len() * slots.len()) as f64
            })
            .collect()
    };
    let mut out = String::new();
    let names: Vec<&str> = a.players.iter().map(|l| l.name()).collect();
    let _ = writeln!(
        out,
        "arena: {}, rules {}, players {}, {} deals x {} rotations, budget {} ms, {:.1} s",
        if a.game == GameKind::Zole {
            "zole (game points)"
        } else {
            "polt (tricks)"
        },
        if a.game == GameKind::Zole {
            serde_json::to_string(&a.opts.to_rules()).unwrap_or_default()
        } else {
            "\"default\"".to_string()
        },
        names.join(","),
        a.deals,
        a.players.len(),
        a.budget.as_millis(),
        started.elapsed().as_secs_f64()
    );
    for &l in &levels {
        let (m, ci) = mean_ci(&per_deal(l));
        let _ = writeln!(
            out,
            "{:<7} mean points per deal {m:+.3} ± {ci:.3} (95%)",
            l.name()
        );
    }
    for (i, &x) in levels.iter().enumerate() {
        for &y in &levels[i + 1..] {
            let (px, py) = (per_deal(x), per_deal(y));
            let diff: Vec<f64> = px.iter().zip(&py).map(|(a, b)| b - a).collect();
            let (m, ci) = mean_ci(&diff);
            let verdict = if m - ci > 0.0 {
                "above zero"
            } else if m + ci < 0.0 {
                "below zero"
            } else {
                "not separated"
            };
            let _ = writeln!(
                out,
                "{} - {}: mean difference {m:+.3} ± {ci:.3} (95%), {verdict}",
                y.name(),
                x.name()
            );
        }
    }
    Ok(out)
}
