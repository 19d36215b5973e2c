//! The addresses of the web face's pages that the host gives out (`/web`, a tournament's
//! standings, a finished game): the web adapter (`stikis-web`) serves them. Kept here so the
//! chat and the pages agree on every address.

/// The public base URL and a community's token as the link the chat is given.
pub fn community_url(base: &str, token: &str) -> String {
    format!("{}/c/{token}/", base.trim_end_matches('/'))
}

/// A finished game's page.
pub fn game_url(base: &str, token: &str, table: i64) -> String {
    format!("{}/c/{token}/g/{table}", base.trim_end_matches('/'))
}

/// A tournament's page.
pub fn tournament_url(base: &str, token: &str, id: i64) -> String {
    format!("{}/c/{token}/t/{id}", base.trim_end_matches('/'))
}

/// A player's key in the pages of the community whose token is `token`: the first 64 bits
/// of SHA-256 over the token and the player's id, as 16 hexadecimal digits.
pub fn player_key(token: &str, player: &str) -> String {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(format!("{token}\n{player}").as_bytes());
    hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The key that signs personal links to the live table, made from the bot's token (so every
/// process of one bot signs alike, and a new token ends every old link).
pub fn play_secret(bot_token: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(format!("stikis live table links\n{bot_token}").as_bytes()).to_vec()
}

/// How long a personal link to the live table opens it (24 hours).
pub const PLAY_LINK_SECS: i64 = 24 * 3600;

/// Why a live-table key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayKeyError {
    /// Not made by this bot, or altered.
    Forged,
    /// Made by this bot, but its time is up.
    Expired,
}

fn play_mac(secret: &[u8], body: &str) -> hmac::Hmac<sha2::Sha256> {
    use hmac::Mac;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(body.as_bytes());
    mac
}

/// A personal key to the live table `table` for `user` (an empty user: a spectator), valid
/// until `expires_s` (Unix seconds): `<table>.<expiry>.<user, hex>.<HMAC-SHA-256, 128 bits>`.
pub fn play_key(secret: &[u8], table: i64, user: &str, expires_s: i64) -> String {
    use hmac::Mac;
    let user_hex: String = user.bytes().map(|b| format!("{b:02x}")).collect();
    let body = format!("{table}.{expires_s}.{user_hex}");
    let tag = play_mac(secret, &body).finalize().into_bytes();
    let sig: String = tag[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("{body}.{sig}")
}

/// Reads a key made by `play_key`: its table and user, if it is this bot's, unaltered and
/// not expired at `now_s`.
pub fn check_play_key(secret: &[u8], key: &str, now_s: i64) -> Result<(i64, String), PlayKeyError> {
    use hmac::Mac;
    let (body, sig) = key.rsplit_once('.').ok_or(PlayKeyError::Forged)?;
    let sig = from_hex(sig)
        .filter(|s| s.len() == 16)
        .ok_or(PlayKeyError::Forged)?;
    play_mac(secret, body)
        .verify_truncated_left(&sig)
        .map_err(|_| PlayKeyError::Forged)?;
    let mut parts = body.splitn(3, '.');
    let (Some(table), Some(expires), Some(user)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(PlayKeyError::Forged);
    };
    let table: i64 = table.parse().map_err(|_| PlayKeyError::Forged)?;
    let expires: i64 = expires.parse().map_err(|_| PlayKeyError::Forged)?;
    let user = from_hex(user)
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or(PlayKeyError::Forged)?;
    if now_s > expires {
        return Err(PlayKeyError::Expired);
    }
    Ok((table, user))
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The live table's page for the holder of `key`.
pub fn play_url(base: &str, table: i64, key: &str) -> String {
    format!("{}/play/{table}?k={key}", base.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_play_key_names_its_table_and_user_until_it_expires() {
        let secret = play_secret("123:abc");
        let key = play_key(&secret, 42, "7001", 1_000);
        assert_eq!(check_play_key(&secret, &key, 999), Ok((42, "7001".to_string())));
        assert_eq!(check_play_key(&secret, &key, 1_001), Err(PlayKeyError::Expired));
        // Another bot's key, an altered table, user or expiry, a cut signature: forged.
        assert_eq!(
            check_play_key(&play_secret("999:zzz"), &key, 999),
            Err(PlayKeyError::Forged)
        );
        for altered in [
            key.replacen("42.", "43.", 1),
            key.replacen(".1000.", ".9000.", 1),
            key.replacen("37303031", "37303032", 1),
            key[..key.len() - 2].to_string(),
            "42.1000..".to_string(),
            String::new(),
        ] {
            assert_eq!(
                check_play_key(&secret, &altered, 999),
                Err(PlayKeyError::Forged),
                "{altered}"
            );
        }
        let spectator = play_key(&secret, 42, "", 1_000);
        assert_eq!(check_play_key(&secret, &spectator, 5), Ok((42, String::new())));
    }
}
