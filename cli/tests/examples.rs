//! Every record in examples/ replays with `stikis replay` to the output stored beside it in
//! examples/expected/, so a change of scoring shows here; there is one for every game and
//! Zole preset. The tournament records in examples/tournaments/ verify, and are what
//! `stikis tournament play` writes. And the repository's docs stand on their own: nothing
//! points outside it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_example_replays_to_its_expected_output() {
    let dir = repo().join("examples");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
            .arg("replay")
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("expected").join(&name))
                .unwrap_or_else(|e| panic!("examples/expected/{name}: {e}")),
        )
        .unwrap();
        assert_eq!(got, want, "{name} replays to something else than expected");
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let deals = got["deals"].as_array().unwrap();
        assert!(!deals.is_empty(), "{name}");
        assert!(
            deals.iter().all(|d| d["complete"] != false),
            "{name}: whole deals"
        );
        if record["game"] == "zole" {
            for d in deals {
                let sum: i64 = d["deltas"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().unwrap())
                    .sum();
                assert_eq!(sum, 0, "{name}: a Zole deal's deltas sum to zero");
            }
        }
        let rules = record["rules"].as_str().unwrap_or("").to_string();
        seen.push(format!("{} {rules}", record["game"].as_str().unwrap()));
    }
    seen.sort();
    let mut want: Vec<String> = [
        "belote-bazar default",
        "belote-classic default",
        "belote-h2h default",
        "coinche default",
        "polt default",
        "zole catsatcards",
        "zole lv",
        "zole lv-galdins",
        "zole rondo",
        "zole zolite",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    want.sort();
    assert_eq!(seen, want, "one example per game and Zole preset");
}

/// Every tournament record in examples/tournaments/ verifies with `stikis tournament verify`
/// to the standings stored in examples/expected/tournaments/, and is exactly what
/// `stikis tournament play` writes with the options the table below gives for it.
#[test]
fn every_tournament_example_verifies_and_is_what_the_program_writes() {
    // The file and the options that made it.
    let made_by: &[(&str, &[&str])] = &[(
        "zole-lv-8-players.json",
        &["--players", "8", "--rounds", "2", "--deals", "3", "--seed", "1"],
    )];
    let dir = repo().join("examples/tournaments");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let listed: Vec<String> = made_by.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, listed, "each tournament example says how it was made");
    let tmp = tempfile::tempdir().unwrap();
    for (name, options) in made_by {
        let path = dir.join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
            .args(["tournament", "verify"])
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stem = name.strip_suffix(".json").unwrap();
        let want = std::fs::read_to_string(repo().join(format!("examples/expected/tournaments/{stem}.txt")))
            .unwrap_or_else(|e| panic!("examples/expected/tournaments/{stem}.txt: {e}"));
        assert_eq!(stdout, want, "{name} verifies to other standings than expected");

        let again = tmp.path().join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
            .args(["tournament", "play"])
            .args(*options)
            .arg(&again)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            std::fs::read(&again).unwrap() == std::fs::read(&path).unwrap(),
            "{name} is not what `stikis tournament play {} {name}` writes now (after a change \
             of the computer players or the rules, write it again with that command)",
            options.join(" ")
        );
    }
}

#[test]
fn the_docs_stand_on_their_own() {
    let out = Command::new("git")
        .args(["ls-files"])
        .current_dir(repo())
        .output()
        .expect("git ls-files");
    let files = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut checked = 0;
    for f in files.lines() {
        let wanted = f.ends_with(".md") || f.ends_with(".rs") || f.ends_with(".toml") || f.ends_with(".ftl");
        if !wanted || f == "cli/tests/examples.rs" {
            continue;
        }
        let text = std::fs::read_to_string(repo().join(f)).unwrap_or_default();
        for bad in ["../shared", "shared/RULES.md", "shared/RECORD.md"] {
            assert!(
                !text.contains(bad),
                "{f} points at {bad}, which a clone does not have"
            );
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} files checked");
    for doc in [
        "docs/rules/README.md",
        "docs/rules/zole.md",
        "docs/rules/belote.md",
        "docs/rules/polt.md",
        "docs/record-format.md",
        "docs/rules-decisions.md",
        "docs/tournament-record.md",
    ] {
        assert!(repo().join(doc).is_file(), "{doc} is missing");
    }
}

/// With `autotests = false`, a file in a crate's tests/ that neither its tests/main.rs nor a
/// `[[test]]` of its Cargo.toml names would never be built or run: each one must be named.
#[test]
fn every_test_file_is_part_of_a_test_binary() {
    let mut crates = 0;
    for entry in std::fs::read_dir(repo()).unwrap() {
        let dir = entry.unwrap().path();
        let main = dir.join("tests/main.rs");
        if !main.is_file() {
            continue;
        }
        crates += 1;
        let declared = std::fs::read_to_string(&main).unwrap();
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("autotests = false") && manifest.contains("path = \"tests/main.rs\""),
            "{}: tests/main.rs is not its test binary",
            dir.display()
        );
        for file in std::fs::read_dir(dir.join("tests")).unwrap() {
            let path = file.unwrap().path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".rs"))
            else {
                continue;
            };
            if name == "main" {
                continue;
            }
            let as_module = declared.lines().any(|l| l.trim() == format!("mod {name};"));
            let as_binary = manifest.contains(&format!("path = \"tests/{name}.rs\""));
            assert!(
                as_module || as_binary,
                "{}: add `mod {name};` to tests/main.rs, or it is never run",
                path.display()
            );
        }
    }
    assert!(crates >= 5, "only {crates} crates have tests/main.rs");
}
