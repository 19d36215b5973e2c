//! How a host is set up: what every part of it reads and none of them changes.

use std::sync::Arc;

use stikis_core::Seed;

/// Where deal seeds come from, given the table and the deal number: the OS random source in
/// production (which ignores both), a function of them in tests.
pub type SeedSource = Arc<dyn Fn(i64, usize) -> Seed + Send + Sync>;

#[derive(Clone)]
pub struct HostConfig {
    /// Thinking time of a strong computer player per move.
    pub bot_budget_ms: u64,
    pub seeds: SeedSource,
    /// The web face's public base URL (`--web-url`): when set, `/web` gives the community's
    /// link, and boards, statistics and finished games link to their pages.
    pub web_url: Option<String>,
    /// The key that signs personal links to the live table (`links::play_secret` of the
    /// bot's token): with `web_url`, `/play` gives them.
    pub play_secret: Option<Vec<u8>>,
    /// Where this process listens for the other processes on the same PostgreSQL database
    /// (`--peer-listen`, see `crate::peers`): port 0 takes a free one; an unspecified address
    /// (0.0.0.0) is told to the others as the one the database sees this process come from.
    /// None: nowhere (the others tell this process everything through the database, and it
    /// tells them so too).
    pub peer_listen: Option<std::net::SocketAddr>,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            bot_budget_ms: stikis_core::ai::DEFAULT_BUDGET_MS,
            seeds: Arc::new(|_, _| os_seed()),
            web_url: None,
            play_secret: None,
            peer_listen: Some(std::net::SocketAddr::from(([127, 0, 0, 1], 0))),
        }
    }
}

/// A seed from the operating system's random source.
pub fn os_seed() -> Seed {
    let mut b = [0u8; 32];
    if rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut b).is_err() {
        // The thread generator is itself seeded from the OS source.
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut b);
    }
    Seed(b)
}
