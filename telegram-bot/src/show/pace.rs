//! New messages in a group, within its post budget: Telegram takes about 20 new messages a
//! minute in one group (its topics share the limit), and a table played fast (from the live
//! page, by computer players) owes more than that: a deal's result, the next deal's start and
//! its table message, every few seconds.
//!
//! Every new message of a group (a post, a keyed message's first showing) goes through one
//! queue per group, first in first out, and out within `PostBudget` (at most `posts` in any
//! `window`); one goes at once while the budget allows, as before. Only new messages wait
//! here: edits keep their own pace (`Pace`, one slot per `edit_interval`), and hands (private
//! chats, ephemeral messages in the group) never wait behind posts.
//!
//! What is owed when play outruns the budget is merged, never dropped or reordered:
//! - consecutive posts to one chat (and topic) go out as one message while it fits Telegram's
//!   4096 characters (a deal's result, the next deal's start, the next result...); each
//!   part's `once` key is remembered with the message they went out in (`Shower::posts`), so
//!   a process that takes the table over does not post them again;
//! - a keyed message waiting for its first showing is replaced where it waits by a newer
//!   state of it (the current table message is never queued behind stale ones);
//! - a deal's table message that is still waiting for its first showing when a newer deal's
//!   table message of the same table is wanted is not shown at all: its deal is over, and its
//!   result (a post) keeps its place. A later showing of it is not shown either.
//!
//! Crashes: what waits here is in memory. Shut down gracefully, everything waiting goes out
//! (`Shower::flush_all`, merged, past the budget: Telegram's 429s are waited out). Killed,
//! the waiting posts are lost, but not for what matters: a deal's result counts as posted
//! only once it was sent (`Store::claim_once` at sending, its message id kept after), never
//! while it waits here, so the process that takes the table over, or this one after a
//! restart, posts every result that no process posted, in order, however many waited
//! (`Live::load_owing` looks back from the last deal for as long as it finds results not
//! posted; `Host::owed_results`, and each one's own check after `OWED_WAIT` too), and the
//! current table message and hands are shown again from the database. A result asked for
//! again while it waits here keeps its place (`Group::push`). Not recovered: posts without
//! a key (a deal's "started" line, notices, a table's end, a tournament's posts).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use stikis_host::store::ChatRef;
use stikis_host::Button;
use teloxide::RequestError;
use tokio::time::Instant;

use super::{chat_id, deal_of_key, table_of_key, Shower};

/// New messages one group may be sent: at most `posts` in any `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostBudget {
    pub posts: usize,
    pub window: Duration,
}

impl Default for PostBudget {
    /// Telegram's documented limit: about 20 messages a minute in one group.
    fn default() -> Self {
        PostBudget {
            posts: 20,
            window: Duration::from_secs(60),
        }
    }
}

/// The longest text merged posts may make, in bytes (never fewer than the UTF-16 units
/// Telegram counts its 4096 in).
const MAX_TEXT: usize = 4096;

/// A new message waiting for the group's budget.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Item {
    /// Posts, merged into one message (`Shower::posts`): each part's text and `once` key.
    Post {
        chat: ChatRef,
        parts: Vec<(String, Option<String>)>,
    },
    /// The first showing of keyed message `key` (its newest wanted state).
    First {
        chat: ChatRef,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        version: i64,
    },
}

/// The length of `parts` joined as one message.
fn joined_len(parts: &[(String, Option<String>)]) -> usize {
    parts.iter().map(|(t, _)| t.len()).sum::<usize>() + 2 * parts.len().saturating_sub(1)
}

/// One group's new messages.
#[derive(Default)]
pub(super) struct Group {
    /// When each new message of the window went (its answer came back), oldest first.
    sent: VecDeque<Instant>,
    /// What waits, in order.
    queue: VecDeque<Item>,
    /// A sender is at work (sending, or waiting for the budget): others only queue.
    busy: bool,
    /// The newest deal whose table message was wanted here, by table.
    newest: HashMap<i64, i64>,
}

impl Group {
    /// Queues `item`, merged with what waits (see the module note). False: it is a table
    /// message of a deal that a newer deal's replaced, and is not shown.
    pub(super) fn push(&mut self, item: Item) -> bool {
        if let Item::First { key, .. } = &item {
            if let (Some(table), Some(deal)) = (table_of_key(key), deal_of_key(key)) {
                let newest = self.newest.entry(table).or_insert(deal);
                if deal < *newest {
                    return false;
                }
                *newest = deal;
                // Older deals' table messages of this table that still wait are not shown.
                self.queue.retain(|i| match i {
                    Item::First { key: k, .. } => {
                        table_of_key(k) != Some(table) || deal_of_key(k).is_none_or(|d| d >= deal)
                    }
                    Item::Post { .. } => true,
                });
            }
            // A newer state of a message that waits takes its place.
            let waiting = self
                .queue
                .iter_mut()
                .find(|i| matches!(i, Item::First { key: k, .. } if k == key));
            match waiting {
                Some(slot) => *slot = item,
                None => self.queue.push_back(item),
            }
        } else if let Item::Post { chat, mut parts } = item {
            // A result that waits already (asked for again: `Host::post_due_results` found
            // it not posted yet) keeps its place: it is posted once, where it first waited.
            parts.retain(|(_, once)| once.as_ref().is_none_or(|k| !self.waits(&chat, k)));
            if !parts.is_empty() {
                self.queue.push_back(Item::Post { chat, parts });
            }
        } else {
            self.queue.push_back(item);
        }
        self.merge();
        true
    }

    /// Whether a post kept under `once` waits for `chat`.
    fn waits(&self, chat: &ChatRef, once: &str) -> bool {
        self.queue.iter().any(|i| match i {
            Item::Post { chat: c, parts } => c == chat && parts.iter().any(|p| p.1.as_deref() == Some(once)),
            Item::First { .. } => false,
        })
    }

    /// Merges consecutive posts to one chat (and topic) that fit one message.
    fn merge(&mut self) {
        let mut merged: VecDeque<Item> = VecDeque::with_capacity(self.queue.len());
        for item in self.queue.drain(..) {
            if let (Some(Item::Post { chat: c, parts: p }), Item::Post { chat, parts }) =
                (merged.back_mut(), &item)
            {
                if c == chat && joined_len(p) + 2 + joined_len(parts) <= MAX_TEXT {
                    p.extend(parts.iter().cloned());
                    continue;
                }
            }
            merged.push_back(item);
        }
        self.queue = merged;
    }

    /// None if a new message may go now, else when one may.
    fn slot(&mut self, now: Instant, budget: PostBudget) -> Option<Instant> {
        while self
            .sent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= budget.window)
        {
            self.sent.pop_front();
        }
        (self.sent.len() >= budget.posts.max(1)).then(|| self.sent[0] + budget.window)
    }

    /// The next waiting message, to be sent now, if the budget allows one; else when it will
    /// (or nothing waits: the sender stops).
    fn next(&mut self, now: Instant, budget: PostBudget) -> Next {
        if self.queue.is_empty() {
            self.busy = false;
            return Next::Idle;
        }
        match self.slot(now, budget) {
            Some(at) => Next::Wait(at),
            None => Next::Send(self.queue.pop_front().expect("a waiting message")),
        }
    }

    /// A new message went: it counts from when its answer came back (never before Telegram
    /// took it, so this count never falls behind Telegram's).
    fn sent(&mut self, at: Instant) {
        self.sent.push_back(at);
    }

    #[cfg(test)]
    pub(super) fn waiting(&self) -> &VecDeque<Item> {
        &self.queue
    }
}

enum Next {
    Send(Item),
    Wait(Instant),
    Idle,
}

impl Shower {
    /// Shows a new message of `chat`: at once while its group's budget allows and nothing
    /// waits before it, else queued (merged, see the module note) and sent by the group's
    /// sender in order. Private chats have no budget.
    pub(super) async fn new_message(
        self: &Arc<Self>,
        chat: &ChatRef,
        item: Item,
    ) -> Result<(), RequestError> {
        let group = chat_id(chat).map(|c| c.0).filter(|c| *c < 0);
        let (Some(budget), Some(group)) = (self.post_budget, group) else {
            return self.send_new(item).await;
        };
        let now = {
            let mut groups = self.groups.lock().expect("groups");
            let g = groups.entry(group).or_default();
            if !g.push(item) || g.busy {
                return Ok(());
            }
            g.busy = true;
            match g.next(Instant::now(), budget) {
                Next::Send(item) => Some(item),
                Next::Wait(_) => None,
                Next::Idle => return Ok(()),
            }
        };
        let Some(item) = now else {
            let me = Arc::clone(self);
            tokio::spawn(async move { me.send_waiting(group, budget).await });
            return Ok(());
        };
        let sent = self.send_new(item).await;
        let more = {
            let mut groups = self.groups.lock().expect("groups");
            let g = groups.entry(group).or_default();
            g.sent(Instant::now());
            if g.queue.is_empty() {
                g.busy = false;
                false
            } else {
                true
            }
        };
        if more {
            let me = Arc::clone(self);
            tokio::spawn(async move { me.send_waiting(group, budget).await });
        }
        sent
    }

    /// The group's sender: sends what waits, one new message at a time within the budget,
    /// until nothing waits.
    async fn send_waiting(self: Arc<Self>, group: i64, budget: PostBudget) {
        loop {
            let next = {
                let mut groups = self.groups.lock().expect("groups");
                let g = groups.entry(group).or_default();
                g.next(Instant::now(), budget)
            };
            match next {
                Next::Idle => return,
                Next::Wait(at) => tokio::time::sleep_until(at).await,
                Next::Send(item) => {
                    if let Err(e) = self.send_new(item).await {
                        tracing::warn!(error = %e, "could not show a message");
                    }
                    let mut groups = self.groups.lock().expect("groups");
                    groups.entry(group).or_default().sent(Instant::now());
                }
            }
        }
    }

    /// Sends everything waiting for a group's budget now (at shutdown: nothing is lost;
    /// Telegram's 429s are waited out).
    pub(super) async fn flush_new(self: &Arc<Self>) {
        let waiting: Vec<Item> = {
            let mut groups = self.groups.lock().expect("groups");
            groups.values_mut().flat_map(|g| g.queue.drain(..)).collect()
        };
        for item in waiting {
            if let Err(e) = self.send_new(item).await {
                tracing::warn!(error = %e, "a last post failed");
            }
        }
    }

    async fn send_new(self: &Arc<Self>, item: Item) -> Result<(), RequestError> {
        match item {
            Item::Post { chat, parts } => self.posts(&chat, parts).await,
            Item::First {
                chat,
                key,
                text,
                buttons,
                version,
            } => self.first_showing(&chat, &key, &text, &buttons, version).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stikis_host::store::Platform;

    fn chat(thread: Option<&str>) -> ChatRef {
        let mut c = ChatRef::new(Platform::Telegram, "-100", "-100");
        c.thread = thread.map(str::to_string);
        c
    }

    fn post(text: &str, once: Option<&str>) -> Item {
        Item::Post {
            chat: chat(None),
            parts: vec![(text.to_string(), once.map(str::to_string))],
        }
    }

    fn first(key: &str, text: &str) -> Item {
        Item::First {
            chat: chat(None),
            key: key.to_string(),
            text: text.to_string(),
            buttons: vec![],
            version: 1,
        }
    }

    fn texts(g: &Group) -> Vec<String> {
        g.waiting()
            .iter()
            .map(|i| match i {
                Item::Post { parts, .. } => parts.iter().map(|p| p.0.as_str()).collect::<Vec<_>>().join("+"),
                Item::First { key, text, .. } => format!("{key}:{text}"),
            })
            .collect()
    }

    /// Deals that end faster than the budget: their results merge into one post, in order,
    /// each keeping its key; only the newest deal's table message waits, behind them.
    #[test]
    fn owed_results_merge_in_order_and_only_the_newest_table_message_waits() {
        let mut g = Group::default();
        for d in 1..=4 {
            assert!(g.push(post(&format!("result {d}"), Some(&format!("t1.d{d}.result")))));
            assert!(g.push(post(&format!("deal {} starts", d + 1), None)));
            assert!(g.push(first(&format!("t1.d{}", d + 1), "a")));
            assert!(g.push(first(&format!("t1.d{}", d + 1), "b")));
        }
        assert_eq!(
            texts(&g),
            [
                "result 1+deal 2 starts+result 2+deal 3 starts+result 3+deal 4 starts+result 4+deal 5 starts",
                "t1.d5:b"
            ]
        );
        let Item::Post { parts, .. } = &g.waiting()[0] else {
            panic!()
        };
        let keys: Vec<&str> = parts.iter().filter_map(|p| p.1.as_deref()).collect();
        assert_eq!(
            keys,
            ["t1.d1.result", "t1.d2.result", "t1.d3.result", "t1.d4.result"]
        );
        // A late showing of an older deal's table message is not shown.
        assert!(!g.push(first("t1.d3", "late")));
        // Another table's message and the lobby are their own.
        assert!(g.push(first("t2.d1", "x")));
        assert!(g.push(first("t1.lobby", "y")));
        assert_eq!(g.waiting().len(), 4);
    }

    /// A result asked for again while it waits (its due check found it not posted yet) is
    /// not queued twice: it keeps its place, before what came after it.
    #[test]
    fn a_result_asked_for_again_while_it_waits_keeps_its_place() {
        let mut g = Group::default();
        g.push(post("result 1", Some("t1.d1.result")));
        g.push(first("t1.d2", "a"));
        g.push(post("result 2", Some("t1.d2.result")));
        g.push(post("result 1 again", Some("t1.d1.result")));
        g.push(post("deal 3 starts", None));
        assert_eq!(texts(&g), ["result 1", "t1.d2:a", "result 2+deal 3 starts"]);
    }

    #[test]
    fn merged_posts_stay_within_telegrams_length_and_topics_apart() {
        let mut g = Group::default();
        let long = "x".repeat(3000);
        g.push(post(&long, None));
        g.push(post(&long, None));
        g.push(post("short", None));
        assert_eq!(g.waiting().len(), 2);
        g.push(Item::Post {
            chat: chat(Some("7")),
            parts: vec![("topic".into(), None)],
        });
        g.push(post("after", None));
        assert_eq!(g.waiting().len(), 4, "{:?}", texts(&g));
        for i in g.waiting() {
            if let Item::Post { parts, .. } = i {
                assert!(joined_len(parts) <= MAX_TEXT);
            }
        }
    }

    #[test]
    fn the_budget_lets_so_many_go_in_any_window() {
        let budget = PostBudget {
            posts: 2,
            window: Duration::from_secs(10),
        };
        let mut g = Group::default();
        let t0 = Instant::now();
        for i in 0..3 {
            g.push(post(&i.to_string(), None));
            g.push(first(&format!("t{i}.d1"), "m"));
        }
        assert!(matches!(g.next(t0, budget), Next::Send(_)));
        g.sent(t0);
        assert!(matches!(g.next(t0, budget), Next::Send(_)));
        g.sent(t0 + Duration::from_secs(1));
        assert!(
            matches!(g.next(t0 + Duration::from_secs(2), budget), Next::Wait(at) if at == t0 + Duration::from_secs(10))
        );
        assert!(matches!(
            g.next(t0 + Duration::from_secs(10), budget),
            Next::Send(_)
        ));
    }
}
