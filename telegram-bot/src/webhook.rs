//! Webhook mode: Telegram posts each update to the bot's URL. The bot registers the URL with
//! a secret (setWebhook), refuses posts without it (401), and hands each update to
//! `App::on_update` as its own task, the updates of one chat one after the other in the order
//! they came (as teloxide's dispatcher does with long polling). A button press (a callback query) is answered in the reply to
//! its post, as a method call Telegram runs itself ("making requests when getting updates"),
//! which spares the bot one answerCallbackQuery call per press. The post waits for the answer
//! only (a press's answer goes out before its edits), at most `Settings::answer_wait`; after
//! that it is answered empty and the press's answer is made as a call.
//!
//! Starting registers the webhook (setWebhook with the URL and secret given; several instances
//! behind one URL give the same two, so each start sets what is already set). Shutting down
//! stops taking posts, lets the posts being answered finish and waits for every update task;
//! it leaves the webhook as it is: it is shared, and the other instances behind the same URL
//! go on taking its posts (with none left, Telegram keeps the updates and retries until one
//! starts again). Only a start in long-polling mode deletes it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use teloxide::payloads::SetWebhookSetters;
use teloxide::prelude::*;
use teloxide::types::UpdateKind;
use teloxide::update_listeners::webhooks;
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};
use tokio_util::task::TaskTracker;

use crate::show::call;
use crate::{App, StartError};

struct Hook {
    app: Arc<App>,
    wait: Duration,
    secret: String,
    /// The update tasks, so that shutdown waits for them.
    tasks: TaskTracker,
    /// One lock per chat with an update in hand (tokio's locks are taken in the order asked).
    chats: std::sync::Mutex<HashMap<i64, Arc<AsyncMutex<()>>>>,
}

impl Hook {
    /// The chat's turn, in the order of the calls.
    async fn turn(&self, chat: i64) -> (Arc<AsyncMutex<()>>, OwnedMutexGuard<()>) {
        let lock = Arc::clone(self.chats.lock().expect("chats").entry(chat).or_default());
        let guard = Arc::clone(&lock).lock_owned().await;
        (lock, guard)
    }

    /// Forgets a chat's lock once nobody but the caller holds it.
    fn done(&self, chat: i64, lock: Arc<AsyncMutex<()>>) {
        let mut chats = self.chats.lock().expect("chats");
        // The map's copy and the caller's: nobody else is waiting on it.
        if Arc::strong_count(&lock) == 2 {
            chats.remove(&chat);
        }
    }
}

/// A running webhook.
pub(crate) struct Webhook {
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<()>,
    tasks: TaskTracker,
}

/// Checks the secret (generating one when not given), listens on `listen` and registers
/// `url` with Telegram.
pub(crate) async fn start(
    app: Arc<App>,
    url: url::Url,
    listen: SocketAddr,
    secret: Option<String>,
    wait: Duration,
) -> Result<Webhook, StartError> {
    let mut options = webhooks::Options::new(listen, url.clone());
    if let Some(secret) = secret {
        let ok = (1..=256).contains(&secret.len())
            && secret
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            return Err(StartError::BadSecret);
        }
        options = options.secret_token(secret);
    }
    let secret = options.get_or_gen_secret_token().to_string();
    // Bound before setWebhook, so that a taken port fails the start before Telegram is told
    // to post here.
    let tcp = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| StartError::Listen(listen, e.to_string()))?;
    call(
        app.shower
            .bot
            .set_webhook(url.clone())
            .secret_token(secret.clone()),
    )
    .await
    .map_err(|e| {
        StartError::Telegram(
            app.shower.bot.api_url().to_string(),
            format!("setWebhook failed: {e}"),
        )
    })?;
    let tasks = TaskTracker::new();
    let hook = Arc::new(Hook {
        app,
        wait,
        secret,
        tasks: tasks.clone(),
        chats: Default::default(),
    });
    let path = match url.path() {
        "" => "/",
        p => p,
    };
    let router = axum::Router::new()
        .route(path, axum::routing::post(on_post))
        .with_state(hook);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let stopped = async {
            let _ = stopped.await;
        };
        if let Err(e) = axum::serve(tcp, router).with_graceful_shutdown(stopped).await {
            tracing::error!(error = %e, "the webhook server failed");
        }
    });
    Ok(Webhook { stop, server, tasks })
}

impl Webhook {
    /// Stops at once, as a killed process would: the server goes, nothing is waited for.
    pub(crate) fn abort(self) {
        self.server.abort();
    }

    /// Takes no more posts and finishes the updates in hand. No Bot API call: the webhook
    /// stays registered for the other instances (see the module's head).
    pub(crate) async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.server.await;
        self.tasks.close();
        self.tasks.wait().await;
    }
}

/// How long a press waits for its chat's previous update (the same person's last press, which
/// may still be showing its messages) before it is answered "try again" without being
/// handled. Its time limit (`Host::handle_since`) counts from its arrival, this wait
/// included, so every press is answered within 5 s, also while the database is away and the
/// previous update's messages wait for it.
const PRESS_TURN_WAIT: Duration = Duration::from_millis(1_000);

async fn on_post(State(hook): State<Arc<Hook>>, headers: HeaderMap, body: Bytes) -> Response {
    let received_ms = stikis_host::store::now_ms();
    let genuine = headers
        .get("X-Telegram-Bot-Api-Secret-Token")
        .is_some_and(|h| h.as_bytes() == hook.secret.as_bytes());
    if !genuine {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let update: Update = match serde_json::from_slice(&body) {
        // One teloxide cannot read: a press on an ephemeral message is read as a press.
        Ok(
            u @ Update {
                kind: UpdateKind::Error(_),
                ..
            },
        ) => serde_json::from_slice(&body)
            .ok()
            .and_then(|v| crate::ephemeral::as_callback(&v))
            .unwrap_or(u),
        Ok(u) => u,
        Err(e) => {
            // Telegram would post it again and again: take it, and say what it was.
            tracing::warn!(error = %e, "an update that is not one was posted");
            return StatusCode::OK.into_response();
        }
    };
    let press = match &update.kind {
        UpdateKind::CallbackQuery(q) if !hook.wait.is_zero() => Some(q.id.0.clone()),
        _ => None,
    };
    let answer = press.as_deref().map(|id| hook.app.shower.answer_in_reply(id));
    let chat = update.chat().map(|c| c.id.0);
    let turn = match (chat, &update.kind) {
        (Some(c), UpdateKind::CallbackQuery(q)) => {
            match tokio::time::timeout(PRESS_TURN_WAIT, hook.turn(c)).await {
                Ok(turn) => Some(turn),
                Err(_) => {
                    // Never handled, so never applied: the person presses again.
                    if let Some(id) = &press {
                        hook.app.shower.answer_by_call(id);
                    }
                    tracing::warn!(
                        chat = c,
                        "a press waited too long for its chat's previous update; answered \"try again\""
                    );
                    let body = serde_json::json!({
                        "method": "answerCallbackQuery",
                        "callback_query_id": q.id.0,
                        "text": hook.app.try_again(&q.from).await,
                    });
                    return axum::Json(body).into_response();
                }
            }
        }
        (Some(c), _) => Some(hook.turn(c).await),
        (None, _) => None,
    };
    let task_hook = Arc::clone(&hook);
    hook.tasks.spawn(async move {
        let kind = match &update.kind {
            UpdateKind::Message(_) => "message",
            UpdateKind::CallbackQuery(_) => "press",
            _ => "other",
        };
        let started = std::time::Instant::now();
        let handled = task_hook.app.on_update_since(update, received_ms);
        tokio::pin!(handled);
        let mut warned = false;
        loop {
            match tokio::time::timeout(Duration::from_secs(10), &mut handled).await {
                Ok(()) => break,
                Err(_) => {
                    warned = true;
                    tracing::warn!(
                        kind,
                        chat,
                        secs = started.elapsed().as_secs(),
                        "an update is taking long"
                    );
                }
            }
        }
        if warned {
            tracing::warn!(
                kind,
                chat,
                secs = started.elapsed().as_secs(),
                "a slow update is done"
            );
        }
        if let (Some(chat), Some((lock, guard))) = (chat, turn) {
            drop(guard);
            task_hook.done(chat, lock);
        }
    });
    let (Some(id), Some(answer)) = (press, answer) else {
        return StatusCode::OK.into_response();
    };
    match tokio::time::timeout(hook.wait, answer).await {
        Ok(Ok(body)) => axum::Json(body).into_response(),
        _ => {
            hook.app.shower.answer_by_call(&id);
            StatusCode::OK.into_response()
        }
    }
}
