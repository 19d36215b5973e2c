//! `stikis replay` on Polt to Tzar records, through the binary: every golden record under
//! core/tests/golden/polt prints its pinned output with exit 0, or exits 2 with nothing on
//! standard output and its pinned error line on standard error; standard input (`-`) works
//! the same way.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/golden/polt")
}

fn replay_file(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stikis"))
        .arg("replay")
        .arg(path)
        .output()
        .expect("stikis runs")
}

fn replay_stdin(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stikis runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn check(stem: &str, out: &Output) {
    let ok = golden().join(format!("{stem}.out.json"));
    let err = golden().join(format!("{stem}.err"));
    if ok.exists() {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: Value = serde_json::from_str(&std::fs::read_to_string(ok).unwrap()).unwrap();
        let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON object");
        assert_eq!(got, want, "{stem}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{stem}");
        assert!(out.stdout.is_empty(), "{stem}: nothing on stdout");
        let want = std::fs::read_to_string(err).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{stem}");
    }
}

fn stems() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(golden())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".json")?;
            (!stem.ends_with(".out")).then(|| stem.to_string())
        })
        .collect();
    stems.sort();
    stems
}

#[test]
fn golden_polt_records_through_the_binary() {
    let stems = stems();
    assert!(stems.len() >= 12, "golden records are missing");
    for stem in &stems {
        check(stem, &replay_file(&golden().join(format!("{stem}.json"))));
    }
}

#[test]
fn golden_polt_records_on_standard_input() {
    for stem in ["in_progress", "five_players", "bad_return", "four_players"] {
        let bytes = std::fs::read(golden().join(format!("{stem}.json"))).unwrap();
        check(stem, &replay_stdin(&bytes));
    }
}

#[test]
fn illegal_play_in_a_later_deal_exits_2_with_its_numbers() {
    let text = std::fs::read_to_string(golden().join("five_players.json")).unwrap();
    let mut rec: Value = serde_json::from_str(&text).unwrap();
    // Deal 2, action 8 is the President's lead; give it to the Tzar instead.
    let actions = rec["deals"][1]["actions"].as_array_mut().unwrap();
    let lead = actions[7].clone();
    let tzar = rec["deals"][1]["ranks"][0].clone();
    let president = lead["seat"].clone();
    rec["deals"][1]["actions"][7]["seat"] = tzar.clone();
    let out = replay_stdin(rec.to_string().as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("deal 2, action 8: it is seat {president}'s turn, not seat {tzar}'s\n")
    );
}
