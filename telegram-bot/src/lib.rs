//! stikis on Telegram. This crate knows no rule: `App::on_update` turns a Telegram update
//! (command message, button press, the bot's own membership) into a host `Request`, and
//! `show::Shower` turns the host's `Outbox` into Bot API calls. `start` wires teloxide's
//! dispatcher (long polling, or a webhook), registers the commands, recovers running tables
//! and returns a handle that shuts down gracefully (in-flight updates finish first).

pub mod commands;
pub mod ephemeral;
mod hands;
mod polling;
pub mod show;
mod webhook;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use stikis_core::ai::Level;
use stikis_host::i18n::{t, Lang};
use stikis_host::lobby::{SWEEP_EVERY, SWEEP_QUIET};
use stikis_host::outbox::SHOW_HAND;
use stikis_host::store::{ChatRef, CommunityRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, Host, HostConfig, Outbox, Press, Request, TournamentVerb, User};
use teloxide::dispatching::{Dispatcher, ShutdownToken};
use teloxide::error_handlers::LoggingErrorHandler;
use teloxide::payloads::SetMyCommandsSetters;
use teloxide::prelude::*;
use teloxide::types::{BotCommand, CallbackQuery, ChatMemberUpdated, Message, UpdateKind};
use tokio::sync::Mutex as AsyncMutex;

use show::{call, Answer, Shower};

/// Where the bot receives updates from.
#[derive(Debug, Clone)]
pub enum Mode {
    /// getUpdates long polling (the default).
    Polling,
    /// Telegram posts updates to `url`; the bot listens on `listen` and accepts only posts
    /// that carry `secret` in X-Telegram-Bot-Api-Secret-Token. None: a random one per start,
    /// on SQLite only (on PostgreSQL `start` refuses: every instance must share one).
    Webhook {
        url: url::Url,
        listen: SocketAddr,
        secret: Option<String>,
    },
}

pub struct Settings {
    pub token: String,
    pub database_url: String,
    /// A self-hosted Bot API server (or the tests' fake); None: api.telegram.org.
    pub api_url: Option<url::Url>,
    pub mode: Mode,
    /// Minimum time between two public edits in one group (about 20 per minute: 3 s).
    pub edit_interval: Duration,
    /// New messages (posts, a table's new message) one group may be sent: at most so many in
    /// any window (Telegram allows about 20 a minute); what play owes beyond it waits,
    /// merged (`show::PostBudget`). None: no limit.
    pub group_posts: Option<show::PostBudget>,
    /// How long the hand of a player who just acted may keep its old look, waiting for their
    /// next turn to be redrawn with it in one edit (zero: redraw at once).
    pub hand_delay: Duration,
    /// Webhook mode: how long the post of a button press waits for the press's answer to go
    /// back as its reply; after that the post is answered empty and the answer is a call
    /// (zero: always a call).
    pub answer_wait: Duration,
    pub host: HostConfig,
    /// Where to serve /metrics and /healthz (None: not served).
    pub metrics_listen: Option<SocketAddr>,
    /// Where to serve the web face (None: not served); its public URL is `host.web_url`.
    pub web_listen: Option<SocketAddr>,
    /// The Mini App's short name as registered with @BotFather (`/newapp`): each running
    /// table's message then carries "Open the table" (`t.me/<bot>/<app>?startapp=<ref>`, the
    /// table's reference, `links::table_ref`).
    pub mini_app: Option<String>,
}

impl Settings {
    pub fn new(token: impl Into<String>, database_url: impl Into<String>) -> Settings {
        Settings {
            token: token.into(),
            database_url: database_url.into(),
            api_url: None,
            mode: Mode::Polling,
            edit_interval: Duration::from_secs(3),
            group_posts: Some(show::PostBudget::default()),
            hand_delay: Duration::from_secs(10),
            answer_wait: Duration::from_secs(2),
            host: HostConfig::default(),
            metrics_listen: None,
            web_listen: None,
            mini_app: None,
        }
    }
}

/// How long an admin check (getChatMember) is trusted.
const ADMIN_TTL: Duration = Duration::from_secs(300);

/// How long a person's press waits for its table's lock before it is answered "try again"
/// (`App::run`).
const PRESS_LOCK_WAIT: Duration = Duration::from_millis(1_000);

/// How long an answer waits for a language the database keeps before it takes the one it
/// can tell without it (the person's Telegram client's, the default).
const LANG_WAIT: Duration = Duration::from_millis(1_000);

pub struct App {
    pub host: Arc<Host>,
    pub shower: Arc<Shower>,
    username: String,
    /// One lock per table: the outbox of one request is shown before the next request of the
    /// same table is handled, so an older render never overwrites a newer one.
    locks: Mutex<HashMap<i64, Arc<AsyncMutex<()>>>>,
    admins: Mutex<HashMap<(i64, u64), (bool, Instant)>>,
}

/// How a running bot takes updates.
enum Receiving {
    Polling {
        token: ShutdownToken,
        dispatch: tokio::task::JoinHandle<()>,
    },
    Webhook(webhook::Webhook),
}

/// A running bot.
pub struct Running {
    pub app: Arc<App>,
    receiving: Receiving,
    events: tokio::task::JoinHandle<()>,
    sweeper: tokio::task::JoinHandle<()>,
    /// Where /metrics and /healthz are served, if they are.
    pub metrics_addr: Option<SocketAddr>,
    metrics: Option<(tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>)>,
    /// The web face, if it is served.
    pub web: Option<stikis_web::Listening>,
}

impl Running {
    /// Stops taking updates, lets the updates being handled finish, and returns.
    pub async fn shutdown(self) {
        match self.receiving {
            Receiving::Polling { token, dispatch } => {
                if let Ok(f) = token.shutdown() {
                    f.await;
                }
                let _ = dispatch.await;
            }
            // The webhook stays registered: other instances may share it.
            Receiving::Webhook(hook) => hook.stop().await,
        }
        self.events.abort();
        self.sweeper.abort();
        // Edits still held back (coalesced public edits, hands waiting for a turn) go out.
        self.app.shower.flush_all().await;
        // The other processes take this one's tables over at once.
        if let Err(e) = self.app.host.store().forget_process().await {
            tracing::warn!(error = %e, "could not sign this process off");
        }
        if let Some((stop, task)) = self.metrics {
            let _ = stop.send(());
            let _ = task.await;
        }
        if let Some(web) = self.web {
            web.stop().await;
        }
    }

    /// Stops as a killed process would: takes no more updates and sends nothing held back
    /// (tests use it to show that a restart repairs what a crash left).
    pub fn crash(self) {
        match self.receiving {
            Receiving::Polling { dispatch, .. } => dispatch.abort(),
            Receiving::Webhook(hook) => hook.abort(),
        }
        self.events.abort();
        self.sweeper.abort();
        if let Some((_, task)) = self.metrics {
            task.abort();
        }
        if let Some(web) = self.web {
            web.abort();
        }
    }

    /// Shuts down on Ctrl-C or SIGTERM.
    pub async fn until_signal(self) {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .expect("a SIGTERM handler");
            tokio::select! {
                _ = ctrl_c => {}
                _ = term.recv() => {}
            }
        }
        #[cfg(not(unix))]
        let _ = ctrl_c.await;
        tracing::info!("shutting down: finishing the updates in hand");
        self.shutdown().await;
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// What the database is (`store::database_named`) and why it did not open.
    #[error("cannot open the database {0}")]
    Store(String),
    #[error("Telegram refused the token: check TELEGRAM_BOT_TOKEN or --token (from @BotFather)")]
    Token,
    #[error("cannot reach Telegram at {0}: {1}")]
    Telegram(String, String),
    #[error("the webhook secret may hold 1 to 256 of A-Z a-z 0-9 _ -")]
    BadSecret,
    #[error("cannot listen for the webhook on {0}: {1}")]
    Listen(SocketAddr, String),
    #[error(
        "webhook mode on PostgreSQL needs --webhook-secret or TELEGRAM_WEBHOOK_SECRET: every \
         instance behind the webhook URL must give the same one"
    )]
    WebhookSecretNeeded,
}

/// Refuses what must not start: webhook mode on PostgreSQL (where several instances may run
/// behind one webhook URL) without a secret given, since each instance would register a random
/// secret of its own and Telegram would post with the last one only. On SQLite (one process)
/// a random secret per start stays. Checked before anything is connected.
fn check_settings(settings: &Settings) -> Result<(), StartError> {
    let postgres = ["postgres://", "postgresql://"]
        .iter()
        .any(|p| settings.database_url.starts_with(p));
    match &settings.mode {
        // An empty one (`TELEGRAM_WEBHOOK_SECRET=` in an environment file) is none.
        Mode::Webhook { secret, .. } if postgres && secret.as_deref().unwrap_or("").is_empty() => {
            Err(StartError::WebhookSecretNeeded)
        }
        _ => Ok(()),
    }
}

/// Connects the store, checks the token (getMe), registers the commands, recovers running
/// tables and starts taking updates.
pub async fn start(settings: Settings) -> Result<Running, StartError> {
    check_settings(&settings)?;
    // A PostgreSQL server that does not answer yet is waited for (its /healthz says 503).
    let url = &settings.database_url;
    let waiting = stikis_web::probe::Waiting::serve(url, settings.metrics_listen)
        .await
        .map_err(|(listen, e)| StartError::Listen(listen, e.to_string()))?;
    let store = Store::connect_waiting(url, |e| waiting.database_waits(e)).await;
    waiting.stop().await;
    let store = store
        .map_err(|e| StartError::Store(format!("({}): {e}", stikis_host::store::database_named(url))))?;
    let mut bot = Bot::new(settings.token.clone());
    if let Some(url) = settings.api_url.clone() {
        bot = bot.set_api_url(url);
    }
    let me = call(bot.get_me()).await.map_err(|e| match e {
        teloxide::RequestError::Api(teloxide::ApiError::InvalidToken) => StartError::Token,
        teloxide::RequestError::Api(teloxide::ApiError::Unknown(ref d)) if d.starts_with("Unauthorized") => {
            StartError::Token
        }
        e => StartError::Telegram(bot.api_url().to_string(), e.to_string()),
    })?;
    let username = me.username().to_string();
    register_commands(&bot).await;
    let mut host_config = settings.host.clone();
    // Personal links to the live table are signed with a key made from the bot's token.
    let play_secret = host_config
        .play_secret
        .get_or_insert_with(|| stikis_host::links::play_secret(&settings.token))
        .clone();
    let (host, events) = Host::new(store.clone(), host_config);
    let shower = Shower::new(
        bot.clone(),
        store,
        username.clone(),
        settings.edit_interval,
        settings.hand_delay,
        settings.group_posts,
    );
    if let Some(name) = settings.mini_app.as_deref().filter(|n| !n.trim().is_empty()) {
        shower.open_in_mini_app(name, play_secret);
    }
    let app = Arc::new(App {
        host,
        shower,
        username,
        locks: Mutex::default(),
        admins: Mutex::default(),
    });
    match app.host.recover().await {
        Ok(out) => {
            app.show_unasked(out).await;
            app.shower.release_all().await;
        }
        Err(e) => tracing::error!(error = %e, "could not recover running tables"),
    }
    let timer_app = Arc::clone(&app);
    // In order within each chat, the chats side by side (`show_in_order`).
    let events_task = tokio::spawn(stikis_host::in_order::show_in_order(events, move |out| {
        let app = Arc::clone(&timer_app);
        async move { app.show_unasked(out).await }
    }));
    // Tables another process left quiet (it may have died) are taken over here.
    let sweep_app = Arc::clone(&app);
    let sweeper = tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        loop {
            sweep_app.host.sweep_due(&mut tick).await;
            match sweep_app.host.sweep(SWEEP_QUIET).await {
                Ok(out) => sweep_app.show_unasked(out).await,
                Err(e) => tracing::warn!(error = %e, "could not sweep quiet tables"),
            }
        }
    });
    let receiving = match settings.mode {
        Mode::Polling => {
            let handler = dptree::endpoint(|upd: Update, app: Arc<App>| async move {
                app.on_update(upd).await;
                respond(())
            });
            let mut dispatcher = Dispatcher::builder(bot.clone(), handler)
                .dependencies(dptree::deps![Arc::clone(&app)])
                .default_handler(|_| async {})
                .build();
            let token = dispatcher.shutdown_token();
            if let Err(e) = call(bot.delete_webhook()).await {
                tracing::warn!(error = %e, "deleteWebhook failed");
            }
            let listener = polling::listener(bot.clone(), Duration::from_secs(10));
            let dispatch = tokio::spawn(async move {
                dispatcher
                    .dispatch_with_listener(listener, LoggingErrorHandler::new())
                    .await
            });
            Receiving::Polling { token, dispatch }
        }
        Mode::Webhook { url, listen, secret } => Receiving::Webhook(
            webhook::start(Arc::clone(&app), url, listen, secret, settings.answer_wait).await?,
        ),
    };
    let (metrics_addr, metrics) = match settings.metrics_listen {
        Some(listen) => {
            // Long polling is up while getUpdates answered lately; a webhook while it listens.
            let up: stikis_host::observe::PlatformUp = match &receiving {
                Receiving::Polling { .. } => Arc::new(|| polling::answered_within(Duration::from_secs(90))),
                Receiving::Webhook(_) => Arc::new(|| true),
            };
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let (addr, task) = stikis_web::probe::serve(listen, app.host.store().clone(), up, async move {
                let _ = stopped.await;
            })
            .await
            .map_err(|e| StartError::Listen(listen, e.to_string()))?;
            tracing::info!(%addr, "serving /metrics and /healthz");
            (Some(addr), Some((stop, task)))
        }
        None => (None, None),
    };
    let web = match settings.web_listen {
        Some(listen) => Some(
            stikis_web::Listening::start(
                listen,
                app.host.store().clone(),
                // A person playing on the page is not sent their hand in the chat too
                // (`PlayConfig::hold_hands`, as on Discord).
                Some(stikis_web::play::PlayConfig {
                    // A Mini App session of someone the store does not know in the table's
                    // chat asks Telegram whether they are in it.
                    members: Some(Arc::new(Members(app.shower.bot.clone()))),
                    ..stikis_web::play::PlayConfig::new(Arc::clone(&app.host), &settings.token, true)
                }),
            )
            .await
            .map_err(|e| StartError::Listen(listen, e.to_string()))?,
        ),
        None => None,
    };
    Ok(Running {
        app,
        receiving,
        events: events_task,
        sweeper,
        metrics_addr,
        metrics,
        web,
    })
}

/// setMyCommands: the default list (English) and one per language.
async fn register_commands(bot: &Bot) {
    for lang in [None, Some(Lang::Lv), Some(Lang::En), Some(Lang::Ru)] {
        let i = commands::lang_index(lang.unwrap_or(Lang::En));
        let list = commands::all_commands()
            .into_iter()
            .map(|(name, d)| BotCommand::new(name, d[i].clone()));
        let mut req = bot.set_my_commands(list);
        if let Some(l) = lang {
            req = req.language_code(l.code());
        }
        if let Err(e) = call(req).await {
            tracing::warn!(error = %e, "setMyCommands failed");
        }
    }
}

fn chat_ref(m: &Message) -> ChatRef {
    let id = m.chat.id.0.to_string();
    let chat = ChatRef::new(Platform::Telegram, id.clone(), id);
    match m.thread_id {
        Some(t) if m.is_topic_message => chat.in_thread(t.0 .0.to_string()),
        _ => chat,
    }
}

fn person(u: &teloxide::types::User) -> User {
    User {
        id: u.id.0.to_string(),
        name: u.full_name(),
        admin: false,
    }
}

/// Says so when handling something took long: how long it waited for its table, was
/// handled, and was shown.
fn slow(what: &str, table: Option<i64>, t0: Instant, t1: Instant, t2: Instant) {
    if t0.elapsed() > Duration::from_secs(5) {
        tracing::warn!(
            table,
            waited_ms = (t1 - t0).as_millis() as u64,
            handled_ms = (t2 - t1).as_millis() as u64,
            shown_ms = t2.elapsed().as_millis() as u64,
            "{what} took long"
        );
    }
}

impl App {
    fn lock(&self, table: i64) -> Arc<AsyncMutex<()>> {
        self.locks
            .lock()
            .expect("table locks")
            .entry(table)
            .or_default()
            .clone()
    }

    /// Handles a request under its table's lock and shows what comes of it. A person's press
    /// (`presser`, received at the time given) waits for the lock at most `PRESS_LOCK_WAIT`
    /// and is then answered "try again" without being handled: the press before it may still
    /// be showing its messages (while the database is away, its first sends wait for it), and
    /// every press is answered within 5 s. Its time limit counts from when it was received,
    /// waits included.
    async fn run(
        &self,
        table: Option<i64>,
        req: Request,
        answer: Answer,
        presser: Option<(&teloxide::types::User, i64)>,
    ) {
        let lock = table.map(|t| self.lock(t));
        let t0 = Instant::now();
        let _guard = match (&lock, presser) {
            (Some(l), Some((u, _))) => match tokio::time::timeout(PRESS_LOCK_WAIT, l.lock()).await {
                Ok(guard) => Some(guard),
                Err(_) => {
                    tracing::warn!(table = ?table, "a press waited too long for its table; answered \"try again\"");
                    let mut o = Outbox::default();
                    o.reply(self.try_again(u).await);
                    return self.shower.show(o, answer).await;
                }
            },
            (Some(l), None) => Some(l.lock().await),
            (None, _) => None,
        };
        let t1 = Instant::now();
        let received_ms = presser.map_or_else(stikis_host::store::now_ms, |(_, at)| at);
        let out = self.host.handle_since(req, received_ms).await;
        let t2 = Instant::now();
        self.shower.show(out, answer).await;
        slow("a request", table, t0, t1, t2);
    }

    /// Shows an outbox nobody asked for (timers, recovery) under its table's lock. A
    /// tournament's (its next round, its end) waits under the locks of all its tables: a
    /// table's last press is shown under its table's lock, and the tournament's posts that it
    /// brings (moved on in a task of its own) come after that table's result and end.
    async fn show_unasked(&self, out: Outbox) {
        let mut tables: Vec<i64> = out
            .0
            .iter()
            .filter_map(|o| match o {
                stikis_host::Out::Public { key, .. } | stikis_host::Out::Private { key, .. } => {
                    show::table_of_key(key)
                }
                _ => None,
            })
            .take(1)
            .collect();
        let tournament = out.0.iter().find_map(|o| match o {
            stikis_host::Out::Public { key, .. } => match stikis_host::msgkey::MsgKey::parse(key) {
                Some(stikis_host::msgkey::MsgKey::Tournament { id }) => Some(id),
                _ => None,
            },
            _ => None,
        });
        if let Some(id) = tournament {
            match self.host.store().tournament_tables(id).await {
                Ok(rows) => tables.extend(rows.iter().map(|r| r.id)),
                Err(e) => tracing::debug!(error = %e, "could not read a tournament's tables"),
            }
        }
        // Always in one order (ascending), so two outboxes never wait for each other's locks.
        tables.sort_unstable();
        tables.dedup();
        let table = tables.first().copied();
        let locks: Vec<_> = tables.iter().map(|t| self.lock(*t)).collect();
        let t0 = Instant::now();
        let mut _guard = Vec::with_capacity(locks.len());
        for l in &locks {
            _guard.push(l.lock().await);
        }
        let t1 = Instant::now();
        self.shower.show(out, Answer::Nobody).await;
        slow("an unasked outbox", table, t0, t1, t1);
    }

    pub async fn on_update(self: &Arc<Self>, upd: Update) {
        self.on_update_since(upd, stikis_host::store::now_ms()).await
    }

    /// `on_update`, for an update received at `received_ms` (a press's time limit counts
    /// from then: `Host::handle_since`).
    pub async fn on_update_since(self: &Arc<Self>, upd: Update, received_ms: i64) {
        match upd.kind {
            UpdateKind::Message(m) => self.on_message(m, received_ms).await,
            UpdateKind::CallbackQuery(q) => self.on_callback(q, received_ms).await,
            UpdateKind::MyChatMember(u) => self.on_membership(u).await,
            _ => {}
        }
    }

    /// getChatMember, cached for a few minutes; None when Telegram could not say (not cached).
    async fn is_admin(&self, chat: ChatId, user: UserId) -> Option<bool> {
        if chat.is_user() {
            return Some(false);
        }
        if let Some((a, at)) = self.admins.lock().expect("admins").get(&(chat.0, user.0)) {
            if at.elapsed() < ADMIN_TTL {
                return Some(*a);
            }
        }
        let admin = match call(self.shower.bot.get_chat_member(chat, user)).await {
            Ok(m) => m.is_privileged(),
            Err(e) => {
                tracing::warn!(error = %e, "getChatMember failed");
                return None;
            }
        };
        self.admins
            .lock()
            .expect("admins")
            .insert((chat.0, user.0), (admin, Instant::now()));
        Some(admin)
    }

    /// Whether `user` may do a managing action as an admin. When Telegram cannot say, the
    /// action goes on only if it needs no admin (`creator_may` and the user opened the chat's
    /// table); otherwise None: the action is refused with "try again", never let through.
    async fn admin_or_retry(
        &self,
        chat: &ChatRef,
        cid: ChatId,
        from: UserId,
        user: &str,
        creator_may: bool,
    ) -> Option<bool> {
        if let Some(a) = self.is_admin(cid, from).await {
            return Some(a);
        }
        let creator = creator_may
            && (matches!(
                self.host.store().open_table(chat).await,
                Ok(Some(row)) if row.creator == user
            ) || matches!(
                self.host.store().latest_tournament(chat).await,
                Ok(Some(row)) if row.creator == user && row.status.is_open()
            ));
        creator.then_some(false)
    }

    async fn on_callback(self: &Arc<Self>, q: CallbackQuery, received_ms: i64) {
        let data = q.data.clone().unwrap_or_default();
        if let Some(choice) = show::parse_choice(&data) {
            return self.on_choice(&q, choice).await;
        }
        // Decoded here, once: the host is given the press as it was read.
        let press = Press::new(data);
        let alert = press.action() == Some(SHOW_HAND);
        let answer = Answer::Callback {
            id: q.id.clone(),
            alert,
            from: q.from.id.0.to_string(),
            pressed: pressed_label(&q, &press.wire),
        };
        let mut user = person(&q.from);
        let chat = match q.regular_message() {
            Some(m) => chat_ref(m),
            None => ChatRef::new(Platform::Telegram, user.id.clone(), user.id.clone()),
        };
        // Managing verbs need to know whether the presser administers the group.
        if matches!(
            press.action(),
            Some("bot" | "start" | "T:s" | "T:b" | "T:p" | "T:r" | "T:x")
        ) {
            if let Some(cid) = show::chat_id(&chat) {
                match self.admin_or_retry(&chat, cid, q.from.id, &user.id, true).await {
                    Some(a) => user.admin = a,
                    None => {
                        let lang = self.lang_of(&q.from).await;
                        let mut o = Outbox::default();
                        o.reply(t(lang, "admin-check-failed", &[]));
                        return self.shower.show(o, answer).await;
                    }
                }
            }
        }
        // A press on a hand still held back (its owner acted since it was drawn) is out of
        // date: the host says so, and the hand is redrawn at once.
        // In the group, it may be a hand shown as an ephemeral message (`show::group_hands`),
        // whose id stands in for the message's.
        let held = match &q.message {
            Some(m) if m.chat().is_private() => self.shower.held_at(&user.id, m.id()),
            Some(m) => self.shower.held_at_ephemeral(&user.id, m.id().0.into()),
            _ => Vec::new(),
        };
        let table = press.table();
        let req = Request {
            chat,
            user,
            command: Command::Press(press),
        };
        self.run(table, req, answer, Some((&q.from, received_ms))).await;
        if !held.is_empty() {
            self.shower.release_now(held).await;
        }
    }

    /// A group number button of a player without a private chat: the n-th choice of the
    /// presser's hand as it is now (`show::choice_data`), if it is their turn.
    async fn on_choice(self: &Arc<Self>, q: &CallbackQuery, choice: show::Choice) {
        let show::Choice { table, deal, n } = choice;
        let mut answer = Answer::Callback {
            id: q.id.clone(),
            alert: false,
            from: q.from.id.0.to_string(),
            pressed: None,
        };
        let user = person(&q.from);
        let chat = match q.regular_message() {
            Some(m) => chat_ref(m),
            None => ChatRef::new(Platform::Telegram, user.id.clone(), user.id.clone()),
        };
        let lang = self.lang_of(&q.from).await;
        let say = |text: String| {
            let mut o = Outbox::default();
            o.reply(text);
            o
        };
        let lock = self.lock(table);
        let t0 = Instant::now();
        let _guard = lock.lock().await;
        slow(
            "a numbered choice's lock",
            Some(table),
            t0,
            Instant::now(),
            Instant::now(),
        );
        // The presser's hand as it is now, with its legal actions in the order the popup
        // numbered them.
        let hand_token = Token::new(table, 0, SHOW_HAND).encode().unwrap_or_default();
        let shown = self
            .host
            .handle(Request {
                chat: chat.clone(),
                user: user.clone(),
                command: Command::press(hand_token),
            })
            .await;
        let hand = shown.0.iter().find_map(|o| match o {
            stikis_host::Out::Private {
                user: u,
                buttons,
                key,
                ..
            } if *u == user.id => Some((buttons.clone(), show::deal_of_key(key))),
            _ => None,
        });
        // A number under a finished deal's message is out of date: never played into the
        // deal being played now.
        let hand = match hand {
            Some((_, now)) if deal.is_some() && now != deal => {
                return self.shower.show(say(t(lang, "button-stale", &[])), answer).await;
            }
            hand => hand.map(|(buttons, _)| buttons),
        };
        let Some(hand) = hand else {
            // Not at this table, or no table: the host's answer says which.
            let text = shown.reply_text().unwrap_or_default().to_string();
            return self.shower.show(say(text), answer).await;
        };
        // Numbered as the popup numbers them: a disabled card is no choice.
        let actions: Vec<&stikis_host::Button> = hand.iter().flatten().filter(|b| !b.disabled).collect();
        let reply = if actions.is_empty() {
            t(lang, "turn-not-yours", &[])
        } else {
            match actions.get(n.wrapping_sub(1)) {
                None => t(lang, "telegram-choice-none", &[]),
                Some(b) => {
                    let req = Request {
                        chat,
                        user,
                        command: Command::press(b.token.clone()),
                    };
                    if let Answer::Callback { pressed, .. } = &mut answer {
                        *pressed = Some(b.label.clone());
                    }
                    let out = self.host.handle(req).await;
                    return self.shower.show(out, answer).await;
                }
            }
        };
        self.shower.show(say(reply), answer).await;
    }

    /// "Try again" for a press answered without being handled, in the person's language: the
    /// one they chose if the database says so within a moment (it may be away: the answer
    /// must not wait for it), else their Telegram client's.
    pub(crate) async fn try_again(&self, u: &teloxide::types::User) -> String {
        t(self.lang_of(u).await, "press-try-again", &[])
    }

    /// The language of a person: the one they chose, else their Telegram client's (also
    /// when the database does not say within `LANG_WAIT`: an answer must not wait for it).
    async fn lang_of(&self, u: &teloxide::types::User) -> Lang {
        let store = self.host.store();
        let stored = tokio::time::timeout(
            LANG_WAIT,
            store.user_lang(Platform::Telegram, &u.id.0.to_string()),
        )
        .await
        .ok()
        .and_then(Result::ok)
        .flatten();
        stored
            .or_else(|| commands::lang_of_code(u.language_code.as_deref()))
            .unwrap_or_default()
    }

    async fn on_membership(&self, u: ChatMemberUpdated) {
        if u.new_chat_member.is_present() || u.chat.is_private() {
            return;
        }
        // The bot was removed: close every open table of the group (nobody can see them).
        let community = CommunityRef::new(Platform::Telegram, u.chat.id.0.to_string());
        let rows = match self.host.store().open_tables(&community).await {
            Ok(r) => r,
            Err(e) => return tracing::warn!(error = %e, "could not list the group's tables"),
        };
        for row in rows {
            let lock = self.lock(row.id);
            let _g = lock.lock().await;
            let req = Request {
                chat: row.chat.clone(),
                user: User {
                    id: "telegram".into(),
                    name: "Telegram".into(),
                    admin: true,
                },
                command: Command::Stop,
            };
            // The outbox cannot be shown any more: the bot is no longer in the chat.
            let _ = self.host.handle(req).await;
            tracing::info!(table = row.id, "closed a table: the bot left its group");
        }
    }

    /// The language of an answer to a command of a person whose language is `lang`, said
    /// where it was given: in a group, the group's (as every other post there), in a private
    /// chat the person's.
    async fn said_lang(&self, chat: &ChatRef, private: bool, lang: Lang) -> Lang {
        if private {
            lang
        } else {
            // An answer must not wait for the database: the person's language then.
            tokio::time::timeout(LANG_WAIT, self.shower.community_lang(chat))
                .await
                .unwrap_or(lang)
        }
    }

    async fn user_lang(&self, m: &Message) -> Lang {
        match m.from.as_ref() {
            Some(u) => self.lang_of(u).await,
            None => Lang::default(),
        }
    }

    /// A command given in a chat at `received_ms`: answered within 5 s of then, outage or
    /// not ("try again" when its database work cannot start in time: it is then dropped).
    async fn on_message(self: &Arc<Self>, m: Message, received_ms: i64) {
        let (Some(text), Some(from)) = (m.text(), m.from.as_ref()) else {
            return;
        };
        let Some((name, args)) = commands::parse(text, &self.username) else {
            return;
        };
        let chat = chat_ref(&m);
        let answer = Answer::Message {
            chat: m.chat.id,
            thread: if m.is_topic_message { m.thread_id } else { None },
        };
        let mut user = person(from);
        let private = m.chat.is_private();
        let lang = self.user_lang(&m).await;
        let say = |text: String| {
            let mut o = Outbox::default();
            o.reply(text);
            o
        };
        // Help and the rules need no database (their languages are read within a moment);
        // everything else does.
        let needs_database = !matches!(
            (name.as_str(), args.is_empty()),
            ("help" | "rules", _) | ("start", true)
        );
        if needs_database && !self.host.command_may_start(received_ms).await {
            tracing::warn!(command = %name, "a command could not reach the database in time; answered \"try again\"");
            return self
                .shower
                .show(say(t(lang, "store-unavailable", &[])), answer)
                .await;
        }
        let command = match name.as_str() {
            "start" if private && !args.is_empty() => {
                // A deep link: t.me/<bot>?start=<lobby token>.
                self.shower.reachable(&user.id);
                let press = Press::new(show::token_of_start(args[0]));
                let table = press.table();
                let req = Request {
                    chat,
                    user,
                    command: Command::Press(press),
                };
                return self.run(table, req, answer, None).await;
            }
            "start" | "help" => {
                // Only a command in the private chat shows that chat is open: one typed in the
                // group says nothing of it (a closed chat would be tried again, and the group
                // told again that it is closed).
                if private {
                    self.shower.reachable(&user.id);
                }
                let lang = self.said_lang(&chat, private, lang).await;
                return self.shower.show(say(commands::help_text(lang)), answer).await;
            }
            "hands" => return self.hands_command(&m, from, &args, chat, answer, lang).await,
            "rules" => {
                let lang = self.said_lang(&chat, private, lang).await;
                return self
                    .shower
                    .show(say(commands::rules_text(lang).into()), answer)
                    .await;
            }
            g if commands::game_command(g, &args, &stikis_host::games::GAMES).is_some() => {
                let o = commands::game_command(g, &args, &stikis_host::games::GAMES).expect("checked");
                Command::NewTable {
                    game: o.game,
                    rules: o.preset.map(Value::String),
                    seats: o.seats,
                }
            }
            "join" => Command::Join,
            "leave" => Command::Leave,
            "go" => Command::Start,
            "stop" => Command::Stop,
            "record" => Command::Record,
            "play" => Command::PlayLink,
            "top" => match stikis_host::Board::parse(&args) {
                Some(b) => Command::Leaderboard(b),
                None => {
                    let usage = t(lang, "top-usage", &[]);
                    return self.shower.show(say(usage), privately(&m, from)).await;
                }
            },
            "season" if args.first() == Some(&"new") => Command::NewSeason,
            "stats" => Command::Stats,
            "web" => match args.first().copied() {
                Some("public") => Command::WebPublic {
                    name: Some(args[1..].join(" ")),
                },
                Some("private") => Command::WebPublic { name: None },
                first => Command::WebLink {
                    rotate: first == Some("new"),
                },
            },
            "bots" => Command::AddBot { level: Level::Basic },
            "tournament" => match stikis_host::tournament::parse_command(&args) {
                Some(c) => c,
                None => {
                    let usage = t(lang, "tournament-bad-options", &[]);
                    return self.shower.show(say(usage), privately(&m, from)).await;
                }
            },
            "lang" => {
                let pick = |s: &str| Lang::ALL.into_iter().find(|l| l.code() == s);
                let parsed = match args.as_slice() {
                    ["group", code] if !private => pick(code).map(Command::SetCommunityLang),
                    [code] => pick(code).map(Command::SetUserLang),
                    _ => {
                        let lang = self.said_lang(&chat, private, lang).await;
                        return self
                            .shower
                            .show(say(t(lang, "telegram-usage-lang", &[])), answer)
                            .await;
                    }
                };
                match parsed {
                    Some(c) => c,
                    None => {
                        let lang = self.said_lang(&chat, private, lang).await;
                        return self.shower.show(say(commands::help_text(lang)), answer).await;
                    }
                }
            }
            "settings" => match args.as_slice() {
                ["turn", "off"] => Command::SetTurnLimit(None),
                ["turn", n] if n.parse::<u32>().is_ok() => {
                    Command::SetTurnLimit(n.parse().ok().filter(|&s: &u32| s > 0))
                }
                ["auto", v @ ("on" | "off")] => Command::SetAutoStart(*v == "on"),
                ["names", "off"] => Command::SetComputerNames(Vec::new()),
                ["names", ..] => Command::SetComputerNames(
                    args[1..]
                        .join(" ")
                        .split(',')
                        .map(|n| n.trim().to_string())
                        .collect(),
                ),
                _ => {
                    let lang = self.said_lang(&chat, private, lang).await;
                    let usage = t(lang, "telegram-usage-settings", &[]);
                    let usage = format!("{usage}\n{}", self.hands_line(&chat, lang).await);
                    return self.shower.show(say(usage), answer).await;
                }
            },
            _ => return,
        };
        if matches!(
            command,
            Command::Stop
                | Command::Start
                | Command::AddBot { .. }
                | Command::SetCommunityLang(_)
                | Command::SetTurnLimit(_)
                | Command::SetAutoStart(_)
                | Command::SetComputerNames(_)
                | Command::NewSeason
                | Command::WebLink { rotate: true }
                | Command::WebPublic { .. }
                | Command::NewTournament { .. }
                | Command::Tournament(
                    TournamentVerb::Start
                        | TournamentVerb::AddComputer
                        | TournamentVerb::Pause
                        | TournamentVerb::Resume
                        | TournamentVerb::Cancel
                )
        ) {
            // The organiser of a tournament manages it without being asked about; opening
            // one takes an admin.
            let creator_may = matches!(
                command,
                Command::Stop | Command::Start | Command::AddBot { .. } | Command::Tournament(_)
            );
            match self
                .admin_or_retry(&chat, m.chat.id, from.id, &user.id, creator_may)
                .await
            {
                Some(a) => user.admin = a,
                None => {
                    let privately = privately(&m, from);
                    return self
                        .shower
                        .show(say(t(lang, "admin-check-failed", &[])), privately)
                        .await;
                }
            }
        }
        let table = match self.host.store().open_table(&chat).await {
            Ok(Some(row)) => Some(row.id),
            _ => None,
        };
        let times = if name == "bots" {
            args.first()
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 3)
        } else {
            1
        };
        let lock = table.map(|t| self.lock(t));
        let _guard = match &lock {
            Some(l) => Some(l.lock().await),
            None => None,
        };
        // `/bots N` is N requests; only the last answer is shown.
        let mut out = Outbox::default();
        for i in 0..times {
            let req = Request {
                chat: chat.clone(),
                user: user.clone(),
                command: command.clone(),
            };
            let mut o = self.host.handle_since(req, received_ms).await;
            if i + 1 < times {
                o.0.retain(|x| !matches!(x, stikis_host::Out::Reply { .. }));
            }
            out.extend(o);
        }
        // A command that changed nothing (refused, or nothing to do) is answered to the person
        // alone; what a group asks to see (/top, /stats) stays in the group.
        // An admin's settings change is said in the group too.
        let said_to_group = matches!(command, Command::Leaderboard(_) | Command::Stats)
            || (user.admin
                && matches!(
                    command,
                    Command::SetCommunityLang(_)
                        | Command::SetTurnLimit(_)
                        | Command::SetAutoStart(_)
                        | Command::SetComputerNames(_)
                ));
        let answer = if !private
            && !said_to_group
            && out.0.iter().all(|o| matches!(o, stikis_host::Out::Reply { .. }))
        {
            privately(&m, from)
        } else {
            answer
        };
        self.shower.show(out, answer).await;
    }
}

/// The answer to a group command that changed nothing: to its sender, in private.
/// The label of the button pressed, as the pressed message's keyboard shows it (Telegram
/// sends the message with the callback).
fn pressed_label(q: &CallbackQuery, data: &str) -> Option<String> {
    let markup = q.regular_message()?.reply_markup()?;
    markup
        .inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            teloxide::types::InlineKeyboardButtonKind::CallbackData(d) if d == data => Some(b.text.clone()),
            _ => None,
        })
}

fn privately(m: &Message, from: &teloxide::types::User) -> Answer {
    Answer::Privately {
        user: ChatId(from.id.0 as i64),
        group: m.chat.id,
        thread: if m.is_topic_message { m.thread_id } else { None },
    }
}

/// Telegram's word on who is in a chat (`getChatMember`), for the live table's Mini App: a
/// member, an administrator, the creator or a restricted member still in the chat is in it;
/// one who left or was banned, or whom Telegram does not know there, is not.
struct Members(Bot);

impl stikis_web::play::Members for Members {
    fn is_member<'a>(
        &'a self,
        chat: &'a ChatRef,
        user: &'a str,
    ) -> futures::future::BoxFuture<'a, Result<bool, String>> {
        Box::pin(async move {
            let (Ok(chat_id), Ok(user_id)) = (chat.chat.parse::<i64>(), user.parse::<u64>()) else {
                return Ok(false);
            };
            match show::call(self.0.get_chat_member(ChatId(chat_id), UserId(user_id))).await {
                Ok(m) => Ok(m.is_present()),
                Err(teloxide::RequestError::Api(teloxide::ApiError::UserNotFound)) => Ok(false),
                Err(teloxide::RequestError::Api(teloxide::ApiError::Unknown(d)))
                    if d.contains("PARTICIPANT_ID_INVALID") || d.contains("user not found") =>
                {
                    Ok(false)
                }
                Err(e) => Err(e.to_string()),
            }
        })
    }
}
