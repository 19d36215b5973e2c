//! Whole games of the Belote family through the host with the recording fake adapter: every
//! variant to its target with people and computer players (bids through the level/trump
//! selection, every card), the privacy of every public message, bad presses, a restart
//! mid-deal, and the record the finished table posts replaying to the table's totals.

use crate::common;

use common::{
    chat, check_seeds, config, dm, file_of, log_of, send, sqlite, step, table_id, user, Screen, Table,
};
use serde_json::{json, Value};
use stikis_core::ai::Level;
use stikis_host::games::game_title;
use stikis_host::i18n::Lang;
use stikis_host::store::Store;
use stikis_host::token::Token;
use stikis_host::{Command, Host, User};

/// Opens a table of `game` with `rules` for the people named (the first creates it) and
/// `bots` basic computer players, and starts it.
async fn open(store: Store, game: &str, rules: Value, people: &[&str], bots: usize) -> Table {
    open_with(store, game, rules, people, &vec![Level::Basic; bots]).await
}

/// `open` with computer players of the given levels.
async fn open_with(store: Store, game: &str, rules: Value, people: &[&str], bots: &[Level]) -> Table {
    let (host, _events) = Host::new(store, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let admin = user("admin", true);
    send(&host, &mut screen, g.clone(), &admin, Command::SetTurnLimit(None)).await;
    let people: Vec<User> = people.iter().map(|p| user(p, false)).collect();
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: game.into(),
            rules: Some(rules),
            seats: None,
        },
    )
    .await;
    assert!(out.reply_text().unwrap().contains(&people[0].name), "{out:?}");
    let table = table_id(&screen);
    for p in &people[1..] {
        let join = screen.lobby_token("join");
        send(&host, &mut screen, g.clone(), p, Command::press(join)).await;
    }
    for &level in bots {
        send(
            &host,
            &mut screen,
            g.clone(),
            &people[0],
            Command::AddBot { level },
        )
        .await;
    }
    let out = send(&host, &mut screen, g.clone(), &people[0], Command::Start).await;
    assert!(
        out.0.iter().any(|o| o.text().contains("begins")),
        "the game starts: {out:?}"
    );
    Table {
        host,
        screen,
        table,
        people,
        g,
        checked: 0,
        finish: None,
        rng: 7,
    }
}

/// Plays until the game ends; returns the number of presses.
async fn play_out(t: &mut Table) -> usize {
    let mut presses = 0;
    while step(t).await {
        presses += 1;
        assert!(presses < 5_000, "the game does not progress");
    }
    assert!(t.finish.is_some(), "nobody can act, yet the game is not over");
    assert!(
        t.screen.hidden_compared > 0,
        "the privacy checks compared no hidden card"
    );
    presses
}

/// The record the finished table posted replays, and its totals are the table's; every deal
/// carries its revealed seed, which replay checks.
fn check_final_record(t: &Table, game: &str) {
    let out = t.finish.as_ref().expect("the game is over");
    let rec = file_of(out).expect("the finished table posts its record");
    assert_eq!(rec["game"], game);
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    check_seeds(&t.screen, &rec);
    let totals = replayed["totals"].as_array().unwrap();
    let players = rec["players"].as_array().unwrap();
    let shown: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(s, name)| format!("{} {}", name.as_str().unwrap(), totals[s % 2]))
        .collect();
    let over = out
        .0
        .iter()
        .find(|o| o.text().starts_with("The game is over."))
        .unwrap()
        .text();
    assert!(
        over.contains(&format!("Totals: {}", shown.join(" · "))),
        "{over}\nreplayed: {replayed}"
    );
    // The game ended at its target, not before.
    let target = rec["rules"]["target"].as_i64().unwrap();
    let (a, b) = (totals[0].as_i64().unwrap(), totals[1].as_i64().unwrap());
    assert!(a.max(b) >= target && a != b, "{a} {b} {target}");
}

#[tokio::test]
async fn every_variant_plays_a_whole_game_with_people_and_computer_players() {
    let dir = tempfile::tempdir().unwrap();
    use Level::{Basic, Strong};
    for (i, (game, target, people, bots)) in [
        ("belote-bazar", 40, &["anna", "bruno"][..], &[Strong, Basic][..]),
        (
            "belote-classic",
            400,
            &["anna", "bruno", "cilda"][..],
            &[Basic][..],
        ),
        ("belote-h2h", 25, &["anna"][..], &[Strong][..]),
        ("coinche", 400, &["anna", "bruno"][..], &[Basic, Strong][..]),
    ]
    .into_iter()
    .enumerate()
    {
        let store = sqlite(&dir, &format!("{i}.db")).await;
        let rules = json!({"preset": "default", "target": target});
        let mut t = open_with(store, game, rules, people, bots).await;
        // Anna reads her hand in Russian; the table speaks the community's English.
        let anna = t.people[0].clone();
        send(
            &t.host,
            &mut t.screen,
            t.g.clone(),
            &anna,
            Command::SetUserLang(Lang::Ru),
        )
        .await;
        send(&t.host, &mut t.screen, t.g.clone(), &anna, Command::ShowHand).await;
        assert!(
            t.screen.my_hand("anna").unwrap().1.contains("Ваши карты"),
            "{game}: {:?}",
            t.screen.my_hand("anna")
        );
        play_out(&mut t).await;
        assert!(t.deals_done() >= 1, "{game}");
        check_final_record(&t, game);
        // The table is closed: the chat may open the next one.
        let out = send(&t.host, &mut t.screen, t.g.clone(), &anna, Command::Record).await;
        assert_eq!(
            out.reply_text(),
            Some("В этом чате нет открытого стола."),
            "{game}"
        );
        // The community's leaderboard and Anna's statistics name this game and count it.
        let out = send(
            &t.host,
            &mut t.screen,
            t.g.clone(),
            &anna,
            Command::Leaderboard(stikis_host::Board::Points(stikis_host::store::Period::All)),
        )
        .await;
        let board = out.reply_text().unwrap();
        assert!(
            board.starts_with(&format!("{}, за всё время:\n1. ", game_title(Lang::Ru, game)))
                && board.contains("ANNA")
                && !board.contains(game),
            "{board}"
        );
        assert!(!board.contains("zole:"), "{board}");
        let out = send(&t.host, &mut t.screen, t.g.clone(), &anna, Command::Stats).await;
        let stats = out.reply_text().unwrap();
        assert!(
            stats.contains(&format!("{}: ", game_title(Lang::Ru, game))) && stats.contains("1 игра,"),
            "{stats}"
        );
    }
}

#[tokio::test]
async fn bids_go_through_the_level_then_the_trump() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = open(
        sqlite(&dir, "bids.db").await,
        "belote-bazar",
        json!("default"),
        &["anna", "bruno", "cilda", "dita"],
        0,
    )
    .await;
    // Every card is hidden while the bidding runs: the privacy checks have something to check.
    assert_eq!(t.host.hidden_cards(t.table, 1).await.len(), 32);
    // The first bidder sees pass and the levels 8.. in pages, not 340 buttons.
    let who = t
        .people
        .iter()
        .find(|p| !t.screen.my_buttons(&p.id).is_empty())
        .cloned()
        .unwrap();
    let buttons = t.screen.my_buttons(&who.id);
    let labels: Vec<&str> = buttons.iter().map(|b| b.0.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Pass",
            "8 · 80",
            "9 · 90",
            "10 · 100",
            "11 · 110",
            "12 · 120",
            "13 · 130",
            "14 · 140",
            "15 · 150",
            "16 · 160",
            "17 · 170",
            "»"
        ]
    );
    // The hand says what the numbers mean.
    let hand = t.screen.my_hand(&who.id).unwrap().1.clone();
    assert!(hand.contains("8 · 80 promises at least 80 points"), "{hand}");
    let press = |label: &str| {
        buttons
            .iter()
            .find(|b| b.0 == label)
            .map(|b| b.1.clone())
            .unwrap()
    };
    // Picking a level is a selection: nothing is committed, the hand offers its trumps.
    let before = log_of(&t.host, t.table).await;
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&who.id),
        &who,
        Command::press(press("9 · 90")),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    assert_eq!(log_of(&t.host, t.table).await, before);
    let hand = t.screen.my_hand(&who.id).unwrap().clone();
    assert!(hand.1.contains("Bid 9 · 90: choose the trump"), "{}", hand.1);
    let labels: Vec<&str> = hand.2.iter().map(|b| b.0.as_str()).collect();
    assert_eq!(labels, ["Pass", "9 ♣", "9 ♦", "9 ♥", "9 ♠", "9 no trumps", "‹"]);
    let hearts = hand.2[3].1.clone();
    send(&t.host, &mut t.screen, dm(&who.id), &who, Command::press(hearts)).await;
    let rec = log_of(&t.host, t.table).await;
    let seat = rec["deals"][0]["actions"][0]["seat"].clone();
    assert_eq!(rec["deals"][0]["actions"][0], json!({"seat": seat, "bid": "9 H"}));
    // The next bidder may say contra, or bid higher: 10 and up.
    let next = t
        .people
        .iter()
        .find(|p| !t.screen.my_buttons(&p.id).is_empty())
        .cloned()
        .unwrap();
    let labels: Vec<String> = t.screen.my_buttons(&next.id).into_iter().map(|b| b.0).collect();
    assert_eq!(labels[..3], ["Pass", "Contra", "10 · 100"]);
    let table_msg = &t.screen.latest[&format!("t{}.d1", t.table)].1;
    assert!(
        table_msg.contains(&format!("Bids: {} 9 ♥", who.name)),
        "{table_msg}"
    );
    // Paging goes forward with » and back with «.
    let page = |t: &Table, label: &str| {
        t.screen
            .my_buttons(&next.id)
            .into_iter()
            .find(|b| b.0 == label)
            .unwrap_or_else(|| panic!("no {label} in {:?}", t.screen.my_buttons(&next.id)))
            .1
    };
    let more = page(&t, "»");
    send(&t.host, &mut t.screen, dm(&next.id), &next, Command::press(more)).await;
    let labels: Vec<String> = t.screen.my_buttons(&next.id).into_iter().map(|b| b.0).collect();
    assert_eq!(labels[..5], ["Pass", "Contra", "«", "20 · 200", "21 · 210"]);
    let back = page(&t, "«");
    send(&t.host, &mut t.screen, dm(&next.id), &next, Command::press(back)).await;
    let labels: Vec<String> = t.screen.my_buttons(&next.id).into_iter().map(|b| b.0).collect();
    assert_eq!(labels[..3], ["Pass", "Contra", "10 · 100"]);
}

#[tokio::test]
async fn bad_presses_are_answered_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = open(
        sqlite(&dir, "bad.db").await,
        "coinche",
        json!("default"),
        &["anna", "bruno"],
        2,
    )
    .await;
    let (actor, idle) = if t.screen.my_button("anna").is_some() {
        (t.people[0].clone(), t.people[1].clone())
    } else {
        (t.people[1].clone(), t.people[0].clone())
    };
    let token = t.screen.my_button(&actor.id).unwrap();
    let tok = Token::decode(&token).unwrap();
    let forge = |action: &str| Token::new(tok.table, tok.seq, action).encode().unwrap();
    let before = log_of(&t.host, t.table).await;
    let cilda = user("cilda", false);
    let answers = [
        (&cilda, token.clone(), "You are not playing at this table."),
        (&cilda, "zzz".to_string(), "That button is not valid."),
        (&idle, token.clone(), "It is not your turn."),
        (&actor, forge("b:nonsense"), "That button is not valid."),
        (&actor, forge("x:1"), "That button is not valid."),
        // A bid the rules refuse: the answer names the rule.
        (&actor, forge("b:70 H"), "bids start at 80 points"),
        (
            &actor,
            forge("p:JH"),
            "The bidding is still on: cards are played once it is over.",
        ),
        (&actor, forge("l:7"), "That level can no longer be bid."),
    ];
    for (who, token, answer) in answers {
        let out = send(&t.host, &mut t.screen, dm(&who.id), who, Command::press(token)).await;
        let reply = out.reply_text().unwrap_or_default();
        assert!(reply.contains(answer), "{reply:?} is not {answer:?}");
    }
    assert_eq!(
        log_of(&t.host, t.table).await,
        before,
        "refused presses changed the table"
    );
    // A double press acts once; the second is stale.
    let pass = forge("b:pass");
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&actor.id),
        &actor,
        Command::press(pass.clone()),
    )
    .await;
    assert_eq!(out.reply_text(), Some("✓"));
    let after = log_of(&t.host, t.table).await;
    assert_ne!(after, before);
    let out = send(
        &t.host,
        &mut t.screen,
        dm(&actor.id),
        &actor,
        Command::press(pass),
    )
    .await;
    assert_eq!(
        out.reply_text(),
        Some("That button is out of date; use the newest message.")
    );
    assert_eq!(log_of(&t.host, t.table).await, after);
    // The game goes on.
    for _ in 0..20 {
        assert!(step(&mut t).await);
    }
}

/// Plays until `deals` deals are over.
async fn play_until(t: &mut Table, deals: usize) {
    while t.deals_done() < deals {
        assert!(step(t).await, "the game ended before deal {deals}");
    }
}

#[tokio::test]
async fn a_restart_mid_deal_gives_the_same_record_as_an_uninterrupted_game() {
    let dir = tempfile::tempdir().unwrap();
    // Coinche carries the deck from deal to deal: a restart in deal 2 must deal the same cut.
    for (game, people, bots) in [
        ("coinche", &["anna", "bruno"][..], 2),
        ("belote-bazar", &["anna", "bruno"][..], 2),
        ("belote-classic", &["anna", "bruno"][..], 2),
        ("belote-h2h", &["anna"][..], 1),
    ] {
        restart_mid_deal(&dir, game, people, bots).await;
    }
}

async fn restart_mid_deal(dir: &tempfile::TempDir, game: &str, people: &[&str], bots: usize) {
    let rules = json!({"preset": "default", "target": 50_000});
    let mut whole = open(
        sqlite(dir, &format!("{game}-whole.db")).await,
        game,
        rules.clone(),
        people,
        bots,
    )
    .await;
    play_until(&mut whole, 3).await;
    let expected = log_of(&whole.host, whole.table).await;

    let cut = format!("{game}-cut.db");
    let mut first = open(sqlite(dir, &cut).await, game, rules, people, bots).await;
    play_until(&mut first, 1).await;
    for _ in 0..5 {
        assert!(step(&mut first).await);
    }
    // A picked bid level is a selection the database does not keep: cut where none is open,
    // so that both runs see the same buttons.
    while first.people.iter().any(|p| {
        first
            .screen
            .my_hand(&p.id)
            .is_some_and(|h| h.1.contains("choose the trump"))
    }) {
        assert!(step(&mut first).await);
    }
    assert!(
        !first
            .host
            .hidden_cards(first.table, first.deals_done() + 1)
            .await
            .is_empty(),
        "{game}: the cut is in the middle of a deal"
    );
    let Table {
        screen,
        table,
        people,
        g,
        rng,
        checked,
        ..
    } = first;
    let (host, _events) = Host::new(sqlite(dir, &cut).await, config());
    let out = host.recover().await.unwrap();
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
    assert!(
        out.0.iter().any(|o| matches!(o, stikis_host::Out::Public { .. })),
        "{game}: recovery refreshes the table message"
    );
    play_until(&mut second, 3).await;
    assert_eq!(log_of(&second.host, second.table).await, expected, "{game}");
}

/// Stores a belote head-to-head table as a host that crashed right after a deal's last move
/// would leave it: the table running, its deals and moves committed, no next deal. Plays
/// `deals` deals, or until the game is over.
async fn crashed_between_deals(store: &Store, target: i64, deals: usize) -> (i64, bool) {
    use stikis_host::store::{NewTable, Occupant, TableStatus};
    let rules = json!({"preset": "default", "target": target});
    let row = store
        .create_table(&NewTable {
            chat: chat("g"),
            game: "belote-h2h".into(),
            rules: rules.clone(),
            seats: 2,
            creator: "anna".into(),
        })
        .await
        .unwrap();
    let anna = Occupant::Human {
        user_id: "anna".into(),
    };
    store.take_seat(row.id, 0, "ANNA", &anna).await.unwrap();
    store
        .take_seat(row.id, 1, "Dators 2", &Occupant::Computer { level: 1 })
        .await
        .unwrap();
    store.set_status(row.id, TableStatus::Running).await.unwrap();
    let mut game = stikis_host::games::new_game("belote-h2h", &rules, 2).unwrap();
    let mut seq = 0;
    for n in 1..=deals {
        let seed = stikis_core::Seed::from_u64(n as u64 * 977);
        let deal = game.start_deal(seed).unwrap();
        let commit = stikis_host::table::commitment(&seed);
        store
            .start_deal(row.id, n as i64, &seed.to_string(), &commit, &deal)
            .await
            .unwrap();
        loop {
            let a = game.bot_action(Level::Basic, seq, 0);
            seq += 1;
            store.append_action(row.id, seq as i64, &a).await.unwrap();
            if game.apply(&a).unwrap().is_some() {
                break;
            }
        }
        if game.is_over() {
            return (row.id, true);
        }
    }
    (row.id, false)
}

#[tokio::test]
async fn a_crash_between_deals_resumes_with_the_next_deal_or_the_end_of_the_game() {
    use stikis_host::store::TableStatus;
    let dir = tempfile::tempdir().unwrap();
    // Between two deals: recovery deals the next one and the game goes on.
    let store = sqlite(&dir, "between.db").await;
    let (id, over) = crashed_between_deals(&store, 50_000, 2).await;
    assert!(!over);
    let (host, _events) = Host::new(store.clone(), config());
    let out = host.recover().await.unwrap();
    assert!(
        out.0.iter().any(|o| o.text().starts_with("Deal 3 begins.")),
        "{out:?}"
    );
    let mut screen = Screen::default();
    screen.show(&out);
    assert!(!screen.my_buttons("anna").is_empty(), "ANNA can act in deal 3");
    assert_eq!(
        store.table(id).await.unwrap().unwrap().status,
        TableStatus::Running
    );
    // After the deal that ended the game: recovery finishes the table.
    let store = sqlite(&dir, "over.db").await;
    let (id, over) = crashed_between_deals(&store, 1, 50).await;
    assert!(over, "a game to 1 ends within 50 deals");
    let (host, _events) = Host::new(store.clone(), config());
    let out = host.recover().await.unwrap();
    assert!(
        out.0.iter().any(|o| o.text().starts_with("The game is over.")),
        "{out:?}"
    );
    assert!(file_of(&out).is_some(), "the finished table posts its record");
    assert_eq!(
        store.table(id).await.unwrap().unwrap().status,
        TableStatus::Finished
    );
}
