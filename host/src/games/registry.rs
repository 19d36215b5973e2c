//! The one list of the games the host runs: per game, the engine's facts about it
//! (`stikis_core::games::GAMES`: id, variants, seats, teams, presets, replay), its host face
//! (the `HostedGame` it opens, what closing its score sheet settles) and its words (Fluent keys
//! of its name and of its chat command's description). The chat adapters, the terminal, the
//! boards, the pages and the tournaments read it; adding a game is one entry here and one in
//! core (docs/adding-a-game.md).

use serde_json::Value;
use stikis_core::games::GameInfo;

use super::{belote, polt, zole, HostedGame, Refusal};
use crate::i18n::Lang;

/// Opens a game's host face: its id, a table's rules, its number of seats.
pub type Opener = fn(&str, &Value, usize) -> Result<Box<dyn HostedGame>, Refusal>;

/// One game the host runs.
#[derive(Debug, Clone, Copy)]
pub struct HostGame {
    /// What the engine knows of it: id, variants, seats, teams, presets, record replay.
    pub info: &'static GameInfo,
    /// Opens its host face for its id, a table's `rules` and number of seats; refuses rules or
    /// a number of seats the game does not know.
    pub open: Opener,
    /// What closing a chat's score sheet of it settles (RULES.md 1.8, "at the end of a
    /// session"): points per player, from the sheet's extras as its `sheet_extras` wrote them.
    pub settle_sheet: fn(&Value) -> Vec<(String, i64)>,
    /// The Fluent key of its name as people read it (never the record's id).
    pub title: &'static str,
    /// The Fluent key of its chat command's description ("Open a Zole table"); the games that
    /// share a command share it.
    pub command_about: &'static str,
    /// The stem of its own Fluent file (`locales/*/<stem>.ftl`) if it has one: every key in it
    /// must exist in every language, without being listed in `i18n::KEYS`.
    pub words: Option<&'static str>,
}

/// Nothing to settle: the game keeps no pules (Belote and Polt are settled at the table:
/// docs/rules-decisions.md).
fn settles_nothing(_extras: &Value) -> Vec<(String, i64)> {
    Vec::new()
}

fn open_belote(game: &str, rules: &Value, seats: usize) -> Result<Box<dyn HostedGame>, Refusal> {
    Ok(Box::new(belote::BeloteGame::new(game, rules, seats)?))
}

/// A Belote variant: its face reads the variant from the game's id.
const fn belote_game(id: &str, title: &'static str, command_about: &'static str) -> HostGame {
    HostGame {
        info: core(id),
        open: open_belote,
        settle_sheet: settles_nothing,
        title,
        command_about,
        words: Some("belote"),
    }
}

/// The engine's entry of `id`; a name the engine does not know fails the build.
const fn core(id: &str) -> &'static GameInfo {
    let games = stikis_core::games::GAMES;
    let mut i = 0;
    while i < games.len() {
        if same(games[i].id, id) {
            return &games[i];
        }
        i += 1;
    }
    panic!("a hosted game the engine does not know")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Every game the host runs, in the order the chats, the terminal and the boards list them.
pub const HOSTED: &[HostGame] = &[
    HostGame {
        info: core("zole"),
        open: |_, rules, seats| Ok(Box::new(zole::ZoleGame::new(rules, seats)?)),
        settle_sheet: zole::settle_sheet,
        title: "game-name-zole",
        command_about: "game-command-zole",
        words: None,
    },
    belote_game("belote-bazar", "belote-name-belote-bazar", "game-command-belote"),
    belote_game(
        "belote-classic",
        "belote-name-belote-classic",
        "game-command-belote",
    ),
    belote_game("belote-h2h", "belote-name-belote-h2h", "game-command-belote"),
    belote_game("coinche", "belote-name-coinche", "game-command-coinche"),
    HostGame {
        info: core("polt"),
        open: |_, rules, seats| Ok(Box::new(polt::PoltGame::new(rules, seats)?)),
        settle_sheet: settles_nothing,
        title: "game-name-polt",
        command_about: "game-command-polt",
        words: Some("polt"),
    },
];

/// The ids of [`HOSTED`], in order.
const fn ids<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = HOSTED[i].info.id;
        i += 1;
    }
    out
}

/// Every game the host can open (and so every game a chat can have a score sheet of).
pub const GAMES: [&str; HOSTED.len()] = ids();

/// The hosted game of a record's or a table's `game` id.
pub fn hosted(game: &str) -> Option<&'static HostGame> {
    HOSTED.iter().find(|g| g.info.id == game)
}

/// Builds the hosted game for a record's `game` name and `rules`.
pub fn new_game(game: &str, rules: &Value, seats: usize) -> Result<Box<dyn HostedGame>, Refusal> {
    match hosted(game) {
        Some(g) => (g.open)(game, rules, seats),
        None => Err(Refusal(format!("stikis cannot host {game:?} yet"))),
    }
}

/// What closing a chat's score sheet settles (RULES.md 1.8, "at the end of a session"):
/// points per player, from the sheet's extras as `sheet_extras` wrote them.
pub fn settle_sheet(game: &str, extras: &Value) -> Vec<(String, i64)> {
    hosted(game).map_or_else(Vec::new, |g| (g.settle_sheet)(extras))
}

/// The rules a table of `game` gets when its creator names none: the game's main preset.
pub fn default_rules(game: &str) -> Value {
    let preset = hosted(game).map_or("default", |g| g.info.default_preset());
    Value::String(preset.into())
}

/// The seat counts a game can be played with.
pub fn seat_range(game: &str) -> Option<(usize, usize)> {
    hosted(game).map(|g| g.info.seats)
}

/// Whether the seats of `game` play in fixed teams (the boards rank a team as one side).
pub fn in_teams(game: &str) -> bool {
    hosted(game).is_some_and(|g| g.info.teams)
}

/// A game's name as people read it in `lang` (never the record's id, such as `belote-bazar`).
pub fn game_title(lang: Lang, game: &str) -> String {
    match hosted(game) {
        Some(g) => crate::i18n::t(lang, g.title, &[]),
        None => game.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_game_of_the_engine_is_hosted_once_in_its_order() {
        let hosted: Vec<&str> = HOSTED.iter().map(|g| g.info.id).collect();
        let core: Vec<&str> = stikis_core::games::GAMES.iter().map(|g| g.id).collect();
        assert_eq!(hosted, core);
        assert_eq!(GAMES.to_vec(), core);
        let unique: BTreeSet<&str> = core.iter().copied().collect();
        assert_eq!(unique.len(), core.len(), "a game listed twice");
    }

    /// Every preset opens a table of exactly the seat counts the registry names, and a table
    /// of the default seats; an unknown game or preset is refused.
    #[test]
    fn every_preset_opens_at_exactly_the_game_s_seat_counts() {
        for g in HOSTED {
            let info = g.info;
            assert!(info.seats_ok(info.default_seats), "{}", info.id);
            assert_eq!(seat_range(info.id), Some(info.seats));
            assert!(!info.presets.is_empty(), "{}: no preset", info.id);
            for preset in info.presets {
                let rules = Value::String(preset.to_string());
                for n in 0..=10 {
                    let opened = new_game(info.id, &rules, n);
                    assert_eq!(
                        opened.is_ok(),
                        info.seats_ok(n),
                        "{} preset {preset} with {n} seats: {:?}",
                        info.id,
                        opened.err()
                    );
                }
            }
            let rules = default_rules(info.id);
            assert_eq!(rules, Value::String(info.presets[0].into()));
            assert!(new_game(
                info.id,
                &Value::String("no-such-preset".into()),
                info.default_seats
            )
            .is_err());
        }
        assert!(new_game("no-such-game", &Value::String("default".into()), 4).is_err());
    }

    /// Its name and its command's description exist in every language.
    #[test]
    fn words_exist_in_every_language() {
        for g in HOSTED {
            for lang in Lang::ALL {
                for key in [g.title, g.command_about] {
                    let text = crate::i18n::t(lang, key, &[]);
                    assert!(!text.is_empty() && text != key, "{} {lang}: {key}", g.info.id);
                }
            }
        }
        // Each game has a name of its own; the games that share a command share its words.
        for lang in Lang::ALL {
            let titles: BTreeSet<String> = GAMES.iter().map(|g| game_title(lang, g)).collect();
            assert_eq!(titles.len(), GAMES.len(), "{lang}: two games share a name");
        }
        for a in HOSTED {
            for b in HOSTED {
                if a.info.command == b.info.command {
                    assert_eq!(a.command_about, b.command_about, "{} {}", a.info.id, b.info.id);
                }
            }
        }
    }
}
