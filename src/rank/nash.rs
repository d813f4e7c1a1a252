//! Nash averaging (Balduzzi, Tuyls, Pérolat, Graepel, "Re-evaluating
//! Evaluation", NeurIPS 2018): the field seen as a symmetric zero-sum game.
//!
//! The **meta-game**: both players pick a bot of the field; the row player
//! scores `A_ij = s_ij − ½` (its score rate against the column's bot, ties
//! half, centred), an antisymmetric matrix ([`payoff_matrix`]). Its value is
//! 0, and a **Nash mixture** `p` is a distribution over the bots that no bot
//! beats: `Σ_i p_i A_ij ≥ 0` for every `j`. Those mixtures form a polytope;
//! Balduzzi et al. take the one of **maximum entropy**, which is unique and
//! gives equal weight to copies of one bot (adding a clone to a field moves
//! nothing). A bot's **Nash-averaged payoff** is its score against that
//! mixture: ½ for the bots that carry weight, at most ½ for the others,
//! which is the order to rank by.
//!
//! How [`maxent_nash`] finds it (exact up to the LP tolerances, ~1e-9):
//!
//! 1. **The game value** by the LP `max v` subject to `Σ_i p_i A_ij ≥ v`,
//!    `p` in the simplex (0 for an antisymmetric matrix; the LP checks it).
//! 2. **The support and the tight constraints.** By the Goldman–Tucker
//!    theorem some equilibrium is strictly complementary: every bot `k` is
//!    either played by some equilibrium or strictly beaten by some
//!    equilibrium (`Σ_i p_i A_ik > v`). LPs `max Σ_{k∈U} min(p_k, ε) +
//!    min(slack_k, ε)` over the Nash polytope, for the indices `U` not yet
//!    seen positive, find at least one new index each until none is left;
//!    the average of their solutions is a Nash mixture of full support `S`
//!    whose slack is positive off the set `T` of constraints tight at every
//!    equilibrium. (`S ⊆ T`: a bot played by an equilibrium scores exactly
//!    the value against every equilibrium.)
//! 3. **Maximum entropy over the polytope**, now with a strictly feasible
//!    start: minimise `Σ_{i∈S} p_i ln p_i − μ Σ_{j∉T} ln(slack_j)` on the
//!    affine set `Σ p = 1`, `slack_j = 0` for `j ∈ T`, by Newton's method in
//!    an orthonormal basis of its directions (Gram–Schmidt), with a
//!    backtracking line search that keeps every `p_i` and slack positive,
//!    for `μ = 10⁻², 10⁻³, …, 10⁻¹²` (a log-barrier path, each stage warm
//!    started). The entropy's own gradient keeps `p_i > 0`. When the
//!    polytope is a point (the usual case for a measured field, whose noise
//!    leaves one equilibrium) step 3 has no direction and returns it.
//!
//! The LPs are solved by `microlp` (see Cargo.toml). A field of a few
//! hundred bots takes a few LPs of that size.

// Matrix code: indices name rows and columns, as in the formulas.
#![allow(clippy::needless_range_loop)]

use super::Results;
use anyhow::{anyhow, bail, Result};
use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// The maximum-entropy Nash mixture of a field and what it implies.
#[derive(Clone, Debug, PartialEq)]
pub struct Nash {
    /// Each bot's weight in the mixture (sums to 1).
    pub weights: Vec<f64>,
    /// Each bot's Nash-averaged payoff: its score rate against the mixture
    /// (`½ + Σ_j A_ij p_j`).
    pub payoff: Vec<f64>,
    /// The game's value as a score rate (½ for a symmetric field).
    pub value: f64,
    /// The bots with weight (above 1e-9), in index order.
    pub support: Vec<usize>,
}

impl Nash {
    /// Bots best first by Nash-averaged payoff, then weight, then index.
    pub fn order(&self) -> Vec<usize> {
        let mut o: Vec<usize> = (0..self.weights.len()).collect();
        o.sort_by(|&a, &b| {
            self.payoff[b]
                .total_cmp(&self.payoff[a])
                .then(self.weights[b].total_cmp(&self.weights[a]))
                .then(a.cmp(&b))
        });
        o
    }
}

/// The meta-game's payoff matrix: `A_ij = s_ij − ½` with `s_ij` the score
/// rate of `i` against `j`, made exactly antisymmetric
/// (`(s_ij − s_ji)/2`, equal to it when both sides of a pair are stored);
/// a pair that played no game counts as even.
pub fn payoff_matrix(r: &Results) -> Vec<Vec<f64>> {
    let n = r.games.len();
    let rate = |i: usize, j: usize| {
        let g = r.games[i][j];
        if g > 0.0 {
            r.score[i][j] / g
        } else {
            0.5
        }
    };
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        0.0
                    } else {
                        (rate(i, j) - rate(j, i)) / 2.0
                    }
                })
                .collect()
        })
        .collect()
}

/// Below this, a weight is zero in the result.
const ZERO: f64 = 1e-9;
/// Below this, an LP's weight or slack is zero (the LP's own tolerances
/// are ~1e-9; a real positive found by the support LPs is of order 1/n).
const DETECT: f64 = 1e-7;

fn check_square(a: &[Vec<f64>]) -> Result<usize> {
    let n = a.len();
    if n == 0 {
        bail!("the field is empty: a payoff matrix needs at least one bot");
    }
    for (i, row) in a.iter().enumerate() {
        if row.len() != n {
            bail!(
                "payoff matrix row {i} has {} entries; the matrix is {n}×{n}",
                row.len()
            );
        }
        if let Some(j) = row.iter().position(|x| !x.is_finite()) {
            bail!("payoff matrix entry ({i}, {j}) is not a finite number");
        }
    }
    Ok(n)
}

fn lp_err(e: microlp::Error) -> anyhow::Error {
    anyhow!("the Nash LP failed: {e:?}")
}

/// The LP over the Nash polytope `{p ∈ simplex : Σ_i p_i A_ij ≥ v − tol}`
/// maximising `Σ_{k∈want} min(p_k, ε) + min(slack_k, ε)`; returns `p`.
fn support_lp(a: &[Vec<f64>], v: f64, want: &[usize], eps: f64) -> Result<(f64, Vec<f64>)> {
    let n = a.len();
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let p: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    lp.add_constraint(
        p.iter().map(|&x| (x, 1.0)).collect::<Vec<_>>().as_slice(),
        ComparisonOp::Eq,
        1.0,
    );
    let mut is_want = vec![false; n];
    for &k in want {
        is_want[k] = true;
    }
    for j in 0..n {
        let mut row: Vec<_> = (0..n).map(|i| (p[i], a[i][j])).collect();
        if is_want[j] {
            let s = lp.add_var(1.0, (0.0, eps));
            row.push((s, -1.0));
            let t = lp.add_var(1.0, (0.0, eps));
            lp.add_constraint([(p[j], 1.0), (t, -1.0)].as_slice(), ComparisonOp::Ge, 0.0);
        }
        lp.add_constraint(row.as_slice(), ComparisonOp::Ge, v);
    }
    let sol = lp
        .solve()
        .map_err(lp_err)?
        .into_solution()
        .map_err(|_| anyhow!("the Nash LP was interrupted"))?;
    Ok((
        sol.objective(),
        p.iter().map(|&x| sol.var_value(x).max(0.0)).collect(),
    ))
}

/// The game's value: `max v` over the simplex with `Σ_i p_i A_ij ≥ v`.
fn game_value(a: &[Vec<f64>]) -> Result<f64> {
    let n = a.len();
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let p: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    lp.add_constraint(
        p.iter().map(|&x| (x, 1.0)).collect::<Vec<_>>().as_slice(),
        ComparisonOp::Eq,
        1.0,
    );
    for j in 0..n {
        let mut row: Vec<_> = (0..n).map(|i| (p[i], a[i][j])).collect();
        row.push((v, -1.0));
        lp.add_constraint(row.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let sol = lp
        .solve()
        .map_err(lp_err)?
        .into_solution()
        .map_err(|_| anyhow!("the Nash LP was interrupted"))?;
    Ok(sol.var_value(v))
}

/// The maximum-entropy Nash mixture of the symmetric zero-sum game `a`
/// (see the module documentation). `a` must be square and finite; it
/// should be antisymmetric ([`payoff_matrix`]), else the row player's
/// equilibrium of the zero-sum game `a` is returned.
pub fn maxent_nash(a: &[Vec<f64>]) -> Result<Nash> {
    let n = check_square(a)?;
    let v = game_value(a)?;
    // An antisymmetric game's value is 0; keep the LP's round-off out.
    let v = if v.abs() < DETECT { 0.0 } else { v };
    // Step 2: support S and the constraints slack somewhere.
    let mut pos = vec![false; n];
    let mut slack = vec![false; n];
    let mut points: Vec<Vec<f64>> = Vec::new();
    let eps = 1.0 / n as f64;
    loop {
        let want: Vec<usize> = (0..n).filter(|&k| !pos[k] && !slack[k]).collect();
        if want.is_empty() {
            break;
        }
        let (obj, p) = support_lp(a, v, &want, eps)?;
        let mut found = false;
        for k in 0..n {
            let s: f64 = (0..n).map(|i| p[i] * a[i][k]).sum::<f64>() - v;
            if p[k] > DETECT && !pos[k] {
                pos[k] = true;
                found = true;
            }
            if s > DETECT && !slack[k] {
                slack[k] = true;
                found = true;
            }
        }
        points.push(p);
        if obj <= DETECT || !found {
            break;
        }
    }
    let support: Vec<usize> = (0..n).filter(|&k| pos[k]).collect();
    let tight: Vec<usize> = (0..n).filter(|&k| !slack[k]).collect();
    let loose: Vec<usize> = (0..n).filter(|&k| slack[k]).collect();
    let mut start = vec![0.0; support.len()];
    for p in &points {
        for (x, &i) in start.iter_mut().zip(&support) {
            *x += p[i] / points.len() as f64;
        }
    }
    let sum: f64 = start.iter().sum();
    if sum.is_nan() || sum <= 0.0 {
        bail!("the Nash LP found no mixture");
    }
    for x in &mut start {
        *x /= sum;
    }
    let x = maxent(a, v, &support, &tight, &loose, start);
    let mut weights = vec![0.0; n];
    for (&i, &w) in support.iter().zip(&x) {
        weights[i] = w;
    }
    let payoff = (0..n)
        .map(|i| 0.5 + (0..n).map(|j| a[i][j] * weights[j]).sum::<f64>())
        .collect();
    Ok(Nash {
        support: (0..n).filter(|&i| weights[i] > ZERO).collect(),
        weights,
        payoff,
        value: 0.5 + v,
    })
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// Step 3 of the module documentation, on the support's coordinates.
fn maxent(
    a: &[Vec<f64>],
    v: f64,
    support: &[usize],
    tight: &[usize],
    loose: &[usize],
    mut x: Vec<f64>,
) -> Vec<f64> {
    let m = support.len();
    // Equality rows (on the support): Σ p = 1 and column j of A = v, j ∈ T.
    let col = |j: usize| -> Vec<f64> { support.iter().map(|&i| a[i][j]).collect() };
    let mut rows: Vec<(Vec<f64>, f64)> = vec![(vec![1.0; m], 1.0)];
    rows.extend(tight.iter().map(|&j| (col(j), v)));
    // Orthonormalise (modified Gram–Schmidt, twice for accuracy), carrying
    // the right-hand sides along; drop dependent rows.
    let mut q: Vec<(Vec<f64>, f64)> = Vec::new();
    for (mut r, mut b) in rows {
        for _ in 0..2 {
            for (u, c) in &q {
                let d = dot(&r, u);
                for (ri, ui) in r.iter_mut().zip(u) {
                    *ri -= d * ui;
                }
                b -= d * c;
            }
        }
        let norm = dot(&r, &r).sqrt();
        if norm > 1e-9 {
            r.iter_mut().for_each(|x| *x /= norm);
            q.push((r, b / norm));
        }
    }
    // Project the start onto the affine set.
    for (u, c) in &q {
        let d = dot(&x, u) - c;
        for (xi, ui) in x.iter_mut().zip(u) {
            *xi -= d * ui;
        }
    }
    // An orthonormal basis of the directions: unit vectors less their
    // components along the rows and the earlier basis vectors.
    let mut basis: Vec<Vec<f64>> = Vec::new();
    for k in 0..m {
        if basis.len() + q.len() == m {
            break;
        }
        let mut e = vec![0.0; m];
        e[k] = 1.0;
        for _ in 0..2 {
            for u in q.iter().map(|(u, _)| u).chain(basis.iter()) {
                let d = dot(&e, u);
                for (ei, ui) in e.iter_mut().zip(u) {
                    *ei -= d * ui;
                }
            }
        }
        let norm = dot(&e, &e).sqrt();
        if norm > 1e-6 {
            e.iter_mut().for_each(|x| *x /= norm);
            basis.push(e);
        }
    }
    if basis.is_empty() || x.iter().any(|&xi| xi <= 0.0) {
        return x.iter().map(|&xi| xi.max(0.0)).collect();
    }
    let loose_cols: Vec<Vec<f64>> = loose.iter().map(|&j| col(j)).collect();
    let slacks = |x: &[f64]| -> Vec<f64> { loose_cols.iter().map(|c| dot(c, x) - v).collect() };
    if slacks(&x).iter().any(|&s| s <= 0.0) {
        return x;
    }
    let f = |x: &[f64], mu: f64| -> f64 {
        x.iter().map(|&p| p * p.ln()).sum::<f64>()
            - mu * slacks(x).iter().map(|s| s.ln()).sum::<f64>()
    };
    let d = basis.len();
    let mut mu = 1e-2;
    while mu >= 1e-12 {
        for _ in 0..100 {
            let s = slacks(&x);
            // Gradient and Hessian in the full coordinates.
            let mut g: Vec<f64> = x.iter().map(|&p| p.ln() + 1.0).collect();
            for (c, &sj) in loose_cols.iter().zip(&s) {
                for (gi, ci) in g.iter_mut().zip(c) {
                    *gi -= mu * ci / sj;
                }
            }
            // Reduced: gr = B g, Hr = B H Bᵀ with H = diag(1/x) + μ Σ c cᵀ / s².
            let gr: Vec<f64> = basis.iter().map(|b| dot(b, &g)).collect();
            let mut hr = vec![vec![0.0; d]; d];
            let bc: Vec<Vec<f64>> = basis
                .iter()
                .map(|b| loose_cols.iter().map(|c| dot(b, c)).collect())
                .collect();
            for k in 0..d {
                for l in k..d {
                    let mut h: f64 = (0..m).map(|i| basis[k][i] * basis[l][i] / x[i]).sum();
                    for (t, &sj) in s.iter().enumerate() {
                        h += mu * bc[k][t] * bc[l][t] / (sj * sj);
                    }
                    hr[k][l] = h;
                    hr[l][k] = h;
                }
            }
            let Some(y) = cholesky_solve(hr, gr.iter().map(|g| -g).collect()) else {
                break;
            };
            let decrement = -dot(&gr, &y);
            if decrement / 2.0 < 1e-15 {
                break;
            }
            let dx: Vec<f64> = (0..m)
                .map(|i| (0..d).map(|k| y[k] * basis[k][i]).sum())
                .collect();
            let f0 = f(&x, mu);
            let mut t = 1.0;
            let mut moved = false;
            while t > 1e-12 {
                let nx: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
                if nx.iter().all(|&p| p > 0.0)
                    && slacks(&nx).iter().all(|&s| s > 0.0)
                    && f(&nx, mu) <= f0 - 0.25 * t * decrement
                {
                    x = nx;
                    moved = true;
                    break;
                }
                t /= 2.0;
            }
            if !moved {
                break;
            }
        }
        if loose_cols.is_empty() {
            break;
        }
        mu /= 10.0;
    }
    x
}

/// Solve `H y = b` for a symmetric positive definite `H` (None if it is not).
fn cholesky_solve(mut h: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for j in 0..n {
        let mut d = h[j][j];
        for k in 0..j {
            d -= h[j][k] * h[j][k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        h[j][j] = d;
        for i in j + 1..n {
            let mut s = h[i][j];
            for k in 0..j {
                s -= h[i][k] * h[j][k];
            }
            h[i][j] = s / d;
        }
    }
    for i in 0..n {
        let s: f64 = (0..i).map(|k| h[i][k] * b[k]).sum();
        b[i] = (b[i] - s) / h[i][i];
    }
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| h[k][i] * b[k]).sum();
        b[i] = (b[i] - s) / h[i][i];
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: &[f64], y: &[f64], tol: f64) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(a, b)| (a - b).abs() < tol)
    }

    /// Score rates → an antisymmetric payoff matrix.
    fn game(rates: &[&[f64]]) -> Vec<Vec<f64>> {
        let n = rates.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| match i.cmp(&j) {
                        std::cmp::Ordering::Less => rates[i][j] - 0.5,
                        std::cmp::Ordering::Greater => 0.5 - rates[j][i],
                        std::cmp::Ordering::Equal => 0.0,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn rock_paper_scissors_gets_the_uniform_mixture() {
        let a = game(&[&[0.0, 0.2, 0.8], &[0.0, 0.0, 0.2], &[0.0; 3]]);
        let n = maxent_nash(&a).unwrap();
        assert!(close(&n.weights, &[1.0 / 3.0; 3], 1e-7), "{n:?}");
        assert!(close(&n.payoff, &[0.5; 3], 1e-7), "{n:?}");
        assert!((n.value - 0.5).abs() < 1e-9);
        assert_eq!(n.support, vec![0, 1, 2]);
    }

    /// Uneven cycles: the equilibrium weighs each bot by the strength of
    /// the bot its victim beats (the unique solution of `A p = 0`).
    #[test]
    fn an_uneven_cycle_gets_its_unique_equilibrium() {
        // 0 beats 1 by 0.1, 1 beats 2 by 0.2, 2 beats 0 by 0.3 (centred).
        let a = game(&[&[0.0, 0.6, 0.2], &[0.0, 0.0, 0.7], &[0.0; 3]]);
        let n = maxent_nash(&a).unwrap();
        // A p = 0: p ∝ (0.2, 0.3, 0.1).
        assert!(
            close(&n.weights, &[2.0 / 6.0, 3.0 / 6.0, 1.0 / 6.0], 1e-7),
            "{n:?}"
        );
    }

    #[test]
    fn a_transitive_field_puts_all_weight_on_the_top_bot() {
        let a = game(&[
            &[0.0, 0.4, 0.3, 0.45],
            &[0.0, 0.0, 0.4, 0.55],
            &[0.0, 0.0, 0.0, 0.6],
            &[0.0; 4],
        ]);
        let n = maxent_nash(&a).unwrap();
        // Bot 2 beats 0, 1 and 3... check: 0 vs 2 = 0.3 → 2 beats 0; 1 vs 2
        // = 0.4 → 2 beats 1; 2 vs 3 = 0.6 → 2 beats 3.
        assert!(close(&n.weights, &[0.0, 0.0, 1.0, 0.0], 1e-9), "{n:?}");
        assert_eq!(n.support, vec![2]);
        assert!(close(&n.payoff, &[0.3, 0.4, 0.5, 0.4], 1e-9), "{n:?}");
        assert_eq!(n.order(), vec![2, 1, 3, 0]);
    }

    /// Maximum entropy: a clone of Rock splits Rock's third with it (any
    /// split is an equilibrium; the maximum-entropy one is even), and adding
    /// a clone moves no other weight or payoff (Balduzzi et al.'s
    /// invariance to redundancy).
    #[test]
    fn clones_share_their_weight_evenly() {
        // Rock, Rock', Paper, Scissors.
        let a = game(&[
            &[0.0, 0.5, 0.2, 0.8],
            &[0.0, 0.0, 0.2, 0.8],
            &[0.0, 0.0, 0.0, 0.2],
            &[0.0; 4],
        ]);
        let n = maxent_nash(&a).unwrap();
        assert!(
            close(
                &n.weights,
                &[1.0 / 6.0, 1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0],
                1e-6
            ),
            "{n:?}"
        );
        assert!(close(&n.payoff, &[0.5; 4], 1e-7));
        // Two clones of the top of a transitive field, and a weaker bot.
        let a = game(&[&[0.0, 0.5, 0.7], &[0.0, 0.0, 0.7], &[0.0; 3]]);
        let n = maxent_nash(&a).unwrap();
        assert!(close(&n.weights, &[0.5, 0.5, 0.0], 1e-6), "{n:?}");
    }

    /// A continuum of equilibria bounded by an inequality: bots 0 and 1 are
    /// even with each other and both beat 2, but only 1 beats 3 while 0
    /// loses to it. The maximum-entropy mixture lies where 3's payoff
    /// against it is exactly ½, which the barrier path reaches.
    #[test]
    fn the_entropy_maximum_may_lie_on_a_constraint() {
        // p = (x, 1 − x, 0, 0): bot 3 scores 0.5 + 0.1x − 0.3(1 − x) ≤ 0.5
        // → x ≤ 0.75; bot 2 loses to both. Max entropy of (x, 1 − x) on
        // x ≤ 0.75 is x = 0.5 (interior); shift it with a stronger 3.
        let a = game(&[
            &[0.0, 0.5, 0.8, 0.1],
            &[0.0, 0.0, 0.8, 0.7],
            &[0.0, 0.0, 0.0, 0.5],
            &[0.0; 4],
        ]);
        // Bot 3 against (x, 1−x): 0.5 + 0.4x − 0.2(1 − x) ≤ 0.5 → x ≤ 1/3.
        let n = maxent_nash(&a).unwrap();
        assert!(
            close(&n.weights, &[1.0 / 3.0, 2.0 / 3.0, 0.0, 0.0], 1e-5),
            "{n:?}"
        );
        assert!(n.payoff[3] <= 0.5 + 1e-7);
    }

    #[test]
    fn bad_matrices_are_errors() {
        assert!(maxent_nash(&[]).unwrap_err().to_string().contains("empty"));
        let e = maxent_nash(&[vec![0.0, 1.0], vec![0.0]]).unwrap_err();
        assert!(e.to_string().contains("row 1 has 1 entries"), "{e}");
        let e = maxent_nash(&[vec![0.0, f64::NAN], vec![0.0, 0.0]]).unwrap_err();
        assert!(e.to_string().contains("(0, 1)"), "{e}");
        let one = maxent_nash(&[vec![0.0]]).unwrap();
        assert_eq!(one.weights, vec![1.0]);
    }

    #[test]
    fn the_payoff_matrix_is_antisymmetric_and_centred() {
        let r = Results {
            games: vec![vec![0.0, 10.0, 0.0], vec![10.0, 0.0, 0.0], vec![0.0; 3]],
            score: vec![vec![0.0, 7.0, 0.0], vec![3.0, 0.0, 0.0], vec![0.0; 3]],
        };
        let a = payoff_matrix(&r);
        assert!((a[0][1] - 0.2).abs() < 1e-12 && (a[1][0] + 0.2).abs() < 1e-12);
        assert_eq!(a[0][2], 0.0, "a pair without games is even");
    }
}
