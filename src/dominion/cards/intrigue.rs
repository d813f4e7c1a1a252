//! Effects of the Intrigue (first edition) Kingdom cards (CARDS.md §2).
//!
//! Vanilla bonuses (+Cards, +Actions, +Buys, +$ from the table) have already
//! been applied by the engine, and for an Attack the reaction window has been
//! held (`ctx.immune`), before these run. Cross-card rules live in the engine:
//! current costs ([`Game::cost`], Bridge), Copper's value (`copper_bonus`,
//! Coppersmith), action play events (`action_plays`, Conspirator), the
//! reaction window (Secret Chamber next to Moat), set-aside cards that never
//! join a shuffle (`aside`: Scout, Saboteur, Tribute, Swindler).
//!
//! No handler allocates: selections are sequences of picks, per-player
//! choices are fixed arrays on the stack.

use crate::cards::base::gain_up_to;
use crate::cards::{Card, CardSet};
use crate::engine::decision::{best_by, junk_cards, junk_key, QuestionDoc};
use crate::engine::{
    Bots, Choose, Dest, Event, Game, Pick, PlayCtx, Spot, UsedReactions, Why, YesNo, MAX_PLAYERS,
    PAWN_PAIRS,
};

/// Whether the played instance `uid` is still in `p`'s play area.
#[inline]
fn in_play(g: &Game, p: u8, uid: u16) -> bool {
    let pl = g.player(p);
    pl.play_uid[..pl.play.len()].contains(&uid)
}

/// Discard `p`'s whole hand (Minion).
fn discard_hand<B: Bots>(g: &mut Game, b: &mut B, p: u8) {
    while let Some(c) = g.players[p as usize].hand.last() {
        g.discard_from_hand(b, p, c);
    }
}

/// The kinds among `p`'s set-aside cards from index `start` on.
fn aside_kinds(g: &Game, p: u8, start: usize) -> CardSet {
    g.player(p).aside.as_slice()[start..]
        .iter()
        .copied()
        .collect()
}

/// Trash up to `n` cards from `p`'s hand, one mandatory pick each; returns
/// how many were trashed.
fn trash_n<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, n: u8) -> u8 {
    let mut done = 0;
    // The cards are trashed together: on-trash abilities after the last one
    // (RULES §9 names Steward and Trading Post).
    g.begin_trash_batch();
    for _ in 0..n {
        let legal = g.hand_kinds(p, CardSet::all());
        let Some(c) = g.pick(b, p, Why::Trash, Some(by), legal, false) else {
            break;
        };
        if g.trash_from_hand(b, p, c) {
            done += 1;
        }
    }
    g.end_trash_batch(b);
    done
}

/// Baron (+1 Buy from the table): you may discard an Estate for +$4;
/// otherwise you must gain an Estate (if any are left).
pub fn baron<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if g.players[p as usize].hand.contains(Card::Estate) {
        let q = YesNo {
            player: p,
            by: Card::Baron,
            card: Some(Card::Estate),
            target: p,
        };
        if g.ask_yes_no(b, q) && g.discard_from_hand(b, p, Card::Estate) {
            g.turn.coins = g.turn.coins.saturating_add(4);
            return;
        }
    }
    g.gain(b, p, Card::Estate, Dest::Discard);
}

/// Bridge (+1 Buy +$1 from the table): every card costs $1 less this turn
/// (cumulative; floored at 0 by [`Game::cost`]).
pub fn bridge<B: Bots>(g: &mut Game, _b: &mut B, _ctx: PlayCtx) {
    g.turn.cost_reduction = g.turn.cost_reduction.saturating_add(1);
}

/// Conspirator (+$2 from the table): +1 Card +1 Action if this is at least
/// the third Action play event this turn (counted by the engine in `resolve`).
pub fn conspirator<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    if g.turn.action_plays >= 3 {
        g.draw(b, ctx.player, 1);
        g.turn.actions = g.turn.actions.saturating_add(1);
    }
}

/// Coppersmith: each Copper played this turn gives $1 more (cumulative).
pub fn coppersmith<B: Bots>(g: &mut Game, _b: &mut B, _ctx: PlayCtx) {
    g.turn.copper_bonus = g.turn.copper_bonus.saturating_add(1);
}

/// Courtyard (+3 Cards from the table): put a card from hand on your deck.
pub fn courtyard<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::all());
    if let Some(c) = g.pick(b, p, Why::Topdeck, Some(Card::Courtyard), legal, false) {
        g.topdeck_from_hand(b, p, c);
    }
}

/// Ironworks: gain a card costing up to $4; +1 Action / +$1 / +1 Card for
/// each of its types Action / Treasure / Victory.
pub fn ironworks<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let Some(c) = gain_up_to(g, b, p, Card::Ironworks, 4, CardSet::all(), Dest::Discard) else {
        return;
    };
    super::bonus_by_types(g, b, p, c);
}

/// Masquerade (+2 Cards from the table): every player picks a card from his
/// hand (all picks made before any card moves), then all pass at once to the
/// left; ownership moves with the card. A player with an empty hand passes
/// nothing but still receives (RULES §17.10). Then you may trash a card.
pub fn masquerade<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let n = g.kingdom.players;
    let mut passed: [Option<Card>; MAX_PLAYERS] = [None; MAX_PLAYERS];
    for i in 0..n {
        let v = (p + i) % n;
        let legal = g.hand_kinds(v, CardSet::all());
        passed[v as usize] = g.pick(b, v, Why::Pass, Some(Card::Masquerade), legal, false);
    }
    let n = n as usize;
    for (v, slot) in passed.iter_mut().enumerate().take(n) {
        if let Some(c) = *slot {
            let pl = &mut g.players[v];
            if pl.hand.take_one(c) {
                pl.remove_owned(c);
            } else {
                *slot = None;
            }
        }
    }
    for (v, slot) in passed.iter().enumerate().take(n) {
        if let Some(c) = *slot {
            let to = (v + 1) % n;
            let pl = &mut g.players[to];
            pl.hand.push(c);
            pl.add_owned(c);
            b.event(
                g,
                Event::Pass {
                    player: v as u8,
                    to: to as u8,
                    card: c,
                },
            );
        }
    }
    let legal = g.hand_kinds(p, CardSet::all());
    if let Some(c) = g.pick(b, p, Why::Trash, Some(Card::Masquerade), legal, true) {
        g.trash_from_hand(b, p, c);
    }
}

/// Mining Village (+1 Card +2 Actions from the table): you may trash it (if
/// it is still in play: lose-track, so only once under Throne Room) for +$2.
pub fn mining_village<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if !in_play(g, p, ctx.uid) {
        return;
    }
    let q = YesNo {
        player: p,
        by: Card::MiningVillage,
        card: Some(Card::MiningVillage),
        target: p,
    };
    if g.ask_yes_no(b, q) && g.trash_from_play(b, p, ctx.uid) {
        g.turn.coins = g.turn.coins.saturating_add(2);
    }
}

/// Minion (+1 Action from the table): +$2, or discard your hand and draw 4,
/// and so does every unprotected other player holding 5 or more cards.
pub fn minion<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let q = Choose {
        player: p,
        by: Card::Minion,
        n: 2,
    };
    if g.ask_choose(b, q) == 0 {
        g.turn.coins = g.turn.coins.saturating_add(2);
        return;
    }
    discard_hand(g, b, p);
    g.draw(b, p, 4);
    for v in g.victims(ctx) {
        if g.players[v as usize].hand.len() < 5 {
            continue;
        }
        discard_hand(g, b, v);
        g.draw(b, v, 4);
    }
}

/// Nobles: +3 Cards or +2 Actions.
pub fn nobles<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let q = Choose {
        player: ctx.player,
        by: Card::Nobles,
        n: 2,
    };
    if g.ask_choose(b, q) == 0 {
        g.draw(b, ctx.player, 3);
    } else {
        g.turn.actions = g.turn.actions.saturating_add(2);
    }
}

/// Pawn: two different options among +1 Card, +1 Action, +1 Buy, +$1, both
/// chosen (one [`Choose`] over the 6 pairs) before either is carried out.
pub fn pawn<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let q = Choose {
        player: ctx.player,
        by: Card::Pawn,
        n: PAWN_PAIRS.len() as u8,
    };
    let (x, y) = PAWN_PAIRS[g.ask_choose(b, q) as usize];
    for o in [x, y] {
        match o {
            0 => {
                g.draw(b, ctx.player, 1);
            }
            1 => g.turn.actions = g.turn.actions.saturating_add(1),
            2 => g.turn.buys = g.turn.buys.saturating_add(1),
            _ => g.turn.coins = g.turn.coins.saturating_add(1),
        }
    }
}

/// Saboteur: each unprotected victim, in turn order, reveals cards until one
/// costs $3 or more (current cost); it is trashed and he may gain a card
/// costing up to $2 less; the other revealed cards are discarded. Revealed
/// cards wait aside, out of any shuffle.
pub fn saboteur<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    for v in g.victims(ctx) {
        let start = g.players[v as usize].aside.len();
        let mut hit = None;
        while let Some(c) = g.take_top(b, v) {
            g.players[v as usize].aside.push(c);
            b.event(g, Event::Reveal { player: v, card: c });
            if g.cost(c) >= 3 {
                hit = Some(c);
                break;
            }
        }
        if let Some(c) = hit {
            let limit = g.cost(c) - 2;
            g.trash_from_aside(b, v, c);
            let legal = g.gainable(CardSet::all(), |cost| cost <= limit);
            if let Some(x) = g.pick(b, v, Why::Gain, Some(Card::Saboteur), legal, true) {
                g.gain(b, v, x, Dest::Discard);
            }
        }
        g.discard_aside(b, v, start);
    }
}

/// Scout (+1 Action from the table): reveal the top 4 cards; Victory cards go
/// to hand; the others go back on top in the order the player picks them
/// ([`Why::Order`]: each pick goes on top, the last pick ends up on top).
pub fn scout<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let start = g.reveal_top(b, p, 4);
    let mut i = start;
    while i < g.players[p as usize].aside.len() {
        let pl = &mut g.players[p as usize];
        let c = pl.aside.get(i).unwrap_or(Card::Copper);
        if c.is_victory() {
            pl.aside.remove(i);
            pl.hand.push(c);
        } else {
            i += 1;
        }
    }
    put_back_in_order(g, b, p, start, Card::Scout);
}

/// Put `p`'s set-aside cards from `start` on back on his deck, one pick at a
/// time (forced picks are not asked).
fn put_back_in_order<B: Bots>(g: &mut Game, b: &mut B, p: u8, start: usize, by: Card) {
    while g.players[p as usize].aside.len() > start {
        let legal = aside_kinds(g, p, start);
        let c = if legal.len() == 1 {
            legal.first()
        } else {
            g.pick(b, p, Why::Order, Some(by), legal, false)
        };
        let Some(c) = c else { break };
        let pl = &mut g.players[p as usize];
        let Some(j) = pl.aside.as_slice()[start..].iter().position(|&x| x == c) else {
            break;
        };
        pl.aside.remove(start + j);
        pl.deck.push(c);
        b.event(g, Event::Topdeck { player: p, card: c });
    }
}

/// Secret Chamber as an Action: discard any number of cards, +$1 each.
pub fn secret_chamber<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    loop {
        let legal = g.hand_kinds(p, CardSet::all());
        let Some(c) = g.pick(b, p, Why::Discard, Some(Card::SecretChamber), legal, true) else {
            break;
        };
        if !g.discard_from_hand(b, p, c) {
            break;
        }
        g.turn.coins = g.turn.coins.saturating_add(1);
    }
}

/// Secret Chamber as a Reaction (from [`crate::cards::react_to_attack`]):
/// +2 Cards, then put 2 cards from hand on top of the deck, one pick at a
/// time (the second pick ends up on top). It does not protect.
/// Used Reactions are followed (`used`): one drawn is still used, and a
/// Reaction put back is a used copy when the hand holds one.
pub fn secret_chamber_react<B: Bots>(g: &mut Game, b: &mut B, v: u8, used: &mut UsedReactions) {
    g.draw_following(b, v, 2, used);
    for _ in 0..2 {
        let legal = g.hand_kinds(v, CardSet::all());
        let Some(c) = g.pick(b, v, Why::Topdeck, Some(Card::SecretChamber), legal, false) else {
            break;
        };
        if g.topdeck_from_hand(b, v, c) {
            let top = g.players[v as usize].deck.len() - 1;
            used.left_hand(c, Spot::Deck(top as u16));
        }
    }
}

/// Shanty Town (+2 Actions from the table): reveal your hand; with no Action
/// card in it (Action–Victory cards count), +2 Cards.
pub fn shanty_town<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    for i in 0..g.players[p as usize].hand.len() {
        let c = g.players[p as usize].hand.get(i).unwrap_or(Card::Copper);
        b.event(g, Event::Reveal { player: p, card: c });
    }
    if g.hand_kinds(p, CardSet::actions()).is_empty() {
        g.draw(b, p, 2);
    }
}

/// Steward: +2 Cards, or +$2, or trash 2 cards from hand (as many as held).
pub fn steward<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let q = Choose {
        player: p,
        by: Card::Steward,
        n: 3,
    };
    match g.ask_choose(b, q) {
        0 => {
            g.draw(b, p, 2);
        }
        1 => g.turn.coins = g.turn.coins.saturating_add(2),
        _ => {
            trash_n(g, b, p, Card::Steward, 2);
        }
    }
}

/// Swindler (+$2 from the table): each unprotected victim, in turn order,
/// trashes his top card (shuffling if needed) and gains a card with the same
/// current cost that **you** choose (a [`Pick`] asked of you, `target` = the
/// victim).
pub fn swindler<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    for v in g.victims(ctx) {
        let Some(c) = g.take_top(b, v) else { continue };
        g.players[v as usize].aside.push(c);
        b.event(g, Event::Reveal { player: v, card: c });
        let cost = g.cost(c);
        g.trash_from_aside(b, v, c);
        let legal = g.gainable(CardSet::all(), |x| x == cost);
        let q = Pick {
            player: p,
            why: Why::Gain,
            by: Some(Card::Swindler),
            legal,
            optional: false,
            target: v,
        };
        if let Some(x) = g.ask(b, q) {
            g.gain(b, v, x, Dest::Discard);
        }
    }
}

/// Torturer (+3 Cards from the table): each unprotected victim, in turn
/// order, chooses: discard 2 cards, or gain a Curse into his hand.
pub fn torturer<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    for v in g.victims(ctx) {
        let q = Choose {
            player: v,
            by: Card::Torturer,
            n: 2,
        };
        if g.ask_choose(b, q) == 0 {
            for _ in 0..2 {
                let legal = g.hand_kinds(v, CardSet::all());
                let Some(c) = g.pick(b, v, Why::Discard, Some(Card::Torturer), legal, false) else {
                    break;
                };
                g.discard_from_hand(b, v, c);
            }
        } else {
            g.gain(b, v, Card::Curse, Dest::Hand);
        }
    }
}

/// Trading Post: trash 2 cards from hand; if you trashed 2, gain a Silver
/// into your hand.
pub fn trading_post<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if trash_n(g, b, p, Card::TradingPost, 2) == 2 {
        g.gain(b, p, Card::Silver, Dest::Hand);
    }
}

/// Tribute: the player on your left reveals his top 2 cards and discards
/// them; for each differently named one: Action → +2 Actions, Treasure →
/// +$2, Victory → +2 Cards (every matching type). Not an Attack.
pub fn tribute<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let l = (p + 1) % g.kingdom.players;
    let start = g.reveal_top(b, l, 2);
    let names = aside_kinds(g, l, start);
    g.discard_aside(b, l, start);
    for c in names.iter() {
        if c.is_action() {
            g.turn.actions = g.turn.actions.saturating_add(2);
        }
        if c.is_treasure() {
            g.turn.coins = g.turn.coins.saturating_add(2);
        }
        if c.is_victory() {
            g.draw(b, p, 2);
        }
    }
}

/// Upgrade (+1 Card +1 Action from the table): trash a card from hand
/// (mandatory), gain a card costing exactly $1 more (current costs).
pub fn upgrade<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::all());
    let Some(t) = g.pick(b, p, Why::Trash, Some(Card::Upgrade), legal, false) else {
        return;
    };
    let target = g.cost(t) + 1;
    g.trash_from_hand(b, p, t);
    let legal = g.gainable(CardSet::all(), |cost| cost == target);
    if let Some(x) = g.pick(b, p, Why::Gain, Some(Card::Upgrade), legal, false) {
        g.gain(b, p, x, Dest::Discard);
    }
}

/// Wishing Well (+1 Card +1 Action from the table): name a card, reveal the
/// top card of your deck; if it is the named card, put it into your hand.
pub fn wishing_well<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let named = g
        .pick(
            b,
            p,
            Why::Name,
            Some(Card::WishingWell),
            CardSet::all(),
            false,
        )
        .unwrap_or(Card::Copper);
    if !g.ensure_top(b, p) {
        return;
    }
    let Some(top) = g.players[p as usize].deck.last() else {
        return;
    };
    b.event(
        g,
        Event::Reveal {
            player: p,
            card: top,
        },
    );
    if top == named {
        let pl = &mut g.players[p as usize];
        pl.deck.pop();
        pl.hand.push(top);
        b.event(
            g,
            Event::Draw {
                player: p,
                card: top,
            },
        );
    }
}

// ---- Questions and default answers

/// The yes/no and choose-one questions of the Intrigue cards
/// (docs/QUESTIONS.md).
pub const QUESTIONS: &[QuestionDoc] = &[
    QuestionDoc::yes_no(
        Card::Baron,
        "discard an Estate for +$4 (instead of gaining an Estate)",
        "yes",
    ),
    QuestionDoc::yes_no(Card::MiningVillage, "trash Mining Village for +$2", "no"),
    QuestionDoc::choose(
        Card::Pawn,
        "the pair of different options, both chosen before either is done",
        &[
            "+1 Card +1 Action",
            "+1 Card +1 Buy",
            "+1 Card +$1",
            "+1 Action +1 Buy",
            "+1 Action +$1",
            "+1 Buy +$1",
        ],
        "0",
    ),
    QuestionDoc::choose(
        Card::Steward,
        "one of three",
        &["+2 Cards", "+$2", "trash 2 cards"],
        "0",
    ),
    QuestionDoc::choose(
        Card::Minion,
        "one of two",
        &["+$2", "discard hand, +4 Cards (attack)"],
        "1 if you hold 2 cards or fewer, else 0",
    ),
    QuestionDoc::choose(
        Card::Nobles,
        "one of two",
        &["+3 Cards", "+2 Actions"],
        "1 if you have no Actions left and hold an Action card, else 0",
    ),
    QuestionDoc::choose(
        Card::Torturer,
        "asked of each victim",
        &["discard 2 cards", "gain a Curse into hand"],
        "1 if the Curse pile is empty (it then does nothing), else 0",
    ),
];

/// The Intrigue cards' own default picks (`Some(answer)`); None: the
/// engine's shape rule for the pick applies ([`Pick::default_answer`]).
///   - optional `Trash` by Masquerade: a Curse if one is in hand, else none;
///   - optional `Discard` by Secret Chamber (its Action): junk — a Curse or a
///     Victory-only card — one at a time, then stop;
///   - optional `Gain` by Saboteur (the victim's replacement): the most
///     expensive legal card other than Curse (none if only Curse is legal);
///   - `Topdeck` by Courtyard: an Action card the player cannot play any more
///     (no actions left; the most expensive one), else the junk rule;
///   - `Topdeck` by Secret Chamber (its reaction): the cheapest card that is
///     neither junk nor Secret Chamber, else Secret Chamber, else junk
///     (keeping the Reaction in hand for later Attacks and junk for a discard
///     attack).
pub fn default_pick(g: &Game, q: &Pick, by: Card) -> Option<Option<Card>> {
    Some(match (q.optional, q.why, by) {
        (true, Why::Trash, Card::Masquerade) => {
            q.legal.contains(Card::Curse).then_some(Card::Curse)
        }
        (true, Why::Discard, Card::SecretChamber) => {
            best_by(q.legal.and(junk_cards()), |c| junk_key(g, c))
        }
        (true, Why::Gain, Card::Saboteur) => {
            best_by(q.legal.minus(CardSet::one(Card::Curse)), |c| {
                g.cost(c) as i32
            })
        }
        (false, Why::Topdeck, Card::Courtyard)
            if g.turn.actions == 0 && !q.legal.and(CardSet::actions()).is_empty() =>
        {
            best_by(q.legal.and(CardSet::actions()), |c| g.cost(c) as i32)
        }
        (false, Why::Topdeck, Card::SecretChamber) => {
            let keep = CardSet::one(Card::SecretChamber);
            let useful = q.legal.minus(junk_cards()).minus(keep);
            let pool = if !useful.is_empty() {
                useful
            } else if q.legal.contains(Card::SecretChamber) {
                keep
            } else {
                q.legal
            };
            best_by(pool, |c| junk_key(g, c))
        }
        _ => return None,
    })
}

/// The default answers of the yes/no questions in [`QUESTIONS`].
pub fn default_yes_no(_g: &Game, q: &YesNo) -> bool {
    match q.by {
        Card::Baron => true,
        // Mining Village: keep it.
        _ => false,
    }
}

/// The default answers of the choose-one questions in [`QUESTIONS`].
pub fn default_choose(g: &Game, q: &Choose) -> u8 {
    let pl = g.player(q.player);
    match q.by {
        Card::Minion => u8::from(pl.hand.len() <= 2),
        Card::Nobles => u8::from(g.turn.actions == 0 && pl.hand.iter().any(|c| c.is_action())),
        Card::Torturer => u8::from(g.pile(Card::Curse) == 0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameRng, Kingdom};

    /// Answers every question with its default, except `choose` (fixed).
    struct FixedChoice(u8);
    impl Bots for FixedChoice {
        fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
            q.default_answer(g)
        }
        fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
            q.default_answer(g)
        }
        fn choose(&mut self, _g: &Game, _q: &Choose) -> u8 {
            self.0
        }
    }

    fn game(cards: &[Card]) -> Game {
        let k = Kingdom::with_piles(2, cards).unwrap();
        Game::empty(&k, GameRng::for_game(1, 0))
    }

    #[test]
    fn illegal_choice_is_a_fault_and_falls_back_to_the_default() {
        let mut g = game(&[Card::Steward]);
        for _ in 0..3 {
            g.players[0].deck.push(Card::Silver);
        }
        g.players[0].hand.push(Card::Steward);
        g.recount_totals();
        g.try_play_action(&mut FixedChoice(7), Card::Steward)
            .unwrap();
        let f = g.fault.expect("fault recorded");
        assert_eq!(
            f.choice.map(|(q, a)| (q.by, q.n, a)),
            Some((Card::Steward, 3, 7))
        );
        assert!(f.to_string().contains("option 7"), "{f}");
        // Default for Steward: +2 Cards.
        assert_eq!(g.players[0].hand.len(), 2);
        g.check_invariants().unwrap();
    }

    #[test]
    fn choose_defaults() {
        let mut g = game(&[Card::Minion, Card::Nobles, Card::Torturer]);
        let q = |by, n| Choose { player: 0, by, n };
        // Pawn and Steward: option 0.
        assert_eq!(q(Card::Pawn, 6).default_answer(&g), 0);
        assert_eq!(q(Card::Steward, 3).default_answer(&g), 0);
        // Minion: redraw with 2 cards or fewer, else +$2.
        g.players[0].hand.push(Card::Copper);
        assert_eq!(q(Card::Minion, 2).default_answer(&g), 1);
        for _ in 0..3 {
            g.players[0].hand.push(Card::Copper);
        }
        assert_eq!(q(Card::Minion, 2).default_answer(&g), 0);
        // Nobles: +2 Actions only when out of actions with an Action in hand.
        assert_eq!(q(Card::Nobles, 2).default_answer(&g), 0);
        g.turn.actions = 0;
        assert_eq!(q(Card::Nobles, 2).default_answer(&g), 0);
        g.players[0].hand.push(Card::Minion);
        assert_eq!(q(Card::Nobles, 2).default_answer(&g), 1);
        // Torturer: discard, unless the Curse pile is empty.
        assert_eq!(q(Card::Torturer, 2).default_answer(&g), 0);
        g.supply[Card::Curse as usize] = 0;
        assert_eq!(q(Card::Torturer, 2).default_answer(&g), 1);
    }

    #[test]
    fn choose_labels_match_the_option_counts() {
        for (by, n) in [
            (Card::Pawn, PAWN_PAIRS.len()),
            (Card::Steward, 3),
            (Card::Minion, 2),
            (Card::Nobles, 2),
            (Card::Torturer, 2),
        ] {
            let q = Choose {
                player: 0,
                by,
                n: n as u8,
            };
            assert_eq!(q.labels().len(), n, "{by}");
        }
    }

    #[test]
    fn pawn_pairs_are_the_six_different_pairs() {
        let mut seen = std::collections::HashSet::new();
        for (a, b) in PAWN_PAIRS {
            assert!(a < b && b < 4);
            seen.insert((a, b));
        }
        assert_eq!(seen.len(), 6);
    }

    #[test]
    fn wishing_well_default_name() {
        use crate::engine::decision::most_likely_top;
        let mut g = game(&[Card::WishingWell]);
        assert_eq!(most_likely_top(&g, 0), Card::Copper);
        g.players[0].discard.push(Card::Estate);
        assert_eq!(most_likely_top(&g, 0), Card::Estate);
        for c in [Card::Silver, Card::Gold, Card::Gold] {
            g.players[0].deck.push(c);
        }
        assert_eq!(most_likely_top(&g, 0), Card::Gold);
    }
}
