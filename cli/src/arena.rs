//! `stikis arena`: computer players against each other over many deals with duplicate
//! seating. Every deal is played once for each rotation of the players over the seats, so
//! each player meets the same cards from every seat; the figures are mean points per deal per
//! level (Zole: game points; Polt to Tzar: tricks; Belote: the team's score of the deal, in
//! the variant's units) with a 95% confidence interval, and the mean difference between
//! levels. Belote is a team game: `--players A,B` seats level A on seats 0 and 2 and level B
//! on 1 and 3, then the other way round with the same cards.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use stikis_core::ai::zole::dd::{card_of, open_position, Goal, Solver};
use stikis_core::ai::{belote, polt, zole, Budget, Level, Player, DEFAULT_BUDGET_MS};
use stikis_core::games::belote as belote_game;
use stikis_core::games::polt as polt_game;
use stikis_core::games::zole::record::to_record;
use stikis_core::games::zole::{Action, AllPass, Contract, Deal, Options, Phase, SeatView, Session};
use stikis_core::{Seat, Seed};

/// `stikis arena`'s options.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Computer players against each other: mean points per level with 95% intervals",
    long_about = "Computer players against each other. Every deal is played under every \
rotation of the seats, and the report gives each level's mean points per deal with a 95% \
interval, and the difference between levels. Zole seats 3 players, Polt to Tzar 5 to 7, the \
belote games 2 levels (team A on seats 0 and 2, team B on 1 and 3; head-to-head one each). \
Progress is shown on standard error when it is a terminal."
)]
pub struct ArenaArgs {
    /// The game: zole, polt, bazar, classic, h2h or coinche.
    #[arg(long, default_value = "zole")]
    game: String,
    /// Deals to play (each under every rotation).
    #[arg(long, default_value_t = 100)]
    deals: usize,
    /// One level per seat (per team in belote): random, basic, strong, and for zole the
    /// reference `peek`, which sees every card. Default: strong,basic,basic (belote: strong,basic).
    #[arg(long, value_delimiter = ',')]
    players: Option<Vec<String>>,
    /// The rules preset (zole: lv, lv-galdins, rondo, catsatcards, zolite; others: default).
    #[arg(long)]
    rules: Option<String>,
    /// The seed the deals are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A strong player's thinking time per move, in milliseconds.
    #[arg(long = "budget-ms", default_value_t = DEFAULT_BUDGET_MS)]
    budget_ms: u64,
    /// Threads to play deals on.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Write every deal's record to this file, one JSON record per line.
    #[arg(long, value_name = "FILE.jsonl")]
    records: Option<String>,
}

impl ArenaArgs {
    /// Random players only (`stikis bench`): one level per seat, or per team in belote.
    pub fn random(game: &str, deals: usize, seed: u64) -> ArenaArgs {
        let seats = slots(game);
        ArenaArgs {
            game: game.to_string(),
            deals,
            players: Some(vec!["random".to_string(); seats]),
            rules: None,
            seed,
            budget_ms: DEFAULT_BUDGET_MS,
            threads: 1,
            records: None,
        }
    }
}

/// How many levels a game's arena table takes by default (`stikis bench`'s rotations): one
/// per team in a team game, else one per seat of its default table (the registry's).
pub fn slots(game: &str) -> usize {
    match stikis_core::games::GAMES.iter().find(|g| g.short_name() == game) {
        Some(g) if g.teams => 2,
        Some(g) => g.default_seats,
        None => 2,
    }
}

/// Who sits in a slot: a computer player of a level, or the arena-only `peek` reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Entrant {
    Ai(Level),
    /// REFERENCE ONLY, NOT A PLAYER: plays its cards double dummy on the real hands (it looks
    /// at every hidden card); bids and buries like `strong`. It measures how far the honest
    /// levels are from perfect information, and exists nowhere but here.
    Peek,
}

impl Entrant {
    fn name(self) -> &'static str {
        match self {
            Entrant::Ai(l) => l.name(),
            Entrant::Peek => "peek",
        }
    }
    fn level(self) -> Level {
        match self {
            Entrant::Ai(l) => l,
            Entrant::Peek => Level::Strong,
        }
    }
}

impl std::str::FromStr for Entrant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "peek" {
            Ok(Entrant::Peek)
        } else {
            s.parse().map(Entrant::Ai)
        }
    }
}

/// The `peek` reference's card play: the best card for its side by a double-dummy solve of
/// the real deal.
fn peek_play(solver: &mut Solver, deal: &Deal, seat: Seat) -> Option<Action> {
    let active = deal.active();
    let me = active.iter().position(|&s| s == seat)?;
    let decl = deal.declarer().and_then(|d| active.iter().position(|&s| s == d));
    let goal = match (deal.contract()?, decl) {
        (Contract::Take | Contract::Zole, Some(d)) => Goal::points_of(d),
        (Contract::SmallZole, Some(d)) => Goal::small_zole(d),
        _ => Goal::galdins(me, deal.options().all_pass != AllPass::Rondo),
    };
    solver.reset(goal);
    let maxing = goal.max_side >> me & 1 == 1;
    let values = solver.move_values(&open_position(deal));
    let best = if maxing {
        values.iter().max_by_key(|x| x.1)
    } else {
        values.iter().min_by_key(|x| x.1)
    };
    best.map(|&(c, _)| Action::Play(card_of(c)))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GameKind {
    Zole,
    Polt,
    Belote(belote_game::Variant),
}

struct Args {
    game: GameKind,
    deals: usize,
    players: Vec<Entrant>,
    opts: Options,
    seed: u64,
    budget: Duration,
    threads: usize,
    records: Option<String>,
}

/// The arena's deal loop for a game the registry names by its short name (`bazar`, `polt`).
fn game_kind(name: &str) -> Result<GameKind, String> {
    let games = stikis_core::games::GAMES;
    let names: Vec<&str> = games.iter().map(|g| g.short_name()).collect();
    let Some(info) = games.iter().find(|g| g.short_name() == name) else {
        return Err(format!("unknown game {name} ({})", names.join(", ")));
    };
    match info.id {
        "zole" => Ok(GameKind::Zole),
        "polt" => Ok(GameKind::Polt),
        id => belote_game::Variant::from_game_name(id)
            .map(GameKind::Belote)
            .ok_or_else(|| format!("the arena has no deal loop for {name} yet")),
    }
}

fn parse(c: &ArenaArgs) -> Result<Args, String> {
    let mut a = Args {
        game: game_kind(&c.game)?,
        deals: c.deals,
        players: vec![
            Entrant::Ai(Level::Strong),
            Entrant::Ai(Level::Basic),
            Entrant::Ai(Level::Basic),
        ],
        opts: Options::lv(),
        seed: c.seed,
        budget: Duration::from_millis(c.budget_ms),
        threads: c.threads.max(1),
        records: c.records.clone(),
    };
    let rules = &c.rules;
    if let Some(p) = &c.players {
        a.players = p.iter().map(|x| x.parse()).collect::<Result<_, _>>()?;
    }
    if let Some(val) = &rules {
        match a.game {
            GameKind::Zole => a.opts = Options::preset(val).ok_or(format!("unknown rules preset {val}"))?,
            GameKind::Polt | GameKind::Belote(_) if val == "default" => {}
            _ => return Err(format!("unknown rules preset {val} (default)")),
        }
    }
    if matches!(a.game, GameKind::Belote(_)) && c.players.is_none() {
        a.players = vec![Entrant::Ai(Level::Strong), Entrant::Ai(Level::Basic)];
    }
    let seats_ok = match a.game {
        GameKind::Zole => a.players.len() == 3,
        GameKind::Polt => (5..=7).contains(&a.players.len()),
        GameKind::Belote(_) => a.players.len() == 2,
    };
    if a.game != GameKind::Zole && a.players.contains(&Entrant::Peek) {
        return Err("the peek reference exists for zole only".into());
    }
    if !seats_ok {
        return Err(
            "--players lists one level per seat: three for zole, 5 to 7 for polt; two (one per team) for belote"
                .into(),
        );
    }
    Ok(a)
}

/// A move's time limit: only a `strong` player (and the `peek` reference, which bids as one)
/// asks it, so only theirs reads the clock; `random` and `basic` moves get none and never
/// read it (it was a sixth of `stikis bench`'s time).
struct Deadline(Option<Instant>);
impl Budget for Deadline {
    fn expired(&self) -> bool {
        self.0.is_some_and(|end| Instant::now() >= end)
    }
}

impl Args {
    /// The budget of one move of `who`.
    fn deadline(&self, who: Entrant) -> Deadline {
        Deadline((who.level() == Level::Strong).then(|| Instant::now() + self.budget))
    }
}

/// Per rotation, each slot's points; and the records.
type Played = (Vec<Vec<i32>>, Vec<String>);

/// One Zole deal played under every rotation.
fn play_deal(
    a: &Args,
    i: usize,
    players: &mut [Box<dyn Player<SeatView, Action>>],
    solver: &mut Solver,
) -> Played {
    let mut out = Vec::new();
    let mut records = Vec::new();
    let dealer = (i % 3) as Seat;
    let seed = Seed::from_u64(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    for r in 0..3 {
        // Seat s is played by slot (s + r) % 3.
        let slot = |s: Seat| (s as usize + r) % 3;
        let mut session = Session::new(a.opts, 3, dealer).expect("a table of three");
        session.deal_from_seed(seed).expect("deal");
        let mut rng = ChaCha12Rng::seed_from_u64(a.seed ^ ((i as u64) << 8) ^ r as u64);
        let mut deltas = vec![0i32; 3];
        while let Some(deal) = session.current() {
            let s = deal.to_act().expect("a deal in progress has a seat to act");
            let v = deal.view(s);
            let budget = a.deadline(a.players[slot(s)]);
            let peeked = match a.players[slot(s)] {
                Entrant::Peek if deal.phase() == Phase::Play => peek_play(solver, deal, s),
                _ => None,
            };
            let action = peeked.unwrap_or_else(|| players[slot(s)].choose(&v, &mut rng, &budget));
            if let Some(res) = session.apply(s, action).unwrap_or_else(|e| {
                panic!(
                    "{} chose an illegal action {action} in deal {i}: {e}",
                    players[slot(s)].level()
                )
            }) {
                for (seat, d) in res.deltas.iter().enumerate() {
                    deltas[slot(seat as Seat)] = *d;
                }
            }
        }
        out.push(deltas);
        if a.records.is_some() {
            let names: Vec<String> = (0..3)
                .map(|s| format!("{}#{}", a.players[slot(s)].name(), slot(s)))
                .collect();
            let env = to_record(&session, &names);
            records.push(serde_json::to_string(&env).expect("a record serialises"));
        }
    }
    (out, records)
}

/// One Polt to Tzar hand (first ranks drawn from the seed) under every rotation: per rotation,
/// each slot's tricks, and the records.
fn play_polt(
    a: &Args,
    i: usize,
    players: &mut [Box<dyn Player<polt_game::SeatView, polt_game::Action>>],
) -> Played {
    let n = a.players.len();
    let seed = Seed::from_u64(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let ranks = polt_game::ranks_from_seed(n, seed);
    let opts = polt_game::Options::default_preset();
    let mut out = Vec::new();
    let mut records = Vec::new();
    for r in 0..n {
        let slot = |s: Seat| (s as usize + r) % n;
        let mut session = polt_game::Session::new(opts, n, 1, &ranks).expect("a polt table");
        session.start_hand(seed).expect("deal");
        let mut rng = ChaCha12Rng::seed_from_u64(a.seed ^ ((i as u64) << 8) ^ r as u64);
        while let Some(deal) = session.current() {
            let Some(s) = deal.to_act() else { break };
            let v = deal.view(s);
            let budget = a.deadline(a.players[slot(s)]);
            let action = players[slot(s)].choose(&v, &mut rng, &budget);
            session.apply(s, action).unwrap_or_else(|e| {
                panic!(
                    "{} chose an illegal action {action} in deal {i}: {e}",
                    players[slot(s)].level()
                )
            });
        }
        let won = session
            .results()
            .last()
            .map(|h| h.tricks.clone())
            .unwrap_or_default();
        let mut tricks = vec![0i32; n];
        for (seat, &t) in won.iter().enumerate() {
            tricks[slot(seat as Seat)] = t as i32;
        }
        out.push(tricks);
        if a.records.is_some() {
            let names: Vec<String> = (0..n as Seat)
                .map(|s| format!("{}#{}", a.players[slot(s)].name(), slot(s)))
                .collect();
            let env = polt_game::record::session_record(&session, &names);
            records.push(serde_json::to_string(&env).expect("a record serialises"));
        }
    }
    (out, records)
}

/// One Belote deal under both seatings of the two teams: per seating, each slot's team score
/// (in the variant's units), and the records.
fn play_belote(
    a: &Args,
    i: usize,
    v: belote_game::Variant,
    players: &mut [Box<dyn Player<belote_game::SeatView, belote_game::Action>>],
) -> Played {
    let n = v.seats();
    let opts = belote_game::Options::default_for(v);
    let dealer = (i % n) as Seat;
    let seed = Seed::from_u64(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let cards = belote_game::Deal::shuffled(v, opts, dealer, seed);
    let mut out = Vec::new();
    let mut records = Vec::new();
    for r in 0..2 {
        // Seat s is played by slot (s + r) % 2: its team's level.
        let slot = |s: Seat| (s as usize + r) % 2;
        let mut session = belote_game::Session::new(v, opts, dealer);
        session
            .start_explicit(dealer, cards.dealt(), cards.turned(), cards.stock())
            .expect("a shuffled deal is valid");
        let mut rng = ChaCha12Rng::seed_from_u64(a.seed ^ ((i as u64) << 8) ^ r as u64);
        while let Some(deal) = session.current() {
            let Some(s) = stikis_core::Game::to_act(deal) else {
                break;
            };
            let view = deal.view(s);
            let budget = a.deadline(a.players[slot(s)]);
            let action = players[slot(s)].choose(&view, &mut rng, &budget);
            session.play(s, action).unwrap_or_else(|e| {
                panic!(
                    "{} chose an illegal action {action} in deal {i}: {e}",
                    players[slot(s)].level()
                )
            });
        }
        let deltas = session
            .deals()
            .last()
            .and_then(|d| d.result)
            .map_or([0, 0], |res| res.deltas);
        let mut score = vec![0i32; 2];
        for (team, &d) in deltas.iter().enumerate() {
            score[slot(team as Seat)] = d;
        }
        out.push(score);
        if a.records.is_some() {
            let names: Vec<String> = (0..n as Seat)
                .map(|s| format!("{}#{}", a.players[slot(s)].name(), slot(s)))
                .collect();
            let env = belote_game::record::to_envelope(&session, &names);
            records.push(serde_json::to_string(&env).expect("a record serialises"));
        }
    }
    (out, records)
}

fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (m, 1.96 * (var / n).sqrt())
}

pub fn run(args: &ArenaArgs) -> Result<String, String> {
    let a = parse(args)?;
    let progress = indicatif::ProgressBar::new(a.deals as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} deals, {elapsed} so far, about {eta} left",
        )
        .expect("a valid template"),
    );
    let started = Instant::now();
    // Deals are split over threads; each thread has its own players.
    let results: Vec<(usize, Vec<Vec<i32>>, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..a.threads)
            .map(|t| {
                let a = &a;
                let progress = &progress;
                scope.spawn(move || {
                    let mut zp: Vec<_> = a
                        .players
                        .iter()
                        .map(|&e| zole::player(e.level(), a.opts))
                        .collect();
                    let mut solver = Solver::new();
                    let mut pp: Vec<_> = a
                        .players
                        .iter()
                        .map(|&e| polt::player(e.level(), Default::default()))
                        .collect();
                    let mut bp: Vec<_> = match a.game {
                        GameKind::Belote(v) => a
                            .players
                            .iter()
                            .map(|&e| belote::player(e.level(), &belote_game::Options::default_for(v)))
                            .collect(),
                        _ => Vec::new(),
                    };
                    (t..a.deals)
                        .step_by(a.threads)
                        .map(|i| {
                            let (d, r) = match a.game {
                                GameKind::Zole => play_deal(a, i, &mut zp, &mut solver),
                                GameKind::Polt => play_polt(a, i, &mut pp),
                                GameKind::Belote(v) => play_belote(a, i, v, &mut bp),
                            };
                            progress.inc(1);
                            (i, d, r)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<_> = handles
            .into_iter()
            .flat_map(|h| h.join().expect("arena thread"))
            .collect();
        all.sort_by_key(|x| x.0);
        all
    });
    progress.finish_and_clear();
    if let Some(path) = &a.records {
        let mut f = std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
        for (_, _, recs) in &results {
            for r in recs {
                writeln!(f, "{r}").map_err(|e| format!("cannot write {path}: {e}"))?;
            }
        }
    }
    // Per deal, the mean game points of each level over its slots and the three rotations.
    let mut levels: Vec<Entrant> = a.players.clone();
    levels.sort();
    levels.dedup();
    let per_deal = |l: Entrant| -> Vec<f64> {
        let slots: Vec<usize> = (0..a.players.len()).filter(|&s| a.players[s] == l).collect();
        results
            .iter()
            .map(|(_, rot, _)| {
                let sum: i32 = rot.iter().map(|d| slots.iter().map(|&s| d[s]).sum::<i32>()).sum();
                sum as f64 / (rot.len() * slots.len()) as f64
            })
            .collect()
    };
    let mut out = String::new();
    let names: Vec<&str> = a.players.iter().map(|l| l.name()).collect();
    let _ = writeln!(
        out,
        "arena: {}, rules {}, players {}, {} deals x {} rotations, budget {} ms, {:.1} s",
        match a.game {
            GameKind::Zole => "zole (game points)".to_string(),
            GameKind::Polt => "polt (tricks)".to_string(),
            GameKind::Belote(v) => format!(
                "{v} (team score per deal, {})",
                if matches!(v, belote_game::Variant::Bazar | belote_game::Variant::HeadToHead) {
                    "tens"
                } else {
                    "points"
                }
            ),
        },
        if a.game == GameKind::Zole {
            serde_json::to_string(&a.opts.to_rules()).unwrap_or_default()
        } else {
            "\"default\"".to_string()
        },
        names.join(","),
        a.deals,
        a.players.len(),
        a.budget.as_millis(),
        started.elapsed().as_secs_f64()
    );
    if a.players.contains(&Entrant::Peek) {
        let _ = writeln!(
            out,
            "peek is a REFERENCE, not a player: it sees every hidden card and plays double dummy"
        );
    }
    for &l in &levels {
        let (m, ci) = mean_ci(&per_deal(l));
        let _ = writeln!(
            out,
            "{:<7} mean points per deal {m:+.3} ± {ci:.3} (95%)",
            l.name()
        );
    }
    for (i, &x) in levels.iter().enumerate() {
        for &y in &levels[i + 1..] {
            let (px, py) = (per_deal(x), per_deal(y));
            let diff: Vec<f64> = px.iter().zip(&py).map(|(a, b)| b - a).collect();
            let (m, ci) = mean_ci(&diff);
            let verdict = if m - ci > 0.0 {
                "above zero"
            } else if m + ci < 0.0 {
                "below zero"
            } else {
                "not separated"
            };
            let _ = writeln!(
                out,
                "{} - {}: mean difference {m:+.3} ± {ci:.3} (95%), {verdict}",
                y.name(),
                x.name()
            );
        }
    }
    Ok(out)
}
