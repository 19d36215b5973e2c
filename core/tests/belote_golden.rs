//! Golden belote records: every file `core/tests/golden/<game>/<name>.json` replays to
//! `<name>.expected.json`, or, for a broken record, fails with the one line of
//! `<name>.stderr`. The expected outputs are also checked against the scoring formulas of
//! RULES.md 2.2 to 2.6 recomputed here from their own `team_points` and `combinations`.
//!
//! Every record is also fuzzed (tests/mutate): replay never panics on a damaged one.
//!
//! `cargo test -p stikis-core --test belote_golden -- --ignored` rewrites the files from the
//! cases below (found by seed search or dealt by hand); review the diff before committing.

mod mutate;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use stikis_core::cards::{cards, Card, CardSet};
use stikis_core::games::belote::combos::Combo;
use stikis_core::games::belote::record::to_envelope;
use stikis_core::games::belote::session::Session;
use stikis_core::games::belote::{Action, Bid, Deal, Mode, Options, Phase, Variant};
use stikis_core::record::Envelope;
use stikis_core::{Game, Rank, Seat, Seed};

const GAMES: [&str; 4] = ["belote-bazar", "belote-classic", "belote-h2h", "coinche"];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn records(game: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(golden_dir().join(game))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        n.ends_with(".json") && !n.ends_with(".expected.json")
    });
    v.sort();
    v
}

fn sibling(p: &Path, ext: &str) -> PathBuf {
    let stem = p.file_stem().unwrap().to_string_lossy();
    p.with_file_name(format!("{stem}{ext}"))
}

/// Seeded byte-level mutations of every golden record of every variant: replay answers,
/// never panics, and a refusal names a deal and action within reach of the record (the edits
/// can split a deal or an action list in two, hence the one more).
#[test]
fn mutated_records_never_panic() {
    let rounds = if cfg!(debug_assertions) { 100 } else { 1500 };
    for game in GAMES {
        // `records` is empty where the directory is missing: nothing fuzzed is no pass.
        let files = records(game);
        assert!(!files.is_empty(), "{game}: no golden records to mutate");
        for path in files {
            let rec: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let deals = rec["deals"].as_array().map_or(0, Vec::len);
            let actions = rec["deals"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| d["actions"].as_array().map_or(0, Vec::len))
                .max()
                .unwrap_or(0);
            mutate::fuzz_record(&path, rounds, |e| e.deal <= deals + 1 && e.action <= actions + 1);
        }
    }
}

#[test]
fn golden_records_replay_to_their_expected_output() {
    let mut n = 0;
    for game in GAMES {
        let files = records(game);
        assert!(files.len() >= 5, "{game}: golden records missing");
        for p in files {
            n += 1;
            let input = std::fs::read(&p).unwrap();
            let got = stikis_core::record::replay(&input);
            let ok = sibling(&p, ".expected.json");
            if ok.exists() {
                let want: Value = serde_json::from_str(&std::fs::read_to_string(&ok).unwrap()).unwrap();
                let got = got.unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                assert_eq!(got, want, "{}", p.display());
                check_formulas(game, &want, &p);
            } else {
                let want = std::fs::read_to_string(sibling(&p, ".stderr")).unwrap();
                let e = got.expect_err("a broken record must fail");
                assert_eq!(e.to_string(), want.trim_end(), "{}", p.display());
            }
        }
    }
    assert!(n >= 40, "only {n} golden records");
}

fn arr(v: &Value) -> [i64; 2] {
    [v[0].as_i64().unwrap(), v[1].as_i64().unwrap()]
}

/// Recomputes each deal's deltas from the printed points with the formulas of RULES.md,
/// independently of the engine's scoring code.
fn check_formulas(game: &str, out: &Value, p: &Path) {
    let mut totals = [0i64; 2];
    for d in out["deals"].as_array().unwrap() {
        if d.get("complete").is_some() {
            continue;
        }
        let deltas = arr(&d["deltas"]);
        totals[0] += deltas[0];
        totals[1] += deltas[1];
        assert_eq!(arr(&d["totals"]), totals, "{}", p.display());
        let contract = d["contract"].as_str().unwrap();
        if contract == "redeal" {
            assert_eq!(deltas, [0, 0]);
            continue;
        }
        let pts = arr(&d["team_points"]);
        let comb = arr(&d["combinations"]);
        let b = (d["declarer"].as_u64().unwrap() % 2) as usize;
        let o = 1 - b;
        let total = |t: usize| pts[t] + comb[t];
        let capot = pts.contains(&250);
        let mult = match d.get("doubled").and_then(|x| x.as_str()) {
            None => 0,
            Some("contra") | Some("coinche") => 2,
            Some(_) => 4,
        };
        let tens_half_down = |x: i64| (x + 4) / 10;
        let mut want = [0i64; 2];
        match game {
            "belote-bazar" | "coinche" => {
                let words: Vec<&str> = contract.split(' ').collect();
                let (x, capot_bid, y, dd, z) = if game == "belote-bazar" {
                    (
                        words[0].parse::<i64>().unwrap(),
                        words.len() == 3,
                        tens_half_down(total(b)),
                        if capot { 25 } else { 16 },
                        (comb[0] + comb[1]) / 10,
                    )
                } else if words[0] == "capot" {
                    (
                        250,
                        true,
                        total(b),
                        if capot { 250 } else { 162 },
                        comb[0] + comb[1],
                    )
                } else {
                    (
                        words[0].parse::<i64>().unwrap(),
                        false,
                        total(b),
                        if capot { 250 } else { 162 },
                        comb[0] + comb[1],
                    )
                };
                let made = y >= x && (!capot_bid || pts[b] == 250);
                match (mult, made) {
                    (0, true) => {
                        want[b] = x + y;
                        want[o] = if game == "coinche" {
                            total(o)
                        } else {
                            tens_half_down(total(o))
                        };
                    }
                    (0, false) => want[o] = x + dd + z,
                    (m, true) => want[b] = m * x + dd + z,
                    (m, false) => want[o] = m * x + dd + z,
                }
            }
            _ => {
                let h2h = game == "belote-h2h";
                if total(b) > total(o) {
                    want = if h2h {
                        [tens_half_down(total(0)), tens_half_down(total(1))]
                    } else {
                        [total(0), total(1)]
                    };
                } else {
                    // Failed: the printed combinations mix combinations and belote, so check
                    // what the rules fix: the takers keep only their belote (a multiple of
                    // 20, at most their combinations) and the deal shares out 162 (250) plus
                    // every combination and belote.
                    let all = if capot { 250 } else { 162 };
                    let unit = if h2h { 10 } else { 1 };
                    assert!(deltas[b] % (20 / unit) == 0 && deltas[b] * unit <= comb[b]);
                    assert_eq!(
                        (deltas[0] + deltas[1]) * unit,
                        all / 10 * 10 * (if h2h { 1 } else { 0 })
                            + all * (if h2h { 0 } else { 1 })
                            + comb[0]
                            + comb[1],
                        "{}",
                        p.display()
                    );
                    want = deltas;
                }
            }
        }
        assert_eq!(deltas, want, "{}: deal {d}", p.display());
    }
    assert_eq!(arr(&out["totals"]), totals, "{}", p.display());
}

// ---------------------------------------------------------------------------------------------
// Generating the golden files.

struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One deal played out: the scripted bids, then random legal cards.
fn play_out(mut d: Deal, bids: &[&str], rng: &mut Mix) -> (Deal, Vec<(Seat, Action)>) {
    let mut log = vec![];
    for b in bids {
        let seat = d.to_act().expect("the script is longer than the auction");
        let a = Action::Bid(Bid::parse(d.variant(), b).unwrap());
        d.apply(seat, a).unwrap_or_else(|e| panic!("{b}: {e}"));
        log.push((seat, a));
    }
    while let Some(seat) = d.to_act() {
        let legal = d.legal_actions();
        let a = legal[rng.below(legal.len())];
        d.apply(seat, a).unwrap();
        log.push((seat, a));
    }
    (d, log)
}

fn record_of(d: &Deal, log: &[(Seat, Action)]) -> Value {
    let v = d.variant();
    let hands: Vec<Vec<String>> = d
        .dealt()
        .iter()
        .map(|h| h.iter().map(|c| c.to_string()).collect())
        .collect();
    let mut deal = json!({
        "dealer": d.dealer(),
        "hands": hands,
        "actions": log.iter().map(|(s, a)| match a {
            Action::Bid(b) => json!({"seat": s, "bid": b.to_string()}),
            Action::Play(c) => json!({"seat": s, "play": c.to_string()}),
        }).collect::<Vec<_>>(),
    });
    if v.has_turned_card() {
        deal["turned"] = json!(d.turned().unwrap().to_string());
        deal["stock"] = json!(d.stock().iter().map(|c| c.to_string()).collect::<Vec<_>>());
    }
    let names = ["Anna", "Bruno", "Cilda", "Dainis"];
    json!({
        "game": v.game_name(),
        "rules": "default",
        "players": names[..v.seats()],
        "deals": [deal],
    })
}

/// What a generated deal must show.
type Pred = fn(&Deal) -> bool;

fn made(d: &Deal) -> bool {
    !failed(d)
}

/// The declaring side lost: it scores nothing (Bazar, Coinche) or did not score more than the
/// others (French classic, head-to-head).
fn failed(d: &Deal) -> bool {
    let r = d.result().unwrap();
    let b = decl_team(d);
    match d.variant() {
        Variant::Bazar | Variant::Coinche => r.deltas[b] == 0,
        _ => team_total(d, b) <= team_total(d, 1 - b),
    }
}

fn team_total(d: &Deal, t: usize) -> u32 {
    let r = d.result().unwrap();
    r.team_points[t] + r.combinations[t]
}

fn decl_team(d: &Deal) -> usize {
    d.variant().team(d.contract().unwrap().declarer) as usize
}

fn best_seq(d: &Deal, team: u8) -> Option<(u8, Card)> {
    (0..d.variant().seats() as u8)
        .filter(|&s| d.variant().team(s) == team)
        .flat_map(|s| d.combos(s).to_vec())
        .filter_map(|c| match c {
            Combo::Sequence { len, top } => Some((len.min(5), top)),
            _ => None,
        })
        .max_by_key(|&(l, t)| (l, t.index() % 13))
}

fn has_four(d: &Deal, team: u8) -> bool {
    (0..d.variant().seats() as u8)
        .filter(|&s| d.variant().team(s) == team)
        .any(|s| d.combos(s).iter().any(|c| matches!(c, Combo::Four(_))))
}

fn seq_vs_seq_by_top(d: &Deal) -> bool {
    match (best_seq(d, 0), best_seq(d, 1)) {
        (Some(a), Some(b)) => {
            a.0 == b.0 && a.1.index() % 13 != b.1.index() % 13 && !has_four(d, 0) && !has_four(d, 1)
        }
        _ => false,
    }
}

fn seq_tie_trump(d: &Deal) -> bool {
    let trump = d.contract().unwrap().mode;
    match (best_seq(d, 0), best_seq(d, 1)) {
        (Some(a), Some(b)) => {
            let in_trump = |c: Card| matches!(trump, Mode::Trump(s) if c.suit() == Some(s));
            a.0 == b.0
                && a.1.index() % 13 == b.1.index() % 13
                && (in_trump(a.1) != in_trump(b.1))
                && !has_four(d, 0)
                && !has_four(d, 1)
        }
        _ => false,
    }
}

fn four_eights(d: &Deal) -> bool {
    let eights = |t: u8| {
        (0..4u8)
            .filter(|&s| s % 2 == t)
            .any(|s| d.combos(s).contains(&Combo::Four(Rank::Eight)))
    };
    (eights(0) && !d.combos(1).is_empty() | !d.combos(3).is_empty())
        || (eights(1) && !d.combos(0).is_empty() | !d.combos(2).is_empty())
}

fn belote_kept_failed(d: &Deal) -> bool {
    let b = decl_team(d);
    failed(d) && d.declared().belote[b] > 0
}

fn ends_in(d: &Deal, digit: u32) -> bool {
    made(d) && team_total(d, decl_team(d)) % 10 == digit
}

fn any(_: &Deal) -> bool {
    true
}

fn capot_taken(d: &Deal) -> bool {
    d.result().unwrap().team_points.contains(&250)
}

struct Case {
    name: &'static str,
    variant: Variant,
    bids: &'static [&'static str],
    pred: Pred,
    /// Hands dealt by hand (seat order), and the turned card and stock, instead of a search.
    hands: Option<([&'static str; 4], &'static str, &'static str)>,
    /// The seats' bids are scripted; the search looks at dealer `dealer`.
    dealer: Seat,
}

const fn case(name: &'static str, variant: Variant, bids: &'static [&'static str], pred: Pred) -> Case {
    Case {
        name,
        variant,
        bids,
        pred,
        hands: None,
        dealer: match variant {
            Variant::Bazar | Variant::Classic => 3,
            _ => 1,
        },
    }
}

/// Seat 0 holds every heart.
const ALL_HEARTS: [&str; 4] = [
    "AH 10H KH QH JH 9H 8H 7H",
    "AS 10S KS QS AC 10C KC QC",
    "JS 9S 8S 7S JC 9C 8C 7C",
    "AD 10D KD QD JD 9D 8D 7D",
];

fn cases() -> Vec<Case> {
    use Variant::*;
    let p3 = |b: &'static [&'static str]| b;
    let mut v = vec![
        case("made", Bazar, p3(&["9 H", "pass", "pass", "pass"]), made),
        case("failed", Bazar, &["12 S", "pass", "pass", "pass"], failed),
        case(
            "contra_made",
            Bazar,
            &["9 D", "contra", "pass", "pass", "pass"],
            made,
        ),
        case(
            "contra_failed",
            Bazar,
            &["11 C", "contra", "pass", "pass", "pass"],
            failed,
        ),
        case("recontra_made", Bazar, &["9 H", "contra", "recontra"], made),
        case("recontra_failed", Bazar, &["12 H", "contra", "recontra"], failed),
        case("no_trump", Bazar, &["pass", "9 NT", "pass", "pass", "pass"], made),
        case(
            "no_trump_failed",
            Bazar,
            &["13 NT", "pass", "pass", "pass"],
            failed,
        ),
        case(
            "sequence_vs_sequence_top_card",
            Bazar,
            &["8 S", "pass", "pass", "pass"],
            seq_vs_seq_by_top,
        ),
        case(
            "sequence_tie_trump_wins",
            Bazar,
            &["8 S", "pass", "pass", "pass"],
            seq_tie_trump,
        ),
        case(
            "four_eights",
            Bazar,
            &["8 D", "pass", "pass", "pass"],
            four_eights,
        ),
        case(
            "belote_in_failed_contract",
            Bazar,
            &["13 H", "pass", "pass", "pass"],
            belote_kept_failed,
        ),
        case("rounding_5_down", Bazar, &["8 C", "pass", "pass", "pass"], |d| {
            ends_in(d, 5)
        }),
        case("rounding_6_up", Bazar, &["8 C", "pass", "pass", "pass"], |d| {
            ends_in(d, 6)
        }),
        case("redeal", Bazar, &["pass", "pass", "pass", "pass"], any),
        case("made", Coinche, &["80 H", "pass", "pass", "pass"], made),
        case("failed", Coinche, &["120 S", "pass", "pass", "pass"], failed),
        case(
            "coinche_made",
            Coinche,
            &["90 D", "coinche", "pass", "pass", "pass"],
            made,
        ),
        case(
            "coinche_failed",
            Coinche,
            &["110 C", "coinche", "pass", "pass", "pass"],
            failed,
        ),
        case("surcoinche", Coinche, &["80 H", "coinche", "surcoinche"], made),
        case(
            "surcoinche_failed",
            Coinche,
            &["130 H", "coinche", "pass", "pass", "surcoinche"],
            failed,
        ),
        case(
            "all_trumps",
            Coinche,
            &["pass", "100 AT", "pass", "pass", "pass"],
            made,
        ),
        case(
            "all_trumps_failed",
            Coinche,
            &["140 AT", "pass", "pass", "pass"],
            failed,
        ),
        case("no_trump", Coinche, &["90 NT", "pass", "pass", "pass"], made),
        case(
            "sequence_tie_trump_wins",
            Coinche,
            &["80 C", "pass", "pass", "pass"],
            seq_tie_trump,
        ),
        case(
            "belote_in_failed_contract",
            Coinche,
            &["140 H", "pass", "pass", "pass"],
            belote_kept_failed,
        ),
        case("redeal", Coinche, &["pass", "pass", "pass", "pass"], any),
        case("made", Classic, &["take"], made),
        case("failed", Classic, &["take"], failed),
        case(
            "belote_kept_failed",
            Classic,
            &["pass", "take"],
            belote_kept_failed,
        ),
        case(
            "second_round",
            Classic,
            &["pass", "pass", "pass", "pass", "pass", "pass", "D"],
            any,
        ),
        case(
            "second_round_turned_suit",
            Classic,
            &["pass", "pass", "pass", "pass", "pass", "pass", "pass"],
            any,
        ),
        case("four_of_a_kind", Classic, &["take"], |d| {
            has_four(d, 0) || has_four(d, 1)
        }),
        case("redeal", Classic, &["pass"; 8], any),
        case("made", HeadToHead, &["take"], made),
        case("failed", HeadToHead, &["pass", "take"], failed),
        case("rounding_5_down", HeadToHead, &["take"], |d| ends_in(d, 5)),
        case("rounding_6_up", HeadToHead, &["take"], |d| ends_in(d, 6)),
        case("belote_kept_failed", HeadToHead, &["take"], belote_kept_failed),
        case("redeal", HeadToHead, &["pass"; 4], any),
    ];
    v.push(Case {
        hands: Some((ALL_HEARTS, "", "")),
        ..case(
            "capot_bid",
            Bazar,
            &["26 H capot", "pass", "pass", "pass"],
            capot_taken,
        )
    });
    v.push(Case {
        hands: Some((ALL_HEARTS, "", "")),
        ..case(
            "capot_without_bid",
            Bazar,
            &["9 H", "contra", "pass", "pass", "pass"],
            capot_taken,
        )
    });
    v.push(Case {
        hands: Some((ALL_HEARTS, "", "")),
        ..case(
            "capot_bid",
            Coinche,
            &["capot H", "pass", "pass", "pass"],
            capot_taken,
        )
    });
    v.push(Case {
        hands: Some((
            [
                "AH 10H KH QH JH",
                "AS 10S KS QS AC",
                "JS 9S 8S 7S JC",
                "AD 10D KD QD JD",
            ],
            "9H",
            "8H 7H 10C KC QC 9C 8C 7C 9D 8D 7D",
        )),
        ..case("capot", Classic, &["take"], capot_taken)
    });
    v.push(Case {
        hands: Some((
            ["AH 10H KH QH JH 9H", "AS 10S KS QS AC 10C", "", ""],
            "8H",
            "7H JS 9S 8S 7S",
        )),
        dealer: 1,
        ..case("capot", HeadToHead, &["take"], capot_taken)
    });
    v
}

fn explicit(c: &Case) -> Deal {
    let (h, turned, stock) = c.hands.unwrap();
    let v = c.variant;
    let hands: Vec<CardSet> = h[..v.seats()].iter().map(|s| cards(s)).collect();
    let turned = (!turned.is_empty()).then(|| turned.parse().unwrap());
    let stock: Vec<Card> = cards(stock).iter().collect();
    // `cards` sorts; the stock order matters, so read it in order.
    let stock: Vec<Card> = if stock.is_empty() {
        vec![]
    } else {
        c.hands
            .unwrap()
            .2
            .split_whitespace()
            .map(|s| s.parse().unwrap())
            .collect()
    };
    // In Coinche seat 0 speaks first with dealer 1.
    Deal::from_hands(v, Options::default_for(v), c.dealer, &hands, turned, &stock).unwrap()
}

fn write(path: PathBuf, text: String) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text + "\n").unwrap();
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

/// A record laid out for reading: one line per field of a deal and one per action.
fn pretty_record(rec: &Value) -> String {
    let mut out = String::from("{\n");
    for key in ["game", "rules", "players"] {
        out += &format!("  \"{key}\": {},\n", rec[key]);
    }
    out += "  \"deals\": [\n";
    let deals = rec["deals"].as_array().unwrap();
    for (i, d) in deals.iter().enumerate() {
        out += "    {\n";
        for (k, v) in d.as_object().unwrap() {
            if k != "actions" {
                out += &format!("      \"{k}\": {v},\n");
            }
        }
        out += "      \"actions\": [\n";
        let acts = d["actions"].as_array().unwrap();
        for (j, a) in acts.iter().enumerate() {
            let comma = if j + 1 < acts.len() { "," } else { "" };
            out += &format!("        {a}{comma}\n");
        }
        out += "      ]\n";
        out += if i + 1 < deals.len() {
            "    },\n"
        } else {
            "    }\n"
        };
    }
    out += "  ]\n}";
    debug_assert_eq!(&serde_json::from_str::<Value>(&out).unwrap(), rec);
    out
}

/// Writes a record, its expected replay, and a broken copy with its expected error.
fn emit(game: &str, name: &str, rec: &Value) {
    let dir = golden_dir().join(game);
    let out = stikis_core::record::replay(rec.to_string().as_bytes())
        .unwrap_or_else(|e| panic!("{game}/{name}: {e}"));
    write(dir.join(format!("{name}.json")), pretty_record(rec));
    write(dir.join(format!("{name}.expected.json")), pretty(&out));
}

fn emit_error(game: &str, name: &str, rec: &Value) {
    let dir = golden_dir().join(game);
    let e = stikis_core::record::replay(rec.to_string().as_bytes()).expect_err(name);
    write(dir.join(format!("{name}.json")), pretty_record(rec));
    write(dir.join(format!("{name}.stderr")), e.to_string());
}

#[test]
#[ignore = "rewrites the golden files"]
fn regenerate_golden_files() {
    for c in cases() {
        let game = c.variant.game_name();
        let mut found = None;
        for seed in 0..200_000u64 {
            let d = match c.hands {
                Some(_) => explicit(&c),
                None => Deal::shuffled(
                    c.variant,
                    Options::default_for(c.variant),
                    c.dealer,
                    Seed::from_u64(seed),
                ),
            };
            if c.variant.has_turned_card() && c.name == "second_round" {
                // Name a suit other than the turned one.
                if d.turned().unwrap().suit() == Some(stikis_core::Suit::Diamonds) {
                    continue;
                }
            }
            let mut bids: Vec<&str> = c.bids.to_vec();
            let turned_letter;
            if c.name == "second_round_turned_suit" {
                turned_letter = d.turned().unwrap().suit().unwrap().to_string();
                bids = vec!["pass"; c.variant.seats()];
                bids.push(turned_letter.as_str());
            }
            let bids: Vec<&str> = bids;
            let mut rng = Mix(seed);
            let (d, log) = play_out(d, &bids, &mut rng);
            let ok = d.phase() == Phase::Done && (d.contract().is_none() || (c.pred)(&d));
            if ok {
                found = Some(record_of(&d, &log));
                break;
            }
        }
        let rec = found.unwrap_or_else(|| panic!("{game}/{}: no deal found", c.name));
        emit(game, c.name, &rec);
    }
    for v in Variant::ALL {
        let game = v.game_name();
        // A whole game to the target, and the same game cut short (a game in progress).
        let mut s = Session::new(v, Options::default_for(v), 0);
        let mut rng = Mix(v as u64 + 11);
        let mut k = 0;
        while !s.is_over() {
            s.start_deal(Seed::from_u64(1000 + k), 3 + (k as usize % 20))
                .unwrap();
            k += 1;
            while let Some(seat) = s.current().unwrap().to_act() {
                let d = s.current().unwrap();
                let legal = d.legal_actions();
                let a = if d.phase() == Phase::Bidding && rng.below(3) != 0 {
                    Action::Bid(Bid::Pass)
                } else {
                    legal[rng.below(legal.len())]
                };
                s.play(seat, a).unwrap();
            }
        }
        let names: Vec<String> = ["Anna", "Bruno", "Cilda", "Dainis"][..v.seats()]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let env: Envelope = to_envelope(&s, &names);
        let full = serde_json::to_value(&env).unwrap();
        emit(game, "game_to_target", &full);
        let mut part = full.clone();
        let deals = part["deals"].as_array_mut().unwrap();
        deals.truncate(2);
        let acts = deals[1]["actions"].as_array_mut().unwrap();
        let keep = acts.len() / 2;
        acts.truncate(keep);
        emit(game, "in_progress", &part);

        // Broken records, each failing at a known place (two deals are enough).
        let mut full = full;
        full["deals"].as_array_mut().unwrap().truncate(2);
        let mut bad = full.clone();
        bad["deals"][1]["dealer"] =
            json!((full["deals"][1]["dealer"].as_u64().unwrap() + 1) % v.seats() as u64);
        emit_error(game, "error_wrong_dealer", &bad);
        let mut bad = full.clone();
        bad["deals"][0]["actions"][0]["seat"] =
            json!((full["deals"][0]["actions"][0]["seat"].as_u64().unwrap() + 1) % v.seats() as u64);
        emit_error(game, "error_out_of_turn", &bad);
        let mut bad = full.clone();
        bad["deals"][0]["hands"][0][0] = bad["deals"][0]["hands"][1][0].clone();
        emit_error(game, "error_card_dealt_twice", &bad);
        let mut bad = full.clone();
        bad["deals"][0]["actions"][0]["bid"] = json!("double");
        emit_error(game, "error_unknown_bid", &bad);
        if v == Variant::Coinche {
            // The deck is carried: hands that are no cut of the gathered cards are refused.
            let mut bad = full.clone();
            let a = bad["deals"][1]["hands"][0][0].clone();
            let b = bad["deals"][1]["hands"][1][0].clone();
            bad["deals"][1]["hands"][0][0] = b;
            bad["deals"][1]["hands"][1][0] = a;
            emit_error(game, "error_not_a_cut", &bad);
        }
        // A card that breaks a play rule: the first play where a held card is not legal.
        if let Some(bad) = illegal_play(&s, &full) {
            emit_error(game, "error_illegal_card", &bad);
        }
    }
    let mut bad: Value =
        serde_json::from_str(&std::fs::read_to_string(golden_dir().join("belote-bazar/made.json")).unwrap())
            .unwrap();
    bad["players"] = json!(["Anna", "Bruno"]);
    emit_error("belote-bazar", "error_players", &bad);
    bad["rules"] = json!("lv");
    emit_error("belote-bazar", "error_rules", &bad);
}

/// The record with one play replaced by a held card that the play rules forbid there.
fn illegal_play(s: &Session, full: &Value) -> Option<Value> {
    for (di, log) in s.deals().iter().enumerate().take(2) {
        let v = s.variant();
        let mut d =
            Deal::from_hands(v, *s.options(), log.dealer, &log.hands, log.turned, &log.stock).unwrap();
        for (ai, &(seat, a)) in log.actions.iter().enumerate() {
            if d.phase() == Phase::Play {
                let legal: CardSet = d
                    .legal_actions()
                    .iter()
                    .filter_map(|a| match a {
                        Action::Play(c) => Some(*c),
                        _ => None,
                    })
                    .collect();
                if let Some(c) = d.hand(seat).minus(legal).first() {
                    let mut bad = full.clone();
                    bad["deals"][di]["actions"][ai] = json!({"seat": seat, "play": c.to_string()});
                    return Some(bad);
                }
            }
            d.apply(seat, a).unwrap();
        }
    }
    None
}
