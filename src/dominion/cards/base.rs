//! Effects of the base-game (first edition) Kingdom cards.
//!
//! Vanilla bonuses (+Cards, +Actions, +Buys, +$ from the table) have already
//! been applied by the engine, and for an Attack the reaction window has been
//! held (`ctx.immune`), before these run.

use crate::cards::{Card, CardSet};
use crate::engine::decision::{is_junk, QuestionDoc};
use crate::engine::{Bots, Dest, Event, Game, PlayCtx, Why, YesNo};

/// Adventurer: reveal until 2 Treasures; those go to hand, the rest are
/// discarded. Revealed cards wait aside, out of any shuffle.
pub fn adventurer<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    reveal_until_treasures(g, b, ctx.player, 2);
}

/// Reveal cards until `want` Treasures are revealed: they go to hand, the
/// others are discarded (Adventurer; data cards' `reveal_until_treasures`).
pub fn reveal_until_treasures<B: Bots>(g: &mut Game, b: &mut B, p: u8, want: u8) {
    let start = g.players[p as usize].aside.len();
    let mut found = 0;
    while found < want {
        let Some(c) = g.take_top(b, p) else { break };
        g.players[p as usize].aside.push(c);
        b.event(g, Event::Reveal { player: p, card: c });
        if c.is_treasure() {
            found += 1;
        }
    }
    // Treasures to hand, the others to the discard pile.
    let mut i = start;
    while i < g.players[p as usize].aside.len() {
        let c = g.players[p as usize].aside.get(i).unwrap_or(Card::Copper);
        if c.is_treasure() {
            let pl = &mut g.players[p as usize];
            pl.aside.remove(i);
            pl.hand.push(c);
        } else {
            i += 1;
        }
    }
    g.discard_aside(b, p, start);
}

/// Bureaucrat: gain a Silver onto your deck; each victim puts a Victory card
/// from hand onto his deck, or reveals a hand with none.
pub fn bureaucrat<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    g.gain(b, ctx.player, Card::Silver, Dest::DeckTop);
    victims_topdeck(g, b, ctx, CardSet::victories());
}

/// Each victim of `ctx` puts a card of `filter` from hand onto his deck, or
/// reveals a hand with none (Bureaucrat; data cards' `others_topdeck`).
pub fn victims_topdeck<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx, filter: CardSet) {
    for v in g.victims(ctx) {
        let legal = g.hand_kinds(v, filter);
        match g.pick(b, v, Why::Topdeck, Some(ctx.card), legal, false) {
            Some(c) => {
                b.event(g, Event::Reveal { player: v, card: c });
                g.topdeck_from_hand(b, v, c);
            }
            None => {
                for i in 0..g.players[v as usize].hand.len() {
                    let c = g.players[v as usize].hand.get(i).unwrap_or(Card::Copper);
                    b.event(g, Event::Reveal { player: v, card: c });
                }
            }
        }
    }
}

/// Cellar: discard any number of cards, then draw as many.
pub fn cellar<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let mut n = 0u8;
    loop {
        let legal = g.hand_kinds(p, CardSet::all());
        match g.pick(b, p, Why::Discard, Some(Card::Cellar), legal, true) {
            Some(c) => {
                g.discard_from_hand(b, p, c);
                n += 1;
            }
            None => break,
        }
    }
    g.draw(b, p, n);
}

/// Chancellor (+$2 from the table): you may put your deck into your discard
/// pile, as a block, unseen.
pub fn chancellor<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    may_discard_deck(g, b, ctx);
}

/// `ctx.player` may put his deck into his discard pile, as a block, unseen
/// (a yes/no asked by `ctx.card`: Chancellor, data cards' `may_discard_deck`).
pub fn may_discard_deck<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let q = YesNo {
        player: p,
        by: ctx.card,
        card: None,
        target: p,
    };
    if g.ask_yes_no(b, q) {
        let pl = &mut g.players[p as usize];
        let cards = pl.deck.len() as u16;
        let (deck, discard) = (&mut pl.deck, &mut pl.discard);
        discard.extend_from(deck.as_slice());
        deck.clear();
        b.event(g, Event::DeckToDiscard { player: p, cards });
    }
}

/// Chapel: trash up to 4 cards from hand, all at once (their on-trash
/// abilities resolve after the last one, RULES §9).
pub fn chapel<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.begin_trash_batch();
    for _ in 0..4 {
        let legal = g.hand_kinds(p, CardSet::all());
        match g.pick(b, p, Why::Trash, Some(Card::Chapel), legal, true) {
            Some(c) => {
                g.trash_from_hand(b, p, c);
            }
            None => break,
        }
    }
    g.end_trash_batch(b);
}

/// Council Room (+4 Cards +1 Buy from the table): each other player draws a card.
pub fn council_room<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    for v in g.others(ctx.player) {
        g.draw(b, v, 1);
    }
}

/// Feast: trash this (if still in play), gain a card costing up to $5.
pub fn feast<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.trash_from_play(b, p, ctx.uid);
    gain_up_to(g, b, p, Card::Feast, 5, CardSet::all(), Dest::Discard);
}

/// Gain a card costing up to `max` (current cost) among `filter`, mandatory if
/// any qualifies. Returns the gained card.
pub fn gain_up_to<B: Bots>(
    g: &mut Game,
    b: &mut B,
    p: u8,
    by: Card,
    max: u8,
    filter: CardSet,
    dest: Dest,
) -> Option<Card> {
    let legal = g.gainable_up_to(filter, max as u16);
    let c = g.pick(b, p, Why::Gain, Some(by), legal, false)?;
    g.gain(b, p, c, dest).then_some(c)
}

/// Library: draw to 7 cards in hand; each Action drawn may be set aside;
/// set-aside cards are discarded at the end (and missed any shuffle).
pub fn library<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    draw_until_setting_aside(g, b, ctx, 7);
}

/// Draw until `hand` cards in hand; each Action drawn may be set aside (a
/// yes/no asked by `ctx.card`), and the set-aside cards are discarded at the
/// end, having missed any shuffle (Library; data cards' `draw_until` with
/// `set_aside_actions`).
pub fn draw_until_setting_aside<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx, hand: u8) {
    let p = ctx.player;
    let start = g.players[p as usize].aside.len();
    while g.players[p as usize].hand.len() < hand as usize {
        let Some(c) = g.take_top(b, p) else { break };
        if c.is_action() {
            let q = YesNo {
                player: p,
                by: ctx.card,
                card: Some(c),
                target: p,
            };
            // The card is drawn (into hand) and then maybe set aside; it sits
            // aside while the question is asked so the hand count is honest.
            g.players[p as usize].aside.push(c);
            if g.ask_yes_no(b, q) {
                continue;
            }
            let pl = &mut g.players[p as usize];
            pl.aside.pop();
            pl.hand.push(c);
        } else {
            g.players[p as usize].hand.push(c);
        }
        b.event(g, Event::Draw { player: p, card: c });
    }
    g.discard_aside(b, p, start);
}

/// Militia (+$2 from the table): each victim discards down to 3 cards.
pub fn militia<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    victims_discard_down_to(g, b, ctx, 3);
}

/// Each victim of `ctx` discards down to `n` cards in hand (Militia; data
/// cards' `others_discard_down_to`).
pub fn victims_discard_down_to<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx, n: u8) {
    for v in g.victims(ctx) {
        while g.players[v as usize].hand.len() > n as usize {
            let legal = g.hand_kinds(v, CardSet::all());
            let Some(c) = g.pick(b, v, Why::Discard, Some(ctx.card), legal, false) else {
                break;
            };
            g.discard_from_hand(b, v, c);
        }
    }
}

/// Mine: trash a Treasure from hand (mandatory if any), gain a Treasure
/// costing up to $3 more into hand.
pub fn mine<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::treasures());
    let Some(t) = g.pick(b, p, Why::Trash, Some(Card::Mine), legal, false) else {
        return;
    };
    let limit = g.cost(t) + 3;
    g.trash_from_hand(b, p, t);
    gain_up_to(g, b, p, Card::Mine, limit, CardSet::treasures(), Dest::Hand);
}

/// Moneylender: trash a Copper from hand; if you did, +$3.
pub fn moneylender<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    if g.trash_from_hand(b, ctx.player, Card::Copper) {
        g.turn.coins = g.turn.coins.saturating_add(3);
    }
}

/// Remodel: trash a card from hand (mandatory if any), gain a card costing up
/// to $2 more.
pub fn remodel<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::all());
    let Some(t) = g.pick(b, p, Why::Trash, Some(Card::Remodel), legal, false) else {
        return;
    };
    let limit = g.cost(t) + 2;
    g.trash_from_hand(b, p, t);
    gain_up_to(g, b, p, Card::Remodel, limit, CardSet::all(), Dest::Discard);
}

/// Spy (+1 Card +1 Action from the table): every player, you first, reveals
/// his top card; you choose for each whether it is discarded or put back.
pub fn spy<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    for i in 0..g.kingdom.players {
        let v = (p + i) % g.kingdom.players;
        if v != p && ctx.immune >> v & 1 != 0 {
            continue;
        }
        if !g.ensure_top(b, v) {
            continue;
        }
        let Some(c) = g.players[v as usize].deck.last() else {
            continue;
        };
        b.event(g, Event::Reveal { player: v, card: c });
        let q = YesNo {
            player: p,
            by: Card::Spy,
            card: Some(c),
            target: v,
        };
        if g.ask_yes_no(b, q) {
            let pl = &mut g.players[v as usize];
            pl.deck.pop();
            pl.discard.push(c);
            b.event(g, Event::Discard { player: v, card: c });
        }
    }
}

/// Thief: each victim reveals his top 2 cards; you choose one revealed
/// Treasure for him to trash; he discards the rest. Then you gain any of the
/// Treasures trashed by this play.
pub fn thief<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    victims_trash_treasure(g, b, ctx, 2, true);
}

/// Each victim of `ctx` reveals his top `reveal` cards; `ctx.player` chooses
/// one revealed Treasure for him to trash; he discards the rest. With
/// `gain`, `ctx.player` then gains any of the Treasures trashed by this play
/// (Thief; data cards' `others_trash_treasure`).
pub fn victims_trash_treasure<B: Bots>(
    g: &mut Game,
    b: &mut B,
    ctx: PlayCtx,
    reveal: u8,
    gain: bool,
) {
    let p = ctx.player;
    // At most one Treasure trashed per victim.
    let mut stolen: [Option<Card>; crate::engine::MAX_PLAYERS] = [None; crate::engine::MAX_PLAYERS];
    let mut k = 0;
    for v in g.victims(ctx) {
        let start = g.players[v as usize].aside.len();
        for _ in 0..reveal {
            let Some(c) = g.take_top(b, v) else { break };
            g.players[v as usize].aside.push(c);
            b.event(g, Event::Reveal { player: v, card: c });
        }
        let mut legal = CardSet::EMPTY;
        for c in g.players[v as usize].aside.as_slice()[start..].iter() {
            if c.is_treasure() {
                legal.insert(*c);
            }
        }
        let q = crate::engine::Pick {
            player: p,
            why: Why::Trash,
            by: Some(ctx.card),
            legal,
            optional: false,
            target: v,
        };
        if let Some(t) = g.ask(b, q) {
            g.trash_from_aside(b, v, t);
            stolen[k] = Some(t);
            k += 1;
        }
        g.discard_aside(b, v, start);
    }
    if !gain {
        return;
    }
    // Gain any number of this play's trashed Treasures.
    loop {
        let legal: CardSet = stolen[..k].iter().flatten().copied().collect();
        let Some(c) = g.pick(b, p, Why::Gain, Some(ctx.card), legal, true) else {
            break;
        };
        if let Some(slot) = stolen[..k].iter_mut().find(|s| **s == Some(c)) {
            *slot = None;
        }
        g.gain_from_trash(b, p, c, Dest::Discard);
    }
}

/// Throne Room: choose an Action in hand (mandatory if any) and play it twice.
pub fn throne_room<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::actions());
    if let Some(c) = g.pick(b, p, Why::PlayTarget, Some(Card::ThroneRoom), legal, false) {
        g.play_multiplied(b, p, c, 2);
    }
}

/// Witch (+2 Cards from the table): each victim gains a Curse, in turn order.
pub fn witch<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    for v in g.victims(ctx) {
        g.gain(b, v, Card::Curse, Dest::Discard);
    }
}

/// Workshop: gain a card costing up to $4.
pub fn workshop<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    gain_up_to(
        g,
        b,
        ctx.player,
        Card::Workshop,
        4,
        CardSet::all(),
        Dest::Discard,
    );
}

// ---- Questions and default answers

/// The yes/no questions of the base cards (docs/QUESTIONS.md).
pub const QUESTIONS: &[QuestionDoc] = &[
    QuestionDoc::yes_no(Card::Chancellor, "put your deck into your discard pile", "yes"),
    QuestionDoc::yes_no(
        Card::Library,
        "set aside the drawn Action card",
        "yes if you have no Actions left, else no",
    ),
    QuestionDoc::yes_no(
        Card::Spy,
        "discard the revealed card (asked of the Spy's player, for each player's top card)",
        "for another player's card: yes unless it is a Curse or Victory-only card; for your own: yes if it is one",
    ),
];

/// The default answers of [`QUESTIONS`].
pub fn default_yes_no(g: &Game, q: &YesNo) -> bool {
    match q.by {
        Card::Chancellor => true,
        Card::Library => g.turn.actions == 0,
        Card::Spy => {
            let junk = q.card.is_some_and(is_junk);
            if q.target == q.player {
                junk
            } else {
                !junk
            }
        }
        _ => false,
    }
}
