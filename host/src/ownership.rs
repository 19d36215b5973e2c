//! Which live process owns a table: rendezvous hashing over the live processes' ids, the
//! same in every process and every version. The host (`crate::owner`) and the store
//! (`Store::shows_alone`) both ask it; it asks nothing of either. With it, the timings of
//! ownership that every process keeps alike: heartbeats, when a process is taken for dead,
//! when what it owed is posted by another.

use std::time::Duration;

/// The weight of `process` for `table` (FNV-1a over both, then a 64-bit mixer): the same in
/// every process and every version, unlike the standard library's hasher.
fn weight(table: i64, process: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.to_le_bytes().iter().chain(process.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The owner of `table` among the live processes (None when none is known).
pub fn owner_among(table: i64, live: &[String]) -> Option<&str> {
    live.iter()
        .max_by_key(|p| (weight(table, p), p.as_str()))
        .map(String::as_str)
}

/// How often the bots call `Host::sweep` (also each process's heartbeat).
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);
/// A process whose heartbeat is this old is taken for dead, and its tables are taken over.
pub const BEAT_STALE_MS: i64 = 6_000;
/// How long after a deal's end the owner of its table looks for its result in the database
/// and posts it if no process did (`Host::post_due_results`), and how long a process that
/// loads a table another process moved last, not known to be gone, waits before it posts
/// the results that process may owe: long enough for a live process to post its own, and
/// for a dead one to be known gone (its claims lapse).
pub const OWED_WAIT: Duration =
    Duration::from_millis(BEAT_STALE_MS as u64 + 2 * SWEEP_EVERY.as_millis() as u64);
/// A running table nothing has happened at for this long is looked at by every process.
pub const SWEEP_QUIET: Duration = Duration::from_secs(15);
