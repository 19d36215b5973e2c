//! The live table's benchmark (issue 27): many running tables, each seat's page connected to
//! its feed, taps sent over HTTP; the time from a tap to every other seat's page having the
//! new state, memory per connected page and CPU per move.
//!
//!     cargo run --release -p stikis-web --example play_bench -- [options]
//!
//!   --tables N   running Zole tables of three people (default 1000), each seat's page open:
//!                3 pages a table
//!   --taps N     taps measured (default 3000), sent by --tappers clients at once (default 4)
//!
//! Reports: tap to the other pages p50, p99 and max; resident memory added per connected page
//! (the pages' client side is in the same process, so this is an upper bound); CPU time per
//! move (server and clients together: an upper bound too).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use stikis_host::links::{play_key, play_secret};
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, Host, HostConfig, Request, User};

const BOT_TOKEN: &str = "1:BENCH";

struct Args {
    tables: usize,
    taps: usize,
    tappers: usize,
}

fn args() -> Args {
    let mut a = Args {
        tables: 1000,
        taps: 3000,
        tappers: 4,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--tables" => a.tables = v().parse().expect("--tables N"),
            "--taps" => a.taps = v().parse().expect("--taps N"),
            "--tappers" => a.tappers = v().parse().expect("--tappers N"),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

/// When each page (table, seat) was sent each version.
type Seen = Arc<Mutex<HashMap<(i64, usize), Vec<(i64, Instant)>>>>;

fn person(id: String) -> User {
    User {
        name: id.clone(),
        id,
        admin: true,
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

/// A running Zole table of three people (ids `t<i>s<seat>`), with no turn limit.
async fn open_table(host: &Arc<Host>, i: usize) -> i64 {
    let chat = ChatRef::new(
        Platform::Telegram,
        format!("g{}", i % 100),
        format!("-{}", 1000 + i),
    );
    let people: Vec<User> = (0..3).map(|s| person(format!("t{i}s{s}"))).collect();
    ask(host, &chat, &people[0], Command::SetTurnLimit(None)).await;
    ask(
        host,
        &chat,
        &people[0],
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    for p in &people[1..] {
        ask(host, &chat, p, Command::Join).await;
    }
    let out = ask(host, &chat, &people[0], Command::Start).await;
    out.0
        .iter()
        .find_map(|o| match o {
            stikis_host::Out::Private { key, .. } => key.strip_prefix('t')?.split('.').next()?.parse().ok(),
            _ => None,
        })
        .expect("the table started")
}

fn resident_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4
}

/// CPU time of this process so far (user + system).
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the name.
    let field = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let a = args();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(dir.path().join("play.db").to_str().unwrap())
        .await
        .unwrap();
    let (host, mut events) = Host::new(store.clone(), HostConfig::default());
    // The chat adapter's side: what the pages' moves ask the chat to show is taken and dropped.
    tokio::spawn(async move { while events.recv().await.is_some() {} });
    let play = stikis_web::play::PlayConfig::new(host.clone(), BOT_TOKEN, true);
    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store.clone(), Some(play))
        .await
        .unwrap();
    let addr = web.addr;
    let t0 = Instant::now();
    let mut tables = Vec::new();
    for i in 0..a.tables {
        tables.push(open_table(&host, i).await);
    }
    eprintln!(
        "{} tables opened in {:.1} s",
        a.tables,
        t0.elapsed().as_secs_f64()
    );

    let secret = play_secret(BOT_TOKEN);
    let expires = stikis_host::store::now_ms() / 1000 + 3600;
    let seen: Seen = Arc::default();
    let client: Client<_, String> = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(usize::MAX)
        .build_http();
    let before = resident_kib();
    let mut pages = 0;
    for (i, &table) in tables.iter().enumerate() {
        for s in 0..3 {
            let key = play_key(&secret, table, &format!("t{i}s{s}"), expires);
            let res = client
                .request(
                    axum::http::Request::get(format!("http://{addr}/play/{table}/events?k={key}"))
                        .body(String::new())
                        .unwrap(),
                )
                .await
                .expect("a feed");
            assert_eq!(res.status(), 200);
            let seen = seen.clone();
            let mut body = res.into_body();
            tokio::spawn(async move {
                let mut buf = String::new();
                while let Some(Ok(frame)) = body.frame().await {
                    let Ok(bytes) = frame.into_data() else { continue };
                    buf.push_str(&String::from_utf8_lossy(&bytes));
                    while let Some(end) = buf.find("\n\n") {
                        let block: String = buf.drain(..end + 2).collect();
                        if let Some(v) = block
                            .lines()
                            .find_map(|l| l.strip_prefix("id: "))
                            .and_then(|v| v.parse::<i64>().ok())
                        {
                            seen.lock()
                                .unwrap()
                                .entry((table, s))
                                .or_default()
                                .push((v, Instant::now()));
                        }
                    }
                }
            });
            pages += 1;
        }
    }
    // Every page has its first state.
    let deadline = Instant::now() + Duration::from_secs(120);
    while seen.lock().unwrap().len() < pages && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connected = seen.lock().unwrap().len();
    let after = resident_kib();
    eprintln!("{connected} of {pages} pages connected");

    // The taps: each tapper takes tables in turn, plays the seat to act's first offer over
    // HTTP, and waits until the other two seats' pages have the new state.
    let cpu0 = cpu();
    let started = Instant::now();
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tappers = Vec::new();
    for _ in 0..a.tappers {
        let (host, seen, latencies, next, tables, client) = (
            host.clone(),
            seen.clone(),
            latencies.clone(),
            next.clone(),
            tables.clone(),
            client.clone(),
        );
        let secret = secret.clone();
        let taps = a.taps;
        tappers.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if n >= taps {
                    return;
                }
                let i = n % tables.len();
                let table = tables[i];
                let view = host.table_view(table, None).await.unwrap().expect("running");
                let Some(seat) = view.to_act else { continue };
                let user = format!("t{i}s{seat}");
                let mine = host.table_view(table, Some(&user)).await.unwrap().unwrap();
                let token = mine
                    .hand
                    .iter()
                    .find(|h| !h.picked)
                    .and_then(|h| h.token.clone())
                    .or_else(|| {
                        mine.buttons
                            .iter()
                            .flatten()
                            .find(|b| Token::decode(&b.token).is_ok_and(|t| t.action == "b:take"))
                            .map(|b| b.token.clone())
                    })
                    .or_else(|| {
                        mine.buttons
                            .first()
                            .and_then(|r| r.first())
                            .map(|b| b.token.clone())
                    });
                let Some(token) = token else { continue };
                let key = play_key(&secret, table, &user, expires);
                let body =
                    serde_urlencoded::to_string([("k", key.as_str()), ("token", token.as_str())]).unwrap();
                let tap = Instant::now();
                let res = client
                    .request(
                        axum::http::Request::post(format!("http://{addr}/play/{table}/press"))
                            .header("content-type", "application/x-www-form-urlencoded")
                            .body(body)
                            .unwrap(),
                    )
                    .await
                    .expect("a tap");
                let _ = res.into_body().collect().await;
                let version = host
                    .table_view(table, None)
                    .await
                    .unwrap()
                    .map_or(0, |v| v.version);
                if version == view.version {
                    continue; // a pick: not a move
                }
                let others: Vec<usize> = (0..3).filter(|&s| s != seat as usize).collect();
                let until = Instant::now() + Duration::from_secs(10);
                loop {
                    let got: Vec<Option<Instant>> = {
                        let seen = seen.lock().unwrap();
                        others
                            .iter()
                            .map(|&s| {
                                seen.get(&(table, s))
                                    .and_then(|v| v.iter().find(|(ver, _)| *ver >= version).map(|(_, t)| *t))
                            })
                            .collect()
                    };
                    if got.iter().all(Option::is_some) {
                        let last = got.into_iter().flatten().max().unwrap();
                        latencies
                            .lock()
                            .unwrap()
                            .push(last.saturating_duration_since(tap));
                        break;
                    }
                    if Instant::now() > until {
                        eprintln!("table {table}: version {version} did not reach the other pages");
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
        }));
    }
    for t in tappers {
        t.await.unwrap();
    }
    let wall = started.elapsed();
    let used = cpu().saturating_sub(cpu0);
    let mut l = latencies.lock().unwrap().clone();
    l.sort();
    println!(
        "{} tables, {connected} pages connected: tap to the other pages p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} moves in {:.1} s)",
        a.tables,
        pct(&l, 0.5),
        pct(&l, 0.99),
        pct(&l, 1.0),
        l.len(),
        wall.as_secs_f64()
    );
    println!(
        "memory: {:.1} KiB resident per connected page (server and client); CPU {:.2} ms per move (server and clients)",
        (after.saturating_sub(before)) as f64 / connected.max(1) as f64,
        used.as_secs_f64() * 1000.0 / l.len().max(1) as f64
    );
    web.abort();
}
