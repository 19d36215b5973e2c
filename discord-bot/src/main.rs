//! `stikis-discord`: reads its settings from the environment, runs the bot until SIGINT or
//! SIGTERM, then shuts down gracefully.

use std::process::ExitCode;

/// stikis on Discord: card-game tables in server channels (optionally each in its own thread),
/// hands by direct message.
#[derive(clap::Parser, Debug)]
#[command(
    name = "stikis-discord",
    version,
    about = "stikis-discord: the stikis card-game bot on Discord (Zole, Belote, Coinche, Polt to Tzar).",
    after_help = "\
The bot connects with as many gateway shards as Discord recommends (or those of --shards),
registers its global slash commands (/zole, /belote, /coinche, /polt: a table, optionally
in its own thread; /top, /stats, /lang, /record, /settings, /stop, /rules, /help) and
needs no privileged intents. Its own texts follow each person's /lang, else the server's
(lv, en, ru).
SIGINT or SIGTERM stop it gracefully: no new interaction is taken, the running ones finish
and every pending message edit is sent. RUST_LOG sets the log filter (default: info); log
lines carry colour only on a terminal."
)]
struct Args {
    /// The bot token (Discord developer portal, Bot tab); required.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// A PostgreSQL URL (postgres://user:pass@host/db), or an SQLite file path or sqlite: URL;
    /// running games survive restarts in it.
    #[arg(long, env = "DATABASE_URL", default_value = "stikis.db")]
    database_url: String,
    /// Send Discord REST calls to this base URL (scheme and host, e.g. http://127.0.0.1:3000)
    /// instead of discord.com; the gateway address is asked from it too. Used by the tests'
    /// fake Discord.
    #[arg(long, env = "DISCORD_API_URL")]
    api_url: Option<String>,
    /// An address (e.g. 0.0.0.0:8080) on which to take the interactions Discord posts to the
    /// application's Interactions Endpoint URL (developer portal, General Information; serve it
    /// over HTTPS through a reverse proxy). A button press is then answered in the reply to its
    /// post, one REST call less per press than over the gateway, which still connects for
    /// everything else. Needs DISCORD_PUBLIC_KEY.
    #[arg(long, env = "DISCORD_INTERACTIONS_LISTEN")]
    interactions_listen: Option<String>,
    /// Serve Prometheus /metrics and /healthz (ready when the database answers and the
    /// gateway is connected) on this address, e.g. 127.0.0.1:9188. Off unless given.
    #[arg(long, env = "STIKIS_METRICS_LISTEN")]
    metrics_listen: Option<std::net::SocketAddr>,
    /// Serve the web face (boards, finished games card by card) on this address, e.g.
    /// 127.0.0.1:8080. Off unless given. Chat links to it use --web-url.
    #[arg(long, env = "STIKIS_WEB_LISTEN")]
    web_listen: Option<std::net::SocketAddr>,
    /// The web face's public base URL, as people open it (e.g. https://cards.example.org):
    /// /web and the boards give links under it. Default: http://<--web-listen>.
    #[arg(long, env = "STIKIS_WEB_URL")]
    web_url: Option<String>,
    /// Connect only these gateway shards, e.g. 0-3/8 (shards 0 to 3 of 8) or 2/8, so that
    /// several processes on one database (PostgreSQL) share a bot: each server's events go to
    /// one shard, direct messages to shard 0, and any process may handle any table. Default:
    /// all shards, as many as Discord recommends.
    #[arg(long, env = "DISCORD_SHARDS")]
    shards: Option<stikis_discord::Shards>,
    /// The least time between two edits of one channel message (a table's), in ms: edits
    /// asked for meanwhile are merged into the next one.
    #[arg(long, env = "STIKIS_EDIT_INTERVAL_MS", default_value_t = 1000)]
    edit_interval_ms: u64,
    /// Several instances on one PostgreSQL database: where this one listens for the others
    /// (a press that reached an instance other than its table's owner goes straight to the
    /// owner). Port 0 takes a free one. The default serves instances on one machine; where
    /// they run on several machines or containers, give e.g. 0.0.0.0:7070 (the others are
    /// told the address the database sees this instance come from). Instances the others
    /// cannot reach are told through the database (slower).
    #[arg(long, env = "STIKIS_PEER_LISTEN", default_value = "127.0.0.1:0")]
    peer_listen: std::net::SocketAddr,
    /// Log one JSON object per line (for log collectors) instead of plain lines.
    #[arg(long, env = "STIKIS_LOG_JSON")]
    log_json: bool,
    /// The application's public key (64 hexadecimal digits, same page): interaction posts not
    /// signed with it are refused.
    #[arg(long, env = "DISCORD_PUBLIC_KEY")]
    public_key: Option<String>,
    /// Run the live table as a Discord Activity too (developer portal: Activities, with a URL
    /// mapping of / to --web-url; docs/web.md): a running table's "Open the table" launches it
    /// inside Discord instead of giving a personal link. Needs --web-listen (or another process
    /// serving --web-url), DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.
    #[arg(long, env = "STIKIS_DISCORD_ACTIVITY")]
    activity: bool,
    /// The application's client id (developer portal, OAuth2), for --activity.
    #[arg(long, env = "DISCORD_CLIENT_ID")]
    client_id: Option<String>,
    /// The application's client secret (same page), for --activity: only the bot holds it.
    #[arg(long, env = "DISCORD_CLIENT_SECRET", hide_env_values = true)]
    client_secret: Option<String>,
}

#[tokio::main]
async fn main() -> ExitCode {
    use clap::Parser;
    let args = Args::parse();
    stikis_host::observe::init_logs(args.log_json);
    let Some(token) = args.token.filter(|t| !t.trim().is_empty()) else {
        eprintln!("stikis-discord: DISCORD_TOKEN is not set; give the bot's token with --token or DISCORD_TOKEN (see --help)");
        return ExitCode::from(2);
    };
    let mut config = stikis_discord::Config::new(token, args.database_url);
    config.metrics_listen = args.metrics_listen;
    config.web_listen = args.web_listen;
    config.host.web_url = args
        .web_url
        .filter(|u| !u.trim().is_empty())
        .or_else(|| args.web_listen.map(|a| format!("http://{a}")));
    config.shards = args.shards;
    config.min_edit_interval = std::time::Duration::from_millis(args.edit_interval_ms);
    config.host.peer_listen = Some(args.peer_listen);
    config.api_url = args.api_url.filter(|s| !s.is_empty());
    if let Some(listen) = args.interactions_listen.filter(|s| !s.is_empty()) {
        let Ok(listen) = listen.parse() else {
            eprintln!("stikis-discord: DISCORD_INTERACTIONS_LISTEN is not an address like 0.0.0.0:8080");
            return ExitCode::from(2);
        };
        let Some(public_key) = args.public_key.filter(|s| !s.is_empty()) else {
            eprintln!("stikis-discord: DISCORD_INTERACTIONS_LISTEN needs DISCORD_PUBLIC_KEY (see --help)");
            return ExitCode::from(2);
        };
        config.interactions = Some(stikis_discord::endpoint::Endpoint { listen, public_key });
    }
    if args.activity {
        let given = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let (Some(client_id), Some(client_secret)) = (given(args.client_id), given(args.client_secret))
        else {
            eprintln!(
                "stikis-discord: --activity needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (see --help)"
            );
            return ExitCode::from(2);
        };
        if config.host.web_url.is_none() {
            eprintln!("stikis-discord: --activity needs the live table: give --web-listen or --web-url (see --help)");
            return ExitCode::from(2);
        }
        config.activity = Some(stikis_discord::activity::ActivityConfig {
            client_id,
            client_secret,
        });
    }
    let mut running = match stikis_discord::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("stikis-discord: {e}");
            return ExitCode::FAILURE;
        }
    };
    let gateway_ended = tokio::select! {
        _ = shutdown_signal() => false,
        _ = running.stopped() => true,
    };
    if gateway_ended {
        eprintln!("stikis-discord: the gateway connection ended (see the log)");
        return ExitCode::FAILURE;
    }
    tracing::info!("shutting down");
    running.shutdown().await;
    ExitCode::SUCCESS
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}
