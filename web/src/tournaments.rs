//! A tournament's page (`/c/<token>/t/<id>`): where it stands, its standings counted from the
//! finished rounds' records (the count `stikis tournament verify` makes), who has entered, and
//! each round's seating with how far every table is. While the tournament is on, the page
//! reloads itself.

use maud::html;
use stikis_core::tournament::Standing;

use crate::page::{layout_refreshing, with_lang};
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::store::{Entrant, Store, TableRow, TableStatus, TournamentRow, TournamentStatus};
use stikis_host::table::HostError;

/// How often a page of a tournament in play reloads itself, in seconds.
pub const REFRESH_SECS: u32 = 30;

/// One table of a round: the names seated there, the table once it was opened with the
/// number of deals dealt at it, and while it plays each player's points so far.
pub struct RoundTable {
    pub names: Vec<String>,
    pub table: Option<(TableRow, usize)>,
    pub running: Vec<(String, i64)>,
}

/// Each player's points over the finished deals of a table in play, as `stikis replay` counts
/// them from its record (empty if there is nothing to count yet).
async fn running_totals(store: &Store, table: i64) -> Result<Vec<(String, i64)>, HostError> {
    let record = store.table_log(table).await?.record()?;
    let players = record.players.clone();
    let Ok(bytes) = serde_json::to_vec(&record) else {
        return Ok(Vec::new());
    };
    let totals = match stikis_core::record::replay(&bytes) {
        Ok(v) => v["totals"].clone(),
        Err(e) => {
            tracing::warn!(table, error = %e, "a tournament table's record did not replay");
            return Ok(Vec::new());
        }
    };
    let Some(totals) = totals.as_array() else {
        return Ok(Vec::new());
    };
    Ok(players
        .into_iter()
        .zip(totals.iter().map(|v| v.as_i64().unwrap_or(0)))
        .collect())
}

/// What a tournament's page shows, read in one go.
pub struct TournamentData {
    pub tour: TournamentRow,
    pub entrants: Vec<Entrant>,
    pub standings: Vec<Standing>,
    /// Rounds finished (the standings count them).
    pub done: usize,
    /// Every decided round: its number and tables.
    pub rounds: Vec<(usize, Vec<RoundTable>)>,
}

impl TournamentData {
    pub async fn read(store: &Store, tour: TournamentRow) -> Result<TournamentData, HostError> {
        let entrants = store.entrants(tour.id).await?;
        let (record, done) = stikis_host::tournament::tournament_record(store, &tour).await?;
        let all = store.tournament_tables(tour.id).await?;
        let mut rounds = Vec::new();
        for (round, seating, _) in store.rounds(tour.id).await? {
            let opened = stikis_host::tournament::round_tables(&all, round);
            let mut tables = Vec::new();
            for (i, names) in seating.into_iter().enumerate() {
                let table = match opened.iter().find(|r| {
                    r.tournament
                        .as_ref()
                        .and_then(|s| s.round_table())
                        .is_some_and(|(_, n)| n == i + 1)
                }) {
                    Some(row) => Some((row.clone(), store.deals(row.id).await?.len())),
                    None => None,
                };
                let running = match &table {
                    Some((row, deals)) if row.status.is_open() && *deals > 1 => {
                        running_totals(store, row.id).await?
                    }
                    _ => Vec::new(),
                };
                tables.push(RoundTable {
                    names,
                    table,
                    running,
                });
            }
            rounds.push((round, tables));
        }
        Ok(TournamentData {
            tour,
            entrants,
            standings: record.standings,
            done,
            rounds,
        })
    }

    /// Whether the tournament can still change (the page then reloads itself).
    pub fn live(&self) -> bool {
        matches!(
            self.tour.status,
            TournamentStatus::Registration | TournamentStatus::Running | TournamentStatus::Paused
        )
    }
}

/// Where the tournament stands, in words: entries open, round 2 of 3 being played, ...
/// (`decided`: how many rounds are seated; without it, a tournament in play is only "on").
pub fn status_text(lang: Lang, tour: &TournamentRow, decided: Option<usize>) -> String {
    let rounds = ("rounds", Arg::from(tour.rounds));
    match (tour.status, decided) {
        (TournamentStatus::Registration, _) => t(lang, "web-status-registration", &[]),
        (TournamentStatus::Running | TournamentStatus::Paused, None) => t(lang, "web-status-on", &[]),
        (TournamentStatus::Running, Some(n)) => t(
            lang,
            "web-status-running",
            &[("round", Arg::from(n.max(1))), rounds],
        ),
        (TournamentStatus::Paused, Some(n)) => {
            t(lang, "web-status-paused", &[("round", Arg::from(n + 1)), rounds])
        }
        (TournamentStatus::Finished, _) => t(lang, "web-status-finished", &[]),
        (TournamentStatus::Cancelled, _) => t(lang, "web-status-cancelled", &[]),
    }
}

pub fn tournament(lang: Lang, token: &str, data: &TournamentData) -> String {
    let tour = &data.tour;
    let base = format!("/c/{token}/");
    let here = format!("{base}t/{}", tour.id);
    let title = t(lang, "web-tournament-title", &[("n", Arg::from(tour.id))]);
    let withdrawn = |name: &str| data.entrants.iter().any(|e| e.withdrawn && e.name == name);
    let marked = |name: &str| match withdrawn(name) {
        true => format!("{name} {}", t(lang, "tournament-withdrawn", &[])),
        false => name.to_string(),
    };
    let body = html! {
        p { a href=(with_lang(&base, lang)) { "← " (t(lang, "web-boards", &[])) } }
        h1 { (title) }
        p.status { (status_text(lang, tour, Some(data.rounds.len()))) }
        p.hint {
            (t(lang, "tournament-commitment", &[("commitment", tour.commitment.clone().into())]))
        }
        @if data.done == 0 {
            p.empty { (t(lang, "web-no-standings", &[])) }
        } @else {
            section.board.standings {
                h2 { (t(lang, "web-standings", &[
                    ("round", Arg::from(data.done)),
                    ("rounds", Arg::from(tour.rounds)),
                ])) }
                table {
                    thead { tr {
                        th { "#" } th { (t(lang, "web-col-player", &[])) }
                        th.n { (t(lang, "web-col-big", &[])) } th.n { (t(lang, "web-col-pm", &[])) }
                        th.n { (t(lang, "web-col-rounds", &[])) }
                    } }
                    tbody {
                        @for (i, s) in data.standings.iter().enumerate() {
                            tr {
                                td { (i + 1) } td { (marked(&s.player)) }
                                td.n { (s.big_points.to_string()) } td.n { (format!("{:+}", s.plus_minus)) }
                                td.n { (s.rounds) }
                            }
                        }
                    }
                }
            }
        }
        @if !data.entrants.is_empty() {
            p { (t(lang, "web-entered", &[
                ("count", Arg::from(data.entrants.len())),
                ("names", data.entrants.iter().map(|e| marked(&e.name)).collect::<Vec<_>>().join(", ").into()),
            ])) }
        }
        @for (round, tables) in data.rounds.iter().rev() {
            section.round {
                h2 { (t(lang, "web-seating", &[("round", Arg::from(*round))])) }
                ol.seating {
                    @for (i, rt) in tables.iter().enumerate() {
                        li {
                            b { (t(lang, "web-table-n", &[("n", Arg::from(i + 1))])) } ": "
                            (rt.names.join(", ")) " · "
                            @match &rt.table {
                                Some((row, _)) if matches!(row.status, TableStatus::Finished | TableStatus::Stopped) => {
                                    a href=(with_lang(&format!("{base}g/{}", row.id), lang)) {
                                        (t(lang, "web-table-closed", &[]))
                                    }
                                }
                                Some((_, deals)) if *deals > 0 => {
                                    span.playing { (t(lang, "web-table-playing", &[("deal", Arg::from(*deals))])) }
                                    @if !rt.running.is_empty() {
                                        " · " span.running {
                                            (rt.running.iter().map(|(who, p)| format!("{} {p:+}", marked(who))).collect::<Vec<_>>().join(", "))
                                        }
                                    }
                                }
                                _ => { span.playing { (t(lang, "web-table-waiting", &[])) } }
                            }
                        }
                    }
                }
            }
        }
        @if data.live() {
            p.hint { (t(lang, "web-refreshing", &[])) }
        }
    };
    let refresh = data.live().then_some(REFRESH_SECS);
    layout_refreshing(lang, &title, &here, refresh, body)
}
