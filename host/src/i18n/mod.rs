//! Messages in Latvian, English and Russian through Fluent (`host/locales/{lv,en,ru}/*.ftl`:
//! `main.ftl`, a file per game family, `belote.ftl` and `polt.ftl`, and one per adapter,
//! `telegram.ftl` and `discord.ftl`; compiled into the binary by `fluent-templates`). This
//! module owns the `Lang` enum, the list of message keys the host uses, and `t`, the one lookup
//! every message goes through.
//!
//! Game words stay Latvian in Latvian and English, where they are the real names of the thing
//! (lielais, zole, mazā zole, pule, galdiņš), as players of Zole say them; English texts give
//! the English gloss beside them ("small zole (mazā zole)"). Russian says them in Russian, the
//! same word in every message (золе, малая золе, большой, галдиньш, пуля: `ru/main.ftl`), since
//! Latin words cannot take Russian endings.
//!
//! Counts are passed as numbers ([`Arg::Num`], [`Arg::Dec`]) and every message that shows one
//! picks its noun's form by Fluent's plural rules: en one/other, lv zero/one/other (1, 21, 31
//! take "one", 11 does not; 0, 10-20, 30 take "zero": 1 spēle, 2 spēles, 10 spēļu), ru
//! one/few/many (1 игра, 2 игры, 5 игр). A message about one game's deals says that game's word:
//! Polt's are hands (`$game` selects it), Zole's and Belote's deals.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{langid, LanguageIdentifier, Loader};

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // Chat clients render Unicode isolation marks as boxes or not at all; names are short.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// A language of the bot's messages; stored as its code (`lv`, `en`, `ru`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    Lv,
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::Lv, Lang::En, Lang::Ru];

    pub fn code(self) -> &'static str {
        match self {
            Lang::Lv => "lv",
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    fn id(self) -> LanguageIdentifier {
        match self {
            Lang::Lv => langid!("lv"),
            Lang::En => langid!("en"),
            Lang::Ru => langid!("ru"),
        }
    }

    /// The language for a client's language tag (`lv`, `ru-RU`, `en-GB`); None for others,
    /// so that the caller can fall back to the community's setting.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        primary.to_ascii_lowercase().parse().ok()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?} (lv, en or ru)")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lv" => Ok(Lang::Lv),
            "en" => Ok(Lang::En),
            "ru" => Ok(Lang::Ru),
            _ => Err(UnknownLang(s.to_string())),
        }
    }
}

/// A message argument: text (names, cards) or a number (points, seconds; Fluent picks plural
/// forms by it: a count must be passed as a number, never as its text, or every language gets
/// its `other` form, "1 games").
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    Str(Cow<'a, str>),
    Num(i64),
    /// A number that may have a fraction (a tournament's big points, 4.5).
    Dec(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Str(Cow::Borrowed(s))
    }
}
impl From<String> for Arg<'_> {
    fn from(s: String) -> Self {
        Arg::Str(Cow::Owned(s))
    }
}
impl From<i64> for Arg<'_> {
    fn from(n: i64) -> Self {
        Arg::Num(n)
    }
}
impl From<i32> for Arg<'_> {
    fn from(n: i32) -> Self {
        Arg::Num(n.into())
    }
}
impl From<u32> for Arg<'_> {
    fn from(n: u32) -> Self {
        Arg::Num(n.into())
    }
}
impl From<usize> for Arg<'_> {
    fn from(n: usize) -> Self {
        Arg::Num(n as i64)
    }
}
impl From<f64> for Arg<'_> {
    fn from(n: f64) -> Self {
        Arg::Dec(n)
    }
}
/// Big points as they are shown (to hundredths, `4.5`, `4.33`), as a number for plural forms.
impl From<stikis_core::tournament::BigPoints> for Arg<'_> {
    fn from(b: stikis_core::tournament::BigPoints) -> Self {
        Arg::Dec(b.to_string().parse().unwrap_or(0.0))
    }
}

/// The message `key` in `lang` with its arguments. A key missing from the files is a bug that
/// the tests catch; at run time it shows the key itself rather than failing a chat answer.
pub fn t(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    let id = lang.id();
    if args.is_empty() {
        return LOCALES.try_lookup(&id, key).unwrap_or_else(|| key.to_string());
    }
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(name, arg)| {
            let value = match arg {
                Arg::Str(s) => FluentValue::from(s.to_string()),
                Arg::Num(n) => FluentValue::from(*n),
                Arg::Dec(n) => FluentValue::from(*n),
            };
            (Cow::Owned(name.to_string()), value)
        })
        .collect();
    LOCALES
        .try_lookup_with_args(&id, key, &map)
        .unwrap_or_else(|| key.to_string())
}

/// Every message key the host uses; the tests check that each language defines exactly these
/// and the keys of the games' own files (`games::registry`'s `words`: a game added with a file
/// of its own need not be listed here).
pub const KEYS: &[&str] = &[
    // The web face (locales/*/web.ftl).
    "web-see-tournament",
    "web-tournaments",
    "web-tournament-title",
    "web-tournament-line",
    "web-status-registration",
    "web-status-on",
    "web-col-pules",
    "web-pules-common",
    "web-listed",
    "web-public-usage",
    "web-public-on",
    "web-public-off",
    "web-status-running",
    "web-status-paused",
    "web-status-finished",
    "web-status-cancelled",
    "web-standings",
    "web-no-standings",
    "web-col-big",
    "web-col-pm",
    "web-col-rounds",
    "web-entered",
    "web-seating",
    "web-table-n",
    "web-table-playing",
    "web-table-waiting",
    "web-table-closed",
    "web-refreshing",
    "web-player-rating",
    "web-player-stats",
    "web-rating-chart",
    "web-no-history",
    "web-recent",
    "web-dd",
    "web-dd-cost",
    "web-dd-summary",
    "web-col-lost",
    "web-col-mistakes",
    "web-dd-about",
    "web-dd-pending",
    "web-dd-none",
    "web-off",
    "web-link",
    "web-link-new",
    "web-see-boards",
    "web-see-game",
    "web-home",
    "web-not-found-title",
    "web-not-found",
    "web-bad-request-title",
    "web-bad-request",
    "play-title",
    "play-deal",
    "play-your-turn",
    "play-turn-of",
    "play-spectator",
    "play-last-trick",
    "play-trick",
    "play-result",
    "play-contract",
    "play-contract-open",
    "play-bids",
    "play-announced",
    "play-deal-ended",
    "play-table-message",
    "play-totals",
    "play-connecting",
    "play-lost",
    "play-over",
    "play-denied-title",
    "play-forged",
    "play-expired",
    "play-not-yours",
    "play-bad-request",
    "play-link",
    "play-link-watch",
    "play-link-off",
    "play-link-closed-chat",
    "play-open",
    "play-platform-unavailable",
    "activity-choose",
    "activity-no-table",
    "web-unavailable",
    "web-boards",
    "web-period-day",
    "web-period-week",
    "web-period-month",
    "web-period-season",
    "web-period-all",
    "web-points",
    "web-ratings",
    "web-col-player",
    "web-col-points",
    "web-col-deals",
    "web-col-rating",
    "web-col-games",
    "web-no-boards",
    "web-games",
    "web-no-games",
    "web-game-line",
    "web-deal",
    "web-dealer",
    "web-prev",
    "web-next",
    "web-keys",
    "web-step-dealt",
    "web-act-play",
    "web-act-bid",
    "web-act-other",
    "web-contract-tie",
    "web-contract-redeal",
    "web-surrendered",
    "web-act-bury",
    "web-act-surrender",
    "web-act-give",
    "web-act-return",
    "web-act-trump",
    "web-talon",
    "web-talon-taken",
    "web-buried",
    "web-turned",
    "web-sits-out",
    "web-told",
    "web-trick-won",
    "web-trumps",
    "web-seed",
    "web-commitment",
    "web-checked",
    "web-check-failed",
    "web-replay",
    "web-download",
    "web-score",
    "web-contract",
    "web-declarer",
    "web-totals",
    "web-no-deals",
    "store-unavailable",
    "press-try-again",
    "press-unsure",
    "press-stood-later",
    "press-lost-later",
    "tournament-format-turn",
    "settings-computer-names",
    "settings-computer-names-off",
    "top-rating-title",
    "top-rating-line",
    "top-period-day",
    "top-period-week",
    "top-period-month",
    "top-period-season",
    "top-period-all",
    "top-hint",
    "top-none-period",
    "top-no-season",
    "top-usage",
    "stats-rating",
    "season-started",
    "tournament-format-deals",
    "tournament-format-minutes",
    "tournament-registration",
    "tournament-title",
    "tournament-state-round",
    "tournament-state-paused",
    "tournament-state-finished",
    "tournament-state-cancelled",
    "tournament-commitment",
    "tournament-entered",
    "tournament-nobody",
    "tournament-created",
    "tournament-joined",
    "tournament-late",
    "tournament-already-in",
    "tournament-name-taken",
    "tournament-left",
    "tournament-left-mid-round",
    "tournament-not-in",
    "tournament-too-few",
    "tournament-exists",
    "tournament-none",
    "tournament-over",
    "tournament-no-computers",
    "tournament-admin-only",
    "tournament-started",
    "tournament-round",
    "tournament-table-line",
    "tournament-your-seat",
    "tournament-table-label",
    "tournament-table-done",
    "tournament-standings",
    "tournament-standings-none",
    "tournament-standing-line",
    "tournament-withdrawn",
    "tournament-paused",
    "tournament-resumed",
    "tournament-not-paused",
    "tournament-cancelled",
    "tournament-finished",
    "tournament-no-round",
    "tournament-running",
    "tournament-bad-options",
    "button-pause",
    "button-resume",
    "button-cancel",
    "zole-last-trick-won",
    "zole-galdins-lost",
    "zole-galdins-nobody",
    "zole-galdins-why-tricks",
    "zole-galdins-why-points",
    "zole-declarer-won",
    "zole-declarer-lost",
    "zole-small-won",
    "zole-small-lost",
    "zole-talon-picked-up",
    "zole-buried-by",
    "zole-talon-untouched",
    "zole-deal-points",
    "zole-score-why",
    "zole-pule-bonus",
    "zole-pule-own-removed",
    "zole-pule-personal-paid",
    "zole-pule-personal-written",
    "zole-tree-paid",
    "belote-bid-refused",
    "belote-bid-rule-not-this-game",
    "belote-bid-rule-nothing-to-double",
    "belote-bid-rule-already-doubled",
    "belote-bid-rule-double-by-opponents-only",
    "belote-bid-rule-redouble-needs-double",
    "belote-bid-rule-redouble-by-bidders-only",
    "belote-bid-rule-no-all-trumps-in-bazar",
    "belote-bid-rule-capot-above-2-5",
    "belote-bid-rule-coinche-above-1-6-0",
    "belote-bid-rule-no-bid-after-double",
    "belote-bid-rule-below-minimum",
    "belote-bid-rule-above-maximum",
    "belote-bid-rule-not-higher",
    "belote-bid-rule-capot-only",
    "belote-bid-rule-take-in-first-round",
    "belote-bid-rule-name-in-second-round",
    "game-name-zole",
    "game-name-polt",
    // Each game command's description (the games' registry names them).
    "game-command-zole",
    "game-command-belote",
    "game-command-coinche",
    "game-command-polt",
    "computer-name",
    "lobby-started",
    "table-running",
    "refusal-over",
    "refusal-bidding-on",
    "refusal-play-on",
    "refusal-bury-first",
    "refusal-not-now",
    "refusal-not-held",
    "refusal-must-follow",
    "refusal-must-beat",
    "refusal-must-trump",
    "refusal-bid",
    "refusal-bury",
    "refusal-surrender",
    "refusal-must-return",
    "lang-name",
    "table-created",
    "table-exists",
    "table-joined",
    "table-left",
    "table-seat-full",
    "table-full",
    "table-full-add-seat",
    "table-full-later",
    "lobby-other-sizes",
    "table-already-seated",
    "table-not-seated",
    "table-bot-added",
    "table-bot-removed",
    "table-started",
    "table-stopped",
    "table-finished",
    "table-not-allowed",
    "admin-check-failed",
    "table-none",
    "sheet-closed",
    "sheet-none",
    "sheet-table-open",
    "table-waiting",
    "turn-yours",
    "turn-not-yours",
    "turn-warning",
    "turn-timeout",
    "turn-away",
    "button-back",
    "button-stale",
    "button-bad",
    "button-join",
    "button-leave",
    "button-start",
    "button-add-bot",
    "button-add-seat",
    "not-at-table",
    "deal-started",
    "deal-commitment",
    "deal-seed",
    "top-line",
    "top-none",
    "stats-line",
    "stats-pules",
    "stats-none",
    "record-carried-pules",
    "deal-result-header",
    "deal-declarer",
    "deal-all-passed",
    "deal-points",
    "deal-tricks",
    "deal-totals",
    "contract-take",
    "contract-zole",
    "contract-small-zole",
    "contract-galdins",
    "contract-pule",
    "word-lielais",
    "word-pule",
    "word-pules",
    "word-galdins",
    "pule-written",
    "pule-removed",
    "pules-open",
    "settings-turn-limit",
    "settings-turn-limit-off",
    "settings-auto-start",
    "settings-lang",
    "zole-title",
    "zole-sitting-out",
    "zole-bids",
    "zole-contract",
    "zole-trick",
    "zole-last-trick",
    "zole-tricks-taken",
    "zole-turn",
    "zole-hand",
    "zole-buried",
    "zole-you-sit-out",
    "zole-bury-pick",
    "zole-bury-picked",
    "zole-surrendered",
    "zole-tie",
    "zole-seat-result",
    "zole-talon",
    "zole-pules",
    "zole-tree",
    "button-pass",
    "button-take",
    "button-zole",
    "button-small-zole",
    "button-surrender",
    // The Belote family (locales/*/belote.ftl).
    "belote-name-belote-bazar",
    "belote-name-belote-classic",
    "belote-name-belote-h2h",
    "belote-name-coinche",
    "belote-title",
    "belote-teams",
    "belote-turned",
    "belote-bids",
    "belote-contract",
    "belote-announced",
    "belote-trick",
    "belote-last-trick",
    "belote-tricks-taken",
    "belote-score",
    "belote-turn",
    "belote-hand",
    "belote-pick-level",
    "belote-pick-level-tens",
    "belote-pick-trump",
    "belote-level-closed",
    "belote-pass",
    "belote-take",
    "belote-contra",
    "belote-recontra",
    "belote-coinche",
    "belote-surcoinche",
    "belote-capot",
    "belote-no-trumps",
    "belote-all-trumps",
    "belote-tierce",
    "belote-fifty",
    "belote-hundred",
    "belote-four",
    "belote-belote",
    "belote-rebelote",
    "belote-redeal",
    "belote-made",
    "belote-rebelote-held",
    "belote-deal-scores",
    "belote-failed",
    "belote-capot-taken",
    "belote-team-result",
    "belote-winner",
    // Polt to Tzar (locales/*/polt.ftl).
    "polt-tzar",
    "polt-president",
    "polt-upper-class",
    "polt-middle-class",
    "polt-lower-class",
    "polt-polt",
    "polt-title",
    "polt-exchanging",
    "polt-exchanged",
    "polt-trump",
    "polt-trick",
    "polt-last-trick",
    "polt-tricks-taken",
    "polt-turn",
    "polt-your-rank",
    "polt-hand",
    "polt-you-gave",
    "polt-you-received",
    "polt-you-returned",
    "polt-you-got-back",
    "polt-give-one",
    "polt-return-suit",
    "polt-return-joker",
    "polt-name-trump",
    "polt-button-trump",
    "polt-new-ranks",
    "polt-total-tricks",
    "polt-final",
    "polt-over",
    // The Discord bot's own messages (locales/*/discord.ftl).
    "discord-dm-closed",
    "discord-hand-turn",
    "discord-settings-help",
    "discord-rules",
    "discord-help",
    // The Telegram bot's own messages (telegram.ftl).
    "telegram-chat-closed",
    "telegram-choice-none",
    "telegram-usage-lang",
    "telegram-usage-settings",
    "telegram-hands-group",
    "telegram-hands-private",
    "telegram-usage-hands",
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The message ids a Fluent file defines: lines that start a message (`key =`), not
    /// attributes, comments or continuation lines.
    fn keys_of(ftl: &str) -> BTreeSet<String> {
        ftl.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim().to_string()))
            .collect()
    }

    /// Every `.ftl` file of a language's folder (fluent-templates loads them all as one
    /// bundle), in name order, joined.
    fn file(lang: Lang) -> String {
        let dir = format!("{}/locales/{}", env!("CARGO_MANIFEST_DIR"), lang.code());
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
            .collect();
        paths.sort();
        assert!(paths.len() >= 4, "{dir}: main, belote, polt and discord messages");
        paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The keys of the games' own files (`locales/en/<words>.ftl` of every registered game
    /// that has one), which need not be listed in `KEYS`.
    fn game_keys() -> BTreeSet<String> {
        let dir = format!("{}/locales/en", env!("CARGO_MANIFEST_DIR"));
        crate::games::HOSTED
            .iter()
            .filter_map(|g| g.words)
            .flat_map(|stem| {
                let path = format!("{dir}/{stem}.ftl");
                keys_of(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
            })
            .collect()
    }

    /// Every key a language must define: `KEYS` and the games' own keys.
    fn all_keys() -> BTreeSet<String> {
        let mut all: BTreeSet<String> = KEYS.iter().map(|k| k.to_string()).collect();
        all.extend(game_keys());
        all
    }

    #[test]
    fn every_key_exists_in_every_language_and_no_other() {
        let listed: BTreeSet<String> = KEYS.iter().map(|k| k.to_string()).collect();
        assert_eq!(listed.len(), KEYS.len(), "KEYS lists a key twice");
        let want = all_keys();
        for lang in Lang::ALL {
            let have = keys_of(&file(lang));
            let missing: Vec<_> = want.difference(&have).collect();
            let extra: Vec<_> = have.difference(&want).collect();
            assert!(missing.is_empty(), "{lang}: missing {missing:?}");
            assert!(extra.is_empty(), "{lang}: not in KEYS {extra:?}");
        }
    }

    #[test]
    fn every_file_parses_and_every_message_formats() {
        for lang in Lang::ALL {
            let src = file(lang);
            if let Err((_, errors)) = fluent_templates::fluent_bundle::FluentResource::try_new(src.clone()) {
                panic!("{lang}: {errors:?}");
            }
            // Every message resolves in its own language with typical arguments, and no
            // placeholder is left unfilled (Fluent writes `{$name}` for a missing argument).
            // A game's own messages may take arguments of their own: each gets a number.
            let mut game_args = sample_args();
            for var in src.split('$').skip(1) {
                let var: String = var
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                if !var.is_empty() && game_args.iter().all(|(n, _)| *n != var) {
                    game_args.push((Box::leak(var.into_boxed_str()), 2i64.into()));
                }
            }
            for key in all_keys() {
                let args = if KEYS.contains(&key.as_str()) {
                    sample_args()
                } else {
                    game_args.clone()
                };
                let text = t(lang, &key, &args);
                assert!(!text.is_empty() && text != key, "{lang} {key}");
                assert!(!text.contains("{$"), "{lang} {key}: {text}");
            }
        }
    }

    fn sample_args() -> Vec<(&'static str, Arg<'static>)> {
        vec![
            ("name", "Anna".into()),
            ("user", "Anna".into()),
            ("game", "zole".into()),
            ("seat", 2i64.into()),
            ("count", 3i64.into()),
            ("seats", 3i64.into()),
            ("seconds", 30i64.into()),
            ("round", 2i64.into()),
            ("rating", 1034i64.into()),
            ("change", "+12".into()),
            ("prev", 1i64.into()),
            ("rounds", 3i64.into()),
            ("table", 1i64.into()),
            ("format", "24 deals per table a round".into()),
            ("minutes", 45i64.into()),
            ("big", 4.5f64.into()),
            ("pm", "+12".into()),
            ("played", 2i64.into()),
            ("deal", 4i64.into()),
            ("points", 61i64.into()),
            ("tricks", 5i64.into()),
            ("commitment", "ab12".into()),
            ("seed", "cd34".into()),
            ("contract", "zole".into()),
            ("url", "https://cards.example.org/c/0123/".into()),
            ("date", "2026-11-26".into()),
            ("time", "18:05".into()),
            ("listed", "Rīgas zoles klubs".into()),
            ("players", "Anna, Bruno".into()),
            ("reason", "deal 1, action 3: not your turn".into()),
            ("what", "take".into()),
            ("totals", "Anna 2, Bruno -1".into()),
            ("lang", "latviešu".into()),
            ("value", "on".into()),
            ("dealer", "Bruno".into()),
            ("names", "Cilda".into()),
            ("bids", "Anna garām".into()),
            ("n", 3i64.into()),
            ("cards", "Q♣ 10♦".into()),
            ("list", "Anna 2 · Bruno 3".into()),
            ("common", 1i64.into()),
            ("personal", "Anna".into()),
            ("branches", 2i64.into()),
            ("tree", 1i64.into()),
            ("rank", 1i64.into()),
            ("games", 3i64.into()),
            ("deals", 12i64.into()),
            ("wins", 2i64.into()),
            ("written", 1i64.into()),
            ("removed", 0i64.into()),
            ("first", "Anna & Cilda".into()),
            ("second", "Bruno & Dāvis".into()),
            ("card", "J♥".into()),
            ("target", 501i64.into()),
            ("level", "9".into()),
            ("suit", "♥".into()),
            ("rank", "J".into()),
            ("combinations", 20i64.into()),
            ("score", 16i64.into()),
            ("giver", "Anna".into()),
            ("receiver", "Bruno".into()),
            ("ranks", "Tzar: Anna".into()),
            ("hands", 10i64.into()),
            ("bot", "stikis_bot".into()),
            ("why", "bids start at 80 points".into()),
            ("band", "jani-lost".into()),
            ("limit", 30i64.into()),
            ("won", "no".into()),
            ("unit", 3i64.into()),
            ("owner", "Bruno".into()),
        ]
    }

    #[test]
    fn languages_really_differ_and_game_words_are_said_one_way_in_each() {
        let started = |l| t(l, "table-started", &[("game", "zole".into())]);
        assert_ne!(started(Lang::Lv), started(Lang::En));
        assert_ne!(started(Lang::En), started(Lang::Ru));
        for lang in [Lang::Lv, Lang::En] {
            assert_eq!(t(lang, "word-pule", &[]), "pule", "{lang}");
            assert_eq!(t(lang, "word-galdins", &[]), "galdiņš", "{lang}");
            assert_eq!(t(lang, "word-lielais", &[]), "lielais", "{lang}");
            // The Latvian name is kept; English adds its gloss.
            let small = t(lang, "contract-small-zole", &[]);
            assert!(small.contains("mazā zole"), "{lang}: {small}");
        }
        assert_eq!(t(Lang::En, "contract-small-zole", &[]), "small zole (mazā zole)");
        assert_eq!(t(Lang::En, "contract-take", &[]), "take (lielais)");
        // Russian says each game word in Russian, the same way in the contract, the bid
        // button and every other message.
        assert_eq!(t(Lang::Ru, "contract-take", &[]), "большой");
        assert_eq!(t(Lang::Ru, "button-take", &[]), "Беру (большой)");
        assert_eq!(t(Lang::Ru, "zole-surrendered", &[]), "Большой сдался.");
        assert_eq!(t(Lang::Ru, "contract-small-zole", &[]), "малая золе");
        assert_eq!(t(Lang::Ru, "button-small-zole", &[]), "Малая золе");
        assert_eq!(t(Lang::Ru, "contract-zole", &[]), "золе");
        assert_eq!(t(Lang::Ru, "word-pule", &[]), "пуля");
        // What the Russian messages say (not their keys or comments).
        let ru = file(Lang::Ru);
        let said: Vec<String> = ru
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| match l.split_once(" = ") {
                Some((key, value)) if !key.starts_with(' ') => value,
                _ => l,
            })
            .map(|l| l.to_lowercase())
            .collect();
        for latin in ["lielais", "mazā", "galdiņ", "pule", "лиелайс"] {
            let at: Vec<&String> = said.iter().filter(|l| l.contains(latin)).collect();
            assert!(at.is_empty(), "ru says {latin:?}: {at:?}");
        }
        // "zole" only as the name of a command (/zole).
        let zole: Vec<&String> = said
            .iter()
            .filter(|l| l.replace("/zole", "").contains("zole"))
            .collect();
        assert!(zole.is_empty(), "ru says zole: {zole:?}");
    }

    #[test]
    fn arguments_are_filled_and_plurals_follow_the_number() {
        let en = t(
            Lang::En,
            "table-joined",
            &[("name", "Bruno".into()), ("seat", 2i64.into())],
        );
        assert!(en.contains("Bruno") && en.contains('2'), "{en}");
        let warn = |lang, n: i64| {
            t(
                lang,
                "turn-warning",
                &[("name", "Anna".into()), ("seconds", n.into())],
            )
        };
        let one = warn(Lang::En, 1);
        let many = warn(Lang::En, 30);
        assert!(one.contains("1 second") && !one.contains("seconds"), "{one}");
        assert!(many.contains("30 seconds"), "{many}");
        // Russian has three plural forms: 1 секунда, 3 секунды, 30 секунд.
        let ru = |n: i64| warn(Lang::Ru, n);
        assert!(ru(1).contains("1 секунда"), "{}", ru(1));
        assert!(ru(3).contains("3 секунды"), "{}", ru(3));
        assert!(ru(30).contains("30 секунд"), "{}", ru(30));
        // Latvian: 1 sekunde, 21 sekunde, 5 sekundes, 30 sekunžu.
        let lv = |n: i64| warn(Lang::Lv, n);
        assert!(lv(21).contains("21 sekunde."), "{}", lv(21));
        assert!(lv(5).contains("5 sekundes"), "{}", lv(5));
        assert!(lv(30).contains("30 sekunžu"), "{}", lv(30));
    }

    /// The noun after a count, for 1, 2, 5, 11 and 21, by each language's plural rules:
    /// English one/other; Latvian one (1, 21, not 11), zero (11, 10-20, tens) and other;
    /// Russian one (1, 21), few (2) and many (5, 11).
    #[test]
    fn counts_take_the_plural_form_of_each_language() {
        let ns = [1i64, 2, 5, 11, 21];
        let games = |lang, n: i64| {
            t(
                lang,
                "top-rating-line",
                &[
                    ("rank", 1i64.into()),
                    ("name", "Anna".into()),
                    ("rating", 1034i64.into()),
                    ("games", n.into()),
                ],
            )
        };
        let want: [(Lang, [&str; 5]); 3] = [
            (
                Lang::En,
                ["one game", "2 games", "5 games", "11 games", "21 games"],
            ),
            (
                Lang::Lv,
                ["1 spēle", "2 spēles", "5 spēles", "11 spēļu", "21 spēle"],
            ),
            (Lang::Ru, ["1 игра", "2 игры", "5 игр", "11 игр", "21 игра"]),
        ];
        for (lang, counts) in want {
            for (n, count) in ns.iter().zip(counts) {
                assert_eq!(games(lang, *n), format!("1. Anna 1034 ({count})"), "{lang}");
            }
        }
        // A player's counts on /stats: points, games, deals and wins in one line.
        let stats = |lang, n: i64| {
            t(
                lang,
                "stats-line",
                &[
                    ("game", "Zole".into()),
                    ("points", n.into()),
                    ("games", n.into()),
                    ("deals", n.into()),
                    ("wins", n.into()),
                ],
            )
        };
        let want: [(Lang, [&str; 5]); 3] = [
            (
                Lang::En,
                [
                    "Zole: 1 point, 1 game, 1 deal, 1 won as declarer",
                    "Zole: 2 points, 2 games, 2 deals, 2 won as declarer",
                    "Zole: 5 points, 5 games, 5 deals, 5 won as declarer",
                    "Zole: 11 points, 11 games, 11 deals, 11 won as declarer",
                    "Zole: 21 points, 21 games, 21 deals, 21 won as declarer",
                ],
            ),
            (
                Lang::Lv,
                [
                    "Zole: 1 punkts, 1 spēle, 1 dalījums, 1 uzvara kā lielajam",
                    "Zole: 2 punkti, 2 spēles, 2 dalījumi, 2 uzvaras kā lielajam",
                    "Zole: 5 punkti, 5 spēles, 5 dalījumi, 5 uzvaras kā lielajam",
                    "Zole: 11 punktu, 11 spēļu, 11 dalījumu, 11 uzvaru kā lielajam",
                    "Zole: 21 punkts, 21 spēle, 21 dalījums, 21 uzvara kā lielajam",
                ],
            ),
            (
                Lang::Ru,
                [
                    "Zole: 1 очко, 1 игра, 1 раздача, 1 победа за большого",
                    "Zole: 2 очка, 2 игры, 2 раздачи, 2 победы за большого",
                    "Zole: 5 очков, 5 игр, 5 раздач, 5 побед за большого",
                    "Zole: 11 очков, 11 игр, 11 раздач, 11 побед за большого",
                    "Zole: 21 очко, 21 игра, 21 раздача, 21 победа за большого",
                ],
            ),
        ];
        for (lang, lines) in want {
            for (n, line) in ns.iter().zip(lines) {
                assert_eq!(stats(lang, *n), line, "{lang} {n}");
            }
        }
        // A seat's result after a Zole deal: card points and tricks.
        let seat = |lang, n: i64| {
            t(
                lang,
                "zole-seat-result",
                &[
                    ("name", "Anna".into()),
                    ("points", n.into()),
                    ("tricks", n.into()),
                ],
            )
        };
        assert_eq!(seat(Lang::En, 1), "Anna: 1 card point, 1 trick");
        assert_eq!(seat(Lang::En, 21), "Anna: 21 card points, 21 tricks");
        assert_eq!(seat(Lang::Lv, 1), "Anna: 1 acs, 1 stiķis");
        assert_eq!(seat(Lang::Lv, 2), "Anna: 2 acis, 2 stiķi");
        assert_eq!(seat(Lang::Lv, 11), "Anna: 11 acu, 11 stiķu");
        assert_eq!(seat(Lang::Lv, 21), "Anna: 21 acs, 21 stiķis");
        assert_eq!(seat(Lang::Ru, 1), "Anna: 1 очко, 1 взятка");
        assert_eq!(seat(Lang::Ru, 2), "Anna: 2 очка, 2 взятки");
        assert_eq!(seat(Lang::Ru, 5), "Anna: 5 очков, 5 взяток");
        assert_eq!(seat(Lang::Ru, 21), "Anna: 21 очко, 21 взятка");
        // Big points are fractions at times: a whole one is "one", 4.5 is not.
        let big = |lang, b: u32| {
            t(
                lang,
                "tournament-standing-line",
                &[
                    ("rank", 1i64.into()),
                    ("name", "Anna".into()),
                    ("big", stikis_core::tournament::BigPoints(b).into()),
                    ("pm", "+12".into()),
                    ("played", 1i64.into()),
                ],
            )
        };
        assert_eq!(
            big(Lang::En, 60),
            "1. Anna: 1 big point, +12 game points, 1 round"
        );
        assert_eq!(
            big(Lang::En, 270),
            "1. Anna: 4.5 big points, +12 game points, 1 round"
        );
        assert_eq!(
            big(Lang::Lv, 60),
            "1. Anna: 1 lielais punkts, +12 spēles punkti, 1 kārta"
        );
        assert_eq!(
            big(Lang::Lv, 270),
            "1. Anna: 4.5 lielie punkti, +12 spēles punkti, 1 kārta"
        );
        assert_eq!(
            big(Lang::Ru, 60),
            "1. Anna: 1 большое очко, игровых очков +12, 1 тур"
        );
        assert_eq!(
            big(Lang::Ru, 260),
            "1. Anna: 4.33 больших очка, игровых очков +12, 1 тур"
        );
    }

    /// Polt's deals are hands in every message about them; Zole's and Belote's are deals.
    #[test]
    fn each_game_says_its_own_word_for_a_deal() {
        let header = |lang, game: &str| {
            t(
                lang,
                "deal-result-header",
                &[("game", game.into()), ("deal", 3i64.into())],
            )
        };
        let started = |lang, game: &str| {
            t(
                lang,
                "deal-started",
                &[("game", game.into()), ("deal", 3i64.into())],
            )
        };
        assert_eq!(header(Lang::En, "polt"), "Result of hand 3");
        assert_eq!(started(Lang::En, "polt"), "Hand 3 begins.");
        assert!(t(
            Lang::En,
            "polt-title",
            &[("deal", 3i64.into()), ("hands", 10i64.into())]
        )
        .contains("hand 3 of 10"));
        for game in ["zole", "belote-bazar", "coinche"] {
            assert_eq!(header(Lang::En, game), "Result of deal 3");
            assert_eq!(started(Lang::En, game), "Deal 3 begins.");
            assert_eq!(header(Lang::Lv, game), "3. dalījuma rezultāts");
        }
        assert_eq!(header(Lang::Lv, "polt"), "3. partijas rezultāts");
        assert_eq!(started(Lang::Lv, "polt"), "Sākas 3. partija.");
        assert!(t(
            Lang::Lv,
            "polt-title",
            &[("deal", 3i64.into()), ("hands", 10i64.into())]
        )
        .contains("3. partija"));
        let belote = t(
            Lang::Lv,
            "belote-title",
            &[
                ("game", "Coinche".into()),
                ("deal", 3i64.into()),
                ("dealer", "Anna".into()),
            ],
        );
        assert!(belote.contains("3. dalījums"), "{belote}");
        assert_eq!(header(Lang::Ru, "polt"), "Итог раздачи 3");
        assert!(t(
            Lang::Ru,
            "polt-title",
            &[("deal", 3i64.into()), ("hands", 10i64.into())]
        )
        .contains("раздача 3"));
        // The seed line is the chat's: no terminal in it.
        for lang in Lang::ALL {
            let seed = t(lang, "deal-seed", &[("seed", "cd34".into())]);
            for word in ["terminal", "termināl", "термин", " r "] {
                assert!(!seed.contains(word), "{lang}: {seed}");
            }
            assert!(seed.contains("/record"), "{lang}: {seed}");
            // The seed is shown short, ending in "…": no full stop right after it.
            let short = t(lang, "deal-seed", &[("seed", "0f56…".into())]);
            assert!(!short.contains("….") && !short.contains("…,"), "{lang}: {short}");
            // So are the commitments, a deal's and a tournament's draw's.
            for key in ["deal-commitment", "tournament-commitment"] {
                let short = t(lang, key, &[("commitment", "0f56…".into())]);
                assert!(short.ends_with("0f56…"), "{lang}: {short}");
            }
        }
    }

    #[test]
    fn unknown_keys_show_the_key_and_codes_round_trip() {
        assert_eq!(t(Lang::Lv, "no-such-key", &[]), "no-such-key");
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
        }
        assert_eq!(Lang::from_tag("ru-RU"), Some(Lang::Ru));
        assert_eq!(Lang::from_tag("LV"), Some(Lang::Lv));
        assert_eq!(Lang::from_tag("de"), None);
        assert!("xx".parse::<Lang>().is_err());
    }
}
