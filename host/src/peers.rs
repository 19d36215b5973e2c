//! Messages between the processes that share a PostgreSQL database (a press handed to its
//! table's owner, the owner's answer, the live pages a process has open), sent straight to
//! the other process over TCP rather than through the database.
//!
//! Through the database (`NOTIFY`), each such message was a statement of its own, and every
//! `NOTIFY` wakes every listening session of the database, not only its addressee's: with two
//! processes, that was a quarter of the database's statements. Each process listens on
//! `--peer-listen` and writes where it listens, with a secret of its own made at each start,
//! into its heartbeat row (`processes.peer`). A process sends to another over one connection
//! it keeps open, after proving that it read the other's secret from the database (so no one
//! who can only reach the port can hand a press over in someone's name). A process whose
//! address cannot be reached, or that gives none (it predates this), is told through the
//! database as before, and reached again a little later.
//!
//! Nothing here is kept: a message on a connection that breaks is lost, as a `NOTIFY` is when
//! its session breaks, and the handoff already allows for that (a press whose answer never
//! came is looked for in the log, else answered "try again").

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, BufWriter};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::store::Store;

/// How long a connection to another process, with its greeting, may take.
const CONNECT_LIMIT: Duration = Duration::from_millis(500);
/// How long a process that could not be reached is told through the database before it is
/// tried again.
const UNREACHABLE_FOR: Duration = Duration::from_secs(10);
/// How long a process that connects may take to greet.
const GREETING_LIMIT: Duration = Duration::from_secs(2);
/// The longest greeting read (the word, the secret and a newline).
const GREETING_MAX: u64 = 200;

/// Where this process listens for the others, and the connections it keeps to them.
pub(crate) struct Peers {
    /// The other live processes' "address secret", as their heartbeats give them.
    known: Mutex<HashMap<String, String>>,
    /// The connections this process keeps, by process: their number and what goes to it.
    links: Mutex<HashMap<String, (u64, mpsc::UnboundedSender<String>)>>,
    /// The number of the last connection made.
    made: std::sync::atomic::AtomicU64,
    /// Messages sent straight and through the database (`Peers::told`).
    told: Arc<Told>,
    /// How the messages that cannot go straight go: through the database.
    store: Store,
    /// The listener's task, ended when these go (with their host).
    listening: HandoffTask,
}

impl Peers {
    /// Listens on `listen` and calls `heard` with each message another process sends. The
    /// address the others are told is written into `store`'s heartbeat once known (at once
    /// when `listen` names an address; else the one the database sees this process come
    /// from). None when the address cannot be listened on (said in the log): the other
    /// processes then tell this one everything through the database.
    pub(crate) fn start(
        store: &Store,
        listen: SocketAddr,
        heard: impl Fn(&str) + Send + Sync + 'static,
    ) -> Option<Arc<Peers>> {
        let bound = std::net::TcpListener::bind(listen)
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .and_then(|l| TcpListener::from_std(l));
        let listener = match bound {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(
                    error = %e, %listen,
                    "cannot listen for the other processes; they will tell this one through the database"
                );
                return None;
            }
        };
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(listen.port());
        let secret = {
            let b = crate::config::os_seed().0;
            b.iter().map(|x| format!("{x:02x}")).collect::<String>()
        };
        let peers = Arc::new(Peers {
            known: Mutex::default(),
            links: Mutex::default(),
            made: Default::default(),
            told: Arc::default(),
            store: store.clone(),
            listening: HandoffTask::default(),
        });
        let store = store.clone();
        let heard = Arc::new(heard);
        let task = tokio::spawn(async move {
            let ip = if listen.ip().is_unspecified() {
                // The address the database sees this process come from is one the other
                // processes (which reach the same database) can reach it at.
                match store.client_address().await {
                    Ok(Some(ip)) => ip,
                    _ => std::net::IpAddr::from([127, 0, 0, 1]),
                }
            } else {
                listen.ip()
            };
            let address = SocketAddr::new(ip, port);
            tracing::info!(%address, "listening for the other processes");
            store.set_peer(Some(format!("{address} {secret}")));
            loop {
                let (stream, _) = match listener.accept().await {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::debug!(error = %e, "a process could not connect");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let (secret, heard) = (secret.clone(), Arc::clone(&heard));
                tokio::spawn(async move {
                    let _ = serve(stream, &secret, &*heard).await;
                });
            }
        });
        *peers.listening.0.lock().expect("peers task") = Some(task);
        Some(peers)
    }

    /// The other live processes and what their heartbeats say of where they listen (None:
    /// nowhere, they are told through the database). Connections to processes no longer
    /// among them, or that now say another address, are closed.
    pub(crate) fn set_live(&self, live: Vec<(String, Option<String>)>) {
        let known: HashMap<String, String> = live.into_iter().filter_map(|(p, a)| Some((p, a?))).collect();
        // Never one lock inside the other here: `straight` takes the links, then the known.
        let was = std::mem::replace(&mut *self.known.lock().expect("known peers"), known.clone());
        self.links
            .lock()
            .expect("peer links")
            .retain(|p, _| known.contains_key(p) && known.get(p) == was.get(p));
    }

    /// How many messages this process sent to the others: (straight, through the database).
    pub(crate) fn told(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.told.straight.load(Relaxed), self.told.database.load(Relaxed))
    }

    /// Sends `payload` (one line of JSON) to process `to`, straight when it listens, else
    /// through the database (`NOTIFY` on `channel`). An error: the database could not take it.
    pub(crate) async fn send(
        self: &Arc<Self>,
        to: &str,
        channel: &str,
        payload: &str,
    ) -> crate::store::Result<()> {
        if self.straight(to, channel, payload) {
            return Ok(());
        }
        self.told.count(false);
        self.store.notify(channel, payload).await
    }

    /// Queues `payload` on the connection to `to`, opening one if there is none: false when
    /// `to` gives no address.
    fn straight(self: &Arc<Self>, to: &str, channel: &str, payload: &str) -> bool {
        let mut links = self.links.lock().expect("peer links");
        if let Some((_, tx)) = links.get(to) {
            if tx.send(payload.to_string()).is_ok() {
                return true;
            }
            links.remove(to);
        }
        let Some(peer) = self.known.lock().expect("known peers").get(to).cloned() else {
            return false;
        };
        let Some((address, secret)) = peer.split_once(' ') else {
            return false;
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let _ = tx.send(payload.to_string());
        let number = self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        links.insert(to.to_string(), (number, tx));
        let link = Link {
            to: to.to_string(),
            channel: channel.to_string(),
            address: address.to_string(),
            secret: secret.to_string(),
            number,
            told: Arc::clone(&self.told),
        };
        tokio::spawn(link.run(rx, Arc::downgrade(self), self.store.clone()));
        true
    }
}

/// How many messages a process sent to the others straight, and through the database.
#[derive(Default)]
struct Told {
    straight: std::sync::atomic::AtomicU64,
    database: std::sync::atomic::AtomicU64,
}

impl Told {
    fn count(&self, straight: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        if straight {
            self.straight.fetch_add(1, Relaxed);
            crate::observe::peer_message("straight");
        } else {
            self.database.fetch_add(1, Relaxed);
            crate::observe::peer_message("database");
        }
    }
}

/// One connection to another process, while it lasts.
struct Link {
    to: String,
    /// The process's channel in the database, for what cannot go straight.
    channel: String,
    address: String,
    secret: String,
    /// Its number in `Peers::links` (to take out only this one when it ends).
    number: u64,
    told: Arc<Told>,
}

impl Link {
    /// Sends what comes on `rx` until the connection breaks, or `rx` closes (the process
    /// left the live set, or this one's host is gone).
    async fn run(self, mut rx: mpsc::UnboundedReceiver<String>, peers: std::sync::Weak<Peers>, store: Store) {
        match connect(&self.address, &self.secret).await {
            Ok(stream) => {
                crate::observe::peer_connection("open");
                let mut w = BufWriter::new(stream);
                'open: while let Some(line) = rx.recv().await {
                    let mut next = Some(line);
                    // Everything queued meanwhile goes in one write.
                    while let Some(line) = next {
                        if w.write_all(line.as_bytes()).await.is_err() || w.write_all(b"\n").await.is_err() {
                            break 'open;
                        }
                        self.told.count(true);
                        next = rx.try_recv().ok();
                    }
                    if w.flush().await.is_err() {
                        break;
                    }
                }
                tracing::debug!(process = %self.to, "the connection to a process ended");
            }
            Err(e) => {
                // Told through the database for a while, then tried again.
                tracing::debug!(error = %e, process = %self.to, address = %self.address, "a process cannot be reached; told through the database");
                crate::observe::peer_connection("unreachable");
                let until = tokio::time::Instant::now() + UNREACHABLE_FOR;
                while let Ok(Some(line)) = tokio::time::timeout_at(until, rx.recv()).await {
                    self.notify(&store, &line).await;
                }
            }
        }
        if let Some(peers) = peers.upgrade() {
            let mut links = peers.links.lock().expect("peer links");
            if links.get(&self.to).is_some_and(|(n, _)| *n == self.number) {
                links.remove(&self.to);
            }
        }
        // What was queued after the connection broke goes through the database.
        rx.close();
        while let Ok(line) = rx.try_recv() {
            self.notify(&store, &line).await;
        }
    }

    async fn notify(&self, store: &Store, line: &str) {
        self.told.count(false);
        if let Err(e) = store.notify(&self.channel, line).await {
            tracing::debug!(error = %e, "a message to another process was lost");
        }
    }
}

/// Connects to the process at `address` and greets it with its secret; it answers "ok".
async fn connect(address: &str, secret: &str) -> std::io::Result<TcpStream> {
    let connected = tokio::time::timeout(CONNECT_LIMIT, async {
        let mut s = TcpStream::connect(address).await?;
        s.set_nodelay(true)?;
        s.write_all(format!("stikis {secret}\n").as_bytes()).await?;
        let mut ok = [0u8; 3];
        s.read_exact(&mut ok).await?;
        if &ok != b"ok\n" {
            return Err(std::io::Error::other("not greeted back"));
        }
        Ok(s)
    })
    .await;
    connected.unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))
}

/// One connection from another process: its greeting must carry this process's secret;
/// then each line is a message.
async fn serve(stream: TcpStream, secret: &str, heard: &(dyn Fn(&str) + Send + Sync)) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let (r, mut w) = stream.into_split();
    let mut r = BufReader::new(r);
    let mut line = String::new();
    let greeting =
        tokio::time::timeout(GREETING_LIMIT, (&mut r).take(GREETING_MAX).read_line(&mut line)).await;
    let expected = format!("stikis {secret}");
    if !matches!(greeting, Ok(Ok(n)) if n > 0) || !same(line.trim_end().as_bytes(), expected.as_bytes()) {
        tracing::debug!("a connection that did not greet with this process's secret was closed");
        crate::observe::peer_connection("refused");
        return Ok(());
    }
    w.write_all(b"ok\n").await?;
    loop {
        line.clear();
        if r.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        heard(line.trim_end());
    }
}

/// Equal, in a time that does not tell how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listener serving one connection at a time, recording what it hears.
    async fn listening(secret: &'static str) -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&heard);
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                let log = Arc::clone(&log);
                tokio::spawn(async move {
                    let hear = move |line: &str| log.lock().unwrap().push(line.to_string());
                    let _ = serve(stream, secret, &hear).await;
                });
            }
        });
        (address, heard)
    }

    /// Only a process that greets with the listener's secret is heard: one that does not is
    /// not greeted back, and what it sends is never heard.
    #[tokio::test]
    async fn a_process_is_heard_only_after_greeting_with_the_secret() {
        let (address, heard) = listening("s3cret").await;
        let address = address.to_string();
        assert!(
            connect(&address, "guess").await.is_err(),
            "a wrong secret is not greeted"
        );
        let mut s = TcpStream::connect(&address).await.unwrap();
        s.write_all(b"stikis guess\n{\"k\":\"press\"}\n").await.unwrap();
        let mut rest = Vec::new();
        let n = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut rest))
            .await
            .expect("closed at once")
            .unwrap_or(0);
        assert_eq!(n, 0, "nothing answered to a wrong greeting: {rest:?}");
        // A greeting without its end in sight is not read past its bound.
        let mut s = TcpStream::connect(&address).await.unwrap();
        let _ = s.write_all(&[b'x'; 4096]).await;
        let n = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut rest)).await;
        assert!(matches!(n, Ok(Ok(0)) | Ok(Err(_))), "closed: {n:?}");

        let mut s = connect(&address, "s3cret").await.expect("greeted back");
        s.write_all(b"one\ntwo\n").await.unwrap();
        for _ in 0..100 {
            if heard.lock().unwrap().len() == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(*heard.lock().unwrap(), vec!["one".to_string(), "two".to_string()]);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"ab"));
        assert!(!same(b"", b"a"));
    }
}

/// A task of the host's (the handoff listener, the owners' watcher), ended when the host goes.
#[derive(Default)]
pub(crate) struct HandoffTask(pub(crate) Mutex<Option<tokio::task::JoinHandle<()>>>);

impl Drop for HandoffTask {
    fn drop(&mut self) {
        if let Some(task) = self.0.get_mut().ok().and_then(Option::take) {
            task.abort();
        }
    }
}
