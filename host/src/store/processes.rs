//! What several processes sharing one database coordinate through it: a half-made choice kept
//! with its table (so any process, or a restarted one, takes it back), turn timers claimed once,
//! the heartbeat of every process, and the tables a process takes over from one that died.

use sqlx::Row;

use super::*;

impl Store {
    /// Keeps `seat`'s half-made choice (a button code to press again) at action `seq` of a
    /// table, or forgets it (None).
    pub async fn set_selection(&self, table: i64, seat: u8, seq: i64, code: Option<&str>) -> Result<()> {
        match code {
            Some(code) => {
                let sql = "INSERT INTO selections (table_id, seat, seq, code) VALUES ($1, $2, $3, $4) \
                           ON CONFLICT (table_id) DO UPDATE SET seat = excluded.seat, \
                           seq = excluded.seq, code = excluded.code";
                on_write!(self, pool => {
                    sqlx::query(sql)
                        .bind(table)
                        .bind(i64::from(seat))
                        .bind(seq)
                        .bind(code)
                        .execute(pool)
                        .await?;
                });
            }
            None => {
                let sql = "DELETE FROM selections WHERE table_id = $1";
                on_write!(self, pool => {
                    sqlx::query(sql).bind(table).execute(pool).await?;
                });
            }
        }
        Ok(())
    }

    /// The table's kept choice: (seat, seq, code).
    pub async fn selection(&self, table: i64) -> Result<Option<(u8, i64, String)>> {
        let sql = "SELECT seat, seq, code FROM selections WHERE table_id = $1";
        on_pool!(self, pool => {
            match sqlx::query(sql).bind(table).fetch_optional(pool).await? {
                Some(r) => Ok(Some((
                    small(r.try_get::<i64, _>("seat")?, "seat")?,
                    r.try_get("seq")?,
                    r.try_get("code")?,
                ))),
                None => Ok(None),
            }
        })
    }

    /// Claims a turn timer's `kind` of action ('warn', 'move') at action `seq` of a table for
    /// this process; false when another process claimed it first.
    pub async fn claim_timer(&self, table: i64, seq: i64, kind: &str) -> Result<bool> {
        let sql = "INSERT INTO timer_claims (table_id, seq, kind) VALUES ($1, $2, $3) \
                   ON CONFLICT (table_id, seq, kind) DO NOTHING";
        let n = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(table)
                .bind(seq)
                .bind(kind)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(n == 1)
    }

    /// This process's name: on the actions it commits and in the `processes` table.
    pub fn process_id(&self) -> &str {
        &self.process
    }

    /// The heartbeat: this process is alive now. Also forgets processes silent for a day.
    pub async fn beat(&self) -> Result<()> {
        let now = now_ms();
        let sql = "INSERT INTO processes (id, started_ms, beat_ms, peer) VALUES ($1, $2, $2, $3) \
                   ON CONFLICT (id) DO UPDATE SET beat_ms = excluded.beat_ms, peer = excluded.peer";
        let peer = self.peer.lock().expect("peer").clone();
        on_write!(self, pool => {
            // How long the pool made it wait is measured here, every few seconds.
            let timer = crate::observe::Timer::start();
            let mut conn = pool.acquire().await?;
            crate::observe::pool_acquire("heartbeat", timer.elapsed());
            sqlx::query(sql)
                .bind(&*self.process)
                .bind(now)
                .bind(&peer)
                .execute(&mut *conn)
                .await?;
            sqlx::query("DELETE FROM processes WHERE beat_ms < $1")
                .bind(now - 86_400_000)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// A process stopping gracefully says so: its tables are taken over at once, not after
    /// its heartbeat goes stale.
    pub async fn forget_process(&self) -> Result<()> {
        on_write!(self, pool => {
            sqlx::query("DELETE FROM processes WHERE id = $1")
                .bind(&*self.process)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Processes whose heartbeat is not older than `since_ms`.
    pub async fn live_processes(&self, since_ms: i64) -> Result<i64> {
        let sql = "SELECT COUNT(*) FROM processes WHERE beat_ms >= $1";
        on_pool!(self, pool => {
            Ok(sqlx::query_scalar(sql).bind(since_ms).fetch_one(pool).await?)
        })
    }

    /// Where this process listens for the others, with its secret ("address secret"),
    /// written with its next heartbeat (`crate::peers`).
    pub(crate) fn set_peer(&self, peer: Option<String>) {
        *self.peer.lock().expect("peer") = peer;
    }

    /// The address the database sees this process's sessions come from (None over a Unix
    /// socket, and on SQLite).
    pub(crate) async fn client_address(&self) -> Result<Option<std::net::IpAddr>> {
        let Backend::Postgres(pool) = &self.backend else {
            return Ok(None);
        };
        let ip: Option<String> = sqlx::query_scalar("SELECT host(inet_client_addr())")
            .fetch_one(pool)
            .await?;
        Ok(ip.and_then(|ip| ip.parse().ok()))
    }

    /// The ids of `live_peers`.
    pub async fn live_process_ids(&self, since_ms: i64) -> Result<Vec<String>> {
        Ok(self
            .live_peers(since_ms)
            .await?
            .into_iter()
            .map(|(id, _)| id)
            .collect())
    }

    /// The hosting processes whose heartbeat is not older than `since_ms`, by id, with where
    /// each listens for the others (`crate::peers`; None: nowhere): those that
    /// have beaten since they opened their store (a host beats at every sweep; a store opened
    /// by a tool, or by a test's observer, beats once at its opening and hosts no table).
    /// On PostgreSQL also only those with a session open now (their sessions carry their
    /// name, `application_name`): a process that was killed, or lost its machine's network
    /// connection, counts as dead as soon as the server has closed its sessions, not only
    /// once its heartbeat is stale; and a process without a session can commit nothing more.
    pub(crate) async fn live_peers(&self, since_ms: i64) -> Result<Vec<(String, Option<String>)>> {
        match &self.backend {
            Backend::Sqlite(pool) => {
                let sql =
                    "SELECT id, peer FROM processes WHERE beat_ms >= $1 AND beat_ms > started_ms ORDER BY id";
                Ok(sqlx::query_as(sql).bind(since_ms).fetch_all(pool).await?)
            }
            Backend::Postgres(pool) => {
                let sql = "SELECT id, peer FROM processes p WHERE beat_ms >= $1 AND beat_ms > started_ms \
                           AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = p.id) \
                           ORDER BY id";
                Ok(sqlx::query_as(sql).bind(since_ms).fetch_all(pool).await?)
            }
        }
    }

    /// The ids of the running tables.
    pub async fn running_table_ids(&self) -> Result<Vec<i64>> {
        let sql = "SELECT id FROM tables WHERE status = 'running' ORDER BY id";
        on_pool!(self, pool => {
            Ok(sqlx::query_scalar(sql).fetch_all(pool).await?)
        })
    }

    /// The running tables another process should take over: those nothing has happened at
    /// since `quiet_before_ms` (no action, no deal), and those whose last action was
    /// committed by another process that has not beaten since `beat_before_ms` (it died, or
    /// stopped). Each as (id, when the last thing happened, orphaned: its process is gone).
    /// The last action and deal are found by their keys (a table's whole log is not read:
    /// with a few thousand moves a table, reading it made each sweep cost 15 ms).
    pub async fn tables_to_take_over(
        &self,
        quiet_before_ms: i64,
        beat_before_ms: i64,
    ) -> Result<Vec<(i64, i64, bool)>> {
        let sql = "SELECT id, last_ms, orphan FROM (SELECT id, last_ms, \
                   CASE WHEN holder IS NOT NULL AND holder <> $3 AND NOT EXISTS \
                   (SELECT 1 FROM processes p WHERE p.id = holder AND p.beat_ms >= $2) \
                   THEN 1 ELSE 0 END AS orphan FROM (SELECT t.id AS id, \
                   COALESCE((SELECT a.at_ms FROM actions a WHERE a.table_id = t.id ORDER BY a.seq DESC LIMIT 1), \
                   (SELECT d.at_ms FROM deals d WHERE d.table_id = t.id ORDER BY d.deal_no DESC LIMIT 1), \
                   t.updated_ms) AS last_ms, \
                   (SELECT a.process FROM actions a WHERE a.table_id = t.id ORDER BY a.seq DESC LIMIT 1) AS holder \
                   FROM tables t WHERE t.status = 'running') q) r \
                   WHERE last_ms < $1 OR orphan = 1 ORDER BY id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(quiet_before_ms)
                .bind(beat_before_ms)
                .bind(&*self.process)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    let orphan: i32 = r.try_get("orphan")?;
                    Ok((r.try_get("id")?, r.try_get("last_ms")?, orphan == 1))
                })
                .collect()
        })
    }
}
