//! The settings read on every move (a person's language, their community's settings), kept
//! for a few seconds. A move renders the hands of every person at its table, each in their
//! own language: read from the database each time, these were more than half the statements
//! of a busy bot, and nearly every one found nothing (most people never choose a language).
//!
//! A change made through this store is seen at once; one made by another process sharing the
//! database, within `SETTINGS_TTL`.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::i18n::Lang;

use super::{CommunityRef, CommunitySettings, Platform};

/// How long a setting read from the database is used before it is read again.
pub const SETTINGS_TTL: Duration = Duration::from_secs(5);

/// Entries kept before the expired ones are dropped.
const PRUNE_AT: usize = 10_000;

/// The cached settings of one `Store` and its clones.
#[derive(Debug, Default)]
pub(super) struct SettingsCache {
    langs: Expiring<(Platform, String), Option<Lang>>,
    communities: Expiring<CommunityRef, CommunitySettings>,
}

impl SettingsCache {
    pub(super) fn lang(&self, platform: Platform, user: &str) -> Option<Option<Lang>> {
        self.langs.get(&(platform, user.to_string()))
    }

    pub(super) fn keep_lang(&self, platform: Platform, user: &str, lang: Option<Lang>) {
        self.langs.put((platform, user.to_string()), lang);
    }

    pub(super) fn community(&self, c: &CommunityRef) -> Option<CommunitySettings> {
        self.communities.get(c)
    }

    pub(super) fn keep_community(&self, c: &CommunityRef, s: &CommunitySettings) {
        self.communities.put(c.clone(), s.clone());
    }
}

#[derive(Debug)]
struct Expiring<K, V>(Mutex<HashMap<K, (Instant, V)>>);

impl<K, V> Default for Expiring<K, V> {
    fn default() -> Self {
        Expiring(Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + Hash, V: Clone> Expiring<K, V> {
    fn get(&self, k: &K) -> Option<V> {
        let map = self.0.lock().expect("settings cache");
        map.get(k)
            .filter(|(at, _)| at.elapsed() < SETTINGS_TTL)
            .map(|(_, v)| v.clone())
    }

    fn put(&self, k: K, v: V) {
        let mut map = self.0.lock().expect("settings cache");
        if map.len() >= PRUNE_AT {
            map.retain(|_, (at, _)| at.elapsed() < SETTINGS_TTL);
        }
        map.insert(k, (Instant::now(), v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_setting_is_used_until_it_expires() {
        let cache = SettingsCache::default();
        assert_eq!(cache.lang(Platform::Telegram, "anna"), None, "nothing kept yet");
        cache.keep_lang(Platform::Telegram, "anna", None);
        assert_eq!(
            cache.lang(Platform::Telegram, "anna"),
            Some(None),
            "kept: no language of her own"
        );
        assert_eq!(
            cache.lang(Platform::Discord, "anna"),
            None,
            "another platform's anna"
        );
        cache.keep_lang(Platform::Telegram, "anna", Some(Lang::Lv));
        assert_eq!(cache.lang(Platform::Telegram, "anna"), Some(Some(Lang::Lv)));
        // An entry older than the time to keep it is read again.
        cache
            .langs
            .0
            .lock()
            .unwrap()
            .get_mut(&(Platform::Telegram, "anna".to_string()))
            .unwrap()
            .0 -= SETTINGS_TTL;
        assert_eq!(cache.lang(Platform::Telegram, "anna"), None);
    }
}
