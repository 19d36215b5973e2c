//! The fake Discord's side of an Activity: OAuth2's authorization codes and their exchange
//! (`POST /oauth2/token`), the user's own token (`GET /users/@me`) and activity instances
//! (`GET /applications/{app}/activity-instances/{instance}`), answered as Discord answers
//! them: a code is good once and for ten minutes, the client secret must be the
//! application's, an instance is known only to its application and read with the bot's token.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, State as AxState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::{count, refuse, unix_ms, Fake, Person, Refusal, St, APP, BOT_USER};

/// The application's client secret, as the developer portal would show it.
pub const CLIENT_SECRET: &str = "fake-client-secret";
/// How long an authorization code lives (Discord: 10 minutes).
pub const CODE_LIFE_MS: i64 = 10 * 60 * 1000;

#[derive(Default)]
pub struct OAuth {
    /// Codes `authorize` gave: (the person, when, used).
    codes: HashMap<String, (Value, i64, bool)>,
    /// Access tokens: the person.
    tokens: HashMap<String, Value>,
    /// Activity instances by id.
    instances: HashMap<String, Value>,
    /// Codes exchanged, tokens read and instances checked, for the tests.
    pub exchanged: u64,
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

/// `POST /oauth2/token`: the code exchange (form-encoded, as OAuth2 wants).
pub async fn token(AxState(st): St, headers: HeaderMap, body: Bytes) -> Response {
    count(&st, "POST oauth2/token", "POST oauth2/token".into());
    let form = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let fields: HashMap<String, String> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let field = |k: &str| fields.get(k).map(String::as_str).unwrap_or("");
    if !form {
        let why = "the token exchange is not form-encoded";
        return refuse(
            &st,
            "POST oauth2/token",
            Refusal::new(StatusCode::BAD_REQUEST, 0, "invalid_request", why),
        );
    }
    if field("grant_type") != "authorization_code" {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
        );
    }
    if field("client_id") != APP.to_string() || field("client_secret") != CLIENT_SECRET {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "Invalid client");
    }
    let mut oauth = st.oauth.lock().unwrap();
    let now = unix_ms();
    let user = match oauth.codes.get_mut(field("code")) {
        Some((user, at, used)) if !*used && now - *at < CODE_LIFE_MS => {
            *used = true;
            user.clone()
        }
        _ => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "Invalid \"code\" in request.",
            )
        }
    };
    oauth.exchanged += 1;
    let access = format!("at-{}", st.id());
    oauth.tokens.insert(access.clone(), user);
    Json(
        json!({"access_token": access, "token_type": "Bearer", "expires_in": 604800,
                "refresh_token": format!("rt-{}", st.id()), "scope": "identify"}),
    )
    .into_response()
}

/// `GET /users/@me`: the person a Bearer token is theirs, or the bot itself.
pub async fn me(AxState(st): St, headers: HeaderMap) -> Response {
    count(&st, "GET users/@me", "GET users/@me".into());
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth == "Bot fake-token" {
        return Json(
            json!({"id": BOT_USER.to_string(), "username": "stikis", "discriminator": "0",
                           "global_name": null, "avatar": null, "bot": true}),
        )
        .into_response();
    }
    let user = auth
        .strip_prefix("Bearer ")
        .and_then(|t| st.oauth.lock().unwrap().tokens.get(t).cloned());
    match user {
        Some(u) => Json(u).into_response(),
        None => (
            StatusCode::UNAUTHORIZED,
            Json(json!({"message": "401: Unauthorized", "code": 0})),
        )
            .into_response(),
    }
}

/// `GET /applications/{app}/activity-instances/{instance}`, with the bot's token.
pub async fn instance(
    AxState(st): St,
    Path((app, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let route = "GET applications/activity-instances";
    count(&st, route, format!("GET activity instance {id}"));
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth != "Bot fake-token" {
        let why = format!("an instance read with {auth:?}, not the bot's token");
        return refuse(
            &st,
            route,
            Refusal::new(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized", why),
        );
    }
    let found = (app == APP.to_string())
        .then(|| st.oauth.lock().unwrap().instances.get(&id).cloned())
        .flatten();
    match found {
        Some(v) => Json(v).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"message": "Unknown Application", "code": 10002})),
        )
            .into_response(),
    }
}

impl Fake {
    /// What Discord's `authorize` gives `p`'s Activity page: a code, good once for 10 minutes.
    pub fn authorize(&self, p: &Person) -> String {
        self.code_at(p, unix_ms())
    }

    /// A code `authorize` gave `p` more than 10 minutes ago.
    pub fn expired_code(&self, p: &Person) -> String {
        self.code_at(p, unix_ms() - CODE_LIFE_MS - 1000)
    }

    fn code_at(&self, p: &Person, at: i64) -> String {
        let code = format!("code{}x{}", self.state.id(), p.id);
        self.state
            .oauth
            .lock()
            .unwrap()
            .codes
            .insert(code.clone(), (p.json(), at, false));
        code
    }

    /// The Activity launched in `channel` (of the server, or of `guild`: None for a direct
    /// message) with `people` in it; its instance id, as Discord writes them.
    pub fn launch(&self, guild: Option<u64>, channel: u64, people: &[&Person]) -> String {
        let launch = self.state.id();
        let (kind, place) = match guild {
            Some(g) => ("gc", format!("gc-{g}-{channel}")),
            None => ("pc", format!("pc-{channel}")),
        };
        let id = format!("i-{launch}-{place}");
        let users: Vec<String> = people.iter().map(|p| p.id.to_string()).collect();
        let v = json!({"application_id": APP.to_string(), "instance_id": id, "launch_id": launch.to_string(),
                       "location": {"id": place, "kind": kind, "channel_id": channel.to_string(),
                                    "guild_id": guild.map(|g| g.to_string())},
                       "users": users});
        self.state.oauth.lock().unwrap().instances.insert(id.clone(), v);
        id
    }

    /// Codes exchanged so far.
    pub fn codes_exchanged(&self) -> u64 {
        self.state.oauth.lock().unwrap().exchanged
    }
}
