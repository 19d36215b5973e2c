//! Boards: points per period (day, week, month, season, all time) summed from `results`, a
//! community's seasons, and skill ratings.

use stikis_core::rating::Rating;

use super::*;

/// A leaderboard's period. Days, weeks (from Monday) and months are UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
    Month,
    /// A season by number; None for the current one.
    Season(Option<u32>),
    All,
}

const DAY_MS: i64 = 86_400_000;

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil (year, month, day) of a day count since 1970-01-01 (proleptic Gregorian).
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Where the day, week (Monday) or month holding `now_ms` began, in Unix ms (UTC).
pub fn period_start(p: Period, now_ms: i64) -> i64 {
    let days = now_ms.div_euclid(DAY_MS);
    match p {
        Period::Day => days * DAY_MS,
        // 1970-01-01 was a Thursday: Monday is 3 days before it.
        Period::Week => (days - (days + 3).rem_euclid(7)) * DAY_MS,
        Period::Month => {
            let (y, m, _) = civil_date(days);
            days_from_civil(y, m, 1) * DAY_MS
        }
        Period::Season(_) | Period::All => 0,
    }
}

/// One line of a points board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    pub user_id: String,
    pub name: String,
    pub points: i64,
    pub deals: i64,
    pub declarer_wins: i64,
}

/// A player's rating in a community and game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub player: String,
    pub name: String,
    pub rating: Rating,
    pub games: i64,
    /// How far the shown rating moved with the last game.
    pub change: i64,
}

macro_rules! rating_row {
    ($r:expr) => {{
        let r = $r;
        Ok::<_, StoreError>(RatingRow {
            player: r.try_get("player")?,
            name: r.try_get("display_name")?,
            rating: Rating {
                mu: r.try_get("mu")?,
                sigma: r.try_get("sigma")?,
            },
            games: r.try_get("games")?,
            change: r.try_get("last_change")?,
        })
    }};
}

impl Store {
    /// One trivial query: is the database there?
    pub async fn ping(&self) -> Result<()> {
        on_pool!(self, pool => {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// How many tables are running (every process's).
    pub async fn running_table_count(&self) -> Result<i64> {
        let sql = "SELECT COUNT(*) AS n FROM tables WHERE status = 'running'";
        on_pool!(self, pool => {
            let r = sqlx::query(sql).fetch_one(pool).await?;
            Ok(r.try_get("n")?)
        })
    }

    /// The points board of `game` for deals finished in [from_ms, to_ms): by points, then
    /// wins as declarer, then deals.
    pub async fn period_board(
        &self,
        c: &CommunityRef,
        game: &str,
        from_ms: i64,
        to_ms: i64,
        limit: u32,
    ) -> Result<Vec<BoardRow>> {
        // PostgreSQL sums BIGINTs as NUMERIC: the casts keep the sums 64-bit integers.
        let sql = "SELECT user_id, MAX(display_name) AS name, CAST(SUM(points) AS BIGINT) AS points, \
                   COUNT(*) AS deals, CAST(SUM(declarer_win) AS BIGINT) AS wins FROM results \
                   WHERE platform = $1 AND community_id = $2 AND game = $3 AND at_ms >= $4 \
                   AND at_ms < $5 GROUP BY user_id \
                   ORDER BY SUM(points) DESC, SUM(declarer_win) DESC, COUNT(*) DESC, user_id LIMIT $6";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(game)
                .bind(from_ms)
                .bind(to_ms)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(BoardRow {
                        user_id: r.try_get("user_id")?,
                        name: r.try_get("name")?,
                        points: r.try_get("points")?,
                        deals: r.try_get("deals")?,
                        declarer_wins: r.try_get("wins")?,
                    })
                })
                .collect()
        })
    }

    /// The community's seasons after the first: (number, started at ms), oldest first.
    /// Season 1 runs from the beginning until season 2 starts.
    pub async fn seasons(&self, c: &CommunityRef) -> Result<Vec<(u32, i64)>> {
        let sql = "SELECT number, started_ms FROM seasons WHERE platform = $1 AND community_id = $2 \
                   ORDER BY number";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| Ok((small(r.try_get::<i64, _>("number")?, "season")?, r.try_get("started_ms")?)))
                .collect()
        })
    }

    /// The current season's number and where it began.
    pub async fn current_season(&self, c: &CommunityRef) -> Result<(u32, i64)> {
        Ok(self.seasons(c).await?.last().copied().unwrap_or((1, 0)))
    }

    /// Where season `n` began and ended (None: it has not ended), or None if there is no
    /// such season.
    pub async fn season_span(&self, c: &CommunityRef, n: u32) -> Result<Option<(i64, Option<i64>)>> {
        let seasons = self.seasons(c).await?;
        let start = |k: u32| {
            if k == 1 {
                Some(0)
            } else {
                seasons.iter().find(|s| s.0 == k).map(|s| s.1)
            }
        };
        Ok(start(n).map(|s| (s, start(n + 1))))
    }

    /// The times [from, to) a period's board sums, and the season's number (0 for the other
    /// periods); None for a season that does not exist.
    pub async fn period_span(&self, c: &CommunityRef, period: Period) -> Result<Option<(i64, i64, u32)>> {
        let now = now_ms();
        Ok(match period {
            Period::Season(which) => {
                let n = match which {
                    Some(n) => n,
                    None => self.current_season(c).await?.0,
                };
                self.season_span(c, n)
                    .await?
                    .map(|(from, to)| (from, to.unwrap_or(i64::MAX), n))
            }
            Period::All => Some((0, i64::MAX, 0)),
            p => Some((period_start(p, now), i64::MAX, 0)),
        })
    }

    /// Starts the community's next season now; returns its number.
    pub async fn start_season(&self, c: &CommunityRef) -> Result<u32> {
        let sql = "INSERT INTO seasons (platform, community_id, number, started_ms) \
                   SELECT $1, $2, COALESCE(MAX(number), 1) + 1, $3 FROM seasons \
                   WHERE platform = $1 AND community_id = $2";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(now_ms())
                .execute(pool)
                .await?;
        });
        Ok(self.current_season(c).await?.0)
    }

    /// The rated people of `game` in a community (computer players left out), best first by
    /// the rating boards show.
    pub async fn ratings(&self, c: &CommunityRef, game: &str, limit: u32) -> Result<Vec<RatingRow>> {
        let sql = "SELECT player, display_name, mu, sigma, games, last_change FROM ratings \
                   WHERE platform = $1 AND community_id = $2 AND game = $3 \
                   AND player NOT LIKE 'computer:%' \
                   ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $4";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(game)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| rating_row!(r)).collect()
        })
    }

    /// Ratings of these players (user ids, `computer:<level>`) of `game`; the unrated are
    /// missing.
    pub async fn ratings_of(
        &self,
        c: &CommunityRef,
        game: &str,
        players: &[String],
    ) -> Result<Vec<RatingRow>> {
        let sql = "SELECT player, display_name, mu, sigma, games, last_change FROM ratings \
                   WHERE platform = $1 AND community_id = $2 AND game = $3 AND player = $4";
        let mut out = Vec::new();
        for p in players {
            let row = on_pool!(self, pool => {
                match sqlx::query(sql)
                    .bind(c.platform.as_str())
                    .bind(&c.community)
                    .bind(game)
                    .bind(p)
                    .fetch_optional(pool)
                    .await?
                {
                    Some(r) => Some(rating_row!(&r)?),
                    None => None,
                }
            });
            out.extend(row);
        }
        Ok(out)
    }

    /// Writes the new ratings a finished table gives, and each player's rating after it in
    /// their history, once per table (false: it was rated already).
    pub async fn apply_ratings(
        &self,
        table: i64,
        c: &CommunityRef,
        game: &str,
        rows: &[RatingRow],
    ) -> Result<bool> {
        let guard = "INSERT INTO ratings_applied (table_id) VALUES ($1)";
        let put = "INSERT INTO ratings (platform, community_id, game, player, display_name, mu, \
                   sigma, games, last_change, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                   ON CONFLICT (platform, community_id, game, player) DO UPDATE SET \
                   display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma, \
                   games = excluded.games, last_change = excluded.last_change, \
                   updated_ms = excluded.updated_ms";
        let history = "INSERT INTO rating_history (platform, community_id, game, player, table_id, \
                       mu, sigma, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING";
        let at = now_ms();
        on_write!(self, pool => {
            let mut tx = pool.begin().await?;
            match sqlx::query(guard).bind(table).execute(&mut *tx).await {
                Ok(_) => {}
                Err(e) if is_unique_violation(&e) => return Ok(false),
                Err(e) => return Err(e.into()),
            }
            for r in rows {
                sqlx::query(put)
                    .bind(c.platform.as_str())
                    .bind(&c.community)
                    .bind(game)
                    .bind(&r.player)
                    .bind(&r.name)
                    .bind(r.rating.mu)
                    .bind(r.rating.sigma)
                    .bind(r.games)
                    .bind(r.change)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(history)
                    .bind(c.platform.as_str())
                    .bind(&c.community)
                    .bind(game)
                    .bind(&r.player)
                    .bind(table)
                    .bind(r.rating.mu)
                    .bind(r.rating.sigma)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(y: i64, m: i64, d: i64) -> i64 {
        days_from_civil(y, m, d) * DAY_MS
    }

    #[test]
    fn periods_start_at_utc_midnight_monday_and_the_first_of_the_month() {
        // Wednesday 2026-11-25 13:45 UTC.
        let now = ms(2026, 11, 25) + 13 * 3_600_000 + 45 * 60_000;
        assert_eq!(period_start(Period::Day, now), ms(2026, 11, 25));
        assert_eq!(period_start(Period::Week, now), ms(2026, 11, 23));
        assert_eq!(period_start(Period::Month, now), ms(2026, 11, 1));
        assert_eq!(period_start(Period::All, now), 0);
        // A Monday starts its own week; March 1st after a leap February.
        assert_eq!(period_start(Period::Week, ms(2026, 11, 23) + 1), ms(2026, 11, 23));
        assert_eq!(period_start(Period::Month, ms(2028, 3, 1) + 5), ms(2028, 3, 1));
        assert_eq!(period_start(Period::Month, ms(2028, 2, 29)), ms(2028, 2, 1));
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_date(days_from_civil(2000, 12, 31)), (2000, 12, 31));
        assert_eq!(civil_date(days_from_civil(2028, 2, 29)), (2028, 2, 29));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }
}
