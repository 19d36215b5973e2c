//! Who follows their seat on the live table: while a person has the table's page open (its
//! feed connected, `Host::watch`; the web face holds such a watch where it is asked to,
//! `PlayConfig::hold_hands`, as the Telegram bot does), the chat's private hand message of
//! their seat there is held back. Every card otherwise costs the chat an edit of the hand of who played it and of who is
//! to act next; a person who plays on the page does not read those, so the group's table
//! message (paced and coalesced by the adapter) is all the chat is sent. When the last page of
//! that person at that table closes, their hand is shown in the chat once more, as it is then,
//! so the chat is never left behind for someone who goes back to it.
//!
//! Outboxes are filtered where they leave the host for a chat: `Host::handle`'s return (chat
//! presses and page taps alike), `Host::tap` and `Host::publish` (the events channel:
//! timers, tournament rounds). A hand the person asked for in the chat (the 🂠 button,
//! `Command::ShowHand`, whose answer is the hand itself) still goes out, and so do the
//! outboxes of recovery after a restart and of a takeover (`Host::recover`, `Host::sweep`),
//! filtered the same way.
//!
//! On PostgreSQL the page may be served by one process while the table's owner, which
//! shows its moves, is another: each process tells the others (`NOTIFY`, with the handoffs)
//! when the first page of a seat opens there and when its last one has closed for good, and
//! holds back the hands of seats watched anywhere. When the live processes change, each
//! forgets the pages of the processes gone and tells its own again, for the newcomers.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use crate::i18n::Lang;
use crate::msgkey::MsgKey;
use crate::outbox::{HandDelivery, Out, Outbox};
use crate::view::{Drawn, ViewKey};

/// How long after the last page of a person closes their hand is shown in the chat again: a
/// page reloaded, or a feed the browser reconnects, opens again within it and costs nothing.
pub const RESHOW_AFTER: Duration = if cfg!(test) {
    Duration::from_millis(100)
} else {
    Duration::from_secs(2)
};

/// The pages open by (table, user): here, and (PostgreSQL) in the other processes.
pub struct Watching {
    /// The host it is part of.
    around: Weak<dyn Around>,
    seats: Mutex<HashMap<(i64, String), Watched>>,
    /// The seats other processes have pages open for, with those processes.
    elsewhere: Mutex<HashMap<(i64, String), HashSet<String>>>,
    /// The tables with any live page open here (a seat's or a watcher's).
    follows: Mutex<HashMap<i64, Watched>>,
    /// The tables other processes have pages open for, with those processes: only these
    /// are announced to the others when they change (`Host::announce_table`).
    followed_elsewhere: Mutex<HashMap<i64, HashSet<String>>>,
    /// The views the pages open here draw, by table: each (viewer, language) with the number
    /// of pages that draw it (`Follow::draws`). A commit here draws each of them once.
    views: Mutex<HashMap<i64, HashMap<ViewKey, usize>>>,
    /// The views drawn at a table's last commit here, until its change is announced.
    drawn: Mutex<HashMap<i64, Drawn>>,
}

#[derive(Default)]
struct Watched {
    /// Pages open now.
    open: usize,
    /// Times the count fell to zero: a re-show waits for the last of them only.
    closed: u64,
}

/// A page following its seat (the live table's feed holds one while connected): dropping it
/// ends the watch.
pub struct Watch {
    around: Weak<dyn Around>,
    table: i64,
    user: String,
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(around) = self.around.upgrade() {
            around.watching().unwatch(self.table, &self.user);
        }
    }
}

/// A live page following a table (any page: a seat's or a watcher's) until dropped. On
/// PostgreSQL the other processes announce the table's changes to this one only while it
/// has such a page (`Host::follow`).
pub struct Follow {
    around: Weak<dyn Around>,
    table: i64,
    /// The view this page draws, once it said so.
    draws: Option<ViewKey>,
}

impl Follow {
    /// This page draws `viewer`'s view (None: a watcher's) in `lang`: each commit of the table
    /// here draws that view once, for every page that draws it, and pushes it with the change
    /// (`Host::changes`); the page reads nothing itself. Said again with another language,
    /// the page draws that one from then on.
    pub fn draws(&mut self, viewer: Option<&str>, lang: Lang) {
        let key = (viewer.map(str::to_string), lang);
        if self.draws.as_ref() == Some(&key) {
            return;
        }
        let Some(around) = self.around.upgrade() else {
            return;
        };
        let watching = around.watching();
        let mut views = watching.views.lock().expect("views map");
        if let Some(old) = self.draws.take() {
            undraw(&mut views, self.table, &old);
        }
        *views
            .entry(self.table)
            .or_default()
            .entry(key.clone())
            .or_default() += 1;
        self.draws = Some(key);
    }
}

/// One page fewer draws `key` of `table`.
fn undraw(views: &mut HashMap<i64, HashMap<ViewKey, usize>>, table: i64, key: &ViewKey) {
    let Some(keys) = views.get_mut(&table) else {
        return;
    };
    if let Some(n) = keys.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            keys.remove(key);
        }
    }
    if keys.is_empty() {
        views.remove(&table);
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        if let Some(around) = self.around.upgrade() {
            let watching = around.watching();
            if let Some(key) = self.draws.take() {
                undraw(&mut watching.views.lock().expect("views map"), self.table, &key);
            }
            watching.unfollow(self.table);
        }
    }
}

/// One more page of `key` opened here: whether it is the first since `key` was last forgotten
/// (the other processes are told of it then).
fn opened<K: std::hash::Hash + Eq>(pages: &Mutex<HashMap<K, Watched>>, key: K) -> bool {
    let mut pages = pages.lock().expect("pages map");
    let w = pages.entry(key).or_default();
    w.open += 1;
    w.open == 1 && w.closed == 0
}

/// A page of `key` closed here: the number of this close when it was the last page open.
fn closed<K: std::hash::Hash + Eq>(pages: &Mutex<HashMap<K, Watched>>, key: &K) -> Option<u64> {
    let mut pages = pages.lock().expect("pages map");
    let w = pages.get_mut(key)?;
    w.open = w.open.saturating_sub(1);
    if w.open > 0 {
        return None;
    }
    w.closed += 1;
    Some(w.closed)
}

/// `RESHOW_AFTER` after close number `n` of `key`: whether that close still decides (no page
/// opened or closed since), in which case `key` is forgotten.
fn close_stands<K: std::hash::Hash + Eq>(pages: &Mutex<HashMap<K, Watched>>, key: &K, n: u64) -> bool {
    let mut pages = pages.lock().expect("pages map");
    match pages.get(key) {
        Some(w) if w.open == 0 && w.closed == n => {
            pages.remove(key);
            true
        }
        _ => false,
    }
}

/// Notes that `process` has a page of `key` open (`on`), or no longer.
fn mark<K: std::hash::Hash + Eq>(map: &mut HashMap<K, HashSet<String>>, key: K, process: &str, on: bool) {
    if on {
        map.entry(key).or_default().insert(process.to_string());
    } else if let Some(ps) = map.get_mut(&key) {
        ps.remove(process);
        if ps.is_empty() {
            map.remove(&key);
        }
    }
}

/// Forgets what processes not in `live` had open.
fn keep_live<K>(map: &mut HashMap<K, HashSet<String>>, live: &[String]) {
    map.retain(|_, ps| {
        ps.retain(|p| live.contains(p));
        !ps.is_empty()
    });
}

/// The table of a table's hand message key; None for other private messages (a
/// tournament's seat notice).
pub(crate) fn hand_table(key: &str) -> Option<i64> {
    MsgKey::hand_table(key)
}

/// What watching asks of the host around it: to tell the other processes (PostgreSQL) of
/// the pages opened and closed here, to announce a table's changes to another process that
/// follows it, and to show a hand in the chat again. Watching owns its state; the host
/// (`Host` implements this) owns the tables, the chat and the other processes.
pub(crate) trait Around: Send + Sync + 'static {
    /// Where the watching of this host lives.
    fn watching(&self) -> &Watching;
    /// The first page of these seats opened here (`on`), or their last closed for good.
    fn tell_watches(&self, on: bool, seats: Vec<(i64, String)>);
    /// The first page of these tables opened here (`on`), or their last closed for good.
    fn tell_follows(&self, on: bool, tables: Vec<i64>);
    /// Table `table` changed, as the other processes are told of it.
    fn tell_changed(&self, table: i64);
    /// `user`'s last page at `table` closed for good: their hand is shown in the chat again,
    /// as it is now, if they sit at the running table.
    fn reshow(self: Arc<Self>, table: i64, user: String);
}

impl Watching {
    /// The watching of the host `around`, with no page open.
    pub(crate) fn new(around: Weak<dyn Around>) -> Watching {
        Watching {
            around,
            seats: Mutex::default(),
            elsewhere: Mutex::default(),
            follows: Mutex::default(),
            followed_elsewhere: Mutex::default(),
            views: Mutex::default(),
            drawn: Mutex::default(),
        }
    }

    /// `user` has table `table`'s live page open until the returned guard is dropped: their
    /// hand there is not sent to the chat meanwhile.
    pub fn watch(&self, table: i64, user: &str) -> Watch {
        if opened(&self.seats, (table, user.to_string())) {
            if let Some(around) = self.around.upgrade() {
                around.tell_watches(true, vec![(table, user.to_string())]);
            }
        }
        Watch {
            around: self.around.clone(),
            table,
            user: user.to_string(),
        }
    }

    /// A page of table `table` is open here until the returned guard is dropped: the other
    /// processes (PostgreSQL) announce the table's changes to this one meanwhile. Each change
    /// made to a table costs its process a `NOTIFY` that wakes every other process; one that
    /// no page elsewhere follows is not announced.
    pub fn follow(&self, table: i64) -> Follow {
        if opened(&self.follows, table) {
            if let Some(around) = self.around.upgrade() {
                around.tell_follows(true, vec![table]);
            }
        }
        Follow {
            around: self.around.clone(),
            table,
            draws: None,
        }
    }

    /// A page of `table` closed: after the last one, and `RESHOW_AFTER` without another, the
    /// other processes are told (a page reloaded opens again within it and costs nothing).
    fn unfollow(&self, table: i64) {
        let Some(n) = closed(&self.follows, &table) else {
            return;
        };
        let (Some(around), Ok(rt)) = (self.around.upgrade(), tokio::runtime::Handle::try_current()) else {
            self.follows.lock().expect("follows map").remove(&table);
            return;
        };
        rt.spawn(async move {
            tokio::time::sleep(RESHOW_AFTER).await;
            if close_stands(&around.watching().follows, &table, n) {
                around.tell_follows(false, vec![table]);
            }
        });
    }

    /// The views of `table` that pages open here draw (`Follow::draws`).
    pub(crate) fn views_drawn(&self, table: i64) -> Vec<ViewKey> {
        let views = self.views.lock().expect("views map");
        views
            .get(&table)
            .map(|keys| keys.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The views of a commit of `table`, drawn for its pages (replacing any drawn before and
    /// not yet announced: the newer commit's are what the pages want).
    pub(crate) fn set_drawn(&self, table: i64, drawn: Drawn) {
        self.drawn.lock().expect("drawn map").insert(table, drawn);
    }

    /// The views drawn for `table`'s pages since its last announced change, taken.
    pub(crate) fn take_drawn(&self, table: i64) -> Option<Drawn> {
        self.drawn.lock().expect("drawn map").remove(&table)
    }

    /// The tables with a page open here.
    pub(crate) fn followed_here(&self) -> Vec<i64> {
        let follows = self.follows.lock().expect("follows map");
        follows
            .iter()
            .filter(|(_, w)| w.open > 0)
            .map(|(t, _)| *t)
            .collect()
    }

    /// Whether another process has a page of `table` open (it is told of the table's changes).
    pub(crate) fn is_followed_elsewhere(&self, table: i64) -> bool {
        self.followed_elsewhere
            .lock()
            .expect("follows map")
            .contains_key(&table)
    }

    /// Another process told of tables it has pages open for (`on`) or no longer. One it
    /// follows now is announced to it at once: a change made before this was heard was not.
    pub(crate) fn followed_by(&self, process: &str, on: bool, tables: &[i64]) {
        {
            let mut elsewhere = self.followed_elsewhere.lock().expect("follows map");
            for &t in tables {
                mark(&mut elsewhere, t, process, on);
            }
        }
        if let (true, Some(around)) = (on, self.around.upgrade()) {
            for &t in tables {
                around.tell_changed(t);
            }
        }
    }

    /// Whether `user` has table `table`'s live page open.
    pub fn is_watched(&self, table: i64, user: &str) -> bool {
        let key = (table, user.to_string());
        let seats = self.seats.lock().expect("watching map");
        seats.get(&key).is_some_and(|w| w.open > 0)
            || self.elsewhere.lock().expect("watching map").contains_key(&key)
    }

    /// Another process told of pages it has open (`on`) or closed for good.
    pub(crate) fn watched_elsewhere(&self, process: &str, on: bool, seats: Vec<(i64, String)>) {
        let mut elsewhere = self.elsewhere.lock().expect("watching map");
        for key in seats {
            mark(&mut elsewhere, key, process, on);
        }
    }

    /// Forgets the pages of processes no longer alive.
    pub(crate) fn forget_others_than(&self, live: &[String]) {
        keep_live(&mut self.elsewhere.lock().expect("watching map"), live);
        keep_live(&mut self.followed_elsewhere.lock().expect("follows map"), live);
    }

    /// The seats with a page open here.
    pub(crate) fn watched_here(&self) -> Vec<(i64, String)> {
        let seats = self.seats.lock().expect("watching map");
        seats
            .iter()
            .filter(|(_, w)| w.open > 0)
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// Removes from `out` the hands of watched seats (see the module note). Called after the
    /// live pages were told of the change: a hand alone (a first pick of a burial) still
    /// redraws the page.
    pub(crate) fn hold(&self, out: &mut Outbox) {
        self.hold_but(out, None);
    }

    /// `hold`, but for `presser`'s own hand: a person who pressed in the chat is
    /// using the chat, and their hand there must not be left showing the turn they just
    /// played (a tap on the page is shown in the chat through `Host::tap`, which holds it).
    pub(crate) fn hold_but(&self, out: &mut Outbox, presser: Option<&str>) {
        let seats = self.seats.lock().expect("watching map");
        let elsewhere = self.elsewhere.lock().expect("watching map");
        if seats.is_empty() && elsewhere.is_empty() {
            return;
        }
        let asked = out.reply_text().map(str::to_string);
        // The table messages of deals that are over, or of a table stopped: drawn without
        // buttons. Their hands are drawn for the last time.
        let over: HashSet<MsgKey> = out
            .0
            .iter()
            .filter_map(|o| match o {
                Out::Public { key, buttons, .. } if buttons.is_empty() => {
                    MsgKey::parse(key).filter(|k| matches!(k, MsgKey::Deal { .. }))
                }
                _ => None,
            })
            .collect();
        out.0.retain_mut(|o| match o {
            Out::Private {
                user,
                key,
                text,
                delivery,
                ..
            } => {
                let watched = hand_table(key).is_some_and(|t| {
                    let key = (t, user.clone());
                    seats.get(&key).is_some_and(|w| w.open > 0) || elsewhere.contains_key(&key)
                });
                if !watched || asked.as_deref() == Some(text.as_str()) || presser == Some(user.as_str()) {
                    return true;
                }
                // A hand's last state goes to a chat message that shows an older one (the
                // page was opened while it was played: it may show buttons of then), and
                // to none else.
                let deal_key = MsgKey::parse(key).and_then(|k| k.deal_message());
                // (Held twice, as a page's tap is: once where it is handled, and again
                // where it is forwarded to the chat.)
                let last = matches!(*delivery, HandDelivery::Show | HandDelivery::IfShown);
                if deal_key.is_some_and(|d| over.contains(&d)) && last {
                    *delivery = HandDelivery::IfShown;
                    return true;
                }
                false
            }
            _ => true,
        });
    }

    /// A page closed: after the last one, and `RESHOW_AFTER` without another, the hand is
    /// shown in the chat again.
    fn unwatch(&self, table: i64, user: &str) {
        let key = (table, user.to_string());
        let Some(n) = closed(&self.seats, &key) else {
            return;
        };
        let (Some(around), Ok(rt)) = (self.around.upgrade(), tokio::runtime::Handle::try_current()) else {
            self.seats.lock().expect("watching map").remove(&key);
            return;
        };
        rt.spawn(async move {
            tokio::time::sleep(RESHOW_AFTER).await;
            // Opened again, or closed again since: that close decides.
            if !close_stands(&around.watching().seats, &key, n) {
                return;
            }
            around.tell_watches(false, vec![key.clone()]);
            around.reshow(key.0, key.1);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::{Command, Request, User};
    use crate::store::{ChatRef, Platform, Store};
    use crate::{Host, HostConfig};

    fn person(id: &str, admin: bool) -> User {
        User {
            id: id.into(),
            name: id.to_uppercase(),
            admin,
        }
    }

    fn hands_of(out: &Outbox) -> Vec<(String, String)> {
        out.0
            .iter()
            .filter_map(|o| match o {
                Out::Private { user, key, .. } => Some((user.clone(), key.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn hand_keys_name_their_table_and_tournament_notices_none() {
        assert_eq!(hand_table("t12.d3.s1"), Some(12));
        assert_eq!(hand_table("T4.r1.t2.s0"), None);
    }

    /// Who may act at `table` now and a press of theirs, as the live page offers it: a bid to
    /// take the talon where there is one (so the deal is played out), else their first card.
    async fn next_press(host: &Arc<Host>, table: i64, people: &[User]) -> (User, String) {
        for p in people {
            let v = host.table_view(table, Some(&p.id)).await.unwrap().unwrap();
            let take = v
                .buttons
                .iter()
                .flatten()
                .find(|b| crate::token::Token::decode(&b.token).is_ok_and(|t| t.action == "b:take"))
                .map(|b| &b.token);
            let card = v.hand.iter().filter(|h| !h.picked).find_map(|h| h.token.as_ref());
            if let Some(t) = take.or(card) {
                return (p.clone(), t.clone());
            }
        }
        panic!("nobody may act");
    }

    /// Bruno has the live page open: no outbox the host returns or forwards holds his hand
    /// (but the answer to a press of his in the chat), while Anna and Cilda, who play in the
    /// chat, get theirs; his own 🂠 still shows it; once
    /// his last page closes, his hand is shown once, as it is then, on the events channel, and
    /// the hands that follow hold his again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_watched_seat_gets_no_hand_while_the_chat_players_do_and_it_is_shown_again_at_close() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_sqlite(dir.path().join("w.db").to_str().unwrap())
            .await
            .unwrap();
        let config = HostConfig {
            bot_budget_ms: 10,
            seeds: Arc::new(|table, deal| stikis_core::Seed::from_u64((table as u64) << 16 | deal as u64)),
            ..HostConfig::default()
        };
        let (host, mut events) = Host::new(store, config);
        let g = ChatRef::new(Platform::Telegram, "group-1", "g");
        let ask = |u: &User, command: Command| {
            let host = host.clone();
            let req = Request {
                chat: g.clone(),
                user: u.clone(),
                command,
            };
            async move { host.handle(req).await }
        };
        let people = [
            person("anna", false),
            person("bruno", false),
            person("cilda", false),
        ];
        ask(&person("admin", true), Command::SetTurnLimit(None)).await;
        ask(
            &people[0],
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            },
        )
        .await;
        ask(&people[1], Command::Join).await;
        ask(&people[2], Command::Join).await;
        let out = ask(&people[0], Command::Start).await;
        assert_eq!(hands_of(&out).len(), 3, "{out:?}");
        let table = hand_table(&hands_of(&out)[0].1).unwrap();

        let watch = host.watch(table, "bruno");
        assert!(host.is_watched(table, "bruno") && !host.is_watched(table, "anna"));
        // A second page of his: the watch lasts until both close.
        let second = host.watch(table, "bruno");
        let mut saw = HashMap::<String, usize>::new();
        let mut bruno_moved = false;
        for _ in 0..12 {
            let (who, token) = next_press(&host, table, &people).await;
            bruno_moved |= who.id == "bruno";
            let out = ask(&who, Command::press(token)).await;
            assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
            let hands = hands_of(&out);
            if who.id == "bruno" {
                // He pressed in the chat: his hand there follows.
                assert!(hands.iter().any(|(u, _)| u == "bruno"), "{out:?}");
            }
            for (u, _) in hands.into_iter().filter(|(u, _)| *u != who.id) {
                *saw.entry(u).or_default() += 1;
            }
        }
        assert!(bruno_moved);
        assert_eq!(saw.get("bruno"), None, "{saw:?}");
        assert!(saw["anna"] > 0 && saw["cilda"] > 0, "{saw:?}");
        // What a page forwards or a timer publishes is held back the same way.
        let hand = |u: &str, seat: u8| Out::Private {
            user: u.into(),
            chat: g.clone(),
            key: MsgKey::Hand { table, deal: 1, seat }.into(),
            text: "…".into(),
            buttons: Vec::new(),
            version: 1,
            delivery: crate::outbox::HandDelivery::Show,
        };
        host.forward(Outbox(vec![hand("anna", 0), hand("bruno", 1)]));
        host.publish(Outbox(vec![hand("bruno", 1), hand("cilda", 2)]));
        let users = |o: Outbox| hands_of(&o).into_iter().map(|(u, _)| u).collect::<Vec<_>>();
        assert_eq!(users(events.try_recv().unwrap()), ["anna"]);
        assert_eq!(users(events.try_recv().unwrap()), ["cilda"]);
        // A quiet table taken up at a sweep is shown again, but for his hand; so is a table
        // a restarted process recovers while his page is already back.
        // (Quiet: its last action older than now; a fast run sweeps in the same millisecond.)
        tokio::time::sleep(Duration::from_millis(2)).await;
        let swept = users(host.sweep(Duration::ZERO).await.unwrap());
        assert!(
            swept.contains(&"anna".to_string()) && !swept.contains(&"bruno".to_string()),
            "{swept:?}"
        );
        let (restarted, _events) = Host::new(
            Store::open_sqlite(dir.path().join("w.db").to_str().unwrap())
                .await
                .unwrap(),
            HostConfig {
                bot_budget_ms: 10,
                ..HostConfig::default()
            },
        );
        let _back = restarted.watch(table, "bruno");
        let recovered = users(restarted.recover().await.unwrap());
        assert!(
            recovered.contains(&"cilda".to_string()) && !recovered.contains(&"bruno".to_string()),
            "{recovered:?}"
        );
        // He asks for his hand in the chat: it is shown.
        let out = ask(&people[1], Command::ShowHand).await;
        assert_eq!(users(out), ["bruno"]);

        drop(watch);
        tokio::time::sleep(RESHOW_AFTER * 3).await;
        assert!(events.try_recv().is_err(), "a page of his is still open");
        drop(second);
        let shown = tokio::time::timeout(Duration::from_secs(5), events.recv())
            .await
            .expect("his hand shown again")
            .unwrap();
        let v = host.table_view(table, Some("bruno")).await.unwrap().unwrap();
        match &shown.0[..] {
            [Out::Private {
                user, text, buttons, ..
            }] => {
                assert_eq!(user, "bruno");
                assert!(text.contains(v.hand_text.as_deref().unwrap()), "{text}");
                let tokens: Vec<&String> = buttons.iter().flatten().map(|b| &b.token).collect();
                for h in v.hand.iter().filter_map(|h| h.token.as_ref()) {
                    assert!(tokens.contains(&h), "{tokens:?}");
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(!host.is_watched(table, "bruno"));
        // Once only.
        tokio::time::sleep(RESHOW_AFTER * 3).await;
        assert!(events.try_recv().is_err());
        // Unwatched, his hand goes out with the next move again.
        let (who, token) = next_press(&host, table, &people).await;
        let out = ask(&who, Command::press(token)).await;
        assert!(users(out).iter().any(|u| u == "bruno"));
    }
}
