//! The running tables this process holds: its copies of them (`Shared`, one per table, the
//! copy that stands when two tasks load one at once), the results their dropped copies still
//! owe (`DueResult`s, kept when a copy is let go), and what the sweep took over. A part of
//! the host with its own state (`Host::running`): it asks nothing of the host, and the host
//! reaches the copies only through it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Mutex as AsyncMutex;

use crate::table::{DueResult, Live, Shared};

/// The copies of tables held here, and what is remembered of the copies let go.
#[derive(Default)]
pub(crate) struct Running {
    held: Mutex<HashMap<i64, Shared>>,
    /// The result posts to look for when due (`Live::due`) of copies dropped before they
    /// were (`Running::drop_copy`): a copy read afresh by the process that moved the table
    /// last owes nothing it knows of, so they would be lost (a result never posted in a
    /// 300 s chaos run). `Host::post_due_results` looks for them with the copies' own.
    dropped_due: Arc<Mutex<HashMap<i64, Vec<DueResult>>>>,
    /// Tables the sweep took over, with the time of their last event then and whether their
    /// last mover was gone.
    swept: Mutex<HashMap<i64, (i64, bool)>>,
}

impl Running {
    /// This process's copy of table `id`, if it holds one.
    pub fn get(&self, id: i64) -> Option<Shared> {
        self.held.lock().expect("table map").get(&id).cloned()
    }

    /// Keeps `live` as this process's copy of table `id`, unless another task kept one first:
    /// the copy that stands.
    pub fn keep(&self, id: i64, live: Live) -> Shared {
        let shared = Arc::new(AsyncMutex::new(live));
        self.held
            .lock()
            .expect("table map")
            .entry(id)
            .or_insert(shared)
            .clone()
    }

    /// The ids of the tables held here.
    pub fn ids(&self) -> Vec<i64> {
        self.held.lock().expect("table map").keys().copied().collect()
    }

    /// Every table held here, with its id.
    pub fn all(&self) -> Vec<(i64, Shared)> {
        self.held
            .lock()
            .expect("table map")
            .iter()
            .map(|(id, t)| (*id, Arc::clone(t)))
            .collect()
    }

    /// How many tables are held here.
    pub fn len(&self) -> usize {
        self.held.lock().map_or(0, |t| t.len())
    }

    /// Lets this process's copy of table `id` go (the next use reads the table again). The
    /// results it still had to look for are kept, now or once whoever holds the copy lets
    /// it go (in a task of its own, on a runtime). False if no copy was held.
    pub fn drop_copy(&self, id: i64) -> bool {
        let Some(shared) = self.held.lock().expect("table map").remove(&id) else {
            return false;
        };
        let dropped = Arc::clone(&self.dropped_due);
        let keep = move |live: &mut Live| {
            let due = std::mem::take(&mut live.due);
            if !due.is_empty() {
                dropped
                    .lock()
                    .expect("dropped due")
                    .entry(id)
                    .or_default()
                    .extend(due);
            }
        };
        if let Ok(mut live) = shared.try_lock() {
            keep(&mut live);
            return true;
        }
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(async move {
                let mut live = shared.lock().await;
                keep(&mut live);
            });
        }
        true
    }

    /// The results of dropped copies due by `now`, with their tables; the later ones stay.
    pub fn take_dropped_due(&self, now: i64) -> Vec<(i64, DueResult)> {
        let mut dropped = self.dropped_due.lock().expect("dropped due");
        let mut ready = Vec::new();
        for (id, due) in dropped.iter_mut() {
            let (now_due, later): (Vec<_>, Vec<_>) =
                std::mem::take(due).into_iter().partition(|(at, _, _)| *at <= now);
            *due = later;
            ready.extend(now_due.into_iter().map(|d| (*id, d)));
        }
        dropped.retain(|_, due| !due.is_empty());
        ready
    }

    /// Keeps `due` to be looked for again, on the table's copy if one is held here, else
    /// with the dropped copies' results.
    pub async fn due_again(&self, id: i64, due: DueResult) {
        match self.get(id) {
            Some(shared) => shared.lock().await.due.push(due),
            None => self
                .dropped_due
                .lock()
                .expect("dropped due")
                .entry(id)
                .or_default()
                .push(due),
        }
    }

    /// Whether the sweep took table `id` over at its last event `last_ms` already (and
    /// again once its last mover was gone, `orphaned`).
    pub fn swept(&self, id: i64, last_ms: i64, orphaned: bool) -> bool {
        let seen = self.swept.lock().expect("swept map").get(&id).copied();
        seen.is_some_and(|(ms, was_orphaned)| ms == last_ms && (was_orphaned || !orphaned))
    }

    /// Notes that the sweep took table `id` over at its last event `last_ms`.
    pub fn mark_swept(&self, id: i64, last_ms: i64, orphaned: bool) {
        self.swept
            .lock()
            .expect("swept map")
            .insert(id, (last_ms, orphaned));
    }
}
