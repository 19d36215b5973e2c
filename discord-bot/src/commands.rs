//! The slash commands (global, English with Russian localizations). Each builds one or more
//! host requests, answers within the time Discord allows (deferring when the host is slow)
//! and shows the outbox; the reply is ephemeral, records are attached publicly.

use poise::serenity_prelude as serenity;
use poise::CreateReply;
use serde_json::Value;
use serenity::{ChannelType, CreateAttachment, CreateThread};
use stikis_host::i18n::Lang;
use stikis_host::{Command, Out, Outbox, Request};

use crate::{chat_ref, host_user, Ctx, Data, Error};

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        zole(),
        top(),
        stats(),
        lang(),
        record(),
        settings(),
        stop(),
        rules(),
        help(),
    ]
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
                Out::Reply { text } => replies.push(text),
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
    let mut req = request(
        &ctx,
        Command::NewTable {
            game: "zole".into(),
            rules: preset.map(|p| Value::String(p.code().into())),
            seats: players.map(usize::from),
        },
    )
    .await;
    if thread == Some(true) && ctx.guild_id().is_some() {
        // A thread per table lets one channel host several tables.
        let t = ctx
            .channel_id()
            .create_thread(
                ctx.http(),
                CreateThread::new(format!("zole · {}", req.user.name)).kind(ChannelType::PublicThread),
            )
            .await?;
        req.chat = chat_ref(ctx.guild_id(), t.id);
    }
    run(ctx, vec![req]).await
}

/// The server's leaderboard
#[poise::command(slash_command, description_localized("ru", "Таблица лидеров сервера"))]
pub async fn top(ctx: Ctx<'_>) -> Result<(), Error> {
    let req = request(&ctx, Command::Leaderboard).await;
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
) -> Result<(), Error> {
    let mut reqs = Vec::new();
    if let Some(n) = turn_limit {
        let limit = (n > 0).then_some(n);
        reqs.push(request(&ctx, Command::SetTurnLimit(limit)).await);
    }
    if let Some(on) = auto_start {
        reqs.push(request(&ctx, Command::SetAutoStart(on)).await);
    }
    if reqs.is_empty() {
        ctx.send(
            CreateReply::default()
                .content(settings_help(&ctx))
                .ephemeral(true),
        )
        .await?;
        return Ok(());
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

fn russian(ctx: &Ctx<'_>) -> bool {
    ctx.locale().is_some_and(|l| l.starts_with("ru"))
}

fn settings_help(ctx: &Ctx<'_>) -> &'static str {
    if russian(ctx) {
        "Укажите turn_limit и/или auto_start."
    } else {
        "Give turn_limit and/or auto_start."
    }
}

/// The rules of the games stikis hosts
#[poise::command(slash_command, description_localized("ru", "Правила игр stikis"))]
pub async fn rules(ctx: Ctx<'_>) -> Result<(), Error> {
    let text = if russian(&ctx) {
        "Золе: 3–5 игроков (играют трое), 26 карт, козыри — все дамы, валеты, бубны. \
         Пресеты: lv, lv-galdins, rondo, catsatcards, zolite. Каждая раздача подтверждается \
         хешем SHA-256 её зерна; запись партии (/record) проверяется командой `stikis replay`."
    } else {
        "Zole: 3–5 players (three play each deal), 26 cards, trumps are all queens, jacks and \
         diamonds. Presets: lv, lv-galdins, rondo, catsatcards, zolite. Each deal is committed \
         by the SHA-256 of its seed; the game record (/record) is checked with `stikis replay`."
    };
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// How to play with stikis
#[poise::command(slash_command, description_localized("ru", "Как играть со stikis"))]
pub async fn help(ctx: Ctx<'_>) -> Result<(), Error> {
    let text = if russian(&ctx) {
        "/zole — открыть стол; кнопки: сесть, компьютерный игрок, начать, уйти. Карты приходят \
         в личные сообщения; если они закрыты, нажмите 🂠 под столом. /top, /stats, /lang, \
         /record, /settings (администраторы), /stop, /rules."
    } else {
        "/zole opens a table; buttons: join, add computer player, start, leave. Your cards come \
         by direct message; if yours are closed, press 🂠 under the table. /top, /stats, /lang, \
         /record, /settings (admins), /stop, /rules."
    };
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}
