//! Play legality of RULES.md 2.1 (and the play bullets of 2.6), one case per rule line, each
//! with the error it must name; the bids of every variant; and that a refused action leaves
//! the deal unchanged.

use stikis_core::cards::{card, cards, CardSet};
use stikis_core::games::belote::{Action, Bid, Deal, Mode, Options, Phase, Variant};
use stikis_core::{Game, Seat};

fn hands(h: [&str; 4]) -> Vec<CardSet> {
    h.iter().map(|s| cards(s)).collect()
}

/// A Bazar deal with dealer 3: seat 0 bids `bid`, the others pass, seat 0 leads.
fn bazar(h: [&str; 4], bid: &str, must_undertrump: bool) -> Deal {
    let mut o = Options::default_for(Variant::Bazar);
    o.must_undertrump = must_undertrump;
    let mut d = Deal::from_hands(Variant::Bazar, o, 3, &hands(h), None, &[]).unwrap();
    say(&mut d, 0, bid);
    for s in 1..4 {
        say(&mut d, s, "pass");
    }
    assert_eq!(d.phase(), Phase::Play);
    d
}

fn say(d: &mut Deal, seat: Seat, bid: &str) {
    let b = Bid::parse(d.variant(), bid).unwrap_or_else(|| panic!("bad bid {bid}"));
    d.apply(seat, Action::Bid(b))
        .unwrap_or_else(|e| panic!("{bid}: {e}"));
}

fn play(d: &mut Deal, seat: Seat, c: &str) {
    d.apply(seat, Action::Play(card(c)))
        .unwrap_or_else(|e| panic!("{c}: {e}"));
}

/// Plays an illegal card: checks the error text and that nothing changed.
fn refuse(d: &mut Deal, seat: Seat, a: Action, msg: &str) {
    let before = format!("{d:?}");
    let e = d.apply(seat, a).expect_err("must be refused");
    assert_eq!(e.to_string(), msg);
    assert_eq!(format!("{d:?}"), before, "state changed by a refused action");
}

fn refuse_card(d: &mut Deal, seat: Seat, c: &str, msg: &str) {
    refuse(d, seat, Action::Play(card(c)), msg)
}

fn legal_cards(d: &Deal) -> CardSet {
    d.legal_actions()
        .iter()
        .map(|a| match a {
            Action::Play(c) => *c,
            Action::Bid(b) => panic!("bid {b} in play"),
        })
        .collect()
}

/// Spades split between seats 0 and 1; seats 2 and 3 void in spades and holding trumps.
const LAYOUT_1: [&str; 4] = [
    "AS 10S KS AD 10D AC 10C 7D",
    "7S 8S 9S QS JS KD QD JD",
    "JH 9H AH 8D 9D KC QC JC",
    "10H KH QH 8H 7H 9C 8C 7C",
];

#[test]
fn the_leader_plays_any_card() {
    let d = bazar(LAYOUT_1, "8 H", false);
    assert_eq!(legal_cards(&d), cards(LAYOUT_1[0]));
}

#[test]
fn a_plain_suit_led_must_be_followed() {
    let mut d = bazar(LAYOUT_1, "8 H", false);
    play(&mut d, 0, "AS");
    refuse_card(&mut d, 1, "KD", "seat 1 must follow spades (has 7S)");
    assert_eq!(legal_cards(&d), cards("7S 8S 9S QS JS"));
}

#[test]
fn void_with_partner_winning_plays_any_card_then_opponent_must_trump() {
    let mut d = bazar(LAYOUT_1, "8 H", false);
    play(&mut d, 0, "AS");
    play(&mut d, 1, "7S");
    // Seat 2's partner (seat 0) is winning: no need to trump.
    assert_eq!(legal_cards(&d), cards(LAYOUT_1[2]));
    play(&mut d, 2, "KC");
    // Seat 3's partner is not winning and no trump is in the trick: any trump is higher.
    refuse_card(
        &mut d,
        3,
        "9C",
        "seat 3 must overtrump with a higher hearts (has 7H)",
    );
    assert_eq!(legal_cards(&d), cards("10H KH QH 8H 7H"));
    play(&mut d, 3, "7H");
    // The highest trump wins, even the 7 against the ace of the led suit.
    assert_eq!(d.to_act(), Some(3));
}

#[test]
fn refusals_name_turn_and_hand() {
    let mut d = bazar(LAYOUT_1, "8 H", false);
    refuse_card(&mut d, 1, "7S", "it is seat 0's turn, not seat 1's");
    refuse_card(&mut d, 0, "7S", "seat 0 does not hold 7S");
    refuse(
        &mut d,
        0,
        Action::Bid(Bid::Pass),
        "seat 0 must play a card: the bidding is over",
    );
}

/// Seat 0 holds every club; seat 1 no clubs, no trumps; seat 2 the 10 of trumps; seat 3 the
/// other trumps.
const LAYOUT_3: [&str; 4] = [
    "AC 10C KC QC JC 9C 8C 7C",
    "AS AD 10D KD QD JD 9D 8D",
    "10H 7S 8S 9S 10S JS QS KS",
    "JH 9H AH KH QH 8H 7H 7D",
];

#[test]
fn void_must_play_a_trump_higher_than_every_trump_in_the_trick() {
    let mut d = bazar(LAYOUT_3, "8 H", false);
    play(&mut d, 0, "7C");
    // Void and no trump: any card.
    assert_eq!(legal_cards(&d), cards(LAYOUT_3[1]));
    play(&mut d, 1, "8D");
    play(&mut d, 2, "10H");
    assert_eq!(legal_cards(&d), cards("JH 9H AH"));
    refuse_card(
        &mut d,
        3,
        "7H",
        "seat 3 must overtrump with a higher hearts (has 9H)",
    );
    refuse_card(
        &mut d,
        3,
        "7D",
        "seat 3 must overtrump with a higher hearts (has 9H)",
    );
    play(&mut d, 3, "AH");
    assert_eq!(d.to_act(), Some(3));
}

/// Like layout 3, but seat 2 holds the jack of trumps, which seat 3 cannot beat.
const LAYOUT_2: [&str; 4] = [
    "AC 10C KC QC JC 9C 8C 7C",
    "AS AD 10D KD QD JD 9D 8D",
    "JH 7S 8S 9S 10S JS QS KS",
    "9H AH 10H KH QH 8H 7H 7D",
];

#[test]
fn void_unable_to_overtrump_plays_any_card_by_default() {
    let mut d = bazar(LAYOUT_2, "8 H", false);
    play(&mut d, 0, "7C");
    play(&mut d, 1, "8D");
    // Partner winning: seat 2 need not trump, but may.
    assert_eq!(legal_cards(&d), cards(LAYOUT_2[2]));
    play(&mut d, 2, "JH");
    assert_eq!(legal_cards(&d), cards(LAYOUT_2[3]));
    play(&mut d, 3, "7D");
}

#[test]
fn must_undertrump_makes_a_void_seat_trump_when_it_cannot_overtrump() {
    let mut d = bazar(LAYOUT_2, "8 H", true);
    play(&mut d, 0, "7C");
    play(&mut d, 1, "8D");
    assert_eq!(legal_cards(&d), cards(LAYOUT_2[2]), "partner winning");
    play(&mut d, 2, "JH");
    refuse_card(&mut d, 3, "7D", "seat 3 must play a trump, hearts (has 7H)");
    assert_eq!(legal_cards(&d), cards("9H AH 10H KH QH 8H 7H"));
    play(&mut d, 3, "7H");
}

#[test]
fn must_undertrump_does_not_apply_when_partner_is_winning() {
    // Seat 3 to play with seat 1 (its partner) winning by a trump.
    let h = [
        "AC 10C KC QC JC 9C 8C 7C",
        "JH 7S 8S 9S 10S JS QS KS",
        "AS AD 10D KD QD JD 9D 8D",
        "9H AH 10H KH QH 8H 7H 7D",
    ];
    let mut d = bazar(h, "8 H", true);
    play(&mut d, 0, "7C");
    play(&mut d, 1, "JH");
    play(&mut d, 2, "8D");
    assert_eq!(legal_cards(&d), cards(h[3]));
    play(&mut d, 3, "7D");
}

#[test]
fn trumps_led_must_be_beaten_even_over_the_partner() {
    let h = [
        "7H AC 10C KC QC JC 9C 8C",
        "7C AS 10S KS QS JS 9S 8S",
        "8H 9H 7S AD 10D KD QD JD",
        "JH AH 10H KH QH 9D 8D 7D",
    ];
    let mut d = bazar(h, "8 H", false);
    play(&mut d, 0, "7H");
    // No trump: any card.
    assert_eq!(legal_cards(&d), cards(h[1]));
    play(&mut d, 1, "7C");
    refuse_card(
        &mut d,
        2,
        "7S",
        "seat 2 must beat the highest card in hearts (has 8H)",
    );
    assert_eq!(legal_cards(&d), cards("8H 9H"));
    play(&mut d, 2, "8H");
    refuse_card(
        &mut d,
        3,
        "9D",
        "seat 3 must beat the highest card in hearts (has 10H)",
    );
    play(&mut d, 3, "QH");
}

#[test]
fn trumps_led_unable_to_beat_plays_any_trump() {
    let h = [
        "9H AC 10C KC QC JC 9C 8C",
        "7C AS 10S KS QS JS 9S 8S",
        "8H 7H 7S AD 10D KD QD JD",
        "JH AH 10H KH QH 9D 8D 7D",
    ];
    let mut d = bazar(h, "8 H", false);
    play(&mut d, 0, "9H");
    play(&mut d, 1, "7C");
    refuse_card(&mut d, 2, "7S", "seat 2 must follow hearts (has 7H)");
    assert_eq!(legal_cards(&d), cards("8H 7H"));
    play(&mut d, 2, "8H");
    refuse_card(
        &mut d,
        3,
        "AH",
        "seat 3 must beat the highest card in hearts (has JH)",
    );
    play(&mut d, 3, "JH");
    assert_eq!(d.to_act(), Some(3));
}

#[test]
fn no_trump_follows_suit_and_the_highest_of_the_led_suit_wins() {
    let mut d = bazar(LAYOUT_1, "8 NT", false);
    play(&mut d, 0, "10S");
    refuse_card(&mut d, 1, "KD", "seat 1 must follow spades (has 7S)");
    play(&mut d, 1, "QS");
    // Void: any card, no obligation to play hearts (there are no trumps).
    assert_eq!(legal_cards(&d), cards(LAYOUT_1[2]));
    play(&mut d, 2, "JH");
    assert_eq!(legal_cards(&d), cards(LAYOUT_1[3]));
    play(&mut d, 3, "10H");
    assert_eq!(d.to_act(), Some(0), "10S is the highest spade played");
}

#[test]
fn all_trumps_must_beat_the_led_suit_and_only_the_led_suit_wins() {
    // Coinche, dealer 1: seat 0 bids and leads; play is counter-clockwise 0, 3, 2, 1.
    let o = Options::default_for(Variant::Coinche);
    let mut d = Deal::from_hands(Variant::Coinche, o, 1, &hands(LAYOUT_1), None, &[]).unwrap();
    for (s, b) in [(0, "80 AT"), (3, "pass"), (2, "pass"), (1, "pass")] {
        say(&mut d, s, b);
    }
    play(&mut d, 0, "AS");
    assert_eq!(legal_cards(&d), cards(LAYOUT_1[3]), "void: any card");
    play(&mut d, 3, "10H");
    play(&mut d, 2, "JH");
    refuse_card(
        &mut d,
        1,
        "QS",
        "seat 1 must beat the highest card in spades (has 9S)",
    );
    assert_eq!(legal_cards(&d), cards("9S JS"));
    play(&mut d, 1, "JS");
    assert_eq!(d.to_act(), Some(1), "JS is the highest spade in all trumps");
    // Nobody can beat the jack of diamonds: any diamond goes, but a diamond it must be.
    play(&mut d, 1, "JD");
    refuse_card(&mut d, 0, "AC", "seat 0 must follow diamonds (has 7D)");
}

#[test]
fn view_shows_own_hand_and_public_cards_only() {
    let mut d = bazar(LAYOUT_1, "8 H", false);
    play(&mut d, 0, "AS");
    let v = d.view(1);
    assert_eq!(v.hand, cards(LAYOUT_1[1]));
    assert_eq!(v.trick.as_slice(), &[(0, card("AS"))]);
    assert_eq!(v.to_act, Some(1));
    assert!(!v.legal.is_empty());
    assert!(d.view(2).legal.is_empty(), "not seat 2's turn");
    assert_eq!(d.view(2).hand, cards(LAYOUT_1[2]));
    assert_eq!(
        v.contract.map(|c| c.mode),
        Some(Mode::Trump(stikis_core::Suit::Hearts))
    );
    // Nobody has announced yet; seat 0's announcements appear once it has played.
    assert!(v.announced.iter().all(|(s, _)| *s == 0));
    assert!(v.declared.is_none(), "the first trick is not over");
}

// ---------------------------------------------------------------------------------------------
// Bidding

fn fresh(v: Variant, dealer: Seat) -> Deal {
    let d = Deal::shuffled(v, Options::default_for(v), dealer, stikis_core::Seed::from_u64(5));
    assert_eq!(d.phase(), Phase::Bidding);
    d
}

fn refuse_bid(d: &mut Deal, seat: Seat, bid: &str, why: &str) {
    let b = Bid::parse(d.variant(), bid).unwrap_or_else(|| panic!("bad bid {bid}"));
    refuse(
        d,
        seat,
        Action::Bid(b),
        &format!("seat {seat} cannot say {bid}: {why}"),
    );
}

#[test]
fn bazar_bids_rise_from_8_with_capot_above_25() {
    let mut d = fresh(Variant::Bazar, 3);
    refuse_bid(&mut d, 0, "7 H", "bids start at 80 points");
    refuse_bid(&mut d, 0, "contra", "there is no bid to double");
    refuse_bid(&mut d, 0, "25 H capot", "capot is bid only above 25");
    refuse_bid(&mut d, 0, "51 H", "that bid is above the highest bid");
    say(&mut d, 0, "9 H");
    refuse_bid(&mut d, 1, "9 S", "a bid must be higher than the last bid");
    refuse_bid(&mut d, 1, "recontra", "redoubling needs a double first");
    say(&mut d, 1, "26 S capot");
    refuse_bid(&mut d, 2, "27 H", "after a capot bid only capot may be bid");
    say(&mut d, 2, "27 NT capot");
    say(&mut d, 3, "pass");
    refuse_bid(
        &mut d,
        0,
        "contra",
        "only an opponent of the last bid may double it",
    );
    say(&mut d, 0, "pass");
    say(&mut d, 1, "contra");
    refuse_bid(&mut d, 2, "28 H capot", "no new bid after a double");
    refuse(
        &mut d,
        3,
        Action::Bid(Bid::Pass),
        "it is seat 2's turn, not seat 3's",
    );
}

#[test]
fn bazar_contra_then_three_passes_ends_and_recontra_ends_at_once() {
    let mut d = fresh(Variant::Bazar, 3);
    say(&mut d, 0, "10 D");
    say(&mut d, 1, "contra");
    for s in [2, 3] {
        say(&mut d, s, "pass");
    }
    assert_eq!(d.phase(), Phase::Bidding);
    say(&mut d, 0, "pass");
    assert_eq!(d.phase(), Phase::Play);
    let c = d.contract().unwrap();
    assert_eq!((c.tens, c.declarer, c.doubled), (10, 0, 1));

    let mut d = fresh(Variant::Bazar, 3);
    say(&mut d, 0, "10 D");
    say(&mut d, 1, "contra");
    refuse_bid(&mut d, 2, "contra", "the bid is already doubled");
    say(&mut d, 2, "recontra");
    assert_eq!(d.phase(), Phase::Play);
    assert_eq!(d.contract().unwrap().doubled, 2);
    assert_eq!(d.to_act(), Some(0), "the player after the dealer leads");
}

#[test]
fn bazar_recontra_is_for_the_bidding_team_only() {
    let mut d = fresh(Variant::Bazar, 3);
    say(&mut d, 0, "10 D");
    say(&mut d, 1, "contra");
    say(&mut d, 2, "pass");
    refuse_bid(&mut d, 3, "recontra", "only the bidding team may redouble");
}

#[test]
fn four_passes_redeal_in_bazar_and_coinche() {
    for v in [Variant::Bazar, Variant::Coinche] {
        let mut d = fresh(v, 0);
        let mut s = v.next(0);
        for _ in 0..4 {
            say(&mut d, s, "pass");
            s = v.next(s);
        }
        assert_eq!(d.phase(), Phase::Done);
        assert!(d.contract().is_none());
        assert!(d.to_act().is_none());
    }
}

#[test]
fn coinche_bids_from_80_to_160_then_capot_counter_clockwise() {
    let mut d = fresh(Variant::Coinche, 0);
    // The player to the dealer's right (seat 3) speaks first.
    assert_eq!(d.to_act(), Some(3));
    refuse_bid(&mut d, 3, "70 H", "bids start at 80 points");
    refuse_bid(&mut d, 3, "170 H", "bids go up to 160, then capot");
    say(&mut d, 3, "80 AT");
    assert_eq!(d.to_act(), Some(2));
    refuse_bid(&mut d, 2, "80 NT", "a bid must be higher than the last bid");
    say(&mut d, 2, "160 NT");
    say(&mut d, 1, "capot S");
    refuse_bid(&mut d, 0, "capot H", "a bid must be higher than the last bid");
    say(&mut d, 0, "coinche");
    say(&mut d, 3, "surcoinche");
    let c = d.contract().unwrap();
    assert_eq!((c.declarer, c.doubled, c.capot), (1, 2, true));
    assert_eq!(c.describe(Variant::Coinche), "capot S");
    assert_eq!(d.to_act(), Some(3));
    assert!(Bid::parse(Variant::Coinche, "contra").is_none());
    assert!(Bid::parse(Variant::Coinche, "85 H").is_none());
    assert!(Bid::parse(Variant::Bazar, "8 AT").is_none());
}

#[test]
fn classic_takes_in_round_one_and_names_any_suit_in_round_two() {
    let mut d = fresh(Variant::Classic, 3);
    let turned = d.turned().unwrap();
    refuse_bid(&mut d, 0, "H", "a suit is named only in the second round");
    for s in 0..4 {
        say(&mut d, s, "pass");
    }
    refuse_bid(
        &mut d,
        0,
        "take",
        "the turned card is taken only in the first round",
    );
    say(&mut d, 0, "pass");
    let suit = turned.suit().unwrap();
    say(&mut d, 1, &suit.to_string());
    let c = d.contract().unwrap();
    assert_eq!(c.describe(Variant::Classic), format!("take {suit}"));
    assert_eq!(d.phase(), Phase::Play);
    // The taker got the turned card and 2 of the stock, everybody else 3.
    assert!(d.hand(1).contains(turned));
    for s in 0..4 {
        assert_eq!(d.hand(s).len(), 8, "seat {s}");
    }
    assert_eq!(d.to_act(), Some(0));
}

#[test]
fn classic_and_h2h_redeal_after_two_rounds_of_passes() {
    for v in [Variant::Classic, Variant::HeadToHead] {
        let mut d = fresh(v, 0);
        let mut s = v.next(0);
        for _ in 0..2 * v.seats() {
            say(&mut d, s, "pass");
            s = v.next(s);
        }
        assert_eq!(d.phase(), Phase::Done, "{v}");
        assert!(d.contract().is_none());
    }
}

#[test]
fn h2h_deals_nine_cards_after_the_take() {
    let mut d = fresh(Variant::HeadToHead, 0);
    let turned = d.turned().unwrap();
    assert_eq!(d.hand(1).len(), 6);
    say(&mut d, 1, "take");
    assert!(d.hand(1).contains(turned));
    assert_eq!(d.hand(0).len(), 9);
    assert_eq!(d.hand(1).len(), 9);
    assert_eq!(d.to_act(), Some(1), "the non-dealer leads");
}

#[test]
fn classic_stock_goes_2_to_the_taker_3_to_the_others_and_belote_counts_after_it() {
    let v = Variant::Classic;
    let h = [
        "AS 10S KS KH JS",
        "AH 10H QS JH 9H",
        "AD 10D KD QD JD",
        "AC 10C KC QC JC",
    ];
    let stock: Vec<stikis_core::Card> = "QH 8H 9S 8S 7S 9D 8D 7D 9C 8C 7C".split(' ').map(card).collect();
    let hs: Vec<CardSet> = h.iter().map(|s| cards(s)).collect();
    let mut d = Deal::from_hands(v, Options::default_for(v), 3, &hs, Some(card("7H")), &stock).unwrap();
    say(&mut d, 0, "take");
    // Packets start with the player after the dealer: the taker (seat 0) 2, the others 3.
    assert_eq!(d.hand(0), cards("AS 10S KS KH JS 7H QH 8H"));
    assert_eq!(d.hand(1), cards("AH 10H QS JH 9H 9S 8S 7S"));
    assert_eq!(d.hand(2), cards("AD 10D KD QD JD 9D 8D 7D"));
    assert_eq!(d.hand(3), cards("AC 10C KC QC JC 9C 8C 7C"));
    // The queen of trumps came with the stock: belote counts from the hand after it.
    assert_eq!(d.declared().belote, [20, 0]);
    assert_eq!(d.to_act(), Some(0));
}

#[test]
fn explicit_hands_are_checked() {
    let v = Variant::Bazar;
    let o = Options::default_for(v);
    let mut h = hands(LAYOUT_1);
    assert!(Deal::from_hands(v, o, 4, &h, None, &[]).is_err());
    h[0] = cards("AS 10S KS AD 10D AC 10C 7S");
    let e = Deal::from_hands(v, o, 0, &h, None, &[]).unwrap_err();
    assert_eq!(e.to_string(), "7S is dealt twice");
    h[0] = cards("AS 10S KS AD 10D AC 10C 2D");
    let e = Deal::from_hands(v, o, 0, &h, None, &[]).unwrap_err();
    assert_eq!(e.to_string(), "2D is not a card of the 32-card pack");
    h[0] = cards("AS 10S KS AD 10D AC 10C");
    let e = Deal::from_hands(v, o, 0, &h, None, &[]).unwrap_err();
    assert_eq!(e.to_string(), "seat 0 must be dealt 8 cards, not 7");
    let e = Deal::from_hands(Variant::Classic, o, 0, &hands(LAYOUT_1), None, &[]).unwrap_err();
    assert_eq!(e.to_string(), "seat 0 must be dealt 5 cards, not 8");
}
