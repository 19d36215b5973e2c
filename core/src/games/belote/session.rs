//! A belote table session: deal after deal with the dealer moving on in the direction of play
//! (also after a redeal), the score sheet per team (per player in head-to-head), the end of the
//! game at the target, the Coinche deck carried from deal to deal, and the log of every deal
//! from which a record is written.

use super::coinche::{self, Deck};
use super::deal::{Action, Deal, DealResult, Error, Phase, SetupError};
use super::options::Options;
use super::Variant;
use crate::cards::{Card, CardSet, PIQUET_PACK};
use crate::game::{Game, Seat, Seed};
use crate::session::ScoreSheet;

/// Everything a record keeps of one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealLog {
    pub dealer: Seat,
    pub hands: Vec<CardSet>,
    pub turned: Option<Card>,
    pub stock: Vec<Card>,
    pub actions: Vec<(Seat, Action)>,
    pub result: Option<DealResult>,
}

/// Why the session refused to start a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("the game is over")]
    GameOver,
    #[error("the current deal is not finished")]
    DealInProgress,
    #[error("a cut lifts 3 to 29 cards, not {0}")]
    BadCut(usize),
}

#[derive(Clone, Debug)]
pub struct Session {
    variant: Variant,
    options: Options,
    next_dealer: Seat,
    sheet: ScoreSheet,
    log: Vec<DealLog>,
    current: Option<Deal>,
    /// Coinche: the gathered deck of the last deal, waiting for its cut.
    deck: Option<Deck>,
}

impl Session {
    pub fn new(variant: Variant, options: Options, first_dealer: Seat) -> Session {
        Session {
            variant,
            options,
            next_dealer: first_dealer % variant.seats() as Seat,
            sheet: ScoreSheet::new(2),
            log: Vec::new(),
            current: None,
            deck: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn totals(&self) -> [i32; 2] {
        [self.sheet.totals[0], self.sheet.totals[1]]
    }
    pub fn deals(&self) -> &[DealLog] {
        &self.log
    }
    pub fn current(&self) -> Option<&Deal> {
        self.current.as_ref()
    }
    pub fn next_dealer(&self) -> Seat {
        self.next_dealer
    }

    /// The team (player in head-to-head) that has won: at or above the target, not tied.
    pub fn winner(&self) -> Option<u8> {
        let [a, b] = self.totals();
        if a.max(b) >= self.options.target && a != b {
            Some(if a > b { 0 } else { 1 })
        } else {
            None
        }
    }

    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Starts the next deal. Every deal is shuffled from `seed` except in Coinche, where only
    /// the first is; later Coinche deals take the gathered cards of the deal before. `cut` is
    /// used only in Coinche: how many cards the cutter lifts (3 to 29; on the first deal the
    /// dealer's partner cuts the shuffled pack, later the player before the dealer). A host
    /// passes `coinche::cut_from_seed(&seed)`, which a record's seed is checked against.
    pub fn start_deal(&mut self, seed: Seed, cut: usize) -> Result<&Deal, SessionError> {
        let deal = self.seeded_deal(seed, cut)?;
        // The gathered Coinche deck has been cut and dealt.
        self.deck = None;
        Ok(self.begin(deal))
    }

    /// The deal `start_deal(seed, cut)` would start, without starting it: replay checks a
    /// record's seed against it.
    pub fn seeded_deal(&self, seed: Seed, cut: usize) -> Result<Deal, SessionError> {
        self.check_can_start()?;
        let v = self.variant;
        let dealer = self.next_dealer;
        if v != Variant::Coinche {
            return Ok(Deal::shuffled(v, self.options, dealer, seed));
        }
        let shuffled: Deck;
        let deck = match &self.deck {
            Some(d) => d,
            None => {
                shuffled = seed.shuffle(PIQUET_PACK).iter().copied().collect();
                &shuffled
            }
        };
        let cut_deck = coinche::cut(deck, cut).ok_or(SessionError::BadCut(cut))?;
        let hands = coinche::deal(&cut_deck, dealer);
        Ok(Deal::from_hands(v, self.options, dealer, &hands, None, &[])
            .expect("a whole deck makes a valid deal"))
    }

    /// Starts the next deal from explicit hands, as a record lists them (rebuilding a table or
    /// replaying a record). The dealer must be the next one; in Coinche, after the first deal,
    /// the hands must be a cut of the cards the last deal gathered.
    pub fn start_explicit(
        &mut self,
        dealer: Seat,
        hands: &[CardSet],
        turned: Option<Card>,
        stock: &[Card],
    ) -> Result<&Deal, StartError> {
        self.check_can_start()?;
        let deal = Deal::from_hands(self.variant, self.options, dealer, hands, turned, stock)?;
        if dealer != self.next_dealer {
            return Err(StartError::Dealer {
                expected: self.next_dealer,
                got: dealer,
            });
        }
        if let Some(deck) = &self.deck {
            let is_cut = (coinche::MIN_CUT..=deck.len() - coinche::MIN_CUT)
                .any(|c| coinche::cut(deck, c).is_some_and(|d| coinche::deal(&d, dealer)[..] == hands[..]));
            if !is_cut {
                return Err(StartError::NotACut);
            }
        }
        self.deck = None;
        Ok(self.begin(deal))
    }

    fn check_can_start(&self) -> Result<(), SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if self.current.as_ref().is_some_and(|d| d.phase() != Phase::Done) {
            return Err(SessionError::DealInProgress);
        }
        Ok(())
    }

    fn begin(&mut self, deal: Deal) -> &Deal {
        self.log.push(DealLog {
            dealer: deal.dealer(),
            hands: deal.dealt().to_vec(),
            turned: deal.turned(),
            stock: deal.stock().to_vec(),
            actions: Vec::new(),
            result: None,
        });
        self.current.insert(deal)
    }

    /// Applies an action to the current deal; when the deal ends, scores it and moves the
    /// dealer on (in Coinche, also gathers the deck for the next deal).
    pub fn play(&mut self, seat: Seat, action: Action) -> Result<(), PlayError> {
        let v = self.variant;
        let deal = self.current.as_mut().ok_or(PlayError::NoDeal)?;
        deal.apply(seat, action).map_err(PlayError::Rule)?;
        let log = self.log.last_mut().expect("a deal in progress has a log");
        log.actions.push((seat, action));
        if let Some(r) = deal.result().copied() {
            log.result = Some(r);
            self.sheet.add(&r.deltas);
            self.next_dealer = v.next(log.dealer);
            if v == Variant::Coinche {
                let tricks: Vec<(Seat, [Card; 4])> =
                    deal.tricks().iter().map(|t| (t.winner, t.cards)).collect();
                let mut hands = [CardSet::EMPTY; 4];
                hands.copy_from_slice(deal.dealt());
                self.deck = Some(coinche::gather(&tricks, &hands, log.dealer));
            }
        }
        Ok(())
    }
}

/// Why `Session::start_explicit` refused a deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("the dealer must be seat {expected}, not seat {got}")]
    Dealer { expected: Seat, got: Seat },
    #[error("the hands are not a cut of the cards gathered from the last deal")]
    NotACut,
}

/// Why `Session::play` refused an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("there is no deal in progress")]
    NoDeal,
    #[error(transparent)]
    Rule(#[from] Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::belote::Bid;

    #[test]
    fn a_tie_at_or_above_the_target_plays_on() {
        let v = Variant::Bazar;
        let mut s = Session::new(v, Options::default_for(v), 0);
        s.sheet.add(&[301, 301]);
        assert!(!s.is_over());
        s.sheet.add(&[0, 5]);
        assert_eq!(s.winner(), Some(1));
        assert_eq!(
            s.start_deal(Seed::from_u64(1), 10).err(),
            Some(SessionError::GameOver)
        );
    }

    #[test]
    fn the_deal_passes_on_after_a_redeal_in_the_direction_of_play() {
        for (v, after) in [
            (Variant::Bazar, 1),
            (Variant::Coinche, 3),
            (Variant::HeadToHead, 1),
        ] {
            let mut s = Session::new(v, Options::default_for(v), 0);
            s.start_deal(Seed::from_u64(1), 10).unwrap();
            assert_eq!(
                s.start_deal(Seed::from_u64(2), 10).err(),
                Some(SessionError::DealInProgress)
            );
            let rounds = if v.has_turned_card() { 2 } else { 1 };
            for _ in 0..rounds * v.seats() {
                let seat = s.current().unwrap().to_act().unwrap();
                s.play(seat, Action::Bid(Bid::Pass)).unwrap();
            }
            assert_eq!(s.next_dealer(), after, "{v}");
            assert_eq!(s.totals(), [0, 0]);
            s.start_deal(Seed::from_u64(2), 10).unwrap();
            assert_eq!(s.current().unwrap().dealer(), after);
            assert_eq!(s.deals().len(), 2);
        }
    }
}
