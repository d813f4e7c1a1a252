//! Effects of the Dark Ages cards (CARDS.md §3, §3a, §4).
//!
//! Vanilla bonuses from the table (+Cards, +Actions, +Buys, +$) have been
//! applied, and for an Attack the reaction window held, before these run.
//! Engine mechanisms these rely on, each with one home: piles of distinct
//! cards and non-Supply piles (`engine/piles.rs`), on-trash / on-gain /
//! on-buy / cleanup / Urchin triggers and Band of Misfits identity
//! (`engine/triggers.rs`), lose-track through play-instance ids
//! (`Game::trash_from_play`, `take_from_play`).
//!
//! Decisions and their defaults are documented in `engine/decision.rs`; the
//! `Choose` options (default = option 0) are listed on each card below.

use super::base::gain_up_to;
use crate::cards::{Card, CardSet, Types};
use crate::engine::decision::{is_junk, QuestionDoc};
use crate::engine::{
    Bots, Choose, Dest, Event, Game, Phase, Pick, PlayCtx, Spot, UsedReactions, Why, YesNo,
};

fn yes_no<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, card: Option<Card>) -> bool {
    g.ask_yes_no(
        b,
        YesNo {
            player: p,
            by,
            card,
            target: p,
        },
    )
}

fn choose<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, n: u8) -> u8 {
    g.ask_choose(b, Choose { player: p, by, n })
}

/// Move the set-aside card at index `i` into `p`'s hand.
fn aside_to_hand(g: &mut Game, p: u8, i: usize) {
    let pl = &mut g.players[p as usize];
    let c = pl.aside.remove(i);
    pl.hand.push(c);
}

/// Return the played instance `uid` to its pile (Spoils, Madman). False if it
/// is no longer in play (lose-track, RULES §12).
fn return_from_play<B: Bots>(g: &mut Game, b: &mut B, p: u8, uid: u16) -> bool {
    let pile = g.players[p as usize]
        .play_uid
        .iter()
        .zip(g.players[p as usize].play.iter())
        .find(|(&u, _)| u == uid)
        .map(|(_, c)| c);
    // A card whose pile is not in this game (only possible in a hand-made
    // scenario) has nowhere to go and stays in play.
    if !pile.is_some_and(|c| g.kingdom.non_supply.or(g.kingdom.supply).contains(c)) {
        return false;
    }
    let Some(c) = g.take_from_play(p, uid) else {
        return false;
    };
    g.players[p as usize].remove_owned(c);
    g.return_to_pile(c);
    b.event(g, Event::ReturnToPile { player: p, card: c });
    true
}

/// Each victim not immune discards down to `keep` cards (his choice).
fn discard_down_to<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx, keep: usize) {
    for v in g.victims(ctx) {
        while g.players[v as usize].hand.len() > keep {
            let legal = g.hand_kinds(v, CardSet::all());
            let Some(c) = g.pick(b, v, Why::Discard, Some(ctx.card), legal, false) else {
                break;
            };
            g.discard_from_hand(b, v, c);
        }
    }
}

/// Trash a card from hand (mandatory if the hand has one in `filter`).
fn trash_one<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, filter: CardSet) -> Option<Card> {
    let legal = g.hand_kinds(p, filter);
    let c = g.pick(b, p, Why::Trash, Some(by), legal, false)?;
    g.trash_from_hand(b, p, c).then_some(c)
}

/// Gain an Action card whose current cost is exactly `cost` (Procession).
fn gain_action_costing<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, cost: u8) {
    let legal = g.gainable(CardSet::actions(), |c| c == cost);
    if let Some(c) = g.pick(b, p, Why::Gain, Some(by), legal, false) {
        g.gain(b, p, c, Dest::Discard);
    }
}

// -------------------------------------------------------------------------
// Kingdom cards

/// Altar: trash a card from hand (mandatory), then gain a card costing up to $5.
pub fn altar<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    trash_one(g, b, p, Card::Altar, CardSet::all());
    gain_up_to(g, b, p, Card::Altar, 5, CardSet::all(), Dest::Discard);
}

/// Armory: gain a card costing up to $4 onto your deck.
pub fn armory<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    gain_up_to(
        g,
        b,
        ctx.player,
        Card::Armory,
        4,
        CardSet::all(),
        Dest::DeckTop,
    );
}

/// Bandit Camp (+1 Card +2 Actions): gain a Spoils.
pub fn bandit_camp<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    g.gain_non_supply(b, ctx.player, Card::Spoils, Dest::Discard);
}

/// Beggar: gain 3 Coppers into hand (fewer if the pile runs out).
pub fn beggar<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    for _ in 0..3 {
        g.gain(b, ctx.player, Card::Copper, Dest::Hand);
    }
}

/// Beggar's reaction: discard it, gain a Silver onto the deck and a Silver
/// into the discard pile. Never makes the player unaffected.
pub fn beggar_react<B: Bots>(g: &mut Game, b: &mut B, v: u8, used: &mut UsedReactions) -> bool {
    if g.discard_from_hand(b, v, Card::Beggar) {
        // The used Beggar, followed: drawn again (Secret Chamber, after a
        // reshuffle) it may not be used again against this Attack.
        let at = g.players[v as usize].discard.len() - 1;
        used.left_hand(Card::Beggar, Spot::Discard(at as u16));
        g.gain(b, v, Card::Silver, Dest::DeckTop);
        g.gain(b, v, Card::Silver, Dest::Discard);
    }
    false
}

/// Catacombs: look at the top 3; either all into hand (YesNo yes), or
/// discard them all and draw 3.
pub fn catacombs<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let start = g.players[p as usize].aside.len();
    for _ in 0..3 {
        let Some(c) = g.take_top(b, p) else { break };
        g.players[p as usize].aside.push(c);
    }
    if yes_no(g, b, p, Card::Catacombs, None) {
        while g.players[p as usize].aside.len() > start {
            aside_to_hand(g, p, start);
        }
    } else {
        g.discard_aside(b, p, start);
        g.draw(b, p, 3);
    }
}

/// Count: first choice (0 discard 2 cards, 1 put a card from hand onto your
/// deck, 2 gain a Copper), then (0 +$3, 1 trash your hand, 2 gain a Duchy).
pub fn count<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    match choose(g, b, p, Card::Count, 3) {
        0 => {
            for _ in 0..2 {
                let legal = g.hand_kinds(p, CardSet::all());
                if let Some(c) = g.pick(b, p, Why::Discard, Some(Card::Count), legal, false) {
                    g.discard_from_hand(b, p, c);
                }
            }
        }
        1 => {
            let legal = g.hand_kinds(p, CardSet::all());
            if let Some(c) = g.pick(b, p, Why::Topdeck, Some(Card::Count), legal, false) {
                g.topdeck_from_hand(b, p, c);
            }
        }
        _ => {
            g.gain(b, p, Card::Copper, Dest::Discard);
        }
    }
    match choose(g, b, p, Card::Count, 3) {
        0 => g.turn.coins = g.turn.coins.saturating_add(3),
        1 => {
            g.begin_trash_batch();
            while let Some(c) = g.players[p as usize].hand.last() {
                g.trash_from_hand(b, p, c);
            }
            g.end_trash_batch(b);
        }
        _ => {
            g.gain(b, p, Card::Duchy, Dest::Discard);
        }
    }
}

/// Counterfeit ($1 from the table): +1 Buy; you may play a Treasure from
/// hand twice, then trash it (if it is still in play).
pub fn counterfeit<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.turn.buys = g.turn.buys.saturating_add(1);
    let legal = g.hand_kinds(p, CardSet::treasures());
    let Some(t) = g.pick(b, p, Why::PlayTarget, Some(Card::Counterfeit), legal, true) else {
        return;
    };
    if let Some(uid) = g.hand_to_play(p, t) {
        g.resolve_treasure(b, p, t, uid);
        g.resolve_treasure(b, p, t, uid);
        g.trash_from_play(b, p, uid);
    }
}

/// Cultist (+2 Cards): each victim gains the top Ruins; then you may play a
/// Cultist from your hand (no action spent).
pub fn cultist<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    for v in g.victims(ctx) {
        g.gain(b, v, Card::Ruins, Dest::Discard);
    }
    if g.players[p as usize].hand.contains(Card::Cultist)
        && yes_no(g, b, p, Card::Cultist, Some(Card::Cultist))
    {
        g.play_from_hand(b, p, Card::Cultist);
    }
}

/// Death Cart (+$5): trash an Action from hand (optional pick), or else this.
pub fn death_cart<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::actions());
    match g.pick(b, p, Why::Trash, Some(Card::DeathCart), legal, true) {
        Some(c) => {
            g.trash_from_hand(b, p, c);
        }
        None => {
            g.trash_from_play(b, p, ctx.uid);
        }
    }
}

/// Forager (+1 Action +1 Buy): trash a card from hand (mandatory), then +$1
/// per differently named Treasure in the trash.
pub fn forager<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    trash_one(g, b, ctx.player, Card::Forager, CardSet::all());
    let mut kinds = CardSet::EMPTY;
    for c in g.trash.iter() {
        kinds.insert(c);
    }
    g.turn.coins = g
        .turn
        .coins
        .saturating_add(kinds.and(CardSet::treasures()).len() as u16);
}

/// Gain a card costing $3–$6 from the trash (mandatory if one is there),
/// asked as `by`'s gain; Graverobber and Rogue. True if one was gained.
fn gain_3_to_6_from_trash<B: Bots>(g: &mut Game, b: &mut B, p: u8, by: Card, dest: Dest) -> bool {
    let mut legal = CardSet::EMPTY;
    for c in g.trash.iter() {
        if (3..=6).contains(&g.cost(c)) {
            legal.insert(c);
        }
    }
    let Some(c) = g.pick(b, p, Why::Gain, Some(by), legal, false) else {
        return false;
    };
    b.event(g, Event::Reveal { player: p, card: c });
    g.gain_from_trash(b, p, c, dest);
    true
}

/// Graverobber: choose 0 = gain a card costing $3–$6 from the trash onto your
/// deck; 1 = trash an Action from hand and gain a card costing up to $3 more.
pub fn graverobber<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if choose(g, b, p, Card::Graverobber, 2) == 0 {
        gain_3_to_6_from_trash(g, b, p, Card::Graverobber, Dest::DeckTop);
    } else {
        let legal = g.hand_kinds(p, CardSet::actions());
        if let Some(c) = g.pick(b, p, Why::Trash, Some(Card::Graverobber), legal, false) {
            let limit = g.cost(c) + 3;
            g.trash_from_hand(b, p, c);
            gain_up_to(
                g,
                b,
                p,
                Card::Graverobber,
                limit,
                CardSet::all(),
                Dest::Discard,
            );
        }
    }
}

/// Hermit: you may trash a non-Treasure card from your discard pile or hand
/// (a kind in both: YesNo yes = from hand); then gain a card costing up to $3.
pub fn hermit<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let in_hand = g.hand_kinds(p, CardSet::all());
    let mut in_discard = CardSet::EMPTY;
    for c in g.players[p as usize].discard.iter() {
        in_discard.insert(c);
    }
    let legal = in_hand.or(in_discard).minus(CardSet::treasures());
    if let Some(c) = g.pick(b, p, Why::Trash, Some(Card::Hermit), legal, true) {
        let from_hand = if in_hand.contains(c) && in_discard.contains(c) {
            yes_no(g, b, p, Card::Hermit, Some(c))
        } else {
            in_hand.contains(c)
        };
        if from_hand {
            g.trash_from_hand(b, p, c);
        } else {
            g.trash_from_discard(b, p, c);
        }
    }
    gain_up_to(g, b, p, Card::Hermit, 3, CardSet::all(), Dest::Discard);
}

/// Ironmonger (+1 Card +1 Action): reveal the top card, discard it or not
/// (YesNo yes = discard); by its types +1 Action / +$1 / +1 Card.
pub fn ironmonger<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if !g.ensure_top(b, p) {
        return;
    }
    let Some(c) = g.players[p as usize].deck.last() else {
        return;
    };
    b.event(g, Event::Reveal { player: p, card: c });
    if yes_no(g, b, p, Card::Ironmonger, Some(c)) {
        let pl = &mut g.players[p as usize];
        pl.deck.pop();
        pl.discard.push(c);
        b.event(g, Event::Discard { player: p, card: c });
    }
    super::bonus_by_types(g, b, p, c);
}

/// Junk Dealer (+1 Card +1 Action +$1): trash a card from hand (mandatory).
pub fn junk_dealer<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    trash_one(g, b, ctx.player, Card::JunkDealer, CardSet::all());
}

/// Marauder: gain a Spoils; each victim gains the top Ruins.
pub fn marauder<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.gain_non_supply(b, p, Card::Spoils, Dest::Discard);
    for v in g.victims(ctx) {
        g.gain(b, v, Card::Ruins, Dest::Discard);
    }
}

/// Mystic (+1 Action +$2): name a card; if the top card is it, take it.
pub fn mystic<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = CardSet::all().minus(CardSet::PILES);
    let named = g.pick(b, p, Why::Name, Some(Card::Mystic), legal, false);
    if !g.ensure_top(b, p) {
        return;
    }
    let Some(c) = g.players[p as usize].deck.last() else {
        return;
    };
    b.event(g, Event::Reveal { player: p, card: c });
    if named == Some(c) {
        let pl = &mut g.players[p as usize];
        pl.deck.pop();
        pl.hand.push(c);
    }
}

/// Pillage: trash it; each victim with 5+ cards discards a card you pick;
/// gain 2 Spoils.
pub fn pillage<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.trash_from_play(b, p, ctx.uid);
    for v in g.victims(ctx) {
        if g.players[v as usize].hand.len() < 5 {
            continue;
        }
        let legal = g.hand_kinds(v, CardSet::all());
        let q = Pick {
            player: p,
            why: Why::Discard,
            by: Some(Card::Pillage),
            legal,
            optional: false,
            target: v,
        };
        if let Some(c) = g.ask(b, q) {
            g.discard_from_hand(b, v, c);
        }
    }
    for _ in 0..2 {
        g.gain_non_supply(b, p, Card::Spoils, Dest::Discard);
    }
}

/// Poor House (+$4): −$1 per Treasure in hand, never below $0.
pub fn poor_house<B: Bots>(g: &mut Game, _b: &mut B, ctx: PlayCtx) {
    let n = g.players[ctx.player as usize]
        .hand
        .iter()
        .filter(|c| c.is_treasure())
        .count() as u16;
    g.turn.coins = g.turn.coins.saturating_sub(n);
}

/// Procession: you may play an Action from hand twice; then trash it (if
/// still in play) and gain an Action costing exactly $1 more than it.
pub fn procession<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::actions());
    let Some(c) = g.pick(b, p, Why::PlayTarget, Some(Card::Procession), legal, true) else {
        return;
    };
    // Played twice, as Throne Room plays (one mechanism for every multiplier).
    let Some(uid) = g.play_multiplied(b, p, c, 2) else {
        return;
    };
    // Trashed or not, the card is out of play now: its own cost counts (a
    // Band of Misfits is plain Band of Misfits again).
    g.trash_from_play(b, p, uid);
    let cost = g.cost(c) + 1;
    gain_action_costing(g, b, p, Card::Procession, cost);
}

/// Rats (+1 Card +1 Action): gain a Rats; trash a non-Rats card from hand
/// (mandatory; all Rats → reveal, trash nothing).
pub fn rats<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    g.gain(b, p, Card::Rats, Dest::Discard);
    trash_one(
        g,
        b,
        p,
        Card::Rats,
        CardSet::all().minus(CardSet::one(Card::Rats)),
    );
}

/// Rebuild (+1 Action): name a card; reveal until a Victory card not named;
/// discard the others, trash it, gain a Victory card costing up to $3 more.
pub fn rebuild<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = CardSet::all().minus(CardSet::PILES);
    let named = g.pick(b, p, Why::Name, Some(Card::Rebuild), legal, false);
    let start = g.players[p as usize].aside.len();
    let mut found = None;
    while let Some(c) = g.take_top(b, p) {
        g.players[p as usize].aside.push(c);
        b.event(g, Event::Reveal { player: p, card: c });
        if c.is_victory() && Some(c) != named {
            found = Some(c);
            break;
        }
    }
    let Some(v) = found else {
        g.discard_aside(b, p, start);
        return;
    };
    let pl = &mut g.players[p as usize];
    let last = pl.aside.len() - 1;
    pl.aside.remove(last);
    g.discard_aside(b, p, start);
    g.players[p as usize].aside.push(v);
    let limit = g.cost(v) + 3;
    g.trash_from_aside(b, p, v);
    gain_up_to(
        g,
        b,
        p,
        Card::Rebuild,
        limit,
        CardSet::victories(),
        Dest::Discard,
    );
}

/// Rogue (+$2): gain a card costing $3–$6 from the trash if any (mandatory);
/// otherwise each victim reveals 2, trashes one costing $3–$6, discards the rest.
pub fn rogue<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if gain_3_to_6_from_trash(g, b, p, Card::Rogue, Dest::Discard) {
        return;
    }
    for v in g.victims(ctx) {
        let start = g.reveal_top(b, v, 2);
        let mut legal = CardSet::EMPTY;
        for &c in &g.players[v as usize].aside.as_slice()[start..] {
            if (3..=6).contains(&g.cost(c)) {
                legal.insert(c);
            }
        }
        if let Some(t) = g.pick(b, v, Why::Trash, Some(Card::Rogue), legal, false) {
            g.trash_from_aside(b, v, t);
        }
        g.discard_aside(b, v, start);
    }
}

/// Sage (+1 Action): reveal until a card costing $3 or more; it goes to hand,
/// the others are discarded.
pub fn sage<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    reveal_until_cost(g, b, ctx.player, 3);
}

/// Reveal cards until one costs `n` or more (current cost): it goes to hand,
/// the others are discarded (Sage; data cards' `reveal_until_cost`).
pub fn reveal_until_cost<B: Bots>(g: &mut Game, b: &mut B, p: u8, n: u8) {
    let start = g.players[p as usize].aside.len();
    while let Some(c) = g.take_top(b, p) {
        g.players[p as usize].aside.push(c);
        b.event(g, Event::Reveal { player: p, card: c });
        if g.cost(c) >= n {
            let i = g.players[p as usize].aside.len() - 1;
            aside_to_hand(g, p, i);
            break;
        }
    }
    g.discard_aside(b, p, start);
}

/// Scavenger (+$2): you may put your deck into your discard pile (YesNo);
/// then put a card from your discard pile onto your deck (mandatory).
pub fn scavenger<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if yes_no(g, b, p, Card::Scavenger, None) {
        let pl = &mut g.players[p as usize];
        let (deck, discard) = (&mut pl.deck, &mut pl.discard);
        discard.extend_from(deck.as_slice());
        deck.clear();
    }
    let mut legal = CardSet::EMPTY;
    for c in g.players[p as usize].discard.iter() {
        legal.insert(c);
    }
    if let Some(c) = g.pick(b, p, Why::Topdeck, Some(Card::Scavenger), legal, false) {
        let pl = &mut g.players[p as usize];
        if let Some(i) = pl.discard.as_slice().iter().rposition(|&x| x == c) {
            pl.discard.remove(i);
            pl.deck.push(c);
        }
    }
}

/// Squire (+$1): choose 0 = +2 Actions, 1 = +2 Buys, 2 = gain a Silver.
pub fn squire<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    match choose(g, b, ctx.player, Card::Squire, 3) {
        0 => g.turn.actions = g.turn.actions.saturating_add(2),
        1 => g.turn.buys = g.turn.buys.saturating_add(2),
        _ => {
            g.gain(b, ctx.player, Card::Silver, Dest::Discard);
        }
    }
}

/// Storeroom (+1 Buy): discard any number, draw as many; then discard any
/// number for +$1 each. The rounds are optional picks (none ends): `Discard`
/// to draw, then `DiscardForCoin`, so a strategy answers each on its own.
pub fn storeroom<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    for (round, why) in [Why::Discard, Why::DiscardForCoin].into_iter().enumerate() {
        let mut n = 0u8;
        loop {
            let legal = g.hand_kinds(p, CardSet::all());
            let Some(c) = g.pick(b, p, why, Some(Card::Storeroom), legal, true) else {
                break;
            };
            g.discard_from_hand(b, p, c);
            n += 1;
        }
        if round == 0 {
            g.draw(b, p, n);
        } else {
            g.turn.coins = g.turn.coins.saturating_add(n as u16);
        }
    }
}

/// Urchin (+1 Card +1 Action): each victim discards down to 4. (Its
/// "when you play another Attack" ability is [`urchin_when_attack_played`].)
pub fn urchin<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    discard_down_to(g, b, ctx, 4);
}

/// Vagrant (+1 Card +1 Action): reveal the top card; a Curse, Ruins, Shelter
/// or Victory card goes into your hand.
pub fn vagrant<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if !g.ensure_top(b, p) {
        return;
    }
    let Some(c) = g.players[p as usize].deck.last() else {
        return;
    };
    b.event(g, Event::Reveal { player: p, card: c });
    let t = Types(Types::CURSE.0 | Types::RUINS.0 | Types::SHELTER.0 | Types::VICTORY.0);
    if c.is(t) {
        let pl = &mut g.players[p as usize];
        pl.deck.pop();
        pl.hand.push(c);
    }
}

/// Wandering Minstrel (+1 Card +2 Actions): reveal the top 3; the Actions go
/// back on top in the order you choose (`Topdeck` picks: each pick goes on
/// top of the ones before, so the last pick is the new top), the rest are
/// discarded.
pub fn wandering_minstrel<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let start = g.reveal_top(b, p, 3);
    topdeck_in_order(g, b, p, start, CardSet::actions(), Card::WanderingMinstrel);
    g.discard_aside(b, p, start);
}

/// Put the set-aside cards (from `start`) that are in `filter` back on `p`'s
/// deck in the order `p` picks (first pick deepest).
fn topdeck_in_order<B: Bots>(
    g: &mut Game,
    b: &mut B,
    p: u8,
    start: usize,
    filter: CardSet,
    by: Card,
) {
    loop {
        let mut legal = CardSet::EMPTY;
        for &c in &g.players[p as usize].aside.as_slice()[start..] {
            legal.insert(c);
        }
        let legal = legal.and(filter);
        if legal.is_empty() {
            break;
        }
        let c = if legal.len() == 1 {
            legal.first()
        } else {
            g.pick(b, p, Why::Topdeck, Some(by), legal, false)
        };
        let Some(c) = c else { break };
        let pl = &mut g.players[p as usize];
        let Some(i) = pl.aside.as_slice()[start..].iter().position(|&x| x == c) else {
            break;
        };
        pl.aside.remove(start + i);
        pl.deck.push(c);
    }
}

// -------------------------------------------------------------------------
// Knights

/// The attack common to every Knight (CARDS §3 Knights): each victim reveals
/// his top 2, trashes one costing $3–$6 (his choice if both), discards the
/// rest; if a Knight was trashed, the played Knight is trashed afterwards.
fn knight_attack<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let mut hit_knight = false;
    for v in g.victims(ctx) {
        let start = g.reveal_top(b, v, 2);
        let mut legal = CardSet::EMPTY;
        for &c in &g.players[v as usize].aside.as_slice()[start..] {
            if (3..=6).contains(&g.cost(c)) {
                legal.insert(c);
            }
        }
        if let Some(t) = g.pick(b, v, Why::Trash, Some(ctx.card), legal, false) {
            hit_knight |= t.is(Types::KNIGHT);
            g.trash_from_aside(b, v, t);
        }
        g.discard_aside(b, v, start);
    }
    if hit_knight {
        g.trash_from_play(b, p, ctx.uid);
    }
}

/// Every Knight: its own text, then the common attack.
pub fn knight<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    match ctx.card {
        Card::DameAnna => {
            g.begin_trash_batch();
            for _ in 0..2 {
                let legal = g.hand_kinds(p, CardSet::all());
                match g.pick(b, p, Why::Trash, Some(Card::DameAnna), legal, true) {
                    Some(c) => {
                        g.trash_from_hand(b, p, c);
                    }
                    None => break,
                }
            }
            g.end_trash_batch(b);
        }
        Card::DameNatalie => {
            let legal = g.gainable_up_to(CardSet::all(), 3);
            if let Some(c) = g.pick(b, p, Why::Gain, Some(Card::DameNatalie), legal, true) {
                g.gain(b, p, c, Dest::Discard);
            }
        }
        Card::SirMichael => discard_down_to(g, b, ctx, 3),
        _ => {}
    }
    knight_attack(g, b, ctx);
}

// -------------------------------------------------------------------------
// Non-Supply cards, Ruins

/// Spoils ($3 from the table): return it to the Spoils pile.
pub fn spoils<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    return_from_play(g, b, ctx.player, ctx.uid);
}

/// Madman (+2 Actions): return it to its pile; if you did, +1 Card per card
/// in hand.
pub fn madman<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    if return_from_play(g, b, p, ctx.uid) {
        let n = g.players[p as usize].hand.len() as u8;
        g.draw(b, p, n);
    }
}

/// Mercenary: you may trash 2 cards from hand (first pick optional); if you
/// trashed 2: +2 Cards, +$2, each victim discards down to 3.
pub fn mercenary<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let legal = g.hand_kinds(p, CardSet::all());
    let Some(first) = g.pick(b, p, Why::Trash, Some(Card::Mercenary), legal, true) else {
        return;
    };
    g.begin_trash_batch();
    g.trash_from_hand(b, p, first);
    let legal = g.hand_kinds(p, CardSet::all());
    let second = g.pick(b, p, Why::Trash, Some(Card::Mercenary), legal, false);
    if let Some(c) = second {
        g.trash_from_hand(b, p, c);
    }
    g.end_trash_batch(b);
    if second.is_some() {
        g.draw(b, p, 2);
        g.turn.coins = g.turn.coins.saturating_add(2);
        discard_down_to(g, b, ctx, 3);
    }
}

/// Survivors: look at the top 2; discard both (YesNo yes) or put both back
/// in the order you choose (first `Topdeck` pick goes deeper).
pub fn survivors<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    let p = ctx.player;
    let start = g.players[p as usize].aside.len();
    for _ in 0..2 {
        let Some(c) = g.take_top(b, p) else { break };
        g.players[p as usize].aside.push(c);
    }
    if g.players[p as usize].aside.len() == start {
        return;
    }
    if !yes_no(g, b, p, Card::Survivors, None) {
        topdeck_in_order(g, b, p, start, CardSet::all(), Card::Survivors);
    }
    g.discard_aside(b, p, start);
}

// -------------------------------------------------------------------------
// On-trash abilities (called by the engine's trigger mechanism)

/// The "when you trash this" ability of `as_card` (owned by `o`; `card` is
/// the physical card now in the trash).
pub fn on_trash<B: Bots>(g: &mut Game, b: &mut B, o: u8, card: Card, as_card: Card) {
    match as_card {
        Card::Catacombs => {
            let c = g.cost(Card::Catacombs);
            if c > 0 {
                gain_up_to(
                    g,
                    b,
                    o,
                    Card::Catacombs,
                    c - 1,
                    CardSet::all(),
                    Dest::Discard,
                );
            }
        }
        Card::Cultist => {
            g.draw(b, o, 3);
        }
        Card::Feodum => {
            for _ in 0..3 {
                g.gain(b, o, Card::Silver, Dest::Discard);
            }
        }
        Card::Fortress => {
            g.trash_to_hand(b, o, card);
        }
        Card::HuntingGrounds => {
            // Choose 0 = a Duchy, 1 = 3 Estates.
            if choose(g, b, o, Card::HuntingGrounds, 2) == 0 {
                g.gain(b, o, Card::Duchy, Dest::Discard);
            } else {
                for _ in 0..3 {
                    g.gain(b, o, Card::Estate, Dest::Discard);
                }
            }
        }
        Card::OvergrownEstate | Card::Rats => {
            g.draw(b, o, 1);
        }
        Card::Squire => {
            gain_up_to(g, b, o, Card::Squire, 16, CardSet::attacks(), Dest::Discard);
        }
        Card::SirVander => {
            g.gain(b, o, Card::Gold, Dest::Discard);
        }
        _ => {}
    }
}

// ---- Abilities outside the play effect (called by the engine's trigger
// mechanisms: on-gain, on-buy, the Attack reaction window, cleanup).

/// Death Cart, when gained: also gain the top 2 Ruins.
pub fn death_cart_gained<B: Bots>(g: &mut Game, b: &mut B, p: u8) {
    g.gain(b, p, Card::Ruins, Dest::Discard);
    g.gain(b, p, Card::Ruins, Dest::Discard);
}

/// Hovel, when its owner buys Victory card `bought`: may trash it from hand.
pub fn hovel_on_buy<B: Bots>(g: &mut Game, b: &mut B, p: u8, bought: Card) {
    let q = YesNo {
        player: p,
        by: Card::Hovel,
        card: Some(bought),
        target: p,
    };
    if g.ask_yes_no(b, q) {
        g.trash_from_hand(b, p, Card::Hovel);
    }
}

/// Urchin in play (instance `uid`, the card `c` in play), when its owner
/// plays another Attack: may trash it to gain a Mercenary. True if trashed.
pub fn urchin_when_attack_played<B: Bots>(
    g: &mut Game,
    b: &mut B,
    p: u8,
    c: Card,
    uid: u16,
) -> bool {
    let q = YesNo {
        player: p,
        by: Card::Urchin,
        card: Some(c),
        target: p,
    };
    if g.ask_yes_no(b, q) && g.trash_from_play(b, p, uid) {
        g.gain_non_supply(b, p, Card::Mercenary, Dest::Discard);
        true
    } else {
        false
    }
}

/// Hermit (instance `uid`), discarded from play: in a turn without a
/// purchase (RULES §4.3, [SIM] 12), trash it and gain a Madman instead. True
/// if it did (the card left play); false: it is discarded as usual.
pub fn hermit_discarded_from_play<B: Bots>(g: &mut Game, b: &mut B, p: u8, uid: u16) -> bool {
    if g.turn.phase == Phase::Bought {
        return false;
    }
    g.trash_from_play(b, p, uid);
    g.gain_non_supply(b, p, Card::Madman, Dest::Discard);
    true
}

/// Market Square, in the hand of `o` after cards of his were trashed: discard
/// it to gain a Gold.
pub fn market_square_react<B: Bots>(g: &mut Game, b: &mut B, o: u8) {
    if g.discard_from_hand(b, o, Card::MarketSquare) {
        g.gain(b, o, Card::Gold, Dest::Discard);
    }
}

/// Band of Misfits, played: the card it is played as — an Action in the
/// Supply (a visible top card) costing less than Band of Misfits now, chosen
/// by its player (RULES §11, CARDS §3). None: nothing eligible (it does
/// nothing). The engine keeps the choice for later plays of the same
/// instance (Throne Room), even after it left play.
pub fn band_of_misfits_identity<B: Bots>(g: &mut Game, b: &mut B, p: u8) -> Option<Card> {
    let cost = g.cost(Card::BandOfMisfits);
    if cost == 0 {
        return None;
    }
    let legal = g
        .gainable_up_to(CardSet::actions(), cost as u16 - 1)
        .minus(CardSet::one(Card::BandOfMisfits));
    g.pick(b, p, Why::Copy, Some(Card::BandOfMisfits), legal, false)
}

// ---- Questions and default answers

/// The yes/no and choose-one questions of the Dark Ages cards
/// (docs/QUESTIONS.md).
pub const QUESTIONS: &[QuestionDoc] = &[
    QuestionDoc::yes_no(
        Card::Catacombs,
        "put the 3 looked-at cards into your hand (no: discard them, +3 Cards)",
        "yes",
    ),
    QuestionDoc::yes_no(Card::Cultist, "play a Cultist from your hand", "yes"),
    QuestionDoc::yes_no(
        Card::Hovel,
        "trash Hovel when you buy a Victory card",
        "yes",
    ),
    QuestionDoc::yes_no(
        Card::Scavenger,
        "put your deck into your discard pile",
        "yes",
    ),
    QuestionDoc::yes_no(
        Card::Survivors,
        "discard both looked-at cards (no: put them back in any order)",
        "yes",
    ),
    QuestionDoc::yes_no(
        Card::Urchin,
        "trash Urchin to gain a Mercenary (another Attack played)",
        "no",
    ),
    QuestionDoc::yes_no(
        Card::Ironmonger,
        "discard the revealed card",
        "yes for a Curse, Ruins or Victory-only card, else no",
    ),
    QuestionDoc::yes_no(
        Card::Hermit,
        "trash the card from your hand rather than from your discard pile (both hold one)",
        "no",
    ),
    QuestionDoc::choose(
        Card::Count,
        "first choice",
        &[
            "discard 2 cards",
            "put a card from hand onto your deck",
            "gain a Copper",
        ],
        "0",
    ),
    QuestionDoc::choose(
        Card::Count,
        "second choice",
        &["+$3", "trash your hand", "gain a Duchy"],
        "0",
    ),
    QuestionDoc::choose(
        Card::Squire,
        "one of three",
        &["+2 Actions", "+2 Buys", "gain a Silver"],
        "0",
    ),
    QuestionDoc::choose(
        Card::Graverobber,
        "one of two",
        &[
            "gain a $3-$6 card from the trash onto your deck",
            "trash an Action from hand, gain a card costing up to $3 more",
        ],
        "0",
    ),
    QuestionDoc::choose(
        Card::HuntingGrounds,
        "when trashed",
        &["gain a Duchy", "gain 3 Estates"],
        "0",
    ),
];

/// The Dark Ages cards' own default picks (`Some(answer)`); None: the
/// engine's shape rule applies ([`Pick::default_answer`]).
///   - optional `Trash` by Death Cart: a Ruins or Necropolis from hand rather
///     than the Death Cart itself (none if there is neither);
///   - `Name` by Rebuild: Province when it may be named.
pub fn default_pick(_g: &Game, q: &Pick, by: Card) -> Option<Option<Card>> {
    Some(match (q.optional, q.why, by) {
        (true, Why::Trash, Card::DeathCart) => q
            .legal
            .and(CardSet::RUINS.or(CardSet::one(Card::Necropolis)))
            .first(),
        (false, Why::Name, Card::Rebuild) if q.legal.contains(Card::Province) => {
            Some(Card::Province)
        }
        _ => return None,
    })
}

/// The default answers of the yes/no questions in [`QUESTIONS`] (yes = the
/// "may" is done).
pub fn default_yes_no(_g: &Game, q: &YesNo) -> bool {
    match q.by {
        Card::Catacombs | Card::Cultist | Card::Hovel | Card::Scavenger | Card::Survivors => true,
        Card::Ironmonger => q.card.is_some_and(|c| c.is(Types::RUINS) || is_junk(c)),
        // Urchin: keep it; Hermit: trash from the discard pile.
        _ => false,
    }
}
