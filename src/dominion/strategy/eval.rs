//! Evaluation of a [`Compiled`] strategy: conditions, list scans and the
//! safety rules, which the question modules ([`super::questions`]) use to
//! answer the engine. Nothing here allocates: conditions run on a
//! fixed-size stack, lists are ranges of a flat entry array.

use super::ast::{BinOp, Fun, NumFun, Var};
use super::compile::{
    CEntry, Code, Compiled, Cond, Op, Slot, Subj, Target, Term, TermSrc, HYPO_MAX, STACK,
};
use crate::cards::{Card, CardSet};
use crate::engine::{Game, Pick, Why};

/// Count of `s` in a zone.
#[inline]
fn zone_count(z: &crate::engine::CardVec, s: Subj) -> i32 {
    match s {
        Subj::Card(c) => z.count(c) as i32,
        Subj::Mask(m) => z.iter().filter(|&c| m.contains(c)).count() as i32,
    }
}

#[inline]
fn sum_by(s: Subj, f: impl Fn(Card) -> i32) -> i32 {
    match s {
        Subj::Card(c) => f(c),
        Subj::Mask(m) => m.iter().map(f).sum(),
    }
}

/// `lo <= x <= hi` without a branch (the test of [`Cond::Range`]).
#[inline(always)]
fn in_range(x: i32, lo: i32, hi: i32) -> bool {
    (x.wrapping_sub(lo) as u32) <= (hi.wrapping_sub(lo) as u32)
}

impl Compiled {
    /// Evaluate a number or condition (conditions are 0/1). A program of
    /// at most 16 operations needs at most 16 stack slots, so the common
    /// short conditions run on a small stack (no 256-byte clear per call).
    pub(crate) fn eval(&self, code: Code, g: &Game, me: u8) -> i32 {
        if code.len <= 16 {
            self.eval_on::<16>(code, g, me)
        } else {
            self.eval_on::<STACK>(code, g, me)
        }
    }

    /// [`Self::eval`] on an `N`-slot stack; `N` is a power of two and at
    /// least the program's depth (checked when compiling, `STACK` at most),
    /// so indexing by `sp % N` never wraps and needs no bounds check. The
    /// top of the stack is kept in `acc`; a push stores it (the first push
    /// stores the unused initial value, so a program needs `depth` slots).
    /// An empty program is true (`acc` starts at 1).
    #[inline(always)]
    fn eval_on<const N: usize>(&self, code: Code, g: &Game, me: u8) -> i32 {
        const { assert!(N.is_power_of_two()) };
        let mut st = [0i32; N];
        let mut sp = 0usize;
        let mut acc = 1i32;
        let ops = &self.code[code.start as usize..(code.start + code.len) as usize];
        let mut pc = 0usize;
        while let Some(&op) = ops.get(pc) {
            pc += 1;
            let v = match op {
                Op::Const(v) => v,
                Op::Slot(x) => slot(x, g, me),
                Op::Var(v) => var_slow(self, v, g, me),
                Op::Fun(f, c) => fun(f, Subj::Card(c), g, me),
                Op::FunMask(f, i) => fun(f, Subj::Mask(self.masks[i as usize]), g, me),
                Op::CountMask(i) => owned_in(&g.players[me as usize].owned, self.masks[i as usize]),
                Op::Neg => {
                    acc = acc.wrapping_neg();
                    continue;
                }
                Op::Not => {
                    acc = (acc == 0) as i32;
                    continue;
                }
                Op::Bin(b) => {
                    sp = sp.wrapping_sub(1);
                    acc = bin(b, st[sp % N], acc);
                    continue;
                }
                Op::BinK(b, k) => {
                    acc = bin(b, acc, k);
                    continue;
                }
                Op::Count(c) => g.players[me as usize].owned[c as usize] as i32,
                Op::AddK(k) => {
                    acc = acc.wrapping_add(k);
                    continue;
                }
                Op::LtK(k) => {
                    acc = (acc < k) as i32;
                    continue;
                }
                Op::LeK(k) => {
                    acc = (acc <= k) as i32;
                    continue;
                }
                Op::GtK(k) => {
                    acc = (acc > k) as i32;
                    continue;
                }
                Op::GeK(k) => {
                    acc = (acc >= k) as i32;
                    continue;
                }
                Op::JumpIfZero(n) => {
                    if acc == 0 {
                        pc += n as usize;
                    }
                    continue;
                }
                Op::JumpIfNonZero(n) => {
                    if acc != 0 {
                        acc = 1;
                        pc += n as usize;
                    }
                    continue;
                }
                Op::IfNot(n) => {
                    if acc == 0 {
                        pc += n as usize;
                    }
                    sp = sp.wrapping_sub(1);
                    acc = st[sp % N];
                    continue;
                }
                Op::Jump(n) => {
                    pc += n as usize;
                    continue;
                }
                Op::Num(f) => {
                    acc = self.num_fn(f, acc, g, me);
                    continue;
                }
            };
            // A push: the old top goes to the stack.
            st[sp % N] = acc;
            sp += 1;
            acc = v;
        }
        acc
    }

    /// `would_buy(coins)` and its kin ([`NumFun`]): what my `buy` list
    /// would choose now with `coins` coins (clamped to 0..=[`HYPO_MAX`])
    /// and one buy, the safety rules included, read from the list compiled
    /// for that amount ([`Compiled::hypo_buy`]). Out of line: only
    /// conditions that ask pay for it.
    #[inline(never)]
    pub(crate) fn num_fn(&self, f: NumFun, coins: i32, g: &Game, me: u8) -> i32 {
        if f == NumFun::BestHandMoney {
            return best_hand_money(&g.players[me as usize].hand, coins);
        }
        let Some(base) = self.hypo_buy else {
            return 0;
        };
        let n = coins.clamp(0, HYPO_MAX);
        let legal = g.gainable_up_to(CardSet::all(), n as u16);
        if legal.is_empty() {
            return 0;
        }
        let q = Pick::turn(me, Why::Buy, legal);
        let list = base + n as u16;
        match f {
            NumFun::WouldBuy => self.scan(list, g, &q, true).map_or(0, |c| c as i32 + 1),
            NumFun::BuyCost => self.scan(list, g, &q, true).map_or(0, |c| g.cost(c) as i32),
            NumFun::BestHandMoney => 0,
            NumFun::BuyValue => {
                let (start, len) = self.lists[list as usize];
                match self.deciding_entry(list, g, &q, true).0 {
                    Some(i) if self.entries[i].target != Target::Nothing => {
                        (start + len) as i32 - i as i32
                    }
                    _ => 0,
                }
            }
        }
    }

    /// Whether an entry's condition holds. `Always` (most entries) is
    /// decided inline; the others out of line, so the list scan stays a
    /// tight loop instead of loading every variable it might need up front.
    #[inline(always)]
    fn holds(&self, cond: Cond, g: &Game, me: u8) -> bool {
        match cond {
            Cond::Always => true,
            // A pile (`supply(Province) <= 4`): the load depends on the
            // entry, so it stays in the loop; the other slots out of line
            // (see `range_holds`).
            Cond::Range(Slot::Supply(c), lo, hi) => in_range(g.supply[c as usize] as i32, lo, hi),
            Cond::Range(s, lo, hi) => range_holds(s, lo, hi, g, me),
            _ => self.holds_slow(cond, g, me),
        }
    }

    /// The conditions `holds` does not decide inline. Both sides of an
    /// `and`/`or` are decided here, in this one frame ([`Self::leaf`]):
    /// only a nested `and`/`or` calls again (`count(X) < 1 + cards / 16 and
    /// count(X) < 3` used to cost three calls).
    #[inline(never)]
    fn holds_slow(&self, cond: Cond, g: &Game, me: u8) -> bool {
        match cond {
            Cond::And(i) => {
                let [a, b] = self.pairs[i as usize];
                self.leaf(a, g, me) && self.leaf(b, g, me)
            }
            Cond::Or(i) => {
                let [a, b] = self.pairs[i as usize];
                self.leaf(a, g, me) || self.leaf(b, g, me)
            }
            _ => self.leaf(cond, g, me),
        }
    }

    /// Every condition but `and`/`or` decided inline (out of the list
    /// scan, where the loads would be hoisted: see [`Self::holds`]); those
    /// two go back to [`Self::holds_slow`].
    #[inline(always)]
    fn leaf(&self, cond: Cond, g: &Game, me: u8) -> bool {
        match cond {
            Cond::Always => true,
            Cond::Range(s, lo, hi) => in_range(slot(s, g, me), lo, hi),
            Cond::VarCmp(Var::GainsToEnd, op, n) => match gains_bound(op, n, g) {
                Some(b) => b,
                None => bin(op, gains_to_end(g), n) != 0,
            },
            Cond::VarCmp(v, op, n) => bin(op, var(self, v, g, me), n) != 0,
            Cond::FunCmp(f, c, op, n) => bin(op, fun_card(f, c, g, me), n) != 0,
            Cond::Cmp(i) => {
                let c = self.cmps[i as usize];
                bin(c.op, self.term(c.l, g, me), self.term(c.r, g, me)) != 0
            }
            Cond::And(_) | Cond::Or(_) => self.holds_slow(cond, g, me),
            Cond::Code(c) => self.eval(c, g, me) != 0,
        }
    }

    /// The value of a [`Term`]: its load, then its constant operations
    /// with the bytecode's arithmetic ([`bin`]).
    #[inline(always)]
    fn term(&self, t: Term, g: &Game, me: u8) -> i32 {
        let mut v = match t.src {
            TermSrc::Slot(s) => slot(s, g, me),
            TermSrc::CountMask(i) => {
                owned_in(&g.players[me as usize].owned, self.masks[i as usize])
            }
            TermSrc::Const(k) => k,
        };
        for &(op, k) in &t.ops[..t.n as usize] {
            v = bin(op, v, k);
        }
        v
    }
    #[inline(always)]
    fn entries(&self, list: u16) -> &[CEntry] {
        let (s, n) = self.lists[list as usize];
        &self.entries[s as usize..(s + n) as usize]
    }

    /// First applicable entry of `list` for pick `q`. `None`: nothing
    /// applies, or a `none` entry applied. Always inlined into its one
    /// caller (`questions::pick`): left to LLVM, it went out of line once
    /// `would_buy` made the strategy code larger, +2,000 instructions a Big
    /// Money game (callgrind).
    #[inline(always)]
    pub(crate) fn scan(&self, list: u16, g: &Game, q: &Pick, safety: bool) -> Option<Card> {
        if safety && self.guarded {
            self.scan_with::<true>(list, g, q)
        } else {
            self.scan_with::<false>(list, g, q)
        }
    }

    /// [`Self::scan`] with the safety rules on (`SAFE`) or off: two
    /// instantiations, so the common loop carries no safety state.
    #[inline(always)]
    fn scan_with<const SAFE: bool>(&self, list: u16, g: &Game, q: &Pick) -> Option<Card> {
        let me = q.player;
        for e in self.entries(list) {
            // A card or type entry none of whose cards is legal now is
            // skipped on one AND, before its condition is looked at.
            if q.legal.and(e.mask).is_empty() {
                if e.target == Target::Nothing && self.holds(e.cond, g, me) {
                    return None;
                }
                continue;
            }
            match e.target {
                Target::Card(c) => {
                    if self.holds(e.cond, g, me) && !(SAFE && self.unsafe_now(g, me, c)) {
                        return Some(c);
                    }
                }
                Target::Type => {
                    if let Some(c) = self.scan_mask(e, e.mask, g, q, SAFE) {
                        return Some(c);
                    }
                }
                Target::Nothing => {}
            }
        }
        None
    }

    /// Which entry of `list` decides question `q` (its index into
    /// `entries`), by the very rule of [`Self::scan`]: the entry that
    /// answers, or the `none` entry that stops the list; None when no entry
    /// applies. For `domsim log --explain` only.
    /// Also returns the cards that entries before it would have chosen but
    /// the safety rules skipped.
    pub(crate) fn deciding_entry(
        &self,
        list: u16,
        g: &Game,
        q: &Pick,
        safety: bool,
    ) -> (Option<usize>, CardSet) {
        let me = q.player;
        let safe = safety && self.guarded;
        let (start, len) = self.lists[list as usize];
        let mut skipped = CardSet::EMPTY;
        for (k, e) in self.entries(list).iter().enumerate() {
            let i = start as usize + k;
            // Unreachable: `k` enumerates `entries(list)`, which is exactly
            // the `len` entries from `start` (a slice, bounds-checked).
            debug_assert!(k < len as usize);
            if q.legal.and(e.mask).is_empty() {
                if e.target == Target::Nothing && self.holds(e.cond, g, me) {
                    return (Some(i), skipped);
                }
                continue;
            }
            match e.target {
                Target::Card(c) => {
                    if self.holds(e.cond, g, me) {
                        if !(safe && self.unsafe_now(g, me, c)) {
                            return (Some(i), skipped);
                        }
                        skipped.insert(c);
                    }
                }
                Target::Type => {
                    if self.scan_mask(e, e.mask, g, q, safe).is_some() {
                        return (Some(i), skipped);
                    }
                    if let Some(c) = self.scan_mask(e, e.mask, g, q, false) {
                        skipped.insert(c);
                    }
                }
                Target::Nothing => {}
            }
        }
        (None, skipped)
    }

    /// A type entry: the engine's default choice among the matching legal
    /// cards (skipping cards the safety rules forbid).
    #[inline(never)]
    fn scan_mask(&self, e: &CEntry, m: CardSet, g: &Game, q: &Pick, safety: bool) -> Option<Card> {
        let me = q.player;
        let mut legal = q.legal.and(m);
        if legal.is_empty() || !self.holds(e.cond, g, me) {
            return None;
        }
        while !legal.is_empty() {
            let sub = Pick {
                legal,
                optional: false,
                ..*q
            };
            let c = sub.default_answer(g)?;
            if !(safety && self.unsafe_now(g, me, c)) {
                return Some(c);
            }
            legal.remove(c);
        }
        None
    }

    /// The entry of a yes/no list that decides for `card` (its index into
    /// `entries`), by the very rule of [`Self::matches`]: the first entry
    /// that names the card (or `none`) and whose condition holds: the rule
    /// of [`Self::matches`] and of `--explain`.
    pub(crate) fn matching_entry(&self, list: u16, g: &Game, me: u8, card: Card) -> Option<usize> {
        let (start, _) = self.lists[list as usize];
        for (k, e) in self.entries(list).iter().enumerate() {
            let hit = e.target == Target::Nothing || e.mask.contains(card);
            if hit && self.holds(e.cond, g, me) {
                return Some(start as usize + k);
            }
        }
        None
    }

    /// Where the `Route::Value` option of `card` for route slot `slot` is
    /// written (`--explain`).
    pub(crate) fn option_at(&self, card: Card, slot: usize) -> String {
        self.option_at
            .iter()
            .find(|(c, s, _)| *c == card && *s == slot)
            .map_or_else(|| "an option".into(), |(_, _, at)| at.clone())
    }

    /// Whether some entry of a yes/no list matches `card`.
    pub(crate) fn matches(&self, list: u16, g: &Game, me: u8, card: Card) -> bool {
        self.matching_entry(list, g, me, card)
            .is_some_and(|i| self.entries[i].target != Target::Nothing)
    }

    /// [`Self::unsafe_gain`] behind an inline pre-check: the safety rules
    /// only concern the last card of a pile or the penultimate Province, so
    /// a pile with more than 2 cards left never needs the full check. The
    /// caller has checked that a safety rule is on for this question.
    #[inline(always)]
    fn unsafe_now(&self, g: &Game, me: u8, c: Card) -> bool {
        g.supply[c as usize] <= 2 && self.unsafe_gain(g, me, c)
    }

    /// The built-in safety rules: would gaining `c` now lose the game (it
    /// ends the game with me behind), or hand the game to an opponent (the
    /// penultimate Province rule)?
    ///
    /// The penultimate Province rule skips the second-to-last Province only
    /// when an opponent taking the last one would then **beat** me. A tie is
    /// accepted: the opponent would take that last Province on his next turn,
    /// so he would have taken as many turns as I (seated after me) or one
    /// more (seated before me), and the fewer-turns tie-break never favours
    /// him. Treating a possible tie as a loss deadlocked even positions: with
    /// equal VP neither bot would buy the penultimate Province, and games ran
    /// on until a third pile emptied (Smithy Big Money vs Big Money Ultimate
    /// averaged 27.7 turns, 23% of them ties). Now the bot behind is the only
    /// one held back, so some player can always take it.
    #[inline(never)]
    pub(crate) fn unsafe_gain(&self, g: &Game, me: u8, c: Card) -> bool {
        if !(self.safe_ending || self.penultimate_province) {
            return false;
        }
        let left = g.supply[c as usize];
        let ends = left == 1 && (c == Card::Province || g.empty_piles + 1 >= g.kingdom.end_piles);
        let ppr = self.penultimate_province && c == Card::Province && left == 2;
        let end_check = self.safe_ending && ends;
        if !end_check && !ppr {
            return false;
        }
        // My VP after the gain (variable-VP cards may change too).
        let mine = g.vp_if_gained(me, c);
        let my_turns = g.turns_taken[me as usize];
        let mut best = i32::MIN;
        let mut lose_tie = false;
        for o in g.others(me) {
            let v = g.vp(o);
            if v > best {
                best = v;
                lose_tie = false;
            }
            if v == best && g.turns_taken[o as usize] < my_turns {
                lose_tie = true;
            }
        }
        if end_check && (mine < best || (mine == best && lose_tie)) {
            return true;
        }
        // An opponent could take the last Province (+6) and beat me.
        ppr && best + 6 > mine
    }
}

/// The coin value of the `n` most valuable Treasures of `hand` (all of
/// them when it holds `n` or fewer; 0 for `n <= 0`). No allocation: the
/// values are counted by size (a Treasure is worth at most a few coins).
fn best_hand_money(hand: &crate::engine::CardVec, n: i32) -> i32 {
    let mut by_value = [0i32; 8];
    for c in hand.iter().filter(|c| c.is_treasure()) {
        by_value[(c.info().value as usize).min(7)] += 1;
    }
    let (mut left, mut sum) = (n.max(0), 0);
    for v in (1..8).rev() {
        let k = by_value[v].min(left);
        sum += k * v as i32;
        left -= k;
    }
    sum
}

#[inline]
fn bin(b: BinOp, l: i32, r: i32) -> i32 {
    match b {
        BinOp::Add => l.wrapping_add(r),
        BinOp::Sub => l.wrapping_sub(r),
        BinOp::Mul => l.wrapping_mul(r),
        BinOp::Div => l.checked_div(r).unwrap_or(0),
        BinOp::Mod => l.checked_rem(r).unwrap_or(0),
        BinOp::Lt => (l < r) as i32,
        BinOp::Le => (l <= r) as i32,
        BinOp::Gt => (l > r) as i32,
        BinOp::Ge => (l >= r) as i32,
        BinOp::Eq => (l == r) as i32,
        BinOp::Ne => (l != r) as i32,
        BinOp::And => (l != 0 && r != 0) as i32,
        BinOp::Or => (l != 0 || r != 0) as i32,
    }
}

/// Copies owned of the cards of `m` (`count(type)`): a walk over the set
/// bits, 64 at a time, indexing the counts by bit (a card's number).
#[inline(always)]
fn owned_in(owned: &[u8; Card::COUNT], m: CardSet) -> i32 {
    let mut sum = 0i32;
    for (half, base) in [(m.0 as u64, 0usize), ((m.0 >> 64) as u64, 64)] {
        let mut w = half;
        while w != 0 {
            let i = base + w.trailing_zeros() as usize;
            w &= w - 1;
            sum += owned.get(i).map_or(0, |&n| n as i32);
        }
    }
    sum
}

/// A [`Cond::Range`] test, out of line: inlined into a list scan, the
/// slot's match let the compiler load every slot the scan might read up
/// front (a dozen loads and stack spills per scan, most of them unused).
#[inline(never)]
fn range_holds(s: Slot, lo: i32, hi: i32, g: &Game, me: u8) -> bool {
    in_range(slot(s, g, me), lo, hi)
}

/// The value of a [`Slot`]: one load from the game state.
#[inline(always)]
fn slot(s: Slot, g: &Game, me: u8) -> i32 {
    let pl = &g.players[me as usize];
    match s {
        Slot::Coins => g.turn.coins as i32,
        Slot::Actions => g.turn.actions as i32,
        Slot::Buys => g.turn.buys as i32,
        Slot::Turn => g.turns_taken[me as usize] as i32,
        Slot::Cards => pl.owned_total as i32,
        Slot::TotalMoney => pl.money as i32,
        Slot::EmptyPiles => g.empty_piles as i32,
        Slot::HandSize => pl.hand.len() as i32,
        Slot::DrawPileSize => pl.deck.len() as i32,
        Slot::DiscardSize => pl.discard.len() as i32,
        Slot::Players => g.kingdom.players as i32,
        Slot::ActionPlays => g.turn.action_plays as i32,
        Slot::Count(c) => pl.owned[c as usize] as i32,
        Slot::Supply(c) => g.supply[c as usize] as i32,
    }
}

/// A variable's value: the ones the engine keeps ready through [`slot`],
/// the others (scans, VP) out of line.
#[inline(always)]
fn var(s: &Compiled, v: Var, g: &Game, me: u8) -> i32 {
    match Slot::of_var(v) {
        Some(x) => slot(x, g, me),
        None => var_slow(s, v, g, me),
    }
}

/// The variables that are not a [`Slot`].
#[inline(never)]
fn var_slow(s: &Compiled, v: Var, g: &Game, me: u8) -> i32 {
    let pl = &g.players[me as usize];
    match v {
        Var::MoneyDensity => {
            let n = pl.owned_total as i32;
            if n == 0 {
                0
            } else {
                pl.money as i32 * 100 / n
            }
        }
        Var::HandMoney => pl.hand.iter().map(|c| c.info().value as i32).sum(),
        Var::GainsToEnd => gains_to_end(g),
        Var::Vp => g.vp(me),
        Var::VpLead => g.vp(me) - best_opp_vp(g, me),
        Var::OppVp => best_opp_vp(g, me),
        Var::GainedThisTurn => g.turn_gained[me as usize & 7] as i32,
        Var::BoughtThisTurn => g.turn_bought as i32,
        Var::OppHandSize => g
            .others(me)
            .map(|o| g.players[o as usize].hand.len() as i32)
            .max()
            .unwrap_or(0),
        // Slots: read through `var` (kept exhaustive so a new variable must
        // choose its path).
        Var::Coins
        | Var::Actions
        | Var::Buys
        | Var::Turn
        | Var::Cards
        | Var::TotalMoney
        | Var::EmptyPiles
        | Var::HandSize
        | Var::DrawPileSize
        | Var::DiscardSize
        | Var::Players
        | Var::ActionPlays => var(s, v, g, me),
    }
}

fn best_opp_vp(g: &Game, me: u8) -> i32 {
    g.others(me).map(|o| g.vp(o)).max().unwrap_or(0)
}

/// `gains_to_end <op> n` when the Provinces left decide it without the
/// pile scan: `gains_to_end` is at most `supply(Province)` (the game ends
/// when they run out), so `gains_to_end > 10` is false whenever 10 or fewer
/// Provinces are left (always, in a 2-player game). `None`: compute it.
#[inline(always)]
fn gains_bound(op: BinOp, n: i32, g: &Game) -> Option<bool> {
    let prov = g.supply[Card::Province as usize] as i32;
    match op {
        BinOp::Gt if prov <= n => Some(false),
        BinOp::Ge | BinOp::Eq if prov < n => Some(false),
        BinOp::Lt | BinOp::Ne if prov < n => Some(true),
        BinOp::Le if prov <= n => Some(true),
        _ => None,
    }
}

/// Fewest gains that end the game: the Provinces left, or the sum of the
/// smallest non-empty Supply piles still needed to reach the pile limit.
pub(crate) fn gains_to_end(g: &Game) -> i32 {
    let need = g.kingdom.end_piles.saturating_sub(g.empty_piles) as usize;
    let prov = g.supply[Card::Province as usize] as i32;
    if need == 0 || prov == 0 {
        return 0;
    }
    let need = need.min(4);
    let piles = g.kingdom.supply_piles();
    // Usually the Provinces decide, and a lower bound shows it without
    // sorting: with at least `need` piles of 1..=254 cards (the piles the
    // sum below counts), the sum of the `need` smallest is at least `need`
    // times the smallest. One branch-free pass; the exact sum only when
    // the piles run low.
    let (mut least, mut counted) = (u8::MAX, 0usize);
    for &c in piles {
        let n = g.supply[c as usize];
        let ok = n.wrapping_sub(1) < u8::MAX - 1;
        least = least.min(if ok { n } else { u8::MAX });
        counted += ok as usize;
    }
    if counted >= need && least as i32 * need as i32 >= prov {
        return prov;
    }
    // The `need` smallest non-empty piles (need ≤ 4), kept sorted; most
    // piles are no smaller than the largest kept and are rejected on one
    // comparison.
    let mut small = [u8::MAX; 4];
    for &c in piles {
        let n = g.supply[c as usize];
        if n == 0 || n >= small[need - 1] {
            continue;
        }
        let mut v = n;
        for s in small.iter_mut().take(need) {
            if v < *s {
                std::mem::swap(&mut v, s);
            }
        }
    }
    let piles: i32 = small
        .iter()
        .take(need.min(4))
        .map(|&s| if s == u8::MAX { 0 } else { s as i32 })
        .sum();
    prov.min(piles)
}

/// `function(card)` of a fast-path condition: counts kept by the engine
/// inline, zone scans out of line.
#[inline(always)]
fn fun_card(f: Fun, c: Card, g: &Game, me: u8) -> i32 {
    match Slot::of_fun(f, c) {
        Some(x) => slot(x, g, me),
        None => fun(f, Subj::Card(c), g, me),
    }
}

#[inline(never)]
fn fun(f: Fun, s: Subj, g: &Game, me: u8) -> i32 {
    let pl = &g.players[me as usize];
    match f {
        Fun::Count => sum_by(s, |c| pl.owned[c as usize] as i32),
        Fun::Hand => zone_count(&pl.hand, s),
        Fun::InPlay => zone_count(&pl.play, s),
        Fun::DrawPile => zone_count(&pl.deck, s),
        Fun::DiscardPile => zone_count(&pl.discard, s),
        Fun::Supply => sum_by(s, |c| g.supply[c as usize] as i32),
        Fun::Trashed => zone_count(&g.trash, s),
        Fun::Opp => g
            .others(me)
            .map(|o| sum_by(s, |c| g.players[o as usize].owned[c as usize] as i32))
            .max()
            .unwrap_or(0),
        Fun::OppTotal => g
            .others(me)
            .map(|o| sum_by(s, |c| g.players[o as usize].owned[c as usize] as i32))
            .sum(),
        Fun::Cost => match s {
            Subj::Card(c) => g.cost(c) as i32,
            Subj::Mask(_) => 0,
        },
        Fun::CardId => match s {
            Subj::Card(c) => c as i32 + 1,
            Subj::Mask(_) => 0,
        },
        Fun::Aside => zone_count(&pl.aside, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameRng, Kingdom};

    /// The six comparison operators.
    const COMPARISONS: [BinOp; 6] = [
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
    ];

    /// Set every Supply pile of `g` to a random size of at most `most`
    /// (mostly small piles, some empty, some full), totals recounted.
    fn randomize_supply(g: &mut Game, r: &mut GameRng, most: u32) {
        let k = g.kingdom;
        for c in k.supply.iter() {
            let full = k.pile_size[c as usize] as u32;
            g.supply[c as usize] = r.below(full.min(most) + 1) as u8;
        }
        g.recount_totals();
    }

    /// `gains_to_end` by the definition: the Provinces left, or the sum of
    /// the `need` smallest non-empty Supply piles, whichever is fewer.
    fn reference(g: &Game) -> i32 {
        let need = g.kingdom.end_piles.saturating_sub(g.empty_piles) as usize;
        let prov = g.supply[Card::Province as usize] as i32;
        if need == 0 || prov == 0 {
            return 0;
        }
        let mut piles: Vec<i32> = g
            .kingdom
            .supply
            .iter()
            .map(|c| g.supply[c as usize] as i32)
            .filter(|&n| n > 0)
            .collect();
        piles.sort();
        prov.min(piles.iter().take(need).sum())
    }

    /// Every comparison compiled to `Cond::Range` answers as the operator
    /// it replaces, at and around the boundaries; `!=` and the bounds that
    /// would overflow keep the general form.
    #[test]
    fn range_conditions_agree_with_the_operators() {
        use super::super::compile::as_range;
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            -7,
            -1,
            0,
            1,
            2,
            5,
            6,
            7,
            i32::MAX - 1,
            i32::MAX,
        ];
        for op in COMPARISONS {
            for &n in &edges {
                let Some((lo, hi)) = as_range(op, n) else {
                    assert!(
                        op == BinOp::Ne
                            || (op == BinOp::Lt && n == i32::MIN)
                            || (op == BinOp::Gt && n == i32::MAX),
                        "{op:?} {n} has no range"
                    );
                    continue;
                };
                for &x in &edges {
                    assert_eq!(in_range(x, lo, hi), bin(op, x, n) != 0, "{x} {op:?} {n}");
                }
            }
        }
    }

    /// The expression tree evaluated directly (no bytecode), on the same
    /// primitives: what the compiled program must give.
    fn tree(e: &super::super::ast::Expr, s: &Compiled, k: &Kingdom, g: &Game, me: u8) -> i32 {
        use super::super::ast::{Expr, Subject};
        match e {
            Expr::Int(v) => *v,
            Expr::Bool(b) => *b as i32,
            Expr::Var(v) => var(s, *v, g, me),
            Expr::Fun(f, x) => {
                let subj = match *x {
                    Subject::Card(c) => Subj::Card(c),
                    Subject::Type(t) => Subj::Mask(CardSet::of_types(t).and(k.in_game)),
                    Subject::Terminal => Subj::Mask(CardSet::terminal().and(k.in_game)),
                };
                fun(*f, subj, g, me)
            }
            Expr::Neg(x) => tree(x, s, k, g, me).wrapping_neg(),
            Expr::Not(x) => (tree(x, s, k, g, me) == 0) as i32,
            Expr::Bin(op, l, r) => bin(*op, tree(l, s, k, g, me), tree(r, s, k, g, me)),
            Expr::Num(f, x) => s.num_fn(*f, tree(x, s, k, g, me), g, me),
            Expr::If(c, a, b) => {
                if tree(c, s, k, g, me) != 0 {
                    tree(a, s, k, g, me)
                } else {
                    tree(b, s, k, g, me)
                }
            }
        }
    }

    fn random_expr(r: &mut GameRng, depth: u32) -> super::super::ast::Expr {
        use super::super::ast::{Expr, Subject};
        use crate::cards::Types;
        if depth == 0 || r.below(4) == 0 {
            return match r.below(4) {
                0 => Expr::Int(r.below(16) as i32 - 3),
                1 => Expr::Bool(r.below(2) == 1),
                2 => Expr::Var(
                    [
                        Var::Cards,
                        Var::Coins,
                        Var::TotalMoney,
                        Var::GainsToEnd,
                        Var::Vp,
                        Var::HandSize,
                    ][r.below(6) as usize],
                ),
                _ => {
                    let f = [Fun::Count, Fun::Hand, Fun::Supply, Fun::Cost, Fun::Opp]
                        [r.below(5) as usize];
                    let x = match r.below(5) {
                        0 => Subject::Card(Card::Copper),
                        1 => Subject::Card(Card::Estate),
                        2 => Subject::Card(Card::Province),
                        3 => Subject::Type(Types::TREASURE),
                        _ => Subject::Terminal,
                    };
                    Expr::Fun(f, x)
                }
            };
        }
        match r.below(8) {
            0 => Expr::Neg(Box::new(random_expr(r, depth - 1))),
            1 => Expr::Not(Box::new(random_expr(r, depth - 1))),
            6 => Expr::If(
                Box::new(random_expr(r, depth - 1)),
                Box::new(random_expr(r, depth - 1)),
                Box::new(random_expr(r, depth - 1)),
            ),
            7 => Expr::Num(
                [
                    NumFun::WouldBuy,
                    NumFun::BuyValue,
                    NumFun::BuyCost,
                    NumFun::BestHandMoney,
                ][r.below(4) as usize],
                Box::new(random_expr(r, depth - 1)),
            ),
            _ => {
                let arith = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod];
                let ops: Vec<BinOp> = arith
                    .into_iter()
                    .chain(COMPARISONS)
                    .chain([BinOp::And, BinOp::Or])
                    .collect();
                let op = ops[r.below(ops.len() as u32) as usize];
                let l = random_expr(r, depth - 1);
                let rr = random_expr(r, depth - 1);
                Expr::Bin(op, Box::new(l), Box::new(rr))
            }
        }
    }

    /// The bytecode (accumulator, constant operands, short-circuit `and`
    /// and `or`) gives what the expression tree gives, on random
    /// expressions and states, short and long programs alike.
    #[test]
    fn compiled_conditions_agree_with_the_expression_tree() {
        let mut r = GameRng::for_game(11, 0);
        let k = Kingdom::random(2, &[crate::cards::Set::Base], 5).unwrap();
        let st = super::super::parse("buy: Copper", "<t>").unwrap();
        let mut g = Game::new(&k, 1, 0);
        let (mut long, mut jumps) = (0, 0);
        for i in 0..8_000 {
            if i % 50 == 0 {
                randomize_supply(&mut g, &mut r, 12);
                g.turn.coins = r.below(12) as _;
            }
            let depth = 1 + r.below(6);
            let e = random_expr(&mut r, depth);
            let (s, code) = super::super::compile::compile_expr(&st, &e, &k).unwrap();
            long += (code.len > 16) as u32;
            jumps += s
                .code
                .iter()
                .any(|o| matches!(o, Op::JumpIfZero(_) | Op::JumpIfNonZero(_)))
                as u32;
            for me in 0..2 {
                assert_eq!(s.eval(code, &g, me), tree(&e, &s, &k, &g, me), "{e:?}");
            }
        }
        assert!(long > 40 && jumps > 400, "{long} {jumps}");
    }

    /// A random number for [`random_cond`]: a constant, a variable, a
    /// count or a pile, then zero to three constant operations with the
    /// constant on either side (three, a `Var` that is not a slot and the
    /// non-commutative operations with the constant on the left are not
    /// terms: the bytecode answers those).
    fn random_term(r: &mut GameRng) -> super::super::ast::Expr {
        use super::super::ast::{Expr, Subject};
        use crate::cards::Types;
        let int = |r: &mut GameRng| Expr::Int(r.below(16) as i32 - 3);
        let mut e = match r.below(4) {
            0 => int(r),
            1 => Expr::Var(
                [
                    Var::Cards,
                    Var::Coins,
                    Var::TotalMoney,
                    Var::HandSize,
                    Var::GainsToEnd,
                ][r.below(5) as usize],
            ),
            _ => {
                let f = [Fun::Count, Fun::Supply][r.below(2) as usize];
                let x = match r.below(4) {
                    0 => Subject::Card(Card::Copper),
                    1 => Subject::Card(Card::Estate),
                    2 => Subject::Card(Card::Province),
                    _ => Subject::Type(Types::TREASURE),
                };
                Expr::Fun(f, x)
            }
        };
        let n = if r.below(8) == 0 { 3 } else { r.below(3) };
        for _ in 0..n {
            let op =
                [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod][r.below(5) as usize];
            let k = Box::new(int(r));
            e = if r.below(4) != 0 {
                Expr::Bin(op, Box::new(e), k)
            } else {
                Expr::Bin(op, k, Box::new(e))
            };
        }
        e
    }

    /// A random condition: comparisons of terms, `and`/`or` of conditions,
    /// and now and then any expression ([`random_expr`]).
    fn random_cond(r: &mut GameRng, depth: u32) -> super::super::ast::Expr {
        use super::super::ast::Expr;
        match r.below(16) {
            0 => random_expr(r, 2),
            1..=5 if depth > 0 => {
                let op = [BinOp::And, BinOp::Or][r.below(2) as usize];
                let l = random_cond(r, depth - 1);
                let rr = random_cond(r, depth - 1);
                Expr::Bin(op, Box::new(l), Box::new(rr))
            }
            _ => {
                let op = COMPARISONS[r.below(6) as usize];
                let l = random_term(r);
                let rr = random_term(r);
                Expr::Bin(op, Box::new(l), Box::new(rr))
            }
        }
    }

    /// The fast forms of conditions (`Cond::Cmp`, `And`, `Or`, `Range`…)
    /// answer as the expression tree does, on random conditions and
    /// states; the ones without a fast form keep the bytecode.
    #[test]
    fn fast_conditions_agree_with_the_expression_tree() {
        let mut r = GameRng::for_game(12, 0);
        let k = Kingdom::random(2, &[crate::cards::Set::Base], 6).unwrap();
        let st = super::super::parse("buy: Copper", "<t>").unwrap();
        let mut g = Game::new(&k, 1, 0);
        let (mut cmp, mut and_or, mut code) = (0, 0, 0);
        for i in 0..8_000 {
            if i % 50 == 0 {
                randomize_supply(&mut g, &mut r, 12);
                g.turn.coins = r.below(12) as _;
                for p in 0..2 {
                    g.players[p].owned[Card::Copper as usize] = r.below(12) as u8;
                    g.players[p].owned[Card::Estate as usize] = r.below(5) as u8;
                    g.players[p].owned_total = r.below(40) as _;
                    g.players[p].money = r.below(30) as _;
                }
            }
            let e = random_cond(&mut r, 3);
            let (s, cond) = super::super::compile::compile_cond(&st, &e, &k).unwrap();
            match cond {
                Cond::Cmp(_) => cmp += 1,
                Cond::And(_) | Cond::Or(_) => and_or += 1,
                Cond::Code(_) => code += 1,
                _ => {}
            }
            for me in 0..2 {
                let want = tree(&e, &s, &k, &g, me) != 0;
                assert_eq!(s.holds(cond, &g, me), want, "{e:?} as {cond:?}");
            }
        }
        assert!(
            cmp > 1_000 && and_or > 150 && code > 1_000,
            "{cmp} {and_or} {code}"
        );
    }

    /// The parser's stack check (`compile::stack_need`, kingdom-free)
    /// agrees with the compiler: the fast form is found exactly when it
    /// says, and the bytecode needs the stack it computes.
    #[test]
    fn stack_need_agrees_with_the_compiler() {
        use super::super::compile::{compile_cond, emit_depth, stack_need};
        let mut r = GameRng::for_game(13, 0);
        let k = Kingdom::random(2, &[crate::cards::Set::Base], 6).unwrap();
        let st = super::super::parse("buy: Copper", "<t>").unwrap();
        let (mut fast, mut code) = (0, 0);
        for _ in 0..8_000 {
            let e = random_cond(&mut r, 4);
            let (_, cond) = compile_cond(&st, &e, &k).unwrap();
            let is_code = matches!(cond, Cond::Code(_));
            assert_eq!(stack_need(&e, true) == 0, !is_code, "{e:?} as {cond:?}");
            assert_eq!(stack_need(&e, false), emit_depth(&st, &e, &k), "{e:?}");
            if is_code {
                code += 1;
            } else {
                fast += 1;
            }
        }
        assert!(fast > 1_000 && code > 1_000, "{fast} {code}");
    }

    /// The Province bound of `gains_bound` never contradicts the full
    /// computation.
    #[test]
    fn gains_bound_agrees_with_gains_to_end() {
        random_supplies(9, &[2, 3, 4, 6], 4, 500, 14, |g| {
            let v = gains_to_end(g);
            for n in -2..16 {
                for op in COMPARISONS {
                    if let Some(b) = gains_bound(op, n, g) {
                        assert_eq!(b, bin(op, v, n) != 0, "{v} {op:?} {n}");
                    }
                }
            }
        });
    }

    /// Run `check` on `rounds` states per player count of a random base
    /// kingdom, each with its Supply randomised ([`randomize_supply`]).
    fn random_supplies(
        seed: u64,
        players: &[usize],
        kingdom_seed: u64,
        rounds: usize,
        most: u32,
        mut check: impl FnMut(&Game),
    ) {
        let mut r = GameRng::for_game(seed, 0);
        for &n in players {
            let k = Kingdom::random(n, &[crate::cards::Set::Base], kingdom_seed).unwrap();
            let mut g = Game::new(&k, 1, 0);
            for _ in 0..rounds {
                randomize_supply(&mut g, &mut r, most);
                check(&g);
            }
        }
    }

    #[test]
    fn gains_to_end_matches_its_definition_on_random_supplies() {
        random_supplies(7, &[2, 3, 4, 5, 6], 3, 2_000, 12, |g| {
            assert_eq!(gains_to_end(g), reference(g), "{:?}", &g.supply[..]);
        });
    }
}
