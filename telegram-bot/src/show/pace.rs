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
//! - a message holding results begins with one (posts with a result are not merged behind
//!   posts without one), and a result of a table posted here while a newer result of that
//!   table waits (one another process owed, found not posted `OWED_WAIT` after its deal
//!   ended) goes before it and its deal's start: a table's results go out in order;
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
//! (`Live::load_owing` looks at the last 500 deals, and further back for as long as the
//! oldest it looked at was not posted either; `Host::owed_results`, and each one's own check after `OWED_WAIT` too), and the
//! current table message and hands are shown again from the database. A result asked for
//! again while it waits here keeps its place (`Group::push`). Not recovered: posts without
//! a key (a deal's "started" line, notices, a table's end, a tournament's posts).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use stikis_host::msgkey::MsgKey;
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

/// The table and deal of a result post's `once` key (None for any other post).
pub(super) fn result_of(once: Option<&str>) -> Option<(i64, usize)> {
    match MsgKey::parse(once?)? {
        MsgKey::Result { table, deal } => Some((table, deal)),
        _ => None,
    }
}

/// Whether any of `parts` is a deal's result.
fn has_result(parts: &[(String, Option<String>)]) -> bool {
    parts.iter().any(|p| result_of(p.1.as_deref()).is_some())
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
                let at = self.before_newer_results(&chat, &parts);
                self.queue.insert(at, Item::Post { chat, parts });
            }
        } else {
            self.queue.push_back(item);
        }
        self.merge();
        true
    }

    /// Where posts `parts` to `chat` go in the queue: at its end, unless they hold a result
    /// of a deal older than a result of the same table that waits (a result owed by another
    /// process, found not posted `OWED_WAIT` after its deal ended, while this one's newer
    /// deals' posts wait): then before that newer result, and before the posts without a
    /// key just before it (its deal's start), which are split off into an item of their own.
    /// A table's results go out in order, each before its table's later posts here.
    fn before_newer_results(&mut self, chat: &ChatRef, parts: &[(String, Option<String>)]) -> usize {
        let Some((table, deal)) = parts
            .iter()
            .filter_map(|p| result_of(p.1.as_deref()))
            .min_by_key(|r| r.1)
        else {
            return self.queue.len();
        };
        let newer = self.queue.iter().enumerate().find_map(|(i, item)| match item {
            Item::Post { chat: c, parts: p } if c == chat => p
                .iter()
                .position(|q| result_of(q.1.as_deref()).is_some_and(|(t, d)| t == table && d > deal))
                .map(|j| (i, j)),
            _ => None,
        });
        let Some((mut i, mut j)) = newer else {
            return self.queue.len();
        };
        // Back over what comes just before it: posts without a key, and the table
        // messages of the table's newer deals.
        loop {
            if j > 0 {
                match &self.queue[i] {
                    Item::Post { parts: p, .. } if p[j - 1].1.is_none() => j -= 1,
                    _ => break,
                }
                continue;
            }
            let Some(before) = i.checked_sub(1) else { break };
            match &self.queue[before] {
                Item::Post { chat: c, parts: p } if c == chat && p.iter().all(|q| q.1.is_none()) => {
                    (i, j) = (before, p.len());
                }
                Item::First { key, .. }
                    if table_of_key(key) == Some(table)
                        && deal_of_key(key).is_some_and(|d| d > deal as i64) =>
                {
                    (i, j) = (before, 0);
                }
                _ => break,
            }
        }
        if j == 0 {
            return i;
        }
        let Item::Post { chat: c, parts: p } = &mut self.queue[i] else {
            unreachable!("a post")
        };
        let rest = p.split_off(j);
        let c = c.clone();
        self.queue.insert(i + 1, Item::Post { chat: c, parts: rest });
        i + 1
    }

    /// Whether a post kept under `once` waits for `chat`.
    fn waits(&self, chat: &ChatRef, once: &str) -> bool {
        self.queue.iter().any(|i| match i {
            Item::Post { chat: c, parts } => c == chat && parts.iter().any(|p| p.1.as_deref() == Some(once)),
            Item::First { .. } => false,
        })
    }

    /// Merges consecutive posts to one chat (and topic) that fit one message. Posts holding
    /// a result are not merged behind posts without one: a message holding results begins
    /// with one (the group, and the chaos harness, read a message of results by its first
    /// line), so a deal's start waiting alone goes alone.
    fn merge(&mut self) {
        let mut merged: VecDeque<Item> = VecDeque::with_capacity(self.queue.len());
        for item in self.queue.drain(..) {
            if let (Some(Item::Post { chat: c, parts: p }), Item::Post { chat, parts }) =
                (merged.back_mut(), &item)
            {
                if c == chat
                    && joined_len(p) + 2 + joined_len(parts) <= MAX_TEXT
                    && (has_result(p) || !has_result(parts))
                {
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

    /// A result owed by another process, posted here while this process's newer deals of
    /// the table wait: it goes before them (and before their starts), never after; another
    /// table's posts keep their place.
    #[test]
    fn a_late_result_goes_before_its_tables_newer_posts() {
        let mut g = Group::default();
        g.push(post("result 50", Some("t1.d50.result")));
        g.push(post("deal 51 starts", None));
        g.push(first("t1.d51", "a"));
        g.push(post("result 51", Some("t1.d51.result")));
        g.push(post("deal 52 starts", None));
        g.push(post("t2 result 9", Some("t2.d9.result")));
        assert_eq!(
            texts(&g),
            [
                "result 50+deal 51 starts",
                "t1.d51:a",
                "result 51+deal 52 starts+t2 result 9"
            ]
        );
        g.push(post("result 49", Some("t1.d49.result")));
        assert_eq!(
            texts(&g),
            [
                "result 49+result 50+deal 51 starts",
                "t1.d51:a",
                "result 51+deal 52 starts+t2 result 9"
            ]
        );
        // The first of the table's newer results waiting behind its deal's start.
        let mut g = Group::default();
        g.push(post("deal 51 starts", None));
        g.push(first("t1.d51", "a"));
        g.push(post("result 51", Some("t1.d51.result")));
        g.push(post("result 50", Some("t1.d50.result")));
        assert_eq!(texts(&g), ["result 50+deal 51 starts", "t1.d51:a", "result 51"]);
        // Behind an older result and before the start of its deal that waits after that.
        let mut g = Group::default();
        g.push(Item::Post {
            chat: chat(None),
            parts: vec![
                ("result 47".into(), Some("t1.d47.result".into())),
                ("deal 48 starts".into(), None),
                ("result 49".into(), Some("t1.d49.result".into())),
            ],
        });
        g.push(post("result 48", Some("t1.d48.result")));
        assert_eq!(texts(&g), ["result 47+result 48+deal 48 starts+result 49"]);
    }

    /// A message holding results begins with one: results are not merged behind a post
    /// without one (a deal's start waiting alone), though posts without one are merged
    /// behind results.
    #[test]
    fn results_are_not_merged_behind_a_post_without_one() {
        let mut g = Group::default();
        g.push(post("table starts", None));
        g.push(post("deal 1 starts", None));
        g.push(post("result 1", Some("t1.d1.result")));
        g.push(post("deal 2 starts", None));
        g.push(post("result 2", Some("t1.d2.result")));
        assert_eq!(
            texts(&g),
            ["table starts+deal 1 starts", "result 1+deal 2 starts+result 2"]
        );
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
