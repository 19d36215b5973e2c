//! Tournaments in the store: the tournament, its entrants, each round's seating (decided
//! once), and its tables (ordinary tables with a slot, `TournamentSlot`).

use serde_json::Value;
use sqlx::Row;

use super::*;

const TOURNAMENT_COLUMNS: &str = "id, platform, community_id, chat_id, thread_id, creator_id, \
     rules, rounds, deals_per_round, round_minutes, turn_secs, computers, status, draw_seed, \
     commitment, created_ms";

macro_rules! tournament_row {
    ($r:expr) => {{
        let r = $r;
        TournamentRow {
            id: r.try_get("id")?,
            chat: chat_ref!(r),
            creator: r.try_get("creator_id")?,
            rules: parse_json(&r.try_get::<String, _>("rules")?, "rules")?,
            rounds: small(r.try_get::<i64, _>("rounds")?, "rounds")?,
            deals_per_round: match r.try_get::<Option<i64>, _>("deals_per_round")? {
                Some(n) => Some(small(n, "deals per round")?),
                None => None,
            },
            round_minutes: match r.try_get::<Option<i64>, _>("round_minutes")? {
                Some(n) => Some(small(n, "round minutes")?),
                None => None,
            },
            turn_secs: match r.try_get::<Option<i64>, _>("turn_secs")? {
                Some(n) => Some(small(n, "turn seconds")?),
                None => None,
            },
            computers: r.try_get("computers")?,
            status: parse(&r.try_get::<String, _>("status")?)?,
            draw_seed: r.try_get("draw_seed")?,
            commitment: r.try_get("commitment")?,
            created_ms: r.try_get("created_ms")?,
        }
    }};
}

/// Why an entry was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryRefused {
    /// This person is entered already.
    AlreadyIn,
    /// Somebody else entered under this name.
    NameTaken,
}

impl Store {
    /// Opens a tournament for entries. Fails with `ChatBusy` when the chat has an open one.
    pub async fn create_tournament(&self, t: &NewTournament) -> Result<TournamentRow> {
        let sql = format!(
            "INSERT INTO tournaments (platform, community_id, chat_id, thread_id, creator_id, \
             rules, rounds, deals_per_round, round_minutes, turn_secs, computers, status, draw_seed, \
             commitment, created_ms, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'registration', $12, $13, $14, $14) \
             RETURNING {TOURNAMENT_COLUMNS}"
        );
        on_write!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(t.chat.platform.as_str())
                .bind(&t.chat.community)
                .bind(&t.chat.chat)
                .bind(t.chat.thread_key())
                .bind(&t.creator)
                .bind(t.rules.to_string())
                .bind(t.rounds as i64)
                .bind(t.deals_per_round.map(|n| n as i64))
                .bind(t.round_minutes.map(i64::from))
                .bind(t.turn_secs.map(i64::from))
                .bind(t.computers)
                .bind(&t.draw_seed)
                .bind(&t.commitment)
                .bind(now_ms())
                .fetch_one(pool)
                .await
                .map_err(|e| if is_unique_violation(&e) { StoreError::ChatBusy } else { e.into() })?;
            Ok(tournament_row!(&row))
        })
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
        on_pool!(self, pool => {
            match sqlx::query(&sql).bind(id).fetch_optional(pool).await? {
                Some(r) => Ok(Some(tournament_row!(&r))),
                None => Ok(None),
            }
        })
    }

    /// The chat's newest tournament (open or not).
    pub async fn latest_tournament(&self, chat: &ChatRef) -> Result<Option<TournamentRow>> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE platform = $1 AND chat_id = $2 \
             AND thread_id = $3 ORDER BY id DESC LIMIT 1"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(chat.platform.as_str())
                .bind(&chat.chat)
                .bind(chat.thread_key())
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Ok(Some(tournament_row!(&r))),
                None => Ok(None),
            }
        })
    }

    /// The community's tournaments, the newest first.
    pub async fn community_tournaments(&self, c: &CommunityRef, limit: u32) -> Result<Vec<TournamentRow>> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE platform = $1 AND community_id = $2 \
             ORDER BY id DESC LIMIT $3"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok(tournament_row!(r))).collect()
        })
    }

    /// Every running tournament: what a restarted host looks after.
    pub async fn running_tournaments(&self) -> Result<Vec<TournamentRow>> {
        let sql =
            format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = 'running' ORDER BY id");
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(tournament_row!(r))).collect()
        })
    }

    /// Moves a tournament from one of `from` to `to`; false when it was in none of them
    /// (another process or press moved it first).
    pub async fn set_tournament_status(
        &self,
        id: i64,
        from: &[TournamentStatus],
        to: TournamentStatus,
    ) -> Result<bool> {
        self.end_tournament(id, from, to, None).await
    }

    /// The entrants in registration order.
    pub async fn entrants(&self, id: i64) -> Result<Vec<Entrant>> {
        let sql = "SELECT entry, user_id, bot_level, display_name, withdrawn FROM tournament_players \
                   WHERE tournament_id = $1 ORDER BY entry";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(id).fetch_all(pool).await?;
            rows.iter()
                .map(|r| {
                    Ok(Entrant {
                        entry: r.try_get("entry")?,
                        name: r.try_get("display_name")?,
                        occupant: occupant(r.try_get("user_id")?, r.try_get("bot_level")?)?,
                        withdrawn: r.try_get("withdrawn")?,
                    })
                })
                .collect()
        })
    }

    /// Enters a person or a computer player under `name` (unique in the tournament). A person
    /// who withdrew and enters again is back in, under the name they had.
    pub async fn enter(
        &self,
        id: i64,
        name: &str,
        occupant: &Occupant,
    ) -> Result<std::result::Result<(), EntryRefused>> {
        if let Occupant::Human { user_id } = occupant {
            let back = "UPDATE tournament_players SET withdrawn = $3 \
                        WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = $4";
            let n = on_write!(self, pool => {
                sqlx::query(back)
                    .bind(id)
                    .bind(user_id)
                    .bind(false)
                    .bind(true)
                    .execute(pool)
                    .await?
                    .rows_affected()
            });
            if n == 1 {
                return Ok(Ok(()));
            }
        }
        let (user, level) = match occupant {
            Occupant::Human { user_id } => (Some(user_id.as_str()), None),
            Occupant::Computer { level } => (None, Some(i64::from(*level))),
        };
        let sql = "INSERT INTO tournament_players \
                   (tournament_id, entry, user_id, bot_level, display_name, withdrawn) \
                   SELECT $1, COALESCE(MAX(entry), -1) + 1, $2, $3, $4, $5 \
                   FROM tournament_players WHERE tournament_id = $1";
        let result = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(id)
                .bind(user)
                .bind(level)
                .bind(name)
                .bind(false)
                .execute(pool)
                .await
                .map(|r| r.rows_affected())
        });
        match result {
            Ok(_) => Ok(Ok(())),
            Err(e) if is_unique_violation(&e) => {
                let already = match user {
                    Some(u) => self
                        .entrants(id)
                        .await?
                        .iter()
                        .any(|x| matches!(&x.occupant, Occupant::Human { user_id } if user_id == u)),
                    None => false,
                };
                Ok(Err(if already {
                    EntryRefused::AlreadyIn
                } else {
                    EntryRefused::NameTaken
                }))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Before the start an entry is taken back (deleted, computer players last in first out);
    /// once the tournament runs, the entrant is marked withdrawn and sits out later rounds.
    /// False when there was no such entry.
    pub async fn withdraw(&self, id: i64, entry: i64, delete: bool) -> Result<bool> {
        let sql = if delete {
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND entry = $2 AND $3"
        } else {
            "UPDATE tournament_players SET withdrawn = $3 WHERE tournament_id = $1 AND entry = $2"
        };
        let n = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(id)
                .bind(entry)
                .bind(true)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(n == 1)
    }

    /// Decides round `round`'s seating unless it is decided already; returns the seating that
    /// stands (the first one stored).
    pub async fn decide_round(
        &self,
        id: i64,
        round: usize,
        seating: &[Vec<String>],
    ) -> Result<Vec<Vec<String>>> {
        let sql = "INSERT INTO tournament_rounds (tournament_id, round, seating, started_ms) \
                   VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, round) DO NOTHING";
        let text = serde_json::to_string(seating).unwrap_or_default();
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(id)
                .bind(round as i64)
                .bind(&text)
                .bind(now_ms())
                .execute(pool)
                .await?;
        });
        let rounds = self.rounds(id).await?;
        rounds
            .into_iter()
            .find(|r| r.0 == round)
            .map(|r| r.1)
            .ok_or_else(|| StoreError::Corrupt(format!("round {round} of tournament {id} was not stored")))
    }

    /// The decided rounds: (round, seating, started at ms), in order.
    #[allow(clippy::type_complexity)]
    pub async fn rounds(&self, id: i64) -> Result<Vec<(usize, Vec<Vec<String>>, i64)>> {
        let sql = "SELECT round, seating, started_ms FROM tournament_rounds WHERE tournament_id = $1 \
                   ORDER BY round";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(id).fetch_all(pool).await?;
            rows.iter()
                .map(|r| {
                    let seating: Value = parse_json(&r.try_get::<String, _>("seating")?, "seating")?;
                    let seating = serde_json::from_value(seating)
                        .map_err(|e| StoreError::Corrupt(format!("seating: {e}")))?;
                    Ok((small(r.try_get::<i64, _>("round")?, "round")?, seating, r.try_get("started_ms")?))
                })
                .collect()
        })
    }

    /// Opens a tournament table in its slot, or returns the one already there (opened by an
    /// earlier try that a crash cut short, or by another process).
    pub async fn tournament_table(&self, t: &NewTable, slot: &TournamentSlot) -> Result<TableRow> {
        let existing = |rows: Vec<TableRow>| {
            rows.into_iter()
                .find(|r| r.tournament.as_ref().is_some_and(|s| s.slot == slot.slot))
        };
        if let Some(row) = existing(self.tournament_tables(slot.tournament).await?) {
            return Ok(row);
        }
        let sql = format!(
            "INSERT INTO tables (platform, community_id, chat_id, thread_id, game, rules, \
             seat_count, creator_id, status, created_ms, updated_ms, slot, tournament_id, \
             deal_limit, deadline_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'lobby', $9, $9, $10, $11, $12, $13) \
             ON CONFLICT DO NOTHING RETURNING {TABLE_COLUMNS}"
        );
        let made = on_write!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(t.chat.platform.as_str())
                .bind(&t.chat.community)
                .bind(&t.chat.chat)
                .bind(t.chat.thread_key())
                .bind(&t.game)
                .bind(t.rules.to_string())
                .bind(t.seats as i64)
                .bind(&t.creator)
                .bind(now_ms())
                .bind(&slot.slot)
                .bind(slot.tournament)
                .bind(slot.deal_limit.map(|n| n as i64))
                .bind(slot.deadline_ms)
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Some(table_row!(&r)),
                None => None,
            }
        });
        if let Some(row) = made {
            return Ok(row);
        }
        existing(self.tournament_tables(slot.tournament).await?).ok_or(StoreError::ChatBusy)
    }

    /// Every table of a tournament, in the order they were opened.
    pub async fn tournament_tables(&self, id: i64) -> Result<Vec<TableRow>> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM tables WHERE tournament_id = $1 ORDER BY id");
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).bind(id).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(table_row!(r))).collect()
        })
    }
}
