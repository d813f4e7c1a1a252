//! The parser: one file's text → [`FileAst`]. Line-based: a line with a `:`
//! is a header (setting, list start, or one-line option), any other
//! non-blank line is an entry of the list opened last. `#` starts a comment.

use super::ast::*;
use super::compile;
use super::options::{self, Kind, FUNS, NUM_FUNS, OPTIONS, SETTINGS, VARS};
use super::StrategyError;
use crate::cards::{edit_distance, normalize, Card, Types};

/// One parsed file, before `extends` is resolved.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileAst {
    pub name: Option<String>,
    pub extends: Option<(String, Pos)>,
    pub lists: Vec<ListDef>,
    pub values: Vec<ValueDef>,
    pub safe_ending: Option<bool>,
    pub penultimate_province: Option<bool>,
}

/// Error context of one line.
#[derive(Clone, Copy)]
struct Line<'a> {
    file: &'a str,
    fidx: u16,
    no: usize,
    text: &'a str,
    /// The constants the file defined above this line (`const NAME: N`).
    consts: &'a [(String, i32)],
}

impl<'a> Line<'a> {
    fn col(&self, i: usize) -> usize {
        self.text[..i.min(self.text.len())].chars().count() + 1
    }
    fn pos(&self, i: usize) -> Pos {
        Pos {
            file: self.fidx,
            line: self.no as u32,
            col: self.col(i) as u32,
        }
    }
    fn err(&self, i: usize, len: usize, msg: impl Into<String>) -> StrategyError {
        StrategyError {
            file: self.file.to_string(),
            line: self.no,
            col: self.col(i),
            msg: msg.into(),
            source_line: self.text.to_string(),
            width: len.max(1),
        }
    }
}

fn did_you_mean(s: Option<&str>) -> String {
    match s {
        Some(n) => format!(" (did you mean '{n}'?)"),
        None => String::new(),
    }
}

/// The closest of `words` to `w`, if reasonably close.
pub(crate) fn nearest<'w>(w: &str, words: impl Iterator<Item = &'w str>) -> Option<&'w str> {
    let key = normalize(w);
    let mut best: Option<(usize, &str)> = None;
    for c in words {
        let d = edit_distance(&key, &normalize(c));
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.filter(|&(d, c)| d <= 2.max(c.len() / 3) && d < key.len().max(1))
        .map(|(_, c)| c)
}

/// A function's argument: one card or type (a subject without the advice
/// on how an entry goes on).
fn subject_arg(name: &str) -> Result<Subject, String> {
    if let Some(s) = known_subject(name)? {
        return Ok(s);
    }
    if name.contains(',') {
        return Err(format!(
            "a function takes one card or type, not '{}' (add them: count(A) + count(B))",
            name.trim()
        ));
    }
    Err(unknown_subject(name))
}

/// `name` as a card or type, `None` if it is neither, an error for a card
/// of a set this simulator does not cover.
fn known_subject(name: &str) -> Result<Option<Subject>, String> {
    if let Some(c) = Card::from_name(name) {
        // Dark Ages: the pile pseudo-cards never reach a hand or a deck; their
        // names mean the type (any Ruins, any Knight).
        if c.is(Types::PILE) {
            let t = if c == Card::Ruins {
                Types::RUINS
            } else {
                Types::KNIGHT
            };
            return Ok(Some(Subject::Type(t)));
        }
        return Ok(Some(Subject::Card(c)));
    }
    let key = normalize(name);
    if key == "terminal" || key == "terminals" {
        return Ok(Some(Subject::Terminal));
    }
    for (n, t) in Types::NAMES {
        let nk = normalize(n);
        if key == nk || key == format!("{nk}s") {
            return Ok(Some(Subject::Type(t)));
        }
    }
    if let Some((card, set)) = crate::cards::other_sets::other_set(name) {
        return Err(crate::cards::other_sets::not_covered(card, set));
    }
    Ok(None)
}

fn unknown_subject(name: &str) -> String {
    let sugg = Card::suggest(name)
        .map(|c| c.name())
        .or_else(|| nearest(name, Types::NAMES.iter().map(|(n, _)| *n)));
    format!(
        "unknown card or type '{}'{}",
        name.trim(),
        did_you_mean(sugg)
    )
}

/// A card or a type name of an entry. Cards win over types (Curse is both).
pub(crate) fn subject(name: &str) -> Result<Subject, String> {
    if let Some(s) = known_subject(name)? {
        return Ok(s);
    }
    // "Province when total_money >= 8": a card name, then words that are
    // not part of it: say how an entry goes on.
    let words: Vec<&str> = name.split_whitespace().collect();
    for k in (1..words.len()).rev() {
        let head = words[..k].join(" ");
        if Card::from_name(&head).is_some()
            || Types::NAMES
                .iter()
                .any(|(n, _)| normalize(n) == normalize(&head))
        {
            let next = words[k];
            let hint = if [
                "when", "whenever", "while", "unless", "provided", "only", "iff",
            ]
            .contains(&next.to_ascii_lowercase().as_str())
            {
                format!(
                    "a condition starts with 'if': write '{head} if {} …'",
                    words[k + 1..].join(" ")
                )
            } else if let Some(kw) = nearest(next, ENTRY_KEYWORDS.iter().copied()) {
                format!("'{next}' is not a keyword (did you mean '{kw}'?); after '{head}' an entry takes 'max N', 'keep N' or 'if CONDITION'")
            } else {
                format!("after '{head}' an entry takes 'max N', 'keep N' or 'if CONDITION'")
            };
            return Err(format!("unknown card or type '{}': {hint}", name.trim()));
        }
    }
    Err(unknown_subject(name))
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
/// A character of a card or type name in an entry: letters, digits and the
/// punctuation a name may be written with (`Throne.Room`, `Sir Martin's`),
/// which the lookup ignores as it does inside `count(...)`. Not the
/// characters that end a name: `,`, operators and parentheses.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '_' | '\'' | '-' | '.' | '’' | '‘' | '`' | '"' | '/' | '&'
        )
}

const ENTRY_KEYWORDS: [&str; 3] = ["if", "max", "keep"];
/// Every keyword (any case) and the empty entry: defined with the card
/// loader, which refuses card names holding one (`cards::data::NAME_KEYWORDS`).
pub(crate) use crate::cards::data::{EMPTY_ENTRY as NONE, STRATEGY_KEYWORDS as KEYWORDS};
const MAX_NESTING: usize = 48;
const MAX_OPERATORS: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Bool,
}

/// A cursor over one line, parsing entries and expressions.
struct Cur<'a> {
    ln: Line<'a>,
    s: &'a str,
    i: usize,
    end: usize,
    depth: usize,
    /// Binary operators parsed on this line: a chain `a + b + c ...` builds
    /// a left-deep tree that the compiler (and Drop) walk recursively, so
    /// its length is bounded like the nesting depth (hardening, issue 8).
    ops: usize,
}

type R<T> = Result<T, StrategyError>;

impl<'a> Cur<'a> {
    fn new(ln: Line<'a>, start: usize, end: usize) -> Self {
        Cur {
            ln,
            s: ln.text,
            i: start,
            end,
            depth: 0,
            ops: 0,
        }
    }
    fn peek(&self) -> Option<char> {
        self.s[self.i..self.end].chars().next()
    }
    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.i += c.len_utf8();
            } else {
                break;
            }
        }
    }
    fn at_end(&mut self) -> bool {
        self.ws();
        self.i >= self.end
    }
    /// The word at the cursor without consuming it.
    fn peek_word(&mut self) -> Option<&'a str> {
        self.ws();
        let rest = &self.s[self.i..self.end];
        let mut it = rest.char_indices();
        match it.next() {
            Some((_, c)) if is_word_start(c) => {}
            _ => return None,
        }
        let n = rest
            .char_indices()
            .find(|&(_, c)| !is_word_char(c))
            .map_or(rest.len(), |(k, _)| k);
        Some(&rest[..n])
    }
    /// Consume keyword `w` (lower-case), written in any case like the rest
    /// of the language (`IF`, `And`).
    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_word().is_some_and(|p| p.eq_ignore_ascii_case(w)) {
            self.i += w.len();
            true
        } else {
            false
        }
    }
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.i..self.end].starts_with(tok) {
            self.i += tok.len();
            true
        } else {
            false
        }
    }
    /// The text of the next token-ish thing, for "unexpected" messages.
    fn next_text(&mut self) -> (usize, &'a str) {
        self.ws();
        let rest = &self.s[self.i..self.end];
        let n = rest
            .char_indices()
            .find(|&(_, c)| c.is_whitespace())
            .map_or(rest.len(), |(k, _)| k);
        (
            self.i,
            &rest[..n.max(rest.chars().next().map_or(0, |c| c.len_utf8()))],
        )
    }
    fn unexpected(&mut self, what: &str) -> StrategyError {
        if let Some(e) = self.stray() {
            return e;
        }
        if self.at_end() {
            return self
                .ln
                .err(self.end, 1, format!("expected {what}, found end of line"));
        }
        let (i, t) = self.next_text();
        self.ln.err(
            i,
            t.chars().count(),
            format!("expected {what}, found '{}'", escape_invisible(t)),
        )
    }

    /// A character at the cursor that the language never uses (`≥`, `×`,
    /// `;`), named as such, with the ASCII operator it may stand for.
    fn stray(&mut self) -> Option<StrategyError> {
        self.ws();
        let c = self.peek()?;
        if c.is_alphanumeric() || "_'()+-*/%<>=!,.".contains(c) {
            return None;
        }
        let hint = match c {
            '≥' | '⩾' | '≧' => " (write '>=')",
            '≤' | '⩽' | '≦' => " (write '<=')",
            '≠' => " (write '!=')",
            '＝' | '⩵' => " (write '==')",
            '−' | '–' | '—' => " (write '-')",
            '×' | '·' | '∙' => " (write '*')",
            '÷' => " (write '/')",
            '&' => " (write 'and')",
            '|' => " (write 'or')",
            _ => "",
        };
        let shown = escape_invisible(c.encode_utf8(&mut [0; 4]));
        Some(
            self.ln
                .err(self.i, 1, format!("unexpected character '{shown}'{hint}")),
        )
    }

    // ---- expressions ----

    fn expr(&mut self, want: Ty) -> R<Expr> {
        self.ws();
        let start = self.i;
        let (e, ty) = self.or()?;
        // A condition is a number (1 or 0) where one is wanted.
        if ty != want && !(want == Ty::Int && ty == Ty::Bool) {
            // `coins ≥ 5`: the stray character, not the type, is the error.
            if let Some(err) = self.stray() {
                return Err(err);
            }
            let len = self.s[start..self.i].trim_end().chars().count();
            let msg = match want {
                Ty::Bool => "expected a condition (a comparison such as 'coins >= 6', or yes/no), found a number",
                Ty::Int => "expected a number, found a condition",
            };
            return Err(self.ln.err(start, len, msg));
        }
        Ok(e)
    }

    fn want(&self, ty: Ty, want: Ty, at: usize, end: usize) -> R<()> {
        // A condition used as a number is 1 or 0 (`(coins >= 6) * 2`).
        if ty == want || (want == Ty::Int && ty == Ty::Bool) {
            return Ok(());
        }
        let len = self.s[at..end].trim_end().chars().count();
        Err(self.ln.err(
            at,
            len,
            match want {
                Ty::Int => "expected a number here, found a condition",
                Ty::Bool => {
                    "expected a condition here (and/or/not combine comparisons), found a number"
                }
            },
        ))
    }

    fn or(&mut self) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        let (mut l, mut lt) = self.and()?;
        while self.eat_word("or") {
            self.count_op(at)?;
            self.want(lt, Ty::Bool, at, self.i)?;
            self.ws();
            let rat = self.i;
            let (r, rt) = self.and()?;
            self.want(rt, Ty::Bool, rat, self.i)?;
            l = Expr::Bin(BinOp::Or, Box::new(l), Box::new(r));
            lt = Ty::Bool;
        }
        Ok((l, lt))
    }

    fn and(&mut self) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        let (mut l, mut lt) = self.not()?;
        while self.eat_word("and") {
            self.count_op(at)?;
            self.want(lt, Ty::Bool, at, self.i)?;
            self.ws();
            let rat = self.i;
            let (r, rt) = self.not()?;
            self.want(rt, Ty::Bool, rat, self.i)?;
            l = Expr::Bin(BinOp::And, Box::new(l), Box::new(r));
            lt = Ty::Bool;
        }
        Ok((l, lt))
    }

    fn not(&mut self) -> R<(Expr, Ty)> {
        if self.eat_word("not") {
            self.ws();
            let at = self.i;
            self.nest(at)?;
            let (e, t) = self.not()?;
            self.depth -= 1;
            self.want(t, Ty::Bool, at, self.i)?;
            return Ok((Expr::Not(Box::new(e)), Ty::Bool));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        let (l, lt) = self.sum()?;
        self.ws();
        let ops = [
            ("<=", BinOp::Le),
            (">=", BinOp::Ge),
            ("==", BinOp::Eq),
            ("!=", BinOp::Ne),
            ("<", BinOp::Lt),
            (">", BinOp::Gt),
            ("=", BinOp::Eq),
        ];
        for (tok, op) in ops {
            if self.eat(tok) {
                self.want(lt, Ty::Int, at, self.i - tok.len())?;
                self.ws();
                let rat = self.i;
                let (r, rt) = self.sum()?;
                self.want(rt, Ty::Int, rat, self.i)?;
                self.ws();
                let rest = &self.s[self.i..self.end];
                if let Some((t, _)) = ops.iter().find(|(t, _)| rest.starts_with(t)) {
                    return Err(self.ln.err(
                        self.i,
                        t.len(),
                        format!(
                            "comparisons do not chain: write 'a < b and b < c' (found a second '{t}')"
                        ),
                    ));
                }
                return Ok((Expr::Bin(op, Box::new(l), Box::new(r)), Ty::Bool));
            }
        }
        Ok((l, lt))
    }

    fn sum(&mut self) -> R<(Expr, Ty)> {
        self.int_level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::prod)
    }

    fn prod(&mut self) -> R<(Expr, Ty)> {
        self.int_level(
            &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
            Self::unary,
        )
    }

    /// One left-associative level of integer operators: `next (op next)*`,
    /// both operands of every operator type-checked as integers.
    fn int_level(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Self) -> R<(Expr, Ty)>,
    ) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        let (mut l, mut lt) = next(self)?;
        while let Some(op) = ops.iter().find(|(t, _)| self.eat(t)).map(|&(_, op)| op) {
            self.count_op(at)?;
            self.want(lt, Ty::Int, at, self.i - 1)?;
            self.ws();
            let rat = self.i;
            let (r, rt) = next(self)?;
            self.want(rt, Ty::Int, rat, self.i)?;
            l = Expr::Bin(op, Box::new(l), Box::new(r));
            lt = Ty::Int;
        }
        Ok((l, lt))
    }

    /// Refuse `e` (the text at `at`, `len` characters) when its bytecode
    /// would need more than the evaluator's stack: checked here, not when
    /// compiling for a kingdom, so a file that loads runs in every kingdom.
    fn fits(&self, e: &Expr, as_entry: bool, at: usize, len: usize) -> R<()> {
        if compile::stack_need(e, as_entry) > compile::STACK {
            return Err(self.ln.err(
                at,
                len,
                "condition too deeply nested (split it, or use fewer parentheses)",
            ));
        }
        Ok(())
    }

    fn count_op(&mut self, at: usize) -> R<()> {
        self.ops += 1;
        if self.ops > MAX_OPERATORS {
            return Err(self.ln.err(
                at,
                1,
                format!("expression too long (more than {MAX_OPERATORS} operators on one line)"),
            ));
        }
        Ok(())
    }

    fn nest(&mut self, at: usize) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.ln.err(at, 1, "expression nested too deeply"));
        }
        Ok(())
    }

    fn unary(&mut self) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        if self.eat("-") {
            self.nest(at)?;
            self.ws();
            let rat = self.i;
            let (e, t) = self.unary()?;
            self.depth -= 1;
            self.want(t, Ty::Int, rat, self.i)?;
            return Ok((Expr::Neg(Box::new(e)), Ty::Int));
        }
        self.atom()
    }

    fn atom(&mut self) -> R<(Expr, Ty)> {
        self.ws();
        let at = self.i;
        if self.eat("(") {
            self.nest(at)?;
            let r = self.or()?;
            self.depth -= 1;
            if !self.eat(")") {
                return Err(self.unexpected("')'"));
            }
            return Ok(r);
        }
        if let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                let rest = &self.s[self.i..self.end];
                let mut n = rest
                    .char_indices()
                    .find(|&(_, c)| !c.is_ascii_alphanumeric() && c != '_' && c != '.')
                    .map_or(rest.len(), |(k, _)| k);
                // `5and turn > 1`: the number, then a keyword (as after
                // `max 2if`).
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if KEYWORDS
                    .iter()
                    .any(|k| rest[digits..n].eq_ignore_ascii_case(k))
                {
                    n = digits;
                }
                let lit = &rest[..n];
                self.i += n;
                return match lit.parse::<i32>() {
                    Ok(v) => Ok((Expr::Int(v), Ty::Int)),
                    Err(_) if lit.bytes().all(|b| b.is_ascii_digit()) => Err(self.ln.err(
                        at,
                        lit.chars().count(),
                        format!("{} is out of range: a number is at most {}", clip(lit), i32::MAX),
                    )),
                    Err(_) => Err(self.ln.err(
                        at,
                        lit.chars().count(),
                        format!("'{lit}' is not a whole number (only integers are allowed; money_density is in hundredths)"),
                    )),
                };
            }
        }
        let Some(w) = self.peek_word() else {
            return Err(self.unexpected("a number, a name or '('"));
        };
        self.i += w.len();
        let lw = w.to_ascii_lowercase();
        match lw.as_str() {
            "yes" | "true" => return Ok((Expr::Bool(true), Ty::Bool)),
            "no" | "false" => return Ok((Expr::Bool(false), Ty::Bool)),
            "if" => return self.if_then_else(at),
            _ => {}
        }
        if let Some(&(_, f, _)) = NUM_FUNS.iter().find(|(n, _, _)| *n == lw) {
            self.ws();
            if !self.eat("(") {
                return Err(self.ln.err(
                    at,
                    w.len(),
                    format!("'{w}' needs a number in parentheses, e.g. {w}(coins + 2)"),
                ));
            }
            self.nest(at)?;
            self.ws();
            let arg_at = self.i;
            let (arg, t) = self.or()?;
            self.want(t, Ty::Int, arg_at, self.i)?;
            self.depth -= 1;
            if !self.eat(")") {
                return Err(self.unexpected("')'"));
            }
            return Ok((Expr::Num(f, Box::new(arg)), Ty::Int));
        }
        if let Some(&(_, f, _)) = FUNS.iter().find(|(n, _, _)| *n == lw) {
            self.ws();
            if !self.eat("(") {
                return Err(self.ln.err(
                    at,
                    w.len(),
                    format!("'{w}' needs a card or type in parentheses, e.g. {w}(Copper)"),
                ));
            }
            let start = self.i;
            let Some(close) = self.s[self.i..self.end].find(')') else {
                return Err(self.ln.err(start, 1, "missing ')'"));
            };
            let name = &self.s[start..self.i + close];
            let name_at = start + (name.len() - name.trim_start().len());
            if name.trim().is_empty() {
                return Err(self.ln.err(start, 1, format!("'{w}' needs a card or type")));
            }
            // cost() and supply() of a pile pseudo-card (Knights, Ruins) are
            // the pile's (its top card's cost, the cards left in it).
            let sub = match Card::from_name(name) {
                Some(c) if matches!(f, Fun::Cost | Fun::Supply | Fun::CardId) => Subject::Card(c),
                _ => subject_arg(name)
                    .map_err(|m| self.ln.err(name_at, name.trim().chars().count(), m))?,
            };
            if matches!(f, Fun::Cost | Fun::CardId) && !matches!(sub, Subject::Card(_)) {
                return Err(self.ln.err(
                    name_at,
                    name.trim().chars().count(),
                    format!("{}() needs a card, not a type", lw),
                ));
            }
            self.i += close + 1;
            return Ok((Expr::Fun(f, sub), Ty::Int));
        }
        if let Some(&(_, v, _)) = VARS.iter().find(|(n, _, _)| *n == lw) {
            self.ws();
            if self.peek() == Some('(') {
                return Err(self.ln.err(at, w.len(), format!("'{w}' takes no argument")));
            }
            return Ok((Expr::Var(v), Ty::Int));
        }
        if let Some((_, v)) = self.ln.consts.iter().find(|(n, _)| *n == lw) {
            return Ok((Expr::Int(*v), Ty::Int));
        }
        if KEYWORDS.contains(&lw.as_str()) {
            let hint = if lw == "not" {
                " ('not' goes before a whole condition: 'not coins >= 6', or 'not (…)'; it cannot be a number)"
            } else {
                ""
            };
            return Err(self.ln.err(
                at,
                w.chars().count(),
                format!("expected a number, a name or '(', found the keyword '{w}'{hint}"),
            ));
        }
        if lw == "on" || lw == "off" {
            return Err(self.ln.err(
                at,
                w.chars().count(),
                format!("unknown name '{w}': a yes/no option takes yes or no (on/off are for settings such as 'safety:')"),
            ));
        }
        let words = VARS
            .iter()
            .map(|v| v.0)
            .chain(FUNS.iter().map(|f| f.0))
            .chain(NUM_FUNS.iter().map(|f| f.0))
            .chain(self.ln.consts.iter().map(|c| c.0.as_str()))
            .chain(["and", "or", "not", "yes", "no"]);
        let mut msg = format!("unknown name '{w}'{}", did_you_mean(nearest(w, words)));
        if Card::from_name(w).is_some() {
            msg = format!("'{w}' is a card; use count({w}), hand({w}), supply({w})...");
        }
        Err(self.ln.err(at, w.chars().count(), msg))
    }

    /// `if c then a else b` (the `if` at `at` already read): `a` when the
    /// condition `c` holds, else `b`. A condition when both branches are
    /// conditions, else a number (a condition branch counts 1 or 0).
    fn if_then_else(&mut self, at: usize) -> R<(Expr, Ty)> {
        self.nest(at)?;
        self.ws();
        let c_at = self.i;
        let (c, ct) = self.or()?;
        self.want(ct, Ty::Bool, c_at, self.i)?;
        if !self.eat_word("then") {
            return Err(self.unexpected("'then' (write 'if CONDITION then A else B')"));
        }
        let (a, at_ty) = self.or()?;
        if !self.eat_word("else") {
            return Err(self.unexpected(
                "'else' (an 'if' in a number needs both branches: 'if CONDITION then A else B')",
            ));
        }
        let (b, bt) = self.or()?;
        self.depth -= 1;
        let ty = if at_ty == Ty::Bool && bt == Ty::Bool {
            Ty::Bool
        } else {
            Ty::Int
        };
        Ok((Expr::If(Box::new(c), Box::new(a), Box::new(b)), ty))
    }

    // ---- entries ----

    /// `Card [max N] [keep N] [if cond]` or `none [if cond]`, up to a ',' or
    /// the end of the line.
    fn entry(&mut self) -> R<Entry> {
        self.ws();
        let start = self.i;
        let pos = self.ln.pos(start);
        // The name: words up to a keyword, ',' or the end.
        let mut name_end = start;
        loop {
            self.ws();
            let rest = &self.s[self.i..self.end];
            let n = rest
                .char_indices()
                .find(|&(_, c)| !is_name_char(c))
                .map_or(rest.len(), |(k, _)| k);
            if n == 0 {
                break;
            }
            let w = &rest[..n];
            if ENTRY_KEYWORDS.contains(&w.to_ascii_lowercase().as_str()) {
                break;
            }
            self.i += n;
            name_end = self.i;
        }
        let name = &self.s[start..name_end];
        if name.is_empty() {
            return Err(self.unexpected("a card name"));
        }
        let target = if name.eq_ignore_ascii_case(NONE) {
            None
        } else {
            Some(subject(name).map_err(|m| self.ln.err(start, name.chars().count(), m))?)
        };
        let mut cond: Option<Expr> = None;
        let add = |cond: &mut Option<Expr>, e: Expr| {
            *cond = Some(match cond.take() {
                None => e,
                Some(c) => Expr::Bin(BinOp::And, Box::new(c), Box::new(e)),
            })
        };
        loop {
            let kw_at = {
                self.ws();
                self.i
            };
            let cmp = if self.eat_word("max") {
                BinOp::Lt
            } else if self.eat_word("keep") {
                BinOp::Gt
            } else {
                break;
            };
            let Some(t) = target else {
                return Err(self.ln.err(kw_at, 4, "'none' takes no count limit"));
            };
            self.ws();
            let nat = self.i;
            let rest = &self.s[self.i..self.end];
            let n = rest
                .char_indices()
                .find(|&(_, c)| !c.is_ascii_digit())
                .map_or(rest.len(), |(k, _)| k);
            let num: i32 = rest[..n].parse().map_err(|_| {
                if n > 0 {
                    return self.ln.err(
                        nat,
                        n,
                        format!(
                            "{} is out of range: a count is at most {}",
                            clip(&rest[..n]),
                            i32::MAX
                        ),
                    );
                }
                let (i, t) = self.next_text();
                self.ln.err(
                    i.max(nat),
                    t.chars().count(),
                    "expected a whole number after max/keep",
                )
            })?;
            self.i += n;
            add(
                &mut cond,
                Expr::Bin(
                    cmp,
                    Box::new(Expr::Fun(Fun::Count, t)),
                    Box::new(Expr::Int(num)),
                ),
            );
        }
        // What the stack check underlines: the condition, else the entry.
        let (mut at, mut len) = (start, name.chars().count());
        if self.eat_word("if") {
            self.ws();
            at = self.i;
            let e = self.expr(Ty::Bool)?;
            len = self.s[at..self.i].trim_end().chars().count();
            add(&mut cond, e);
        }
        if let Some(e) = &cond {
            self.fits(e, true, at, len)?;
        }
        self.ws();
        if !(self.at_end() || self.peek() == Some(',')) {
            return Err(self.unexpected("'if', 'max', 'keep', ',' or the end of the line"));
        }
        Ok(Entry { pos, target, cond })
    }
}

/// Parse a comma-separated list of entries from `start` to the line's end.
fn entries(ln: Line, start: usize, out: &mut Vec<Entry>) -> R<()> {
    let mut c = Cur::new(ln, start, ln.text.len());
    loop {
        out.push(c.entry()?);
        if c.at_end() {
            return Ok(());
        }
        if !c.eat(",") {
            return Err(c.unexpected("','"));
        }
    }
}

fn on_off(ln: Line, at: usize, v: &str) -> R<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(ln.err(
            at,
            v.trim().chars().count(),
            format!("expected 'on' or 'off', found '{}'", v.trim()),
        )),
    }
}

/// What a header key is.
/// A `const NAME: N` line (`key` before its ':', `value` after it, at
/// `vat`): the constant, or None for another header. NAME is a new word
/// (not a variable, function, keyword or card; not defined above in the
/// file); N a whole number, maybe negative. Conditions below it may use
/// NAME wherever a number goes.
fn constant(
    ln: Line,
    indent: usize,
    key: &str,
    value: &str,
    vat: usize,
) -> R<Option<(String, i32)>> {
    let k = key.trim();
    let Some(name) = k
        .get(..6)
        .filter(|w| w.eq_ignore_ascii_case("const "))
        .map(|_| k[6..].trim())
    else {
        return Ok(None);
    };
    let name_at = indent + (k.len() - k[6..].trim_start().len());
    let width = name.chars().count().max(1);
    let word = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !word {
        return Err(ln.err(
            name_at,
            width,
            format!("'{name}' is not a constant's name: a name is letters, digits and '_', starting with a letter (e.g. const threshold: 16)"),
        ));
    }
    let lw = name.to_ascii_lowercase();
    let taken = VARS.iter().any(|v| v.0 == lw)
        || FUNS.iter().any(|f| f.0 == lw)
        || NUM_FUNS.iter().any(|f| f.0 == lw)
        || KEYWORDS.contains(&lw.as_str())
        || ["yes", "no", "true", "false", "on", "off", NONE].contains(&lw.as_str());
    if taken {
        return Err(ln.err(
            name_at,
            width,
            format!(
                "'{name}' is a word of the strategy language: a constant needs a name of its own"
            ),
        ));
    }
    if Card::from_name(name).is_some() {
        return Err(ln.err(
            name_at,
            width,
            format!("'{name}' is a card: a constant needs a name of its own"),
        ));
    }
    if ln.consts.iter().any(|c| c.0 == lw) {
        return Err(ln.err(
            name_at,
            width,
            format!("constant '{name}' is defined twice"),
        ));
    }
    let v = value.trim();
    let n = v.strip_prefix('-').unwrap_or(v);
    let parsed = if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
        v.parse::<i32>().ok()
    } else {
        None
    };
    let Some(x) = parsed else {
        return Err(ln.err(
            vat,
            v.chars().count().max(1),
            format!(
                "'const {name}:' needs a whole number from {} to {}, found '{}'",
                i32::MIN,
                i32::MAX,
                clip(v)
            ),
        ));
    };
    Ok(Some((lw, x)))
}

enum Head {
    Setting(&'static str),
    Key(Key),
}

fn head(ln: Line, at: usize, key: &str) -> R<Head> {
    let k = key.trim();
    let lk = k.to_ascii_lowercase();
    if let Some(s) = SETTINGS.iter().find(|s| **s == lk) {
        return Ok(Head::Setting(s));
    }
    if let Some(l) = ListKind::ALL.iter().find(|l| l.name() == lk) {
        return Ok(Head::Key(Key::List(*l)));
    }
    let len = k.chars().count();
    // `<Card> <option>`: the option is the last word.
    if let Some(sp) = k.rfind(char::is_whitespace) {
        let (cname, oname) = (k[..sp].trim(), k[sp..].trim());
        match Card::from_name(cname) {
            Some(card) if card.is_data() => {
                if let Some(i) = options::find_data_option(oname) {
                    return Ok(Head::Key(Key::Data(card, i as u8)));
                }
                let names: Vec<&str> = options::DATA_OPTIONS.iter().map(|o| o.0).collect();
                let at_opt = at + (key.len() - key.trim_start().len()) + sp + 1;
                return Err(ln.err(
                    at_opt,
                    oname.chars().count(),
                    format!(
                        "{card} has no option '{oname}'{} (a data card's options: {})",
                        did_you_mean(nearest(oname, names.iter().copied())),
                        names.join(", ")
                    ),
                ));
            }
            Some(card) => {
                if let Some(i) = options::find_option(card, oname) {
                    return Ok(Head::Key(Key::Opt(i as u16)));
                }
                let names: Vec<&str> = OPTIONS
                    .iter()
                    .filter(|o| o.card == card)
                    .map(|o| o.name)
                    .collect();
                let at_opt = at + (key.len() - key.trim_start().len()) + sp + 1;
                if names.is_empty() {
                    return Err(ln.err(
                        at,
                        len,
                        format!("{card} asks no questions, so it has no options"),
                    ));
                }
                return Err(ln.err(
                    at_opt,
                    oname.chars().count(),
                    format!(
                        "{card} has no option '{oname}'{} (its options: {})",
                        did_you_mean(nearest(oname, names.iter().copied())),
                        names.join(", ")
                    ),
                ));
            }
            None => {
                if let Some(s) = Card::suggest(cname) {
                    return Err(ln.err(
                        at,
                        cname.chars().count(),
                        format!("unknown card '{cname}' (did you mean '{s}'?)"),
                    ));
                }
            }
        }
    }
    if Card::from_name(k).is_some() {
        return Err(ln.err(
            at,
            len,
            format!("'{k}:' needs an option name, e.g. '{k} <option>:' (see docs/STRATEGIES.md)"),
        ));
    }
    Err(ln.err(
        at,
        len,
        format!(
            "unknown setting or list '{k}'{}",
            did_you_mean(nearest(k, options::header_words()))
        ),
    ))
}

/// Parse one file.
/// Parse one file, stopping at its first error (see [`parse_file_all`]).
pub(crate) fn parse_file(text: &str, file: &str, fidx: u16) -> R<FileAst> {
    parse_file_all(text, file, fidx).map_err(|mut e| e.swap_remove(0))
}

/// Parse one file, reporting every error of it (each line is parsed on
/// its own: after an error the next line is read; after a header that
/// fails, the entries below it are skipped up to the next header, which
/// would all be "outside any list"). `Err` holds at least one error, in
/// line order.
pub(crate) fn parse_file_all(
    text: &str,
    file: &str,
    fidx: u16,
) -> Result<FileAst, Vec<StrategyError>> {
    let mut ast = FileAst::default();
    // The list being filled: index into ast.lists.
    let mut current: Option<usize> = None;
    // The line of the last header that wrote its list on its own line
    // (`buy: Gold, Silver`), while no other header has come since.
    let mut inline_list: Option<usize> = None;
    let mut seen: Vec<(Key, usize)> = Vec::new();
    let mut seen_settings: Vec<(&str, usize)> = Vec::new();
    let mut errors: Vec<StrategyError> = Vec::new();
    let mut skipping = false;
    let mut consts: Vec<(String, i32)> = Vec::new();
    let mut step = |n: usize, raw: &str| -> R<()> {
        let code = raw.split('#').next().unwrap_or("");
        let ln = Line {
            file,
            fidx,
            no: n + 1,
            text: code,
            consts: &consts,
        };
        let err_line = Line { text: raw, ..ln };
        if code.trim().is_empty() {
            return Ok(());
        }
        let indent = code.len() - code.trim_start().len();
        let Some(colon) = code.find(':') else {
            let Some(li) = current else {
                let t = code.trim();
                if let Some(l) = inline_list {
                    return Err(err_line.err(
                            indent,
                            t.chars().count(),
                            format!("'{t}' is outside any list: the list on line {l} is written on its header line, which ends it; write its entries either all on that line or each on a line below a bare header"),
                        ));
                }
                return Err(err_line.err(
                    indent,
                    t.chars().count(),
                    format!("'{t}' is outside any list; start a list with a header such as 'buy:'"),
                ));
            };
            entries(ln, 0, &mut ast.lists[li].entries)?;
            return Ok(());
        };
        let in_list = current.take().is_some();
        inline_list = None;
        let key = &code[..colon];
        let value = &code[colon + 1..];
        let vat = colon + 1 + (value.len() - value.trim_start().len());
        if let Some(c) = constant(ln, indent, key, value, vat)? {
            consts.push(c);
            return Ok(());
        }
        let head = head(ln, indent, key).map_err(|e| {
                // `Gold if coins >= 6:` in a list: a stray ':' made an entry a
                // header.
                let entry = Line { text: key, ..ln };
                if in_list
                    && value.trim().is_empty()
                    && e.msg.starts_with("unknown setting or list")
                    && entries(entry, 0, &mut Vec::new()).is_ok()
                {
                    return ln.err(
                        colon,
                        1,
                        "unexpected ':' at the end of an entry (a line with ':' is a header): remove it to make the line an entry of the list above",
                    );
                }
                e
            })?;
        match head {
            Head::Setting(s) => {
                if let Some(&(_, l)) = seen_settings.iter().find(|(x, _)| *x == s) {
                    return Err(ln.err(
                        indent,
                        s.len(),
                        format!("'{s}' given twice (first on line {l})"),
                    ));
                }
                seen_settings.push((s, n + 1));
                let v = value.trim();
                if v.is_empty() {
                    return Err(ln.err(vat, 1, format!("'{s}:' needs a value")));
                }
                match s {
                    "name" => ast.name = Some(v.to_string()),
                    "extends" => ast.extends = Some((v.to_string(), ln.pos(vat))),
                    "safety" => {
                        let b = on_off(ln, vat, v)?;
                        ast.safe_ending = Some(b);
                        ast.penultimate_province = Some(b);
                    }
                    "safe_ending" => ast.safe_ending = Some(on_off(ln, vat, v)?),
                    _ => ast.penultimate_province = Some(on_off(ln, vat, v)?),
                }
            }
            Head::Key(k) => {
                if let Some(&(_, l)) = seen.iter().find(|(x, _)| *x == k) {
                    return Err(ln.err(
                        indent,
                        key.trim().chars().count(),
                        format!("'{}' given twice (first on line {l})", key.trim()),
                    ));
                }
                seen.push((k, n + 1));
                let kind = match k {
                    Key::List(_) => Kind::List,
                    Key::Opt(i) => OPTIONS[i as usize].kind,
                    Key::Data(_, i) => options::DATA_OPTIONS[i as usize].2,
                };
                let pos = ln.pos(indent);
                match kind {
                    Kind::List => {
                        let mut es = Vec::new();
                        if !value.trim().is_empty() {
                            entries(ln, vat, &mut es)?;
                            inline_list = Some(n + 1);
                        } else {
                            current = Some(ast.lists.len());
                        }
                        ast.lists.push(ListDef {
                            key: k,
                            pos,
                            entries: es,
                        });
                    }
                    Kind::Bool | Kind::Int => {
                        if value.trim().is_empty() {
                            return Err(ln.err(
                                vat,
                                1,
                                format!(
                                    "'{}:' needs a value on the same line ({})",
                                    key.trim(),
                                    if kind == Kind::Bool {
                                        "yes, no, or a condition"
                                    } else {
                                        "a number"
                                    }
                                ),
                            ));
                        }
                        let mut c = Cur::new(ln, vat, code.len());
                        let expr = c.expr(if kind == Kind::Bool {
                            Ty::Bool
                        } else {
                            Ty::Int
                        })?;
                        if !c.at_end() {
                            return Err(c.unexpected("the end of the line"));
                        }
                        let len = code[vat..].trim_end().chars().count();
                        c.fits(&expr, false, vat, len)?;
                        ast.values.push(ValueDef { key: k, pos, expr });
                    }
                }
            }
        }
        Ok(())
    };
    for (n, raw) in text.lines().enumerate() {
        let code = raw.split('#').next().unwrap_or("");
        let header = code.contains(':');
        if skipping && !header {
            continue;
        }
        skipping = false;
        if let Err(e) = step(n, raw) {
            errors.push(e);
            skipping = header;
        }
    }
    if errors.is_empty() {
        Ok(ast)
    } else {
        Err(errors)
    }
}

/// Parse one expression (a number or a condition) on its own.
pub(crate) fn parse_expr(text: &str, file: &str) -> R<Expr> {
    let ln = Line {
        file,
        fidx: 0,
        no: 1,
        text,
        consts: &[],
    };
    let mut c = Cur::new(ln, 0, text.len());
    let (e, _) = c.or()?;
    if !c.at_end() {
        return Err(c.unexpected("the end of the expression"));
    }
    c.fits(&e, false, 0, text.trim_end().chars().count())?;
    Ok(e)
}

/// `s`, cut to its first 40 characters with an ellipsis if longer (for
/// quoting a token of a huge line in a message).
fn clip(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// `text` with every invisible or control character written as `U+XXXX`
/// (a zero-width space pasted from a web page is otherwise unreadable in
/// an error message).
pub fn escape_invisible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let invisible = c.is_control()
            || matches!(
                c,
                '\u{00A0}'
                    | '\u{00AD}'
                    | '\u{034F}'
                    | '\u{061C}'
                    | '\u{115F}'
                    | '\u{1160}'
                    | '\u{17B4}'
                    | '\u{17B5}'
                    | '\u{180E}'
                    | '\u{2000}'..='\u{200F}'
                    | '\u{2028}'..='\u{202F}'
                    | '\u{205F}'..='\u{206F}'
                    | '\u{3000}'
                    | '\u{3164}'
                    | '\u{FE00}'..='\u{FE0F}'
                    | '\u{FEFF}'
                    | '\u{FFA0}'
                    | '\u{FFF0}'..='\u{FFFB}'
            );
        if invisible {
            out.push_str(&format!("U+{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: &str) -> R<FileAst> {
        parse_file(t, "t.dom", 0)
    }

    #[test]
    fn entry_forms() {
        let a = p("buy:\n  Throne Room max 2 if coins >= 4\n  none if turn < 3\n  Gold, Silver\n")
            .unwrap();
        let es = &a.lists[0].entries;
        assert_eq!(es.len(), 4);
        assert_eq!(es[0].target, Some(Subject::Card(Card::ThroneRoom)));
        assert_eq!(es[1].target, None);
        assert_eq!(es[0].pos.col, 3);
        assert_eq!(es[3].pos.col, 9);
        assert!(matches!(es[0].cond, Some(Expr::Bin(BinOp::And, _, _))));
    }

    #[test]
    fn precedence() {
        let a = p("x:").err().unwrap();
        assert!(a.msg.contains("unknown setting or list 'x'"));
        let a = p("Chancellor discard_deck: 1 + 2 * 3 = 7 and not no or yes").unwrap();
        let e = &a.values[0].expr;
        // ((1 + (2*3)) == 7 and not no) or yes
        match e {
            Expr::Bin(BinOp::Or, l, _) => match &**l {
                Expr::Bin(BinOp::And, l, _) => match &**l {
                    Expr::Bin(BinOp::Eq, l, _) => {
                        assert!(
                            matches!(&**l, Expr::Bin(BinOp::Add, _, r) if matches!(&**r, Expr::Bin(BinOp::Mul, _, _)))
                        )
                    }
                    x => panic!("{x:?}"),
                },
                x => panic!("{x:?}"),
            },
            x => panic!("{x:?}"),
        }
    }
}
