//! A lobby survives a restart whole: the number of seats it was opened with is stored with the
//! table, so a restarted host still waits for as many players before it auto-starts.

use std::sync::Arc;

use stikis_core::Seed;
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, User};

fn user(id: &str) -> User {
    User {
        id: id.into(),
        name: id.to_uppercase(),
        admin: false,
    }
}

fn config() -> HostConfig {
    HostConfig {
        bot_budget_ms: 20,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    }
}

async fn send(host: &Arc<Host>, u: &User, command: Command) -> Outbox {
    host.handle(Request {
        chat: ChatRef::new(Platform::Telegram, "group-1", "g"),
        user: u.clone(),
        command,
    })
    .await
}

/// The lobby message's text in an outbox, if it has one.
fn lobby_text(out: &Outbox) -> Option<&str> {
    out.0.iter().find_map(|o| match o {
        Out::Public { key, text, .. } if key.ends_with(".lobby") => Some(text.as_str()),
        _ => None,
    })
}

/// Whether the outbox shows a running table (a table message that is not the lobby).
fn started(out: &Outbox) -> bool {
    out.0
        .iter()
        .any(|o| matches!(o, Out::Public { key, .. } if !key.ends_with(".lobby")))
}

#[tokio::test]
async fn a_restarted_lobby_waits_for_the_seats_it_was_opened_with() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lobby.db");
    let path = path.to_str().unwrap();
    let (anna, bruno, carl, dana) = (user("anna"), user("bruno"), user("carl"), user("dana"));
    {
        let (host, _events) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
        let admin = User {
            admin: true,
            ..user("admin")
        };
        send(&host, &admin, Command::SetAutoStart(true)).await;
        let out = send(
            &host,
            &anna,
            Command::NewTable {
                game: "zole".into(),
                rules: None,
                seats: Some(4),
            },
        )
        .await;
        let lobby = lobby_text(&out).expect("a lobby message");
        assert!(lobby.contains("Waiting for 3 more players."), "{lobby}");
        host.store().close().await;
    }
    let (host, _events) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
    host.recover().await.unwrap();
    let out = send(&host, &bruno, Command::Join).await;
    let lobby = lobby_text(&out).expect("the lobby is redrawn");
    assert!(lobby.contains("Waiting for 2 more players."), "{lobby}");
    // Three players would make a Zole table, but this one was opened for four.
    let out = send(&host, &carl, Command::Join).await;
    assert!(!started(&out), "a four-seat lobby started with three: {out:?}");
    let lobby = lobby_text(&out).expect("the lobby is redrawn");
    assert!(lobby.contains("Waiting for one more player."), "{lobby}");
    let out = send(&host, &dana, Command::Join).await;
    assert!(started(&out), "a full lobby auto-starts: {out:?}");
    let out = send(&host, &anna, Command::Record).await;
    let record = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::File { content, .. } => Some(serde_json::from_str::<serde_json::Value>(content).unwrap()),
            _ => None,
        })
        .expect("the record is sent as a file");
    assert_eq!(record["players"].as_array().map(Vec::len), Some(4), "{record}");
}

/// Opens a belote table for Anna with three computer players.
async fn belote_with_bots(host: &Arc<Host>, anna: &User) -> Outbox {
    let out = send(
        host,
        anna,
        Command::NewTable {
            game: "belote-bazar".into(),
            rules: None,
            seats: None,
        },
    )
    .await;
    assert!(out.reply_text().unwrap().contains("Bazar belote"), "{out:?}");
    assert!(
        out.0.iter().all(|o| !o.text().contains("belote-bazar")),
        "no game id in a text: {out:?}"
    );
    for _ in 0..3 {
        send(
            host,
            anna,
            Command::AddBot {
                level: stikis_core::ai::Level::Basic,
            },
        )
        .await;
    }
    send(host, anna, Command::Start).await
}

#[tokio::test]
async fn the_start_replaces_the_lobby_buttons_and_a_second_start_posts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("start.db");
    let (host, _events) = Host::new(
        Store::open_sqlite(path.to_str().unwrap()).await.unwrap(),
        config(),
    );
    let (anna, eve) = (user("anna"), user("eve"));
    let out = belote_with_bots(&host, &anna).await;
    assert!(started(&out), "{out:?}");
    let lobby = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::Public {
                key, text, buttons, ..
            } if key.ends_with(".lobby") => Some((text, buttons)),
            _ => None,
        })
        .expect("the lobby message is redrawn at the start");
    assert!(
        lobby.0.starts_with("Bazar belote: the game has started."),
        "{}",
        lobby.0
    );
    assert!(
        lobby.1.is_empty(),
        "no Join / Leave / Add computer / Start after the start"
    );
    // Computer players are named in the reader's language, here the chat's English.
    assert!(lobby.0.contains("2. Computer 2"), "{}", lobby.0);
    assert!(!lobby.0.contains("Dators"), "{}", lobby.0);
    // /go again, by someone without a seat: an answer to them, nothing for the group.
    for who in [&eve, &anna] {
        let out = send(&host, who, Command::Start).await;
        assert_eq!(out.0.len(), 1, "only an answer: {out:?}");
        assert_eq!(
            out.reply_text(),
            Some("The game is already on: nothing to start.")
        );
    }
}

async fn send_in(host: &Arc<Host>, chat: &ChatRef, u: &User, command: Command) -> Outbox {
    host.handle(Request {
        chat: chat.clone(),
        user: u.clone(),
        command,
    })
    .await
}

/// The lobby message's buttons in an outbox: (label, token action).
fn lobby_buttons(out: &Outbox) -> Vec<(String, String)> {
    out.0
        .iter()
        .rev()
        .find_map(|o| match o {
            Out::Public { key, buttons, .. } if key.ends_with(".lobby") => Some(
                buttons
                    .iter()
                    .flatten()
                    .map(|b| {
                        let action = stikis_host::token::Token::decode(&b.token).unwrap().action;
                        (b.label.clone(), b.token.clone() + "|" + &action)
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

/// The token of the lobby button whose label is `label`.
fn lobby_button(out: &Outbox, label: &str) -> Option<String> {
    lobby_buttons(out)
        .into_iter()
        .find(|(l, _)| l == label)
        .map(|(_, t)| t.split('|').next().unwrap().to_string())
}

/// The posts of an outbox, with their `once` keys.
fn posts(out: &Outbox) -> Vec<(String, Option<String>)> {
    out.0
        .iter()
        .filter_map(|o| match o {
            Out::Post { text, once, .. } => Some((text.clone(), once.clone())),
            _ => None,
        })
        .collect()
}

fn zole(seats: Option<usize>) -> Command {
    Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats,
    }
}

/// A Zole lobby says how to open the other sizes; the fourth person who finds it full is
/// named in the chat with the way to a seat, and the lobby's "one more seat" button seats
/// them at a table of four, which a restarted host keeps; at five seats Zole is full for good.
#[tokio::test]
async fn a_full_zole_lobby_offers_one_more_seat_and_says_so_publicly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seats.db");
    let path = path.to_str().unwrap();
    let (anna, bruno, carl, dana) = (user("anna"), user("bruno"), user("carl"), user("dana"));
    let (host, _events) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
    let out = send(&host, &anna, zole(None)).await;
    let lobby = lobby_text(&out).expect("a lobby message");
    assert!(
        lobby.ends_with("For another number of players: /zole 4, /zole 5"),
        "{lobby}"
    );
    assert!(lobby_button(&out, "➕ Seat 4").is_none(), "seats are free");
    send(&host, &bruno, Command::Join).await;
    let out = send(&host, &carl, Command::Join).await;
    let add = lobby_button(&out, "➕ Seat 4").expect("a full lobby offers one more seat");
    // Dana finds it full: she is told so, and the chat is told how she gets a seat.
    let out = send(&host, &dana, Command::Join).await;
    assert_eq!(out.reply_text(), Some("The table is full."));
    assert_eq!(
        posts(&out),
        vec![(
            "DANA would like to play, but the table is full: press “➕ Seat 4” under it to take \
             one more seat."
                .to_string(),
            Some(format!("t{}.full.dana", table_of(&add)))
        )]
    );
    // Somebody seated who presses it is only answered.
    let out = send(&host, &bruno, Command::press(add.clone())).await;
    assert_eq!(out.reply_text(), Some("You already sit at this table."));
    assert!(posts(&out).is_empty() && lobby_text(&out).is_none(), "{out:?}");
    let out = send(&host, &dana, Command::press(add.clone())).await;
    assert_eq!(out.reply_text(), Some("DANA sits down at seat 4."));
    let lobby = lobby_text(&out).expect("the lobby is redrawn");
    assert!(lobby.contains("4. DANA"), "{lobby}");
    assert!(
        lobby.ends_with("For another number of players: /zole 3, /zole 5"),
        "{lobby}"
    );
    let five = lobby_button(&out, "➕ Seat 5").expect("Zole takes five");
    drop(host);

    // A restarted host reads the added seat from the seats taken.
    let (host, _events) = Host::new(Store::open_sqlite(path).await.unwrap(), config());
    host.recover().await.unwrap();
    let (eve, fred) = (user("eve"), user("fred"));
    let out = send(&host, &eve, Command::press(five)).await;
    assert_eq!(out.reply_text(), Some("EVE sits down at seat 5."));
    assert!(
        lobby_button(&out, "➕ Seat 6").is_none(),
        "Zole has five seats at most"
    );
    // Full at five: nothing more to offer, so only Fred is told.
    let out = send(&host, &fred, Command::Join).await;
    assert_eq!(out.reply_text(), Some("The table is full."));
    assert!(posts(&out).is_empty(), "{out:?}");
    let out = send(&host, &anna, Command::Start).await;
    assert!(started(&out), "{out:?}");
    let record = send(&host, &anna, Command::Record).await;
    assert!(record.0.iter().any(|o| matches!(o, Out::File { .. })));
    let seats = host.store().seats(table_of(&add)).await.unwrap();
    assert_eq!(seats.len(), 5);
}

fn table_of(token: &str) -> i64 {
    stikis_host::token::Token::decode(token).unwrap().table
}

/// A running table answers "full" as before, and the chat learns the commands for more
/// players; on Discord they are written with the command's option. A game of one size says
/// nothing of sizes.
#[tokio::test]
async fn a_full_running_table_names_the_commands_for_more_players_per_platform() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("running.db");
    let (host, _events) = Host::new(
        Store::open_sqlite(path.to_str().unwrap()).await.unwrap(),
        config(),
    );
    let (anna, eve) = (user("anna"), user("eve"));
    let discord = ChatRef::new(Platform::Discord, "guild-1", "channel-1");
    let out = send_in(&host, &discord, &anna, zole(None)).await;
    let lobby = lobby_text(&out).expect("a lobby message");
    assert!(
        lobby.ends_with("For another number of players: /zole players:4, /zole players:5"),
        "{lobby}"
    );
    for _ in 0..2 {
        send_in(
            &host,
            &discord,
            &anna,
            Command::AddBot {
                level: stikis_core::ai::Level::Basic,
            },
        )
        .await;
    }
    let out = send_in(&host, &discord, &anna, Command::Start).await;
    assert!(started(&out), "{out:?}");
    let out = send_in(&host, &discord, &eve, Command::Join).await;
    assert_eq!(out.reply_text(), Some("The table is full."));
    assert_eq!(
        posts(&out).into_iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![
            "EVE would like to play, but the table is full. After this game, a table for more \
             players: /zole players:4, /zole players:5"
                .to_string()
        ]
    );
    // Belote is played by four: its lobby names no sizes, and a full one posts nothing.
    let out = belote_with_bots(&host, &anna).await;
    assert!(
        out.0.iter().all(|o| !o.text().contains("number of players")),
        "{out:?}"
    );
    let out = send(&host, &eve, Command::Join).await;
    assert_eq!(out.reply_text(), Some("The table is full."));
    assert!(posts(&out).is_empty(), "{out:?}");
}

/// A lobby started with a seat left empty between taken ones (a player left after the table
/// grew) seats its players 1..n first, so the game is played by exactly them.
#[tokio::test]
async fn a_lobby_with_an_empty_seat_between_players_starts_a_playable_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gap.db");
    let (host, _events) = Host::new(
        Store::open_sqlite(path.to_str().unwrap()).await.unwrap(),
        config(),
    );
    let (anna, bruno, carl, dana) = (user("anna"), user("bruno"), user("carl"), user("dana"));
    send(&host, &anna, zole(None)).await;
    send(&host, &bruno, Command::Join).await;
    let out = send(&host, &carl, Command::Join).await;
    let add = lobby_button(&out, "➕ Seat 4").unwrap();
    send(&host, &dana, Command::press(add.clone())).await;
    let out = send(&host, &bruno, Command::Leave).await;
    let lobby = lobby_text(&out).unwrap();
    assert!(lobby.contains("Waiting for one more player."), "{lobby}");
    let out = send(&host, &anna, Command::Start).await;
    assert!(started(&out), "{out:?}");
    let seats = host.store().seats(table_of(&add)).await.unwrap();
    let names: Vec<(u8, &str)> = seats.iter().map(|s| (s.seat, s.name.as_str())).collect();
    assert_eq!(names, vec![(0, "ANNA"), (1, "CARL"), (2, "DANA")]);
    // Everybody has a hand, and whoever is to act can play.
    let mut hands = std::collections::HashMap::new();
    for o in &out.0 {
        if let Out::Private { user, buttons, .. } = o {
            hands.insert(user.clone(), buttons.clone());
        }
    }
    assert_eq!(hands.len(), 3, "{out:?}");
    let (who, buttons) = hands
        .iter()
        .find(|(_, b)| !b.is_empty())
        .expect("somebody is to act");
    let out = send(&host, &user(who), Command::press(buttons[0][0].token.clone())).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
}
