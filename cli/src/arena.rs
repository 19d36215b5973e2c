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

use stikis_core::ai::{Level, DEFAULT_BUDGET_MS};
use stikis_core::games::matches::{Entrant, Match};
use stikis_core::games::GameInfo;

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

/// How many levels a game's arena table takes by default (`stikis bench`'s rotations): the
/// registry's, one per team in a team game, else one per seat of its default table.
pub fn slots(game: &str) -> usize {
    stikis_core::games::GAMES
        .iter()
        .find(|g| g.short_name() == game)
        .map_or(2, |g| g.computers.default_slots)
}

struct Args {
    game: &'static GameInfo,
    deals: usize,
    m: Match,
    /// The rules in the report's words.
    rules: String,
    threads: usize,
    records: Option<String>,
}

/// The game by its short name (`bazar`, `polt`), as the registry names it.
fn game(name: &str) -> Result<&'static GameInfo, String> {
    let games = stikis_core::games::GAMES;
    games.iter().find(|g| g.short_name() == name).ok_or_else(|| {
        let names: Vec<&str> = games.iter().map(|g| g.short_name()).collect();
        format!("unknown game {name} ({})", names.join(", "))
    })
}

fn parse(c: &ArenaArgs) -> Result<Args, String> {
    let game = game(&c.game)?;
    let computers = &game.computers;
    // Default: a strong player against basic ones.
    let entrants: Vec<Entrant> = match &c.players {
        Some(p) => p.iter().map(|x| x.parse()).collect::<Result<_, _>>()?,
        None => std::iter::once(Entrant::Ai(Level::Strong))
            .chain(std::iter::repeat(Entrant::Ai(Level::Basic)))
            .take(computers.default_slots)
            .collect(),
    };
    let rules = (computers.rules)(c.rules.as_deref())?;
    if !computers.peek && entrants.contains(&Entrant::Peek) {
        return Err(format!("the peek reference does not play {}", c.game));
    }
    let (low, high) = computers.slots;
    if !(low..=high).contains(&entrants.len()) {
        let count = match low == high {
            true => low.to_string(),
            false => format!("{low} to {high}"),
        };
        let per = if game.teams {
            "one per team"
        } else {
            "one per seat"
        };
        return Err(format!("--players lists {count} levels for {} ({per})", c.game));
    }
    Ok(Args {
        game,
        deals: c.deals,
        m: Match {
            entrants,
            rules: c.rules.clone(),
            seed: c.seed,
            budget: Duration::from_millis(c.budget_ms),
        },
        rules,
        threads: c.threads.max(1),
        records: c.records.clone(),
    })
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
                    // Each thread has its own players, kept from deal to deal.
                    let mut table = (a.game.computers.open)(&a.m);
                    (t..a.deals)
                        .step_by(a.threads)
                        .map(|i| {
                            let (d, r) = table.play(i, a.records.is_some());
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
    let players = &a.m.entrants;
    let mut levels: Vec<Entrant> = players.clone();
    levels.sort();
    levels.dedup();
    let per_deal = |l: Entrant| -> Vec<f64> {
        let slots: Vec<usize> = (0..players.len()).filter(|&s| players[s] == l).collect();
        results
            .iter()
            .map(|(_, rot, _)| {
                let sum: i32 = rot.iter().map(|d| slots.iter().map(|&s| d[s]).sum::<i32>()).sum();
                sum as f64 / (rot.len() * slots.len()) as f64
            })
            .collect()
    };
    let mut out = String::new();
    let names: Vec<&str> = players.iter().map(|l| l.name()).collect();
    let _ = writeln!(
        out,
        "arena: {} ({}), rules {}, players {}, {} deals x {} rotations, budget {} ms, {:.1} s",
        a.game.id,
        a.game.computers.units,
        a.rules,
        names.join(","),
        a.deals,
        players.len(),
        a.m.budget.as_millis(),
        started.elapsed().as_secs_f64()
    );
    if players.contains(&Entrant::Peek) {
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
