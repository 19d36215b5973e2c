//! The web face's benchmark (issue 16): pages per second and latency of the boards page and
//! of the game viewer, over HTTP, with many finished games in the database while tables of
//! computer players play through the host in the same process.
//!
//!     cargo run --release -p stikis-web --example web_bench -- [options]
//!
//!   --db PATH|URL   SQLite file (default: a fresh file in a temp dir) or a postgres:// URL
//!                   (a fresh schema of that database is used)
//!   --games N       finished games in the database (default 100000): copies of one game of
//!                   two Zole deals, with its analysis, and six results rows each for the
//!                   boards (300 players in one community)
//!   --tables N      tables playing meanwhile (default 1000), each asking for its next
//!                   computer move every --interval-ms (default 300)
//!   --secs N        seconds per measured phase (default 15)
//!   --clients N     HTTP clients asking for pages back to back (default 8)
//!
//! Reports, per page (the boards of the current season; the page of a player seated in every
//! game; a random finished game's deal): pages
//! per second, latency p50 and p99, and the moves per second the playing tables made then.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rand::{Rng, SeedableRng};
use sqlx::Executor;
use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, CommunityRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, Host, HostConfig, Out, Request, User};

struct Args {
    db: Option<String>,
    games: usize,
    tables: usize,
    interval_ms: u64,
    secs: u64,
    clients: usize,
}

const USAGE: &str = "\
The web face's benchmark: pages per second and latency of the boards page and game viewer.

Usage: cargo run --release -p stikis-web --example web_bench -- [options]

  --db PATH|URL     SQLite file or postgres:// URL (default: a fresh SQLite file in a temp dir)
  --games N         finished games in the database (default 100000)
  --tables N        tables playing meanwhile (default 1000)
  --interval-ms N   ms between a table's computer moves (default 300)
  --secs N          seconds per measured phase (default 15)
  --clients N       HTTP clients asking for pages back to back (default 8)
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
        games: 100_000,
        tables: 1000,
        interval_ms: 300,
        secs: 15,
        clients: 8,
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
            "--games" => a.games = num(&k, v()),
            "--tables" => a.tables = num(&k, v()),
            "--interval-ms" => a.interval_ms = num(&k, v()),
            "--secs" => a.secs = num(&k, v()),
            "--clients" => a.clients = num(&k, v()),
            other => usage(Some(&format!("unknown option {other}"))),
        }
    }
    a
}

async fn ask(host: &Arc<Host>, chat: &ChatRef, user: &User, command: Command) -> stikis_host::Outbox {
    host.handle(Request {
        chat: chat.clone(),
        user: user.clone(),
        command,
    })
    .await
}

/// A running table of three basic computer players in community `c{i % 100}`.
async fn open_table(host: &Arc<Host>, i: usize) -> i64 {
    let chat = ChatRef::new(Platform::Local, format!("c{}", i % 100), format!("bench-{i}"));
    let admin = User {
        id: format!("admin{i}"),
        name: "Admin".into(),
        admin: true,
    };
    let new = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    let out = ask(host, &chat, &admin, new).await;
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
    ask(host, &chat, &admin, Command::Start).await;
    id
}

/// Copies the finished `template` table `games` times (ids template+1..), with its seats,
/// deals, actions and analyses, one game a minute further back each; and six results rows per
/// copy (two deals, three of 300 players) for the boards. Seat 0 of every copy is one person,
/// `user0`, counted in the stats: a player's page with 100,000 games behind it.
async fn fill(url: &str, schema: Option<&str>, template: i64, games: usize) {
    let postgres = schema.is_some();
    let n = format!(
        "WITH RECURSIVE n(i) AS (SELECT CAST(1 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i < {games}) "
    );
    let overriding = if postgres { "OVERRIDING SYSTEM VALUE" } else { "" };
    let statements = [
        format!(
            "{n}INSERT INTO tables (id, platform, community_id, chat_id, thread_id, game, rules, \
             creator_id, status, created_ms, updated_ms, seat_count, slot) {overriding} \
             SELECT {template} + n.i, platform, community_id, chat_id || '-' || n.i, thread_id, game, \
             rules, creator_id, 'finished', created_ms - n.i * 60000, updated_ms - n.i * 60000, \
             seat_count, slot FROM tables, n WHERE tables.id = {template}"
        ),
        format!(
            "{n}INSERT INTO seats (table_id, seat, user_id, display_name, bot_level, away) \
             SELECT {template} + n.i, seat, CASE seat WHEN 0 THEN 'user0' ELSE user_id END, \
             CASE seat WHEN 0 THEN 'Player 0' ELSE display_name END, \
             CASE seat WHEN 0 THEN NULL ELSE bot_level END, away FROM seats, n \
             WHERE table_id = {template}"
        ),
        format!(
            "INSERT INTO stats (platform, community_id, game, user_id, display_name, games, deals, \
             declarer_wins, points, pules_written, pules_removed) \
             SELECT platform, community_id, game, 'user0', 'Player 0', {games}, 2 * {games}, 0, 0, 0, 0 \
             FROM tables WHERE id = {template}"
        ),
        format!(
            "{n}INSERT INTO deals (table_id, deal_no, first_seq, seed_hex, commitment_hex, deal, at_ms) \
             SELECT {template} + n.i, deal_no, first_seq, seed_hex, commitment_hex, deal, at_ms \
             FROM deals, n WHERE table_id = {template}"
        ),
        format!(
            "{n}INSERT INTO actions (table_id, seq, payload, at_ms, process) \
             SELECT {template} + n.i, seq, payload, at_ms, process FROM actions, n \
             WHERE table_id = {template}"
        ),
        format!(
            "{n}INSERT INTO analyses (table_id, deal_no, analysis) \
             SELECT {template} + n.i, deal_no, analysis FROM analyses, n WHERE table_id = {template}"
        ),
        format!(
            "{n}INSERT INTO results (platform, community_id, game, user_id, display_name, table_id, \
             deal_no, points, declarer_win, at_ms) \
             SELECT t.platform, t.community_id, t.game, 'user' || ((n.i * 3 + s.seat) % 300), \
             'Player ' || ((n.i * 3 + s.seat) % 300), {template} + n.i, d.deal_no, \
             (n.i + s.seat + d.deal_no) % 7 - 3, 0, t.updated_ms - n.i * 60000 \
             FROM n, tables t, seats s, deals d WHERE t.id = {template} AND s.table_id = {template} \
             AND d.table_id = {template}"
        ),
    ];
    if postgres {
        let schema = schema.unwrap();
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .after_connect({
                let schema = schema.to_string();
                move |c, _| {
                    let schema = schema.clone();
                    Box::pin(async move {
                        c.execute(format!("SET search_path TO {schema}").as_str()).await?;
                        Ok(())
                    })
                }
            })
            .connect(url)
            .await
            .unwrap();
        for s in &statements {
            pool.execute(s.as_str()).await.unwrap();
        }
        pool.execute("SELECT setval(pg_get_serial_sequence('tables', 'id'), (SELECT MAX(id) FROM tables))")
            .await
            .unwrap();
        pool.execute("ANALYZE").await.unwrap();
    } else {
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(1)
            .connect(&format!("sqlite://{url}"))
            .await
            .unwrap();
        for s in &statements {
            pool.execute(s.as_str()).await.unwrap();
        }
        pool.execute("ANALYZE").await.unwrap();
    }
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let a = args();
    stikis_host::observe::init_logs(false);
    let dir = tempfile::tempdir().unwrap();
    let url =
        a.db.clone()
            .unwrap_or_else(|| dir.path().join("web_bench.db").display().to_string());
    let postgres = url.starts_with("postgres://") || url.starts_with("postgresql://");
    let schema = postgres.then(|| format!("web_bench_{}", std::process::id()));
    let store = if postgres {
        Store::connect_postgres(&url, schema.as_deref()).await.unwrap()
    } else {
        Store::open_sqlite(&url).await.unwrap()
    };
    let backend = store.backend_name();
    let config = HostConfig {
        bot_budget_ms: 20,
        ..HostConfig::default()
    };
    let (host, _events) = Host::new(store.clone(), config);

    // The template: one game of two deals, closed, analysed.
    let template = open_table(&host, 0).await;
    while host.deals_done(template).await < 2 {
        host.step(template).await.expect("a computer move");
    }
    let admin = User {
        id: "admin0".into(),
        name: "Admin".into(),
        admin: true,
    };
    let chat0 = ChatRef::new(Platform::Local, "c0", "bench-0");
    ask(&host, &chat0, &admin, Command::Stop).await;
    let log = store.table_log(template).await.unwrap();
    for (i, deal) in stikis_web::analyse(&log).iter().enumerate() {
        let json = serde_json::to_value(deal).unwrap();
        store.save_analysis(template, i + 1, &json).await.unwrap();
    }
    let t = Instant::now();
    fill(&url, schema.as_deref(), template, a.games).await;
    println!(
        "{backend}: {} finished games (with {} actions each) copied in {:.1} s",
        a.games,
        log.actions.len(),
        t.elapsed().as_secs_f64()
    );
    let token = store
        .web_token(&CommunityRef::new(Platform::Local, "c0"))
        .await
        .unwrap();

    // The playing tables, each asking for a computer move every interval.
    let t = Instant::now();
    let mut ids = Vec::new();
    for i in 1..=a.tables {
        ids.push(open_table(&host, i).await);
    }
    println!(
        "{backend}: {} playing tables opened in {:.1} s",
        ids.len(),
        t.elapsed().as_secs_f64()
    );
    let moves = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let interval = Duration::from_millis(a.interval_ms);
    for (k, &id) in ids.iter().enumerate() {
        let (host, moves, stop) = (host.clone(), moves.clone(), stop.clone());
        let offset = interval.mul_f64(k as f64 / ids.len() as f64);
        tokio::spawn(async move {
            let mut next = tokio::time::Instant::now() + offset;
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep_until(next).await;
                next += interval;
                if let Ok(Some(_)) = host.step(id).await {
                    moves.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
    }

    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store.clone(), None)
        .await
        .unwrap();
    let client: Client<_, Body> = Client::builder(TokioExecutor::new()).build_http();
    let first = template + 1;
    let last = template + a.games as i64;
    // The person seated in every copy: the dearest player's page.
    let player = stikis_web::player_key(&token, "user0");
    for page in ["boards", "player", "viewer"] {
        let before = moves.load(Ordering::Relaxed);
        let start = Instant::now();
        let end = start + Duration::from_secs(a.secs);
        let mut joins = Vec::new();
        for c in 0..a.clients {
            let (client, token, player) = (client.clone(), token.clone(), player.clone());
            let addr = web.addr;
            joins.push(tokio::spawn(async move {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(c as u64);
                let mut lat = Vec::new();
                while Instant::now() < end {
                    let path = match page {
                        "boards" => format!("/c/{token}/"),
                        "player" => format!("/c/{token}/p/{player}"),
                        _ => format!(
                            "/c/{token}/g/{}/{}",
                            rng.random_range(first..=last),
                            rng.random_range(1..=2)
                        ),
                    };
                    let uri = format!("http://{addr}{path}");
                    let t = Instant::now();
                    let res = client
                        .request(axum::http::Request::get(uri).body(Body::empty()).unwrap())
                        .await
                        .unwrap();
                    assert_eq!(res.status(), 200, "{path}");
                    let body = axum::body::to_bytes(Body::new(res.into_body()), usize::MAX)
                        .await
                        .unwrap();
                    assert!(body.len() > 1000);
                    lat.push(t.elapsed());
                }
                lat
            }));
        }
        let mut lat = Vec::new();
        for j in joins {
            lat.extend(j.await.unwrap());
        }
        let wall = start.elapsed().as_secs_f64();
        let made = moves.load(Ordering::Relaxed) - before;
        lat.sort();
        println!(
            "{backend}: {page}: {} pages in {wall:.1} s = {:.0} pages/s ({} clients); latency p50 {:.1} ms, \
             p99 {:.1} ms, max {:.1} ms; meanwhile {} tables made {:.0} moves/s",
            lat.len(),
            lat.len() as f64 / wall,
            a.clients,
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            pct(&lat, 1.0),
            ids.len(),
            made as f64 / wall,
        );
    }
    stop.store(true, Ordering::Relaxed);
    web.stop().await;
}
