//! `stikis replay` on the golden belote records, through the binary: exit 0 and the expected
//! JSON on standard output, or exit 2, nothing on standard output and the expected one line on
//! standard error. Also reading the record from standard input (`-`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn golden(game: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/golden")
        .join(game);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .collect();
    v.sort();
    v
}

fn with_ext(p: &Path, ext: &str) -> PathBuf {
    let stem = p.file_stem().unwrap().to_string_lossy();
    p.with_file_name(format!("{stem}{ext}"))
}

#[test]
fn the_binary_replays_every_golden_belote_record() {
    for game in ["belote-bazar", "belote-classic", "belote-h2h", "coinche"] {
        let files = golden(game);
        assert!(!files.is_empty(), "{game}");
        for p in files {
            let out = Command::new(env!("CARGO_BIN_EXE_stikis"))
                .arg("replay")
                .arg(&p)
                .output()
                .unwrap();
            let ok = with_ext(&p, ".expected.json");
            if ok.exists() {
                assert_eq!(out.status.code(), Some(0), "{}", p.display());
                let got: Value = serde_json::from_slice(&out.stdout).unwrap();
                let want: Value = serde_json::from_str(&std::fs::read_to_string(&ok).unwrap()).unwrap();
                assert_eq!(got, want, "{}", p.display());
            } else {
                let want = std::fs::read_to_string(with_ext(&p, ".stderr")).unwrap();
                assert_eq!(out.status.code(), Some(2), "{}", p.display());
                assert!(out.stdout.is_empty(), "{}", p.display());
                assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{}", p.display());
            }
        }
    }
}

#[test]
fn the_binary_reads_a_belote_record_from_standard_input() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/golden/coinche");
    let mut child = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(dir.join("made.json")).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("made.expected.json")).unwrap()).unwrap();
    assert_eq!(got, want);
}
