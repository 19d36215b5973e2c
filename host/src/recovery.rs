//! The Host's recovery: after a restart, every running table rebuilt from its log; and the
//! sweep, every few seconds, which takes over the tables of processes gone, posts the
//! results and the posts owed, and resumes what was left between deals.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::i18n::Lang;
use crate::outbox::{Out, Outbox};
use crate::store::{CommunityRef, CommunitySettings, Occupant, Platform, TableStatus};
use crate::table::{result_key, HostError, Live, Shared};

use crate::ownership::{BEAT_STALE_MS, OWED_WAIT};
use crate::Host;

/// How many due posts (`Host::post_due_posts`) a sweep looks at, at most.
const DUE_POSTS_AT_ONCE: usize = 100;

/// How long a due post is posted again for when no adapter records it as posted (a chat
/// the bot was removed from), before it is given up.
const DUE_POST_GIVE_UP: Duration = Duration::from_secs(15 * 60);

impl Host {
    /// Posts the due posts (`crate::store::DuePost`) that no adapter recorded as posted once
    /// their time has come, each under its key (an adapter posts it once, whoever shows it),
    /// and looks at them again after `OWED_WAIT`; forgets those posted, and those not posted
    /// within `DUE_POST_GIVE_UP` (a chat the bot can no longer post in).
    pub(crate) async fn post_due_posts(&self, out: &mut Outbox) {
        let now = self.now_ms();
        let due = match self.store.due_posts(now, DUE_POSTS_AT_ONCE).await {
            Ok(due) => due,
            Err(e) => {
                // Looked for again at the next sweep.
                tracing::debug!(error = %e, "could not read the due posts");
                return;
            }
        };
        let mut platforms: Vec<Platform> = due.iter().map(|p| p.chat.platform).collect();
        platforms.sort_by_key(|p| p.as_str());
        platforms.dedup();
        for platform in platforms {
            let mine: Vec<&crate::store::DuePost> =
                due.iter().filter(|p| p.chat.platform == platform).collect();
            let keys: Vec<String> = mine.iter().map(|p| p.key.clone()).collect();
            let Ok(posted) = self.store.posted_once(platform, &keys).await else {
                return;
            };
            for p in mine {
                let done = posted.contains(&p.key);
                if done || now - p.created_ms > DUE_POST_GIVE_UP.as_millis() as i64 {
                    if !done {
                        tracing::warn!(key = p.key.as_str(), "a due post never went out; given up");
                    }
                    if let Err(e) = self.store.forget_due_post(platform, &p.key).await {
                        tracing::debug!(error = %e, "could not forget a due post");
                    }
                    continue;
                }
                tracing::info!(key = p.key.as_str(), "posting a due post no process posted");
                out.push(Out::Post {
                    chat: p.chat.clone(),
                    text: p.text.clone(),
                    once: Some(p.key.clone()),
                });
                let again = now + OWED_WAIT.as_millis() as i64;
                if let Err(e) = self.store.put_off_due_post(platform, &p.key, again).await {
                    tracing::debug!(error = %e, "could not put a due post off");
                }
            }
        }
    }

    /// Running table `id` as its log has it (None if it is not running or cannot be read).
    pub(crate) async fn logged(&self, id: i64) -> Option<Live> {
        let row = self.store.table(id).await.ok()??;
        if row.status != TableStatus::Running {
            return None;
        }
        let settings = self.table_settings(&row).await.ok()?;
        Live::load(&self.store, row, settings).await.ok()
    }

    /// After a restart: rebuilds every running table from the log, refreshes its messages,
    /// lets computer players finish their turns and resumes the timers with the time left.
    /// Every log is read in a few queries (`running_logs`), not a handful per table.
    pub async fn recover(self: &Arc<Self>) -> Result<Outbox, HostError> {
        let timer = crate::observe::Timer::start();
        let mut out = Outbox::default();
        let mut recovered = 0;
        let mut settings: HashMap<CommunityRef, CommunitySettings> = HashMap::new();
        // On PostgreSQL only the tables this process owns among the live ones.
        if self.store.is_postgres() && self.store.beat().await.is_ok() {
            let _ = self.ownership.refresh_owners(self).await;
        }
        let carries = self.store.running_sheet_carries().await?;
        // Beside other processes, only the logs of the tables this one owns are read: the
        // tables it gained by starting wait for it from the moment the others saw it, and
        // every table's log is N times the rows (thousands of moves a table).
        let owned: Option<Vec<i64>> = if self.store.is_postgres() {
            let running = self.store.running_table_ids().await?;
            Some(running.into_iter().filter(|id| self.owns(*id)).collect())
        } else {
            None
        };
        for log in self.store.running_logs_of(owned.as_deref()).await? {
            let id = log.table.id;
            if !self.owns(id) {
                continue;
            }
            let shared = match self.cached(id) {
                Some(s) => s,
                None => {
                    let c = log.table.chat.community_ref();
                    let s = match settings.get(&c) {
                        Some(s) => s.clone(),
                        None => {
                            let s = self.store.community_settings(&c).await?;
                            settings.insert(c, s.clone());
                            s
                        }
                    };
                    let s = self.tournament_turn(&log.table, s).await?;
                    let owed_from = crate::table::owed_from(&self.store, &log).await;
                    let mut live =
                        match Live::from_log_owing(log.table.clone(), log, s, carries.get(&id), owed_from) {
                            Ok(l) => l,
                            Err(e) => {
                                tracing::warn!(table = id, error = %e, "could not rebuild a table");
                                continue;
                            }
                        };
                    self.restore_selection(&mut live).await?;
                    self.keep_table(id, live)
                }
            };
            recovered += 1;
            match self.resume_loaded(id, shared).await {
                Ok(o) => out.extend(o),
                // A sweep takes it over once the database answers again.
                Err(e) => {
                    tracing::warn!(table = id, error = %e, "could not resume a table");
                    crate::observe::host_error("recover", &e);
                }
            }
        }
        out.extend(self.tournaments.recover_tournaments(self).await?);
        self.announce(&out);
        // Pages may have reconnected already: their seats' hands stay on the page.
        self.watching.hold(&mut out);
        tracing::info!(
            tables = recovered,
            ms = (timer.elapsed() * 1000.0) as u64,
            "running tables recovered"
        );
        Ok(out)
    }

    /// Waits until the next sweep is due: a tick of `tick` (every `SWEEP_EVERY`), or at once
    /// when this process found the live processes changed (`OWNERS_EVERY`): a process that
    /// died leaves its tables to their new owners within a moment, not at the next tick.
    pub async fn sweep_due(&self, tick: &mut tokio::time::Interval) {
        tokio::select! {
            _ = tick.tick() => {}
            () = self.ownership.owners_moved.notified() => tick.reset(),
        }
    }

    /// Takes over the tables of processes that died, and quiet tables: every running table
    /// whose last action was committed by a process that has not beaten for
    /// `BEAT_STALE_MS` (it died; the one that commits a table's actions drives its computer
    /// players and timer), and every running table nothing has happened at for `quiet` (a
    /// backstop, e.g. a process that died between dealing and the first move), is loaded here
    /// and driven: computer players move, the next deal is dealt, the turn timer is armed
    /// with the time left (so a turn already over times out at once, claimed once among
    /// processes). A table is looked at again only once something has happened at it, or its
    /// last mover died since. Also this process's heartbeat. The bots call it every
    /// `SWEEP_EVERY`.
    pub async fn sweep(self: &Arc<Self>, quiet: Duration) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let beat = self.store.beat().await;
        crate::observe::heartbeat(&beat);
        crate::observe::refresh();
        self.store.observe_pool();
        beat?;
        if self.store.is_postgres() {
            // Each running table has one owner among the live processes: this one drops the
            // tables it no longer owns and takes up those it owns but does not hold (its
            // owner died or stopped, this process just started, or another process started
            // the table).
            self.ownership
                .refresh_owners(self)
                .await
                .inspect_err(|e| crate::observe::store_error("sweep", e))?;
            // Deferred presses of a process that died, answered for it.
            out.extend(self.ownership.follow_up_deferred(self).await);
            let owned = self
                .ownership
                .owned_changes(self)
                .await
                .inspect_err(|e| crate::observe::store_error("sweep", e))?;
            for id in owned {
                match self.take_over(id).await {
                    Ok(o) => {
                        crate::observe::takeover("owner_changed");
                        out.extend(o);
                    }
                    Err(e) => {
                        tracing::warn!(table = id, error = %e, "could not take up an owned table; trying again");
                        crate::observe::host_error("takeover", &e);
                    }
                }
            }
        }
        let before = self.now_ms() - quiet.as_millis() as i64;
        let dead_before = crate::store::now_ms() - BEAT_STALE_MS;
        let to_take = self
            .store
            .tables_to_take_over(before, dead_before)
            .await
            .inspect_err(|e| crate::observe::store_error("sweep", e))?;
        for (id, last_ms, orphaned) in to_take {
            if !self.owns(id) {
                continue;
            }
            // Once per quiet spell, and once more if its last mover dies meanwhile (a
            // person's choice of cards to bury is no action: a process may take one, die
            // before showing it, and leave the last action and its time as they were).
            if self.running.swept(id, last_ms, orphaned) {
                continue;
            }
            // Marked as swept only once taken over: a table whose takeover failed (the
            // database went away) is tried again at the next sweep.
            match self.take_over(id).await {
                Ok(o) => {
                    crate::observe::takeover(if orphaned { "dead_process" } else { "quiet" });
                    out.extend(o);
                    self.running.mark_swept(id, last_ms, orphaned);
                }
                Err(e) => {
                    tracing::warn!(table = id, error = %e, "could not take over a table; trying again");
                    crate::observe::host_error("takeover", &e);
                }
            }
        }
        self.post_due_results(&mut out).await;
        self.post_due_posts(&mut out).await;
        // A tournament whose round ended in a process that died moves on here.
        out.extend(
            self.tournaments
                .recover_tournaments(self)
                .await
                .inspect_err(|e| crate::observe::host_error("sweep", e))?,
        );
        self.announce(&out);
        // A table taken up here shows no hand to a seat whose page is open here.
        self.watching.hold(&mut out);
        Ok(out)
    }

    /// The results due (`Live::due`) at the tables this process holds and owns, looked for
    /// in the database: one that no process posted is posted now (once, `Out::Post::once`).
    /// Its post failed, or the process that owed it died before posting it, unnoticed by the
    /// load that took its table up. One query a sweep; a table busy now is looked at in the
    /// next sweep.
    pub(crate) async fn post_due_results(&self, out: &mut Outbox) {
        let now = self.now_ms();
        let held = self.running.all();
        let mut ready: Vec<(i64, Platform, String, usize, Out)> = Vec::new();
        for (id, (_, n, post)) in self.running.take_dropped_due(now) {
            let platform = match &post {
                Out::Post { chat, .. } => chat.platform,
                _ => continue,
            };
            ready.push((id, platform, result_key(id, n), n, post));
        }
        for (id, shared) in held {
            if !self.owns(id) {
                continue;
            }
            let Ok(mut live) = shared.try_lock() else { continue };
            if live.due.iter().all(|(at, _, _)| *at > now) {
                continue;
            }
            let platform = live.row.chat.platform;
            let (now_due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut live.due)
                .into_iter()
                .partition(|(at, _, _)| *at <= now);
            live.due = later;
            for (_, n, post) in now_due {
                ready.push((id, platform, result_key(id, n), n, post));
            }
        }
        let mut platforms: Vec<Platform> = ready.iter().map(|r| r.1).collect();
        platforms.sort_by_key(|p| p.as_str());
        platforms.dedup();
        for platform in platforms {
            let keys: Vec<String> = ready
                .iter()
                .filter(|r| r.1 == platform)
                .map(|r| r.2.clone())
                .collect();
            match self.store.posted_once(platform, &keys).await {
                Ok(posted) => {
                    for (id, _, key, _, post) in ready.iter().filter(|r| r.1 == platform) {
                        if !posted.contains(key) {
                            tracing::info!(
                                table = id,
                                key = key.as_str(),
                                "posting a result no process posted"
                            );
                            out.push(post.clone());
                        }
                    }
                }
                Err(e) => {
                    // Looked for again at the next sweep.
                    tracing::debug!(error = %e, "could not read which results were posted");
                    for (id, _, _, n, post) in ready.iter().filter(|r| r.1 == platform) {
                        self.running.due_again(*id, (now, *n, post.clone())).await;
                    }
                }
            }
        }
    }

    /// Loads table `id` afresh, shows it and drives it (see `sweep`). Read afresh even if this
    /// process holds it at the last action: what is not an action (a choice of cards to
    /// bury) may have changed, and what another process showed of it may have been lost with
    /// that process.
    pub(crate) async fn take_over(self: &Arc<Self>, id: i64) -> Result<Outbox, HostError> {
        self.evict(id);
        match self.load_table(id, false).await? {
            Some(shared) => self.resume_loaded(id, shared).await,
            None => Ok(Outbox::default()),
        }
    }

    /// Drives a table just loaded from the log (at start, or taken over): its owed result,
    /// then the next deal if a crash left it between deals (or between the start and the
    /// first deal; the end if its game is over), or its computer players and turn timer.
    /// On a conflict another process moved first and drives it; on any error the copy is
    /// dropped (what was committed stands; it is read afresh next time).
    pub(crate) async fn resume_loaded(
        self: &Arc<Self>,
        id: i64,
        shared: Shared,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let mut live = shared.lock().await;
        // The messages whose last edit may have died with the process that made it (a
        // group's edits are paced: they wait for their slot): the started lobby's, and the
        // last finished deal's table message as it ended. The terminal keeps no messages.
        let final_table = live.final_table.take();
        if live.row.chat.platform != Platform::Local {
            if live.row.tournament.is_none() {
                live.render_lobby_started(&mut out);
            }
            out.0.extend(final_table);
        }
        if live.owed_hands.is_some() {
            let langs = self.langs(&live).await;
            owed_hands(&mut live, &langs, &mut out);
        }
        self.owed_results(&mut live, &mut out).await;
        let between = live.game.as_ref().is_some_and(|g| !g.in_deal());
        let moved = if between {
            self.resume_between_deals(&mut live).await
        } else {
            self.drive(&mut live).await
        };
        drop(live);
        match moved {
            Ok(o) => out.extend(o),
            Err(HostError::Conflict) => {
                crate::observe::takeover("conflict");
                self.evict(id);
            }
            Err(e) => {
                self.evict(id);
                return Err(e);
            }
        }
        Ok(out)
    }

    /// The results of a table's deals that no process posted: the process that played them
    /// may have died with its posts still waiting to be sent (a chat's messages go out one
    /// at a time; the next deal's hands went out to other chats meanwhile, and were played).
    /// The database says which were posted; adapters post each only if it still was not
    /// (`Out::Post::once`). In the terminal, which keeps no posts, only the last deal's
    /// result when nobody has moved since.
    pub(crate) async fn owed_results(&self, live: &mut Live, out: &mut Outbox) {
        let ended = std::mem::take(&mut live.ended);
        let last = live.owed_result.take();
        let platform = live.row.chat.platform;
        if platform == Platform::Local {
            if let Some(report) = last {
                out.push(live.result_post(&report));
            }
            return;
        }
        let keys: Vec<String> = ended.iter().map(|(n, _, _)| result_key(live.id(), *n)).collect();
        match self.store.posted_once(platform, &keys).await {
            Ok(posted) => {
                for ((_, post, _), key) in ended.into_iter().zip(keys) {
                    if !posted.contains(&key) {
                        out.push(post);
                    }
                }
            }
            Err(e) => {
                tracing::debug!(error = %e, "could not read which results were posted");
                if let Some(report) = last {
                    out.push(live.result_post(&report));
                }
            }
        }
    }

    /// A running table found without a deal in progress: the next deal, or the end.
    pub(crate) async fn resume_between_deals(self: &Arc<Self>, live: &mut Live) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        if live.game.as_ref().is_some_and(|g| g.is_over()) || live.limit_reached(self.now_ms()) {
            self.finish(live, &mut out).await?;
            return Ok(out);
        }
        let seed = (self.config.seeds)(live.id(), live.seeds.len() + 1);
        live.start_deal(&self.store, seed, &mut out).await?;
        out.extend(self.drive(live).await?);
        Ok(out)
    }
}

/// The hands of the deal whose result was owed, as that deal ended (no buttons), when the
/// next deal has started since: the process that ended it may have died before showing them.
fn owed_hands(live: &mut Live, langs: &HashMap<String, Lang>, out: &mut Outbox) {
    let Some(prior) = live.owed_hands.take() else {
        return;
    };
    let lang = prior.lang();
    for s in &prior.seats {
        if let Occupant::Human { user_id } = &s.occupant {
            out.push(prior.hand_message(s.seat, user_id, langs.get(user_id).copied().unwrap_or(lang)));
        }
    }
}
