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
