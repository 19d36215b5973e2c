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

/// A record's `replaced` lists players who left their table during a round; a name that is
/// not at that table (or listed twice) is refused with one line naming the round and table.
#[test]
fn replaced_must_name_players_of_that_table() {
    let dir = tempfile::tempdir().unwrap();
    let players: Vec<String> = (1..=8).map(|i| format!("Player {i}")).collect();
    let t = simulate(&players, &"lv".into(), 2, 1, Level::Random, Seed::from_u64(9)).unwrap();
    let path = dir.path().join("t.json");

    // A player of the table who left: accepted, the standings are the same.
    let mut ok = t.clone();
    let at_table_2 = ok.rounds[1].tables[1].players[2].clone();
    ok.rounds[1].tables[1].replaced = vec![at_table_2];
    std::fs::write(&path, serde_json::to_string(&ok).unwrap()).unwrap();
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2 rounds, 8 players"), "{out}");

    // A player of another table, and a name nobody entered: refused.
    let elsewhere = t.rounds[1].tables[0].players[0].clone();
    for name in [elsewhere.as_str(), "Nobody"] {
        let mut bad = t.clone();
        bad.rounds[1].tables[1].replaced = vec![name.to_string()];
        std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
        let (code, out, err) = verify(&path);
        assert_eq!(code, Some(2), "{name}: {out}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!(
                "round 2, table 2: {name} is listed as replaced, but does not sit at this table ("
            )),
            "{err}"
        );
    }

    // The same player twice.
    let mut bad = t.clone();
    let p = bad.rounds[0].tables[0].players[1].clone();
    bad.rounds[0].tables[0].replaced = vec![p.clone(), p.clone()];
    std::fs::write(&path, serde_json::to_string(&bad).unwrap()).unwrap();
    let (code, _, err) = verify(&path);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim_end(),
        format!("round 1, table 1: {p} is listed as replaced twice")
    );
}
