//! The bot's slash commands: their names, their descriptions in lv/en/ru (for setMyCommands
//! and /help), and the parsing of a message text into a command and its arguments. Nothing here
//! knows a rule; `lib.rs` maps a parsed command to a host `Command`.

use stikis_host::i18n::Lang;

/// Every command the bot answers, with its description in lv, en and ru.
pub const COMMANDS: &[(&str, [&str; 3])] = &[
    (
        "zole",
        [
            "Atvērt Zoles galdu (/zole [lv|ru|…])",
            "Open a Zole table (/zole [preset])",
            "Открыть стол Золе (/zole [пресет])",
        ],
    ),
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
    ("top", ["Labākie spēlētāji", "Leaderboard", "Таблица лидеров"]),
    ("stats", ["Mana statistika", "My statistics", "Моя статистика"]),
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
    COMMANDS
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
    fn command_names_are_valid_for_telegram() {
        for (name, d) in COMMANDS {
            assert!(name.len() <= 32 && name.chars().all(|c| c.is_ascii_lowercase()));
            assert!(d.iter().all(|s| !s.is_empty() && s.chars().count() <= 256));
        }
    }
}
