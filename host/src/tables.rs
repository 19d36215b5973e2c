//! The Host's tables, from opening to closing: a new table and its seats, the start, the
//! presses on its buttons played through the table's `commit`, the computer players' moves,
//! a turn's timeout, a stop, the game's end and the close with its rating, record and posts.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use stikis_core::ai::Level;
use stikis_core::Seat;

use crate::games::{default_rules, game_title, new_game, seat_range, settle_sheet, Pressed, GAMES};
use crate::i18n::{t, Arg, Lang};
use crate::outbox::{Command, Out, Outbox, Press, Request, User};
use crate::store::Stats;
use crate::store::{NewTable, Occupant, StoreError, TableStatus};
use crate::table::{level_code, HostError, Live, Shared, ADD_SEAT};
use crate::token::Token;

use crate::Host;

impl Host {
    pub(crate) async fn new_table(
        &self,
        req: &Request,
        game: &str,
        rules: &Option<Value>,
        seats: Option<usize>,
        lang: Lang,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let Some((min, max)) = seat_range(game) else {
            out.reply(format!("stikis cannot host {game:?} yet"));
            return Ok(());
        };
        let size = seats.unwrap_or(min).clamp(min, max);
        let rules = rules.clone().unwrap_or_else(|| default_rules(game));
        // Refuse bad rules before anything is stored.
        new_game(game, &rules, size)?;
        let row = match self
            .store
            .create_table(&NewTable {
                chat: req.chat.clone(),
                game: game.to_string(),
                rules,
                seats: size,
                creator: req.user.id.clone(),
            })
            .await
        {
            Ok(r) => r,
            Err(StoreError::ChatBusy) => {
                out.reply(t(lang, "table-exists", &[]));
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        let occupant = Occupant::Human {
            user_id: req.user.id.clone(),
        };
        self.store.take_seat(row.id, 0, &req.user.name, &occupant).await?;
        let settings = self.store.community_settings(&req.chat.community_ref()).await?;
        let (rev, seats) = self.store.seats_versioned(row.id).await?;
        let mut live = Live::new(row, seats, size, settings);
        live.seats_rev = rev;
        live.render_lobby(out);
        out.reply(t(
            lang,
            "table-created",
            &[
                ("name", req.user.name.clone().into()),
                ("game", game_title(lang, game).into()),
            ],
        ));
        self.keep_table(live.id(), live);
        Ok(())
    }

    /// Closes the chat's score sheets: admins and the players on a sheet may. The closed
    /// sheet keeps its totals and pules as they were; the settlement is computed from them
    /// and posted with the final standings.
    pub(crate) async fn close_sheet(
        &self,
        req: &Request,
        lang: Lang,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let chat = &req.chat;
        if self.store.open_table(chat).await?.is_some() {
            out.reply(t(lang, "sheet-table-open", &[]));
            return Ok(());
        }
        let mut closed = false;
        for game in GAMES {
            let Some(sheet) = self.store.score_sheet(chat, game).await? else {
                continue;
            };
            if !req.user.admin && !sheet.totals.iter().any(|s| s.player == req.user.id) {
                out.reply(t(lang, "table-not-allowed", &[]));
                return Ok(());
            }
            // Of two closings at once, one gets the sheet.
            let Some(sheet) = self.store.close_score_sheet(chat, game).await? else {
                continue;
            };
            closed = true;
            let settle = settle_sheet(game, &sheet.pules);
            let standings: Vec<String> = sheet
                .totals
                .iter()
                .map(|s| {
                    let d = settle.iter().find(|(k, _)| *k == s.player).map_or(0, |x| x.1);
                    if d == 0 {
                        format!("{} {}", s.name, s.points)
                    } else {
                        format!("{} {} ({d:+})", s.name, s.points + d)
                    }
                })
                .collect();
            out.push(Out::Post {
                chat: chat.clone(),
                text: t(lang, "sheet-closed", &[("totals", standings.join(" · ").into())]),
                once: None,
            });
        }
        // A closed sheet's standings say what happened: no "✓" besides.
        if !closed {
            out.reply(t(lang, "sheet-none", &[]));
        }
        Ok(())
    }

    pub(crate) fn may_manage(live: &Live, user: &User) -> bool {
        user.admin || live.row.creator == user.id
    }

    /// Lobby and table commands given in the table's chat (or by a lobby button).
    pub(crate) async fn table_command(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        cmd: &Command,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let running = live.game.is_some();
        match cmd {
            Command::Join if running => {
                out.reply(t(lang, "table-full", &[]));
                out.0.extend(full_notice(live, user));
            }
            Command::Join => {
                if live.seat_of(&user.id).is_some() {
                    out.reply(t(lang, "table-already-seated", &[]));
                    return Ok(out);
                }
                let Some(seat) = free_seat(live) else {
                    out.reply(t(lang, "table-full", &[]));
                    out.0.extend(full_notice(live, user));
                    return Ok(out);
                };
                return self.sit(live, user, seat, lang).await;
            }
            Command::Leave => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "table-not-seated", &[]));
                    return Ok(out);
                };
                if running {
                    // A player who leaves mid-game hands the seat to a computer player.
                    self.store.set_away(live.id(), seat, true).await?;
                    live.seats = self.store.seats(live.id()).await?;
                    out.reply(t(lang, "table-left", &[("name", user.name.clone().into())]));
                    out.push(Out::Post {
                        chat: live.row.chat.clone(),
                        text: t(live.lang(), "turn-away", &[("name", user.name.clone().into())]),
                        once: None,
                    });
                    out.extend(self.drive(live).await?);
                } else {
                    self.store.leave_seat(live.id(), seat).await?;
                    live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                    out.reply(t(lang, "table-left", &[("name", user.name.clone().into())]));
                    live.render_lobby(&mut out);
                }
            }
            Command::AddBot { level } => {
                if running || !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                let Some(seat) = free_seat(live) else {
                    out.reply(t(lang, "table-full", &[]));
                    return Ok(out);
                };
                let name = crate::games::computer_name(live.lang(), seat);
                let occupant = Occupant::Computer {
                    level: level_code(*level),
                };
                self.store.take_seat(live.id(), seat, &name, &occupant).await?;
                live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                out.reply(t(
                    lang,
                    "table-bot-added",
                    &[("seat", Arg::from(i64::from(seat) + 1))],
                ));
                if live.settings.auto_start && live.seats.len() >= live.size {
                    out.extend(self.start(live).await?);
                } else {
                    live.render_lobby(&mut out);
                }
            }
            Command::RemoveBot => {
                let bot = live
                    .seats
                    .iter()
                    .rev()
                    .find(|s| matches!(s.occupant, Occupant::Computer { .. }));
                match bot.map(|s| s.seat) {
                    Some(seat) if !running && Self::may_manage(live, user) => {
                        self.store.leave_seat(live.id(), seat).await?;
                        live.lobby_seats(self.store.seats_versioned(live.id()).await?);
                        out.reply(t(
                            lang,
                            "table-bot-removed",
                            &[("seat", Arg::from(i64::from(seat) + 1))],
                        ));
                        live.render_lobby(&mut out);
                    }
                    _ => out.reply(t(lang, "table-not-allowed", &[])),
                }
            }
            // Nothing to start: say so to the one who asked, post nothing.
            Command::Start if running => out.reply(t(lang, "table-running", &[])),
            Command::Start => {
                if !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                let (min, _) = seat_range(&live.row.game).unwrap_or((3, 3));
                if live.seats.len() < min {
                    out.reply(t(
                        lang,
                        "table-waiting",
                        &[("count", Arg::from(min - live.seats.len()))],
                    ));
                    return Ok(out);
                }
                out.extend(self.start(live).await?);
            }
            Command::Stop => {
                if !Self::may_manage(live, user) {
                    out.reply(t(lang, "table-not-allowed", &[]));
                    return Ok(out);
                }
                self.stop(live, user, &mut out).await?;
            }
            Command::Back => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "not-at-table", &[]));
                    return Ok(out);
                };
                self.store.set_away(live.id(), seat, false).await?;
                live.seats = self.store.seats(live.id()).await?;
                if let Some(x) = live.timeouts.get_mut(seat as usize) {
                    *x = 0;
                }
                out.reply(t(lang, "turn-yours", &[]));
                self.render(live, &mut out).await;
                self.arm_timer(live);
            }
            Command::ShowHand => {
                let Some(seat) = live.seat_of(&user.id) else {
                    out.reply(t(lang, "not-at-table", &[]));
                    return Ok(out);
                };
                if live.game.is_none() {
                    out.reply(t(lang, "table-none", &[]));
                    return Ok(out);
                }
                let hand = live.hand_message(seat, &user.id, lang);
                out.reply(hand.text().to_string());
                out.push(hand);
            }
            Command::PlayLink => {
                let (Some(base), Some(secret)) = (&self.config.web_url, &self.config.play_secret) else {
                    out.reply(t(lang, "play-link-off", &[]));
                    return Ok(out);
                };
                let seated = live.seat_of(&user.id).map(|_| user.id.as_str()).unwrap_or("");
                let expires = self.now_ms() / 1000 + crate::links::PLAY_LINK_SECS;
                let key = crate::links::play_key(secret, live.id(), seated, expires);
                let url = crate::links::play_url(base, secret, live.id(), &key);
                out.push(Out::Personal {
                    user: user.id.clone(),
                    chat: live.row.chat.clone(),
                    text: t(
                        lang,
                        if seated.is_empty() {
                            "play-link-watch"
                        } else {
                            "play-link"
                        },
                        &[("url", url.into())],
                    ),
                    closed: t(lang, "play-link-closed-chat", &[]),
                });
            }
            Command::Record => {
                out.push(self.record_file(live).await?);
                out.0.extend(record_note(live));
            }
            _ => out.reply(t(lang, "button-bad", &[])),
        }
        Ok(out)
    }

    /// Seats `user` in the lobby's seat `seat`, and starts the table if that filled it and the
    /// chat starts full tables by itself.
    pub(crate) async fn sit(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        seat: Seat,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let occupant = Occupant::Human {
            user_id: user.id.clone(),
        };
        match self.store.take_seat(live.id(), seat, &user.name, &occupant).await {
            Ok(()) => {}
            Err(StoreError::SeatTaken { .. }) => {
                out.reply(t(lang, "table-seat-full", &[]));
                return Ok(out);
            }
            Err(StoreError::AlreadySeated { .. }) => {
                out.reply(t(lang, "table-already-seated", &[]));
                return Ok(out);
            }
            Err(e) => return Err(e.into()),
        }
        live.lobby_seats(self.store.seats_versioned(live.id()).await?);
        out.reply(t(
            lang,
            "table-joined",
            &[
                ("name", user.name.clone().into()),
                ("seat", Arg::from(i64::from(seat) + 1)),
            ],
        ));
        if live.settings.auto_start && live.seats.len() >= live.size {
            out.extend(self.start(live).await?);
        } else {
            live.render_lobby(&mut out);
        }
        Ok(out)
    }

    /// The lobby's "one more seat" button (`ADD_SEAT`): a full lobby of a game that allows
    /// more players gets one more seat, and the presser sits in it (in a seat freed meanwhile,
    /// if there is one). The lobby's size is its highest taken seat (`Live::lobby_seats`), so
    /// the added seat is kept by taking it.
    pub(crate) async fn take_added_seat(
        self: &Arc<Self>,
        live: &mut Live,
        user: &User,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        if live.game.is_some() {
            return self.table_command(live, user, &Command::Join, lang).await;
        }
        if live.seat_of(&user.id).is_some() {
            let mut out = Outbox::default();
            out.reply(t(lang, "table-already-seated", &[]));
            return Ok(out);
        }
        match free_seat(live).or_else(|| live.seat_to_add()) {
            Some(seat) => self.sit(live, user, seat, lang).await,
            None => self.table_command(live, user, &Command::Join, lang).await,
        }
    }

    pub(crate) async fn start(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        // A game's seats are 0..n: a lobby started with a seat left empty between taken ones
        // (someone left an added seat's neighbour) moves the later players down first.
        if live
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| usize::from(s.seat) != i)
        {
            for (i, s) in live.seats.clone().into_iter().enumerate() {
                if usize::from(s.seat) != i {
                    self.store.leave_seat(live.id(), s.seat).await?;
                    self.store
                        .take_seat(live.id(), i as Seat, &s.name, &s.occupant)
                        .await?;
                }
            }
            live.seats = self.store.seats(live.id()).await?;
        }
        live.game = Some(new_game(&live.row.game, &live.row.rules, live.seats.len())?);
        live.timeouts = vec![0; live.seats.len()];
        // The chat's open score sheet goes on at this table: its totals and open pules. It is
        // kept with the table before the table runs, so a restart starts from it too.
        // A tournament table starts afresh (its round is its own), announced by its round.
        let tournament = live.row.tournament.is_some();
        let sheet = match tournament {
            true => None,
            false => self.store.score_sheet(&live.row.chat, &live.row.game).await?,
        };
        if let Some(sheet) = sheet {
            let carry = serde_json::json!({"totals": sheet.totals, "pules": sheet.pules});
            self.store.set_sheet_carry(live.id(), &carry).await?;
            live.carry_in(&carry);
        }
        self.store.set_status(live.id(), TableStatus::Running).await?;
        if !tournament {
            live.render_lobby_started(&mut out);
            out.push(Out::Post {
                chat: live.row.chat.clone(),
                text: t(
                    live.lang(),
                    "table-started",
                    &[("game", game_title(live.lang(), &live.row.game).into())],
                ),
                once: None,
            });
        }
        let seed = (self.config.seeds)(live.id(), 1);
        live.start_deal(&self.store, seed, &mut out).await?;
        out.extend(self.drive(live).await?);
        Ok(out)
    }

    /// The table's record as a file for the chat: its finished deals, each with its seed, so
    /// the record proves its own deals.
    pub(crate) async fn record_file(&self, live: &Live) -> Result<Out, HostError> {
        let mut env = match &live.game {
            Some(g) => g.record(&live.names()),
            None => self.store.record(live.id()).await?,
        };
        // The deal being played is left out: its record lists every hand, and the file goes to
        // the whole chat.
        let in_progress = live.game.as_ref().is_some_and(|g| g.in_deal());
        let finished = env.deals.len().saturating_sub(usize::from(in_progress));
        env.deals.truncate(finished);
        for (d, seed) in env.deals.iter_mut().zip(&live.seeds) {
            d["seed"] = Value::String(seed.to_string());
        }
        Ok(Out::File {
            chat: live.row.chat.clone(),
            name: format!("stikis-{}-{}.json", live.row.game, live.id()),
            content: serde_json::to_string_pretty(&env).unwrap_or_default(),
        })
    }

    pub(crate) async fn stop(&self, live: &mut Live, user: &User, out: &mut Outbox) -> Result<(), HostError> {
        self.render_stopped(live, &user.name, out).await;
        let text = t(
            live.lang(),
            "table-stopped",
            &[("name", user.name.clone().into())],
        );
        self.close(live, TableStatus::Stopped, text, out).await
    }

    /// A table stopped by `by` in the middle of a deal: its table message and hands are
    /// drawn once more, with nothing to press and nobody's turn (`Live::render_stopped`).
    /// Their buttons would otherwise stay under them, looking live.
    pub(crate) async fn render_stopped(&self, live: &Live, by: &str, out: &mut Outbox) {
        let langs = self.langs(live).await;
        let lang = live.lang();
        live.render_stopped(out, &|u| langs.get(u).copied().unwrap_or(lang), by);
    }

    /// The game ended by its own rules (`HostedGame::is_over`): the final totals and the
    /// record are posted and the table is closed, so the chat may open the next one.
    pub(crate) async fn finish(&self, live: &mut Live, out: &mut Outbox) -> Result<(), HostError> {
        if let Some(slot) = live.row.tournament.clone() {
            // The tournament's record holds the table's; its round moves on without it.
            let (round, table) = slot.round_table().unwrap_or((0, 0));
            let totals: Vec<String> = live
                .names()
                .iter()
                .zip(live.game.as_ref().map(|g| g.totals()).unwrap_or_default())
                .map(|(n, p)| format!("{n} {p:+}"))
                .collect();
            let text = t(
                live.lang(),
                "tournament-table-done",
                &[
                    ("round", Arg::from(round)),
                    ("table", Arg::from(table)),
                    ("totals", totals.join(" · ").into()),
                ],
            );
            self.close(live, TableStatus::Finished, text, out).await?;
            if let Some(host) = self.me.upgrade() {
                self.tournaments.spawn_advance(&host, slot.tournament);
            }
            return Ok(());
        }
        let text = t(live.lang(), "table-finished", &[]);
        let file = self.record_file(live).await?;
        let note = record_note(live);
        self.close(live, TableStatus::Finished, text, out).await?;
        out.push(file);
        out.0.extend(note);
        Ok(())
    }

    /// Closes a table (stopped or finished): totals posted, the chat's score sheet saved, one
    /// game counted for every person at the table.
    pub(crate) async fn close(
        &self,
        live: &mut Live,
        status: TableStatus,
        mut text: String,
        out: &mut Outbox,
    ) -> Result<(), HostError> {
        let lang = live.lang();
        let names = live.names();
        if let Some(game) = live.game.as_ref() {
            // The pules stay open on the chat's score sheet for its next table; closing the
            // sheet (`CloseSheet`) settles them.
            let totals = game.totals();
            let s: Vec<String> = names
                .iter()
                .zip(&totals)
                .map(|(n, p)| format!("{n} {p}"))
                .collect();
            if live.row.tournament.is_none() {
                text.push('\n');
                text.push_str(&t(lang, "deal-totals", &[("totals", s.join(" · ").into())]));
            }
            live.save_sheet(&self.store).await?;
            // One game for everybody who played at the table, once however often it is
            // stopped (deal 0 of the table is its own guard).
            let entries = live.stats_entries(|_| Stats {
                games: 1,
                ..Stats::default()
            });
            if !entries.is_empty() {
                let community = live.row.chat.community_ref();
                self.store
                    .apply_stats(live.id(), 0, &community, &live.row.game, &entries)
                    .await?;
            }
        }
        // A finished game is rated once; a game stopped after whole deals too.
        if let Err(e) = self.community.rate_table(live).await {
            tracing::warn!(table = live.id(), error = %e, "could not rate a table");
        }
        if live
            .game
            .as_ref()
            .is_some_and(|g| g.deal_no() > usize::from(g.in_deal()))
        {
            if let Some(link) = self.community.game_link(live).await {
                text.push('\n');
                text.push_str(&link);
            }
        }
        // The end post is kept with the table's close, in its transaction: a process killed
        // while the post waits (behind the group's budget, or in its unsent outbox) does not
        // lose it; a sweep posts it once when due if no adapter did (`post_due_posts`).
        let key = crate::msgkey::MsgKey::End { table: live.id() }.to_string();
        let post = crate::store::DuePost::new(key, &live.row.chat, &text, self.now_ms());
        self.store.close_table(live.id(), status, post.as_ref()).await?;
        live.row.status = status;
        live.new_turn();
        self.evict(live.id());
        // Its live pages here are shown the table as it was left (its last deal's end, nobody's
        // turn, nothing to press), and every page is told that it is over.
        self.draw_for_pages(live);
        self.announce_table(live.id());
        out.push(Out::Post {
            chat: live.row.chat.clone(),
            text,
            once: post.map(|p| p.key),
        });
        Ok(())
    }

    pub(crate) async fn press(
        self: &Arc<Self>,
        req: &Request,
        pressed: &Press,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let Ok(tok) = &pressed.token else {
            crate::observe::move_outcome("refused");
            out.reply(t(lang, "button-bad", &[]));
            return Ok(out);
        };
        if let Some(verb) = tok
            .action
            .strip_prefix("T:")
            .and_then(crate::outbox::TournamentVerb::from_code)
        {
            crate::observe::move_outcome("lobby");
            return self
                .tournaments
                .tournament_command(self, req, Some(tok.table), verb, lang)
                .await;
        }
        let add_seat = tok.action == ADD_SEAT;
        if let Some(cmd) = lobby_verb(&tok.action).or(add_seat.then_some(Command::Join)) {
            crate::observe::move_outcome("lobby");
            let row = self.store.table(tok.table).await?;
            let shared = match &row {
                Some(row) if row.status.is_open() => self.fresh_table(row).await?,
                _ => None,
            };
            let Some(shared) = shared else {
                out.reply(t(lang, "button-stale", &[]));
                return Ok(out);
            };
            let mut live = shared.lock().await;
            if add_seat {
                return self.take_added_seat(&mut live, &req.user, lang).await;
            }
            return self.table_command(&mut live, &req.user, &cmd, lang).await;
        }
        let Some(shared) = self.table(tok.table).await? else {
            crate::observe::move_outcome("stale");
            out.reply(t(lang, "button-stale", &[]));
            return Ok(out);
        };
        let live = shared.lock().await;
        // A copy of the lobby: another process may have started the table since.
        let behind = live.game.is_none()
            || (tok.seq != live.seq && self.store.next_seq(tok.table).await? - 1 != live.seq);
        if behind || (tok.seq == live.seq && self.other_choice(&live, &req.user.id).await?) {
            // Another process started or moved this table since this one loaded it, or took
            // a pick of a half-made choice (cards to bury): answer from the database's state,
            // not from the stale copy.
            drop(live);
            self.evict(tok.table);
            crate::observe::takeover("moved_elsewhere");
            let Some(fresh) = self.table(tok.table).await? else {
                crate::observe::move_outcome("stale");
                out.reply(t(lang, "button-stale", &[]));
                return Ok(out);
            };
            return self.press_on(req, tok, lang, fresh).await;
        }
        drop(live);
        self.press_on(req, tok, lang, shared).await
    }

    pub(crate) async fn press_on(
        self: &Arc<Self>,
        req: &Request,
        tok: &Token,
        lang: Lang,
        shared: Shared,
    ) -> Result<Outbox, HostError> {
        let result = self.press_on_copy(req, tok, lang, shared).await;
        if let Err(HostError::Store(_)) = result {
            // The database failed in the middle (a commit may even have gone through): the
            // copy may no longer match it, and the computer players and the timer it would
            // have driven on did not start. It is read afresh at the next press, or taken
            // over by a sweep once the table has been quiet.
            self.evict(tok.table);
        }
        result
    }

    pub(crate) async fn press_on_copy(
        self: &Arc<Self>,
        req: &Request,
        tok: &Token,
        lang: Lang,
        shared: Shared,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let mut live = shared.lock().await;
        if live.game.is_none() && live.row.status == TableStatus::Running {
            // A run that failed while this press waited dropped the copy.
            out.reply(t(lang, "press-try-again", &[]));
            return Ok(out);
        }
        if tok.seq != live.seq || live.game.is_none() {
            crate::observe::move_outcome("stale");
            // The presser's hand as it is now goes with the answer: the one they pressed on
            // is out of date and may stay so until the table changes again (unchanged, it
            // costs no edit).
            if let (Some(seat), Some(_)) = (live.seat_of(&req.user.id), &live.game) {
                out.push(live.hand_message(seat, &req.user.id, lang));
            }
            out.reply(t(lang, "button-stale", &[]));
            return Ok(out);
        }
        let Some(seat) = live.seat_of(&req.user.id) else {
            crate::observe::move_outcome("refused");
            out.reply(t(lang, "not-at-table", &[]));
            return Ok(out);
        };
        let game = live.game.as_mut().expect("checked above");
        let pressed = game.press(seat, &tok.action, lang)?;
        match pressed {
            Pressed::Selection => {
                // Kept with the table, so a restart does not forget it.
                let code = live.game.as_ref().and_then(|g| g.selection(seat));
                self.store
                    .set_selection(live.id(), seat, live.seq, code.as_deref())
                    .await?;
                out.push(live.hand_message(seat, &req.user.id, lang));
                self.draw_for_pages(&live);
                out.reply("✓");
                crate::observe::move_outcome("selected");
            }
            Pressed::Action(action) => {
                if let Some(x) = live.timeouts.get_mut(seat as usize) {
                    *x = 0;
                }
                let before = live.seq;
                match self.play(&mut live, &action).await {
                    Ok(o) => out.extend(o),
                    Err(HostError::Conflict) => {
                        crate::observe::takeover("conflict");
                        // Another process committed first. If it was this very move, it is
                        // not applied here: the press is stale. If this move was committed
                        // and another process then moved on (computer players, the next
                        // deal), the move stands. Either way this copy is out of date.
                        let applied = live.seq > before;
                        drop(live);
                        self.evict(tok.table);
                        if !applied {
                            crate::observe::move_outcome("stale");
                            out.reply(t(lang, "button-stale", &[]));
                            return Ok(out);
                        }
                        if let Some(fresh) = self.table(tok.table).await? {
                            let live = fresh.lock().await;
                            self.render(&live, &mut out).await;
                        }
                    }
                    Err(e) => return Err(e),
                }
                crate::observe::move_outcome("applied");
                out.reply("✓");
            }
        }
        Ok(out)
    }

    /// Commits one move with the computer players' moves after it, closes the deal if it
    /// ended (and deals the next), lets computer players move on, and renders.
    pub(crate) async fn play(self: &Arc<Self>, live: &mut Live, action: &Value) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        self.play_run(live, Some(action), &mut out).await?;
        out.extend(self.drive(live).await?);
        Ok(out)
    }

    /// Plays `first` (a person's move, if any) and after it the moves of the computer players
    /// (and away seats) to act, until a person is to act or a deal ends, and commits them as
    /// one run: one write of the log however many moves, and a press answered after one
    /// commit, not one per computer player behind it. Then closes the deal if it ended. A
    /// table of computer players only moves one move a run (`step` paces it). False if
    /// nothing was to play.
    ///
    /// The moves are applied as they are chosen, each computer player seeing the table as it
    /// is, to the game taken out of the copy; a run that is not committed leaves the copy
    /// without its game, which every user of a copy takes for one to load again, and drops it.
    pub(crate) async fn play_run(
        &self,
        live: &mut Live,
        first: Option<&Value>,
        out: &mut Outbox,
    ) -> Result<bool, HostError> {
        let Some(mut game) = live.game.take() else {
            return Ok(false);
        };
        let bots_only = live
            .seats
            .iter()
            .all(|s| matches!(s.occupant, Occupant::Computer { .. }));
        let mut run: Vec<Value> = Vec::new();
        let mut report = None;
        if let Some(action) = first {
            match game.apply(action) {
                Ok(r) => report = r,
                Err(e) => {
                    // Refused before anything changed.
                    live.game = Some(game);
                    return Err(e.into());
                }
            }
            run.push(action.clone());
        }
        // A table of computer players only: one move a run. A run stops growing after
        // `RUN_THINKING` of choosing (strong computer players may each take their budget), so
        // a press's move is committed well within its time limit; the next run goes on.
        let started = std::time::Instant::now();
        while report.is_none() && (run.is_empty() || (!bots_only && started.elapsed() < RUN_THINKING)) {
            let Some(seat) = game.to_act() else { break };
            let Some(level) = live.bot_level(seat) else { break };
            let rng_seed = (live.id() as u64) << 32 ^ (live.seq + run.len() as i64) as u64;
            let action = think(|| game.bot_action(level, rng_seed, self.config.bot_budget_ms));
            match game.apply(&action) {
                Ok(r) => report = r,
                Err(e) if run.is_empty() => {
                    live.game = Some(game);
                    return Err(e.into());
                }
                Err(e) => {
                    self.drop_copy(live);
                    return Err(e.into());
                }
            }
            run.push(action);
        }
        if run.is_empty() {
            live.game = Some(game);
            return Ok(false);
        }
        if let Err(e) = live.commit_applied(&self.store, &run).await {
            self.drop_copy(live);
            return Err(e);
        }
        live.game = Some(game);
        if let Some(report) = report {
            // Show the final trick before the result.
            self.render(live, out).await;
            let over = live.game.as_ref().is_some_and(|g| g.is_over()) || live.limit_reached(self.now_ms());
            let next = (!over).then(|| (self.config.seeds)(live.id(), live.seeds.len() + 1));
            if let Err(e) = live.finish_deal(&self.store, &report, next, out).await {
                // The moves stand; the next deal may not be this copy's (`finish_deal`).
                self.drop_copy(live);
                return Err(e);
            }
            if over {
                self.finish(live, out).await?;
            }
        }
        Ok(true)
    }

    /// Drops a copy whose game went ahead of the log (a run that was not committed): it keeps
    /// no game (nothing acts on it or shows it, and a waiting press reads the table again),
    /// its turn timer is void, and the table is loaded afresh when next used.
    pub(crate) fn drop_copy(&self, live: &mut Live) {
        live.game = None;
        live.new_turn();
        self.evict(live.id());
    }

    /// Computer players (and away seats) move until a person is to act; then everything is
    /// rendered and the turn timer armed.
    pub(crate) async fn drive(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        // A table of computer players only never waits for a person; it would play on here
        // forever, so it moves only when asked (`step`).
        let bots_only = live
            .seats
            .iter()
            .all(|s| matches!(s.occupant, Occupant::Computer { .. }));
        // A deal has at most a few dozen moves; the bound only guards against a game that
        // would never hand the turn to a person.
        let bound = if bots_only { 0 } else { 10_000 };
        if bots_only && live.row.tournament.is_some() {
            // A tournament table of computer players plays its round out in a task of its
            // own, move by move, as `step` plays exhibitions.
            self.tournaments.spawn_play_out(self, live.id());
        }
        for _ in 0..bound {
            if !self.play_run(live, None, &mut out).await? {
                break;
            }
        }
        self.render(live, &mut out).await;
        self.arm_timer(live);
        Ok(out)
    }

    /// One move of the computer player to act at table `id`, as a person's press would be
    /// played: committed (this returns only after the commit), the deal closed and the next
    /// one dealt if it ended, and the table rendered. None when no computer player is to act.
    /// Tables of computer players only (exhibitions, benchmarks) move only through this.
    pub async fn step(self: &Arc<Self>, id: i64) -> Result<Option<Outbox>, HostError> {
        let Some(shared) = self.table(id).await? else {
            return Ok(None);
        };
        let mut live = shared.lock().await;
        let mut out = Outbox::default();
        match self.play_run(&mut live, None, &mut out).await {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(HostError::Conflict) => {
                crate::observe::takeover("conflict");
                drop(live);
                self.evict(id);
                return Err(HostError::Conflict);
            }
            Err(e) => return Err(e),
        }
        self.render(&live, &mut out).await;
        self.announce(&out);
        Ok(Some(out))
    }

    /// Deals finished so far at table `id` (0 if this host does not run it).
    pub async fn deals_done(&self, id: i64) -> usize {
        let Some(shared) = self.cached(id) else { return 0 };
        let live = shared.lock().await;
        live.game
            .as_ref()
            .map_or(0, |g| g.deal_no() - usize::from(g.in_deal()))
    }

    /// Starts the turn timer for the person to act (`crate::timers`).
    pub(crate) fn arm_timer(self: &Arc<Self>, live: &Live) {
        self.timers.arm(self, live);
    }

    /// The time is up: a computer player moves for the absent person; after 3 timeouts in a
    /// row the seat is handed over until its owner says "I'm back".
    pub(crate) async fn timeout(
        self: &Arc<Self>,
        live: &mut Live,
        seat: Seat,
        name: String,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let lang = live.lang();
        let count = {
            let x = &mut live.timeouts[seat as usize];
            *x += 1;
            *x
        };
        out.push(Out::Post {
            chat: live.row.chat.clone(),
            text: t(lang, "turn-timeout", &[("name", name.clone().into())]),
            once: None,
        });
        if count >= 3 {
            self.store.set_away(live.id(), seat, true).await?;
            live.seats = self.store.seats(live.id()).await?;
            out.push(Out::Post {
                chat: live.row.chat.clone(),
                text: t(lang, "turn-away", &[("name", name.into())]),
                once: None,
            });
            out.extend(self.drive(live).await?);
            return Ok(out);
        }
        let game = live.game.as_ref().expect("a timed turn has a game");
        let rng_seed = (live.id() as u64) << 32 ^ live.seq as u64;
        let action = think(|| game.bot_action(Level::Basic, rng_seed, self.config.bot_budget_ms));
        out.extend(self.play(live, &action).await?);
        Ok(out)
    }

    /// Every card of deal `deal_no` of table `id` that no public message may show right now. For the privacy
    /// checks of tests and diagnostics only: never send it anywhere.
    #[doc(hidden)]
    pub async fn hidden_cards(&self, id: i64, deal_no: usize) -> Vec<String> {
        // As the log has it: this process's copy may be behind a move that was shown (made by
        // another process, or on a copy that was replaced meanwhile), and would count that
        // move's card as still hidden.
        if let Some(logged) = self.logged(id).await {
            return logged
                .game
                .as_ref()
                .map(|g| g.hidden_cards(deal_no))
                .unwrap_or_default();
        }
        match self.cached(id) {
            Some(shared) => shared
                .lock()
                .await
                .game
                .as_ref()
                .map(|g| g.hidden_cards(deal_no))
                .unwrap_or_default(),
            None => Vec::new(),
        }
    }
}

/// How long a run of moves may spend choosing computer players' moves before it is
/// committed (`Host::play_run`): a few default budgets, well within a press's time limit.
const RUN_THINKING: Duration = Duration::from_millis(600);

/// Runs a computer player's choice, which may think for its whole budget (300 ms by default),
/// without holding up the other tables: on a multi-threaded runtime (the bots') the worker
/// hands its other tasks over while this one thinks. A current-thread runtime (tests, the
/// terminal) has no other worker to hand them to.
pub(crate) fn think<T>(choose: impl FnOnce() -> T) -> T {
    let timer = crate::observe::Timer::start();
    let choice = match tokio::runtime::Handle::current().runtime_flavor() {
        tokio::runtime::RuntimeFlavor::MultiThread => tokio::task::block_in_place(choose),
        _ => choose(),
    };
    metrics::histogram!("stikis_computer_think_seconds").record(timer.elapsed());
    choice
}

/// What the table's record cannot say, as a message beside it (`HostedGame::record_note`).
fn record_note(live: &Live) -> Option<Out> {
    let text = live.game.as_ref()?.record_note(live.lang())?;
    Some(Out::Post {
        chat: live.row.chat.clone(),
        text,
        once: None,
    })
}

/// The table command a lobby or table button stands for (not a move).
fn lobby_verb(action: &str) -> Option<Command> {
    match action {
        "join" => Some(Command::Join),
        "leave" => Some(Command::Leave),
        "bot" => Some(Command::AddBot { level: Level::Basic }),
        "start" => Some(Command::Start),
        "back" => Some(Command::Back),
        crate::outbox::SHOW_HAND => Some(Command::ShowHand),
        _ => None,
    }
}

/// Said to the whole chat when `user` finds the table full, so that everybody learns how to
/// play with more: the lobby's button for one more seat, or (a running table) the commands
/// that open a table for more players after this game. None where there is no other way
/// (the game allows no more players, a tournament's table, or the person sits there).
fn full_notice(live: &Live, user: &User) -> Option<Out> {
    if live.row.tournament.is_some() || live.seat_of(&user.id).is_some() {
        return None;
    }
    let lang = live.lang();
    let name = ("name", Arg::from(user.name.clone()));
    let text = match live.seat_to_add() {
        Some(seat) => {
            let what = t(
                lang,
                "button-add-seat",
                &[("seat", Arg::from(i64::from(seat) + 1))],
            );
            t(lang, "table-full-add-seat", &[name, ("what", what.into())])
        }
        None => {
            let (_, max) = seat_range(&live.row.game)?;
            let list = live.open_commands(live.seats.len() + 1..=max)?;
            t(lang, "table-full-later", &[name, ("list", list.into())])
        }
    };
    Some(Out::Post {
        chat: live.row.chat.clone(),
        text,
        // Once per person and table: pressing Join again does not post it again.
        once: Some(
            crate::msgkey::MsgKey::Full {
                table: live.id(),
                user: user.id.clone(),
            }
            .into(),
        ),
    })
}

fn free_seat(live: &Live) -> Option<Seat> {
    (0..live.size as Seat).find(|s| live.seats.iter().all(|x| x.seat != *s))
}
