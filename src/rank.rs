//! Ratings over a field of bots: a Bradley–Terry model fitted to head-to-head
//! results.
//!
//! Each bot `i` has a strength `p_i > 0`; in a game between `i` and `j`, `i`
//! scores with probability `p_i / (p_i + p_j)`. A tie counts half a win for
//! each side (the `score` of every domsim table), which keeps the model and
//! its likelihood exact for the sums we store. The fit is Hunter's MM
//! iteration (2004), which converges monotonically to the maximum
//! likelihood; ratings are reported on the Elo scale,
//! `400 · log10(p_i)`, centred on the field's mean.
//!
//! **Intervals** come from the model's Fisher information: with `θ = ln p`,
//! the information matrix is the weighted Laplacian
//! `L_ii = Σ_j n_ij π_ij (1 − π_ij)`, `L_ij = −n_ij π_ij (1 − π_ij)`. Its
//! null space is the common shift of every θ (ratings are relative). The
//! interval reported for bot `i` is `±1.96 / √L_ii` (Elo-scaled): the
//! precision of its rating against the field as measured, the others held
//! at their estimates. We chose it over the marginal interval of the
//! centred rating (`C L⁻¹ C`, `C = I − J/n`) because that one charges every
//! bot with the uncertainty of the field's mean: one bot that never wins
//! (rating bounded only by the prior, ±470 Elo) widened every other
//! interval fourfold in a real run of the 49 shipped bots. With thousands
//! of games per pair the normal approximation is accurate, and it costs no
//! refit (a bootstrap would cost hundreds).

/// Head-to-head results: `score[i][j]` is `i`'s score against `j` (wins +
/// half the ties), `games[i][j]` the games they played (symmetric).
#[derive(Clone, Debug)]
pub struct Results {
    pub games: Vec<Vec<f64>>,
    pub score: Vec<Vec<f64>>,
}

/// A fitted rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating, centred on the field's mean.
    pub rating: f64,
    /// Half-width of its 95% interval (Elo points).
    pub ci95: f64,
    pub games: f64,
    /// Score against the whole field (ties split).
    pub score: f64,
}

const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Fit the Bradley–Terry model. A bot with no score at all (or a perfect
/// one) has no finite maximum-likelihood strength: a tiny prior (half a game
/// won and lost against a virtual average opponent) keeps every rating
/// finite without moving well-measured ones.
pub fn fit(r: &Results) -> Vec<Rating> {
    let n = r.games.len();
    let prior = 0.5;
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        let mut change = 0.0f64;
        for i in 0..n {
            let wins: f64 = r.score[i].iter().sum::<f64>() + prior;
            let mut denom = 2.0 * prior / (p[i] + 1.0);
            for j in 0..n {
                if i != j && r.games[i][j] > 0.0 {
                    denom += r.games[i][j] / (p[i] + p[j]);
                }
            }
            next[i] = wins / denom;
        }
        // Normalise (geometric mean 1) and measure the change.
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
        for i in 0..n {
            next[i] /= g;
            change = change.max((next[i].ln() - p[i].ln()).abs());
        }
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    // Fisher information of θ = ln p (the prior adds its own information).
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && r.games[i][j] > 0.0 {
                let pi = p[i] / (p[i] + p[j]);
                let w = r.games[i][j] * pi * (1.0 - pi);
                l[i][i] += w;
                l[i][j] -= w;
            }
        }
        let pv = p[i] / (p[i] + 1.0);
        l[i][i] += 2.0 * prior * pv * (1.0 - pv);
    }

    let mean_theta = p.iter().map(|x| x.ln()).sum::<f64>() / n as f64;
    (0..n)
        .map(|i| {
            let games: f64 = r.games[i].iter().sum();
            let score: f64 = r.score[i].iter().sum();
            Rating {
                rating: ELO * (p[i].ln() - mean_theta),
                ci95: 1.959_964 * ELO / l[i][i].max(1e-300).sqrt(),
                games,
                score: if games > 0.0 { score / games } else { 0.0 },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameRng;

    /// Synthetic field with known strengths: simulate games with the BT
    /// probabilities (and some ties), fit, and recover the ratings within
    /// their intervals.
    #[test]
    fn recovers_known_strengths() {
        let truth = [-300.0, -120.0, 0.0, 40.0, 150.0, 230.0];
        let n = truth.len();
        let mut rng = GameRng::for_game(42, 0);
        let per_pair = 4000u32;
        let mut r = Results {
            games: vec![vec![0.0; n]; n],
            score: vec![vec![0.0; n]; n],
        };
        for i in 0..n {
            for j in i + 1..n {
                let pi = 1.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
                for _ in 0..per_pair {
                    let u = rng.below(1_000_000) as f64 / 1e6;
                    // 5% ties, each half a win: wins with probability
                    // pi − 0.025, so the expected score is exactly pi.
                    let (si, sj) = if u < 0.05 {
                        (0.5, 0.5)
                    } else if u < 0.05 + (pi - 0.025) {
                        (1.0, 0.0)
                    } else {
                        (0.0, 1.0)
                    };
                    r.games[i][j] += 1.0;
                    r.games[j][i] += 1.0;
                    r.score[i][j] += si;
                    r.score[j][i] += sj;
                }
            }
        }
        let fitted = fit(&r);
        let mean = truth.iter().sum::<f64>() / n as f64;
        let mut misses = 0;
        for (f, t) in fitted.iter().zip(truth) {
            let want = t - mean;
            assert!((f.rating - want).abs() < 4.0 * f.ci95, "{f:?} vs {want}");
            if (f.rating - want).abs() > f.ci95 {
                misses += 1;
            }
            assert!(f.ci95 > 3.0 && f.ci95 < 30.0, "{f:?}");
        }
        assert!(
            misses <= 2,
            "too many outside their 95% interval: {fitted:?}"
        );
        // The order is recovered exactly.
        for w in fitted.windows(2) {
            assert!(w[0].rating < w[1].rating);
        }
        let sum: f64 = fitted.iter().map(|f| f.rating).sum();
        assert!(sum.abs() < 1e-6, "centred");
    }

    #[test]
    fn perfect_and_empty_records_stay_finite() {
        let r = Results {
            games: vec![vec![0.0, 10.0, 0.0], vec![10.0, 0.0, 0.0], vec![0.0; 3]],
            score: vec![vec![0.0, 10.0, 0.0], vec![0.0; 3], vec![0.0; 3]],
        };
        let f = fit(&r);
        assert!(f.iter().all(|x| x.rating.is_finite() && x.ci95.is_finite()));
        assert!(f[0].rating > f[2].rating && f[2].rating > f[1].rating);
    }

    /// A large field of near-equal bots (like the shipped money bots on one
    /// kingdom): intervals are those of the games played, never zero.
    #[test]
    fn large_even_field_has_honest_intervals() {
        let n = 49;
        let mut r = Results {
            games: vec![vec![2000.0; n]; n],
            score: vec![vec![1000.0; n]; n],
        };
        for i in 0..n {
            r.games[i][i] = 0.0;
            r.score[i][i] = 0.0;
        }
        let f = fit(&r);
        // Var(θ_i) ≈ 1 / (48 · 2000 · 1/4): 95% half-width ≈ 2.2 Elo.
        for x in &f {
            assert!((x.ci95 - 2.2).abs() < 0.2, "{x:?}");
            assert!(x.rating.abs() < 1e-6);
        }
    }
}
