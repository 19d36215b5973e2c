//! All of stikis-web's integration tests in one test binary: each file below is one
//! module (named as the file), and the helpers they share are compiled once. One binary
//! instead of one per file keeps a clean `cargo test --release` build within CI's time
//! (each binary optimised the same async and generic code again). Run one part with a filter,
//! e.g. `cargo test --release -p stikis-web --test all play::`.

mod browser;
#[path = "../../host/tests/common/mod.rs"]
mod common;

mod play;
mod web;
