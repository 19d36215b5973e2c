//! Observability both bots share: metrics through the `metrics` facade, rendered in the
//! Prometheus text format (served at `/metrics` and `/healthz` by `stikis_web::probe`, the
//! listener of `--metrics-listen`: the host has no HTTP code).
//!
//! Metrics (all prefixed `stikis_`):
//! - `tables_running` (gauge, read from the database at each scrape: every instance's tables)
//! - `actions_total{game}`: moves committed; `deals_total{game}`: deals finished
//! - `move_seconds`: a button press from its request to its outbox (the move's latency)
//! - `computer_think_seconds`: a computer player's choice
//! - `db_commit_seconds`: committing one action (durable on return)
//! - `platform_calls_total{platform, method, status}`: chat API calls by outcome (`ok`,
//!   `429`, an HTTP status, `network`, `error`)
//! - `platform_retry_seconds{platform}`: how long the bot waited before a retry (429s'
//!   `retry_after`, network back-off)
//!
//! `/healthz` answers 200 when the database answers and the platform connection is up, and
//! 503 naming what is not.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Histogram buckets in seconds: from a millisecond to ten seconds.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// The process's Prometheus recorder, installed on first use (one per process: several bots
/// in one process, as in tests, share it). None if another recorder was installed first.
pub fn recorder() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets(&BUCKETS)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            Some(handle)
        })
        .clone()
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
