//! Belote computer players: every level only ever chooses legal actions in every variant; the
//! double-dummy solver agrees with plain minimax on small endgames; sampled worlds never
//! contradict what the seat has seen. Seeded loops print their seed on failure.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stikis_core::ai::belote;
use stikis_core::ai::belote::dd::{exhaustive, open_position, Goal, Solver};
use stikis_core::ai::belote::sample::{consistent, sample, Knowledge, World};
use stikis_core::ai::belote::strong::{Strong, StrongPlayer};
use stikis_core::ai::{Level, NoLimit, Player};
use stikis_core::cards::{card, CardSet};
use stikis_core::games::belote::{Action, Bid, Deal, Options, Phase, SeatView, Variant};
use stikis_core::{Game, Seed};

type Maker = dyn Fn(Level, &Options) -> Box<dyn Player<SeatView, Action>>;

fn iterations(debug: usize, release: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

fn variant_for(seed: u64) -> Variant {
    Variant::ALL[seed as usize % 4]
}

/// Options of the variant, with `must_undertrump` on for every other pair of seeds.
fn opts_for(v: Variant, seed: u64) -> Options {
    let mut o = Options::default_for(v);
    o.must_undertrump = (seed / 4) % 2 == 1;
    o
}

/// Plays a whole deal with the given levels per seat (cycled over the variant's seats); panics
/// (with the seed) on any illegal choice. Returns the finished deal.
fn play_with(seed: u64, levels: [Level; 4], make: &Maker) -> Deal {
    let v = variant_for(seed);
    let opts = opts_for(v, seed);
    let mut d = Deal::shuffled(v, opts, (seed % 4) as u8, Seed::from_u64(seed));
    let mut players: Vec<_> = levels.iter().map(|&l| make(l, &opts)).collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    while let Some(s) = d.to_act() {
        let view = d.view(s);
        let a = players[s as usize].choose(&view, &mut rng, &NoLimit);
        assert!(
            view.legal.contains(&a),
            "seed {seed} ({v}): {:?} chose {a}, not among its legal actions",
            levels[s as usize]
        );
        d.apply(s, a)
            .unwrap_or_else(|e| panic!("seed {seed} ({v}): {a} refused: {e}"));
    }
    d
}

#[test]
fn random_and_basic_players_only_choose_legal_actions() {
    let mut played = [0usize; 4];
    for seed in 0..iterations(2000, 20000) as u64 {
        let l = [Level::Random, Level::Basic];
        let levels = [0, 1, 2, 3].map(|s| l[((seed >> (s + 3)) as usize ^ s) & 1]);
        let d = play_with(seed, levels, &|l, o| belote::player(l, o));
        assert_eq!(d.phase(), Phase::Done, "seed {seed}");
        if d.contract().is_some() {
            played[seed as usize % 4] += 1;
        }
    }
    // Every variant saw deals played out, not only redeals.
    assert!(played.iter().all(|&n| n > 100), "{played:?}");
}

#[test]
fn basic_players_bid_and_make_contracts() {
    // Four basic players: most deals get a contract and the declarers make most of them.
    let mut contracts = 0;
    let mut made = 0;
    let n = iterations(400, 4000);
    for seed in 0..n as u64 {
        let d = play_with(seed, [Level::Basic; 4], &|l, o| belote::player(l, o));
        let r = d.result().expect("finished");
        if let Some(c) = r.contract {
            contracts += 1;
            let t = d.variant().team(c.declarer) as usize;
            if r.deltas[t] > 0 {
                made += 1;
            }
        }
    }
    assert!(contracts * 2 > n, "{contracts} contracts in {n} deals");
    assert!(made * 2 > contracts, "{made} made of {contracts}");
}

fn strong_for_tests(l: Level, o: &Options) -> Box<dyn Player<SeatView, Action>> {
    match l {
        Level::Strong => {
            let mut inner = Strong::new();
            inner.max_worlds = 1;
            Box::new(StrongPlayer { inner, opts: *o })
        }
        l => belote::player(l, o),
    }
}

#[test]
fn strong_players_only_choose_legal_actions() {
    for seed in 0..iterations(100, 1000) as u64 {
        let mut levels = [Level::Basic, Level::Random, Level::Basic, Level::Basic];
        levels[seed as usize % 4] = Level::Strong;
        levels[(seed as usize + 2) % 4] = Level::Strong;
        let d = play_with(seed, levels, &strong_for_tests);
        assert_eq!(d.phase(), Phase::Done, "seed {seed}");
    }
}

/// Plays `seed`'s deal with random players until `left` cards remain in the hands (plus, for
/// odd seeds, part of a trick), or `None` if it was redealt.
fn endgame(seed: u64, left: usize) -> Option<Deal> {
    let v = variant_for(seed);
    let opts = opts_for(v, seed);
    let mut d = Deal::shuffled(v, opts, (seed % 4) as u8, Seed::from_u64(seed));
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut basic = belote::player(Level::Basic, &opts);
    let extra = (seed % 3) as usize;
    while let Some(s) = d.to_act() {
        if d.phase() == Phase::Play {
            let in_hands: usize = (0..v.seats() as u8).map(|s| d.hand(s).len() as usize).sum();
            if in_hands + extra <= left + v.seats() && in_hands <= left + extra {
                return Some(d);
            }
        }
        let view = d.view(s);
        let a = if rng.random_bool(0.5) {
            basic.choose(&view, &mut rng, &NoLimit)
        } else {
            view.legal[rng.random_range(0..view.legal.len())]
        };
        d.apply(s, a).expect("legal");
    }
    None
}

#[test]
fn double_dummy_agrees_with_exhaustive_search_on_small_endgames() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for seed in 0..iterations(300, 3000) as u64 {
        let v = variant_for(seed);
        // Three or four tricks left.
        let left = v.seats() * (3 + (seed as usize / 4) % 2);
        let Some(d) = endgame(seed, left) else { continue };
        let (rules, pos) = open_position(&d).expect("in play");
        for goal in [Goal::points(0), Goal::points(1), Goal::tricks(seed as u8 % 2)] {
            let want = exhaustive(&rules, &pos, &goal);
            solver.reset(&rules, goal);
            assert_eq!(solver.value(&pos), want, "seed {seed} ({v}) {goal:?}");
            solver.reset(&rules, goal);
            assert!(solver.at_least(&pos, want), "seed {seed}");
            assert!(!solver.at_least(&pos, want + 1), "seed {seed}");
            // Each move's value is what exhaustive search gives after it.
            solver.reset(&rules, goal);
            for (c, val) in solver.move_values(&pos) {
                let mut next = pos;
                let now = match next.play(&rules, c) {
                    Some((w, t)) => goal.trick_value(&rules, &t[..v.seats()], w, next.is_over()),
                    None => 0,
                };
                assert_eq!(
                    val,
                    now + exhaustive(&rules, &next, &goal),
                    "seed {seed} move {c}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

/// The real hands of a deal as a world seen from `seat`.
fn true_world(d: &Deal, k: &Knowledge) -> World {
    let mut hands = [CardSet::EMPTY; 4];
    let mut held = CardSet::EMPTY;
    for s in 0..d.variant().seats() as u8 {
        hands[s as usize] = d.hand(s);
        held |= d.hand(s);
    }
    World {
        hands,
        out: k.unseen.minus(held),
    }
}

#[test]
fn sampled_worlds_never_contradict_the_view() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut worlds = 0;
    for seed in 0..iterations(300, 3000) as u64 {
        let v = variant_for(seed);
        let opts = opts_for(v, seed);
        let mut d = Deal::shuffled(v, opts, (seed % 4) as u8, Seed::from_u64(seed));
        let mut basic = belote::player(Level::Basic, &opts);
        while let Some(s) = d.to_act() {
            let view = d.view(s);
            let k = Knowledge::from_view(&view, &opts);
            // What the seat infers holds in the real deal (the inference is sound)...
            let real = true_world(&d, &k);
            if d.phase() == Phase::Play {
                assert!(
                    consistent(&k, &real),
                    "seed {seed} ({v}): the real deal contradicts {k:?}"
                );
            }
            // ...and every world drawn respects it.
            for _ in 0..3 {
                let w = sample(&k, &mut rng).unwrap_or_else(|| panic!("seed {seed}: no world for {k:?}"));
                assert!(consistent(&k, &w), "seed {seed} ({v}): {w:?} contradicts {k:?}");
                worlds += 1;
            }
            let a = if rng.random_bool(0.3) {
                view.legal[rng.random_range(0..view.legal.len())]
            } else {
                basic.choose(&view, &mut rng, &NoLimit)
            };
            d.apply(s, a).expect("legal");
        }
    }
    assert!(worlds > 1000);
}

#[test]
fn inferences_from_the_play_rules() {
    // Hearts trump; seat 1 discards a club on a spade lead that seat 0 wins with the ace:
    // seat 1 has no spade and no trump at all. Seat 2 then undertrumps... (see below).
    use stikis_core::cards::cards;
    let v = Variant::Bazar;
    let opts = Options::default_for(v);
    let hands = [
        cards("AS 7S 8S 9S 10S JS QS KS"),
        cards("7C 8C 9C 10C JC QC KC AC"),
        cards("7H 8H 9H 10H JH QH KH AH"),
        cards("7D 8D 9D 10D JD QD KD AD"),
    ];
    let mut d = Deal::from_hands(v, opts, 3, &hands, None, &[]).expect("deal");
    for (s, b) in [(0, "8 H"), (1, "pass"), (2, "pass"), (3, "pass")] {
        let bid = Bid::parse(v, b).unwrap();
        d.apply(s, Action::Bid(bid)).unwrap();
    }
    d.apply(0, Action::Play(card("AS"))).unwrap();
    d.apply(1, Action::Play(card("7C"))).unwrap();
    let k = Knowledge::from_view(&d.view(2), &opts);
    assert!(cards("7S 10S KS").is_subset(k.cant[1]));
    assert!(cards("7H JH 9H").is_subset(k.cant[1]), "a discard shows no trump");
    assert!(!k.cant[1].contains(card("7D")));
    // Seat 2 must overtrump nothing (no trump in the trick): plays the jack of trumps.
    d.apply(2, Action::Play(card("JH"))).unwrap();
    d.apply(3, Action::Play(card("7D"))).unwrap();
    let k = Knowledge::from_view(&d.view(0), &opts);
    // Seat 3 discarded on a trick its partner (seat 1) was not winning, over the top trump:
    // it holds no spade, and no trump above the jack (none exists).
    assert!(k.cant[3].contains(card("8S")));
    assert!(
        !k.cant[3].contains(card("7H")),
        "cannot overtrump the jack: any card"
    );
}
