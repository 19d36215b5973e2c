//! Hands in the group as ephemeral messages (Bot API 10.2), against the fake's strict model
//! of them (`fake::ephemeral`): every hand of a whole deal arrives in the group seen by its
//! receiver alone, is edited in place card by card and ends with no buttons, and no public
//! message or private chat ever holds one; a person Telegram refuses one gets theirs in the
//! private chat; an older Bot API server (the methods unknown) is asked once and hands go to
//! private chats; the table's 🂠 answers with the hand as an ephemeral message tied to the
//! press, for a person whose hand never arrived (offline); refused and with a closed private
//! chat, a person plays from the number buttons; `/hands` switches where they go.

use crate::fake;

use std::sync::Arc;
use std::time::Duration;

use fake::Fake;
use stikis_core::Seed;
use stikis_host::token::Token;
use stikis_host::HostConfig;
use stikis_telegram::{start, Running, Settings};

const GROUP: i64 = -1_002;
const ANNA: i64 = 21;
const BRUNO: i64 = 22;
const CILDA: i64 = 23;
/// A member of the group who does not play: sees everything public, no hand.
const DORA: i64 = 24;
const PLAYERS: [i64; 3] = [ANNA, BRUNO, CILDA];

async fn bot(fake: &Fake, db: &std::path::Path) -> Running {
    bot_in(fake, db, false).await
}

/// The bot, taking its updates by long polling or (`webhook`) from Telegram's posts.
async fn bot_in(fake: &Fake, db: &std::path::Path, webhook: bool) -> Running {
    let mut s = Settings::new("123:TEST", db.to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    s.edit_interval = Duration::ZERO;
    s.host = HostConfig {
        bot_budget_ms: 10,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    if webhook {
        s.mode = fake::webhook_mode(None).0;
    }
    start(s).await.expect("the bot starts")
}

/// A fake that has ephemeral messages (Bot API 10.2).
async fn modern_fake() -> Fake {
    let fake = Fake::start().await;
    fake.state.lock().unwrap().eph.supported = true;
    fake
}

/// The newest public message of the group with a button whose token's action is `action`.
fn button(fake: &Fake, action: &str) -> Option<(i64, String)> {
    fake.messages(GROUP).into_iter().rev().find_map(|m| {
        m.buttons
            .iter()
            .flatten()
            .find(|(_, d)| Token::decode(d).is_ok_and(|t| t.action == action))
            .map(|(_, d)| (m.id, d.clone()))
    })
}

/// Anna opens a Zole table (turn timer off), Bruno and Cilda join by button, Anna starts;
/// `before_start` runs once all three sit. Returns the table id.
async fn open_table(fake: &Fake, before_start: impl FnOnce(&Fake)) -> i64 {
    fake::open_table(fake, GROUP, &PLAYERS, "/zole", "off", before_start).await
}

/// Every text the group's members all see: each public message state, in order.
fn public_texts(fake: &Fake) -> Vec<String> {
    fake.state
        .lock()
        .unwrap()
        .history
        .iter()
        .filter(|(chat, ..)| *chat == GROUP)
        .map(|(_, _, text, _)| text.clone())
        .collect()
}

/// The cards (as the hands write them) in `text`.
fn cards_in(text: &str) -> Vec<String> {
    let all: Vec<String> = stikis_core::cards::ZOLE_DECK
        .iter()
        .map(stikis_host::games::zole::card_label)
        .collect();
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| all.iter().any(|c| c == w))
        .map(str::to_string)
        .collect()
}

/// A move (bid, bury pick, card) of `user`'s newest ephemeral hand: its id and the button's
/// data and label; the talon taken where offered, so deals are played out.
fn move_of(fake: &Fake, user: i64) -> Option<(i64, String, String)> {
    let e = fake.ephemerals_of(GROUP, user).into_iter().next_back()?;
    e.a_move().map(|b| (e.id, b.data.clone(), b.label.clone()))
}

fn results(fake: &Fake) -> usize {
    fake.messages(GROUP)
        .iter()
        .filter(|m| m.text.contains("Result of deal"))
        .count()
}

/// The hidden cards of deal 1 (the deal these tests play), and those of them that the
/// group's newest public texts hold. Deal 1's, not the current deal's: once it ends its result
/// names its cards, which the next deal deals again.
async fn leaks(running: &Running, table: i64, fake: &Fake) -> (usize, Vec<String>) {
    let hidden = running.app.host.hidden_cards(table, 1).await;
    let texts = public_texts(fake);
    let newest = texts.iter().rev().take(6);
    let leaked = newest
        .flat_map(|t| cards_in(t.as_str()))
        .filter(|c| hidden.contains(c))
        .collect();
    (hidden.len(), leaked)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_deal_is_played_from_hands_in_the_group_that_only_their_receivers_see() {
    whole_deal(false).await;
}

/// The same with the presses on ephemeral hands posted to the webhook (read from the post's
/// body, which teloxide alone cannot read as a press).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_deal_is_played_from_hands_in_the_group_in_webhook_mode() {
    whole_deal(true).await;
}

async fn whole_deal(webhook: bool) {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot_in(&fake, &dir.path().join("e.db"), webhook).await;
    let table = open_table(&fake, |_| {}).await;
    let hands = fake
        .until("three hands in the group", |f| {
            let h: Vec<_> = PLAYERS
                .iter()
                .filter_map(|&u| f.ephemerals_of(GROUP, u).into_iter().next())
                .collect();
            (h.len() == 3).then_some(h)
        })
        .await;
    // 8 cards each, disjoint; each seen by its receiver alone.
    let mut all: Vec<String> = hands.iter().flat_map(|e| cards_in(&e.text)).collect();
    assert_eq!(all.len(), 24, "{hands:#?}");
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 24, "hands overlap: {hands:#?}");
    assert!(fake.ephemerals_of(GROUP, DORA).is_empty());
    for e in &hands {
        for other in [ANNA, BRUNO, CILDA, DORA]
            .into_iter()
            .filter(|u| *u != e.receiver)
        {
            assert!(
                !fake.visible_to(GROUP, other).contains(&e.text),
                "{other} sees {}'s hand",
                e.receiver
            );
        }
    }
    let mut presses = 0;
    // The Bot API calls of the deal's play, for the figure printed at its end.
    let calls_before = fake.calls().len();
    let replies_before: usize = fake.state.lock().unwrap().in_reply.values().sum();
    while results(&fake) == 0 {
        let (user, (id, data, label)) = fake
            .until("someone to act", |f| {
                if results(f) > 0 {
                    return Some(None);
                }
                PLAYERS
                    .into_iter()
                    .find_map(|u| move_of(f, u).map(|m| Some((u, m))))
            })
            .await
            .map_or((0, (0, String::new(), String::new())), |x| x);
        if user == 0 {
            break;
        }
        let seen_before = fake.state.lock().unwrap().eph.history.len();
        let cq = fake.press_ephemeral(GROUP, user, id, &data);
        let answer = fake.answered(&cq).await;
        assert_eq!(answer["text"], format!("✓ {label}"), "{answer}");
        // The presser's hand is redrawn in place at once: the move's button is gone from it.
        fake.until("the presser's hand redrawn", |f| {
            let now = f.ephemerals_of(GROUP, user).into_iter().find(|e| e.id == id)?;
            let gone = !now.pressable().iter().any(|b| b.data == data);
            let redrawn = f.state.lock().unwrap().eph.history.len() > seen_before;
            (gone && redrawn || results(f) > 0).then_some(())
        })
        .await;
        let (hidden, leaked) = leaks(&running, table, &fake).await;
        assert!(
            leaked.is_empty(),
            "the group saw hidden cards {leaked:?} ({hidden} hidden)"
        );
        presses += 1;
        assert!(presses < 200, "a deal takes fewer presses");
    }
    assert!(presses >= 8, "{presses}");
    // Issue 60's figure: Bot API calls a card with hands in the group, by method (in webhook
    // mode the answers to presses go in the webhook's replies: counted, and said apart).
    let calls = fake.calls().split_off(calls_before);
    let in_replies = fake.state.lock().unwrap().in_reply.values().sum::<usize>() - replies_before;
    let mut by_method = std::collections::BTreeMap::<String, usize>::new();
    for c in &calls {
        *by_method.entry(c.method.clone()).or_default() += 1;
    }
    by_method.remove("getUpdates");
    let all: usize = by_method.values().sum();
    println!(
        "hands in the group, {}: {all} Bot API calls for 24 cards ({presses} presses): {:.2} a card \
         ({in_replies} of them in webhook replies: {:.2} a card without); {by_method:?}",
        if webhook { "webhook" } else { "long polling" },
        all as f64 / 24.0,
        (all - in_replies) as f64 / 24.0
    );
    // Each person's deal-1 hand ends in its final state: every card played, no button;
    // nobody got a private message.
    fake.until("every deal-1 hand in its final state", |f| {
        PLAYERS
            .iter()
            .all(|&u| {
                f.ephemerals_of(GROUP, u).first().is_some_and(|e| {
                    let held = cards_in(e.text.lines().next().unwrap_or(""));
                    e.buttons.iter().all(Vec::is_empty) && held.is_empty()
                })
            })
            .then_some(())
    })
    .await;
    for u in PLAYERS {
        assert!(fake.messages(u).is_empty(), "{u} got {:?}", fake.messages(u));
    }
    // Dora, a member who does not play, never saw a hand; the public texts hold none.
    assert!(fake.ephemerals_of(GROUP, DORA).is_empty());
    let hand_texts: Vec<String> = fake
        .state
        .lock()
        .unwrap()
        .eph
        .history
        .iter()
        .map(|(_, _, t, _)| t.lines().next().unwrap_or("").to_string())
        .collect();
    for text in public_texts(&fake) {
        assert!(
            !hand_texts
                .iter()
                .any(|h| text.contains(h.as_str()) && cards_in(h).len() > 1),
            "a hand in a public message: {text}"
        );
    }
    assert_eq!(running.app.shower.ephemeral_support(), Some(true));
    let polled = fake.calls().iter().any(|c| c.method == "getUpdates");
    assert_eq!(polled, !webhook, "updates by getUpdates");
    running.shutdown().await;
    fake.assert_nothing_refused();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_bot_api_server_is_asked_once_and_hands_go_to_private_chats() {
    let dir = tempfile::tempdir().unwrap();
    // The fake's default: a Bot API server before 10.2.
    let fake = Fake::start().await;
    let running = bot(&fake, &dir.path().join("o.db")).await;
    open_table(&fake, |_| {}).await;
    fake.until("three hands in private chats", |f| {
        PLAYERS.iter().all(|&u| !f.messages(u).is_empty()).then_some(())
    })
    .await;
    // Another deal's worth of hands later, it is still the one question.
    let (msg, hand) = button(&fake, "hand").unwrap();
    let cq = fake.press(GROUP, msg, BRUNO, &hand);
    fake.answered(&cq).await;
    let asked: Vec<_> = fake
        .calls()
        .into_iter()
        .filter(|c| c.method.eq_ignore_ascii_case(stikis_telegram::ephemeral::PROBE))
        .collect();
    assert_eq!(asked.len(), 1, "{asked:#?}");
    assert_eq!(asked[0].failed, Some(404));
    assert_eq!(running.app.shower.ephemeral_support(), Some(false));
    // No ephemeral sendMessage reached it (it would have posted the hand for everyone).
    assert!(fake.ephemerals_of(GROUP, BRUNO).is_empty());
    running.shutdown().await;
    fake.assert_nothing_refused();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_telegram_refuses_an_ephemeral_hand_gets_it_in_the_private_chat() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("r.db")).await;
    // Bruno left the group after taking his seat: Telegram refuses him ephemeral messages.
    open_table(&fake, |f| {
        f.state.lock().unwrap().outsiders.insert(BRUNO);
    })
    .await;
    fake.until("Bruno's hand in his private chat", |f| {
        f.messages(BRUNO)
            .iter()
            .any(|m| cards_in(&m.text).len() == 8)
            .then_some(())
    })
    .await;
    fake.until("Anna's and Cilda's in the group", |f| {
        [ANNA, CILDA]
            .iter()
            .all(|&u| !f.ephemerals_of(GROUP, u).is_empty())
            .then_some(())
    })
    .await;
    assert!(fake.messages(ANNA).is_empty() && fake.messages(CILDA).is_empty());
    assert!(fake.ephemerals_of(GROUP, BRUNO).is_empty());
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// Refused in the group and with a closed private chat (403), Bruno plays from the table
/// message's number buttons, as a player without a private chat does when hands go there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_in_the_group_and_closed_privately_a_person_gets_number_buttons() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("n.db")).await;
    open_table(&fake, |f| {
        let mut s = f.state.lock().unwrap();
        s.outsiders.insert(BRUNO);
        s.forbidden.insert(BRUNO);
    })
    .await;
    // The group is told his private chat is closed.
    let notice = fake.said(GROUP, "private chat").await;
    assert!(notice.text.starts_with("U22's private chat"), "{}", notice.text);
    // His 🂠 press is answered with a popup of his hand, not an ephemeral message.
    let (msg, hand) = button(&fake, "hand").unwrap();
    let cq = fake.press(GROUP, msg, BRUNO, &hand);
    let answer = fake.answered(&cq).await;
    assert_eq!(answer["show_alert"], true, "{answer}");
    assert_eq!(cards_in(answer["text"].as_str().unwrap()).len(), 8, "{answer}");
    // Anna and Cilda play from their hands in the group until he is to act: then the
    // group's message carries number buttons.
    let mut turns = 0;
    loop {
        let numbers = fake.messages(GROUP).into_iter().any(|m| {
            m.buttons
                .iter()
                .flatten()
                .any(|(_, d)| stikis_telegram::show::parse_choice(d).is_some())
        });
        if numbers {
            break;
        }
        if let Some((user, (id, data, _))) = [ANNA, CILDA]
            .into_iter()
            .find_map(|u| move_of(&fake, u).map(|m| (u, m)))
        {
            let cq = fake.press_ephemeral(GROUP, user, id, &data);
            fake.answered(&cq).await;
        }
        turns += 1;
        assert!(turns < 100, "no number buttons for Bruno");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(fake.ephemerals_of(GROUP, BRUNO).is_empty());
    assert!(fake.messages(BRUNO).is_empty());
    running.shutdown().await;
    fake.assert_nothing_refused();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hand_button_answers_a_person_whose_hand_never_arrived_with_it_tied_to_the_press() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("h.db")).await;
    // Cilda's client is offline when the deal starts: her hand never arrives.
    open_table(&fake, |f| {
        f.state.lock().unwrap().eph.offline.insert(CILDA);
    })
    .await;
    fake.until("Anna's and Bruno's hands", |f| {
        [ANNA, BRUNO]
            .iter()
            .all(|&u| !f.ephemerals_of(GROUP, u).is_empty())
            .then_some(())
    })
    .await;
    fake.until("Cilda's hand sent", |f| {
        f.state
            .lock()
            .unwrap()
            .eph
            .all
            .iter()
            .any(|e| e.receiver == CILDA)
            .then_some(())
    })
    .await;
    assert!(fake.ephemerals_of(GROUP, CILDA).is_empty());
    // Back online, she presses 🂠 on the table message.
    fake.state.lock().unwrap().eph.offline.remove(&CILDA);
    let (msg, hand) = button(&fake, "hand").unwrap();
    let cq = fake.press(GROUP, msg, CILDA, &hand);
    let got = fake
        .until("Cilda's hand tied to her press", |f| {
            f.ephemerals_of(GROUP, CILDA)
                .into_iter()
                .find(|e| e.callback.as_deref() == Some(cq.as_str()))
        })
        .await;
    assert_eq!(cards_in(&got.text).len(), 8, "{got:?}");
    // It was the press's answer: no answerCallbackQuery for it (Telegram would refuse it).
    assert!(fake.is_answered(&cq));
    assert!(!fake
        .calls()
        .iter()
        .any(|c| c.method == "answerCallbackQuery" && c.body["callback_query_id"] == cq.as_str()));
    // Only she sees it; the table message is as it was for everyone.
    for u in [ANNA, BRUNO, DORA] {
        assert!(!fake.visible_to(GROUP, u).contains(&got.text));
    }
    assert!(fake.messages(CILDA).is_empty());
    // It is her hand's message from then on: her moves come on it when it is her turn.
    // (Hands are paced per person, at most one call a second: a move may come a second late.)
    let mut turns = 0;
    while turns < 200 {
        if let Some((id, data, _)) = move_of(&fake, CILDA) {
            assert_eq!(id, got.id, "her moves come on the message the press brought");
            let cq = fake.press_ephemeral(GROUP, CILDA, id, &data);
            fake.answered(&cq).await;
            break;
        }
        if let Some((user, (id, data, _))) = [ANNA, BRUNO]
            .into_iter()
            .find_map(|u| move_of(&fake, u).map(|m| (u, m)))
        {
            let cq = fake.press_ephemeral(GROUP, user, id, &data);
            fake.answered(&cq).await;
        }
        turns += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(turns < 200, "Cilda never had a move");
    running.shutdown().await;
    fake.assert_nothing_refused();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_sends_hands_to_private_chats_with_slash_hands_and_settings_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("s.db")).await;
    fake.state.lock().unwrap().admins.insert(ANNA);
    // /help names it; /settings says where hands go (the group, by default).
    fake.say(GROUP, DORA, "/help", None);
    fake.said(GROUP, "/hands group|private").await;
    fake.say(GROUP, ANNA, "/settings", None);
    fake.said(GROUP, "Hands: in the group").await;
    // Someone else may not change it: told privately, nothing changes.
    fake.say(GROUP, BRUNO, "/hands private", None);
    fake.said(BRUNO, "Only the table's creator or an admin may do that.")
        .await;
    fake.say(GROUP, ANNA, "/hands private", None);
    fake.said(GROUP, "Hands: in each player's private chat").await;
    open_table(&fake, |_| {}).await;
    fake.until("three hands in private chats", |f| {
        PLAYERS
            .iter()
            .all(|&u| f.messages(u).iter().any(|m| cards_in(&m.text).len() == 8))
            .then_some(())
    })
    .await;
    for u in PLAYERS {
        assert!(fake.ephemerals_of(GROUP, u).is_empty());
    }
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// A hand in the group shows the cards that cannot be played now as disabled buttons (Bot
/// API 10.3), in the hand's order among the playable ones: at a trick where its receiver
/// must follow suit, every card of the hand has its button and only the playable ones can be
/// pressed. A forged press on a disabled one is refused as any illegal move, and the hand
/// keeps the card.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_that_cannot_be_played_now_are_disabled_buttons_of_the_hand_in_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("d.db")).await;
    open_table(&fake, |_| {}).await;
    let mut presses = 0;
    let (user, hand) = loop {
        let (user, (id, data, _)) = fake
            .until("someone to act", |f| {
                PLAYERS.into_iter().find_map(|u| move_of(f, u).map(|m| (u, m)))
            })
            .await;
        let hand = fake
            .ephemerals_of(GROUP, user)
            .into_iter()
            .find(|e| e.id == id)
            .unwrap();
        if hand.buttons.iter().flatten().any(|b| b.disabled) {
            break (user, hand);
        }
        let cq = fake.press_ephemeral(GROUP, user, id, &data);
        fake.answered(&cq).await;
        // The next hand to act is drawn after this press.
        fake.until("the move taken", |f| {
            let now = f.ephemerals_of(GROUP, user).into_iter().find(|e| e.id == id)?;
            (!now.pressable().iter().any(|b| b.data == data)).then_some(())
        })
        .await;
        presses += 1;
        assert!(presses < 40, "no hand had a card it could not play");
        assert_eq!(results(&fake), 0, "the deal ended with no card disabled");
    };
    // Every card of the hand is a button, in the hand's order; some pressable, some not.
    let held = cards_in(hand.text.lines().next().unwrap_or(""));
    let cards: Vec<_> = hand
        .buttons
        .iter()
        .flatten()
        .filter(|b| Token::decode(&b.data).is_ok_and(|t| t.action.starts_with("p:")))
        .collect();
    let labels: Vec<String> = cards.iter().map(|b| b.label.clone()).collect();
    assert_eq!(labels, held, "{hand:#?}");
    let disabled: Vec<_> = cards.iter().filter(|b| b.disabled).collect();
    assert!(!disabled.is_empty() && disabled.len() < cards.len(), "{hand:#?}");
    // A client cannot press a disabled button; a forged press gets the illegal move's answer.
    let forged = disabled[0];
    let cq = fake.forge_ephemeral_press(GROUP, user, hand.id, &forged.data);
    let answer = fake.answered(&cq).await;
    let text = answer["text"].as_str().unwrap_or("");
    assert!(text.starts_with("You must"), "{answer}");
    let now = fake
        .ephemerals_of(GROUP, user)
        .into_iter()
        .find(|e| e.id == hand.id)
        .unwrap();
    assert!(
        cards_in(now.text.lines().next().unwrap_or("")).contains(&forged.label),
        "the refused card left the hand: {now:#?}"
    );
    assert_eq!(now.buttons, hand.buttons, "the hand changed: {now:#?}");
    running.shutdown().await;
    fake.assert_nothing_refused();
}

const EVA: i64 = 25;
const FOUR: [i64; 4] = [ANNA, BRUNO, CILDA, EVA];

/// Everything a member's client (`Fake::member_client`) has received, by its `getUpdates`.
async fn updates_of(client: &teloxide::Bot) -> Vec<serde_json::Value> {
    // A client of its own: no 429 of the bot's holds it back (chat 0: none).
    let hold = stikis_telegram::ephemeral::Hold::default();
    stikis_telegram::ephemeral::call(client, &hold, 0, "getUpdates", &serde_json::json!({"offset": 0}))
        .await
        .expect("a member's getUpdates")
}

/// The ephemeral messages among a client's updates.
fn ephemeral_updates(updates: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    updates
        .iter()
        .filter_map(|u| u.get("message").or(u.get("edited_message")))
        .filter(|m| m.get("ephemeral_message_id").is_some())
        .collect()
}

/// A whole Zole deal of four people (the dealer sits it out) played from hands in the group:
/// each hand reaches its receiver's client alone, by that client's own `getUpdates`; Dora, a
/// member who does not play, gets every public message and no hand; after every card its
/// player's client gets the hand's edit without it; every hand ends with no buttons.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_zole_deal_of_four_is_played_from_hands_that_only_their_receivers_clients_get() {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("four.db")).await;
    let dora = fake.member_client(DORA);
    let clients: Vec<(i64, teloxide::Bot)> = FOUR.iter().map(|&u| (u, fake.member_client(u))).collect();
    let table = fake::open_table(&fake, GROUP, &FOUR, "/zole 4", "off", |_| {}).await;
    // Three play, each with 8 cards; the fourth sits out.
    let hands = fake
        .until("three hands of 8 cards in the group", |f| {
            let h: Vec<_> = FOUR
                .iter()
                .filter_map(|&u| f.ephemerals_of(GROUP, u).into_iter().next())
                .filter(|e| cards_in(&e.text).len() == 8)
                .collect();
            (h.len() == 3).then_some(h)
        })
        .await;
    let playing: Vec<i64> = hands.iter().map(|e| e.receiver).collect();
    let mut presses: Vec<(i64, i64, String)> = Vec::new();
    while results(&fake) == 0 {
        let next = fake
            .until("someone to act", |f| {
                if results(f) > 0 {
                    return Some(None);
                }
                FOUR.into_iter().find_map(|u| move_of(f, u).map(|m| Some((u, m))))
            })
            .await;
        let Some((user, (id, data, label))) = next else {
            break;
        };
        assert!(playing.contains(&user), "{user} sits this deal out");
        let cq = fake.press_ephemeral(GROUP, user, id, &data);
        let answer = fake.answered(&cq).await;
        assert_eq!(answer["text"], format!("✓ {label}"), "{answer}");
        fake.until("the presser's hand redrawn", |f| {
            let now = f.ephemerals_of(GROUP, user).into_iter().find(|e| e.id == id)?;
            (!now.pressable().iter().any(|b| b.data == data) || results(f) > 0).then_some(())
        })
        .await;
        presses.push((user, id, data));
        assert!(presses.len() < 200, "a deal takes fewer presses");
        let (hidden, leaked) = leaks(&running, table, &fake).await;
        assert!(leaked.is_empty(), "the group saw {leaked:?} ({hidden} hidden)");
    }
    let cards: Vec<&(i64, i64, String)> = presses
        .iter()
        .filter(|(_, _, d)| Token::decode(d).is_ok_and(|t| t.action.starts_with("p:")))
        .collect();
    assert!(cards.len() >= 3, "{presses:?}");
    // Every hand of the deal ends with no buttons and no card.
    fake.until("every hand in its final state", |f| {
        playing
            .iter()
            .all(|&u| {
                f.ephemerals_of(GROUP, u).first().is_some_and(|e| {
                    e.buttons.iter().all(Vec::is_empty)
                        && cards_in(e.text.lines().next().unwrap_or("")).is_empty()
                })
            })
            .then_some(())
    })
    .await;
    // What each client got by getUpdates: its own ephemeral messages alone, every state of
    // them the fake showed.
    for (u, client) in &clients {
        // The next deal is being dealt meanwhile: read when the two agree (the states the
        // fake took for them first, so the client's can only have caught up).
        let shown_to = |f: &Fake| {
            f.state
                .lock()
                .unwrap()
                .eph
                .history
                .iter()
                .filter(|(r, ..)| r == u)
                .count()
        };
        let mut tries = 0;
        let updates = loop {
            let shown = shown_to(&fake);
            let updates = updates_of(client).await;
            let got = ephemeral_updates(&updates).len();
            if got == shown && shown_to(&fake) == shown {
                break updates;
            }
            tries += 1;
            assert!(
                tries < 100,
                "{u}'s client got {got} states of the {shown} shown to {u}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let mine = ephemeral_updates(&updates);
        for m in &mine {
            assert_eq!(m["receiver_user"]["id"], *u, "{u}'s client got {m}");
        }
        // Each card's hand edit reached its player's client: the hand without that button.
        for (_, id, data) in cards.iter().filter(|(who, ..)| who == u) {
            assert!(
                mine.iter().any(|m| {
                    m["ephemeral_message_id"] == *id
                        && !m["reply_markup"]["inline_keyboard"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .flat_map(|r| r.as_array().into_iter().flatten())
                            .any(|b| b["callback_data"] == data.as_str())
                }),
                "{u}'s client never got the hand after {data}"
            );
        }
        if !playing.contains(u) {
            // Deal 1's message (the first, id 1: ids count per receiver); the next deal
            // deals them in.
            let deal1: Vec<_> = mine.iter().filter(|m| m["ephemeral_message_id"] == 1).collect();
            assert!(!deal1.is_empty(), "{u} sat out and got no message");
            assert!(
                deal1
                    .iter()
                    .all(|m| cards_in(m["text"].as_str().unwrap_or("")).is_empty()),
                "the one sitting out was dealt cards: {deal1:?}"
            );
        }
        assert!(fake.messages(*u).is_empty(), "{u} got a private message");
    }
    // Dora's client got the group's messages, and no hand.
    let updates = updates_of(&dora).await;
    assert!(
        updates.iter().any(|u| u.get("message").is_some()),
        "Dora's client got nothing: {updates:?}"
    );
    assert!(ephemeral_updates(&updates).is_empty(), "{updates:#?}");
    let hand_texts: Vec<String> = fake
        .state
        .lock()
        .unwrap()
        .eph
        .history
        .iter()
        .map(|(_, _, t, _)| t.lines().next().unwrap_or("").to_string())
        .filter(|h| cards_in(h).len() > 1)
        .collect();
    for u in &updates {
        let m = u.get("message").or(u.get("edited_message")).unwrap();
        let text = m["text"].as_str().unwrap_or("");
        assert!(
            !hand_texts.iter().any(|h| text.contains(h.as_str())),
            "Dora's client got a hand: {text}"
        );
    }
    running.shutdown().await;
    fake.assert_nothing_refused();
}

/// Belote's and Polt's decisions (bids, trumps, exchanges, cards) are made from a hand in
/// the group: Anna at a table with computer players plays from her ephemeral hand alone.
async fn decisions_from_the_hand_in_the_group(command: &str, bots: &[usize], wanted: usize) {
    let dir = tempfile::tempdir().unwrap();
    let fake = modern_fake().await;
    let running = bot(&fake, &dir.path().join("g.db")).await;
    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, command, None);
    fake.until("the lobby", |f| button(f, "join")).await;
    for n in bots {
        fake.say(GROUP, ANNA, &format!("/bots {n}"), None);
    }
    fake.say(GROUP, ANNA, "/go", None);
    fake.until("Anna's hand in the group", |f| {
        f.ephemerals_of(GROUP, ANNA).into_iter().next()
    })
    .await;
    // Deals go on until she has made decisions of two kinds at least (a card and a bid, a
    // trump, an exchange), or a few deals are over.
    let mut kinds = std::collections::BTreeSet::new();
    let mut made = 0;
    while (made < wanted || kinds.len() < 2) && results(&fake) < 4 {
        let (id, data, label) = fake.until("Anna to act", |f| move_of(f, ANNA)).await;
        let cq = fake.press_ephemeral(GROUP, ANNA, id, &data);
        let answer = fake.answered(&cq).await;
        assert_eq!(answer["text"], format!("✓ {label}"), "{answer} for {data}");
        let action = Token::decode(&data).unwrap().action;
        kinds.insert(action.split(':').next().unwrap_or("").to_string());
        fake.until("Anna's hand redrawn", |f| {
            let now = f.ephemerals_of(GROUP, ANNA).into_iter().find(|e| e.id == id)?;
            let newer = f.ephemerals_of(GROUP, ANNA).last().is_some_and(|e| e.id != id);
            (!now.pressable().iter().any(|b| b.data == data) || newer).then_some(())
        })
        .await;
        made += 1;
    }
    assert!(made >= wanted, "{made} decisions: {kinds:?}");
    assert!(kinds.len() >= 2, "one kind of decision only: {kinds:?}");
    assert!(fake.messages(ANNA).is_empty(), "{:?}", fake.messages(ANNA));
    for other in [BRUNO, DORA] {
        assert!(fake.ephemerals_of(GROUP, other).is_empty());
    }
    running.shutdown().await;
    fake.assert_nothing_refused();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn belote_decisions_are_made_from_the_hand_in_the_group() {
    decisions_from_the_hand_in_the_group("/belote", &[3], 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polt_decisions_are_made_from_the_hand_in_the_group() {
    decisions_from_the_hand_in_the_group("/polt", &[3, 1], 6).await;
}
