//! Dominion: the base game and Intrigue (first editions) and Dark Ages.
//!
//! Everything that knows Dominion's rules lives below this folder: the card
//! table and card handlers ([`cards`]), the engine ([`engine`]), the strategy
//! language ([`strategy`]), the built-in bots ([`bots`]), the scenario
//! notation ([`scenario`]), the search bot ([`search`]) and the soak test ([`soak`]). The shared runner
//! (`crate::sim`), statistics (`crate::stats`) and reports (`crate::report`)
//! sit above it and serve every game.

pub mod bots;
pub mod cards;
pub mod engine;
pub mod kingdoms;
pub mod lineup;
pub mod logbots;
pub mod matches;
pub mod outputs;
pub mod presets;
pub mod scenario;
pub mod search;
pub mod soak;
pub mod strategy;
pub mod sweep;
