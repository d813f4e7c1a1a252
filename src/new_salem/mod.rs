//! New Salem: a 3–8 player hidden-role drafting game (Witches and
//! Puritans), the second game domsim plays, on the runner, statistics and
//! report code it shares with Dominion ([`crate::sim::runner`]).
//!
//! * [`data`] — the four card-data files (rules, buildings, events,
//!   characters), loaded and validated; the built-in SAMPLE set (invented);
//! * [`engine`] — the rules, the game state and the [`engine::View`] a bot
//!   sees (hidden information enforced by the type);
//! * [`bot`] — declarative `.salem` bots, with a Bayesian suspicion model;
//! * [`belief`] — learning that model's likelihoods from simulated games;
//! * [`log`] — one game's log as one player may read it;
//! * [`sim`] — the runner's [`crate::sim::Match`] for New Salem, its tally and outputs;
//! * [`toolkit`] — the playtester's rule grid and paired A/B comparison;
//! * [`shard`] — a run's slices (`--shard I/N`), saved as parts and merged;
//!
//! This module is library only: its verbs (`domsim salem sim | compare |
//! sweep | merge | learn | log | check | rules`) are `src/commands/salem.rs`.
//!
//! The rules and every default chosen where the rulebook is silent are in
//! docs/NEW_SALEM.md.

pub mod belief;
pub mod bot;
pub mod data;
pub mod engine;
pub mod log;
pub mod shard;
pub mod sim;
pub mod toolkit;

/// ` (did you mean X?)` when a name is close to one of `names`.
pub fn hint(word: &str, names: &[&str]) -> String {
    closest(word, names)
        .map(|n| format!(" (did you mean {n:?}?)"))
        .unwrap_or_default()
}

/// The name of `names` closest to `word` (case ignored), if close enough
/// to be a likely misspelling of it.
pub fn closest<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    names
        .iter()
        .map(|n| (crate::cards::edit_distance(&w, &n.to_ascii_lowercase()), *n))
        .filter(|(d, n)| *d <= (n.len() / 3).max(2))
        .min_by_key(|x| x.0)
        .map(|(_, n)| n)
}
