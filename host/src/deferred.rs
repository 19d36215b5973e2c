//! Presses whose receiver deferred its answer (Discord: a press not answered within the
//! time Discord waits is acknowledged first, its answer sent later through the
//! interaction's token), kept by the other processes so that the person is answered even if
//! the receiver dies before it answers.
//!
//! A deferred press's fate is settled within its time limit (`owner::PRESS_LIMIT`: no
//! process commits it later), but the receiver that waited for it may be killed before it
//! tells the person, who is then left with a press that did nothing and no word of it.
//! So when it defers, the receiver tells every other live process the press: its name,
//! written with its move wherever it is committed (`Host::handle_named`), and how to reach
//! its person (the interaction's token). When it answers, it tells them so. If the receiver
//! leaves the live processes first, the press's table's owner among those left reads the log
//! once the press's limit is past: its move there under its name stands and the table shows
//! it; otherwise the owner answers "try again" through the token (`Out::FollowUp`). Every
//! process keeps the press, so one that dies as well leaves it to the table's next owner.
//!
//! Kept in memory only, sent straight or through the database like a handed press
//! (`Host::tell`): a press kept by no live process (each that heard it died too, or its
//! message was lost with a connection) is left unanswered, as before.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::i18n::t;
use crate::outbox::{Command, Out, Outbox, Press, Request};
use crate::owner::{owner_among, Chat, Message, Ownership, OwnershipHost, LOG_READ_LIMIT, PRESS_LIMIT};

/// How long after a deferred press's time limit the table's owner waits before it reads the
/// log:
/// a statement that carried the move may still be on its way (the database refuses it
/// once its own clock passes the limit).
const SETTLE: Duration = Duration::from_secs(1);

/// How long telling another process of a deferred press may take (through the database,
/// when it cannot be told straight, it may hang while the database is away): the press's
/// answer waits for it.
const TELL_LIMIT: Duration = Duration::from_millis(500);

/// How often a process that could not be told of a deferred press is told again, and how
/// many times it is tried in all (until the press is answered).
const TELL_AGAIN_EVERY: Duration = Duration::from_secs(1);
const TELL_TRIES: usize = 10;

/// How long a watched press is kept: Discord's interaction token, through which it is
/// answered, lasts 15 minutes.
const KEPT: Duration = Duration::from_secs(14 * 60);

/// A deferred press, as the other processes keep it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct DeferredPress {
    /// Its name, written with its move (`Host::handle_named`).
    name: String,
    table: i64,
    /// The number of the table's last action when the button was drawn: the press's move
    /// is action `seq + 1` if it was committed.
    seq: i64,
    /// No process commits the press's move after this (Unix ms).
    until_ms: i64,
    chat: Chat,
    user: String,
    /// How to reach the person (`Out::FollowUp`).
    follow: String,
}

/// What a process knows of deferred presses.
#[derive(Default)]
pub(crate) struct Deferrals {
    /// This process's, by name: the processes told of each.
    mine: HashMap<String, Vec<String>>,
    /// Other processes' deferred presses, by name: their receiver, the press, and when it
    /// was heard (Unix ms).
    watched: HashMap<String, (String, DeferredPress, i64)>,
}

impl Ownership {
    /// Says that this process deferred its answer to press `req` named `name`
    /// (`handle_named`), and how to reach its person later (`follow`): the other processes
    /// keep it, and the table's owner answers it if this one dies first (see the module's
    /// notes). Nothing when no other process is alive. Each is told at once, within
    /// `TELL_LIMIT`; one that could not be told (through the database, right after it
    /// restarted) is told again every `TELL_AGAIN_EVERY` until the press is answered.
    pub async fn press_deferred(self: &Arc<Self>, req: &Request, name: &str, follow: &str) {
        let Command::Press(Press { token: Ok(tok), .. }) = &req.command else {
            return;
        };
        let me = self.store.process_id().to_string();
        let others: Vec<String> = {
            let owners = self.owners.lock().expect("owners");
            owners.live.iter().filter(|p| **p != me).cloned().collect()
        };
        if others.is_empty() {
            return;
        }
        let press = DeferredPress {
            name: name.to_string(),
            table: tok.table,
            seq: tok.seq,
            // Later than the press's own limit, which counts from when it was received.
            until_ms: crate::store::now_ms() + PRESS_LIMIT.as_millis() as i64,
            chat: Chat::from(&req.chat),
            user: req.user.id.clone(),
            follow: follow.to_string(),
        };
        self.owners
            .lock()
            .expect("owners")
            .deferred
            .mine
            .insert(name.to_string(), Vec::new());
        let mut untold = self.tell_deferred(&press, others).await;
        if untold.is_empty() {
            return;
        }
        let host = Arc::downgrade(self);
        tokio::spawn(async move {
            for _ in 1..TELL_TRIES {
                tokio::time::sleep(TELL_AGAIN_EVERY).await;
                let Some(host) = host.upgrade() else {
                    return;
                };
                {
                    let owners = host.owners.lock().expect("owners");
                    if !owners.deferred.mine.contains_key(&press.name) {
                        return; // answered meanwhile
                    }
                    untold.retain(|p| owners.live.contains(p));
                }
                untold = host.tell_deferred(&press, untold).await;
                if untold.is_empty() {
                    return;
                }
            }
        });
    }

    /// Tells each process of `to` of this process's deferred press, all at once
    /// (`tell_each`), and records those told with the press (`Deferrals::mine`); one told
    /// after the press was answered is told that too. Returns those not told.
    async fn tell_deferred(self: &Arc<Self>, press: &DeferredPress, to: Vec<String>) -> Vec<String> {
        let me = self.store.process_id().to_string();
        let told = self
            .tell_each(to, |p| Message::Deferred {
                to: p.to_string(),
                from: me.clone(),
                press: press.clone(),
            })
            .await;
        let mut untold = Vec::new();
        let mut late = Vec::new();
        for (p, told) in told {
            if let Err(e) = told {
                tracing::warn!(error = %e, "could not tell another process of a deferred press (tried again)");
                untold.push(p);
                continue;
            }
            match self
                .owners
                .lock()
                .expect("owners")
                .deferred
                .mine
                .get_mut(&press.name)
            {
                Some(all) => all.push(p),
                None => late.push(p),
            }
        }
        self.tell_answered(late, &press.name).await;
        untold
    }

    /// Says that this process answered its deferred press `name` (`press_deferred`).
    pub async fn deferred_answered(self: &Arc<Self>, name: &str) {
        let told = self.owners.lock().expect("owners").deferred.mine.remove(name);
        self.tell_answered(told.unwrap_or_default(), name).await;
    }

    /// Tells each process of `to`, all at once, that this process answered its deferred
    /// press `name`.
    async fn tell_answered(self: &Arc<Self>, to: Vec<String>, name: &str) {
        let me = self.store.process_id().to_string();
        let told = self
            .tell_each(to, |p| Message::DeferredAnswered {
                to: p.to_string(),
                from: me.clone(),
                name: name.to_string(),
            })
            .await;
        for (_, told) in told {
            if let Err(e) = told {
                tracing::debug!(error = %e, "could not tell another process a deferred press was answered");
            }
        }
    }

    /// Sends each process of `to` its `message`, all at once, each within `TELL_LIMIT`
    /// (through the database, when it cannot be told straight, it may hang while the
    /// database is away). Returns how each went.
    async fn tell_each(
        self: &Arc<Self>,
        to: Vec<String>,
        message: impl Fn(&str) -> Message,
    ) -> Vec<(String, Result<(), String>)> {
        let mut tells = tokio::task::JoinSet::new();
        for p in to {
            let payload = serde_json::to_string(&message(&p)).expect("a deferred press serializes");
            let host = self.clone();
            tells.spawn(async move {
                let told = match tokio::time::timeout(TELL_LIMIT, host.tell(&p, &payload)).await {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(_) => Err(format!("no answer within {TELL_LIMIT:?}")),
                };
                (p, told)
            });
        }
        let mut all = Vec::new();
        while let Some(joined) = tells.join_next().await {
            all.extend(joined.ok());
        }
        all
    }

    /// Another process's deferred press, kept here.
    pub(crate) fn watch_deferred(&self, from: String, press: DeferredPress) {
        let now = crate::store::now_ms();
        let mut owners = self.owners.lock().expect("owners");
        owners
            .deferred
            .watched
            .insert(press.name.clone(), (from, press, now));
    }

    /// Process `from` answered its deferred press `name` itself.
    pub(crate) fn unwatch_deferred(&self, from: &str, name: &str) {
        let mut owners = self.owners.lock().expect("owners");
        if owners
            .deferred
            .watched
            .get(name)
            .is_some_and(|(f, _, _)| f == from)
        {
            owners.deferred.watched.remove(name);
        }
    }

    /// The answers to kept presses whose receiver died, of the tables this process owns:
    /// "try again" for each whose move is not in the log under its name once its limit is
    /// past. A press whose log could not be read is looked at again at the next sweep.
    pub(crate) async fn follow_up_deferred<H: OwnershipHost>(&self, host: &Arc<H>) -> Outbox {
        let now = crate::store::now_ms();
        let me = self.store.process_id();
        let due: Vec<DeferredPress> = {
            let mut owners = self.owners.lock().expect("owners");
            let owners = &mut *owners;
            let live = &owners.live;
            let left = &owners.left;
            owners
                .deferred
                .watched
                .retain(|_, (_, _, heard)| now - *heard < KEPT.as_millis() as i64);
            owners
                .deferred
                .watched
                .values()
                .filter(|(from, p, heard)| {
                    // Gone: seen leave, or never seen here and long enough ago that it would
                    // have been (it told this process, so it was alive then).
                    let gone = !live.contains(from)
                        && (left.contains(from) || now - *heard > crate::ownership::BEAT_STALE_MS);
                    gone && now > p.until_ms + SETTLE.as_millis() as i64
                        && owner_among(p.table, live).is_some_and(|o| o == me)
                })
                .map(|(_, p, _)| p.clone())
                .collect()
        };
        let mut out = Outbox::default();
        for press in due {
            let read = tokio::time::timeout(
                LOG_READ_LIMIT,
                self.store.action_press(press.table, press.seq + 1),
            )
            .await;
            let Ok(Ok(made_by)) = read else {
                continue;
            };
            self.owners
                .lock()
                .expect("owners")
                .deferred
                .watched
                .remove(&press.name);
            if made_by.flatten().as_deref() == Some(press.name.as_str()) {
                // Committed: the table shows the move, and the person their hand.
                tracing::info!(
                    table = press.table,
                    "a deferred press of a process that died is in the log"
                );
                continue;
            }
            let Some(chat) = press.chat.chat_ref() else {
                continue;
            };
            tracing::info!(
                table = press.table,
                "a deferred press of a process that died was not committed; answered \"try again\""
            );
            let lang = host.lang_soon(&chat, &press.user).await;
            out.push(Out::FollowUp {
                follow: press.follow,
                text: t(lang, "press-try-again", &[]),
            });
        }
        out
    }
}
