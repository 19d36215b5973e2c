//! Zole rules by example (RULES.md 1.1-1.11): trick winners and the follow rule, one test per
//! bullet of 1.11 "Precisely", and regression tests for engine bugs found while writing the
//! test suite.

use stikis_core::cards::cards;
use stikis_core::games::zole::*;
use stikis_core::{CardSet, Seat};

/// Plays `actions` ("0 pass", "1 take", "1 bury AH 10H", "0 QC", "2 surrender") on `session`.
fn run(session: &mut Session, actions: &str) -> Option<DealResult> {
    let mut last = None;
    for a in actions.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        let (seat, rest) = a.split_once(' ').unwrap();
        let seat: Seat = seat.parse().unwrap();
        let action: Action = rest.parse().unwrap();
        last = session
            .apply(seat, action)
            .unwrap_or_else(|e| panic!("{a}: {e}"))
            .cloned();
    }
    last
}

fn hands(list: [&str; 3]) -> Vec<CardSet> {
    list.iter().map(|h| cards(h)).collect()
}

/// A 3-player deal (dealer 2, so seat 0 is first hand) where every seat holds a mix.
const H3: [&str; 3] = [
    "QC JC AD 9D AC 10C AS KH",
    "QS JS 10D 8D KC 10S 9S AH",
    "QH JH KD 7D 9C KS 10H 9H",
];
const T3: &str = "QD JD";

fn galdins_deal(opts: Options) -> (Session, DealResult) {
    let mut s = Session::new(opts, 3, 2).unwrap();
    s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap();
    let r = run(&mut s, "0 pass, 1 pass, 2 pass").map(|_| ());
    assert!(r.is_none(), "galdins is played, not redealt");
    // Every seat plays its cards in hand order, following where it must.
    loop {
        let d = *s.current().unwrap();
        let seat = d.to_act().unwrap();
        let a = d.legal_actions().get(0).unwrap();
        if let Some(r) = s.apply(seat, a).unwrap().cloned() {
            return (s, r);
        }
    }
}

#[test]
fn a_galdins_deal_is_scored_as_galdins_and_writes_no_pule() {
    // Regression: the outcome of an all-pass galdiņš kept the kind `pule`, so the replay said
    // "pule" and the session wrote a common pule after every galdiņš.
    let (s, r) = galdins_deal(Options::lv_galdins());
    assert_eq!(r.outcome.kind, Kind::Galdins);
    assert_eq!(r.pules_after, Pules::default());
    assert_eq!(r.deltas.iter().filter(|&&d| d == -4).count(), 1, "{:?}", r.deltas);
    let out = record::output(&s);
    assert_eq!(out["deals"][0]["contract"], "galdins");
}

#[test]
fn rondo_writes_one_common_pule_with_three_players() {
    let (_, r) = galdins_deal(Options::rondo());
    assert_eq!(r.outcome.kind, Kind::Galdins);
    assert_eq!(r.pules_after.common, 1);
}

// ---- helpers ----

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stikis_core::cards::card;
use stikis_core::games::zole::tables::{playable, set_points, trick_winner};
use stikis_core::{Card, Seed};

/// A random legal action other than surrender.
fn random_play(d: &Deal, rng: &mut ChaCha8Rng) -> Action {
    let legal: Vec<Action> = d
        .legal_actions()
        .iter()
        .filter(|&a| a != Action::Surrender)
        .collect();
    legal[rng.random_range(0..legal.len())]
}

/// Plays the current deal of `s` to the end: bids from `bid`, everything else from `act`.
fn finish(
    s: &mut Session,
    rng: &mut ChaCha8Rng,
    bid: &dyn Fn(&Deal, Seat) -> Bid,
    act: &dyn Fn(&Deal, &mut ChaCha8Rng) -> Action,
) -> DealResult {
    loop {
        let d = *s.current().unwrap();
        let seat = d.to_act().unwrap();
        let a = match d.phase() {
            Phase::Bidding => Action::Bid(bid(&d, seat)),
            _ => act(&d, rng),
        };
        if let Some(r) = s.apply(seat, a).unwrap_or_else(|e| panic!("{a}: {e}")) {
            return r.clone();
        }
    }
}

fn all_pass(_: &Deal, _: Seat) -> Bid {
    Bid::Pass
}

/// The first seeded deal (from a fresh `make()` session) whose result satisfies `want`.
fn search(
    make: &dyn Fn() -> Session,
    bid: &dyn Fn(&Deal, Seat) -> Bid,
    act: &dyn Fn(&Deal, &mut ChaCha8Rng) -> Action,
    want: &dyn Fn(&Deal, &DealResult) -> bool,
) -> (Session, DealResult) {
    for seed in 0..100_000u64 {
        let mut s = make();
        s.deal_from_seed(Seed::from_u64(seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r = finish(&mut s, &mut rng, bid, act);
        let d = s.deals().last().unwrap().deal;
        if want(&d, &r) {
            return (s, r);
        }
    }
    panic!("no deal found");
}

fn outcome(kind: Kind, players: usize, declarer: Seat, unit: i32) -> Outcome {
    let mut deltas = [0; 5];
    for (s, x) in deltas.iter_mut().enumerate().take(players) {
        *x = if s == declarer as usize {
            unit * (players as i32 - 1)
        } else {
            -unit
        };
    }
    let all = ((1u16 << players) - 1) as u8;
    let d = 1u8 << declarer;
    let (winners, losers) = if unit > 0 { (d, all & !d) } else { (all & !d, d) };
    Outcome {
        kind,
        players: players as u8,
        declarer: Some(declarer),
        declarer_won: Some(unit > 0),
        surrendered: false,
        card_points: [0; 5],
        tricks: [0; 5],
        deltas,
        winners,
        losers,
    }
}

fn golden_out(case: &str) -> serde_json::Value {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/zole")
        .join(format!("{case}.out.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

// ---- trick winners and the follow rule (RULES.md 1.1, 1.5) ----

#[test]
fn follow_rule_examples_of_the_issue() {
    // Lead AH with {KH, QC}: only KH (the queen is a trump, not a heart).
    assert_eq!(playable(cards("KH QC"), Some(card("AH"))), cards("KH"));
    // Lead JS with {10H, AC, KH, QC, QS, 9H}: only the trumps QC and QS.
    assert_eq!(
        playable(cards("10H AC KH QC QS 9H"), Some(card("JS"))),
        cards("QC QS")
    );
}

fn plays(d: &Deal) -> CardSet {
    d.legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn follow_rule_in_a_deal() {
    // Seat 1 holds KH and only trumps besides: on AH only KH may be played.
    let mut d = Deal::from_hands(
        Options::lv(),
        3,
        2,
        &hands([
            "AH 9H AC 10C KC 9C AS 10S",
            "KH QC QS QH QD JC JS JH",
            "10H KS 9S JD AD 10D KD 9D",
        ]),
        cards("8D 7D"),
    )
    .unwrap();
    for a in ["pass", "pass", "zole"] {
        let seat = d.to_act().unwrap();
        d.apply(seat, a.parse().unwrap()).unwrap();
    }
    d.apply(0, Action::Play(card("AH"))).unwrap();
    assert_eq!(plays(&d), cards("KH"));
    let before = d;
    let e = d.apply(1, Action::Play(card("QC"))).unwrap_err();
    assert_eq!(e.to_string(), "seat 1 must follow hearts (has KH)");
    assert_eq!(d, before);

    // Lead JS: seat 1 with 10H AC KH QC QS 9H 10C KC must play QC or QS.
    let mut d = Deal::from_hands(
        Options::lv(),
        3,
        2,
        &hands([
            "JS JC JH JD AD 10D KD 9D",
            "10H AC KH QC QS 9H 10C KC",
            "AH AS 10S KS 9S 9C QH QD",
        ]),
        cards("8D 7D"),
    )
    .unwrap();
    d.apply(0, Action::Bid(Bid::Zole)).unwrap();
    d.apply(0, Action::Play(card("JS"))).unwrap();
    assert_eq!(plays(&d), cards("QC QS"));
    let e = d.apply(1, Action::Play(card("KH"))).unwrap_err();
    assert_eq!(e.to_string(), "seat 1 must follow trumps (has QC)");
    // Seat 2 has the trumps QH QD.
    d.apply(1, Action::Play(card("QS"))).unwrap();
    assert_eq!(plays(&d), cards("QH QD"));
    d.apply(2, Action::Play(card("QD"))).unwrap();
    // QS beats JS and QD: seat 1 leads the next trick; with no trump led anything goes.
    assert_eq!(d.to_act(), Some(1));
    assert_eq!(d.tricks(), &[0, 1, 0]);
    d.apply(1, Action::Play(card("AC"))).unwrap();
    assert_eq!(plays(&d), cards("9C"), "seat 2 follows with its one club");
    d.apply(2, Action::Play(card("9C"))).unwrap();
    assert_eq!(plays(&d), d.hand(0), "seat 0 has no club: any card");
}

/// Trick power written out from RULES.md 1.1, independently of the engine's tables.
fn power(c: &str, led: &str) -> u32 {
    const TRUMPS: [&str; 14] = [
        "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D", "KD", "9D", "8D", "7D",
    ];
    let is_trump = |c: &str| TRUMPS.contains(&c);
    if let Some(i) = TRUMPS.iter().position(|&t| t == c) {
        return 100 - i as u32;
    }
    let suit = |c: &str| c.chars().last().unwrap();
    if is_trump(led) || suit(c) != suit(led) {
        return 0;
    }
    match &c[..c.len() - 1] {
        "A" => 4,
        "10" => 3,
        "K" => 2,
        _ => 1,
    }
}

#[test]
fn trick_winner_agrees_with_the_rules_on_every_trick() {
    let deck: Vec<Card> = stikis_core::cards::ZOLE_DECK.iter().collect();
    let mut n = 0;
    for &a in &deck {
        for &b in deck.iter().filter(|&&b| b != a) {
            for &c in deck.iter().filter(|&&c| c != a && c != b) {
                let names = [a.to_string(), b.to_string(), c.to_string()];
                let expected = (0..3)
                    .max_by_key(|&i| (power(&names[i], &names[0]), i == 0))
                    .unwrap();
                assert_eq!(trick_winner(&[a, b, c]), expected, "{names:?}");
                n += 1;
            }
        }
    }
    assert_eq!(n, 26 * 25 * 24);
    let w = |s: &str| trick_winner(&s.split(' ').map(card).collect::<Vec<_>>());
    assert_eq!(w("AH KH 7D"), 2, "the lowest trump beats the led ace");
    assert_eq!(w("9H AC AS"), 0, "off-suit aces take nothing");
    assert_eq!(w("JD AD QC"), 2);
    assert_eq!(w("10S AS QH"), 2);
    assert_eq!(w("KC 10C AC"), 2);
    assert_eq!(w("AD JD 10D"), 1, "jacks beat the ace of diamonds");
}

// ---- RULES.md 1.11 "Precisely", one test per bullet ----

/// "Two common pules with 4 or 5 players" applies when no pule of any kind is open;
/// otherwise one.
#[test]
fn precisely_two_common_pules_only_when_nothing_is_open() {
    let pass_round = |s: &mut Session| {
        s.deal_from_seed(Seed::from_u64(1)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        finish(s, &mut rng, &all_pass, &random_play)
    };
    for (players, first) in [(3, 1), (4, 2), (5, 2)] {
        let mut s = Session::new(Options::lv(), players, 0).unwrap();
        let r = pass_round(&mut s);
        assert_eq!(r.outcome.kind, Kind::Pule);
        assert_eq!(r.deltas, vec![0; players]);
        assert_eq!(s.pules.common, first, "{players} players, nothing open");
        pass_round(&mut s);
        assert_eq!(s.pules.common, first + 1, "{players} players, a common pule open");
    }
    // Only a personal pule open: one common pule.
    let mut s = Session::new(Options::lv(), 4, 0).unwrap();
    s.pules.personal = vec![2];
    pass_round(&mut s);
    assert_eq!((s.pules.common, s.pules.personal.clone()), (1, vec![2]));
}

/// Rondo: sitting-out players neither pay nor receive; one common pule (two with 4-5) after
/// every rondo deal whatever is open; tied losers share; a three-way tie pays nothing.
#[test]
fn precisely_rondo() {
    for players in [4, 5] {
        let make = || {
            let mut s = Session::new(Options::rondo(), players, 0).unwrap();
            s.pules.common = 1;
            s.pules.personal = vec![1];
            s
        };
        let (s, r) = search(&make, &all_pass, &random_play, &|_, r| {
            r.outcome.kind == Kind::Galdins
        });
        let d = s.deals()[0].deal;
        for seat in (0..players as Seat).filter(|&x| !d.is_active(x)) {
            assert_eq!(
                r.deltas[seat as usize], 0,
                "{players} players: seat {seat} sits out"
            );
        }
        assert_eq!(r.deltas.iter().filter(|&&x| x != 0).count(), 3, "{:?}", r.deltas);
        assert_eq!(s.pules.common, 3, "two more although pules are open");
        assert_eq!(s.pules.personal, vec![1]);
    }
    // rondo_tied_losers (dealer 0, so seats from the dealer's left are 1, 2, 0): seats 0 and
    // 2 tie on 37 points, seat 1 took 31 (more than 30) and receives 1; 1 / 2 = 0 each, and
    // the odd point falls to seat 2, the earlier of the two from the dealer's left.
    let out = golden_out("rondo/rondo_tied_losers");
    assert_eq!(out["deals"][0]["card_points"], serde_json::json!([37, 31, 37]));
    assert_eq!(out["deals"][0]["deltas"], serde_json::json!([0, 1, -1]));
    let out = golden_out("rondo/rondo_three_tied_nobody_pays");
    assert_eq!(out["deals"][0]["deltas"], serde_json::json!([0, 0, 0]));
    assert_eq!(out["deals"][0]["pules"]["common"], 1);
}

/// Sitting-out players pay the common-pule bonus and tree branches like opponents; a
/// personal pule's payment goes from its owner to the winner only.
#[test]
fn precisely_sitting_out_players_and_pules() {
    // 4 players, dealer 0 sits out, seat 1 wins a take: [-1, 3, -1, -1] before pules.
    let won = outcome(Kind::Take, 4, 1, 1);
    let opts = Options::lv();
    let mut p = Pules {
        common: 1,
        ..Pules::default()
    };
    let mut deltas = won.deltas().to_vec();
    p.apply_deal(&opts, &won, &mut deltas);
    assert_eq!(
        deltas,
        vec![-2, 6, -2, -2],
        "the sitting-out seat 0 pays the bonus too"
    );
    assert_eq!(p.common, 0);

    let mut p = Pules {
        personal: vec![2],
        ..Pules::default()
    };
    let mut deltas = won.deltas().to_vec();
    p.apply_deal(&opts, &won, &mut deltas);
    assert_eq!(deltas, vec![-1, 6, -4, -1], "only the owner (seat 2) pays 3");

    let mut p = Pules {
        tree: 2,
        ..Pules::default()
    };
    let mut deltas = won.deltas().to_vec();
    p.apply_deal(&Options::zolite(), &won, &mut deltas);
    assert_eq!(
        deltas,
        vec![-3, 9, -3, -3],
        "two branches, paid by the sitting-out seat too"
    );
    assert_eq!(p.tree, 0);
    // The same through records: lv/pule_sitting_out_and_personal_4p, last deal.
    let out = golden_out("lv/pule_sitting_out_and_personal_4p");
    assert_eq!(out["deals"][4]["deltas"], serde_json::json!([6, -4, -1, -1]));
}

fn surrender_deal(opts: Options, bid: &str) -> Deal {
    let mut d = Deal::from_hands(opts, 3, 2, &hands(H3), cards(T3)).unwrap();
    assert!(
        d.apply(0, Action::Surrender).is_err(),
        "no surrender in the bidding"
    );
    d.apply(0, bid.parse().unwrap()).unwrap();
    d
}

/// Surrender only in play, by the declarer whoever is to act; basic_loss while the declarer
/// has played fewer than 3 cards;
/// concede_rest at any time, the unplayed cards to the opponents; a surrender is a lost
/// contract for pules and the tree.
#[test]
fn precisely_surrender() {
    let cat = Options::catsatcards();
    // In the bury phase: refused.
    let mut d = surrender_deal(cat, "take");
    let before = d;
    assert!(matches!(
        d.apply(0, Action::Surrender),
        Err(ZoleError::WrongPhase { .. })
    ));
    assert_eq!(d, before);
    d.apply(0, Action::Bury(card("QD"), card("JD"))).unwrap();
    // basic_loss: with 0, 1 and 2 cards played the declarer may surrender, with 3 not.
    let mut played = 0;
    loop {
        let seat = d.to_act().unwrap();
        let legal = d.legal_actions();
        if seat == 0 {
            assert_eq!(
                legal.contains(Action::Surrender),
                played < 3,
                "after {played} cards"
            );
            if played == 3 {
                let e = d.apply(0, Action::Surrender).unwrap_err();
                assert!(matches!(e, ZoleError::SurrenderNotAllowed { .. }), "{e}");
                break;
            }
            played += 1;
        } else {
            assert!(d.apply(seat, Action::Surrender).is_err(), "only the declarer");
            // The declarer may surrender while another seat is to act, inside the window
            // ("at any time"), and it ends the deal as a surrender on his own turn does.
            assert_eq!(d.may_surrender(0), played < 3, "after {played} cards");
            let mut probe = d;
            assert_eq!(
                probe.apply(0, Action::Surrender).is_ok(),
                played < 3,
                "out of turn after {played} cards"
            );
            if played < 3 {
                assert!(probe.surrendered() && probe.to_act().is_none());
            } else {
                assert_eq!(probe, d, "a refused surrender changes nothing");
            }
        }
        let a = legal.iter().find(|&a| a != Action::Surrender).unwrap();
        d.apply(seat, a).unwrap();
    }
    // basic_loss scores the basic loss (take -2, catsatcards zole -5) and writes a personal
    // pule while a pule is open.
    for (bid, unit) in [("take", -2), ("zole", -5)] {
        let mut s = Session::new(cat, 3, 2).unwrap();
        s.pules.common = 1;
        s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap();
        s.apply(0, bid.parse().unwrap()).unwrap();
        if bid == "take" {
            s.apply(0, Action::Bury(card("QD"), card("JD"))).unwrap();
        }
        let r = s.apply(0, Action::Surrender).unwrap().unwrap().clone();
        assert!(r.outcome.surrendered);
        assert_eq!(r.outcome.declarer_won, Some(false));
        assert_eq!(r.deltas, vec![2 * unit, -unit, -unit], "{bid}");
        // A lost take writes a personal pule; a zole touches no pule (pules_on_zole off).
        let pule: Vec<Seat> = if bid == "take" { vec![0] } else { vec![] };
        assert_eq!(s.pules.personal, pule, "{bid}: a lost contract for pules");
    }
    // concede_rest: any time in play; every card outside a completed trick to the opponents.
    let opts = Options {
        surrender: Surrender::ConcedeRest,
        ..Options::lv()
    };
    let mut s = Session::new(opts, 3, 2).unwrap();
    s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap();
    s.apply(0, Action::Bid(Bid::Zole)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..15 {
        let d = *s.current().unwrap();
        let seat = d.to_act().unwrap();
        assert_eq!(d.legal_actions().contains(Action::Surrender), seat == 0);
        s.apply(seat, random_play(&d, &mut rng)).unwrap();
    }
    // Surrender is the declarer's own move, made on his turn (rules decision).
    while s.current().unwrap().to_act() != Some(0) {
        let d = *s.current().unwrap();
        let seat = d.to_act().unwrap();
        assert!(s.apply(0, Action::Surrender).is_err());
        s.apply(seat, random_play(&d, &mut rng)).unwrap();
    }
    let d = *s.current().unwrap();
    let r = s.apply(0, Action::Surrender).unwrap().unwrap().clone();
    let o = r.outcome;
    assert_eq!(o.card_points().iter().map(|&p| p as u32).sum::<u32>(), 120);
    let declarer_tricks_points = d.trick_points()[0];
    assert_eq!(
        o.card_points[0], declarer_tricks_points,
        "the declarer keeps only his tricks"
    );
    assert_eq!(
        o.card_points[1] as u32,
        d.trick_points()[1] as u32 + set_points(d.unplayed()) + set_points(d.talon())
    );
}

/// concede_rest by a declarer who already holds 61: scored normally (a win), but the tree
/// treats the surrender as a lost contract: the declarer pays each opponent per branch.
#[test]
fn precisely_a_concession_is_lost_for_the_tree() {
    let opts = Options {
        surrender: Surrender::ConcedeRest,
        ..Options::zolite()
    };
    let make = || {
        let mut s = Session::new(opts, 3, 2).unwrap();
        s.pules.tree = 1;
        s
    };
    let take_first = |d: &Deal, seat: Seat| {
        if seat == d.active()[0] {
            Bid::Take
        } else {
            Bid::Pass
        }
    };
    let act = |d: &Deal, rng: &mut ChaCha8Rng| {
        let decl = d.declarer().unwrap();
        let mine = d.trick_points()[decl as usize] as u32 + set_points(d.buried());
        if d.phase() == Phase::Play && mine >= 61 && d.legal_actions().contains(Action::Surrender) {
            Action::Surrender
        } else {
            random_play(d, rng)
        }
    };
    let (_, r) = search(&make, &take_first, &act, &|_, r| r.outcome.surrendered);
    let o = r.outcome;
    let d = o.declarer.unwrap() as usize;
    assert!(o.deltas[d] > 0, "scored normally: {:?}", o.deltas());
    assert_eq!(o.declarer_won, Some(false));
    for s in 0..3 {
        let expected = if s == d { o.deltas[s] - 2 } else { o.deltas[s] + 1 };
        assert_eq!(
            r.deltas[s], expected,
            "the tree branch goes to the opponents: {:?}",
            r.deltas
        );
    }
}

/// zolite: a zole scores its top unit only with all 120 points (the talon counts for the
/// opponents), and the 60-60 tie applies to zole too.
#[test]
fn precisely_zolite_zole_bands() {
    let out = golden_out("zolite/zole_all_tricks_talon_has_points");
    let deal = &out["deals"][0];
    let declarer = deal["declarer"].as_u64().unwrap() as usize;
    assert_eq!(deal["tricks"][declarer], 8);
    assert!(deal["card_points"][declarer].as_u64().unwrap() < 120);
    assert_eq!(deal["deltas"][declarer], 10, "5 per opponent, not 6");
    let out = golden_out("zolite/zole_60_tie");
    assert_eq!(out["deals"][0]["contract"], "tie");
    assert_eq!(out["deals"][0]["deltas"], serde_json::json!([0, 0, 0]));
    let out = golden_out("zolite/zole_120");
    let declarer = out["deals"][0]["declarer"].as_u64().unwrap() as usize;
    assert_eq!(out["deals"][0]["deltas"][declarer], 12, "6 per opponent");
}

/// With `galdins_talon = first_trick` the talon's points count for the first trick's winner,
/// also in the galdiņš tie-break and the rondo thresholds.
#[test]
fn precisely_the_galdins_talon_to_the_first_trick() {
    let galdins = Options {
        galdins_talon: GaldinsTalon::FirstTrick,
        ..Options::lv_galdins()
    };
    let make = || Session::new(galdins, 3, 0).unwrap();
    // Two seats tie on the most tricks; without the talon seat A has fewer points than B,
    // with it more: A loses.
    let flips = |d: &Deal, r: &DealResult| {
        let o = &r.outcome;
        let first = d.first_trick_winner().unwrap() as usize;
        let talon = set_points(d.talon()) as u8;
        let most = *o.tricks().iter().max().unwrap();
        let tied: Vec<usize> = (0..3).filter(|&s| o.tricks[s] == most).collect();
        tied.len() == 2
            && tied.contains(&first)
            && tied.iter().all(|&s| {
                s == first || {
                    let other = o.card_points[s];
                    o.card_points[first] > other && o.card_points[first] - talon < other
                }
            })
    };
    let (s, r) = search(&make, &all_pass, &random_play, &flips);
    let first = s.deals()[0].deal.first_trick_winner().unwrap() as usize;
    assert_eq!(r.deltas[first], -4, "{:?}", r.outcome);

    // Rondo: a non-loser over 30 only thanks to the talon receives 1, not 2.
    let rondo = Options {
        galdins_talon: GaldinsTalon::FirstTrick,
        ..Options::rondo()
    };
    let make = || Session::new(rondo, 3, 0).unwrap();
    let over30 = |d: &Deal, r: &DealResult| {
        let o = &r.outcome;
        let first = d.first_trick_winner().unwrap() as usize;
        let talon = set_points(d.talon()) as u8;
        let most = *o.card_points().iter().max().unwrap();
        o.card_points[first] < most && o.card_points[first] > 30 && o.card_points[first] - talon <= 30
    };
    let (s, r) = search(&make, &all_pass, &random_play, &over30);
    let d = s.deals()[0].deal;
    let first = d.first_trick_winner().unwrap() as usize;
    assert_eq!(r.deltas[first], 1);
    let sum: u32 = r.outcome.card_points().iter().map(|&p| p as u32).sum();
    assert_eq!(
        sum, 120,
        "the talon is counted once, for the first trick's winner"
    );
}

/// The small-zole overcall: each player after the caller answers pass or zole; the first
/// zole ends the bidding; take and small zole are not allowed there.
#[test]
fn precisely_the_small_zole_overcall() {
    let deal = |opts| Deal::from_hands(opts, 3, 2, &hands(H3), cards(T3)).unwrap();
    let mut d = deal(Options::rondo());
    d.apply(0, Action::Bid(Bid::SmallZole)).unwrap();
    assert_eq!(d.phase(), Phase::Bidding);
    assert_eq!(
        d.legal_actions().iter().collect::<Vec<_>>(),
        [Action::Bid(Bid::Pass), Action::Bid(Bid::Zole)]
    );
    for bad in [Bid::Take, Bid::SmallZole] {
        let before = d;
        let e = d.apply(1, Action::Bid(bad)).unwrap_err();
        assert!(matches!(e, ZoleError::BidNotAllowed { .. }), "{e}");
        assert_eq!(d, before);
    }
    d.apply(1, Action::Bid(Bid::Zole)).unwrap();
    assert_eq!(
        (d.contract(), d.declarer(), d.phase()),
        (Some(Contract::Zole), Some(1), Phase::Play)
    );
    assert_eq!(
        d.bids().len(),
        2,
        "the first zole ends the bidding: seat 2 does not speak"
    );
    assert_eq!(d.to_act(), Some(0), "the first hand leads");

    let mut d = deal(Options::rondo());
    for (seat, b) in [(0, Bid::SmallZole), (1, Bid::Pass), (2, Bid::Zole)] {
        d.apply(seat, Action::Bid(b)).unwrap();
    }
    assert_eq!((d.contract(), d.declarer()), (Some(Contract::Zole), Some(2)));

    let mut d = deal(Options::rondo());
    for (seat, b) in [(0, Bid::SmallZole), (1, Bid::Pass), (2, Bid::Pass)] {
        d.apply(seat, Action::Bid(b)).unwrap();
    }
    assert_eq!((d.contract(), d.declarer()), (Some(Contract::SmallZole), Some(0)));

    // The third hand's small zole has nobody after it; without the option it ends at once.
    let mut d = deal(Options::rondo());
    for (seat, b) in [(0, Bid::Pass), (1, Bid::Pass), (2, Bid::SmallZole)] {
        d.apply(seat, Action::Bid(b)).unwrap();
    }
    assert_eq!(
        (d.contract(), d.phase()),
        (Some(Contract::SmallZole), Phase::Play)
    );
    let mut d = deal(Options::lv_galdins());
    d.apply(0, Action::Bid(Bid::SmallZole)).unwrap();
    assert_eq!((d.contract(), d.declarer()), (Some(Contract::SmallZole), Some(0)));
    // Where small zole is off it cannot be called at all.
    let mut d = deal(Options::lv());
    assert!(matches!(
        d.apply(0, Action::Bid(Bid::SmallZole)),
        Err(ZoleError::BidNotAllowed { .. })
    ));
}

/// The dealer of each deal is the seat after the previous deal's dealer, also after an
/// all-pass redeal; anything else is refused.
#[test]
fn precisely_the_dealer_rotation() {
    let mut s = Session::new(Options::lv(), 3, 2).unwrap();
    s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap();
    let r = run(&mut s, "0 pass, 1 pass, 2 pass").unwrap();
    assert_eq!(r.outcome.kind, Kind::Pule);
    assert_eq!(s.next_dealer(), 0, "the deal moves on after a redeal too");
    let before = s.clone();
    let e = s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap_err();
    assert_eq!(e.to_string(), "the dealer must be seat 0, not seat 2");
    assert_eq!(s, before);
    let rotated: Vec<CardSet> = vec![CardSet::EMPTY; 0]
        .into_iter()
        .chain([cards(H3[2]), cards(H3[0]), cards(H3[1])])
        .collect();
    s.deal_from_hands(0, &rotated, cards(T3)).unwrap();
    assert_eq!(s.current().unwrap().active(), [1, 2, 0]);
    // deal_from_seed follows the rotation by itself.
    run(&mut s, "1 pass, 2 pass, 0 pass");
    s.deal_from_seed(Seed::from_u64(3)).unwrap();
    assert_eq!(s.current().unwrap().dealer(), 1);
}

#[test]
fn refusals_name_the_action_and_the_finished_deal() {
    // Regression: a surrender in the bidding or bury phase was refused as "cannot play", and
    // an action after the end of a deal as "no deal is in progress".
    let mut d = Deal::from_hands(Options::catsatcards(), 3, 2, &hands(H3), cards(T3)).unwrap();
    let e = d.apply(0, Action::Surrender).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 0 cannot surrender now: the bidding is still on"
    );
    d.apply(0, Action::Bid(Bid::Take)).unwrap();
    let e = d.apply(0, Action::Surrender).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 0 cannot surrender now: the declarer must bury two cards first"
    );
    let e = d.apply(0, Action::Play(card("QC"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 0 cannot play now: the declarer must bury two cards first"
    );

    let mut s = Session::new(Options::lv(), 3, 2).unwrap();
    assert_eq!(
        s.apply(0, Action::Bid(Bid::Pass)).unwrap_err(),
        SessionError::NoDeal
    );
    s.deal_from_hands(2, &hands(H3), cards(T3)).unwrap();
    run(&mut s, "0 pass, 1 pass, 2 pass");
    let e = s.apply(0, Action::Bid(Bid::Pass)).unwrap_err();
    assert_eq!(e.to_string(), "the deal is over");
}
