//! One belote deal, for every variant: the bids and cards a seat may play, `apply` with typed
//! errors that leave the state unchanged, seeded and explicit deals, the per-seat view, and the
//! deal's result. The variant modules supply the auction and the scoring.

use std::fmt;

use arrayvec::ArrayVec;

use super::bazar::{
    AuctionEnd, ContractAuction, CAPOT_ABOVE, COINCHE_CAPOT_TENS, MAX_BAZAR_TENS, MAX_COINCHE_TENS, MIN_TENS,
};
use super::classic::TakeAuction;
use super::combos::{self, Combo, Combos, Declared};
use super::options::Options;
use super::play::{Limit, Mode, Tables};
use super::{bazar, classic, coinche, suit_from_letter, Variant};
use crate::cards::{Card, CardSet, Suit, PIQUET_PACK};
use crate::game::{ActionList, Game, Seat, Seed};

/// The longest list of legal actions: a Bazar opening bid with pass and contra: 43 levels
/// (8..=50) in 5 modes, 25 capot levels (26..=50) in 5 modes, and two words.
pub const MAX_ACTIONS: usize = 342;

/// The list `legal_actions` returns.
pub type Actions = ActionList<Action, MAX_ACTIONS>;

/// A bid in any belote variant, written as in RECORD.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bid {
    Pass,
    /// Bazar doubles.
    Contra,
    Recontra,
    /// Coinche doubles.
    Coinche,
    Surcoinche,
    /// First round of the take/pass variants: the turned card's suit is trump.
    Take,
    /// Second round of the take/pass variants: this suit is trump.
    Name(Suit),
    /// Bazar: `9 H`, `12 NT`, `26 S capot`.
    Tens {
        tens: u8,
        mode: Mode,
        capot: bool,
    },
    /// Coinche: `90 H`, `120 AT`; `tens` 25 is `capot S`.
    Points {
        tens: u8,
        mode: Mode,
    },
}

impl Bid {
    /// Reads a bid as written in a record of variant `v`.
    pub fn parse(v: Variant, s: &str) -> Option<Bid> {
        let words: ArrayVec<&str, 4> = s.split_whitespace().take(4).collect();
        let mode = |w: &str| Mode::parse(w);
        Some(match (v, words.as_slice()) {
            (_, ["pass"]) => Bid::Pass,
            (Variant::Bazar, ["contra"]) => Bid::Contra,
            (Variant::Bazar, ["recontra"]) => Bid::Recontra,
            (Variant::Bazar, [n, m]) | (Variant::Bazar, [n, m, "capot"]) => {
                let m = mode(m).filter(|m| *m != Mode::AllTrumps)?;
                Bid::Tens {
                    tens: n.parse().ok().filter(|&t| t <= 99)?,
                    mode: m,
                    capot: words.len() == 3,
                }
            }
            (Variant::Coinche, ["coinche"]) => Bid::Coinche,
            (Variant::Coinche, ["surcoinche"]) => Bid::Surcoinche,
            (Variant::Coinche, ["capot", m]) => Bid::Points {
                tens: COINCHE_CAPOT_TENS,
                mode: mode(m)?,
            },
            (Variant::Coinche, [n, m]) => Bid::Points {
                // Whole tens only: "90" is 9 tens, "95" is no bid.
                tens: n.strip_suffix('0')?.parse().ok().filter(|&t| t <= 99)?,
                mode: mode(m)?,
            },
            (Variant::Classic | Variant::HeadToHead, ["take"]) => Bid::Take,
            (Variant::Classic | Variant::HeadToHead, [s]) => Bid::Name(suit_from_letter(s)?),
            _ => return None,
        })
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Pass => f.write_str("pass"),
            Bid::Contra => f.write_str("contra"),
            Bid::Recontra => f.write_str("recontra"),
            Bid::Coinche => f.write_str("coinche"),
            Bid::Surcoinche => f.write_str("surcoinche"),
            Bid::Take => f.write_str("take"),
            Bid::Name(s) => write!(f, "{s}"),
            Bid::Tens {
                tens,
                mode,
                capot: false,
            } => write!(f, "{tens} {mode}"),
            Bid::Tens { tens, mode, .. } => write!(f, "{tens} {mode} capot"),
            Bid::Points { tens, mode } if *tens == COINCHE_CAPOT_TENS => write!(f, "capot {mode}"),
            Bid::Points { tens, mode } => write!(f, "{} {mode}", *tens as u32 * 10),
        }
    }
}

/// What a seat does: a bid, or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Bid(Bid),
    Play(Card),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid(b) => write!(f, "{b}"),
            Action::Play(c) => write!(f, "{c}"),
        }
    }
}

/// The contract the auction produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub mode: Mode,
    /// The bid in tens (Bazar, Coinche; Coinche capot is 25); 0 in the take/pass variants.
    pub tens: u8,
    pub capot: bool,
    pub declarer: Seat,
    /// 0, 1 (contra / coinche) or 2 (recontra / surcoinche).
    pub doubled: u8,
}

impl Contract {
    /// As a replay prints it: `9 H`, `26 S capot`, `take H`, `90 AT`, `capot S`.
    pub fn describe(&self, v: Variant) -> String {
        match v {
            Variant::Bazar => Bid::Tens {
                tens: self.tens,
                mode: self.mode,
                capot: self.capot,
            }
            .to_string(),
            Variant::Coinche => Bid::Points {
                tens: self.tens,
                mode: self.mode,
            }
            .to_string(),
            _ => format!("take {}", self.mode),
        }
    }

    /// `contra`, `recontra`, `coinche`, `surcoinche`, or `None` when not doubled.
    pub fn doubled_word(&self, v: Variant) -> Option<&'static str> {
        match (self.doubled, v) {
            (1, Variant::Coinche) => Some("coinche"),
            (2, Variant::Coinche) => Some("surcoinche"),
            (1, _) => Some("contra"),
            (2, _) => Some("recontra"),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Bidding,
    Play,
    /// Played out, or redealt after all passed (then there is no contract).
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Auction {
    Contract(ContractAuction),
    Take(TakeAuction),
}

/// One completed trick: who led, the cards in play order, who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    pub leader: Seat,
    pub cards: [Card; 4],
    pub len: u8,
    pub winner: Seat,
}

impl Trick {
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// What a finished deal scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealResult {
    /// `None` when all passed and the deal is redealt.
    pub contract: Option<Contract>,
    /// Card points with the last trick per team or player (250 / 0 on capot).
    pub team_points: [u32; 2],
    /// Scored combinations and belote per team or player, in points.
    pub combinations: [u32; 2],
    /// Tens in Bazar and head-to-head, points in French classic and Coinche.
    pub deltas: [i32; 2],
    pub tricks: [u8; 2],
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("the deal is over")]
    Over,
    #[error("it is seat {expected}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, expected: Seat },
    #[error("seat {seat} must play a card: the bidding is over")]
    NotBidding { seat: Seat },
    #[error("seat {seat} cannot play a card during the bidding")]
    NotPlaying { seat: Seat },
    #[error("seat {seat} cannot say {bid}: {why}")]
    IllegalBid { seat: Seat, bid: Bid, why: BidRule },
    #[error("seat {seat} does not hold {card}")]
    NotHeld { seat: Seat, card: Card },
    #[error("seat {seat} must follow {} (has {has})", suit.name())]
    MustFollow { seat: Seat, suit: Suit, has: Card },
    #[error("seat {seat} must beat the highest card in {} (has {has})", suit.name())]
    MustBeat { seat: Seat, suit: Suit, has: Card },
    #[error("seat {seat} must overtrump with a higher {} (has {has})", suit.name())]
    MustOvertrump { seat: Seat, suit: Suit, has: Card },
    #[error("seat {seat} must play a trump, {} (has {has})", suit.name())]
    MustTrump { seat: Seat, suit: Suit, has: Card },
}

/// The bidding rule a refused bid breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BidRule {
    #[error("that is not a bid of this game")]
    NotThisGame,
    #[error("there is no bid to double")]
    NothingToDouble,
    #[error("the bid is already doubled")]
    AlreadyDoubled,
    #[error("only an opponent of the last bid may double it")]
    DoubleByOpponentsOnly,
    #[error("redoubling needs a double first")]
    RedoubleNeedsDouble,
    #[error("only the bidding team may redouble")]
    RedoubleByBiddersOnly,
    #[error("Bazar has no all-trumps bid")]
    NoAllTrumpsInBazar,
    #[error("capot is bid only above 25")]
    CapotAbove25,
    #[error("bids go up to 160, then capot")]
    CoincheAbove160,
    #[error("no new bid after a double")]
    NoBidAfterDouble,
    #[error("bids start at 80 points")]
    BelowMinimum,
    #[error("that bid is above the highest bid")]
    AboveMaximum,
    #[error("a bid must be higher than the last bid")]
    NotHigher,
    #[error("after a capot bid only capot may be bid")]
    CapotOnly,
    #[error("the turned card is taken only in the first round")]
    TakeInFirstRound,
    #[error("a suit is named only in the second round")]
    NameInSecondRound,
}

/// Why explicit hands do not make a deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{game} deals to {expected} seats, not {got}")]
    Seats {
        game: Variant,
        expected: usize,
        got: usize,
    },
    #[error("dealer {0} is not a seat")]
    Dealer(Seat),
    #[error("seat {seat} must be dealt {expected} cards, not {got}")]
    HandSize { seat: Seat, expected: usize, got: usize },
    #[error("{0} is not a card of the 32-card pack")]
    NotInPack(Card),
    #[error("{0} is dealt twice")]
    Twice(Card),
    #[error("the deal needs a turned card")]
    NoTurned,
    #[error("the stock must hold {expected} cards, not {got}")]
    Stock { expected: usize, got: usize },
}

/// One deal of a belote variant.
#[derive(Clone, Debug)]
pub struct Deal {
    variant: Variant,
    options: Options,
    dealer: Seat,
    /// Hands as dealt (before the stock in the take/pass variants).
    dealt: [CardSet; 4],
    hands: [CardSet; 4],
    turned: Option<Card>,
    stock: ArrayVec<Card, 11>,
    phase: Phase,
    to_act: Seat,
    auction: Auction,
    contract: Option<Contract>,
    tables: Tables,
    leader: Seat,
    trick: ArrayVec<Card, 4>,
    /// Position in the current trick of the card winning it, and that card's strength (kept
    /// as the trick grows, so that no rule has to look the trick over again).
    best: (u8, u8),
    /// The seat that played the card winning the current trick.
    best_seat: Seat,
    tricks: ArrayVec<Trick, 9>,
    won: [CardSet; 2],
    tricks_won: [u8; 2],
    /// Seats that have played a card (bit per seat): their combinations are announced.
    played: u8,
    combos: [Combos; 4],
    declared: Declared,
    result: Option<DealResult>,
}

impl Deal {
    /// A deal shuffled from `seed`, each seat a block of the shuffled pack (`dealer` is taken
    /// modulo the number of seats). Sessions deal every Bazar and take/pass deal this way;
    /// Coinche sessions carry the deck and deal 3-2-3 instead (`coinche::deal`).
    pub fn shuffled(v: Variant, options: Options, dealer: Seat, seed: Seed) -> Deal {
        let cards = seed.shuffle(PIQUET_PACK);
        let n = v.seats();
        let dealer = dealer % n as Seat;
        let first = v.first_hand_size();
        let mut hands = [CardSet::EMPTY; 4];
        for (i, h) in hands.iter_mut().take(n).enumerate() {
            *h = cards[i * first..(i + 1) * first].iter().copied().collect();
        }
        let (turned, stock) = if v.has_turned_card() {
            let at = n * first;
            (Some(cards[at]), &cards[at + 1..at + 1 + v.stock_size()])
        } else {
            (None, &cards[..0])
        };
        Deal::new_unchecked(v, options, dealer, hands, turned, stock)
    }

    /// A deal from explicit hands (seat order), and in the take/pass variants the turned card
    /// and the stock in dealing order.
    pub fn from_hands(
        v: Variant,
        options: Options,
        dealer: Seat,
        hands: &[CardSet],
        turned: Option<Card>,
        stock: &[Card],
    ) -> Result<Deal, SetupError> {
        let n = v.seats();
        if hands.len() != n {
            return Err(SetupError::Seats {
                game: v,
                expected: n,
                got: hands.len(),
            });
        }
        if dealer as usize >= n {
            return Err(SetupError::Dealer(dealer));
        }
        let mut seen = CardSet::EMPTY;
        let mut see = |c: Card| {
            if !PIQUET_PACK.contains(c) {
                return Err(SetupError::NotInPack(c));
            }
            if seen.contains(c) {
                return Err(SetupError::Twice(c));
            }
            seen.insert(c);
            Ok(())
        };
        for (seat, h) in hands.iter().enumerate() {
            if h.len() as usize != v.first_hand_size() {
                return Err(SetupError::HandSize {
                    seat: seat as Seat,
                    expected: v.first_hand_size(),
                    got: h.len() as usize,
                });
            }
            for c in h.iter() {
                see(c)?;
            }
        }
        let mut dealt = [CardSet::EMPTY; 4];
        dealt[..n].copy_from_slice(hands);
        if v.has_turned_card() {
            let t = turned.ok_or(SetupError::NoTurned)?;
            see(t)?;
            if stock.len() != v.stock_size() {
                return Err(SetupError::Stock {
                    expected: v.stock_size(),
                    got: stock.len(),
                });
            }
            for &c in stock {
                see(c)?;
            }
        }
        Ok(Deal::new_unchecked(v, options, dealer, dealt, turned, stock))
    }

    /// A deal from hands already known to be valid.
    fn new_unchecked(
        v: Variant,
        options: Options,
        dealer: Seat,
        dealt: [CardSet; 4],
        turned: Option<Card>,
        stock: &[Card],
    ) -> Deal {
        let auction = match turned {
            Some(t) if v.has_turned_card() => {
                Auction::Take(TakeAuction::new(Suit::from_index(t.index() / 13)))
            }
            _ => Auction::Contract(ContractAuction::default()),
        };
        Deal {
            variant: v,
            options,
            dealer,
            dealt,
            hands: dealt,
            turned: if v.has_turned_card() { turned } else { None },
            stock: stock.iter().copied().collect(),
            phase: Phase::Bidding,
            to_act: v.next(dealer),
            auction,
            contract: None,
            tables: Tables::new(Mode::NoTrump),
            leader: v.next(dealer),
            trick: ArrayVec::new(),
            best: (0, 0),
            best_seat: 0,
            tricks: ArrayVec::new(),
            won: [CardSet::EMPTY; 2],
            tricks_won: [0; 2],
            played: 0,
            combos: Default::default(),
            declared: Declared::default(),
            result: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn contract(&self) -> Option<Contract> {
        self.contract
    }
    /// The hands as dealt (before the stock).
    pub fn dealt(&self) -> &[CardSet] {
        &self.dealt[..self.variant.seats()]
    }
    pub fn turned(&self) -> Option<Card> {
        self.turned
    }
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }
    /// A seat's hand now (empty for a seat not at the table).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat as usize).copied().unwrap_or_default()
    }
    pub fn tricks(&self) -> &[Trick] {
        &self.tricks
    }
    pub fn current_trick(&self) -> &[Card] {
        &self.trick
    }
    /// The combinations found in each hand when the play started.
    pub fn combos(&self, seat: Seat) -> &[Combo] {
        self.combos.get(seat as usize).map_or(&[], |c| c.as_slice())
    }
    pub fn declared(&self) -> Declared {
        self.declared
    }
    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    /// The seat in position `i` (0-based) of the play order from `from`.
    fn nth_from(&self, from: Seat, i: usize) -> Seat {
        let mut s = from;
        for _ in 0..i {
            s = self.variant.next(s);
        }
        s
    }

    /// Whether `seat`'s partner has played to the current trick and is winning it.
    fn partner_winning(&self, seat: Seat) -> bool {
        if self.variant.seats() != 4 || self.trick.len() < 2 {
            return false;
        }
        self.best_seat == (seat + 2) % 4
    }

    /// The led suit and the card winning the current trick, if a card has been led.
    fn trick_state(&self) -> Option<(Suit, Card)> {
        let first = *self.trick.first()?;
        Some((
            Suit::from_index(first.index() / 13),
            self.trick[self.best.0 as usize],
        ))
    }

    /// The cards the seat to act may play, with the rule that limits them (play phase only).
    pub fn legal_cards(&self) -> (CardSet, Limit) {
        if self.phase != Phase::Play {
            return (CardSet::EMPTY, Limit::None);
        }
        let seat = self.to_act;
        self.tables.legal(
            self.hands[seat as usize],
            self.trick_state(),
            self.partner_winning(seat),
            self.options.must_undertrump,
        )
    }

    fn check_bid(&self, seat: Seat, bid: Bid) -> Result<(), Error> {
        let r = match &self.auction {
            Auction::Contract(a) => a.check(self.variant, seat, bid),
            Auction::Take(a) => a.check(bid),
        };
        r.map_err(|why| Error::IllegalBid { seat, bid, why })
    }

    fn check_play(&self, seat: Seat, card: Card) -> Result<(), Error> {
        if !self.hands[seat as usize].contains(card) {
            return Err(Error::NotHeld { seat, card });
        }
        let (legal, limit) = self.legal_cards();
        if legal.contains(card) {
            return Ok(());
        }
        let has = legal.first().expect("a hand always has a legal card");
        Err(match limit {
            Limit::Follow(suit) => Error::MustFollow { seat, suit, has },
            Limit::Beat(suit) => Error::MustBeat { seat, suit, has },
            Limit::Overtrump(suit) => Error::MustOvertrump { seat, suit, has },
            Limit::Trump(suit) => Error::MustTrump { seat, suit, has },
            // An unlimited choice is the whole hand, which holds the card.
            Limit::None => Error::NotHeld { seat, card },
        })
    }

    fn apply_bid(&mut self, seat: Seat, bid: Bid) {
        let v = self.variant;
        let end = match &mut self.auction {
            Auction::Contract(a) => a.apply(v, seat, bid),
            Auction::Take(a) => a.apply(v, seat, bid),
        };
        match end {
            AuctionEnd::Open => self.to_act = v.next(seat),
            AuctionEnd::Redeal => {
                self.phase = Phase::Done;
                self.result = Some(DealResult {
                    contract: None,
                    team_points: [0; 2],
                    combinations: [0; 2],
                    deltas: [0; 2],
                    tricks: [0; 2],
                });
            }
            AuctionEnd::Won(c) => {
                self.contract = Some(c);
                if v.has_turned_card() {
                    self.deal_stock(c.declarer);
                }
                self.start_play(c.mode);
            }
        }
    }

    /// The turned card to the taker, then the stock in packets from the player after the
    /// dealer: 2 cards to the taker, 3 to each other seat.
    fn deal_stock(&mut self, taker: Seat) {
        let v = self.variant;
        if let Some(t) = self.turned {
            self.hands[taker as usize].insert(t);
        }
        let mut it = self.stock.iter();
        let mut seat = v.next(self.dealer);
        for _ in 0..v.seats() {
            let k = if seat == taker { 2 } else { 3 };
            for &c in it.by_ref().take(k) {
                self.hands[seat as usize].insert(c);
            }
            seat = v.next(seat);
        }
    }

    fn start_play(&mut self, mode: Mode) {
        let v = self.variant;
        let n = v.seats();
        self.phase = Phase::Play;
        self.tables = Tables::new(mode);
        self.leader = v.next(self.dealer);
        self.to_act = self.leader;
        let mut order = [0u8; 4];
        for (i, o) in order.iter_mut().take(n).enumerate() {
            *o = self.nth_from(self.leader, i);
        }
        for seat in 0..n {
            self.combos[seat] = combos::find(self.hands[seat]);
        }
        self.declared = combos::compare(
            &self.combos[..n],
            &self.hands[..n],
            &order[..n],
            |s| v.team(s),
            mode,
        );
    }

    fn apply_play(&mut self, seat: Seat, card: Card) {
        let v = self.variant;
        let n = v.seats();
        self.hands[seat as usize].remove(card);
        let led = Suit::from_index(self.trick.first().unwrap_or(&card).index() / 13);
        let strength = self.tables.strength(card, led);
        if self.trick.is_empty() || strength > self.best.1 {
            self.best = (self.trick.len() as u8, strength);
            self.best_seat = seat;
        }
        self.trick.push(card);
        self.played |= 1 << seat;
        if self.trick.len() < n {
            self.to_act = v.next(seat);
            return;
        }
        let winner = self.best_seat;
        let team = v.team(winner) as usize;
        let mut cards = [card; 4];
        cards[..n].copy_from_slice(&self.trick);
        self.won[team] |= self.trick.iter().copied().collect();
        self.tricks_won[team] += 1;
        self.tricks.push(Trick {
            leader: self.leader,
            cards,
            len: n as u8,
            winner,
        });
        self.trick.clear();
        self.leader = winner;
        self.to_act = winner;
        if self.hands[winner as usize].is_empty() {
            self.finish(team);
        }
    }

    fn finish(&mut self, last: usize) {
        let v = self.variant;
        let c = self.contract.expect("play needs a contract");
        let all = v.hand_size() as u8;
        let capot_team = (0..2u8).find(|&t| self.tricks_won[t as usize] == all);
        let mut points = [0u32; 2];
        for (t, p) in points.iter_mut().enumerate() {
            *p = match capot_team {
                Some(ct) if ct as usize == t => 250,
                Some(_) => 0,
                None => self.tables.set_points(self.won[t]) + if t == last { 10 } else { 0 },
            };
        }
        let d = &self.declared;
        let r = self.options.bazar_rounding;
        let deltas = match v {
            Variant::Bazar => bazar::score(&c, v, points, capot_team, d, r),
            Variant::Coinche => coinche::score(&c, points, capot_team, d),
            Variant::Classic | Variant::HeadToHead => classic::score(&c, v, points, capot_team, d, r),
        };
        self.phase = Phase::Done;
        self.result = Some(DealResult {
            contract: Some(c),
            team_points: points,
            combinations: [d.total(0), d.total(1)],
            deltas,
            tricks: self.tricks_won,
        });
    }

    /// `legal_actions` into a caller's list (cleared first): a hot loop that reuses one list
    /// avoids moving the whole fixed-capacity list on every call.
    pub fn legal_actions_into(&self, out: &mut Actions) {
        out.clear();
        match self.phase {
            Phase::Done => {}
            Phase::Bidding => match &self.auction {
                Auction::Contract(a) => a.legal(self.variant, self.to_act, out),
                Auction::Take(a) => a.legal(out),
            },
            Phase::Play => {
                for c in self.legal_cards().0 {
                    out.push(Action::Play(c));
                }
            }
        }
    }

    /// Everything `seat` may see now, and nothing it may not.
    pub fn view(&self, seat: Seat) -> SeatView {
        let v = self.variant;
        let mut announced = ArrayVec::new();
        for s in 0..v.seats() as Seat {
            if self.played & (1 << s) != 0 {
                for &c in &self.combos[s as usize] {
                    announced.push((s, c));
                }
            }
        }
        let (high, doubled, round) = match &self.auction {
            Auction::Contract(a) => (a.high.map(|h| (h.tens, h.mode, h.capot, h.seat)), a.doubled, 1),
            Auction::Take(a) => (None, 0, a.round),
        };
        let mut trick = ArrayVec::new();
        for (i, &c) in self.trick.iter().enumerate() {
            trick.push((self.nth_from(self.leader, i), c));
        }
        let first_trick_done = !self.tricks.is_empty();
        SeatView {
            variant: v,
            seat,
            dealer: self.dealer,
            phase: self.phase,
            to_act: self.to_act(),
            hand: self.hand(seat),
            turned: self.turned,
            high_bid: high,
            doubled,
            round,
            contract: self.contract,
            trick,
            tricks: self.tricks.clone(),
            tricks_won: self.tricks_won,
            announced,
            declared: first_trick_done.then_some(self.declared),
            legal: if self.to_act() == Some(seat) {
                self.legal_actions()
            } else {
                Actions::new()
            },
            result: self.result,
        }
    }
}

/// What one seat sees of a deal: its own hand and everything public.
#[derive(Clone, Debug)]
pub struct SeatView {
    pub variant: Variant,
    pub seat: Seat,
    pub dealer: Seat,
    pub phase: Phase,
    pub to_act: Option<Seat>,
    pub hand: CardSet,
    /// The face-up card of the take/pass variants (it goes to the taker, in sight of all).
    pub turned: Option<Card>,
    /// Bazar and Coinche: the highest bid so far (tens, mode, capot, seat).
    pub high_bid: Option<(u8, Mode, bool, Seat)>,
    pub doubled: u8,
    /// Take/pass variants: the bidding round (1 or 2).
    pub round: u8,
    pub contract: Option<Contract>,
    /// The current trick: who played what, in play order.
    pub trick: ArrayVec<(Seat, Card), 4>,
    pub tricks: ArrayVec<Trick, 9>,
    pub tricks_won: [u8; 2],
    /// Combinations announced so far (a seat announces with its first card).
    pub announced: ArrayVec<(Seat, Combo), 16>,
    /// Which team's combinations count, once every seat has announced.
    pub declared: Option<Declared>,
    /// This seat's legal actions (empty when it is not its turn).
    pub legal: Actions,
    pub result: Option<DealResult>,
}

impl Game for Deal {
    type Action = Action;
    type Error = Error;
    type Actions = Actions;

    fn seats(&self) -> usize {
        self.variant.seats()
    }

    fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::Done).then_some(self.to_act)
    }

    fn legal_actions(&self) -> Actions {
        let mut out = Actions::new();
        self.legal_actions_into(&mut out);
        out
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Error> {
        let expected = match self.to_act() {
            None => return Err(Error::Over),
            Some(s) => s,
        };
        if seat != expected {
            return Err(Error::NotYourTurn { seat, expected });
        }
        match (self.phase, action) {
            (Phase::Bidding, Action::Bid(b)) => {
                self.check_bid(seat, b)?;
                self.apply_bid(seat, b);
            }
            (Phase::Bidding, Action::Play(_)) => return Err(Error::NotPlaying { seat }),
            (_, Action::Bid(_)) => return Err(Error::NotBidding { seat }),
            (_, Action::Play(c)) => {
                self.check_play(seat, c)?;
                self.apply_play(seat, c);
            }
        }
        Ok(())
    }
}

// Bid ladders are kept consistent with `MAX_ACTIONS`.
const _: () = assert!(
    2 + (MAX_BAZAR_TENS - MIN_TENS + 1) as usize * 5 + (MAX_BAZAR_TENS - CAPOT_ABOVE) as usize * 5
        == MAX_ACTIONS
);
const _: () = assert!(MAX_COINCHE_TENS < COINCHE_CAPOT_TENS);
