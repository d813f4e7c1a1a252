//! Field diagnostics: where a one-number rating is wrong about a field.
//!
//! Game-independent: everything here takes the head-to-head [`Results`]
//! (each pair's games and score, ties counted half) and, for the residuals,
//! the Bradley–Terry [`Rating`]s fitted to them by [`super::fit`].
//!
//! * [`residuals`] — each pair's direct score against the model's
//!   prediction `π_ij = 1 / (1 + 10^((R_j − R_i)/400))`: the residual
//!   `s_ij − π_ij`, its interval (the 95% Wilson interval of the direct
//!   score, shifted by the prediction: the prediction rests on every game of
//!   the field and its own error is small beside one pair's), the Pearson
//!   residual `z = (s − π) / √(π(1 − π)/n)` and its two-sided p-value. A
//!   pair is a **misfit** (the model is wrong beyond error) when Holm's
//!   step-down test rejects it at a 5% family-wise level over all pairs: a
//!   field of 49 bots has 1,176 pairs, and a per-pair 5% test would flag
//!   about 59 of them by chance alone.
//! * [`goodness_of_fit`] — Pearson's χ² (the sum of `z²`) and the deviance
//!   `G² = 2 Σ [w ln(w / nπ) + (n − w) ln((n − w) / n(1 − π))]`, each with
//!   `pairs − (bots − 1)` degrees of freedom and its upper-tail p-value, and
//!   the RMS residual (unweighted and game-weighted) in score points.
//!   Both statistics treat a game's score as a binomial trial; a tie
//!   (half a point) has less variance than that, so with ties they are
//!   conservative (a field with many ties fits at least as badly as they say).
//! * [`cycles`] — every triple `A > B > C > A` in which each of the three
//!   results is significant on its own (its 95% Wilson interval excludes
//!   50%), with the three rates, strongest weakest-link first.
//! * [`components`] — the strongly connected components of the
//!   "significantly beats" graph, best tier first: a component of more than
//!   one bot is a set no order can rank without contradicting a direct
//!   result; between components every significant result points down.

// Matrix code: indices name rows and columns, as in the formulas.
#![allow(clippy::needless_range_loop)]

use super::{Rating, Results};
use crate::sim::wilson;

/// One pair's direct result against the model's prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct PairFit {
    /// The pair, `a < b`; every rate is `a`'s.
    pub a: usize,
    pub b: usize,
    pub games: f64,
    /// `a`'s score against `b` (ties half), as a rate.
    pub direct: f64,
    /// 95% Wilson interval of `direct`.
    pub lo: f64,
    pub hi: f64,
    /// The Bradley–Terry prediction of `direct`.
    pub predicted: f64,
    /// `direct − predicted`, with its interval `lo − predicted ..= hi − predicted`.
    pub residual: f64,
    /// Pearson residual `(direct − predicted) / √(predicted (1 − predicted) / games)`.
    pub z: f64,
    /// Two-sided p-value of `z`.
    pub p_value: f64,
    /// Holm's test rejects the model for this pair at a 5% family-wise level.
    pub misfit: bool,
}

impl PairFit {
    /// The residual's 95% interval.
    pub fn residual_interval(&self) -> (f64, f64) {
        (self.lo - self.predicted, self.hi - self.predicted)
    }
}

/// The model's fit to the whole field.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Pairs that played at least one game.
    pub pairs: usize,
    /// Pairs flagged as misfits (see [`PairFit::misfit`]).
    pub misfits: usize,
    /// Degrees of freedom: `pairs − (bots − 1)` (0 when not positive).
    pub df: usize,
    /// Pearson's χ² and its upper-tail p-value (None without degrees of freedom).
    pub chi2: f64,
    pub chi2_p: Option<f64>,
    /// The deviance `G²` and its p-value.
    pub deviance: f64,
    pub deviance_p: Option<f64>,
    /// Root mean square residual over pairs, in score rate (0.032 = 3.2 points).
    pub rms: f64,
    /// The same, each pair weighted by its games.
    pub rms_weighted: f64,
    /// The largest absolute residual.
    pub max_abs: f64,
}

/// The model's prediction of `i`'s score against `j` from fitted ratings.
pub fn predicted(ratings: &[Rating], i: usize, j: usize) -> f64 {
    1.0 / (1.0 + 10f64.powf((ratings[j].rating - ratings[i].rating) / 400.0))
}

/// `a`'s score rate against `b`, pooling both directions of the stored
/// sums (`score[a][b]` and `games[b][a] − score[b][a]` describe the same
/// games from both sides; domsim tables store both equal).
fn direct(r: &Results, a: usize, b: usize) -> (f64, f64) {
    let n = r.games[a][b];
    (n, if n > 0.0 { r.score[a][b] / n } else { 0.5 })
}

/// Every pair that played (in order `a < b`) against the model.
pub fn residuals(r: &Results, ratings: &[Rating]) -> Vec<PairFit> {
    let n = r.games.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (games, s) = direct(r, a, b);
            if games <= 0.0 {
                continue;
            }
            let pi = predicted(ratings, a, b).clamp(1e-12, 1.0 - 1e-12);
            let (lo, hi) = wilson(s * games, games.round().max(1.0) as u64);
            let z = (s - pi) / (pi * (1.0 - pi) / games).sqrt();
            out.push(PairFit {
                a,
                b,
                games,
                direct: s,
                lo,
                hi,
                predicted: pi,
                residual: s - pi,
                z,
                p_value: gamma_q(0.5, z * z / 2.0),
                misfit: false,
            });
        }
    }
    holm(&mut out, 0.05);
    out
}

/// Holm's step-down procedure: flag pairs in increasing p-value order
/// while `p ≤ alpha / (remaining)`.
fn holm(pairs: &mut [PairFit], alpha: f64) {
    let k = pairs.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&x, &y| pairs[x].p_value.total_cmp(&pairs[y].p_value));
    for (rank, &i) in order.iter().enumerate() {
        if pairs[i].p_value <= alpha / (k - rank) as f64 {
            pairs[i].misfit = true;
        } else {
            break;
        }
    }
}

/// Goodness of fit of the ratings over the pairs of [`residuals`].
pub fn goodness_of_fit(pairs: &[PairFit], bots: usize) -> Fit {
    let mut chi2 = 0.0;
    let mut dev = 0.0;
    let (mut ss, mut ssw, mut w, mut max_abs) = (0.0, 0.0, 0.0, 0.0f64);
    for p in pairs {
        chi2 += p.z * p.z;
        let (n, won) = (p.games, p.direct * p.games);
        let term = |obs: f64, exp: f64| {
            if obs > 0.0 {
                obs * (obs / exp).ln()
            } else {
                0.0
            }
        };
        dev += 2.0 * (term(won, n * p.predicted) + term(n - won, n * (1.0 - p.predicted)));
        ss += p.residual * p.residual;
        ssw += n * p.residual * p.residual;
        w += n;
        max_abs = max_abs.max(p.residual.abs());
    }
    let df = pairs.len().saturating_sub(bots.saturating_sub(1));
    let tail = |x: f64| (df > 0).then(|| gamma_q(df as f64 / 2.0, x.max(0.0) / 2.0));
    let k = pairs.len().max(1) as f64;
    Fit {
        pairs: pairs.len(),
        misfits: pairs.iter().filter(|p| p.misfit).count(),
        df,
        chi2,
        chi2_p: tail(chi2),
        deviance: dev.max(0.0),
        deviance_p: tail(dev),
        rms: (ss / k).sqrt(),
        rms_weighted: if w > 0.0 { (ssw / w).sqrt() } else { 0.0 },
        max_abs,
    }
}

/// `a` significantly beats `b`: the 95% Wilson interval of its score is
/// above 50%.
pub fn beats(r: &Results, a: usize, b: usize) -> bool {
    let (n, s) = direct(r, a, b);
    n > 0.0 && wilson(s * n, n.round().max(1.0) as u64).0 > 0.5
}

/// A 3-cycle `bots[0] > bots[1] > bots[2] > bots[0]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cycle {
    pub bots: [usize; 3],
    /// `rates[k]`: `bots[k]`'s score against `bots[(k + 1) % 3]`.
    pub rates: [f64; 3],
}

impl Cycle {
    /// The weakest of the three results.
    pub fn weakest(&self) -> f64 {
        self.rates.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// Every significant 3-cycle (each of its results significant alone; see
/// [`beats`]), strongest weakest link first, each listed once starting at
/// its lowest index. The count is cubic in the field (18,424 triples for
/// 49 bots): cheap.
pub fn cycles(r: &Results) -> Vec<Cycle> {
    let n = r.games.len();
    let g: Vec<Vec<bool>> = (0..n)
        .map(|a| (0..n).map(|b| a != b && beats(r, a, b)).collect())
        .collect();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in a + 1..n {
                if b != c && g[a][b] && g[b][c] && g[c][a] {
                    out.push(Cycle {
                        bots: [a, b, c],
                        rates: [direct(r, a, b).1, direct(r, b, c).1, direct(r, c, a).1],
                    });
                }
            }
        }
    }
    out.sort_by(|x, y| {
        y.weakest()
            .total_cmp(&x.weakest())
            .then(x.bots.cmp(&y.bots))
    });
    out
}

/// The strongly connected components of the "significantly beats" graph
/// (Tarjan's algorithm), best tier first: for two components, no bot of
/// the later one significantly beats a bot of the earlier. Members are
/// sorted; a component of one bot is an ordinary place in the order.
pub fn components(r: &Results) -> Vec<Vec<usize>> {
    let n = r.games.len();
    let adj: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| a != b && beats(r, a, b)).collect())
        .collect();
    // Iterative Tarjan: components come out sinks first (the bots that beat
    // nobody above them), so the reverse is best first.
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut comps: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut e)) = call.last_mut() {
            if *e < adj[v].len() {
                let w = adj[v][*e];
                *e += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    comps.push(comp);
                }
            }
        }
    }
    comps.reverse();
    comps
}

/// The regularized upper incomplete gamma function `Q(a, x)` (`a > 0`,
/// `x ≥ 0`): the upper tail of χ² with `2a` degrees of freedom at `2x`, and
/// `erfc(√x)` for `a = 1/2`. Series below `a + 1`, Lentz's continued
/// fraction above (the textbook split); relative accuracy ~1e-12.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let lg = ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        (1.0 - sum * (-x + a * x.ln() - lg).exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        ((-x + a * x.ln() - lg).exp() * h).clamp(0.0, 1.0)
    }
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; ~1e-15 relative).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::fit;

    /// A field from score rates `rate[i][j]` (i's score against j, i < j
    /// given) with `n` games per pair.
    pub(crate) fn field(rates: &[&[f64]], n: f64) -> Results {
        let k = rates.len();
        let mut r = Results {
            games: vec![vec![0.0; k]; k],
            score: vec![vec![0.0; k]; k],
        };
        for i in 0..k {
            for j in i + 1..k {
                let s = rates[i][j];
                r.games[i][j] = n;
                r.games[j][i] = n;
                r.score[i][j] = s * n;
                r.score[j][i] = (1.0 - s) * n;
            }
        }
        r
    }

    #[test]
    fn gamma_q_matches_known_values() {
        // χ² upper tails: df 1 at 3.841459 is 5%; df 10 at 18.307038 is 5%;
        // df 2 at x is exp(−x/2).
        assert!((gamma_q(0.5, 3.841_459 / 2.0) - 0.05).abs() < 1e-6);
        assert!((gamma_q(5.0, 18.307_038 / 2.0) - 0.05).abs() < 1e-6);
        assert!((gamma_q(1.0, 3.0) - (-3.0f64).exp()).abs() < 1e-12);
        // erfc(1) = 0.157299207050285.
        assert!((gamma_q(0.5, 1.0) - 0.157_299_207_050_285).abs() < 1e-12);
        assert_eq!(gamma_q(3.0, 0.0), 1.0);
        assert!(gamma_q(0.5, 800.0) < 1e-300);
    }

    /// A field that follows the model exactly fits: no misfit, residuals
    /// zero, a χ² of zero with p-value 1.
    #[test]
    fn a_transitive_field_fits() {
        let elo = [0.0, 100.0, 250.0, 400.0];
        let p = |i: usize, j: usize| 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
        let rows: Vec<Vec<f64>> = (0..4).map(|i| (0..4).map(|j| p(i, j)).collect()).collect();
        let rr: Vec<&[f64]> = rows.iter().map(|v| v.as_slice()).collect();
        let r = field(&rr, 20_000.0);
        let ratings = fit(&r);
        let pairs = residuals(&r, &ratings);
        assert_eq!(pairs.len(), 6);
        assert!(
            pairs.iter().all(|p| !p.misfit && p.residual.abs() < 1e-3),
            "{pairs:?}"
        );
        let g = goodness_of_fit(&pairs, 4);
        assert_eq!((g.df, g.misfits), (3, 0));
        assert!(g.chi2 < 0.5 && g.chi2_p.unwrap() > 0.9, "{g:?}");
        assert!(g.rms < 1e-3);
        assert!(cycles(&r).is_empty());
        assert_eq!(components(&r), vec![vec![3], vec![2], vec![1], vec![0]]);
    }

    /// Rock, paper, scissors (+ a weak fourth bot): the model rates the
    /// three equal and predicts 50% where each direct result is 80%; every
    /// pair of the cycle is a misfit, the cycle is found with its rates,
    /// the three form one component above the fourth, and the fit is
    /// rejected.
    #[test]
    fn a_cyclic_field_is_flagged() {
        let r = field(
            &[
                &[0.0, 0.8, 0.2, 0.9],
                &[0.0, 0.0, 0.8, 0.9],
                &[0.0, 0.0, 0.0, 0.9],
                &[0.0; 4],
            ],
            2000.0,
        );
        let ratings = fit(&r);
        let pairs = residuals(&r, &ratings);
        let cyc: Vec<&PairFit> = pairs.iter().filter(|p| p.b < 3).collect();
        assert_eq!(cyc.len(), 3);
        for p in &cyc {
            assert!(p.misfit, "{p:?}");
            assert!((p.predicted - 0.5).abs() < 0.01, "{p:?}");
            assert!((p.residual.abs() - 0.3).abs() < 0.01, "{p:?}");
            let (lo, hi) = p.residual_interval();
            assert!(lo <= p.residual && p.residual <= hi && (hi - lo) < 0.05);
        }
        let g = goodness_of_fit(&pairs, 4);
        assert_eq!(g.misfits, 3);
        assert!(
            g.chi2_p.unwrap() < 1e-10 && g.deviance_p.unwrap() < 1e-10,
            "{g:?}"
        );
        assert!((g.max_abs - 0.3).abs() < 0.01);
        let c = cycles(&r);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].bots, [0, 1, 2]);
        assert!(c[0].rates.iter().all(|&x| (x - 0.8).abs() < 1e-9));
        assert_eq!(components(&r), vec![vec![0, 1, 2], vec![3]]);
    }

    /// Noise alone: 1,000 games per pair around the model's predictions,
    /// with some deviation within error. Holm flags nothing, where a
    /// per-pair 5% test would.
    #[test]
    fn noise_is_not_a_misfit() {
        let n = 12;
        let mut rng = crate::sim::rng::GameRng::for_game(3, 0);
        let mut r = Results {
            games: vec![vec![0.0; n]; n],
            score: vec![vec![0.0; n]; n],
        };
        for i in 0..n {
            for j in i + 1..n {
                let p = 1.0 / (1.0 + 10f64.powf((j as f64 - i as f64) * 20.0 / 400.0));
                let mut w = 0.0;
                for _ in 0..1000 {
                    if (rng.below(1_000_000) as f64) < p * 1e6 {
                        w += 1.0;
                    }
                }
                r.games[i][j] = 1000.0;
                r.games[j][i] = 1000.0;
                r.score[i][j] = w;
                r.score[j][i] = 1000.0 - w;
            }
        }
        let pairs = residuals(&r, &fit(&r));
        assert_eq!(pairs.len(), 66);
        assert!(pairs.iter().all(|p| !p.misfit), "{pairs:?}");
        let g = goodness_of_fit(&pairs, n);
        assert!(g.chi2_p.unwrap() > 0.001, "{g:?}");
        assert!(g.rms < 0.04, "{g:?}");
    }
}
