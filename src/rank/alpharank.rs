//! α-Rank (Omidshafiei, Papadimitriou, Piliouras, Tuyls, Rowland, Lespiau,
//! Czarnecki, Lanctot, Pérolat, Munos, "α-Rank: Multi-Agent Evaluation by
//! Evolution", Scientific Reports 2019), single-population form for a
//! symmetric two-player field.
//!
//! A population of `m` copies of one bot is invaded by a mutant playing
//! another; selection follows the Fermi rule with ranking intensity `α`.
//! With `k` mutants `r` among residents `s`, their fitnesses are
//! `f_r = ((k−1) A_rr + (m−k) A_rs)/(m−1)` and
//! `f_s = (k A_sr + (m−k−1) A_ss)/(m−1)`; for a constant-sum field
//! (`A_rs = −A_sr`, `A_rr = 0`, [`super::nash::payoff_matrix`]) the
//! difference is the constant `m A_rs/(m−1)`, and the mutant fixates with
//! probability `ρ = (1 − e^{−u}) / (1 − e^{−m u})`, `u = α m A_rs/(m−1)`
//! (`1/m` when `u = 0`: a neutral mutant). The chain over monomorphic
//! populations moves from `s` to `r` with probability `ρ_{s→r}/(n−1)`; the
//! **α-Rank** of a bot is its mass in the chain's stationary distribution:
//! where evolution spends its time. A bot that nothing invades takes all
//! the mass as `α` grows; a cycle shares it.
//!
//! The stationary distribution is computed by the Grassmann–Taksar–Heyman
//! elimination (subtraction-free, so accurate for the tiny transition
//! probabilities of a large `α`); a fixation probability is floored at
//! 1e-150 so that the chain stays irreducible in floating point (an exact
//! one never vanishes), which moves no mass above that order.

// Matrix code: indices name rows and columns, as in the formulas.
#![allow(clippy::needless_range_loop)]

use anyhow::{bail, Result};

/// Default population size and ranking intensity of [`alpharank`]: with
/// payoffs as centred score rates (±0.5), `α = 100, m = 50` make a 55%
/// result a strong selection (`u ≈ 5`) and a 51% one a mild one (`u ≈ 1`).
pub const DEFAULT_POPULATION: usize = 50;
pub const DEFAULT_ALPHA: f64 = 100.0;

/// The fixation probability of one mutant of payoff advantage `adv`
/// (`A_rs`) in a population of `m`, at intensity `alpha`.
pub fn fixation(adv: f64, alpha: f64, m: usize) -> f64 {
    let m_f = m as f64;
    let u = alpha * m_f / (m_f - 1.0) * adv;
    let rho = if u.abs() < 1e-12 {
        1.0 / m_f
    } else if u > 0.0 {
        // (1 − e^{−u}) / (1 − e^{−mu}): both terms in (0, 1].
        -(-u).exp_m1() / -(-m_f * u).exp_m1()
    } else {
        // = e^{(m−1)u} (1 − e^{u}) / (1 − e^{mu}) with u < 0, without overflow.
        let w = -u;
        ((m_f - 1.0) * -w).exp() * (-(-w).exp_m1()) / (-(-m_f * w).exp_m1())
    };
    rho.max(1e-150)
}

/// The α-Rank stationary mass of each bot of the constant-sum field `a`
/// (antisymmetric payoffs), for population `m ≥ 2` and intensity `α > 0`.
pub fn alpharank(a: &[Vec<f64>], alpha: f64, m: usize) -> Result<Vec<f64>> {
    let n = a.len();
    if n == 0 {
        bail!("the field is empty: α-Rank needs at least one bot");
    }
    if m < 2 {
        bail!("α-Rank's population size must be at least 2 (got {m})");
    }
    if !(alpha.is_finite() && alpha > 0.0) {
        bail!("α-Rank's ranking intensity must be a positive number (got {alpha})");
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
    if n == 1 {
        return Ok(vec![1.0]);
    }
    // Off-diagonal transitions s → r (the diagonal is never used by GTH).
    let eta = 1.0 / (n - 1) as f64;
    let mut p: Vec<Vec<f64>> = (0..n)
        .map(|s| {
            (0..n)
                .map(|r| {
                    if r == s {
                        0.0
                    } else {
                        eta * fixation(a[r][s], alpha, m)
                    }
                })
                .collect()
        })
        .collect();
    // GTH: eliminate states n−1, …, 1.
    for k in (1..n).rev() {
        let s: f64 = p[k][..k].iter().sum();
        for row in p.iter_mut().take(k) {
            row[k] /= s;
        }
        for i in 0..k {
            let pik = p[i][k];
            if pik == 0.0 {
                continue;
            }
            for j in 0..k {
                if i != j {
                    p[i][j] += pik * p[k][j];
                }
            }
        }
    }
    let mut pi = vec![0.0; n];
    pi[0] = 1.0;
    for k in 1..n {
        pi[k] = (0..k).map(|i| pi[i] * p[i][k]).sum();
    }
    let total: f64 = pi.iter().sum();
    Ok(pi.into_iter().map(|x| x / total).collect())
}

/// Bots best first by α-Rank mass (ties by index).
pub fn order(mass: &[f64]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..mass.len()).collect();
    o.sort_by(|&a, &b| mass[b].total_cmp(&mass[a]).then(a.cmp(&b)));
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anti(upper: &[(usize, usize, f64)], n: usize) -> Vec<Vec<f64>> {
        let mut a = vec![vec![0.0; n]; n];
        for &(i, j, x) in upper {
            a[i][j] = x;
            a[j][i] = -x;
        }
        a
    }

    /// Two bots: detailed balance, `π_0 / π_1 = ρ_{1→0} / ρ_{0→1}`, in
    /// closed form; and a neutral pair splits evenly.
    #[test]
    fn two_bots_follow_the_fixation_ratio() {
        for (adv, alpha, m) in [(0.1, 1.0, 10), (0.05, 100.0, 50), (0.3, 0.5, 2)] {
            let a = anti(&[(0, 1, adv)], 2);
            let pi = alpharank(&a, alpha, m).unwrap();
            let mf = m as f64;
            let u = alpha * mf / (mf - 1.0) * adv;
            let rho_0_invades = (1.0 - (-u).exp()) / (1.0 - (-mf * u).exp());
            let rho_1_invades = (1.0 - u.exp()) / (1.0 - (mf * u).exp());
            let want = rho_0_invades / rho_1_invades;
            assert!((pi[0] / pi[1] / want - 1.0).abs() < 1e-9, "{pi:?} {want}");
        }
        let pi = alpharank(&anti(&[], 2), 5.0, 10).unwrap();
        assert!((pi[0] - 0.5).abs() < 1e-12);
        // The neutral fixation probability is 1/m.
        assert!((fixation(0.0, 3.0, 20) - 0.05).abs() < 1e-15);
    }

    #[test]
    fn a_cycle_shares_the_mass_evenly() {
        let a = anti(&[(0, 1, 0.3), (1, 2, 0.3), (2, 0, 0.3)], 3);
        let pi = alpharank(&a, DEFAULT_ALPHA, DEFAULT_POPULATION).unwrap();
        assert!(pi.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-9), "{pi:?}");
    }

    /// A transitive field: the top bot takes (nearly) all the mass at a
    /// large α, and the order follows strength at any α.
    #[test]
    fn a_transitive_field_ranks_the_top_bot_first() {
        let elo = [0.0, 60.0, 120.0, 200.0];
        let mut up = Vec::new();
        for i in 0..4 {
            for j in i + 1..4 {
                let s = 1.0 / (1.0 + 10f64.powf((elo[j] - elo[i]) / 400.0));
                up.push((i, j, s - 0.5));
            }
        }
        let a = anti(&up, 4);
        let pi = alpharank(&a, DEFAULT_ALPHA, DEFAULT_POPULATION).unwrap();
        assert!(pi[3] > 0.999, "{pi:?}");
        assert_eq!(order(&pi), vec![3, 2, 1, 0]);
        let mild = alpharank(&a, 0.5, 10).unwrap();
        assert_eq!(order(&mild), vec![3, 2, 1, 0], "{mild:?}");
        assert!(mild[3] < 0.5, "a mild selection spreads the mass: {mild:?}");
    }

    /// A cycle above a weaker bot: the cycle takes the mass, shared evenly,
    /// and α-Rank differs from Nash averaging only where it should.
    #[test]
    fn a_cycle_above_a_weak_bot_takes_the_mass() {
        let a = anti(
            &[
                (0, 1, 0.3),
                (1, 2, 0.3),
                (2, 0, 0.3),
                (0, 3, 0.2),
                (1, 3, 0.2),
                (2, 3, 0.2),
            ],
            4,
        );
        let pi = alpharank(&a, DEFAULT_ALPHA, DEFAULT_POPULATION).unwrap();
        assert!(pi[3] < 1e-12, "{pi:?}");
        for x in &pi[..3] {
            assert!((x - 1.0 / 3.0).abs() < 1e-9, "{pi:?}");
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(alpharank(&[], 1.0, 10).is_err());
        assert!(alpharank(&[vec![0.0]], 1.0, 1)
            .unwrap_err()
            .to_string()
            .contains("at least 2"));
        assert!(alpharank(&[vec![0.0]], -1.0, 10).is_err());
        assert!(alpharank(&[vec![0.0], vec![0.0]], 1.0, 10)
            .unwrap_err()
            .to_string()
            .contains("row 0"));
        assert_eq!(alpharank(&[vec![0.0]], 1.0, 10).unwrap(), vec![1.0]);
    }
}
