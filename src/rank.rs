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
//! interval reported for bot `i` is `±1.96 · (1 − 1/n) / √L_ii`
//! (Elo-scaled, `n` bots): the precision of its rating against the field
//! as measured, the others held at their estimates. The rating is centred
//! on the field's mean, which moves by `1/n` of any move of `θ_i`, hence
//! the factor `1 − 1/n`; in a balanced field this is exactly the marginal
//! standard deviation (two bots: half of `1 / √L_ii`; without the factor
//! the intervals were n/(n − 1) too wide, twice for two bots, which an
//! audit of 200 seeds showed: ±15.3 Elo reported, ±7.8 observed). We chose
//! it over the marginal interval of the
//! centred rating (`C L⁻¹ C`, `C = I − J/n`) because that one charges every
//! bot with the uncertainty of the field's mean: one bot that never wins
//! (rating bounded only by the prior, ±470 Elo) widened every other
//! interval fourfold in a real run of the 49 shipped bots. With thousands
//! of games per pair the normal approximation is accurate, and it costs no
//! refit (a bootstrap would cost hundreds).
//!
//! Beside the model: [`field`] (where Bradley–Terry is wrong about a field:
//! residuals, cycles, goodness of fit) and two game-theoretic views that
//! need no transitivity: [`nash`] (the maximum-entropy Nash mixture, Nash
//! averaging) and [`alpharank`] (α-Rank); [`models`] runs them all on one
//! field for `rank`'s outputs (`--model bt|nash|alpharank`).

pub mod alpharank;
pub mod field;
pub mod leaderboard;
pub mod models;
pub mod nash;

/// How much of a move of one bot's θ its centred rating shows: `1 − 1/n`
/// (the field's mean moves by `1/n` of it). See the module documentation.
fn centring(n: usize) -> f64 {
    if n >= 2 {
        1.0 - 1.0 / n as f64
    } else {
        1.0
    }
}

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
    let centred = centring(n);
    (0..n)
        .map(|i| {
            let games: f64 = r.games[i].iter().sum();
            let score: f64 = r.score[i].iter().sum();
            Rating {
                rating: ELO * (p[i].ln() - mean_theta),
                ci95: 1.959_964 * ELO * centred / l[i][i].max(1e-300).sqrt(),
                games,
                score: if games > 0.0 { score / games } else { 0.0 },
            }
        })
        .collect()
}

/// The results of one table of a multi-player field: its members (entrant
/// indices), the games it played, and each member's score there (wins plus
/// shared wins split).
#[derive(Clone, Debug)]
pub struct Table {
    pub members: Vec<usize>,
    pub games: f64,
    pub score: Vec<f64>,
}

/// Fit the Luce choice model (the first stage of Plackett–Luce) to tables
/// of `p` ≥ 2 players: at a table `T`, member `i` wins with probability
/// `γ_i / Σ_{j∈T} γ_j`; a `k`-way shared win counts `1/k` to each, as in
/// every domsim score. For tables of two it is exactly Bradley–Terry.
/// Hunter's MM update `γ_i ← W_i / Σ_{T∋i} n_T / Σ_{j∈T} γ_j`, the same
/// half-game prior against a virtual average opponent as [`fit`], and the
/// same conditional interval from the Fisher information
/// `I_ii = Σ_{T∋i} n_T π_i (1 − π_i)`.
pub fn fit_tables(n: usize, tables: &[Table]) -> Vec<Rating> {
    let prior = 0.5;
    let mut g = vec![1.0f64; n];
    let mut wins = vec![prior; n];
    let mut games = vec![0.0f64; n];
    let mut score = vec![0.0f64; n];
    for t in tables {
        for (m, &i) in t.members.iter().enumerate() {
            wins[i] += t.score[m];
            score[i] += t.score[m];
            games[i] += t.games;
        }
    }
    for _ in 0..10_000 {
        let mut denom: Vec<f64> = (0..n).map(|i| 2.0 * prior / (g[i] + 1.0)).collect();
        for t in tables {
            if t.games <= 0.0 {
                continue;
            }
            let sum: f64 = t.members.iter().map(|&i| g[i]).sum();
            for &i in &t.members {
                denom[i] += t.games / sum;
            }
        }
        let mut next: Vec<f64> = (0..n).map(|i| wins[i] / denom[i]).collect();
        let gm = (next.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
        let mut change = 0.0f64;
        for i in 0..n {
            next[i] /= gm;
            change = change.max((next[i].ln() - g[i].ln()).abs());
        }
        g = next;
        if change < 1e-12 {
            break;
        }
    }
    let mut info: Vec<f64> = (0..n)
        .map(|i| {
            let pv = g[i] / (g[i] + 1.0);
            2.0 * prior * pv * (1.0 - pv)
        })
        .collect();
    for t in tables {
        let sum: f64 = t.members.iter().map(|&i| g[i]).sum();
        for &i in &t.members {
            let pi = g[i] / sum;
            info[i] += t.games * pi * (1.0 - pi);
        }
    }
    let mean_theta = g.iter().map(|x| x.ln()).sum::<f64>() / n as f64;
    let centred = centring(n);
    (0..n)
        .map(|i| Rating {
            rating: ELO * (g[i].ln() - mean_theta),
            ci95: 1.959_964 * ELO * centred / info[i].max(1e-300).sqrt(),
            games: games[i],
            score: if games[i] > 0.0 {
                score[i] / games[i]
            } else {
                0.0
            },
        })
        .collect()
}

/// The tables of a field of `n` entrants at `p` seats: every `p`-subset
/// when there are at most `max_tables` of them (a full round robin), else
/// `max_tables` tables from rounds in which a seeded shuffle of the field
/// is cut into tables of `p` (every entrant sits at the same number of
/// tables, ±1). Members are sorted; the design depends only on the
/// arguments.
pub fn design(n: usize, p: usize, seed: u64, max_tables: usize) -> Vec<Vec<usize>> {
    assert!(p >= 2 && n >= p);
    let mut subsets: u128 = 1;
    for k in 0..p as u128 {
        subsets = subsets * (n as u128 - k) / (k + 1);
        if subsets > max_tables as u128 {
            break;
        }
    }
    if subsets <= max_tables as u128 {
        let mut out = Vec::new();
        let mut cur: Vec<usize> = (0..p).collect();
        loop {
            out.push(cur.clone());
            let Some(i) = (0..p).rev().find(|&i| cur[i] < n - p + i) else {
                return out;
            };
            cur[i] += 1;
            for j in i + 1..p {
                cur[j] = cur[j - 1] + 1;
            }
        }
    }
    // A stream of shuffled rounds of the field, cut into tables of p
    // distinct entrants: each entrant appears once per round of the stream,
    // so seats stay balanced (±1 round) whatever n mod p.
    let mut rng = crate::sim::rng::GameRng::for_game(seed ^ 0x7AB1_E5ED, 0);
    let mut stream: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut out = Vec::with_capacity(max_tables);
    while out.len() < max_tables {
        while stream.len() < 2 * n {
            let mut order: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut order);
            stream.extend(order);
        }
        let mut t: Vec<usize> = Vec::with_capacity(p);
        let mut k = 0;
        while t.len() < p {
            if t.contains(&stream[k]) {
                k += 1;
            } else {
                t.push(stream.remove(k).unwrap_or(0));
            }
        }
        t.sort_unstable();
        out.push(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::GameRng;

    /// Two bots: the reported rating is half the difference of their θ,
    /// so its standard deviation is half that of the difference,
    /// `0.5 / √(N π (1 − π))` (the half-game prior is negligible at N =
    /// 20,000). The interval was twice that before the centring factor.
    #[test]
    fn two_bot_interval_is_that_of_the_centred_rating() {
        let (n, s) = (20_000.0, 12_000.0);
        let r = Results {
            games: vec![vec![0.0, n], vec![n, 0.0]],
            score: vec![vec![0.0, s], vec![n - s, 0.0]],
        };
        let f = fit(&r);
        let pi = s / n;
        let want = 1.959_964 * ELO * 0.5 / (n * pi * (1.0 - pi)).sqrt();
        for x in &f {
            assert!((x.ci95 / want - 1.0).abs() < 0.01, "{} vs {want}", x.ci95);
        }
        // The same for tables of two through the Luce fit.
        let t = vec![Table {
            members: vec![0, 1],
            games: n,
            score: vec![s, n - s],
        }];
        for x in fit_tables(2, &t) {
            assert!((x.ci95 / want - 1.0).abs() < 0.01, "{} vs {want}", x.ci95);
        }
    }

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

    /// Tables of two give exactly Bradley–Terry.
    #[test]
    fn tables_of_two_are_bradley_terry() {
        let mut r = Results {
            games: vec![vec![0.0; 3]; 3],
            score: vec![vec![0.0; 3]; 3],
        };
        let mut tables = Vec::new();
        for (i, j, n, si) in [(0, 1, 100.0, 70.0), (0, 2, 80.0, 30.5), (1, 2, 60.0, 20.0)] {
            r.games[i][j] = n;
            r.games[j][i] = n;
            r.score[i][j] = si;
            r.score[j][i] = n - si;
            tables.push(Table {
                members: vec![i, j],
                games: n,
                score: vec![si, n - si],
            });
        }
        for (a, b) in fit(&r).iter().zip(fit_tables(3, &tables)) {
            assert!((a.rating - b.rating).abs() < 1e-6 && (a.ci95 - b.ci95).abs() < 1e-6);
        }
    }

    /// Synthetic 4-player tables with known strengths (Luce's choice
    /// probabilities): the fit recovers them within their intervals.
    #[test]
    fn recovers_known_strengths_at_four_player_tables() {
        let truth = [-250.0, -100.0, 0.0, 60.0, 120.0, 200.0, 300.0];
        let n = truth.len();
        let tables_members = design(n, 4, 9, 1000);
        assert_eq!(tables_members.len(), 35, "every 4-subset of 7");
        let mut rng = GameRng::for_game(7, 0);
        let per_table = 3000;
        let tables: Vec<Table> = tables_members
            .into_iter()
            .map(|m| {
                let g: Vec<f64> = m.iter().map(|&i| 10f64.powf(truth[i] / 400.0)).collect();
                let sum: f64 = g.iter().sum();
                let mut score = vec![0.0; m.len()];
                for _ in 0..per_table {
                    let mut u = rng.below(1_000_000) as f64 / 1e6 * sum;
                    let mut w = m.len() - 1;
                    for (k, x) in g.iter().enumerate() {
                        if u < *x {
                            w = k;
                            break;
                        }
                        u -= x;
                    }
                    score[w] += 1.0;
                }
                Table {
                    members: m,
                    games: per_table as f64,
                    score,
                }
            })
            .collect();
        let fitted = fit_tables(n, &tables);
        let mean = truth.iter().sum::<f64>() / n as f64;
        for (f, t) in fitted.iter().zip(truth) {
            assert!(
                (f.rating - (t - mean)).abs() < 4.0 * f.ci95,
                "{f:?} vs {}",
                t - mean
            );
            assert!(f.ci95 > 2.0 && f.ci95 < 40.0, "{f:?}");
        }
        for w in fitted.windows(2) {
            assert!(w[0].rating < w[1].rating, "{fitted:?}");
        }
    }

    #[test]
    fn sampled_designs_are_balanced_and_seeded() {
        let d = design(49, 4, 3, 490);
        assert_eq!(d.len(), 490);
        let mut seats = [0; 49];
        for t in &d {
            assert_eq!(t.len(), 4);
            assert!(t.windows(2).all(|w| w[0] < w[1]), "distinct, sorted: {t:?}");
            for &i in t {
                seats[i] += 1;
            }
        }
        let (lo, hi) = (seats.iter().min().unwrap(), seats.iter().max().unwrap());
        assert!(hi - lo <= 2, "balanced: {lo}..{hi}");
        assert_eq!(d, design(49, 4, 3, 490));
        assert_ne!(d, design(49, 4, 4, 490));
        assert_eq!(design(5, 2, 0, 100).len(), 10, "all pairs");
    }
}
