//! Writes the Zole golden records under core/tests/golden/zole/<preset>/<case>.json with the
//! engine's replay output beside them (<case>.out.json). Run by hand, not by the tests:
//!
//!     cargo run --release -p stikis-core --example zole_goldens
//!
//! Finding a deal that reaches, say, "zole lost with no trick" by hand is slow, so each case
//! is a list of steps (one per deal of the record): a bidding script and a condition on the
//! deal's trick results (declarer's card points and tricks, never its score). For each step
//! the generator tries seeded deals and simple play policies (a seat playing its highest,
//! lowest or a random legal card) until the condition holds. The scores in the written
//! output are NOT trusted because of that: core/tests/zole_golden.rs checks every case
//! against core/tests/golden/zole/manifest.json, written by hand from RULES.md.

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use stikis_core::cards::Card;
use stikis_core::games::zole::record::{output, to_record};
use stikis_core::games::zole::tables::{category, points, Category, PLAIN_ORDER, TRUMP_ORDER};
use stikis_core::games::zole::{Action, Bid, Deal, Kind, Options, Outcome, Phase, Session};
use stikis_core::{Seat, Seed};

/// Who speaks in a bidding script: a fixed seat, or the first/second/third hand.
#[derive(Clone, Copy)]
enum Who {
    Seat(Seat),
    Hand(usize),
}

#[derive(Clone, Copy)]
enum Bidding {
    AllPass,
    /// `who` calls `bid`, everybody else passes.
    Call(Who, Bid),
    /// `caller` calls small zole and `over` overcalls with zole (rondo).
    Overcall(Who, Who),
}

#[derive(Clone, Copy, PartialEq)]
enum Policy {
    High,
    Low,
    Random,
}

type Want = Box<dyn Fn(&Deal, &Outcome) -> bool>;

struct Step {
    bidding: Bidding,
    /// The declarer surrenders on his turn once he has played this many cards.
    surrender_after: Option<usize>,
    want: Want,
}

struct Case {
    preset: &'static str,
    name: &'static str,
    opts: Options,
    players: usize,
    first_dealer: Seat,
    steps: Vec<Step>,
}

fn step(bidding: Bidding, want: impl Fn(&Deal, &Outcome) -> bool + 'static) -> Step {
    Step {
        bidding,
        surrender_after: None,
        want: Box::new(want),
    }
}

fn is(d: &Deal, who: Who, seat: Seat) -> bool {
    match who {
        Who::Seat(s) => s == seat,
        Who::Hand(k) => d.active()[k] == seat,
    }
}

/// Strength of a card for the High/Low policies: trumps above plain cards.
fn strength(c: Card) -> u32 {
    if category(c) == Category::Trumps {
        100 + (14 - TRUMP_ORDER.iter().position(|&t| t == c).unwrap_or(0) as u32)
    } else {
        4 - PLAIN_ORDER.iter().position(|&r| Some(r) == c.rank()).unwrap_or(0) as u32
    }
}

fn choose_bid(d: &Deal, b: Bidding, seat: Seat) -> Bid {
    match b {
        Bidding::AllPass => Bid::Pass,
        Bidding::Call(who, bid) if is(d, who, seat) => bid,
        Bidding::Overcall(c, _) if is(d, c, seat) => Bid::SmallZole,
        Bidding::Overcall(_, o) if is(d, o, seat) => Bid::Zole,
        _ => Bid::Pass,
    }
}

/// Plays one deal of `session` to the end with the script and policies drawn from `rng`.
fn play_deal(session: &mut Session, st: &Step, rng: &mut ChaCha8Rng) -> Option<Outcome> {
    let policies: [Policy; 5] =
        std::array::from_fn(|_| [Policy::High, Policy::Low, Policy::Random][rng.random_range(0..3)]);
    let bury_points_high = rng.random_bool(0.5);
    let mut played_by = [0usize; 5];
    loop {
        let d = *session.current()?;
        let seat = d.to_act()?;
        let legal = d.legal_actions();
        let action = match d.phase() {
            Phase::Bidding => Action::Bid(choose_bid(&d, st.bidding, seat)),
            Phase::Bury => {
                let key = |a: &Action| match a {
                    Action::Bury(..) => a.bury_set().iter().map(|c| points(c) as u32).sum::<u32>(),
                    _ => 0,
                };
                match policies[seat as usize] {
                    Policy::Random => legal.get(rng.random_range(0..legal.len())).expect("in range"),
                    _ if bury_points_high => legal.iter().max_by_key(key).unwrap(),
                    _ => legal.iter().min_by_key(key).unwrap(),
                }
            }
            Phase::Play => {
                if st.surrender_after == Some(played_by[seat as usize]) && legal.contains(Action::Surrender) {
                    Action::Surrender
                } else {
                    let cards: Vec<Card> = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Play(c) => Some(c),
                            _ => None,
                        })
                        .collect();
                    let c = match policies[seat as usize] {
                        Policy::High => *cards.iter().max_by_key(|c| strength(**c)).unwrap(),
                        Policy::Low => *cards.iter().min_by_key(|c| strength(**c)).unwrap(),
                        Policy::Random => cards[rng.random_range(0..cards.len())],
                    };
                    played_by[seat as usize] += 1;
                    Action::Play(c)
                }
            }
            Phase::Done => return None,
        };
        if let Some(r) = session.apply(seat, action).ok()? {
            return Some(r.outcome);
        }
    }
}

fn build(case: &Case, limit: u64) -> Option<(Session, Vec<Seed>)> {
    let mut session = Session::new(case.opts, case.players, case.first_dealer).ok()?;
    let mut seeds = Vec::new();
    'steps: for (k, st) in case.steps.iter().enumerate() {
        for s in 0..limit {
            let mut trial = session.clone();
            let seed = Seed::from_u64(s * 64 + k as u64);
            trial.deal_from_seed(seed).ok()?;
            let mut rng = ChaCha8Rng::seed_from_u64(s);
            let Some(o) = play_deal(&mut trial, st, &mut rng) else {
                continue;
            };
            let deal = trial.deals().last()?.deal;
            if (st.want)(&deal, &o) {
                session = trial;
                seeds.push(seed);
                continue 'steps;
            }
        }
        return None;
    }
    Some((session, seeds))
}

// ---- conditions on a finished deal (trick results only, never scores) ----

fn dp(o: &Outcome) -> u32 {
    o.declarer.map_or(0, |d| o.card_points[d as usize] as u32)
}
fn dt(o: &Outcome) -> u32 {
    o.declarer.map_or(0, |d| o.tricks[d as usize] as u32)
}
fn opp_tricks(o: &Outcome) -> u32 {
    o.tricks().iter().map(|&t| t as u32).sum::<u32>() - dt(o)
}
fn full(o: &Outcome) -> bool {
    !o.surrendered && o.tricks().iter().map(|&t| t as u32).sum::<u32>() == 8
}
fn take(o: &Outcome) -> bool {
    o.kind == Kind::Take && full(o)
}
fn zole(o: &Outcome) -> bool {
    o.kind == Kind::Zole && full(o)
}

fn case(
    preset: &'static str,
    name: &'static str,
    opts: Options,
    players: usize,
    first_dealer: Seat,
    steps: Vec<Step>,
) -> Case {
    Case {
        preset,
        name,
        opts,
        players,
        first_dealer,
        steps,
    }
}

fn kind_is(o: &Outcome, kind: Kind) -> bool {
    match kind {
        Kind::Take => take(o),
        Kind::Zole => zole(o),
        k => o.kind == k,
    }
}

/// The six rows of the trick-keyed scoring table (RULES.md 1.6) for take or zole, with the
/// table size and the bidding hand varied from row to row.
fn trick_rows(preset: &'static str, opts: Options, kind: Kind, out: &mut Vec<Case>) {
    let bid = if kind == Kind::Take { Bid::Take } else { Bid::Zole };
    type Cond = fn(&Outcome) -> bool;
    let rows: [(&str, usize, Cond); 6] = [
        ("win_61_90", 3, |o| {
            (61..=90).contains(&dp(o)) && opp_tricks(o) > 0
        }),
        ("win_91", 4, |o| dp(o) >= 91 && opp_tricks(o) > 0),
        ("win_all_tricks", 3, |o| opp_tricks(o) == 0),
        ("lose_31_60", 5, |o| (31..=60).contains(&dp(o))),
        ("lose_le30", 4, |o| dp(o) <= 30 && dt(o) > 0),
        ("lose_no_trick", 3, |o| dt(o) == 0),
    ];
    for (i, (row, players, cond)) in rows.into_iter().enumerate() {
        let name: &'static str = Box::leak(format!("{}_{row}", kind.name()).into_boxed_str());
        let st = step(Bidding::Call(Who::Hand(i % 3), bid), move |_, o| {
            kind_is(o, kind) && cond(o)
        });
        out.push(case(preset, name, opts, players, 0, vec![st]));
    }
}

/// A take or zole by `who` whose declarer ends with card points in `range`.
fn with_points(bid: Bid, who: Who, range: std::ops::RangeInclusive<u32>) -> Step {
    let kind = if bid == Bid::Take { Kind::Take } else { Kind::Zole };
    step(Bidding::Call(who, bid), move |_, o| {
        (kind_is(o, kind) || (o.kind == Kind::Tie && full(o))) && range.contains(&dp(o))
    })
}

fn all_pass() -> Step {
    step(Bidding::AllPass, |_, _| true)
}

fn galdins(want: fn(&Outcome) -> bool) -> Step {
    step(Bidding::AllPass, move |_, o| {
        o.kind == Kind::Galdins && full(o) && want(o)
    })
}

/// Seats holding the most card points among the active ones.
fn most_points(d: &Deal, o: &Outcome) -> usize {
    let max = d
        .active()
        .iter()
        .map(|&s| o.card_points[s as usize])
        .max()
        .unwrap_or(0);
    d.active()
        .iter()
        .filter(|&&s| o.card_points[s as usize] == max)
        .count()
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let presets: [(&'static str, Options); 5] = [
        ("lv", Options::lv()),
        ("lv-galdins", Options::lv_galdins()),
        ("rondo", Options::rondo()),
        ("catsatcards", Options::catsatcards()),
        ("zolite", Options::zolite()),
    ];
    let (s0, s1, s2, s3) = (Who::Seat(0), Who::Seat(1), Who::Seat(2), Who::Seat(3));
    let take_ = |who, r| with_points(Bid::Take, who, r);
    for (p, opts) in presets {
        if p != "zolite" {
            trick_rows(p, opts, Kind::Take, &mut v);
            trick_rows(p, opts, Kind::Zole, &mut v);
        }
        if opts.small_zole {
            let sz = |o: &Outcome| o.kind == Kind::SmallZole;
            v.push(case(
                p,
                "small_zole_won",
                opts,
                3,
                0,
                vec![step(Bidding::Call(Who::Hand(1), Bid::SmallZole), move |_, o| {
                    sz(o) && dt(o) == 0
                })],
            ));
            v.push(case(
                p,
                "small_zole_lost",
                opts,
                4,
                1,
                vec![step(Bidding::Call(Who::Hand(2), Bid::SmallZole), move |_, o| {
                    sz(o) && dt(o) > 0
                })],
            ));
        }
    }
    // Boundaries of the trick-keyed table: 60 loses, 61 wins, 30 is "30 or fewer".
    let lv = Options::lv();
    for (name, r) in [
        ("take_60_loses", 60..=60),
        ("take_61_wins", 61..=61),
        ("take_90", 90..=90),
        ("take_91", 91..=91),
        ("take_30", 30..=30),
        ("take_31", 31..=31),
    ] {
        v.push(case("lv", name, lv, 3, 0, vec![take_(Who::Hand(0), r)]));
    }
    // All-pass modes.
    v.push(case("lv", "all_pass_pule", lv, 3, 0, vec![all_pass()]));
    v.push(case("lv", "all_pass_two_pules_4p", lv, 4, 0, vec![all_pass()]));
    v.push(case("lv", "all_pass_two_pules_5p", lv, 5, 0, vec![all_pass()]));
    v.push(case(
        "lv",
        "all_pass_one_pule_when_open_4p",
        lv,
        4,
        0,
        vec![all_pass(), all_pass()],
    ));
    let lost = |who| take_(who, 31..=60);
    let won = |who| take_(who, 61..=90);
    v.push(case(
        "lv",
        "all_pass_one_pule_when_personal_open_4p",
        lv,
        4,
        3,
        vec![all_pass(), lost(s1), won(s2), won(s3), all_pass()],
    ));
    let g = Options::lv_galdins();
    let one_loser: fn(&Outcome) -> bool = |_| true;
    v.push(case("lv-galdins", "galdins", g, 3, 0, vec![galdins(one_loser)]));
    v.push(case(
        "lv-galdins",
        "galdins_5p",
        g,
        5,
        0,
        vec![galdins(one_loser)],
    ));
    v.push(case(
        "lv-galdins",
        "galdins_tricks_tie_points_decide",
        g,
        3,
        0,
        vec![galdins(|o| {
            let mut t: Vec<u8> = o.tricks().to_vec();
            t.sort();
            t[2] == t[1]
        })],
    ));
    v.push(case(
        "lv-galdins",
        "galdins_full_tie_nobody_pays",
        g,
        3,
        0,
        vec![galdins(|o| {
            let mut t: Vec<(u8, u8)> = (0..3).map(|s| (o.tricks[s], o.card_points[s])).collect();
            t.sort();
            t[2] == t[1]
        })],
    ));
    let c = Options::catsatcards();
    v.push(case(
        "catsatcards",
        "galdins_4p",
        c,
        4,
        0,
        vec![galdins(one_loser)],
    ));
    let r = Options::rondo();
    let rondo = |k: usize| {
        step(Bidding::AllPass, move |d, o| {
            o.kind == Kind::Galdins && full(o) && most_points(d, o) == k
        })
    };
    v.push(case("rondo", "rondo_one_loser", r, 3, 0, vec![rondo(1)]));
    v.push(case(
        "rondo",
        "rondo_three_tied_nobody_pays",
        r,
        3,
        0,
        vec![rondo(3)],
    ));
    v.push(case("rondo", "rondo_tied_losers", r, 3, 0, vec![rondo(2)]));
    // A non-loser with exactly 30 points (and a trick) receives 2, not 1.
    v.push(case(
        "rondo",
        "rondo_winner_with_30",
        r,
        3,
        0,
        vec![step(Bidding::AllPass, |d, o| {
            o.kind == Kind::Galdins
                && full(o)
                && most_points(d, o) == 1
                && d.active().iter().any(|&s| o.card_points[s as usize] == 30)
        })],
    ));
    v.push(case("rondo", "rondo_4p_sitting_out", r, 4, 0, vec![rondo(1)]));
    v.push(case("rondo", "rondo_5p_sitting_out", r, 5, 2, vec![rondo(1)]));
    v.push(case(
        "rondo",
        "rondo_pules_whatever_open_4p",
        r,
        4,
        0,
        vec![rondo(1), rondo(1)],
    ));
    v.push(case(
        "rondo",
        "rondo_overcall",
        r,
        3,
        0,
        vec![step(Bidding::Overcall(Who::Hand(0), Who::Hand(2)), |d, o| {
            zole(o) && o.declarer == Some(d.active()[2]) && (31..=60).contains(&dp(o))
        })],
    ));
    // Surrender (catsatcards: basic_loss).
    let mut surrender = |name, bid, after| {
        let kind = if bid == Bid::Take { Kind::Take } else { Kind::Zole };
        let mut st = step(Bidding::Call(Who::Hand(1), bid), move |_, o| {
            o.kind == kind && o.surrendered
        });
        st.surrender_after = Some(after);
        v.push(case("catsatcards", name, c, 3, 0, vec![st]));
    };
    surrender("take_surrender", Bid::Take, 2);
    surrender("zole_surrender", Bid::Zole, 0);
    // concede_rest (an lv table with the option): the unplayed cards go to the opponents and
    // the deal is scored normally.
    let concede = Options {
        surrender: stikis_core::games::zole::Surrender::ConcedeRest,
        ..lv
    };
    let mut st = step(Bidding::Call(Who::Hand(0), Bid::Take), |_, o| {
        o.kind == Kind::Take && o.surrendered && (31..=60).contains(&dp(o)) && dt(o) > 0
    });
    st.surrender_after = Some(4);
    v.push(case("lv", "take_concede_rest", concede, 3, 0, vec![st]));
    // zolite: card-point bands and the 60-60 tie.
    let z = Options::zolite();
    let ztake = |r| vec![with_points(Bid::Take, Who::Hand(0), r)];
    let zzole = |r| vec![with_points(Bid::Zole, Who::Hand(1), r)];
    for (name, steps) in [
        ("take_120", ztake(120..=120)),
        ("take_100_119", ztake(100..=119)),
        ("take_91", ztake(91..=91)),
        ("take_90", ztake(90..=90)),
        ("take_61", ztake(61..=61)),
        ("take_60_tie", ztake(60..=60)),
        ("take_59", ztake(59..=59)),
        ("take_30", ztake(30..=30)),
        ("take_29", ztake(29..=29)),
        ("take_0", ztake(0..=0)),
        ("zole_120", zzole(120..=120)),
        ("zole_91_119", zzole(91..=119)),
        ("zole_61_90", zzole(61..=90)),
        ("zole_60_tie", zzole(60..=60)),
        ("zole_30_59", zzole(30..=59)),
        ("zole_1_29", zzole(1..=29)),
        ("zole_0", zzole(0..=0)),
    ] {
        v.push(case("zolite", name, z, 3, 0, steps));
    }
    v.push(case(
        "zolite",
        "zole_all_tricks_talon_has_points",
        z,
        3,
        0,
        vec![step(Bidding::Call(Who::Hand(2), Bid::Zole), |d, o| {
            zole(o) && opp_tricks(o) == 0 && d.talon().iter().any(|c| points(c) > 0)
        })],
    ));
    v.push(case("zolite", "all_pass_tree", z, 3, 0, vec![all_pass()]));
    // Pules (RULES.md 1.8 examples; 3 players, the first dealer 2 so seat 0 is first hand).
    v.push(case(
        "lv",
        "pule_common_bonus",
        lv,
        3,
        2,
        vec![all_pass(), won(s0)],
    ));
    let other = vec![all_pass(), lost(s1), won(s2), won(s0)];
    v.push(case("lv", "pule_personal_of_another_pays_3", lv, 3, 2, other));
    let two = Options {
        personal_pule_payment: 2,
        ..lv
    };
    let other = vec![all_pass(), lost(s1), won(s2), won(s0)];
    v.push(case("lv", "pule_personal_of_another_pays_2", two, 3, 2, other));
    v.push(case(
        "lv",
        "pule_own_personal",
        lv,
        3,
        2,
        vec![all_pass(), lost(s0), won(s0)],
    ));
    v.push(case(
        "lv",
        "pule_lost_take_writes_personal",
        lv,
        3,
        2,
        vec![all_pass(), lost(s0)],
    ));
    v.push(case(
        "lv",
        "pule_no_pule_open_lost_take",
        lv,
        3,
        2,
        vec![lost(s0)],
    ));
    let zole_won = step(Bidding::Call(s0, Bid::Zole), |_, o| {
        zole(o) && (61..=90).contains(&dp(o))
    });
    v.push(case(
        "lv",
        "pule_zole_leaves_pules",
        lv,
        3,
        2,
        vec![all_pass(), zole_won],
    ));
    // 4 players, the first dealer 3: the sitting-out seat pays the common bonus, not a
    // personal pule's payment.
    v.push(case(
        "lv",
        "pule_sitting_out_pays_common_4p",
        lv,
        4,
        3,
        vec![all_pass(), won(s1)],
    ));
    v.push(case(
        "lv",
        "pule_sitting_out_and_personal_4p",
        lv,
        4,
        3,
        vec![all_pass(), lost(s1), won(s2), won(s3), won(s0)],
    ));
    v.push(case("lv", "settle_4p", lv, 4, 3, vec![all_pass(), lost(s1)]));
    // The tree (zolite).
    v.push(case(
        "zolite",
        "tree_sitting_out_4p",
        z,
        4,
        3,
        vec![all_pass(), won(s1)],
    ));
    let tie = take_(s0, 60..=60);
    v.push(case(
        "zolite",
        "tree_pays_after_next_winner",
        z,
        3,
        2,
        vec![all_pass(), tie, won(s1)],
    ));
    let lost_z = take_(s0, 30..=59);
    v.push(case(
        "zolite",
        "tree_losing_declarer_pays",
        z,
        3,
        2,
        vec![all_pass(), lost_z],
    ));
    v
}

/// JSON with one line per deal field, per hand and per action: short files a reader can
/// follow trick by trick.
fn compact(v: &Value) -> String {
    let line = |v: &Value| serde_json::to_string(v).unwrap();
    let key = |k: &String| line(&Value::String(k.clone()));
    let comma = |i: usize, n: usize| if i + 1 < n { "," } else { "" };
    let Value::Object(top) = v else {
        return line(v);
    };
    let mut out = String::from("{\n");
    for (i, (k, val)) in top.iter().enumerate() {
        let sep = comma(i, top.len());
        let Some(deals) = val.as_array().filter(|_| k == "deals") else {
            out += &format!("  {}: {}{sep}\n", key(k), line(val));
            continue;
        };
        out += "  \"deals\": [\n";
        for (j, d) in deals.iter().enumerate() {
            out += "    {\n";
            let obj = d.as_object().unwrap();
            for (m, (dk, dv)) in obj.iter().enumerate() {
                let dsep = comma(m, obj.len());
                match dv {
                    Value::Array(items) if dk == "hands" || dk == "actions" => {
                        out += &format!("      {}: [\n", key(dk));
                        for (n, it) in items.iter().enumerate() {
                            out += &format!("        {}{}\n", line(it), comma(n, items.len()));
                        }
                        out += &format!("      ]{dsep}\n");
                    }
                    _ => out += &format!("      {}: {}{dsep}\n", key(dk), line(dv)),
                }
            }
            out += &format!("    }}{}\n", comma(j, deals.len()));
        }
        out += &format!("  ]{sep}\n");
    }
    out + "}"
}

const USAGE: &str = "\
Writes the Zole golden records and the engine's replay output under core/tests/golden/zole.

Usage: cargo run --release -p stikis-core --example zole_goldens -- [LIMIT]

  LIMIT        seeded deals tried per step of a case before giving up (default 200000)
  -h, --help   print this text
";

/// `--help`: the usage on standard output, exit 0. A wrong argument: it and the usage on
/// standard error, exit 2 (as a usage error, not a panic), before anything is written.
fn usage(error: Option<&str>) -> ! {
    match error {
        None => {
            print!("{USAGE}");
            std::process::exit(0)
        }
        Some(e) => {
            eprint!("{e}\n\n{USAGE}");
            std::process::exit(2)
        }
    }
}

fn main() {
    let mut limit = None;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            _ => match a.parse::<u64>() {
                Ok(v) if limit.is_none() => limit = Some(v),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let limit = limit.unwrap_or(200_000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/zole");
    let mut missing = Vec::new();
    for case in cases() {
        match build(&case, limit) {
            Some((session, seeds)) => {
                let names: Vec<String> = ["Anna", "Bruno", "Cilda", "Dace", "Edgars"][..case.players]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                let env = to_record(&session, &names);
                let mut rec = serde_json::to_value(&env).unwrap();
                for (d, seed) in rec["deals"].as_array_mut().unwrap().iter_mut().zip(&seeds) {
                    d.as_object_mut()
                        .unwrap()
                        .insert("seed".into(), Value::String(seed.to_string()));
                }
                let dir = root.join(case.preset);
                std::fs::create_dir_all(&dir).unwrap();
                let write = |file: String, v: &Value| {
                    let text = compact(v) + "\n";
                    std::fs::write(dir.join(file), text).unwrap();
                };
                write(format!("{}.json", case.name), &rec);
                write(format!("{}.out.json", case.name), &output(&session));
                println!("{}/{}", case.preset, case.name);
            }
            None => missing.push(format!("{}/{}", case.preset, case.name)),
        }
    }
    if !missing.is_empty() {
        eprintln!("not found within {limit} tries: {missing:?}");
        std::process::exit(1);
    }
}
