//! stikis-web, the web face (`--web-listen`): the third adapter over the host, beside the
//! Telegram and Discord ones. Read-only pages from the bots' database, served by the bot's
//! own process. Each community's pages live under `/c/<token>/`, a token only its chat is
//! told (`/web`) and an admin can replace (`/web new`), so no page can be guessed and no URL
//! holds a user id:
//!
//! - `/c/<token>/`: the boards of every game the community plays (points over a day, week,
//!   month, season or all time; ratings) and its latest finished games;
//! - `/c/<token>/g/<table>` and `/c/<token>/g/<table>/<deal>`: a finished game, deal by deal,
//!   every card of every trick, stepped through with the arrow keys or buttons;
//! - `/c/<token>/g/<table>/record.json`: its record, with seeds (`stikis replay` checks it);
//! - `/c/<token>/t/<id>`: a tournament's standings and seating, reloading itself while it is
//!   on;
//! - `/c/<token>/p/<key>`: a player's counts, ratings over time (charts) and latest games;
//!   the key is made from the token and the player's id (`player_key`), so no URL holds a
//!   user id and a new token gives new keys.
//!
//! An admin can make the community's pages public (`/web public <name>`): the front page `/`
//! then lists them under that name for anyone to find, until `/web private` takes them off
//! and replaces the link.
//!
//! Only closed tables (finished or stopped) and only their finished deals are served: a
//! deal in play never is. Anything else is a 404 page, never a panic.

pub mod activity;
mod kept;
mod page;
pub mod play;
mod players;
pub mod probe;
mod tournaments;
mod viewer;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

use stikis_host::i18n::Lang;
use stikis_host::store::{CommunityRef, Period, Store, TableStatus};

pub use page::card_text;
pub use viewer::{analyse, story, DealAnalysis, DealStory, Judged, Step, Story};

/// How many public communities the front page lists at most.
const PUBLIC_LISTED: u32 = 500;
/// How many rendered game pages are kept in memory (a finished game never changes).
const CACHE_PAGES: usize = 512;
/// How long a community's boards, once read, are served from memory: summing a season's
/// results is the dearest query of the pages, and boards a few seconds old are as good.
const BOARDS_FRESH: std::time::Duration = std::time::Duration::from_secs(10);

/// By (community token, table, deal, language): a page holds its community's link in every
/// link, so a new link (`/web new`) has pages of its own.
type PageCache = HashMap<(String, i64, usize, Lang), String>;
type BoardsCache = kept::Kept<(CommunityRef, String), page::CommunityData>;
/// A player's page data by (community, player key); None for a key of nobody.
type PlayersCache = kept::Kept<(CommunityRef, String), Option<players::PlayerData>>;

#[derive(Clone)]
struct Web {
    store: Store,
    /// Rendered deal pages (`PageCache`): a closed table's pages never change.
    cache: Arc<Mutex<PageCache>>,
    /// Boards read lately, by community and period.
    boards: Arc<BoardsCache>,
    /// Players' pages read lately.
    players: Arc<PlayersCache>,
    /// Tables whose analysis this process is computing.
    analysing: Arc<Mutex<HashSet<i64>>>,
    /// One analysis at a time, so that the solver never takes both cores from the bots.
    solver: Arc<tokio::sync::Semaphore>,
    /// The live table's state, when it is set up: Discord opens an Activity at the site's
    /// root (`activity::at_root`).
    live: Option<play::Play>,
}

impl Web {
    /// Starts the double-dummy analysis of a closed table's finished deals in the
    /// background, unless it is running here already; each deal's is stored when done.
    fn analyse_later(&self, table: i64) {
        if !self.analysing.lock().expect("analysing lock").insert(table) {
            return;
        }
        let web = self.clone();
        tokio::spawn(async move {
            let done = async {
                let _one = web.solver.acquire().await.ok()?;
                let log = web.store.table_log(table).await.ok()?;
                let deals = tokio::task::spawn_blocking(move || analyse(&log)).await.ok()?;
                for (i, deal) in deals.iter().enumerate() {
                    let json = serde_json::to_value(deal).ok()?;
                    if let Err(e) = web.store.save_analysis(table, i + 1, &json).await {
                        tracing::warn!(table, error = %e, "could not keep an analysis");
                        return None;
                    }
                }
                tracing::debug!(table, deals = deals.len(), "analysed");
                Some(())
            };
            done.await;
            web.analysing.lock().expect("analysing lock").remove(&table);
        });
    }
}

/// The query every page takes: `lang` switches the language, `p` the boards' period.
#[derive(Debug, Default, Deserialize)]
struct Ask {
    lang: Option<String>,
    p: Option<String>,
    /// Discord's frame of an Activity (the root opened inside Discord).
    frame_id: Option<String>,
}

/// `Ask` read from the query; a query it cannot read (a key given twice, say) is answered
/// with the site's own error page, not the extractor's plain text.
struct Asked(Ask);

impl<S: Send + Sync> FromRequestParts<S> for Asked {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match Query::<Ask>::from_request_parts(parts, state).await {
            Ok(Query(ask)) => Ok(Asked(ask)),
            Err(e) => {
                tracing::debug!(error = %e, "a query the pages cannot read");
                Err((
                    StatusCode::BAD_REQUEST,
                    no_store(),
                    Html(page::bad_request(Lang::En)),
                )
                    .into_response())
            }
        }
    }
}

/// The web face's routes over `store`: the read-only pages.
pub fn router(store: Store) -> Router {
    router_with(store, None, tokio::sync::watch::channel(false).1)
}

/// The web face's routes over `store`, with the live table (`play`) when it is set up.
/// Its feeds end when `closing` turns true.
pub fn router_with(
    store: Store,
    play: Option<play::PlayConfig>,
    closing: tokio::sync::watch::Receiver<bool>,
) -> Router {
    let (live, state) = match play {
        Some(config) => {
            let (routes, state) = play::routes(config, closing);
            (routes, Some(state))
        }
        None => (Router::new(), None),
    };
    let web = Web {
        store,
        cache: Arc::new(Mutex::new(HashMap::new())),
        analysing: Arc::new(Mutex::new(HashSet::new())),
        boards: kept::Kept::new(BOARDS_FRESH, CACHE_PAGES),
        players: kept::Kept::new(BOARDS_FRESH, CACHE_PAGES),
        solver: Arc::new(tokio::sync::Semaphore::new(1)),
        live: state,
    };
    Router::new()
        .route("/", get(home))
        .route("/static/stikis.css", get(css))
        .route("/static/viewer.js", get(js))
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route("/c/{token}", get(community))
        .route("/c/{token}/", get(community))
        .route("/c/{token}/g/{table}", get(game_first))
        .route("/c/{token}/g/{table}/record.json", get(record))
        .route("/c/{token}/g/{table}/{deal}", get(game))
        .route("/c/{token}/t/{id}", get(tournament))
        .route("/c/{token}/p/{key}", get(player))
        .fallback(not_found_page)
        .with_state(web)
        .merge(live)
        .layer(middleware::from_fn(etag))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            // A page's address holds its community's secret token: never sent elsewhere.
            HeaderValue::from_static("no-referrer"),
        ))
}

/// What a page may load: its own style sheet and script only (the no-script style is
/// inline), its own images and the SVG cards drawn in it; no plugin, no form to elsewhere.
const CSP: &str = "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; \
                   img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'";

/// The largest answer `etag` reads to tag it; anything larger goes out untagged.
const ETAG_MAX: usize = 8 << 20;

/// A weak ETag over every successful answer's body (SHA-256, so every process of a
/// several-instance set-up tags the same page alike), and 304 to a request that names it.
async fn etag(req: axum::extract::Request, next: Next) -> Response {
    let asked = req.headers().get(header::IF_NONE_MATCH).cloned();
    let res = next.run(req).await;
    let streamed = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if res.status() != StatusCode::OK || res.headers().contains_key(header::ETAG) || streamed {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = match axum::body::to_bytes(body, ETAG_MAX).await {
        Ok(b) => b,
        Err(e) => {
            tracing::warn!(error = %e, "a page could not be read to tag it");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let digest = Sha256::digest(&bytes);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    let tag = HeaderValue::from_str(&format!("W/\"{hex}\"")).expect("ASCII");
    let matches = asked.as_ref().and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim() == "*" || t.trim() == tag.to_str().unwrap_or(""))
    });
    parts.headers.insert(header::ETAG, tag);
    if matches {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, axum::body::Body::empty());
    }
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// The web face being served, and what stops it.
pub struct Listening {
    pub addr: SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Listening {
    /// Serves the web face on `listen` (port 0 picks a free one).
    pub async fn start(
        listen: SocketAddr,
        store: Store,
        play: Option<play::PlayConfig>,
    ) -> std::io::Result<Listening> {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (closing, closed) = tokio::sync::watch::channel(false);
        let app = router_with(store, play, closed);
        let task = tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
                // The live table's feeds end, so the connections they hold can close.
                let _ = closing.send(true);
            };
            if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
                tracing::warn!(error = %e, "the web listener stopped");
            }
        });
        tracing::info!(%addr, "serving the web face");
        Ok(Listening { addr, stop, task })
    }

    /// Stops taking requests and lets the ones being answered finish.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }

    /// Stops at once, as a killed process would.
    pub fn abort(self) {
        self.task.abort();
    }
}

pub use stikis_host::links::{community_url, game_url, player_key, tournament_url};

/// Why a page is not served.
enum Miss {
    NotFound(Lang),
    Store(stikis_host::store::StoreError),
}

impl From<stikis_host::store::StoreError> for Miss {
    fn from(e: stikis_host::store::StoreError) -> Self {
        Miss::Store(e)
    }
}

impl From<stikis_host::table::HostError> for Miss {
    fn from(e: stikis_host::table::HostError) -> Self {
        Miss::Store(match e {
            stikis_host::table::HostError::Store(e) => e,
            other => stikis_host::store::StoreError::Corrupt(other.to_string()),
        })
    }
}

impl IntoResponse for Miss {
    fn into_response(self) -> Response {
        match self {
            Miss::NotFound(lang) => not_found(lang),
            Miss::Store(e) => {
                tracing::warn!(error = %e, "a web page could not read the database");
                let body = page::unavailable(Lang::En);
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    [(header::RETRY_AFTER, "5")],
                    Html(body),
                )
                    .into_response()
            }
        }
    }
}

fn not_found(lang: Lang) -> Response {
    (StatusCode::NOT_FOUND, no_store(), Html(page::not_found(lang))).into_response()
}

async fn not_found_page(Asked(ask): Asked) -> Response {
    not_found(pick_lang(&ask).unwrap_or(Lang::En))
}

fn pick_lang(ask: &Ask) -> Option<Lang> {
    ask.lang
        .as_deref()
        .and_then(|l| Lang::ALL.into_iter().find(|x| x.code() == l))
}

fn no_store() -> [(header::HeaderName, HeaderValue); 1] {
    [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))]
}

/// Cache headers: `private`, since the link is a secret of its community.
fn cached(secs: u32) -> [(header::HeaderName, HeaderValue); 1] {
    let v = HeaderValue::from_str(&format!("private, max-age={secs}")).expect("ASCII");
    [(header::CACHE_CONTROL, v)]
}

async fn home(
    State(web): State<Web>,
    headers: axum::http::HeaderMap,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    if let Some(page) = activity::at_root(&web.live, ask.frame_id.is_some(), &headers, pick_lang(&ask)) {
        return Ok(page);
    }
    let lang = pick_lang(&ask).unwrap_or(Lang::En);
    let listed = web.store.public_communities(PUBLIC_LISTED).await?;
    // Public: the front page is the same for everyone.
    let v = HeaderValue::from_static("public, max-age=60");
    Ok(([(header::CACHE_CONTROL, v)], Html(page::home(lang, &listed))).into_response())
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        cached(3600),
        page::CSS,
    )
        .into_response()
}

/// The site's icon (browsers ask for `/favicon.ico` whatever the page names; both are it).
async fn favicon() -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], cached(86_400), FAVICON).into_response()
}

const FAVICON: &str = include_str!("favicon.svg");

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        cached(3600),
        page::JS,
    )
        .into_response()
}

/// The community a token opens, and the page's language (asked for, else the community's).
async fn open(web: &Web, token: &str, ask: &Ask) -> Result<(CommunityRef, Lang), Miss> {
    let asked = pick_lang(ask);
    let valid = token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit());
    let c = match valid {
        true => web.store.web_community(token).await?,
        false => None,
    };
    let Some(c) = c else {
        return Err(Miss::NotFound(asked.unwrap_or(Lang::En)));
    };
    let lang = match asked {
        Some(l) => l,
        None => web.store.community_settings(&c).await?.lang,
    };
    Ok((c, lang))
}

fn period_of(p: Option<&str>) -> Option<Period> {
    Some(match p.unwrap_or("season") {
        "day" => Period::Day,
        "week" => Period::Week,
        "month" => Period::Month,
        "all" => Period::All,
        "season" => Period::Season(None),
        n => Period::Season(Some(n.strip_prefix("season")?.parse().ok().filter(|&n| n >= 1)?)),
    })
}

async fn community(
    State(web): State<Web>,
    Path(token): Path<String>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    let (c, lang) = open(&web, &token, &ask).await?;
    let Some(period) = period_of(ask.p.as_deref()) else {
        return Err(Miss::NotFound(lang));
    };
    let key = (c.clone(), ask.p.clone().unwrap_or_default());
    let store = web.store.clone();
    let data = web
        .boards
        .get(key, move || async move {
            page::CommunityData::read(&store, &c, period).await
        })
        .await?;
    Ok((
        cached(10),
        Html(page::community(lang, &token, ask.p.as_deref(), &data)),
    )
        .into_response())
}

/// A closed table of the community, or a 404.
async fn closed_table(web: &Web, c: &CommunityRef, lang: Lang, table: &str) -> Result<i64, Miss> {
    let id: i64 = table.parse().map_err(|_| Miss::NotFound(lang))?;
    match web.store.table(id).await? {
        Some(t)
            if t.chat.community_ref() == *c
                && matches!(t.status, TableStatus::Finished | TableStatus::Stopped) =>
        {
            Ok(id)
        }
        _ => Err(Miss::NotFound(lang)),
    }
}

async fn game_first(
    State(web): State<Web>,
    Path((token, table)): Path<(String, String)>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    deal_page(web, token, table, "1".into(), ask).await
}

async fn game(
    State(web): State<Web>,
    Path((token, table, deal)): Path<(String, String, String)>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    deal_page(web, token, table, deal, ask).await
}

async fn deal_page(web: Web, token: String, table: String, deal: String, ask: Ask) -> Result<Response, Miss> {
    let (c, lang) = open(&web, &token, &ask).await?;
    let id = closed_table(&web, &c, lang, &table).await?;
    let deal_no: usize = deal.parse().map_err(|_| Miss::NotFound(lang))?;
    let key = (token.clone(), id, deal_no, lang);
    if let Some(html) = web.cache.lock().expect("cache lock").get(&key) {
        return Ok((cached(3600), Html(html.clone())).into_response());
    }
    let log = web.store.table_log(id).await?;
    let story = story(&log);
    if story.deals.is_empty() && deal_no == 1 {
        let html = page::no_deals(lang, &token, id, &story);
        return Ok((cached(60), Html(html)).into_response());
    }
    if deal_no == 0 || deal_no > story.deals.len() {
        return Err(Miss::NotFound(lang));
    }
    let analysis: Option<DealAnalysis> = web
        .store
        .analysis(id, deal_no)
        .await?
        .and_then(|v| serde_json::from_value(v).ok());
    let html = page::viewer(lang, &token, id, &story, deal_no, analysis.as_ref());
    if analysis.is_none() {
        // Shown without it this time; it is computed once, in the background.
        web.analyse_later(id);
        return Ok((no_store(), Html(html)).into_response());
    }
    let mut cache = web.cache.lock().expect("cache lock");
    if cache.len() >= CACHE_PAGES {
        cache.clear();
    }
    cache.insert(key, html.clone());
    Ok((cached(3600), Html(html)).into_response())
}

async fn record(
    State(web): State<Web>,
    Path((token, table)): Path<(String, String)>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    let (c, lang) = open(&web, &token, &ask).await?;
    let id = closed_table(&web, &c, lang, &table).await?;
    let log = web.store.table_log(id).await?;
    let story = story(&log);
    let name = format!("attachment; filename=\"stikis-{}-{id}.json\"", story.record.game);
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, name),
        ],
        cached(3600),
        serde_json::to_string_pretty(&story.record).unwrap_or_default(),
    )
        .into_response())
}

async fn tournament(
    State(web): State<Web>,
    Path((token, id)): Path<(String, String)>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    let (c, lang) = open(&web, &token, &ask).await?;
    let id: i64 = id.parse().map_err(|_| Miss::NotFound(lang))?;
    let tour = match web.store.tournament(id).await? {
        Some(tour) if tour.chat.community_ref() == c => tour,
        _ => return Err(Miss::NotFound(lang)),
    };
    let data = tournaments::TournamentData::read(&web.store, tour).await?;
    let html = Html(tournaments::tournament(lang, &token, &data));
    Ok(match data.live() {
        true => (no_store(), html).into_response(),
        false => (cached(600), html).into_response(),
    })
}

async fn player(
    State(web): State<Web>,
    Path((token, key)): Path<(String, String)>,
    Asked(ask): Asked,
) -> Result<Response, Miss> {
    let (c, lang) = open(&web, &token, &ask).await?;
    if key.len() != 16 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Miss::NotFound(lang));
    }
    let store = web.store.clone();
    let (community, kept_key, token_of) = (c.clone(), key.clone(), token.clone());
    let data = web
        .players
        .get((c, key.clone()), move || async move {
            let who = store
                .community_players(&community)
                .await?
                .into_iter()
                .find(|p| player_key(&token_of, p) == kept_key);
            match who {
                Some(who) => players::PlayerData::read(&store, &community, &who).await,
                None => Ok(None),
            }
        })
        .await?;
    let Some(data) = data.as_ref() else {
        return Err(Miss::NotFound(lang));
    };
    Ok((cached(10), Html(players::player(lang, &token, &key, data))).into_response())
}
