//! `stikis tournament verify FILE`: re-counts a tournament record (docs/tournament-record.md)
//! from its game records and prints the standings, or exits 2 naming the first disagreement.
//! `stikis tournament play FILE`: a small Latvian-format tournament of computer players, run
//! here as a host runs one (the draw, rounds, big points, re-seating), written as a record.

use std::process::ExitCode;

use stikis_core::ai::Level;
use stikis_core::tournament::{simulate, verify, Standing, TournamentRecord};
use stikis_core::Seed;

/// `stikis tournament play`'s options.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Play a small tournament of computer players here and write its record",
    long_about = "Plays a Latvian-format Zole tournament of computer players in this process, as \
the host runs one: the first round's seating drawn from the seed, tables of 4 (and 5, or 3 \
where the field needs them), every table's deals, big points per table, standings and re-seating \
by them for the next round. Writes the tournament record (docs/tournament-record.md) to FILE, \
prints the standings, and the same options and seed always give the same file. `stikis \
tournament verify FILE` re-counts it.",
    after_help = "Example:\n  stikis tournament play --players 8 --rounds 2 --deals 3 t.json\n  stikis tournament verify t.json"
)]
pub struct PlayArgs {
    /// Computer players in the field (named Player 1, Player 2, ...), at least 3.
    #[arg(long, default_value_t = 8)]
    players: usize,
    /// Rounds to play.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// Deals each table plays in a round.
    #[arg(long, default_value_t = 3)]
    deals: usize,
    /// The Zole rules preset: lv, lv-galdins, rondo, catsatcards or zolite.
    #[arg(long, default_value = "lv")]
    rules: String,
    /// The computer players' level: random, basic or strong.
    #[arg(long, default_value = "basic")]
    level: String,
    /// The seed of the draw and of every deal.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the tournament record (JSON).
    file: String,
}

/// The most of anything `play` accepts: it is for small local tournaments.
const MOST: usize = 1000;

pub fn play(a: &PlayArgs) -> Result<String, String> {
    if !(3..=MOST).contains(&a.players) {
        return Err(format!("--players is 3 to {MOST}, not {}", a.players));
    }
    for (flag, n) in [("--rounds", a.rounds), ("--deals", a.deals)] {
        if !(1..=MOST).contains(&n) {
            return Err(format!("{flag} is 1 to {MOST}, not {n}"));
        }
    }
    let level: Level = a.level.parse()?;
    let players: Vec<String> = (1..=a.players).map(|i| format!("Player {i}")).collect();
    let rules = serde_json::Value::String(a.rules.clone());
    let record = simulate(&players, &rules, a.rounds, a.deals, level, Seed::from_u64(a.seed))?;
    let text = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&a.file, text).map_err(|e| format!("cannot write {}: {e}", a.file))?;
    let mut out = standings_text(&record, &record.standings, "the standings");
    out.push_str(&format!(
        "The tournament record is saved in {}. `stikis tournament verify {}` re-counts it.\n",
        a.file, a.file
    ));
    Ok(out)
}

/// A header ending in `what` and one line per player, best first.
fn standings_text(record: &TournamentRecord, standings: &[Standing], what: &str) -> String {
    let mut out = format!(
        "{}: {} rounds, {} players; {what}:\n",
        record.name,
        record.rounds.len(),
        standings.len()
    );
    for (i, s) in standings.iter().enumerate() {
        out.push_str(&format!(
            "{:>3}. {:<20} {:>6} big points {:>+6} ({} rounds)\n",
            i + 1,
            s.player,
            s.big_points.to_string(),
            s.plus_minus,
            s.rounds
        ));
    }
    out
}

pub fn verify_file(path: &str) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("stikis tournament verify: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let record: TournamentRecord = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the tournament record is malformed: {e}");
            return ExitCode::from(2);
        }
    };
    match verify(&record) {
        Ok(standings) => {
            let what = "the records give the posted standings";
            print!("{}", standings_text(&record, &standings, what));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
