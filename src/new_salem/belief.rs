//! Learning the belief model's likelihoods from simulated games: how
//! often each kind of evidence ([`super::bot::EVIDENCE`]) happens to a
//! Witch and to a Puritan, per chance. The bots' `[belief]` model weighs
//! the evidence by these rates (naive Bayes). A bot file's `[belief]`
//! starts from [`learned_rates`]: [`learn`] run on the card data in use
//! with the six original shipped bots (none of which deduces), once per
//! process and data.

use super::bot::{SalemBot, EVIDENCE};
use super::data::Data;
use super::engine::{ev, Game, NoLog, Table};
use super::sim::SalemMatch;
use anyhow::Result;

/// Occurrences and chances of each kind of evidence, for Witches and for
/// Puritans, summed over the chairs of the games played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    pub games: u64,
    /// `[witch hits, witch chances, puritan hits, puritan chances]` per kind.
    pub counts: [[u64; 4]; EVIDENCE.len()],
}

impl Learned {
    /// The rates (Witch, Puritan) per chance, rounded to 3 decimals (0 for
    /// a kind that never had a chance).
    pub fn rates(&self) -> [(f32, f32); EVIDENCE.len()] {
        let r = |h: u64, c: u64| {
            if c == 0 {
                0.0
            } else {
                ((h as f64 / c as f64) * 1000.0).round() as f32 / 1000.0
            }
        };
        let mut out = [(0.0, 0.0); EVIDENCE.len()];
        for (o, c) in out.iter_mut().zip(&self.counts) {
            *o = (r(c[0], c[1]), r(c[2], c[3]));
        }
        out
    }

    /// A table of the rates: kind, Witch rate, Puritan rate, chances.
    pub fn table(&self) -> String {
        let mut s =
            String::from("evidence,witch_rate,puritan_rate,witch_chances,puritan_chances\n");
        for (k, (w, p)) in self.rates().iter().enumerate() {
            s.push_str(&format!(
                "{},{w:.3},{p:.3},{},{}\n",
                EVIDENCE[k].name, self.counts[k][1], self.counts[k][3]
            ));
        }
        s
    }
}

/// Play `games` games at each player count of `players` between `bots`
/// (seeded `seed`, as `salem sim` deals and seats them) and count, for
/// every chair, the evidence its play left against its team.
pub fn learn(
    data: &Data,
    bots: &[SalemBot],
    players: &[usize],
    games: u64,
    seed: u64,
) -> Result<Learned> {
    let mut l = Learned::default();
    let mut g = Game::new();
    for &p in players {
        let t = Table::new(data, p)?;
        let m = SalemMatch { table: &t, bots };
        for i in 0..games {
            let seats = m.setup(&mut g, seed, i);
            let o = g.play(&t, &mut m.seated(&seats), &mut NoLog);
            l.games += 1;
            let all: Vec<[u8; ev::KINDS]> = (0..p as u8).map(|s| g.evidence(s)).collect();
            let trials: u32 = all.iter().map(|e| e[ev::TRIALS] as u32).sum();
            for (s, e) in all.iter().enumerate() {
                let col = if o.witches & (1 << s) != 0 { 0 } else { 2 };
                for (k, x) in EVIDENCE.iter().enumerate() {
                    let hits = e[x.hits] as u64;
                    let chances = match x.chances {
                        Some(c) => e[c] as u64,
                        None => (trials - e[ev::TRIALS] as u32) as u64,
                    };
                    l.counts[k][col] += hits.min(chances);
                    l.counts[k][col + 1] += chances;
                }
            }
        }
    }
    Ok(l)
}

/// Games per player count [`learned_rates`] plays, and its seed.
pub const LEARN_GAMES: u64 = 500;
pub const LEARN_SEED: u64 = 44;

type Rates = [(f32, f32); EVIDENCE.len()];

static CACHE: std::sync::Mutex<Vec<(String, Rates)>> = std::sync::Mutex::new(Vec::new());

/// The likelihoods a `[belief]` model starts from: [`learn`] on `data`
/// (its files and its rule options) with the default field of shipped
/// bots, [`LEARN_GAMES`] games at each of its player counts, seed
/// [`LEARN_SEED`]; computed once per process and data (outside any game).
pub fn learned_rates(data: &Data) -> Result<Rates> {
    let key = format!("{} {}", data.digest, data.rules.options.line());
    if let Some(r) = CACHE
        .lock()
        .ok()
        .and_then(|c| c.iter().find(|x| x.0 == key).map(|x| x.1))
    {
        return Ok(r);
    }
    let bots = super::bot::shipped(data)?;
    let counts: Vec<usize> = data.rules.player_counts.clone();
    let r = learn(data, &bots, &counts, LEARN_GAMES, LEARN_SEED)?.rates();
    if let Ok(mut c) = CACHE.lock() {
        c.push((key, r));
    }
    Ok(r)
}

impl Learned {
    /// Both counts added.
    pub fn add(&mut self, o: &Learned) {
        self.games += o.games;
        for (x, y) in self.counts.iter_mut().zip(&o.counts) {
            for k in 0..4 {
                x[k] += y[k];
            }
        }
    }
}

/// Learn the likelihoods from the field being played: `rounds` times,
/// play `games` games at each of `players` between `bots` (round `r`
/// seeded `seed + r`) and give the bots with a `[belief]` model (all, or
/// with `only_field` those whose file says `learn = "field"`) the rates of
/// every game played so far (each weighed by its own `weight`), so the
/// deducers weigh the evidence as this field's players — hiding Witches
/// included — leave it, not as the six shipped bots do. Pooling the rounds
/// (fictitious play) damps the see-saw of Witches that hide by the very
/// rates the Puritans read. Returns the pooled counts after each round;
/// the bots keep the last. Deterministic: the same arguments give the same
/// rates.
#[allow(clippy::too_many_arguments)]
pub fn learn_field(
    data: &Data,
    bots: &mut [SalemBot],
    players: &[usize],
    games: u64,
    seed: u64,
    rounds: u32,
    only_field: bool,
) -> Result<Vec<Learned>> {
    let mut out = Vec::new();
    let mut pooled = Learned::default();
    for r in 0..rounds {
        let l = learn(data, bots, players, games, seed.wrapping_add(r as u64))?;
        pooled.add(&l);
        let rates = pooled.rates();
        for b in bots.iter_mut() {
            if let Some(m) = &b.belief {
                if m.from_field || !only_field {
                    b.belief = Some(m.with_rates(&rates));
                }
            }
        }
        out.push(pooled.clone());
    }
    Ok(out)
}

/// Games per player count and round, and rounds, of [`prepare_field`].
pub const FIELD_GAMES: u64 = 500;
pub const FIELD_ROUNDS: u32 = 3;

/// Give the bots whose `[belief]` says `learn = "field"` the likelihoods
/// of their own field on `data` ([`learn_field`]: [`FIELD_ROUNDS`] rounds
/// of [`FIELD_GAMES`] games at each of the data's player counts, seed
/// [`LEARN_SEED`]), before a run. The field is the whole list of bots, so
/// the same bots give the same rates in `salem sim`, `log`, `compare` and
/// every shard. Nothing happens when no bot asks.
pub fn prepare_field(data: &Data, bots: &mut [SalemBot]) -> Result<()> {
    if !bots
        .iter()
        .any(|b| b.belief.as_ref().is_some_and(|m| m.from_field))
    {
        return Ok(());
    }
    let counts = data.rules.player_counts.clone();
    learn_field(
        data,
        bots,
        &counts,
        FIELD_GAMES,
        LEARN_SEED,
        FIELD_ROUNDS,
        true,
    )?;
    Ok(())
}

/// `l`'s rates as a bot file's `[belief]` table (`name = [witch_rate,
/// puritan_rate]` per kind of evidence), after the comment lines `note`.
pub fn belief_table(l: &Learned, note: &str) -> String {
    let mut s = String::new();
    for line in note.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("[belief]\nweight = 1.0\n");
    for (k, (w, p)) in l.rates().iter().enumerate() {
        s.push_str(&format!(
            "{} = [{w:.3}, {p:.3}]   # {} and {} chances\n",
            EVIDENCE[k].name, l.counts[k][1], l.counts[k][3]
        ));
    }
    s
}
