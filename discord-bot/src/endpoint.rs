//! The interactions endpoint: Discord can post interactions to an HTTPS URL of the bot's
//! (the developer portal's "Interactions Endpoint URL") instead of sending them over the
//! gateway. Then a button press is answered in the reply to its post, which is no REST call
//! of the bot's: one call less per press than over the gateway. Every post is checked
//! against the application's Ed25519 public key (401 otherwise, as Discord requires); PING
//! gets PONG; slash commands go to poise as over the gateway and answer with a callback call
//! (the post is accepted with 202, which Discord allows for everything but PING). The gateway
//! stays connected for the rest (guild events, and the context poise's commands run in).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use poise::serenity_prelude as serenity;
use serenity::{CreateInteractionResponse, Interaction};

use crate::press::{on_press, Responder};
use crate::{Data, Error};

/// Where the endpoint listens and whose posts it believes.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub listen: SocketAddr,
    /// The application's public key (64 hexadecimal digits, developer portal, General
    /// Information).
    pub public_key: String,
}

/// Discord waits 3 s for an interaction's answer; a press defers itself before that
/// (`Config::answer_within`), so this only guards against a press that never answers, or
/// one on a process so starved that its own deferral is late: half a second short of
/// Discord's limit, since such a process's timers fire late too (in a long run, a starved
/// process that acknowledged at 2.9 s had its later follow-ups refused as "Unknown
/// interaction").
const REPLY_WAIT: Duration = Duration::from_millis(2500);

/// How long a command posted while the bot starts waits for the gateway's context: within
/// Discord's 3 s, leaving poise the time to answer.
const GATEWAY_WAIT: Duration = Duration::from_millis(2000);

pub(crate) struct EndpointState {
    pub bot: Data,
    pub verifier: serenity::Verifier,
    /// The same commands and handlers as the gateway's framework.
    pub options: poise::FrameworkOptions<Data, Error>,
    pub shards: Arc<serenity::ShardManager>,
}

/// Parses the public key, so a wrong one stops the start instead of every post.
pub(crate) fn verifier(public_key: &str) -> Result<serenity::Verifier, Error> {
    let key = public_key.trim();
    let mut bytes = [0u8; 32];
    if key.len() != 64 || !key.is_ascii() {
        return Err("DISCORD_PUBLIC_KEY must be 64 hexadecimal digits".into());
    }
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&key[2 * i..2 * i + 2], 16)
            .map_err(|_| "DISCORD_PUBLIC_KEY must be 64 hexadecimal digits")?;
    }
    Ok(serenity::Verifier::try_new(bytes)?)
}

pub(crate) fn router(state: Arc<EndpointState>) -> axum::Router {
    axum::Router::new()
        .route("/", axum::routing::post(post))
        .route("/interactions", axum::routing::post(post))
        .with_state(state)
}

async fn post(State(st): State<Arc<EndpointState>>, headers: HeaderMap, body: Bytes) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let signature = header("X-Signature-Ed25519");
    let timestamp = header("X-Signature-Timestamp");
    if st.verifier.verify(signature, timestamp, &body).is_err() {
        return (StatusCode::UNAUTHORIZED, "invalid request signature").into_response();
    }
    let interaction: Interaction = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!(error = %e, "an unreadable interaction was posted");
            return (StatusCode::BAD_REQUEST, "not an interaction").into_response();
        }
    };
    match interaction {
        Interaction::Ping(_) => Json(serde_json::json!({"type": 1})).into_response(),
        Interaction::Component(c) => {
            let (responder, answer) = Responder::reply();
            let bot = st.bot.clone();
            let id = c.id;
            let pressed = c.clone();
            let req = crate::press::press_request(&c);
            let told = req.clone();
            tokio::spawn(async move { on_press(&bot, &c, req, &responder).await });
            match tokio::time::timeout(REPLY_WAIT, answer).await {
                Ok(Ok(r)) => Json(r).into_response(),
                // No answer in time (the process is starved): acknowledged here, as the press
                // defers itself, and said the same way. The press sees that its post stopped
                // waiting and answers as a deferred press does, never with a second response.
                Ok(Err(_)) | Err(_) => {
                    tracing::warn!(interaction = %id, "press deferred: not answered within the time Discord waits");
                    // Answered by another process if this one dies before the press does.
                    let bot = st.bot.clone();
                    tokio::spawn(async move { crate::press::tell_deferred(&bot, &told, &pressed).await });
                    Json(CreateInteractionResponse::Acknowledge).into_response()
                }
            }
        }
        other => {
            // Commands need the gateway's context. While the bot starts (READY seen, its
            // commands being registered) a command waits for it rather than failing.
            let Some((ctx, bot_id)) = st.bot.gateway_within(GATEWAY_WAIT).await else {
                tracing::warn!("a command was posted before the gateway came up: refused");
                return (StatusCode::SERVICE_UNAVAILABLE, "starting").into_response();
            };
            let st = st.clone();
            tokio::spawn(async move {
                let _busy = st.bot.busy();
                let fw = poise::FrameworkContext {
                    bot_id,
                    options: &st.options,
                    user_data: &st.bot,
                    shard_manager: &st.shards,
                };
                let event = serenity::FullEvent::InteractionCreate { interaction: other };
                poise::dispatch_event(fw, &ctx, event).await;
            });
            StatusCode::ACCEPTED.into_response()
        }
    }
}
