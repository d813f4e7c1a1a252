//! The game engine: state, zones, setup, turn structure, and the engine
//! mechanisms that cards plug into (drawing and shuffling, gaining, trashing,
//! the reaction window, multiplied plays, "this turn" modifiers, lose-track).
//!
//! The engine knows nothing of files, threads or CSV. Every function that may
//! ask a question is generic over [`Bots`], so decisions are monomorphized.

pub mod decision;
pub mod invariants;
pub mod kingdom;
pub mod piles;
pub use crate::sim::rng;
pub mod state;
pub mod triggers;
pub mod turn;
pub mod zone;

pub use decision::{Bots, Choose, Event, Fault, Pick, Why, YesNo, PAWN_PAIRS};
pub use kingdom::{Kingdom, SetupError, MAX_PLAYERS};
pub use rng::GameRng;

/// Per-turn guard: the Action phase stops once this many Action play events
/// happened in one turn, counting the turn in [`Game::action_capped`]. The
/// cards of one game are finite and no implemented card returns a played card
/// to hand, so a real turn never comes close; the guard turns a future
/// runaway loop into a reported event instead of a hang (the soak reports it).
pub const MAX_ACTION_PLAYS_PER_TURN: u16 = 1000;

/// The most turns a player takes in one game: a game stops at the end of
/// the turn that reaches the turn cap ([`kingdom::DEFAULT_TURN_CAP`], the
/// cap of every kingdom). Saved counts are checked against it.
pub const MAX_TURNS_PER_GAME: u64 = kingdom::DEFAULT_TURN_CAP as u64;

/// The most VP, either way, a player can end a game with: he owns at most
/// [`MAX_CARDS`] cards, and a card is worth at most 20 VP plus one per card
/// he owns (a data card's `vp = 20` with `vp_per = { per = 1 }`; Gardens,
/// Duke and Feodum are worth less) and at least −10. Saved counts are
/// checked against it.
pub const MAX_VP_PER_GAME: i64 = MAX_CARDS as i64 * (20 + MAX_CARDS as i64);

pub use state::{DistinctPile, Game, Outcome, Phase, Player, TurnState};
pub use turn::{RuleError, Spot, UsedReactions};
pub use zone::{CardVec, MAX_CARDS};

use crate::cards::{Card, CardSet, Hooks};

/// VP of the variable-VP cards in `cards` for a player owning `owned`.
#[inline(never)]
fn variable_vp(cards: CardSet, owned: &[u8; Card::COUNT], total: u16) -> i32 {
    let mut vp = 0;
    for c in cards.iter() {
        let n = owned[c as usize];
        if n > 0 {
            // Only the part that depends on the deck: the card's fixed VP
            // (a data card's `vp` beside its `vp_per`; 0 for printed cards)
            // is already in `vp_fixed`.
            let per_copy = crate::cards::vp_of_counts(c, owned, total) - c.info().vp as i16;
            vp += n as i32 * per_copy as i32;
        }
    }
    vp
}

/// Where a gained card goes (RULES §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Discard,
    Hand,
    DeckTop,
}

/// One play event of a card: the context its handler receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayCtx {
    pub player: u8,
    pub card: Card,
    /// Instance id of the card in the play area (for lose-track).
    pub uid: u16,
    /// Bit mask of players unaffected by this Attack play (Moat).
    pub immune: u8,
}

impl Game {
    /// A new game of `kingdom`: game `index` of a run seeded with `seed`.
    /// Seat 0 takes the first turn (the runner rotates strategies over seats).
    pub fn new(kingdom: &Kingdom, seed: u64, index: u64) -> Game {
        let mut g = Game::empty(kingdom, GameRng::for_game(seed, index));
        (g.seed, g.index) = (seed, index);
        g.deal();
        g
    }

    /// Reuse this game's memory for a new game (no allocation, no big memset).
    pub fn reset(&mut self, kingdom: &Kingdom, seed: u64, index: u64) {
        self.reset_empty(kingdom, GameRng::for_game(seed, index));
        (self.seed, self.index) = (seed, index);
        self.deal();
    }

    /// A game with full Supply piles and every player's zones empty: scenarios
    /// fill the zones themselves.
    pub fn empty(kingdom: &Kingdom, rng: GameRng) -> Game {
        let mut g = Game {
            kingdom: *kingdom,
            players: std::array::from_fn(|_| Player::new()),
            supply: [0; Card::COUNT],
            trash: CardVec::new(),
            empty_piles: 0,
            nonempty: CardSet::EMPTY,
            active: 0,
            turn: TurnState::START,
            turn_gained: [0; 8],
            turn_bought: 0,
            turns_taken: [0; MAX_PLAYERS],
            rng: rng.clone(),
            over: false,
            capped: false,
            action_capped: 0,
            fault: None,
            next_uid: 0,
            total: [0; Card::COUNT],
            knights: state::DistinctPile::EMPTY,
            ruins: state::DistinctPile::EMPTY,
            identity: [(0, Card::Copper); state::MAX_IDENTITIES],
            identity_len: 0,
            pend: [state::Pend::NONE; MAX_CARDS],
            pend_len: 0,
            pend_ms: 0,
            trash_batch: 0,
            shelters: false,
            seed: 0,
            index: 0,
        };
        g.reset_empty(kingdom, rng);
        g
    }

    fn reset_empty(&mut self, kingdom: &Kingdom, rng: GameRng) {
        // Seats beyond both the previous and the new player count are
        // already empty (cleared when they were last used, or never used).
        let used = self.kingdom.players.max(kingdom.players) as usize;
        self.kingdom = *kingdom;
        for p in &mut self.players[..used.min(MAX_PLAYERS)] {
            p.clear();
        }
        self.supply = kingdom.pile_size;
        self.trash.clear();
        self.empty_piles = 0;
        self.active = 0;
        self.turn = TurnState::START;
        self.turn_gained = [0; 8];
        self.turn_bought = 0;
        self.turns_taken = [0; MAX_PLAYERS];
        self.rng = rng;
        self.over = false;
        self.capped = false;
        self.action_capped = 0;
        self.fault = None;
        self.next_uid = 0;
        for (t, &n) in self.total.iter_mut().zip(kingdom.pile_size.iter()) {
            *t = n as u16;
        }
        self.nonempty = kingdom.supply;
        self.empty_piles = kingdom
            .supply_piles()
            .iter()
            .filter(|&&c| kingdom.pile_size[c as usize] == 0)
            .count() as u8;
        self.identity_len = 0;
        self.pend_len = 0;
        self.pend_ms = 0;
        self.trash_batch = 0;
        self.shelters = false;
        if !kingdom.supply.and(CardSet::PILES).is_empty() {
            self.setup_distinct_piles(false);
        } else {
            // A reused game may come from a kingdom that had these piles.
            self.knights.len = 0;
            self.ruins.len = 0;
        }
    }

    /// Starting decks (7 Copper, 3 Estate — or the 3 Shelters), shuffled, 5
    /// drawn (RULES §3.3). Knights and Ruins piles are shuffled first.
    fn deal(&mut self) {
        if !self.kingdom.supply.and(CardSet::PILES).is_empty() {
            self.setup_distinct_piles(true);
        }
        self.shelters = self.decide_shelters();
        let start: [Card; 3] = if self.shelters {
            CardSet::SHELTERS.members::<3>()
        } else {
            [Card::Estate; 3]
        };
        for p in 0..self.n() {
            let pl = &mut self.players[p];
            pl.deck.extend_from(&[Card::Copper; 7]);
            pl.deck.extend_from(&start);
            pl.add_owned_n(Card::Copper, 7);
            for c in start {
                pl.add_owned(c);
            }
            self.rng.shuffle(pl.deck.as_mut_slice());
            for _ in 0..5 {
                let c = pl.deck.pop().unwrap_or(Card::Copper);
                pl.hand.push(c);
            }
        }
        let n = self.n() as u16;
        self.total[Card::Copper as usize] += 7 * n;
        for c in start {
            self.total[c as usize] += n;
        }
    }

    /// Recompute the setup totals from the current zones and Supply (called at
    /// setup; the conservation invariant compares against them).
    pub fn recount_totals(&mut self) {
        let mut total = [0u16; Card::COUNT];
        for (i, t) in total.iter_mut().enumerate() {
            *t = self.supply[i] as u16;
        }
        for c in CardSet::PILES.iter() {
            total[c as usize] = 0;
        }
        for c in self.knights.as_slice().iter().chain(self.ruins.as_slice()) {
            total[*c as usize] += 1;
        }
        for c in self.trash.iter() {
            total[c as usize] += 1;
        }
        for p in 0..self.n() {
            self.players[p].recount();
            for (i, &o) in self.players[p].owned.iter().enumerate() {
                total[i] += o as u16;
            }
        }
        self.total = total;
        (self.nonempty, self.empty_piles) = self.expected_pile_caches();
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.kingdom.players as usize
    }

    #[inline]
    pub fn player(&self, p: u8) -> &Player {
        &self.players[p as usize]
    }

    /// Current cost of a card (RULES §7): printed cost minus this turn's
    /// reduction, never below 0.
    #[inline]
    pub fn cost(&self, c: Card) -> u8 {
        c.cost().saturating_sub(self.turn.cost_reduction)
    }

    /// Cards left in a Supply pile (0 for cards not in this game's Supply).
    #[inline]
    pub fn pile(&self, c: Card) -> u8 {
        self.supply[c as usize]
    }

    /// Seats other than `p`, in turn order starting at `p`'s left.
    #[inline]
    pub fn others(&self, p: u8) -> impl Iterator<Item = u8> {
        let n = self.kingdom.players;
        (1..n).map(move |i| (p + i) % n)
    }

    /// Reveal the top `n` cards of `p`'s deck (shuffling if needed) and set
    /// them aside, in order; returns the index in `p`'s set-aside cards where
    /// they start (fewer if the deck and discard pile run out).
    pub fn reveal_top<B: Bots>(&mut self, b: &mut B, p: u8, n: u8) -> usize {
        let start = self.players[p as usize].aside.len();
        for _ in 0..n {
            let Some(c) = self.take_top(b, p) else { break };
            self.players[p as usize].aside.push(c);
            b.event(self, Event::Reveal { player: p, card: c });
        }
        start
    }

    /// The victims of an Attack played as `ctx`: the other seats in turn
    /// order from the attacker's left, less those a Reaction (Moat…) made
    /// immune. The one place the immunity test is written.
    #[inline]
    pub fn victims(&self, ctx: PlayCtx) -> Victims {
        let n = self.kingdom.players;
        Victims {
            next: if ctx.player + 1 == n {
                0
            } else {
                ctx.player + 1
            },
            left: n - 1,
            n,
            immune: ctx.immune,
        }
    }

    /// The kinds of card in `p`'s hand that are in `filter`.
    #[inline]
    pub fn hand_kinds(&self, p: u8, filter: CardSet) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in self.players[p as usize].hand.iter() {
            s.insert(c);
        }
        s.and(filter)
    }

    /// Supply piles that are non-empty and whose current cost satisfies `ok`.
    #[inline]
    pub fn gainable(&self, filter: CardSet, ok: impl Fn(u8) -> bool) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in self.nonempty.and(filter).iter() {
            if ok(self.cost(c)) {
                s.insert(c);
            }
        }
        s
    }

    /// Supply piles that are non-empty, in `filter`, and currently cost at
    /// most `max` — O(1): current cost ≤ max ⇔ printed cost ≤ max + reduction.
    #[inline]
    pub fn gainable_up_to(&self, filter: CardSet, max: u16) -> CardSet {
        let limit = (max + self.turn.cost_reduction as u16).min(16) as usize;
        self.nonempty.and(filter).and(CardSet::cost_at_most(limit))
    }

    /// Put a card back on its Supply pile (keeps the empty-pile caches right).
    /// A non-Supply card (Spoils, Madman) goes back to its non-Supply pile.
    pub fn return_to_pile(&mut self, c: Card) {
        if self.kingdom.non_supply.contains(c) {
            self.supply[c as usize] += 1;
            return;
        }
        if self.supply[c as usize] == 0 {
            self.empty_piles -= 1;
            self.nonempty.insert(c);
        }
        self.supply[c as usize] += 1;
    }

    /// Victory points of seat `p` over every card it owns (RULES §15): the
    /// cached fixed VP plus the cards whose VP depend on the deck.
    #[inline]
    pub fn vp(&self, p: u8) -> i32 {
        let pl = &self.players[p as usize];
        let mut vp = pl.vp_fixed as i32;
        let variable = self.kingdom.in_game.and(crate::cards::variable_vp());
        if !variable.is_empty() {
            vp += variable_vp(variable, &pl.owned, pl.owned_total);
        }
        vp
    }

    /// Seat `p`'s VP if it gained one more `c` now (strategy safety rules).
    pub fn vp_if_gained(&self, p: u8, c: Card) -> i32 {
        let pl = &self.players[p as usize];
        let mut owned = pl.owned;
        owned[c as usize] += 1;
        let variable = self
            .kingdom
            .in_game
            .or(CardSet::one(c))
            .and(crate::cards::variable_vp());
        pl.vp_fixed as i32 + c.info().vp as i32 + variable_vp(variable, &owned, pl.owned_total + 1)
    }

    /// Whether the game-end condition holds now (RULES §15).
    #[inline]
    pub fn end_condition(&self) -> bool {
        self.supply[Card::Province as usize] == 0 || self.empty_piles >= self.kingdom.end_piles
    }

    /// Scores, turns, winners (most VP; tie → fewer turns; still tied → shared).
    pub fn outcome(&self) -> Outcome {
        let n = self.n();
        let mut vp = [0i32; MAX_PLAYERS];
        for (p, v) in vp.iter_mut().enumerate().take(n) {
            *v = self.vp(p as u8);
        }
        let best = vp[..n].iter().copied().max().unwrap_or(0);
        let fewest = (0..n)
            .filter(|&p| vp[p] == best)
            .map(|p| self.turns_taken[p])
            .min()
            .unwrap_or(0);
        let mut winners = 0u8;
        for (p, &v) in vp.iter().enumerate().take(n) {
            if v == best && self.turns_taken[p] == fewest {
                winners |= 1 << p;
            }
        }
        Outcome {
            players: n as u8,
            vp,
            turns: self.turns_taken,
            winners,
            capped: self.capped,
        }
    }

    // ---------------------------------------------------------------------
    // Decisions (validated)

    /// Ask a [`Pick`]. Never asks when `legal` is empty (returns None). An
    /// illegal answer is recorded as a fault and replaced by the default.
    #[inline]
    pub fn ask<B: Bots>(&mut self, b: &mut B, q: Pick) -> Option<Card> {
        if q.legal.is_empty() {
            return None;
        }
        let a = b.pick(self, &q);
        let ok = match a {
            Some(c) => q.legal.contains(c),
            None => q.optional,
        };
        if ok {
            a
        } else {
            self.refuse(q, a)
        }
    }

    /// Ask a pick of the turn's own steps ([`Bots::turn_pick`]) of
    /// `player`, `legal` not empty: the answer checked as [`Self::ask`]
    /// checks any pick ("none" is always legal here).
    #[inline(always)]
    pub(crate) fn ask_turn<B: Bots>(
        &mut self,
        b: &mut B,
        player: u8,
        why: Why,
        legal: CardSet,
    ) -> Option<Card> {
        // Unreachable by input: the three callers (the Action phase, the
        // Treasure step, the buy step) return before asking when `legal` is
        // empty; and an empty `legal` would only make every answer illegal
        // (refused, replaced by "none"), never index anything.
        debug_assert!(!legal.is_empty());
        let q = Pick::turn(player, why, legal);
        match b.turn_pick(self, &q) {
            Some(c) if !legal.contains(c) => self.refuse(q, Some(c)),
            a => a,
        }
    }

    /// An illegal answer `a` to `q`: recorded as the game's fault (the
    /// first only), replaced by the default answer.
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, q: Pick, a: Option<Card>) -> Option<Card> {
        if self.fault.is_none() {
            self.fault = Some(Fault {
                pick: q,
                answer: a,
                choice: None,
            });
        }
        q.default_answer(self)
    }

    /// Ask a [`Choose`]. An answer `>= q.n` is recorded as a fault and
    /// replaced by the default.
    #[inline]
    pub fn ask_choose<B: Bots>(&mut self, b: &mut B, q: Choose) -> u8 {
        let a = b.choose(self, &q);
        if a < q.n {
            return a;
        }
        if self.fault.is_none() {
            self.fault = Some(Fault {
                pick: Pick {
                    player: q.player,
                    why: Why::Name,
                    by: Some(q.by),
                    legal: CardSet::EMPTY,
                    optional: false,
                    target: q.player,
                },
                answer: None,
                choice: Some((q, a)),
            });
        }
        q.default_answer(self)
    }

    #[inline]
    pub fn ask_yes_no<B: Bots>(&mut self, b: &mut B, q: YesNo) -> bool {
        b.yes_no(self, &q)
    }

    /// Shorthand for a pick.
    #[inline]
    pub fn pick<B: Bots>(
        &mut self,
        b: &mut B,
        player: u8,
        why: Why,
        by: Option<Card>,
        legal: CardSet,
        optional: bool,
    ) -> Option<Card> {
        self.ask(
            b,
            Pick {
                player,
                why,
                by,
                legal,
                optional,
                target: player,
            },
        )
    }

    // ---------------------------------------------------------------------
    // Drawing and shuffling (RULES §6)

    /// Shuffle `p`'s discard pile into a new deck. Only called when a card is
    /// needed from an empty deck.
    fn reshuffle<B: Bots>(&mut self, b: &mut B, p: u8) {
        let pl = &mut self.players[p as usize];
        // Unreachable by input: both callers reshuffle only when the deck is
        // empty; were it not, the discard pile would go under it, still
        // inside the zone (deck and discard together hold at most the
        // game's `MAX_CARDS` cards, and `append` drops rather than
        // overflows).
        debug_assert!(pl.deck.is_empty());
        // Copy only the cards (a CardVec swap would move the whole capacity).
        pl.deck.append(&pl.discard);
        pl.discard.clear();
        self.rng.shuffle(pl.deck.as_mut_slice());
        b.event(self, Event::Shuffle { player: p });
    }

    /// Draw up to `n` cards one at a time, as [`Self::draw`] does, following
    /// the used Reactions of a reaction window: a used card drawn is in hand
    /// again, and a reshuffle carries the used cards of the discard pile to
    /// their places in the new deck. Returns how many were drawn.
    pub fn draw_following<B: Bots>(
        &mut self,
        b: &mut B,
        p: u8,
        n: u8,
        used: &mut turn::UsedReactions,
    ) -> u8 {
        for i in 0..n {
            let pl = &self.players[p as usize];
            if pl.deck.is_empty() {
                if pl.discard.is_empty() {
                    return i;
                }
                if used.in_discard() {
                    // The permutation the reshuffle is about to apply: the
                    // same shuffle of as many items, from a copy of the
                    // generator in the same state.
                    let len = pl.discard.len();
                    let mut order = [0u16; MAX_CARDS];
                    for (k, o) in order[..len].iter_mut().enumerate() {
                        *o = k as u16;
                    }
                    self.rng.clone().shuffle(&mut order[..len]);
                    used.reshuffled(|old| {
                        order[..len].iter().position(|&o| o == old).unwrap_or(0) as u16
                    });
                }
                self.reshuffle(b, p);
            }
            let top = self.players[p as usize].deck.len() - 1;
            used.drawn(top as u16);
            self.draw_one(b, p);
        }
        n
    }

    /// Make sure `p`'s deck has a top card if any card can be had, shuffling
    /// the discard pile only if the deck is empty. False if none can be had.
    #[inline]
    pub fn ensure_top<B: Bots>(&mut self, b: &mut B, p: u8) -> bool {
        let pl = &self.players[p as usize];
        if pl.deck.is_empty() {
            if pl.discard.is_empty() {
                return false;
            }
            self.reshuffle(b, p);
        }
        true
    }

    /// Remove and return the top card of `p`'s deck (shuffling if needed). The
    /// caller must put it somewhere at once.
    #[inline]
    pub fn take_top<B: Bots>(&mut self, b: &mut B, p: u8) -> Option<Card> {
        if !self.ensure_top(b, p) {
            return None;
        }
        self.players[p as usize].deck.pop()
    }

    /// Draw one card into `p`'s hand.
    #[inline]
    pub fn draw_one<B: Bots>(&mut self, b: &mut B, p: u8) -> Option<Card> {
        let c = self.take_top(b, p)?;
        self.players[p as usize].hand.push(c);
        b.event(self, Event::Draw { player: p, card: c });
        Some(c)
    }

    /// Draw up to `n` cards; returns how many were drawn.
    ///
    /// When the deck holds enough cards no shuffle can happen, so the `n`
    /// cards move as one block (top card first, as `n` single draws would
    /// put them) and the `Draw` events follow in draw order. Observers see
    /// the same events; only the hand during them is already complete.
    #[inline(always)]
    pub fn draw<B: Bots>(&mut self, b: &mut B, p: u8, n: u8) -> u8 {
        let pl = &mut self.players[p as usize];
        let k = n as usize;
        if pl.deck.len() >= k {
            let first = pl.hand.len();
            pl.deck.move_top_to(&mut pl.hand, k);
            for i in first..first + k {
                let c = self.players[p as usize].hand.as_slice()[i];
                b.event(self, Event::Draw { player: p, card: c });
            }
            return n;
        }
        self.draw_slow(b, p, n)
    }

    /// [`Self::draw`] one card at a time, shuffling when the deck runs out.
    /// Left to the compiler to inline (it was kept out of line): Cleanup's
    /// draw then saves the call and the spills around it, −1.1% instructions
    /// a game on the HiveMind workload (callgrind).
    #[inline]
    fn draw_slow<B: Bots>(&mut self, b: &mut B, p: u8, n: u8) -> u8 {
        for i in 0..n {
            if self.draw_one(b, p).is_none() {
                return i;
            }
        }
        n
    }

    // ---------------------------------------------------------------------
    // Moving cards

    /// Gain `c` from the Supply to `dest`. False (and nothing happens) if the
    /// pile is empty or not in this game's Supply.
    #[inline]
    pub fn gain<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) -> bool {
        self.gain_inline(b, p, c, dest)
    }

    /// [`Self::gain`], always inlined: the buy's gain (one a turn) in the
    /// turn loop, where the destination is known and `receive` folds in,
    /// without a call; the effects' gains keep the shared copy.
    #[inline(always)]
    pub(crate) fn gain_inline<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) -> bool {
        // A Knight, a Ruins or a pile pseudo-card (a byte test of the table,
        // cheaper than a variable u128 shift on this hot path).
        if matches!(
            c.info().pile,
            crate::cards::PileRule::InPile
                | crate::cards::PileRule::KnightsPile
                | crate::cards::PileRule::RuinsPile
        ) {
            return self.gain_distinct(b, p, c, dest);
        }
        if !self.kingdom.supply.contains(c) || self.supply[c as usize] == 0 {
            return false;
        }
        self.supply[c as usize] -= 1;
        if self.supply[c as usize] == 0 {
            self.empty_piles += 1;
            self.nonempty.remove(c);
        }
        self.receive_inline(b, p, c, dest);
        true
    }

    /// Put a card that `p` now owns into `dest` (after it left the Supply or the trash).
    #[inline]
    pub(crate) fn receive<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) {
        self.receive_inline(b, p, c, dest);
    }

    /// [`Self::receive`], always inlined (into [`Self::gain_inline`]).
    #[inline(always)]
    fn receive_inline<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) {
        let pl = &mut self.players[p as usize];
        match dest {
            Dest::Discard => pl.discard.push(c),
            Dest::Hand => pl.hand.push(c),
            Dest::DeckTop => pl.deck.push(c),
        }
        pl.add_owned(c);
        if self.kingdom.track_turn {
            let n = &mut self.turn_gained[p as usize & 7];
            *n = n.saturating_add(1);
        }
        b.event(self, Event::Gain { player: p, card: c });
        // "When you gain this" (`Hooks::ON_GAIN`: Death Cart, data cards).
        if self.kingdom.hooks.has(Hooks::ON_GAIN) && self.kingdom.on_gain.contains(c) {
            self.on_gain(b, p, c);
        }
    }

    /// Gain a card of kind `c` from the trash (Thief). False if none is there.
    pub fn gain_from_trash<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, dest: Dest) -> bool {
        if !self.trash.remove_one(c) {
            return false;
        }
        self.receive(b, p, c, dest);
        true
    }

    /// Move a card `p` owns to the trash (it has already left its zone).
    #[inline]
    fn put_in_trash<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) {
        self.put_in_trash_as(b, p, c, c);
    }

    /// Move `c` to the trash; it was `as_card` when trashed (Band of
    /// Misfits). Its on-trash ability and Market Square reactions follow at
    /// once, or when the current "trash several at once" batch ends (RULES §9).
    #[inline]
    fn put_in_trash_as<B: Bots>(&mut self, b: &mut B, p: u8, c: Card, as_card: Card) {
        let pl = &mut self.players[p as usize];
        pl.remove_owned(c);
        self.trash.push(c);
        b.event(self, Event::Trash { player: p, card: c });
        if self.kingdom.watch_trash() {
            self.note_trashed(b, p, c, as_card);
        }
    }

    /// Trash one `c` from `p`'s hand. False if there is none.
    pub fn trash_from_hand<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        if !self.players[p as usize].hand.take_one(c) {
            return false;
        }
        self.put_in_trash(b, p, c);
        true
    }

    /// Trash one `c` from `p`'s set-aside/revealed cards. False if there is none.
    pub fn trash_from_aside<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        if !self.players[p as usize].aside.remove_one(c) {
            return false;
        }
        self.put_in_trash(b, p, c);
        true
    }

    /// Trash the played instance `uid` from `p`'s play area, if it is still
    /// there (RULES §12: otherwise the move loses track and does nothing).
    pub fn trash_from_play<B: Bots>(&mut self, b: &mut B, p: u8, uid: u16) -> bool {
        let as_card = self.identity_of(uid);
        match self.take_from_play(p, uid) {
            Some(c) => {
                self.put_in_trash_as(b, p, c, as_card.unwrap_or(c));
                true
            }
            None => false,
        }
    }

    /// Trash one `c` from `p`'s discard pile (Hermit). False if there is none.
    pub fn trash_from_discard<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        if !self.players[p as usize].discard.remove_one(c) {
            return false;
        }
        self.put_in_trash(b, p, c);
        true
    }

    /// Remove the played instance `uid` from the play area (lose-track aware).
    pub fn take_from_play(&mut self, p: u8, uid: u16) -> Option<Card> {
        let pl = &mut self.players[p as usize];
        let n = pl.play.len();
        let i = pl.play_uid[..n].iter().position(|&u| u == uid)?;
        pl.play_uid.copy_within(i + 1..n, i);
        Some(pl.play.remove(i))
    }

    /// Move one `c` from `p`'s hand into the play area; returns its instance id.
    pub fn hand_to_play(&mut self, p: u8, c: Card) -> Option<u16> {
        let pl = &mut self.players[p as usize];
        if !pl.hand.take_one(c) {
            return None;
        }
        let uid = self.next_uid;
        self.next_uid = self.next_uid.wrapping_add(1);
        let i = pl.play.len();
        pl.play.push(c);
        pl.play_uid[i] = uid;
        Some(uid)
    }

    /// Discard one `c` from `p`'s hand. False if there is none.
    pub fn discard_from_hand<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        let pl = &mut self.players[p as usize];
        if !pl.hand.take_one(c) {
            return false;
        }
        pl.discard.push(c);
        b.event(self, Event::Discard { player: p, card: c });
        true
    }

    /// Put one `c` from `p`'s hand on top of his deck. False if there is none.
    pub fn topdeck_from_hand<B: Bots>(&mut self, b: &mut B, p: u8, c: Card) -> bool {
        let pl = &mut self.players[p as usize];
        if !pl.hand.take_one(c) {
            return false;
        }
        pl.deck.push(c);
        b.event(self, Event::Topdeck { player: p, card: c });
        true
    }

    /// Discard `p`'s set-aside cards from index `from` on (in order).
    pub fn discard_aside<B: Bots>(&mut self, b: &mut B, p: u8, from: usize) {
        while self.players[p as usize].aside.len() > from {
            let pl = &mut self.players[p as usize];
            let c = pl.aside.remove(from);
            pl.discard.push(c);
            b.event(self, Event::Discard { player: p, card: c });
        }
    }
}

/// The victims of an Attack ([`Game::victims`]): seats in turn order from the
/// attacker's left, skipping the immune ones. A counter and a wrap instead of
/// a modulo and a filter closure: the attack loops run on every Witch play.
#[derive(Clone, Copy, Debug)]
pub struct Victims {
    next: u8,
    left: u8,
    n: u8,
    immune: u8,
}

impl Iterator for Victims {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        while self.left > 0 {
            let v = self.next;
            self.next = if v + 1 == self.n { 0 } else { v + 1 };
            self.left -= 1;
            if self.immune >> v & 1 == 0 {
                return Some(v);
            }
        }
        None
    }
}
