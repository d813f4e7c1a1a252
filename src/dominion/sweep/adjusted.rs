//! Card effects with the other cards held fixed.
//!
//! [`super::card_effects`] compares the kingdoms with a card against those
//! without it: in a sweep where Laboratory happened to come with Witch
//! more often than not, it credits Laboratory with Witch's effect. Here
//! each strategy's score per kingdom is regressed on the indicators of the
//! cards (ordinary least squares, one observation per kingdom, an
//! intercept): the coefficient of a card is its effect on the strategy's
//! score when the other cards of the model are the same, in score rate.
//!
//! * **Counts.** Each effect carries the number of kingdoms with and
//!   without the card. A card present in fewer than `min_kingdoms` or
//!   absent from fewer than `min_kingdoms` is **not estimated** (its
//!   indicator is left out of the model; it is reported with its counts and
//!   `estimated: false`, never ranked): a difference resting on three
//!   kingdoms is noise or the other cards of those three.
//! * **Intervals.** `β ± t · se`, `se² = σ² [(XᵀX)⁻¹]_cc` with `σ²` the
//!   residual variance on `K − p` degrees of freedom (kingdoms less
//!   parameters). The residual holds the sampling noise of each kingdom's
//!   score and everything the additive model misses (interactions between
//!   cards), so the interval covers both. The `t` quantile comes from the
//!   Cornish–Fisher expansion (accurate to ~1e-3 from 3 degrees of freedom).
//!   With no degree of freedom left (more cards than kingdoms), nothing is
//!   estimated.
//! * A card whose indicator is a linear combination of the others' (it is
//!   always with another card, say) cannot be separated from them: it is
//!   reported `estimated: false` too.

// Matrix code: indices name rows and columns, as in the formulas.
#![allow(clippy::needless_range_loop)]

use super::SweepKingdom;

/// One strategy × card effect.
#[derive(Clone, Debug, PartialEq)]
pub struct AdjustedEffect {
    pub strategy: usize,
    pub card: String,
    /// Kingdoms with and without the card (where the strategy played).
    pub with: usize,
    pub without: usize,
    /// The raw difference of mean scores (with − without), for comparison.
    pub raw: f64,
    /// The effect with the other estimated cards held fixed (score rate),
    /// and its 95% interval; `NaN` when not estimated.
    pub effect: f64,
    pub lo: f64,
    pub hi: f64,
    /// False when the counts are below the minimum, the card cannot be
    /// separated from the others, or no degree of freedom is left.
    pub estimated: bool,
}

/// Per strategy: kingdoms where some of its entries named cards the
/// kingdom lacks (it played a reduced bot there), and kingdoms in all.
pub fn reduced_kingdoms(n: usize, ks: &[SweepKingdom]) -> Vec<(usize, usize)> {
    (0..n)
        .map(|i| {
            let reduced = ks
                .iter()
                .filter(|k| k.ignored.get(i).is_some_and(|&x| x > 0))
                .count();
            (reduced, ks.len())
        })
        .collect()
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom
/// (Cornish–Fisher expansion around the normal quantile).
pub fn t975(df: f64) -> f64 {
    let z: f64 = 1.959_963_984_540_054;
    if df.is_infinite() {
        return z;
    }
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df * df)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * df.powi(4))
}

/// A generalised inverse of a symmetric positive semi-definite matrix by
/// Gauss–Jordan: a pivot below 1e-10 of the largest diagonal marks its
/// column dependent on the earlier ones. Returns `G` with `G_PP = A_PP⁻¹`
/// on the independent columns `P` and zero elsewhere (`A G A = A`), and the
/// dependent set.
fn pinv_sym(mut a: Vec<Vec<f64>>) -> (Vec<Vec<f64>>, Vec<bool>) {
    let p = a.len();
    let scale = (0..p).map(|i| a[i][i]).fold(0.0f64, f64::max).max(1e-300);
    let mut inv: Vec<Vec<f64>> = (0..p)
        .map(|i| (0..p).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let mut dep = vec![false; p];
    for c in 0..p {
        let piv = a[c][c];
        if piv.abs() <= 1e-10 * scale {
            dep[c] = true;
            for r in 0..p {
                a[r][c] = 0.0;
                a[c][r] = 0.0;
                inv[r][c] = 0.0;
                inv[c][r] = 0.0;
            }
            continue;
        }
        for j in 0..p {
            a[c][j] /= piv;
            inv[c][j] /= piv;
        }
        for r in 0..p {
            if r != c && a[r][c] != 0.0 {
                let f = a[r][c];
                for j in 0..p {
                    a[r][j] -= f * a[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    for c in 0..p {
        if dep[c] {
            for r in 0..p {
                inv[r][c] = 0.0;
                inv[c][r] = 0.0;
            }
        }
    }
    (inv, dep)
}

/// Every strategy × card that appears in some kingdom and is missing from
/// another, for the `n` strategies of the sweep: estimated effects first,
/// by strategy then decreasing effect; then the cards not estimated, by
/// strategy and name. `min_kingdoms` (≥ 1) is the fewest kingdoms with and
/// without a card for it to be estimated.
pub fn adjusted_effects(n: usize, ks: &[SweepKingdom], min_kingdoms: usize) -> Vec<AdjustedEffect> {
    let mut cards: Vec<&String> = ks.iter().flat_map(|k| k.cards.iter()).collect();
    cards.sort();
    cards.dedup();
    let mut out = Vec::new();
    let mut rest = Vec::new();
    for i in 0..n {
        // The kingdoms where strategy i played.
        let obs: Vec<(&SweepKingdom, f64)> = ks
            .iter()
            .filter_map(|k| {
                let t = k.total(i);
                (t.games > 0).then(|| (k, t.score_wins() / t.games as f64))
            })
            .collect();
        let kn = obs.len();
        let counts: Vec<(usize, usize)> = cards
            .iter()
            .map(|c| {
                let w = obs.iter().filter(|(k, _)| k.cards.contains(c)).count();
                (w, kn - w)
            })
            .collect();
        let raw = |ci: usize| {
            let (mut a, mut sa, mut b, mut sb) = (0.0, 0.0, 0.0, 0.0);
            for (k, y) in &obs {
                if k.cards.contains(cards[ci]) {
                    a += 1.0;
                    sa += y;
                } else {
                    b += 1.0;
                    sb += y;
                }
            }
            if a > 0.0 && b > 0.0 {
                sa / a - sb / b
            } else {
                f64::NAN
            }
        };
        let model: Vec<usize> = (0..cards.len())
            .filter(|&c| counts[c].0 >= min_kingdoms.max(1) && counts[c].1 >= min_kingdoms.max(1))
            .collect();
        // Design: intercept + the model's cards.
        let p = model.len() + 1;
        let x: Vec<Vec<f64>> = obs
            .iter()
            .map(|(k, _)| {
                std::iter::once(1.0)
                    .chain(
                        model
                            .iter()
                            .map(|&c| f64::from(u8::from(k.cards.contains(cards[c])))),
                    )
                    .collect()
            })
            .collect();
        let mut xtx = vec![vec![0.0; p]; p];
        let mut xty = vec![0.0; p];
        for (row, (_, y)) in x.iter().zip(&obs) {
            for a in 0..p {
                xty[a] += row[a] * y;
                for b in 0..p {
                    xtx[a][b] += row[a] * row[b];
                }
            }
        }
        let (inv, dep) = pinv_sym(xtx.clone());
        // Estimable coefficients: row s of H = G·XᵀX is e_s (the same for
        // every generalised inverse G; for those the estimate and its
        // variance do not depend on which one).
        let estimable: Vec<bool> = (0..p)
            .map(|s| {
                (0..p).all(|j| {
                    let h: f64 = (0..p).map(|k| inv[s][k] * xtx[k][j]).sum();
                    (h - if j == s { 1.0 } else { 0.0 }).abs() < 1e-6
                })
            })
            .collect();
        let beta: Vec<f64> = (0..p)
            .map(|a| (0..p).map(|b| inv[a][b] * xty[b]).sum())
            .collect();
        let rank = dep.iter().filter(|d| !**d).count();
        let df = kn as f64 - rank as f64;
        let sse: f64 = x
            .iter()
            .zip(&obs)
            .map(|(row, (_, y))| {
                let fit: f64 = row.iter().zip(&beta).map(|(a, b)| a * b).sum();
                (y - fit).powi(2)
            })
            .sum();
        let t = if df >= 1.0 { t975(df) } else { f64::NAN };
        let sigma2 = if df >= 1.0 { sse / df } else { f64::NAN };
        let mut mine = Vec::new();
        for (ci, card) in cards.iter().enumerate() {
            let (w, wo) = counts[ci];
            if w == 0 || wo == 0 {
                continue;
            }
            let slot = model.iter().position(|&m| m == ci).map(|m| m + 1);
            let e = match slot {
                Some(s) if estimable[s] && df >= 1.0 => {
                    let se = (sigma2 * inv[s][s]).max(0.0).sqrt();
                    AdjustedEffect {
                        strategy: i,
                        card: (*card).clone(),
                        with: w,
                        without: wo,
                        raw: raw(ci),
                        effect: beta[s],
                        lo: beta[s] - t * se,
                        hi: beta[s] + t * se,
                        estimated: true,
                    }
                }
                _ => AdjustedEffect {
                    strategy: i,
                    card: (*card).clone(),
                    with: w,
                    without: wo,
                    raw: raw(ci),
                    effect: f64::NAN,
                    lo: f64::NAN,
                    hi: f64::NAN,
                    estimated: false,
                },
            };
            if e.estimated {
                mine.push(e);
            } else {
                rest.push(e);
            }
        }
        mine.sort_by(|a, b| {
            b.effect
                .total_cmp(&a.effect)
                .then_with(|| a.card.cmp(&b.card))
        });
        out.extend(mine);
    }
    out.extend(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dominion::matches::EntrantStats;

    /// A kingdom where strategy 0 scores `s0` against strategy 1 over 1000 games.
    fn kingdom(index: u64, cards: &[&str], s0: f64) -> SweepKingdom {
        let g = 1000u64;
        let w = (s0 * g as f64).round() as u64;
        let a = EntrantStats {
            games: g,
            wins: w,
            losses: g - w,
            ..Default::default()
        };
        let b = EntrantStats {
            games: g,
            wins: g - w,
            losses: w,
            ..Default::default()
        };
        SweepKingdom {
            index,
            cards: cards.iter().map(|s| s.to_string()).collect(),
            cells: vec![vec![None, Some(a)], vec![Some(b), None]],
            ignored: vec![u32::from(index.is_multiple_of(5)), 0],
        }
    }

    /// Witch is worth +20 points to strategy 0 and Laboratory nothing, but
    /// Laboratory comes with Witch in most kingdoms: the raw difference
    /// credits Laboratory with about +12, the adjusted effect finds ~0 with
    /// an interval that covers it, and Witch's +20. A card in two kingdoms
    /// is reported, not estimated.
    #[test]
    fn a_confounded_card_gets_its_own_effect() {
        let mut ks = Vec::new();
        let mut h = 7u64;
        for i in 0..60u64 {
            h = h
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let witch = i % 2 == 0;
            // Laboratory with Witch 5 times in 6, without her 1 in 6.
            let lab = if witch { i % 12 != 0 } else { i % 6 == 1 };
            let moat = (h >> 33).is_multiple_of(2);
            let mut cards = vec!["Village"];
            if witch {
                cards.push("Witch");
            }
            if lab {
                cards.push("Laboratory");
            }
            if moat {
                cards.push("Moat");
            }
            if i == 3 || i == 9 {
                cards.push("Chapel");
            }
            let noise = ((h >> 40) % 21) as f64 / 1000.0 - 0.01;
            let s = 0.4 + if witch { 0.2 } else { 0.0 } + noise;
            ks.push(kingdom(i, &cards, s));
        }
        let e = adjusted_effects(2, &ks, 5);
        let get = |s: usize, c: &str| e.iter().find(|x| x.strategy == s && x.card == c).unwrap();
        let lab = get(0, "Laboratory");
        assert!(lab.raw > 0.08, "{lab:?}");
        assert!(lab.estimated && lab.effect.abs() < 0.01, "{lab:?}");
        assert!(lab.lo < 0.0 && lab.hi > 0.0, "{lab:?}");
        let witch = get(0, "Witch");
        assert!(
            (witch.effect - 0.2).abs() < 0.01 && witch.lo < 0.2 && witch.hi > 0.2,
            "{witch:?}"
        );
        assert_eq!((witch.with, witch.without), (30, 30));
        let chapel = get(0, "Chapel");
        assert!(!chapel.estimated && chapel.effect.is_nan());
        assert_eq!((chapel.with, chapel.without), (2, 58));
        // Village is in every kingdom: no effect to report.
        assert!(e.iter().all(|x| x.card != "Village"));
        // Strategy 1 mirrors strategy 0.
        assert!((get(1, "Witch").effect + 0.2).abs() < 0.01);
        // Not-estimated effects come after every estimated one.
        let first_rest = e.iter().position(|x| !x.estimated).unwrap();
        assert!(e[first_rest..].iter().all(|x| !x.estimated));
        assert_eq!(reduced_kingdoms(2, &ks), vec![(12, 60), (0, 60)]);
    }

    /// Two cards that always come together cannot be told apart: neither
    /// is estimated. Too few kingdoms for the model: nothing is.
    #[test]
    fn inseparable_cards_and_tiny_sweeps_are_not_estimated() {
        let mut ks = Vec::new();
        for i in 0..20u64 {
            let both = i % 2 == 0;
            let cards: &[&str] = if both {
                &["Witch", "Moat"]
            } else {
                &["Village"]
            };
            ks.push(kingdom(i, cards, if both { 0.6 } else { 0.4 }));
        }
        let e = adjusted_effects(1, &ks, 3);
        // Witch = Moat and Village = 1 − Witch: none can be told apart.
        assert_eq!(e.len(), 3);
        assert!(e.iter().all(|x| !x.estimated), "{e:?}");
        let tiny = adjusted_effects(1, &ks[..2], 1);
        assert!(tiny.iter().all(|x| !x.estimated), "{tiny:?}");
    }

    #[test]
    fn t_quantiles_match_tables() {
        for (df, want) in [
            (3.0, 3.182),
            (5.0, 2.571),
            (10.0, 2.228),
            (30.0, 2.042),
            (120.0, 1.980),
        ] {
            assert!((t975(df) - want).abs() < 0.01, "{df}: {}", t975(df));
        }
    }
}
