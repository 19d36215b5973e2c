//! The live table as a Discord Activity: the sign-in's Discord half
//! (`stikis_web::activity::Activity`) and the "Open the table" button's answer.
//!
//! The page's `authorize` code is exchanged for the person's access token with the
//! application's client secret (`POST /oauth2/token`), which never leaves this process; the
//! person is read with the token (`GET /users/@me`); the instance is checked with the bot's
//! token (`GET /applications/{app}/activity-instances/{instance}`): it must be this
//! application's, in a server, and hold the person. Nothing of a code or a token is logged.

use std::time::Duration;

use futures_util::future::BoxFuture;
use poise::serenity_prelude as serenity;
use serde::Deserialize;
use stikis_web::activity::{SignInError, SignedIn};

/// The application's OAuth2 client, for the Activity (`--activity`).
#[derive(Debug, Clone)]
pub struct ActivityConfig {
    /// The application's client id (developer portal, OAuth2).
    pub client_id: String,
    /// Its client secret (same page): only this process holds it.
    pub client_secret: String,
}

/// How long one call to Discord may take before the sign-in is answered "try again".
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// The Activity's sign-in against Discord's API (or the tests' fake, `Config::api_url`).
pub struct DiscordActivity {
    http: reqwest::Client,
    /// `https://discord.com/api/v10`, or the fake's.
    api: String,
    config: ActivityConfig,
    bot_token: String,
}

impl DiscordActivity {
    pub fn new(config: ActivityConfig, api_url: Option<&str>, bot_token: &str) -> DiscordActivity {
        let base = api_url.unwrap_or("https://discord.com").trim_end_matches('/');
        DiscordActivity {
            http: reqwest::Client::builder()
                .timeout(CALL_TIMEOUT)
                .build()
                .unwrap_or_default(),
            api: format!("{base}/api/v10"),
            config,
            bot_token: bot_token.to_string(),
        }
    }

    async fn exchange(&self, code: &str) -> Result<String, SignInError> {
        #[derive(Deserialize)]
        struct Token {
            access_token: String,
        }
        let res = self
            .http
            .post(format!("{}/oauth2/token", self.api))
            .form(&[
                ("client_id", self.config.client_id.as_str()),
                ("client_secret", self.config.client_secret.as_str()),
                ("grant_type", "authorization_code"),
                ("code", code),
            ])
            .send()
            .await
            .map_err(unavailable("the token exchange"))?;
        match res.status().as_u16() {
            200 => Ok(res
                .json::<Token>()
                .await
                .map_err(unavailable("the token exchange's answer"))?
                .access_token),
            // Discord's answer to a wrong client secret: the set-up is wrong, not the person.
            401 => {
                tracing::error!("Discord refused the application's client secret (DISCORD_CLIENT_SECRET)");
                Err(SignInError::Unavailable("the client secret was refused".into()))
            }
            // invalid_grant: a code that is forged, used or expired.
            400 => Err(SignInError::Refused("activity_code")),
            s => Err(SignInError::Unavailable(format!(
                "the token exchange answered {s}"
            ))),
        }
    }

    async fn user(&self, access_token: &str) -> Result<String, SignInError> {
        #[derive(Deserialize)]
        struct Me {
            id: String,
        }
        let res = self
            .http
            .get(format!("{}/users/@me", self.api))
            .bearer_auth(access_token)
            .send()
            .await
            .map_err(unavailable("reading the user"))?;
        match res.status().as_u16() {
            200 => Ok(res
                .json::<Me>()
                .await
                .map_err(unavailable("the user's answer"))?
                .id),
            401 => Err(SignInError::Refused("activity_token")),
            s => Err(SignInError::Unavailable(format!("reading the user answered {s}"))),
        }
    }

    async fn instance(&self, instance: &str) -> Result<Instance, SignInError> {
        let res = self
            .http
            .get(format!(
                "{}/applications/{}/activity-instances/{instance}",
                self.api, self.config.client_id
            ))
            .header("Authorization", format!("Bot {}", self.bot_token))
            .send()
            .await
            .map_err(unavailable("the instance check"))?;
        match res.status().as_u16() {
            200 => res
                .json::<Instance>()
                .await
                .map_err(unavailable("the instance's answer")),
            // Unknown, ended, or another application's.
            404 => Err(SignInError::Refused("activity_instance")),
            s => Err(SignInError::Unavailable(format!(
                "the instance check answered {s}"
            ))),
        }
    }
}

fn unavailable(what: &'static str) -> impl Fn(reqwest::Error) -> SignInError {
    // reqwest's error names the URL, which holds no credential here (codes and tokens go in
    // bodies and headers).
    move |e| SignInError::Unavailable(format!("{what}: {e}"))
}

/// An activity instance as Discord describes it.
#[derive(Debug, Deserialize)]
struct Instance {
    application_id: String,
    location: Location,
    #[serde(default)]
    users: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Location {
    channel_id: String,
    #[serde(default)]
    guild_id: Option<String>,
}

impl stikis_web::activity::Activity for DiscordActivity {
    fn client_id(&self) -> &str {
        &self.config.client_id
    }

    fn sign_in<'a>(
        &'a self,
        code: &'a str,
        instance: &'a str,
    ) -> BoxFuture<'a, Result<SignedIn, SignInError>> {
        Box::pin(async move {
            let access_token = self.exchange(code).await?;
            let user = self.user(&access_token).await?;
            let found = self.instance(instance).await?;
            if found.application_id != self.config.client_id {
                return Err(SignInError::Refused("activity_instance"));
            }
            if !found.users.contains(&user) {
                return Err(SignInError::Refused("activity_not_in_instance"));
            }
            let Some(guild) = found.location.guild_id else {
                return Err(SignInError::Refused("activity_no_server"));
            };
            let id = |s: &str| s.parse::<u64>().ok().filter(|&n| n > 0);
            let (Some(guild), Some(channel)) = (id(&guild), id(&found.location.channel_id)) else {
                return Err(SignInError::Unavailable(
                    "an instance's location is not Discord ids".into(),
                ));
            };
            Ok(SignedIn {
                user,
                access_token,
                chat: crate::chat_ref(
                    Some(serenity::GuildId::new(guild)),
                    serenity::ChannelId::new(channel),
                ),
            })
        })
    }
}
