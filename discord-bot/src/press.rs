//! Button presses: every button's custom id is a host token, so a press is one
//! `Command::Press`. The answer: an update of the pressed message when the host redrew it
//! (one call instead of two), a silent acknowledgement for "✓" (and for a press in a direct
//! message that went to the table's owner, another process, which edits the hand itself:
//! `stikis_host::owner`), an ephemeral explanation for
//! stale, foreign and out-of-turn presses, and the ephemeral hand for the table's 🂠 button.
//! A press that came over the gateway is answered by a callback call; one posted to the
//! interactions endpoint is answered in the reply to its post (`Responder`), which is no call.

use poise::serenity_prelude as serenity;
use serenity::{
    ComponentInteraction, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, EditInteractionResponse, MessageFlags,
};
use stikis_host::outbox::SHOW_HAND;
use stikis_host::{Command, Out, Outbox, Press, Request};
use tokio::sync::{oneshot, OwnedMutexGuard};

use crate::show::Content;
use crate::{chat_ref, host_user, Bot};

/// The host's reply to a move that was taken.
const DONE: &str = "✓";

/// How a press's first answer (the interaction response) reaches Discord.
pub enum Responder {
    /// A callback call (an interaction that came over the gateway).
    Call,
    /// The reply to the interaction's post to the interactions endpoint.
    Reply(std::sync::Mutex<Option<oneshot::Sender<CreateInteractionResponse>>>),
}

impl Responder {
    /// A responder whose answer the returned receiver gets, to reply to the post with.
    pub fn reply() -> (Responder, oneshot::Receiver<CreateInteractionResponse>) {
        let (tx, rx) = oneshot::channel();
        (Responder::Reply(std::sync::Mutex::new(Some(tx))), rx)
    }

    /// Whether the post this press came in stopped waiting for its answer: the endpoint then
    /// acknowledged it (`endpoint::REPLY_WAIT`), and the press is answered as a deferred one.
    fn lapsed(&self) -> bool {
        match self {
            Responder::Call => false,
            Responder::Reply(tx) => tx
                .lock()
                .expect("responder")
                .as_ref()
                .is_some_and(|t| t.is_closed()),
        }
    }

    async fn respond(
        &self,
        c: &ComponentInteraction,
        http: &serenity::Http,
        r: CreateInteractionResponse,
    ) -> serenity::Result<()> {
        let waiting = match self {
            Responder::Call => None,
            Responder::Reply(tx) => tx.lock().expect("responder").take(),
        };
        let r = match waiting {
            Some(tx) => match tx.send(r) {
                Ok(()) => return Ok(()),
                // The post stopped waiting: a call, as over the gateway.
                Err(r) => r,
            },
            None => r,
        };
        let sent = c.create_response(http, r).await;
        crate::counted("createInteractionResponse", &sent);
        sent
    }
}

/// The host's request for a press: its button's token decoded here, once, where the press
/// enters (the gateway's event, or the interactions endpoint's post).
pub(crate) fn press_request(c: &ComponentInteraction) -> Request {
    let command = if c.data.custom_id == crate::show::OPEN {
        Command::PlayLink
    } else {
        Command::Press(Press::new(c.data.custom_id.clone()))
    };
    Request {
        chat: chat_ref(c.guild_id, c.channel_id),
        user: host_user(&c.user, c.member.as_ref()),
        command,
    }
}

/// A press's name among all presses, written with its move wherever it is committed: if
/// this process defers its answer and dies, the table's next owner looks for it in the log
/// (`Host::press_deferred`).
fn press_name(c: &ComponentInteraction) -> String {
    format!("discord/{}", c.id)
}

/// Tells the other processes that this one deferred its answer to press `c` (its request
/// `req`): one of them answers it if this one dies first.
pub(crate) async fn tell_deferred(bot: &Bot, req: &Request, c: &ComponentInteraction) {
    // Only a move is looked for in the log ("Open the table" commits nothing).
    if req.press().is_some() {
        bot.host.press_deferred(req, &press_name(c), &c.token).await;
    }
}

/// "Open the table" (`show::OPEN`): with the Activity set up, Discord is asked to launch it
/// (`LAUNCH_ACTIVITY`, nothing else said); otherwise the presser is given their personal link,
/// as `/play` gives it, in a message only they see.
async fn open_table(bot: &Bot, c: &ComponentInteraction, req: Request, responder: &Responder) {
    let _busy = bot.busy();
    if bot.config.activity.is_some() {
        if let Err(e) = responder
            .respond(c, &bot.http, CreateInteractionResponse::LaunchActivity)
            .await
        {
            tracing::warn!(interaction = %c.id, error = %e, "could not launch the Activity");
        }
        return;
    }
    let mut deferred = false;
    let out = crate::handle_in_time(bot, req, || async {
        deferred = true;
        let wait = CreateInteractionResponseMessage::new().ephemeral(true);
        if let Err(e) = responder
            .respond(c, &bot.http, CreateInteractionResponse::Defer(wait))
            .await
        {
            tracing::warn!(interaction = %c.id, error = %e, "could not defer a press");
        }
    })
    .await;
    let text = out
        .0
        .iter()
        .find_map(|o| match o {
            Out::Personal { text, .. } | Out::Reply { text } => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "⚠".to_string());
    let sent = if deferred || responder.lapsed() {
        let r = c
            .edit_response(&bot.http, EditInteractionResponse::new().content(text))
            .await;
        crate::counted("editOriginalInteractionResponse", &r);
        r.map(|_| ())
    } else {
        let answer = CreateInteractionResponseMessage::new()
            .content(text)
            .ephemeral(true);
        responder
            .respond(c, &bot.http, CreateInteractionResponse::Message(answer))
            .await
    };
    if let Err(e) = sent {
        tracing::warn!(interaction = %c.id, error = %e, "could not answer a press");
    }
}

/// Takes press `c`, whose request (`press_request`) is `req`.
pub async fn on_press(bot: &Bot, c: &ComponentInteraction, req: Request, responder: &Responder) {
    if matches!(req.command, Command::PlayLink) {
        return open_table(bot, c, req, responder).await;
    }
    let _busy = bot.busy();
    let user = req.user.clone();
    let show_hand = req.press().and_then(Press::action) == Some(SHOW_HAND);
    // Told to the other processes if the answer is deferred (the press is decoded once).
    let told = req.clone();
    // Presses on one table are taken one after the other up to the point where their
    // outbox is shown or claimed, so an answer never carries an older hand than an edit
    // queued after it.
    let table = req.press().and_then(Press::table);
    let order = table.map(|t| bot.table_order(t));
    let host = bot.host.clone();
    let http = bot.http.clone();
    let mut deferred = false;
    let order_in = order.clone();
    let name = press_name(c);
    let name_in = name.clone();
    let joined = crate::in_time(
        bot.config.answer_within,
        async move {
            let turn = match order_in {
                Some(o) => Some(o.lock_owned().await),
                None => None,
            };
            let received = stikis_host::store::now_ms();
            (host.handle_named(req, received, Some(name_in)).await, turn)
        },
        || async {
            deferred = true;
            // Said before the deferral goes out: a "✓" that only defers is no promise that
            // the move was taken (a process that dies before taking it loses it, and the
            // person, whose hand did not change, presses again).
            tracing::warn!(interaction = %c.id, "press deferred: not answered within the time Discord waits");
            if let Err(e) = responder
                .respond(c, &http, CreateInteractionResponse::Acknowledge)
                .await
            {
                tracing::warn!(interaction = %c.id, error = %e, "could not defer a press");
            }
            // Answered by another process if this one dies before it answers.
            tell_deferred(bot, &told, c).await;
        },
    )
    .await;
    if responder.lapsed() {
        deferred = true;
    }
    let (out, turn) = joined.unwrap_or_else(|| {
        let mut out = Outbox::default();
        out.reply("⚠");
        (out, None)
    });
    answer(bot, c, responder, &user.id, show_hand, out, deferred, turn).await;
    if let (Some(t), Some(o)) = (table, order) {
        bot.release_table_order(t, o);
    }
    if deferred {
        // After the table's order is let go: the next press on it need not wait for this.
        bot.host.deferred_answered(&name).await;
    }
}

/// The actor's own hand messages in an outbox, newest first, one per key (the last version
/// of each).
fn own_hands(out: &Outbox, user: &str) -> Vec<(String, Content)> {
    let mut hands: Vec<(String, Content)> = Vec::new();
    for o in out.0.iter().rev() {
        if let Out::Private {
            user: u,
            key,
            text,
            buttons,
            version,
            ..
        } = o
        {
            if u == user && !hands.iter().any(|(k, _)| k == key) {
                hands.push((
                    key.clone(),
                    Content {
                        text: text.clone(),
                        buttons: stikis_host::outbox::pressable(buttons),
                        version: Some(*version),
                    },
                ));
            }
        }
    }
    hands
}

#[allow(clippy::too_many_arguments)]
async fn answer(
    bot: &Bot,
    c: &ComponentInteraction,
    responder: &Responder,
    user: &str,
    show_hand: bool,
    out: Outbox,
    deferred: bool,
    turn: Option<OwnedMutexGuard<()>>,
) {
    let reply = out.reply_text().unwrap_or(DONE).to_string();
    let from_ephemeral = c
        .message
        .flags
        .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
    let hands = own_hands(&out, user);
    // The newest hand (the next deal's once a deal ended) for an ephemeral answer; for a
    // pressed DM, the version of the hand it shows.
    let newest = hands.first().cloned();
    // What the answer shows (a deferred press sends it afterwards).
    let mut hand: Option<(String, Content)> = None;

    // What the interaction's own answer shows, and what is left for the shower.
    let mut response: Option<CreateInteractionResponseMessage> = None;
    let mut update = false;
    let mut claim = None;
    let mut rest = Outbox::default();
    let mut skip_key: Option<String> = None;
    if let Some((key, content)) = &newest {
        if show_hand || (from_ephemeral && bot.show.dm_closed(user)) {
            // The hand as an ephemeral message (new, or the pressed one updated), refreshed
            // through this interaction on later turns.
            response = Some(
                CreateInteractionResponseMessage::new()
                    .embed(content.embed())
                    .components(content.rows())
                    .ephemeral(true),
            );
            update = !show_hand;
            if !deferred {
                // A deferred press's original response is the table message, not this hand.
                bot.show.set_fallback(user, &c.token, content);
            }
            skip_key = Some(key.clone());
            hand = newest.clone();
        } else if reply == DONE {
            for (key, content) in &hands {
                let Some(cl) = bot.show.claim_inline(key, user, c.message.id, content).await else {
                    continue;
                };
                // The pressed hand is redrawn by the answer itself (UPDATE_MESSAGE), or
                // only acknowledged when it did not change.
                if cl.changed {
                    response = Some(
                        CreateInteractionResponseMessage::new()
                            .embed(content.embed())
                            .components(content.rows()),
                    );
                    update = true;
                }
                skip_key = Some(key.clone());
                hand = Some((key.clone(), content.clone()));
                claim = Some(cl);
                break;
            }
        }
    }
    for o in out.0 {
        match &o {
            Out::Private { key, user: u, .. } if Some(key) == skip_key.as_ref() && u == user => {}
            _ => rest.push(o),
        }
    }
    // Other people's messages first: the answer tells the presser it is done.
    bot.show.show(&rest).await;
    drop(turn);
    // Another process may have shown a newer state of the pressed hand meanwhile (another
    // person moved): the answer carries that one rather than land on it as an older one.
    if let Some(cl) = claim.as_mut() {
        if let Some(content) = bot.show.newest_claimed(cl).await {
            response = Some(
                CreateInteractionResponseMessage::new()
                    .embed(content.embed())
                    .components(content.rows()),
            );
            update = true;
            hand = hand.map(|(key, _)| (key, content));
        }
    }

    let http = &bot.http;
    // What a deferred press's answer sends, for its log line.
    let sent = match (&response, update, reply == DONE) {
        (Some(_), true, _) => "its hand, edited",
        (Some(_), false, _) => "its hand, followed up",
        (None, _, true) => "nothing (taken, its hand unchanged)",
        (None, _, false) => "a text",
    };
    let result = match (response, deferred) {
        (Some(msg), false) if update => {
            responder
                .respond(c, http, CreateInteractionResponse::UpdateMessage(msg))
                .await
        }
        (Some(msg), false) => {
            responder
                .respond(c, http, CreateInteractionResponse::Message(msg))
                .await
        }
        (Some(_), true) => {
            // Deferred: edit the pressed message through the interaction, or follow up.
            let (key, content) = hand.expect("a response is built from the hand");
            let _ = key;
            if update {
                c.edit_response(
                    http,
                    EditInteractionResponse::new()
                        .embed(content.embed())
                        .components(content.rows()),
                )
                .await
                .map(|_| ())
            } else {
                c.create_followup(
                    http,
                    CreateInteractionResponseFollowup::new()
                        .embed(content.embed())
                        .components(content.rows())
                        .ephemeral(true),
                )
                .await
                .map(|_| ())
            }
        }
        (None, false) if reply == DONE => {
            responder
                .respond(c, http, CreateInteractionResponse::Acknowledge)
                .await
        }
        (None, false) => {
            responder
                .respond(
                    c,
                    http,
                    CreateInteractionResponse::Message(
                        CreateInteractionResponseMessage::new()
                            .content(reply)
                            .ephemeral(true),
                    ),
                )
                .await
        }
        (None, true) if reply == DONE => Ok(()),
        (None, true) => c
            .create_followup(
                http,
                CreateInteractionResponseFollowup::new()
                    .content(reply)
                    .ephemeral(true),
            )
            .await
            .map(|_| ()),
    };
    if deferred && result.is_ok() {
        // The end of a deferral said in its log line (the harness matches the two).
        tracing::warn!(interaction = %c.id, answer = sent, "deferred press answered");
    }
    match (result, claim) {
        (Err(e), claim) => {
            tracing::warn!(interaction = %c.id, deferred, error = %e, "could not answer a press");
            if let Some(cl) = claim {
                // The hand it carried is sent as an edit instead, so its owner still sees it.
                bot.show.unclaim(cl).await;
            }
        }
        (Ok(()), Some(cl)) => bot.show.answered(cl).await,
        (Ok(()), None) => {}
    }
}
