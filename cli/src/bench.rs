//! `stikis bench`: how fast the rules engine plays complete deals: random legal play (every
//! seat a `random` computer player) on one thread, every deal under every seat rotation, as
//! the arena plays them.

use std::time::Instant;

use crate::arena::{self, ArenaArgs};

/// `stikis bench`'s options.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Time complete deals of random legal play through the rules engine",
    long_about = "Plays complete deals of a game with random legal moves on one thread (each deal \
under every rotation of the seats, as `stikis arena` does) and prints deals per second. For \
profiles and the computer players' think times, see `cargo bench -p stikis-core`."
)]
pub struct BenchArgs {
    /// The game: zole, polt, bazar, classic, h2h or coinche.
    #[arg(long, default_value = "zole")]
    game: String,
    /// Deals to play.
    #[arg(long, default_value_t = 10_000)]
    deals: usize,
    /// The seed the deals are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(b: &BenchArgs) -> Result<String, String> {
    let started = Instant::now();
    arena::run(&ArenaArgs::random(&b.game, b.deals, b.seed))?;
    let secs = started.elapsed().as_secs_f64();
    let rotations = match b.game.as_str() {
        "zole" => 3,
        "polt" => 5,
        _ => 2,
    };
    let played = b.deals * rotations;
    Ok(format!(
        "{}: {played} complete deals ({} x {rotations} rotations) of random legal play in {secs:.2} s: {:.0} deals/s on one thread\n",
        b.game,
        b.deals,
        played as f64 / secs
    ))
}
