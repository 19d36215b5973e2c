//! Whole Zole games through the host with a recording fake adapter: lobby, presses in private
//! chats, computer players, every kind of bad press, the privacy of every public message, a
//! restart mid-deal, and the turn timers (on tokio's paused clock).

use crate::common;

use std::sync::Arc;

use common::{chat, check_privacy, config, dm, log_of, record_of, send, sqlite, table_id, user, Screen};
use serde_json::Value;
use stikis_core::ai::Level;
use stikis_host::i18n::Lang;
use stikis_host::store::Store;
use stikis_host::token::Token;
use stikis_host::{Command, Host, Out, Outbox, Request, User};
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
        Command::press(join.clone()),
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
    let compared = game.screen.hidden_compared;
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
            Command::press(token),
        )
        .await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
        check_privacy(&game.host, game.table, &mut game.screen, checked).await;
        presses += 1;
        assert!(presses < 2_000, "the game does not progress");
    }
    assert!(
        presses == 0 || game.screen.hidden_compared > compared,
        "the privacy checks of {presses} presses compared no hidden card"
    );
    presses
}

/// The table's whole log, the deal in progress included.
async fn log(game: &Game) -> Value {
    log_of(&game.host, game.table).await
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
    // The chat's record holds the finished deals only: the one being played would show every
    // hand.
    let results = game
        .screen
        .posts
        .iter()
        .filter(|p| p.starts_with("Result of deal"))
        .count();
    assert_eq!(rec["deals"].as_array().unwrap().len(), results);
    assert!(
        log(&game).await["deals"].as_array().unwrap().len() > results,
        "a deal is in progress"
    );
    assert_eq!(rec["game"], "zole");
    assert_eq!(rec["players"], serde_json::json!(["ANNA", "BRUNO", "Computer 3"]));
    // The finished deals carry their seeds, and the whole record replays.
    assert!(rec["deals"][0]["seed"].is_string());
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    assert_eq!(
        replayed["deals"].as_array().unwrap().len(),
        rec["deals"].as_array().unwrap().len()
    );
    // Each deal's result reveals a seed whose SHA-256 was shown before the deal, short, in
    // the deal's table message; the whole of it and of the seed are only in the record.
    let deals = rec["deals"].as_array().unwrap();
    assert!(deals.len() >= 3);
    assert!(!game.screen.public_texts.is_empty(), "no public text to look at");
    for (i, d) in deals.iter().enumerate() {
        let hex = d["seed"].as_str().unwrap();
        let commitment = stikis_host::table::commitment(&hex.parse().unwrap());
        let short = stikis_host::table::fingerprint(&commitment);
        let table = game
            .screen
            .latest
            .iter()
            .find(|(k, _)| k.ends_with(&format!(".d{}", i + 1)))
            .map(|(_, m)| m.1.clone())
            .expect("the deal's table message");
        assert!(table.contains(&short), "deal {}: {table}", i + 1);
        for (_, text) in &game.screen.public_texts {
            assert!(!text.contains(hex) && !text.contains(&commitment), "{text}");
        }
    }
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
    let before = log(&game).await;
    let out = send(
        &game.host,
        &mut game.screen,
        dm("cilda"),
        &cilda,
        Command::press(token.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("You are not playing at this table."));
    // Garbage.
    let out = send(
        &game.host,
        &mut game.screen,
        g.clone(),
        &cilda,
        Command::press("zzz"),
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
        Command::press(forged),
    )
    .await;
    assert_eq!(out.reply_text(), Some("It is not your turn."));
    // A card pressed by the seat to act while the bidding is on (a forged or old card button):
    // a sentence about the bidding, in the presser's language, with no seat number.
    for (lang, want) in [
        (
            Lang::En,
            "The bidding is still on: cards are played once it is over.",
        ),
        (Lang::Lv, "Vēl notiek solīšana: kārtis liek, kad tā beigusies."),
    ] {
        send(
            &game.host,
            &mut game.screen,
            dm(&actor.id),
            &actor,
            Command::SetUserLang(lang),
        )
        .await;
        let forged = Token::new(tok.table, tok.seq, "p:QC".to_string())
            .encode()
            .unwrap();
        let out = send(
            &game.host,
            &mut game.screen,
            dm(&actor.id),
            &actor,
            Command::press(forged),
        )
        .await;
        let reply = out.reply_text().unwrap_or_default().to_string();
        assert_eq!(reply, want, "{lang:?}");
        assert!(!reply.contains("seat") && !reply.chars().any(|c| c.is_ascii_digit()));
    }
    send(
        &game.host,
        &mut game.screen,
        dm(&actor.id),
        &actor,
        Command::SetUserLang(Lang::En),
    )
    .await;
    assert_eq!(log(&game).await, before, "refused presses changed the table");
    // A double press acts once: the second is stale.
    let out = send(
        &game.host,
        &mut game.screen,
        dm(&actor.id),
        &actor,
        Command::press(token.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    let moved_to = out
        .0
        .iter()
        .filter_map(|o| match o {
            Out::Public { version, .. } => Some(*version),
            _ => None,
        })
        .max()
        .expect("the table message after the move");
    let after = log(&game).await;
    let out = send(
        &game.host,
        &mut game.screen,
        dm(&actor.id),
        &actor,
        Command::press(token.clone()),
    )
    .await;
    assert_eq!(
        out.reply_text(),
        Some("That button is out of date; use the newest message.")
    );
    assert_eq!(log(&game).await, after);
    // It comes with the presser's hand as it is now (the pressed copy may be out of date
    // until the table changes again), and only theirs.
    let hands: Vec<(&String, &Vec<Vec<stikis_host::Button>>, i64)> = out
        .0
        .iter()
        .filter_map(|o| match o {
            Out::Private {
                user,
                buttons,
                version,
                ..
            } => Some((user, buttons, *version)),
            _ => None,
        })
        .collect();
    assert_eq!(hands.len(), 1, "{out:?}");
    assert_eq!(hands[0].0, &actor.id);
    assert!(hands[0].1.iter().flatten().all(|b| b.token != token));
    assert!(hands[0].2 >= moved_to, "{} < {moved_to}", hands[0].2);
    play(&mut game, 1, &mut checked).await;
}

#[tokio::test]
async fn a_restart_mid_deal_gives_the_same_record_as_an_uninterrupted_game() {
    let dir = tempfile::tempdir().unwrap();
    // Uninterrupted.
    let mut whole = open(sqlite(&dir, "whole.db").await).await;
    let mut checked = 0;
    play(&mut whole, 3, &mut checked).await;
    let expected = log(&whole).await;
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
            Command::press(token),
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
    assert_eq!(log(&second).await, expected);
}

/// Keeps the runtime busy, so that tokio's paused clock never jumps ahead on its own while the
/// store's threads work (an idle paused runtime skips to its next timer, which would fire
/// sqlx's pool timeouts too); the test alone moves the clock, with `advance`.
fn hold_the_clock() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        loop {
            tokio::task::yield_now().await;
        }
    })
}

/// The next timer outbox, waiting up to `real_ms` of real time (the store's commits take real
/// time) and never moving the paused clock.
async fn next_event(events: &mut UnboundedReceiver<Outbox>, real_ms: u64) -> Option<Outbox> {
    let since = std::time::Instant::now();
    loop {
        match events.try_recv() {
            Ok(out) => return Some(out),
            Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {}
            Err(e) => panic!("the timer stream ended: {e}"),
        }
        if since.elapsed() > std::time::Duration::from_millis(real_ms) {
            return None;
        }
        tokio::task::yield_now().await;
    }
}

/// How long a timer's outbox took to come, in real time, once the paused clock reached the
/// timer (the store's work on its way): the slowest so far in a test. A timer that must not
/// fire yet is waited for five times that (at least 200 ms; 1 s before anything was
/// measured), so that one firing early is seen on a busy machine too, where a fixed 100 ms
/// could pass before its outbox came, and the check pass whatever the timer did.
#[derive(Default)]
struct Took(Option<std::time::Duration>);

impl Took {
    /// `next_event`, noting how long the outbox took.
    async fn next(&mut self, events: &mut UnboundedReceiver<Outbox>, real_ms: u64) -> Option<Outbox> {
        let since = std::time::Instant::now();
        let out = next_event(events, real_ms).await;
        if out.is_some() {
            let took = since.elapsed();
            self.0 = Some(self.0.map_or(took, |d| d.max(took)));
        }
        out
    }

    /// True when no outbox comes within five times the slowest so far.
    async fn none(&self, events: &mut UnboundedReceiver<Outbox>) -> bool {
        let quiet = self.0.map_or(1_000, |d| (d.as_millis() as u64 * 5).max(200));
        next_event(events, quiet).await.is_none()
    }
}

fn posts(out: &Outbox) -> Vec<String> {
    out.0
        .iter()
        .filter_map(|o| match o {
            Out::Post { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// One turn of an absent person with `limit` seconds per move, on the paused clock: nothing
/// until half time, the warning exactly then, nothing until the end, then the computer's move
/// for them. Returns the posts of that move.
async fn absent_turn(
    game: &mut Game,
    events: &mut UnboundedReceiver<Outbox>,
    limit: u64,
    took: &mut Took,
) -> Vec<String> {
    let half = std::time::Duration::from_secs(limit / 2);
    let second = std::time::Duration::from_secs(1);
    tokio::time::advance(half - second).await;
    assert!(took.none(events).await, "a timer fired before half time");
    tokio::time::advance(second).await;
    let out = took.next(events, 30_000).await.expect("a warning at half time");
    game.screen.show(&out);
    let warning = posts(&out).join("\n");
    assert!(
        warning.contains(&format!("{} seconds left for your move", limit / 2)),
        "{warning}"
    );
    tokio::time::advance(half - second).await;
    assert!(took.none(events).await, "a timer fired before the end");
    tokio::time::advance(second).await;
    let out = took
        .next(events, 30_000)
        .await
        .expect("a move at the end of the turn");
    game.screen.show(&out);
    let moved = posts(&out);
    assert!(moved.iter().any(|p| p.contains("ran out of time")), "{moved:#?}");
    moved
}

#[tokio::test(start_paused = true)]
async fn timeouts_warn_then_move_then_hand_the_seat_over_until_im_back() {
    let _clock = hold_the_clock();
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "t.db").await;
    let limit = 20;
    let mut game = open_with(store, Some(limit as u32)).await;
    let mut events = std::mem::replace(&mut game.events, tokio::sync::mpsc::unbounded_channel().1);
    let (host, g) = (game.host.clone(), chat("g"));
    let (anna, bruno) = (game.anna.clone(), game.bruno.clone());
    // Nobody presses. Anna and Bruno time out in turn; the third timeout in a row of one of
    // them hands that seat to a computer player, and then the other's.
    let mut away = Vec::new();
    let mut timeouts = std::collections::HashMap::<String, usize>::new();
    let mut took = Took::default();
    for _ in 0..12 {
        let moved = absent_turn(&mut game, &mut events, limit, &mut took).await;
        for p in &moved {
            if let Some(name) = p
                .split(" ran out of time")
                .next()
                .filter(|_| p.contains("ran out"))
            {
                *timeouts.entry(name.to_string()).or_default() += 1;
            }
            if let Some(name) = p.split(" is away").next().filter(|_| p.contains("is away")) {
                assert_eq!(timeouts.get(name), Some(&3), "{name} away after {timeouts:?}");
            }
        }
        away.extend(moved.into_iter().filter(|p| p.contains("is away")));
        if away.len() == 2 {
            break;
        }
    }
    assert_eq!(away.len(), 2, "{away:#?}");
    assert_ne!(away[0].split(' ').next(), away[1].split(' ').next(), "{away:#?}");
    let who = if away[0].starts_with("ANNA") {
        anna.clone()
    } else {
        bruno.clone()
    };
    // With both away the table waits instead of playing on alone, however long.
    let before = log(&game).await;
    tokio::time::advance(std::time::Duration::from_secs(3600)).await;
    assert!(took.none(&mut events).await, "a timer fired with everybody away");
    assert_eq!(log(&game).await, before, "a table with everybody away played on");
    // "I'm back" returns the seat; the game goes on with that person to act or waiting.
    let out = send(&host, &mut game.screen, g.clone(), &who, Command::Back).await;
    assert_eq!(out.reply_text(), Some("Your turn."));
}

/// When the database fails during a turn (the host meets it failing: a press answered "try
/// again", a timer that cannot read the log), the person to act could not act meanwhile:
/// their turn gets its whole time again from then, and the computer's move comes that much
/// later.
#[tokio::test(start_paused = true)]
async fn a_turn_gets_its_whole_time_again_after_the_database_failed() {
    let _clock = hold_the_clock();
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "again.db").await;
    let limit = 20;
    let mut game = open_with(store, Some(limit as u32)).await;
    let mut events = std::mem::replace(&mut game.events, tokio::sync::mpsc::unbounded_channel().1);
    let secs = std::time::Duration::from_secs;
    let mut took = Took::default();
    tokio::time::advance(secs(10)).await;
    let out = took
        .next(&mut events, 30_000)
        .await
        .expect("a warning at half time");
    game.screen.show(&out);
    let who = [&game.anna, &game.bruno]
        .into_iter()
        .find(|u| game.screen.my_button(&u.id).is_some())
        .expect("a button for the person to act")
        .clone();
    tokio::time::advance(secs(5)).await;
    game.host.store_failed();
    // The turn's first end passes without a move, and so does all but the last second of
    // its new time (15 s + 20 s); its half-time warning was given once already.
    tokio::time::advance(secs(6)).await;
    assert!(
        took.none(&mut events).await,
        "the timer moved at the turn's first end"
    );
    tokio::time::advance(secs(13)).await;
    assert!(
        took.none(&mut events).await,
        "moved or warned again before the new end"
    );
    tokio::time::advance(secs(1)).await;
    let out = next_event(&mut events, 30_000)
        .await
        .expect("a move at the new end");
    assert!(
        posts(&out)
            .iter()
            .any(|p| p.contains(&format!("{} ran out of time", who.name))),
        "{out:?}"
    );
}

#[tokio::test]
async fn a_player_who_leaves_mid_deal_is_played_for_until_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = open(sqlite(&dir, "leave.db").await).await;
    let (host, g) = (game.host.clone(), chat("g"));
    let anna = game.anna.clone();
    let mut checked = 0;
    let out = send(&host, &mut game.screen, g.clone(), &anna, Command::Leave).await;
    assert!(out.reply_text().unwrap().contains("ANNA"), "{out:?}");
    assert!(
        game.screen.posts.iter().any(|p| p.starts_with("ANNA is away")),
        "{:#?}",
        game.screen.posts
    );
    // Anna's hand shows no buttons any more: the computer plays her seat, and Bruno finishes
    // the deal on his own.
    assert_eq!(game.screen.my_button("anna"), None, "{:#?}", game.screen.latest);
    play(&mut game, 1, &mut checked).await;
    assert_eq!(game.screen.my_button("anna"), None);
    let record = log(&game).await;
    let actions = record["deals"][0]["actions"].as_array().unwrap();
    assert!(
        actions
            .iter()
            .filter(|a| a["seat"] == 0 && a.get("play").is_some())
            .count()
            == 8,
        "the computer played all of Anna's cards: {record}"
    );
    // Back at the table, Anna plays again.
    let out = send(&host, &mut game.screen, g.clone(), &anna, Command::Back).await;
    assert!(out.reply_text().is_some(), "{out:?}");
    let bruno = game.bruno.clone();
    for _ in 0..40 {
        if game.screen.my_button("anna").is_some() {
            break;
        }
        let token = game.screen.my_button("bruno").expect("Bruno or Anna can act");
        send(
            &host,
            &mut game.screen,
            dm("bruno"),
            &bruno,
            Command::press(token),
        )
        .await;
    }
    assert!(
        game.screen.my_button("anna").is_some(),
        "Anna never got her turn back"
    );
    play(&mut game, 2, &mut checked).await;
}

/// RULES.md lets the declarer surrender "at any time" inside the window: in a chat game he
/// presses Surrender while the others are to play. His waiting hand carries that one button,
/// the others' waiting hands none, and pressing it ends the deal as a surrender.
#[tokio::test]
async fn the_declarer_surrenders_while_waiting_for_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _events) = Host::new(sqlite(&dir, "s.db").await, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let people = [user("anna", false), user("bruno", false), user("carla", false)];
    send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::SetTurnLimit(None),
    )
    .await;
    send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: "zole".into(),
            rules: Some("catsatcards".into()),
            seats: Some(3),
        },
    )
    .await;
    let table = table_id(&screen);
    for p in &people[1..] {
        send(&host, &mut screen, g.clone(), p, Command::Join).await;
    }
    send(&host, &mut screen, g.clone(), &people[0], Command::Start).await;
    let press = |label: &str, who: &User, screen: &Screen| {
        screen
            .my_buttons(&who.id)
            .into_iter()
            .find(|(l, _)| l.starts_with(label))
            .map(|(_, t)| t)
    };
    // Whoever bids first takes; the bury is the first two cards offered.
    let mut declarer: Option<User> = None;
    let mut opponent_turns = 0;
    for _ in 0..40 {
        let Some(who) = people
            .iter()
            .find(|p| screen.my_buttons(&p.id).iter().any(|(l, _)| l != "Surrender"))
        else {
            break;
        };
        let buttons = screen.my_buttons(&who.id);
        let token = match &declarer {
            None => {
                declarer = Some(who.clone());
                press("Take", who, &screen).expect("a Take button")
            }
            // A card chosen to bury is marked ✓ (pressing it again undoes the choice).
            Some(d) if d.id == who.id => buttons
                .iter()
                .find(|(l, _)| !l.starts_with('✓'))
                .unwrap()
                .1
                .clone(),
            Some(d) => {
                // An opponent is to play: the declarer's waiting hand offers Surrender only
                // (catsatcards: until he has played to the third trick); the third player
                // waits without buttons.
                let waiting = screen.my_buttons(&d.id);
                let third = people.iter().find(|p| p.id != d.id && p.id != who.id).unwrap();
                assert!(
                    screen.my_buttons(&third.id).is_empty(),
                    "{:?}",
                    screen.my_buttons(&third.id)
                );
                if let [(label, token)] = waiting.as_slice() {
                    assert_eq!(label, "Surrender");
                    opponent_turns += 1;
                    if opponent_turns == 2 {
                        let out = send(&host, &mut screen, dm(&d.id), d, Command::press(token.clone())).await;
                        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
                        break;
                    }
                } else {
                    panic!("the waiting declarer's buttons: {waiting:?}");
                }
                buttons[0].1.clone()
            }
        };
        let out = send(&host, &mut screen, dm(&who.id), who, Command::press(token)).await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
    }
    assert_eq!(
        opponent_turns, 2,
        "the declarer never waited with a Surrender button"
    );
    let result = screen
        .posts
        .iter()
        .find(|p| p.starts_with("Result of deal 1"))
        .expect("the deal ended");
    assert!(result.contains("The declarer surrendered."), "{result}");
    // The record replays to the same result: the out-of-turn surrender is a legal action.
    let rec = log_of(&host, table).await;
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the log replays");
    assert_eq!(
        replayed["deals"][0]["surrendered"],
        Value::Bool(true),
        "{replayed}"
    );
}

/// A half-chosen burial survives a restart: the declarer picks one card (marked ✓), the host
/// is replaced by a new one on the same database, and the new hand still marks it; the next
/// card buries both.
#[tokio::test]
async fn a_half_chosen_bury_is_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _events) = Host::new(sqlite(&dir, "bury.db").await, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let people = [user("anna", false), user("bruno", false), user("carla", false)];
    send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::SetTurnLimit(None),
    )
    .await;
    send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    let table = table_id(&screen);
    for p in &people[1..] {
        send(&host, &mut screen, g.clone(), p, Command::Join).await;
    }
    send(&host, &mut screen, g.clone(), &people[0], Command::Start).await;
    // The first to bid takes.
    let who = people
        .iter()
        .find(|p| !screen.my_buttons(&p.id).is_empty())
        .unwrap()
        .clone();
    let take = screen
        .my_buttons(&who.id)
        .into_iter()
        .find(|(l, _)| l.starts_with("Take"))
        .unwrap()
        .1;
    send(&host, &mut screen, dm(&who.id), &who, Command::press(take)).await;
    let first = screen.my_buttons(&who.id)[0].clone();
    let out = send(
        &host,
        &mut screen,
        dm(&who.id),
        &who,
        Command::press(first.1.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    assert_eq!(screen.my_buttons(&who.id)[0].0, format!("✓{}", first.0));
    // The same press delivered again (a webhook retried) keeps the pick.
    let out = send(
        &host,
        &mut screen,
        dm(&who.id),
        &who,
        Command::press(first.1.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    assert_eq!(
        screen.my_buttons(&who.id)[0].0,
        format!("✓{}", first.0),
        "a repeated pick does not take itself back"
    );
    // The picked card's button takes the pick back, once however often it is pressed.
    let unpick = screen.my_buttons(&who.id)[0].1.clone();
    for _ in 0..2 {
        let out = send(
            &host,
            &mut screen,
            dm(&who.id),
            &who,
            Command::press(unpick.clone()),
        )
        .await;
        assert_eq!(out.reply_text(), Some("✓"));
        assert_eq!(screen.my_buttons(&who.id)[0].0, first.0, "the pick is taken back");
    }
    let out = send(
        &host,
        &mut screen,
        dm(&who.id),
        &who,
        Command::press(first.1.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    assert_eq!(screen.my_buttons(&who.id)[0].0, format!("✓{}", first.0));
    let before = log_of(&host, table).await;
    // The restart.
    drop(host);
    let (host, _events) = Host::new(sqlite(&dir, "bury.db").await, config());
    let mut screen = Screen::default();
    screen.show(&host.recover().await.unwrap());
    let buttons = screen.my_buttons(&who.id);
    assert_eq!(
        buttons[0].0,
        format!("✓{}", first.0),
        "the first pick is kept: {buttons:?}"
    );
    assert_eq!(log_of(&host, table).await, before, "a pick is not a move");
    let second = buttons[1].1.clone();
    let out = send(&host, &mut screen, dm(&who.id), &who, Command::press(second)).await;
    assert_eq!(out.reply_text(), Some("✓"));
    let after = log_of(&host, table).await;
    let actions = after["deals"][0]["actions"].as_array().unwrap();
    let bury = actions.last().unwrap();
    assert!(bury["bury"].is_array(), "both cards are buried at once: {bury}");
    // The first pick's code is `y:<card>`; the burial holds that card and the second.
    let picked = first.1.rsplit("y:").next().unwrap();
    let buried: Vec<&str> = bury["bury"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert_eq!(buried.len(), 2, "{bury}");
    assert!(
        buried.contains(&picked),
        "the kept pick {picked} is buried: {bury}"
    );
}

/// A host that dies right after a deal's last card, before anything of that press's outbox
/// was shown, leaves that deal's hands as they were ("Your turn." and a card button). The host
/// that recovers the table shows them as the deal ended: no buttons, no "Your turn.".
#[tokio::test]
async fn recovery_shows_the_hands_of_a_deal_that_ended_just_before_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = open(sqlite(&dir, "end.db").await).await;
    let (d1, d2) = (format!("t{}.d1.", first.table), format!("t{}.d2.", first.table));
    let mut presses = 0;
    loop {
        let (who, token) = match (first.screen.my_button("anna"), first.screen.my_button("bruno")) {
            (Some(t), _) => (first.anna.clone(), t),
            (None, Some(t)) => (first.bruno.clone(), t),
            (None, None) => panic!("nobody can act:\n{:#?}", first.screen.latest),
        };
        let out = first
            .host
            .handle(Request {
                chat: dm(&who.id),
                user: who,
                command: Command::press(token),
            })
            .await;
        // The press that ends deal 1: its outbox is lost with the host.
        if out.0.iter().any(|o| o.text().starts_with("Result of deal 1")) {
            break;
        }
        first.screen.show(&out);
        presses += 1;
        assert!(presses < 200, "deal 1 did not end");
    }
    drop(first);
    let (host, _events) = Host::new(sqlite(&dir, "end.db").await, config());
    let out = host.recover().await.unwrap();
    for who in ["anna", "bruno"] {
        let hand = out
            .0
            .iter()
            .find_map(|o| match o {
                Out::Private {
                    user,
                    key,
                    text,
                    buttons,
                    ..
                } if user == who && key.starts_with(&d1) => Some((text, buttons)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{who}'s hand of deal 1 is not shown again: {out:#?}"));
        assert!(hand.1.is_empty(), "{hand:?}");
        assert!(!hand.0.contains("Your turn"), "{hand:?}");
    }
    // The result is owed too, and deal 2's hands are drawn after deal 1's.
    assert!(out.0.iter().any(|o| o.text().starts_with("Result of deal 1")));
    let last_d1 = out
        .0
        .iter()
        .rposition(|o| matches!(o, Out::Private { key, .. } if key.starts_with(&d1)))
        .unwrap();
    let first_d2 = out
        .0
        .iter()
        .position(|o| matches!(o, Out::Private { key, .. } if key.starts_with(&d2)))
        .expect("deal 2's hands");
    assert!(last_d1 < first_d2);
}

/// The privacy check bites: the table message as the group saw it passes, and the same text
/// with a card that is still hidden put into it (as a trick line, or after a comma) fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_privacy_check_reports_a_hidden_card_put_into_a_public_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = open(sqlite(&dir, "leak.db").await).await;
    let mut checked = 0;
    check_privacy(&game.host, game.table, &mut game.screen, &mut checked).await;
    assert!(game.screen.hidden_compared > 0, "the real texts were compared");
    let (deal, text) = game
        .screen
        .public_texts
        .iter()
        .rev()
        .find(|(d, _)| *d > 0)
        .cloned()
        .expect("a table message of the deal");
    let hidden = game.host.hidden_cards(game.table, deal).await;
    let card = hidden.first().expect("cards still hidden").clone();
    for leaked in [format!("{text}\nAnna {card}"), format!("{text} {card},")] {
        let (host, table) = (game.host.clone(), game.table);
        let caught = tokio::spawn(async move {
            let mut screen = Screen::default();
            screen.public_texts.push((deal, leaked));
            let mut from = 0;
            check_privacy(&host, table, &mut screen, &mut from).await;
        })
        .await;
        assert!(
            caught.is_err_and(|e| e.is_panic()),
            "the check let the hidden card {card} through"
        );
    }
}
