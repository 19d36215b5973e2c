//! Shows a host `Outbox` on Telegram: keyed messages sent once and then edited in place (their
//! message ids remembered in the store so edits survive restarts), unchanged edits skipped,
//! public edits of one chat coalesced to stay within the group rate limit, 429 `retry_after`
//! honoured, every callback query answered, forum topics (`message_thread_id`) carried, and
//! private chats that refuse the bot (403) remembered so the player uses the "my hand" popup
//! and acts through neutral number buttons under the group's table message.
//!
//! Public edits of one chat share its slots round-robin, the oldest change first (`Pace`),
//! so a busy table message never starves another message of the chat (a finished deal's last
//! trick, a tournament's standings).
//!
//! Calls per card: the presser's hand goes out first and at once, so the card played leaves
//! it before anything else is shown (the press's answer names the card); the hand of whoever
//! is to act next goes out at once with its buttons; the table message takes one slot. A hand
//! that loses its buttons without its owner pressing (the turn timer moved for them) is held
//! back for `hand_delay` in case their next turn replaces it; a press on such an out-of-date
//! hand, the end of its deal, or a shutdown redraws it at once.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{json, Value};
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::msgkey::MsgKey;
use stikis_host::outbox::SHOW_HAND;
use stikis_host::store::{ChatRef, FirstPost, Platform, Store, FIRST_POST_CLAIM_MS};
use stikis_host::token::Token;
use stikis_host::{Button, HandDelivery, Out, Outbox};
use teloxide::payloads::{
    AnswerCallbackQuerySetters, EditMessageTextSetters, SendDocumentSetters, SendMessageSetters,
};
use teloxide::prelude::*;
use teloxide::requests::Payload;
use teloxide::types::{
    CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, MessageId, ThreadId,
};
use teloxide::{ApiError, RequestError};
use tokio::sync::{oneshot, Mutex as AsyncMutex};
use tokio::time::Instant;

mod group_hands;
mod pace;

pub use pace::PostBudget;

/// To whom the outbox's `Reply` goes.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A button press by user `from`: answered with answerCallbackQuery (a popup when
    /// `alert`).
    Callback {
        id: CallbackQueryId,
        alert: bool,
        from: String,
        /// The label of the button pressed: a move taken ("✓") is confirmed with it
        /// ("✓ 9♣"), so the presser knows at once what was played.
        pressed: Option<String>,
    },
    /// A command message: answered with a message in the same chat and topic.
    Message { chat: ChatId, thread: Option<ThreadId> },
    /// A group command that changed nothing: the answer goes to the person's private chat,
    /// or to the group (its topic) if that chat is closed to the bot.
    Privately {
        user: ChatId,
        group: ChatId,
        thread: Option<ThreadId>,
    },
    /// A timer's outbox: nobody to answer.
    Nobody,
}

/// A public edit waiting for the chat's next slot.
struct Pending {
    chat: ChatRef,
    text: String,
    buttons: Vec<Vec<Button>>,
    version: i64,
}

/// A private hand edit held back (its owner just acted; see the module note).
struct Lazy {
    chat: ChatRef,
    text: String,
    buttons: Vec<Vec<Button>>,
    version: i64,
    digest: u64,
    due: Instant,
}

/// One chat's public edits. Slots go round-robin over the messages that changed, the oldest
/// change first: a message that keeps changing keeps its place in the queue (its newest
/// content replaces the waiting one) instead of going again, so every changed message is
/// shown within (messages waiting) × `edit_interval`, however busy the others are.
#[derive(Default)]
struct Pace {
    /// When the last public edit went out.
    last: Option<Instant>,
    /// The newest content of each public key waiting for a slot.
    pending: HashMap<String, Pending>,
    /// The waiting keys, in the order they first changed.
    order: VecDeque<String>,
    flushing: bool,
}

impl Pace {
    /// Queues `p` for `key`, keeping the key's place if it is waiting already.
    fn queue(&mut self, key: &str, p: Pending) {
        if self.pending.insert(key.to_string(), p).is_none() {
            self.order.push_back(key.to_string());
        }
    }

    /// The waiting key whose change is oldest, and its newest content.
    fn next(&mut self) -> Option<(String, Pending)> {
        while let Some(k) = self.order.pop_front() {
            if let Some(p) = self.pending.remove(&k) {
                return Some((k, p));
            }
        }
        None
    }
}

pub struct Shower {
    pub bot: Bot,
    store: Store,
    /// The bot's username, for t.me deep links.
    username: String,
    /// Minimum time between two public edits in one chat (Telegram allows about 20 messages
    /// per minute in a group: 3 s).
    edit_interval: Duration,
    /// Content hash last shown for (key, recipient): unchanged edits are skipped.
    shown: Mutex<HashMap<(String, String), u64>>,
    /// Message ids, read through to the store.
    ids: Mutex<HashMap<(String, String), MessageId>>,
    /// Users whose private chat refused the bot (403) since it started.
    unreachable: Mutex<HashSet<String>>,
    pace: Mutex<HashMap<String, Pace>>,
    /// How long a hand that lost its buttons may wait for its owner's next turn.
    hand_delay: Duration,
    /// Held-back hand edits by (key, user).
    lazy: Mutex<HashMap<(String, String), Lazy>>,
    /// One lock per private chat: its edits go out in the order they were decided, whether
    /// sent at once or held back.
    dms: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
    /// Webhook mode: presses whose webhook post is still open, by callback query id. Their
    /// answer goes back as the post's reply (a Bot API method in the response body, which
    /// Telegram runs itself), which spares one call per press.
    in_reply: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    /// First posts that another process had claimed and not sent (it may have died while
    /// sending), by (key, recipient): shown again once the claim lapses, unless a newer
    /// showing of the same message came meanwhile (its number here then changed).
    retries: Mutex<HashMap<(String, String), u64>>,
    /// The Mini App's short name (`--mini-app`): a running table's message opens it.
    /// With the key that names tables in its start parameter (`links::table_ref`).
    mini_app: std::sync::OnceLock<(String, Vec<u8>)>,
    /// Hands in groups as ephemeral messages (`group_hands`).
    group: group_hands::GroupHands,
    /// New messages a group may be sent (None: no limit), and each group's queue of them
    /// (`pace`).
    post_budget: Option<PostBudget>,
    groups: Mutex<HashMap<i64, pace::Group>>,
}

/// The error of a first post another process claimed and has not sent yet.
/// How long after the live processes changed each process claims the hands it shows (on
/// top of `hand_delay`, the longest a hand is held back): the previous owner of a table
/// learns of the change within half a second (`OWNERS_EVERY`), and its last hands are on
/// their way by then (`Store::shows_alone`).
const OWNER_SETTLED: Duration = Duration::from_secs(3);

const CLAIMED_ELSEWHERE: &str = "another process is sending this message";

fn claimed_elsewhere(e: &RequestError) -> bool {
    matches!(e, RequestError::Api(ApiError::Unknown(m)) if m == CLAIMED_ELSEWHERE)
}

/// The most numbered group buttons offered to a player without a private chat, padded to a
/// multiple of this so that their count does not tell how many legal actions there are.
pub const CHOICE_PAD: usize = 10;

/// A group number button: `g<table>.d<deal>.<n>` (base 36 like host tokens, but never one:
/// host tokens start with `s`). It means "my n-th choice now in deal `deal`", read against
/// the presser's hand when pressed, not against the table message's version: the table
/// message may lag behind the game by a few edit slots, and the choices of whoever is to act
/// do not change until they act, so a press at human pace is taken at the first try. The
/// answer names what was done. A press on a number of another deal than the one being played
/// (a finished deal's message kept its numbers) is out of date: it is never played into
/// another deal.
pub fn choice_data(table: i64, deal: i64, n: usize) -> String {
    format!("g{}.d{deal}.{n}", b36(table as u64))
}

/// A group number button read back (`choice_data`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub table: i64,
    /// The deal whose table message carried it; None for buttons made before numbers named
    /// their deal (`g<table>.<n>`, `g<table>.<seq>.<n>`), read as the deal being played.
    pub deal: Option<i64>,
    pub n: usize,
}

/// A group number button's table, deal and number.
pub fn parse_choice(data: &str) -> Option<Choice> {
    let parts: Vec<&str> = data.strip_prefix('g')?.split('.').collect();
    let (table, deal, n) = match parts.as_slice() {
        [table, n] => (table, None, n),
        [table, mid, n] => match mid.strip_prefix('d') {
            Some(d) => (table, Some(d.parse().ok()?), n),
            None => (table, None, n),
        },
        _ => return None,
    };
    Some(Choice {
        table: i64::from_str_radix(table, 36).ok()?,
        deal,
        n: n.parse().ok()?,
    })
}

fn b36(mut n: u64) -> String {
    let mut d = Vec::new();
    loop {
        d.push(std::char::from_digit((n % 36) as u32, 36).expect("a base-36 digit"));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    d.iter().rev().collect()
}

/// The numbered list of a hand's legal actions, as the "my hand" popup shows it: one choice
/// a line ("1 Pass", "2 8 · 80"), so that a label with a dot or a space in it cannot be
/// misread as two choices.
pub fn numbered(buttons: &[Vec<Button>]) -> String {
    let mut s = String::new();
    // A disabled card is no choice (`Button::disabled`).
    for (i, b) in buttons.iter().flatten().filter(|b| !b.disabled).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let _ = write!(s, "{} {}", i + 1, b.label);
    }
    s
}

/// The number buttons of table `table`'s deal `deal` for up to `count` choices, padded
/// (`CHOICE_PAD`).
fn choice_rows(table: i64, deal: i64, count: usize) -> Vec<Vec<Button>> {
    // Telegram allows 100 buttons under a message; the 🂠 row needs one.
    let n = (count.max(1).div_ceil(CHOICE_PAD) * CHOICE_PAD).min(90);
    let all: Vec<Button> = (1..=n)
        .map(|i| Button {
            label: i.to_string(),
            token: choice_data(table, deal, i),
            disabled: false,
            card: None,
        })
        .collect();
    all.chunks(5).map(<[Button]>::to_vec).collect()
}

fn digest(text: &str, buttons: &[Vec<Button>]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    for row in buttons {
        for b in row {
            b.label.hash(&mut h);
            b.token.hash(&mut h);
            b.disabled.hash(&mut h);
        }
        0xffu8.hash(&mut h);
    }
    h.finish()
}

pub fn chat_id(chat: &ChatRef) -> Option<ChatId> {
    chat.chat.parse().ok().map(ChatId)
}

pub fn thread_id(chat: &ChatRef) -> Option<ThreadId> {
    chat.thread
        .as_deref()
        .and_then(|t| t.parse().ok())
        .map(|t| ThreadId(MessageId(t)))
}

/// The recipient string of a public message: its chat and topic.
fn place(chat: &ChatRef) -> String {
    match &chat.thread {
        Some(t) => format!("{}/{t}", chat.chat),
        None => chat.chat.clone(),
    }
}

/// The deal a message key shows (a deal's table message, a hand in it, its result).
pub fn deal_of_key(key: &str) -> Option<i64> {
    MsgKey::parse(key)?.deal().and_then(|d| i64::try_from(d).ok())
}

/// The newest deal each table's messages in `out` show.
fn newest_deals(out: &Outbox) -> HashMap<i64, i64> {
    deals_by(out, i64::max)
}

/// The oldest deal each table's messages in `out` show.
fn oldest_deals(out: &Outbox) -> HashMap<i64, i64> {
    deals_by(out, i64::min)
}

fn deals_by(out: &Outbox, pick: fn(i64, i64) -> i64) -> HashMap<i64, i64> {
    let mut m: HashMap<i64, i64> = HashMap::new();
    for o in &out.0 {
        if let Out::Public { key, .. } | Out::Private { key, .. } = o {
            if let (Some(t), Some(d)) = (table_of_key(key), deal_of_key(key)) {
                let e = m.entry(t).or_insert(d);
                *e = pick(*e, d);
            }
        }
    }
    m
}

/// The table a message key belongs to (None for a tournament's).
pub fn table_of_key(key: &str) -> Option<i64> {
    MsgKey::parse(key)?.table()
}

/// A lobby token as a t.me start parameter (which allows only `A-Za-z0-9_-`).
pub fn start_param(token: &str) -> Option<String> {
    let p = token.replace('.', "-");
    (p.len() <= 64
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(p)
}

/// The token behind a start parameter.
pub fn token_of_start(param: &str) -> String {
    param.replace('-', ".")
}

/// Sends a request, waiting out 429s (`retry_after`) and retrying a network error a few times
/// (a new message only if it never reached Telegram).
pub async fn call<R>(req: R) -> Result<<R::Payload as Payload>::Output, RequestError>
where
    R: Request<Err = RequestError>,
{
    let mut tries = 0;
    let method = <R::Payload as Payload>::NAME;
    loop {
        let answer = req.send_ref().await;
        let status = match &answer {
            Ok(_) => "ok",
            Err(e) => status_of(e),
        };
        stikis_host::observe::platform_call("telegram", &bot_api_name(method), status);
        match answer {
            Err(RequestError::RetryAfter(s)) if tries < 5 => {
                tracing::info!(secs = s.seconds(), "Telegram asks to retry later");
                stikis_host::observe::platform_retry("telegram", s.duration());
                tokio::time::sleep(s.duration()).await;
            }
            // A request that may have reached Telegram is sent again only if sending it twice
            // does what sending it once does: a message sent twice is shown twice.
            Err(RequestError::Network(e)) if tries < 3 && (e.is_connect() || repeatable(method)) => {
                tracing::warn!(error = %e, "network error, retrying");
                let wait = Duration::from_millis(200 << tries);
                stikis_host::observe::platform_retry("telegram", wait);
                tokio::time::sleep(wait).await;
            }
            r => return r,
        }
        tries += 1;
    }
}

/// Whether sending Bot API method `method` (teloxide's spelling, `SendMessage`) twice does
/// what sending it once does (an edit, an answer, a deletion), unlike a new message.
fn repeatable(method: &str) -> bool {
    !["Send", "Create", "Copy", "Forward"]
        .iter()
        .any(|p| method.starts_with(p))
}

/// The Bot API's own spelling of a method (`answerCallbackQuery`), from teloxide's
/// (`AnswerCallbackQuery`).
fn bot_api_name(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// How a failed call is counted: `429`, `network`, `api` (Telegram refused it) or `error`.
pub fn status_of(e: &RequestError) -> &'static str {
    match e {
        RequestError::RetryAfter(_) => "429",
        RequestError::Network(_) => "network",
        RequestError::Api(_) => "api",
        _ => "error",
    }
}

fn forbidden(e: &RequestError) -> bool {
    match e {
        RequestError::Api(
            ApiError::BotBlocked | ApiError::CantInitiateConversation | ApiError::UserDeactivated,
        ) => true,
        RequestError::Api(ApiError::Unknown(s)) => s.starts_with("Forbidden"),
        _ => false,
    }
}

impl Shower {
    pub fn new(
        bot: Bot,
        store: Store,
        username: String,
        edit_interval: Duration,
        hand_delay: Duration,
        post_budget: Option<PostBudget>,
    ) -> Arc<Shower> {
        Arc::new(Shower {
            bot,
            store,
            username,
            edit_interval,
            shown: Mutex::default(),
            ids: Mutex::default(),
            unreachable: Mutex::default(),
            pace: Mutex::default(),
            hand_delay,
            lazy: Mutex::default(),
            dms: Mutex::default(),
            in_reply: Mutex::default(),
            retries: Mutex::default(),
            mini_app: std::sync::OnceLock::new(),
            group: group_hands::GroupHands::default(),
            post_budget,
            groups: Mutex::default(),
        })
    }

    /// `public`, boxed: for a retry that `public` itself spawns.
    fn public_again(
        self: Arc<Self>,
        chat: ChatRef,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        version: i64,
    ) -> BoxFuture<'static, Result<(), RequestError>> {
        Box::pin(async move { self.public(&chat, &key, &text, &buttons, version).await })
    }

    /// `private`, boxed and at once: for a retry that `private` itself spawns.
    fn private_again(
        self: Arc<Self>,
        user: String,
        chat: ChatRef,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        version: i64,
    ) -> BoxFuture<'static, Result<(), RequestError>> {
        Box::pin(async move {
            self.private(&user, &chat, &key, &text, &buttons, version, true)
                .await
        })
    }

    /// A newer showing of (key, recipient) supersedes any retry waiting for it.
    fn supersede_retry(&self, key: &str, recipient: &str) {
        self.retries
            .lock()
            .expect("retries")
            .remove(&(key.to_string(), recipient.to_string()));
    }

    /// Whether the retry numbered `n` of (key, recipient) is still the newest showing, taken.
    fn take_retry(&self, key: &str, recipient: &str, n: u64) -> bool {
        let mut r = self.retries.lock().expect("retries");
        let k = (key.to_string(), recipient.to_string());
        if r.get(&k) == Some(&n) {
            r.remove(&k);
            true
        } else {
            false
        }
    }

    /// Shows (key, recipient) again with `again` once another process's claim on its first
    /// post has lapsed, unless a newer showing of it came meanwhile; `failed` is logged if
    /// that fails too.
    fn retry_later(
        self: &Arc<Self>,
        key: &str,
        recipient: &str,
        failed: &'static str,
        again: BoxFuture<'static, Result<(), RequestError>>,
    ) {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        self.retries
            .lock()
            .expect("retries")
            .insert((key.to_string(), recipient.to_string()), n);
        tracing::debug!(
            key,
            "a first post claimed by another process is shown again later"
        );
        let after = Duration::from_millis(FIRST_POST_CLAIM_MS as u64 + 500);
        let (me, key, recipient) = (Arc::clone(self), key.to_string(), recipient.to_string());
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            if me.take_retry(&key, &recipient, n) {
                if let Err(e) = again.await {
                    tracing::warn!(error = %e, "{failed}");
                }
            }
        });
    }

    /// Webhook mode: the answer to callback query `id` is wanted as the reply to its post.
    /// The receiver gets the answer's method call; if it is dropped first (the post stopped
    /// waiting), the answer is made as a call instead.
    pub fn answer_in_reply(&self, id: &str) -> oneshot::Receiver<Value> {
        let (tx, rx) = oneshot::channel();
        self.in_reply.lock().expect("in_reply").insert(id.to_string(), tx);
        rx
    }

    /// The post of callback query `id` stopped waiting for its answer.
    pub fn answer_by_call(&self, id: &str) {
        self.in_reply.lock().expect("in_reply").remove(id);
    }

    pub fn deep_link(&self, param: &str) -> String {
        format!("https://t.me/{}?start={param}", self.username)
    }

    /// The user opened the private chat again (/start): try it again.
    pub fn reachable(&self, user: &str) {
        self.unreachable.lock().expect("unreachable set").remove(user);
    }

    /// True if the user's private chat refused the bot (so they act from the group).
    pub fn is_unreachable(&self, user: &str) -> bool {
        self.unreachable.lock().expect("unreachable set").contains(user)
    }

    fn unreachable_count(&self) -> usize {
        self.unreachable.lock().expect("unreachable set").len()
    }

    /// The language of a group's messages.
    pub async fn community_lang(&self, chat: &ChatRef) -> Lang {
        self.store
            .community_settings(&chat.community_ref())
            .await
            .map(|s| s.lang)
            .unwrap_or_default()
    }

    /// The table message `key` with number buttons while a player without a private chat
    /// sits at it (their hand is in the same outbox): the same buttons on every turn of the
    /// deal, padded to the most choices the one to act has, so they never go out of date
    /// while it is played. A message whose deal is over (or whose table stopped) has no
    /// buttons of the host's, and gets no numbers either: nothing under it is live.
    fn with_choices(&self, key: &str, buttons: &[Vec<Button>], out: &Outbox) -> Vec<Vec<Button>> {
        let mut rows = buttons.to_vec();
        if buttons.is_empty() {
            return rows;
        }
        let Some(this @ MsgKey::Deal { table, deal }) = MsgKey::parse(key) else {
            return rows;
        };
        let in_this_deal = |k: &str| MsgKey::parse(k).and_then(|k| k.deal_message()).as_ref() == Some(&this);
        let closed: Vec<&Vec<Vec<Button>>> = out
            .0
            .iter()
            .filter_map(|o| match o {
                Out::Private {
                    user, key, buttons, ..
                } if in_this_deal(key) && self.is_unreachable(user) => Some(buttons),
                _ => None,
            })
            .collect();
        if !closed.is_empty() {
            let most = closed
                .iter()
                .map(|b| b.iter().flatten().filter(|b| !b.disabled).count())
                .max()
                .unwrap_or(0);
            rows.extend(choice_rows(table, deal as i64, most));
        }
        rows
    }

    /// Shows one outbox: the answer first (Telegram wants callbacks answered quickly), then
    /// every message in order. A keyed message that appears twice is shown once, as its last
    /// version; consecutive posts to one chat go out as one message.
    pub async fn show(self: &Arc<Self>, out: Outbox, answer: Answer) {
        let mut reply = out.reply_text().map(str::to_string);
        if let (
            Answer::Callback {
                pressed: Some(label), ..
            },
            Some(text),
        ) = (&answer, reply.as_mut())
        {
            if text == "✓" {
                *text = format!("✓ {label}");
            }
        }
        if let (Answer::Callback { alert: true, .. }, Some(text)) = (&answer, reply.as_mut()) {
            // The "my hand" popup of a player without a private chat names what each of the
            // group's number buttons does.
            let hand = out.0.iter().find_map(|o| match o {
                Out::Private { user, buttons, .. } if !buttons.is_empty() && self.is_unreachable(user) => {
                    Some(buttons)
                }
                _ => None,
            });
            if let Some(hand) = hand {
                // A popup holds 200 characters: if both do not fit, the numbers come first,
                // as without them the player cannot act.
                let legend = numbered(hand);
                *text = if text.chars().count() + legend.chars().count() < 200 {
                    format!("{text}\n{legend}")
                } else {
                    format!("{legend}\n{text}")
                };
            }
        }
        // The 🂠 button, where the presser's hands go to the group: their hand as an ephemeral
        // message tied to the press (it answers the press).
        let mut answered = false;
        if let Answer::Callback {
            id,
            alert: true,
            from,
            ..
        } = &answer
        {
            let hand = out.0.iter().find_map(|o| match o {
                Out::Private {
                    user,
                    chat,
                    key,
                    text,
                    buttons,
                    ..
                } if user == from => Some((chat, key, text, buttons)),
                _ => None,
            });
            if let Some((chat, key, text, buttons)) = hand {
                answered = self.hand_on_press(id, from, chat, key, text, buttons).await;
            }
        }
        match (&answer, reply) {
            (Answer::Callback { id, .. }, _) if answered => {
                self.in_reply.lock().expect("in_reply").remove(&id.0);
            }
            (Answer::Callback { id, alert, .. }, text) => {
                // Callback answers hold at most 200 characters.
                let text: Option<String> = text.map(|t| t.chars().take(200).collect());
                let waiting = self.in_reply.lock().expect("in_reply").remove(&id.0);
                let mut body = json!({"method": "answerCallbackQuery", "callback_query_id": id.0});
                if let Some(text) = &text {
                    body["text"] = json!(text);
                    body["show_alert"] = json!(alert);
                }
                // The webhook post may have given up waiting: then the answer is a call.
                if waiting.is_none_or(|w| w.send(body).is_err()) {
                    let mut req = self.bot.answer_callback_query(id.clone());
                    if let Some(text) = text {
                        req = req.text(text).show_alert(*alert);
                    }
                    if let Err(e) = call(req).await {
                        tracing::warn!(error = %e, "answerCallbackQuery failed");
                    }
                }
            }
            (Answer::Message { chat, thread }, Some(text)) => {
                let mut req = self.bot.send_message(*chat, text);
                if let Some(t) = thread {
                    req = req.message_thread_id(*t);
                }
                if let Err(e) = call(req).await {
                    tracing::warn!(error = %e, "reply failed");
                }
            }
            (Answer::Privately { user, group, thread }, Some(text)) => {
                let sent = !self.is_unreachable(&user.0.to_string())
                    && call(self.bot.send_message(*user, text.as_str())).await.is_ok();
                if !sent {
                    let mut req = self.bot.send_message(*group, text);
                    if let Some(t) = thread {
                        req = req.message_thread_id(*t);
                    }
                    if let Err(e) = call(req).await {
                        tracing::warn!(error = %e, "reply failed");
                    }
                }
            }
            _ => {}
        }
        let last_of_key: HashMap<(&str, &str), usize> = out
            .0
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o {
                Out::Public { key, chat, .. } => Some(((key.as_str(), chat.chat.as_str()), i)),
                Out::Private { key, user, .. } => Some(((key.as_str(), user.as_str()), i)),
                _ => None,
            })
            .collect();
        let unreachable_before = self.unreachable_count();
        // Whoever just acted sees their hand without the card they played at once: their
        // hand goes first, ahead of the table message and the others' hands. Not a hand of
        // a deal this outbox starts: that one waits for the result before it (posted below),
        // since a person who plays in the next deal is taken to have seen the result (a
        // process that takes the table over posts it again only if nobody moved since).
        let presser = match &answer {
            Answer::Callback { from, .. } => Some(from.as_str()),
            _ => None,
        };
        let oldest_deal = oldest_deals(&out);
        let mut shown_first = HashSet::new();
        for (i, o) in out.0.iter().enumerate() {
            if let Out::Private {
                user,
                chat,
                key,
                text,
                buttons,
                version,
                delivery,
            } = o
            {
                let started_here = deal_of_key(key)
                    .zip(table_of_key(key).and_then(|t| oldest_deal.get(&t)))
                    .is_some_and(|(d, oldest)| d > *oldest);
                // The presser's, or one whose person pressed in a chat that another process
                // received the press from (handed to this one, the table's owner).
                let pressed = *delivery == HandDelivery::Pressed || Some(user.as_str()) == presser;
                if pressed
                    && *delivery != HandDelivery::Shown
                    && !started_here
                    && last_of_key.get(&(key.as_str(), user.as_str())) == Some(&i)
                {
                    shown_first.insert(i);
                    if let Err(e) = self.private(user, chat, key, text, buttons, *version, true).await {
                        tracing::warn!(error = %e, "could not show a hand");
                    }
                }
            }
        }
        let newest_deal = newest_deals(&out);
        let mut i = 0;
        while i < out.0.len() {
            let res = match &out.0[i] {
                Out::Public {
                    chat,
                    key,
                    text,
                    buttons,
                    version,
                } => {
                    if last_of_key.get(&(key.as_str(), chat.chat.as_str())) != Some(&i) {
                        i += 1;
                        continue;
                    }
                    let live = !buttons.is_empty();
                    let mut buttons = self.with_choices(key, buttons, &out);
                    // Only a message that is still played opens the table.
                    if let Some(row) = self.open_row(chat, key).await.filter(|_| live) {
                        buttons.push(row);
                    }
                    self.public(chat, key, text, &buttons, *version).await
                }
                Out::Private {
                    user,
                    chat,
                    key,
                    text,
                    buttons,
                    version,
                    delivery,
                } => {
                    // A hand the table's owner showed is here to be read only.
                    if last_of_key.get(&(key.as_str(), user.as_str())) != Some(&i)
                        || shown_first.contains(&i)
                        || *delivery == HandDelivery::Shown
                    {
                        i += 1;
                        continue;
                    }
                    // A hand's last state for a message that may show an older one: an edit,
                    // never a new message (in the private chat, or the group's ephemeral one).
                    if *delivery == HandDelivery::IfShown
                        && self.message_id(key, user).await.is_none()
                        && self.group_hand_id(key, user).await.is_none()
                        && !self.group_hand_waits(key, user)
                    {
                        i += 1;
                        continue;
                    }
                    // A hand of a deal that is over gets no newer version to wait for.
                    let over = deal_of_key(key)
                        .zip(table_of_key(key).and_then(|t| newest_deal.get(&t)))
                        .is_some_and(|(d, newest)| d < *newest);
                    self.private(user, chat, key, text, buttons, *version, over).await
                }
                Out::Post { chat, text, once } => {
                    // A deal's result and the next deal's start (or the table's start and its
                    // first deal) are one message: fewer calls, one notification (more are
                    // merged while the group's budget holds them back: `pace`).
                    let mut parts = vec![(text.clone(), once.clone())];
                    let mut len = text.len();
                    while let Some(Out::Post {
                        chat: c,
                        text: more,
                        once: o,
                    }) = out.0.get(i + 1)
                    {
                        if c != chat || len + more.len() + 2 > 4096 {
                            break;
                        }
                        len += more.len() + 2;
                        parts.push((more.clone(), o.clone()));
                        i += 1;
                    }
                    let post = pace::Item::Post {
                        chat: chat.clone(),
                        parts,
                    };
                    self.new_message(chat, post).await
                }
                Out::File { chat, name, content } => self.file(chat, name, content).await,
                // Telegram presses are never deferred: a reply rides on the callback's answer.
                Out::Reply { .. } | Out::FollowUp { .. } => Ok(()),
                Out::Personal {
                    user,
                    chat,
                    text,
                    closed,
                } => self.personal(user, chat, text, closed).await,
            };
            if let Err(e) = res {
                tracing::warn!(error = %e, "could not show a message");
            }
            i += 1;
        }
        // A private chat refused the bot while this outbox was shown: the table message shown
        // before it learns the number buttons now.
        if self.unreachable_count() > unreachable_before {
            for (i, o) in out.0.iter().enumerate() {
                if let Out::Public {
                    chat,
                    key,
                    text,
                    buttons,
                    version,
                } = o
                {
                    if last_of_key.get(&(key.as_str(), chat.chat.as_str())) == Some(&i) {
                        let buttons = self.with_choices(key, buttons, &out);
                        if let Err(e) = self.public(chat, key, text, &buttons, *version).await {
                            tracing::warn!(error = %e, "could not show a message");
                        }
                    }
                }
            }
        }
    }

    async fn post(
        &self,
        chat: &ChatRef,
        text: &str,
        markup: Option<InlineKeyboardMarkup>,
    ) -> Result<Message, RequestError> {
        let Some(id) = chat_id(chat) else {
            return Err(RequestError::Api(ApiError::ChatNotFound));
        };
        let mut req = self.bot.send_message(id, text);
        if let Some(t) = thread_id(chat) {
            req = req.message_thread_id(t);
        }
        if let Some(m) = markup {
            req = req.reply_markup(m);
        }
        call(req).await
    }

    /// From now on, a running table's message carries a button that opens the table in the
    /// Mini App `name`.
    pub fn open_in_mini_app(&self, name: &str, secret: Vec<u8>) {
        let _ = self.mini_app.set((name.trim().to_string(), secret));
    }

    /// The "Open the table" row of a running table's message (key `t<id>.d<n>`), when the
    /// bot has a Mini App: a direct link `t.me/<bot>/<app>?startapp=<table's reference>`
    /// (`links::table_ref`: the table's number cannot be read off it or counted).
    async fn open_row(&self, chat: &ChatRef, key: &str) -> Option<Vec<Button>> {
        let (app, secret) = self.mini_app.get()?;
        let Some(MsgKey::Deal { table, .. }) = MsgKey::parse(key) else {
            return None;
        };
        let lang = self.community_lang(chat).await;
        Some(vec![Button {
            label: format!("🃏 {}", t(lang, "play-open", &[])),
            token: format!(
                "{LINK}https://t.me/{}/{app}?startapp={}",
                self.username,
                stikis_host::links::table_ref(secret, table)
            ),
            disabled: false,
            card: None,
        }])
    }

    /// A message for one person only (a personal link): in their private chat, or, when it is
    /// closed to the bot, `closed` in the group instead, never the message itself.
    async fn personal(
        &self,
        user: &str,
        chat: &ChatRef,
        text: &str,
        closed: &str,
    ) -> Result<(), RequestError> {
        let sent = match user.parse::<i64>() {
            Ok(id) if !self.is_unreachable(user) => {
                call(self.bot.send_message(ChatId(id), text)).await.is_ok()
            }
            _ => false,
        };
        if sent || chat_id(chat).is_some_and(|g| user.parse::<i64>() == Ok(g.0)) {
            return Ok(());
        }
        self.post(chat, closed, None).await.map(|_| ())
    }

    async fn file(&self, chat: &ChatRef, name: &str, content: &str) -> Result<(), RequestError> {
        let Some(id) = chat_id(chat) else { return Ok(()) };
        let doc = InputFile::memory(content.as_bytes().to_vec()).file_name(name.to_string());
        let mut req = self.bot.send_document(id, doc);
        if let Some(t) = thread_id(chat) {
            req = req.message_thread_id(t);
        }
        call(req).await.map(|_| ())
    }

    /// Records that (key, recipient) now shows `d`; false if it already did.
    fn changed(&self, key: &str, recipient: &str, d: u64) -> bool {
        let mut shown = self.shown.lock().expect("shown map");
        shown.insert((key.to_string(), recipient.to_string()), d) != Some(d)
    }

    fn forget(&self, key: &str, recipient: &str) {
        self.shown
            .lock()
            .expect("shown map")
            .remove(&(key.to_string(), recipient.to_string()));
    }

    /// The id of the message showing `key` to `recipient`, as this process remembers it.
    fn known_id(&self, key: &str, recipient: &str) -> Option<MessageId> {
        self.ids
            .lock()
            .expect("ids")
            .get(&(key.to_string(), recipient.to_string()))
            .copied()
    }

    async fn message_id(&self, key: &str, recipient: &str) -> Option<MessageId> {
        if let Some(id) = self.known_id(key, recipient) {
            return Some(id);
        }
        let k = (key.to_string(), recipient.to_string());
        let stored = self
            .store
            .message_ref(Platform::Telegram, key, recipient)
            .await
            .ok()??;
        let id = MessageId(stored.parse().ok()?);
        self.ids.lock().expect("ids").insert(k, id);
        Some(id)
    }

    async fn remember(&self, key: &str, recipient: &str, id: MessageId) {
        self.ids
            .lock()
            .expect("ids")
            .insert((key.to_string(), recipient.to_string()), id);
        if let Err(e) = self
            .store
            .remember_message_ref(Platform::Telegram, key, recipient, &id.0.to_string())
            .await
        {
            tracing::warn!(error = %e, key, "could not remember a message id");
        }
    }

    /// Remembers the first message sent for `key` (`Store::keep_first_post`) and returns the
    /// one that stands: if another process's copy was remembered first (both sent while the
    /// store was away), this copy is deleted and that one is edited from then on.
    async fn keep_first(&self, chat: &ChatRef, key: &str, recipient: &str, id: MessageId) -> MessageId {
        let kept = self
            .store
            .keep_first_post(Platform::Telegram, key, recipient, &id.0.to_string())
            .await;
        let stands = match kept {
            Ok(k) => k.parse().map(MessageId).unwrap_or(id),
            Err(e) => {
                tracing::warn!(error = %e, key, "could not remember a message id");
                id
            }
        };
        if stands != id {
            if let Some(cid) = chat_id(chat) {
                if let Err(e) = call(self.bot.delete_message(cid, id)).await {
                    tracing::debug!(error = %e, "could not delete a second copy of a message");
                }
            }
        }
        self.ids
            .lock()
            .expect("ids")
            .insert((key.to_string(), recipient.to_string()), stands);
        stands
    }

    /// Sends the keyed message the first time, edits it afterwards.
    /// Posts `parts` as one message, leaving out those kept under a key that was posted
    /// already (by this process or another), and remembers the keys of those it posts.
    async fn posts(&self, chat: &ChatRef, parts: Vec<(String, Option<String>)>) -> Result<(), RequestError> {
        let recipient = place(chat);
        let mut keep = Vec::new();
        for (text, once) in parts {
            match &once {
                Some(k) if self.known_id(k, &recipient).is_some() => {}
                Some(k) if !self.store.claim_once(Platform::Telegram, k, &recipient).await => {}
                _ => keep.push((text, once)),
            }
        }
        // A result another process posted (one it found owed while this one's post waited
        // for the group's budget) is left out, but the posts that came after it (the next
        // deal's start) still go: on their own when a result follows them, so that a message
        // holding results begins with one, as those merged while waiting do (`pace`).
        let first_result = keep
            .iter()
            .position(|(_, o)| pace::result_of(o.as_deref()).is_some());
        let mut messages = match first_result {
            Some(i) if i > 0 => {
                let rest = keep.split_off(i);
                vec![keep, rest]
            }
            _ => vec![keep],
        };
        messages.retain(|m| !m.is_empty());
        for (sent, keep) in messages.iter().enumerate() {
            let text = keep
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join("\n\n");
            let m = match self.post(chat, &text, None).await {
                Ok(m) => m,
                Err(e) => {
                    // The claims to post them go: the next showing posts them at once.
                    let keys: Vec<&str> = messages[sent..]
                        .iter()
                        .flatten()
                        .filter_map(|(_, o)| o.as_deref())
                        .collect();
                    self.store
                        .release_first_posts(Platform::Telegram, &keys, &recipient)
                        .await;
                    return Err(e);
                }
            };
            for k in keep.iter().filter_map(|(_, o)| o.as_ref()) {
                tracing::debug!(key = k.as_str(), message = m.id.0, "posted once");
                self.remember(k, &recipient, m.id).await;
            }
        }
        Ok(())
    }

    /// Edits the message showing `key` to `recipient`, or sends it first. `missing`: the
    /// caller has just looked its id up and found none, so it is not looked up again (its
    /// first-post claim finds one sent meanwhile).
    async fn upsert(
        &self,
        chat: &ChatRef,
        recipient: &str,
        key: &str,
        text: &str,
        markup: InlineKeyboardMarkup,
        missing: bool,
    ) -> Result<(), RequestError> {
        let known = if missing {
            None
        } else {
            self.message_id(key, recipient).await
        };
        let mid = match known {
            Some(mid) => Some(mid),
            None => self.first_post(key, recipient).await?,
        };
        if let Some(mid) = mid {
            let Some(cid) = chat_id(chat) else { return Ok(()) };
            let req = self
                .bot
                .edit_message_text(cid, mid, text)
                .reply_markup(markup.clone());
            match call(req).await {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => return Ok(()),
                Err(RequestError::Api(ApiError::MessageToEditNotFound | ApiError::MessageCantBeEdited)) => {
                    // Deleted by someone: show it anew below.
                }
                Err(e) => return Err(e),
            }
        }
        let m = match self.post(chat, text, Some(markup.clone())).await {
            Ok(m) => m,
            Err(e) => {
                if mid.is_none() {
                    // The claim to send it goes: the next showing sends it at once.
                    self.store
                        .release_first_posts(Platform::Telegram, &[key], recipient)
                        .await;
                }
                return Err(e);
            }
        };
        if mid.is_some() {
            // The message was deleted by someone: the new one replaces it.
            self.remember(key, recipient, m.id).await;
            return Ok(());
        }
        let stands = self.keep_first(chat, key, recipient, m.id).await;
        if stands != m.id {
            // Another process's copy stands: it shows this version too.
            if let Some(cid) = chat_id(chat) {
                match call(self.bot.edit_message_text(cid, stands, text).reply_markup(markup)).await {
                    Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Who sends the first version of a keyed message (two processes may show it at once):
    /// None if this process does, or the id of the message another process sent.
    async fn first_post(&self, key: &str, recipient: &str) -> Result<Option<MessageId>, RequestError> {
        match self.store.first_post(Platform::Telegram, key, recipient).await {
            FirstPost::Mine => Ok(None),
            FirstPost::Sent(id) => {
                let Ok(n) = id.parse() else { return Ok(None) };
                let mid = MessageId(n);
                self.ids
                    .lock()
                    .expect("ids")
                    .insert((key.to_string(), recipient.to_string()), mid);
                Ok(Some(mid))
            }
            FirstPost::Sending => Err(RequestError::Api(ApiError::Unknown(CLAIMED_ELSEWHERE.into()))),
        }
    }

    /// Shows `version` of a public message unless another process (or this one) claimed a
    /// newer version; after sending, shows a version claimed meanwhile, so the message never
    /// ends on an older state than one claimed. False: not shown (a newer one was claimed).
    /// `missing` as for `upsert`.
    #[allow(clippy::too_many_arguments)]
    async fn upsert_newest(
        &self,
        chat: &ChatRef,
        recipient: &str,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
        mut version: i64,
        missing: bool,
    ) -> Result<bool, RequestError> {
        if !self
            .store
            .claim_shown(Platform::Telegram, key, recipient, version, text, buttons)
            .await
        {
            return Ok(false);
        }
        self.upsert(chat, recipient, key, text, keyboard_with_links(buttons), missing)
            .await?;
        // Another process may have shown a newer version while this one was on its way, and
        // this one may have landed last: the newest claimed version goes out again. Each
        // round needs a newer claim, so this ends.
        while let Some((v, text, buttons)) = self
            .store
            .newer_shown(Platform::Telegram, key, recipient, version)
            .await
        {
            self.forget(key, recipient);
            self.upsert(chat, recipient, key, &text, keyboard_with_links(&buttons), false)
                .await?;
            version = v;
        }
        Ok(true)
    }

    async fn public(
        self: &Arc<Self>,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
        version: i64,
    ) -> Result<(), RequestError> {
        let recipient = place(chat);
        if !self.changed(key, &recipient, digest(text, buttons)) {
            return Ok(());
        }
        self.supersede_retry(key, &recipient);
        // A first showing is a new message: it goes out within the group's budget for them,
        // in order with the group's posts (`pace`); edits wait for the chat's slot.
        if self.message_id(key, &recipient).await.is_none() {
            let first = pace::Item::First {
                chat: chat.clone(),
                key: key.to_string(),
                text: text.to_string(),
                buttons: buttons.to_vec(),
                version,
            };
            return self.new_message(chat, first).await;
        }
        let buttons = self.with_links(buttons);
        let wait = {
            let mut pace = self.pace.lock().expect("pace");
            let p = pace.entry(recipient.clone()).or_default();
            let now = Instant::now();
            match p.last {
                Some(last) if now < last + self.edit_interval || p.flushing => {
                    p.queue(
                        key,
                        Pending {
                            chat: chat.clone(),
                            text: text.to_string(),
                            buttons: buttons.clone(),
                            version,
                        },
                    );
                    if p.flushing {
                        return Ok(());
                    }
                    p.flushing = true;
                    Some(last + self.edit_interval)
                }
                _ => {
                    p.last = Some(now);
                    None
                }
            }
        };
        match wait {
            None => {
                let sent = self
                    .upsert_newest(chat, &recipient, key, text, &buttons, version, false)
                    .await;
                if !matches!(sent, Ok(true)) {
                    self.forget(key, &recipient);
                }
                sent.map(|_| ())
            }
            Some(at) => {
                let me = Arc::clone(self);
                tokio::spawn(async move { me.flush(recipient, at).await });
                Ok(())
            }
        }
    }

    /// The first showing of public message `key` (its turn in the group's budget came).
    async fn first_showing(
        self: &Arc<Self>,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
        version: i64,
    ) -> Result<(), RequestError> {
        let recipient = place(chat);
        let with_links = self.with_links(buttons);
        let sent = self
            .upsert_newest(chat, &recipient, key, text, &with_links, version, false)
            .await;
        if !matches!(sent, Ok(true)) {
            self.forget(key, &recipient);
        }
        if sent.as_ref().is_err_and(claimed_elsewhere) {
            let again = Arc::clone(self).public_again(
                chat.clone(),
                key.to_string(),
                text.to_string(),
                buttons.to_vec(),
                version,
            );
            self.retry_later(key, &recipient, "could not show a message again", again);
        }
        sent.map(|_| ())
    }

    /// Sends the newest pending public edits of one chat, one per slot, until none is left.
    async fn flush(self: Arc<Self>, recipient: String, mut at: Instant) {
        loop {
            tokio::time::sleep_until(at).await;
            let next = {
                let mut pace = self.pace.lock().expect("pace");
                let p = pace.entry(recipient.clone()).or_default();
                match p.next() {
                    Some(x) => {
                        p.last = Some(Instant::now());
                        Some(x)
                    }
                    None => {
                        p.flushing = false;
                        None
                    }
                }
            };
            let Some((key, x)) = next else { return };
            self.send_pending(&recipient, &key, &x, "a coalesced edit failed")
                .await;
            at = Instant::now() + self.edit_interval;
        }
    }

    /// Sends everything still held back (public edits waiting for a slot, hands waiting for
    /// their owner's turn): at shutdown, so the last state is never lost.
    pub async fn flush_all(self: &Arc<Self>) {
        let keys: Vec<(String, String)> = self.lazy.lock().expect("lazy").keys().cloned().collect();
        for k in keys {
            self.release(k, true).await;
        }
        let pending: Vec<(String, String, Pending)> = {
            let mut pace = self.pace.lock().expect("pace");
            pace.iter_mut()
                .flat_map(|(recipient, p)| {
                    std::iter::from_fn(|| p.next())
                        .map(|(key, x)| (recipient.clone(), key, x))
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        for (recipient, key, x) in pending {
            self.send_pending(&recipient, &key, &x, "a last public edit failed")
                .await;
        }
        self.flush_new().await;
        self.flush_hands().await;
    }

    /// Shows a held-back public edit; a failure is logged as `failed`.
    async fn send_pending(&self, recipient: &str, key: &str, x: &Pending, failed: &str) {
        let sent = self
            .upsert_newest(&x.chat, recipient, key, &x.text, &x.buttons, x.version, false)
            .await;
        // Not shown (failed, or a newer version claimed elsewhere): the next render of the
        // same text must try again.
        if !matches!(sent, Ok(true)) {
            self.forget(key, recipient);
        }
        if let Err(e) = sent {
            tracing::warn!(error = %e, "{failed}");
        }
    }

    /// A lobby's join button gets a deep link beside it, for people who never opened a private
    /// chat with the bot (t.me/<bot>?start=<token> opens it and seats them).
    fn with_links(&self, buttons: &[Vec<Button>]) -> Vec<Vec<Button>> {
        let mut rows = buttons.to_vec();
        let join = buttons
            .iter()
            .flatten()
            .find(|b| Token::decode(&b.token).is_ok_and(|t| t.action == "join"));
        if let Some(p) = join.and_then(|b| start_param(&b.token)) {
            rows.push(vec![Button {
                label: "🔗 @".to_string() + &self.username,
                token: LINK.to_string() + &self.deep_link(&p),
                disabled: false,
                card: None,
            }]);
        }
        rows
    }

    fn dm(&self, user: &str) -> Arc<AsyncMutex<()>> {
        self.dms
            .lock()
            .expect("dm locks")
            .entry(user.to_string())
            .or_default()
            .clone()
    }

    /// A hand: sent or edited at once when it shows buttons (or is new, or `at_once`: its
    /// owner just acted, or its deal is over), held back otherwise (see the module note).
    #[allow(clippy::too_many_arguments)]
    async fn private(
        self: &Arc<Self>,
        user: &str,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
        version: i64,
        at_once: bool,
    ) -> Result<(), RequestError> {
        if self.is_unreachable(user) && !self.hands_in_group(user, chat).await {
            return Ok(());
        }
        let k = (key.to_string(), user.to_string());
        let d = digest(text, buttons);
        let lock = self.dm(user);
        let _order = lock.lock().await;
        self.supersede_retry(key, user);
        let held = self.lazy.lock().expect("lazy").remove(&k);
        if self.shown.lock().expect("shown map").get(&k) == Some(&d) {
            return Ok(());
        }
        if buttons.is_empty()
            && !at_once
            && !self.hand_delay.is_zero()
            && (self.message_id(key, user).await.is_some() || self.group_hand_id(key, user).await.is_some())
        {
            let fresh = held.is_none();
            let due = held.map_or_else(|| Instant::now() + self.hand_delay, |h| h.due);
            self.lazy.lock().expect("lazy").insert(
                k.clone(),
                Lazy {
                    chat: chat.clone(),
                    text: text.to_string(),
                    buttons: buttons.to_vec(),
                    version,
                    digest: d,
                    due,
                },
            );
            if fresh {
                let me = Arc::clone(self);
                tokio::spawn(async move {
                    tokio::time::sleep_until(due).await;
                    me.release(k, false).await;
                });
            }
            return Ok(());
        }
        self.shown.lock().expect("shown map").insert(k, d);
        let sent = self.send_private(user, chat, key, text, buttons, version).await;
        if !matches!(sent, Ok(true)) {
            // Not shown (failed, or a newer version was claimed): the next render of the same
            // hand must try again.
            self.forget(key, user);
        }
        if sent.as_ref().is_err_and(claimed_elsewhere) {
            // Nothing else may render this hand again (its owner waits for it to act):
            // shown again once the other process's claim lapses.
            let again = Arc::clone(self).private_again(
                user.to_string(),
                chat.clone(),
                key.to_string(),
                text.to_string(),
                buttons.to_vec(),
                version,
            );
            self.retry_later(key, user, "could not show a hand again", again);
        }
        sent.map(|_| ())
    }

    /// Sends a held-back hand when it is due, or at once with `now`.
    async fn release(self: &Arc<Self>, k: (String, String), now: bool) {
        let lock = self.dm(&k.1);
        let _order = lock.lock().await;
        let held = {
            let mut lazy = self.lazy.lock().expect("lazy");
            match lazy.get(&k) {
                Some(l) if now || l.due <= Instant::now() => lazy.remove(&k),
                _ => None,
            }
        };
        let Some(l) = held else { return };
        if self.shown.lock().expect("shown map").insert(k.clone(), l.digest) == Some(l.digest) {
            return;
        }
        let sent = self
            .send_private(&k.1, &l.chat, &k.0, &l.text, &l.buttons, l.version)
            .await;
        if !matches!(sent, Ok(true)) {
            self.forget(&k.0, &k.1);
        }
        if let Err(e) = sent {
            tracing::warn!(error = %e, "a held-back hand edit failed");
        }
    }

    /// The held-back hands shown by message `mid` of `user`'s private chat: a press on one of
    /// them is a press on an out-of-date hand.
    pub fn held_at(&self, user: &str, mid: MessageId) -> Vec<(String, String)> {
        let lazy = self.lazy.lock().expect("lazy");
        let ids = self.ids.lock().expect("ids");
        lazy.keys()
            .filter(|k| k.1 == user && ids.get(*k) == Some(&mid))
            .cloned()
            .collect()
    }

    /// Sends every held-back hand now (after a restart, every hand is redrawn at once: the
    /// one left held back by the process that died may show an old "Your turn").
    pub async fn release_all(self: &Arc<Self>) {
        let keys: Vec<(String, String)> = self.lazy.lock().expect("lazy").keys().cloned().collect();
        self.release_now(keys).await;
    }

    /// Sends these held-back hands now.
    pub async fn release_now(self: &Arc<Self>, keys: Vec<(String, String)>) {
        for k in keys {
            self.release(k, true).await;
        }
    }

    /// Shows `version` of a hand in its owner's private chat, unless a newer version was
    /// claimed (false: not shown, `Store::claim_hand`); a chat closed to the bot is told to
    /// the group.
    async fn send_private(
        self: &Arc<Self>,
        user: &str,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
        version: i64,
    ) -> Result<bool, RequestError> {
        // The table's owner alone shows its hands (`HandDelivery::Shown`): while the live
        // processes have not changed for longer than a hand is held back here, nobody else
        // sends one, and the claim, a write for every hand shown, is left out.
        let settled = self.hand_delay + OWNER_SETTLED;
        let alone = table_of_key(key).is_some_and(|t| self.store.shows_alone(t, settled));
        if !alone
            && !self
                .store
                .claim_hand(Platform::Telegram, key, user, version, text, buttons)
                .await
        {
            return Ok(false);
        }
        // In the group as an ephemeral message, where it can be (`group_hands`).
        if let Some(shown) = self.group_hand(user, chat, key, text, buttons).await {
            return shown;
        }
        let dm = ChatRef::new(Platform::Telegram, user, user);
        let mut shown = self
            .upsert(&dm, user, key, text, keyboard_with_links(buttons), false)
            .await
            .map(|()| true);
        // Right after the live processes changed, another process (the table's previous or
        // next owner) may have claimed a newer version while this one was on its way, and
        // this one may have landed last: the newest claimed version goes out again.
        let mut version = version;
        while !alone && matches!(shown, Ok(true)) && self.store.live_changed_within(settled) {
            let Some((v, text, buttons)) = self
                .store
                .newer_shown(Platform::Telegram, key, user, version)
                .await
            else {
                break;
            };
            self.forget(key, user);
            shown = self
                .upsert(&dm, user, key, &text, keyboard_with_links(&buttons), false)
                .await
                .map(|()| true);
            version = v;
        }
        match shown {
            Err(e) if forbidden(&e) => {
                self.forget(key, user);
                self.unreachable
                    .lock()
                    .expect("unreachable set")
                    .insert(user.to_string());
                // Tell the group: the hand is behind the table's 🂠 button, a deep link opens
                // the private chat, and number buttons act on the player's turn.
                let Some(table) = table_of_key(key) else {
                    return Ok(false);
                };
                let hand = Token::new(table, 0, SHOW_HAND).encode().unwrap_or_default();
                let link = start_param(&hand).map(|p| self.deep_link(&p));
                let mut rows = vec![vec![InlineKeyboardButton::callback("🂠", hand)]];
                if let Some(link) = link.and_then(|l| url::Url::parse(&l).ok()) {
                    rows[0].push(InlineKeyboardButton::url("💬", link));
                }
                let lang = self.community_lang(chat).await;
                // The notice names whose chat is closed, as the table seats them.
                let name = match self.store.seats(table).await {
                    Ok(seats) => seats.into_iter().find_map(|s| match s.occupant {
                        stikis_host::store::Occupant::Human { user_id } if user_id == user => Some(s.name),
                        _ => None,
                    }),
                    Err(_) => None,
                };
                let text = t(
                    lang,
                    "telegram-chat-closed",
                    &[
                        ("bot", Arg::from(self.username.as_str())),
                        ("name", Arg::from(name.unwrap_or_default())),
                    ],
                );
                self.post(chat, &text, Some(InlineKeyboardMarkup::new(rows)))
                    .await
                    .map(|_| false)
            }
            r => r,
        }
    }
}

/// Marks a `Button` that is a URL rather than a callback (only inside this module).
const LINK: &str = "\u{1}link:";

/// Buttons as teloxide sends them, which has no disabled buttons: a hand's playable cards
/// alone (`stikis_host::outbox::pressable`).
fn keyboard_with_links(buttons: &[Vec<Button>]) -> InlineKeyboardMarkup {
    let buttons = stikis_host::outbox::pressable(buttons);
    InlineKeyboardMarkup::new(buttons.iter().map(|row| {
        row.iter()
            .map(
                |b| match b.token.strip_prefix(LINK).and_then(|u| url::Url::parse(u).ok()) {
                    Some(u) => InlineKeyboardButton::url(b.label.clone(), u),
                    None => InlineKeyboardButton::callback(b.label.clone(), b.token.clone()),
                },
            )
            .collect::<Vec<_>>()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_requests_that_do_the_same_twice_are_sent_again_after_a_network_error() {
        use teloxide::requests::Payload;
        assert!(!repeatable(teloxide::payloads::SendMessage::NAME));
        assert!(!repeatable(teloxide::payloads::SendDocument::NAME));
        assert!(!repeatable(teloxide::payloads::CreateForumTopic::NAME));
        assert!(repeatable(teloxide::payloads::EditMessageText::NAME));
        assert!(repeatable(teloxide::payloads::AnswerCallbackQuery::NAME));
        assert!(repeatable(teloxide::payloads::DeleteMessage::NAME));
    }

    #[test]
    fn lobby_tokens_survive_the_start_parameter_alphabet() {
        let tok = Token::new(4242, 17, "join").encode().unwrap();
        let p = start_param(&tok).unwrap();
        assert!(p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        assert_eq!(token_of_start(&p), tok);
        assert_eq!(Token::decode(&token_of_start(&p)).unwrap().action, "join");
        // Card tokens hold ':' and are never turned into links.
        assert_eq!(start_param("s1.2.p:QC"), None);
    }

    #[test]
    fn keys_name_their_table() {
        assert_eq!(table_of_key("t12.d3.s1"), Some(12));
        assert_eq!(table_of_key("t7.lobby"), Some(7));
        assert_eq!(table_of_key("x"), None);
        assert_eq!(deal_of_key("t12.d3.s1"), Some(3));
        assert_eq!(deal_of_key("t12.d3"), Some(3));
        assert_eq!(deal_of_key("t12.lobby"), None);
        assert_eq!(deal_of_key("t12.d3.result"), Some(3));
        // A tournament's messages are no table's, and a key must be one exactly.
        assert_eq!(table_of_key("T4.r1.t2.s0"), None);
        assert_eq!(table_of_key("t12x.d3"), None);
    }

    #[test]
    fn digests_see_text_and_buttons() {
        let b = |l: &str| {
            vec![vec![Button {
                label: l.into(),
                token: "t".into(),
                disabled: false,
                card: None,
            }]]
        };
        assert_eq!(digest("a", &b("x")), digest("a", &b("x")));
        assert_ne!(digest("a", &b("x")), digest("a", &b("y")));
        assert_ne!(digest("a", &b("x")), digest("b", &b("x")));
    }
}
