//! The fake Bot API server refuses what Telegram refuses whatever the chat, with Telegram's
//! 400 and description, and keeps nothing of a refused call: a message text longer than 4096
//! UTF-16 code units or empty, a button's callback data longer than 64 bytes (or empty), an
//! answer to a press longer than 200, a second answer to one press or one to a press never
//! sent; the same for a method run from a webhook reply. Just under each limit is taken.

use crate::fake;

use std::time::Duration;

use fake::{Fake, ANSWER_TOO_LONG, BAD_BUTTON_DATA, EMPTY, QUERY_TOO_OLD, TOO_LONG};
use serde_json::{json, Value};

const CHAT: i64 = 42;

/// Calls `method` with `body` as the bot does: (HTTP status, the reply).
async fn call(fake: &Fake, method: &str, body: Value) -> (u16, Value) {
    let addr = format!("{}:{}", fake.url.host_str().unwrap(), fake.url.port().unwrap())
        .parse()
        .unwrap();
    let path = format!("/bot123:TEST/{method}");
    let (code, reply) = fake::try_post(addr, &path, None, &body, Duration::from_secs(30))
        .await
        .unwrap();
    (code, reply.expect("a JSON reply"))
}

/// Telegram's answer to a refused call.
fn bad_request(description: &str) -> (u16, Value) {
    (
        400,
        json!({"ok": false, "error_code": 400, "description": description}),
    )
}

/// One row of one button sending `data`.
fn keyboard(data: &str) -> Value {
    json!({"inline_keyboard": [[{"text": "1", "callback_data": data}]]})
}

/// The texts the chat shows now.
fn shown(fake: &Fake) -> Vec<String> {
    fake.messages(CHAT).into_iter().map(|m| m.text).collect()
}

fn refused(fake: &Fake) -> Vec<(String, String)> {
    fake.state
        .lock()
        .unwrap()
        .refused
        .iter()
        .map(|(m, d, _)| (m.clone(), d.clone()))
        .collect()
}

#[tokio::test]
async fn a_text_longer_than_4096_utf16_units_is_refused_in_a_send_and_an_edit() {
    let fake = Fake::start().await;
    // 4096 characters, but 4097 UTF-16 code units: 🂠 takes two.
    let long = "x".repeat(4095) + "🂠";
    assert_eq!(long.chars().count(), 4096);
    let (code, reply) = call(&fake, "sendMessage", json!({"chat_id": CHAT, "text": long})).await;
    assert_eq!((code, reply), bad_request(TOO_LONG));
    assert!(shown(&fake).is_empty());
    // 4096 units is taken.
    let most = "x".repeat(4094) + "🂠";
    let (code, reply) = call(&fake, "sendMessage", json!({"chat_id": CHAT, "text": most})).await;
    assert_eq!(code, 200, "{reply}");
    let id = reply["result"]["message_id"].as_i64().unwrap();
    let (code, reply) = call(
        &fake,
        "editMessageText",
        json!({"chat_id": CHAT, "message_id": id, "text": long}),
    )
    .await;
    assert_eq!((code, reply), bad_request(TOO_LONG));
    assert_eq!(shown(&fake), [most]);
    assert_eq!(
        refused(&fake),
        [
            ("sendMessage".to_string(), TOO_LONG.to_string()),
            ("editMessageText".to_string(), TOO_LONG.to_string())
        ]
    );
    // A refused call is recorded as failed.
    let failed: Vec<Option<u16>> = fake.calls().iter().map(|c| c.failed).collect();
    assert_eq!(failed, [Some(400), None, Some(400)]);
}

#[tokio::test]
async fn an_empty_text_is_refused_in_a_send_and_an_edit() {
    let fake = Fake::start().await;
    for text in ["", " \n "] {
        let (code, reply) = call(&fake, "sendMessage", json!({"chat_id": CHAT, "text": text})).await;
        assert_eq!((code, reply), bad_request(EMPTY), "{text:?}");
    }
    let (code, reply) = call(&fake, "sendMessage", json!({"chat_id": CHAT})).await;
    assert_eq!((code, reply), bad_request(EMPTY), "no text at all");
    assert!(shown(&fake).is_empty());
    let (_, reply) = call(&fake, "sendMessage", json!({"chat_id": CHAT, "text": "."})).await;
    let id = reply["result"]["message_id"].as_i64().unwrap();
    let (code, reply) = call(
        &fake,
        "editMessageText",
        json!({"chat_id": CHAT, "message_id": id, "text": ""}),
    )
    .await;
    assert_eq!((code, reply), bad_request(EMPTY));
    assert_eq!(shown(&fake), ["."]);
    assert_eq!(refused(&fake).len(), 4);
}

#[tokio::test]
async fn callback_data_longer_than_64_bytes_or_empty_is_refused_in_every_markup() {
    let fake = Fake::start().await;
    // 64 bytes is taken (é takes two).
    let most = "é".repeat(32);
    assert_eq!(most.len(), 64);
    let (code, reply) = call(
        &fake,
        "sendMessage",
        json!({"chat_id": CHAT, "text": "hand", "reply_markup": keyboard(&most)}),
    )
    .await;
    assert_eq!(code, 200, "{reply}");
    let id = reply["result"]["message_id"].as_i64().unwrap();
    // 65 bytes, in 33 characters.
    let long = most.clone() + "x";
    for data in [long.as_str(), ""] {
        let (code, reply) = call(
            &fake,
            "sendMessage",
            json!({"chat_id": CHAT, "text": "hand", "reply_markup": keyboard(data)}),
        )
        .await;
        assert_eq!((code, reply), bad_request(BAD_BUTTON_DATA), "{data:?}");
        let (code, reply) = call(
            &fake,
            "editMessageText",
            json!({"chat_id": CHAT, "message_id": id, "text": "hand 2", "reply_markup": keyboard(data)}),
        )
        .await;
        assert_eq!((code, reply), bad_request(BAD_BUTTON_DATA), "{data:?}");
        let (code, reply) = call(
            &fake,
            "editMessageReplyMarkup",
            json!({"chat_id": CHAT, "message_id": id, "reply_markup": keyboard(data)}),
        )
        .await;
        assert_eq!((code, reply), bad_request(BAD_BUTTON_DATA), "{data:?}");
    }
    // The message kept its text and its button.
    let m = fake.messages(CHAT);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].text, "hand");
    assert_eq!(m[0].buttons, [[("1".to_string(), most)]]);
    assert_eq!(refused(&fake).len(), 6);
}

#[tokio::test]
async fn a_long_second_or_unknown_answer_to_a_press_is_refused() {
    let fake = Fake::start().await;
    let id = fake.press(CHAT, 1, CHAT, "data");
    // 200 characters, 201 UTF-16 units.
    let long = "x".repeat(199) + "🂠";
    let (code, reply) = call(
        &fake,
        "answerCallbackQuery",
        json!({"callback_query_id": id, "text": long}),
    )
    .await;
    assert_eq!((code, reply), bad_request(ANSWER_TOO_LONG));
    assert!(!fake.is_answered(&id), "a refused answer counted");
    // 200 units is taken, once.
    let most = "x".repeat(198) + "🂠";
    let (code, reply) = call(
        &fake,
        "answerCallbackQuery",
        json!({"callback_query_id": id, "text": most}),
    )
    .await;
    assert_eq!(code, 200, "{reply}");
    let (code, reply) = call(
        &fake,
        "answerCallbackQuery",
        json!({"callback_query_id": id, "text": "again"}),
    )
    .await;
    assert_eq!((code, reply), bad_request(QUERY_TOO_OLD));
    let (code, reply) = call(&fake, "answerCallbackQuery", json!({"callback_query_id": id})).await;
    assert_eq!(
        (code, reply),
        bad_request(QUERY_TOO_OLD),
        "a second answer without text"
    );
    assert_eq!(fake.state.lock().unwrap().answered[&id], most);
    // A press that was never sent.
    let (code, reply) = call(
        &fake,
        "answerCallbackQuery",
        json!({"callback_query_id": "cq999"}),
    )
    .await;
    assert_eq!((code, reply), bad_request(QUERY_TOO_OLD));
    assert_eq!(
        refused(&fake),
        [
            ("answerCallbackQuery".to_string(), ANSWER_TOO_LONG.to_string()),
            ("answerCallbackQuery".to_string(), QUERY_TOO_OLD.to_string()),
            ("answerCallbackQuery".to_string(), QUERY_TOO_OLD.to_string()),
            ("answerCallbackQuery".to_string(), QUERY_TOO_OLD.to_string()),
        ]
    );
}

/// A webhook that answers every post with the method `reply` makes of the update.
async fn webhook(reply: fn(&Value) -> Value) -> url::Url {
    use axum::routing::post;
    use axum::Json;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = url::Url::parse(&format!("http://{}/hook", listener.local_addr().unwrap())).unwrap();
    let app = axum::Router::new().route(
        "/hook",
        post(move |Json(u): Json<Value>| async move { Json(reply(&u)) }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

#[tokio::test]
async fn the_limits_hold_for_a_method_in_a_webhook_reply() {
    let fake = Fake::start().await;
    let url = webhook(|u| {
        let id = &u["callback_query"]["id"];
        match u["callback_query"]["data"].as_str() {
            Some("long") => {
                json!({"method": "answerCallbackQuery", "callback_query_id": id, "text": "x".repeat(201)})
            }
            Some("empty") => json!({"method": "sendMessage", "chat_id": CHAT, "text": ""}),
            _ => json!({"method": "answerCallbackQuery", "callback_query_id": id, "text": "✓"}),
        }
    })
    .await;
    fake.state.lock().unwrap().webhook = Some((url, None));
    let long = fake.press(CHAT, 1, CHAT, "long");
    fake.press(CHAT, 1, CHAT, "empty");
    let fine = fake.press(CHAT, 1, CHAT, "fine");
    let done = fake
        .until("the three replies run", |f| {
            let s = f.state.lock().unwrap();
            // Counted as the fake runs a method, with what it refused.
            let ran: usize = s.counts.values().sum();
            (ran == 3).then(|| s.delivered.clone())
        })
        .await;
    assert_eq!(done, [200, 200, 200]);
    assert_eq!(fake.state.lock().unwrap().in_reply.values().sum::<usize>(), 3);
    let mut refused = refused(&fake);
    refused.sort();
    assert_eq!(
        refused,
        [
            ("answerCallbackQuery".to_string(), ANSWER_TOO_LONG.to_string()),
            ("sendMessage".to_string(), EMPTY.to_string()),
        ]
    );
    assert!(!fake.is_answered(&long));
    assert!(fake.is_answered(&fine));
    assert!(shown(&fake).is_empty());
}
