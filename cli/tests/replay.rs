//! `stikis replay` as a program (RECORD.md): every Zole golden record prints exactly its
//! expected output with exit 0, and illegal or malformed records exit 2 with nothing on
//! standard output and the one `deal D, action A: reason` line on standard error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

fn golden_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/golden/zole")
}

fn run_file(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stikis"))
        .arg("replay")
        .arg(path)
        .output()
        .unwrap()
}

fn run_stdin(bytes: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may stop reading early; a broken pipe here is not a test failure.
    let _ = child.stdin.take().unwrap().write_all(bytes);
    child.wait_with_output().unwrap()
}

#[test]
fn golden_records_replay_through_the_binary() {
    let mut n = 0;
    for dir in std::fs::read_dir(golden_root()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let path = f.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let Some(case) = name.strip_suffix(".json").filter(|c| !c.ends_with(".out")) else {
                continue;
            };
            let expected: Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{case}.out.json"))).unwrap())
                    .unwrap();
            let out = run_file(&path);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
            if expected["deals"].as_array().is_some_and(Vec::is_empty) {
                // A record of no deal replays, and says that nothing was checked.
                assert!(
                    stderr.starts_with("stikis replay: the record holds no deal")
                        && stderr.lines().count() == 1,
                    "{name}: {stderr}"
                );
            } else {
                assert!(stderr.is_empty(), "{name}: {stderr}");
            }
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert_eq!(stdout.lines().count(), 1, "{name}: one JSON object on one line");
            let got: Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(got, expected, "{name}");
            n += 1;
        }
    }
    assert!(n >= 100, "only {n} golden records found");
}

#[test]
fn a_record_is_read_from_standard_input_too() {
    let path = golden_root().join("lv/pule_common_bonus.json");
    let out = run_stdin(&std::fs::read(&path).unwrap());
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(golden_root().join("lv/pule_common_bonus.out.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(got, expected);
}

/// A 3-player lv deal, dealer 2 (seat 0 is first hand), with the given actions.
fn record(actions: Value) -> Value {
    json!({
        "game": "zole",
        "rules": "lv",
        "players": ["Anna", "Bruno", "Cilda"],
        "deals": [{
            "dealer": 2,
            "hands": [
                ["QC", "JC", "AD", "9D", "AC", "10C", "AS", "KH"],
                ["QS", "JS", "10D", "8D", "KC", "10S", "9S", "AH"],
                ["QH", "JH", "KD", "7D", "9C", "KS", "10H", "9H"]
            ],
            "talon": ["QD", "JD"],
            "actions": actions
        }]
    })
}

fn acts(list: &str) -> Value {
    Value::Array(
        list.split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(|a| {
                let (seat, what) = a.split_once(' ').unwrap();
                let seat: u8 = seat.parse().unwrap();
                match what.split_once(' ') {
                    Some(("bury", cards)) => {
                        json!({"seat": seat, "bury": cards.split(' ').collect::<Vec<_>>()})
                    }
                    _ if ["pass", "take", "zole", "small_zole"].contains(&what) => {
                        json!({"seat": seat, "bid": what})
                    }
                    _ => json!({"seat": seat, "play": what}),
                }
            })
            .collect(),
    )
}

/// Runs `input` through the binary and the library; both must refuse it with `line` (or a
/// line starting with `line` when `exact` is false).
fn refused(input: &[u8], line: &str, exact: bool) {
    let out = run_stdin(input);
    assert_eq!(out.status.code(), Some(2), "{line}");
    assert!(
        out.stdout.is_empty(),
        "{line}: stdout {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let got = stderr.trim_end();
    if exact {
        assert_eq!(got, line);
    } else {
        assert!(got.starts_with(line), "{got:?} should start with {line:?}");
    }
    let lib = stikis_core::record::replay(input).unwrap_err().to_string();
    assert_eq!(lib, got, "the library names the same fault");
}

fn refused_record(rec: &Value, line: &str, exact: bool) {
    refused(rec.to_string().as_bytes(), line, exact);
}

#[test]
fn the_base_record_of_these_tests_is_legal() {
    let rec = record(acts("0 pass, 1 pass, 2 zole, 0 AC, 1 KC, 2 9C"));
    let out = run_stdin(rec.to_string().as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["deals"][0]["complete"], json!(false));
    assert_eq!(v["deals"][0]["tricks"], json!([1, 0, 0]));
}

#[test]
fn not_following_suit() {
    let rec = record(acts("0 pass, 1 pass, 2 zole, 0 AC, 1 QS"));
    refused_record(&rec, "deal 1, action 5: seat 1 must follow clubs (has KC)", true);
    // Queens and jacks are trumps: a plain lead cannot be followed with one.
    let rec = record(acts("0 pass, 1 pass, 2 zole, 0 KH, 1 AH, 2 QH"));
    refused_record(&rec, "deal 1, action 6: seat 2 must follow hearts (has 9H)", true);
}

#[test]
fn a_card_not_in_hand() {
    let rec = record(acts("0 pass, 1 pass, 2 zole, 0 QS"));
    refused_record(&rec, "deal 1, action 4: seat 0 does not hold QS", true);
}

#[test]
fn out_of_turn() {
    refused_record(
        &record(acts("1 pass")),
        "deal 1, action 1: it is seat 0's turn, not seat 1's",
        true,
    );
    let rec = record(acts("0 pass, 1 pass, 2 zole, 1 KC"));
    refused_record(&rec, "deal 1, action 4: it is seat 0's turn, not seat 1's", true);
}

#[test]
fn bury_of_a_card_not_held() {
    let rec = record(acts("0 take, 0 bury QS AC"));
    refused_record(&rec, "deal 1, action 2: seat 0 cannot bury QS: not in hand", true);
    // The talon is his after the take, so burying it is fine.
    let ok = record(acts("0 take, 0 bury QD JD, 0 AC"));
    assert_eq!(run_stdin(ok.to_string().as_bytes()).status.code(), Some(0));
}

#[test]
fn bid_after_the_bidding_ended() {
    let rec = record(acts("0 zole, 1 pass"));
    refused_record(
        &rec,
        "deal 1, action 2: seat 1 cannot bid now: the bidding is over",
        true,
    );
    let rec = record(acts("0 take, 0 bury QD JD, 0 zole"));
    refused_record(
        &rec,
        "deal 1, action 3: seat 0 cannot bid now: the bidding is over",
        true,
    );
}

#[test]
fn unknown_card_names() {
    let mut rec = record(acts("0 pass"));
    rec["deals"][0]["hands"][1][2] = json!("XX");
    refused_record(&rec, "deal 1, action 0: hand of seat 1: ", false);
    let rec = record(acts("0 pass, 1 pass, 2 zole, 0 1Z"));
    refused_record(&rec, "deal 1, action 4: ", false);
    // A card of the full pack that is not in the Zole deck.
    let mut rec = record(acts(""));
    rec["deals"][0]["talon"] = json!(["QD", "8C"]);
    refused_record(&rec, "deal 1, action 0: ", false);
}

#[test]
fn wrong_seat_count() {
    let mut rec = record(acts(""));
    rec["players"] = json!(["Anna", "Bruno"]);
    refused_record(&rec, "deal 0, action 0: ", false);
    rec["players"] = json!(["A", "B", "C", "D", "E", "F"]);
    refused_record(&rec, "deal 0, action 0: ", false);
    // Hands for four seats at a table of three.
    let mut rec = record(acts(""));
    rec["deals"][0]["hands"].as_array_mut().unwrap().push(json!([]));
    refused_record(&rec, "deal 1, action 0: ", false);
}

#[test]
fn wrong_dealer_rotation() {
    let mut rec = record(acts("0 pass, 1 pass, 2 pass"));
    let mut second = rec["deals"][0].clone();
    second["actions"] = json!([]);
    rec["deals"].as_array_mut().unwrap().push(second.clone());
    // The deal after dealer 2 is dealt by seat 0.
    refused_record(
        &rec,
        "deal 2, action 0: the dealer must be seat 0, not seat 2",
        true,
    );
    second["dealer"] = json!(0);
    rec["deals"][1] = second;
    let out = run_stdin(rec.to_string().as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_json_and_bad_envelopes() {
    refused(b"{", "deal 0, action 0: the record is not valid JSON", false);
    // An empty file is a fault of the record as a whole (RECORD.md), said plainly.
    refused(b"", "deal 0, action 0: the file is empty", false);
    refused(b" \n\t\n", "deal 0, action 0: the file is empty", false);
    refused(b"\xff\xfe", "deal 0, action 0: ", false);
    refused(br#"{"game": "zole"}"#, "deal 0, action 0: ", false);
    let mut rec = record(acts(""));
    rec["game"] = json!("chess");
    refused_record(&rec, "deal 0, action 0: unknown game", false);
    rec["game"] = json!("zole");
    rec["rules"] = json!("nope");
    refused_record(&rec, "deal 0, action 0: ", false);
}

#[test]
fn a_missing_file_is_exit_2_and_does_not_pretend_to_be_a_record_position() {
    let out = run_file(Path::new("/nonexistent/record.json"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("stikis replay: cannot read /nonexistent/record.json: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A small xorshift generator: the test needs varied bytes, not good randomness.
struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn arbitrary_bytes_never_crash_the_binary() {
    // The library runs many more of these (core/tests/zole_records.rs); here the process
    // itself: exit 0 with one JSON line, or exit 2 with one error line, never anything else.
    let base = std::fs::read(golden_root().join("lv/pule_own_personal.json")).unwrap();
    let seed = 0x5eed_u64;
    let mut rng = Xs(seed);
    for i in 0..60 {
        let input: Vec<u8> = if i % 3 == 0 {
            (0..rng.next() % 200).map(|_| rng.next() as u8).collect()
        } else {
            let mut b = base.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % b.len();
                match rng.next() % 3 {
                    0 => b[at] = rng.next() as u8,
                    1 => {
                        b.remove(at);
                    }
                    _ => b.insert(at, b"{}[],:\"0123456789"[(rng.next() % 17) as usize]),
                }
            }
            b
        };
        let out = run_stdin(&input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => {
                assert!(
                    serde_json::from_slice::<Value>(&out.stdout).is_ok(),
                    "seed {seed} input {i}"
                );
            }
            Some(2) => {
                assert!(out.stdout.is_empty(), "seed {seed} input {i}");
                assert!(
                    stderr.starts_with("deal ") && stderr.lines().count() == 1,
                    "seed {seed} input {i}: {stderr}"
                );
            }
            other => panic!("seed {seed} input {i}: exit {other:?}: {stderr}"),
        }
    }
}
