//! A whole Latvian-format Zole tournament through the host: 9 people and 3 computer players
//! enter on the tournament message, three tables of four play three rounds of two deals, the
//! host is killed in the middle of round 2 (its runtime dropped with every task in it) and a
//! new one on the same database resumes; the tournament's record then verifies, and a changed
//! record does not.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{chat, config, dm, file_of, send, sqlite, user, Screen};
use stikis_core::tournament::{verify, TournamentRecord, VerifyError};
use stikis_host::{Command, Host, Outbox, TournamentVerb, User};
use tokio::sync::mpsc::UnboundedReceiver;

struct Field {
    host: Arc<Host>,
    events: UnboundedReceiver<Outbox>,
    screen: Screen,
    people: Vec<User>,
    admin: User,
    rng: u64,
    presses: usize,
}

impl Field {
    fn next(&mut self, n: usize) -> usize {
        self.rng = self
            .rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.rng >> 33) as usize % n
    }

    fn drain(&mut self) {
        while let Ok(out) = self.events.try_recv() {
            self.screen.show(&out);
        }
    }

    fn posted(&self, start: &str) -> bool {
        self.screen.posts.iter().any(|p| p.starts_with(start))
    }

    fn button(&self, verb: TournamentVerb) -> String {
        self.screen.tournament_button(verb)
    }

    fn tournament_text(&self) -> String {
        self.screen.tournament_text()
    }

    async fn press(&mut self, who: &User, token: String) -> Outbox {
        send(
            &self.host,
            &mut self.screen,
            chat("club"),
            who,
            Command::press(token),
        )
        .await
    }

    /// People press until `done` says so (computer players and new rounds come as events);
    /// `limit` presses at most.
    async fn play_until(&mut self, limit: usize, done: impl Fn(&Field) -> bool) {
        let mut pressed = 0;
        loop {
            self.drain();
            if done(self) || pressed >= limit {
                return;
            }
            let who = self
                .people
                .iter()
                .find(|p| !self.screen.my_buttons(&p.id).is_empty())
                .cloned();
            let Some(who) = who else {
                match tokio::time::timeout(Duration::from_secs(60), self.events.recv()).await {
                    Ok(Some(out)) => self.screen.show(&out),
                    _ => panic!(
                        "the tournament stalled after {} presses:\n{}",
                        self.presses,
                        self.tournament_text()
                    ),
                }
                continue;
            };
            let buttons = self.screen.my_buttons(&who.id);
            let token = buttons[self.next(buttons.len())].1.clone();
            let out = send(
                &self.host,
                &mut self.screen,
                dm(&who.id),
                &who,
                Command::press(token),
            )
            .await;
            assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
            pressed += 1;
            self.presses += 1;
        }
    }
}

async fn open(dir: &tempfile::TempDir) -> (Arc<Host>, UnboundedReceiver<Outbox>) {
    Host::new(sqlite(dir, "club.db").await, config())
}

/// Registration, the start and round 1, then round 2 until `cut` presses: on a runtime of its
/// own, dropped at the end with every task the host spawned (a crash, as far as the host can
/// tell).
fn first_half(dir: &tempfile::TempDir, cut: usize) -> (Screen, u64, usize) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let result = rt.block_on(async {
        let (host, events) = open(dir).await;
        let people: Vec<User> = (1..=9).map(|i| user(&format!("p{i}"), false)).collect();
        let admin = user("admin", true);
        let mut f = Field {
            host,
            events,
            screen: Screen::default(),
            people: people.clone(),
            admin: admin.clone(),
            rng: 7,
            presses: 0,
        };
        let g = chat("club");
        send(
            &f.host,
            &mut f.screen,
            g.clone(),
            &admin,
            Command::SetTurnLimit(None),
        )
        .await;
        // Only an admin opens one.
        let out = send(
            &f.host,
            &mut f.screen,
            g.clone(),
            &people[0],
            Command::NewTournament {
                rules: None,
                rounds: 3,
                deals: Some(2),
                minutes: None,
                turn: None,
                computers: true,
            },
        )
        .await;
        assert_eq!(
            out.reply_text(),
            Some("Only an admin of this chat or the tournament's organiser may do that.")
        );
        let out = send(
            &f.host,
            &mut f.screen,
            g.clone(),
            &admin,
            Command::NewTournament {
                rules: None,
                rounds: 3,
                deals: Some(2),
                minutes: None,
                turn: None,
                computers: true,
            },
        )
        .await;
        assert_eq!(out.reply_text(), Some("ADMIN opens a Zole tournament."));
        let text = f.tournament_text();
        assert!(text.contains("3 rounds, 2 deals per table a round"), "{text}");
        assert!(text.contains("Nobody has entered yet."), "{text}");
        let commitment = text
            .split("round 1): ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        // The group sees its first 16 digits, as a table message shows its deal's.
        assert_eq!(
            commitment.chars().count(),
            stikis_host::table::FINGERPRINT_DIGITS + 1,
            "{text}"
        );
        assert!(commitment.ends_with('…'), "{text}");
        // Too few to start.
        let join = f.button(TournamentVerb::Join);
        for p in &people[..2] {
            let out = f.press(p, join.clone()).await;
            assert_eq!(
                out.reply_text(),
                Some(format!("{} has entered.", p.name).as_str())
            );
        }
        let out = f.press(&people[0], join.clone()).await;
        assert_eq!(out.reply_text(), Some("You have entered already."));
        let out = f.press(&admin, f.button(TournamentVerb::Start)).await;
        assert_eq!(
            out.reply_text(),
            Some("A tournament needs at least 3 players; 2 have entered.")
        );
        // Taking an entry back before the start, and entering again.
        let out = f.press(&people[1], f.button(TournamentVerb::Leave)).await;
        assert_eq!(out.reply_text(), Some("✓"));
        let out = f.press(&people[1], f.button(TournamentVerb::Leave)).await;
        assert_eq!(out.reply_text(), Some("You have not entered."));
        for p in &people[1..] {
            f.press(p, join.clone()).await;
        }
        // Only the organiser or an admin seats computer players and starts.
        let out = f.press(&people[3], f.button(TournamentVerb::AddComputer)).await;
        assert_eq!(
            out.reply_text(),
            Some("Only an admin of this chat or the tournament's organiser may do that.")
        );
        for _ in 0..3 {
            f.press(&admin, f.button(TournamentVerb::AddComputer)).await;
        }
        let text = f.tournament_text();
        assert!(text.contains("Entered (12): P1, P2, P3, P4"), "{text}");
        assert!(text.contains("Computer 1, Computer 2, Computer 3"), "{text}");
        let out = f.press(&admin, f.button(TournamentVerb::Start)).await;
        assert_eq!(out.reply_text(), Some("✓"));
        let started = f
            .screen
            .posts
            .iter()
            .find(|p| p.starts_with("The tournament begins with 12 players."))
            .expect("the start is posted")
            .clone();
        let seed = started
            .split("Draw seed: ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        let seed: stikis_core::Seed = seed.parse().unwrap();
        let full = stikis_host::table::commitment(&seed);
        assert_eq!(
            stikis_host::table::fingerprint(&full),
            commitment,
            "the seed revealed is the one committed to"
        );
        let round1 = f
            .screen
            .posts
            .iter()
            .find(|p| p.starts_with("Round 1 of 3:"))
            .expect("round 1's seating")
            .clone();
        assert_eq!(round1.lines().count(), 4, "three tables: {round1}");
        // Every person is told their table and seat.
        for p in &people {
            let (_, text, _) = f
                .screen
                .latest
                .iter()
                .find(|(k, m)| k.contains(".r1.t") && m.0 == p.id)
                .unwrap_or_else(|| panic!("{} is not told where to sit", p.id))
                .1;
            assert!(
                text.starts_with("Tournament round 1: you play at table "),
                "{text}"
            );
        }
        // Round 1 is played to its end and round 2 begins.
        f.play_until(100_000, |f| f.posted("Round 2 of 3:")).await;
        let text = f.tournament_text();
        assert!(text.contains("Standings after round 1 of 3"), "{text}");
        assert!(text.contains("1. "), "{text}");
        // A few presses into round 2, then the crash.
        f.play_until(cut, |_| false).await;
        assert!(!f.posted("Round 3 of 3:"));
        (std::mem::take(&mut f.screen), f.rng, f.presses)
    });
    rt.shutdown_background();
    result
}

#[test]
fn nine_people_and_three_computers_play_three_rounds_through_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (screen, rng, presses) = first_half(&dir, 9);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(second_half(&dir, screen, rng, presses));
}

async fn second_half(d: &tempfile::TempDir, screen: Screen, rng: u64, presses: usize) {
    // The restart: a new host on the same database resumes every table and the tournament.
    let (host, events) = open(d).await;
    let mut f = Field {
        host,
        events,
        screen,
        people: (1..=9).map(|i| user(&format!("p{i}"), false)).collect(),
        admin: user("admin", true),
        rng,
        presses,
    };
    let out = f.host.recover().await.unwrap();
    f.screen.show(&out);
    // A late arrival enters for round 3; P9 withdraws in the middle of round 2.
    let p10 = user("p10", false);
    let out = f.press(&p10, f.button(TournamentVerb::Join)).await;
    assert_eq!(
        out.reply_text(),
        Some("P10 has entered and plays from the next round.")
    );
    let p9 = f.people.pop().unwrap();
    let out = f.press(&p9, f.button(TournamentVerb::Leave)).await;
    assert_eq!(out.reply_text(), Some("✓"));
    f.people.push(p10);
    f.play_until(100_000, |f| f.posted("🏆 The tournament is over."))
        .await;
    let fin = f
        .screen
        .posts
        .iter()
        .find(|p| p.starts_with("🏆 The tournament is over."))
        .unwrap()
        .clone();
    assert_eq!(fin.lines().count(), 14, "13 players ranked: {fin}");
    assert_eq!(fin.matches(", 3 rounds").count(), 11, "{fin}");
    assert!(
        fin.contains("P9 (withdrawn): ") && fin.contains(", 2 rounds"),
        "{fin}"
    );
    assert!(fin.contains("P10: ") && fin.contains(", 1 round\n"), "{fin}");
    assert!(!f.posted("Round 4"), "3 rounds only");
    // The tournament's record: 3 rounds of 3 tables of 2 deals, which verifies.
    let admin = f.admin.clone();
    let out = send(
        &f.host,
        &mut f.screen,
        chat("club"),
        &admin,
        Command::Tournament(TournamentVerb::Record),
    )
    .await;
    let value = file_of(&out).expect("the tournament's record");
    let rec: TournamentRecord = serde_json::from_value(value).unwrap();
    // The record keeps the whole commitment, which the group's message shortened.
    assert_eq!(rec.draw_commitment.len(), 64, "{}", rec.draw_commitment);
    assert!(
        f.tournament_text()
            .contains(&stikis_host::table::fingerprint(&rec.draw_commitment)),
        "{}",
        f.tournament_text()
    );
    assert!(!f.tournament_text().contains(&rec.draw_commitment));
    assert_eq!(rec.rounds.len(), 3);
    for r in &rec.rounds {
        assert_eq!(r.tables.len(), 3);
        for t in &r.tables {
            assert_eq!(t.players.len(), 4);
            assert_eq!(t.record.deals.len(), 2);
        }
    }
    let seated = |r: usize| -> Vec<String> {
        rec.rounds[r]
            .tables
            .iter()
            .flat_map(|t| t.players.clone())
            .collect()
    };
    assert!(seated(1).contains(&"P9".to_string()) && !seated(2).contains(&"P9".to_string()));
    assert!(!seated(1).contains(&"P10".to_string()) && seated(2).contains(&"P10".to_string()));
    assert!(rec.rounds[1]
        .tables
        .iter()
        .any(|t| t.replaced == vec!["P9".to_string()]));
    let standings = verify(&rec).expect("the record verifies");
    // The standings posted are those the records give, in order.
    for (i, s) in standings.iter().enumerate() {
        let line = fin.lines().nth(i + 1).unwrap().replace(" (withdrawn)", "");
        assert!(
            line.starts_with(&format!(
                "{}. {}: {} big point{}, {:+} game points",
                i + 1,
                s.player,
                s.big_points,
                if s.big_points.to_string() == "1" { "" } else { "s" },
                s.plus_minus
            )),
            "{line} vs {s:?}"
        );
    }
    // A changed record fails, naming where.
    let mut changed = rec.clone();
    changed.standings.swap(0, 1);
    assert!(matches!(verify(&changed), Err(VerifyError::Standings(_))));
    let mut changed = rec.clone();
    changed.rounds[1].tables[0].record.deals[0]["seed"] = serde_json::Value::String("00".repeat(32));
    assert!(
        matches!(
            verify(&changed),
            Err(VerifyError::Table {
                round: 2,
                table: 1,
                ..
            })
        ),
        "{:?}",
        verify(&changed)
    );
    // Over: its buttons are gone, and a press of an old one says so.
    let text = f.tournament_text();
    assert!(text.contains("Standings after round 3 of 3"), "{text}");
}

/// The first line of the tournament message as shown now.
fn header(f: &Field) -> String {
    f.tournament_text().lines().next().unwrap_or_default().to_string()
}

/// The first line of the last tournament message in an outbox.
fn header_in(out: &Outbox) -> Option<String> {
    out.0.iter().rev().find_map(|o| match o {
        stikis_host::Out::Public { key, text, .. } if key.starts_with('T') && !key.contains('.') => {
            text.lines().next().map(str::to_string)
        }
        _ => None,
    })
}

fn posted_containing(f: &Field, needle: &str) -> bool {
    f.screen.posts.iter().any(|p| p.contains(needle))
}

/// Rounds of 30 minutes: when the time is up the deal in progress is finished and the table
/// ends. The organiser pauses (the next round waits) and resumes; a player withdraws mid-round
/// (a computer player finishes for them, the round counts and the record marks them); another
/// tournament is cancelled mid-round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timed_rounds_pause_resume_withdrawal_and_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let (host, events) = open(&dir).await;
    let people: Vec<User> = (1..=4).map(|i| user(&format!("p{i}"), false)).collect();
    let admin = user("admin", true);
    let mut f = Field {
        host,
        events,
        screen: Screen::default(),
        people: people.clone(),
        admin: admin.clone(),
        rng: 11,
        presses: 0,
    };
    let g = chat("club");
    send(
        &f.host,
        &mut f.screen,
        g.clone(),
        &admin,
        Command::SetTurnLimit(None),
    )
    .await;
    let out = send(
        &f.host,
        &mut f.screen,
        g.clone(),
        &admin,
        Command::NewTournament {
            rules: None,
            rounds: 2,
            deals: None,
            minutes: Some(30),
            turn: None,
            computers: false,
        },
    )
    .await;
    assert_eq!(out.reply_text(), Some("ADMIN opens a Zole tournament."));
    assert!(f.tournament_text().contains("2 rounds, 30 minutes a round."));
    // The message's header follows the tournament's state, from entries open to the end.
    assert_eq!(
        header(&f),
        "🏆 Zole tournament: 2 rounds, 30 minutes a round. Entries are open: press Join."
    );
    // People only: no computer button, and the verb is refused.
    let m = send(
        &f.host,
        &mut f.screen,
        g.clone(),
        &admin,
        Command::Tournament(TournamentVerb::AddComputer),
    )
    .await;
    assert_eq!(m.reply_text(), Some("This tournament is for people only."));
    let join = f.button(TournamentVerb::Join);
    for p in &people {
        f.press(p, join.clone()).await;
    }
    let out = f.press(&admin, f.button(TournamentVerb::Start)).await;
    assert_eq!(
        header_in(&out).as_deref(),
        Some("🏆 Zole tournament: 2 rounds, 30 minutes a round. Round 1 of 2 is on."),
        "{out:?}"
    );
    // Paused at once: round 1 plays, round 2 waits.
    let out = f.press(&people[0], f.button(TournamentVerb::Pause)).await;
    assert_eq!(
        out.reply_text(),
        Some("Only an admin of this chat or the tournament's organiser may do that.")
    );
    f.press(&admin, f.button(TournamentVerb::Pause)).await;
    assert!(posted_containing(&f, "ADMIN has paused the tournament"));
    assert!(
        header(&f).ends_with("Round 1 of 2; paused: the next round waits until it is resumed."),
        "{}",
        header(&f)
    );
    f.play_until(10_000, |f| posted_containing(f, "Result of deal 1"))
        .await;
    // Time is up during deal 2: it is finished, and the table ends.
    f.host.advance_clock(31 * 60_000);
    f.play_until(10_000, |f| posted_containing(f, "Round 1, table 1 has finished"))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    f.drain();
    assert!(!f.posted("Round 2 of 2:"), "paused: round 2 waits");
    assert!(
        f.tournament_text().contains("Standings after round 1 of 2"),
        "{}",
        f.tournament_text()
    );
    assert!(header(&f).contains("Round 1 of 2; paused"), "{}", header(&f));
    f.press(&admin, f.button(TournamentVerb::Resume)).await;
    assert!(f.posted("Round 2 of 2:"));
    assert!(header(&f).ends_with("Round 2 of 2 is on."), "{}", header(&f));
    // P4 withdraws in the middle of round 2.
    f.play_until(3, |_| false).await;
    let out = f.press(&people[3], f.button(TournamentVerb::Leave)).await;
    assert_eq!(out.reply_text(), Some("✓"));
    assert!(posted_containing(
        &f,
        "P4 has withdrawn; a computer player finishes this round for them"
    ));
    f.people.truncate(3);
    f.play_until(10_000, |f| f.posted("🏆 The tournament is over."))
        .await;
    // The finishing round's message may come with the events after the post.
    tokio::time::sleep(Duration::from_millis(300)).await;
    f.drain();
    assert_eq!(
        header(&f),
        "🏆 Zole tournament: 2 rounds, 30 minutes a round. The tournament is over."
    );
    assert!(!f.tournament_text().contains("Entries are open"));
    let out = send(
        &f.host,
        &mut f.screen,
        g.clone(),
        &admin,
        Command::Tournament(TournamentVerb::Record),
    )
    .await;
    let rec: TournamentRecord = serde_json::from_value(file_of(&out).unwrap()).unwrap();
    assert_eq!(rec.deals_per_round, None);
    assert_eq!(
        rec.rounds[0].tables[0].record.deals.len(),
        2,
        "the deal in progress was finished"
    );
    assert_eq!(rec.rounds[1].tables[0].replaced, vec!["P4".to_string()]);
    assert!(rec.rounds[0].tables[0].replaced.is_empty());
    verify(&rec).expect("the record verifies");
    assert!(
        f.tournament_text().contains("P4 (withdrawn)"),
        "{}",
        f.tournament_text()
    );

    // Another chat's tournament, of 1 second a move, cancelled mid-round: its own turn timer
    // moves for whoever waits; its tables stop, nothing is counted.
    let h = chat("hall");
    let mut s = Screen::default();
    send(&f.host, &mut s, h.clone(), &admin, Command::SetTurnLimit(None)).await;
    send(
        &f.host,
        &mut s,
        h.clone(),
        &admin,
        Command::NewTournament {
            rules: None,
            rounds: 1,
            deals: Some(2),
            minutes: None,
            turn: Some(1),
            computers: false,
        },
    )
    .await;
    for p in &people[..3] {
        send(
            &f.host,
            &mut s,
            h.clone(),
            p,
            Command::Tournament(TournamentVerb::Join),
        )
        .await;
    }
    send(
        &f.host,
        &mut s,
        h.clone(),
        &admin,
        Command::Tournament(TournamentVerb::Start),
    )
    .await;
    // The chat's timer is off, the tournament's is not: whoever is to act runs out of time.
    let timed_out = loop {
        match tokio::time::timeout(Duration::from_secs(30), f.events.recv()).await {
            Ok(Some(out)) => {
                s.show(&out);
                if let Some(t) = s.posts.iter().find(|p| p.contains("ran out of time")) {
                    break t.clone();
                }
            }
            _ => panic!("the tournament's turn timer never fired"),
        }
    };
    assert!(
        timed_out.contains("a computer player moved instead"),
        "{timed_out}"
    );
    let tables = f.host.store().open_tables(&h.community_ref()).await.unwrap();
    let hall: Vec<_> = tables.iter().filter(|t| t.chat.chat == "hall").collect();
    assert_eq!(hall.len(), 1);
    let out = send(
        &f.host,
        &mut s,
        h.clone(),
        &admin,
        Command::Tournament(TournamentVerb::Cancel),
    )
    .await;
    assert!(
        out.0
            .iter()
            .any(|o| o.text().starts_with("ADMIN has cancelled the tournament")),
        "{out:?}"
    );
    let row = f.host.store().table(hall[0].id).await.unwrap().unwrap();
    assert_eq!(row.status, stikis_host::store::TableStatus::Stopped);
    let cancelled = header_in(&out).unwrap_or_default();
    assert!(
        cancelled.starts_with("🏆 Zole tournament: 1 round, 2 deals per table a round")
            && cancelled.ends_with("a move. The tournament was cancelled."),
        "{cancelled}"
    );
    let out = send(
        &f.host,
        &mut s,
        h.clone(),
        &people[0],
        Command::Tournament(TournamentVerb::Join),
    )
    .await;
    assert_eq!(out.reply_text(), Some("This tournament is over."));
    let out = send(
        &f.host,
        &mut s,
        h.clone(),
        &admin,
        Command::Tournament(TournamentVerb::Record),
    )
    .await;
    assert_eq!(
        out.reply_text(),
        Some("The tournament has no finished round yet.")
    );
}
