//! The chaos harness both bots' tests share (`telegram-bot/tests/chaos.rs` and
//! `discord-bot/tests/chaos.rs` include it): several bot processes on one database (SQLite for
//! one, PostgreSQL for several), many tables of people and computer players playing Zole on
//! them, processes killed with SIGKILL at random moments (in the middle of whatever they do: a
//! group commit, a computer player's thought, a reply) and started again, PostgreSQL restarted
//! once. Then the chaos stops, every table must play one more deal, and the harness checks:
//!
//! - every press answered "✓" is in the action log exactly once, at the number its button
//!   carried, by the presser's seat (none lost, none applied twice), but the presses a bot
//!   says it deferred (Discord's "✓" that only says "received"), which are checked each on
//!   its own: in the log as above (and then counted with the others, so that it is never
//!   applied twice), or refused in a follow-up, or lost with the process that took it (killed
//!   after the press and before any follow-up); one that is none of these fails the run;
//! - no table is moved by two processes in the same second outside a change of the live set:
//!   each running table has one owner among the live processes, so two consecutive actions
//!   committed by two processes less than a second apart are two owners at once, which may
//!   only happen while the processes disagree about who is alive (a start, a kill, an exit,
//!   the final stop, the PostgreSQL restart; see `Change::window`);
//! - no move of a person is in the log without a press of theirs, but the turn timer's;
//! - every table's record replays (the core's `replay`, which `stikis replay` runs), the
//!   totals of every posted result are the replayed ones, and every finished deal's result was
//!   posted (twice is counted: a process killed between posting and remembering it did);
//! - no public table message showed a card that was still hidden when the message was shown,
//!   no hand message showed another seat's unplayed card, and a hand went only to its player.
//!
//! It prints its seed and figures: kills, restarts, PostgreSQL restarts, presses acknowledged,
//! lost, applied twice, deferred presses by outcome, tables moved by two owners, leaked cards,
//! hands whose buttons went back to an older state (reported, not failed: hands carry no
//! version yet), and how long the tables of a killed process waited for their next move
//! (takeover, p50/p99; those over 5 s are listed). A bot's harness gives only what differs (`Bot`): how its processes start, how
//! people open and play a table through its fake server, and what the fake saw.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use stikis_core::Card;
use stikis_host::games::zole::card_label;
use stikis_host::lobby::{BEAT_STALE_MS, SWEEP_EVERY};
use stikis_host::owner::PRESS_LIMIT;
use stikis_host::store::{ActionRow, Platform, Store};
use stikis_host::token::Token;

/// How long a bot process may take from its spawn to its first sweep (the binary starts,
/// opens the database, migrates, loads its tables): generous for a loaded 2-core machine.
const STARTUP_MS: i64 = 5_000;
/// How much later than due a sweep may run (a starved process, a database slow to answer).
const SLACK_MS: i64 = 2_000;
/// Two actions of one table committed by two processes closer than this: two owners at once.
const TWO_OWNERS_MS: i64 = 1_000;

#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(PathBuf),
    /// The server's URL and the run's own schema.
    Postgres(String, String),
}

impl Db {
    /// What the bots are given as DATABASE_URL.
    pub fn url(&self) -> String {
        match self {
            Db::Sqlite(p) => p.to_str().unwrap().to_string(),
            Db::Postgres(url, schema) => {
                let sep = if url.contains('?') { '&' } else { '?' };
                format!("{url}{sep}options=-c%20search_path%3D{schema}")
            }
        }
    }

    async fn open(&self) -> Store {
        match self {
            Db::Sqlite(p) => Store::open_sqlite(p.to_str().unwrap()).await.unwrap(),
            Db::Postgres(url, schema) => Store::connect_postgres(url, Some(schema)).await.unwrap(),
        }
    }
}

pub struct Config {
    pub seed: u64,
    pub secs: u64,
    pub tables: i64,
    pub procs: usize,
    pub kills: bool,
    pub db: Db,
    pub pg_restart: Option<String>,
    /// PostgreSQL stopped halfway through for this long, instead of restarted
    /// (`STIKIS_CHAOS_OUTAGE_SECS`, with the commands `STIKIS_CHAOS_PG_STOP` and
    /// `STIKIS_CHAOS_PG_START`): every press made meanwhile must be answered within
    /// `OUTAGE_ANSWER_MS`.
    pub outage: Option<Outage>,
    /// After the chaos, this long with no process killed or started: the one-owner check
    /// needs time outside every change's window to examine anything (`CALM_SECS`).
    pub calm_secs: u64,
    /// Before that calm, as long again with one process killed and kept down (kills, but no
    /// starts, for a stretch: the others own its tables meanwhile).
    pub hold_one_down: bool,
    /// A quarter of the kills are a process stopped (SIGSTOP) for 1.5-2.5 s instead: a starved
    /// process, whose presses Discord's bot defers; a run on Discord must then check some.
    pub starve: bool,
}

/// The calm of the short runs: longer than a start's window (`Change::window`), so that
/// some seconds of it are outside every window.
const CALM_SECS: u64 = 20;

/// A PostgreSQL outage the harness makes: how to stop and start the server, and for how long.
#[derive(Clone, Debug)]
pub struct Outage {
    pub stop: String,
    pub start: String,
    pub secs: u64,
}

impl Outage {
    /// The outage the environment asks for, if any.
    fn from_env() -> Option<Outage> {
        let secs = std::env::var("STIKIS_CHAOS_OUTAGE_SECS").ok()?.parse().ok()?;
        Some(Outage {
            stop: std::env::var("STIKIS_CHAOS_PG_STOP")
                .expect("STIKIS_CHAOS_PG_STOP: how to stop PostgreSQL"),
            start: std::env::var("STIKIS_CHAOS_PG_START")
                .expect("STIKIS_CHAOS_PG_START: how to start PostgreSQL"),
            secs,
        })
    }
}

/// How soon a press made while the database is away must be answered ("try again").
const OUTAGE_ANSWER_MS: i64 = 5_000;

/// Runs a shell command on a blocking thread; panics if it fails.
async fn shell(cmd: &str, what: &str) {
    let cmd = cmd.to_string();
    let ok = tokio::task::spawn_blocking(move || {
        Command::new("sh")
            .args(["-c", &cmd])
            .status()
            .map(|s| s.success())
    })
    .await
    .unwrap();
    assert!(matches!(ok, Ok(true)), "{what} failed: {ok:?}");
}

/// A press the harness made: its id at the fake (callback query, interaction), who, and the
/// button's token.
#[derive(Clone, Debug)]
pub struct Press {
    pub id: String,
    pub user: String,
    pub token: Token,
    /// When the person pressed (Unix ms).
    pub sent_ms: i64,
    /// When its first answer came, if the person saw one before giving up waiting.
    pub answered_ms: Option<i64>,
}

impl Press {
    /// A press made now.
    pub fn now(id: String, user: String, token: Token) -> Press {
        Press {
            id,
            user,
            token,
            sent_ms: unix_ms(),
            answered_ms: None,
        }
    }
}

/// Puts `press` in the run's log; returns its place there, for `answered`.
pub fn log_press(log: &Mutex<Vec<Press>>, press: Press) -> usize {
    let mut log = log.lock().unwrap();
    log.push(press);
    log.len() - 1
}

/// Notes that the press at `at` in the log was answered now.
pub fn answered(log: &Mutex<Vec<Press>>, at: usize) {
    if let Some(p) = log.lock().unwrap().get_mut(at) {
        p.answered_ms.get_or_insert(unix_ms());
    }
}

/// A person's pause after a press was taken, before their next one: `STIKIS_CHAOS_PACE_MS`
/// (0, none, by default: each person presses again as soon as they are answered). With a
/// pause the run is paced like people at a table, so its moves/s is set by the tables and
/// the pace, and its CPU per move is the work of a move whatever each press's latency
/// (`bench/throughput.sh` with `PACE_MS`).
pub async fn think() {
    let pace: u64 = env_or("STIKIS_CHAOS_PACE_MS", 0);
    if pace > 0 {
        tokio::time::sleep(Duration::from_millis(pace)).await;
    }
}

/// A table of the run: its group chat (channel) and its people, as the platform names them.
pub struct Table {
    pub group: String,
    pub users: Vec<String>,
}

/// What the fake server saw.
#[derive(Default)]
pub struct Seen {
    /// Every answer to each press, by press id: "✓" (Telegram: "✓ " and the move) when the
    /// move was taken.
    pub answers: HashMap<String, Vec<String>>,
    /// Every version of every message: (chat, message id, text and buttons, when). A button
    /// shows as a line "label ⌁token".
    pub history: Vec<(String, String, String, i64)>,
    /// Deliveries of an update or interaction to another process after one failed.
    pub redelivered: usize,
}

/// What a fake server knows of a press it posted to one of the processes (Discord's
/// interactions), for the check of the presses a bot deferred.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The index of the process that took the post (its endpoint replied, or took the post
    /// and failed).
    pub process: usize,
    /// When it was posted there (Unix ms, the clock of the actions' `at_ms`).
    pub posted_ms: i64,
    /// When its first follow-up came (an edit of its original response or a follow-up
    /// message: only the process that took the press sends one).
    pub followed_up_ms: Option<i64>,
    /// A follow-up refused it ("try again", out of date…) after its deferral's "✓".
    pub refused_later: bool,
    /// A follow-up said its move's outcome was not known yet (the chat is told later).
    pub unsure_later: bool,
}

/// What a bot's harness gives: how its processes start, and how people use it through its
/// fake server. People are named "U" and their id, so the bots say "U… ran out of time".
pub trait Bot: Clone + Send + Sync + 'static {
    const PLATFORM: Platform;
    /// The command that starts bot process `i` on the database at `db_url`.
    fn command(&self, i: usize, db_url: &str) -> Command;
    /// The chat in which the bot shows `user` their hand.
    fn dm_chat(user: &str) -> String;
    /// Opens table `n` with `humans` people and computer players in the other seats, and
    /// starts it.
    fn open_table(&self, n: i64, humans: i64) -> impl Future<Output = Table> + Send;
    /// The people of `table` play while `playing` holds: whoever has a move presses it and
    /// waits for the answer (pressing again when it is refused or never comes), and every
    /// press goes to `log`.
    fn play(
        self,
        table: Arc<Table>,
        playing: Arc<AtomicBool>,
        log: Arc<Mutex<Vec<Press>>>,
    ) -> impl Future<Output = ()> + Send;
    /// What the fake server saw so far.
    fn seen(&self) -> Seen;
    /// Every press's delivery by press id, where the fake knows it (none: no bot deferred a
    /// press then).
    fn deliveries(&self) -> HashMap<String, Delivery> {
        HashMap::new()
    }
    /// The platform calls the fake server took, per method (none where it does not count
    /// them): printed with the run's figures, for the calls a move costs.
    fn calls(&self) -> Vec<(String, usize)> {
        Vec::new()
    }
    /// Gives a command that opens a table, in chat `n` of its own, and waits up to `wait`
    /// for the bot's first answer there: how long it took (None: none came). None where the
    /// bot's harness gives no commands during an outage.
    fn command_in_outage(&self, n: i64, wait: Duration) -> impl Future<Output = Option<Option<i64>>> + Send {
        let _ = (n, wait);
        async { None }
    }
    /// Whether chat `n` of `command_in_outage` shows a table (the command carried out after
    /// all).
    fn table_in(&self, n: i64) -> bool {
        let _ = n;
        false
    }
}

/// Commands given while PostgreSQL is away (`Bot::command_in_outage`): one every
/// `OUTAGE_COMMAND_EVERY` while the outage has time left to answer it, each in a chat of its
/// own; how long each waited for its answer, by chat.
async fn commands_in_outage<B: Bot>(bot: &B, secs: u64) -> Vec<(i64, Option<i64>)> {
    let t0 = Instant::now();
    let last = Duration::from_secs(secs).saturating_sub(Duration::from_millis(2 * OUTAGE_ANSWER_MS as u64));
    let mut tries = Vec::new();
    let mut n = 0;
    while t0.elapsed() < last {
        let bot = bot.clone();
        tries.push(tokio::spawn(async move {
            let waited = bot
                .command_in_outage(n, Duration::from_millis(2 * OUTAGE_ANSWER_MS as u64))
                .await;
            waited.map(|w| (n, w))
        }));
        n += 1;
        tokio::time::sleep(OUTAGE_COMMAND_EVERY).await;
    }
    let mut out = Vec::new();
    for t in tries {
        out.extend(t.await.expect("a command's task"));
    }
    out
}

/// How often a command is given during an outage (`commands_in_outage`).
const OUTAGE_COMMAND_EVERY: Duration = Duration::from_secs(3);

/// What changes the live set: a process started (spawned, or started again after it exited),
/// killed, found to have exited, all stopped gracefully at the end; PostgreSQL restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChangeKind {
    Start,
    Kill,
    Exit,
    Stop,
    PgRestart,
}

/// A change of the live set, as the harness made or saw it.
#[derive(Clone, Debug)]
struct Change {
    kind: ChangeKind,
    /// The process's index (None: PostgreSQL, or every process at the final stop).
    process: Option<usize>,
    /// When it began and ended (Unix ms, the clock of the actions' `at_ms`): a kill from its
    /// SIGKILL to the process reaped, an exit from the last look that saw the process running
    /// to the one that found it gone, the stop from its SIGTERMs to the last exit, the
    /// restart from the command to its return; a start is an instant, its spawn.
    from_ms: i64,
    to_ms: i64,
}

impl Change {
    /// The time around the change in which two processes may both take themselves for a
    /// table's owner (`host/src/owner.rs`). The owners are computed from the heartbeats at each
    /// sweep (every `SWEEP_EVERY`), and a process is live while its last beat is younger than
    /// `BEAT_STALE_MS`:
    ///
    /// - a started process owns every table until its first sweep (its view is empty), then
    ///   the tables it weighs most, while the others see it only from its second beat, at
    ///   their next sweep: from the spawn to its startup (`STARTUP_MS`) and two sweeps, with
    ///   `BEAT_STALE_MS` more as the margin every change gets (a start is never judged more
    ///   tightly than an end);
    /// - a process that ends (killed, exited, stopped) is live for the others until its last
    ///   beat is stale, which they see at their next sweep: up to `BEAT_STALE_MS` and two
    ///   sweeps after the end, plus `SLACK_MS` for a late sweep (a graceful stop says so at
    ///   once, but its tables' moves in flight end within the same bound);
    /// - while PostgreSQL restarts no process beats (a process that cannot beat keeps its
    ///   last view) and the ones that come back first may find the others' beats stale: the
    ///   same bound after the restart's end.
    fn window(&self) -> (i64, i64) {
        let sweeps = 2 * SWEEP_EVERY.as_millis() as i64;
        let after = match self.kind {
            ChangeKind::Start => STARTUP_MS + BEAT_STALE_MS + sweeps,
            _ => BEAT_STALE_MS + sweeps + SLACK_MS,
        };
        (self.from_ms, self.to_ms + after)
    }

    fn describe(&self, start_ms: i64) -> String {
        let (_, until) = self.window();
        format!(
            "{:?} of {} at +{}..+{} ms (window to +{} ms)",
            self.kind,
            self.process
                .map_or("PostgreSQL/all".to_string(), |i| format!("process {i}")),
            self.from_ms - start_ms,
            self.to_ms - start_ms,
            until - start_ms
        )
    }
}

struct Fleet {
    children: Vec<Option<Child>>,
    dir: PathBuf,
    command: Box<dyn Fn(usize) -> Command + Send>,
    /// (pid, when) of every SIGKILL.
    kills: Vec<(u32, i64)>,
    restarts: usize,
    /// Processes that exited by themselves (e.g. could not reach the database at start).
    exits: usize,
    /// (index, pid) of every process spawned, in order: a process id in the log names its
    /// pid (`p{pid}-…`).
    pids: Vec<(usize, u32)>,
    /// Every change of the live set, in order.
    changes: Vec<Change>,
    /// When `revive` last looked at the processes (an exit happened since).
    looked_ms: i64,
}

impl Fleet {
    fn spawn(&mut self, i: usize) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(format!("bot{i}.log")))
            .unwrap();
        let child = (self.command)(i)
            .env(
                "RUST_LOG",
                std::env::var("STIKIS_CHAOS_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .env_remove("STIKIS_METRICS_LISTEN")
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("the bot's binary starts");
        let at = unix_ms();
        self.pids.push((i, child.id()));
        self.changes.push(Change {
            kind: ChangeKind::Start,
            process: Some(i),
            from_ms: at,
            to_ms: at,
        });
        self.children[i] = Some(child);
    }

    fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.children[i].take() {
            let pid = c.id();
            let from_ms = unix_ms();
            c.kill().unwrap(); // SIGKILL
            c.wait().unwrap();
            self.kills.push((pid, unix_ms()));
            self.changes.push(Change {
                kind: ChangeKind::Kill,
                process: Some(i),
                from_ms,
                to_ms: unix_ms(),
            });
        }
    }

    /// The index of the process named `id` in the log (`p{pid}-…`).
    fn index_of(&self, id: &str) -> Option<usize> {
        let pid: u32 = id.strip_prefix('p')?.split('-').next()?.parse().ok()?;
        self.pids.iter().rev().find(|(_, p)| *p == pid).map(|(i, _)| *i)
    }

    /// Starts again every process that exited by itself.
    fn revive(&mut self) {
        for i in 0..self.children.len() {
            let exited = match self.children[i].as_mut() {
                Some(c) => c.try_wait().unwrap().is_some(),
                None => false,
            };
            if exited {
                self.exits += 1;
                self.children[i] = None;
                self.changes.push(Change {
                    kind: ChangeKind::Exit,
                    process: Some(i),
                    from_ms: self.looked_ms,
                    to_ms: unix_ms(),
                });
                self.spawn(i);
                self.restarts += 1;
            }
        }
        self.looked_ms = unix_ms();
    }

    /// SIGTERM to all: each finishes what it holds and sends its held-back edits.
    fn stop(&mut self) {
        let from_ms = unix_ms();
        for c in self.children.iter().flatten() {
            let _ = Command::new("kill").args(["-TERM", &c.id().to_string()]).status();
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        for c in &mut self.children {
            if let Some(mut c) = c.take() {
                while c.try_wait().unwrap().is_none() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(50));
                }
                let _ = c.kill();
                let _ = c.wait();
            }
        }
        self.changes.push(Change {
            kind: ChangeKind::Stop,
            process: None,
            from_ms,
            to_ms: unix_ms(),
        });
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for c in &mut self.children {
            if let Some(mut c) = c.take() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

pub fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// `n` different free ports on 127.0.0.1: one per process for each address it listens on,
/// kept for it across its restarts (a process listening on port 0 could take a port chosen
/// for another, which is down for a restart, and keep that one from starting).
pub fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter().map(|l| l.local_addr().unwrap().port()).collect()
}

/// The results posted in `group`, first to last: the first text of each message that begins
/// with "Result of deal", each result of it (a bot posts the results it owes together, in one
/// message, each beginning on a line of its own after an empty one).
fn results_of(history: &[(String, String, String, i64)], group: &str) -> Vec<String> {
    let mut first = HashSet::new();
    history
        .iter()
        .filter(|(c, m, _, _)| c == group && first.insert(m.clone()))
        .filter(|(_, _, text, _)| text.starts_with("Result of deal"))
        .flat_map(|(_, _, text, _)| {
            text.split("\n\nResult of deal ")
                .enumerate()
                .map(|(i, part)| {
                    if i == 0 {
                        part.to_string()
                    } else {
                        format!("Result of deal {part}")
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Cards named in a text, as chat players read them (`Q♣`, `10♦`).
fn cards_in(text: &str, labels: &HashMap<String, Card>) -> Vec<Card> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '·' || c == '✓')
        .filter_map(|w| labels.get(w).copied())
        .collect()
}

/// What a deal is, for the privacy checks.
struct DealView {
    no: i64,
    hands: Vec<Vec<Card>>,
    talon: Vec<Card>,
    /// (card, when it was played), in order.
    played: Vec<(Card, i64)>,
    /// When the deal's last action was committed (the deal's end, if it ended).
    end_ms: Option<i64>,
}

fn cards_of(v: &Value) -> Vec<Card> {
    v.as_array()
        .map(|a| a.iter().filter_map(|c| c.as_str()?.parse().ok()).collect())
        .unwrap_or_default()
}

/// How the checks name the platform's places.
struct Names {
    platform: Platform,
    dm_chat: fn(&str) -> String,
}

/// One chaos run of `bot` (see the head of this file).
pub async fn run<B: Bot>(bot: B, cfg: Config) {
    println!(
        "chaos: {:?}, seed {} ({} s, {} tables, {} processes, {}, kills {})",
        B::PLATFORM,
        cfg.seed,
        cfg.secs,
        cfg.tables,
        cfg.procs,
        match &cfg.db {
            Db::Sqlite(_) => "SQLite",
            Db::Postgres(..) => "PostgreSQL",
        },
        if cfg.kills { "on" } else { "off" }
    );
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let dir = tempfile::tempdir().unwrap();
    // The schema (and SQLite's file) exist before the bots race to create them.
    let store = cfg.db.open().await;
    let db_url = cfg.db.url();
    let fleet = Arc::new(Mutex::new(Fleet {
        children: (0..cfg.procs).map(|_| None).collect(),
        dir: dir.path().to_path_buf(),
        command: Box::new({
            let bot = bot.clone();
            move |i| bot.command(i, &db_url)
        }),
        kills: Vec::new(),
        restarts: 0,
        exits: 0,
        pids: Vec::new(),
        changes: Vec::new(),
        looked_ms: unix_ms(),
    }));
    for i in 0..cfg.procs {
        fleet.lock().unwrap().spawn(i);
    }
    let failure_note = format!(
        "seed {}; the bots' logs are in {} (kept)",
        cfg.seed,
        dir.path().display()
    );
    let keep = scopeguard(dir);

    // Tables, set up before the chaos.
    let tables: Vec<Arc<Table>> = {
        let opened = (0..cfg.tables).map(|n| {
            let bot = bot.clone();
            tokio::spawn(async move { Arc::new(bot.open_table(n, 1 + n % 3).await) })
        });
        let mut v = Vec::new();
        for t in opened.collect::<Vec<_>>() {
            v.push(t.await.unwrap());
        }
        v
    };
    let cpu = CpuSampler::start();
    let t0 = Instant::now();
    let start_ms = unix_ms();
    let playing = Arc::new(AtomicBool::new(true));
    let presses = Arc::new(Mutex::new(Vec::<Press>::new()));
    let players: Vec<_> = tables
        .iter()
        .map(|t| {
            tokio::spawn(
                bot.clone()
                    .play(Arc::clone(t), Arc::clone(&playing), Arc::clone(&presses)),
            )
        })
        .collect();

    // The chaos.
    let mut pg_restarts = 0;
    // Processes stopped for a moment and let go on (`Config::starve`).
    let mut starved = 0usize;
    let mut outage_window: Option<(i64, i64)> = None;
    // Commands given during the outage, by chat, with how long each waited for its answer.
    let mut outage_commands: Vec<(i64, Option<i64>)> = Vec::new();
    let pg_restart_at = cfg.secs / 2;
    let until = t0 + Duration::from_secs(cfg.secs);
    // Each pause between kills is drawn between half and twice STIKIS_CHAOS_KILL_MS (2000);
    // lower, the live set keeps changing.
    let kill_pause: u64 = env_or("STIKIS_CHAOS_KILL_MS", 2_000).max(2);
    while Instant::now() < until {
        let pause = if cfg.kills {
            rng.random_range(kill_pause / 2..kill_pause * 2)
        } else {
            500
        };
        tokio::time::sleep(Duration::from_millis(pause)).await;
        fleet.lock().unwrap().revive();
        if !cfg.kills || Instant::now() >= until {
            continue;
        }
        if let Some(outage) = &cfg.outage {
            if outage_window.is_none() && t0.elapsed().as_secs() >= pg_restart_at {
                let from_ms = unix_ms();
                shell(&outage.stop, "stopping PostgreSQL").await;
                println!(
                    "chaos: PostgreSQL stopped at +{} ms for {} s",
                    unix_ms() - start_ms,
                    outage.secs
                );
                let (_, tried) = tokio::join!(
                    tokio::time::sleep(Duration::from_secs(outage.secs)),
                    commands_in_outage(&bot, outage.secs)
                );
                outage_commands = tried;
                let back_ms = unix_ms();
                shell(&outage.start, "starting PostgreSQL").await;
                println!("chaos: PostgreSQL started again at +{} ms", unix_ms() - start_ms);
                fleet.lock().unwrap().changes.push(Change {
                    kind: ChangeKind::PgRestart,
                    process: None,
                    from_ms,
                    to_ms: unix_ms(),
                });
                outage_window = Some((from_ms, back_ms));
                continue;
            }
        }
        if let Some(cmd) = &cfg.pg_restart {
            if pg_restarts == 0 && t0.elapsed().as_secs() >= pg_restart_at {
                let from_ms = unix_ms();
                shell(cmd, "restarting PostgreSQL").await;
                println!("chaos: PostgreSQL restarted at +{} ms", unix_ms() - start_ms);
                fleet.lock().unwrap().changes.push(Change {
                    kind: ChangeKind::PgRestart,
                    process: None,
                    from_ms,
                    to_ms: unix_ms(),
                });
                pg_restarts += 1;
                continue;
            }
        }
        let i = rng.random_range(0..cfg.procs);
        if cfg.starve && rng.random_ratio(1, 4) {
            // Starved instead: stopped for a moment (its presses in flight take longer than
            // a platform waits for an answer: Discord's are deferred), then let go on.
            let pid = fleet.lock().unwrap().children[i].as_ref().map(Child::id);
            if let Some(pid) = pid {
                let signal = |s: &str| {
                    let _ = Command::new("kill").args([s, &pid.to_string()]).status();
                };
                signal("-STOP");
                tokio::time::sleep(Duration::from_millis(rng.random_range(1_500..2_500))).await;
                signal("-CONT");
                starved += 1;
                continue;
            }
        }
        fleet.lock().unwrap().kill(i);
        let down = rng.random_range(200..2_500);
        let fleet2 = Arc::clone(&fleet);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(down)).await;
            let mut f = fleet2.lock().unwrap();
            if f.children[i].is_none() {
                f.spawn(i);
                f.restarts += 1;
            }
        });
    }
    // The calm stretches, part of the chaos's time (the moves/s and CPU cover them too).
    if cfg.calm_secs > 0 && cfg.kills {
        // The restarts the chaos scheduled land first (each within 2.5 s of its kill); then
        // every process is up.
        tokio::time::sleep(Duration::from_millis(2_600)).await;
        {
            let mut f = fleet.lock().unwrap();
            f.revive();
            for i in 0..cfg.procs {
                if f.children[i].is_none() {
                    f.spawn(i);
                    f.restarts += 1;
                }
            }
        }
        let calm = Duration::from_secs(cfg.calm_secs);
        if cfg.hold_one_down && cfg.procs > 1 {
            let i = rng.random_range(0..cfg.procs);
            println!("chaos: process {i} killed and kept down for {} s", cfg.calm_secs);
            fleet.lock().unwrap().kill(i);
            tokio::time::sleep(calm).await;
            let mut f = fleet.lock().unwrap();
            f.spawn(i);
            f.restarts += 1;
        }
        println!(
            "chaos: every process up, none killed or started for {} s",
            cfg.calm_secs
        );
        tokio::time::sleep(calm).await;
    }
    let chaos_secs = t0.elapsed().as_secs_f64();
    let chaos_end_ms = unix_ms();
    let cpu = cpu.map(CpuSampler::finish);

    // Calm: every process up, and every table plays one more deal.
    tokio::time::sleep(Duration::from_secs(3)).await;
    fleet.lock().unwrap().revive();
    let posted: Vec<usize> = {
        let history = bot.seen().history;
        tables
            .iter()
            .map(|t| results_of(&history, &t.group).len())
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let seen = bot.seen();
        let stuck: Vec<&Arc<Table>> = tables
            .iter()
            .zip(&posted)
            .filter(|(t, &n)| results_of(&seen.history, &t.group).len() <= n)
            .map(|(t, _)| t)
            .collect();
        if stuck.is_empty() {
            break;
        }
        if Instant::now() >= deadline {
            // What each stuck table's people saw last, and what their last presses were told.
            let log = presses.lock().unwrap();
            for t in &stuck {
                println!("chaos: stuck table in group {}", t.group);
                let chats: Vec<String> = t.users.iter().map(|u| B::dm_chat(u)).collect();
                let shown: Vec<_> = seen
                    .history
                    .iter()
                    .filter(|h| h.0 == t.group || chats.contains(&h.0))
                    .collect();
                for (chat, m, text, when) in &shown[shown.len().saturating_sub(12)..] {
                    println!(
                        "  +{} chat {chat} msg {m}: {}",
                        when - start_ms,
                        text.replace('\n', " | ")
                    );
                }
                // Every message in each person's private chat as it stands (a second hand
                // message that no process edits any more would leave its owner stuck).
                for chat in &chats {
                    let mut last: Vec<(&String, &String, i64)> = Vec::new();
                    for (_, m, text, when) in seen.history.iter().filter(|h| &h.0 == chat) {
                        match last.iter_mut().find(|l| l.0 == m) {
                            Some(l) => *l = (m, text, *when),
                            None => last.push((m, text, *when)),
                        }
                    }
                    for (m, text, when) in last.iter().rev().take(4).rev() {
                        println!(
                            "  chat {chat} has msg {m} (last shown +{}): {}",
                            when - start_ms,
                            text.replace('\n', " | ")
                        );
                    }
                }
                for p in log.iter().filter(|p| t.users.contains(&p.user)).rev().take(6) {
                    println!(
                        "  press {} by {} {:?}: {:?}",
                        p.id,
                        p.user,
                        p.token,
                        seen.answers.get(&p.id)
                    );
                }
            }
            // The players' tasks still log their presses: the lock is not taken into the panic.
            drop(log);
            let groups: Vec<&str> = stuck.iter().map(|t| t.group.as_str()).collect();
            panic!(
                "{} tables did not finish a deal after the chaos (groups {groups:?}); {failure_note}",
                stuck.len()
            );
        }
        fleet.lock().unwrap().revive();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    playing.store(false, Ordering::Relaxed);
    for p in players {
        p.await.unwrap();
    }
    // Presses still in flight are answered, held-back edits go out, and the processes stop.
    tokio::time::sleep(Duration::from_secs(2)).await;
    tokio::task::spawn_blocking({
        let fleet = Arc::clone(&fleet);
        move || fleet.lock().unwrap().stop()
    })
    .await
    .unwrap();
    if let Some(stop) = fleet.lock().unwrap().changes.last() {
        println!(
            "chaos: the graceful stop (SIGTERM to every process, while their last presses are answered) took {} ms",
            stop.to_ms - stop.from_ms
        );
    }

    // The checks.
    let presses = presses.lock().unwrap().clone();
    let seen = bot.seen();
    let deliveries = bot.deliveries();
    let calls = bot.calls();
    // The chats of commands given during the outage that show a table by now.
    let opened_later: HashSet<i64> = outage_commands
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| bot.table_in(*n))
        .collect();
    let dir = fleet.lock().unwrap().dir.clone();
    let deferred = deferred_in(&dir);
    let bot = Names {
        platform: B::PLATFORM,
        dm_chat: B::dm_chat,
    };
    let Seen {
        answers,
        history,
        redelivered,
    } = seen;
    let labels: HashMap<String, Card> = (0..52u8)
        .filter_map(Card::from_index)
        .map(|c| (card_label(c), c))
        .collect();
    let mut acknowledged = 0;
    // Of them, the presses of a move (a card played, a bid), each looked for in the log.
    let mut acknowledged_moves = 0;
    // Presses whose answer was only a deferral ("✓" then says "received", not "taken"), by
    // what became of them: in the log (and of those, the ones refused in a follow-up all the
    // same: reported), refused in a follow-up, lost with the process that took them, none of
    // these (a failure), and those whose deferral never reached the person (its process died
    // answering the post).
    let mut deferred_logged = 0;
    let mut deferred_logged_refused = Vec::new();
    let mut deferred_refused = 0;
    let mut deferred_lost = 0;
    let mut deferred_lost_list = Vec::new();
    let mut deferred_unexplained = Vec::new();
    let mut deferred_unanswered = 0;
    // Deferred presses whose process per the bots' logs is not the one the fake posted to.
    let mut deferred_elsewhere = Vec::new();
    // Two owners: consecutive actions of a table by two processes less than
    // `TWO_OWNERS_MS` apart, outside any change's window (a failure), and within one.
    let mut two_owners = Vec::new();
    let mut owners_changed: std::collections::BTreeMap<String, usize> = Default::default();
    // Consecutive actions of a table the one-owner check examined outside every change's
    // window (where nothing could excuse two owners).
    let mut owner_examined = 0usize;
    // Presses answered "try again" (or "cannot reach the database: nothing was changed"):
    // looked for in the log; found there as theirs (a failure); found there while another
    // press of the same button was in flight (not told apart, counted); and presses told
    // their move's outcome was not known yet.
    let try_again: Vec<String> = ["press-try-again", "store-unavailable"]
        .iter()
        .map(|k| stikis_host::i18n::t(stikis_host::i18n::Lang::En, k, &[]))
        .collect();
    let unsure = stikis_host::i18n::t(stikis_host::i18n::Lang::En, "press-unsure", &[]);
    let mut try_again_checked = 0usize;
    let mut try_again_committed = Vec::new();
    let mut try_again_shared = 0usize;
    let mut unsure_answers = 0usize;
    let mut lost = Vec::new();
    let mut doubled = Vec::new();
    let mut ghosts = Vec::new();
    let mut leaks = Vec::new();
    // How many texts the privacy check read: of the group's table messages, and of hand
    // messages (each text of a message while its deal ran). None read would be a check that
    // saw nothing (a message ref or chat that never matches), not a run without leaks.
    let mut table_texts_checked = 0usize;
    let mut hand_texts_checked = 0usize;
    // Results posted whose totals were compared with the replayed record's.
    let mut totals_checked = 0usize;
    let mut stale_hands = Vec::new();
    let mut replay_errors = Vec::new();
    // Deals whose result was never posted (the process that takes a table over posts the
    // result its dead process owed), and results posted twice (reported: a process killed
    // between posting a result and remembering that it did).
    let mut results_lost = Vec::new();
    let mut results_twice = Vec::new();
    let mut waits = Vec::new();
    // Acknowledged presses of the chaos window: (ms to their commit, ms to their answer),
    // committed where they were posted, and handed to the table's owner.
    let mut timed_here: Vec<(i64, i64)> = Vec::new();
    let mut timed_handed: Vec<(i64, i64)> = Vec::new();
    let mut slow_takeovers = Vec::new();
    // Moves the turn timer made for a person, and of those the turns never shown to them (a
    // hand message lost with a killed process: reported, see the docs).
    let mut timed_out = 0;
    let mut unseen_turns = Vec::new();
    let mut actions_total = 0;
    let mut in_chaos = 0;
    let kills = fleet.lock().unwrap().kills.clone();
    let changes = fleet.lock().unwrap().changes.clone();
    let windows: Vec<(i64, i64)> = changes.iter().map(Change::window).collect();
    // A process's name in the log, with its index.
    let named = |process: &str| -> String {
        match fleet.lock().unwrap().index_of(process) {
            Some(i) => format!("{process} (process {i})"),
            None => process.to_string(),
        }
    };
    let posted = |id: &str| deliveries.get(id).map(|d| d.posted_ms);
    // Whether press `id` could have committed action `r`: after it was posted, and no later
    // than `PRESS_LIMIT` after the process that took it began handling it, which was before
    // its first follow-up (a press not committed within its limit never is). Unknown
    // deliveries (no fake that tells them) could.
    let limit = PRESS_LIMIT.as_millis() as i64;
    let could_commit = |id: &str, r: &ActionRow| {
        deliveries
            .get(id)
            .is_none_or(|d| r.at_ms >= d.posted_ms && d.followed_up_ms.is_none_or(|f| r.at_ms <= f + limit))
    };
    for t in &tables {
        let Some(id) = presses
            .iter()
            .find(|p| t.users.contains(&p.user))
            .map(|p| p.token.table)
        else {
            panic!("no press was made at table {}; {failure_note}", t.group)
        };
        let actions = store.actions(id).await.unwrap();
        let deals = store.deals(id).await.unwrap();
        let seats = store.seats(id).await.unwrap();
        actions_total += actions.len();
        in_chaos += actions
            .iter()
            .filter(|a| a.at_ms >= start_ms && a.at_ms < chaos_end_ms)
            .count();
        let seat_of: HashMap<String, i64> = seats
            .iter()
            .filter_map(|s| Some((user_of(s)?.to_string(), i64::from(s.seat))))
            .collect();
        let by_seq: HashMap<i64, &stikis_host::store::ActionRow> =
            actions.iter().map(|a| (a.seq, a)).collect();

        // Presses against the log.
        let mine: Vec<&Press> = presses.iter().filter(|p| p.token.table == id).collect();
        // The presses acknowledged for each action number, described.
        let mut acked_at: HashMap<i64, Vec<String>> = HashMap::new();
        // The other presses of `p`'s button by its presser, for the failures: id, process and
        // time of the post, answers.
        let same_button = |p: &Press| -> Vec<String> {
            mine.iter()
                .filter(|q| q.id != p.id && q.user == p.user && q.token == p.token)
                .map(|q| {
                    let d = deliveries.get(&q.id);
                    format!(
                        "{} to {:?} at {:?}: {:?}",
                        q.id,
                        d.map(|d| d.process),
                        d.map(|d| d.posted_ms - start_ms),
                        answers.get(&q.id)
                    )
                })
                .collect()
        };
        for p in &mine {
            let said = answers.get(&p.id).cloned().unwrap_or_default();
            // "✓", or on Telegram "✓ 9♣": the move taken, named.
            let oks = said.iter().filter(|a| a.starts_with('✓')).count();
            let (kind, arg) = p.token.action.split_once(':').unwrap_or(("", ""));
            let row = by_seq.get(&(p.token.seq + 1)).copied();
            let seat = seat_of.get(&p.user.to_string()).copied();
            if let Some(&logged_by) = deferred.get(&p.id) {
                // The bot said it deferred this press: its "✓" came before the move was
                // taken. It is in the log as an acknowledged press is (then counted with
                // them for "applied twice"), or a follow-up refused it, or the process that
                // took it was killed before any follow-up and took the move with it (the
                // person sees their hand unchanged and presses again). Nothing else.
                let delivery = deliveries.get(&p.id);
                let refused = delivery.is_some_and(|d| d.refused_later);
                if oks == 0 && !refused {
                    deferred_unanswered += 1;
                    continue;
                }
                if delivery.is_some_and(|d| d.process != logged_by) {
                    deferred_elsewhere.push(format!(
                        "press {}: deferred in the log of process {logged_by}, posted to process {}",
                        p.id,
                        delivery.map_or(0, |d| d.process)
                    ));
                }
                if oks > 1 {
                    doubled.push(format!("press {} answered ✓ {oks} times", p.id));
                }
                // In the log: the move its button carried, by the presser's seat, committed while
                // this press could commit it (`could_commit`), and not while a later press of the
                // same button could too (a person presses again when a press was lost or
                // refused: the move is the latest one's). A bury pick is logged only with the
                // second card: its seat's burial at that number, after the pick was posted (a
                // pick is bound by no limit; a pick refused in a follow-up is counted refused).
                let in_log = row.is_some_and(|r| match kind {
                    "p" | "b" => {
                        is_move(r, seat, kind, arg)
                            && could_commit(&p.id, r)
                            && !mine.iter().any(|q| {
                                q.id != p.id
                                    && q.user == p.user
                                    && q.token == p.token
                                    && posted(&q.id) > posted(&p.id)
                                    && could_commit(&q.id, r)
                            })
                    }
                    "y" => {
                        !refused
                            && r.payload["seat"].as_i64() == seat
                            && r.payload.get("bury").is_some()
                            && delivery.is_none_or(|d| r.at_ms >= d.posted_ms)
                    }
                    _ => false,
                });
                // Lost with its process: the one that took the press ended (killed, or exited)
                // after the press was posted there, before any follow-up.
                let taker = delivery.map_or(logged_by, |d| d.process);
                let end = delivery.and_then(|d| {
                    changes
                        .iter()
                        .filter(|c| {
                            c.process == Some(taker)
                                && matches!(c.kind, ChangeKind::Kill | ChangeKind::Exit)
                                && c.to_ms >= d.posted_ms
                        })
                        .min_by_key(|c| c.to_ms)
                });
                let lost_with_process = end.is_some_and(|e| {
                    delivery
                        .and_then(|d| d.followed_up_ms)
                        .is_none_or(|f| f >= e.from_ms)
                });
                // The press and when its follow-up came, for the reports below.
                let head = format!(
                    "table {id}: deferred press {} by {} ({}@{}) posted to process {taker} at +{} ms",
                    p.id,
                    p.user,
                    p.token.action,
                    p.token.seq,
                    delivery.map_or(0, |d| d.posted_ms - start_ms),
                );
                let followed = delivery
                    .and_then(|d| d.followed_up_ms)
                    .map(|f| format!("+{} ms", f - start_ms));
                if !in_log && delivery.is_some_and(|d| d.unsure_later) {
                    // Told its outcome was not known yet, and not taken: the chat said so later.
                    unsure_answers += 1;
                    continue;
                }
                if in_log {
                    deferred_logged += 1;
                    if refused {
                        // Committed, yet the person was told to try again (reported).
                        deferred_logged_refused.push(format!(
                            "{head}, refused in a follow-up at {followed:?}; action {} by {:?} at {:?}; \
                             other presses of the button: {:?}",
                            p.token.seq + 1,
                            row.and_then(|r| r.process.as_deref()).map(&named),
                            row.map(|r| format!("+{} ms", r.at_ms - start_ms)),
                            same_button(p),
                        ));
                    }
                    if kind != "y" {
                        acked_at.entry(p.token.seq).or_default().push(format!(
                            "deferred press {} ({}) at +{} ms",
                            p.id,
                            p.token.action,
                            p.sent_ms - start_ms
                        ));
                    }
                } else if refused {
                    deferred_refused += 1;
                } else if lost_with_process {
                    deferred_lost += 1;
                    deferred_lost_list.push(format!(
                        "{head}, first follow-up {followed:?}, end of its process {:?}",
                        end.map(|e| e.describe(start_ms))
                    ));
                } else {
                    deferred_unexplained.push(format!(
                        "{head}, first follow-up {followed:?}, end of its process {:?}: not refused, and action {} \
                         is {:?} by {:?} at {:?}; other presses of the button: {:?}; the bots' log lines about it: {:#?}",
                        end.map(|e| e.describe(start_ms)),
                        p.token.seq + 1,
                        row.map(|r| &r.payload),
                        row.and_then(|r| r.process.as_deref()),
                        row.map(|r| format!("+{} ms", r.at_ms - start_ms)),
                        same_button(p),
                        log_lines_about(&dir, &p.id),
                    ));
                }
                continue;
            }
            if oks == 0 {
                // Told its move did not go through: it must not be in the log as this press's
                // (committed from its post to its answer, while no other press of the same
                // button by the same person was in flight).
                let told_again = said
                    .iter()
                    .any(|a| try_again.iter().any(|t| a.contains(t.as_str())));
                if said.iter().any(|a| a.contains(unsure.as_str())) {
                    unsure_answers += 1;
                }
                if told_again && (kind == "p" || kind == "b") {
                    try_again_checked += 1;
                    let others_in_flight = |r: &ActionRow| {
                        mine.iter().any(|q| {
                            q.id != p.id
                                && q.user == p.user
                                && q.token == p.token
                                && q.sent_ms <= r.at_ms
                                && q.answered_ms.is_none_or(|a| a >= r.at_ms)
                        })
                    };
                    let committed = row.filter(|r| {
                        is_move(r, seat, kind, arg)
                            && r.at_ms >= p.sent_ms
                            && p.answered_ms.is_none_or(|a| r.at_ms <= a)
                    });
                    match committed {
                        Some(r) if others_in_flight(r) => try_again_shared += 1,
                        Some(r) => try_again_committed.push(format!(
                            "table {id}: press {} by {} ({}@{}) sent at +{} ms, answered {:?} at {:?}; \
                             action {} committed by {:?} at +{} ms",
                            p.id,
                            p.user,
                            p.token.action,
                            p.token.seq,
                            p.sent_ms - start_ms,
                            said,
                            p.answered_ms.map(|a| a - start_ms),
                            r.seq,
                            r.process.as_deref().map(&named),
                            r.at_ms - start_ms,
                        )),
                        None => {}
                    }
                }
                continue;
            }
            acknowledged += 1;
            if oks > 1 {
                doubled.push(format!("press {} answered ✓ {oks} times", p.id));
            }
            if kind != "p" && kind != "b" {
                continue; // a bury pick is logged with the second card only
            }
            acknowledged_moves += 1;
            acked_at.entry(p.token.seq).or_default().push(format!(
                "press {} ({}) by {} at +{} ms, answered at {:?}: {:?}",
                p.id,
                p.token.action,
                p.user,
                p.sent_ms - start_ms,
                p.answered_ms.map(|a| a - start_ms),
                answers.get(&p.id)
            ));
            let matches = row.is_some_and(|r| is_move(r, seat, kind, arg));
            // Its times to the commit and to the answer, by whether the process it was
            // posted to committed it or handed it to the table's owner.
            if let (Some(r), Some(d), Some(a), true) = (row, deliveries.get(&p.id), p.answered_ms, matches) {
                if p.sent_ms >= start_ms && p.sent_ms < chaos_end_ms {
                    let by = r
                        .process
                        .as_deref()
                        .and_then(|pr| fleet.lock().unwrap().index_of(pr));
                    let times = (r.at_ms - p.sent_ms, a - p.sent_ms);
                    if by == Some(d.process) {
                        timed_here.push(times);
                    } else if by.is_some() {
                        timed_handed.push(times);
                    }
                }
            }
            if !matches {
                lost.push(format!(
                    "table {id}: press {} ({}) → {:?}",
                    p.id,
                    p.token.action,
                    row.map(|r| &r.payload)
                ));
            }
        }
        for (seq, presses) in acked_at {
            if presses.len() > 1 {
                let row = actions.iter().find(|a| a.seq == seq + 1);
                doubled.push(format!(
                    "table {id}: {} presses acknowledged for action {} ({:?} by {:?} at {:?}): {presses:?}",
                    presses.len(),
                    seq + 1,
                    row.map(|r| &r.payload),
                    row.and_then(|r| r.process.as_deref()),
                    row.map(|r| r.at_ms - start_ms),
                ));
            }
        }
        // Every move of a person came from a press of theirs.
        let pressed_at: HashSet<(i64, &str)> =
            mine.iter().map(|p| (p.token.seq + 1, p.user.as_str())).collect();
        for a in &actions {
            let seat = a.payload["seat"].as_i64();
            let person = seats
                .iter()
                .find(|s| Some(i64::from(s.seat)) == seat)
                .and_then(user_of);
            if let Some(u) = person {
                if !pressed_at.contains(&(a.seq, u)) && a.payload.get("bury").is_none() {
                    // The turn timer moved for a person who did not press in time: said in
                    // the group. Was their turn ever shown to them?
                    let said = format!("U{u} ran out of time");
                    let timed = history.iter().any(|(c, _, text, at)| {
                        *c == t.group && text.contains(&said) && (at - a.at_ms).abs() < 5_000
                    });
                    if timed {
                        let dm = (bot.dm_chat)(u);
                        let shown = history.iter().any(|(c, _, text, _)| {
                            *c == dm
                                && text.lines().filter_map(|l| l.split_once(" ⌁")).any(|(_, data)| {
                                    Token::decode(data).is_ok_and(|k| k.table == id && k.seq + 1 == a.seq)
                                })
                        });
                        timed_out += 1;
                        if !shown {
                            unseen_turns.push(format!("table {id}: action {} (seat {seat:?})", a.seq));
                        }
                        continue;
                    }
                    let near: Vec<String> = mine
                        .iter()
                        .filter(|p| {
                            (p.user == u && (p.token.seq - a.seq).abs() <= 4) || p.token.seq + 1 == a.seq
                        })
                        .map(|p| {
                            format!(
                                "{} {}@{}→{:?}",
                                p.user,
                                p.token.action,
                                p.token.seq,
                                answers.get(&p.id)
                            )
                        })
                        .collect();
                    // The turn timer's word for it, if it came later than the check allows.
                    let said_at: Vec<i64> = history
                        .iter()
                        .filter(|(c, _, text, _)| *c == t.group && text.contains(&said))
                        .map(|(_, _, _, at)| at - a.at_ms)
                        .collect();
                    ghosts.push(format!(
                        "table {id}: action {} {} by {:?} at +{} ms without a press (presses near: \
                         {near:?}; \"ran out of time\" said for them at {said_at:?} ms from it)",
                        a.seq,
                        a.payload,
                        a.process,
                        a.at_ms - start_ms
                    ));
                }
            }
        }

        // One owner at a time: consecutive actions (in seq order, those whose process is
        // known) by two processes less than a second apart are two owners moving the table
        // at once, which only a change of the live set may excuse (its window overlaps the
        // two actions' times).
        let moved: Vec<&ActionRow> = actions.iter().filter(|a| a.process.is_some()).collect();
        for pair in moved.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            // Examined with nothing to excuse it: both actions outside every change's window.
            let excusable = |t: i64| windows.iter().any(|&(from, to)| from <= t && t <= to);
            if !excusable(a.at_ms) && !excusable(b.at_ms) {
                owner_examined += 1;
            }
            if a.process == b.process || (b.at_ms - a.at_ms).abs() >= TWO_OWNERS_MS {
                continue;
            }
            let (lo, hi) = (a.at_ms.min(b.at_ms), a.at_ms.max(b.at_ms));
            // Counted by the kind of the latest change whose window holds it.
            let within = changes.iter().rev().find(|c| {
                let (from, to) = c.window();
                from <= hi && lo <= to
            });
            // The pair, for the trace and the report.
            let pair = format!(
                "table {id}: action {} by {} at +{} ms, action {} by {} at +{} ms ({} ms apart)",
                a.seq,
                named(a.process.as_deref().unwrap_or_default()),
                a.at_ms - start_ms,
                b.seq,
                named(b.process.as_deref().unwrap_or_default()),
                b.at_ms - start_ms,
                b.at_ms - a.at_ms,
            );
            if let Some(c) = within {
                *owners_changed.entry(format!("{:?}", c.kind)).or_default() += 1;
                if std::env::var("STIKIS_CHAOS_TRACE").is_ok() {
                    println!("  {pair}, within {}", c.describe(start_ms));
                }
                continue;
            }
            // The change nearest to the pair, to tell how far outside its window it fell.
            let nearest = changes
                .iter()
                .min_by_key(|c| {
                    let (from, to) = c.window();
                    (from - hi).max(lo - to).max(0)
                })
                .map(|c| c.describe(start_ms));
            two_owners.push(format!("{pair}; nearest change: {nearest:?}"));
        }

        // The record replays to the totals the group was shown; every result was posted.
        let record = store.record(id).await.unwrap();
        let bytes = serde_json::to_vec(&record).unwrap();
        match stikis_core::record::replay(&bytes) {
            Err(e) => replay_errors.push(format!("table {id}: {e}")),
            Ok(out) => {
                let results = results_of(&history, &t.group);
                let deals_out = out["deals"].as_array().cloned().unwrap_or_default();
                let mut running = vec![0i64; 3];
                for (i, d) in deals_out.iter().enumerate() {
                    let n = i + 1;
                    if d["complete"] == Value::Bool(false) {
                        continue; // the deal in progress when the bots stopped
                    }
                    for (r, x) in running
                        .iter_mut()
                        .zip(d["deltas"].as_array().into_iter().flatten())
                    {
                        *r += x.as_i64().unwrap_or(0);
                    }
                    let header = format!("Result of deal {n}\n");
                    let posts: Vec<&String> = results.iter().filter(|m| m.starts_with(&header)).collect();
                    if posts.is_empty() {
                        // When it ended (the next deal's start) and who moved its last action.
                        let end = deals.get(i + 1).map(|next| {
                            let last = by_seq.get(&(next.first_seq - 1));
                            format!(
                                "ended at +{} ms by {:?}",
                                next.at_ms - start_ms,
                                last.and_then(|a| a.process.clone())
                            )
                        });
                        results_lost.push(format!("table {id} deal {n} ({end:?})"));
                    }
                    if posts.len() > 1 {
                        // A process killed after posting and before remembering it posted.
                        let copies: Vec<(&String, i64)> = history
                            .iter()
                            .filter(|(c, _, text, _)| {
                                *c == t.group
                                    && (text.starts_with(&header) || text.contains(&format!("\n\n{header}")))
                            })
                            .map(|(_, m, _, at)| (m, *at))
                            .collect();
                        let when: Vec<String> = copies
                            .iter()
                            .map(|(m, at)| format!("msg {m} at +{} ms", at - start_ms))
                            .collect();
                        // The kill or database restart nearest to the first copy (before or
                        // after it): a sender killed between sending it and remembering that it
                        // did, or whose claim another process took for a dead one's while the
                        // database was away.
                        let first = copies.first().map(|(_, at)| *at);
                        let nearest = first.and_then(|f| {
                            changes
                                .iter()
                                .filter(|c| matches!(c.kind, ChangeKind::Kill | ChangeKind::PgRestart))
                                .min_by_key(|c| (c.from_ms - f).abs().min((c.to_ms - f).abs()))
                                .map(|c| (c.from_ms - f, c.describe(start_ms)))
                        });
                        results_twice.push(format!(
                            "table {id} deal {n}: {} posts ({when:?}), the nearest change {}",
                            posts.len(),
                            nearest.map_or("none".to_string(), |(ms, c)| format!(
                                "began {ms} ms after the first: {c}"
                            ))
                        ));
                    }
                    for m in posts {
                        totals_checked += 1;
                        let shown: Option<Vec<i64>> =
                            m.lines().find(|l| l.starts_with("Totals: ")).and_then(|line| {
                                line["Totals: ".len()..]
                                    .split(" · ")
                                    .map(|e| e.rsplit(' ').next()?.replace('−', "-").parse().ok())
                                    .collect()
                            });
                        if shown.as_ref() != Some(&running) {
                            replay_errors.push(format!(
                                "table {id} deal {n}: shown totals {shown:?}, replayed {running:?}"
                            ));
                        }
                    }
                }
                let replayed: Vec<i64> = out["totals"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default();
                if !deals_out.is_empty() && replayed != running {
                    replay_errors.push(format!(
                        "table {id}: totals {replayed:?} are not the sum of the deals {running:?}"
                    ));
                }
            }
        }

        // Privacy, deal by deal.
        let mut views = Vec::new();
        for (i, d) in deals.iter().enumerate() {
            let last_seq = deals.get(i + 1).map_or(i64::MAX, |n| n.first_seq - 1);
            let mine: Vec<_> = actions
                .iter()
                .filter(|a| a.seq >= d.first_seq && a.seq <= last_seq)
                .collect();
            let ended =
                deals.get(i + 1).is_some() || results_of(&history, &t.group).len() >= d.deal_no as usize;
            views.push(DealView {
                no: d.deal_no,
                hands: d.deal["hands"].as_array().unwrap().iter().map(cards_of).collect(),
                talon: cards_of(&d.deal["talon"]),
                played: mine
                    .iter()
                    .filter_map(|a| Some((a.payload["play"].as_str()?.parse().ok()?, a.at_ms)))
                    .collect(),
                end_ms: ended.then(|| mine.last().map_or(d.at_ms, |a| a.at_ms)),
            });
        }
        for v in &views {
            let hidden_at = |t_ms: i64| -> HashSet<Card> {
                let played: HashSet<Card> = v
                    .played
                    .iter()
                    .filter(|(_, at)| *at <= t_ms)
                    .map(|(c, _)| *c)
                    .collect();
                v.hands
                    .iter()
                    .flatten()
                    .chain(&v.talon)
                    .filter(|c| !played.contains(c))
                    .copied()
                    .collect()
            };
            let live = |t_ms: i64| v.end_ms.is_none_or(|e| t_ms < e);
            // The public table message of the deal.
            let key = format!("t{id}.d{}", v.no);
            if let Some(msg) = store.message_ref(bot.platform, &key, &t.group).await.unwrap() {
                for (chat, m, text, at) in &history {
                    if *chat == t.group && *m == msg && live(*at) {
                        table_texts_checked += 1;
                        let hidden = hidden_at(*at);
                        for c in cards_in(text, &labels) {
                            if hidden.contains(&c) {
                                leaks.push(format!(
                                    "table {id} deal {}: the group saw {c} while hidden:\n{text}",
                                    v.no
                                ));
                            }
                        }
                    }
                }
            }
            // Hands: only to their player, and never another seat's unplayed card.
            for (seat, _) in v.hands.iter().enumerate() {
                let key = format!("t{id}.d{}.s{seat}", v.no);
                for s in &seats {
                    let Some(u) = user_of(s) else { continue };
                    let has = store.message_ref(bot.platform, &key, u).await.unwrap();
                    if let Some(msg) = has {
                        if i64::from(s.seat) != seat as i64 {
                            leaks.push(format!(
                                "table {id}: the hand of seat {seat} went to seat {}",
                                s.seat
                            ));
                            continue;
                        }
                        let dm = (bot.dm_chat)(u);
                        let others: HashSet<Card> = v
                            .hands
                            .iter()
                            .enumerate()
                            .filter(|(o, _)| *o != seat)
                            .flat_map(|(_, h)| h.iter().copied())
                            .collect();
                        for (chat, m, text, at) in &history {
                            if *chat == dm && *m == msg && live(*at) {
                                hand_texts_checked += 1;
                                let hidden = hidden_at(*at);
                                for c in cards_in(text, &labels) {
                                    if others.contains(&c) && hidden.contains(&c) {
                                        leaks.push(format!(
                                            "table {id} deal {}: seat {seat} saw {c} of another seat",
                                            v.no
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // A hand message never goes back to an older state of its table once a newer one
        // was shown in it (an older version landing after a newer one: the person is left
        // with buttons that are out of date). Told by the number the buttons carry.
        for u in &t.users {
            let dm = (bot.dm_chat)(u);
            let mut newest: HashMap<&str, i64> = HashMap::new();
            let seq_of = |text: &str| {
                text.split('⌁')
                    .skip(1)
                    .filter_map(|rest| Token::decode(rest.split_whitespace().next()?).ok())
                    .find(|tok| tok.table == id)
                    .map(|tok| tok.seq)
            };
            for (i, (chat, m, text, at)) in history.iter().enumerate() {
                if *chat != dm {
                    continue;
                }
                let Some(seq) = seq_of(text) else {
                    continue;
                };
                let seen = newest.entry(m.as_str()).or_insert(seq);
                if seq < *seen {
                    // How long it showed the older state: until the message next showed one
                    // at least as new, or one without this table's buttons (the turn moved on).
                    let fixed = history[i + 1..]
                        .iter()
                        .find(|(c, n, t, _)| c == chat && n == m && seq_of(t).is_none_or(|s| s >= *seen))
                        .map(|(_, _, _, later)| later - at);
                    stale_hands.push(format!(
                        "table {id}: the hand message {m} of {u} showed action {seq}'s buttons at +{} ms, after action {}'s; {}",
                        at - start_ms,
                        *seen,
                        match fixed {
                            Some(ms) => format!("newer again {ms} ms later"),
                            None => "left so".to_string(),
                        }
                    ));
                }
                *seen = (*seen).max(seq);
            }
        }

        // How long the tables of a killed process waited for their next move.
        for &(pid, at) in &kills {
            let prefix = format!("p{pid}-");
            let before = actions.iter().rev().find(|a| a.at_ms <= at);
            let held = before.is_some_and(|a| a.process.as_deref().is_some_and(|p| p.starts_with(&prefix)));
            if held {
                if let Some(next) = actions.iter().find(|a| a.at_ms > at) {
                    waits.push(next.at_ms - at);
                    if next.at_ms - at > 5_000 {
                        slow_takeovers.push(format!(
                            "table {id}: killed at +{} ms, last action {} at +{} ms by {:?}: {}, next {} by {:?} {} ms later: {}",
                            at - start_ms,
                            before.map_or(0, |a| a.seq),
                            before.map_or(0, |a| a.at_ms - start_ms),
                            before.and_then(|a| a.process.as_deref()),
                            before.map_or(Value::Null, |a| a.payload.clone()),
                            next.seq,
                            next.process.as_deref(),
                            next.at_ms - at,
                            next.payload,
                        ));
                        if std::env::var("STIKIS_CHAOS_TRACE").is_ok() {
                            for (chat, m, text, when) in &history {
                                if (t.users.iter().any(|u| (bot.dm_chat)(u) == *chat) || *chat == t.group)
                                    && *when > before.map_or(at, |a| a.at_ms) - 1_000
                                    && *when <= next.at_ms
                                {
                                    println!(
                                        "  +{} chat {chat} msg {m}: {}",
                                        when - start_ms,
                                        text.replace('\n', " | ")
                                    );
                                }
                            }
                            // The presses made from 8 s (a person's wait for an answer)
                            // before the kill to the next move: when, where each was
                            // posted, and when and how it was answered.
                            let from = at - 8_000;
                            for p in mine
                                .iter()
                                .filter(|p| p.sent_ms >= from && p.sent_ms <= next.at_ms)
                            {
                                println!(
                                    "  press {} by {} at +{} ms {:?}, posted to {:?}, answered {:?}: {:?}",
                                    p.id,
                                    p.user,
                                    p.sent_ms - start_ms,
                                    p.token,
                                    deliveries.get(&p.id).map(|d| (d.process, d.posted_ms - start_ms)),
                                    p.answered_ms.map(|a| a - start_ms),
                                    answers.get(&p.id)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    waits.sort_unstable();
    if !slow_takeovers.is_empty() {
        println!("chaos: tables that waited over 5 s after a kill (the goal): {slow_takeovers:#?}");
    }
    let f = fleet.lock().unwrap();
    let throughput = in_chaos as f64 / chaos_secs;
    // For a benchmark's CPU sampler: the window the throughput counts.
    println!("chaos: played from unix ms {start_ms} for {chaos_secs:.2} s: {in_chaos} moves");
    if let Some(c) = cpu {
        let per = |s: f64| s * 1000.0 / in_chaos.max(1) as f64;
        println!(
            "chaos: CPU during the chaos: bots {:.1} s, PostgreSQL {:.1} s, the harness {:.1} s; \
             per move: bots {:.3} ms, PostgreSQL {:.3} ms, both {:.3} ms (the harness {:.3} ms)",
            c.bots,
            c.postgres,
            c.harness,
            per(c.bots),
            per(c.postgres),
            per(c.bots + c.postgres),
            per(c.harness)
        );
    }
    if !calls.is_empty() {
        let per: Vec<String> = calls
            .iter()
            .map(|(m, n)| format!("{m} {:.3}", *n as f64 / actions_total.max(1) as f64))
            .collect();
        println!(
            "chaos: the platform's calls per action, over the whole run: {}",
            per.join(", ")
        );
    }
    // Presses made while PostgreSQL was away: each answered within `OUTAGE_ANSWER_MS`,
    // unless the process that took it was killed before that (counted: its person presses
    // again, as after any kill).
    let mut slow_in_outage = Vec::new();
    let mut outage_lost = 0;
    if let Some((from_ms, to_ms)) = outage_window {
        let during: Vec<&Press> = presses
            .iter()
            .filter(|p| p.sent_ms >= from_ms && p.sent_ms < to_ms)
            .collect();
        let waits: Vec<i64> = during
            .iter()
            .filter_map(|p| p.answered_ms.map(|a| a - p.sent_ms))
            .collect();
        for p in &during {
            let killed = deliveries.get(&p.id).is_some_and(|d| {
                changes.iter().any(|c| {
                    c.process == Some(d.process)
                        && matches!(c.kind, ChangeKind::Kill | ChangeKind::Exit)
                        && c.to_ms >= d.posted_ms
                        && c.from_ms
                            <= p.answered_ms
                                .unwrap_or(i64::MAX)
                                .min(p.sent_ms + OUTAGE_ANSWER_MS)
                })
            });
            match p.answered_ms {
                Some(a) if a - p.sent_ms <= OUTAGE_ANSWER_MS => {}
                _ if killed => outage_lost += 1,
                Some(a) => slow_in_outage.push(format!(
                    "press {} of {} during the outage answered after {} ms",
                    p.id,
                    p.user,
                    a - p.sent_ms
                )),
                None => slow_in_outage.push(format!(
                    "press {} of {} during the outage never answered",
                    p.id, p.user
                )),
            }
        }
        println!(
            "chaos: outage of {} s: {} presses made during it, {} answered, the slowest after {} ms; \
             {outage_lost} lost with the process that took them; {} not answered within {OUTAGE_ANSWER_MS} ms",
            (to_ms - from_ms) / 1000,
            during.len(),
            waits.len(),
            waits.iter().max().copied().unwrap_or(0),
            slow_in_outage.len()
        );
    }
    // Commands given while PostgreSQL was away: each answered within `OUTAGE_ANSWER_MS`
    // ("try again"), and none carried out later (no table in its chat by the end).
    let mut commands_wrong = Vec::new();
    for &(n, waited) in &outage_commands {
        match waited {
            Some(w) if w <= OUTAGE_ANSWER_MS => {}
            Some(w) => commands_wrong.push(format!("command {n} during the outage answered after {w} ms")),
            None => commands_wrong.push(format!("command {n} during the outage never answered")),
        }
        if opened_later.contains(&n) {
            commands_wrong.push(format!("command {n} during the outage opened a table after all"));
        }
    }
    if !outage_commands.is_empty() {
        println!(
            "chaos: commands during the outage: {} given, {} answered, the slowest after {} ms; {} opened a table later",
            outage_commands.len(),
            outage_commands.iter().filter(|(_, w)| w.is_some()).count(),
            outage_commands.iter().filter_map(|(_, w)| *w).max().unwrap_or(0),
            opened_later.len()
        );
    }
    // How much of the run the changes' windows excused from the owner check.
    let run_end_ms = changes.iter().map(|c| c.to_ms).max().unwrap_or(start_ms);
    let excused_ms = covered(&windows, start_ms, run_end_ms);
    println!(
        "chaos: {} kills, {} restarts ({} by the harness after an exit), {pg_restarts} PostgreSQL restarts; \
         {} presses, {acknowledged} acknowledged ({acknowledged_moves} of them moves), {} lost, {} applied twice, {} moves without a press; \
         {} deferred presses acknowledged: {deferred_logged} in the log ({} of them refused all the same), \
         {deferred_refused} refused after, {deferred_lost} lost with their process, {} none of these \
         ({deferred_unanswered} more deferred but never acknowledged); \
         moved by two owners: {} ({} changes of mover within {TWO_OWNERS_MS} ms during a change of the live set {owners_changed:?}, \
         whose windows cover {:.0} of {:.0} s; {owner_examined} consecutive actions examined outside them); \
         {} leaked cards (of {table_texts_checked} table and {hand_texts_checked} hand texts read), {} hands gone back to older buttons ({} left so), {} replay problems ({totals_checked} results' totals compared), {} deal results never posted, {} posted twice; {timed_out} moves by the turn timer \
         ({} of turns never shown); {} posts to a process that failed (redelivered, or unanswered); {actions_total} actions, \
         {throughput:.0} moves/s during the chaos; takeover after a kill: p50 {} ms, p99 {} ms, max {} ms \
         over {} tables",
        f.kills.len(),
        f.restarts,
        f.exits,
        presses.len(),
        lost.len(),
        doubled.len(),
        ghosts.len(),
        deferred_logged + deferred_refused + deferred_lost + deferred_unexplained.len(),
        deferred_logged_refused.len(),
        deferred_unexplained.len(),
        two_owners.len(),
        owners_changed.values().sum::<usize>(),
        excused_ms as f64 / 1000.0,
        (run_end_ms - start_ms) as f64 / 1000.0,
        leaks.len(),
        stale_hands.len(),
        stale_hands.iter().filter(|h| h.ends_with("left so")).count(),
        replay_errors.len(),
        results_lost.len(),
        results_twice.len(),
        unseen_turns.len(),
        redelivered,
        percentile(&waits, 0.5),
        percentile(&waits, 0.99),
        waits.last().copied().unwrap_or(0),
        waits.len(),
    );
    for (what, times) in [
        ("committed where posted", &timed_here),
        ("handed to the owner", &timed_handed),
    ] {
        let mut commit: Vec<i64> = times.iter().map(|t| t.0).collect();
        let mut answer: Vec<i64> = times.iter().map(|t| t.1).collect();
        commit.sort_unstable();
        answer.sort_unstable();
        println!(
            "chaos: presses {what}: {}; to the commit p50 {} ms, p99 {} ms; to the answer p50 {} ms, p99 {} ms",
            times.len(),
            percentile(&commit, 0.5),
            percentile(&commit, 0.99),
            percentile(&answer, 0.5),
            percentile(&answer, 0.99),
        );
    }
    let warnings = warnings_in(&f.dir);
    drop(f);
    if !warnings.is_empty() {
        println!("chaos: the bots' warnings (count, message):");
        for (n, w) in &warnings {
            println!("  {n:>5} {w}");
        }
    }
    if !results_twice.is_empty() {
        println!("chaos: deal results posted twice: {results_twice:?}");
    }
    if !stale_hands.is_empty() {
        println!("chaos: hands that went back to older buttons: {stale_hands:#?}");
    }
    if !unseen_turns.is_empty() {
        println!("chaos: turns never shown to their player: {unseen_turns:?}");
    }
    println!(
        "chaos: presses told \"try again\": {try_again_checked} looked for in the log, {} found there \
         committed, {try_again_shared} found there with another press of the button in flight; \
         {unsure_answers} told their move's outcome was not known yet; deferred presses refused in a \
         follow-up: {deferred_refused} looked for, {} found committed",
        try_again_committed.len(),
        deferred_logged_refused.len(),
    );
    if !deferred_lost_list.is_empty() {
        println!(
            "chaos: deferred presses lost with their process, answered by none: {deferred_lost_list:#?}"
        );
    }
    if !deferred_elsewhere.is_empty() {
        println!("chaos: deferred presses the fake posted to another process: {deferred_elsewhere:#?}");
    }
    if !two_owners.is_empty() || std::env::var("STIKIS_CHAOS_TRACE").is_ok() {
        println!("chaos: the live set's changes:");
        for c in &changes {
            println!("  {}", c.describe(start_ms));
        }
    }
    // The first few tables moved by two owners (each with its processes and times).
    let mut owner_problems: Vec<String> = two_owners.iter().take(8).cloned().collect();
    if two_owners.len() > 8 {
        owner_problems.push(format!("… {} more moved by two owners", two_owners.len() - 8));
    }
    let problems: Vec<&String> = lost
        .iter()
        .chain(&doubled)
        .chain(&ghosts)
        .chain(&deferred_unexplained)
        .chain(&try_again_committed)
        .chain(&deferred_logged_refused)
        .chain(&owner_problems)
        .chain(&leaks)
        .chain(&replay_errors)
        .chain(&results_lost)
        .chain(slow_in_outage.iter().take(8))
        .chain(&commands_wrong)
        .collect();
    assert!(problems.is_empty(), "{failure_note}\n{problems:#?}");
    assert!(acknowledged > 0, "nothing was played; {failure_note}");
    assert!(
        acknowledged_moves > 0,
        "no acknowledged move was looked for in the log; {failure_note}"
    );
    // The checks above saw something: a privacy check that read no table or hand text, or a
    // replay that compared no result, would pass whatever the bots showed.
    assert!(
        table_texts_checked > 0 && hand_texts_checked > 0,
        "the privacy check read {table_texts_checked} table and {hand_texts_checked} hand texts; {failure_note}"
    );
    assert!(
        totals_checked > 0,
        "no result's totals were compared with the record; {failure_note}"
    );
    if cfg.kills {
        assert!(!kills.is_empty(), "no process was killed; {failure_note}");
    }
    // A run with starved processes on Discord had presses deferred, and checked them.
    let deferred_checked = deferred_logged + deferred_refused + deferred_lost + deferred_unexplained.len();
    println!("chaos: {starved} processes starved for a moment; {deferred_checked} deferred presses checked");
    if cfg.starve && starved > 0 && B::PLATFORM == Platform::Discord {
        assert!(
            deferred_checked > 0,
            "processes were starved, yet no deferred press was checked; {failure_note}"
        );
    }
    // The one-owner check saw moves that nothing excused (the calm gives it the time).
    if cfg.kills && cfg.calm_secs > 0 {
        assert!(
            owner_examined > 0,
            "the one-owner check examined no actions outside the changes' windows; {failure_note}"
        );
    }
    // A run with an outage told presses "try again": the check of them saw some. On
    // Telegram, whose harness gives commands during it, it checked some.
    if outage_window.is_some() && B::PLATFORM == Platform::Telegram {
        assert!(
            !outage_commands.is_empty(),
            "an outage ran, yet no command was given during it; {failure_note}"
        );
    }
    if outage_window.is_some() {
        assert!(
            try_again_checked + deferred_refused + deferred_logged_refused.len() > 0,
            "an outage ran, yet no press told \"try again\" was looked for in the log; {failure_note}"
        );
    }
    // Passed: the logs go (and the run's schema, in `run_with`; a failed run keeps both).
    drop(keep);
}

/// Drops a passed run's schema; a failure to is only said (the run passed).
async fn drop_schema(url: &str, schema: &str) {
    use sqlx::Connection;
    let dropped = async {
        let mut conn = sqlx::PgConnection::connect(url).await?;
        sqlx::query(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .execute(&mut conn)
            .await?;
        conn.close().await
    };
    if let Err(e) = dropped.await {
        println!("chaos: the schema {schema} was not dropped: {e}");
    }
}

/// The presses the bots said they deferred (`press deferred … interaction=ID`): answered
/// before their move was taken, because it took longer than the platform waits. With the
/// index of the process whose log says so (`bot{i}.log`).
fn deferred_in(dir: &std::path::Path) -> HashMap<String, usize> {
    let mut ids = HashMap::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(i) = name
            .strip_prefix("bot")
            .and_then(|n| n.strip_suffix(".log"))
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines().filter(|l| l.contains("press deferred")) {
            let plain = strip_colours(line);
            if let Some(id) = plain.split(' ').find_map(|w| w.strip_prefix("interaction=")) {
                ids.insert(id.trim_matches('"').to_string(), i);
            }
        }
    }
    ids
}

/// The bots' log lines that name interaction `id` (`interaction=ID`), each with its
/// process: what became of a deferred press that the checks cannot explain.
fn log_lines_about(dir: &std::path::Path, id: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !(name.starts_with("bot") && name.ends_with(".log")) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines().map(strip_colours) {
            let named = line
                .split(' ')
                .filter_map(|w| w.strip_prefix("interaction="))
                .any(|w| w.trim_matches('"') == id);
            if named {
                lines.push(format!("{name}: {line}"));
            }
        }
    }
    lines
}

/// How much of `from..to` (ms) the `windows` cover.
fn covered(windows: &[(i64, i64)], from: i64, to: i64) -> i64 {
    let mut w: Vec<(i64, i64)> = windows
        .iter()
        .map(|&(a, b)| (a.max(from), b.min(to)))
        .filter(|(a, b)| a < b)
        .collect();
    w.sort_unstable();
    let (mut total, mut reach) = (0, from);
    for (a, b) in w {
        if b > reach {
            total += b - a.max(reach);
            reach = b;
        }
    }
    total
}

/// Whether action `r` is the move of a press `kind:arg` (`p` a card played, `b` a bid) by
/// `seat`.
fn is_move(r: &ActionRow, seat: Option<i64>, kind: &str, arg: &str) -> bool {
    r.payload["seat"].as_i64() == seat
        && match kind {
            "p" => {
                r.payload["play"].as_str().and_then(|c| c.parse::<Card>().ok()) == arg.parse::<Card>().ok()
            }
            _ => r.payload["bid"].as_str() == Some(arg),
        }
}

/// The distinct warning and error lines of the bots' logs (their messages, without time and
/// fields), with how often each came.
fn warnings_in(dir: &std::path::Path) -> Vec<(usize, String)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines() {
            let plain: String = strip_colours(line);
            let Some(at) = plain.find(" WARN ").or_else(|| plain.find(" ERROR ")) else {
                continue;
            };
            // "LEVEL target: message fields…": the message without its fields.
            let rest = &plain[at..];
            let message = rest.split_once(": ").map_or(rest, |(_, m)| m);
            let words: Vec<&str> = message
                .split(' ')
                .take_while(|w| {
                    !w.split_once('=').is_some_and(|(k, _)| {
                        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    })
                })
                .collect();
            *seen
                .entry(words.join(" ").chars().take(160).collect())
                .or_default() += 1;
        }
    }
    let mut v: Vec<(usize, String)> = seen.into_iter().map(|(m, n)| (n, m)).collect();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

fn strip_colours(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn user_of(s: &stikis_host::store::SeatRow) -> Option<&str> {
    match &s.occupant {
        stikis_host::store::Occupant::Human { user_id } => Some(user_id),
        stikis_host::store::Occupant::Computer { .. } => None,
    }
}

/// Keeps the temporary directory (the bots' logs) when the run panics, or always when
/// STIKIS_CHAOS_KEEP is set (its path is printed).
struct Keep(Option<tempfile::TempDir>);

fn scopeguard(dir: tempfile::TempDir) -> Keep {
    Keep(Some(dir))
}

impl Drop for Keep {
    fn drop(&mut self) {
        if std::thread::panicking() || std::env::var("STIKIS_CHAOS_KEEP").is_ok() {
            if let Some(d) = self.0.take() {
                println!("chaos: the bots' logs are kept in {}", d.keep().display());
            }
        }
    }
}

pub fn seed() -> u64 {
    env_or("STIKIS_CHAOS_SEED", rand::random::<u64>() % 1_000_000)
}

/// One run at a time: the runs share this machine's cores (and PostgreSQL is restarted).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap()
}

/// A run of the bot `make` gives for the run's number of processes (made in the run's
/// runtime: its fake server starts there).
fn run_with<B: Bot>(make: MakeBot<B>, cfg: Config) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let db = cfg.db.clone();
    runtime().block_on(async {
        let bot = make(cfg.procs).await;
        run(bot, cfg).await;
        // It passed (a failed run panics and keeps its schema).
        if let Db::Postgres(url, schema) = &db {
            drop_schema(url, schema).await;
        }
    });
}

/// What starts a bot's fake server for a number of processes, for `short_on_sqlite`,
/// `short_on_postgres` and `long`.
pub type MakeBot<B> = fn(usize) -> std::pin::Pin<Box<dyn Future<Output = B>>>;

/// The database of a run on PostgreSQL, in the run's own schema (None without
/// STIKIS_TEST_POSTGRES_URL; a failure then when STIKIS_REQUIRE_POSTGRES is set, as CI sets
/// it, so that a run meant to cover PostgreSQL cannot pass by skipping it).
fn postgres(seed: u64) -> Option<Db> {
    let Some(url) = std::env::var("STIKIS_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        assert!(
            std::env::var_os("STIKIS_REQUIRE_POSTGRES").is_none(),
            "STIKIS_REQUIRE_POSTGRES is set, but STIKIS_TEST_POSTGRES_URL is not (eval \"$(bash .ci/postgres.sh)\")"
        );
        return None;
    };
    Some(Db::Postgres(url, format!("chaos_{seed}_{}", std::process::id())))
}

/// The short run: one process on SQLite, killed and started again.
pub fn short_on_sqlite<B: Bot>(bot: MakeBot<B>) {
    let dir = tempfile::tempdir().unwrap();
    run_with(
        bot,
        Config {
            seed: seed(),
            secs: 20,
            tables: 8,
            procs: 1,
            kills: true,
            db: Db::Sqlite(dir.path().join("chaos.db")),
            pg_restart: None,
            outage: None,
            calm_secs: CALM_SECS,
            hold_one_down: false,
            starve: false,
        },
    );
}

/// The short run: three processes on PostgreSQL (skipped without STIKIS_TEST_POSTGRES_URL,
/// failed without it when STIKIS_REQUIRE_POSTGRES is set), PostgreSQL restarted once when
/// STIKIS_CHAOS_PG_RESTART says how.
pub fn short_on_postgres<B: Bot>(bot: MakeBot<B>) {
    let seed = seed();
    let Some(db) = postgres(seed) else {
        eprintln!("STIKIS_TEST_POSTGRES_URL is not set: skipping the PostgreSQL chaos run");
        return;
    };
    run_with(
        bot,
        Config {
            seed,
            secs: 30,
            tables: 12,
            procs: 3,
            kills: true,
            db,
            pg_restart: std::env::var("STIKIS_CHAOS_PG_RESTART").ok(),
            outage: None,
            calm_secs: CALM_SECS,
            hold_one_down: false,
            starve: false,
        },
    );
}

/// The long run, by hand, set by STIKIS_CHAOS_SECS (default 300), STIKIS_CHAOS_TABLES (40),
/// STIKIS_CHAOS_PROCS (4), STIKIS_CHAOS_SEED (random), STIKIS_CHAOS_KILLS (0 for none: a
/// throughput run), STIKIS_CHAOS_KILL_MS (2000: each pause between kills is between half and
/// twice it; lower for a live set that keeps changing), STIKIS_CHAOS_CALM_SECS (30: after
/// the chaos, that long with one process kept down, then as long with all up, no process
/// killed or started: the one-owner check's time) and STIKIS_CHAOS_PG_RESTART.
pub fn long<B: Bot>(bot: MakeBot<B>) {
    let seed = seed();
    let procs = env_or("STIKIS_CHAOS_PROCS", 4);
    let dir = tempfile::tempdir().unwrap();
    let db = postgres(seed).unwrap_or_else(|| {
        assert_eq!(
            procs, 1,
            "several processes need PostgreSQL (STIKIS_TEST_POSTGRES_URL)"
        );
        Db::Sqlite(dir.path().join("chaos.db"))
    });
    let outage = Outage::from_env();
    run_with(
        bot,
        Config {
            seed,
            secs: env_or("STIKIS_CHAOS_SECS", 300),
            tables: env_or("STIKIS_CHAOS_TABLES", 40),
            procs,
            kills: env_or("STIKIS_CHAOS_KILLS", 1) != 0,
            db,
            // An outage takes the restart's place.
            pg_restart: std::env::var("STIKIS_CHAOS_PG_RESTART")
                .ok()
                .filter(|_| outage.is_none()),
            outage,
            calm_secs: env_or("STIKIS_CHAOS_CALM_SECS", 30),
            hold_one_down: true,
            starve: true,
        },
    );
}

/// CPU time of the bot processes (children of this test process), of PostgreSQL's processes
/// (named `postgres`) and of this harness, read from Linux's `/proc` a few times a second
/// while the chaos runs, so that a throughput run says its CPU per committed move without a
/// profiler beside it. The harness does the same work per move whatever the number of bot
/// processes, so its own CPU per move tells how much the processes' sharing of the cores
/// alone costs. None where there is no `/proc`.
struct CpuSampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<CpuSpent>,
}

/// CPU seconds spent during the sampled window.
#[derive(Default, Debug, Clone, Copy)]
struct CpuSpent {
    bots: f64,
    postgres: f64,
    harness: f64,
}

/// Whose CPU a process's is.
#[derive(Clone, Copy, PartialEq)]
enum CpuOf {
    Bot,
    Postgres,
    Harness,
}

/// (utime + stime in clock ticks, whose) of every process the sampler counts.
fn cpu_ticks() -> HashMap<u32, (u64, CpuOf)> {
    let me = std::process::id();
    let mut out = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid … utime stime …": comm may hold spaces, so split after it.
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let comm = head.split_once(" (").map_or("", |(_, c)| c);
        let f: Vec<&str> = rest.split(' ').collect();
        let (Some(ppid), Some(ut), Some(st)) = (f.get(1), f.get(11), f.get(12)) else {
            continue;
        };
        let of = if pid == me {
            CpuOf::Harness
        } else if ppid.parse::<u32>().ok() == Some(me) && comm.starts_with("stikis") {
            CpuOf::Bot
        } else if comm == "postgres" {
            CpuOf::Postgres
        } else {
            continue;
        };
        if let (Ok(ut), Ok(st)) = (ut.parse::<u64>(), st.parse::<u64>()) {
            out.insert(pid, (ut + st, of));
        }
    }
    out
}

impl CpuSampler {
    fn start() -> Option<CpuSampler> {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return None;
        }
        let hz: f64 = Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0);
        let stop = Arc::new(AtomicBool::new(false));
        let thread = std::thread::spawn({
            let stop = Arc::clone(&stop);
            move || {
                // Each process's ticks when first seen (0 for one born after the first look,
                // which spent all its time in the window) and when last seen.
                let first = cpu_ticks();
                let mut seen: HashMap<u32, (u64, u64, CpuOf)> =
                    first.iter().map(|(&p, &(t, of))| (p, (t, t, of))).collect();
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    for (pid, (t, of)) in cpu_ticks() {
                        seen.entry(pid).or_insert((0, t, of)).1 = t;
                    }
                }
                let mut spent = CpuSpent::default();
                for (from, to, of) in seen.into_values() {
                    let s = to.saturating_sub(from) as f64 / hz;
                    *match of {
                        CpuOf::Bot => &mut spent.bots,
                        CpuOf::Postgres => &mut spent.postgres,
                        CpuOf::Harness => &mut spent.harness,
                    } += s;
                }
                spent
            }
        });
        Some(CpuSampler { stop, thread })
    }

    fn finish(self) -> CpuSpent {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}
