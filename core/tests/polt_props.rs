//! Polt to Tzar property tests over seeded random sessions: every card dealt once and kept,
//! tricks per hand equal the hand size, `legal_actions` agrees with `apply`, ranks follow
//! `next_ranks`, records replay to the session's results, and a corrupted record names the
//! deal and action that broke. Each failure prints its seed.

mod polt_util;

use polt_util::random_session;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use stikis_core::cards::PACK_WITH_JOKER;
use stikis_core::games::polt::record::{action_to_json, session_record};
use stikis_core::games::polt::{hand_size, next_ranks, Action, Deal, Error, Options, Session};
use stikis_core::{Card, CardSet, Seat, Suit};

fn iterations() -> u64 {
    if cfg!(debug_assertions) {
        60
    } else {
        1500
    }
}

/// Runs `body` for each seed, naming the seed when it fails.
fn for_seeds(name: &str, body: impl Fn(u64) + std::panic::RefUnwindSafe) {
    for seed in 0..iterations() {
        if std::panic::catch_unwind(|| body(seed)).is_err() {
            panic!("{name} failed with seed {seed}");
        }
    }
}

fn every_action() -> Vec<Action> {
    let mut all = Vec::new();
    for i in 0..Card::COUNT as u8 {
        let c = Card::from_index(i).unwrap();
        all.extend([Action::Give(c), Action::Return(c), Action::Play(c)]);
    }
    all.extend(Suit::ALL.map(Action::Trump));
    all
}

fn table(seed: u64) -> (Options, usize, u32) {
    let options = Options {
        bowers: seed % 2 == 1,
        ..Options::default()
    };
    (options, 5 + (seed % 3) as usize, 1 + (seed % 3) as u32)
}

fn played_cards(d: &Deal) -> CardSet {
    d.tricks()
        .iter()
        .flat_map(|t| t.cards.iter())
        .chain(d.current_trick())
        .map(|&(_, c)| c)
        .collect()
}

fn check_state(s: &Session, all: &[Action]) {
    let d = s.current().unwrap();
    let n = d.seat_count();
    let seat = d.to_act().unwrap();
    let legal = d.legal_actions();
    assert!(!legal.is_empty());
    for &a in all {
        assert_eq!(
            d.check(seat, a).is_ok(),
            legal.contains(&a),
            "legal_actions and apply disagree on {a}"
        );
    }
    let other = ((seat as usize + 1) % n) as Seat;
    assert!(matches!(d.check(other, legal[0]), Err(Error::NotYourTurn { .. })));
    // Cards are only moved: held plus played is what was dealt, and no card is in two places.
    let mut seen = played_cards(d);
    for p in 0..n as Seat {
        assert!((seen & d.hand(p)).is_empty(), "a card is in two places");
        seen |= d.hand(p);
    }
    let dealt = (0..n as Seat).fold(CardSet::EMPTY, |a, p| a | d.dealt(p));
    assert_eq!(seen, dealt);
}

#[test]
fn random_sessions_keep_every_invariant() {
    let all = every_action();
    for_seeds("random_sessions_keep_every_invariant", |seed| {
        let (options, n, hands) = table(seed);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let s = random_session(options, n, hands, &mut rng, |s| check_state(s, &all));
        let size = hand_size(n).unwrap();
        assert_eq!(s.finished().len(), hands as usize);
        let mut totals = vec![0u32; n];
        for (i, d) in s.finished().iter().enumerate() {
            // Every card dealt once; the rest of the 53 unused.
            let mut dealt = CardSet::EMPTY;
            for p in 0..n as Seat {
                assert_eq!(d.dealt(p).len() as usize, size);
                assert!((dealt & d.dealt(p)).is_empty());
                dealt |= d.dealt(p);
            }
            assert_eq!(dealt | d.unused(), PACK_WITH_JOKER);
            assert_eq!(d.unused().len() as usize, 53 - n * size);
            // Tricks per hand equal the hand size; each trick has a card from every seat.
            assert_eq!(d.tricks().len(), size);
            assert_eq!(d.won().iter().map(|&w| w as usize).sum::<usize>(), size);
            for t in d.tricks() {
                assert_eq!(t.cards.len(), n);
            }
            assert_eq!(played_cards(d), dealt);
            let r = &s.results()[i];
            assert_eq!(r.tricks, d.won());
            assert_eq!(r.ranks_after, next_ranks(&r.ranks_before, &r.tricks));
            if let Some(next) = s.results().get(i + 1) {
                assert_eq!(next.ranks_before, r.ranks_after);
            }
            for (t, &w) in totals.iter_mut().zip(d.won()) {
                *t += w as u32;
            }
        }
        let st = s.standing();
        assert_eq!(st.tricks, totals);
        assert_eq!(st.hands_as_tzar.iter().sum::<u32>(), hands);
        assert_eq!(
            st.ranks.as_slice(),
            s.results().last().unwrap().ranks_after.as_slice()
        );
    });
}

fn players(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{i}")).collect()
}

fn expected_output(s: &Session) -> Value {
    let deals: Vec<Value> = s
        .results()
        .iter()
        .map(|r| json!({"tricks": r.tricks, "ranks": r.ranks_after.to_vec()}))
        .collect();
    json!({ "deals": deals })
}

#[test]
fn replay_reproduces_the_session() {
    for_seeds("replay_reproduces_the_session", |seed| {
        let (options, n, hands) = table(seed);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let s = random_session(options, n, hands, &mut rng, |_| {});
        let record = serde_json::to_vec(&session_record(&s, &players(n))).unwrap();
        let out = stikis_core::record::replay(&record).unwrap();
        assert_eq!(out, expected_output(&s));
    });
}

#[test]
fn replay_of_a_record_cut_mid_deal_shows_it_incomplete() {
    for_seeds("replay_of_a_record_cut_mid_deal", |seed| {
        let (options, n, hands) = table(seed);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let s = random_session(options, n, hands, &mut rng, |_| {});
        let mut env = session_record(&s, &players(n));
        let last = env.deals.last_mut().unwrap();
        let actions = last["actions"].as_array_mut().unwrap();
        let keep = rng.random_range(0..actions.len());
        actions.truncate(keep);
        // The same prefix applied to the deal directly.
        let d0 = s.finished().last().unwrap();
        let hands_dealt: Vec<CardSet> = (0..n as Seat).map(|p| d0.dealt(p)).collect();
        let mut d = Deal::new(options, d0.ranks(), &hands_dealt).unwrap();
        for &(seat, a) in &d0.log()[..keep] {
            d.apply(seat, a).unwrap();
        }
        let out = stikis_core::record::replay(&serde_json::to_vec(&env).unwrap()).unwrap();
        let mut expected = expected_output(&s);
        let deals = expected["deals"].as_array_mut().unwrap();
        *deals.last_mut().unwrap() = json!({"tricks": d.won(), "complete": false});
        assert_eq!(out, expected);
    });
}

#[test]
fn a_corrupted_action_is_reported_with_its_deal_and_action_number() {
    let all = every_action();
    for_seeds("a_corrupted_action_is_reported", |seed| {
        let (options, n, hands) = table(seed);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let s = random_session(options, n, hands, &mut rng, |_| {});
        let mut env = session_record(&s, &players(n));
        let di = rng.random_range(0..s.finished().len());
        let d0 = &s.finished()[di];
        let ai = rng.random_range(0..d0.log().len());
        let hands_dealt: Vec<CardSet> = (0..n as Seat).map(|p| d0.dealt(p)).collect();
        let mut d = Deal::new(options, d0.ranks(), &hands_dealt).unwrap();
        for &(seat, a) in &d0.log()[..ai] {
            d.apply(seat, a).unwrap();
        }
        let seat = d.to_act().unwrap();
        let bad: Vec<Action> = all
            .iter()
            .copied()
            .filter(|&a| d.check(seat, a).is_err())
            .collect();
        let &a = bad.choose(&mut rng).unwrap();
        let reason = d.check(seat, a).unwrap_err().to_string();
        env.deals[di]["actions"][ai] = action_to_json(seat, a);
        let err = stikis_core::record::replay(&serde_json::to_vec(&env).unwrap()).unwrap_err();
        assert_eq!((err.deal, err.action), (di + 1, ai + 1), "{err}");
        assert_eq!(err.reason, reason);
    });
}
