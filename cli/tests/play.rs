//! `stikis play zole` end to end: scripted key presses play whole deals against computer
//! players, and a second run on the same database resumes the same game.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(db: &std::path::Path, input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["play", "zole", "--db", db.to_str().unwrap()])
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
