//! The fake Discord refuses what Discord refuses, for the calls the bot makes: each test
//! makes one call Discord takes and the same call broken one way, and checks the refusal
//! (status, Discord's error code) and that the fake noted it (`Fake::refusals`), which the
//! end-to-end tests require to stay empty.

use crate::fake;

use fake::{Fake, Person, APP, CHANNEL, DM_OFFSET};
use serde_json::{json, Value};

/// A REST call to the fake: its status and Discord's error code, if any.
async fn call(fake: &Fake, method: &str, path: &str, body: Value) -> (u16, Option<u64>) {
    let url = format!("{}/api/v10{path}", fake.url);
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let r = reqwest::Client::new()
        .request(method, url)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap_or(Value::Null);
    (status, v["code"].as_u64())
}

/// Posts a message to `channel`; its id.
async fn post(fake: &Fake, channel: u64, body: Value) -> u64 {
    let r = reqwest::Client::new()
        .post(format!("{}/api/v10/channels/{channel}/messages", fake.url))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.unwrap();
    v["id"].as_str().unwrap().parse().unwrap()
}

/// The codes the fake noted, in order.
fn noted(fake: &Fake) -> Vec<u64> {
    fake.refusals().iter().map(|(_, code, _)| *code).collect()
}

/// A fake whose interactions go to an endpoint that takes them and never answers (the test
/// answers them by calls of its own).
async fn fake_with_silent_endpoint() -> Fake {
    let fake = Fake::start().await;
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    fake.use_endpoint(&format!("http://{}/interactions", silent.local_addr().unwrap()));
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((c, _)) = silent.accept().await {
            held.push(c);
        }
    });
    fake
}

fn button(label: &str, id: &str) -> Value {
    json!({"type": 2, "style": 2, "label": label, "custom_id": id})
}

fn row(buttons: Vec<Value>) -> Value {
    json!({"type": 1, "components": buttons})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_or_delete_of_a_message_of_another_channel_is_unknown_message() {
    let fake = Fake::start().await;
    let id = post(&fake, CHANNEL, json!({"content": "table"})).await;
    let dm = DM_OFFSET + 1001;
    let edit = json!({"content": "edited"});
    // Through another channel (a direct message, or another server channel): refused.
    for other in [dm, CHANNEL + 1] {
        let path = format!("/channels/{other}/messages/{id}");
        assert_eq!(
            call(&fake, "PATCH", &path, edit.clone()).await,
            (404, Some(10008))
        );
        assert_eq!(call(&fake, "DELETE", &path, json!({})).await, (404, Some(10008)));
    }
    assert_eq!(fake.channel(CHANNEL)[0].versions, ["table"], "nothing was edited");
    let path = format!("/channels/{CHANNEL}/messages/{id}");
    assert_eq!(call(&fake, "PATCH", &path, edit).await.0, 200);
    assert_eq!(fake.channel(CHANNEL)[0].versions, ["table", "edited"]);
    assert_eq!(call(&fake, "DELETE", &path, json!({})).await.0, 204);
    // Gone: neither edited nor deleted again.
    assert_eq!(
        call(&fake, "PATCH", &path, json!({"content": "x"})).await,
        (404, Some(10008))
    );
    assert_eq!(call(&fake, "DELETE", &path, json!({})).await, (404, Some(10008)));
    assert_eq!(noted(&fake), [10008; 6]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ephemeral_answer_is_no_message_of_its_channel() {
    let fake = fake_with_silent_endpoint().await;
    let anna = Person::new(1001, "Anna");
    let iid = fake.slash_nowait(&anna, CHANNEL, "zole", json!([]));
    let answer = json!({"type": 4, "data": {"content": "only Anna sees it", "flags": 64}});
    let path = format!("/interactions/{iid}/itok-{iid}/callback");
    assert_eq!(call(&fake, "POST", &path, answer).await.0, 204);
    let m = fake.channel(CHANNEL).pop().expect("the answer");
    assert_eq!(m.ephemeral_for, Some(1001));
    let path = format!("/channels/{CHANNEL}/messages/{}", m.id);
    assert_eq!(
        call(&fake, "PATCH", &path, json!({"content": "x"})).await,
        (404, Some(10008))
    );
    assert_eq!(call(&fake, "DELETE", &path, json!({})).await, (404, Some(10008)));
    // Through its interaction's token it is edited.
    let path = format!("/webhooks/{APP}/itok-{iid}/messages/@original");
    assert_eq!(
        call(&fake, "PATCH", &path, json!({"content": "edited"})).await.0,
        200
    );
    assert_eq!(fake.channel(CHANNEL)[0].versions, ["only Anna sees it", "edited"]);
    assert_eq!(noted(&fake), [10008, 10008]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_over_2000_characters_is_an_invalid_form_body() {
    let fake = Fake::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    // Characters, not bytes: 2000 two-byte letters are taken.
    let most = "ā".repeat(fake::CONTENT_MAX);
    assert_eq!(call(&fake, "POST", &path, json!({"content": most})).await.0, 200);
    let over = "a".repeat(fake::CONTENT_MAX + 1);
    assert_eq!(
        call(&fake, "POST", &path, json!({"content": over})).await,
        (400, Some(50035))
    );
    // An edit to it likewise.
    let id = fake.channel(CHANNEL)[0].id;
    let edit = format!("/channels/{CHANNEL}/messages/{id}");
    assert_eq!(
        call(&fake, "PATCH", &edit, json!({"content": over})).await,
        (400, Some(50035))
    );
    assert_eq!(fake.channel(CHANNEL).len(), 1);
    assert_eq!(fake.channel(CHANNEL)[0].versions.len(), 1);
    assert_eq!(noted(&fake), [50035, 50035]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embeds_over_their_limits_are_an_invalid_form_body() {
    let fake = Fake::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let embed = |n: usize| json!({"description": "d".repeat(n)});
    let taken = [
        json!({"embeds": [embed(4096)]}),
        json!({"embeds": [embed(3000), embed(3000)]}),
        json!({"embeds": vec![embed(1); 10]}),
    ];
    for body in taken {
        assert_eq!(call(&fake, "POST", &path, body).await.0, 200);
    }
    let refused = [
        json!({"embeds": [embed(4097)]}),
        json!({"embeds": [embed(3000), embed(3001)]}),
        json!({"embeds": vec![embed(1); 11]}),
        json!({"embeds": [{"title": "t".repeat(257), "description": "d"}]}),
        json!({"embeds": [{"description": "d", "footer": {"text": "f".repeat(2049)}}]}),
        json!({"embeds": [{"description": "d", "fields": vec![json!({"name": "n", "value": "v"}); 26]}]}),
        json!({"embeds": [{"description": "d", "fields": [{"name": "n", "value": "v".repeat(1025)}]}]}),
    ];
    let n = refused.len();
    for body in refused {
        assert_eq!(
            call(&fake, "POST", &path, body.clone()).await,
            (400, Some(50035)),
            "{body}"
        );
    }
    assert_eq!(fake.channel(CHANNEL).len(), 3);
    assert_eq!(noted(&fake), vec![50035; n]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buttons_over_their_limits_are_an_invalid_form_body() {
    let fake = Fake::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let five = |r: usize| row((0..5).map(|b| button("b", &format!("r{r}b{b}"))).collect());
    let id = |n: usize| "i".repeat(n);
    let taken = [
        json!({"content": "c", "components": (0..5).map(five).collect::<Vec<_>>()}),
        json!({"content": "c", "components": [row(vec![button(&"l".repeat(80), &id(100))])]}),
    ];
    for body in taken {
        assert_eq!(call(&fake, "POST", &path, body).await.0, 200);
    }
    let refused = [
        // Six rows.
        json!({"content": "c", "components": (0..6).map(five).collect::<Vec<_>>()}),
        // Six buttons in a row.
        json!({"content": "c", "components": [row((0..6).map(|b| button("b", &format!("b{b}"))).collect())]}),
        // An empty row.
        json!({"content": "c", "components": [row(vec![])]}),
        // A custom id over 100 characters, or none.
        json!({"content": "c", "components": [row(vec![button("b", &id(101))])]}),
        json!({"content": "c", "components": [row(vec![button("b", "")])]}),
        // A label over 80 characters, or no label.
        json!({"content": "c", "components": [row(vec![button(&"l".repeat(81), "x")])]}),
        json!({"content": "c", "components": [row(vec![button("", "x")])]}),
        // One custom id twice.
        json!({"content": "c", "components": [row(vec![button("a", "x")]), row(vec![button("b", "x")])]}),
    ];
    let n = refused.len();
    for body in refused {
        assert_eq!(
            call(&fake, "POST", &path, body.clone()).await,
            (400, Some(50035)),
            "{body}"
        );
    }
    assert_eq!(fake.channel(CHANNEL).len(), 2);
    assert_eq!(noted(&fake), vec![50035; n]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_message_is_refused() {
    let fake = Fake::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let buttons = json!([row(vec![button("b", "x")])]);
    for body in [
        json!({}),
        json!({"content": ""}),
        json!({"embeds": []}),
        json!({"components": buttons}),
    ] {
        assert_eq!(
            call(&fake, "POST", &path, body.clone()).await,
            (400, Some(50006)),
            "{body}"
        );
    }
    let id = post(&fake, CHANNEL, json!({"content": "c"})).await;
    let edit = format!("/channels/{CHANNEL}/messages/{id}");
    // An edit that leaves it empty is refused; one of its buttons only is taken.
    assert_eq!(
        call(&fake, "PATCH", &edit, json!({"content": ""})).await,
        (400, Some(50006))
    );
    assert_eq!(
        call(&fake, "PATCH", &edit, json!({"components": buttons}))
            .await
            .0,
        200
    );
    assert_eq!(fake.channel(CHANNEL)[0].text, "c");
    assert_eq!(noted(&fake), [50006; 5]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_and_edits_need_the_interactions_token_and_its_response() {
    let fake = fake_with_silent_endpoint().await;
    let anna = Person::new(1001, "Anna");
    let iid = fake.slash_nowait(&anna, CHANNEL, "zole", json!([]));
    let token = format!("itok-{iid}");
    let text = json!({"content": "later"});
    let followup = |app: u64, token: &str| format!("/webhooks/{app}/{token}");
    let original = |token: &str| format!("/webhooks/{APP}/{token}/messages/@original");
    // Before the interaction's first response: Unknown Webhook.
    assert_eq!(
        call(&fake, "POST", &followup(APP, &token), text.clone()).await,
        (404, Some(10015))
    );
    assert_eq!(
        call(&fake, "PATCH", &original(&token), text.clone()).await,
        (404, Some(10015))
    );
    let defer = format!("/interactions/{iid}/{token}/callback");
    assert_eq!(call(&fake, "POST", &defer, json!({"type": 5})).await.0, 204);
    // A token Discord never gave, another application: refused.
    assert_eq!(
        call(&fake, "POST", &followup(APP, "itok-1"), text.clone()).await,
        (401, Some(50027))
    );
    assert_eq!(
        call(&fake, "PATCH", &original("itok-1"), text.clone()).await,
        (401, Some(50027))
    );
    assert_eq!(
        call(&fake, "POST", &followup(APP + 1, &token), text.clone()).await,
        (404, Some(10015))
    );
    // Over the limits, or empty.
    let long = json!({"content": "a".repeat(2001)});
    assert_eq!(
        call(&fake, "POST", &followup(APP, &token), long.clone()).await,
        (400, Some(50035))
    );
    assert_eq!(
        call(&fake, "PATCH", &original(&token), long).await,
        (400, Some(50035))
    );
    assert_eq!(
        call(&fake, "POST", &followup(APP, &token), json!({})).await,
        (400, Some(50006))
    );
    assert!(fake.channel(CHANNEL).is_empty(), "{:#?}", fake.channel(CHANNEL));
    // With its token, after the response: taken.
    assert_eq!(call(&fake, "PATCH", &original(&token), text.clone()).await.0, 200);
    assert_eq!(
        call(&fake, "POST", &followup(APP, &token), text.clone()).await.0,
        200
    );
    assert_eq!(fake.channel(CHANNEL).len(), 2);
    // A follow-up is edited by its id through the token; a message of the channel is not.
    let [first, second] = [fake.channel(CHANNEL)[0].id, fake.channel(CHANNEL)[1].id];
    let edit = |m: u64| format!("/webhooks/{APP}/{token}/messages/{m}");
    assert_eq!(call(&fake, "PATCH", &edit(second), text.clone()).await.0, 200);
    let other = post(&fake, CHANNEL, json!({"content": "another"})).await;
    assert_eq!(
        call(&fake, "PATCH", &edit(other), text.clone()).await,
        (404, Some(10008))
    );
    assert_ne!(first, second);
    assert_eq!(
        noted(&fake),
        [10015, 10015, 50027, 50027, 10015, 50035, 50035, 50006, 10008]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_response_is_checked_before_it_is_taken() {
    let fake = fake_with_silent_endpoint().await;
    let anna = Person::new(1001, "Anna");
    let iid = fake.slash_nowait(&anna, CHANNEL, "zole", json!([]));
    let path = |token: &str| format!("/interactions/{iid}/{token}/callback");
    let ok = json!({"type": 4, "data": {"content": "opened"}});
    // Another interaction's token: Unknown interaction.
    assert_eq!(
        call(&fake, "POST", &path("itok-1"), ok.clone()).await,
        (404, Some(10062))
    );
    let token = format!("itok-{iid}");
    let long = json!({"type": 4, "data": {"content": "a".repeat(2001)}});
    assert_eq!(call(&fake, "POST", &path(&token), long).await, (400, Some(50035)));
    assert_eq!(
        call(&fake, "POST", &path(&token), json!({"type": 4, "data": {}})).await,
        (400, Some(50006))
    );
    // A command has no message to update.
    let update = json!({"type": 7, "data": {"content": "x"}});
    assert_eq!(
        call(&fake, "POST", &path(&token), update).await,
        (400, Some(50035))
    );
    assert_eq!(
        call(&fake, "POST", &path(&token), json!({"type": 6})).await,
        (400, Some(50035))
    );
    // None of those was taken as the response: a good one still is.
    assert_eq!(call(&fake, "POST", &path(&token), ok).await.0, 204);
    assert_eq!(fake.channel(CHANNEL)[0].text, "opened");

    // A press's update is checked as any message.
    let msg = post(&fake, CHANNEL, json!({"content": "table"})).await;
    let press = fake.press_nowait(&anna, msg, "x");
    let path = format!("/interactions/{press}/itok-{press}/callback");
    let six = (0..6).map(|b| button("b", &format!("b{b}"))).collect();
    let bad = json!({"type": 7, "data": {"content": "t", "components": [row(six)]}});
    assert_eq!(call(&fake, "POST", &path, bad).await, (400, Some(50035)));
    let good = json!({"type": 7, "data": {"content": "table 2"}});
    assert_eq!(call(&fake, "POST", &path, good).await.0, 204);
    let shown = fake.state.msgs.lock().unwrap()[&msg].versions.clone();
    assert_eq!(shown, ["table", "table 2"]);
    assert_eq!(noted(&fake), [10062, 50035, 50006, 50035, 50035, 50035]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_needs_a_name_of_1_to_100_characters_in_a_server_channel() {
    let fake = Fake::start().await;
    let thread = |c: u64| format!("/channels/{c}/threads");
    let name = |n: usize| json!({"name": "n".repeat(n), "type": 11});
    assert_eq!(call(&fake, "POST", &thread(CHANNEL), name(100)).await.0, 200);
    assert_eq!(
        call(&fake, "POST", &thread(CHANNEL), name(101)).await,
        (400, Some(50035))
    );
    assert_eq!(
        call(&fake, "POST", &thread(CHANNEL), name(0)).await,
        (400, Some(50035))
    );
    assert_eq!(
        call(&fake, "POST", &thread(DM_OFFSET + 1001), name(5)).await,
        (400, Some(50024))
    );
    assert_eq!(fake.threads().len(), 1);
    assert_eq!(noted(&fake), [50035, 50035, 50024]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_only_as_discord_takes_them() {
    let fake = Fake::start().await;
    let path = format!("/applications/{APP}/commands");
    let option = |name: &str, required: bool| json!({"type": 3, "name": name, "description": "d", "required": required});
    let command = |name: &str, description: &str, options: Vec<Value>| json!({"type": 1, "name": name, "description": description, "options": options});
    let good = json!([
        command(
            "zole",
            "Opens a table",
            vec![option("a", true), option("b", false)]
        ),
        command("top", &"d".repeat(100), vec![]),
    ]);
    assert_eq!(call(&fake, "PUT", &path, good).await.0, 200);
    let refused = [
        json!([command("Zole", "d", vec![])]),
        json!([command("zole table", "d", vec![])]),
        json!([command(&"z".repeat(33), "d", vec![])]),
        json!([command("zole", "", vec![])]),
        json!([command("zole", &"d".repeat(101), vec![])]),
        json!([command("zole", "d", vec![]), command("zole", "d", vec![])]),
        json!([command("zole", "d", vec![option("b", false), option("a", true)])]),
        json!([command(
            "zole",
            "d",
            (0..26).map(|i| option(&format!("o{i}"), false)).collect()
        )]),
        json!([{"type": 1, "name": "zole", "description": "d", "description_localizations": {"ru": ""}}]),
    ];
    let n = refused.len();
    for body in refused {
        assert_eq!(
            call(&fake, "PUT", &path, body.clone()).await,
            (400, Some(50035)),
            "{body}"
        );
    }
    assert_eq!(noted(&fake), vec![50035; n]);
}

/// OAuth2's token exchange as Discord answers it: form-encoded, the application's client id
/// and secret, a code good once and for ten minutes. (The codes refused are the person's
/// doing, not the bot's: only a call that is not form-encoded is noted as the bot's.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_exchange_takes_a_code_once_with_the_client_secret_and_in_time() {
    let fake = Fake::start().await;
    let anna = Person::new(1001, "Anna");
    let exchange = |fields: Vec<(&'static str, String)>| {
        let url = format!("{}/api/v10/oauth2/token", fake.url);
        async move {
            let r = reqwest::Client::new()
                .post(url)
                .form(&fields)
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            let v: Value = r.json().await.unwrap_or(Value::Null);
            (status, v)
        }
    };
    let good = |code: String| {
        vec![
            ("client_id", APP.to_string()),
            ("client_secret", fake::activity::CLIENT_SECRET.to_string()),
            ("grant_type", "authorization_code".to_string()),
            ("code", code),
        ]
    };
    let code = fake.authorize(&anna);
    let mut wrong_secret = good(code.clone());
    wrong_secret[1].1 = "not-the-secret".into();
    let (s, v) = exchange(wrong_secret).await;
    assert_eq!((s, v["error"].as_str()), (401, Some("invalid_client")));
    let mut wrong_grant = good(code.clone());
    wrong_grant[2].1 = "client_credentials".into();
    assert_eq!(exchange(wrong_grant).await.1["error"], "unsupported_grant_type");
    let (s, v) = exchange(good(code.clone())).await;
    assert_eq!(s, 200, "{v}");
    let token = v["access_token"].as_str().unwrap().to_string();
    assert_eq!(
        (v["token_type"].as_str(), v["scope"].as_str()),
        (Some("Bearer"), Some("identify"))
    );
    for (what, code) in [
        ("used", code),
        ("expired", fake.expired_code(&anna)),
        ("forged", "code-made-up".to_string()),
    ] {
        let (s, v) = exchange(good(code)).await;
        assert_eq!(
            (s, v["error"].as_str()),
            (400, Some("invalid_grant")),
            "{what}: {v}"
        );
    }
    assert_eq!(fake.codes_exchanged(), 1);
    assert!(fake.refusals().is_empty(), "{:?}", fake.refusals());
    // JSON is not what OAuth2 takes.
    let (s, _) = call(
        &fake,
        "POST",
        "/oauth2/token",
        json!({"code": fake.authorize(&anna)}),
    )
    .await;
    assert_eq!(s, 400);
    assert_eq!(fake.refusals().len(), 1, "noted as the bot's");

    // The user's token reads the user; another is unauthorized.
    let me = |auth: String| {
        let url = format!("{}/api/v10/users/@me", fake.url);
        async move {
            let r = reqwest::Client::new()
                .get(url)
                .header("authorization", auth)
                .send()
                .await
                .unwrap();
            (
                r.status().as_u16(),
                r.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    let (s, v) = me(format!("Bearer {token}")).await;
    assert_eq!((s, v["id"].as_str()), (200, Some("1001")));
    assert_eq!(me("Bearer at-forged".into()).await.0, 401);
    assert_eq!(me(format!("Bot {token}")).await.0, 401);
}

/// An activity instance is read with the bot's token, by its own application only; one
/// unknown (or another application's) is 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_activity_instance_is_known_to_its_application_with_the_bot_token() {
    let fake = Fake::start().await;
    let anna = Person::new(1001, "Anna");
    let id = fake.launch(Some(fake::GUILD), CHANNEL, &[&anna]);
    let read = |app: u64, id: String, auth: &'static str| {
        let url = format!("{}/api/v10/applications/{app}/activity-instances/{id}", fake.url);
        async move {
            let r = reqwest::Client::new()
                .get(url)
                .header("authorization", auth)
                .send()
                .await
                .unwrap();
            (
                r.status().as_u16(),
                r.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    let (s, v) = read(APP, id.clone(), "Bot fake-token").await;
    assert_eq!(s, 200);
    assert_eq!(v["location"]["channel_id"], CHANNEL.to_string());
    assert_eq!(v["location"]["guild_id"], fake::GUILD.to_string());
    assert_eq!(v["users"], json!(["1001"]));
    assert_eq!(
        read(APP + 1, id.clone(), "Bot fake-token").await.0,
        404,
        "another application's"
    );
    assert_eq!(
        read(APP, "i-1-gc-1-2".into(), "Bot fake-token").await.0,
        404,
        "unknown"
    );
    assert!(fake.refusals().is_empty());
    assert_eq!(
        read(APP, id, "Bearer at-1").await.0,
        401,
        "not with a user's token"
    );
    assert_eq!(fake.refusals().len(), 1, "noted as the bot's");
}
