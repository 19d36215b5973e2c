//! The turn timers of the running tables: a warning at half the turn's time, then a computer
//! player moves for the person to act (`TimedHost::timeout`). Every process that holds a
//! table arms its timer; the first to claim it in the database acts. A part of the host with
//! its own state (when this process last met its database failing, from which a turn's time
//! runs again); it asks the host through `TimedHost`.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use stikis_core::Seat;
use tokio::time::Instant;

use crate::i18n::{t, Arg};
use crate::outbox::{Out, Outbox};
use crate::running::Running;
use crate::store::Store;
use crate::table::{HostError, Live};

/// What the timers ask of the host.
pub(crate) trait TimedHost: Send + Sync + 'static {
    fn timers(&self) -> &Timers;
    fn store(&self) -> &Store;
    fn running(&self) -> &Running;
    /// Lets this process's copy of table `id` go (it was found stale, or a move failed).
    fn evict(&self, id: i64);
    /// Shows an outbox no request asked for.
    fn publish(&self, out: Outbox);
    /// The time is up at `live` for `seat` (named `name`): a computer player moves for them.
    fn timeout(
        self: &Arc<Self>,
        live: &mut Live,
        seat: Seat,
        name: String,
    ) -> impl Future<Output = Result<Outbox, HostError>> + Send;
}

/// The timers' own state.
#[derive(Default)]
pub(crate) struct Timers {
    /// When this process last met its database failing (`Timers::store_failed`). A turn's
    /// clock runs from then if that was later than the turn's start (`arm`): while the
    /// database was away, the person to act could not, their presses answered "try again".
    store_failed_at: Mutex<Option<Instant>>,
}

impl Timers {
    /// Notes that the database failed now: the turns running give their person their time
    /// again from now.
    pub fn store_failed(&self) {
        *self.store_failed_at.lock().expect("store_failed_at") = Some(Instant::now());
    }

    fn failed_at(&self) -> Option<Instant> {
        *self.store_failed_at.lock().expect("store_failed_at")
    }

    /// Starts the turn timer for the person to act at `live`: a warning at half time, then
    /// a computer player moves for them. Nothing for a table without a time limit, or a seat
    /// of a computer player or of someone away.
    pub fn arm<H: TimedHost>(&self, host: &Arc<H>, live: &Live) {
        let Some(limit) = live.settings.turn_limit_secs else {
            return;
        };
        let Some(seat) = live.game.as_ref().and_then(|g| g.to_act()) else {
            return;
        };
        let away = live.seats.iter().any(|s| s.seat == seat && s.away);
        if live.bot_level(seat).is_some() || away {
            return;
        }
        let (id, gen) = (live.id(), live.turn_gen);
        let limit = Duration::from_secs(limit.into());
        let since = self
            .failed_at()
            .map_or(live.turn_since, |f| f.max(live.turn_since));
        let half = since + limit / 2;
        let end = since + limit;
        let host = Arc::clone(host);
        tokio::spawn(async move {
            tokio::time::sleep_until(half).await;
            if fire(&host, id, gen, seat, since, false).await {
                tokio::time::sleep_until(end).await;
                fire(&host, id, gen, seat, since, true).await;
            }
        });
    }
}

/// The turn timer of turn `gen` at table `id`, armed to run from `since`, at half time or
/// (`expired`) at its end. False if it was armed anew instead (the database failed since
/// `since`): this one is done.
async fn fire<H: TimedHost>(
    host: &Arc<H>,
    id: i64,
    gen: u64,
    seat: Seat,
    since: Instant,
    expired: bool,
) -> bool {
    let Some(shared) = host.running().get(id) else {
        return true;
    };
    let mut live = shared.lock().await;
    if live.turn_gen != gen {
        return true;
    }
    if host.timers().failed_at().is_some_and(|f| f > since) {
        // The person could not act while the database failed: their time runs again. (A
        // copy the failure left without its game was evicted; its next load arms anew.)
        host.timers().arm(host, &live);
        return false;
    }
    // A copy another process moved on from is stale: its timer is not this turn's.
    match host.store().next_seq(id).await {
        Ok(next) if next - 1 == live.seq => {}
        Ok(_) => {
            crate::observe::takeover("moved_elsewhere");
            drop(live);
            host.evict(id);
            return true;
        }
        Err(e) => {
            // Given up here; a sweep takes the quiet table over and arms the timer anew.
            tracing::warn!(table = id, error = %e, "could not check a timed table");
            crate::observe::store_error("timer", &e);
            host.timers().store_failed();
            drop(live);
            host.evict(id);
            return true;
        }
    }
    // Every process with the table loaded armed this timer: the first to claim it acts.
    let kind = if expired { "move" } else { "warn" };
    match host.store().claim_timer(id, live.seq, kind).await {
        Ok(true) => {}
        Ok(false) => return true,
        Err(e) => {
            tracing::warn!(table = id, error = %e, "could not claim a turn timer");
            crate::observe::store_error("timer", &e);
            host.timers().store_failed();
            drop(live);
            host.evict(id);
            return true;
        }
    }
    let name = live
        .seats
        .get(seat as usize)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let lang = live.lang();
    let mut out = Outbox::default();
    if !expired {
        let left = live.settings.turn_limit_secs.unwrap_or(0).div_ceil(2);
        out.push(Out::Post {
            chat: live.row.chat.clone(),
            text: t(
                lang,
                "turn-warning",
                &[("name", name.into()), ("seconds", Arg::from(left))],
            ),
            once: None,
        });
        host.publish(out);
        return true;
    }
    match host.timeout(&mut live, seat, name).await {
        Ok(o) => out.extend(o),
        Err(HostError::Conflict) => {
            // Another process moved first; the next use reloads the table.
            crate::observe::takeover("conflict");
            drop(live);
            host.evict(id);
        }
        Err(e) => {
            tracing::warn!(table = id, error = %e, "a timeout move failed");
            crate::observe::host_error("timer", &e);
            drop(live);
            host.evict(id);
        }
    }
    host.publish(out);
    true
}
