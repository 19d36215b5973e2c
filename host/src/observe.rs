//! Observability both bots share: metrics through the `metrics` facade, rendered in the
//! Prometheus text format (served at `/metrics` and `/healthz` by `stikis_web::probe`, the
//! listener of `--metrics-listen`: the host has no HTTP code).
//!
//! [`METRICS`] is the one list of what a process exposes: each metric's name, kind, labels,
//! help text (the exporter's `# HELP` line) and histogram buckets. The recorder is described
//! and bucketed from it, docs/operations.md lists it, and the tests check that the Grafana
//! dashboard and the alert rules in `deploy/` name only metrics in it.
//!
//! Metrics (all prefixed `stikis_`). Per process unless named `db_…` (database-wide: every
//! instance reports the same value, so aggregate those with `max`, never `sum`):
//! - `actions_total{game}`: moves this process committed; `deals_total{game}`: deals it
//!   finished
//! - `move_seconds{outcome}`: a button press from its request to its outbox; `outcome` is
//!   `applied`, `selected` (half of a choice kept), `stale`, `refused`, `error` (the store
//!   failed: "try again") or `lobby` (a lobby or tournament button). Buckets 1 ms to 120 s
//! - `computer_think_seconds`: a computer player's choice (buckets 10 µs to 1 s)
//! - `db_commit_seconds`: committing a run of actions (a person's move and the computer
//!   players' after it; durable on return)
//! - `platform_calls_total{platform, method, status}`: chat API calls by outcome (`ok`,
//!   `429`, an HTTP status, `network`, `api`, `error`), the start's calls included
//! - `platform_retry_seconds{platform}`: how long the bot waited before a retry (429s'
//!   `retry_after`, network back-off)
//! - `tables_in_memory`: tables this process holds (lobbies and running tables)
//! - `tables_moved_here`: tables this process committed a move at in the last minute (the
//!   tables it drives; summed over instances, about the active tables)
//! - `table_takeovers_total{reason}`: this process took up a table another one was running:
//!   `owner_changed` (this process became its owner), `dead_process` (its last mover stopped
//!   beating), `quiet` (nothing happened at it for a
//!   while), `moved_elsewhere` (its copy here was behind moves made elsewhere), `conflict`
//!   (another process committed the same move number first)
//! - `store_errors_total{op, kind}`: database failures, by where they were met (`request`,
//!   `heartbeat`, `sweep`, `takeover`, `timer`, `recover`, `remember`, `listen`, `scrape`)
//!   and kind (`pool_timeout`, `connection`, `database`, `commit`, `corrupt`, `other`)
//! - `presses_handed_over_total{outcome}`: presses handed to the process that owns their
//!   table (`answered`, `unanswered`, `found_in_log`, `owner_gone` where they arrived;
//!   `taken`, `late` at the owner)
//! - `peer_messages_total{way}`: messages to another process (handed presses, their
//!   answers, open live pages) sent `straight` (over a connection between the processes) or
//!   through the `database` (`NOTIFY`: the process gives no address, or cannot be reached)
//! - `peer_connections_total{outcome}`: connections between processes: `open`,
//!   `unreachable` (this process could not reach another), `refused` (one that did not greet
//!   with this process's secret)
//! - `store_retries_total{op}`: a database operation tried again (`open`, `migrate`,
//!   `remember`, `listen`)
//! - `heartbeats_total{outcome}` (`ok`, `error`) and
//!   `heartbeat_last_ok_timestamp_seconds`: this process's heartbeat in the `processes` table
//! - `db_pool_connections{pool, state}` (`main`/`writer`, `idle`/`busy`),
//!   `db_pool_max_connections{pool}` and `db_pool_acquire_seconds{op}` (`append`, `heartbeat`):
//!   the connection pool and how long taking a connection from it waited
//! - `db_tables_running`, `db_processes_alive`: running tables and processes with a fresh
//!   heartbeat in the database, read at each scrape (database-wide)
//! - `play_presses_total`, `play_feeds_total`, `play_refused_total{reason}`: the live table's
//!   web page (`stikis_web::play`)
//!
//! No label holds a user, chat or table id: every label has a few known values.
//!
//! `/healthz` answers 200 when the database answers and the platform connection is up, and
//! 503 naming what is not.

use std::cell::Cell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// What a metric is, as the exporter's `# TYPE` line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Counter,
    Gauge,
    Histogram,
}

/// One metric a process exposes.
#[derive(Debug, Clone, Copy)]
pub struct Metric {
    pub name: &'static str,
    pub kind: Kind,
    /// Its label names (each with a few known values).
    pub labels: &'static [&'static str],
    /// The `# HELP` line.
    pub help: &'static str,
    /// A histogram's bucket bounds in seconds.
    pub buckets: &'static [f64],
}

/// Latencies that may include a database outage's wait: 1 ms to two minutes.
const LATENCY: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0,
];
/// A computer player's choice: most take microseconds, a search up to its budget (300 ms).
const THINK: &[f64] = &[
    0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.3,
    1.0,
];
/// Taking a connection from the pool: at once when one is idle.
const ACQUIRE: &[f64] = &[
    0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
/// Waits before a chat API call is tried again (network back-off, a 429's `retry_after`).
const RETRY_WAIT: &[f64] = &[0.1, 0.2, 0.4, 0.8, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

const fn m(name: &'static str, kind: Kind, labels: &'static [&'static str], help: &'static str) -> Metric {
    Metric {
        name,
        kind,
        labels,
        help,
        buckets: &[],
    }
}

const fn h(
    name: &'static str,
    labels: &'static [&'static str],
    buckets: &'static [f64],
    help: &'static str,
) -> Metric {
    Metric {
        name,
        kind: Kind::Histogram,
        labels,
        help,
        buckets,
    }
}

/// Every metric a process exposes: the one list the recorder, the docs and the deploy files'
/// test follow.
pub const METRICS: &[Metric] = &[
    m(
        "stikis_actions_total",
        Kind::Counter,
        &["game"],
        "Moves (actions) this process committed to the log, by game.",
    ),
    m(
        "stikis_deals_total",
        Kind::Counter,
        &["game"],
        "Deals this process finished, by game.",
    ),
    h(
        "stikis_move_seconds",
        &["outcome"],
        LATENCY,
        "A button press from its request to its answer, by outcome: applied, selected (half of a choice kept), stale, refused, error (the database failed; try again), lobby (a lobby or tournament button); handed (counted where it arrived: handed to its table's owner, whose answer it waited for, the owner counting its outcome).",
    ),
    h(
        "stikis_computer_think_seconds",
        &[],
        THINK,
        "Time a computer player took to choose its move.",
    ),
    h(
        "stikis_db_commit_seconds",
        &[],
        LATENCY,
        "Committing a run of actions to the log (a move and the computer players' moves after it; durable on return), including the wait for its group commit.",
    ),
    m(
        "stikis_platform_calls_total",
        Kind::Counter,
        &["platform", "method", "status"],
        "Chat API calls (start-up calls included) by platform, method and outcome: ok, 429, another HTTP status, network, api (refused), error.",
    ),
    h(
        "stikis_platform_retry_seconds",
        &["platform"],
        RETRY_WAIT,
        "Waits before a chat API call was tried again (a 429's retry_after, network back-off).",
    ),
    m(
        "stikis_tables_in_memory",
        Kind::Gauge,
        &[],
        "Tables (lobbies and running) this process holds in memory.",
    ),
    m(
        "stikis_tables_moved_here",
        Kind::Gauge,
        &[],
        "Tables this process committed a move at in the last minute (the tables it drives; the sum over instances counts a table moved by two processes twice).",
    ),
    m(
        "stikis_table_takeovers_total",
        Kind::Counter,
        &["reason"],
        "Tables this process took up from another process, by reason: owner_changed (this process became its owner: the live processes changed, or another process started it), dead_process (its last mover stopped beating), quiet (nothing happened for a while), moved_elsewhere (the copy here was behind), conflict (another process committed the same move number first).",
    ),
    m(
        "stikis_store_errors_total",
        Kind::Counter,
        &["op", "kind"],
        "Database failures by where they were met (request, heartbeat, sweep, takeover, timer, recover, remember, listen, scrape) and kind (pool_timeout, connection, database, commit, corrupt, other).",
    ),
    m(
        "stikis_presses_handed_over_total",
        Kind::Counter,
        &["outcome"],
        "Presses handed between processes because another process owns the table: answered, unanswered (answered \"try again\") found_in_log (no answer came, but the log holds the move: answered as applied) and owner_gone (the owner went while the press waited: handed to the new owner) where they arrived, taken and late (past their time limit, dropped) at the owner.",
    ),
    m(
        "stikis_peer_messages_total",
        Kind::Counter,
        &["way"],
        "Messages to another process (handed presses, their answers, open live pages): straight (over a connection between the processes) or database (through PostgreSQL NOTIFY: the process gives no address, or cannot be reached).",
    ),
    m(
        "stikis_peer_connections_total",
        Kind::Counter,
        &["outcome"],
        "Connections between processes: open, unreachable (this process could not reach another: told through the database for 10 s), refused (a connection that did not greet with this process's secret).",
    ),
    m(
        "stikis_store_retries_total",
        Kind::Counter,
        &["op"],
        "Database operations tried again after a failure (open, migrate, remember, listen).",
    ),
    m(
        "stikis_heartbeats_total",
        Kind::Counter,
        &["outcome"],
        "This process's heartbeats written to the processes table, by outcome (ok, error).",
    ),
    m(
        "stikis_heartbeat_last_ok_timestamp_seconds",
        Kind::Gauge,
        &[],
        "Unix time of this process's last heartbeat that the database took.",
    ),
    m(
        "stikis_db_pool_connections",
        Kind::Gauge,
        &["pool", "state"],
        "Connections of this process's database pools (main; writer: SQLite's one writing connection) by state (idle, busy).",
    ),
    m(
        "stikis_db_pool_max_connections",
        Kind::Gauge,
        &["pool"],
        "The most connections each database pool of this process may open.",
    ),
    h(
        "stikis_db_pool_acquire_seconds",
        &["op"],
        ACQUIRE,
        "How long taking a connection from the pool waited, for the action log's commits (append) and the heartbeat (heartbeat).",
    ),
    m(
        "stikis_db_tables_running",
        Kind::Gauge,
        &[],
        "Running tables in the database, every instance's (database-wide: aggregate with max, not sum).",
    ),
    m(
        "stikis_db_processes_alive",
        Kind::Gauge,
        &[],
        "Processes whose heartbeat in the database is fresh (database-wide: aggregate with max, not sum).",
    ),
    m(
        "stikis_play_presses_total",
        Kind::Counter,
        &[],
        "Moves made on the live table's web page.",
    ),
    m(
        "stikis_play_feeds_total",
        Kind::Counter,
        &[],
        "Live table pages that opened their event stream.",
    ),
    m(
        "stikis_play_refused_total",
        Kind::Counter,
        &["reason"],
        "Live table page requests refused, by reason (forged, expired, othertable, init_data_...).",
    ),
];

/// The process's Prometheus recorder, installed on first use (one per process: several bots
/// in one process, as in tests, share it), every metric of `METRICS` described and bucketed.
/// None if another recorder was installed first. The bots install it before their first
/// platform call, so the start's calls are counted.
pub fn recorder() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let mut builder = PrometheusBuilder::new().set_buckets(LATENCY).ok()?;
            for metric in METRICS.iter().filter(|m| !m.buckets.is_empty()) {
                builder = builder
                    .set_buckets_for_metric(Matcher::Full(metric.name.to_string()), metric.buckets)
                    .ok()?;
            }
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            describe();
            Some(handle)
        })
        .clone()
}

fn describe() {
    for metric in METRICS {
        match metric.kind {
            Kind::Counter => metrics::describe_counter!(metric.name, metric.help),
            Kind::Gauge => metrics::describe_gauge!(metric.name, metric.help),
            Kind::Histogram => metrics::describe_histogram!(metric.name, metric.help),
        }
    }
    // Shown as 0 from the start, so that a dashboard shows no takeovers rather than no data.
    for reason in [
        "dead_process",
        "quiet",
        "moved_elsewhere",
        "conflict",
        "owner_changed",
    ] {
        metrics::counter!("stikis_table_takeovers_total", "reason" => reason).increment(0);
    }
    for outcome in ["answered", "unanswered", "found_in_log", "taken", "late"] {
        metrics::counter!("stikis_presses_handed_over_total", "outcome" => outcome).increment(0);
    }
    for way in ["straight", "database"] {
        metrics::counter!("stikis_peer_messages_total", "way" => way).increment(0);
    }
    for outcome in ["open", "unreachable", "refused"] {
        metrics::counter!("stikis_peer_connections_total", "outcome" => outcome).increment(0);
    }
    metrics::gauge!("stikis_tables_in_memory").set(0.0);
    metrics::gauge!("stikis_tables_moved_here").set(0.0);
}

/// Times a piece of work into a histogram.
pub struct Timer(Instant);

impl Timer {
    pub fn start() -> Timer {
        Timer(Instant::now())
    }

    pub fn elapsed(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

/// One chat API call and how it ended.
pub fn platform_call(platform: &'static str, method: &str, status: &str) {
    metrics::counter!(
        "stikis_platform_calls_total",
        "platform" => platform,
        "method" => method.to_string(),
        "status" => status.to_string()
    )
    .increment(1);
}

/// A wait before retrying a chat API call.
pub fn platform_retry(platform: &'static str, wait: Duration) {
    metrics::histogram!("stikis_platform_retry_seconds", "platform" => platform).record(wait.as_secs_f64());
}

tokio::task_local! {
    static MOVE_OUTCOME: Cell<&'static str>;
}

/// Runs the handling of one request, returning what it said of its outcome
/// (`move_outcome`; `other` if it said nothing).
pub async fn with_move_outcome<T>(work: impl Future<Output = T>) -> (T, &'static str) {
    MOVE_OUTCOME
        .scope(Cell::new("other"), async {
            let r = work.await;
            (r, MOVE_OUTCOME.with(Cell::get))
        })
        .await
}

/// What became of the press being handled (see `move_seconds`); nothing outside
/// `with_move_outcome`.
pub fn move_outcome(outcome: &'static str) {
    let _ = MOVE_OUTCOME.try_with(|c| c.set(outcome));
}

/// A press's latency and outcome.
pub fn move_seconds(outcome: &'static str, seconds: f64) {
    metrics::histogram!("stikis_move_seconds", "outcome" => outcome).record(seconds);
}

/// This process took up a table another process was running (see `table_takeovers_total`).
pub fn takeover(reason: &'static str) {
    metrics::counter!("stikis_table_takeovers_total", "reason" => reason).increment(1);
}

/// Counts one host's tables in memory; None once the host is gone.
type TableCount = Box<dyn Fn() -> Option<usize> + Send + Sync>;

/// The hosts of this process (one in a bot; tests may run several), for `tables_in_memory`.
static TABLE_COUNTS: Mutex<Vec<TableCount>> = Mutex::new(Vec::new());

/// Adds a host's count of its tables in memory to `tables_in_memory` (see `refresh`).
pub fn count_tables_in_memory(count: impl Fn() -> Option<usize> + Send + Sync + 'static) {
    if let Ok(mut counts) = TABLE_COUNTS.lock() {
        counts.push(Box::new(count));
    }
}

/// How long a table counts in `tables_moved_here` after this process's last move at it.
const MOVED_HERE_FOR: Duration = Duration::from_secs(60);

/// When this process last committed a move at each table it moved lately.
static MOVED_HERE: Mutex<Option<HashMap<i64, Instant>>> = Mutex::new(None);

/// This process committed a move at `table`.
pub fn moved_here(table: i64) {
    if let Ok(mut m) = MOVED_HERE.lock() {
        m.get_or_insert_with(HashMap::new).insert(table, Instant::now());
    }
}

/// Brings the gauges that are computed rather than counted up to date (`tables_in_memory`,
/// `tables_moved_here`); before each scrape, and at each sweep (which also keeps their memory
/// small).
pub fn refresh() {
    if let Ok(mut counts) = TABLE_COUNTS.lock() {
        let mut total = 0;
        counts.retain(|count| count().inspect(|n| total += n).is_some());
        metrics::gauge!("stikis_tables_in_memory").set(total as f64);
    }
    if let Ok(mut m) = MOVED_HERE.lock() {
        let m = m.get_or_insert_with(HashMap::new);
        m.retain(|_, at| at.elapsed() < MOVED_HERE_FOR);
        metrics::gauge!("stikis_tables_moved_here").set(m.len() as f64);
    }
}

/// A failure the store-error counter classes (see `store_errors_total`): the store's own
/// errors, and the host's that wrap one. Each says its class; the metrics know no error type
/// (the store and the host report to them, never the other way round).
pub trait Failure {
    /// The class of store failure it is (`pool_timeout`, `connection`, `database`, `commit`,
    /// `late`, `corrupt`, `other`), or None when it is no store failure.
    fn store_kind(&self) -> Option<&'static str>;
}

/// A store failure met at `op` (see `store_errors_total`).
pub fn store_error(op: &'static str, e: &dyn Failure) {
    if let Some(kind) = e.store_kind() {
        metrics::counter!("stikis_store_errors_total", "op" => op, "kind" => kind).increment(1);
    }
}

/// A host failure met at `op`: counted if the store failed.
pub fn host_error(op: &'static str, e: &dyn Failure) {
    store_error(op, e);
}

/// A press handed to its table's owner, or taken from another process (see
/// `presses_handed_over_total`).
pub fn handed_over(outcome: &'static str) {
    metrics::counter!("stikis_presses_handed_over_total", "outcome" => outcome).increment(1);
}

/// A message to another process, sent `straight` or through the `database`.
pub(crate) fn peer_message(way: &'static str) {
    metrics::counter!("stikis_peer_messages_total", "way" => way).increment(1);
}

/// A connection between processes: `open`, `unreachable`, `refused`.
pub(crate) fn peer_connection(outcome: &'static str) {
    metrics::counter!("stikis_peer_connections_total", "outcome" => outcome).increment(1);
}

/// A database operation tried again (see `store_retries_total`).
pub fn store_retry(op: &'static str) {
    metrics::counter!("stikis_store_retries_total", "op" => op).increment(1);
}

/// A heartbeat and how it went.
pub fn heartbeat<E: Failure>(result: &Result<(), E>) {
    match result {
        Ok(()) => {
            metrics::counter!("stikis_heartbeats_total", "outcome" => "ok").increment(1);
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64());
            metrics::gauge!("stikis_heartbeat_last_ok_timestamp_seconds").set(now);
        }
        Err(e) => {
            metrics::counter!("stikis_heartbeats_total", "outcome" => "error").increment(1);
            store_error("heartbeat", e);
        }
    }
}

/// A database pool's size now: `pool` is `main` or `writer`.
pub fn pool(pool: &'static str, size: u32, idle: usize, max: u32) {
    let idle = idle as f64;
    metrics::gauge!("stikis_db_pool_connections", "pool" => pool, "state" => "idle").set(idle);
    metrics::gauge!("stikis_db_pool_connections", "pool" => pool, "state" => "busy")
        .set((f64::from(size) - idle).max(0.0));
    metrics::gauge!("stikis_db_pool_max_connections", "pool" => pool).set(f64::from(max));
}

/// How long taking a connection from the pool waited, for `op`.
pub fn pool_acquire(op: &'static str, seconds: f64) {
    metrics::histogram!("stikis_db_pool_acquire_seconds", "op" => op).record(seconds);
}

/// The database-wide gauges, read at a scrape.
pub fn database(tables_running: i64, processes_alive: i64) {
    metrics::gauge!("stikis_db_tables_running").set(tables_running as f64);
    metrics::gauge!("stikis_db_processes_alive").set(processes_alive as f64);
}

/// Starts the process's log: `tracing` lines on stdout filtered by `RUST_LOG` (default
/// `info,sqlx=warn`), coloured only on a terminal; with `json`, one JSON object per line
/// (timestamp, level, target, fields) for log collectors.
pub fn init_logs(json: bool) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let log = tracing_subscriber::fmt().with_env_filter(filter);
    if json {
        log.json().init();
    } else {
        log.with_ansi(std::io::stdout().is_terminal()).init();
    }
}

/// Whether the platform connection is up (the gateway connected, long polling answering).
pub type PlatformUp = Arc<dyn Fn() -> bool + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The metric names a text names: every `stikis_` word, a histogram's `_bucket`, `_count`
    /// and `_sum` series read as the histogram.
    fn names_in(text: &str) -> Vec<String> {
        let mut names = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("stikis_") {
            let before = rest[..at].chars().next_back();
            let word: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            rest = &rest[at + word.len()..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            names.push(word.trim_end_matches('_').to_string());
        }
        names
    }

    fn exposed(name: &str) -> bool {
        METRICS.iter().any(|m| {
            m.name == name
                || (m.kind == Kind::Histogram
                    && ["_bucket", "_count", "_sum"]
                        .iter()
                        .any(|s| name.strip_suffix(s) == Some(m.name)))
        })
    }

    #[test]
    fn the_list_is_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for m in METRICS {
            assert!(seen.insert(m.name), "{} twice", m.name);
            assert!(m.name.starts_with("stikis_"), "{}", m.name);
            assert!(
                m.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                m.name
            );
            assert_eq!(m.kind == Kind::Counter, m.name.ends_with("_total"), "{}", m.name);
            assert_eq!(m.kind == Kind::Histogram, !m.buckets.is_empty(), "{}", m.name);
            assert!(m.buckets.windows(2).all(|w| w[0] < w[1]), "{}", m.name);
            assert!(!m.help.is_empty() && !m.help.contains('\n'), "{}", m.name);
            for label in m.labels {
                assert!(
                    !["user", "chat", "table", "id"].contains(label),
                    "{}: {label}",
                    m.name
                );
            }
        }
    }

    #[tokio::test]
    async fn every_metric_is_rendered_with_its_help_labels_and_buckets() {
        let handle = recorder().expect("the recorder installs");
        // One of each, recorded as the host and the bots record them.
        let ((), outcome) = with_move_outcome(async { move_outcome("stale") }).await;
        assert_eq!(outcome, "stale");
        let ((), outcome) = with_move_outcome(async {}).await;
        assert_eq!(outcome, "other");
        move_outcome("applied"); // outside a request: nothing
        move_seconds("applied", 45.0);
        metrics::counter!("stikis_actions_total", "game" => "zole").increment(1);
        metrics::counter!("stikis_deals_total", "game" => "zole").increment(1);
        metrics::histogram!("stikis_computer_think_seconds").record(0.00002);
        metrics::histogram!("stikis_db_commit_seconds").record(0.003);
        platform_call("telegram", "getMe", "ok");
        platform_call("telegram", "sendMessage", "429");
        platform_retry("telegram", Duration::from_secs(3));
        count_tables_in_memory(|| Some(2));
        moved_here(7);
        refresh();
        takeover("dead_process");
        let e = crate::store::StoreError::Db(sqlx::Error::PoolTimedOut);
        assert_eq!(e.store_kind(), Some("pool_timeout"));
        store_error("request", &e);
        host_error("timer", &crate::table::HostError::Conflict); // not a store error
        store_retry("remember");
        heartbeat::<crate::store::StoreError>(&Ok(()));
        heartbeat(&Err(crate::store::StoreError::Commit("gone".into())));
        pool("main", 4, 1, 16);
        pool_acquire("heartbeat", 0.0002);
        database(3, 2);
        metrics::counter!("stikis_play_presses_total").increment(1);
        metrics::counter!("stikis_play_feeds_total").increment(1);
        metrics::counter!("stikis_play_refused_total", "reason" => "expired").increment(1);

        let page = handle.render();
        for m in METRICS {
            assert!(
                page.contains(&format!("# HELP {} ", m.name)),
                "{} has no HELP:\n{page}",
                m.name
            );
            let kind = match m.kind {
                Kind::Counter => "counter",
                Kind::Gauge => "gauge",
                Kind::Histogram => "histogram",
            };
            assert!(
                page.contains(&format!("# TYPE {} {kind}\n", m.name)),
                "{}:\n{page}",
                m.name
            );
            let series = if m.kind == Kind::Histogram {
                format!("{}_count", m.name)
            } else {
                m.name.to_string()
            };
            let samples: Vec<&str> = page
                .lines()
                .filter(|l| l.strip_prefix(&series).is_some_and(|r| r.starts_with([' ', '{'])))
                .collect();
            assert!(!samples.is_empty(), "{series}:\n{page}");
            for s in &samples {
                for label in m.labels {
                    assert!(s.contains(&format!("{label}=\"")), "{s} lacks {label}");
                }
            }
            for le in m.buckets {
                assert!(
                    page.contains(&format!("{}_bucket{{", m.name)) && page.contains(&format!("le=\"{le}\"")),
                    "{} lacks the bucket {le}",
                    m.name
                );
            }
        }
        let line = |start: &str| {
            page.lines()
                .find(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("no {start}:\n{page}"))
                .to_string()
        };
        // A move's wait up to two minutes has buckets; a computer's microseconds too.
        assert!(line("stikis_move_seconds_bucket{outcome=\"applied\",le=\"60\"}").ends_with(" 1"));
        assert!(line("stikis_move_seconds_bucket{outcome=\"applied\",le=\"30\"}").ends_with(" 0"));
        assert!(line("stikis_computer_think_seconds_bucket{le=\"0.000025\"}").ends_with(" 1"));
        assert!(line("stikis_computer_think_seconds_bucket{le=\"0.00001\"}").ends_with(" 0"));
        assert!(line("stikis_platform_retry_seconds_bucket{platform=\"telegram\",le=\"5\"}").ends_with(" 1"));
        line("stikis_store_errors_total{op=\"request\",kind=\"pool_timeout\"}");
        line("stikis_store_errors_total{op=\"heartbeat\",kind=\"commit\"}");
        assert!(
            !page.contains("op=\"timer\""),
            "a conflict is no store error:\n{page}"
        );
        line("stikis_heartbeats_total{outcome=\"error\"}");
        for reason in ["dead_process", "quiet", "moved_elsewhere", "conflict"] {
            line(&format!("stikis_table_takeovers_total{{reason=\"{reason}\"}}"));
        }
        line("stikis_db_pool_connections{pool=\"main\",state=\"busy\"}");
        line("stikis_db_pool_connections{pool=\"main\",state=\"idle\"}");
    }

    fn repo_file(path: &str) -> String {
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
    }

    #[test]
    fn the_dashboard_and_the_alerts_name_only_exposed_metrics() {
        for path in ["deploy/grafana-dashboard.json", "deploy/prometheus-alerts.yml"] {
            let text = repo_file(path);
            let names = names_in(&text);
            assert!(names.len() >= 5, "{path} names few metrics: {names:?}");
            for name in &names {
                assert!(exposed(name), "{path} names {name}, which no process exposes");
            }
        }
        // The dashboard is JSON with a panel per question.
        let dash: serde_json::Value =
            serde_json::from_str(&repo_file("deploy/grafana-dashboard.json")).unwrap();
        let panels = dash["panels"].as_array().expect("panels");
        assert!(panels.len() >= 9, "{}", panels.len());
        for p in panels {
            for t in p["targets"].as_array().into_iter().flatten() {
                assert!(
                    t["expr"]
                        .as_str()
                        .is_some_and(|e| e.contains("stikis_") || e.contains("up{")),
                    "{t}"
                );
            }
        }
        let alerts = repo_file("deploy/prometheus-alerts.yml");
        for alert in [
            "StikisInstanceDown",
            "StikisHealthzFailing",
            "StikisMoveLatencyHigh",
            "StikisStoreErrors",
            "StikisTooMany429",
            "StikisHeartbeatMissing",
        ] {
            assert!(alerts.contains(&format!("alert: {alert}\n")), "{alert}");
        }
    }

    #[test]
    fn the_operations_doc_lists_every_metric() {
        let whole = repo_file("docs/operations.md");
        let start = whole.find("## Health and metrics").expect("the metrics section");
        let doc = &whole[start..];
        let doc = &doc[..doc[2..].find("\n## ").map_or(doc.len(), |i| i + 2)];
        for m in METRICS {
            assert!(
                doc.contains(&format!("`{}", m.name)),
                "docs/operations.md lacks {}",
                m.name
            );
        }
        for name in names_in(doc) {
            assert!(
                exposed(&name),
                "docs/operations.md names {name}, which no process exposes"
            );
        }
    }

    #[test]
    fn names_are_read_from_text() {
        assert_eq!(
            names_in("rate(stikis_move_seconds_bucket{x=\"stikis-y\"}[5m]) + a_stikis_no + stikis_up"),
            ["stikis_move_seconds_bucket", "stikis_up"]
        );
    }
}
