//! A chat's Zole score sheet across tables: a new table starts from the open sheet (its totals
//! and its open pules, by player, also after a restart), stopping leaves the pules open,
//! `CloseSheet` settles them, and the leaderboard counts one game per stopped table.

use std::sync::Arc;

use serde_json::json;
use stikis_core::ai::Level;
use stikis_core::Seed;
use stikis_host::games::settle_sheet;
use stikis_host::store::{ChatRef, CommunityRef, Platform, SheetTotal, Store};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, User};

fn user(id: &str, admin: bool) -> User {
    User {
        id: id.into(),
        name: id.to_uppercase(),
        admin,
    }
}

fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "group-1", "g")
}

fn config() -> HostConfig {
    HostConfig {
        bot_budget_ms: 20,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    }
}

async fn send(host: &Arc<Host>, who: &str, command: Command) -> Outbox {
    host.handle(Request {
        chat: chat(),
        user: user(who, who == "admin"),
        command,
    })
    .await
}

/// Anna opens a table, Bruno joins, a computer player takes seat 3, Anna starts.
async fn open_table(host: &Arc<Host>) -> Outbox {
    send(host, "admin", Command::SetTurnLimit(None)).await;
    send(
        host,
        "anna",
        Command::NewTable {
            game: "zole".into(),
            rules: None,
            seats: Some(3),
        },
    )
    .await;
    send(host, "bruno", Command::Join).await;
    send(host, "anna", Command::AddBot { level: Level::Basic }).await;
    send(host, "anna", Command::Start).await
}

/// Presses the first button of whoever of Anna and Bruno is to act until one deal is over;
/// returns that deal's result post.
async fn play_one_deal(host: &Arc<Host>, mut out: Outbox) -> String {
    let mut hands: std::collections::HashMap<String, Vec<String>> = Default::default();
    for _ in 0..500 {
        for o in &out.0 {
            match o {
                Out::Private { user, buttons, .. } => {
                    let b = stikis_host::outbox::pressable(buttons)
                        .into_iter()
                        .flatten()
                        .map(|b| b.token)
                        .collect();
                    hands.insert(user.clone(), b);
                }
                Out::Post { text, .. } if text.starts_with("Result of deal 1") => {
                    return text.clone();
                }
                _ => {}
            }
        }
        let (who, token) = ["anna", "bruno"]
            .iter()
            .find_map(|w| hands.get(*w).and_then(|b| b.first()).map(|t| (*w, t.clone())))
            .expect("somebody can act");
        out = send(host, who, Command::press(token)).await;
        assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
    }
    panic!("the deal does not end")
}

fn total(t: &[SheetTotal], player: &str) -> i64 {
    t.iter()
        .find(|s| s.player == player)
        .unwrap_or_else(|| panic!("{player} not on the sheet {t:?}"))
        .points
}

#[test]
fn closing_a_sheet_settles_each_personal_pule_among_the_last_tables_players() {
    // Dora is not at the last table: her pule costs her 1 to each of its three players;
    // Anna's costs her 1 to each of the two others; common pules and branches lapse.
    let extras = json!({"common": 2, "tree": 1, "personal": ["dora", "anna"],
        "players": ["anna", "bruno", "computer:2"], "settle_at_end": true});
    let mut s = settle_sheet("zole", &extras);
    s.sort();
    let expected = [("anna", -1), ("bruno", 2), ("computer:2", 2), ("dora", -3)];
    assert_eq!(s, expected.map(|(k, d)| (k.to_string(), d)).to_vec());
    // Rules without the end settlement settle nothing.
    let off = json!({"common": 0, "tree": 0, "personal": ["anna"], "players": ["anna", "bruno", "c"],
        "settle_at_end": false});
    assert!(settle_sheet("zole", &off).iter().all(|(_, d)| *d == 0));
}

#[tokio::test]
async fn a_new_table_goes_on_from_the_chats_open_sheet_until_it_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sheet.db");
    let path = path.to_str().unwrap().to_string();
    let store = Store::open_sqlite(&path).await.unwrap();
    // An open sheet from earlier tables: totals, a common pule and personal pules of Anna (at
    // the new table) and Dora (not at it).
    let carried = vec![
        SheetTotal {
            player: "anna".into(),
            name: "ANNA".into(),
            points: 5,
        },
        SheetTotal {
            player: "dora".into(),
            name: "DORA".into(),
            points: -5,
        },
    ];
    let pules = json!({"common": 1, "tree": 0, "personal": ["dora", "anna"],
        "players": ["anna", "dora", "computer:2"], "settle_at_end": true});
    store
        .save_score_sheet(&chat(), "zole", &carried, &pules)
        .await
        .unwrap();

    let (host, _events) = Host::new(store.clone(), config());
    let out = open_table(&host).await;
    // The carried pules are in play: after one deal Anna still holds a personal pule or has
    // removed it by winning, and no single deal from empty pules can write one.
    let result = play_one_deal(&host, out).await;
    assert!(result.contains("personal: ANNA"), "{result}");
    // The record cannot carry those pules (RECORD.md has no field for them): the export says
    // so beside the file, and the replay indeed scores from an empty sheet.
    let out = send(&host, "bruno", Command::Record).await;
    let (mut file, mut note) = (None, None);
    for o in &out.0 {
        match o {
            Out::File { content, .. } => file = Some(content.clone()),
            Out::Post { text, .. } => note = Some(text.clone()),
            _ => {}
        }
    }
    let note = note.expect("a note beside the record");
    assert!(
        note.contains("common: 1, personal: 2, tree branches: 0") && note.contains("stikis replay"),
        "{note}"
    );
    let replayed = stikis_core::record::replay(file.expect("the record").as_bytes()).unwrap();
    assert_eq!(
        replayed["deals"][0]["pules"]["personal"][0], 0,
        "a replay starts from an empty sheet, where Anna holds no pule: {replayed}"
    );
    // Closing needs the table stopped first.
    let out = send(&host, "anna", Command::CloseSheet).await;
    assert_eq!(
        out.reply_text(),
        Some("Stop the table first, then close the score sheet.")
    );
    send(&host, "anna", Command::Stop).await;
    let sheet = store.score_sheet(&chat(), "zole").await.unwrap().unwrap();
    // The totals went on from the carried ones; Dora's pule and total stay on the sheet.
    let table_totals: i64 = ["anna", "bruno", "computer:2"]
        .iter()
        .map(|p| total(&sheet.totals, p))
        .sum();
    assert_eq!(
        table_totals, 5,
        "Zole deals sum to zero, so the table's sum is Anna's 5"
    );
    assert_eq!(total(&sheet.totals, "dora"), -5);
    assert_eq!(sheet.pules["personal"][0], "dora");
    assert_eq!(sheet.pules["players"], json!(["anna", "bruno", "computer:2"]));
    // One game each for the stopped table.
    let board = CommunityRef::new(Platform::Telegram, "group-1");
    for who in ["anna", "bruno"] {
        let s = store.user_stats(&board, "zole", who).await.unwrap().unwrap();
        assert_eq!((s.stats.games, s.stats.deals), (1, 1), "{who}");
    }

    // A second table goes on from that sheet, also across a restart.
    open_table(&host).await;
    drop(host);
    let (host, _events) = Host::new(Store::open_sqlite(&path).await.unwrap(), config());
    host.recover().await.unwrap();
    send(&host, "anna", Command::Stop).await;
    let again = store.score_sheet(&chat(), "zole").await.unwrap().unwrap();
    assert_eq!(again.totals, sheet.totals, "no deal was played: nothing changes");
    assert_eq!(
        again.pules, sheet.pules,
        "the restarted table lost the carried pules"
    );
    let s = store.user_stats(&board, "zole", "anna").await.unwrap().unwrap();
    assert_eq!(s.stats.games, 2);

    // Only admins and the sheet's players may close it.
    let out = send(&host, "cilda", Command::CloseSheet).await;
    assert_eq!(
        out.reply_text(),
        Some("Only the table's creator or an admin may do that.")
    );
    let out = send(&host, "bruno", Command::CloseSheet).await;
    let post = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::Post { text, .. } => Some(text.clone()),
            _ => None,
        })
        .expect("the final standings");
    assert!(post.starts_with("The score sheet is closed."), "{post}");
    // Dora's pule is settled among the last table's three players.
    assert!(post.contains("DORA -8 (-3)"), "{post}");
    assert!(store.score_sheet(&chat(), "zole").await.unwrap().is_none());
    let out = send(&host, "bruno", Command::CloseSheet).await;
    assert_eq!(out.reply_text(), Some("This chat has no open score sheet."));

    // The next table starts a fresh sheet.
    open_table(&host).await;
    send(&host, "anna", Command::Stop).await;
    let fresh = store.score_sheet(&chat(), "zole").await.unwrap().unwrap();
    assert!(fresh.totals.iter().all(|t| t.points == 0), "{:?}", fresh.totals);
    assert_eq!(fresh.pules["personal"], json!([]));
}

/// The deltas of a result post, by name: "This deal: ANNA +2 · BRUNO -1 · …".
fn deltas(result: &str) -> Vec<(String, i64)> {
    let line = result
        .lines()
        .find_map(|l| l.strip_prefix("This deal: "))
        .unwrap_or_else(|| panic!("no deltas in {result}"));
    line.split(" · ")
        .map(|p| {
            let (name, d) = p.rsplit_once(' ').unwrap();
            (name.to_string(), d.parse().unwrap())
        })
        .collect()
}

/// The boards: points of today, this week, this month, this season and all time are the
/// deals' points; a new season starts empty and the old one stays viewable; a stopped table
/// is rated once, and /stats shows the rating and its change.
#[tokio::test]
async fn boards_by_period_and_season_and_ratings_after_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(dir.path().join("boards.db").to_str().unwrap())
        .await
        .unwrap();
    let (host, _events) = Host::new(store.clone(), config());
    let out = open_table(&host).await;
    let result = play_one_deal(&host, out).await;
    let d = deltas(&result);
    let anna = d.iter().find(|x| x.0 == "ANNA").unwrap().1;
    let top = |board| {
        let host = host.clone();
        async move {
            send(&host, "bruno", Command::Leaderboard(board))
                .await
                .reply_text()
                .unwrap()
                .to_string()
        }
    };
    use stikis_host::store::Period;
    use stikis_host::Board;
    for (period, title) in [
        (Period::Day, "Zole, today:"),
        (Period::Week, "Zole, this week:"),
        (Period::Month, "Zole, this month:"),
        (Period::Season(None), "Zole, season 1:"),
        (Period::All, "Zole, all time:"),
    ] {
        let board = top(Board::Points(period)).await;
        assert!(board.starts_with(title), "{board}");
        assert!(board.contains(&format!("ANNA {anna} (one deal)")), "{board}");
        assert!(
            !board.contains("Computer"),
            "computer players are not on boards: {board}"
        );
    }
    // Nothing rated before the table closes.
    assert_eq!(top(Board::Rating).await, "No games have been counted here yet.");
    send(&host, "anna", Command::Stop).await;
    let board = top(Board::Rating).await;
    assert!(board.starts_with("Zole, rating:\n1. "), "{board}");
    assert!(
        board.contains("ANNA") && board.contains("BRUNO") && board.contains("(one game)"),
        "{board}"
    );
    // The winner of the deal ranks above the loser.
    let bruno = d.iter().find(|x| x.0 == "BRUNO").unwrap().1;
    if anna != bruno {
        let (hi, lo) = if anna > bruno {
            ("ANNA", "BRUNO")
        } else {
            ("BRUNO", "ANNA")
        };
        assert!(board.find(hi) < board.find(lo), "{board}");
    }
    let stats = send(&host, "anna", Command::Stats).await;
    let stats = stats.reply_text().unwrap();
    let line = stats
        .lines()
        .find(|l| l.starts_with("Zole: rating "))
        .unwrap_or_else(|| panic!("{stats}"));
    let c = CommunityRef::new(Platform::Telegram, "group-1");
    let rated = store.ratings_of(&c, "zole", &["anna".into()]).await.unwrap();
    assert_eq!(
        line,
        format!(
            "Zole: rating {} ({:+} with the last game)",
            rated[0].rating.shown(),
            rated[0].change
        )
    );
    assert_eq!(rated[0].games, 1);
    // Only an admin starts a season; the new one is empty, the old one stays.
    let out = send(&host, "bruno", Command::NewSeason).await;
    assert_eq!(
        out.reply_text(),
        Some("Only the table's creator or an admin may do that.")
    );
    let out = send(&host, "admin", Command::NewSeason).await;
    assert!(
        out.0
            .iter()
            .any(|o| o.text().starts_with("ADMIN has started season 2.")),
        "{out:?}"
    );
    assert_eq!(
        top(Board::Points(Period::Season(None))).await,
        "No deals have been counted here in that time."
    );
    let old = top(Board::Points(Period::Season(Some(1)))).await;
    assert!(
        old.starts_with("Zole, season 1:") && old.contains(&format!("ANNA {anna}")),
        "{old}"
    );
    assert_eq!(
        top(Board::Points(Period::Season(Some(3)))).await,
        "There is no season 3 here."
    );
    // The words of /top.
    assert_eq!(Board::parse(&[]), Some(Board::Rating));
    assert_eq!(
        Board::parse(&["season", "2"]),
        Some(Board::Points(Period::Season(Some(2))))
    );
    assert_eq!(Board::parse(&["Week"]), Some(Board::Points(Period::Week)));
    assert_eq!(Board::parse(&["season", "0"]), None);
    assert_eq!(Board::parse(&["year"]), None);
}

/// A community names its computer players by seat (admins only); the names are used at its
/// tables and in their records, and `off` brings the usual names back.
#[tokio::test]
async fn a_community_renames_its_computer_players() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(dir.path().join("names.db").to_str().unwrap())
        .await
        .unwrap();
    let (host, _events) = Host::new(store, config());
    let names = |v: &[&str]| Command::SetComputerNames(v.iter().map(|s| s.to_string()).collect());
    let out = send(&host, "anna", names(&["Jānis"])).await;
    assert_eq!(
        out.reply_text(),
        Some("Only the table's creator or an admin may do that.")
    );
    let out = send(&host, "admin", names(&["Jānis", "", "Ilze"])).await;
    assert_eq!(
        out.reply_text(),
        Some("Computer players are called, by seat: 1. Jānis, 2. Computer 2, 3. Ilze")
    );
    // Anna's table: Bruno at seat 2, a computer player at seat 3.
    let out = open_table(&host).await;
    let table = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::Public { key, text, .. } if key.ends_with(".lobby") => Some(text.clone()),
            _ => None,
        })
        .expect("the lobby message, who sits where");
    assert!(
        table.contains("3. Ilze") && !table.contains("Computer 3"),
        "{table}"
    );
    let rec = send(&host, "anna", Command::Record).await;
    let file = rec.0.iter().find_map(|o| match o {
        Out::File { content, .. } => Some(content.clone()),
        _ => None,
    });
    let rec: serde_json::Value = serde_json::from_str(&file.expect("a record")).unwrap();
    assert_eq!(rec["players"], json!(["ANNA", "BRUNO", "Ilze"]));
    send(&host, "anna", Command::Stop).await;
    let out = send(&host, "admin", names(&[])).await;
    assert_eq!(
        out.reply_text(),
        Some("Computer players have their usual names again.")
    );
    let out = open_table(&host).await;
    assert!(
        out.0.iter().any(|o| matches!(o, Out::Public { key, text, .. } if key.ends_with(".lobby") && text.contains("3. Computer 3"))),
        "{out:?}"
    );
}

/// A host on a new SQLite file in `dir` with a started table (`open_table`), and the person
/// whose hand has a button to press, with that button's token.
async fn started(dir: &tempfile::TempDir, file: &str) -> (Store, Arc<Host>, String, String) {
    let store = Store::open_sqlite(dir.path().join(file).to_str().unwrap())
        .await
        .unwrap();
    let (host, _events) = Host::new(store.clone(), config());
    let out = open_table(&host).await;
    let (presser, token) = out
        .0
        .iter()
        .rev()
        .find_map(|o| match o {
            Out::Private { user, buttons, .. } => buttons
                .iter()
                .flatten()
                .find(|b| !b.disabled)
                .map(|b| (user.clone(), b.token.clone())),
            _ => None,
        })
        .expect("a hand with a button");
    (store, host, presser, token)
}

/// A press's time limit counts from when it reached the process (`handle_since`), not from
/// when the host took it up: one that waited longer than its limit before it was handled
/// (for its chat's or its table's previous request) is answered "try again" and never
/// applied; the same press, just received, is.
#[tokio::test]
async fn a_press_that_waited_past_its_time_limit_is_answered_try_again_unapplied() {
    let dir = tempfile::tempdir().unwrap();
    let (store, host, presser, token) = started(&dir, "late.db").await;
    let table = stikis_host::token::Token::decode(&token).unwrap().table;
    let logged = store.actions(table).await.unwrap().len();
    let press = || Request {
        chat: chat(),
        user: user(&presser, false),
        command: Command::press(token.clone()),
    };
    let limit = stikis_host::owner::PRESS_LIMIT.as_millis() as i64;
    let late = stikis_host::store::now_ms() - limit - 500;
    let out = host.handle_since(press(), late).await;
    assert_eq!(
        out.reply_text(),
        Some("That did not go through in time: nothing was changed. Please press again."),
        "{out:?}"
    );
    assert_eq!(
        store.actions(table).await.unwrap().len(),
        logged,
        "nothing applied"
    );
    let out = host.handle_since(press(), stikis_host::store::now_ms()).await;
    assert_ne!(
        out.reply_text(),
        Some("That did not go through in time: nothing was changed. Please press again."),
        "{out:?}"
    );
    assert!(
        store.actions(table).await.unwrap().len() > logged,
        "applied when in time"
    );
}

/// With its database gone, a press or a command is answered "try again" in words, nothing is
/// changed and nothing panics.
#[tokio::test]
async fn without_its_database_the_host_says_try_again() {
    let dir = tempfile::tempdir().unwrap();
    let (store, host, presser, token) = started(&dir, "gone.db").await;
    store.close().await;
    let try_again =
        "The bot cannot reach its database just now: nothing was changed. Please try again in a moment.";
    for (who, command) in [
        (presser.as_str(), Command::press(token)),
        ("bruno", Command::Stats),
        ("anna", Command::Stop),
    ] {
        let out = send(&host, who, command).await;
        assert_eq!(out.reply_text(), Some(try_again), "{out:?}");
    }
}
