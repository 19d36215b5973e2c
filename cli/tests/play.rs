//! `stikis play` end to end for every game: scripted key presses play whole deals against
//! computer players, and a second run on the same database resumes the same game.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(db: &std::path::Path, input: &str) -> (bool, String) {
    run_game(&["zole"], db, input)
}

fn run_game(game: &[&str], db: &std::path::Path, input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .arg("play")
        .args(game)
        .args(["--db", db.to_str().unwrap()])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn plays_deals_in_the_terminal_and_resumes_after_quitting() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    // Always pressing the first button plays every kind of turn (bids, burials, cards).
    let (ok, out) = run(&db, &"1\n".repeat(120));
    assert!(ok, "{out}");
    assert!(out.contains("Result of deal 1"), "{out}");
    assert!(out.contains("Your cards:"), "{out}");
    let deals = out.matches("Result of deal").count();
    let (ok, out) = run(&db, &format!("{}q\n", "1\n".repeat(40)));
    assert!(ok, "{out}");
    assert!(out.starts_with("Resuming your game."), "{out}");
    assert!(
        out.contains(&format!("Result of deal {}", deals + 1)),
        "the same game goes on:\n{out}"
    );
    // Bad input gets an answer, not a crash.
    let (ok, out) = run(&db, "x\n99\nq\n");
    assert!(ok && out.contains("Type 1"), "{out}");
    assert!(
        out.contains("or r (save the record), s (stop the table), q (quit)"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("Your game is kept: run the same command again to resume it."),
        "q says the game is kept:\n{out}"
    );
    // End of input (Ctrl-D) says so too; rules given to a resumed game are named, not ignored.
    let (ok, out) = run_game(&["zole", "--preset", "rondo"], &db, "");
    assert!(ok, "{out}");
    assert!(out.contains("--preset applies to a new game only"), "{out}");
    assert!(out.contains("Your game is kept"), "{out}");
    // The rules named are the game's own (lv), not the ones given to the rerun.
    assert!(out.contains("Zole · preset lv\n"), "{out}");
}

#[test]
fn the_rules_are_named_for_every_game() {
    for (game, said) in [
        (&["zole", "--preset", "zolite"][..], "Zole · preset zolite"),
        (
            &["belote", "coinche", "--target", "501"][..],
            "Coinche · rules default · target 501",
        ),
        (
            &["polt", "--hands", "3"][..],
            "Polt to Tzar · rules default · 3 hands",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (ok, out) = run_game(game, &dir.path().join("t.db"), "q\n");
        assert!(ok, "{out}");
        assert!(out.lines().any(|l| l == said), "{game:?}:\n{out}");
    }
}

#[test]
fn stop_asks_first_then_the_sheet_can_be_closed_and_records_go_to_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("stop.db");
    // `s` asks; `n` keeps the game going.
    let (ok, out) = run(&db, "1\ns\nn\nq\n");
    assert!(ok, "{out}");
    assert!(
        out.contains("Stop the table now, in the middle of the game?"),
        "{out}"
    );
    assert!(out.contains("The game goes on."), "{out}");
    // `r` writes the record to a file beside the database and says how to check it.
    let (ok, out) = run(&db, "r\nq\n");
    assert!(ok, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("The game record is saved in "))
        .unwrap_or_else(|| panic!("{out}"));
    let path = line
        .trim_start_matches("The game record is saved in ")
        .split(". `stikis replay")
        .next()
        .unwrap();
    assert!(path.starts_with(dir.path().to_str().unwrap()), "{line}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(record["game"], "zole");
    assert!(!out.contains("\"deals\""), "no JSON on the screen:\n{out}");
    // `s`, `y`, then `c` closes the score sheet in the same run.
    let (ok, out) = run(&db, "s\ny\nc\n");
    assert!(ok, "{out}");
    assert!(
        out.contains("The table is stopped. c closes the score sheet"),
        "{out}"
    );
    assert!(out.contains("The score sheet is closed"), "{out}");
    // The next run starts a new table.
    let (ok, out) = run(&db, "q\n");
    assert!(ok && !out.starts_with("Resuming"), "{out}");
}

#[test]
fn a_bad_option_makes_no_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never.db");
    for bad in [
        &["zole", "--preset", "nosuch"][..],
        &["belote", "skat"],
        &["polt", "--players", "9"],
        &["zole", "--target", "5"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
            .arg("play")
            .args(bad)
            .args(["--db", db.to_str().unwrap()])
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty(), "{bad:?}");
        assert!(!db.exists(), "{bad:?} made {}", db.display());
    }
}

#[test]
fn belote_plays_to_its_target_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("belote.db");
    // Pressing the first button passes in the auction and plays the first legal card.
    let (ok, out) = run_game(&["belote", "--target", "5000"], &db, &"1\n".repeat(60));
    assert!(ok, "{out}");
    assert!(out.contains("Bazar belote · deal 1"), "{out}");
    assert!(out.contains("Your cards:") && out.contains("[1] Pass"), "{out}");
    assert!(out.contains("Result of deal 1"), "{out}");
    let deals = out.matches("Result of deal").count();
    let (ok, out) = run_game(&["belote"], &db, &format!("{}q\n", "1\n".repeat(40)));
    assert!(ok, "{out}");
    assert!(out.starts_with("Resuming your game."), "{out}");
    assert!(
        out.contains(&format!("Result of deal {}", deals + 1)),
        "the same game goes on:\n{out}"
    );
    // Another game on the same database is a table of its own, and a short one ends.
    let (ok, out) = run_game(&["belote", "h2h", "--target", "1"], &db, &"1\n".repeat(200));
    assert!(ok, "{out}");
    assert!(out.contains("Head-to-head belote · deal 1"), "{out}");
    assert!(
        out.contains("The game is over. Run the same command again"),
        "{out}"
    );
    for variant in ["classic", "coinche"] {
        let (ok, out) = run_game(&["belote", variant], &db, "1\n1\nq\n");
        assert!(ok && out.contains("Your cards:"), "{variant}: {out}");
    }
}

#[test]
fn polt_plays_its_hands_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("polt.db");
    let (ok, out) = run_game(
        &["polt", "--players", "6", "--hands", "3"],
        &db,
        &"1\n".repeat(15),
    );
    assert!(ok, "{out}");
    assert!(out.contains("Polt to Tzar · hand 1 of 3"), "{out}");
    assert!(out.contains("Your cards:") && out.contains("You are "), "{out}");
    let (ok, out) = run_game(&["polt"], &db, &"1\n".repeat(100));
    assert!(ok, "{out}");
    assert!(out.starts_with("Resuming your game."), "{out}");
    assert!(out.contains("Result of hand 3"), "{out}");
    assert!(
        out.contains("The game is over. Run the same command again"),
        "{out}"
    );
    let (ok, out) = run_game(&["polt", "--players", "9"], &db, "");
    assert!(!ok && out.is_empty());
}

/// Runs `stikis play zole` in `cwd` with `args` and DATABASE_URL as given, pressing `r` then
/// `q`; returns the path the record was saved at, as printed.
fn save_record_in(cwd: &std::path::Path, args: &[&str], url: Option<&str>) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stikis"));
    cmd.args(["play", "zole"]).args(args).current_dir(cwd);
    match url {
        Some(u) => cmd.env("DATABASE_URL", u),
        None => cmd.env_remove("DATABASE_URL"),
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"r\nq\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("The game record is saved in "))
        .unwrap_or_else(|| panic!("{stdout}"));
    line.trim_start_matches("The game record is saved in ")
        .split(". `stikis replay")
        .next()
        .unwrap()
        .to_string()
}

/// Saved records land beside the SQLite file in use, not in the current directory: for a
/// relative --db, and for a `sqlite:` DATABASE_URL; the message names the absolute path.
#[test]
fn records_are_saved_beside_the_database_file_in_use() {
    let cwd = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let cwd_path = cwd.path().canonicalize().unwrap();
    let files_in = |d: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".json"))
            .collect()
    };

    // --db games/club.db, run in cwd: the record goes to cwd/games.
    std::fs::create_dir(cwd.path().join("games")).unwrap();
    let saved = save_record_in(cwd.path(), &["--db", "games/club.db"], None);
    let saved = std::path::Path::new(&saved);
    assert!(saved.is_absolute(), "{}", saved.display());
    assert_eq!(
        saved.parent().unwrap().canonicalize().unwrap(),
        cwd_path.join("games"),
        "{}",
        saved.display()
    );
    assert!(saved.is_file(), "{}", saved.display());
    assert!(
        files_in(cwd.path()).is_empty(),
        "nothing in the current directory"
    );

    // DATABASE_URL=sqlite://…/other/play.db?mode=rwc: beside that file, not in cwd, and not
    // beside --db (which DATABASE_URL overrides).
    let other = elsewhere.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let url = format!("sqlite://{}?mode=rwc", other.join("play.db").display());
    let saved = save_record_in(cwd.path(), &["--db", "games/club.db"], Some(&url));
    let saved = std::path::Path::new(&saved);
    assert!(other.join("play.db").is_file(), "the URL's database is used");
    assert_eq!(
        saved.parent().unwrap().canonicalize().unwrap(),
        other.canonicalize().unwrap(),
        "{}",
        saved.display()
    );
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    assert_eq!(record["game"], "zole");
    assert!(
        files_in(cwd.path()).is_empty(),
        "nothing in the current directory"
    );
    assert_eq!(
        files_in(&cwd_path.join("games")).len(),
        1,
        "only the first record there"
    );
}

/// A PostgreSQL server that is not there: the terminal says what it tries, then one line that
/// names the server (never the password) and why, and gives up after 10 s (it used to wait
/// the pool's 30 s without a word and print the URL with its password).
#[test]
fn an_unreachable_postgresql_is_named_without_its_password() {
    // A port nothing listens on: the connection is refused at once.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://stikis:s3cret@127.0.0.1:{port}/cards");
    let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["play", "zole", "--plain", "--db", &url])
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let server = format!("PostgreSQL at 127.0.0.1:{port}/cards");
    assert!(err.contains(&format!("Connecting to {server}")), "{err}");
    // Refused connections are tried again until the wait is up (or the driver gives up
    // first): either way one line names the server and what went wrong.
    assert!(
        err.contains(&format!("{server} did not answer within 10 s"))
            || err.contains(&format!("cannot open {server}:")),
        "{err}"
    );
    assert!(!err.contains("s3cret"), "{err}");
}

/// The line that says where a record was saved, and the path it names.
fn saved_at(out: &str) -> (String, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("The game record is saved in "))
        .unwrap_or_else(|| panic!("no record saved:\n{out}"));
    let path = line
        .trim_start_matches("The game record is saved in ")
        .split(". `stikis replay")
        .next()
        .unwrap();
    (line.to_string(), path.to_string())
}

/// `stikis replay FILE`: exit status, standard output, standard error.
fn replay_file(path: &str) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["replay", path])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `r` during a deal saves the finished deals only (the host leaves the deal in progress out
/// of a record) and says so; a record saved during the first deal has no deal, and
/// `stikis replay` says that it checked nothing instead of answering `{"deals":[]…}` alone.
#[test]
fn a_record_saved_during_a_deal_says_that_deal_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mid.db");
    let (ok, out) = run(&db, "r\nq\n");
    assert!(ok, "{out}");
    let (line, path) = saved_at(&out);
    assert!(
        line.ends_with(
            "Deal 1 (in progress) is not in it: a record holds finished deals only, so this one holds none."
        ),
        "{line}"
    );
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record["deals"], serde_json::json!([]), "{record}");
    let (code, stdout, stderr) = replay_file(&path);
    assert_eq!(code, Some(0), "{stderr}");
    let result: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["deals"], serde_json::json!([]), "{stdout}");
    assert!(
        stderr.starts_with("stikis replay: the record holds no deal, so nothing was checked.")
            && stderr.contains("one saved during the first deal has none"),
        "{stderr}"
    );

    // Deals later: the finished ones are in the record, and the line names the one left out.
    let (ok, out) = run(&db, &format!("{}r\nq\n", "1\n".repeat(60)));
    assert!(ok, "{out}");
    let (line, path) = saved_at(&out);
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let kept = record["deals"].as_array().unwrap().len();
    assert!(kept >= 1, "60 presses finish a deal:\n{out}");
    assert!(
        line.ends_with(&format!(
            "Deal {} (in progress) is not in it: a record holds finished deals only.",
            kept + 1
        )),
        "{kept} deals in the file:\n{line}"
    );
    let (code, stdout, stderr) = replay_file(&path);
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{stdout}");
    let result: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["deals"].as_array().unwrap().len(), kept, "{stdout}");
}

/// A table stopped during a deal: `r` saves that deal unfinished, says so, and `stikis replay`
/// shows it as not complete. (Stopped before your first move: a move could end the first deal
/// at once, when everybody passes.)
#[test]
fn a_record_saved_after_a_stop_says_the_deal_cut_short_is_in_it_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, out) = run(&dir.path().join("stop.db"), "s\ny\nr\nq\n");
    assert!(ok, "{out}");
    let (line, path) = saved_at(&out);
    assert!(
        line.ends_with(
            "Deal 1, cut short when the table was stopped, is in it unfinished (\"complete\": false in what stikis replay prints)."
        ),
        "{line}"
    );
    let (code, stdout, stderr) = replay_file(&path);
    assert_eq!((code, stderr.as_str()), (Some(0), ""), "{stdout}");
    let result: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(result["deals"].as_array().unwrap().len(), 1, "{stdout}");
    assert_eq!(result["deals"][0]["complete"], false, "{stdout}");
}
