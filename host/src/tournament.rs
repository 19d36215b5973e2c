//! Latvian-format Zole tournaments on the host (docs/tournaments.md): entries on a
//! tournament message in the chat, round 1 seated by a committed draw, later rounds by the
//! standings, each table an ordinary hosted table in a slot of the chat, big points and
//! standings counted from the tables' records alone (`stikis_core::tournament::recount`, the
//! same count `stikis tournament verify` makes), and the next round opened when the last
//! table of a round finishes.
//!
//! Everything a tournament is lives in the database: its entrants, each round's seating
//! (decided once) and its tables. A restarted host resumes the tables as any other and then
//! moves every running tournament on from what is stored (`Host::recover`).

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Arc, Mutex};

use stikis_core::tournament::{self as count, RoundRecord, Standing, TableRecord, TournamentRecord};
use stikis_core::Seed;
use tokio::sync::Mutex as AsyncMutex;

use crate::config::HostConfig;
use crate::games::{computer_name, default_rules, new_game};
use crate::i18n::{t, Arg, Lang};
use crate::outbox::{Button, Out, Outbox, Request, TournamentVerb};
use crate::store::{
    ChatRef, Entrant, EntryRefused, NewTable, NewTournament, Occupant, Store, StoreError, TableRow,
    TableStatus, TournamentRow, TournamentSlot, TournamentStatus,
};
use crate::table::{commitment, level_code, HostError, Live, Shared};
use crate::token::Token;

/// The game of every tournament: the Latvian format is a Zole format.
pub const GAME: &str = "zole";

/// What `/tournament` asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentOptions {
    pub rules: Option<serde_json::Value>,
    pub rounds: usize,
    pub deals: Option<usize>,
    pub minutes: Option<u32>,
    pub turn: Option<u32>,
    pub computers: bool,
}

fn reply(text: String) -> Outbox {
    let mut out = Outbox::default();
    out.reply(text);
    out
}

fn corrupt(e: impl std::fmt::Display) -> HostError {
    HostError::Store(StoreError::Corrupt(e.to_string()))
}

/// What a tournament asks of the host around it: the database, the set-up, the languages of
/// its chat, and its running tables (to open, start, drive, stop and close them). The `Host`
/// answers; the tournaments part owns only its own state (`Tournaments`).
pub(crate) trait TournamentHost: Send + Sync + 'static {
    fn store(&self) -> &Store;
    fn config(&self) -> &HostConfig;
    fn tournaments(&self) -> &Tournaments;
    fn community_lang(&self, chat: &ChatRef) -> impl Future<Output = Lang> + Send;
    fn user_lang(&self, chat: &ChatRef, user: &str) -> impl Future<Output = Lang> + Send;
    /// The table with this id, loaded from the database if this process has not seen it.
    fn table(&self, id: i64) -> impl Future<Output = Result<Option<Shared>, HostError>> + Send;
    /// Keeps a table this process has just made.
    fn keep_table(&self, id: i64, live: Live) -> Shared;
    /// Deals a filled table's first deal.
    fn start(self: &Arc<Self>, live: &mut Live) -> impl Future<Output = Result<Outbox, HostError>> + Send;
    /// Lets the computer players of a table move while it is theirs to.
    fn drive(self: &Arc<Self>, live: &mut Live) -> impl Future<Output = Result<Outbox, HostError>> + Send;
    /// One move of a table's computer player (None: none is due).
    fn step(self: &Arc<Self>, id: i64) -> impl Future<Output = Result<Option<Outbox>, HostError>> + Send;
    fn render_stopped(&self, live: &Live, by: &str, out: &mut Outbox) -> impl Future<Output = ()> + Send;
    /// Closes a table (stopped or finished).
    fn close(
        &self,
        live: &mut Live,
        status: TableStatus,
        text: String,
        out: &mut Outbox,
    ) -> impl Future<Output = Result<(), HostError>> + Send;
    /// Shows an outbox no request asked for.
    fn publish(&self, out: Outbox);
}

/// The tournaments part's own state.
#[derive(Default)]
pub(crate) struct Tournaments {
    /// One at a time per tournament in this process: moving a tournament on.
    locks: Mutex<HashMap<i64, Arc<AsyncMutex<()>>>>,
    /// Tournament tables of computer players only that a task of this process is playing out.
    playing_out: Mutex<HashSet<i64>>,
}

impl Tournaments {
    fn lock(&self, id: i64) -> Arc<AsyncMutex<()>> {
        self.locks
            .lock()
            .expect("tournament locks")
            .entry(id)
            .or_default()
            .clone()
    }

    /// `/tournament`: opens one for entries (admins only).
    pub(crate) async fn new_tournament<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        req: &Request,
        o: &TournamentOptions,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        if !req.user.admin {
            return Ok(reply(t(lang, "tournament-admin-only", &[])));
        }
        if o.rounds == 0
            || o.deals == Some(0)
            || o.minutes == Some(0)
            || (o.deals.is_none() && o.minutes.is_none())
        {
            return Ok(reply(t(lang, "tournament-bad-options", &[])));
        }
        let rules = o.rules.clone().unwrap_or_else(|| default_rules(GAME));
        // Bad rules are refused before anything is stored.
        new_game(GAME, &rules, 4)?;
        let seed = (host.config().seeds)(0, 0);
        let row = match host
            .store()
            .create_tournament(&NewTournament {
                chat: req.chat.clone(),
                creator: req.user.id.clone(),
                rules,
                rounds: o.rounds,
                deals_per_round: o.deals,
                round_minutes: o.minutes,
                turn_secs: o.turn,
                computers: o.computers,
                draw_seed: seed.to_string(),
                commitment: commitment(&seed),
            })
            .await
        {
            Ok(r) => r,
            Err(StoreError::ChatBusy) => return Ok(reply(t(lang, "tournament-exists", &[]))),
            Err(e) => return Err(e.into()),
        };
        let mut out = Outbox::default();
        out.reply(t(
            lang,
            "tournament-created",
            &[("name", req.user.name.clone().into())],
        ));
        self.render_tournament(host, &row, &mut out).await?;
        Ok(out)
    }

    /// A tournament button or `/tournament <verb>`: `id` is the button's tournament, None for
    /// the chat's newest.
    pub(crate) async fn tournament_command<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        req: &Request,
        id: Option<i64>,
        verb: TournamentVerb,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let row = match id {
            Some(id) => host.store().tournament(id).await?,
            None => host.store().latest_tournament(&req.chat).await?,
        };
        let Some(tour) = row else {
            return Ok(reply(t(lang, "tournament-none", &[])));
        };
        let lock = self.lock(tour.id);
        let guard = lock.lock().await;
        // Read again under the lock: a round may have moved on meanwhile.
        let tour = host.store().tournament(tour.id).await?.unwrap_or(tour);
        let user = &req.user;
        let manages = user.admin || user.id == tour.creator;
        let mut out = Outbox::default();
        use TournamentStatus::*;
        use TournamentVerb::*;
        match verb {
            Record => {
                let (rec, _) = self.tournament_record(host, &tour).await?;
                if rec.rounds.is_empty() {
                    out.reply(t(lang, "tournament-no-round", &[]));
                } else {
                    out.push(Out::File {
                        chat: tour.chat.clone(),
                        name: format!("stikis-tournament-{}.json", tour.id),
                        content: serde_json::to_string_pretty(&rec).unwrap_or_default(),
                    });
                }
                return Ok(out);
            }
            Standings => {
                let text = self.tournament_text(host, &tour).await?;
                out.reply(text);
                return Ok(out);
            }
            _ if !tour.status.is_open() => {
                out.reply(t(lang, "tournament-over", &[]));
                return Ok(out);
            }
            Join => {
                let name = self.entry_name(host, &tour, &user.name, Some(&user.id)).await?;
                let occupant = Occupant::Human {
                    user_id: user.id.clone(),
                };
                match host.store().enter(tour.id, &name, &occupant).await? {
                    Ok(()) => {
                        let key = if tour.status == Registration {
                            "tournament-joined"
                        } else {
                            "tournament-late"
                        };
                        out.reply(t(lang, key, &[("name", name.into())]));
                    }
                    Err(EntryRefused::AlreadyIn) => out.reply(t(lang, "tournament-already-in", &[])),
                    Err(EntryRefused::NameTaken) => {
                        out.reply(t(lang, "tournament-name-taken", &[("name", name.into())]))
                    }
                }
            }
            Leave => {
                let entrants = host.store().entrants(tour.id).await?;
                let Some(me) = entrants.iter().find(|e| {
                    !e.withdrawn && matches!(&e.occupant, Occupant::Human { user_id } if *user_id == user.id)
                }) else {
                    out.reply(t(lang, "tournament-not-in", &[]));
                    return Ok(out);
                };
                let before_start = tour.status == Registration;
                host.store().withdraw(tour.id, me.entry, before_start).await?;
                let mid_round = if before_start {
                    false
                } else {
                    self.hand_seat_over(host, &tour, &user.id, &mut out).await?
                };
                let key = if mid_round {
                    "tournament-left-mid-round"
                } else {
                    "tournament-left"
                };
                out.push(Out::Post {
                    chat: tour.chat.clone(),
                    text: t(
                        host.community_lang(&tour.chat).await,
                        key,
                        &[("name", me.name.clone().into())],
                    ),
                    once: None,
                });
                out.reply("✓");
            }
            AddComputer => {
                if !manages {
                    out.reply(t(lang, "tournament-admin-only", &[]));
                    return Ok(out);
                }
                if !tour.computers {
                    out.reply(t(lang, "tournament-no-computers", &[]));
                    return Ok(out);
                }
                if tour.status != Registration {
                    out.reply(t(lang, "tournament-running", &[]));
                    return Ok(out);
                }
                let clang = host.community_lang(&tour.chat).await;
                let entrants = host.store().entrants(tour.id).await?;
                let mut n = entrants
                    .iter()
                    .filter(|e| matches!(e.occupant, Occupant::Computer { .. }))
                    .count() as u8;
                let name = loop {
                    let name = computer_name(clang, n);
                    if !entrants.iter().any(|e| e.name == name) {
                        break name;
                    }
                    n += 1;
                };
                let occupant = Occupant::Computer {
                    level: level_code(stikis_core::ai::Level::Basic),
                };
                if let Err(e) = host.store().enter(tour.id, &name, &occupant).await? {
                    tracing::warn!(tournament = tour.id, ?e, "a computer player's entry was refused");
                }
                out.reply(t(lang, "tournament-joined", &[("name", name.into())]));
            }
            Start => {
                if !manages {
                    out.reply(t(lang, "tournament-admin-only", &[]));
                    return Ok(out);
                }
                if tour.status != Registration {
                    out.reply(t(lang, "tournament-running", &[]));
                    return Ok(out);
                }
                let count = host.store().entrants(tour.id).await?.len();
                if count < 3 {
                    out.reply(t(lang, "tournament-too-few", &[("count", Arg::from(count))]));
                    return Ok(out);
                }
                if !host
                    .store()
                    .set_tournament_status(tour.id, &[Registration], Running)
                    .await?
                {
                    out.reply(t(lang, "tournament-running", &[]));
                    return Ok(out);
                }
                let clang = host.community_lang(&tour.chat).await;
                out.push(Out::Post {
                    chat: tour.chat.clone(),
                    text: t(
                        clang,
                        "tournament-started",
                        &[
                            ("count", Arg::from(count)),
                            ("seed", tour.draw_seed.clone().into()),
                        ],
                    ),
                    once: None,
                });
                out.reply("✓");
                drop(guard);
                out.extend(self.advance(host, tour.id).await?);
                if let Some(tour) = host.store().tournament(tour.id).await? {
                    self.render_tournament(host, &tour, &mut out).await?;
                }
                return Ok(out);
            }
            Pause | Resume | Cancel if !manages => out.reply(t(lang, "tournament-admin-only", &[])),
            Pause => {
                if host
                    .store()
                    .set_tournament_status(tour.id, &[Running], Paused)
                    .await?
                {
                    out.push(Out::Post {
                        chat: tour.chat.clone(),
                        text: t(
                            host.community_lang(&tour.chat).await,
                            "tournament-paused",
                            &[("name", user.name.clone().into())],
                        ),
                        once: None,
                    });
                    out.reply("✓");
                } else {
                    out.reply(t(lang, "tournament-over", &[]));
                }
            }
            Resume => {
                if !host
                    .store()
                    .set_tournament_status(tour.id, &[Paused], Running)
                    .await?
                {
                    out.reply(t(lang, "tournament-not-paused", &[]));
                    return Ok(out);
                }
                out.push(Out::Post {
                    chat: tour.chat.clone(),
                    text: t(
                        host.community_lang(&tour.chat).await,
                        "tournament-resumed",
                        &[("name", user.name.clone().into())],
                    ),
                    once: None,
                });
                out.reply("✓");
                drop(guard);
                out.extend(self.advance(host, tour.id).await?);
                if let Some(tour) = host.store().tournament(tour.id).await? {
                    self.render_tournament(host, &tour, &mut out).await?;
                }
                return Ok(out);
            }
            Cancel => {
                let clang = host.community_lang(&tour.chat).await;
                let text = t(
                    clang,
                    "tournament-cancelled",
                    &[("name", user.name.clone().into())],
                );
                let Some(post) = end_posting(
                    host.store(),
                    &tour,
                    &[Registration, Running, Paused],
                    Cancelled,
                    text.clone(),
                )
                .await?
                else {
                    out.reply(t(lang, "tournament-over", &[]));
                    return Ok(out);
                };
                for row in host.store().tournament_tables(tour.id).await? {
                    if !row.status.is_open() {
                        continue;
                    }
                    if let Some(shared) = host.table(row.id).await? {
                        let mut live = shared.lock().await;
                        host.render_stopped(&live, &user.name, &mut out).await;
                        host.close(&mut live, TableStatus::Stopped, text.clone(), &mut out)
                            .await?;
                    }
                }
                out.push(post);
                out.reply("✓");
            }
        }
        let tour = host.store().tournament(tour.id).await?.unwrap_or(tour);
        self.render_tournament(host, &tour, &mut out).await?;
        Ok(out)
    }

    /// A person who withdraws mid-round hands their seat to a computer player, who finishes
    /// the round for them (it counts). True if they were playing.
    async fn hand_seat_over<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        user: &str,
        out: &mut Outbox,
    ) -> Result<bool, HostError> {
        for row in host.store().tournament_tables(tour.id).await? {
            if row.status != TableStatus::Running {
                continue;
            }
            let Some(shared) = host.table(row.id).await? else {
                continue;
            };
            let mut live = shared.lock().await;
            let Some(seat) = live.seat_of(user) else { continue };
            host.store().set_away(live.id(), seat, true).await?;
            live.seats = host.store().seats(live.id()).await?;
            out.extend(host.drive(&mut live).await?);
            return Ok(true);
        }
        Ok(false)
    }

    /// A name unique in the tournament: the person's own, or with " (2)", " (3)"... when
    /// somebody else entered under it. A person entered already keeps theirs.
    async fn entry_name<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        name: &str,
        user: Option<&str>,
    ) -> Result<String, HostError> {
        let entrants = host.store().entrants(tour.id).await?;
        if let Some(me) = entrants
            .iter()
            .find(|e| matches!(&e.occupant, Occupant::Human { user_id } if Some(user_id.as_str()) == user))
        {
            return Ok(me.name.clone());
        }
        let base = if name.trim().is_empty() { "?" } else { name.trim() };
        let mut candidate = base.to_string();
        let mut n = 2;
        while entrants.iter().any(|e| e.name == candidate) {
            candidate = format!("{base} ({n})");
            n += 1;
        }
        Ok(candidate)
    }

    /// Moves a tournament on from what is stored: opens round 1, finishes opening a round a
    /// crash cut short, or, when every table of the round has finished, counts it and opens
    /// the next round (or ends the tournament). Safe to call at any time, any number of times.
    pub(crate) async fn advance<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        id: i64,
    ) -> Result<Outbox, HostError> {
        let lock = self.lock(id);
        let _guard = lock.lock().await;
        let mut out = Outbox::default();
        let Some(tour) = host.store().tournament(id).await? else {
            return Ok(out);
        };
        if !matches!(tour.status, TournamentStatus::Running | TournamentStatus::Paused) {
            return Ok(out);
        }
        let rounds = host.store().rounds(id).await?;
        let Some((round, seating, started)) = rounds.last().cloned() else {
            if tour.status == TournamentStatus::Running {
                self.start_round(host, &tour, 1, &mut out).await?;
            }
            return Ok(out);
        };
        let tables: Vec<TableRow> = round_tables(&host.store().tournament_tables(id).await?, round);
        if tables.len() < seating.len() || tables.iter().any(|r| r.status == TableStatus::Lobby) {
            self.open_round(host, &tour, round, &seating, started, &mut out)
                .await?;
            return Ok(out);
        }
        if tables.iter().any(|r| r.status == TableStatus::Running) {
            // Playing. Tables of computer players only play on in tasks of their own (also
            // after a restart).
            for r in tables.iter().filter(|r| r.status == TableStatus::Running) {
                if let Some(shared) = host.table(r.id).await? {
                    let live = shared.lock().await;
                    if live
                        .seats
                        .iter()
                        .all(|s| matches!(s.occupant, Occupant::Computer { .. }))
                    {
                        self.spawn_play_out(host, r.id);
                    }
                }
            }
            return Ok(out);
        }
        // Every table of the round has finished.
        if round >= tour.rounds {
            let lang = host.community_lang(&tour.chat).await;
            let (rec, _) = self.tournament_record(host, &tour).await?;
            let entrants = host.store().entrants(id).await?;
            let mut text = t(lang, "tournament-finished", &[]);
            text.push('\n');
            text.push_str(&standing_lines(lang, &rec.standings, &entrants).join("\n"));
            let from = [TournamentStatus::Running, TournamentStatus::Paused];
            out.0
                .extend(end_posting(host.store(), &tour, &from, TournamentStatus::Finished, text).await?);
        } else if tour.status == TournamentStatus::Running {
            self.start_round(host, &tour, round + 1, &mut out).await?;
        }
        // The standings after the round, under the tournament's state now: the next round
        // on, paused before it, or over.
        let tour = host.store().tournament(id).await?.unwrap_or(tour);
        self.render_tournament(host, &tour, &mut out).await?;
        Ok(out)
    }

    /// Seats round `round` (from the draw, or the standings) and opens its tables.
    async fn start_round<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        round: usize,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let (rec, _) = self.tournament_record(host, tour).await?;
        let entrants = host.store().entrants(tour.id).await?;
        let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
        let plays = |p: &str| entrants.iter().any(|e| e.name == p && !e.withdrawn);
        let seed: Seed = tour
            .draw_seed
            .parse()
            .map_err(|_| corrupt("a tournament's draw seed"))?;
        let order = count::round_order(round, &names, &rec.standings, seed, &plays);
        let Ok(seating) = count::seat(&order) else {
            // Fewer than 3 players are left: the tournament ends with the rounds played.
            let lang = host.community_lang(&tour.chat).await;
            let mut text = t(lang, "tournament-finished", &[]);
            text.push('\n');
            text.push_str(&standing_lines(lang, &rec.standings, &entrants).join("\n"));
            let from = [TournamentStatus::Running];
            out.0
                .extend(end_posting(host.store(), tour, &from, TournamentStatus::Finished, text).await?);
            return Ok(());
        };
        let seating = host.store().decide_round(tour.id, round, &seating).await?;
        let started = host
            .store()
            .rounds(tour.id)
            .await?
            .into_iter()
            .find(|r| r.0 == round)
            .map_or_else(crate::store::now_ms, |r| r.2);
        let lang = host.community_lang(&tour.chat).await;
        let mut lines = vec![t(
            lang,
            "tournament-round",
            &[("round", Arg::from(round)), ("rounds", Arg::from(tour.rounds))],
        )];
        for (i, table) in seating.iter().enumerate() {
            lines.push(t(
                lang,
                "tournament-table-line",
                &[("table", Arg::from(i + 1)), ("names", table.join(", ").into())],
            ));
        }
        out.push(Out::Post {
            chat: tour.chat.clone(),
            text: lines.join("\n"),
            once: None,
        });
        self.open_round(host, tour, round, &seating, started, out).await
    }

    /// Opens (or finishes opening) the tables of a decided round and starts them. Tables
    /// already running are left as they are.
    async fn open_round<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        round: usize,
        seating: &[Vec<String>],
        started_ms: i64,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let entrants = host.store().entrants(tour.id).await?;
        let mut settings = host
            .store()
            .community_settings(&tour.chat.community_ref())
            .await?;
        if tour.turn_secs.is_some() {
            settings.turn_limit_secs = tour.turn_secs;
        }
        for (i, names) in seating.iter().enumerate() {
            let slot = TournamentSlot {
                tournament: tour.id,
                slot: TournamentSlot::slot_name(tour.id, round, i + 1),
                deal_limit: tour.deals_per_round,
                deadline_ms: tour.round_minutes.map(|m| started_ms + i64::from(m) * 60_000),
            };
            let row = host
                .store()
                .tournament_table(
                    &NewTable {
                        chat: tour.chat.clone(),
                        game: GAME.into(),
                        rules: tour.rules.clone(),
                        seats: names.len(),
                        creator: tour.creator.clone(),
                    },
                    &slot,
                )
                .await?;
            if row.status != TableStatus::Lobby {
                continue;
            }
            let taken = host.store().seats(row.id).await?;
            for (seat, name) in names.iter().enumerate() {
                let seat = seat as u8;
                if taken.iter().any(|s| s.seat == seat) {
                    continue;
                }
                let Some(e) = entrants.iter().find(|e| &e.name == name) else {
                    return Err(corrupt(format!("{name} is seated but not entered")));
                };
                match host.store().take_seat(row.id, seat, name, &e.occupant).await {
                    Ok(()) | Err(StoreError::SeatTaken { .. }) | Err(StoreError::AlreadySeated { .. }) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            let seats = host.store().seats(row.id).await?;
            for s in &seats {
                if let Occupant::Human { user_id } = &s.occupant {
                    let ulang = host.user_lang(&tour.chat, user_id).await;
                    out.push(Out::Private {
                        user: user_id.clone(),
                        chat: tour.chat.clone(),
                        key: crate::msgkey::MsgKey::TournamentSeat {
                            id: tour.id,
                            round,
                            table: i + 1,
                            seat: s.seat,
                        }
                        .into(),
                        text: t(
                            ulang,
                            "tournament-your-seat",
                            &[
                                ("round", Arg::from(round)),
                                ("table", Arg::from(i + 1)),
                                ("seat", Arg::from(usize::from(s.seat) + 1)),
                            ],
                        ),
                        buttons: Vec::new(),
                        // Written once, never changed.
                        version: 0,
                        delivery: crate::outbox::HandDelivery::Show,
                    });
                }
            }
            let id = row.id;
            let shared = host.keep_table(id, Live::new(row, seats, names.len(), settings.clone()));
            let mut live = shared.lock().await;
            if live.game.is_none() {
                out.extend(host.start(&mut live).await?);
            }
        }
        Ok(())
    }

    /// Moves the tournament on in a task of its own (a table of it finished); what it shows
    /// goes out with the timers' outboxes.
    pub(crate) fn spawn_advance<H: TournamentHost>(&self, host: &Arc<H>, id: i64) {
        let host = Arc::clone(host);
        tokio::spawn(async move {
            match host.tournaments().advance(&host, id).await {
                Ok(out) if !out.0.is_empty() => {
                    host.publish(out);
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(tournament = id, error = %e, "a tournament could not move on"),
            }
        });
    }

    /// Plays a tournament table of computer players out, move by move, in a task of its own
    /// (once per table in this process).
    pub(crate) fn spawn_play_out<H: TournamentHost>(&self, host: &Arc<H>, id: i64) {
        if !self.playing_out.lock().expect("play-out set").insert(id) {
            return;
        }
        let host = Arc::clone(host);
        tokio::spawn(async move {
            let mut conflicts = 0;
            loop {
                match host.step(id).await {
                    Ok(Some(out)) => {
                        host.publish(out);
                    }
                    Ok(None) => break,
                    // Another process moved first; this one reloads and goes on.
                    Err(HostError::Conflict) if conflicts < 100 => conflicts += 1,
                    Err(e) => {
                        tracing::warn!(table = id, error = %e, "a computer table stopped playing");
                        break;
                    }
                }
                tokio::task::yield_now().await;
            }
            host.tournaments()
                .playing_out
                .lock()
                .expect("play-out set")
                .remove(&id);
        });
    }

    /// The tournament's record: its entrants, the draw, every finished round's tables with
    /// their game records (each deal with its seed), and the standings re-counted from them.
    /// Also the number of rounds that are finished.
    pub(crate) async fn tournament_record<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
    ) -> Result<(TournamentRecord, usize), HostError> {
        tournament_record(host.store(), tour).await
    }

    /// The tournament message: what it is, the draw's commitment, who has entered, and the
    /// standings once a round has finished.
    async fn tournament_text<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
    ) -> Result<String, HostError> {
        let lang = host.community_lang(&tour.chat).await;
        let format = match (tour.deals_per_round, tour.round_minutes) {
            (Some(d), _) => t(lang, "tournament-format-deals", &[("deals", Arg::from(d))]),
            (None, m) => t(
                lang,
                "tournament-format-minutes",
                &[("minutes", Arg::from(m.unwrap_or(0)))],
            ),
        };
        let format = match tour.turn_secs {
            Some(secs) => format!(
                "{format}{}",
                t(lang, "tournament-format-turn", &[("seconds", Arg::from(secs))])
            ),
            None => format,
        };
        let entrants = host.store().entrants(tour.id).await?;
        let mut lines = vec![
            self.tournament_header(host, tour, lang, format).await?,
            // Short, as a table message shows its deal's: the whole SHA-256 is in the record
            // and on the web page.
            t(
                lang,
                "tournament-commitment",
                &[("commitment", crate::table::fingerprint(&tour.commitment).into())],
            ),
        ];
        let (rec, done) = self.tournament_record(host, tour).await?;
        if done == 0 {
            lines.push(if entrants.is_empty() {
                t(lang, "tournament-nobody", &[])
            } else {
                let names: Vec<String> = entrants.iter().map(|e| mark_withdrawn(lang, e)).collect();
                t(
                    lang,
                    "tournament-entered",
                    &[
                        ("count", Arg::from(entrants.len())),
                        ("names", names.join(", ").into()),
                    ],
                )
            });
            if tour.status != TournamentStatus::Registration {
                lines.push(t(lang, "tournament-standings-none", &[]));
            }
        } else {
            lines.push(t(
                lang,
                "tournament-standings",
                &[("round", Arg::from(done)), ("rounds", Arg::from(tour.rounds))],
            ));
            lines.extend(standing_lines(lang, &rec.standings, &entrants));
            let waiting: Vec<String> = entrants
                .iter()
                .filter(|e| !rec.standings.iter().any(|s| s.player == e.name))
                .map(|e| mark_withdrawn(lang, e))
                .collect();
            if !waiting.is_empty() {
                lines.push(t(
                    lang,
                    "tournament-entered",
                    &[
                        ("count", Arg::from(waiting.len())),
                        ("names", waiting.join(", ").into()),
                    ],
                ));
            }
        }
        let link = crate::links::web_line(
            host.store(),
            host.config(),
            &tour.chat.community_ref(),
            lang,
            "web-see-tournament",
            |base, token| crate::links::tournament_url(base, token, tour.id),
        )
        .await;
        lines.extend(link);
        Ok(lines.join("\n"))
    }

    /// The tournament message's first line: what the tournament is, and where it stands (entries
    /// open, round k of n on or paused, over, cancelled).
    async fn tournament_header<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        lang: Lang,
        format: String,
    ) -> Result<String, HostError> {
        let what = [("rounds", Arg::from(tour.rounds)), ("format", format.into())];
        if tour.status == TournamentStatus::Registration {
            return Ok(t(lang, "tournament-registration", &what));
        }
        // The round being played: the last one seated (the first, before it is).
        let round = host.store().rounds(tour.id).await?.last().map_or(1, |r| r.0);
        let at = [("round", Arg::from(round)), ("rounds", Arg::from(tour.rounds))];
        let state = match tour.status {
            TournamentStatus::Registration | TournamentStatus::Running => {
                t(lang, "tournament-state-round", &at)
            }
            TournamentStatus::Paused => t(lang, "tournament-state-paused", &at),
            TournamentStatus::Finished => t(lang, "tournament-state-finished", &[]),
            TournamentStatus::Cancelled => t(lang, "tournament-state-cancelled", &[]),
        };
        Ok(format!("{} {state}", t(lang, "tournament-title", &what)))
    }

    /// Draws (or redraws) the tournament message, with the buttons its state allows.
    async fn render_tournament<H: TournamentHost>(
        &self,
        host: &Arc<H>,
        tour: &TournamentRow,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let lang = host.community_lang(&tour.chat).await;
        let text = self.tournament_text(host, tour).await?;
        let b = |key: &str, verb: TournamentVerb| Button {
            label: t(lang, key, &[]),
            token: Token::new(tour.id, 0, format!("T:{}", verb.code()))
                .encode()
                .unwrap_or_default(),
            disabled: false,
            card: None,
        };
        use TournamentVerb::*;
        let buttons = match tour.status {
            TournamentStatus::Registration => {
                let mut second = vec![b("button-start", Start)];
                if tour.computers {
                    second.insert(0, b("button-add-bot", AddComputer));
                }
                vec![
                    vec![b("button-join", Join), b("button-leave", Leave)],
                    second,
                    vec![b("button-cancel", Cancel)],
                ]
            }
            TournamentStatus::Running => vec![
                vec![b("button-join", Join), b("button-leave", Leave)],
                vec![b("button-pause", Pause), b("button-cancel", Cancel)],
            ],
            TournamentStatus::Paused => vec![
                vec![b("button-join", Join), b("button-leave", Leave)],
                vec![b("button-resume", Resume), b("button-cancel", Cancel)],
            ],
            TournamentStatus::Finished | TournamentStatus::Cancelled => Vec::new(),
        };
        out.push(Out::Public {
            chat: tour.chat.clone(),
            key: crate::msgkey::MsgKey::Tournament { id: tour.id }.into(),
            text,
            buttons,
            // A tournament's message is edited by the process that moves it on; its renders
            // are not ordered (the last one shown stays).
            version: 0,
        });
        Ok(())
    }

    /// Every running tournament moved on after a restart.
    pub(crate) async fn recover_tournaments<H: TournamentHost>(
        &self,
        host: &Arc<H>,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        for tour in host.store().running_tournaments().await? {
            match self.advance(host, tour.id).await {
                Ok(o) => out.extend(o),
                Err(e) => tracing::warn!(tournament = tour.id, error = %e, "could not resume a tournament"),
            }
        }
        Ok(out)
    }
}

/// A tournament's record as far as it is played: its finished rounds' tables with their game
/// records (each deal with its seed), and the standings re-counted from them. Also the number
/// of rounds that are finished.
pub async fn tournament_record(
    store: &Store,
    tour: &TournamentRow,
) -> Result<(TournamentRecord, usize), HostError> {
    let entrants = store.entrants(tour.id).await?;
    let all_tables = store.tournament_tables(tour.id).await?;
    let mut rounds = Vec::new();
    for (round, seating, _) in store.rounds(tour.id).await? {
        let tables = round_tables(&all_tables, round);
        if tables.len() < seating.len() || tables.iter().any(|r| r.status != TableStatus::Finished) {
            break;
        }
        let mut records = Vec::new();
        for row in tables {
            let log = store.table_log(row.id).await?;
            let mut record = log.record()?;
            for (d, row) in record.deals.iter_mut().zip(&log.deals) {
                d["seed"] = serde_json::Value::String(row.seed_hex.clone());
            }
            records.push(TableRecord {
                players: record.players.clone(),
                replaced: log
                    .seats
                    .iter()
                    .filter(|s| s.away && matches!(s.occupant, Occupant::Human { .. }))
                    .map(|s| s.name.clone())
                    .collect(),
                record,
            });
        }
        rounds.push(RoundRecord { tables: records });
    }
    let done = rounds.len();
    let mut rec = TournamentRecord {
        name: format!("Zole tournament {}", tour.id),
        game: GAME.into(),
        rules: tour.rules.clone(),
        deals_per_round: tour.deals_per_round,
        players: entrants.iter().map(|e| e.name.clone()).collect(),
        draw_seed: tour.draw_seed.clone(),
        draw_commitment: tour.commitment.clone(),
        rounds,
        standings: Vec::new(),
    };
    rec.standings = count::recount(&rec).map_err(corrupt)?;
    Ok((rec, done))
}

/// The tables of round `round`, table 1 first.
pub fn round_tables(all: &[TableRow], round: usize) -> Vec<TableRow> {
    let mut v: Vec<(usize, TableRow)> = all
        .iter()
        .filter_map(|r| {
            let (rd, tb) = r.tournament.as_ref()?.round_table()?;
            (rd == round).then(|| (tb, r.clone()))
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

fn mark_withdrawn(lang: Lang, e: &Entrant) -> String {
    if e.withdrawn {
        format!("{} {}", e.name, t(lang, "tournament-withdrawn", &[]))
    } else {
        e.name.clone()
    }
}

/// The standings as lines: rank, name, big points, plus/minus, rounds played.
fn standing_lines(lang: Lang, standings: &[Standing], entrants: &[Entrant]) -> Vec<String> {
    standings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = match entrants.iter().find(|e| e.name == s.player) {
                Some(e) => mark_withdrawn(lang, e),
                None => s.player.clone(),
            };
            t(
                lang,
                "tournament-standing-line",
                &[
                    ("rank", Arg::from(i + 1)),
                    ("name", name.into()),
                    ("big", Arg::from(s.big_points)),
                    ("pm", format!("{:+}", s.plus_minus).into()),
                    ("played", Arg::from(i64::from(s.rounds))),
                ],
            )
        })
        .collect()
}

/// `/tournament` as both bots read it. `/tournament [rounds] [deals] [Nm] [preset] [bots]`
/// opens one (3 rounds of 24 deals unless told; `45m` makes rounds of 45 minutes instead of a
/// number of deals; `bots` lets the organiser enter computer players); `/tournament record`,
/// `standings`, `join`, `leave`, `start`, `pause`, `resume` or `cancel` acts on the chat's.
/// None when the words make no sense (answer with `tournament-bad-options`).
pub fn parse_command(args: &[&str]) -> Option<crate::outbox::Command> {
    use crate::outbox::Command;
    use TournamentVerb::*;
    if let [word] = args {
        let verb = match word.to_ascii_lowercase().as_str() {
            "record" => Some(Record),
            "standings" | "table" => Some(Standings),
            "join" => Some(Join),
            "leave" | "withdraw" => Some(Leave),
            "start" | "go" => Some(Start),
            "pause" => Some(Pause),
            "resume" => Some(Resume),
            "cancel" => Some(Cancel),
            _ => None,
        };
        if let Some(v) = verb {
            return Some(Command::Tournament(v));
        }
    }
    let mut numbers = Vec::new();
    let (mut minutes, mut rules, mut computers, mut turn) = (None, None, false, None);
    for a in args {
        let a = a.to_ascii_lowercase();
        if let Ok(n) = a.parse::<usize>() {
            numbers.push(n);
        } else if let Some(m) = a.strip_suffix('m').and_then(|m| m.parse::<u32>().ok()) {
            minutes = Some(m);
        } else if let Some(t) = a.strip_suffix('s').and_then(|t| t.parse::<u32>().ok()) {
            turn = Some(t);
        } else if matches!(a.as_str(), "bots" | "computers") {
            computers = true;
        } else if rules.is_none() {
            rules = Some(serde_json::Value::String(a));
        } else {
            return None;
        }
    }
    let (rounds, deals) = match numbers.as_slice() {
        [] => (3, (minutes.is_none()).then_some(24)),
        [r] => (*r, (minutes.is_none()).then_some(24)),
        [r, d] => (*r, Some(*d)),
        _ => return None,
    };
    if rounds == 0 || rounds > 20 || deals == Some(0) || minutes == Some(0) || turn == Some(0) {
        return None;
    }
    Some(Command::NewTournament {
        rules,
        rounds,
        deals,
        minutes,
        turn,
        computers,
    })
}

/// Ends `tour` (from one of `from` to `to`) with its end post `text` kept in the same
/// transaction (`crate::store::DuePost`, looked for by the sweep if it never goes out), and
/// returns that post, under its key; None (nothing changed) when another press or process
/// moved the tournament first.
async fn end_posting(
    store: &Store,
    tour: &TournamentRow,
    from: &[TournamentStatus],
    to: TournamentStatus,
    text: String,
) -> Result<Option<Out>, HostError> {
    let key = crate::msgkey::MsgKey::TournamentEnd { id: tour.id }.to_string();
    let post = crate::store::DuePost::new(key, &tour.chat, &text, crate::store::now_ms());
    if !store.end_tournament(tour.id, from, to, post.as_ref()).await? {
        return Ok(None);
    }
    Ok(Some(Out::Post {
        chat: tour.chat.clone(),
        text,
        once: post.map(|p| p.key),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::Command;

    #[test]
    fn tournament_words() {
        let open = |rounds, deals, minutes, rules: Option<&str>, computers| Command::NewTournament {
            rules: rules.map(|r| serde_json::Value::String(r.into())),
            rounds,
            deals,
            minutes,
            turn: None,
            computers,
        };
        assert_eq!(parse_command(&[]), Some(open(3, Some(24), None, None, false)));
        assert_eq!(
            parse_command(&["4", "28", "lv", "bots"]),
            Some(open(4, Some(28), None, Some("lv"), true))
        );
        assert_eq!(
            parse_command(&["2", "45m"]),
            Some(open(2, None, Some(45), None, false))
        );
        assert_eq!(
            parse_command(&["Pause"]),
            Some(Command::Tournament(TournamentVerb::Pause))
        );
        assert_eq!(
            parse_command(&["record"]),
            Some(Command::Tournament(TournamentVerb::Record))
        );
        assert_eq!(
            parse_command(&["2", "4", "90s"]),
            Some(Command::NewTournament {
                rules: None,
                rounds: 2,
                deals: Some(4),
                minutes: None,
                turn: Some(90),
                computers: false,
            })
        );
        assert_eq!(parse_command(&["0"]), None);
        assert_eq!(parse_command(&["0s"]), None);
        assert_eq!(parse_command(&["3", "0"]), None);
        assert_eq!(parse_command(&["1", "2", "3"]), None);
        assert_eq!(parse_command(&["lv", "rondo"]), None);
    }
}
