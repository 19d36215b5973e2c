//! `stikis play <game>`: the host with a terminal adapter, for every game the host runs (Zole,
//! the Belote family, Polt to Tzar). You sit at seat 1 against computer players. On a terminal
//! `tui.rs` draws one screen; otherwise (pipes, tests, `--plain`) the table message, your hand
//! and the results print as lines here, and your buttons are numbered choices.
//! The table lives in a SQLite file (or `DATABASE_URL`), so quitting and starting again
//! resumes the same game. Each game has its own terminal chat, so a game of one kind does
//! not get in the way of another.

use std::io::Write;

use serde_json::{json, Value};
use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, Platform, ScoreSheetRow, SheetTotal, Store, TableStatus};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, User};
use tokio::io::{AsyncBufReadExt, BufReader};

/// `stikis play`'s arguments.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Play Zole, belote or Polt to Tzar in this terminal against computer players",
    long_about = "Plays in this terminal against computer players, through the same host the chat \
bots use: Zole (3 players), Bazar belote (default), French classic, head-to-head or Coinche, or \
Polt to Tzar (5 to 7 players). On a terminal one screen shows the table, the score sheet, your \
hand and the messages (PgUp and PgDn scroll them); pick a button with the arrow keys and Enter or \
type its number; after a deal's last trick, Enter shows the next deal. `r` saves the game record \
(or the last table's, once it is closed) to a file beside the SQLite database file (the current \
directory for PostgreSQL) and says where, `s` stops the table (its totals stay on the score sheet), `c` closes \
the score sheet (settling open pules; after a stop), `n` opens a new table (after a stop), `q` \
quits (the game is kept and resumes next time). Without a terminal (pipes, scripts) or with \
--plain it prints lines and reads a button's number per line. A belote game ends at its target, \
a Polt session after its hands. The database is DATABASE_URL if \
set, else the SQLite file given by --db (created on first run).",
    after_help = "Examples:\n  stikis play zole --preset rondo\n  stikis play belote coinche --level strong\n  stikis play polt --players 6 --hands 5"
)]
pub struct PlayArgs {
    /// The game: zole, belote or polt.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(families()))]
    game: String,
    /// Belote only: bazar (default), classic, h2h or coinche.
    variant: Option<String>,
    /// Zole's rules preset: lv (default), lv-galdins, rondo, catsatcards, zolite.
    #[arg(long)]
    preset: Option<String>,
    /// Belote: the score that ends the game.
    #[arg(long)]
    target: Option<u32>,
    /// Polt to Tzar: players at the table, 5 to 7 (default 5).
    #[arg(long)]
    players: Option<u32>,
    /// Polt to Tzar: hands in the session (default 10).
    #[arg(long)]
    hands: Option<u32>,
    /// The computer players' level: random, basic or strong.
    #[arg(long, default_value = "basic")]
    level: String,
    /// The SQLite file the game is kept in (DATABASE_URL overrides it).
    #[arg(long, default_value = "stikis.db")]
    db: String,
    /// Print lines instead of drawing the screen (chosen by itself when input or output is
    /// not a terminal).
    #[arg(long)]
    plain: bool,
}

#[derive(Debug)]
pub(crate) struct Opts {
    /// The record's game name.
    pub(crate) game: String,
    seats: usize,
    rules: Value,
    level: Level,
    db: String,
}

/// The games `stikis play` takes, one word per family (the registry's order).
fn families() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for g in stikis_core::games::GAMES {
        if !all.contains(&g.family) {
            all.push(g.family);
        }
    }
    all
}

/// "a, b and c".
fn and_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

pub(crate) fn parse(a: &PlayArgs) -> Result<Opts, String> {
    let not_of = |what: &str, game: &str| format!("{what} is not an option of {game}");
    let games = stikis_core::games::GAMES;
    let variants: Vec<_> = games.iter().filter(|g| g.family == a.game).collect();
    let chosen = match &a.variant {
        Some(_) if variants.iter().all(|g| g.variant.is_none()) => {
            // Name a game that has variants, and them.
            let family = games
                .iter()
                .find(|g| g.variant.is_some())
                .map_or("", |g| g.family);
            let names: Vec<&str> = games
                .iter()
                .filter(|g| g.family == family)
                .filter_map(|g| g.variant)
                .collect();
            return Err(format!(
                "{} has no variants; `{family}` has {}",
                a.game,
                and_list(&names)
            ));
        }
        Some(v) => variants
            .iter()
            .find(|g| g.variant == Some(v.as_str()))
            .ok_or_else(|| {
                let names: Vec<&str> = variants.iter().filter_map(|g| g.variant).collect();
                format!("unknown {} {v:?} ({})", a.game, names.join(", "))
            })?,
        None => variants
            .first()
            .ok_or_else(|| format!("unknown game {}", a.game))?,
    };
    let (game, seats, preset) = (
        chosen.id.to_string(),
        chosen.default_seats,
        chosen.default_preset(),
    );
    let mut o = Opts {
        game,
        seats,
        rules: json!({ "preset": a.preset.as_deref().unwrap_or(preset) }),
        level: a.level.parse()?,
        db: a.db.clone(),
    };
    if a.preset.is_some() && chosen.presets.len() < 2 {
        return Err(not_of("--preset", &a.game));
    }
    if let Some(t) = a.target {
        if a.game != "belote" {
            return Err(not_of("--target", &a.game));
        }
        o.rules["target"] = t.into();
    }
    for (flag, v) in [("--hands", a.hands), ("--players", a.players)] {
        if v.is_some() && a.game != "polt" {
            return Err(not_of(flag, &a.game));
        }
    }
    if let Some(h) = a.hands {
        o.rules["hands"] = h.into();
    }
    if let Some(n) = a.players {
        o.seats = n as usize;
        if !chosen.seats_ok(o.seats) {
            let (min, max) = chosen.seats;
            return Err(format!("{} is for {min} to {max} players, not {n}", chosen.name));
        }
    }
    // A bare preset is written as its name, as the records write it.
    if o.rules.as_object().is_some_and(|m| m.len() == 1) {
        o.rules = o.rules["preset"].clone();
    }
    // Refuse rules the game does not know before any database file is made.
    stikis_host::games::new_game(&o.game, &o.rules, o.seats).map_err(|e| e.to_string())?;
    if let Ok(url) = std::env::var("DATABASE_URL") {
        o.db = url;
    }
    Ok(o)
}

/// The terminal's chat for a game: Zole keeps the chat it always had, so that a game
/// started by an earlier version resumes.
fn chat_of(game: &str) -> ChatRef {
    let id = if game == "zole" {
        "terminal".to_string()
    } else {
        format!("terminal-{game}")
    };
    ChatRef::new(Platform::Local, "terminal", id)
}

/// The SQLite file a database setting names: `--db PATH`, or a `sqlite:` URL in DATABASE_URL
/// (`sqlite://PATH?mode=rwc`, `sqlite:PATH`, as the store reads them). None for a database
/// server (PostgreSQL) and for an in-memory database.
fn sqlite_file(db: &str) -> Option<&std::path::Path> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        return None;
    }
    let path = match db
        .strip_prefix("sqlite://")
        .or_else(|| db.strip_prefix("sqlite:"))
    {
        Some(rest) => rest.split('?').next().unwrap_or_default(),
        None => db,
    };
    (!path.is_empty() && path != ":memory:").then(|| std::path::Path::new(path))
}

/// The directory records are saved in: the SQLite file's, whether it came from --db or from
/// DATABASE_URL, else (PostgreSQL, in memory) the current directory. Absolute, so that the
/// message names the very place.
fn record_dir(db: &str) -> std::path::PathBuf {
    let dir = sqlite_file(db)
        .and_then(std::path::Path::parent)
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    // `a/./b.db` and a bare `.` read better without the dot.
    dir.components().collect()
}

/// Where `r` and a finished game put the record: beside the database file (`record_dir`),
/// named by game and time.
fn record_path(opts: &Opts, name: &str) -> std::path::PathBuf {
    let dir = record_dir(&opts.db);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let stem = name.strip_suffix(".json").unwrap_or(name);
    dir.join(format!("{stem}-{stamp}.json"))
}

/// How the message of a record saved begins.
const SAVED: &str = "The game record is saved in ";

/// The message of a record saved (`save`) with `note` on what the record holds, if it was
/// saved.
fn with_note(saved: String, note: Option<String>) -> String {
    match note {
        Some(note) if saved.starts_with(SAVED) => format!("{saved} {note}"),
        _ => saved,
    }
}

/// Writes a record file beside the database: what it says about it.
fn save(opts: &Opts, name: &str, content: &str) -> String {
    let path = record_path(opts, name);
    match std::fs::write(&path, content) {
        Ok(()) => format!(
            "{SAVED}{}. `stikis replay {}` re-plays it and checks every revealed seed.",
            path.display(),
            path.display()
        ),
        Err(e) => format!("The record could not be saved in {}: {e}", path.display()),
    }
}

/// What a saved record's message adds when the record leaves out a deal that was dealt:
/// `kept` deals are in the file, `dealt` were dealt at the table, the last one `what` (in
/// progress, or cut short by the stop). None when every deal dealt is in the file.
pub(crate) fn left_out(kept: usize, dealt: usize, what: &str) -> Option<String> {
    (dealt > kept).then(|| {
        format!(
            "Deal {} ({what}) is not in it: a record holds finished deals only{}.",
            kept + 1,
            if kept == 0 { ", so this one holds none" } else { "" }
        )
    })
}

/// The number of deals in a record file's text (None if it is not a record).
fn deals_in(content: &str) -> Option<usize> {
    let record: Value = serde_json::from_str(content).ok()?;
    record["deals"].as_array().map(Vec::len)
}

/// What `r` says when no table is open and none was played since the program started.
pub(crate) const NO_RECORD: &str = "There is no record to save here: no table was played since you started this program (the last one's record could be saved with r before it was stopped). n starts a new table.";

/// Said when the program starts on a score sheet that no table goes on.
pub(crate) const SHEET_OPEN: &str = "No table is open, but the last one's score sheet is (its totals and open pules are on it): c closes it and settles the pules, n starts a new table that goes on from it.";

/// One thing an outbox shows in the terminal's chat.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shown {
    /// The table's public message (edited in place).
    Table(String),
    /// Your private message (your hand) and its numbered buttons: (label, token).
    Hand(String, Vec<(String, String)>),
    /// A new message in the chat, or the answer to what you did.
    Note(String),
    /// Where a record file was written (or why it could not be).
    Saved(String),
}

/// What the terminal shows of an outbox (only this game's chat). A record is written to a
/// file, not onto the screen: the note says where.
pub(crate) fn view(out: &Outbox, chat: &ChatRef, me: &str, opts: &Opts) -> Vec<Shown> {
    let mut shown = Vec::new();
    for o in &out.0 {
        match o {
            Out::Public { text, chat: c, .. } if c == chat => shown.push(Shown::Table(text.clone())),
            Out::Post { text, chat: c, .. } if c == chat => shown.push(Shown::Note(text.clone())),
            Out::Private {
                user,
                text,
                buttons: rows,
                chat: c,
                ..
            } if user == me && c == chat => {
                // The numbered choices: a card that cannot be played now is not one.
                let buttons = rows
                    .iter()
                    .flatten()
                    .filter(|b| !b.disabled)
                    .map(|b| (b.label.clone(), b.token.clone()))
                    .collect();
                shown.push(Shown::Hand(text.clone(), buttons));
            }
            Out::Reply { text } if text != "✓" => shown.push(Shown::Note(text.clone())),
            Out::File {
                content,
                chat: c,
                name,
            } if c == chat => {
                shown.push(Shown::Saved(save(opts, name, content)));
            }
            _ => {}
        }
    }
    shown
}

/// Line mode: prints what an outbox shows; keeps the numbered buttons of your hand.
fn show(out: &Outbox, chat: &ChatRef, me: &str, opts: &Opts, buttons: &mut Vec<(String, String)>) {
    print_shown(view(out, chat, me, opts), out.reply_text(), buttons);
}

/// Line mode: prints what is shown (`reply`: the text that answers what you did, in
/// brackets); keeps the numbered buttons of your hand.
fn print_shown(shown: Vec<Shown>, reply: Option<&str>, buttons: &mut Vec<(String, String)>) {
    for s in shown {
        match s {
            Shown::Table(text) => println!("\n{text}"),
            Shown::Note(text) if reply == Some(text.as_str()) => println!("({text})"),
            Shown::Note(text) => println!("\n» {text}"),
            Shown::Saved(text) => println!("\n{text}"),
            Shown::Hand(text, rows) => {
                println!("\n{text}");
                *buttons = rows;
                if !buttons.is_empty() {
                    let list: Vec<String> = buttons
                        .iter()
                        .enumerate()
                        .map(|(i, (label, _))| format!("[{}] {label}", i + 1))
                        .collect();
                    println!("{}", list.join("  "));
                }
            }
        }
    }
}

/// The keys that work now, for a bad key's answer.
fn valid_keys(buttons: &[(String, String)], running: bool) -> String {
    let numbers = match buttons.len() {
        0 => String::new(),
        1 => "1, or ".to_string(),
        n => format!("1-{n}, or "),
    };
    if running {
        format!("Type {numbers}r (save the record), s (stop the table), q (quit).")
    } else {
        "Type c (close the score sheet), n (new table), r (save the record) or q (quit).".into()
    }
}

pub fn run(args: &PlayArgs) -> Result<(), String> {
    let opts = parse(args)?;
    let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let session = rt.block_on(Session::open(opts, HostConfig::default()))?;
    use std::io::IsTerminal;
    if !args.plain && std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        crate::tui::run(&rt, &session, args)
    } else {
        rt.block_on(play(&session, args))
    }
}

/// How long the terminal waits for its database before it gives up and says so.
const CONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

pub(crate) const KEPT: &str = "Your game is kept: run the same command again to resume it.";

/// The terminal's seat at the host: you, in this game's terminal chat.
pub(crate) struct Session {
    pub host: std::sync::Arc<Host>,
    pub store: Store,
    pub chat: ChatRef,
    pub me: User,
    pub opts: Opts,
}

impl Session {
    /// Opens the game's database and a host on it, set up as `config` says (the terminal
    /// takes the default: seeds from the OS).
    pub(crate) async fn open(opts: Opts, config: HostConfig) -> Result<Session, String> {
        // Named without its password; a server is said before it is tried, and one that
        // does not answer is given up after CONNECT_WAIT rather than the pool's 30 s.
        let named = stikis_host::store::database_named(&opts.db);
        if named.starts_with("PostgreSQL") {
            eprintln!("Connecting to {named} …");
        }
        let store = match tokio::time::timeout(CONNECT_WAIT, Store::connect(&opts.db)).await {
            Ok(Ok(store)) => store,
            Ok(Err(e)) => return Err(format!("cannot open {named}: {e}")),
            Err(_) => {
                return Err(format!(
                    "{named} did not answer within {} s: is it running, and is the address right?",
                    CONNECT_WAIT.as_secs()
                ))
            }
        };
        let (host, _timers) = Host::new(store.clone(), config);
        Ok(Session {
            host,
            store,
            chat: chat_of(&opts.game),
            me: User {
                id: "you".into(),
                name: "You".into(),
                admin: true,
            },
            opts,
        })
    }

    pub async fn handle(&self, command: Command) -> Outbox {
        self.host
            .handle(Request {
                chat: self.chat.clone(),
                user: self.me.clone(),
                command,
            })
            .await
    }

    /// What an outbox shows here.
    pub fn view(&self, out: &Outbox) -> Vec<Shown> {
        view(out, &self.chat, &self.me.id, &self.opts)
    }

    /// True while the chat has a table open.
    pub async fn running(&self) -> bool {
        self.table_id().await.is_some()
    }

    /// The chat's open table.
    pub async fn table_id(&self) -> Option<i64> {
        self.store
            .open_table(&self.chat)
            .await
            .ok()
            .flatten()
            .map(|t| t.id)
    }

    /// `r` at the open table: the host's record of it (its finished deals, each with its
    /// seed) saved beside the database. What the screen shows of it; the message says so when
    /// the deal in progress is left out, as the host leaves it out (the file goes to the whole
    /// chat on the bots, and that deal's record lists every hand).
    pub async fn save_open_record(&self) -> Vec<Shown> {
        let table = self.table_id().await;
        let out = self.handle(Command::Record).await;
        let mut shown = self.view(&out);
        let kept = out.0.iter().find_map(|o| match o {
            Out::File { content, chat, .. } if chat == &self.chat => deals_in(content),
            _ => None,
        });
        let dealt = match table {
            Some(id) => self.store.table_log(id).await.ok().map(|log| log.deals.len()),
            None => None,
        };
        let note = match (kept, dealt) {
            (Some(kept), Some(dealt)) => left_out(kept, dealt, "in progress"),
            _ => None,
        };
        for s in &mut shown {
            if let Shown::Saved(text) = s {
                *text = with_note(std::mem::take(text), note.clone());
            }
        }
        shown
    }

    /// Saves the record of table `id` (closed, stopped or finished) as `r` saves an open
    /// table's: its finished deals with their seeds. What it says about the file.
    pub async fn save_record(&self, id: i64) -> String {
        let record = async {
            let log = self.store.table_log(id).await?;
            let mut env = log.record()?;
            for (d, row) in env.deals.iter_mut().zip(&log.deals) {
                d["seed"] = Value::String(row.seed_hex.clone());
            }
            Ok::<_, stikis_host::store::StoreError>((log.table.game.clone(), env))
        };
        let (game, mut env) = match record.await {
            Ok(r) => r,
            Err(e) => return format!("The record of the last table could not be read: {e}"),
        };
        // A deal cut short by the stop stays in the record unfinished (the format allows a
        // record to end in the middle of a deal), unless it does not replay as one: then it is
        // left out. Either way the message says so.
        let text =
            |env: &stikis_core::record::Envelope| serde_json::to_string_pretty(env).unwrap_or_default();
        let note = match stikis_core::record::replay(text(&env).as_bytes()) {
            Ok(result) => result["deals"]
                .as_array()
                .and_then(|d| d.last())
                .filter(|d| d["complete"] == false)
                .map(|_| {
                    format!(
                        "Deal {}, cut short when the table was stopped, is in it unfinished (\"complete\": false in what stikis replay prints).",
                        env.deals.len()
                    )
                }),
            Err(e) if e.deal > 0 && e.deal == env.deals.len() => {
                env.deals.pop();
                left_out(env.deals.len(), e.deal, "cut short when the table was stopped")
            }
            Err(_) => None,
        };
        with_note(
            save(&self.opts, &format!("stikis-{game}-{id}.json"), &text(&env)),
            note,
        )
    }

    /// The chat's open score sheet of this game.
    pub async fn sheet(&self) -> Option<ScoreSheetRow> {
        self.store
            .score_sheet(&self.chat, &self.opts.game)
            .await
            .ok()
            .flatten()
    }

    /// The score sheet's totals a table started from (empty when it started on a fresh
    /// sheet): the sheet goes on from them, while the table's own "Totals" start at 0.
    pub async fn carried(&self, table: i64) -> Vec<SheetTotal> {
        self.store
            .sheet_carry(table)
            .await
            .ok()
            .flatten()
            .and_then(|v| serde_json::from_value(v["totals"].clone()).ok())
            .unwrap_or_default()
    }

    /// The game and its rules as the screen's title names them: the open table's (a
    /// resumed game keeps the rules it was started with), else those given to this run.
    pub async fn rules_title(&self) -> String {
        let rules = match self.store.open_table(&self.chat).await.ok().flatten() {
            Some(t) => t.rules,
            None => self.opts.rules.clone(),
        };
        rules_title(&self.opts.game, &rules)
    }

    /// Resumes the running game, or opens a new one: what to show, and notes before it.
    pub async fn begin(&self, args: &PlayArgs) -> Result<(Outbox, Vec<String>), String> {
        let open = self.store.open_table(&self.chat).await.ok().flatten();
        if open.as_ref().is_some_and(|t| t.status == TableStatus::Running) {
            let mut notes = vec!["Resuming your game.".to_string()];
            let given: Vec<&str> = [
                ("--preset", args.preset.is_some()),
                ("--target", args.target.is_some()),
                ("--players", args.players.is_some()),
                ("--hands", args.hands.is_some()),
                ("--level", args.level != "basic"),
            ]
            .into_iter()
            .filter_map(|(f, given)| given.then_some(f))
            .collect();
            if !given.is_empty() {
                notes.push(format!(
                    "({} applies to a new game only: this one keeps its rules and players. To start anew, press s to stop this table, then n.)",
                    given.join(", ")
                ));
            }
            let out = self.host.recover().await.map_err(|e| e.to_string())?;
            return Ok((out, notes));
        }
        if open.is_some() {
            // A table left in its lobby (the program ended before it started): close it.
            self.handle(Command::Stop).await;
        }
        if self.sheet().await.is_some() {
            // The last table was stopped (or ended) and its sheet is open: say so, and let
            // c close the sheet or n go on from it, rather than open a table on it unasked.
            return Ok((Outbox::default(), vec![SHEET_OPEN.to_string()]));
        }
        Ok((self.new_table().await?, Vec::new()))
    }

    /// Opens a new table of the game for you and computer players, and starts it. A stopped
    /// table still open in the chat is closed first (its totals stay on the score sheet).
    pub async fn new_table(&self) -> Result<Outbox, String> {
        self.handle(Command::SetTurnLimit(None)).await;
        let out = self
            .handle(Command::NewTable {
                game: self.opts.game.clone(),
                rules: Some(self.opts.rules.clone()),
                seats: Some(self.opts.seats),
            })
            .await;
        if let Some(text) = out.reply_text() {
            if !text.contains("You") {
                return Err(text.to_string());
            }
        }
        for _ in 1..self.opts.seats {
            self.handle(Command::AddBot {
                level: self.opts.level,
            })
            .await;
        }
        Ok(self.handle(Command::Start).await)
    }
}

/// A game's name and its rules, short enough for a pane's title: "Zole · preset lv",
/// "Bazar belote · rules default · target 501", "Polt to Tzar · rules default · 3 hands".
pub(crate) fn rules_title(game: &str, rules: &Value) -> String {
    let info = stikis_core::games::game(game);
    let name = info.map_or(game, |g| g.name);
    // A game of several presets names its preset; the others their rules.
    let word = if info.is_some_and(|g| g.presets.len() > 1) {
        "preset"
    } else {
        "rules"
    };
    let preset = match rules {
        Value::String(p) => Some(p.as_str()),
        v => v.get("preset").and_then(Value::as_str),
    };
    let default = info.map_or("default", |g| g.default_preset());
    let mut parts = vec![name.to_string(), format!("{word} {}", preset.unwrap_or(default))];
    if let Some(map) = rules.as_object() {
        for (k, v) in map.iter().filter(|(k, _)| *k != "preset") {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            parts.push(match k.as_str() {
                "target" => format!("target {v}"),
                "hands" => format!("{v} hands"),
                _ => format!("{k} {v}"),
            });
        }
    }
    parts.join(" · ")
}

/// Line mode, for pipes and tests: everything prints as lines, a button is its number.
async fn play(session: &Session, args: &PlayArgs) -> Result<(), String> {
    let (chat, me, opts) = (&session.chat, &session.me.id, &session.opts);
    let mut buttons = Vec::new();
    let (out, notes) = session.begin(args).await?;
    for n in notes {
        println!("{n}");
    }
    println!("{}", session.rules_title().await);
    show(&out, chat, me, opts, &mut buttons);
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    // True once you stopped the table here (or it starts on an open sheet with no table):
    // then c closes the score sheet, n opens a new table.
    let mut stopped = !session.running().await && session.sheet().await.is_some();
    // The last table open here: r saves its record once it is closed.
    let mut last = None;
    loop {
        let open = session.table_id().await;
        last = open.or(last);
        let running = !stopped && open.is_some();
        if !running && !stopped {
            println!("\nThe game is over. Run the same command again for a new one.");
            return Ok(());
        }
        if stopped {
            buttons.clear();
            println!("\nThe table is stopped. c closes the score sheet (settling open pules), n starts a new table, q quits.");
        }
        print!("> ");
        std::io::stdout().flush().ok();
        let Ok(Some(line)) = lines.next_line().await else {
            println!("\n{KEPT}");
            return Ok(());
        };
        let out = match (line.trim(), running) {
            ("q", _) => {
                println!("{KEPT}");
                return Ok(());
            }
            ("r", true) => {
                print_shown(session.save_open_record().await, None, &mut buttons);
                continue;
            }
            ("r", false) => {
                match last {
                    Some(id) => println!("\n{}", session.save_record(id).await),
                    None => println!("{NO_RECORD}"),
                }
                continue;
            }
            ("c", false) => {
                let out = session.handle(Command::CloseSheet).await;
                show(&out, chat, me, opts, &mut buttons);
                println!("\nRun the same command again for a new game.");
                return Ok(());
            }
            ("n", false) => {
                let out = session.new_table().await?;
                show(&out, chat, me, opts, &mut buttons);
                stopped = false;
                continue;
            }
            ("s", true) => {
                print!("{STOP_QUESTION} (y/n) ");
                std::io::stdout().flush().ok();
                match lines.next_line().await {
                    Ok(Some(a)) if a.trim().eq_ignore_ascii_case("y") => {
                        stopped = true;
                        session.handle(Command::Stop).await
                    }
                    Ok(Some(_)) => {
                        println!("The game goes on.");
                        continue;
                    }
                    _ => {
                        println!("\n{KEPT}");
                        return Ok(());
                    }
                }
            }
            (n, true) => match n
                .parse::<usize>()
                .ok()
                .and_then(|i| buttons.get(i.wrapping_sub(1)))
            {
                Some((_, token)) => session.handle(Command::press(token.clone())).await,
                None => {
                    println!("{}", valid_keys(&buttons, true));
                    continue;
                }
            },
            (_, false) => {
                println!("{}", valid_keys(&buttons, false));
                continue;
            }
        };
        show(&out, chat, me, opts, &mut buttons);
    }
}

pub(crate) const STOP_QUESTION: &str =
    "Stop the table now, in the middle of the game? Its totals stay on the score sheet.";

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct T {
        #[command(flatten)]
        a: PlayArgs,
    }

    fn parse(s: &str) -> Result<Opts, String> {
        use clap::Parser;
        let t = T::try_parse_from(std::iter::once("play").chain(s.split_whitespace()))
            .map_err(|e| e.to_string())?;
        super::parse(&t.a)
    }

    #[test]
    fn every_game_and_its_options_parse() {
        let o = parse("zole").unwrap();
        assert_eq!(
            (o.game.as_str(), o.seats, o.rules.clone()),
            ("zole", 3, json!("lv"))
        );
        let o = parse("belote").unwrap();
        assert_eq!(
            (o.game.as_str(), o.seats, o.rules.clone()),
            ("belote-bazar", 4, json!("default"))
        );
        let o = parse("belote h2h --target 51").unwrap();
        assert_eq!((o.game.as_str(), o.seats), ("belote-h2h", 2));
        assert_eq!(o.rules, json!({"preset": "default", "target": 51}));
        assert_eq!(parse("belote coinche").unwrap().game, "coinche");
        assert_eq!(
            parse("belote classic --level strong").unwrap().level,
            Level::Strong
        );
        let o = parse("polt --players 7 --hands 3").unwrap();
        assert_eq!((o.game.as_str(), o.seats), ("polt", 7));
        assert_eq!(o.rules, json!({"preset": "default", "hands": 3}));
        assert!(parse("polt --players 4").is_err());
        assert_eq!(
            parse("belote skat").unwrap_err(),
            "unknown belote \"skat\" (bazar, classic, h2h, coinche)"
        );
        assert_eq!(
            parse("zole bazar").unwrap_err(),
            "zole has no variants; `belote` has bazar, classic, h2h and coinche"
        );
        assert_eq!(
            parse("polt --players 8").unwrap_err(),
            "Polt to Tzar is for 5 to 7 players, not 8"
        );
        assert_eq!(
            parse("belote --preset lv").unwrap_err(),
            "--preset is not an option of belote"
        );
        assert!(parse("zole --players 5").is_err());
        assert!(parse("polt --target 5").is_err());
        assert!(parse("skat").is_err());
        // The screen's title names the game and its rules.
        assert_eq!(rules_title("zole", &json!("rondo")), "Zole · preset rondo");
        assert_eq!(
            rules_title("belote-classic", &json!("default")),
            "French classic belote · rules default"
        );
        assert_eq!(
            rules_title("belote-h2h", &json!({"preset": "default", "target": 51})),
            "Head-to-head belote · rules default · target 51"
        );
        assert_eq!(
            rules_title("zole", &json!({"small_zole": true})),
            "Zole · preset lv · small_zole true"
        );
        // Rules the game does not know are refused while parsing, before any database file.
        assert!(parse("zole --preset nosuch").is_err());
    }
}
