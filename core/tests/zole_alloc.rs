//! Shows that a Zole deal makes no heap allocation from the deal to the score: the test binary
//! counts every allocation through its own global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{Rng, SeedableRng};
use stikis_core::games::zole::{Deal, Options};
use stikis_core::Seed;

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Only the measuring thread counts: the test harness allocates on its own threads.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
        }
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn deals_actions_views_and_scoring_do_not_allocate() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let presets = [
        Options::lv(),
        Options::lv_galdins(),
        Options::rondo(),
        Options::catsatcards(),
        Options::zolite(),
    ];
    let mut actions = 0usize;
    COUNTING.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    for i in 0..2_000u64 {
        let opts = presets[(i % 5) as usize];
        let players = 3 + (i % 3) as usize;
        let mut d = Deal::new(opts, players, (i % players as u64) as u8, Seed::from_u64(i)).unwrap();
        while let Some(seat) = d.to_act() {
            let legal = d.legal_actions();
            let _view = d.view(seat);
            let a = legal.get(rng.random_range(0..legal.len())).unwrap();
            d.apply(seat, a).unwrap();
            actions += 1;
        }
        let _ = d.outcome().unwrap();
    }
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    assert!(actions > 20_000);
    // The counter does see allocations.
    let probe = ALLOCS.load(Ordering::SeqCst);
    let v = std::hint::black_box(vec![0u8; 16]);
    assert!(ALLOCS.load(Ordering::SeqCst) > probe && v.len() == 16);
    assert_eq!(allocs, 0, "{allocs} heap allocations over {actions} actions");
}
