//! The Zole golden records (core/tests/golden/zole/<preset>/<case>.json, written by
//! `examples/zole_goldens.rs`): each must replay through the library to exactly its
//! `<case>.out.json`, and each output must agree with the hand-written claims of
//! `manifest.json` (contract, declarer, scoring band, per-opponent unit or explicit deltas,
//! pules), checked against trick results this file computes itself from RULES.md 1.1 (its own
//! trump order and card points), so an engine that scores wrongly fails here even though it
//! wrote the `.out.json` files. The same records go through the `stikis` binary in
//! cli/tests/replay.rs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use stikis_core::games::zole::record::replay_session;
use stikis_core::record::Envelope;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/zole")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---- RULES.md 1.1, written out again here on purpose ----

const TRUMPS: [&str; 14] = [
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D", "KD", "9D", "8D", "7D",
];
const PLAIN: [&str; 4] = ["A", "10", "K", "9"];

fn points(card: &str) -> u32 {
    match &card[..card.len() - 1] {
        "A" => 11,
        "10" => 10,
        "K" => 4,
        "Q" => 3,
        "J" => 2,
        _ => 0,
    }
}

/// "T" for trumps, else the suit letter.
fn category(card: &str) -> char {
    if TRUMPS.contains(&card) {
        'T'
    } else {
        card.chars().last().unwrap()
    }
}

/// Power in a trick led with `led`: trumps above everything, then the led suit, else 0.
fn power(card: &str, led: char) -> u32 {
    if let Some(i) = TRUMPS.iter().position(|&t| t == card) {
        100 - i as u32
    } else if category(card) == led {
        10 - PLAIN.iter().position(|&r| r == &card[..card.len() - 1]).unwrap() as u32
    } else {
        0
    }
}

/// What happened in one deal of a record, computed from its actions alone.
#[derive(Debug)]
struct Facts {
    players: usize,
    dealer: usize,
    active: Vec<usize>,
    /// The last call other than pass (a zole overcall replaces the small zole) and its seat.
    contract: Option<(String, usize)>,
    tricks: Vec<u32>,
    trick_points: Vec<u32>,
    complete_tricks: u32,
    bury_points: u32,
    talon_points: u32,
    surrendered: bool,
}

impl Facts {
    fn of(deal: &Value, players: usize) -> Facts {
        let hands = deal["hands"].as_array().unwrap();
        let active: Vec<usize> = (0..players)
            .filter(|&s| !hands[s].as_array().unwrap().is_empty())
            .collect();
        let mut f = Facts {
            players,
            dealer: deal["dealer"].as_u64().unwrap() as usize,
            active,
            contract: None,
            tricks: vec![0; players],
            trick_points: vec![0; players],
            complete_tricks: 0,
            bury_points: 0,
            talon_points: deal["talon"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| points(c.as_str().unwrap()))
                .sum(),
            surrendered: false,
        };
        let mut trick: Vec<(usize, String)> = Vec::new();
        for a in deal["actions"].as_array().unwrap() {
            let seat = a["seat"].as_u64().unwrap() as usize;
            if let Some(b) = a.get("bid").and_then(Value::as_str) {
                if b != "pass" {
                    f.contract = Some((b.to_string(), seat));
                }
            } else if let Some(b) = a.get("bury") {
                f.bury_points = b
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| points(c.as_str().unwrap()))
                    .sum();
            } else if a.get("surrender").is_some() {
                f.surrendered = true;
            } else {
                trick.push((seat, a["play"].as_str().unwrap().to_string()));
                if trick.len() == 3 {
                    let led = category(&trick[0].1);
                    let (winner, _) = trick.iter().max_by_key(|(_, c)| power(c, led)).unwrap();
                    f.tricks[*winner] += 1;
                    f.trick_points[*winner] += trick.iter().map(|(_, c)| points(c)).sum::<u32>();
                    f.complete_tricks += 1;
                    trick.clear();
                }
            }
        }
        f
    }

    fn declarer(&self) -> Option<usize> {
        self.contract.as_ref().map(|c| c.1)
    }
    fn kind(&self) -> &str {
        self.contract.as_ref().map_or("", |c| c.0.as_str())
    }

    /// The declarer's card points: his tricks, plus the bury of a take.
    fn dp(&self) -> u32 {
        let d = self.declarer().unwrap();
        self.trick_points[d]
            + if self.kind() == "take" {
                self.bury_points
            } else {
                0
            }
    }
    fn dt(&self) -> u32 {
        self.tricks[self.declarer().unwrap()]
    }
    fn opp_tricks(&self) -> u32 {
        self.complete_tricks - self.dt()
    }
    fn full(&self) -> bool {
        self.complete_tricks == 8 && !self.surrendered
    }

    /// The card points RECORD.md shows: the bury with the declarer, a zole's talon with the
    /// first active opponent clockwise after the declarer.
    fn shown_points(&self) -> Vec<u32> {
        let mut p = self.trick_points.clone();
        match (self.kind(), self.declarer()) {
            ("take", Some(d)) => p[d] += self.bury_points,
            ("zole", Some(_)) => p[self.first_opponent()] += self.talon_points,
            _ => {}
        }
        p
    }

    /// The first active seat clockwise after the declarer.
    fn first_opponent(&self) -> usize {
        let d = self.declarer().unwrap();
        (1..self.players)
            .map(|k| (d + k) % self.players)
            .find(|s| self.active.contains(s))
            .unwrap()
    }

    /// Active seats from the dealer's left.
    fn active_from_dealers_left(&self) -> Vec<usize> {
        (1..=self.players)
            .map(|k| (self.dealer + k) % self.players)
            .filter(|s| self.active.contains(s))
            .collect()
    }

    /// Galdiņš (RULES.md 1.7): most tricks loses, ties broken by card points, still tied
    /// nobody pays; the loser pays 2 to every other player, sitting-out ones included.
    fn galdins_deltas(&self) -> Vec<i32> {
        let key = |s: usize| (self.tricks[s], self.trick_points[s]);
        let worst = self.active.iter().map(|&s| key(s)).max().unwrap();
        let losers: Vec<usize> = self.active.iter().copied().filter(|&s| key(s) == worst).collect();
        let n = self.players as i32;
        match losers[..] {
            [l] => (0..self.players)
                .map(|s| if s == l { -2 * (n - 1) } else { 2 })
                .collect(),
            _ => vec![0; self.players],
        }
    }

    /// Rondo (RULES.md 1.7, 1.11): most card points loses; each other active player receives
    /// 3 (no trick), 2 (30 or fewer) or 1; tied losers split, the odd points paid by the
    /// earlier seats from the dealer's left; sitting-out seats take no part.
    fn rondo_deltas(&self) -> Vec<i32> {
        let order = self.active_from_dealers_left();
        let most = order.iter().map(|&s| self.trick_points[s]).max().unwrap();
        let losers: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&s| self.trick_points[s] == most)
            .collect();
        let mut d = vec![0i32; self.players];
        if losers.len() == 3 {
            return d;
        }
        let mut total = 0;
        for &s in order.iter().filter(|s| !losers.contains(s)) {
            d[s] = match (self.tricks[s], self.trick_points[s]) {
                (0, _) => 3,
                (_, p) if p <= 30 => 2,
                _ => 1,
            };
            total += d[s];
        }
        let k = losers.len() as i32;
        for (i, &l) in losers.iter().enumerate() {
            d[l] = -(total / k + i32::from((i as i32) < total % k));
        }
        d
    }

    /// Is this deal in the claimed band? (Bands of RULES.md 1.6, keyed on tricks.)
    fn in_band(&self, band: &str) -> bool {
        match band {
            "pass" => self.contract.is_none() && self.complete_tricks == 0,
            "galdins" | "rondo" => self.contract.is_none() && self.full(),
            "surrender" => self.surrendered,
            "small_won" => self.kind() == "small_zole" && self.full() && self.dt() == 0,
            "small_lost" => self.kind() == "small_zole" && self.dt() == 1,
            "points" => self.full(),
            _ if !self.full() => false,
            "win_61_90" => (61..=90).contains(&self.dp()) && self.opp_tricks() > 0,
            "win_91" => self.dp() >= 91 && self.opp_tricks() > 0,
            "win_all_tricks" => self.opp_tricks() == 0,
            "lose_31_60" => (31..=60).contains(&self.dp()),
            "lose_le30" => self.dp() <= 30 && self.dt() > 0,
            "lose_no_trick" => self.dt() == 0,
            other => panic!("unknown band {other}"),
        }
    }
}

/// Checks one deal's output against its claim and the independently computed facts.
fn check_deal(case: &str, i: usize, deal: &Value, out: &Value, claim: &Value, rules: &Value) {
    let players = deal["hands"].as_array().unwrap().len();
    let concede_rest = rules.get("surrender") == Some(&Value::from("concede_rest"));
    let at = format!("{case}, deal {}", i + 1);
    let f = Facts::of(deal, players);
    let band = claim["band"]
        .as_str()
        .unwrap_or_else(|| panic!("{at}: claim without band"));
    assert!(f.in_band(band), "{at}: the deal is not in band {band}: {f:?}");
    if let Some(r) = claim.get("declarer_points") {
        let (lo, hi) = (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32);
        assert!(
            (lo..=hi).contains(&f.dp()),
            "{at}: declarer has {} points",
            f.dp()
        );
    }
    assert_eq!(out["contract"], claim["contract"], "{at}: contract");
    if let Some(d) = claim.get("declarer") {
        assert_eq!(&out["declarer"], d, "{at}: declarer");
    }
    assert_eq!(out["declarer"], serde_json::json!(f.declarer()), "{at}: declarer");
    assert_eq!(
        out.get("surrendered").cloned().unwrap_or(Value::Bool(false)),
        claim.get("surrendered").cloned().unwrap_or(Value::Bool(false)),
        "{at}: surrendered"
    );
    if band != "pass" {
        assert_eq!(out["tricks"], serde_json::json!(f.tricks), "{at}: tricks");
        if !f.surrendered {
            assert_eq!(
                out["card_points"],
                serde_json::json!(f.shown_points()),
                "{at}: card points"
            );
        } else if concede_rest {
            // Every card outside a completed trick goes to the opponents (shown on the first
            // one after the declarer), so all 120 points are counted.
            let mut p = f.shown_points();
            let rest = 120 - p.iter().sum::<u32>();
            p[f.first_opponent()] += rest;
            assert_eq!(out["card_points"], serde_json::json!(p), "{at}: card points");
        }
    }
    let deltas: Vec<i32> = if let Some(d) = claim.get("deltas") {
        serde_json::from_value(d.clone()).unwrap()
    } else if let Some(u) = claim.get("unit") {
        let u = u.as_i64().unwrap() as i32;
        let d = f.declarer().unwrap();
        (0..players)
            .map(|s| if s == d { u * (players as i32 - 1) } else { -u })
            .collect()
    } else if band == "galdins" {
        f.galdins_deltas()
    } else if band == "rondo" {
        f.rondo_deltas()
    } else {
        panic!("{at}: claim without deltas or unit")
    };
    assert_eq!(out["deltas"], serde_json::json!(deltas), "{at}: deltas");
    if let Some(p) = claim.get("pules") {
        assert_eq!(&out["pules"], p, "{at}: pules");
    }
}

fn manifest() -> Vec<Value> {
    read_json(&root().join("manifest.json"))
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_golden_record_has_a_claim_and_every_claim_a_record() {
    let claimed: BTreeSet<String> = manifest()
        .iter()
        .map(|e| e["case"].as_str().unwrap().to_string())
        .collect();
    let mut files = BTreeSet::new();
    for dir in std::fs::read_dir(root()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            if let Some(case) = name.strip_suffix(".json").filter(|c| !c.ends_with(".out")) {
                let preset = dir.file_name().unwrap().to_str().unwrap();
                files.insert(format!("{preset}/{case}"));
                assert!(
                    dir.join(format!("{case}.out.json")).exists(),
                    "{preset}/{case}: no .out.json"
                );
            }
        }
    }
    assert_eq!(files, claimed);
    for preset in ["lv", "lv-galdins", "rondo", "catsatcards", "zolite"] {
        assert!(
            files.iter().any(|f| f.starts_with(&format!("{preset}/"))),
            "{preset}"
        );
    }
}

#[test]
fn golden_records_replay_to_their_output_and_match_the_rules() {
    for entry in manifest() {
        let case = entry["case"].as_str().unwrap();
        let path = root().join(format!("{case}.json"));
        let bytes = std::fs::read(&path).unwrap();
        let expected = read_json(&root().join(format!("{case}.out.json")));
        let got = stikis_core::record::replay(&bytes).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(
            got, expected,
            "{case}: replay output differs from {case}.out.json"
        );

        let record = read_json(&path);
        let preset = case.split('/').next().unwrap();
        match &record["rules"] {
            Value::String(p) => assert_eq!(p, preset, "{case}: rules"),
            Value::Object(o) => assert_eq!(o["preset"], preset, "{case}: rules"),
            other => panic!("{case}: rules {other}"),
        }
        let players = record["players"].as_array().unwrap().len();
        let deals = record["deals"].as_array().unwrap();
        let claims = entry["deals"].as_array().unwrap();
        let outs = expected["deals"].as_array().unwrap();
        assert_eq!(claims.len(), deals.len(), "{case}: one claim per deal");
        assert_eq!(outs.len(), deals.len(), "{case}: one output per deal");
        let mut totals = vec![0i64; players];
        for (i, ((deal, out), claim)) in deals.iter().zip(outs).zip(claims).enumerate() {
            check_deal(case, i, deal, out, claim, &record["rules"]);
            for (t, d) in totals.iter_mut().zip(out["deltas"].as_array().unwrap()) {
                *t += d.as_i64().unwrap();
            }
        }
        assert_eq!(expected["totals"], serde_json::json!(totals), "{case}: totals");
    }
}

fn session_of(case: &str) -> stikis_core::games::zole::Session {
    let bytes = std::fs::read(root().join(format!("{case}.json"))).unwrap();
    let env: Envelope = serde_json::from_slice(&bytes).unwrap();
    replay_session(&env).unwrap()
}

#[test]
fn closing_the_table_settles_open_personal_pules() {
    // RULES.md 1.8: each open personal pule costs its owner 1 per other player; common pules
    // lapse. settle_4p ends with two common pules and seat 1's personal pule open.
    let mut s = session_of("lv/settle_4p");
    let before = s.sheet.totals.clone();
    assert_eq!(s.pules.common, 2);
    assert_eq!(s.settle(), vec![1, -3, 1, 1]);
    let after: Vec<i32> = before.iter().zip([1, -3, 1, 1]).map(|(t, d)| t + d).collect();
    assert_eq!(s.sheet.totals, after);
    assert_eq!(s.pules.common, 0, "common pules lapse");
    assert!(s.pules.personal.is_empty());
    assert_eq!(s.settle(), vec![1, -3, 1, 1], "settling twice changes nothing");
    assert_eq!(s.sheet.totals, after);

    let mut s = session_of("lv/pule_lost_take_writes_personal");
    assert_eq!(s.settle(), vec![-2, 1, 1]);

    // With settle_pules_at_end off, nothing is paid.
    let mut s = session_of("lv/settle_4p");
    let mut off = *s.options();
    off.settle_pules_at_end = false;
    let mut s2 = stikis_core::games::zole::Session::new(off, 4, 3).unwrap();
    for e in s.deals() {
        s2.deal_from_hands(e.start.dealer(), e.start.dealt_hands(), e.start.talon())
            .unwrap();
        for &(seat, a) in &e.actions {
            s2.apply(seat, a).unwrap();
        }
    }
    assert_eq!(s2.settle(), vec![0, 0, 0, 0]);
    assert_eq!(s.settle(), vec![1, -3, 1, 1]);
}
