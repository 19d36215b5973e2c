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
//!
//! A statement whose connection failed after it was sent (PostgreSQL shut down or restarted,
//! the network reset) may have been committed or not. Its outcome is settled before anyone
//! is answered: the writer asks the database again (`settle`) until it answers or the
//! press's answer is due, and only an outcome it could not settle is answered as unknown.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgPool, Postgres};
use sqlx::Connection;
use sqlx::Row;
use tokio::sync::{mpsc, oneshot, Mutex};

use super::sqlite_log::{Outcome, Run, TOO_LATE};
use super::Unsettled;

/// How long after its press's time limit a batch whose outcome is unknown is still settled
/// before its callers are answered (the press is answered within 5 s of its receipt: its
/// limit is 2.5 s, the caller gives up waiting for a move not yet sent a second after it).
const SETTLE_AFTER_LIMIT_MS: i64 = 1_200;

/// How long a batch bound to no press is settled before its callers are answered.
const SETTLE_UNBOUND_MS: i64 = 2_000;

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

/// Faults a test makes in this process's log writer (`Store::lose_commit_answer`): the
/// next commits' answers lost as a failed connection loses them, and the database then out
/// of this process's reach for the settling until a time.
#[derive(Default, Debug)]
pub(super) struct Faults {
    lose_answers: std::sync::atomic::AtomicU32,
    deaf_until_ms: std::sync::atomic::AtomicI64,
}

impl Faults {
    pub(super) fn lose_answer(&self, deaf_for_ms: i64) {
        use std::sync::atomic::Ordering::SeqCst;
        self.deaf_until_ms.store(super::now_ms() + deaf_for_ms, SeqCst);
        self.lose_answers.fetch_add(1, SeqCst);
    }

    /// Takes one lost answer, if one is asked for.
    fn lost(&self) -> bool {
        use std::sync::atomic::Ordering::SeqCst;
        self.lose_answers
            .fetch_update(SeqCst, SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }

    fn deaf(&self) -> bool {
        super::now_ms() < self.deaf_until_ms.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The connection a writer keeps between its commits, with when it last committed on it.
///
/// sqlx tests a connection with a round trip each time it goes back to its pool (and
/// that cannot be turned off): for the log's commits, the most frequent statement of a busy
/// process, one more round trip and one more wakeup of a database process each. A writer
/// with commits to make keeps its connection from one commit to the next instead, and gives
/// it back once it has had nothing to commit for `PG_TEST_IDLE_OVER` (or the pool closes),
/// so an idle process holds none and a stop is not kept waiting.
type Held = Option<(PoolConnection<Postgres>, std::time::Instant)>;

pub(super) struct Job {
    pub run: Run,
    pub reply: oneshot::Sender<Outcome>,
}

/// Starts the writer tasks; they end when every sender (every clone of the `Store`) is gone.
/// `workers` batches may be in flight at once: while one waits for its flush, the next
/// gathers and sends.
pub(super) fn spawn(pool: PgPool, process: Arc<str>, workers: u32, faults: Arc<Faults>) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
    let linger = std::env::var("STIKIS_LOG_LINGER_US")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(LINGER, std::time::Duration::from_micros);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..workers {
        let (pool, rx, process) = (pool.clone(), Arc::clone(&rx), Arc::clone(&process));
        let faults = Arc::clone(&faults);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            let mut held: Held = None;
            loop {
                // Hold the receiver only while gathering, so the other worker gathers the
                // next batch while this one waits for its commit. A small batch waits a
                // moment for more (`LINGER`).
                {
                    let mut rx = rx.lock().await;
                    if held.is_some() {
                        // Nothing to commit for a while, or the pool closing: the kept
                        // connection goes back (`Held`).
                        let closed = pool.close_event();
                        tokio::select! {
                            n = rx.recv_many(&mut batch, MAX_BATCH) => {
                                if n == 0 {
                                    return;
                                }
                            }
                            _ = tokio::time::sleep(super::PG_TEST_IDLE_OVER) => held = None,
                            _ = closed => held = None,
                        }
                    }
                    if batch.is_empty() && rx.recv_many(&mut batch, MAX_BATCH).await == 0 {
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
                let inserted = match commit(&pool, &mut held, &batch, &process).await {
                    Ok(_) if faults.lost() => {
                        Err(Failure::Unknown("the answer was lost (a test's fault)".into()))
                    }
                    other => other,
                };
                let inserted = match inserted {
                    Ok(keys) => Ok(keys),
                    Err(Failure::Refused(msg)) => Err(msg),
                    Err(Failure::Unknown(msg)) => {
                        tracing::warn!(error = %msg, runs = batch.len(), "the action log's connection failed during a commit; settling its outcome");
                        // Settled, every run's outcome is known and answered as usual; not
                        // settled in time, each caller is told it is unknown.
                        match settle_in_time(&pool, &batch, &process, &faults).await {
                            Some(keys) => Ok(keys),
                            None => {
                                for job in again {
                                    let _ = job.reply.send(Outcome::NotInserted);
                                }
                                for job in batch.drain(..) {
                                    let unsettled = Unsettled::of(&job.run, &process);
                                    let _ = job.reply.send(Outcome::Unknown(unsettled));
                                }
                                continue;
                            }
                        }
                    }
                };
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

/// Why a batch's statement did not answer with its rows.
enum Failure {
    /// Nothing of it was committed: it was never sent (no connection in time), or the
    /// database answered it with an error (its transaction rolled back).
    Refused(String),
    /// Its connection failed after it was sent: it may have been committed.
    Unknown(String),
}

/// The keys of the batch's runs that were committed, asked of the database until it answers
/// or the batch's callers must be answered (`SETTLE_AFTER_LIMIT_MS`, `SETTLE_UNBOUND_MS`).
async fn settle_in_time(
    pool: &PgPool,
    jobs: &[Job],
    process: &str,
    faults: &Faults,
) -> Option<HashSet<(i64, i64)>> {
    let due = jobs
        .iter()
        .filter_map(|j| j.run.until_ms)
        .min()
        .map_or(super::now_ms() + SETTLE_UNBOUND_MS, |u| u + SETTLE_AFTER_LIMIT_MS);
    let asked: Vec<Unsettled> = jobs.iter().map(|j| Unsettled::of(&j.run, process)).collect();
    loop {
        let left = due - super::now_ms();
        if left <= 0 {
            tracing::warn!(
                runs = jobs.len(),
                "the outcome of a commit is still unknown; its callers are told so"
            );
            return None;
        }
        let ask = settle(pool, &asked, faults);
        match tokio::time::timeout(std::time::Duration::from_millis(left as u64), ask).await {
            Ok(Ok(found)) => {
                let keys: HashSet<(i64, i64)> = asked
                    .iter()
                    .zip(found)
                    .filter(|(_, committed)| *committed)
                    .map(|(u, _)| (u.table, u.seq))
                    .collect();
                tracing::info!(
                    runs = jobs.len(),
                    committed = keys.len(),
                    "settled the outcome of a commit whose connection failed"
                );
                return Some(keys);
            }
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "could not settle a commit's outcome yet");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(_) => {}
        }
    }
}

/// Whether each action asked about was committed, as this process wrote it: its table's row
/// at its number holds its payload and time, written by this process.
///
/// A statement whose connection failed may still be running in the database. So each
/// number is first fenced: inserting at it waits for any transaction that holds it
/// uncommitted to end, and finds it taken only if that (or any) commit stands. The fence is
/// rolled back, so it leaves nothing behind. A number found free was not committed and, past
/// the fence, no statement sent before it can commit it.
pub(super) async fn settle(
    pool: &PgPool,
    asked: &[Unsettled],
    faults: &Faults,
) -> Result<Vec<bool>, sqlx::Error> {
    if faults.deaf() {
        return Err(sqlx::Error::PoolTimedOut);
    }
    let tables: Vec<i64> = asked.iter().map(|u| u.table).collect();
    let seqs: Vec<i64> = asked.iter().map(|u| u.seq).collect();
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO actions (table_id, seq, payload, at_ms, process) \
         SELECT x.t, x.s, '', -1, '' FROM UNNEST($1::int8[], $2::int8[]) AS x(t, s) \
         WHERE EXISTS (SELECT 1 FROM tables WHERE id = x.t) \
         ON CONFLICT (table_id, seq) DO NOTHING",
    )
    .bind(&tables)
    .bind(&seqs)
    .execute(&mut *tx)
    .await?;
    let rows = sqlx::query(
        "SELECT a.table_id, a.seq, a.payload, a.at_ms, a.process FROM actions a \
         JOIN UNNEST($1::int8[], $2::int8[]) AS x(t, s) ON a.table_id = x.t AND a.seq = x.s",
    )
    .bind(&tables)
    .bind(&seqs)
    .fetch_all(&mut *tx)
    .await?;
    tx.rollback().await?;
    let mut found = Vec::with_capacity(asked.len());
    for u in asked {
        let mut ours = false;
        for r in &rows {
            if r.try_get::<i64, _>(0)? == u.table && r.try_get::<i64, _>(1)? == u.seq {
                ours = r.try_get::<String, _>(2)? == u.payload
                    && r.try_get::<i64, _>(3)? == u.at_ms
                    && r.try_get::<Option<String>, _>(4)?.as_deref() == Some(u.process.as_str());
            }
        }
        found.push(ours);
    }
    Ok(found)
}

async fn commit(
    pool: &PgPool,
    held: &mut Held,
    jobs: &[Job],
    process: &str,
) -> Result<HashSet<(i64, i64)>, Failure> {
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
    let refused = |e: sqlx::Error| Failure::Refused(e.to_string());
    // The connection kept from the last commit; tested first if it was idle long enough for
    // the server or the network to have dropped it meanwhile, as the pool does.
    let kept = match held.take() {
        Some((mut conn, at)) if at.elapsed() > super::PG_TEST_IDLE_OVER => {
            conn.ping().await.is_ok().then_some(conn)
        }
        Some((conn, _)) => Some(conn),
        None => None,
    };
    let mut conn = match kept {
        Some(conn) => conn,
        None => match jobs.iter().filter_map(|j| j.run.until_ms).min() {
            Some(until) => {
                let left = (until - super::now_ms()).max(0) as u64 + 200;
                tokio::time::timeout(std::time::Duration::from_millis(left), pool.acquire())
                    .await
                    .map_err(|_| Failure::Refused(format!("{TOO_LATE}: no database connection in time")))?
                    .map_err(refused)?
            }
            None => pool.acquire().await.map_err(refused)?,
        },
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
        .map_err(|e| match e {
            // The server ending the session (class 57: shut down, crashed; class 08: the
            // connection) may do so after the statement's commit: unknown.
            sqlx::Error::Database(ref d)
                if d.code()
                    .is_some_and(|c| c.starts_with("57") || c.starts_with("08")) =>
            {
                Failure::Unknown(e.to_string())
            }
            // Otherwise the database answered: the statement failed whole, nothing of it
            // stands.
            sqlx::Error::Database(_) => refused(e),
            // The connection failed with the statement sent (or partly sent): its commit
            // may stand.
            e => Failure::Unknown(e.to_string()),
        })?;
    *held = Some((conn, std::time::Instant::now()));
    rows.iter()
        .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| Failure::Unknown(e.to_string()))
}
