//! Persistence: community and user settings, tables and their seats, the append-only action
//! log and deals (enough to rebuild a table's whole record), chat score sheets, and
//! leaderboards. Two backends behind one `Store`: SQLite (a file, the default) and PostgreSQL
//! (`postgres://` URLs). Every query is written once, in SQL both accept (`$n` parameters,
//! `ON CONFLICT`, `RETURNING`), and runs on whichever pool the store holds.
//!
//! Concurrency is the database's job, not the caller's: the unique keys on (table, seq),
//! (table, deal), (table, seat) and "one open table per chat" make two processes on one
//! database fail cleanly (`StoreError::SeqTaken`, ...) instead of both succeeding.
//!
//! On SQLite the action log is group-committed by one writer task per `Store` (`sqlite_log`):
//! appends waiting at the same moment share one transaction and one disk flush.

mod cached;
mod pg_log;
mod sqlite_log;
mod types;

use sqlite_log::Run;

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Connection, Row};
use stikis_core::record::Envelope;
use tokio::sync::{mpsc, oneshot};

use crate::i18n::Lang;
pub use types::*;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");

/// How long a SQLite writer waits for another writer (another process on the same file, or
/// another connection of the pool) before giving up.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A pooled PostgreSQL connection idle for longer than this is tested (a round trip) before
/// it is used; one idle for less is not.
pub(super) const PG_TEST_IDLE_OVER: Duration = Duration::from_secs(1);

/// A PostgreSQL pool of at most `max` connections. sqlx tests every connection with a
/// round trip when it goes back to the pool, and by default again when it is taken out:
/// two round trips besides each statement's own, a third of the database's wakeups and of
/// the bots' loopback traffic per move. A connection taken out within `PG_TEST_IDLE_OVER`
/// of the test it passed going back is used as it is; one idle longer (a quiet process,
/// whose connection the server or the network may have dropped meanwhile) is tested
/// first. A connection broken in that second fails its statement as a connection that
/// breaks during its statement does (the caller's store error), and is not used again.
fn pg_pool(max: u32) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(max)
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for > PG_TEST_IDLE_OVER {
                    conn.ping().await?;
                }
                Ok(true)
            })
        })
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another writer committed this sequence number first: reload the table and retry.
    #[error("sequence number {seq} of table {table} is already committed")]
    SeqTaken { table: i64, seq: i64 },
    /// The log starts at 1 and has no gaps: the next sequence number is `next`.
    #[error("sequence number {seq} of table {table} is not the next one ({next})")]
    SeqGap { table: i64, seq: i64, next: i64 },
    #[error("deal {deal} of table {table} is already started")]
    DealTaken { table: i64, deal: i64 },
    #[error("deal {deal} of table {table} is not the next one ({next})")]
    DealGap { table: i64, deal: i64, next: i64 },
    #[error("a deal must be a JSON object without \"actions\"")]
    BadDeal,
    #[error("seat {seat} of table {table} is taken")]
    SeatTaken { table: i64, seat: u8 },
    #[error("user {user} already sits at table {table}")]
    AlreadySeated { table: i64, user: String },
    #[error("this chat already has an open table")]
    ChatBusy,
    #[error("no table {0}")]
    NoTable(i64),
    #[error("table {0} is finished or stopped")]
    TableClosed(i64),
    #[error("bad PostgreSQL schema name {0:?} (ASCII letters, digits, _)")]
    BadSchema(String),
    #[error(
        "bad STIKIS_DB_POOL {0:?}: give main,light,writers (e.g. 4,2,1), each at least 1, fewer writers than main"
    )]
    BadPool(String),
    /// The action's press's time limit (`CommitBy`) was up before it could be committed; it
    /// is not, and never will be.
    #[error("not committed within the press's time limit")]
    Late,
    /// The transaction holding the action failed; the action is not committed.
    #[error("commit failed: {0}")]
    Commit(String),
    /// The connection failed while the action's commit was under way, and the database
    /// could not yet be asked whether it stands: `Store::settle` finds out once it answers.
    #[error("the outcome of the commit of action {} of table {} is not known yet", .0.seq, .0.table)]
    Unknown(Unsettled),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl crate::observe::Failure for StoreError {
    fn store_kind(&self) -> Option<&'static str> {
        Some(match self {
            StoreError::Db(sqlx::Error::PoolTimedOut) => "pool_timeout",
            StoreError::Db(
                sqlx::Error::Io(_)
                | sqlx::Error::Tls(_)
                | sqlx::Error::PoolClosed
                | sqlx::Error::Protocol(_)
                | sqlx::Error::WorkerCrashed,
            ) => "connection",
            StoreError::Db(sqlx::Error::Database(_)) => "database",
            StoreError::Commit(_) => "commit",
            StoreError::Unknown(_) => "unknown",
            StoreError::Late => "late",
            StoreError::Corrupt(_) => "corrupt",
            _ => "other",
        })
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// An action whose commit's outcome is not known (`StoreError::Unknown`): what this process
/// wrote, to be found in the log or not (`Store::settle`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsettled {
    pub table: i64,
    pub seq: i64,
    payload: String,
    at_ms: i64,
    process: String,
}

impl Unsettled {
    fn of(run: &sqlite_log::Run, process: &str) -> Unsettled {
        Unsettled {
            table: run.table,
            seq: run.seq,
            payload: run.payloads.first().cloned().unwrap_or_default(),
            at_ms: run.at_ms,
            process: process.to_string(),
        }
    }
}

/// The sizes of a PostgreSQL store, each process's: its main pool, its `light` pool (claims
/// and notices, whose commits do not wait for the disk) and the group-commit writers of its
/// action log (`pg_log`), which take their connections from the main pool.
///
/// Small on purpose. Each connection is a server process of PostgreSQL's, and they contend
/// for the same cores: with 16 + 6 a process, two bot processes on one 2-core machine kept 45
/// server processes busy, and PostgreSQL spent more CPU per move the more there were (0.76 ms
/// at 2 processes, 0.62 ms with 4 + 2: docs/operations.md). A move's statements take well under a
/// millisecond, so a few connections serve a process's tables; the log's writer commits
/// whatever gathered while it waited, so one is enough. `STIKIS_DB_POOL=main,light,writers`
/// changes them (docs/operations.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PgSizes {
    pub main: u32,
    pub light: u32,
    pub writers: u32,
}

impl Default for PgSizes {
    fn default() -> PgSizes {
        PgSizes {
            main: 4,
            light: 2,
            writers: 1,
        }
    }
}

impl PgSizes {
    /// `STIKIS_DB_POOL`, or the defaults when it is not set.
    pub fn from_env() -> Result<PgSizes> {
        match std::env::var("STIKIS_DB_POOL") {
            Ok(v) => PgSizes::parse(&v),
            Err(_) => Ok(PgSizes::default()),
        }
    }

    /// "main,light,writers", each at least 1, with fewer writers than main connections
    /// (the others need one too).
    pub fn parse(v: &str) -> Result<PgSizes> {
        let bad = || StoreError::BadPool(v.to_string());
        let numbers = v
            .split(',')
            .map(|p| p.trim().parse::<u32>().ok().filter(|n| *n > 0))
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(bad)?;
        let &[main, light, writers] = numbers.as_slice() else {
            return Err(bad());
        };
        if writers >= main {
            return Err(bad());
        }
        Ok(PgSizes { main, light, writers })
    }
}

/// A handle on the database; cheap to clone (the pools are shared).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    /// SQLite only: the group-commit writer of the action log (see `sqlite_log`).
    appender: Option<mpsc::Sender<sqlite_log::Job>>,
    /// PostgreSQL only: the group-commit writers of the action log (see `pg_log`).
    pg_appender: Option<mpsc::Sender<pg_log::Job>>,
    /// SQLite only: the one connection every write of this store goes through. SQLite has
    /// one writer at a time; writers of one pool that met at its lock would wait in SQLite's
    /// busy handler, which sleeps in steps of up to 100 ms. Queued here they wait their turn
    /// without sleeping, and the action log's group commit is never starved.
    writer: Option<SqlitePool>,
    /// PostgreSQL only: a few connections whose commits do not wait for the disk
    /// (`synchronous_commit = off`), for writes a database crash may lose at no lasting cost:
    /// the claims of rendered versions (`claim_render`) and the notices between processes
    /// (`notify`). They are most of the writes when several processes run, and each would
    /// otherwise wait for its own flush. A crash loses at most the last fraction of a second
    /// of them: a notice's sender answers "try again", and a lost claim lets one older render
    /// through once. The claims to send a message's first version and its id once sent
    /// (`claim_first_post`, `keep_first_post`) go here too: until the id is kept, a process
    /// killed after sending leaves a claim that another process takes over and sends again,
    /// so the sooner it is kept the rarer a message shown twice; a crash of the database
    /// that loses an id kept shows that one message twice.
    light: Option<PgPool>,
    /// This process's name in the `processes` table and on the actions it commits.
    process: Arc<str>,
    /// Languages and community settings read lately (`cached`).
    cache: Arc<cached::SettingsCache>,
    /// The hosting processes alive as this process last read them (`set_live`; None before
    /// that and on SQLite): a first-post claim of a process not among them is taken over
    /// without waiting for it to lapse (`claim_first_post`).
    live: Arc<std::sync::RwLock<Option<Vec<String>>>>,
    /// When `live` last changed (its first read, and a read after a gap in the reads, count
    /// as a change), and when it was last read: `shows_alone`.
    live_since: Arc<std::sync::Mutex<Option<(std::time::Instant, std::time::Instant)>>>,
    /// What the channels of `notify` and `listen` are named with besides their name: a hash
    /// of the PostgreSQL schema (empty without one). A notice is heard by every session of the
    /// database, whatever its schema: installations (and test runs) that share a database in
    /// schemas of their own would otherwise hear each other's tables change.
    scope: Arc<str>,
    /// The first posts this process claimed and is sending (`claim_first_post` said `Mine`,
    /// and neither an id was kept nor the claim given up yet), by platform, key and
    /// recipient, with when: a post kept under a key that this process is still sending (a
    /// chat's flood control may hold it long after its claim would lapse) is not posted by it
    /// a second time (`claim_once`).
    sending: Arc<std::sync::Mutex<HashMap<PostKey, std::time::Instant>>>,
    /// Where this process listens for the others and its secret ("address secret"), written
    /// with its heartbeat (`processes.peer`, see `crate::peers`); None: nowhere.
    peer: Arc<std::sync::Mutex<Option<String>>>,
    /// Faults a test makes in the log writer (PostgreSQL): `lose_commit_answer`.
    faults: Arc<pg_log::Faults>,
}

/// A keyed message to one recipient: platform, key, recipient.
type PostKey = (Platform, String, String);

#[derive(Clone, Debug)]
enum Backend {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to whichever pool the store holds. The body is compiled
/// once per backend, so one SQL text and one decoding serve both.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            Backend::Sqlite($pool) => $body,
            Backend::Postgres($pool) => $body,
        }
    };
}

/// Like `on_pool!`, for statements that write: on SQLite they run on the store's one writer
/// connection.
macro_rules! on_write {
    ($store:expr, $pool:ident => $body:expr) => {
        match (&$store.backend, &$store.writer) {
            (Backend::Sqlite(_), Some($pool)) => $body,
            (Backend::Sqlite($pool), None) => $body,
            (Backend::Postgres($pool), _) => $body,
        }
    };
}

/// Like `on_write!`, for writes a database crash may lose (see `Store::light`): on
/// PostgreSQL they go through the light pool, whose commits do not wait for the disk.
macro_rules! on_light {
    ($store:expr, $pool:ident => $body:expr) => {
        match (&$store.light, &$store.backend, &$store.writer) {
            (Some($pool), _, _) => $body,
            (None, Backend::Sqlite(_), Some($pool)) => $body,
            (None, Backend::Sqlite($pool), None) => $body,
            (None, Backend::Postgres($pool), _) => $body,
        }
    };
}

/// The PostgreSQL channel on which processes tell each other that a table changed.
const CHANGED_CHANNEL: &str = "stikis_table_changed";

tokio::task_local! {
    /// A person's press: the time by which its move must be committed (see `commit_by`).
    static COMMIT_BY: Arc<CommitBy>;
}

/// The time limit of a person's press on its move's commit. A press that could not be
/// committed in time is answered "try again", so it must never be committed later: the
/// action log's writer refuses an action whose time is up before it sends it, and the
/// database refuses it when its own clock has passed the time (PostgreSQL; SQLite is in the
/// process and has no outage). Only the first action committed under it is bound (the
/// person's own move; computer players that move after it are not).
#[derive(Debug)]
pub struct CommitBy {
    until_ms: i64,
    /// A press's name: its receiver's, for one handed over by another process, or the one
    /// its receiver gave it (`Host::handle_named`), written with its move (the `press`
    /// column), so that the press's move can be told in the log from a second press of the
    /// same button (`Host::answer_from_log`, a deferred press's watcher).
    press: Option<String>,
    /// 0: no action taken yet; 1: one is being committed; 2: its commit answered; 3: its
    /// commit answered, committed.
    state: std::sync::atomic::AtomicU8,
}

impl CommitBy {
    /// Runs `work` with its first commit bound to `until_ms` (Unix ms). Returns the limit's
    /// handle too, to ask whether that commit has been answered (`answered`).
    pub fn new(until_ms: i64, press: Option<String>) -> Arc<CommitBy> {
        Arc::new(CommitBy {
            until_ms,
            press,
            state: std::sync::atomic::AtomicU8::new(0),
        })
    }

    pub async fn scope<F: std::future::Future>(self: &Arc<Self>, work: F) -> F::Output {
        COMMIT_BY.scope(Arc::clone(self), work).await
    }

    /// The bound commit has answered (committed or refused): the work is past its limit.
    pub fn answered(&self) -> bool {
        self.state.load(std::sync::atomic::Ordering::SeqCst) >= 2
    }

    /// The bound action has gone to the log's writer (it may be committed at any moment, or
    /// be refused for its time): only its answer says which.
    pub fn sent(&self) -> bool {
        self.state.load(std::sync::atomic::Ordering::SeqCst) != 0
    }

    pub fn until_ms(&self) -> i64 {
        self.until_ms
    }

    /// The limit for the commit about to be made, if it is the first under a press's limit.
    fn take() -> Option<Arc<CommitBy>> {
        use std::sync::atomic::Ordering::SeqCst;
        COMMIT_BY
            .try_with(Arc::clone)
            .ok()
            .filter(|c| c.state.compare_exchange(0, 1, SeqCst, SeqCst).is_ok())
    }

    fn done(&self, committed: bool) {
        let state = if committed { 3 } else { 2 };
        self.state.store(state, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the work running under a press's limit has had that press's move committed:
    /// a failure after it (a read, a later write) leaves the move standing, so the press
    /// must not be answered "nothing was changed".
    pub fn committed_here() -> bool {
        COMMIT_BY
            .try_with(|c| c.state.load(std::sync::atomic::Ordering::SeqCst) == 3)
            .unwrap_or(false)
    }
}

/// Commits action `$2` of table `$1` only if it is the table's next sequence number. Two
/// writers of the same number may both pass the guard (PostgreSQL, read committed); the
/// primary key then makes the later one do nothing, and the caller sees 0 rows.
const APPEND_SQL: &str = "INSERT INTO actions (table_id, seq, payload, at_ms, process, press) \
     SELECT $1, $2, $3, $4, $5, $6 \
     WHERE $2 = (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = $1) \
     ON CONFLICT (table_id, seq) DO NOTHING";

/// SQLite's "busy" and "locked" answers (codes 5 and 6, with their extended forms).
fn is_sqlite_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(0);
            matches!(code & 0xff, 5 | 6)
        }
        _ => false,
    }
}

/// A name for this process, unique among the processes sharing a database: its pid and the
/// moment it opened the store.
fn new_process_id() -> Arc<str> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("p{}-{:x}", std::process::id(), nanos & 0xffff_ffff_ffff).into()
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

fn is_fk_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_foreign_key_violation())
}

fn parse_json(s: &str, what: &str) -> Result<Value> {
    serde_json::from_str(s).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn parse<T: FromStr<Err = String>>(s: &str) -> Result<T> {
    s.parse().map_err(StoreError::Corrupt)
}

fn parse_lang(s: &str) -> Result<Lang> {
    s.parse()
        .map_err(|e: crate::i18n::UnknownLang| StoreError::Corrupt(e.to_string()))
}

fn small<T: TryFrom<i64>>(n: i64, what: &str) -> Result<T> {
    T::try_from(n).map_err(|_| StoreError::Corrupt(format!("{what} {n} out of range")))
}

/// The chat columns of a row (platform, community, chat, thread; '' meaning no thread).
macro_rules! chat_ref {
    ($r:expr) => {{
        let thread: String = $r.try_get("thread_id")?;
        ChatRef {
            platform: parse(&$r.try_get::<String, _>("platform")?)?,
            community: $r.try_get("community_id")?,
            chat: $r.try_get("chat_id")?,
            thread: (!thread.is_empty()).then_some(thread),
        }
    }};
}

const TABLE_COLUMNS: &str = "id, platform, community_id, chat_id, thread_id, game, rules, \
                             seat_count, creator_id, status, created_ms, updated_ms, slot, \
                             tournament_id, deal_limit, deadline_ms";

macro_rules! table_row {
    ($r:expr) => {{
        let r = $r;
        TableRow {
            id: r.try_get("id")?,
            chat: chat_ref!(r),
            game: r.try_get("game")?,
            rules: parse_json(&r.try_get::<String, _>("rules")?, "rules")?,
            seats: usize::try_from(r.try_get::<i64, _>("seat_count")?).unwrap_or(0),
            creator: r.try_get("creator_id")?,
            status: parse(&r.try_get::<String, _>("status")?)?,
            created_ms: r.try_get("created_ms")?,
            updated_ms: r.try_get("updated_ms")?,
            tournament: match r.try_get::<Option<i64>, _>("tournament_id")? {
                Some(tournament) => Some(TournamentSlot {
                    tournament,
                    slot: r.try_get("slot")?,
                    deal_limit: r
                        .try_get::<Option<i64>, _>("deal_limit")?
                        .map(|n| usize::try_from(n).unwrap_or(0)),
                    deadline_ms: r.try_get("deadline_ms")?,
                }),
                None => None,
            },
        }
    }};
}

/// Who a row's `user_id` and `bot_level` say sits there (seats, tournament entrants): exactly
/// one of the two is set.
fn occupant(user: Option<String>, level: Option<i64>) -> Result<Occupant> {
    match (user, level) {
        (Some(user_id), None) => Ok(Occupant::Human { user_id }),
        (None, Some(level)) => Ok(Occupant::Computer {
            level: small(level, "bot level")?,
        }),
        _ => Err(StoreError::Corrupt(
            "a seat or entry with both or neither of user and computer player".into(),
        )),
    }
}

macro_rules! seat_row {
    ($r:expr) => {{
        let r = $r;
        let occupant = occupant(r.try_get("user_id")?, r.try_get("bot_level")?)?;
        SeatRow {
            seat: small(r.try_get::<i64, _>("seat")?, "seat")?,
            name: r.try_get("display_name")?,
            occupant,
            away: r.try_get("away")?,
        }
    }};
}

macro_rules! action_row {
    ($r:expr) => {{
        let r = $r;
        ActionRow {
            seq: r.try_get("seq")?,
            payload: parse_json(&r.try_get::<String, _>("payload")?, "action")?,
            at_ms: r.try_get("at_ms")?,
            process: r.try_get("process")?,
        }
    }};
}

macro_rules! deal_row {
    ($r:expr) => {{
        let r = $r;
        DealRow {
            deal_no: r.try_get("deal_no")?,
            first_seq: r.try_get("first_seq")?,
            seed_hex: r.try_get("seed_hex")?,
            commitment_hex: r.try_get("commitment_hex")?,
            deal: parse_json(&r.try_get::<String, _>("deal")?, "deal")?,
            at_ms: r.try_get("at_ms")?,
        }
    }};
}

const SHEET_COLUMNS: &str = "id, platform, community_id, chat_id, thread_id, game, totals, \
                             pules, created_ms, updated_ms, closed_ms";

macro_rules! sheet_row {
    ($r:expr) => {{
        let r = $r;
        let totals: String = r.try_get("totals")?;
        ScoreSheetRow {
            id: r.try_get("id")?,
            chat: chat_ref!(r),
            game: r.try_get("game")?,
            totals: serde_json::from_str(&totals)
                .map_err(|e| StoreError::Corrupt(format!("score sheet totals: {e}")))?,
            pules: parse_json(&r.try_get::<String, _>("pules")?, "pules")?,
            created_ms: r.try_get("created_ms")?,
            updated_ms: r.try_get("updated_ms")?,
            closed_ms: r.try_get("closed_ms")?,
        }
    }};
}

const STATS_COLUMNS: &str =
    "user_id, display_name, games, deals, declarer_wins, points, pules_written, pules_removed";

macro_rules! stats_row {
    ($r:expr) => {{
        let r = $r;
        StatsRow {
            user_id: r.try_get("user_id")?,
            name: r.try_get("display_name")?,
            stats: Stats {
                games: r.try_get("games")?,
                deals: r.try_get("deals")?,
                declarer_wins: r.try_get("declarer_wins")?,
                points: r.try_get("points")?,
                pules_written: r.try_get("pules_written")?,
                pules_removed: r.try_get("pules_removed")?,
            },
        }
    }};
}

/// The scope of a schema's channels (`Store::scope`): 16 hex digits of its FNV-1a hash, so
/// that a channel's name stays within PostgreSQL's 63 bytes whatever the schema's length.
fn channel_scope(schema: &str) -> String {
    let hash = schema.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

impl Store {
    /// Opens the database named by `url` and brings its schema up to date. `postgres://` and
    /// `postgresql://` URLs open PostgreSQL; anything else is a SQLite file (`sqlite:path`,
    /// `sqlite://path` or a plain path), created on first run.
    pub async fn connect(url: &str) -> Result<Store> {
        // The process's metrics recorder, installed before anything is recorded: a bot opens
        // its store before its first platform call, so the start's calls are counted too.
        let _ = crate::observe::recorder();
        if is_postgres_url(url) {
            Store::connect_postgres(url, None).await
        } else {
            Store::open_sqlite(url).await
        }
    }

    /// Connects as `connect` does, but waits for a PostgreSQL server that cannot be reached
    /// yet (down, starting up, restarting, out of connections): it tries again every
    /// `CONNECT_RETRY`, saying so in the log each time, until the server answers, and calls
    /// `waiting` before each wait (a bot's `/healthz` says 503 meanwhile). What waiting does not
    /// mend (a malformed URL, a bad `STIKIS_DB_POOL`, a refused password, a missing database,
    /// a SQLite file that cannot be opened) ends it at once.
    pub async fn connect_waiting(url: &str, mut waiting: impl FnMut(&StoreError)) -> Result<Store> {
        if !is_postgres_url(url) {
            return Store::connect(url).await;
        }
        let options = PgConnectOptions::from_str(url)?;
        // Waiting does not mend a bad setting either: said before any wait.
        PgSizes::from_env()?;
        let mut tries = 0u32;
        loop {
            // One connection first: it fails at once when nothing listens, where the pool
            // would keep trying for its acquire timeout.
            let tried = match sqlx::PgConnection::connect_with(&options).await {
                Ok(conn) => {
                    let _ = conn.close().await;
                    Store::connect(url).await
                }
                Err(e) => Err(e.into()),
            };
            match tried {
                Err(e) if e.is_unreachable() => {
                    tries += 1;
                    tracing::warn!(
                        database = %database_named(url),
                        error = %e,
                        tries,
                        "the database does not answer; trying again in {} s",
                        CONNECT_RETRY.as_secs()
                    );
                    waiting(&e);
                    tokio::time::sleep(CONNECT_RETRY).await;
                }
                other => return other,
            }
        }
    }

    /// Opens (creating if needed) a SQLite database in WAL mode: readers never wait for the
    /// writer, and a commit is durable once `append_action` returns (synchronous=FULL).
    pub async fn open_sqlite(url_or_path: &str) -> Result<Store> {
        let options = if url_or_path.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url_or_path)?
        } else {
            SqliteConnectOptions::new().filename(url_or_path)
        };
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(SQLITE_BUSY_TIMEOUT)
            .foreign_keys(true);
        // Two processes opening a fresh file at once: switching it to WAL answers "database is
        // locked" at once, without waiting in the busy handler. Trying again finds it in WAL.
        let mut attempt = 0;
        loop {
            match Self::open_sqlite_once(&options).await {
                Err(StoreError::Db(e)) if attempt < 10 && is_sqlite_busy(&e) => {
                    crate::observe::store_retry("open");
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(20 * attempt)).await;
                }
                other => return other,
            }
        }
    }

    async fn open_sqlite_once(options: &SqliteConnectOptions) -> Result<Store> {
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options.clone())
            .await?;
        // SQLite's migrator takes no lock: two processes starting at once on a fresh file both
        // try the first migration, and the loser fails. Each migration is one transaction, so
        // trying again simply finds it applied.
        let mut attempt = 0;
        loop {
            match SQLITE_MIGRATIONS.run(&pool).await {
                Ok(()) => break,
                Err(
                    sqlx::migrate::MigrateError::Execute(_)
                    | sqlx::migrate::MigrateError::ExecuteMigration(..),
                ) if attempt < 5 => {
                    crate::observe::store_retry("migrate");
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        let process = new_process_id();
        let scope: Arc<str> = Arc::from("");
        let store = Store {
            appender: Some(sqlite_log::spawn(writer.clone(), Arc::clone(&process))),
            pg_appender: None,
            writer: Some(writer),
            light: None,
            backend: Backend::Sqlite(pool),
            process,
            cache: Arc::default(),
            live: Arc::default(),
            live_since: Arc::default(),
            scope: scope.clone(),
            sending: Arc::default(),
            peer: Arc::default(),
            faults: Arc::default(),
        };
        store.beat().await?;
        Ok(store)
    }

    /// Opens PostgreSQL; with `schema`, every table lives in that schema (created if missing),
    /// so several installations or test runs can share one database.
    pub async fn connect_postgres(url: &str, schema: Option<&str>) -> Result<Store> {
        let sizes = PgSizes::from_env()?;
        let mut options = PgConnectOptions::from_str(url)?;
        let scope: Arc<str> = schema.map(channel_scope).unwrap_or_default().into();
        if let Some(schema) = schema {
            let valid = !schema.is_empty()
                && schema.len() <= 63
                && schema.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !schema.as_bytes()[0].is_ascii_digit();
            if !valid {
                return Err(StoreError::BadSchema(schema.to_string()));
            }
            let mut conn = sqlx::PgConnection::connect_with(&options).await?;
            let created = sqlx::query(&format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\""))
                .execute(&mut conn)
                .await;
            match created {
                // Two processes creating it at once: the loser hits the catalog's unique key.
                Err(e) if !is_unique_violation(&e) => return Err(e.into()),
                _ => {}
            }
            conn.close().await?;
            options = options.options([("search_path", schema)]);
        }
        // Every session of this process carries its name: the others see it alive while it
        // has one (`live_process_ids`), and dead the moment its sessions are gone.
        let process = new_process_id();
        let options = options.application_name(&process);
        let light =
            pg_pool(sizes.light).connect_lazy_with(options.clone().options([("synchronous_commit", "off")]));
        let pool = pg_pool(sizes.main).connect_with(options).await?;
        POSTGRES_MIGRATIONS.run(&pool).await?;
        let faults = Arc::<pg_log::Faults>::default();
        let store = Store {
            appender: None,
            pg_appender: Some(pg_log::spawn(
                pool.clone(),
                Arc::clone(&process),
                sizes.writers,
                Arc::clone(&faults),
            )),
            writer: None,
            light: Some(light),
            backend: Backend::Postgres(pool),
            process,
            cache: Arc::default(),
            live: Arc::default(),
            live_since: Arc::default(),
            scope: scope.clone(),
            sending: Arc::default(),
            peer: Arc::default(),
            faults,
        };
        store.beat().await?;
        Ok(store)
    }

    /// `synchronous_commit` as the main pool's and the light pool's sessions have it (None
    /// without a light pool). For tests and diagnostics.
    #[doc(hidden)]
    pub async fn commit_settings(&self) -> Result<(String, Option<String>)> {
        let sql = "SELECT current_setting('synchronous_commit')";
        let main = match &self.backend {
            Backend::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await?,
            Backend::Sqlite(_) => "sqlite".to_string(),
        };
        let light = match &self.light {
            Some(pool) => Some(sqlx::query_scalar(sql).fetch_one(pool).await?),
            None => None,
        };
        Ok((main, light))
    }

    /// Sets the pool gauges (`observe::pool`): connections open and idle now, and the most.
    pub fn observe_pool(&self) {
        on_pool!(self, pool => crate::observe::pool(
            "main",
            pool.size(),
            pool.num_idle(),
            pool.options().get_max_connections()
        ));
        if let Some(l) = &self.light {
            crate::observe::pool("light", l.size(), l.num_idle(), l.options().get_max_connections());
        }
        if let Some(w) = &self.writer {
            crate::observe::pool(
                "writer",
                w.size(),
                w.num_idle(),
                w.options().get_max_connections(),
            );
        }
    }

    /// `sqlite` or `postgres`, for logs and benchmark reports.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// Waits for running queries and closes every connection.
    pub async fn close(&self) {
        if let Some(w) = &self.writer {
            w.close().await;
        }
        if let Some(l) = &self.light {
            l.close().await;
        }
        on_pool!(self, pool => pool.close().await)
    }

    // ---- communities and users ----

    /// A community's settings; the defaults if it was never configured. Read again after
    /// `cached::SETTINGS_TTL` (a change made by another process shows by then).
    pub async fn community_settings(&self, c: &CommunityRef) -> Result<CommunitySettings> {
        if let Some(s) = self.cache.community(c) {
            return Ok(s);
        }
        let s = self.read_community_settings(c).await?;
        self.cache.keep_community(c, &s);
        Ok(s)
    }

    async fn read_community_settings(&self, c: &CommunityRef) -> Result<CommunitySettings> {
        let sql =
            "SELECT lang, turn_limit_secs, auto_start, computer_names, hands_in_group FROM communities \
                   WHERE platform = $1 AND community_id = $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .fetch_optional(pool)
                .await?;
            match row {
                None => Ok(CommunitySettings::default()),
                Some(r) => Ok(CommunitySettings {
                    lang: parse_lang(&r.try_get::<String, _>("lang")?)?,
                    turn_limit_secs: r
                        .try_get::<Option<i64>, _>("turn_limit_secs")?
                        .map(|n| small(n, "turn limit"))
                        .transpose()?,
                    auto_start: r.try_get("auto_start")?,
                    computer_names: serde_json::from_str(&r.try_get::<String, _>("computer_names")?)
                        .map_err(|e| StoreError::Corrupt(format!("computer names: {e}")))?,
                    hands_in_group: r.try_get("hands_in_group")?,
                }),
            }
        })
    }

    pub async fn set_community_settings(&self, c: &CommunityRef, s: &CommunitySettings) -> Result<()> {
        let sql = "INSERT INTO communities (platform, community_id, lang, turn_limit_secs, auto_start, \
                   computer_names, hands_in_group) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                   ON CONFLICT (platform, community_id) DO UPDATE SET \
                   lang = excluded.lang, turn_limit_secs = excluded.turn_limit_secs, \
                   auto_start = excluded.auto_start, computer_names = excluded.computer_names, \
                   hands_in_group = excluded.hands_in_group";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .bind(s.lang.code())
                .bind(s.turn_limit_secs.map(i64::from))
                .bind(s.auto_start)
                .bind(serde_json::to_string(&s.computer_names).unwrap_or_else(|_| "[]".into()))
                .bind(s.hands_in_group)
                .execute(pool)
                .await?;
        });
        self.cache.keep_community(c, s);
        Ok(())
    }

    /// A user's own language; None: the community's. Read again after
    /// `cached::SETTINGS_TTL` (a change made by another process shows by then).
    pub async fn user_lang(&self, platform: Platform, user: &str) -> Result<Option<Lang>> {
        if let Some(lang) = self.cache.lang(platform, user) {
            return Ok(lang);
        }
        let lang = self.read_user_lang(platform, user).await?;
        self.cache.keep_lang(platform, user, lang);
        Ok(lang)
    }

    async fn read_user_lang(&self, platform: Platform, user: &str) -> Result<Option<Lang>> {
        let sql = "SELECT lang FROM users WHERE platform = $1 AND user_id = $2";
        let lang: Option<Option<String>> = on_pool!(self, pool => {
            sqlx::query_scalar(sql)
                .bind(platform.as_str())
                .bind(user)
                .fetch_optional(pool)
                .await?
        });
        lang.flatten().map(|l| parse_lang(&l)).transpose()
    }

    pub async fn set_user_lang(&self, platform: Platform, user: &str, lang: Option<Lang>) -> Result<()> {
        let sql = "INSERT INTO users (platform, user_id, lang) VALUES ($1, $2, $3) \
                   ON CONFLICT (platform, user_id) DO UPDATE SET lang = excluded.lang";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(platform.as_str())
                .bind(user)
                .bind(lang.map(Lang::code))
                .execute(pool)
                .await?;
        });
        self.cache.keep_lang(platform, user, lang);
        Ok(())
    }

    // ---- tables and seats ----

    /// Opens a table in the lobby. Fails with `ChatBusy` if the chat (thread, topic) already
    /// has an open table, also when another process opened it a moment earlier.
    pub async fn create_table(&self, t: &NewTable) -> Result<TableRow> {
        let now = now_ms();
        let sql = format!(
            "INSERT INTO tables (platform, community_id, chat_id, thread_id, game, rules, \
             seat_count, creator_id, status, created_ms, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'lobby', $9, $9) RETURNING {TABLE_COLUMNS}"
        );
        on_write!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(t.chat.platform.as_str())
                .bind(&t.chat.community)
                .bind(&t.chat.chat)
                .bind(t.chat.thread_key())
                .bind(&t.game)
                .bind(t.rules.to_string())
                .bind(t.seats as i64)
                .bind(&t.creator)
                .bind(now)
                .fetch_one(pool)
                .await
                .map_err(|e| if is_unique_violation(&e) { StoreError::ChatBusy } else { e.into() })?;
            Ok(table_row!(&row))
        })
    }

    pub async fn table(&self, id: i64) -> Result<Option<TableRow>> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM tables WHERE id = $1");
        on_pool!(self, pool => {
            let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await?;
            Ok(match row {
                Some(r) => Some(table_row!(&r)),
                None => None,
            })
        })
    }

    /// The open (lobby or running) table of a chat, thread or topic.
    pub async fn open_table(&self, chat: &ChatRef) -> Result<Option<TableRow>> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE platform = $1 AND chat_id = $2 \
             AND thread_id = $3 AND slot = '' AND status IN ('lobby', 'running')"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(chat.platform.as_str())
                .bind(&chat.chat)
                .bind(chat.thread_key())
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => Some(table_row!(&r)),
                None => None,
            })
        })
    }

    /// Every open table of a community, oldest first (the lobby's list).
    pub async fn open_tables(&self, c: &CommunityRef) -> Result<Vec<TableRow>> {
        let sql = format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE platform = $1 AND community_id = $2 \
             AND status IN ('lobby', 'running') ORDER BY id"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(c.platform.as_str())
                .bind(&c.community)
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok(table_row!(r))).collect()
        })
    }

    /// Every running table, oldest first: what a restarted host rebuilds.
    pub async fn running_tables(&self) -> Result<Vec<TableRow>> {
        let sql = format!("SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'running' ORDER BY id");
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(table_row!(r))).collect()
        })
    }

    /// Moves an open table to `status`. Finished and stopped are final: changing a closed
    /// table fails with `TableClosed`, so of two processes stopping a table one succeeds.
    pub async fn set_status(&self, table: i64, status: TableStatus) -> Result<()> {
        self.close_table(table, status, None).await
    }

    /// Seats a person or a computer player. A seat holds one occupant and a person sits at
    /// most once per table; the database enforces both.
    pub async fn take_seat(&self, table: i64, seat: u8, name: &str, occupant: &Occupant) -> Result<()> {
        let (user, level) = match occupant {
            Occupant::Human { user_id } => (Some(user_id.as_str()), None),
            Occupant::Computer { level } => (None, Some(i64::from(*level))),
        };
        let sql = "INSERT INTO seats (table_id, seat, user_id, display_name, bot_level, away) \
                   VALUES ($1, $2, $3, $4, $5, $6)";
        let result = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(table)
                .bind(i64::from(seat))
                .bind(user)
                .bind(name)
                .bind(level)
                .bind(false)
                .execute(pool)
                .await
                .map(|r| r.rows_affected())
        });
        match result {
            Ok(_) => Ok(()),
            Err(e) if is_fk_violation(&e) => Err(StoreError::NoTable(table)),
            Err(e) if is_unique_violation(&e) => {
                // Which key was hit: the user's, or the seat's.
                let seats = self.seats(table).await?;
                match user {
                    Some(u)
                        if seats
                            .iter()
                            .any(|s| matches!(&s.occupant, Occupant::Human { user_id } if user_id == u)) =>
                    {
                        Err(StoreError::AlreadySeated {
                            table,
                            user: u.to_string(),
                        })
                    }
                    _ => Err(StoreError::SeatTaken { table, seat }),
                }
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Empties a seat; false if it was empty.
    pub async fn leave_seat(&self, table: i64, seat: u8) -> Result<bool> {
        let sql = "DELETE FROM seats WHERE table_id = $1 AND seat = $2";
        let n = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(table)
                .bind(i64::from(seat))
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(n == 1)
    }

    /// Marks a seat as handed to a computer player (or back to its owner).
    pub async fn set_away(&self, table: i64, seat: u8, away: bool) -> Result<bool> {
        let sql = "UPDATE seats SET away = $3 WHERE table_id = $1 AND seat = $2";
        let n = on_write!(self, pool => {
            sqlx::query(sql)
                .bind(table)
                .bind(i64::from(seat))
                .bind(away)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(n == 1)
    }

    /// The taken seats of a table, in seat order.
    pub async fn seats(&self, table: i64) -> Result<Vec<SeatRow>> {
        let sql = "SELECT seat, user_id, display_name, bot_level, away FROM seats \
                   WHERE table_id = $1 ORDER BY seat";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(table).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(seat_row!(r))).collect()
        })
    }

    /// The seats of a table with the count of changes made to them (`seats_rev`), the
    /// count read first: a lobby rendered from these seats is at least as new as the count
    /// says, which orders the renders of several processes.
    pub async fn seats_versioned(&self, table: i64) -> Result<(i64, Vec<SeatRow>)> {
        let sql = "SELECT seats_rev FROM tables WHERE id = $1";
        let rev: Option<i64> = on_pool!(self, pool => {
            sqlx::query_scalar(sql).bind(table).fetch_optional(pool).await?
        });
        let Some(rev) = rev else {
            return Err(StoreError::NoTable(table));
        };
        Ok((rev, self.seats(table).await?))
    }

    // ---- the action log and deals ----

    /// Commits action `seq` of a table. Sequence numbers start at 1 and have no gaps; a
    /// number already committed (by this process or another) fails with `SeqTaken` and
    /// changes nothing, one past the next fails with `SeqGap`. Returns once the action is
    /// durable.
    pub async fn append_action(&self, table: i64, seq: i64, payload: &Value) -> Result<()> {
        self.append_actions(table, seq, std::slice::from_ref(payload))
            .await
    }

    /// Commits a run of a table's actions numbered `seq`, `seq + 1`, …: all of them or none,
    /// in one statement of the log's group commit (a person's move and the computer players'
    /// moves after it cost one write, not one each). Fails as `append_action` does for the
    /// run's first number.
    pub async fn append_actions(&self, table: i64, seq: i64, payloads: &[Value]) -> Result<()> {
        if payloads.is_empty() {
            return Ok(());
        }
        let payloads = payloads.iter().map(Value::to_string).collect();
        let at_ms = now_ms();
        let (reply, answer) = oneshot::channel();
        let gone = || StoreError::Commit("the store's writer has stopped".into());
        let bound = CommitBy::take();
        let run = Run {
            table,
            seq,
            payloads,
            at_ms,
            until_ms: bound.as_ref().map(|b| b.until_ms),
            press: bound.as_ref().and_then(|b| b.press.clone()),
        };
        let outcome = self.append_job(run, reply, answer).await;
        if let Some(b) = bound {
            b.done(matches!(outcome, Ok(sqlite_log::Outcome::Committed)));
        }
        let inserted = match outcome.map_err(|_| gone())? {
            sqlite_log::Outcome::Committed => true,
            sqlite_log::Outcome::NotInserted => false,
            sqlite_log::Outcome::NoTable => return Err(StoreError::NoTable(table)),
            sqlite_log::Outcome::Failed(msg) => return Err(StoreError::Commit(msg)),
            sqlite_log::Outcome::Unknown(unsettled) => return Err(StoreError::Unknown(unsettled)),
            sqlite_log::Outcome::Late => return Err(StoreError::Late),
        };
        if inserted {
            return Ok(());
        }
        let next = self.next_seq(table).await?;
        if (1..next).contains(&seq) {
            Err(StoreError::SeqTaken { table, seq })
        } else if next == 1 && self.table(table).await?.is_none() {
            Err(StoreError::NoTable(table))
        } else {
            Err(StoreError::SeqGap { table, seq, next })
        }
    }

    /// Hands a run of actions to the log's writer and waits for its outcome (Err: the
    /// writer is gone).
    async fn append_job(
        &self,
        run: Run,
        reply: oneshot::Sender<sqlite_log::Outcome>,
        answer: oneshot::Receiver<sqlite_log::Outcome>,
    ) -> std::result::Result<sqlite_log::Outcome, ()> {
        match (&self.appender, &self.pg_appender) {
            (Some(appender), _) => {
                let job = sqlite_log::Job {
                    run,
                    reply,
                    other: None,
                };
                appender.send(job).await.map_err(|_| ())?;
            }
            (None, Some(appender)) => {
                appender.send(pg_log::Job { run, reply }).await.map_err(|_| ())?;
            }
            (None, None) => unreachable!("every store has an action-log writer"),
        }
        answer.await.map_err(|_| ())
    }

    /// SQLite: runs one writing statement in the action log's next group commit (one disk
    /// flush shared with the actions committed with it) and returns its row. None on
    /// PostgreSQL, where the caller runs it itself.
    async fn grouped(
        &self,
        sql: &str,
        args: Vec<sqlite_log::Arg>,
    ) -> Option<std::result::Result<Option<sqlx::sqlite::SqliteRow>, sqlx::Error>> {
        let appender = self.appender.as_ref()?;
        let (reply, answer) = oneshot::channel();
        let (unused, _) = oneshot::channel();
        let job = sqlite_log::Job {
            run: Run::default(),
            reply: unused,
            other: Some(sqlite_log::Other {
                sql: sql.to_string(),
                args,
                reply,
            }),
        };
        let gone = || sqlx::Error::Protocol("the store's writer has stopped".into());
        if appender.send(job).await.is_err() {
            return Some(Err(gone()));
        }
        Some(answer.await.unwrap_or_else(|_| Err(gone())))
    }

    /// The sequence number the table's next action takes.
    pub async fn next_seq(&self, table: i64) -> Result<i64> {
        let sql = "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = $1";
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>(sql).bind(table).fetch_one(pool).await?
        }))
    }

    /// True when the store is PostgreSQL (several processes may share it).
    pub fn is_postgres(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Tells the other processes on this PostgreSQL database that `tables` changed (their
    /// live pages redraw them), in one notice of ids separated by commas (more in parts).
    /// Nothing on SQLite, which one process uses.
    pub async fn notify_changed(&self, tables: &[i64]) -> Result<()> {
        // A payload holds at most 8,000 bytes: about 400 ids a notice.
        for part in tables.chunks(400) {
            let ids: Vec<String> = part.iter().map(i64::to_string).collect();
            self.notify(CHANGED_CHANNEL, &ids.join(",")).await?;
        }
        Ok(())
    }

    /// Sends `payload` to the processes listening on `channel` (PostgreSQL `NOTIFY`, at most
    /// 8,000 bytes); nothing on SQLite.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<()> {
        if let Some(pool) = &self.light {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(self.scoped(channel))
                .bind(payload)
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// The name a notice on `channel` is sent and heard under (`notify`, `listen`): the
    /// channel of this store's schema (`scope`).
    pub fn scoped(&self, channel: &str) -> String {
        if self.scope.is_empty() {
            channel.to_string()
        } else {
            format!("{channel}_{}", self.scope)
        }
    }

    /// On PostgreSQL, a task that calls `seen` with each table another process announces
    /// (`notify_changed`), and with None after its connection was lost and made again (changes
    /// may have been missed meanwhile). None on SQLite.
    pub fn listen_changes(
        &self,
        seen: impl Fn(Option<i64>) + Send + Sync + 'static,
    ) -> Option<tokio::task::JoinHandle<()>> {
        self.listen(CHANGED_CHANNEL, move |payload| match payload {
            None => seen(None),
            Some(p) => {
                for id in p.split(',').filter_map(|id| id.parse().ok()) {
                    seen(Some(id));
                }
            }
        })
    }

    /// On PostgreSQL, a task that calls `heard` with each payload sent on `channel`
    /// (`notify`), and with None once its connection was made (again: payloads may have been
    /// missed meanwhile). It listens until the store's pool closes. None on SQLite.
    pub fn listen(
        &self,
        channel: impl Into<String>,
        heard: impl Fn(Option<&str>) + Send + Sync + 'static,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let Backend::Postgres(pool) = &self.backend else {
            return None;
        };
        let pool = pool.clone();
        let channel: String = self.scoped(&channel.into());
        Some(tokio::spawn(async move {
            loop {
                if pool.is_closed() {
                    return;
                }
                let listener = async {
                    let mut l = sqlx::postgres::PgListener::connect_with(&pool).await?;
                    l.listen(&channel).await?;
                    Ok::<_, sqlx::Error>(l)
                };
                match listener.await {
                    Ok(mut l) => {
                        heard(None);
                        loop {
                            match l.try_recv().await {
                                Ok(Some(n)) => heard(Some(n.payload())),
                                // The connection was lost; PgListener connects again.
                                Ok(None) => heard(None),
                                Err(e) => {
                                    tracing::warn!(error = %e, %channel, "listening to other processes failed");
                                    crate::observe::store_error("listen", &StoreError::Db(e));
                                    break;
                                }
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, %channel, "cannot listen to other processes");
                        crate::observe::store_error("listen", &StoreError::Db(e));
                    }
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                crate::observe::store_retry("listen");
            }
        }))
    }

    /// The table's action number `seq`, if it was committed.
    pub async fn action_at(&self, table: i64, seq: i64) -> Result<Option<ActionRow>> {
        let sql = "SELECT seq, payload, at_ms, process FROM actions WHERE table_id = $1 AND seq = $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(table).bind(seq).fetch_optional(pool).await?;
            row.map(|r| Ok(action_row!(r))).transpose()
        })
    }

    /// Whether an action whose commit's outcome was unknown (`StoreError::Unknown`) stands in
    /// the log as this process wrote it. An error: the database still does not answer.
    /// Once this says false, the action is not committed and never will be.
    pub async fn settle(&self, unsettled: &Unsettled) -> Result<bool> {
        match &self.backend {
            Backend::Postgres(pool) => {
                Ok(
                    pg_log::settle(pool, std::slice::from_ref(unsettled), &self.faults)
                        .await?
                        .first()
                        .copied()
                        .unwrap_or(false),
                )
            }
            // SQLite commits in the process: an outcome is never unknown there.
            Backend::Sqlite(_) => Ok(false),
        }
    }

    /// For tests of an unknown commit outcome (PostgreSQL): the next commit of the action
    /// log stands, but its answer is lost as a connection that fails after the statement was
    /// sent loses it, and for `deaf_for_ms` from now the database cannot be asked about it.
    #[doc(hidden)]
    pub fn lose_commit_answer(&self, deaf_for_ms: i64) {
        self.faults.lose_answer(deaf_for_ms);
    }

    /// Which handed press made action `seq` of the table (`CommitBy`): None when there is
    /// no such action, Some(None) when no handed press made it.
    pub async fn action_press(&self, table: i64, seq: i64) -> Result<Option<Option<String>>> {
        let sql = "SELECT press FROM actions WHERE table_id = $1 AND seq = $2";
        on_pool!(self, pool => {
            let row = sqlx::query(sql).bind(table).bind(seq).fetch_optional(pool).await?;
            row.map(|r| r.try_get("press").map_err(Into::into)).transpose()
        })
    }

    /// The table's committed actions in sequence order.
    pub async fn actions(&self, table: i64) -> Result<Vec<ActionRow>> {
        let sql = "SELECT seq, payload, at_ms, process FROM actions WHERE table_id = $1 ORDER BY seq";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(table).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(action_row!(r))).collect()
        })
    }

    /// Records the start of deal `deal_no` (from 1, no gaps): its seed, the commitment shown
    /// to the players, and the record's deal object (dealer, hands, talon; no `actions`).
    /// The deal owns the actions from the table's next sequence number on. Returns that
    /// number.
    pub async fn start_deal(
        &self,
        table: i64,
        deal_no: i64,
        seed_hex: &str,
        commitment_hex: &str,
        deal: &Value,
    ) -> Result<i64> {
        match deal.as_object() {
            Some(o) if !o.contains_key("actions") => {}
            _ => return Err(StoreError::BadDeal),
        }
        let sql = "INSERT INTO deals (table_id, deal_no, first_seq, seed_hex, commitment_hex, deal, at_ms) \
                   SELECT $1, $2, \
                   (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = $1), \
                   $3, $4, $5, $6 \
                   WHERE $2 = (SELECT COALESCE(MAX(deal_no), 0) + 1 FROM deals WHERE table_id = $1) \
                   RETURNING first_seq";
        use sqlite_log::Arg;
        let args = vec![
            Arg::Int(table),
            Arg::Int(deal_no),
            Arg::Text(seed_hex.into()),
            Arg::Text(commitment_hex.into()),
            Arg::Text(deal.to_string()),
            Arg::Int(now_ms()),
        ];
        let result = match self.grouped(sql, args).await {
            Some(r) => r.and_then(|row| row.map(|r| r.try_get::<i64, _>(0)).transpose()),
            None => on_write!(self, pool => {
                sqlx::query_scalar::<_, i64>(sql)
                    .bind(table)
                    .bind(deal_no)
                    .bind(seed_hex)
                    .bind(commitment_hex)
                    .bind(deal.to_string())
                    .bind(now_ms())
                    .fetch_optional(pool)
                    .await
            }),
        };
        match result {
            Ok(Some(first_seq)) => Ok(first_seq),
            Ok(None) => {
                let next = self.deal_count(table).await? + 1;
                if (1..next).contains(&deal_no) {
                    Err(StoreError::DealTaken { table, deal: deal_no })
                } else if next == 1 && self.table(table).await?.is_none() {
                    Err(StoreError::NoTable(table))
                } else {
                    Err(StoreError::DealGap {
                        table,
                        deal: deal_no,
                        next,
                    })
                }
            }
            Err(e) if is_unique_violation(&e) => Err(StoreError::DealTaken { table, deal: deal_no }),
            Err(e) if is_fk_violation(&e) => Err(StoreError::NoTable(table)),
            Err(e) => Err(e.into()),
        }
    }

    async fn deal_count(&self, table: i64) -> Result<i64> {
        let sql = "SELECT COUNT(*) FROM deals WHERE table_id = $1";
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>(sql).bind(table).fetch_one(pool).await?
        }))
    }

    /// The table's deals in order.
    pub async fn deals(&self, table: i64) -> Result<Vec<DealRow>> {
        let sql = "SELECT deal_no, first_seq, seed_hex, commitment_hex, deal, at_ms FROM deals \
                   WHERE table_id = $1 ORDER BY deal_no";
        on_pool!(self, pool => {
            let rows = sqlx::query(sql).bind(table).fetch_all(pool).await?;
            rows.iter().map(|r| Ok(deal_row!(r))).collect()
        })
    }

    /// The table's whole record (RECORD.md): game, rules, the seated players' names in seat
    /// order, and every deal with its actions. It is what a restarted host replays and what
    /// `/record` exports.
    pub async fn record(&self, table: i64) -> Result<Envelope> {
        self.table_log(table).await?.record()
    }

    /// Everything stored about one table. Deals and actions are read apart while the table
    /// may go on; a deal's first_seq is one past every action committed before it, so if no
    /// deal started while the actions were read, each action read belongs to a deal read,
    /// and otherwise they are read again.
    pub async fn table_log(&self, table: i64) -> Result<TableLog> {
        let row = self.table(table).await?.ok_or(StoreError::NoTable(table))?;
        let seats = self.seats(table).await?;
        let (deals, actions) = loop {
            let deals = self.deals(table).await?;
            let actions = self.actions(table).await?;
            if self.deal_count(table).await? == deals.len() as i64 {
                break (deals, actions);
            }
        };
        Ok(TableLog {
            table: row,
            seats,
            deals,
            actions,
        })
    }

    /// The logs of every running table, in four queries however many tables there are:
    /// what a restarted host rebuilds its tables from. The queries read one snapshot (a
    /// read-only repeatable-read transaction on PostgreSQL, a read transaction on SQLite), so
    /// a deal begun by another process while they run is either read whole or not at all.
    pub async fn running_logs(&self) -> Result<Vec<TableLog>> {
        self.running_logs_of(None).await
    }

    /// `running_logs` of the running tables among `only` (all with None): a process that
    /// starts beside others reads the logs of the tables it owns, not of all of them.
    pub async fn running_logs_of(&self, only: Option<&[i64]>) -> Result<Vec<TableLog>> {
        // The ids are numbers from this database, written into the statements as such.
        let among = match only {
            Some([]) => return Ok(Vec::new()),
            Some(ids) => {
                let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
                format!(" AND t.id IN ({})", ids.join(","))
            }
            None => String::new(),
        };
        let tables_sql =
            format!("SELECT {TABLE_COLUMNS} FROM tables t WHERE status = 'running'{among} ORDER BY id");
        let running = format!("JOIN tables t ON t.id = x.table_id WHERE t.status = 'running'{among}");
        let seats_sql = format!(
            "SELECT x.table_id, x.seat, x.user_id, x.display_name, x.bot_level, x.away \
             FROM seats x {running} ORDER BY x.table_id, x.seat"
        );
        let deals_sql = format!(
            "SELECT x.table_id, x.deal_no, x.first_seq, x.seed_hex, x.commitment_hex, x.deal, \
             x.at_ms FROM deals x {running} ORDER BY x.table_id, x.deal_no"
        );
        let actions_sql = format!(
            "SELECT x.table_id, x.seq, x.payload, x.at_ms, x.process FROM actions x {running} \
             ORDER BY x.table_id, x.seq"
        );
        let postgres = matches!(self.backend, Backend::Postgres(_));
        let mut index: HashMap<i64, usize> = HashMap::new();
        let mut logs: Vec<TableLog> = Vec::new();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if postgres {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await?;
            }
            for r in sqlx::query(&tables_sql).fetch_all(&mut *tx).await?.iter() {
                let table = table_row!(r);
                index.insert(table.id, logs.len());
                logs.push(TableLog {
                    table,
                    seats: Vec::new(),
                    deals: Vec::new(),
                    actions: Vec::new(),
                });
            }
            for r in sqlx::query(&seats_sql).fetch_all(&mut *tx).await?.iter() {
                if let Some(&i) = index.get(&r.try_get::<i64, _>("table_id")?) {
                    logs[i].seats.push(seat_row!(r));
                }
            }
            for r in sqlx::query(&deals_sql).fetch_all(&mut *tx).await?.iter() {
                if let Some(&i) = index.get(&r.try_get::<i64, _>("table_id")?) {
                    logs[i].deals.push(deal_row!(r));
                }
            }
            for r in sqlx::query(&actions_sql).fetch_all(&mut *tx).await?.iter() {
                if let Some(&i) = index.get(&r.try_get::<i64, _>("table_id")?) {
                    logs[i].actions.push(action_row!(r));
                }
            }
            tx.commit().await?;
        });
        Ok(logs)
    }

    // ---- score sheets ----

    /// The chat's open score sheet for `game`, if any.
    pub async fn score_sheet(&self, chat: &ChatRef, game: &str) -> Result<Option<ScoreSheetRow>> {
        let sql = format!(
            "SELECT {SHEET_COLUMNS} FROM score_sheets WHERE platform = $1 AND chat_id = $2 \
             AND thread_id = $3 AND game = $4 AND closed_ms IS NULL"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(chat.platform.as_str())
                .bind(&chat.chat)
                .bind(chat.thread_key())
                .bind(game)
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => Some(sheet_row!(&r)),
                None => None,
            })
        })
    }

    /// Writes the chat's open score sheet for `game`, opening one if there is none.
    pub async fn save_score_sheet(
        &self,
        chat: &ChatRef,
        game: &str,
        totals: &[SheetTotal],
        pules: &Value,
    ) -> Result<ScoreSheetRow> {
        let totals = serde_json::to_string(totals).expect("totals serialise");
        let sql = format!(
            "INSERT INTO score_sheets (platform, community_id, chat_id, thread_id, game, totals, \
             pules, created_ms, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) \
             ON CONFLICT (platform, chat_id, thread_id, game) WHERE closed_ms IS NULL \
             DO UPDATE SET totals = excluded.totals, pules = excluded.pules, \
             updated_ms = excluded.updated_ms RETURNING {SHEET_COLUMNS}"
        );
        use sqlite_log::Arg;
        let args = vec![
            Arg::Text(chat.platform.as_str().into()),
            Arg::Text(chat.community.clone()),
            Arg::Text(chat.chat.clone()),
            Arg::Text(chat.thread_key().into()),
            Arg::Text(game.into()),
            Arg::Text(totals.clone()),
            Arg::Text(pules.to_string()),
            Arg::Int(now_ms()),
        ];
        if let Some(r) = self.grouped(&sql, args).await {
            let row = r?.ok_or(sqlx::Error::RowNotFound)?;
            return Ok(sheet_row!(&row));
        }
        on_write!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(chat.platform.as_str())
                .bind(&chat.community)
                .bind(&chat.chat)
                .bind(chat.thread_key())
                .bind(game)
                .bind(&totals)
                .bind(pules.to_string())
                .bind(now_ms())
                .fetch_one(pool)
                .await?;
            Ok(sheet_row!(&row))
        })
    }

    /// Closes the chat's open score sheet for `game` and returns it as it was at closing
    /// (for settling its pules); None if there was none. The next save opens a fresh sheet.
    pub async fn close_score_sheet(&self, chat: &ChatRef, game: &str) -> Result<Option<ScoreSheetRow>> {
        let sql = format!(
            "UPDATE score_sheets SET closed_ms = $5, updated_ms = $5 WHERE platform = $1 \
             AND chat_id = $2 AND thread_id = $3 AND game = $4 AND closed_ms IS NULL \
             RETURNING {SHEET_COLUMNS}"
        );
        on_write!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(chat.platform.as_str())
                .bind(&chat.chat)
                .bind(chat.thread_key())
                .bind(game)
                .bind(now_ms())
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => Some(sheet_row!(&r)),
                None => None,
            })
        })
    }

    /// Remembers the score sheet a table started from (written once, at its start).
    pub async fn set_sheet_carry(&self, table: i64, sheet: &Value) -> Result<()> {
        let sql = "INSERT INTO sheet_carry (table_id, sheet) VALUES ($1, $2) \
                   ON CONFLICT (table_id) DO NOTHING";
        on_write!(self, pool => {
            sqlx::query(sql).bind(table).bind(sheet.to_string()).execute(pool).await?;
        });
        Ok(())
    }

    /// The score sheet table `table` started from, if the chat had one open then.
    pub async fn sheet_carry(&self, table: i64) -> Result<Option<Value>> {
        let sql = "SELECT sheet FROM sheet_carry WHERE table_id = $1";
        let text: Option<String> = on_pool!(self, pool => {
            sqlx::query_scalar(sql).bind(table).fetch_optional(pool).await?
        });
        text.map(|t| serde_json::from_str(&t).map_err(|e| StoreError::Corrupt(e.to_string())))
            .transpose()
    }

    /// The carried sheets of every running table, in one query (for recovery).
    pub async fn running_sheet_carries(&self) -> Result<HashMap<i64, Value>> {
        let sql = "SELECT c.table_id, c.sheet FROM sheet_carry c JOIN tables t ON t.id = c.table_id \
                   WHERE t.status = 'running'";
        let rows: Vec<(i64, String)> = on_pool!(self, pool => {
            sqlx::query_as(sql).fetch_all(pool).await?
        });
        rows.into_iter()
            .map(|(id, t)| {
                serde_json::from_str(&t)
                    .map(|v| (id, v))
                    .map_err(|e| StoreError::Corrupt(e.to_string()))
            })
            .collect()
    }

    // ---- leaderboards ----

    /// Adds one deal's increments to the community's leaderboard for `game`, once: the pair
    /// (table, deal) is remembered, and a second call for it (a replay after a restart, a
    /// second process) changes nothing and returns false.
    pub async fn apply_stats(
        &self,
        table: i64,
        deal_no: i64,
        community: &CommunityRef,
        game: &str,
        entries: &[StatsEntry],
    ) -> Result<bool> {
        let guard = "INSERT INTO stats_applied (table_id, deal_no) VALUES ($1, $2)";
        // A finished deal's row for the boards of a period.
        let result = "INSERT INTO results (platform, community_id, game, user_id, display_name, \
                      table_id, deal_no, points, declarer_win, at_ms) \
                      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
        let add = "INSERT INTO stats (platform, community_id, game, user_id, display_name, games, \
                   deals, declarer_wins, points, pules_written, pules_removed) \
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                   ON CONFLICT (platform, community_id, game, user_id) DO UPDATE SET \
                   display_name = excluded.display_name, \
                   games = stats.games + excluded.games, \
                   deals = stats.deals + excluded.deals, \
                   declarer_wins = stats.declarer_wins + excluded.declarer_wins, \
                   points = stats.points + excluded.points, \
                   pules_written = stats.pules_written + excluded.pules_written, \
                   pules_removed = stats.pules_removed + excluded.pules_removed";
        on_write!(self, pool => {
            // The guard row is written first, so on SQLite the transaction takes the write
            // lock at its first statement and never has to upgrade a read lock.
            let mut tx = pool.begin().await?;
            match sqlx::query(guard).bind(table).bind(deal_no).execute(&mut *tx).await {
                Ok(_) => {}
                Err(e) if is_unique_violation(&e) => return Ok(false),
                Err(e) => return Err(e.into()),
            }
            let at = now_ms();
            for e in entries {
                let d = &e.delta;
                if d.deals > 0 {
                    sqlx::query(result)
                        .bind(community.platform.as_str())
                        .bind(&community.community)
                        .bind(game)
                        .bind(&e.user_id)
                        .bind(&e.name)
                        .bind(table)
                        .bind(deal_no)
                        .bind(d.points)
                        .bind(d.declarer_wins)
                        .bind(at)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(add)
                    .bind(community.platform.as_str())
                    .bind(&community.community)
                    .bind(game)
                    .bind(&e.user_id)
                    .bind(&e.name)
                    .bind(d.games)
                    .bind(d.deals)
                    .bind(d.declarer_wins)
                    .bind(d.points)
                    .bind(d.pules_written)
                    .bind(d.pules_removed)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The community's top `limit` players of `game`: by points, then wins as declarer, then
    /// games played.
    pub async fn leaderboard(
        &self,
        community: &CommunityRef,
        game: &str,
        limit: u32,
    ) -> Result<Vec<StatsRow>> {
        let sql = format!(
            "SELECT {STATS_COLUMNS} FROM stats WHERE platform = $1 AND community_id = $2 \
             AND game = $3 ORDER BY points DESC, declarer_wins DESC, games DESC, user_id \
             LIMIT $4"
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(community.platform.as_str())
                .bind(&community.community)
                .bind(game)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            rows.iter().map(|r| Ok(stats_row!(r))).collect()
        })
    }

    /// Whether the store knows `user` as a member of `chat`: they sat at one of its tables,
    /// or have stats in its community. What a live-table page asks before it asks the
    /// platform (a person who played in a chat is taken to belong to it).
    pub async fn known_in_chat(&self, chat: &ChatRef, user: &str) -> Result<bool> {
        let sql = "SELECT 1 FROM seats s JOIN tables t ON t.id = s.table_id \
                   WHERE t.platform = $1 AND t.chat_id = $2 AND s.user_id = $3 \
                   UNION ALL SELECT 1 FROM stats \
                   WHERE platform = $1 AND community_id = $4 AND user_id = $3 LIMIT 1";
        on_pool!(self, pool => {
            let row = sqlx::query(sql)
                .bind(chat.platform.as_str())
                .bind(&chat.chat)
                .bind(user)
                .bind(&chat.community)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }

    /// One player's stats for `game` in a community; None if never counted.
    pub async fn user_stats(
        &self,
        community: &CommunityRef,
        game: &str,
        user: &str,
    ) -> Result<Option<StatsRow>> {
        let sql = format!(
            "SELECT {STATS_COLUMNS} FROM stats WHERE platform = $1 AND community_id = $2 \
             AND game = $3 AND user_id = $4"
        );
        on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(community.platform.as_str())
                .bind(&community.community)
                .bind(game)
                .bind(user)
                .fetch_optional(pool)
                .await?;
            Ok(match row {
                Some(r) => Some(stats_row!(&r)),
                None => None,
            })
        })
    }
}

/// True for a `postgres://` or `postgresql://` URL.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// How long a start waits before trying a database that did not answer again.
pub const CONNECT_RETRY: Duration = Duration::from_secs(2);

impl StoreError {
    /// True for a database that cannot be reached now but may be soon: nothing listens, the
    /// connection broke or timed out, or the server is starting, stopping or full
    /// (SQLSTATE classes 08 and 57P, and 53300).
    pub fn is_unreachable(&self) -> bool {
        match self {
            StoreError::Db(sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut) => true,
            StoreError::Db(sqlx::Error::Database(d)) => d
                .code()
                .is_some_and(|c| c.starts_with("08") || c.starts_with("57P") || c == "53300"),
            _ => false,
        }
    }
}

/// The database `url` names, for a message a person reads: `the SQLite file PATH` or
/// `PostgreSQL at HOST:PORT/DB`, never the password.
pub fn database_named(url: &str) -> String {
    if is_postgres_url(url) {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
        let rest = rest.split(['?', '#']).next().unwrap_or(rest);
        return format!("PostgreSQL at {rest}");
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split('?').next().unwrap_or(path);
    format!("the SQLite file {path}")
}

/// Everything stored about one table: enough to rebuild it after a restart.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLog {
    pub table: TableRow,
    pub seats: Vec<SeatRow>,
    pub deals: Vec<DealRow>,
    pub actions: Vec<ActionRow>,
}

impl TableLog {
    /// The sequence number the table's next action takes.
    pub fn next_seq(&self) -> i64 {
        self.actions.last().map_or(1, |a| a.seq + 1)
    }

    /// The table's record (RECORD.md): game, rules, the seated players' names in seat order,
    /// and every deal with the actions from its first_seq up to the next deal's. The names
    /// are those of the seats now: while a table runs, a seat whose owner is gone stays
    /// taken (`set_away`), or the record would lose a player.
    pub fn record(&self) -> Result<Envelope> {
        let table = self.table.id;
        let mut actions = self.actions.iter().peekable();
        match (actions.peek(), self.deals.first()) {
            (Some(a), Some(d)) if a.seq < d.first_seq => {
                return Err(StoreError::Corrupt(format!(
                    "table {table}: action {} comes before the first deal",
                    a.seq
                )))
            }
            (Some(_), None) => {
                return Err(StoreError::Corrupt(format!(
                    "table {table}: actions without a deal"
                )))
            }
            _ => {}
        }
        let mut deals = Vec::with_capacity(self.deals.len());
        for (i, d) in self.deals.iter().enumerate() {
            let end = self.deals.get(i + 1).map_or(i64::MAX, |n| n.first_seq);
            let mut own = Vec::new();
            while let Some(a) = actions.next_if(|a| a.seq < end) {
                own.push(a.payload.clone());
            }
            let mut deal = d.deal.clone();
            if let Value::Object(o) = &mut deal {
                o.insert("actions".into(), Value::Array(own));
            }
            deals.push(deal);
        }
        Ok(Envelope {
            game: self.table.game.clone(),
            rules: self.table.rules.clone(),
            players: self.seats.iter().map(|s| s.name.clone()).collect(),
            deals,
        })
    }
}

// Last: they use the query macros above.
mod boards;
mod due;
mod processes;
mod shown;
mod tournament;
mod web;
pub use boards::{civil_date, period_start, BoardRow, Period, RatingRow};
pub use cached::SETTINGS_TTL;
pub use due::DuePost;
pub use shown::{FirstPost, DEAD_CLAIM_MS, FIRST_POST_CLAIM_MS, FIRST_POST_MARK};
pub use tournament::EntryRefused;

#[cfg(test)]
mod tests {
    use super::{database_named, PgSizes, StoreError};

    #[test]
    fn pool_sizes_are_three_numbers_with_fewer_writers_than_connections() {
        assert_eq!(
            PgSizes::parse("8, 3,2").unwrap(),
            PgSizes {
                main: 8,
                light: 3,
                writers: 2
            }
        );
        for bad in ["", "4,2", "4,2,1,1", "4,0,1", "4,2,4", "4,2,x", "-4,2,1"] {
            match PgSizes::parse(bad) {
                Err(StoreError::BadPool(v)) => assert_eq!(v, bad),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        let said = PgSizes::parse("4,2").unwrap_err().to_string();
        assert!(
            said.contains("STIKIS_DB_POOL") && said.contains("main,light,writers"),
            "{said}"
        );
    }

    #[test]
    fn a_database_is_named_by_its_file_or_server_never_its_password() {
        assert_eq!(
            database_named("/var/lib/stikis/x.db"),
            "the SQLite file /var/lib/stikis/x.db"
        );
        assert_eq!(
            database_named("sqlite://data/x.db?mode=rwc"),
            "the SQLite file data/x.db"
        );
        assert_eq!(database_named("sqlite:x.db"), "the SQLite file x.db");
        let pg = database_named("postgres://stikis:s3cret@db.example:5433/cards?sslmode=require");
        assert_eq!(pg, "PostgreSQL at db.example:5433/cards");
        assert!(!database_named("postgresql://u:p%40ss@h/d").contains("p%40ss"));
    }
}
