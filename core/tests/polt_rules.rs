//! Polt to Tzar rules (RULES.md section 3): the exchange, trumps, play with the joker and the
//! bowers option, new ranks, and one test per "Precisely" bullet.

mod polt_util;

use polt_util::{act, hands, layout_deal, layout_in_play, run};
use stikis_core::cards::{card, cards};
use stikis_core::games::polt::{
    hand_size, next_ranks, Action, Deal, DealError, Error, ExchangeView, Options, Phase, Session, Stage,
    Title,
};
use stikis_core::{Card, Seat, Suit};

fn bowers() -> Options {
    Options {
        bowers: true,
        ..Options::default()
    }
}

fn legal(d: &Deal) -> Vec<String> {
    d.legal_actions().iter().map(|a| a.to_string()).collect()
}

/// Applies an action that must be refused and checks nothing changed.
fn refused(d: &mut Deal, seat: Seat, text: &str) -> Error {
    let before = format!("{d:?}");
    let err = d.apply(seat, act(text)).expect_err(text);
    assert_eq!(format!("{d:?}"), before, "a refused action changed the hand");
    err
}

// ---- exchange ----------------------------------------------------------------------------

/// Ranks for the exchange tests: Tzar 2, President 4, Upper Class 0, Lower Class 1, Polt 3.
const EXCHANGE_RANKS: [Seat; 5] = [2, 4, 0, 1, 3];

#[test]
fn returned_card_is_the_one_just_received() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    assert_eq!(d.to_act(), Some(2));
    d.apply(2, act("give QS")).unwrap();
    // The Polt holds 2S-JS; the queen he was given is now his highest spade.
    assert_eq!(d.to_act(), Some(3));
    assert_eq!(legal(&d), ["return QS"]);
    let err = refused(&mut d, 3, "return JS");
    assert_eq!(err.to_string(), "seat 3 must return the highest of spades (QS)");
    d.apply(3, act("return QS")).unwrap();
    assert_eq!(d.hand(2), cards(polt_util::LAYOUT[2]));
    assert_eq!(d.hand(3), cards(polt_util::LAYOUT[3]));
}

#[test]
fn no_card_of_that_suit_but_the_given_one() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    run(&mut d, &[(2, "give QS"), (3, "return QS"), (2, "give 9D")]);
    // The Polt has spades only: the nine of diamonds is his only diamond.
    assert_eq!(legal(&d), ["return 9D"]);
    assert!(matches!(
        refused(&mut d, 3, "return JS"),
        Error::MustReturn { seat: 3, .. }
    ));
    d.apply(3, act("return 9D")).unwrap();
    assert_eq!(d.phase(), Phase::Give { step: 2 });
}

#[test]
fn joker_given_with_a_tie_for_the_highest_rank() {
    // Tzar 0 (holds the joker), President 4, Upper Class 1, Lower Class 3, Polt 2 (holds AS
    // and AD, his highest rank in two suits).
    let mut d = layout_deal(Options::default(), &[0, 4, 1, 3, 2]);
    d.apply(0, act("give JK")).unwrap();
    let mut options = legal(&d);
    options.sort();
    assert_eq!(options, ["return AD", "return AS"]);
    assert!(matches!(
        refused(&mut d, 2, "return KS"),
        Error::MustReturn { seat: 2, .. }
    ));
    assert_eq!(
        refused(&mut d, 2, "return JK").to_string(),
        "seat 2 must return one of the highest cards for the joker (AD AS)"
    );
    d.apply(2, act("return AD")).unwrap();
    assert!(d.hand(2).contains(Card::JOKER));
    assert!(d.hand(0).contains(card("AD")));
    // The Tzar's second card may be the one just returned; it comes back as the Polt's
    // highest diamond.
    d.apply(0, act("give AD")).unwrap();
    assert_eq!(legal(&d), ["return AD"]);
}

#[test]
fn joker_returned_choice_is_the_receivers() {
    let mut d = layout_deal(Options::default(), &[0, 4, 1, 3, 2]);
    d.apply(0, act("give JK")).unwrap();
    d.apply(2, act("return AS")).unwrap();
    assert!(d.hand(0).contains(card("AS")));
    assert!(d.hand(2).contains(card("AD")));
}

#[test]
fn presidents_exchange_with_the_lower_class() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    run(
        &mut d,
        &[(2, "give QS"), (3, "return QS"), (2, "give AS"), (3, "return AS")],
    );
    assert_eq!(d.to_act(), Some(4), "the President gives third");
    assert_eq!(
        refused(&mut d, 1, "return 8D").to_string(),
        "it is seat 4's turn, not seat 1's"
    );
    d.apply(4, act("give 2D")).unwrap();
    // The Lower Class (seat 1) holds 3D-8D: he returns the eight, not the deuce.
    assert_eq!(d.to_act(), Some(1));
    assert_eq!(legal(&d), ["return 8D"]);
    d.apply(1, act("return 8D")).unwrap();
    assert!(d.hand(4).contains(card("8D")) && !d.hand(4).contains(card("2D")));
    assert!(d.hand(1).contains(card("2D")) && !d.hand(1).contains(card("8D")));
    assert_eq!(d.hand(4).len(), 10);
    assert_eq!(d.hand(1).len(), 10);
    // Then the Tzar names trumps, and the President leads.
    assert_eq!(d.phase(), Phase::Trump);
    assert_eq!(d.to_act(), Some(2));
    assert_eq!(legal(&d), ["trump C", "trump D", "trump H", "trump S"]);
    d.apply(2, act("trump D")).unwrap();
    assert_eq!(d.trump(), Some(Suit::Diamonds));
    assert_eq!(d.to_act(), Some(4));
}

#[test]
fn exchange_goes_one_card_at_a_time_in_order() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    let mut turns = Vec::new();
    while d.phase() != Phase::Trump {
        let seat = d.to_act().unwrap();
        turns.push(seat);
        let a = d.legal_actions()[0];
        d.apply(seat, a).unwrap();
    }
    assert_eq!(turns, [2, 3, 2, 3, 4, 1]);
    assert_eq!(d.exchange().len(), 3);
    assert_eq!(
        d.exchange()
            .iter()
            .map(|e| (e.giver, e.receiver))
            .collect::<Vec<_>>(),
        [(2, 3), (2, 3), (4, 1)]
    );
}

#[test]
fn the_joker_may_be_given_but_never_has_to_be() {
    let d = layout_deal(Options::default(), &[0, 4, 1, 3, 2]);
    let gives = d.legal_actions();
    assert_eq!(gives.len(), 10, "the Tzar may give any card he holds");
    assert!(gives.contains(&Action::Give(Card::JOKER)));
    assert!(gives.contains(&Action::Give(card("7C"))));
}

#[test]
fn exchange_actions_out_of_turn_or_of_the_wrong_kind_are_refused() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    assert_eq!(
        refused(&mut d, 2, "play AS").to_string(),
        "seat 2 must give a card now"
    );
    assert_eq!(
        refused(&mut d, 2, "trump H").to_string(),
        "seat 2 must give a card now"
    );
    assert_eq!(
        refused(&mut d, 2, "give 2C").to_string(),
        "seat 2 does not hold 2C"
    );
    assert!(matches!(
        refused(&mut d, 4, "give 2D"),
        Error::NotYourTurn { seat: 4, to_act: 2 }
    ));
    d.apply(2, act("give QS")).unwrap();
    assert_eq!(
        refused(&mut d, 3, "give QS").to_string(),
        "seat 3 must return a card now"
    );
}

#[test]
fn exchange_uses_printed_suits_even_with_bowers() {
    // With bowers on, JD is not a heart before trumps are named: the Polt (spades only, seat
    // 3) returns it as his only diamond, and the Lower Class's highest heart is the one given.
    let mut d = layout_deal(bowers(), &EXCHANGE_RANKS);
    run(&mut d, &[(2, "give JD")]);
    assert_eq!(legal(&d), ["return JD"]);
    run(&mut d, &[(3, "return JD"), (2, "give JH")]);
    assert_eq!(legal(&d), ["return JH"]);
}

#[test]
fn exchange_view_shows_cards_only_to_the_two_seats() {
    let mut d = layout_deal(Options::default(), &EXCHANGE_RANKS);
    run(&mut d, &[(2, "give QS")]);
    let seen = ExchangeView {
        giver: 2,
        receiver: 3,
        given: Some(card("QS")),
        returned: None,
    };
    assert_eq!(d.view(2).exchange, [seen]);
    assert_eq!(d.view(3).exchange, [seen]);
    assert_eq!(d.view(3).legal.to_vec(), [Action::Return(card("QS"))]);
    assert!(d.view(2).legal.is_empty());
    for seat in [0, 1, 4] {
        let v = d.view(seat);
        assert_eq!(
            v.exchange,
            [ExchangeView {
                given: None,
                returned: None,
                ..seen
            }]
        );
        assert_eq!(v.hand, d.hand(seat));
        assert_eq!(v.stage, Stage::Exchange);
        assert!(v.legal.is_empty());
    }
    run(&mut d, &[(3, "return QS")]);
    assert_eq!(d.view(2).exchange[0].returned, Some(card("QS")));
    assert_eq!(d.view(0).exchange[0].returned, None);
    assert_eq!(d.view(2).legal.len(), 10, "the Tzar gives his second card");
}

// ---- trumps and play -----------------------------------------------------------------------

#[test]
fn president_leads_and_play_goes_in_rank_order() {
    let mut d = layout_in_play(Options::default(), "H");
    let mut order = Vec::new();
    for _ in 0..5 {
        let seat = d.to_act().unwrap();
        order.push(seat);
        let a = d.legal_actions()[0];
        d.apply(seat, a).unwrap();
    }
    assert_eq!(order, [4, 0, 3, 1, 2]);
    assert_eq!(d.tricks().len(), 1);
}

#[test]
fn joker_led_is_a_trump_lead_and_beats_the_ace_of_trumps() {
    let mut d = layout_in_play(Options::default(), "H");
    // Trick 1: seat 0 wins with KC and leads the joker.
    run(
        &mut d,
        &[
            (4, "play 2C"),
            (0, "play KC"),
            (3, "play 2S"),
            (1, "play 3D"),
            (2, "play AD"),
        ],
    );
    assert_eq!(d.tricks()[0].winner, 0);
    d.apply(0, act("play JK")).unwrap();
    // Seat 3 has no trumps: any card. Seat 1 must follow with hearts.
    assert_eq!(d.legal_actions().len(), 9);
    d.apply(3, act("play 3S")).unwrap();
    assert_eq!(legal(&d), ["play 2H", "play 3H", "play 4H", "play 5H"]);
    assert_eq!(
        refused(&mut d, 1, "play 4D").to_string(),
        "seat 1 must follow trumps, hearts (has 2H 3H 4H 5H)"
    );
    d.apply(1, act("play 2H")).unwrap();
    // Seat 2's only heart is JH; without bowers JD stays a diamond.
    assert_eq!(legal(&d), ["play JH"]);
    d.apply(2, act("play JH")).unwrap();
    assert_eq!(legal(&d), ["play QH", "play KH", "play AH"]);
    d.apply(4, act("play AH")).unwrap();
    assert_eq!(d.tricks()[1].winner, 0, "the joker beats the ace of trumps");
    assert_eq!(d.won(), [2, 0, 0, 0, 0]);
    assert_eq!(d.to_act(), Some(0), "the winner leads");
}

#[test]
fn joker_played_on_the_ace_of_trumps_wins() {
    let mut d = layout_in_play(Options::default(), "H");
    d.apply(4, act("play AH")).unwrap();
    assert_eq!(legal(&d), ["play 9H", "play 10H", "play JK"]);
    run(
        &mut d,
        &[(0, "play JK"), (3, "play 2S"), (1, "play 2H"), (2, "play JH")],
    );
    assert_eq!(d.tricks()[0].winner, 0);
}

#[test]
fn joker_as_only_trump_must_follow_a_trump_lead() {
    let mut d = layout_in_play(Options::default(), "D");
    d.apply(4, act("play 2D")).unwrap();
    assert_eq!(legal(&d), ["play JK"]);
    assert_eq!(
        refused(&mut d, 0, "play 7C").to_string(),
        "seat 0 must follow trumps, diamonds (has JK)"
    );
}

#[test]
fn the_joker_does_not_follow_a_plain_suit() {
    // Hearts led, spades trumps: seat 0's joker is a spade, so he must play a heart.
    let mut d = layout_in_play(Options::default(), "S");
    d.apply(4, act("play AH")).unwrap();
    assert_eq!(legal(&d), ["play 9H", "play 10H"]);
    assert!(matches!(
        refused(&mut d, 0, "play JK"),
        Error::MustFollow {
            seat: 0,
            suit: Suit::Hearts,
            ..
        }
    ));
}

#[test]
fn bowers_off_the_ace_of_trumps_beats_the_jack() {
    let mut d = layout_in_play(Options::default(), "H");
    run(
        &mut d,
        &[(4, "play AH"), (0, "play 9H"), (3, "play 2S"), (1, "play 2H")],
    );
    assert_eq!(legal(&d), ["play JH"]);
    assert!(matches!(refused(&mut d, 2, "play JD"), Error::MustFollow { .. }));
    d.apply(2, act("play JH")).unwrap();
    assert_eq!(d.tricks()[0].winner, 4);
}

#[test]
fn bowers_on_both_jacks_of_the_colour_are_trumps_below_the_joker() {
    let mut d = layout_in_play(bowers(), "H");
    run(
        &mut d,
        &[(4, "play AH"), (0, "play 9H"), (3, "play 2S"), (1, "play 2H")],
    );
    assert_eq!(legal(&d), ["play JD", "play JH"]);
    let mut right = d.clone();
    d.apply(2, act("play JD")).unwrap();
    assert_eq!(d.tricks()[0].winner, 2, "the left bower beats the ace");
    right.apply(2, act("play JH")).unwrap();
    assert_eq!(right.tricks()[0].winner, 2, "the right bower beats the ace");

    // Above both bowers is the joker.
    let mut d = layout_in_play(bowers(), "H");
    run(
        &mut d,
        &[
            (4, "play AH"),
            (0, "play JK"),
            (3, "play 2S"),
            (1, "play 2H"),
            (2, "play JH"),
        ],
    );
    assert_eq!(d.tricks()[0].winner, 0);
}

#[test]
fn bowers_left_bower_cannot_follow_its_printed_suit() {
    let mut on = layout_in_play(bowers(), "H");
    let mut off = layout_in_play(Options::default(), "H");
    for d in [&mut on, &mut off] {
        run(
            d,
            &[(4, "play 2D"), (0, "play 7C"), (3, "play 2S"), (1, "play 8D")],
        );
    }
    assert_eq!(
        legal(&on),
        ["play 9D", "play 10D", "play QD", "play KD", "play AD"]
    );
    assert_eq!(
        refused(&mut on, 2, "play JD").to_string(),
        "seat 2 must follow diamonds (has 9D 10D QD KD AD)"
    );
    assert_eq!(
        legal(&off),
        ["play 9D", "play 10D", "play JD", "play QD", "play KD", "play AD"]
    );
}

#[test]
fn hand_ends_after_hand_size_tricks() {
    let mut d = layout_in_play(Options::default(), "C");
    while let Some(seat) = d.to_act() {
        let a = *d.legal_actions().last().unwrap();
        d.apply(seat, a).unwrap();
    }
    assert!(d.is_over());
    assert_eq!(d.tricks().len(), 10);
    assert_eq!(d.won().iter().map(|&w| w as usize).sum::<usize>(), 10);
    assert!(d.legal_actions().is_empty());
    assert_eq!(d.apply(4, act("play AC")), Err(Error::Over));
    for seat in 0..5 {
        assert!(d.hand(seat).is_empty());
    }
}

// ---- deals ---------------------------------------------------------------------------------

#[test]
fn hand_sizes_and_unused_cards() {
    assert_eq!(hand_size(4), None);
    assert_eq!(hand_size(8), None);
    for (n, size, unused) in [(5, 10, 3), (6, 8, 5), (7, 7, 4)] {
        assert_eq!(hand_size(n), Some(size));
        let ranks: Vec<Seat> = (0..n as Seat).rev().collect();
        let d = Deal::from_seed(Options::default(), &ranks, stikis_core::Seed::from_u64(n as u64)).unwrap();
        for s in 0..n as Seat {
            assert_eq!(d.hand(s).len() as usize, size);
        }
        assert_eq!(d.unused().len() as usize, unused);
    }
}

#[test]
fn bad_deals_are_refused() {
    let o = Options::default();
    let h = hands(&polt_util::LAYOUT);
    assert_eq!(
        Deal::new(o, &[0, 1, 2, 3], &h[..4]).unwrap_err(),
        DealError::Seats(4)
    );
    assert_eq!(
        Deal::new(o, &[0, 1, 2, 3, 3], &h).unwrap_err(),
        DealError::Ranks { seats: 5 }
    );
    assert!(matches!(
        Deal::new(o, &[0, 1, 2, 3, 4], &h[..4]),
        Err(DealError::HandCount { .. })
    ));
    let mut short = h.clone();
    short[1].remove(card("2H"));
    assert_eq!(
        Deal::new(o, &[0, 1, 2, 3, 4], &short).unwrap_err().to_string(),
        "seat 1 must be dealt 10 cards, not 9"
    );
    let mut twice = h.clone();
    twice[1] = twice[1].minus(cards("2H")) | cards("AS");
    assert_eq!(
        Deal::new(o, &[0, 1, 2, 3, 4], &twice).unwrap_err(),
        DealError::Twice(card("AS"))
    );
}

// ---- ranks ----------------------------------------------------------------------------------

#[test]
fn titles_follow_the_rank_order() {
    let d = layout_deal(Options::default(), &[2, 4, 0, 3, 1]);
    assert_eq!((d.tzar(), d.president(), d.lower_class(), d.polt()), (2, 4, 3, 1));
    assert_eq!(Title::of(d.rank_of(0), 5), Title::UpperClass);
}

#[test]
fn promotion_past_a_higher_rank_with_fewer_tricks() {
    // Seats 0..4 ranked in seat order; the Lower Class (3) takes 4, the President (1) 1.
    let tricks = [2u8, 1, 2, 4, 1];
    assert_eq!(next_ranks(&[0, 1, 2, 3, 4], &tricks).as_slice(), [3, 0, 2, 1, 4]);
}

#[test]
fn equal_tricks_keep_the_previous_order() {
    // Everyone equal: nobody moves. The Polt equal with the Tzar stays below him.
    assert_eq!(
        next_ranks(&[3, 1, 4, 0, 2], &[2u8, 2, 2, 2, 2]).as_slice(),
        [3, 1, 4, 0, 2]
    );
    // Tzar (3) and Polt (2) both take 3: Tzar stays above; the others with fewer fall below.
    assert_eq!(
        next_ranks(&[3, 1, 4, 0, 2], &[1u8, 2, 3, 3, 1]).as_slice(),
        [3, 2, 1, 4, 0]
    );
}

#[test]
fn full_reversal() {
    // Tricks strictly rising from Tzar to Polt turn the order upside down.
    assert_eq!(
        next_ranks(&[0, 1, 2, 3, 4], &[0u8, 1, 2, 3, 4]).as_slice(),
        [4, 3, 2, 1, 0]
    );
    assert_eq!(
        next_ranks(&[6, 5, 4, 3, 2, 1, 0], &[7u8, 6, 5, 4, 3, 2, 1]).as_slice(),
        [0, 1, 2, 3, 4, 5, 6]
    );
}

// ---- session -------------------------------------------------------------------------------

#[test]
fn session_carries_ranks_and_keeps_leaderboard_tallies() {
    let mut s = Session::new(Options::default(), 5, 2, &[2, 4, 0, 3, 1]).unwrap();
    assert!(s.apply(2, act("give AS")).is_err(), "no hand dealt yet");
    s.start_hand_with(&hands(&polt_util::LAYOUT)).unwrap();
    assert!(
        s.start_hand_with(&hands(&polt_util::LAYOUT)).is_err(),
        "a hand is in progress"
    );
    let mut result = None;
    while let Some(d) = s.current() {
        let seat = d.to_act().unwrap();
        let a = d.legal_actions()[0];
        result = s.apply(seat, a).unwrap().cloned();
    }
    let r = result.expect("the last action ends the hand");
    assert_eq!(r.ranks_before.as_slice(), [2, 4, 0, 3, 1]);
    assert_eq!(r.ranks_after, next_ranks(&[2, 4, 0, 3, 1], &r.tricks));
    assert_eq!(s.ranks(), r.ranks_after.as_slice());
    let st = s.standing();
    assert_eq!(st.hands_played, 1);
    assert_eq!(st.hands_as_tzar, [0, 0, 1, 0, 0]);
    assert_eq!(st.tricks, r.tricks.iter().map(|&t| t as u32).collect::<Vec<_>>());
    assert!(!s.is_over());

    // The next hand is dealt with the new ranks: its Tzar is the last hand's best.
    let d = s.start_hand(stikis_core::Seed::from_u64(1)).unwrap();
    assert_eq!(d.ranks(), r.ranks_after.as_slice());
    let tzar2 = d.tzar();
    while let Some(d) = s.current() {
        let seat = d.to_act().unwrap();
        let a = *d.legal_actions().last().unwrap();
        s.apply(seat, a).unwrap();
    }
    assert!(s.is_over());
    assert!(s.start_hand(stikis_core::Seed::from_u64(2)).is_err());
    let st = s.standing();
    assert_eq!(st.hands_played, 2);
    assert_eq!(st.hands_as_tzar.iter().sum::<u32>(), 2);
    assert!(st.hands_as_tzar[tzar2 as usize] >= 1);
    assert_eq!(st.tricks.iter().sum::<u32>(), 20);
    assert_eq!(st.ranks.as_slice(), s.ranks());
}

#[test]
fn session_sizes() {
    assert!(Session::new(Options::default(), 4, 1, &[0, 1, 2, 3]).is_err());
    assert!(Session::new(Options::default(), 5, 0, &[0, 1, 2, 3, 4]).is_err());
    assert!(Session::new(Options::default(), 5, 1, &[0, 1, 2, 3, 3]).is_err());
    let s = Session::from_seed(Options::default(), 7, 3, stikis_core::Seed::from_u64(9)).unwrap();
    let mut r = s.ranks().to_vec();
    r.sort();
    assert_eq!(r, [0, 1, 2, 3, 4, 5, 6]);
}
