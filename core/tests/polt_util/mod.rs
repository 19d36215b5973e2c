//! Helpers shared by the Polt to Tzar tests: hands from card names, actions from short text,
//! a fixed five-player layout, and a seeded random player.
#![allow(dead_code)]

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha20Rng;
use stikis_core::cards::{card, cards};
use stikis_core::games::polt::{Action, Deal, Options, Session};
use stikis_core::{CardSet, Seat, Seed, Suit};

/// Hands from one string of card names per seat.
pub fn hands(specs: &[&str]) -> Vec<CardSet> {
    specs.iter().map(|s| cards(s)).collect()
}

/// An action from text: `give QS`, `return AD`, `trump H`, `play JK`.
pub fn act(text: &str) -> Action {
    let (kind, arg) = text.split_once(' ').expect("kind and argument");
    match kind {
        "give" => Action::Give(card(arg)),
        "return" => Action::Return(card(arg)),
        "play" => Action::Play(card(arg)),
        "trump" => Action::Trump(arg.parse::<Suit>().expect("suit")),
        _ => panic!("unknown action {text}"),
    }
}

/// Applies `seat: action` steps, panicking with the rule message on a refusal.
pub fn run(deal: &mut Deal, steps: &[(Seat, &str)]) {
    for &(seat, text) in steps {
        deal.apply(seat, act(text))
            .unwrap_or_else(|e| panic!("{seat}: {text}: {e}"));
    }
}

/// Five hands of ten cards with every suit's layout known; 6H 7H 8H are not dealt.
/// Seat 0: the joker, two hearts, seven clubs. Seat 1: 2H-5H, 3D-8D. Seat 2: AS KS QS, JH,
/// JD AD KD QD 10D 9D. Seat 3: 2S-JS (spades only). Seat 4: AH KH QH, 2C-6C AC, 2D.
pub const LAYOUT: [&str; 5] = [
    "JK 10H 9H 7C 8C 9C 10C JC QC KC",
    "2H 3H 4H 5H 3D 4D 5D 6D 7D 8D",
    "AS KS QS JH JD AD KD QD 9D 10D",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS",
    "QH AH KH 2C 3C 4C 5C 6C AC 2D",
];

pub fn layout_deal(options: Options, ranks: &[Seat]) -> Deal {
    Deal::new(options, ranks, &hands(&LAYOUT)).expect("the layout is a valid deal")
}

/// The layout with ranks Tzar 2, President 4, Upper Class 0, Lower Class 3, Polt 1, after an
/// exchange that changes nothing (the aces go and come back) and `trump` named: play order
/// 4, 0, 3, 1, 2.
pub fn layout_in_play(options: Options, trump: &str) -> Deal {
    let mut d = layout_deal(options, &[2, 4, 0, 3, 1]);
    run(
        &mut d,
        &[
            (2, "give AS"),
            (1, "return AS"),
            (2, "give AS"),
            (1, "return AS"),
            (4, "give AC"),
            (3, "return AC"),
        ],
    );
    d.apply(2, act(&format!("trump {trump}"))).unwrap();
    d
}

/// Plays a whole session with uniformly random legal actions from `rng`; each hand is
/// shuffled from a seed drawn from the same rng. `check` sees the session before each action.
pub fn random_session(
    options: Options,
    seats: usize,
    hands: u32,
    rng: &mut ChaCha20Rng,
    mut check: impl FnMut(&Session),
) -> Session {
    use rand::Rng;
    let mut s = Session::from_seed(options, seats, hands, Seed(rng.random())).unwrap();
    while !s.is_over() {
        s.start_hand(Seed(rng.random())).unwrap();
        while let Some(deal) = s.current() {
            check(&s);
            let seat = deal.to_act().unwrap();
            let legal = deal.legal_actions();
            let &action = legal.choose(rng).expect("someone to act has an action");
            s.apply(seat, action).unwrap();
        }
    }
    s
}
