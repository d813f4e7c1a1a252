//! Everything `rank` can say about a 2-player field, in one call, for the
//! console, CSV and HTML outputs: the Bradley–Terry ratings with their
//! residuals, goodness of fit, cycles and tiers ([`super::field`]), the
//! maximum-entropy Nash mixture ([`super::nash`]) and α-Rank
//! ([`super::alpharank`]); and the `--model` that orders a leaderboard.

use super::alpharank::{self, DEFAULT_ALPHA, DEFAULT_POPULATION};
use super::field::{self, Cycle, Fit, PairFit};
use super::nash::{self, Nash};
use super::{fit, Rating, Results};
use anyhow::{anyhow, bail, Result};
use std::str::FromStr;

/// Which model orders the leaderboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Bradley–Terry rating (Elo scale).
    Bt,
    /// Nash averaging: payoff against the maximum-entropy Nash mixture.
    Nash,
    /// α-Rank stationary mass.
    AlphaRank,
}

impl FromStr for Model {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Model> {
        match s.to_ascii_lowercase().as_str() {
            "bt" | "bradley-terry" => Ok(Model::Bt),
            "nash" => Ok(Model::Nash),
            "alpharank" | "alpha-rank" => Ok(Model::AlphaRank),
            _ => Err(anyhow!(
                "unknown rating model '{s}': expected bt, nash or alpharank"
            )),
        }
    }
}

/// The whole analysis of a field.
#[derive(Clone, Debug)]
pub struct FieldReport {
    pub ratings: Vec<Rating>,
    /// Every pair that played, against the BT prediction.
    pub pairs: Vec<PairFit>,
    pub fit: Fit,
    pub cycles: Vec<Cycle>,
    /// Tiers (strongly connected components), best first.
    pub components: Vec<Vec<usize>>,
    pub nash: Nash,
    /// α-Rank mass, at [`DEFAULT_ALPHA`] and [`DEFAULT_POPULATION`].
    pub alpharank: Vec<f64>,
}

impl FieldReport {
    /// Bots best first by `model` (ties by index).
    pub fn order(&self, model: Model) -> Vec<usize> {
        match model {
            Model::Bt => {
                let mut o: Vec<usize> = (0..self.ratings.len()).collect();
                o.sort_by(|&a, &b| {
                    self.ratings[b]
                        .rating
                        .total_cmp(&self.ratings[a].rating)
                        .then(a.cmp(&b))
                });
                o
            }
            Model::Nash => self.nash.order(),
            Model::AlphaRank => alpharank::order(&self.alpharank),
        }
    }

    /// Each bot's tier (index into [`FieldReport::components`]).
    pub fn tier(&self) -> Vec<usize> {
        let mut t = vec![0; self.ratings.len()];
        for (k, c) in self.components.iter().enumerate() {
            for &i in c {
                t[i] = k;
            }
        }
        t
    }
}

/// Analyse a field's head-to-head results (square, at least one bot).
pub fn analyse(r: &Results) -> Result<FieldReport> {
    let n = r.games.len();
    if n == 0 {
        bail!("the field is empty");
    }
    if r.score.len() != n || r.games.iter().chain(&r.score).any(|row| row.len() != n) {
        bail!("the results are not a square {n}×{n} table");
    }
    let ratings = fit(r);
    let pairs = field::residuals(r, &ratings);
    let gof = field::goodness_of_fit(&pairs, n);
    let a = nash::payoff_matrix(r);
    Ok(FieldReport {
        cycles: field::cycles(r),
        components: field::components(r),
        nash: nash::maxent_nash(&a)?,
        alpharank: alpharank::alpharank(&a, DEFAULT_ALPHA, DEFAULT_POPULATION)?,
        ratings,
        pairs,
        fit: gof,
    })
}

/// Header of [`models_csv`].
pub const MODEL_COLUMNS: [&str; 9] = [
    "strategy",
    "bt_rating",
    "bt_ci95",
    "score",
    "nash_weight",
    "nash_payoff",
    "alpharank_mass",
    "tier",
    "misfit_pairs",
];

/// One row per bot, in `model` order: both models side by side.
pub fn models_csv(rep: &FieldReport, names: &[String], model: Model) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(MODEL_COLUMNS)?;
    let tier = rep.tier();
    for i in rep.order(model) {
        let misfits = rep
            .pairs
            .iter()
            .filter(|p| p.misfit && (p.a == i || p.b == i))
            .count();
        w.write_record([
            names[i].clone(),
            format!("{:.1}", rep.ratings[i].rating),
            format!("{:.1}", rep.ratings[i].ci95),
            format!("{:.6}", rep.ratings[i].score),
            format!("{:.6}", rep.nash.weights[i]),
            format!("{:.6}", rep.nash.payoff[i]),
            format!("{:.6}", rep.alpharank[i]),
            (tier[i] + 1).to_string(),
            misfits.to_string(),
        ])?;
    }
    w.into_inner().map_err(|e| anyhow!("{e}"))
}

/// Header of [`pairs_csv`].
pub const PAIR_COLUMNS: [&str; 13] = [
    "strategy",
    "opponent",
    "games",
    "score",
    "score_lo",
    "score_hi",
    "bt_predicted",
    "residual",
    "residual_lo",
    "residual_hi",
    "z",
    "p_value",
    "misfit",
];

/// One row per pair that played: the direct result against the BT
/// prediction.
pub fn pairs_csv(rep: &FieldReport, names: &[String]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(PAIR_COLUMNS)?;
    for row in pair_rows(rep, names) {
        w.write_record(row)?;
    }
    w.into_inner().map_err(|e| anyhow!("{e}"))
}

/// The rows of [`pairs_csv`] (its [`PAIR_COLUMNS`]), one per pair that played.
pub fn pair_rows(rep: &FieldReport, names: &[String]) -> Vec<Vec<String>> {
    rep.pairs
        .iter()
        .map(|p| {
            let (lo, hi) = p.residual_interval();
            vec![
                names[p.a].clone(),
                names[p.b].clone(),
                format!("{}", p.games),
                format!("{:.6}", p.direct),
                format!("{:.6}", p.lo),
                format!("{:.6}", p.hi),
                format!("{:.6}", p.predicted),
                format!("{:.6}", p.residual),
                format!("{lo:.6}"),
                format!("{hi:.6}"),
                format!("{:.3}", p.z),
                format!("{:.3e}", p.p_value),
                u8::from(p.misfit).to_string(),
            ]
        })
        .collect()
}

/// The console summary: fit, the worst misfits, the cycles and the Nash
/// support (at most `top` lines of each list).
pub fn summary_text(rep: &FieldReport, names: &[String], top: usize) -> String {
    let mut s = fit_text(rep, names, top);
    s.push_str(&nash_text(rep, names, top));
    s
}

/// The Bradley–Terry part of [`summary_text`]: the fit, the worst misfits
/// (with their intervals) and the cycles.
pub fn fit_text(rep: &FieldReport, names: &[String], top: usize) -> String {
    let f = &rep.fit;
    let p = |x: Option<f64>| {
        x.map_or("-".into(), |v| {
            if v < 1e-3 {
                format!("{v:.1e}")
            } else {
                format!("{v:.3}")
            }
        })
    };
    let mut s = format!(
        "Bradley–Terry fit: RMS residual {:.1} points (game-weighted {:.1}), largest {:.1}; chi-square {:.1} on {} df (p {}), deviance {:.1} (p {}); {} of {} pairs off beyond error (Holm, 5%)\n",
        100.0 * f.rms,
        100.0 * f.rms_weighted,
        100.0 * f.max_abs,
        f.chi2,
        f.df,
        p(f.chi2_p),
        f.deviance,
        p(f.deviance_p),
        f.misfits,
        f.pairs
    );
    let mut worst: Vec<&PairFit> = rep.pairs.iter().filter(|x| x.misfit).collect();
    worst.sort_by(|a, b| b.residual.abs().total_cmp(&a.residual.abs()));
    for x in worst.iter().take(top) {
        let (lo, hi) = x.residual_interval();
        s.push_str(&format!(
            "  {} vs {}: {:.1}% direct, {:.1}% predicted ({:+.1} points [{:+.1}, {:+.1}])\n",
            names[x.a],
            names[x.b],
            100.0 * x.direct,
            100.0 * x.predicted,
            100.0 * x.residual,
            100.0 * lo,
            100.0 * hi
        ));
    }
    if worst.len() > top {
        s.push_str(&format!(
            "  … and {} more (rank --pairs writes every pair)\n",
            worst.len() - top
        ));
    }
    s.push_str(&format!(
        "cycles (each result significant): {}\n",
        rep.cycles.len()
    ));
    for c in rep.cycles.iter().take(top) {
        let [a, b, d] = c.bots;
        s.push_str(&format!(
            "  {} > {} ({:.1}%) > {} ({:.1}%) > {} ({:.1}%)\n",
            names[a],
            names[b],
            100.0 * c.rates[0],
            names[d],
            100.0 * c.rates[1],
            names[a],
            100.0 * c.rates[2]
        ));
    }
    if rep.cycles.len() > top {
        s.push_str(&format!("  … and {} more\n", rep.cycles.len() - top));
    }
    s
}

/// The game-theoretic part of [`summary_text`]: the Nash mixture's
/// support with its weights.
pub fn nash_text(rep: &FieldReport, names: &[String], top: usize) -> String {
    let mut s = String::new();
    let mut support: Vec<usize> = rep.nash.support.clone();
    support.sort_by(|&a, &b| {
        rep.nash.weights[b]
            .total_cmp(&rep.nash.weights[a])
            .then(a.cmp(&b))
    });
    s.push_str("Nash mixture (maximum entropy):");
    for &i in support.iter().take(top) {
        s.push_str(&format!(
            " {} {:.1}%",
            names[i],
            100.0 * rep.nash.weights[i]
        ));
    }
    s.push('\n');
    s
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;

    fn rps_plus_weak() -> Results {
        let rates: [&[f64]; 4] = [
            &[0.0, 0.8, 0.2, 0.9],
            &[0.0, 0.0, 0.8, 0.9],
            &[0.0, 0.0, 0.0, 0.9],
            &[0.0; 4],
        ];
        let n = 2000.0;
        let mut r = Results {
            games: vec![vec![0.0; 4]; 4],
            score: vec![vec![0.0; 4]; 4],
        };
        for i in 0..4 {
            for j in i + 1..4 {
                r.games[i][j] = n;
                r.games[j][i] = n;
                r.score[i][j] = rates[i][j] * n;
                r.score[j][i] = (1.0 - rates[i][j]) * n;
            }
        }
        r
    }

    #[test]
    fn the_report_flags_the_cycle_and_orders_by_each_model() {
        let rep = analyse(&rps_plus_weak()).unwrap();
        let names: Vec<String> = ["Rock", "Paper", "Scissors", "Weak"]
            .map(String::from)
            .to_vec();
        assert_eq!(rep.cycles.len(), 1);
        assert_eq!(rep.components, vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(rep.tier(), vec![0, 0, 0, 1]);
        for m in [Model::Bt, Model::Nash, Model::AlphaRank] {
            assert_eq!(rep.order(m)[3], 3, "{m:?}");
        }
        for w in &rep.nash.weights[..3] {
            assert!((w - 1.0 / 3.0).abs() < 1e-7);
        }
        let text = summary_text(&rep, &names, 5);
        assert!(text.contains("3 of 6 pairs off beyond error"), "{text}");
        assert!(
            text.contains("Rock > Paper (80.0%) > Scissors (80.0%) > Rock (80.0%)"),
            "{text}"
        );
        assert!(
            text.contains("Nash mixture (maximum entropy): Rock 33.3% Paper 33.3% Scissors 33.3%"),
            "{text}"
        );
        let csv = String::from_utf8(models_csv(&rep, &names, Model::Nash).unwrap()).unwrap();
        assert!(csv.starts_with("strategy,bt_rating,bt_ci95,score,nash_weight,nash_payoff,alpharank_mass,tier,misfit_pairs\n"));
        assert!(csv.lines().last().unwrap().starts_with("Weak,"), "{csv}");
        assert!(
            csv.contains("Rock,") && csv.lines().nth(1).unwrap().ends_with(",1,2"),
            "{csv}"
        );
        let pairs = String::from_utf8(pairs_csv(&rep, &names).unwrap()).unwrap();
        assert_eq!(pairs.lines().count(), 7);
        assert!(
            pairs
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("Rock,Paper,2000,0.800000,"),
            "{pairs}"
        );
        assert!(pairs.lines().nth(1).unwrap().ends_with(",1"), "misfit");
    }

    #[test]
    fn models_parse_and_bad_input_is_an_error() {
        assert_eq!("BT".parse::<Model>().unwrap(), Model::Bt);
        assert_eq!("nash".parse::<Model>().unwrap(), Model::Nash);
        assert_eq!("alpharank".parse::<Model>().unwrap(), Model::AlphaRank);
        let e = "elo".parse::<Model>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown rating model 'elo': expected bt, nash or alpharank"
        );
        let bad = Results {
            games: vec![vec![0.0; 2]; 2],
            score: vec![vec![0.0; 1]; 2],
        };
        assert!(analyse(&bad).unwrap_err().to_string().contains("square"));
        let empty = Results {
            games: vec![],
            score: vec![],
        };
        assert!(analyse(&empty).is_err());
    }
}
