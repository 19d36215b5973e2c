//! `stikis tournament verify`: a tournament of computer players verifies and prints its
//! standings; a changed record exits 2 with one line naming the first disagreement.

use std::process::Command;

use stikis_core::ai::Level;
use stikis_core::tournament::simulate;
use stikis_core::Seed;

fn verify(path: &std::path::Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["tournament", "verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_tournament_record_verifies_and_a_changed_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let players: Vec<String> = (1..=12).map(|i| format!("Player {i}")).collect();
    let t = simulate(&players, &"lv".into(), 3, 2, Level::Basic, Seed::from_u64(5)).unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, serde_json::to_string_pretty(&t).unwrap()).unwrap();
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("3 rounds, 12 players"), "{out}");
    assert_eq!(out.lines().count(), 13, "a header and a line per player:\n{out}");
    assert!(out.contains(&format!(" 1. {}", t.standings[0].player)), "{out}");

    let mut bad = t.clone();
    bad.standings.swap(0, 1);
    std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("standings: place 1: the records give"), "{err}");

    std::fs::write(&path, "{\"name\": 1}").unwrap();
    let (code, _, err) = verify(&path);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("the tournament record is malformed"), "{err}");
}
