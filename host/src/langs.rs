//! Which language a person or a community is spoken to in: the person's own choice, else the
//! community's, else the default. Read from the database at each use; every part asks here.

use crate::i18n::Lang;
use crate::store::{ChatRef, Store};

/// The language `user` chose in `chat`'s platform, else the community's.
pub(crate) async fn user_lang(store: &Store, chat: &ChatRef, user: &str) -> Lang {
    match store.user_lang(chat.platform, user).await {
        Ok(Some(l)) => l,
        _ => community_lang(store, chat).await,
    }
}

/// The language of `chat`'s community (the default when it cannot be read).
pub(crate) async fn community_lang(store: &Store, chat: &ChatRef) -> Lang {
    store
        .community_settings(&chat.community_ref())
        .await
        .map(|s| s.lang)
        .unwrap_or_default()
}
