//! The strategy language: a bot as a short declarative text file.
//!
//! ```text
//! # Smithy Big Money
//! extends: big_money_ultimate.dom
//! buy:
//!     Province if total_money >= 18
//!     Gold
//!     Smithy max 1
//!     Silver
//! ```
//!
//! Pipeline: [`parse`]/[`load`] (text → [`Strategy`], with `extends`
//! resolved and card names already turned into card ids) →
//! [`Strategy::compile`] against a [`Kingdom`] (→ [`Compiled`]: flat arrays of
//! entries and condition bytecode, one routing table over every kind of
//! question, warnings for cards not in the kingdom) → [`StrategyBots`]
//! answering the engine's questions without allocating, one module per kind
//! of question (`questions/`: picks, yes/no, choose one, reactions, on-trash
//! order).
//!
//! Where an answer comes from when a file does not say is written once, in
//! the option table ([`options::OPTIONS`]: each row's fallback chain, ending
//! if need be with a built-in [`rules::Rule`]); the rest gets the engine's
//! documented default.
//!
//! Why a custom line-based language rather than TOML/YAML: a strategy is a few
//! priority lists whose entries carry conditions; in TOML each entry would be
//! a quoted string with a condition language inside it anyway, errors would
//! point at the string rather than at the offending word, and the file would
//! read like configuration rather than like the strategy articles players
//! write ("buy Province if …, else Gold, else Silver"). One header per line
//! (`buy:`), one entry per line (`Gold if coins >= 6`), `#` comments: every
//! error has a precise line and column. The full reference is
//! `docs/STRATEGIES.md`.

mod ast;
mod compile;
mod eval;
pub mod lint;
pub mod options;
mod parse;
mod questions;
mod route;
pub mod rules;
pub mod search_path;

pub use ast::{Entry, Expr, ListKind, Pos, Subject};
pub use compile::Compiled;
pub use questions::StrategyBots;

use crate::cards::Card;
use crate::engine::{Game, Kingdom};
use ast::{Key, ListDef, ValueDef};
use std::fmt;
use std::path::{Path, PathBuf};

/// A parse, load or compile error, positioned in a strategy file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyError {
    pub file: String,
    /// 1-based line (0 when the error is about the file as a whole).
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    pub msg: String,
    /// The offending line, quoted under the message.
    pub source_line: String,
    /// Width of the underlined text.
    pub width: usize,
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.file, self.msg);
        }
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.msg)?;
        if !self.source_line.trim().is_empty() {
            let num = self.line.to_string();
            let pad = " ".repeat(num.len());
            // Invisible characters are shown escaped (U+200B, a tab as
            // U+0009), and the caret line is padded by the width of what is
            // shown in terminal columns (two for a CJK character or most
            // emoji), so the carets stay under the offending text.
            let columns = |s: &str| unicode_width::UnicodeWidthStr::width(s);
            let shown = |c: char| parse::escape_invisible(c.encode_utf8(&mut [0; 4]));
            // A very long line is quoted around the column only, with an
            // ellipsis for what is left out.
            let chars: Vec<char> = self.source_line.chars().collect();
            let at = self.col.saturating_sub(1).min(chars.len());
            let (from, to) = if chars.len() > MAX_QUOTED {
                let from = at.saturating_sub(MAX_QUOTED / 2);
                let to = (from + MAX_QUOTED).min(chars.len());
                (to.saturating_sub(MAX_QUOTED).min(from), to)
            } else {
                (0, chars.len())
            };
            let head = if from > 0 { "…" } else { "" };
            let tail = if to < chars.len() { "…" } else { "" };
            let window: String = chars[from..to].iter().collect();
            let lead: String = head
                .chars()
                .chain(chars[from..at].iter().copied())
                .map(|c| " ".repeat(columns(&shown(c))))
                .collect();
            let width: usize = chars[at..to]
                .iter()
                .take(self.width.max(1))
                .map(|&c| columns(&shown(c)))
                .sum();
            write!(
                f,
                "\n{pad} |\n{num} | {head}{}{tail}\n{pad} | {lead}{}",
                parse::escape_invisible(window.trim_end()),
                "^".repeat(width.max(1))
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for StrategyError {}

/// Characters of a source line an error quotes at most (around the column).
const MAX_QUOTED: usize = 120;

/// A parsed strategy, `extends` resolved. Kingdom-independent; compile it
/// with [`Strategy::compile`] for each kingdom.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The `name:` setting, else the file name without extension.
    pub name: String,
    /// FNV-1a hash of the text of every file involved (this file and what it
    /// extends), for reproducibility records.
    pub source_hash: u64,
    /// Every file involved; `Pos::file` indexes this.
    pub files: Vec<String>,
    pub(crate) lists: Vec<ListDef>,
    pub(crate) values: Vec<ValueDef>,
    /// Don't buy/gain the card that ends the game when that loses it.
    pub safe_ending: bool,
    /// Penultimate Province rule.
    pub penultimate_province: bool,
}

impl Strategy {
    /// Sort warnings (`file:line:col: warning: …`, or `file: warning: …`
    /// about a whole file) into reading order: by file, in the order the
    /// strategy read them, then line and column. The compiler and the lints
    /// find them list by list; a user reads the file top to bottom. Texts
    /// that name no file of this strategy keep their place at the end.
    pub fn in_line_order(&self, warnings: &mut [String]) {
        let place = |w: &String| -> (usize, u64, u64) {
            let mut best: Option<(usize, &str)> = None;
            for (i, f) in self.files.iter().enumerate() {
                if let Some(rest) = w.strip_prefix(f.as_str()) {
                    if best.is_none_or(|(j, _)| self.files[j].len() < f.len()) {
                        best = Some((i, rest));
                    }
                }
            }
            let Some((i, rest)) = best else {
                return (usize::MAX, 0, 0);
            };
            let mut it = rest.split(':');
            let _ = it.next(); // empty: `rest` starts with ':'
            let line = it.next().and_then(|x| x.parse().ok());
            let col = it.next().and_then(|x| x.parse().ok());
            match (line, col) {
                (Some(l), Some(c)) => (i, l, c),
                _ => (i, 0, 0),
            }
        };
        warnings.sort_by_key(place);
    }

    /// Compile against a kingdom. Returns the compiled bot and warnings
    /// (entries naming cards that cannot appear in this kingdom are ignored
    /// with a warning).
    pub fn compile(&self, k: &Kingdom) -> Result<(Compiled, Vec<String>), StrategyError> {
        if self.uses_turn_counters() && !k.track_turn {
            return Err(StrategyError {
                file: self.files.first().cloned().unwrap_or_default(),
                line: 0,
                col: 0,
                msg: "uses gained_this_turn or bought_this_turn, but the kingdom does not count them: build it with Lineup::kingdom_for (a bug in the caller)".into(),
                source_line: String::new(),
                width: 1,
            });
        }
        compile::compile(self, k)
    }

    /// Whether a condition uses `gained_this_turn` or `bought_this_turn`
    /// (the engine counts them only for such runs: `Kingdom::track_turn`).
    pub fn uses_turn_counters(&self) -> bool {
        fn uses(e: &Expr) -> bool {
            match e {
                Expr::Var(ast::Var::GainedThisTurn | ast::Var::BoughtThisTurn) => true,
                Expr::Neg(x) | Expr::Not(x) | Expr::Num(_, x) => uses(x),
                Expr::Bin(_, a, b) => uses(a) || uses(b),
                Expr::If(c, a, b) => uses(c) || uses(a) || uses(b),
                _ => false,
            }
        }
        self.lists
            .iter()
            .flat_map(|l| l.entries.iter())
            .filter_map(|e| e.cond.as_ref())
            .any(uses)
            || self.values.iter().any(|v| uses(&v.expr))
    }

    /// What this strategy's entries and options name that is not in the
    /// game of `k` (each once, in the order the strategy keeps them): a
    /// card the game lacks, a type no card of the game has (`Knight` in a
    /// kingdom without Knights), `Terminal` in a game without terminal
    /// Actions. Such entries can never apply, so the bot plays as another
    /// one there (`rank --absent`, the field of `best`, a search entrant's
    /// policies); [`Strategy::compile`] ignores the card entries with a
    /// warning.
    pub fn absent_cards(&self, k: &Kingdom) -> Vec<Missing> {
        let mut out: Vec<Missing> = Vec::new();
        let mut add = |m: Missing| {
            let absent = match m {
                Missing::Card(c) => !k.in_game.contains(c),
                Missing::Type(t) => crate::CardSet::of_types(t).and(k.in_game).is_empty(),
                Missing::Terminal => crate::CardSet::terminal().and(k.in_game).is_empty(),
            };
            if absent && !out.contains(&m) {
                out.push(m);
            }
        };
        for l in &self.lists {
            if let Key::Opt(i) = l.key {
                let card = options::OPTIONS[i as usize].card;
                if !k.in_game.contains(card) {
                    // The whole option is ignored, its entries unread.
                    add(Missing::Card(card));
                    continue;
                }
            }
            for e in &l.entries {
                match e.target {
                    Some(Subject::Card(c)) => add(Missing::Card(c)),
                    Some(Subject::Type(t)) => add(Missing::Type(t)),
                    Some(Subject::Terminal) => add(Missing::Terminal),
                    None => {}
                }
            }
        }
        for v in &self.values {
            if let Key::Opt(i) = v.key {
                add(Missing::Card(options::OPTIONS[i as usize].card));
            }
        }
        out
    }

    /// Whether the strategy has a list for `kind` (tests, `check`).
    pub fn has_list(&self, kind: ListKind) -> bool {
        self.lists.iter().any(|l| l.key == Key::List(kind))
    }

    /// Whether an entry of the buy or gain list names `c`, by name or by
    /// type (`--fill` draws only cards no strategy may take).
    pub fn may_gain(&self, c: Card) -> bool {
        [ListKind::Buy, ListKind::Gain]
            .into_iter()
            .filter_map(|k| self.list(k))
            .flatten()
            .any(|e| match e.target {
                Some(ast::Subject::Card(x)) => x == c,
                Some(ast::Subject::Type(t)) => c.info().types.has(t),
                Some(ast::Subject::Terminal) => crate::CardSet::terminal().contains(c),
                None => false,
            })
    }

    /// The entries of a general list, if given.
    pub fn list(&self, kind: ListKind) -> Option<&[Entry]> {
        self.lists
            .iter()
            .find(|l| l.key == Key::List(kind))
            .map(|l| l.entries.as_slice())
    }
}

/// What a strategy names that a game lacks ([`Strategy::absent_cards`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// A card not in the game.
    Card(Card),
    /// A type no card of the game has (an entry such as `Knight`).
    Type(crate::cards::Types),
    /// `Terminal`, in a game without a terminal Action.
    Terminal,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::cards::Types;
        match *self {
            Missing::Card(c) => f.write_str(c.name()),
            // The piles' names, as a user writes them in a kingdom.
            Missing::Type(t) if t == Types::KNIGHT => f.write_str(Card::Knights.name()),
            Missing::Type(t) if t == Types::RUINS => f.write_str(Card::Ruins.name()),
            Missing::Type(t) => write!(f, "{t:?} cards"),
            Missing::Terminal => f.write_str("terminal Actions"),
        }
    }
}

fn file_error(file: &str, msg: String) -> StrategyError {
    StrategyError {
        file: file.to_string(),
        line: 0,
        col: 0,
        msg,
        source_line: String::new(),
        width: 1,
    }
}

/// Read a strategy file (and what it extends).
pub fn load(path: &Path) -> Result<Strategy, StrategyError> {
    let name = path.display().to_string();
    // Refuse what cannot be a strategy before reading it all (hardening,
    // issue 8): a huge file, a directory, binary data.
    let meta = std::fs::metadata(path)
        .map_err(|e| file_error(&name, format!("cannot read the strategy file: {e}")))?;
    if meta.is_dir() {
        return Err(file_error(
            &name,
            "is a directory, not a strategy file".into(),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(file_error(
            &name,
            format!(
                "the strategy file is too large ({} bytes; the limit is {} bytes): is it really a strategy?",
                meta.len(),
                MAX_FILE_BYTES
            ),
        ));
    }
    let bytes = crate::output::read_capped(path, MAX_FILE_BYTES).map_err(|e| {
        if e.kind() == std::io::ErrorKind::FileTooLarge {
            file_error(
                &name,
                format!("the strategy file is larger than {MAX_FILE_BYTES} bytes: is it really a strategy?"),
            )
        } else {
            file_error(&name, format!("cannot read the strategy file: {e}"))
        }
    })?;
    let text = String::from_utf8(bytes).map_err(|e| not_utf8(&name, e))?;
    parse(&text, &name)
}

/// Every error of the strategy file `path`, where [`load`] stops at the
/// first: all the errors of the file's own text (each line is parsed on
/// its own, `domsim check`), else the one error of loading it (an empty
/// file, what it extends, …). Empty when it loads.
pub fn errors(path: &Path) -> Vec<StrategyError> {
    let first = match load(path) {
        Ok(_) => return Vec::new(),
        Err(e) => e,
    };
    let name = path.display().to_string();
    let text = crate::output::read_capped(path, MAX_FILE_BYTES)
        .ok()
        .and_then(|b| String::from_utf8(b).ok());
    if let Some(text) = text {
        if let Err(all) = parse::parse_file_all(skip_bom(&text), &name, 0) {
            if all[0] == first {
                return all;
            }
        }
    }
    vec![first]
}

/// The error for a file that is not UTF-8 text: the line and column of the
/// first bad byte, the line quoted up to it (the same for a file given on
/// the command line and one named by `extends`).
fn not_utf8(file: &str, e: std::string::FromUtf8Error) -> StrategyError {
    let at = e.utf8_error().valid_up_to();
    let bytes = e.as_bytes();
    // The valid prefix is UTF-8 by definition.
    let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let line_start = valid.rfind('\n').map_or(0, |i| i + 1);
    let line = valid.matches('\n').count() + 1;
    let before = &valid[line_start..];
    let rest = &bytes[at..];
    let rest = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    StrategyError {
        file: file.to_string(),
        line,
        col: before.chars().count() + 1,
        msg: format!("not a text file: invalid UTF-8 at byte {at} (a strategy is plain text)"),
        source_line: format!("{before}{}", String::from_utf8_lossy(rest)),
        width: 1,
    }
}

/// The largest strategy file [`load`] accepts (real ones are a few KB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Parse a strategy from text; `file` names it in errors, and `extends`
/// names are looked for in its directory, then along the strategy search
/// path ([`search_path`]).
pub fn parse(text: &str, file: &str) -> Result<Strategy, StrategyError> {
    parse_in(text, file, None)
}

/// Parse a strategy that was typed rather than read from a file (the page
/// of `domsim serve`): `file` names it, as if it were a file of the folder
/// `root`, and every `extends` — of this text and of the files it extends
/// — is looked for along the same search path as [`parse`]'s, but must
/// name a file inside `root` or a folder of the search path
/// ([`search_path::roots`]). An absolute path or a `..` is refused at its
/// line and column before anything is read, a link leading out of those
/// folders before the file it leads to is read: text typed by anyone who
/// can reach the page cannot read other files of the machine.
pub fn parse_within(text: &str, file: &str, root: &Path) -> Result<Strategy, StrategyError> {
    let root = std::fs::canonicalize(root).map_err(|e| {
        file_error(
            file,
            format!(
                "the strategy folder '{}' cannot be read: {e}",
                root.display()
            ),
        )
    })?;
    let roots = search_path::roots(&root);
    parse_in(text, file, Some(roots.as_slice()))
}

/// Why `extends: rel` may not be read from a strategy confined to the
/// folders `roots` (canonical), if the name alone says so.
fn escapes(rel: &str) -> Option<String> {
    use std::path::Component;
    let escapes = Path::new(rel)
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    (escapes || rel.contains('\\')).then(|| format!(
        "extends: '{rel}' is outside the strategy folder: only a file of the folder or of the strategy search path can be extended, by its name (e.g. extends: big_money_ultimate.dom; no '..', no absolute path)"
    ))
}

/// Why the file `base` (found for `extends: rel`) may not be read from a
/// strategy confined to the folders `roots` (canonical), if it may not.
fn leads_out(rel: &str, base: &Path, roots: &[PathBuf]) -> Option<String> {
    match std::fs::canonicalize(base) {
        Ok(c) if !roots.iter().any(|r| c.starts_with(r)) => Some(format!(
            "extends: '{rel}' leads outside the strategy folder (through a link): only a file of the folder or of the strategy search path can be extended"
        )),
        _ => None,
    }
}

fn parse_in(text: &str, file: &str, roots: Option<&[PathBuf]>) -> Result<Strategy, StrategyError> {
    let text = skip_bom(text);
    let mut st = Strategy {
        name: String::new(),
        source_hash: crate::digest::START,
        files: Vec::new(),
        lists: Vec::new(),
        values: Vec::new(),
        safe_ending: true,
        penultimate_province: true,
    };
    let mut stack = Vec::new();
    let name = resolve(text, file, &mut stack, &mut st, roots)?;
    st.name = name.unwrap_or_else(|| {
        Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file.to_string())
    });
    Ok(st)
}

/// Parse `text` into `st`, its base first; returns the effective `name:`.
fn resolve(
    text: &str,
    file: &str,
    stack: &mut Vec<PathBuf>,
    st: &mut Strategy,
    roots: Option<&[PathBuf]>,
) -> Result<Option<String>, StrategyError> {
    let text = skip_bom(text);
    // An empty file (or only comments) is refused, whether it is the file
    // given or one it extends.
    if text
        .lines()
        .all(|l| l.split('#').next().unwrap_or("").trim().is_empty())
    {
        return Err(StrategyError {
            file: file.to_string(),
            line: 1,
            col: 1,
            msg: "the strategy is empty: it needs at least a 'buy:' list (or 'extends: FILE')"
                .into(),
            source_line: String::new(),
            width: 1,
        });
    }
    let me = std::fs::canonicalize(file).unwrap_or_else(|_| PathBuf::from(file));
    stack.push(me);
    let fidx = st.files.len() as u16;
    st.files.push(file.to_string());
    st.source_hash = crate::digest::Digest::resume(st.source_hash)
        .update(text.as_bytes())
        .update(&[0])
        .value();
    let ast = parse::parse_file(text, file, fidx)?;
    if let Some((rel, pos)) = &ast.extends {
        let pos_err = |msg: String| {
            let line = text.lines().nth(pos.line as usize - 1).unwrap_or("");
            StrategyError {
                file: file.to_string(),
                line: pos.line as usize,
                col: pos.col as usize,
                msg,
                source_line: line.to_string(),
                width: rel.chars().count(),
            }
        };
        if let Some(why) = roots.and_then(|_| escapes(rel)) {
            return Err(pos_err(why));
        }
        let own = Path::new(file).parent().unwrap_or(Path::new(""));
        let base = search_path::find(rel, Some(own)).map_err(pos_err)?;
        if let Some(why) = roots.and_then(|r| leads_out(rel, &base, r)) {
            return Err(pos_err(why));
        }
        let canon = std::fs::canonicalize(&base).unwrap_or_else(|_| base.clone());
        if let Some(i) = stack.iter().position(|p| *p == canon) {
            let chain: Vec<String> = stack[i..]
                .iter()
                .chain(std::iter::once(&canon))
                .map(|p| file_base(&p.display().to_string()))
                .collect();
            return Err(pos_err(format!("extends cycle: {}", chain.join(" → "))));
        }
        let bname = base.display().to_string();
        let bytes = crate::output::read_capped(&base, MAX_FILE_BYTES)
            .map_err(|e| pos_err(format!("cannot read '{bname}': {e}")))?;
        let btext = String::from_utf8(bytes).map_err(|e| not_utf8(&bname, e))?;
        resolve(&btext, &bname, stack, st, roots)?;
    }
    // Override the base key by key.
    for l in ast.lists {
        st.lists.retain(|x| x.key != l.key);
        st.values.retain(|x| x.key != l.key);
        st.lists.push(l);
    }
    for v in ast.values {
        st.lists.retain(|x| x.key != v.key);
        st.values.retain(|x| x.key != v.key);
        st.values.push(v);
    }
    if let Some(b) = ast.safe_ending {
        st.safe_ending = b;
    }
    if let Some(b) = ast.penultimate_province {
        st.penultimate_province = b;
    }
    stack.pop();
    // The name is never inherited: a file is named by its own `name:` or
    // its file name.
    Ok(ast.name)
}

/// `text` without the byte-order mark some editors write at its start
/// (it is not part of the strategy).
fn skip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn file_base(f: &str) -> String {
    Path::new(f)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| f.to_string())
}

/// Evaluate one expression of the condition vocabulary for `player` in game
/// `g` (conditions give 1 or 0). For tests and for checking what a condition
/// means on a given state.
pub fn evaluate(expr: &str, k: &Kingdom, g: &Game, player: u8) -> Result<i32, StrategyError> {
    let st = parse("buy: Copper", "<expr>")?;
    evaluate_for(expr, &st, k, g, player)
}

/// [`evaluate`] for the bot `st` (its `buy` list answers `would_buy`).
pub fn evaluate_for(
    expr: &str,
    st: &Strategy,
    k: &Kingdom,
    g: &Game,
    player: u8,
) -> Result<i32, StrategyError> {
    let e = parse::parse_expr(expr, "<expr>")?;
    let (c, code) = compile::compile_expr(st, &e, k)?;
    Ok(c.eval(code, g, player))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A type entry fits a kingdom only when some card of its game has
    /// the type (issue 42): the Knights bot's `Knight` entry never applies
    /// without the Knights pile, so it is absent there, as a card entry
    /// naming a missing card is.
    #[test]
    fn a_type_entry_fits_only_where_a_card_has_the_type() {
        use crate::cards::Types;
        let st = parse(
            "buy:\n    Province\n    Knight if count(Knight) < 2\n    Looter\n    Silver\n",
            "t.dom",
        )
        .unwrap();
        let plain = Kingdom::with_piles(2, &[Card::Smithy, Card::Village]).unwrap();
        assert_eq!(
            st.absent_cards(&plain),
            vec![Missing::Type(Types::KNIGHT), Missing::Type(Types::LOOTER)]
        );
        assert_eq!(st.absent_cards(&plain)[0].to_string(), "Knights");
        assert_eq!(st.absent_cards(&plain)[1].to_string(), "Looter cards");
        // With the Knights pile the Knight type is there; a Looter brings
        // the Looter type (and the Ruins).
        let knights = Kingdom::with_piles(2, &[Card::Knights, Card::Village]).unwrap();
        assert_eq!(
            st.absent_cards(&knights),
            vec![Missing::Type(Types::LOOTER)]
        );
        let both = Kingdom::with_piles(2, &[Card::Knights, Card::Marauder]).unwrap();
        assert!(st.absent_cards(&both).is_empty());
        // Types every game has (basic cards) always fit; `Terminal` fits
        // where a terminal Action is.
        let basic = parse("buy:\n    Victory\n    Treasure\n    Terminal\n", "b.dom").unwrap();
        assert!(basic.absent_cards(&plain).is_empty());
        let none = Kingdom::with_piles(2, &[Card::Village]).unwrap();
        assert_eq!(basic.absent_cards(&none), vec![Missing::Terminal]);
        // Card entries as before.
        let w = parse("buy:\n    Witch\n", "w.dom").unwrap();
        assert_eq!(w.absent_cards(&plain), vec![Missing::Card(Card::Witch)]);
        assert_eq!(w.absent_cards(&plain)[0].to_string(), "Witch");
    }

    /// The shipped Knights bot is absent from a kingdom without Knights
    /// and fits one with them.
    #[test]
    fn the_shipped_knights_bot_fits_only_with_knights() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/knights.dom");
        let st = load(&path).unwrap();
        let plain = Kingdom::with_piles(2, &[Card::Smithy, Card::Village]).unwrap();
        assert_eq!(st.absent_cards(&plain).len(), 1);
        let knights = Kingdom::with_piles(2, &[Card::Knights, Card::Village]).unwrap();
        assert!(st.absent_cards(&knights).is_empty());
    }
}
