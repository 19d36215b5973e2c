//! One owner per running table when several processes share a PostgreSQL database.
//!
//! The owner of a table is derived from the processes alive now (their heartbeats in
//! `processes`), by rendezvous hashing: every process weighs (table, process) the same way and
//! the heaviest live process owns the table. No lease is kept or renewed; when a process
//! starts or stops beating, only its own tables change owner. A process counts as alive only
//! while it has a session open (its sessions carry its name), so one that was killed is gone
//! the moment the server closes its connections; every process reads the live set every
//! `OWNERS_EVERY` and takes up the tables it gained at once (`Host::sweep_due`).
//!
//! The owner keeps the table in memory, moves it, runs its computer players and its turn
//! timer. A process that receives a press for a table another process owns hands it over
//! (straight over a connection between the two, `crate::peers`; else `NOTIFY` on the owner's
//! own channel, [`HANDOFF_CHANNEL`] and its process id): the owner
//! handles it as if it had received it, shows the table's messages itself, and sends back
//! what only the receiver can give the person (the short answer, a personal message, the
//! presser's own hand where only the receiver can show it: a Discord hand in an ephemeral
//! message, edited through the interaction's token). Where any process can edit the
//! presser's hand message (Telegram, and a Discord direct message), the owner shows it too:
//! the receiver drawing it in its answer while the owner edits it for the next move could
//! land the older version last. On Telegram it sends back a copy to read (a popup's legend),
//! and only the owner shows its tables' hands and need not claim their versions
//! (`Store::shows_alone`). An owner that does
//! not answer in time is answered "try again" for (the press carries its time limit, past
//! which the owner never commits it).
//!
//! The action log's key (table, seq) stays the arbiter: two processes that briefly disagree
//! about the live set may both move a table, and the second commit of a number fails.
//! On SQLite there is one process, which owns everything.

pub use crate::ownership::owner_among;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::i18n::{t, Lang};
use crate::outbox::{Button, Command, HandDelivery, Out, Outbox, Press, Request, User};
use crate::ownership::BEAT_STALE_MS;
pub(crate) use crate::peers::HandoffTask;
use crate::store::{ChatRef, Platform, Store, StoreError};
use crate::table::{HostError, Shared};

/// The start of the PostgreSQL channels on which presses are handed to their table's owner,
/// and answered (`stikis_handoff_<process id>`).
pub const HANDOFF_CHANNEL: &str = "stikis_handoff";

/// The channel of process `process`'s messages: each process listens on its own, so a
/// message wakes only the process it is for (not every process on the database).
fn channel_of(process: &str) -> String {
    format!("{HANDOFF_CHANNEL}_{process}")
}

/// A handed press's name among all processes: its receiver and the receiver's number for it.
/// The owner writes it with the press's move (the log's `press` column).
fn press_name(receiver: &str, n: u64) -> String {
    format!("{receiver}/{n}")
}

/// How often each process reads which processes are alive (on PostgreSQL): a killed
/// process's sessions close at once, so its tables change owner within about this long.
pub const OWNERS_EVERY: Duration = Duration::from_millis(500);

/// How many processes that left the live set each process remembers (`Host::known_gone`).
const LEFT_KEPT: usize = 256;

/// How long a person's press may take to be committed, from the moment a process received
/// it. A press not committed by then is answered "try again" and never committed later.
pub const PRESS_LIMIT: Duration = Duration::from_millis(2_500);

/// How much longer than its limit a press's receiver waits for the owner's answer (the
/// owner commits within the limit, then its computer players move before it answers).
pub const ANSWER_GRACE: Duration = Duration::from_millis(1_500);

/// How long a receiver reads the log for a press whose answer never came (within the 5 s in
/// which every press is answered).
pub(crate) const LOG_READ_LIMIT: Duration = Duration::from_millis(500);

/// NOTIFY's payload limit is 8,000 bytes; an answer larger than this leaves the presser's
/// hand to the owner to show.
const MAX_PAYLOAD: usize = 7_600;

/// A press's move whose outcome is not known yet (`Host::settle_later`).
pub(crate) enum Unknown {
    /// This process's commit of it lost its answer (`StoreError::Unknown`).
    Commit(crate::store::Unsettled),
    /// It was handed to its table's owner, whose answer never came, and the log could not
    /// be read in time: action `seq` of `table` is the press's if it was written under one
    /// of `names` (the owner commits it within the press's limit, so by now it is there or
    /// never will be).
    Handed {
        table: i64,
        seq: i64,
        names: Vec<String>,
    },
}

impl Unknown {
    pub(crate) fn at(&self) -> (i64, i64) {
        match self {
            Unknown::Commit(u) => (u.table, u.seq),
            Unknown::Handed { table, seq, .. } => (*table, *seq),
        }
    }

    pub(crate) async fn stood(&self, store: &Store) -> Result<bool, StoreError> {
        match self {
            Unknown::Commit(u) => store.settle(u).await,
            Unknown::Handed { table, seq, names } => Ok(store
                .action_press(*table, *seq)
                .await?
                .flatten()
                .is_some_and(|p| names.contains(&p))),
        }
    }
}

/// What the ownership part asks of the host around it: the tables this process holds (to
/// drop those it no longer owns, and to answer a handed press from the log), where a press
/// is handled here, the languages of the people, and the live pages (`Watching`), which the
/// other processes tell of. The `Host` answers.
pub(crate) trait OwnershipHost: Send + Sync + 'static {
    fn ownership(&self) -> &Arc<Ownership>;
    fn watching(&self) -> &crate::watching::Watching;
    /// The ids of the tables this process holds.
    fn held_tables(&self) -> Vec<i64>;
    fn cached(&self, id: i64) -> Option<Shared>;
    /// Drops this process's copy of table `id`.
    fn evict(&self, id: i64);
    fn table(&self, id: i64) -> impl Future<Output = Result<Option<Shared>, HostError>> + Send;
    fn user_lang(&self, chat: &ChatRef, user: &str) -> impl Future<Output = Lang> + Send;
    /// `user_lang`, or the default when the database is slow to say.
    fn lang_soon(&self, chat: &ChatRef, user: &str) -> impl Future<Output = Lang> + Send;
    /// Handles a request in this process, by `until_ms` (a press).
    fn handle_here(
        self: &Arc<Self>,
        req: Request,
        until_ms: i64,
        handed: Option<String>,
    ) -> impl Future<Output = Outbox> + Send;
    /// Tells the person the outcome of `what` once it is known.
    fn settle_later(&self, req: &Request, what: Unknown, lang: Lang);
    /// Shows an outbox whose held-back hands were taken out already.
    fn show_unheld(&self, out: Outbox);
}

/// The ownership part's own state: the live processes and the presses handed between them.
pub(crate) struct Ownership {
    pub(crate) store: Store,
    /// The live processes, which own the tables, and the presses handed to owners.
    pub(crate) owners: Mutex<Owners>,
    /// Listens for handed presses and their answers (PostgreSQL); ends with the host.
    pub(crate) handoff_task: HandoffTask,
    /// Reads the live processes every `OWNERS_EVERY` (PostgreSQL); ends with the host.
    pub(crate) owners_task: HandoffTask,
    /// Told when the live processes changed: the next sweep is due at once (`sweep_due`).
    pub(crate) owners_moved: tokio::sync::Notify,
    /// The connections to the other processes on PostgreSQL (None: on SQLite, or where this
    /// process could not listen; everything then goes through the database).
    pub(crate) peers: Option<Arc<crate::peers::Peers>>,
}

impl Ownership {
    pub(crate) fn new(store: Store, peers: Option<Arc<crate::peers::Peers>>) -> Ownership {
        Ownership {
            store,
            owners: Mutex::default(),
            handoff_task: HandoffTask::default(),
            owners_task: HandoffTask::default(),
            owners_moved: tokio::sync::Notify::new(),
            peers,
        }
    }
}

/// What this process knows of the others.
#[derive(Default)]
pub(crate) struct Owners {
    /// The processes alive at the last sweep, by id; empty before the first (and on
    /// SQLite): this process owns everything.
    pub(crate) live: Vec<String>,
    /// Processes of `live` that the last read of the live set did not find: kept for one
    /// more read (a moment without a session, e.g. while every connection is made again
    /// after a database restart, does not move tables), dropped if the next misses them too.
    missing: Vec<String>,
    /// Processes this one saw alive and then saw leave the live set (the latest few hundred):
    /// known to be gone, unlike one it never saw (it may have just started).
    pub(crate) left: std::collections::VecDeque<String>,
    /// The live processes as the last `Host::owned_changes` found them: a table this
    /// process owns now but did not own then is read afresh even if a copy is in memory.
    swept: Vec<String>,
    /// Presses handed over, waiting for their answer, by number: the owner they were handed
    /// to, and where its answer goes (None: that owner is gone, see `refresh_owners`).
    waiting: HashMap<u64, (String, AnswerTo)>,
    /// Deferred presses: this process's, and those it answers if their receiver dies
    /// (`crate::deferred`).
    pub(crate) deferred: crate::deferred::Deferrals,
    next: u64,
}

/// Where an owner's answer to a handed press goes: None when the owner is gone.
type AnswerTo = oneshot::Sender<Option<Vec<Handed>>>;

/// Where a press is handled (`Host::hand_over`).
pub(crate) enum Route {
    /// In this process, which commits it by `until_ms` or never.
    Here { until_ms: i64 },
    /// By its table's owner, another process: what the receiver shows.
    Handed(Outbox),
}

/// How one hand-over of a press ended.
enum Handoff {
    /// The owner's answer.
    Answered(Vec<Handed>),
    /// No answer in time (`notified`: the press reached the database to be told).
    Unanswered { notified: bool },
    /// The owner was found gone while the press waited for it.
    OwnerGone,
}

/// A message between processes on [`HANDOFF_CHANNEL`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub(crate) enum Message {
    /// A press for the owner `to`, from process `from`, to be committed by `until_ms`.
    Press {
        to: String,
        from: String,
        n: u64,
        until_ms: i64,
        chat: Chat,
        user: Person,
        token: String,
        /// The press's own name, written with its move (absent: `press_name(from, n)`).
        #[serde(default)]
        name: Option<String>,
    },
    /// The owner's answer to press `n` of process `to`.
    Answer { to: String, n: u64, outs: Vec<Handed> },
    /// Process `from` has live pages of these (table, user) seats open (`on`), or no longer
    /// (sent on the channel of each other process alive as `from` sees them).
    Watch {
        from: String,
        on: bool,
        seats: Vec<(i64, String)>,
    },
    /// Process `from` has live pages of these tables open (`on`), or no longer: the others
    /// announce those tables' changes to it meanwhile (`Host::follow`). A `Watch` that is
    /// `on` counts as one of these for its tables (a process from before `Follow` sends only
    /// that).
    Follow {
        from: String,
        on: bool,
        tables: Vec<i64>,
    },
    /// Process `from` deferred its answer to this press: `to` keeps it, and answers it if
    /// `from` dies first and `to` then owns the press's table (`crate::deferred`).
    Deferred {
        to: String,
        from: String,
        press: crate::deferred::DeferredPress,
    },
    /// Process `from` answered its deferred press `name` itself.
    DeferredAnswered { to: String, from: String, name: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Chat {
    platform: String,
    community: String,
    chat: String,
    thread: Option<String>,
}

impl From<&ChatRef> for Chat {
    fn from(c: &ChatRef) -> Chat {
        Chat {
            platform: c.platform.as_str().to_string(),
            community: c.community.clone(),
            chat: c.chat.clone(),
            thread: c.thread.clone(),
        }
    }
}

impl Chat {
    pub(crate) fn chat_ref(&self) -> Option<ChatRef> {
        let platform: Platform = self.platform.parse().ok()?;
        let mut c = ChatRef::new(platform, self.community.clone(), self.chat.clone());
        c.thread = self.thread.clone();
        Some(c)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Person {
    id: String,
    name: String,
    admin: bool,
}

/// What the owner sends back: the outs only the receiver of the press can show.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub(crate) enum Handed {
    Reply {
        text: String,
    },
    Personal {
        user: String,
        chat: Chat,
        text: String,
        closed: String,
    },
    Private {
        user: String,
        chat: Chat,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        /// Absent from an answer of a process that predates hand versions: 0, the oldest.
        #[serde(default)]
        version: i64,
        /// The owner showed it (`HandDelivery::Shown`); absent from an answer of a
        /// process that predates this: the receiver shows it.
        #[serde(default)]
        by_owner: bool,
    },
}

impl Handed {
    fn out(self) -> Option<Out> {
        Some(match self {
            Handed::Reply { text } => Out::Reply { text },
            Handed::Personal {
                user,
                chat,
                text,
                closed,
            } => Out::Personal {
                user,
                chat: chat.chat_ref()?,
                text,
                closed,
            },
            Handed::Private {
                user,
                chat,
                key,
                text,
                buttons,
                version,
                by_owner,
            } => Out::Private {
                user,
                chat: chat.chat_ref()?,
                key,
                text,
                buttons,
                version,
                delivery: if by_owner {
                    HandDelivery::Shown
                } else {
                    HandDelivery::Show
                },
            },
        })
    }
}

/// Who shows the presser's own hands after a press handed to the table's owner.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PresserHands {
    /// The receiver: a Discord press made in a server's channel, whose hand only the
    /// receiver can show (an ephemeral message, edited through the interaction's token that
    /// only the receiver holds: the 🂠 button's hand, a person whose direct messages are
    /// closed).
    Receiver,
    /// The owner, which sends a copy back to be read (the 🂠 button's popup legend and its
    /// hand in the group): on Telegram, where any process can edit a person's private
    /// messages, so that only the owner shows a table's hands.
    Owner,
    /// The owner, without a copy: an answer too large for `NOTIFY`, a Telegram press whose
    /// receiver reads nothing of the hand (any but the 🂠 button), or a Discord press made
    /// in a direct message, whose hand message any process can edit through the API. Were
    /// the receiver to draw it in the interaction's answer while the owner edits it for the
    /// next move, the older of the two could land last (a hand gone back to older buttons).
    OwnerOnly,
}

impl PresserHands {
    /// Who shows them for a press of `action` made in `chat`.
    fn for_press(chat: &ChatRef, action: Option<&str>) -> PresserHands {
        match chat.platform {
            // Only the 🂠 button's answer reads the hand (its popup's legend, its hand shown
            // in the group): a card's press sends back its answer alone.
            Platform::Telegram if action == Some(crate::outbox::SHOW_HAND) => PresserHands::Owner,
            Platform::Telegram => PresserHands::OwnerOnly,
            Platform::Discord if chat.community == crate::store::DISCORD_DM => PresserHands::OwnerOnly,
            _ => PresserHands::Receiver,
        }
    }
}

/// Splits an owner's outbox into what goes back to the press's receiver (the answer, a
/// personal message, the presser's own hands, in order) and what the owner shows itself.
fn split(out: Outbox, presser: &str, hands: PresserHands) -> (Vec<Handed>, Outbox) {
    let mut back = Vec::new();
    let mut rest = Outbox::default();
    for o in out.0 {
        match o {
            Out::Reply { text } => back.push(Handed::Reply { text }),
            Out::Personal {
                user,
                chat,
                text,
                closed,
            } => back.push(Handed::Personal {
                user,
                chat: Chat::from(&chat),
                text,
                closed,
            }),
            Out::Private {
                user,
                chat,
                key,
                text,
                buttons,
                version,
                delivery: _,
            } if user == presser => {
                let by_owner = hands != PresserHands::Receiver;
                if by_owner {
                    // Shown at once, as the receiver would have: its person just acted.
                    rest.push(Out::Private {
                        user: user.clone(),
                        chat: chat.clone(),
                        key: key.clone(),
                        text: text.clone(),
                        buttons: buttons.clone(),
                        version,
                        delivery: HandDelivery::Pressed,
                    });
                }
                if hands != PresserHands::OwnerOnly {
                    back.push(Handed::Private {
                        user,
                        chat: Chat::from(&chat),
                        key,
                        text,
                        buttons,
                        version,
                        by_owner,
                    });
                }
            }
            o => rest.push(o),
        }
    }
    (back, rest)
}

/// The table a press is for, when it is one a table's owner should handle (moves and a
/// table's lobby buttons; a tournament's buttons are not a table's).
fn pressed_table(req: &Request) -> Option<i64> {
    let Command::Press(Press { token: Ok(tok), .. }) = &req.command else {
        return None;
    };
    (!tok.action.starts_with("T:")).then_some(tok.table)
}

impl Ownership {
    /// The process that owns table `id`, when it is not this one.
    pub(crate) fn owner_elsewhere(&self, id: i64) -> Option<String> {
        let owners = self.owners.lock().expect("owners");
        let me = self.store.process_id();
        match owner_among(id, &owners.live) {
            Some(o) if o != me => Some(o.to_string()),
            _ => None,
        }
    }

    /// True when `process` is known to be gone: on PostgreSQL, one this process saw alive and
    /// then saw leave (not merely one it has not seen: a process that started a moment ago,
    /// or this one before its first read of the live set); on SQLite, which one process uses
    /// at a time, any other process (an earlier run of this one).
    pub(crate) fn known_gone(&self, process: &str) -> bool {
        if process == self.store.process_id() {
            return false;
        }
        if !self.store.is_postgres() {
            return true;
        }
        let owners = self.owners.lock().expect("owners");
        !owners.live.iter().any(|p| p == process) && owners.left.iter().any(|p| p == process)
    }

    /// True when this process owns table `id` (always on SQLite, and before the first sweep).
    pub fn owns(&self, id: i64) -> bool {
        self.owner_elsewhere(id).is_none()
    }

    /// Reads the live processes after this process's heartbeat. True when the set changed
    /// (tables may have changed owner). A process that could not beat keeps its last view.
    pub(crate) async fn refresh_owners<H: OwnershipHost>(
        self: &Arc<Self>,
        host: &Arc<H>,
    ) -> Result<bool, crate::store::StoreError> {
        if !self.store.is_postgres() {
            return Ok(false);
        }
        let since = crate::store::now_ms() - BEAT_STALE_MS;
        let peers = self.store.live_peers(since).await?;
        let mut live: Vec<String> = peers.iter().map(|(p, _)| p.clone()).collect();
        if let Some(links) = &self.peers {
            links.set_live(peers);
        }
        let me = self.store.process_id().to_string();
        if !live.contains(&me) {
            // Just beaten: this process is alive, whatever a slow clock says.
            live.push(me);
            live.sort();
        }
        let mut owners = self.owners.lock().expect("owners");
        let missing: Vec<String> = owners
            .live
            .iter()
            .filter(|p| !live.contains(p) && !owners.missing.contains(p))
            .cloned()
            .collect();
        if !missing.is_empty() {
            live.extend(missing.iter().cloned());
            live.sort();
        }
        owners.missing = missing;
        self.store.set_live(live.clone());
        let changed = owners.live != live;
        let gone: Vec<String> = owners
            .live
            .iter()
            .filter(|p| !live.contains(p))
            .cloned()
            .collect();
        for p in gone {
            if owners.left.len() >= LEFT_KEPT {
                owners.left.pop_front();
            }
            owners.left.push_back(p);
        }
        if changed {
            tracing::info!(
                processes = live.len(),
                "the live processes changed; tables change owner"
            );
        }
        owners.live = live.clone();
        if changed {
            // A press handed to a process that is gone will not be answered by it: its
            // receiver looks in the log and hands it to the new owner at once, within the
            // press's time (`hand_over`), rather than wait out the limit.
            let gone: Vec<u64> = owners
                .waiting
                .iter()
                .filter(|(_, (to, _))| !live.contains(to))
                .map(|(n, _)| *n)
                .collect();
            for n in gone {
                if let Some((_, tx)) = owners.waiting.remove(&n) {
                    let _ = tx.send(None);
                }
            }
        }
        drop(owners);
        if changed {
            // A process that left keeps no page open; one that came does not know ours.
            host.watching().forget_others_than(&live);
            self.tell_follows(true, host.watching().followed_here());
            self.tell_watches(true, host.watching().watched_here());
        }
        Ok(changed)
    }

    /// Reads the live processes every `OWNERS_EVERY` while the host lives, and makes the
    /// next sweep due at once when they changed (`Host::sweep_due`).
    pub(crate) fn watch_owners<H: OwnershipHost>(&self, host: &Arc<H>) {
        let host = Arc::downgrade(host);
        let task = tokio::spawn(async move {
            let mut tick = tokio::time::interval(OWNERS_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(host) = host.upgrade() else { return };
                let ownership = host.ownership();
                match ownership.refresh_owners(&host).await {
                    Ok(true) => ownership.owners_moved.notify_one(),
                    Ok(false) => {}
                    Err(e) => tracing::debug!(error = %e, "could not read the live processes"),
                }
            }
        });
        *self.owners_task.0.lock().expect("owners task") = Some(task);
    }

    /// Hands a press to its table's owner when that is another process, and returns the
    /// owner's answer ("try again" when none came in time). `Route::Here`: this process
    /// handles it, by the time given. An owner found gone while the press waits for it (its
    /// sessions closed: it commits nothing more) leaves the press to the new owner, within
    /// the same time, unless the log shows it committed the press's move before it went.
    /// `name`: the press's own name, if its receiver gave it one (a Discord interaction's),
    /// written with its move wherever it is committed.
    pub(crate) async fn hand_over<H: OwnershipHost>(
        &self,
        host: &Arc<H>,
        req: &Request,
        received_ms: i64,
        name: Option<&str>,
    ) -> Route {
        let until_ms = received_ms + PRESS_LIMIT.as_millis() as i64;
        let here = Route::Here { until_ms };
        let Some(table) = pressed_table(req) else {
            return here;
        };
        let Command::Press(pressed) = &req.command else {
            return here;
        };
        let Some(mut owner) = self.owner_elsewhere(table) else {
            return here;
        };
        // The whole wait is bounded, whichever owners the press goes to.
        let left = Duration::from_millis((until_ms - crate::store::now_ms()).max(0) as u64);
        let deadline = tokio::time::Instant::now() + left + ANSWER_GRACE;
        let mut sent = false;
        // This press's names at the owners it went to: a move in the log under one of them
        // is this press's.
        let mut names = Vec::new();
        let answer = loop {
            match self
                .hand_to(&owner, req, &pressed.wire, until_ms, deadline, name, &mut names)
                .await
            {
                Handoff::Answered(outs) => break Some(outs),
                Handoff::Unanswered { notified } => {
                    sent |= notified;
                    break None;
                }
                Handoff::OwnerGone => {
                    // Not read in time: the next owner's answer is true (the move at that
                    // number, if made, makes the press out of date there).
                    if let FromLog::Found(found) = self.answer_from_log(host, req, pressed, &names).await {
                        return Route::Handed(found);
                    }
                    crate::observe::handed_over("owner_gone");
                    match self.owner_elsewhere(table) {
                        None => return here,
                        Some(next) if next != owner => owner = next,
                        // Not seen gone after all: answered "try again" below.
                        Some(_) => break None,
                    }
                }
            }
        };
        let mut out = Outbox::default();
        match answer {
            Some(outs) => {
                crate::observe::handed_over("answered");
                // Its owner counted the press's own outcome; here, the whole wait for it.
                crate::observe::move_outcome("handed");
                out.0.extend(outs.into_iter().filter_map(Handed::out));
            }
            None => {
                // A press never handed over was never committed: no need to look.
                let unread = if sent {
                    match self.answer_from_log(host, req, pressed, &names).await {
                        FromLog::Found(found) => return Route::Handed(found),
                        FromLog::Absent => None,
                        FromLog::Unread(unknown) => Some(unknown),
                    }
                } else {
                    None
                };
                crate::observe::handed_over("unanswered");
                let lang = host.lang_soon(&req.chat, &req.user.id).await;
                match unread {
                    None => {
                        crate::observe::move_outcome("error");
                        out.reply(t(lang, "press-try-again", &[]));
                    }
                    Some(unknown) => {
                        // Its owner may have committed it: the person is told the outcome is
                        // not known yet, and told it once the log can be read.
                        tracing::warn!(
                            table,
                            "a handed press's answer never came and the log could not be read; the person is told once it can"
                        );
                        crate::observe::move_outcome("unknown");
                        host.settle_later(req, unknown, lang);
                        out.reply(t(lang, "press-unsure", &[]));
                    }
                }
            }
        }
        Route::Handed(out)
    }

    /// Hands a press to `owner` and waits for its answer until `deadline`; adds the name it
    /// gave the press to `names` (its own `name` if it has one).
    #[allow(clippy::too_many_arguments)]
    async fn hand_to(
        &self,
        owner: &str,
        req: &Request,
        token: &str,
        until_ms: i64,
        deadline: tokio::time::Instant,
        name: Option<&str>,
        names: &mut Vec<String>,
    ) -> Handoff {
        let (tx, rx) = oneshot::channel();
        let n = {
            let mut owners = self.owners.lock().expect("owners");
            owners.next += 1;
            let n = owners.next;
            owners.waiting.insert(n, (owner.to_string(), tx));
            n
        };
        let named = name.map_or_else(|| press_name(self.store.process_id(), n), str::to_string);
        if !names.contains(&named) {
            names.push(named);
        }
        let message = Message::Press {
            to: owner.to_string(),
            from: self.store.process_id().to_string(),
            n,
            until_ms,
            chat: Chat::from(&req.chat),
            user: Person {
                id: req.user.id.clone(),
                name: req.user.name.clone(),
                admin: req.user.admin,
            },
            token: token.to_string(),
            name: name.map(str::to_string),
        };
        let payload = serde_json::to_string(&message).expect("a handoff serializes");
        // Sending waits for a connection too: within the same bound.
        let mut notified = false;
        let answer = tokio::time::timeout_at(deadline, async {
            match self.tell(owner, &payload).await {
                Ok(()) => {
                    notified = true;
                    rx.await.ok()
                }
                Err(e) => {
                    crate::observe::store_error("handoff", &e);
                    None
                }
            }
        })
        .await;
        self.owners.lock().expect("owners").waiting.remove(&n);
        match answer {
            Ok(Some(Some(outs))) => Handoff::Answered(outs),
            Ok(Some(None)) => Handoff::OwnerGone,
            _ => Handoff::Unanswered { notified },
        }
    }

    /// A handed press whose answer never came (its owner died after committing, or the
    /// answer was lost while the database restarted): if the log holds the press's move, the
    /// person is told "✓" and shown their hand as the database has it, not "try again" for a
    /// move that stands. By now the move is committed or never will be (the owner commits it
    /// only within `PRESS_LIMIT`). The press's move is the one written under one of its
    /// `names` (`press_name`); a move at that number made by anything else (another press of
    /// the same button, handed over too, another button, the turn timer) is not this press's.
    /// `Absent`: not in the log, or someone else's; `Unread`: the log could not be read in
    /// time (the database just restarted), so "try again" could be untrue.
    async fn answer_from_log<H: OwnershipHost>(
        &self,
        host: &Arc<H>,
        req: &Request,
        pressed: &Press,
        names: &[String],
    ) -> FromLog {
        let Ok(tok) = &pressed.token else {
            return FromLog::Absent;
        };
        let user = req.user.id.as_str();
        let made_by =
            match tokio::time::timeout(LOG_READ_LIMIT, self.store.action_press(tok.table, tok.seq + 1)).await
            {
                Ok(Ok(made_by)) => made_by.flatten(),
                Ok(Err(_)) | Err(_) => {
                    return FromLog::Unread(Unknown::Handed {
                        table: tok.table,
                        seq: tok.seq + 1,
                        names: names.to_vec(),
                    })
                }
            };
        if !made_by.is_some_and(|p| names.contains(&p)) {
            return FromLog::Absent;
        }
        crate::observe::handed_over("found_in_log");
        crate::observe::move_outcome("applied");
        let mut out = Outbox::default();
        // This process's copy, if any, is behind the move: read afresh.
        host.evict(tok.table);
        if let Ok(Ok(Some(shared))) = tokio::time::timeout(LOG_READ_LIMIT, host.table(tok.table)).await {
            let live = shared.lock().await;
            if let Some(seat) = live.seat_of(user) {
                let lang = host.user_lang(&live.row.chat, user).await;
                out.push(live.hand_message(seat, user, lang));
            }
        }
        out.reply("✓");
        FromLog::Found(out)
    }

    /// How many messages this process sent to the others: (straight, through the database;
    /// every one through the database where it does not listen for them). For tests.
    #[doc(hidden)]
    pub fn told_others(&self) -> (u64, u64) {
        self.peers.as_ref().map_or((0, 0), |p| p.told())
    }

    /// Sends `payload` to process `to`: straight when it listens for the others
    /// (`crate::peers`), else through the database.
    pub(crate) async fn tell(&self, to: &str, payload: &str) -> crate::store::Result<()> {
        match &self.peers {
            Some(peers) => peers.send(to, &channel_of(to), payload).await,
            None => self.store.notify(&channel_of(to), payload).await,
        }
    }

    /// Listens for presses handed to this process and for answers to the ones it handed over
    /// through the database (PostgreSQL; nothing on SQLite). Those that come straight from
    /// the other processes are heard by `crate::peers`.
    pub(crate) fn listen_handoffs<H: OwnershipHost>(&self, host: &Arc<H>) {
        let host = Arc::downgrade(host);
        let task = self
            .store
            .listen(channel_of(self.store.process_id()), move |payload| {
                if let (Some(payload), Some(host)) = (payload, host.upgrade()) {
                    host.ownership().heard(&host, payload);
                }
            });
        if let Some(task) = task {
            *self.handoff_task.0.lock().expect("handoff task") = Some(task);
        }
    }

    /// A message from another process (`Message`).
    pub(crate) fn heard<H: OwnershipHost>(&self, host: &Arc<H>, payload: &str) {
        let Ok(message) = serde_json::from_str::<Message>(payload) else {
            tracing::warn!("a handoff message that is not one");
            return;
        };
        let me = self.store.process_id();
        match message {
            Message::Watch { from, on, seats } => {
                if on {
                    let tables: Vec<i64> = seats.iter().map(|(t, _)| *t).collect();
                    host.watching().followed_by(&from, true, &tables);
                }
                host.watching().watched_elsewhere(&from, on, seats);
            }
            Message::Follow { from, on, tables } => host.watching().followed_by(&from, on, &tables),
            Message::Answer { to, n, outs } if to == me => {
                if let Some((_, tx)) = self.owners.lock().expect("owners").waiting.remove(&n) {
                    let _ = tx.send(Some(outs));
                }
            }
            Message::Press {
                to,
                from,
                n,
                until_ms,
                chat,
                user,
                token,
                name,
            } if to == me => {
                let name = name.unwrap_or_else(|| press_name(&from, n));
                let host = Arc::clone(host);
                tokio::spawn(async move {
                    host.ownership()
                        .take_handed(&host, from, n, until_ms, chat, user, token, name)
                        .await;
                });
            }
            Message::Deferred { to, from, press } if to == me => self.watch_deferred(from, press),
            Message::DeferredAnswered { to, from, name } if to == me => self.unwatch_deferred(&from, &name),
            _ => {}
        }
    }

    /// Tells the other processes that pages of `seats` opened here (`on`) or closed: their
    /// hands are held back wherever the table's owner is (nothing on SQLite). Sent in parts
    /// that fit in a `NOTIFY`.
    pub(crate) fn tell_watches(self: &Arc<Self>, on: bool, seats: Vec<(i64, String)>) {
        let from = self.store.process_id().to_string();
        let mut parts = Vec::new();
        let mut part = Vec::new();
        let mut size = 0;
        for (t, u) in seats {
            size += u.len() + 24;
            part.push((t, u));
            if size > 6_000 {
                parts.push(std::mem::take(&mut part));
                size = 0;
            }
        }
        parts.push(part);
        let messages = parts
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(|seats| Message::Watch {
                from: from.clone(),
                on,
                seats,
            })
            .collect();
        self.tell_others(messages);
    }

    /// Tells the other processes that pages of `tables` opened here (`on`) or that the last
    /// of them closed: they announce those tables' changes to this one meanwhile
    /// (`Host::follow`; nothing on SQLite). In parts that fit in a `NOTIFY`.
    pub(crate) fn tell_follows(self: &Arc<Self>, on: bool, tables: Vec<i64>) {
        let from = self.store.process_id().to_string();
        let messages = tables
            .chunks(400)
            .map(|part| Message::Follow {
                from: from.clone(),
                on,
                tables: part.to_vec(),
            })
            .collect();
        self.tell_others(messages);
    }

    /// Sends `messages` to every other live process, in order (nothing on SQLite, or with no
    /// other process yet: those are told when the live processes change).
    fn tell_others(self: &Arc<Self>, messages: Vec<Message>) {
        if !self.store.is_postgres() || messages.is_empty() || tokio::runtime::Handle::try_current().is_err()
        {
            return;
        }
        let from = self.store.process_id().to_string();
        let to: Vec<String> = {
            let owners = self.owners.lock().expect("owners");
            owners.live.iter().filter(|p| **p != from).cloned().collect()
        };
        if to.is_empty() {
            return;
        }
        let me = Arc::clone(self);
        tokio::spawn(async move {
            for message in messages {
                let payload = serde_json::to_string(&message).expect("a message to the others");
                for p in &to {
                    if let Err(e) = me.tell(p, &payload).await {
                        tracing::debug!(error = %e, "open live pages were not told to the other processes");
                    }
                }
            }
        });
    }

    /// A press handed to this process: handled here, its messages shown here, and what only
    /// its receiver can show sent back. `name`: the press's name, written with its move.
    #[allow(clippy::too_many_arguments)]
    async fn take_handed<H: OwnershipHost>(
        &self,
        host: &Arc<H>,
        from: String,
        n: u64,
        until_ms: i64,
        chat: Chat,
        user: Person,
        token: String,
        name: String,
    ) {
        let Some(chat) = chat.chat_ref() else { return };
        if crate::store::now_ms() > until_ms {
            // Its receiver has answered "try again" by now, or is about to.
            crate::observe::handed_over("late");
            return;
        }
        crate::observe::handed_over("taken");
        let presser = user.id.clone();
        let req = Request {
            chat,
            user: User {
                id: user.id,
                name: user.name,
                admin: user.admin,
            },
            command: Command::press(token),
        };
        let hands = PresserHands::for_press(&req.chat, req.press().and_then(Press::action));
        let out = host.handle_here(req, until_ms, Some(name)).await;
        // Kept only where the answer could be too large and be split again.
        let whole = (hands != PresserHands::OwnerOnly).then(|| out.clone());
        let (mut back, mut rest) = split(out, &presser, hands);
        let mut payload = serde_json::to_string(&Message::Answer {
            to: from.clone(),
            n,
            outs: back,
        })
        .expect("an answer serializes");
        if let Some(out) = whole.filter(|_| payload.len() > MAX_PAYLOAD) {
            (back, rest) = split(out, &presser, PresserHands::OwnerOnly);
            payload = serde_json::to_string(&Message::Answer {
                to: from.clone(),
                n,
                outs: back,
            })
            .expect("an answer serializes");
        }
        // `handle_here` held back the hands of seats followed on a live page, but for the
        // presser's (who pressed in the chat, where their hand is now shown).
        host.show_unheld(rest);
        if let Err(e) = self.tell(&from, &payload).await {
            tracing::warn!(error = %e, "could not answer a handed press");
            crate::observe::store_error("handoff", &e);
        }
    }

    /// Drops the tables this process holds but no longer owns (their timers and computer
    /// players are the new owner's), and returns the running tables it owns now but does
    /// not hold, to take over; and those it holds but gained since the last call (another
    /// process owned them meanwhile and moved them on). Such a copy is one this process
    /// kept or read while it did not own the table (for a command typed in the chat, which
    /// is handled where it arrives; to answer a handed press from the log when the owner
    /// died; or it owned the table before a process that started took it): were it kept, nothing would show the moves made since, and the table
    /// would wait for a press to find the copy stale, or for the sweep to find its last
    /// mover's heartbeat stale (6 s).
    pub(crate) async fn owned_changes<H: OwnershipHost>(
        &self,
        host: &Arc<H>,
    ) -> Result<Vec<i64>, crate::store::StoreError> {
        let held = host.held_tables();
        for id in held {
            if !self.owns(id) {
                host.evict(id);
            }
        }
        let running = self.store.running_table_ids().await?;
        let before = {
            let mut owners = self.owners.lock().expect("owners");
            let now = owners.live.clone();
            std::mem::replace(&mut owners.swept, now)
        };
        // Another process owned it at the last call (none did before the first).
        let me = self.store.process_id();
        let gained = |id: i64| owner_among(id, &before).is_some_and(|o| o != me);
        Ok(running
            .into_iter()
            .filter(|id| self.owns(*id) && (host.cached(*id).is_none() || gained(*id)))
            .collect())
    }
}

/// What the log says of a handed press whose answer never came (`Host::answer_from_log`).
enum FromLog {
    /// Its move is there: the answer to give.
    Found(Outbox),
    /// Not there, or made by something else.
    Absent,
    /// The log could not be read in time.
    Unread(Unknown),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::Token;
    use crate::Host;

    #[test]
    fn ownership_spreads_and_moves_only_from_a_process_that_left() {
        let three: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let two: Vec<String> = ["a", "c"].iter().map(|s| s.to_string()).collect();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for table in 1..=3000 {
            let owner = owner_among(table, &three).unwrap();
            *counts.entry(owner).or_default() += 1;
            let after = owner_among(table, &two).unwrap();
            if owner != "b" {
                assert_eq!(owner, after, "table {table} moved though its owner stayed");
            }
        }
        for p in ["a", "b", "c"] {
            let c = counts[p];
            assert!((800..1200).contains(&c), "{p} owns {c} of 3000: {counts:?}");
        }
        assert_eq!(owner_among(7, &[]), None);
    }

    #[test]
    fn an_answer_carries_only_what_the_receiver_shows() {
        let chat = ChatRef::new(Platform::Telegram, "g", "g");
        let mut out = Outbox::default();
        out.push(Out::Public {
            chat: chat.clone(),
            key: "t1".into(),
            text: "table".into(),
            buttons: vec![],
            version: 3,
        });
        for user in ["anna", "bruno"] {
            out.push(Out::Private {
                user: user.into(),
                chat: chat.clone(),
                key: format!("h1:{user}"),
                text: format!("hand of {user}"),
                buttons: vec![vec![Button {
                    label: "J♣".into(),
                    token: "x".into(),
                    disabled: false,
                    card: None,
                }]],
                version: 3,
                delivery: HandDelivery::Show,
            });
        }
        out.reply("✓");
        // Discord: the receiver shows the presser's hand (in the interaction's answer).
        let (back, rest) = split(out.clone(), "anna", PresserHands::Receiver);
        let back: Vec<Out> = back.into_iter().filter_map(Handed::out).collect();
        assert_eq!(back, vec![out.0[1].clone(), out.0[3].clone()]);
        assert_eq!(rest.0, vec![out.0[0].clone(), out.0[2].clone()]);
        // Telegram: the owner shows every hand, and the receiver gets a copy of the
        // presser's to read, marked as shown.
        assert_eq!(PresserHands::for_press(&chat, Some("hand")), PresserHands::Owner);
        // A card's press: its receiver reads nothing of the hand, none is sent back.
        assert_eq!(
            PresserHands::for_press(&chat, Some("p:QC")),
            PresserHands::OwnerOnly
        );
        let (back, rest) = split(out.clone(), "anna", PresserHands::Owner);
        let back: Vec<Out> = back.into_iter().filter_map(Handed::out).collect();
        let with = |o: &Out, d: HandDelivery| {
            let mut o = o.clone();
            if let Out::Private { delivery, .. } = &mut o {
                *delivery = d;
            }
            o
        };
        assert_eq!(back, vec![with(&out.0[1], HandDelivery::Shown), out.0[3].clone()]);
        let pressed = with(&out.0[1], HandDelivery::Pressed);
        assert_eq!(rest.0, vec![out.0[0].clone(), pressed.clone(), out.0[2].clone()]);
        // Too large to send back: the owner shows it, and nothing goes back but the answer.
        let (back, rest) = split(out.clone(), "anna", PresserHands::OwnerOnly);
        assert_eq!(back.len(), 1);
        assert_eq!(rest.0, vec![out.0[0].clone(), pressed, out.0[2].clone()]);
        // Discord, in a server's channel: the receiver shows it (in the interaction's answer).
        let discord = ChatRef::new(Platform::Discord, "g", "g");
        assert_eq!(
            PresserHands::for_press(&discord, Some("p:QC")),
            PresserHands::Receiver
        );
        assert_eq!(
            PresserHands::for_press(&discord, Some("hand")),
            PresserHands::Receiver
        );
        // Discord, in a direct message: the owner edits it, and nothing of it goes back.
        let dm = ChatRef::new(Platform::Discord, crate::store::DISCORD_DM, "c");
        assert_eq!(
            PresserHands::for_press(&dm, Some("hand")),
            PresserHands::OwnerOnly
        );
    }

    /// A press whose owner's answer never came is told what the log says: "✓" and the
    /// presser's hand as it is now when the move is there under the press's own name, and
    /// nothing (so "try again") when it is not there, or is there under another handed
    /// press's name (the same button pressed again and handed over too), or was made by a
    /// press that was not handed over.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_press_without_an_answer_is_answered_from_the_log() {
        use crate::store::now_ms;
        let dir = tempfile::tempdir().unwrap();
        let (host, table, req) = zole_of_three(&dir.path().join("a.db")).await;
        let (who, token) = first_to_act(&host, table).await;
        let pressed = |user: &str, token: &str| req(user, Command::press(token));
        // The press was handed to this process by "p-receiver", which named it 7.
        let name = press_name("p-receiver", 7);
        let again = press_name("p-other", 3);

        assert!(
            matches!(
                host.ownership
                    .answer_from_log(
                        &host,
                        &pressed(who, &token),
                        &Press::new(token.as_str()),
                        std::slice::from_ref(&name)
                    )
                    .await,
                FromLog::Absent
            ),
            "not in the log yet: try again"
        );
        let out = host
            .handle_here(pressed(who, &token), now_ms() + 2_500, Some(name.clone()))
            .await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        let seq = Token::decode(&token).unwrap().seq;
        assert_eq!(
            host.store.action_press(table, seq + 1).await.unwrap(),
            Some(Some(name.clone())),
            "the move is written with the press's name"
        );

        let FromLog::Found(out) = host
            .ownership
            .answer_from_log(
                &host,
                &pressed(who, &token),
                &Press::new(token.as_str()),
                &[again.clone(), name.clone()],
            )
            .await
        else {
            panic!("in the log under one of the press's names");
        };
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        let hand = out
            .0
            .iter()
            .find_map(|o| match o {
                Out::Private { user, buttons, .. } if user == who => Some(buttons),
                _ => None,
            })
            .expect("the presser's hand is shown");
        assert!(
            hand.iter()
                .flatten()
                .all(|b| Token::decode(&b.token).map_or(true, |t| t.seq > seq)),
            "as it is after the move, without the buttons just pressed: {hand:?}"
        );
        assert!(
            matches!(
                host.ownership
                    .answer_from_log(
                        &host,
                        &pressed(who, &token),
                        &Press::new(token.as_str()),
                        std::slice::from_ref(&again)
                    )
                    .await,
                FromLog::Absent
            ),
            "the same button pressed again and handed over too: that press did not make the move"
        );

        // A move made by a press that was not handed over carries no name.
        let (who, token) = first_to_act(&host, table).await;
        let out = host.handle(pressed(who, &token)).await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        let seq = Token::decode(&token).unwrap().seq;
        assert_eq!(host.store.action_press(table, seq + 1).await.unwrap(), Some(None));
        assert!(
            matches!(
                host.ownership
                    .answer_from_log(
                        &host,
                        &pressed(who, &token),
                        &Press::new(token.as_str()),
                        std::slice::from_ref(&name)
                    )
                    .await,
                FromLog::Absent
            ),
            "a move no handed press made is not this press's"
        );
    }

    /// A handed press whose answer never came, where the log cannot be read in time (the
    /// database just restarted): its outcome is not known, never "try again"; once the log
    /// answers, the person is told in the chat whether the move stood.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_handed_press_whose_log_cannot_be_read_is_settled_later() {
        use crate::i18n::Lang;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.db");
        let (host, table, req) = zole_of_three(&path).await;
        let store = host.store.clone();
        let (who, token) = first_to_act(&host, table).await;
        let name = press_name("p-receiver", 7);
        let out = host
            .handle_here(
                req(who, Command::press(token.clone())),
                crate::store::now_ms() + 2_500,
                Some(name.clone()),
            )
            .await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        let pressed = req(who, Command::press(token.clone()));

        // The log out of reach: not known.
        store.close().await;
        let FromLog::Unread(unknown) = host
            .ownership
            .answer_from_log(
                &host,
                &pressed,
                &Press::new(token.as_str()),
                std::slice::from_ref(&name),
            )
            .await
        else {
            panic!("the log could not be read: the outcome is not known");
        };
        // Settled against the log once it answers (the same file, opened again): it stood.
        let again = crate::store::Store::open_sqlite(path.to_str().unwrap())
            .await
            .unwrap();
        let (settler, mut told) = Host::new(again, crate::HostConfig::default());
        settler.settle_later(&pressed, unknown, Lang::En);
        let stood = t(
            Lang::En,
            "press-stood-later",
            &[("name", who.to_uppercase().as_str().into())],
        );
        let text = next_post(&mut told).await;
        assert_eq!(text, stood);
        // Another press's name: told it did not go through.
        settler.settle_later(
            &pressed,
            Unknown::Handed {
                table,
                seq: Token::decode(&token).unwrap().seq + 1,
                names: vec![press_name("p-other", 3)],
            },
            Lang::En,
        );
        let lost = t(
            Lang::En,
            "press-lost-later",
            &[("name", who.to_uppercase().as_str().into())],
        );
        let text = next_post(&mut told).await;
        assert_eq!(text, lost);
    }

    /// A host on a SQLite file at `path` with a Zole table of three people (anna, bruno,
    /// cilda; turn timer off) started in a Telegram group; the table's id, and a request
    /// there by a person.
    async fn zole_of_three(path: &std::path::Path) -> (Arc<Host>, i64, impl Fn(&str, Command) -> Request) {
        let store = crate::store::Store::open_sqlite(path.to_str().unwrap())
            .await
            .unwrap();
        let config = crate::HostConfig {
            bot_budget_ms: 10,
            seeds: Arc::new(|table, deal| stikis_core::Seed::from_u64((table as u64) << 16 | deal as u64)),
            ..crate::HostConfig::default()
        };
        let (host, _events) = Host::new(store, config);
        let g = ChatRef::new(Platform::Telegram, "group-1", "g");
        let req = move |who: &str, command: Command| Request {
            chat: g.clone(),
            user: User {
                id: who.into(),
                name: who.to_uppercase(),
                admin: who == "admin",
            },
            command,
        };
        host.handle(req("admin", Command::SetTurnLimit(None))).await;
        let new = Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        };
        host.handle(req("anna", new)).await;
        for who in ["bruno", "cilda"] {
            host.handle(req(who, Command::Join)).await;
        }
        host.handle(req("anna", Command::Start)).await;
        let table = host.running.ids()[0];
        (host, table, req)
    }

    /// The one to act at `table` and their first choice, as their page offers it.
    async fn first_to_act(host: &Arc<Host>, table: i64) -> (&'static str, String) {
        for who in ["anna", "bruno", "cilda"] {
            let v = host.table_view(table, Some(who)).await.unwrap().unwrap();
            if let Some(b) = v.buttons.iter().flatten().next() {
                return (who, b.token.clone());
            }
        }
        panic!("no one to act");
    }

    /// The text of the next post among a host's events, within 10 s.
    async fn next_post(told: &mut tokio::sync::mpsc::UnboundedReceiver<Outbox>) -> String {
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let out = told.recv().await.expect("the host's events");
                if let Some(text) = out.0.iter().find_map(|o| match o {
                    Out::Post { text, .. } => Some(text.clone()),
                    _ => None,
                }) {
                    return text;
                }
            }
        })
        .await
        .expect("the person is told once the log answers")
    }
}
