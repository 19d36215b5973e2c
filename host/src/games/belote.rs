//! The Belote family as the host plays it (Bazar, French classic, head-to-head and Coinche,
//! RULES.md section 2): one `HostedGame` over a core belote `Session` for all four records'
//! games. It owns the button codes (`b:<bid as the record writes it>`, `p:QC`, and for the
//! long Bazar and Coinche bid ladders the selections `l:<tens>` / `l:-` / `l:+`: pick a level,
//! then the trump of that level), the messages drawn from the deal, and the record JSON the
//! action log stores (through the engine's `record.rs`).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::Value;
use stikis_core::ai::{self, Level};
use stikis_core::cards::{Card, CardSet, Rank, Suit};
use stikis_core::game::Game;
use stikis_core::games::belote::bazar::COINCHE_CAPOT_TENS;
use stikis_core::games::belote::coinche::cut_from_seed;
use stikis_core::games::belote::combos::Combo;
use stikis_core::games::belote::play::Tables;
use stikis_core::games::belote::record::{to_envelope, ActionRecord, DealRecord};
use stikis_core::games::belote::{
    Action, Bid, BidRule, Deal, DealResult, Error, Mode, Options, Phase, Session, Variant,
};
use stikis_core::record::Envelope;
use stikis_core::{Seat, Seed};

use super::refusal::Refused;
use super::zole::card_label;
use super::{
    listed, name, suit_symbol, with_no_actions, without_actions, DealReport, HostedGame, OpenView, Pressed,
    Refusal,
};
use crate::i18n::{t, Arg, Lang};
use crate::picture::{self, card_decisions, in_rows, say, Decision, Lines, Picture, SeatPicture, Word};

/// Level buttons shown at once: Bazar has 43 levels, more than a chat shows comfortably.
const LEVELS_PER_PAGE: usize = 10;

/// The variant a record's game name plays, if it is one of the family.
pub fn variant(game: &str) -> Option<Variant> {
    Variant::from_game_name(game)
}

pub struct BeloteGame {
    session: Session,
    /// Bazar and Coinche: the level (tens) the bidder picked; the buttons then offer that
    /// level's trumps. A selection, not a move.
    level_pick: Option<u8>,
    /// Which page of levels the level buttons show.
    level_page: usize,
}

fn mode_word(m: Mode) -> Word {
    match m {
        Mode::Trump(s) => Word::Plain(suit_symbol(s).to_string()),
        Mode::NoTrump => Word::msg("belote-no-trumps"),
        Mode::AllTrumps => Word::msg("belote-all-trumps"),
    }
}

/// The level (in tens) and trump of a Bazar or Coinche bid.
fn bid_level(b: Bid) -> Option<(u8, Mode)> {
    match b {
        Bid::Tens { tens, mode, .. } | Bid::Points { tens, mode } => Some((tens, mode)),
        _ => None,
    }
}

/// A level as players say it: tens in Bazar (`9`), points in Coinche (`90`, `capot`).
fn level_word(v: Variant, tens: u8) -> Word {
    match v {
        Variant::Coinche if tens == COINCHE_CAPOT_TENS => Word::msg("belote-capot"),
        Variant::Coinche => Word::Plain((tens as u32 * 10).to_string()),
        _ => Word::Plain(tens.to_string()),
    }
}

/// A level's button: in the games bid in tens, the points beside the number ("8 · 80").
fn level_button(v: Variant, tens: u8) -> Word {
    match v {
        Variant::Coinche => level_word(v, tens),
        _ => Word::Plain(format!("{tens} · {}", tens as u32 * 10)),
    }
}

/// A bid as the table reads it.
fn bid_word(v: Variant, turned: Option<Card>, b: Bid) -> Word {
    let take = |suit: &str| Word::Msg("belote-take", vec![("suit", Word::Plain(suit.into()))]);
    match b {
        Bid::Pass => Word::msg("belote-pass"),
        Bid::Contra => Word::msg("belote-contra"),
        Bid::Recontra => Word::msg("belote-recontra"),
        Bid::Coinche => Word::msg("belote-coinche"),
        Bid::Surcoinche => Word::msg("belote-surcoinche"),
        Bid::Take => take(turned.and_then(|c| c.suit()).map_or("", suit_symbol)),
        Bid::Name(s) => take(suit_symbol(s)),
        Bid::Tens { tens, mode, capot } => {
            let mut w = vec![Word::Plain(tens.to_string()), mode_word(mode)];
            if capot {
                w.push(Word::msg("belote-capot"));
            }
            Word::Seq(w, " ")
        }
        Bid::Points { tens, mode } => Word::Seq(vec![level_word(v, tens), mode_word(mode)], " "),
    }
}

/// Whether the takers made their contract (None when all passed).
fn declarer_won(v: Variant, r: &DealResult) -> Option<bool> {
    let c = r.contract?;
    let us = v.team(c.declarer) as usize;
    Some(match v {
        // A failed (or doubled and lost) Bazar or Coinche contract scores 0.
        Variant::Bazar | Variant::Coinche => r.deltas[us] > 0,
        // French classic and head-to-head: the takers must score more, in points.
        _ => r.team_points[us] + r.combinations[us] > r.team_points[1 - us] + r.combinations[1 - us],
    })
}

fn contract_word(v: Variant, c: &stikis_core::games::belote::Contract) -> Word {
    let base = match v {
        Variant::Bazar => bid_word(
            v,
            None,
            Bid::Tens {
                tens: c.tens,
                mode: c.mode,
                capot: c.capot,
            },
        ),
        Variant::Coinche => bid_word(
            v,
            None,
            Bid::Points {
                tens: c.tens,
                mode: c.mode,
            },
        ),
        _ => mode_word(c.mode),
    };
    let doubled = match (c.doubled, v) {
        (1, Variant::Coinche) => Some("belote-coinche"),
        (2, Variant::Coinche) => Some("belote-surcoinche"),
        (1, _) => Some("belote-contra"),
        (2, _) => Some("belote-recontra"),
        _ => None,
    };
    match doubled {
        Some(k) => Word::Seq(vec![base, Word::msg(k)], " · "),
        None => base,
    }
}

fn contract_text(lang: Lang, v: Variant, c: &stikis_core::games::belote::Contract) -> String {
    contract_word(v, c).say(lang, &[])
}

/// A combination as it is announced: its kind, never its cards (a four names its rank in
/// words, which all four cards of that rank share).
fn combo_word(c: Combo) -> Word {
    match c {
        Combo::Sequence { len: 3, .. } => Word::msg("belote-tierce"),
        Combo::Sequence { len: 4, .. } => Word::msg("belote-fifty"),
        Combo::Sequence { .. } => Word::msg("belote-hundred"),
        Combo::Four(r) => Word::Msg("belote-four", vec![("rank", Word::Plain(r.symbol().into()))]),
    }
}

/// Cards in the order a belote player holds them: the trump suit first, then the others
/// alternating colours, each strongest first under the contract.
fn sorted(cards: CardSet, mode: Option<Mode>) -> Vec<Card> {
    let tables = Tables::new(mode.unwrap_or(Mode::NoTrump));
    let mut suits = vec![Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];
    if let Some(Mode::Trump(s)) = mode {
        suits.retain(|&x| x != s);
        suits.insert(0, s);
    }
    let mut out = Vec::with_capacity(cards.len() as usize);
    for s in suits {
        let mut of_suit: Vec<Card> = cards.iter().filter(|c| c.suit() == Some(s)).collect();
        of_suit.sort_by_key(|&c| std::cmp::Reverse(tables.order(c)));
        out.extend(of_suit);
    }
    out
}

/// The message key of a bidding rule.
fn bid_rule_key(why: BidRule) -> &'static str {
    match why {
        BidRule::NotThisGame => "belote-bid-rule-not-this-game",
        BidRule::NothingToDouble => "belote-bid-rule-nothing-to-double",
        BidRule::AlreadyDoubled => "belote-bid-rule-already-doubled",
        BidRule::DoubleByOpponentsOnly => "belote-bid-rule-double-by-opponents-only",
        BidRule::RedoubleNeedsDouble => "belote-bid-rule-redouble-needs-double",
        BidRule::RedoubleByBiddersOnly => "belote-bid-rule-redouble-by-bidders-only",
        BidRule::NoAllTrumpsInBazar => "belote-bid-rule-no-all-trumps-in-bazar",
        BidRule::CapotAbove25 => "belote-bid-rule-capot-above-2-5",
        BidRule::CoincheAbove160 => "belote-bid-rule-coinche-above-1-6-0",
        BidRule::NoBidAfterDouble => "belote-bid-rule-no-bid-after-double",
        BidRule::BelowMinimum => "belote-bid-rule-below-minimum",
        BidRule::AboveMaximum => "belote-bid-rule-above-maximum",
        BidRule::NotHigher => "belote-bid-rule-not-higher",
        BidRule::CapotOnly => "belote-bid-rule-capot-only",
        BidRule::TakeInFirstRound => "belote-bid-rule-take-in-first-round",
        BidRule::NameInSecondRound => "belote-bid-rule-name-in-second-round",
    }
}

impl BeloteGame {
    pub fn new(game: &str, rules: &Value, seats: usize) -> Result<BeloteGame, Refusal> {
        let v = variant(game).ok_or_else(|| Refusal(format!("{game:?} is not a belote game")))?;
        if seats != v.seats() {
            return Err(Refusal(format!(
                "{game} is played by {} players, not {seats}",
                v.seats()
            )));
        }
        let opts = Options::from_rules(v, rules).map_err(Refusal)?;
        Ok(BeloteGame {
            session: Session::new(v, opts, 0),
            level_pick: None,
            level_page: 0,
        })
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn variant(&self) -> Variant {
        self.session.variant()
    }

    /// The deal being played.
    fn deal(&self) -> Option<&Deal> {
        self.session.current().filter(|d| d.phase() != Phase::Done)
    }

    /// The deal being played or the last one played.
    fn last_deal(&self) -> Option<&Deal> {
        self.session.current()
    }

    /// The names of a team (partners joined), or of the player in head-to-head.
    /// A side as the table names it: both players of a team ("Anna & Carl"), or the seat.
    fn team_word(&self, team: usize) -> Word {
        match self.variant().seats() {
            4 => Word::Seq(
                vec![Word::Seat(team as Seat), Word::Seat(team as Seat + 2)],
                " & ",
            ),
            _ => Word::Seat(team as Seat),
        }
    }

    fn team_name(&self, names: &[String], team: usize) -> String {
        match self.variant().seats() {
            4 => format!(
                "{} & {}",
                name(names, team as Seat),
                name(names, team as Seat + 2)
            ),
            _ => name(names, team as Seat),
        }
    }

    /// The distinct levels of the legal bids, lowest first.
    fn legal_levels(&self, d: &Deal) -> Vec<u8> {
        let mut levels: Vec<u8> = d
            .legal_actions()
            .iter()
            .filter_map(|a| match a {
                Action::Bid(b) => bid_level(*b).map(|x| x.0),
                _ => None,
            })
            .collect();
        levels.sort_unstable();
        levels.dedup();
        levels
    }

    fn reset_pick(&mut self) {
        self.level_pick = None;
        self.level_page = 0;
    }

    /// Checks a move against the rules without changing anything; the refusal says in the
    /// presser's language which rule the move breaks.
    fn check(&self, seat: Seat, a: Action, lang: Lang) -> Result<Value, Refusal> {
        let d = self.deal().ok_or_else(|| Refused::Over.refusal(lang))?;
        let mut probe = d.clone();
        probe.apply(seat, a).map_err(|e| {
            match e {
                Error::Over => Refused::Over,
                Error::NotYourTurn { .. } => Refused::NotYourTurn,
                Error::NotBidding { .. } => Refused::PlayOn,
                Error::NotPlaying { .. } => Refused::BiddingOn,
                Error::IllegalBid { why, .. } => Refused::BidRule(bid_rule_key(why)),
                Error::NotHeld { card, .. } => Refused::NotHeld(card),
                Error::MustFollow { has, .. } => Refused::MustFollow(has),
                Error::MustBeat { has, .. } | Error::MustOvertrump { has, .. } => Refused::MustBeat(has),
                Error::MustTrump { has, .. } => Refused::MustTrump(has),
            }
            .refusal(lang)
        })?;
        Ok(action_json(seat, a))
    }
}

/// A record action, written by the engine's record module.
fn action_json(seat: Seat, a: Action) -> Value {
    serde_json::to_value(ActionRecord::new(seat, a)).unwrap_or(Value::Null)
}

impl HostedGame for BeloteGame {
    fn game(&self) -> &'static str {
        self.variant().game_name()
    }

    fn seats(&self) -> usize {
        self.variant().seats()
    }

    fn start_deal(&mut self, seed: Seed) -> Result<Value, Refusal> {
        self.reset_pick();
        // Coinche shuffles only the first deal; every deal is cut, by as many cards as the
        // seed says (3 to 29), so the cut is as fair as the shuffle, and replay checks it.
        self.session
            .start_deal(seed, cut_from_seed(&seed))
            .map_err(|e| Refusal(e.to_string()))?;
        let mut env = to_envelope(&self.session, &[]);
        env.deals
            .pop()
            .map(without_actions)
            .ok_or_else(|| Refusal("the deal was not logged".into()))
    }

    fn restore_deal(&mut self, deal: &Value) -> Result<(), Refusal> {
        self.reset_pick();
        let rec = DealRecord::deserialize(&with_no_actions(deal))
            .map_err(|e| Refusal(format!("a stored deal is malformed ({e})")))?;
        let hands: Vec<CardSet> = rec.hands.iter().map(|h| h.iter().copied().collect()).collect();
        let stock = rec.stock.clone().unwrap_or_default();
        self.session
            .start_explicit(rec.dealer, &hands, rec.turned, &stock)
            .map_err(|e| Refusal(e.to_string()))?;
        Ok(())
    }

    fn deal_no(&self) -> usize {
        self.session.deals().len()
    }

    fn in_deal(&self) -> bool {
        self.deal().is_some()
    }

    fn to_act(&self) -> Option<Seat> {
        self.deal().and_then(|d| d.to_act())
    }

    fn picture(&self) -> Picture {
        let v = self.variant();
        let mut p = Picture::waiting(v.game_name(), v.seats());
        p.lines = &LINES;
        p.totals = self.totals();
        p.over = self.is_over();
        if v.seats() == 4 {
            p.teams = vec![vec![0, 2], vec![1, 3]];
        }
        let Some(d) = self.last_deal() else {
            return p;
        };
        let open = self.open_view();
        p.deal_no = self.deal_no();
        let title = crate::games::registry::hosted(v.game_name()).map_or("", |g| g.title);
        p.title = Some(Word::Msg(
            "belote-title",
            vec![
                ("game", Word::msg(title)),
                ("deal", Word::Int(self.deal_no() as i64)),
                ("dealer", Word::Seat(d.dealer())),
            ],
        ));
        p.phase = match d.phase() {
            Phase::Bidding => picture::Phase::Bidding,
            Phase::Play => picture::Phase::Play,
            Phase::Done => picture::Phase::Done,
        };
        p.dealer = Some(d.dealer());
        // The turned card lies face up for all, and the taker picks it up in sight of all.
        if let Some(c) = d.turned() {
            p.face_up = vec![(Word::Msg("belote-turned", vec![("card", Word::Card(c))]), c)];
        }
        let log = self
            .session
            .deals()
            .last()
            .map(|l| l.actions.as_slice())
            .unwrap_or_default();
        p.bids = log
            .iter()
            .filter_map(|&(s, a)| match a {
                Action::Bid(b) => Some((s, bid_word(v, d.turned(), b))),
                Action::Play(_) => None,
            })
            .collect();
        if let Some(c) = d.contract() {
            p.contract = Some(contract_word(v, &c));
            p.declarer = Some(c.declarer);
        }
        let view = d.view(0);
        p.announced = view.announced.iter().map(|&(s, c)| (s, combo_word(c))).collect();
        let played = open
            .tricks
            .iter()
            .flat_map(|(t, _)| t.iter())
            .chain(open.trick.iter());
        for &(s, c) in played {
            if let Some(k) = belote_word(d, s, c) {
                p.said.push((s, c, Word::msg(k)));
            }
        }
        p.play_from(open, d.phase() == Phase::Play);
        if !d.tricks().is_empty() {
            p.taken = (0..2)
                .map(|team| (self.team_word(team), i64::from(view.tricks_won[team])))
                .collect();
        }
        let target = Word::Int(i64::from(self.session.options().target));
        p.standing = Some(Word::Msg("belote-target", vec![("target", target.clone())]));
        let totals = self.session.totals();
        let side = |team: usize| {
            Word::Seq(
                vec![self.team_word(team), Word::Int(i64::from(totals[team]))],
                " ",
            )
        };
        p.score = Some(Word::Msg(
            "belote-score",
            vec![
                ("totals", Word::Seq(vec![side(0), side(1)], " · ")),
                ("target", target),
            ],
        ));
        p.to_act = d.to_act();
        if let Some(r) = self.session.deals().last().and_then(|l| l.result) {
            p.result = Some(picture::DealResult {
                // All passed: the deal is dealt again.
                ended: Some(
                    r.contract
                        .map_or_else(|| Word::msg("web-contract-redeal"), |c| contract_word(v, &c)),
                ),
                declarer: r.contract.map(|c| c.declarer),
                declarer_won: declarer_won(v, &r),
                // The sheet's columns are the two sides (one seat each head to head).
                deltas: r.deltas.iter().map(|&x| i64::from(x)).collect(),
                totals: totals.iter().map(|&x| i64::from(x)).collect(),
                pules: None,
            });
        }
        p
    }

    fn legal(&self, seat: Seat) -> Vec<Value> {
        match self.deal().filter(|d| d.to_act() == Some(seat)) {
            Some(d) => d.legal_actions().iter().map(|&a| action_json(seat, a)).collect(),
            None => Vec::new(),
        }
    }

    fn seat_picture(&self, seat: Seat) -> SeatPicture {
        let mut p = SeatPicture::new(seat);
        let Some(last) = self.last_deal() else {
            return p;
        };
        p.hand = sorted(last.hand(seat), last.contract().map(|c| c.mode));
        let Some(d) = self.deal().filter(|d| d.to_act() == Some(seat)) else {
            return p;
        };
        p.to_act = true;
        let v = self.variant();
        let legal = d.legal_actions();
        let bid = |b: Bid| say(bid_word(v, d.turned(), b), format!("b:{b}"));
        if d.phase() == Phase::Play {
            let plays: CardSet = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Play(c) => Some(*c),
                    _ => None,
                })
                .collect();
            p.decisions = card_decisions(sorted(plays, d.contract().map(|c| c.mode)), "p", None);
            return p;
        }
        if let Some(level) = self.level_pick {
            p.prompt.push(Word::Msg(
                "belote-pick-trump",
                vec![("level", level_button(v, level))],
            ));
        } else if bid_level_open(d) {
            // Bazar and the classic bid in tens: say what the numbers mean.
            p.prompt.push(Word::msg(if v == Variant::Coinche {
                "belote-pick-level"
            } else {
                "belote-pick-level-tens"
            }));
        }
        let bids: Vec<Bid> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Bid(b) => Some(*b),
                _ => None,
            })
            .collect();
        // Words (pass, take, a named suit, the doubles) are decisions of their own.
        let words: Vec<Decision> = bids
            .iter()
            .filter(|b| bid_level(**b).is_none())
            .map(|&b| bid(b))
            .collect();
        let mut rows = vec![words];
        if let Some(level) = self.level_pick {
            let row: Vec<Decision> = bids
                .iter()
                .filter(|b| bid_level(**b).map(|x| x.0) == Some(level))
                .map(|&b| bid(b))
                .collect();
            rows.extend(in_rows(row));
            rows.push(vec![say(Word::Plain("‹".into()), "l:-")]);
            p.decisions = rows;
            return p;
        }
        let levels = self.legal_levels(d);
        let pages = levels.len().div_ceil(LEVELS_PER_PAGE).max(1);
        let page = self.level_page % pages;
        let mut row: Vec<Decision> = Vec::new();
        if page > 0 {
            row.push(say(Word::Plain("«".into()), "l:<"));
        }
        row.extend(
            levels
                .iter()
                .skip(page * LEVELS_PER_PAGE)
                .take(LEVELS_PER_PAGE)
                .map(|&l| say(level_button(v, l), format!("l:{l}"))),
        );
        if page + 1 < pages {
            row.push(say(Word::Plain("»".into()), "l:+"));
        }
        rows.extend(in_rows(row));
        rows.retain(|r| !r.is_empty());
        p.decisions = rows;
        p
    }

    fn press(&mut self, seat: Seat, code: &str, lang: Lang) -> Result<Pressed, Refusal> {
        let d = self.deal().ok_or_else(|| Refusal(t(lang, "button-stale", &[])))?;
        if d.to_act() != Some(seat) {
            return Err(Refusal(t(lang, "turn-not-yours", &[])));
        }
        let v = self.variant();
        let bad = || Refusal(t(lang, "button-bad", &[]));
        let (kind, arg) = code.split_once(':').unwrap_or((code, ""));
        let action = match kind {
            "b" => Action::Bid(Bid::parse(v, arg).ok_or_else(bad)?),
            "p" => Action::Play(arg.parse::<Card>().map_err(|_| bad())?),
            "l" if d.phase() == Phase::Bidding => {
                match arg {
                    "-" => self.level_pick = None,
                    "+" | "<" => {
                        let pages = self.legal_levels(d).len().div_ceil(LEVELS_PER_PAGE).max(1);
                        let page = self.level_page % pages;
                        self.level_page = if arg == "+" {
                            (page + 1) % pages
                        } else {
                            page.saturating_sub(1)
                        };
                    }
                    n => {
                        let level: u8 = n.parse().map_err(|_| bad())?;
                        if !self.legal_levels(d).contains(&level) {
                            return Err(Refusal(t(lang, "belote-level-closed", &[])));
                        }
                        self.level_pick = Some(level);
                    }
                }
                return Ok(Pressed::Selection);
            }
            "l" => return Err(Refusal(t(lang, "button-stale", &[]))),
            _ => return Err(bad()),
        };
        self.check(seat, action, lang).map(Pressed::Action)
    }

    fn apply(&mut self, action: &Value) -> Result<Option<DealReport>, Refusal> {
        let v = self.variant();
        let rec = ActionRecord::deserialize(action)
            .map_err(|e| Refusal(format!("a stored action is malformed ({e})")))?;
        let a = rec.action(v).map_err(Refusal)?;
        let deal_no = self.deal_no();
        self.reset_pick();
        self.session
            .play(rec.seat, a)
            .map_err(|e| Refusal(e.to_string()))?;
        if self.in_deal() {
            return Ok(None);
        }
        let Some(r) = self.session.deals().last().and_then(|l| l.result) else {
            return Ok(None);
        };
        let n = self.seats();
        let deltas: Vec<i32> = (0..n as Seat).map(|s| r.deltas[v.team(s) as usize]).collect();
        Ok(Some(DealReport {
            deal_no,
            deltas,
            declarer: r.contract.map(|c| c.declarer),
            declarer_won: declarer_won(v, &r) == Some(true),
            pules_written: vec![0; n],
            pules_removed: vec![0; n],
        }))
    }

    fn bot_action(&self, level: Level, rng_seed: u64, budget_ms: u64) -> Value {
        let d = self.deal().expect("a bot is asked only during a deal");
        let seat = d.to_act().expect("a bot is asked only on its turn");
        let mut player = ai::belote::player(level, self.session.options());
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        let budget = super::move_budget(budget_ms);
        let a = player.choose(&d.view(seat), &mut rng, &budget);
        action_json(seat, a)
    }

    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.last_deal()
            .map(|d| sorted(d.hand(seat), d.contract().map(|c| c.mode)))
            .unwrap_or_default()
    }

    fn result_text(&self, report: &DealReport, lang: Lang, names: &[String]) -> String {
        let Some(log) = self.session.deals().get(report.deal_no.saturating_sub(1)) else {
            return String::new();
        };
        let Some(r) = &log.result else {
            return String::new();
        };
        let v = self.variant();
        let mut lines = vec![t(
            lang,
            "deal-result-header",
            &[("game", self.game().into()), ("deal", Arg::from(report.deal_no))],
        )];
        match r.contract {
            None => lines.push(t(lang, "belote-redeal", &[])),
            Some(c) => {
                lines.push(t(
                    lang,
                    "deal-declarer",
                    &[
                        ("name", name(names, c.declarer).into()),
                        ("contract", contract_text(lang, v, &c).into()),
                    ],
                ));
                lines.push(t(
                    lang,
                    if report.declarer_won {
                        "belote-made"
                    } else {
                        "belote-failed"
                    },
                    &[],
                ));
                // Belote-rebelote, known while the deal just ended is the last one dealt.
                let declared = self
                    .last_deal()
                    .filter(|d| d.phase() == Phase::Done && report.deal_no == self.deal_no())
                    .map(Deal::declared);
                for team in 0..2 {
                    if let Some(points) = declared.map(|x| x.belote[team]).filter(|&p| p > 0) {
                        lines.push(t(
                            lang,
                            "belote-rebelote-held",
                            &[
                                ("name", self.team_name(names, team).into()),
                                ("points", Arg::from(points)),
                            ],
                        ));
                    }
                }
                if let Some(team) = (0..2).find(|&x| r.tricks[x] as usize == v.hand_size()) {
                    lines.push(t(
                        lang,
                        "belote-capot-taken",
                        &[("name", self.team_name(names, team).into())],
                    ));
                }
                for team in 0..2 {
                    lines.push(t(
                        lang,
                        "belote-team-result",
                        &[
                            ("name", self.team_name(names, team).into()),
                            ("points", Arg::from(r.team_points[team])),
                            ("combinations", Arg::from(r.combinations[team])),
                            ("score", Arg::from(r.deltas[team])),
                        ],
                    ));
                }
            }
        }
        // The deal's score and the running totals on lines of their own, labelled.
        let totals = self.session.totals();
        let list = |of: &dyn Fn(usize) -> String| -> String {
            listed((0..2).map(|team| (self.team_name(names, team), of(team))))
        };
        lines.push(t(
            lang,
            "belote-deal-scores",
            &[("list", list(&|team| format!("{:+}", r.deltas[team])).into())],
        ));
        lines.push(t(
            lang,
            "deal-totals",
            &[("totals", list(&|team| totals[team].to_string()).into())],
        ));
        if let Some(w) = self.session.winner().filter(|_| report.deal_no == self.deal_no()) {
            lines.push(t(
                lang,
                "belote-winner",
                &[("name", self.team_name(names, w as usize).into())],
            ));
        }
        lines.join("\n")
    }

    fn totals(&self) -> Vec<i32> {
        let v = self.variant();
        let totals = self.session.totals();
        (0..v.seats() as Seat)
            .map(|s| totals[v.team(s) as usize])
            .collect()
    }

    /// A belote game starts from 0–0 and ends at its target: nothing of the chat's sheet is
    /// in play at a table (docs/rules-decisions.md).
    fn sheet_extras(&self, _players: &[String]) -> Value {
        Value::Null
    }

    fn carry_in(&mut self, _extras: &Value, _players: &[String]) {}

    /// Nothing is left to settle: every deal was scored when it ended.
    fn settle(&mut self) -> Vec<i32> {
        vec![0; self.seats()]
    }

    fn record(&self, names: &[String]) -> Envelope {
        to_envelope(&self.session, names)
    }

    fn open_view(&self) -> OpenView {
        let Some(d) = self.last_deal() else {
            return OpenView::default();
        };
        let v = self.variant();
        let by_seat = |leader: Seat, cards: &[Card]| -> Vec<(Seat, Card)> {
            let mut s = leader;
            cards
                .iter()
                .map(|&c| {
                    let here = s;
                    s = v.next(s);
                    (here, c)
                })
                .collect()
        };
        let tricks = d
            .tricks()
            .iter()
            .map(|t| (by_seat(t.leader, t.cards()), t.winner))
            .collect();
        let leader = d.tricks().last().map_or(v.next(d.dealer()), |t| t.winner);
        let trick = if d.phase() == Phase::Play {
            by_seat(leader, d.current_trick())
        } else {
            Vec::new()
        };
        let mut all: CardSet = d.stock().iter().copied().collect();
        for h in d.dealt() {
            all |= *h;
        }
        if let Some(c) = d.turned() {
            all.insert(c);
        }
        let trumps = match d.contract().map(|c| c.mode) {
            Some(Mode::Trump(t)) => all.iter().filter(|c| c.suit() == Some(t)).collect(),
            Some(Mode::AllTrumps) => all,
            _ => CardSet::EMPTY,
        };
        OpenView {
            beside: None,
            hands: (0..self.seats() as Seat).map(|s| d.hand(s)).collect(),
            tricks,
            trick,
            trumps,
        }
    }

    fn action_text(&self, action: &Value, lang: Lang, names: &[String]) -> Option<String> {
        let v = self.variant();
        let rec = ActionRecord::deserialize(action).ok()?;
        match rec.action(v).ok()? {
            Action::Bid(b) => {
                let turned = self.deal().and_then(Deal::turned);
                Some(t(
                    lang,
                    "web-act-bid",
                    &[
                        ("name", name(names, rec.seat).into()),
                        ("what", bid_word(v, turned, b).say(lang, &[]).into()),
                    ],
                ))
            }
            Action::Play(_) => None,
        }
    }

    fn card_values(&self) -> Option<Vec<(Card, i32)>> {
        use stikis_core::ai::belote::dd::{index, open_position, Goal, Solver};
        let d = self.deal().filter(|d| d.phase() == Phase::Play)?;
        let contract = d.contract()?;
        let (rules, pos) = open_position(d)?;
        let team = (index(self.variant(), contract.declarer) % 2) as u8;
        let mut solver = Solver::new();
        solver.reset(&rules, Goal::points(team));
        let maximises = pos.to_move(&rules) % 2 == team as usize;
        let values = solver.move_values(&pos);
        Some(
            values
                .into_iter()
                .map(|(c, v)| (rules.card(c), if maximises { v } else { -v }))
                .collect(),
        )
    }

    fn hidden_cards(&self, deal_no: usize) -> Vec<String> {
        let Some(log) = deal_no.checked_sub(1).and_then(|i| self.session.deals().get(i)) else {
            return Vec::new();
        };
        let is_current = deal_no == self.deal_no();
        // The cards of a deal still in hands: the current deal's from the engine; an older
        // deal is over, and its hands were played out (or all passed: the hands as dealt).
        let mut hidden = CardSet::EMPTY;
        match (is_current, self.session.current()) {
            (true, Some(d)) => {
                for s in 0..self.seats() as Seat {
                    hidden |= d.hand(s);
                }
                if d.contract().is_none() {
                    // The stock is dealt only after a take.
                    hidden |= log.stock.iter().copied().collect::<CardSet>();
                }
            }
            _ if log.result.is_some_and(|r| r.contract.is_none()) => {
                for &h in &log.hands {
                    hidden |= h;
                }
                hidden |= log.stock.iter().copied().collect::<CardSet>();
            }
            _ => {}
        }
        // The turned card is shown to everybody before the take.
        if let Some(c) = log.turned {
            hidden.remove(c);
        }
        hidden.iter().map(card_label).collect()
    }

    fn is_over(&self) -> bool {
        self.session.is_over()
    }
}

/// "belote" or "rebelote" when `seat` plays `card`, the king or queen of a trump suit, and
/// held both when the play began: players say it as they play each of the two (RULES.md 2.1).
fn belote_word(d: &Deal, seat: Seat, card: Card) -> Option<&'static str> {
    let mode = d.contract()?.mode;
    let suit = card.suit()?;
    if mode == Mode::NoTrump
        || !mode.is_trump_suit(suit)
        || !matches!(card.rank(), Some(Rank::King | Rank::Queen))
    {
        return None;
    }
    let v = d.variant();
    let mut played = Vec::new();
    for trick in d.tricks() {
        let mut s = trick.leader;
        for &c in trick.cards() {
            if s == seat {
                played.push(c);
            }
            s = v.next(s);
        }
    }
    if !d.current_trick().is_empty() {
        let leader = d.tricks().last().map_or(v.next(d.dealer()), |t| t.winner);
        let mut s = leader;
        for &c in d.current_trick() {
            if s == seat {
                played.push(c);
            }
            s = v.next(s);
        }
    }
    let (king, queen) = (Card::new(Rank::King, suit), Card::new(Rank::Queen, suit));
    let held = d.hand(seat) | played.iter().copied().collect::<CardSet>();
    if !(held.contains(king) && held.contains(queen)) {
        return None;
    }
    let first = played.iter().find(|&&c| c == king || c == queen);
    Some(if first == Some(&card) {
        "belote-belote"
    } else {
        "belote-rebelote"
    })
}

/// How Belote's chat messages say a picture (`crate::draw`).
static LINES: Lines = Lines {
    teams: Some("belote-teams"),
    bids: Some("belote-bids"),
    contract: Some("belote-contract"),
    announced: Some("belote-announced"),
    trick: Some("belote-trick"),
    last_trick: Some("belote-last-trick"),
    taken: Some("belote-tricks-taken"),
    turn: Some("belote-turn"),
    hand: Some("belote-hand"),
    ..Lines::NONE
};

/// Whether the legal bids include levels (Bazar and Coinche ladders).
fn bid_level_open(d: &Deal) -> bool {
    d.legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Bid(b) if bid_level(*b).is_some()))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::games::GameButton;

    fn codes(rows: &[Vec<GameButton>]) -> Vec<String> {
        rows.iter().flatten().map(|b| b.code.clone()).collect()
    }

    /// Every move the buttons reach from `seat`'s hand: the plain buttons, and the trumps of
    /// each level on each page of levels.
    fn reachable(g: &mut BeloteGame, seat: Seat) -> BTreeSet<String> {
        let mut moves = BTreeSet::new();
        let mut levels = BTreeSet::new();
        for _page in 0..6 {
            let rows = g.buttons(seat, Lang::En);
            assert!(
                rows.iter().flatten().count() <= 25,
                "a chat shows at most 25 buttons: {rows:?}"
            );
            for c in codes(&rows) {
                match c.strip_prefix("l:") {
                    Some("+" | "<") => {}
                    Some(n) => {
                        levels.insert(n.to_string());
                    }
                    None => {
                        moves.insert(c);
                    }
                }
            }
            if codes(&rows).contains(&"l:+".to_string()) {
                assert_eq!(g.press(seat, "l:+", Lang::En), Ok(Pressed::Selection));
            }
        }
        for l in levels {
            assert_eq!(g.press(seat, &format!("l:{l}"), Lang::En), Ok(Pressed::Selection));
            let rows = g.buttons(seat, Lang::En);
            assert!(rows.iter().flatten().count() <= 25);
            let c = codes(&rows);
            assert!(c.contains(&"l:-".to_string()), "a picked level can be taken back");
            let trumps: Vec<&String> = c
                .iter()
                .filter(|c| c.starts_with("b:") && c.contains(' '))
                .collect();
            assert!(!trumps.is_empty(), "level {l} offers no bid");
            moves.extend(c.into_iter().filter(|c| !c.starts_with("l:")));
            assert_eq!(g.press(seat, "l:-", Lang::En), Ok(Pressed::Selection));
        }
        moves
    }

    #[test]
    fn the_buttons_reach_exactly_the_legal_actions_and_press_to_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for v in Variant::ALL {
            let rules = serde_json::json!({"target": 100_000});
            let mut g = BeloteGame::new(v.game_name(), &rules, v.seats()).unwrap();
            for deal in 0..4u64 {
                g.start_deal(Seed::from_u64(deal * 31 + v.seats() as u64))
                    .unwrap();
                while let Some(seat) = g.to_act() {
                    let legal: Vec<Action> = g.deal().unwrap().legal_actions().iter().copied().collect();
                    let want: BTreeSet<String> = legal
                        .iter()
                        .map(|a| match a {
                            Action::Bid(b) => format!("b:{b}"),
                            Action::Play(c) => format!("p:{c}"),
                        })
                        .collect();
                    assert_eq!(reachable(&mut g, seat), want, "{v}");
                    // Nobody else has a button.
                    for other in (0..v.seats() as Seat).filter(|&s| s != seat) {
                        assert!(g.buttons(other, Lang::En).is_empty());
                        assert_eq!(
                            g.press(other, want.iter().next().unwrap(), Lang::En),
                            Err(Refusal(t(Lang::En, "turn-not-yours", &[])))
                        );
                    }
                    for a in &legal {
                        let code = match a {
                            Action::Bid(b) => format!("b:{b}"),
                            Action::Play(c) => format!("p:{c}"),
                        };
                        assert_eq!(
                            g.press(seat, &code, Lang::En),
                            Ok(Pressed::Action(action_json(seat, *a)))
                        );
                    }
                    // Mostly passes in the auction, so that deals reach the play.
                    let a = if g.deal().unwrap().phase() == Phase::Bidding
                        && rand::Rng::random_bool(&mut rng, 0.7)
                    {
                        legal[0]
                    } else {
                        legal[rand::Rng::random_range(&mut rng, 0..legal.len())]
                    };
                    g.apply(&action_json(seat, a)).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_table_seats_the_variants_players_and_reads_its_rules() {
        assert!(BeloteGame::new("belote-bazar", &Value::String("default".into()), 3).is_err());
        assert!(BeloteGame::new("belote-h2h", &Value::String("default".into()), 2).is_ok());
        assert!(BeloteGame::new("coinche", &Value::String("lv".into()), 4).is_err());
        let g = BeloteGame::new("coinche", &serde_json::json!({"target": 1000}), 4).unwrap();
        assert_eq!(g.session().options().target, 1000);
        assert_eq!(g.game(), "coinche");
        assert_eq!(g.totals(), vec![0; 4]);
    }
}
