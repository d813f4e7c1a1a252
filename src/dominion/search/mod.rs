//! A bot that needs no strategy file: Monte-Carlo search with the engine as
//! its model (issue 46). `search` in a lineup (`crate::dominion::lineup`).
//!
//! # The variant: determinized flat search at the root, sequential halving
//!
//! Information-set MCTS (Cowling, Powley & Whitehouse, "Information Set
//! Monte Carlo Tree Search", IEEE TCIAIG 2012) searches a tree of
//! information sets, drawing one determinization (a world consistent with
//! what the player has seen) per iteration. This bot uses its simplest
//! member, the one the paper calls determinized UCT restricted to the root
//! (flat Monte Carlo, one fresh determinization per rollout): the
//! candidates of the decision asked are the root's children, each
//! iteration samples a world from the [`Observation`], plays a candidate
//! in it and plays the rest of the game out with fast rollout policies.
//! Why not a deeper tree (single-observer ISMCTS):
//!
//! * the engine is a call stack, not a resumable state: a game can be cut
//!   and copied only where the turn's own loops ask (play an Action, buy),
//!   so a tree node below the root would have to be a later turn-level
//!   decision reached through card effects answered by the rollout policy —
//!   the paper's tree over *our* information sets, with the opponents'
//!   moves and the shuffles inside the edges. At a few hundred rollouts a
//!   decision (the budget a 50 ms game allows) the second level would get a
//!   handful of visits per node; the root statistics are what decides;
//! * the next decision is searched again from its own observation anyway
//!   (re-search every move), which is where a deeper tree's information
//!   would have been used;
//! * a flat search needs no tree allocation at all: per decision, two
//!   numbers per candidate.
//!
//! **Selection: sequential halving** (Karnin, Koren & Somekh, "Almost
//! optimal exploration in multi-armed bandits", ICML 2013; the root
//! selection of Gumbel MuZero), [`Select::Halving`]: `ceil(log2 K)` rounds
//! for `K` candidates; each round shares `budget / rounds` rollouts equally
//! between the candidates left and keeps the better half by mean. The bot
//! plays the candidate it picks, so what matters is the simple regret of
//! the pick with a fixed budget, which halving bounds better than UCB1
//! (built for the cumulative regret of the rollouts themselves). UCB1
//! (`select=ucb`, the most visited candidate chosen) is kept as an option.
//!
//! Refinements over plain flat search:
//! * **common random numbers**: the `k`-th rollout of every candidate
//!   plays in the same sampled world (sample `k` of the decision), so
//!   candidates are compared on the same draws and the same opponent
//!   hands — the differences, which decide, have far less variance than
//!   the means; with halving every candidate left has had the same samples;
//! * **the rollout policy's own answer first**: the bot's rollout policy
//!   answers the decision too (on the observation); that answer is the
//!   first candidate, so ties go to it, and in the ranking its mean gets a
//!   bonus [`SearchConfig::prior`] (default 0.02, virtual evidence for it):
//!   the search leaves the policy's answer only for a clearly better one;
//! * **a buy window** ([`SearchConfig::window`], default 2): a buy
//!   considers the cards costing at least the coins available minus 2,
//!   "nothing" and the policy's answer — not a Copper or an Estate with $6,
//!   which no sensible policy buys; a Witch is still a candidate with $5 to
//!   $7, and every card is one with $2;
//! * the **value** of a rollout for the player is its game result (1 for
//!   a win, 1/k for a win shared by k, 0 for a loss; RULES §15's tie
//!   break on turns included) plus a small VP-margin term (weight
//!   [`SearchConfig::margin`], default 0.05, the margin capped at ±20 VP
//!   and scaled to ±1): where every candidate wins (or loses) every
//!   rollout, the margin still ranks them (keep the lead, or keep the
//!   game close enough to come back), and a weight of 0.05 changes a
//!   ranking only between candidates within about 5 points of win rate,
//!   where the win counts alone are noise at this budget.
//!
//! # The rollout policies ([`model`])
//!
//! The bot's own later turns in a rollout, and its questions that are not
//! searched, are played by its rollout policy: by default the shipped bot
//! that fits the kingdom (every card it names is in the game) and scores
//! best against Big Money Ultimate over [`model::RANK_GAMES`] games of a
//! fixed seed, ranked once per kingdom (Double Witch in a Witch kingdom);
//! `rollout=FILE` names one. Each opponent's turns are played by a model
//! of him chosen at every decision from his public gains
//! ([`model::model_for`]): the member of the same ranked pool whose buy
//! and gain rules best explain the Kingdom cards he owns.
//!
//! # What is searched, what is not
//!
//! Searched: every **buy** (each of several buys is its own decision; the
//! candidates are the legal cards in the window and "nothing", Curse left
//! out) and every **Action play** of the Action phase with a choice
//! (every Action kind in hand and "stop"): the two questions the turn
//! itself asks, which the engine can be resumed after. An Action play
//! whose only alternative to the policy's answer — playing the one Action
//! kind in hand — is to stop is the policy's, without rollouts
//! ([`SearchConfig::lone_plays`] false, `plays=choices`; measured to lose
//! nothing and save a quarter to a third of the time). Every other question — the Treasures played
//! (all of them, by the strategy default), the picks, yes/no and "choose
//! one" questions cards ask (trash, discard, gain, Throne Room's target,
//! Masquerade's pass…), Reactions — is answered by the rollout strategy
//! file, i.e. by its lists or the strategy-file defaults of
//! docs/QUESTIONS.md and docs/STRATEGIES.md: those questions arise
//! inside a card's resolution, where the engine's call stack cannot be
//! copied into a rollout, and the strategy defaults for them are the
//! tuned ones every shipped bot uses.
//!
//! # Determinism, allocation
//!
//! The bot's generator for a decision is derived from the game's seed and
//! index ([`Game::seed`], [`Game::index`]), its seat and how many
//! decisions it searched before in this game: the same for a seed and a
//! budget whatever the thread count, and never shared between games or
//! seats. The pool's ranking plays games of a fixed seed. The game state stays allocation-free; the bot keeps its own
//! scratch (an observation, a sampled game, the candidates' statistics)
//! in memory allocated once per game, outside the game state.

pub mod model;
mod observe;

pub use model::Model;
pub use observe::Observation;

use crate::cards::{Card, CardSet};
use crate::engine::{Bots, Game, GameRng, Pick, Why, MAX_PLAYERS};
use crate::strategy::{Compiled, StrategyBots};

/// How hard the bot searches, and how it values a rollout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Rollouts per searched decision (at least one per candidate).
    pub budget: u32,
    /// UCB1's exploration constant `c` in `mean + c·sqrt(ln N / n)`.
    pub exploration: f64,
    /// Weight of the VP margin in a rollout's value (0 = results only).
    pub margin: f64,
    /// How the root's candidates are chosen between.
    pub select: Select,
    /// Bonus added to the mean of the rollout policy's own answer when the
    /// candidates are ranked (sequential halving): the search leaves that
    /// answer only for a candidate better by more than this.
    pub prior: f64,
    /// Buys considered: cards costing at least the coins available minus
    /// this (besides "nothing" and the rollout policy's answer); None: every
    /// legal card.
    pub window: Option<u8>,
    /// Search an Action play whose only alternative to the rollout
    /// policy's answer (play the one Action kind in hand) is to stop; when
    /// false such a play is the rollout policy's, without rollouts.
    pub lone_plays: bool,
    /// A rollout horizon: a rollout stops at the start of the player's turn
    /// once he has taken this many turns after the one being decided
    /// (every player has then taken as many turns), unless the game ended
    /// before, and is valued by [`evaluate`]; None: every rollout plays the
    /// game to its end.
    pub horizon: Option<u16>,
}

/// The selection at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// UCB1 (`mean + c·sqrt(ln N / n)`), the most visited candidate chosen.
    Ucb,
    /// Sequential halving (Karnin, Koren & Somekh 2013): `ceil(log2 K)`
    /// rounds; each round shares `budget / rounds` rollouts equally
    /// between the candidates left (on the same samples) and keeps the
    /// better half by mean.
    Halving,
}

impl SearchConfig {
    /// The default budget: rollouts per decision such that a 2-player game
    /// of the search bot takes at most about 50 ms on one core of the
    /// reference machine (results/SEARCH.md, "Speed": about 30 ms in a Witch kingdom, up to
    /// about 50 ms in Intrigue kingdoms with Torturer).
    pub const DEFAULT_BUDGET: u32 = 500;
    pub const DEFAULT_EXPLORATION: f64 = 0.7;
    pub const DEFAULT_MARGIN: f64 = 0.05;
    pub const DEFAULT_SELECT: Select = Select::Halving;
    pub const DEFAULT_PRIOR: f64 = 0.02;
    pub const DEFAULT_WINDOW: Option<u8> = Some(2);
    pub const DEFAULT_LONE_PLAYS: bool = false;
    pub const DEFAULT_HORIZON: Option<u16> = None;
    /// [`evaluate`]: the VP a coin more in the expected hand is worth.
    pub const MONEY_VP: f64 = 3.0;
    /// [`evaluate`]: the margin (VP) at which the estimated chance of
    /// winning is 1/(1 + e^-1), about 73%.
    pub const EVAL_SCALE: f64 = 5.0;
    /// The margin (VP) at which the margin term saturates.
    pub const MARGIN_CAP: i32 = 20;
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget: SearchConfig::DEFAULT_BUDGET,
            exploration: SearchConfig::DEFAULT_EXPLORATION,
            margin: SearchConfig::DEFAULT_MARGIN,
            select: SearchConfig::DEFAULT_SELECT,
            prior: SearchConfig::DEFAULT_PRIOR,
            window: SearchConfig::DEFAULT_WINDOW,
            lone_plays: SearchConfig::DEFAULT_LONE_PLAYS,
            horizon: SearchConfig::DEFAULT_HORIZON,
        }
    }
}

/// Whether the search bot searches pick `q` (a turn-level play an Action
/// or buy); every other question goes to the rollout strategy.
#[inline]
pub fn searched(q: &Pick) -> bool {
    q.by.is_none() && matches!(q.why, Why::PlayAction | Why::Buy)
}

/// One candidate's statistics at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arm {
    /// The answer (None: stop playing Actions / buy nothing).
    pub answer: Option<Card>,
    pub visits: u32,
    /// Sum of the rollouts' values.
    pub total: f64,
}

impl Arm {
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// The last decision searched (for `log --explain`).
#[derive(Clone, Debug, Default)]
pub struct Searched {
    pub player: u8,
    /// The seed of the decision's generator: sample `k` is
    /// `GameRng::for_game(seed, k)` dealt from the observation.
    pub seed: u64,
    pub why: Option<Why>,
    pub arms: Vec<Arm>,
    pub chosen: Option<Card>,
    /// The rollout policy's own answer (first of `arms`).
    pub default: Option<Card>,
    /// The policy each seat's rollouts were played with: an index into
    /// the bot's models, or [`OWN`] for the bot's own rollout policy.
    pub seats: [u8; MAX_PLAYERS],
}

/// [`Searched::seats`]: the seat was played by the bot's rollout policy.
pub const OWN: u8 = u8::MAX;

impl Searched {
    /// "search: N rollouts; Province 250 visits, mean 0.712; …".
    pub fn describe(&self) -> String {
        let total: u32 = self.arms.iter().map(|a| a.visits).sum();
        let mut arms = self.arms.clone();
        arms.sort_by_key(|a| std::cmp::Reverse(a.visits));
        let parts: Vec<String> = arms
            .iter()
            .map(|a| {
                format!(
                    "{} {} visits, mean {:.3}",
                    a.answer.map_or("none", |c| c.name()),
                    a.visits,
                    a.mean()
                )
            })
            .collect();
        format!(
            "search: {total} rollouts; rollout policy's answer {}; {}",
            self.default.map_or("none", |c| c.name()),
            parts.join("; ")
        )
    }
}

/// The search bot of one seat in one game. Answers only the searched
/// questions ([`searched`]); its caller sends the others to the rollout
/// strategy.
pub struct SearchBot<'a> {
    cfg: SearchConfig,
    /// The bot's own rollout policy (its later turns in a rollout).
    rollout: &'a Compiled,
    /// The opponent models, ranked ([`model::model_for`]); empty: every
    /// opponent is played by `rollout` too.
    models: &'a [Model],
    /// Searched decisions so far in this game.
    decisions: u64,
    /// The observation of the decision being searched and the sampled
    /// game of the rollout being played (made at the first decision).
    scratch: Option<Box<(Observation, Game)>>,
    /// The candidates left in a round of sequential halving.
    alive: Vec<usize>,
    pub last: Searched,
}

/// SplitMix64's finaliser: mixes the generator seed of a decision.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'a> SearchBot<'a> {
    /// A search bot playing its own rollout turns with `rollout` and each
    /// opponent with the member of `models` that fits it best (`models`
    /// empty: with `rollout` too); all compiled for the game's kingdom.
    pub fn new(cfg: SearchConfig, rollout: &'a Compiled, models: &'a [Model]) -> Self {
        SearchBot {
            cfg,
            rollout,
            models,
            decisions: 0,
            scratch: None,
            alive: Vec::new(),
            last: Searched::default(),
        }
    }

    /// The seed of the next decision's generator for seat `p` in `g`.
    fn decision_seed(&self, g: &Game, p: u8) -> u64 {
        mix(mix(mix(g.seed ^ 0x5EA4_C4B0_7000_0000) ^ g.index)
            ^ (((p as u64) << 56) | self.decisions))
    }

    /// The candidates of `q` in game `g` (the observation), given the
    /// rollout policy's answer `default`: `default` first, then "none",
    /// then the legal cards by id — Curse left out of buys, and with a
    /// `window`, the buys costing less than the coins available minus it.
    pub fn candidates(
        g: &Game,
        q: &Pick,
        default: Option<Card>,
        window: Option<u8>,
    ) -> impl Iterator<Item = Option<Card>> {
        let mut legal = q.legal;
        if q.why == Why::Buy {
            legal = legal.minus(CardSet::one(Card::Curse));
            if let Some(w) = window {
                let coins = g.turn.coins as i32;
                for c in legal.iter() {
                    if (g.cost(c) as i32) + (w as i32) < coins {
                        legal = legal.minus(CardSet::one(c));
                    }
                }
            }
        }
        if let Some(d) = default {
            legal = legal.minus(CardSet::one(d));
        }
        let first = std::iter::once(default);
        let none = default.is_some().then_some(None);
        first.chain(none).chain(legal.iter().map(Some))
    }

    /// Answer the searched pick `q` in the true game `g`.
    pub fn decide(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        let p = q.player;
        let seed = self.decision_seed(g, p);
        self.decisions += 1;
        match &mut self.scratch {
            Some(s) => s.0.observe(g, p),
            None => self.scratch = Some(Box::new((Observation::of(g, p), g.clone()))),
        }
        self.search(q, seed)
    }

    /// The search itself, from the observation only (the true game is not
    /// in reach): the rollout policies of the seats chosen from the
    /// observation, the candidates, then UCB1 or sequential halving over
    /// them, sample `k` for the `k`-th visit of each (common random
    /// numbers).
    fn search(&mut self, q: &Pick, seed: u64) -> Option<Card> {
        let scratch = self.scratch.as_deref_mut()?;
        let (obs, world) = (&scratch.0, &mut scratch.1);
        let n = obs.public().n();
        let mut seats = [self.rollout; MAX_PLAYERS];
        self.last.seats = [OWN; MAX_PLAYERS];
        if !self.models.is_empty() {
            for o in obs.public().others(q.player) {
                let m = model::model_for(obs, o, self.models);
                seats[o as usize] = &self.models[m].compiled;
                self.last.seats[o as usize] = m as u8;
            }
        }
        let default = StrategyBots::new(&seats[..n]).turn_pick(obs.public(), q);
        let arms = &mut self.last.arms;
        arms.clear();
        arms.extend(
            Self::candidates(obs.public(), q, default, self.cfg.window).map(|answer| Arm {
                answer,
                visits: 0,
                total: 0.0,
            }),
        );
        self.last.player = q.player;
        self.last.seed = seed;
        self.last.why = Some(q.why);
        self.last.default = default;
        let cfg = self.cfg;
        let mut play = |arm: &mut Arm| {
            let mut rng = GameRng::for_game(seed, arm.visits as u64);
            obs.deal(world, &mut rng);
            let mut bots = StrategyBots::new(&seats[..n]);
            let v = rollout(world, &mut bots, q, arm.answer, &cfg);
            arm.visits += 1;
            arm.total += v;
        };
        let lone_play = q.why == Why::PlayAction && default.is_some() && arms.len() == 2;
        let best = if arms.len() == 1 || (lone_play && !cfg.lone_plays) {
            0
        } else {
            match cfg.select {
                Select::Ucb => {
                    let budget = cfg.budget.max(arms.len() as u32);
                    for t in 0..budget {
                        let i = if (t as usize) < arms.len() {
                            t as usize
                        } else {
                            let ln = (t as f64).ln();
                            let mut best = 0;
                            let mut best_u = f64::NEG_INFINITY;
                            for (j, a) in arms.iter().enumerate() {
                                let u = a.mean() + cfg.exploration * (ln / a.visits as f64).sqrt();
                                if u > best_u {
                                    best_u = u;
                                    best = j;
                                }
                            }
                            best
                        };
                        play(&mut arms[i]);
                    }
                    // The most visited (UCB's robust choice); ties to the
                    // better mean, then to the first.
                    let mut best = 0;
                    for (j, a) in arms.iter().enumerate() {
                        let b = &arms[best];
                        if a.visits > b.visits || (a.visits == b.visits && a.mean() > b.mean()) {
                            best = j;
                        }
                    }
                    best
                }
                Select::Halving => {
                    let alive = &mut self.alive;
                    alive.clear();
                    alive.extend(0..arms.len());
                    let rounds = (usize::BITS - (arms.len() - 1).leading_zeros()) as usize;
                    // Arm 0 is the rollout policy's own answer.
                    let key = |arms: &[Arm], i: usize| {
                        arms[i].mean() + if i == 0 { cfg.prior } else { 0.0 }
                    };
                    while alive.len() > 1 {
                        let per = (cfg.budget as usize / (alive.len() * rounds)).max(1);
                        for &i in alive.iter() {
                            for _ in 0..per {
                                play(&mut arms[i]);
                            }
                        }
                        // Stable: ties keep the order of the candidates
                        // (the rollout policy's answer first).
                        alive.sort_by(|&a, &b| key(arms, b).total_cmp(&key(arms, a)));
                        alive.truncate(alive.len().div_ceil(2));
                    }
                    alive[0]
                }
            }
        };
        self.last.chosen = arms[best].answer;
        arms[best].answer
    }

    /// The name of the policy that played seat `s`'s rollouts in the last
    /// decision searched.
    pub fn seat_policy(&self, s: u8) -> &str {
        match self.last.seats[s as usize] {
            OWN => &self.rollout.name,
            m => &self.models[m as usize].compiled.name,
        }
    }

    /// The observation of the last decision searched.
    pub fn observation(&self) -> Option<&Observation> {
        self.scratch.as_deref().map(|s| &s.0)
    }

    /// The world the `k`-th rollout of every candidate of the last
    /// decision started from (before the candidate was played).
    pub fn world(&self, k: u64) -> Option<Game> {
        let obs = self.observation()?;
        let mut g = obs.public().clone();
        obs.deal(&mut g, &mut GameRng::for_game(self.last.seed, k));
        Some(g)
    }

    /// `--explain` for pick `q`, just answered: the last search's
    /// statistics if `q` was searched, and the opponents' models.
    pub fn explain(&self, q: &Pick) -> Option<String> {
        if !(searched(q) && self.last.player == q.player && self.last.why == Some(q.why)) {
            return None;
        }
        let n = self.observation()?.public().n() as u8;
        let models: Vec<String> = (0..n)
            .filter(|&s| s != q.player)
            .map(|s| format!("seat {} as {}", s + 1, self.seat_policy(s)))
            .collect();
        Some(format!(
            "{}; opponents modelled: {}",
            self.last.describe(),
            models.join(", ")
        ))
    }
}

/// Play answer `a` to the turn-level pick `q` in the sampled game `g`,
/// finish the turn and the game with `b`, and return the value of the
/// outcome for `q.player`.
pub fn rollout<B: Bots>(
    g: &mut Game,
    b: &mut B,
    q: &Pick,
    a: Option<Card>,
    cfg: &SearchConfig,
) -> f64 {
    let p = q.player;
    match (q.why, a) {
        (Why::PlayAction, Some(c)) => {
            g.turn.actions -= 1;
            g.play_from_hand(b, p, c);
            g.action_phase(b);
            g.treasure_step(b);
            g.buy_step(b);
        }
        (Why::PlayAction, None) => {
            g.treasure_step(b);
            g.buy_step(b);
        }
        (_, Some(c)) => {
            g.buy_unchecked(b, p, c);
            g.buy_step(b);
        }
        (_, None) => {}
    }
    g.cleanup(b);
    match cfg.horizon {
        None => {
            while !g.over {
                g.play_turn(b);
            }
        }
        Some(h) => {
            let stop = g.turns_taken[p as usize].saturating_add(h);
            while !g.over {
                if g.active == p && g.turns_taken[p as usize] >= stop {
                    return evaluate(g, p, cfg.margin);
                }
                g.play_turn(b);
            }
        }
    }
    value(g, p, cfg.margin)
}

/// The expected coins of a hand of 5 of `pl`'s cards: 5 × the coins his
/// Treasures are worth (their printed value), divided by the cards he
/// owns. Actions' +$ are not counted, so this is not the engine's
/// `Player::money` (`total_money`): counting a terminal's +$ as money makes
/// short rollouts value terminals no hand can all play (measured with
/// `horizon=3,budget=1500` against Double Witch in Size Distortion, whose
/// Woodcutter gives +$2: 44.6% with Treasures only, 1.5% with
/// `total_money`, 1,000 games).
pub fn expected_hand_money(pl: &crate::engine::Player) -> f64 {
    if pl.owned_total == 0 {
        return 0.0;
    }
    let mut coins = 0u32;
    for c in Card::ALL.iter().copied().filter(|c| c.is_treasure()) {
        coins += pl.owned[c as usize] as u32 * c.info().value as u32;
    }
    5.0 * coins as f64 / pl.owned_total as f64
}

/// The value for seat `p` of the unfinished game `g` (a rollout stopped at
/// its horizon): the estimated chance of winning, `1 / (1 + e^(-s/S))`
/// with `s` the score margin over the best other seat, where a seat's
/// score is its VP plus [`SearchConfig::MONEY_VP`] × its [`expected_hand_money`]
/// (a deck that buys better later) and `S` is
/// [`SearchConfig::EVAL_SCALE`]; weighted as [`value`] weighs a result,
/// `margin` times the VP margin (capped, scaled to 0..1).
pub fn evaluate(g: &Game, p: u8, margin: f64) -> f64 {
    let score = |s: usize| {
        g.vp(s as u8) as f64 + SearchConfig::MONEY_VP * expected_hand_money(&g.players[s])
    };
    let mine = score(p as usize);
    let mut best_other = f64::NEG_INFINITY;
    let mut best_vp = i32::MIN;
    for s in (0..g.n()).filter(|&s| s != p as usize) {
        best_other = best_other.max(score(s));
        best_vp = best_vp.max(g.vp(s as u8));
    }
    if best_vp == i32::MIN {
        return value(g, p, margin);
    }
    let win = 1.0 / (1.0 + (-(mine - best_other) / SearchConfig::EVAL_SCALE).exp());
    let cap = SearchConfig::MARGIN_CAP;
    let m = (g.vp(p) - best_vp).clamp(-cap, cap) as f64 / cap as f64;
    (1.0 - margin) * win + margin * (0.5 + 0.5 * m)
}

/// The value of the finished game `g` for seat `p`: its share of the win,
/// and `margin` times its VP margin over the best other seat (capped at
/// [`SearchConfig::MARGIN_CAP`], scaled to ±1, shifted to 0..1).
pub fn value(g: &Game, p: u8, margin: f64) -> f64 {
    let o = g.outcome();
    let win = if o.won(p as usize) {
        1.0 / o.winner_count() as f64
    } else {
        0.0
    };
    let best_other = (0..g.n())
        .filter(|&s| s != p as usize)
        .map(|s| o.vp[s])
        .max()
        .unwrap_or(o.vp[p as usize]);
    let cap = SearchConfig::MARGIN_CAP;
    let m = (o.vp[p as usize] - best_other).clamp(-cap, cap) as f64 / cap as f64;
    (1.0 - margin) * win + margin * (0.5 + 0.5 * m)
}
