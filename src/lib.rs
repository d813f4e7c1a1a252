//! # domsim
//!
//! A high-throughput simulator for the card game Dominion: base game (first
//! edition), Intrigue (first edition) and (in progress) Dark Ages, played by
//! declarative bots.
//!
//! * [`cards`] — the card table (single source of truth) and card effects;
//! * [`engine`] — game state, setup, turns, decisions;
//! * [`bots`] — built-in bots: scripted (tests), Big Money, random;
//! * [`bench`] — the throughput suite of `domsim bench`;
//! * [`sim`] — the parallel runner, seat rotation, statistics, presets;
//! * [`strategy`] — the strategy language: parse, compile, evaluate;
//! * [`report`] — console tables and CSV outputs (atomic writes);
//! * [`soak`] — the soak test (`domsim soak`): random kingdoms and bots, no panic/hang;
//! * [`strategy`] — the strategy language (files in `strategies/`);
//! * [`scenario`] — the text notation for a game state, used by tests and
//!   by `domsim scenario`.

pub mod bench;
pub mod bots;
pub mod cards;
pub mod cli;
pub mod engine;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod soak;
pub mod stats;
pub mod strategy;

pub use cards::{Card, CardSet, Types};
pub use engine::{Bots, Game, Kingdom, Outcome};
