//! A fake Discord on 127.0.0.1 for the end-to-end tests and the benchmark: REST (messages,
//! direct messages, interaction callbacks and webhooks, command registration) and the
//! gateway (HELLO, heartbeat ACKs, READY, then the INTERACTION_CREATE events the test sends).
//! It keeps every message with all its versions, which user sees it (ephemeral) and counts
//! the REST calls. With `use_endpoint`, interactions are posted, signed, to the bot's
//! interactions endpoint instead of the gateway, and an interaction response in the reply
//! to a post is applied as its callback (and counted apart: it is no REST call).

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State as AxState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post, put};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

pub mod activity;

pub const APP: u64 = 4242;
pub const BOT_USER: u64 = 4243;
/// The server: its events go to shard `(GUILD >> 22) % total` (1 of 2, while direct messages
/// go to shard 0), as Discord routes them.
pub const GUILD: u64 = (1 << 22) | 500;
pub const CHANNEL: u64 = 600;
/// A person's direct-message channel id is their user id plus this.
pub const DM_OFFSET: u64 = 1_000_000;
/// The Manage Server permission bit.
pub const MANAGE_GUILD: u64 = 1 << 5;

#[derive(Debug, Clone)]
pub struct Msg {
    pub id: u64,
    pub channel: u64,
    /// Content and embed descriptions.
    pub text: String,
    /// (label, custom id)
    pub buttons: Vec<(String, String)>,
    /// Only this user sees it (an ephemeral interaction answer).
    pub ephemeral_for: Option<u64>,
    /// Every text this message has shown, first to last.
    pub versions: Vec<String>,
    pub file: Option<String>,
}

/// What an interaction's original response shows: (message, channel, user).
type Original = (Option<u64>, u64, u64);

#[derive(Default)]
pub struct State {
    ids: AtomicU64,
    pub msgs: Mutex<BTreeMap<u64, Msg>>,
    by_channel: Mutex<HashMap<u64, Vec<u64>>>,
    pub rest_calls: AtomicU64,
    /// REST calls by kind of route (see `count`).
    pub routes: Mutex<BTreeMap<String, u64>>,
    pub log: Mutex<Vec<String>>,
    pub closed_dms: Mutex<HashSet<u64>>,
    gw: Mutex<Option<mpsc::UnboundedSender<Value>>>,
    /// Gateway connections by shard id, and the shard count they identified with.
    shard_gws: Mutex<HashMap<u64, mpsc::UnboundedSender<Value>>>,
    shard_total: AtomicU64,
    /// (shard, total) of every IDENTIFY, in order.
    pub identified: Mutex<Vec<(u64, u64)>>,
    /// Interactions sent over the gateway, by shard.
    pub dispatched: Mutex<BTreeMap<u64, u64>>,
    pub identifies: AtomicU64,
    pub registered: AtomicBool,
    /// When set, the next registration of the commands is answered only once this fires (a
    /// bot caught between READY and being ready for commands).
    pub hold_registration: Mutex<Option<tokio::sync::oneshot::Receiver<()>>>,
    pub callbacks: Mutex<HashMap<u64, Value>>,
    /// Interactions answered (their one response taken), and the second answers refused.
    acknowledged: Mutex<HashSet<u64>>,
    pub refused_acks: AtomicU64,
    /// Interaction token → the message its original response shows, and its user.
    originals: Mutex<HashMap<String, Original>>,
    /// Direct-message refusals (50007) sent.
    pub dm_refusals: AtomicU64,
    url: Mutex<String>,
    /// Threads created: (thread id, parent channel id, name).
    pub threads: Mutex<Vec<(u64, u64, String)>>,
    /// The bot's interactions endpoint, when interactions are posted there.
    endpoint: Mutex<Option<String>>,
    /// Statuses of the posts to the endpoint, in order of their replies.
    pub posted: Mutex<Vec<u16>>,
    /// Several bot processes' endpoints behind one load balancer (`use_endpoints`).
    balanced: Mutex<Vec<String>>,
    /// Every version of every message: (channel, message id, text and a line per button, its
    /// label then ` ⌁` and its custom id, Unix ms when the fake took it).
    pub history: Mutex<Vec<(u64, u64, String, i64)>>,
    /// Every interaction response, in order: (interaction id, "✓" for an update or a silent
    /// acknowledgement, else its text).
    pub answer_log: Mutex<Vec<(u64, String)>>,
    /// Interactions whose deferred answer was a refusal sent as a follow-up text.
    pub refused_later: Mutex<HashSet<u64>>,
    /// Deferred presses whose follow-up said their move's outcome was not known yet.
    pub unsure_later: Mutex<HashSet<u64>>,
    /// Interactions posted to one of several processes (`use_endpoints`), by interaction id:
    /// which process took the post, and when.
    pub received: Mutex<HashMap<u64, Received>>,
    /// When each interaction's first follow-up came (Unix ms): an edit of its original
    /// response or a follow-up message, which only the process that took it sends.
    pub followed_up: Mutex<HashMap<u64, i64>>,
    /// Interaction posts that a process did not answer (it was down, or died on it), so the
    /// balancer tried another, or the person saw "This interaction failed".
    pub redelivered: AtomicU64,
    /// When each interaction was sent to the bot (Unix ms): its first response is taken only
    /// within `RESPONSE_WINDOW_MS` of it, as Discord does.
    sent_ms: Mutex<HashMap<u64, i64>>,
    /// First responses refused because they came too late ("Unknown interaction").
    pub expired: AtomicU64,
    /// Nonces of messages created with `enforce_nonce`: the message and when (Unix ms).
    nonces: Mutex<HashMap<String, (u64, i64)>>,
    /// Creates that repeated an enforced nonce, answered with the earlier message.
    pub nonce_repeats: AtomicU64,
    /// Every call the fake refused, as Discord would: (route, Discord's error code, why).
    pub refusals: Mutex<Vec<(String, u64, String)>>,
    /// Follow-up messages by their interaction's token.
    followups: Mutex<HashMap<String, Vec<u64>>>,
    /// OAuth2 codes and tokens, and activity instances (`activity`).
    pub oauth: Mutex<activity::OAuth>,
}

impl State {
    pub(crate) fn id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed) + 10_000_000
    }
}

/// An interaction posted to one of several processes' endpoints.
#[derive(Debug, Clone, Copy)]
pub struct Received {
    /// The index of the endpoint that took the post (replied, or took it and failed).
    pub process: usize,
    /// When it was posted there (Unix ms).
    pub posted_ms: i64,
}

#[derive(Clone)]
pub struct Fake {
    pub url: String,
    pub state: Arc<State>,
}

#[derive(Debug, Clone)]
pub struct Person {
    pub id: u64,
    pub name: String,
    pub perms: u64,
}

impl Person {
    pub fn new(id: u64, name: &str) -> Person {
        Person {
            id,
            name: name.into(),
            perms: 0,
        }
    }
    pub(crate) fn json(&self) -> Value {
        json!({"id": self.id.to_string(), "username": self.name.to_lowercase(), "discriminator": "0",
               "global_name": self.name, "avatar": null, "bot": false})
    }
}

fn bot_user() -> Value {
    json!({"id": BOT_USER.to_string(), "username": "stikis", "discriminator": "0", "global_name": null,
           "avatar": null, "bot": true})
}

fn msg_json(m: &Msg) -> Value {
    json!({
        "id": m.id.to_string(), "channel_id": m.channel.to_string(), "author": bot_user(),
        "content": "", "timestamp": "2026-01-01T00:00:00.000000+00:00", "edited_timestamp": null,
        "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
        "mention_channels": [], "attachments": [], "embeds": [], "reactions": [], "pinned": false,
        "type": 0, "flags": if m.ephemeral_for.is_some() { 64 } else { 0 }, "components": [],
        "message_snapshots": []
    })
}

/// Text and buttons of a message body (JSON or multipart with payload_json).
fn parse_body(headers: &HeaderMap, body: &Bytes) -> (Value, Option<String>) {
    let ct = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ct.starts_with("multipart/") {
        let s = String::from_utf8_lossy(body).to_string();
        let payload = s
            .find("name=\"payload_json\"")
            .and_then(|i| s[i..].find('{').map(|j| i + j))
            .and_then(|i| {
                serde_json::Deserializer::from_str(&s[i..])
                    .into_iter::<Value>()
                    .next()
                    .and_then(|r| r.ok())
            })
            .unwrap_or(Value::Null);
        let file = s.find("filename=\"").map(|i| {
            let rest = &s[i..];
            let start = rest.find("\r\n\r\n").map_or(0, |j| j + 4);
            let end = rest[start..].find("\r\n--").map_or(rest.len(), |j| start + j);
            rest[start..end].to_string()
        });
        (payload, file)
    } else {
        (serde_json::from_slice(body).unwrap_or(Value::Null), None)
    }
}

fn text_of(v: &Value) -> Option<String> {
    if v.get("content").is_none() && v.get("embeds").is_none() {
        return None;
    }
    let mut parts = Vec::new();
    if let Some(c) = v["content"].as_str() {
        parts.push(c.to_string());
    }
    for e in v["embeds"].as_array().into_iter().flatten() {
        // Every text an embed shows, so that nothing a message shows escapes the checks.
        let texts = [
            &e["title"],
            &e["description"],
            &e["author"]["name"],
            &e["footer"]["text"],
        ];
        let fields = e["fields"].as_array().into_iter().flatten();
        let fields = fields.flat_map(|f| [&f["name"], &f["value"]]);
        for d in texts.into_iter().chain(fields).filter_map(Value::as_str) {
            parts.push(d.to_string());
        }
    }
    Some(parts.join("\n"))
}

fn buttons_of(v: &Value) -> Option<Vec<(String, String)>> {
    let rows = v.get("components")?.as_array()?;
    Some(
        rows.iter()
            .flat_map(|r| r["components"].as_array().cloned().unwrap_or_default())
            .map(|b| {
                (
                    b["label"].as_str().unwrap_or("").to_string(),
                    b["custom_id"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect(),
    )
}

pub(crate) type St = AxState<Arc<State>>;

/// Counts one REST call: `route` names its kind for the breakdown, `what` goes to the log.
pub(crate) fn count(st: &State, route: &str, what: String) {
    st.rest_calls.fetch_add(1, Ordering::Relaxed);
    *st.routes.lock().unwrap().entry(route.to_string()).or_default() += 1;
    st.log.lock().unwrap().push(what);
}

/// "DM" for a direct-message channel, "channel" otherwise.
fn place(channel: u64) -> &'static str {
    if channel > DM_OFFSET {
        "DM"
    } else {
        "channel"
    }
}

/// How long Discord waits for an interaction's first response (a reply to its post, or a
/// callback), from when it sent the interaction: after it the person sees "This interaction
/// failed" and the interaction's token no longer takes a first response (10062).
pub const RESPONSE_WINDOW_MS: i64 = 3_000;

/// Why an interaction's response was refused.
enum Refused {
    /// It has one already (40060).
    Acknowledged,
    /// Its time for a first response is over (10062).
    Expired,
    /// Its message is over Discord's limits, or shows nothing.
    Invalid(Refusal),
}

fn error(status: StatusCode, code: u64, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

/// A call refused as Discord refuses it: noted in `State::refusals` (the route, the code and
/// why), and answered with Discord's status, code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub code: u64,
    pub message: &'static str,
    /// What was wrong, for the test that reads `State::refusals`.
    pub why: String,
}

impl Refusal {
    pub(crate) fn new(
        status: StatusCode,
        code: u64,
        message: &'static str,
        why: impl Into<String>,
    ) -> Refusal {
        Refusal {
            status: status.as_u16(),
            code,
            message,
            why: why.into(),
        }
    }
    fn unknown_message(why: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::NOT_FOUND, 10008, "Unknown Message", why)
    }
    fn invalid_form(why: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body", why)
    }
    fn empty() -> Refusal {
        Refusal::new(
            StatusCode::BAD_REQUEST,
            50006,
            "Cannot send an empty message",
            "no content, embed or file",
        )
    }
}

pub(crate) fn refuse(st: &State, route: &str, r: Refusal) -> Response {
    eprintln!(
        "fake discord refuses {route}: {} {} ({})",
        r.code, r.message, r.why
    );
    st.refusals
        .lock()
        .unwrap()
        .push((route.to_string(), r.code, r.why.clone()));
    let status = StatusCode::from_u16(r.status).expect("a status");
    (
        status,
        Json(json!({"code": r.code, "message": r.message, "errors": {"why": r.why}})),
    )
        .into_response()
}

/// Discord's limits on what a message shows (API v10): content, embeds and components.
pub const CONTENT_MAX: usize = 2000;
pub const EMBEDS_MAX: usize = 10;
pub const EMBED_TOTAL_MAX: usize = 6000;
pub const ROWS_MAX: usize = 5;
pub const ROW_BUTTONS_MAX: usize = 5;
pub const CUSTOM_ID_MAX: usize = 100;
pub const LABEL_MAX: usize = 80;

fn chars(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

/// Why Discord refuses a message body (create, edit, interaction response or follow-up) with
/// "Invalid Form Body" (50035), if it does: content over 2000 characters; more than 10 embeds,
/// an embed's title over 256, description over 4096, more than 25 fields (name 256, value
/// 1024), footer over 2048, author over 256, or all embeds over 6000 characters; more than 5
/// action rows, a row of no or more than 5 components, a button without a custom id (other
/// than a link), a custom id over 100 characters or used twice, a label over 80 characters,
/// a button with neither label nor emoji.
pub fn check_message(v: &Value) -> Result<(), Refusal> {
    let bad = |why: String| Err(Refusal::invalid_form(why));
    if chars(&v["content"]) > CONTENT_MAX {
        return bad(format!(
            "content: {} characters, at most {CONTENT_MAX}",
            chars(&v["content"])
        ));
    }
    if let Some(embeds) = v["embeds"].as_array() {
        if embeds.len() > EMBEDS_MAX {
            return bad(format!("{} embeds, at most {EMBEDS_MAX}", embeds.len()));
        }
        let mut total = 0;
        for (i, e) in embeds.iter().enumerate() {
            let fields = e["fields"].as_array().cloned().unwrap_or_default();
            for (what, value, max) in [
                ("title", &e["title"], 256),
                ("description", &e["description"], 4096),
                ("footer.text", &e["footer"]["text"], 2048),
                ("author.name", &e["author"]["name"], 256),
            ] {
                if chars(value) > max {
                    return bad(format!(
                        "embeds.{i}.{what}: {} characters, at most {max}",
                        chars(value)
                    ));
                }
                total += chars(value);
            }
            if fields.len() > 25 {
                return bad(format!("embeds.{i}.fields: {}, at most 25", fields.len()));
            }
            for f in &fields {
                if chars(&f["name"]) > 256 || chars(&f["value"]) > 1024 {
                    return bad(format!("embeds.{i}.fields: a field over its length"));
                }
                total += chars(&f["name"]) + chars(&f["value"]);
            }
        }
        if total > EMBED_TOTAL_MAX {
            return bad(format!(
                "embeds: {total} characters in all, at most {EMBED_TOTAL_MAX}"
            ));
        }
    }
    if let Some(rows) = v["components"].as_array() {
        if rows.len() > ROWS_MAX {
            return bad(format!("components: {} rows, at most {ROWS_MAX}", rows.len()));
        }
        let mut ids = HashSet::new();
        for (r, row) in rows.iter().enumerate() {
            let inner = row["components"].as_array().cloned().unwrap_or_default();
            if row["type"] != 1 || inner.is_empty() || inner.len() > ROW_BUTTONS_MAX {
                return bad(format!(
                    "components.{r}: an action row of 1 to {ROW_BUTTONS_MAX} components, not {} (type {})",
                    inner.len(),
                    row["type"]
                ));
            }
            for (b, button) in inner.iter().enumerate() {
                let at = format!("components.{r}.components.{b}");
                if button["type"] != 2 {
                    continue;
                }
                if chars(&button["label"]) > LABEL_MAX {
                    return bad(format!(
                        "{at}.label: {} characters, at most {LABEL_MAX}",
                        chars(&button["label"])
                    ));
                }
                if chars(&button["label"]) == 0 && button["emoji"].is_null() {
                    return bad(format!("{at}: a button needs a label or an emoji"));
                }
                if button["style"] == 5 {
                    continue;
                }
                let id = button["custom_id"].as_str().unwrap_or("");
                let n = id.chars().count();
                if n == 0 || n > CUSTOM_ID_MAX {
                    return bad(format!("{at}.custom_id: {n} characters, 1 to {CUSTOM_ID_MAX}"));
                }
                if !ids.insert(id.to_string()) {
                    return bad(format!("{at}.custom_id: {id:?} used twice in one message"));
                }
            }
        }
    }
    Ok(())
}

/// Whether a body to create a message shows nothing (Discord: 50006).
fn empty_body(v: &Value, file: &Option<String>) -> bool {
    v["content"].as_str().is_none_or(str::is_empty)
        && v["embeds"].as_array().is_none_or(Vec::is_empty)
        && v["sticker_ids"].as_array().is_none_or(Vec::is_empty)
        && file.is_none()
}

/// Unix time in ms.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A message's text and its buttons, as one text (see `State::history`).
fn shown(text: &str, buttons: &[(String, String)]) -> String {
    let mut all = text.to_string();
    for (label, id) in buttons {
        all.push('\n');
        all.push_str(label);
        all.push_str(" ⌁");
        all.push_str(id);
    }
    all
}

impl State {
    /// Notes the first follow-up of the interaction whose token is `token`.
    fn follow_up(&self, token: &str) {
        if let Some(iid) = token.strip_prefix("itok-").and_then(|i| i.parse().ok()) {
            self.followed_up
                .lock()
                .unwrap()
                .entry(iid)
                .or_insert_with(unix_ms);
        }
    }

    fn remember(&self, m: &Msg) {
        self.history
            .lock()
            .unwrap()
            .push((m.channel, m.id, shown(&m.text, &m.buttons), unix_ms()));
    }

    fn create(&self, channel: u64, body: &Value, file: Option<String>, ephemeral_for: Option<u64>) -> Msg {
        let text = text_of(body).unwrap_or_default();
        let m = Msg {
            id: self.id(),
            channel,
            versions: vec![text.clone()],
            text,
            buttons: buttons_of(body).unwrap_or_default(),
            ephemeral_for,
            file,
        };
        self.msgs.lock().unwrap().insert(m.id, m.clone());
        self.remember(&m);
        self.by_channel
            .lock()
            .unwrap()
            .entry(channel)
            .or_default()
            .push(m.id);
        m
    }

    /// Edits message `id`: refused if there is none, or if the edit would leave it showing
    /// nothing (50006).
    fn edit(&self, id: u64, body: &Value) -> Result<Msg, Refusal> {
        let mut msgs = self.msgs.lock().unwrap();
        let m = msgs
            .get_mut(&id)
            .ok_or_else(|| Refusal::unknown_message(format!("no message {id}")))?;
        let text = text_of(body);
        if text.as_ref().is_some_and(String::is_empty) && m.file.is_none() {
            return Err(Refusal::empty());
        }
        if let Some(t) = text {
            m.text = t.clone();
            m.versions.push(t);
        }
        if let Some(b) = buttons_of(body) {
            m.buttons = b;
        }
        self.remember(m);
        Ok(m.clone())
    }

    /// Message `id` of `channel` as the channel's routes reach it: not one of another channel,
    /// nor an interaction's ephemeral answer (reached only through its interaction's token).
    fn in_channel(&self, channel: u64, id: u64) -> Result<(), Refusal> {
        let listed = self
            .by_channel
            .lock()
            .unwrap()
            .get(&channel)
            .is_some_and(|ids| ids.contains(&id));
        let ephemeral = self
            .msgs
            .lock()
            .unwrap()
            .get(&id)
            .is_some_and(|m| m.ephemeral_for.is_some());
        if !listed || ephemeral {
            return Err(Refusal::unknown_message(format!(
                "message {id} is not a message of channel {channel}"
            )));
        }
        Ok(())
    }

    /// The interaction a webhook call names by its token, as Discord checks it: the
    /// application must be this one (else 10015), the token one Discord gave (else 50027
    /// "Invalid Webhook Token"), and the interaction answered already (a follow-up or an edit
    /// of the original response before the first response: 10015). A response in the reply
    /// to an endpoint's post is taken by the fake a moment after the bot sent it, so the call
    /// waits up to half a second for it (the wait only makes a refusal slower).
    async fn webhook(&self, app: u64, token: &str) -> Result<Original, Refusal> {
        let unknown = |why: String| Refusal::new(StatusCode::NOT_FOUND, 10015, "Unknown Webhook", why);
        if app != APP {
            return Err(unknown(format!("application {app} is not {APP}")));
        }
        let known = self.originals.lock().unwrap().get(token).cloned();
        let Some(original) = known else {
            return Err(Refusal::new(
                StatusCode::UNAUTHORIZED,
                50027,
                "Invalid Webhook Token",
                format!("no interaction has the token {token:?}"),
            ));
        };
        let iid = token.strip_prefix("itok-").and_then(|i| i.parse::<u64>().ok());
        let answered = || iid.is_some_and(|i| self.acknowledged.lock().unwrap().contains(&i));
        for _ in 0..100 {
            if answered() {
                // As it is now (the response may have shown a message).
                let now = self.originals.lock().unwrap().get(token).cloned();
                return Ok(now.unwrap_or(original));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Err(unknown(format!(
            "the interaction of {token:?} has no response yet"
        )))
    }
}

async fn gateway_info(AxState(st): St) -> Json<Value> {
    let url = st.url.lock().unwrap().clone();
    Json(json!({"url": format!("{}/ws", url.replace("http://", "ws://"))}))
}

/// The bot token the fake refuses, as Discord refuses a revoked or mistyped one.
pub const BAD_TOKEN: &str = "bad-token";

async fn gateway_bot(AxState(st): St, headers: axum::http::HeaderMap) -> Response {
    if headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bot {BAD_TOKEN}")) {
        return (
            axum::http::StatusCode::UNAUTHORIZED,
            Json(json!({"message": "401: Unauthorized", "code": 0})),
        )
            .into_response();
    }
    let url = st.url.lock().unwrap().clone();
    Json(
        json!({"url": format!("{}/ws", url.replace("http://", "ws://")), "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}),
    )
    .into_response()
}

async fn ws(AxState(st): St, up: WebSocketUpgrade) -> Response {
    up.on_upgrade(move |socket| gateway(st, socket))
}

async fn gateway(st: Arc<State>, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Value>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}, "s": null, "t": null});
    let mut seq = 0u64;
    if tx.send(WsMessage::Text(hello.to_string().into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = rx.next() => {
                let Some(Ok(msg)) = incoming else { break };
                let WsMessage::Text(text) = msg else { continue };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => { let _ = out_tx.send(json!({"op": 11, "d": null, "s": null, "t": null})); }
                    Some(2) => {
                        let shard = v["d"]["shard"][0].as_u64().unwrap_or(0);
                        let total = v["d"]["shard"][1].as_u64().unwrap_or(1);
                        st.identified.lock().unwrap().push((shard, total));
                        let url = st.url.lock().unwrap().replace("http://", "ws://");
                        let ready = json!({"v": 10, "user": bot_user(), "guilds": [], "session_id": "fake-session",
                            "resume_gateway_url": format!("{url}/ws"), "shard": [shard, total],
                            "application": {"id": APP.to_string(), "flags": 0}});
                        let _ = out_tx.send(json!({"op": 0, "t": "READY", "d": ready}));
                        st.shard_total.store(total, Ordering::Release);
                        st.shard_gws.lock().unwrap().insert(shard, out_tx.clone());
                        *st.gw.lock().unwrap() = Some(out_tx.clone());
                        st.identifies.fetch_add(1, Ordering::Release);
                    }
                    _ => {}
                }
            }
            outgoing = out_rx.recv() => {
                let Some(mut v) = outgoing else { break };
                if v["op"] == 0 {
                    // Each connection numbers its own events, as Discord's sessions do.
                    seq += 1;
                    v["s"] = json!(seq);
                }
                if tx.send(WsMessage::Text(v.to_string().into())).await.is_err() { break; }
            }
        }
    }
}

/// Why Discord refuses a set of application commands ("Invalid Form Body"), if it does: more
/// than 100, names not 1 to 32 lowercase letters, digits, `-` or `_` (localized names too),
/// descriptions not 1 to 100 characters, more than 25 options or choices, a choice's name
/// over 100 characters, a required option after an optional one, or names used twice.
pub fn check_commands(v: &Value) -> Result<(), Refusal> {
    let bad = |why: String| Err(Refusal::invalid_form(why));
    let Some(commands) = v.as_array() else {
        return bad("not a list of commands".into());
    };
    if commands.len() > 100 {
        return bad(format!("{} commands, at most 100", commands.len()));
    }
    let name_ok = |n: &Value| {
        n.as_str().is_some_and(|n| {
            (1..=32).contains(&n.chars().count())
                && n.chars().all(|c| c == '-' || c == '_' || c.is_alphanumeric())
                && n.to_lowercase() == n
        })
    };
    let description_ok = |d: &Value| (1..=100).contains(&chars(d));
    // A command or an option: its name, description and their localizations.
    let check_named = |at: &str, x: &Value, slash: bool| -> Result<(), Refusal> {
        if !name_ok(&x["name"]) {
            return Err(Refusal::invalid_form(format!("{at}.name: {}", x["name"])));
        }
        for (lang, n) in x["name_localizations"].as_object().into_iter().flatten() {
            if !name_ok(n) {
                return Err(Refusal::invalid_form(format!(
                    "{at}.name_localizations.{lang}: {n}"
                )));
            }
        }
        if slash && !description_ok(&x["description"]) {
            return Err(Refusal::invalid_form(format!(
                "{at}.description: {}",
                x["description"]
            )));
        }
        for (lang, d) in x["description_localizations"].as_object().into_iter().flatten() {
            if !description_ok(d) {
                return Err(Refusal::invalid_form(format!(
                    "{at}.description_localizations.{lang}: {d}"
                )));
            }
        }
        Ok(())
    };
    let mut names = HashSet::new();
    for (i, c) in commands.iter().enumerate() {
        let at = format!("{i} ({})", c["name"]);
        let slash = c["type"].as_u64().unwrap_or(1) == 1;
        check_named(&at, c, slash)?;
        if !names.insert((c["type"].as_u64().unwrap_or(1), c["name"].to_string())) {
            return bad(format!("{at}: the name is used twice"));
        }
        let options = c["options"].as_array().cloned().unwrap_or_default();
        if options.len() > 25 {
            return bad(format!("{at}.options: {}, at most 25", options.len()));
        }
        let mut optional = false;
        let mut option_names = HashSet::new();
        for (o, opt) in options.iter().enumerate() {
            let at = format!("{at}.options.{o}");
            check_named(&at, opt, true)?;
            if !option_names.insert(opt["name"].to_string()) {
                return bad(format!("{at}: the name is used twice"));
            }
            if opt["required"] == true && optional {
                return bad(format!("{at}: a required option after an optional one"));
            }
            optional |= opt["required"] != true;
            let choices = opt["choices"].as_array().cloned().unwrap_or_default();
            if choices.len() > 25 {
                return bad(format!("{at}.choices: {}, at most 25", choices.len()));
            }
            for (k, ch) in choices.iter().enumerate() {
                if !(1..=100).contains(&chars(&ch["name"])) {
                    return bad(format!("{at}.choices.{k}.name: {}", ch["name"]));
                }
            }
        }
    }
    Ok(())
}

async fn register(AxState(st): St, Path(app): Path<String>, body: Bytes) -> Response {
    count(&st, "PUT commands", format!("PUT commands {app}"));
    let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    if let Err(r) = check_commands(&v) {
        return refuse(&st, "PUT commands", r);
    }
    let held = st.hold_registration.lock().unwrap().take();
    if let Some(held) = held {
        let _ = held.await;
    }
    st.registered.store(true, Ordering::Release);
    Json(json!([])).into_response()
}

async fn open_dm(AxState(st): St, Json(body): Json<Value>) -> Json<Value> {
    count(&st, "POST open DM", "POST dm".into());
    let user: u64 = body["recipient_id"]
        .as_str()
        .map(|s| s.parse().unwrap())
        .or(body["recipient_id"].as_u64())
        .unwrap();
    Json(
        json!({"id": (user + DM_OFFSET).to_string(), "type": 1, "last_message_id": null,
                "recipients": [{"id": user.to_string(), "username": "u", "discriminator": "0", "avatar": null}]}),
    )
}

async fn send_message(
    AxState(st): St,
    Path(channel): Path<u64>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    count(
        &st,
        &format!("POST {} message", place(channel)),
        format!("POST message {channel}"),
    );
    if channel > DM_OFFSET && st.closed_dms.lock().unwrap().contains(&(channel - DM_OFFSET)) {
        st.dm_refusals.fetch_add(1, Ordering::Relaxed);
        return error(StatusCode::FORBIDDEN, 50007, "Cannot send messages to this user");
    }
    let (v, file) = parse_body(&headers, &body);
    let route = format!("POST {} message", place(channel));
    if let Err(r) = check_message(&v) {
        return refuse(&st, &route, r);
    }
    if empty_body(&v, &file) {
        return refuse(&st, &route, Refusal::empty());
    }
    // Discord: a nonce is at most 25 characters; with `enforce_nonce`, a message the bot
    // created with the same nonce in the last few minutes is returned, and none is created.
    let nonce = match &v["nonce"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    if nonce.as_ref().is_some_and(|n| n.chars().count() > 25) {
        return refuse(&st, &route, Refusal::invalid_form("nonce: over 25 characters"));
    }
    let enforced = nonce.filter(|_| v["enforce_nonce"] == Value::Bool(true));
    if let Some(n) = &enforced {
        let earlier = st.nonces.lock().unwrap().get(n).copied();
        if let Some((id, _)) = earlier.filter(|(_, at)| unix_ms() - at < NONCE_WINDOW_MS) {
            if let Some(m) = st.msgs.lock().unwrap().get(&id).cloned() {
                st.nonce_repeats.fetch_add(1, Ordering::Relaxed);
                return Json(msg_json(&m)).into_response();
            }
        }
    }
    let m = st.create(channel, &v, file, None);
    if let Some(n) = enforced {
        st.nonces.lock().unwrap().insert(n, (m.id, unix_ms()));
    }
    Json(msg_json(&m)).into_response()
}

/// How long Discord remembers an enforced nonce ("the past few minutes").
const NONCE_WINDOW_MS: i64 = 5 * 60_000;

/// Edits a message of the channel; Discord's "Unknown Message" for one that is not there (or
/// is in another channel, or is an ephemeral answer), "Invalid Form Body" for a body over
/// its limits, and "Cannot send an empty message" for an edit that would leave it empty.
async fn edit_message(
    AxState(st): St,
    Path((channel, id)): Path<(u64, u64)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let route = format!("PATCH {} message", place(channel));
    count(&st, &route, format!("PATCH message {channel}"));
    let (body, _) = parse_body(&headers, &body);
    let edited = st
        .in_channel(channel, id)
        .and_then(|()| check_message(&body))
        .and_then(|()| st.edit(id, &body));
    match edited {
        Ok(m) => Json(msg_json(&m)).into_response(),
        Err(r) => refuse(&st, &route, r),
    }
}

/// Deletes a message of the channel: 204, or Discord's "Unknown Message" for one that is not
/// there (deleted already, or in another channel).
async fn delete_message(AxState(st): St, Path((channel, id)): Path<(u64, u64)>) -> Response {
    count(
        &st,
        &format!("DELETE {} message", place(channel)),
        format!("DELETE message {channel}"),
    );
    if let Err(r) = st.in_channel(channel, id) {
        return refuse(&st, &format!("DELETE {} message", place(channel)), r);
    }
    let mut ids = st.by_channel.lock().unwrap();
    let Some(pos) = ids.get(&channel).and_then(|v| v.iter().position(|&m| m == id)) else {
        let r = Refusal::unknown_message(format!("message {id} went meanwhile"));
        return refuse(&st, "DELETE message", r);
    };
    ids.get_mut(&channel).expect("found above").remove(pos);
    st.msgs.lock().unwrap().remove(&id);
    StatusCode::NO_CONTENT.into_response()
}

/// A thread of a server's channel: named in 1 to 100 characters, and not of a direct message
/// (Discord: 50024 "Cannot execute action on this channel type").
async fn create_thread(AxState(st): St, Path(channel): Path<u64>, Json(body): Json<Value>) -> Response {
    count(&st, "POST thread", format!("POST thread {channel}"));
    let name = chars(&body["name"]);
    if name == 0 || name > 100 {
        let r = Refusal::invalid_form(format!("name: {name} characters, 1 to 100"));
        return refuse(&st, "POST thread", r);
    }
    if channel > DM_OFFSET {
        let r = Refusal::new(
            StatusCode::BAD_REQUEST,
            50024,
            "Cannot execute action on this channel type",
            "a thread of a direct message",
        );
        return refuse(&st, "POST thread", r);
    }
    let id = st.id();
    st.threads
        .lock()
        .unwrap()
        .push((id, channel, body["name"].as_str().unwrap_or("").to_string()));
    Json(
        json!({"id": id.to_string(), "type": 11, "guild_id": GUILD.to_string(), "parent_id": channel.to_string(),
                "name": body["name"], "position": 0, "permission_overwrites": [], "nsfw": false,
                "thread_metadata": {"archived": false, "auto_archive_duration": 1440, "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false}}),
    )
    .into_response()
}

async fn callback(
    AxState(st): St,
    Path((iid, token)): Path<(u64, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (v, file) = parse_body(&headers, &body);
    let route = format!("POST interaction callback type {}", v["type"]);
    count(&st, &route, "POST callback".into());
    // Discord's tokens name their interaction: another's token is no token of this one.
    if token != format!("itok-{iid}") {
        let why = format!("{token:?} is not the token of interaction {iid}");
        return refuse(
            &st,
            &route,
            Refusal::new(StatusCode::NOT_FOUND, 10062, "Unknown interaction", why),
        );
    }
    match apply_callback(&st, iid, token, v, file) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(Refused::Invalid(r)) => refuse(&st, &route, r),
        Err(Refused::Acknowledged) => error(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        ),
        Err(Refused::Expired) => error(StatusCode::NOT_FOUND, 10062, "Unknown interaction"),
    }
}

/// An interaction's response, from a callback call or from the reply to its post. Refused
/// (and nothing shown) if it was answered already: Discord takes one response per
/// interaction and refuses a second call with 40060; or if it comes more than
/// `RESPONSE_WINDOW_MS` after the interaction was sent: 10062.
fn apply_callback(
    st: &State,
    iid: u64,
    token: String,
    v: Value,
    file: Option<String>,
) -> Result<(), Refused> {
    let sent = st.sent_ms.lock().unwrap().get(&iid).copied();
    if sent.is_some_and(|at| unix_ms() - at > RESPONSE_WINDOW_MS) {
        st.expired.fetch_add(1, Ordering::Relaxed);
        return Err(Refused::Expired);
    }
    let d = &v["data"];
    match v["type"].as_u64() {
        // A message, or the pressed message updated: Discord checks it as any message.
        Some(4 | 7) => check_message(d).map_err(Refused::Invalid)?,
        // A deferral, an acknowledgement, a pong; modals and autocomplete: not sent by the bot.
        Some(1 | 5 | 6) => {}
        // LAUNCH_ACTIVITY: nothing but the type.
        Some(12) if d.is_null() || d.as_object().is_some_and(|o| o.is_empty()) => {}
        Some(12) => {
            let why = format!("LAUNCH_ACTIVITY with data {d}");
            return Err(Refused::Invalid(Refusal::invalid_form(why)));
        }
        other => {
            let why = format!("interaction response type {other:?}");
            return Err(Refused::Invalid(Refusal::invalid_form(why)));
        }
    }
    let (pressed, channel, user) = st
        .originals
        .lock()
        .unwrap()
        .get(&token)
        .cloned()
        .unwrap_or((None, CHANNEL, 0));
    match v["type"].as_u64() {
        Some(4) if empty_body(d, &file) => return Err(Refused::Invalid(Refusal::empty())),
        // Only a press has a message to update (Discord: "Invalid Form Body").
        Some(6 | 7) if pressed.is_none() => {
            let why = format!("response type {} to an interaction with no message", v["type"]);
            return Err(Refused::Invalid(Refusal::invalid_form(why)));
        }
        Some(7) if text_of(d).is_some_and(|t| t.is_empty()) => {
            return Err(Refused::Invalid(Refusal::empty()));
        }
        _ => {}
    }
    if !st.acknowledged.lock().unwrap().insert(iid) {
        st.refused_acks.fetch_add(1, Ordering::Relaxed);
        return Err(Refused::Acknowledged);
    }
    let said = match v["type"].as_u64() {
        Some(6 | 7) => "✓".to_string(),
        Some(12) => "LAUNCH_ACTIVITY".to_string(),
        _ => text_of(d).unwrap_or_default(),
    };
    st.answer_log.lock().unwrap().push((iid, said));
    let shown = match v["type"].as_u64() {
        Some(4) => {
            let eph = d["flags"].as_u64().unwrap_or(0) & 64 != 0;
            Some(st.create(channel, d, file, eph.then_some(user)).id)
        }
        Some(7) => {
            // Checked above (the pressed message is kept while it is pressed: the bot deletes
            // only a copy of a hand it has just sent, which nobody has pressed yet).
            if let Some(p) = pressed {
                st.edit(p, d).expect("the pressed message updated");
            }
            pressed
        }
        Some(6) => pressed,
        _ => None,
    };
    st.originals.lock().unwrap().insert(token, (shown, channel, user));
    st.callbacks.lock().unwrap().insert(iid, v);
    Ok(())
}

/// The key the fake signs its posts with, and the public key the bot is given.
pub fn signing_key() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[7; 32])
}

pub fn public_key_hex() -> String {
    signing_key()
        .verifying_key()
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Posts `body` to the endpoint as Discord does (signed unless `sign` is false); returns the
/// status and the reply's JSON, if any.
pub async fn post_interaction(url: &str, body: &Value, sign: bool) -> (u16, Option<Value>) {
    use ed25519_dalek::Signer;
    let body = body.to_string();
    let timestamp = "1700000000";
    let mut signed = timestamp.as_bytes().to_vec();
    signed.extend_from_slice(body.as_bytes());
    let signature: String = if sign {
        signing_key()
            .sign(&signed)
            .to_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    } else {
        "00".repeat(64)
    };
    // The endpoint is bound while the bot starts: wait for it.
    for _ in 0..200 {
        let sent = reqwest::Client::new()
            .post(url)
            .header("Content-Type", "application/json")
            .header("X-Signature-Ed25519", &signature)
            .header("X-Signature-Timestamp", timestamp)
            .body(body.clone())
            .send()
            .await;
        match sent {
            Ok(r) => {
                let status = r.status().as_u16();
                return (status, r.json().await.ok());
            }
            Err(e) if e.is_connect() => tokio::time::sleep(Duration::from_millis(10)).await,
            Err(e) => panic!("posting to {url}: {e}"),
        }
    }
    panic!("nothing listens on {url}");
}

/// Posts an interaction to an endpoint, signed, never panicking: the status and the reply's
/// JSON, or Err(true) when nothing listens there (try another), Err(false) when the process
/// took it and failed (died, or did not answer within Discord's 3 s and the token's grace).
async fn try_post_interaction(url: &str, body: &Value) -> Result<(u16, Option<Value>), bool> {
    use ed25519_dalek::Signer;
    let body = body.to_string();
    let timestamp = "1700000000";
    let mut signed = timestamp.as_bytes().to_vec();
    signed.extend_from_slice(body.as_bytes());
    let signature: String = signing_key()
        .sign(&signed)
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    // Discord waits no longer for the reply.
    let sent = reqwest::Client::new()
        .post(url)
        .timeout(Duration::from_millis(RESPONSE_WINDOW_MS as u64))
        .header("Content-Type", "application/json")
        .header("X-Signature-Ed25519", &signature)
        .header("X-Signature-Timestamp", timestamp)
        .body(body)
        .send()
        .await;
    match sent {
        Ok(r) => {
            let status = r.status().as_u16();
            Ok((status, r.json().await.ok()))
        }
        Err(e) => Err(e.is_connect()),
    }
}

/// Edits an interaction's original response (`@original`) or one of its follow-ups, by the
/// interaction's token: refused as Discord refuses it (see `State::webhook`), and a message
/// id that is no follow-up of this interaction is "Unknown Message".
async fn edit_original(
    AxState(st): St,
    Path((app, token, which)): Path<(u64, String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let route = "PATCH interaction original";
    count(&st, route, "PATCH original".into());
    let (v, file) = parse_body(&headers, &body);
    let checked = st.webhook(app, &token).await;
    let (shown, channel, user) = match checked.and_then(|o| check_message(&v).map(|()| o)) {
        Ok(o) => o,
        Err(r) => return refuse(&st, route, r),
    };
    st.follow_up(&token);
    let target = if which == "@original" {
        shown
    } else {
        let id = which.parse::<u64>().ok();
        let ours = st
            .followups
            .lock()
            .unwrap()
            .get(&token)
            .cloned()
            .unwrap_or_default();
        match id.filter(|i| ours.contains(i)) {
            Some(i) => Some(i),
            None => {
                let why = format!("{which} is no follow-up of the interaction");
                return refuse(&st, route, Refusal::unknown_message(why));
            }
        }
    };
    let m = match target {
        Some(id) => match st.edit(id, &v) {
            Ok(m) => m,
            Err(r) => return refuse(&st, route, r),
        },
        // A deferred command's original response is shown by its first edit.
        None => {
            if empty_body(&v, &file) {
                return refuse(&st, route, Refusal::empty());
            }
            let m = st.create(channel, &v, file, None);
            st.originals
                .lock()
                .unwrap()
                .insert(token, (Some(m.id), channel, user));
            m
        }
    };
    Json(msg_json(&m)).into_response()
}

/// A follow-up message of an interaction, by its token (see `State::webhook`).
async fn followup(
    AxState(st): St,
    Path((app, token)): Path<(u64, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let route = "POST interaction followup";
    count(&st, route, "POST followup".into());
    let (v, file) = parse_body(&headers, &body);
    let checked = st.webhook(app, &token).await.and_then(|o| {
        check_message(&v)?;
        if empty_body(&v, &file) {
            return Err(Refusal::empty());
        }
        Ok(o)
    });
    let (_, channel, user) = match checked {
        Ok(o) => o,
        Err(r) => return refuse(&st, route, r),
    };
    st.follow_up(&token);
    let eph = v["flags"].as_u64().unwrap_or(0) & 64 != 0;
    if v["content"].as_str().is_some_and(|c| !c.is_empty())
        && v["embeds"].as_array().is_none_or(Vec::is_empty)
    {
        // A deferred press refused (a hand would come as an embed), or told that its move's
        // outcome is not known yet (which refuses nothing: the chat is told later).
        if let Some(iid) = token.strip_prefix("itok-").and_then(|i| i.parse().ok()) {
            let unsure = stikis_host::i18n::t(stikis_host::i18n::Lang::En, "press-unsure", &[]);
            if v["content"].as_str() == Some(unsure.as_str()) {
                st.unsure_later.lock().unwrap().insert(iid);
            } else {
                st.refused_later.lock().unwrap().insert(iid);
            }
        }
    }
    let m = st.create(channel, &v, file, eph.then_some(user));
    st.followups.lock().unwrap().entry(token).or_default().push(m.id);
    Json(msg_json(&m)).into_response()
}

async fn fallback(AxState(st): St, uri: axum::http::Uri, method: axum::http::Method) -> Response {
    count(&st, "unknown route", format!("{method} {uri} (unknown)"));
    let r = Refusal::new(
        StatusCode::NOT_FOUND,
        0,
        "404: Not Found",
        format!("no route for {method} {uri}"),
    );
    refuse(&st, "unknown route", r)
}

impl Fake {
    pub async fn start() -> Fake {
        let state = Arc::new(State::default());
        let app = Router::new()
            .route("/api/v10/gateway", get(gateway_info))
            .route("/api/v10/gateway/bot", get(gateway_bot))
            .route("/ws", get(ws))
            .route("/api/v10/applications/{app}/commands", put(register))
            .route("/api/v10/users/@me/channels", post(open_dm))
            .route("/api/v10/channels/{c}/messages", post(send_message))
            .route(
                "/api/v10/channels/{c}/messages/{m}",
                patch(edit_message).delete(delete_message),
            )
            .route("/api/v10/channels/{c}/threads", post(create_thread))
            .route("/api/v10/interactions/{i}/{t}/callback", post(callback))
            .route("/api/v10/webhooks/{a}/{t}/messages/{m}", patch(edit_original))
            .route("/api/v10/webhooks/{a}/{t}", post(followup))
            .route("/api/v10/oauth2/token", post(activity::token))
            .route("/api/v10/users/@me", get(activity::me))
            .route(
                "/api/v10/applications/{app}/activity-instances/{instance}",
                get(activity::instance),
            )
            .fallback(fallback)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        *state.url.lock().unwrap() = url.clone();
        tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Fake { url, state }
    }

    pub fn config(&self, db: &str) -> stikis_discord::Config {
        let mut c = stikis_discord::Config::new("fake-token", db);
        c.api_url = Some(self.url.clone());
        c.host.bot_budget_ms = 5;
        c.host.seeds =
            Arc::new(|table, deal| stikis_core::Seed::from_u64((table as u64) << 16 | deal as u64));
        c.min_edit_interval = Duration::ZERO;
        c
    }

    /// Waits until a bot has identified `n` times in all and registered its commands.
    pub async fn wait_ready(&self, n: u64) {
        for _ in 0..2000 {
            if self.state.identifies.load(Ordering::Acquire) >= n
                && self.state.registered.load(Ordering::Acquire)
                && self.state.gw.lock().unwrap().is_some()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("the bot did not connect to the fake gateway");
    }

    /// Forgets the gateway connection (before a restart) and the registration.
    pub fn disconnect(&self) {
        *self.state.gw.lock().unwrap() = None;
        self.state.shard_gws.lock().unwrap().clear();
        self.state.registered.store(false, Ordering::Release);
    }

    /// From now on interactions are posted to the bot's endpoint at `url`.
    pub fn use_endpoint(&self, url: &str) {
        *self.state.endpoint.lock().unwrap() = Some(url.to_string());
    }

    /// A config whose bot takes interactions on an endpoint (a free port on 127.0.0.1) and
    /// this fake posting them there.
    pub fn endpoint_config(&self, db: &str) -> stikis_discord::Config {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut c = self.config(db);
        c.interactions = Some(stikis_discord::endpoint::Endpoint {
            listen: ([127, 0, 0, 1], port).into(),
            public_key: public_key_hex(),
        });
        self.use_endpoint(&format!("http://127.0.0.1:{port}/interactions"));
        c
    }

    /// From now on interactions are posted to one of the processes' endpoints at `urls`, as a
    /// load balancer in front of them does: starting at one chosen by the interaction and
    /// moving on while nothing listens there. A process that takes a post and dies on it
    /// leaves the interaction unanswered ("This interaction failed"), as on Discord.
    pub fn use_endpoints(&self, urls: Vec<String>) {
        *self.state.balanced.lock().unwrap() = urls;
    }

    fn dispatch_balanced(&self, d: Value, urls: Vec<String>) {
        let st = self.state.clone();
        tokio::spawn(async move {
            let iid: u64 = d["id"].as_str().unwrap().parse().unwrap();
            let mut i = iid as usize * 7919;
            // The balancer tries the next process while one refuses the connection, within
            // the time Discord waits.
            let deadline = std::time::Instant::now() + Duration::from_millis(RESPONSE_WINDOW_MS as u64);
            while std::time::Instant::now() < deadline {
                let at = i % urls.len();
                let url = &urls[at];
                i += 1;
                let posted_ms = unix_ms();
                let sent = try_post_interaction(url, &d).await;
                if !matches!(sent, Err(true)) {
                    let got = Received {
                        process: at,
                        posted_ms,
                    };
                    st.received.lock().unwrap().insert(iid, got);
                }
                match sent {
                    Ok((status, reply)) => {
                        st.posted.lock().unwrap().push(status);
                        if let Some(v) = reply.filter(|v| v["type"].is_u64()) {
                            let token = d["token"].as_str().unwrap().to_string();
                            let _ = apply_callback(&st, iid, token, v, None);
                        }
                        return;
                    }
                    Err(refused) => {
                        st.redelivered.fetch_add(1, Ordering::Relaxed);
                        if !refused {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                }
            }
        });
    }

    fn dispatch(&self, d: Value) {
        if let Some(iid) = d["id"].as_str().and_then(|i| i.parse().ok()) {
            self.state.sent_ms.lock().unwrap().insert(iid, unix_ms());
        }
        let urls = self.state.balanced.lock().unwrap().clone();
        if !urls.is_empty() {
            return self.dispatch_balanced(d, urls);
        }
        let endpoint = self.state.endpoint.lock().unwrap().clone();
        if let Some(url) = endpoint {
            let st = self.state.clone();
            tokio::spawn(async move {
                let (status, reply) = post_interaction(&url, &d, true).await;
                st.posted.lock().unwrap().push(status);
                if let Some(v) = reply.filter(|v| v["type"].is_u64()) {
                    *st.routes
                        .lock()
                        .unwrap()
                        .entry(format!("(reply to the post) response type {}", v["type"]))
                        .or_default() += 1;
                    let iid = d["id"].as_str().unwrap().parse().unwrap();
                    let token = d["token"].as_str().unwrap().to_string();
                    let _ = apply_callback(&st, iid, token, v, None);
                }
            });
            return;
        }
        // A server's events go to its shard, direct messages to shard 0.
        let total = self.state.shard_total.load(Ordering::Acquire).max(1);
        let shard = if d["guild_id"].is_string() {
            (GUILD >> 22) % total
        } else {
            0
        };
        let gw = self
            .state
            .shard_gws
            .lock()
            .unwrap()
            .get(&shard)
            .cloned()
            .or_else(|| self.state.gw.lock().unwrap().clone())
            .expect("a gateway connection");
        *self.state.dispatched.lock().unwrap().entry(shard).or_default() += 1;
        gw.send(json!({"op": 0, "t": "INTERACTION_CREATE", "d": d}))
            .unwrap();
    }

    fn member(&self, p: &Person) -> Value {
        json!({"user": p.json(), "nick": null, "avatar": null, "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00",
               "premium_since": null, "deaf": false, "mute": false, "flags": 0, "pending": false,
               "permissions": p.perms.to_string(), "communication_disabled_until": null, "guild_id": GUILD.to_string()})
    }

    /// Where an interaction happens: a guild channel (with the member) or a DM.
    fn base(&self, p: &Person, channel: u64, kind: u8) -> (u64, String, Value) {
        let iid = self.state.id();
        let token = format!("itok-{iid}");
        let mut d = json!({"id": iid.to_string(), "application_id": APP.to_string(), "type": kind,
            "token": token, "version": 1, "channel_id": channel.to_string(), "user": p.json(),
            "app_permissions": "0", "locale": "en-US", "entitlements": [], "attachment_size_limit": 8388608});
        if channel < DM_OFFSET {
            d["guild_id"] = json!(GUILD.to_string());
            d["guild_locale"] = json!("en-US");
            d["member"] = self.member(p);
        }
        (iid, token, d)
    }

    async fn wait_callback(&self, iid: u64) -> Value {
        for _ in 0..4000 {
            if let Some(v) = self.state.callbacks.lock().unwrap().get(&iid) {
                return v.clone();
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("interaction {iid} was not answered");
    }

    /// Sends a slash command in `channel`; returns the callback body.
    pub async fn slash(&self, p: &Person, channel: u64, name: &str, options: Value) -> Value {
        let (iid, token, mut d) = self.base(p, channel, 2);
        d["data"] = json!({"id": "77", "name": name, "type": 1, "options": options});
        self.state
            .originals
            .lock()
            .unwrap()
            .insert(token, (None, channel, p.id));
        self.dispatch(d);
        self.wait_callback(iid).await
    }

    /// Presses a button of a message without waiting for its answer; returns the
    /// interaction's id (its answers go to `answer_log`).
    pub fn press_nowait(&self, p: &Person, msg: u64, custom_id: &str) -> u64 {
        let m = self
            .state
            .msgs
            .lock()
            .unwrap()
            .get(&msg)
            .cloned()
            .expect("a known message");
        let (iid, token, mut d) = self.base(p, m.channel, 3);
        d["data"] = json!({"custom_id": custom_id, "component_type": 2});
        d["message"] = msg_json(&m);
        self.state
            .originals
            .lock()
            .unwrap()
            .insert(token, (Some(msg), m.channel, p.id));
        self.dispatch(d);
        iid
    }

    /// Sends a slash command in `channel` without waiting for its answer; returns the
    /// interaction's id.
    pub fn slash_nowait(&self, p: &Person, channel: u64, name: &str, options: Value) -> u64 {
        let (iid, token, mut d) = self.base(p, channel, 2);
        d["data"] = json!({"id": "77", "name": name, "type": 1, "options": options});
        self.state
            .originals
            .lock()
            .unwrap()
            .insert(token, (None, channel, p.id));
        self.dispatch(d);
        iid
    }

    /// Presses a button of a message; returns the callback body.
    pub async fn press(&self, p: &Person, msg: u64, custom_id: &str) -> Value {
        let m = self
            .state
            .msgs
            .lock()
            .unwrap()
            .get(&msg)
            .cloned()
            .expect("a known message");
        let (iid, token, mut d) = self.base(p, m.channel, 3);
        d["data"] = json!({"custom_id": custom_id, "component_type": 2});
        d["message"] = msg_json(&m);
        self.state
            .originals
            .lock()
            .unwrap()
            .insert(token, (Some(msg), m.channel, p.id));
        self.dispatch(d);
        self.wait_callback(iid).await
    }

    /// Messages of a channel, oldest first (ephemeral ones included, with their viewer).
    pub fn channel(&self, channel: u64) -> Vec<Msg> {
        let ids = self
            .state
            .by_channel
            .lock()
            .unwrap()
            .get(&channel)
            .cloned()
            .unwrap_or_default();
        let msgs = self.state.msgs.lock().unwrap();
        ids.iter().filter_map(|id| msgs.get(id).cloned()).collect()
    }

    /// The bot's own messages in a person's DM channel (not the ephemeral answers there).
    pub fn dms(&self, user: u64) -> Vec<Msg> {
        let mut v = self.channel(user + DM_OFFSET);
        v.retain(|m| m.ephemeral_for.is_none());
        v
    }

    pub fn rest_calls(&self) -> u64 {
        self.state.rest_calls.load(Ordering::Relaxed)
    }

    /// Threads created so far: (thread id, parent channel id, name).
    pub fn threads(&self) -> Vec<(u64, u64, String)> {
        self.state.threads.lock().unwrap().clone()
    }

    /// REST calls so far by kind of route.
    pub fn routes(&self) -> BTreeMap<String, u64> {
        self.state.routes.lock().unwrap().clone()
    }

    /// Calls refused so far for breaking Discord's rules (not the refusals a test arranges:
    /// closed direct messages, a second or late interaction response): (route, code, why).
    pub fn refusals(&self) -> Vec<(String, u64, String)> {
        self.state.refusals.lock().unwrap().clone()
    }

    /// Fails if Discord would have refused any call the bot made.
    pub fn assert_nothing_refused(&self) {
        let refused = self.refusals();
        assert!(
            refused.is_empty(),
            "Discord would refuse the bot's calls: {refused:#?}"
        );
    }
}

/// The reply text of an interaction callback (content or embed).
pub fn callback_text(v: &Value) -> String {
    text_of(&v["data"]).unwrap_or_default()
}
