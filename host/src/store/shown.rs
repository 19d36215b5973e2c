//! Which process shows which message, when several share one database: the platform id of
//! each keyed message (claimed by the one process that sends its first version) and the newest
//! version of each table message (claimed before it is sent, so an older state never replaces
//! a newer one). Both bots follow the same policy through `first_post`, `claim_shown` and
//! `newer_shown`; they only send.

use std::collections::HashSet;
use std::time::Duration;

use super::*;
use crate::button::Button;

/// What `messages.message_id` holds while a process sends a message's first version
/// (`Store::claim_first_post`), followed by the claim's time in Unix ms, a colon and the
/// claiming process's id (`sending:<ms>:<process>`; older versions wrote no process). Never
/// a platform id.
pub const FIRST_POST_MARK: &str = "sending:";
/// How long a first-post claim holds before another process may take it over (the claimant
/// died before sending, or before remembering the id).
pub const FIRST_POST_CLAIM_MS: i64 = 10_000;
/// How long a first-post claim of a process that is not alive (`Store::set_live`) holds: long
/// enough for a process that just started, which the others count among the live ones a
/// moment after its first claims, not to have its claims taken.
pub const DEAD_CLAIM_MS: i64 = 2_000;

/// Who sends the first message that shows a key to a recipient (`Store::claim_first_post`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstPost {
    /// This caller: send it, then remember its id.
    Mine,
    /// Sent already: the platform's id of it.
    Sent(String),
    /// Another process is sending it.
    Sending,
}

/// How long `Store::first_post` tries to claim a first send while the store is away before
/// sending unclaimed: longer than a database restart takes, shorter than a stop's grace
/// period.
pub const REMEMBER_WAIT: Duration = Duration::from_secs(20);

/// How long `Store::remember_message_ref` and `Store::keep_first_post` try while the store
/// is away: longer than an outage of a minute. A message sent while the store was away is
/// then remembered, or found to be a second copy and deleted, once it is back; given up
/// sooner, its copy was never edited again and showed an older state (in a 60 s outage, a
/// person's newest hand message kept the buttons it had when the outage began, and the
/// table waited on the turn timer). A stop in the middle of an outage may take that long;
/// killed at the end of its grace period, it loses no more than a crash would.
pub const KEEP_WAIT: Duration = Duration::from_secs(90);

/// Runs `attempt` until it succeeds or `KEEP_WAIT` has passed, waiting longer after each
/// failure (from 100 ms, doubling, at most 2 s).
async fn retry_remember<T, F, Fut>(mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    let until = tokio::time::Instant::now() + KEEP_WAIT;
    let mut pause = Duration::from_millis(100);
    loop {
        match attempt().await {
            Ok(v) => return Ok(v),
            Err(e) if tokio::time::Instant::now() + pause >= until => {
                crate::observe::store_error("remember", &e);
                return Err(e);
            }
            Err(e) => {
                tracing::debug!(error = %e, "could not remember a message id yet; trying again");
                crate::observe::store_retry("remember");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

impl Store {
    /// The platform's id of the message that shows outbox message `key` to `recipient`.
    pub async fn message_ref(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
    ) -> Result<Option<String>> {
        let id = self.stored_message_id(platform, key, recipient).await?;
        // A first version being sent (`claim_first_post`) has no id yet.
        Ok(id.filter(|id| !id.starts_with(FIRST_POST_MARK)))
    }

    /// What `messages` holds for `key` to `recipient`: the platform's id, or the mark of a
    /// first version being sent.
    async fn stored_message_id(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
    ) -> Result<Option<String>> {
        let sql = "SELECT message_id FROM messages WHERE platform = $1 AND msg_key = $2 AND recipient = $3";
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar(sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Remembers (or replaces) the platform message that shows `key` to `recipient`.
    pub async fn set_message_ref(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        message_id: &str,
    ) -> Result<()> {
        self.write_message_ref(platform, key, recipient, message_id, false)
            .await
            .map(|_| ())
    }

    /// Stores `message_id` for `key` to `recipient`: over whatever was there, or with
    /// `over_claim_only` only over nothing or a first-post claim (never over another id).
    /// True if it was stored (the row names `message_id` now); false if another id stood.
    async fn write_message_ref(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        message_id: &str,
        over_claim_only: bool,
    ) -> Result<bool> {
        // RETURNING answers in the same statement whether the write took: an upsert whose
        // WHERE refused it returns no row.
        let sql = if over_claim_only {
            "INSERT INTO messages (platform, msg_key, recipient, message_id) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (platform, msg_key, recipient) DO UPDATE SET message_id = excluded.message_id \
             WHERE messages.message_id LIKE 'sending:%' RETURNING message_id"
        } else {
            "INSERT INTO messages (platform, msg_key, recipient, message_id) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (platform, msg_key, recipient) DO UPDATE SET message_id = excluded.message_id \
             RETURNING message_id"
        };
        let written: Option<String> = on_light!(self, pool => {
            sqlx::query_scalar(sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .bind(message_id)
                .fetch_optional(pool)
                .await?
        });
        self.mark_sending(platform, key, recipient, false);
        Ok(written.is_some())
    }

    /// Notes that this process is sending the first post of `key` to `recipient` (true), or
    /// no longer is (false: its id was kept, or its claim given up).
    fn mark_sending(&self, platform: Platform, key: &str, recipient: &str, sending: bool) {
        let mut map = self.sending.lock().expect("sending");
        let k = (platform, key.to_string(), recipient.to_string());
        if sending {
            map.insert(k, std::time::Instant::now());
        } else {
            map.remove(&k);
        }
    }

    /// Whether this process is sending the first post of `key` to `recipient` now (claimed
    /// within `SENDING_HELD`, neither kept nor given up since).
    fn is_sending(&self, platform: Platform, key: &str, recipient: &str) -> bool {
        let mut map = self.sending.lock().expect("sending");
        map.retain(|_, at| at.elapsed() < SENDING_HELD);
        map.contains_key(&(platform, key.to_string(), recipient.to_string()))
    }

    /// `set_message_ref`, tried again while the store is away (a database restart): a
    /// message sent and never remembered is a copy that no process edits any more, which its
    /// reader takes for the newest. Gives up after `KEEP_WAIT` with the last error.
    pub async fn remember_message_ref(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        message_id: &str,
    ) -> Result<()> {
        retry_remember(|| self.set_message_ref(platform, key, recipient, message_id)).await
    }

    /// Remembers `message_id` as the first message showing `key` to `recipient`, which this
    /// process sent after `claim_first_post` said `Mine`, and returns the id that stands:
    /// this one, or the one another process remembered first. Two processes both send a
    /// first version when the store could not tell them apart (it was away while they
    /// claimed); the first id remembered stands, and the other sender deletes its copy and
    /// shows its version on the standing one, so the reader is left with one message that
    /// every process edits. Tried again while the store is away, like `remember_message_ref`.
    pub async fn keep_first_post(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        message_id: &str,
    ) -> Result<String> {
        retry_remember(|| async {
            if self
                .write_message_ref(platform, key, recipient, message_id, true)
                .await?
            {
                return Ok(message_id.to_string());
            }
            // Another process's id stood: which one.
            Ok(self
                .stored_message_id(platform, key, recipient)
                .await?
                .unwrap_or_else(|| message_id.to_string()))
        })
        .await
    }

    /// Claims sending the first message that shows `key` to `recipient`, so that two
    /// processes showing it at once do not both send one (a hand shown twice): `Mine` if
    /// this caller sends it (and then remembers its id with `keep_first_post`), `Sent(id)`
    /// if it was sent, `Sending` while another process sends it. A claim not followed by an
    /// id within `FIRST_POST_CLAIM_MS` (its process died) may be taken over.
    pub async fn claim_first_post(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
    ) -> Result<FirstPost> {
        let mark = format!("{FIRST_POST_MARK}{}:{}", now_ms(), self.process);
        let insert =
            "INSERT INTO messages (platform, msg_key, recipient, message_id) VALUES ($1, $2, $3, $4) \
                      ON CONFLICT (platform, msg_key, recipient) DO NOTHING";
        let n = on_light!(self, pool => {
            sqlx::query(insert)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .bind(&mark)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if n > 0 {
            self.mark_sending(platform, key, recipient, true);
            return Ok(FirstPost::Mine);
        }
        let Some(stored) = self.stored_message_id(platform, key, recipient).await? else {
            return Ok(FirstPost::Sending);
        };
        let Some(claim) = stored.strip_prefix(FIRST_POST_MARK) else {
            return Ok(FirstPost::Sent(stored));
        };
        if self.claim_holds(claim) {
            return Ok(FirstPost::Sending);
        }
        let take = "UPDATE messages SET message_id = $4 \
                    WHERE platform = $1 AND msg_key = $2 AND recipient = $3 AND message_id = $5";
        let n = on_light!(self, pool => {
            sqlx::query(take)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .bind(&mark)
                .bind(&stored)
                .execute(pool)
                .await?
                .rows_affected()
        });
        if n > 0 {
            // Its claimant died before sending or before keeping the id, or is slow.
            tracing::info!(key, claim = %stored, "took over a lapsed first-post claim");
            self.mark_sending(platform, key, recipient, true);
            return Ok(FirstPost::Mine);
        }
        Ok(FirstPost::Sending)
    }

    /// Whether a first-post claim (`<ms>:<process>` after the mark) still holds: younger
    /// than `FIRST_POST_CLAIM_MS`, or than `DEAD_CLAIM_MS` when its process is known to be
    /// gone (its sessions closed: it sends nothing more).
    fn claim_holds(&self, claim: &str) -> bool {
        let (ms, process) = match claim.split_once(':') {
            Some((ms, process)) => (ms, Some(process)),
            None => (claim, None),
        };
        let Ok(ms) = ms.parse::<i64>() else {
            return false;
        };
        let age = now_ms() - ms;
        let gone = process.is_some_and(|p| {
            *p != *self.process
                && self
                    .live
                    .read()
                    .expect("live processes")
                    .as_ref()
                    .is_some_and(|live| !live.iter().any(|l| l == p))
        });
        age < if gone { DEAD_CLAIM_MS } else { FIRST_POST_CLAIM_MS }
    }

    /// The hosting processes alive now, as the host last read them: a first-post claim of
    /// any other process is taken over after `DEAD_CLAIM_MS`.
    pub fn set_live(&self, live: Vec<String>) {
        let mut was = self.live.write().expect("live processes");
        let now = std::time::Instant::now();
        let mut since = self.live_since.lock().expect("live since");
        let changed = was.as_ref() != Some(&live);
        *since = match *since {
            // While this process could not read the set (a database restart), the others
            // may have seen it gone and moved its tables: as good as a change.
            Some((t, read)) if !changed && now.duration_since(read) <= LIVE_READ_GAP => Some((t, now)),
            _ => Some((now, now)),
        };
        *was = Some(live);
    }

    /// Whether this process alone shows table `table`'s hands now, so that their versions
    /// need no claim (`claim_hand`): alone (`alone`), or it owns the table by the live set
    /// as it last read it (`crate::ownership::owner_among`) and that set has not changed for
    /// `settled`. Meant for a platform on which the owner shows every hand of its tables
    /// (Telegram: `HandDelivery::Shown`). Within `settled` of a change of the live set, each
    /// process claims what it shows: the previous owner learns of the change within a read
    /// of the live set (`OWNERS_EVERY`) and claims from then on, and anything it still
    /// holds back must be sent within `settled` (so `settled` is longer than the longest
    /// hold); the new owner's claims meanwhile fence the older versions off. A process whose
    /// reads of the live set stopped for over `LIVE_READ_GAP` (the database away) takes it
    /// as a change: the others may have seen it gone meanwhile and moved its tables.
    pub fn shows_alone(&self, table: i64, settled: std::time::Duration) -> bool {
        if self.alone() {
            return true;
        }
        let since = *self.live_since.lock().expect("live since");
        if since.is_none_or(|(t, read)| t.elapsed() < settled || read.elapsed() > LIVE_READ_GAP) {
            return false;
        }
        self.live
            .read()
            .expect("live processes")
            .as_ref()
            .and_then(|live| crate::ownership::owner_among(table, live).map(|o| o == &*self.process))
            .unwrap_or(false)
    }

    /// Whether the live processes changed within `within`, or were not read lately (never
    /// when alone, `alone`): a hand shown then may cross one shown by another process (the
    /// table's previous or next owner), claimed after this one's claim and landing before
    /// it, so an adapter looks after sending a hand whether a newer version was claimed
    /// meanwhile (`newer_shown`) and shows that one again. Outside such moments the look,
    /// a query for every hand shown, is left out.
    pub fn live_changed_within(&self, within: std::time::Duration) -> bool {
        if self.alone() {
            return false;
        }
        let since = *self.live_since.lock().expect("live since");
        since.is_none_or(|(t, read)| t.elapsed() < within || read.elapsed() > LIVE_READ_GAP)
    }

    /// Which of `keys` were posted once (`claim_once`) on `platform`, to any recipient:
    /// their post was sent and its id kept. A claim whose post may not have gone out is not
    /// counted. One query.
    pub async fn posted_once(&self, platform: Platform, keys: &[String]) -> Result<HashSet<String>> {
        if keys.is_empty() {
            return Ok(HashSet::new());
        }
        let marks: Vec<String> = (0..keys.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT msg_key FROM messages WHERE platform = $1 AND msg_key IN ({}) \
             AND message_id NOT LIKE 'sending:%'",
            marks.join(", ")
        );
        let rows: Vec<(String,)> = on_pool!(self, pool => {
            let mut q = sqlx::query_as(&sql).bind(platform.as_str());
            for k in keys {
                q = q.bind(k);
            }
            q.fetch_all(pool).await?
        });
        Ok(rows.into_iter().map(|(k,)| k).collect())
    }

    /// The oldest of table `table`'s deals up to `last` whose result no process posted
    /// (`posted_once`), looked for from `last` back: the last `window` deals first, then
    /// further back, ten times as many each time, for as long as the oldest deal looked at
    /// was not posted either. A process's posts held back by a group's post budget die with
    /// it, however many they are (a table played faster than the budget owes more results
    /// than any fixed number of deals), and the process that takes its table over posts them
    /// all (`Host::owed_results`). None if every result looked at was posted. One query,
    /// unless the oldest deal of the last `window` was not posted.
    pub async fn oldest_unposted_result(
        &self,
        platform: Platform,
        table: i64,
        last: usize,
        window: usize,
    ) -> Result<Option<usize>> {
        let key = |deal| crate::msgkey::MsgKey::Result { table, deal }.to_string();
        let mut oldest = None;
        let mut hi = last;
        let mut size = window.max(1);
        while hi >= 1 {
            let lo = hi.saturating_sub(size - 1).max(1);
            // At most `OWED_QUERY_KEYS` keys a query (SQLite's and PostgreSQL's limits on
            // parameters are far above it).
            let mut posted = HashSet::new();
            for from in (lo..=hi).step_by(OWED_QUERY_KEYS) {
                let keys: Vec<String> = (from..=hi.min(from + OWED_QUERY_KEYS - 1)).map(key).collect();
                posted.extend(self.posted_once(platform, &keys).await?);
            }
            if let Some(n) = (lo..=hi).find(|n| !posted.contains(&key(*n))) {
                oldest = Some(n);
            }
            if posted.contains(&key(lo)) {
                break;
            }
            hi = lo - 1;
            size = size.saturating_mul(10);
        }
        Ok(oldest)
    }

    /// Gives up a first-post claim whose send failed (`claim_first_post`), so that the next
    /// showing, by this process or another, sends it without waiting for the claim to lapse.
    pub async fn release_first_post(&self, platform: Platform, key: &str, recipient: &str) -> Result<()> {
        self.mark_sending(platform, key, recipient, false);
        let sql = "DELETE FROM messages WHERE platform = $1 AND msg_key = $2 AND recipient = $3 \
                   AND message_id LIKE 'sending:%'";
        on_write!(self, pool => {
            sqlx::query(sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Gives up the first-post claims of `keys` (a post carrying them all failed), so that
    /// the next showing sends them at once. Best effort: an unreleased claim lapses.
    pub async fn release_first_posts(&self, platform: Platform, keys: &[&str], recipient: &str) {
        for key in keys {
            if let Err(e) = self.release_first_post(platform, key, recipient).await {
                tracing::debug!(error = %e, "could not give up a first-post claim");
            }
        }
    }

    /// Claims showing `version` of message `key` to `recipient`, with its content `body`:
    /// true unless a newer version was claimed already (by this process or another), in
    /// which case the caller must not send its older one. With `table`, refused also when
    /// that table's action log holds an action after `version`: the state shown is older
    /// than the log's, and whoever made the newer actions shows them. A process that loaded
    /// a table while its previous owner, not yet aware of the change of owner, went on
    /// moving it (a Telegram owner shows its hands unclaimed, `shows_alone`) would otherwise
    /// send its older hands over the newer ones (5 hands gone back at one process's start
    /// in a 300 s chaos run).
    pub async fn claim_render(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        version: i64,
        body: &str,
        table: Option<i64>,
    ) -> Result<bool> {
        const UPSERT: &str = "ON CONFLICT (platform, msg_key, recipient) DO UPDATE \
                              SET version = excluded.version, body = excluded.body \
                              WHERE renders.version <= excluded.version";
        let sql = match table {
            None => format!(
                "INSERT INTO renders (platform, msg_key, recipient, version, body) \
                 VALUES ($1, $2, $3, $4, $5) {UPSERT}"
            ),
            Some(_) => format!(
                "INSERT INTO renders (platform, msg_key, recipient, version, body) \
                 SELECT $1, $2, $3, $4, $5 \
                 WHERE NOT EXISTS (SELECT 1 FROM actions WHERE table_id = $6 AND seq > $4) \
                 {UPSERT}"
            ),
        };
        // On PostgreSQL a claim need not wait for the disk (`Store::light`).
        let n = on_light!(self, pool => {
            let mut q = sqlx::query(&sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .bind(version)
                .bind(body);
            if let Some(t) = table {
                q = q.bind(t);
            }
            q.execute(pool).await?.rows_affected()
        });
        Ok(n > 0)
    }

    /// The version of message `key` to `recipient` claimed after `version` (a newer one), and
    /// its content; None if `version` is still the newest.
    pub async fn newer_render(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        version: i64,
    ) -> Result<Option<(i64, String)>> {
        let sql = "SELECT version, body FROM renders \
                   WHERE platform = $1 AND msg_key = $2 AND recipient = $3 AND version > $4";
        Ok(on_pool!(self, pool => {
            sqlx::query_as(sql)
                .bind(platform.as_str())
                .bind(key)
                .bind(recipient)
                .bind(version)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Who sends the first version of message `key` to `recipient`, which two processes may
    /// show at once: `Mine` if this process does (it must then remember the id with
    /// `keep_first_post`, or `release_first_post` if sending failed), `Sent(id)` if another
    /// did, waited for while it sends (up to `FIRST_POST_WAITS` × 100 ms), `Sending` if it
    /// is still being sent after that (show it again later). While the store is away (a
    /// database restart) the claim is tried again for up to `REMEMBER_WAIT`: a message sent
    /// unclaimed may be sent by another process too (a result posted twice). After that this
    /// process sends it: a message shown twice is better than none.
    pub async fn first_post(&self, platform: Platform, key: &str, recipient: &str) -> FirstPost {
        let until = tokio::time::Instant::now() + REMEMBER_WAIT;
        let mut waits = 0;
        let mut pause = Duration::from_millis(100);
        loop {
            match self.claim_first_post(platform, key, recipient).await {
                Ok(FirstPost::Sending) if waits < FIRST_POST_WAITS => {
                    waits += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Ok(FirstPost::Sending) => {
                    tracing::warn!(key, "another process is still sending a message");
                    return FirstPost::Sending;
                }
                Ok(answer) => return answer,
                Err(e) if tokio::time::Instant::now() + pause >= until => {
                    crate::observe::store_error("claim", &e);
                    tracing::warn!(error = %e, key, "could not claim a message's first post; sending it");
                    return FirstPost::Mine;
                }
                Err(e) => {
                    tracing::debug!(error = %e, "could not claim a first post yet; trying again");
                    crate::observe::store_retry("claim");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(2));
                }
            }
        }
    }

    /// `first_post` without waiting: `Sending` at once while another process sends it, or
    /// while the store cannot tell (for a caller that shows it again later rather than hold
    /// anything while it waits).
    pub async fn first_post_now(&self, platform: Platform, key: &str, recipient: &str) -> FirstPost {
        self.claim_first_post(platform, key, recipient)
            .await
            .unwrap_or_else(|e| {
                tracing::debug!(error = %e, "could not claim a first post");
                FirstPost::Sending
            })
    }

    /// Whether this process posts the message kept under `once` (a deal's result): false if
    /// it was posted (by this process or another), or another process posted it while this
    /// one waited, or this process is sending it now. If another process is still at it after
    /// the wait (it may have died), this one posts too: a result shown twice is better than
    /// one never shown. A post that fails gives its claim up with `release_first_post`.
    pub async fn claim_once(&self, platform: Platform, once: &str, recipient: &str) -> bool {
        if self.is_sending(platform, once, recipient) {
            // This process is sending it (e.g. held by a chat's flood control) and keeps its
            // id when it is sent: a second post would show it twice.
            return false;
        }
        !matches!(
            self.first_post(platform, once, recipient).await,
            FirstPost::Sent(_)
        )
    }

    /// Claims showing `version` of table message `key` to `recipient`, with its text and
    /// buttons: false if a newer version was claimed (by this process or another), and the
    /// caller must not send this older one. Without the store it is shown: showing the state
    /// is better than showing nothing.
    pub async fn claim_shown(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        version: i64,
        text: &str,
        buttons: &[Vec<Button>],
    ) -> bool {
        let body = render_body(text, buttons);
        match self
            .claim_render(platform, key, recipient, version, &body, None)
            .await
        {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::debug!(error = %e, "could not claim a render");
                true
            }
        }
    }

    /// `claim_shown` for a hand (a person's private message), claimed before it is sent,
    /// refused too when its table's log has moved past `version` (`claim_render`),
    /// and not looked at again after but right after the live processes changed
    /// (`live_changed_within`): only a process that sees the same person act, or hosts
    /// the table, shows a hand, and its older versions come late from a process that
    /// received a handed press or died meanwhile (a newer version is claimed before they
    /// arrive). Alone (SQLite, or no other process alive on PostgreSQL as last read) nobody
    /// else shows it, and the claim, a write for every hand shown, is left out (and by a
    /// Telegram table's settled owner, which alone shows its hands: `shows_alone`).
    pub async fn claim_hand(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        version: i64,
        text: &str,
        buttons: &[Vec<Button>],
    ) -> bool {
        if self.alone() {
            return true;
        }
        let Some(table) = crate::msgkey::MsgKey::hand_table(key) else {
            return self
                .claim_shown(platform, key, recipient, version, text, buttons)
                .await;
        };
        let body = render_body(text, buttons);
        match self
            .claim_render(platform, key, recipient, version, &body, Some(table))
            .await
        {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::debug!(error = %e, "could not claim a hand");
                true
            }
        }
    }

    /// Whether no other process shows this database's messages: only this process alive as
    /// read (`set_live`) for `ALONE_SETTLED` of reads without a gap, or, before any read,
    /// SQLite (which one process uses; the host reads the live set on PostgreSQL only).
    /// Right after a database restart every process finds itself alone for a moment (the
    /// others' sessions are being made again): each would show hands without claiming
    /// them, and an older version could land last (11 of 12 hands gone back to older
    /// buttons in a 300 s Telegram run were within 6 s after the restart).
    fn alone(&self) -> bool {
        match self.live.read().expect("live processes").as_ref() {
            Some(live) => {
                live.iter().all(|p| *p == *self.process)
                    && self
                        .live_since
                        .lock()
                        .expect("live since")
                        .is_some_and(|(t, read)| {
                            t.elapsed() >= ALONE_SETTLED && read.elapsed() <= LIVE_READ_GAP
                        })
            }
            None => matches!(self.backend, Backend::Sqlite(_)),
        }
    }

    /// The version of table message `key` to `recipient` claimed after `version`, with its
    /// text and buttons, to be sent again after `version` (which may have landed after it);
    /// None if `version` is the newest (or the store cannot tell).
    pub async fn newer_shown(
        &self,
        platform: Platform,
        key: &str,
        recipient: &str,
        version: i64,
    ) -> Option<(i64, String, Vec<Vec<Button>>)> {
        let (v, body) = self
            .newer_render(platform, key, recipient, version)
            .await
            .ok()??;
        let (text, buttons) = parse_render_body(&body)?;
        Some((v, text, buttons))
    }
}

/// The most result keys `Store::oldest_unposted_result` asks about in one query.
const OWED_QUERY_KEYS: usize = 500;

/// The longest pause between two reads of the live processes (`set_live`, every
/// `OWNERS_EVERY`) after which the set counts as changed (`shows_alone`).
const LIVE_READ_GAP: Duration = Duration::from_secs(2);

/// How long a process must have read itself as the only one alive, without a gap in its
/// reads, before it shows messages without claiming their versions (`alone`): longer than
/// the others take to make their sessions again after a database restart.
const ALONE_SETTLED: Duration = Duration::from_secs(10);

/// How long a first post this process claimed counts as being sent by it (`claim_once`):
/// longer than Telegram's flood control holds a message (its `retry_after`, tried 5 times).
const SENDING_HELD: Duration = Duration::from_secs(300);

/// How often (every 100 ms) `Store::first_post` waits for another process that sends a
/// message's first version before it gives up for now.
const FIRST_POST_WAITS: usize = 50;

/// The content of a version of a table message, as kept with its claim: JSON
/// `{"text", "buttons"}`.
fn render_body(text: &str, buttons: &[Vec<Button>]) -> String {
    serde_json::json!({ "text": text, "buttons": buttons }).to_string()
}

/// The text and buttons kept by `render_body`; None for anything else.
fn parse_render_body(body: &str) -> Option<(String, Vec<Vec<Button>>)> {
    #[derive(serde::Deserialize)]
    struct Body {
        text: String,
        buttons: Vec<Vec<Button>>,
    }
    let b: Body = serde_json::from_str(body).ok()?;
    Some((b.text, b.buttons))
}
