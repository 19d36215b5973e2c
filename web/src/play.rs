//! The live table: a running table as a page, in any browser and as a Telegram Mini App.
//!
//! - `/play/<ref>?k=<key>`: the table for the holder of a personal key (`/play` in the
//!   table's chat gives it privately; `links::play_key`, signed over table, user and expiry).
//!   `<ref>` names the table without its number (`links::table_ref`: it cannot be guessed or
//!   counted). The page shows the seats, whose turn it is with the time left, the trick on
//!   the table, the last trick and who took it, the totals, and, for a seated player, their
//!   hand in the game's order with the cards they may play raised and every other decision
//!   the chat offers, as buttons ("I'm back" while a computer player holds the seat). A key
//!   without a seat shows what the group sees and nothing more.
//! - `/play/<ref>/events?k=<key>`: the page's feed (server-sent events): the table redrawn
//!   for that person whenever it changes, here or (PostgreSQL `NOTIFY`) in another process.
//!   The browser reconnects by itself and is sent the table as it is then. With `hold_hands`
//!   (both bots), while a seated person's feed is connected the chat is not sent their
//!   hand at that table (`stikis_host::watching`): it is shown there again once their last
//!   page closes.
//! - `POST /play/<ref>/press` (`k`, `token`): a tap. Only a seated key may tap, and only a
//!   token its page offers now (the view's `offers`); anything else is refused as out of date
//!   and changes nothing. The move is made in the person's name, and the chat is shown it as
//!   if it had been made there.
//! - `/play/app` and `POST /play/app/session`: the Mini App. Its page sends Telegram's
//!   `initData`; the server checks it as Telegram documents (HMAC-SHA-256 with a key made from
//!   the bot's token, `auth_date` no older than the configured limit), and answers with the
//!   person's own `/play` address for the table whose reference is the `start_param`, only if
//!   they belong to it: seated there, or a member of its chat (known to the store, else asked
//!   of the platform through `Members`, the answer kept for `member_cache_secs`). Everyone
//!   else gets the same 403, whether or not the table exists.
//!
//! Every refusal is counted by reason (`stikis_play_refused_total`) and answered in the
//! person's language: a page for the pages, JSON for the feed, the taps and the session.
//! Nothing a page is sent holds a card of another seat's hand or of the talon: the pages are
//! drawn from `Host::table_view`, which holds only what the viewer may see.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use hmac::{Hmac, Mac};
use maud::{html, Markup};
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use stikis_core::cards::CardSet;
use stikis_core::Seat;
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::links::{check_play_key, play_key, table_of_ref, table_ref, PlayKeyError, PLAY_LINK_SECS};
use stikis_host::picture::DealResult;
use stikis_host::store::{ChatRef, Occupant, Platform, TableRow};
use stikis_host::view::TableView;
use stikis_host::{Command, Host, Request, User};

use crate::page;

/// Telegram's script for Mini Apps, loaded from Telegram as Telegram requires.
pub const TELEGRAM_SCRIPT: &str = "https://telegram.org/js/telegram-web-app.js";

/// The live table's set-up (`--web-url` and the bot's token).
#[derive(Clone)]
pub struct PlayConfig {
    pub host: Arc<Host>,
    /// Signs and checks personal keys (`links::play_secret` of the bot's token).
    pub secret: Vec<u8>,
    /// The Telegram bot's token: Mini App sessions are checked with it (None: no Mini App).
    pub telegram_token: Option<String>,
    /// How old a Mini App's `initData` may be, in seconds.
    pub init_data_max_age_s: i64,
    /// Where the Mini App page loads Telegram's script from (`TELEGRAM_SCRIPT`).
    pub telegram_script: String,
    /// While a seated person's feed is connected, their hand at that table is not sent to
    /// the chat (`Host::watch`), and is shown there again once their last page closes (on
    /// by default: each hand edit is an API call of a rate-limited bot); off, the chat is sent
    /// every hand as if no page were open.
    pub hold_hands: bool,
    /// Asks the platform whether a person is a member of a chat (Telegram's
    /// `getChatMember`), for a Mini App session of someone the store does not know in the
    /// table's chat. None: only people the store knows there may watch.
    pub members: Option<Arc<dyn Members>>,
    /// How long the platform's answer about one person in one chat is kept, in seconds.
    pub member_cache_secs: u64,
    /// The Discord Activity's sign-in (`crate::activity`): None, no Activity.
    pub activity: Option<Arc<dyn crate::activity::Activity>>,
    /// Where the Activity's page loads the Embedded App SDK from (`activity::DISCORD_SDK`,
    /// the vendored bundle).
    pub discord_sdk: String,
}

/// The platform's word on whether `user` is a member of `chat` (Telegram: `getChatMember`
/// says member, administrator, creator or a restricted member). An error (the platform
/// could not be asked) is not an answer: the session is refused with "try again", and
/// nothing is kept.
pub trait Members: Send + Sync {
    fn is_member<'a>(
        &'a self,
        chat: &'a ChatRef,
        user: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<bool, String>>;
}

impl PlayConfig {
    /// The set-up for a bot: its host and token.
    pub fn new(host: Arc<Host>, bot_token: &str, telegram: bool) -> PlayConfig {
        PlayConfig {
            host,
            secret: stikis_host::links::play_secret(bot_token),
            telegram_token: telegram.then(|| bot_token.to_string()),
            init_data_max_age_s: 24 * 3600,
            telegram_script: TELEGRAM_SCRIPT.into(),
            hold_hands: true,
            members: None,
            member_cache_secs: 60,
            activity: None,
            discord_sdk: crate::activity::DISCORD_SDK.into(),
        }
    }
}

pub(crate) const JS: &str = include_str!("play.js");

/// The live table's routes. The feeds end when `closing` turns true (the web face stops: a
/// graceful shutdown waits for every connection, and a feed would never end by itself).
pub(crate) fn routes(config: PlayConfig, closing: tokio::sync::watch::Receiver<bool>) -> (Router, Play) {
    // On PostgreSQL, other processes' changes are passed on for as long as the process lives
    // (the task is detached); nothing on SQLite.
    let host = config.host.clone();
    let _ = config
        .host
        .store()
        .listen_changes(move |id| host.changed_elsewhere(id));
    let activity = config.activity.is_some();
    let state = Arc::new(Live {
        hub: Hub::start(&config.host),
        config,
        closing,
        members_seen: Default::default(),
    });
    let mut router = Router::new()
        .route("/play/app", get(app_page))
        .route("/play/app/session", post(app_session))
        .route("/static/play.js", get(js))
        .route("/play/{table}", get(table_page))
        .route("/play/{table}/events", get(events))
        .route("/play/{table}/press", post(press));
    if activity {
        router = router.merge(crate::activity::routes());
    }
    (router.with_state(state.clone()), state)
}

pub(crate) struct Live {
    config: PlayConfig,
    closing: tokio::sync::watch::Receiver<bool>,
    hub: Arc<Hub>,
    /// The platform's recent answers: (platform, chat, user) → (member, when asked).
    members_seen: std::sync::Mutex<MembersSeen>,
}

/// The platform's answers by (platform, chat, user): member or not, and when it was asked.
type MembersSeen = std::collections::HashMap<(Platform, String, String), (bool, std::time::Instant)>;

/// The host's changes, handed to the feeds of the table that changed only: a move wakes the
/// pages of its table, not every page connected. A change made here comes with the views its
/// pages draw (`Follow::draws`), drawn once at the commit; None: the page reads the table.
struct Hub {
    tables: std::sync::Mutex<std::collections::HashMap<i64, tokio::sync::broadcast::Sender<Pushed>>>,
}

/// The views pushed with a change, if it was drawn here.
type Pushed = Option<Arc<stikis_host::view::Drawn>>;

impl Hub {
    fn start(host: &Arc<Host>) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            tables: Default::default(),
        });
        let mut changes = host.changes();
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            use tokio::sync::broadcast::error::RecvError;
            loop {
                let changed = changes.recv().await;
                let Some(hub) = weak.upgrade() else { return };
                let tables = hub.tables.lock().expect("feeds by table");
                match changed {
                    Ok(change) if change.table != 0 => {
                        if let Some(tx) = tables.get(&change.table) {
                            let _ = tx.send(change.drawn);
                        }
                    }
                    // Any table may have changed (another process's notices were lost, or
                    // this task fell behind): every page reads its table again.
                    Ok(_) | Err(RecvError::Lagged(_)) => {
                        for tx in tables.values() {
                            let _ = tx.send(None);
                        }
                    }
                    Err(RecvError::Closed) => return,
                }
            }
        });
        hub
    }

    /// The changes of `table`, for one feed.
    fn subscribe(&self, table: i64) -> tokio::sync::broadcast::Receiver<Pushed> {
        let mut tables = self.tables.lock().expect("feeds by table");
        // Tables no page follows any more are forgotten.
        if tables.len() > 64 {
            tables.retain(|_, tx| tx.receiver_count() > 0);
        }
        tables
            .entry(table)
            .or_insert_with(|| tokio::sync::broadcast::channel(16).0)
            .subscribe()
    }
}

impl std::ops::Deref for Live {
    type Target = PlayConfig;
    fn deref(&self) -> &PlayConfig {
        &self.config
    }
}

pub(crate) type Play = Arc<Live>;

async fn js() -> Response {
    asset("text/javascript; charset=utf-8", "public, max-age=300", JS)
}

/// A file the pages load, with its type and how long browsers keep it.
pub(crate) fn asset(content_type: &'static str, cache: &'static str, body: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, content_type)],
        [(header::CACHE_CONTROL, HeaderValue::from_static(cache))],
        body,
    )
        .into_response()
}

/// Why a live-table request is refused. Each answers in the person's language, a page for
/// the pages and JSON for the feed, the taps and the Mini App's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Not a key or a table reference this bot made, or one that was changed.
    Forged,
    /// A key this bot made, but its time is up.
    Expired,
    /// Not a person who belongs to the table (not seated, not a member of its chat), or no
    /// such open table: the one answer for both, so nothing tells whether the table exists.
    NotYours,
    /// A watcher's tap: only seated people play.
    Watching,
    /// A token the page does not offer its seat now (an old picture, or one never offered).
    NotOffered,
    /// A request that is not the form or query the page sends.
    Malformed,
    /// The database could not be asked: try again.
    Unavailable,
    /// The platform (Telegram, Discord) could not be asked: try again.
    PlatformUnavailable,
}

impl Refusal {
    fn status(self) -> StatusCode {
        match self {
            Refusal::Forged | Refusal::Expired => StatusCode::UNAUTHORIZED,
            Refusal::NotYours | Refusal::Watching => StatusCode::FORBIDDEN,
            Refusal::NotOffered => StatusCode::CONFLICT,
            Refusal::Malformed => StatusCode::BAD_REQUEST,
            Refusal::Unavailable | Refusal::PlatformUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
    fn key(self) -> &'static str {
        match self {
            Refusal::Forged => "play-forged",
            Refusal::Expired => "play-expired",
            Refusal::NotYours => "play-not-yours",
            Refusal::Watching => "not-at-table",
            Refusal::NotOffered => "button-stale",
            Refusal::Malformed => "play-bad-request",
            Refusal::Unavailable => "store-unavailable",
            Refusal::PlatformUnavailable => "play-platform-unavailable",
        }
    }

    /// Counts the refusal under `reason` (finer than the answer: `unknown_table`,
    /// `not_member`, ...) and logs it, without the credential.
    pub(crate) fn counted(self, reason: &'static str) -> Refusal {
        tracing::info!(reason, "a live-table request was refused");
        metrics::counter!("stikis_play_refused_total", "reason" => reason).increment(1);
        self
    }

    /// The refusal as a page.
    fn page(self, lang: Lang) -> Response {
        let body = html! {
            h1 { (t(lang, "play-denied-title", &[])) }
            p { (t(lang, self.key(), &[])) }
        };
        (
            self.status(),
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
            Html(page::layout(lang, &t(lang, "play-denied-title", &[]), "/", body)),
        )
            .into_response()
    }

    /// The refusal as JSON (`field`: "reply" for a tap, "error" elsewhere).
    pub(crate) fn json(self, lang: Lang, field: &str) -> Response {
        (
            self.status(),
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
            Json(json!({ field: t(lang, self.key(), &[]) })),
        )
            .into_response()
    }
}

pub(crate) fn now_s() -> i64 {
    stikis_host::store::now_ms() / 1000
}

/// The table a reference names, if this bot made it.
fn table_named(p: &Live, reference: &str) -> Result<i64, Refusal> {
    table_of_ref(&p.secret, reference).ok_or_else(|| Refusal::Forged.counted("unknown_table"))
}

/// The person a key names at `table` (None: a spectator's key).
fn who(p: &Live, table: i64, key: &str) -> Result<Option<String>, Refusal> {
    match check_play_key(&p.secret, table, key, now_s()) {
        Ok(user) => Ok((!user.is_empty()).then_some(user)),
        Err(PlayKeyError::Expired) => Err(Refusal::Expired.counted("expired")),
        Err(PlayKeyError::Forged) => Err(Refusal::Forged.counted("forged")),
    }
}

/// How a person belongs to a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Belongs {
    Seated,
    Member,
}

/// Whether `user` belongs to the table `row`: seated there, or a member of its chat (the
/// store knows them there, or the platform says so).
async fn belongs(p: &Live, row: &TableRow, user: &str) -> Result<Option<Belongs>, Refusal> {
    let store = p.host.store();
    let unavailable = |e: &dyn std::fmt::Display| {
        tracing::warn!(error = %e, table = row.id, "a live-table check could not read the store");
        Refusal::Unavailable.counted("store_unavailable")
    };
    let seats = store.seats(row.id).await.map_err(|e| unavailable(&e))?;
    if seats
        .iter()
        .any(|s| matches!(&s.occupant, Occupant::Human { user_id } if user_id == user))
    {
        return Ok(Some(Belongs::Seated));
    }
    if store
        .known_in_chat(&row.chat, user)
        .await
        .map_err(|e| unavailable(&e))?
    {
        return Ok(Some(Belongs::Member));
    }
    let Some(members) = &p.members else {
        return Ok(None);
    };
    let cache_key = (row.chat.platform, row.chat.chat.clone(), user.to_string());
    let keep = std::time::Duration::from_secs(p.member_cache_secs);
    {
        let mut seen = p.members_seen.lock().expect("members seen");
        if let Some((member, at)) = seen.get(&cache_key) {
            if at.elapsed() < keep {
                return Ok(member.then_some(Belongs::Member));
            }
        }
        if seen.len() > 10_000 {
            seen.retain(|_, (_, at)| at.elapsed() < keep);
        }
    }
    match members.is_member(&row.chat, user).await {
        Ok(member) => {
            metrics::counter!("stikis_play_member_lookups_total", "answer" => if member { "member" } else { "not_member" })
                .increment(1);
            p.members_seen
                .lock()
                .expect("members seen")
                .insert(cache_key, (member, std::time::Instant::now()));
            Ok(member.then_some(Belongs::Member))
        }
        Err(e) => {
            metrics::counter!("stikis_play_member_lookups_total", "answer" => "error").increment(1);
            tracing::warn!(error = %e, table = row.id, "the platform could not say who is in a table's chat");
            Err(Refusal::PlatformUnavailable.counted("platform_unavailable"))
        }
    }
}

#[derive(Deserialize)]
struct KeyQuery {
    #[serde(default)]
    k: String,
    /// Opened from the Mini App: Telegram's script is loaded.
    #[serde(default)]
    tg: Option<String>,
    #[serde(default)]
    lang: Option<String>,
}

fn ask_lang(q: &KeyQuery) -> Option<Lang> {
    lang_named(q.lang.as_deref())
}

/// The language a page or a browser names ("ru", "en-GB"), if it is one of ours.
pub(crate) fn lang_named(tag: Option<&str>) -> Option<Lang> {
    let tag = tag?.get(..2)?.to_ascii_lowercase();
    tag.parse().ok()
}

/// The first of the browser's languages (`Accept-Language`) that is one of ours.
pub(crate) fn header_lang(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get(header::ACCEPT_LANGUAGE)?
        .to_str()
        .ok()?
        .split(',')
        .find_map(|l| lang_named(Some(l.trim())))
}

/// A query the page did not send is refused as the site's own page.
fn read_query(q: Result<Query<KeyQuery>, QueryRejection>) -> Option<KeyQuery> {
    match q {
        Ok(Query(q)) => Some(q),
        Err(e) => {
            tracing::debug!(error = %e, "a live-table query that cannot be read");
            None
        }
    }
}

/// The content security policy of a page that loads a platform's script from `script`
/// (Telegram's, or the Discord SDK): the site's own, with the script's origin added when it
/// is served from elsewhere.
pub(crate) fn script_csp(script: &str) -> HeaderValue {
    let origin = if script.starts_with("http://") || script.starts_with("https://") {
        format!(" {}", script.splitn(4, '/').take(3).collect::<Vec<_>>().join("/"))
    } else {
        String::new()
    };
    HeaderValue::from_str(&format!(
        "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'{origin}; \
         img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
}

async fn table_page(
    State(p): State<Play>,
    Path(reference): Path<String>,
    headers: HeaderMap,
    q: Result<Query<KeyQuery>, QueryRejection>,
) -> Response {
    let Some(q) = read_query(q) else {
        return Refusal::Malformed
            .counted("malformed")
            .page(header_lang(&headers).unwrap_or(Lang::Lv));
    };
    let lang = ask_lang(&q).or(header_lang(&headers)).unwrap_or(Lang::Lv);
    let user = match table_named(&p, &reference).and_then(|table| Ok((table, who(&p, table, &q.k)?))) {
        Ok(u) => u,
        Err(d) => return d.page(lang),
    };
    let (table, user) = user;
    let view = match p.host.table_view_in(table, user.as_deref(), ask_lang(&q)).await {
        Ok(Some(v)) => v,
        Ok(None) => return crate::not_found(lang),
        Err(e) => {
            tracing::warn!(error = %e, table, "the live table could not be read");
            return (StatusCode::SERVICE_UNAVAILABLE, Html(page::unavailable(lang))).into_response();
        }
    };
    let lang = view.lang;
    let tg = q.tg.is_some() && p.telegram_token.is_some();
    let title = t(
        lang,
        "play-title",
        &[("game", view.title.clone().into()), ("table", Arg::from(table))],
    );
    let body = html! {
        div #play data-table=(reference) data-k=(q.k) data-lost=(t(lang, "play-lost", &[])) {
            div #view { (fragment(&view)) }
            p #status role="status" {}
        }
        @if tg { script src=(p.telegram_script) {} }
        script src="/static/play.js" {}
    };
    let here = format!("/play/{reference}?k={}{}", q.k, if tg { "&tg=1" } else { "" });
    let mut res = (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Html(page::layout(lang, &title, &here, body)),
    )
        .into_response();
    if tg {
        res.headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, script_csp(&p.telegram_script));
    }
    res
}

/// A feed's state: what it last sent, so an unchanged table is not sent again.
struct Feed {
    p: Play,
    table: i64,
    user: Option<String>,
    changes: tokio::sync::broadcast::Receiver<Pushed>,
    closing: tokio::sync::watch::Receiver<bool>,
    last: Option<[u8; 16]>,
    /// The version of the last view sent: a pushed view older than it is not sent.
    shown: i64,
    first: bool,
    over: bool,
    /// The table was pushed as it was left (stopped or finished): the word that it is over
    /// follows at once.
    closed: bool,
    /// The language the page asked for (else the viewer's own), and the one its last view
    /// was in, for the word that the table is over.
    asked: Option<Lang>,
    lang: Option<Lang>,
    /// With `hold_hands`: while the feed is connected, the person's hand at this table is not
    /// sent to the chat (`Host::watch`); it is shown there again once their last page closes.
    _watch: Option<stikis_host::watching::Watch>,
    /// While the feed is connected, the other processes announce this table's changes to
    /// this one (PostgreSQL; `Host::follow`), and the commits made here draw its view
    /// (`Follow::draws`, said once the view's language is known).
    follow: stikis_host::watching::Follow,
}

async fn events(
    State(p): State<Play>,
    Path(reference): Path<String>,
    headers: HeaderMap,
    q: Result<Query<KeyQuery>, QueryRejection>,
) -> Response {
    let Some(q) = read_query(q) else {
        return Refusal::Malformed
            .counted("malformed")
            .json(header_lang(&headers).unwrap_or(Lang::Lv), "error");
    };
    let lang = ask_lang(&q).or(header_lang(&headers)).unwrap_or(Lang::Lv);
    let (table, user) = match table_named(&p, &reference).and_then(|table| Ok((table, who(&p, table, &q.k)?)))
    {
        Ok(u) => u,
        Err(d) => return d.json(lang, "error"),
    };
    let feed = Feed {
        _watch: user
            .as_deref()
            .filter(|_| p.hold_hands)
            .map(|u| p.host.watch(table, u)),
        follow: p.host.follow(table),
        changes: p.hub.subscribe(table),
        closing: p.closing.clone(),
        p,
        table,
        user,
        last: None,
        shown: i64::MIN,
        first: true,
        over: false,
        closed: false,
        lang: ask_lang(&q),
        asked: ask_lang(&q),
    };
    let stream = futures_util::stream::unfold(feed, |mut f| async move {
        loop {
            if f.over {
                return None;
            }
            let mut pushed = None;
            if f.closed {
                f.over = true;
                let lang = f.lang.unwrap_or(Lang::Lv);
                let ev = Event::default().event("over").data(t(lang, "play-over", &[]));
                return Some((Ok(ev), f));
            }
            if !f.first {
                let changed = tokio::select! {
                    c = f.changes.recv() => c,
                    _ = f.closing.wait_for(|c| *c) => return None,
                };
                match changed {
                    Ok(p) => pushed = p,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                }
            }
            f.first = false;
            // The view drawn at the commit for pages like this one, else the table read.
            let drawn = pushed
                .as_ref()
                .zip(f.lang)
                .and_then(|(d, lang)| d.view(f.user.as_deref(), lang));
            let read;
            let view = match drawn {
                Some(v) if v.version < f.shown => continue,
                Some(v) => {
                    metrics::counter!("stikis_play_views_total", "how" => "pushed").increment(1);
                    Ok(Some(v))
                }
                None => {
                    metrics::counter!("stikis_play_views_total", "how" => "read").increment(1);
                    read = f.p.host.table_view_in(f.table, f.user.as_deref(), f.asked).await;
                    read.as_ref().map(Option::as_ref)
                }
            };
            match view {
                Ok(Some(v)) => {
                    f.lang = Some(v.lang);
                    f.follow.draws(f.user.as_deref(), v.lang);
                    f.shown = v.version;
                    f.closed = !v.status.is_open();
                    let html = fragment(v).into_string();
                    let digest: [u8; 16] = Sha256::digest(html.as_bytes())[..16]
                        .try_into()
                        .expect("16 bytes");
                    if f.last == Some(digest) {
                        continue;
                    }
                    f.last = Some(digest);
                    let ev = Event::default()
                        .event("view")
                        .id(v.version.to_string())
                        .data(html);
                    return Some((Ok::<_, Infallible>(ev), f));
                }
                Ok(None) => {
                    f.over = true;
                    let lang = f.lang.unwrap_or(Lang::Lv);
                    let ev = Event::default().event("over").data(t(lang, "play-over", &[]));
                    return Some((Ok(ev), f));
                }
                Err(e) => {
                    tracing::warn!(error = %e, table = f.table, "the live table could not be read for its page");
                }
            }
        }
    });
    metrics::counter!("stikis_play_feeds_total").increment(1);
    (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Sse::new(stream).keep_alive(KeepAlive::default()),
    )
        .into_response()
}

#[derive(Deserialize)]
struct PressForm {
    k: String,
    token: String,
    /// The page's language, for a refusal (the host answers a tap in the player's own).
    #[serde(default)]
    lang: Option<String>,
}

async fn press(
    State(p): State<Play>,
    Path(reference): Path<String>,
    headers: HeaderMap,
    f: Result<Form<PressForm>, FormRejection>,
) -> Response {
    let Ok(Form(f)) = f else {
        return Refusal::Malformed
            .counted("malformed")
            .json(header_lang(&headers).unwrap_or(Lang::Lv), "reply");
    };
    let lang = lang_named(f.lang.as_deref())
        .or(header_lang(&headers))
        .unwrap_or(Lang::Lv);
    let (table, user) = match table_named(&p, &reference).and_then(|table| Ok((table, who(&p, table, &f.k)?)))
    {
        Ok((table, Some(user))) => (table, user),
        Ok((_, None)) => return Refusal::Watching.counted("watcher_tap").json(lang, "reply"),
        Err(d) => return d.json(lang, "reply"),
    };
    // The table, and the page's picture now: the tap must be one it offers this person's seat.
    let read = async {
        let row = p.host.store().table(table).await.map_err(|e| e.to_string())?;
        let view = p
            .host
            .table_view_in(table, Some(&user), Some(lang))
            .await
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(row.zip(view))
    };
    let (row, view) = match read.await {
        Ok(Some(both)) => both,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                Json(json!({ "reply": t(lang, "play-over", &[]) })),
            )
                .into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, table, "a live-table tap could not read its table");
            return Refusal::Unavailable
                .counted("store_unavailable")
                .json(lang, "reply");
        }
    };
    let Some(seat) = view.me else {
        return Refusal::Watching.counted("watcher_tap").json(lang, "reply");
    };
    if !view.offers(&f.token) {
        return Refusal::NotOffered.counted("not_offered").json(lang, "reply");
    }
    let name = view
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    // The chat shows the move as if it had been made there; the page gets the answer.
    let reply = p
        .host
        .tap(Request {
            chat: row.chat.clone(),
            user: User {
                id: user,
                name,
                admin: false,
            },
            command: Command::press(f.token),
        })
        .await;
    metrics::counter!("stikis_play_presses_total").increment(1);
    Json(json!({ "reply": reply })).into_response()
}

/// How a deal ended, typed: what was played, by whom and whether it was made, then each
/// column of the sheet (a seat, or a side) with its change and its total after it.
fn outcome(v: &TableView, r: &DealResult) -> Markup {
    let name = |s: Seat| stikis_host::games::name(&v.names, s);
    html! {
        p.outcome {
            @if let Some(w) = &r.ended { b { (v.say(w)) } }
            @if let Some(d) = r.declarer { " · " (name(d)) }
            @if let Some(won) = r.declarer_won { " " (if won { "✔" } else { "✘" }) }
        }
        ul.deltas {
            @for (column, (delta, total)) in page::sheet_columns(&v.picture, &v.names).iter().zip(r.deltas.iter().zip(&r.totals)) {
                li { (column) " " b { (page::signed(*delta)) } " → " (total) }
            }
        }
    }
}

/// The table as `v`'s viewer sees it: the part of the page the feed redraws.
pub fn fragment(v: &TableView) -> Markup {
    let lang = v.lang;
    let name = |s: Seat| {
        v.seats
            .iter()
            .find(|x| x.seat == s)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("#{}", s + 1))
    };
    let shown: CardSet = v.cards().into_iter().collect();
    let signed = |n: i32| if n > 0 { format!("+{n}") } else { n.to_string() };
    html! {
        (page::card_symbols(shown))
        div.playhead data-version=(v.version) {
            h1 { (t(lang, "play-title", &[("game", v.title.clone().into()), ("table", Arg::from(v.table))])) }
            @if v.deal_no > 0 {
                p.deal { (t(lang, "play-deal", &[("deal", Arg::from(v.deal_no))])) }
            }
            @if let Some(s) = v.to_act {
                p.turn.mine[Some(s) == v.me] {
                    @if Some(s) == v.me {
                        (t(lang, "play-your-turn", &[]))
                    } @else {
                        (t(lang, "play-turn-of", &[("name", name(s).into())]))
                    }
                    @if let Some(ends) = v.turn_ends_ms {
                        " " span.timer data-ends=(ends) {}
                    }
                }
            }
            @if v.me.is_none() {
                p.spectator { (t(lang, "play-spectator", &[])) }
            }
        }
        ol.seats aria-label=(t(lang, "play-totals", &[])) {
            @for s in &v.seats {
                li.seat.turn[v.to_act == Some(s.seat)].me[v.me == Some(s.seat)] data-seat=(s.seat) {
                    span.name { (s.name) }
                    " "
                    span.total { (v.totals.get(s.seat as usize).map(|n| signed(*n)).unwrap_or_default()) }
                }
            }
        }
        (table_words(v))
        section.trick aria-label=(t(lang, "play-trick", &[])) {
            @for (s, c) in &v.trick {
                figure { (page::card(*c, v.trumps)) figcaption { (name(*s)) } }
            }
        }
        @if let Some((cards, taker)) = &v.last_trick {
            section.last {
                h2 { (t(lang, "play-last-trick", &[("name", name(*taker).into())])) }
                div.cards {
                    @for (s, c) in cards {
                        figure { (page::card(*c, v.trumps)) figcaption { (name(*s)) } }
                    }
                }
            }
        }
        @if let Some(e) = &v.ended {
            section.ended {
                h2 { (t(lang, "play-deal-ended", &[("deal", Arg::from(e.deal_no))])) }
                @if let Some(last) = &e.last_trick {
                    @if let Some(w) = last.winner {
                        p { (t(lang, "play-last-trick", &[("name", name(w).into())])) }
                    }
                    div.cards {
                        @for (s, c) in &last.cards {
                            figure { (page::card(*c, e.trumps)) figcaption { (name(*s)) } }
                        }
                    }
                }
                @if let Some(r) = &e.result { (outcome(v, r)) }
                @if let Some(r) = &v.result {
                    pre { (r) }
                }
            }
        }
        @if let Some(m) = &v.mine {
            @if m.to_act {
                @for w in &m.prompt {
                    p.prompt { (v.say(w)) }
                }
            }
        }
        @if !v.buttons.is_empty() {
            section.decide {
                @for row in &v.buttons {
                    div.row {
                        @for b in row {
                            button.act type="button" data-token=(b.token) { (b.label) }
                        }
                    }
                }
            }
        }
        @if v.me.is_some() {
            section.hand {
                @for h in &v.hand {
                    @match &h.token {
                        Some(tok) => {
                            button.play.legal.picked[h.picked] type="button" data-token=(tok)
                                aria-label=(page::card_text(h.card)) { (page::card(h.card, v.trumps)) }
                        }
                        None => { span.play { (page::card(h.card, v.trumps)) } }
                    }
                }
            }
        }
        @if let (Some(r), None) = (&v.result, &v.ended) {
            details.result {
                summary { (t(lang, "play-result", &[])) }
                @if let Some(r) = &v.last_result { (outcome(v, r)) }
                pre { (r) }
            }
        }
        details.text {
            summary { (t(lang, "play-table-message", &[])) }
            pre { (v.public_text) }
            @if let Some(h) = &v.hand_text {
                pre { (h) }
            }
        }
    }
}

/// What the table has said of the deal: the face-up cards, the bidding, the contract and its
/// declarer, the trumps, the exchange and what was announced (from the typed picture).
fn table_words(v: &TableView) -> Markup {
    picture_words(&v.picture, v.lang, &v.names, true)
}

/// The words of a table's picture: what lies face up (when `face_up`: the viewer draws those
/// cards itself), the bidding, the contract with its declarer, the trumps, the exchange and
/// what was announced. The live page and the game viewer both draw them here.
pub(crate) fn picture_words(
    p: &stikis_host::picture::Picture,
    lang: Lang,
    names: &[String],
    face_up: bool,
) -> Markup {
    let say = |w: &stikis_host::picture::Word| w.say(lang, names);
    let by = |items: &[(Seat, stikis_host::picture::Word)]| {
        items
            .iter()
            .map(|(s, w)| format!("{} {}", stikis_host::games::name(names, *s), say(w)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let announced = p.said_by_seat();
    html! {
        section.words {
            @if face_up {
                @for (w, _) in &p.face_up {
                    p { (say(w)) }
                }
            }
            @if !p.bids.is_empty() {
                p.bids { (t(lang, "play-bids", &[("bids", by(&p.bids).into())])) }
            }
            @if let Some(c) = &p.contract {
                p.contract {
                    @match p.declarer {
                        Some(d) => {
                            (t(lang, "play-contract", &[
                                ("contract", say(c).into()),
                                ("name", stikis_host::games::name(names, d).into()),
                            ]))
                        }
                        None => { (t(lang, "play-contract-open", &[("contract", say(c).into())])) }
                    }
                }
            }
            @if let Some(w) = &p.trump_line {
                p { (say(w)) }
            }
            @for w in &p.exchange {
                p { (say(w)) }
            }
            @if !announced.is_empty() {
                p { (t(lang, "play-announced", &[("list", by(&announced).into())])) }
            }
        }
    }
}

/// What Telegram's `initData` says once checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitData {
    pub user_id: String,
    pub start_param: Option<String>,
}

/// Why `initData` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitDataError {
    /// Not signed with this bot's token, or changed.
    Forged,
    /// Signed, but `auth_date` is older than allowed.
    Expired,
    /// Not `initData` at all (no hash, no user).
    Malformed,
}

/// Checks a Mini App's `initData` as Telegram documents: the data-check string is every
/// field but `hash`, as `key=value` sorted by key and joined by line feeds; the secret key is
/// HMAC-SHA-256 of the bot's token under the key `WebAppData`; `hash` is the hex HMAC-SHA-256
/// of the data-check string under the secret key. `auth_date` may be at most `max_age_s` old.
pub fn check_init_data(
    bot_token: &str,
    init_data: &str,
    now_s: i64,
    max_age_s: i64,
) -> Result<InitData, InitDataError> {
    let mut fields: Vec<(String, String)> =
        serde_urlencoded::from_str(init_data).map_err(|_| InitDataError::Malformed)?;
    let pos = fields
        .iter()
        .position(|(k, _)| k == "hash")
        .ok_or(InitDataError::Malformed)?;
    let (_, hash) = fields.remove(pos);
    fields.sort();
    let mac = init_data_mac(bot_token, &fields);
    let want = (0..hash.len())
        .step_by(2)
        .map(|i| hash.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect::<Option<Vec<u8>>>()
        .ok_or(InitDataError::Forged)?;
    mac.verify_slice(&want).map_err(|_| InitDataError::Forged)?;
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let auth: i64 = field("auth_date")
        .and_then(|a| a.parse().ok())
        .ok_or(InitDataError::Malformed)?;
    if now_s - auth > max_age_s {
        return Err(InitDataError::Expired);
    }
    let user: serde_json::Value = field("user")
        .and_then(|u| serde_json::from_str(u).ok())
        .ok_or(InitDataError::Malformed)?;
    let user_id = user
        .get("id")
        .and_then(|i| i.as_i64())
        .ok_or(InitDataError::Malformed)?
        .to_string();
    Ok(InitData {
        user_id,
        start_param: field("start_param").map(str::to_string),
    })
}

/// Telegram's MAC of `initData`'s sorted fields (all but `hash`): HMAC-SHA-256 of the
/// data-check string (`key=value` lines) under the HMAC-SHA-256 of the bot's token keyed
/// `WebAppData`.
fn init_data_mac(bot_token: &str, sorted: &[(String, String)]) -> Hmac<Sha256> {
    let check = sorted
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut secret = Hmac::<Sha256>::new_from_slice(b"WebAppData").expect("HMAC takes any key");
    secret.update(bot_token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).expect("HMAC takes any key");
    mac.update(check.as_bytes());
    mac
}

/// `initData` for `fields` signed with `bot_token` as Telegram signs it (the inverse of
/// `check_init_data`): for tests and tools that stand in for Telegram.
pub fn sign_init_data(bot_token: &str, fields: &[(&str, &str)]) -> String {
    let mut fields: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    fields.sort();
    let mac = init_data_mac(bot_token, &fields);
    let hash: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    fields.push(("hash".into(), hash));
    serde_urlencoded::to_string(&fields).unwrap_or_default()
}

async fn app_page(State(p): State<Play>, Query(q): Query<KeyQuery>) -> Response {
    let lang = ask_lang(&q).unwrap_or(Lang::Lv);
    if p.telegram_token.is_none() {
        return crate::not_found(lang);
    }
    let body = html! {
        div #miniapp data-lost=(t(lang, "play-lost", &[])) {
            p #status role="status" { (t(lang, "play-connecting", &[])) }
        }
        script src=(p.telegram_script) {}
        script src="/static/play.js" {}
    };
    let mut res = (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Html(page::layout(lang, "stikis", "/play/app", body)),
    )
        .into_response();
    res.headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, script_csp(&p.telegram_script));
    res
}

#[derive(Deserialize)]
struct SessionForm {
    #[serde(default)]
    init_data: String,
    /// The language of the person's Telegram (or browser), for a refusal.
    #[serde(default)]
    lang: Option<String>,
}

async fn app_session(
    State(p): State<Play>,
    headers: HeaderMap,
    f: Result<Form<SessionForm>, FormRejection>,
) -> Response {
    let Some(bot_token) = &p.telegram_token else {
        return crate::not_found(header_lang(&headers).unwrap_or(Lang::Lv));
    };
    let Ok(Form(f)) = f else {
        return Refusal::Malformed
            .counted("malformed")
            .json(header_lang(&headers).unwrap_or(Lang::Lv), "error");
    };
    let lang = lang_named(f.lang.as_deref())
        .or(header_lang(&headers))
        .unwrap_or(Lang::Lv);
    let data = match check_init_data(bot_token, &f.init_data, now_s(), p.init_data_max_age_s) {
        Ok(d) => d,
        Err(e) => {
            let (refusal, reason) = match e {
                InitDataError::Expired => (Refusal::Expired, "init_data_expired"),
                InitDataError::Forged => (Refusal::Forged, "init_data_forged"),
                InitDataError::Malformed => (Refusal::Forged, "init_data_malformed"),
            };
            return refusal.counted(reason).json(lang, "error");
        }
    };
    // The table is named by its reference; a number, an unknown or closed table, another
    // platform's table and a table the person does not belong to get one answer.
    let not_yours = |reason: &'static str| Refusal::NotYours.counted(reason).json(lang, "error");
    let Some(table) = data
        .start_param
        .as_deref()
        .and_then(|r| table_of_ref(&p.secret, r))
    else {
        return not_yours("unknown_table");
    };
    let row = match p.host.store().table(table).await {
        Ok(Some(row)) if row.chat.platform == Platform::Telegram && row.status.is_open() => row,
        Ok(_) => return not_yours("closed_table"),
        Err(e) => {
            tracing::warn!(error = %e, "a Mini App session could not read its table");
            return Refusal::Unavailable
                .counted("store_unavailable")
                .json(lang, "error");
        }
    };
    match belongs(&p, &row, &data.user_id).await {
        Ok(Some(_)) => {}
        Ok(None) => return not_yours("not_member"),
        Err(refusal) => return refusal.json(lang, "error"),
    }
    let key = play_key(&p.secret, table, &data.user_id, now_s() + PLAY_LINK_SECS);
    Json(json!({ "url": format!("/play/{}?k={key}&tg=1", table_ref(&p.secret, table)) })).into_response()
}
