//! Outboxes nobody asked for (the timers' computer moves, presses handed to this process as
//! their table's owner, moves made on the live table) shown in order within each chat, and
//! different chats' side by side.
//!
//! Shown one after another, every table's edits waited for every other table's: one chat
//! held back by its flood control, or a slow platform call, delayed the hands and table
//! messages of every other table of the process, so a player saw "your turn" late (and the
//! presses handed to a table's owner, whose messages the owner shows this way, waited longest).

use std::collections::HashMap;
use std::future::Future;

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;

use crate::outbox::{Out, Outbox};

/// What keeps an outbox's place: its first message's chat (with its thread). One chat's
/// outboxes (its table's messages, its hands, its posts) keep their order; an outbox that
/// names no chat keeps its place among the others of its kind.
fn order_key(out: &Outbox) -> String {
    out.0
        .iter()
        .find_map(|o| match o {
            Out::Public { chat, .. } | Out::Private { chat, .. } | Out::Post { chat, .. } => Some(format!(
                "{}:{}:{}",
                chat.platform.as_str(),
                chat.chat,
                chat.thread.as_deref().unwrap_or("")
            )),
            _ => None,
        })
        .unwrap_or_default()
}

/// Shows each outbox that comes on `events` with `show`, until the channel closes: in order
/// within a chat (an outbox starts once the one before it in its chat is shown), side by side
/// across chats. Dropping the returned future (its task aborted) stops every show under way.
pub async fn show_in_order<F, Fut>(mut events: mpsc::UnboundedReceiver<Outbox>, show: F)
where
    F: Fn(Outbox) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    // Each chat's latest show: the next one in that chat waits until it is done (its sender
    // sent or dropped, whether it finished or failed).
    let mut last: HashMap<String, oneshot::Receiver<()>> = HashMap::new();
    let mut shows = JoinSet::new();
    loop {
        tokio::select! {
            out = events.recv() => {
                let Some(out) = out else { break };
                let key = order_key(&out);
                let (done, next) = oneshot::channel::<()>();
                let before = last.insert(key, next);
                let work = show(out);
                shows.spawn(async move {
                    if let Some(before) = before {
                        let _ = before.await;
                    }
                    work.await;
                    drop(done);
                });
                if last.len() > 256 {
                    // Chats whose last show is done: nothing waits for them.
                    last.retain(|_, rx| matches!(rx.try_recv(), Err(oneshot::error::TryRecvError::Empty)));
                }
            }
            Some(_) = shows.join_next(), if !shows.is_empty() => {}
        }
    }
    while shows.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ChatRef, Platform};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn post(chat: &str, text: &str) -> Outbox {
        Outbox(vec![Out::Post {
            chat: ChatRef::new(Platform::Telegram, chat, chat),
            text: text.to_string(),
            once: None,
        }])
    }

    /// A chat held back (its show waits for a gate) holds back its own later outboxes, never
    /// another chat's; once let go, its outboxes are shown in the order they came.
    #[tokio::test]
    async fn a_chat_held_back_holds_back_only_itself() {
        let (tx, rx) = mpsc::unbounded_channel();
        let shown: Arc<Mutex<Vec<String>>> = Arc::default();
        let gate = Arc::new(tokio::sync::Notify::new());
        let (seen, open) = (Arc::clone(&shown), Arc::clone(&gate));
        let task = tokio::spawn(show_in_order(rx, move |out| {
            let (seen, open) = (Arc::clone(&seen), Arc::clone(&open));
            async move {
                let text = out.0[0].text().to_string();
                if text == "a1" {
                    open.notified().await;
                } else {
                    // Later outboxes of a chat would overtake a slow one if nothing kept order.
                    tokio::task::yield_now().await;
                }
                seen.lock().unwrap().push(text);
            }
        }));
        for (chat, text) in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("a", "a3"), ("b", "b2")] {
            tx.send(post(chat, text)).unwrap();
        }
        let t0 = tokio::time::Instant::now();
        while shown.lock().unwrap().len() < 2 {
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "chat b waited for chat a: {:?}",
                shown.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(
            *shown.lock().unwrap(),
            ["b1", "b2"],
            "only chat b is shown while chat a is held"
        );
        gate.notify_one();
        drop(tx);
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(*shown.lock().unwrap(), ["b1", "b2", "a1", "a2", "a3"]);
    }
}
