//! What the chat shows is durable and never looks live when it is not: a `kill -9` right
//! after a deal's last card (its last table edit still waiting for the group's slot) leaves
//! that deal's table message mid-trick only until the bot is started again; a finished deal's
//! table message keeps no number buttons for a player without a private chat, and a press on
//! an old number is out of date, never played into the next deal; a table stopped mid-deal
//! keeps no button and says nobody's turn, and presses on its old buttons are out of date.

use crate::fake;

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fake::{Fake, Msg, Pressed};
use stikis_core::Seed;
use stikis_host::token::Token;
use stikis_host::HostConfig;
use stikis_telegram::{start, Settings};

const BIN: &str = env!("CARGO_BIN_EXE_stikis-telegram");
const GROUP: i64 = -2_001;
const ANNA: i64 = 21;
const BRUNO: i64 = 22;
const CILDA: i64 = 23;
const STALE: &str = "That button is out of date; use the newest message.";

/// The bot as a process of its own on `db`, long polling the fake, with `edit_ms` between
/// two edits of the group's messages.
fn spawn(fake: &Fake, db: &str, edit_ms: u64) -> Child {
    Command::new(BIN)
        .args(["--token", "123:KILL", "--api-url", fake.url.as_str()])
        .args(["--database-url", db])
        .args(["--edit-interval-ms", &edit_ms.to_string()])
        .args(["--hand-delay-ms", "0", "--computer-think-ms", "5"])
        .env_remove("TELEGRAM_WEBHOOK_URL")
        .env_remove("STIKIS_METRICS_LISTEN")
        .env_remove("STIKIS_WEB_LISTEN")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap()
}

/// Whether a button is one a press acts on (not a link).
fn pressable(b: &(String, String)) -> bool {
    !b.1.starts_with("http")
}

/// Whether a message has a button that looks live: any button to press.
fn live(m: &Msg) -> bool {
    m.buttons.iter().flatten().any(pressable)
}

fn has_hand_button(m: &Msg) -> bool {
    m.buttons.iter().flatten().any(|(l, _)| l == "🂠")
}

fn said_result(fake: &Fake, deal: usize) -> bool {
    let needle = format!("Result of deal {deal}");
    fake.messages(GROUP).iter().any(|m| m.text.contains(&needle))
}

/// Anna and two computer players; the group's edits are paced at 10 minutes, so that after
/// the table message is first edited every later edit of it waits. Right after the deal's
/// last card (its result is posted) the process is killed with SIGKILL: the deal's table
/// message still shows a trick in progress, whose turn it is and 🂠. Started again, the bot
/// shows that message's last state (no buttons, nobody's turn), and no message but the next
/// deal's table message and Anna's newest hand has a live-looking button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_kill_right_after_a_deals_last_card_its_final_table_message_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kill.db");
    let db = db.to_str().unwrap();
    let fake = Fake::start().await;
    let mut bot = spawn(&fake, db, 600_000);
    fake.say(GROUP, ANNA, "/zole", None);
    fake.until("the lobby", |f| fake::lobby_button(f, GROUP, "start"))
        .await;
    fake.say(GROUP, ANNA, "/bots 2", None);
    fake.until("two computer players", |f| {
        f.messages(GROUP)
            .iter()
            .any(|m| m.text.matches("Computer").count() >= 2)
            .then_some(())
    })
    .await;
    let (msg, go) = fake::lobby_button(&fake, GROUP, "start").unwrap();
    let id = fake.press(GROUP, msg, ANNA, &go);
    fake.answered(&id).await;
    let table_msg = fake
        .until("deal 1's table message", |f| {
            f.messages(GROUP).into_iter().find(has_hand_button).map(|m| m.id)
        })
        .await;
    let mut pressed = Pressed::new();
    let mut presses = 0;
    while !said_result(&fake, 1) {
        assert!(presses < 100, "deal 1 did not end");
        let next = fake
            .until("Anna to act, or the result", |f| {
                if said_result(f, 1) {
                    return Some(None);
                }
                fake::move_button(f, ANNA, &pressed).map(Some)
            })
            .await;
        let Some((m, data)) = next else { break };
        let before = fake.messages(ANNA).into_iter().find(|x| x.id == m).unwrap();
        pressed.insert((ANNA, m), (before.text, before.buttons));
        let id = fake.press(ANNA, m, ANNA, &data);
        fake.answered(&id).await;
        presses += 1;
    }
    // Deal 2's hand is out (a kill between sending a new message and keeping its id sends
    // it again after the restart: a known gap, not this test's), deal 1's last edit waits.
    fake.until("deal 2's hand", |f| {
        f.messages(ANNA)
            .last()
            .filter(|m| live(m) && f.messages(ANNA).len() >= 2)
            .map(|_| ())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    bot.kill().unwrap();
    bot.wait().unwrap();
    let stale = fake
        .messages(GROUP)
        .into_iter()
        .find(|m| m.id == table_msg)
        .unwrap();
    // Its last edit died with the process: what the test is about.
    assert!(has_hand_button(&stale), "{stale:?}");

    let mut bot = spawn(&fake, db, 100);
    let shown = fake
        .until("deal 1's table message in its last state", |f| {
            let m = f.messages(GROUP).into_iter().find(|m| m.id == table_msg)?;
            (!live(&m)).then_some(m)
        })
        .await;
    assert!(!shown.text.contains("Turn:"), "{shown:?}");
    assert!(shown.text.contains("deal 1"), "{shown:?}");
    // Deal 2 is on, and only its table message and Anna's newest hand can be pressed.
    let deal2 = fake
        .until("deal 2's table message", |f| {
            f.messages(GROUP)
                .into_iter()
                .rev()
                .find(|m| has_hand_button(m) && m.text.contains("deal 2"))
        })
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for m in fake.messages(GROUP) {
        assert!(m.id == deal2.id || !live(&m), "{m:?}");
    }
    let hands = fake.messages(ANNA);
    for m in &hands[..hands.len() - 1] {
        assert!(!live(m), "{m:?}");
    }
    bot.kill().unwrap();
    bot.wait().unwrap();
    fake.assert_nothing_refused();
}

fn settings(fake: &Fake, db: &std::path::Path) -> Settings {
    let mut s = Settings::new("123:TEST", db.to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    s.edit_interval = Duration::ZERO;
    s.hand_delay = Duration::ZERO;
    s.host = HostConfig {
        bot_budget_ms: 10,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    s
}

/// The group's number buttons under message `msg`, if it has any.
fn numbers(m: &Msg) -> Vec<(String, String)> {
    m.buttons
        .iter()
        .flatten()
        .filter(|(_, d)| stikis_telegram::show::parse_choice(d).is_some())
        .cloned()
        .collect()
}

/// Cilda's popup (🂠 under the newest table message): the numbered choices it lists on her
/// turn, none otherwise.
async fn legend(fake: &Fake) -> Vec<String> {
    let (msg, hand) = fake
        .messages(GROUP)
        .into_iter()
        .rev()
        .find_map(|m| {
            m.buttons
                .iter()
                .flatten()
                .find(|(l, d)| l == "🂠" && Token::decode(d).is_ok())
                .map(|(_, d)| (m.id, d.clone()))
        })
        .unwrap();
    let id = fake.press(GROUP, msg, CILDA, &hand);
    let answer = fake.answered(&id).await;
    answer["text"]
        .as_str()
        .unwrap_or_default()
        .lines()
        .filter(|l| l.split_once(' ').is_some_and(|(n, _)| n.parse::<usize>().is_ok()))
        .map(str::to_string)
        .collect()
}

/// One move: Cilda's pass or first number on her turn (she has no private chat), else Anna's or
/// Bruno's first move button (kept in `last`: who, on which message, which button). False
/// when nobody may act.
async fn one_move(fake: &Fake, pressed: &mut Pressed, last: &mut Option<(i64, i64, String)>) -> bool {
    let choices = legend(fake).await;
    if !choices.is_empty() {
        // She passes where she may: she is never the one to bury.
        let n = choices.iter().position(|l| l.contains("Pass")).unwrap_or(0);
        let (msg, data) = fake
            .messages(GROUP)
            .into_iter()
            .rev()
            .find_map(|m| numbers(&m).get(n).map(|(_, d)| (m.id, d.clone())))
            .expect("Cilda's numbers");
        let id = fake.press(GROUP, msg, CILDA, &data);
        fake.answered(&id).await;
        return true;
    }
    for u in [ANNA, BRUNO] {
        if let Some((m, data)) = fake::move_button(fake, u, pressed) {
            let before = fake.messages(u).into_iter().find(|x| x.id == m).unwrap();
            pressed.insert((u, m), (before.text, before.buttons));
            let id = fake.press(u, m, u, &data);
            fake.answered(&id).await;
            *last = Some((u, m, data));
            return true;
        }
    }
    false
}

/// Cilda has no private chat: the table message carries her number buttons. Deal 1 is
/// played out; its table message ends with no button at all (no numbers), and a number of
/// deal 1 pressed on Cilda's turn in deal 2 is out of date (before, it was played there).
/// Then Anna stops the table in the middle of deal 2: its table message says so and whose
/// turn it no longer is, and no message has a button any more; presses on the old hand
/// buttons and numbers are out of date.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_numbers_and_a_stopped_tables_buttons_are_out_of_date_and_shown_so() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    fake.state.lock().unwrap().forbidden.insert(CILDA);
    let running = start(settings(&fake, &dir.path().join("n.db"))).await.unwrap();
    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, "/zole", None);
    let (msg, join) = fake
        .until("the lobby", |f| fake::lobby_button(f, GROUP, "join"))
        .await;
    for u in [BRUNO, CILDA] {
        let id = fake.press(GROUP, msg, u, &join);
        fake.answered(&id).await;
    }
    fake.until("both seated", |f| {
        let lobby = f.messages(GROUP).into_iter().find(|m| m.id == msg)?;
        (lobby.text.contains("U22") && lobby.text.contains("U23")).then_some(())
    })
    .await;
    let (msg, go) = fake::lobby_button(&fake, GROUP, "start").unwrap();
    let id = fake.press(GROUP, msg, ANNA, &go);
    fake.answered(&id).await;
    let deal1 = fake
        .until("deal 1's numbers", |f| {
            f.messages(GROUP)
                .into_iter()
                .find(|m| !numbers(m).is_empty())
                .map(|m| (m.id, numbers(&m)[0].1.clone()))
        })
        .await;
    let mut pressed = Pressed::new();
    let mut last = None;
    let mut moves = 0;
    while !said_result(&fake, 1) {
        assert!(moves < 300, "deal 1 did not end");
        if !one_move(&fake, &mut pressed, &mut last).await {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        moves += 1;
    }
    let ended = fake
        .until("deal 1's table message without buttons", |f| {
            let m = f.messages(GROUP).into_iter().find(|m| m.id == deal1.0)?;
            (!live(&m)).then_some(m)
        })
        .await;
    assert!(numbers(&ended).is_empty(), "{ended:?}");
    // Deal 2, until it is Cilda's turn: her old number of deal 1 is out of date then.
    let mut tries = 0;
    while legend(&fake).await.is_empty() {
        assert!(tries < 100, "Cilda's turn never came");
        if !one_move(&fake, &mut pressed, &mut last).await {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tries += 1;
    }
    let before = fake.calls().len();
    let id = fake.press(GROUP, deal1.0, CILDA, &deal1.1);
    assert_eq!(fake.answered(&id).await["text"], STALE);
    assert!(
        !legend(&fake).await.is_empty(),
        "the old number played nothing: still her turn ({:?})",
        &fake.calls()[before..]
    );

    // Anna stops the table mid-deal.
    let deal2 = fake
        .messages(GROUP)
        .into_iter()
        .rev()
        .find(|m| has_hand_button(m) && m.text.contains("deal 2"))
        .unwrap();
    fake.say(GROUP, ANNA, "/stop", None);
    let stopped = fake
        .until("deal 2's table message stopped", |f| {
            let m = f.messages(GROUP).into_iter().find(|m| m.id == deal2.id)?;
            (!live(&m)).then_some(m)
        })
        .await;
    assert!(!stopped.text.contains("Turn:"), "{stopped:?}");
    assert!(stopped.text.contains("stopped the game"), "{stopped:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    // No table message and no hand has a button; only the notice of Cilda's closed chat
    // keeps its 🂠 and 💬, and its 🂠 is out of date too.
    for m in fake.messages(GROUP) {
        let notice = m.buttons.iter().flatten().any(|(l, _)| l == "💬");
        assert!(notice || !live(&m), "{m:?}");
    }
    for u in [ANNA, BRUNO] {
        for m in fake.messages(u) {
            assert!(!live(&m) && !m.text.contains("Your turn"), "U{u}: {m:?}");
        }
    }
    // The last hand button pressed in deal 2, pressed again.
    let (u, m, data) = last.expect("Anna or Bruno moved in deal 2");
    let id = fake.press(u, m, u, &data);
    assert_eq!(fake.answered(&id).await["text"], STALE, "U{u}");
    let (old, hand) = deal2
        .buttons
        .iter()
        .flatten()
        .find(|(l, _)| l == "🂠")
        .map(|(_, d)| (deal2.id, d.clone()))
        .unwrap();
    let id = fake.press(GROUP, old, CILDA, &hand);
    assert_eq!(fake.answered(&id).await["text"], STALE);
    let number = numbers(&deal2).first().cloned().expect("deal 2 had numbers");
    let id = fake.press(GROUP, deal2.id, CILDA, &number.1);
    assert_eq!(fake.answered(&id).await["text"], STALE);
    running.shutdown().await;
    fake.assert_nothing_refused();
}
