//! Posts a change of state owes a chat, kept before they are sent (`due_posts`, migration
//! 0015): a table's end and a tournament's end. A deal's result can be drawn again from the
//! action log by whoever takes its table over; these cannot (who stopped the table, the totals
//! and standings at the moment of the end), so they are kept with the change itself, in its
//! transaction, and posted by a sweep when an adapter did not (`Host::post_due_posts`).

use sqlx::Row;

use super::*;

/// A post a change of state owes `chat`, posted once under `key` (`Out::Post::once`).
#[derive(Debug, Clone, PartialEq)]
pub struct DuePost {
    pub key: String,
    pub chat: ChatRef,
    pub text: String,
    /// When it was kept, by the host's clock.
    pub created_ms: i64,
    /// When a sweep looks whether it went out, and posts it if it did not.
    pub due_ms: i64,
}

impl DuePost {
    /// The post `text` to `chat` under `key`, kept at `now_ms` and due after `OWED_WAIT`
    /// (`crate::ownership`); None where the adapter keeps no record of what it posted (the
    /// terminal, which has no process to outlive it).
    pub fn new(key: impl Into<String>, chat: &ChatRef, text: &str, now_ms: i64) -> Option<DuePost> {
        (chat.platform != Platform::Local).then(|| DuePost {
            key: key.into(),
            chat: chat.clone(),
            text: text.to_string(),
            created_ms: now_ms,
            due_ms: now_ms + crate::ownership::OWED_WAIT.as_millis() as i64,
        })
    }
}

const INSERT_DUE: &str = "INSERT INTO due_posts (platform, msg_key, community_id, chat_id, \
                          thread_id, body, created_ms, due_ms) \
                          VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                          ON CONFLICT (platform, msg_key) DO NOTHING";

macro_rules! insert_due {
    ($tx:expr, $p:expr) => {{
        let p: &DuePost = $p;
        sqlx::query(INSERT_DUE)
            .bind(p.chat.platform.as_str())
            .bind(&p.key)
            .bind(&p.chat.community)
            .bind(&p.chat.chat)
            .bind(p.chat.thread_key())
            .bind(&p.text)
            .bind(p.created_ms)
            .bind(p.due_ms)
            .execute(&mut *$tx)
            .await?;
    }};
}

impl Store {
    /// Runs `sql`, an update of one row's status (`$1` its id, `$2` the status, `$3` now),
    /// and with `post` keeps it as due in the same transaction, if the row was updated: the
    /// change is made with its post kept, or neither. The number of rows updated.
    async fn set_status_keeping(
        &self,
        sql: &str,
        id: i64,
        status: &str,
        post: Option<&DuePost>,
    ) -> Result<u64> {
        Ok(on_write!(self, pool => {
            let mut tx = pool.begin().await?;
            let n = sqlx::query(sql)
                .bind(id)
                .bind(status)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if let Some(p) = post.filter(|_| n == 1) {
                insert_due!(tx, p);
            }
            tx.commit().await?;
            n
        }))
    }

    /// Moves table `table` from the lobby or running to `status` (`set_status`), and keeps
    /// `post` as due in the same transaction: a table is closed with its end post kept, or
    /// neither.
    pub async fn close_table(&self, table: i64, status: TableStatus, post: Option<&DuePost>) -> Result<()> {
        let sql = "UPDATE tables SET status = $2, updated_ms = $3 \
                   WHERE id = $1 AND status IN ('lobby', 'running')";
        if self.set_status_keeping(sql, table, status.as_str(), post).await? == 1 {
            return Ok(());
        }
        match self.table(table).await? {
            None => Err(StoreError::NoTable(table)),
            Some(_) => Err(StoreError::TableClosed(table)),
        }
    }

    /// Moves tournament `id` from one of `from` to `to` (`set_tournament_status`), and keeps
    /// `post` as due in the same transaction. False when it was in none of them (another
    /// process or press moved it first).
    pub async fn end_tournament(
        &self,
        id: i64,
        from: &[TournamentStatus],
        to: TournamentStatus,
        post: Option<&DuePost>,
    ) -> Result<bool> {
        let list: Vec<String> = from.iter().map(|s| format!("'{}'", s.as_str())).collect();
        let sql = format!(
            "UPDATE tournaments SET status = $2, updated_ms = $3 WHERE id = $1 AND status IN ({})",
            list.join(", ")
        );
        Ok(self.set_status_keeping(&sql, id, to.as_str(), post).await? == 1)
    }

    /// The due posts whose time (`due_ms`) is `now` or earlier, oldest first, at most `limit`.
    pub async fn due_posts(&self, now: i64, limit: usize) -> Result<Vec<DuePost>> {
        let sql = "SELECT platform, msg_key, community_id, chat_id, thread_id, body, created_ms, \
                   due_ms FROM due_posts WHERE due_ms <= $1 ORDER BY due_ms LIMIT $2";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(now)
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(DuePost {
                        key: r.try_get("msg_key")?,
                        chat: chat_ref!(r),
                        text: r.try_get("body")?,
                        created_ms: r.try_get("created_ms")?,
                        due_ms: r.try_get("due_ms")?,
                    })
                })
                .collect()
        })
    }

    /// Looks at the due post `key` of `platform` again at `due_ms`.
    pub async fn put_off_due_post(&self, platform: Platform, key: &str, due_ms: i64) -> Result<()> {
        let sql = "UPDATE due_posts SET due_ms = $3 WHERE platform = $1 AND msg_key = $2";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(due_ms)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Forgets the due post `key` of `platform` (posted, or given up).
    pub async fn forget_due_post(&self, platform: Platform, key: &str) -> Result<()> {
        let sql = "DELETE FROM due_posts WHERE platform = $1 AND msg_key = $2";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(platform.as_str())
                .bind(key)
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
