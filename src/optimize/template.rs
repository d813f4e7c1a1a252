//! Strategy templates: a strategy file whose numbers, cards and entries are
//! parameters (`domsim optimize`).
//!
//! A placeholder is written in braces anywhere in a strategy file:
//!
//! * `{d: 6..16}` — an integer parameter `d`, both ends included (`6..=16`
//!   means the same); the placeholder is replaced by the number.
//! * `{X: card Action cost 3..5}` — a card parameter: one of the kingdom's
//!   cards that has every listed property (`Action`, `Attack`, `Treasure`,
//!   `Victory`, `Reaction`, `Looter`; `terminal`: an Action that gives no
//!   +Action in the card table; `nonterminal`: an Action with +1 Action or
//!   more; a role of [`crate::cards::roles`]: `draw`, `village`, `cantrip`,
//!   `trasher`, `curser`, `gainer`, `payload`, `buy`, `altvp`, `throne`,
//!   `sifter`, `defense`, `versatile` — so `draw` takes Library and Nobles,
//!   whose draw is in their effect, not their bonuses) and costs within the
//!   range; replaced by its name.
//! * `{?name}` at the start of an entry's line — an optional entry: the line
//!   is kept when the 0/1 parameter `name` is 1, and turned into a comment
//!   when it is 0 (so line numbers never move).
//! * `{d}` — the value of a parameter declared elsewhere in the file (a
//!   parameter is declared once, with its range or kind).
//!
//! A template that names a card outside its placeholders (`Smithy` in the
//! Smithy template) fits only a kingdom that has it: [`Template::domains`]
//! refuses any other, so `optimize --auto` never runs it there.
//!
//! Errors name the file, line and column of the placeholder. Limits, checked
//! here so that no search starts on an absurd space: an integer range has
//! ends within ±[`MAX_INT_END`] and at most [`MAX_INT_VALUES`] values; a
//! template has at most [`MAX_PARAMS`] parameters.

use crate::cards::roles::{roles, Roles};
use crate::cards::{Card, Set, Types};
use crate::engine::Kingdom;
use std::fmt;

/// A template error, at a position of the template file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.msg)
    }
}

impl std::error::Error for TemplateError {}

/// What a card parameter may be.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CardFilter {
    pub types: Types,
    pub terminal: bool,
    pub nonterminal: bool,
    /// Every role the card must have ([`crate::cards::roles`]).
    pub roles: Roles,
    pub cost: Option<(u8, u8)>,
}

impl CardFilter {
    pub fn accepts(&self, c: Card) -> bool {
        let i = c.info();
        (i.types.0 & self.types.0) == self.types.0
            && (!self.terminal || (c.is_action() && i.actions == 0))
            && (!self.nonterminal || (c.is_action() && i.actions >= 1))
            && (self.roles.is_empty() || roles(c).has(self.roles))
            && self.cost.is_none_or(|(lo, hi)| (lo..=hi).contains(&i.cost))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Integers `lo..=hi`.
    Int { lo: i64, hi: i64 },
    /// A kingdom card passing the filter.
    Card(CardFilter),
    /// An optional entry: 0 (off) or 1 (on).
    Toggle,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub kind: Kind,
    /// Where it is declared (1-based).
    pub line: usize,
    pub col: usize,
}

/// One placeholder of the text.
#[derive(Clone, Debug)]
struct Slot {
    /// Byte range of `{…}` in the text.
    start: usize,
    end: usize,
    param: usize,
    toggle: bool,
}

/// A parsed template.
#[derive(Clone, Debug)]
pub struct Template {
    pub file: String,
    pub text: String,
    pub params: Vec<Param>,
    slots: Vec<Slot>,
}

/// One value of a parameter: a number (integers, toggles) or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Card(Card),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Card(c) => write!(f, "{}", c.name()),
        }
    }
}

fn is_name(s: &str) -> bool {
    let mut ch = s.chars();
    ch.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && ch.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_range(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once("..")?;
    let b = b.strip_prefix('=').unwrap_or(b);
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// The ends of an integer parameter: within ±[`MAX_INT_END`].
pub const MAX_INT_END: i64 = 1_000_000;
/// Most values an integer parameter may take: the search enumerates them.
pub const MAX_INT_VALUES: i64 = 10_000;
/// Most parameters in one template.
pub const MAX_PARAMS: usize = 32;

/// An integer parameter's range `LO..HI` (or `LO..=HI`), within the limits.
fn int_range(spec: &str, name: &str) -> Result<(i64, i64), String> {
    let bad = || {
        format!("bad range '{spec}' for '{name}' (expected LO..HI with integers, e.g. 6..16, or 'card …')")
    };
    let Some((a, b)) = spec.split_once("..") else {
        return Err(bad());
    };
    let b = b.strip_prefix('=').unwrap_or(b);
    let end = |x: &str| -> Result<i64, String> {
        let x = x.trim();
        let digits = x.strip_prefix('-').unwrap_or(x);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        match x.parse::<i64>() {
            Ok(v) if (-MAX_INT_END..=MAX_INT_END).contains(&v) => Ok(v),
            _ => Err(format!(
                "{x} is out of range in '{name}': a parameter's ends are within -{MAX_INT_END}..{MAX_INT_END}"
            )),
        }
    };
    let (lo, hi) = (end(a)?, end(b)?);
    if lo > hi {
        return Err(format!(
            "empty range {lo}..{hi} for '{name}' (the low end comes first)"
        ));
    }
    if hi - lo >= MAX_INT_VALUES {
        return Err(format!(
            "range {lo}..{hi} for '{name}' has {} values; a parameter may take at most {MAX_INT_VALUES} (the search tries each): narrow it",
            hi - lo + 1
        ));
    }
    Ok((lo, hi))
}

const PROPERTIES: [&str; 21] = [
    "Action",
    "Attack",
    "Treasure",
    "Victory",
    "Reaction",
    "Looter",
    "terminal",
    "nonterminal",
    "draw",
    "village",
    "cantrip",
    "trasher",
    "curser",
    "gainer",
    "payload",
    "buy",
    "altvp",
    "throne",
    "sifter",
    "defense",
    "versatile",
];

fn parse_card_filter(words: &[&str]) -> Result<CardFilter, String> {
    let mut f = CardFilter::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        match w.to_ascii_lowercase().as_str() {
            "terminal" => f.terminal = true,
            "nonterminal" => f.nonterminal = true,
            "cost" => {
                let r = words
                    .get(i + 1)
                    .ok_or("'cost' needs a range, e.g. cost 2..5")?;
                let (lo, hi) = parse_range(r)
                    .or_else(|| r.parse().ok().map(|v| (v, v)))
                    .ok_or_else(|| format!("bad cost range '{r}' (expected e.g. 2..5)"))?;
                if lo < 0 || hi > 20 || lo > hi {
                    return Err(format!("cost range '{r}' is empty or out of 0..20"));
                }
                f.cost = Some((lo as u8, hi as u8));
                i += 1;
            }
            lw => match Types::NAMES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(lw))
            {
                Some((_, t)) => f.types = f.types.union(*t),
                None if Roles::from_name(lw).is_some() => {
                    f.roles = f.roles.union(Roles::from_name(lw).unwrap_or_default());
                }
                None => {
                    let best = PROPERTIES
                        .iter()
                        .min_by_key(|p| crate::cards::edit_distance(&p.to_ascii_lowercase(), lw));
                    let hint = best
                        .filter(|p| crate::cards::edit_distance(&p.to_ascii_lowercase(), lw) <= 2)
                        .map(|p| format!(" (did you mean '{p}'?)"))
                        .unwrap_or_default();
                    return Err(format!(
                        "unknown card property '{w}'{hint}; known: {}, cost LO..HI",
                        PROPERTIES.join(", ")
                    ));
                }
            },
        }
        i += 1;
    }
    Ok(f)
}

impl Template {
    /// Parse a template's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Template, TemplateError> {
        // A byte-order mark some editors write is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut params: Vec<Param> = Vec::new();
        let mut slots = Vec::new();
        let mut line_start = 0;
        for (ln, line) in text.split_inclusive('\n').enumerate() {
            let line_no = ln + 1;
            let err = |col: usize, msg: String| TemplateError {
                file: file.to_string(),
                line: line_no,
                col,
                msg,
            };
            let code = line.split('#').next().unwrap_or("");
            let mut from = 0;
            while let Some(open) = code[from..].find('{').map(|o| o + from) {
                let col = code[..open].chars().count() + 1;
                let Some(close) = code[open..].find('}').map(|c| c + open) else {
                    return Err(err(
                        col,
                        "'{' without a closing '}' on the same line".into(),
                    ));
                };
                let inner = code[open + 1..close].trim();
                let (toggle, inner) = match inner.strip_prefix('?') {
                    Some(rest) => (true, rest.trim()),
                    None => (false, inner),
                };
                if toggle && !code[..open].trim().is_empty() {
                    return Err(err(
                        col,
                        format!("an optional entry '{{?{inner}}}' must start its line"),
                    ));
                }
                let (name, spec) = match inner.split_once(':') {
                    Some((n, s)) => (n.trim(), Some(s.trim())),
                    None => (inner, None),
                };
                if !is_name(name) {
                    return Err(err(
                        col,
                        format!("bad parameter name '{name}' (letters, digits and '_', e.g. {{d: 6..16}})"),
                    ));
                }
                let known = params.iter().position(|p| p.name == name);
                let param = match (known, spec, toggle) {
                    (Some(i), None, _) => {
                        if toggle != (params[i].kind == Kind::Toggle) {
                            return Err(err(
                                col,
                                format!(
                                    "'{name}' is used both as an optional entry and as a value"
                                ),
                            ));
                        }
                        i
                    }
                    (Some(i), Some(_), _) => {
                        let p = &params[i];
                        return Err(err(
                            col,
                            format!(
                                "parameter '{name}' is already declared at line {}, column {}; write {{{name}}} to use its value again",
                                p.line, p.col
                            ),
                        ));
                    }
                    (None, Some(_), true) => {
                        return Err(err(
                            col,
                            format!("an optional entry takes no range: write {{?{name}}}"),
                        ));
                    }
                    (None, None, true) => {
                        if params.len() == MAX_PARAMS {
                            return Err(err(
                                col,
                                format!("too many parameters: a template has at most {MAX_PARAMS}"),
                            ));
                        }
                        params.push(Param {
                            name: name.into(),
                            kind: Kind::Toggle,
                            line: line_no,
                            col,
                        });
                        params.len() - 1
                    }
                    (None, None, false) => {
                        return Err(err(
                            col,
                            format!("parameter '{name}' is not declared: give its range the first time, e.g. {{{name}: 1..10}}"),
                        ));
                    }
                    (None, Some(spec), false) => {
                        let words: Vec<&str> = spec.split_whitespace().collect();
                        let kind = if words
                            .first()
                            .is_some_and(|w| w.eq_ignore_ascii_case("card"))
                        {
                            Kind::Card(parse_card_filter(&words[1..]).map_err(|m| err(col, m))?)
                        } else {
                            let (lo, hi) = int_range(spec, name).map_err(|m| err(col, m))?;
                            Kind::Int { lo, hi }
                        };
                        if params.len() == MAX_PARAMS {
                            return Err(err(
                                col,
                                format!("too many parameters: a template has at most {MAX_PARAMS}"),
                            ));
                        }
                        params.push(Param {
                            name: name.into(),
                            kind,
                            line: line_no,
                            col,
                        });
                        params.len() - 1
                    }
                };
                slots.push(Slot {
                    start: line_start + open,
                    end: line_start + close + 1,
                    param,
                    toggle,
                });
                from = close + 1;
            }
            line_start += line.len();
        }
        if params.is_empty() {
            return Err(TemplateError {
                file: file.to_string(),
                line: 1,
                col: 1,
                msg: "the template has no parameter: write one in braces, e.g. 'Province if total_money >= {p: 12..20}'".into(),
            });
        }
        Ok(Template {
            file: file.to_string(),
            text: text.to_string(),
            params,
            slots,
        })
    }

    /// The cards the template names outside its placeholders (in code,
    /// not in comments, `name:` or `extends:` lines), with the line and
    /// column of their first mention, in order of appearance. Basic cards
    /// are left out (every kingdom has them).
    pub fn named_cards(&self) -> Vec<(Card, usize, usize)> {
        let blanks: Vec<(usize, usize)> = self.slots.iter().map(|s| (s.start, s.end)).collect();
        cards_named_in(&self.text, &blanks)
    }

    /// Every value each parameter may take in kingdom `k` (cards in the
    /// kingdom's order). A card parameter no kingdom card fits is an error,
    /// and so is a card the template names that `k` does not have
    /// ([`Template::named_cards`]).
    pub fn domains(&self, k: &Kingdom) -> Result<Vec<Vec<Value>>, TemplateError> {
        let present = k.kingdom_cards();
        if let Some(&(c, line, col)) = self
            .named_cards()
            .iter()
            .find(|(c, _, _)| !present.contains(c) && !k.supply_piles().contains(c))
        {
            return Err(TemplateError {
                file: self.file.clone(),
                line,
                col,
                msg: format!(
                    "the template names {}, which this kingdom does not have ({})",
                    c.name(),
                    k.describe()
                ),
            });
        }
        self.params
            .iter()
            .map(|p| match &p.kind {
                Kind::Int { lo, hi } => Ok((*lo..=*hi).map(Value::Int).collect()),
                Kind::Toggle => Ok(vec![Value::Int(0), Value::Int(1)]),
                Kind::Card(f) => {
                    let v: Vec<Value> = k
                        .kingdom_cards()
                        .into_iter()
                        .filter(|&c| f.accepts(c))
                        .map(Value::Card)
                        .collect();
                    if v.is_empty() {
                        Err(TemplateError {
                            file: self.file.clone(),
                            line: p.line,
                            col: p.col,
                            msg: format!(
                                "no card of this kingdom fits the card parameter '{}' ({})",
                                p.name,
                                k.describe()
                            ),
                        })
                    } else {
                        Ok(v)
                    }
                }
            })
            .collect()
    }

    /// The strategy text for these parameter values (one per parameter).
    /// Line numbers are those of the template: a switched-off entry becomes
    /// a comment.
    pub fn render(&self, values: &[Value]) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for s in &self.slots {
            out.push_str(&self.text[at..s.start]);
            if s.toggle {
                if values[s.param] == Value::Int(0) {
                    out.push_str("# (off) ");
                }
            } else {
                out.push_str(&values[s.param].to_string());
            }
            at = s.end;
        }
        out.push_str(&self.text[at..]);
        out
    }

    /// `name=value` for every parameter.
    pub fn describe(&self, values: &[Value]) -> String {
        self.params
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{}={v}", p.name))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The cards a strategy text names (in code, not in comments, `name:` or
/// `extends:` lines), leaving out the byte ranges `blanks` (placeholders)
/// and the basic cards, with the line and column of their first mention,
/// in order of appearance.
pub fn cards_named_in(text: &str, blanks: &[(usize, usize)]) -> Vec<(Card, usize, usize)> {
    let mut out: Vec<(Card, usize, usize)> = Vec::new();
    let mut line_start = 0;
    let names: Vec<(Card, String)> = Card::PRINTED
        .iter()
        .copied()
        .filter(|c| c.info().set != Set::Basic && !c.info().types.has(Types::PILE))
        .chain(Card::named().filter(|c| c.is_data()))
        .map(|c| (c, c.name().to_ascii_lowercase()))
        .collect();
    let mut names = names;
    names.sort_by_key(|(c, n)| (std::cmp::Reverse(n.len()), *c));
    for (ln, line) in text.split_inclusive('\n').enumerate() {
        let end = line_start + line.len();
        let code_len = line.find('#').unwrap_or(line.len());
        // Blank out the placeholders of this line.
        let mut code: Vec<u8> = line.as_bytes()[..code_len].to_vec();
        for &(start, stop) in blanks {
            if start >= line_start && start < line_start + code_len {
                let (a, b) = (start - line_start, (stop - line_start).min(code_len));
                code[a..b].iter_mut().for_each(|x| *x = b' ');
            }
        }
        let code = String::from_utf8_lossy(&code).to_ascii_lowercase();
        let head = code.trim_start();
        if head.starts_with("name:") || head.starts_with("extends:") {
            line_start = end;
            continue;
        }
        // Longest names first, each match blanked, so that "Village"
        // is not found inside "Mining Village".
        let mut code = code.into_bytes();
        let word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        for (c, n) in &names {
            let n = n.as_bytes();
            let mut at = 0;
            while at + n.len() <= code.len() {
                // A name followed by '(' is a function (`count(Smithy)`,
                // not the card Count).
                let call = code[at + n.len()..]
                    .iter()
                    .find(|b| **b != b' ' && **b != b'\t')
                    == Some(&b'(');
                if &code[at..at + n.len()] == n
                    && !at.checked_sub(1).is_some_and(|i| word(code.get(i)))
                    && !word(code.get(at + n.len()))
                    && !call
                {
                    if !out.iter().any(|o| o.0 == *c) {
                        let col = String::from_utf8_lossy(&code[..at]).chars().count() + 1;
                        out.push((*c, ln + 1, col));
                    }
                    code[at..at + n.len()].iter_mut().for_each(|x| *x = b' ');
                    at += n.len();
                } else {
                    at += 1;
                }
            }
        }
        line_start = end;
    }
    out.sort_by_key(|o| (o.1, o.2));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> TemplateError {
        Template::parse(text, "t.domt").unwrap_err()
    }

    #[test]
    fn placeholders_render_in_place() {
        let t = Template::parse(
            "buy:\n    Province if total_money >= {p: 12..=20}\n{?g}    Gold  # {not a slot\n    Smithy if count(Smithy) < 1 + cards / {d: 6..16} and {d} > 2\n",
            "t.domt",
        )
        .unwrap();
        assert_eq!(t.params.len(), 3);
        assert_eq!(t.params[0].kind, Kind::Int { lo: 12, hi: 20 });
        assert_eq!(t.params[1].kind, Kind::Toggle);
        assert_eq!((t.params[2].line, t.params[2].col), (4, 43));
        let s = t.render(&[Value::Int(16), Value::Int(0), Value::Int(11)]);
        assert_eq!(
            s,
            "buy:\n    Province if total_money >= 16\n# (off)     Gold  # {not a slot\n    Smithy if count(Smithy) < 1 + cards / 11 and 11 > 2\n"
        );
        assert!(t
            .render(&[Value::Int(12), Value::Int(1), Value::Int(6)])
            .contains("\n    Gold  #"));
        assert_eq!(
            t.describe(&[Value::Int(16), Value::Int(0), Value::Int(11)]),
            "p=16 g=0 d=11"
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = err("buy:\n    Province if total_money >= {p: 20..12}\n");
        assert_eq!((e.line, e.col), (2, 32));
        assert!(e.msg.contains("empty range"), "{e}");
        assert!(err("buy:\n  Gold if {x}\n").msg.contains("not declared"));
        assert!(err("buy:\n  Gold if {x: a..b}\n").msg.contains("bad range"));
        assert!(err("buy:\n  Gold if {x: 1..3\n").msg.contains("closing"));
        assert!(err("buy:\n  Gold if {x: 1..3} > {x: 1..3}\n")
            .msg
            .contains("already declared at line 2, column 11"));
        assert!(err("buy:\n  Gold {?x}\n")
            .msg
            .contains("must start its line"));
        assert!(err("buy:\n  {X: card Atack}\n")
            .msg
            .contains("did you mean 'Attack'"));
        assert!(err("buy:\n  Gold\n").msg.contains("no parameter"));
        assert!(err("buy:\n  Gold if {9x: 1..2}\n")
            .msg
            .contains("bad parameter name"));
        assert_eq!(
            err("a\nb {x}").to_string(),
            "t.domt:2:3: parameter 'x' is not declared: give its range the first time, e.g. {x: 1..10}"
        );
    }

    #[test]
    fn limits_are_checked_where_the_range_is_written() {
        let e = err("buy:\n  Province if total_money >= {p: 0..4294967295}\n");
        assert_eq!((e.line, e.col), (2, 30));
        assert!(e.msg.contains("4294967295 is out of range"), "{e}");
        let e = err("buy:\n  Gold if {p: -9223372036854775808..9223372036854775807}\n");
        assert!(e.msg.contains("out of range"), "{e}");
        let e = err("buy:\n  Gold if {p: 0..99999999999999999999999}\n");
        assert!(e.msg.contains("out of range"), "{e}");
        let e = err("buy:\n  Gold if {p: -5000..5000}\n");
        assert!(e.msg.contains("10001 values"), "{e}");
        // The widest range allowed.
        let t = Template::parse("buy:\n  Gold if coins > {p: 1..10000}\n", "t").unwrap();
        assert_eq!(t.params[0].kind, Kind::Int { lo: 1, hi: 10000 });
        let many: String = (0..=MAX_PARAMS)
            .map(|i| format!(" + {{x{i}: 1..2}}"))
            .collect();
        let e = err(&format!("buy:\n  Gold if coins > 0{many}\n"));
        assert!(e.msg.contains("too many parameters"), "{e}");
        // A byte-order mark is not part of the template.
        let t = Template::parse("\u{feff}buy:\n  Gold if coins > {p: 1..3}\n", "t").unwrap();
        assert!(t.render(&[Value::Int(2)]).starts_with("buy:"));
    }

    #[test]
    fn card_parameters_take_the_kingdoms_cards() {
        // First Game: Cellar, Market, Militia, Mine, Moat, Remodel, Smithy,
        // Village, Woodcutter, Workshop.
        let k = crate::dominion::presets::Preset::find("First Game")
            .unwrap()
            .kingdom(2)
            .unwrap();
        let t = Template::parse(
            "buy:\n  {T: card terminal draw}\n  {A: card Attack cost 2..4}\n",
            "t",
        )
        .unwrap();
        let d = t.domains(&k).unwrap();
        let names = |v: &[Value]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&d[0]), ["Moat", "Smithy"]);
        assert_eq!(names(&d[1]), ["Militia"]);
        let none = Template::parse("buy:\n  {W: card Attack cost 5..5}\n", "t").unwrap();
        let e = none.domains(&k).unwrap_err();
        assert!(e.msg.contains("no card of this kingdom"), "{e}");
    }

    #[test]
    fn role_properties_take_effect_draw() {
        // Library and Nobles draw by their effect, not their bonuses.
        let k = Kingdom::from_names(
            2,
            &[
                "Library", "Nobles", "Village", "Chapel", "Witch", "Moat", "Market", "Cellar",
                "Mine", "Gardens",
            ],
        )
        .unwrap();
        let t = Template::parse(
            "buy:\n  {T: card terminal draw}\n  {X: card trasher}\n  {V: card altvp}\n",
            "t",
        )
        .unwrap();
        let d = t.domains(&k).unwrap();
        let names = |v: &[Value]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&d[0]), ["Library", "Moat", "Witch", "Nobles"]);
        assert_eq!(names(&d[1]), ["Chapel"]);
        assert_eq!(names(&d[2]), ["Gardens", "Nobles"]);
        assert!(err("buy:\n  {X: card trashr}\n")
            .msg
            .contains("did you mean 'trasher'"));
    }

    #[test]
    fn a_template_naming_a_card_needs_it_in_the_kingdom() {
        let t = Template::parse(
            "name: Smithy or Village test\nbuy:\n    Mining Village  # not Smithy\n    Smithy if count(Smithy) < {m: 1..3}\n    Count\n",
            "t.domt",
        )
        .unwrap();
        let named: Vec<_> = t
            .named_cards()
            .iter()
            .map(|c| (c.0.name(), c.1, c.2))
            .collect();
        assert_eq!(
            named,
            [("Mining Village", 3, 5), ("Smithy", 4, 5), ("Count", 5, 5)],
            "not Village inside Mining Village, not the name: line, not the function count()"
        );
        let piles = |names: &[&str]| {
            let cards: Vec<Card> = names.iter().map(|n| Card::from_name(n).unwrap()).collect();
            Kingdom::with_piles(2, &cards).unwrap()
        };
        let with = piles(&["Smithy", "Mining Village", "Count"]);
        assert!(t.domains(&with).is_ok());
        let without = piles(&["Mining Village", "Village"]);
        let e = t.domains(&without).unwrap_err();
        assert_eq!((e.line, e.col), (4, 5));
        assert!(
            e.msg
                .contains("names Smithy, which this kingdom does not have"),
            "{e}"
        );
    }

    /// Every shipped template, in 300 random kingdoms: where it is allowed
    /// to run (its domains exist), no bot it writes names a card the
    /// kingdom lacks; and it is allowed wherever its card parameters fit
    /// and its literal cards are there.
    #[test]
    fn shipped_templates_never_name_absent_cards() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/templates");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "domt"))
            .collect();
        files.sort();
        assert!(files.len() >= 7);
        let mut ran_each = vec![0; files.len()];
        let sets = [Set::Base, Set::Intrigue, Set::DarkAges];
        let mut ran = 0;
        for (fi, f) in files.iter().enumerate() {
            let t = Template::parse(
                &std::fs::read_to_string(f).unwrap(),
                &f.display().to_string(),
            )
            .unwrap();
            for seed in 0..300 {
                let k = Kingdom::random(2, &sets, seed).unwrap();
                let Ok(d) = t.domains(&k) else { continue };
                ran += 1;
                ran_each[fi] += 1;
                let dims: Vec<usize> = d.iter().map(Vec::len).collect();
                for p in crate::optimize::initial_points(&dims, 6, seed) {
                    let values: Vec<Value> = p.iter().zip(&d).map(|(&i, d)| d[i]).collect();
                    let text = t.render(&values);
                    // Every bot it writes is a valid strategy here.
                    let st = crate::strategy::parse(&text, &t.file)
                        .unwrap_or_else(|e| panic!("{}: {e}", t.describe(&values)));
                    let mut kk = k;
                    kk.track_turn |= st.uses_turn_counters();
                    st.compile(&kk).unwrap_or_else(|e| {
                        panic!("{} in {}: {e}", t.describe(&values), k.describe())
                    });
                    // Nor a type no card of the kingdom has.
                    assert_eq!(
                        st.absent_cards(&kk),
                        Vec::new(),
                        "{} in {}",
                        t.describe(&values),
                        k.describe()
                    );
                    for (c, line, _) in cards_named_in(&text, &[]) {
                        assert!(
                            k.kingdom_cards().contains(&c) || k.supply_piles().contains(&c),
                            "{} names {} (line {line}) in {}",
                            f.display(),
                            c.name(),
                            k.describe()
                        );
                    }
                }
            }
        }
        assert!(ran > 100, "the templates ran in {ran} kingdoms");
        assert!(
            ran_each.iter().all(|&r| r >= 5),
            "each template runs somewhere: {ran_each:?}"
        );
    }
}
