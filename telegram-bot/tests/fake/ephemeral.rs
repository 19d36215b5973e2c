//! The fake's ephemeral messages (Bot API 10.2 and 10.3), modelled strictly: a message in a
//! group that its receiver alone sees (`visible_to`; the group's messages, `Fake::messages`,
//! never hold one), ids counted per receiver, edits and deletes of a message that is not
//! there refused (400), an unchanged edit refused ("message is not modified"), a receiver who
//! is not in the chat refused (400 PARTICIPANT_ID_INVALID), a send tied to a press
//! (`callback_query_id`) taken as that press's answer (another answer is then refused), a
//! disabled button (10.3) not pressable, and a person who is `offline` never getting one sent
//! untied (Telegram does not promise delivery; the server keeps it, edits succeed).
//!
//! With `supported` false the fake is a Bot API server older than 10.2: the three ephemeral
//! methods are unknown (404 Not Found), and a `sendMessage` with `ephemeral_message_parameters`
//! is posted for everyone as such a server would (ignoring the field), which is kept in
//! `refused` as the leak it is.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{chat_json, unix_ms, user_json, FakeState, QUERY_TOO_OLD};

/// The ephemeral methods besides `sendMessage`.
pub const METHODS: &[&str] = &[
    "editEphemeralMessageText",
    "editEphemeralMessageReplyMarkup",
    "deleteEphemeralMessage",
];

pub const NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
pub const NOT_A_MEMBER: &str = "Bad Request: PARTICIPANT_ID_INVALID";
/// What an older server did with an ephemeral `sendMessage` (kept in `refused`).
pub const LEAKED: &str = "an older Bot API server ignored ephemeral_message_parameters: posted for everyone";

/// One button of an ephemeral message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EphButton {
    pub label: String,
    /// Its callback data or URL.
    pub data: String,
    pub disabled: bool,
}

#[derive(Debug, Clone)]
pub struct Eph {
    pub chat: i64,
    pub receiver: i64,
    pub id: i64,
    pub thread: Option<i64>,
    pub text: String,
    pub buttons: Vec<Vec<EphButton>>,
    /// Whether its receiver's client got it (false: they were offline when it was sent).
    pub delivered: bool,
    /// The press it answered, if it was sent tied to one.
    pub callback: Option<String>,
}

impl Eph {
    /// Its buttons that can be pressed.
    pub fn pressable(&self) -> Vec<&EphButton> {
        self.buttons.iter().flatten().filter(|b| !b.disabled).collect()
    }

    /// A move its receiver can make with it (a bid, a bury pick, a card), as the tests' players
    /// make them: the talon taken where offered, so deals are played out, else the first. A
    /// picked card (✓) is a pick taken back: never chosen, so a burial goes on.
    pub fn a_move(&self) -> Option<&EphButton> {
        use stikis_host::token::Token;
        let moves: Vec<&EphButton> = self
            .pressable()
            .into_iter()
            .filter(|b| {
                !b.label.starts_with('✓') && Token::decode(&b.data).is_ok_and(|t| t.action.contains(':'))
            })
            .collect();
        let take = moves
            .iter()
            .find(|b| Token::decode(&b.data).is_ok_and(|t| t.action == "b:take"));
        take.or(moves.first()).copied()
    }
}

#[derive(Default)]
pub struct Ephemerals {
    /// Whether the server has ephemeral messages (Bot API 10.2); false: an older server.
    pub supported: bool,
    /// Every ephemeral message the server keeps, in the order sent.
    pub all: Vec<Eph>,
    next: HashMap<i64, i64>,
    /// People whose client is offline: an untied ephemeral message sent to them never
    /// arrives.
    pub offline: HashSet<i64>,
    /// Who pressed each callback query the fake issued.
    pub pressers: HashMap<String, i64>,
    /// Every state an ephemeral message showed its receiver: (receiver, id, text and a line per
    /// button as `Fake::history` writes them, Unix ms).
    pub history: Vec<(i64, i64, String, i64)>,
    /// A limit on ephemeral calls per group (none is documented; off unless a test sets it):
    /// at most this many in any such window, else 429 with `retry_after`.
    pub limit: Option<(usize, Duration)>,
    /// Every 429 `limit` answered: (chat, when, retry_after in seconds).
    pub limited: Vec<(i64, Instant, u64)>,
    taken: HashMap<i64, VecDeque<Instant>>,
}

fn buttons_of(body: &Value) -> Vec<Vec<EphButton>> {
    body["reply_markup"]["inline_keyboard"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    r.as_array()
                        .into_iter()
                        .flatten()
                        .map(|b| EphButton {
                            label: b["text"].as_str().unwrap_or("").to_string(),
                            data: b["callback_data"]
                                .as_str()
                                .or(b["url"].as_str())
                                .unwrap_or("")
                                .to_string(),
                            disabled: b["disabled"].as_bool().unwrap_or(false),
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn keyboard_json(buttons: &[Vec<EphButton>]) -> Value {
    let rows: Vec<Vec<Value>> = buttons
        .iter()
        .map(|row| {
            row.iter()
                .map(|b| {
                    let mut j = if b.data.starts_with("http") {
                        json!({"text": b.label, "url": b.data})
                    } else {
                        json!({"text": b.label, "callback_data": b.data})
                    };
                    if b.disabled {
                        j["disabled"] = json!(true);
                    }
                    j
                })
                .collect()
        })
        .collect();
    json!({ "inline_keyboard": rows })
}

/// Its text and a line per button (`⌁` its data, `⊘` when disabled), as `history` keeps it.
fn shown(text: &str, buttons: &[Vec<EphButton>]) -> String {
    let mut all = text.to_string();
    for b in buttons.iter().flatten() {
        all.push('\n');
        all.push_str(&b.label);
        all.push_str(if b.disabled { " ⊘" } else { " ⌁" });
        all.push_str(&b.data);
    }
    all
}

fn message_json(e: &Eph) -> Value {
    let mut m = json!({
        "ephemeral_message_id": e.id, "date": 1_700_000_000,
        "chat": chat_json(e.chat), "receiver_user": user_json(e.receiver), "text": e.text,
        "from": {"id": super::BOT_ID, "is_bot": true, "first_name": "stikis", "username": super::BOT_NAME}
    });
    if let Some(t) = e.thread {
        m["message_thread_id"] = json!(t);
    }
    if e.buttons.iter().any(|r| !r.is_empty()) {
        m["reply_markup"] = keyboard_json(&e.buttons);
    }
    m
}

fn bad(description: &str) -> (u16, Value) {
    (
        400,
        json!({"ok": false, "error_code": 400, "description": description}),
    )
}

/// Whether a call is an ephemeral one (which the group's limit on messages does not count).
pub fn is_ephemeral(method: &str, body: &Value) -> bool {
    METHODS.contains(&method)
        || (method == "sendMessage" && body.get("ephemeral_message_parameters").is_some())
}

/// The answer to an ephemeral call, if `method` with `body` is one and the server has them
/// (an older server's `sendMessage` is posted publicly by the caller, and recorded as a leak
/// here). Called after the fake's checks of any call (texts, button data, injected errors).
pub fn answer(s: &mut FakeState, method: &str, body: &Value, chat: i64) -> Option<(u16, Value)> {
    if !is_ephemeral(method, body) {
        return None;
    }
    if !s.eph.supported {
        // Only sendMessage gets here (the others were answered 404 already).
        s.refused
            .push((method.to_string(), LEAKED.to_string(), body.clone()));
        return None;
    }
    if let Some((most, window)) = s.eph.limit {
        let now = Instant::now();
        let taken = s.eph.taken.entry(chat).or_default();
        while taken.front().is_some_and(|t| now.duration_since(*t) >= window) {
            taken.pop_front();
        }
        if taken.len() >= most {
            let left = window.saturating_sub(now.duration_since(taken[0]));
            let secs = left.as_secs_f64().ceil().max(1.0) as u64;
            let quiet = s.quiet;
            if let Some(c) = s.calls.last_mut().filter(|_| !quiet) {
                c.failed = Some(429);
            }
            s.eph.limited.push((chat, now, secs));
            return Some((
                429,
                json!({"ok": false, "error_code": 429,
                       "description": format!("Too Many Requests: retry after {secs}"),
                       "parameters": {"retry_after": secs}}),
            ));
        }
        taken.push_back(now);
    }
    let receiver = body["receiver_user_id"]
        .as_i64()
        .or(body["ephemeral_message_parameters"]["receiver_user_id"].as_i64())
        .unwrap_or(0);
    let refuse = |s: &mut FakeState, d: &str| {
        let quiet = s.quiet;
        if let Some(c) = s.calls.last_mut().filter(|_| !quiet) {
            c.failed = Some(400);
        }
        Some(bad(d))
    };
    if chat >= 0 {
        return refuse(s, "Bad Request: ephemeral messages can be sent to groups only");
    }
    if receiver <= 0 || s.outsiders.contains(&receiver) || s.strangers.contains(&receiver) {
        return refuse(s, NOT_A_MEMBER);
    }
    let text = body["text"].as_str().unwrap_or("").to_string();
    let buttons = buttons_of(body);
    if method == "sendMessage" {
        let params = &body["ephemeral_message_parameters"];
        let callback = params["callback_query_id"].as_str().map(str::to_string);
        if let Some(cq) = &callback {
            // Tied to a press: that press's receiver's, not yet answered; it is its answer.
            let by = s.eph.pressers.get(cq).copied();
            if !s.issued.contains(cq) || s.answered.contains_key(cq) || by != Some(receiver) {
                return refuse(s, QUERY_TOO_OLD);
            }
            s.answered.insert(cq.clone(), text.clone());
        }
        let next = s.eph.next.entry(receiver).or_default();
        *next += 1;
        let id = *next;
        let e = Eph {
            chat,
            receiver,
            id,
            thread: body["message_thread_id"].as_i64(),
            text,
            buttons,
            delivered: callback.is_some() || !s.eph.offline.contains(&receiver),
            callback,
        };
        let m = message_json(&e);
        if e.delivered {
            s.eph
                .history
                .push((receiver, id, shown(&e.text, &e.buttons), unix_ms()));
            s.tell_members(chat, Some(receiver), "message", m.clone());
        }
        s.eph.all.push(e);
        return Some((200, json!({"ok": true, "result": m})));
    }
    let id = body["ephemeral_message_id"].as_i64().unwrap_or(0);
    let pos = s
        .eph
        .all
        .iter()
        .position(|e| e.chat == chat && e.receiver == receiver && e.id == id);
    let Some(pos) = pos else {
        let d = if method == "deleteEphemeralMessage" {
            "Bad Request: message to delete not found"
        } else {
            "Bad Request: message to edit not found"
        };
        return refuse(s, d);
    };
    match method {
        "deleteEphemeralMessage" => {
            s.eph.all.remove(pos);
            Some((200, json!({"ok": true, "result": true})))
        }
        _ => {
            let e = &s.eph.all[pos];
            let new_text = if method == "editEphemeralMessageText" {
                text
            } else {
                e.text.clone()
            };
            if e.text == new_text && e.buttons == buttons {
                return refuse(s, NOT_MODIFIED);
            }
            let e = &mut s.eph.all[pos];
            e.text = new_text;
            e.buttons = buttons;
            let (delivered, seen, m) = (e.delivered, shown(&e.text, &e.buttons), message_json(e));
            if delivered {
                s.eph.history.push((receiver, id, seen, unix_ms()));
                s.tell_members(chat, Some(receiver), "edited_message", m.clone());
            }
            Some((200, json!({"ok": true, "result": m})))
        }
    }
}

impl super::Fake {
    /// The ephemeral messages `user`'s client shows in `chat`, in order.
    pub fn ephemerals_of(&self, chat: i64, user: i64) -> Vec<Eph> {
        self.state
            .lock()
            .unwrap()
            .eph
            .all
            .iter()
            .filter(|e| e.chat == chat && e.receiver == user && e.delivered)
            .cloned()
            .collect()
    }

    /// Every text `user`'s client shows in `chat`: its messages, and the ephemeral ones sent
    /// to `user` alone.
    pub fn visible_to(&self, chat: i64, user: i64) -> Vec<String> {
        let mut all: Vec<String> = self.messages(chat).into_iter().map(|m| m.text).collect();
        all.extend(self.ephemerals_of(chat, user).into_iter().map(|e| e.text));
        all
    }

    /// A press by `user` on the button sending `data` of their ephemeral message `id` in
    /// `chat`; returns the callback id. Panics if `user` does not see that message or the
    /// button is disabled (a client cannot press it).
    pub fn press_ephemeral(&self, chat: i64, user: i64, id: i64, data: &str) -> String {
        self.ephemeral_press(chat, user, id, data, false)
    }

    /// A press no client can make: on a button of `user`'s ephemeral message `id` that is
    /// disabled (or is not there at all), as a forged update would bring it.
    pub fn forge_ephemeral_press(&self, chat: i64, user: i64, id: i64, data: &str) -> String {
        self.ephemeral_press(chat, user, id, data, true)
    }

    fn ephemeral_press(&self, chat: i64, user: i64, id: i64, data: &str, forged: bool) -> String {
        let e = self
            .ephemerals_of(chat, user)
            .into_iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("{user} sees no ephemeral message {id} in {chat}"));
        assert!(
            forged || e.pressable().iter().any(|b| b.data == data),
            "{data} is no pressable button of {e:?}"
        );
        let cq = {
            let mut s = self.state.lock().unwrap();
            s.next_callback += 1;
            let cq = format!("cq{}", s.next_callback);
            s.issued.insert(cq.clone());
            s.eph.pressers.insert(cq.clone(), user);
            cq
        };
        self.push_update(json!({"callback_query": {
            "id": cq, "from": user_json(user), "chat_instance": "ci", "data": data,
            "message": message_json(&e)
        }}));
        cq
    }
}
