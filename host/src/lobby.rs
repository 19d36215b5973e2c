//! The `Host`: the one entry point of every adapter. It finds the table a request is about,
//! checks who may do what, opens and fills tables (the lobby), plays presses through the
//! table's `commit`, lets computer players move for their seats, runs the turn timers, and on
//! start rebuilds every running table from the database.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use stikis_core::ai::Level;
use stikis_core::Seat;
use tokio::sync::mpsc;

use crate::games::{default_rules, game_title, new_game, seat_range, settle_sheet, Pressed, GAMES};
use crate::i18n::{t, Arg, Lang};
use crate::outbox::{Command, Out, Outbox, Press, Request, User};
use crate::owner::{Ownership, Unknown};
use crate::store::{
    ChatRef, CommunityRef, CommunitySettings, NewTable, Occupant, Platform, Store, StoreError, TableRow,
    TableStatus,
};
use crate::store::{Stats, StatsEntry};
use crate::table::{level_code, result_key, HostError, Live, Shared, ADD_SEAT};
use crate::token::Token;

pub use crate::config::{os_seed, HostConfig, SeedSource};
pub use crate::ownership::{BEAT_STALE_MS, OWED_WAIT, SWEEP_EVERY, SWEEP_QUIET};

/// A command (anything but a press) whose database work cannot start within this long
/// after its press-like time limit (`owner::PRESS_LIMIT` from its receipt) is answered "try
/// again" and dropped: every command is answered within 5 s, outage or not.
const COMMAND_START_AFTER_LIMIT_MS: i64 = 1_000;

/// How many due posts (`Host::post_due_posts`) a sweep looks at, at most.
const DUE_POSTS_AT_ONCE: usize = 100;

/// How long a due post is posted again for when no adapter records it as posted (a chat
/// the bot was removed from), before it is given up.
const DUE_POST_GIVE_UP: Duration = Duration::from_secs(15 * 60);

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
    /// Outboxes that no request asked for (timers, tournament rounds), for the adapter to show.
    pub(crate) events: mpsc::UnboundedSender<Outbox>,
    /// This host, for the tasks it spawns (a finished tournament table moves its tournament
    /// on in a task of its own).
    pub(crate) me: std::sync::Weak<Host>,
    /// The tournaments' own state (`crate::tournament`).
    pub(crate) tournaments: crate::tournament::Tournaments,
    /// Added to the wall clock where the host compares with it (timed tournament rounds):
    /// tests move time on with `advance_clock`.
    clock_offset_ms: std::sync::atomic::AtomicI64,
    /// Tables that changed (`Host::changes`), for the live table pages.
    pub(crate) changed: tokio::sync::broadcast::Sender<crate::view::Change>,
    /// Tables changed, to be told to the other processes (`Host::announce_table`).
    pub(crate) changed_out: Mutex<Option<mpsc::UnboundedSender<i64>>>,
    /// The seats followed on the live table: their hands are held back from the chat.
    pub(crate) watching: crate::watching::Watching,
    /// Ownership across processes: the live processes, the presses handed between them
    /// (`crate::owner`, `crate::deferred`, `crate::peers`).
    pub(crate) ownership: Arc<Ownership>,
    /// The turn timers (`crate::timers`).
    pub(crate) timers: crate::timers::Timers,
}

impl Host {
    /// A host on `store`, and the stream of outboxes its timers produce.
    pub fn new(store: Store, config: HostConfig) -> (Arc<Host>, mpsc::UnboundedReceiver<Outbox>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let several = store.is_postgres() && tokio::runtime::Handle::try_current().is_ok();
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
                events: tx,
                me: me.clone(),
                tournaments: Default::default(),
                clock_offset_ms: std::sync::atomic::AtomicI64::new(0),
                changed: tokio::sync::broadcast::channel(4096).0,
                changed_out: Mutex::new(None),
                watching: crate::watching::Watching::new({
                    let around: std::sync::Weak<dyn crate::watching::Around> = me.clone();
                    around
                }),
                ownership: Arc::new(Ownership::new(store.clone(), peers)),
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
        match self.store.user_lang(chat.platform, user).await {
            Ok(Some(l)) => l,
            _ => self.community_lang(chat).await,
        }
    }

    pub(crate) async fn community_lang(&self, chat: &ChatRef) -> Lang {
        self.store
            .community_settings(&chat.community_ref())
            .await
            .map(|s| s.lang)
            .unwrap_or_default()
    }

    /// Languages of the people at a table, read once per render.
    async fn langs(&self, live: &Live) -> HashMap<String, Lang> {
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
    async fn load_table(&self, id: i64, post_owed: bool) -> Result<Option<Shared>, HostError> {
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
                let _ = host.events.send(out);
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

    async fn tournament_turn(
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
            Command::Leaderboard(board) => return self.leaderboard(req, *board, lang).await,
            Command::Stats => return self.stats(req, lang).await,
            Command::NewSeason => return self.new_season(req, lang).await,
            Command::WebLink { rotate } => return self.web_link(req, *rotate, lang).await,
            Command::WebPublic { name } => return self.web_public(req, name.as_deref(), lang).await,
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

    async fn new_table(
        &self,
        req: &Request,
        game: &str,
        rules: &Option<Value>,
        seats: Option<usize>,
        lang: Lang,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let Some((min, max)) = seat_range(game) else {
            out.reply(format!("stikis cannot host {game:?} yet"));
            return Ok(());
        };
        let size = seats.unwrap_or(min).clamp(min, max);
        let rules = rules.clone().unwrap_or_else(|| default_rules(game));
        // Refuse bad rules before anything is stored.
        new_game(game, &rules, size)?;
        let row = match self
            .store
            .create_table(&NewTable {
                chat: req.chat.clone(),
                game: game.to_string(),
                rules,
                seats: size,
                creator: req.user.id.clone(),
            })
            .await
        {
            Ok(r) => r,
            Err(StoreError::ChatBusy) => {
                out.reply(t(lang, "table-exists", &[]));
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        let occupant = Occupant::Human {
            user_id: req.user.id.clone(),
        };
        self.store.take_seat(row.id, 0, &req.user.name, &occupant).await?;
        let settings = self.store.community_settings(&req.chat.community_ref()).await?;
        let (rev, seats) = self.store.seats_versioned(row.id).await?;
        let mut live = Live::new(row, seats, size, settings);
        live.seats_rev = rev;
        live.render_lobby(out);
        out.reply(t(
            lang,
            "table-created",
            &[
                ("name", req.user.name.clone().into()),
                ("game", game_title(lang, game).into()),
            ],
        ));
        self.keep_table(live.id(), live);
        Ok(())
    }

    /// Closes the chat's score sheets: admins and the players on a sheet may. The closed
    /// sheet keeps its totals and pules as they were; the settlement is computed from them
    /// and posted with the final standings.
    async fn close_sheet(&self, req: &Request, lang: Lang, out: &mut Outbox) -> Result<(), HostError> {
        let chat = &req.chat;
        if self.store.open_table(chat).await?.is_some() {
            out.reply(t(lang, "sheet-table-open", &[]));
            return Ok(());
        }
        let mut closed = false;
        for game in GAMES {
            let Some(sheet) = self.store.score_sheet(chat, game).await? else {
                continue;
            };
            if !req.user.admin && !sheet.totals.iter().any(|s| s.player == req.user.id) {
                out.reply(t(lang, "table-not-allowed", &[]));
                return Ok(());
            }
            // Of two closings at once, one gets the sheet.
            let Some(sheet) = self.store.close_score_sheet(chat, game).await? else {
                continue;
            };
            closed = true;
            let settle = settle_sheet(game, &sheet.pules);
            let standings: Vec<String> = sheet
                .totals
                .iter()
                .map(|s| {
                    let d = settle.iter().find(|(k, _)| *k == s.player).map_or(0, |x| x.1);
                    if d == 0 {
                        format!("{} {}", s.name, s.points)
                    } else {
                        format!("{} {} ({d:+})", s.name, s.points + d)
                    }
                })
                .collect();
            out.push(Out::Post {
                chat: chat.clone(),
                text: t(lang, "sheet-closed", &[("totals", standings.join(" · ").into())]),
                once: None,
            });
        }
        // A closed sheet's standings say what happened: no "✓" besides.
        if !closed {
            out.reply(t(lang, "sheet-none", &[]));
        }
        Ok(())
    }

    pub(crate) fn may_manage(live: &Live, user: &User) -> bool {
        user.admin || live.row.creator == user.id
    }

    /// Lobby and table commands given in the table's chat (or by a lobby button).
    async fn table_command(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        cmd: &Command,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let running = live.game.is_some();
        match cmd {
            Command::Join if running => {
                out.reply(t(lang, "table-full", &[]));
                out.0.extend(full_notice(live, user));
            }
            Command::Join => {
                if live.seat_of(&user.id).is_some() {
                    out.reply(t(lang, "table-already-seated", &[]));
                    return Ok(out);
                }
                let Some(seat) = free_seat(live) else {
                    out.reply(t(lang, "table-full", &[]));
                    out.0.extend(full_notice(live, user));
                    return Ok(out);
                };
                return self.sit(live, user, seat, lang).await;
            }
            Command::Leave => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "table-not-seated", &[]));
                    return Ok(out);
                };
                if running {
                    // A player who leaves mid-game hands the seat to a computer player.
                    self.store.set_away(live.id(), seat, true).await?;
                    live.seats = self.store.seats(live.id()).await?;
                    out.reply(t(lang, "table-left", &[("name", user.name.clone().into())]));
                    out.push(Out::Post {
                        chat: live.row.chat.clone(),
                        text: t(live.lang(), "turn-away", &[("name", user.name.clone().into())]),
                        once: None,
                    });
                    out.extend(self.drive(live).await?);
                } else {
                    self.store.leave_seat(live.id(), seat).await?;
                    live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                    out.reply(t(lang, "table-left", &[("name", user.name.clone().into())]));
                    live.render_lobby(&mut out);
                }
            }
            Command::AddBot { level } => {
                if running || !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                let Some(seat) = free_seat(live) else {
                    out.reply(t(lang, "table-full", &[]));
                    return Ok(out);
                };
                let name = crate::games::computer_name(live.lang(), seat);
                let occupant = Occupant::Computer {
                    level: level_code(*level),
                };
                self.store.take_seat(live.id(), seat, &name, &occupant).await?;
                live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                out.reply(t(
                    lang,
                    "table-bot-added",
                    &[("seat", Arg::from(i64::from(seat) + 1))],
                ));
                if live.settings.auto_start && live.seats.len() >= live.size {
                    out.extend(self.start(live).await?);
                } else {
                    live.render_lobby(&mut out);
                }
            }
            Command::RemoveBot => {
                let bot = live
                    .seats
                    .iter()
                    .rev()
                    .find(|s| matches!(s.occupant, Occupant::Computer { .. }));
                match bot.map(|s| s.seat) {
                    Some(seat) if !running && Self::may_manage(live, user) => {
                        self.store.leave_seat(live.id(), seat).await?;
                        live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                        out.reply(t(
                            lang,
                            "table-bot-removed",
                            &[("seat", Arg::from(i64::from(seat) + 1))],
                        ));
                        live.render_lobby(&mut out);
                    }
                    _ => out.reply(t(lang, "table-not-allowed", &[])),
                }
            }
            // Nothing to start: say so to the one who asked, post nothing.
            Command::Start if running => out.reply(t(lang, "table-running", &[])),
            Command::Start => {
                if !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                let (min, _) = seat_range(&live.row.game).unwrap_or((3, 3));
                if live.seats.len() < min {
                    out.reply(t(
                        lang,
                        "table-waiting",
                        &[("count", Arg::from(min - live.seats.len()))],
                    ));
                    return Ok(out);
                }
                out.extend(self.start(live).await?);
            }
            Command::Stop => {
                if !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                self.stop(live, user, &mut out).await?;
            }
            Command::Back => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "not-at-table", &[]));
                    return Ok(out);
                };
                self.store.set_away(live.id(), seat, false).await?;
                live.seats = self.store.seats(live.id()).await?;
                if let Some(x) = live.timeouts.get_mut(seat as usize) {
                    *x = 0;
                }
                out.reply(t(lang, "turn-yours", &[]));
                self.render(live, &mut out).await;
                self.arm_timer(live);
            }
            Command::ShowHand => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "not-at-table", &[]));
                    return Ok(out);
                };
                if live.game.is_none() {
                    out.reply(t(lang, "table-none", &[]));
                    return Ok(out);
                }
                let hand = live.hand_message(seat, &user.id, lang);
                out.reply(hand.text().to_string());
                out.push(hand);
            }
            Command::PlayLink => {
                let (Some(base), Some(secret)) = (&self.config.web_url, &self.config.play_secret) else {
                    out.reply(t(lang, "play-link-off", &[]));
                    return Ok(out);
                };
                let seated = live.seat_of(&user.id).map(|_| user.id.as_str()).unwrap_or("");
                let expires = self.now_ms() / 1000 + crate::links::PLAY_LINK_SECS;
                let key = crate::links::play_key(secret, live.id(), seated, expires);
                let url = crate::links::play_url(base, secret, live.id(), &key);
                out.push(Out::Personal {
                    user: user.id.clone(),
                    chat: live.row.chat.clone(),
                    text: t(
                        lang,
                        if seated.is_empty() {
                            "play-link-watch"
                        } else {
                            "play-link"
                        },
                        &[("url", url.into())],
                    ),
                    closed: t(lang, "play-link-closed-chat", &[]),
                });
            }
            Command::Record => {
                out.push(self.record_file(live).await?);
                out.0.extend(record_note(live));
            }
            _ => out.reply(t(lang, "button-bad", &[])),
        }
        Ok(out)
    }

    /// Seats `user` in the lobby's seat `seat`, and starts the table if that filled it and the
    /// chat starts full tables by itself.
    async fn sit(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        seat: Seat,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let occupant = Occupant::Human {
            user_id: user.id.clone(),
        };
        match self.store.take_seat(live.id(), seat, &user.name, &occupant).await {
            Ok(()) => {}
            Err(StoreError::SeatTaken { .. }) => {
                out.reply(t(lang, "table-seat-full", &[]));
                return Ok(out);
            }
            Err(StoreError::AlreadySeated { .. }) => {
                out.reply(t(lang, "table-already-seated", &[]));
                return Ok(out);
            }
            Err(e) => return Err(e.into()),
        }
        live.lobby_seats(self.store.seats_versioned(live.id()).await?);
        out.reply(t(
            lang,
            "table-joined",
            &[
                ("name", user.name.clone().into()),
                ("seat", Arg::from(i64::from(seat) + 1)),
            ],
        ));
        if live.settings.auto_start && live.seats.len() >= live.size {
            out.extend(self.start(live).await?);
        } else {
            live.render_lobby(&mut out);
        }
        Ok(out)
    }

    /// The lobby's "one more seat" button (`ADD_SEAT`): a full lobby of a game that allows
    /// more players gets one more seat, and the presser sits in it (in a seat freed meanwhile,
    /// if there is one). The lobby's size is its highest taken seat (`Live::lobby_seats`), so
    /// the added seat is kept by taking it.
    async fn take_added_seat(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        if live.game.is_some() {
            return self.table_command(live, user, &Command::Join, lang).await;
        }
        if live.seat_of(&user.id).is_some() {
            let mut out = Outbox::default();
            out.reply(t(lang, "table-already-seated", &[]));
            return Ok(out);
        }
        match free_seat(live).or_else(|| live.seat_to_add()) {
            Some(seat) => self.sit(live, user, seat, lang).await,
            None => self.table_command(live, user, &Command::Join, lang).await,
        }
    }

    pub(crate) async fn start(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        // A game's seats are 0..n: a lobby started with a seat left empty between taken ones
        // (someone left an added seat's neighbour) moves the later players down first.
        if live
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| usize::from(s.seat) != i)
        {
            for (i, s) in live.seats.clone().into_iter().enumerate() {
                if usize::from(s.seat) != i {
                    self.store.leave_seat(live.id(), s.seat).await?;
                    self.store
                        .take_seat(live.id(), i as Seat, &s.name, &s.occupant)
                        .await?;
                }
            }
            live.seats = self.store.seats(live.id()).await?;
        }
        live.game = Some(new_game(&live.row.game, &live.row.rules, live.seats.len())?);
        live.timeouts = vec![0; live.seats.len()];
        // The chat's open score sheet goes on at this table: its totals and open pules. It is
        // kept with the table before the table runs, so a restart starts from it too.
        // A tournament table starts afresh (its round is its own), announced by its round.
        let tournament = live.row.tournament.is_some();
        let sheet = match tournament {
            true => None,
            false => self.store.score_sheet(&live.row.chat, &live.row.game).await?,
        };
        if let Some(sheet) = sheet {
            let carry = serde_json::json!({"totals": sheet.totals, "pules": sheet.pules});
            self.store.set_sheet_carry(live.id(), &carry).await?;
            live.carry_in(&carry);
        }
        self.store.set_status(live.id(), TableStatus::Running).await?;
        if !tournament {
            live.render_lobby_started(&mut out);
            out.push(Out::Post {
                chat: live.row.chat.clone(),
                text: t(
                    live.lang(),
                    "table-started",
                    &[("game", game_title(live.lang(), &live.row.game).into())],
                ),
                once: None,
            });
        }
        let seed = (self.config.seeds)(live.id(), 1);
        live.start_deal(&self.store, seed, &mut out).await?;
        out.extend(self.drive(live).await?);
        Ok(out)
    }

    /// The table's record as a file for the chat: its finished deals, each with its seed, so
    /// the record proves its own deals.
    async fn record_file(&self, live: &Live) -> Result<Out, HostError> {
        let mut env = match &live.game {
            Some(g) => g.record(&live.names()),
            None => self.store.record(live.id()).await?,
        };
        // The deal being played is left out: its record lists every hand, and the file goes to
        // the whole chat.
        let in_progress = live.game.as_ref().is_some_and(|g| g.in_deal());
        let finished = env.deals.len().saturating_sub(usize::from(in_progress));
        env.deals.truncate(finished);
        for (d, seed) in env.deals.iter_mut().zip(&live.seeds) {
            d["seed"] = Value::String(seed.to_string());
        }
        Ok(Out::File {
            chat: live.row.chat.clone(),
            name: format!("stikis-{}-{}.json", live.row.game, live.id()),
            content: serde_json::to_string_pretty(&env).unwrap_or_default(),
        })
    }

    async fn stop(&self, live: &mut Live, user: &User, out: &mut Outbox) -> Result<(), HostError> {
        self.render_stopped(live, &user.name, out).await;
        let text = t(
            live.lang(),
            "table-stopped",
            &[("name", user.name.clone().into())],
        );
        self.close(live, TableStatus::Stopped, text, out).await
    }

    /// A table stopped by `by` in the middle of a deal: its table message and hands are
    /// drawn once more, with nothing to press and nobody's turn (`Live::render_stopped`).
    /// Their buttons would otherwise stay under them, looking live.
    pub(crate) async fn render_stopped(&self, live: &Live, by: &str, out: &mut Outbox) {
        let langs = self.langs(live).await;
        let lang = live.lang();
        live.render_stopped(out, &|u| langs.get(u).copied().unwrap_or(lang), by);
    }

    /// The game ended by its own rules (`HostedGame::is_over`): the final totals and the
    /// record are posted and the table is closed, so the chat may open the next one.
    async fn finish(&self, live: &mut Live, out: &mut Outbox) -> Result<(), HostError> {
        if let Some(slot) = live.row.tournament.clone() {
            // The tournament's record holds the table's; its round moves on without it.
            let (round, table) = slot.round_table().unwrap_or((0, 0));
            let totals: Vec<String> = live
                .names()
                .iter()
                .zip(live.game.as_ref().map(|g| g.totals()).unwrap_or_default())
                .map(|(n, p)| format!("{n} {p:+}"))
                .collect();
            let text = t(
                live.lang(),
                "tournament-table-done",
                &[
                    ("round", Arg::from(round)),
                    ("table", Arg::from(table)),
                    ("totals", totals.join(" · ").into()),
                ],
            );
            self.close(live, TableStatus::Finished, text, out).await?;
            if let Some(host) = self.me.upgrade() {
                self.tournaments.spawn_advance(&host, slot.tournament);
            }
            return Ok(());
        }
        let text = t(live.lang(), "table-finished", &[]);
        let file = self.record_file(live).await?;
        let note = record_note(live);
        self.close(live, TableStatus::Finished, text, out).await?;
        out.push(file);
        out.0.extend(note);
        Ok(())
    }

    /// Closes a table (stopped or finished): totals posted, the chat's score sheet saved, one
    /// game counted for every person at the table.
    pub(crate) async fn close(
        &self,
        live: &mut Live,
        status: TableStatus,
        mut text: String,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let lang = live.lang();
        let names = live.names();
        if let Some(game) = live.game.as_ref() {
            // The pules stay open on the chat's score sheet for its next table; closing the
            // sheet (`CloseSheet`) settles them.
            let totals = game.totals();
            let s: Vec<String> = names
                .iter()
                .zip(&totals)
                .map(|(n, p)| format!("{n} {p}"))
                .collect();
            if live.row.tournament.is_none() {
                text.push('\n');
                text.push_str(&t(lang, "deal-totals", &[("totals", s.join(" · ").into())]));
            }
            live.save_sheet(&self.store).await?;
            // One game for everybody who played at the table, once however often it is
            // stopped (deal 0 of the table is its own guard).
            let entries: Vec<StatsEntry> = live
                .seats
                .iter()
                .filter_map(|s| match &s.occupant {
                    Occupant::Human { user_id } => Some(StatsEntry {
                        user_id: user_id.clone(),
                        name: s.name.clone(),
                        delta: Stats {
                            games: 1,
                            ..Stats::default()
                        },
                    }),
                    Occupant::Computer { .. } => None,
                })
                .collect();
            if !entries.is_empty() {
                let community = live.row.chat.community_ref();
                self.store
                    .apply_stats(live.id(), 0, &community, &live.row.game, &entries)
                    .await?;
            }
        }
        // A finished game is rated once; a game stopped after whole deals too.
        if let Err(e) = self.rate_table(live).await {
            tracing::warn!(table = live.id(), error = %e, "could not rate a table");
        }
        if live
            .game
            .as_ref()
            .is_some_and(|g| g.deal_no() > usize::from(g.in_deal()))
        {
            if let Some(link) = self.game_link(live).await {
                text.push('\n');
                text.push_str(&link);
            }
        }
        // The end post is kept with the table's close, in its transaction: a process killed
        // while the post waits (behind the group's budget, or in its unsent outbox) does not
        // lose it; a sweep posts it once when due if no adapter did (`post_due_posts`).
        let key = crate::msgkey::MsgKey::End { table: live.id() }.to_string();
        let post = crate::store::DuePost::new(key, &live.row.chat, &text, self.now_ms());
        self.store.close_table(live.id(), status, post.as_ref()).await?;
        live.row.status = status;
        live.new_turn();
        self.evict(live.id());
        // Its live pages here are shown the table as it was left (its last deal's end, nobody's
        // turn, nothing to press), and every page is told that it is over.
        self.draw_for_pages(live);
        self.announce_table(live.id());
        out.push(Out::Post {
            chat: live.row.chat.clone(),
            text,
            once: post.map(|p| p.key),
        });
        Ok(())
    }

    /// Posts the due posts (`crate::store::DuePost`) that no adapter recorded as posted once
    /// their time has come, each under its key (an adapter posts it once, whoever shows it),
    /// and looks at them again after `OWED_WAIT`; forgets those posted, and those not posted
    /// within `DUE_POST_GIVE_UP` (a chat the bot can no longer post in).
    async fn post_due_posts(&self, out: &mut Outbox) {
        let now = self.now_ms();
        let due = match self.store.due_posts(now, DUE_POSTS_AT_ONCE).await {
            Ok(due) => due,
            Err(e) => {
                // Looked for again at the next sweep.
                tracing::debug!(error = %e, "could not read the due posts");
                return;
            }
        };
        let mut platforms: Vec<Platform> = due.iter().map(|p| p.chat.platform).collect();
        platforms.sort_by_key(|p| p.as_str());
        platforms.dedup();
        for platform in platforms {
            let mine: Vec<&crate::store::DuePost> =
                due.iter().filter(|p| p.chat.platform == platform).collect();
            let keys: Vec<String> = mine.iter().map(|p| p.key.clone()).collect();
            let Ok(posted) = self.store.posted_once(platform, &keys).await else {
                return;
            };
            for p in mine {
                let done = posted.contains(&p.key);
                if done || now - p.created_ms > DUE_POST_GIVE_UP.as_millis() as i64 {
                    if !done {
                        tracing::warn!(key = p.key.as_str(), "a due post never went out; given up");
                    }
                    if let Err(e) = self.store.forget_due_post(platform, &p.key).await {
                        tracing::debug!(error = %e, "could not forget a due post");
                    }
                    continue;
                }
                tracing::info!(key = p.key.as_str(), "posting a due post no process posted");
                out.push(Out::Post {
                    chat: p.chat.clone(),
                    text: p.text.clone(),
                    once: Some(p.key.clone()),
                });
                let again = now + OWED_WAIT.as_millis() as i64;
                if let Err(e) = self.store.put_off_due_post(platform, &p.key, again).await {
                    tracing::debug!(error = %e, "could not put a due post off");
                }
            }
        }
    }

    async fn press(
        self: &Arc<Self>,
        req: &Request,
        pressed: &Press,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let Ok(tok) = &pressed.token else {
            crate::observe::move_outcome("refused");
            out.reply(t(lang, "button-bad", &[]));
            return Ok(out);
        };
        if let Some(verb) = tok
            .action
            .strip_prefix("T:")
            .and_then(crate::outbox::TournamentVerb::from_code)
        {
            crate::observe::move_outcome("lobby");
            return self
                .tournaments
                .tournament_command(self, req, Some(tok.table), verb, lang)
                .await;
        }
        let add_seat = tok.action == ADD_SEAT;
        if let Some(cmd) = lobby_verb(&tok.action).or(add_seat.then_some(Command::Join)) {
            crate::observe::move_outcome("lobby");
            let row = self.store.table(tok.table).await?;
            let shared = match &row {
                Some(row) if row.status.is_open() => self.fresh_table(row).await?,
                _ => None,
            };
            let Some(shared) = shared else {
                out.reply(t(lang, "button-stale", &[]));
                return Ok(out);
            };
            let mut live = shared.lock().await;
            if add_seat {
                return self.take_added_seat(&mut live, &req.user, lang).await;
            }
            return self.table_command(&mut live, &req.user, &cmd, lang).await;
        }
        let Some(shared) = self.table(tok.table).await? else {
            crate::observe::move_outcome("stale");
            out.reply(t(lang, "button-stale", &[]));
            return Ok(out);
        };
        let live = shared.lock().await;
        // A copy of the lobby: another process may have started the table since.
        let behind = live.game.is_none()
            || (tok.seq != live.seq && self.store.next_seq(tok.table).await? - 1 != live.seq);
        if behind || (tok.seq == live.seq && self.other_choice(&live, &req.user.id).await?) {
            // Another process started or moved this table since this one loaded it, or took
            // a pick of a half-made choice (cards to bury): answer from the database's state,
            // not from the stale copy.
            drop(live);
            self.evict(tok.table);
            crate::observe::takeover("moved_elsewhere");
            let Some(fresh) = self.table(tok.table).await? else {
                crate::observe::move_outcome("stale");
                out.reply(t(lang, "button-stale", &[]));
                return Ok(out);
            };
            return self.press_on(req, tok, lang, fresh).await;
        }
        drop(live);
        self.press_on(req, tok, lang, shared).await
    }

    async fn press_on(
        self: &Arc<Self>,
        req: &Request,
        tok: &Token,
        lang: Lang,
        shared: Shared,
    ) -> Result<Outbox, HostError> {
        let result = self.press_on_copy(req, tok, lang, shared).await;
        if let Err(HostError::Store(_)) = result {
            // The database failed in the middle (a commit may even have gone through): the
            // copy may no longer match it, and the computer players and the timer it would
            // have driven on did not start. It is read afresh at the next press, or taken
            // over by a sweep once the table has been quiet.
            self.evict(tok.table);
        }
        result
    }

    async fn press_on_copy(
        self: &Arc<Self>,
        req: &Request,
        tok: &Token,
        lang: Lang,
        shared: Shared,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let mut live = shared.lock().await;
        if live.game.is_none() && live.row.status == TableStatus::Running {
            // A run that failed while this press waited dropped the copy.
            out.reply(t(lang, "press-try-again", &[]));
            return Ok(out);
        }
        if tok.seq != live.seq || live.game.is_none() {
            crate::observe::move_outcome("stale");
            // The presser's hand as it is now goes with the answer: the one they pressed on
            // is out of date and may stay so until the table changes again (unchanged, it
            // costs no edit).
            if let (Some(seat), Some(_)) = (live.seat_of(&req.user.id), &live.game) {
                out.push(live.hand_message(seat, &req.user.id, lang));
            }
            out.reply(t(lang, "button-stale", &[]));
            return Ok(out);
        }
        let Some(seat) = live.seat_of(&req.user.id) else {
            crate::observe::move_outcome("refused");
            out.reply(t(lang, "not-at-table", &[]));
            return Ok(out);
        };
        let game = live.game.as_mut().expect("checked above");
        let pressed = game.press(seat, &tok.action, lang)?;
        match pressed {
            Pressed::Selection => {
                // Kept with the table, so a restart does not forget it.
                let code = live.game.as_ref().and_then(|g| g.selection(seat));
                self.store
                    .set_selection(live.id(), seat, live.seq, code.as_deref())
                    .await?;
                out.push(live.hand_message(seat, &req.user.id, lang));
                self.draw_for_pages(&live);
                out.reply("✓");
                crate::observe::move_outcome("selected");
            }
            Pressed::Action(action) => {
                if let Some(x) = live.timeouts.get_mut(seat as usize) {
                    *x = 0;
                }
                let before = live.seq;
                match self.play(&mut live, &action).await {
                    Ok(o) => out.extend(o),
                    Err(HostError::Conflict) => {
                        crate::observe::takeover("conflict");
                        // Another process committed first. If it was this very move, it is
                        // not applied here: the press is stale. If this move was committed
                        // and another process then moved on (computer players, the next
                        // deal), the move stands. Either way this copy is out of date.
                        let applied = live.seq > before;
                        drop(live);
                        self.evict(tok.table);
                        if !applied {
                            crate::observe::move_outcome("stale");
                            out.reply(t(lang, "button-stale", &[]));
                            return Ok(out);
                        }
                        if let Some(fresh) = self.table(tok.table).await? {
                            let live = fresh.lock().await;
                            self.render(&live, &mut out).await;
                        }
                    }
                    Err(e) => return Err(e),
                }
                crate::observe::move_outcome("applied");
                out.reply("✓");
            }
        }
        Ok(out)
    }

    /// Commits one move with the computer players' moves after it, closes the deal if it
    /// ended (and deals the next), lets computer players move on, and renders.
    async fn play(self: &Arc<Self>, live: &mut Live, action: &Value) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        self.play_run(live, Some(action), &mut out).await?;
        out.extend(self.drive(live).await?);
        Ok(out)
    }

    /// Plays `first` (a person's move, if any) and after it the moves of the computer players
    /// (and away seats) to act, until a person is to act or a deal ends, and commits them as
    /// one run: one write of the log however many moves, and a press answered after one
    /// commit, not one per computer player behind it. Then closes the deal if it ended. A
    /// table of computer players only moves one move a run (`step` paces it). False if
    /// nothing was to play.
    ///
    /// The moves are applied as they are chosen, each computer player seeing the table as it
    /// is, to the game taken out of the copy; a run that is not committed leaves the copy
    /// without its game, which every user of a copy takes for one to load again, and drops it.
    async fn play_run(
        &self,
        live: &mut Live,
        first: Option<&Value>,
        out: &mut Outbox,
    ) -> Result<bool, HostError> {
        let Some(mut game) = live.game.take() else {
            return Ok(false);
        };
        let bots_only = live
            .seats
            .iter()
            .all(|s| matches!(s.occupant, Occupant::Computer { .. }));
        let mut run: Vec<Value> = Vec::new();
        let mut report = None;
        if let Some(action) = first {
            match game.apply(action) {
                Ok(r) => report = r,
                Err(e) => {
                    // Refused before anything changed.
                    live.game = Some(game);
                    return Err(e.into());
                }
            }
            run.push(action.clone());
        }
        // A table of computer players only: one move a run. A run stops growing after
        // `RUN_THINKING` of choosing (strong computer players may each take their budget), so
        // a press's move is committed well within its time limit; the next run goes on.
        let started = std::time::Instant::now();
        while report.is_none() && (run.is_empty() || (!bots_only && started.elapsed() < RUN_THINKING)) {
            let Some(seat) = game.to_act() else { break };
            let Some(level) = live.bot_level(seat) else { break };
            let rng_seed = (live.id() as u64) << 32 ^ (live.seq + run.len() as i64) as u64;
            let action = think(|| game.bot_action(level, rng_seed, self.config.bot_budget_ms));
            match game.apply(&action) {
                Ok(r) => report = r,
                Err(e) if run.is_empty() => {
                    live.game = Some(game);
                    return Err(e.into());
                }
                Err(e) => {
                    self.drop_copy(live);
                    return Err(e.into());
                }
            }
            run.push(action);
        }
        if run.is_empty() {
            live.game = Some(game);
            return Ok(false);
        }
        if let Err(e) = live.commit_applied(&self.store, &run).await {
            self.drop_copy(live);
            return Err(e);
        }
        live.game = Some(game);
        if let Some(report) = report {
            // Show the final trick before the result.
            self.render(live, out).await;
            let over = live.game.as_ref().is_some_and(|g| g.is_over()) || live.limit_reached(self.now_ms());
            let next = (!over).then(|| (self.config.seeds)(live.id(), live.seeds.len() + 1));
            if let Err(e) = live.finish_deal(&self.store, &report, next, out).await {
                // The moves stand; the next deal may not be this copy's (`finish_deal`).
                self.drop_copy(live);
                return Err(e);
            }
            if over {
                self.finish(live, out).await?;
            }
        }
        Ok(true)
    }

    /// Drops a copy whose game went ahead of the log (a run that was not committed): it keeps
    /// no game (nothing acts on it or shows it, and a waiting press reads the table again),
    /// its turn timer is void, and the table is loaded afresh when next used.
    fn drop_copy(&self, live: &mut Live) {
        live.game = None;
        live.new_turn();
        self.evict(live.id());
    }

    /// Computer players (and away seats) move until a person is to act; then everything is
    /// rendered and the turn timer armed.
    pub(crate) async fn drive(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        // A table of computer players only never waits for a person; it would play on here
        // forever, so it moves only when asked (`step`).
        let bots_only = live
            .seats
            .iter()
            .all(|s| matches!(s.occupant, Occupant::Computer { .. }));
        // A deal has at most a few dozen moves; the bound only guards against a game that
        // would never hand the turn to a person.
        let bound = if bots_only { 0 } else { 10_000 };
        if bots_only && live.row.tournament.is_some() {
            // A tournament table of computer players plays its round out in a task of its
            // own, move by move, as `step` plays exhibitions.
            self.tournaments.spawn_play_out(self, live.id());
        }
        for _ in 0..bound {
            if !self.play_run(live, None, &mut out).await? {
                break;
            }
        }
        self.render(live, &mut out).await;
        self.arm_timer(live);
        Ok(out)
    }

    /// One move of the computer player to act at table `id`, as a person's press would be
    /// played: committed (this returns only after the commit), the deal closed and the next
    /// one dealt if it ended, and the table rendered. None when no computer player is to act.
    /// Tables of computer players only (exhibitions, benchmarks) move only through this.
    pub async fn step(self: &Arc<Self>, id: i64) -> Result<Option<Outbox>, HostError> {
        let Some(shared) = self.table(id).await? else {
            return Ok(None);
        };
        let mut live = shared.lock().await;
        let mut out = Outbox::default();
        match self.play_run(&mut live, None, &mut out).await {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(HostError::Conflict) => {
                crate::observe::takeover("conflict");
                drop(live);
                self.evict(id);
                return Err(HostError::Conflict);
            }
            Err(e) => return Err(e),
        }
        self.render(&live, &mut out).await;
        self.announce(&out);
        Ok(Some(out))
    }

    /// Deals finished so far at table `id` (0 if this host does not run it).
    pub async fn deals_done(&self, id: i64) -> usize {
        let Some(shared) = self.cached(id) else { return 0 };
        let live = shared.lock().await;
        live.game
            .as_ref()
            .map_or(0, |g| g.deal_no() - usize::from(g.in_deal()))
    }

    /// Starts the turn timer for the person to act (`crate::timers`).
    fn arm_timer(self: &Arc<Self>, live: &Live) {
        self.timers.arm(self, live);
    }

    /// The time is up: a computer player moves for the absent person; after 3 timeouts in a
    /// row the seat is handed over until its owner says "I'm back".
    async fn timeout(
        self: &Arc<Self>,
        live: &mut Live,
        seat: Seat,
        name: String,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let lang = live.lang();
        let count = {
            let x = &mut live.timeouts[seat as usize];
            *x += 1;
            *x
        };
        out.push(Out::Post {
            chat: live.row.chat.clone(),
            text: t(lang, "turn-timeout", &[("name", name.clone().into())]),
            once: None,
        });
        if count >= 3 {
            self.store.set_away(live.id(), seat, true).await?;
            live.seats = self.store.seats(live.id()).await?;
            out.push(Out::Post {
                chat: live.row.chat.clone(),
                text: t(lang, "turn-away", &[("name", name.into())]),
                once: None,
            });
            out.extend(self.drive(live).await?);
            return Ok(out);
        }
        let game = live.game.as_ref().expect("a timed turn has a game");
        let rng_seed = (live.id() as u64) << 32 ^ live.seq as u64;
        let action = think(|| game.bot_action(Level::Basic, rng_seed, self.config.bot_budget_ms));
        out.extend(self.play(live, &action).await?);
        Ok(out)
    }

    /// Every card of deal `deal_no` of table `id` that no public message may show right now. For the privacy
    /// checks of tests and diagnostics only: never send it anywhere.
    #[doc(hidden)]
    pub async fn hidden_cards(&self, id: i64, deal_no: usize) -> Vec<String> {
        // As the log has it: this process's copy may be behind a move that was shown (made by
        // another process, or on a copy that was replaced meanwhile), and would count that
        // move's card as still hidden.
        if let Some(logged) = self.logged(id).await {
            return logged
                .game
                .as_ref()
                .map(|g| g.hidden_cards(deal_no))
                .unwrap_or_default();
        }
        match self.cached(id) {
            Some(shared) => shared
                .lock()
                .await
                .game
                .as_ref()
                .map(|g| g.hidden_cards(deal_no))
                .unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// Running table `id` as its log has it (None if it is not running or cannot be read).
    async fn logged(&self, id: i64) -> Option<Live> {
        let row = self.store.table(id).await.ok()??;
        if row.status != TableStatus::Running {
            return None;
        }
        let settings = self.table_settings(&row).await.ok()?;
        Live::load(&self.store, row, settings).await.ok()
    }

    /// After a restart: rebuilds every running table from the log, refreshes its messages,
    /// lets computer players finish their turns and resumes the timers with the time left.
    /// Every log is read in a few queries (`running_logs`), not a handful per table.
    pub async fn recover(self: &Arc<Self>) -> Result<Outbox, HostError> {
        let timer = crate::observe::Timer::start();
        let mut out = Outbox::default();
        let mut recovered = 0;
        let mut settings: HashMap<CommunityRef, CommunitySettings> = HashMap::new();
        // On PostgreSQL only the tables this process owns among the live ones.
        if self.store.is_postgres() && self.store.beat().await.is_ok() {
            let _ = self.ownership.refresh_owners(self).await;
        }
        let carries = self.store.running_sheet_carries().await?;
        // Beside other processes, only the logs of the tables this one owns are read: the
        // tables it gained by starting wait for it from the moment the others saw it, and
        // every table's log is N times the rows (thousands of moves a table).
        let owned: Option<Vec<i64>> = if self.store.is_postgres() {
            let running = self.store.running_table_ids().await?;
            Some(running.into_iter().filter(|id| self.owns(*id)).collect())
        } else {
            None
        };
        for log in self.store.running_logs_of(owned.as_deref()).await? {
            let id = log.table.id;
            if !self.owns(id) {
                continue;
            }
            let shared = match self.cached(id) {
                Some(s) => s,
                None => {
                    let c = log.table.chat.community_ref();
                    let s = match settings.get(&c) {
                        Some(s) => s.clone(),
                        None => {
                            let s = self.store.community_settings(&c).await?;
                            settings.insert(c, s.clone());
                            s
                        }
                    };
                    let s = self.tournament_turn(&log.table, s).await?;
                    let owed_from = crate::table::owed_from(&self.store, &log).await;
                    let mut live =
                        match Live::from_log_owing(log.table.clone(), log, s, carries.get(&id), owed_from) {
                            Ok(l) => l,
                            Err(e) => {
                                tracing::warn!(table = id, error = %e, "could not rebuild a table");
                                continue;
                            }
                        };
                    self.restore_selection(&mut live).await?;
                    self.keep_table(id, live)
                }
            };
            recovered += 1;
            match self.resume_loaded(id, shared).await {
                Ok(o) => out.extend(o),
                // A sweep takes it over once the database answers again.
                Err(e) => {
                    tracing::warn!(table = id, error = %e, "could not resume a table");
                    crate::observe::host_error("recover", &e);
                }
            }
        }
        out.extend(self.tournaments.recover_tournaments(self).await?);
        self.announce(&out);
        // Pages may have reconnected already: their seats' hands stay on the page.
        self.watching.hold(&mut out);
        tracing::info!(
            tables = recovered,
            ms = (timer.elapsed() * 1000.0) as u64,
            "running tables recovered"
        );
        Ok(out)
    }

    /// Waits until the next sweep is due: a tick of `tick` (every `SWEEP_EVERY`), or at once
    /// when this process found the live processes changed (`OWNERS_EVERY`): a process that
    /// died leaves its tables to their new owners within a moment, not at the next tick.
    pub async fn sweep_due(&self, tick: &mut tokio::time::Interval) {
        tokio::select! {
            _ = tick.tick() => {}
            () = self.ownership.owners_moved.notified() => tick.reset(),
        }
    }

    /// Takes over the tables of processes that died, and quiet tables: every running table
    /// whose last action was committed by a process that has not beaten for
    /// `BEAT_STALE_MS` (it died; the one that commits a table's actions drives its computer
    /// players and timer), and every running table nothing has happened at for `quiet` (a
    /// backstop, e.g. a process that died between dealing and the first move), is loaded here
    /// and driven: computer players move, the next deal is dealt, the turn timer is armed
    /// with the time left (so a turn already over times out at once, claimed once among
    /// processes). A table is looked at again only once something has happened at it, or its
    /// last mover died since. Also this process's heartbeat. The bots call it every
    /// `SWEEP_EVERY`.
    pub async fn sweep(self: &Arc<Self>, quiet: Duration) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let beat = self.store.beat().await;
        crate::observe::heartbeat(&beat);
        crate::observe::refresh();
        self.store.observe_pool();
        beat?;
        if self.store.is_postgres() {
            // Each running table has one owner among the live processes: this one drops the
            // tables it no longer owns and takes up those it owns but does not hold (its
            // owner died or stopped, this process just started, or another process started
            // the table).
            self.ownership
                .refresh_owners(self)
                .await
                .inspect_err(|e| crate::observe::store_error("sweep", e))?;
            // Deferred presses of a process that died, answered for it.
            out.extend(self.ownership.follow_up_deferred(self).await);
            let owned = self
                .ownership
                .owned_changes(self)
                .await
                .inspect_err(|e| crate::observe::store_error("sweep", e))?;
            for id in owned {
                match self.take_over(id).await {
                    Ok(o) => {
                        crate::observe::takeover("owner_changed");
                        out.extend(o);
                    }
                    Err(e) => {
                        tracing::warn!(table = id, error = %e, "could not take up an owned table; trying again");
                        crate::observe::host_error("takeover", &e);
                    }
                }
            }
        }
        let before = self.now_ms() - quiet.as_millis() as i64;
        let dead_before = crate::store::now_ms() - BEAT_STALE_MS;
        let to_take = self
            .store
            .tables_to_take_over(before, dead_before)
            .await
            .inspect_err(|e| crate::observe::store_error("sweep", e))?;
        for (id, last_ms, orphaned) in to_take {
            if !self.owns(id) {
                continue;
            }
            // Once per quiet spell, and once more if its last mover dies meanwhile (a
            // person's choice of cards to bury is no action: a process may take one, die
            // before showing it, and leave the last action and its time as they were).
            if self.running.swept(id, last_ms, orphaned) {
                continue;
            }
            // Marked as swept only once taken over: a table whose takeover failed (the
            // database went away) is tried again at the next sweep.
            match self.take_over(id).await {
                Ok(o) => {
                    crate::observe::takeover(if orphaned { "dead_process" } else { "quiet" });
                    out.extend(o);
                    self.running.mark_swept(id, last_ms, orphaned);
                }
                Err(e) => {
                    tracing::warn!(table = id, error = %e, "could not take over a table; trying again");
                    crate::observe::host_error("takeover", &e);
                }
            }
        }
        self.post_due_results(&mut out).await;
        self.post_due_posts(&mut out).await;
        // A tournament whose round ended in a process that died moves on here.
        out.extend(
            self.tournaments
                .recover_tournaments(self)
                .await
                .inspect_err(|e| crate::observe::host_error("sweep", e))?,
        );
        self.announce(&out);
        // A table taken up here shows no hand to a seat whose page is open here.
        self.watching.hold(&mut out);
        Ok(out)
    }

    /// The results due (`Live::due`) at the tables this process holds and owns, looked for
    /// in the database: one that no process posted is posted now (once, `Out::Post::once`).
    /// Its post failed, or the process that owed it died before posting it, unnoticed by the
    /// load that took its table up. One query a sweep; a table busy now is looked at in the
    /// next sweep.
    async fn post_due_results(&self, out: &mut Outbox) {
        let now = self.now_ms();
        let held = self.running.all();
        let mut ready: Vec<(i64, Platform, String, usize, Out)> = Vec::new();
        for (id, (_, n, post)) in self.running.take_dropped_due(now) {
            let platform = match &post {
                Out::Post { chat, .. } => chat.platform,
                _ => continue,
            };
            ready.push((id, platform, result_key(id, n), n, post));
        }
        for (id, shared) in held {
            if !self.owns(id) {
                continue;
            }
            let Ok(mut live) = shared.try_lock() else { continue };
            if live.due.iter().all(|(at, _, _)| *at > now) {
                continue;
            }
            let platform = live.row.chat.platform;
            let (now_due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut live.due)
                .into_iter()
                .partition(|(at, _, _)| *at <= now);
            live.due = later;
            for (_, n, post) in now_due {
                ready.push((id, platform, result_key(id, n), n, post));
            }
        }
        let mut platforms: Vec<Platform> = ready.iter().map(|r| r.1).collect();
        platforms.sort_by_key(|p| p.as_str());
        platforms.dedup();
        for platform in platforms {
            let keys: Vec<String> = ready
                .iter()
                .filter(|r| r.1 == platform)
                .map(|r| r.2.clone())
                .collect();
            match self.store.posted_once(platform, &keys).await {
                Ok(posted) => {
                    for (id, _, key, _, post) in ready.iter().filter(|r| r.1 == platform) {
                        if !posted.contains(key) {
                            tracing::info!(
                                table = id,
                                key = key.as_str(),
                                "posting a result no process posted"
                            );
                            out.push(post.clone());
                        }
                    }
                }
                Err(e) => {
                    // Looked for again at the next sweep.
                    tracing::debug!(error = %e, "could not read which results were posted");
                    for (id, _, _, n, post) in ready.iter().filter(|r| r.1 == platform) {
                        self.running.due_again(*id, (now, *n, post.clone())).await;
                    }
                }
            }
        }
    }

    /// Loads table `id` afresh, shows it and drives it (see `sweep`). Read afresh even if this
    /// process holds it at the last action: what is not an action (a choice of cards to
    /// bury) may have changed, and what another process showed of it may have been lost with
    /// that process.
    async fn take_over(self: &Arc<Self>, id: i64) -> Result<Outbox, HostError> {
        self.evict(id);
        match self.load_table(id, false).await? {
            Some(shared) => self.resume_loaded(id, shared).await,
            None => Ok(Outbox::default()),
        }
    }

    /// Drives a table just loaded from the log (at start, or taken over): its owed result,
    /// then the next deal if a crash left it between deals (or between the start and the
    /// first deal; the end if its game is over), or its computer players and turn timer.
    /// On a conflict another process moved first and drives it; on any error the copy is
    /// dropped (what was committed stands; it is read afresh next time).
    async fn resume_loaded(self: &Arc<Self>, id: i64, shared: Shared) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let mut live = shared.lock().await;
        // The messages whose last edit may have died with the process that made it (a
        // group's edits are paced: they wait for their slot): the started lobby's, and the
        // last finished deal's table message as it ended. The terminal keeps no messages.
        let final_table = live.final_table.take();
        if live.row.chat.platform != Platform::Local {
            if live.row.tournament.is_none() {
                live.render_lobby_started(&mut out);
            }
            out.0.extend(final_table);
        }
        if live.owed_hands.is_some() {
            let langs = self.langs(&live).await;
            owed_hands(&mut live, &langs, &mut out);
        }
        self.owed_results(&mut live, &mut out).await;
        let between = live.game.as_ref().is_some_and(|g| !g.in_deal());
        let moved = if between {
            self.resume_between_deals(&mut live).await
        } else {
            self.drive(&mut live).await
        };
        drop(live);
        match moved {
            Ok(o) => out.extend(o),
            Err(HostError::Conflict) => {
                crate::observe::takeover("conflict");
                self.evict(id);
            }
            Err(e) => {
                self.evict(id);
                return Err(e);
            }
        }
        Ok(out)
    }

    /// The results of a table's deals that no process posted: the process that played them
    /// may have died with its posts still waiting to be sent (a chat's messages go out one
    /// at a time; the next deal's hands went out to other chats meanwhile, and were played).
    /// The database says which were posted; adapters post each only if it still was not
    /// (`Out::Post::once`). In the terminal, which keeps no posts, only the last deal's
    /// result when nobody has moved since.
    async fn owed_results(&self, live: &mut Live, out: &mut Outbox) {
        let ended = std::mem::take(&mut live.ended);
        let last = live.owed_result.take();
        let platform = live.row.chat.platform;
        if platform == Platform::Local {
            if let Some(report) = last {
                out.push(live.result_post(&report));
            }
            return;
        }
        let keys: Vec<String> = ended.iter().map(|(n, _, _)| result_key(live.id(), *n)).collect();
        match self.store.posted_once(platform, &keys).await {
            Ok(posted) => {
                for ((_, post, _), key) in ended.into_iter().zip(keys) {
                    if !posted.contains(&key) {
                        out.push(post);
                    }
                }
            }
            Err(e) => {
                tracing::debug!(error = %e, "could not read which results were posted");
                if let Some(report) = last {
                    out.push(live.result_post(&report));
                }
            }
        }
    }

    /// A running table found without a deal in progress: the next deal, or the end.
    async fn resume_between_deals(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        if live.game.as_ref().is_some_and(|g| g.is_over()) || live.limit_reached(self.now_ms()) {
            self.finish(live, &mut out).await?;
            return Ok(out);
        }
        let seed = (self.config.seeds)(live.id(), live.seeds.len() + 1);
        live.start_deal(&self.store, seed, &mut out).await?;
        out.extend(self.drive(live).await?);
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
        Host::show_unheld(self, out)
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
        Host::tell_changed(self, table)
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
            let _ = self.events.send(Outbox(vec![hand]));
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

/// The hands of the deal whose result was owed, as that deal ended (no buttons), when the
/// next deal has started since: the process that ended it may have died before showing them.
fn owed_hands(live: &mut Live, langs: &HashMap<String, Lang>, out: &mut Outbox) {
    let Some(prior) = live.owed_hands.take() else {
        return;
    };
    let lang = prior.lang();
    for s in &prior.seats {
        if let Occupant::Human { user_id } = &s.occupant {
            out.push(prior.hand_message(s.seat, user_id, langs.get(user_id).copied().unwrap_or(lang)));
        }
    }
}

/// How long a run of moves may spend choosing computer players' moves before it is
/// committed (`Host::play_run`): a few default budgets, well within a press's time limit.
const RUN_THINKING: Duration = Duration::from_millis(600);

/// The table command a lobby or table button stands for (not a move).
/// Runs a computer player's choice, which may think for its whole budget (300 ms by default),
/// without holding up the other tables: on a multi-threaded runtime (the bots') the worker
/// hands its other tasks over while this one thinks. A current-thread runtime (tests, the
/// terminal) has no other worker to hand them to.
pub(crate) fn think<T>(choose: impl FnOnce() -> T) -> T {
    let timer = crate::observe::Timer::start();
    let choice = match tokio::runtime::Handle::current().runtime_flavor() {
        tokio::runtime::RuntimeFlavor::MultiThread => tokio::task::block_in_place(choose),
        _ => choose(),
    };
    metrics::histogram!("stikis_computer_think_seconds").record(timer.elapsed());
    choice
}

/// What the table's record cannot say, as a message beside it (`HostedGame::record_note`).
fn record_note(live: &Live) -> Option<Out> {
    let text = live.game.as_ref()?.record_note(live.lang())?;
    Some(Out::Post {
        chat: live.row.chat.clone(),
        text,
        once: None,
    })
}

fn lobby_verb(action: &str) -> Option<Command> {
    match action {
        "join" => Some(Command::Join),
        "leave" => Some(Command::Leave),
        "bot" => Some(Command::AddBot { level: Level::Basic }),
        "start" => Some(Command::Start),
        "back" => Some(Command::Back),
        crate::outbox::SHOW_HAND => Some(Command::ShowHand),
        _ => None,
    }
}

/// Said to the whole chat when `user` finds the table full, so that everybody learns how to
/// play with more: the lobby's button for one more seat, or (a running table) the commands
/// that open a table for more players after this game. None where there is no other way
/// (the game allows no more players, a tournament's table, or the person sits there).
fn full_notice(live: &Live, user: &User) -> Option<Out> {
    if live.row.tournament.is_some() || live.seat_of(&user.id).is_some() {
        return None;
    }
    let lang = live.lang();
    let name = ("name", Arg::from(user.name.clone()));
    let text = match live.seat_to_add() {
        Some(seat) => {
            let what = t(
                lang,
                "button-add-seat",
                &[("seat", Arg::from(i64::from(seat) + 1))],
            );
            t(lang, "table-full-add-seat", &[name, ("what", what.into())])
        }
        None => {
            let (_, max) = seat_range(&live.row.game)?;
            let list = live.open_commands(live.seats.len() + 1..=max)?;
            t(lang, "table-full-later", &[name, ("list", list.into())])
        }
    };
    Some(Out::Post {
        chat: live.row.chat.clone(),
        text,
        // Once per person and table: pressing Join again does not post it again.
        once: Some(
            crate::msgkey::MsgKey::Full {
                table: live.id(),
                user: user.id.clone(),
            }
            .into(),
        ),
    })
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

fn free_seat(live: &Live) -> Option<Seat> {
    (0..live.size as Seat).find(|s| live.seats.iter().all(|x| x.seat != *s))
}
