//! The publishing part: where what the host made goes once it is made. It owns the stream of
//! outboxes no request asked for (timers, tournament rounds, taps on the live table), which
//! the chat adapter shows; the table changes the live pages here follow; and the notices of
//! changed tables to the other processes on PostgreSQL (`NOTIFY`, gathered). It asks nothing
//! of the `Host`: what to hold back from the chat and which views to push are decided by the
//! watching part before anything is handed here.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};

use crate::outbox::Outbox;
use crate::store::Store;
use crate::view::Change;

/// How long table changes are gathered before the other processes are told of them.
const CHANGES_GATHER: Duration = Duration::from_millis(20);

/// How many changes a slow page's feed may fall behind before it is told it lagged.
const CHANGES_KEPT: usize = 4096;

/// The publishing part (see the module's text).
pub(crate) struct Publisher {
    store: Store,
    /// Outboxes that no request asked for, for the chat adapter to show.
    events: mpsc::UnboundedSender<Outbox>,
    /// Tables that changed, for the live pages of this process.
    changed: broadcast::Sender<Change>,
    /// Tables changed, to be told to the other processes (started at the first).
    changed_out: Mutex<Option<mpsc::UnboundedSender<i64>>>,
}

impl Publisher {
    /// A publisher, and the stream of outboxes it gives the chat adapter.
    pub(crate) fn new(store: Store) -> (Publisher, mpsc::UnboundedReceiver<Outbox>) {
        let (events, rx) = mpsc::unbounded_channel();
        let publisher = Publisher {
            store,
            events,
            changed: broadcast::channel(CHANGES_KEPT).0,
            changed_out: Mutex::new(None),
        };
        (publisher, rx)
    }

    /// Hands `out` to the chat adapter as it is (nothing more is held back).
    pub(crate) fn show(&self, out: Outbox) {
        let _ = self.events.send(out);
    }

    /// The table changes as the live pages of this process get them.
    pub(crate) fn changes(&self) -> broadcast::Receiver<Change> {
        self.changed.subscribe()
    }

    /// Tells the live pages of this process of a change.
    pub(crate) fn to_pages(&self, change: Change) {
        let _ = self.changed.send(change);
    }

    /// Tells the other processes (PostgreSQL) that table `id` changed, with the others
    /// changed within `CHANGES_GATHER`: one `NOTIFY` per move was a fifth of a busy bot's
    /// statements, and each wakes every listening connection on the database.
    pub(crate) fn tell_others(&self, id: i64) {
        if !self.store.is_postgres() || tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let mut tx = self.changed_out.lock().expect("changed out");
        if tx.as_ref().is_some_and(|t| t.send(id).is_ok()) {
            return;
        }
        let (t, rx) = mpsc::unbounded_channel();
        let _ = t.send(id);
        tokio::spawn(tell_changes(self.store.clone(), rx));
        *tx = Some(t);
    }
}

/// Tells the other processes of the tables changed, gathered for `CHANGES_GATHER` (each once),
/// until the publisher is gone.
async fn tell_changes(store: Store, mut rx: mpsc::UnboundedReceiver<i64>) {
    while let Some(first) = rx.recv().await {
        tokio::time::sleep(CHANGES_GATHER).await;
        let mut ids = BTreeSet::from([first]);
        while let Ok(id) = rx.try_recv() {
            ids.insert(id);
        }
        let ids: Vec<i64> = ids.into_iter().collect();
        if let Err(e) = store.notify_changed(&ids).await {
            tracing::debug!(error = %e, tables = ?ids, "table changes were not told to the other processes");
        }
    }
}
