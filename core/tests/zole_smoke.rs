use rand::{Rng, SeedableRng};
use stikis_core::games::zole::*;
use stikis_core::Seed;

#[test]
fn random_deals_keep_the_invariants() {
    for preset in options::PRESETS {
        let opts = Options::preset(preset).unwrap();
        for n in 3..=5 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(n as u64);
            let mut s = Session::new(opts, n, 0).unwrap();
            for i in 0..300u64 {
                s.deal_from_seed(Seed::from_u64(i)).unwrap();
                loop {
                    let d = *s.current().unwrap();
                    let legal = d.legal_actions();
                    let a = legal.get(rng.random_range(0..legal.len())).unwrap();
                    let seat = d.to_act().unwrap();
                    if let Some(r) = s.apply(seat, a).unwrap() {
                        assert_eq!(r.deltas.iter().sum::<i32>(), 0, "{preset} {n} {i} {r:?}");
                        let o = r.outcome;
                        let pts: u32 = o.card_points().iter().map(|&p| p as u32).sum();
                        assert!(pts <= 120);
                        break;
                    }
                }
            }
        }
    }
}
