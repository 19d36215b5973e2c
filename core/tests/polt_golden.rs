//! Polt to Tzar golden records (core/tests/golden/polt): each `NAME.json` replays to
//! `NAME.out.json` or fails with the one line in `NAME.err`. The seeded records are also
//! re-generated from their seeds and must match byte for byte in meaning, which pins the deal
//! order of a seed. Set `STIKIS_BLESS=1` to rewrite the seeded records after a deliberate change.

mod mutate;
mod polt_util;

use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::Value;
use stikis_core::games::polt::record::session_record;
use stikis_core::games::polt::Options;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/polt")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The seeded records: name, seed, seats, hands, bowers.
const SEEDED: [(&str, u64, usize, u32, bool); 3] = [
    ("five_players", 5, 5, 3, false),
    ("six_players_bowers", 6, 6, 2, true),
    ("seven_players", 7, 7, 2, false),
];

#[test]
fn seeded_records_are_stable() {
    let bless = std::env::var_os("STIKIS_BLESS").is_some();
    for (name, seed, seats, hands, bowers) in SEEDED {
        let options = Options {
            bowers,
            ..Options::default()
        };
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let s = polt_util::random_session(options, seats, hands, &mut rng, |_| {});
        let players: Vec<String> = ["Anna", "Bruno", "Cilda", "Dainis", "Elza", "Fricis", "Gita"][..seats]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let record = serde_json::to_value(session_record(&s, &players)).unwrap();
        let out = stikis_core::record::replay(record.to_string().as_bytes()).unwrap();
        let path = dir().join(format!("{name}.json"));
        let out_path = dir().join(format!("{name}.out.json"));
        if bless {
            std::fs::write(&path, serde_json::to_string_pretty(&record).unwrap() + "\n").unwrap();
            std::fs::write(&out_path, out.to_string() + "\n").unwrap();
        }
        assert_eq!(
            read_json(&path),
            record,
            "{name}: the seed now deals or plays differently"
        );
        assert_eq!(read_json(&out_path), out, "{name}");
    }
}

#[test]
fn golden_records_replay_as_pinned() {
    let mut count = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(".json").filter(|s| !s.ends_with(".out")) else {
            continue;
        };
        count += 1;
        let bytes = std::fs::read(&path).unwrap();
        let got = stikis_core::record::replay(&bytes);
        let out = dir().join(format!("{stem}.out.json"));
        let err = dir().join(format!("{stem}.err"));
        if out.exists() {
            assert_eq!(got.as_ref().ok(), Some(&read_json(&out)), "{stem}: {got:?}");
        } else if err.exists() {
            let line = std::fs::read_to_string(&err).unwrap();
            let e = got.expect_err(stem);
            assert_eq!(e.to_string(), line.trim_end(), "{stem}");
        } else {
            panic!("{stem} has neither .out.json nor .err");
        }
    }
    assert!(count >= 12, "golden records are missing ({count})");
}

#[test]
fn second_deal_must_start_from_the_first_deals_result() {
    let mut rec = read_json(&dir().join("five_players.json"));
    let ranks = rec["deals"][1]["ranks"].clone();
    let mut reversed: Vec<Value> = ranks.as_array().unwrap().clone();
    reversed.reverse();
    rec["deals"][1]["ranks"] = Value::Array(reversed);
    let e = stikis_core::record::replay(rec.to_string().as_bytes()).unwrap_err();
    assert_eq!((e.deal, e.action), (2, 0));
    assert_eq!(
        e.reason,
        format!("the ranks must be the result of deal 1: {ranks}").replace(',', ", ")
    );

    // A deal that follows an unfinished deal is a fault of that later deal.
    let mut rec = read_json(&dir().join("five_players.json"));
    rec["deals"][0]["actions"].as_array_mut().unwrap().pop();
    let e = stikis_core::record::replay(rec.to_string().as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), "deal 2, action 0: deal 1 is not finished");

    // An action after the last trick.
    let mut rec = read_json(&dir().join("seven_players.json"));
    let extra = rec["deals"][0]["actions"][0].clone();
    rec["deals"][0]["actions"].as_array_mut().unwrap().push(extra);
    let n = rec["deals"][0]["actions"].as_array().unwrap().len();
    let e = stikis_core::record::replay(rec.to_string().as_bytes()).unwrap_err();
    assert_eq!(e.to_string(), format!("deal 1, action {n}: the deal is over"));
}

#[test]
fn malformed_input_never_panics() {
    for bad in [
        &b"\xff\xfe"[..],
        b"",
        b"[]",
        b"{\"game\":\"polt\"}",
        b"{\"game\":\"polt\",\"rules\":\"default\",\"players\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"deals\":[7]}",
        b"{\"game\":\"polt\",\"rules\":\"default\",\"players\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"deals\":[{\"ranks\":[0,1,2,3,400],\"hands\":[],\"actions\":[]}]}",
        b"{\"game\":\"polt\",\"rules\":\"default\",\"players\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"deals\":[{\"ranks\":[0,1,2,3,4],\"hands\":[[\"XX\"]],\"actions\":[]}]}",
    ] {
        let e = stikis_core::record::replay(bad).unwrap_err();
        assert!(e.action == 0, "{e}");
    }
}

/// Seeded byte-level mutations of every golden record: replay answers, never panics, and a
/// failure always names a deal and action within the record.
#[test]
fn mutated_records_never_panic() {
    let rounds = if cfg!(debug_assertions) { 150 } else { 3000 };
    let mut fuzzed = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        mutate::fuzz_record(&path, rounds, |e| e.deal <= 3 && e.action <= 57);
        fuzzed += 1;
    }
    assert!(fuzzed >= 12, "golden records are missing ({fuzzed} fuzzed)");
}
