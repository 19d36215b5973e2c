//! Shows the host's outbox on Discord. Each keyed message (a table, a lobby, a hand) is a
//! slot: the first version is sent, later ones edit it in place, unchanged versions are
//! skipped, and versions asked for while an edit waits for its turn are merged into one (at
//! most one edit of a channel message per `min_edit_interval`). Message ids are kept in the store, so a
//! restarted bot edits the same messages. Hands go by direct message; for a person whose
//! direct messages are closed (error 50007) the hand is shown as an ephemeral answer to the
//! table's 🂠 button and refreshed through that interaction while its token lives. A hand
//! redrawn by the answer to a press on it (`claim_inline`) costs no edit of its own. Who has
//! closed direct messages is kept in memory only: after a restart the first refused hand
//! (50007) tells again, so nobody is left without a hand and a person who opened their direct
//! messages gets them back.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, CreateActionRow, CreateAttachment, CreateButton, CreateEmbed, CreateMessage,
    EditInteractionResponse, EditMessage, Http, MessageId, UserId,
};
use stikis_host::i18n::{t, Lang};
use stikis_host::msgkey::MsgKey;
use stikis_host::store::{ChatRef, FirstPost, Platform, Store};
use stikis_host::{Button, HandDelivery, Out, Outbox};
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// Discord's error code for "Cannot send messages to this user".
pub const DM_CLOSED: isize = 50007;
/// Characters of one posted message (Discord allows 2000).
const POST_MAX: usize = 1990;

/// The nonce of part `part` of a post to `channel` holding the posts kept under `keys` (see
/// `Shower::post`): the same for every process that posts them, at most Discord's 25
/// characters.
fn post_nonce(keys: &str, channel: ChannelId, part: usize) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{channel}/{part}/{keys}"));
    digest[..12].iter().map(|b| format!("{b:02x}")).collect()
}
/// Interaction tokens live 15 minutes; refresh through one only while it surely lives.
const TOKEN_LIFE: Duration = Duration::from_secs(14 * 60);

/// How long after the live processes changed a hand's direct message is looked at again
/// after it is sent (`Store::live_changed_within`): the previous owner of a table learns of
/// the change within half a second and its last edits are on their way by then.
const HAND_LOOK: Duration = Duration::from_secs(3);

/// The text and buttons of one message version.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub text: String,
    pub buttons: Vec<Vec<Button>>,
    /// A public message's version (`Out::Public::version`): claimed before it is sent, so an
    /// older version never replaces a newer one shown by another process. None for hands.
    pub version: Option<i64>,
}

impl Content {
    pub fn digest(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.text.hash(&mut h);
        for b in self.buttons.iter().flatten() {
            b.label.hash(&mut h);
            b.token.hash(&mut h);
        }
        h.finish()
    }

    pub fn embed(&self) -> CreateEmbed {
        CreateEmbed::new().description(truncate(&self.text, 4000))
    }

    /// Discord allows 5 buttons a row and 5 rows; longer host rows are wrapped.
    pub fn rows(&self) -> Vec<CreateActionRow> {
        let mut rows = Vec::new();
        for row in &self.buttons {
            for chunk in row.chunks(5) {
                rows.push(CreateActionRow::Buttons(
                    chunk
                        .iter()
                        .map(|b| {
                            CreateButton::new(&b.token)
                                .label(truncate(&b.label, 80))
                                .style(ButtonStyle::Secondary)
                        })
                        .collect(),
                ));
            }
        }
        rows.truncate(5);
        rows
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max - 1).collect();
    t.push('…');
    t
}

/// The Discord error code of a failed request, if Discord sent one.
pub fn error_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// Where a slot's message lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Place {
    Channel(ChannelId),
    Dm(UserId),
}

#[derive(Default)]
struct SlotState {
    message: Option<MessageId>,
    loaded: bool,
    sent: Option<u64>,
    pending: Option<Content>,
    running: bool,
    last_edit: Option<Instant>,
}

struct Slot {
    key: String,
    recipient: String,
    place: Place,
    /// The table's chat, for notices when a hand cannot be sent.
    chat: ChatRef,
    /// Held across each request, so versions asked for meanwhile merge into the next one,
    /// and by an interaction answer that shows this slot's version (`Claim`).
    state: Arc<AsyncMutex<SlotState>>,
}

/// A hand whose new version goes out in the answer to a press on it: while the claim is
/// held, no edit of that message can be sent, so a newer version always lands after it.
pub struct Claim {
    guard: OwnedMutexGuard<SlotState>,
    slot: Arc<Slot>,
    content: Content,
    /// False when the message already shows this version (the answer then changes nothing).
    pub changed: bool,
}

/// An ephemeral hand message: the interaction whose original response shows it.
#[derive(Clone)]
struct Fallback {
    token: String,
    since: Instant,
    sent: Option<u64>,
}

pub struct Shower {
    http: Arc<Http>,
    store: Store,
    min_edit_interval: Duration,
    slots: Mutex<HashMap<(String, String), Arc<Slot>>>,
    dm_channels: AsyncMutex<HashMap<UserId, ChannelId>>,
    /// People whose direct messages failed with 50007.
    dm_closed: Mutex<HashSet<String>>,
    fallbacks: Mutex<HashMap<String, Fallback>>,
    /// Turn notices already posted for closed-DM hands (by content digest).
    noticed: Mutex<HashSet<(String, u64)>>,
    running: AtomicUsize,
    /// A running table's message carries "Open the table" (`open_tables`): the live table
    /// is served.
    open: std::sync::atomic::AtomicBool,
    /// Servers' languages lately read, for the "Open the table" label: (language, when read).
    langs: Mutex<HashMap<String, (Lang, Instant)>>,
}

/// The custom id of a running table's "Open the table" button (`press::open_table`).
pub const OPEN: &str = "open";

/// How long a server's language is taken as read for the "Open the table" label.
const LANG_KEPT: Duration = Duration::from_secs(60);

impl Shower {
    pub fn new(http: Arc<Http>, store: Store, min_edit_interval: Duration) -> Shower {
        Shower {
            http,
            store,
            min_edit_interval,
            slots: Mutex::new(HashMap::new()),
            dm_channels: AsyncMutex::new(HashMap::new()),
            dm_closed: Mutex::new(HashSet::new()),
            fallbacks: Mutex::new(HashMap::new()),
            noticed: Mutex::new(HashSet::new()),
            running: AtomicUsize::new(0),
            open: std::sync::atomic::AtomicBool::new(false),
            langs: Mutex::new(HashMap::new()),
        }
    }

    /// From now on, a running table's message carries "Open the table" (the live table is
    /// served: it launches the Activity, or gives the personal link).
    pub fn open_tables(&self) {
        self.open.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// "Open the table" for a table message `key` that is still played (it has buttons of
    /// its own): a message whose deal is over or whose table stopped opens nothing.
    async fn open_button(&self, chat: &ChatRef, key: &str, live: bool) -> Option<Button> {
        if !live || !self.open.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let Some(MsgKey::Deal { .. }) = MsgKey::parse(key) else {
            return None;
        };
        let kept = self
            .langs
            .lock()
            .expect("langs")
            .get(&chat.community)
            .filter(|(_, at)| at.elapsed() < LANG_KEPT)
            .map(|(l, _)| *l);
        let lang = match kept {
            Some(l) => l,
            None => {
                let l = self
                    .store
                    .community_settings(&chat.community_ref())
                    .await
                    .map(|s| s.lang)
                    .unwrap_or_default();
                let mut langs = self.langs.lock().expect("langs");
                if langs.len() > 10_000 {
                    langs.clear();
                }
                langs.insert(chat.community.clone(), (l, Instant::now()));
                l
            }
        };
        Some(Button {
            label: format!("🃏 {}", t(lang, "play-open", &[])),
            token: OPEN.to_string(),
            disabled: false,
            card: None,
        })
    }

    pub fn dm_closed(&self, user: &str) -> bool {
        self.dm_closed.lock().expect("dm set").contains(user)
    }

    /// Shows everything but the reply (which answers the interaction) and files (which
    /// `commands` attaches to its answer; timer outboxes carry none).
    pub async fn show(self: &Arc<Self>, out: &Outbox) {
        let mut i = 0;
        while i < out.0.len() {
            let o = &out.0[i];
            i += 1;
            match o {
                Out::Public {
                    chat,
                    key,
                    text,
                    buttons,
                    version,
                } => {
                    let Some(channel) = channel_of(chat) else { continue };
                    let mut buttons = buttons.clone();
                    if let Some(open) = self.open_button(chat, key, !buttons.is_empty()).await {
                        match buttons.last_mut() {
                            Some(row) => row.push(open),
                            None => buttons.push(vec![open]),
                        }
                    }
                    let content = Content {
                        text: text.clone(),
                        buttons,
                        version: Some(*version),
                    };
                    self.update(key, &chat.chat, Place::Channel(channel), chat, content)
                        .await;
                }
                Out::Private {
                    user,
                    chat,
                    key,
                    text,
                    buttons,
                    version,
                    delivery,
                } => {
                    if *delivery == HandDelivery::Shown {
                        // Shown by the table's owner (a Telegram press's copy: not seen here).
                        continue;
                    }
                    // A hand's last state for a message that may show an older one: an edit,
                    // never a new message.
                    if *delivery == HandDelivery::IfShown
                        && !matches!(
                            self.store.message_ref(Platform::Discord, key, user).await,
                            Ok(Some(_))
                        )
                    {
                        continue;
                    }
                    // Discord's hands keep to the playable cards (no disabled buttons).
                    let content = Content {
                        text: text.clone(),
                        buttons: stikis_host::outbox::pressable(buttons),
                        version: Some(*version),
                    };
                    if self.dm_closed(user) {
                        self.fallback(user, chat, content).await;
                        continue;
                    }
                    let Ok(uid) = user.parse::<u64>() else { continue };
                    self.update(key, user, Place::Dm(UserId::new(uid)), chat, content)
                        .await;
                }
                Out::Post { chat, text, once } => {
                    // Posts that follow each other in one chat (a deal's result and the next
                    // deal's commitment) go as one message when they fit.
                    let mut parts = vec![(text, once)];
                    let mut len = text.chars().count();
                    while let Some(Out::Post {
                        chat: c,
                        text: t,
                        once: o,
                    }) = out.0.get(i)
                    {
                        if c != chat || len + t.chars().count() + 2 > POST_MAX {
                            break;
                        }
                        len += t.chars().count() + 2;
                        parts.push((t, o));
                        i += 1;
                    }
                    if let Some(channel) = channel_of(chat) {
                        // A post kept under a key goes once (another process may have posted it).
                        let mut keep = Vec::new();
                        for (t, o) in parts {
                            match o {
                                Some(k) if self.posted(k, channel).await => {}
                                _ => keep.push((t, o)),
                            }
                        }
                        if !keep.is_empty() {
                            let text = keep
                                .iter()
                                .map(|(t, _)| t.as_str())
                                .collect::<Vec<_>>()
                                .join("\n\n");
                            let keys: Vec<&str> = keep.iter().filter_map(|(_, o)| o.as_deref()).collect();
                            let once = (!keys.is_empty()).then(|| keys.join(" "));
                            if let Some(m) = self.post(channel, &text, once.as_deref()).await {
                                for k in keep.iter().filter_map(|(_, o)| o.as_ref()) {
                                    let r = self
                                        .store
                                        .remember_message_ref(
                                            Platform::Discord,
                                            k,
                                            &channel.to_string(),
                                            &m.to_string(),
                                        )
                                        .await;
                                    if let Err(e) = r {
                                        tracing::warn!(error = %e, "could not remember a message id");
                                    }
                                }
                            } else {
                                // The claims to post them go: the next showing posts them.
                                self.store
                                    .release_first_posts(Platform::Discord, &keys, &channel.to_string())
                                    .await;
                            }
                        }
                    }
                }
                Out::File { chat, name, content } => {
                    if let Some(channel) = channel_of(chat) {
                        let file = CreateAttachment::bytes(content.as_bytes().to_vec(), name.clone());
                        let msg = CreateMessage::new().add_file(file);
                        let r = channel.send_message(&self.http, msg).await;
                        crate::counted("createMessage", &r);
                        if let Err(e) = r {
                            tracing::warn!(error = %e, "could not send a file");
                        }
                    }
                }
                // Said only as a command's ephemeral reply (commands.rs), never to a channel.
                Out::Reply { .. } | Out::Personal { .. } => {}
                // The answer to a press another process deferred and died before answering.
                Out::FollowUp { follow, text } => {
                    use serenity::Builder;
                    let r = serenity::CreateInteractionResponseFollowup::new()
                        .content(text.clone())
                        .ephemeral(true)
                        .execute(&self.http, (None, follow.as_str()))
                        .await;
                    crate::counted("createFollowupMessage", &r);
                    if let Err(e) = r {
                        tracing::warn!(error = %e, "could not answer a deferred press for a process that died");
                    }
                }
            }
        }
    }

    /// Opens a direct-message channel with `u` (counted).
    async fn open_dm(&self, u: serenity::UserId) -> Result<serenity::PrivateChannel, serenity::Error> {
        let r = u.create_dm_channel(&self.http).await;
        crate::counted("createDM", &r);
        r
    }

    /// A new message, split at Discord's 2000 characters. With `once` (the keys of the posts
    /// it holds that go out once), each part carries a nonce made from them and the channel,
    /// which Discord enforces: a part another process posted already (it died before keeping
    /// the id) is not posted again, and its message is returned instead.
    pub async fn post(&self, channel: ChannelId, text: &str, once: Option<&str>) -> Option<MessageId> {
        let chars: Vec<char> = text.chars().collect();
        let mut first = None;
        for (i, part) in chars.chunks(POST_MAX).enumerate() {
            let part: String = part.iter().collect();
            let mut msg = CreateMessage::new().content(part);
            if let Some(keys) = once {
                msg = msg
                    .nonce(serenity::Nonce::String(post_nonce(keys, channel, i)))
                    .enforce_nonce(true);
            }
            let r = channel.send_message(&self.http, msg).await;
            crate::counted("createMessage", &r);
            match r {
                Ok(m) => {
                    first.get_or_insert(m.id);
                }
                Err(e) => tracing::warn!(error = %e, channel = %channel, "could not post"),
            }
        }
        first
    }

    /// Whether the post kept under `once` went out already, or goes out from another
    /// process (else this process claimed it and posts it).
    async fn posted(&self, once: &str, channel: ChannelId) -> bool {
        !self
            .store
            .claim_once(Platform::Discord, once, &channel.to_string())
            .await
    }

    fn slot(&self, key: &str, recipient: &str, place: Place, chat: &ChatRef) -> Arc<Slot> {
        self.slots
            .lock()
            .expect("slots")
            .entry((key.to_string(), recipient.to_string()))
            .or_insert_with(|| {
                Arc::new(Slot {
                    key: key.to_string(),
                    recipient: recipient.to_string(),
                    place,
                    chat: chat.clone(),
                    state: Arc::new(AsyncMutex::new(SlotState::default())),
                })
            })
            .clone()
    }

    async fn update(
        self: &Arc<Self>,
        key: &str,
        recipient: &str,
        place: Place,
        chat: &ChatRef,
        content: Content,
    ) {
        let slot = self.slot(key, recipient, place, chat);
        let mut st = slot.state.lock().await;
        if st.pending.is_none() && st.sent == Some(content.digest()) {
            return;
        }
        st.pending = Some(content);
        if st.running {
            // The waiting edit will carry this version.
            return;
        }
        st.running = true;
        self.running.fetch_add(1, Ordering::AcqRel);
        drop(st);
        let me = self.clone();
        tokio::spawn(async move {
            let refused = me.run_slot(&slot).await;
            if let Some((user, chat, content)) = refused {
                // Said once: two hands refused at once (a restart shows every hand while a
                // computer player moves) must not tell the group twice.
                let first = me.dm_closed.lock().expect("dm set").insert(user.clone());
                if let (true, Some(channel)) = (first, channel_of(&chat)) {
                    let text = me.say(&chat, &user, "discord-dm-closed").await;
                    me.post(channel, &text, None).await;
                }
                me.fallback(&user, &chat, content).await;
            }
            me.running.fetch_sub(1, Ordering::AcqRel);
        });
    }

    /// A closed-DM person's hand: refreshes their ephemeral hand while its token lives, or
    /// asks them to press 🂠 when it is their turn.
    async fn fallback(&self, user: &str, chat: &ChatRef, content: Content) {
        let digest = content.digest();
        let fb = self.fallbacks.lock().expect("fallbacks").get(user).cloned();
        match fb {
            Some(fb) if fb.since.elapsed() < TOKEN_LIFE => {
                if fb.sent == Some(digest) {
                    return;
                }
                let edit = EditInteractionResponse::new()
                    .embed(content.embed())
                    .components(content.rows());
                match self
                    .http
                    .edit_original_interaction_response(&fb.token, &edit, Vec::new())
                    .await
                {
                    Ok(_) => {
                        if let Some(f) = self.fallbacks.lock().expect("fallbacks").get_mut(user) {
                            f.sent = Some(digest);
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "could not refresh an ephemeral hand"),
                }
            }
            _ if !content.buttons.is_empty() => {
                if !self
                    .noticed
                    .lock()
                    .expect("noticed")
                    .insert((user.to_string(), digest))
                {
                    return;
                }
                if let Some(channel) = channel_of(chat) {
                    let text = self.say(chat, user, "discord-hand-turn").await;
                    self.post(channel, &text, None).await;
                }
            }
            _ => {}
        }
    }

    /// A notice for `user` (mentioned) in their language.
    async fn say(&self, chat: &ChatRef, user: &str, key: &str) -> String {
        let lang = crate::lang_of(&self.store, chat, user).await;
        t(lang, key, &[("user", format!("<@{user}>").into())])
    }

    /// Remembers the interaction that now shows `user`'s ephemeral hand.
    pub fn set_fallback(&self, user: &str, token: &str, content: &Content) {
        self.fallbacks.lock().expect("fallbacks").insert(
            user.to_string(),
            Fallback {
                token: token.to_string(),
                since: Instant::now(),
                sent: Some(content.digest()),
            },
        );
    }

    /// The message id a slot shows, if sent; loads it from the store.
    pub async fn message_of(&self, key: &str, recipient: &str) -> Option<MessageId> {
        let slot = self
            .slots
            .lock()
            .expect("slots")
            .get(&(key.to_string(), recipient.to_string()))
            .cloned();
        if let Some(slot) = slot {
            if let Some(m) = slot.state.lock().await.message {
                return Some(m);
            }
        }
        let id = self
            .store
            .message_ref(Platform::Discord, key, recipient)
            .await
            .ok()
            .flatten()?;
        id.parse().ok().map(MessageId::new)
    }

    /// If the slot `key` of `recipient` is the pressed message, records `content` as shown
    /// there and returns a claim on it: the interaction's answer then updates the pressed
    /// message itself (no edit of its own). An edit of it under way is waited for; one asked
    /// for earlier is superseded (the caller holds the table's order, so `content` is newer).
    pub async fn claim_inline(
        &self,
        key: &str,
        recipient: &str,
        pressed: MessageId,
        content: &Content,
    ) -> Option<Claim> {
        let slot = self
            .slots
            .lock()
            .expect("slots")
            .get(&(key.to_string(), recipient.to_string()))
            .cloned()?;
        let mut st = slot.state.clone().lock_owned().await;
        if st.message != Some(pressed) {
            return None;
        }
        if let Some(v) = content.version {
            let claimed = self
                .store
                .claim_hand(
                    Platform::Discord,
                    key,
                    recipient,
                    v,
                    &content.text,
                    &content.buttons,
                )
                .await;
            if !claimed {
                // A newer version was claimed (and is shown) by another process.
                return None;
            }
        }
        let digest = content.digest();
        let changed = st.sent != Some(digest);
        st.pending = None;
        st.sent = Some(digest);
        Some(Claim {
            guard: st,
            slot,
            content: content.clone(),
            changed,
        })
    }

    /// The answer carrying a claimed hand went out. Unlike a hand's edit (`Store::claim_hand`)
    /// it is looked at again: it goes out late by nature (after the move, its handoff and
    /// the interaction's round trip; a deferred press's much later), while the table's owner
    /// may have shown a newer version, which then goes out again after it. One query a press.
    pub async fn answered(self: &Arc<Self>, claim: Claim) {
        let Claim {
            guard, slot, content, ..
        } = claim;
        drop(guard);
        let Some(v) = content.version else { return };
        let newer = self
            .store
            .newer_shown(Platform::Discord, &slot.key, &slot.recipient, v)
            .await;
        if let Some((v, text, buttons)) = newer {
            let content = Content {
                text,
                buttons,
                version: Some(v),
            };
            self.update_slot(&slot, content).await;
        }
    }

    /// The newest version of the claimed hand, if another process claimed one after it
    /// (while this one showed the other messages of the press): the answer then carries that
    /// one, so it does not land on the message after it as an older state.
    pub async fn newest_claimed(&self, claim: &mut Claim) -> Option<Content> {
        let v = claim.content.version?;
        let (v, text, buttons) = self
            .store
            .newer_shown(Platform::Discord, &claim.slot.key, &claim.slot.recipient, v)
            .await?;
        let content = Content {
            text,
            buttons,
            version: Some(v),
        };
        claim.guard.sent = Some(content.digest());
        claim.content = content.clone();
        claim.changed = true;
        Some(content)
    }

    /// The answer carrying a claimed version failed: the version is sent as an edit.
    pub async fn unclaim(self: &Arc<Self>, claim: Claim) {
        let Claim {
            mut guard,
            slot,
            content,
            ..
        } = claim;
        guard.sent = None;
        drop(guard);
        self.update_slot(&slot, content).await;
    }

    /// `update` of the message `slot` shows.
    async fn update_slot(self: &Arc<Self>, slot: &Slot, content: Content) {
        self.update(
            &slot.key,
            &slot.recipient,
            slot.place.clone(),
            &slot.chat,
            content,
        )
        .await;
    }

    /// Waits until no edit is waiting or being sent.
    pub async fn settle(&self) {
        while self.running.load(Ordering::Acquire) > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

fn channel_of(chat: &ChatRef) -> Option<ChannelId> {
    let id = chat.thread.as_deref().unwrap_or(&chat.chat);
    id.parse::<u64>().ok().filter(|&n| n != 0).map(ChannelId::new)
}

impl Shower {
    /// Sends the slot's pending versions until none is left. Returns the user, chat and
    /// content of a hand whose direct message was refused.
    async fn run_slot(&self, slot: &Slot) -> Option<(String, ChatRef, Content)> {
        let dm_channels = &self.dm_channels;
        loop {
            // Only channel messages wait: a hand (a DM, one reader, its own rate limit) is
            // shown at once so its owner never presses an old button.
            let wait = if matches!(slot.place, Place::Dm(_)) {
                Duration::ZERO
            } else {
                let st = slot.state.lock().await;
                st.last_edit
                    .map(|t| (t + self.min_edit_interval).saturating_duration_since(Instant::now()))
                    .unwrap_or_default()
            };
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            let mut st = slot.state.lock().await;
            let Some(content) = st.pending.take() else {
                st.running = false;
                return None;
            };
            if st.sent == Some(content.digest()) {
                continue;
            }
            if let Some(v) = content.version {
                let (key, to) = (&slot.key, &slot.recipient);
                let (text, buttons) = (&content.text, &content.buttons);
                let shown = match slot.place {
                    Place::Dm(_) => {
                        self.store
                            .claim_hand(Platform::Discord, key, to, v, text, buttons)
                            .await
                    }
                    Place::Channel(_) => {
                        self.store
                            .claim_shown(Platform::Discord, key, to, v, text, buttons)
                            .await
                    }
                };
                if !shown {
                    // Another process claimed a newer version and shows it.
                    st.sent = None;
                    continue;
                }
            }
            if !st.loaded {
                st.loaded = true;
                if st.message.is_none() {
                    st.message = self
                        .store
                        .message_ref(Platform::Discord, &slot.key, &slot.recipient)
                        .await
                        .ok()
                        .flatten()
                        .and_then(|s| s.parse().ok())
                        .map(MessageId::new);
                }
            }
            let channel = match &slot.place {
                Place::Channel(c) => *c,
                Place::Dm(u) => {
                    let mut dms = dm_channels.lock().await;
                    match dms.get(u) {
                        Some(c) => *c,
                        None => match self.open_dm(*u).await {
                            Ok(ch) => {
                                dms.insert(*u, ch.id);
                                ch.id
                            }
                            Err(e) => {
                                tracing::warn!(error = %e, "could not open a direct message");
                                st.running = false;
                                return None;
                            }
                        },
                    }
                }
            };
            if st.message.is_none() {
                match self
                    .store
                    .first_post_now(Platform::Discord, &slot.key, &slot.recipient)
                    .await
                {
                    FirstPost::Mine => {}
                    FirstPost::Sent(id) => st.message = id.parse().ok().map(MessageId::new),
                    FirstPost::Sending => {
                        // Another process is sending it: look again in a moment, without
                        // holding the slot meanwhile (its claim lapses if it died).
                        st.pending.get_or_insert(content);
                        drop(st);
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                }
            }
            let digest = content.digest();
            // The lock is held across the request so versions merge while it is under way.
            let result = match st.message {
                Some(m) => {
                    let edit = EditMessage::new()
                        .embed(content.embed())
                        .components(content.rows());
                    let r = channel.edit_message(&self.http, m, edit).await.map(|_| ());
                    crate::counted("editMessage", &r);
                    r
                }
                None => {
                    let msg = CreateMessage::new()
                        .embed(content.embed())
                        .components(content.rows());
                    let sent = channel.send_message(&self.http, msg).await;
                    crate::counted("createMessage", &sent);
                    match sent {
                        Ok(m) => {
                            st.message = Some(m.id);
                            let kept = self
                                .store
                                .keep_first_post(
                                    Platform::Discord,
                                    &slot.key,
                                    &slot.recipient,
                                    &m.id.to_string(),
                                )
                                .await;
                            match kept.map(|k| k.parse().ok().map(MessageId::new)) {
                                Ok(Some(other)) if other != m.id => {
                                    // Another process sent it too while the store was away,
                                    // and its copy stands: this one goes, and this version is
                                    // shown on that one.
                                    let r = channel.delete_message(&self.http, m.id).await;
                                    crate::counted("deleteMessage", &r);
                                    st.message = Some(other);
                                    st.pending.get_or_insert(content);
                                    continue;
                                }
                                Ok(_) => {}
                                Err(e) => {
                                    tracing::warn!(error = %e, key = %slot.key, "could not remember a message id")
                                }
                            }
                            Ok(())
                        }
                        Err(e) => {
                            // The claim to send it goes: the next showing sends it at once.
                            self.store
                                .release_first_posts(Platform::Discord, &[&slot.key], &slot.recipient)
                                .await;
                            Err(e)
                        }
                    }
                }
            };
            st.last_edit = Some(Instant::now());
            match result {
                Ok(()) => {
                    st.sent = Some(digest);
                    // A newer version claimed by another process while this one was on its
                    // way may have landed first: it goes out again, after this one (a
                    // table message; a hand only right after the live processes changed,
                    // when its table's previous and next owners may both show it).
                    let look =
                        matches!(slot.place, Place::Channel(_)) || self.store.live_changed_within(HAND_LOOK);
                    if let (Some(v), None, true) = (content.version, &st.pending, look) {
                        let newer = self
                            .store
                            .newer_shown(Platform::Discord, &slot.key, &slot.recipient, v)
                            .await;
                        if let Some((v, text, buttons)) = newer {
                            st.pending = Some(Content {
                                text,
                                buttons,
                                version: Some(v),
                            });
                        }
                    }
                }
                Err(e) if matches!(slot.place, Place::Dm(_)) && error_code(&e) == Some(DM_CLOSED) => {
                    st.running = false;
                    let latest = st.pending.take().unwrap_or(content);
                    return Some((slot.recipient.clone(), slot.chat.clone(), latest));
                }
                Err(e) => tracing::warn!(error = %e, key = %slot.key, "could not show a message"),
            }
        }
    }
}
