//! Message identities. Every message the host asks an adapter to show or post has a key: the
//! message it edits in place (a table's lobby, a deal's table message, a seat's hand), or the
//! post it makes once (a deal's result). The key is typed here, written in one place (its
//! `Display`, the form stored with the message) and read in one place (`MsgKey::parse`), so
//! nothing else builds or cuts key strings.
//!
//! The stored forms: `t<table>.lobby`, `t<table>.d<deal>`, `t<table>.d<deal>.s<seat>`,
//! `t<table>.d<deal>.result`, `t<table>.full.<user>`, `t<table>.end`, `T<tournament>`,
//! `T<tournament>.r<round>.t<table>.s<seat>`, `T<tournament>.end`.

use std::fmt;

use stikis_core::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MsgKey {
    /// A table's lobby message (who sits where; Join and Start).
    Lobby { table: i64 },
    /// A deal's table message (the trick, the turn, the buttons of the table).
    Deal { table: i64, deal: usize },
    /// A seat's hand in a deal, for the person in that seat.
    Hand { table: i64, deal: usize, seat: Seat },
    /// A deal's result, posted once.
    Result { table: i64, deal: usize },
    /// "The table is full", posted once per person and table.
    Full { table: i64, user: String },
    /// A table's end (stopped, or its game over), posted once.
    End { table: i64 },
    /// A tournament's message.
    Tournament { id: i64 },
    /// A tournament's end (its final standings), posted once.
    TournamentEnd { id: i64 },
    /// A person's seat in a tournament round (their table of that round).
    TournamentSeat {
        id: i64,
        round: usize,
        /// The round's table, from 1.
        table: usize,
        seat: Seat,
    },
}

impl MsgKey {
    /// The key a stored form names; None for anything that is not one.
    pub fn parse(key: &str) -> Option<MsgKey> {
        fn num<T: std::str::FromStr>(s: &str, prefix: char) -> Option<T> {
            let digits = s.strip_prefix(prefix)?;
            // Canonical numbers only: what `Display` writes reads back to the same key.
            let canonical = !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits.len() == 1 || !digits.starts_with('0'));
            if !canonical {
                return None;
            }
            digits.parse().ok()
        }
        let mut parts = key.split('.');
        let first = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        if first.starts_with('T') {
            let id = num(first, 'T')?;
            return match rest[..] {
                [] => Some(MsgKey::Tournament { id }),
                ["end"] => Some(MsgKey::TournamentEnd { id }),
                [r, t, s] => Some(MsgKey::TournamentSeat {
                    id,
                    round: num(r, 'r')?,
                    table: num(t, 't')?,
                    seat: num(s, 's')?,
                }),
                _ => None,
            };
        }
        let table = num(first, 't')?;
        match rest[..] {
            ["lobby"] => Some(MsgKey::Lobby { table }),
            ["end"] => Some(MsgKey::End { table }),
            ["full", user] if !user.is_empty() => Some(MsgKey::Full {
                table,
                user: user.to_string(),
            }),
            [d] => Some(MsgKey::Deal {
                table,
                deal: num(d, 'd')?,
            }),
            [d, "result"] => Some(MsgKey::Result {
                table,
                deal: num(d, 'd')?,
            }),
            [d, s] => Some(MsgKey::Hand {
                table,
                deal: num(d, 'd')?,
                seat: num(s, 's')?,
            }),
            _ => None,
        }
    }

    /// The table (of a table's own messages; a tournament's are not a table's).
    pub fn table(&self) -> Option<i64> {
        match *self {
            MsgKey::Lobby { table }
            | MsgKey::Deal { table, .. }
            | MsgKey::Hand { table, .. }
            | MsgKey::Result { table, .. }
            | MsgKey::Full { table, .. }
            | MsgKey::End { table } => Some(table),
            MsgKey::Tournament { .. } | MsgKey::TournamentSeat { .. } | MsgKey::TournamentEnd { .. } => None,
        }
    }

    /// The deal a message shows (its table message, a hand in it, its result).
    pub fn deal(&self) -> Option<usize> {
        match *self {
            MsgKey::Deal { deal, .. } | MsgKey::Hand { deal, .. } | MsgKey::Result { deal, .. } => Some(deal),
            _ => None,
        }
    }

    /// The table message of the deal a hand is in (None for anything but a hand).
    pub fn deal_message(&self) -> Option<MsgKey> {
        match *self {
            MsgKey::Hand { table, deal, .. } => Some(MsgKey::Deal { table, deal }),
            _ => None,
        }
    }

    /// The table of a hand message (None for any other message).
    pub fn hand_table(key: &str) -> Option<i64> {
        match MsgKey::parse(key)? {
            MsgKey::Hand { table, .. } => Some(table),
            _ => None,
        }
    }
}

impl fmt::Display for MsgKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MsgKey::Lobby { table } => write!(f, "t{table}.lobby"),
            MsgKey::Deal { table, deal } => write!(f, "t{table}.d{deal}"),
            MsgKey::Hand { table, deal, seat } => write!(f, "t{table}.d{deal}.s{seat}"),
            MsgKey::Result { table, deal } => write!(f, "t{table}.d{deal}.result"),
            MsgKey::Full { table, user } => write!(f, "t{table}.full.{user}"),
            MsgKey::End { table } => write!(f, "t{table}.end"),
            MsgKey::Tournament { id } => write!(f, "T{id}"),
            MsgKey::TournamentEnd { id } => write!(f, "T{id}.end"),
            MsgKey::TournamentSeat {
                id,
                round,
                table,
                seat,
            } => write!(f, "T{id}.r{round}.t{table}.s{seat}"),
        }
    }
}

impl From<MsgKey> for String {
    fn from(k: MsgKey) -> String {
        k.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_as_it_was_written() {
        let keys = [
            MsgKey::Lobby { table: 7 },
            MsgKey::Deal { table: 12, deal: 3 },
            MsgKey::Hand {
                table: 12,
                deal: 3,
                seat: 1,
            },
            MsgKey::Result { table: 9, deal: 10 },
            MsgKey::Full {
                table: 4,
                user: "7001".into(),
            },
            MsgKey::End { table: 8 },
            MsgKey::Tournament { id: 3 },
            MsgKey::TournamentEnd { id: 5 },
            MsgKey::TournamentSeat {
                id: 4,
                round: 1,
                table: 2,
                seat: 0,
            },
        ];
        for k in keys {
            assert_eq!(MsgKey::parse(&k.to_string()), Some(k.clone()), "{k}");
        }
        // The forms stored by earlier versions read as the same keys.
        assert_eq!(MsgKey::parse("t12.d3.s1").and_then(|k| k.table()), Some(12));
        assert_eq!(MsgKey::parse("t12.d3.s1").and_then(|k| k.deal()), Some(3));
        assert_eq!(MsgKey::parse("t7.lobby").and_then(|k| k.deal()), None);
        assert_eq!(MsgKey::parse("T4.r1.t2.s0").and_then(|k| k.table()), None);
        assert_eq!(MsgKey::hand_table("t12.d3.s1"), Some(12));
        assert_eq!(MsgKey::hand_table("t12.d3"), None);
        assert_eq!(
            MsgKey::parse("t12.d3.s1").and_then(|k| k.deal_message()),
            Some(MsgKey::Deal { table: 12, deal: 3 })
        );
    }

    #[test]
    fn what_is_not_a_key_is_refused() {
        for bad in [
            "",
            "x",
            "t",
            "t.d1",
            "tx.d1",
            "t7.",
            "t7.d",
            "t7.dx",
            "t7.d1.x",
            "t7.d01",
            "t-1.d1",
            "t7.d1.s1.s2",
            "t7.full.",
            "T",
            "T3.r1",
            "t7.d1.sx",
            "T3.r1.t2.s0.x",
        ] {
            assert_eq!(MsgKey::parse(bad), None, "{bad:?}");
        }
    }
}
