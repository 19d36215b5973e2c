//! The chaos harness on Telegram (`host/tests/support/chaos.rs` has the run and its checks).
//! Several `stikis-telegram` processes sit behind one load balancer (the fake Bot API server
//! posts each update to a webhook of one of them, and to another while one is down or does not
//! answer, as Telegram retries a webhook) on one database, with many tables of people and
//! computer players, while processes are killed and started again and PostgreSQL is restarted
//! once; then every acknowledged press must be in the log once, every record must replay to
//! the results posted, and no message may have shown a hidden card.
//!
//! Short run, part of the tests: `cargo test --release -p stikis-telegram --test all chaos::`
//! (one process on SQLite; three processes on PostgreSQL, restarted once, with
//! STIKIS_TEST_POSTGRES_URL and STIKIS_CHAOS_PG_RESTART set, as `.ci/postgres.sh` prints them).
//! Long run, by hand: add `-- --ignored --nocapture` and set STIKIS_CHAOS_SECS (default
//! 300), STIKIS_CHAOS_TABLES (40), STIKIS_CHAOS_PROCS (4), STIKIS_CHAOS_SEED (random),
//! STIKIS_CHAOS_KILLS (0 for none: a throughput run), and STIKIS_CHAOS_PG_RESTART, a shell
//! command that restarts PostgreSQL (`.ci/postgres.sh` prints one); or, for a database outage
//! instead of the restart, STIKIS_CHAOS_OUTAGE_SECS with the shell commands
//! STIKIS_CHAOS_PG_STOP and STIKIS_CHAOS_PG_START.

use crate::fake;
#[path = "../../host/tests/support/chaos.rs"]
mod support;

use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake::{lobby_button, move_button, Fake, Pressed};

/// The group and person of command `n` given during an outage (`Bot::command_in_outage`):
/// apart from every table's.
fn outage_chat(n: i64) -> (i64, i64) {
    (-2_000_000 - n, 20_000_000 + n)
}
use stikis_host::store::Platform;
use stikis_host::token::Token;
use support::{free_ports, Delivery, Press, Seen, Table};

const TOKEN: &str = "1:CHAOS";
const SECRET: &str = "chaos";

/// The fake Bot API server, balancing its webhook posts over the processes' ports.
#[derive(Clone)]
struct Telegram {
    fake: Fake,
    ports: Arc<Vec<u16>>,
    peer_ports: Arc<Vec<u16>>,
    /// The database's URL, once the first process is started (for `route_to_owners`).
    db_url: Arc<Mutex<Option<String>>>,
}

impl Telegram {
    async fn start(procs: usize) -> Telegram {
        let fake = Fake::start().await;
        // Each process's own port, and its port for the other processes (`--peer-listen`).
        let mut ports = free_ports(2 * procs);
        let peer_ports = ports.split_off(procs);
        {
            let mut s = fake.state.lock().unwrap();
            let backends = ports.iter().map(|&p| ([127, 0, 0, 1], p).into()).collect();
            s.balanced = Some((backends, "/hook".into(), Some(SECRET.into())));
        }
        let t = Telegram {
            fake,
            ports: Arc::new(ports),
            peer_ports: Arc::new(peer_ports),
            db_url: Arc::default(),
        };
        if std::env::var("STIKIS_CHAOS_ROUTE").as_deref() == Ok("owner") {
            t.route_to_owners();
        }
        t
    }

    /// For a benchmark of what handing presses over costs (STIKIS_CHAOS_ROUTE=owner, on
    /// PostgreSQL): a balancer that posts each press to its table's owner, as no balancer
    /// in front of Telegram can (it would have to read each update's body and know the live
    /// processes), so that no press is handed over while the live set stays the same.
    fn route_to_owners(&self) {
        // Process id -> its index among the ports, read from the heartbeats every 200 ms.
        let owners: Arc<Mutex<Vec<(String, usize)>>> = Arc::default();
        let (db_url, peer_ports, known) = (
            Arc::clone(&self.db_url),
            Arc::clone(&self.peer_ports),
            Arc::clone(&owners),
        );
        tokio::spawn(async move {
            use sqlx::Connection;
            let mut conn = None;
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                let Some(url) = db_url.lock().unwrap().clone() else {
                    continue;
                };
                if conn.is_none() {
                    conn = sqlx::PgConnection::connect(&url).await.ok();
                }
                let Some(c) = conn.as_mut() else { continue };
                let sql = "SELECT id, peer FROM processes p WHERE beat_ms > started_ms AND EXISTS \
                           (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = p.id)";
                match sqlx::query_as::<_, (String, Option<String>)>(sql)
                    .fetch_all(&mut *c)
                    .await
                {
                    Ok(rows) => {
                        let live: Vec<(String, usize)> = rows
                            .into_iter()
                            .filter_map(|(id, peer)| {
                                let addr = peer?.split(' ').next()?.to_string();
                                let at = peer_ports.iter().position(|p| addr.ends_with(&format!(":{p}")))?;
                                Some((id, at))
                            })
                            .collect();
                        let mut k = known.lock().unwrap();
                        if k.len() != live.len() {
                            println!("chaos: routing to the owners among {} processes", live.len());
                        }
                        *k = live;
                    }
                    Err(_) => conn = None,
                }
            }
        });
        let route: fake::Route = Arc::new(move |update: &serde_json::Value| {
            let data = update["callback_query"]["data"].as_str()?;
            let table = Token::decode(data).ok()?.table;
            let owners = owners.lock().unwrap();
            let ids: Vec<String> = owners.iter().map(|(id, _)| id.clone()).collect();
            let owner = stikis_host::owner::owner_among(table, &ids)?;
            owners.iter().find(|(id, _)| id == owner).map(|&(_, at)| at)
        });
        self.fake.state.lock().unwrap().route = Some(route);
    }
}

async fn wait_answer(fake: &Fake, id: &str, limit: Duration) -> Option<String> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Some(a) = fake.state.lock().unwrap().answered.get(id) {
            return Some(a.clone());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

impl support::Bot for Telegram {
    const PLATFORM: Platform = Platform::Telegram;

    fn command(&self, i: usize, db_url: &str) -> Command {
        let port = self.ports[i];
        self.db_url
            .lock()
            .unwrap()
            .get_or_insert_with(|| db_url.to_string());
        let mut c = Command::new(env!("CARGO_BIN_EXE_stikis-telegram"));
        c.args(["--token", TOKEN, "--database-url", db_url])
            .args(["--api-url", self.fake.url.as_str()])
            .args(["--webhook-url", &format!("http://127.0.0.1:{port}/hook")])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(["--webhook-secret", SECRET])
            .args(["--peer-listen", &format!("127.0.0.1:{}", self.peer_ports[i])])
            .args(["--edit-interval-ms", "100", "--hand-delay-ms", "0"])
            .args(["--computer-think-ms", "5"]);
        c
    }

    fn dm_chat(user: &str) -> String {
        user.to_string()
    }

    async fn open_table(&self, n: i64, humans: i64) -> Table {
        let fake = &self.fake;
        let group = -1_000_000 - n;
        let users: Vec<i64> = (0..humans).map(|i| 10_000 + n * 10 + i).collect();
        fake.say(group, users[0], "/zole", None);
        let (msg, join) = fake.until("the lobby", |f| lobby_button(f, group, "join")).await;
        for &u in &users[1..] {
            let id = fake.press(group, msg, u, &join);
            wait_answer(fake, &id, Duration::from_secs(30))
                .await
                .expect("join answered");
        }
        if humans < 3 {
            fake.say(group, users[0], &format!("/bots {}", 3 - humans), None);
            let t0 = Instant::now();
            while !fake
                .messages(group)
                .iter()
                .any(|m| m.text.matches("Computer").count() >= (3 - humans) as usize)
            {
                assert!(
                    t0.elapsed() < Duration::from_secs(20),
                    "{:#?}",
                    fake.messages(group)
                );
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        let (msg, go) = lobby_button(fake, group, "start").unwrap();
        let id = fake.press(group, msg, users[0], &go);
        wait_answer(fake, &id, Duration::from_secs(30))
            .await
            .expect("start answered");
        Table {
            group: group.to_string(),
            users: users.iter().map(i64::to_string).collect(),
        }
    }

    async fn command_in_outage(&self, n: i64, wait: Duration) -> Option<Option<i64>> {
        let (group, user) = outage_chat(n);
        let t0 = Instant::now();
        self.fake.say(group, user, "/zole", None);
        while t0.elapsed() < wait {
            if !self.fake.messages(group).is_empty() {
                return Some(Some(t0.elapsed().as_millis() as i64));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Some(None)
    }

    fn table_in(&self, n: i64) -> bool {
        lobby_button(&self.fake, outage_chat(n).0, "join").is_some()
    }

    async fn play(self, table: Arc<Table>, playing: Arc<AtomicBool>, log: Arc<Mutex<Vec<Press>>>) {
        let fake = self.fake;
        let users: Vec<i64> = table.users.iter().map(|u| u.parse().unwrap()).collect();
        let mut pressed = Pressed::new();
        while playing.load(Ordering::Relaxed) {
            let next = users
                .iter()
                .find_map(|&u| move_button(&fake, u, &pressed).map(|b| (u, b)));
            let Some((u, (msg, data))) = next else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            let seen = {
                let s = fake.state.lock().unwrap();
                let m = s.chats[&u].iter().find(|m| m.id == msg).unwrap();
                (m.text.clone(), m.buttons.clone())
            };
            pressed.insert((u, msg), seen);
            let id = fake.press(u, msg, u, &data);
            let at = support::log_press(
                &log,
                Press::now(id.clone(), u.to_string(), Token::decode(&data).unwrap()),
            );
            // A person waits a few seconds for the ✓, not for ever: a press taken by a
            // process that was killed before it answered is never answered (the webhook post
            // was acknowledged, so it is not posted again).
            let answer = wait_answer(&fake, &id, Duration::from_secs(8)).await;
            if answer.is_some() {
                support::answered(&log, at);
            }
            if !answer.is_some_and(|a| a.starts_with('✓')) {
                // Refused (out of date, try again) or not answered: look again, press again.
                pressed.remove(&(u, msg));
                tokio::time::sleep(Duration::from_millis(100)).await;
            } else {
                support::think().await;
            }
        }
    }

    fn deliveries(&self) -> HashMap<String, Delivery> {
        let s = self.fake.state.lock().unwrap();
        s.received
            .iter()
            .map(|(id, &(process, posted_ms))| {
                let d = Delivery {
                    process,
                    posted_ms,
                    followed_up_ms: None,
                    refused_later: false,
                    unsure_later: false,
                };
                (id.clone(), d)
            })
            .collect()
    }

    fn calls(&self) -> Vec<(String, usize)> {
        let s = self.fake.state.lock().unwrap();
        let mut calls: Vec<(String, usize)> = s.counts.clone().into_iter().collect();
        calls.sort();
        // The texts shown (sent or edited), in groups and in private chats.
        let in_groups = s.history.iter().filter(|(chat, ..)| *chat < 0).count();
        calls.push(("(texts shown in groups)".into(), in_groups));
        calls.push(("(in private chats)".into(), s.history.len() - in_groups));
        calls
    }

    fn seen(&self) -> Seen {
        let s = self.fake.state.lock().unwrap();
        // Of what Telegram refuses whatever the chat, only a second answer to a press may
        // come: a process killed after answering it by a call, before its post was
        // acknowledged, has the press posted again to another.
        let refused: Vec<&(String, String, serde_json::Value)> = s
            .refused
            .iter()
            .filter(|(_, d, _)| d != fake::QUERY_TOO_OLD)
            .collect();
        assert!(refused.is_empty(), "Telegram would have refused {refused:#?}");
        let mut answers: HashMap<String, Vec<String>> = HashMap::new();
        for (id, text) in &s.answer_log {
            answers.entry(id.clone()).or_default().push(text.clone());
        }
        Seen {
            answers,
            history: s
                .history
                .iter()
                .map(|(c, m, text, at)| (c.to_string(), m.to_string(), text.clone(), *at))
                .collect(),
            redelivered: s.redelivered,
        }
    }
}

/// The fake Bot API server for `procs` processes.
fn telegram(procs: usize) -> std::pin::Pin<Box<dyn std::future::Future<Output = Telegram>>> {
    Box::pin(Telegram::start(procs))
}

/// The short run: one process on SQLite, killed and started again.
#[test]
fn chaos_short_one_process_on_sqlite() {
    support::short_on_sqlite(telegram);
}

/// The short run: three processes on PostgreSQL (skipped without STIKIS_TEST_POSTGRES_URL),
/// PostgreSQL restarted once when STIKIS_CHAOS_PG_RESTART says how.
#[test]
fn chaos_short_three_processes_on_postgres() {
    // The harness skips without the server: under STIKIS_REQUIRE_POSTGRES that fails here.
    if fake::postgres_url("the PostgreSQL chaos run").is_none() {
        return;
    }
    support::short_on_postgres(telegram);
}

/// The long run, by hand (see the head of this file).
#[test]
#[ignore]
fn chaos_long() {
    support::long(telegram);
}
