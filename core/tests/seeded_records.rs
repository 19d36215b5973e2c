//! Host-dealt records of the Belote family and Polt to Tzar: a deal may carry the `"seed"` it
//! was dealt from, and replay accepts it only when that seed, dealt exactly as the host deals,
//! gives the recorded cards (Belote: hands, turned card and stock; Coinche: the first deal's
//! shuffle and every deal's cut; Polt: the hands, and the first ranks drawn from the first
//! seed). Sessions are played here the way the host plays them, with random legal moves.
//!
//! The records written from them are also pinned as golden files (`host_dealt*` under
//! core/tests/golden/<game>/), which the CLI tests replay through the binary (exit 0, or exit 2
//! with the error line). `STIKIS_BLESS=1 cargo test -p stikis-core --test seeded_records`
//! rewrites them after a deliberate change.

use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use stikis_core::games::belote::coinche::cut_from_seed;
use stikis_core::games::belote::record::to_envelope;
use stikis_core::games::belote::{self, Action, Bid, Phase, Variant};
use stikis_core::games::polt::{self, ranks_from_seed};
use stikis_core::record::{replay, ReplayError};
use stikis_core::{Game, Seed};

const NAMES: [&str; 7] = ["Anna", "Bruno", "Cilda", "Dainis", "Elza", "Fricis", "Gita"];

const WRONG_SEED: &str = "the hands are not the ones this seed deals";
const WRONG_RANKS: &str = "the ranks are not the ones this seed draws";
const BAD_FORMAT: &str = "\"seed\" must be 64 hexadecimal digits";

fn run(v: &Value) -> Result<Value, ReplayError> {
    replay(v.to_string().as_bytes())
}

fn err(v: &Value) -> ReplayError {
    run(v).expect_err("the record should be refused")
}

fn seed_of(rec: &Value, deal: usize) -> Seed {
    rec["deals"][deal]["seed"].as_str().unwrap().parse().unwrap()
}

fn with_seed(rec: &Value, deal: usize, seed: Seed) -> Value {
    let mut rec = rec.clone();
    rec["deals"][deal]["seed"] = json!(seed.to_string());
    rec
}

fn without_seeds(rec: &Value) -> Value {
    let mut rec = rec.clone();
    for d in rec["deals"].as_array_mut().unwrap() {
        d.as_object_mut().unwrap().remove("seed");
    }
    rec
}

/// A Belote-family game of `deals` deals (fewer if it ends), dealt as the host deals (a fresh
/// seed per deal, the Coinche cut from that seed), as the host's record writes it: every deal
/// with its seed.
fn belote_game(v: Variant, deals: usize, rng_seed: u64) -> Value {
    let mut s = belote::Session::new(v, belote::Options::default_for(v), 0);
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    let mut seeds = Vec::new();
    while seeds.len() < deals && !s.is_over() {
        let seed = Seed(rng.random());
        s.start_deal(seed, cut_from_seed(&seed)).unwrap();
        seeds.push(seed);
        while let Some(seat) = s.current().unwrap().to_act() {
            let d = s.current().unwrap();
            let legal = d.legal_actions();
            // Mostly passes in the auction: low contracts, and now and then a redeal.
            let pass = Action::Bid(Bid::Pass);
            let a = if d.phase() == Phase::Bidding && legal.contains(&pass) && rng.random_range(0..3) != 0 {
                pass
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            s.play(seat, a).unwrap();
        }
    }
    let names: Vec<String> = NAMES[..v.seats()].iter().map(|n| n.to_string()).collect();
    let mut rec = serde_json::to_value(to_envelope(&s, &names)).unwrap();
    for (d, seed) in rec["deals"].as_array_mut().unwrap().iter_mut().zip(&seeds) {
        d["seed"] = json!(seed.to_string());
    }
    rec
}

/// A Polt to Tzar session of `hands` hands dealt as the host deals: the first hand's seed also
/// draws the first ranks; every deal carries its seed.
fn polt_session(seats: usize, hands: u32, rng_seed: u64) -> Value {
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    let seeds: Vec<Seed> = (0..hands).map(|_| Seed(rng.random())).collect();
    let mut s = polt::Session::from_seed(polt::Options::default(), seats, hands, seeds[0]).unwrap();
    for &seed in &seeds {
        s.start_hand(seed).unwrap();
        while let Some(d) = s.current() {
            let seat = d.to_act().unwrap();
            let legal = d.legal_actions();
            let a = legal[rng.random_range(0..legal.len())];
            s.apply(seat, a).unwrap();
        }
    }
    let names: Vec<String> = NAMES[..seats].iter().map(|n| n.to_string()).collect();
    let mut rec = serde_json::to_value(polt::record::session_record(&s, &names)).unwrap();
    for (d, seed) in rec["deals"].as_array_mut().unwrap().iter_mut().zip(&seeds) {
        d["seed"] = json!(seed.to_string());
    }
    rec
}

/// The seed with its last byte changed: a different shuffle, the same Coinche cut.
fn reshuffled(seed: Seed) -> Seed {
    let mut s = seed;
    s.0[31] ^= 1;
    s
}

/// The seed with its first byte changed: a different Coinche cut (3 + byte mod 27).
fn recut(seed: Seed) -> Seed {
    let mut s = seed;
    s.0[0] = s.0[0].wrapping_add(1);
    assert_ne!(cut_from_seed(&s), cut_from_seed(&seed));
    s
}

fn bazar() -> Value {
    belote_game(Variant::Bazar, 2, 1)
}

/// Four Coinche deals: played, redealt, redealt, played (so the deck is gathered both from
/// tricks and from hands).
fn coinche() -> Value {
    belote_game(Variant::Coinche, 4, 27)
}

fn polt5() -> Value {
    polt_session(5, 3, 5)
}

#[test]
fn host_dealt_belote_records_replay_with_their_seeds() {
    for (v, rec) in [
        (Variant::Bazar, bazar()),
        (Variant::Classic, belote_game(Variant::Classic, 2, 2)),
        (Variant::HeadToHead, belote_game(Variant::HeadToHead, 2, 4)),
        (Variant::Coinche, coinche()),
    ] {
        let deals = rec["deals"].as_array().unwrap();
        assert!(deals.len() >= 2, "{v}");
        assert!(deals.iter().all(|d| d["seed"].is_string()), "{v}");
        let out = run(&rec).unwrap_or_else(|e| panic!("{v}: {e}"));
        // The seeds are checked, not scored: the same record without them replays the same.
        assert_eq!(out, run(&without_seeds(&rec)).unwrap(), "{v}");
    }
}

#[test]
fn a_wrong_seed_is_refused_at_its_deal() {
    for (v, rec) in [
        (Variant::Bazar, bazar()),
        (Variant::Classic, belote_game(Variant::Classic, 2, 2)),
        (Variant::HeadToHead, belote_game(Variant::HeadToHead, 2, 4)),
        (Variant::Coinche, coinche()),
    ] {
        for deal in 0..rec["deals"].as_array().unwrap().len() {
            let seed = seed_of(&rec, deal);
            // Coinche shuffles only the first deal; from then on the seed decides the cut.
            let wrong = if v == Variant::Coinche && deal > 0 {
                recut(seed)
            } else {
                reshuffled(seed)
            };
            let e = err(&with_seed(&rec, deal, wrong));
            assert_eq!(
                (e.deal, e.action, e.reason.as_str()),
                (deal + 1, 0, WRONG_SEED),
                "{v}: {e}"
            );
        }
    }
}

#[test]
fn a_later_coinche_deal_takes_only_its_cut_from_the_seed() {
    let rec = coinche();
    // A later deal's hands are the gathered cards of the deal before, cut: a seed with the
    // same first byte makes the same cut, so it deals the same hands (docs/rules-decisions.md).
    let same_cut = with_seed(&rec, 1, reshuffled(seed_of(&rec, 1)));
    assert_eq!(run(&same_cut).unwrap(), run(&rec).unwrap());
    // The deals that follow are checked against the cards gathered from the deal before,
    // redeals included.
    let deals = rec["deals"].as_array().unwrap();
    // A redeal is four passes; a played deal has 32 cards besides its bids.
    let redeal = |d: &Value| d["actions"].as_array().unwrap().len() == 4;
    let kinds: Vec<bool> = deals.iter().map(redeal).collect();
    assert_eq!(kinds, [false, true, true, false]);
    for deal in 1..deals.len() {
        let e = err(&with_seed(&rec, deal, recut(seed_of(&rec, deal))));
        assert_eq!(
            (e.deal, e.action, e.reason.as_str()),
            (deal + 1, 0, WRONG_SEED),
            "{e}"
        );
    }
}

#[test]
fn changed_cards_are_refused_when_the_deal_has_a_seed() {
    // Bazar: two cards swapped between seats 0 and 1.
    let rec = bazar();
    let mut swapped = rec.clone();
    let a = swapped["deals"][0]["hands"][0][0].take();
    let b = std::mem::replace(&mut swapped["deals"][0]["hands"][1][0], a);
    swapped["deals"][0]["hands"][0][0] = b;
    let e = err(&swapped);
    assert_eq!((e.deal, e.action, e.reason.as_str()), (1, 0, WRONG_SEED), "{e}");
    // Without the seed the same hands are a valid deal: the first fault, if any, is a move.
    if let Err(e) = run(&without_seeds(&swapped)) {
        assert_ne!(e.action, 0, "{e}");
    }

    // French classic: the stock dealt in another order, the hands untouched.
    let rec = belote_game(Variant::Classic, 2, 2);
    let mut stock = rec.clone();
    stock["deals"][0]["stock"].as_array_mut().unwrap().swap(0, 1);
    let e = err(&stock);
    assert_eq!((e.deal, e.action, e.reason.as_str()), (1, 0, WRONG_SEED), "{e}");

    // Coinche: a second deal whose hands are another cut of the gathered cards, not the one
    // its seed makes. Without the seed it is an honest cut and replays.
    let rec = coinche();
    let cut = cut_from_seed(&seed_of(&rec, 1));
    let other = if cut == 3 { 4 } else { cut - 1 };
    let mut recut_hands = rec.clone();
    let mut deals = belote::Session::new(
        Variant::Coinche,
        belote::Options::default_for(Variant::Coinche),
        0,
    );
    // Re-deal deal 2 with the other cut from the same gathered cards.
    let first = &rec["deals"][0];
    let first_seed = seed_of(&rec, 0);
    deals.start_deal(first_seed, cut_from_seed(&first_seed)).unwrap();
    for a in first["actions"].as_array().unwrap() {
        let ar: belote::record::ActionRecord = serde_json::from_value(a.clone()).unwrap();
        deals.play(ar.seat, ar.action(Variant::Coinche).unwrap()).unwrap();
    }
    let d = deals.start_deal(seed_of(&rec, 1), other).unwrap();
    recut_hands["deals"][1]["hands"] = d
        .dealt()
        .iter()
        .map(|h| h.iter().map(|c| c.to_string()).collect::<Vec<_>>())
        .collect();
    // The recorded moves do not fit the other hands: deal 2 is left at its start.
    recut_hands["deals"][1]["actions"] = json!([]);
    recut_hands["deals"].as_array_mut().unwrap().truncate(2);
    let e = err(&recut_hands);
    assert_eq!((e.deal, e.action, e.reason.as_str()), (2, 0, WRONG_SEED), "{e}");
    assert!(run(&without_seeds(&recut_hands)).is_ok());
}

#[test]
fn a_malformed_seed_is_a_format_error() {
    for rec in [bazar(), coinche(), polt5()] {
        for bad in [
            json!("xyz"),
            json!(12345),
            json!("0".repeat(63)),
            json!("g".repeat(64)),
        ] {
            let mut r = rec.clone();
            r["deals"][1]["seed"] = bad.clone();
            let e = err(&r);
            assert_eq!(
                (e.deal, e.action, e.reason.as_str()),
                (2, 0, BAD_FORMAT),
                "{bad}: {e}"
            );
        }
    }
}

#[test]
fn host_dealt_polt_sessions_replay_with_their_seeds() {
    for (seats, hands, rng) in [(5, 3, 5), (6, 2, 6), (7, 2, 7)] {
        let rec = polt_session(seats, hands, rng);
        assert_eq!(rec["deals"].as_array().unwrap().len(), hands as usize);
        let out = run(&rec).unwrap_or_else(|e| panic!("{seats}: {e}"));
        assert_eq!(out, run(&without_seeds(&rec)).unwrap(), "{seats}");
    }
}

#[test]
fn a_polt_seed_must_draw_the_first_ranks_and_deal_every_hand() {
    let rec = polt5();
    // The first seed draws the ranks (stream 1) before it deals: another seed draws others.
    let wrong = reshuffled(seed_of(&rec, 0));
    let ranks: Vec<stikis_core::Seat> = serde_json::from_value(rec["deals"][0]["ranks"].clone()).unwrap();
    assert_ne!(ranks_from_seed(5, wrong)[..], ranks[..]);
    let e = err(&with_seed(&rec, 0, wrong));
    assert_eq!((e.deal, e.action, e.reason.as_str()), (1, 0, WRONG_RANKS), "{e}");
    // A seed that draws the same ranks but deals other hands.
    let same_ranks = (0..)
        .map(Seed::from_u64)
        .find(|&s| ranks_from_seed(5, s)[..] == ranks[..])
        .unwrap();
    let e = err(&with_seed(&rec, 0, same_ranks));
    assert_eq!((e.deal, e.action, e.reason.as_str()), (1, 0, WRONG_SEED), "{e}");
    // Later hands: their ranks come from the hand before, the seed deals the cards.
    for deal in 1..3 {
        let e = err(&with_seed(&rec, deal, reshuffled(seed_of(&rec, deal))));
        assert_eq!(
            (e.deal, e.action, e.reason.as_str()),
            (deal + 1, 0, WRONG_SEED),
            "{e}"
        );
    }
    // A card swapped between two seats of hand 2.
    let mut swapped = rec.clone();
    let a = swapped["deals"][1]["hands"][0][0].take();
    let b = std::mem::replace(&mut swapped["deals"][1]["hands"][3][0], a);
    swapped["deals"][1]["hands"][0][0] = b;
    let e = err(&swapped);
    assert_eq!((e.deal, e.action, e.reason.as_str()), (2, 0, WRONG_SEED), "{e}");
}

fn golden(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(game)
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap()
}

/// Pins `rec` as `<name>.json` with its replay output (`out_ext`) or error line (`err_ext`);
/// rewrites the files under `STIKIS_BLESS`.
fn pin(game: &str, name: &str, rec: &Value, out_ext: &str, err_ext: &str) {
    let dir = golden(game);
    let path = dir.join(format!("{name}.json"));
    let result = run(rec);
    if std::env::var_os("STIKIS_BLESS").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(rec).unwrap() + "\n").unwrap();
        match &result {
            Ok(out) => std::fs::write(
                dir.join(format!("{name}{out_ext}")),
                serde_json::to_string_pretty(out).unwrap() + "\n",
            ),
            Err(e) => std::fs::write(dir.join(format!("{name}{err_ext}")), format!("{e}\n")),
        }
        .unwrap();
    }
    assert_eq!(
        read_json(&path),
        *rec,
        "{game}/{name}: the seeds now deal or play differently"
    );
    match result {
        Ok(out) => assert_eq!(
            read_json(&dir.join(format!("{name}{out_ext}"))),
            out,
            "{game}/{name}"
        ),
        Err(e) => assert_eq!(
            std::fs::read_to_string(dir.join(format!("{name}{err_ext}"))).unwrap(),
            format!("{e}\n"),
            "{game}/{name}"
        ),
    }
}

#[test]
fn host_dealt_golden_records_are_stable() {
    let b = |game: &str, name: &str, rec: &Value| pin(game, name, rec, ".expected.json", ".stderr");
    let rec = bazar();
    b("belote-bazar", "host_dealt", &rec);
    b(
        "belote-bazar",
        "error_host_dealt_wrong_seed",
        &with_seed(&rec, 1, reshuffled(seed_of(&rec, 1))),
    );
    let mut malformed = rec.clone();
    malformed["deals"][0]["seed"] = json!("not a seed");
    b("belote-bazar", "error_host_dealt_malformed_seed", &malformed);
    b(
        "belote-classic",
        "host_dealt",
        &belote_game(Variant::Classic, 2, 2),
    );
    b(
        "belote-h2h",
        "host_dealt",
        &belote_game(Variant::HeadToHead, 2, 4),
    );
    let rec = coinche();
    b("coinche", "host_dealt", &rec);
    b(
        "coinche",
        "error_host_dealt_wrong_cut",
        &with_seed(&rec, 2, recut(seed_of(&rec, 2))),
    );

    let p = |name: &str, rec: &Value| pin("polt", name, rec, ".out.json", ".err");
    let rec = polt5();
    p("host_dealt", &rec);
    p(
        "host_dealt_wrong_ranks",
        &with_seed(&rec, 0, reshuffled(seed_of(&rec, 0))),
    );
    p(
        "host_dealt_wrong_hands",
        &with_seed(&rec, 1, reshuffled(seed_of(&rec, 1))),
    );
}
