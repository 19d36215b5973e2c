//! A player's page in a community (`/c/<token>/p/<key>`): their counts and rating per game,
//! the rating over time as a chart, and their latest games. A player is named in the URL by a
//! key made from the community's token and their id, never by the id itself, and a new token
//! gives every player a new key. The rating charts (SVG, no script) also go beside the boards.

use maud::{html, Markup};
use stikis_core::rating::Rating;

use crate::page::{date, game_list, layout, with_lang};
use stikis_host::games::{game_title, GAMES};
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::store::{CommunityRef, RatingRow, StatsRow, Store, StoreError};

/// How many rated tables a player's chart goes back, and a board's small one.
const CHART_POINTS: u32 = 200;
pub const SPARK_POINTS: u32 = 30;
/// How many of a player's games their page lists.
const RECENT_GAMES: u32 = 20;

/// One game a player played in the community.
pub struct PlayerGame {
    pub game: &'static str,
    pub stats: Option<StatsRow>,
    pub rating: Option<RatingRow>,
    /// Their rating after each of their last rated tables, oldest first.
    pub history: Vec<(i64, Rating)>,
}

/// What a player's page shows, read in one go.
pub struct PlayerData {
    pub name: String,
    pub games: Vec<PlayerGame>,
    pub recent: Vec<crate::page::GameLine>,
}

impl PlayerData {
    /// The page of `player` (a user id) in community `c`; None for someone never counted
    /// there.
    pub async fn read(
        store: &Store,
        c: &CommunityRef,
        player: &str,
    ) -> Result<Option<PlayerData>, StoreError> {
        let mut name = None;
        let mut games = Vec::new();
        for game in GAMES {
            let stats = store.user_stats(c, game, player).await?;
            let rating = store
                .ratings_of(c, game, &[player.to_string()])
                .await?
                .into_iter()
                .next();
            if stats.is_none() && rating.is_none() {
                continue;
            }
            name = name
                .or_else(|| stats.as_ref().map(|s| s.name.clone()))
                .or_else(|| rating.as_ref().map(|r| r.name.clone()));
            let history = store.rating_history(c, game, player, CHART_POINTS).await?;
            games.push(PlayerGame {
                game,
                stats,
                rating,
                history,
            });
        }
        let Some(name) = name else {
            return Ok(None);
        };
        let mut recent = Vec::new();
        for table in store.closed_tables_of(c, player, RECENT_GAMES).await? {
            recent.push(crate::page::game_line(store, table).await?);
        }
        Ok(Some(PlayerData { name, games, recent }))
    }
}

/// A line chart of the shown rating after each rated table (oldest first): a small one for a
/// board's line, or a big one with its range and dates. `data-ratings` lists the values drawn.
pub fn chart(points: &[(i64, Rating)], big: bool) -> Markup {
    let Some((first, last)) = points.first().zip(points.last()) else {
        return html! {};
    };
    let values: Vec<i64> = points.iter().map(|(_, r)| r.shown()).collect();
    let (lo, hi) = values
        .iter()
        .fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let (w, h, left, pad) = if big {
        (600.0, 200.0, 44.0, 16.0)
    } else {
        (120.0, 28.0, 3.0, 3.0)
    };
    let n = values.len();
    let x = |i: usize| match n {
        1 => (left + w - pad) / 2.0,
        _ => left + (w - left - pad) * i as f64 / (n - 1) as f64,
    };
    let bottom = if big { h - 22.0 } else { h - pad };
    let y = |v: i64| match hi - lo {
        0 => (pad + bottom) / 2.0,
        span => pad + (bottom - pad) * (hi - v) as f64 / span as f64,
    };
    let path: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let listed: Vec<String> = values.iter().map(i64::to_string).collect();
    let end = values[n - 1];
    html! {
        svg.chart.big[big] viewBox=(format!("0 0 {w} {h}")) width=(w) height=(h)
            role="img" aria-label=(listed.join(" ")) data-ratings=(listed.join(" ")) {
            @if big {
                line.axis x1=(left) y1=(bottom) x2=(w - pad) y2=(bottom) {}
                text.lab x=(left - 6.0) y=(y(hi) + 4.0) text-anchor="end" { (hi) }
                @if lo != hi {
                    text.lab x=(left - 6.0) y=(y(lo) + 4.0) text-anchor="end" { (lo) }
                }
                text.lab x=(left) y=(h - 4.0) { (date(first.0)) }
                text.lab x=(w - pad) y=(h - 4.0) text-anchor="end" { (date(last.0)) }
            }
            polyline points=(path.join(" ")) {}
            circle cx=(x(n - 1)) cy=(y(end)) r=(if big { 4 } else { 2 }) {}
        }
    }
}

pub fn player(lang: Lang, token: &str, key: &str, data: &PlayerData) -> String {
    let base = format!("/c/{token}/");
    let here = format!("{base}p/{key}");
    let body = html! {
        p { a href=(with_lang(&base, lang)) { "← " (t(lang, "web-boards", &[])) } }
        h1 { (data.name) }
        @for g in &data.games {
            section.board {
                @let title = game_title(lang, g.game);
                @if let Some(s) = &g.stats {
                    p { (t(lang, "web-player-stats", &[
                        ("game", title.clone().into()),
                        ("points", Arg::from(s.stats.points)),
                        ("count", Arg::from(s.stats.games)),
                        ("deals", Arg::from(s.stats.deals)),
                        ("wins", Arg::from(s.stats.declarer_wins)),
                    ])) }
                }
                @if let Some(r) = &g.rating {
                    p { (t(lang, "web-player-rating", &[
                        ("game", title.clone().into()),
                        ("rating", Arg::from(r.rating.shown())),
                        ("count", Arg::from(r.games)),
                    ])) }
                    h2 { (t(lang, "web-rating-chart", &[("game", title.clone().into())])) }
                    @if g.history.is_empty() {
                        p.empty { (t(lang, "web-no-history", &[])) }
                    } @else {
                        (chart(&g.history, true))
                    }
                }
            }
        }
        h2 { (t(lang, "web-recent", &[])) }
        (game_list(lang, &base, &data.recent))
    };
    layout(lang, &data.name, &here, body)
}
