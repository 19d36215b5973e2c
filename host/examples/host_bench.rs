//! The host benchmark (issue 5): tables of computer players (basic level) driven through the
//! host on an on-disk database, every action acknowledged only after its commit.
//!
//!     cargo run --release -p stikis-host --example host_bench -- [options]
//!
//!   --db PATH|URL     SQLite file (default: a fresh file in a temp dir) or a postgres:// URL
//!                     (a fresh schema of that database is used)
//!   --tables N        tables playing at once (default 1000)
//!   --deals N         deals each of them plays (default 2)
//!   --interval-ms N   each table asks for its next move N ms after the last one was asked
//!                     for (default 300, so 1,000 tables offer ~3,300 moves/s; 0: as fast as
//!                     the host answers, which measures the most it can do, and then
//!                     latency is mostly queueing: 1,000 tables waiting at once)
//!   --running N       running tables in the database for the recovery and memory figures
//!                     (default 10000; the playing tables count among them)
//!
//! Reports: moves per second and latency per move (one `Host::step`: the computer player's
//! choice, the commit, applying it, closing and dealing deals, rendering); then, in a fresh
//! process, the time `Host::recover` takes to rebuild every running table and the memory per
//! running table (VmRSS before and after, from /proc/self/status).

use std::sync::Arc;
use std::time::{Duration, Instant};

use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, Host, HostConfig, Out, Request, User};

struct Args {
    db: Option<String>,
    schema: Option<String>,
    tables: usize,
    deals: usize,
    interval_ms: u64,
    running: usize,
    recover_only: bool,
}

const USAGE: &str = "\
The host benchmark: tables of computer players driven through the host on an on-disk database.

Usage: cargo run --release -p stikis-host --example host_bench -- [options]

  --db PATH|URL     SQLite file or postgres:// URL (default: a fresh SQLite file in a temp dir)
  --tables N        tables playing at once (default 1000)
  --deals N         deals each of them plays (default 2)
  --interval-ms N   ms between a table's moves asked for (default 300; 0: as fast as it can)
  --running N       running tables in the database for recovery and memory (default 10000)
  --schema NAME     internal: the PostgreSQL schema of the recovery process (default: none)
  --recover-only    internal: only time the recovery (default: off)
  -h, --help        print this text
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

fn args() -> Args {
    let mut a = Args {
        db: None,
        schema: None,
        tables: 1000,
        deals: 2,
        interval_ms: 300,
        running: 10_000,
        recover_only: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || {
            it.next()
                .unwrap_or_else(|| usage(Some(&format!("{k} needs a value"))))
        };
        match k.as_str() {
            "-h" | "--help" => usage(None),
            "--db" => a.db = Some(v()),
            "--schema" => a.schema = Some(v()),
            "--tables" => a.tables = num(&k, v()),
            "--deals" => a.deals = num(&k, v()),
            "--interval-ms" => a.interval_ms = num(&k, v()),
            "--running" => a.running = num(&k, v()),
            "--recover-only" => a.recover_only = true,
            other => usage(Some(&format!("unknown option {other}"))),
        }
    }
    a
}

fn rss_kib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

async fn open(url: &str, schema: Option<&str>) -> Store {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Store::connect_postgres(url, schema).await.unwrap()
    } else {
        Store::open_sqlite(url).await.unwrap()
    }
}

async fn ask(host: &Arc<Host>, chat: &ChatRef, user: &User, command: Command) -> stikis_host::Outbox {
    host.handle(Request {
        chat: chat.clone(),
        user: user.clone(),
        command,
    })
    .await
}

/// Opens a running table of three basic computer players through the host's commands, as an
/// admin would: new table, leave the own seat, three computer players, start.
async fn open_table(host: &Arc<Host>, i: usize) -> i64 {
    let chat = ChatRef::new(Platform::Local, format!("c{}", i % 100), format!("bench-{i}"));
    let admin = User {
        id: format!("admin{i}"),
        name: "Admin".into(),
        admin: true,
    };
    let out = ask(
        host,
        &chat,
        &admin,
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    let id = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::Public { buttons, .. } => buttons
                .iter()
                .flatten()
                .find_map(|b| Token::decode(&b.token).ok())
                .map(|t| t.table),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no table: {out:?}"));
    ask(host, &chat, &admin, Command::Leave).await;
    for _ in 0..3 {
        ask(host, &chat, &admin, Command::AddBot { level: Level::Basic }).await;
    }
    let out = ask(host, &chat, &admin, Command::Start).await;
    assert!(
        out.0.iter().any(|o| matches!(o, Out::Public { .. })),
        "table {i} did not start: {out:?}"
    );
    id
}

/// Opens tables `from..to` with `workers` at a time; returns their ids.
async fn open_tables(host: &Arc<Host>, from: usize, to: usize, workers: usize) -> Vec<i64> {
    let mut joins = Vec::new();
    for w in 0..workers {
        let host = host.clone();
        joins.push(tokio::spawn(async move {
            let mut ids = Vec::new();
            for i in (from + w..to).step_by(workers) {
                ids.push(open_table(&host, i).await);
            }
            ids
        }));
    }
    let mut ids = Vec::new();
    for j in joins {
        ids.extend(j.await.unwrap());
    }
    ids
}

fn config() -> HostConfig {
    HostConfig {
        bot_budget_ms: 20,
        ..HostConfig::default()
    }
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

/// The recovery half, in a process of its own so that its memory figure counts only the
/// recovered tables.
async fn recover_only(a: &Args) {
    let url = a.db.as_deref().expect("--db");
    let store = open(url, a.schema.as_deref()).await;
    let (host, _events) = Host::new(store, config());
    let before = rss_kib();
    let t = Instant::now();
    let out = host.recover().await.unwrap();
    let took = t.elapsed();
    let shown = out.0.len();
    drop(out);
    let after = rss_kib();
    let running = host.store().running_tables().await.unwrap().len();
    println!(
        "recovery: {running} running tables rebuilt and rendered ({shown} messages) in {:.2} s",
        took.as_secs_f64()
    );
    println!(
        "memory: VmRSS {:.1} MiB before, {:.1} MiB after: {:.1} KiB per running table",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        (after.saturating_sub(before)) as f64 / running.max(1) as f64
    );
}

#[tokio::main]
async fn main() {
    let a = args();
    if a.recover_only {
        return recover_only(&a).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let url =
        a.db.clone()
            .unwrap_or_else(|| dir.path().join("bench.db").display().to_string());
    let postgres = url.starts_with("postgres://") || url.starts_with("postgresql://");
    let schema = postgres.then(|| format!("bench_{}", std::process::id()));
    let store = open(&url, schema.as_deref()).await;
    let backend = store.backend_name();
    let (host, _events) = Host::new(store, config());

    let t = Instant::now();
    let ids = open_tables(&host, 0, a.tables, 64).await;
    println!(
        "{backend}: opened {} tables of 3 basic computer players through host commands in {:.1} s",
        ids.len(),
        t.elapsed().as_secs_f64()
    );

    // Every table plays its deals at once, one move per step.
    let interval = Duration::from_millis(a.interval_ms);
    let start = Instant::now();
    let mut joins = Vec::new();
    for (k, &id) in ids.iter().enumerate() {
        let host = host.clone();
        let deals = a.deals;
        // Spread the tables' first moves over one interval.
        let offset = interval.mul_f64(k as f64 / ids.len() as f64);
        joins.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(64 * deals);
            let mut next = tokio::time::Instant::now() + offset;
            while host.deals_done(id).await < deals {
                if !interval.is_zero() {
                    tokio::time::sleep_until(next).await;
                    next += interval;
                }
                let t = Instant::now();
                let out = host.step(id).await.expect("a computer move");
                let took = t.elapsed();
                let out = out.unwrap_or_else(|| panic!("table {id} has no computer player to act"));
                // Moves that end a deal also write its result and deal the next deal.
                let ends = out.0.iter().any(|o| matches!(o, Out::Post { .. }));
                lat.push((took, ends));
            }
            lat
        }));
    }
    let mut lat = Vec::new();
    for j in joins {
        lat.extend(j.await.unwrap());
    }
    let wall = start.elapsed();
    let mut ends: Vec<Duration> = lat.iter().filter(|l| l.1).map(|l| l.0).collect();
    let mut lat: Vec<Duration> = lat.into_iter().map(|l| l.0).collect();
    lat.sort();
    ends.sort();
    let offered = if interval.is_zero() {
        "as fast as answered".to_string()
    } else {
        format!(
            "each table asking every {} ms (~{:.0}/s offered)",
            a.interval_ms,
            ids.len() as f64 / interval.as_secs_f64()
        )
    };
    println!(
        "{backend}: {} tables x {} deals, {offered}: {} moves in {:.2} s = {:.0} moves/s; \
         latency per move p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ids.len(),
        a.deals,
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        pct(&lat, 0.5),
        pct(&lat, 0.99),
        pct(&lat, 1.0),
    );
    println!(
        "{backend}: of them {} moves that end a deal (result, next deal): p50 {:.1} ms, p99 {:.1} ms",
        ends.len(),
        pct(&ends, 0.5),
        pct(&ends, 0.99),
    );

    // Fill up to the running-table count, then recover them all in a fresh process.
    if a.running > ids.len() {
        let t = Instant::now();
        let more = open_tables(&host, ids.len(), a.running, 64).await;
        println!(
            "{backend}: opened {} more running tables in {:.1} s",
            more.len(),
            t.elapsed().as_secs_f64()
        );
    }
    drop(host);
    let exe = std::env::current_exe().unwrap();
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["--recover-only", "--db", &url]);
    if let Some(s) = &schema {
        cmd.args(["--schema", s]);
    }
    let status = cmd.status().unwrap();
    assert!(status.success(), "the recovery process failed");
}
