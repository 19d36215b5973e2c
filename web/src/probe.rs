//! The bots' probe listener (`--metrics-listen`): `/metrics` in the Prometheus text format
//! (recorded through `stikis_host::observe`, whose `METRICS` lists them; the database-wide
//! gauges and the pool's are read at each scrape) and `/healthz`, which answers 200 when the
//! database answers and the platform connection is up, and 503 naming what is not.

use std::future::Future;
use std::net::SocketAddr;
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
