//! Group commit for the action log on PostgreSQL. Each commit waits for its WAL flush, and on
//! a busy host one statement and one flush per action leaves the moves queueing for the
//! pool's connections. So a few tasks per `Store` own the appends: each takes every append
//! waiting at that moment and inserts them with one statement (one round trip, one commit,
//! one flush), and only then answers each caller. An action is still acknowledged only after
//! its commit, and the guard that refuses a taken or out-of-order number is the same as for
//! a single append.
//!
//! An action bound to a press's time limit (`CommitBy`) is refused once that time is up: by
//! the writer before it sends it, and by the statement itself when the database's clock has
//! passed it (a statement that waited through an outage), so a press answered "try again" is
//! never committed later.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::postgres::PgPool;
use sqlx::Row;
use tokio::sync::{mpsc, oneshot, Mutex};

use super::sqlite_log::{Outcome, TOO_LATE};

/// At most this many appends share one statement.
const MAX_BATCH: usize = 256;
/// Batches in flight at once: while one waits for its flush, the next gathers and sends.
const WORKERS: usize = 2;

/// Inserts the batch's rows that are each their table's next number, for tables that exist,
/// the first of equal (table, seq) pairs only; returns the (table, seq) pairs inserted. A
/// statement does not see its own rows in the guard's subquery, so of two numbers of one
/// table in one batch only the first can pass, as with two single appends racing.
const BATCH_SQL: &str = "INSERT INTO actions (table_id, seq, payload, at_ms, process) \
     SELECT DISTINCT ON (x.t, x.s) x.t, x.s, x.p, x.a, $5 \
     FROM UNNEST($1::int8[], $2::int8[], $3::text[], $4::int8[], $6::int8[]) WITH ORDINALITY AS x(t, s, p, a, d, i) \
     WHERE x.s = (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = x.t) \
     AND (x.d = 0 OR x.d >= (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::int8) \
     AND EXISTS (SELECT 1 FROM tables WHERE id = x.t) \
     ORDER BY x.t, x.s, x.i \
     ON CONFLICT (table_id, seq) DO NOTHING \
     RETURNING table_id, seq";

pub(super) struct Job {
    pub table: i64,
    pub seq: i64,
    pub payload: String,
    pub at_ms: i64,
    /// The press's time limit (Unix ms): not committed after it.
    pub until_ms: Option<i64>,
    pub reply: oneshot::Sender<Outcome>,
}

/// Starts the writer tasks; they end when every sender (every clone of the `Store`) is gone.
pub(super) fn spawn(pool: PgPool, process: Arc<str>) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..WORKERS {
        let (pool, rx, process) = (pool.clone(), Arc::clone(&rx), Arc::clone(&process));
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            loop {
                // Hold the receiver only while gathering, so the other worker gathers the
                // next batch while this one waits for its commit.
                if rx.lock().await.recv_many(&mut batch, MAX_BATCH).await == 0 {
                    return;
                }
                refuse_late(&mut batch);
                if batch.is_empty() {
                    continue;
                }
                let inserted = commit(&pool, &batch, &process).await;
                let mut answered = HashSet::with_capacity(batch.len());
                for job in batch.drain(..) {
                    let outcome = match &inserted {
                        // Of equal pairs only the first was inserted.
                        Ok(keys)
                            if keys.contains(&(job.table, job.seq))
                                && answered.insert((job.table, job.seq)) =>
                        {
                            Outcome::Committed
                        }
                        Ok(_) if job.until_ms.is_some_and(|u| u < super::now_ms()) => {
                            Outcome::Failed(TOO_LATE.into())
                        }
                        Ok(_) => Outcome::NotInserted,
                        Err(msg) => Outcome::Failed(msg.clone()),
                    };
                    // A caller that stopped waiting still had its action committed (or not).
                    let _ = job.reply.send(outcome);
                }
            }
        });
    }
    tx
}

/// Answers the actions whose press's time is up, and keeps the others.
fn refuse_late(batch: &mut Vec<Job>) {
    let now = super::now_ms();
    let (late, keep): (Vec<Job>, Vec<Job>) =
        batch.drain(..).partition(|j| j.until_ms.is_some_and(|u| u < now));
    batch.extend(keep);
    for job in late {
        let _ = job.reply.send(Outcome::Failed(TOO_LATE.into()));
    }
}

async fn commit(pool: &PgPool, jobs: &[Job], process: &str) -> Result<HashSet<(i64, i64)>, String> {
    let tables: Vec<i64> = jobs.iter().map(|j| j.table).collect();
    let seqs: Vec<i64> = jobs.iter().map(|j| j.seq).collect();
    let payloads: Vec<&str> = jobs.iter().map(|j| j.payload.as_str()).collect();
    let ats: Vec<i64> = jobs.iter().map(|j| j.at_ms).collect();
    let untils: Vec<i64> = jobs.iter().map(|j| j.until_ms.unwrap_or(0)).collect();
    let timer = crate::observe::Timer::start();
    // A batch holding a press's move waits for a connection no longer than the press's
    // time (and a little): its caller waits for this answer.
    let mut conn = match jobs.iter().filter_map(|j| j.until_ms).min() {
        Some(until) => {
            let left = (until - super::now_ms()).max(0) as u64 + 200;
            tokio::time::timeout(std::time::Duration::from_millis(left), pool.acquire())
                .await
                .map_err(|_| format!("{TOO_LATE}: no database connection in time"))?
                .map_err(|e| e.to_string())?
        }
        None => pool.acquire().await.map_err(|e| e.to_string())?,
    };
    crate::observe::pool_acquire("append", timer.elapsed());
    let rows = sqlx::query(BATCH_SQL)
        .bind(&tables)
        .bind(&seqs)
        .bind(&payloads)
        .bind(&ats)
        .bind(process)
        .bind(&untils)
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| e.to_string())?;
    rows.iter()
        .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| e.to_string())
}
