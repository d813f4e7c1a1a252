//! The strategies of a run: loading them (strategy files, or `builtin:NAME`
//! for the hand-coded bots), compiling them for a kingdom, and the bots of one
//! game for a given seat order.

use crate::bots::BigMoney;
use crate::cards::Card;
use crate::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo, MAX_PLAYERS};
use crate::report::EntrantInfo;
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
}

/// Load one strategy: a file, or `builtin:NAME`.
pub fn load(spec: &str) -> Result<(EntrantInfo, Loaded)> {
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
        })
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
            Loaded::BigMoney => false,
        });
        k
    }

    /// Compile every strategy for `k`. Warnings are prefixed by the file.
    pub fn compile(&self, k: &Kingdom) -> Result<CompiledLineup> {
        let mut compiled = Vec::new();
        let mut warnings = Vec::new();
        for (info, l) in &self.entrants {
            match l {
                Loaded::BigMoney => compiled.push(None),
                Loaded::File(st) => {
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
            }
        }
        Ok(CompiledLineup { compiled, warnings })
    }
}

/// The strategies of a run compiled for one kingdom.
pub struct CompiledLineup {
    compiled: Vec<Option<Compiled>>,
    pub warnings: Vec<String>,
}

impl CompiledLineup {
    /// The bots of one game where seat `s` is played by entrant `order[s]`.
    /// Allocation-free.
    #[inline]
    pub fn bots(&self, order: &[u8]) -> MixedBots<'_> {
        let Some(any) = self.compiled.iter().flatten().next() else {
            return MixedBots {
                builtin: u8::MAX,
                strat: None,
            };
        };
        let mut seats: [&Compiled; MAX_PLAYERS] = [any; MAX_PLAYERS];
        let mut builtin = 0u8;
        for (s, &e) in order.iter().enumerate() {
            match &self.compiled[e as usize] {
                Some(c) => seats[s] = c,
                None => builtin |= 1 << s,
            }
        }
        MixedBots {
            builtin,
            strat: Some(StrategyBots::new(&seats[..order.len()])),
        }
    }
}

/// Strategy-file bots and built-in bots at one table: seats whose bit is set
/// in `builtin` are answered by [`BigMoney`], the others by their compiled
/// strategy.
pub struct MixedBots<'a> {
    builtin: u8,
    strat: Option<StrategyBots<'a>>,
}

impl MixedBots<'_> {
    /// `--explain` for `player`: his strategy's words, or the built-in bot's.
    fn why(&self, player: u8, f: impl FnOnce(&StrategyBots) -> String) -> String {
        match &self.strat {
            Some(s) if self.builtin >> player & 1 == 0 => f(s),
            _ => "built-in Big Money".into(),
        }
    }
}

impl Bots for MixedBots<'_> {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.pick(g, q),
            _ => BigMoney.pick(g, q),
        }
    }
    /// Inlined into the turn's steps (see [`Bots::turn_pick`]).
    #[inline(always)]
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.turn_pick(g, q),
            _ => BigMoney.turn_pick(g, q),
        }
    }
    #[inline]
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        match &mut self.strat {
            Some(s) if self.builtin >> player & 1 == 0 => s.play_all_treasures(g, player),
            _ => BigMoney.play_all_treasures(g, player),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.yes_no(g, q),
            _ => BigMoney.yes_no(g, q),
        }
    }
    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        match &mut self.strat {
            Some(s) if self.builtin >> q.player & 1 == 0 => s.choose(g, q),
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
        Some(self.why(q.player, |s| s.explain(g, q)))
    }
    fn explain_yes_no(&self, g: &Game, q: &YesNo) -> Option<String> {
        Some(self.why(q.player, |s| s.explain_yes_no(g, q)))
    }
    fn explain_choose(&self, g: &Game, q: &Choose) -> Option<String> {
        Some(self.why(q.player, |s| s.explain_choose(g, q)))
    }
}
