//! What the web face reads beyond the boards: each community's link token, its finished
//! games, its players' games and ratings over time, and the analyses of finished deals.

use rand::RngCore;
use stikis_core::rating::Rating;

use super::*;

/// A new link token: 128 bits from the OS-seeded thread generator, as 32 hexadecimal digits.
fn new_token() -> String {
    let mut b = [0u8; 16];
    rand::rng().fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Store {
    /// The community's web token, made on first use.
    pub async fn web_token(&self, c: &CommunityRef) -> Result<String> {
        let insert = "INSERT INTO web_links (platform, community_id, token, created_ms) \
                      VALUES ($1, $2, $3, $4) ON CONFLICT (platform, community_id) DO NOTHING";
        on_write!(self, pool => {
            sqlx::query(insert)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(new_token())
                .bind(now_ms())
                .execute(pool)
                .await?;
        });
        let select = "SELECT token FROM web_links WHERE platform = $1 AND community_id = $2";
        on_pool!(self, pool => {
            Ok(sqlx::query_scalar::<_, String>(select)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .fetch_one(pool)
                .await?)
        })
    }

    /// Replaces the community's web token: links with the old one stop working.
    pub async fn rotate_web_token(&self, c: &CommunityRef) -> Result<String> {
        let token = new_token();
        let sql = "INSERT INTO web_links (platform, community_id, token, created_ms) \
                   VALUES ($1, $2, $3, $4) ON CONFLICT (platform, community_id) \
                   DO UPDATE SET token = excluded.token, created_ms = excluded.created_ms";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(&token)
                .bind(now_ms())
                .execute(pool)
                .await?;
        });
        Ok(token)
    }

    /// Lists the community on the site's front page under `name`, or (None) takes it off.
    pub async fn set_web_public(&self, c: &CommunityRef, name: Option<&str>) -> Result<()> {
        self.web_token(c).await?;
        let sql = "UPDATE web_links SET public_name = $3 WHERE platform = $1 AND community_id = $2";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(name)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// The communities listed on the front page: (name, token), by name.
    pub async fn public_communities(&self, limit: u32) -> Result<Vec<(String, String)>> {
        let sql = "SELECT public_name, token FROM web_links WHERE public_name IS NOT NULL \
                   ORDER BY public_name, token LIMIT $1";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(i64::from(limit)).fetch_all(pool).await?;
            rows.iter()
                .map(|r| Ok((r.try_get("public_name")?, r.try_get("token")?)))
                .collect()
        })
    }

    /// The community a web token opens, if any.
    pub async fn web_community(&self, token: &str) -> Result<Option<CommunityRef>> {
        let sql = "SELECT platform, community_id FROM web_links WHERE token = $1";
        on_pool!(self, pool => {
            match sqlx::query(sql).bind(token).fetch_optional(pool).await? {
                Some(r) => Ok(Some(CommunityRef::new(
                    parse(&r.try_get::<String, _>("platform")?)?,
                    r.try_get::<String, _>("community_id")?,
                ))),
                None => Ok(None),
            }
        })
    }

    /// The community's finished and stopped tables, the latest first.
    pub async fn closed_tables(&self, c: &CommunityRef, limit: u32) -> Result<Vec<TableRow>> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE platform = $1 AND community_id = $2 \
             AND status IN ('finished', 'stopped') ORDER BY updated_ms DESC, id DESC LIMIT $3"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok(table_row!(r))).collect()
        })
    }

    /// A table's result as the boards counted it: each person's points over its finished
    /// deals (by user id), and how many deals finished.
    pub async fn table_result(&self, table: i64) -> Result<(Vec<(String, i64)>, usize)> {
        let sql = "SELECT user_id, SUM(points), COUNT(*) FROM results WHERE table_id = $1 \
                   GROUP BY user_id ORDER BY user_id";
        let rows: Vec<(String, i64, i64)> = on_pool!(self, pool => {
            sqlx::query_as(sql).bind(table).fetch_all(pool).await?
        });
        let deals = rows.iter().map(|r| r.2).max().unwrap_or(0) as usize;
        Ok((rows.into_iter().map(|(u, p, _)| (u, p)).collect(), deals))
    }

    /// The community's closed tables at which `user` sat, the latest first.
    pub async fn closed_tables_of(&self, c: &CommunityRef, user: &str, limit: u32) -> Result<Vec<TableRow>> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE platform = $1 AND community_id = $2 \
             AND status IN ('finished', 'stopped') \
             AND id IN (SELECT table_id FROM seats WHERE user_id = $3) \
             ORDER BY updated_ms DESC, id DESC LIMIT $4"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(user)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok(table_row!(r))).collect()
        })
    }

    /// Every person counted in the community's boards (user ids), in order.
    pub async fn community_players(&self, c: &CommunityRef) -> Result<Vec<String>> {
        let sql = "SELECT DISTINCT user_id FROM stats WHERE platform = $1 AND community_id = $2 \
                   ORDER BY user_id";
        on_pool!(self, pool => {
            Ok(sqlx::query_scalar::<_, String>(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .fetch_all(pool)
                .await?)
        })
    }

    /// A player's rating of `game` after each of their last `limit` rated tables, oldest
    /// first: (when, rating).
    pub async fn rating_history(
        &self,
        c: &CommunityRef,
        game: &str,
        player: &str,
        limit: u32,
    ) -> Result<Vec<(i64, Rating)>> {
        let sql = "SELECT at_ms, mu, sigma FROM rating_history WHERE platform = $1 \
                   AND community_id = $2 AND game = $3 AND player = $4 \
                   ORDER BY at_ms DESC, table_id DESC LIMIT $5";
        let mut points: Vec<(i64, Rating)> = on_pool!(self, pool => {
            let rows = sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(game)
                .bind(player)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok::<_, StoreError>((
                        r.try_get::<i64, _>("at_ms")?,
                        Rating { mu: r.try_get("mu")?, sigma: r.try_get("sigma")? },
                    ))
                })
                .collect::<Result<Vec<_>>>()?
        });
        points.reverse();
        Ok(points)
    }
}

impl Store {
    /// The stored double-dummy analysis of a finished deal, if it was computed.
    pub async fn analysis(&self, table: i64, deal_no: usize) -> Result<Option<Value>> {
        let sql = "SELECT analysis FROM analyses WHERE table_id = $1 AND deal_no = $2";
        let text = on_pool!(self, pool => {
            sqlx::query_scalar::<_, String>(sql)
                .bind(table)
                .bind(deal_no as i64)
                .fetch_optional(pool)
                .await?
        });
        text.map(|t| parse_json(&t, "analysis")).transpose()
    }

    /// Keeps a finished deal's analysis (the first one stored stays: they are the same).
    pub async fn save_analysis(&self, table: i64, deal_no: usize, analysis: &Value) -> Result<()> {
        let sql = "INSERT INTO analyses (table_id, deal_no, analysis) VALUES ($1, $2, $3) \
                   ON CONFLICT (table_id, deal_no) DO NOTHING";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(table)
                .bind(deal_no as i64)
                .bind(analysis.to_string())
                .execute(pool)
                .await?;
        });
        Ok(())
    }
}
