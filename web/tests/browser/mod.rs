//! Headless Chromium for the web tests: Debian's chromedriver started on a free port, a
//! session, screenshots kept under the target directory.
#![allow(dead_code)]

/// Debian's chromedriver (package chromium-driver), or the one STIKIS_CHROMEDRIVER names.
pub fn chromedriver() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("STIKIS_CHROMEDRIVER") {
        return Some(p.into());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromedriver"))
            .find(|p| p.is_file())
    })
}

/// `chromedriver()`, or None after saying that the browser is not tested; with
/// STIKIS_REQUIRE_BROWSER set (CI), no chromedriver fails the test instead.
pub fn chromedriver_or_skip() -> Option<std::path::PathBuf> {
    let found = chromedriver();
    if found.is_none() {
        assert!(
            std::env::var_os("STIKIS_REQUIRE_BROWSER").is_none(),
            "STIKIS_REQUIRE_BROWSER is set, but there is no chromedriver (apt-get install chromium-driver)"
        );
        eprintln!("no chromedriver (Debian: apt-get install chromium chromium-driver): browser not tested");
    }
    found
}

/// chromedriver on a free port, killed when dropped.
pub struct Driver(std::process::Child, pub u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub async fn start_driver(path: &std::path::Path) -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = std::process::Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let driver = Driver(child, port);
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return driver;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("chromedriver does not listen on {port}");
}

pub async fn browser(driver: &Driver) -> fantoccini::Client {
    browser_sized(driver, 1280, 1400).await
}

/// A Chromium session whose window is `width`×`height` (a phone: 390×844).
pub async fn browser_sized(driver: &Driver, width: u32, height: u32) -> fantoccini::Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({"args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", format!("--window-size={width},{height}")]}),
    );
    fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.1))
        .await
        .expect("a Chromium session")
}

/// Where the browser test leaves its screenshots.
pub fn shots() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn shot(c: &fantoccini::Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    let path = shots().join(name);
    std::fs::write(&path, png).unwrap();
    eprintln!("screenshot: {}", path.display());
}
