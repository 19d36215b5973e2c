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
/// until `expires_s` (Unix seconds): `<expiry>.<user, hex>.<HMAC-SHA-256, 128 bits>`, the MAC
/// taken over the table, the expiry and the user. The table is not written in the key: the
/// link names it by its reference (`table_ref`), and a key opens only the table it was made for.
pub fn play_key(secret: &[u8], table: i64, user: &str, expires_s: i64) -> String {
    use hmac::Mac;
    let user_hex: String = user.bytes().map(|b| format!("{b:02x}")).collect();
    let body = format!("{expires_s}.{user_hex}");
    let tag = play_mac(secret, &format!("{table}.{body}"))
        .finalize()
        .into_bytes();
    format!("{body}.{}", to_hex(&tag[..16]))
}

/// Reads a key made by `play_key` for `table`: its user, if it is this bot's key for this
/// table, unaltered and not expired at `now_s`. A key made for another table is `Forged`.
pub fn check_play_key(secret: &[u8], table: i64, key: &str, now_s: i64) -> Result<String, PlayKeyError> {
    use hmac::Mac;
    let (body, sig) = key.rsplit_once('.').ok_or(PlayKeyError::Forged)?;
    let sig = from_hex(sig)
        .filter(|s| s.len() == 16)
        .ok_or(PlayKeyError::Forged)?;
    play_mac(secret, &format!("{table}.{body}"))
        .verify_truncated_left(&sig)
        .map_err(|_| PlayKeyError::Forged)?;
    let (expires, user) = body.split_once('.').ok_or(PlayKeyError::Forged)?;
    let expires: i64 = expires.parse().map_err(|_| PlayKeyError::Forged)?;
    let user = from_hex(user)
        .and_then(|b| String::from_utf8(b).ok())
        .ok_or(PlayKeyError::Forged)?;
    if now_s > expires {
        return Err(PlayKeyError::Expired);
    }
    Ok(user)
}

/// The name of table `table` in the live table's addresses and the Mini App's start
/// parameter: 32 hexadecimal digits that cannot be guessed or counted. The last 16 are a MAC
/// of the table's number under the bot's secret, the first 16 the number masked with a key
/// drawn from that MAC, so neither the number nor the next table's name can be read off it.
/// Only `[0-9a-f]`, so it fits Telegram's `startapp` alphabet.
pub fn table_ref(secret: &[u8], table: i64) -> String {
    let tag = ref_tag(secret, table);
    let mask = ref_mask(secret, &tag);
    let masked: Vec<u8> = table.to_be_bytes().iter().zip(mask).map(|(a, b)| a ^ b).collect();
    format!("{}{}", to_hex(&masked), to_hex(&tag))
}

/// The table a `table_ref` names, if it is one this bot made.
pub fn table_of_ref(secret: &[u8], reference: &str) -> Option<i64> {
    use hmac::Mac;
    if reference.len() != 32 || reference.bytes().any(|b| !matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let bytes = from_hex(reference)?;
    let (masked, tag) = bytes.split_at(8);
    let mask = ref_mask(secret, tag);
    let mut id = [0u8; 8];
    for (i, b) in id.iter_mut().enumerate() {
        *b = masked[i] ^ mask[i];
    }
    let table = i64::from_be_bytes(id);
    if table < 0 {
        return None;
    }
    play_mac(secret, &format!("table ref\n{table}"))
        .verify_truncated_left(tag)
        .ok()?;
    Some(table)
}

fn ref_tag(secret: &[u8], table: i64) -> [u8; 8] {
    use hmac::Mac;
    let tag = play_mac(secret, &format!("table ref\n{table}"))
        .finalize()
        .into_bytes();
    tag[..8].try_into().expect("8 bytes")
}

fn ref_mask(secret: &[u8], tag: &[u8]) -> [u8; 8] {
    use hmac::Mac;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(b"table mask\n");
    mac.update(tag);
    mac.finalize().into_bytes()[..8].try_into().expect("8 bytes")
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// The live table's page of table `table` for the holder of `key`.
pub fn play_url(base: &str, secret: &[u8], table: i64, key: &str) -> String {
    format!(
        "{}/play/{}?k={key}",
        base.trim_end_matches('/'),
        table_ref(secret, table)
    )
}

/// A line linking one of the community's pages (`key` says it, with `url`), when the web
/// face is on; `path` makes the page's URL from the public base and the community's token.
pub(crate) async fn web_line(
    store: &crate::store::Store,
    config: &crate::config::HostConfig,
    c: &crate::store::CommunityRef,
    lang: crate::i18n::Lang,
    key: &str,
    path: impl FnOnce(&str, &str) -> String,
) -> Option<String> {
    let base = config.web_url.as_ref()?;
    match store.web_token(c).await {
        Ok(token) => Some(crate::i18n::t(lang, key, &[("url", path(base, &token).into())])),
        Err(e) => {
            tracing::warn!(error = %e, "no web link");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_play_key_names_its_user_at_its_own_table_until_it_expires() {
        let secret = play_secret("123:abc");
        let key = play_key(&secret, 42, "7001", 1_000);
        assert_eq!(check_play_key(&secret, 42, &key, 999), Ok("7001".to_string()));
        assert_eq!(
            check_play_key(&secret, 42, &key, 1_001),
            Err(PlayKeyError::Expired)
        );
        assert!(!key.contains("42"), "the key does not write the table: {key}");
        // Another bot's key, another table, an altered user or expiry, a cut signature: forged.
        assert_eq!(
            check_play_key(&play_secret("999:zzz"), 42, &key, 999),
            Err(PlayKeyError::Forged)
        );
        assert_eq!(check_play_key(&secret, 43, &key, 999), Err(PlayKeyError::Forged));
        for altered in [
            key.replacen("1000.", "9000.", 1),
            key.replacen("37303031", "37303032", 1),
            key[..key.len() - 2].to_string(),
            "1000..".to_string(),
            String::new(),
        ] {
            assert_eq!(
                check_play_key(&secret, 42, &altered, 999),
                Err(PlayKeyError::Forged),
                "{altered}"
            );
        }
        let spectator = play_key(&secret, 42, "", 1_000);
        assert_eq!(check_play_key(&secret, 42, &spectator, 5), Ok(String::new()));
    }

    #[test]
    fn a_table_ref_names_its_table_and_cannot_be_counted_or_guessed() {
        let secret = play_secret("123:abc");
        let refs: Vec<String> = (1..=200).map(|t| table_ref(&secret, t)).collect();
        for (i, r) in refs.iter().enumerate() {
            assert_eq!(r.len(), 32);
            assert_eq!(table_of_ref(&secret, r), Some(i as i64 + 1), "{r}");
            // Another bot does not read it.
            assert_eq!(table_of_ref(&play_secret("999:zzz"), r), None);
            // Any one digit changed names no table.
            for pos in [0, 7, 15, 16, 31] {
                let mut b = r.clone().into_bytes();
                b[pos] = if b[pos] == b'0' { b'1' } else { b'0' };
                assert_eq!(
                    table_of_ref(&secret, &String::from_utf8(b).unwrap()),
                    None,
                    "{r} @{pos}"
                );
            }
        }
        // Neighbouring tables share no half of their names: nothing to count from.
        for w in refs.windows(2) {
            assert_ne!(w[0][..16], w[1][..16]);
            assert_ne!(w[0][16..], w[1][16..]);
        }
        for bad in [
            "",
            "1",
            "42",
            &"0".repeat(32),
            &refs[0].to_uppercase(),
            &format!("{}0", refs[0]),
        ] {
            assert_eq!(table_of_ref(&secret, bad), None, "{bad}");
        }
    }
}
