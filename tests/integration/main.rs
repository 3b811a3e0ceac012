//! The integration tests, one binary of modules (linked once: two dozen
//! binaries each linking the server took most of a clean `cargo test`).
//! A test that needs a process of its own stays its own binary:
//! `allocations` (a counting global allocator), `work_pool_threads` (it
//! counts the process's threads) and `browser` (headless Chromium, run on
//! its own with `--ignored`). Run one module with
//! `cargo test --test integration <module>::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../server/mod.rs"]
mod server;

mod arena;
mod bots;
mod connect;
mod descriptor_limit;
mod expensive_calls;
mod foot_matches;
mod fuzz_corpus;
mod golden;
mod grpc_server;
mod hostile_clients;
mod house_rules;
mod http_api;
mod notation;
mod preset_rules;
mod random_matches;
mod replay;
mod review;
mod rules_examples;
mod startup;
mod state_custody;
mod state_validation;
mod suggest;
mod tables;
mod tls;
mod train_matches;
mod trick_contract;
