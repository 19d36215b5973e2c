//! Zole records through the library function `stikis replay` calls
//! (`stikis_core::record::replay`): input spellings, seeds, deals in progress, fault
//! positions, and a fuzz loop over random bytes and random mutations of valid records (never a
//! panic; a fault never reported before the point where the record was changed).

use std::path::Path;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use stikis_core::record::{replay, ReplayError};

fn golden(case: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/zole")
        .join(format!("{case}.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn run(v: &Value) -> Result<Value, ReplayError> {
    replay(v.to_string().as_bytes())
}

fn err(v: &Value) -> ReplayError {
    run(v).expect_err("the record should be refused")
}

#[test]
fn input_may_use_t_for_ten_and_suit_symbols() {
    let rec = golden("lv/take_win_61_90");
    let canonical = run(&rec).unwrap();
    let text = rec.to_string();
    let symbols = text
        .replace("10", "T")
        .replace("C\"", "♣\"")
        .replace("D\"", "♦\"")
        .replace("H\"", "♥\"")
        .replace("S\"", "♠\"");
    assert!(symbols.contains("T♥") || symbols.contains("T♣") || symbols.contains("T♦"));
    let out = replay(symbols.as_bytes()).unwrap();
    assert_eq!(out, canonical);
}

#[test]
fn a_seed_must_deal_the_listed_hands() {
    let rec = golden("lv/take_win_61_90");
    assert!(rec["deals"][0]["seed"].is_string());
    assert!(run(&rec).is_ok());
    let mut bad = rec.clone();
    let seed = bad["deals"][0]["seed"].as_str().unwrap().to_string();
    let flipped = format!("{}{}", if seed.starts_with('0') { "1" } else { "0" }, &seed[1..]);
    bad["deals"][0]["seed"] = json!(flipped);
    let e = err(&bad);
    assert_eq!((e.deal, e.action), (1, 0), "{e}");
    assert!(e.reason.contains("seed"), "{e}");
    bad["deals"][0]["seed"] = json!("xyz");
    assert_eq!((err(&bad).deal, err(&bad).action), (1, 0));
    // Without a seed the hands are taken as listed.
    let mut none = rec.clone();
    none["deals"][0].as_object_mut().unwrap().remove("seed");
    assert_eq!(run(&none).unwrap(), run(&rec).unwrap());
}

#[test]
fn a_deal_in_progress_shows_complete_false_and_no_deltas() {
    let mut rec = golden("lv/pule_common_bonus");
    let actions = rec["deals"][1]["actions"].as_array_mut().unwrap();
    actions.truncate(10);
    let out = run(&rec).unwrap();
    let last = &out["deals"][1];
    assert_eq!(last["complete"], json!(false));
    assert!(last.get("deltas").is_none());
    assert_eq!(last["contract"], json!("take"));
    assert_eq!(out["deals"][0]["contract"], json!("pule"));
    assert_eq!(out["totals"], json!([0, 0, 0]));
    // A deal cannot follow an unfinished one.
    let mut rec2 = rec.clone();
    let more = rec2["deals"][1].clone();
    rec2["deals"].as_array_mut().unwrap().push(more);
    assert_eq!((err(&rec2).deal, err(&rec2).action), (3, 0));
}

#[test]
fn faults_in_later_deals_name_that_deal_and_action() {
    let mut rec = golden("lv/pule_personal_of_another_pays_3");
    // Deal 3, action 6: replace the play with a card nobody holds any more.
    let a = &mut rec["deals"][2]["actions"][5];
    assert!(a.get("play").is_some(), "{a}");
    let seat = a["seat"].as_u64().unwrap() as usize;
    let held: Vec<String> = serde_json::from_value(rec["deals"][2]["hands"][seat].clone()).unwrap();
    let foreign = ["QC", "QS", "AC", "AH", "AS", "7D", "9H", "10S"]
        .into_iter()
        .find(|c| {
            !held.iter().any(|h| h == c)
                && rec["deals"][2]["talon"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|t| t != c)
        })
        .unwrap();
    rec["deals"][2]["actions"][5]["play"] = json!(foreign);
    let e = err(&rec);
    assert_eq!((e.deal, e.action), (3, 6), "{e}");
    assert_eq!(e.reason, format!("seat {seat} does not hold {foreign}"));
}

#[test]
fn deal_level_faults_are_action_0() {
    let rec = golden("lv/pule_sitting_out_pays_common_4p");
    // The sitting-out seat must hold nothing.
    let mut bad = rec.clone();
    let dealer = bad["deals"][1]["dealer"].as_u64().unwrap() as usize;
    let card = bad["deals"][1]["talon"][0].clone();
    bad["deals"][1]["hands"][dealer] = json!([card]);
    let e = err(&bad);
    assert_eq!((e.deal, e.action), (2, 0), "{e}");
    // A card dealt twice.
    let mut bad = rec.clone();
    bad["deals"][0]["talon"][0] = bad["deals"][0]["hands"][0][0].clone();
    let e = err(&bad);
    assert_eq!((e.deal, e.action), (1, 0), "{e}");
    // A hand of 7.
    let mut bad = rec.clone();
    bad["deals"][0]["hands"][0].as_array_mut().unwrap().pop();
    assert_eq!((err(&bad).deal, err(&bad).action), (1, 0));
    // An unknown deal field, an unknown option.
    let mut bad = rec.clone();
    bad["deals"][0]["dealr"] = json!(1);
    assert_eq!((err(&bad).deal, err(&bad).action), (1, 0));
    let mut bad = rec.clone();
    bad["rules"] = json!({"preset": "lv", "smal_zole": true});
    assert_eq!((err(&bad).deal, err(&bad).action), (0, 0));
}

/// Changes one thing in a valid record; returns the position (deal, action) from which the
/// record differs, so no fault may be reported before it.
fn mutate(rec: &mut Value, rng: &mut ChaCha8Rng) -> (usize, usize) {
    const CARDS: [&str; 12] = [
        "QC", "10D", "AH", "9S", "JK", "T♥", "7D", "KC", "1Z", "", "8C", "AD",
    ];
    let deals = rec["deals"].as_array_mut().unwrap();
    let j = rng.random_range(0..deals.len());
    let deal = &mut deals[j];
    let actions = deal["actions"].as_array_mut().unwrap();
    if actions.is_empty() || rng.random_range(0..6) == 0 {
        match rng.random_range(0..4) {
            0 => deal["dealer"] = json!(rng.random_range(0..7)),
            1 => {
                let h = rng.random_range(0..deal["hands"].as_array().unwrap().len());
                let hand = deal["hands"][h].as_array_mut().unwrap();
                let c = json!(*CARDS.choose(rng).unwrap());
                match hand.first_mut() {
                    Some(first) => *first = c,
                    None => hand.push(c),
                }
            }
            2 => deal["talon"] = json!([*CARDS.choose(rng).unwrap()]),
            _ => {
                let hands = deal["hands"].as_array_mut().unwrap();
                let (a, b) = (rng.random_range(0..hands.len()), rng.random_range(0..hands.len()));
                hands.swap(a, b);
            }
        }
        return (j + 1, 0);
    }
    let k = rng.random_range(0..actions.len());
    match rng.random_range(0..7) {
        0 => actions[k]["seat"] = json!(rng.random_range(0..70)),
        1 => actions[k] = json!({"seat": actions[k]["seat"], "play": *CARDS.choose(rng).unwrap()}),
        2 => {
            let bid = *["pass", "take", "zole", "small_zole", "big", ""]
                .choose(rng)
                .unwrap();
            actions[k] = json!({"seat": actions[k]["seat"], "bid": bid});
        }
        3 => {
            let n = rng.random_range(0..4);
            let cards: Vec<&str> = (0..n).map(|_| *CARDS.choose(rng).unwrap()).collect();
            actions[k] = json!({"seat": actions[k]["seat"], "bury": cards});
        }
        4 => actions[k] = json!({"seat": actions[k]["seat"], "surrender": rng.random_bool(0.8)}),
        5 => {
            actions.remove(k);
        }
        _ => {
            let dup = actions[k].clone();
            actions.insert(k, dup);
        }
    }
    (j + 1, k + 1)
}

#[test]
fn random_bytes_and_mutated_records_never_panic() {
    let iterations = if cfg!(debug_assertions) { 3_000 } else { 30_000 };
    let bases: Vec<Value> = [
        "lv/pule_sitting_out_and_personal_4p",
        "rondo/rondo_5p_sitting_out",
        "catsatcards/take_surrender",
        "lv-galdins/small_zole_lost",
        "zolite/tree_pays_after_next_winner",
    ]
    .iter()
    .map(|c| golden(c))
    .collect();
    for seed in 0..iterations {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let base = &bases[seed as usize % bases.len()];
        let (input, from) = match rng.random_range(0..4) {
            0 => {
                let n = rng.random_range(0..300);
                ((0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>(), None)
            }
            1 => {
                let mut b = base.to_string().into_bytes();
                for _ in 0..rng.random_range(1..5) {
                    let at = rng.random_range(0..b.len());
                    b[at] = rng.random();
                }
                (b, None)
            }
            _ => {
                let mut rec = base.clone();
                let from = mutate(&mut rec, &mut rng);
                (rec.to_string().into_bytes(), Some(from))
            }
        };
        let result = std::panic::catch_unwind(|| replay(&input));
        let result = result.unwrap_or_else(|_| {
            panic!(
                "seed {seed}: replay panicked on {}",
                String::from_utf8_lossy(&input)
            )
        });
        match (result, from) {
            (Ok(out), _) => {
                for d in out["deals"].as_array().unwrap() {
                    if let Some(deltas) = d.get("deltas") {
                        let sum: i64 = deltas
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|x| x.as_i64().unwrap())
                            .sum();
                        assert_eq!(sum, 0, "seed {seed}");
                    }
                }
            }
            (Err(e), Some((deal, action))) => {
                assert!(
                    (e.deal, e.action) >= (deal, action),
                    "seed {seed}: fault {e} reported before the change at deal {deal}, action {action}"
                );
                assert!(
                    e.deal <= base["deals"].as_array().unwrap().len(),
                    "seed {seed}: {e}"
                );
            }
            (Err(e), None) => assert!(e.to_string().starts_with("deal "), "seed {seed}"),
        }
    }
}
