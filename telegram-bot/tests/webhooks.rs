//! A webhook shared by several instances (issue 28): an instance stopped with SIGTERM leaves
//! the webhook registered, so the others go on taking Telegram's posts; webhook mode on
//! PostgreSQL, where several instances may run, refuses to start without the one secret they
//! must share. The binary runs against the fake Bot API server, as an operator runs it.

use crate::fake;

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake::Fake;

const BIN: &str = env!("CARGO_BIN_EXE_stikis-telegram");
const SECRET: &str = "shared-Secret_1";
const ANNA: i64 = 501;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// GET `path` on 127.0.0.1:`port`; the status code, or None when nothing answers.
fn get(port: u16, path: &str) -> Option<u16> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut reply = String::new();
    let _ = s.read_to_string(&mut reply);
    reply.split_whitespace().nth(1)?.parse().ok()
}

/// One `stikis-telegram` process in webhook mode: Telegram posts to `url`, it listens on its
/// own port and serves /healthz on another.
struct Instance {
    child: Child,
    metrics: u16,
}

impl Instance {
    fn start(fake: &Fake, db: &str, url: &str, listen: u16) -> Instance {
        let metrics = free_port();
        let child = Command::new(BIN)
            .args(["--token", "1:HOOK", "--api-url", fake.url.as_str()])
            .args(["--webhook-url", url, "--webhook-secret", SECRET])
            .args(["--listen", &format!("127.0.0.1:{listen}")])
            .args(["--metrics-listen", &format!("127.0.0.1:{metrics}")])
            .env("DATABASE_URL", db)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        Instance { child, metrics }
    }

    /// Waits until /healthz answers 200 (the instance has started).
    async fn ready(&mut self) {
        let t0 = Instant::now();
        loop {
            let port = self.metrics;
            if tokio::task::spawn_blocking(move || get(port, "/healthz"))
                .await
                .unwrap()
                == Some(200)
            {
                return;
            }
            assert!(self.child.try_wait().unwrap().is_none(), "the instance exited");
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the instance did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGTERM, and the time until the process has exited (successfully).
    async fn terminate(mut self) -> Duration {
        let t0 = Instant::now();
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status:?}");
                return t0.elapsed();
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "no exit 30 s after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The webhook calls (setWebhook, deleteWebhook) the fake took since the `from`-th call.
fn webhook_calls(fake: &Fake, from: usize) -> Vec<String> {
    fake.calls()[from..]
        .iter()
        .filter(|c| c.method.ends_with("Webhook"))
        .map(|c| c.method.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_instance_leaves_the_shared_webhook_to_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hook.db").to_str().unwrap().to_string();
    stopped_instances_leave_the_shared_webhook(&db).await;
}

/// The same on PostgreSQL (each instance closes its pools and says it is gone as it stops).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_stopped_instance_leaves_the_shared_webhook_to_the_others() {
    let Some(url) = crate::fake::postgres_url("the shared webhook on PostgreSQL") else {
        return;
    };
    let schema = format!("tg_hook_{}", std::process::id());
    stikis_host::store::Store::connect_postgres(&url, Some(&schema))
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    stopped_instances_leave_the_shared_webhook(&format!("{url}{sep}options=-c%20search_path%3D{schema}"))
        .await;
}

async fn stopped_instances_leave_the_shared_webhook(db: &str) {
    let db = db.to_string();
    let fake = Fake::start().await;
    // Two instances behind one URL; the "balancer" here sends every post to the second.
    let (a_port, b_port) = (free_port(), free_port());
    let url = format!("http://127.0.0.1:{b_port}/hook");
    let mut a = Instance::start(&fake, &db, &url, a_port);
    a.ready().await;
    let mut b = Instance::start(&fake, &db, &url, b_port);
    b.ready().await;
    // Each start registered the same URL and secret.
    assert_eq!(webhook_calls(&fake, 0), ["setWebhook", "setWebhook"]);
    let registered = Some((url::Url::parse(&url).unwrap(), Some(SECRET.to_string())));
    assert_eq!(fake.state.lock().unwrap().webhook, registered);

    let before = fake.calls().len();
    let took = a.terminate().await;
    println!(
        "an instance in webhook mode on {} stopped {} ms after SIGTERM",
        if db.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        took.as_millis()
    );
    assert_eq!(webhook_calls(&fake, before), Vec::<String>::new());
    assert_eq!(fake.state.lock().unwrap().webhook, registered);
    // The other instance still gets Telegram's posts and answers them.
    fake.say(ANNA, ANNA, "/help", None);
    fake.until("the other instance's answer to /help", |f| {
        (!f.messages(ANNA).is_empty()).then_some(())
    })
    .await;
    assert!(fake.state.lock().unwrap().delivered.iter().all(|&c| c == 200));

    // The last one leaves it registered too: Telegram keeps the updates for the next start.
    let before = fake.calls().len();
    let took = b.terminate().await;
    println!("the last instance stopped {} ms after SIGTERM", took.as_millis());
    assert_eq!(webhook_calls(&fake, before), Vec::<String>::new());
    assert_eq!(fake.state.lock().unwrap().webhook, registered);
    fake.assert_nothing_refused();
}

/// Runs the binary in webhook mode without a secret on `database_url` (TELEGRAM_WEBHOOK_SECRET
/// set to `env`, if given); (exit code, stderr, the fake's calls). Fails if it has not exited
/// within a minute (a deadline that only a bot waiting for something meets).
async fn start_without_a_secret(database_url: &str, env: Option<&str>) -> (Option<i32>, String, usize) {
    let fake = Fake::start().await;
    let url = format!("http://127.0.0.1:{}/hook", free_port());
    let mut c = Command::new(BIN);
    c.args(["--token", "1:HOOK", "--api-url", fake.url.as_str()])
        .args(["--webhook-url", &url])
        .env_remove("TELEGRAM_WEBHOOK_SECRET")
        .env("DATABASE_URL", database_url)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(secret) = env {
        c.env("TELEGRAM_WEBHOOK_SECRET", secret);
    }
    let mut child = c.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running a minute after its start on {database_url}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err, fake.calls().len())
}

const NEEDS_SECRET: &str =
    "stikis-telegram: webhook mode on PostgreSQL needs --webhook-secret or TELEGRAM_WEBHOOK_SECRET";

/// Checked before anything is connected: the line comes even when the database would never
/// answer. Here it is a port that takes connections and says nothing (a bot that connected
/// first would wait on it); none reached it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_on_postgres_without_a_secret_refuses_before_connecting() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let database_url = format!("postgres://stikis@{}/none", silent.local_addr().unwrap());
    // None, or empty (`TELEGRAM_WEBHOOK_SECRET=` in an environment file): no secret.
    for env in [None, Some("")] {
        let (code, err, calls) = start_without_a_secret(&database_url, env).await;
        assert_eq!(code, Some(1), "{env:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{env:?}: {err}");
        assert!(err.starts_with(NEEDS_SECRET), "{env:?}: {err}");
        assert_eq!(calls, 0, "the bot called Telegram before refusing");
    }
    // A connection made would wait in the listener's queue.
    silent.set_nonblocking(true).unwrap();
    match silent.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("the bot connected to the database before refusing: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_on_postgres_without_a_secret_exits_with_one_line() {
    let Some(pg) = fake::postgres_url("webhook mode on PostgreSQL without a secret") else {
        return;
    };
    let (code, err, calls) = start_without_a_secret(&pg, None).await;
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(NEEDS_SECRET), "{err}");
    assert_eq!(calls, 0, "the bot called Telegram before refusing");
}

/// On SQLite (one process) a random secret per start stays allowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_on_sqlite_starts_without_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let mut s = stikis_telegram::Settings::new("1:HOOK", dir.path().join("s.db").to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    s.mode = fake::webhook_mode(None).0;
    let running = stikis_telegram::start(s).await.unwrap();
    let secret = fake.state.lock().unwrap().webhook.clone().and_then(|(_, s)| s);
    assert!(
        secret.is_some_and(|s| !s.is_empty()),
        "no random secret registered"
    );
    running.shutdown().await;
    fake.assert_nothing_refused();
}
