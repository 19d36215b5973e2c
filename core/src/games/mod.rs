//! One module per game; each owns its deal, bidding, play, scoring, options and records.
//!
//! [`GAMES`] is the one list of the games the engine knows: every tool that names a game (the
//! record replay, the host's registry, the terminal, the arena) reads it. Adding a game is one
//! entry here (docs/adding-a-game.md).

use serde_json::Value;

use crate::record::{Envelope, ReplayError};

pub mod belote;
pub mod matches;
pub mod polt;
pub mod zole;

/// One game as the engine knows it: its names, the seats it is played with, its rules presets
/// and how its records are replayed.
#[derive(Debug, Clone, Copy)]
pub struct GameInfo {
    /// The record's `game` (docs/record-format.md), the name the host stores tables under.
    pub id: &'static str,
    /// Its name in the terminal tools (English; the chat's words are in the host's Fluent files).
    pub name: &'static str,
    /// The word `stikis play` takes for it: games that share one are variants of it.
    pub family: &'static str,
    /// The word after the family that picks this game among its variants (`stikis play belote
    /// coinche`), and `stikis arena --game`'s name for it; None for a family of one game. The
    /// family's first game in [`GAMES`] is its default.
    pub variant: Option<&'static str>,
    /// The chat command that opens it (`/belote`): games that share one are picked by the
    /// word after it, the rest of their id after `command-` (`/belote h2h`). The command's first
    /// game in [`GAMES`] is its default.
    pub command: &'static str,
    /// The fewest and the most seats it is played with.
    pub seats: (usize, usize),
    /// The seats a table gets when nobody says (the terminal game, the arena).
    pub default_seats: usize,
    /// Whether seats play in fixed teams (partners opposite each other: seats 0 and 2, 1 and
    /// 3), which the leaderboards rank as one side.
    pub teams: bool,
    /// Its rules presets; the first is the one a table gets when its creator names none.
    pub presets: &'static [&'static str],
    /// Replays a record of this game (docs/record-format.md).
    pub replay: fn(&Envelope) -> Result<Value, ReplayError>,
    /// Its computer players in a match against each other (`stikis arena`, `stikis bench`).
    pub computers: matches::Computers,
}

impl GameInfo {
    /// The preset a table gets when its creator names none.
    pub fn default_preset(&self) -> &'static str {
        self.presets[0]
    }

    /// `stikis arena`'s and `stikis bench`'s name for it: its variant, else its id.
    pub fn short_name(&self) -> &'static str {
        self.variant.unwrap_or(self.id)
    }

    /// Whether a table of `seats` can play it.
    pub fn seats_ok(&self, seats: usize) -> bool {
        (self.seats.0..=self.seats.1).contains(&seats)
    }
}

/// A Belote variant's entry: four seats in two teams, or two players head to head.
const fn belote(
    v: belote::Variant,
    name: &'static str,
    variant: &'static str,
    command: &'static str,
) -> GameInfo {
    GameInfo {
        id: v.game_name(),
        name,
        family: "belote",
        variant: Some(variant),
        command,
        seats: (v.seats(), v.seats()),
        default_seats: v.seats(),
        teams: v.seats() == 4,
        presets: &["default"],
        replay: belote::record::replay,
        computers: belote::arena::computers(v),
    }
}

/// Every game, in the order the chats, the terminal and the leaderboards list them.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        id: "zole",
        name: "Zole",
        family: "zole",
        variant: None,
        command: "zole",
        seats: (3, 5),
        default_seats: 3,
        teams: false,
        presets: &zole::options::PRESETS,
        replay: zole::record::replay,
        computers: zole::arena::COMPUTERS,
    },
    belote(belote::Variant::Bazar, "Bazar belote", "bazar", "belote"),
    belote(
        belote::Variant::Classic,
        "French classic belote",
        "classic",
        "belote",
    ),
    belote(
        belote::Variant::HeadToHead,
        "Head-to-head belote",
        "h2h",
        "belote",
    ),
    belote(belote::Variant::Coinche, "Coinche", "coinche", "coinche"),
    GameInfo {
        id: polt::record::GAME,
        name: "Polt to Tzar",
        family: "polt",
        variant: None,
        command: "polt",
        seats: (polt::MIN_SEATS, polt::MAX_SEATS),
        default_seats: polt::MIN_SEATS,
        teams: false,
        presets: &polt::options::PRESETS,
        replay: polt::record::replay,
        computers: polt::arena::COMPUTERS,
    },
];

/// The game a record or a table names by `id`.
pub fn game(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_short_names_are_unique_and_variants_name_their_family() {
        for (i, a) in GAMES.iter().enumerate() {
            for b in &GAMES[i + 1..] {
                assert_ne!(a.id, b.id);
                assert_ne!(a.short_name(), b.short_name());
                assert!(a.family != b.family || (a.variant.is_some() && b.variant.is_some()));
            }
            assert_eq!(game(a.id).map(|g| g.id), Some(a.id));
            assert!(a.seats.0 <= a.seats.1 && a.seats_ok(a.default_seats), "{}", a.id);
        }
        assert!(game("no-such-game").is_none());
    }

    /// `teams` says what the engine does: a Belote variant seats partners in one team (the
    /// engine's `Variant::team`) exactly when it is marked `teams`; Zole and Polt to Tzar have
    /// no fixed partners (a declarer against the rest, everyone for themselves).
    #[test]
    fn teams_match_the_engine() {
        for v in belote::Variant::ALL {
            let n = v.seats() as crate::Seat;
            let partners = (0..n).any(|s| (s + 1..n).any(|t| v.team(s) == v.team(t)));
            assert_eq!(game(v.game_name()).map(|g| g.teams), Some(partners), "{v}");
        }
        for id in ["zole", "polt"] {
            assert_eq!(game(id).map(|g| g.teams), Some(false), "{id}");
        }
    }

    /// Every preset is one the engine reads.
    #[test]
    fn every_preset_parses() {
        for g in GAMES {
            for p in g.presets {
                let rules = Value::String(p.to_string());
                let parsed = match belote::Variant::from_game_name(g.id) {
                    Some(v) => belote::options::Options::from_rules(v, &rules).map(drop),
                    None if g.id == "zole" => zole::options::Options::from_rules(&rules).map(drop),
                    None if g.id == "polt" => polt::options::Options::from_rules(&rules).map(drop),
                    None => Err(format!("say here how {} reads its rules", g.id)),
                };
                assert!(parsed.is_ok(), "{} preset {p}: {parsed:?}", g.id);
            }
        }
    }

    /// Every game's computer players play a match through the list: a deal under every
    /// rotation, a score per slot, each deal's record replaying as that game's, the same
    /// scores again from the same seed; the slots are the game's seats or teams.
    #[test]
    fn every_game_has_computer_players_for_a_match() {
        use crate::ai::Level;
        use matches::{Entrant, Match};
        for g in GAMES {
            let c = &g.computers;
            match g.teams {
                true => assert_eq!(c.slots, (2, 2), "{}", g.id),
                false => assert!(g.seats.0 <= c.slots.0 && c.slots.1 <= g.seats.1, "{}", g.id),
            }
            assert!((c.slots.0..=c.slots.1).contains(&c.default_slots), "{}", g.id);
            assert!((c.rules)(None).is_ok(), "{}", g.id);
            assert!((c.rules)(Some("no-such-preset")).is_err(), "{}", g.id);
            let m = Match {
                entrants: vec![Entrant::Ai(Level::Random); c.default_slots],
                rules: None,
                seed: 7,
                budget: std::time::Duration::from_millis(1),
            };
            let (scores, records) = (c.open)(&m).play(3, true);
            assert_eq!(scores.len(), c.default_slots, "{}: a score per rotation", g.id);
            assert!(scores.iter().all(|s| s.len() == c.default_slots), "{}", g.id);
            assert_eq!(records.len(), scores.len(), "{}: a record per rotation", g.id);
            for r in &records {
                let v: Value = serde_json::from_str(r).expect("a record");
                assert_eq!(v["game"], g.id, "{}", g.id);
                crate::record::replay(r.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", g.id));
            }
            assert_eq!((c.open)(&m).play(3, false).0, scores, "{}: seeded", g.id);
        }
    }

    /// A record names its game by id, and replay reaches that game through this list.
    #[test]
    fn replay_dispatches_by_id() {
        let unknown = br#"{"game":"no-such-game","rules":"default","players":[],"deals":[]}"#;
        let err = crate::record::replay(unknown).unwrap_err();
        assert!(err.reason.contains("unknown game"), "{err}");
    }
}
