//! The binary's start-up contract: a clear error without a token, and `--help` naming every
//! setting.

use crate::fake;

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_stikis-telegram");

/// Runs the bot against `api` with `token` until it exits; (status, stdout, stderr).
fn run(args: &[&str], dir: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("TELEGRAM_API_URL")
        .env("DATABASE_URL", dir.join("t.db").to_str().unwrap())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_prints_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&["--version"], dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("stikis-telegram "), "{out}");
}

/// A refused token and an unreachable server are each one line on stderr, and the log on a
/// pipe has no colour codes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_or_no_network_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake::Fake::start().await;
    let url = fake.url.to_string();
    let d = dir.path().to_path_buf();
    let (code, out, err) =
        tokio::task::spawn_blocking(move || run(&["--token", fake::BAD_TOKEN, "--api-url", &url], &d))
            .await
            .unwrap();
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Telegram refused the token"), "{err}");
    assert!(!out.contains('\x1b'), "colour codes in a piped log: {out:?}");
    let d = dir.path().to_path_buf();
    let (code, _, err) = tokio::task::spawn_blocking(move || {
        run(&["--token", "123:OK", "--api-url", "http://127.0.0.1:9/"], &d)
    })
    .await
    .unwrap();
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot reach Telegram at http://127.0.0.1:9/"),
        "{err}"
    );
}

#[test]
fn without_a_token_the_bot_says_what_is_missing() {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis-telegram"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("TELEGRAM_BOT_TOKEN is not set"), "{err}");
}

#[test]
fn help_documents_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis-telegram"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for s in [
        "TELEGRAM_BOT_TOKEN",
        "DATABASE_URL",
        "TELEGRAM_API_URL",
        "--webhook-url",
        "--listen",
        "SIGTERM",
        "stikis.db",
    ] {
        assert!(help.contains(s), "--help lacks {s}:\n{help}");
    }
    // --hand-delay-ms says what it holds back now (issue 60): a hand the turn timer moved
    // for, not the hand of every player who just acted (redrawn at once today).
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let delay = words
        .split("--hand-delay-ms")
        .nth(1)
        .and_then(|d| d.split(" --").next())
        .unwrap_or_else(|| panic!("--help lacks --hand-delay-ms:\n{help}"));
    assert!(delay.contains("the turn timer moved for them"), "{delay}");
    assert!(
        delay.contains("The presser's hand and the next player's are always redrawn at once"),
        "{delay}"
    );
    assert!(!delay.contains("the hand of a player who just acted"), "{delay}");
}

/// `--log-json`: every log line is one JSON object with its level (here the warnings of the
/// retries before Telegram is found unreachable).
#[test]
fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(
        &[
            "--token",
            "123:OK",
            "--api-url",
            "http://127.0.0.1:9/",
            "--log-json",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(1), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty(), "no log lines: {err}");
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["level"].is_string() && v["timestamp"].is_string(), "{line}");
    }
}

/// A database that cannot be opened is named in the one line the bot says, so the operator
/// sees which path it tried.
#[test]
fn a_database_that_cannot_be_opened_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-dir").join("cards.db");
    let out = Command::new(BIN)
        .args(["--token", "1:x", "--api-url", "http://127.0.0.1:9"])
        .env("DATABASE_URL", bad.to_str().unwrap())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "cannot open the database (the SQLite file {})",
            bad.display()
        )),
        "{err}"
    );
}

/// A malformed `STIKIS_DB_POOL` stops the bot at once with one line saying what it wants,
/// before it waits for a PostgreSQL server (here none listens: it would wait forever).
#[test]
fn a_bad_pool_setting_is_one_clear_line_without_waiting_for_the_database() {
    let out = Command::new(BIN)
        .args(["--token", "1:x", "--api-url", "http://127.0.0.1:9"])
        .env(
            "DATABASE_URL",
            format!("postgres://stikis@127.0.0.1:{}/cards", free_port()),
        )
        .env("STIKIS_DB_POOL", "4,2")
        .env_remove("STIKIS_METRICS_LISTEN")
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad STIKIS_DB_POOL \"4,2\": give main,light,writers"),
        "{err}"
    );
    assert!(!err.contains("trying again"), "it did not wait: {err}");
}

/// `GET path` over HTTP/1.0: (status, body).
async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.0\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    (
        head.split_whitespace().nth(1).unwrap().parse().unwrap(),
        body.to_string(),
    )
}

/// A free port on 127.0.0.1, closed again: nothing listens there.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Makes `schema` in the test database at `url` (while it is reachable); returns the
/// server's address in the URL (`host:port`).
async fn own_schema(url: &str, schema: &str) -> String {
    stikis_host::store::Store::connect_postgres(url, Some(schema))
        .await
        .unwrap();
    url.split_once('@')
        .map(|(_, r)| r.split('/').next().unwrap().to_string())
        .unwrap()
}

/// `url` with its server `target` replaced by 127.0.0.1:`port` (a forwarder, or nothing),
/// in `schema`.
fn url_through(url: &str, target: &str, port: u16, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!(
        "{}{sep}options=-c%20search_path%3D{schema}",
        url.replacen(target, &format!("127.0.0.1:{port}"), 1)
    )
}

/// Started while its PostgreSQL does not answer, the bot waits for it instead of exiting:
/// its `/healthz` answers 503 saying what it waits for; once the server answers (a forwarder
/// to the test server opens on the port that was closed), the bot starts and is healthy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_started_while_postgres_is_down_waits_for_it_and_healthz_says_so() {
    let Some(url) = fake::postgres_url("a bot started while PostgreSQL is down") else {
        return;
    };
    // The run's own schema, made while the server is reachable.
    let schema = format!("tg_wait_{}", std::process::id());
    let target = own_schema(&url, &schema).await;
    let port = free_port();
    let down = url_through(&url, &target, port, &schema);
    let fake = fake::Fake::start().await;
    let mut s = stikis_telegram::Settings::new("123:TEST", &down);
    s.api_url = Some(fake.url.clone());
    let probe: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    s.metrics_listen = Some(probe);
    let starting = tokio::spawn(stikis_telegram::start(s));
    let mut said = None;
    let mut last = None;
    // A deadline only (a minute: the whole suite runs beside it on two cores); it ends as
    // soon as /healthz says so.
    for _ in 0..1200 {
        if let Ok(c) = tokio::net::TcpStream::connect(probe).await {
            drop(c);
            let (status, body) = get(probe, "/healthz").await;
            if status == 503 && body.contains("does not answer") {
                said = Some(body);
                break;
            }
            last = Some((status, body));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let said =
        said.unwrap_or_else(|| panic!("/healthz says 503 while the database is down; it said {last:?}"));
    assert!(said.contains(&format!("127.0.0.1:{port}")), "{said}");
    assert!(!said.contains("postgres://"), "the URL is not shown: {said}");
    if starting.is_finished() {
        panic!("the bot gave up: {:?}", starting.await.unwrap().err());
    }

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let forward = tokio::spawn(async move {
        loop {
            let (mut inbound, _) = listener.accept().await.unwrap();
            let target = target.clone();
            tokio::spawn(async move {
                let mut outbound = tokio::net::TcpStream::connect(target).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
        }
    });
    let running = starting
        .await
        .unwrap()
        .expect("the bot starts once the database answers");
    let addr = running.metrics_addr.expect("a metrics address");
    let mut healthy = false;
    for _ in 0..200 {
        if get(addr, "/healthz").await == (200, "ok\n".to_string()) {
            healthy = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(healthy, "{:?}", get(addr, "/healthz").await);
    running.shutdown().await;
    forward.abort();
}

/// A forwarder to PostgreSQL that can be cut (its connections closed, new ones refused) and
/// mended: the database away from the bot and back.
struct Cuttable {
    port: u16,
    open: std::sync::Arc<std::sync::atomic::AtomicBool>,
    links: std::sync::Arc<std::sync::Mutex<tokio::task::JoinSet<()>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Cuttable {
    async fn start(target: String) -> Cuttable {
        use std::sync::atomic::Ordering::SeqCst;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let links = std::sync::Arc::new(std::sync::Mutex::new(tokio::task::JoinSet::new()));
        let (o, l) = (open.clone(), links.clone());
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !o.load(SeqCst) {
                    continue; // closed at once
                }
                let target = target.clone();
                l.lock().unwrap().spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Cuttable {
            port,
            open,
            links,
            accept,
        }
    }

    fn cut(&self) {
        self.open.store(false, std::sync::atomic::Ordering::SeqCst);
        self.links.lock().unwrap().abort_all();
    }

    fn mend(&self) {
        self.open.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A command given while the bot's PostgreSQL does not answer is answered "try again" (not
/// after the outage: within the 20 s the fake waits, where the pool alone would wait 30 s)
/// and dropped: once the database is back, it is never carried out (no table opens from
/// it). `/help` needs no database and is answered as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_while_postgres_is_away_is_answered_try_again_and_never_carried_out_later() {
    use stikis_host::i18n::{t, Lang};
    const GROUP: i64 = -1_001;
    const ANNA: i64 = 11;
    let Some(url) = fake::postgres_url("a command while PostgreSQL is away") else {
        return;
    };
    let schema = format!("tg_away_{}", std::process::id());
    let target = own_schema(&url, &schema).await;
    let link = Cuttable::start(target.clone()).await;
    let through = url_through(&url, &target, link.port, &schema);
    let fake = fake::Fake::start().await;
    let mut s = stikis_telegram::Settings::new("123:TEST", &through);
    s.api_url = Some(fake.url.clone());
    let running = stikis_telegram::start(s).await.expect("the bot starts");
    link.cut();
    let unavailable = t(Lang::En, "store-unavailable", &[]);
    fake.say(GROUP, ANNA, "/zole 3", None);
    fake.said(GROUP, &unavailable).await;
    fake.say(ANNA, ANNA, "/help", None);
    fake.said(ANNA, &stikis_telegram::commands::help_text(Lang::En))
        .await;

    link.mend();
    // Back: a new command opens a table, and it is the only one the group ever saw.
    fake.say(GROUP, ANNA, "/zole 3", None);
    let opened = fake
        .until("a table opened once the database is back", |f| {
            f.messages(GROUP).into_iter().find(|m| !m.buttons.is_empty())
        })
        .await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let tables: Vec<_> = fake
        .messages(GROUP)
        .into_iter()
        .filter(|m| !m.buttons.is_empty())
        .collect();
    assert_eq!(
        tables.len(),
        1,
        "one table, the later command's: {tables:#?} (first: {opened:?})"
    );
    running.shutdown().await;
    link.accept.abort();
}
