//! PSRO for Dominion ([`super::psro`]'s [`Oracle`]): the population is a
//! lineup of bots in one kingdom; a pair's result is a 2-player match
//! (seats alternating, the runner's games); a best response to a mixture
//! is the best bot any fitting template finds against the mixture's
//! support, each opponent counting its weight ([`super::search`] on a
//! [`TemplateObjective`] with weights), kept by its confirmation score
//! against the mixture (fresh seeds).
//!
//! Every number depends on the seed alone: pair `(a, b)` plays the games
//! `0..games` of the population's seed; the `i`-th best response searches
//! with seed `seed ^ (i + 1) · SEARCH_STRIDE`; the gate plays
//! `seed ^ GATE_SALT`, which no search game uses.

use super::psro::Oracle;
use super::{search, Budget, Template, TemplateObjective, Value};
use crate::dominion::lineup::Loaded;
use crate::engine::Kingdom;
use crate::report::EntrantInfo;
use crate::sim;
use crate::strategy;
use anyhow::{anyhow, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Seed stride between the searches of successive best responses.
const SEARCH_STRIDE: u64 = 0x5EA2_C4B5_11DE_0007;

/// A bot a best response found.
#[derive(Clone, Debug)]
pub struct FoundBot {
    /// Its index in the population.
    pub member: usize,
    /// The template (index into the oracle's templates) and its values.
    pub template: usize,
    pub values: Vec<Value>,
    /// The parameters, described (`name = value, …`).
    pub params: String,
    /// Its confirmation score against the mixture it answered (fresh seeds).
    pub confirm: f64,
    /// Games the search played.
    pub games: u64,
}

/// The Dominion oracle of PSRO.
pub struct DominionOracle<'a> {
    pub kingdom: &'a Kingdom,
    pub templates: &'a [Template],
    /// Members `0..` : the field, then every best response found.
    pub population: Vec<(EntrantInfo, Loaded)>,
    pub found: Vec<FoundBot>,
    pub seed: u64,
    /// Games per pair of the population's matrix.
    pub games: u64,
    /// The budget of each template's search.
    pub budget: Budget,
    pub stop: &'a AtomicBool,
    /// Progress lines (on the terminal's standard error).
    pub say: &'a (dyn Fn(&str) + Sync),
    /// A progress bar for each search (hidden when not wanted).
    pub bars: bool,
    /// Games played in all (matrix, searches, gate).
    pub played: u64,
    cache: HashMap<(usize, usize), (f64, f64)>,
}

impl<'a> DominionOracle<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kingdom: &'a Kingdom,
        templates: &'a [Template],
        field: Vec<(EntrantInfo, Loaded)>,
        seed: u64,
        games: u64,
        budget: Budget,
        stop: &'a AtomicBool,
        say: &'a (dyn Fn(&str) + Sync),
    ) -> DominionOracle<'a> {
        DominionOracle {
            kingdom,
            templates,
            population: field,
            found: Vec::new(),
            seed,
            games,
            budget,
            stop,
            say,
            bars: false,
            played: 0,
            cache: HashMap::new(),
        }
    }

    /// Member `a` against member `b` on games `0..games` of `seed`:
    /// `(games, a's score)` (ties half).
    pub fn play_on(&mut self, a: usize, b: usize, seed: u64, games: u64) -> Result<(f64, f64)> {
        let (e, completed) = super::play_pair(
            &self.population[a],
            &self.population[b],
            self.kingdom,
            seed,
            (0, games),
            self.stop,
        )?;
        self.played += completed;
        Ok((e.games as f64, e.score_wins()))
    }

    /// The text of found bot `f` as a strategy file (see
    /// [`super::best_bot_text`]: `header` as comments; `extends:` valid
    /// from `out_dirs`).
    pub fn bot_text(
        &self,
        f: &FoundBot,
        header: &[String],
        out_dirs: &[&std::path::Path],
    ) -> String {
        super::best_bot_text(&self.templates[f.template], &f.values, header, out_dirs)
    }
}

impl Oracle for DominionOracle<'_> {
    fn best_response(&mut self, weights: &[f64]) -> Result<Option<usize>> {
        let support: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 1e-9).collect();
        let opponents: Vec<(EntrantInfo, Loaded)> = support
            .iter()
            .map(|&i| self.population[i].clone())
            .collect();
        let ws: Vec<f64> = support.iter().map(|&i| weights[i]).collect();
        let iteration = self.found.len() as u64 + 1;
        let seed = self.seed ^ iteration.wrapping_mul(SEARCH_STRIDE);
        (self.say)(&format!(
            "best response {iteration}: against the Nash mixture {}",
            support
                .iter()
                .map(|&i| format!("{} {:.0}%", self.population[i].0.name, 100.0 * weights[i]))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        // (template, values, confirmation score, games)
        let mut best: Option<(usize, Vec<Value>, f64, u64)> = None;
        for (ti, t) in self.templates.iter().enumerate() {
            let obj = match TemplateObjective::new(t, self.kingdom, &opponents, self.stop) {
                Ok(o) => o.with_weights(ws.clone())?,
                Err(e) => {
                    (self.say)(&format!("  skipped {}: {}", t.file, e.msg));
                    continue;
                }
            };
            let bar = if self.bars {
                sim::runner::progress_bar(true, 0)
            } else {
                indicatif::ProgressBar::hidden()
            };
            let found = match search(&obj, seed, self.budget, self.stop, &bar) {
                Ok(f) => f,
                Err(_) if self.stop.load(Ordering::Relaxed) => return Err(anyhow!("interrupted")),
                Err(e) => {
                    (self.say)(&format!("  skipped {}: {e}", t.file));
                    continue;
                }
            };
            self.played += found.games_played;
            let sum: f64 = ws.iter().sum();
            let score = found
                .confirm
                .iter()
                .zip(&ws)
                .map(|(e, w)| w * e.score_wins() / e.games.max(1) as f64)
                .sum::<f64>()
                / sum;
            let values = obj.values(&found.candidates[found.best].point);
            (self.say)(&format!(
                "  {}: {} — {:.1}% against the mixture ({} confirmation games per opponent)",
                t.file,
                t.describe(&values),
                100.0 * score,
                self.budget.confirm
            ));
            // Ties go to the earlier template.
            if best.as_ref().is_none_or(|b| score > b.2) {
                best = Some((ti, values, score, found.games_played));
            }
        }
        let Some((ti, values, confirm, games)) = best else {
            return Ok(None);
        };
        let t = &self.templates[ti];
        let text = t.render(&values);
        let mut st = strategy::parse(&text, &t.file).map_err(|e| anyhow!("{e}"))?;
        let name = format!("PSRO {iteration}: {}", st.name);
        st.name = name.clone();
        let member = self.population.len();
        self.population.push((
            EntrantInfo {
                name,
                source: format!("{} ({})", t.file, t.describe(&values)),
                hash: format!("{:016x}", st.source_hash),
            },
            Loaded::File(Box::new(st)),
        ));
        self.found.push(FoundBot {
            member,
            template: ti,
            params: t.describe(&values),
            values,
            confirm,
            games,
        });
        Ok(Some(member))
    }

    fn play(&mut self, a: usize, b: usize) -> Result<(f64, f64)> {
        if let Some(&(g, s)) = self.cache.get(&(a, b)) {
            return Ok((g, s));
        }
        if let Some(&(g, s)) = self.cache.get(&(b, a)) {
            return Ok((g, g - s));
        }
        let r = self.play_on(a, b, self.seed, self.games)?;
        self.cache.insert((a, b), r);
        Ok(r)
    }
}
