//! What the dearer pages read (a community's boards, a player's page), kept a few seconds and
//! refreshed by one request at a time. When a copy goes stale, the first request to see it
//! starts one read in the background, and every request, that one included, is served the
//! previous copy meanwhile; when there is no copy yet, one request reads and the others wait
//! for its copy instead of each reading again. So however many people open the boards at the
//! moment their copy expires, the database sums them once.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(crate) struct Kept<K, V> {
    fresh: Duration,
    /// At most this many keys; past it the copies are dropped and read again when asked.
    limit: usize,
    slots: Mutex<HashMap<K, Slot<V>>>,
}

/// A copy and when it was read.
type Copy<V> = Option<(Instant, Arc<V>)>;

struct Slot<V> {
    copy: Copy<V>,
    /// Held by the one request reading this key.
    reading: Arc<tokio::sync::Mutex<()>>,
}

impl<V> Default for Slot<V> {
    fn default() -> Self {
        Slot {
            copy: None,
            reading: Arc::new(tokio::sync::Mutex::new(())),
        }
    }
}

impl<K, V> Kept<K, V>
where
    K: Hash + Eq + Clone + Send + Sync + 'static,
    V: Send + Sync + 'static,
{
    pub(crate) fn new(fresh: Duration, limit: usize) -> Arc<Self> {
        Arc::new(Kept {
            fresh,
            limit,
            slots: Mutex::new(HashMap::new()),
        })
    }

    fn slot(&self, key: &K) -> (Copy<V>, Arc<tokio::sync::Mutex<()>>) {
        let mut slots = self.slots.lock().expect("kept lock");
        if slots.len() >= self.limit && !slots.contains_key(key) {
            slots.clear();
        }
        let slot = slots.entry(key.clone()).or_default();
        (slot.copy.clone(), slot.reading.clone())
    }

    fn keep(&self, key: K, value: Arc<V>) {
        let mut slots = self.slots.lock().expect("kept lock");
        slots.entry(key).or_default().copy = Some((Instant::now(), value));
    }

    /// The copy of `key`: kept while fresh, else read by `read` as said above. A background
    /// refresh that fails keeps the old copy (and logs why); a first read that fails answers
    /// its error.
    pub(crate) async fn get<F, Fut, E>(self: &Arc<Self>, key: K, read: F) -> Result<Arc<V>, E>
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<V, E>> + Send + 'static,
        E: std::fmt::Display + Send + 'static,
    {
        let (copy, reading) = self.slot(&key);
        match copy {
            Some((at, value)) if at.elapsed() < self.fresh => Ok(value),
            Some((_, value)) => {
                if let Ok(guard) = reading.try_lock_owned() {
                    let kept = self.clone();
                    tokio::spawn(async move {
                        let _reading = guard;
                        match read().await {
                            Ok(v) => kept.keep(key, Arc::new(v)),
                            Err(e) => {
                                tracing::warn!(error = %e, "refreshing a page's data failed; the old copy stays")
                            }
                        }
                    });
                }
                Ok(value)
            }
            None => {
                let _reading = reading.lock().await;
                if let Some((_, value)) = self.slot(&key).0 {
                    return Ok(value);
                }
                let value = Arc::new(read().await?);
                self.keep(key, value.clone());
                Ok(value)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A read that counts itself and takes a moment, as a database sum does.
    fn counted(
        reads: &Arc<AtomicUsize>,
        value: u32,
    ) -> impl FnOnce() -> std::future::Ready<Result<u32, String>> {
        let reads = reads.clone();
        move || {
            reads.fetch_add(1, Ordering::SeqCst);
            std::future::ready(Ok(value))
        }
    }

    #[tokio::test]
    async fn many_first_requests_read_once_and_a_stale_copy_is_served_while_one_refreshes() {
        let kept: Arc<Kept<&str, u32>> = Kept::new(Duration::from_millis(50), 8);
        let reads = Arc::new(AtomicUsize::new(0));
        // Twenty requests at once with no copy: one read, and all get its value.
        let gate = Arc::new(tokio::sync::Notify::new());
        let mut joins = Vec::new();
        for _ in 0..20 {
            let (kept, reads, gate) = (kept.clone(), reads.clone(), gate.clone());
            joins.push(tokio::spawn(async move {
                kept.get("boards", move || async move {
                    reads.fetch_add(1, Ordering::SeqCst);
                    gate.notified().await;
                    Ok::<u32, String>(1)
                })
                .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
        gate.notify_waiters();
        for j in joins {
            assert_eq!(*j.await.unwrap().unwrap(), 1);
        }
        assert_eq!(reads.load(Ordering::SeqCst), 1);

        // Stale: the old copy is served at once, one refresh runs, then the new copy.
        tokio::time::sleep(Duration::from_millis(60)).await;
        for _ in 0..5 {
            assert_eq!(*kept.get("boards", counted(&reads, 2)).await.unwrap(), 1);
        }
        for _ in 0..100 {
            if *kept.get("boards", counted(&reads, 3)).await.unwrap() == 2 {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(*kept.get("boards", counted(&reads, 3)).await.unwrap(), 2);
        assert_eq!(
            reads.load(Ordering::SeqCst),
            2,
            "one refresh, not one per request"
        );
    }

    #[tokio::test]
    async fn a_failed_refresh_keeps_the_old_copy_and_a_failed_first_read_answers_its_error() {
        let kept: Arc<Kept<&str, u32>> = Kept::new(Duration::ZERO, 8);
        let failed = kept
            .get("p", || std::future::ready(Err::<u32, String>("down".into())))
            .await;
        assert_eq!(failed.unwrap_err(), "down");
        assert_eq!(
            *kept
                .get("p", || std::future::ready(Ok::<u32, String>(7)))
                .await
                .unwrap(),
            7
        );
        let old = kept
            .get("p", || std::future::ready(Err::<u32, String>("down".into())))
            .await;
        assert_eq!(*old.unwrap(), 7);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(
            *kept
                .get("p", || std::future::ready(Err::<u32, String>("down".into())))
                .await
                .unwrap(),
            7
        );
    }
}
