//! The policies a search plays its rollouts with: the pool of shipped bots
//! that fit the kingdom, ranked once per kingdom ([`rank`]), the search
//! bot's own rollout policy (the best of the pool by default) and a model
//! of each opponent chosen at every decision from public information only
//! ([`model_for`]).
//!
//! # The opponent model
//!
//! A rollout that plays every opponent with Big Money Ultimate models a
//! Double Witch opponent as a bot that never buys a Witch, and against
//! that model nearly every line wins. The model of opponent `q` is the
//! member of the pool whose buy and gain rules best explain the cards `q`
//! has gained — public (RULES §2: every gain is announced; the counts are
//! what [`Observation`] keeps of an opponent): the fewest Kingdom cards
//! owned by `q` that the member never buys or gains (each copy counts one),
//! then, once `q` has taken [`ABSENT_AFTER`] turns, one more point against
//! a member that names Kingdom cards of which `q` owns none (a Double Witch
//! bot would have bought its Witch by then); ties go to the better-ranked
//! member. It reads the observation only: the owned counts and the turns
//! taken, never a hidden zone.

use super::Observation;
use crate::cards::CardSet;
use crate::engine::{Kingdom, MAX_PLAYERS};
use crate::strategy::{Compiled, StrategyBots};

/// A policy of the pool, compiled for the kingdom.
#[derive(Clone, Debug)]
pub struct Model {
    pub compiled: Compiled,
    /// The Kingdom cards (of this kingdom) its buy and gain lists name.
    pub kingdom_cards: CardSet,
    /// Its share of the wins in [`rank`]'s games (0 until ranked).
    pub score: f64,
}

/// Games each member of the pool plays against the reference in [`rank`].
pub const RANK_GAMES: u64 = 200;

/// The seed of [`rank`]'s games (fixed: the ranking is part of the bot).
pub const RANK_SEED: u64 = 0x5EA4_C4B0_7EAD_0001;

/// Turns after which an opponent who owns none of a member's Kingdom cards
/// counts against that member ([`model_for`]).
pub const ABSENT_AFTER: u16 = 6;

/// Rank `pool` by each member's share of the wins against `reference` (one
/// seat of `k`'s player count, the others `reference`, the seat rotated)
/// over [`RANK_GAMES`] games of seed [`RANK_SEED`]: best first, ties in
/// pool order. Deterministic.
pub fn rank(mut pool: Vec<Model>, reference: &Compiled, k: &Kingdom) -> Vec<Model> {
    let n = k.n();
    for m in &mut pool {
        let mut total = 0.0;
        for i in 0..RANK_GAMES {
            let me = (i as usize) % n;
            let mut seats = [reference; MAX_PLAYERS];
            seats[me] = &m.compiled;
            let mut b = StrategyBots::new(&seats[..n]);
            let mut g = crate::engine::Game::new(k, RANK_SEED, i);
            let o = g.play_game(&mut b);
            if o.won(me) {
                total += 1.0 / o.winner_count() as f64;
            }
        }
        m.score = total / RANK_GAMES as f64;
    }
    pool.sort_by(|a, b| b.score.total_cmp(&a.score));
    pool
}

/// The member of `models` (ranked, best first; not empty) that models
/// opponent `q` of the observation: see the module doc. Reads only the
/// public counts of `obs`.
pub fn model_for(obs: &Observation, q: u8, models: &[Model]) -> usize {
    let g = obs.public();
    let pl = &g.players[q as usize];
    let kingdom = g.kingdom.kingdom;
    let turns = g.turns_taken[q as usize];
    let mut best = 0;
    let mut best_cost = u32::MAX;
    for (i, m) in models.iter().enumerate() {
        let mut cost = 0u32;
        let mut owns_one = false;
        for c in kingdom.iter() {
            let owned = pl.owned[c as usize] as u32;
            if m.kingdom_cards.contains(c) {
                owns_one |= owned > 0;
            } else {
                cost += 10 * owned;
            }
        }
        if turns >= ABSENT_AFTER && !m.kingdom_cards.is_empty() && !owns_one {
            cost += 1;
        }
        if cost < best_cost {
            best_cost = cost;
            best = i;
        }
    }
    best
}
