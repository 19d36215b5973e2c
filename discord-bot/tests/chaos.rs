//! The chaos harness on Discord (`host/tests/support/chaos.rs` has the run and its checks).
//! Several `stikis-discord` processes take interactions on their interactions endpoints
//! behind one load balancer (the fake Discord posts each interaction to one of them, and to
//! another while nothing listens there; one that a process took and died on is never
//! answered, and the person presses again), on one database, with many tables of people and
//! computer players, while processes are killed and started again and PostgreSQL is
//! restarted once; then every acknowledged press must be in the log once, every record must
//! replay to the results posted, and no message may have shown a hidden card. A press the bot
//! deferred is checked on its own: the fake tells which process took it, when, and whether a
//! follow-up came (and refused it).
//!
//! Short run, part of the tests: `cargo test --release -p stikis-discord --test all chaos::` (one
//! process on SQLite; three on PostgreSQL with STIKIS_TEST_POSTGRES_URL and
//! STIKIS_CHAOS_PG_RESTART set, as `.ci/postgres.sh` prints them; without the URL the run on
//! PostgreSQL is skipped, or fails if STIKIS_REQUIRE_POSTGRES is set). Long run, by hand: add
//! `-- --ignored --nocapture` and the STIKIS_CHAOS_* settings of the Telegram harness.

use crate::fake;
#[path = "../../host/tests/support/chaos.rs"]
mod support;

use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake::{public_key_hex, Fake, Person, DM_OFFSET};
use serde_json::json;
use stikis_host::store::Platform;
use stikis_host::token::Token;
use support::{free_ports, Delivery, Press, Seen, Table};

/// The fake Discord, balancing its interaction posts over the processes' endpoints.
#[derive(Clone)]
struct Discord {
    fake: Fake,
    ports: Arc<Vec<u16>>,
    peer_ports: Arc<Vec<u16>>,
}

impl Discord {
    async fn start(procs: usize) -> Discord {
        let fake = Fake::start().await;
        // Each process's own port, and its port for the other processes (`--peer-listen`).
        let mut ports = free_ports(2 * procs);
        let peer_ports = ports.split_off(procs);
        fake.use_endpoints(
            ports
                .iter()
                .map(|p| format!("http://127.0.0.1:{p}/interactions"))
                .collect(),
        );
        Discord {
            fake,
            ports: Arc::new(ports),
            peer_ports: Arc::new(peer_ports),
        }
    }

    /// The first answer to interaction `iid` within `limit`: "✓" for a move taken (unless a
    /// deferred answer refused it afterwards), else what the person was told.
    async fn answer(&self, iid: u64, limit: Duration) -> Option<String> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            let said = self
                .fake
                .state
                .answer_log
                .lock()
                .unwrap()
                .iter()
                .find(|(i, _)| *i == iid)
                .map(|(_, t)| t.clone());
            if let Some(t) = said {
                return Some(t);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        None
    }

    /// Presses the button labelled `label` of the newest public message of `channel` that
    /// has one, as `who`, until it is answered.
    async fn press_label(&self, who: &Person, channel: u64, label: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(
                Instant::now() < deadline,
                "{label} in channel {channel} was never answered"
            );
            let found = self.fake.channel(channel).into_iter().rev().find_map(|m| {
                let b = m.buttons.iter().find(|(l, _)| l == label)?;
                m.ephemeral_for.is_none().then(|| (m.id, b.1.clone()))
            });
            let Some((msg, id)) = found else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            let iid = self.fake.press_nowait(who, msg, &id);
            if let Some(t) = self.answer(iid, Duration::from_secs(10)).await {
                return t;
            }
        }
    }
}

/// How a message looked when its owner pressed it (per person and message): text, buttons.
type Looked = (String, Vec<(String, String)>);

/// How long a person waits for a press's answer: Discord takes none after 3 s
/// (`fake::RESPONSE_WINDOW_MS`) and says "This interaction failed".
const ANSWER_WAIT: Duration = Duration::from_millis(3_500);

/// How long a person waits for a pressed hand to change before pressing again.
const REPRESS: Duration = Duration::from_secs(10);

fn person(id: u64) -> Person {
    Person::new(id, &format!("U{id}"))
}

impl support::Bot for Discord {
    const PLATFORM: Platform = Platform::Discord;

    fn command(&self, i: usize, db_url: &str) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_stikis-discord"));
        c.args(["--token", "fake-token", "--database-url", db_url])
            .args(["--api-url", &self.fake.url])
            .args(["--interactions-listen", &format!("127.0.0.1:{}", self.ports[i])])
            .args(["--public-key", &public_key_hex()])
            .args(["--peer-listen", &format!("127.0.0.1:{}", self.peer_ports[i])]);
        c
    }

    fn dm_chat(user: &str) -> String {
        (user.parse::<u64>().unwrap() + DM_OFFSET).to_string()
    }

    async fn open_table(&self, n: i64, humans: i64) -> Table {
        let channel = 700 + n as u64;
        let people: Vec<Person> = (0..humans as u64)
            .map(|i| person(20_000 + n as u64 * 10 + i))
            .collect();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(
                Instant::now() < deadline,
                "/zole in channel {channel} was never answered"
            );
            let iid = self.fake.slash_nowait(&people[0], channel, "zole", json!([]));
            if self.answer(iid, Duration::from_secs(10)).await.is_some() {
                break;
            }
        }
        for p in &people[1..] {
            self.press_label(p, channel, "Join").await;
        }
        for _ in humans..3 {
            self.press_label(&people[0], channel, "Add computer player").await;
        }
        self.press_label(&people[0], channel, "Start").await;
        Table {
            group: channel.to_string(),
            users: people.iter().map(|p| p.id.to_string()).collect(),
        }
    }

    async fn play(self, table: Arc<Table>, playing: Arc<AtomicBool>, log: Arc<Mutex<Vec<Press>>>) {
        let people: Vec<Person> = table.users.iter().map(|u| person(u.parse().unwrap())).collect();
        let mut pressed: HashMap<(u64, u64), (Looked, Instant)> = HashMap::new();
        while playing.load(Ordering::Relaxed) {
            let next = people.iter().find_map(|p| {
                // Their hand: the newest message that is one (a note the bot posted after it,
                // such as a move's outcome settled late, is read and left).
                let m = self
                    .fake
                    .dms(p.id)
                    .into_iter()
                    .rev()
                    .find(|m| !m.buttons.is_empty() || m.text.starts_with("Your cards"))?;
                // A pressed hand that still looks the same is left alone, for a while: a
                // press that was only deferred dies with its process, and then the person
                // presses again.
                if pressed.get(&(p.id, m.id)).is_some_and(|(looked, at)| {
                    *looked == (m.text.clone(), m.buttons.clone()) && at.elapsed() < REPRESS
                }) {
                    return None;
                }
                // Take the talon where offered (so that every deal is played out).
                let moves: Vec<&(String, String)> = m
                    .buttons
                    .iter()
                    .filter(|(l, d)| {
                        !l.starts_with('✓') && Token::decode(d).is_ok_and(|t| t.action.contains(':'))
                    })
                    .collect();
                let take = moves.iter().find(|(_, d)| d.ends_with(".b:take"));
                let (_, data) = take.or(moves.first())?;
                Some((p, m.clone(), data.clone()))
            });
            let Some((p, m, data)) = next else {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            };
            pressed.insert(
                (p.id, m.id),
                ((m.text.clone(), m.buttons.clone()), Instant::now()),
            );
            let iid = self.fake.press_nowait(p, m.id, &data);
            let at = support::log_press(
                &log,
                Press::now(iid.to_string(), p.id.to_string(), Token::decode(&data).unwrap()),
            );
            // Unanswered (the process died on it, or answered too late: Discord shows "This
            // interaction failed" once its 3 s are over) or refused (out of date, try again):
            // look again, press again.
            let answer = self.answer(iid, ANSWER_WAIT).await;
            if answer.is_some() {
                support::answered(&log, at);
            }
            if answer.as_deref() != Some("✓") {
                pressed.remove(&(p.id, m.id));
                tokio::time::sleep(Duration::from_millis(100)).await;
            } else {
                support::think().await;
            }
        }
    }

    fn seen(&self) -> Seen {
        let st = &self.fake.state;
        let refused = st.refused_later.lock().unwrap().clone();
        let mut answers: HashMap<String, Vec<String>> = HashMap::new();
        for (iid, text) in st.answer_log.lock().unwrap().iter() {
            // A deferred press acknowledged, then refused in a follow-up, was not taken.
            let text = if refused.contains(iid) && text == "✓" {
                "refused after a deferral".to_string()
            } else {
                text.clone()
            };
            answers.entry(iid.to_string()).or_default().push(text);
        }
        Seen {
            answers,
            history: st
                .history
                .lock()
                .unwrap()
                .iter()
                .map(|(c, m, text, at)| (c.to_string(), m.to_string(), text.clone(), *at))
                .collect(),
            redelivered: st.redelivered.load(Ordering::Relaxed) as usize,
        }
    }

    fn deliveries(&self) -> HashMap<String, Delivery> {
        // Called once, at the checks: no call of any process was one Discord refuses (a
        // body over its limits, a message of another channel, a follow-up by a token it
        // never gave or before the interaction's response).
        self.fake.assert_nothing_refused();
        let st = &self.fake.state;
        println!(
            "chaos: {} first responses refused for coming after Discord's 3 s (\"Unknown interaction\")",
            st.expired.load(Ordering::Relaxed)
        );
        let refused = st.refused_later.lock().unwrap().clone();
        let unsure = st.unsure_later.lock().unwrap().clone();
        let followed = st.followed_up.lock().unwrap().clone();
        st.received
            .lock()
            .unwrap()
            .iter()
            .map(|(iid, got)| {
                let d = Delivery {
                    process: got.process,
                    posted_ms: got.posted_ms,
                    followed_up_ms: followed.get(iid).copied(),
                    refused_later: refused.contains(iid),
                    unsure_later: unsure.contains(iid),
                };
                (iid.to_string(), d)
            })
            .collect()
    }
}

/// The fake Discord for `procs` processes.
fn discord(procs: usize) -> std::pin::Pin<Box<dyn std::future::Future<Output = Discord>>> {
    Box::pin(Discord::start(procs))
}

/// The short run: one process on SQLite, killed and started again.
#[test]
fn chaos_short_one_process_on_sqlite() {
    support::short_on_sqlite(discord);
}

/// The short run: three processes on PostgreSQL (skipped without STIKIS_TEST_POSTGRES_URL,
/// and failed instead when STIKIS_REQUIRE_POSTGRES is set, as CI sets it), PostgreSQL
/// restarted once when STIKIS_CHAOS_PG_RESTART says how.
#[test]
fn chaos_short_three_processes_on_postgres() {
    if !postgres_given() {
        return;
    }
    support::short_on_postgres(discord);
}

/// Whether STIKIS_TEST_POSTGRES_URL names a PostgreSQL to test on. Without it a test on
/// PostgreSQL is skipped, and says so; unless STIKIS_REQUIRE_POSTGRES is set, when it fails.
pub fn postgres_given() -> bool {
    postgres_given_in(
        std::env::var_os("STIKIS_TEST_POSTGRES_URL").is_some_and(|v| !v.is_empty()),
        std::env::var_os("STIKIS_REQUIRE_POSTGRES").is_some(),
    )
}

fn postgres_given_in(url: bool, required: bool) -> bool {
    assert!(
        url || !required,
        "STIKIS_REQUIRE_POSTGRES is set and STIKIS_TEST_POSTGRES_URL is not: the PostgreSQL tests cannot be skipped"
    );
    if !url {
        eprintln!("STIKIS_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
    }
    url
}

#[test]
fn a_required_postgres_that_is_not_given_fails() {
    assert!(postgres_given_in(true, true));
    assert!(postgres_given_in(true, false));
    assert!(!postgres_given_in(false, false));
    let refused = std::panic::catch_unwind(|| postgres_given_in(false, true));
    assert!(refused.is_err(), "a skip though PostgreSQL is required");
}

/// The long run, by hand (see the head of this file).
#[test]
#[ignore]
fn chaos_long() {
    support::long(discord);
}
