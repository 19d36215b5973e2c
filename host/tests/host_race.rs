//! Two hosts on one database (as two bot processes would be) racing on one table: both get
//! presses for the same turn. Exactly one press is applied, the other is answered "out of
//! date"; a host whose copy of the table fell behind reloads it before answering; no action is
//! lost or applied twice, and the final record replays. On one SQLite file always, and on
//! PostgreSQL when STIKIS_TEST_POSTGRES_URL is set (`eval "$(bash .ci/postgres.sh)"`; required
//! when STIKIS_REQUIRE_POSTGRES is set).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use stikis_core::ai::Level;
use stikis_core::Seed;
use stikis_host::owner::owner_among;
use stikis_host::store::{ChatRef, FirstPost, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Command, HandDelivery, Host, HostConfig, Out, Outbox, Request, User};

const STALE: &str = "That button is out of date; use the newest message.";

fn user(id: &str, admin: bool) -> User {
    User {
        id: id.into(),
        name: id.to_uppercase(),
        admin,
    }
}

fn config() -> HostConfig {
    HostConfig {
        bot_budget_ms: 20,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    }
}

/// The buttons of the hands in `screen` drawn at action `seq` (the table's current state
/// when `seq` is its last action), with whose hand each is on.
fn buttons_at(screen: &Screen, seq: i64) -> Vec<(String, String)> {
    screen
        .hands
        .iter()
        .flat_map(|(u, ts)| ts.iter().map(move |t| (u.clone(), t.clone())))
        .filter(|(_, t)| Token::decode(t).is_ok_and(|t| t.seq == seq))
        .collect()
}

/// What the players see, merged from both hosts' outboxes in the order they were answered.
#[derive(Default)]
struct Screen {
    /// The buttons of each person's newest hand message.
    hands: HashMap<String, Vec<String>>,
    lobby: Vec<String>,
    /// The version of every lobby render, in the order shown.
    lobby_versions: Vec<i64>,
    results: usize,
    /// The version of each person's newest hand shown: an older one that comes later (a
    /// process's outbox drained after another's) is not shown over it, as the bots do.
    hand_versions: HashMap<String, i64>,
    /// How many buttons each person's newest hand message has, pressable or not.
    hand_buttons: HashMap<String, usize>,
}

impl Screen {
    fn show(&mut self, out: &Outbox) {
        for o in &out.0 {
            match o {
                Out::Private {
                    user,
                    buttons,
                    version,
                    ..
                } => {
                    let newest = self.hand_versions.entry(user.clone()).or_insert(*version);
                    if *version < *newest {
                        continue;
                    }
                    *newest = *version;
                    self.hand_buttons
                        .insert(user.clone(), buttons.iter().flatten().count());
                    let b = stikis_host::outbox::pressable(buttons)
                        .into_iter()
                        .flatten()
                        .map(|b| b.token)
                        .collect();
                    self.hands.insert(user.clone(), b);
                }
                Out::Public {
                    key,
                    buttons,
                    version,
                    ..
                } if key.ends_with(".lobby") => {
                    self.lobby_versions.push(*version);
                    self.lobby = buttons.iter().flatten().map(|b| b.token.clone()).collect();
                }
                Out::Post { text, .. } if text.starts_with("Result of deal") => self.results += 1,
                _ => {}
            }
        }
    }

    /// Who is to act and the first button of their hand.
    fn next_press(&self) -> (String, String) {
        for who in ["anna", "bruno"] {
            if let Some(t) = self.hands.get(who).and_then(|b| b.first()) {
                return (who.to_string(), t.clone());
            }
        }
        panic!("nobody can act: {:#?}", self.hands)
    }
}

/// The test database's URL and a schema of the test's own (named from `prefix`), or None
/// (said on stderr) when STIKIS_TEST_POSTGRES_URL is not set; a failure then when
/// STIKIS_REQUIRE_POSTGRES is set (`common::postgres_url`).
fn postgres(prefix: &str) -> Option<(String, String)> {
    let url = crate::common::postgres_url()?;
    static N: AtomicU32 = AtomicU32::new(0);
    let schema = format!(
        "{prefix}_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    Some((url, schema))
}

/// A connection of the test's own to the database at `url`.
async fn observer_connection(url: &str) -> sqlx::PgConnection {
    use sqlx::Connection;
    sqlx::PgConnection::connect(url).await.unwrap()
}

async fn send(host: &Arc<Host>, who: &str, command: Command) -> Outbox {
    send_in(
        host,
        &ChatRef::new(Platform::Telegram, "group-1", "g"),
        who,
        command,
    )
    .await
}

async fn send_in(host: &Arc<Host>, chat: &ChatRef, who: &str, command: Command) -> Outbox {
    host.handle(Request {
        chat: chat.clone(),
        user: user(who, who == "admin"),
        command,
    })
    .await
}

/// Actions of the people (seats 0 and 1; seat 2 is a computer player) in the log.
async fn human_actions(store: &Store, table: i64) -> usize {
    store
        .actions(table)
        .await
        .unwrap()
        .iter()
        .filter(|a| a.payload["seat"].as_u64().is_some_and(|s| s < 2))
        .count()
}

async fn race(one: Store, two: Store, observer: Store) {
    let (h1, _e1) = Host::new(one, config());
    let (h2, _e2) = Host::new(two, config());
    let hosts = [h1.clone(), h2.clone()];
    let mut screen = Screen::default();
    send(&h1, "admin", Command::SetTurnLimit(None)).await;
    let out = send(
        &h1,
        "anna",
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    screen.show(&out);
    let table = Token::decode(&screen.lobby[0]).unwrap().table;
    // The lobby is shared too: Bruno joins through the second host.
    screen.show(&send(&h2, "bruno", Command::Join).await);
    screen.show(&send(&h1, "anna", Command::AddBot { level: Level::Basic }).await);
    screen.show(&send(&h1, "anna", Command::Start).await);
    // Each seat change, on either host, renders a newer lobby than the one before: an
    // adapter never lets an older render (from a slower process) replace a newer one.
    assert!(
        screen.lobby_versions.windows(2).all(|w| w[0] < w[1]) && screen.lobby_versions.len() >= 4,
        "lobby versions {:?}",
        screen.lobby_versions
    );
    // The second host loads the running table now, so that it has a copy to fall behind with.
    let out = send(&h2, "anna", Command::ShowHand).await;
    assert!(out.0.iter().any(|o| matches!(o, Out::Private { .. })), "{out:?}");

    let (mut rounds, mut solo, mut raced) = (0, 0, 0);
    while screen.results < 3 {
        rounds += 1;
        assert!(rounds < 2_000, "the game does not progress");
        let (who, token) = screen.next_press();
        let before = human_actions(&observer, table).await;
        let burial = Token::decode(&token).unwrap().action.starts_with("y:");
        let press = || Command::press(token.clone());
        if rounds % 3 == 0 && !burial {
            // One host only, alternating: the other host's copy falls behind, and the next
            // press it gets must be played on the database's state, not refused as stale.
            let host = &hosts[(rounds / 3) % 2];
            let out = send(host, &who, press()).await;
            assert_eq!(out.reply_text(), Some("✓"), "round {rounds}: {out:?}");
            screen.show(&out);
            assert_eq!(human_actions(&observer, table).await, before + 1);
            solo += 1;
            continue;
        }
        let (a, b) = tokio::join!(send(&h1, &who, press()), send(&h2, &who, press()));
        let after = human_actions(&observer, table).await;
        match (a.reply_text(), b.reply_text()) {
            // The first card of a burial is a selection in each host: nothing is committed.
            (Some("✓"), Some("✓")) if burial => {
                assert_eq!(after, before, "a selection committed something");
                screen.show(&a);
            }
            (Some("✓"), Some(STALE)) | (Some(STALE), Some("✓")) => {
                assert_eq!(after, before + 1, "round {rounds}: not exactly one move applied");
                raced += 1;
                screen.show(&a);
                screen.show(&b);
            }
            other => panic!("round {rounds}: answers {other:?}\n{a:?}\n{b:?}"),
        }
    }
    assert!(solo >= 5 && raced >= 10, "solo {solo}, raced {raced}");

    // The log has every number once, in order, and the record replays.
    let actions = observer.actions(table).await.unwrap();
    for (i, a) in actions.iter().enumerate() {
        assert_eq!(a.seq, i as i64 + 1);
    }
    let record = observer.record(table).await.unwrap();
    let bytes = serde_json::to_vec(&record).unwrap();
    let replayed = stikis_core::record::replay(&bytes).expect("the raced record replays");
    assert!(replayed["deals"].as_array().unwrap().len() >= 3);
    // Both hosts export the database's record (its finished deals: the chat's record leaves
    // the deal in play out): the lagging one reloads first.
    let in_play = replayed["deals"].as_array().unwrap().last().unwrap()["complete"] == false;
    let finished = record.deals.len() - usize::from(in_play);
    let finished_actions: usize = record.deals[..finished]
        .iter()
        .map(|d| d["actions"].as_array().unwrap().len())
        .sum();
    for host in &hosts {
        let out = send(host, "anna", Command::Record).await;
        let file = out
            .0
            .iter()
            .find_map(|o| match o {
                Out::File { content, .. } => Some(content.clone()),
                _ => None,
            })
            .expect("a record file");
        let v: serde_json::Value = serde_json::from_str(&file).unwrap();
        assert_eq!(
            v["deals"].as_array().unwrap().len(),
            finished,
            "a host exported a stale record"
        );
        let n: usize = v["deals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["actions"].as_array().unwrap().len())
            .sum();
        assert_eq!(n, finished_actions, "a host exported a stale record");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_on_one_sqlite_file_apply_each_move_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("race.db");
    let path = path.to_str().unwrap();
    let one = Store::open_sqlite(path).await.unwrap();
    let two = Store::open_sqlite(path).await.unwrap();
    let observer = Store::open_sqlite(path).await.unwrap();
    race(one, two, observer).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_on_one_postgres_database_apply_each_move_once() {
    let Some((url, schema)) = postgres("race") else {
        return;
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    let one = open().await.unwrap();
    let two = open().await.unwrap();
    let observer = open().await.unwrap();
    race(one, two, observer).await;
}

/// Both hosts have the table loaded and armed its turn timer (as two processes behind a
/// balancer would): the warning and the move for the absent player happen once, not once per
/// host.
///
/// Nobody presses, so each person's turn times out until, at the third in a row, their seat
/// is marked away and no timer is armed for it again: three warnings and three timeouts for
/// each of the two people, and then silence. The posts are counted only once every timer
/// ever armed has certainly fired (each fires within the turn limit of being armed; none is
/// armed after the second "away"), so a second timeout of any turn, on either host, is
/// counted whenever it comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_with_one_table_time_a_turn_out_once() {
    const LIMIT_SECS: u32 = 2;
    let limit = std::time::Duration::from_secs(LIMIT_SECS.into());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timer.db");
    let path = path.to_str().unwrap();
    let (h1, mut e1) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
    let (h2, mut e2) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
    send(&h1, "admin", Command::SetTurnLimit(Some(LIMIT_SECS))).await;
    send(
        &h1,
        "anna",
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    send(&h2, "bruno", Command::Join).await;
    send(&h1, "anna", Command::AddBot { level: Level::Basic }).await;
    let out = send(&h1, "anna", Command::Start).await;
    assert!(out.0.iter().any(|o| matches!(o, Out::Private { .. })), "{out:?}");
    // The second host loads the table and arms the same turn's timer ("I'm back" re-arms it).
    let out = send(&h2, "anna", Command::Back).await;
    assert!(out.reply_text().is_some(), "{out:?}");
    let mut posts: Vec<String> = Vec::new();
    let take = |out: Outbox, posts: &mut Vec<String>| {
        posts.extend(
            out.0
                .iter()
                .filter(|o| matches!(o, Out::Post { .. }))
                .map(|o| o.text().to_string()),
        );
    };
    let count = |posts: &[String], needle: &str| posts.iter().filter(|t| t.contains(needle)).count();
    // Six turns of the limit each, and the computer player's moves between them.
    let deadline = tokio::time::Instant::now() + limit * 6 + std::time::Duration::from_secs(60);
    while count(&posts, "is away") < 2 {
        let out = tokio::select! {
            Some(o) = e1.recv() => o,
            Some(o) = e2.recv() => o,
            _ = tokio::time::sleep_until(deadline) => panic!("both people not away in time: {posts:#?}"),
        };
        take(out, &mut posts);
    }
    // Every timer still pending was armed by now and fires within `limit`; twice that
    // leaves its post the time to arrive.
    let settle = tokio::time::Instant::now() + limit * 2;
    loop {
        let out = tokio::select! {
            Some(o) = e1.recv() => o,
            Some(o) = e2.recv() => o,
            _ = tokio::time::sleep_until(settle) => break,
        };
        take(out, &mut posts);
    }
    assert_eq!(count(&posts, "is away"), 2, "{posts:#?}");
    for who in ["ANNA", "BRUNO"] {
        let of = |needle: &str| {
            posts
                .iter()
                .filter(|t| t.starts_with(who) && t.contains(needle))
                .count()
        };
        assert_eq!(of("ran out of time"), 3, "three timeouts of {who}: {posts:#?}");
        assert_eq!(of("left for your move"), 3, "three warnings to {who}: {posts:#?}");
    }
    assert_eq!(count(&posts, "ran out of time"), 6, "{posts:#?}");
    assert_eq!(count(&posts, "left for your move"), 6, "{posts:#?}");
}

/// A process dies (its runtime dropped, with its turn timers) while a person's turn runs; a
/// second process on the same database sweeps the quiet table: the turn times out there,
/// once, and the game goes on.
#[test]
fn a_second_process_takes_over_the_tables_of_one_that_died() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("takeover.db");
    let path = path.to_str().unwrap().to_string();
    let first = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (table, before) = first.block_on(async {
        let (h1, _e1) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        send(&h1, "admin", Command::SetTurnLimit(Some(1))).await;
        let out = send(
            &h1,
            "anna",
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            },
        )
        .await;
        let mut screen = Screen::default();
        screen.show(&out);
        let table = Token::decode(&screen.lobby[0]).unwrap().table;
        send(&h1, "bruno", Command::Join).await;
        send(&h1, "anna", Command::AddBot { level: Level::Basic }).await;
        send(&h1, "anna", Command::Start).await;
        let before = h1.store().actions(table).await.unwrap().len();
        (table, before)
    });
    // The crash: every task of the first process is gone, its timer with them.
    first.shutdown_background();
    let second = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    second.block_on(async {
        let (h2, mut e2) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        // Nothing to take over while the turn is young.
        let out = h2.sweep(std::time::Duration::from_secs(30)).await.unwrap();
        assert!(out.0.is_empty(), "{out:?}");
        tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
        let out = h2.sweep(std::time::Duration::from_secs(1)).await.unwrap();
        assert!(
            out.0.iter().any(|o| matches!(o, Out::Public { .. })),
            "the table is redrawn by the process that took it over: {out:?}"
        );
        // The person's time is over: the timer armed by the sweep moves for them.
        let timed_out = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            loop {
                let out = e2.recv().await.expect("events");
                if out.0.iter().any(|o| o.text().contains("ran out of time")) {
                    return;
                }
            }
        })
        .await;
        assert!(timed_out.is_ok(), "the taken-over turn never timed out");
        let after = h2.store().actions(table).await.unwrap().len();
        assert!(after > before, "the game went on: {before} → {after} actions");
        // A second sweep right away finds nothing new to do at that table.
        let out = h2.sweep(std::time::Duration::from_secs(30)).await.unwrap();
        assert!(out.0.is_empty(), "{out:?}");
    });
}

/// The process that committed a table's last move is the one that drives it on. While it
/// beats, nobody else touches the table; once it is gone (here it signs off, as a stopping
/// process does; a killed one stops beating), another process takes the table over at its next
/// sweep, without waiting for the table to go quiet.
#[test]
fn the_tables_of_a_process_that_is_gone_are_taken_over_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gone.db");
    let path = path.to_str().unwrap().to_string();
    let first = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (table, store) = first.block_on(async {
        let (h1, _e1) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        let out = send(
            &h1,
            "anna",
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            },
        )
        .await;
        let mut screen = Screen::default();
        screen.show(&out);
        let table = Token::decode(&screen.lobby[0]).unwrap().table;
        send(&h1, "bruno", Command::Join).await;
        send(&h1, "anna", Command::AddBot { level: Level::Basic }).await;
        screen.show(&send(&h1, "anna", Command::Start).await);
        // A person moves (and the computer player after them, if it is its turn): the first
        // process committed the table's last move.
        let (who, token) = screen.next_press();
        send(&h1, &who, Command::press(token)).await;
        (table, h1.store().clone())
    });
    let second = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let h2 = second.block_on(async {
        let (h2, _e2) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        // The first process is alive and the table is young: not the second one's business.
        let out = h2.sweep(std::time::Duration::from_secs(300)).await.unwrap();
        assert!(out.0.is_empty(), "{out:?}");
        h2
    });
    first.block_on(async {
        assert!(!store.actions(table).await.unwrap().is_empty());
        store.forget_process().await.unwrap();
    });
    first.shutdown_background();
    second.block_on(async {
        assert_eq!(
            h2.store().live_processes(0).await.unwrap(),
            1,
            "only the second process is left"
        );
        let out = h2.sweep(std::time::Duration::from_secs(300)).await.unwrap();
        assert!(
            out.0.iter().any(|o| matches!(o, Out::Public { .. })),
            "the table of the process that is gone is taken over at once: {out:?}"
        );
        // Taken over once: the next sweep leaves it alone.
        let out = h2.sweep(std::time::Duration::from_secs(300)).await.unwrap();
        assert!(out.0.is_empty(), "{out:?}");
    });
}

/// A deal's result that no process posted (its post failed, or its process died before
/// posting it while the others still counted it alive) is posted by the table's owner when
/// it is due (`OWED_WAIT` after the deal's end), once the database says it is not posted;
/// one posted is left alone.
/// The result posts' `once` keys in `out`.
fn result_keys(out: &Outbox) -> Vec<String> {
    out.0
        .iter()
        .filter_map(|o| match o {
            Out::Post { once: Some(k), .. } if k.ends_with(".result") => Some(k.clone()),
            _ => None,
        })
        .collect()
}

/// A host on a new SQLite file `file` in `dir`, at whose new table Anna, Bruno and a
/// computer player play two deals. The first result's post is left as if it never went out
/// (no id kept), the second's id is kept. Returns the host (with its timers' stream), the
/// table and the two results' keys.
async fn two_deals(
    dir: &tempfile::TempDir,
    file: &str,
) -> (
    Arc<Host>,
    tokio::sync::mpsc::UnboundedReceiver<Outbox>,
    i64,
    Vec<String>,
) {
    let path = dir.path().join(file);
    let (host, events) = Host::new(
        Store::open_sqlite(path.to_str().unwrap()).await.unwrap(),
        config(),
    );
    let h = &host;
    let mut screen = Screen::default();
    screen.show(
        &send(
            h,
            "anna",
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            },
        )
        .await,
    );
    let table = Token::decode(&screen.lobby[0]).unwrap().table;
    send(h, "bruno", Command::Join).await;
    send(h, "anna", Command::AddBot { level: Level::Basic }).await;
    screen.show(&send(h, "anna", Command::Start).await);
    let mut ended = Vec::new();
    for _ in 0..200 {
        if ended.len() == 2 {
            break;
        }
        let (who, token) = screen.next_press();
        let out = send(h, &who, Command::press(token)).await;
        ended.extend(result_keys(&out));
        screen.show(&out);
    }
    assert_eq!(ended.len(), 2, "two deals ended: {ended:?}");
    let chat = ChatRef::new(Platform::Telegram, "group-1", "g");
    h.store()
        .set_message_ref(Platform::Telegram, &ended[1], &chat.chat, "4242")
        .await
        .unwrap();
    (host, events, table, ended)
}

/// Two deals at a new table (`two_deals`), the first result's post never went out; with
/// `drop_copy`, the process's copy of the table is dropped then. The result is not posted
/// before it is due, then posted once by a sweep.
async fn owed_result_posted_when_due(file: &str, drop_copy: bool) {
    let dir = tempfile::tempdir().unwrap();
    let (h, _e, table, ended) = two_deals(&dir, file).await;
    if drop_copy {
        h.forget_table(table);
    }
    // Not due yet: this process posted them a moment ago.
    let out = h.sweep(std::time::Duration::from_secs(300)).await.unwrap();
    assert!(result_keys(&out).is_empty(), "{out:?}");
    h.advance_clock(stikis_host::lobby::OWED_WAIT.as_millis() as i64 + 1_000);
    let out = h.sweep(std::time::Duration::from_secs(300)).await.unwrap();
    assert_eq!(
        result_keys(&out),
        vec![ended[0].clone()],
        "table {table}: {out:?}"
    );
    // Looked at once.
    let out = h.sweep(std::time::Duration::from_secs(300)).await.unwrap();
    assert!(result_keys(&out).is_empty(), "{out:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_no_process_posted_is_posted_by_the_owner_when_due() {
    owed_result_posted_when_due("due.db", false).await;
}

/// A result this process owes is looked for when due even if its copy of the table was
/// dropped meanwhile (a failure in the middle of a move drops it): the copy read afresh
/// knows of no result owed, as this process moved the table last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_owed_by_a_dropped_copy_is_still_posted_when_due() {
    owed_result_posted_when_due("dropped.db", true).await;
}

/// The posts of `out` kept under `key` (`Out::Post::once`), with their texts.
fn posts_under(out: &Outbox, key: &str) -> Vec<String> {
    out.0
        .iter()
        .filter_map(|o| match o {
            Out::Post {
                text, once: Some(k), ..
            } if k == key => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A table's end ("… stopped the game", the totals) and a tournament's end have no table of
/// their own to be drawn again from, so they are kept with the close, in its transaction: the
/// process that closed them is killed with the posts unsent (in its outbox, or behind a
/// group's post budget), and another process (a new host on the same file) posts each when
/// due, once, under its key. Not before it is due; a post that went out (its id kept) is
/// not posted again; each is forgotten once posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn end_posts_lost_with_their_process_are_posted_by_another_when_due() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("end.db").to_str().unwrap().to_string();
    end_posts_lost(|| {
        let path = path.clone();
        async move { Store::open_sqlite(&path).await.unwrap() }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_end_posts_lost_with_their_process_are_posted_by_another_when_due() {
    let Some((url, schema)) = postgres("ends") else {
        return;
    };
    end_posts_lost(|| {
        let (url, schema) = (url.clone(), schema.clone());
        async move { Store::connect_postgres(&url, Some(&schema)).await.unwrap() }
    })
    .await;
}

async fn end_posts_lost<F, S>(open: F)
where
    F: Fn() -> S,
    S: std::future::Future<Output = Store>,
{
    let other = ChatRef::new(Platform::Telegram, "group-1", "h");
    let club = ChatRef::new(Platform::Telegram, "group-1", "club");
    let (lost, sent, tournament_end) = {
        let (h1, _e1) = Host::new(open().await, config());
        let mut ends = Vec::new();
        for chat in [ChatRef::new(Platform::Telegram, "group-1", "g"), other.clone()] {
            let mut screen = Screen::default();
            let new = Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            };
            screen.show(&send_in(&h1, &chat, "anna", new).await);
            let table = Token::decode(&screen.lobby[0]).unwrap().table;
            send_in(&h1, &chat, "bruno", Command::Join).await;
            send_in(&h1, &chat, "anna", Command::AddBot { level: Level::Basic }).await;
            send_in(&h1, &chat, "anna", Command::Start).await;
            let out = send_in(&h1, &chat, "anna", Command::Stop).await;
            let key = format!("t{table}.end");
            let end = posts_under(&out, &key);
            assert_eq!(end.len(), 1, "{out:?}");
            assert!(end[0].starts_with("ANNA stopped the game."), "{end:?}");
            ends.push((key, end[0].clone()));
        }
        // The second table's end went out: its id is kept.
        h1.store()
            .set_message_ref(Platform::Telegram, &ends[1].0, &other.chat, "77")
            .await
            .unwrap();
        let new = Command::NewTournament {
            rules: None,
            rounds: 1,
            deals: Some(2),
            minutes: None,
            turn: None,
            computers: false,
        };
        let out = send_in(&h1, &club, "admin", new).await;
        let id = out
            .0
            .iter()
            .find_map(|o| match o {
                Out::Public { key, .. } => stikis_host::msgkey::MsgKey::parse(key),
                _ => None,
            })
            .and_then(|k| match k {
                stikis_host::msgkey::MsgKey::Tournament { id } => Some(id),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no tournament message: {out:?}"));
        let cancel = Command::Tournament(stikis_host::TournamentVerb::Cancel);
        let out = send_in(&h1, &club, "admin", cancel).await;
        let key = format!("T{id}.end");
        let end = posts_under(&out, &key);
        assert_eq!(end.len(), 1, "{out:?}");
        assert!(
            end[0].starts_with("ADMIN has cancelled the tournament"),
            "{end:?}"
        );
        let mut ends = ends.into_iter();
        (ends.next().unwrap(), ends.next().unwrap(), (key, end[0].clone()))
        // The host is dropped here with every outbox above unsent.
    };
    let (h2, _e2) = Host::new(open().await, config());
    let quiet = std::time::Duration::from_secs(300);
    let posted = |out: &Outbox| {
        [&lost.0, &sent.0, &tournament_end.0]
            .into_iter()
            .flat_map(|k| posts_under(out, k).into_iter().map(move |t| (k.clone(), t)))
            .collect::<Vec<_>>()
    };
    // Not due yet: the process that closed them may still be posting them.
    let out = h2.sweep(quiet).await.unwrap();
    assert!(posted(&out).is_empty(), "{out:?}");
    h2.advance_clock(stikis_host::lobby::OWED_WAIT.as_millis() as i64 + 1_000);
    let out = h2.sweep(quiet).await.unwrap();
    let mut got = posted(&out);
    got.sort();
    let mut want = vec![lost.clone(), tournament_end.clone()];
    want.sort();
    assert_eq!(got, want, "{out:?}");
    // Posted now (the adapter keeps their ids): not posted again, and forgotten.
    h2.store()
        .set_message_ref(Platform::Telegram, &lost.0, "g", "78")
        .await
        .unwrap();
    h2.store()
        .set_message_ref(Platform::Telegram, &tournament_end.0, &club.chat, "79")
        .await
        .unwrap();
    h2.advance_clock(stikis_host::lobby::OWED_WAIT.as_millis() as i64 + 1_000);
    let out = h2.sweep(quiet).await.unwrap();
    assert!(posted(&out).is_empty(), "{out:?}");
    let far = h2.now_ms() + 3_600_000;
    let left = h2.store().due_posts(far, 100).await.unwrap();
    assert!(left.is_empty(), "{left:?}");
}

/// The first button of the newest hand of anyone who can act (a burial card already picked,
/// marked ✓, is skipped), from the outboxes seen so far.
fn first_move(hands: &HashMap<String, Vec<(String, String)>>) -> Option<(String, String)> {
    hands.iter().find_map(|(who, buttons)| {
        buttons
            .iter()
            .find(|(label, token)| {
                !label.starts_with('✓') && Token::decode(token).is_ok_and(|t| t.action.contains(':'))
            })
            .map(|(_, token)| (who.clone(), token.clone()))
    })
}

fn see(hands: &mut HashMap<String, Vec<(String, String)>>, out: &Outbox) {
    for o in &out.0 {
        if let Out::Private { user, buttons, .. } = o {
            let b = buttons
                .iter()
                .flatten()
                .filter(|b| !b.disabled)
                .map(|b| (b.label.clone(), b.token.clone()))
                .collect();
            hands.insert(user.clone(), b);
        }
    }
}

fn result_posts(out: &Outbox) -> Vec<(String, Option<String>)> {
    out.0
        .iter()
        .filter_map(|o| match o {
            Out::Post { text, once, .. } if text.starts_with("Result of deal") => {
                Some((text.clone(), once.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A process that dies with its outboxes unsent takes the deals' results with it: the results
/// of a chat go out one at a time, so the next deal's hands (other chats) may have been shown
/// and played while two results still waited. The process that takes the table over posts
/// every result the database does not record as posted, each under its key (an adapter posts
/// it once, whoever shows it); a result recorded as posted is not posted again.
#[test]
fn results_lost_with_their_process_are_posted_by_the_one_that_takes_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("owed.db");
    let path = path.to_str().unwrap().to_string();
    let first = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (table, store, lost) = first.block_on(async {
        let (h1, _e1) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        send(&h1, "admin", Command::SetTurnLimit(None)).await;
        let out = send(
            &h1,
            "anna",
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(3),
            },
        )
        .await;
        let mut screen = Screen::default();
        screen.show(&out);
        let table = Token::decode(&screen.lobby[0]).unwrap().table;
        send(&h1, "bruno", Command::Join).await;
        send(&h1, "anna", Command::AddBot { level: Level::Basic }).await;
        let mut hands = HashMap::new();
        see(&mut hands, &send(&h1, "anna", Command::Start).await);
        // The people play deals 1 and 2 to their end and move once in deal 3; the outboxes
        // with the two results are "lost".
        let mut lost = Vec::new();
        for _ in 0..600 {
            let (who, token) = first_move(&hands).expect("someone can act");
            let out = send(&h1, &who, Command::press(token)).await;
            assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
            if lost.len() == 2 {
                return (table, h1.store().clone(), lost);
            }
            lost.extend(result_posts(&out));
            see(&mut hands, &out);
        }
        panic!("deals 1 and 2 did not end in 600 presses");
    });
    let keys: Vec<_> = lost.iter().map(|(_, once)| once.clone()).collect();
    assert_eq!(
        keys,
        [1, 2].map(|d| Some(format!("t{table}.d{d}.result"))),
        "each result carries its key"
    );
    first.block_on(async { store.forget_process().await.unwrap() });
    first.shutdown_background();

    let second = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    second.block_on(async {
        let (h2, _e2) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        let out = h2.sweep(std::time::Duration::from_secs(300)).await.unwrap();
        assert_eq!(
            result_posts(&out),
            lost,
            "both results are posted again, with their keys: {out:?}"
        );
        // This time deal 2's result reaches the chat (the adapter keeps its id); deal 1's is
        // lost again.
        let key = lost[1].1.as_deref().unwrap();
        let store = h2.store();
        assert_eq!(
            store
                .claim_first_post(Platform::Telegram, key, "g")
                .await
                .unwrap(),
            FirstPost::Mine
        );
        store
            .keep_first_post(Platform::Telegram, key, "g", "77")
            .await
            .unwrap();
        store.forget_process().await.unwrap();
    });
    second.shutdown_background();

    let third = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut hands = HashMap::new();
    let (store, still_owed) = third.block_on(async {
        let (h3, _e3) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        let out = h3.recover().await.unwrap();
        assert!(
            out.0.iter().any(|o| matches!(o, Out::Private { .. })),
            "the table was recovered: {out:?}"
        );
        assert_eq!(
            result_posts(&out),
            lost[..1],
            "only the result that was not posted is owed: {out:?}"
        );
        see(&mut hands, &out);
        // A person moves here: this process is the table's last mover when it dies.
        let (who, token) = first_move(&hands).expect("someone can act");
        let out = send(&h3, &who, Command::press(token)).await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        see(&mut hands, &out);
        // Deal 1's result is still not recorded as posted, nor any this press ended.
        let mut owed = lost[..1].to_vec();
        owed.extend(result_posts(&out));
        (h3.store().clone(), owed)
    });
    third.block_on(async { store.forget_process().await.unwrap() });
    third.shutdown_background();

    // A fourth process meets the table first through a press (before any sweep of its own,
    // as a press handed over by a process that found the owner gone): loading the table of a
    // dead last mover posts what it owes, as a takeover does.
    let fourth = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    fourth.block_on(async {
        let (h4, mut e4) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
        let (who, token) = first_move(&hands).expect("someone can act");
        send(&h4, &who, Command::press(token)).await;
        let owed = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            loop {
                let out = e4.recv().await.expect("events");
                let posts = result_posts(&out);
                if !posts.is_empty() {
                    return posts;
                }
            }
        })
        .await
        .expect("the owed result is posted");
        assert_eq!(owed, still_owed, "the results still owed, once each");
    });
}

/// A person picks the cards to bury one by one, and each press may reach another process:
/// the first pick taken by one host and the second by the other bury both cards (the second
/// host reads the pick the first one kept, rather than starting a choice of its own).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cards_to_bury_picked_on_two_hosts_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("picks.db");
    let path = path.to_str().unwrap();
    let open = || Store::open_sqlite(path);
    picks_on_two_hosts(
        open().await.unwrap(),
        open().await.unwrap(),
        open().await.unwrap(),
        Owners::Both,
    )
    .await;
}

/// On PostgreSQL the table has one owner, which makes the picks; the other process's view
/// (a live page it serves) shows the first pick all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_the_cards_to_bury_picked_on_two_hosts_add_up_and_show_on_both() {
    let Some((url, schema)) = postgres("picks") else {
        return;
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    picks_on_two_hosts(
        open().await.unwrap(),
        open().await.unwrap(),
        open().await.unwrap(),
        Owners::One,
    )
    .await;
}

/// How many of the two hosts of `picks_on_two_hosts` own the table.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Owners {
    /// SQLite: every process owns every table.
    Both,
    /// PostgreSQL: exactly one, and the other serves pages from a copy.
    One,
}

/// A person to bury picks one card through one host and the second through the other: the
/// two are buried together. The first pick shows on the page of every host that is expected
/// to show it: both on PostgreSQL (the owner's, and the other's copy); on SQLite the page of
/// the host that took it.
async fn picks_on_two_hosts(one: Store, two: Store, observer: Store, owners: Owners) {
    let (h1, mut e1) = Host::new(one, config());
    let (h2, mut e2) = Host::new(two, config());
    // Each beats and learns the other (on PostgreSQL; nothing on SQLite).
    let quiet = std::time::Duration::from_secs(600);
    for h in [&h1, &h2, &h1] {
        h.sweep(quiet).await.unwrap();
    }
    let mut screen = Screen::default();
    send(&h1, "admin", Command::SetTurnLimit(None)).await;
    let new_table = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    screen.show(&send(&h1, "anna", new_table).await);
    let table = Token::decode(&screen.lobby[0]).unwrap().table;
    screen.show(&send(&h2, "bruno", Command::Join).await);
    screen.show(&send(&h1, "anna", Command::AddBot { level: Level::Basic }).await);
    screen.show(&send(&h1, "anna", Command::Start).await);
    // The table's owner takes it up (on PostgreSQL another process may have started it).
    for h in [&h1, &h2] {
        screen.show(&h.sweep(quiet).await.unwrap());
    }
    let picks = |screen: &Screen| {
        ["anna", "bruno"].into_iter().find_map(|who| {
            let picks: Vec<String> = screen
                .hands
                .get(who)?
                .iter()
                .filter(|t| t.contains(".y:"))
                .cloned()
                .collect();
            (picks.len() >= 2).then(|| (who.to_string(), picks))
        })
    };
    let mut presses = 0;
    let (who, picks) = loop {
        // What the hosts showed on their own: on PostgreSQL the table's owner shows what a
        // press handed to it changed, and its computer player's moves.
        while let Ok(o) = e1.try_recv().or_else(|_| e2.try_recv()) {
            screen.show(&o);
        }
        if let Some(found) = picks(&screen) {
            break found;
        }
        presses += 1;
        assert!(presses < 1000, "no person took the talon: {:#?}", screen.hands);
        // Whoever is to act takes the talon when offered, so that a person comes to bury.
        let take = ["anna", "bruno"].into_iter().find_map(|who| {
            let t = screen.hands.get(who)?.iter().find(|t| t.ends_with(".b:take"))?;
            Some((who.to_string(), t.clone()))
        });
        let first = || {
            ["anna", "bruno"].into_iter().find_map(|who| {
                let t = screen.hands.get(who)?.first()?;
                Some((who.to_string(), t.clone()))
            })
        };
        let Some((who, token)) = take.or_else(first) else {
            // The computer player is to act.
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        };
        // Through the second host: its copy is up to date when the burial begins.
        let out = send(&h2, &who, Command::press(token)).await;
        screen.show(&out);
    };
    let card = |t: &String| {
        Token::decode(t)
            .unwrap()
            .action
            .trim_start_matches("y:")
            .to_string()
    };
    // The page of the process that does not own the table is open: it holds a copy.
    let owning = [&h1, &h2].into_iter().filter(|h| h.owns(table)).count();
    assert_eq!(
        owning,
        if owners == Owners::Both { 2 } else { 1 },
        "the hosts that own the table ({owners:?} expected)"
    );
    let elsewhere = [&h1, &h2].into_iter().find(|h| !h.owns(table));
    let picked_there = |h: &Arc<Host>| {
        let h = h.clone();
        let who = who.clone();
        async move {
            let view = h.table_view(table, Some(&who)).await.unwrap().unwrap();
            view.hand
                .iter()
                .filter(|c| c.picked)
                .map(|c| c.card.to_string())
                .collect::<Vec<String>>()
        }
    };
    // The pages that show the first pick: every host's on PostgreSQL (`elsewhere` is the
    // one that does not own the table); on SQLite, where both own it, the page of the host
    // the pick is pressed at.
    let showing: Vec<&Arc<Host>> = match owners {
        Owners::One => vec![&h1, &h2],
        Owners::Both => vec![&h1],
    };
    assert_eq!(elsewhere.is_some(), owners == Owners::One);
    for h in &showing {
        assert!(picked_there(h).await.is_empty(), "a pick before any was made");
    }
    let before = observer.actions(table).await.unwrap().len();
    let out = send(&h1, &who, Command::press(picks[0].clone())).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
    assert_eq!(
        observer.actions(table).await.unwrap().len(),
        before,
        "one pick buries nothing"
    );
    // A page served by a process that does not own the table shows the pick, as the
    // owner's does (on SQLite every process owns every table: the page of the one that
    // took the pick).
    for h in &showing {
        let at = if elsewhere.is_some_and(|e| Arc::ptr_eq(e, h)) {
            "the other process's page"
        } else {
            "the owner's page"
        };
        assert_eq!(picked_there(h).await, vec![card(&picks[0])], "the pick on {at}");
    }

    let out = send(&h2, &who, Command::press(picks[1].clone())).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
    let actions = observer.actions(table).await.unwrap();
    let buried = actions
        .iter()
        .skip(before)
        .find_map(|a| a.payload["bury"].as_array().cloned())
        .unwrap_or_else(|| {
            panic!(
                "the second pick on the other host buried nothing: {:?}",
                &actions[before..]
            )
        });
    let mut buried: Vec<String> = buried.iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let mut picked = vec![card(&picks[0]), card(&picks[1])];
    buried.sort();
    picked.sort();
    assert_eq!(buried, picked);
}

/// Several processes on PostgreSQL: each running table has one owner among the live
/// processes. A press that reaches another process is handed to the owner, which commits it
/// (the log names the owner's process) and answers through the process the person pressed
/// at, with their hand; while the owner is gone but still counted alive, the press is
/// answered "try again" within seconds and never committed later; once the owner has
/// stopped, the other process owns the table and the press goes through.
///
/// The processes tell each other straight (over a connection between them), or through the
/// database: where a process does not listen for the others, or where what it says of where
/// it listens does not hold (its secret there is not its own: the connection is refused).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_press_is_handed_to_the_tables_owner() {
    press_handed_to_owner(Told::Straight, Platform::Telegram).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_press_is_handed_to_the_tables_owner_through_the_database() {
    press_handed_to_owner(Told::Database, Platform::Telegram).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_press_is_handed_through_the_database_to_an_owner_that_refuses_the_connection() {
    press_handed_to_owner(Told::Refused, Platform::Telegram).await;
}

/// On Discord, a press made in a direct message (on the person's hand message, which any
/// process can edit) is handed over the same way, and the owner shows the presser's hand
/// itself: nothing of it comes back for the receiver to draw in the interaction's answer,
/// where it could land after a newer version the owner showed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_discord_press_in_a_direct_message_leaves_the_pressers_hand_to_the_owner() {
    press_handed_to_owner(Told::Straight, Platform::Discord).await;
}

/// Two hosts on one database learn each other (each beats and reads the other: three
/// sweeps), and Anna starts a Zole table with Bruno (who joins at the second host) and a
/// computer player, each command given through `send`: what the players saw, and the table.
async fn zole_on_two_hosts<F, Fut>(h1: &Arc<Host>, h2: &Arc<Host>, send: &F) -> (Screen, i64)
where
    F: Fn(&Arc<Host>, &str, Command) -> Fut,
    Fut: std::future::Future<Output = Outbox>,
{
    for h in [h1, h2, h1] {
        h.sweep(std::time::Duration::from_secs(600)).await.unwrap();
    }
    let mut screen = Screen::default();
    send(h1, "admin", Command::SetTurnLimit(None)).await;
    let new = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    screen.show(&send(h1, "anna", new).await);
    screen.show(&send(h2, "bruno", Command::Join).await);
    screen.show(&send(h1, "anna", Command::AddBot { level: Level::Basic }).await);
    screen.show(&send(h1, "anna", Command::Start).await);
    let table = screen
        .hands
        .values()
        .flatten()
        .find_map(|t| Token::decode(t).ok())
        .expect("hands with buttons after the start")
        .table;
    (screen, table)
}

/// How the processes of `press_handed_to_owner` tell each other.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Told {
    /// Over a connection between them.
    Straight,
    /// Neither listens for the other: through the database.
    Database,
    /// Each gives a secret that is not its own: the connections are refused, and what they
    /// were for goes through the database.
    Refused,
}

async fn press_handed_to_owner(told: Told, platform: Platform) {
    let Some((url, schema)) = postgres("own") else {
        return;
    };
    // Installed before anything is recorded, as a bot does (`Store::connect`).
    let recorder = stikis_host::observe::recorder().expect("the metrics recorder installs");
    // Where the table sits, and where a person presses their hand's buttons: the group on
    // Telegram; a direct message of their own on Discord.
    let group = match platform {
        Platform::Telegram => ChatRef::new(platform, "group-1", "g"),
        _ => ChatRef::new(platform, "500", "600"),
    };
    let hand_chat = |who: &str| match platform {
        Platform::Telegram => group.clone(),
        _ => ChatRef::new(platform, stikis_host::store::DISCORD_DM, format!("dm-{who}")),
    };
    let send = |host: &Arc<Host>, who: &str, command: Command| {
        let chat = match command {
            Command::Press(_) => hand_chat(who),
            _ => group.clone(),
        };
        let (host, who) = (host.clone(), who.to_string());
        async move { send_in(&host, &chat, &who, command).await }
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    let observer = open().await.unwrap();
    let config = || HostConfig {
        peer_listen: config().peer_listen.filter(|_| told != Told::Database),
        ..config()
    };
    let (h1, mut e1) = Host::new(open().await.unwrap(), config());
    let (h2, mut e2) = Host::new(open().await.unwrap(), config());
    let quiet = std::time::Duration::from_secs(600);
    let (mut screen, table) = zole_on_two_hosts(&h1, &h2, &send).await;
    assert_ne!(h1.owns(table), h2.owns(table), "exactly one owner");
    let (owner, other) = if h1.owns(table) { (&h1, &h2) } else { (&h2, &h1) };
    // The owner takes the table up (the other may have started it) and the other lets go.
    for h in [owner, other] {
        h.sweep(quiet).await.unwrap();
    }
    let peers: Vec<Option<String>> = sqlx::query_scalar(&format!("SELECT peer FROM \"{schema}\".processes"))
        .fetch_all(&mut observer_connection(&url).await)
        .await
        .unwrap();
    assert_eq!(
        peers.iter().filter(|p| p.is_some()).count(),
        if told == Told::Database { 0 } else { 2 },
        "where each listens, as their heartbeats say: {peers:?}"
    );
    if told == Told::Refused {
        // Until the next sweep's heartbeat; each process reads it within `OWNERS_EVERY`
        // and drops the connection it may have made.
        sqlx::query(&format!(
            "UPDATE \"{schema}\".processes SET peer = split_part(peer, ' ', 1) || ' not-the-secret'"
        ))
        .execute(&mut observer_connection(&url).await)
        .await
        .unwrap();
        tokio::time::sleep(stikis_host::owner::OWNERS_EVERY * 3).await;
    }

    // A live page of Bruno's served by the other process: the owner, which shows the
    // table's moves, holds his hand back too, until the page has closed for good.
    let watched_at_owner = |on: bool| async move {
        for _ in 0..100 {
            if owner.is_watched(table, "bruno") == on {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the owner never learnt that Bruno's page is open: {on}");
    };
    let page = other.watch(table, "bruno");
    watched_at_owner(true).await;
    assert!(!owner.is_watched(table, "anna"));
    drop(page);
    watched_at_owner(false).await;

    // Whoever is to act presses at the process that does not own the table. The buttons of
    // the table's current state:
    let pressed = buttons_at;
    // What the hosts showed on their own (the owner shows what a handed press changed).
    let drain = |screen: &mut Screen,
                 e1: &mut tokio::sync::mpsc::UnboundedReceiver<Outbox>,
                 e2: &mut tokio::sync::mpsc::UnboundedReceiver<Outbox>| {
        while let Ok(o) = e1.try_recv().or_else(|_| e2.try_recv()) {
            screen.show(&o);
        }
    };
    drain(&mut screen, &mut e1, &mut e2);
    let seq_before = observer.next_seq(table).await.unwrap();
    let mut applied = None;
    for (who, token) in pressed(&screen, seq_before - 1) {
        let out = send(other, &who, Command::press(token)).await;
        if out.reply_text() == Some("✓") {
            applied = Some((who, out));
            break;
        }
    }
    let (who, out) = applied.expect("a press of the person to act is applied");
    // The process it reached counts its wait for the owner's answer as a handed press.
    let metrics = recorder.render();
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("stikis_move_seconds_count{outcome=\"handed\"}") && !l.ends_with(" 0")),
        "{metrics}"
    );
    // The owner shows every hand of its tables, the presser's too (at once: they just
    // acted). A card's answer carries no copy of it: nothing at the receiver reads one.
    let copies = |out: &Outbox| {
        out.0
            .iter()
            .filter(|o| matches!(o, Out::Private { user, delivery: HandDelivery::Shown, .. } if *user == who))
            .count()
    };
    assert_eq!(
        copies(&out),
        0,
        "the presser's own hand in a card's answer: {out:?}"
    );
    // The 🂠 button's answer on Telegram carries a copy to read only (`Shown`: its popup's
    // legend, its hand in the group). On Discord, from a direct message, it carries none.
    let hand = Token::new(table, 0, "hand").encode().unwrap();
    let asked = send(other, &who, Command::press(hand)).await;
    assert_eq!(
        copies(&asked),
        usize::from(platform == Platform::Telegram),
        "the presser's own hand in the 🂠 button's answer, as shown by the owner: {asked:?}"
    );
    assert!(
        !out.0.iter().any(|o| matches!(
            o,
            Out::Private { delivery, .. } if *delivery != HandDelivery::Shown
        )),
        "the receiver has no hand to show: {out:?}"
    );
    let owners_events = if std::ptr::eq(owner, &h1) {
        &mut e1
    } else {
        &mut e2
    };
    let mut shown_by_owner = Vec::new();
    for _ in 0..100 {
        while let Ok(o) = owners_events.try_recv() {
            screen.show(&o);
            shown_by_owner.extend(o.0);
        }
        if shown_by_owner
            .iter()
            .any(|o| matches!(o, Out::Private { user, .. } if *user == who))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        shown_by_owner.iter().any(|o| matches!(
            o,
            Out::Private { user, delivery: HandDelivery::Pressed, .. } if *user == who
        )),
        "the owner shows the presser's hand at once: {shown_by_owner:?}"
    );
    assert!(
        !out.0.iter().any(|o| matches!(o, Out::Public { .. })),
        "the owner shows the table message itself: {out:?}"
    );
    screen.show(&out);
    let log = observer.actions(table).await.unwrap();
    let moved: Vec<_> = log.iter().filter(|a| a.seq >= seq_before).collect();
    assert!(!moved.is_empty());
    for a in &moved {
        assert_eq!(
            a.process.as_deref(),
            Some(owner.store().process_id()),
            "every move after the press was made by the owner: {log:?}"
        );
    }
    // How the press and its answer went between the processes.
    let (straight, database) = {
        let (a, b) = (owner.told_others(), other.told_others());
        (a.0 + b.0, a.1 + b.1)
    };
    match told {
        Told::Straight => assert!(straight >= 2 && database == 0, "{straight} {database}"),
        // Neither process listens: each sends by NOTIFY alone, which is not counted here.
        Told::Database => assert_eq!((straight, database), (0, 0)),
        Told::Refused => assert!(database >= 2, "{straight} {database}"),
    }

    // Until a person is to act (the owner's computer player may be to move).
    for i in 0.. {
        drain(&mut screen, &mut e1, &mut e2);
        let seq = observer.next_seq(table).await.unwrap();
        if !pressed(&screen, seq - 1).is_empty() {
            break;
        }
        assert!(
            i < 250,
            "no person to act at {}: {:#?} {:#?}",
            seq - 1,
            screen.hands,
            observer.actions(table).await.unwrap()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // The owner goes away without a word; its heartbeat is still fresh, so the other process
    // hands the press to it, and answers "try again" when no answer comes.
    let owner_store = owner.store().clone();
    let other = other.clone();
    let owner_weak = std::sync::Arc::downgrade(owner);
    drop((h1, h2));
    assert!(owner_weak.upgrade().is_none(), "the owner's host is gone");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    drain(&mut screen, &mut e1, &mut e2);
    let seq_before = observer.next_seq(table).await.unwrap();
    let now = pressed(&screen, seq_before - 1);
    let (who, token) = now
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("a person is to act at {}: {:#?}", seq_before - 1, screen.hands));
    let started = std::time::Instant::now();
    let out = send(&other, &who, Command::press(token)).await;
    let reply = out.reply_text().unwrap_or_default();
    assert!(reply.starts_with("That did not go through in time"), "{out:?}");
    eprintln!("answered \"try again\" in {:?}", started.elapsed());
    // A press is committed within `PRESS_LIMIT` of its receipt or never, and the answer came
    // after that limit: another whole limit (five reads of the live set) would see a commit
    // that came late, where 1 s (two reads) was shorter than the limit it is about.
    tokio::time::sleep(stikis_host::owner::PRESS_LIMIT).await;
    assert_eq!(
        observer.next_seq(table).await.unwrap(),
        seq_before,
        "never committed later"
    );

    // It dies: its sessions close, its heartbeat still fresh (no sign-off, no sweep here).
    // The press made right away is handed to it (the other process reads the live set only
    // every `OWNERS_EVERY`) or taken here, and either way goes through within its time: a
    // press waiting for an owner that is gone goes to the new owner, after a look at the log.
    owner_store.close().await;
    let mut applied = false;
    for (who, token) in now {
        let out = send(&other, &who, Command::press(token)).await;
        if out.reply_text() == Some("✓") {
            applied = true;
            break;
        }
    }
    assert!(applied, "the new owner takes the press");
    assert!(other.owns(table));
    let last = observer.actions(table).await.unwrap();
    assert_eq!(
        last.last().unwrap().process.as_deref(),
        Some(other.store().process_id())
    );
}

/// A process that held a copy of a table while another process owned it (a command typed in
/// the chat reads the table where it arrives) and gains the table when that owner dies reads
/// it afresh and shows it as the log has it: it does not keep its copy, behind the moves the
/// owner made meanwhile, with nothing shown of them until a press finds it stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_table_gained_from_a_dead_owner_is_read_afresh_though_a_copy_was_held() {
    let Some((url, schema)) = postgres("gain") else {
        return;
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    let observer = open().await.unwrap();
    let (h1, _e1) = Host::new(open().await.unwrap(), config());
    let (h2, _e2) = Host::new(open().await.unwrap(), config());
    let quiet = std::time::Duration::from_secs(600);
    let in_group = |h: &Arc<Host>, who: &str, command: Command| {
        let (h, who) = (h.clone(), who.to_string());
        async move { send(&h, &who, command).await }
    };
    let (screen, table) = zole_on_two_hosts(&h1, &h2, &in_group).await;
    let (owner, other) = if h1.owns(table) { (h1, h2) } else { (h2, h1) };
    for h in [&owner, &other] {
        h.sweep(quiet).await.unwrap();
    }
    // The other process reads the table for a command typed in the chat: it holds a copy.
    let asked = send(&other, "anna", Command::ShowHand).await;
    assert!(
        asked
            .0
            .iter()
            .any(|o| matches!(o, Out::Private { user, .. } if user == "anna")),
        "{asked:?}"
    );
    // The owner moves the table on: the person to act presses there.
    let seq = observer.next_seq(table).await.unwrap() - 1;
    let mut moved = false;
    for (who, tokens) in screen.hands.clone() {
        for token in tokens {
            if Token::decode(&token).is_ok_and(|t| t.seq == seq)
                && send(&owner, &who, Command::press(token)).await.reply_text() == Some("✓")
            {
                moved = true;
                break;
            }
        }
        if moved {
            break;
        }
    }
    assert!(moved, "a person moved at the owner");
    let last = observer.next_seq(table).await.unwrap() - 1;
    assert!(last > seq);
    // The owner dies (its sessions close); the other process learns it from its reads of
    // the live processes, and then sweeps (its copy is still in memory: no sweep since).
    let owner_store = owner.store().clone();
    drop(owner);
    owner_store.close().await;
    for i in 0.. {
        if other.owns(table) {
            break;
        }
        assert!(i < 50, "the other process owns the table once the owner is gone");
        tokio::time::sleep(stikis_host::owner::OWNERS_EVERY).await;
    }
    let out = other.sweep(quiet).await.unwrap();
    let versions: Vec<i64> = out
        .0
        .iter()
        .filter_map(|o| match o {
            Out::Public { key, version, .. } if key.starts_with(&format!("t{table}.d")) => Some(*version),
            _ => None,
        })
        .collect();
    assert!(
        versions.contains(&last),
        "the table message as the log has it (action {last}) is shown by the new owner: {versions:?} {out:?}"
    );
}

/// A press whose receiver deferred its answer (Discord) and died before giving it is
/// answered by its table's next owner: "try again" through what the receiver gave to reach
/// the person, when its move is not in the log under its name; nothing when it is there
/// (the table shows it), and nothing for one the receiver answered itself. Every other
/// process keeps the press: here the table's next owner dies with the receiver, and the
/// third process, the owner after it, answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_deferred_press_whose_receiver_died_is_answered_by_the_next_owner() {
    let Some((url, schema)) = postgres("defer") else {
        return;
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    let observer = open().await.unwrap();
    let (h1, _e1) = Host::new(open().await.unwrap(), config());
    let (h2, _e2) = Host::new(open().await.unwrap(), config());
    let (h3, _e3) = Host::new(open().await.unwrap(), config());
    let quiet = std::time::Duration::from_secs(600);
    h3.sweep(quiet).await.unwrap();
    let server = ChatRef::new(Platform::Discord, "500", "600");
    let in_server = |h: &Arc<Host>, who: &str, command: Command| {
        let (h, who, chat) = (h.clone(), who.to_string(), server.clone());
        async move { send_in(&h, &chat, &who, command).await }
    };
    let (screen, table) = zole_on_two_hosts(&h1, &h2, &in_server).await;
    for h in [&h3, &h2, &h1] {
        h.sweep(quiet).await.unwrap();
    }
    let receiver = h1;
    // The table's owner once the receiver is gone, and the one after it.
    let (next, last) = match owner_among(
        table,
        &[h2.store().process_id().into(), h3.store().process_id().into()],
    ) {
        Some(o) if o == h2.store().process_id() => (h2, h3),
        _ => (h3, h2),
    };
    // A press the receiver committed under its name, deferred on the way.
    let seq = observer.next_seq(table).await.unwrap() - 1;
    let mut committed = None;
    for (who, token) in buttons_at(&screen, seq) {
        let press = Request {
            chat: server.clone(),
            user: user(&who, false),
            command: Command::press(token),
        };
        let out = receiver
            .handle_named(
                press.clone(),
                stikis_host::store::now_ms(),
                Some("discord/1".into()),
            )
            .await;
        if out.reply_text() == Some("✓") {
            committed = Some(press);
            break;
        }
    }
    let press = committed.unwrap_or_else(|| panic!("a person acts at {seq}: {:#?}", screen.hands));
    receiver.press_deferred(&press, "discord/1", "token-1").await;
    // The same button pressed again, deferred, and never committed (the first press's move
    // took the number): its person is owed "try again".
    receiver.press_deferred(&press, "discord/2", "token-2").await;
    // One the receiver answered itself.
    receiver.press_deferred(&press, "discord/3", "token-3").await;
    receiver.deferred_answered("discord/3").await;
    assert_eq!(
        observer.action_press(table, seq + 1).await.unwrap(),
        Some(Some("discord/1".to_string())),
        "the move is written under the press's name"
    );

    // The receiver dies (its sessions close), and the table's next owner with it. The third
    // process learns it from its reads of the live processes, owns the table then, and
    // answers once the presses' time is past.
    for h in [receiver, next] {
        let store = h.store().clone();
        drop(h);
        store.close().await;
    }
    assert_eq!(follow_ups_by(&last, quiet).await, try_again_to("token-2"));
}

/// A TCP proxy to PostgreSQL that can be cut: its connections closed and new ones refused
/// (the database unreachable from one process), then let through again.
struct Cuttable {
    port: u16,
    open: Arc<std::sync::atomic::AtomicBool>,
    links: Arc<std::sync::Mutex<tokio::task::JoinSet<()>>>,
}

impl Cuttable {
    async fn start(to: std::net::SocketAddr) -> Cuttable {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let links = Arc::new(std::sync::Mutex::new(tokio::task::JoinSet::new()));
        let (o, l) = (open.clone(), links.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !o.load(Ordering::SeqCst) {
                    continue; // dropped: closed at once
                }
                l.lock().unwrap().spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        Cuttable { port, open, links }
    }

    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        self.links.lock().unwrap().abort_all();
    }

    fn mend(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// A deferred press whose receiver could not tell another process of it (the database
/// unreachable from the receiver for a moment) is told again until it is heard: when the
/// receiver then dies, that process, the table's owner, answers the press's person.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_deferred_press_not_told_at_first_is_told_again() {
    let Some((url, schema)) = postgres("retell") else {
        return;
    };
    // The database's address in the URL (`postgres://[user@]host[:port]/db`), and the same
    // URL through the proxy.
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split('/').next().unwrap();
    let address = authority.rsplit('@').next().unwrap();
    let with_port = if address.contains(':') {
        address.to_string()
    } else {
        format!("{address}:5432")
    };
    let db = tokio::net::lookup_host(with_port).await.unwrap().next().unwrap();
    let proxy = Cuttable::start(db).await;
    let through = url.replacen(address, &format!("127.0.0.1:{}", proxy.port), 1);
    let open = |url: String| {
        let schema = schema.clone();
        async move { Store::connect_postgres(&url, Some(&schema)).await.unwrap() }
    };
    // Told through the database: no straight link between the processes.
    let config = || HostConfig {
        peer_listen: None,
        ..config()
    };
    let (receiver, _e1) = Host::new(open(through).await, config());
    let (other, _e2) = Host::new(open(url.clone()).await, config());
    let quiet = std::time::Duration::from_secs(600);
    let server = ChatRef::new(Platform::Discord, "500", "600");
    let in_server = |h: &Arc<Host>, who: &str, command: Command| {
        let (h, who, chat) = (h.clone(), who.to_string(), server.clone());
        async move { send_in(&h, &chat, &who, command).await }
    };
    let (screen, table) = zole_on_two_hosts(&receiver, &other, &in_server).await;
    for h in [&other, &receiver] {
        h.sweep(quiet).await.unwrap();
    }
    // A press deferred while the receiver cannot reach the database (and so the other
    // process), and never committed.
    let seq = other.store().next_seq(table).await.unwrap() - 1;
    let (who, token) = buttons_at(&screen, seq)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("a person acts at {seq}: {:#?}", screen.hands));
    let press = Request {
        chat: server.clone(),
        user: user(&who, false),
        command: Command::press(token),
    };
    proxy.cut();
    receiver.press_deferred(&press, "discord/1", "token-1").await;
    proxy.mend();
    // Told again within a couple of tries; then the receiver dies without answering it.
    tokio::time::sleep(std::time::Duration::from_millis(3500)).await;
    let store = receiver.store().clone();
    drop(receiver);
    store.close().await;
    assert_eq!(follow_ups_by(&other, quiet).await, try_again_to("token-1"));
}

/// The follow-ups (`Out::FollowUp`: follow token, text) that `host`'s sweeps give over 24
/// reads of the live processes, once a deferred press's receiver died.
async fn follow_ups_by(host: &Arc<Host>, quiet: std::time::Duration) -> Vec<(String, String)> {
    let mut follow_ups = Vec::new();
    for _ in 0..24 {
        tokio::time::sleep(stikis_host::owner::OWNERS_EVERY).await;
        let out = host.sweep(quiet).await.unwrap();
        follow_ups.extend(out.0.into_iter().filter_map(|o| match o {
            Out::FollowUp { follow, text } => Some((follow, text)),
            _ => None,
        }));
    }
    follow_ups
}

/// The one follow-up "try again" through `follow`.
fn try_again_to(follow: &str) -> Vec<(String, String)> {
    let text = stikis_host::i18n::t(stikis_host::i18n::Lang::En, "press-try-again", &[]);
    vec![(follow.to_string(), text)]
}

/// A person's move whose commit lost its answer (the connection failed after the statement
/// was sent: PostgreSQL restarted, the network reset) is answered by what the log holds,
/// never "try again" for a move that stands: "✓" when the database can be asked in time;
/// when it cannot, the person is told the outcome is not known yet, and then, once it
/// answers, that the move was taken after all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_move_whose_commit_lost_its_answer_is_answered_by_what_the_log_holds() {
    let Some((url, schema)) = postgres("lost") else {
        return;
    };
    let store = Store::connect_postgres(&url, Some(&schema)).await.unwrap();
    let (host, mut events) = Host::new(store.clone(), config());
    host.sweep(std::time::Duration::from_secs(600)).await.unwrap();
    let mut screen = Screen::default();
    send(&host, "admin", Command::SetTurnLimit(None)).await;
    let new = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    screen.show(&send(&host, "anna", new).await);
    screen.show(&send(&host, "bruno", Command::Join).await);
    screen.show(&send(&host, "anna", Command::AddBot { level: Level::Basic }).await);
    screen.show(&send(&host, "anna", Command::Start).await);
    let (who, token) = screen.next_press();
    let table = Token::decode(&token).unwrap().table;
    let seat_of = |who: &str| i64::from(who != "anna");

    // Asked at once: the move stands, and the press is taken.
    let seq = store.next_seq(table).await.unwrap();
    store.lose_commit_answer(0);
    let out = send(&host, &who, Command::press(token)).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:#?}");
    let actions = store.actions(table).await.unwrap();
    let made = actions
        .iter()
        .find(|a| a.seq == seq)
        .expect("the move is in the log");
    assert_eq!(made.payload["seat"].as_i64(), Some(seat_of(&who)), "{made:?}");
    screen.show(&out);

    // The database out of reach past the press's time: not known yet, then taken after all.
    let (who, token) = screen.next_press();
    let seq = store.next_seq(table).await.unwrap();
    store.lose_commit_answer(6_000);
    let out = send(&host, &who, Command::press(token)).await;
    let unsure = stikis_host::i18n::t(stikis_host::i18n::Lang::En, "press-unsure", &[]);
    assert_eq!(out.reply_text(), Some(unsure.as_str()), "{out:#?}");
    let stood = stikis_host::i18n::t(
        stikis_host::i18n::Lang::En,
        "press-stood-later",
        &[("name", who.to_uppercase().as_str().into())],
    );
    let told = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        loop {
            let out = events.recv().await.expect("the host's events");
            if let Some(text) = out.0.iter().find_map(|o| match o {
                Out::Post { text, .. } if text.contains("database is back") => Some(text.clone()),
                _ => None,
            }) {
                return text;
            }
        }
    })
    .await
    .expect("the person is told the outcome once the database answers");
    assert_eq!(told, stood);
    let actions = store.actions(table).await.unwrap();
    let made = actions
        .iter()
        .find(|a| a.seq == seq)
        .expect("the move is in the log");
    assert_eq!(made.payload["seat"].as_i64(), Some(seat_of(&who)), "{made:?}");
}

/// On PostgreSQL a table's changes are told to the other processes (a `NOTIFY` that wakes
/// each of them) only while one of them has a live page of it open (`Host::follow`): with
/// no page anywhere, moves are told to nobody; a page opening in the process that does not
/// own the table is told the table at once (a move made before the owner heard of the page
/// would otherwise never reach it) and each move after; once the page has closed for good
/// (`RESHOW_AFTER`), nothing again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_tables_changes_are_told_to_the_processes_with_a_page_of_it_only() {
    let Some((url, schema)) = postgres("follow") else {
        return;
    };
    let open = || Store::connect_postgres(&url, Some(&schema));
    let observer = open().await.unwrap();
    let (h1, mut e1) = Host::new(open().await.unwrap(), config());
    let (h2, mut e2) = Host::new(open().await.unwrap(), config());
    let send = |host: &Arc<Host>, who: &str, command: Command| {
        let (host, who) = (host.clone(), who.to_string());
        async move { send(&host, &who, command).await }
    };
    let (mut screen, table) = zole_on_two_hosts(&h1, &h2, &send).await;
    let quiet = std::time::Duration::from_secs(600);
    let (owner, other) = if h1.owns(table) { (&h1, &h2) } else { (&h2, &h1) };
    for h in [owner, other] {
        h.sweep(quiet).await.unwrap();
    }
    // What each process hears of the others' changes.
    let heard = |store: &Store| {
        let seen = Arc::new(std::sync::Mutex::new(Vec::<Option<i64>>::new()));
        let into = seen.clone();
        let task = store
            .listen_changes(move |id| into.lock().unwrap().push(id))
            .expect("a listener on PostgreSQL");
        (seen, task)
    };
    let (at_owner, _t1) = heard(owner.store());
    let (at_other, _t2) = heard(other.store());
    let told = |seen: &Arc<std::sync::Mutex<Vec<Option<i64>>>>| {
        seen.lock()
            .unwrap()
            .iter()
            .filter(|id| **id == Some(table))
            .count()
    };
    // The listeners are up once a notice sent now is heard.
    owner.store().notify_changed(&[-1]).await.unwrap();
    for _ in 0..100 {
        if at_other.lock().unwrap().contains(&Some(-1)) && at_owner.lock().unwrap().contains(&Some(-1)) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        at_other.lock().unwrap().contains(&Some(-1)),
        "the listeners hear notices"
    );

    // No page anywhere: two moves, told to nobody.
    for _ in 0..2 {
        one_move(owner, &observer, table, &mut screen, [&mut e1, &mut e2]).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!((told(&at_owner), told(&at_other)), (0, 0), "no page, no notice");

    // A page opens at the other process: the owner tells it of the table at once.
    let page = other.follow(table);
    let wait_told = |seen: Arc<std::sync::Mutex<Vec<Option<i64>>>>, at_least: usize| async move {
        for _ in 0..250 {
            if told(&seen) >= at_least {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("the page's process was not told of table {table}");
    };
    wait_told(at_other.clone(), 1).await;
    let before = told(&at_other);
    one_move(owner, &observer, table, &mut screen, [&mut e1, &mut e2]).await;
    wait_told(at_other.clone(), before + 1).await;

    // The page closes for good: moves are told to nobody again.
    drop(page);
    tokio::time::sleep(stikis_host::watching::RESHOW_AFTER + std::time::Duration::from_millis(500)).await;
    let before = told(&at_other);
    one_move(owner, &observer, table, &mut screen, [&mut e1, &mut e2]).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(told(&at_other), before, "told after the page closed");
}

/// Installations sharing one PostgreSQL database in schemas of their own hear only their own
/// notices: a table's change told in one schema reaches the listeners of that schema, never
/// those of another (where the same table number is another table). Before, every schema
/// heard every other's changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_schemas_notices_are_heard_in_that_schema_only() {
    let (Some((url, one)), Some((_, other))) = (postgres("scope_a"), postgres("scope_b")) else {
        return;
    };
    let a1 = Store::connect_postgres(&url, Some(&one)).await.unwrap();
    let a2 = Store::connect_postgres(&url, Some(&one)).await.unwrap();
    let b = Store::connect_postgres(&url, Some(&other)).await.unwrap();
    let heard = |store: &Store| {
        let seen = Arc::new(std::sync::Mutex::new(Vec::<i64>::new()));
        let into = seen.clone();
        let task = store
            .listen_changes(move |id| into.lock().unwrap().extend(id))
            .expect("a listener on PostgreSQL");
        (seen, task)
    };
    let (in_a, _ta) = heard(&a2);
    let (in_b, _tb) = heard(&b);
    // Each listener is up once its own schema's notice is heard.
    for _ in 0..250 {
        a1.notify_changed(&[-1]).await.unwrap();
        b.notify_changed(&[-2]).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        if in_a.lock().unwrap().contains(&-1) && in_b.lock().unwrap().contains(&-2) {
            break;
        }
    }
    a1.notify_changed(&[7]).await.unwrap();
    b.notify_changed(&[8]).await.unwrap();
    for _ in 0..250 {
        if in_a.lock().unwrap().contains(&7) && in_b.lock().unwrap().contains(&8) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (a, b) = (in_a.lock().unwrap().clone(), in_b.lock().unwrap().clone());
    assert!(
        a.contains(&7) && b.contains(&8),
        "each schema hears its own: {a:?} {b:?}"
    );
    assert!(
        !a.contains(&8) && !a.contains(&-2) && !b.contains(&7) && !b.contains(&-1),
        "a schema heard another's: {a:?} {b:?}"
    );
}

/// One move at `table` of whoever is to act, pressed at `host`, with what both hosts showed
/// meanwhile on `screen`.
async fn one_move(
    host: &Arc<Host>,
    observer: &Store,
    table: i64,
    screen: &mut Screen,
    events: [&mut tokio::sync::mpsc::UnboundedReceiver<Outbox>; 2],
) {
    let [e1, e2] = events;
    // Until a person is to act (the owner's computer player may be to move).
    for _ in 0..250 {
        while let Ok(o) = e1.try_recv().or_else(|_| e2.try_recv()) {
            screen.show(&o);
        }
        let seq = observer.next_seq(table).await.unwrap();
        for (who, token) in buttons_at(screen, seq - 1) {
            let out = send(host, &who, Command::press(token)).await;
            if out.reply_text() == Some("✓") {
                screen.show(&out);
                return;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let seq = observer.next_seq(table).await.unwrap();
    panic!("nobody could move at {}: {:#?}", seq - 1, screen.hands);
}

/// A person's move that ends a deal, whose commit stood but lost its answer (PostgreSQL
/// restarted), drops the process's copy before the deal's result and the next deal: once the
/// database answers, the next sweep takes the table up again (this process owns it and does
/// not hold it), posts that result once and deals on, without waiting for the table to be
/// quiet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_deal_ended_by_a_move_whose_commit_lost_its_answer_is_posted_and_dealt_on() {
    let Some((url, schema)) = postgres("ended_lost") else {
        return;
    };
    let store = Store::connect_postgres(&url, Some(&schema)).await.unwrap();
    let (host, mut events) = Host::new(store.clone(), config());
    let quiet = std::time::Duration::from_secs(600);
    host.sweep(quiet).await.unwrap();
    let mut screen = Screen::default();
    send(&host, "admin", Command::SetTurnLimit(None)).await;
    let new = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    screen.show(&send(&host, "anna", new).await);
    for _ in 0..2 {
        screen.show(&send(&host, "anna", Command::AddBot { level: Level::Basic }).await);
    }
    screen.show(&send(&host, "anna", Command::Start).await);
    // Anna alone with two computer players: her last card's run ends the deal. Played on to
    // the last trick of a deal.
    let mut presses = 0;
    let token = loop {
        let (who, token) = screen.next_press();
        assert_eq!(who, "anna");
        if screen.hand_buttons.get("anna") == Some(&1) && screen.hands["anna"].len() == 1 {
            break token;
        }
        screen.show(&send(&host, "anna", Command::press(token)).await);
        presses += 1;
        assert!(presses < 100, "no last trick in 100 presses");
    };
    let table = Token::decode(&token).unwrap().table;
    let seq = Token::decode(&token).unwrap().seq;
    let results = screen.results;
    store.lose_commit_answer(6_000);
    let out = send(&host, "anna", Command::press(token)).await;
    let unsure = stikis_host::i18n::t(stikis_host::i18n::Lang::En, "press-unsure", &[]);
    assert_eq!(out.reply_text(), Some(unsure.as_str()), "{out:#?}");
    screen.show(&out);
    assert_eq!(
        screen.results, results,
        "no result before the database answers: {out:#?}"
    );
    // What the process says and shows from here, as a bot drains it (events) and sweeps.
    let dealt_on = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            while let Ok(out) = events.try_recv() {
                screen.show(&out);
            }
            if let Ok(out) = host.sweep(quiet).await {
                screen.show(&out);
            }
            let next = screen
                .hands
                .get("anna")
                .into_iter()
                .flatten()
                .any(|t| Token::decode(t).is_ok_and(|t| t.seq > seq));
            if screen.results > results && next {
                return;
            }
        }
    })
    .await;
    let log = store.actions(table).await.unwrap();
    assert!(
        dealt_on.is_ok(),
        "the deal's result was posted ({} of {}) and the next dealt, within 30 s; {} actions",
        screen.results - results,
        1,
        log.len()
    );
    assert_eq!(screen.results, results + 1);
}
