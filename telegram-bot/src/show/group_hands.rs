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
//! The 🂠 button of the table message answers its presser with their current hand as an
//! ephemeral message tied to the press (`callback_query_id`): Telegram does not promise to
//! deliver one to a person who is offline, and this way the hand is one tap away.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use stikis_host::store::{ChatRef, Platform};
use stikis_host::Button;
use teloxide::types::CallbackQueryId;
use teloxide::{ApiError, RequestError};

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
        match ephemeral::probe(&self.bot, chat, user).await {
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
    pub(super) async fn group_hand(
        &self,
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
        let markup = keyboard(buttons);
        if let Some(id) = self.group_hand_id(key, user).await {
            let edit = ephemeral::EditEphemeralText {
                chat_id: cid,
                receiver_user_id: uid,
                ephemeral_message_id: id,
                text: text.to_string(),
                reply_markup: markup.clone().or_else(|| Some(InlineKeyboard::default())),
            };
            match ephemeral::edit_text(&self.bot, &edit).await {
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
        match ephemeral::send(&self.bot, &send).await {
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
        match ephemeral::send(&self.bot, &send).await {
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
                    if let Err(e) = ephemeral::delete(&self.bot, &d).await {
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
            },
            Button {
                label: "🔗".into(),
                token: format!("{LINK}https://t.me/x"),
                disabled: false,
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
