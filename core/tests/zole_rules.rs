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
        let a = d.legal_actions()[0];
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
