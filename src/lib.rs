//! # domsim
//!
//! A high-throughput simulator for the card game Dominion: base game (first
//! edition), with Intrigue (first edition) and Dark Ages planned, played by
//! declarative bots.
//!
//! * [`cards`] — the card table (single source of truth) and card effects;
//! * [`engine`] — game state, setup, turns, decisions;
//! * [`bots`] — built-in bots: scripted (tests), Big Money, random;
//! * [`scenario`] — the text notation for a game state, used by tests and
//!   by `domsim scenario`.

pub mod bots;
pub mod cards;
pub mod cli;
pub mod engine;
pub mod scenario;
pub mod stats;

pub use cards::{Card, CardSet, Types};
pub use engine::{Bots, Game, Kingdom, Outcome};
