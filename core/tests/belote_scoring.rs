//! The scoring formulas of RULES.md 2.2 to 2.6, row by row, on chosen card points and
//! combinations; the combination comparison; session targets and dealer rotation.

use stikis_core::cards::{card, cards, CardSet, Rank};
use stikis_core::games::belote::combos::{self, Combo, Declared};
use stikis_core::games::belote::{bazar, classic, coinche, Contract, Mode, Rounding, Variant};
use stikis_core::Suit;

fn contract(tens: u8, declarer: u8, doubled: u8, capot: bool) -> Contract {
    Contract {
        mode: Mode::Trump(Suit::Hearts),
        tens,
        capot,
        declarer,
        doubled,
    }
}

fn declared(combos: [u32; 2], belote: [u32; 2]) -> Declared {
    Declared {
        scoring_team: None,
        combos,
        belote,
    }
}

const HD: Rounding = Rounding::HalfDown;

fn bz(c: Contract, points: [u32; 2], capot: Option<u8>, d: Declared) -> [i32; 2] {
    bazar::score(&c, Variant::Bazar, points, capot, &d, HD)
}

#[test]
fn bazar_made_scores_bid_plus_total_and_defenders_their_own() {
    // Team 0 bids 9, takes 96 + a tierce 20 = 116 -> 12; defenders 66 + belote 20 = 86 -> 9.
    let d = declared([20, 0], [0, 20]);
    assert_eq!(bz(contract(9, 0, 0, false), [96, 66], None, d), [21, 9]);
}

#[test]
fn bazar_rounding_five_down_six_up_each_team_on_its_own() {
    // 85 -> 8 (made at 8); 77 -> 8.
    assert_eq!(
        bz(contract(8, 0, 0, false), [85, 77], None, Declared::default()),
        [16, 8]
    );
    // 86 -> 9; 76 -> 8.
    assert_eq!(
        bz(contract(9, 0, 0, false), [86, 76], None, Declared::default()),
        [18, 8]
    );
    // 85 does not make 9: failed, defenders 9 + 16.
    assert_eq!(
        bz(contract(9, 0, 0, false), [85, 77], None, Declared::default()),
        [0, 25]
    );
    // Rounding half up makes 85 a 9.
    let up = bazar::score(
        &contract(9, 0, 0, false),
        Variant::Bazar,
        [85, 77],
        None,
        &Declared::default(),
        Rounding::HalfUp,
    );
    assert_eq!(up, [18, 8]);
}

#[test]
fn bazar_failed_gives_defenders_bid_plus_16_plus_all_combinations() {
    // Team 1 bids 12 and totals 42 + 50 + belote 20 = 112 -> 11: failed. Its fifty and its
    // belote go into z, to the defenders.
    let d = declared([0, 50], [0, 20]);
    assert_eq!(
        bz(contract(12, 1, 0, false), [120, 42], None, d),
        [12 + 16 + 7, 0]
    );
}

#[test]
fn bazar_contra_and_recontra() {
    let d = declared([20, 0], [0, 0]);
    // Contra, made: bidders 2x + 16 + z.
    assert_eq!(bz(contract(9, 0, 1, false), [100, 62], None, d), [18 + 16 + 2, 0]);
    // Contra, failed: the doublers.
    assert_eq!(
        bz(contract(13, 0, 1, false), [100, 62], None, d),
        [0, 26 + 16 + 2]
    );
    // Recontra: 4x.
    assert_eq!(bz(contract(9, 0, 2, false), [100, 62], None, d), [36 + 16 + 2, 0]);
    assert_eq!(
        bz(contract(13, 0, 2, false), [100, 62], None, d),
        [0, 52 + 16 + 2]
    );
}

#[test]
fn bazar_capot() {
    // Capot bid made: x + y with y = 250 + combinations.
    let d = declared([100, 0], [20, 0]);
    assert_eq!(bz(contract(30, 0, 0, true), [250, 0], Some(0), d), [30 + 37, 0]);
    // Enough points but not every trick: a capot bid fails, D = 16.
    assert_eq!(
        bz(contract(26, 0, 0, true), [152, 10], None, d),
        [0, 26 + 16 + 12]
    );
    // Capot taken without a capot bid, contra lost by the doublers: D = 25.
    assert_eq!(
        bz(contract(10, 0, 1, false), [250, 0], Some(0), d),
        [20 + 25 + 12, 0]
    );
    // The defenders took every trick: D = 25.
    let d = declared([0, 0], [0, 20]);
    assert_eq!(
        bz(contract(10, 0, 0, false), [0, 250], Some(1), d),
        [0, 10 + 25 + 2]
    );
    // Combinations count towards y: a bid can be made without a trick.
    let d = declared([120, 0], [0, 0]);
    assert_eq!(bz(contract(10, 0, 0, false), [0, 250], Some(1), d), [10 + 12, 25]);
}

#[test]
fn coinche_is_the_bazar_formula_in_points() {
    let c = |tens, doubled, capot| contract(tens, 0, doubled, capot);
    let none = Declared::default();
    assert_eq!(coinche::score(&c(8, 0, false), [92, 70], None, &none), [172, 70]);
    assert_eq!(coinche::score(&c(10, 0, false), [92, 70], None, &none), [0, 262]);
    assert_eq!(coinche::score(&c(8, 1, false), [92, 70], None, &none), [322, 0]);
    assert_eq!(coinche::score(&c(10, 2, false), [92, 70], None, &none), [0, 562]);
    // Capot bid (x = 250), made: 250 + 250 + belote, the defenders their own total (their
    // scored tierce); failed: 250 + 162 + z.
    let d = declared([0, 20], [20, 0]);
    assert_eq!(coinche::score(&c(25, 0, true), [250, 0], Some(0), &d), [520, 20]);
    assert_eq!(
        coinche::score(&c(25, 0, true), [160, 2], None, &d),
        [0, 250 + 162 + 40]
    );
}

#[test]
fn classic_takers_must_score_more_and_keep_their_belote_when_failing() {
    let c = contract(0, 1, 0, false);
    let cl = |p, capot, d: Declared| classic::score(&c, Variant::Classic, p, capot, &d, HD);
    assert_eq!(cl([70, 92], None, declared([0, 20], [0, 0])), [70, 112]);
    // Equal totals fail: 81 + 0 against 81.
    assert_eq!(cl([81, 81], None, Declared::default()), [162, 0]);
    // Failed: the others score 162 + every scored combination + their own belote; the takers
    // only their belote.
    assert_eq!(
        cl([100, 62], None, declared([50, 0], [20, 20])),
        [162 + 50 + 20, 20]
    );
    // Capot by the others: 250.
    assert_eq!(cl([250, 0], Some(0), declared([0, 0], [0, 20])), [250, 20]);
    // Capot by the takers: 250 + combinations.
    assert_eq!(cl([0, 250], Some(1), declared([0, 100], [0, 20])), [0, 370]);
}

#[test]
fn h2h_compares_points_then_rounds_each_player_to_tens() {
    let c = contract(0, 0, 0, false);
    let h = |p, capot, d: Declared| classic::score(&c, Variant::HeadToHead, p, capot, &d, HD);
    // 85 against 77: made; 85 -> 8, 77 -> 8.
    assert_eq!(h([85, 77], None, Declared::default()), [8, 8]);
    assert_eq!(h([86, 76], None, Declared::default()), [9, 8]);
    // Failed: 16 + combinations + own belote; the taker his belote.
    assert_eq!(h([70, 92], None, declared([0, 50], [20, 0])), [2, 16 + 5]);
    assert_eq!(h([0, 250], Some(1), Declared::default()), [0, 25]);
}

#[test]
fn sequences_compare_by_kind_then_top_card_then_trump_then_play_order() {
    let mode = Mode::Trump(Suit::Hearts);
    let team = |s: u8| s % 2;
    let hands = [
        cards("8S 9S 10S AC KD 7C 8D 9C"),
        cards("9D 10D JD 7S QC JC 7H 8H"),
        cards("AD 10H KH 9H QS KS JS 10C"),
        cards("QD QH JH AH AS KC 7D 8C"),
    ];
    let found: Vec<_> = hands.iter().map(|&h| combos::find(h)).collect();
    // Seat 0: tierce to 10S; seat 1: tierce to JD; seat 2: tierce to KS... and 9H 10H? no;
    // seat 3: tierce to AH? QH JH AH is not a run (K missing) -> none.
    let d = combos::compare(&found, &hands, &[0, 1, 2, 3], team, mode);
    // Seat 2's tierce QS KS JS (top K) beats seat 1's (top J): team 0 scores its two tierces.
    assert_eq!(d.scoring_team, Some(0));
    assert_eq!(d.combos, [40, 0]);
    assert_eq!(d.belote, [0, 0]);
}

#[test]
fn equal_sequences_go_to_trumps_then_to_the_first_announced() {
    let team = |s: u8| s % 2;
    let h0 = cards("8S 9S 10S");
    let h1 = cards("8H 9H 10H");
    let found = vec![combos::find(h0), combos::find(h1)];
    let hands = [h0, h1];
    let hearts = combos::compare(&found, &hands, &[0, 1], team, Mode::Trump(Suit::Hearts));
    assert_eq!(hearts.scoring_team, Some(1), "the tierce in trumps wins the tie");
    let nt = combos::compare(&found, &hands, &[1, 0], team, Mode::NoTrump);
    assert_eq!(nt.scoring_team, Some(1), "seat 1 announced first");
    let nt = combos::compare(&found, &hands, &[0, 1], team, Mode::NoTrump);
    assert_eq!(nt.scoring_team, Some(0));
}

#[test]
fn four_eights_beat_everything_and_score_nothing() {
    let team = |s: u8| s % 2;
    let h0 = cards("8C 8D 8H 8S 7C 7D");
    let h1 = cards("JC JD JH JS 9H 10H QH KH");
    let found = vec![combos::find(h0), combos::find(h1)];
    assert_eq!(
        found[1].as_slice(),
        &[Combo::Four(Rank::Jack),],
        "four jacks take JH, leaving no run"
    );
    let d = combos::compare(&found, &[h0, h1], &[1, 0], team, Mode::Trump(Suit::Hearts));
    assert_eq!(d.scoring_team, Some(0));
    assert_eq!(d.combos, [0, 0]);
    assert_eq!(d.belote, [0, 20], "belote scores whatever the comparison");
}

#[test]
fn four_values_by_mode() {
    let p = |r, m| Combo::Four(r).points(m);
    let t = Mode::Trump(Suit::Clubs);
    assert_eq!(p(Rank::Jack, t), 200);
    assert_eq!(p(Rank::Nine, t), 140);
    assert_eq!(p(Rank::Nine, Mode::NoTrump), 100);
    assert_eq!(p(Rank::Ace, Mode::NoTrump), 190);
    assert_eq!(p(Rank::Ace, Mode::AllTrumps), 100);
    assert_eq!(p(Rank::Nine, Mode::AllTrumps), 140);
    assert_eq!(p(Rank::Ten, t), 100);
    assert_eq!(p(Rank::King, t), 100);
    assert_eq!(p(Rank::Queen, t), 100);
    assert_eq!(p(Rank::Eight, t), 0);
    let seq = |len| Combo::Sequence { len, top: card("AS") }.points(t);
    assert_eq!((seq(3), seq(4), seq(5), seq(8)), (20, 50, 100, 100));
}

#[test]
fn fours_rank_8_j_9_a_10_k_q() {
    let m = Mode::Trump(Suit::Clubs);
    let order = [
        Rank::Eight,
        Rank::Jack,
        Rank::Nine,
        Rank::Ace,
        Rank::Ten,
        Rank::King,
        Rank::Queen,
    ];
    for w in order.windows(2) {
        assert!(Combo::Four(w[0]).strength(m) > Combo::Four(w[1]).strength(m));
    }
    let hundred = Combo::Sequence {
        len: 5,
        top: card("AS"),
    };
    assert!(Combo::Four(Rank::Queen).strength(m) > hundred.strength(m));
}

#[test]
fn hands_are_sets() {
    // A guard for the tests above: the shorthand hands are what they say.
    let h: CardSet = cards("8S 9S 10S");
    assert_eq!(h.len(), 3);
}
