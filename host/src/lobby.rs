//! The `Host`: the one entry point of every adapter, and the router over its parts. It finds
//! the table a request is about, checks the time a request has, and hands the request on: to
//! the tables' life (`crate::tables`: the lobby, presses played through the table's `commit`,
//! computer players, timeouts, the close), to recovery and the sweep (`crate::recovery`), or
//! to a part that owns its state (`running`, `timers`, `watching`, ownership, `tournament`,
//! `boards`, `publish`), each asking the host through a trait of its own where it must.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use stikis_core::Seat;
use tokio::sync::mpsc;

use crate::i18n::{t, Arg, Lang};
use crate::outbox::{Command, Out, Outbox, Request};
use crate::owner::{Ownership, Unknown};
use crate::store::{
    ChatRef, CommunityRef, CommunitySettings, Occupant, Platform, Store, StoreError, TableRow, TableStatus,
};
use crate::table::{HostError, Live, Shared};

pub use crate::config::{os_seed, HostConfig, SeedSource};
pub use crate::ownership::{BEAT_STALE_MS, OWED_WAIT, SWEEP_EVERY, SWEEP_QUIET};

/// A command (anything but a press) whose database work cannot start within this long
/// after its press-like time limit (`owner::PRESS_LIMIT` from its receipt) is answered "try
/// again" and dropped: every command is answered within 5 s, outage or not.
const COMMAND_START_AFTER_LIMIT_MS: i64 = 1_000;

/// How often a move whose commit had an unknown outcome is asked after (`settle_later`).
const SETTLE_EVERY: Duration = Duration::from_secs(1);

/// How long it is asked after before giving up (the database away for longer: a restart of
/// the process reads the table from the log, and shows the move there if it stands).
const SETTLE_FOR: Duration = Duration::from_secs(15 * 60);

pub struct Host {
    pub(crate) store: Store,
    pub(crate) config: HostConfig,
    /// The running tables held here (`crate::running`).
    pub(crate) running: crate::running::Running,
    /// Where what the host made goes: the chat adapter's stream, the live pages, the other
    /// processes (`crate::publish`).
    pub(crate) publisher: crate::publish::Publisher,
    /// This host, for the tasks it spawns (a finished tournament table moves its tournament
    /// on in a task of its own).
    pub(crate) me: std::sync::Weak<Host>,
    /// The tournaments' own state (`crate::tournament`).
    pub(crate) tournaments: crate::tournament::Tournaments,
    /// Added to the wall clock where the host compares with it (timed tournament rounds):
    /// tests move time on with `advance_clock`.
    clock_offset_ms: std::sync::atomic::AtomicI64,
    /// The seats followed on the live table: their hands are held back from the chat.
    pub(crate) watching: crate::watching::Watching,
    /// Ownership across processes: the live processes, the presses handed between them
    /// (`crate::owner`, `crate::deferred`, `crate::peers`).
    pub(crate) ownership: Arc<Ownership>,
    /// The turn timers (`crate::timers`).
    pub(crate) timers: crate::timers::Timers,
    /// Boards, statistics, seasons, the community's pages, ratings (`crate::boards`).
    pub(crate) community: crate::boards::Community,
}

impl Host {
    /// A host on `store`, and the stream of outboxes its timers produce.
    pub fn new(store: Store, config: HostConfig) -> (Arc<Host>, mpsc::UnboundedReceiver<Outbox>) {
        let (publisher, rx) = crate::publish::Publisher::new(store.clone());
        let several = store.is_postgres() && tokio::runtime::Handle::try_current().is_ok();
        let community = crate::boards::Community::new(store.clone(), config.clone());
        let host = Arc::new_cyclic(|me: &std::sync::Weak<Host>| {
            let heard_by = me.clone();
            let peers = config.peer_listen.filter(|_| several).and_then(|listen| {
                crate::peers::Peers::start(&store, listen, move |payload| {
                    if let Some(host) = heard_by.upgrade() {
                        host.ownership.heard(&host, payload);
                    }
                })
            });
            Host {
                config,
                running: Default::default(),
                publisher,
                me: me.clone(),
                tournaments: Default::default(),
                clock_offset_ms: std::sync::atomic::AtomicI64::new(0),
                watching: crate::watching::Watching::new({
                    let around: std::sync::Weak<dyn crate::watching::Around> = me.clone();
                    around
                }),
                ownership: Arc::new(Ownership::new(store.clone(), peers)),
                community,
                store,
                timers: Default::default(),
            }
        });
        if several {
            host.ownership.listen_handoffs(&host);
            host.ownership.watch_owners(&host);
        }
        // `tables_in_memory` counts this host's tables at each scrape, while it lives.
        let counted = Arc::downgrade(&host);
        crate::observe::count_tables_in_memory(move || Some(counted.upgrade()?.running.len()));
        (host, rx)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The database failed just now (a request, a timer): the turns running now get their
    /// whole time again from here (`crate::timers::Timers`). Public for tests of the turn timer.
    #[doc(hidden)]
    pub fn store_failed(&self) {
        self.timers.store_failed();
    }

    /// The wall clock as the host reads it (Unix ms).
    pub fn now_ms(&self) -> i64 {
        crate::store::now_ms() + self.clock_offset_ms.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Moves the host's wall clock on by `ms`: for tests of timed rounds.
    #[doc(hidden)]
    pub fn advance_clock(&self, ms: i64) {
        self.clock_offset_ms
            .fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) async fn user_lang(&self, chat: &ChatRef, user: &str) -> Lang {
        crate::langs::user_lang(&self.store, chat, user).await
    }

    pub(crate) async fn community_lang(&self, chat: &ChatRef) -> Lang {
        crate::langs::community_lang(&self.store, chat).await
    }

    /// Languages of the people at a table, read once per render.
    pub(crate) async fn langs(&self, live: &Live) -> HashMap<String, Lang> {
        let mut m = HashMap::new();
        for s in &live.seats {
            if let Occupant::Human { user_id } = &s.occupant {
                m.insert(user_id.clone(), self.user_lang(&live.row.chat, user_id).await);
            }
        }
        m
    }

    pub(crate) async fn render(&self, live: &Live, out: &mut Outbox) {
        let langs = self.langs(live).await;
        let lang = live.lang();
        live.render(out, &|u: &str| langs.get(u).copied().unwrap_or(lang));
        self.draw_for_pages(live);
    }

    pub(crate) fn cached(&self, id: i64) -> Option<Shared> {
        self.running.get(id)
    }

    /// The table with this id, loaded from the database if this process has not seen it.
    pub(crate) async fn table(&self, id: i64) -> Result<Option<Shared>, HostError> {
        self.load_table(id, true).await
    }

    /// `table`; with `post_owed`, a table another process moved last posts the results that
    /// process may owe: at once if it is known gone (`post_owed_results`), else when they
    /// are due (`post_due_results`: it may be alive and posting them, or dead and not yet
    /// known so). A takeover posts them itself, first.
    pub(crate) async fn load_table(&self, id: i64, post_owed: bool) -> Result<Option<Shared>, HostError> {
        if let Some(t) = self.cached(id) {
            return Ok(Some(t));
        }
        let Some(row) = self.store.table(id).await? else {
            return Ok(None);
        };
        let settings = self.table_settings(&row).await?;
        let mut owes_results = false;
        let live = match row.status {
            TableStatus::Running => {
                let mut live = Live::load_owing(&self.store, row, settings).await?;
                self.restore_selection(&mut live).await?;
                // Results of deals its last mover played: it may have died with their posts
                // unsent. A process that other processes still count alive may be dead too
                // (they learn it within `BEAT_STALE_MS`), and a copy loaded now is not loaded
                // again when they do.
                let other = live
                    .last_mover
                    .as_deref()
                    .filter(|p| *p != self.store.process_id());
                if !live.ended.is_empty() && live.row.chat.platform != Platform::Local {
                    match other {
                        Some(p) if self.ownership.known_gone(p) => owes_results = true,
                        Some(_) => {
                            // Due when `OWED_WAIT` has passed since each deal ended: a
                            // table's owner may change more often than that.
                            let wait = OWED_WAIT.as_millis() as i64;
                            let ended = std::mem::take(&mut live.ended);
                            live.due
                                .extend(ended.into_iter().map(|(n, post, at)| (at + wait, n, post)));
                        }
                        None => {}
                    }
                }
                live
            }
            TableStatus::Lobby => {
                let seats = self.store.seats_versioned(id).await?;
                let mut live = Live::new(row, Vec::new(), 0, settings);
                live.lobby_seats(seats);
                live
            }
            TableStatus::Finished | TableStatus::Stopped => return Ok(None),
        };
        let shared = self.keep_table(id, live);
        if post_owed && owes_results && self.owns(id) {
            self.post_owed_results(&shared);
        }
        Ok(Some(shared))
    }

    /// Keeps `live` as this process's copy of table `id`, unless another task kept one first:
    /// the copy that stands.
    pub(crate) fn keep_table(&self, id: i64, live: Live) -> Shared {
        self.running.keep(id, live)
    }

    /// A table this process owns, loaded here whatever asked for it (a sweep's takeover, or
    /// a press that reached the new owner first): the results its last deals owe are posted
    /// (`owed_results`), in a task of their own, as the table's next lock allows. A takeover
    /// that posts them first leaves nothing for the task.
    fn post_owed_results(&self, shared: &Shared) {
        let (Some(host), Ok(_)) = (self.me.upgrade(), tokio::runtime::Handle::try_current()) else {
            return;
        };
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            let mut out = Outbox::default();
            {
                let mut live = shared.lock().await;
                if live.ended.is_empty() {
                    return;
                }
                host.owed_results(&mut live, &mut out).await;
            }
            if !out.0.is_empty() {
                host.publisher.show(out);
            }
        });
    }

    /// The table as the database has it now (`row` was just read): a copy here that another
    /// process changed since (seats taken in the lobby, a start, moves) is brought up to
    /// date. One query; for commands and lobby buttons (a move's token says by itself
    /// whether the copy could be behind).
    pub(crate) async fn fresh_table(&self, row: &TableRow) -> Result<Option<Shared>, HostError> {
        let Some(shared) = self.table(row.id).await? else {
            return Ok(None);
        };
        {
            let mut live = shared.lock().await;
            match (live.game.is_some(), row.status) {
                (false, TableStatus::Lobby) => {
                    live.lobby_seats(self.store.seats_versioned(row.id).await?);
                    return Ok(Some(shared.clone()));
                }
                (true, TableStatus::Running) if self.store.next_seq(row.id).await? - 1 == live.seq => {
                    return Ok(Some(shared.clone()));
                }
                (true, TableStatus::Running) => crate::observe::takeover("moved_elsewhere"),
                _ => {}
            }
        }
        self.evict(row.id);
        self.table(row.id).await
    }

    /// Whether the half-made choice kept in the database for `user`'s seat is not the one
    /// this copy holds (another process took a pick since), so the copy must be read again.
    pub(crate) async fn other_choice(&self, live: &Live, user: &str) -> Result<bool, HostError> {
        let (Some(game), Some(seat)) = (live.game.as_ref(), live.seat_of(user)) else {
            return Ok(false);
        };
        // Only the seat to act makes such a choice, and only while the game asks for one (a
        // read of the database per press otherwise).
        if game.to_act() != Some(seat) || !game.selecting(seat) {
            return Ok(false);
        }
        let kept = self
            .store
            .selection(live.id())
            .await?
            .filter(|(s, seq, _)| *s == seat && *seq == live.seq)
            .map(|(_, _, code)| code);
        Ok(kept != game.selection(seat))
    }

    /// A rebuilt table takes back the half-made choice kept with it (the first card of a
    /// burial), if the table has not moved since.
    pub(crate) async fn restore_selection(&self, live: &mut Live) -> Result<(), HostError> {
        let Some((seat, seq, code)) = self.store.selection(live.id()).await? else {
            return Ok(());
        };
        if seq != live.seq {
            return Ok(());
        }
        if let Some(game) = live.game.as_mut() {
            if game.selection(seat).is_none() {
                let _ = game.press(seat, &code, live.settings.lang);
            }
        }
        Ok(())
    }

    /// The settings a table plays by: its community's, with a tournament's own turn timer.
    pub(crate) async fn table_settings(&self, row: &TableRow) -> Result<CommunitySettings, HostError> {
        let s = self.store.community_settings(&row.chat.community_ref()).await?;
        self.tournament_turn(row, s).await
    }

    pub(crate) async fn tournament_turn(
        &self,
        row: &TableRow,
        mut s: CommunitySettings,
    ) -> Result<CommunitySettings, HostError> {
        if let Some(slot) = &row.tournament {
            if let Some(tour) = self.store.tournament(slot.tournament).await? {
                if tour.turn_secs.is_some() {
                    s.turn_limit_secs = tour.turn_secs;
                }
            }
        }
        Ok(s)
    }

    /// Forgets the in-memory table so the next use reloads it (after another process moved).
    pub(crate) fn evict(&self, id: i64) {
        // What was drawn of the copy for the pages is not pushed: they read the table.
        self.watching.take_drawn(id);
        // Its results still to look for are kept (`Running::drop_copy`).
        self.running.drop_copy(id);
    }

    /// Drops this process's copy of table `id`, as a failure in the middle of a move does:
    /// for tests of what survives that.
    #[doc(hidden)]
    pub fn forget_table(&self, id: i64) {
        self.evict(id);
    }

    /// A community's new language for its open tables in this process: each keeps the
    /// settings it was loaded with, so without this an open table would go on in the old
    /// language. Its next message is in the new one (private hands stay in each player's own).
    async fn relang_tables(&self, c: &CommunityRef, lang: Lang) {
        for (_, shared) in self.running.all() {
            let mut live = shared.lock().await;
            if live.row.chat.community_ref() == *c {
                live.settings.lang = lang;
            }
        }
    }

    /// Handles one request and returns what to show. Never panics on bad input: every refusal
    /// is a reply in the user's language.
    pub async fn handle(self: &Arc<Self>, req: Request) -> Outbox {
        self.handle_since(req, crate::store::now_ms()).await
    }

    /// `handle`, for a request that reached this process at `received_ms` and waited since
    /// (for its chat's or its table's previous one): a press's time limit counts from then,
    /// so that the person's answer comes within it whatever the press waited for.
    pub async fn handle_since(self: &Arc<Self>, req: Request, received_ms: i64) -> Outbox {
        self.handle_named(req, received_ms, None).await
    }

    /// `handle_since`, for a press its receiver named (`name`, unique among all presses: a
    /// Discord interaction's id): its move is written under that name, by whichever process
    /// commits it, so that the press can be looked for in the log if its receiver deferred
    /// its answer and died (`Host::press_deferred`).
    pub async fn handle_named(
        self: &Arc<Self>,
        req: Request,
        received_ms: i64,
        name: Option<String>,
    ) -> Outbox {
        let timer = crate::observe::Timer::start();
        let (route, outcome) = crate::observe::with_move_outcome(self.ownership.hand_over(
            self,
            &req,
            received_ms,
            name.as_deref(),
        ))
        .await;
        match route {
            crate::owner::Route::Handed(mut out) => {
                // The owner's process counted the press's outcome; this one its wait.
                crate::observe::move_seconds(outcome, timer.elapsed());
                // The presser's hand came back with the answer (for the chat they pressed
                // in; a tap on the page forwards it, and the forward holds it back).
                self.watching.hold_but(&mut out, Some(&req.user.id));
                out
            }
            crate::owner::Route::Here { until_ms } => self.handle_here(req, until_ms, name).await,
        }
    }

    /// Handles a request in this process (its own, or a press handed to it as its table's
    /// owner). A press whose move is not committed by `until_ms` is answered "try again"
    /// and never committed later. `handed`: the press's name (the receiver's for a press
    /// handed to this process, or its own: `handle_named`), written with its move.
    pub(crate) async fn handle_here(
        self: &Arc<Self>,
        req: Request,
        until_ms: i64,
        handed: Option<String>,
    ) -> Outbox {
        let timer = crate::observe::Timer::start();
        let press = matches!(req.command, Command::Press(_));
        let presser = req.user.id.clone();
        let (mut out, outcome) = if press {
            crate::observe::with_move_outcome(self.handle_in_time(req, until_ms, handed)).await
        } else if !self
            .database_answers_by(until_ms + COMMAND_START_AFTER_LIMIT_MS)
            .await
        {
            // Its work cannot start in time: answered now, and dropped (never done later,
            // when the person has long been told to try again).
            tracing::warn!("a command could not reach the database in time; answered \"try again\"");
            crate::observe::store_error("command", &StoreError::Late);
            self.store_failed();
            let lang = self.lang_soon(&req.chat, &req.user.id).await;
            let mut out = Outbox::default();
            out.reply(t(lang, "store-unavailable", &[]));
            (out, "error")
        } else {
            crate::observe::with_move_outcome(self.handle_timed(req)).await
        };
        self.announce(&out);
        self.watching.hold_but(&mut out, Some(&presser));
        if press {
            crate::observe::move_seconds(outcome, timer.elapsed());
        } else {
            drop_lone_ack(&mut out);
        }
        out
    }

    /// A press handled with its time limit: its move's commit is bound to `until_ms`, and if
    /// the move has not reached the log's writer a second after that (the reads before it
    /// hang: the database does not answer), the press is answered "try again" (its move will
    /// be refused if it ever reaches the writer). A move with the writer is answered by it
    /// soon after the limit; the press then goes on as long as it takes.
    async fn handle_in_time(self: &Arc<Self>, req: Request, until_ms: i64, handed: Option<String>) -> Outbox {
        let limit = crate::store::CommitBy::new(until_ms, handed);
        let table = match &req.command {
            Command::Press(p) => p.table(),
            _ => None,
        };
        let (chat, user) = (req.chat.clone(), req.user.id.clone());
        // Boxed, so that giving up drops it (and the table's lock it may hold) at once.
        let mut work = Box::pin(limit.scope(self.handle_timed(req)));
        let left = (until_ms - crate::store::now_ms()).max(0) as u64;
        let give_up = tokio::time::sleep(Duration::from_millis(left) + Duration::from_secs(1));
        tokio::select! {
            out = &mut work => return out,
            () = give_up => {}
        }
        if limit.sent() {
            // Its move is with the log's writer, which answers soon after the limit (it waits
            // for a connection no longer than that): committed, and the press goes on, or
            // refused. Answering "try again" before knowing could hide a committed move.
            return work.await;
        }
        drop(work);
        // The copy may have been left in the middle of the move.
        if let Some(id) = table {
            self.evict(id);
        }
        tracing::warn!(table = ?table, "a press was not committed in time; answered \"try again\"");
        crate::observe::move_outcome("error");
        self.store_failed();
        let lang = self.lang_soon(&chat, &user).await;
        let mut out = Outbox::default();
        out.reply(t(lang, "press-try-again", &[]));
        out
    }

    /// Whether a command received at `received_ms` (Unix ms) may start its database work:
    /// the database answers in time for the command to be answered within 5 s of its
    /// receipt. An adapter that reads the database itself before handing a command over
    /// asks this first, and answers "try again" (`store-unavailable`) if not.
    pub async fn command_may_start(&self, received_ms: i64) -> bool {
        let until = received_ms + crate::owner::PRESS_LIMIT.as_millis() as i64 + COMMAND_START_AFTER_LIMIT_MS;
        self.database_answers_by(until).await
    }

    /// Whether the database answers (a trivial query) before `until_ms` (Unix ms): asked
    /// again after a failure (a pooled connection the database closed fails at once) until
    /// then.
    async fn database_answers_by(&self, until_ms: i64) -> bool {
        loop {
            let left = until_ms - crate::store::now_ms();
            if left <= 0 {
                return false;
            }
            let left = Duration::from_millis(left as u64);
            match tokio::time::timeout(left, self.store.ping()).await {
                Ok(Ok(())) => return true,
                Ok(Err(_)) => tokio::time::sleep(left.min(Duration::from_millis(100))).await,
                Err(_) => return false,
            }
        }
    }

    /// The person's language, or the default if the database does not say within a moment
    /// (an answer that must not wait for it).
    pub(crate) async fn lang_soon(&self, chat: &ChatRef, user: &str) -> Lang {
        tokio::time::timeout(Duration::from_millis(300), self.user_lang(chat, user))
            .await
            .unwrap_or_default()
    }

    async fn handle_timed(self: &Arc<Self>, req: Request) -> Outbox {
        let lang = self.user_lang(&req.chat, &req.user.id).await;
        match self.dispatch(&req, lang).await {
            Ok(out) => out,
            Err(HostError::Conflict) => {
                crate::observe::move_outcome("stale");
                let mut out = Outbox::default();
                out.reply(t(lang, "button-stale", &[]));
                out
            }
            Err(HostError::Rule(r)) => {
                crate::observe::move_outcome("refused");
                let mut out = Outbox::default();
                out.reply(r.0);
                out
            }
            Err(HostError::Store(StoreError::Late)) => {
                // Its time was up before its move reached the database (it waited for its
                // chat, its table or a connection): never committed, so it may be made again.
                tracing::warn!("a press's move was not committed in time; answered \"try again\"");
                crate::observe::move_outcome("error");
                crate::observe::store_error("request", &StoreError::Late);
                self.store_failed();
                let mut out = Outbox::default();
                out.reply(t(lang, "press-try-again", &[]));
                out
            }
            Err(HostError::Store(StoreError::Unknown(unsettled))) => {
                // The connection failed while its move was being committed, and the database
                // could not be asked in time whether it stands: "try again" could be untrue.
                // The person is told so, and told the outcome once the database answers.
                tracing::warn!(
                    table = unsettled.table,
                    seq = unsettled.seq,
                    "a move's commit has an unknown outcome; the person is told once it is known"
                );
                crate::observe::move_outcome("unknown");
                crate::observe::store_error("request", &StoreError::Unknown(unsettled.clone()));
                self.store_failed();
                self.settle_later(&req, Unknown::Commit(unsettled), lang);
                let mut out = Outbox::default();
                out.reply(t(lang, "press-unsure", &[]));
                out
            }
            Err(HostError::Store(e)) if crate::store::CommitBy::committed_here() => {
                // The press's move was committed, and a later step failed (the computer
                // players' moves after it, a read for its messages): the move stands, and
                // the table is read afresh once the database answers.
                tracing::warn!(error = %e, "a store error after a press's move was committed; the move stands");
                crate::observe::move_outcome("applied");
                crate::observe::store_error("request", &e);
                self.store_failed();
                let mut out = Outbox::default();
                out.reply("✓");
                out
            }
            Err(HostError::Store(e)) => {
                // Nothing was committed: the press can simply be made again, and the table is
                // read afresh once the database answers.
                tracing::error!(error = %e, "store error while handling a request");
                crate::observe::move_outcome("error");
                crate::observe::store_error("request", &e);
                self.store_failed();
                let mut out = Outbox::default();
                out.reply(t(lang, "store-unavailable", &[]));
                out
            }
        }
    }

    /// Asks the database whether a press's move whose outcome is not known stands, every
    /// `SETTLE_EVERY` until it answers (for at most `SETTLE_FOR`), and then tells the person
    /// in the chat they pressed in: taken after all, or not taken (make it again).
    pub(crate) fn settle_later(&self, req: &Request, what: Unknown, lang: Lang) {
        let Some(host) = self.me.upgrade().map(|h| Arc::downgrade(&h)) else {
            return;
        };
        let (chat, name) = (req.chat.clone(), req.user.name.clone());
        let (table, seq) = what.at();
        let once = match &what {
            Unknown::Commit(_) => format!("settled.t{table}.a{seq}"),
            Unknown::Handed { .. } => format!("settled.t{table}.a{seq}.{}", req.user.id),
        };
        tokio::spawn(async move {
            let since = tokio::time::Instant::now();
            loop {
                tokio::time::sleep(SETTLE_EVERY).await;
                let Some(host) = host.upgrade() else {
                    return;
                };
                let stood = match what.stood(&host.store).await {
                    Ok(stood) => stood,
                    Err(e) if since.elapsed() < SETTLE_FOR => {
                        tracing::debug!(error = %e, "a move's outcome cannot be settled yet");
                        continue;
                    }
                    Err(e) => {
                        tracing::warn!(table, seq, error = %e, "gave up settling a move's outcome");
                        return;
                    }
                };
                tracing::info!(table, seq, stood, "settled a move's unknown outcome");
                let key = if stood {
                    "press-stood-later"
                } else {
                    "press-lost-later"
                };
                let mut out = Outbox::default();
                out.push(Out::Post {
                    chat,
                    text: t(lang, key, &[("name", name.as_str().into())]),
                    once: Some(once),
                });
                // The table's pages read it afresh (its message follows with its next move).
                host.announce_table(table);
                host.publish(out);
                return;
            }
        });
    }

    async fn dispatch(self: &Arc<Self>, req: &Request, lang: Lang) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let chat = &req.chat;
        match &req.command {
            Command::NewTable { game, rules, seats } => {
                self.new_table(req, game, rules, *seats, lang, &mut out).await?
            }
            Command::Press(p) => return self.press(req, p, lang).await,
            Command::NewTournament {
                rules,
                rounds,
                deals,
                minutes,
                turn,
                computers,
            } => {
                let o = crate::tournament::TournamentOptions {
                    rules: rules.clone(),
                    rounds: *rounds,
                    deals: *deals,
                    minutes: *minutes,
                    turn: *turn,
                    computers: *computers,
                };
                return self.tournaments.new_tournament(self, req, &o, lang).await;
            }
            Command::Tournament(verb) => {
                return self
                    .tournaments
                    .tournament_command(self, req, None, *verb, lang)
                    .await
            }
            Command::SetUserLang(l) => {
                self.store
                    .set_user_lang(chat.platform, &req.user.id, Some(*l))
                    .await?;
                out.reply(t(
                    *l,
                    "settings-lang",
                    &[("lang", t(*l, "lang-name", &[]).into())],
                ));
            }
            Command::SetCommunityLang(_)
            | Command::SetTurnLimit(_)
            | Command::SetAutoStart(_)
            | Command::SetComputerNames(_) => {
                if !req.user.admin {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                let c = chat.community_ref();
                let mut s = self.store.community_settings(&c).await?;
                let text = match &req.command {
                    Command::SetCommunityLang(l) => {
                        s.lang = *l;
                        t(*l, "settings-lang", &[("lang", t(*l, "lang-name", &[]).into())])
                    }
                    Command::SetTurnLimit(secs) => {
                        s.turn_limit_secs = *secs;
                        match secs {
                            Some(n) => t(lang, "settings-turn-limit", &[("seconds", Arg::from(*n))]),
                            None => t(lang, "settings-turn-limit-off", &[]),
                        }
                    }
                    Command::SetComputerNames(names) => {
                        s.computer_names = names
                            .iter()
                            .map(|n| n.trim().chars().take(32).collect::<String>())
                            .take(7)
                            .collect();
                        if s.computer_names.iter().all(|n| n.is_empty()) {
                            s.computer_names.clear();
                            t(lang, "settings-computer-names-off", &[])
                        } else {
                            let shown: Vec<String> = s
                                .computer_names
                                .iter()
                                .enumerate()
                                .map(|(i, n)| {
                                    let n = if n.is_empty() {
                                        crate::games::computer_name(lang, i as Seat)
                                    } else {
                                        n.clone()
                                    };
                                    format!("{}. {n}", i + 1)
                                })
                                .collect();
                            t(
                                lang,
                                "settings-computer-names",
                                &[("names", shown.join(", ").into())],
                            )
                        }
                    }
                    Command::SetAutoStart(on) => {
                        s.auto_start = *on;
                        t(
                            lang,
                            "settings-auto-start",
                            &[("value", if *on { "✓" } else { "✗" }.into())],
                        )
                    }
                    _ => String::new(),
                };
                self.store.set_community_settings(&c, &s).await?;
                if let Command::SetCommunityLang(l) = &req.command {
                    self.relang_tables(&c, *l).await;
                }
                out.reply(text);
            }
            Command::CloseSheet => self.close_sheet(req, lang, &mut out).await?,
            Command::Leaderboard(board) => return self.community.leaderboard(req, *board, lang).await,
            Command::Stats => return self.community.stats(req, lang).await,
            Command::NewSeason => return self.community.new_season(req, lang).await,
            Command::WebLink { rotate } => return self.community.web_link(req, *rotate, lang).await,
            Command::WebPublic { name } => {
                return self.community.web_public(req, name.as_deref(), lang).await
            }
            _ => {
                let Some(row) = self.store.open_table(chat).await? else {
                    out.reply(t(lang, "table-none", &[]));
                    return Ok(out);
                };
                let Some(shared) = self.fresh_table(&row).await? else {
                    out.reply(t(lang, "table-none", &[]));
                    return Ok(out);
                };
                let mut live = shared.lock().await;
                return self.table_command(&mut live, &req.user, &req.command, lang).await;
            }
        }
        Ok(out)
    }
}

/// The host around its ownership part (`crate::owner`).
impl crate::owner::OwnershipHost for Host {
    fn ownership(&self) -> &Arc<Ownership> {
        &self.ownership
    }

    fn watching(&self) -> &crate::watching::Watching {
        &self.watching
    }

    fn held_tables(&self) -> Vec<i64> {
        self.running.ids()
    }

    fn cached(&self, id: i64) -> Option<Shared> {
        Host::cached(self, id)
    }

    fn evict(&self, id: i64) {
        Host::evict(self, id)
    }

    fn table(&self, id: i64) -> impl std::future::Future<Output = Result<Option<Shared>, HostError>> + Send {
        Host::table(self, id)
    }

    fn user_lang(&self, chat: &ChatRef, user: &str) -> impl std::future::Future<Output = Lang> + Send {
        Host::user_lang(self, chat, user)
    }

    fn lang_soon(&self, chat: &ChatRef, user: &str) -> impl std::future::Future<Output = Lang> + Send {
        Host::lang_soon(self, chat, user)
    }

    fn handle_here(
        self: &Arc<Self>,
        req: Request,
        until_ms: i64,
        handed: Option<String>,
    ) -> impl std::future::Future<Output = Outbox> + Send {
        Host::handle_here(self, req, until_ms, handed)
    }

    fn settle_later(&self, req: &Request, what: Unknown, lang: Lang) {
        Host::settle_later(self, req, what, lang)
    }

    fn show_unheld(&self, out: Outbox) {
        self.publisher.show(out)
    }
}

impl Host {
    /// True when this process owns table `id` (always on SQLite, and before the first sweep).
    pub fn owns(&self, id: i64) -> bool {
        self.ownership.owns(id)
    }

    /// How many messages this process sent to the others: (straight, through the database).
    /// For tests.
    #[doc(hidden)]
    pub fn told_others(&self) -> (u64, u64) {
        self.ownership.told_others()
    }

    /// A press whose receiver answers it later (`crate::deferred`): see
    /// `Ownership::press_deferred`.
    pub async fn press_deferred(self: &Arc<Self>, req: &Request, name: &str, follow: &str) {
        self.ownership.press_deferred(req, name, follow).await
    }

    /// The receiver of deferred press `name` answered it (`crate::deferred`).
    pub async fn deferred_answered(self: &Arc<Self>, name: &str) {
        self.ownership.deferred_answered(name).await
    }
}

/// The host around its tournaments (`crate::tournament`).
impl crate::tournament::TournamentHost for Host {
    fn store(&self) -> &Store {
        &self.store
    }

    fn config(&self) -> &HostConfig {
        &self.config
    }

    fn tournaments(&self) -> &crate::tournament::Tournaments {
        &self.tournaments
    }

    fn community_lang(&self, chat: &ChatRef) -> impl std::future::Future<Output = Lang> + Send {
        Host::community_lang(self, chat)
    }

    fn user_lang(&self, chat: &ChatRef, user: &str) -> impl std::future::Future<Output = Lang> + Send {
        Host::user_lang(self, chat, user)
    }

    fn table(&self, id: i64) -> impl std::future::Future<Output = Result<Option<Shared>, HostError>> + Send {
        Host::table(self, id)
    }

    fn keep_table(&self, id: i64, live: Live) -> Shared {
        Host::keep_table(self, id, live)
    }

    fn start(
        self: &Arc<Self>,
        live: &mut Live,
    ) -> impl std::future::Future<Output = Result<Outbox, HostError>> + Send {
        Host::start(self, live)
    }

    fn drive(
        self: &Arc<Self>,
        live: &mut Live,
    ) -> impl std::future::Future<Output = Result<Outbox, HostError>> + Send {
        Host::drive(self, live)
    }

    fn step(
        self: &Arc<Self>,
        id: i64,
    ) -> impl std::future::Future<Output = Result<Option<Outbox>, HostError>> + Send {
        Host::step(self, id)
    }

    fn render_stopped(
        &self,
        live: &Live,
        by: &str,
        out: &mut Outbox,
    ) -> impl std::future::Future<Output = ()> + Send {
        Host::render_stopped(self, live, by, out)
    }

    fn close(
        &self,
        live: &mut Live,
        status: TableStatus,
        text: String,
        out: &mut Outbox,
    ) -> impl std::future::Future<Output = Result<(), HostError>> + Send {
        Host::close(self, live, status, text, out)
    }

    fn publish(&self, out: Outbox) {
        Host::publish(self, out)
    }
}

/// The host around its turn timers (`crate::timers`).
impl crate::timers::TimedHost for Host {
    fn timers(&self) -> &crate::timers::Timers {
        &self.timers
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn running(&self) -> &crate::running::Running {
        &self.running
    }

    fn evict(&self, id: i64) {
        Host::evict(self, id)
    }

    fn publish(&self, out: Outbox) {
        Host::publish(self, out)
    }

    fn timeout(
        self: &Arc<Self>,
        live: &mut Live,
        seat: Seat,
        name: String,
    ) -> impl std::future::Future<Output = Result<Outbox, HostError>> + Send {
        Host::timeout(self, live, seat, name)
    }
}

/// The host around its watching (`crate::watching`): the other processes are told through
/// the owners' messages (`owner.rs`), a hand shown again goes out on the events channel.
impl crate::watching::Around for Host {
    fn watching(&self) -> &crate::watching::Watching {
        &self.watching
    }

    fn tell_watches(&self, on: bool, seats: Vec<(i64, String)>) {
        self.ownership.tell_watches(on, seats)
    }

    fn tell_follows(&self, on: bool, tables: Vec<i64>) {
        self.ownership.tell_follows(on, tables)
    }

    fn tell_changed(&self, table: i64) {
        self.publisher.tell_others(table)
    }

    fn reshow(self: Arc<Self>, table: i64, user: String) {
        tokio::spawn(async move { self.reshow_hand(table, &user).await });
    }
}

impl Host {
    /// `user` has table `table`'s live page open until the returned guard is dropped: their
    /// hand there is not sent to the chat meanwhile (`crate::watching`).
    pub fn watch(&self, table: i64, user: &str) -> crate::watching::Watch {
        self.watching.watch(table, user)
    }

    /// A page of table `table` is open here until the returned guard is dropped
    /// (`Watching::follow`).
    pub fn follow(&self, table: i64) -> crate::watching::Follow {
        self.watching.follow(table)
    }

    /// Whether `user` has table `table`'s live page open, here or in another process.
    pub fn is_watched(&self, table: i64, user: &str) -> bool {
        self.watching.is_watched(table, user)
    }

    /// Shows `user`'s hand at table `table` in the chat as it is now (through the events
    /// channel, as a timer's outbox), if they sit at the running table.
    async fn reshow_hand(&self, table: i64, user: &str) {
        let hand = match self.hand_now(table, user).await {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!(table, error = %e, "a hand held back for the live table could not be shown again");
                return;
            }
        };
        if let Some(hand) = hand {
            self.publisher.show(Outbox(vec![hand]));
        }
    }

    async fn hand_now(&self, table: i64, user: &str) -> Result<Option<Out>, crate::table::HostError> {
        let Some(row) = self.store.table(table).await? else {
            return Ok(None);
        };
        if row.status != crate::store::TableStatus::Running {
            return Ok(None);
        }
        let lang = self.user_lang(&row.chat, user).await;
        let Some(shared) = self.fresh_table(&row).await? else {
            return Ok(None);
        };
        let live = shared.lock().await;
        let seat = live.seats.iter().find_map(|s| match &s.occupant {
            Occupant::Human { user_id } if user_id == user => Some(s.seat),
            _ => None,
        });
        Ok(match (seat, &live.game) {
            (Some(seat), Some(_)) => Some(live.hand_message(seat, user, lang)),
            _ => None,
        })
    }
}

/// Drops the "✓" of a command (not a button press) whose outbox shows the chat what happened
/// (a post, a redrawn message): on Telegram the answer to a command in a group is a message of
/// its own, and a lone "✓" before the real one is noise. A press's "✓" stays: its answer is
/// the presser's own notice.
fn drop_lone_ack(out: &mut Outbox) {
    if out.0.iter().any(Out::is_public) {
        out.0.retain(|o| !matches!(o, Out::Reply { text } if text == "✓"));
    }
}
