//! Cards from data files (`--cards FILE`): the card designer's format, its
//! compiler and the one interpreter handler that plays every data card.
//!
//! A card file is TOML (see `docs/DESIGNING_CARDS.md`): one `[[card]]` table per card
//! with its name, cost, types, vanilla bonuses and an `effect` list of
//! primitives (`{ do = "gain", up_to = 4 }`). Loading checks every field and
//! names the file, line and column of anything wrong. Binding
//! ([`bind`]) gives each card one of the table's data slots (`Card::Data1`…)
//! and compiles its effect into a flat program of [`Op`]s; a game then plays
//! it through [`play`], which calls the same engine mechanisms as the printed
//! handlers (draw, gain, trash, the victims of an Attack, the reaction
//! window, triggers), so Throne Room, Band of Misfits, Procession,
//! Masquerade and lose-track apply to data cards unchanged, and a reprint of
//! a printed card plays the same game, decision for decision.
//!
//! The hot path stays honest: a program is a slice of `Copy` ops read in
//! place (no allocation, no `dyn`), and a kingdom without data cards never
//! reaches this module.

use super::table::{
    bind_data_slot, data_row_index, point_data_slot, DATA_ARENA, DATA_SLOTS, FIRST_DATA,
};
use super::{Card, CardInfo, CardSet, Hooks, PileRule, Set, Types};
use crate::engine::{Bots, Choose, Dest, Event, Game, PlayCtx, Why, YesNo};
use anyhow::{anyhow, bail, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

mod text;
pub use text::card_text;

// -------------------------------------------------------------------------
// The compiled form

/// A bonus given per card (per card trashed, per card discarded) or once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bonus {
    pub cards: u8,
    pub actions: u8,
    pub buys: u8,
    pub coins: u8,
}

impl Bonus {
    fn is_zero(self) -> bool {
        self == Bonus::default()
    }
    fn apply<B: Bots>(self, g: &mut Game, b: &mut B, p: u8, times: u8) {
        if times == 0 {
            return;
        }
        if self.cards > 0 {
            g.draw(b, p, self.cards.saturating_mul(times));
        }
        g.turn.actions = g
            .turn
            .actions
            .saturating_add(self.actions as u16 * times as u16);
        g.turn.buys = g.turn.buys.saturating_add(self.buys as u16 * times as u16);
        g.turn.coins = g
            .turn
            .coins
            .saturating_add(self.coins as u16 * times as u16);
    }
}

/// Which cards a gain may take, by cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostRule {
    /// Costing up to $N (current cost).
    UpTo(u8),
    /// Costing exactly $N.
    Exactly(u8),
}

/// One step of a data card's program. `Copy`, no heap: a program is a
/// slice of these read in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// +N Cards / +N Actions / +N Buys / +$N, at this point of the effect.
    Plus(Bonus),
    /// Gain a card of `filter` by cost (mandatory if any qualifies).
    Gain {
        filter: Types,
        cost: CostRule,
        to: Dest,
    },
    /// Gain this card (Bureaucrat's Silver, a Curse for yourself…).
    GainCard { card: Card, to: Dest },
    /// Trash this card from hand if it is there; if you did, `then`
    /// (Moneylender).
    TrashCard { card: Card, then: Bonus },
    /// Trash up to / exactly `max` cards of `filter` from hand, one at a
    /// time and together (on-trash abilities after the last); `each` per
    /// card trashed.
    Trash {
        filter: Types,
        max: u8,
        exactly: bool,
        each: Bonus,
    },
    /// Trash a card of `filter` from hand (mandatory if any), then gain a
    /// card of `gain` costing up to (or exactly) its cost plus `plus`
    /// (Remodel, Mine, Upgrade).
    Improve {
        filter: Types,
        plus: u8,
        exactly: bool,
        gain: Types,
        to: Dest,
    },
    /// Trash this card from play (Feast), if it is still there.
    TrashSelf,
    /// Discard up to `max` cards of `filter` from hand, one at a time; then
    /// `each` per card discarded (Cellar: +1 Card each).
    DiscardFor { filter: Types, max: u8, each: Bonus },
    /// Draw until N cards in hand; with `set_aside`, each Action drawn may
    /// be set aside (a yes/no question) and is discarded at the end
    /// (Library).
    DrawUntil { hand: u8, set_aside: bool },
    /// You may put your deck into your discard pile (Chancellor).
    MayDiscardDeck,
    /// Play an Action card from your hand `times` times (Throne Room).
    PlayAction { times: u8 },
    /// Put a card from your hand onto your deck (Courtyard).
    Topdeck,
    /// You may trash this card from play; if you do, `then` (Mining Village).
    MayTrashSelf { then: Bonus },
    /// Reveal your hand; if it has no Action card, `then` (Shanty Town).
    IfNoActionInHand { then: Bonus },
    /// Reveal cards until one costing $N or more: it goes to hand, the
    /// others are discarded (Sage).
    RevealUntilCost(u8),
    /// Reveal cards until N Treasures are revealed: they go to hand, the
    /// others are discarded (Adventurer).
    RevealTreasures(u8),
    /// Reveal the top N cards; those of `take` go to hand, the rest to the
    /// discard pile.
    RevealTake { n: u8, take: Types },
    /// Each other player draws N cards (not an Attack: Council Room).
    OthersDraw(u8),
    /// Each victim gains this card (Witch: Curse).
    VictimsGain(Card),
    /// Each victim discards down to N cards in hand (Militia).
    VictimsDiscardDownTo(u8),
    /// Each victim puts a card of `filter` from hand onto his deck, or
    /// reveals a hand with none (Bureaucrat).
    VictimsTopdeck(Types),
    /// Each victim reveals his top N cards and trashes a Treasure among them
    /// that you choose; the rest are discarded; then you may gain the
    /// trashed Treasures if `gain` (Thief).
    VictimsTrashTreasure { reveal: u8, gain: bool },
    /// Cards cost $N less this turn (Bridge).
    CostReduction(u8),
    /// Each Copper played this turn gives $N more (Coppersmith).
    CopperBonus(u8),
    /// Choose `pick` different options of `n` (the options are the op
    /// ranges `opts[..n]` of the program).
    Choose {
        n: u8,
        pick: u8,
        opts: [(u16, u16); MAX_OPTIONS],
    },
}

/// Most options of one `choose`.
pub const MAX_OPTIONS: usize = 4;

/// How a card's VP are counted beyond its fixed VP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VpRule {
    /// 1 VP per `per` cards of `of` (None: of any card) the owner has.
    pub per: u8,
    pub of: Option<Card>,
}

/// A compiled data card: its table row and its programs.
#[derive(Clone, Debug)]
pub struct Program {
    ops: Vec<Op>,
    /// The play effect: `ops[..main]` (the rest are `choose` options and the
    /// on-gain effect).
    main: u16,
    /// The on-gain effect: `ops[on_gain.0..on_gain.0 + on_gain.1]`.
    on_gain: (u16, u16),
    /// The on-trash effect, likewise.
    on_trash: (u16, u16),
    vp: Option<VpRule>,
    blocks_attacks: bool,
}

/// A card read from a card file, not yet bound to a slot.
#[derive(Clone, Debug)]
pub struct DataCard {
    pub name: String,
    pub info: CardInfo,
    pub program: Program,
    /// `file:line:col` of its `[[card]]` table.
    pub origin: String,
    /// The card file it was read from (an output may not overwrite it).
    pub file: String,
    /// The printed card this one reprints (`reprint_of`), for `cards verify`.
    pub reprint_of: Option<Card>,
}

impl DataCard {
    /// The same card with one number changed (`domsim compare --b-set`),
    /// in the range a card file accepts: `cost` 0–16, a vanilla bonus or
    /// `value` 0–20, `vp` −10–20.
    pub fn with_field(&self, field: &str, v: i64) -> Result<DataCard> {
        const FIELDS: [&str; 7] = ["cost", "cards", "actions", "buys", "coins", "value", "vp"];
        if !FIELDS.contains(&field) {
            let sug = suggest(field, FIELDS.into_iter());
            bail!("--b-set: unknown field '{field}'{sug} (cost, cards, actions, buys, coins, value, vp)")
        }
        let mut c = self.clone();
        let t = c.info.types;
        let (min, max) = match field {
            "cost" => (0, 16),
            "vp" => (-10, 20),
            _ => (0, 20),
        };
        if !(min..=max).contains(&v) {
            bail!(
                "--b-set {}:{field}={v}: {v} is outside {min}..={max}",
                self.name
            );
        }
        let bonus = matches!(field, "cards" | "actions" | "buys" | "coins");
        if bonus && !t.has(Types::ACTION) {
            bail!(
                "--b-set {}:{field}={v}: {} is not an Action, so it has no '{field}' (a Treasure gives cards, actions and buys in its effect, and money with `value`; a card that is not played has no bonuses)",
                self.name,
                self.name
            );
        }
        if field == "value" && !t.has(Types::TREASURE) {
            bail!(
                "--b-set {}:value={v}: only a Treasure has a value, and {} is not one",
                self.name,
                self.name
            );
        }
        let u = v as u8;
        match field {
            "cost" => c.info.cost = u,
            "cards" => c.info.cards = u,
            "actions" => c.info.actions = u,
            "buys" => c.info.buys = u,
            "coins" => c.info.coins = u,
            "value" => c.info.value = u,
            _ => c.info.vp = v as i8,
        }
        Ok(c)
    }

    /// The card's definition in one line (run keys, CSV metadata): a
    /// reader's summary (name, cost, types, bonuses) and a hash of the whole
    /// definition (every field and the compiled program), so two cards with
    /// the same signature play the same and any change shows.
    pub fn signature(&self) -> String {
        let i = &self.info;
        let p = &self.program;
        // Every field of the row, named so that a new field does not compile
        // until it is either hashed or said not to affect play. `name` is
        // the card's own; `set` is always `Data`; `effect` and `hooks` are
        // derived from the program (hashed below); `companion` is None.
        let CardInfo {
            name: _,
            cost: _,
            types: _,
            set: _,
            pile,
            cards: _,
            actions: _,
            buys: _,
            coins: _,
            value: _,
            vp: _,
            effect: _,
            hooks: _,
            companion: _,
        } = *i;
        let mut exact = format!(
            "{} {} {:?} {} {} {} {} {} {} {:?} {} {:?} {} {:?} {:?}",
            self.name,
            i.cost,
            i.types,
            i.cards,
            i.actions,
            i.buys,
            i.coins,
            i.value,
            i.vp,
            p.vp,
            p.blocks_attacks,
            p.ops,
            p.main,
            p.on_gain,
            p.on_trash
        );
        // Appended only when not the default, so that the definitions of
        // cards without `pile` keep the hashes already written in results/.
        if pile != PileRule::Kingdom {
            exact.push_str(&format!(" pile {pile:?}"));
        }
        let h = crate::digest::Digest::default()
            .update(exact.as_bytes())
            .value();
        let mut parts = vec![format!("${}", i.cost), format!("{:?}", i.types)];
        for (n, w) in [(i.cards, "Card"), (i.actions, "Action"), (i.buys, "Buy")] {
            if n > 0 {
                parts.push(format!("+{n} {w}{}", if n > 1 { "s" } else { "" }));
            }
        }
        if i.coins > 0 {
            parts.push(format!("+${}", i.coins));
        }
        if i.value > 0 {
            parts.push(format!("worth ${}", i.value));
        }
        if i.vp != 0 {
            parts.push(format!("{} VP", i.vp));
        }
        if let PileRule::Fixed(n) = pile {
            parts.push(format!("pile {n}"));
        }
        if !p.ops.is_empty() {
            parts.push(format!("{} effect steps", p.ops.len()));
        }
        format!("{} ({}; definition {h:016x})", self.name, parts.join(", "))
    }

    /// The card name a [`Self::signature`] starts with (a name never holds
    /// '(').
    pub fn name_of_signature(sig: &str) -> &str {
        sig.split_once(" (").map_or(sig, |(name, _)| name)
    }
}

// -------------------------------------------------------------------------
// Binding

static LOCK: Mutex<()> = Mutex::new(());
static PROGRAMS: [OnceLock<Program>; DATA_ARENA] = [const { OnceLock::new() }; DATA_ARENA];

/// The data cards bound to the table's slots. One binding exists at a time
/// in a process (a second [`bind`] waits for the first to be dropped):
/// names, kingdoms, strategies and games see the bound cards while it
/// lives. Dropping it unbinds them.
pub struct Binding {
    cards: Vec<Card>,
    rows: Vec<u16>,
    _lock: MutexGuard<'static, ()>,
}

impl Binding {
    /// The slot each card was bound to, in the order given to [`bind`].
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The arena rows this binding filled: [`bind_again`] with the same
    /// cards and these rows binds them once more without taking new rows.
    pub fn rows(&self) -> &[u16] {
        &self.rows
    }
}

impl Drop for Binding {
    fn drop(&mut self) {
        BOUND.lock().unwrap_or_else(|e| e.into_inner()).clear();
        for s in 0..self.cards.len() {
            let _ = bind_data_slot(s, None);
        }
    }
}

impl std::fmt::Debug for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.cards.iter()).finish()
    }
}

/// Bind `cards` to the data slots (waiting for any other binding of this
/// process to end).
pub fn bind(cards: &[DataCard]) -> Result<Binding> {
    if cards.len() > DATA_SLOTS {
        bail!(
            "{} data cards given; at most {DATA_SLOTS} can be loaded at once",
            cards.len()
        );
    }
    bind_each(cards, |s, dc| {
        let mut info = dc.info;
        info.name = leak_name(&dc.name);
        bind_data_slot(s, Some(info)).map_err(|e| anyhow!("{e}"))?;
        let c = Card::ALL[FIRST_DATA + s];
        let row = data_row_index(c).ok_or_else(|| anyhow!("data slot {s} did not bind"))?;
        let _ = PROGRAMS[row].set(dc.program.clone());
        Ok(row as u16)
    })
}

/// Bind `cards` once more to the arena `rows` an earlier [`bind`] of the
/// very same cards filled ([`Binding::rows`]): the same slots, facts and
/// programs, without taking new rows (a process has [`DATA_ARENA`] of
/// them), so two bindings can take turns without limit.
pub fn bind_again(cards: &[DataCard], rows: &[u16]) -> Result<Binding> {
    if cards.len() != rows.len() {
        bail!(
            "{} data cards to bind again to {} rows",
            cards.len(),
            rows.len()
        );
    }
    bind_each(cards, |s, dc| {
        let row = rows[s];
        point_data_slot(s, Some(row)).map_err(|e| anyhow!("{e}"))?;
        let c = Card::ALL[FIRST_DATA + s];
        if c.name() != dc.name {
            bail!(
                "data slot {s}: row {row} holds {}, not {}",
                c.name(),
                dc.name
            );
        }
        Ok(row)
    })
}

/// What [`bind`] and [`bind_again`] share: hold the binding lock, give card
/// `s` data slot `s` through `one` (which returns the arena row the slot now
/// reads), and record the cards as the process's binding.
fn bind_each(
    cards: &[DataCard],
    mut one: impl FnMut(usize, &DataCard) -> Result<u16>,
) -> Result<Binding> {
    let lock = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut bound = Binding {
        cards: Vec::new(),
        rows: Vec::new(),
        _lock: lock,
    };
    for (s, dc) in cards.iter().enumerate() {
        let row = one(s, dc)?;
        bound.cards.push(Card::ALL[FIRST_DATA + s]);
        bound.rows.push(row);
    }
    *BOUND.lock().unwrap_or_else(|e| e.into_inner()) = cards.to_vec();
    Ok(bound)
}

/// Card names live as long as the process (a `CardInfo` holds `&'static
/// str`); the same name is leaked once.
fn leak_name(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}

#[inline]
fn program(c: Card) -> Option<&'static Program> {
    PROGRAMS[data_row_index(c)?].get()
}

/// The program of data card `c` when it is bound (for its roles,
/// `cards::roles`).
pub fn bound_program(c: Card) -> Option<&'static Program> {
    program(c)
}

impl Program {
    /// Every primitive of the card's programs: play effect, options,
    /// on-gain and on-trash effects.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }
    /// How its VP are counted beyond its fixed VP.
    pub fn vp_rule(&self) -> Option<VpRule> {
        self.vp
    }
    /// A Reaction that makes its owner unaffected by an Attack.
    pub fn blocks(&self) -> bool {
        self.blocks_attacks
    }
}

// -------------------------------------------------------------------------
// The interpreter

/// Play the effect of data card `ctx.card` (after its vanilla bonuses).
pub fn play<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    if let Some(p) = program(ctx.card) {
        run(g, b, ctx, &p.ops, 0, p.main);
    }
}

/// Which of a data card's triggered programs to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// "When you gain this" (`on_gain`), for the player who gained it.
    Gain,
    /// "When you trash this" (`on_trash`), for its owner, after the trash,
    /// in the owner's chosen order (the engine's trigger mechanism).
    Trash,
}

/// Run data card `c`'s `on_gain` or `on_trash` program for player `p`
/// (nothing if the card has none).
pub fn on_event<B: Bots>(g: &mut Game, b: &mut B, p: u8, c: Card, t: Trigger) {
    if let Some(prog) = program(c) {
        let (start, len) = match t {
            Trigger::Gain => prog.on_gain,
            Trigger::Trash => prog.on_trash,
        };
        if len > 0 {
            let ctx = PlayCtx {
                player: p,
                card: c,
                uid: u16::MAX,
                immune: 0,
            };
            run(g, b, ctx, &prog.ops, start, start + len);
        }
    }
}

/// How many answers each "choose one" question of data card `c` takes, in
/// program order (for `pick = 2`, the number of pairs); empty when `c` is
/// not a bound data card or asks none (for the strategy lint of `choose:`).
pub fn choice_counts(c: Card) -> Vec<u8> {
    let Some(p) = program(c) else {
        return Vec::new();
    };
    p.ops
        .iter()
        .filter_map(|op| match *op {
            Op::Choose { n, pick, .. } if pick <= 1 => Some(n),
            Op::Choose { n, .. } => Some(pairs(n).1),
            _ => None,
        })
        .collect()
}

/// Whether data Reaction `c` makes its owner unaffected by an Attack.
pub fn blocks_attacks(c: Card) -> bool {
    program(c).is_some_and(|p| p.blocks_attacks)
}

/// VP of one copy of data card `c` for an owner of `owned` (`total` cards).
pub fn vp_of_counts(c: Card, owned: &[u8; Card::COUNT], total: u16) -> i16 {
    let fixed = c.info().vp as i16;
    match program(c).and_then(|p| p.vp) {
        None => fixed,
        Some(r) => {
            let n = match r.of {
                None => total,
                Some(x) => owned[x as usize] as u16,
            };
            fixed + (n / r.per.max(1) as u16) as i16
        }
    }
}

fn run<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx, ops: &[Op], from: u16, to: u16) {
    let p = ctx.player;
    let by = Some(ctx.card);
    let mut i = from as usize;
    while i < to as usize {
        let op = ops[i];
        i += 1;
        match op {
            Op::Plus(bonus) => bonus.apply(g, b, p, 1),
            Op::Gain { filter, cost, to } => {
                let filter = cards_of(filter);
                let legal = match cost {
                    CostRule::UpTo(n) => g.gainable_up_to(filter, n as u16),
                    CostRule::Exactly(n) => g.gainable(filter, |c| c == n),
                };
                if let Some(c) = g.pick(b, p, Why::Gain, by, legal, false) {
                    g.gain(b, p, c, to);
                }
            }
            Op::GainCard { card, to } => {
                g.gain(b, p, card, to);
            }
            Op::TrashCard { card, then } => {
                if g.trash_from_hand(b, p, card) {
                    then.apply(g, b, p, 1);
                }
            }
            Op::Trash {
                filter,
                max,
                exactly,
                each,
            } => {
                let mut done = 0u8;
                let filter = cards_of(filter);
                g.begin_trash_batch();
                for _ in 0..max {
                    let legal = g.hand_kinds(p, filter);
                    match g.pick(b, p, Why::Trash, by, legal, !exactly) {
                        Some(c) => {
                            if g.trash_from_hand(b, p, c) {
                                done += 1;
                            }
                        }
                        None => break,
                    }
                }
                g.end_trash_batch(b);
                each.apply(g, b, p, done);
            }
            Op::Improve {
                filter,
                plus,
                exactly,
                gain,
                to,
            } => {
                let legal = g.hand_kinds(p, cards_of(filter));
                let Some(t) = g.pick(b, p, Why::Trash, by, legal, false) else {
                    continue;
                };
                let gain = cards_of(gain);
                let limit = g.cost(t) + plus;
                g.trash_from_hand(b, p, t);
                let legal = if exactly {
                    g.gainable(gain, |c| c == limit)
                } else {
                    g.gainable_up_to(gain, limit as u16)
                };
                if let Some(c) = g.pick(b, p, Why::Gain, by, legal, false) {
                    g.gain(b, p, c, to);
                }
            }
            Op::TrashSelf => {
                if ctx.uid != u16::MAX {
                    g.trash_from_play(b, p, ctx.uid);
                }
            }
            Op::DiscardFor { filter, max, each } => {
                let mut n = 0u8;
                let filter = cards_of(filter);
                while n < max {
                    let legal = g.hand_kinds(p, filter);
                    match g.pick(b, p, Why::Discard, by, legal, true) {
                        Some(c) => {
                            g.discard_from_hand(b, p, c);
                            n += 1;
                        }
                        None => break,
                    }
                }
                each.apply(g, b, p, n);
            }
            Op::DrawUntil { hand, set_aside } => {
                if set_aside {
                    super::base::draw_until_setting_aside(g, b, ctx, hand);
                    continue;
                }
                while (g.players[p as usize].hand.len() as u8) < hand {
                    if g.draw(b, p, 1) == 0 {
                        break;
                    }
                }
            }
            Op::MayDiscardDeck => super::base::may_discard_deck(g, b, ctx),
            Op::PlayAction { times } => {
                let legal = g.hand_kinds(p, CardSet::actions());
                if let Some(c) = g.pick(b, p, Why::PlayTarget, by, legal, false) {
                    g.play_multiplied(b, p, c, times);
                }
            }
            Op::Topdeck => {
                let legal = g.hand_kinds(p, CardSet::all());
                if let Some(c) = g.pick(b, p, Why::Topdeck, by, legal, false) {
                    g.topdeck_from_hand(b, p, c);
                }
            }
            Op::MayTrashSelf { then } => {
                let pl = g.player(p);
                if ctx.uid == u16::MAX || !pl.play_uid[..pl.play.len()].contains(&ctx.uid) {
                    continue;
                }
                let q = YesNo {
                    player: p,
                    by: ctx.card,
                    card: Some(ctx.card),
                    target: p,
                };
                if g.ask_yes_no(b, q) && g.trash_from_play(b, p, ctx.uid) {
                    then.apply(g, b, p, 1);
                }
            }
            Op::IfNoActionInHand { then } => {
                for k in 0..g.players[p as usize].hand.len() {
                    let c = g.players[p as usize].hand.get(k).unwrap_or(Card::Copper);
                    b.event(g, Event::Reveal { player: p, card: c });
                }
                if g.hand_kinds(p, CardSet::actions()).is_empty() {
                    then.apply(g, b, p, 1);
                }
            }
            Op::RevealUntilCost(n) => super::dark_ages::reveal_until_cost(g, b, p, n),
            Op::RevealTreasures(want) => super::base::reveal_until_treasures(g, b, p, want),
            Op::RevealTake { n, take } => {
                let start = g.reveal_top(b, p, n);
                to_hand_from_aside(g, p, start, cards_of(take));
                g.discard_aside(b, p, start);
            }
            Op::OthersDraw(n) => {
                for v in g.others(p) {
                    g.draw(b, v, n);
                }
            }
            Op::VictimsGain(card) => {
                for v in g.victims(ctx) {
                    g.gain(b, v, card, Dest::Discard);
                }
            }
            Op::VictimsDiscardDownTo(n) => super::base::victims_discard_down_to(g, b, ctx, n),
            Op::VictimsTopdeck(filter) => {
                super::base::victims_topdeck(g, b, ctx, cards_of(filter));
            }
            Op::VictimsTrashTreasure { reveal, gain } => {
                super::base::victims_trash_treasure(g, b, ctx, reveal, gain);
            }
            Op::CostReduction(n) => {
                g.turn.cost_reduction = g.turn.cost_reduction.saturating_add(n);
            }
            Op::CopperBonus(n) => {
                g.turn.copper_bonus = g.turn.copper_bonus.saturating_add(n);
            }
            Op::Choose { n, pick, opts } => {
                if pick <= 1 {
                    let q = Choose {
                        player: p,
                        by: ctx.card,
                        n,
                    };
                    let a = g.ask_choose(b, q).min(n - 1) as usize;
                    let (s, l) = opts[a];
                    run(g, b, ctx, ops, s, s + l);
                } else {
                    // Two different options: the answer indexes the pairs
                    // (0,1), (0,2), …, (1,2), … (Pawn's order).
                    let pairs = pairs(n);
                    let q = Choose {
                        player: p,
                        by: ctx.card,
                        n: pairs.1,
                    };
                    let a = g.ask_choose(b, q).min(pairs.1 - 1) as usize;
                    let (x, y) = pairs.0[a];
                    for o in [x, y] {
                        let (s, l) = opts[o as usize];
                        run(g, b, ctx, ops, s, s + l);
                    }
                }
            }
        }
    }
}

/// The pairs of `n` options in Pawn's order, and how many there are.
fn pairs(n: u8) -> ([(u8, u8); 6], u8) {
    let mut out = [(0, 0); 6];
    let mut k = 0;
    for x in 0..n {
        for y in x + 1..n {
            if k < 6 {
                out[k] = (x, y);
                k += 1;
            }
        }
    }
    (out, k as u8)
}

/// Move the cards of `take` among `p`'s set-aside cards from `start` into
/// his hand (in order).
fn to_hand_from_aside(g: &mut Game, p: u8, start: usize, take: CardSet) {
    let mut i = start;
    while i < g.players[p as usize].aside.len() {
        let c = g.players[p as usize].aside.get(i).unwrap_or(Card::Copper);
        if take.contains(c) {
            let pl = &mut g.players[p as usize];
            pl.aside.remove(i);
            pl.hand.push(c);
        } else {
            i += 1;
        }
    }
}

// -------------------------------------------------------------------------
// The file format

/// The primitives of an `effect` list, with their fields (for messages and
/// the docs; `docs/DESIGNING_CARDS.md` is checked against this list).
pub const PRIMITIVES: &[(&str, &[&str], &str)] = &[
    ("plus", &["cards", "actions", "buys", "coins"], "+Cards, +Actions, +Buys, +$ at this point of the effect"),
    ("gain", &["up_to", "exactly", "card", "types", "to"], "gain a card costing up to / exactly $N (of `types`), or the named `card`; `to` = discard (default), hand or deck"),
    ("trash", &["up_to", "exactly", "card", "types", "each", "then"], "trash up to / exactly N cards (of `types`) from hand, `each` a bonus per card trashed; or trash the named `card` and `then` a bonus if you did"),
    ("improve", &["plus", "exactly_plus", "types", "gain_types", "to"], "trash a card (of `types`) from hand, gain a card (of `gain_types`) costing up to $`plus` more (or exactly $`exactly_plus` more)"),
    ("trash_self", &[], "trash this card from play (if it is still there)"),
    ("discard_for", &["up_to", "types", "each"], "discard any number (up to N) of cards (of `types`), `each` a bonus per card discarded"),
    ("draw_until", &["hand", "set_aside_actions"], "draw until you have N cards in hand; `set_aside_actions = true`: you may set aside each Action drawn (a yes/no question), discarded at the end"),
    ("may_discard_deck", &[], "you may put your deck into your discard pile (a yes/no question)"),
    ("play_action", &["times"], "play an Action card from your hand N times (default 2)"),
    ("topdeck", &[], "put a card from your hand onto your deck"),
    ("may_trash_self", &["then"], "you may trash this card from play (a yes/no question); if you do, the `then` bonus"),
    ("if_no_action_in_hand", &["then"], "reveal your hand; if it has no Action card, the `then` bonus"),
    ("reveal_until_cost", &["at_least"], "reveal cards until one costing $N or more: it goes to hand, the rest are discarded"),
    ("reveal_until_treasures", &["count"], "reveal until N Treasures: they go to hand, the rest are discarded"),
    ("reveal_top", &["count", "take"], "reveal the top N cards: those of the `take` types go to hand, the rest are discarded"),
    ("others_draw", &["cards"], "each other player draws N cards"),
    ("others_gain", &["card"], "Attack: each other player gains the card (a Curse)"),
    ("others_discard_down_to", &["hand"], "Attack: each other player discards down to N cards in hand"),
    ("others_topdeck", &["types"], "Attack: each other player puts a card of `types` from hand onto his deck (or reveals his hand)"),
    ("others_trash_treasure", &["reveal", "gain"], "Attack: each other player reveals his top N cards and trashes a Treasure you choose, discarding the rest; `gain = true`: you may gain the trashed Treasures"),
    ("cost_reduction", &["amount"], "this turn, cards cost $N less (not below $0)"),
    ("copper_bonus", &["amount"], "this turn, each Copper you play gives $N more"),
    ("choose", &["options", "pick"], "choose `pick` (1 or 2) different options; each option is a list of effects"),
];

const TOP_FIELDS: &[&str] = &[
    "name",
    "cost",
    "types",
    "pile",
    "cards",
    "actions",
    "buys",
    "coins",
    "value",
    "vp",
    "vp_per",
    "effect",
    "on_gain",
    "on_trash",
    "reaction",
    "reprint_of",
];

type Sp<T> = toml::Spanned<T>;
type Table = BTreeMap<String, Sp<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDe {
    #[serde(default)]
    card: Vec<Sp<Table>>,
}

/// Read card files (TOML) into cards ready to bind. Errors name the file,
/// line, column and field.
pub fn load_files(paths: &[impl AsRef<Path>]) -> Result<Vec<DataCard>> {
    parse_texts(&read_files(paths)?)
}

/// The cards of the card files `paths` that a run binds: those `only`
/// names (`--cards-only "A,B"`), or all of them, at most [`DATA_SLOTS`].
/// Without `only`, files that define more cards than that are refused
/// before any card is parsed (the `[[card]]` tables are counted first:
/// parsing a large file only to refuse it would take its whole load time).
pub fn load_for_binding(paths: &[impl AsRef<Path>], only: Option<&str>) -> Result<Vec<DataCard>> {
    let texts = read_files(paths)?;
    let too_many = |n: usize| {
        anyhow!("the card files define {n} cards; at most {DATA_SLOTS} can be loaded at once: choose some with --cards-only \"A,B\"")
    };
    if only.is_none() {
        let tables: usize = texts.iter().map(|(_, t)| card_tables(t)).sum();
        if tables > DATA_SLOTS {
            return Err(too_many(tables));
        }
    }
    let cards = parse_texts(&texts)?;
    match only {
        Some(o) => select(cards, o),
        None if cards.len() > DATA_SLOTS => Err(too_many(cards.len())),
        None => Ok(cards),
    }
}

/// How many `[[card]]` table headers `text` has (a line that is one, spaces
/// allowed inside the brackets): one pass, no parsing. A line of a
/// multi-line string that reads as a header counts too, so this is an
/// upper bound of the cards, exact for any file a person writes.
fn card_tables(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("[[") && {
                let head: String = l.chars().take(32).filter(|c| !c.is_whitespace()).collect();
                head.starts_with("[[card]]")
            }
        })
        .count()
}

/// The text of each card file of `paths` (bounded reads), named for
/// messages; the same file twice is refused.
fn read_files(paths: &[impl AsRef<Path>]) -> Result<Vec<(String, String)>> {
    let mut texts = Vec::new();
    let mut seen: Vec<(std::path::PathBuf, String)> = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let file = path.display().to_string();
        // The same file twice would read as each of its cards "defined
        // twice (first at)" its own position: say what happened.
        if let Ok(real) = std::fs::canonicalize(path) {
            if let Some((_, first)) = seen.iter().find(|(p, _)| *p == real) {
                bail!("card file '{file}' is given twice (also as '{first}')");
            }
            seen.push((real, file.clone()));
        }
        texts.push((file, crate::output::read_input(path, "card file")?));
    }
    Ok(texts)
}

/// The cards of card files already read (`(name, text)`), checked for a
/// name defined twice.
fn parse_texts(texts: &[(String, String)]) -> Result<Vec<DataCard>> {
    let mut out: Vec<DataCard> = Vec::new();
    let mut first_at: std::collections::HashMap<String, usize> = Default::default();
    for (file, text) in texts {
        // Every card's error at once (each at its file:line:col), one per
        // line of the message.
        let cards = parse_cards_all(file, text).map_err(|errors| {
            let n = errors.len();
            let mut msg = errors
                .iter()
                .map(|e| format!("{e:#}"))
                .collect::<Vec<_>>()
                .join("\nerror: ");
            if n > 1 {
                msg.push_str(&format!("\nerror: {file}: {n} cards have errors"));
            }
            anyhow!("{msg}")
        })?;
        for c in cards {
            // By a map of the names seen, not a search of the cards read:
            // a file of many cards loads in linear time.
            match first_at.entry(super::normalize(&c.name)) {
                std::collections::hash_map::Entry::Occupied(prev) => bail!(
                    "{}: card '{}' is defined twice (first at {})",
                    c.origin,
                    c.name,
                    out[*prev.get()].origin
                ),
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(out.len());
                }
            }
            out.push(c);
        }
    }
    Ok(out)
}

/// The byte offset at which each line of `text` starts (the first is 0):
/// one pass, so that [`line_col`] finds any position by a binary search
/// instead of rescanning the text from its start (every card's position
/// is asked: a rescan made loading a file quadratic in its size).
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Line and column (1-based; the column counts characters) of byte
/// `offset` of `text`, whose [`line_starts`] are `starts`: a binary search,
/// then the characters of that line before `offset`.
pub(crate) fn line_col(text: &str, starts: &[usize], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let line = starts.partition_point(|&s| s <= offset).max(1);
    let start = starts[line - 1];
    let col = text
        .get(start..offset)
        .map_or(offset - start, |l| l.chars().count());
    // The work of this lookup: the search's steps and the bytes counted.
    let steps = usize::BITS - starts.len().leading_zeros();
    POSITION_WORK.with(|w| w.set(w.get() + steps as u64 + (offset - start) as u64));
    (line, col + 1)
}

thread_local! {
    static POSITION_WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The work spent finding line and column positions in card files on this
/// thread so far (binary-search steps plus bytes counted): a measure, not a
/// time, for the test that loading is linear in the file's size.
pub fn position_work() -> u64 {
    POSITION_WORK.with(|w| w.get())
}

struct Cx<'a> {
    file: &'a str,
    text: &'a str,
    /// [`line_starts`] of `text`.
    starts: Vec<usize>,
    /// The names of the file's cards, normalised (a card field naming one
    /// is told that data cards cannot be named there).
    names: std::collections::HashSet<String>,
}

impl Cx<'_> {
    fn at(&self, span: std::ops::Range<usize>) -> String {
        let (l, c) = line_col(self.text, &self.starts, span.start);
        format!("{}:{l}:{c}", self.file)
    }
    fn err(&self, span: std::ops::Range<usize>, msg: impl std::fmt::Display) -> anyhow::Error {
        anyhow!("{}: {msg}", self.at(span))
    }
}

/// Parse one card file's text (`file` names it in messages), stopping at
/// its first error (see [`parse_cards_all`]).
pub fn parse_cards(file: &str, text: &str) -> Result<Vec<DataCard>> {
    parse_cards_all(file, text).map_err(|mut e| e.swap_remove(0))
}

/// Parse one card file's text, reporting the first error of each of its
/// cards (a file TOML cannot read has one error: where it stops reading).
/// `Err` holds at least one error, in file order.
pub fn parse_cards_all(
    file: &str,
    text: &str,
) -> std::result::Result<Vec<DataCard>, Vec<anyhow::Error>> {
    parse_cards_in(file, text).map_err(|e| vec![e])?
}

/// [`parse_cards_all`]: the outer `Err` is an error of the whole file, the
/// inner one each card's.
fn parse_cards_in(
    file: &str,
    text: &str,
) -> Result<std::result::Result<Vec<DataCard>, Vec<anyhow::Error>>> {
    // A leading byte-order mark is skipped (the TOML reader skips it too,
    // but counts it in its positions: line 1 would be a column off).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut cx = Cx {
        file,
        text,
        starts: line_starts(text),
        names: Default::default(),
    };
    let de: FileDe = toml::from_str(text).map_err(|e| {
        let mut msg = e.message().trim().to_string();
        if let Some(s) = e.span() {
            let at = &text[s.start.min(text.len())..s.end.min(text.len())];
            if msg.contains("as i128") {
                // A whole number beyond what TOML reads (i64): out of range
                // like any other, with the field's range.
                msg = too_large(text, s.start, at.trim());
            } else if msg.contains("expected a sequence") && at.trim_start().starts_with("[card]") {
                msg.push_str(": each card is a `[[card]]` table, with double brackets");
            }
        }
        match e.span() {
            Some(s) => cx.err(s, msg),
            None => anyhow!("{file}: {msg}"),
        }
    })?;
    if de.card.is_empty() {
        bail!("{file}: no [[card]] table: a card file defines at least one card");
    }
    cx.names = de
        .card
        .iter()
        .filter_map(|t| {
            t.get_ref()
                .get("name")?
                .get_ref()
                .as_str()
                .map(super::normalize)
        })
        .collect();
    let mut cards = Vec::new();
    let mut errors = Vec::new();
    for t in &de.card {
        match card(&cx, t) {
            Ok(c) => cards.push(c),
            Err(e) => errors.push(e),
        }
    }
    Ok(if errors.is_empty() {
        Ok(cards)
    } else {
        Err(errors)
    })
}

/// The message for a number too large for TOML at `offset` of `text`: the
/// field it is given to (the key before its `=`) and the field's range.
fn too_large(text: &str, offset: usize, number: &str) -> String {
    let before = text[..offset.min(text.len())].trim_end();
    let key: String = before
        .strip_suffix('=')
        .unwrap_or("")
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let range = match key.as_str() {
        "cost" => Some("0..=16"),
        "cards" | "actions" | "buys" | "coins" | "value" => Some("0..=20"),
        "vp" => Some("-10..=20"),
        "pile" => Some("1..=60"),
        _ => None,
    };
    let number = if number.chars().count() > 24 {
        format!("{}…", number.chars().take(24).collect::<String>())
    } else {
        number.to_string()
    };
    match (key.is_empty(), range) {
        (false, Some(r)) => format!("field '{key}': {number} is outside {r}"),
        (false, None) => format!(
            "field '{key}': {number} is out of range (no field of a card file takes more than 100; docs/DESIGNING_CARDS.md gives each field's range)"
        ),
        (true, _) => format!("{number} is out of range (no field of a card file takes more than 100)"),
    }
}

/// " (did you mean 'x'?)" for the closest of `words`, if close enough.
fn suggest<'w>(w: &str, words: impl Iterator<Item = &'w str>) -> String {
    let key = super::normalize(w);
    let mut best: Option<(usize, &str)> = None;
    for c in words {
        let d = super::edit_distance(&key, &super::normalize(c));
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    match best.filter(|&(d, c)| d <= 2.max(c.len() / 3) && d < key.len().max(1)) {
        Some((_, s)) => format!(" (did you mean '{s}'?)"),
        None => String::new(),
    }
}

fn int(cx: &Cx, v: &Sp<toml::Value>, field: &str, max: i64) -> Result<u8> {
    int_in(cx, v, field, 0, max)
}

/// A whole number of `min..=max` (the documented range: a value outside it
/// is refused, never clamped).
fn int_in(cx: &Cx, v: &Sp<toml::Value>, field: &str, min: i64, max: i64) -> Result<u8> {
    // Unreachable by input: `min` and `max` are constants of this file
    // (every call site gives literal bounds within 0..=255), not values read.
    debug_assert!(min >= 0 && max <= u8::MAX as i64);
    whole(cx, v, field, min, max).map(|i| i as u8)
}

/// A whole number of `min..=max`, signed.
fn whole(cx: &Cx, v: &Sp<toml::Value>, field: &str, min: i64, max: i64) -> Result<i64> {
    match v.get_ref() {
        toml::Value::Integer(i) if (min..=max).contains(i) => Ok(*i),
        toml::Value::Integer(i) => Err(cx.err(
            v.span(),
            format!("field '{field}': {i} is outside {min}..={max}"),
        )),
        other => Err(cx.err(
            v.span(),
            format!(
                "field '{field}': expected a whole number, found {}",
                other.type_str()
            ),
        )),
    }
}

fn string<'v>(cx: &Cx, v: &'v Sp<toml::Value>, field: &str) -> Result<&'v str> {
    v.get_ref().as_str().ok_or_else(|| {
        cx.err(
            v.span(),
            format!(
                "field '{field}': expected a string, found {}",
                v.get_ref().type_str()
            ),
        )
    })
}

/// A printed card named in a card file (a data card may not name another
/// data card: it is bound in the same slot table).
fn card_name(cx: &Cx, v: &Sp<toml::Value>, field: &str) -> Result<Card> {
    let s = string(cx, v, field)?;
    // Normalised once: a name may be megabytes long (a damaged file).
    let key = super::normalize(s);
    // Knights and Ruins name piles of different cards, not one card: the
    // pile's top card is not known when the file is read.
    if let Some(pile) = Card::PRINTED
        .iter()
        .find(|c| c.is(Types::PILE) && super::normalize(c.name()) == key)
    {
        let example = if *pile == Card::Knights {
            "Sir Martin"
        } else {
            "Ruined Village"
        };
        return Err(cx.err(
            v.span(),
            format!(
                "field '{field}': '{s}' is a pile of different cards, not one card: a card file names one printed card (e.g. '{example}')"
            ),
        ));
    }
    Card::PRINTED
        .iter()
        .copied()
        .find(|c| super::normalize(c.name()) == key && !c.is(Types::PILE))
        .ok_or_else(|| {
            if cx.names.contains(&key) {
                return cx.err(
                    v.span(),
                    format!("field '{field}': '{s}' is a data card; a card file names printed cards only (a data card cannot gain or count another data card, or itself)"),
                );
            }
            let sug = suggest(s, Card::PRINTED.iter().map(|c| c.name()));
            cx.err(
                v.span(),
                format!("field '{field}': unknown card '{s}'{sug}"),
            )
        })
}

const TYPE_WORDS: [(&str, Types); 6] = [
    ("Action", Types::ACTION),
    ("Treasure", Types::TREASURE),
    ("Victory", Types::VICTORY),
    ("Curse", Types::CURSE),
    ("Attack", Types::ATTACK),
    ("Reaction", Types::REACTION),
];

fn type_list(cx: &Cx, v: &Sp<toml::Value>, field: &str) -> Result<Types> {
    let arr = match v.get_ref() {
        toml::Value::Array(a) => a.clone(),
        toml::Value::String(_) => vec![v.get_ref().clone()],
        other => {
            return Err(cx.err(
                v.span(),
                format!(
                    "field '{field}': expected a list of types, found {}",
                    other.type_str()
                ),
            ))
        }
    };
    let mut t = Types::NONE;
    for x in arr {
        let Some(s) = x.as_str() else {
            return Err(cx.err(v.span(), format!("field '{field}': a type is a string")));
        };
        let key = super::normalize(s);
        match TYPE_WORDS.iter().find(|(n, _)| super::normalize(n) == key) {
            Some((n, ty)) => {
                if t.has(*ty) {
                    return Err(
                        cx.err(v.span(), format!("field '{field}': type '{n}' given twice"))
                    );
                }
                t = t.union(*ty)
            }
            None => {
                let sug = suggest(s, TYPE_WORDS.iter().map(|(n, _)| *n));
                return Err(cx.err(
                    v.span(),
                    format!(
                        "field '{field}': unknown type '{s}'{sug} (types a data card can have: Action, Treasure, Victory, Curse, Attack, Reaction)"
                    ),
                ));
            }
        }
    }
    Ok(t)
}

/// A filter by types (`Types::NONE`: any card).
fn filter_of(cx: &Cx, t: &Table, field: &str) -> Result<Types> {
    match t.get(field) {
        None => Ok(Types::NONE),
        Some(v) => type_list(cx, v, field),
    }
}

/// The cards having any of the types `t` (every card for none), data cards
/// included: resolved when the game asks, because a data card's slot is
/// only known once it is bound.
#[inline]
fn cards_of(t: Types) -> CardSet {
    if t == Types::NONE {
        return CardSet::all();
    }
    let mut s = CardSet::EMPTY;
    if t.has(Types::ACTION) {
        s = s.or(CardSet::actions());
    }
    if t.has(Types::TREASURE) {
        s = s.or(CardSet::treasures());
    }
    if t.has(Types::VICTORY) {
        s = s.or(CardSet::victories());
    }
    if t.has(Types::CURSE) {
        s = s.or(CardSet::of_types(Types::CURSE));
    }
    if t.has(Types::ATTACK) {
        s = s.or(CardSet::attacks());
    }
    if t.has(Types::REACTION) {
        s = s.or(CardSet::reactions());
    }
    s
}

fn dest(cx: &Cx, t: &Table) -> Result<Dest> {
    match t.get("to") {
        None => Ok(Dest::Discard),
        Some(v) => match super::normalize(string(cx, v, "to")?).as_str() {
            "discard" => Ok(Dest::Discard),
            "hand" => Ok(Dest::Hand),
            "deck" | "decktop" | "topofdeck" => Ok(Dest::DeckTop),
            other => Err(cx.err(
                v.span(),
                format!("field 'to': '{other}' is not a place; expected discard, hand or deck"),
            )),
        },
    }
}

fn bonus(cx: &Cx, v: &Sp<toml::Value>, field: &str) -> Result<Bonus> {
    let Some(tab) = v.get_ref().as_table() else {
        return Err(cx.err(
            v.span(),
            format!("field '{field}': expected a table such as {{ coins = 1 }}"),
        ));
    };
    let mut b = Bonus::default();
    for (k, x) in tab {
        let n = match x {
            toml::Value::Integer(i) if (0..=20).contains(i) => *i as u8,
            _ => {
                return Err(cx.err(
                    v.span(),
                    format!("field '{field}.{k}': expected a whole number 0..=20"),
                ))
            }
        };
        match k.as_str() {
            "cards" => b.cards = n,
            "actions" => b.actions = n,
            "buys" => b.buys = n,
            "coins" => b.coins = n,
            _ => {
                let sug = suggest(k, ["cards", "actions", "buys", "coins"].into_iter());
                return Err(cx.err(
                    v.span(),
                    format!(
                        "field '{field}': unknown bonus '{k}'{sug} (cards, actions, buys, coins)"
                    ),
                ));
            }
        }
    }
    Ok(b)
}

/// Compile one effect list into `ops` (appending); returns its range.
struct Compiler<'c, 'a> {
    cx: &'c Cx<'a>,
    ops: Vec<Op>,
    attack: bool,
    uses_attack: bool,
}

impl Compiler<'_, '_> {
    fn list(&mut self, v: &Sp<toml::Value>, field: &str) -> Result<Vec<Op>> {
        let Some(arr) = v.get_ref().as_array() else {
            return Err(self.cx.err(
                v.span(),
                format!("field '{field}': expected a list of effects, e.g. [ {{ do = \"gain\", up_to = 4 }} ]"),
            ));
        };
        // Re-read the list with spans: each effect's position in messages.
        let mut out = Vec::new();
        for (i, e) in arr.iter().enumerate() {
            let Some(tab) = e.as_table() else {
                return Err(self.cx.err(
                    v.span(),
                    format!("field '{field}': effect {} is not a table such as {{ do = \"plus\", cards = 1 }}", i + 1),
                ));
            };
            out.push(self.effect(v, field, i, tab)?);
        }
        Ok(out)
    }

    /// One effect, compiled; every error names it (`effect[2]: …`,
    /// counted from 1), the errors of its fields' values included.
    fn effect(
        &mut self,
        at: &Sp<toml::Value>,
        field: &str,
        i: usize,
        tab: &toml::Table,
    ) -> Result<Op> {
        self.effect_fields(at, field, i, tab).map_err(|e| {
            let loc = format!("{}: ", self.cx.at(at.span()));
            let tag = format!("{field}[{}]: ", i + 1);
            let msg = format!("{e:#}");
            match msg.strip_prefix(&loc) {
                Some(rest) if !rest.starts_with(&tag) => anyhow!("{loc}{tag}{rest}"),
                _ => e,
            }
        })
    }

    fn effect_fields(
        &mut self,
        at: &Sp<toml::Value>,
        field: &str,
        i: usize,
        tab: &toml::Table,
    ) -> Result<Op> {
        let cx = self.cx;
        let span = at.span();
        let here = |msg: String| cx.err(span.clone(), format!("{field}[{}]: {msg}", i + 1));
        // Give every value the list's span (toml keeps no spans inside an
        // inline table): messages point at the list and name the effect.
        let t: Table = tab
            .iter()
            .map(|(k, v)| (k.clone(), Sp::new(span.clone(), v.clone())))
            .collect();
        let Some(kind) = t.get("do") else {
            return Err(here("an effect needs `do = \"<primitive>\"`".into()));
        };
        let kind = string(cx, kind, "do")?.to_string();
        let Some((_, fields, _)) = PRIMITIVES.iter().find(|(n, _, _)| *n == kind) else {
            let sug = suggest(&kind, PRIMITIVES.iter().map(|(n, _, _)| *n));
            return Err(here(format!("unknown primitive '{kind}'{sug}")));
        };
        for k in t.keys() {
            if k != "do" && !fields.contains(&k.as_str()) {
                let sug = suggest(k, fields.iter().copied());
                return Err(here(format!(
                    "'{kind}' has no field '{k}'{sug} (its fields: {})",
                    if fields.is_empty() {
                        "none".to_string()
                    } else {
                        fields.join(", ")
                    }
                )));
            }
        }
        let n_of = |k: &str, max: i64| -> Result<Option<u8>> {
            t.get(k).map(|v| int(cx, v, k, max)).transpose()
        };
        let need = |k: &str, max: i64| -> Result<u8> {
            n_of(k, max)?.ok_or_else(|| here(format!("'{kind}' needs the field '{k}'")))
        };
        // Fields whose documented range starts at 1.
        let n_in = |k: &str, min: i64, max: i64| -> Result<Option<u8>> {
            t.get(k).map(|v| int_in(cx, v, k, min, max)).transpose()
        };
        let need_in = |k: &str, min: i64, max: i64| -> Result<u8> {
            n_in(k, min, max)?.ok_or_else(|| here(format!("'{kind}' needs the field '{k}'")))
        };
        let attack = |c: &mut Self| -> Result<()> {
            c.uses_attack = true;
            if c.attack {
                Ok(())
            } else {
                Err(here(format!(
                    "'{kind}' is an Attack effect: the card needs the Attack type"
                )))
            }
        };
        Ok(match kind.as_str() {
            "plus" => {
                let b = Bonus {
                    cards: n_of("cards", 20)?.unwrap_or(0),
                    actions: n_of("actions", 20)?.unwrap_or(0),
                    buys: n_of("buys", 20)?.unwrap_or(0),
                    coins: n_of("coins", 20)?.unwrap_or(0),
                };
                if b.is_zero() {
                    return Err(here(
                        "'plus' needs one of cards, actions, buys, coins".into(),
                    ));
                }
                Op::Plus(b)
            }
            "gain" => {
                let to = dest(cx, &t)?;
                if let Some(c) = t.get("card") {
                    if t.contains_key("up_to") || t.contains_key("exactly") {
                        return Err(here(
                            "'gain' takes either a `card` or a cost (`up_to`/`exactly`), not both"
                                .into(),
                        ));
                    }
                    if t.contains_key("types") {
                        return Err(here(
                            "'gain' takes `types` only with a cost (`up_to`/`exactly`): a `card` is already one card"
                                .into(),
                        ));
                    }
                    Op::GainCard {
                        card: card_name(cx, c, "card")?,
                        to,
                    }
                } else {
                    let filter = filter_of(cx, &t, "types")?;
                    let cost = match (n_of("up_to", 16)?, n_of("exactly", 16)?) {
                        (Some(n), None) => CostRule::UpTo(n),
                        (None, Some(n)) => CostRule::Exactly(n),
                        _ => {
                            return Err(here(
                                "'gain' needs exactly one of `up_to`, `exactly` or `card`".into(),
                            ))
                        }
                    };
                    Op::Gain { filter, cost, to }
                }
            }
            "trash" => {
                if let Some(c) = t.get("card") {
                    if t.contains_key("up_to")
                        || t.contains_key("exactly")
                        || t.contains_key("each")
                    {
                        return Err(here(
                            "'trash' takes either a `card` (with `then`) or a count (with `each`)"
                                .into(),
                        ));
                    }
                    let then = match t.get("then") {
                        Some(v) => bonus(cx, v, "then")?,
                        None => Bonus::default(),
                    };
                    Op::TrashCard {
                        card: card_name(cx, c, "card")?,
                        then,
                    }
                } else {
                    if t.contains_key("then") {
                        return Err(here("'then' goes with `card`; a count takes `each`".into()));
                    }
                    let (max, exactly) = match (n_of("up_to", 20)?, n_of("exactly", 20)?) {
                        (Some(n), None) => (n, false),
                        (None, Some(n)) => (n, true),
                        _ => {
                            return Err(here(
                                "'trash' needs exactly one of `up_to`, `exactly` or `card`".into(),
                            ))
                        }
                    };
                    let each = match t.get("each") {
                        Some(v) => bonus(cx, v, "each")?,
                        None => Bonus::default(),
                    };
                    Op::Trash {
                        filter: filter_of(cx, &t, "types")?,
                        max,
                        exactly,
                        each,
                    }
                }
            }
            "improve" => {
                let (plus, exactly) = match (n_of("plus", 16)?, n_of("exactly_plus", 16)?) {
                    (Some(n), None) => (n, false),
                    (None, Some(n)) => (n, true),
                    _ => {
                        return Err(here(
                            "'improve' needs exactly one of `plus` or `exactly_plus`".into(),
                        ))
                    }
                };
                Op::Improve {
                    filter: filter_of(cx, &t, "types")?,
                    plus,
                    exactly,
                    gain: filter_of(cx, &t, "gain_types")?,
                    to: dest(cx, &t)?,
                }
            }
            "trash_self" => Op::TrashSelf,
            "discard_for" => {
                let each = match t.get("each") {
                    Some(v) => bonus(cx, v, "each")?,
                    None => {
                        return Err(here(
                            "'discard_for' needs `each`, e.g. each = { cards = 1 }".into(),
                        ))
                    }
                };
                Op::DiscardFor {
                    filter: filter_of(cx, &t, "types")?,
                    max: n_in("up_to", 1, 100)?.unwrap_or(100),
                    each,
                }
            }
            "draw_until" => {
                let set_aside = match t.get("set_aside_actions") {
                    None => false,
                    Some(v) => v.get_ref().as_bool().ok_or_else(|| {
                        here("field 'set_aside_actions': expected true or false".into())
                    })?,
                };
                Op::DrawUntil {
                    hand: need("hand", 20)?,
                    set_aside,
                }
            }
            "may_discard_deck" => Op::MayDiscardDeck,
            "play_action" => Op::PlayAction {
                times: n_in("times", 1, 4)?.unwrap_or(2),
            },
            "topdeck" => Op::Topdeck,
            "may_trash_self" | "if_no_action_in_hand" => {
                let then = match t.get("then") {
                    Some(v) => bonus(cx, v, "then")?,
                    None => {
                        return Err(here(format!(
                            "'{kind}' needs `then`, e.g. then = {{ coins = 2 }}"
                        )))
                    }
                };
                if kind == "may_trash_self" {
                    Op::MayTrashSelf { then }
                } else {
                    Op::IfNoActionInHand { then }
                }
            }
            "reveal_until_cost" => Op::RevealUntilCost(need("at_least", 16)?),
            "reveal_until_treasures" => Op::RevealTreasures(need_in("count", 1, 10)?),
            "reveal_top" => Op::RevealTake {
                n: need("count", 10)?,
                take: filter_of(cx, &t, "take")?,
            },
            "others_draw" => Op::OthersDraw(need("cards", 10)?),
            "others_gain" => {
                attack(self)?;
                let Some(c) = t.get("card") else {
                    return Err(here(
                        "'others_gain' needs `card`, e.g. card = \"Curse\"".into(),
                    ));
                };
                Op::VictimsGain(card_name(cx, c, "card")?)
            }
            "others_discard_down_to" => {
                attack(self)?;
                Op::VictimsDiscardDownTo(need("hand", 10)?)
            }
            "others_topdeck" => {
                attack(self)?;
                Op::VictimsTopdeck(filter_of(cx, &t, "types")?)
            }
            "others_trash_treasure" => {
                attack(self)?;
                let gain = match t.get("gain") {
                    None => false,
                    Some(v) => v
                        .get_ref()
                        .as_bool()
                        .ok_or_else(|| here("field 'gain': expected true or false".into()))?,
                };
                Op::VictimsTrashTreasure {
                    reveal: need_in("reveal", 1, 5)?,
                    gain,
                }
            }
            "cost_reduction" => Op::CostReduction(need("amount", 8)?),
            "copper_bonus" => Op::CopperBonus(need("amount", 8)?),
            "choose" => {
                let pick = n_in("pick", 1, 2)?.unwrap_or(1);
                let Some(opts) = t.get("options") else {
                    return Err(here(
                        "'choose' needs `options = [ [effects…], [effects…] ]`".into(),
                    ));
                };
                let Some(arr) = opts.get_ref().as_array() else {
                    return Err(here("'options' is a list of effect lists".into()));
                };
                if arr.len() < 2 || arr.len() > MAX_OPTIONS {
                    return Err(here(format!(
                        "'choose' takes 2 to {MAX_OPTIONS} options; {} given",
                        arr.len()
                    )));
                }
                if pick == 2 && arr.len() < 3 {
                    return Err(here("'pick = 2' needs at least 3 options".into()));
                }
                let mut bodies = Vec::new();
                for (k, o) in arr.iter().enumerate() {
                    let v = Sp::new(span.clone(), o.clone());
                    // Messages say `options[2][1]`: option 2, its effect 1.
                    let body = self.list(&v, &format!("options[{}]", k + 1))?;
                    if body.iter().any(|op| matches!(op, Op::Choose { .. })) {
                        return Err(here("a `choose` cannot contain another `choose`".into()));
                    }
                    bodies.push(body);
                }
                // The option bodies are placed after the main effect when
                // the card is assembled; remember them here.
                let mut o = [(0u16, 0u16); MAX_OPTIONS];
                for (k, body) in bodies.into_iter().enumerate() {
                    o[k] = (self.ops.len() as u16, body.len() as u16);
                    self.ops.extend(body);
                }
                Op::Choose {
                    n: arr.len() as u8,
                    pick,
                    opts: o,
                }
            }
            _ => unreachable!("every primitive of PRIMITIVES is compiled"),
        })
    }
}

/// The strategy language's keywords (any case): a card entry's name ends
/// at `if`, `max` or `keep`, and conditions join with `and`, `or`, `not`.
/// They live here, below the strategy parser that reads them, because a
/// card name may not hold one ([`NAME_KEYWORDS`]).
pub const STRATEGY_KEYWORDS: [&str; 6] = ["if", "max", "keep", "and", "or", "not"];
/// A strategy entry that is only this word is the empty entry.
pub const EMPTY_ENTRY: &str = "none";

/// Words a card name may not hold (as a word of its own, in any case):
/// the words that end a strategy entry's card name (`if`, `max`, `keep`),
/// the empty entry (`none`) and the words that join conditions.
pub const NAME_KEYWORDS: [&str; 7] = {
    // One list with the strategy parser's: a keyword added there is
    // refused here too.
    let mut all = [EMPTY_ENTRY; 7];
    let mut i = 0;
    while i < STRATEGY_KEYWORDS.len() {
        all[i] = STRATEGY_KEYWORDS[i];
        i += 1;
    }
    all
};

/// `name` with the keyword `w` joined to its neighbour by a hyphen, as a
/// suggestion ("Max Out" → "Max-Out").
fn join_keyword(name: &str, w: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut out = String::new();
    for (i, x) in words.iter().enumerate() {
        if i > 0 {
            let joined = words[i - 1] == w || (*x == w && i + 1 == words.len());
            out.push(if joined { '-' } else { ' ' });
        }
        out.push_str(x);
    }
    out
}

fn card(cx: &Cx, t: &Sp<Table>) -> Result<DataCard> {
    let span = t.span();
    let origin = cx.at(span.clone());
    let t = t.get_ref();
    for (k, v) in t {
        if !TOP_FIELDS.contains(&k.as_str()) {
            let sug = suggest(k, TOP_FIELDS.iter().copied());
            return Err(cx.err(v.span(), format!("unknown field '{k}'{sug}")));
        }
    }
    let need = |k: &str| {
        t.get(k)
            .ok_or_else(|| cx.err(span.clone(), format!("[[card]] needs the field '{k}'")))
    };
    let name_v = need("name")?;
    let name = string(cx, name_v, "name")?.trim().to_string();
    if name.is_empty() || name.chars().count() > 40 || super::normalize(&name).is_empty() {
        return Err(cx.err(
            name_v.span(),
            "field 'name': a card name has 1 to 40 characters, with a letter or digit",
        ));
    }
    // Strategy files name cards with letters, digits, spaces, ' and -.
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '\'' | '-')))
    {
        let fixed: String = name
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '\'' | '-'))
            .collect();
        return Err(cx.err(
            name_v.span(),
            format!(
                "field 'name': '{}' cannot be part of a card name (strategy files name cards with letters, digits, spaces, ' and -); e.g. '{}'",
                bad.escape_default(),
                fixed.split_whitespace().collect::<Vec<_>>().join(" ")
            ),
        ));
    }
    // A strategy entry's card name ends at `if`, `max` or `keep`, and is
    // `none` alone; `and`, `or` and `not` join conditions. A name holding
    // one of these words, in any case, could not be named by every
    // strategy line, so it is refused here rather than when the bot is
    // written.
    if let Some(w) = name
        .split_whitespace()
        .find(|w| NAME_KEYWORDS.iter().any(|k| w.eq_ignore_ascii_case(k)))
    {
        return Err(cx.err(
            name_v.span(),
            format!(
                "field 'name': '{name}' holds the word '{w}', which strategy files read as a keyword ({}), so no strategy could name the card; {}",
                NAME_KEYWORDS.join(", "),
                match join_keyword(&name, w) {
                    j if j != name => format!("join it to a neighbour with '-' ('{j}') or choose other words"),
                    _ => "choose another name".to_string(),
                }
            ),
        ));
    }
    let key = super::normalize(&name);
    if let Some(c) = Card::PRINTED
        .iter()
        .find(|c| super::normalize(c.name()) == key)
    {
        return Err(cx.err(
            name_v.span(),
            format!("field 'name': '{name}' is the printed card {c}; give the data card its own name, e.g. '{c} Data'"),
        ));
    }
    let cost = int(cx, need("cost")?, "cost", 16)?;
    let types_v = need("types")?;
    let types = type_list(cx, types_v, "types")?;
    if !types.has(Types(
        Types::ACTION.0 | Types::TREASURE.0 | Types::VICTORY.0 | Types::CURSE.0,
    )) {
        return Err(cx.err(
            types_v.span(),
            "field 'types': a card needs Action, Treasure, Victory or Curse",
        ));
    }
    let get = |k: &str, max: i64| -> Result<u8> {
        t.get(k)
            .map(|v| int(cx, v, k, max))
            .transpose()
            .map(|x| x.unwrap_or(0))
    };
    let (cards, actions, buys, coins) = (
        get("cards", 20)?,
        get("actions", 20)?,
        get("buys", 20)?,
        get("coins", 20)?,
    );
    if !types.has(Types::ACTION) && !types.has(Types::TREASURE) {
        let given = [
            ("cards", cards),
            ("actions", actions),
            ("buys", buys),
            ("coins", coins),
        ];
        if let Some((k, _)) = given.iter().find(|(_, n)| *n != 0) {
            return Err(cx.err(
                t[*k].span(),
                format!("field '{k}': +cards/actions/buys/coins need the Action or Treasure type (only played cards give them)"),
            ));
        }
    }
    if types.has(Types::TREASURE) && !types.has(Types::ACTION) && coins != 0 {
        return Err(cx.err(
            t["coins"].span(),
            "field 'coins': a Treasure gives its money with `value`",
        ));
    }
    let value = get("value", 20)?;
    if value != 0 && !types.has(Types::TREASURE) {
        return Err(cx.err(
            t["value"].span(),
            "field 'value': only a Treasure has a value",
        ));
    }
    let vp = match t.get("vp") {
        None => 0i8,
        Some(v) => whole(cx, v, "vp", -10, 20)? as i8,
    };
    let vp_rule = match t.get("vp_per") {
        None => None,
        Some(v) => {
            if !types.has(Types::VICTORY) {
                return Err(cx.err(
                    v.span(),
                    "field 'vp_per': only a Victory card counts VP by a rule",
                ));
            }
            let Some(tab) = v.get_ref().as_table() else {
                return Err(cx.err(
                    v.span(),
                    "field 'vp_per': expected { per = 10 } or { per = 1, card = \"Duchy\" }",
                ));
            };
            let mut per = None;
            let mut of = None;
            for (k, x) in tab {
                let xs = Sp::new(v.span(), x.clone());
                match k.as_str() {
                    "per" => per = Some(int_in(cx, &xs, "vp_per.per", 1, 100)?),
                    "card" => of = Some(card_name(cx, &xs, "vp_per.card")?),
                    _ => {
                        let sug = suggest(k, ["per", "card"].into_iter());
                        return Err(cx.err(
                            v.span(),
                            format!("field 'vp_per': unknown field '{k}'{sug}"),
                        ));
                    }
                }
            }
            let Some(per) = per else {
                return Err(cx.err(v.span(), "field 'vp_per' needs `per`"));
            };
            Some(VpRule { per, of })
        }
    };
    let pile = match t.get("pile") {
        None => PileRule::Kingdom,
        Some(v) => PileRule::Fixed(int_in(cx, v, "pile", 1, 60)?),
    };
    let blocks_attacks = match t.get("reaction") {
        None => false,
        Some(v) => {
            let s = string(cx, v, "reaction")?;
            if super::normalize(s) != "blockattack" && super::normalize(s) != "block" {
                return Err(cx.err(
                    v.span(),
                    format!("field 'reaction': unknown reaction '{s}' (the reaction a data card can have: \"block_attack\", Moat's)"),
                ));
            }
            if !types.has(Types::REACTION) {
                return Err(cx.err(v.span(), "field 'reaction' needs the Reaction type"));
            }
            true
        }
    };
    if types.has(Types::REACTION) && !blocks_attacks {
        return Err(cx.err(
            types_v.span(),
            "a Reaction needs `reaction = \"block_attack\"`",
        ));
    }
    let reprint_of = match t.get("reprint_of") {
        None => None,
        Some(v) => Some(card_name(cx, v, "reprint_of")?),
    };
    let mut comp = Compiler {
        cx,
        ops: Vec::new(),
        attack: types.has(Types::ATTACK),
        uses_attack: false,
    };
    // Main effect first, at the front of the program: option bodies and the
    // on-gain effect are appended after it.
    let mut main = match t.get("effect") {
        None => Vec::new(),
        Some(v) => {
            if !types.has(Types::ACTION) && !types.has(Types::TREASURE) {
                return Err(cx.err(
                    v.span(),
                    "field 'effect': only an Action or a Treasure is played",
                ));
            }
            comp.list(v, "effect")?
        }
    };
    // The engine gives an Action's vanilla bonuses; a Treasure's +Cards,
    // +Actions and +Buys are the first step of its program.
    let (mut cards, mut actions, mut buys) = (cards, actions, buys);
    if !types.has(Types::ACTION) && (cards | actions | buys) != 0 {
        main.insert(
            0,
            Op::Plus(Bonus {
                cards,
                actions,
                buys,
                coins: 0,
            }),
        );
        (cards, actions, buys) = (0, 0, 0);
    }
    let side = |comp: &mut Compiler, field: &str| -> Result<Vec<Op>> {
        match t.get(field) {
            None => Ok(Vec::new()),
            Some(v) => {
                let body = comp.list(v, field)?;
                if body.iter().any(|op| {
                    matches!(
                        op,
                        Op::TrashSelf
                            | Op::MayTrashSelf { .. }
                            | Op::VictimsGain(_)
                            | Op::VictimsDiscardDownTo(_)
                            | Op::VictimsTopdeck(_)
                            | Op::VictimsTrashTreasure { .. }
                    )
                }) {
                    return Err(cx.err(
                        v.span(),
                        format!("field '{field}': trash_self, may_trash_self and Attack effects only work when the card is played"),
                    ));
                }
                Ok(body)
            }
        }
    };
    let on_trash = side(&mut comp, "on_trash")?;
    let on_gain = side(&mut comp, "on_gain")?;
    if types.has(Types::ATTACK) && !comp.uses_attack {
        return Err(cx.err(
            types_v.span(),
            "an Attack card needs an `others_…` Attack effect",
        ));
    }
    // Assemble: [main][option bodies (already in comp.ops)][on_gain], with
    // the option ranges shifted past the main effect.
    // Every `choose` recorded its option ranges relative to `comp.ops` (the
    // option bodies), which sit right after the main effect: shift them.
    let shift = main.len() as u16;
    let shifted = |op: Op| match op {
        Op::Choose { n, pick, mut opts } => {
            for o in opts.iter_mut().take(n as usize) {
                o.0 += shift;
            }
            Op::Choose { n, pick, opts }
        }
        other => other,
    };
    let mut ops: Vec<Op> = main.into_iter().map(shifted).collect();
    ops.append(&mut comp.ops);
    let og_start = ops.len() as u16;
    let og_len = on_gain.len() as u16;
    ops.extend(on_gain.into_iter().map(shifted));
    let ot_start = ops.len() as u16;
    let ot_len = on_trash.len() as u16;
    ops.extend(on_trash.into_iter().map(shifted));
    if ops.len() > u16::MAX as usize / 2 {
        return Err(cx.err(span, "this card's effect is too long"));
    }
    let effect = shift > 0;
    let mut hooks = Hooks::NONE;
    if blocks_attacks {
        hooks = hooks.or(Hooks::ATTACK_REACTION);
    }
    if vp_rule.is_some() {
        hooks = hooks.or(Hooks::VP_RULE);
    }
    if ot_len > 0 {
        hooks = hooks.or(Hooks::ON_TRASH);
    }
    if og_len > 0 {
        hooks = hooks.or(Hooks::ON_GAIN);
    }
    let info = CardInfo {
        name: "",
        cost,
        types,
        set: Set::Data,
        pile,
        cards,
        actions,
        buys,
        coins,
        value,
        vp,
        effect,
        hooks,
        companion: None,
    };
    Ok(DataCard {
        name,
        info,
        reprint_of,
        program: Program {
            ops,
            main: shift,
            on_gain: (og_start, og_len),
            on_trash: (ot_start, ot_len),
            vp: vp_rule,
            blocks_attacks,
        },
        origin,
        file: cx.file.to_string(),
    })
}

/// A few lines describing a card for `domsim cards list`: its name, cost
/// and types, its rules text as a printed card would read ([`card_text`],
/// written from what the engine plays), then where it came from.
pub fn describe(dc: &DataCard) -> String {
    let i = &dc.info;
    let mut s = format!("{} — ${} {:?}", dc.name, i.cost, i.types);
    s.push_str(&format!("\n    {}", card_text(dc)));
    if let Some(r) = dc.reprint_of {
        s.push_str(&format!("\n    reprint of {r}"));
    }
    s.push_str(&format!("\n    ({})", dc.origin));
    s
}

/// The signatures of the data cards bound now (empty without `--cards`).
pub fn bound_signatures() -> Vec<String> {
    let bound = BOUND.lock().unwrap_or_else(|e| e.into_inner());
    bound.iter().map(|c| c.signature()).collect()
}

/// The card files of the data cards bound now, each once (inputs that no
/// output may overwrite).
pub fn bound_files() -> Vec<String> {
    let bound = BOUND.lock().unwrap_or_else(|e| e.into_inner());
    let mut files: Vec<String> = bound.iter().map(|c| c.file.clone()).collect();
    files.sort();
    files.dedup();
    files
}

/// The slots of the data cards bound now, in binding order (empty without
/// `--cards`): what `soak --cards` soaks ([`crate::soak::run_with_cards`]).
pub fn bound_slots() -> Vec<Card> {
    let bound = BOUND.lock().unwrap_or_else(|e| e.into_inner());
    (0..bound.len())
        .map(|s| Card::ALL[FIRST_DATA + s])
        .collect()
}

/// The card file data card `c` was read from, while it is bound (None for
/// a printed card or an unbound slot).
pub fn file_of(c: Card) -> Option<String> {
    let s = (c as usize).checked_sub(FIRST_DATA)?;
    let bound = BOUND.lock().unwrap_or_else(|e| e.into_inner());
    bound
        .get(s)
        .filter(|dc| dc.name == c.name())
        .map(|dc| dc.file.clone())
}

/// The cards of the binding that lives now (for run keys and metadata).
static BOUND: Mutex<Vec<DataCard>> = Mutex::new(Vec::new());

/// The cards of `cards` named in `names` (comma-separated), in that order;
/// an unknown name is an error with a suggestion.
pub fn select(cards: Vec<DataCard>, names: &str) -> Result<Vec<DataCard>> {
    let mut out = Vec::new();
    for n in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let key = super::normalize(n);
        match cards.iter().find(|c| super::normalize(&c.name) == key) {
            Some(c) => {
                if !out.iter().any(|o: &DataCard| o.name == c.name) {
                    out.push(c.clone());
                }
            }
            None => {
                let sug = suggest(n, cards.iter().map(|c| c.name.as_str()));
                bail!("--cards-only: no card '{n}' in the card files{sug}");
            }
        }
    }
    if out.is_empty() {
        bail!("--cards-only names no card");
    }
    Ok(out)
}
