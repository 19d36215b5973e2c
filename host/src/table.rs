//! One running table in memory: its seats, its game, the last committed action number, the
//! seeds of its deals and its turn timer state. Every move goes through `commit`, which writes
//! the action to the log before the game applies it, so an acknowledged move survives a crash;
//! after a restart `load` rebuilds the table by replaying the log.

use std::time::Duration;

use serde_json::Value;
use sha2::{Digest, Sha256};
use stikis_core::ai::Level;
use stikis_core::{Seat, Seed};
use tokio::time::Instant;

use crate::games::{new_game, DealReport, HostedGame, Refusal};
use crate::i18n::{t, Arg, Lang};
use crate::msgkey::MsgKey;
use crate::outbox::{Button, Out, Outbox};
use crate::picture::Picture;
use crate::store::{
    CommunitySettings, Occupant, Platform, SeatRow, SheetTotal, Stats, StatsEntry, Store, StoreError,
    TableLog, TableRow, TableStatus,
};
use crate::token::Token;

/// Why the host could not do something; `Conflict` means another process moved first and the
/// table must be reloaded from the database.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("another process changed this table first")]
    Conflict,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Rule(#[from] Refusal),
}

impl crate::observe::Failure for HostError {
    fn store_kind(&self) -> Option<&'static str> {
        match self {
            HostError::Store(e) => e.store_kind(),
            HostError::Conflict | HostError::Rule(_) => None,
        }
    }
}

/// Computer levels as the store keeps them.
pub fn level_code(l: Level) -> u8 {
    match l {
        Level::Random => 0,
        Level::Basic => 1,
        Level::Strong => 2,
    }
}

pub fn level_from_code(c: u8) -> Level {
    match c {
        0 => Level::Random,
        2 => Level::Strong,
        _ => Level::Basic,
    }
}

/// The SHA-256 of a seed's 32 bytes, shown before the deal so the seed revealed afterwards can
/// be checked against it.
pub fn commitment(seed: &Seed) -> String {
    // In one string: a string per byte was most of a table message's drawing.
    format!("{:x}", Sha256::digest(seed.0))
}

/// Hex digits of a commitment (or a seed) that the chat shows: the whole 64 only go into the
/// record (`/record`) and the web viewer. 16 digits are 64 bits: finding another seed that
/// starts its SHA-256 the same way is out of reach, so the short form still binds the deal.
pub const FINGERPRINT_DIGITS: usize = 16;

/// The short form of a 64-digit hex string the chat shows, marked as cut: `0f3a9c1e5b7d2468…`.
pub fn fingerprint(hex: &str) -> String {
    let short: String = hex.chars().take(FINGERPRINT_DIGITS).collect();
    format!("{short}…")
}

/// The lobby button that adds a seat to a full lobby and seats the presser in it.
pub(crate) const ADD_SEAT: &str = "seat+";

/// A running table as this process holds it, shared by the requests and timers at it.
pub(crate) type Shared = std::sync::Arc<tokio::sync::Mutex<Live>>;

pub(crate) struct Live {
    pub row: TableRow,
    pub seats: Vec<SeatRow>,
    /// Seats the table was opened for.
    pub size: usize,
    /// The count of changes to the seats that `seats` is at least as new as
    /// (`Store::seats_versioned`): the lobby message's version.
    pub seats_rev: i64,
    pub game: Option<Box<dyn HostedGame>>,
    /// The last committed action number (0: none).
    pub seq: i64,
    /// The seed of every deal so far, revealed when its deal ends.
    pub seeds: Vec<Seed>,
    /// Consecutive timeouts per seat.
    pub timeouts: Vec<u8>,
    /// The result of the last deal when it may not have been shown: the table was loaded from
    /// the log, the deal has ended and no person has moved since (the process that ended it
    /// may have died before posting it). Posted again, once (`Out::Post::once`), by the
    /// process that takes the table over.
    pub owed_result: Option<DealReport>,
    /// The process that committed the last action, as the log was loaded (None when no
    /// action was, or before processes were recorded).
    pub last_mover: Option<String>,
    /// The report of the last deal that ended, for the live table's result panel.
    pub last_report: Option<DealReport>,
    /// The public picture of the last deal that ended, as it ended: the live table shows its
    /// last trick and result until the next deal's first move.
    pub last_end: Option<crate::picture::Picture>,
    /// With `owed_result` when the next deal has started since: the table as that deal
    /// ended, so its hands are shown in their final state (no buttons) again. The process
    /// that ended the deal may have died before showing them, and nothing else would ever
    /// edit them.
    pub owed_hands: Option<Box<Live>>,
    /// The table message of the last deal that ended, as it ended (no buttons), when the
    /// table was loaded from the log: the process that ended that deal may have died before
    /// its last edit went out (a group's edits are paced, so the final trick can wait
    /// seconds for its slot), and nothing else would ever edit that message again. The log
    /// is written before anything is shown, so whoever takes the table up shows it
    /// (`Host::resume_loaded`).
    pub final_table: Option<Out>,
    /// The result posts of the last `OWED_RESULTS` deals that ended (and of every deal since
    /// the oldest result that may be owed, `owed_from`), by deal number, as they were when
    /// each ended (and when, Unix ms), when the table was just loaded from the log: the
    /// process that takes it over posts those no process posted (many, when the process that
    /// played them died with its posts still queued behind its group's post budget).
    pub ended: Vec<(usize, Out, i64)>,
    /// Result posts to look for in the database when they are due (Unix ms; see
    /// `Host::post_due_results`), by deal number: those this copy made, and those a process
    /// not known to be gone may owe. A post that fails, or whose process dies before posting
    /// it or while the others still count it alive, is posted then by the table's owner.
    pub due: Vec<DueResult>,
    /// Changes whenever the turn changes, so a timer for an old turn does nothing. Unique in
    /// the process, not only in this copy of the table: a timer armed by a copy that was
    /// dropped (another process moved the table on, and it was loaded again) must not match
    /// the new copy's turn.
    pub turn_gen: u64,
    pub turn_since: Instant,
    pub settings: CommunitySettings,
    /// The chat's score-sheet totals when this table started (by player): the sheet this
    /// table writes is these plus its own play.
    pub carried: Vec<SheetTotal>,
}

/// A deal dealt in memory, to be stored and then announced.
struct NextDeal {
    seed: Seed,
    deal_no: i64,
    commitment: String,
    deal: Value,
}

/// Stores a deal's start: its seed, commitment and cards, before any of it is shown.
async fn store_deal(store: &Store, table: i64, next: &NextDeal) -> Result<(), HostError> {
    let seed = next.seed.to_string();
    match store
        .start_deal(table, next.deal_no, &seed, &next.commitment, &next.deal)
        .await
    {
        Ok(_) => Ok(()),
        Err(StoreError::DealTaken { .. }) => Err(HostError::Conflict),
        Err(e) => Err(e.into()),
    }
}

/// How many of a table's last deals a process that takes it over checks for a result never
/// posted, at least: further back too while the oldest of them was not posted
/// (`owed_from`).
const OWED_RESULTS: usize = 20;

/// How many of a table's last deals `owed_from` looks at for a result never posted, in one
/// query, before it looks further back (only while the oldest of them was not posted
/// either). Not just the last few: a result can be owed behind many that were posted. A
/// process killed with its post of deal 12 still waiting for the group's budget, while
/// another process had already taken the table up and posted deals 13 to 40 itself, owes
/// deal 12 only (a short PostgreSQL chaos run, seed 653721, lost it when this looked at the
/// last 20).
const OWED_LOOK_BACK: usize = 500;

/// The first deal whose result a table loaded from `log` may owe beyond its last
/// `OWED_RESULTS` (`Store::oldest_unposted_result`): where another process moved it last, or
/// none did, the posts that process held back for its group's post budget died with it, and
/// a table played faster than the budget can owe more than `OWED_RESULTS` of them. `usize::MAX`
/// (none beyond those) where this process moved it last, in the terminal, or when the
/// store cannot say (the last `OWED_RESULTS` are looked at as before).
pub async fn owed_from(store: &Store, log: &TableLog) -> usize {
    let platform = log.table.chat.platform;
    let mine = log
        .actions
        .last()
        .and_then(|a| a.process.as_deref())
        .is_some_and(|p| p == store.process_id());
    let Some(last) = log.deals.last().map(|d| d.deal_no) else {
        return usize::MAX;
    };
    if platform == Platform::Local || mine {
        return usize::MAX;
    }
    let last = usize::try_from(last).unwrap_or(0);
    match store
        .oldest_unposted_result(platform, log.table.id, last, OWED_LOOK_BACK)
        .await
    {
        Ok(oldest) => oldest.unwrap_or(usize::MAX),
        Err(e) => {
            tracing::debug!(error = %e, "could not read which results were posted");
            usize::MAX
        }
    }
}

/// The key a deal's result is posted under, once (`Out::Post::once`).
pub fn result_key(table: i64, deal_no: usize) -> String {
    MsgKey::Result { table, deal: deal_no }.to_string()
}

/// A result post to look for in the database when it is due: when (Unix ms), its deal's
/// number and the post (`Live::due`).
pub type DueResult = (i64, usize, Out);

impl Live {
    pub fn new(row: TableRow, seats: Vec<SeatRow>, size: usize, settings: CommunitySettings) -> Live {
        Live {
            row,
            seats,
            size,
            seats_rev: 0,
            game: None,
            seq: 0,
            seeds: Vec::new(),
            timeouts: Vec::new(),
            owed_result: None,
            last_mover: None,
            last_report: None,
            last_end: None,
            owed_hands: None,
            final_table: None,
            ended: Vec::new(),
            due: Vec::new(),
            turn_gen: next_turn_gen(),
            turn_since: Instant::now(),
            settings,
            carried: Vec::new(),
        }
    }

    pub fn id(&self) -> i64 {
        self.row.id
    }

    pub fn lang(&self) -> Lang {
        self.settings.lang
    }

    /// The players' names as the chat reads them (computer players in the chat's language).
    pub fn names(&self) -> Vec<String> {
        self.names_in(self.lang())
    }

    /// The players' names for a reader of `lang`: a computer player is named in it.
    pub fn names_in(&self, lang: Lang) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match s.occupant {
                // A tournament's computer players are entrants: their names are fixed.
                Occupant::Computer { .. } if self.row.tournament.is_none() => self
                    .settings
                    .computer_names
                    .get(s.seat as usize)
                    .filter(|n| !n.trim().is_empty())
                    .cloned()
                    .unwrap_or_else(|| crate::games::computer_name(lang, s.seat)),
                _ => s.name.clone(),
            })
            .collect()
    }

    /// "Round 2, table 3" for a tournament table: several share the chat.
    pub fn label(&self, lang: Lang) -> Option<String> {
        let (round, table) = self.row.tournament.as_ref()?.round_table()?;
        Some(t(
            lang,
            "tournament-table-label",
            &[("round", Arg::from(round)), ("table", Arg::from(table))],
        ))
    }

    /// `text` under the table's label, if it has one.
    fn labelled(&self, lang: Lang, text: String) -> String {
        match self.label(lang) {
            Some(l) => format!("{l}\n{text}"),
            None => text,
        }
    }

    /// True when the table's deals are played out: its deal limit reached, or its time up
    /// (tournament rounds). Checked when a deal ends.
    pub fn limit_reached(&self, now_ms: i64) -> bool {
        let (Some(slot), Some(game)) = (&self.row.tournament, &self.game) else {
            return false;
        };
        let done = game.deal_no() - usize::from(game.in_deal());
        slot.deal_limit.is_some_and(|n| done >= n)
            || slot.deadline_ms.is_some_and(|d| now_ms >= d && done > 0)
    }

    /// Who sits where as the score sheet names players: user ids, `computer:N` for seat N.
    pub fn player_keys(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Human { user_id } => user_id.clone(),
                Occupant::Computer { .. } => format!("computer:{}", s.seat),
            })
            .collect()
    }

    /// Starts this table from the chat's open score sheet (`{totals, pules}`, as
    /// `Store::set_sheet_carry` keeps it): its totals go on, its open pules are in play.
    pub fn carry_in(&mut self, sheet: &Value) {
        self.carried = serde_json::from_value(sheet["totals"].clone()).unwrap_or_default();
        let keys = self.player_keys();
        if let Some(game) = self.game.as_mut() {
            game.carry_in(&sheet["pules"], &keys);
        }
    }

    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.seats
            .iter()
            .find(|s| matches!(&s.occupant, Occupant::Human { user_id } if user_id == user))
            .map(|s| s.seat)
    }

    /// The level of the computer player who moves for `seat`: its own, or basic for a person
    /// who is away.
    /// With everybody away the table waits for "I'm back" instead of playing on by itself.
    pub fn bot_level(&self, seat: Seat) -> Option<Level> {
        let s = self.seats.iter().find(|s| s.seat == seat)?;
        let someone_here = self
            .seats
            .iter()
            .any(|s| matches!(s.occupant, Occupant::Human { .. }) && !s.away);
        match &s.occupant {
            Occupant::Computer { level } => Some(level_from_code(*level)),
            // A tournament's round is played out, whoever has left.
            Occupant::Human { .. } if s.away && (someone_here || self.row.tournament.is_some()) => {
                Some(Level::Basic)
            }
            Occupant::Human { .. } => None,
        }
    }

    /// Rebuilds a running table from the database: its seats, deals and action log. The log
    /// is read consistently (`table_log`) even while another process plays on.
    pub async fn load(store: &Store, row: TableRow, settings: CommunitySettings) -> Result<Live, HostError> {
        Live::load_until(store, row, settings, i64::MAX).await
    }

    /// `load`, as the table was after action `last` (and before the deal that followed it).
    pub async fn load_until(
        store: &Store,
        row: TableRow,
        settings: CommunitySettings,
        last: i64,
    ) -> Result<Live, HostError> {
        let mut log = store.table_log(row.id).await?;
        log.actions.retain(|a| a.seq <= last);
        log.deals.retain(|d| d.first_seq <= last.saturating_add(1));
        let carry = store.sheet_carry(row.id).await?;
        Live::from_log(row, log, settings, carry.as_ref())
    }

    /// `load`, for a process that takes the table up: `ended` holds every result its last
    /// mover may owe (`owed_from`), not only the last `OWED_RESULTS` deals'.
    pub async fn load_owing(
        store: &Store,
        row: TableRow,
        settings: CommunitySettings,
    ) -> Result<Live, HostError> {
        let log = store.table_log(row.id).await?;
        let carry = store.sheet_carry(row.id).await?;
        let from = owed_from(store, &log).await;
        Live::from_log_owing(row, log, settings, carry.as_ref(), from)
    }

    /// Rebuilds a running table from its stored log and the score sheet it started from.
    pub fn from_log(
        row: TableRow,
        log: TableLog,
        settings: CommunitySettings,
        carry: Option<&Value>,
    ) -> Result<Live, HostError> {
        Live::from_log_owing(row, log, settings, carry, usize::MAX)
    }

    /// `from_log`, with `ended` holding the results of the last `OWED_RESULTS` deals and of
    /// every deal from number `owed_from` on (`owed_from`).
    pub fn from_log_owing(
        row: TableRow,
        log: TableLog,
        settings: CommunitySettings,
        carry: Option<&Value>,
        owed_from: usize,
    ) -> Result<Live, HostError> {
        let TableLog {
            table,
            seats,
            deals,
            actions,
        } = log;
        let mut live = Live::new(row.clone(), seats.clone(), 0, settings.clone());
        live.size = live.seats.len();
        live.game = Some(new_game(&live.row.game, &live.row.rules, live.seats.len())?);
        if let Some(sheet) = carry {
            live.carry_in(sheet);
        }
        live.last_mover = actions.last().and_then(|a| a.process.clone());
        let mut game = live.game.take().expect("just made");
        let mut last_ms = None;
        for (i, d) in deals.iter().enumerate() {
            game.restore_deal(&d.deal)?;
            live.seeds.push(
                d.seed_hex
                    .parse()
                    .map_err(|_| Refusal(format!("deal {} has a bad seed", d.deal_no)))?,
            );
            last_ms = Some(d.at_ms);
            let end = deals.get(i + 1).map_or(i64::MAX, |n| n.first_seq);
            for a in actions.iter().filter(|a| a.seq >= d.first_seq && a.seq < end) {
                if let Some(report) = game.apply(&a.payload)? {
                    live.last_report = Some(report.clone());
                    if deals.len() - i <= 2 {
                        live.last_end = Some(game.picture());
                        // Rendered for the last deals only: a log of thousands of deals
                        // is replayed without drawing each.
                        live.final_table = Some(live.table_message_of(&*game, a.seq, None));
                    }
                    if deals.len() - i <= OWED_RESULTS || report.deal_no >= owed_from {
                        // Its post as it was then, with the totals of then.
                        let post = live.result_post_of(&*game, &report);
                        live.ended.push((report.deal_no, post, a.at_ms));
                    }
                    live.owed_result = Some(report);
                } else if live.owed_result.is_some() && !live.by_computer(&a.payload) {
                    // A person moved after the deal's end: they were shown the next deal,
                    // and the result with it.
                    live.owed_result = None;
                }
                live.seq = a.seq;
                last_ms = Some(a.at_ms);
            }
        }
        live.seq = live.seq.max(actions.last().map_or(0, |a| a.seq));
        live.timeouts = vec![0; live.seats.len()];
        live.game = Some(game);
        // The deal whose result is owed is not the last one: the table as it ended, rebuilt
        // from the log up to the next deal, shows that deal's hands as they ended.
        if let (Some(report), Some(last)) = (&live.owed_result, deals.last()) {
            if (report.deal_no as i64) < last.deal_no {
                let first_seq = last.first_seq;
                let before = TableLog {
                    table,
                    seats,
                    deals: deals
                        .iter()
                        .filter(|d| d.first_seq < first_seq)
                        .cloned()
                        .collect(),
                    actions: actions.iter().filter(|a| a.seq < first_seq).cloned().collect(),
                };
                let mut prior = Live::from_log(row, before, settings, carry)?;
                prior.owed_hands = None;
                prior.final_table = None;
                prior.ended = Vec::new();
                live.owed_hands = Some(Box::new(prior));
            }
        }
        // The turn clock resumes with the time that was left.
        if let Some(ms) = last_ms {
            let elapsed = (crate::store::now_ms() - ms).max(0) as u64;
            live.turn_since = Instant::now()
                .checked_sub(Duration::from_millis(elapsed))
                .unwrap_or_else(Instant::now);
        }
        Ok(live)
    }

    /// Writes a run of moves to the log as the ones after `self.seq`, all or none, and
    /// advances the copy's number past them (the moves themselves are applied by the caller).
    pub async fn commit_applied(&mut self, store: &Store, run: &[Value]) -> Result<(), HostError> {
        let seq = self.seq + 1;
        let timer = crate::observe::Timer::start();
        let appended = store.append_actions(self.id(), seq, run).await;
        metrics::histogram!("stikis_db_commit_seconds").record(timer.elapsed());
        match appended {
            Ok(()) => {
                metrics::counter!("stikis_actions_total", "game" => self.row.game.clone())
                    .increment(run.len() as u64);
                crate::observe::moved_here(self.id());
            }
            Err(StoreError::SeqTaken { .. }) => return Err(HostError::Conflict),
            Err(e) => return Err(e.into()),
        }
        self.seq += run.len() as i64;
        self.new_turn();
        Ok(())
    }

    pub fn new_turn(&mut self) {
        self.turn_gen = next_turn_gen();
        self.turn_since = Instant::now();
    }

    /// Deals the next deal: a fresh seed, its commitment stored and shown before any card is.
    pub async fn start_deal(&mut self, store: &Store, seed: Seed, out: &mut Outbox) -> Result<(), HostError> {
        let next = self.deal_in_memory(seed)?;
        let stored = store_deal(store, self.id(), &next).await;
        self.forget_unstored_deal(stored)?;
        self.announce_deal(next, out);
        Ok(())
    }

    /// The copy's game has the next deal dealt in memory; if storing it failed, that deal
    /// may never be the table's (another process stored its own dealing first, from another
    /// seed), so the copy keeps no game. Nothing may show or play it: a press that waited for
    /// this copy would otherwise see its turn (the log's number is unchanged), play into
    /// that deal and show its hands. The copy is read afresh when next used.
    fn forget_unstored_deal<T>(&mut self, stored: Result<T, HostError>) -> Result<T, HostError> {
        if stored.is_err() {
            self.game = None;
            self.new_turn();
        }
        stored
    }

    /// The next deal, dealt in the game but neither stored nor shown yet.
    fn deal_in_memory(&mut self, seed: Seed) -> Result<NextDeal, HostError> {
        let game = self.game.as_mut().expect("a running table has a game");
        let deal = game.start_deal(seed)?;
        Ok(NextDeal {
            seed,
            deal_no: game.deal_no() as i64,
            commitment: commitment(&seed),
            deal,
        })
    }

    /// A stored deal starts: its turn clock runs, and it is announced. Its commitment is shown
    /// (short) in the deal's table message, which is rendered before any card is played.
    fn announce_deal(&mut self, next: NextDeal, out: &mut Outbox) {
        self.seeds.push(next.seed);
        self.new_turn();
        let lang = self.lang();
        let text = self.labelled(
            lang,
            t(
                lang,
                "deal-started",
                &[
                    ("game", self.row.game.as_str().into()),
                    ("deal", Arg::from(next.deal_no)),
                ],
            ),
        );
        out.push(Out::Post {
            chat: self.row.chat.clone(),
            text,
            once: None,
        });
    }

    /// After a deal: the result with the revealed seed, stats and the chat's score sheet, and,
    /// with `next`, the next deal dealt from that seed. The writes do not depend on each other,
    /// so they go to the store together (on SQLite they share one group commit).
    /// The post of a deal's result, once per deal whoever shows it.
    pub fn result_post(&self, report: &DealReport) -> Out {
        let game = self.game.as_deref().expect("a running table has a game");
        self.result_post_of(game, report)
    }

    /// `result_post` as `game` shows it: its totals are the game's so far.
    fn result_post_of(&self, game: &dyn HostedGame, report: &DealReport) -> Out {
        let lang = self.lang();
        let names = self.names();
        let mut text = self.labelled(lang, game.result_text(report, lang, &names));
        if let Some(seed) = self.seeds.get(report.deal_no.saturating_sub(1)) {
            text.push('\n');
            // Every game's record carries its deals' seeds, so `stikis replay` checks the deal;
            // the chat is shown the seed's first digits, the record has it whole.
            let short = fingerprint(&seed.to_string());
            text.push_str(&t(lang, "deal-seed", &[("seed", short.into())]));
        }
        Out::Post {
            chat: self.row.chat.clone(),
            text,
            once: Some(result_key(self.id(), report.deal_no)),
        }
    }

    /// True if `action` was made by a computer player's seat.
    fn by_computer(&self, action: &Value) -> bool {
        let seat = action.get("seat").and_then(Value::as_u64);
        self.seats
            .iter()
            .any(|s| Some(u64::from(s.seat)) == seat && matches!(s.occupant, Occupant::Computer { .. }))
    }

    pub async fn finish_deal(
        &mut self,
        store: &Store,
        report: &DealReport,
        next: Option<Seed>,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        metrics::counter!("stikis_deals_total", "game" => self.row.game.clone()).increment(1);
        let post = self.result_post(report);
        if self.row.chat.platform != Platform::Local {
            let due = crate::store::now_ms() + crate::ownership::OWED_WAIT.as_millis() as i64;
            self.due.push((due, report.deal_no, post.clone()));
        }
        out.push(post);
        self.owed_result = None;
        self.last_report = Some(report.clone());
        self.last_end = self.game.as_ref().map(|g| g.picture());
        let entries = self.stats_entries(|seat| Stats {
            games: 0,
            deals: 1,
            declarer_wins: i64::from(report.declarer == Some(seat) && report.declarer_won),
            points: report.deltas.get(seat as usize).copied().unwrap_or(0) as i64,
            pules_written: report.pules_written.get(seat as usize).copied().unwrap_or(0),
            pules_removed: report.pules_removed.get(seat as usize).copied().unwrap_or(0),
        });
        // Dealing the next deal in memory changes neither the totals nor the open pules that
        // the sheet is written from.
        let next = next.map(|seed| self.deal_in_memory(seed)).transpose()?;
        let community = self.row.chat.community_ref();
        let stats = async {
            // Computer players are not counted: a table of them only has nothing to write.
            if !entries.is_empty() {
                let deal_no = report.deal_no as i64;
                store
                    .apply_stats(self.id(), deal_no, &community, &self.row.game, &entries)
                    .await?;
            }
            Ok::<_, HostError>(())
        };
        let dealt = async {
            match &next {
                Some(next) => store_deal(store, self.id(), next).await,
                None => Ok(()),
            }
        };
        // Without a next deal a failed write leaves the copy's game as the log has it, but
        // its caller drops the copy all the same.
        let written = tokio::try_join!(stats, self.save_sheet(store), dealt);
        self.forget_unstored_deal(written)?;
        if let Some(next) = next {
            self.announce_deal(next, out);
        }
        Ok(())
    }

    /// Writes the chat's score sheet: the totals it had when this table started plus this
    /// table's, by player, and the game's open pules.
    pub async fn save_sheet(&self, store: &Store) -> Result<(), HostError> {
        let Some(game) = &self.game else { return Ok(()) };
        // A tournament table keeps no chat score sheet: its round is its own.
        if self.row.tournament.is_some() {
            return Ok(());
        }
        let keys = self.player_keys();
        let mut totals: Vec<SheetTotal> = self
            .seats
            .iter()
            .zip(&keys)
            .zip(game.totals())
            .map(|((s, key), points)| SheetTotal {
                player: key.clone(),
                name: s.name.clone(),
                points: points as i64
                    + self
                        .carried
                        .iter()
                        .find(|c| c.player == *key)
                        .map_or(0, |c| c.points),
            })
            .collect();
        totals.extend(self.carried.iter().filter(|c| !keys.contains(&c.player)).cloned());
        store
            .save_score_sheet(&self.row.chat, &self.row.game, &totals, &game.sheet_extras(&keys))
            .await?;
        Ok(())
    }

    pub(crate) fn token(&self, code: &str) -> String {
        Token::new(self.id(), self.seq, code).encode().unwrap_or_default()
    }

    /// The lobby message: who sits where, and the lobby buttons.
    /// Who sits where, a line per seat.
    fn seat_lines(&self) -> Vec<String> {
        self.seats
            .iter()
            .zip(self.names())
            .map(|(s, name)| format!("{}. {name}", s.seat + 1))
            .collect()
    }

    /// The lobby message once the game has started: who plays, and no more lobby buttons.
    pub fn render_lobby_started(&self, out: &mut Outbox) {
        let lang = self.lang();
        let game = crate::games::game_title(lang, &self.row.game);
        out.push(Out::Public {
            chat: self.row.chat.clone(),
            key: MsgKey::Lobby { table: self.id() }.into(),
            text: format!(
                "{}\n{}",
                t(lang, "lobby-started", &[("game", game.into())]),
                self.seat_lines().join("\n")
            ),
            buttons: Vec::new(),
            // The lobby's last state: no render of the lobby replaces it.
            version: i64::MAX,
        });
    }

    /// The seats of a lobby as the database has them, and its size: the seats it was opened
    /// with, or more when people took added seats (`ADD_SEAT`), up to its highest taken seat.
    /// Derived from the seats alone, so every process reads the same size.
    pub fn lobby_seats(&mut self, (rev, seats): (i64, Vec<SeatRow>)) {
        self.seats_rev = rev;
        let min = crate::games::seat_range(&self.row.game).map_or(3, |r| r.0);
        let top = seats.iter().map(|s| usize::from(s.seat) + 1).max().unwrap_or(0);
        self.size = min.max(self.row.seats).max(seats.len()).max(top);
        self.seats = seats;
    }

    /// The seat a lobby can add for one more player: none while a seat is free, or when the
    /// game allows no more players.
    pub fn seat_to_add(&self) -> Option<Seat> {
        let max = crate::games::seat_range(&self.row.game).map_or(self.size, |r| r.1);
        let full = (0..self.size as Seat).all(|i| self.seats.iter().any(|s| s.seat == i));
        (self.game.is_none() && full && self.size < max).then_some(self.size as Seat)
    }

    /// The commands that open a table of this game for each of `sizes` players, as this
    /// chat's platform writes them; None where there are none (the terminal, or no sizes).
    pub fn open_commands(&self, sizes: impl Iterator<Item = usize>) -> Option<String> {
        let family = self.row.game.split('-').next().unwrap_or(&self.row.game);
        let list: Vec<String> = sizes
            .map(|n| match self.row.chat.platform {
                Platform::Telegram => Some(format!("/{family} {n}")),
                // The Discord command's option (discord-bot/src/commands.rs).
                Platform::Discord => Some(format!("/{family} players:{n}")),
                Platform::Local => None,
            })
            .collect::<Option<_>>()?;
        (!list.is_empty()).then(|| list.join(", "))
    }

    pub fn render_lobby(&self, out: &mut Outbox) {
        let lang = self.lang();
        let mut lines = self.seat_lines();
        let missing = self.size.saturating_sub(self.seats.len());
        if missing > 0 {
            lines.push(t(lang, "table-waiting", &[("count", Arg::from(missing))]));
        }
        // A game played by several numbers of players says how to open the others.
        if let Some((min, max)) = crate::games::seat_range(&self.row.game) {
            if let Some(list) = self.open_commands((min..=max).filter(|n| *n != self.size)) {
                lines.push(t(lang, "lobby-other-sizes", &[("list", list.into())]));
            }
        }
        let b = |key: &str, code: &str| Button {
            label: t(lang, key, &[]),
            token: self.token(code),
            disabled: false,
            card: None,
        };
        let mut buttons = vec![
            vec![b("button-join", "join"), b("button-leave", "leave")],
            vec![b("button-add-bot", "bot"), b("button-start", "start")],
        ];
        // In a row of its own, after the lobby's usual buttons.
        if let Some(seat) = self.seat_to_add() {
            buttons.push(vec![Button {
                label: t(
                    lang,
                    "button-add-seat",
                    &[("seat", Arg::from(i64::from(seat) + 1))],
                ),
                token: self.token(ADD_SEAT),
                disabled: false,
                card: None,
            }]);
        }
        out.push(Out::Public {
            chat: self.row.chat.clone(),
            key: MsgKey::Lobby { table: self.id() }.into(),
            text: format!(
                "{}\n{}",
                crate::games::game_title(lang, &self.row.game),
                lines.join("\n")
            ),
            buttons,
            // Seats change without actions: a lobby's renders are ordered by the count of
            // changes to its seats, and the started lobby replaces them all.
            version: self.seats_rev,
        });
    }

    /// The leaderboard's increments of the people seated here (computer players are not
    /// counted), each seat's from `delta`.
    pub(crate) fn stats_entries(&self, delta: impl Fn(Seat) -> Stats) -> Vec<StatsEntry> {
        self.seats
            .iter()
            .filter_map(|s| match &s.occupant {
                Occupant::Human { user_id } => Some(StatsEntry {
                    user_id: user_id.clone(),
                    name: s.name.clone(),
                    delta: delta(s.seat),
                }),
                Occupant::Computer { .. } => None,
            })
            .collect()
    }

    /// The public table message and every person's hand, as they are now.
    pub fn render(&self, out: &mut Outbox, user_lang: &dyn Fn(&str) -> Lang) {
        let Some(game) = &self.game else {
            // A running table's copy without its game is one a failed run left behind
            // (`Host::play_run`), about to be loaded again: it shows nothing.
            if self.row.status == TableStatus::Running {
                return;
            }
            return self.render_lobby(out);
        };
        // One picture for the table message and every hand.
        let picture = game.picture();
        out.push(self.table_message_in(&**game, &picture, self.seq, None));
        for s in &self.seats {
            if let Occupant::Human { user_id } = &s.occupant {
                out.push(self.hand_of(&**game, &picture, s.seat, user_id, user_lang(user_id), None));
            }
        }
    }

    /// The deal's public table message as `game` shows it now, at `version`. Buttons only
    /// while its deal is played; `stopped`: the table was stopped in the middle of the deal
    /// (by that person), so it says so instead of whose turn it is, and has no buttons.
    pub(crate) fn table_message_of(&self, game: &dyn HostedGame, version: i64, stopped: Option<&str>) -> Out {
        self.table_message_in(game, &game.picture(), version, stopped)
    }

    /// The table message of `game` drawn from `picture`, its picture now.
    fn table_message_in(
        &self,
        game: &dyn HostedGame,
        picture: &Picture,
        version: i64,
        stopped: Option<&str>,
    ) -> Out {
        let lang = self.lang();
        let names = self.names();
        let deal = game.deal_no();
        let live = game.in_deal() && stopped.is_none();
        // A deal that is over keeps its last trick on screen, without buttons.
        let mut public_buttons = vec![vec![Button {
            label: "🂠".into(),
            token: self.token(crate::outbox::SHOW_HAND),
            disabled: false,
            card: None,
        }]];
        if !live {
            public_buttons.clear();
        }
        if live
            && self
                .seats
                .iter()
                .any(|s| s.away && matches!(s.occupant, Occupant::Human { .. }))
        {
            public_buttons[0].push(Button {
                label: t(lang, "button-back", &[]),
                token: self.token("back"),
                disabled: false,
                card: None,
            });
        }
        // A stopped table's picture: nobody's turn any more.
        let without_turn;
        let picture = match stopped {
            Some(_) => {
                without_turn = Picture {
                    to_act: None,
                    ..picture.clone()
                };
                &without_turn
            }
            None => picture,
        };
        let mut text = crate::draw::table_text(picture, lang, &names);
        if let Some(by) = stopped {
            text.push('\n');
            text.push_str(&t(lang, "table-stopped", &[("name", by.into())]));
        }
        // The deal's commitment, short: the whole SHA-256 is in the record and the web viewer.
        if let Some(seed) = deal.checked_sub(1).and_then(|i| self.seeds.get(i)) {
            let short = fingerprint(&commitment(seed));
            text.push('\n');
            text.push_str(&t(lang, "deal-commitment", &[("commitment", short.into())]));
        }
        Out::Public {
            chat: self.row.chat.clone(),
            key: MsgKey::Deal {
                table: self.id(),
                deal,
            }
            .into(),
            text: self.labelled(lang, text),
            buttons: public_buttons,
            version,
        }
    }

    /// The table message and every person's hand of a table stopped by `by` in the middle
    /// of a deal: nothing to press any more, and nobody's turn.
    pub fn render_stopped(&self, out: &mut Outbox, user_lang: &dyn Fn(&str) -> Lang, by: &str) {
        let Some(game) = self.game.as_deref().filter(|g| g.in_deal()) else {
            return;
        };
        let picture = game.picture();
        out.push(self.table_message_in(game, &picture, self.seq, Some(by)));
        for s in &self.seats {
            if let Occupant::Human { user_id } = &s.occupant {
                out.push(self.hand_of(game, &picture, s.seat, user_id, user_lang(user_id), Some(by)));
            }
        }
    }

    pub fn hand_message(&self, seat: Seat, user_id: &str, lang: Lang) -> Out {
        let game = self.game.as_ref().expect("a hand needs a game");
        self.hand_of(&**game, &game.picture(), seat, user_id, lang, None)
    }

    /// `seat`'s hand message as `game` pictures it; `stopped`: the table was stopped in the
    /// middle of the deal (by that person), so it asks nothing, says so, and has no buttons.
    fn hand_of(
        &self,
        game: &dyn HostedGame,
        picture: &Picture,
        seat: Seat,
        user_id: &str,
        lang: Lang,
        stopped: Option<&str>,
    ) -> Out {
        let mut part = game.seat_picture(seat);
        if stopped.is_some() {
            part.to_act = false;
            part.prompt.clear();
            part.decisions.clear();
        }
        // Stopped: nothing to press. Else the hand's buttons whole (unplayable cards disabled,
        // for the surfaces that show them).
        let rows = match stopped {
            Some(_) => Vec::new(),
            None => game.hand_buttons(seat, lang),
        };
        let buttons = rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|b| Button {
                        label: b.label,
                        token: self.token(&b.code),
                        disabled: b.disabled,
                        card: b.card,
                    })
                    .collect()
            })
            .collect();
        let mut text = crate::draw::hand_text(picture, &part, lang, &self.names_in(lang));
        if let Some(by) = stopped {
            text.push('\n');
            text.push_str(&t(lang, "table-stopped", &[("name", by.into())]));
        }
        Out::Private {
            user: user_id.to_string(),
            chat: self.row.chat.clone(),
            key: MsgKey::Hand {
                table: self.id(),
                deal: game.deal_no(),
                seat,
            }
            .into(),
            text: self.labelled(lang, text),
            buttons,
            version: self.seq,
            delivery: crate::outbox::HandDelivery::Show,
        }
    }
}

/// A turn generation never handed out before in this process.
fn next_turn_gen() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::{Command, Request, User};
    use crate::store::ChatRef;
    use crate::Host;

    /// A commitment is the seed's SHA-256 in 64 lower-case hex digits, leading zeros kept
    /// (the record and `stikis replay` check it so).
    #[test]
    fn a_commitment_is_the_seeds_sha256_in_hex() {
        assert_eq!(
            commitment(&Seed([0; 32])),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        let counting: [u8; 32] = std::array::from_fn(|i| i as u8);
        assert_eq!(
            commitment(&Seed(counting)),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
    }

    /// Two processes may each deal a table's next deal (the one that ended the last deal, and
    /// one that took the table over between deals); each deals from a seed of its own, and
    /// one stores its dealing first. The other's copy then keeps no game: nothing may show
    /// its hands or play into them (a press that waited for that copy would find the log's
    /// number unchanged and be played there), and the table is read afresh when next used.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dealing_that_lost_to_a_stored_deal_is_never_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lost-deal.db");
        let store = Store::open_sqlite(path.to_str().unwrap()).await.unwrap();
        let config = crate::HostConfig {
            bot_budget_ms: 10,
            seeds: std::sync::Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
            ..crate::HostConfig::default()
        };
        let (host, _events) = Host::new(store.clone(), config);
        let g = ChatRef::new(Platform::Telegram, "group-1", "g");
        let req = |who: &str, command: Command| Request {
            chat: g.clone(),
            user: User {
                id: who.into(),
                name: who.to_uppercase(),
                admin: false,
            },
            command,
        };
        let new = Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        };
        host.handle(req("anna", new)).await;
        host.handle(req("bruno", Command::Join)).await;
        let bot = Command::AddBot {
            level: stikis_core::ai::Level::Basic,
        };
        host.handle(req("anna", bot)).await;
        host.handle(req("anna", Command::Start)).await;
        let table = host.running.ids()[0];
        // Anna and Bruno play (a card, or else a decision) until the third deal is dealt; a
        // card already picked to bury is skipped, as pressing it again would unpick it.
        for _ in 0..1_000 {
            if store.table_log(table).await.unwrap().deals.len() >= 3 {
                break;
            }
            for who in ["anna", "bruno"] {
                let v = host.table_view(table, Some(who)).await.unwrap().unwrap();
                let card = v.hand.iter().filter(|c| !c.picked).find_map(|c| c.token.clone());
                let decision = v.buttons.iter().flatten().map(|b| b.token.clone()).next();
                if let Some(token) = card.or(decision) {
                    host.handle(req(who, Command::press(token))).await;
                    break;
                }
            }
        }
        let log = store.table_log(table).await.unwrap();
        let third = log
            .deals
            .iter()
            .find(|d| d.deal_no == 3)
            .expect("deal 3 is stored");
        let last = log
            .actions
            .iter()
            .find(|a| a.seq == third.first_seq - 1)
            .expect("deal 2's last move");
        // A copy as another process had it: deal 2 ended in its memory, deal 3 not dealt.
        let row = store.table(table).await.unwrap().unwrap();
        let mut live = Live::load_until(&store, row, CommunitySettings::default(), last.seq - 1)
            .await
            .unwrap();
        let ended = live.game.as_mut().unwrap().apply(&last.payload).unwrap();
        assert!(ended.is_some(), "the move ends deal 2");
        assert!(!live.game.as_ref().unwrap().in_deal());

        let mut out = Outbox::default();
        let dealt = live
            .start_deal(&store, Seed::from_u64(0xdead_beef), &mut out)
            .await;
        assert!(matches!(dealt, Err(HostError::Conflict)), "{dealt:?}");
        assert!(
            live.game.is_none(),
            "the losing dealing is not kept where a waiting press or a render would find it"
        );
        assert!(out.0.is_empty(), "nothing of it is announced: {out:?}");
        let stored = store.table_log(table).await.unwrap();
        let kept = stored.deals.iter().find(|d| d.deal_no == 3).unwrap();
        assert_eq!(kept.seed_hex, third.seed_hex, "the stored deal stands");
    }
}
