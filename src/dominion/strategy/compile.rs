//! Compile a [`Strategy`] against a [`Kingdom`]: flat arrays of entries and
//! condition bytecode (reverse Polish, evaluated on a fixed-size stack), and
//! the routing table ([`super::route`]) that maps each engine question to
//! the list, condition, modes or rule that answers it, following the option
//! table's fallback chains. Nothing here runs during a game; the modules of
//! [`super::questions`] read what it builds (and are not imported here).

use super::ast::*;
use super::options::{Kind, Question, Src, BUILTIN, DATA_OPTIONS, OPTIONS};
use super::parse::parse_file;
use super::route::{slot_of, why_index, Routes, Row, CHOOSE, N_SLOTS};
pub(crate) use super::route::{Code, Route};
use super::rules::Rule;
use super::{Strategy, StrategyError};
use crate::cards::{Card, CardSet};
use crate::engine::decision::{questions, QuestionKind};
use crate::engine::{Kingdom, Why};
use std::collections::HashMap;

/// Operand of a count: one card, or a set of cards (a type ∩ this game's cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Subj {
    Card(Card),
    Mask(CardSet),
}

/// One bytecode instruction. Evaluation keeps the top of the stack in a
/// register (the accumulator); a "push" stores it first. Kept at 8 bytes:
/// masks live in [`Compiled::masks`], and the numbers the engine keeps ready
/// are resolved to a [`Slot`] when compiling, so one dispatch reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Const(i32),
    /// A number one load reads (a variable, `count`/`supply` of one card).
    Slot(Slot),
    /// The other variables (out of line).
    Var(Var),
    /// `function(card)` that is not a slot (zone scans, cost).
    Fun(Fun, Card),
    /// `function(type)`: the cards are `masks[index]`.
    FunMask(Fun, u16),
    /// `count(type)` (`count(Treasure)`): copies I own of the cards of
    /// `masks[index]`, summed inline.
    CountMask(u16),
    Neg,
    Not,
    /// Pops the left operand; the right one is the accumulator.
    Bin(BinOp),
    /// `acc = acc <op> constant` (no stack traffic).
    BinK(BinOp, i32),
    // The commonest operations of conditions, each its own opcode: one
    // dispatch instead of a second jump table on the `Slot` or `BinOp`.
    /// `count(card)` ([`Slot::Count`]).
    Count(Card),
    /// `BinK(Add, k)`.
    AddK(i32),
    /// `BinK(Lt, k)`.
    LtK(i32),
    /// `BinK(Le, k)`.
    LeK(i32),
    /// `BinK(Gt, k)`.
    GtK(i32),
    /// `BinK(Ge, k)`.
    GeK(i32),
    /// `and`: when the accumulator (the left operand) is 0, skip the next
    /// `n` operations (the right operand and its `Bin(And)`): the result is
    /// that 0. Conditions have no side effects, so skipping changes nothing
    /// but the work done.
    JumpIfZero(u16),
    /// `or`: when the accumulator is non-zero, make it 1 and skip `n`.
    JumpIfNonZero(u16),
    /// `if`: when the accumulator (the condition) is 0, skip the next `n`
    /// operations (the `then` branch and its `Jump`); either way pop it.
    IfNot(u16),
    /// Skip the next `n` operations (the `else` branch after `then`).
    Jump(u16),
    /// `would_buy(acc)` and its kin ([`Compiled::num_fn`]): replaces the
    /// accumulator (the argument) by the function's value.
    Num(NumFun),
}

const _: () = assert!(std::mem::size_of::<Op>() <= 8);

/// A compiled condition: the common shapes get a fast path. Kept small
/// (12 bytes): a comparison over a type's cards goes through [`Cond::Code`],
/// so no 16-byte card mask sits inside a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cond {
    Always,
    /// `lo <= slot <= hi`: any comparison but `!=` of a number the engine
    /// keeps ready with a constant (`coins >= 6` is `6 <= coins <= MAX`),
    /// tested inline without a branch on the operator.
    Range(Slot, i32, i32),
    /// `variable <cmp> constant`.
    VarCmp(Var, BinOp, i32),
    /// `function(card) <cmp> constant` (count limits, supply checks).
    FunCmp(Fun, Card, BinOp, i32),
    /// `term <cmp> term` (`count(Smithy) * 11 < count(Treasure)`,
    /// `count(Masquerade) < 1 + cards / 16`): `Compiled::cmps[index]`.
    Cmp(u16),
    /// `a and b` of two conditions: `Compiled::pairs[index]`, `b` tested
    /// only when `a` holds.
    And(u16),
    /// `a or b`: `b` tested only when `a` does not hold.
    Or(u16),
    Code(Code),
}

/// Where a [`Term`] starts: one load, `count` of a type's cards, or a
/// constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TermSrc {
    Slot(Slot),
    /// `count(type)`: copies I own of the cards of `Compiled::masks[index]`.
    CountMask(u16),
    Const(i32),
}

/// A number with at most two constant operations applied in order
/// (`count(Smithy) * 11`; `1 + cards / 16` is `cards / 16 + 1`), evaluated
/// with the bytecode's arithmetic, so it gives the program's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    pub src: TermSrc,
    pub ops: [(BinOp, i32); 2],
    pub n: u8,
}

/// `l <op> r` of two terms ([`Cond::Cmp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CmpTerms {
    pub l: Term,
    pub op: BinOp,
    pub r: Term,
}

/// A number that one load reads (see [`Cond::Range`]). Its names repeat
/// those of [`Var`] on purpose: it is the subset of variables the engine
/// keeps ready, plus `count`/`supply` of one card, so its evaluation is one
/// match without unreachable arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Coins,
    Actions,
    Buys,
    Turn,
    Cards,
    TotalMoney,
    EmptyPiles,
    HandSize,
    DrawPileSize,
    DiscardSize,
    Players,
    ActionPlays,
    /// `count(card)`: copies I own.
    Count(Card),
    /// `supply(card)`: cards left in its pile.
    Supply(Card),
}

impl Slot {
    pub(crate) fn of_var(v: Var) -> Option<Slot> {
        Some(match v {
            Var::Coins => Slot::Coins,
            Var::Actions => Slot::Actions,
            Var::Buys => Slot::Buys,
            Var::Turn => Slot::Turn,
            Var::Cards => Slot::Cards,
            Var::TotalMoney => Slot::TotalMoney,
            Var::EmptyPiles => Slot::EmptyPiles,
            Var::HandSize => Slot::HandSize,
            Var::DrawPileSize => Slot::DrawPileSize,
            Var::DiscardSize => Slot::DiscardSize,
            Var::Players => Slot::Players,
            Var::ActionPlays => Slot::ActionPlays,
            _ => return None,
        })
    }
    pub(crate) fn of_fun(f: Fun, c: Card) -> Option<Slot> {
        match f {
            Fun::Count => Some(Slot::Count(c)),
            Fun::Supply => Some(Slot::Supply(c)),
            _ => None,
        }
    }
}

/// `x <op> n` as `lo <= x <= hi`, for every comparison but `!=`.
pub(crate) fn as_range(op: BinOp, n: i32) -> Option<(i32, i32)> {
    match op {
        BinOp::Lt => Some((i32::MIN, n.checked_sub(1)?)),
        BinOp::Le => Some((i32::MIN, n)),
        BinOp::Gt => Some((n.checked_add(1)?, i32::MAX)),
        BinOp::Ge => Some((n, i32::MAX)),
        BinOp::Eq => Some((n, n)),
        _ => None,
    }
}

/// The fastest form of `lhs <op> n`.
fn fast_cond(slot: Option<Slot>, op: BinOp, n: i32, general: Cond) -> Cond {
    match (slot, as_range(op, n)) {
        (Some(s), Some((lo, hi))) => Cond::Range(s, lo, hi),
        _ => general,
    }
}

/// What a list entry names. `repr(u8)`: an explicit tag byte, which a list
/// scan tests in one compare (the niche-packed form took several).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Target {
    /// The `none` entry.
    Nothing,
    /// One card.
    Card(Card),
    /// A type: the cards of that type in this game (in `CEntry::mask`).
    Type,
}

/// A compiled list entry (32 bytes, two per cache line). `mask` holds the
/// cards it can answer, so "is any of them a legal answer" is one AND.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CEntry {
    /// The card's bit, the type's cards in this game, or empty for `none`.
    pub mask: CardSet,
    pub target: Target,
    pub cond: Cond,
}

const _: () = assert!(std::mem::size_of::<CEntry>() <= 32);

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// The opcode that loads a slot (the flat one when there is one).
fn slot_op(s: Slot) -> Op {
    match s {
        Slot::Count(c) => Op::Count(c),
        _ => Op::Slot(s),
    }
}

/// The opcode of `acc <op> k` (the flat one when there is one).
fn bin_k(op: BinOp, k: i32) -> Op {
    match op {
        BinOp::Add => Op::AddK(k),
        BinOp::Lt => Op::LtK(k),
        BinOp::Le => Op::LeK(k),
        BinOp::Gt => Op::GtK(k),
        BinOp::Ge => Op::GeK(k),
        _ => Op::BinK(op, k),
    }
}

/// `k <op> x` as `x <op'> k`, for the operators that allow it (`and`/`or`
/// are compiled to jumps and never get here).
fn swapped(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Add | BinOp::Mul | BinOp::Eq | BinOp::Ne => op,
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        _ => return None,
    })
}

/// `l <op> r` as `x <op'> k` when one operand is a constant `k` that folds
/// into a [`bin_k`] operation (`and`/`or` are compiled to jumps before).
fn with_constant<'e>(op: BinOp, l: &'e Expr, r: &'e Expr) -> Option<(&'e Expr, BinOp, i32)> {
    match (l, r) {
        (x, Expr::Int(k)) => Some((x, op, *k)),
        (Expr::Int(k), x) => swapped(op).map(|o| (x, o, *k)),
        _ => None,
    }
}

/// Evaluation stack size. Deeper expressions are rejected when the file is
/// parsed ([`stack_need`]), so whatever loads compiles in every kingdom.
pub(crate) const STACK: usize = 64;

/// The stack the bytecode of `e` needs: what [`Ctx::emit`] returns for it,
/// or 0 when `as_entry` (a list entry's condition) and `e` has a fast form
/// ([`Ctx::fast`] takes it: no bytecode). Depends on the expression alone,
/// not on the kingdom, so the parser checks it against [`STACK`].
pub(crate) fn stack_need(e: &Expr, as_entry: bool) -> usize {
    if as_entry && has_fast_form(e) {
        return 0;
    }
    stack_depth(e)
}

/// Mirror of [`Ctx::emit`]'s result (checked against it in `Ctx::code`).
fn stack_depth(e: &Expr) -> usize {
    match e {
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Fun(..) => 1,
        Expr::Neg(x) | Expr::Not(x) | Expr::Num(_, x) => stack_depth(x),
        Expr::If(c, a, b) => stack_depth(c).max(stack_depth(a)).max(stack_depth(b)),
        Expr::Bin(BinOp::And | BinOp::Or, l, r) => stack_depth(l).max(stack_depth(r) + 1),
        Expr::Bin(op, l, r) => match with_constant(*op, l, r) {
            Some((x, _, _)) => stack_depth(x),
            None => stack_depth(l).max(stack_depth(r) + 1),
        },
    }
}

/// Whether [`Ctx::fast`] finds a fast form for `e` (mirror of it and of
/// [`Ctx::term`], which look at the kingdom only to build type masks).
fn has_fast_form(e: &Expr) -> bool {
    /// The constant operations of `e` as a [`Term`], when it is one.
    fn term_ops(e: &Expr) -> Option<usize> {
        match e {
            Expr::Int(_) => Some(0),
            Expr::Var(v) => Slot::of_var(*v).map(|_| 0),
            Expr::Fun(f, Subject::Card(c)) => Slot::of_fun(*f, *c).map(|_| 0),
            Expr::Fun(f, _) => (*f == Fun::Count).then_some(0),
            Expr::Bin(
                op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod),
                l,
                r,
            ) => {
                let (x, _, _) = with_constant(*op, l, r)?;
                let n = term_ops(x)?;
                (n < 2).then_some(n + 1)
            }
            _ => None,
        }
    }
    let Expr::Bin(op, l, r) = e else {
        return false;
    };
    match op {
        BinOp::And | BinOp::Or => has_fast_form(l) && has_fast_form(r),
        _ if is_cmp(*op) => match (&**l, &**r) {
            (Expr::Var(_), Expr::Int(_)) | (Expr::Fun(_, Subject::Card(_)), Expr::Int(_)) => true,
            _ => term_ops(l).is_some() && term_ops(r).is_some(),
        },
        _ => false,
    }
}

/// The picks with a general route (the others keep the engine default in
/// rows without a card option).
const WHYS: [Why; 10] = [
    Why::PlayAction,
    Why::PlayTreasure,
    Why::Buy,
    Why::Gain,
    Why::Trash,
    Why::Discard,
    Why::Topdeck,
    Why::PlayTarget,
    Why::React,
    Why::TrashTrigger,
];

/// A strategy compiled for one kingdom. Immutable; share it between threads.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub name: String,
    pub(crate) code: Vec<Op>,
    /// The card sets of [`Op::FunMask`], [`Op::CountMask`] and
    /// [`TermSrc::CountMask`].
    pub(crate) masks: Vec<CardSet>,
    /// The comparisons of [`Cond::Cmp`].
    pub(crate) cmps: Vec<CmpTerms>,
    /// The operands of [`Cond::And`] and [`Cond::Or`].
    pub(crate) pairs: Vec<[Cond; 2]>,
    pub(crate) entries: Vec<CEntry>,
    /// Where each entry of `entries` is written, for `domsim log --explain`
    /// ("entry at file:line:col", or "entry of the built-in \"Chapel
    /// trash:\" default, \"Estate\""); never read while a game is played.
    pub(crate) entry_at: Vec<String>,
    /// Ranges into `entries`.
    pub(crate) lists: Vec<(u32, u32)>,
    /// Every kind of question, by asking card.
    pub(crate) routes: Routes,
    /// Mode conditions of the `Route::Modes` routes: (option number,
    /// condition), in the order they are tried.
    pub(crate) mode_list: Vec<(u8, Code)>,
    /// Where each condition of `mode_list` is written (parallel to it),
    /// for `domsim log --explain`; never read while a game is played.
    pub(crate) mode_at: Vec<String>,
    /// Where the condition or number of each `Route::Value` route is
    /// written: (asking card, route slot, place), for `--explain`.
    pub(crate) option_at: Vec<(Card, usize, String)>,
    /// Cards asking two "choose one" questions in a row (Count): their modes
    /// are numbered across both (the second's option m is mode n + m).
    pub(crate) two_choices: CardSet,
    pub(crate) safe_ending: bool,
    pub(crate) penultimate_province: bool,
    /// Either safety rule is on.
    pub(crate) guarded: bool,
    /// Treasures of this game whose play has an effect (play order matters).
    pub(crate) effect_treasures: CardSet,
    /// The `buy` list compiled once per amount of coins 0..=[`HYPO_MAX`]
    /// (`coins` replaced by that amount): list `hypo_buy + n` is the list
    /// as it would read with $n, for `would_buy(n)` and its kin. `None`
    /// when no condition asks (no cost for the bots that do not).
    pub(crate) hypo_buy: Option<u16>,
}

/// The largest amount of coins `would_buy` looks at: a larger argument is
/// taken as this much.
pub(crate) const HYPO_MAX: i32 = 24;

/// `e` with every `coins` replaced by the constant `n`.
fn with_coins(e: &Expr, n: i32) -> Expr {
    let b = |x: &Expr| Box::new(with_coins(x, n));
    match e {
        Expr::Var(Var::Coins) => Expr::Int(n),
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Fun(..) => e.clone(),
        Expr::Neg(x) => Expr::Neg(b(x)),
        Expr::Not(x) => Expr::Not(b(x)),
        Expr::Bin(op, l, r) => Expr::Bin(*op, b(l), b(r)),
        Expr::Num(f, x) => Expr::Num(*f, b(x)),
        Expr::If(c, l, r) => Expr::If(b(c), b(l), b(r)),
    }
}

/// Whether a `play` list names no Ruins (no Ruins card, no `Ruins` or
/// `Action` type entry) while Ruins are in the game `k`.
pub(crate) fn plays_no_ruins(entries: &[Entry], k: &Kingdom) -> bool {
    use crate::cards::Types;
    let ruins_in_game = k.in_game.iter().any(|c| c.is(Types::RUINS));
    ruins_in_game
        && !entries.iter().any(|e| match e.target {
            Some(Subject::Card(c)) => c == Card::Ruins || c.is(Types::RUINS),
            Some(Subject::Type(t)) => t.0 & (Types::RUINS.0 | Types::ACTION.0) != 0,
            Some(Subject::Terminal) | None => false,
        })
}

/// Whether `e` asks the buy list (`would_buy`, `buy_value`, `buy_cost`).
pub(crate) fn asks_buy(e: &Expr) -> bool {
    match e {
        Expr::Num(f, x) => *f != NumFun::BestHandMoney || asks_buy(x),
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Fun(..) => false,
        Expr::Neg(x) | Expr::Not(x) => asks_buy(x),
        Expr::Bin(_, l, r) => asks_buy(l) || asks_buy(r),
        Expr::If(c, l, r) => asks_buy(c) || asks_buy(l) || asks_buy(r),
    }
}

/// Compile the `buy` list once per amount of coins (see
/// [`Compiled::hypo_buy`]); without a `buy` list, nothing (the buy
/// functions then answer 0).
fn hypothetical_buys(cx: &mut Ctx) -> Result<(), StrategyError> {
    let Some(entries) = cx.st.list(ListKind::Buy) else {
        return Ok(());
    };
    let mut first = None;
    for n in 0..=HYPO_MAX {
        let copy: Vec<Entry> = entries
            .iter()
            .map(|e| Entry {
                cond: e.cond.as_ref().map(|c| with_coins(c, n)),
                ..e.clone()
            })
            .collect();
        let id = cx.list(&copy, false)?;
        first.get_or_insert(id);
    }
    cx.out.hypo_buy = first;
    Ok(())
}

struct Ctx<'a> {
    st: &'a Strategy,
    k: &'a Kingdom,
    out: Compiled,
    warnings: Vec<String>,
    /// Some condition compiled so far asks the buy list (`would_buy`…).
    uses_buy: bool,
}

impl Ctx<'_> {
    fn loc(&self, p: Pos) -> String {
        match self.st.files.get(p.file as usize) {
            Some(f) => format!("{f}:{}:{}", p.line, p.col),
            None => builtin_loc(p),
        }
    }

    /// Where an option (a condition or number) is written, for
    /// `--explain`: "option at file:line:col", or the built-in default's
    /// words.
    fn opt_loc(&self, p: Pos) -> String {
        match self.st.files.get(p.file as usize) {
            Some(f) => format!("option at {f}:{}:{}", p.line, p.col),
            None => builtin_loc(p),
        }
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
            Subject::Type(t) => Subj::Mask(CardSet::of_types(t).and(self.k.in_game)),
            Subject::Terminal => Subj::Mask(CardSet::terminal().and(self.k.in_game)),
        }
    }

    /// The index of `m` in `masks` (added the first time).
    fn mask_index(&mut self, m: CardSet) -> u16 {
        match self.out.masks.iter().position(|&x| x == m) {
            Some(i) => i as u16,
            None => {
                self.out.masks.push(m);
                self.out.masks.len() as u16 - 1
            }
        }
    }

    /// `e` as a [`Term`], when it is one.
    fn term(&mut self, e: &Expr) -> Option<Term> {
        let src = match e {
            Expr::Int(v) => TermSrc::Const(*v),
            Expr::Var(v) => TermSrc::Slot(Slot::of_var(*v)?),
            Expr::Fun(f, s) => match self.subj(*s) {
                Subj::Card(c) => TermSrc::Slot(Slot::of_fun(*f, c)?),
                Subj::Mask(m) if *f == Fun::Count => TermSrc::CountMask(self.mask_index(m)),
                Subj::Mask(_) => return None,
            },
            Expr::Bin(
                op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod),
                l,
                r,
            ) => {
                let (x, op, k) = with_constant(*op, l, r)?;
                let mut t = self.term(x)?;
                let slot = t.ops.get_mut(t.n as usize)?;
                *slot = (op, k);
                t.n += 1;
                return Some(t);
            }
            _ => return None,
        };
        Some(Term {
            src,
            ops: [(BinOp::Add, 0); 2],
            n: 0,
        })
    }

    /// The fast form of a condition (a [`Cond`] other than `Code`), when
    /// it has one: comparisons of a number the engine keeps ready with a
    /// constant, of two [`Term`]s, and `and`/`or` of such conditions.
    fn fast(&mut self, e: &Expr) -> Option<Cond> {
        let Expr::Bin(op, l, r) = e else {
            return None;
        };
        match op {
            BinOp::And | BinOp::Or => {
                let pair = [self.fast(l)?, self.fast(r)?];
                self.out.pairs.push(pair);
                let i = u16::try_from(self.out.pairs.len() - 1).ok()?;
                Some(if *op == BinOp::And {
                    Cond::And(i)
                } else {
                    Cond::Or(i)
                })
            }
            _ if is_cmp(*op) => match (&**l, &**r) {
                (Expr::Var(v), Expr::Int(n)) => Some(fast_cond(
                    Slot::of_var(*v),
                    *op,
                    *n,
                    Cond::VarCmp(*v, *op, *n),
                )),
                (Expr::Fun(f, Subject::Card(c)), Expr::Int(n)) => Some(fast_cond(
                    Slot::of_fun(*f, *c),
                    *op,
                    *n,
                    Cond::FunCmp(*f, *c, *op, *n),
                )),
                _ => {
                    let cmp = CmpTerms {
                        l: self.term(l)?,
                        op: *op,
                        r: self.term(r)?,
                    };
                    self.out.cmps.push(cmp);
                    Some(Cond::Cmp(u16::try_from(self.out.cmps.len() - 1).ok()?))
                }
            },
            _ => None,
        }
    }

    /// A list entry's condition: its fast form, else bytecode.
    fn cond(&mut self, e: &Expr, pos: Pos) -> Result<Cond, StrategyError> {
        match self.fast(e) {
            Some(c) => Ok(c),
            None => Ok(Cond::Code(self.code(e, pos)?)),
        }
    }

    /// Emit `e`; returns the stack depth it needs (the accumulator counts
    /// as one slot: every push stores it).
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
                self.out.code.push(match Slot::of_var(*v) {
                    Some(x) => slot_op(x),
                    None => Op::Var(*v),
                });
                1
            }
            Expr::Fun(f, s) => {
                let op = match self.subj(*s) {
                    Subj::Card(c) => match Slot::of_fun(*f, c) {
                        Some(x) => slot_op(x),
                        None => Op::Fun(*f, c),
                    },
                    Subj::Mask(m) => {
                        let i = self.mask_index(m);
                        if *f == Fun::Count {
                            Op::CountMask(i)
                        } else {
                            Op::FunMask(*f, i)
                        }
                    }
                };
                self.out.code.push(op);
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
            Expr::Num(f, x) => {
                let d = self.emit(x);
                self.out.code.push(Op::Num(*f));
                self.uses_buy |= *f != NumFun::BestHandMoney;
                d
            }
            // `c`, a jump over `a` (popping `c`), `a`, a jump over `b`, `b`:
            // the branch taken starts where `c` stood.
            Expr::If(c, a, b) => {
                let dc = self.emit(c);
                let at = self.out.code.len();
                self.out.code.push(Op::IfNot(0));
                let da = self.emit(a);
                let jump = self.out.code.len();
                self.out.code.push(Op::Jump(0));
                let db = self.emit(b);
                self.out.code[at] = Op::IfNot((jump - at) as u16);
                self.out.code[jump] = Op::Jump((self.out.code.len() - jump - 1) as u16);
                dc.max(da).max(db)
            }
            // Short-circuit: `l`, a jump over `r` and the `Bin` that
            // combines them when `l` decides.
            Expr::Bin(op @ (BinOp::And | BinOp::Or), l, r) => {
                let dl = self.emit(l);
                let at = self.out.code.len();
                self.out.code.push(Op::JumpIfZero(0));
                let dr = self.emit(r);
                self.out.code.push(Op::Bin(*op));
                let skip = (self.out.code.len() - at - 1) as u16;
                self.out.code[at] = if *op == BinOp::And {
                    Op::JumpIfZero(skip)
                } else {
                    Op::JumpIfNonZero(skip)
                };
                dl.max(dr + 1)
            }
            Expr::Bin(op, l, r) => match with_constant(*op, l, r) {
                // A constant operand: one `BinK`, no push.
                Some((x, op, k)) => {
                    let d = self.emit(x);
                    self.out.code.push(bin_k(op, k));
                    d
                }
                None => {
                    let dl = self.emit(l);
                    let dr = self.emit(r);
                    self.out.code.push(Op::Bin(*op));
                    dl.max(dr + 1)
                }
            },
        }
    }

    fn code(&mut self, e: &Expr, pos: Pos) -> Result<Code, StrategyError> {
        let start = self.out.code.len() as u32;
        let depth = self.emit(e);
        // A self-check of the compiler, not a bound: both functions walk the
        // same expression by the same rule; the bound input can reach (the
        // nesting) is the checked error just below.
        debug_assert_eq!(depth, stack_depth(e));
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
                None => Cond::Always,
                Some(x) => self.cond(x, e.pos)?,
            };
            let (target, mask) = match e.target.map(|s| self.subj(s)) {
                None => (Target::Nothing, CardSet::EMPTY),
                Some(Subj::Card(c)) => (Target::Card(c), CardSet::one(c)),
                Some(Subj::Mask(m)) => (Target::Type, m),
            };
            self.out.entries.push(CEntry { mask, target, cond });
            let at = match self.st.files.get(e.pos.file as usize) {
                Some(_) => format!("entry at {}", self.loc(e.pos)),
                None => format!("entry of {}", builtin_loc(e.pos)),
            };
            self.out.entry_at.push(at);
        }
        self.out
            .lists
            .push((start, self.out.entries.len() as u32 - start));
        Ok(self.out.lists.len() as u16 - 1)
    }
}

// The wildcard arm on `Why` keeps kinds added by later card sets compiling;
// they get the engine default.
#[allow(unreachable_patterns)]
pub(crate) fn compile(
    st: &Strategy,
    k: &Kingdom,
) -> Result<(Compiled, Vec<String>), StrategyError> {
    let effect_treasures: CardSet = k
        .in_game
        .and(CardSet::treasures())
        .iter()
        .filter(|c| c.info().effect)
        .collect();
    let mut cx = Ctx {
        st,
        k,
        out: Compiled {
            name: st.name.clone(),
            code: Vec::new(),
            masks: Vec::new(),
            cmps: Vec::new(),
            pairs: Vec::new(),
            entries: Vec::new(),
            entry_at: Vec::new(),
            lists: Vec::new(),
            routes: Routes::new([Route::ENGINE; N_SLOTS]),
            mode_list: Vec::new(),
            mode_at: Vec::new(),
            option_at: Vec::new(),
            two_choices: two_choices(),
            safe_ending: st.safe_ending,
            penultimate_province: st.penultimate_province,
            guarded: st.safe_ending || st.penultimate_province,
            effect_treasures,
            hypo_buy: None,
        },
        warnings: Vec::new(),
        uses_buy: false,
    };

    // The strategy's own lists and values.
    let mut lists: HashMap<Key, Route> = HashMap::new();
    // Where each of the file's options (`st.values`) is written.
    let mut value_loc: HashMap<Key, String> = HashMap::new();
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
        if l.key == Key::List(ListKind::Buy) {
            if let Some(e) = l
                .entries
                .iter()
                .find(|e| e.cond.as_ref().is_some_and(asks_buy))
            {
                return Err(cx.err(
                    e.pos,
                    "would_buy, buy_value and buy_cost ask the buy list: they cannot be used in it (use them in play, trash, discard, pass... lists and options)".into(),
                ));
            }
        }
        let id = if l.key == Key::List(ListKind::Play) && plays_no_ruins(&l.entries, k) {
            // Ruins are always worth playing once nothing else is: a `play`
            // list that names none gets them last (`domsim check` says so).
            let mut entries = l.entries.clone();
            entries.push(Entry {
                pos: l.pos,
                target: Some(Subject::Type(crate::cards::Types::RUINS)),
                cond: None,
            });
            let id = cx.list(&entries, true)?;
            let here = cx.loc(l.pos);
            if let Some(at) = cx.out.entry_at.last_mut() {
                *at = format!(
                    "the implicit Ruins entry at the end of the play list at {here} (it names no Ruins)"
                );
            }
            id
        } else {
            cx.list(&l.entries, true)?
        };
        lists.insert(l.key, Route::List(id, Rule::Engine));
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
        if let Key::Data(card, i) = v.key {
            if DATA_OPTIONS[i as usize].1 == Question::Choose {
                if let Some(w) = choose_out_of_range(card, &v.expr) {
                    cx.warnings.push(format!("{}: warning: {w}", cx.loc(v.pos)));
                }
            }
        }
        let code = cx.code(&v.expr, v.pos)?;
        lists.insert(v.key, Route::Value(code));
        value_loc.insert(v.key, cx.opt_loc(v.pos));
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
    let mut generic: Row = [Route::ENGINE; N_SLOTS];
    for why in WHYS {
        let Some(w) = why_index(why) else { continue };
        generic[w] = match why {
            Why::Buy => general(&lists, ListKind::Buy).unwrap_or(Route::Nothing),
            Why::Gain => general(&lists, ListKind::Gain)
                .or(general(&lists, ListKind::Buy))
                .unwrap_or(Route::ENGINE),
            Why::PlayAction => general(&lists, ListKind::Play).unwrap_or(Route::DefaultPlay),
            Why::PlayTreasure => {
                general(&lists, ListKind::Treasures).unwrap_or(Route::AllTreasures)
            }
            Why::Trash => general(&lists, ListKind::Trash).unwrap_or(Route::ENGINE),
            Why::Discard => general(&lists, ListKind::Discard).unwrap_or(Route::ENGINE),
            Why::Topdeck => general(&lists, ListKind::Topdeck).unwrap_or(Route::ENGINE),
            Why::PlayTarget => general(&lists, ListKind::Play).unwrap_or(Route::ENGINE),
            Why::React => Route::React,
            Why::TrashTrigger => Route::TrashOrder,
            _ => Route::ENGINE,
        };
    }
    cx.out.routes = Routes::new(generic);

    // Per-card options.
    let mut modes = Vec::new();
    for (i, spec) in OPTIONS.iter().enumerate() {
        let Some(slot) = slot_of(spec.question) else {
            continue;
        };
        // A card's own rule is the last resort of its pick, in every game
        // (a list that matches nothing, or no list).
        let rule = match spec.fallback.last() {
            Some(&Src::Rule(r)) => r,
            _ => Rule::Engine,
        };
        if !k.in_game.contains(spec.card) {
            if rule != Rule::Engine {
                let r = cx.out.routes.get(Some(spec.card), slot).with_rule(rule);
                cx.out.routes.set(spec.card, slot, r);
            }
            continue;
        }
        let mut route = lists.get(&Key::Opt(i as u16)).copied();
        let mut loc = value_loc.get(&Key::Opt(i as u16)).cloned();
        for src in spec.fallback {
            if route.is_some() {
                break;
            }
            route = match *src {
                Src::General(l) => general(&lists, l),
                Src::Costliest(m) => Some(Route::Costliest(m)),
                Src::Rule(r) => Some(Route::Default(r)),
                Src::Builtin => match builtin.lists.iter().find(|l| l.key == Key::Opt(i as u16)) {
                    Some(l) => Some(Route::List(cx.list(&l.entries, false)?, Rule::Engine)),
                    // A built-in condition (a yes/no or a mode).
                    None => match builtin.values.iter().find(|v| v.key == Key::Opt(i as u16)) {
                        Some(v) => {
                            loc = Some(cx.opt_loc(v.pos));
                            Some(Route::Value(cx.code(&v.expr, v.pos)?))
                        }
                        None => None,
                    },
                },
            };
        }
        let route = route.unwrap_or(Route::ENGINE).with_rule(rule);
        // A self-check of the option table (a constant of the crate, not
        // input): only list options take routes other than a value or the
        // engine's default.
        debug_assert!(
            spec.kind == Kind::List || matches!(route, Route::Value(_) | Route::ENGINE),
            "option {} {}",
            spec.card,
            spec.name
        );
        let loc = loc.unwrap_or_default();
        if let Question::Mode(m) = spec.question {
            let own = lists.contains_key(&Key::Opt(i as u16));
            modes.push((spec.card, m, route, own, loc));
        } else {
            if matches!(route, Route::Value(_)) {
                cx.out.option_at.push((spec.card, slot, loc));
            }
            cx.out.routes.set(spec.card, slot, route);
        }
    }
    finish_modes(&mut cx.out, &modes);
    if cx.uses_buy {
        hypothetical_buys(&mut cx)?;
    }
    // Data cards' own options: over the general lists of their row.
    for (key, route) in &lists {
        if let Key::Data(card, i) = *key {
            if let Some(slot) = slot_of(super::options::DATA_OPTIONS[i as usize].1) {
                if let Some(loc) = value_loc.get(key) {
                    cx.out.option_at.push((card, slot, loc.clone()));
                }
                cx.out.routes.set(card, slot, *route);
            }
        }
    }
    st.in_line_order(&mut cx.warnings);
    Ok((cx.out, cx.warnings))
}

/// The "choose one" route of each card with mode options: the file's own
/// mode conditions if it sets any, else the built-in ones, in table order
/// (`Route::Modes`; it replaces a `Choose` number route of the same card).
fn finish_modes(out: &mut Compiled, modes: &[(Card, u8, Route, bool, String)]) {
    let mut i = 0;
    while i < modes.len() {
        let card = modes[i].0;
        let j = modes[i..]
            .iter()
            .position(|m| m.0 != card)
            .map_or(modes.len(), |k| i + k);
        let group = &modes[i..j];
        let own = group.iter().any(|m| m.3);
        let start = out.mode_list.len() as u32;
        for (_, m, route, is_own, loc) in group {
            if *is_own != own {
                continue;
            }
            if let Route::Value(code) = *route {
                out.mode_list.push((*m, code));
                out.mode_at.push(loc.clone());
            }
        }
        let n = out.mode_list.len() as u32 - start;
        if n > 0 {
            out.routes.set(card, CHOOSE, Route::Modes(start, n));
        }
        i = j;
    }
}

/// Cards that ask two "choose one" questions in a row (the reference table
/// lists them twice).
fn two_choices() -> CardSet {
    let mut seen = CardSet::EMPTY;
    let mut twice = CardSet::EMPTY;
    for q in questions() {
        if matches!(q.kind, QuestionKind::Choose(_)) {
            if seen.contains(q.card) {
                twice.insert(q.card);
            }
            seen.insert(q.card);
        }
    }
    twice
}

/// Why a constant `choose:` value of data card `card` answers option 0
/// whatever it says (it is out of range of one of its questions), if it is.
/// A computed value out of range falls back to option 0 at run time
/// (docs/DESIGNING_CARDS.md).
fn choose_out_of_range(card: Card, e: &Expr) -> Option<String> {
    fn constant(e: &Expr) -> Option<i32> {
        match e {
            Expr::Int(v) => Some(*v),
            Expr::Neg(x) => Some(constant(x)?.wrapping_neg()),
            _ => None,
        }
    }
    let v = constant(e)?;
    let counts = crate::cards::data::choice_counts(card);
    let n = *counts.iter().find(|&&n| !(0..n as i32).contains(&v))?;
    let pairs = if counts.len() > 1 {
        " (one of its questions)"
    } else {
        ""
    };
    Some(format!(
        "{card} has {n} options{pairs}, numbered 0 to {}: 'choose: {v}' is out of range, so option 0 is chosen",
        n.saturating_sub(1)
    ))
}

/// Where an entry of the built-in default lists ([`BUILTIN`]) stands, in
/// words a user can find: the list's header and the entry's text (a
/// `<built-in>:line:col` would point into text no user has).
fn builtin_loc(p: Pos) -> String {
    let lines: Vec<&str> = BUILTIN.lines().collect();
    let at = (p.line as usize)
        .saturating_sub(1)
        .min(lines.len().saturating_sub(1));
    let header = lines[..=at]
        .iter()
        .rev()
        .find(|l| !l.starts_with([' ', '\t', '#']) && l.contains(':'))
        .map_or("", |l| l.split(':').next().unwrap_or(""));
    let line = lines.get(at).map_or("", |l| l.trim());
    let entry = if line.starts_with(header) && !header.is_empty() {
        line[header.len()..].trim_start_matches(':').trim()
    } else {
        line
    };
    format!("the built-in \"{header}:\" default, \"{entry}\"")
}

/// Compile against `k` what `f` emits for a lone expression, as if it
/// stood at line 1, column 1 of the strategy's first file.
fn compile_lone<T>(
    st: &Strategy,
    k: &Kingdom,
    f: impl FnOnce(&mut Ctx, Pos) -> Result<T, StrategyError>,
) -> Result<(Compiled, T), StrategyError> {
    let (c, _) = compile(st, k)?;
    let mut cx = Ctx {
        st,
        k,
        out: c,
        warnings: Vec::new(),
        uses_buy: false,
    };
    let pos = Pos {
        file: 0,
        line: 1,
        col: 1,
    };
    let t = f(&mut cx, pos)?;
    if cx.uses_buy && cx.out.hypo_buy.is_none() {
        hypothetical_buys(&mut cx)?;
    }
    Ok((cx.out, t))
}

/// Compile a lone expression (for [`super::evaluate`]).
pub(crate) fn compile_expr(
    st: &Strategy,
    e: &Expr,
    k: &Kingdom,
) -> Result<(Compiled, Code), StrategyError> {
    compile_lone(st, k, |cx, pos| cx.code(e, pos))
}

/// Compile a lone condition as a list entry's (its fast form when it has
/// one), for the tests that compare it with the expression tree.
#[cfg(test)]
pub(crate) fn compile_cond(
    st: &Strategy,
    e: &Expr,
    k: &Kingdom,
) -> Result<(Compiled, Cond), StrategyError> {
    compile_lone(st, k, |cx, pos| cx.cond(e, pos))
}

/// The stack depth [`Ctx::emit`] computes for `e` (tests of [`stack_need`]).
#[cfg(test)]
pub(crate) fn emit_depth(st: &Strategy, e: &Expr, k: &Kingdom) -> usize {
    compile_lone(st, k, |cx, _| Ok(cx.emit(e)))
        .map(|(_, d)| d)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::options::{Kind, Question, OPTIONS};
    use crate::strategy::parse;

    fn k() -> Kingdom {
        Kingdom::with_piles(2, &[Card::Smithy, Card::Chapel]).unwrap()
    }

    #[test]
    fn option_table_is_consistent() {
        for (i, a) in OPTIONS.iter().enumerate() {
            for b in &OPTIONS[i + 1..] {
                assert!(
                    !(a.card == b.card && (a.name == b.name || a.question == b.question)),
                    "{} {} twice",
                    a.card,
                    a.name
                );
            }
            match a.question {
                Question::Pick(w) => {
                    assert_eq!(a.kind, Kind::List);
                    assert!(why_index(w).is_some());
                }
                Question::React => assert_eq!(a.kind, Kind::Bool),
                Question::Choose => assert_eq!(a.kind, Kind::Int),
                Question::Mode(_) => assert_eq!(a.kind, Kind::Bool),
                Question::YesNoOwn | Question::YesNoOther => {}
            }
            // A built-in rule answers picks, and only as the last resort.
            for (j, src) in a.fallback.iter().enumerate() {
                if let Src::Rule(_) = src {
                    assert!(
                        matches!(a.question, Question::Pick(_)),
                        "{} {}",
                        a.card,
                        a.name
                    );
                    assert_eq!(j + 1, a.fallback.len(), "{} {}", a.card, a.name);
                }
            }
        }
    }

    /// The table side (compile, route, options, rules) never reaches into
    /// the question modules: they read the table, not the other way round.
    #[test]
    fn the_table_modules_do_not_import_the_question_modules() {
        let needle = ["questions", "::"].concat();
        for (file, src) in [
            ("compile.rs", include_str!("compile.rs")),
            ("route.rs", include_str!("route.rs")),
            ("options.rs", include_str!("options.rs")),
            ("rules.rs", include_str!("rules.rs")),
            ("eval.rs", include_str!("eval.rs")),
        ] {
            for (i, line) in src.lines().enumerate() {
                let code = line.trim_start();
                assert!(
                    code.starts_with("//") || !code.contains(&needle),
                    "{file}:{}: {line}",
                    i + 1
                );
            }
        }
    }

    #[test]
    fn a_card_rule_is_the_last_resort_of_its_pick_in_every_game() {
        let slot = why_index(Why::Topdeck).unwrap();
        // Scavenger and Courtyard in the game, no list: their rules.
        let sc = Kingdom::with_piles(2, &[Card::Scavenger, Card::Courtyard]).unwrap();
        let st = crate::strategy::parse("buy: Silver", "t.dom").unwrap();
        let (c, _) = compile(&st, &sc).unwrap();
        assert_eq!(
            c.routes.get(Some(Card::Scavenger), slot),
            Route::Default(Rule::ScavengerTopdeck)
        );
        assert_eq!(
            c.routes.get(Some(Card::Courtyard), slot),
            Route::Default(Rule::CourtyardTopdeck)
        );
        // Not in the game: the general route, with the card's rule.
        let st = crate::strategy::parse("buy: Silver\ntopdeck: Gold", "t.dom").unwrap();
        let (c, _) = compile(&st, &k()).unwrap();
        assert!(matches!(
            c.routes.get(Some(Card::Courtyard), slot),
            Route::List(_, Rule::CourtyardTopdeck)
        ));
        assert!(matches!(
            c.routes.get(None, slot),
            Route::List(_, Rule::Engine)
        ));
    }

    #[test]
    fn builtin_lists_parse_and_belong_to_options_with_builtin_fallback() {
        let b = parse::parse_file(BUILTIN, "<built-in>", 0).unwrap();
        for l in &b.lists {
            let Key::Opt(i) = l.key else {
                panic!("built-ins are per-card lists")
            };
            assert!(OPTIONS[i as usize].fallback.contains(&Src::Builtin));
        }
    }

    #[test]
    fn simple_conditions_take_the_fast_path() {
        let st = crate::strategy::parse(
            "buy:\n Smithy if coins >= 4\n Chapel max 1\n Silver if coins + 1 > 3\n Gold\n \
             Copper if hand(Copper) + 1 > 3\n Duchy if coins >= 5 and count(Duchy) * 2 < cards",
            "t.dom",
        )
        .unwrap();
        let (c, _) = compile(&st, &k()).unwrap();
        let conds: Vec<Cond> = c.entries.iter().map(|e| e.cond).collect();
        assert_eq!(conds[0], Cond::Range(Slot::Coins, 4, i32::MAX));
        assert_eq!(
            conds[1],
            Cond::Range(Slot::Count(Card::Chapel), i32::MIN, 0)
        );
        // Two terms: `coins + 1` and `3`.
        let Cond::Cmp(i) = conds[2] else {
            panic!("{:?}", conds[2])
        };
        assert_eq!(
            c.cmps[i as usize],
            CmpTerms {
                l: Term {
                    src: TermSrc::Slot(Slot::Coins),
                    ops: [(BinOp::Add, 1), (BinOp::Add, 0)],
                    n: 1
                },
                op: BinOp::Gt,
                r: Term {
                    src: TermSrc::Const(3),
                    ops: [(BinOp::Add, 0); 2],
                    n: 0
                },
            }
        );
        // Not a term (`hand` scans a zone): bytecode, where a constant
        // operand folds into the operation (no push).
        let Cond::Code(code) = conds[4] else {
            panic!("{:?}", conds[2])
        };
        assert_eq!(
            c.code[code.start as usize..(code.start + code.len) as usize],
            [Op::Fun(Fun::Hand, Card::Copper), Op::AddK(1), Op::GtK(3)]
        );
        assert_eq!(conds[3], Cond::Always);
        // `and` of two fast conditions, the first a `Range`.
        let Cond::And(i) = conds[5] else {
            panic!("{:?}", conds[5])
        };
        let [a, b] = c.pairs[i as usize];
        assert_eq!(a, Cond::Range(Slot::Coins, 5, i32::MAX));
        assert!(matches!(b, Cond::Cmp(_)), "{b:?}");
    }

    #[test]
    fn routes_follow_the_fallback_chains() {
        let st = crate::strategy::parse("buy: Silver\ntrash: Estate", "t.dom").unwrap();
        let (c, _) = compile(&st, &k()).unwrap();
        let t = why_index(Why::Trash).unwrap();
        let general_trash = c.routes.get(None, t);
        assert!(matches!(general_trash, Route::List(..)));
        // Chapel's option is absent: the general trash list answers.
        assert_eq!(c.routes.get(Some(Card::Chapel), t), general_trash);
        // Gains fall back to the buy list; treasures to "play all".
        let buy = c.routes.get(None, why_index(Why::Buy).unwrap());
        assert_eq!(c.routes.get(None, why_index(Why::Gain).unwrap()), buy);
        assert_eq!(
            c.routes.get(None, why_index(Why::PlayTreasure).unwrap()),
            Route::AllTreasures
        );
        assert_eq!(
            c.routes.get(None, why_index(Why::PlayAction).unwrap()),
            Route::DefaultPlay
        );
        // Without a trash list, Chapel uses its built-in list.
        let st = crate::strategy::parse("buy: Silver", "t.dom").unwrap();
        let (c, _) = compile(&st, &k()).unwrap();
        assert!(matches!(
            c.routes.get(Some(Card::Chapel), t),
            Route::List(..)
        ));
        assert_eq!(c.routes.get(None, t), Route::ENGINE);
    }
}
