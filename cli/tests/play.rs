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
    assert!(ok && out.contains("Type a button number"), "{out}");
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
    assert!(out.contains("Result of deal 3"), "{out}");
    assert!(
        out.contains("The game is over. Run the same command again"),
        "{out}"
    );
    let (ok, out) = run_game(&["polt", "--players", "9"], &db, "");
    assert!(!ok && out.is_empty());
}
