//! `domsim optimize`: search a strategy template's parameters for the bot
//! that scores best against a field of opponents in one kingdom.
//!
//! The search, for a discrete space (integers, cards, optional entries):
//!
//! 1. **Candidates.** Every point of the space when it has at most
//!    `candidates` points; else the centre point plus distinct points drawn
//!    from the seed.
//! 2. **Successive halving with common random numbers.** Every candidate
//!    plays the same games (the same seed and game indices, so the same
//!    shuffles and seats) against every opponent; the best third survives and
//!    the survivors play three times as many games, until one is left. Games
//!    already played count at the next level (the indices only grow), so a
//!    survivor's estimate sharpens instead of being replaced.
//! 3. **Local refinement.** The survivor's neighbours (each parameter one
//!    step, and one eighth of its range, either way) race it on its own
//!    games; a neighbour that scores higher must stay higher on three times
//!    as many games before it replaces the incumbent.
//! 4. **Confirmation** on fresh seeds (a seed no search game used): the
//!    winner's score against the field with its 95% interval, per opponent
//!    and overall, so that noise in the search cannot flatter it.
//!
//! Every number depends only on the seed: candidates are drawn from it, the
//! games are the runner's (thread-count independent), ties in a ranking go
//! to the earlier candidate.

pub mod oracle;
pub mod psro;
pub mod template;

use crate::dominion::lineup::{Lineup, Loaded};
use crate::dominion::matches::{self, EntrantStats, WIN_UNITS};
use crate::engine::{Kingdom, MAX_PLAYERS};
use crate::report::EntrantInfo;
use crate::sim::{wilson, RunConfig};
use crate::strategy;
use anyhow::{anyhow, Result};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
pub use template::{Template, TemplateError, Value};

/// Salt of the confirmation seed: `seed ^ CONFIRM_SALT` is used by no
/// search game.
pub const CONFIRM_SALT: u64 = 0xC0F1_A7ED_5EED_0001;

/// Salt of the robustness gate's seed ([`psro::judge`]): `seed ^ GATE_SALT`
/// is used by no search or confirmation game.
pub const GATE_SALT: u64 = 0x6A7E_F1E1_D5EE_D002;

/// Results against each opponent as the gate's `(games, score)` pairs.
pub fn versus_pairs(vs: &[EntrantStats]) -> Vec<(f64, f64)> {
    vs.iter()
        .map(|e| (e.games as f64, e.score_wins()))
        .collect()
}

/// How hard to search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates at the first level (every point when the space is smaller).
    pub candidates: usize,
    /// Games per opponent for each candidate at the first level.
    pub games: u64,
    /// Most games per opponent a candidate plays in the search.
    pub max_games: u64,
    /// Local refinement passes.
    pub refine: usize,
    /// Games per opponent in the confirmation.
    pub confirm: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            candidates: 128,
            games: 400,
            max_games: 32_400,
            refine: 3,
            confirm: 50_000,
        }
    }
}

/// What a search optimises: a discrete space (each dimension a list of
/// values, given by its size) and noisy, seeded evaluations. A Dominion
/// template against a field is one ([`TemplateObjective`]); tests plant an
/// optimum in a synthetic one.
pub trait Objective {
    /// The number of values of each parameter.
    fn dims(&self) -> Vec<usize>;
    /// Why `point` cannot be evaluated (e.g. its strategy does not parse).
    fn check(&self, point: &[usize]) -> Option<String>;
    /// Results of `point` per opponent on games `from..to` of `seed`: the
    /// same `(seed, index)` must give the same game to every point (common
    /// random numbers).
    fn play(&self, point: &[usize], seed: u64, from: u64, to: u64) -> Result<Vec<EntrantStats>>;
    /// Opponents (results per point are per opponent).
    fn opponents(&self) -> usize;
    /// How much each opponent counts in a candidate's score (a Nash
    /// mixture in PSRO); empty: every opponent the same (the score over all
    /// games).
    fn weights(&self) -> Vec<f64> {
        Vec::new()
    }
}

/// One point of the space, with what the search knows of it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Index of each parameter's value in its domain.
    pub point: Vec<usize>,
    /// Per opponent: the candidate's results over games `0..games`.
    pub vs: Vec<EntrantStats>,
    /// Why the candidate cannot play (a strategy or compile error).
    pub error: Option<String>,
    /// Each opponent's weight in [`Candidate::score`] (empty: equal).
    pub weights: Vec<f64>,
}

impl Candidate {
    /// Games played per opponent.
    pub fn games(&self) -> u64 {
        self.vs.first().map_or(0, |e| e.games)
    }
    /// Results against the whole field.
    pub fn total(&self) -> EntrantStats {
        total(&self.vs)
    }
    /// Score against the field (ties split), over every game played; with
    /// weights, the weighted mean of the per-opponent scores.
    pub fn score(&self) -> f64 {
        if self.error.is_some() {
            return f64::NEG_INFINITY;
        }
        if !self.weights.is_empty() {
            let sum: f64 = self.weights.iter().sum();
            return self
                .vs
                .iter()
                .zip(&self.weights)
                .map(|(e, w)| w * e.score_wins() / e.games.max(1) as f64)
                .sum::<f64>()
                / sum.max(1e-300);
        }
        let t = self.total();
        if t.games == 0 {
            0.0
        } else {
            t.win_units() as f64 / (WIN_UNITS * t.games) as f64
        }
    }
}

fn total(vs: &[EntrantStats]) -> EntrantStats {
    let mut t = EntrantStats::default();
    for e in vs {
        t.merge(e);
    }
    t
}

/// One line of the search log (the `-o` CSV).
#[derive(Clone, Debug)]
pub struct Step {
    pub candidate: usize,
    pub stage: String,
    pub games: u64,
    pub score: f64,
    pub lo: f64,
    pub hi: f64,
}

/// What a search found.
pub struct Found {
    pub best: usize,
    pub candidates: Vec<Candidate>,
    pub log: Vec<Step>,
    /// The winner on fresh seeds, per opponent.
    pub confirm: Vec<EntrantStats>,
    pub confirm_seed: u64,
    /// Games played in all.
    pub games_played: u64,
}

impl Found {
    pub fn confirm_total(&self) -> EntrantStats {
        total(&self.confirm)
    }
}

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The first-level points: the whole grid if it has at most `want`
/// points, else the centre plus distinct points drawn from `seed`.
pub fn initial_points(dims: &[usize], want: usize, seed: u64) -> Vec<Vec<usize>> {
    let want = want.max(1);
    // Saturating: many large parameters overflow even u128.
    let space: u128 = dims
        .iter()
        .fold(1u128, |acc, &d| acc.saturating_mul(d as u128));
    if space <= want as u128 {
        let mut out = vec![vec![0; dims.len()]];
        loop {
            let mut next = out.last().unwrap().clone();
            let mut i = 0;
            loop {
                if i == next.len() {
                    return out;
                }
                next[i] += 1;
                if next[i] < dims[i] {
                    break;
                }
                next[i] = 0;
                i += 1;
            }
            out.push(next);
        }
    }
    let centre: Vec<usize> = dims.iter().map(|&d| d / 2).collect();
    let mut seen = HashSet::new();
    seen.insert(centre.clone());
    let mut out = vec![centre];
    let mut state = seed ^ 0x007E_570F_0B07;
    while out.len() < want {
        let p: Vec<usize> = dims
            .iter()
            .map(|&d| (splitmix(&mut state) % d as u64) as usize)
            .collect();
        if seen.insert(p.clone()) {
            out.push(p);
        }
    }
    out
}

struct Run<'a, O> {
    o: &'a O,
    seed: u64,
    stop: &'a AtomicBool,
    progress: &'a indicatif::ProgressBar,
    played: u64,
    log: Vec<Step>,
}

impl<O: Objective> Run<'_, O> {
    fn candidate(&self, point: Vec<usize>) -> Candidate {
        let error = self.o.check(&point);
        Candidate {
            point,
            vs: vec![EntrantStats::default(); self.o.opponents()],
            error,
            weights: self.o.weights(),
        }
    }

    /// Bring `c` to `games` games per opponent (search seed).
    fn extend(&mut self, c: &mut Candidate, games: u64) -> Result<()> {
        let have = c.games();
        if c.error.is_some() || have >= games {
            return Ok(());
        }
        if self.stop.load(Ordering::Relaxed) {
            return Err(anyhow!("interrupted"));
        }
        let more = self.o.play(&c.point, self.seed, have, games)?;
        for (a, b) in c.vs.iter_mut().zip(&more) {
            a.merge(b);
        }
        let n = (games - have) * self.o.opponents() as u64;
        self.played += n;
        self.progress.inc(n);
        Ok(())
    }

    fn log(&mut self, i: usize, c: &Candidate, stage: &str) {
        let t = c.total();
        let (score, lo, hi) = if c.error.is_some() {
            (0.0, 0.0, 0.0)
        } else {
            let (lo, hi) = wilson(t.score_wins(), t.games);
            (c.score(), lo, hi)
        };
        self.log.push(Step {
            candidate: i,
            stage: stage.to_string(),
            games: c.games(),
            score,
            lo,
            hi,
        });
    }
}

/// Candidates ranked best first (ties: earlier candidate first).
fn ranked(cands: &[Candidate], alive: &[usize]) -> Vec<usize> {
    let mut v = alive.to_vec();
    v.sort_by(|&a, &b| {
        cands[b]
            .score()
            .total_cmp(&cands[a].score())
            .then(a.cmp(&b))
    });
    v
}

/// Run the whole search (see the module doc). Fails when every
/// first-level candidate is invalid (the first error is given) or when
/// interrupted.
pub fn search<O: Objective>(
    o: &O,
    seed: u64,
    b: Budget,
    stop: &AtomicBool,
    progress: &indicatif::ProgressBar,
) -> Result<Found> {
    let dims = o.dims();
    let mut r = Run {
        o,
        seed,
        stop,
        progress,
        played: 0,
        log: Vec::new(),
    };
    let mut cands: Vec<Candidate> = initial_points(&dims, b.candidates, seed)
        .into_iter()
        .map(|p| r.candidate(p))
        .collect();
    if cands.iter().all(|c| c.error.is_some()) {
        let e = cands[0].error.clone().unwrap_or_default();
        return Err(anyhow!(
            "no candidate of the template is a valid strategy; first error: {e}"
        ));
    }
    let mut known: HashSet<Vec<usize>> = cands.iter().map(|c| c.point.clone()).collect();
    let f = o.opponents() as u64;
    // Plan for the progress bar (refinement is an upper bound).
    let mut plan = 0u64;
    let (mut n, mut k) = (b.games.max(1), cands.len() as u64);
    while k > 1 {
        plan += k * n * f;
        k = k.div_ceil(3).min(k - 1);
        n = (n * 3).min(b.max_games.max(b.games));
    }
    plan += (b.refine as u64 * 4 * dims.len() as u64 + 1) * b.max_games * f + b.confirm * f;
    progress.set_length(plan);

    // Successive halving.
    for (i, c) in cands.iter().enumerate() {
        if c.error.is_some() {
            r.log(i, c, "invalid");
        }
    }
    let mut alive: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].error.is_none())
        .collect();
    let mut n = b.games.max(1);
    let mut level = 0;
    loop {
        for &i in &alive {
            let mut c = cands[i].clone();
            r.extend(&mut c, n)?;
            r.log(i, &c, &format!("halving {level}"));
            cands[i] = c;
        }
        let order = ranked(&cands, &alive);
        if order.len() <= 1 {
            alive = order;
            break;
        }
        let keep = order.len().div_ceil(3).min(order.len() - 1);
        alive = order[..keep].to_vec();
        n = (n * 3).min(b.max_games.max(b.games));
        level += 1;
    }
    let mut best = alive[0];
    let top = b.max_games.max(b.games);
    let mut c = cands[best].clone();
    r.extend(&mut c, top)?;
    cands[best] = c;

    // Local refinement.
    for pass in 0..b.refine {
        let mut neighbours = Vec::new();
        for (j, &len) in dims.iter().enumerate() {
            let step = (len / 8).max(1);
            let here = cands[best].point[j];
            let mut moves = vec![1];
            if step > 1 {
                moves.push(step);
            }
            for m in moves {
                for to in [here.checked_sub(m), Some(here + m).filter(|&t| t < len)]
                    .into_iter()
                    .flatten()
                {
                    let mut p = cands[best].point.clone();
                    p[j] = to;
                    if known.insert(p.clone()) {
                        neighbours.push(p);
                    }
                }
            }
        }
        if neighbours.is_empty() {
            break;
        }
        let mut challenger: Option<usize> = None;
        for p in neighbours {
            let mut c = r.candidate(p);
            r.extend(&mut c, top)?;
            cands.push(c);
            let i = cands.len() - 1;
            r.log(i, &cands[i], &format!("refine {pass}"));
            if cands[i].error.is_none()
                && cands[i].score() > cands[challenger.unwrap_or(best)].score()
            {
                challenger = Some(i);
            }
        }
        let Some(ch) = challenger else { break };
        // The race: both on three times the games.
        for i in [ch, best] {
            let mut c = cands[i].clone();
            r.extend(&mut c, top * 3)?;
            r.log(i, &c, &format!("race {pass}"));
            cands[i] = c;
        }
        if cands[ch].score() > cands[best].score() {
            best = ch;
        } else {
            break;
        }
    }

    // Confirmation on fresh seeds.
    if stop.load(Ordering::Relaxed) {
        return Err(anyhow!("interrupted"));
    }
    let confirm_seed = seed ^ CONFIRM_SALT;
    let confirm = o.play(&cands[best].point, confirm_seed, 0, b.confirm)?;
    r.played += b.confirm * f;
    progress.finish_and_clear();
    if stop.load(Ordering::Relaxed) {
        return Err(anyhow!("interrupted"));
    }
    Ok(Found {
        best,
        candidates: cands,
        log: r.log,
        confirm,
        confirm_seed,
        games_played: r.played,
    })
}

/// A strategy template against a field of opponents in one kingdom.
pub struct TemplateObjective<'a> {
    pub template: &'a Template,
    pub kingdom: &'a Kingdom,
    pub opponents: &'a [(EntrantInfo, Loaded)],
    pub domains: Vec<Vec<Value>>,
    pub stop: &'a AtomicBool,
    /// Each opponent's weight (empty: equal; see [`Objective::weights`]).
    pub weights: Vec<f64>,
}

impl<'a> TemplateObjective<'a> {
    pub fn new(
        template: &'a Template,
        kingdom: &'a Kingdom,
        opponents: &'a [(EntrantInfo, Loaded)],
        stop: &'a AtomicBool,
    ) -> Result<TemplateObjective<'a>, TemplateError> {
        Ok(TemplateObjective {
            domains: template.domains(kingdom)?,
            template,
            kingdom,
            opponents,
            stop,
            weights: Vec::new(),
        })
    }

    /// The same objective scored against a mixture of the opponents (one
    /// non-negative weight each, not all zero): a best response to a Nash
    /// mixture, for PSRO.
    pub fn with_weights(mut self, weights: Vec<f64>) -> Result<Self> {
        if weights.len() != self.opponents.len()
            || weights.iter().any(|w| !(w.is_finite() && *w >= 0.0))
            || weights.iter().sum::<f64>() <= 0.0
        {
            return Err(anyhow!(
                "a mixture needs one non-negative weight per opponent ({} opponents, {} weights), not all zero",
                self.opponents.len(),
                weights.len()
            ));
        }
        self.weights = weights;
        Ok(self)
    }

    pub fn values(&self, point: &[usize]) -> Vec<Value> {
        point
            .iter()
            .zip(&self.domains)
            .map(|(&i, d)| d[i])
            .collect()
    }

    fn strategy(&self, point: &[usize]) -> Result<strategy::Strategy, String> {
        let values = self.values(point);
        let text = self.template.render(&values);
        let st = strategy::parse(&text, &self.template.file)
            .map_err(|e| format!("with {}: {e}", self.template.describe(&values)))?;
        let mut k = *self.kingdom;
        k.track_turn |= st.uses_turn_counters();
        st.compile(&k)
            .map_err(|e| format!("with {}: {e}", self.template.describe(&values)))?;
        Ok(st)
    }

    /// The bot at `point` against the field on games `from..to` of `seed`.
    pub fn play_strategy(
        &self,
        st: &strategy::Strategy,
        seed: u64,
        from: u64,
        to: u64,
    ) -> Result<Vec<EntrantStats>> {
        let me = (
            EntrantInfo {
                name: st.name.clone(),
                source: self.template.file.clone(),
                hash: String::new(),
            },
            Loaded::File(Box::new(st.clone())),
        );
        self.opponents
            .iter()
            .map(|opp| Ok(play_pair(&me, opp, self.kingdom, seed, (from, to), self.stop)?.0))
            .collect()
    }
}

/// `a` against `b` in `kingdom` (2 players, the runner's seat rotation) on
/// games `from..to` of `seed`, on the current thread pool: `a`'s results
/// and the games completed. Fails when interrupted.
pub fn play_pair(
    a: &(EntrantInfo, Loaded),
    b: &(EntrantInfo, Loaded),
    kingdom: &Kingdom,
    seed: u64,
    (from, to): (u64, u64),
    stop: &AtomicBool,
) -> Result<(EntrantStats, u64)> {
    let lineup = Lineup {
        entrants: vec![a.clone(), b.clone()],
    };
    let k = lineup.kingdom_for(kingdom);
    let compiled = lineup.compile(&k)?;
    let cfg = RunConfig {
        games: to - from,
        first: from,
        seed,
        threads: 0,
        progress: false,
        precision: None,
    };
    let r = matches::run(&k, &cfg, |o: &[u8]| compiled.bots(o), stop);
    if r.interrupted {
        return Err(anyhow!("interrupted"));
    }
    Ok((r.stats.entrants[0], r.completed))
}

impl Objective for TemplateObjective<'_> {
    fn dims(&self) -> Vec<usize> {
        self.domains.iter().map(Vec::len).collect()
    }
    fn check(&self, point: &[usize]) -> Option<String> {
        self.strategy(point).err()
    }
    fn play(&self, point: &[usize], seed: u64, from: u64, to: u64) -> Result<Vec<EntrantStats>> {
        let st = self.strategy(point).map_err(|e| anyhow!(e))?;
        self.play_strategy(&st, seed, from, to)
    }
    fn opponents(&self) -> usize {
        self.opponents.len()
    }
    fn weights(&self) -> Vec<f64> {
        self.weights.clone()
    }
}

/// The winner as a plain, commented strategy file: a header saying where it
/// comes from and how it scored, then the template with its values.
/// `extends:` paths are rewritten to stay valid from every folder of
/// `out_dirs` (see [`rebase_extends`]: by search-path name when it can).
pub fn best_bot_text(
    t: &Template,
    values: &[Value],
    header: &[String],
    out_dirs: &[&std::path::Path],
) -> String {
    let mut s = String::new();
    for h in header {
        s.push_str(&format!("# {h}\n"));
    }
    s.push('\n');
    let tdir = std::path::Path::new(&t.file)
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_default();
    s.push_str(&rebase_extends(&t.render(values), &tdir, out_dirs));
    s
}

/// A strategy file's text read from the folder `dir`, with its
/// `extends:` names rewritten to stay valid from every folder of
/// `out_dirs`: by its name on the strategy search path
/// ([`crate::strategy::search_path`]: `extends: big_money_ultimate.dom`
/// wherever the bot is kept) when that name finds the same file from each
/// of them, else relative when one relative path serves them all, else
/// absolute (none given: the search-path name, else absolute).
pub fn rebase_extends(body: &str, dir: &std::path::Path, out_dirs: &[&std::path::Path]) -> String {
    use crate::strategy::search_path;
    let mut s = String::new();
    for line in body.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("extends:") {
            let target = rest.split('#').next().unwrap_or("").trim();
            if !target.is_empty() {
                let full =
                    search_path::find(target, Some(dir)).unwrap_or_else(|_| dir.join(target));
                if let Some(name) = search_path::name_for(&full, out_dirs) {
                    s.push_str(&format!("extends: {name}\n"));
                    continue;
                }
                let rel: Option<Vec<_>> = out_dirs.iter().map(|o| relative_to(&full, o)).collect();
                let path = match rel {
                    Some(r) if !r.is_empty() && r.iter().all(|p| *p == r[0]) => r[0].clone(),
                    _ => std::fs::canonicalize(&full).unwrap_or(full),
                };
                s.push_str(&format!("extends: {}\n", path.display()));
                continue;
            }
        }
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// `target` as a path relative to the folder `from` (both must exist).
fn relative_to(target: &std::path::Path, from: &std::path::Path) -> Option<std::path::PathBuf> {
    let t = std::fs::canonicalize(target).ok()?;
    let f = std::fs::canonicalize(from).ok()?;
    let common = t
        .components()
        .zip(f.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = std::path::PathBuf::new();
    for _ in f.components().skip(common) {
        out.push("..");
    }
    for c in t.components().skip(common) {
        out.push(c);
    }
    Some(out)
}

/// The search log as CSV rows (after `meta`): one row per evaluation.
pub fn search_csv(
    meta: &crate::report::Meta,
    t: &Template,
    o: &TemplateObjective,
    found: &Found,
) -> Result<Vec<u8>> {
    let mut bytes = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<String> = vec!["candidate".into(), "stage".into()];
    head.extend(t.params.iter().map(|p| p.name.clone()));
    head.extend(
        [
            "games_per_opponent",
            "score",
            "score_lo",
            "score_hi",
            "error",
        ]
        .map(String::from),
    );
    w.write_record(&head)?;
    for s in &found.log {
        let c = &found.candidates[s.candidate];
        let mut row = vec![s.candidate.to_string(), s.stage.clone()];
        row.extend(o.values(&c.point).iter().map(|v| v.to_string()));
        row.extend([
            s.games.to_string(),
            format!("{:.6}", s.score),
            format!("{:.6}", s.lo),
            format!("{:.6}", s.hi),
            c.error.clone().unwrap_or_default(),
        ]);
        w.write_record(&row)?;
    }
    let conf = found.confirm_total();
    let (lo, hi) = wilson(conf.score_wins(), conf.games);
    let c = &found.candidates[found.best];
    let mut row = vec![found.best.to_string(), "confirm".into()];
    row.extend(o.values(&c.point).iter().map(|v| v.to_string()));
    row.extend([
        found.confirm.first().map_or(0, |e| e.games).to_string(),
        format!("{:.6}", conf.score_wins() / conf.games.max(1) as f64),
        format!("{lo:.6}"),
        format!("{hi:.6}"),
        String::new(),
    ]);
    w.write_record(&row)?;
    bytes.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(bytes)
}

const _: () = assert!(MAX_PLAYERS >= 2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_spaces_are_searched_whole_and_large_ones_sampled_distinct() {
        let pts = initial_points(&[3, 2], 64, 1);
        assert_eq!(pts.len(), 6);
        assert_eq!(pts.iter().collect::<HashSet<_>>().len(), 6);
        let pts = initial_points(&[40, 40], 64, 1);
        assert_eq!(pts.len(), 64);
        assert_eq!(pts[0], vec![20, 20], "the centre comes first");
        assert_eq!(pts.iter().collect::<HashSet<_>>().len(), 64);
        assert_eq!(pts, initial_points(&[40, 40], 64, 1), "drawn from the seed");
        assert_ne!(pts, initial_points(&[40, 40], 64, 2));
    }

    /// A synthetic objective with a planted optimum: point `p` wins game
    /// `i` with probability `0.7 - 0.02 * distance(p, PLANTED)`, decided by
    /// a hash of `(seed, i)` alone (common random numbers, as in real
    /// games). Points with a 7 anywhere are invalid.
    struct Planted;
    const PLANTED: [usize; 3] = [13, 4, 1];

    impl Objective for Planted {
        fn dims(&self) -> Vec<usize> {
            vec![30, 20, 2]
        }
        fn check(&self, p: &[usize]) -> Option<String> {
            p.contains(&7).then(|| "seven".to_string())
        }
        fn opponents(&self) -> usize {
            2
        }
        fn play(&self, p: &[usize], seed: u64, from: u64, to: u64) -> Result<Vec<EntrantStats>> {
            let d: usize = p.iter().zip(PLANTED).map(|(&a, b)| a.abs_diff(b)).sum();
            let prob = (0.7 - 0.02 * d as f64).max(0.05);
            let mut out = vec![EntrantStats::default(); 2];
            for (j, e) in out.iter_mut().enumerate() {
                for i in from..to {
                    let mut h = seed ^ (i << 1) ^ j as u64;
                    let u = (splitmix(&mut h) >> 11) as f64 / (1u64 << 53) as f64;
                    e.games += 1;
                    if u < prob {
                        e.wins += 1;
                    } else {
                        e.losses += 1;
                    }
                }
            }
            Ok(out)
        }
    }

    /// With weights, a candidate's score is the weighted mean of its
    /// per-opponent scores: an opponent of weight 0 does not count.
    #[test]
    fn weighted_scores_follow_the_mixture() {
        let e = |w: u64, l: u64| EntrantStats {
            games: w + l,
            wins: w,
            losses: l,
            ..Default::default()
        };
        let mut c = Candidate {
            point: vec![0],
            vs: vec![e(90, 10), e(20, 80)],
            error: None,
            weights: Vec::new(),
        };
        assert!((c.score() - 0.55).abs() < 1e-12);
        c.weights = vec![0.0, 2.0];
        assert!((c.score() - 0.2).abs() < 1e-12);
        c.weights = vec![3.0, 1.0];
        assert!((c.score() - (0.75 * 0.9 + 0.25 * 0.2)).abs() < 1e-12);
        assert_eq!(versus_pairs(&c.vs), vec![(100.0, 90.0), (100.0, 20.0)]);
    }

    #[test]
    fn finds_a_planted_optimum_deterministically() {
        let stop = AtomicBool::new(false);
        let bar = indicatif::ProgressBar::hidden();
        let b = Budget {
            candidates: 48,
            games: 200,
            max_games: 5400,
            refine: 12,
            confirm: 4000,
        };
        let f = search(&Planted, 5, b, &stop, &bar).unwrap();
        assert_eq!(f.candidates[f.best].point, PLANTED.to_vec());
        let again = search(&Planted, 5, b, &stop, &bar).unwrap();
        assert_eq!(again.candidates[again.best].point, PLANTED.to_vec());
        assert_eq!(again.games_played, f.games_played);
        // The confirmation is on other games: close to 0.7, not the same
        // numbers as the search.
        let c = f.confirm_total();
        let score = c.score_wins() / c.games as f64;
        assert!((0.67..0.73).contains(&score), "{score}");
        // Invalid candidates are logged, never chosen.
        assert!(f
            .candidates
            .iter()
            .filter(|c| c.error.is_some())
            .all(|c| c.point.contains(&7)));
        assert!(f.log.iter().any(|s| s.stage == "invalid"));
    }
}
