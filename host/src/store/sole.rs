//! Which tables' hands this process alone shows, so that it need not claim each hand's
//! version before sending it (`Store::claim_hand`). A claim is a write for every hand shown,
//! and with several processes those writes were the largest share of the database's work;
//! yet a hand is shown by one process, its table's owner, except around a change of owner
//! (the old owner's last sends against the new owner's first), and when another process
//! received a press handed to the owner and shows the presser's hand from the owner's answer.
//! So a hand is claimed only then:
//! - while the live processes as this process reads them changed less than `SETTLED` ago, or
//!   the last read is older than `READ_FRESH` (the database is away: no process can tell who
//!   owns what);
//! - while this process has held its copy of the table for less than `SETTLED` (it took the
//!   table up: the previous owner's sends may still be on their way, and they are claimed,
//!   being a non-owner's);
//! - when this process does not own the table (a receiver showing a hand from the log);
//! - for a person whose hand another process showed from this owner's answer less than
//!   `SETTLED` ago (their newer hands must win over that one).
//!
//! `SETTLED` is several times the time two processes' views of the live set can differ
//! (one read every 0.5 s, a process missing once kept for one more read).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long after a change a table's hands are claimed again (see the module).
pub const SETTLED: Duration = Duration::from_secs(5);
/// How old the last read of the live processes may be for this process to count itself a
/// table's only shower.
pub const READ_FRESH: Duration = Duration::from_millis(1_500);
/// How many people's recent hand-backs are kept before the oldest are dropped.
const SHOWN_ELSEWHERE_KEPT: usize = 10_000;

#[derive(Default, Debug)]
pub(super) struct Sole {
    inner: Mutex<Inner>,
}

#[derive(Default, Debug)]
struct Inner {
    /// When the live set as read last changed, and when it was last read.
    changed: Option<Instant>,
    read: Option<Instant>,
    /// The tables this process holds a copy of, since when.
    held: HashMap<i64, Instant>,
    /// (table, person): when a hand of theirs went back in an answer to a handed press.
    elsewhere: HashMap<(i64, String), Instant>,
}

impl Sole {
    /// A read of the live processes: `changed` when the set is not the one read before. The
    /// first read after a gap (the database was away) counts as a change too: the other
    /// processes' sessions come back one by one, and meanwhile they see one another come
    /// and go, and move tables, while this process's own view may not change at all.
    pub(super) fn read(&self, changed: bool, now: Instant) {
        let mut i = self.inner.lock().expect("sole");
        let gap = i.read.is_none_or(|r| now.duration_since(r) > READ_FRESH);
        i.read = Some(now);
        if changed || gap {
            i.changed = Some(now);
        }
    }

    /// This process holds a copy of `table` from now on (kept as it was if it held one).
    pub(super) fn hold(&self, table: i64, now: Instant) {
        self.inner.lock().expect("sole").held.entry(table).or_insert(now);
    }

    /// This process dropped its copy of `table`.
    pub(super) fn drop_table(&self, table: i64) {
        let mut i = self.inner.lock().expect("sole");
        i.held.remove(&table);
        i.elsewhere.retain(|(t, _), _| *t != table);
    }

    /// A hand of `user` at `table` goes back to another process to be shown.
    pub(super) fn shown_elsewhere(&self, table: i64, user: &str, now: Instant) {
        let mut i = self.inner.lock().expect("sole");
        if i.elsewhere.len() >= SHOWN_ELSEWHERE_KEPT {
            i.elsewhere.retain(|_, at| now.duration_since(*at) < SETTLED);
        }
        i.elsewhere.insert((table, user.to_string()), now);
    }

    /// Whether this process alone shows `user`'s hand at `table` now (any person's, for
    /// None: it alone moves the table), given that it owns the table (`owns`): see the
    /// module.
    pub(super) fn alone_shows(&self, table: i64, user: Option<&str>, owns: bool, now: Instant) -> bool {
        if !owns {
            return false;
        }
        let i = self.inner.lock().expect("sole");
        let settled = |at: &Instant| now.duration_since(*at) >= SETTLED;
        i.read.is_some_and(|r| now.duration_since(r) <= READ_FRESH)
            && i.changed.as_ref().is_some_and(settled)
            && i.held.get(&table).is_some_and(settled)
            && !user.is_some_and(|u| {
                i.elsewhere
                    .get(&(table, u.to_string()))
                    .is_some_and(|at| !settled(at))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_is_shown_unclaimed_only_by_a_settled_owner() {
        let sole = Sole::default();
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        // Reads every second from `from` to `to` (ms), as the host makes them.
        let reads = |from: u64, to: u64| {
            for ms in (from..=to).step_by(1_000) {
                sole.read(false, at(ms));
            }
        };
        // Nothing read yet: nobody knows who owns what.
        assert!(!sole.alone_shows(7, Some("anna"), true, t0));
        sole.read(true, t0);
        sole.hold(7, t0);
        // Just read and just taken up: claimed.
        assert!(!sole.alone_shows(7, Some("anna"), true, t0));
        reads(1_000, 6_000);
        assert!(sole.alone_shows(7, Some("anna"), true, at(6_000)));
        // Another process's table, or one not held here.
        assert!(!sole.alone_shows(7, Some("anna"), false, at(6_000)));
        assert!(!sole.alone_shows(8, Some("anna"), true, at(6_000)));
        // The reads stopped (the database is away): claimed.
        assert!(!sole.alone_shows(7, Some("anna"), true, at(8_000)));
        // When they come back the others may still be moving tables about: claimed for a
        // while yet.
        reads(20_000, 24_000);
        assert!(!sole.alone_shows(7, Some("anna"), true, at(24_000)));
        reads(25_000, 25_000);
        assert!(sole.alone_shows(7, Some("anna"), true, at(25_000)));
        // Anna's hand went back in an answer: hers are claimed for a while, not Bruno's.
        sole.shown_elsewhere(7, "anna", at(25_000));
        assert!(!sole.alone_shows(7, Some("anna"), true, at(25_000)));
        assert!(sole.alone_shows(7, Some("bruno"), true, at(25_000)));
        assert!(sole.alone_shows(7, None, true, at(25_000)));
        reads(26_000, 30_000);
        assert!(sole.alone_shows(7, Some("anna"), true, at(30_000)));
        // The live set changed: every table's hands are claimed again for a while.
        sole.read(true, at(31_000));
        reads(32_000, 35_000);
        assert!(!sole.alone_shows(7, Some("anna"), true, at(35_000)));
        reads(36_000, 36_000);
        assert!(sole.alone_shows(7, Some("anna"), true, at(36_000)));
        // Held again after being dropped: taken up anew.
        sole.drop_table(7);
        sole.hold(7, at(36_000));
        assert!(!sole.alone_shows(7, Some("anna"), true, at(36_000)));
        // Holding it on keeps the first time.
        sole.hold(7, at(39_000));
        reads(37_000, 41_000);
        assert!(sole.alone_shows(7, Some("anna"), true, at(41_000)));
    }
}
