//! Whole sessions of Polt to Tzar through the host with the recording fake adapter: 5, 6 and 7
//! seats with people and computer players, the exchange kept between giver and receiver
//! (every public message checked against the cards in hands and the unused ones), forced
//! returns, bad presses, a restart mid-hand, and the record the finished table posts
//! replaying to the table's totals (tricks).

use crate::common;

use common::{
    chat, check_privacy, check_seeds, config, dm, file_of, log_of, send, sqlite, step, table_id, user,
    Screen, Table,
};
use serde_json::{json, Value};
use stikis_core::ai::Level;
use stikis_host::store::Store;
use stikis_host::token::Token;
use stikis_host::{Command, Host, Out, User};

async fn open(store: Store, seats: usize, hands: u32, people: &[&str]) -> Table {
    let (host, _events) = Host::new(store, config());
    let mut screen = Screen::default();
    let g = chat("g");
    send(
        &host,
        &mut screen,
        g.clone(),
        &user("admin", true),
        Command::SetTurnLimit(None),
    )
    .await;
    let people: Vec<User> = people.iter().map(|p| user(p, false)).collect();
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: "polt".into(),
            rules: Some(json!({"preset": "default", "hands": hands})),
            seats: Some(seats),
        },
    )
    .await;
    assert!(out.reply_text().unwrap().contains(&people[0].name), "{out:?}");
    let table = table_id(&screen);
    for p in &people[1..] {
        let join = screen.lobby_token("join");
        send(&host, &mut screen, g.clone(), p, Command::press(join)).await;
    }
    for _ in people.len()..seats {
        send(
            &host,
            &mut screen,
            g.clone(),
            &people[0],
            Command::AddBot { level: Level::Basic },
        )
        .await;
    }
    let out = send(&host, &mut screen, g.clone(), &people[0], Command::Start).await;
    assert!(out.0.iter().any(|o| o.text().contains("begins")), "{out:?}");
    Table {
        host,
        screen,
        table,
        people,
        g,
        checked: 0,
        finish: None,
        rng: 11,
    }
}

#[tokio::test]
async fn sessions_of_five_six_and_seven_play_out_and_their_records_replay_to_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    for (seats, people) in [
        (5, &["anna", "bruno"][..]),
        (6, &["anna", "bruno", "cilda"][..]),
        (7, &["anna"][..]),
    ] {
        let mut t = open(sqlite(&dir, &format!("{seats}.db")).await, seats, 2, people).await;
        let mut presses = 0;
        while step(&mut t).await {
            presses += 1;
            assert!(presses < 2_000, "the session does not progress");
        }
        assert!(
            t.screen.hidden_compared > 0,
            "{seats} seats: the privacy checks compared no hidden card"
        );
        assert_eq!(t.deals_done(), 2, "{seats} seats");
        let out = t.finish.as_ref().expect("the session ended after its hands");
        let rec = file_of(out).expect("the finished table posts its record");
        assert_eq!(rec["game"], "polt");
        assert_eq!(rec["deals"].as_array().unwrap().len(), 2);
        let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
        // Every hand carries the seed revealed with its result, which replay checks.
        check_seeds(&t.screen, &rec);
        // The table's totals are the tricks of the session, seat by seat.
        let mut totals = vec![0; seats];
        for d in replayed["deals"].as_array().unwrap() {
            for (s, n) in d["tricks"].as_array().unwrap().iter().enumerate() {
                totals[s] += n.as_i64().unwrap();
            }
        }
        let names = rec["players"].as_array().unwrap();
        let shown: Vec<String> = names
            .iter()
            .zip(&totals)
            .map(|(n, p)| format!("{} {p}", n.as_str().unwrap()))
            .collect();
        let over = out
            .0
            .iter()
            .find(|o| o.text().starts_with("The game is over."))
            .unwrap()
            .text();
        assert!(
            over.contains(&format!("Totals: {}", shown.join(" · "))),
            "{over}\n{replayed}"
        );
        // The last hand's result names the new ranks and the final Tzar.
        let last = t
            .screen
            .posts
            .iter()
            .rev()
            .find(|p| p.starts_with("Result of hand 2"))
            .unwrap();
        assert!(
            last.contains("New ranks: Tzar:") && last.contains("is the Tzar."),
            "{last}"
        );
    }
}

/// The newest hand text of `user`.
fn hand_text(t: &Table, user: &str) -> String {
    t.screen.my_hand(user).map(|h| h.1.clone()).unwrap_or_default()
}

#[tokio::test]
async fn the_exchange_is_private_and_returns_are_forced() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["anna", "bruno", "cilda", "dita", "edgars"];
    let mut t = open(sqlite(&dir, "x.db").await, 5, 1, &names).await;
    // Every card is hidden (hands and the 3 unused), so the privacy checks check something.
    assert_eq!(t.host.hidden_cards(t.table, 1).await.len(), 53);
    // Everybody is a person: the Tzar gives first.
    let tzar = t
        .people
        .iter()
        .find(|p| !t.screen.my_buttons(&p.id).is_empty())
        .cloned()
        .unwrap();
    assert!(
        hand_text(&t, &tzar.id).contains("You are Tzar."),
        "{}",
        hand_text(&t, &tzar.id)
    );
    assert!(hand_text(&t, &tzar.id).contains("Choose a card to give."));
    let buttons = t.screen.my_buttons(&tzar.id);
    assert_eq!(buttons.len(), 10, "the Tzar may give any card: {buttons:?}");
    let (label, token) = buttons[0].clone();
    send(&t.host, &mut t.screen, dm(&tzar.id), &tzar, Command::press(token)).await;
    check_privacy(&t.host, t.table, &mut t.screen, &mut t.checked).await;
    assert!(hand_text(&t, &tzar.id).contains(&format!("You gave {label}.")));
    // The Polt sees the card and may return only what the rule allows.
    let polt = t
        .people
        .iter()
        .find(|p| !t.screen.my_buttons(&p.id).is_empty())
        .cloned()
        .unwrap();
    let text = hand_text(&t, &polt.id);
    assert!(
        text.contains("You are Polt.") && text.contains(&format!("You received {label}.")),
        "{text}"
    );
    assert!(
        text.contains("Return your highest") || text.contains("received the joker"),
        "{text}"
    );
    let allowed = t.screen.my_buttons(&polt.id);
    let table_msg = t.screen.latest[&format!("t{}.d1", t.table)].1.clone();
    assert!(
        table_msg.contains(&format!("{} gives {} a card", tzar.name, polt.name))
            && !table_msg.contains(&label),
        "{table_msg}"
    );
    // Nobody else hears of the card.
    for p in &t.people {
        if p.id != tzar.id && p.id != polt.id {
            assert!(!hand_text(&t, &p.id).contains(&label), "{}", p.id);
        }
    }
    // A forged return of a card the rule does not allow is refused, naming the rule.
    let rec = log_of(&t.host, t.table).await;
    let polt_seat = rec["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n == &Value::String(polt.name.clone()))
        .unwrap();
    let dealt: Vec<String> = rec["deals"][0]["hands"][polt_seat]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let tok = Token::decode(&allowed[0].1).unwrap();
    let allowed_codes: Vec<String> = allowed
        .iter()
        .map(|b| Token::decode(&b.1).unwrap().action)
        .collect();
    let wrong = dealt
        .iter()
        .map(|c| format!("r:{c}"))
        .find(|code| !allowed_codes.contains(code))
        .expect("a hand of 10 holds a card that may not be returned");
    let forged = Token::new(tok.table, tok.seq, wrong).encode().unwrap();
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&polt.id),
        &polt,
        Command::press(forged),
    )
    .await;
    let reply = out.reply_text().unwrap();
    assert!(
        reply.starts_with("You must give back ") && !reply.contains("seat"),
        "{out:?}"
    );
    assert_eq!(log_of(&t.host, t.table).await, rec);
    // Out of turn, and a stranger.
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&tzar.id),
        &tzar,
        Command::press(allowed[0].1.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("It is not your turn."));
    let out = send(
        &t.host,
        &mut t.screen,
        dm("zane"),
        &user("zane", false),
        Command::press(allowed[0].1.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("You are not playing at this table."));
    // The allowed return goes through once; pressed again it is stale.
    let token = allowed[0].1.clone();
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&polt.id),
        &polt,
        Command::press(token.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    let out = send(&t.host, &mut t.screen, dm(&polt.id), &polt, Command::press(token)).await;
    assert_eq!(
        out.reply_text(),
        Some("That button is out of date; use the newest message.")
    );
    check_privacy(&t.host, t.table, &mut t.screen, &mut t.checked).await;
    // The hand plays out; the exchange never reaches a public message.
    while step(&mut t).await {}
    assert!(t.finish.is_some());
    assert!(
        t.screen.hidden_compared > 0,
        "the privacy checks compared no hidden card"
    );
    assert!(t
        .screen
        .public_texts
        .iter()
        .any(|(_, p)| p.contains("exchanged a card")));
    // One line per pair: the Tzar and the Polt swap two cards and are named once for it.
    assert!(t
        .screen
        .public_texts
        .iter()
        .any(|(_, p)| p.contains("exchanged 2 cards")));
    for (_, p) in &t.screen.public_texts {
        for line in p.lines() {
            let parts: Vec<&str> = line.split(" · ").collect();
            let unique: std::collections::HashSet<&&str> = parts.iter().collect();
            assert_eq!(unique.len(), parts.len(), "a repeated part in {line:?}");
        }
    }
}

#[tokio::test]
async fn a_restart_mid_hand_gives_the_same_record_as_an_uninterrupted_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut whole = open(sqlite(&dir, "whole.db").await, 6, 3, &["anna", "bruno"]).await;
    while whole.deals_done() < 2 {
        assert!(step(&mut whole).await);
    }
    let expected = log_of(&whole.host, whole.table).await;

    let mut first = open(sqlite(&dir, "cut.db").await, 6, 3, &["anna", "bruno"]).await;
    while first.deals_done() < 1 {
        assert!(step(&mut first).await);
    }
    for _ in 0..3 {
        assert!(step(&mut first).await);
    }
    assert!(
        !first
            .host
            .hidden_cards(first.table, first.deals_done() + 1)
            .await
            .is_empty(),
        "the cut is in the middle of a hand"
    );
    let Table {
        screen,
        table,
        people,
        g,
        checked,
        rng,
        ..
    } = first;
    let (host, _events) = Host::new(sqlite(&dir, "cut.db").await, config());
    let out = host.recover().await.unwrap();
    assert!(out.0.iter().any(|o| matches!(o, Out::Public { .. })));
    let mut second = Table {
        host,
        screen,
        table,
        people,
        g,
        checked,
        finish: None,
        rng,
    };
    second.screen.show(&out);
    while second.deals_done() < 2 {
        assert!(step(&mut second).await);
    }
    assert_eq!(log_of(&second.host, second.table).await, expected);
}
