//! What the live pages (the web adapter's `/play`) ask of the host: a person's view of a table
//! (`TableView`, drawn in `crate::view`), the table changes as they happen with the views drawn
//! once at a commit for the pages open here, and a page's tap shown in the chat. Where they go
//! is the publishing part's (`crate::publish`); which views are drawn and which hands are
//! held back, the watching part's.

use crate::i18n::Lang;
use crate::outbox::{Out, Outbox, Request};
use crate::table::{HostError, Live};
use crate::view::{tables_shown, Change, Drawn, TableView};
use crate::Host;

impl Host {
    /// What `viewer` sees of table `id` now (None: no such open table). A copy this process
    /// holds that another process has moved on since is read again first.
    pub async fn table_view(&self, id: i64, viewer: Option<&str>) -> Result<Option<TableView>, HostError> {
        self.table_view_in(id, viewer, None).await
    }

    /// `table_view` in language `lang` when one is asked for (a page's own choice), else in
    /// the viewer's (a spectator: the community's). The group's table text stays in the
    /// community's language, as the group sees it.
    pub async fn table_view_in(
        &self,
        id: i64,
        viewer: Option<&str>,
        lang: Option<Lang>,
    ) -> Result<Option<TableView>, HostError> {
        let Some(row) = self.store.table(id).await? else {
            return Ok(None);
        };
        if !row.status.is_open() {
            return Ok(None);
        }
        let lang = match (lang, viewer) {
            (Some(l), _) => l,
            (None, Some(u)) => self.user_lang(&row.chat, u).await,
            (None, None) => self.community_lang(&row.chat).await,
        };
        let Some(mut shared) = self.fresh_table(&row).await? else {
            return Ok(None);
        };
        // A half-made choice (the first card of a burial) changes no action number: on a
        // table another process owns, the seat's pick is made there and kept in the
        // database, and this copy is read again when it holds another.
        if let (Some(u), false) = (viewer, self.owns(id)) {
            let other = {
                let live = shared.lock().await;
                self.other_choice(&live, u).await?
            };
            if other {
                self.evict(id);
                let Some(again) = self.table(id).await? else {
                    return Ok(None);
                };
                shared = again;
            }
        }
        let live = shared.lock().await;
        Ok(Some(live.view(viewer, lang, self.now_ms())))
    }

    /// Table changes as they happen, in this process and (on PostgreSQL) in the others: each
    /// table whose state changed, with the views its pages here draw when the change was a
    /// commit made here (published once, for all of them).
    pub fn changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.publisher.changes()
    }

    /// Draws, once each, the views that the pages open here draw of `live` (none: nothing is
    /// drawn), to be pushed with the table's change when it is announced.
    pub(crate) fn draw_for_pages(&self, live: &Live) {
        let keys = self.watching.views_drawn(live.id());
        if keys.is_empty() {
            return;
        }
        let drawn = Drawn::of(live, keys, self.now_ms());
        self.watching.set_drawn(live.id(), drawn);
    }

    /// Tells the live pages that the tables `out` shows have changed.
    pub(crate) fn announce(&self, out: &Outbox) {
        for id in tables_shown(out) {
            self.announce_table(id);
        }
    }

    /// Tells the live pages that table `id` has changed (here, with the views drawn for them
    /// at its commit, and on PostgreSQL in the other processes): a change no table message
    /// shows, such as the table's end, too.
    /// Only tables another process has a page of are announced to the others (`Host::follow`).
    pub(crate) fn announce_table(&self, id: i64) {
        let drawn = self.watching.take_drawn(id).map(std::sync::Arc::new);
        self.publisher.to_pages(Change { table: id, drawn });
        if self.watching.is_followed_elsewhere(id) {
            self.publisher.tell_others(id);
        }
    }

    /// A request made outside the chat (a tap on the live table): handled as the chat's
    /// would be, what it changed in the chat shown there by the chat adapter (the events
    /// channel) as if the move had been made there, and its answer to the person returned
    /// for the page that asked. The page never carries the chat's messages itself.
    pub async fn tap(self: &std::sync::Arc<Self>, req: Request) -> Option<String> {
        let mut out = self.handle(req).await;
        let reply = out.reply_text().map(str::to_string);
        out.0.retain(|o| !matches!(o, Out::Reply { .. }));
        self.forward(out);
        reply
    }

    /// Has the chat adapter show what a request made outside the chat returned: `handle` has
    /// told the live pages already.
    /// Hands of seats followed on the live table are held back (`watching`).
    pub(crate) fn forward(&self, mut out: Outbox) {
        self.watching.hold(&mut out);
        self.publisher.show(out);
    }

    /// A change another process told of (PostgreSQL `NOTIFY`): passed on to this process's
    /// live pages; None (the listener lost its connection meanwhile) is told as table 0, "any
    /// table may have changed".
    pub fn changed_elsewhere(&self, id: Option<i64>) {
        self.publisher.to_pages(Change {
            table: id.unwrap_or(0),
            drawn: None,
        });
    }

    /// Shows an outbox that no chat update asked for (a move made on the live table): the
    /// chat adapter shows it with the timers' outboxes.
    /// Hands of seats followed on the live table are held back (`watching`).
    pub fn publish(&self, out: Outbox) {
        self.announce(&out);
        self.forward(out);
    }
}
