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
