//! The live table's benchmark (issue 27): many running tables, each seat's page connected to
//! its feed, taps sent over HTTP; the time from a tap to every other seat's page having the
//! new state, the server's memory per connected page and CPU per move.
//!
//!     cargo run --release -p stikis-web --example play_bench -- [options]
//!
//!   --tables N       running Zole tables of three people (default 1000), each seat's page
//!                    open: 3 pages a table
//!   --taps N         taps measured (default 3000), sent by --tappers clients at once
//!                    (default 4)
//!   --postgres URL   two server processes on one PostgreSQL database (a schema of its own,
//!                    dropped at the end) instead of one on SQLite
//!
//! Processes. The bench runs itself again as child processes (`--role`, not for people):
//!
//! - SQLite: this process is the server (host and web face, the tables opened in it); a
//!   second process holds the pages: it connects every seat's feed, and taps.
//! - `--postgres`: this process is server A (the tables are opened in it), a child process is
//!   server B on the same database (started after the tables, it recovers them as a
//!   restarted bot does), and a third process holds the pages: their feeds are B's, their
//!   taps go to A's web face, so a move reaches them only through the database (`NOTIFY`).
//!
//! The pages' process is a client as a browser is: it sees only what its feeds send. It taps
//! the seat whose page says it is its turn, what that page offers (a raised card, else "take",
//! else the first button), and waits until the other two seats' pages have the new state.
//!
//! Reports:
//! - tap to the other pages: p50, p99 and max (goal on PostgreSQL: p99 <= 250 ms);
//! - resident memory added per connected page in the server process that serves the feeds,
//!   measured from its `/proc/<pid>/statm` before the pages connect and once all have their
//!   first state (goal: <= 64 KiB), and the same for the pages' process, apart;
//! - CPU time per move of the server processes (and of the pages' process, apart);
//! - picks (a burial's first card: not a move, so not timed) that the seat's own page showed
//!   within 0.5 s. A pick a page does not show is remembered by the pages' process, which
//!   then taps another card, so the burial goes on.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use stikis_host::links::{play_key, play_secret, table_ref};
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, Host, HostConfig, Request, User};

const BOT_TOKEN: &str = "1:BENCH";

#[derive(Clone)]
struct Args {
    tables: usize,
    taps: usize,
    tappers: usize,
    postgres: Option<String>,
    /// Internal: what this process is (`server`, `clients`; none: the bench itself).
    role: Option<String>,
    schema: Option<String>,
    /// Internal, for the pages' process: the web face serving the feeds, and the one taps
    /// go to.
    feeds: String,
    press: String,
}

const USAGE: &str = "\
The live table's benchmark: time from a tap to the other seats' pages, memory per page, CPU per move.

Usage: cargo run --release -p stikis-web --example play_bench -- [options]

  --tables N       running Zole tables of three people, 3 pages each (default 1000)
  --taps N         taps measured (default 3000)
  --tappers N      clients sending taps at once (default 4)
  --postgres URL   two server processes on one PostgreSQL database (default: one on SQLite)
  --role ROLE      internal: server or clients, the bench's child processes (default: none)
  --schema NAME    internal: the PostgreSQL schema the children use (default: none)
  --feeds URL      internal: the web face serving the pages' feeds (default: none)
  --press URL      internal: the web face taps go to (default: none)
  -h, --help       print this text
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
        tables: 1000,
        taps: 3000,
        tappers: 4,
        postgres: None,
        role: None,
        schema: None,
        feeds: String::new(),
        press: String::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || {
            it.next()
                .unwrap_or_else(|| usage(Some(&format!("{k} needs a value"))))
        };
        match k.as_str() {
            "-h" | "--help" => usage(None),
            "--tables" => a.tables = num(&k, v()),
            "--taps" => a.taps = num(&k, v()),
            "--tappers" => a.tappers = num(&k, v()),
            "--postgres" => a.postgres = Some(v()),
            "--role" => match v().as_str() {
                r @ ("server" | "clients") => a.role = Some(r.to_string()),
                other => usage(Some(&format!("unknown role {other}"))),
            },
            "--schema" => a.schema = Some(v()),
            "--feeds" => a.feeds = v(),
            "--press" => a.press = v(),
            other => usage(Some(&format!("unknown option {other}"))),
        }
    }
    a
}

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

/// A running Zole table of three people (ids `t<i>s<seat>`, seated in that order), with no
/// turn limit.
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

/// Resident memory of process `pid`, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4
}

/// CPU time of process `pid` so far (user + system).
fn cpu(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the name.
    let field = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// A server: a host on `store` (its running tables recovered) and its web face with the live
/// table. The outboxes it gives the chat adapter are taken and dropped.
async fn serve(store: Store) -> (Arc<Host>, stikis_web::Listening) {
    let (host, mut events) = Host::new(store.clone(), HostConfig::default());
    host.recover().await.expect("recover");
    tokio::spawn(async move { while events.recv().await.is_some() {} });
    // Swept as a bot sweeps its host: its heartbeat, by which the other process counts it
    // live and is told which tables its pages follow (without it no move made in one process
    // reaches the other's pages), and the tables it comes to own.
    let swept = host.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(stikis_host::lobby::SWEEP_EVERY);
        loop {
            swept.sweep_due(&mut tick).await;
            let _ = swept.sweep(stikis_host::lobby::SWEEP_QUIET).await;
        }
    });
    let play = stikis_web::play::PlayConfig::new(host.clone(), BOT_TOKEN, true);
    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store, Some(play))
        .await
        .unwrap();
    (host, web)
}

/// This program again, as a child process in `role`; its lines on standard output are read
/// by a thread of their own.
struct Child {
    proc: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
}

impl Child {
    fn spawn(role: &str, extra: &[String]) -> Child {
        let mut proc = std::process::Command::new(std::env::current_exe().unwrap())
            .arg("--role")
            .arg(role)
            .args(extra)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the bench runs itself again");
        let out = proc.stdout.take().unwrap();
        let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Child {
            stdin: proc.stdin.take(),
            proc,
            lines,
        }
    }

    /// The child's next line that starts with `word`; the rest of it.
    async fn said(&mut self, word: &str) -> String {
        loop {
            let line = self
                .lines
                .recv()
                .await
                .unwrap_or_else(|| panic!("the child process ended before saying {word:?}"));
            if let Some(rest) = line.strip_prefix(word) {
                return rest.trim().to_string();
            }
        }
    }

    fn tell(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the child's input");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn pid(&self) -> u32 {
        self.proc.id()
    }

    /// Closes its input (a server child ends then) and waits for it.
    fn end(mut self) {
        drop(self.stdin.take());
        let _ = self.proc.wait();
    }
}

#[tokio::main]
async fn main() {
    let a = args();
    match a.role.as_deref() {
        None => bench(a).await,
        Some("server") => server_process(a).await,
        Some("clients") => clients_process(a).await,
        Some(other) => panic!("unknown role {other}"),
    }
}

/// Server B (`--postgres`): serves until its input closes.
async fn server_process(a: Args) {
    let url = a.postgres.expect("--postgres");
    let store = Store::connect_postgres(&url, a.schema.as_deref()).await.unwrap();
    let (_host, web) = serve(store).await;
    println!("listening {}", web.addr);
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
            line.clear();
        }
    })
    .await
    .unwrap();
    std::process::exit(0);
}

async fn bench(a: Args) {
    let dir = tempfile::tempdir().unwrap();
    let schema = format!(
        "bench_{}_{}",
        std::process::id(),
        stikis_host::store::now_ms() / 1000
    );
    let store = match &a.postgres {
        Some(url) => Store::connect_postgres(url, Some(&schema)).await.unwrap(),
        None => Store::open_sqlite(dir.path().join("play.db").to_str().unwrap())
            .await
            .unwrap(),
    };
    let (host, web) = serve(store).await;
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
    let me = std::process::id();
    // Server B, on PostgreSQL: the pages' feeds are its.
    let mut b = a.postgres.as_ref().map(|url| {
        Child::spawn(
            "server",
            &[
                "--postgres".into(),
                url.clone(),
                "--schema".into(),
                schema.clone(),
            ],
        )
    });
    let feeds = match &mut b {
        Some(b) => b.said("listening").await,
        None => web.addr.to_string(),
    };
    let feeds_pid = b.as_ref().map_or(me, Child::pid);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = resident_kib(feeds_pid);
    let mut clients = Child::spawn(
        "clients",
        &[
            "--feeds".into(),
            format!("http://{feeds}"),
            "--press".into(),
            format!("http://{}", web.addr),
            "--taps".into(),
            a.taps.to_string(),
            "--tappers".into(),
            a.tappers.to_string(),
        ],
    );
    clients.tell(&tables.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" "));
    let said = clients.said("connected").await;
    let mut words = said.split_whitespace().map(|w| w.parse::<u64>().unwrap());
    let (pages, client_kib) = (words.next().unwrap(), words.next().unwrap());
    // Let the feeds' first sends settle.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = resident_kib(feeds_pid);
    eprintln!("{pages} pages connected to {feeds}");

    let servers: Vec<u32> = [Some(me), b.as_ref().map(Child::pid)]
        .into_iter()
        .flatten()
        .collect();
    if b.is_some() {
        // Each process counts the other live from its second heartbeat: then the tables are
        // shared between them (a tap to A on a table B owns is handed to B), and B's pages
        // are followed at A. Another sweep's time for the follows to be told.
        let deadline = Instant::now() + Duration::from_secs(30);
        while tables.iter().all(|&t| host.owns(t)) {
            assert!(Instant::now() < deadline, "server B never counted live");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(2 * stikis_host::lobby::SWEEP_EVERY).await;
        let owned = tables.iter().filter(|&&t| host.owns(t)).count();
        eprintln!("{owned} of {} tables owned by A, the others by B", tables.len());
    }
    let cpu_of = |pids: &[u32]| pids.iter().map(|&p| cpu(p)).sum::<Duration>();
    let cpu0 = cpu_of(&servers);
    clients.tell("go");
    let done: serde_json::Value = serde_json::from_str(&clients.said("done").await).unwrap();
    let used = cpu_of(&servers).saturating_sub(cpu0);
    let moves = done["moves"].as_u64().unwrap();
    let per_move = |d: Duration| d.as_secs_f64() * 1000.0 / moves.max(1) as f64;
    let setup = match &a.postgres {
        Some(_) => "PostgreSQL, two server processes: taps to A, pages on B",
        None => "SQLite, one server process",
    };
    let server_page = after.saturating_sub(before) as f64 / pages.max(1) as f64;
    let client_page = client_kib as f64 / pages.max(1) as f64;
    println!(
        "{setup}; {} tables, {pages} pages connected: tap to the other pages p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({moves} moves in {:.1} s, {} not seen in 10 s, {} taps refused)",
        a.tables,
        done["p50"].as_f64().unwrap(),
        done["p99"].as_f64().unwrap(),
        done["max"].as_f64().unwrap(),
        done["wall_s"].as_f64().unwrap(),
        done["missed"],
        done["refused"],
    );
    println!(
        "picks (a burial's first card, not a move): {} shown on the seat's page within 0.5 s, {} not",
        done["picks_shown"], done["picks_unseen"]
    );
    println!(
        "memory: {server_page:.1} KiB resident per connected page in the server process serving the feeds (goal <= 64 KiB); the pages' own process {client_page:.1} KiB per page (together {:.1})",
        server_page + client_page
    );
    println!(
        "CPU per move: {:.2} ms in the server process{}, {:.2} ms in the pages' process",
        per_move(used),
        if servers.len() > 1 { "es" } else { "" },
        done["cpu_ms"].as_f64().unwrap() / moves.max(1) as f64,
    );
    let _ = clients.proc.wait();
    if let Some(b) = b {
        b.end();
    }
    web.abort();
    if let Some(url) = &a.postgres {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query(&format!("DROP SCHEMA \"{schema}\" CASCADE"))
            .execute(&mut conn)
            .await
            .unwrap();
    }
}

/// A connected page: its newest state and when each version reached it.
#[derive(Default)]
struct Page {
    version: i64,
    html: String,
    events: u64,
    seen: Vec<(i64, Instant)>,
}

type Pages = Arc<Mutex<HashMap<(usize, usize), Page>>>;

/// By table: its tapper's lock, with the card picked at a version.
type Busy = Arc<Vec<tokio::sync::Mutex<Option<(i64, String)>>>>;

/// Every `<button>` of a page that has a token: (class, token).
fn buttons(html: &str) -> Vec<(String, String)> {
    let attr = |tag: &str, name: &str| -> String {
        tag.split(&format!("{name}=\""))
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default()
            .replace("&amp;", "&")
            .replace("&quot;", "\"")
    };
    html.split("<button")
        .skip(1)
        .map(|b| {
            let tag = b.split('>').next().unwrap_or_default();
            (attr(tag, "class"), attr(tag, "data-token"))
        })
        .filter(|(_, t)| !t.is_empty())
        .collect()
}

fn action(token: &str) -> String {
    Token::decode(token).map(|t| t.action).unwrap_or_default()
}

/// What the taps came to besides their times.
#[derive(Default)]
struct Counts {
    /// Moves the other pages did not show within 10 s.
    missed: AtomicUsize,
    /// Taps answered with anything but "✓".
    refused: AtomicUsize,
    /// Picks (a burial's first card) the seat's own page showed within 0.5 s, and did not.
    picks_shown: AtomicUsize,
    picks_unseen: AtomicUsize,
}

/// The pages' process: every seat's feed, then (told `go`) the taps; says what it measured.
async fn clients_process(a: Args) {
    let me = std::process::id();
    let stdin = std::io::stdin();
    let mut line = String::new();
    stdin.read_line(&mut line).unwrap();
    let tables: Vec<i64> = line.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let secret = play_secret(BOT_TOKEN);
    let expires = stikis_host::store::now_ms() / 1000 + 3600;
    let key = |i: usize, seat: usize| play_key(&secret, tables[i], &format!("t{i}s{seat}"), expires);
    let client: Client<_, String> = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(usize::MAX)
        .build_http();
    let pages: Pages = Arc::default();
    let before = resident_kib(me);
    let mut count = 0;
    for (i, &table) in tables.iter().enumerate() {
        for s in 0..3 {
            let res = client
                .request(
                    axum::http::Request::get(format!(
                        "{}/play/{}/events?k={}",
                        a.feeds,
                        table_ref(&secret, table),
                        key(i, s)
                    ))
                    .body(String::new())
                    .unwrap(),
                )
                .await
                .expect("a feed");
            assert_eq!(res.status(), 200);
            let pages = pages.clone();
            let mut body = res.into_body();
            tokio::spawn(async move {
                let mut buf = String::new();
                while let Some(Ok(frame)) = body.frame().await {
                    let Ok(bytes) = frame.into_data() else { continue };
                    buf.push_str(&String::from_utf8_lossy(&bytes));
                    while let Some(end) = buf.find("\n\n") {
                        let block: String = buf.drain(..end + 2).collect();
                        let Some(v) = block
                            .lines()
                            .find_map(|l| l.strip_prefix("id: "))
                            .and_then(|v| v.parse::<i64>().ok())
                        else {
                            continue;
                        };
                        let html: Vec<&str> = block
                            .lines()
                            .filter_map(|l| l.strip_prefix("data: ").or(l.strip_prefix("data:")))
                            .collect();
                        let mut pages = pages.lock().unwrap();
                        let page = pages.entry((i, s)).or_default();
                        page.version = v;
                        page.html = html.join("\n");
                        page.events += 1;
                        page.seen.push((v, Instant::now()));
                    }
                }
            });
            count += 1;
        }
    }
    // Every page has its first state.
    let deadline = Instant::now() + Duration::from_secs(120);
    while pages.lock().unwrap().len() < count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connected = pages.lock().unwrap().len();
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!(
        "connected {connected} {}",
        resident_kib(me).saturating_sub(before)
    );
    line.clear();
    stdin.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "go");

    // The taps: each tapper takes tables in turn, taps on the page of the seat whose turn it
    // is what it offers, and waits until the other two pages have the new state.
    let cpu0 = cpu(me);
    let started = Instant::now();
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let counts = Arc::new(Counts::default());
    let next = Arc::new(AtomicUsize::new(0));
    // One tapper at a table at a time; with it the card the seat to act picked (a burial's
    // first) at that version, should its page not show the pick.
    let busy: Busy = Arc::new(tables.iter().map(|_| Default::default()).collect());
    let mut tappers = Vec::new();
    for _ in 0..a.tappers {
        let (pages, latencies, next, tables, client, busy) = (
            pages.clone(),
            latencies.clone(),
            next.clone(),
            tables.clone(),
            client.clone(),
            busy.clone(),
        );
        let counts = counts.clone();
        let (secret, press, taps) = (secret.clone(), a.press.clone(), a.taps);
        tappers.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Relaxed);
                if n >= taps {
                    return;
                }
                let i = n % tables.len();
                let mut picked = busy[i].lock().await;
                let table = tables[i];
                // The seat whose page says it is its turn, and what that page offers.
                let turn = {
                    let pages = pages.lock().unwrap();
                    (0..3).find_map(|s| {
                        let p = pages.get(&(i, s))?;
                        p.html
                            .contains("class=\"turn mine\"")
                            .then(|| (s, p.version, p.events, buttons(&p.html)))
                    })
                };
                let Some((seat, version, events, offered)) = turn else {
                    continue;
                };
                let remembered = picked
                    .as_ref()
                    .filter(|(v, _)| *v == version)
                    .map(|(_, c)| c.clone());
                let token = offered
                    .iter()
                    .find(|(c, t)| {
                        c.contains("play")
                            && !c.contains("picked")
                            && remembered.as_ref().is_none_or(|r| action(t)[2..] != r[..])
                    })
                    .or_else(|| offered.iter().find(|(_, t)| action(t) == "b:take"))
                    .or_else(|| offered.iter().find(|(c, _)| c.contains("act")));
                let Some((_, token)) = token else { continue };
                // The first card of a burial is picked: no move.
                let pick = action(token).starts_with("y:")
                    && !offered.iter().any(|(c, _)| c.contains("picked"))
                    && remembered.is_none();
                let key = play_key(&secret, table, &format!("t{i}s{seat}"), expires);
                let body =
                    serde_urlencoded::to_string([("k", key.as_str()), ("token", token.as_str())]).unwrap();
                let tap = Instant::now();
                let res = client
                    .request(
                        axum::http::Request::post(format!(
                            "{press}/play/{}/press",
                            table_ref(&secret, table)
                        ))
                        .header("content-type", "application/x-www-form-urlencoded")
                        .body(body)
                        .unwrap(),
                    )
                    .await
                    .expect("a tap");
                let ok = res.status() == 200;
                let answer = res.into_body().collect().await.unwrap().to_bytes();
                let reply: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_default();
                if !ok || reply["reply"] != "✓" {
                    eprintln!("table {table}: the tap was refused: {reply}");
                    counts.refused.fetch_add(1, Relaxed);
                    continue;
                }
                if pick {
                    *picked = Some((version, action(token)[2..].to_string()));
                }
                // A pick is not a move: its seat's page is redrawn, within a moment.
                let until = tap
                    + if pick {
                        Duration::from_millis(500)
                    } else {
                        Duration::from_secs(10)
                    };
                loop {
                    let (others, own) = {
                        let pages = pages.lock().unwrap();
                        let at = |s: usize| {
                            pages[&(i, s)]
                                .seen
                                .iter()
                                .find(|(v, _)| *v > version)
                                .map(|(_, t)| *t)
                        };
                        let others: Vec<Option<Instant>> = (0..3).filter(|&s| s != seat).map(at).collect();
                        let own = &pages[&(i, seat)];
                        (
                            others,
                            if pick {
                                own.events > events
                            } else {
                                own.version > version
                            },
                        )
                    };
                    if pick && own {
                        counts.picks_shown.fetch_add(1, Relaxed);
                        break;
                    }
                    if !pick && own && others.iter().all(Option::is_some) {
                        let last = others.into_iter().flatten().max().unwrap();
                        latencies
                            .lock()
                            .unwrap()
                            .push(last.saturating_duration_since(tap).as_secs_f64() * 1000.0);
                        break;
                    }
                    if Instant::now() > until && pick {
                        counts.picks_unseen.fetch_add(1, Relaxed);
                        break;
                    }
                    if Instant::now() > until {
                        eprintln!("table {table}: the move from version {version} did not reach the pages");
                        counts.missed.fetch_add(1, Relaxed);
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
    let mut l = latencies.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let done = serde_json::json!({
        "moves": l.len(),
        "p50": pct(&l, 0.5),
        "p99": pct(&l, 0.99),
        "max": pct(&l, 1.0),
        "wall_s": wall.as_secs_f64(),
        "missed": counts.missed.load(Relaxed),
        "refused": counts.refused.load(Relaxed),
        "picks_shown": counts.picks_shown.load(Relaxed),
        "picks_unseen": counts.picks_unseen.load(Relaxed),
        "cpu_ms": cpu(me).saturating_sub(cpu0).as_secs_f64() * 1000.0,
    });
    println!("done {done}");
    std::process::exit(0);
}
