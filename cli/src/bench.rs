//! `stikis bench`: how fast the rules engine plays complete deals: random legal play (every
//! seat a `random` computer player) on one thread, every deal under every seat rotation, as
//! the arena plays them. The rate is per second of this process's CPU time, which other
//! programs on a shared machine do not slow down as they slow down the wall clock; the wall
//! time is printed beside it.

use std::time::{Duration, Instant};

use crate::arena::{self, ArenaArgs};

/// `stikis bench`'s options.
#[derive(clap::Args, Debug, Clone)]
#[command(
    about = "Time complete deals of random legal play through the rules engine",
    long_about = "Plays complete deals of a game with random legal moves on one thread (each deal \
under every rotation of the seats, as `stikis arena` does) and prints the CPU time they took \
(user and system time of this process), deals per second of CPU time, and the wall time beside \
it. CPU time is what a busy machine does not inflate; where it cannot be read (no \
/proc/self/stat) the rate is per wall-clock second and says so. For profiles and the computer \
players' think times, see `cargo bench -p stikis-core`."
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

/// The kernel's clock tick for the times in /proc/self/stat (USER_HZ, 100 on Linux).
const TICK: Duration = Duration::from_millis(10);

/// This process's CPU time so far, user and system, of every thread (the deals run on a
/// thread of their own): fields 14 and 15 of /proc/self/stat, in ticks. None without /proc.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |i: usize| fields.get(i)?.parse::<u32>().ok();
    // After the name, field 3 (state) is index 0: utime is index 11, stime 12.
    Some(TICK * (field(11)? + field(12)?))
}

pub fn run(b: &BenchArgs) -> Result<String, String> {
    let cpu_before = cpu_time();
    let started = Instant::now();
    arena::run(&ArenaArgs::random(&b.game, b.deals, b.seed))?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_before
        .zip(cpu_time())
        .map(|(a, z)| z.saturating_sub(a).as_secs_f64());
    let rotations = arena::slots(&b.game);
    let played = b.deals * rotations;
    let rate = match cpu {
        Some(cpu) if cpu > 0.0 => format!(
            "{cpu:.2} s of CPU time ({wall:.2} s wall): {:.0} deals per CPU second on one thread",
            played as f64 / cpu
        ),
        Some(_) => format!(
            "under {:.2} s of CPU time, one tick of its clock ({wall:.2} s wall): too few deals for a rate",
            TICK.as_secs_f64()
        ),
        None => format!(
            "{wall:.2} s wall (CPU time cannot be read here): {:.0} deals/s of wall time on one thread",
            played as f64 / wall
        ),
    };
    Ok(format!(
        "{}: {played} complete deals ({} x {rotations} rotations) of random legal play in {rate}\n",
        b.game, b.deals
    ))
}
