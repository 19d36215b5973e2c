//! Telegram's ephemeral messages (Bot API 10.2, with 10.3's `EphemeralMessageParameters` and
//! disabled inline buttons), which teloxide 0.17 does not know: a bot message in a group that
//! one member alone sees. A thin typed layer, not a second client: serde types for the calls
//! and for what Telegram answers, sent with teloxide's own HTTP client, API URL and token
//! (`Bot::client`, `Bot::api_url`, `Bot::token`), with the retries of `show::call` (a 429's
//! `retry_after` waited out, a network error retried where sending twice does no harm).
//!
//! - `sendMessage` with `ephemeral_message_parameters` {`receiver_user_id`, `callback_query_id`,
//!   `replace_callback_query_message`} posts one, answering a `Message` that carries
//!   `ephemeral_message_id` and `receiver_user`;
//! - `editEphemeralMessageText`, `editEphemeralMessageReplyMarkup` and `deleteEphemeralMessage`
//!   name it by `chat_id`, `receiver_user_id` and `ephemeral_message_id` (ids are per receiver);
//! - a press on one of its buttons is a `callback_query` whose `message` carries
//!   `receiver_user` and `ephemeral_message_id` instead of a `message_id`
//!   (`EphemeralCallback::of_update`).
//!
//! Telegram documents no limit for ephemeral messages, so every 429's `retry_after` is obeyed
//! for the whole group, not only the call it answered: `Hold` remembers, per chat, until when
//! ephemeral calls wait, and every call to that chat waits it out before it goes (rather than
//! each call in flight meeting its own 429).
//!
//! An older Bot API server (a self-hosted one) answers the methods 404 "Not Found", and
//! ignores `ephemeral_message_parameters` of a `sendMessage` it does not know: it would post a
//! hand for everyone to see. So whether the server has them is asked first with a call that
//! changes nothing (`probe`: deleting ephemeral message 0), never by sending.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The method `probe` calls.
pub const PROBE: &str = "deleteEphemeralMessage";

/// 10.3: how a `sendMessage` becomes ephemeral.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EphemeralMessageParameters {
    /// The one member of the chat who sees the message.
    pub receiver_user_id: i64,
    /// Ties the message to a press of that person's (it answers that callback query).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub callback_query_id: Option<String>,
    /// With `callback_query_id`: the message replaces the pressed one (for its receiver).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub replace_callback_query_message: Option<bool>,
}

/// An inline button: a callback or a URL; since 10.3 it may be shown disabled (not pressable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub callback_data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub url: Option<String>,
    /// 10.3: shown greyed out; a press on it sends nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub disabled: bool,
}

impl Button {
    pub fn callback(text: impl Into<String>, data: impl Into<String>) -> Button {
        Button {
            text: text.into(),
            callback_data: Some(data.into()),
            url: None,
            disabled: false,
        }
    }

    pub fn url(text: impl Into<String>, url: impl Into<String>) -> Button {
        Button {
            text: text.into(),
            callback_data: None,
            url: Some(url.into()),
            disabled: false,
        }
    }

    /// A button shown but not pressable (10.3).
    pub fn disabled(text: impl Into<String>, data: impl Into<String>) -> Button {
        Button {
            disabled: true,
            ..Button::callback(text, data)
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InlineKeyboard {
    pub inline_keyboard: Vec<Vec<Button>>,
}

/// `sendMessage` of an ephemeral message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SendEphemeral {
    pub chat_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_thread_id: Option<i32>,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_markup: Option<InlineKeyboard>,
    pub ephemeral_message_parameters: EphemeralMessageParameters,
}

/// `editEphemeralMessageText`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditEphemeralText {
    pub chat_id: i64,
    pub receiver_user_id: i64,
    pub ephemeral_message_id: i64,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_markup: Option<InlineKeyboard>,
}

/// `editEphemeralMessageReplyMarkup`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditEphemeralMarkup {
    pub chat_id: i64,
    pub receiver_user_id: i64,
    pub ephemeral_message_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_markup: Option<InlineKeyboard>,
}

/// `deleteEphemeralMessage`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeleteEphemeral {
    pub chat_id: i64,
    pub receiver_user_id: i64,
    pub ephemeral_message_id: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Chat {
    pub id: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct User {
    pub id: i64,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub language_code: Option<String>,
}

/// An ephemeral message as Telegram answers it (and sends it with a press).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct EphemeralMessage {
    pub ephemeral_message_id: i64,
    pub receiver_user: User,
    pub chat: Chat,
    #[serde(default)]
    pub message_thread_id: Option<i32>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub reply_markup: Option<InlineKeyboard>,
}

/// A press on a button of an ephemeral message.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct EphemeralCallback {
    pub id: String,
    pub from: User,
    pub message: EphemeralMessage,
    #[serde(default)]
    pub data: Option<String>,
}

impl EphemeralCallback {
    /// The press an update (as JSON) is, if it is one on an ephemeral message. teloxide cannot
    /// read such an update (its message has no `message_id`) and hands it over as
    /// `UpdateKind::Error` with its JSON.
    pub fn of_update(update: &Value) -> Option<EphemeralCallback> {
        let q = update.get("callback_query")?;
        q.get("message")?.get("ephemeral_message_id")?;
        serde_json::from_value(q.clone()).ok()
    }

    /// The label of the button that sent this press's data, as the message shows it.
    pub fn pressed_label(&self) -> Option<String> {
        let data = self.data.as_deref()?;
        self.message
            .reply_markup
            .as_ref()?
            .inline_keyboard
            .iter()
            .flatten()
            .find(|b| b.callback_data.as_deref() == Some(data))
            .map(|b| b.text.clone())
    }
}

/// A press on an ephemeral message as an update teloxide reads: a callback query on an
/// ordinary message of that chat, its ephemeral id in place of a message id (the press is
/// then handled as one on the same buttons of a group message). None if `update` (JSON) is
/// not such a press.
pub fn as_callback(update: &Value) -> Option<teloxide::types::Update> {
    let q = EphemeralCallback::of_update(update)?;
    let raw = &update["callback_query"];
    let m = &raw["message"];
    let mut msg = serde_json::json!({
        "message_id": q.message.ephemeral_message_id,
        // A date of 0 would read as an inaccessible message.
        "date": m["date"].as_i64().filter(|d| *d != 0).unwrap_or(1),
        "chat": m["chat"],
        "text": m["text"].as_str().unwrap_or(""),
    });
    if let Some(t) = q.message.message_thread_id {
        msg["message_thread_id"] = serde_json::json!(t);
        msg["is_topic_message"] = serde_json::json!(true);
    }
    if let Some(k) = m.get("reply_markup") {
        msg["reply_markup"] = k.clone();
    }
    let mut u = update.clone();
    u["callback_query"]["message"] = msg;
    // From text: teloxide's reading of an update's kind borrows its keys, which a `Value`
    // cannot lend.
    match serde_json::from_str::<teloxide::types::Update>(&u.to_string()) {
        Ok(u) if matches!(u.kind, teloxide::types::UpdateKind::CallbackQuery(_)) => Some(u),
        Ok(u) => {
            tracing::warn!(update = ?u.kind, "a press on an ephemeral message could not be read");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "a press on an ephemeral message could not be read");
            None
        }
    }
}

/// `update` as teloxide can handle it: one it could not read that is a press on an ephemeral
/// message (its JSON kept in `UpdateKind::Error`) as that press (`as_callback`).
pub fn readable(update: teloxide::types::Update) -> teloxide::types::Update {
    match &update.kind {
        teloxide::types::UpdateKind::Error(v) => as_callback(v).unwrap_or(update),
        _ => update,
    }
}

/// The answer of the Bot API to any method.
#[derive(Debug, Deserialize)]
struct Answer<T> {
    ok: bool,
    result: Option<T>,
    description: Option<String>,
    error_code: Option<u16>,
    parameters: Option<Parameters>,
}

#[derive(Debug, Deserialize)]
struct Parameters {
    retry_after: Option<u64>,
}

/// Why an ephemeral call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The server does not know the method: a Bot API older than 10.2 (404 Not Found).
    #[error("the Bot API server does not know {0} (older than Bot API 10.2)")]
    UnknownMethod(&'static str),
    /// Telegram refused the call (400, 403): its error code and description.
    #[error("{code}: {description}")]
    Refused { code: u16, description: String },
    /// Telegram kept asking to wait (429) after the retries.
    #[error("429: retry after {0} s")]
    RetryAfter(u64),
    /// The call did not reach Telegram, or its answer could not be read.
    #[error("network: {0}")]
    Network(String),
}

impl Error {
    /// "message is not modified": the message shows this content already.
    pub fn not_modified(&self) -> bool {
        matches!(self, Error::Refused { description, .. } if description.contains("message is not modified"))
    }

    /// The message is not there (any more): "message to edit not found" and the like.
    pub fn not_found(&self) -> bool {
        matches!(self, Error::Refused { code: 400, description } if description.contains("not found"))
    }

    pub fn status(&self) -> &'static str {
        match self {
            Error::UnknownMethod(_) => "unknown",
            Error::Refused { .. } => "api",
            Error::RetryAfter(_) => "429",
            Error::Network(_) => "network",
        }
    }
}

/// Reads a Bot API answer: its result, or why not (a 429 as `Error::RetryAfter`).
fn read<T: serde::de::DeserializeOwned>(method: &'static str, status: u16, body: &[u8]) -> Result<T, Error> {
    let answer: Answer<T> = match serde_json::from_slice(body) {
        Ok(a) => a,
        Err(_) if status == 404 => return Err(Error::UnknownMethod(method)),
        Err(e) => return Err(Error::Network(format!("an unreadable answer ({status}): {e}"))),
    };
    if answer.ok {
        return answer
            .result
            .ok_or_else(|| Error::Network("an answer with no result".into()));
    }
    let code = answer.error_code.unwrap_or(status);
    if code == 404 {
        return Err(Error::UnknownMethod(method));
    }
    if let Some(secs) = answer.parameters.and_then(|p| p.retry_after) {
        return Err(Error::RetryAfter(secs));
    }
    Err(Error::Refused {
        code,
        description: answer.description.unwrap_or_default(),
    })
}

/// Until when ephemeral calls to each chat wait: a 429 for one holds them all back.
#[derive(Debug, Default)]
pub struct Hold {
    until: Mutex<HashMap<i64, Instant>>,
}

impl Hold {
    /// When ephemeral calls to `chat` may go again (None: now).
    pub fn until(&self, chat: i64) -> Option<Instant> {
        let mut until = self.until.lock().expect("hold");
        match until.get(&chat) {
            Some(t) if *t > Instant::now() => Some(*t),
            Some(_) => {
                until.remove(&chat);
                None
            }
            None => None,
        }
    }

    /// Telegram answered a call to `chat` 429 with `retry_after`: nothing goes there before.
    pub fn hold(&self, chat: i64, retry_after: Duration) {
        let t = Instant::now() + retry_after;
        let mut until = self.until.lock().expect("hold");
        let e = until.entry(chat).or_insert(t);
        *e = (*e).max(t);
    }

    /// Waits until ephemeral calls to `chat` may go.
    pub async fn wait(&self, chat: i64) {
        while let Some(t) = self.until(chat) {
            tokio::time::sleep_until(t).await;
        }
    }
}

/// Calls Bot API method `method` with `payload` through `bot`'s client, URL and token,
/// waiting out 429s and retrying network errors as `show::call` does (a new message only if
/// it never reached Telegram). It goes only once `hold` lets calls to `chat` go, and a 429
/// holds back every call to `chat` for its `retry_after`.
pub async fn call<P: Serialize, T: serde::de::DeserializeOwned>(
    bot: &teloxide::Bot,
    hold: &Hold,
    chat: i64,
    method: &'static str,
    payload: &P,
) -> Result<T, Error> {
    let body = serde_json::to_vec(payload).map_err(|e| Error::Network(e.to_string()))?;
    let mut url = bot.api_url();
    url.path_segments_mut()
        .map_err(|_| Error::Network("the API URL cannot take a path".into()))?
        .push(&format!("bot{}", bot.token()))
        .push(method);
    let resend = method != "sendMessage";
    let mut tries = 0;
    loop {
        hold.wait(chat).await;
        let sent = bot
            .client()
            .post(url.clone())
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await;
        let answer = match sent {
            Ok(resp) => {
                let status = resp.status().as_u16();
                match resp.bytes().await {
                    Ok(b) => read::<T>(method, status, &b),
                    Err(e) => Err(Error::Network(e.to_string())),
                }
            }
            Err(e) if e.is_connect() || resend => Err(Error::Network(e.to_string())),
            // It may have reached Telegram: a message sent twice is shown twice.
            Err(e) => return Err(Error::Network(e.to_string())),
        };
        let status = match &answer {
            Ok(_) => "ok",
            Err(e) => e.status(),
        };
        stikis_host::observe::platform_call("telegram", method, status);
        match answer {
            Err(Error::RetryAfter(s)) if tries < 5 => {
                tracing::info!(secs = s, method, "Telegram asks to retry later");
                let wait = Duration::from_secs(s.max(1));
                stikis_host::observe::platform_retry("telegram", wait);
                // Waited out at the loop's start, by this call and every other to `chat`.
                hold.hold(chat, wait);
            }
            Err(Error::Network(e)) if tries < 3 => {
                tracing::warn!(error = %e, method, "network error, retrying");
                let wait = Duration::from_millis(200 << tries);
                stikis_host::observe::platform_retry("telegram", wait);
                tokio::time::sleep(wait).await;
            }
            r => return r,
        }
        tries += 1;
    }
}

/// Sends an ephemeral message.
pub async fn send(bot: &teloxide::Bot, hold: &Hold, m: &SendEphemeral) -> Result<EphemeralMessage, Error> {
    call(bot, hold, m.chat_id, "sendMessage", m).await
}

/// Edits an ephemeral message's text (and keyboard).
pub async fn edit_text(bot: &teloxide::Bot, hold: &Hold, m: &EditEphemeralText) -> Result<Value, Error> {
    call(bot, hold, m.chat_id, "editEphemeralMessageText", m).await
}

/// Edits an ephemeral message's keyboard.
pub async fn edit_markup(bot: &teloxide::Bot, hold: &Hold, m: &EditEphemeralMarkup) -> Result<Value, Error> {
    call(bot, hold, m.chat_id, "editEphemeralMessageReplyMarkup", m).await
}

/// Deletes an ephemeral message.
pub async fn delete(bot: &teloxide::Bot, hold: &Hold, m: &DeleteEphemeral) -> Result<Value, Error> {
    call(bot, hold, m.chat_id, "deleteEphemeralMessage", m).await
}

/// Whether the server has ephemeral messages: deletes ephemeral message 0 of `receiver` in
/// `chat` (there is none: Telegram says so, 400), which an older server answers as an unknown
/// method. None: it could not say (the network).
pub async fn probe(bot: &teloxide::Bot, hold: &Hold, chat: i64, receiver: i64) -> Option<bool> {
    let m = DeleteEphemeral {
        chat_id: chat,
        receiver_user_id: receiver,
        ephemeral_message_id: 0,
    };
    match delete(bot, hold, &m).await {
        Err(Error::UnknownMethod(_)) => Some(false),
        Ok(_) | Err(Error::Refused { .. }) => Some(true),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_send_carries_the_ephemeral_parameters_as_the_bot_api_spells_them() {
        let m = SendEphemeral {
            chat_id: -100,
            message_thread_id: Some(7),
            text: "Your hand".into(),
            reply_markup: Some(InlineKeyboard {
                inline_keyboard: vec![vec![
                    Button::callback("9♣", "s1.2.p:9C"),
                    Button::disabled("K♠", "s1.2.x"),
                    Button::url("🔗", "https://t.me/x"),
                ]],
            }),
            ephemeral_message_parameters: EphemeralMessageParameters {
                receiver_user_id: 11,
                callback_query_id: None,
                replace_callback_query_message: None,
            },
        };
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            json!({
                "chat_id": -100, "message_thread_id": 7, "text": "Your hand",
                "reply_markup": {"inline_keyboard": [[
                    {"text": "9♣", "callback_data": "s1.2.p:9C"},
                    {"text": "K♠", "callback_data": "s1.2.x", "disabled": true},
                    {"text": "🔗", "url": "https://t.me/x"}
                ]]},
                "ephemeral_message_parameters": {"receiver_user_id": 11}
            })
        );
        let tied = EphemeralMessageParameters {
            receiver_user_id: 11,
            callback_query_id: Some("cq7".into()),
            replace_callback_query_message: Some(false),
        };
        assert_eq!(
            serde_json::to_value(&tied).unwrap(),
            json!({"receiver_user_id": 11, "callback_query_id": "cq7", "replace_callback_query_message": false})
        );
    }

    #[test]
    fn edits_and_deletes_name_the_message_by_chat_receiver_and_ephemeral_id() {
        let e = EditEphemeralText {
            chat_id: -100,
            receiver_user_id: 11,
            ephemeral_message_id: 3,
            text: "t".into(),
            reply_markup: None,
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"chat_id": -100, "receiver_user_id": 11, "ephemeral_message_id": 3, "text": "t"})
        );
        let m = EditEphemeralMarkup {
            chat_id: -100,
            receiver_user_id: 11,
            ephemeral_message_id: 3,
            reply_markup: Some(InlineKeyboard::default()),
        };
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            json!({"chat_id": -100, "receiver_user_id": 11, "ephemeral_message_id": 3,
                   "reply_markup": {"inline_keyboard": []}})
        );
        let d = DeleteEphemeral {
            chat_id: -100,
            receiver_user_id: 11,
            ephemeral_message_id: 3,
        };
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            json!({"chat_id": -100, "receiver_user_id": 11, "ephemeral_message_id": 3})
        );
    }

    #[test]
    fn answers_are_read_as_the_bot_api_gives_them() {
        let sent = br#"{"ok":true,"result":{"ephemeral_message_id":5,"date":1,
            "chat":{"id":-100,"type":"supergroup"},"receiver_user":{"id":11,"is_bot":false,
            "first_name":"A"},"message_thread_id":7,"text":"x"}}"#;
        let m: EphemeralMessage = read("sendMessage", 200, sent).unwrap();
        assert_eq!(
            (m.ephemeral_message_id, m.receiver_user.id, m.chat.id),
            (5, 11, -100)
        );
        assert_eq!(m.message_thread_id, Some(7));
        let not_modified = br#"{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: specified new message content and reply markup are exactly the same"}"#;
        let e = read::<Value>("editEphemeralMessageText", 400, not_modified).unwrap_err();
        assert!(e.not_modified() && !e.not_found(), "{e:?}");
        let gone = br#"{"ok":false,"error_code":400,"description":"Bad Request: message to edit not found"}"#;
        assert!(read::<Value>("editEphemeralMessageText", 400, gone)
            .unwrap_err()
            .not_found());
        let wait = br#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}"#;
        assert_eq!(
            read::<Value>("sendMessage", 429, wait).unwrap_err(),
            Error::RetryAfter(3)
        );
        let unknown = br#"{"ok":false,"error_code":404,"description":"Not Found"}"#;
        assert_eq!(
            read::<Value>(PROBE, 404, unknown).unwrap_err(),
            Error::UnknownMethod(PROBE)
        );
        // A proxy's HTML 404 is an unknown method too.
        assert_eq!(
            read::<Value>(PROBE, 404, b"<html>404</html>").unwrap_err(),
            Error::UnknownMethod(PROBE)
        );
    }

    #[test]
    fn a_press_on_an_ephemeral_message_is_read_from_the_update_teloxide_could_not() {
        let update = json!({"update_id": 9, "callback_query": {
            "id": "cq1", "chat_instance": "ci", "data": "s1.2.p:9C",
            "from": {"id": 11, "is_bot": false, "first_name": "A", "language_code": "lv"},
            "message": {"ephemeral_message_id": 4, "date": 1,
                "chat": {"id": -100, "type": "supergroup"},
                "receiver_user": {"id": 11, "is_bot": false, "first_name": "A"},
                "message_thread_id": 7, "text": "hand",
                "reply_markup": {"inline_keyboard": [[{"text": "9♣", "callback_data": "s1.2.p:9C"}]]}}
        }});
        // teloxide does not read it as a callback query.
        let parsed: teloxide::types::Update = serde_json::from_value(update.clone()).unwrap();
        assert!(!matches!(
            parsed.kind,
            teloxide::types::UpdateKind::CallbackQuery(_)
        ));
        let q = EphemeralCallback::of_update(&update).unwrap();
        assert_eq!(q.id, "cq1");
        assert_eq!(q.from.id, 11);
        assert_eq!(q.message.receiver_user.id, 11);
        assert_eq!(q.message.ephemeral_message_id, 4);
        assert_eq!(q.message.message_thread_id, Some(7));
        assert_eq!(q.pressed_label().as_deref(), Some("9♣"));
        // Read as a press on the group's message numbered as the ephemeral one (long
        // polling's teloxide keeps the JSON of an update it cannot read; `readable`).
        let u = as_callback(&update).expect("read as a press");
        let teloxide::types::UpdateKind::CallbackQuery(cq) = u.kind else {
            panic!("not a press: {u:?}")
        };
        assert_eq!(cq.id.0, "cq1");
        assert_eq!(cq.from.id.0, 11);
        assert_eq!(cq.data.as_deref(), Some("s1.2.p:9C"));
        let m = cq.regular_message().unwrap();
        assert_eq!((m.chat.id.0, m.id.0), (-100, 4));
        assert_eq!(m.thread_id.map(|t| t.0 .0), Some(7));
        assert!(m.reply_markup().is_some());
        // A press on an ordinary message is not one.
        let plain = json!({"update_id": 9, "callback_query": {"id": "cq2",
            "from": {"id": 11, "is_bot": false, "first_name": "A"},
            "message": {"message_id": 4, "date": 1, "chat": {"id": -100, "type": "supergroup"}}}});
        assert!(EphemeralCallback::of_update(&plain).is_none());
    }
}
