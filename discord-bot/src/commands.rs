//! The slash commands (global, English with Russian localizations; the bot's own texts go
//! through the host's Fluent files in the person's or server's language). Each builds one or
//! more host requests, answers within the time Discord allows (deferring when the host is
//! slow) and shows the outbox; the reply is ephemeral, records are attached publicly. The game
//! commands are registered for the games the host offers (`stikis_host::games::GAMES`).

use poise::serenity_prelude as serenity;
use poise::CreateReply;
use serde_json::Value;
use serenity::{ChannelType, CreateAttachment, CreateThread};
use stikis_host::games::registry::HostGame;
use stikis_host::games::{GAMES, HOSTED};
use stikis_host::i18n::{t, Lang};
use stikis_host::{Command, Out, Outbox, Request};

use crate::{chat_ref, host_user, Ctx, Data, Error};

type BotCommand = poise::Command<Data, Error>;
/// A game command and the host games it opens.
type GameCommand = (fn() -> BotCommand, &'static [&'static str]);

/// The game commands with options of their own; every other game of the host's registry gets
/// the generic one (`game_command`).
const TYPED: [GameCommand; 4] = [
    (zole, &["zole"]),
    (belote, &["belote-bazar", "belote-classic", "belote-h2h"]),
    (coinche, &["coinche"]),
    (polt, &["polt"]),
];

pub fn all() -> Vec<BotCommand> {
    // A game command is offered once the host hosts one of its games.
    let mut all: Vec<_> = TYPED
        .into_iter()
        .filter(|(_, names)| names.iter().any(|g| GAMES.contains(g)))
        .map(|(command, _)| command())
        .collect();
    // A game of the registry without a command of its own: the generic one, named by it.
    let mut generic: Vec<&str> = Vec::new();
    for g in HOSTED {
        let typed = TYPED.iter().any(|(_, names)| names.contains(&g.info.id));
        if !typed && !generic.contains(&g.info.command) {
            generic.push(g.info.command);
        }
    }
    all.extend(generic.into_iter().map(game_command));
    all.extend([
        top(),
        season(),
        web(),
        stats(),
        lang(),
        record(),
        play(),
        tournament(),
        settings(),
        stop(),
        rules(),
        help(),
    ]);
    all
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Preset {
    #[name = "lv"]
    Lv,
    #[name = "lv-galdins"]
    LvGaldins,
    #[name = "rondo"]
    Rondo,
    #[name = "catsatcards"]
    Catsatcards,
    #[name = "zolite"]
    Zolite,
}

impl Preset {
    fn code(self) -> &'static str {
        match self {
            Preset::Lv => "lv",
            Preset::LvGaldins => "lv-galdins",
            Preset::Rondo => "rondo",
            Preset::Catsatcards => "catsatcards",
            Preset::Zolite => "zolite",
        }
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LangChoice {
    #[name = "latviešu"]
    Lv,
    #[name = "English"]
    En,
    #[name = "русский"]
    Ru,
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Scope {
    #[name = "me"]
    #[name_localized("ru", "я")]
    Me,
    #[name = "server"]
    #[name_localized("ru", "сервер")]
    Server,
}

/// The requests' common part.
async fn request(ctx: &Ctx<'_>, command: Command) -> Request {
    let member = ctx.author_member().await;
    Request {
        chat: chat_ref(ctx.guild_id(), ctx.channel_id()),
        user: host_user(ctx.author(), member.as_deref()),
        command,
    }
}

/// Runs requests in order, deferring if they take long, shows their outboxes and answers
/// with their replies (and files).
async fn run(ctx: Ctx<'_>, reqs: Vec<Request>) -> Result<(), Error> {
    let bot = ctx.data().clone();
    let _busy = bot.busy();
    let mut replies = Vec::new();
    let mut files = Vec::new();
    for req in reqs {
        let out = crate::handle_in_time(&bot, req, || async {
            let _ = ctx.defer_ephemeral().await;
        })
        .await;
        let mut rest = Outbox::default();
        for o in out.0 {
            match o {
                Out::Reply { text } | Out::Personal { text, .. } => replies.push(text),
                Out::File { name, content, .. } => files.push((name, content)),
                other => rest.push(other),
            }
        }
        bot.show.show(&rest).await;
    }
    let text = if replies.is_empty() {
        "✓".to_string()
    } else {
        replies.join("\n")
    };
    if files.is_empty() {
        ctx.send(CreateReply::default().content(text).ephemeral(true))
            .await?;
    } else {
        let mut reply = CreateReply::default();
        for (name, content) in files {
            reply = reply.attachment(CreateAttachment::bytes(content.into_bytes(), name));
        }
        ctx.send(reply).await?;
    }
    Ok(())
}

/// Open a table of Zole in this channel
#[poise::command(
    slash_command,
    description_localized("ru", "Открыть стол игры в золе в этом канале")
)]
pub async fn zole(
    ctx: Ctx<'_>,
    #[description = "Rules preset"]
    #[description_localized("ru", "Набор правил")]
    preset: Option<Preset>,
    #[description = "Players (3 to 5)"]
    #[description_localized("ru", "Игроков (от 3 до 5)")]
    #[min = 3]
    #[max = 5]
    players: Option<u8>,
    #[description = "Open the table in a new thread"]
    #[description_localized("ru", "Открыть стол в новой ветке")]
    thread: Option<bool>,
) -> Result<(), Error> {
    open(
        ctx,
        "zole",
        preset.map(|p| Value::String(p.code().into())),
        players.map(usize::from),
        thread,
    )
    .await
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum BeloteVariant {
    #[name = "bazar"]
    #[name_localized("ru", "базар")]
    Bazar,
    #[name = "classic"]
    #[name_localized("ru", "классический")]
    Classic,
    #[name = "head-to-head"]
    #[name_localized("ru", "вдвоём")]
    HeadToHead,
}

impl BeloteVariant {
    fn game(self) -> &'static str {
        match self {
            BeloteVariant::Bazar => "belote-bazar",
            BeloteVariant::Classic => "belote-classic",
            BeloteVariant::HeadToHead => "belote-h2h",
        }
    }
}

/// The `rules` of a game whose only preset is `default`: the preset name alone, or an object
/// with the options given.
fn default_preset_with(options: &[(&str, Option<Value>)]) -> Value {
    let given: serde_json::Map<String, Value> = options
        .iter()
        .filter_map(|(k, v)| v.clone().map(|v| (k.to_string(), v)))
        .collect();
    if given.is_empty() {
        return Value::String("default".into());
    }
    let mut rules = serde_json::Map::new();
    rules.insert("preset".into(), Value::String("default".into()));
    rules.extend(given);
    Value::Object(rules)
}

/// Open a table of Belote in this channel
#[poise::command(
    slash_command,
    description_localized("ru", "Открыть стол игры в белот в этом канале")
)]
pub async fn belote(
    ctx: Ctx<'_>,
    #[description = "Variant (default: bazar)"]
    #[description_localized("ru", "Вариант (по умолчанию: базар)")]
    variant: Option<BeloteVariant>,
    #[description = "Points that end the game"]
    #[description_localized("ru", "Очки, на которых игра заканчивается")]
    #[min = 1]
    #[max = 100000]
    target: Option<u32>,
    #[description = "Must trump even below the trumps in the trick"]
    #[description_localized("ru", "Обязательно козырять, даже ниже козырей во взятке")]
    must_undertrump: Option<bool>,
    #[description = "Open the table in a new thread"]
    #[description_localized("ru", "Открыть стол в новой ветке")]
    thread: Option<bool>,
) -> Result<(), Error> {
    let game = variant.unwrap_or(BeloteVariant::Bazar).game();
    let rules = default_preset_with(&[
        ("target", target.map(Value::from)),
        ("must_undertrump", must_undertrump.map(Value::Bool)),
    ]);
    open(ctx, game, Some(rules), None, thread).await
}

/// Open a table of Coinche in this channel
#[poise::command(
    slash_command,
    description_localized("ru", "Открыть стол игры в коинш в этом канале")
)]
pub async fn coinche(
    ctx: Ctx<'_>,
    #[description = "Points that end the game"]
    #[description_localized("ru", "Очки, на которых игра заканчивается")]
    #[min = 1]
    #[max = 100000]
    target: Option<u32>,
    #[description = "Must trump even below the trumps in the trick"]
    #[description_localized("ru", "Обязательно козырять, даже ниже козырей во взятке")]
    must_undertrump: Option<bool>,
    #[description = "Open the table in a new thread"]
    #[description_localized("ru", "Открыть стол в новой ветке")]
    thread: Option<bool>,
) -> Result<(), Error> {
    let rules = default_preset_with(&[
        ("target", target.map(Value::from)),
        ("must_undertrump", must_undertrump.map(Value::Bool)),
    ]);
    open(ctx, "coinche", Some(rules), None, thread).await
}

/// Open a table of Polt to Tzar in this channel
#[poise::command(
    slash_command,
    description_localized("ru", "Открыть стол игры «полт до царя» в этом канале")
)]
pub async fn polt(
    ctx: Ctx<'_>,
    #[description = "Players (5 to 7)"]
    #[description_localized("ru", "Игроков (от 5 до 7)")]
    #[min = 5]
    #[max = 7]
    players: Option<u8>,
    #[description = "Bowers: the jacks of the trump colour rank right below the joker"]
    #[description_localized("ru", "Бауэры: валеты цвета козыря сразу после джокера")]
    bowers: Option<bool>,
    #[description = "Open the table in a new thread"]
    #[description_localized("ru", "Открыть стол в новой ветке")]
    thread: Option<bool>,
) -> Result<(), Error> {
    let rules = default_preset_with(&[("bowers", bowers.map(Value::Bool))]);
    open(ctx, "polt", Some(rules), players.map(usize::from), thread).await
}

/// The games a command opens (its variants, the first by default), from the registry.
fn games_of(command: &str) -> Vec<&'static HostGame> {
    HOSTED.iter().filter(|g| g.info.command == command).collect()
}

/// A command's options as the generic command offers them, each a list of choices (Discord
/// sends the index of the one picked): its variants, its seat counts, its presets; an option of
/// a single choice is left out.
fn generic_choices(command: &str) -> [(&'static str, Vec<String>); 3] {
    let games = games_of(command);
    let variants = games
        .iter()
        .map(|g| {
            let id = g.info.id;
            id.strip_prefix(command)
                .map_or(id, |v| v.trim_start_matches('-'))
                .to_string()
        })
        .collect();
    let (min, max) = games.first().map_or((0, 0), |g| g.info.seats);
    let seats = (min..=max).map(|n| n.to_string()).collect();
    let presets = games
        .first()
        .map_or(&[][..], |g| g.info.presets)
        .iter()
        .map(|p| p.to_string())
        .collect();
    [("variant", variants), ("players", seats), ("preset", presets)]
}

/// What the generic command of `command` opens for the choices picked (indexes into
/// `generic_choices`): the game, its rules, the seats; None for a choice out of range.
fn generic_opening(
    command: &str,
    variant: Option<u32>,
    players: Option<u32>,
    preset: Option<u32>,
) -> Option<(&'static str, Option<Value>, Option<usize>)> {
    let games = games_of(command);
    let game = games.get(variant.unwrap_or(0) as usize)?;
    let seats = match players {
        Some(i) => Some(game.info.seats.0 + i as usize).filter(|&n| game.info.seats_ok(n)),
        None => None,
    };
    if players.is_some() && seats.is_none() {
        return None;
    }
    let rules = match preset {
        Some(i) => Some(Value::String(game.info.presets.get(i as usize)?.to_string())),
        None => None,
    };
    Some((game.info.id, rules, seats))
}

/// The command of a game the bot has no command of its own for: named by the registry's
/// `command`, described by the game's words (English, with Russian), its options the
/// game's variants, seat counts and presets.
fn game_command(command: &'static str) -> BotCommand {
    let mut c = generic_game();
    let about = games_of(command).first().map_or(command, |g| g.command_about);
    c.name = command.to_string();
    c.qualified_name = command.to_string();
    c.identifying_name = command.to_string();
    c.description = Some(t(Lang::En, about, &[]));
    c.description_localizations = [("ru".to_string(), t(Lang::Ru, about, &[]))].into();
    let choices = generic_choices(command);
    c.parameters.retain_mut(|p| {
        let Some((_, names)) = choices.iter().find(|(n, _)| *n == p.name) else {
            return true;
        };
        p.choices = names
            .iter()
            .map(|name| poise::CommandParameterChoice {
                name: name.clone(),
                localizations: Default::default(),
                __non_exhaustive: (),
            })
            .collect();
        names.len() > 1
    });
    c
}

/// Open a table of this game in this channel
// The generic game command: `game_command` names it and fills its choices.
#[poise::command(slash_command)]
pub async fn generic_game(
    ctx: Ctx<'_>,
    #[description = "Variant"]
    #[description_localized("ru", "Вариант")]
    variant: Option<u32>,
    #[description = "Players"]
    #[description_localized("ru", "Игроков")]
    players: Option<u32>,
    #[description = "Rules preset"]
    #[description_localized("ru", "Набор правил")]
    preset: Option<u32>,
    #[description = "Open the table in a new thread"]
    #[description_localized("ru", "Открыть стол в новой ветке")]
    thread: Option<bool>,
) -> Result<(), Error> {
    let command = ctx.command().name.clone();
    match generic_opening(&command, variant, players, preset) {
        Some((game, rules, seats)) => open(ctx, game, rules, seats, thread).await,
        None => Err(format!("/{command}: no such choice").into()),
    }
}

/// Opens a table of `game`, in a new thread of this channel when asked (a thread per table
/// lets one channel host several).
async fn open(
    ctx: Ctx<'_>,
    game: &str,
    rules: Option<Value>,
    seats: Option<usize>,
    thread: Option<bool>,
) -> Result<(), Error> {
    let mut req = request(
        &ctx,
        Command::NewTable {
            game: game.into(),
            rules,
            seats,
        },
    )
    .await;
    if thread == Some(true) && ctx.guild_id().is_some() {
        let t = ctx
            .channel_id()
            .create_thread(
                ctx.http(),
                CreateThread::new(format!("{game} · {}", req.user.name)).kind(ChannelType::PublicThread),
            )
            .await?;
        req.chat = chat_ref(ctx.guild_id(), t.id);
    }
    run(ctx, vec![req]).await
}

/// The server's ratings, or its points of a day, week, month, season or all time
#[poise::command(
    slash_command,
    description_localized("ru", "Рейтинги сервера или очки за день, неделю, месяц, сезон, всё время")
)]
pub async fn top(
    ctx: Ctx<'_>,
    #[description = "day, week, month, season, season N or all (points); nothing: ratings"]
    #[description_localized("ru", "day, week, month, season, season N или all (очки); пусто: рейтинги")]
    period: Option<String>,
) -> Result<(), Error> {
    let text = period.unwrap_or_default();
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(board) = stikis_host::Board::parse(&words) else {
        return say(ctx, "top-usage").await;
    };
    let req = request(&ctx, Command::Leaderboard(board)).await;
    run(ctx, vec![req]).await
}

/// Start the server's next season (Manage Server); the old one stays on /top season N
#[poise::command(
    slash_command,
    default_member_permissions = "MANAGE_GUILD",
    description_localized("ru", "Начать следующий сезон сервера («Управлять сервером»)")
)]
pub async fn season(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::NewSeason).await;
    run(ctx, vec![req]).await
}

/// Link to this server's pages: boards and finished games, card by card
#[poise::command(
    slash_command,
    description_localized("ru", "Ссылка на страницы сервера: таблицы и законченные игры")
)]
pub async fn web(
    ctx: Ctx<'_>,
    #[description = "Make a new link; the old one stops working (Manage Server)"]
    #[description_localized(
        "ru",
        "Создать новую ссылку; старая перестанет работать («Управлять сервером»)"
    )]
    new: Option<bool>,
    #[description = "List this server's pages on the site's front page under this name (Manage Server)"]
    #[description_localized(
        "ru",
        "Показать страницы сервера на главной странице сайта под этим названием («Управлять сервером»)"
    )]
    public: Option<String>,
    #[description = "Take them off the front page, with a new link (Manage Server)"]
    #[description_localized(
        "ru",
        "Убрать их с главной страницы сайта и создать новую ссылку («Управлять сервером»)"
    )]
    private: Option<bool>,
) -> Result<(), Error> {
    let command = match (public, private) {
        (Some(name), _) => Command::WebPublic { name: Some(name) },
        (None, Some(true)) => Command::WebPublic { name: None },
        _ => Command::WebLink {
            rotate: new.unwrap_or(false),
        },
    };
    let req = request(&ctx, command).await;
    run(ctx, vec![req]).await
}

/// Your statistics on this server
#[poise::command(slash_command, description_localized("ru", "Ваша статистика на этом сервере"))]
pub async fn stats(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::Stats).await;
    run(ctx, vec![req]).await
}

/// Choose the language (yours, or the server's: Manage Server)
#[poise::command(
    slash_command,
    description_localized("ru", "Выбрать язык (свой или сервера: «Управлять сервером»)")
)]
pub async fn lang(
    ctx: Ctx<'_>,
    #[description = "Language"]
    #[description_localized("ru", "Язык")]
    language: LangChoice,
    #[description = "For you (default) or for the whole server"]
    #[description_localized("ru", "Для вас (по умолчанию) или для всего сервера")]
    scope: Option<Scope>,
) -> Result<(), Error> {
    let l = match language {
        LangChoice::Lv => Lang::Lv,
        LangChoice::En => Lang::En,
        LangChoice::Ru => Lang::Ru,
    };
    let command = match scope {
        Some(Scope::Server) => Command::SetCommunityLang(l),
        _ => Command::SetUserLang(l),
    };
    let req = request(&ctx, command).await;
    run(ctx, vec![req]).await
}

/// The game record of this channel's table (JSON, for `stikis replay`)
#[poise::command(
    slash_command,
    description_localized("ru", "Запись партии стола этого канала (JSON для `stikis replay`)")
)]
pub async fn record(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::Record).await;
    run(ctx, vec![req]).await
}

/// My personal link to this channel's live table (only you see it)
#[poise::command(
    slash_command,
    description_localized("ru", "Моя личная ссылка на живой стол этого канала (видна только вам)")
)]
pub async fn play(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::PlayLink).await;
    run(ctx, vec![req]).await
}

/// A Zole tournament: open one (e.g. "3 24 lv bots"), or record, standings, pause, resume, cancel
#[poise::command(
    slash_command,
    description_localized(
        "ru",
        "Турнир по золе: открыть (напр. «3 24 lv bots») или record, standings, pause, resume, cancel"
    )
)]
pub async fn tournament(
    ctx: Ctx<'_>,
    #[description = "rounds, deals per round or 45m, preset, bots; or record, standings, pause, resume, cancel"]
    #[description_localized(
        "ru",
        "туры, раздач в туре или 45m, правила, bots; или record, standings, pause, resume, cancel"
    )]
    options: Option<String>,
) -> Result<(), Error> {
    let text = options.unwrap_or_default();
    let words: Vec<&str> = text.split_whitespace().collect();
    match stikis_host::tournament::parse_command(&words) {
        Some(command) => {
            let req = request(&ctx, command).await;
            run(ctx, vec![req]).await
        }
        None => say(ctx, "tournament-bad-options").await,
    }
}

/// Server settings (Manage Server): time per move, automatic start
#[poise::command(
    slash_command,
    default_member_permissions = "MANAGE_GUILD",
    description_localized("ru", "Настройки сервера («Управлять сервером»): время на ход, автостарт")
)]
pub async fn settings(
    ctx: Ctx<'_>,
    #[description = "Seconds per move (0: no limit)"]
    #[description_localized("ru", "Секунд на ход (0: без ограничения)")]
    turn_limit: Option<u32>,
    #[description = "Start when the table is full"]
    #[description_localized("ru", "Начинать, когда стол заполнен")]
    auto_start: Option<bool>,
    #[description = "Names of computer players by seat, comma-separated (\"off\": the usual names)"]
    #[description_localized("ru", "Имена компьютерных игроков по местам через запятую («off»: обычные)")]
    computer_names: Option<String>,
) -> Result<(), Error> {
    let mut reqs = Vec::new();
    if let Some(names) = computer_names {
        let names = if names.trim() == "off" {
            Vec::new()
        } else {
            names.split(',').map(|n| n.trim().to_string()).collect()
        };
        reqs.push(request(&ctx, Command::SetComputerNames(names)).await);
    }
    if let Some(n) = turn_limit {
        let limit = (n > 0).then_some(n);
        reqs.push(request(&ctx, Command::SetTurnLimit(limit)).await);
    }
    if let Some(on) = auto_start {
        reqs.push(request(&ctx, Command::SetAutoStart(on)).await);
    }
    if reqs.is_empty() {
        return say(ctx, "discord-settings-help").await;
    }
    run(ctx, reqs).await
}

/// Stop this channel's game (its creator or Manage Server)
#[poise::command(
    slash_command,
    description_localized(
        "ru",
        "Остановить игру в этом канале (создатель стола или «Управлять сервером»)"
    )
)]
pub async fn stop(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::Stop).await;
    run(ctx, vec![req]).await
}

/// The language of the bot's own answers to the author: theirs, else the server's.
async fn author_lang(ctx: &Ctx<'_>) -> Lang {
    let chat = chat_ref(ctx.guild_id(), ctx.channel_id());
    crate::lang_of(ctx.data().host.store(), &chat, &ctx.author().id.to_string()).await
}

async fn say(ctx: Ctx<'_>, key: &str) -> Result<(), Error> {
    let text = t(author_lang(&ctx).await, key, &[]);
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// The rules of the games stikis hosts
#[poise::command(slash_command, description_localized("ru", "Правила игр stikis"))]
pub async fn rules(ctx: Ctx<'_>) -> Result<(), Error> {
    say(ctx, "discord-rules").await
}

/// How to play with stikis
#[poise::command(slash_command, description_localized("ru", "Как играть со stikis"))]
pub async fn help(ctx: Ctx<'_>) -> Result<(), Error> {
    say(ctx, "discord-help").await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command of the registry is registered once, the typed ones first.
    #[test]
    fn every_game_command_of_the_registry_is_registered_once() {
        let names: Vec<String> = all().into_iter().map(|c| c.name).collect();
        let mut want: Vec<&str> = Vec::new();
        for g in HOSTED {
            if !want.contains(&g.info.command) {
                want.push(g.info.command);
            }
        }
        for command in want {
            let n = names.iter().filter(|n| *n == command).count();
            assert_eq!(n, 1, "/{command} in {names:?}");
        }
    }

    /// The generic command takes its name, words and choices from the registry.
    #[test]
    fn the_generic_command_reads_the_registry() {
        let c = game_command("belote");
        assert_eq!(c.name, "belote");
        assert_eq!(c.description.as_deref(), Some("Open a Belote table"));
        assert_eq!(
            c.description_localizations.get("ru").map(String::as_str),
            Some("Открыть стол Белот")
        );
        let params = |c: &BotCommand| -> Vec<(String, Vec<String>)> {
            c.parameters
                .iter()
                .map(|p| (p.name.clone(), p.choices.iter().map(|c| c.name.clone()).collect()))
                .collect()
        };
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            params(&c),
            [
                ("variant".to_string(), strings(&["bazar", "classic", "h2h"])),
                ("thread".to_string(), vec![]),
            ]
        );
        let c = game_command("zole");
        assert_eq!(
            params(&c),
            [
                ("players".to_string(), strings(&["3", "4", "5"])),
                (
                    "preset".to_string(),
                    strings(&stikis_core::games::zole::options::PRESETS)
                ),
                ("thread".to_string(), vec![]),
            ]
        );
        // A pick is the index of a choice.
        assert_eq!(
            generic_opening("belote", Some(2), None, None),
            Some(("belote-h2h", None, None))
        );
        assert_eq!(
            generic_opening("zole", None, Some(2), Some(2)),
            Some(("zole", Some(Value::String("rondo".into())), Some(5)))
        );
        assert_eq!(generic_opening("zole", None, Some(3), None), None);
        assert_eq!(generic_opening("belote", Some(4), None, None), None);
        assert_eq!(generic_opening("no-such-game", None, None, None), None);
    }
}
