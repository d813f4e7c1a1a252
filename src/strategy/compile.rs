//! Compile a [`Strategy`] against a [`Kingdom`]: flat arrays of entries and
//! condition bytecode (reverse Polish, evaluated on a fixed-size stack), and
//! routing tables that map each engine question to the list or condition
//! that answers it. Nothing here runs during a game.

use super::ast::*;
use super::options::{Kind, Question, Src, BUILTIN, OPTIONS};
use super::parse::parse_file;
use super::{Strategy, StrategyError};
use crate::cards::{Card, CardSet};
use crate::engine::{Kingdom, Why};
use std::collections::HashMap;

/// Operand of a count: one card, or a set of cards (a type ∩ this game's cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subj {
    Card(Card),
    Mask(CardSet),
}

/// One bytecode instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Const(i32),
    Var(Var),
    Fun(Fun, Subj),
    Neg,
    Not,
    Bin(BinOp),
}

/// A range of bytecode (`len == 0`: always true).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Code {
    pub start: u32,
    pub len: u32,
}

/// A compiled list entry; `target == None` is the `none` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CEntry {
    pub target: Option<Subj>,
    pub cond: Code,
}

/// How a question is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// The engine's documented default.
    Engine,
    /// Answer none (buy nothing).
    Nothing,
    /// The first applicable entry of a list.
    List(u16),
    /// A condition (yes/no) or a number (choose).
    Value(Code),
    /// No `play` list: Actions giving +Actions first, then the most expensive.
    DefaultPlay,
    /// No `treasures` list: play every Treasure.
    AllTreasures,
    /// The most expensive legal card costing at least this much.
    Costliest(u8),
}

/// Evaluation stack size; deeper expressions are rejected at compile time.
pub(crate) const STACK: usize = 64;
/// Number of `Why` kinds routed by the pick table.
pub(crate) const N_WHY: usize = 9;

/// Index of a `Why` in the routing table; `None` for questions this module
/// does not know (added by later card sets): they get the engine default.
#[inline]
pub(crate) fn why_index(w: Why) -> Option<usize> {
    #[allow(unreachable_patterns)]
    match w {
        Why::PlayAction => Some(0),
        Why::PlayTreasure => Some(1),
        Why::Buy => Some(2),
        Why::Gain => Some(3),
        Why::Trash => Some(4),
        Why::Discard => Some(5),
        Why::Topdeck => Some(6),
        Why::PlayTarget => Some(7),
        Why::React => Some(8),
        _ => None,
    }
}

const WHYS: [Why; N_WHY] = [
    Why::PlayAction,
    Why::PlayTreasure,
    Why::Buy,
    Why::Gain,
    Why::Trash,
    Why::Discard,
    Why::Topdeck,
    Why::PlayTarget,
    Why::React,
];

/// A strategy compiled for one kingdom. Immutable; share it between threads.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub name: String,
    pub(crate) code: Vec<Op>,
    pub(crate) entries: Vec<CEntry>,
    /// Ranges into `entries`.
    pub(crate) lists: Vec<(u32, u32)>,
    /// Indexed by `by` card id + 1 (0: no card, a turn-phase question).
    pub(crate) pick: Vec<[Route; N_WHY]>,
    /// Yes/no about the asker's own card (or no card), by card id.
    pub(crate) yes_own: Vec<Route>,
    /// Yes/no about another player's card, by card id.
    pub(crate) yes_other: Vec<Route>,
    /// Reveal a Reaction, by Reaction card id.
    pub(crate) react: Vec<Route>,
    /// Choose one of n, by card id.
    pub(crate) choose: Vec<Route>,
    pub(crate) safe_ending: bool,
    pub(crate) penultimate_province: bool,
    /// Cards of this game that add money (Treasures, +$ Actions).
    pub(crate) money: CardSet,
    /// Treasures of this game whose play has an effect (play order matters).
    pub(crate) effect_treasures: CardSet,
}

struct Ctx<'a> {
    st: &'a Strategy,
    k: &'a Kingdom,
    out: Compiled,
    warnings: Vec<String>,
}

impl Ctx<'_> {
    fn loc(&self, p: Pos) -> String {
        let f = self
            .st
            .files
            .get(p.file as usize)
            .map_or("<built-in>", |s| s.as_str());
        format!("{f}:{}:{}", p.line, p.col)
    }

    fn err(&self, p: Pos, msg: String) -> StrategyError {
        StrategyError {
            file: self
                .st
                .files
                .get(p.file as usize)
                .cloned()
                .unwrap_or_else(|| "<built-in>".into()),
            line: p.line as usize,
            col: p.col as usize,
            msg,
            source_line: String::new(),
            width: 1,
        }
    }

    fn subj(&self, s: Subject) -> Subj {
        match s {
            Subject::Card(c) => Subj::Card(c),
            Subject::Type(t) => Subj::Mask(CardSet::of_type(t).and(self.k.in_game)),
        }
    }

    /// Emit `e`; returns the stack depth it needs.
    fn emit(&mut self, e: &Expr) -> usize {
        match e {
            Expr::Int(v) => {
                self.out.code.push(Op::Const(*v));
                1
            }
            Expr::Bool(b) => {
                self.out.code.push(Op::Const(*b as i32));
                1
            }
            Expr::Var(v) => {
                self.out.code.push(Op::Var(*v));
                1
            }
            Expr::Fun(f, s) => {
                let s = self.subj(*s);
                self.out.code.push(Op::Fun(*f, s));
                1
            }
            Expr::Neg(x) => {
                let d = self.emit(x);
                self.out.code.push(Op::Neg);
                d
            }
            Expr::Not(x) => {
                let d = self.emit(x);
                self.out.code.push(Op::Not);
                d
            }
            Expr::Bin(op, l, r) => {
                let dl = self.emit(l);
                let dr = self.emit(r);
                self.out.code.push(Op::Bin(*op));
                dl.max(dr + 1)
            }
        }
    }

    fn code(&mut self, e: &Expr, pos: Pos) -> Result<Code, StrategyError> {
        let start = self.out.code.len() as u32;
        let depth = self.emit(e);
        if depth > STACK {
            return Err(self.err(pos, "condition too deeply nested".into()));
        }
        Ok(Code {
            start,
            len: self.out.code.len() as u32 - start,
        })
    }

    fn list(&mut self, entries: &[Entry], warn: bool) -> Result<u16, StrategyError> {
        let start = self.out.entries.len() as u32;
        for e in entries {
            if let Some(Subject::Card(c)) = e.target {
                if !self.k.in_game.contains(c) {
                    if warn {
                        let w = format!(
                            "{}: warning: {c} is not in this game; entry ignored",
                            self.loc(e.pos)
                        );
                        self.warnings.push(w);
                    }
                    continue;
                }
            }
            let cond = match &e.cond {
                Some(x) => self.code(x, e.pos)?,
                None => Code::default(),
            };
            let target = e.target.map(|s| self.subj(s));
            self.out.entries.push(CEntry { target, cond });
        }
        self.out
            .lists
            .push((start, self.out.entries.len() as u32 - start));
        Ok(self.out.lists.len() as u16 - 1)
    }
}

pub(crate) fn compile(
    st: &Strategy,
    k: &Kingdom,
) -> Result<(Compiled, Vec<String>), StrategyError> {
    let money: CardSet = k
        .in_game
        .iter()
        .filter(|c| c.info().value > 0 || c.info().coins > 0)
        .collect();
    let effect_treasures: CardSet = k
        .in_game
        .and(CardSet::TREASURES)
        .iter()
        .filter(|c| c.info().effect)
        .collect();
    let n = Card::COUNT;
    let mut cx = Ctx {
        st,
        k,
        out: Compiled {
            name: st.name.clone(),
            code: Vec::new(),
            entries: Vec::new(),
            lists: Vec::new(),
            pick: vec![[Route::Engine; N_WHY]; n + 1],
            yes_own: vec![Route::Engine; n],
            yes_other: vec![Route::Engine; n],
            react: vec![Route::Engine; n],
            choose: vec![Route::Engine; n],
            safe_ending: st.safe_ending,
            penultimate_province: st.penultimate_province,
            money,
            effect_treasures,
        },
        warnings: Vec::new(),
    };

    // The strategy's own lists and values.
    let mut lists: HashMap<Key, Route> = HashMap::new();
    for l in &st.lists {
        if let Key::Opt(i) = l.key {
            let card = OPTIONS[i as usize].card;
            if !k.in_game.contains(card) {
                let w = format!(
                    "{}: warning: {card} is not in this game; its option is ignored",
                    cx.loc(l.pos)
                );
                cx.warnings.push(w);
                continue;
            }
        }
        let id = cx.list(&l.entries, true)?;
        lists.insert(l.key, Route::List(id));
    }
    for v in &st.values {
        if let Key::Opt(i) = v.key {
            let card = OPTIONS[i as usize].card;
            if !k.in_game.contains(card) {
                let w = format!(
                    "{}: warning: {card} is not in this game; its option is ignored",
                    cx.loc(v.pos)
                );
                cx.warnings.push(w);
                continue;
            }
        }
        let code = cx.code(&v.expr, v.pos)?;
        lists.insert(v.key, Route::Value(code));
    }
    if !st.has_list(ListKind::Buy) {
        cx.warnings.push(format!(
            "{}: warning: no 'buy' list: this strategy never buys a card",
            st.files.first().map_or("<strategy>", |s| s.as_str())
        ));
    }

    // Built-in lists (written in the language), compiled on demand.
    let builtin = parse_file(BUILTIN, "<built-in>", u16::MAX).map_err(|e| StrategyError {
        msg: format!("built-in defaults: {}", e.msg),
        ..e
    })?;

    let general = |lists: &HashMap<Key, Route>, l: ListKind| lists.get(&Key::List(l)).copied();

    // Turn-phase and card-less questions, and cards without an option for
    // the question: the general chains.
    let mut generic = [Route::Engine; N_WHY];
    for (w, why) in WHYS.iter().enumerate() {
        generic[w] = match why {
            Why::Buy => general(&lists, ListKind::Buy).unwrap_or(Route::Nothing),
            Why::Gain => general(&lists, ListKind::Gain)
                .or(general(&lists, ListKind::Buy))
                .unwrap_or(Route::Engine),
            Why::PlayAction => general(&lists, ListKind::Play).unwrap_or(Route::DefaultPlay),
            Why::PlayTreasure => {
                general(&lists, ListKind::Treasures).unwrap_or(Route::AllTreasures)
            }
            Why::Trash => general(&lists, ListKind::Trash).unwrap_or(Route::Engine),
            Why::Discard => general(&lists, ListKind::Discard).unwrap_or(Route::Engine),
            Why::Topdeck => general(&lists, ListKind::Topdeck).unwrap_or(Route::Engine),
            Why::PlayTarget => general(&lists, ListKind::Play).unwrap_or(Route::Engine),
            _ => Route::Engine,
        };
    }
    for row in cx.out.pick.iter_mut() {
        *row = generic;
    }

    // Per-card options.
    for (i, spec) in OPTIONS.iter().enumerate() {
        if !k.in_game.contains(spec.card) {
            continue;
        }
        let mut route = lists.get(&Key::Opt(i as u16)).copied();
        for src in spec.fallback {
            if route.is_some() {
                break;
            }
            route = match *src {
                Src::General(l) => general(&lists, l),
                Src::Costliest(m) => Some(Route::Costliest(m)),
                Src::Builtin => match builtin.lists.iter().find(|l| l.key == Key::Opt(i as u16)) {
                    Some(l) => Some(Route::List(cx.list(&l.entries, false)?)),
                    None => None,
                },
            };
        }
        let route = route.unwrap_or(Route::Engine);
        let c = spec.card as usize;
        match spec.question {
            Question::Pick(w) => {
                if let Some(wi) = why_index(w) {
                    cx.out.pick[c + 1][wi] = route;
                }
            }
            Question::YesNoOwn => cx.out.yes_own[c] = route,
            Question::YesNoOther => cx.out.yes_other[c] = route,
            Question::React => cx.out.react[c] = route,
            Question::Choose => cx.out.choose[c] = route,
        }
        debug_assert!(
            spec.kind == Kind::List || matches!(route, Route::Value(_) | Route::Engine),
            "option {} {}",
            spec.card,
            spec.name
        );
    }
    Ok((cx.out, cx.warnings))
}
