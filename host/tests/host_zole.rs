//! Whole Zole games through the host with a recording fake adapter: lobby, presses in private
//! chats, computer players, every kind of bad press, the privacy of every public message, a
//! restart mid-deal, and the turn timers (tokio's paused clock).

mod common;

use std::sync::Arc;

use common::{chat, check_privacy, config, dm, record_of, send, sqlite, table_id, user, Screen};
use serde_json::Value;
use stikis_core::ai::Level;
use stikis_host::store::Store;
use stikis_host::token::Token;
use stikis_host::{Command, Host, Out, Outbox, User};
use tokio::sync::mpsc::UnboundedReceiver;

struct Game {
    host: Arc<Host>,
    /// Timer outboxes (warnings, moves for absent players).
    events: UnboundedReceiver<Outbox>,
    screen: Screen,
    table: i64,
    anna: User,
    bruno: User,
}

async fn open(store: Store) -> Game {
    open_with(store, None).await
}

/// Opens a Zole table for Anna, Bruno and a computer player, with `turn_limit` seconds per
/// move, and starts it.
async fn open_with(store: Store, turn_limit: Option<u32>) -> Game {
    let (host, events) = Host::new(store, config());
    let mut screen = Screen::default();
    let anna = user("anna", false);
    let bruno = user("bruno", false);
    let g = chat("g");
    send(&host, &mut screen, g.clone(), &anna, Command::SetTurnLimit(None)).await;
    send(
        &host,
        &mut screen,
        g.clone(),
        &user("admin", true),
        Command::SetTurnLimit(turn_limit),
    )
    .await;
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &anna,
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    assert!(out.reply_text().unwrap().contains("ANNA"), "{out:?}");
    let table = table_id(&screen);
    let join = screen.lobby_token("join");
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &bruno,
        Command::Press { token: join.clone() },
    )
    .await;
    assert!(out.reply_text().unwrap().contains("BRUNO"));
    // Joining twice changes nothing.
    let out = send(&host, &mut screen, g.clone(), &bruno, Command::Join).await;
    assert_eq!(out.reply_text(), Some("You already sit at this table."));
    // Only the creator (or an admin) adds computer players and starts.
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &bruno,
        Command::AddBot { level: Level::Basic },
    )
    .await;
    assert_eq!(
        out.reply_text(),
        Some("Only the table's creator or an admin may do that.")
    );
    send(
        &host,
        &mut screen,
        g.clone(),
        &anna,
        Command::AddBot { level: Level::Basic },
    )
    .await;
    send(&host, &mut screen, g.clone(), &anna, Command::Start).await;
    Game {
        host,
        events,
        screen,
        table,
        anna,
        bruno,
    }
}

/// Presses the first legal button of whoever of Anna and Bruno is to act, until `deals`
/// deals are over. Returns the number of presses.
async fn play(game: &mut Game, deals: usize, checked: &mut usize) -> usize {
    let mut presses = 0;
    while game
        .screen
        .posts
        .iter()
        .filter(|p| p.starts_with("Result of deal"))
        .count()
        < deals
    {
        let (who, token) = match (game.screen.my_button("anna"), game.screen.my_button("bruno")) {
            (Some(t), _) => (game.anna.clone(), t),
            (None, Some(t)) => (game.bruno.clone(), t),
            (None, None) => panic!("nobody can act:\n{:#?}", game.screen.latest),
        };
        let out = send(
            &game.host,
            &mut game.screen,
            dm(&who.id),
            &who,
            Command::Press { token },
        )
        .await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        check_privacy(&game.host, game.table, &mut game.screen, checked).await;
        presses += 1;
        assert!(presses < 2_000, "the game does not progress");
    }
    presses
}

async fn record(game: &mut Game) -> Value {
    let anna = game.anna.clone();
    record_of(&game.host, &mut game.screen, chat("g"), &anna).await
}

#[tokio::test]
async fn a_whole_game_through_the_host_keeps_hands_private_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = open(sqlite(&dir, "a.db").await).await;
    let mut checked = 0;
    play(&mut game, 4, &mut checked).await;
    let rec = record(&mut game).await;
    assert_eq!(rec["game"], "zole");
    assert_eq!(rec["players"], serde_json::json!(["ANNA", "BRUNO", "Dators 3"]));
    // The finished deals carry their seeds, and the whole record replays.
    assert!(rec["deals"][0]["seed"].is_string());
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    assert_eq!(
        replayed["deals"].as_array().unwrap().len(),
        rec["deals"].as_array().unwrap().len()
    );
    // Each deal's result reveals a seed whose SHA-256 was shown before the deal.
    let commits: Vec<&String> = game
        .screen
        .posts
        .iter()
        .filter(|p| p.contains("commitment"))
        .collect();
    assert!(commits.len() >= 4);
}

#[tokio::test]
async fn bad_presses_are_answered_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = open(sqlite(&dir, "b.db").await).await;
    let mut checked = 0;
    let g = chat("g");
    // Someone not at the table.
    let cilda = user("cilda", false);
    let token = game
        .screen
        .my_button("anna")
        .or(game.screen.my_button("bruno"))
        .unwrap();
    let before = record(&mut game).await;
    let out = send(
        &game.host,
        &mut game.screen,
        dm("cilda"),
        &cilda,
        Command::Press { token: token.clone() },
    )
    .await;
    assert_eq!(out.reply_text(), Some("You are not playing at this table."));
    // Garbage.
    let out = send(
        &game.host,
        &mut game.screen,
        g.clone(),
        &cilda,
        Command::Press { token: "zzz".into() },
    )
    .await;
    assert_eq!(out.reply_text(), Some("That button is not valid."));
    // Out of turn: a current token for the seat that is not to act.
    let (actor, idle) = if game.screen.my_button("anna").is_some() {
        (game.anna.clone(), game.bruno.clone())
    } else {
        (game.bruno.clone(), game.anna.clone())
    };
    let tok = Token::decode(&token).unwrap();
    let forged = Token::new(tok.table, tok.seq, tok.action.clone())
        .encode()
        .unwrap();
    let out = send(
        &game.host,
        &mut game.screen,
        dm(&idle.id),
        &idle,
        Command::Press { token: forged },
    )
    .await;
    assert_eq!(out.reply_text(), Some("It is not your turn."));
    assert_eq!(
        record(&mut game).await,
        before,
        "refused presses changed the table"
    );
    // A double press acts once: the second is stale.
    let out = send(
        &game.host,
        &mut game.screen,
        dm(&actor.id),
        &actor,
        Command::Press { token: token.clone() },
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    let after = record(&mut game).await;
    let out = send(
        &game.host,
        &mut game.screen,
        dm(&actor.id),
        &actor,
        Command::Press { token },
    )
    .await;
    assert_eq!(
        out.reply_text(),
        Some("That button is out of date; use the newest message.")
    );
    assert_eq!(record(&mut game).await, after);
    play(&mut game, 1, &mut checked).await;
}

#[tokio::test]
async fn a_restart_mid_deal_gives_the_same_record_as_an_uninterrupted_game() {
    let dir = tempfile::tempdir().unwrap();
    // Uninterrupted.
    let mut whole = open(sqlite(&dir, "whole.db").await).await;
    let mut checked = 0;
    play(&mut whole, 3, &mut checked).await;
    let expected = record(&mut whole).await;
    // Interrupted after a few presses: drop the host, open a new one on the same file.
    let mut first = open(sqlite(&dir, "cut.db").await).await;
    let mut checked = 0;
    for _ in 0..7 {
        let (who, token) = match (first.screen.my_button("anna"), first.screen.my_button("bruno")) {
            (Some(t), _) => (first.anna.clone(), t),
            (_, Some(t)) => (first.bruno.clone(), t),
            _ => unreachable!(),
        };
        send(
            &first.host,
            &mut first.screen,
            dm(&who.id),
            &who,
            Command::Press { token },
        )
        .await;
    }
    let screen = std::mem::take(&mut first.screen);
    drop(first);
    let (host, events) = Host::new(sqlite(&dir, "cut.db").await, config());
    let mut second = Game {
        host,
        events,
        screen,
        table: 1,
        anna: user("anna", false),
        bruno: user("bruno", false),
    };
    let out = second.host.recover().await.unwrap();
    second.screen.show(&out);
    assert!(
        out.0.iter().any(|o| matches!(o, Out::Public { .. })),
        "recovery refreshes the table message"
    );
    play(&mut second, 3, &mut checked).await;
    assert_eq!(record(&mut second).await, expected);
}

/// Collects timer outboxes until `until` appears in a post; returns every post seen.
async fn posts_until(game: &mut Game, events: &mut UnboundedReceiver<Outbox>, until: &str) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..200 {
        let out = events.recv().await.expect("the timers keep the table going");
        game.screen.show(&out);
        for o in &out.0 {
            if let Out::Post { text, .. } = o {
                seen.push(text.clone());
            }
        }
        if seen.iter().any(|p| p.contains(until)) {
            return seen;
        }
    }
    panic!("no {until:?} in {seen:#?}");
}

#[tokio::test]
async fn timeouts_warn_then_move_then_hand_the_seat_over_until_im_back() {
    let dir = tempfile::tempdir().unwrap();
    // Real time with one-second turns: tokio's paused clock would also fire sqlx's pool
    // timeouts at once. Nothing below asserts a duration, only the order of events.
    let store = sqlite(&dir, "t.db").await;
    let mut game = open_with(store, Some(1)).await;
    let mut events = std::mem::replace(&mut game.events, tokio::sync::mpsc::unbounded_channel().1);
    let (host, g) = (game.host.clone(), chat("g"));
    let (anna, bruno) = (game.anna.clone(), game.bruno.clone());
    // Nobody presses: first a warning at half time, then a computer move for the absent seat.
    let posts = posts_until(&mut game, &mut events, "ran out of time").await;
    assert!(posts.iter().any(|p| p.contains("1 second left")), "{posts:#?}");
    // Three timeouts in a row hand a seat to a computer player.
    let posts = posts_until(&mut game, &mut events, "is away").await;
    let away = posts.iter().find(|p| p.contains("is away")).unwrap();
    let who = if away.starts_with("ANNA") {
        anna.clone()
    } else {
        bruno.clone()
    };
    // The other person times out too; with both away the table waits instead of playing alone.
    posts_until(&mut game, &mut events, "is away").await;
    let before = record(&mut game).await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(
        record(&mut game).await,
        before,
        "a table with everybody away played on"
    );
    // "I'm back" returns the seat; the game goes on with that person to act or waiting.
    let out = send(&host, &mut game.screen, g.clone(), &who, Command::Back).await;
    assert_eq!(out.reply_text(), Some("Your turn."));
}
