//! The `basic` Belote player: rules of thumb a club player would teach. Hand value for the
//! bids (trump J and 9, aces, guarded tens, length, belote, combinations), doubling only with a
//! strong defence; in the play, card counting from the seat's view (which cards are masters,
//! who has shown a void), never overtaking a partner who surely wins, feeding points to a
//! partner's trick, drawing trumps as declarer, and discarding the cheapest card.

use rand::RngCore;

use crate::ai::{Budget, Level, Player};
use crate::cards::{Card, CardSet, Rank, Suit, PIQUET_PACK};
use crate::game::Seat;
use crate::games::belote::bazar::{CAPOT_ABOVE, MAX_COINCHE_TENS, MIN_TENS};
use crate::games::belote::combos;
use crate::games::belote::play::{piquet_suit, Tables};
use crate::games::belote::{Action, Bid, Mode, Phase, SeatView, Variant};

/// What a partner brings on average, in points, to the estimate of a team's total.
pub const PARTNER_POINTS: i32 = 22;
/// Estimated own-side points at which a take/pass seat takes (the takers must beat 81).
pub const TAKE_POINTS: i32 = 86;
/// The suit modes, then no trump and all trumps.
pub const MODES: [Mode; 6] = [
    Mode::Trump(Suit::Clubs),
    Mode::Trump(Suit::Diamonds),
    Mode::Trump(Suit::Hearts),
    Mode::Trump(Suit::Spades),
    Mode::NoTrump,
    Mode::AllTrumps,
];

pub fn suit_of(c: Card) -> Suit {
    Suit::from_index(c.index() / 13)
}

fn has(hand: CardSet, r: Rank, s: Suit) -> bool {
    hand.contains(Card::new(r, s))
}

/// What a hand is worth, in points its side can expect to take, if it plays mode `m` as the
/// bidding side (or, for a defender, how much of `m` it can hold off): trump jack and nine,
/// aces and guarded tens, trump length, voids once there are trumps to ruff, belote and
/// combinations.
pub fn hand_value(hand: CardSet, m: Mode) -> i32 {
    let mut v = 0;
    match m {
        Mode::Trump(t) => {
            let trumps = hand.intersect(piquet_suit(t));
            let n = trumps.len() as i32;
            let j = has(hand, Rank::Jack, t);
            if j {
                v += 25;
            }
            if has(hand, Rank::Nine, t) {
                v += if j || n >= 3 { 17 } else { 9 };
            }
            if has(hand, Rank::Ace, t) {
                v += 13;
            }
            if has(hand, Rank::Ten, t) {
                v += 10;
            }
            for r in [Rank::King, Rank::Queen, Rank::Eight, Rank::Seven] {
                if has(hand, r, t) {
                    v += 5;
                }
            }
            if n >= 4 {
                v += (n - 3) * 8;
            }
            for s in Suit::ALL {
                if s == t {
                    continue;
                }
                let side = hand.intersect(piquet_suit(s));
                v += plain_suit_value(side, false);
                if side.is_empty() && n >= 3 {
                    v += 6;
                }
            }
        }
        Mode::NoTrump => {
            for s in Suit::ALL {
                v += plain_suit_value(hand.intersect(piquet_suit(s)), true);
            }
        }
        Mode::AllTrumps => {
            for s in Suit::ALL {
                let j = has(hand, Rank::Jack, s);
                let n = hand.intersect(piquet_suit(s)).len();
                if j {
                    v += 20;
                }
                if has(hand, Rank::Nine, s) {
                    v += if j {
                        13
                    } else if n >= 3 {
                        7
                    } else {
                        2
                    };
                }
                if has(hand, Rank::Ace, s) && (j || n >= 3) {
                    v += 5;
                }
            }
        }
    }
    v += 20 * combos::belotes(hand, m) as i32;
    // Combinations count only for the side with the strongest one: count half of them.
    let combos: u32 = combos::find(hand).iter().map(|c| c.points(m)).sum();
    v + combos as i32 / 2
}

/// One plain suit's worth: the ace, a ten guarded by the ace or by length, long suits headed
/// by the ace in no trump.
fn plain_suit_value(cards: CardSet, no_trump: bool) -> i32 {
    let Some(s) = cards.first().map(suit_of) else {
        return 0;
    };
    let a = has(cards, Rank::Ace, s);
    let ten = has(cards, Rank::Ten, s);
    let n = cards.len() as i32;
    let mut v = 0;
    if a {
        v += if no_trump { 24 } else { 15 };
    }
    if ten {
        v += if a {
            12
        } else if n >= 3 {
            4
        } else {
            0
        };
    }
    if a && ten && has(cards, Rank::King, s) {
        v += 4;
    }
    if no_trump && a && n >= 4 {
        v += (n - 3) * 6;
    }
    v
}

/// The best mode for a hand among `modes` and its estimated side total (partner included).
fn best_mode(hand: CardSet, modes: &[Mode], partner: i32) -> (Mode, i32) {
    let mut best = (modes[0], i32::MIN);
    for &m in modes {
        let e = hand_value(hand, m) + partner;
        if e > best.1 {
            best = (m, e);
        }
    }
    best
}

/// The bid rules of thumb for every variant.
pub fn choose_bid(v: &SeatView) -> Bid {
    let allowed = |b: Bid| v.legal.contains(&Action::Bid(b));
    let var = v.variant;
    let partner = if var.seats() == 4 { PARTNER_POINTS } else { 0 };
    match var {
        Variant::Classic | Variant::HeadToHead => {
            let turned = v.turned.map(CardSet::single).unwrap_or_default();
            // Cards still to come after the take (2 for the taker): worth a few points.
            let coming = 8;
            let need = if var.seats() == 4 {
                TAKE_POINTS
            } else {
                TAKE_POINTS - 6
            };
            if allowed(Bid::Take) {
                let t = v.turned.map(suit_of).unwrap_or(Suit::Clubs);
                let e = hand_value(v.hand | turned, Mode::Trump(t)) + partner + coming;
                if e >= need {
                    return Bid::Take;
                }
                return Bid::Pass;
            }
            let mut best = (Bid::Pass, need - 1);
            for s in Suit::ALL {
                let e = hand_value(v.hand | turned, Mode::Trump(s)) + partner + coming;
                if allowed(Bid::Name(s)) && e > best.1 {
                    best = (Bid::Name(s), e);
                }
            }
            best.0
        }
        Variant::Bazar | Variant::Coinche => {
            let coinche = var == Variant::Coinche;
            let modes: &[Mode] = if coinche { &MODES } else { &MODES[..5] };
            let (mode, est) = best_mode(v.hand, modes, partner);
            let my_team = var.team(v.seat);
            if let Some((tens, hm, _capot, hs)) = v.high_bid {
                let ours = var.team(hs) == my_team;
                // Redouble a doubled contract of ours only with a clear surplus.
                let redouble = if coinche { Bid::Surcoinche } else { Bid::Recontra };
                if ours && allowed(redouble) {
                    let e = hand_value(v.hand, hm) + partner;
                    return if e >= tens as i32 * 10 + 30 {
                        redouble
                    } else {
                        Bid::Pass
                    };
                }
                let double = if coinche { Bid::Coinche } else { Bid::Contra };
                if !ours && allowed(double) {
                    // Their bid needs 10x; we hold them if our defence takes the rest.
                    let def = hand_value(v.hand, hm) + partner;
                    if def + 10 * tens as i32 >= 162 + 40 {
                        return double;
                    }
                }
                if ours {
                    // Partner holds the contract: only take over with a clearly better mode.
                    let partner_est = tens as i32 * 10;
                    if mode != hm && est >= partner_est + 40 {
                        return lowest_bid(v, mode, est).unwrap_or(Bid::Pass);
                    }
                    return Bid::Pass;
                }
            }
            lowest_bid(v, mode, est).unwrap_or(Bid::Pass)
        }
    }
}

/// The lowest legal bid in `mode` if the estimate `est` (points) reaches it.
fn lowest_bid(v: &SeatView, mode: Mode, est: i32) -> Option<Bid> {
    let from = v.high_bid.map_or(MIN_TENS, |h| h.0 + 1);
    let coinche = v.variant == Variant::Coinche;
    if from > if coinche { MAX_COINCHE_TENS } else { CAPOT_ABOVE } {
        return None;
    }
    if est < from as i32 * 10 {
        return None;
    }
    let bid = if coinche {
        Bid::Points { tens: from, mode }
    } else {
        Bid::Tens {
            tens: from,
            mode,
            capot: false,
        }
    };
    v.legal.contains(&Action::Bid(bid)).then_some(bid)
}

/// What the seat can tell from its view in the play: the mode's tables, the cards it has not
/// seen (others' hands, or unused), who has shown a void in which suit.
pub struct PlayInfo {
    pub tables: Tables,
    pub unseen: CardSet,
    /// Per seat, bit `s` set: that seat showed it holds no card of suit `s`.
    pub void: [u8; 4],
    pub seats: usize,
}

impl PlayInfo {
    pub fn new(v: &SeatView) -> PlayInfo {
        let mode = v.contract.map_or(Mode::NoTrump, |c| c.mode);
        let tables = Tables::new(mode);
        let mut seen = v.hand;
        let mut void = [0u8; 4];
        let mut note = |cards: &[(Seat, Card)]| {
            if let Some(&(_, led)) = cards.first() {
                let ls = suit_of(led);
                for &(s, c) in cards {
                    seen.insert(c);
                    if suit_of(c) != ls {
                        void[s as usize & 3] |= 1 << ls as u8;
                    }
                }
            }
        };
        let n = v.variant.seats();
        for t in &v.tricks {
            let mut cards = arrayvec::ArrayVec::<(Seat, Card), 4>::new();
            let mut s = t.leader;
            for &c in &t.cards[..t.len as usize] {
                cards.push((s, c));
                s = v.variant.next(s);
            }
            note(&cards);
        }
        note(&v.trick);
        PlayInfo {
            tables,
            unseen: PIQUET_PACK.minus(seen),
            void,
            seats: n,
        }
    }

    /// No unseen card of `c`'s suit ranks above it.
    pub fn is_master(&self, c: Card) -> bool {
        let o = self.tables.order(c);
        !self
            .unseen
            .intersect(piquet_suit(suit_of(c)))
            .iter()
            .any(|x| self.tables.order(x) > o)
    }

    pub fn is_trump(&self, c: Card) -> bool {
        self.tables.trumps.contains(c)
    }

    pub fn unseen_trumps(&self) -> CardSet {
        self.unseen.intersect(self.tables.trumps)
    }
}

/// The card rules of thumb.
pub fn choose_play(v: &SeatView) -> Card {
    let legal: CardSet = v
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(*c),
            _ => None,
        })
        .collect();
    let fallback = legal.first().unwrap_or(Card::JOKER);
    if legal.len() <= 1 {
        return fallback;
    }
    let info = PlayInfo::new(v);
    let t = &info.tables;
    let var = v.variant;
    let me = v.seat;
    let Some(&(_, led_card)) = v.trick.first() else {
        return lead(v, &info, legal);
    };
    let led = suit_of(led_card);
    let cards: arrayvec::ArrayVec<Card, 4> = v.trick.iter().map(|x| x.1).collect();
    let bi = t.winner(&cards);
    let (best_seat, best) = v.trick[bi];
    let partner_wins = info.seats == 4 && var.team(best_seat) == var.team(me);
    let last = v.trick.len() + 1 == info.seats;
    let beats = |c: Card| t.strength(c, led) > t.strength(best, led);
    let winners: CardSet = legal.iter().filter(|&c| beats(c)).collect();
    let trick_pts: u32 = cards.iter().map(|&c| t.points(c)).sum();
    // Throwaway order: fewest points, plain before trump, lowest rank; keep masters.
    let cheap = |set: CardSet| {
        set.iter()
            .min_by_key(|&c| {
                (
                    info.is_master(c) && t.points(c) > 0,
                    t.points(c),
                    info.is_trump(c),
                    t.order(c),
                )
            })
            .unwrap_or(fallback)
    };
    if partner_wins {
        // The opponent still to play can only take it by ruffing a suit he is void in.
        let next = var.next(me);
        let may_ruff = info.void[next as usize & 3] >> led as u8 & 1 == 1;
        let sure = last
            || (info.is_master(best)
                && (info.is_trump(best) || info.unseen_trumps().is_empty() || !may_ruff));
        if sure {
            // Feed points, but not a master that makes a trick of its own, nor a top trump.
            let feed = legal
                .iter()
                .filter(|&c| {
                    let keep = info.is_master(c) || (info.is_trump(c) && t.order(c) >= 6);
                    !keep
                })
                .max_by_key(|&c| (t.points(c), std::cmp::Reverse(t.order(c))));
            return feed.unwrap_or_else(|| cheap(legal));
        }
        return cheap(legal);
    }
    if !winners.is_empty() {
        if last {
            // The trick is mine whatever I play: the most points, but no trump wasted.
            return winners
                .iter()
                .max_by_key(|&c| {
                    if info.is_trump(c) && t.mode != Mode::AllTrumps {
                        -(t.order(c) as i32)
                    } else {
                        100 + t.points(c) as i32
                    }
                })
                .unwrap_or(fallback);
        }
        // A master of the led suit wins for sure (unless someone ruffs).
        let masters: CardSet = winners.iter().filter(|&c| info.is_master(c)).collect();
        if let Some(c) = masters.iter().max_by_key(|&c| t.points(c)) {
            if info.is_trump(c) || info.unseen_trumps().is_empty() || trick_pts >= 10 {
                return c;
            }
        }
        // Ruff with the lowest trump that wins.
        let ruffs: CardSet = winners
            .iter()
            .filter(|&c| info.is_trump(c) && suit_of(c) != led)
            .collect();
        if let Some(c) = ruffs.iter().min_by_key(|&c| t.order(c)) {
            return c;
        }
        if trick_pts >= 10 {
            if let Some(c) = winners.iter().min_by_key(|&c| t.order(c)) {
                return c;
            }
        }
    }
    cheap(legal)
}

/// The opening card of a trick.
fn lead(v: &SeatView, info: &PlayInfo, legal: CardSet) -> Card {
    let t = &info.tables;
    let var = v.variant;
    let fallback = legal.first().unwrap_or(Card::JOKER);
    let declaring = v
        .contract
        .is_some_and(|c| var.team(c.declarer) == var.team(v.seat));
    let i_declare = v.contract.is_some_and(|c| c.declarer == v.seat);
    let my_trumps = legal.intersect(t.trumps);
    let out_trumps = info.unseen_trumps();
    if let Mode::Trump(_) = t.mode {
        if declaring && !my_trumps.is_empty() && !out_trumps.is_empty() {
            if let Some(c) = my_trumps.iter().find(|&c| info.is_master(c)) {
                return c;
            }
            if i_declare && my_trumps.len() >= 3 {
                return my_trumps.iter().min_by_key(|&c| t.order(c)).unwrap_or(fallback);
            }
        }
    }
    // Cash a master in a suit nobody is known to ruff.
    let opp_void = |c: Card| {
        (0..info.seats as Seat)
            .filter(|&s| var.team(s) != var.team(v.seat))
            .any(|s| info.void[s as usize] >> suit_of(c) as u8 & 1 == 1)
    };
    let masters = legal.iter().filter(|&c| {
        info.is_master(c)
            && (info.is_trump(c) || out_trumps.is_empty() || !opp_void(c))
            && !(info.is_trump(c) && t.mode != Mode::AllTrumps && !declaring)
    });
    if let Some(c) = masters.max_by_key(|&c| t.points(c)) {
        return c;
    }
    // Otherwise a low card from a suit without a lone ten; defenders keep their trumps.
    legal
        .iter()
        .min_by_key(|&c| {
            let s = suit_of(c);
            let suit = legal.intersect(piquet_suit(s));
            let lone_ten = suit.len() <= 2 && has(suit, Rank::Ten, s) && !has(suit, Rank::Ace, s);
            (
                info.is_trump(c) && t.mode != Mode::AllTrumps,
                lone_ten,
                t.points(c),
                t.order(c),
            )
        })
        .unwrap_or(fallback)
}

/// The rules-of-thumb player.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basic;

impl Player<SeatView, Action> for Basic {
    fn level(&self) -> Level {
        Level::Basic
    }
    fn choose(&mut self, v: &SeatView, _rng: &mut dyn RngCore, _budget: &dyn Budget) -> Action {
        match v.phase {
            Phase::Bidding => Action::Bid(choose_bid(v)),
            _ => Action::Play(choose_play(v)),
        }
    }
}
