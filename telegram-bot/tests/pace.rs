//! No flood, whatever the pace (issue 60): new messages to a group stay within its post budget
//! however fast the table is played, what is owed is merged and never dropped or reordered,
//! the current table message ends on its newest state, a tournament's end comes after its
//! deciding deal's result, and a card's hand edits reach their receivers while the group is
//! rate limited. Budgets here are scaled down (a few posts in 2 s) so the tests are quick.
//! Run with `--nocapture` for the figures.

use crate::fake;

use std::sync::Arc;
use std::time::Duration;

use fake::{lobby_button as button, open_feed, page_press, Fake};
use serde_json::json;
use stikis_core::Seed;
use stikis_host::token::Token;
use stikis_host::HostConfig;
use stikis_telegram::show::PostBudget;
use stikis_telegram::{start, Settings};

const GROUP: i64 = -1_060;
const ANNA: i64 = 61;
const BRUNO: i64 = 62;
const CILDA: i64 = 63;

/// The scaled-down budget: 5 new messages in any 2 s (Telegram's 20 a minute, played 30
/// times as fast as 4 in 8 s would be; small so that 60 deals overrun it many times).
const BUDGET: PostBudget = PostBudget {
    posts: 5,
    window: Duration::from_secs(2),
};

fn settings(fake: &Fake, db: &std::path::Path) -> Settings {
    let mut s = Settings::new("123:TEST", db.to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    s.edit_interval = Duration::from_millis(300);
    s.group_posts = Some(BUDGET);
    s.host = HostConfig {
        bot_budget_ms: 10,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    s
}

/// Anna opens a Zole table (turn timer off), the others join by button, Anna starts.
async fn open_table(fake: &Fake, others: &[i64]) -> i64 {
    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, "/zole", None);
    let (msg, join) = fake.until("the lobby", |f| button(f, GROUP, "join")).await;
    let table = Token::decode(&join).unwrap().table;
    for &u in others {
        let id = fake.press(GROUP, msg, u, &join);
        fake.answered(&id).await;
    }
    let (msg, go) = fake
        .until("the start button", |f| button(f, GROUP, "start"))
        .await;
    let id = fake.press(GROUP, msg, ANNA, &go);
    fake.answered(&id).await;
    table
}

/// The newest table message of the group: the one with the 🂠 button.
fn table_message(fake: &Fake) -> Option<fake::Msg> {
    fake.messages(GROUP)
        .into_iter()
        .rev()
        .find(|m| m.buttons.iter().flatten().any(|(l, _)| l == "🂠"))
}

/// New public messages the group was sent (taken by Telegram), from call `from` on: when, and
/// their text.
fn group_posts(fake: &Fake, from: usize) -> Vec<(std::time::Instant, String)> {
    fake.calls()[from..]
        .iter()
        .filter(|c| {
            matches!(c.method.as_str(), "sendMessage" | "sendDocument")
                && c.body["chat_id"] == json!(GROUP)
                && c.failed.is_none()
                && c.body.get("ephemeral_message_parameters").is_none()
        })
        .map(|c| (c.at, c.body["text"].as_str().unwrap_or("").to_string()))
        .collect()
}

/// The most of `times` (ascending) in any window of `window`.
fn most_in_window(times: &[std::time::Instant], window: Duration) -> usize {
    let mut most = 0;
    let mut start = 0;
    for (i, t) in times.iter().enumerate() {
        while t.duration_since(times[start]) >= window {
            start += 1;
        }
        most = most.max(i + 1 - start);
    }
    most
}

/// The deal numbers of every "Result of deal N" in `texts`, in order.
fn results_in(texts: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    for t in texts {
        for (i, _) in t.match_indices("Result of deal ") {
            let n: String = t[i + "Result of deal ".len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            out.push(n.parse().unwrap());
        }
    }
    out
}

/// Every text the group has seen (each public send and edit), in order.
fn group_history(fake: &Fake) -> Vec<String> {
    fake.state
        .lock()
        .unwrap()
        .history
        .iter()
        .filter(|h| h.0 == GROUP)
        .map(|h| h.2.clone())
        .collect()
}

/// 60 deals played from the live page as fast as the pages' taps are taken (everybody
/// passes: each deal ends after three taps with its result and the next deal): the group is
/// never sent more new messages than its budget in any window, every result is there once,
/// in order, and the table message ends on the deal being played once play stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_fast_deals_stay_within_the_groups_post_budget_and_every_result_is_shown_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let mut s = settings(&fake, &dir.path().join("pace.db"));
    s.web_listen = Some(([127, 0, 0, 1], 0).into());
    let running = start(s).await.expect("the bot starts");
    let web = running.web.as_ref().unwrap().addr;
    let host = running.app.host.clone();
    let table = open_table(&fake, &[BRUNO, CILDA]).await;
    let mut feeds = Vec::new();
    for u in [ANNA, BRUNO, CILDA] {
        feeds.push(open_feed(web, table, u).await);
    }
    let from = fake.calls().len();
    let t0 = std::time::Instant::now();
    const DEALS: usize = 60;
    let mut taps = 0;
    let mut ended: Vec<std::time::Instant> = Vec::new();
    loop {
        let mut next = None;
        for u in [ANNA, BRUNO, CILDA].map(|u| u.to_string()) {
            let v = host.table_view(table, Some(&u)).await.unwrap().unwrap();
            if v.deal_no > DEALS {
                break;
            }
            let pass = v
                .buttons
                .iter()
                .flatten()
                .find(|b| Token::decode(&b.token).is_ok_and(|t| t.action == "b:pass"));
            if let Some(b) = pass {
                next = Some((u, b.token.clone()));
                break;
            }
        }
        let Some((user, token)) = next else {
            let v = host.table_view(table, None).await.unwrap().unwrap();
            if v.deal_no > DEALS {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(120), "the deals do not end");
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let (code, body) = page_press(web, table, &user, &token).await;
        assert_eq!(code, 200, "{body}");
        taps += 1;
        // When each deal ended (for the figures: how long its result waited).
        let v = host.table_view(table, None).await.unwrap().unwrap();
        while ended.len() + 1 < v.deal_no {
            ended.push(std::time::Instant::now());
        }
    }
    let played = t0.elapsed();
    // Every result reaches the group, in order, and the table message shows the deal being
    // played (its newest state) once what was owed has gone out.
    let expected: Vec<usize> = (1..=DEALS).collect();
    let newest = DEALS + 1;
    let done = fake
        .until("every result and the newest table message", |f| {
            let posts: Vec<String> = group_posts(f, from).into_iter().map(|p| p.1).collect();
            let current = table_message(f).is_some_and(|m| m.text.contains(&format!("deal {newest} ")));
            (results_in(&posts).len() >= DEALS && current).then_some(posts)
        })
        .await;
    let caught_up = t0.elapsed();
    assert_eq!(results_in(&done), expected, "every result once, in order");
    // Nothing more than the budget in any window, from the first post of play to the last.
    let times: Vec<std::time::Instant> = group_posts(&fake, from).into_iter().map(|p| p.0).collect();
    let most = most_in_window(&times, BUDGET.window);
    assert!(
        most <= BUDGET.posts,
        "{most} new messages in {:?}: {:?}",
        BUDGET.window,
        times.iter().map(|t| t.duration_since(t0)).collect::<Vec<_>>()
    );
    // What the group saw of the burst: the new messages, the edits.
    let calls = fake.calls()[from..].to_vec();
    let to_group = |m: &str| {
        calls
            .iter()
            .filter(|c| c.method == m && c.body["chat_id"] == json!(GROUP) && c.failed.is_none())
            .count()
    };
    // The longest a result waited: from its deal's end to the post that holds it.
    let posts = group_posts(&fake, from);
    let longest = ended
        .iter()
        .enumerate()
        .filter_map(|(i, end)| {
            let n = i + 1;
            let (at, _) = posts
                .iter()
                .find(|(_, t)| results_in(std::slice::from_ref(t)).contains(&n))?;
            Some(at.saturating_duration_since(*end))
        })
        .max()
        .unwrap_or_default();
    // The busiest window (the budget's, which stands for Telegram's minute) of each kind of
    // call to the group: new messages, edits, ephemeral calls.
    let busiest = |kind: &dyn Fn(&fake::Call) -> bool| {
        let at: Vec<std::time::Instant> = calls
            .iter()
            .filter(|c| c.body["chat_id"] == json!(GROUP) && c.failed.is_none() && kind(c))
            .map(|c| c.at)
            .collect();
        most_in_window(&at, BUDGET.window)
    };
    let ephemeral = |c: &fake::Call| {
        c.method.contains("Ephemeral") || c.body.get("ephemeral_message_parameters").is_some()
    };
    let busiest_edits = busiest(&|c| c.method == "editMessageText");
    let busiest_ephemeral = busiest(&ephemeral);
    println!(
        "pace: {DEALS} deals ({taps} taps) played in {played:?}, the group caught up after {caught_up:?}: \
         {} new messages (most {most} in any {:?}), {} edits, {} calls in all to the group; \
         the busiest {:?}: {most} new messages, {busiest_edits} edits, {busiest_ephemeral} ephemeral calls; \
         the longest a result waited: {longest:?}",
        times.len(),
        BUDGET.window,
        to_group("editMessageText"),
        calls.iter().filter(|c| c.body["chat_id"] == json!(GROUP)).count(),
        BUDGET.window,
    );
    for f in feeds {
        f.abort();
    }
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// Issue 60: "the tournament is over" went out before the result of its deciding deal. A
/// tournament of one round of one deal: its deal's result, then its table's end, then the
/// tournament's end, in that order in the group. Every Bot API call takes 40 ms, so that
/// the press that ends the deal takes longer to show than the tournament takes to move on
/// in its own task (which, shown as it came, went first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_end_comes_after_its_deciding_deals_result_and_its_tables_end() {
    let people = [ANNA, BRUNO, CILDA];
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let running = start(settings(&fake, &dir.path().join("t.db"))).await.unwrap();
    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, "/tournament 1 1", None);
    let (msg, join) = fake
        .until("the tournament message", |f| button(f, GROUP, "T:j"))
        .await;
    for u in people {
        let id = fake.press(GROUP, msg, u, &join);
        fake.answered(&id).await;
    }
    let (msg, go) = button(&fake, GROUP, "T:s").unwrap();
    let id = fake.press(GROUP, msg, ANNA, &go);
    fake.answered(&id).await;
    fake.state.lock().unwrap().latency = Duration::from_millis(40);
    let over = |f: &Fake| {
        group_history(f)
            .iter()
            .any(|t| t.contains("The tournament is over."))
    };
    fake::play_until(&fake, &people, over, Duration::ZERO, 200).await;
    // Whatever the group is still owed goes out.
    let seen = fake
        .until("the result and the table's end", |f| {
            let seen = group_history(f);
            let all = [
                "Result of deal 1",
                "table 1 has finished",
                "The tournament is over.",
            ]
            .iter()
            .all(|n| seen.iter().any(|t| t.contains(n)));
            all.then_some(seen)
        })
        .await;
    // Where each first appears (a merged post holds several: their order in it counts).
    let at = |needle: &str| {
        seen.iter()
            .enumerate()
            .find_map(|(i, t)| t.find(needle).map(|p| (i, p)))
            .unwrap()
    };
    let result = at("Result of deal 1");
    let table_end = at("table 1 has finished");
    let end = at("The tournament is over.");
    assert!(
        result < table_end && table_end < end,
        "result {result:?}, table's end {table_end:?}, tournament's end {end:?}: {seen:#?}"
    );
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// A normal table with hands in the group while Telegram rate-limits the group (a 429 for
/// bursts of ephemeral calls and of sends and edits): every card's hand edit still reaches
/// its receiver (the presser's hand loses the card it played), and the deal is played out;
/// no person's hand is edited more than about once a second, and after a 429 for an
/// ephemeral call no ephemeral call reaches the group before its `retry_after` ran out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_hands_in_the_group_and_429s_for_bursts_every_cards_hand_edit_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    {
        let mut s = fake.state.lock().unwrap();
        s.eph.supported = true;
        s.eph.limit = Some((3, Duration::from_secs(1)));
        s.group_limit = Some((8, Duration::from_secs(2)));
    }
    let running = start(settings(&fake, &dir.path().join("h.db"))).await.unwrap();
    let players = [ANNA, BRUNO, CILDA];
    open_table(&fake, &[BRUNO, CILDA]).await;
    let results = |f: &Fake| group_history(f).iter().any(|t| t.contains("Result of deal 1"));
    let mut presses = 0;
    let mut cards = 0;
    let t0 = std::time::Instant::now();
    let mut waits = Vec::new();
    loop {
        let next = fake
            .until("someone to act", |f| {
                if results(f) {
                    return Some(None);
                }
                players.into_iter().find_map(|u| {
                    let e = f.ephemerals_of(GROUP, u).into_iter().next_back()?;
                    e.a_move().map(|b| Some((u, e.id, b.data.clone())))
                })
            })
            .await;
        let Some((user, id, data)) = next else { break };
        let pressed_at = std::time::Instant::now();
        let cq = fake.press_ephemeral(GROUP, user, id, &data);
        fake.answered(&cq).await;
        // The presser's hand is redrawn without the button pressed (a card leaves it).
        fake.until("the presser's hand redrawn", |f| {
            let now = f.ephemerals_of(GROUP, user).into_iter().find(|e| e.id == id)?;
            (!now.pressable().iter().any(|b| b.data == data) || results(f)).then_some(())
        })
        .await;
        waits.push(pressed_at.elapsed());
        presses += 1;
        cards += usize::from(Token::decode(&data).unwrap().action.starts_with("p:"));
        assert!(presses < 200, "a deal takes fewer presses");
    }
    assert!(cards >= 20, "{cards} cards");
    // Every hand of deal 1 ends in its final state (no button).
    fake.until("every deal-1 hand in its final state", |f| {
        players
            .iter()
            .all(|&u| {
                f.ephemerals_of(GROUP, u)
                    .first()
                    .is_some_and(|e| e.buttons.iter().all(Vec::is_empty))
            })
            .then_some(())
    })
    .await;
    let calls = fake.calls();
    let limited = calls.iter().filter(|c| c.failed == Some(429)).count();
    let ephemeral_to_group = |c: &&fake::Call| {
        c.body["chat_id"] == json!(GROUP)
            && (c.method.contains("Ephemeral") || c.body.get("ephemeral_message_parameters").is_some())
    };
    // (a) Paced per person: no person's hand is sent or edited more than twice in any
    // second (one a second, a window's two ends), counted from the fake's log.
    for u in players {
        let times: Vec<std::time::Instant> = calls
            .iter()
            .filter(ephemeral_to_group)
            .filter(|c| {
                c.failed.is_none()
                    && (c.body["receiver_user_id"] == json!(u)
                        || c.body["ephemeral_message_parameters"]["receiver_user_id"] == json!(u))
            })
            .map(|c| c.at)
            .collect();
        let most = most_in_window(&times, Duration::from_secs(1));
        assert!(most <= 2, "{u}'s hand had {most} ephemeral calls in one second");
    }
    // (b) A 429 holds the group's ephemeral calls back for its retry_after: the fake sees
    // none before it ran out (but those already on their way when it was answered, within
    // `IN_FLIGHT`).
    const IN_FLIGHT: Duration = Duration::from_millis(100);
    let rejected = fake.state.lock().unwrap().eph.limited.clone();
    assert!(
        !rejected.is_empty(),
        "the fake's limit never answered 429: the test shows nothing"
    );
    for (chat, at, secs) in &rejected {
        let early: Vec<Duration> = calls
            .iter()
            .filter(ephemeral_to_group)
            .filter(|c| *chat == GROUP && c.at > *at + IN_FLIGHT && c.at < *at + Duration::from_secs(*secs))
            .map(|c| c.at - *at)
            .collect();
        assert!(
            early.is_empty(),
            "ephemeral calls to the group {early:?} after a 429 that asked to wait {secs} s"
        );
    }
    waits.sort();
    let pct = |p: f64| waits[((waits.len() - 1) as f64 * p) as usize];
    let eph = calls
        .iter()
        .filter(|c| {
            c.body["chat_id"] == json!(GROUP)
                && (c.method.contains("Ephemeral") || c.body.get("ephemeral_message_parameters").is_some())
        })
        .count();
    let showing = calls
        .iter()
        .filter(|c| c.at >= t0 && !matches!(c.method.as_str(), "getUpdates"))
        .count();
    println!(
        "pace, hands in the group: {presses} presses ({cards} cards) in {:?}, {limited} answered 429, \
         {eph} ephemeral calls, {:.2} Bot API calls a card (answers, 429s and the group's posts and \
         edits counted); press -> own hand redrawn p50 {:?}, p99 {:?}",
        t0.elapsed(),
        showing as f64 / cards as f64,
        pct(0.5),
        pct(0.99)
    );
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// A person alone with two computer players, hands in the group, pressing as soon as their
/// hand offers a move: every press brings their hand a new state at once (the card leaves
/// it, the computers play theirs, and it is their turn again), a burst of states as fast as
/// the table plays. Each person's ephemeral calls are paced: never more than two in any
/// second (one a second, a window's two ends), and the deal is still played out to the end,
/// every card's state reaching the hand within about a second and the hand ending with no
/// buttons. Unpaced, the same burst edits the hand several times a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_pressing_as_fast_as_their_hand_comes_gets_at_most_about_one_hand_call_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    fake.state.lock().unwrap().eph.supported = true;
    let running = start(settings(&fake, &dir.path().join("burst.db")))
        .await
        .unwrap();
    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, "/zole", None);
    fake.until("the lobby", |f| button(f, GROUP, "join")).await;
    fake.say(GROUP, ANNA, "/bots 2", None);
    fake.say(GROUP, ANNA, "/go", None);
    let result = |f: &Fake| group_history(f).iter().any(|t| t.contains("Result of deal 1"));
    // Anna's moves: the first pressable move of her newest hand, in a state she has not
    // pressed yet (the talon taken where offered, so the deal is played out).
    let mut pressed: std::collections::HashSet<(i64, String)> = Default::default();
    let mut cards = 0;
    let mut presses = 0;
    let mut waits = Vec::new();
    let from = fake.calls().len();
    let t0 = std::time::Instant::now();
    loop {
        let next = fake
            .until("Anna to act, or the result", |f| {
                if result(f) {
                    return Some(None);
                }
                let e = f.ephemerals_of(GROUP, ANNA).into_iter().next_back()?;
                let state = format!("{}{:?}", e.text, e.buttons);
                if pressed.contains(&(e.id, state.clone())) {
                    return None;
                }
                e.a_move().map(|b| Some((e.id, state, b.data.clone())))
            })
            .await;
        let Some((id, state, data)) = next else { break };
        pressed.insert((id, state));
        let at = std::time::Instant::now();
        let cq = fake.press_ephemeral(GROUP, ANNA, id, &data);
        let answer = fake.answered(&cq).await;
        assert!(
            answer["text"].as_str().is_some_and(|t| t.starts_with('✓')),
            "{answer} for {data}"
        );
        // Her hand is redrawn without the button she pressed (or the deal ended).
        fake.until("Anna's hand redrawn", |f| {
            let now = f.ephemerals_of(GROUP, ANNA).into_iter().find(|e| e.id == id)?;
            (!now.pressable().iter().any(|b| b.data == data) || result(f)).then_some(())
        })
        .await;
        waits.push(at.elapsed());
        presses += 1;
        cards += usize::from(Token::decode(&data).unwrap().action.starts_with("p:"));
        assert!(presses < 100, "a deal takes fewer presses");
    }
    assert!(cards >= 6, "only {cards} cards played: no burst to pace");
    fake.until("Anna's deal-1 hand in its final state", |f| {
        f.ephemerals_of(GROUP, ANNA)
            .first()
            .is_some_and(|e| e.buttons.iter().all(Vec::is_empty))
            .then_some(())
    })
    .await;
    let calls = fake.calls()[from..].to_vec();
    let hers: Vec<std::time::Instant> = calls
        .iter()
        .filter(|c| {
            c.failed.is_none()
                && c.body["chat_id"] == json!(GROUP)
                && (c.body["receiver_user_id"] == json!(ANNA)
                    || c.body["ephemeral_message_parameters"]["receiver_user_id"] == json!(ANNA))
        })
        .map(|c| c.at)
        .collect();
    let most = most_in_window(&hers, Duration::from_secs(1));
    assert!(
        most <= 2,
        "Anna's hand had {most} ephemeral calls in one second: {:?}",
        hers.iter().map(|t| t.duration_since(t0)).collect::<Vec<_>>()
    );
    waits.sort();
    let pct = |p: f64| waits[((waits.len() - 1) as f64 * p) as usize];
    let showing = calls.iter().filter(|c| c.method != "getUpdates").count();
    println!(
        "pace, alone with computers: {presses} presses ({cards} cards) in {:?}, {} ephemeral calls \
         to her (most {most} in any second), {:.2} Bot API calls a card; press -> own hand \
         redrawn p50 {:?}, p99 {:?}",
        t0.elapsed(),
        hers.len(),
        showing as f64 / cards as f64,
        pct(0.5),
        pct(0.99)
    );
    running.shutdown().await;
    fake.assert_nothing_refused();
}
