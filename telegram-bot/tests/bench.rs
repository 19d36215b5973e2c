//! Throughput benchmark against the fake Bot API server (ignored by default; run with
//! `cargo test --release -p stikis-telegram --test all bench:: -- --ignored --nocapture`):
//! 200 group tables play one Zole deal each at the same time; reports updates handled per
//! second and Bot API calls per card played (in all, per method, and without the compulsory
//! answerCallbackQuery), with three people per table and with one person and two computer
//! players per table, in long-polling and in webhook mode (where a press's answer goes back
//! in the reply to its post and is no call of the bot's). People press only what they have
//! not pressed already, as a person knows their own move.

use crate::fake;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake::{lobby_button, move_button, Fake, Pressed};
use stikis_core::Seed;
use stikis_host::HostConfig;
use stikis_telegram::{start, Settings};

const TABLES: i64 = 200;

fn dealt(fake: &Fake, chat: i64) -> bool {
    let s = fake.state.lock().unwrap();
    s.chats
        .get(&chat)
        .is_some_and(|c| c.iter().any(|m| m.text.starts_with("Result of deal")))
}

async fn wait(fake: &Fake, id: &str) {
    while !fake.is_answered(id) {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// One table: opens, seats `humans` people (the rest computer players), plays one deal.
/// Returns (updates sent, cards played by people, presses refused).
async fn table(fake: Fake, n: i64, humans: i64) -> (usize, usize, usize) {
    let group = -10_000 - n;
    let users: Vec<i64> = (0..humans).map(|i| 1_000 + n * 10 + i).collect();
    fake.say(group, users[0], "/zole", None);
    let mut updates = 1;
    let (msg, join) = loop {
        if let Some(b) = lobby_button(&fake, group, "join") {
            break b;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    for &u in &users[1..] {
        let id = fake.press(group, msg, u, &join);
        wait(&fake, &id).await;
        updates += 1;
    }
    if humans < 3 {
        fake.say(group, users[0], &format!("/bots {}", 3 - humans), None);
        updates += 1;
        // The lobby names its computer player of the last seat, in the group's language
        // (whichever it is: the bench once waited for the Latvian name in an English group).
        let computer: Vec<String> = stikis_host::i18n::Lang::ALL
            .into_iter()
            .map(|l| stikis_host::games::computer_name(l, 2))
            .collect();
        while !fake.state.lock().unwrap().chats[&group]
            .iter()
            .any(|m| computer.iter().any(|c| m.text.contains(c.as_str())))
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let (msg, go) = lobby_button(&fake, group, "start").unwrap();
    let id = fake.press(group, msg, users[0], &go);
    wait(&fake, &id).await;
    updates += 1;
    let mut cards = 0;
    let mut refused = 0;
    let mut pressed = Pressed::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !dealt(&fake, group) {
        assert!(Instant::now() < deadline, "table {n} is stuck");
        let Some((u, (msg, data))) = users
            .iter()
            .find_map(|&u| move_button(&fake, u, &pressed).map(|b| (u, b)))
        else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let seen = {
            let s = fake.state.lock().unwrap();
            let m = s.chats[&u].iter().find(|m| m.id == msg).unwrap();
            (m.text.clone(), m.buttons.clone())
        };
        pressed.insert((u, msg), seen);
        let id = fake.press(u, msg, u, &data);
        wait(&fake, &id).await;
        updates += 1;
        let played = fake.state.lock().unwrap().answered[&id].starts_with("✓");
        if !played {
            refused += 1;
        } else if data.contains(".p:") {
            cards += 1;
        }
    }
    (updates, cards, refused)
}

async fn run(humans: i64, webhook: bool) {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    fake.state.lock().unwrap().quiet = true;
    let mut s = Settings::new("1:BENCH", dir.path().join("bench.db").to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    if webhook {
        s.mode = fake::webhook_mode(None).0;
    }
    s.host = HostConfig {
        bot_budget_ms: 5,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    let running = start(s).await.unwrap();
    let before: usize = fake
        .state
        .lock()
        .unwrap()
        .counts
        .iter()
        .filter(|(m, _)| *m != "getUpdates")
        .map(|(_, n)| n)
        .sum();
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..TABLES)
        .map(|n| tokio::spawn(table(fake.clone(), n, humans)))
        .collect();
    let mut updates = 0;
    let mut cards = 0;
    let mut refused = 0;
    for t in tasks {
        let (u, c, r) = t.await.unwrap();
        updates += u;
        cards += c;
        refused += r;
    }
    let elapsed = t0.elapsed();
    // Coalesced public edits still due go out within one interval.
    tokio::time::sleep(Duration::from_secs(4)).await;
    running.shutdown().await;
    fake.assert_nothing_refused();
    // Methods run from webhook replies are no calls of the bot's.
    let (mut counts, in_reply) = {
        let s = fake.state.lock().unwrap();
        (s.counts.clone(), s.in_reply.clone())
    };
    for (m, n) in &in_reply {
        *counts.get_mut(m).unwrap() -= n;
    }
    let calls: usize = counts
        .iter()
        .filter(|(m, _)| *m != "getUpdates")
        .map(|(_, n)| n)
        .sum::<usize>()
        - before;
    let answers = counts.get("answerCallbackQuery").copied().unwrap_or(0);
    let replied = in_reply.get("answerCallbackQuery").copied().unwrap_or(0);
    // Every deal is played out (a person takes the talon when offered): 24 cards per table.
    let all_cards = TABLES as usize * 24;
    let per = |n: usize| n as f64 / all_cards as f64;
    let mut methods: Vec<_> = counts
        .iter()
        .filter(|(m, _)| {
            !matches!(
                m.as_str(),
                "getUpdates" | "getMe" | "setMyCommands" | "getWebhookInfo" | "deleteWebhook"
            )
        })
        .collect();
    methods.sort();
    let breakdown: Vec<String> = methods
        .iter()
        .map(|(m, n)| format!("{m} {n} ({:.2})", per(**n)))
        .collect();
    println!(
        "{}: {humans} people per table, {TABLES} tables: {updates} updates in {:.2} s = {:.0} \
         updates/s ({refused} presses refused); {calls} Bot API calls for {all_cards} cards \
         ({cards} by people) = {:.2} calls per card, {:.2} without answerCallbackQuery ({:.2} and \
         {:.2} per person's card); per method (per card): {}; answers in webhook replies: \
         {replied} ({:.2})",
        if webhook { "webhook" } else { "long polling" },
        elapsed.as_secs_f64(),
        updates as f64 / elapsed.as_secs_f64(),
        per(calls),
        per(calls - answers),
        calls as f64 / cards.max(1) as f64,
        (calls - answers) as f64 / cards.max(1) as f64,
        breakdown.join(", "),
        per(replied),
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn bench_200_tables_three_people() {
    run(3, false).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn bench_200_tables_one_person_two_computers() {
    run(1, false).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn bench_200_tables_three_people_webhook() {
    run(3, true).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn bench_200_tables_one_person_two_computers_webhook() {
    run(1, true).await;
}
