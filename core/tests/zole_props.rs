//! Property tests over random legal Zole sessions (seeded loops; every failure names its seed):
//! card points sum to 120 where all cards are played, every deal's deltas (and the end
//! settlement) sum to zero, a completed deal has 8 tricks, `legal_actions` is exactly the set
//! of actions `apply` accepts (every bid, every card of the deck, every pair of the deck,
//! surrender, from every seat) and a refused action changes nothing, replaying a session's
//! record reproduces the session, and no seat's view shows another seat's hidden cards. Every
//! deal is also scored by an independent model of the rules (`zole_model`), which must agree
//! with the engine on contract, tricks, card points, deltas, pules and the tree.
//!
//! 10,000 sessions per preset when built without debug assertions (`cargo test --release`),
//! fewer with them.

mod zole_model;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stikis_core::cards::ZOLE_DECK;
use stikis_core::games::zole::record::{output, replay_session, to_record};
use stikis_core::games::zole::tables::set_points;
use stikis_core::games::zole::*;
use stikis_core::{Card, Seat, Seed};

const SESSIONS: u64 = if cfg!(debug_assertions) { 1_500 } else { 10_000 };
/// Sessions (the first of each run) whose every state is probed with every possible action.
const PROBED: u64 = if cfg!(debug_assertions) { 40 } else { 300 };

/// Every action there is: 4 bids, 26 plays, 325 buries, surrender.
fn all_actions() -> Vec<Action> {
    let mut v: Vec<Action> = [Bid::Pass, Bid::Take, Bid::Zole, Bid::SmallZole]
        .into_iter()
        .map(Action::Bid)
        .collect();
    let deck: Vec<Card> = ZOLE_DECK.iter().collect();
    v.extend(deck.iter().map(|&c| Action::Play(c)));
    for (i, &a) in deck.iter().enumerate() {
        for &b in &deck[i + 1..] {
            v.push(Action::Bury(a, b));
        }
    }
    v.push(Action::Surrender);
    v
}

/// `legal_actions` equals what `apply` accepts, from every seat; refusals change nothing.
fn probe(d: &Deal, all: &[Action], ctx: &str) {
    let legal = d.legal_actions();
    let mut accepted = Vec::new();
    for seat in 0..d.players() as Seat {
        for &a in all {
            let mut t = *d;
            match t.apply(seat, a) {
                Ok(()) => accepted.push((seat, a)),
                Err(_) => assert_eq!(&t, d, "{ctx}: refused {a} by seat {seat} changed the deal"),
            }
        }
    }
    let mut expected: Vec<(Seat, Action)> = match d.to_act() {
        Some(s) => legal.iter().map(|a| (s, a)).collect(),
        None => Vec::new(),
    };
    // The declarer may also surrender while another seat is to act.
    if let Some(decl) = d.declarer().filter(|&s| Some(s) != d.to_act()) {
        if d.may_surrender(decl) {
            expected.push((decl, Action::Surrender));
        }
    }
    assert_eq!(
        accepted.len(),
        expected.len(),
        "{ctx}: accepted {accepted:?}, legal {expected:?}"
    );
    for x in &expected {
        assert!(accepted.contains(x), "{ctx}: legal {x:?} refused");
    }
}

/// What each seat sees: its own hand, and no card another seat still hides.
fn check_views(d: &Deal, ctx: &str) {
    let took = d.contract() == Some(Contract::Take);
    let done = d.phase() == Phase::Done;
    for seat in 0..d.players() as Seat {
        let v = d.view(seat);
        assert_eq!(v.hand, d.hand(seat), "{ctx}: seat {seat}'s own hand");
        let is_declarer = d.declarer() == Some(seat);
        let mut visible = v.hand | v.trick.iter().copied().collect();
        for t in &v.tricks {
            visible |= t.cards.iter().copied().collect();
        }
        if let Some(t) = v.talon {
            assert!(done || (took && is_declarer), "{ctx}: seat {seat} sees the talon");
            visible |= t;
        }
        if let Some(b) = v.buried {
            assert!(took && is_declarer, "{ctx}: seat {seat} sees the bury");
            visible |= b;
        }
        for other in (0..d.players() as Seat).filter(|&o| o != seat) {
            if !done {
                let hidden = d.hand(other);
                assert!(
                    (visible & hidden).is_empty(),
                    "{ctx}: seat {seat} sees seat {other}'s {}",
                    visible & hidden
                );
                assert!(hidden.is_subset(v.unseen()), "{ctx}: seat {seat}'s unseen cards");
            }
            if d.declarer() == Some(other) && took && !done {
                assert!(
                    (visible & d.buried()).is_empty(),
                    "{ctx}: seat {seat} sees the bury"
                );
            }
        }
        if d.to_act() == Some(seat) {
            assert_eq!(v.legal, d.legal_actions(), "{ctx}");
        } else {
            assert!(v.legal.is_empty(), "{ctx}");
        }
    }
}

/// Checks a finished deal's result.
fn check_result(d: &Deal, r: &DealResult, ctx: &str) {
    let o = &r.outcome;
    assert_eq!(r.deltas.iter().sum::<i32>(), 0, "{ctx}: deltas {:?}", r.deltas);
    assert_eq!(o.deltas().iter().sum::<i32>(), 0, "{ctx}: contract deltas");
    let tricks: u32 = o.tricks().iter().map(|&t| t as u32).sum();
    let pts: u32 = o.card_points().iter().map(|&p| p as u32).sum();
    let talon = set_points(d.talon());
    let opts = d.options();
    match o.kind {
        Kind::Pule => assert_eq!((tricks, pts), (0, 0), "{ctx}"),
        _ if o.surrendered && opts.surrender == Surrender::BasicLoss => assert!(tricks < 8, "{ctx}"),
        _ if o.surrendered => {
            // concede_rest: the unplayed cards go to the opponents, so every point is counted.
            assert_eq!(
                pts,
                if o.kind == Kind::SmallZole {
                    120 - talon
                } else {
                    120
                },
                "{ctx}"
            );
        }
        Kind::SmallZole => {
            let d_tricks = o.tricks[o.declarer.unwrap() as usize];
            assert!(
                tricks == 8 || d_tricks == 1,
                "{ctx}: a small zole ends at the declarer's trick"
            );
            assert_eq!(d_tricks == 0, o.declarer_won == Some(true), "{ctx}");
            if tricks == 8 {
                assert_eq!(pts + talon, 120, "{ctx}: the small zole talon counts for nobody");
            }
        }
        Kind::Galdins => {
            assert_eq!(tricks, 8, "{ctx}");
            let aside = if opts.galdins_talon == GaldinsTalon::Nobody {
                talon
            } else {
                0
            };
            assert_eq!(pts + aside, 120, "{ctx}");
        }
        Kind::Take | Kind::Zole | Kind::Tie => {
            assert_eq!(tricks, 8, "{ctx}");
            assert_eq!(pts, 120, "{ctx}: card points {:?}", o.card_points());
        }
    }
    // Sitting-out seats score like opponents: never more than an active non-declarer.
    for s in 0..d.players() as Seat {
        if !d.is_active(s) {
            assert_eq!(o.card_points[s as usize], 0, "{ctx}");
            assert_eq!(o.tricks[s as usize], 0, "{ctx}");
        }
    }
}

fn random_action(d: &Deal, rng: &mut ChaCha8Rng) -> Action {
    let legal = d.legal_actions();
    // Surrender is one option among the cards; taking it at a third of its uniform rate
    // lets more deals reach the end.
    loop {
        let a = legal.get(rng.random_range(0..legal.len())).expect("in range");
        if a != Action::Surrender || rng.random_range(0..3) == 0 {
            return a;
        }
    }
}

fn run_session(opts: Options, seed: u64, probing: bool, all: &[Action]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = rng.random_range(3..=5);
    let dealer = rng.random_range(0..players) as Seat;
    let mut s = Session::new(opts, players, dealer).unwrap();
    let mut model = zole_model::Model::new(opts, players);
    let deals = rng.random_range(1..=4);
    for k in 0..deals {
        let ctx = format!("seed {seed}, {players} players, deal {}", k + 1);
        let mut deal_seed = [0u8; 32];
        rng.fill(&mut deal_seed);
        s.deal_from_seed(Seed(deal_seed)).unwrap();
        loop {
            let d = *s.current().unwrap();
            if probing {
                probe(&d, all, &ctx);
            }
            check_views(&d, &ctx);
            let seat = d.to_act().unwrap();
            let a = random_action(&d, &mut rng);
            if let Some(r) = s
                .apply(seat, a)
                .unwrap_or_else(|e| panic!("{ctx}: legal {a} refused: {e}"))
            {
                let r = r.clone();
                let done = s.deals().last().unwrap().deal;
                if probing {
                    probe(&done, all, &ctx);
                }
                check_views(&done, &ctx);
                check_result(&done, &r, &ctx);
                let entry = s.deals().last().unwrap();
                let (deltas, m) = model.deal(done.dealer(), done.talon(), &entry.actions);
                let o = &r.outcome;
                let ctx = format!("{ctx}: engine {o:?}, model {m:?}");
                assert_eq!(m.kind, o.kind.name(), "{ctx}");
                assert_eq!(m.declarer, o.declarer, "{ctx}");
                assert_eq!(
                    m.tricks,
                    o.tricks().iter().map(|&t| t as u32).collect::<Vec<_>>(),
                    "{ctx}"
                );
                assert_eq!(
                    m.card_points,
                    o.card_points().iter().map(|&t| t as u32).collect::<Vec<_>>(),
                    "{ctx}"
                );
                assert_eq!(m.deltas, o.deltas(), "{ctx}");
                assert_eq!(deltas, r.deltas, "{ctx}: with pules and tree");
                assert_eq!(
                    (model.common, &model.personal, model.tree),
                    (s.pules.common, &s.pules.personal, s.pules.tree),
                    "{ctx}"
                );
                break;
            }
        }
    }
    // The record of the session replays to the same session, also through JSON bytes.
    let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let env = to_record(&s, &names);
    let again = replay_session(&env).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(again, s, "seed {seed}: replayed session differs");
    let bytes = serde_json::to_vec(&env).unwrap();
    let out = stikis_core::record::replay(&bytes).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(out, output(&s), "seed {seed}");
    let totals: i32 = s.sheet.totals.iter().sum();
    assert_eq!(totals, 0, "seed {seed}");
    let settle = s.settle();
    assert_eq!(settle, model.settle(), "seed {seed}: settlement");
    assert_eq!(
        settle.iter().sum::<i32>(),
        0,
        "seed {seed}: settlement {settle:?}"
    );
}

fn run_preset(name: &str, opts: Options) {
    let all = all_actions();
    assert_eq!(all.len(), 4 + 26 + 325 + 1);
    let base = name
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64))
        << 20;
    for i in 0..SESSIONS {
        run_session(opts, base + i, i < PROBED, &all);
    }
}

#[test]
fn random_sessions_lv() {
    run_preset("lv", Options::lv());
}

#[test]
fn random_sessions_lv_galdins() {
    run_preset("lv-galdins", Options::lv_galdins());
}

#[test]
fn random_sessions_rondo() {
    run_preset("rondo", Options::rondo());
}

#[test]
fn random_sessions_catsatcards() {
    run_preset("catsatcards", Options::catsatcards());
}

#[test]
fn random_sessions_zolite() {
    run_preset("zolite", Options::zolite());
}

/// Options no preset combines: concede_rest surrender, the galdiņš talon to the first
/// trick, a personal pule paying 2, pules on zole, a tree with galdiņš.
#[test]
fn random_sessions_with_overridden_options() {
    let variants = [
        Options {
            surrender: Surrender::ConcedeRest,
            ..Options::lv()
        },
        Options {
            galdins_talon: GaldinsTalon::FirstTrick,
            surrender: Surrender::ConcedeRest,
            ..Options::rondo()
        },
        Options {
            galdins_talon: GaldinsTalon::FirstTrick,
            personal_pule_payment: 2,
            pules_on_zole: true,
            ..Options::lv_galdins()
        },
        Options {
            surrender: Surrender::ConcedeRest,
            small_zole: true,
            ..Options::zolite()
        },
    ];
    for (i, opts) in variants.into_iter().enumerate() {
        run_preset(&format!("variant {i}"), opts);
    }
}
