//! The strategies of a run: loading them (strategy files, `builtin:NAME`
//! for the hand-coded bots, or `search[:OPTIONS]` for the search bot),
//! compiling them for a kingdom, and the bots of one game for a given seat
//! order.
//!
//! The search bot's entry (see [`SEARCH_HELP`]): `search`, or
//! `search:budget=400,rollout=strategies/x.dom,opponent=auto,select=halving` (options
//! in any order, each at most once).

use crate::bots::BigMoney;
use crate::cards::Card;
use crate::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo, MAX_PLAYERS};
use crate::report::EntrantInfo;
use crate::search::{self, SearchBot, SearchConfig, Select};
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

/// A search bot entry: its settings and its rollout policies.
#[derive(Clone, Debug)]
pub struct SearchSpec {
    pub cfg: SearchConfig,
    /// `rollout=FILE`: the bot's own rollout policy (its later turns in a
    /// rollout, and its questions that are not searched); None
    /// (`rollout=auto`, the default): the best of the pool for the kingdom.
    pub rollout: Option<Strategy>,
    pub opponent: Opponent,
    /// The shipped bots (`strategies/*.dom`), when a policy is automatic.
    pub pool: Vec<Strategy>,
    /// Big Money Ultimate: the reference the pool is ranked against, and
    /// the rollout policy when no member of the pool fits.
    pub reference: Strategy,
    /// Whether the entry names its budget (`budget=N`): a run-wide budget
    /// ([`Lineup::set_search_budget`]) does not override it.
    pub budget_given: bool,
}

/// How a search entry models its opponents in rollouts.
#[derive(Clone, Debug)]
pub enum Opponent {
    /// `opponent=auto` (the default): per opponent and decision, the member
    /// of the pool whose rules best explain his public gains
    /// (`crate::search::model`).
    Auto,
    /// `opponent=same`: the bot's own rollout policy.
    Same,
    /// `opponent=FILE`: that strategy.
    File(Box<Strategy>),
}

/// The options of a `search` entry, for error messages and help.
pub const SEARCH_HELP: &str = "search options (search:NAME=VALUE,...): budget=N rollouts per decision (1 to 1000000; default 500), rollout=FILE|auto the bot's own rollout policy (default auto: the shipped bot that fits the kingdom and scores best against Big Money Ultimate), opponent=FILE|auto|same the opponents' rollout policy (default auto: per opponent, the shipped bot that best explains his gains; same: the bot's own), select=halving|ucb (default halving), prior=X bonus of the rollout policy's own answer (0 to 1; default 0.02), window=N|off buys considered: costing at least the coins minus N (0 to 20; default 2), plays=all|choices whether an Action play is searched when the only alternative to playing the one Action kind in hand is to stop (default choices: then it is the rollout policy's), horizon=N|off rollouts stop at the start of the bot's turn after N more turns of his and are valued by VP plus 3 VP per coin of expected hand money (default off: played to the end), c=X UCB exploration (0 to 10; default 0.7), margin=X weight of the VP margin in a rollout's value (0 to 1; default 0.05)";

/// The reference strategy of a `search` entry (see [`SearchSpec::reference`]).
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

/// Load strategy file `f` given to option `what` of entry `spec`.
fn load_option_file(spec: &str, what: &str, f: &str) -> Result<Strategy> {
    let path = Path::new(f);
    if path.is_dir() {
        bail!("'{spec}': {what} strategy '{f}' is a directory, not a strategy file");
    }
    if !path.exists() {
        bail!("'{spec}': {what} strategy file '{f}' does not exist");
    }
    strategy::load(path).map_err(|e| anyhow!("{e}"))
}

/// The shipped bots: every `*.dom` directly under the shipped strategies'
/// directory, by file name, those that load.
fn shipped_pool() -> Vec<Strategy> {
    let Some(dir) = shipped(DEFAULT_ROLLOUT).and_then(|p| p.parent().map(Path::to_path_buf)) else {
        return Vec::new();
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "dom"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|p| strategy::load(p).ok())
        .collect()
}

fn parse_search(spec: &str, opts: &str) -> Result<(EntrantInfo, Loaded)> {
    let mut cfg = SearchConfig::default();
    let mut rollout: Option<Strategy> = None;
    let mut opponent = Opponent::Auto;
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
            "rollout" => match value {
                "" => bail!("'{spec}': rollout= needs a strategy file or auto"),
                "auto" => rollout = None,
                f => rollout = Some(load_option_file(spec, "rollout", f)?),
            },
            "opponent" => match value {
                "" => bail!("'{spec}': opponent= needs a strategy file, auto or same"),
                "auto" => opponent = Opponent::Auto,
                "same" => opponent = Opponent::Same,
                f => opponent = Opponent::File(Box::new(load_option_file(spec, "opponent", f)?)),
            },
            "select" => {
                cfg.select = match value {
                    "halving" => Select::Halving,
                    "ucb" => Select::Ucb,
                    _ => bail!("'{spec}': select={value} must be halving or ucb"),
                }
            }
            "prior" => cfg.prior = number(0.0, 1.0)?,
            "window" => {
                cfg.window = match value {
                    "off" => None,
                    _ => match value.parse::<u8>() {
                        Ok(n) if n <= 20 => Some(n),
                        _ => bail!(
                            "'{spec}': window={value} must be a whole number from 0 to 20, or off"
                        ),
                    },
                }
            }
            "plays" => {
                cfg.lone_plays = match value {
                    "all" => true,
                    "choices" => false,
                    _ => bail!("'{spec}': plays={value} must be all or choices"),
                }
            }
            "horizon" => {
                cfg.horizon = match value {
                    "off" => None,
                    _ => match value.parse::<u16>() {
                        Ok(n) if (1..=200).contains(&n) => Some(n),
                        _ => bail!(
                            "'{spec}': horizon={value} must be a whole number of turns from 1 to 200, or off"
                        ),
                    },
                }
            }
            "c" => cfg.exploration = number(0.0, 10.0)?,
            "margin" => cfg.margin = number(0.0, 1.0)?,
            _ => bail!("'{spec}': unknown option '{name}'; {SEARCH_HELP}"),
        }
    }
    let reference = match shipped(DEFAULT_ROLLOUT) {
        Some(p) => strategy::load(&p).map_err(|e| anyhow!("{e}"))?,
        None => bail!(
            "'{spec}': the reference strategy strategies/{DEFAULT_ROLLOUT} is not found (run from the source tree, or where strategies/ is)"
        ),
    };
    let pool = if rollout.is_none() || matches!(opponent, Opponent::Auto) {
        shipped_pool()
    } else {
        Vec::new()
    };
    // The hash of every file the bot's play depends on: the reference, the
    // policies given, and the pool its automatic policies come from.
    let mut hash = reference.source_hash;
    let given = rollout.iter().chain(match &opponent {
        Opponent::File(st) => Some(st.as_ref()),
        _ => None,
    });
    for st in given.chain(pool.iter()) {
        hash = hash.rotate_left(17) ^ st.source_hash;
    }
    let info = EntrantInfo {
        name: search_name(cfg.budget, rollout.as_ref(), &opponent),
        source: spec.to_string(),
        hash: format!("{hash:016x}"),
    };
    let spec = SearchSpec {
        cfg,
        rollout,
        opponent,
        pool,
        reference,
        budget_given,
    };
    Ok((info, Loaded::Search(Box::new(spec))))
}

/// The name a search entrant gets in tables: "Search (budget 200)", with
/// the policies it was given.
fn search_name(budget: u32, rollout: Option<&Strategy>, opponent: &Opponent) -> String {
    let mut name = format!("Search (budget {budget}");
    if let Some(r) = rollout {
        name.push_str(&format!(", rollout {}", r.name));
    }
    match opponent {
        Opponent::Auto => {}
        Opponent::Same => name.push_str(", opponent same"),
        Opponent::File(st) => name.push_str(&format!(", opponent {}", st.name)),
    }
    name.push(')');
    name
}

impl SearchSpec {
    /// The policies of this entry compiled for `k`: its own rollout policy
    /// and its opponent models (empty: the own policy plays them).
    pub fn compile(&self, k: &Kingdom) -> Result<(Compiled, Vec<search::Model>)> {
        let comp = |st: &Strategy| -> Result<Compiled> {
            Ok(st.compile(k).map_err(|e| anyhow!("{e}"))?.0)
        };
        let model = |st: &Strategy, c: Compiled| search::Model {
            compiled: c,
            kingdom_cards: k.kingdom.iter().filter(|&x| st.may_gain(x)).collect(),
            score: 0.0,
        };
        let reference = comp(&self.reference)?;
        let mut ranked = Vec::new();
        if !self.pool.is_empty() {
            let mut fit = Vec::new();
            for st in &self.pool {
                if st.uses_turn_counters() && !k.track_turn {
                    continue;
                }
                // Fits: every card and type it names is in the game (as
                // `best`).
                if !st.absent_cards(k).is_empty() {
                    continue;
                }
                let Ok((c, _)) = st.compile(k) else { continue };
                fit.push(model(st, c));
            }
            ranked = search::model::rank(fit, &reference, k);
        }
        let own = match &self.rollout {
            Some(st) => comp(st)?,
            None => ranked
                .first()
                .map_or_else(|| reference.clone(), |m| m.compiled.clone()),
        };
        let models = match &self.opponent {
            Opponent::Auto => ranked,
            Opponent::Same => Vec::new(),
            Opponent::File(st) => vec![model(st, comp(st)?)],
        };
        Ok((own, models))
    }
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
                    info.name = search_name(s.cfg.budget, s.rollout.as_ref(), &s.opponent);
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
    /// entrant's rollout strategy's when it names one; none for the
    /// built-in Big Money, nor for a search entrant whose rollout policy is
    /// `auto`: that is drawn from the shipped bots that fit the kingdom).
    pub fn absent_cards(&self, k: &Kingdom) -> Vec<Vec<crate::strategy::Missing>> {
        self.entrants
            .iter()
            .map(|(_, l)| match l {
                Loaded::BigMoney => Vec::new(),
                Loaded::File(st) => st.absent_cards(k),
                Loaded::Search(s) => s
                    .rollout
                    .as_ref()
                    .map_or_else(Vec::new, |r| r.absent_cards(k)),
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
            Loaded::Search(s) => {
                s.rollout.as_ref().is_some_and(|r| r.uses_turn_counters())
                    || matches!(&s.opponent, Opponent::File(o) if o.uses_turn_counters())
            }
            Loaded::BigMoney => false,
        });
        k
    }

    /// Compile every strategy for `k`. Warnings are prefixed by the file.
    /// A search entrant's policies are compiled (and its automatic ones
    /// chosen, `SearchSpec::compile`) here, once per kingdom.
    pub fn compile(&self, k: &Kingdom) -> Result<CompiledLineup> {
        let mut compiled = Vec::new();
        let mut search = Vec::new();
        let mut warnings = Vec::new();
        for (info, l) in &self.entrants {
            let st: &Strategy = match l {
                Loaded::BigMoney => {
                    compiled.push(None);
                    search.push(None);
                    continue;
                }
                Loaded::File(st) => st,
                // The search seat's rollout policy, which also answers its
                // questions that are not searched.
                Loaded::Search(s) => {
                    let (own, models) = s.compile(k)?;
                    compiled.push(Some(own));
                    search.push(Some((s.cfg, models)));
                    continue;
                }
            };
            search.push(None);
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
    /// Each entrant's strategy (a search entrant's own rollout strategy;
    /// None for the built-in Big Money).
    compiled: Vec<Option<Compiled>>,
    /// Each search entrant's settings and opponent models.
    search: Vec<Option<(SearchConfig, Vec<search::Model>)>>,
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
            if let (Some((cfg, models)), Some(c)) =
                (&self.search[e as usize], &self.compiled[e as usize])
            {
                // Not answered by `strat` directly: the searched questions
                // go to the search bot, the others to its rollout strategy.
                builtin |= 1 << s;
                let seats = search.get_or_insert_with(|| {
                    Box::new(SearchSeats {
                        mask: 0,
                        off: false,
                        bots: std::array::from_fn(|_| None),
                    })
                });
                seats.mask |= 1 << s;
                seats.bots[s] = Some(SearchBot::new(*cfg, c, models));
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
    /// [`MixedBots::stop_searching`]: the searched questions go to the
    /// rollout strategy too.
    off: bool,
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

    /// From now on every search seat answers as its rollout strategy, with
    /// no rollouts: for a game whose rest is thrown away (the workbench's
    /// replay of a game against the bots once it has reached the person's
    /// question, `serve::play`).
    pub fn stop_searching(&mut self) {
        if let Some(s) = &mut self.search {
            s.off = true;
        }
    }

    /// A pick of a seat not answered by its strategy: searched, sent to
    /// the rollout strategy, or Big Money's. Out of line: the strategy
    /// seats' path stays as short as it was.
    #[inline(never)]
    fn other_pick(&mut self, g: &Game, q: &Pick, turn: bool) -> Option<Card> {
        if let (Some(seats), Some(strat)) = (&mut self.search, &mut self.strat) {
            if seats.mask >> (q.player & 7) & 1 != 0 {
                if search::searched(q) && !seats.off {
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
                "Search (budget 50)",
                "Search (budget 7)",
                "Search (budget 50) #2"
            ]
        );
    }
}
