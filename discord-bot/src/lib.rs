//! stikis on Discord. This crate knows no rule: `commands` turns slash commands into host
//! requests, `press` turns button presses into host requests, and `show` turns the host's
//! outbox into Discord API calls (messages edited in place, coalesced, remembered across
//! restarts). `start` wires them to serenity's autosharded gateway through poise, and, when
//! configured, to an interactions endpoint (`endpoint`) that answers presses in its replies.

pub mod activity;
pub mod commands;
pub mod endpoint;
pub mod press;
pub mod show;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{GatewayIntents, ShardManager};
use stikis_host::i18n::Lang;
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::{Host, HostConfig, Outbox, User};
use tokio::sync::{Mutex as AsyncMutex, Notify};

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Data = Arc<Bot>;
pub type Ctx<'a> = poise::Context<'a, Data, Error>;

/// How the bot is started; `main` fills it from the environment.
#[derive(Clone)]
pub struct Config {
    pub token: String,
    /// A database URL (`postgres://…`) or an SQLite file path.
    pub database_url: String,
    /// Another Discord API base (scheme and host), for tests: REST goes there and the gateway
    /// address is asked from it.
    pub api_url: Option<String>,
    pub host: HostConfig,
    /// At most one edit of a message per this interval; edits asked for meanwhile are merged
    /// into the next one (Discord allows 5 message edits per 5 seconds in a channel).
    pub min_edit_interval: Duration,
    /// An interaction not answered within this time is deferred first (Discord allows 3 s).
    pub answer_within: Duration,
    /// Take interactions posted to this endpoint (Discord's Interactions Endpoint URL) too.
    pub interactions: Option<endpoint::Endpoint>,
    /// Where to serve /metrics and /healthz (None: not served).
    pub metrics_listen: Option<std::net::SocketAddr>,
    /// Where to serve the web face (None: not served); its public URL is `host.web_url`.
    pub web_listen: Option<std::net::SocketAddr>,
    /// The gateway shards this process connects (None: all, as many as Discord recommends).
    pub shards: Option<Shards>,
    /// The live table as a Discord Activity (`--activity`): a running table's "Open the
    /// table" launches it, and the web face signs people in to it. None: the button gives
    /// the personal link.
    pub activity: Option<activity::ActivityConfig>,
}

/// A range of gateway shards out of a total: `0-3/8` is shards 0, 1, 2 and 3 of 8. Several
/// processes on one database split a bot's shards between them; Discord sends each server's
/// events to shard `(server id >> 22) % total`, and direct messages to shard 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shards {
    pub first: u32,
    /// The last shard connected (inclusive).
    pub last: u32,
    pub total: u32,
}

impl std::str::FromStr for Shards {
    type Err = String;

    /// `A-B/N` (shards A to B of N) or `A/N` (shard A of N).
    fn from_str(s: &str) -> Result<Shards, String> {
        let bad = || format!("{s:?} is not a shard range like 0-3/8 (shards 0 to 3 of 8) or 2/8");
        let (range, total) = s.trim().split_once('/').ok_or_else(bad)?;
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        let num = |x: &str| x.trim().parse::<u32>().map_err(|_| bad());
        let shards = Shards {
            first: num(first)?,
            last: num(last)?,
            total: num(total)?,
        };
        if shards.total == 0 {
            return Err(format!("{s:?}: the total number of shards must be at least 1"));
        }
        if shards.first > shards.last || shards.last >= shards.total {
            return Err(format!(
                "{s:?}: the shards must go from a lower to a higher number, below the total ({})",
                shards.total
            ));
        }
        Ok(shards)
    }
}

impl Config {
    pub fn new(token: impl Into<String>, database_url: impl Into<String>) -> Config {
        Config {
            token: token.into(),
            database_url: database_url.into(),
            api_url: None,
            host: HostConfig::default(),
            min_edit_interval: Duration::from_millis(1000),
            answer_within: Duration::from_millis(2000),
            interactions: None,
            metrics_listen: None,
            web_listen: None,
            shards: None,
            activity: None,
        }
    }
}

/// What every handler shares.
pub struct Bot {
    pub host: Arc<Host>,
    pub http: Arc<serenity::Http>,
    pub show: Arc<show::Shower>,
    pub config: Config,
    in_flight: AtomicUsize,
    idle: Notify,
    /// One lock per table with a press being handled (see `press::on_press`).
    table_orders: std::sync::Mutex<HashMap<i64, Arc<AsyncMutex<()>>>>,
    /// The gateway's context and the bot's user id, once READY: commands posted to the
    /// interactions endpoint run in it.
    gateway: std::sync::OnceLock<(serenity::Context, serenity::UserId)>,
    /// Woken when `gateway` is set.
    gateway_set: Notify,
    /// The gateway is connected (READY seen, no shard reconnecting since): for /healthz.
    pub gateway_up: std::sync::atomic::AtomicBool,
}

/// Counts a handler as running until dropped, so shutdown can wait for it.
pub struct Busy<'a>(&'a Bot);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Bot {
    fn set_gateway(&self, ctx: serenity::Context, bot_id: serenity::UserId) {
        let _ = self.gateway.set((ctx, bot_id));
        self.gateway_set.notify_waiters();
    }

    /// The gateway's context and the bot's user id, waiting up to `within` for READY (and the
    /// commands' registration) while the bot starts.
    pub async fn gateway_within(
        &self,
        within: std::time::Duration,
    ) -> Option<(serenity::Context, serenity::UserId)> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            // Made before the look, so a `set_gateway` between the two still wakes it.
            let set = self.gateway_set.notified();
            if let Some(g) = self.gateway.get() {
                return Some(g.clone());
            }
            if tokio::time::timeout_at(deadline, set).await.is_err() {
                return self.gateway.get().cloned();
            }
        }
    }

    pub fn busy(&self) -> Busy<'_> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        Busy(self)
    }

    /// The lock that keeps presses on table `id` in order.
    pub fn table_order(&self, id: i64) -> Arc<AsyncMutex<()>> {
        self.table_orders
            .lock()
            .expect("table orders")
            .entry(id)
            .or_default()
            .clone()
    }

    /// Forgets a table's lock once nobody but the caller holds it.
    pub fn release_table_order(&self, id: i64, order: Arc<AsyncMutex<()>>) {
        let mut map = self.table_orders.lock().expect("table orders");
        // The map's copy and the caller's: nobody else is waiting on it.
        if Arc::strong_count(&order) == 2 {
            map.remove(&id);
        }
    }

    /// Waits until no handler runs and every message edit asked for has been sent.
    pub async fn settle(&self) {
        loop {
            let notified = self.idle.notified();
            if self.in_flight.load(Ordering::Acquire) == 0 {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(20), notified).await;
        }
        self.show.settle().await;
    }
}

/// Where a Discord interaction happened, as the host names chats.
pub fn chat_ref(guild: Option<serenity::GuildId>, channel: serenity::ChannelId) -> ChatRef {
    let community = guild.map_or_else(|| stikis_host::store::DISCORD_DM.to_string(), |g| g.to_string());
    ChatRef::new(Platform::Discord, community, channel.to_string())
}

/// The language of the bot's own texts for `user` in `chat`: theirs (`/lang`), else the
/// server's, as the host chooses its own.
pub async fn lang_of(store: &Store, chat: &ChatRef, user: &str) -> Lang {
    match store.user_lang(Platform::Discord, user).await {
        Ok(Some(l)) => l,
        _ => store
            .community_settings(&chat.community_ref())
            .await
            .map(|s| s.lang)
            .unwrap_or_default(),
    }
}

/// The host's view of a Discord user; `admin` is the member's Manage Server permission.
pub fn host_user(user: &serenity::User, member: Option<&serenity::Member>) -> User {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    let admin = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator());
    User {
        id: user.id.to_string(),
        name,
        admin,
    }
}

/// A running bot.
pub struct Running {
    pub bot: Arc<Bot>,
    shards: Arc<ShardManager>,
    client: tokio::task::JoinHandle<()>,
    timers: tokio::task::JoinHandle<()>,
    /// The interactions endpoint's server and what stops it.
    endpoint: Option<(tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>)>,
    /// Where /metrics and /healthz are served, if they are.
    pub metrics_addr: Option<std::net::SocketAddr>,
    metrics: Option<(tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>)>,
    /// The web face, if it is served.
    pub web: Option<stikis_web::Listening>,
}

impl Running {
    /// Stops taking interactions, lets the running ones finish, sends every pending edit and
    /// closes the database: nothing the host committed is left unshown.
    pub async fn shutdown(self) {
        if let Some((stop, server)) = self.endpoint {
            // Posts being answered finish; no new one is taken.
            let _ = stop.send(());
            let _ = server.await;
        }
        self.shards.shutdown_all().await;
        let _ = self.client.await;
        self.bot.settle().await;
        self.timers.abort();
        if let Some((stop, task)) = self.metrics {
            let _ = stop.send(());
            let _ = task.await;
        }
        if let Some(web) = self.web {
            web.stop().await;
        }
        // The other processes take this one's tables over at once.
        if let Err(e) = self.bot.host.store().forget_process().await {
            tracing::warn!(error = %e, "could not sign this process off");
        }
        self.bot.host.store().close().await;
    }

    /// Waits until the gateway client stops by itself (a fatal gateway error).
    pub async fn stopped(&mut self) {
        let _ = (&mut self.client).await;
    }
}

/// Connects to the database, recovers running tables, registers the commands and starts the
/// autosharded gateway.
pub async fn start(config: Config) -> Result<Running, Error> {
    // A wrong public key stops the start before anything else.
    let verifier = match &config.interactions {
        Some(ep) => Some(endpoint::verifier(&ep.public_key)?),
        None => None,
    };
    // A PostgreSQL server that does not answer yet is waited for (its /healthz says 503).
    let url = &config.database_url;
    let waiting = stikis_web::probe::Waiting::serve(url, config.metrics_listen)
        .await
        .map_err(|(listen, e)| format!("cannot serve metrics on {listen}: {e}"))?;
    let store = Store::connect_waiting(url, |e| waiting.database_waits(e)).await;
    waiting.stop().await;
    let store = store.map_err(|e| {
        format!(
            "cannot open the database ({}): {e}",
            stikis_host::store::database_named(url)
        )
    })?;
    let mut host_config = config.host.clone();
    // Personal links to the live table are signed with a key made from the bot's token.
    host_config
        .play_secret
        .get_or_insert_with(|| stikis_host::links::play_secret(&config.token));
    let (host, events) = Host::new(store, host_config);

    let mut builder = serenity::HttpBuilder::new(&config.token);
    if let Some(url) = &config.api_url {
        // serenity applies a proxy only with its own rate limiter off.
        builder = builder
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }

    // The framework hands the bot to handlers once the gateway is ready; the bot needs the
    // client's HTTP (which learns the application id from READY), so it is filled in after.
    let slot: Arc<std::sync::OnceLock<Data>> = Arc::new(std::sync::OnceLock::new());
    let setup_slot = slot.clone();
    let framework = poise::Framework::builder()
        .options(framework_options())
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let registered = poise::builtins::register_globally(ctx, &framework.options().commands).await;
                crate::counted("bulkOverwriteGlobalApplicationCommands", &registered);
                registered?;
                let bot = setup_slot
                    .get()
                    .expect("the bot is built before the gateway starts")
                    .clone();
                bot.set_gateway(ctx.clone(), ready.user.id);
                Ok(bot)
            })
        })
        .build();

    // The token and the connection are checked once, before anything runs, so that a wrong
    // token or no network is one clear line rather than a gateway that keeps failing.
    let http = builder.build();
    let gateway = http.get_bot_gateway().await;
    counted("getGatewayBot", &gateway);
    if let Err(e) = gateway {
        let refused = matches!(
            &e,
            serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r))
                if r.status_code.as_u16() == 401
        );
        return Err(if refused {
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN or --token".into()
        } else {
            let at = config.api_url.as_deref().unwrap_or("https://discord.com");
            format!("cannot reach Discord at {at}: {e}").into()
        });
    }
    let intents = GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let http = client.http.clone();
    let bot = Arc::new(Bot {
        host: host.clone(),
        http: http.clone(),
        show: Arc::new(show::Shower::new(
            http,
            host.store().clone(),
            config.min_edit_interval,
        )),
        config: config.clone(),
        in_flight: AtomicUsize::new(0),
        idle: Notify::new(),
        table_orders: Default::default(),
        gateway: Default::default(),
        gateway_set: Notify::new(),
        gateway_up: Default::default(),
    });
    let _ = slot.set(bot.clone());

    // With the live table served somewhere (`--web-url`), a running table's message opens it.
    if config.host.web_url.is_some() {
        bot.show.open_tables();
    }
    // Tables that were running before a restart: refresh their messages (edited in place).
    let out = host.recover().await?;
    bot.show.show(&out).await;

    let timer_bot = bot.clone();
    let sweep_bot = bot.clone();
    let timers = tokio::spawn(async move {
        // In order within each chat, the chats side by side (`show_in_order`).
        let shown = stikis_host::in_order::show_in_order(events, move |out| {
            let bot = timer_bot.clone();
            async move { bot.show.show(&out).await }
        });
        // Tables another process left quiet (it may have died) are taken over here, every
        // few seconds (`Host::sweep`).
        let swept = async move {
            let mut tick = tokio::time::interval(stikis_host::lobby::SWEEP_EVERY);
            loop {
                sweep_bot.host.sweep_due(&mut tick).await;
                match sweep_bot.host.sweep(stikis_host::lobby::SWEEP_QUIET).await {
                    Ok(out) => sweep_bot.show.show(&out).await,
                    Err(e) => tracing::warn!(error = %e, "could not sweep quiet tables"),
                }
            }
        };
        // The sweep goes on for as long as the host sends outboxes.
        tokio::select! {
            () = shown => {}
            () = swept => {}
        }
    });

    let shards = client.shard_manager.clone();
    let endpoint = match (&config.interactions, verifier) {
        (Some(ep), Some(verifier)) => {
            let tcp = tokio::net::TcpListener::bind(ep.listen)
                .await
                .map_err(|e| format!("cannot listen for interactions on {}: {e}", ep.listen))?;
            let app = endpoint::router(Arc::new(endpoint::EndpointState {
                bot: bot.clone(),
                verifier,
                options: framework_options(),
                shards: shards.clone(),
            }));
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let server = tokio::spawn(async move {
                let stopped = async {
                    let _ = stopped.await;
                };
                if let Err(e) = axum::serve(tcp, app).with_graceful_shutdown(stopped).await {
                    tracing::error!(error = %e, "the interactions endpoint failed");
                }
            });
            Some((stop, server))
        }
        _ => None,
    };
    let (metrics_addr, metrics) = match config.metrics_listen {
        Some(listen) => {
            let up_bot = bot.clone();
            let up: stikis_host::observe::PlatformUp =
                Arc::new(move || up_bot.gateway_up.load(Ordering::Acquire));
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let (addr, task) = stikis_web::probe::serve(listen, bot.host.store().clone(), up, async move {
                let _ = stopped.await;
            })
            .await
            .map_err(|e| format!("cannot serve metrics on {listen}: {e}"))?;
            tracing::info!(%addr, "serving /metrics and /healthz");
            (Some(addr), Some((stop, task)))
        }
        None => (None, None),
    };
    let web = match config.web_listen {
        Some(listen) => Some(
            stikis_web::Listening::start(
                listen,
                bot.host.store().clone(),
                Some(stikis_web::play::PlayConfig {
                    activity: config.activity.clone().map(|a| {
                        Arc::new(activity::DiscordActivity::new(
                            a,
                            config.api_url.as_deref(),
                            &config.token,
                        )) as Arc<dyn stikis_web::activity::Activity>
                    }),
                    ..stikis_web::play::PlayConfig::new(Arc::clone(&bot.host), &config.token, false)
                }),
            )
            .await
            .map_err(|e| format!("cannot serve the web face on {listen}: {e}"))?,
        ),
        None => None,
    };
    let range = config.shards;
    let client = tokio::spawn(async move {
        let started = match range {
            // serenity's range is inclusive of its end, as `Shards::last` is.
            Some(r) => client.start_shard_range(r.first..r.last, r.total).await,
            None => client.start_autosharded().await,
        };
        if let Err(e) = started {
            tracing::error!(error = %e, "the gateway client stopped");
        }
    });
    Ok(Running {
        bot,
        shards,
        client,
        timers,
        endpoint,
        metrics_addr,
        metrics,
        web,
    })
}

/// The commands and handlers, for the gateway's framework and the interactions endpoint.
fn framework_options() -> poise::FrameworkOptions<Data, Error> {
    poise::FrameworkOptions {
        commands: commands::all(),
        event_handler: |ctx, event, fw, data| Box::pin(on_event(ctx, event, fw, data)),
        on_error: |err| {
            Box::pin(async move {
                tracing::warn!(error = %err, "a command failed");
            })
        },
        ..Default::default()
    }
}

async fn on_event(
    _ctx: &serenity::Context,
    event: &serenity::FullEvent,
    _fw: poise::FrameworkContext<'_, Data, Error>,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(c),
        } => press::on_press(data, c, press::press_request(c), &press::Responder::Call).await,
        serenity::FullEvent::Ready { .. } => data.gateway_up.store(true, Ordering::Release),
        serenity::FullEvent::ShardStageUpdate { event } => data.gateway_up.store(
            event.new == serenity::ConnectionStage::Connected,
            Ordering::Release,
        ),
        _ => {}
    }
    Ok(())
}

/// Runs one host request, answering within the configured time: `defer` is called once if
/// the host takes longer, then the outbox is returned when it is ready.
pub async fn handle_in_time<F, Fut>(bot: &Bot, req: stikis_host::Request, defer: F) -> Outbox
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let host = bot.host.clone();
    in_time(
        bot.config.answer_within,
        async move { host.handle(req).await },
        defer,
    )
    .await
    .unwrap_or_else(|| {
        let mut out = Outbox::default();
        out.reply("⚠");
        out
    })
}

/// Runs `work` as its own task; if it is not done `within`, calls `defer` once and goes on
/// waiting. None if the work panicked.
pub async fn in_time<T, W, F, Fut>(within: Duration, work: W, defer: F) -> Option<T>
where
    T: Send + 'static,
    W: std::future::Future<Output = T> + Send + 'static,
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let mut task = tokio::spawn(work);
    let joined = match tokio::time::timeout(within, &mut task).await {
        Ok(r) => r,
        Err(_) => {
            defer().await;
            task.await
        }
    };
    joined
        .map_err(|e| tracing::error!(error = %e, "a request panicked"))
        .ok()
}

/// Counts a Discord API call by its outcome (`ok`, the HTTP status, `error`).
pub(crate) fn counted<T>(method: &'static str, r: &Result<T, serenity::Error>) {
    let status = match r {
        Ok(_) => "ok".to_string(),
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(e))) => {
            e.status_code.as_u16().to_string()
        }
        Err(_) => "error".to_string(),
    };
    stikis_host::observe::platform_call("discord", method, &status);
}

#[cfg(test)]
mod tests {
    use super::Shards;

    #[test]
    fn shard_ranges_read_as_operators_write_them() {
        let s = |first, last, total| Shards { first, last, total };
        assert_eq!("0-3/8".parse(), Ok(s(0, 3, 8)));
        assert_eq!("2/8".parse(), Ok(s(2, 2, 8)));
        assert_eq!(" 7-7/8 ".parse(), Ok(s(7, 7, 8)));
        for bad in ["", "8/8", "3-1/8", "0/0", "1-2", "a-b/c", "0-3/8/9"] {
            assert!(bad.parse::<Shards>().is_err(), "{bad:?}");
        }
    }
}
