//! The strategy AST: what a file says, with card names already resolved to
//! card ids (ids are global; only the kingdom-specific part — which entries
//! apply, type masks — is done by `compile`).

use crate::cards::{Card, Types};

/// A position in one of the strategy's source files (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Index into `Strategy::files`.
    pub file: u16,
    pub line: u32,
    pub col: u32,
}

/// What a count or a list entry is about: one card, or every card of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    Card(Card),
    Type(Types),
    /// `Terminal`: an Action card that gives no +Action in the card table.
    Terminal,
}

/// Variables of the condition vocabulary (no argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Coins,
    Actions,
    Buys,
    Turn,
    Cards,
    TotalMoney,
    MoneyDensity,
    HandSize,
    HandMoney,
    DrawPileSize,
    DiscardSize,
    EmptyPiles,
    GainsToEnd,
    Vp,
    VpLead,
    OppVp,
    Players,
    ActionPlays,
    OppHandSize,
    GainedThisTurn,
    BoughtThisTurn,
}

/// Functions of the condition vocabulary (one card or type argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fun {
    Count,
    Hand,
    InPlay,
    DrawPile,
    DiscardPile,
    Supply,
    Trashed,
    Opp,
    OppTotal,
    Cost,
    /// `card(X)`: the number naming card X, as `would_buy` gives it.
    CardId,
    /// `aside(X)`: my set-aside cards (what Survivors, Library or
    /// Catacombs is looking at while it asks).
    Aside,
}

/// Functions of one number: what the bot's own buy list would choose with
/// an amount of money (`would_buy(N)`, `buy_value(N)`, `buy_cost(N)`), and
/// the money of the best Treasures in hand (`best_hand_money(N)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumFun {
    /// The card chosen, as a number: 0 for nothing, else the card's number
    /// plus one (compare two of them with `==`/`!=`).
    WouldBuy,
    /// How high the deciding entry stands in the buy list: the first entry
    /// is the list's length, the last 1; 0 when nothing would be bought.
    BuyValue,
    /// The chosen card's current cost; 0 when nothing would be bought.
    BuyCost,
    /// The coin value of my N most valuable Treasures in hand (what is left
    /// after discarding down to N cards, the Treasures kept last).
    BestHandMoney,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

/// A condition or number. Types are checked at parse time: a condition
/// must be a comparison or a combination of them; a condition used as a
/// number is 1 or 0.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i32),
    Bool(bool),
    Var(Var),
    Fun(Fun, Subject),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// A function of one number (`would_buy(N)`, `best_hand_money(N)`…).
    Num(NumFun, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// One entry of a priority list.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub pos: Pos,
    /// `None` is the `none` entry: stop here and answer "none".
    pub target: Option<Subject>,
    /// The condition, with `max N` / `keep N` folded in.
    pub cond: Option<Expr>,
}

/// The general lists (not tied to a card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListKind {
    Buy,
    Gain,
    Play,
    Treasures,
    Trash,
    Discard,
    Topdeck,
}

impl ListKind {
    pub const ALL: [ListKind; 7] = [
        ListKind::Buy,
        ListKind::Gain,
        ListKind::Play,
        ListKind::Treasures,
        ListKind::Trash,
        ListKind::Discard,
        ListKind::Topdeck,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ListKind::Buy => "buy",
            ListKind::Gain => "gain",
            ListKind::Play => "play",
            ListKind::Treasures => "treasures",
            ListKind::Trash => "trash",
            ListKind::Discard => "discard",
            ListKind::Topdeck => "topdeck",
        }
    }
}

/// What a section or a one-line setting configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    List(ListKind),
    /// Index into [`super::options::OPTIONS`].
    Opt(u16),
    /// An option of a data card (`--cards`): the card's slot and an index
    /// into [`super::options::DATA_OPTIONS`].
    Data(crate::cards::Card, u8),
}

/// A list section.
#[derive(Clone, Debug, PartialEq)]
pub struct ListDef {
    pub key: Key,
    pub pos: Pos,
    pub entries: Vec<Entry>,
}

/// A one-line option whose value is a condition (or a number for `Choose`).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueDef {
    pub key: Key,
    pub pos: Pos,
    pub expr: Expr,
}
