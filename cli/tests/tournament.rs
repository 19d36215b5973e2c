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

/// `stikis tournament play` runs a small tournament of computer players, writes its record
/// and prints the standings; `verify` accepts the record, and the same seed gives the same
/// file.
#[test]
fn play_writes_a_record_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.json");
    let play = |path: &std::path::Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_stikis"))
            .args([
                "tournament",
                "play",
                "--players",
                "9",
                "--rounds",
                "2",
                "--deals",
                "2",
            ])
            .args(extra)
            .arg(path)
            .output()
            .unwrap()
    };
    let out = play(&path, &["--level", "random", "--seed", "4"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("computer players: 2 rounds, 9 players; the standings:\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!(
            "The tournament record is saved in {p}. `stikis tournament verify {p}` re-counts it.\n",
            p = path.display()
        )),
        "{stdout}"
    );
    let record: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(record["deals_per_round"], 2);
    // 9 players: a table of 4 and one of 5, in both rounds.
    for round in record["rounds"].as_array().unwrap() {
        let sizes: Vec<usize> = round["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["players"].as_array().unwrap().len())
            .collect();
        assert_eq!(sizes, [4, 5]);
    }
    let (code, out, err) = verify(&path);
    assert_eq!(code, Some(0), "{err}");
    // The standings it printed are the ones verify re-counts.
    let lines = |s: &str| s.lines().skip(1).take(9).map(String::from).collect::<Vec<_>>();
    assert_eq!(lines(&out), lines(&stdout));

    let again = dir.path().join("again.json");
    assert_eq!(
        play(&again, &["--level", "random", "--seed", "4"]).status.code(),
        Some(0)
    );
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&path).unwrap());
    assert_eq!(
        play(&again, &["--level", "random", "--seed", "5"]).status.code(),
        Some(0)
    );
    assert_ne!(std::fs::read(&again).unwrap(), std::fs::read(&path).unwrap());

    // Bad options write nothing and say why.
    let none = dir.path().join("none.json");
    for (extra, why) in [
        (&["--players", "2"][..], "--players is 3 to 1000, not 2"),
        (&["--rules", "skat"], "unknown zole preset \"skat\""),
        (&["--level", "great"], "unknown level"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
            .args(["tournament", "play"])
            .args(extra)
            .arg(&none)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(
            err.starts_with(&format!("stikis tournament play: {why}")),
            "{err}"
        );
        assert!(!none.exists(), "{extra:?}");
    }
}
