//! All of stikis-telegram's integration tests in one test binary: each file below is one
//! module (named as the file), and the helpers they share are compiled once. One binary
//! instead of one per file keeps a clean `cargo test --release` build within CI's time
//! (each binary optimised the same async and generic code again). Run one part with a filter,
//! e.g. `cargo test --release -p stikis-telegram --test all bench::`.
//! tests/metrics.rs is its own binary: the metrics registry is one per process.

mod fake;

mod bench;
mod chaos;
mod cli;
mod deploy;
mod durable;
mod e2e;
mod ephemeral_hands;
mod fake_limits;
mod pace;
mod webhooks;
