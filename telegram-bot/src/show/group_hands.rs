//! Hands in the group (Bot API 10.2): each seated person's hand is an ephemeral message in the
//! table's chat (its topic), seen by that person alone, sent once per deal and edited in place
//! (`crate::ephemeral`). Presses on it are handled as any hand button's (the same tokens).
//!
//! Where it cannot be, the hand goes to the private chat as before (and from there to the
//! number buttons if that is closed): the community chose private chats (`/hands private`);
//! the Bot API server is older than 10.2 (asked once, `ephemeral::probe`, and said once in the
//! log); or Telegram refused an ephemeral message for that person in that chat (an error
//! answer: they left the group, say), remembered while the process runs.
//!
//! Paced per person: at most one ephemeral call (a send or an edit) a `HAND_PACE` for one
//! person in one chat, always to the newest state. A hand wanted while its person's last call
//! is younger than that waits (a newer wanted state of the same hand replaces the waiting one
//! where it waits; different hands, a deal's last state and the next deal's hand, keep their
//! order) and goes as soon as the pace allows, from one sender per person, so an older state
//! never follows a newer one. The presser's own hand gets no exception beyond this: it goes at
//! once when its person's last call is more than `HAND_PACE` old (the usual case: a person
//! presses about once a turn), else as soon as that second is over, so it waits at most
//! `HAND_PACE`. A deal's final state (no buttons) is a wanted state like any other, so it is
//! sent eventually (at shutdown, what waits goes at once: `Shower::flush_hands`). On top of
//! this, a 429 for an ephemeral call holds back every ephemeral call to that group for its
//! `retry_after` (`ephemeral::Hold`).
//!
//! The 🂠 button of the table message answers its presser with their current hand as an
//! ephemeral message tied to the press (`callback_query_id`): Telegram does not promise to
//! deliver one to a person who is offline, and this way the hand is one tap away.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use stikis_host::store::{ChatRef, Platform};
use stikis_host::Button;
use teloxide::types::CallbackQueryId;
use teloxide::{ApiError, RequestError};
use tokio::time::Instant;

use super::{chat_id, digest, thread_id, Shower, LINK};
use crate::ephemeral::{self, EphemeralMessageParameters, InlineKeyboard, SendEphemeral};

/// What this process knows of hands in groups.
#[derive(Default)]
pub(super) struct GroupHands {
    /// Whether the Bot API server has ephemeral messages; None until asked.
    support: tokio::sync::Mutex<Option<bool>>,
    /// (chat, person) pairs for which Telegram refused an ephemeral message.
    refused: Mutex<HashSet<(i64, i64)>>,
    /// The ephemeral message showing hand `key` to a person, by (key, person), read through
    /// to the store (under the recipient `e<person>`).
    ids: Mutex<HashMap<(String, String), i64>>,
    /// Each person's ephemeral calls, by (chat, person): see the module note.
    paced: Mutex<HashMap<(i64, i64), Person>>,
    /// Until when ephemeral calls to each chat wait after a 429.
    hold: ephemeral::Hold,
}

/// At most one ephemeral call a person this often (see the module note).
pub const HAND_PACE: Duration = Duration::from_secs(1);

/// One person's ephemeral hand calls in one chat.
#[derive(Default)]
struct Person {
    /// When their last call's answer came back.
    last: Option<Instant>,
    /// Hands waiting for the pace, in order: each hand's newest wanted state.
    waiting: Vec<Want>,
    /// A call of theirs is on its way, or their sender is at work: others wait.
    busy: bool,
}

/// A hand's wanted state.
struct Want {
    user: String,
    chat: ChatRef,
    key: String,
    text: String,
    buttons: Vec<Vec<Button>>,
}

impl Person {
    /// Queues `want`: in place of the waiting state of the same hand, else last.
    fn wait(&mut self, want: Want) {
        match self.waiting.iter_mut().find(|w| w.key == want.key) {
            Some(slot) => *slot = want,
            None => self.waiting.push(want),
        }
    }

    /// When a call may go (None: now).
    fn due(&self, now: Instant) -> Option<Instant> {
        self.last.map(|t| t + HAND_PACE).filter(|t| *t > now)
    }
}

/// The store's recipient of a person's ephemeral hand message.
fn recipient(user: &str) -> String {
    format!("e{user}")
}

/// A hand's buttons as an inline keyboard (URL buttons as such, disabled ones disabled).
fn keyboard(buttons: &[Vec<Button>]) -> Option<InlineKeyboard> {
    if buttons.iter().all(Vec::is_empty) {
        return None;
    }
    Some(InlineKeyboard {
        inline_keyboard: buttons
            .iter()
            .map(|row| {
                row.iter()
                    .map(|b| match b.token.strip_prefix(LINK) {
                        Some(url) => ephemeral::Button::url(b.label.clone(), url),
                        // A card that cannot be played now (Bot API 10.3).
                        None if b.disabled => ephemeral::Button::disabled(b.label.clone(), b.token.clone()),
                        None => ephemeral::Button::callback(b.label.clone(), b.token.clone()),
                    })
                    .collect()
            })
            .collect(),
    })
}

fn failed(e: ephemeral::Error) -> RequestError {
    RequestError::Api(ApiError::Unknown(e.to_string()))
}

impl Shower {
    /// Whether the Bot API server has ephemeral messages: asked once (`ephemeral::probe`, in
    /// `chat` for `user`), and said once in the log when it has not. False while it cannot
    /// be asked (the network): asked again next time.
    pub(super) async fn ephemeral_supported(&self, chat: i64, user: i64) -> bool {
        let mut support = self.group.support.lock().await;
        if let Some(s) = *support {
            return s;
        }
        match ephemeral::probe(&self.bot, &self.group.hold, chat, user).await {
            Some(s) => {
                if !s {
                    tracing::warn!(
                        "the Bot API server does not know ephemeral messages (Bot API 10.2): \
                         hands go to private chats"
                    );
                } else {
                    tracing::info!("the Bot API server has ephemeral messages: hands go to groups");
                }
                *support = Some(s);
                s
            }
            None => false,
        }
    }

    /// Whether this process found the server to have ephemeral messages (None: not asked yet).
    pub fn ephemeral_support(&self) -> Option<bool> {
        self.group.support.try_lock().ok().and_then(|s| *s)
    }

    /// Whether `user`'s hands at a table of `chat` go to the group: the community wants them
    /// there, the chat is a group, Telegram has not refused that person one there, and the
    /// server has ephemeral messages.
    pub(super) async fn hands_in_group(&self, user: &str, chat: &ChatRef) -> bool {
        let (Some(cid), Ok(uid)) = (chat_id(chat), user.parse::<i64>()) else {
            return false;
        };
        if cid.0 >= 0
            || self
                .group
                .refused
                .lock()
                .expect("refused")
                .contains(&(cid.0, uid))
        {
            return false;
        }
        let wanted = self
            .store
            .community_settings(&chat.community_ref())
            .await
            .map(|s| s.hands_in_group)
            .unwrap_or(true);
        wanted && self.ephemeral_supported(cid.0, uid).await
    }

    /// The ephemeral message showing `key` to `user`, if there is one.
    pub(super) async fn group_hand_id(&self, key: &str, user: &str) -> Option<i64> {
        let k = (key.to_string(), user.to_string());
        if let Some(id) = self.group.ids.lock().expect("ids").get(&k) {
            return Some(*id);
        }
        let stored = self
            .store
            .message_ref(Platform::Telegram, key, &recipient(user))
            .await
            .ok()??;
        let id = stored.parse().ok()?;
        self.group.ids.lock().expect("ids").insert(k, id);
        Some(id)
    }

    async fn remember_group_hand(&self, key: &str, user: &str, id: i64) {
        self.group
            .ids
            .lock()
            .expect("ids")
            .insert((key.to_string(), user.to_string()), id);
        if let Err(e) = self
            .store
            .remember_message_ref(Platform::Telegram, key, &recipient(user), &id.to_string())
            .await
        {
            tracing::warn!(error = %e, key, "could not remember an ephemeral message id");
        }
    }

    /// The held-back hands that ephemeral message `id` of `user` shows: a press on one of them
    /// is a press on an out-of-date hand.
    pub fn held_at_ephemeral(&self, user: &str, id: i64) -> Vec<(String, String)> {
        let ids = self.group.ids.lock().expect("ids");
        let lazy = self.lazy.lock().expect("lazy");
        lazy.keys()
            .filter(|k| k.1 == user && ids.get(*k) == Some(&id))
            .cloned()
            .collect()
    }

    /// Telegram refused `user` an ephemeral message in `chat`: their hands there go to the
    /// private chat from now on.
    fn refuse(&self, chat: i64, user: i64, e: &ephemeral::Error) {
        // The description only: never what the message held.
        tracing::info!(chat, user, error = %e, "an ephemeral hand was refused: it goes to the private chat");
        self.group.refused.lock().expect("refused").insert((chat, user));
    }

    /// Shows hand `key` of `user` in the table's chat `chat` as an ephemeral message: edited
    /// in place, or sent when there is none yet (or it is gone). None: it is not shown there
    /// (hands go to the private chat: see the module note), the caller sends it there.
    /// Paced per person (see the module note): while it waits, it counts as shown.
    pub(super) async fn group_hand(
        self: &Arc<Self>,
        user: &str,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
    ) -> Option<Result<bool, RequestError>> {
        if !self.hands_in_group(user, chat).await {
            return None;
        }
        let (cid, uid) = (chat_id(chat)?.0, user.parse::<i64>().ok()?);
        // None: it goes now; else whether its person's sender is to start.
        let queued = {
            let mut paced = self.group.paced.lock().expect("paced");
            let p = paced.entry((cid, uid)).or_default();
            let waits = p.busy || !p.waiting.is_empty() || p.due(Instant::now()).is_some();
            if waits {
                p.wait(Want {
                    user: user.to_string(),
                    chat: chat.clone(),
                    key: key.to_string(),
                    text: text.to_string(),
                    buttons: buttons.to_vec(),
                });
            }
            let start = !p.busy;
            p.busy = true;
            waits.then_some(start)
        };
        let Some(start) = queued else {
            let shown = self.ephemeral_hand(user, chat, key, text, buttons).await;
            self.paced_done(cid, uid);
            return shown;
        };
        if start {
            let me = Arc::clone(self);
            tokio::spawn(async move { me.paced_hands(cid, uid).await });
        }
        Some(Ok(true))
    }

    /// A call of person `uid` in `cid` came back: the pace counts from now; their sender
    /// starts if hands wait.
    fn paced_done(self: &Arc<Self>, cid: i64, uid: i64) {
        let start = {
            let mut paced = self.group.paced.lock().expect("paced");
            let p = paced.entry((cid, uid)).or_default();
            p.last = Some(Instant::now());
            p.busy = !p.waiting.is_empty();
            p.busy
        };
        if start {
            let me = Arc::clone(self);
            tokio::spawn(async move { me.paced_hands(cid, uid).await });
        }
    }

    /// Person `uid`'s sender in `cid`: their waiting hands, one a `HAND_PACE`, until none
    /// waits.
    async fn paced_hands(self: Arc<Self>, cid: i64, uid: i64) {
        loop {
            let next = {
                let mut paced = self.group.paced.lock().expect("paced");
                let p = paced.entry((cid, uid)).or_default();
                if p.waiting.is_empty() {
                    p.busy = false;
                    return;
                }
                match p.due(Instant::now()) {
                    Some(at) => Err(at),
                    None => Ok(p.waiting.remove(0)),
                }
            };
            match next {
                // Sleeps before it takes the hand: what is wanted meanwhile replaces it.
                Err(at) => tokio::time::sleep_until(at).await,
                Ok(w) => {
                    self.send_waiting_hand(w).await;
                    let mut paced = self.group.paced.lock().expect("paced");
                    paced.entry((cid, uid)).or_default().last = Some(Instant::now());
                }
            }
        }
    }

    /// Sends a hand that waited for its person's pace. Not shown (refused since, or failed):
    /// forgotten, so that its next render is sent again (to the private chat if refused).
    async fn send_waiting_hand(&self, w: Want) {
        let shown = self
            .ephemeral_hand(&w.user, &w.chat, &w.key, &w.text, &w.buttons)
            .await;
        if !matches!(shown, Some(Ok(true))) {
            self.forget(&w.key, &w.user);
            tracing::info!(key = w.key, "a paced ephemeral hand was not shown");
        }
    }

    /// Whether a state of hand `key` of `user` waits for their pace (it is shown then).
    pub(super) fn group_hand_waits(&self, key: &str, user: &str) -> bool {
        let paced = self.group.paced.lock().expect("paced");
        paced
            .values()
            .any(|p| p.waiting.iter().any(|w| w.key == key && w.user == user))
    }

    /// Sends every hand waiting for its person's pace now (at shutdown).
    pub(super) async fn flush_hands(&self) {
        let waiting: Vec<Want> = {
            let mut paced = self.group.paced.lock().expect("paced");
            paced.values_mut().flat_map(|p| p.waiting.drain(..)).collect()
        };
        for w in waiting {
            self.send_waiting_hand(w).await;
        }
    }

    /// Shows hand `key` of `user` as an ephemeral message now: see `group_hand`.
    async fn ephemeral_hand(
        &self,
        user: &str,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
    ) -> Option<Result<bool, RequestError>> {
        let (cid, uid) = (chat_id(chat)?.0, user.parse::<i64>().ok()?);
        let markup = keyboard(buttons);
        if let Some(id) = self.group_hand_id(key, user).await {
            let edit = ephemeral::EditEphemeralText {
                chat_id: cid,
                receiver_user_id: uid,
                ephemeral_message_id: id,
                text: text.to_string(),
                reply_markup: markup.clone().or_else(|| Some(InlineKeyboard::default())),
            };
            match ephemeral::edit_text(&self.bot, &self.group.hold, &edit).await {
                Ok(_) => return Some(Ok(true)),
                Err(e) if e.not_modified() => return Some(Ok(true)),
                // Gone (its person's client let it go): sent anew below.
                Err(e) if e.not_found() => {}
                Err(ephemeral::Error::UnknownMethod(_)) => {
                    *self.group.support.lock().await = Some(false);
                    tracing::warn!(
                        "the Bot API server no longer knows ephemeral messages: hands go to private chats"
                    );
                    return None;
                }
                Err(e @ ephemeral::Error::Refused { .. }) => {
                    self.refuse(cid, uid, &e);
                    return None;
                }
                Err(e) => return Some(Err(failed(e))),
            }
        }
        let send = SendEphemeral {
            chat_id: cid,
            message_thread_id: thread_id(chat).map(|t| t.0 .0),
            text: text.to_string(),
            reply_markup: markup,
            ephemeral_message_parameters: EphemeralMessageParameters {
                receiver_user_id: uid,
                callback_query_id: None,
                replace_callback_query_message: None,
            },
        };
        match ephemeral::send(&self.bot, &self.group.hold, &send).await {
            Ok(m) => {
                self.remember_group_hand(key, user, m.ephemeral_message_id).await;
                Some(Ok(true))
            }
            Err(e @ ephemeral::Error::Refused { .. }) => {
                self.refuse(cid, uid, &e);
                None
            }
            Err(e) => Some(Err(failed(e))),
        }
    }

    /// Answers a press of the table's 🂠 button (callback query `id` by `user`) with their
    /// hand as an ephemeral message tied to the press, which becomes their hand's message from
    /// then on. False: not shown so (hands go to the private chat, or Telegram refused it);
    /// the press is then answered as before (a popup).
    pub(super) async fn hand_on_press(
        &self,
        id: &CallbackQueryId,
        user: &str,
        chat: &ChatRef,
        key: &str,
        text: &str,
        buttons: &[Vec<Button>],
    ) -> bool {
        if !self.hands_in_group(user, chat).await {
            return false;
        }
        let (Some(cid), Ok(uid)) = (chat_id(chat), user.parse::<i64>()) else {
            return false;
        };
        let send = SendEphemeral {
            chat_id: cid.0,
            message_thread_id: thread_id(chat).map(|t| t.0 .0),
            text: text.to_string(),
            reply_markup: keyboard(buttons),
            ephemeral_message_parameters: EphemeralMessageParameters {
                receiver_user_id: uid,
                callback_query_id: Some(id.0.clone()),
                // The table message stays as everyone sees it.
                replace_callback_query_message: Some(false),
            },
        };
        let old = self.group_hand_id(key, user).await;
        let sent = ephemeral::send(&self.bot, &self.group.hold, &send).await;
        {
            // It counts for its person's pace, and shows this hand's newest state: a state of
            // it waiting for the pace is older.
            let mut paced = self.group.paced.lock().expect("paced");
            let p = paced.entry((cid.0, uid)).or_default();
            p.last = Some(Instant::now());
            if sent.is_ok() {
                p.waiting.retain(|w| w.key != key);
            }
        }
        match sent {
            Ok(m) => {
                self.remember_group_hand(key, user, m.ephemeral_message_id).await;
                self.shown
                    .lock()
                    .expect("shown map")
                    .insert((key.to_string(), user.to_string()), digest(text, buttons));
                // The copy it replaces (if its person still has it) goes.
                if let Some(old) = old.filter(|o| *o != m.ephemeral_message_id) {
                    let d = ephemeral::DeleteEphemeral {
                        chat_id: cid.0,
                        receiver_user_id: uid,
                        ephemeral_message_id: old,
                    };
                    if let Err(e) = ephemeral::delete(&self.bot, &self.group.hold, &d).await {
                        tracing::debug!(error = %e, "could not delete a replaced ephemeral hand");
                    }
                }
                true
            }
            Err(e) => {
                tracing::info!(error = %e, "the hand could not be answered as an ephemeral message");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_without_buttons_has_no_keyboard_and_links_stay_links() {
        assert_eq!(keyboard(&[]), None);
        assert_eq!(keyboard(&[vec![]]), None);
        let k = keyboard(&[vec![
            Button {
                label: "9♣".into(),
                token: "s1.p:9C".into(),
                disabled: false,
                card: None,
            },
            Button {
                label: "🔗".into(),
                token: format!("{LINK}https://t.me/x"),
                disabled: false,
                card: None,
            },
        ]])
        .unwrap();
        assert_eq!(
            k.inline_keyboard[0][0],
            ephemeral::Button::callback("9♣", "s1.p:9C")
        );
        assert_eq!(
            k.inline_keyboard[0][1],
            ephemeral::Button::url("🔗", "https://t.me/x")
        );
        // A card that cannot be played now is a disabled button (Bot API 10.3).
        let k = keyboard(&[vec![Button {
            disabled: true,
            ..Button::new("K♠", "s1.p:KS")
        }]])
        .unwrap();
        assert_eq!(
            k.inline_keyboard[0][0],
            ephemeral::Button::disabled("K♠", "s1.p:KS")
        );
    }
}
