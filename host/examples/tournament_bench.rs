//! The tournament benchmark (issue 14): a tournament of computer players run through the host
//! as a chat runs one (entries, the start, rounds opened by the host as tables finish).
//!
//!     cargo run --release -p stikis-host --example tournament_bench -- [options]
//!
//!   --db PATH|URL   SQLite file (default: a fresh file in a temp dir) or a postgres:// URL
//!                   (a fresh schema of that database is used)
//!   --players N     entrants, all computer players (default 200: 50 tables of 4)
//!   --rounds N      rounds (default 2)
//!   --deals N       deals per table a round (default 4)
//!
//! Reports: the time each round took (all its tables playing at once), moves per second, the
//! time between two moves of one table (p50/p99, every table playing at once, so it includes
//! waiting for the others), the process's memory (VmRSS) before and at the end, and the time to
//! count the standings from every record and seat the next round.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::{Command, Host, HostConfig, Out, Request, TournamentVerb, User};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * p).round() as usize]
}

const USAGE: &str = "\
The tournament benchmark: a tournament of computer players run through the host.

Usage: cargo run --release -p stikis-host --example tournament_bench -- [options]

  --db PATH|URL   SQLite file or postgres:// URL (default: a fresh SQLite file in a temp dir)
  --players N     entrants, all computer players (default 200: 50 tables of 4)
  --rounds N      rounds (default 2)
  --deals N       deals per table a round (default 4)
  -h, --help      print this text
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

/// An option's number, or a usage error naming the option.
fn num<T: std::str::FromStr>(k: &str, v: String) -> T {
    v.parse()
        .unwrap_or_else(|_| usage(Some(&format!("{k} wants a number, not {v:?}"))))
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let (mut db, mut players, mut rounds, mut deals) = (None, 200usize, 2usize, 4usize);
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || {
            it.next()
                .unwrap_or_else(|| usage(Some(&format!("{k} needs a value"))))
        };
        match k.as_str() {
            "-h" | "--help" => usage(None),
            "--db" => db = Some(v()),
            "--players" => players = num(&k, v()),
            "--rounds" => rounds = num(&k, v()),
            "--deals" => deals = num(&k, v()),
            other => usage(Some(&format!("unknown option {other}"))),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let url = db.unwrap_or_else(|| dir.path().join("tournament.db").to_str().unwrap().to_string());
    let postgres = url.starts_with("postgres");
    let store = if postgres {
        let schema = format!("tbench_{}", std::process::id());
        Store::connect_postgres(&url, Some(&schema)).await.unwrap()
    } else {
        Store::open_sqlite(&url).await.unwrap()
    };
    println!(
        "{} players, {rounds} rounds of {deals} deals, on {}",
        players,
        store.backend_name()
    );
    let rss_before = rss_kib();
    let (host, mut events) = Host::new(store, HostConfig::default());
    let admin = User {
        id: "admin".into(),
        name: "Admin".into(),
        admin: true,
    };
    let chat = ChatRef::new(Platform::Telegram, "club", "club");
    let ask = |command: Command| Request {
        chat: chat.clone(),
        user: admin.clone(),
        command,
    };
    host.handle(ask(Command::SetTurnLimit(None))).await;
    host.handle(ask(Command::NewTournament {
        rules: None,
        rounds,
        deals: Some(deals),
        minutes: None,
        turn: None,
        computers: true,
    }))
    .await;
    for _ in 0..players {
        host.handle(ask(Command::Tournament(TournamentVerb::AddComputer)))
            .await;
    }
    let tour = host.store().latest_tournament(&chat).await.unwrap().unwrap();
    let start = Instant::now();
    host.handle(ask(Command::Tournament(TournamentVerb::Start))).await;
    let mut last_move: HashMap<String, Instant> = HashMap::new();
    let mut gaps = Vec::new();
    let mut round_times = Vec::new();
    let mut round_start = start;
    let mut moves = 0u64;
    loop {
        let out = match tokio::time::timeout(Duration::from_secs(120), events.recv()).await {
            Ok(Some(out)) => out,
            _ => panic!("the tournament stalled"),
        };
        let now = Instant::now();
        let mut done = false;
        for o in &out.0 {
            match o {
                Out::Public { key, .. } if key.starts_with('t') && key.contains(".d") => {
                    let table = key.split('.').next().unwrap().to_string();
                    if let Some(prev) = last_move.insert(table, now) {
                        gaps.push((now - prev).as_secs_f64() * 1000.0);
                    }
                    moves += 1;
                }
                // A round's seating: "Round 2 of 3:" on its first line.
                Out::Post { text, .. }
                    if text
                        .lines()
                        .next()
                        .is_some_and(|l| l.starts_with("Round ") && l.ends_with(':') && !l.contains(',')) =>
                {
                    round_times.push(now - round_start);
                    round_start = now;
                }
                Out::Post { text, .. } if text.starts_with("🏆 The tournament is over.") => {
                    round_times.push(now - round_start);
                    done = true;
                }
                _ => {}
            }
        }
        if done {
            break;
        }
    }
    let total = start.elapsed();
    // The first "Round" post is round 1's seating, at the start: drop the time before it.
    if round_times.len() > rounds {
        round_times.remove(0);
    }
    for (i, t) in round_times.iter().enumerate() {
        println!("round {}: {:.2} s", i + 1, t.as_secs_f64());
    }
    println!(
        "{moves} moves in {:.2} s: {:.0} moves/s",
        total.as_secs_f64(),
        moves as f64 / total.as_secs_f64()
    );
    println!(
        "time between two moves of one table: p50 {:.1} ms, p99 {:.1} ms",
        pct(&mut gaps, 0.5),
        pct(&mut gaps, 0.99)
    );
    println!(
        "memory (VmRSS): {} MiB before, {} MiB at the end",
        rss_before / 1024,
        rss_kib() / 1024
    );
    let tour = host.store().tournament(tour.id).await.unwrap().unwrap();
    let t0 = Instant::now();
    let (rec, done) = stikis_host::tournament::tournament_record(host.store(), &tour)
        .await
        .unwrap();
    let counted = t0.elapsed();
    let t1 = Instant::now();
    let order: Vec<String> = rec.standings.iter().map(|s| s.player.clone()).collect();
    let seating = stikis_core::tournament::seat(&order).unwrap();
    let seated = t1.elapsed();
    println!(
        "standings from the records of {done} rounds ({} tables): {:.1} ms; the next seating ({} tables): {:.3} ms",
        rec.rounds.iter().map(|r| r.tables.len()).sum::<usize>(),
        counted.as_secs_f64() * 1000.0,
        seating.len(),
        seated.as_secs_f64() * 1000.0
    );
    stikis_core::tournament::verify(&rec).expect("the record verifies");
}
