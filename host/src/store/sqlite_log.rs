//! Group commit for the action log on SQLite. SQLite has one writer at a time, and with
//! synchronous=FULL every commit waits for the disk; committing each action on its own caps a
//! busy host at a few thousand actions per second with long queues behind the write lock.
//! So one task per `Store` owns the appends: it takes every append waiting at that moment,
//! inserts them in one transaction, commits once, and only then answers each caller. An
//! action is still acknowledged only after its commit; it merely shares the disk flush.

use std::sync::Arc;

use sqlx::sqlite::{SqlitePool, SqliteRow};
use tokio::sync::{mpsc, oneshot};

use super::{is_fk_violation, is_unique_violation, APPEND_SQL};

/// At most this many appends share one transaction, so one batch never holds the write lock
/// for long.
const MAX_BATCH: usize = 256;

/// A run of one table's actions, committed together or not at all.
#[derive(Default)]
pub(super) struct Run {
    pub table: i64,
    /// The first action's number; the others follow it.
    pub seq: i64,
    pub payloads: Vec<String>,
    pub at_ms: i64,
    /// The press's time limit (Unix ms): not committed after it (`CommitBy`).
    pub until_ms: Option<i64>,
    /// The handed press that made the first action, if one did (`CommitBy`).
    pub press: Option<String>,
}

pub(super) struct Job {
    pub run: Run,
    pub reply: oneshot::Sender<Outcome>,
    /// Instead of an action: another write that shares the batch's commit (a deal's start,
    /// the chat's score sheet), so that closing a deal costs no disk flush of its own. Its
    /// answer is the statement's row (for RETURNING) or its error.
    pub other: Option<Other>,
}

pub(super) struct Other {
    pub sql: String,
    pub args: Vec<Arg>,
    pub reply: oneshot::Sender<Result<Option<SqliteRow>, sqlx::Error>>,
}

pub(super) enum Arg {
    Int(i64),
    Text(String),
}

#[derive(Debug)]
pub(super) enum Outcome {
    Committed,
    /// The guard or the key refused it: taken or out of order; the caller finds out which.
    NotInserted,
    NoTable,
    /// The batch's transaction failed; nothing of it was committed.
    Failed(String),
    /// Its press's time was up before it was sent (`CommitBy`): not committed.
    Late,
    /// Its statement's connection failed after it was sent, and the database could not be
    /// asked in time whether it was committed (PostgreSQL: `pg_log`).
    Unknown(super::Unsettled),
}

/// Starts the writer task; it ends when every sender (every clone of the `Store`) is gone.
pub(super) fn spawn(pool: SqlitePool, process: Arc<str>) -> mpsc::Sender<Job> {
    let (tx, mut rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
    tokio::spawn(async move {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let outcomes = match commit(&pool, &mut batch, &process).await {
                Ok(outcomes) => outcomes,
                Err(e) => {
                    let msg = e.to_string();
                    batch
                        .iter()
                        .map(|_| (Outcome::Failed(msg.clone()), None))
                        .collect()
                }
            };
            for (job, (outcome, row)) in batch.drain(..).zip(outcomes) {
                // A caller that stopped waiting still had its action committed (or not), as
                // with any query whose future is dropped after it was sent.
                match (job.other, row) {
                    (Some(o), Some(r)) => {
                        let _ = o.reply.send(r);
                    }
                    (Some(o), None) => {
                        let msg = match outcome {
                            Outcome::Failed(m) => m,
                            Outcome::Unknown(_) => "outcome unknown".into(),
                            Outcome::Late => TOO_LATE.into(),
                            _ => "not run".into(),
                        };
                        let _ = o.reply.send(Err(sqlx::Error::Protocol(msg)));
                    }
                    (None, _) => {
                        let _ = job.reply.send(outcome);
                    }
                }
            }
        }
    });
    tx
}

/// Why an action bound to a press's time limit was not committed.
pub(super) const TOO_LATE: &str = "not committed within the press's time limit";

type Answer = (Outcome, Option<Result<Option<SqliteRow>, sqlx::Error>>);

async fn commit(pool: &SqlitePool, jobs: &mut [Job], process: &str) -> Result<Vec<Answer>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let mut out = Vec::with_capacity(jobs.len());
    for j in jobs.iter() {
        if let Some(o) = &j.other {
            let mut q = sqlx::query(&o.sql);
            for a in &o.args {
                q = match a {
                    Arg::Int(i) => q.bind(*i),
                    Arg::Text(t) => q.bind(t.as_str()),
                };
            }
            // Its own error undoes only this statement; the batch goes on.
            let r = q.fetch_optional(&mut *tx).await;
            out.push((Outcome::Committed, Some(r)));
            continue;
        }
        let run = &j.run;
        if run.until_ms.is_some_and(|u| u < super::now_ms()) {
            out.push((Outcome::Late, None));
            continue;
        }
        out.push((append_run(&mut tx, run, process).await?, None));
    }
    tx.commit().await?;
    Ok(out)
}

/// Inserts a run's actions in the batch's transaction: all, or (the first refused) none. A
/// constraint error undoes only its own statement in SQLite; a run of several actions is
/// undone to its savepoint if one after the first is refused (no other writer can take its
/// numbers, so that would be a bug, not a race).
async fn append_run(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    run: &Run,
    process: &str,
) -> Result<Outcome, sqlx::Error> {
    let several = run.payloads.len() > 1;
    if several {
        sqlx::query("SAVEPOINT run").execute(&mut **tx).await?;
    }
    for (i, payload) in run.payloads.iter().enumerate() {
        let r = sqlx::query(APPEND_SQL)
            .bind(run.table)
            .bind(run.seq + i as i64)
            .bind(payload)
            .bind(run.at_ms)
            .bind(process)
            .bind(if i == 0 { run.press.as_deref() } else { None })
            .execute(&mut **tx)
            .await;
        let refused = match r {
            Ok(r) if r.rows_affected() == 1 => None,
            Ok(_) => Some(Outcome::NotInserted),
            Err(e) if is_fk_violation(&e) => Some(Outcome::NoTable),
            Err(e) if is_unique_violation(&e) => Some(Outcome::NotInserted),
            Err(e) => return Err(e),
        };
        if let Some(outcome) = refused {
            if several {
                sqlx::query("ROLLBACK TO run").execute(&mut **tx).await?;
                sqlx::query("RELEASE run").execute(&mut **tx).await?;
            }
            return Ok(outcome);
        }
    }
    if several {
        sqlx::query("RELEASE run").execute(&mut **tx).await?;
    }
    Ok(Outcome::Committed)
}
