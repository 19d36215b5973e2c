//! A small fake Telegram Bot API server (axum on 127.0.0.1) for the end-to-end tests and the
//! benchmark: it serves queued updates to getUpdates, keeps every chat's messages (text and
//! inline keyboard, edited in place), records every call with its time, and can answer with an
//! injected error (429 with retry_after, 403 for a private chat). After setWebhook it delivers
//! updates as Telegram does in webhook mode instead: POSTed one by one to the registered URL
//! with the secret in X-Telegram-Bot-Api-Secret-Token.
//!
//! It refuses what Telegram refuses whatever the chat, with Telegram's 400 and description
//! (`refusal`): a message text empty or longer than 4096 UTF-16 code units, a button's callback
//! data empty or longer than 64 bytes, an answer to a press longer than 200, a second answer to
//! one press or one to a press never sent; the same in a webhook reply. Each such call is kept
//! in `refused`.

#![allow(dead_code)]

pub mod ephemeral;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::any;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::Notify;

pub const BOT_ID: i64 = 777;
pub const BOT_NAME: &str = "stikis_test_bot";
/// The token the fake refuses (401 Unauthorized), as Telegram refuses a revoked one.
pub const BAD_TOKEN: &str = "123:BAD";
/// The token of a group member's client (`member_client`): `member<user id>`.
pub const MEMBER: &str = "botmember";

#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    pub body: Value,
    pub at: Instant,
    /// The error injected for this call, if any.
    pub failed: Option<u16>,
}

#[derive(Debug, Clone, Default)]
pub struct Msg {
    pub id: i64,
    pub text: String,
    /// Rows of (label, callback_data or url).
    pub buttons: Vec<Vec<(String, String)>>,
    pub thread: Option<i64>,
}

#[derive(Default)]
pub struct FakeState {
    updates: VecDeque<Value>,
    next_update: i64,
    next_message: i64,
    next_callback: u64,
    pub calls: Vec<Call>,
    /// chat id -> messages in order.
    pub chats: HashMap<i64, Vec<Msg>>,
    /// method -> responses to give instead of the normal one, in order.
    inject: HashMap<String, VecDeque<(u16, Value)>>,
    /// Private chats that refuse the bot.
    pub forbidden: HashSet<i64>,
    pub admins: HashSet<i64>,
    /// People who left the group (getChatMember says "left"), and people Telegram does not
    /// know there (it refuses with PARTICIPANT_ID_INVALID); everyone else is a member.
    pub outsiders: HashSet<i64>,
    pub strangers: HashSet<i64>,
    /// Artificial latency of every call.
    pub latency: Duration,
    /// getUpdates answers at once, even with nothing (a server that ignores the long-poll
    /// timeout), instead of holding the call for a while.
    pub instant_updates: bool,
    /// Callback queries answered so far: callback id -> the text of the answer Telegram took
    /// (the first; it refuses any other).
    pub answered: HashMap<String, String>,
    /// The callback queries sent to the bot (`press`): Telegram refuses an answer to any
    /// other id.
    pub issued: HashSet<String>,
    /// Every call refused as Telegram refuses it whatever the chat (a text too long or
    /// empty, a button's data too long, a popup too long, a second answer to a press):
    /// (method, Telegram's description, the call's body). The bot must make none.
    pub refused: Vec<(String, String, Value)>,
    /// Calls per method.
    pub counts: HashMap<String, usize>,
    /// Record every call in `calls` (off for the benchmark).
    pub quiet: bool,
    /// The webhook registered by setWebhook: its URL and secret token.
    pub webhook: Option<(url::Url, Option<String>)>,
    /// The HTTP status of every webhook delivery, in order of their replies.
    pub delivered: Vec<u16>,
    /// Methods run from webhook replies, per method (also counted in `counts`).
    pub in_reply: HashMap<String, usize>,
    /// Behind a load balancer (the chaos harness): every update is posted to one of these
    /// webhook servers (path, secret), another one when it is down or does not answer 200,
    /// until one does, as Telegram retries a webhook. setWebhook and deleteWebhook change
    /// nothing then.
    pub balanced: Option<(Vec<std::net::SocketAddr>, String, Option<String>)>,
    /// Behind the load balancer: the webhook server to try first for an update, if this
    /// says one (a benchmark's balancer that knows each table's owner); else one by the
    /// update's id.
    pub route: Option<Route>,
    /// Every text a message ever showed, in order: (chat, message id, text and a line per
    /// button, its label then ` ⌁` and its callback data, Unix ms when the fake took it).
    pub history: Vec<(i64, i64, String, i64)>,
    /// Every answer to a callback query, in order: (callback id, text).
    pub answer_log: Vec<(String, String)>,
    /// Webhook posts that failed (the server was down, died, or did not answer 200).
    pub redelivered: usize,
    /// Behind the load balancer: which webhook server took each callback query (its index
    /// among `balanced`'s) and when the post that it took began (Unix ms).
    pub received: HashMap<String, (usize, i64)>,
    /// A group's limit on messages sent and edited, as Telegram enforces it (about 20 a
    /// minute): at most this many in any such window, else 429 with `retry_after`. Off
    /// unless a test sets it (most tests run the bot without pacing, to be quick).
    pub group_limit: Option<(usize, Duration)>,
    /// When each group's sends and edits were taken, for `group_limit`.
    group_calls: HashMap<i64, VecDeque<Instant>>,
    /// Ephemeral messages (Bot API 10.2): off by default, a server older than that
    /// (`ephemeral`).
    pub eph: ephemeral::Ephemerals,
    /// Clients of members of the groups (`member_client`), by person: what each one's
    /// `getUpdates` has yet to take, as (update id, update), and the last id given.
    members: HashMap<i64, (VecDeque<(i64, Value)>, i64)>,
}

impl FakeState {
    /// What the clients of the groups' members get of a bot message of `chat` (`kind`:
    /// `message` or `edited_message`): every member's client, or (`receiver`, an ephemeral
    /// message) that person's alone.
    pub(crate) fn tell_members(&mut self, chat: i64, receiver: Option<i64>, kind: &str, message: Value) {
        if chat >= 0 {
            return;
        }
        for (who, (queue, next)) in self.members.iter_mut() {
            if receiver.is_some_and(|r| r != *who) {
                continue;
            }
            *next += 1;
            queue.push_back((*next, json!({ "update_id": *next, kind: message.clone() })));
        }
    }
}

/// Picks the balanced webhook server (its index) to post an update to first.
pub type Route = Arc<dyn Fn(&Value) -> Option<usize> + Send + Sync>;

/// The Bot API methods this fake knows, spelled as Telegram documents them. Telegram takes a
/// method's name in any case; any other name is answered 404 Not Found.
const METHODS: &[&str] = &[
    "getMe",
    "getUpdates",
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "deleteMessage",
    "answerCallbackQuery",
    "sendDocument",
    "setWebhook",
    "deleteWebhook",
    "getWebhookInfo",
    "getChatMember",
    "setMyCommands",
    "deleteMyCommands",
    "setChatMenuButton",
    "editEphemeralMessageText",
    "editEphemeralMessageReplyMarkup",
    "deleteEphemeralMessage",
];

/// The longest text of a message, in UTF-16 code units as Telegram counts them (after entity
/// parsing: the bot sends plain text).
pub const MAX_TEXT: usize = 4096;
/// The longest text of an answer to a callback query (a popup or a toast).
pub const MAX_ANSWER: usize = 200;
/// The most bytes of a button's callback data.
pub const MAX_CALLBACK_DATA: usize = 64;
pub const TOO_LONG: &str = "Bad Request: message is too long";
pub const EMPTY: &str = "Bad Request: message text is empty";
pub const ANSWER_TOO_LONG: &str = "Bad Request: MESSAGE_TOO_LONG";
pub const BAD_BUTTON_DATA: &str = "Bad Request: BUTTON_DATA_INVALID";
pub const QUERY_TOO_OLD: &str =
    "Bad Request: query is too old and response timeout expired or query ID is invalid";

/// Why Telegram refuses `method` with `body` whatever the chat (400 Bad Request with this
/// description), if it does: a message text empty or longer than 4096, an inline button's
/// callback data empty or longer than 64 bytes, an answer to a callback query longer than 200
/// or to a query that was never sent or already answered.
fn refusal(method: &str, body: &Value, s: &FakeState) -> Option<&'static str> {
    if matches!(method, "sendMessage" | "editMessageText") {
        let text = body["text"].as_str().unwrap_or("");
        // Telegram trims the text: one of only spaces is empty.
        if text.trim().is_empty() {
            return Some(EMPTY);
        }
        if text.encode_utf16().count() > MAX_TEXT {
            return Some(TOO_LONG);
        }
    }
    if matches!(
        method,
        "sendMessage" | "editMessageText" | "editMessageReplyMarkup"
    ) {
        let buttons = body["reply_markup"]["inline_keyboard"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flatten();
        for b in buttons {
            if let Some(data) = b.get("callback_data") {
                let len = data.as_str().map_or(0, str::len);
                if !(1..=MAX_CALLBACK_DATA).contains(&len) {
                    return Some(BAD_BUTTON_DATA);
                }
            }
        }
    }
    if method == "answerCallbackQuery" {
        let id = body["callback_query_id"].as_str().unwrap_or("");
        if !s.issued.contains(id) || s.answered.contains_key(id) {
            return Some(QUERY_TOO_OLD);
        }
        if body["text"]
            .as_str()
            .is_some_and(|t| t.encode_utf16().count() > MAX_ANSWER)
        {
            return Some(ANSWER_TOO_LONG);
        }
    }
    None
}

/// Sends and edits of a message, the calls a group's rate limit counts.
fn counted_by_group_limit(method: &str) -> bool {
    matches!(
        method,
        "sendMessage" | "editMessageText" | "editMessageReplyMarkup" | "sendDocument"
    )
}

#[derive(Clone)]
pub struct Fake {
    pub state: Arc<Mutex<FakeState>>,
    notify: Arc<Notify>,
    pub url: url::Url,
    /// Updates to POST in webhook mode, in order.
    hooks: tokio::sync::mpsc::UnboundedSender<Value>,
}

/// POSTs a JSON body to `url` with plain HTTP/1.1 (the tests' webhook is on 127.0.0.1);
/// returns the status code.
pub async fn post_json(url: &url::Url, secret: Option<&str>, body: &Value) -> u16 {
    post_json_reply(url, secret, body).await.0
}

/// As `post_json`, also returning the reply's body when it is JSON (in webhook mode, a Bot
/// API method call that Telegram runs as if the bot had made it).
pub async fn post_json_reply(url: &url::Url, secret: Option<&str>, body: &Value) -> (u16, Option<Value>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    // The bot binds its webhook port in the background after setWebhook: wait for it.
    let mut tries = 0;
    let mut tcp = loop {
        match tokio::net::TcpStream::connect(&addr).await {
            Ok(t) => break t,
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("{addr}: {e}"),
        }
    };
    let body = body.to_string();
    let mut req = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        url.path(),
        url.host_str().unwrap(),
        body.len()
    );
    if let Some(s) = secret {
        req += &format!("X-Telegram-Bot-Api-Secret-Token: {s}\r\n");
    }
    req += "\r\n";
    req += &body;
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut resp = Vec::new();
    tcp.read_to_end(&mut resp).await.unwrap();
    let text = String::from_utf8_lossy(&resp);
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let reply = text
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok());
    (code, reply)
}

/// Webhook mode on a free port of 127.0.0.1, and the URL Telegram would post to.
pub fn webhook_mode(secret: Option<&str>) -> (stikis_telegram::Mode, url::Url) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = url::Url::parse(&format!("http://127.0.0.1:{port}/hook")).unwrap();
    let mode = stikis_telegram::Mode::Webhook {
        url: url.clone(),
        listen: ([127, 0, 0, 1], port).into(),
        secret: secret.map(str::to_string),
    };
    (mode, url)
}

/// The tests' PostgreSQL server (STIKIS_TEST_POSTGRES_URL), or None after saying that `what`
/// is skipped without it; a failure instead when STIKIS_REQUIRE_POSTGRES is set (CI sets it).
pub fn postgres_url(what: &str) -> Option<String> {
    match std::env::var("STIKIS_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var_os("STIKIS_REQUIRE_POSTGRES").is_none(),
                "STIKIS_REQUIRE_POSTGRES is set, but STIKIS_TEST_POSTGRES_URL is not: {what} \
                 cannot run (eval \"$(bash .ci/postgres.sh)\")"
            );
            println!(
                "skipped {what}: STIKIS_TEST_POSTGRES_URL is not set (eval \"$(bash .ci/postgres.sh)\")"
            );
            None
        }
    }
}

pub fn user_json(id: i64) -> Value {
    json!({"id": id, "is_bot": false, "first_name": format!("U{id}"), "language_code": "en"})
}

pub fn chat_json(id: i64) -> Value {
    if id < 0 {
        json!({"id": id, "type": "supergroup", "title": "Zole club", "is_forum": true})
    } else {
        json!({"id": id, "type": "private", "first_name": format!("U{id}")})
    }
}

/// Unix milliseconds now.
pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A message's text and its buttons' labels, as one text.
fn shown(text: &str, buttons: &[Vec<(String, String)>]) -> String {
    let mut all = text.to_string();
    for (label, data) in buttons.iter().flatten() {
        all.push('\n');
        all.push_str(label);
        // What the button sends, after a mark no text holds (see `history`).
        all.push_str(" ⌁");
        all.push_str(data);
    }
    all
}

/// Posts an update to the balanced webhook servers, starting at a random one and moving on
/// while they fail, until one answers 200; runs the method in its reply.
async fn deliver_balanced(
    fake: Fake,
    backends: Vec<std::net::SocketAddr>,
    path: String,
    secret: Option<String>,
    update: Value,
    slot: tokio::sync::OwnedSemaphorePermit,
) {
    let route = fake.state.lock().unwrap().route.clone();
    let mut i = route
        .and_then(|r| r(&update))
        .unwrap_or(update["update_id"].as_u64().unwrap_or(0) as usize * 7919);
    loop {
        let at = i % backends.len();
        let addr = backends[at];
        i += 1;
        let posted_ms = unix_ms();
        match try_post(addr, &path, secret.as_deref(), &update, Duration::from_secs(15)).await {
            Ok((200, reply)) => {
                let mut st = fake.state.lock().unwrap();
                st.delivered.push(200);
                if let Some(id) = update["callback_query"]["id"].as_str() {
                    st.received.insert(id.to_string(), (at, posted_ms));
                }
                drop(st);
                if let Some(method) = reply.as_ref().and_then(|r| r["method"].as_str()) {
                    *fake
                        .state
                        .lock()
                        .unwrap()
                        .in_reply
                        .entry(method.to_string())
                        .or_default() += 1;
                    fake.answer(method, reply.clone().unwrap());
                }
                break;
            }
            _ => {
                fake.state.lock().unwrap().redelivered += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    drop(slot);
}

/// One HTTP/1.1 POST of a JSON body, never panicking: the status and the reply's JSON body, or
/// why it failed (refused, reset, timed out).
pub async fn try_post(
    addr: std::net::SocketAddr,
    path: &str,
    secret: Option<&str>,
    body: &Value,
    limit: Duration,
) -> Result<(u16, Option<Value>), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let exchange = async {
        let mut tcp = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| e.to_string())?;
        let body = body.to_string();
        let mut req = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        if let Some(s) = secret {
            req += &format!("X-Telegram-Bot-Api-Secret-Token: {s}\r\n");
        }
        req += "\r\n";
        req += &body;
        tcp.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
        let mut resp = Vec::new();
        tcp.read_to_end(&mut resp).await.map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&resp);
        let code = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| "no HTTP status".to_string())?;
        let reply = text
            .split_once("\r\n\r\n")
            .and_then(|(_, b)| serde_json::from_str(b).ok());
        Ok((code, reply))
    };
    tokio::time::timeout(limit, exchange)
        .await
        .map_err(|_| "timed out".to_string())?
}

fn keyboard(body: &Value) -> Vec<Vec<(String, String)>> {
    body["reply_markup"]["inline_keyboard"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|b| {
                            let data = b["callback_data"].as_str().or(b["url"].as_str()).unwrap_or("");
                            (b["text"].as_str().unwrap_or("").to_string(), data.to_string())
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn message_json(chat: i64, id: i64, text: &str, thread: Option<i64>) -> Value {
    let mut m = json!({
        "message_id": id, "date": 0, "chat": chat_json(chat), "text": text,
        "from": {"id": BOT_ID, "is_bot": true, "first_name": "stikis", "username": BOT_NAME}
    });
    if let Some(t) = thread {
        m["message_thread_id"] = json!(t);
        m["is_topic_message"] = json!(true);
    }
    m
}

/// The value of a multipart/form-data field.
pub fn form_field(raw: &str, name: &str) -> Option<String> {
    let start = raw.find(&format!("name=\"{name}\""))?;
    let rest = &raw[start..];
    let value = &rest[rest.find("\r\n\r\n")? + 4..];
    Some(value[..value.find("\r\n")?].to_string())
}

fn chat_of(body: &Value) -> i64 {
    match &body["chat_id"] {
        Value::Number(n) => n.as_i64().unwrap(),
        Value::String(s) => s.parse().unwrap_or(0),
        _ => 0,
    }
}

async fn handle(
    State(fake): State<Fake>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> (axum::http::StatusCode, Json<Value>) {
    assert!(bot.starts_with("bot"), "{bot}");
    if bot == format!("bot{BAD_TOKEN}") {
        return (
            axum::http::StatusCode::UNAUTHORIZED,
            Json(json!({"ok": false, "error_code": 401, "description": "Unauthorized"})),
        );
    }
    // Telegram's method names are case-insensitive (teloxide sends `GetMe`, `SendMessage`);
    // a name it does not know is 404 Not Found.
    let Some(method) = METHODS
        .iter()
        .find(|m| m.eq_ignore_ascii_case(&method))
        .map(|m| m.to_string())
        .filter(|m| !ephemeral::METHODS.contains(&m.as_str()) || fake.state.lock().unwrap().eph.supported)
    else {
        fake.state.lock().unwrap().calls.push(Call {
            method: method.clone(),
            body: Value::Null,
            at: Instant::now(),
            failed: Some(404),
        });
        return (
            axum::http::StatusCode::NOT_FOUND,
            Json(json!({"ok": false, "error_code": 404, "description": "Not Found"})),
        );
    };
    let json_body = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    let body: Value = if json_body {
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    } else {
        // Multipart (sendDocument): keep the raw text, enough to find the file's content.
        json!({"raw": String::from_utf8_lossy(&body)})
    };
    if let Some(member) = bot.strip_prefix(MEMBER) {
        return fake.member_updates(member, &method, &body);
    }
    let latency = fake.state.lock().unwrap().latency;
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    if method == "getUpdates" {
        return (axum::http::StatusCode::OK, Json(fake.get_updates(&body).await));
    }
    let (code, v) = fake.answer(&method, body);
    (axum::http::StatusCode::from_u16(code).unwrap(), Json(v))
}

fn ok(v: Value) -> (u16, Value) {
    (200, json!({"ok": true, "result": v}))
}

impl Fake {
    pub async fn start() -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (hooks, mut queue) = tokio::sync::mpsc::unbounded_channel::<Value>();
        let fake = Fake {
            state: Arc::default(),
            notify: Arc::default(),
            url: url::Url::parse(&format!("http://{addr}/")).unwrap(),
            hooks,
        };
        let deliverer = fake.clone();
        tokio::spawn(async move {
            // Telegram keeps up to 40 posts in flight by default (setWebhook max_connections).
            let slots = Arc::new(tokio::sync::Semaphore::new(40));
            while let Some(u) = queue.recv().await {
                let balanced = deliverer.state.lock().unwrap().balanced.clone();
                if let Some((backends, path, secret)) = balanced {
                    let slot = Arc::clone(&slots).acquire_owned().await.unwrap();
                    tokio::spawn(deliver_balanced(
                        deliverer.clone(),
                        backends,
                        path,
                        secret,
                        u,
                        slot,
                    ));
                    continue;
                }
                let hook = deliverer.state.lock().unwrap().webhook.clone();
                let Some((url, secret)) = hook else { continue };
                let slot = Arc::clone(&slots).acquire_owned().await.unwrap();
                let fake = deliverer.clone();
                tokio::spawn(async move {
                    let (code, reply) = post_json_reply(&url, secret.as_deref(), &u).await;
                    fake.state.lock().unwrap().delivered.push(code);
                    if let Some(method) = reply.as_ref().and_then(|r| r["method"].as_str()) {
                        *fake
                            .state
                            .lock()
                            .unwrap()
                            .in_reply
                            .entry(method.to_string())
                            .or_default() += 1;
                        fake.answer(method, reply.clone().unwrap());
                    }
                    drop(slot);
                });
            }
        });
        let app = Router::new()
            .route("/{bot}/{method}", any(handle))
            .with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        fake
    }

    async fn get_updates(&self, body: &Value) -> Value {
        let offset = body["offset"].as_i64().unwrap_or(0);
        let hold = if self.state.lock().unwrap().instant_updates {
            Duration::ZERO
        } else {
            Duration::from_millis(300)
        };
        let deadline = Instant::now() + hold;
        loop {
            let notified = self.notify.notified();
            {
                let mut s = self.state.lock().unwrap();
                if !s.quiet {
                    s.calls.push(Call {
                        method: "getUpdates".into(),
                        body: body.clone(),
                        at: Instant::now(),
                        failed: None,
                    });
                }
                while s
                    .updates
                    .front()
                    .is_some_and(|u| u["update_id"].as_i64().unwrap() < offset)
                {
                    s.updates.pop_front();
                }
                if !s.updates.is_empty() || Instant::now() >= deadline {
                    let list: Vec<Value> = s.updates.iter().take(100).cloned().collect();
                    return json!({"ok": true, "result": list});
                }
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), notified).await;
        }
    }

    fn answer(&self, method: &str, body: Value) -> (u16, Value) {
        let mut s = self.state.lock().unwrap();
        let injected = s.inject.get_mut(method).and_then(|q| q.pop_front());
        let chat = chat_of(&body);
        let forbidden = chat > 0 && s.forbidden.contains(&chat) && method.starts_with("send");
        // What Telegram refuses whatever the chat (an injected answer comes instead). A
        // refused call does not count against the group's rate limit.
        let refused = (injected.is_none() && !forbidden)
            .then(|| refusal(method, &body, &s))
            .flatten();
        let limited = match s.group_limit {
            Some((most, window))
                if chat < 0
                    && injected.is_none()
                    && refused.is_none()
                    && counted_by_group_limit(method)
                    && !ephemeral::is_ephemeral(method, &body) =>
            {
                let now = Instant::now();
                let taken = s.group_calls.entry(chat).or_default();
                while taken.front().is_some_and(|t| now.duration_since(*t) >= window) {
                    taken.pop_front();
                }
                if taken.len() >= most {
                    // Whole seconds, as Telegram says them, until the oldest call leaves the
                    // window.
                    let left = window.saturating_sub(now.duration_since(taken[0]));
                    Some(left.as_secs_f64().ceil().max(1.0) as u64)
                } else {
                    taken.push_back(now);
                    None
                }
            }
            _ => None,
        };
        let failed = injected
            .as_ref()
            .map(|(c, _)| *c)
            .or(forbidden.then_some(403))
            .or(refused.map(|_| 400))
            .or(limited.map(|_| 429));
        *s.counts.entry(method.to_string()).or_default() += 1;
        if method == "answerCallbackQuery" {
            let id = body["callback_query_id"].as_str().unwrap_or("").to_string();
            let text = body["text"].as_str().unwrap_or("").to_string();
            // Every try, taken or not.
            s.answer_log.push((id.clone(), text.clone()));
            if failed.is_none() {
                // The one answer the person sees.
                s.answered.insert(id, text);
            }
        }
        if let Some(description) = refused {
            s.refused
                .push((method.to_string(), description.to_string(), body.clone()));
        }
        if !s.quiet {
            s.calls.push(Call {
                method: method.to_string(),
                body: body.clone(),
                at: Instant::now(),
                failed,
            });
        }
        if let Some(r) = injected {
            return r;
        }
        if let Some(secs) = limited {
            return (
                429,
                json!({"ok": false, "error_code": 429,
                       "description": format!("Too Many Requests: retry after {secs}"),
                       "parameters": {"retry_after": secs}}),
            );
        }
        if forbidden {
            return (
                403,
                json!({"ok": false, "error_code": 403, "description": "Forbidden: bot can't initiate conversation with a user"}),
            );
        }
        if let Some(description) = refused {
            return (
                400,
                json!({"ok": false, "error_code": 400, "description": description}),
            );
        }
        if let Some(r) = ephemeral::answer(&mut s, method, &body, chat) {
            return r;
        }
        match method {
            "getMe" => ok(json!({
                "id": BOT_ID, "is_bot": true, "first_name": "stikis", "username": BOT_NAME,
                "can_join_groups": true, "can_read_all_group_messages": false,
                "supports_inline_queries": false, "can_connect_to_business": false,
                "has_main_web_app": false
            })),
            "sendMessage" => {
                s.next_message += 1;
                let id = s.next_message;
                let text = body["text"].as_str().unwrap_or("").to_string();
                let thread = body["message_thread_id"].as_i64();
                let buttons = keyboard(&body);
                s.history.push((chat, id, shown(&text, &buttons), unix_ms()));
                s.tell_members(chat, None, "message", message_json(chat, id, &text, thread));
                s.chats.entry(chat).or_default().push(Msg {
                    id,
                    text: text.clone(),
                    buttons,
                    thread,
                });
                ok(message_json(chat, id, &text, thread))
            }
            "editMessageText" => {
                let id = body["message_id"].as_i64().unwrap_or(0);
                let text = body["text"].as_str().unwrap_or("").to_string();
                let buttons = keyboard(&body);
                let Some(m) = s
                    .chats
                    .get_mut(&chat)
                    .and_then(|c| c.iter_mut().find(|m| m.id == id))
                else {
                    return (
                        400,
                        json!({"ok": false, "error_code": 400, "description": "Bad Request: message to edit not found"}),
                    );
                };
                if m.text == text && m.buttons == buttons {
                    return (
                        400,
                        json!({"ok": false, "error_code": 400, "description": "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"}),
                    );
                }
                m.text = text.clone();
                let thread = m.thread;
                let seen = shown(&text, &buttons);
                m.buttons = buttons;
                s.history.push((chat, id, seen, unix_ms()));
                s.tell_members(
                    chat,
                    None,
                    "edited_message",
                    message_json(chat, id, &text, thread),
                );
                ok(message_json(chat, id, &text, thread))
            }
            "sendDocument" => {
                s.next_message += 1;
                let id = s.next_message;
                ok(message_json(-1, id, "", None))
            }
            "setWebhook" | "deleteWebhook" if s.balanced.is_some() => ok(json!(true)),
            "setWebhook" => {
                // Sent as multipart (it may carry a certificate file).
                let raw = body["raw"].as_str().unwrap_or("");
                let url = url::Url::parse(&form_field(raw, "url").unwrap()).unwrap();
                let secret = form_field(raw, "secret_token");
                s.webhook = Some((url, secret));
                ok(json!(true))
            }
            "deleteWebhook" => {
                s.webhook = None;
                ok(json!(true))
            }
            "getChatMember" => {
                let user = body["user_id"].as_i64().unwrap_or(0);
                if s.admins.contains(&user) {
                    ok(json!({"status": "creator", "user": user_json(user), "is_anonymous": false}))
                } else if s.outsiders.contains(&user) {
                    ok(json!({"status": "left", "user": user_json(user)}))
                } else if s.strangers.contains(&user) {
                    (
                        400,
                        json!({"ok": false, "error_code": 400, "description": "Bad Request: PARTICIPANT_ID_INVALID"}),
                    )
                } else {
                    ok(json!({"status": "member", "user": user_json(user)}))
                }
            }
            "answerCallbackQuery" | "setMyCommands" | "deleteMyCommands" | "setChatMenuButton" => {
                ok(json!(true))
            }
            "editMessageReplyMarkup" | "deleteMessage" => {
                let id = body["message_id"].as_i64().unwrap_or(0);
                let Some(c) = s.chats.get_mut(&chat) else {
                    return (
                        400,
                        json!({"ok": false, "error_code": 400, "description": "Bad Request: chat not found"}),
                    );
                };
                let Some(pos) = c.iter().position(|m| m.id == id) else {
                    let description = if method == "deleteMessage" {
                        "Bad Request: message to delete not found"
                    } else {
                        "Bad Request: message to edit not found"
                    };
                    return (
                        400,
                        json!({"ok": false, "error_code": 400, "description": description}),
                    );
                };
                if method == "deleteMessage" {
                    c.remove(pos);
                    return ok(json!(true));
                }
                let buttons = keyboard(&body);
                let m = &mut c[pos];
                if m.buttons == buttons {
                    return (
                        400,
                        json!({"ok": false, "error_code": 400, "description": "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"}),
                    );
                }
                m.buttons = buttons;
                let (text, thread) = (m.text.clone(), m.thread);
                let seen = shown(&text, &m.buttons);
                s.history.push((chat, id, seen, unix_ms()));
                s.tell_members(
                    chat,
                    None,
                    "edited_message",
                    message_json(chat, id, &text, thread),
                );
                ok(message_json(chat, id, &text, thread))
            }
            "getWebhookInfo" => {
                ok(json!({"url": "", "has_custom_certificate": false, "pending_update_count": 0}))
            }
            other if ephemeral::METHODS.contains(&other) => unreachable!("answered above"),
            other => unreachable!("{other} is in METHODS but not answered"),
        }
    }

    /// A client of group member `user` (their Telegram app, as a test sees it): a teloxide
    /// `Bot` whose `getUpdates` brings every message of the bot in the groups, sent or edited,
    /// and the ephemeral ones sent to `user` alone, as their client receives them.
    pub fn member_client(&self, user: i64) -> teloxide::Bot {
        self.state.lock().unwrap().members.entry(user).or_default();
        teloxide::Bot::new(format!("member{user}")).set_api_url(self.url.clone())
    }

    /// `getUpdates` of a member's client (`member_client`): what it has not taken, from
    /// `offset`; nothing else is answered for it.
    fn member_updates(
        &self,
        member: &str,
        method: &str,
        body: &Value,
    ) -> (axum::http::StatusCode, Json<Value>) {
        let user: i64 = member.parse().expect("a member's id");
        assert!(
            method.eq_ignore_ascii_case("getUpdates"),
            "a member's client calls {method}"
        );
        let offset = body["offset"].as_i64().unwrap_or(0);
        let mut s = self.state.lock().unwrap();
        let (queue, _) = s.members.entry(user).or_default();
        while queue.front().is_some_and(|(id, _)| *id < offset) {
            queue.pop_front();
        }
        let list: Vec<Value> = queue.iter().map(|(_, u)| u.clone()).collect();
        (
            axum::http::StatusCode::OK,
            Json(json!({"ok": true, "result": list})),
        )
    }

    fn push_update(&self, mut u: Value) {
        let mut s = self.state.lock().unwrap();
        s.next_update += 1;
        u["update_id"] = json!(s.next_update);
        if s.webhook.is_some() || s.balanced.is_some() {
            self.hooks.send(u).unwrap();
            return;
        }
        s.updates.push_back(u);
        drop(s);
        self.notify.notify_waiters();
    }

    /// A text message from `user` in `chat` (optionally in a forum topic).
    pub fn say(&self, chat: i64, user: i64, text: &str, thread: Option<i64>) {
        let first = text.split_whitespace().next().unwrap_or("");
        let mut m = json!({
            "message_id": 100000 + self.state.lock().unwrap().next_update, "date": 0,
            "chat": chat_json(chat), "from": user_json(user), "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": first.encode_utf16().count()}]
        });
        if let Some(t) = thread {
            m["message_thread_id"] = json!(t);
            m["is_topic_message"] = json!(true);
        }
        self.push_update(json!({ "message": m }));
    }

    /// A button press by `user` on message `message` of `chat`; returns the callback id.
    pub fn press(&self, chat: i64, message: i64, user: i64, data: &str) -> String {
        let (id, thread) = {
            let mut s = self.state.lock().unwrap();
            s.next_callback += 1;
            let thread = s
                .chats
                .get(&chat)
                .and_then(|c| c.iter().find(|m| m.id == message))
                .and_then(|m| m.thread);
            let id = format!("cq{}", s.next_callback);
            s.issued.insert(id.clone());
            s.eph.pressers.insert(id.clone(), user);
            (id, thread)
        };
        // A message with a date: Telegram sends the pressed message in full (date 0 would
        // mean an inaccessible one), as it looks now, its keyboard included.
        let (text, keys) = {
            let s = self.state.lock().unwrap();
            let m = s
                .chats
                .get(&chat)
                .and_then(|c| c.iter().find(|m| m.id == message));
            (
                m.map_or_else(|| "…".to_string(), |m| m.text.clone()),
                m.map(|m| m.buttons.clone()).unwrap_or_default(),
            )
        };
        let mut pressed = message_json(chat, message, if text.is_empty() { "…" } else { &text }, thread);
        pressed["date"] = json!(1_700_000_000);
        if !keys.is_empty() {
            let rows: Vec<Vec<Value>> = keys
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|(label, data)| {
                            if data.starts_with("http") {
                                json!({"text": label, "url": data})
                            } else {
                                json!({"text": label, "callback_data": data})
                            }
                        })
                        .collect()
                })
                .collect();
            pressed["reply_markup"] = json!({ "inline_keyboard": rows });
        }
        self.push_update(json!({"callback_query": {
            "id": id, "from": user_json(user), "chat_instance": "ci", "data": data,
            "message": pressed
        }}));
        id
    }

    /// The bot's own membership changed to `status` ("left", "kicked", "member").
    pub fn bot_membership(&self, chat: i64, status: &str) {
        self.push_update(json!({"my_chat_member": {
            "chat": chat_json(chat), "from": user_json(1), "date": 0,
            "old_chat_member": {"status": "member", "user": {"id": BOT_ID, "is_bot": true, "first_name": "stikis"}},
            "new_chat_member": {"status": status, "until_date": 0, "user": {"id": BOT_ID, "is_bot": true, "first_name": "stikis"}}
        }}));
    }

    pub fn inject(&self, method: &str, code: u16, response: Value) {
        self.state
            .lock()
            .unwrap()
            .inject
            .entry(method.to_string())
            .or_default()
            .push_back((code, response));
    }

    pub fn calls(&self) -> Vec<Call> {
        self.state.lock().unwrap().calls.clone()
    }

    pub fn is_answered(&self, id: &str) -> bool {
        self.state.lock().unwrap().answered.contains_key(id)
    }

    pub fn messages(&self, chat: i64) -> Vec<Msg> {
        self.state
            .lock()
            .unwrap()
            .chats
            .get(&chat)
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until `f` holds (polling), panicking with `what` after a minute (generous: the
    /// tests run beside others on few cores; nothing here is timed).
    pub async fn until<T>(&self, what: &str, mut f: impl FnMut(&Fake) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(x) = f(self) {
                return x;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Waits until the callback `id` was answered (an answer Telegram took); returns the
    /// answer's body.
    pub async fn answered(&self, id: &str) -> Value {
        self.until(&format!("the answer to {id}"), |f| {
            f.calls()
                .into_iter()
                .find(|c| {
                    c.method == "answerCallbackQuery"
                        && c.body["callback_query_id"] == id
                        && c.failed.is_none()
                })
                .map(|c| c.body)
        })
        .await
    }

    /// Panics if the bot made a call that Telegram refuses whatever the chat (`refused`).
    pub fn assert_nothing_refused(&self) {
        let refused = self.state.lock().unwrap().refused.clone();
        assert!(
            refused.is_empty(),
            "Telegram would have refused {} calls: {refused:#?}",
            refused.len()
        );
    }

    /// Waits until a message `text` answered a command in `chat`.
    pub async fn said(&self, chat: i64, needle: &str) -> Msg {
        self.until(&format!("{needle:?} in {chat}"), |f| {
            f.messages(chat)
                .into_iter()
                .rev()
                .find(|m| m.text.contains(needle))
        })
        .await
    }
}

/// Per (user, message): the message as it looked when its owner pressed it.
pub type Pressed = HashMap<(i64, i64), (String, Vec<Vec<(String, String)>>)>;

pub fn move_button(fake: &Fake, user: i64, pressed: &Pressed) -> Option<(i64, String)> {
    let s = fake.state.lock().unwrap();
    // Their hand: the newest message that is one (a note the bot posted after it, such as a
    // move's outcome settled late, is read and left).
    let m = s
        .chats
        .get(&user)?
        .iter()
        .rev()
        .find(|m| !m.buttons.is_empty() || m.text.starts_with("Your cards"))?;
    if pressed.get(&(user, m.id)) == Some(&(m.text.clone(), m.buttons.clone())) {
        return None;
    }
    // Take the talon where offered (so that every deal is played out), and never press a
    // bury pick twice.
    let moves: Vec<&(String, String)> = m
        .buttons
        .iter()
        .flatten()
        .filter(|(l, d)| {
            !l.starts_with('✓') && stikis_host::token::Token::decode(d).is_ok_and(|t| t.action.contains(':'))
        })
        .collect();
    let take = moves.iter().find(|(_, d)| d.ends_with(".b:take"));
    take.or(moves.first()).map(|(_, d)| (m.id, d.clone()))
}

/// Opens a table in `chat`: `people[0]`, made an admin, sets the turn timer to `turn`
/// (`/settings turn <turn>`) and types `command` (`/zole`, `/zole 4`, …); the others join by
/// the lobby's button, in order; `before_start` runs once the lobby shows them all; then the
/// first presses start. Returns the table id. The e2e and ephemeral-hands tests open their
/// tables with it.
pub async fn open_table(
    fake: &Fake,
    chat: i64,
    people: &[i64],
    command: &str,
    turn: &str,
    before_start: impl FnOnce(&Fake),
) -> i64 {
    let first = people[0];
    fake.state.lock().unwrap().admins.insert(first);
    fake.say(chat, first, &format!("/settings turn {turn}"), None);
    fake.said(chat, "").await;
    fake.say(chat, first, command, None);
    let (msg, join) = fake.until("the lobby", |f| lobby_button(f, chat, "join")).await;
    let table = stikis_host::token::Token::decode(&join).unwrap().table;
    for &u in &people[1..] {
        let id = fake.press(chat, msg, u, &join);
        fake.answered(&id).await;
    }
    // The lobby message (edited in place, possibly coalesced) shows everyone.
    fake.until("everyone in the lobby", |f| {
        let lobby = f.messages(chat).into_iter().find(|m| m.id == msg)?;
        people
            .iter()
            .all(|u| lobby.text.contains(&format!("U{u}")))
            .then_some(())
    })
    .await;
    before_start(fake);
    let (msg, go) = lobby_button(fake, chat, "start").expect("a start button");
    let id = fake.press(chat, msg, first, &go);
    fake.answered(&id).await;
    table
}

pub fn lobby_button(fake: &Fake, chat: i64, action: &str) -> Option<(i64, String)> {
    let s = fake.state.lock().unwrap();
    s.chats.get(&chat)?.iter().rev().find_map(|m| {
        m.buttons
            .iter()
            .flatten()
            .find(|(_, d)| stikis_host::token::Token::decode(d).is_ok_and(|t| t.action == action))
            .map(|(_, d)| (m.id, d.clone()))
    })
}

/// People play as people do until `done` holds: whoever has a move's button presses it
/// (never again on a message that still looks as it did when they pressed it: `Pressed`),
/// with `pause` after each press. Returns the answers to the presses, in order; panics after
/// `most` presses.
pub async fn play_until(
    fake: &Fake,
    people: &[i64],
    done: impl Fn(&Fake) -> bool,
    pause: Duration,
    most: usize,
) -> Vec<Value> {
    let mut pressed = Pressed::new();
    let mut answers = Vec::new();
    loop {
        let next = fake
            .until("someone to act, or the end", |f| {
                if done(f) {
                    return Some(None);
                }
                people
                    .iter()
                    .find_map(|&u| move_button(f, u, &pressed).map(|b| Some((u, b))))
            })
            .await;
        let Some((user, (msg, data))) = next else {
            return answers;
        };
        let before = fake.messages(user).into_iter().find(|m| m.id == msg).unwrap();
        pressed.insert((user, msg), (before.text, before.buttons));
        let id = fake.press(user, msg, user, &data);
        answers.push(fake.answered(&id).await);
        assert!(answers.len() < most, "not done in {most} presses");
        tokio::time::sleep(pause).await;
    }
}

// The bot's web face, as a browser reaches it (plain HTTP/1.1).

/// A plain HTTP/1.1 request to the bot's web face: its status and body.
pub async fn http(web: std::net::SocketAddr, method: &str, path: &str, form: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(web).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {web}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        form.len()
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut resp = Vec::new();
    tcp.read_to_end(&mut resp).await.unwrap();
    let text = String::from_utf8_lossy(&resp).to_string();
    let code = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (code, body)
}

/// Opens table `table`'s live-page feed for `user` (plain HTTP/1.1 on the bot's web face) and
/// reads it until its first view: from then on the person's seat is followed. The feed is
/// read on until the returned task is aborted, which closes the connection as a page closed.
pub async fn open_feed(web: std::net::SocketAddr, table: i64, user: i64) -> tokio::task::JoinHandle<()> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let secret = stikis_host::links::play_secret("123:TEST");
    let key = stikis_host::links::play_key(&secret, table, &user.to_string(), unix_ms() / 1000 + 3600);
    let mut tcp = tokio::net::TcpStream::connect(web).await.unwrap();
    let req = format!(
        "GET /play/{}/events?k={key} HTTP/1.1\r\nHost: {web}\r\nAccept: text/event-stream\r\n\r\n",
        stikis_host::links::table_ref(&secret, table)
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 8192];
    while !String::from_utf8_lossy(&seen).contains("event: view") {
        let n = tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut buf))
            .await
            .expect("the feed's first view")
            .unwrap();
        assert!(n > 0, "the feed closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
    tokio::spawn(async move { while tcp.read(&mut buf).await.is_ok_and(|n| n > 0) {} })
}

/// A tap on the live page: `POST /play/<table>/press` with the person's key and the token.
pub async fn page_press(web: std::net::SocketAddr, table: i64, user: &str, token: &str) -> (u16, String) {
    let secret = stikis_host::links::play_secret("123:TEST");
    let key = stikis_host::links::play_key(&secret, table, user, unix_ms() / 1000 + 3600);
    let body = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("k", &key)
        .append_pair("token", token)
        .finish();
    let path = format!("/play/{}/press", stikis_host::links::table_ref(&secret, table));
    http(web, "POST", &path, &body).await
}
