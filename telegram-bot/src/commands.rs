//! The bot's slash commands: their names, their descriptions in lv/en/ru (for setMyCommands
//! and /help), and the parsing of a message text into a command and its arguments. Nothing here
//! knows a rule; `lib.rs` maps a parsed command to a host `Command`.
//!
//! Game commands come from the host's `games::GAMES`: a game `family-variant` (`belote-bazar`)
//! is opened by `/family [variant] [preset] [seats]`, the family's first variant by default,
//! so a game the host learns gets its command without a change here.

use stikis_host::i18n::Lang;

/// Descriptions of the game commands the bot knows words for; a family without one here is
/// still opened by its command, described by its name.
const GAME_WORDS: &[(&str, [&str; 3])] = &[
    (
        "zole",
        [
            "Atvērt Zoles galdu (/zole [lv|ru|…])",
            "Open a Zole table (/zole [preset])",
            "Открыть стол Золе (/zole [пресет])",
        ],
    ),
    (
        "belote",
        [
            "Atvērt Belotes galdu (/belote [bazar|classic|h2h])",
            "Open a Belote table (/belote [bazar|classic|h2h])",
            "Открыть стол Белот (/belote [bazar|classic|h2h])",
        ],
    ),
    (
        "coinche",
        [
            "Atvērt Kuanšas galdu",
            "Open a Coinche table",
            "Открыть стол Куанш",
        ],
    ),
    (
        "polt",
        [
            "Atvērt Polta galdu (/polt [spēlētāji])",
            "Open a Polt table (/polt [players])",
            "Открыть стол Польт (/polt [игроки])",
        ],
    ),
];

/// The command of a game: its name up to the first `-`.
pub fn family(game: &str) -> &str {
    game.split('-').next().unwrap_or(game)
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
    let mut out: Vec<(String, [String; 3])> = Vec::new();
    for g in games {
        let f = family(g);
        if out.iter().any(|(n, _)| n == f) {
            continue;
        }
        let words = GAME_WORDS
            .iter()
            .find(|(n, _)| *n == f)
            .map(|(_, d)| d.map(str::to_string))
            .unwrap_or_else(|| [f.to_string(), f.to_string(), f.to_string()]);
        out.push((f.to_string(), words));
    }
    out
}

/// Every command the bot answers for the host's games, with its description in lv, en, ru.
pub fn all_commands() -> Vec<(String, [String; 3])> {
    let mut all = game_commands(&stikis_host::games::GAMES);
    all.extend(
        COMMANDS
            .iter()
            .map(|(n, d)| (n.to_string(), d.map(str::to_string))),
    );
    all
}

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
            "Zoles turnīrs: /tournament [kārtas] [partijas]",
            "Zole tournament: /tournament [rounds] [deals]",
            "Турнир по золе: /tournament [туры] [раздачи]",
        ],
    ),
    (
        "top",
        [
            "Reitingi; /top day|week|month|season|all: punkti",
            "Ratings; /top day|week|month|season|all: points",
            "Рейтинги; /top day|week|month|season|all: очки",
        ],
    ),
    (
        "season",
        [
            "/season new: sākt jaunu sezonu (administratoriem)",
            "/season new: start a new season (admins)",
            "/season new: начать новый сезон (админам)",
        ],
    ),
    ("stats", ["Mana statistika", "My statistics", "Моя статистика"]),
    (
        "web",
        [
            "Saite uz kopienas lapām (/web new: jauna saite; /web public <nosaukums>, /web private)",
            "Link to the community's pages (/web new: a new link; /web public <name>, /web private)",
            "Ссылка на страницы сообщества (/web new: новая ссылка; /web public <название>, /web private)",
        ],
    ),
    (
        "lang",
        [
            "Valoda: /lang lv|en|ru",
            "Language: /lang lv|en|ru",
            "Язык: /lang lv|en|ru",
        ],
    ),
    (
        "settings",
        [
            "Iestatījumi: /settings turn N|off, auto on|off",
            "Settings: /settings turn N|off, auto on|off",
            "Настройки: /settings turn N|off, auto on|off",
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

/// The /help text in one language.
pub fn help_text(lang: Lang) -> String {
    let i = lang_index(lang);
    all_commands()
        .iter()
        .map(|(name, d)| format!("/{name} — {}", d[i]))
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
        let games = [
            "zole",
            "belote-bazar",
            "belote-classic",
            "belote-h2h",
            "coinche",
            "polt",
        ];
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
