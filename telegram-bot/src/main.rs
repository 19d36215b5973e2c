//! `stikis-telegram`: the command line of the Telegram bot (configuration from flags and the
//! environment); everything else is in the library.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;

/// stikis on Telegram: card game tables in groups and forum topics, hands in private chats.
///
/// Create a bot with @BotFather, allow it in groups, and run with its token. Updates come by
/// long polling unless --webhook-url is given. Ctrl-C or SIGTERM stops it gracefully: updates
/// in hand finish, and running tables resume from the database at the next start.
#[derive(Parser, Debug)]
#[command(name = "stikis-telegram", version)]
struct Args {
    /// The bot token from @BotFather (required).
    #[arg(long, env = "TELEGRAM_BOT_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Database: a SQLite file path or sqlite: URL (created if missing), or a postgres:// URL.
    #[arg(long, env = "DATABASE_URL", default_value = "stikis.db")]
    database_url: String,
    /// Bot API server URL, for a self-hosted telegram-bot-api server (default: https://api.telegram.org).
    #[arg(long, env = "TELEGRAM_API_URL")]
    api_url: Option<url::Url>,
    /// Webhook mode: the public HTTPS URL Telegram posts updates to (default: long polling).
    /// A button press is then answered in the reply to its post, with no call of its own.
    #[arg(long, env = "TELEGRAM_WEBHOOK_URL")]
    webhook_url: Option<url::Url>,
    /// Webhook mode: the local address to listen on.
    #[arg(long, env = "TELEGRAM_WEBHOOK_LISTEN", default_value = "0.0.0.0:8443")]
    listen: SocketAddr,
    /// Webhook mode: the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (1-256 of
    /// A-Z a-z 0-9 _ -); posts without it are refused. Required on PostgreSQL, where every
    /// instance behind the webhook URL gives the same one; on SQLite, by default a random one
    /// per start.
    #[arg(long, env = "TELEGRAM_WEBHOOK_SECRET", hide_env_values = true)]
    webhook_secret: Option<String>,
    /// Minimum milliseconds between two edits of public messages in one group (Telegram allows
    /// about 20 messages a minute per group).
    #[arg(long, env = "STIKIS_EDIT_INTERVAL_MS", default_value_t = 3000)]
    edit_interval_ms: u64,
    /// New messages (deal results, notices, each deal's table message) one group may be sent
    /// a minute; its topics share them (Telegram allows about 20 a minute per group). When
    /// play is faster, what is owed waits and is merged (consecutive results in one message,
    /// only the newest deal's table message), never dropped or reordered; hands and edits
    /// never wait for it. 0: no limit.
    #[arg(long, env = "STIKIS_GROUP_POSTS_PER_MINUTE", default_value_t = 20)]
    group_posts_per_minute: usize,
    /// Milliseconds a hand that lost its buttons without its owner pressing (the turn timer
    /// moved for them) may keep its old look before it is redrawn; their next turn, the end
    /// of the deal or a press on it (answered "out of date") redraws it sooner. The presser's
    /// hand and the next player's are always redrawn at once. 0: redraw at once.
    #[arg(long, env = "STIKIS_HAND_DELAY_MS", default_value_t = 10000)]
    hand_delay_ms: u64,
    /// Serve Prometheus /metrics and /healthz (ready when the database answers and Telegram
    /// does) on this address, e.g. 127.0.0.1:9187. Off unless given.
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
    /// The Mini App's short name, as registered with @BotFather (/newapp, its URL
    /// <--web-url>/play/app): each running table's message gets an "Open the table" button.
    #[arg(long, env = "STIKIS_MINI_APP")]
    mini_app: Option<String>,
    /// Milliseconds a computer player may think over one move (more: stronger and more CPU).
    #[arg(long, env = "STIKIS_COMPUTER_THINK_MS", default_value_t = stikis_core::ai::DEFAULT_BUDGET_MS)]
    computer_think_ms: u64,
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
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    stikis_host::observe::init_logs(args.log_json);
    let Some(token) = args.token.filter(|t| !t.trim().is_empty()) else {
        eprintln!(
            "stikis-telegram: TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather and run\n  \
             TELEGRAM_BOT_TOKEN=123456:ABC... stikis-telegram\n(see stikis-telegram --help)"
        );
        return ExitCode::from(2);
    };
    let mut settings = stikis_telegram::Settings::new(token, args.database_url);
    settings.api_url = args.api_url;
    settings.edit_interval = std::time::Duration::from_millis(args.edit_interval_ms);
    settings.hand_delay = std::time::Duration::from_millis(args.hand_delay_ms);
    settings.group_posts = (args.group_posts_per_minute > 0).then(|| stikis_telegram::show::PostBudget {
        posts: args.group_posts_per_minute,
        window: std::time::Duration::from_secs(60),
    });
    settings.metrics_listen = args.metrics_listen;
    settings.web_listen = args.web_listen;
    settings.mini_app = args.mini_app;
    settings.host.web_url = args
        .web_url
        .filter(|u| !u.trim().is_empty())
        .or_else(|| args.web_listen.map(|a| format!("http://{a}")));
    settings.host.bot_budget_ms = args.computer_think_ms;
    settings.host.peer_listen = Some(args.peer_listen);
    if let Some(url) = args.webhook_url {
        settings.mode = stikis_telegram::Mode::Webhook {
            url,
            listen: args.listen,
            secret: args.webhook_secret,
        };
    }
    match stikis_telegram::start(settings).await {
        Ok(running) => {
            tracing::info!("stikis-telegram is running");
            running.until_signal().await;
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("stikis-telegram: {e}");
            ExitCode::FAILURE
        }
    }
}
