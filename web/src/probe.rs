//! The bots' probe listener (`--metrics-listen`): `/metrics` in the Prometheus text format
//! (recorded through `stikis_host::observe`, whose `METRICS` lists them; the database-wide
//! gauges and the pool's are read at each scrape) and `/healthz`, which answers 200 when the
//! database answers and the platform connection is up, and 503 naming what is not.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use metrics_exporter_prometheus::PrometheusHandle;
use stikis_host::observe::{self, recorder, PlatformUp};
use stikis_host::store::Store;

#[derive(Clone)]
struct Probe {
    store: Store,
    platform_up: PlatformUp,
    handle: Option<PrometheusHandle>,
}

async fn metrics_page(State(p): State<Probe>) -> (StatusCode, String) {
    let Some(handle) = &p.handle else {
        return (StatusCode::SERVICE_UNAVAILABLE, "no metrics recorder\n".into());
    };
    observe::refresh();
    p.store.observe_pool();
    // The database-wide gauges; a database that does not answer leaves them as they were.
    let alive_since = stikis_host::store::now_ms() - stikis_host::lobby::BEAT_STALE_MS;
    let read = async {
        Ok::<_, stikis_host::store::StoreError>((
            p.store.running_table_count().await?,
            p.store.live_processes(alive_since).await?,
        ))
    };
    match tokio::time::timeout(Duration::from_secs(2), read).await {
        Ok(Ok((tables, processes))) => observe::database(tables, processes),
        Ok(Err(e)) => observe::store_error("scrape", &e),
        Err(_) => {}
    }
    (StatusCode::OK, handle.render())
}

async fn health_page(State(p): State<Probe>) -> (StatusCode, String) {
    let db = tokio::time::timeout(Duration::from_secs(2), p.store.ping()).await;
    let mut problems = Vec::new();
    match db {
        Ok(Ok(())) => {}
        Ok(Err(e)) => problems.push(format!("database: {e}")),
        Err(_) => problems.push("database: no answer in 2 s".to_string()),
    }
    if !(p.platform_up)() {
        problems.push("platform: not connected".to_string());
    }
    if problems.is_empty() {
        (StatusCode::OK, "ok\n".into())
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, problems.join("\n") + "\n")
    }
}

/// Serves `/metrics` and `/healthz` on `listen` until `shutdown` completes; returns the
/// address it listens on (port 0 picks a free one).
pub async fn serve(
    listen: SocketAddr,
    store: Store,
    platform_up: PlatformUp,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let probe = Probe {
        store,
        platform_up,
        handle: recorder(),
    };
    let app = Router::new()
        .route("/metrics", get(metrics_page))
        .route("/healthz", get(health_page))
        .with_state(probe);
    let listener = tokio::net::TcpListener::bind(listen).await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
            tracing::warn!(error = %e, "the metrics listener stopped");
        }
    });
    Ok((addr, task))
}

/// The probe of a bot while its store connects (`Store::connect_waiting`): a PostgreSQL
/// server that does not answer yet is waited for, and meanwhile, when the bot has a probe
/// address, `/healthz` there answers 503 saying what it waits for and `/metrics` answers 503.
/// Stopped, and its port freed, before the bot's own probe listens there. With no probe
/// address, or a SQLite store (nothing to wait for), it serves nothing.
pub struct Waiting {
    database: String,
    serving: Option<Serving>,
}

struct Serving {
    why: Arc<Mutex<String>>,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Waiting {
    /// Starts the probe for connecting to `url`; a failure to listen on `listen` (the
    /// address, and why) is the caller's start error.
    pub async fn serve(
        url: &str,
        listen: Option<SocketAddr>,
    ) -> Result<Waiting, (SocketAddr, std::io::Error)> {
        let database = stikis_host::store::database_named(url);
        let serving = match listen {
            Some(listen) if stikis_host::store::is_postgres_url(url) => {
                Some(Serving::start(listen).await.map_err(|e| (listen, e))?)
            }
            _ => None,
        };
        Ok(Waiting { database, serving })
    }

    /// The store's observer while it waits: `/healthz` says why from now on.
    pub fn database_waits(&self, e: &stikis_host::store::StoreError) {
        if let Some(s) = &self.serving {
            *s.why.lock().expect("probe lock") = format!(
                "database: {} does not answer ({e}); waiting for it",
                self.database
            );
        }
    }

    pub async fn stop(self) {
        if let Some(s) = self.serving {
            let _ = s.stop.send(());
            let _ = s.task.await;
        }
    }
}

impl Serving {
    async fn start(listen: SocketAddr) -> std::io::Result<Serving> {
        let why = Arc::new(Mutex::new("starting: connecting to the database".to_string()));
        let said = why.clone();
        let health = move || {
            let said = said.clone();
            async move {
                let why = said.lock().expect("probe lock").clone();
                (StatusCode::SERVICE_UNAVAILABLE, why + "\n")
            }
        };
        let app = Router::new().route("/healthz", get(health)).route(
            "/metrics",
            get(|| async { (StatusCode::SERVICE_UNAVAILABLE, "starting\n") }),
        );
        let listener = tokio::net::TcpListener::bind(listen).await?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(Serving { why, stop, task })
    }
}
