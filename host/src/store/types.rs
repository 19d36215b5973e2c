//! The values the store reads and writes: where a table is (platform, community, chat),
//! settings, tables and seats, the action log, score sheets and stats.

use std::fmt;
use std::ops::AddAssign;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::i18n::Lang;

/// The chat platform a community lives on; stored as its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    Telegram,
    Discord,
    /// `stikis play`: the terminal adapter.
    Local,
}

impl Platform {
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Telegram => "telegram",
            Platform::Discord => "discord",
            Platform::Local => "local",
        }
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Platform {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "telegram" => Ok(Platform::Telegram),
            "discord" => Ok(Platform::Discord),
            "local" => Ok(Platform::Local),
            _ => Err(format!("unknown platform {s:?}")),
        }
    }
}

/// A community: a Telegram group or a Discord server.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommunityRef {
    pub platform: Platform,
    pub community: String,
}

impl CommunityRef {
    pub fn new(platform: Platform, community: impl Into<String>) -> Self {
        CommunityRef {
            platform,
            community: community.into(),
        }
    }
}

/// The community of a Discord direct-message channel (`ChatRef::community`): a press made
/// there is on a hand message that any process can edit (`crate::owner`).
pub const DISCORD_DM: &str = "dm";

/// Where a table sits: a chat (channel, group) and, where the platform has them, a thread or
/// forum topic inside it. Chat ids are unique per platform, so the community is carried
/// along but not part of the chat's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChatRef {
    pub platform: Platform,
    pub community: String,
    pub chat: String,
    pub thread: Option<String>,
}

impl ChatRef {
    pub fn new(platform: Platform, community: impl Into<String>, chat: impl Into<String>) -> Self {
        ChatRef {
            platform,
            community: community.into(),
            chat: chat.into(),
            thread: None,
        }
    }

    pub fn in_thread(mut self, thread: impl Into<String>) -> Self {
        self.thread = Some(thread.into());
        self
    }

    pub fn community_ref(&self) -> CommunityRef {
        CommunityRef::new(self.platform, self.community.clone())
    }

    /// The database spelling of "no thread": the empty string, so that the unique index on
    /// (platform, chat, thread) also holds for chats without threads (NULLs never collide).
    pub(crate) fn thread_key(&self) -> &str {
        self.thread.as_deref().unwrap_or("")
    }
}

/// A community's settings. A community never configured has the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommunitySettings {
    pub lang: Lang,
    /// Seconds per move; None: no limit.
    pub turn_limit_secs: Option<u32>,
    /// Start a table as soon as every seat is taken.
    pub auto_start: bool,
    /// The community's names for its computer players, by seat (seat 1 first); an empty or
    /// missing one keeps the default name in the reader's language.
    pub computer_names: Vec<String>,
    /// Telegram: each person's hand is an ephemeral message in the group, where the Bot API
    /// has them (`/hands group`); false: in their private chat (`/hands private`).
    pub hands_in_group: bool,
}

impl Default for CommunitySettings {
    fn default() -> Self {
        CommunitySettings {
            lang: Lang::default(),
            turn_limit_secs: Some(60),
            auto_start: false,
            computer_names: Vec::new(),
            hands_in_group: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableStatus {
    /// Open, seats filling.
    Lobby,
    Running,
    /// Played to its end.
    Finished,
    /// Stopped by its creator or an admin.
    Stopped,
}

impl TableStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Lobby => "lobby",
            TableStatus::Running => "running",
            TableStatus::Finished => "finished",
            TableStatus::Stopped => "stopped",
        }
    }

    /// Lobby and running tables are open: they hold their chat.
    pub fn is_open(self) -> bool {
        matches!(self, TableStatus::Lobby | TableStatus::Running)
    }
}

impl FromStr for TableStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "lobby" => Ok(TableStatus::Lobby),
            "running" => Ok(TableStatus::Running),
            "finished" => Ok(TableStatus::Finished),
            "stopped" => Ok(TableStatus::Stopped),
            _ => Err(format!("unknown table status {s:?}")),
        }
    }
}

/// What `create_table` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTable {
    pub chat: ChatRef,
    /// The record's game name (`zole`, `belote-bazar`, ...).
    pub game: String,
    /// The record's `rules`: a preset name or an object of options.
    pub rules: Value,
    /// How many seats it has.
    pub seats: usize,
    /// The user id of the player who opened it.
    pub creator: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub id: i64,
    pub chat: ChatRef,
    pub game: String,
    pub rules: Value,
    /// The seats it was opened with (0 for tables stored before the count was: the game's
    /// smallest table).
    pub seats: usize,
    pub creator: String,
    pub status: TableStatus,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Set for a table of a tournament round.
    pub tournament: Option<TournamentSlot>,
}

/// Where a tournament table belongs, and when it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSlot {
    pub tournament: i64,
    /// `T{tournament}.{round}.{table}`: the key that lets several tables share a chat.
    pub slot: String,
    /// The table ends after this many deals.
    pub deal_limit: Option<usize>,
    /// The table ends with the first deal that ends after this time (Unix ms).
    pub deadline_ms: Option<i64>,
}

impl TournamentSlot {
    pub fn slot_name(tournament: i64, round: usize, table: usize) -> String {
        format!("T{tournament}.{round}.{table}")
    }

    /// The (round, table) the slot names, both from 1.
    pub fn round_table(&self) -> Option<(usize, usize)> {
        let mut it = self.slot.strip_prefix('T')?.split('.').skip(1);
        Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentStatus {
    /// Entries open; not started.
    Registration,
    Running,
    /// Between rounds, held by an admin: the next round waits for Resume.
    Paused,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Registration => "registration",
            TournamentStatus::Running => "running",
            TournamentStatus::Paused => "paused",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    pub fn is_open(self) -> bool {
        matches!(
            self,
            TournamentStatus::Registration | TournamentStatus::Running | TournamentStatus::Paused
        )
    }
}

impl FromStr for TournamentStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "registration" => TournamentStatus::Registration,
            "running" => TournamentStatus::Running,
            "paused" => TournamentStatus::Paused,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            _ => return Err(format!("unknown tournament status {s:?}")),
        })
    }
}

/// What `create_tournament` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    pub chat: ChatRef,
    pub creator: String,
    pub rules: Value,
    pub rounds: usize,
    pub deals_per_round: Option<usize>,
    pub round_minutes: Option<u32>,
    /// Seconds per move at its tables; None: the chat's setting.
    pub turn_secs: Option<u32>,
    pub computers: bool,
    /// The draw's seed (hex) and its SHA-256 (hex).
    pub draw_seed: String,
    pub commitment: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRow {
    pub id: i64,
    pub chat: ChatRef,
    pub creator: String,
    pub rules: Value,
    pub rounds: usize,
    pub deals_per_round: Option<usize>,
    pub round_minutes: Option<u32>,
    pub turn_secs: Option<u32>,
    pub computers: bool,
    pub status: TournamentStatus,
    pub draw_seed: String,
    pub commitment: String,
    pub created_ms: i64,
}

/// One entrant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub entry: i64,
    pub name: String,
    pub occupant: Occupant,
    pub withdrawn: bool,
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Occupant {
    Human {
        user_id: String,
    },
    /// A computer player of the given strength (the AI layer names the levels).
    Computer {
        level: u8,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub name: String,
    pub occupant: Occupant,
    /// The owner timed out too often; a computer player plays the seat until "I'm back".
    pub away: bool,
}

/// One committed entry of a table's action log.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionRow {
    pub seq: i64,
    /// A record action object, e.g. `{"seat":1,"bid":"take"}`.
    pub payload: Value,
    /// When it was committed; the table's timer resumes from the last one after a restart.
    pub at_ms: i64,
    /// The process that committed it (`Store::process_id`; None before migration 0007).
    pub process: Option<String>,
}

/// A started deal. The seed stays in the database until the host reveals it with the results.
#[derive(Debug, Clone, PartialEq)]
pub struct DealRow {
    pub deal_no: i64,
    /// The sequence number the deal's first action takes (or took).
    pub first_seq: i64,
    pub seed_hex: String,
    pub commitment_hex: String,
    /// The record's deal object without its `actions` (dealer, hands, talon, ...).
    pub deal: Value,
    pub at_ms: i64,
}

/// One player's running total on a chat's score sheet. `player` is the stable key (a user id,
/// or a name for a computer player); `name` is what is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetTotal {
    pub player: String,
    pub name: String,
    pub points: i64,
}

/// A chat's score sheet for one game: it outlives tables until it is closed.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreSheetRow {
    pub id: i64,
    pub chat: ChatRef,
    pub game: String,
    pub totals: Vec<SheetTotal>,
    /// Open pules, in the game's own JSON shape.
    pub pules: Value,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// None while the sheet is open.
    pub closed_ms: Option<i64>,
}

/// Counters of a leaderboard row; also the increments `apply_stats` adds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: i64,
    pub deals: i64,
    pub declarer_wins: i64,
    pub points: i64,
    pub pules_written: i64,
    pub pules_removed: i64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.games += o.games;
        self.deals += o.deals;
        self.declarer_wins += o.declarer_wins;
        self.points += o.points;
        self.pules_written += o.pules_written;
        self.pules_removed += o.pules_removed;
    }
}

/// One player's increments from one deal (computer players are not counted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsEntry {
    pub user_id: String,
    pub name: String,
    pub delta: Stats,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRow {
    pub user_id: String,
    /// The name the player had when last counted.
    pub name: String,
    pub stats: Stats,
}
