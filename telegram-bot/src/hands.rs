//! Where a group's hands go: `/hands group|private`, a community setting
//! (`CommunitySettings::hands_in_group`), shown in `/settings` (`show::group_hands` shows
//! them).

use std::sync::Arc;

use stikis_host::i18n::{t, Lang};
use stikis_host::store::ChatRef;
use stikis_host::Outbox;
use teloxide::types::Message;

use crate::show::Answer;
use crate::App;

impl App {
    /// What `/settings` says of hands in `chat`'s community.
    pub(crate) async fn hands_line(&self, chat: &ChatRef, lang: Lang) -> String {
        let group = self
            .host
            .store()
            .community_settings(&chat.community_ref())
            .await
            .map(|s| s.hands_in_group)
            .unwrap_or(true);
        t(
            lang,
            if group {
                "telegram-hands-group"
            } else {
                "telegram-hands-private"
            },
            &[],
        )
    }

    /// `/hands [group|private]` in a group: an admin sets where the community's hands go
    /// (said in the group); without a word, or from someone else, the setting is said to the
    /// person alone.
    pub(crate) async fn hands_command(
        self: &Arc<Self>,
        m: &Message,
        from: &teloxide::types::User,
        args: &[&str],
        chat: ChatRef,
        answer: Answer,
        lang: Lang,
    ) {
        let say = |text: String| {
            let mut o = Outbox::default();
            o.reply(text);
            o
        };
        if m.chat.is_private() {
            let usage = t(lang, "telegram-usage-hands", &[]);
            return self.shower.show(say(usage), answer).await;
        }
        let privately = crate::privately(m, from);
        let group = match args {
            ["group"] => true,
            ["private"] => false,
            [] => {
                let line = self.hands_line(&chat, lang).await;
                return self.shower.show(say(line), privately).await;
            }
            _ => {
                let usage = t(lang, "telegram-usage-hands", &[]);
                return self.shower.show(say(usage), privately).await;
            }
        };
        let admin = self.is_admin(m.chat.id, from.id).await;
        match admin {
            Some(true) => {}
            Some(false) => {
                let no = t(lang, "table-not-allowed", &[]);
                return self.shower.show(say(no), privately).await;
            }
            None => {
                let no = t(lang, "admin-check-failed", &[]);
                return self.shower.show(say(no), privately).await;
            }
        }
        let store = self.host.store();
        let community = chat.community_ref();
        let set = match store.community_settings(&community).await {
            Ok(mut s) => {
                s.hands_in_group = group;
                store.set_community_settings(&community, &s).await
            }
            Err(e) => Err(e),
        };
        if let Err(e) = set {
            tracing::warn!(error = %e, "could not store where hands go");
            let no = t(lang, "admin-check-failed", &[]);
            return self.shower.show(say(no), privately).await;
        }
        // Said in the group's language, to the group.
        let group_lang = self.shower.community_lang(&chat).await;
        let line = self.hands_line(&chat, group_lang).await;
        self.shower.show(say(line), answer).await;
    }
}
