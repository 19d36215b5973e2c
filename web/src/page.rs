//! The web face's pages (maud templates), its style sheet and the viewer's few lines of
//! script. Cards are drawn once per page as SVG symbols and placed with `<use>`.

use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::Value;
use stikis_core::cards::{Card, CardSet, Suit};
use stikis_core::rating::Rating;
use stikis_core::Seat;

use crate::players::{chart, SPARK_POINTS};
use crate::viewer::{DealAnalysis, DealStory, Judged, Step, Story};
use stikis_host::games::{game_title, GAMES};
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::picture::{DealResult, Phase, Picture, PulesAfter};
use stikis_host::store::{
    BoardRow, CommunityRef, Period, RatingRow, Store, StoreError, TableRow, TournamentRow,
};

pub const CSS: &str = include_str!("stikis.css");
pub const JS: &str = include_str!("viewer.js");

/// How many lines a board shows, and how many games the community page lists.
const BOARD_LINES: u32 = 20;
const GAME_LINES: u32 = 30;

pub(super) fn layout(lang: Lang, title: &str, here: &str, body: Markup) -> String {
    layout_refreshing(lang, title, here, None, body)
}

/// A page, reloaded by the browser every `refresh` seconds when given (a tournament in play).
pub(super) fn layout_refreshing(
    lang: Lang,
    title: &str,
    here: &str,
    refresh: Option<u32>,
    body: Markup,
) -> String {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                @if let Some(secs) = refresh {
                    meta http-equiv="refresh" content=(secs);
                }
                title { (title) " · stikis" }
                link rel="stylesheet" href="/static/stikis.css";
                link rel="icon" type="image/svg+xml" href="/favicon.svg";
            }
            body {
                header {
                    span.brand { "stikis" }
                    nav.langs {
                        @for l in Lang::ALL {
                            @if l == lang {
                                b { (l.code()) }
                            } @else {
                                a href=(with_lang(here, l)) { (l.code()) }
                            }
                        }
                    }
                }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// `here` with `lang=` set (the page's other query kept).
pub(super) fn with_lang(here: &str, lang: Lang) -> String {
    let (path, query) = here.split_once('?').unwrap_or((here, ""));
    let mut parts: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("lang="))
        .collect();
    let l = format!("lang={}", lang.code());
    parts.push(&l);
    format!("{path}?{}", parts.join("&"))
}

/// The front page: what the site is, and the communities that made their pages public.
pub fn home(lang: Lang, listed: &[(String, String)]) -> String {
    layout(
        lang,
        "stikis",
        "/",
        html! {
            h1 { "stikis" }
            p { (t(lang, "web-home", &[])) }
            @if !listed.is_empty() {
                h2 { (t(lang, "web-listed", &[])) }
                ul.public {
                    @for (name, token) in listed {
                        li { a href=(with_lang(&format!("/c/{token}/"), lang)) { (name) } }
                    }
                }
            }
        },
    )
}

pub fn not_found(lang: Lang) -> String {
    let title = t(lang, "web-not-found-title", &[]);
    layout(
        lang,
        &title,
        "/",
        html! { h1 { (title) } p { (t(lang, "web-not-found", &[])) } },
    )
}

pub fn bad_request(lang: Lang) -> String {
    let title = t(lang, "web-bad-request-title", &[]);
    layout(
        lang,
        &title,
        "/",
        html! { h1 { (title) } p { (t(lang, "web-bad-request", &[])) } },
    )
}

pub fn unavailable(lang: Lang) -> String {
    layout(
        lang,
        "stikis",
        "/",
        html! { p { (t(lang, "web-unavailable", &[])) } },
    )
}

/// A ratings board's line: the player's rating, and their ratings after their last rated
/// tables (when, rating), oldest first.
pub type RatedLine = (RatingRow, Vec<(i64, Rating)>);

/// What the community page shows, read in one go.
pub struct CommunityData {
    /// The season the season tab names (the current one unless another was asked for).
    pub season: u32,
    pub boards: Vec<(&'static str, Vec<BoardRow>)>,
    /// Each game's ratings, with each player's latest ratings for the chart beside them.
    pub ratings: Vec<(&'static str, Vec<RatedLine>)>,
    pub games: Vec<GameLine>,
    pub tournaments: Vec<TournamentRow>,
    pub period: Period,
}

impl CommunityData {
    pub async fn read(store: &Store, c: &CommunityRef, period: Period) -> Result<CommunityData, StoreError> {
        let mut boards = Vec::new();
        let mut ratings = Vec::new();
        let span = store.period_span(c, period).await?;
        for game in GAMES {
            if let Some((from, to, _)) = span {
                let rows = store.period_board(c, game, from, to, BOARD_LINES).await?;
                if !rows.is_empty() {
                    boards.push((game, rows));
                }
            }
            let mut rows = Vec::new();
            for r in store.ratings(c, game, BOARD_LINES).await? {
                let history = store.rating_history(c, game, &r.player, SPARK_POINTS).await?;
                rows.push((r, history));
            }
            if !rows.is_empty() {
                ratings.push((game, rows));
            }
        }
        let mut games = Vec::new();
        for table in store.closed_tables(c, GAME_LINES).await? {
            games.push(game_line(store, table).await?);
        }
        let season = match span {
            Some((_, _, n)) if n > 0 => n,
            _ => store.current_season(c).await?.0,
        };
        Ok(CommunityData {
            season,
            boards,
            ratings,
            games,
            tournaments: store.community_tournaments(c, GAME_LINES).await?,
            period,
        })
    }
}

/// A date as `2026-11-26` (UTC).
pub(super) fn date(ms: i64) -> String {
    let (y, m, d) = stikis_host::store::civil_date(ms.div_euclid(86_400_000));
    format!("{y:04}-{m:02}-{d:02}")
}

/// A time of day as `18:05` (UTC).
pub(super) fn time_of_day(ms: i64) -> String {
    let minutes = ms.rem_euclid(86_400_000) / 60_000;
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// A closed table as its line in a list of games: the table, its players (each person with
/// the points the boards counted, `Anna +12`) and how many deals finished.
pub type GameLine = (TableRow, Vec<String>, usize);

pub(super) async fn game_line(store: &Store, table: TableRow) -> Result<GameLine, StoreError> {
    let (points, deals) = store.table_result(table.id).await?;
    let names = store
        .seats(table.id)
        .await?
        .into_iter()
        .map(|s| {
            let scored = match &s.occupant {
                stikis_host::store::Occupant::Human { user_id } => {
                    points.iter().find(|(u, _)| u == user_id).map(|(_, p)| *p)
                }
                _ => None,
            };
            match scored {
                Some(p) => format!("{} {}", s.name, signed(p)),
                None => s.name,
            }
        })
        .collect();
    Ok((table, names, deals))
}

/// Closed tables as a list of links to their pages: game, date, players.
pub(super) fn game_list(lang: Lang, base: &str, games: &[GameLine]) -> Markup {
    html! {
        ul.games {
            @for (table, names, deals) in games {
                li { a href=(with_lang(&format!("{base}g/{}", table.id), lang)) {
                    (t(lang, "web-game-line", &[
                        ("game", game_title(lang, &table.game).into()),
                        ("date", date(table.updated_ms).into()),
                        ("time", time_of_day(table.updated_ms).into()),
                        ("players", names.join(", ").into()),
                        ("deals", Arg::from(*deals as i64)),
                    ]))
                } }
            }
        }
    }
}

pub fn community(lang: Lang, token: &str, p: Option<&str>, data: &CommunityData) -> String {
    let base = format!("/c/{token}/");
    let here = match p {
        Some(p) => format!("{base}?p={p}"),
        None => base.clone(),
    };
    let tabs = [
        ("day", t(lang, "web-period-day", &[]), Period::Day),
        ("week", t(lang, "web-period-week", &[]), Period::Week),
        ("month", t(lang, "web-period-month", &[]), Period::Month),
        (
            "season",
            t(
                lang,
                "web-period-season",
                &[("n", Arg::from(i64::from(data.season)))],
            ),
            Period::Season(None),
        ),
        ("all", t(lang, "web-period-all", &[]), Period::All),
    ];
    let current = |p: Period| match (p, data.period) {
        (Period::Season(_), Period::Season(_)) => true,
        (a, b) => a == b,
    };
    let player_href =
        |player: &str| with_lang(&format!("{base}p/{}", crate::player_key(token, player)), lang);
    let body = html! {
        h1 { (t(lang, "web-boards", &[])) }
        nav.tabs {
            @for (code, label, period) in &tabs {
                @if current(*period) {
                    b { (label) }
                } @else {
                    a href=(with_lang(&format!("{base}?p={code}"), lang)) { (label) }
                }
            }
        }
        @if data.boards.is_empty() {
            p.empty { (t(lang, "web-no-boards", &[])) }
        }
        div.boards {
            @for (game, rows) in &data.boards {
                section.board {
                    h2 { (t(lang, "web-points", &[("game", game_title(lang, game).into())])) }
                    table {
                        thead { tr {
                            th { "#" } th { (t(lang, "web-col-player", &[])) }
                            th.n { (t(lang, "web-col-points", &[])) } th.n { (t(lang, "web-col-deals", &[])) }
                        } }
                        tbody {
                            @for (i, r) in rows.iter().enumerate() {
                                tr {
                                    td { (i + 1) }
                                    td { a href=(player_href(&r.user_id)) { (r.name) } }
                                    td.n { (r.points) } td.n { (r.deals) }
                                }
                            }
                        }
                    }
                }
            }
            @for (game, rows) in &data.ratings {
                section.board {
                    h2 { (t(lang, "web-ratings", &[("game", game_title(lang, game).into())])) }
                    table {
                        thead { tr {
                            th { "#" } th { (t(lang, "web-col-player", &[])) }
                            th.n { (t(lang, "web-col-rating", &[])) } th.n { (t(lang, "web-col-games", &[])) }
                            th {}
                        } }
                        tbody {
                            @for (i, (r, history)) in rows.iter().enumerate() {
                                tr {
                                    td { (i + 1) }
                                    td { a href=(player_href(&r.player)) { (r.name) } }
                                    td.n { (r.rating.shown()) } td.n { (r.games) }
                                    td { (chart(history, false)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if !data.tournaments.is_empty() {
            h2 { (t(lang, "web-tournaments", &[])) }
            ul.tournaments {
                @for tour in &data.tournaments {
                    li { a href=(with_lang(&format!("{base}t/{}", tour.id), lang)) {
                        (t(lang, "web-tournament-line", &[
                            ("n", Arg::from(tour.id)),
                            ("date", date(tour.created_ms).into()),
                            ("what", crate::tournaments::status_text(lang, tour, None).into()),
                        ]))
                    } }
                }
            }
        }
        h2 { (t(lang, "web-games", &[])) }
        @if data.games.is_empty() {
            p.empty { (t(lang, "web-no-games", &[])) }
        }
        (game_list(lang, &base, &data.games))
    };
    layout(lang, &t(lang, "web-boards", &[]), &here, body)
}

fn suit_colour(s: Option<Suit>) -> &'static str {
    match s {
        Some(Suit::Hearts | Suit::Diamonds) => "red",
        Some(Suit::Clubs | Suit::Spades) => "black",
        None => "joker",
    }
}

fn suit_glyph(s: Suit) -> &'static str {
    stikis_host::games::suit_symbol(s)
}

/// The card's text as people read it: `Q♣`, `10♦`, `JK`.
pub fn card_text(c: Card) -> String {
    match (c.rank(), c.suit()) {
        (Some(r), Some(s)) => format!("{}{}", r.symbol(), suit_glyph(s)),
        _ => "🃏".to_string(),
    }
}

/// The SVG symbols of every card the page shows, defined once.
pub(super) fn card_symbols(cards: CardSet) -> Markup {
    html! {
        svg.defs xmlns="http://www.w3.org/2000/svg" aria-hidden="true" {
            @for c in cards.iter() {
                symbol id=(format!("c{}", c)) viewBox="0 0 50 70" {
                    rect x="1" y="1" width="48" height="68" rx="5" class="face" {}
                    @match (c.rank(), c.suit()) {
                        (Some(r), Some(s)) => {
                            text x="5" y="17" class=(suit_colour(Some(s))) { (r.symbol()) }
                            text x="25" y="52" text-anchor="middle" class=(format!("pip {}", suit_colour(Some(s)))) { (suit_glyph(s)) }
                        }
                        _ => {
                            text x="25" y="44" text-anchor="middle" class="joker" { "JK" }
                        }
                    }
                }
            }
        }
    }
}

pub(super) fn card(c: Card, trumps: CardSet) -> Markup {
    let class = if trumps.contains(c) { "card trump" } else { "card" };
    html! {
        svg class=(class) role="img" aria-label=(card_text(c)) data-card=(c.to_string()) {
            use href=(format!("#c{}", c)) {}
        }
    }
}

fn name(players: &[String], seat: Seat) -> String {
    stikis_host::games::name(players, seat)
}

/// What a step says: who did what, and who took a trick it ended.
fn caption(lang: Lang, players: &[String], step: &Step, before: Option<&Step>) -> String {
    let (Some(seat), Some(action)) = (step.seat, &step.action) else {
        return t(lang, "web-step-dealt", &[]);
    };
    let who = name(players, seat);
    let mut text = match action
        .as_object()
        .and_then(|o| o.iter().find(|(k, _)| *k != "seat"))
    {
        Some((k, v)) if k == "play" => {
            let c = v.as_str().and_then(|s| s.parse::<Card>().ok());
            let shown = c.map(card_text).unwrap_or_else(|| v.to_string());
            t(
                lang,
                "web-act-play",
                &[("name", who.into()), ("card", shown.into())],
            )
        }
        Some(_) if step.told_in(lang).is_some() => step.told_in(lang).unwrap_or_default().to_string(),
        Some((k, v)) if k == "bid" => t(
            lang,
            "web-act-bid",
            &[("name", who.into()), ("what", words(v).into())],
        ),
        Some((k, v)) => t(
            lang,
            "web-act-other",
            &[("name", who.into()), ("what", format!("{k} {}", words(v)).into())],
        ),
        None => who,
    };
    let won_now = before.is_some_and(|b| b.view.tricks.len() < step.view.tricks.len());
    if let (true, Some((_, winner))) = (won_now, step.view.tricks.last()) {
        text.push(' ');
        text.push_str(&t(
            lang,
            "web-trick-won",
            &[("name", name(players, *winner).into())],
        ));
    }
    text
}

/// A record value as words: `take`, `9 H`, `AH 10H`, `true`.
fn words(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(words).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// What lies beside the hands after a step, as the players at the table saw it: what the
/// game puts beside them with every hand open (Zole's talon until its declarer picks it up,
/// then his burial), and the cards lying face up while the bidding is about them (Belote's
/// turned card).
fn aside(lang: Lang, players: &[String], step: &Step) -> Markup {
    let p = &step.picture;
    let face_up = (p.phase == Phase::Bidding)
        .then(|| p.face_up.iter().map(|(w, c)| (w.clone(), vec![*c])))
        .into_iter()
        .flatten();
    html! {
        @for (label, cards) in step.view.beside.clone().into_iter().chain(face_up) {
            div.aside {
                span.label { (label.say(lang, players)) }
                @for c in cards { (card(c, step.view.trumps)) }
            }
        }
    }
}

fn step_view(lang: Lang, players: &[String], deal: &DealStory, k: usize, judged: Option<&Judged>) -> Markup {
    let step = &deal.steps[k];
    let before = k.checked_sub(1).map(|i| &deal.steps[i]);
    let v = &step.view;
    let won_now = before.is_some_and(|b| b.view.tricks.len() < v.tricks.len());
    // The trick on the table: the one being played, or the one this step completed.
    let (trick, winner) = match (won_now, v.tricks.last()) {
        (true, Some((cards, w))) => (cards.clone(), Some(*w)),
        _ => (v.trick.clone(), None),
    };
    // Whose turn it is and who declared, as the table's picture says after this step.
    let to_act = step.picture.to_act;
    let declarer = step.picture.declarer;
    let dealt_in = |seat: usize| deal.steps[0].hands.get(seat).is_some_and(|h| !h.is_empty());
    html! {
        div.step data-step=(k) hidden[k != 0] {
            p.caption { (caption(lang, players, step, before)) }
            @if let Some(j) = judged { (dd_line(lang, j)) }
            div.trick {
                @for (seat, c) in &trick {
                    @if Some(*seat) == winner {
                        figure.won {
                            (card(*c, v.trumps))
                            figcaption { (name(players, *seat)) " " span.took { "✔" } }
                        }
                    } @else {
                        figure {
                            (card(*c, v.trumps))
                            figcaption { (name(players, *seat)) }
                        }
                    }
                }
            }
            (crate::play::picture_words(&step.picture, lang, players, false))
            (aside(lang, players, step))
            div.hands {
                @for (seat, hand) in step.hands.iter().enumerate() {
                    @let seat_no = seat as Seat;
                    @let class = match (Some(seat_no) == to_act, Some(seat_no) == declarer) {
                        (true, true) => "seat next declarer",
                        (true, false) => "seat next",
                        (false, true) => "seat declarer",
                        (false, false) => "seat",
                    };
                    div class=(class) data-seat=(seat) {
                        div.who {
                            (name(players, seat_no))
                            " "
                            span.taken { (v.tricks.iter().filter(|t| t.1 == seat_no).count()) }
                            @if Some(seat_no) == declarer { " " span.badge { (t(lang, "web-declarer", &[])) } }
                        }
                        @if dealt_in(seat) {
                            div.hand { @for c in hand { (card(*c, v.trumps)) } }
                        } @else {
                            div.out { (t(lang, "web-sits-out", &[])) }
                        }
                    }
                }
            }
        }
    }
}

/// The double-dummy values of the cards the player could play, best first, the played one
/// marked, and what it cost.
fn dd_line(lang: Lang, j: &Judged) -> Markup {
    html! {
        p.dd {
            (t(lang, "web-dd", &[])) " "
            @for (card, value) in &j.options {
                @let label = card.parse::<Card>().map(card_text).unwrap_or_else(|_| card.clone());
                span class=(if *card == j.played { "opt played" } else { "opt" }) data-card=(card) {
                    (label) " " (if *value == 0 { "0".to_string() } else { value.to_string() })
                }
                " "
            }
            @if j.cost > 0 {
                b.cost { (t(lang, "web-dd-cost", &[("n", Arg::from(i64::from(j.cost)))])) }
            }
        }
    }
}

/// Per player: what their cards cost against double-dummy play, and how many were mistakes.
fn dd_summary(lang: Lang, players: &[String], analysis: &DealAnalysis) -> Markup {
    let mut lost = vec![(0i64, 0usize, 0usize); players.len()];
    for j in analysis.iter().flatten() {
        if let Some(l) = lost.get_mut(j.seat as usize) {
            l.0 += i64::from(j.cost);
            l.1 += usize::from(j.cost > 0);
            l.2 += 1;
        }
    }
    html! {
        section.summary {
            h2 { (t(lang, "web-dd-summary", &[])) }
            table {
                thead { tr {
                    th { (t(lang, "web-col-player", &[])) }
                    th.n { (t(lang, "web-col-lost", &[])) }
                    th.n { (t(lang, "web-col-mistakes", &[])) }
                } }
                tbody {
                    @for (seat, (points, mistakes, cards)) in lost.iter().enumerate() {
                        @if *cards > 0 {
                            tr data-seat=(seat) { td { (name(players, seat as Seat)) } td.n { (points) } td.n { (mistakes) " / " (cards) } }
                        }
                    }
                }
            }
            p.hint { (t(lang, "web-dd-about", &[])) }
        }
    }
}

/// The columns of a score sheet: one per player, or one per side where the table's picture
/// says its seats play in teams.
pub(crate) fn sheet_columns(p: &Picture, players: &[String]) -> Vec<String> {
    match p.teams.is_empty() {
        true => players.to_vec(),
        false => p
            .teams
            .iter()
            .map(|side| {
                side.iter()
                    .map(|&s| name(players, s))
                    .collect::<Vec<_>>()
                    .join(" & ")
            })
            .collect(),
    }
}

/// The score sheet: a row per deal, drawn from how each deal ended in its last picture (its
/// typed result: what was played, by whom, and each column's total and change; Zole's pules
/// after it).
fn score(lang: Lang, story: &Story, token: &str, table: i64, current: usize) -> Markup {
    let players = story.players();
    let results: Vec<Option<&DealResult>> = story
        .deals
        .iter()
        .map(|d| d.steps.last().and_then(|s| s.picture.result.as_ref()))
        .collect();
    let pules = results.iter().flatten().any(|r| r.pules.is_some());
    html! {
        table.score {
            thead { tr {
                th { "#" } th { (t(lang, "web-contract", &[])) } th { (t(lang, "web-declarer", &[])) }
                @if let Some(first) = story.deals.first().and_then(|d| d.steps.first()) {
                    @for c in sheet_columns(&first.picture, players) { th.n { (c) } }
                }
                @if pules { th { (t(lang, "web-col-pules", &[])) } }
            } }
            tbody {
                @for (d, r) in story.deals.iter().zip(&results) {
                    tr class=(if d.no == current { "current" } else { "" }) {
                        td { a href=(format!("/c/{token}/g/{table}/{}?lang={}", d.no, lang.code())) { (d.no) } }
                        @match r {
                            Some(r) => {
                                td { (r.ended.as_ref().map(|w| w.say(lang, players)).unwrap_or_default()) }
                                td { (r.declarer.map(|s| name(players, s)).unwrap_or_default()) }
                                @for (total, delta) in r.totals.iter().zip(&r.deltas) {
                                    td.n { (total) " " small { "(" (signed(*delta)) ")" } }
                                }
                                @if pules { td.pules { (r.pules.as_ref().map(|p| pules_text(lang, players, p)).unwrap_or_default()) } }
                            }
                            None => { td {} td {} }
                        }
                    }
                }
            }
        }
    }
}

/// The pules on the sheet: the common ones, and each player's own.
fn pules_text(lang: Lang, players: &[String], pules: &PulesAfter) -> String {
    let mut parts = vec![t(lang, "web-pules-common", &[("n", Arg::from(pules.common))])];
    for (i, n) in pules.personal.iter().enumerate() {
        if let (true, Some(who)) = (*n > 0, players.get(i)) {
            parts.push(format!("{who} {n}"));
        }
    }
    parts.join(" · ")
}

pub(crate) fn signed(n: i64) -> String {
    match n > 0 {
        true => format!("+{n}"),
        false => n.to_string(),
    }
}

fn check(lang: Lang, story: &Story, deal: &DealStory, token: &str, table: i64) -> Markup {
    let file = format!("stikis-{}-{table}.json", story.record.game);
    html! {
        section.check {
            dl {
                dt { (t(lang, "web-seed", &[])) } dd { code { (deal.seed) } }
                dt { (t(lang, "web-commitment", &[])) } dd { code { (deal.commitment) } }
            }
            @match &story.replay {
                Ok(_) => p.ok { "✓ " (t(lang, "web-checked", &[])) },
                Err(e) => p.bad { "✗ " (t(lang, "web-check-failed", &[("reason", e.clone().into())])) },
            }
            p {
                (t(lang, "web-replay", &[])) " " code { "stikis replay " (file) } " · "
                a href=(format!("/c/{token}/g/{table}/record.json")) download=(file) { (t(lang, "web-download", &[])) }
            }
        }
    }
}

pub fn viewer(
    lang: Lang,
    token: &str,
    table: i64,
    story: &Story,
    deal_no: usize,
    analysis: Option<&DealAnalysis>,
) -> String {
    let deal = &story.deals[deal_no - 1];
    let players = story.players();
    let mut shown = CardSet::EMPTY;
    for step in &deal.steps {
        shown |= step.picture.cards().into_iter().collect::<CardSet>();
        for c in step.view.beside.iter().flat_map(|b| &b.1) {
            shown.insert(*c);
        }
        for h in &step.view.hands {
            shown |= *h;
        }
        for (_, c) in step
            .view
            .trick
            .iter()
            .chain(step.view.tricks.iter().flat_map(|t| t.0.iter()))
        {
            shown.insert(*c);
        }
    }
    let title = format!(
        "{} · {}",
        game_title(lang, &story.record.game),
        t(lang, "web-deal", &[("n", Arg::from(deal_no))])
    );
    let link = |n: usize| format!("/c/{token}/g/{table}/{n}?lang={}", lang.code());
    let body = html! {
        (card_symbols(shown))
        p.back { a href=(format!("/c/{token}/?lang={}", lang.code())) { "← " (t(lang, "web-boards", &[])) } }
        h1 { (title) }
        @if let Some(d) = deal.dealer { p { (t(lang, "web-dealer", &[("name", name(players, d).into())])) } }
        nav.deals {
            @if deal_no > 1 { a rel="prev" href=(link(deal_no - 1)) { "« " (t(lang, "web-deal", &[("n", Arg::from(deal_no - 1))])) } }
            @if deal_no < story.deals.len() { a rel="next" href=(link(deal_no + 1)) { (t(lang, "web-deal", &[("n", Arg::from(deal_no + 1))])) " »" } }
        }
        div #viewer data-steps=(deal.steps.len()) {
            div.controls {
                button #prev type="button" { (t(lang, "web-prev", &[])) }
                span #where { "1 / " (deal.steps.len()) }
                button #next type="button" { (t(lang, "web-next", &[])) }
            }
            @for k in 0..deal.steps.len() {
                @let judged = k.checked_sub(1).and_then(|a| analysis.and_then(|x| x.get(a))).and_then(Option::as_ref);
                (step_view(lang, players, deal, k, judged))
            }
            p.hint { (t(lang, "web-keys", &[])) " " (t(lang, "web-trumps", &[])) }
        }
        @if let Some(told) = deal.told_in(lang) {
            section.told {
                h2 { (t(lang, "web-told", &[])) }
                @for line in told.lines().filter(|l| !l.trim().is_empty()) { p { (line) } }
            }
        }
        @match analysis {
            None => p.pending { (t(lang, "web-dd-pending", &[])) },
            Some(a) if a.iter().all(Option::is_none) => p.hint { (t(lang, "web-dd-none", &[])) },
            Some(a) => (dd_summary(lang, players, a)),
        }
        h2 { (t(lang, "web-score", &[])) }
        (score(lang, story, token, table, deal_no))
        (check(lang, story, deal, token, table))
        script src="/static/viewer.js" {}
        noscript { style { (PreEscaped(".step[hidden]{display:block}.controls{display:none}")) } }
    };
    layout(lang, &title, &format!("/c/{token}/g/{table}/{deal_no}"), body)
}

pub fn no_deals(lang: Lang, token: &str, table: i64, story: &Story) -> String {
    let title = game_title(lang, &story.record.game);
    let body = html! {
        p.back { a href=(format!("/c/{token}/?lang={}", lang.code())) { "← " (t(lang, "web-boards", &[])) } }
        h1 { (title) }
        p.empty { (t(lang, "web-no-deals", &[])) }
    };
    layout(lang, &title, &format!("/c/{token}/g/{table}"), body)
}
