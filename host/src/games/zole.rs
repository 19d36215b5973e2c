//! Zole as the host plays it: a core `Session` behind button codes (`b:take`, `y:QC` for one
//! card of a burial, `p:QC`, `s` to surrender), messages drawn from one seat's view, and the
//! record JSON the action log stores.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use stikis_core::ai::{self, Level};
use stikis_core::cards::{Card, CardSet, Suit};
use stikis_core::games::zole::record::{action_json, deal_json, parse_action, start_deal, to_record};
use stikis_core::games::zole::tables::{category, trick_winner, Category, PLAIN_ORDER, TRUMPS, TRUMP_ORDER};
use stikis_core::games::zole::{
    Action, AllPass, Bands, Bid, Contract, Deal, Kind, Options, Outcome, Phase, PuleEvents, Session,
    Surrender, ZoleError,
};
use stikis_core::record::Envelope;
use stikis_core::{Seat, Seed};

use super::refusal::Refused;
use super::{listed, name, DealReport, HostedGame, OpenView, Pressed, Refusal};
use crate::i18n::{t, Arg, Lang};
use crate::picture::{self, card_decisions, say, Lines, Picture, SeatPicture, Word};

pub struct ZoleGame {
    session: Session,
    /// The first card a burying declarer has picked (a selection, not a move).
    bury_pick: Option<Card>,
    /// Personal pules carried in from the chat's score sheet whose owners do not sit at this
    /// table: they stay open on the sheet, untouched, for a later table or the closing.
    absent_pules: Vec<String>,
    /// The open pules this table started from (carried in from the chat's sheet).
    carried_in: SheetPules,
}

/// Zole's part of a chat's score sheet: the open pules, personal ones named by player (not
/// seat), so that the next table of the chat carries them on however it is seated.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SheetPules {
    pub common: u32,
    pub tree: u32,
    /// Owners of open personal pules, oldest first (a player may hold several).
    pub personal: Vec<String>,
    /// The players of the table that wrote the sheet last: closing the sheet settles each
    /// personal pule among them.
    pub players: Vec<String>,
    /// The rules' `settle_pules_at_end`.
    pub settle_at_end: bool,
}

/// Closing a sheet (RULES.md 1.8): each open personal pule costs its owner 1 per other
/// player, paid to each of them (when the rules settle pules at the end); common pules and
/// tree branches lapse. A sheet written before pules were named by player settles nothing.
pub fn settle_sheet(extras: &Value) -> Vec<(String, i64)> {
    let Ok(p) = serde_json::from_value::<SheetPules>(extras.clone()) else {
        return Vec::new();
    };
    let mut out: Vec<(String, i64)> = p.players.iter().map(|k| (k.clone(), 0)).collect();
    if !p.settle_at_end {
        return out;
    }
    for owner in &p.personal {
        if !out.iter().any(|(k, _)| k == owner) {
            out.push((owner.clone(), 0));
        }
        let others = p.players.iter().filter(|k| *k != owner).count() as i64;
        for (k, d) in out.iter_mut() {
            if k == owner {
                *d -= others;
            } else if p.players.contains(k) {
                *d += 1;
            }
        }
    }
    out
}

/// The kind of refusal an engine error is, by the moment of the deal it happened in.
fn refused(d: &Deal, e: &ZoleError) -> Refused {
    match e {
        ZoleError::DealOver => Refused::Over,
        ZoleError::NotYourTurn { .. } => Refused::NotYourTurn,
        ZoleError::WrongPhase { .. } => match d.phase() {
            Phase::Bidding => Refused::BiddingOn,
            Phase::Bury => Refused::BuryFirst,
            Phase::Play => Refused::PlayOn,
            Phase::Done => Refused::Over,
        },
        ZoleError::BidNotAllowed { .. } => Refused::Bid,
        ZoleError::BuryCount { .. } => Refused::Bury,
        ZoleError::BuryNotHeld { card, .. } | ZoleError::CardNotHeld { card, .. } => Refused::NotHeld(*card),
        ZoleError::MustFollow { example, .. } => Refused::MustFollow(*example),
        ZoleError::SurrenderNotAllowed { .. } => Refused::Surrender,
    }
}

pub use crate::picture::card_label;

/// Cards in the order a Zole player holds them: trumps high to low, then clubs, spades and
/// hearts, each high to low.
pub fn sorted(cards: CardSet) -> Vec<Card> {
    let mut out: Vec<Card> = TRUMP_ORDER
        .iter()
        .copied()
        .filter(|&c| cards.contains(c))
        .collect();
    for suit in [Suit::Clubs, Suit::Spades, Suit::Hearts] {
        for r in PLAIN_ORDER {
            let c = Card::new(r, suit);
            if cards.contains(c) && category(c) != Category::Trumps {
                out.push(c);
            }
        }
    }
    out
}

fn labels(cards: impl IntoIterator<Item = Card>) -> String {
    cards.into_iter().map(card_label).collect::<Vec<_>>().join(" ")
}

fn contract_key(c: Contract) -> &'static str {
    match c {
        Contract::Take => "contract-take",
        Contract::Zole => "contract-zole",
        Contract::SmallZole => "contract-small-zole",
        Contract::Galdins => "contract-galdins",
    }
}

fn contract_word(lang: Lang, c: Contract) -> String {
    t(lang, contract_key(c), &[])
}

/// How a deal ended: its kind said (a surrender with it), its declarer, the sheet's change
/// and totals by seat, and the pules after it.
fn deal_result(r: &stikis_core::games::zole::DealResult, totals: &[i32]) -> picture::DealResult {
    let o = &r.outcome;
    let kind = Word::msg(match o.kind {
        Kind::Take => "contract-take",
        Kind::Zole => "contract-zole",
        Kind::SmallZole => "contract-small-zole",
        Kind::Galdins => "contract-galdins",
        Kind::Pule => "contract-pule",
        Kind::Tie => "web-contract-tie",
    });
    let ended = match o.surrendered {
        true => Word::Seq(vec![kind, Word::msg("web-surrendered")], " · "),
        false => kind,
    };
    let seats = totals.len();
    picture::DealResult {
        ended: Some(ended),
        declarer: o.declarer,
        declarer_won: o.declarer.and(o.declarer_won),
        deltas: r.deltas.iter().map(|&x| i64::from(x)).collect(),
        totals: totals.iter().map(|&x| i64::from(x)).collect(),
        pules: Some(picture::PulesAfter {
            common: i64::from(r.pules_after.common),
            personal: r
                .pules_after
                .personal_counts(seats)
                .into_iter()
                .map(i64::from)
                .collect(),
        }),
    }
}

fn bid_key(b: Bid) -> &'static str {
    match b {
        Bid::Pass => "button-pass",
        Bid::Take => "button-take",
        Bid::Zole => "button-zole",
        Bid::SmallZole => "button-small-zole",
    }
}

fn bid_word(lang: Lang, b: Bid) -> String {
    t(lang, bid_key(b), &[])
}

/// How Zole's chat messages say a picture (`crate::draw`).
static LINES: Lines = Lines {
    sitting_out: Some("zole-sitting-out"),
    bids: Some("zole-bids"),
    contract: Some("zole-contract"),
    trick: Some("zole-trick"),
    last_trick: Some("zole-last-trick-won"),
    taken: Some("zole-tricks-taken"),
    turn: Some("zole-turn"),
    hand: Some("zole-hand"),
    you_sit_out: Some("zole-you-sit-out"),
    ..Lines::NONE
};

/// Cards as one word, in the order given ("K♣ 9♠").
pub(crate) fn cards_word(cards: impl IntoIterator<Item = Card>) -> Word {
    Word::Seq(cards.into_iter().map(Word::Card).collect(), " ")
}

impl ZoleGame {
    pub fn new(rules: &Value, seats: usize) -> Result<ZoleGame, Refusal> {
        let opts = Options::from_rules(rules).map_err(Refusal)?;
        let session = Session::new(opts, seats, 0).map_err(|e| Refusal(e.to_string()))?;
        Ok(ZoleGame {
            session,
            bury_pick: None,
            absent_pules: Vec::new(),
            carried_in: SheetPules::default(),
        })
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn deal(&self) -> Option<&Deal> {
        self.session.current()
    }

    fn last_deal(&self) -> Option<&Deal> {
        self.session.deals().last().map(|e| &e.deal)
    }

    /// Checks a move against the rules without changing anything; the refusal says in the
    /// presser's language which rule the move breaks.
    fn check(&self, seat: Seat, a: Action, lang: Lang) -> Result<Value, Refusal> {
        let d = self.deal().ok_or_else(|| Refused::Over.refusal(lang))?;
        let mut probe = *d;
        probe.apply(seat, a).map_err(|e| refused(d, &e).refusal(lang))?;
        Ok(action_json(seat, a))
    }
}

/// Why a contract scored what it did: the band it fell in by the rules (jaņi, bezstiķis, …)
/// and what each opponent pays or is paid, before pules and the tree.
fn score_why(lang: Lang, deal: &Deal, o: &Outcome, d: Seat) -> String {
    let opts = deal.options();
    let pts = o.card_points[d as usize];
    let mine = o.tricks[d as usize];
    let theirs = o.tricks().iter().map(|&x| u32::from(x)).sum::<u32>() - u32::from(mine);
    let conceded = o.surrendered && opts.surrender == Surrender::ConcedeRest;
    let won = o.declarer_won == Some(true);
    let band = match (opts.bands, pts >= 61) {
        _ if o.kind == Kind::SmallZole => "small",
        _ if o.surrendered && opts.surrender == Surrender::BasicLoss => "surrender",
        (Bands::Tricks, true) if theirs == 0 && !conceded => "bezstikis-won",
        (Bands::Tricks, true) if pts >= 91 => "jani-won",
        (Bands::Tricks, false) if mine == 0 => "bezstikis-lost",
        (Bands::Tricks, false) if pts <= 30 => "jani-lost",
        (Bands::Points, true) if pts >= 120 => "all-won",
        (Bands::Points, true) if pts >= 91 => "jani-won",
        (Bands::Points, false) if pts == 0 => "none-lost",
        (Bands::Points, false) if pts < 30 => "jani-lost",
        (_, true) => "plain-won",
        (_, false) => "plain-lost",
    };
    let other = (0..o.players).find(|&s| s != d).unwrap_or(0);
    t(
        lang,
        "zole-score-why",
        &[
            ("band", band.into()),
            (
                "limit",
                Arg::from(if opts.bands == Bands::Points { 29 } else { 30 }),
            ),
            ("won", if won { "yes" } else { "no" }.into()),
            ("unit", Arg::from(i64::from(o.deltas[other as usize].abs()))),
        ],
    )
}

/// What the pules and the tree did in a deal, with what was paid for them.
fn pule_events(lang: Lang, ev: &PuleEvents, names: &[String], opts: &Options) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(d) = ev.common_removed_by {
        lines.push(t(lang, "zole-pule-bonus", &[("name", name(names, d).into())]));
    }
    match ev.personal_removed {
        Some((owner, by)) if owner == by => lines.push(t(
            lang,
            "zole-pule-own-removed",
            &[("name", name(names, by).into())],
        )),
        Some((owner, by)) => lines.push(t(
            lang,
            "zole-pule-personal-paid",
            &[
                ("name", name(names, by).into()),
                ("owner", name(names, owner).into()),
                ("points", Arg::from(i64::from(opts.personal_pule_payment))),
            ],
        )),
        None => {}
    }
    if let Some(s) = ev.personal_written_to {
        lines.push(t(
            lang,
            "zole-pule-personal-written",
            &[("name", name(names, s).into())],
        ));
    }
    if ev.tree_paid > 0 {
        lines.push(t(
            lang,
            "zole-tree-paid",
            &[("branches", Arg::from(i64::from(ev.tree_paid)))],
        ));
    }
    lines
}

impl HostedGame for ZoleGame {
    fn game(&self) -> &'static str {
        "zole"
    }

    fn seats(&self) -> usize {
        self.session.players()
    }

    fn start_deal(&mut self, seed: Seed) -> Result<Value, Refusal> {
        self.bury_pick = None;
        let d = *self
            .session
            .deal_from_seed(seed)
            .map_err(|e| Refusal(e.to_string()))?;
        Ok(deal_json(&d))
    }

    fn restore_deal(&mut self, deal: &Value) -> Result<(), Refusal> {
        self.bury_pick = None;
        start_deal(&mut self.session, deal).map_err(Refusal)
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
        let mut p = Picture::waiting("zole", self.seats());
        p.lines = &LINES;
        p.totals = self.totals();
        let Some(d) = self.last_deal() else {
            return p;
        };
        let open = self.open_view();
        p.deal_no = self.deal_no();
        p.title = Some(Word::Msg(
            "zole-title",
            vec![
                ("deal", Word::Int(self.deal_no() as i64)),
                ("dealer", Word::Seat(d.dealer())),
            ],
        ));
        p.phase = match d.phase() {
            Phase::Bidding => picture::Phase::Bidding,
            Phase::Bury => picture::Phase::Exchange,
            Phase::Play => picture::Phase::Play,
            Phase::Done => picture::Phase::Done,
        };
        p.dealer = Some(d.dealer());
        p.sitting_out = (0..d.players() as Seat).filter(|&s| !d.is_active(s)).collect();
        p.bids = d
            .bids()
            .iter()
            .map(|&(s, b)| (s, Word::msg(bid_key(b))))
            .collect();
        p.contract = d.contract().map(|c| Word::msg(contract_key(c)));
        p.declarer = d.contract().and(d.declarer());
        p.play_from(open, d.phase() == Phase::Play);
        if d.tricks_done() > 0 {
            p.taken = d
                .active()
                .iter()
                .map(|&s| (Word::Seat(s), i64::from(d.tricks()[s as usize])))
                .collect();
        }
        p.to_act = d.to_act();
        if let Some(r) = self.session.deals().last().and_then(|e| e.result.as_ref()) {
            p.result = Some(deal_result(r, &p.totals));
        }
        p
    }

    fn legal(&self, seat: Seat) -> Vec<Value> {
        let Some(d) = self.deal() else {
            return Vec::new();
        };
        if d.to_act() != Some(seat) {
            return match d.may_surrender(seat) {
                true => vec![action_json(seat, Action::Surrender)],
                false => Vec::new(),
            };
        }
        d.legal_actions().iter().map(|a| action_json(seat, a)).collect()
    }

    fn seat_picture(&self, seat: Seat) -> SeatPicture {
        let mut p = SeatPicture::new(seat);
        let Some(last) = self.last_deal() else {
            return p;
        };
        p.hand = self.hand(seat);
        p.sitting_out = !last.is_active(seat);
        if let Some(b) = last.view(seat).buried {
            p.notes
                .push(Word::Msg("zole-buried", vec![("cards", cards_word(sorted(b)))]));
        }
        let Some(d) = self.deal() else {
            return p;
        };
        p.to_act = d.to_act() == Some(seat);
        let surrender = || say(Word::msg("button-surrender"), "s");
        if !p.to_act {
            // The declarer may surrender while waiting for the others.
            if d.may_surrender(seat) {
                p.decisions = vec![vec![surrender()]];
            }
            return p;
        }
        let legal = d.legal_actions();
        p.decisions = match d.phase() {
            Phase::Bidding => vec![legal
                .iter()
                .filter_map(|a| match a {
                    Action::Bid(b) => Some(say(Word::msg(bid_key(b)), format!("b:{b}"))),
                    _ => None,
                })
                .collect()],
            Phase::Bury => {
                p.prompt.push(Word::msg("zole-bury-pick"));
                if let Some(c) = self.bury_pick {
                    p.prompt
                        .push(Word::Msg("zole-bury-picked", vec![("cards", Word::Card(c))]));
                }
                card_decisions(sorted(d.hand(seat)), "y", self.bury_pick)
            }
            Phase::Play => {
                let mut rows = card_decisions(sorted(legal.plays()), "p", None);
                if legal.contains(Action::Surrender) {
                    rows.push(vec![surrender()]);
                }
                rows
            }
            Phase::Done => Vec::new(),
        };
        p
    }

    fn press(&mut self, seat: Seat, code: &str, lang: Lang) -> Result<Pressed, Refusal> {
        let d = *self.deal().ok_or_else(|| Refusal(t(lang, "button-stale", &[])))?;
        if d.to_act() != Some(seat) && !(code == "s" && d.may_surrender(seat)) {
            return Err(Refusal(t(lang, "turn-not-yours", &[])));
        }
        let bad = || Refusal(t(lang, "button-bad", &[]));
        let (kind, arg) = code.split_once(':').unwrap_or((code, ""));
        let card = || arg.parse::<Card>().map_err(|_| bad());
        let action = match kind {
            "b" => Action::Bid(arg.parse::<Bid>().map_err(|_| bad())?),
            "p" => Action::Play(card()?),
            "s" if arg.is_empty() => Action::Surrender,
            "y" if d.phase() == Phase::Bury => {
                let c = card()?;
                if !d.hand(seat).contains(c) {
                    return Err(Refused::NotHeld(c).refusal(lang));
                }
                match self.bury_pick {
                    None => {
                        self.bury_pick = Some(c);
                        return Ok(Pressed::Selection);
                    }
                    // Picked already (the same press delivered again).
                    Some(first) if first == c => return Ok(Pressed::Selection),
                    Some(first) => Action::Bury(first, c),
                }
            }
            "n" if d.phase() == Phase::Bury => {
                // The pick taken back; again, or of a card not picked, changes nothing.
                let c = card()?;
                if self.bury_pick == Some(c) {
                    self.bury_pick = None;
                }
                return Ok(Pressed::Selection);
            }
            "y" | "n" => return Err(Refusal(t(lang, "button-stale", &[]))),
            _ => return Err(bad()),
        };
        self.check(seat, action, lang).map(Pressed::Action)
    }

    fn selection(&self, seat: Seat) -> Option<String> {
        self.selecting(seat)
            .then_some(self.bury_pick)
            .flatten()
            .map(|c| format!("y:{c}"))
    }

    fn selecting(&self, seat: Seat) -> bool {
        self.session
            .current()
            .is_some_and(|d| d.phase() == Phase::Bury && d.to_act() == Some(seat))
    }

    fn apply(&mut self, action: &Value) -> Result<Option<DealReport>, Refusal> {
        let (seat, a) = parse_action(action).map_err(Refusal)?;
        let deal_no = self.deal_no();
        let n = self.seats();
        if matches!(a, Action::Bury(..)) {
            self.bury_pick = None;
        }
        let result = self.session.apply(seat, a).map_err(|e| Refusal(e.to_string()))?;
        let Some(r) = result else { return Ok(None) };
        let mut written = vec![0; n];
        let mut removed = vec![0; n];
        if let Some(s) = r.events.personal_written_to {
            written[s as usize] += 1;
        }
        if let Some(s) = r.events.common_removed_by {
            removed[s as usize] += 1;
        }
        if let Some((_, by)) = r.events.personal_removed {
            removed[by as usize] += 1;
        }
        Ok(Some(DealReport {
            deal_no,
            deltas: r.deltas.clone(),
            declarer: r.outcome.declarer,
            declarer_won: r.outcome.declarer_won == Some(true),
            pules_written: written,
            pules_removed: removed,
        }))
    }

    fn bot_action(&self, level: Level, rng_seed: u64, budget_ms: u64) -> Value {
        let d = self.deal().expect("a bot is asked only during a deal");
        let seat = d.to_act().expect("a bot is asked only on its turn");
        let mut player = ai::zole::player(level, *self.session.options());
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        let budget = super::move_budget(budget_ms);
        let a = player.choose(&d.view(seat), &mut rng, &budget);
        action_json(seat, a)
    }

    fn hand(&self, seat: Seat) -> Vec<Card> {
        self.last_deal()
            .map(|d| sorted(d.view(seat).hand))
            .unwrap_or_default()
    }

    fn result_text(&self, report: &DealReport, lang: Lang, names: &[String]) -> String {
        let Some(entry) = self.session.deals().get(report.deal_no.saturating_sub(1)) else {
            return String::new();
        };
        let Some(r) = &entry.result else {
            return String::new();
        };
        let o = &r.outcome;
        let mut lines = vec![t(
            lang,
            "deal-result-header",
            &[("game", self.game().into()), ("deal", Arg::from(report.deal_no))],
        )];
        match (o.kind, o.declarer) {
            (Kind::Pule, _) => lines.push(t(lang, "deal-all-passed", &[])),
            (Kind::Tie, _) => lines.push(t(lang, "zole-tie", &[])),
            (Kind::Galdins, _) => {
                let losers: Vec<String> = (0..self.seats() as Seat)
                    .filter(|&s| o.losers & (1 << s) != 0)
                    .map(|s| name(names, s))
                    .collect();
                let why = if self.session.options().all_pass == AllPass::Rondo {
                    "zole-galdins-why-points"
                } else {
                    "zole-galdins-why-tricks"
                };
                lines.push(if losers.is_empty() {
                    t(lang, "zole-galdins-nobody", &[])
                } else {
                    t(
                        lang,
                        "zole-galdins-lost",
                        &[
                            ("names", losers.join(", ").into()),
                            ("why", t(lang, why, &[]).into()),
                        ],
                    )
                });
            }
            (_, Some(d)) => {
                let c = entry
                    .deal
                    .contract()
                    .map(|c| contract_word(lang, c))
                    .unwrap_or_default();
                lines.push(t(
                    lang,
                    "deal-declarer",
                    &[("name", name(names, d).into()), ("contract", c.clone().into())],
                ));
                let small = entry.deal.contract() == Some(Contract::SmallZole);
                let key = match (o.declarer_won, small) {
                    (Some(true), false) => "zole-declarer-won",
                    (Some(true), true) => "zole-small-won",
                    (_, false) => "zole-declarer-lost",
                    (_, true) => "zole-small-lost",
                };
                lines.push(t(
                    lang,
                    key,
                    &[
                        ("name", name(names, d).into()),
                        ("contract", c.into()),
                        ("points", Arg::from(o.card_points[d as usize] as i64)),
                    ],
                ));
                lines.push(score_why(lang, &entry.deal, o, d));
            }
            _ => {}
        }
        if o.surrendered {
            lines.push(t(lang, "zole-surrendered", &[]));
        }
        if o.kind != Kind::Pule {
            for s in entry.deal.active() {
                lines.push(t(
                    lang,
                    "zole-seat-result",
                    &[
                        ("name", name(names, s).into()),
                        ("points", Arg::from(o.card_points[s as usize] as i64)),
                        ("tricks", Arg::from(o.tricks[s as usize] as i64)),
                    ],
                ));
            }
            let talon = labels(sorted(entry.deal.talon()));
            match (entry.deal.contract(), o.declarer) {
                (Some(Contract::Take), Some(d)) => {
                    lines.push(t(
                        lang,
                        "zole-talon-picked-up",
                        &[("name", name(names, d).into()), ("cards", talon.into())],
                    ));
                    lines.push(t(
                        lang,
                        "zole-buried-by",
                        &[
                            ("name", name(names, d).into()),
                            ("cards", labels(sorted(entry.deal.buried())).into()),
                        ],
                    ));
                }
                (Some(_), Some(_)) => lines.push(t(lang, "zole-talon-untouched", &[("cards", talon.into())])),
                _ => lines.push(t(lang, "zole-talon", &[("cards", talon.into())])),
            }
        }
        lines.extend(pule_events(lang, &r.events, names, self.session.options()));
        let totals = self.totals();
        let deltas =
            listed((0..self.seats()).map(|s| (name(names, s as Seat), format!("{:+}", report.deltas[s]))));
        let running = listed((0..self.seats()).map(|s| (name(names, s as Seat), totals[s])));
        lines.push(t(lang, "zole-deal-points", &[("list", deltas.into())]));
        lines.push(t(lang, "deal-totals", &[("totals", running.into())]));
        let p = &r.pules_after;
        if p.common > 0 || !p.personal.is_empty() {
            let owners: Vec<String> = p.personal.iter().map(|&s| name(names, s)).collect();
            let owners = if owners.is_empty() {
                vec!["none".to_string()]
            } else {
                owners
            };
            lines.push(t(
                lang,
                "zole-pules",
                &[
                    ("common", Arg::from(p.common as i64)),
                    ("personal", owners.join(", ").into()),
                ],
            ));
        }
        if p.tree > 0 {
            lines.push(t(lang, "zole-tree", &[("branches", Arg::from(p.tree as i64))]));
        }
        lines.join("\n")
    }

    fn totals(&self) -> Vec<i32> {
        self.session.sheet.totals.clone()
    }

    fn sheet_extras(&self, players: &[String]) -> Value {
        let p = &self.session.pules;
        let mut personal = self.absent_pules.clone();
        personal.extend(
            p.personal
                .iter()
                .filter_map(|&s| players.get(s as usize).cloned()),
        );
        let sheet = SheetPules {
            common: p.common,
            tree: p.tree,
            personal,
            players: players.to_vec(),
            settle_at_end: self.session.options().settle_pules_at_end,
        };
        serde_json::to_value(sheet).unwrap_or(Value::Null)
    }

    fn carry_in(&mut self, extras: &Value, players: &[String]) {
        let Ok(sheet) = serde_json::from_value::<SheetPules>(extras.clone()) else {
            return;
        };
        self.carried_in = sheet.clone();
        let pules = &mut self.session.pules;
        pules.common = sheet.common;
        pules.tree = sheet.tree;
        pules.personal.clear();
        self.absent_pules.clear();
        for owner in sheet.personal {
            match players.iter().position(|k| *k == owner) {
                Some(seat) => pules.personal.push(seat as Seat),
                None => self.absent_pules.push(owner),
            }
        }
    }

    fn settle(&mut self) -> Vec<i32> {
        self.session.settle()
    }

    fn record(&self, names: &[String]) -> Envelope {
        to_record(&self.session, names)
    }

    fn record_note(&self, lang: Lang) -> Option<String> {
        let c = &self.carried_in;
        (c.common + c.tree > 0 || !c.personal.is_empty()).then(|| {
            t(
                lang,
                "record-carried-pules",
                &[
                    ("common", Arg::from(c.common)),
                    ("personal", Arg::from(c.personal.len())),
                    ("tree", Arg::from(c.tree)),
                ],
            )
        })
    }

    fn open_view(&self) -> OpenView {
        let Some(d) = self.last_deal() else {
            return OpenView::default();
        };
        let order = d.active();
        let seats_of = |leader: Seat, n: usize| -> Vec<Seat> {
            let start = order.iter().position(|&s| s == leader).unwrap_or(0);
            (0..n).map(|i| order[(start + i) % 3]).collect()
        };
        let tricks = (0..d.tricks_done())
            .filter_map(|k| {
                let cards = &d.played()[3 * k..3 * k + 3];
                let seats = seats_of(d.trick_leader(k)?, 3);
                let winner = seats[trick_winner(cards)];
                Some((seats.into_iter().zip(cards.iter().copied()).collect(), winner))
            })
            .collect();
        let (now, leader) = d.current_trick();
        let trick = if d.phase() == Phase::Play {
            seats_of(leader, now.len())
                .into_iter()
                .zip(now.iter().copied())
                .collect()
        } else {
            Vec::new()
        };
        // The talon lies beside the hands until the declarer of a take picks it up; once he has
        // buried, his burial lies there (a zole leaves the talon where it is).
        let declarer = d.declarer().map(Word::Seat);
        let beside = match (d.contract(), d.phase(), declarer) {
            (Some(Contract::Take), Phase::Bury, Some(who)) => {
                Some((Word::Msg("web-talon-taken", vec![("name", who)]), Vec::new()))
            }
            (Some(Contract::Take), Phase::Play | Phase::Done, Some(who)) => {
                Some((Word::Msg("web-buried", vec![("name", who)]), sorted(d.buried())))
            }
            _ if !d.talon().is_empty() => Some((Word::msg("web-talon"), sorted(d.talon()))),
            _ => None,
        };
        OpenView {
            beside,
            hands: (0..self.session.players() as Seat).map(|s| d.hand(s)).collect(),
            tricks,
            trick,
            trumps: TRUMPS,
        }
    }

    fn action_text(&self, action: &Value, lang: Lang, names: &[String]) -> Option<String> {
        let (seat, a) = parse_action(action).ok()?;
        let who = Arg::from(name(names, seat));
        Some(match a {
            Action::Bid(b) => t(
                lang,
                "web-act-bid",
                &[("name", who), ("what", bid_word(lang, b).into())],
            ),
            Action::Bury(..) => t(
                lang,
                "web-act-bury",
                &[("name", who), ("cards", labels(sorted(a.bury_set())).into())],
            ),
            Action::Surrender => t(lang, "web-act-surrender", &[("name", who)]),
            Action::Play(_) => return None,
        })
    }

    fn card_values(&self) -> Option<Vec<(Card, i32)>> {
        use stikis_core::ai::zole::dd::{card_of, open_position, Goal, Solver};
        let d = self.deal().filter(|d| d.phase() == Phase::Play)?;
        let declarer = d.active().iter().position(|&s| Some(s) == d.declarer())?;
        let goal = match d.contract()? {
            Contract::Take | Contract::Zole => Goal::points_of(declarer),
            Contract::SmallZole => Goal::small_zole(declarer),
            Contract::Galdins => return None,
        };
        let pos = open_position(d);
        let mut solver = Solver::new();
        solver.reset(goal);
        let maximises = goal.max_side >> pos.to_move() & 1 == 1;
        let values = solver.move_values(&pos);
        Some(
            values
                .into_iter()
                .map(|(c, v)| (card_of(c), if maximises { v } else { -v }))
                .collect(),
        )
    }

    fn hidden_cards(&self, deal_no: usize) -> Vec<String> {
        let Some(d) = deal_no
            .checked_sub(1)
            .and_then(|i| self.session.deals().get(i))
            .map(|e| &e.deal)
        else {
            return Vec::new();
        };
        let mut hidden = d.active().iter().fold(CardSet::EMPTY, |s, &p| s | d.hand(p));
        if d.phase() != Phase::Done {
            // A take's talon joins the declarer's hand and may be played: what was played is
            // public.
            let played: CardSet = d.played().iter().copied().collect();
            hidden = (hidden | d.talon() | d.buried()).minus(played);
        }
        hidden.iter().map(card_label).collect()
    }
}
