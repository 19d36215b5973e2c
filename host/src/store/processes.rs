//! What several processes sharing one database coordinate through it: a half-made choice kept
//! with its table (so any process, or a restarted one, takes it back), turn timers claimed once,
//! and the quiet tables a process takes over from one that may have died.

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

    /// Running tables that nothing has happened at since `before_ms` (no action, no deal):
    /// (id, when the last thing happened). What a process looks at to take over the tables of
    /// one that died.
    pub async fn quiet_running_tables(&self, before_ms: i64) -> Result<Vec<(i64, i64)>> {
        let sql = "SELECT id, last_ms FROM (SELECT t.id AS id, \
                   COALESCE((SELECT MAX(a.at_ms) FROM actions a WHERE a.table_id = t.id), \
                   (SELECT MAX(d.at_ms) FROM deals d WHERE d.table_id = t.id), t.updated_ms) AS last_ms \
                   FROM tables t WHERE t.status = 'running') q WHERE last_ms < $1 ORDER BY id";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(before_ms).fetch_all(pool).await?;
            rows.iter()
                .map(|r| Ok((r.try_get("id")?, r.try_get("last_ms")?)))
                .collect()
        })
    }
}
