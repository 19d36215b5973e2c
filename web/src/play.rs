//! The live table: a running table as a page, in any browser and as a Telegram Mini App.
//!
//! - `/play/<table>?k=<key>`: the table for the holder of a personal key (`/play` in the
//!   table's chat gives it privately; `links::play_key`, signed over table, user and expiry):
//!   the seats, whose turn it is with the time left, the trick on the table, the last trick and
//!   who took it, the totals, and, for a seated player, their hand in the game's order with the
//!   cards they may play raised and every other decision the chat offers, as buttons. A key
//!   without a seat shows what the group sees and nothing more.
//! - `/play/<table>/events?k=<key>`: the page's feed (server-sent events): the table redrawn
//!   for that person whenever it changes, here or (PostgreSQL `NOTIFY`) in another process.
//!   The browser reconnects by itself and is sent the table as it is then. With `hold_hands`
//!   (both bots), while a seated person's feed is connected the chat is not sent their
//!   hand at that table (`stikis_host::watching`): it is shown there again once their last
//!   page closes.
//! - `POST /play/<table>/press` (`k`, `token`): a tap; the token is the chat button's, so a tap
//!   sent twice is applied once and a tap on an old state is refused as a stale button is.
//!   The chat is shown the move as if it had been made there.
//! - `/play/app` and `POST /play/app/session`: the Mini App. Its page sends Telegram's
//!   `initData`; the server checks it as Telegram documents (HMAC-SHA-256 with a key made from
//!   the bot's token, `auth_date` no older than the configured limit) and answers with the
//!   person's own `/play` address for the table named by `start_param`.
//!
//! Nothing a page is sent holds a card of another seat's hand or of the talon: the pages are
//! drawn from `Host::table_view`, which holds only what the viewer may see.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
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
use stikis_host::links::{check_play_key, play_key, PlayKeyError, PLAY_LINK_SECS};
use stikis_host::store::Platform;
use stikis_host::token::Token;
use stikis_host::view::TableView;
use stikis_host::{Command, Host, Out, Request, User};

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
        }
    }
}

pub(crate) const JS: &str = include_str!("play.js");

/// The live table's routes. The feeds end when `closing` turns true (the web face stops: a
/// graceful shutdown waits for every connection, and a feed would never end by itself).
pub(crate) fn routes(config: PlayConfig, closing: tokio::sync::watch::Receiver<bool>) -> Router {
    // On PostgreSQL, other processes' changes are passed on for as long as the process lives
    // (the task is detached); nothing on SQLite.
    let host = config.host.clone();
    let _ = config
        .host
        .store()
        .listen_changes(move |id| host.changed_elsewhere(id));
    Router::new()
        .route("/play/app", get(app_page))
        .route("/play/app/session", post(app_session))
        .route("/static/play.js", get(js))
        .route("/play/{table}", get(table_page))
        .route("/play/{table}/events", get(events))
        .route("/play/{table}/press", post(press))
        .with_state(Arc::new(Live {
            hub: Hub::start(&config.host),
            config,
            closing,
        }))
}

struct Live {
    config: PlayConfig,
    closing: tokio::sync::watch::Receiver<bool>,
    hub: Arc<Hub>,
}

/// The host's changes, handed to the feeds of the table that changed only: a move wakes the
/// pages of its table, not every page connected.
struct Hub {
    tables: std::sync::Mutex<std::collections::HashMap<i64, tokio::sync::broadcast::Sender<()>>>,
}

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
                    Ok(id) if id != 0 => {
                        if let Some(tx) = tables.get(&id) {
                            let _ = tx.send(());
                        }
                    }
                    // Any table may have changed (another process's notices were lost, or
                    // this task fell behind): every page is redrawn.
                    Ok(_) | Err(RecvError::Lagged(_)) => {
                        for tx in tables.values() {
                            let _ = tx.send(());
                        }
                    }
                    Err(RecvError::Closed) => return,
                }
            }
        });
        hub
    }

    /// The changes of `table`, for one feed.
    fn subscribe(&self, table: i64) -> tokio::sync::broadcast::Receiver<()> {
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

type Play = Arc<Live>;

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        [(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=300"),
        )],
        JS,
    )
        .into_response()
}

/// Why a key does not open a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Denied {
    Forged,
    Expired,
    OtherTable,
}

impl Denied {
    fn status(self) -> StatusCode {
        match self {
            Denied::Forged | Denied::Expired => StatusCode::UNAUTHORIZED,
            Denied::OtherTable => StatusCode::FORBIDDEN,
        }
    }
    fn key(self) -> &'static str {
        match self {
            Denied::Forged => "play-forged",
            Denied::Expired => "play-expired",
            Denied::OtherTable => "play-other-table",
        }
    }
}

fn now_s() -> i64 {
    stikis_host::store::now_ms() / 1000
}

/// The person a key names at `table` (None: a spectator). Refusals are logged without the key.
fn who(p: &Live, table: i64, key: &str) -> Result<Option<String>, Denied> {
    let denied = match check_play_key(&p.secret, key, now_s()) {
        Ok((t, user)) if t == table => return Ok((!user.is_empty()).then_some(user)),
        Ok(_) => Denied::OtherTable,
        Err(PlayKeyError::Expired) => Denied::Expired,
        Err(PlayKeyError::Forged) => Denied::Forged,
    };
    tracing::info!(table, reason = ?denied, "a live-table key was refused");
    metrics::counter!("stikis_play_refused_total", "reason" => format!("{denied:?}").to_lowercase())
        .increment(1);
    Err(denied)
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

fn denied_page(d: Denied, lang: Lang) -> Response {
    let body = html! {
        h1 { (t(lang, "play-denied-title", &[])) }
        p { (t(lang, d.key(), &[])) }
    };
    (
        d.status(),
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Html(page::layout(lang, &t(lang, "play-denied-title", &[]), "/", body)),
    )
        .into_response()
}

fn ask_lang(q: &KeyQuery) -> Option<Lang> {
    lang_named(q.lang.as_deref())
}

/// The language a page or a browser names ("ru", "en-GB"), if it is one of ours.
fn lang_named(tag: Option<&str>) -> Option<Lang> {
    let tag = tag?.get(..2)?.to_ascii_lowercase();
    tag.parse().ok()
}

/// The content security policy of a page that loads Telegram's script.
fn telegram_csp(script: &str) -> HeaderValue {
    let origin = script.splitn(4, '/').take(3).collect::<Vec<_>>().join("/");
    HeaderValue::from_str(&format!(
        "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self' {origin}; \
         img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
}

async fn table_page(State(p): State<Play>, Path(table): Path<String>, Query(q): Query<KeyQuery>) -> Response {
    let lang = ask_lang(&q).unwrap_or(Lang::Lv);
    let Ok(table) = table.parse::<i64>() else {
        return crate::not_found(lang);
    };
    let user = match who(&p, table, &q.k) {
        Ok(u) => u,
        Err(d) => return denied_page(d, lang),
    };
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
        div #play data-table=(table) data-k=(q.k) data-lost=(t(lang, "play-lost", &[])) {
            div #view { (fragment(&view)) }
            p #status role="status" {}
        }
        @if tg { script src=(p.telegram_script) {} }
        script src="/static/play.js" {}
    };
    let here = format!("/play/{table}?k={}{}", q.k, if tg { "&tg=1" } else { "" });
    let mut res = (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Html(page::layout(lang, &title, &here, body)),
    )
        .into_response();
    if tg {
        res.headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, telegram_csp(&p.telegram_script));
    }
    res
}

/// A feed's state: what it last sent, so an unchanged table is not sent again.
struct Feed {
    p: Play,
    table: i64,
    user: Option<String>,
    changes: tokio::sync::broadcast::Receiver<()>,
    closing: tokio::sync::watch::Receiver<bool>,
    last: Option<[u8; 16]>,
    first: bool,
    over: bool,
    /// The language the page asked for (else the viewer's own), and the one its last view
    /// was in, for the word that the table is over.
    asked: Option<Lang>,
    lang: Option<Lang>,
    /// With `hold_hands`: while the feed is connected, the person's hand at this table is not
    /// sent to the chat (`Host::watch`); it is shown there again once their last page closes.
    _watch: Option<stikis_host::watching::Watch>,
}

async fn events(State(p): State<Play>, Path(table): Path<i64>, Query(q): Query<KeyQuery>) -> Response {
    let user = match who(&p, table, &q.k) {
        Ok(u) => u,
        Err(d) => return d.status().into_response(),
    };
    let feed = Feed {
        _watch: user
            .as_deref()
            .filter(|_| p.hold_hands)
            .map(|u| p.host.watch(table, u)),
        changes: p.hub.subscribe(table),
        closing: p.closing.clone(),
        p,
        table,
        user,
        last: None,
        first: true,
        over: false,
        lang: ask_lang(&q),
        asked: ask_lang(&q),
    };
    let stream = futures_util::stream::unfold(feed, |mut f| async move {
        loop {
            if f.over {
                return None;
            }
            if !f.first {
                let changed = tokio::select! {
                    c = f.changes.recv() => c,
                    _ = f.closing.wait_for(|c| *c) => return None,
                };
                match changed {
                    Ok(()) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                }
            }
            f.first = false;
            match f.p.host.table_view_in(f.table, f.user.as_deref(), f.asked).await {
                Ok(Some(v)) => {
                    f.lang = Some(v.lang);
                    let html = fragment(&v).into_string();
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

async fn press(State(p): State<Play>, Path(table): Path<i64>, Form(f): Form<PressForm>) -> Response {
    let lang = lang_named(f.lang.as_deref()).unwrap_or(Lang::Lv);
    let refuse =
        |status: StatusCode, key: &str| (status, Json(json!({ "reply": t(lang, key, &[]) }))).into_response();
    let user = match who(&p, table, &f.k) {
        Ok(Some(u)) => u,
        Ok(None) => return refuse(StatusCode::FORBIDDEN, "not-at-table"),
        Err(d) => return refuse(d.status(), d.key()),
    };
    if Token::decode(&f.token).map(|tok| tok.table) != Ok(table) {
        tracing::info!(table, "a live-table tap named another table");
        return refuse(StatusCode::FORBIDDEN, "play-other-table");
    }
    let row = match p.host.store().table(table).await {
        Ok(Some(row)) => row,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "play-over"),
        Err(e) => {
            tracing::warn!(error = %e, table, "a live-table tap could not read its table");
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "store-unavailable");
        }
    };
    let mut out = p
        .host
        .handle(Request {
            chat: row.chat.clone(),
            user: User {
                id: user,
                name: String::new(),
                admin: false,
            },
            command: Command::Press { token: f.token },
        })
        .await;
    let reply = out.reply_text().map(str::to_string);
    out.0.retain(|o| !matches!(o, Out::Reply { .. }));
    // The chat shows the move as if it had been made there.
    p.host.forward(out);
    metrics::counter!("stikis_play_presses_total").increment(1);
    Json(json!({ "reply": reply })).into_response()
}

/// The table as `v`'s viewer sees it: the part of the page the feed redraws.
pub(crate) fn fragment(v: &TableView) -> Markup {
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
        @if let Some(r) = &v.result {
            details.result open[!v.in_deal] {
                summary { (t(lang, "play-result", &[])) }
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
    let check = fields
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut secret = Hmac::<Sha256>::new_from_slice(b"WebAppData").expect("HMAC takes any key");
    secret.update(bot_token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).expect("HMAC takes any key");
    mac.update(check.as_bytes());
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
        .insert(header::CONTENT_SECURITY_POLICY, telegram_csp(&p.telegram_script));
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

async fn app_session(State(p): State<Play>, Form(f): Form<SessionForm>) -> Response {
    let Some(bot_token) = &p.telegram_token else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let lang = lang_named(f.lang.as_deref()).unwrap_or(Lang::Lv);
    let error =
        |status: StatusCode, key: &str| (status, Json(json!({ "error": t(lang, key, &[]) }))).into_response();
    let data = match check_init_data(bot_token, &f.init_data, now_s(), p.init_data_max_age_s) {
        Ok(d) => d,
        Err(e) => {
            tracing::info!(reason = ?e, "Mini App initData was refused");
            metrics::counter!("stikis_play_refused_total", "reason" => format!("init_data_{e:?}").to_lowercase())
                .increment(1);
            let key = if e == InitDataError::Expired {
                "play-expired"
            } else {
                "play-forged"
            };
            return error(StatusCode::UNAUTHORIZED, key);
        }
    };
    let Some(table) = data.start_param.as_deref().and_then(|s| s.parse::<i64>().ok()) else {
        return error(StatusCode::BAD_REQUEST, "play-other-table");
    };
    match p.host.store().table(table).await {
        Ok(Some(row)) if row.chat.platform == Platform::Telegram && row.status.is_open() => {}
        Ok(_) => return error(StatusCode::FORBIDDEN, "play-other-table"),
        Err(e) => {
            tracing::warn!(error = %e, "a Mini App session could not read its table");
            return error(StatusCode::SERVICE_UNAVAILABLE, "store-unavailable");
        }
    }
    let key = play_key(&p.secret, table, &data.user_id, now_s() + PLAY_LINK_SECS);
    Json(json!({ "url": format!("/play/{table}?k={key}&tg=1") })).into_response()
}
