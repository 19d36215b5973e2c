//! A quiet group (issue 26): an admin's command shows the group its real message and no lone
//! "✓" besides, and a deal's commitment is shown short in its table message, never as a
//! 64-digit hash or seed in the chat (the record has them whole).

use crate::common;

use common::{chat, config, dm, file_of, send, sqlite, user, Screen};
use stikis_host::table::{commitment, fingerprint};
use stikis_host::{Command, Out, Outbox, TournamentVerb};

/// True when the outbox answers with a bare "✓".
fn lone_ack(out: &Outbox) -> bool {
    out.0
        .iter()
        .any(|o| matches!(o, Out::Reply { text } if text == "✓"))
}

#[tokio::test]
async fn admin_commands_show_their_message_without_a_lone_check_mark() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _events) = stikis_host::Host::new(sqlite(&dir, "quiet.db").await, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let admin = user("admin", true);
    let people: Vec<_> = (1..=3).map(|i| user(&format!("p{i}"), false)).collect();
    let mut said = Vec::new();
    for c in [
        Command::NewSeason,
        Command::NewTournament {
            rules: None,
            rounds: 1,
            deals: Some(1),
            minutes: None,
            turn: None,
            computers: false,
        },
    ] {
        said.push(send(&host, &mut screen, g.clone(), &admin, c).await);
    }
    for p in &people {
        send(
            &host,
            &mut screen,
            g.clone(),
            p,
            Command::Tournament(TournamentVerb::Join),
        )
        .await;
    }
    for verb in [
        TournamentVerb::Start,
        TournamentVerb::Pause,
        TournamentVerb::Cancel,
    ] {
        said.push(send(&host, &mut screen, g.clone(), &admin, Command::Tournament(verb)).await);
    }
    for out in &said {
        assert!(
            out.0.iter().any(Out::is_public),
            "the command shows the group something: {out:?}"
        );
        assert!(!lone_ack(out), "a lone ✓ besides the real message: {out:?}");
    }
    assert!(said[0]
        .0
        .iter()
        .any(|o| o.text().starts_with("ADMIN has started season 2.")));
    // A button press is the presser's own answer: its "✓" stays.
    let mut screen = Screen::default();
    let h = chat("h");
    send(
        &host,
        &mut screen,
        h.clone(),
        &admin,
        Command::NewTournament {
            rules: None,
            rounds: 1,
            deals: Some(1),
            minutes: None,
            turn: None,
            computers: false,
        },
    )
    .await;
    let join = screen.tournament_button(TournamentVerb::Join);
    send(&host, &mut screen, h.clone(), &people[0], Command::press(join)).await;
    let leave = screen.tournament_button(TournamentVerb::Leave);
    let out = send(&host, &mut screen, h.clone(), &people[0], Command::press(leave)).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
}

/// The longest run of hexadecimal digits in `text`.
fn longest_hex(text: &str) -> usize {
    text.split(|c: char| !c.is_ascii_hexdigit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

#[tokio::test]
async fn a_deal_shows_its_commitment_short_and_the_record_has_it_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _events) = stikis_host::Host::new(sqlite(&dir, "deal.db").await, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let anna = user("anna", false);
    send(
        &host,
        &mut screen,
        g.clone(),
        &anna,
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: None,
        },
    )
    .await;
    for _ in 0..2 {
        send(
            &host,
            &mut screen,
            g.clone(),
            &anna,
            Command::AddBot {
                level: stikis_core::ai::Level::Basic,
            },
        )
        .await;
    }
    send(&host, &mut screen, g.clone(), &anna, Command::Start).await;
    let table = common::table_id(&screen);
    // Anna plays until two deals have ended.
    let mut presses = 0;
    while screen
        .posts
        .iter()
        .filter(|p| p.starts_with("Result of deal"))
        .count()
        < 2
    {
        let token = screen.my_button("anna").expect("Anna can act");
        send(&host, &mut screen, dm("anna"), &anna, Command::press(token)).await;
        presses += 1;
        assert!(presses < 200, "the deals do not end");
    }
    assert!(
        !screen.public_texts.is_empty(),
        "the chat was shown nothing to look at"
    );
    for (_, text) in &screen.public_texts {
        assert!(longest_hex(text) < 64, "a whole hash in the chat: {text}");
    }
    let rec = file_of(&send(&host, &mut screen, g.clone(), &anna, Command::Record).await).unwrap();
    for deal in 1..=2usize {
        // The seeds are config()'s: table << 16 | deal.
        let seed = stikis_core::Seed::from_u64((table as u64) << 16 | deal as u64);
        assert_eq!(
            rec["deals"][deal - 1]["seed"],
            seed.to_string(),
            "the record has the whole seed"
        );
        let short = fingerprint(&commitment(&seed));
        assert_eq!(short.chars().count(), 17, "{short}");
        let message = &screen
            .latest
            .get(&format!("t{table}.d{deal}"))
            .expect("the deal's table message")
            .1;
        // Labelled, and short: the 16 digits and a mark that it is cut.
        assert!(
            message.lines().last().unwrap().ends_with(&format!(": {short}")),
            "{message}"
        );
        // The result names the seed short; the deal's start post says no hash.
        let result = screen
            .posts
            .iter()
            .find(|p| p.starts_with(&format!("Result of deal {deal}")))
            .unwrap();
        assert!(result.contains(&fingerprint(&seed.to_string())), "{result}");
        let start = format!("Deal {deal} begins.");
        assert!(screen.posts.iter().any(|p| p == &start), "{:?}", screen.posts);
    }
}
