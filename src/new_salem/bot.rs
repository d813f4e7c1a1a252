//! Declarative New Salem bots: `.salem` files (TOML), compiled once into
//! small fixed arrays that the engine's decisions read without allocating.
//!
//! A bot file has a name, a one-line idea, a suspicion model, and decision
//! lists for each side: `[all]` holds defaults for both, `[witch]` and
//! `[puritan]` override them key by key for a player of that team. The full
//! reference, with every feature, condition and policy, is in
//! docs/NEW_SALEM.md; in short:
//!
//! ```toml
//! name = "Accuser Puritan"
//! idea = "Drafts its categories; as Constable tries the most suspicious player."
//! [suspicion]              # score of a player from their revealed buildings
//! despair_add = 2          # per add-Despair icon they drafted
//! despair_remove = -2
//! [puritan]
//! draft = ["my_category", "-despair_add", "completes_set", "hope if round <= 2"]
//! blind_unless = ["my_category"]     # keep the best of the last two unless...
//! launch = ["trial if suspect >= 2", "purification if gap <= 3"]
//! gift = { for = ["trial"], max = 2, trust = 0 }
//! targets = { put_on_trial = "most_suspect" }
//! next_constable = "least_suspect"
//! ```
//!
//! **Draft** criteria compare the cards of the hand lexicographically: the
//! first criterion keeps the cards with its highest value, the next one
//! breaks the ties among those, and so on (a leading `-` prefers low values;
//! `if <var> <op> <n>` applies a criterion only while the condition holds).
//! **Launch** entries are tried in order: the first event on the display that
//! the Constable can afford and whose condition holds is launched; with none,
//! the phase ends — unless the launch is forced, when the first affordable
//! listed event (condition ignored) or else the first affordable event goes.

use super::data::{Data, Effect, Team};
use super::engine::{ev, Bots, Keep, View};
use anyhow::{anyhow, Result};
use serde::Deserialize;

/// Draft criteria a bot may use, per entry.
pub const MAX_CRITERIA: usize = 12;
/// Launch entries per side.
pub const MAX_LAUNCH: usize = 16;

/// A feature of a building card, seen by the drafting player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// 1 if its category is one of my character's.
    MyCategory,
    /// 1 if it completes a set in my row.
    CompletesSet,
    /// How many of the other two designs of its set I hold more of (0–2).
    SetProgress,
    Hope,
    DespairAdd,
    DespairRemove,
    /// add-Despair minus remove-Despair icons.
    DespairNet,
    /// 1 if its set carries the Death end-game icon.
    Death,
    /// 1 if its set carries the Justice end-game icon.
    Justice,
    /// How Puritan taking it makes me look: minus the change, in
    /// hundredths of a nat, of the log-odds that I am a Witch in the eyes
    /// of a player using my belief model (a Witch hiding drafts by it).
    LooksPuritan,
}

pub const FEATURES: [(&str, Feature, &str); 10] = [
    (
        "my_category",
        Feature::MyCategory,
        "1 if the building's category is one of my character's",
    ),
    (
        "completes_set",
        Feature::CompletesSet,
        "1 if it completes a set in my row",
    ),
    (
        "set_progress",
        Feature::SetProgress,
        "how many of the other two pieces of its set I hold more of (0-2)",
    ),
    ("hope", Feature::Hope, "its Hope icons"),
    ("despair_add", Feature::DespairAdd, "its add-Despair icons"),
    (
        "despair_remove",
        Feature::DespairRemove,
        "its remove-Despair icons",
    ),
    (
        "despair_net",
        Feature::DespairNet,
        "add-Despair minus remove-Despair icons",
    ),
    (
        "death",
        Feature::Death,
        "1 if its set has the Death end-game icon (+3 Despair per complete set)",
    ),
    (
        "justice",
        Feature::Justice,
        "1 if its set has the Justice end-game icon (-3 Despair per complete set)",
    ),
    (
        "looks_puritan",
        Feature::LooksPuritan,
        "how Puritan taking it makes me look to a player who deduces (minus the change of the log-odds that I am a Witch, in hundredths of a nat, by my [belief] likelihoods)",
    ),
];

// ---------------------------------------------------------------- belief

/// One piece of evidence the belief model weighs: a count of occurrences
/// out of a count of chances (kinds of [`ev`]; `None`: the Trials the
/// other players launched).
#[derive(Clone, Copy, Debug)]
pub struct EvidenceKind {
    pub name: &'static str,
    pub hits: usize,
    pub chances: Option<usize>,
    pub what: &'static str,
}

/// The evidence of the belief model, in the order of its likelihoods.
pub const EVIDENCE: [EvidenceKind; 16] = [
    EvidenceKind {
        name: "add_despair",
        hits: ev::ADD,
        chances: Some(ev::PICKS),
        what: "chose a building with add-Despair icons (of the buildings chosen in rounds 1-3)",
    },
    EvidenceKind {
        name: "remove_despair",
        hits: ev::REMOVE,
        chances: Some(ev::PICKS),
        what: "chose a building with remove-Despair icons (rounds 1-3)",
    },
    EvidenceKind {
        name: "death",
        hits: ev::DEATH,
        chances: Some(ev::PICKS),
        what: "chose a building of a Death set (rounds 1-3)",
    },
    EvidenceKind {
        name: "justice",
        hits: ev::JUSTICE,
        chances: Some(ev::PICKS),
        what: "chose a building of a Justice set (rounds 1-3)",
    },
    EvidenceKind {
        name: "blind",
        hits: ev::BLIND,
        chances: Some(ev::DISCARDS),
        what: "put both last cards under the deck and drew blind (of the discards)",
    },
    EvidenceKind {
        name: "gift",
        hits: ev::GIFTS,
        chances: Some(ev::GIFT_CHANCES),
        what: "gave Hope to the Constable (of the times they could)",
    },
    EvidenceKind {
        name: "remove_launch",
        hits: ev::REMOVE_LAUNCHES,
        chances: Some(ev::LAUNCHES),
        what: "launched an event with remove-Despair icons (of their launches)",
    },
    EvidenceKind {
        name: "add_launch",
        hits: ev::ADD_LAUNCHES,
        chances: Some(ev::LAUNCHES),
        what: "launched an event that adds Despair",
    },
    EvidenceKind {
        name: "trial_launch",
        hits: ev::TRIALS,
        chances: Some(ev::LAUNCHES),
        what: "launched a Trial",
    },
    EvidenceKind {
        name: "named",
        hits: ev::NAMED,
        chances: None,
        what: "was named by another player's Trial (of the Trials the others launched)",
    },
    EvidenceKind {
        name: "took_dirtier",
        hits: ev::TOOK_DIRTIER,
        chances: Some(ev::PASSES),
        what: "picked a card with more add-Despair icons than one they passed me (my right neighbour only)",
    },
    EvidenceKind {
        name: "took_cleaner",
        hits: ev::TOOK_CLEANER,
        chances: Some(ev::PASSES),
        what: "picked a card with fewer add-Despair icons than one they passed me (my right neighbour only)",
    },
    EvidenceKind {
        name: "late_add_despair",
        hits: ev::LATE_ADD,
        chances: Some(ev::LATE_PICKS),
        what: "chose a building with add-Despair icons (of the buildings chosen from round 4 on)",
    },
    EvidenceKind {
        name: "late_remove_despair",
        hits: ev::LATE_REMOVE,
        chances: Some(ev::LATE_PICKS),
        what: "chose a building with remove-Despair icons (from round 4 on)",
    },
    EvidenceKind {
        name: "late_death",
        hits: ev::LATE_DEATH,
        chances: Some(ev::LATE_PICKS),
        what: "chose a building of a Death set (from round 4 on)",
    },
    EvidenceKind {
        name: "late_justice",
        hits: ev::LATE_JUSTICE,
        chances: Some(ev::LATE_PICKS),
        what: "chose a building of a Justice set (from round 4 on)",
    },
];

/// Where the four draft kinds of each phase start in [`EVIDENCE`]: rounds
/// before [`ev::LATE_ROUND`], and from it on.
const DRAFT_KINDS: [usize; 2] = [0, 12];
const _: () = assert!(EVIDENCE[DRAFT_KINDS[1]].hits == ev::LATE_ADD);

/// Kinds of evidence.
pub const KINDS: usize = EVIDENCE.len();

/// A bot's Bayesian suspicion: a prior from the deal and the evidence
/// weighed by log-likelihood ratios (naive Bayes over [`EVIDENCE`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    /// Log-likelihood ratio (Witch : Puritan) of one occurrence, and of
    /// one chance that passed without it.
    pub hit: [f32; KINDS],
    pub miss: [f32; KINDS],
    /// The file's `weight`, which scales every ratio (kept to weigh
    /// likelihoods learned later, [`Belief::with_rates`]).
    pub weight: f32,
    /// `learn = "field"`: the likelihoods are learned, before a run, from
    /// games of the run's own field ([`super::belief::prepare_field`]).
    pub from_field: bool,
    /// The ratios `looks_puritan` weighs a card by (hit then miss of the
    /// four draft kinds, rounds 1-3 then from round 4 on): the model's as
    /// compiled, kept when the field's likelihoods are learned — a Witch
    /// hides from the table's ordinary reading, and learning changes what
    /// a bot suspects, not how it hides.
    pub hide: [[f32; 8]; 2],
}

impl Belief {
    /// From rates (Witch, Puritan) per chance, each kept within
    /// 0.001..=0.999 so every ratio is finite.
    pub fn from_rates(rates: &[(f32, f32); KINDS]) -> Belief {
        let mut b = Belief {
            hit: [0.0; KINDS],
            miss: [0.0; KINDS],
            weight: 1.0,
            from_field: false,
            hide: [[0.0; 8]; 2],
        };
        for (k, &(w, p)) in rates.iter().enumerate() {
            let (w, p) = (w.clamp(0.001, 0.999), p.clamp(0.001, 0.999));
            b.hit[k] = (w / p).ln();
            b.miss[k] = ((1.0 - w) / (1.0 - p)).ln();
        }
        b
    }

    /// The model with likelihoods from `rates`, weighed by this model's
    /// weight.
    pub fn with_rates(&self, rates: &[(f32, f32); KINDS]) -> Belief {
        let mut b = Belief::from_rates(rates);
        for k in 0..KINDS {
            b.hit[k] *= self.weight;
            b.miss[k] *= self.weight;
        }
        b.weight = self.weight;
        b.from_field = self.from_field;
        b.hide = self.hide;
        b
    }

    /// This model, hiding by its own ratios (as compiled).
    fn hiding_by_itself(mut self) -> Belief {
        for (h, &first) in self.hide.iter_mut().zip(&DRAFT_KINDS) {
            h[..4].copy_from_slice(&self.hit[first..first + 4]);
            h[4..].copy_from_slice(&self.miss[first..first + 4]);
        }
        self
    }

    /// The prior log-odds that another player is a Witch, from the deal:
    /// the Witch and Puritan cards the table deals from, less my own.
    pub fn prior(v: &View) -> f32 {
        let r = &v.data().rules;
        let n = v.players();
        let w = r.witch_cards[n] as f32;
        let total = w + r.puritan_cards[n] as f32;
        let w_left = if v.my_team() == Team::Witch {
            w - 1.0
        } else {
            w
        };
        let p = (w_left / (total - 1.0).max(1.0)).clamp(0.01, 0.99);
        (p / (1.0 - p)).ln()
    }

    /// What every suspicion of one decision shares ([`Seen`]).
    pub fn seen(v: &View) -> Seen {
        Seen {
            prior: Belief::prior(v),
            trials: (0..v.players() as u8)
                .map(|s| v.public_evidence(s, ev::TRIALS) as i32)
                .sum(),
        }
    }

    /// The log-odds that `seat` is a Witch, given what I have seen (its
    /// team if I know it is the caller's business); `seen` is
    /// [`Belief::seen`] of the same view, computed once per decision.
    #[inline]
    pub fn log_odds(&self, v: &View, seat: u8, seen: &Seen) -> f32 {
        let e = v.evidence(seat);
        // The Trials the other players launched.
        let others_trials = seen.trials - e[ev::TRIALS] as i32;
        let mut l = seen.prior;
        // One block per kind of EVIDENCE, in its order, with the kind's
        // counts at constant indices (no walk over the table, no bounds
        // checks): the hot loop of a deducing bot's decisions.
        macro_rules! weigh {
            ($($k:literal)*) => {
                $({
                    const X: EvidenceKind = EVIDENCE[$k];
                    let hits = e[X.hits] as i32;
                    let chances = match X.chances {
                        Some(c) => e[c] as i32,
                        None => others_trials,
                    };
                    let misses = (chances - hits).max(0);
                    l += hits as f32 * self.hit[$k] + misses as f32 * self.miss[$k];
                })*
            };
        }
        // A group of kinds whose counts are all 0 adds nothing: each of its
        // terms is `0 * hit + 0 * miss`, a zero, and adding a zero leaves
        // `l` as it was (but for the sign of a zero, which no percentage
        // sees). So a group is weighed only when one of its counts is not
        // 0: the same number, bit for bit, without the work for the kinds
        // most players have not met yet (launches: only Constables launch;
        // passes: only my right neighbour's; the late drafts: none before
        // round 4, when most Trials come). Every kind of a group has its
        // own count of chances.
        macro_rules! group {
            ($($k:literal)*) => {
                let mut any = 0u8;
                $({
                    const X: EvidenceKind = EVIDENCE[$k];
                    const C: usize = match X.chances {
                        Some(c) => c,
                        None => panic!("a group's kinds count their chances"),
                    };
                    any |= e[X.hits] | e[C];
                })*
                if any != 0 {
                    weigh!($($k)*);
                }
            };
        }
        // Every kind once, in EVIDENCE's order (the sum's order).
        const _: () = assert!(EVIDENCE.len() == 16);
        weigh!(0 1 2 3 4 5);
        group!(6 7 8);
        weigh!(9);
        group!(10 11);
        group!(12 13 14 15);
        l
    }
}

/// What the suspicions of one decision share: the prior log-odds (a
/// logarithm) and the Trials launched by all (the `named` evidence's
/// chances). Computed once per decision, not once per player weighed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    pub prior: f32,
    pub trials: i32,
}

/// `p` as a whole percentage.
#[inline]
fn percent(log_odds: f32) -> i32 {
    round_i32(100.0 / (1.0 + (-log_odds).exp()))
}

/// `x.round() as i32` (half away from zero), without the call to `roundf`
/// (x86-64 has no rounding instruction before SSE4.1): below 2^23 a
/// float's fraction `|x| - trunc(|x|)` is exact, so comparing it with 0.5
/// decides as `round` does; NaN and larger magnitudes go to `round`.
#[inline]
pub fn round_i32(x: f32) -> i32 {
    let a = x.abs();
    if a < 8_388_608.0 {
        let i = a as i32;
        let r = i + (a - i as f32 >= 0.5) as i32;
        if x < 0.0 {
            -r
        } else {
            r
        }
    } else {
        x.round() as i32
    }
}

/// A number a condition tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Round,
    /// Despair cubes in play.
    Despair,
    /// Threshold minus Despair cubes.
    Gap,
    /// My Hope.
    Hope,
    /// The highest suspicion among the players I could put on Trial.
    Suspect,
    /// Players already on Trial.
    OnTrial,
    /// Players whose team I know to be Witch (not counting me).
    KnownWitches,
}

pub const VARS: [(&str, Var, &str); 7] = [
    ("round", Var::Round, "the round, 1 to 5"),
    ("despair", Var::Despair, "Despair cubes in play"),
    (
        "gap",
        Var::Gap,
        "the threshold minus the Despair cubes in play",
    ),
    ("hope", Var::Hope, "my Hope"),
    (
        "suspect",
        Var::Suspect,
        "the highest suspicion among the players Trial could name",
    ),
    ("on_trial", Var::OnTrial, "players on Trial"),
    (
        "known_witches",
        Var::KnownWitches,
        "other players I know to be Witches",
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Ge,
    Le,
    Gt,
    Lt,
    Eq,
    Ne,
}

/// `var op n`, or always true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cond {
    pub var: Option<Var>,
    pub op: Op,
    pub n: i32,
}

impl Cond {
    pub const ALWAYS: Cond = Cond {
        var: None,
        op: Op::Ge,
        n: 0,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Criterion {
    pub feature: Feature,
    pub sign: i8,
    pub cond: Cond,
}

/// How a player is chosen from a set of eligible seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    MostSuspect,
    LeastSuspect,
    Richest,
    Poorest,
    MostDespair,
    /// The first eligible seat to my left.
    Left,
    /// Myself if eligible, else the first to my left.
    Myself,
}

pub const PICKS: [(&str, Pick, &str); 7] = [
    (
        "most_suspect",
        Pick::MostSuspect,
        "the player I suspect most of being a Witch",
    ),
    (
        "least_suspect",
        Pick::LeastSuspect,
        "the player I suspect least",
    ),
    ("richest", Pick::Richest, "the player with the most Hope"),
    ("poorest", Pick::Poorest, "the player with the least Hope"),
    (
        "most_despair",
        Pick::MostDespair,
        "the player whose buildings carry the most Despair",
    ),
    ("left", Pick::Left, "the first eligible player to my left"),
    (
        "self",
        Pick::Myself,
        "myself if I may, else the first to my left",
    ),
];

/// Which building to take or destroy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The one my draft criteria like best.
    Best,
    MostDespair,
    MostHope,
}

pub const WHICH: [(&str, Which, &str); 3] = [
    (
        "best",
        Which::Best,
        "the building my draft criteria rank first",
    ),
    (
        "most_despair",
        Which::MostDespair,
        "the building carrying the most Despair cubes",
    ),
    (
        "most_hope",
        Which::MostHope,
        "the building carrying the most Hope cubes",
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchRule {
    /// The events this entry names (an id, an effect, or a class).
    pub events: u64,
    pub cond: Cond,
}

/// The decisions of one side (Witch or Puritan).
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub draft: [Criterion; MAX_CRITERIA],
    pub draft_len: u8,
    /// Keep the best of the last two cards only if it is positive on one of
    /// these features; otherwise draw blind. 0: always keep the best.
    pub blind_unless: u16,
    /// Gift Hope to the Constable so they can afford one of these events.
    pub gift_for: u64,
    pub gift_max: u16,
    /// Gift only to a Constable I suspect at most this much.
    pub gift_trust: i32,
    pub launch: [LaunchRule; MAX_LAUNCH],
    pub launch_len: u8,
    /// Target policy per effect (indexed by `Effect as usize`).
    pub targets: [Pick; 8],
    pub next_constable: Pick,
    pub take: Which,
    pub destroy: Which,
}

/// A compiled bot.
#[derive(Clone, Debug, PartialEq)]
pub struct SalemBot {
    pub name: String,
    pub idea: String,
    /// Suspicion weights: per add-Despair icon, remove-Despair icon, Hope
    /// icon, Death building and Justice building a player drafted.
    pub suspicion: [i32; 5],
    /// The Bayesian suspicion (`[belief]`), replacing the weights above:
    /// suspicion is then the chance, in percent, that a player is a Witch.
    pub belief: Option<Belief>,
    pub witch: Side,
    pub puritan: Side,
}

const WEIGHTS: [&str; 5] = ["despair_add", "despair_remove", "hope", "death", "justice"];

fn effect_index(e: Effect) -> usize {
    Effect::ALL.iter().position(|x| x.1 == e).unwrap_or(0)
}

// ---------------------------------------------------------------- decisions

impl SalemBot {
    #[inline]
    fn side(&self, v: &View) -> &Side {
        match v.my_team() {
            Team::Witch => &self.witch,
            Team::Puritan => &self.puritan,
        }
    }

    /// How much `me` suspects `seat` of being a Witch. With a `[belief]`
    /// model, the chance in percent (0 or 100 for a team I know).
    pub fn suspicion(&self, v: &View, seat: u8) -> i32 {
        self.suspicion_seen(v, seat, &self.seen(v))
    }

    /// What a decision's suspicions share (nothing without `[belief]`).
    #[inline]
    fn seen(&self, v: &View) -> Seen {
        match self.belief {
            Some(_) => Belief::seen(v),
            None => Seen::default(),
        }
    }

    /// [`SalemBot::suspicion`], with `seen` from [`SalemBot::seen`] of the
    /// same view.
    fn suspicion_seen(&self, v: &View, seat: u8, seen: &Seen) -> i32 {
        if let Some(b) = &self.belief {
            return match v.known_team(seat) {
                Some(Team::Witch) if seat != v.me() => 100,
                Some(Team::Puritan) if seat != v.me() => 0,
                _ => percent(b.log_odds(v, seat, seen)),
            };
        }
        match v.known_team(seat) {
            Some(Team::Witch) if seat != v.me() => return 1000,
            Some(Team::Puritan) if seat != v.me() => return -1000,
            _ => {}
        }
        let w = &self.suspicion;
        let x = v.icons(seat);
        let mut s = 0i32;
        for k in 0..5 {
            s += w[k] * x[k] as i32;
        }
        s
    }

    fn var(&self, v: &View, var: Var) -> i32 {
        match var {
            Var::Round => v.round() as i32,
            Var::Despair => v.despair() as i32,
            Var::Gap => v.threshold() as i32 - v.despair() as i32,
            Var::Hope => v.hope(v.me()) as i32,
            Var::Suspect => {
                let mut best = i32::MIN;
                let seen = self.seen(v);
                let free = |s: u8| s != v.me() && v.on_trial() & (1 << s) == 0;
                if let Some(b) = &self.belief {
                    // The highest chance is the chance of the highest
                    // log-odds (a percentage only grows with them): one
                    // percentage for the players I do not know.
                    let mut lo = f32::NEG_INFINITY;
                    for s in (0..v.players() as u8).filter(|&s| free(s)) {
                        match v.known_team(s) {
                            Some(Team::Witch) => best = best.max(100),
                            Some(Team::Puritan) => best = best.max(0),
                            None => lo = lo.max(b.log_odds(v, s, &seen)),
                        }
                    }
                    if lo > f32::NEG_INFINITY {
                        best = best.max(percent(lo));
                    }
                } else {
                    for s in (0..v.players() as u8).filter(|&s| free(s)) {
                        best = best.max(self.suspicion_seen(v, s, &seen));
                    }
                }
                if best == i32::MIN {
                    0
                } else {
                    best
                }
            }
            Var::OnTrial => v.on_trial().count_ones() as i32,
            Var::KnownWitches => (0..v.players() as u8)
                .filter(|&s| s != v.me() && v.known_team(s) == Some(Team::Witch))
                .count() as i32,
        }
    }

    #[inline]
    fn holds(&self, v: &View, c: &Cond) -> bool {
        let Some(var) = c.var else { return true };
        let x = self.var(v, var);
        match c.op {
            Op::Ge => x >= c.n,
            Op::Le => x <= c.n,
            Op::Gt => x > c.n,
            Op::Lt => x < c.n,
            Op::Eq => x == c.n,
            Op::Ne => x != c.n,
        }
    }

    /// The value of `f` for building design `d` in `me`'s eyes.
    #[inline(always)]
    fn feature(v: &View, belief: Option<&Belief>, f: Feature, d: u8) -> i32 {
        let x = v.design(d);
        match f {
            Feature::MyCategory => (v.my_categories() & x.category != 0) as i32,
            Feature::CompletesSet | Feature::SetProgress => {
                let me = v.me();
                let mine = v.count(me, d);
                let (a, b) = (v.count(me, x.others[0]), v.count(me, x.others[1]));
                if f == Feature::SetProgress {
                    (a > mine) as i32 + (b > mine) as i32
                } else {
                    (mine < a.min(b)) as i32
                }
            }
            Feature::Hope => x.hope as i32,
            Feature::DespairAdd => x.add as i32,
            Feature::DespairRemove => x.remove as i32,
            Feature::DespairNet => x.add as i32 - x.remove as i32,
            Feature::Death => (x.endgame == 1) as i32,
            Feature::Justice => (x.endgame == 2) as i32,
            Feature::LooksPuritan => {
                // The compiler refuses `looks_puritan` without `[belief]`.
                let Some(b) = belief else { return 0 };
                // The ratios of the phase this choice counts in.
                let hide = &b.hide[(v.round() > ev::LATE_ROUND) as usize];
                let has = [x.add > 0, x.remove > 0, x.endgame == 1, x.endgame == 2];
                let mut d = 0.0f32;
                for (k, &h) in has.iter().enumerate() {
                    d += if h { hide[k] } else { hide[4 + k] };
                }
                // `-(d * 100).round() as i32`: round is symmetric.
                round_i32(-(d * 100.0))
            }
        }
    }

    /// The index of the best of `cards` by the side's draft criteria (the
    /// first of equals).
    fn best_of(&self, v: &View, side: &Side, cards: &[u8]) -> usize {
        let n = cards.len();
        if n <= 1 {
            return 0;
        }
        /// The candidates of `alive` (a bit mask over positions) with the
        /// highest `key`. Always inlined: each feature gets its own loop,
        /// with the feature's match resolved outside it.
        #[inline(always)]
        fn keep_best<F: Fn(u8) -> i32>(alive: u32, cards: &[u8], key: F) -> u32 {
            let mut best = i32::MIN;
            let mut keep = 0u32;
            let mut m = alive;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let x = key(cards[i]);
                if x > best {
                    best = x;
                    keep = 1 << i;
                } else if x == best {
                    keep |= 1 << i;
                }
            }
            keep
        }
        let belief = self.belief.as_ref();
        // Candidates still tied, as a bit mask over positions (≤ 32 cards).
        let mut alive: u32 = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        for c in &side.draft[..side.draft_len as usize] {
            if !self.holds(v, &c.cond) {
                continue;
            }
            let s = c.sign as i32;
            macro_rules! by_feature {
                ($($f:ident),*) => {
                    match c.feature {
                        $(Feature::$f => keep_best(alive, cards, |d| {
                            s * Self::feature(v, belief, Feature::$f, d)
                        }),)*
                    }
                };
            }
            alive = by_feature!(
                MyCategory,
                CompletesSet,
                SetProgress,
                Hope,
                DespairAdd,
                DespairRemove,
                DespairNet,
                Death,
                Justice,
                LooksPuritan
            );
            // One left (`alive` is never empty: the first candidate is
            // always kept or beaten).
            if alive & (alive - 1) == 0 {
                break;
            }
        }
        alive.trailing_zeros() as usize
    }

    fn choose(&self, v: &View, pick: Pick, eligible: u8) -> u8 {
        // The eligible seat with the highest (most) or lowest key, the first
        // to my left among equals. Generic, so each key is inlined (no `dyn`).
        fn by<F: Fn(u8) -> i32>(v: &View, eligible: u8, key: F, most: bool) -> u8 {
            let n = v.players() as u8;
            let me = v.me();
            let mut best: Option<(i32, u8)> = None;
            for k in 1..=n {
                let s = (me + k) % n;
                if eligible & (1 << s) == 0 {
                    continue;
                }
                let x = if most { key(s) } else { -key(s) };
                if best.is_none_or(|b| x > b.0) {
                    best = Some((x, s));
                }
            }
            best.map_or(me, |b| b.1)
        }
        let n = v.players() as u8;
        let me = v.me();
        let left = || {
            (1..=n)
                .map(|k| (me + k) % n)
                .find(|&s| eligible & (1 << s) != 0)
                .unwrap_or(me)
        };
        match pick {
            Pick::Left => left(),
            Pick::Myself => {
                if eligible & (1 << me) != 0 {
                    me
                } else {
                    left()
                }
            }
            Pick::MostSuspect => {
                let seen = self.seen(v);
                by(v, eligible, |s| self.suspicion_seen(v, s, &seen), true)
            }
            Pick::LeastSuspect => {
                let seen = self.seen(v);
                by(v, eligible, |s| self.suspicion_seen(v, s, &seen), false)
            }
            Pick::Richest => by(v, eligible, |s| v.hope(s) as i32, true),
            Pick::Poorest => by(v, eligible, |s| v.hope(s) as i32, false),
            Pick::MostDespair => by(
                v,
                eligible,
                |s| v.tableau(s).iter().map(|b| b.despair as i32).sum(),
                true,
            ),
        }
    }
}

/// The bots of one game, one per seat (by reference into the run's field).
pub struct Seated<'a> {
    pub seats: [&'a SalemBot; super::data::MAX_PLAYERS],
}

impl Bots for Seated<'_> {
    #[inline]
    fn pick(&mut self, v: &View) -> usize {
        let b = self.seats[v.me() as usize];
        b.best_of(v, b.side(v), v.hand())
    }

    fn keep(&mut self, v: &View) -> Keep {
        let b = self.seats[v.me() as usize];
        let side = b.side(v);
        let h = v.hand();
        let i = b.best_of(v, side, h);
        if side.blind_unless != 0 {
            let good = FEATURES.iter().enumerate().any(|(k, f)| {
                side.blind_unless & (1 << k) != 0
                    && SalemBot::feature(v, b.belief.as_ref(), f.1, h[i]) > 0
            });
            if !good {
                return Keep::Blind;
            }
        }
        Keep::Card(i as u8)
    }

    /// The bot language's gift: the Hope the Constable lacks for one of
    /// the `gift.for` events (a gift to fund a launch; the rules allow any
    /// other player as recipient).
    fn gift(&mut self, v: &View) -> Option<(u8, u16)> {
        let b = self.seats[v.me() as usize];
        let side = b.side(v);
        if side.gift_for == 0 || side.gift_max == 0 {
            return None;
        }
        let c = v.constable();
        // The gift the events call for, if any, then the trust (a pure
        // test, asked only when there is a gift to make).
        let have = v.hope(c);
        let mut m = side.gift_for & v.display();
        let mut gift = None;
        while m != 0 {
            let e = m.trailing_zeros() as usize;
            m &= m - 1;
            let cost = v.data().events[e].cost as u16;
            if cost > have && cost - have <= side.gift_max && cost - have <= v.hope(v.me()) {
                gift = Some((c, cost - have));
                break;
            }
        }
        if gift.is_some() && b.suspicion(v, c) > side.gift_trust {
            return None;
        }
        gift
    }

    fn launch(&mut self, v: &View, launchable: u64, forced: bool) -> Option<u8> {
        let b = self.seats[v.me() as usize];
        let side = b.side(v);
        let rules = &side.launch[..side.launch_len as usize];
        for r in rules {
            let m = launchable & r.events;
            if m != 0 && b.holds(v, &r.cond) {
                return Some(m.trailing_zeros() as u8);
            }
        }
        if forced {
            for r in rules {
                let m = launchable & r.events;
                if m != 0 {
                    return Some(m.trailing_zeros() as u8);
                }
            }
        }
        None
    }

    fn target(&mut self, v: &View, event: u8, eligible: u8) -> u8 {
        let b = self.seats[v.me() as usize];
        let side = b.side(v);
        let e = v.data().events[event as usize].effect;
        b.choose(v, side.targets[effect_index(e)], eligible)
    }

    fn building(&mut self, v: &View, event: u8, seat: u8) -> usize {
        let b = self.seats[v.me() as usize];
        let side = b.side(v);
        let take = v.data().events[event as usize].effect == Effect::TakeBuilding;
        let row = v.tableau(seat);
        match if take { side.take } else { side.destroy } {
            Which::Best => {
                let mut designs = [0u8; 32];
                let n = row.len().min(32);
                for (o, b) in designs.iter_mut().zip(row) {
                    *o = b.design;
                }
                b.best_of(v, side, &designs[..n])
            }
            Which::MostDespair => (0..row.len())
                .max_by_key(|&i| (row[i].despair, std::cmp::Reverse(i)))
                .unwrap_or(0),
            Which::MostHope => (0..row.len())
                .max_by_key(|&i| (row[i].hope, std::cmp::Reverse(i)))
                .unwrap_or(0),
        }
    }

    fn next_constable(&mut self, v: &View, eligible: u8) -> u8 {
        let b = self.seats[v.me() as usize];
        b.choose(v, b.side(v).next_constable, eligible)
    }
}

// ---------------------------------------------------------------- parsing

type Sp<T> = toml::Spanned<T>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileRaw {
    name: Option<Sp<String>>,
    idea: Option<Sp<String>>,
    #[serde(default)]
    suspicion: Option<Sp<toml::Table>>,
    #[serde(default)]
    belief: Option<Sp<toml::Table>>,
    #[serde(default)]
    all: Option<SideRaw>,
    #[serde(default)]
    witch: Option<SideRaw>,
    #[serde(default)]
    puritan: Option<SideRaw>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct SideRaw {
    draft: Option<Vec<Sp<String>>>,
    blind_unless: Option<Vec<Sp<String>>>,
    launch: Option<Vec<Sp<String>>>,
    gift: Option<Sp<GiftRaw>>,
    targets: Option<Sp<toml::Table>>,
    next_constable: Option<Sp<String>>,
    take: Option<Sp<String>>,
    destroy: Option<Sp<String>>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct GiftRaw {
    #[serde(rename = "for")]
    events: Vec<Sp<String>>,
    #[serde(default)]
    max: Option<u16>,
    #[serde(default)]
    trust: Option<i32>,
}

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
    data: &'a Data,
}

impl Ctx<'_> {
    fn err(&self, span: std::ops::Range<usize>, msg: impl std::fmt::Display) -> anyhow::Error {
        let before = &self.text[..span.start.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        anyhow!("{}:{line}:{col}: {msg}", self.file)
    }

    fn word<T: Copy>(&self, s: &Sp<String>, what: &str, table: &[(&str, T, &str)]) -> Result<T> {
        let w = s.get_ref().trim();
        table.iter().find(|x| x.0 == w).map(|x| x.1).ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|x| x.0).collect();
            self.err(
                s.span(),
                format!(
                    "unknown {what} {w:?}{}; expected one of: {}",
                    super::hint(w, &names),
                    names.join(", ")
                ),
            )
        })
    }

    fn cond(&self, s: &Sp<String>, text: &str) -> Result<Cond> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let bad = |m: String| self.err(s.span(), m);
        let [var, op, n] = parts[..] else {
            return Err(bad(format!(
                "condition {text:?}: expected `<variable> <op> <number>`, e.g. `round >= 3` (variables: {})",
                VARS.iter().map(|v| v.0).collect::<Vec<_>>().join(", ")
            )));
        };
        let var = VARS
            .iter()
            .find(|v| v.0 == var)
            .map(|v| v.1)
            .ok_or_else(|| {
                let names: Vec<&str> = VARS.iter().map(|v| v.0).collect();
                bad(format!(
                    "unknown variable {var:?}{} in a condition; expected one of: {}",
                    super::hint(var, &names),
                    names.join(", ")
                ))
            })?;
        let op = match op {
            ">=" => Op::Ge,
            "<=" => Op::Le,
            ">" => Op::Gt,
            "<" => Op::Lt,
            "==" | "=" => Op::Eq,
            "!=" => Op::Ne,
            o => {
                return Err(bad(format!(
                    "unknown comparison {o:?}; expected >=, <=, >, <, == or !="
                )))
            }
        };
        let n = n.parse::<i32>().map_err(|_| {
            let digits = n.strip_prefix('-').unwrap_or(n);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                bad(format!(
                    "{n} is out of range (a number in a condition is within {}..={})",
                    i32::MIN,
                    i32::MAX
                ))
            } else {
                bad(format!("{n:?} is not a whole number"))
            }
        })?;
        Ok(Cond {
            var: Some(var),
            op,
            n,
        })
    }

    /// `head [if cond]`.
    fn split_if<'s>(&self, s: &'s Sp<String>) -> Result<(&'s str, Cond)> {
        let t = s.get_ref().trim();
        match t.split_once(" if ") {
            Some((h, c)) => Ok((h.trim(), self.cond(s, c.trim())?)),
            None => {
                if t.starts_with("if ") {
                    return Err(self.err(s.span(), format!("{t:?}: the condition comes after the item, e.g. \"hope if round <= 2\"")));
                }
                Ok((t, Cond::ALWAYS))
            }
        }
    }

    /// The events a launch or gift entry names: an event id, an effect
    /// name (every event with that effect), `remove_despair` (every event
    /// with remove-Despair icons) or `any`. Naming effects keeps a bot valid
    /// for any card data, the real cards included.
    fn events(&self, s: &Sp<String>, word: &str) -> Result<u64> {
        let d = self.data;
        if let Some(i) = d.event_index(word) {
            return Ok(1 << i);
        }
        let mask = |f: &dyn Fn(&super::data::Event) -> bool| {
            d.events
                .iter()
                .enumerate()
                .filter(|e| f(e.1))
                .fold(0u64, |m, e| m | 1 << e.0)
        };
        if let Some(e) = Effect::ALL
            .iter()
            .find(|e| e.0 == word && e.1 != Effect::None)
        {
            return Ok(mask(&|x| x.effect == e.1));
        }
        match word {
            "remove_despair" => return Ok(mask(&|x| x.remove_despair > 0)),
            "any" => return Ok(mask(&|_| true)),
            _ => {}
        }
        let mut names: Vec<&str> = d.events.iter().map(|e| e.id.as_str()).collect();
        names.extend(Effect::ALL.iter().skip(1).map(|e| e.0));
        names.extend(["remove_despair", "any"]);
        Err(self.err(
            s.span(),
            format!(
                "unknown event {word:?}{}; expected an event id, an effect or `any`: {}",
                super::hint(word, &names),
                names.join(", ")
            ),
        ))
    }
}

fn default_side() -> Side {
    let mut draft = [Criterion {
        feature: Feature::MyCategory,
        sign: 1,
        cond: Cond::ALWAYS,
    }; MAX_CRITERIA];
    draft[1].feature = Feature::CompletesSet;
    draft[2].feature = Feature::Hope;
    Side {
        draft,
        draft_len: 3,
        blind_unless: 0,
        gift_for: 0,
        gift_max: 0,
        gift_trust: 0,
        launch: [LaunchRule {
            events: 0,
            cond: Cond::ALWAYS,
        }; MAX_LAUNCH],
        launch_len: 0,
        targets: [Pick::MostSuspect; 8],
        next_constable: Pick::LeastSuspect,
        take: Which::Best,
        destroy: Which::MostDespair,
    }
}

fn apply(c: &Ctx, side: &mut Side, raw: &SideRaw) -> Result<()> {
    if let Some(list) = &raw.draft {
        if list.len() > MAX_CRITERIA {
            return Err(c.err(
                list[MAX_CRITERIA].span(),
                format!("at most {MAX_CRITERIA} draft criteria"),
            ));
        }
        side.draft_len = list.len() as u8;
        for (i, s) in list.iter().enumerate() {
            let (head, cond) = c.split_if(s)?;
            let (sign, name) = match head.strip_prefix('-') {
                Some(rest) => (-1, rest.trim()),
                None => (1, head),
            };
            let f = c.word(
                &Sp::new(s.span(), name.to_string()),
                "draft feature",
                &FEATURES,
            )?;
            side.draft[i] = Criterion {
                feature: f,
                sign,
                cond,
            };
        }
    }
    if let Some(list) = &raw.blind_unless {
        side.blind_unless = 0;
        for s in list {
            let name = s.get_ref().trim();
            let k = FEATURES.iter().position(|f| f.0 == name);
            match k {
                Some(k) => side.blind_unless |= 1 << k,
                None => {
                    c.word(s, "feature", &FEATURES)?;
                }
            }
        }
    }
    if let Some(list) = &raw.launch {
        if list.len() > MAX_LAUNCH {
            return Err(c.err(
                list[MAX_LAUNCH].span(),
                format!("at most {MAX_LAUNCH} launch entries"),
            ));
        }
        side.launch_len = list.len() as u8;
        for (i, s) in list.iter().enumerate() {
            let (head, cond) = c.split_if(s)?;
            side.launch[i] = LaunchRule {
                events: c.events(s, head)?,
                cond,
            };
        }
    }
    if let Some(g) = &raw.gift {
        let g2 = g.get_ref();
        side.gift_for = 0;
        for s in &g2.events {
            side.gift_for |= c.events(s, s.get_ref().trim())?;
        }
        side.gift_max = g2.max.unwrap_or(1);
        side.gift_trust = g2.trust.unwrap_or(0);
    }
    if let Some(t) = &raw.targets {
        for (k, val) in t.get_ref() {
            let Some(ei) = Effect::ALL.iter().position(|e| e.0 == k) else {
                let names: Vec<&str> = Effect::ALL.iter().map(|e| e.0).collect();
                return Err(c.err(
                    t.span(),
                    format!(
                        "targets: unknown effect {k:?}{}; expected one of: {}",
                        super::hint(k, &names),
                        names.join(", ")
                    ),
                ));
            };
            let Some(v) = val.as_str() else {
                return Err(c.err(
                    t.span(),
                    format!("targets: {k} must be a policy name in quotes"),
                ));
            };
            side.targets[ei] =
                c.word(&Sp::new(t.span(), v.to_string()), "target policy", &PICKS)?;
        }
    }
    if let Some(s) = &raw.next_constable {
        side.next_constable = c.word(s, "policy", &PICKS)?;
    }
    if let Some(s) = &raw.take {
        side.take = c.word(s, "building choice", &WHICH)?;
    }
    if let Some(s) = &raw.destroy {
        side.destroy = c.word(s, "building choice", &WHICH)?;
    }
    Ok(())
}

/// Where key `key` of the table spanning `table` is written: the first
/// line from the table's start that assigns it (`key = ...`), or the
/// table's own span if none does (an inline table, a quoted key).
fn key_span(text: &str, table: std::ops::Range<usize>, key: &str) -> std::ops::Range<usize> {
    let mut off = table.start.min(text.len());
    for line in text[off..].split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix(key) {
            if rest.trim_start().starts_with('=') {
                let start = off + (line.len() - t.len());
                return start..start + key.len();
            }
        }
        off += line.len();
    }
    table
}

/// The `[belief]` table: the likelihoods learned for this data
/// ([`super::belief::learned_rates`]), each
/// kind of evidence overridable as `name = [witch_rate, puritan_rate]`
/// (occurrences per chance, each within 0..=1), and `weight`, which scales
/// every likelihood ratio (0: the prior alone; 1: as learned).
fn parse_belief(c: &Ctx, t: &Sp<toml::Table>) -> Result<Belief> {
    let mut rates = super::belief::learned_rates(c.data)?;
    let mut weight = 1.0f32;
    let mut from_field = false;
    let names: Vec<&str> = EVIDENCE
        .iter()
        .map(|e| e.name)
        .chain(["weight", "learn"])
        .collect();
    let own_rates = t
        .get_ref()
        .keys()
        .any(|k| EVIDENCE.iter().any(|e| e.name == k));
    for (k, v) in t.get_ref() {
        let at = key_span(c.text, t.span(), k);
        if k == "learn" {
            from_field = match v.as_str() {
                Some("shipped") => false,
                Some("field") if own_rates => {
                    return Err(c.err(
                        at,
                        "[belief]: learn = \"field\" learns every rate from the field: give no rate of your own",
                    ))
                }
                Some("field") => true,
                _ => {
                    return Err(c.err(
                        at,
                        format!("[belief]: learn = {v} must be \"shipped\" (the rates of the six shipped bots' games) or \"field\" (the rates of the run's own field, learned before the games)"),
                    ))
                }
            };
            continue;
        }
        let num = |x: &toml::Value| match x {
            toml::Value::Float(f) => Some(*f),
            toml::Value::Integer(i) => Some(*i as f64),
            _ => None,
        };
        if k == "weight" {
            weight = num(v).filter(|w| (0.0..=5.0).contains(w)).ok_or_else(|| {
                c.err(
                    at.clone(),
                    format!("[belief]: weight = {v} must be a number from 0 to 5"),
                )
            })? as f32;
            continue;
        }
        let Some(i) = EVIDENCE.iter().position(|e| e.name == k) else {
            return Err(c.err(
                at,
                format!(
                    "[belief]: unknown key {k:?}{}; expected one of: {}",
                    super::hint(k, &names),
                    names.join(", ")
                ),
            ));
        };
        let pair = v
            .as_array()
            .filter(|a| a.len() == 2)
            .and_then(|a| Some((num(&a[0])?, num(&a[1])?)))
            .filter(|(w, p)| (0.0..=1.0).contains(w) && (0.0..=1.0).contains(p));
        let Some((w, p)) = pair else {
            return Err(c.err(
                at,
                format!("[belief]: {k} = {v} must be [witch_rate, puritan_rate], two numbers from 0 to 1 (how often it happens per chance to a Witch and to a Puritan)"),
            ));
        };
        rates[i] = (w as f32, p as f32);
    }
    let unweighted = Belief {
        weight,
        from_field,
        ..Belief::from_rates(&rates)
    };
    Ok(unweighted.with_rates(&rates).hiding_by_itself())
}

/// Compile bot file text `text` (named `file` in messages) against `data`.
pub fn compile(file: &str, text: &str, data: &Data) -> Result<SalemBot> {
    let raw: FileRaw = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        match e.span() {
            Some(s) => Ctx { file, text, data }.err(s, msg),
            None => anyhow!("{file}: {msg}"),
        }
    })?;
    let c = Ctx { file, text, data };
    let name = match &raw.name {
        Some(n) if !n.get_ref().trim().is_empty() => n.get_ref().trim().to_string(),
        Some(n) => return Err(c.err(n.span(), "empty name")),
        None => std::path::Path::new(file)
            .file_stem()
            .map_or("bot".into(), |s| s.to_string_lossy().into_owned()),
    };
    let idea = raw
        .idea
        .as_ref()
        .map(|s| s.get_ref().trim().to_string())
        .unwrap_or_default();
    let mut suspicion = [1, -1, 0, 0, 0];
    if let Some(t) = &raw.suspicion {
        for (k, v) in t.get_ref() {
            // The key's own line (the table's values carry no span).
            let at = key_span(text, t.span(), k);
            let Some(i) = WEIGHTS.iter().position(|w| w == k) else {
                return Err(c.err(
                    at.clone(),
                    format!(
                        "[suspicion]: unknown weight {k:?}{}; expected one of: {}",
                        super::hint(k, &WEIGHTS),
                        WEIGHTS.join(", ")
                    ),
                ));
            };
            let Some(x) = v.as_integer().filter(|x| (-100..=100).contains(x)) else {
                return Err(c.err(
                    at,
                    format!("[suspicion]: {k} = {v} must be a whole number from -100 to 100"),
                ));
            };
            suspicion[i] = x as i32;
        }
    }
    let belief = match &raw.belief {
        None => None,
        Some(t) => Some(parse_belief(&c, t)?),
    };
    if belief.is_none() {
        // `looks_puritan` reads the likelihoods of a `[belief]` model.
        for side in [&raw.all, &raw.witch, &raw.puritan].into_iter().flatten() {
            for s in side.draft.iter().flatten() {
                if s.get_ref().contains("looks_puritan") {
                    return Err(c.err(
                        s.span(),
                        "looks_puritan weighs cards by the [belief] model's likelihoods: add a [belief] table",
                    ));
                }
            }
        }
    }
    let mut base = default_side();
    if let Some(a) = &raw.all {
        apply(&c, &mut base, a)?;
    }
    let mut witch = base.clone();
    // A Witch who tries players defaults to the ones it suspects least
    // (likely Puritans, +2 Despair each); a Puritan to the most suspect.
    if raw.all.as_ref().is_none_or(|a| a.targets.is_none()) {
        witch.targets[effect_index(Effect::PutOnTrial)] = Pick::LeastSuspect;
    }
    let mut puritan = base;
    if let Some(w) = &raw.witch {
        apply(&c, &mut witch, w)?;
    }
    if let Some(p) = &raw.puritan {
        apply(&c, &mut puritan, p)?;
    }
    Ok(SalemBot {
        name,
        idea,
        suspicion,
        belief,
        witch,
        puritan,
    })
}

/// The shipped bots, by file name (embedded: they work from any folder).
/// The first [`DEFAULT_FIELD`] are the default field of a run; the rest
/// (the deducing bots) are loaded by name.
pub const SHIPPED: [(&str, &str); 8] = [
    (
        "naive.salem",
        include_str!("../../strategies/new_salem/naive.salem"),
    ),
    (
        "set_builder.salem",
        include_str!("../../strategies/new_salem/set_builder.salem"),
    ),
    (
        "hidden_witch.salem",
        include_str!("../../strategies/new_salem/hidden_witch.salem"),
    ),
    (
        "loud_witch.salem",
        include_str!("../../strategies/new_salem/loud_witch.salem"),
    ),
    (
        "accuser_puritan.salem",
        include_str!("../../strategies/new_salem/accuser_puritan.salem"),
    ),
    (
        "cautious_puritan.salem",
        include_str!("../../strategies/new_salem/cautious_puritan.salem"),
    ),
    (
        "deducer.salem",
        include_str!("../../strategies/new_salem/deducer.salem"),
    ),
    (
        "sly_witch.salem",
        include_str!("../../strategies/new_salem/sly_witch.salem"),
    ),
];

/// How many of [`SHIPPED`] make the default field (the six original
/// bots, so the default figures stay comparable; the deducing bots join
/// a run by name).
pub const DEFAULT_FIELD: usize = 6;

/// Compile the default field of shipped bots against `data`.
/// A bot that plays every built-in default, named `name` with `idea`:
/// what the outputs of a merged run print for the bots it did not compile.
pub fn label(name: &str, idea: &str) -> Result<SalemBot> {
    let mut b = compile("<label>", "", &Data::sample())?;
    b.name = name.to_string();
    b.idea = idea.to_string();
    Ok(b)
}

pub fn shipped(data: &Data) -> Result<Vec<SalemBot>> {
    SHIPPED[..DEFAULT_FIELD]
        .iter()
        .map(|(f, t)| compile_shipped(f, t, data))
        .collect()
}

/// The shipped bot named `name` (its file name, with or without `.salem`):
/// its file name and text.
pub fn find_shipped(name: &str) -> Option<(&'static str, &'static str)> {
    let name = name.trim_end_matches(".salem");
    SHIPPED
        .iter()
        .find(|(f, _)| f.trim_end_matches(".salem") == name)
        .copied()
}

/// Compile the shipped bot file `file` (text `text`) against `data`, named
/// by its path in the source tree.
pub fn compile_shipped(file: &str, text: &str, data: &Data) -> Result<SalemBot> {
    compile(&format!("strategies/new_salem/{file}"), text, data)
}
