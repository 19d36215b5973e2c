//! `stikis-discord`: reads its settings from the environment, runs the bot until SIGINT or
//! SIGTERM, then shuts down gracefully.

use std::process::ExitCode;

const HELP: &str = "\
stikis-discord: the stikis card-game bot on Discord (Zole, Belote, Coinche, Polt to Tzar).

USAGE:
    stikis-discord [--help]

ENVIRONMENT:
    DISCORD_TOKEN     required: the bot token (Discord developer portal, Bot tab).
    DATABASE_URL      optional: a PostgreSQL URL (postgres://user:pass@host/db) or an SQLite
                      file path or sqlite: URL; default: the SQLite file stikis.db in the
                      current directory. Running games survive restarts in it.
    DISCORD_API_URL   optional: send Discord REST calls to this base URL (scheme and host, e.g.
                      http://127.0.0.1:3000) instead of discord.com; the gateway address is
                      asked from it too. Used by the tests' fake Discord.
    DISCORD_INTERACTIONS_LISTEN
                      optional: an address (e.g. 0.0.0.0:8080) on which to take the
                      interactions Discord posts to the application's Interactions Endpoint
                      URL (developer portal, General Information; serve it over HTTPS through
                      a reverse proxy). A button press is then answered in the reply to its
                      post, one REST call less per press than over the gateway, which still
                      connects for everything else. Needs DISCORD_PUBLIC_KEY.
    DISCORD_PUBLIC_KEY
                      the application's public key (64 hexadecimal digits, same page): posts
                      not signed with it are refused.
    RUST_LOG          optional: log filter (default: info).

The bot connects with as many gateway shards as Discord recommends, registers its global
slash commands (/zole, /belote, /coinche, /polt: a table, optionally in its own thread;
/top, /stats, /lang, /record, /settings, /stop, /rules, /help) and needs no privileged
intents. Its own texts follow each person's /lang, else the server's (lv, en, ru).
SIGINT or SIGTERM stop it gracefully: no new interaction is taken, the running ones finish
and every pending message edit is sent.
";

#[tokio::main]
async fn main() -> ExitCode {
    if std::env::args().skip(1).any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    if let Some(a) = std::env::args().nth(1) {
        eprintln!("stikis-discord: unknown argument {a:?} (settings come from the environment; see --help)");
        return ExitCode::from(2);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let token = match std::env::var("DISCORD_TOKEN") {
        Ok(t) if !t.trim().is_empty() => t,
        _ => {
            eprintln!("stikis-discord: DISCORD_TOKEN is not set; give the bot's token (see --help)");
            return ExitCode::from(2);
        }
    };
    let db = std::env::var("DATABASE_URL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "stikis.db".into());
    let mut config = stikis_discord::Config::new(token, db);
    config.api_url = std::env::var("DISCORD_API_URL").ok().filter(|s| !s.is_empty());
    if let Some(listen) = std::env::var("DISCORD_INTERACTIONS_LISTEN")
        .ok()
        .filter(|s| !s.is_empty())
    {
        let Ok(listen) = listen.parse() else {
            eprintln!("stikis-discord: DISCORD_INTERACTIONS_LISTEN is not an address like 0.0.0.0:8080");
            return ExitCode::from(2);
        };
        let Some(public_key) = std::env::var("DISCORD_PUBLIC_KEY").ok().filter(|s| !s.is_empty()) else {
            eprintln!("stikis-discord: DISCORD_INTERACTIONS_LISTEN needs DISCORD_PUBLIC_KEY (see --help)");
            return ExitCode::from(2);
        };
        config.interactions = Some(stikis_discord::endpoint::Endpoint { listen, public_key });
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
