//! The typed picture of a table (`stikis_host::picture`), for every game, preset and size of
//! table, over seeded random deals: the public part never shows a card of a hidden hand, the
//! talon or a burial; a seat's part holds exactly that seat's cards; the decisions offered
//! reach exactly the moves the rules core allows; and a game rebuilt from the record (the
//! deals and the actions, as the host's log keeps them) pictures every step as the live one.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use stikis_core::cards::Card;
use stikis_core::{Seat, Seed};
use stikis_host::games::{new_game, DealReport, HostedGame, Pressed};
use stikis_host::i18n::Lang;
use stikis_host::picture::{DealResult, Phase, Picture};

/// The seeds every case is played from (a failure names its seed).
const SEEDS: [u64; 2] = [11, 2026];
/// Deals played per case and seed.
const DEALS: usize = 2;

/// A record so far: each deal object and the actions applied since.
#[derive(Default, Clone)]
struct Log {
    deals: Vec<(Value, Vec<Value>)>,
}

fn rebuilt(game: &str, rules: &Value, seats: usize, log: &Log) -> Box<dyn HostedGame> {
    let mut g = new_game(game, rules, seats).expect("the game opens again");
    for (deal, actions) in &log.deals {
        g.restore_deal(deal).expect("a deal of the log restores");
        for a in actions {
            g.apply(a).expect("an action of the log applies");
        }
    }
    g
}

/// An action as a set-like value: a burial names its two cards in either order.
fn normal(mut v: Value) -> String {
    if let Some(m) = v.as_object_mut() {
        for x in m.values_mut() {
            if let Some(a) = x.as_array_mut() {
                a.sort_by_key(Value::to_string);
            }
        }
    }
    v.to_string()
}

/// Every move `seat`'s decisions reach from the state `log` leads to: each decision pressed
/// on a copy, and a selection (a pick of a burial, a level or a page of levels) followed by
/// what it offers then.
fn reachable(game: &str, rules: &Value, seats: usize, log: &Log, seat: Seat) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = paths.pop() {
        let mut g = rebuilt(game, rules, seats, log);
        for code in &path {
            g.press(seat, code, Lang::En).expect("a selection presses again");
        }
        let offered: Vec<String> = g
            .seat_picture(seat)
            .decisions
            .iter()
            .flatten()
            .map(|d| d.code.clone())
            .collect();
        let mut state = offered.clone();
        state.sort();
        if !seen.insert(state) {
            continue;
        }
        for code in offered {
            let mut g = rebuilt(game, rules, seats, log);
            for c in &path {
                g.press(seat, c, Lang::En).expect("a selection presses again");
            }
            match g.press(seat, &code, Lang::En) {
                Ok(Pressed::Action(a)) => {
                    found.insert(normal(a));
                }
                Ok(Pressed::Selection) => {
                    let mut next = path.clone();
                    next.push(code);
                    paths.push(next);
                }
                Err(e) => panic!("the offered decision {code} was refused: {e}"),
            }
        }
    }
    found
}

fn labels(cards: &[Card]) -> Vec<String> {
    cards
        .iter()
        .flat_map(|c| [c.to_string(), stikis_host::games::zole::card_label(*c)])
        .collect()
}

fn check_step(game: &str, rules: &Value, seats: usize, log: &Log, g: &dyn HostedGame, why: &str) {
    let p = g.picture();
    assert_eq!(
        p.result.is_some(),
        p.phase == Phase::Done,
        "{why}: a result is pictured exactly when the deal is done"
    );
    let hidden: BTreeSet<String> = g.hidden_cards(p.deal_no).into_iter().collect();
    for shown in labels(&p.cards()) {
        assert!(
            !hidden.contains(&shown),
            "{why}: the public picture shows {shown}"
        );
    }
    let open = g.open_view();
    for seat in 0..seats as Seat {
        let mine = g.seat_picture(seat);
        let held: BTreeSet<Card> = open
            .hands
            .get(seat as usize)
            .map(|h| h.iter().collect())
            .unwrap_or_default();
        let drawn: BTreeSet<Card> = mine.hand.iter().copied().collect();
        assert_eq!(drawn, held, "{why}: seat {seat}'s hand in its picture");
        assert_eq!(
            mine.hand.len(),
            held.len(),
            "{why}: seat {seat}'s hand twice a card"
        );
        for d in mine.decisions.iter().flatten() {
            if let Some(c) = d.choice.card() {
                assert!(
                    held.contains(&c),
                    "{why}: seat {seat} is offered {c} it does not hold"
                );
            }
        }
        // Another seat's hidden cards never reach this seat's part, except what it knows
        // by the rules (its burial, the cards it exchanged).
        let others: BTreeSet<Card> = open
            .hands
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat as usize)
            .flat_map(|(_, h)| h.iter())
            .collect();
        let exchanged = mine.notes.iter().flat_map(|w| w.cards()).collect::<BTreeSet<_>>();
        for c in mine.cards() {
            assert!(
                !others.contains(&c) || exchanged.contains(&c),
                "{why}: seat {seat}'s picture shows {c} of another hand"
            );
        }
        check_hand_buttons(game, rules, seats, log, g, seat, &mine.hand, why);
        let legal: BTreeSet<String> = g.legal(seat).into_iter().map(normal).collect();
        let reached = reachable(game, rules, seats, log, seat);
        assert_eq!(
            reached, legal,
            "{why}: seat {seat}'s decisions against the rules' moves"
        );
    }
    // The same game rebuilt from the log pictures the same table.
    let again = rebuilt(game, rules, seats, log);
    assert_eq!(again.picture(), p, "{why}: the picture rebuilt from the record");
    for seat in 0..seats as Seat {
        assert_eq!(
            again.seat_picture(seat),
            g.seat_picture(seat),
            "{why}: seat {seat}'s picture rebuilt from the record"
        );
    }
}

/// Hands drawn with disabled cards (`check_hand_buttons`): the cases must reach some.
static DISABLED_HANDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `seat`'s hand as a surface with disabled buttons draws it (`HostedGame::hand_buttons`):
/// the pressable buttons are its decisions (`buttons`), no more and no less; while cards are
/// played, every card of the hand is there in its order, and the ones that cannot be played
/// now are disabled, a press on one refused as an illegal move; and drawn without disabled
/// buttons (`outbox::pressable`) the rows are `buttons`' own.
#[allow(clippy::too_many_arguments)]
fn check_hand_buttons(
    game: &str,
    rules: &Value,
    seats: usize,
    log: &Log,
    g: &dyn HostedGame,
    seat: Seat,
    hand: &[Card],
    why: &str,
) {
    use stikis_host::Button;
    let plain = g.buttons(seat, Lang::En);
    let full = g.hand_buttons(seat, Lang::En);
    let codes = |rows: &[Vec<stikis_host::games::GameButton>], disabled: bool| -> Vec<String> {
        rows.iter()
            .flatten()
            .filter(|b| b.disabled == disabled)
            .map(|b| b.code.clone())
            .collect()
    };
    let mut enabled = codes(&full, false);
    let mut offered = codes(&plain, false);
    enabled.sort();
    offered.sort();
    assert_eq!(enabled, offered, "{why}: seat {seat}'s pressable hand buttons");
    let disabled = codes(&full, true);
    let plays = g
        .seat_picture(seat)
        .decisions
        .iter()
        .flatten()
        .any(|d| matches!(d.choice, stikis_host::picture::Choice::Play(_)));
    if plays && !disabled.is_empty() {
        let drawn: Vec<String> = full
            .iter()
            .flatten()
            .filter_map(|b| b.code.split_once(':').and_then(|(_, c)| c.parse::<Card>().ok()))
            .map(|c| c.to_string())
            .collect();
        let held: Vec<String> = hand.iter().map(Card::to_string).collect();
        assert_eq!(drawn, held, "{why}: seat {seat}'s hand drawn whole, in order");
        DISABLED_HANDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut copy = rebuilt(game, rules, seats, log);
        for code in &disabled {
            assert!(
                copy.press(seat, code, Lang::En).is_err(),
                "{why}: seat {seat}'s disabled {code} was taken"
            );
        }
    } else {
        assert!(
            disabled.is_empty(),
            "{why}: seat {seat} has disabled buttons with no card to play"
        );
    }
    let as_buttons = |rows: &[Vec<stikis_host::games::GameButton>]| -> Vec<Vec<Button>> {
        rows.iter()
            .map(|r| {
                r.iter()
                    .map(|b| Button {
                        label: b.label.clone(),
                        token: stikis_host::token::Token::new(1, 2, b.code.clone())
                            .encode()
                            .unwrap(),
                        disabled: b.disabled,
                        card: b.card,
                    })
                    .collect()
            })
            .collect()
    };
    assert_eq!(
        stikis_host::outbox::pressable(&as_buttons(&full)),
        as_buttons(&plain),
        "{why}: seat {seat}'s hand without disabled buttons"
    );
}

/// Plays one case; returns the steps checked.
fn play_case(game: &str, preset: &str, seats: usize, seed: u64) -> usize {
    let rules = Value::String(preset.into());
    let mut g = new_game(game, &rules, seats).expect("the game opens");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = Log::default();
    let case = format!("{game} {preset} with {seats} seats, seed {seed}");
    let mut checked = 1;
    let mut sums = Vec::new();
    let mut results = Vec::new();
    check_step(game, &rules, seats, &log, &*g, &format!("{case}, before a deal"));
    for deal in 0..DEALS {
        if g.is_over() {
            break;
        }
        let mut s = [0u8; 32];
        rng.fill(&mut s);
        let d = g.start_deal(Seed(s)).expect("a deal starts");
        log.deals.push((d, Vec::new()));
        let mut step = 0;
        while let Some(seat) = g.to_act() {
            check_step(
                game,
                &rules,
                seats,
                &log,
                &*g,
                &format!("{case}, deal {deal}, step {step}"),
            );
            let moves = g.legal(seat);
            assert!(!moves.is_empty(), "{case}: seat {seat} is to act with no move");
            let a = moves[rng.random_range(0..moves.len())].clone();
            let report = g.apply(&a).expect("a legal move applies");
            log.deals.last_mut().expect("a deal").1.push(a);
            step += 1;
            if let Some(report) = report {
                check_result(&*g, &report, &mut sums, &format!("{case}, deal {deal}"));
                results.push(g.picture().result.expect("a result"));
            }
        }
        check_step(
            game,
            &rules,
            seats,
            &log,
            &*g,
            &format!("{case}, deal {deal} played"),
        );
        checked += step + 1;
    }
    check_replayed(&*g, &results, &case);
    checked
}

/// The sheet's columns of a picture: its sides where seats play in teams, else each seat.
fn columns(p: &Picture, seats: usize) -> Vec<Vec<Seat>> {
    match p.teams.is_empty() {
        true => (0..seats as Seat).map(|s| vec![s]).collect(),
        false => p.teams.clone(),
    }
}

/// The typed result of a deal just ended against the host's report of it (the deltas its
/// leaderboard counts, by seat) and against the totals: each column's total is the sum of its
/// deltas so far, and the picture's total of each seat of the column.
fn check_result(g: &dyn HostedGame, report: &DealReport, sums: &mut Vec<i64>, why: &str) {
    let p = g.picture();
    assert_eq!(p.phase, Phase::Done, "{why}: a report ends the deal");
    let r = p.result.clone().expect("a finished deal's result");
    let cols = columns(&p, g.seats());
    assert_eq!(r.deltas.len(), cols.len(), "{why}: a delta per column");
    assert_eq!(r.totals.len(), cols.len(), "{why}: a total per column");
    sums.resize(cols.len(), 0);
    for (i, col) in cols.iter().enumerate() {
        for &s in col {
            assert_eq!(
                i64::from(report.deltas[s as usize]),
                r.deltas[i],
                "{why}: seat {s}'s delta"
            );
            assert_eq!(
                i64::from(p.totals[s as usize]),
                r.totals[i],
                "{why}: seat {s}'s total"
            );
        }
        sums[i] += r.deltas[i];
    }
    assert_eq!(&r.totals, sums, "{why}: the totals are the deltas summed");
    match g.game() {
        // The Tzar is the host's "declarer" for the leaderboard; the sheet names none.
        "polt" => assert_eq!((r.ended.clone(), r.declarer), (None, None), "{why}"),
        _ => {
            assert!(r.ended.is_some(), "{why}: how the deal ended");
            assert_eq!(r.declarer, report.declarer, "{why}: the declarer");
            let won = r.declarer.map(|_| report.declarer_won);
            assert_eq!(r.declarer_won, won, "{why}: the declarer's win");
        }
    }
    assert_eq!(r.pules.is_some(), g.game() == "zole", "{why}: pules are Zole's");
}

/// Each deal's typed result against `stikis replay`'s output of the game's record, which
/// scores the deals with the rules core's own code: the same deltas (Polt: tricks), declarer
/// and, in Zole, pules after each deal.
fn check_replayed(g: &dyn HostedGame, results: &[DealResult], case: &str) {
    let names: Vec<String> = (0..g.seats()).map(|s| format!("P{s}")).collect();
    let record = serde_json::to_vec(&g.record(&names)).expect("a record");
    let out = stikis_core::record::replay(&record).expect("the record replays");
    for (i, r) in results.iter().enumerate() {
        let d = &out["deals"][i];
        let why = format!("{case}, deal {i} replayed");
        let deltas: Vec<i64> = d[if g.game() == "polt" { "tricks" } else { "deltas" }]
            .as_array()
            .unwrap_or_else(|| panic!("{why}: no deltas in {d}"))
            .iter()
            .map(|x| x.as_i64().expect("a number"))
            .collect();
        assert_eq!(r.deltas, deltas, "{why}: deltas");
        if g.game() != "polt" {
            let declarer = d["declarer"].as_u64().map(|s| s as Seat);
            assert_eq!(r.declarer, declarer, "{why}: declarer");
        }
        if let Some(pules) = &r.pules {
            assert_eq!(
                Some(pules.common),
                d["pules"]["common"].as_i64(),
                "{why}: common pules"
            );
            let personal: Vec<i64> = d["pules"]["personal"]
                .as_array()
                .expect("personal pules")
                .iter()
                .map(|x| x.as_i64().expect("a number"))
                .collect();
            assert_eq!(pules.personal, personal, "{why}: personal pules");
        }
    }
    assert_eq!(
        out["deals"]
            .as_array()
            .map(|d| d.iter().filter(|d| d.get("complete").is_none()).count()),
        Some(results.len()),
        "{case}: a result per finished deal"
    );
}

#[test]
fn every_games_picture_hides_what_it_must_offers_what_the_rules_allow_and_replays_alike() {
    let (mut cases, mut steps) = (0, 0);
    for info in stikis_core::games::GAMES {
        let (low, high) = info.seats;
        let sizes: BTreeSet<usize> = [low, high].into_iter().collect();
        for preset in info.presets {
            for &seats in &sizes {
                for seed in SEEDS {
                    steps += play_case(info.id, preset, seats, seed);
                    cases += 1;
                }
            }
        }
    }
    // Zole (5 presets × 2 sizes), four belote games, Polt (2 sizes): at least 30 cases.
    assert!(cases >= 30, "only {cases} cases were played");
    // A deal is at least 24 moves (Zole: 3 bids and 24 cards at the least).
    assert!(
        steps >= cases * DEALS * 24,
        "only {steps} steps were checked in {cases} cases"
    );
    let disabled = DISABLED_HANDS.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        disabled > cases,
        "only {disabled} hands had cards that could not be played"
    );
    eprintln!("{cases} cases, {steps} steps checked, {disabled} hands with disabled cards");
}

#[test]
fn the_table_message_of_a_finished_zole_deal_names_who_took_its_last_trick() {
    let names: Vec<String> = ["Anna", "Bruno", "Carl"].map(String::from).to_vec();
    for seed in SEEDS {
        let rules = Value::String("lv".into());
        let mut g = new_game("zole", &rules, 3).expect("zole opens");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = [0u8; 32];
        rng.fill(&mut s);
        g.start_deal(Seed(s)).expect("a deal starts");
        while let Some(seat) = g.to_act() {
            let moves = g.legal(seat);
            // Never surrender: the deal is played to its last trick.
            let plain: Vec<&Value> = moves.iter().filter(|m| m.get("surrender").is_none()).collect();
            let a = plain[rng.random_range(0..plain.len())].clone();
            g.apply(&a).expect("a legal move applies");
        }
        let p = g.picture();
        if p.contract.is_none() || p.last_trick.is_none() {
            continue;
        }
        let taker = p
            .last_trick
            .and_then(|t| t.winner)
            .expect("the last trick's taker");
        let text = g.public_text(Lang::En, &names);
        let line = text
            .lines()
            .find(|l| l.starts_with("Last trick"))
            .unwrap_or_else(|| panic!("seed {seed}: no last trick in\n{text}"));
        let took = format!("{} took it", names[taker as usize]);
        assert!(line.contains(&took), "seed {seed}: {took:?} in {line}");
    }
}
