//! The bot's slash commands: their names, their descriptions in lv/en/ru (for setMyCommands
//! and /help), and the parsing of a message text into a command and its arguments. Nothing here
//! knows a rule; `lib.rs` maps a parsed command to a host `Command`.
//!
//! Game commands come from the host's games registry (`stikis_host::games::HOSTED`): the
//! games that share a command (`belote-bazar`, `belote-classic`, `belote-h2h`: `/belote`) are
//! opened by `/command [variant] [preset] [seats]`, the first of them by default, and the
//! command's description is the game's words in the Fluent files, so a game the host learns
//! gets its command without a change here.

use stikis_host::games::registry::hosted;
use stikis_host::i18n::{t, Lang};

/// The rules presets a game command takes (a word after the command): those of its games that
/// have more than one.
fn presets(family: &str) -> Vec<&'static str> {
    let mut all = Vec::new();
    for g in stikis_host::games::HOSTED
        .iter()
        .filter(|g| g.info.command == family)
    {
        if g.info.presets.len() > 1 {
            for p in g.info.presets {
                if !all.contains(p) {
                    all.push(*p);
                }
            }
        }
    }
    all
}

/// A game command's options as `game_command` reads them: the variant, the number of players
/// where the game allows several, the rules preset. "[3|4|5] [lv|rondo|…]"; empty for none.
pub fn game_usage(family_name: &str, games: &[&str]) -> String {
    let variants: Vec<&str> = games
        .iter()
        .copied()
        .filter(|g| family(g) == family_name)
        .collect();
    let mut parts = Vec::new();
    if variants.len() > 1 {
        let names: Vec<&str> = variants
            .iter()
            .map(|v| v.strip_prefix(family_name).unwrap_or(v).trim_start_matches('-'))
            .collect();
        parts.push(format!("[{}]", names.join("|")));
    }
    let sizes: Vec<usize> = variants
        .iter()
        .filter_map(|g| stikis_host::games::seat_range(g))
        .filter(|(min, max)| min < max)
        .flat_map(|(min, max)| min..=max)
        .collect();
    if !sizes.is_empty() {
        let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
        parts.push(format!("[{}]", sizes.join("|")));
    }
    let presets = presets(family_name);
    if !presets.is_empty() {
        parts.push(format!("[{}]", presets.join("|")));
    }
    parts.join(" ")
}

/// The command of a game (the registry's `command`; a game the host does not know: its name
/// up to the first `-`).
pub fn family(game: &str) -> &str {
    match hosted(game) {
        Some(g) => g.info.command,
        None => game.split('-').next().unwrap_or(game),
    }
}

/// What `/family args…` opens among `games`: the game, a preset, a seat count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub game: String,
    pub preset: Option<String>,
    pub seats: Option<usize>,
}

/// Reads a game command; None if `name` is no game family of `games`.
pub fn game_command(name: &str, args: &[&str], games: &[&str]) -> Option<Opening> {
    let variants: Vec<&str> = games.iter().copied().filter(|g| family(g) == name).collect();
    let mut game = *variants.first()?;
    let mut rest = args;
    if let Some((first, more)) = args.split_first() {
        let wanted = format!("{name}-{}", first.to_ascii_lowercase());
        if let Some(v) = variants.iter().find(|v| **v == wanted) {
            game = v;
            rest = more;
        }
    }
    let seats = rest.iter().find_map(|a| a.parse().ok());
    let preset = rest
        .iter()
        .find(|a| a.parse::<usize>().is_err())
        .map(|a| a.to_string());
    Some(Opening {
        game: game.to_string(),
        preset,
        seats,
    })
}

/// The game commands for `games`, one per family, in order, with descriptions.
pub fn game_commands(games: &[&str]) -> Vec<(String, [String; 3])> {
    game_help(games)
        .into_iter()
        .map(|(name, _, about)| (name, about))
        .collect()
}

/// The game commands for `games` with their options (the same in every language) and
/// descriptions in lv, en, ru.
fn game_help(games: &[&str]) -> Vec<(String, [String; 3], [String; 3])> {
    let mut out: Vec<(String, [String; 3], [String; 3])> = Vec::new();
    for g in games {
        let f = family(g);
        if out.iter().any(|(n, _, _)| n == f) {
            continue;
        }
        let words =
            Lang::ALL.map(|lang| hosted(g).map_or_else(|| f.to_string(), |h| t(lang, h.command_about, &[])));
        let usage = game_usage(f, games);
        out.push((f.to_string(), [usage.clone(), usage.clone(), usage], words));
    }
    out
}

/// Every command with its options (per language: "[N]", "lv|en|ru") and description.
fn command_help() -> Vec<(String, [String; 3], [String; 3])> {
    let mut all = game_help(&stikis_host::games::GAMES);
    all.extend(COMMANDS.iter().map(|(n, d)| {
        let usage = USAGE
            .iter()
            .find(|(u, _)| u == n)
            .map_or_else(Default::default, |(_, u)| u.map(str::to_string));
        (n.to_string(), usage, d.map(str::to_string))
    }));
    all
}

/// Every command the bot answers for the host's games, with its description in lv, en, ru
/// (for setMyCommands), the options in it: "Open a Zole table: /zole [3|4|5] [lv|…]".
pub fn all_commands() -> Vec<(String, [String; 3])> {
    command_help()
        .into_iter()
        .map(|(name, usage, about)| {
            let about = std::array::from_fn(|i| match usage[i].as_str() {
                "" => about[i].clone(),
                u => format!("{}: /{name} {u}", about[i]),
            });
            (name, about)
        })
        .collect()
}

/// The options of the other commands, per language (lv, en, ru), as `lib.rs` reads them.
const USAGE: &[(&str, [&str; 3])] = &[
    ("bots", ["[N]", "[N]", "[N]"]),
    (
        "tournament",
        [
            "[kārtas] [partijas kārtā|45m] [90s] [noteikumi] [bots] · join|leave|start|pause|resume|cancel|standings|record",
            "[rounds] [deals per round|45m] [90s] [preset] [bots] · join|leave|start|pause|resume|cancel|standings|record",
            "[туры] [раздач в туре|45m] [90s] [правила] [bots] · join|leave|start|pause|resume|cancel|standings|record",
        ],
    ),
    (
        "top",
        [
            "[day|week|month|season [N]|all]",
            "[day|week|month|season [N]|all]",
            "[day|week|month|season [N]|all]",
        ],
    ),
    ("season", ["new", "new", "new"]),
    (
        "web",
        [
            "[new|public <nosaukums>|private]",
            "[new|public <name>|private]",
            "[new|public <название>|private]",
        ],
    ),
    (
        "lang",
        ["lv|en|ru · group lv|en|ru", "lv|en|ru · group lv|en|ru", "lv|en|ru · group lv|en|ru"],
    ),
    (
        "settings",
        [
            "turn N|off · auto on|off · names A, B|off",
            "turn N|off · auto on|off · names A, B|off",
            "turn N|off · auto on|off · names A, B|off",
        ],
    ),
    ("hands", ["group|private", "group|private", "group|private"]),
];

/// The bot's other commands, with their descriptions in lv, en and ru.
pub const COMMANDS: &[(&str, [&str; 3])] = &[
    ("join", ["Piesēsties pie galda", "Take a seat", "Сесть за стол"]),
    ("leave", ["Aiziet no galda", "Leave the table", "Покинуть стол"]),
    (
        "bots",
        [
            "Pievienot N datorspēlētājus",
            "Add N computer players",
            "Добавить N компьютерных игроков",
        ],
    ),
    ("go", ["Sākt spēli", "Start the game", "Начать игру"]),
    ("stop", ["Beigt spēli", "Stop the game", "Остановить игру"]),
    (
        "play",
        [
            "Mana saite uz dzīvo galdu",
            "My link to the live table",
            "Моя ссылка на живой стол",
        ],
    ),
    (
        "record",
        [
            "Spēles ieraksts (JSON)",
            "The game record (JSON)",
            "Запись игры (JSON)",
        ],
    ),
    (
        "tournament",
        [
            "Zoles turnīrs (administratoriem)",
            "Zole tournament (admins)",
            "Турнир по золе (админам)",
        ],
    ),
    (
        "top",
        [
            "Reitingi; ar periodu: punkti",
            "Ratings; with a period: points",
            "Рейтинги; с периодом: очки",
        ],
    ),
    (
        "season",
        [
            "Sākt jaunu sezonu (administratoriem)",
            "Start a new season (admins)",
            "Начать новый сезон (админам)",
        ],
    ),
    ("stats", ["Mana statistika", "My statistics", "Моя статистика"]),
    (
        "web",
        [
            "Saite uz kopienas lapām (new: jauna saite; public, private: administratoriem)",
            "Link to the community's pages (new: a new link; public, private: admins)",
            "Ссылка на страницы сообщества (new: новая ссылка; public, private: админам)",
        ],
    ),
    (
        "lang",
        [
            "Tava valoda; group: grupas valoda",
            "Your language; group: the group's",
            "Ваш язык; group: язык группы",
        ],
    ),
    (
        "settings",
        [
            "Iestatījumi (administratoriem)",
            "Settings (admins)",
            "Настройки (админам)",
        ],
    ),
    (
        "hands",
        [
            "Kur rokas: grupā (katram redzama tikai viņa) vai privātajā sarunā (administratoriem)",
            "Where hands go: the group (each seen by its player alone) or private chats (admins)",
            "Где карты на руке: в группе (каждому видны только свои) или в личке (админам)",
        ],
    ),
    ("rules", ["Zoles noteikumi", "Zole rules", "Правила Золе"]),
    ("help", ["Palīdzība", "Help", "Помощь"]),
];

pub fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::Lv => 0,
        Lang::En => 1,
        Lang::Ru => 2,
    }
}

/// The language Telegram reports for a user (`language_code`), if stikis speaks it.
pub fn lang_of_code(code: Option<&str>) -> Option<Lang> {
    let code = code?;
    Lang::ALL
        .into_iter()
        .find(|l| code == l.code() || code.starts_with(&format!("{}-", l.code())))
}

/// The /help text in one language: every command with its options, "/zole [3|4|5] [lv|…] — …".
pub fn help_text(lang: Lang) -> String {
    let i = lang_index(lang);
    command_help()
        .iter()
        .map(|(name, usage, d)| match usage[i].as_str() {
            "" => format!("/{name} — {}", d[i]),
            u => format!("/{name} {u} — {}", d[i]),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A short rules summary; the full rules are in the project's RULES.md.
pub fn rules_text(lang: Lang) -> &'static str {
    match lang {
        Lang::Lv => {
            "Zole: 3 spēlētāji, 26 kārtis, 2 galdā. Lielais ņem galdu un spēlē pret diviem; \
                     vajag 61 acis. Zole: spēlē bez galda. Mazā zole: neņemt nevienu stiķi. \
                     Ja visi garām — galdiņš vai kopējā pule."
        }
        Lang::Ru => {
            "Золе: 3 игрока, 26 карт, 2 в прикупе. Большой берёт прикуп и играет против двоих; \
                     нужно 61 очко. Золе: без прикупа. Малая золе: не взять ни одной взятки. \
                     Если все пасуют — столик или общая пуля."
        }
        Lang::En => {
            "Zole: 3 players, 26 cards, 2 in the talon. The declarer takes the talon and plays \
                     against two, needing 61 points. Zole: play without the talon. Small zole: take \
                     no trick. If all pass: the table game or a common pule."
        }
    }
}

/// A message text split into a command name (lowercase, without `/` and `@bot`) and its
/// arguments; None for a text that is no command, or a command addressed to another bot.
pub fn parse<'a>(text: &'a str, bot_username: &str) -> Option<(String, Vec<&'a str>)> {
    let mut words = text.split_whitespace();
    let first = words.next()?.strip_prefix('/')?;
    let (name, to) = match first.split_once('@') {
        Some((n, b)) => (n, Some(b)),
        None => (first, None),
    };
    if to.is_some_and(|b| !b.eq_ignore_ascii_case(bot_username)) {
        return None;
    }
    Some((name.to_ascii_lowercase(), words.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_addressed_to_this_bot_only() {
        assert_eq!(parse("/zole lv", "stikis_bot"), Some(("zole".into(), vec!["lv"])));
        assert_eq!(parse("/Go@Stikis_Bot", "stikis_bot"), Some(("go".into(), vec![])));
        assert_eq!(parse("/go@other_bot", "stikis_bot"), None);
        assert_eq!(parse("hello /go", "stikis_bot"), None);
        assert_eq!(parse("/bots 2", "b"), Some(("bots".into(), vec!["2"])));
    }

    #[test]
    fn telegram_language_codes_map_to_our_languages() {
        assert_eq!(lang_of_code(Some("lv")), Some(Lang::Lv));
        assert_eq!(lang_of_code(Some("ru-RU")), Some(Lang::Ru));
        assert_eq!(lang_of_code(Some("de")), None);
        assert_eq!(lang_of_code(None), None);
    }

    #[test]
    fn game_commands_pick_variants_presets_and_seats() {
        // Every game the host offers.
        let games = stikis_host::games::GAMES;
        let open = |name: &str, args: &[&str]| game_command(name, args, &games);
        let o = |g: &str, p: Option<&str>, s: Option<usize>| {
            Some(Opening {
                game: g.into(),
                preset: p.map(Into::into),
                seats: s,
            })
        };
        assert_eq!(open("zole", &["lv"]), o("zole", Some("lv"), None));
        assert_eq!(open("belote", &[]), o("belote-bazar", None, None));
        assert_eq!(open("belote", &["Classic"]), o("belote-classic", None, None));
        assert_eq!(
            open("belote", &["h2h", "fast"]),
            o("belote-h2h", Some("fast"), None)
        );
        assert_eq!(open("coinche", &[]), o("coinche", None, None));
        assert_eq!(open("polt", &["4"]), o("polt", None, Some(4)));
        assert_eq!(open("join", &[]), None);
        let names: Vec<String> = game_commands(&games).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["zole", "belote", "coinche", "polt"]);
        // Their descriptions are the games' words in the Fluent files, in lv, en, ru.
        let coinche = game_commands(&games).into_iter().find(|(n, _)| n == "coinche");
        assert_eq!(
            coinche.map(|(_, about)| about),
            Some([
                "Atvērt Kuanšas galdu".to_string(),
                "Open a Coinche table".to_string(),
                "Открыть стол Куанш".to_string(),
            ])
        );
    }

    #[test]
    fn help_names_every_commands_options() {
        // Every game the host offers.
        let games = stikis_host::games::GAMES;
        assert_eq!(
            game_usage("zole", &games),
            "[3|4|5] [lv|lv-galdins|rondo|catsatcards|zolite]"
        );
        assert_eq!(game_usage("belote", &games), "[bazar|classic|h2h]");
        assert_eq!(game_usage("coinche", &games), "");
        assert_eq!(game_usage("polt", &games), "[5|6|7]");
        // What the usage promises is what the command reads.
        assert_eq!(
            game_command("zole", &["4", "rondo"], &games).map(|o| (o.seats, o.preset)),
            Some((Some(4), Some("rondo".into())))
        );
        let help = help_text(Lang::En);
        for line in [
            "/zole [3|4|5] [lv|lv-galdins|rondo|catsatcards|zolite] — Open a Zole table",
            "/polt [5|6|7] — Open a Polt table",
            "/bots [N] — Add N computer players",
            "/lang lv|en|ru · group lv|en|ru — Your language; group: the group's",
            "/season new — Start a new season (admins)",
        ] {
            assert!(help.lines().any(|l| l == line), "{line} not in:\n{help}");
        }
        // Every language names the same options.
        for lang in [Lang::Lv, Lang::Ru] {
            assert!(help_text(lang).contains("/zole [3|4|5] [lv|"), "{lang:?}");
        }
        // The command menu's descriptions carry them too.
        let menu = all_commands();
        let zole = &menu.iter().find(|(n, _)| n == "zole").unwrap().1;
        assert_eq!(
            zole[1],
            "Open a Zole table: /zole [3|4|5] [lv|lv-galdins|rondo|catsatcards|zolite]"
        );
    }

    #[test]
    fn command_names_are_valid_for_telegram() {
        let all = all_commands();
        let mut names: Vec<&String> = all.iter().map(|(n, _)| n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "a game is named like another command");
        for (name, d) in &all {
            assert!(name.len() <= 32 && name.chars().all(|c| c.is_ascii_lowercase()));
            assert!(d.iter().all(|s| !s.is_empty() && s.chars().count() <= 256));
        }
    }
}
