//! The live table as a Discord Activity: the same page, inside Discord.
//!
//! - `/play/activity` (and the site's root `/` when Discord opens it with its `frame_id`, as it
//!   opens an Activity at the root of its URL mapping): a page that starts the Embedded App
//!   SDK (the vendored bundle `/static/discord-sdk.mjs`, `discord-sdk.LICENSES` beside it),
//!   waits for `ready()`, asks `authorize` for a code (scope `identify`) and posts it here.
//! - `POST /play/activity/session` (`code`, `instance`, `lang`): the sign-in. The platform
//!   (`Activity`, the Discord bot's) exchanges the code for an access token with the
//!   application's secret, which never reaches a page, reads who the person is with it, and
//!   checks the activity instance with the bot's token: it must be this application's, the
//!   person must be in it, and it must be in a server. The answer names the tables the
//!   person may open there, each with their personal key (as the Mini App's session does):
//!   the table of the instance's channel; else, in the server, those they sit at; else those
//!   they may watch. The page then calls `authenticate` with the access token and draws the
//!   table in place (an Activity is one page: leaving it would end the SDK's connection),
//!   through the same feed and taps as any live table. A forged or used code, another
//!   application's or an unknown instance, and a person not in it are refused with one answer
//!   each, change nothing, and are counted and logged without the credential.

use axum::extract::rejection::FormRejection;
use axum::extract::{Form, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use maud::html;
use serde::Deserialize;
use serde_json::json;
use stikis_host::i18n::{t, Arg, Lang};
use stikis_host::links::{play_key, table_ref, PLAY_LINK_SECS};
use stikis_host::store::{ChatRef, CommunityRef, Occupant, TableRow};

use crate::page;
use crate::play::{asset, header_lang, lang_named, now_s, script_csp, Play, Refusal};

/// Where the Activity page loads the SDK from (the vendored bundle, served by the bot).
pub const DISCORD_SDK: &str = "/static/discord-sdk.mjs";

/// The vendored SDK: `@discord/embedded-app-sdk` bundled for browsers
/// (`web/vendor/refresh-discord-sdk.sh`).
const SDK: &str = include_str!("discord-sdk.mjs");
const SDK_LICENSES: &str = include_str!("discord-sdk.LICENSES");

/// How many tables a person is offered to choose from at most.
const CHOICES: usize = 10;

/// The platform's half of an Activity's sign-in (the Discord bot's).
pub trait Activity: Send + Sync {
    /// The application's client id: the page starts the SDK with it.
    fn client_id(&self) -> &str;

    /// Exchanges an `authorize` code for the person's access token, reads who they are, and
    /// checks that they are in the activity instance `instance` of this application, in a
    /// server. A code, token or instance the platform refuses is `Refused` (with the reason
    /// counted); a platform that could not be asked is `Unavailable`.
    fn sign_in<'a>(
        &'a self,
        code: &'a str,
        instance: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<SignedIn, SignInError>>;
}

/// A person signed in to an Activity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    /// Their id on the platform (as the chat seats them).
    pub user: String,
    /// Their access token, for the page's `authenticate` (never kept or logged).
    pub access_token: String,
    /// The channel the instance runs in (its server is the chat's community).
    pub chat: ChatRef,
}

/// Why a sign-in failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInError {
    /// The platform refused the code, the token or the instance (`reason` is counted).
    Refused(&'static str),
    /// The platform could not be asked, or answered what it should not: try again.
    Unavailable(String),
}

async fn sdk() -> Response {
    asset("text/javascript; charset=utf-8", "public, max-age=3600", SDK)
}

async fn sdk_licenses() -> Response {
    asset("text/plain; charset=utf-8", "public, max-age=3600", SDK_LICENSES)
}

/// The Activity's routes (only when the bot is set up as one).
pub(crate) fn routes() -> axum::Router<Play> {
    axum::Router::new()
        .route("/play/activity", axum::routing::get(activity_page))
        .route("/play/activity/session", axum::routing::post(session))
        .route("/static/discord-sdk.mjs", axum::routing::get(sdk))
        .route("/static/discord-sdk.LICENSES", axum::routing::get(sdk_licenses))
}

/// The Activity's page in `lang` (its body is drawn by `play.js` once the person is signed
/// in), or None when the bot is not set up as an Activity.
pub(crate) fn page_in(p: &Play, lang: Lang) -> Option<Response> {
    let activity = p.activity.as_ref()?;
    let body = html! {
        div #activity
            data-client=(activity.client_id())
            data-sdk=(p.discord_sdk)
            data-lost=(t(lang, "play-lost", &[]))
            data-choose=(t(lang, "activity-choose", &[]))
        {
            p #status role="status" { (t(lang, "play-connecting", &[])) }
        }
        script src="/static/play.js" {}
    };
    let mut res = (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Html(page::layout(lang, "stikis", "/play/activity", body)),
    )
        .into_response();
    res.headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, script_csp(&p.discord_sdk));
    Some(res)
}

#[derive(Deserialize)]
struct PageQuery {
    #[serde(default)]
    lang: Option<String>,
}

async fn activity_page(
    State(p): State<Play>,
    headers: HeaderMap,
    q: Result<axum::extract::Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let lang = lang_named(q.ok().and_then(|q| q.0.lang).as_deref())
        .or(header_lang(&headers))
        .unwrap_or(Lang::En);
    page_in(&p, lang).unwrap_or_else(|| crate::not_found(lang))
}

#[derive(Deserialize)]
struct SessionForm {
    #[serde(default)]
    code: String,
    #[serde(default)]
    instance: String,
    /// The language of the person's Discord (or browser), for the answer.
    #[serde(default)]
    lang: Option<String>,
}

/// Whether `s` could be an instance id or a code (what Discord's are made of): anything
/// else is refused before the platform is asked.
fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_:.".contains(&b))
}

async fn session(
    State(p): State<Play>,
    headers: HeaderMap,
    f: Result<Form<SessionForm>, FormRejection>,
) -> Response {
    let fallback = header_lang(&headers).unwrap_or(Lang::En);
    let Some(activity) = &p.activity else {
        return crate::not_found(fallback);
    };
    let Ok(Form(f)) = f else {
        return Refusal::Malformed.counted("malformed").json(fallback, "error");
    };
    let lang = lang_named(f.lang.as_deref()).unwrap_or(fallback);
    if !plain(&f.code) || !plain(&f.instance) {
        return Refusal::Forged.counted("activity_malformed").json(lang, "error");
    }
    let signed = match activity.sign_in(&f.code, &f.instance).await {
        Ok(s) => s,
        Err(SignInError::Refused(reason)) => return Refusal::Forged.counted(reason).json(lang, "error"),
        Err(SignInError::Unavailable(e)) => {
            tracing::warn!(error = %e, "an Activity's sign-in could not reach the platform");
            return Refusal::PlatformUnavailable
                .counted("platform_unavailable")
                .json(lang, "error");
        }
    };
    let tables = match offered(&p, &signed).await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %e, "an Activity's session could not read its tables");
            return Refusal::Unavailable
                .counted("store_unavailable")
                .json(lang, "error");
        }
    };
    if tables.is_empty() {
        tracing::info!(reason = "no_table", "an Activity found no table to open");
        metrics::counter!("stikis_play_refused_total", "reason" => "no_table").increment(1);
        return (
            axum::http::StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
            Json(json!({ "error": t(lang, "activity-no-table", &[]) })),
        )
            .into_response();
    }
    let expires = now_s() + PLAY_LINK_SECS;
    let tables: Vec<_> = tables
        .iter()
        .map(|row| {
            let game = &row.game;
            json!({
                "table": table_ref(&p.secret, row.id),
                "k": play_key(&p.secret, row.id, &signed.user, expires),
                "title": t(lang, "play-title", &[("game", stikis_host::games::game_title(lang, game).into()), ("table", Arg::from(row.id))]),
            })
        })
        .collect();
    metrics::counter!("stikis_play_activity_sessions_total").increment(1);
    (
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Json(json!({ "access_token": signed.access_token, "tables": tables })),
    )
        .into_response()
}

/// The open tables a signed-in person is offered: the table of the
/// instance's channel when it has one; else, in the instance's server, the tables they sit at,
/// else every table there (to watch). The person is in the instance, which is in the server,
/// so the platform vouches that they belong to each.
async fn offered(p: &Play, signed: &SignedIn) -> stikis_host::store::Result<Vec<TableRow>> {
    let store = p.host.store();
    let rows = match store.open_table(&signed.chat).await? {
        Some(row) => vec![row],
        None => {
            let all = store
                .open_tables(&CommunityRef::new(
                    signed.chat.platform,
                    signed.chat.community.clone(),
                ))
                .await?
                .into_iter()
                .filter(|r| r.chat.platform == signed.chat.platform)
                .collect::<Vec<_>>();
            let mut seated = Vec::new();
            for row in &all {
                let seats = store.seats(row.id).await?;
                if seats
                    .iter()
                    .any(|s| matches!(&s.occupant, Occupant::Human { user_id } if *user_id == signed.user))
                {
                    seated.push(row.clone());
                }
            }
            if seated.is_empty() {
                all
            } else {
                seated
            }
        }
    };
    Ok(rows
        .into_iter()
        .filter(|r| r.status.is_open())
        .take(CHOICES)
        .collect())
}

/// Serves the Activity's page at the site's root when Discord opens it there (its `frame_id`
/// in the query), if the bot is set up as an Activity.
/// The root's language is the page's `lang`, else the browser's (Discord's own).
pub(crate) fn at_root(
    p: &Option<Play>,
    frame_id: bool,
    headers: &HeaderMap,
    asked: Option<Lang>,
) -> Option<Response> {
    if !frame_id {
        return None;
    }
    page_in(p.as_ref()?, asked.or(header_lang(headers)).unwrap_or(Lang::En))
}
