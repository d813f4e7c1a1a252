//! # domsim
//!
//! A high-throughput simulator for card games played by declarative bots:
//! Dominion (base game and Intrigue, first editions, and Dark Ages) in
//! [`dominion`], on a runner, statistics and reports shared by every game.
//!
//! * [`new_salem`] — New Salem (hidden roles, drafting, 3–8 players): card
//!   data files, engine, declarative bots, `domsim salem`;
//! * [`dominion`] — everything that knows Dominion's rules (re-exported below
//!   under the short names `cards`, `engine`, `bots`, `strategy`, `scenario`, `soak`);
//! * [`cards`] — the card table (single source of truth) and card effects;
//! * [`engine`] — game state, setup, turns, decisions;
//! * [`bots`] — built-in bots: scripted (tests), Big Money, random;
//! * [`dominion::kingdoms`] — the kingdom of a run and how it was chosen;
//! * [`dominion::outputs`] — the metadata, CSVs and game log Dominion's runs write;
//! * [`dominion::presets`] — the recommended kingdoms of the rulebooks;
//! * [`dominion::logbots`] — the bots wrapper that logs a game (`domsim log`);
//! * [`search`] — the search bot: Monte-Carlo search with the engine as its model;
//! * [`bench`] — the throughput suite of `domsim bench`;
//! * [`rank`] — Bradley–Terry and Plackett–Luce ratings over a field of bots (`domsim rank`);
//! * [`optimize`] — strategy templates and the search for the best bot (`domsim optimize`);
//! * [`sim`] — the game-independent runner ([`sim::runner`]), shards,
//!   checkpoints, sweeps, seat rotation, the win-rate statistics;
//! * [`stats`] — playtest statistics and the HTML report;
//! * [`strategy`] — the strategy language: parse, compile, evaluate;
//! * [`report`] — console tables and CSV outputs;
//! * [`commands`] — the command line, one file per verb (its clap arguments,
//!   its configuration validated once from them, its run); nothing in the
//!   library imports it (docs/ARCHITECTURE.md, tests/it/layering.rs);
//! * [`serve`] — `domsim serve`, the strategy workbench in the browser (axum);
//! * [`output`] — how every file is written and read (`-`, atomic files, links, devices, size caps, input/output clashes);
//! * [`soak`] — the soak test (`domsim soak`): random kingdoms and bots, no panic/hang;
//! * [`scenario`] — the text notation for a game state, used by tests and
//!   by `domsim scenario`.

pub mod bench;
pub mod commands;
pub mod digest;
pub mod dominion;
pub mod new_salem;
pub mod optimize;
pub mod output;
pub mod playtest;
pub mod rank;
pub mod report;
pub mod serve;
pub mod sim;
pub mod stats;

// The Dominion modules keep their short paths (`domsim::engine`, `crate::cards`, …):
// callers, tests and benches name them as before.
pub use dominion::{bots, cards, engine, scenario, search, soak, strategy};

pub use cards::{Card, CardSet, Types};
pub use engine::{Bots, Game, Kingdom, Outcome};
