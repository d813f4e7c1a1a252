//! The strategies of a run: loading them (strategy files, `builtin:NAME`
//! for the hand-coded bots, or `search[:OPTIONS]` for the search bot),
//! compiling them for a kingdom, and the bots of one game for a given seat
//! order.
//!
//! The search bot's entry (see [`SEARCH_HELP`]): `search`, or
//! `search:budget=400,rollout=strategies/x.dom,c=0.7,margin=0.05` (options
//! in any order, each at most once).

use crate::bots::BigMoney;
use crate::cards::Card;
use crate::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo, MAX_PLAYERS};
use crate::report::EntrantInfo;
use crate::search::{self, SearchBot, SearchConfig};
use crate::strategy::{self, Compiled, Strategy, StrategyBots};
use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};

/// Built-in strategies, usable as `builtin:NAME` instead of a file.
pub const BUILTINS: [&str; 1] = ["big-money"];

/// One strategy, loaded (kingdom-independent).
#[derive(Clone, Debug)]
pub enum Loaded {
    /// The hand-coded [`BigMoney`] bot.
    BigMoney,
    File(Box<Strategy>),
    /// The search bot (`crate::search`) with its rollout strategy.
    Search(Box<SearchSpec>),
}

/// A search bot entry: its settings and its rollout policy.
#[derive(Clone, Debug)]
pub struct SearchSpec {
    pub cfg: SearchConfig,
    pub rollout: Strategy,
    /// Whether the entry names its budget (`budget=N`): a run-wide budget
    /// ([`Lineup::set_search_budget`]) does not override it.
    pub budget_given: bool,
}

/// The options of a `search` entry, for error messages and help.
pub const SEARCH_HELP: &str = "search options (search:NAME=VALUE,...): budget=N rollouts per decision (1 to 1000000; default 200), rollout=FILE the rollout strategy (default strategies/big_money_ultimate.dom), c=X UCB exploration (0 to 10; default 0.7), margin=X weight of the VP margin in a rollout's value (0 to 1; default 0.05)";

/// The rollout strategy a `search` entry uses when it names none.
pub const DEFAULT_ROLLOUT: &str = "big_money_ultimate.dom";

/// Parse a `search` or `search:OPTIONS` entry (None: `spec` is not one).
pub fn load_search(spec: &str) -> Option<Result<(EntrantInfo, Loaded)>> {
    let opts = if spec == "search" {
        ""
    } else {
        spec.strip_prefix("search:")?
    };
    Some(parse_search(spec, opts))
}

fn parse_search(spec: &str, opts: &str) -> Result<(EntrantInfo, Loaded)> {
    let mut cfg = SearchConfig::default();
    let mut rollout: Option<String> = None;
    let mut budget_given = false;
    let mut seen: Vec<&str> = Vec::new();
    for part in opts.split(',').filter(|p| !p.trim().is_empty()) {
        let Some((name, value)) = part.split_once('=') else {
            bail!("'{spec}': '{part}' is not NAME=VALUE; {SEARCH_HELP}");
        };
        let (name, value) = (name.trim(), value.trim());
        if seen.contains(&name) {
            bail!("'{spec}': option '{name}' is given twice");
        }
        seen.push(name);
        let number = |lo: f64, hi: f64| -> Result<f64> {
            match value.parse::<f64>() {
                Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
                _ => bail!("'{spec}': {name}={value} must be a number from {lo} to {hi}"),
            }
        };
        match name {
            "budget" => {
                budget_given = true;
                cfg.budget = match value.parse::<u32>() {
                    Ok(n) if (1..=1_000_000).contains(&n) => n,
                    _ => bail!(
                    "'{spec}': budget={value} must be a whole number of rollouts from 1 to 1000000"
                ),
                }
            }
            "rollout" => {
                if value.is_empty() {
                    bail!("'{spec}': rollout= needs a strategy file");
                }
                rollout = Some(value.to_string());
            }
            "c" => cfg.exploration = number(0.0, 10.0)?,
            "margin" => cfg.margin = number(0.0, 1.0)?,
            _ => bail!("'{spec}': unknown option '{name}'; {SEARCH_HELP}"),
        }
    }
    let path = match &rollout {
        Some(f) => PathBuf::from(f),
        None => shipped(DEFAULT_ROLLOUT).ok_or_else(|| {
            anyhow!("'{spec}': the default rollout strategy strategies/{DEFAULT_ROLLOUT} is not found: give rollout=FILE")
        })?,
    };
    let shown = rollout.unwrap_or_else(|| format!("strategies/{DEFAULT_ROLLOUT}"));
    if path.is_dir() {
        bail!("'{spec}': rollout strategy '{shown}' is a directory, not a strategy file");
    }
    if !path.exists() {
        bail!("'{spec}': rollout strategy file '{shown}' does not exist");
    }
    let st = strategy::load(&path).map_err(|e| anyhow!("{e}"))?;
    let info = EntrantInfo {
        name: search_name(cfg.budget, &st.name),
        source: spec.to_string(),
        hash: format!("{:016x}", st.source_hash),
    };
    let spec = SearchSpec {
        cfg,
        rollout: st,
        budget_given,
    };
    Ok((info, Loaded::Search(Box::new(spec))))
}

/// The name a search entrant gets in tables.
fn search_name(budget: u32, rollout: &str) -> String {
    format!("Search (budget {budget}, rollout {rollout})")
}

/// Load one strategy: a file, or `builtin:NAME`.
pub fn load(spec: &str) -> Result<(EntrantInfo, Loaded)> {
    if let Some(r) = load_search(spec) {
        return r;
    }
    if let Some(name) = spec.strip_prefix("builtin:") {
        return match crate::cards::normalize(name).as_str() {
            "bigmoney" => Ok((
                EntrantInfo {
                    name: "Big Money (built-in)".into(),
                    source: "builtin:big-money".into(),
                    hash: String::new(),
                },
                Loaded::BigMoney,
            )),
            _ => bail!(
                "unknown built-in strategy '{name}' (built-ins: {})",
                BUILTINS.join(", ")
            ),
        };
    }
    let path = Path::new(spec);
    if path.is_dir() {
        bail!("strategy '{spec}' is a directory, not a strategy file");
    }
    if !path.exists() {
        bail!("strategy file '{spec}' does not exist");
    }
    let st = strategy::load(path).map_err(|e| anyhow!("{e}"))?;
    Ok((
        EntrantInfo {
            name: st.name.clone(),
            source: spec.to_string(),
            hash: format!("{:016x}", st.source_hash),
        },
        Loaded::File(Box::new(st)),
    ))
}

/// Where the shipped strategies are: `strategies/` under the current
/// directory, else under the source tree this binary was built from.
pub fn shipped(file: &str) -> Option<PathBuf> {
    let here = Path::new("strategies").join(file);
    if here.is_file() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("strategies")
        .join(file);
    built.is_file().then_some(built)
}

/// The shipped strategy `strategies/FILE` (see [`shipped`]) parsed and
/// compiled for `k`: the one way benches and tests get a reference bot.
pub fn compile_shipped(file: &str, k: &Kingdom) -> Result<Compiled> {
    let path =
        shipped(file).ok_or_else(|| anyhow!("shipped strategy strategies/{file} not found"))?;
    let st = strategy::load(&path).map_err(|e| anyhow!("{e}"))?;
    Ok(st.compile(k).map_err(|e| anyhow!("{e}"))?.0)
}

/// The strategies of a run, one per entrant, loaded.
#[derive(Clone, Debug)]
pub struct Lineup {
    pub entrants: Vec<(EntrantInfo, Loaded)>,
}

impl Lineup {
    pub fn load(specs: &[String]) -> Result<Lineup> {
        let entrants = specs.iter().map(|s| load(s)).collect::<Result<Vec<_>>>()?;
        let mut l = Lineup { entrants };
        l.uniquify();
        Ok(l)
    }

    /// A lineup of strategies loaded another way than from specs (typed in
    /// the page of `domsim serve`), named as [`Lineup::load`] names them.
    pub fn from_entrants(entrants: Vec<(EntrantInfo, Loaded)>) -> Lineup {
        let mut l = Lineup { entrants };
        l.uniquify();
        l
    }

    /// Give every search entrant that does not name its own budget this
    /// one (a run-wide `--search-budget N`), renaming it to match; returns
    /// how many changed. Call before the lineup is compiled.
    pub fn set_search_budget(&mut self, budget: u32) -> usize {
        let mut changed = 0;
        for (info, l) in &mut self.entrants {
            if let Loaded::Search(s) = l {
                if !s.budget_given {
                    s.cfg.budget = budget.max(1);
                    info.name = search_name(s.cfg.budget, &s.rollout.name);
                    changed += 1;
                }
            }
        }
        self.uniquify();
        changed
    }

    /// Give repeated names a " #2", " #3"... suffix so rows are distinguishable.
    fn uniquify(&mut self) {
        let names: Vec<String> = self.entrants.iter().map(|e| e.0.name.clone()).collect();
        for (i, (info, _)) in self.entrants.iter_mut().enumerate() {
            let before = names[..i].iter().filter(|n| **n == names[i]).count();
            if before > 0 {
                info.name = format!("{} #{}", names[i], before + 1);
            }
        }
    }

    /// Whether some strategy of the lineup may buy or gain `c` (Big Money
    /// buys only Treasures and Victory cards).
    pub fn may_gain(&self, c: Card) -> bool {
        self.entrants.iter().any(|(_, l)| match l {
            Loaded::BigMoney => c.is_victory() || c.is_treasure(),
            Loaded::File(st) => st.may_gain(c),
            // It considers every card it can buy.
            Loaded::Search(_) => true,
        })
    }

    /// Each entrant's [`Strategy::absent_cards`] in `k` (a search
    /// entrant's rollout strategy's; none for the built-in Big Money).
    pub fn absent_cards(&self, k: &Kingdom) -> Vec<Vec<Card>> {
        self.entrants
            .iter()
            .map(|(_, l)| match l {
                Loaded::BigMoney => Vec::new(),
                Loaded::File(st) => st.absent_cards(k),
                Loaded::Search(s) => s.rollout.absent_cards(k),
            })
            .collect()
    }

    pub fn infos(&self) -> Vec<EntrantInfo> {
        self.entrants.iter().map(|e| e.0.clone()).collect()
    }

    /// `k`, counting the turn's gains and buys when a strategy of the lineup
    /// uses them (`gained_this_turn`, `bought_this_turn`): the kingdom to
    /// compile for and to run.
    pub fn kingdom_for(&self, k: &Kingdom) -> Kingdom {
        let mut k = *k;
        k.track_turn |= self.entrants.iter().any(|(_, l)| match l {
            Loaded::File(st) => st.uses_turn_counters(),
            Loaded::Search(s) => s.rollout.uses_turn_counters(),
            Loaded::BigMoney => false,
        });
        k
    }

    /// Compile every strategy for `k`. Warnings are prefixed by the file.
    pub fn compile(&self, k: &Kingdom) -> Result<CompiledLineup> {
        let mut compiled = Vec::new();
        let mut search = Vec::new();
        let mut warnings = Vec::new();
        for (info, l) in &self.entrants {
            search.push(match l {
                Loaded::Search(s) => Some(s.cfg),
                _ => None,
            });
            let st: &Strategy = match l {
                Loaded::BigMoney => {
                    compiled.push(None);
                    continue;
                }
                Loaded::File(st) => st,
                // The search seat's rollout policy, which also answers its
                // questions that are not searched.
                Loaded::Search(s) => &s.rollout,
            };
            let (c, w) = st.compile(k).map_err(|e| anyhow!("{e}"))?;
            warnings.extend(w.into_iter().map(|w| {
                if w.starts_with(&info.source) {
                    w
                } else {
                    format!("{}: {w}", info.source)
                }
            }));
            compiled.push(Some(c));
        }
        Ok(CompiledLineup {
            compiled,
            search,
            warnings,
        })
    }
}

/// The strategies of a run compiled for one kingdom.
pub struct CompiledLineup {
    /// Each entrant's strategy (a search entrant's rollout strategy; None
    /// for the built-in Big Money).
    compiled: Vec<Option<Compiled>>,
    /// Each search entrant's settings.
    search: Vec<Option<SearchConfig>>,
    pub warnings: Vec<String>,
}

impl CompiledLineup {
    /// The bots of one game where seat `s` is played by entrant `order[s]`.
    /// Allocation-free, unless a search entrant plays (its bots keep their
    /// scratch memory outside the game).
    #[inline]
    pub fn bots(&self, order: &[u8]) -> MixedBots<'_> {
        let Some(any) = self.compiled.iter().flatten().next() else {
            return MixedBots {
                builtin: u8::MAX,
                strat: None,
                search: None,
            };
        };
        let mut seats: [&Compiled; MAX_PLAYERS] = [any; MAX_PLAYERS];
        let mut builtin = 0u8;
        let mut search: Option<Box<SearchSeats>> = None;
        for (s, &e) in order.iter().enumerate() {
            match &self.compiled[e as usize] {
                Some(c) => seats[s] = c,
                None => builtin |= 1 << s,
            }
            if let (Some(cfg), Some(c)) = (self.search[e as usize], &self.compiled[e as usize]) {
                // Not answered by `strat` directly: the searched questions
                // go to the search bot, the others to its rollout strategy.
                builtin |= 1 << s;
                let seats = search.get_or_insert_with(|| {
                    Box::new(SearchSeats {
                        mask: 0,
                        bots: std::array::from_fn(|_| None),
                    })
                });
                seats.mask |= 1 << s;
                seats.bots[s] = Some(SearchBot::new(cfg, c));
            }
        }
        MixedBots {
            builtin,
            strat: Some(StrategyBots::new(&seats[..order.len()])),
            search,
        }
    }
}

/// Whether `player`'s seat is one of `search`'s.
#[inline]
fn seat_in(search: &Option<Box<SearchSeats>>, player: u8) -> bool {
    search
        .as_ref()
        .is_some_and(|s| s.mask >> (player & 7) & 1 != 0)
}

/// The search bots of one game, by seat.
pub struct SearchSeats<'a> {
    mask: u8,
    bots: [Option<SearchBot<'a>>; MAX_PLAYERS],
}

/// Strategy-file bots, built-in bots and search bots at one table: seats
/// whose bit is clear in `builtin` are answered by their compiled
/// strategy; the others by [`BigMoney`], or, for a search seat, by its
/// search bot (the searched questions, [`search::searched`]) and its
/// rollout strategy (the others). The strategy seats' path is the same
/// with or without search seats at the table.
pub struct MixedBots<'a> {
    builtin: u8,
    strat: Option<StrategyBots<'a>>,
    search: Option<Box<SearchSeats<'a>>>,
}

impl<'a> MixedBots<'a> {
    /// `--explain` for `player`: his strategy's words, or the built-in bot's.
    fn why(&self, player: u8, f: impl FnOnce(&StrategyBots) -> String) -> String {
        match &self.strat {
            Some(s) if self.builtin >> player & 1 == 0 => f(s),
            Some(s) if self.is_search(player) => format!("rollout strategy: {}", f(s)),
            _ => "built-in Big Money".into(),
        }
    }

    #[inline]
    fn is_search(&self, player: u8) -> bool {
        seat_in(&self.search, player)
    }

    /// The search bot of `player`'s seat, if it is a search seat.
    pub fn search_bot(&self, player: u8) -> Option<&SearchBot<'a>> {
        self.search.as_ref()?.bots.get(player as usize)?.as_ref()
    }

    /// A pick of a seat not answered by its strategy: searched, sent to
    /// the rollout strategy, or Big Money's. Out of line: the strategy
    /// seats' path stays as short as it was.
    #[inline(never)]
    fn other_pick(&mut self, g: &Game, q: &Pick, turn: bool) -> Option<Card> {
        if let (Some(seats), Some(strat)) = (&mut self.search, &mut self.strat) {
            if seats.mask >> (q.player & 7) & 1 != 0 {
                if search::searched(q) {
                    if let Some(b) = &mut seats.bots[q.player as usize] {
                        return b.decide(g, q);
                    }
                }
                return if turn {
                    strat.turn_pick(g, q)
                } else {
                    strat.pick(g, q)
                };
            }
        }
        if turn {
            BigMoney.turn_pick(g, q)
        } else {
            BigMoney.pick(g, q)
        }
    }
}

impl Bots for MixedBots<'_> {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.pick(g, q),
            _ => self.other_pick(g, q, false),
        }
    }
    /// Inlined into the turn's steps (see [`Bots::turn_pick`]).
    #[inline(always)]
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.turn_pick(g, q),
            _ => self.other_pick(g, q, true),
        }
    }
    #[inline]
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        match &mut self.strat {
            Some(s) if self.builtin >> player & 1 == 0 => s.play_all_treasures(g, player),
            Some(s) if seat_in(&self.search, player) => s.play_all_treasures(g, player),
            _ => BigMoney.play_all_treasures(g, player),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.yes_no(g, q),
            Some(s) if seat_in(&self.search, q.player) => s.yes_no(g, q),
            _ => BigMoney.yes_no(g, q),
        }
    }
    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.choose(g, q),
            Some(s) if seat_in(&self.search, q.player) => s.choose(g, q),
            _ => BigMoney.choose(g, q),
        }
    }
    #[inline(always)]
    fn event(&mut self, g: &Game, e: Event) {
        if let Some(s) = &mut self.strat {
            s.event(g, e);
        }
    }
    fn explain(&self, g: &Game, q: &Pick) -> Option<String> {
        if let Some(why) = self.search_bot(q.player).and_then(|b| b.explain(q)) {
            return Some(why);
        }
        Some(self.why(q.player, |s| s.explain(g, q)))
    }
    fn explain_yes_no(&self, g: &Game, q: &YesNo) -> Option<String> {
        Some(self.why(q.player, |s| s.explain_yes_no(g, q)))
    }
    fn explain_choose(&self, g: &Game, q: &Choose) -> Option<String> {
        Some(self.why(q.player, |s| s.explain_choose(g, q)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_wide_budget_sets_the_search_entrants_that_name_none() {
        let specs = ["search", "search:budget=7", "search:c=1"].map(String::from);
        let mut l = Lineup::load(&specs).unwrap();
        assert_eq!(l.set_search_budget(50), 2);
        let budgets: Vec<u32> = l
            .entrants
            .iter()
            .map(|(_, e)| match e {
                Loaded::Search(s) => s.cfg.budget,
                _ => 0,
            })
            .collect();
        assert_eq!(budgets, [50, 7, 50]);
        let names: Vec<String> = l.infos().into_iter().map(|i| i.name).collect();
        assert_eq!(
            names,
            [
                "Search (budget 50, rollout Big Money Ultimate)",
                "Search (budget 7, rollout Big Money Ultimate)",
                "Search (budget 50, rollout Big Money Ultimate) #2"
            ]
        );
    }
}
