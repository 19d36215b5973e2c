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

use super::sqlite_log::{Outcome, Run, TOO_LATE};

/// At most this many appends share one statement.
const MAX_BATCH: usize = 256;

/// A writer that gathered fewer appends than this waits up to `LINGER` for more before it
/// sends them.
const LINGER_BELOW: usize = 6;

/// How long a writer waits for more appends when it gathered only a few
/// (`STIKIS_LOG_LINGER_US` in microseconds, 0 for not at all). Each process commits its own
/// tables' moves, so with several processes each commit gathers fewer of them (7.4 moves a
/// commit on one process, 2.7 on two, in the harness's throughput runs): a millisecond's wait
/// for a move's commit costs the person nothing they could notice, and saves commits (in
/// the same runs, 2 processes made 10 % more moves a second at 11 % less CPU per move,
/// docs/operations.md).
const LINGER: std::time::Duration = std::time::Duration::from_millis(1);

/// Inserts the batch's runs (one a table at most: `one_per_table`) that begin at their table's
/// next number, for tables that exist, within their press's time limit; returns the
/// (table, seq) pairs inserted. A run's first action is inserted under the guard; the others
/// only if their first was (its RETURNING row), and a conflict on one of them fails the
/// statement (only a run's own process can insert them once it holds the first), so a run is
/// committed whole or not at all.
const BATCH_SQL: &str = "WITH x AS (\
       SELECT * FROM UNNEST($1::int8[], $2::int8[], $3::text[], $4::int8[], $6::int8[], $7::bool[], \
       $8::text[]) AS x(t, s, p, a, d, f, h)), \
     now AS (SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::int8 AS ms), \
     first AS (\
       INSERT INTO actions (table_id, seq, payload, at_ms, process, press) \
       SELECT x.t, x.s, x.p, x.a, $5, x.h FROM x, now \
       WHERE x.f \
       AND x.s = (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = x.t) \
       AND (x.d = 0 OR x.d >= now.ms) \
       AND EXISTS (SELECT 1 FROM tables WHERE id = x.t) \
       ORDER BY x.t \
       ON CONFLICT (table_id, seq) DO NOTHING \
       RETURNING table_id, seq), \
     rest AS (\
       INSERT INTO actions (table_id, seq, payload, at_ms, process) \
       SELECT x.t, x.s, x.p, x.a, $5 FROM x JOIN first ON first.table_id = x.t \
       WHERE NOT x.f \
       ORDER BY x.t, x.s \
       RETURNING table_id, seq) \
     SELECT table_id, seq FROM first UNION ALL SELECT table_id, seq FROM rest";

pub(super) struct Job {
    pub run: Run,
    pub reply: oneshot::Sender<Outcome>,
}

/// Starts the writer tasks; they end when every sender (every clone of the `Store`) is gone.
/// `workers` batches may be in flight at once: while one waits for its flush, the next
/// gathers and sends.
pub(super) fn spawn(pool: PgPool, process: Arc<str>, workers: u32) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
    let linger = std::env::var("STIKIS_LOG_LINGER_US")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(LINGER, std::time::Duration::from_micros);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..workers {
        let (pool, rx, process) = (pool.clone(), Arc::clone(&rx), Arc::clone(&process));
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            loop {
                // Hold the receiver only while gathering, so the other worker gathers the
                // next batch while this one waits for its commit. A small batch waits a
                // moment for more (`LINGER`).
                {
                    let mut rx = rx.lock().await;
                    if rx.recv_many(&mut batch, MAX_BATCH).await == 0 {
                        return;
                    }
                    if !linger.is_zero() && batch.len() < LINGER_BELOW {
                        let _ = tokio::time::timeout(linger, async {
                            while batch.len() < LINGER_BELOW {
                                let room = MAX_BATCH - batch.len();
                                if rx.recv_many(&mut batch, room).await == 0 {
                                    break;
                                }
                            }
                        })
                        .await;
                    }
                }
                refuse_late(&mut batch);
                let again = one_per_table(&mut batch);
                if batch.is_empty() {
                    continue;
                }
                let inserted = commit(&pool, &batch, &process).await;
                for job in again {
                    let _ = job.reply.send(match &inserted {
                        Ok(_) => Outcome::NotInserted,
                        Err(msg) => Outcome::Failed(msg.clone()),
                    });
                }
                for job in batch.drain(..) {
                    let run = &job.run;
                    let outcome = match &inserted {
                        Ok(keys) if keys.contains(&(run.table, run.seq)) => Outcome::Committed,
                        Ok(_) if run.until_ms.is_some_and(|u| u < super::now_ms()) => Outcome::Late,
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
    let (late, keep): (Vec<Job>, Vec<Job>) = batch
        .drain(..)
        .partition(|j| j.run.until_ms.is_some_and(|u| u < now));
    batch.extend(keep);
    for job in late {
        let _ = job.reply.send(Outcome::Late);
    }
}

/// Keeps the first run of each table and takes out the others, to be refused once the
/// batch is committed (their callers then read the number the first run left): one process
/// moves a table one run at a time, so a second run of a table in the same batch is a stale
/// copy's, which the first run's number would refuse anyway (as of two single appends
/// racing, only the first can pass).
fn one_per_table(batch: &mut Vec<Job>) -> Vec<Job> {
    let mut seen = HashSet::with_capacity(batch.len());
    let (keep, refused): (Vec<Job>, Vec<Job>) = batch.drain(..).partition(|j| seen.insert(j.run.table));
    batch.extend(keep);
    refused
}

async fn commit(pool: &PgPool, jobs: &[Job], process: &str) -> Result<HashSet<(i64, i64)>, String> {
    let rows = jobs.iter().map(|j| j.run.payloads.len()).sum();
    let (mut tables, mut seqs, mut payloads, mut ats, mut untils, mut firsts, mut presses) = (
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
    );
    for run in jobs.iter().map(|j| &j.run) {
        for (i, payload) in run.payloads.iter().enumerate() {
            tables.push(run.table);
            seqs.push(run.seq + i as i64);
            payloads.push(payload.as_str());
            ats.push(run.at_ms);
            untils.push(run.until_ms.unwrap_or(0));
            firsts.push(i == 0);
            presses.push(if i == 0 { run.press.as_deref() } else { None });
        }
    }
    let timer = crate::observe::Timer::start();
    // A batch holding a press's move waits for a connection no longer than the press's
    // time (and a little): its caller waits for this answer.
    let mut conn = match jobs.iter().filter_map(|j| j.run.until_ms).min() {
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
        .bind(&firsts)
        .bind(&presses)
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| e.to_string())?;
    rows.iter()
        .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| e.to_string())
}
