//! getUpdates long polling that never spins. Telegram holds a getUpdates call open until an
//! update comes or the timeout passes; a server that answers at once with nothing (a proxy,
//! a self-hosted Bot API server misconfigured, a test double) would make a plain polling loop
//! call it as fast as the network allows. Here an empty answer that came back early is
//! followed by a pause (250 ms, doubling up to 8 s, reset by the first update); an error
//! pauses the same way, or as long as a 429's retry_after says. On stop, the last offset is
//! confirmed, so a restart does not get the handled updates again.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use teloxide::errors::AsResponseParameters;
use teloxide::prelude::*;
use teloxide::stop::{mk_stop_token, StopFlag, StopToken};
use teloxide::types::Update;
use teloxide::update_listeners::{StatefulListener, UpdateListener};
use teloxide::RequestError;

const FIRST_PAUSE: Duration = Duration::from_millis(250);
const LONGEST_PAUSE: Duration = Duration::from_secs(8);

pub(crate) struct Poll {
    bot: Bot,
    /// The long-polling timeout in seconds.
    timeout: u32,
    offset: i32,
    pause: Duration,
    buffer: VecDeque<Update>,
    token: StopToken,
    flag: StopFlag,
}

/// The listener for the dispatcher.
pub(crate) fn listener(bot: Bot, timeout: Duration) -> impl UpdateListener<Err = RequestError> {
    let (token, flag) = mk_stop_token();
    let state = Poll {
        bot,
        timeout: timeout.as_secs() as u32,
        offset: 0,
        pause: FIRST_PAUSE,
        buffer: VecDeque::new(),
        token,
        flag,
    };
    StatefulListener::new(state, updates, |st: &mut Poll| st.token.clone())
}

fn updates(st: &mut Poll) -> impl futures::Stream<Item = Result<Update, RequestError>> + Send + '_ {
    futures::stream::unfold(st, next)
}

/// Waits `st.pause` (or until stopped) and doubles it for next time.
async fn pause(st: &mut Poll, at_least: Option<Duration>) {
    let wait = at_least.unwrap_or(st.pause);
    st.pause = (st.pause * 2).min(LONGEST_PAUSE);
    let flag = st.flag.clone();
    tokio::select! {
        _ = tokio::time::sleep(wait) => {}
        _ = flag => {}
    }
}

async fn next(st: &mut Poll) -> Option<(Result<Update, RequestError>, &mut Poll)> {
    loop {
        if let Some(u) = st.buffer.pop_front() {
            return Some((Ok(u), st));
        }
        if st.flag.is_stopped() {
            let confirm = st.bot.get_updates().offset(st.offset).timeout(0).limit(1);
            let _ = confirm.send().await;
            return None;
        }
        let asked = Instant::now();
        let request = st.bot.get_updates().offset(st.offset).timeout(st.timeout);
        let flag = st.flag.clone();
        let answer = tokio::select! {
            r = request.send() => r,
            _ = flag => continue,
        };
        match &answer {
            Ok(_) => {
                LAST_ANSWER_MS.store(now_ms(), Ordering::Relaxed);
                stikis_host::observe::platform_call("telegram", "getUpdates", "ok");
            }
            Err(e) => {
                stikis_host::observe::platform_call("telegram", "getUpdates", crate::show::status_of(e))
            }
        }
        match answer {
            Ok(updates) if updates.is_empty() => {
                // A long poll that returned early with nothing: do not ask again at once.
                if asked.elapsed() < Duration::from_secs(st.timeout.max(1) as u64) / 2 {
                    pause(st, None).await;
                }
            }
            Ok(updates) => {
                st.pause = FIRST_PAUSE;
                if let Some(last) = updates.last() {
                    st.offset = last.id.as_offset();
                }
                // Presses on ephemeral messages, which teloxide cannot read, as presses.
                st.buffer
                    .extend(updates.into_iter().map(crate::ephemeral::readable));
            }
            Err(e) => {
                let wait = e.retry_after().map(|s| s.duration());
                tracing::warn!(error = %e, "getUpdates failed; polling again after a pause");
                pause(st, wait).await;
                return Some((Err(e), st));
            }
        }
    }
}

/// When getUpdates last answered (Unix ms; 0: never), for /healthz.
static LAST_ANSWER_MS: AtomicI64 = AtomicI64::new(0);

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// True if getUpdates answered within `window` (long polling is alive).
pub fn answered_within(window: Duration) -> bool {
    now_ms() - LAST_ANSWER_MS.load(Ordering::Relaxed) <= window.as_millis() as i64
}
