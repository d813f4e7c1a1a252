//! The field, not one opponent: policy-space response oracles (PSRO,
//! Lanctot et al., "A Unified Game-Theoretic Approach to Multiagent
//! Reinforcement Learning", NeurIPS 2017) over a population of bots, and
//! the robustness gate that decides whether a found bot may be called the
//! best of its field.
//!
//! Both are game-independent: they see bots as indices and results as the
//! head-to-head [`Results`] of [`crate::rank`]; what plays the games and
//! searches a best response is an [`Oracle`] (for Dominion, a template
//! search against the mixture, [`super::search`] with per-opponent
//! weights).
//!
//! **PSRO** ([`psro`]): the population starts as the given field. Each
//! iteration computes the maximum-entropy Nash mixture of the population's
//! meta-game ([`crate::rank::nash`]), asks the oracle for a best response
//! to that mixture, plays it against every member, and stops when its
//! payoff against the mixture does not exceed ½ by more than `min_gain`
//! (the mixture is no longer exploitable by what the oracle can find) or
//! the budget of iterations ends; else it joins the population.
//!
//! **The gate** ([`judge`]): a candidate, with its results against every
//! field member on fresh seeds and the field's own matrix. It reports the
//! candidate's score against each member (with its 95% interval), its
//! payoff against the field's Nash mixture, its Nash-averaged payoff and
//! rank in the field plus itself, and a [`Verdict`]:
//!
//! * [`Verdict::Best`] — its payoff against the field's Nash mixture is at
//!   least ½, it carries weight in the Nash mixture of the field plus
//!   itself (so no bot of the field does better against that mixture), and
//!   no member beats it beyond error (the 95% interval of its score
//!   against that member is below ½);
//! * [`Verdict::BestInCycle`] — the first two hold but some members beat
//!   it: the field is cyclic around it; the report names them and the
//!   3-cycles through the candidate that explain it;
//! * [`Verdict::NotBest`] — otherwise: the gate returns the field's best
//!   bot instead (first of the field by Nash averaging) and says so.
//!
//! A bot is never called best on its search games: the gate's results
//! must come from seeds the search did not use.

// Matrix code: indices name rows and columns, as in the formulas.
#![allow(clippy::needless_range_loop)]

use crate::rank::field::{beats, Cycle};
use crate::rank::nash::{maxent_nash, payoff_matrix, Nash};
use crate::rank::Results;
use crate::sim::wilson;
use anyhow::{bail, Result};

/// Tolerance on payoffs (score rate) for "carries weight" and "at least ½".
const TOL: f64 = 1e-6;

/// The candidate against one field member.
#[derive(Clone, Debug, PartialEq)]
pub struct Versus {
    pub member: usize,
    pub games: f64,
    /// The candidate's score rate against the member, and its 95% interval.
    pub score: f64,
    pub lo: f64,
    pub hi: f64,
}

/// What the gate decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Best,
    /// Best by Nash averaging, but these members beat it beyond error, in
    /// these 3-cycles through the candidate.
    BestInCycle {
        beaten_by: Vec<usize>,
        cycles: Vec<Cycle>,
    },
    /// Not the best: `reason` says why; the field's best (`returned`) is
    /// returned instead.
    NotBest {
        reason: String,
    },
}

/// The gate's report. Indices `0..n` are the field's members, `n` the
/// candidate.
#[derive(Clone, Debug)]
pub struct Gate {
    pub vs: Vec<Versus>,
    /// The field's own maximum-entropy Nash mixture (without the candidate).
    pub field_nash: Nash,
    /// The candidate's score against that mixture.
    pub payoff_vs_field_nash: f64,
    /// The Nash mixture of the field plus the candidate.
    pub nash: Nash,
    /// The candidate's rank (1 = first) by Nash-averaged payoff in the
    /// field plus itself; bots that carry weight share rank 1.
    pub rank: usize,
    pub verdict: Verdict,
    /// The bot to return as the best: `n` (the candidate) unless
    /// [`Verdict::NotBest`], then the field's best member.
    pub returned: usize,
}

/// The field plus a candidate as one [`Results`]: `field` is `n × n`,
/// `vs[j]` the candidate's `(games, score)` against member `j`.
pub fn with_candidate(field: &Results, vs: &[(f64, f64)]) -> Results {
    let n = field.games.len();
    let mut r = Results {
        games: vec![vec![0.0; n + 1]; n + 1],
        score: vec![vec![0.0; n + 1]; n + 1],
    };
    for i in 0..n {
        for j in 0..n {
            r.games[i][j] = field.games[i][j];
            r.score[i][j] = field.score[i][j];
        }
    }
    for (j, &(g, s)) in vs.iter().enumerate() {
        r.games[n][j] = g;
        r.games[j][n] = g;
        r.score[n][j] = s;
        r.score[j][n] = g - s;
    }
    r
}

/// Rank of bot `i` by Nash-averaged payoff: 1 + the bots with a payoff
/// higher by more than [`TOL`].
fn nash_rank(n: &Nash, i: usize) -> usize {
    1 + n.payoff.iter().filter(|&&p| p > n.payoff[i] + TOL).count()
}

/// The robustness gate (see the module documentation). `field` holds the
/// members' results among themselves (`n × n`, at least one member);
/// `vs[j]` is the candidate's `(games, score)` against member `j`, played
/// on fresh seeds.
pub fn judge(field: &Results, vs: &[(f64, f64)]) -> Result<Gate> {
    let n = field.games.len();
    if n == 0 {
        bail!("the gate needs a field of at least one bot");
    }
    if vs.len() != n {
        bail!(
            "the gate has the candidate's results against {} bots for a field of {n}",
            vs.len()
        );
    }
    if let Some(j) = vs
        .iter()
        .position(|&(g, s)| g.is_nan() || g <= 0.0 || !(0.0..=g).contains(&s))
    {
        bail!("the candidate has no valid result against field member {j}");
    }
    let field_nash = maxent_nash(&payoff_matrix(field))?;
    let all = with_candidate(field, vs);
    let nash = maxent_nash(&payoff_matrix(&all))?;
    let versus: Vec<Versus> = vs
        .iter()
        .enumerate()
        .map(|(j, &(g, s))| {
            let (lo, hi) = wilson(s, g.round().max(1.0) as u64);
            Versus {
                member: j,
                games: g,
                score: s / g,
                lo,
                hi,
            }
        })
        .collect();
    let payoff_vs_field_nash: f64 = versus
        .iter()
        .map(|v| v.score * field_nash.weights[v.member])
        .sum();
    let rank = nash_rank(&nash, n);
    let beaten_by: Vec<usize> = versus
        .iter()
        .filter(|v| v.hi < 0.5)
        .map(|v| v.member)
        .collect();
    let field_best = field_nash.order()[0];
    let verdict = if payoff_vs_field_nash + TOL < 0.5 {
        Verdict::NotBest {
            reason: format!(
                "its score against the field's Nash mixture is {:.1}%, below 50%",
                100.0 * payoff_vs_field_nash
            ),
        }
    } else if rank > 1 {
        Verdict::NotBest {
            reason: format!(
                "it ranks {rank} by Nash averaging in the field plus itself (payoff {:.1}% against the mixture, the first has {:.1}%)",
                100.0 * nash.payoff[n],
                100.0 * nash.payoff.iter().copied().fold(f64::MIN, f64::max)
            ),
        }
    } else if beaten_by.is_empty() {
        Verdict::Best
    } else {
        let cycles = cycles_through(&all, n, &beaten_by);
        Verdict::BestInCycle { beaten_by, cycles }
    };
    let returned = if matches!(verdict, Verdict::NotBest { .. }) {
        field_best
    } else {
        n
    };
    Ok(Gate {
        vs: versus,
        field_nash,
        payoff_vs_field_nash,
        nash,
        rank,
        verdict,
        returned,
    })
}

/// The significant 3-cycles `c > y > x > c` through the candidate `c` with
/// `x` among `beaten_by` (each listed as `[c, y, x]`).
fn cycles_through(r: &Results, c: usize, beaten_by: &[usize]) -> Vec<Cycle> {
    let n = r.games.len();
    let rate = |a: usize, b: usize| r.score[a][b] / r.games[a][b].max(1e-300);
    let mut out = Vec::new();
    for &x in beaten_by {
        for y in 0..n {
            if y != c && y != x && beats(r, c, y) && beats(r, y, x) && beats(r, x, c) {
                out.push(Cycle {
                    bots: [c, y, x],
                    rates: [rate(c, y), rate(y, x), rate(x, c)],
                });
            }
        }
    }
    out.sort_by(|a, b| {
        b.weakest()
            .total_cmp(&a.weakest())
            .then(a.bots.cmp(&b.bots))
    });
    out
}

/// What PSRO needs from a game: best responses and head-to-head results.
pub trait Oracle {
    /// Search a best response to the mixture `weights` over the current
    /// population (`weights.len()` members); returns the new member's index
    /// (the next free one, `weights.len()`), or None when the search found
    /// nothing valid.
    fn best_response(&mut self, weights: &[f64]) -> Result<Option<usize>>;
    /// Member `a` against member `b`: `(games, a's score)`.
    fn play(&mut self, a: usize, b: usize) -> Result<(f64, f64)>;
}

/// The results of members `0..n` among themselves: every pair played
/// once through the oracle (`a < b`; the other side is its complement).
pub fn round_robin<O: Oracle>(oracle: &mut O, n: usize) -> Result<Results> {
    let mut r = Results {
        games: vec![vec![0.0; n]; n],
        score: vec![vec![0.0; n]; n],
    };
    for a in 0..n {
        for b in a + 1..n {
            let (g, s) = oracle.play(a, b)?;
            r.games[a][b] = g;
            r.games[b][a] = g;
            r.score[a][b] = s;
            r.score[b][a] = g - s;
        }
    }
    Ok(r)
}

/// One PSRO iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct PsroStep {
    /// Population size when the best response was asked for.
    pub population: usize,
    /// The new bot's payoff (score rate) against the population's mixture.
    pub payoff: f64,
    /// Whether it joined the population (it improved on the mixture).
    pub added: bool,
}

/// What PSRO ends with.
#[derive(Clone, Debug)]
pub struct Psro {
    /// The final population's results (members `0..initial` are the field).
    pub results: Results,
    /// Its maximum-entropy Nash mixture.
    pub nash: Nash,
    pub steps: Vec<PsroStep>,
    /// Why it stopped.
    pub stopped: String,
}

/// Run PSRO from a field of `initial ≥ 1` members (see the module
/// documentation): at most `iterations` best responses; stop when one
/// scores at most `½ + min_gain` against the mixture.
pub fn psro<O: Oracle>(
    oracle: &mut O,
    initial: usize,
    iterations: usize,
    min_gain: f64,
) -> Result<Psro> {
    if initial == 0 {
        bail!("PSRO needs a field of at least one bot");
    }
    let mut r = round_robin(oracle, initial)?;
    let mut steps = Vec::new();
    let mut stopped = format!("budget of {iterations} best responses used");
    for _ in 0..iterations {
        let nash = maxent_nash(&payoff_matrix(&r))?;
        let n = r.games.len();
        let Some(new) = oracle.best_response(&nash.weights)? else {
            stopped = "the oracle found no valid best response".into();
            break;
        };
        if new != n {
            bail!("the oracle returned member {new}; the next one is {n}");
        }
        let vs: Vec<(f64, f64)> = (0..n).map(|j| oracle.play(new, j)).collect::<Result<_>>()?;
        let payoff: f64 = vs
            .iter()
            .zip(&nash.weights)
            .map(|(&(g, s), w)| w * s / g.max(1e-300))
            .sum();
        let added = payoff > 0.5 + min_gain;
        steps.push(PsroStep {
            population: n,
            payoff,
            added,
        });
        if !added {
            stopped = format!(
                "the best response scores {:.1}% against the mixture: no gain beyond {:.1} points",
                100.0 * payoff,
                100.0 * min_gain
            );
            break;
        }
        r = with_candidate(&r, &vs);
    }
    let nash = maxent_nash(&payoff_matrix(&r))?;
    Ok(Psro {
        results: r,
        nash,
        steps,
        stopped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field from exact rates (`rates[i][j]`, i < j) at `n` games a pair.
    fn field(rates: &[&[f64]], n: f64) -> Results {
        let k = rates.len();
        let mut r = Results {
            games: vec![vec![0.0; k]; k],
            score: vec![vec![0.0; k]; k],
        };
        for i in 0..k {
            for j in i + 1..k {
                r.games[i][j] = n;
                r.games[j][i] = n;
                r.score[i][j] = rates[i][j] * n;
                r.score[j][i] = (1.0 - rates[i][j]) * n;
            }
        }
        r
    }

    fn transitive() -> Results {
        // 0 > 1 > 2, transitive.
        field(&[&[0.0, 0.6, 0.7], &[0.0, 0.0, 0.6], &[0.0; 3]], 10_000.0)
    }

    /// A candidate that beats the weaker members hugely but loses to the
    /// top one is not called best, and the top member is returned.
    #[test]
    fn the_gate_refuses_a_losing_bot() {
        let f = transitive();
        let g = judge(
            &f,
            &[
                (10_000.0, 4_500.0),
                (10_000.0, 9_000.0),
                (10_000.0, 9_500.0),
            ],
        )
        .unwrap();
        assert!(
            matches!(g.verdict, Verdict::NotBest { .. }),
            "{:?}",
            g.verdict
        );
        assert_eq!(g.returned, 0, "the field's best");
        assert!((g.payoff_vs_field_nash - 0.45).abs() < 1e-9);
        assert!(g.rank > 1);
        let Verdict::NotBest { reason } = &g.verdict else {
            unreachable!()
        };
        assert!(reason.contains("45.0%"), "{reason}");
        // Its mean score over the field is 76%: a one-opponent or mean
        // objective would have called it best.
        let mean: f64 = g.vs.iter().map(|v| v.score).sum::<f64>() / 3.0;
        assert!(mean > 0.75);
    }

    #[test]
    fn the_gate_accepts_a_bot_that_beats_everyone() {
        let g = judge(
            &transitive(),
            &[
                (10_000.0, 5_600.0),
                (10_000.0, 6_500.0),
                (10_000.0, 7_500.0),
            ],
        )
        .unwrap();
        assert_eq!(g.verdict, Verdict::Best);
        assert_eq!((g.returned, g.rank), (3, 1));
        assert!((g.nash.weights[3] - 1.0).abs() < 1e-9);
        assert!(g.vs.iter().all(|v| v.lo > 0.5));
    }

    /// A candidate that beats the top bot but loses to the second, which
    /// the top bot beats: a cycle. It carries weight in the Nash mixture of
    /// the field plus itself; the gate says it is best by Nash averaging but
    /// names the member that beats it and the cycle.
    #[test]
    fn the_gate_names_the_cycle() {
        let g = judge(
            &transitive(),
            &[
                (10_000.0, 6_500.0),
                (10_000.0, 4_000.0),
                (10_000.0, 8_000.0),
            ],
        )
        .unwrap();
        let Verdict::BestInCycle { beaten_by, cycles } = &g.verdict else {
            panic!("{:?}", g.verdict)
        };
        assert_eq!(beaten_by, &vec![1]);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].bots, [3, 0, 1]);
        assert_eq!(g.returned, 3);
        assert!(
            g.nash.weights[3] > 0.1 && g.nash.weights[1] > 0.1,
            "{:?}",
            g.nash
        );
    }

    #[test]
    fn the_gate_checks_its_input() {
        let f = transitive();
        assert!(judge(&f, &[(1.0, 1.0)])
            .unwrap_err()
            .to_string()
            .contains("against 1 bots"));
        assert!(judge(&f, &[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0)])
            .unwrap_err()
            .to_string()
            .contains("member 0"));
    }

    /// Rock, paper, scissors as an oracle: from {Rock}, the best response
    /// to the mixture is Paper, then Scissors (against Rock+Paper's mixture,
    /// pure Paper); then no fourth strategy improves on the uniform
    /// mixture, and PSRO stops with it.
    struct Rps {
        /// Members' strategies (0 rock, 1 paper, 2 scissors).
        pop: Vec<usize>,
    }
    impl Rps {
        fn rate(a: usize, b: usize) -> f64 {
            if a == b {
                0.5
            } else if (a + 3 - b) % 3 == 1 {
                0.9
            } else {
                0.1
            }
        }
    }
    impl Oracle for Rps {
        fn best_response(&mut self, w: &[f64]) -> Result<Option<usize>> {
            let best = (0..3)
                .max_by(|&x, &y| {
                    let s = |k: usize| -> f64 {
                        self.pop
                            .iter()
                            .zip(w)
                            .map(|(&m, w)| w * Rps::rate(k, m))
                            .sum()
                    };
                    s(x).total_cmp(&s(y)).then(y.cmp(&x))
                })
                .unwrap();
            self.pop.push(best);
            Ok(Some(self.pop.len() - 1))
        }
        fn play(&mut self, a: usize, b: usize) -> Result<(f64, f64)> {
            Ok((1000.0, 1000.0 * Rps::rate(self.pop[a], self.pop[b])))
        }
    }

    #[test]
    fn psro_finds_the_cycle_and_stops() {
        let mut o = Rps { pop: vec![0] };
        let p = psro(&mut o, 1, 10, 0.01).unwrap();
        assert_eq!(o.pop[..3], [0, 1, 2]);
        assert_eq!(p.results.games.len(), 3);
        assert_eq!(p.steps.iter().filter(|s| s.added).count(), 2);
        assert!(!p.steps.last().unwrap().added);
        assert!((p.steps.last().unwrap().payoff - 0.5).abs() < 1e-9);
        for w in &p.nash.weights {
            assert!((w - 1.0 / 3.0).abs() < 1e-7, "{:?}", p.nash);
        }
        assert!(p.stopped.contains("no gain"), "{}", p.stopped);
        let short = psro(&mut Rps { pop: vec![0] }, 1, 1, 0.01).unwrap();
        assert!(short.stopped.contains("budget"));
    }
}
