//! One Zole deal (RULES.md 1.2-1.5): seats and sit-outs, the deal, bidding with the small-zole
//! overcall, the bury, play with the follow rule, and surrender. Scoring is in `scoring.rs`.
//!
//! `Deal` is a small `Copy` value: `legal_actions` fills a fixed array and `apply` checks
//! everything before it changes anything, so a refused action leaves the deal as it was.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::legal::Legal;
use super::options::{AllPass, GaldinsTalon, Options, Surrender};
use super::tables::{self, category, playable, points, trick_winner};
use crate::cards::{Card, CardSet, ZOLE_DECK};
use crate::game::{Game, Seat, Seed};

/// A call in the bidding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bid {
    Pass,
    Take,
    Zole,
    SmallZole,
}

impl Bid {
    pub const fn name(self) -> &'static str {
        match self {
            Bid::Pass => "pass",
            Bid::Take => "take",
            Bid::Zole => "zole",
            Bid::SmallZole => "small_zole",
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Bid {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "pass" => Bid::Pass,
            "take" => Bid::Take,
            "zole" => Bid::Zole,
            "small_zole" => Bid::SmallZole,
            _ => return Err(format!("unknown bid {s:?}")),
        })
    }
}

/// What is being played once the bidding is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    Take,
    Zole,
    SmallZole,
    /// Everybody passed and the all-pass mode is galdiņš or rondo: everybody for himself.
    Galdins,
}

impl Contract {
    pub const fn name(self) -> &'static str {
        match self {
            Contract::Take => "take",
            Contract::Zole => "zole",
            Contract::SmallZole => "small_zole",
            Contract::Galdins => "galdins",
        }
    }
}

/// One move of one seat. Three bytes, so the 45 possible burials fit a small array.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    Bid(Bid),
    /// The two cards the declarer of a take puts away; the order does not matter
    /// (`Bury(a, b) == Bury(b, a)`).
    Bury(Card, Card),
    Play(Card),
    Surrender,
}

impl Action {
    /// The cards of a burial as a set (empty for other actions).
    pub fn bury_set(self) -> CardSet {
        match self {
            Action::Bury(a, b) => CardSet::single(a) | CardSet::single(b),
            _ => CardSet::EMPTY,
        }
    }

    fn key(self) -> (u8, u8, u8) {
        match self {
            Action::Bid(b) => (0, b as u8, 0),
            Action::Bury(a, b) => (1, a.index().min(b.index()), a.index().max(b.index())),
            Action::Play(c) => (2, c.index(), 0),
            Action::Surrender => (3, 0, 0),
        }
    }
}

impl PartialEq for Action {
    fn eq(&self, o: &Action) -> bool {
        self.key() == o.key()
    }
}

impl Eq for Action {}

impl std::hash::Hash for Action {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(b) => write!(f, "bid {b}"),
            Action::Bury(..) => write!(f, "bury {}", self.bury_set()),
            Action::Play(c) => write!(f, "play {c}"),
            Action::Surrender => f.write_str("surrender"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Bidding,
    Bury,
    Play,
    Done,
}

/// Why an action was refused; the text names the broken rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ZoleError {
    #[error("the deal is over")]
    DealOver,
    #[error("it is seat {expected}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, expected: Seat },
    #[error("seat {seat} cannot {action} now: {reason}")]
    WrongPhase {
        seat: Seat,
        action: &'static str,
        reason: &'static str,
    },
    #[error("seat {seat} may not bid {bid}: {reason}")]
    BidNotAllowed {
        seat: Seat,
        bid: Bid,
        reason: &'static str,
    },
    #[error("seat {seat} must bury exactly two different cards")]
    BuryCount { seat: Seat },
    #[error("seat {seat} cannot bury {card}: not in hand")]
    BuryNotHeld { seat: Seat, card: Card },
    #[error("seat {seat} does not hold {card}")]
    CardNotHeld { seat: Seat, card: Card },
    #[error("seat {seat} must follow {category} (has {example})")]
    MustFollow {
        seat: Seat,
        category: &'static str,
        example: Card,
    },
    #[error("seat {seat} cannot surrender: {reason}")]
    SurrenderNotAllowed { seat: Seat, reason: &'static str },
}

/// A deal that cannot be set up as given (hands, talon, dealer, seat count).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("zole is played by 3, 4 or 5 players, not {0}")]
    Players(usize),
    #[error("dealer {dealer} is not a seat at a table of {players}")]
    Dealer { dealer: usize, players: usize },
    #[error("{0} hands given for {1} seats")]
    HandCount(usize, usize),
    #[error("seat {0} sits this deal out and must have no cards")]
    SitOutHasCards(Seat),
    #[error("seat {seat} has {count} cards, not 8")]
    HandSize { seat: Seat, count: usize },
    #[error("the talon has {0} cards, not 2")]
    TalonSize(usize),
    #[error("{0} is not a zole card")]
    NotZoleCard(Card),
    #[error("{0} is dealt twice")]
    Duplicate(Card),
}

/// The active seats of a deal (first, second, third hand) for a table of `players` (RULES 1.2):
/// with 4 the dealer sits out, with 5 the dealer and the seat two to his left.
pub fn active_seats(players: usize, dealer: Seat) -> [Seat; 3] {
    let at = |k: usize| ((dealer as usize + k) % players) as Seat;
    match players {
        5 => [at(1), at(3), at(4)],
        _ => [at(1), at(2), at(3)],
    }
}

/// One Zole deal in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    opts: Options,
    players: u8,
    dealer: Seat,
    active: [Seat; 3],
    dealt: [CardSet; 5],
    hands: [CardSet; 5],
    talon: CardSet,
    buried: CardSet,
    phase: Phase,
    /// Active index of the player to speak (bidding) or to play (play).
    turn: u8,
    bids: [(Seat, Bid); 3],
    n_bids: u8,
    /// Active index of the small-zole caller while the others may still overcall.
    small_zole_caller: Option<u8>,
    contract: Option<Contract>,
    declarer: Option<Seat>,
    /// Every card played, in order; tricks are consecutive triples.
    played: [Card; 24],
    /// Active index of the leader of each trick.
    leaders: [u8; 8],
    n_played: u8,
    /// Completed tricks, and cards in the trick on the table (kept so the hot path needs no
    /// division).
    n_tricks: u8,
    trick_len: u8,
    tricks: [u8; 5],
    points: [u8; 5],
    first_trick_winner: Option<Seat>,
    surrendered: bool,
}

impl Deal {
    /// Shuffles the deck with `seed` and deals it as a dealer does: four cards to each active
    /// player from the dealer's left, two to the talon, then four more each.
    pub fn new(opts: Options, players: usize, dealer: Seat, seed: Seed) -> Result<Deal, DealError> {
        check_table(players, dealer)?;
        let deck = seed.shuffle(ZOLE_DECK);
        let active = active_seats(players, dealer);
        let mut hands = [CardSet::EMPTY; 5];
        for (k, &seat) in active.iter().enumerate() {
            hands[seat as usize] = deck[4 * k..4 * k + 4]
                .iter()
                .chain(&deck[14 + 4 * k..18 + 4 * k])
                .copied()
                .collect();
        }
        let talon = deck[12..14].iter().copied().collect();
        Ok(Deal::start(opts, players, dealer, hands, talon))
    }

    /// A deal from explicit hands (in seat order, empty for those sitting out) and talon.
    pub fn from_hands(
        opts: Options,
        players: usize,
        dealer: Seat,
        hands: &[CardSet],
        talon: CardSet,
    ) -> Result<Deal, DealError> {
        check_table(players, dealer)?;
        if hands.len() != players {
            return Err(DealError::HandCount(hands.len(), players));
        }
        let active = active_seats(players, dealer);
        let mut seen = CardSet::EMPTY;
        for (seat, &hand) in hands.iter().enumerate() {
            let seat = seat as Seat;
            if !active.contains(&seat) {
                if !hand.is_empty() {
                    return Err(DealError::SitOutHasCards(seat));
                }
                continue;
            }
            if hand.len() != 8 {
                return Err(DealError::HandSize {
                    seat,
                    count: hand.len() as usize,
                });
            }
            check_cards(hand, &mut seen)?;
        }
        if talon.len() != 2 {
            return Err(DealError::TalonSize(talon.len() as usize));
        }
        check_cards(talon, &mut seen)?;
        let mut h = [CardSet::EMPTY; 5];
        h[..players].copy_from_slice(hands);
        Ok(Deal::start(opts, players, dealer, h, talon))
    }

    fn start(opts: Options, players: usize, dealer: Seat, hands: [CardSet; 5], talon: CardSet) -> Deal {
        Deal {
            opts,
            players: players as u8,
            dealer,
            active: active_seats(players, dealer),
            dealt: hands,
            hands,
            talon,
            buried: CardSet::EMPTY,
            phase: Phase::Bidding,
            turn: 0,
            bids: [(0, Bid::Pass); 3],
            n_bids: 0,
            small_zole_caller: None,
            contract: None,
            declarer: None,
            played: [Card::JOKER; 24],
            leaders: [0; 8],
            n_played: 0,
            n_tricks: 0,
            trick_len: 0,
            tricks: [0; 5],
            points: [0; 5],
            first_trick_winner: None,
            surrendered: false,
        }
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    /// First, second and third hand.
    pub fn active(&self) -> [Seat; 3] {
        self.active
    }
    pub fn is_active(&self, seat: Seat) -> bool {
        self.active.contains(&seat)
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    pub fn declarer(&self) -> Option<Seat> {
        self.declarer
    }
    /// The hands as dealt (for records).
    pub fn dealt_hands(&self) -> &[CardSet] {
        &self.dealt[..self.players as usize]
    }
    pub fn talon(&self) -> CardSet {
        self.talon
    }
    pub fn buried(&self) -> CardSet {
        self.buried
    }
    /// A seat's current hand. Hidden information: only for that seat's view, records and the
    /// engine itself.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat as usize).copied().unwrap_or_default()
    }
    pub fn bids(&self) -> &[(Seat, Bid)] {
        &self.bids[..self.n_bids as usize]
    }
    /// Every card played so far, in order.
    pub fn played(&self) -> &[Card] {
        &self.played[..self.n_played as usize]
    }
    /// Tricks completed so far.
    pub fn tricks_done(&self) -> usize {
        self.n_tricks as usize
    }
    /// The seat that led trick `i` (0-based), if it has started.
    pub fn trick_leader(&self, i: usize) -> Option<Seat> {
        (i * 3 < self.n_played as usize || (i * 3 == self.n_played as usize && self.phase == Phase::Play))
            .then(|| self.active[self.leaders[i] as usize])
    }
    /// The cards of the trick in progress (in playing order) and its leader.
    pub fn current_trick(&self) -> (&[Card], Seat) {
        let done = self.tricks_done() * 3;
        let leader = self.active[self.leaders[self.tricks_done().min(7)] as usize];
        (&self.played[done..self.n_played as usize], leader)
    }
    /// Tricks taken per seat.
    pub fn tricks(&self) -> &[u8] {
        &self.tricks[..self.players as usize]
    }
    /// Card points taken in tricks per seat: the bury and a zole talon are not included; with
    /// `galdins_talon = first_trick` the talon counts for the first trick's winner.
    pub fn trick_points(&self) -> &[u8] {
        &self.points[..self.players as usize]
    }
    pub fn surrendered(&self) -> bool {
        self.surrendered
    }
    pub fn first_trick_winner(&self) -> Option<Seat> {
        self.first_trick_winner
    }

    pub fn to_act(&self) -> Option<Seat> {
        match self.phase {
            Phase::Bidding | Phase::Play => Some(self.active[self.turn as usize]),
            Phase::Bury => self.declarer,
            Phase::Done => None,
        }
    }

    fn bids_allowed(&self) -> &'static [Bid] {
        if self.small_zole_caller.is_some() {
            &[Bid::Pass, Bid::Zole]
        } else if self.opts.small_zole {
            &[Bid::Pass, Bid::Take, Bid::Zole, Bid::SmallZole]
        } else {
            &[Bid::Pass, Bid::Take, Bid::Zole]
        }
    }

    fn cards_played_by(&self, seat: Seat) -> usize {
        let mut n = 0;
        let mut t = 0;
        while t * 3 < self.n_played as usize {
            let lead = self.leaders[t] as usize;
            for k in 0..3 {
                if t * 3 + k < self.n_played as usize && self.active[(lead + k) % 3] == seat {
                    n += 1;
                }
            }
            t += 1;
        }
        n
    }

    /// True when `seat` may surrender now: the declarer of a take or zole, in the play,
    /// inside the rules' window, whoever is to act.
    pub fn may_surrender(&self, seat: Seat) -> bool {
        self.phase == Phase::Play && self.surrender_refusal(seat).is_none()
    }

    fn surrender_refusal(&self, seat: Seat) -> Option<&'static str> {
        match (self.opts.surrender, self.contract) {
            (Surrender::Off, _) => Some("these rules have no surrender"),
            (_, Some(Contract::Take | Contract::Zole)) if self.declarer == Some(seat) => {
                if self.opts.surrender == Surrender::BasicLoss && self.cards_played_by(seat) >= 3 {
                    Some("the declarer has already played to the third trick")
                } else {
                    None
                }
            }
            (_, Some(Contract::Take | Contract::Zole)) => Some("only the declarer may surrender"),
            _ => Some("only the declarer of a take or zole may surrender"),
        }
    }

    /// Exactly the actions `apply` accepts from `to_act()` now. No heap allocation.
    pub fn legal_actions(&self) -> Legal {
        match self.phase {
            Phase::Bidding => {
                let mut bids = 0;
                for &b in self.bids_allowed() {
                    bids |= 1 << b as u8;
                }
                Legal { bids, ..Legal::NONE }
            }
            Phase::Bury => Legal {
                bury_from: self.hand(self.declarer.unwrap_or(0)),
                ..Legal::NONE
            },
            Phase::Play => {
                let seat = self.active[self.turn as usize];
                let (trick, _) = self.current_trick();
                Legal {
                    plays: playable(self.hand(seat), trick.first().copied()),
                    surrender: self.opts.surrender != Surrender::Off
                        && self.surrender_refusal(seat).is_none(),
                    ..Legal::NONE
                }
            }
            Phase::Done => Legal::NONE,
        }
    }

    /// Performs `action` for `seat`, or explains why not and leaves the deal unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), ZoleError> {
        // The common case first: a card played in the play.
        if let (Phase::Play, Action::Play(card)) = (self.phase, action) {
            let expected = self.active[self.turn as usize];
            if seat != expected {
                return Err(ZoleError::NotYourTurn { seat, expected });
            }
            return self.play(seat, card);
        }
        let verb = match action {
            Action::Bid(_) => "bid",
            Action::Bury(..) => "bury",
            Action::Play(_) => "play",
            Action::Surrender => "surrender",
        };
        let wrong = |reason: &'static str| {
            Err(ZoleError::WrongPhase {
                seat,
                action: verb,
                reason,
            })
        };
        match (self.phase, action) {
            (Phase::Done, _) => return Err(ZoleError::DealOver),
            (Phase::Bidding, Action::Bid(_))
            | (Phase::Bury, Action::Bury(..))
            | (Phase::Play, Action::Play(_)) => {}
            (Phase::Play, Action::Surrender) => {}
            (_, Action::Bid(_)) => return wrong("the bidding is over"),
            (Phase::Play, _) => return wrong("the cards are in play"),
            (Phase::Bidding, _) => return wrong("the bidding is still on"),
            (Phase::Bury, _) => return wrong("the declarer must bury two cards first"),
        }
        let expected = self.to_act().unwrap_or(0);
        // The declarer may surrender whenever the window is open, not only on his turn
        // (RULES.md: "at any time"; docs/rules-decisions.md).
        if seat != expected && action != Action::Surrender {
            return Err(ZoleError::NotYourTurn { seat, expected });
        }
        match action {
            Action::Bid(b) => self.bid(seat, b),
            Action::Bury(..) => self.bury(seat, action.bury_set()),
            Action::Play(c) => self.play(seat, c),
            Action::Surrender => self.surrender(seat),
        }
    }

    fn bid(&mut self, seat: Seat, bid: Bid) -> Result<(), ZoleError> {
        if !self.bids_allowed().contains(&bid) {
            let reason = if self.small_zole_caller.is_some() {
                "after a small zole only pass or zole may be called"
            } else {
                "these rules have no small zole"
            };
            return Err(ZoleError::BidNotAllowed { seat, bid, reason });
        }
        self.bids[self.n_bids as usize] = (seat, bid);
        self.n_bids += 1;
        match bid {
            Bid::Pass => {
                self.turn += 1;
                if self.turn == 3 {
                    match self.small_zole_caller {
                        Some(k) => self.begin_play(Contract::SmallZole, Some(self.active[k as usize])),
                        None => self.all_passed(),
                    }
                }
            }
            Bid::Take => {
                self.contract = Some(Contract::Take);
                self.declarer = Some(seat);
                self.hands[seat as usize] |= self.talon;
                self.phase = Phase::Bury;
            }
            Bid::Zole => self.begin_play(Contract::Zole, Some(seat)),
            Bid::SmallZole => {
                if self.opts.zole_overcalls_small_zole && self.turn < 2 {
                    self.small_zole_caller = Some(self.turn);
                    self.turn += 1;
                } else {
                    self.begin_play(Contract::SmallZole, Some(seat));
                }
            }
        }
        Ok(())
    }

    fn all_passed(&mut self) {
        match self.opts.all_pass {
            AllPass::Pule | AllPass::Tree => self.phase = Phase::Done,
            AllPass::Galdins | AllPass::Rondo => self.begin_play(Contract::Galdins, None),
        }
    }

    fn begin_play(&mut self, contract: Contract, declarer: Option<Seat>) {
        self.contract = Some(contract);
        self.declarer = declarer;
        self.small_zole_caller = None;
        self.phase = Phase::Play;
        self.turn = 0;
        self.leaders[0] = 0;
    }

    fn bury(&mut self, seat: Seat, set: CardSet) -> Result<(), ZoleError> {
        if set.len() != 2 {
            return Err(ZoleError::BuryCount { seat });
        }
        if let Some(card) = set.minus(self.hand(seat)).first() {
            return Err(ZoleError::BuryNotHeld { seat, card });
        }
        self.hands[seat as usize] = self.hands[seat as usize].minus(set);
        self.buried = set;
        self.phase = Phase::Play;
        self.turn = 0;
        self.leaders[0] = 0;
        Ok(())
    }

    fn play(&mut self, seat: Seat, card: Card) -> Result<(), ZoleError> {
        let hand = self.hands[seat as usize];
        if !hand.contains(card) {
            return Err(ZoleError::CardNotHeld { seat, card });
        }
        let start = self.n_played as usize - self.trick_len as usize;
        if self.trick_len > 0 {
            let led = self.played[start];
            let follow = hand & tables::follow_mask(led);
            if !follow.is_empty() && !follow.contains(card) {
                let example = follow.first().unwrap_or(card);
                return Err(ZoleError::MustFollow {
                    seat,
                    category: category(led).name(),
                    example,
                });
            }
        }
        self.hands[seat as usize].remove(card);
        self.played[self.n_played as usize] = card;
        self.n_played += 1;
        if self.trick_len < 2 {
            self.trick_len += 1;
            self.turn = if self.turn == 2 { 0 } else { self.turn + 1 };
            return Ok(());
        }
        let t = self.n_tricks as usize;
        let cards = [self.played[start], self.played[start + 1], card];
        let winner_k = (self.leaders[t] as usize + trick_winner(&cards)) % 3;
        let winner = self.active[winner_k];
        let pts = points(cards[0]) + points(cards[1]) + points(cards[2]);
        self.tricks[winner as usize] += 1;
        self.points[winner as usize] += pts;
        self.n_tricks += 1;
        self.trick_len = 0;
        if t == 0 {
            self.first_trick_winner = Some(winner);
            if self.contract == Some(Contract::Galdins) && self.opts.galdins_talon == GaldinsTalon::FirstTrick
            {
                self.points[winner as usize] += tables::set_points(self.talon) as u8;
            }
        }
        let small_zole_lost = self.contract == Some(Contract::SmallZole) && Some(winner) == self.declarer;
        if t == 7 || small_zole_lost {
            self.phase = Phase::Done;
        } else {
            self.leaders[t + 1] = winner_k as u8;
            self.turn = winner_k as u8;
        }
        Ok(())
    }

    fn surrender(&mut self, seat: Seat) -> Result<(), ZoleError> {
        if let Some(reason) = self.surrender_refusal(seat) {
            return Err(ZoleError::SurrenderNotAllowed { seat, reason });
        }
        self.surrendered = true;
        self.phase = Phase::Done;
        Ok(())
    }

    /// Cards that were in no completed trick when the deal ended (a small zole lost early,
    /// or a surrender): the hands and the unfinished trick.
    pub fn unplayed(&self) -> CardSet {
        let done = self.tricks_done() * 3;
        let mut s: CardSet = self.played[done..self.n_played as usize]
            .iter()
            .copied()
            .collect();
        for seat in self.active {
            s |= self.hands[seat as usize];
        }
        s
    }
}

impl Game for Deal {
    type Action = Action;
    type Error = ZoleError;
    type Actions = Legal;
    fn seats(&self) -> usize {
        self.players as usize
    }
    fn to_act(&self) -> Option<Seat> {
        Deal::to_act(self)
    }
    fn legal_actions(&self) -> Legal {
        Deal::legal_actions(self)
    }
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), ZoleError> {
        Deal::apply(self, seat, action)
    }
}

fn check_table(players: usize, dealer: Seat) -> Result<(), DealError> {
    if !(3..=5).contains(&players) {
        return Err(DealError::Players(players));
    }
    if dealer as usize >= players {
        return Err(DealError::Dealer {
            dealer: dealer as usize,
            players,
        });
    }
    Ok(())
}

fn check_cards(cards: CardSet, seen: &mut CardSet) -> Result<(), DealError> {
    if let Some(c) = cards.minus(ZOLE_DECK).first() {
        return Err(DealError::NotZoleCard(c));
    }
    if let Some(c) = (cards & *seen).first() {
        return Err(DealError::Duplicate(c));
    }
    *seen |= cards;
    Ok(())
}

/// Parses an action the way chat buttons and the terminal write them: `pass`, `take`, `zole`,
/// `small_zole`, `bury AH 10H`, `play QC` or just `QC`, `surrender`.
impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let first = words.next().ok_or("empty action")?;
        let rest: ArrayVec<&str, 4> = words.take(4).collect();
        let card = |w: &str| w.parse::<Card>().map_err(|e| e.to_string());
        match (first, rest.as_slice()) {
            ("bid", [b]) => Ok(Action::Bid(b.parse()?)),
            ("bury", [a, b]) => Ok(Action::Bury(card(a)?, card(b)?)),
            ("play", [c]) => Ok(Action::Play(card(c)?)),
            ("surrender", []) => Ok(Action::Surrender),
            (b, []) if b.parse::<Bid>().is_ok() => Ok(Action::Bid(b.parse()?)),
            (c, []) => Ok(Action::Play(card(c)?)),
            _ => Err(format!("unknown action {s:?}")),
        }
    }
}
