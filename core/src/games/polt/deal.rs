//! One Polt to Tzar hand: the exchange (one card at a time, each return an action of the
//! receiver with exactly the allowed cards legal), the Tzar naming trumps, whist play led by
//! the President in rank order, and the tricks each seat wins. New ranks are the session's
//! business (`super::next_ranks`).

use std::fmt;

use arrayvec::ArrayVec;

use super::play::TrumpOrder;
use super::{hand_size, is_rank_order, Options, RankOrder, MAX_SEATS};
use crate::cards::{suit_mask, Card, CardSet, Suit, PACK_WITH_JOKER};
use crate::game::{ActionList, Game, Seat, Seed};

/// Longest hand plus the received card, or the four suits.
pub const MAX_ACTIONS: usize = 16;
/// Longest deal: 3 gives, 3 returns, trumps, and 50 plays (5 players with 10 cards).
pub const MAX_LOG: usize = 57;
/// Cards the Tzar gives to the Polt, then the President to the Lower Class.
const EXCHANGE_STEPS: u8 = 3;

/// One move in a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// The Tzar or the President hands a card to the Polt or the Lower Class.
    Give(Card),
    /// The receiver hands back his highest card of the given card's suit.
    Return(Card),
    /// The Tzar names trumps.
    Trump(Suit),
    Play(Card),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Give(c) => write!(f, "give {c}"),
            Action::Return(c) => write!(f, "return {c}"),
            Action::Trump(s) => write!(f, "trump {s}"),
            Action::Play(c) => write!(f, "play {c}"),
        }
    }
}

/// Where a hand is. The exchange steps are 0 and 1 (Tzar to Polt) and 2 (President to Lower
/// Class).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Give { step: u8 },
    Return { step: u8, received: Card },
    Trump,
    Play,
    Over,
}

/// The phase as every seat may see it (a `Return` hides the card in transit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Exchange,
    Trump,
    Play,
    Over,
}

/// What the seat to act is expected to do, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Give,
    Return,
    Trump,
    Play,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Give => "give a card",
            Expected::Return => "return a card",
            Expected::Trump => "name trumps",
            Expected::Play => "play a card",
        })
    }
}

/// An action `apply` refused; the hand is unchanged. Display names the broken rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("the hand is over")]
    Over,
    #[error("it is seat {to_act}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, to_act: Seat },
    #[error("seat {seat} must {expected} now")]
    WrongAction { seat: Seat, expected: Expected },
    #[error("seat {seat} does not hold {card}")]
    NotHeld { seat: Seat, card: Card },
    #[error("seat {seat} must return {}", return_rule(*received, *allowed))]
    MustReturn {
        seat: Seat,
        received: Card,
        allowed: CardSet,
    },
    #[error("seat {seat} must follow {} (has {has})", suit_words(*suit, *trump))]
    MustFollow {
        seat: Seat,
        suit: Suit,
        trump: Suit,
        has: CardSet,
    },
}

fn return_rule(received: Card, allowed: CardSet) -> String {
    match received.suit() {
        Some(s) => format!("the highest of {} ({allowed})", s.name()),
        None => format!("one of the highest cards for the joker ({allowed})"),
    }
}

fn suit_words(suit: Suit, trump: Suit) -> String {
    if suit == trump {
        format!("trumps, {}", suit.name())
    } else {
        suit.name().to_string()
    }
}

/// A hand that cannot be dealt as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("Polt to Tzar is for 5 to 7 players, not {0}")]
    Seats(usize),
    #[error("the ranks must list each of the {seats} seats once, from Tzar to Polt")]
    Ranks { seats: usize },
    #[error("there must be one hand per seat ({seats}), not {hands}")]
    HandCount { seats: usize, hands: usize },
    #[error("seat {seat} must be dealt {size} cards, not {got}")]
    HandSize { seat: Seat, size: usize, got: usize },
    #[error("{0} is dealt twice")]
    Twice(Card),
}

/// One card of the exchange: who gave what to whom, and what came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exchange {
    pub giver: Seat,
    pub receiver: Seat,
    pub given: Card,
    pub returned: Option<Card>,
}

/// One card of the exchange as a seat sees it: the cards are shown only to the giver and
/// the receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExchangeView {
    pub giver: Seat,
    pub receiver: Seat,
    pub given: Option<Card>,
    pub returned: Option<Card>,
}

/// A finished trick: the cards in the order played, and who took it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trick {
    pub cards: ArrayVec<(Seat, Card), MAX_SEATS>,
    pub winner: Seat,
}

/// One hand, from the exchange to the last trick.
#[derive(Debug, Clone)]
pub struct Deal {
    options: Options,
    ranks: RankOrder,
    /// `rank_of[seat]` is the seat's index in `ranks`.
    rank_of: [u8; MAX_SEATS],
    dealt: [CardSet; MAX_SEATS],
    hands: [CardSet; MAX_SEATS],
    phase: Phase,
    exchange: ArrayVec<Exchange, 3>,
    trump: Option<Suit>,
    leader: Seat,
    trick: ArrayVec<(Seat, Card), MAX_SEATS>,
    tricks: ArrayVec<Trick, 10>,
    won: [u8; MAX_SEATS],
    log: ArrayVec<(Seat, Action), MAX_LOG>,
}

/// Everything one seat may see of a hand. The host and the computer players look at a hand
/// only through this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    pub seat: Seat,
    pub ranks: RankOrder,
    pub hand: CardSet,
    pub stage: Stage,
    /// The exchange so far.
    pub exchange: Vec<ExchangeView>,
    pub trump: Option<Suit>,
    pub trick: Vec<(Seat, Card)>,
    pub tricks: Vec<Trick>,
    /// Tricks won so far, per seat.
    pub won: Vec<u8>,
    pub to_act: Option<Seat>,
    pub legal: ActionList<Action, MAX_ACTIONS>,
}

impl Deal {
    /// A hand with the cards given per seat (as a record lists them). The unused cards are
    /// whatever of the 53-card pack is not in a hand.
    pub fn new(options: Options, ranks: &[Seat], hands: &[CardSet]) -> Result<Deal, DealError> {
        let seats = ranks.len();
        let size = hand_size(seats).ok_or(DealError::Seats(seats))?;
        if !is_rank_order(ranks, seats) {
            return Err(DealError::Ranks { seats });
        }
        if hands.len() != seats {
            return Err(DealError::HandCount {
                seats,
                hands: hands.len(),
            });
        }
        let mut seen = CardSet::EMPTY;
        let mut dealt = [CardSet::EMPTY; MAX_SEATS];
        for (seat, &h) in hands.iter().enumerate() {
            if let Some(c) = (seen & h).first() {
                return Err(DealError::Twice(c));
            }
            if h.len() as usize != size {
                return Err(DealError::HandSize {
                    seat: seat as Seat,
                    size,
                    got: h.len() as usize,
                });
            }
            debug_assert!(h.is_subset(PACK_WITH_JOKER));
            seen |= h;
            dealt[seat] = h;
        }
        let mut rank_of = [0u8; MAX_SEATS];
        for (r, &s) in ranks.iter().enumerate() {
            rank_of[s as usize] = r as u8;
        }
        Ok(Deal {
            options,
            ranks: ranks.iter().copied().collect(),
            rank_of,
            dealt,
            hands: dealt,
            phase: Phase::Give { step: 0 },
            exchange: ArrayVec::new(),
            trump: None,
            leader: ranks[1],
            trick: ArrayVec::new(),
            tricks: ArrayVec::new(),
            won: [0; MAX_SEATS],
            log: ArrayVec::new(),
        })
    }

    /// A hand shuffled from a seed: the Polt deals the shuffled pack one card at a time, in
    /// rank order from the Tzar (the seat after the Polt), until each has his hand; the rest of
    /// the pack is not used.
    pub fn from_seed(options: Options, ranks: &[Seat], seed: Seed) -> Result<Deal, DealError> {
        let seats = ranks.len();
        let size = hand_size(seats).ok_or(DealError::Seats(seats))?;
        if !is_rank_order(ranks, seats) {
            return Err(DealError::Ranks { seats });
        }
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        for (i, &c) in seed
            .shuffle(PACK_WITH_JOKER)
            .iter()
            .take(seats * size)
            .enumerate()
        {
            hands[ranks[i % seats] as usize].insert(c);
        }
        Deal::new(options, ranks, &hands[..seats])
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn seat_count(&self) -> usize {
        self.ranks.len()
    }

    pub fn hand_size(&self) -> usize {
        hand_size(self.ranks.len()).unwrap_or(0)
    }

    /// Seats from Tzar to Polt for this hand.
    pub fn ranks(&self) -> &[Seat] {
        &self.ranks
    }

    /// The seat's rank index (0 = Tzar).
    pub fn rank_of(&self, seat: Seat) -> usize {
        self.rank_of[seat as usize] as usize
    }

    pub fn tzar(&self) -> Seat {
        self.ranks[0]
    }

    pub fn president(&self) -> Seat {
        self.ranks[1]
    }

    pub fn polt(&self) -> Seat {
        self.ranks[self.ranks.len() - 1]
    }

    pub fn lower_class(&self) -> Seat {
        self.ranks[self.ranks.len() - 2]
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The cards a seat was dealt, before the exchange.
    pub fn dealt(&self, seat: Seat) -> CardSet {
        self.dealt[seat as usize]
    }

    /// The cards a seat holds now.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat as usize]
    }

    /// The cards of the pack no one was dealt.
    pub fn unused(&self) -> CardSet {
        let dealt = self.dealt[..self.seat_count()]
            .iter()
            .fold(CardSet::EMPTY, |a, &h| a | h);
        PACK_WITH_JOKER.minus(dealt)
    }

    pub fn exchange(&self) -> &[Exchange] {
        &self.exchange
    }

    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    pub fn current_trick(&self) -> &[(Seat, Card)] {
        &self.trick
    }

    pub fn tricks(&self) -> &[Trick] {
        &self.tricks
    }

    /// Tricks won per seat (so far, or in the finished hand).
    pub fn won(&self) -> &[u8] {
        &self.won[..self.seat_count()]
    }

    /// Every action applied so far, in order.
    pub fn log(&self) -> &[(Seat, Action)] {
        &self.log
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    fn giver(&self, step: u8) -> Seat {
        if step < 2 {
            self.tzar()
        } else {
            self.president()
        }
    }

    fn receiver(&self, step: u8) -> Seat {
        if step < 2 {
            self.polt()
        } else {
            self.lower_class()
        }
    }

    fn order(&self) -> TrumpOrder {
        TrumpOrder::new(self.trump.unwrap_or(Suit::Clubs), self.options.bowers)
    }

    /// The seat after `seat` in play order (rank order, the Polt followed by the Tzar).
    fn next_in_rank(&self, seat: Seat) -> Seat {
        let r = (self.rank_of(seat) + 1) % self.seat_count();
        self.ranks[r]
    }

    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Give { step } => Some(self.giver(step)),
            Phase::Return { step, .. } => Some(self.receiver(step)),
            Phase::Trump => Some(self.tzar()),
            Phase::Play => Some(match self.trick.last() {
                None => self.leader,
                Some(&(s, _)) => self.next_in_rank(s),
            }),
            Phase::Over => None,
        }
    }

    /// The cards a receiver may return for `received`, which is already in `hand`: the highest
    /// card of its printed suit by the plain order (one card), or for the joker every card of
    /// the highest plain rank among his suited cards.
    pub fn return_options(hand: CardSet, received: Card) -> CardSet {
        match received.suit() {
            Some(s) => highest(hand & suit_mask(s)),
            None => {
                let mut best = CardSet::EMPTY;
                let mut best_rank = None;
                for s in Suit::ALL {
                    if let Some(c) = highest(hand & suit_mask(s)).first() {
                        match c.rank().cmp(&best_rank) {
                            std::cmp::Ordering::Greater => {
                                best = CardSet::single(c);
                                best_rank = c.rank();
                            }
                            std::cmp::Ordering::Equal => best.insert(c),
                            std::cmp::Ordering::Less => {}
                        }
                    }
                }
                best
            }
        }
    }

    /// The cards `seat` may play now (empty unless it is his turn to play).
    fn playable(&self) -> CardSet {
        match (self.phase, self.to_act()) {
            (Phase::Play, Some(seat)) => self
                .order()
                .playable(self.hand(seat), self.trick.first().map(|&(_, c)| c)),
            _ => CardSet::EMPTY,
        }
    }

    /// Exactly the actions `apply` accepts from `to_act()` now.
    pub fn legal_actions(&self) -> ActionList<Action, MAX_ACTIONS> {
        let mut out = ActionList::new();
        match self.phase {
            Phase::Give { step } => {
                out.extend(self.hand(self.giver(step)).iter().map(Action::Give));
            }
            Phase::Return { step, received } => {
                let options = Deal::return_options(self.hand(self.receiver(step)), received);
                out.extend(options.iter().map(Action::Return));
            }
            Phase::Trump => out.extend(Suit::ALL.into_iter().map(Action::Trump)),
            Phase::Play => out.extend(self.playable().iter().map(Action::Play)),
            Phase::Over => {}
        }
        out
    }

    /// Whether `apply(seat, action)` would succeed.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), Error> {
        let to_act = self.to_act().ok_or(Error::Over)?;
        if seat != to_act {
            return Err(Error::NotYourTurn { seat, to_act });
        }
        let hand = self.hand(seat);
        let held = |card: Card| {
            if hand.contains(card) {
                Ok(())
            } else {
                Err(Error::NotHeld { seat, card })
            }
        };
        let expected = match self.phase {
            Phase::Give { .. } => Expected::Give,
            Phase::Return { .. } => Expected::Return,
            Phase::Trump => Expected::Trump,
            Phase::Play => Expected::Play,
            Phase::Over => return Err(Error::Over),
        };
        match (self.phase, action) {
            (Phase::Give { .. }, Action::Give(c)) => held(c),
            (Phase::Return { received, .. }, Action::Return(c)) => {
                held(c)?;
                let allowed = Deal::return_options(hand, received);
                if allowed.contains(c) {
                    Ok(())
                } else {
                    Err(Error::MustReturn {
                        seat,
                        received,
                        allowed,
                    })
                }
            }
            (Phase::Trump, Action::Trump(_)) => Ok(()),
            (Phase::Play, Action::Play(c)) => {
                held(c)?;
                if self.playable().contains(c) {
                    Ok(())
                } else {
                    let order = self.order();
                    let suit = order.suit_of(self.trick[0].1);
                    Err(Error::MustFollow {
                        seat,
                        suit,
                        trump: order.trump,
                        has: hand & order.cards_of(suit),
                    })
                }
            }
            _ => Err(Error::WrongAction { seat, expected }),
        }
    }

    /// Performs a legal action, or returns why it is not legal and changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Error> {
        self.check(seat, action)?;
        let s = seat as usize;
        match (self.phase, action) {
            (Phase::Give { step }, Action::Give(c)) => {
                let receiver = self.receiver(step);
                self.hands[s].remove(c);
                self.hands[receiver as usize].insert(c);
                self.exchange.push(Exchange {
                    giver: seat,
                    receiver,
                    given: c,
                    returned: None,
                });
                self.phase = Phase::Return { step, received: c };
            }
            (Phase::Return { step, .. }, Action::Return(c)) => {
                let giver = self.giver(step);
                self.hands[s].remove(c);
                self.hands[giver as usize].insert(c);
                self.exchange[step as usize].returned = Some(c);
                self.phase = if step + 1 < EXCHANGE_STEPS {
                    Phase::Give { step: step + 1 }
                } else {
                    Phase::Trump
                };
            }
            (Phase::Trump, Action::Trump(suit)) => {
                self.trump = Some(suit);
                self.phase = Phase::Play;
            }
            (Phase::Play, Action::Play(c)) => {
                self.hands[s].remove(c);
                self.trick.push((seat, c));
                if self.trick.len() == self.seat_count() {
                    let winner = self.trick[self.order().winner(&self.trick)].0;
                    self.won[winner as usize] += 1;
                    self.tricks.push(Trick {
                        cards: std::mem::take(&mut self.trick),
                        winner,
                    });
                    self.leader = winner;
                    if self.tricks.len() == self.hand_size() {
                        self.phase = Phase::Over;
                    }
                }
            }
            _ => unreachable!("check accepted an action of the wrong phase"),
        }
        self.log.push((seat, action));
        Ok(())
    }

    pub fn stage(&self) -> Stage {
        match self.phase {
            Phase::Give { .. } | Phase::Return { .. } => Stage::Exchange,
            Phase::Trump => Stage::Trump,
            Phase::Play => Stage::Play,
            Phase::Over => Stage::Over,
        }
    }

    /// What `seat` may see: his own hand, the cards he gave or received in the exchange, the
    /// public play, and his legal actions when it is his turn.
    pub fn view(&self, seat: Seat) -> SeatView {
        let to_act = self.to_act();
        SeatView {
            seat,
            ranks: self.ranks.clone(),
            hand: self.hand(seat),
            stage: self.stage(),
            exchange: self
                .exchange
                .iter()
                .map(|e| {
                    let mine = seat == e.giver || seat == e.receiver;
                    ExchangeView {
                        giver: e.giver,
                        receiver: e.receiver,
                        given: Some(e.given).filter(|_| mine),
                        returned: e.returned.filter(|_| mine),
                    }
                })
                .collect(),
            trump: self.trump,
            trick: self.trick.to_vec(),
            tricks: self.tricks.to_vec(),
            won: self.won().to_vec(),
            to_act,
            legal: if to_act == Some(seat) {
                self.legal_actions()
            } else {
                ActionList::new()
            },
        }
    }
}

/// The highest card of a set of one suit (by index, which is the plain order within a suit).
fn highest(set: CardSet) -> CardSet {
    if set.is_empty() {
        set
    } else {
        CardSet::from_bits(1u64 << (63 - set.bits().leading_zeros()))
    }
}

impl Game for Deal {
    type Action = Action;
    type Error = Error;
    type Actions = ActionList<Action, MAX_ACTIONS>;

    fn seats(&self) -> usize {
        self.seat_count()
    }
    fn to_act(&self) -> Option<Seat> {
        Deal::to_act(self)
    }
    fn legal_actions(&self) -> Self::Actions {
        Deal::legal_actions(self)
    }
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Error> {
        Deal::apply(self, seat, action)
    }
}
