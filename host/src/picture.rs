//! The typed picture of a table: what every surface draws. Each game gives the public part
//! of its deal (`HostedGame::picture`) and, per seat, the private part (`seat_picture`): the
//! hand and the decisions open now as typed choices. Nothing in a picture is rendered text:
//! words are message ids of the Fluent files with typed arguments (`Word`), said in a
//! language by whoever draws them, and seats are numbers that the drawer names.
//!
//! The public part never holds a card of a hidden hand, the talon or the burial; a seat's
//! part holds only that seat's cards (`tests/picture.rs` checks both for every game and
//! preset over seeded random deals).

use stikis_core::cards::{Card, CardSet, Suit};
use stikis_core::Seat;

use crate::i18n::{t, Arg, Lang};

/// A card as chat players read it: `Q♣`, `10♦`.
pub fn card_label(c: Card) -> String {
    let suit = match c.suit() {
        Some(Suit::Clubs) => '♣',
        Some(Suit::Diamonds) => '♦',
        Some(Suit::Hearts) => '♥',
        Some(Suit::Spades) => '♠',
        None => return "🃏".into(),
    };
    format!("{}{}", c.rank().map(|r| r.symbol()).unwrap_or("?"), suit)
}

/// A seat's player name for messages.
pub fn name(names: &[String], seat: Seat) -> String {
    names
        .get(seat as usize)
        .cloned()
        .unwrap_or_else(|| format!("#{seat}"))
}

/// Words as a surface says them in its language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// A message of the Fluent files, with its arguments.
    Msg(&'static str, Vec<(&'static str, Word)>),
    /// Words the same in every language: a suit symbol, a level, a number.
    Plain(String),
    Int(i64),
    /// The name of a seat's player.
    Seat(Seat),
    Card(Card),
    /// Words said one after the other, with `sep` between them.
    Seq(Vec<Word>, &'static str),
}

impl Word {
    /// A message without arguments.
    pub fn msg(key: &'static str) -> Word {
        Word::Msg(key, Vec::new())
    }

    /// The words in `lang`, seats named by `names`.
    pub fn say(&self, lang: Lang, names: &[String]) -> String {
        match self {
            Word::Msg(key, args) => {
                let args: Vec<(&str, Arg)> = args
                    .iter()
                    .map(|(k, w)| {
                        let a = match w {
                            Word::Int(n) => Arg::from(*n),
                            w => Arg::from(w.say(lang, names)),
                        };
                        (*k, a)
                    })
                    .collect();
                t(lang, key, &args)
            }
            Word::Plain(s) => s.clone(),
            Word::Int(n) => n.to_string(),
            Word::Seat(s) => name(names, *s),
            Word::Card(c) => card_label(*c),
            Word::Seq(words, sep) => words
                .iter()
                .map(|w| w.say(lang, names))
                .collect::<Vec<_>>()
                .join(sep),
        }
    }

    /// Every card the words name.
    pub fn cards(&self) -> Vec<Card> {
        match self {
            Word::Card(c) => vec![*c],
            Word::Msg(_, args) => args.iter().flat_map(|(_, w)| w.cards()).collect(),
            Word::Seq(words, _) => words.iter().flat_map(Word::cards).collect(),
            Word::Plain(_) | Word::Int(_) | Word::Seat(_) => Vec::new(),
        }
    }
}

/// Where a deal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// No deal has been dealt yet.
    Waiting,
    /// Bids are made (Zole, Belote).
    Bidding,
    /// Cards change hands before the play: Zole's burial, Polt's exchange and trump naming.
    Exchange,
    Play,
    /// The deal has been played (its result is known).
    Done,
}

/// A trick: the cards by seat in playing order, and who took it (once it is complete).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trick {
    pub cards: Vec<(Seat, Card)>,
    pub winner: Option<Seat>,
}

/// The Fluent keys a game's chat messages say a picture's lines with (`crate::draw`); a line
/// whose key is `None` is one the game does not have.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Lines {
    /// "Teams: $first against $second".
    pub teams: Option<&'static str>,
    /// "Sitting out: $names".
    pub sitting_out: Option<&'static str>,
    /// "Bids: $bids" (each "name word").
    pub bids: Option<&'static str>,
    /// "Contract: $contract ($name)".
    pub contract: Option<&'static str>,
    /// "Announced: $list".
    pub announced: Option<&'static str>,
    /// "Trick $n: $cards".
    pub trick: Option<&'static str>,
    /// "Last trick: $cards; $name took it."
    pub last_trick: Option<&'static str>,
    /// "Tricks: $list".
    pub taken: Option<&'static str>,
    /// "Turn: $name".
    pub turn: Option<&'static str>,
    /// A hand: "Your cards: $cards".
    pub hand: Option<&'static str>,
    /// A hand that sits the deal out.
    pub you_sit_out: Option<&'static str>,
}

impl Lines {
    /// No lines: a picture of no game.
    pub const NONE: Lines = Lines {
        teams: None,
        sitting_out: None,
        bids: None,
        contract: None,
        announced: None,
        trick: None,
        last_trick: None,
        taken: None,
        turn: None,
        hand: None,
        you_sit_out: None,
    };
}

/// The public part of a deal: what everyone at the table and in the chat may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// The record's game id.
    pub game: &'static str,
    /// How the chat says its lines.
    pub lines: &'static Lines,
    /// The deal's heading ("Zole · deal 3 · dealer Anna"), once a deal is dealt.
    pub title: Option<Word>,
    /// Deals started so far (the one shown).
    pub deal_no: usize,
    pub phase: Phase,
    pub dealer: Option<Seat>,
    /// Seats that sit this deal out (Zole with 4 or 5 at the table).
    pub sitting_out: Vec<Seat>,
    /// The sides of a team game, each side's seats.
    pub teams: Vec<Vec<Seat>>,
    /// Standing lines before the play (Polt's ranks: the title and who holds it).
    pub ranks: Vec<(Word, Seat)>,
    /// Cards lying face up for all (Belote's turned card), each with what it is.
    pub face_up: Vec<(Word, Card)>,
    /// The bidding so far, in order.
    pub bids: Vec<(Seat, Word)>,
    /// The contract, once made, and who made it.
    pub contract: Option<Word>,
    pub declarer: Option<Seat>,
    /// What has been announced (Belote's combinations), by seat, without their cards.
    pub announced: Vec<(Seat, Word)>,
    /// What was said as a card was played, by seat and card (Belote's "belote", "rebelote"):
    /// the card is shown with it wherever it lies.
    pub said: Vec<(Seat, Card, Word)>,
    /// What the table sees of an exchange in progress (Polt: who gives to whom, no cards).
    pub exchange: Vec<Word>,
    /// The trumps of the deal, where they are known (empty in no-trumps or before).
    pub trumps: CardSet,
    /// The trump suit's words, where one is named (the line "Trumps: ♥").
    pub trump_line: Option<Word>,
    /// The number of the trick being played (from 1), while cards are played.
    pub trick_no: Option<usize>,
    /// The trick being played (no winner yet).
    pub trick: Vec<(Seat, Card)>,
    /// The last complete trick of the deal and who took it.
    pub last_trick: Option<Trick>,
    /// Tricks taken so far, by seat or side (words name them).
    pub taken: Vec<(Word, i64)>,
    pub to_act: Option<Seat>,
    /// The running totals, by seat.
    pub totals: Vec<i32>,
    /// A line about the game's standing that is not per seat (Belote: "to 1001").
    pub standing: Option<Word>,
    /// The score line of the table message, where the game has one (Belote: each side's
    /// total and the target).
    pub score: Option<Word>,
    /// The game has ended by its own rules.
    pub over: bool,
    /// How the deal shown ended, once it has (`Phase::Done`).
    pub result: Option<DealResult>,
}

/// How a finished deal ended, typed: what every surface says of it (the pages, the viewer's
/// score sheet) instead of reading it from the chat's text or the record's replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealResult {
    /// What was played, with its doubling and a surrender, or what ended the deal without a
    /// contract (Zole: all passed, a pule; Zolite's 60-60; Belote: all passed, a redeal).
    /// None where a game has no contract (Polt to Tzar).
    pub ended: Option<Word>,
    /// Who played the contract.
    pub declarer: Option<Seat>,
    /// Whether the declarer made it (None where nobody declared).
    pub declarer_won: Option<bool>,
    /// The score sheet's change by the deal, by column: one column per seat, or per side where
    /// the seats play in teams (`Picture::teams`). Polt to Tzar counts tricks.
    pub deltas: Vec<i64>,
    /// Each column's total after the deal.
    pub totals: Vec<i64>,
    /// The pules on the sheet after the deal, where the game keeps pules (Zole).
    pub pules: Option<PulesAfter>,
}

/// Zole's pules on the sheet: the common ones and each seat's open ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulesAfter {
    pub common: i64,
    /// By seat.
    pub personal: Vec<i64>,
}

impl Picture {
    /// The picture before any deal.
    pub fn waiting(game: &'static str, seats: usize) -> Picture {
        Picture {
            game,
            lines: &Lines::NONE,
            title: None,
            deal_no: 0,
            phase: Phase::Waiting,
            dealer: None,
            sitting_out: Vec::new(),
            teams: Vec::new(),
            ranks: Vec::new(),
            face_up: Vec::new(),
            bids: Vec::new(),
            contract: None,
            declarer: None,
            announced: Vec::new(),
            said: Vec::new(),
            exchange: Vec::new(),
            trumps: CardSet::EMPTY,
            trump_line: None,
            trick_no: None,
            trick: Vec::new(),
            last_trick: None,
            taken: Vec::new(),
            to_act: None,
            totals: vec![0; seats],
            standing: None,
            score: None,
            over: false,
            result: None,
        }
    }

    /// The play of the deal from its open view (`HostedGame::open_view`): the trumps, the
    /// trick being played (numbered while `playing`) and the last complete trick with its
    /// taker. Every game fills these the same way.
    pub(crate) fn play_from(&mut self, open: OpenView, playing: bool) {
        self.trumps = open.trumps;
        if playing {
            self.trick_no = Some(open.tricks.len() + 1);
        }
        self.trick = open.trick;
        self.last_trick = open.tricks.last().map(|(cards, w)| Trick {
            cards: cards.clone(),
            winner: Some(*w),
        });
    }

    /// What each seat has said of its cards: announced, then as it played them ("belote"),
    /// in that order. The pages list them all as announced.
    pub fn said_by_seat(&self) -> Vec<(Seat, Word)> {
        let mut v = self.announced.clone();
        v.extend(self.said.iter().map(|(s, _, w)| (*s, w.clone())));
        v
    }

    /// Every card the public part shows: none may be in a hidden hand, the talon or a
    /// burial.
    pub fn cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.face_up.iter().map(|(_, c)| *c).collect();
        v.extend(self.trick.iter().map(|(_, c)| *c));
        if let Some(t) = &self.last_trick {
            v.extend(t.cards.iter().map(|(_, c)| *c));
        }
        v.extend(self.said.iter().map(|(_, c, _)| *c));
        for w in self
            .bids
            .iter()
            .chain(&self.announced)
            .map(|(_, w)| w)
            .chain(&self.exchange)
            .chain(&self.contract)
            .chain(self.said.iter().map(|(_, _, w)| w))
            .chain(&self.score)
            .chain(self.ranks.iter().map(|(w, _)| w))
            .chain(self.taken.iter().map(|(w, _)| w))
            .chain(self.result.iter().flat_map(|r| &r.ended))
        {
            v.extend(w.cards());
        }
        v
    }
}

/// Everything about the last deal (in progress or just ended) with every hand open: what the
/// web viewer shows of a finished deal. Never for a chat message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OpenView {
    /// The cards in each seat's hand now (empty for a seat that sits the deal out).
    pub hands: Vec<CardSet>,
    /// The finished tricks: the cards by seat in playing order, and the seat that won.
    pub tricks: Vec<(Vec<(Seat, Card)>, Seat)>,
    /// The trick being played.
    pub trick: Vec<(Seat, Card)>,
    /// The deal's trumps (empty while they are not known, or in no-trumps).
    pub trumps: CardSet,
    /// What lies beside the hands, said and with its cards: Zole's talon until its declarer
    /// picks it up, then what he buried.
    pub beside: Option<(Word, Vec<Card>)>,
}

/// What a decision does, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Plays (or gives, returns: the move of the phase) this card of the hand.
    Play(Card),
    /// Picks this card of the hand as one of several (the cards to bury): not yet a move.
    Pick(Card),
    /// Takes back the pick of this card.
    Unpick(Card),
    /// A decision that is no card: a bid, a level, a trump, surrender; its words.
    Say(Word),
}

impl Choice {
    /// The card of the hand the choice is made with, if any.
    pub fn card(&self) -> Option<Card> {
        match self {
            Choice::Play(c) | Choice::Pick(c) | Choice::Unpick(c) => Some(*c),
            Choice::Say(_) => None,
        }
    }

    /// The choice as a button reads in `lang`.
    pub fn label(&self, lang: Lang, names: &[String]) -> String {
        match self {
            Choice::Play(c) | Choice::Pick(c) => card_label(*c),
            Choice::Unpick(c) => format!("✓{}", card_label(*c)),
            Choice::Say(w) => w.say(lang, names),
        }
    }
}

/// A decision open to a seat: what it does and the game's code that performs it (the host
/// turns the code into the token a button or a page sends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub choice: Choice,
    pub code: String,
}

/// The private part of a seat: its hand, the decisions open to it now, and what it is asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatPicture {
    pub seat: Seat,
    /// The seat's cards, in the order players of the game hold them.
    pub hand: Vec<Card>,
    /// The seat sits this deal out.
    pub sitting_out: bool,
    /// What only this seat knows besides its hand (Zole's burial, Polt's rank and the cards
    /// it gave and got), one line each.
    pub notes: Vec<Word>,
    /// The decisions open now, in rows as buttons show them.
    pub decisions: Vec<Vec<Decision>>,
    /// What the seat is asked to do now, where the decisions need saying ("choose two cards
    /// to bury"); "your turn" is not repeated here.
    pub prompt: Vec<Word>,
    /// The seat is to act now.
    pub to_act: bool,
}

impl SeatPicture {
    pub fn new(seat: Seat) -> SeatPicture {
        SeatPicture {
            seat,
            ..SeatPicture::default()
        }
    }

    /// Every card this part shows.
    pub fn cards(&self) -> Vec<Card> {
        let mut v = self.hand.clone();
        v.extend(self.notes.iter().flat_map(Word::cards));
        v.extend(self.prompt.iter().flat_map(Word::cards));
        v
    }
}

/// How many buttons a row holds at most: a phone's width.
pub(crate) const BUTTONS_PER_ROW: usize = 5;

/// Card decisions in rows of at most `BUTTONS_PER_ROW`, as a hand's buttons.
pub(crate) fn card_decisions(
    cards: impl IntoIterator<Item = Card>,
    prefix: &str,
    picked: Option<Card>,
) -> Vec<Vec<Decision>> {
    let row: Vec<Decision> = cards
        .into_iter()
        .map(|c| match picked {
            Some(p) if p == c => Decision {
                choice: Choice::Unpick(c),
                code: format!("n:{c}"),
            },
            _ => Decision {
                choice: if prefix == "y" {
                    Choice::Pick(c)
                } else {
                    Choice::Play(c)
                },
                code: format!("{prefix}:{c}"),
            },
        })
        .collect();
    in_rows(row)
}

/// Decisions in rows of at most `BUTTONS_PER_ROW`.
pub(crate) fn in_rows(row: Vec<Decision>) -> Vec<Vec<Decision>> {
    row.chunks(BUTTONS_PER_ROW).map(<[Decision]>::to_vec).collect()
}

/// A decision that is no card.
pub(crate) fn say(word: Word, code: impl Into<String>) -> Decision {
    Decision {
        choice: Choice::Say(word),
        code: code.into(),
    }
}
