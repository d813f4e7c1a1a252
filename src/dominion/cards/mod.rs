//! Cards: the table ([`table`], re-exported here: names, costs, types, pile
//! rules, hooks) and what the cards do.
//!
//! Vanilla bonuses (+Cards, +Actions, +Buys, +$) are pure data applied by the
//! engine before a card's own effect; a card with `effect: true` additionally has
//! a handler in [`base`], [`intrigue`] or [`dark_ages`] (one file per set),
//! dispatched below by an exhaustive `match` (a jump table). The table is a
//! leaf module (it imports nothing from the engine); this module and the
//! handler files import both.
pub mod base;
pub mod dark_ages;
pub mod data;
pub mod intrigue;
pub mod other_sets;
pub mod roles;

mod table;
pub use table::*;

// -------------------------------------------------------------------------
// Dispatch: one exhaustive match per mechanism (a jump table). Adding a card
// to the table without deciding its behaviour here is a compile error.

use crate::engine::decision::{Choose, Pick, QuestionDoc, YesNo};
use crate::engine::{Bots, Game, PlayCtx, UsedReactions};

/// Run the effect of one play of `ctx.card` (after its vanilla bonuses).
/// Always inlined into its callers (`Game::resolve`, `resolve_treasure`):
/// the jump table then sits in the one function that plays a card, one call
/// a play fewer, and the game loop compiles smaller around the calls to
/// `resolve` (callgrind: −1.4% to −2.1% instructions a game on the four
/// issue-18 workloads, Big Money included, which plays no Action).
#[inline(always)]
pub fn play_effect<B: Bots>(g: &mut Game, b: &mut B, ctx: PlayCtx) {
    use Card::*;
    match ctx.card {
        Adventurer => base::adventurer(g, b, ctx),
        Bureaucrat => base::bureaucrat(g, b, ctx),
        Cellar => base::cellar(g, b, ctx),
        Chancellor => base::chancellor(g, b, ctx),
        Chapel => base::chapel(g, b, ctx),
        CouncilRoom => base::council_room(g, b, ctx),
        Feast => base::feast(g, b, ctx),
        Library => base::library(g, b, ctx),
        Militia => base::militia(g, b, ctx),
        Mine => base::mine(g, b, ctx),
        Moneylender => base::moneylender(g, b, ctx),
        Remodel => base::remodel(g, b, ctx),
        Spy => base::spy(g, b, ctx),
        Thief => base::thief(g, b, ctx),
        ThroneRoom => base::throne_room(g, b, ctx),
        Witch => base::witch(g, b, ctx),
        Workshop => base::workshop(g, b, ctx),
        // Intrigue
        Baron => intrigue::baron(g, b, ctx),
        Bridge => intrigue::bridge(g, b, ctx),
        Conspirator => intrigue::conspirator(g, b, ctx),
        Coppersmith => intrigue::coppersmith(g, b, ctx),
        Courtyard => intrigue::courtyard(g, b, ctx),
        Ironworks => intrigue::ironworks(g, b, ctx),
        Masquerade => intrigue::masquerade(g, b, ctx),
        MiningVillage => intrigue::mining_village(g, b, ctx),
        Minion => intrigue::minion(g, b, ctx),
        Nobles => intrigue::nobles(g, b, ctx),
        Pawn => intrigue::pawn(g, b, ctx),
        Saboteur => intrigue::saboteur(g, b, ctx),
        Scout => intrigue::scout(g, b, ctx),
        SecretChamber => intrigue::secret_chamber(g, b, ctx),
        ShantyTown => intrigue::shanty_town(g, b, ctx),
        Steward => intrigue::steward(g, b, ctx),
        Swindler => intrigue::swindler(g, b, ctx),
        Torturer => intrigue::torturer(g, b, ctx),
        TradingPost => intrigue::trading_post(g, b, ctx),
        Tribute => intrigue::tribute(g, b, ctx),
        Upgrade => intrigue::upgrade(g, b, ctx),
        WishingWell => intrigue::wishing_well(g, b, ctx),
        // Vanilla cards and cards without a play effect.
        Copper | Silver | Gold | Estate | Duchy | Province | Curse | Festival | Gardens
        | Laboratory | Market | Moat | Smithy | Village | Woodcutter | Duke | GreatHall | Harem => {
        }
        // ---- Dark Ages
        Altar => dark_ages::altar(g, b, ctx),
        Armory => dark_ages::armory(g, b, ctx),
        // Band of Misfits is replaced by its copy in `Game::resolve`.
        BandOfMisfits => {}
        BanditCamp => dark_ages::bandit_camp(g, b, ctx),
        Beggar => dark_ages::beggar(g, b, ctx),
        Catacombs => dark_ages::catacombs(g, b, ctx),
        Count => dark_ages::count(g, b, ctx),
        Counterfeit => dark_ages::counterfeit(g, b, ctx),
        Cultist => dark_ages::cultist(g, b, ctx),
        DeathCart => dark_ages::death_cart(g, b, ctx),
        Forager => dark_ages::forager(g, b, ctx),
        Graverobber => dark_ages::graverobber(g, b, ctx),
        Hermit => dark_ages::hermit(g, b, ctx),
        Ironmonger => dark_ages::ironmonger(g, b, ctx),
        JunkDealer => dark_ages::junk_dealer(g, b, ctx),
        Marauder => dark_ages::marauder(g, b, ctx),
        Mystic => dark_ages::mystic(g, b, ctx),
        Pillage => dark_ages::pillage(g, b, ctx),
        PoorHouse => dark_ages::poor_house(g, b, ctx),
        Procession => dark_ages::procession(g, b, ctx),
        Rats => dark_ages::rats(g, b, ctx),
        Rebuild => dark_ages::rebuild(g, b, ctx),
        Rogue => dark_ages::rogue(g, b, ctx),
        Sage => dark_ages::sage(g, b, ctx),
        Scavenger => dark_ages::scavenger(g, b, ctx),
        Squire => dark_ages::squire(g, b, ctx),
        Storeroom => dark_ages::storeroom(g, b, ctx),
        Urchin => dark_ages::urchin(g, b, ctx),
        Vagrant => dark_ages::vagrant(g, b, ctx),
        WanderingMinstrel => dark_ages::wandering_minstrel(g, b, ctx),
        DameAnna | DameJosephine | DameMolly | DameNatalie | DameSylvia | SirBailey | SirDestry
        | SirMartin | SirMichael | SirVander => dark_ages::knight(g, b, ctx),
        Spoils => dark_ages::spoils(g, b, ctx),
        Madman => dark_ages::madman(g, b, ctx),
        Mercenary => dark_ages::mercenary(g, b, ctx),
        Survivors => dark_ages::survivors(g, b, ctx),
        // No play effect (or only on-trash / reaction abilities, or pile pseudo-cards).
        Feodum | Fortress | HuntingGrounds | Knights | MarketSquare | Ruins | AbandonedMine
        | RuinedLibrary | RuinedMarket | RuinedVillage | Hovel | Necropolis | OvergrownEstate => {}
        // ---- Cards from card files: one interpreter.
        Data1 | Data2 | Data3 | Data4 | Data5 | Data6 | Data7 | Data8 | Data9 | Data10 | Data11
        | Data12 | Data13 | Data14 => data::play(g, b, ctx),
    }
}

/// Ironworks' and Ironmonger's bonus for card `c`, by its types: an Action
/// +1 Action, a Treasure +$1, a Victory card +1 Card (each that applies).
pub(crate) fn bonus_by_types<B: Bots>(g: &mut Game, b: &mut B, p: u8, c: Card) {
    if c.is_action() {
        g.turn.actions = g.turn.actions.saturating_add(1);
    }
    if c.is_treasure() {
        g.turn.coins = g.turn.coins.saturating_add(1);
    }
    if c.is_victory() {
        g.draw(b, p, 1);
    }
}

// -------------------------------------------------------------------------
// Hooks: the engine calls these only for cards whose table row has the hook
// (`Hooks`, derived into `CardSet` lists and each `Kingdom::hooks`); each
// dispatches to the card's own section in its set's file.

/// "When you gain this" ([`Hooks::ON_GAIN`]; the engine calls this for the
/// cards of `Kingdom::on_gain`): Death Cart, and data cards' `on_gain`.
pub fn on_gain<B: Bots>(g: &mut Game, b: &mut B, p: u8, c: Card) {
    match c {
        Card::DeathCart => dark_ages::death_cart_gained(g, b, p),
        _ if c.is_data() => data::on_event(g, b, p, c, data::Trigger::Gain),
        _ => {}
    }
}

/// "When you trash this" ([`Hooks::ON_TRASH`]) of `as_card`, owned by `o`
/// (`card` is the physical card now in the trash: a Band of Misfits trashed
/// as a Fortress returns itself to hand). The engine's trigger mechanism
/// calls it after the trash, in the owner's chosen order.
pub fn on_trash<B: Bots>(g: &mut Game, b: &mut B, o: u8, card: Card, as_card: Card) {
    if as_card.is_data() {
        data::on_event(g, b, o, as_card, data::Trigger::Trash);
    } else {
        dark_ages::on_trash(g, b, o, card, as_card);
    }
}

/// Trash Reaction `r` ([`Hooks::TRASH_REACTION`]) used by `o` after cards of
/// his were trashed (Market Square: discard it to gain a Gold).
pub fn trash_reaction<B: Bots>(g: &mut Game, b: &mut B, o: u8, r: Card) {
    if r == Card::MarketSquare {
        dark_ages::market_square_react(g, b, o);
    }
}

/// "When you buy a card" Reactions in `p`'s hand ([`Hooks::BUY_REACTION`]):
/// Hovel (when you buy a Victory card, you may trash it from your hand).
/// Each copy in hand at the buy is its own trigger, while it is still in
/// hand: two Hovels (one passed by Masquerade) may both be trashed, each
/// asked for in turn.
pub fn on_buy<B: Bots>(g: &mut Game, b: &mut B, p: u8, c: Card) {
    for r in g.hand_kinds(p, CardSet::BUY_REACTIONS).iter() {
        for _ in 0..g.players[p as usize].hand.count(r) {
            if !g.players[p as usize].hand.contains(r) {
                break;
            }
            match r {
                Card::Hovel if c.is_victory() => dark_ages::hovel_on_buy(g, b, p, c),
                _ => {}
            }
        }
    }
}

/// `p` plays an Attack: the card `c` of play instance `uid`, in play as
/// `as_card` (which has [`Hooks::ATTACK_PLAYED`]), may act (Urchin: trash it
/// to gain a Mercenary). True if it left play.
pub fn when_attack_played<B: Bots>(
    g: &mut Game,
    b: &mut B,
    p: u8,
    as_card: Card,
    c: Card,
    uid: u16,
) -> bool {
    match as_card {
        Card::Urchin => dark_ages::urchin_when_attack_played(g, b, p, c, uid),
        _ => false,
    }
}

/// Cleanup discards play instance `uid`, in play as `as_card` (which has
/// [`Hooks::DISCARD_FROM_PLAY`]): its ability, if it applies (Hermit in a
/// turn without a purchase). True if the hook moved the card itself; false:
/// the engine discards it as usual.
pub fn discard_from_play<B: Bots>(g: &mut Game, b: &mut B, p: u8, as_card: Card, uid: u16) -> bool {
    match as_card {
        Card::Hermit => dark_ages::hermit_discarded_from_play(g, b, p, uid),
        _ => false,
    }
}

/// The card that play instance `uid` of `c` ([`Hooks::PLAYS_AS`]) is played
/// as, chosen by its player (Band of Misfits). None: nothing eligible (the
/// play does nothing). The engine remembers the choice per instance.
pub fn choose_identity<B: Bots>(g: &mut Game, b: &mut B, p: u8, c: Card) -> Option<Card> {
    match c {
        Card::BandOfMisfits => dark_ages::band_of_misfits_identity(g, b, p),
        _ => None,
    }
}

// -------------------------------------------------------------------------
// Questions and default answers: each set's file lists the yes/no and
// choose-one questions its cards ask (`QUESTIONS`) and the defaults of its
// cards' questions; the engine's shape rules (`Pick::default_answer`) cover
// every pick a card does not answer itself.

/// Every yes/no and choose-one question of the implemented cards, by set.
pub const QUESTIONS: [&[QuestionDoc]; 3] =
    [base::QUESTIONS, intrigue::QUESTIONS, dark_ages::QUESTIONS];

/// The default answer card `by` gives to pick `q`, when it has its own
/// (`Some(answer)`); None: the engine's shape rule for `q.why` applies.
#[inline]
pub fn default_pick(g: &Game, q: &Pick, by: Card) -> Option<Option<Card>> {
    match by.info().set {
        Set::Intrigue => intrigue::default_pick(g, q, by),
        Set::DarkAges => dark_ages::default_pick(g, q, by),
        _ => None,
    }
}

/// The default answer to yes/no question `q` (see [`QUESTIONS`]).
pub fn default_yes_no(g: &Game, q: &YesNo) -> bool {
    match q.by.info().set {
        Set::Base => base::default_yes_no(g, q),
        Set::Intrigue => intrigue::default_yes_no(g, q),
        Set::DarkAges => dark_ages::default_yes_no(g, q),
        _ => false,
    }
}

/// The default answer to choose-one question `q`, before clamping to its
/// options (see [`QUESTIONS`]).
pub fn default_choose(g: &Game, q: &Choose) -> u8 {
    match q.by.info().set {
        Set::Intrigue => intrigue::default_choose(g, q),
        _ => 0,
    }
}

/// Use Reaction `r` from `v`'s hand against an Attack played by `attacker`.
/// Returns true if `v` is now unaffected by that Attack play.
#[inline]
pub fn react_to_attack<B: Bots>(
    g: &mut Game,
    b: &mut B,
    v: u8,
    r: Card,
    attacker: u8,
    used: &mut UsedReactions,
) -> bool {
    let _ = attacker;
    match r {
        Card::Moat => true,
        Card::SecretChamber => {
            intrigue::secret_chamber_react(g, b, v, used);
            false
        }
        Card::Beggar => dark_ages::beggar_react(g, b, v, used),
        _ => r.is_data() && data::blocks_attacks(r),
    }
}

/// VP of one copy of `c` at game end for a player owning `owned` (`total`
/// cards in all): Gardens ⌊total / 10⌋, Duke the Duchies owned, Feodum
/// ⌊Silvers / 3⌋; every other card its table VP (Great Hall 1, Harem and
/// Nobles 2). Counts rather than a `Player`, so a bot can score a
/// hypothetical gain without copying the player's zones.
#[inline]
pub fn vp_of_counts(c: Card, owned: &[u8; Card::COUNT], total: u16) -> i16 {
    match c {
        Card::Gardens => (total / 10) as i16,
        Card::Duke => owned[Card::Duchy as usize] as i16,
        Card::Feodum => (owned[Card::Silver as usize] / 3) as i16,
        _ if c.is_data() => data::vp_of_counts(c, owned, total),
        _ => c.info().vp as i16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_ids_are_dense_and_names_unique() {
        for (i, &c) in Card::PRINTED.iter().enumerate() {
            assert_eq!(c as usize, i);
            assert_eq!(Card::from_name(c.name()), Some(c));
        }
        assert_eq!(
            Card::PRINTED
                .iter()
                .filter(|c| c.info().set == Set::Base)
                .count(),
            25
        );
    }

    #[test]
    fn intrigue_cards_in_the_table() {
        let intrigue: Vec<Card> = Card::PRINTED
            .iter()
            .copied()
            .filter(|c| c.info().set == Set::Intrigue)
            .collect();
        assert_eq!(intrigue.len(), 25);
        // Ids stay dense and Intrigue follows the base set.
        let first = intrigue[0] as usize;
        assert_eq!(first, Card::Workshop as usize + 1);
        for (i, c) in intrigue.iter().enumerate() {
            assert_eq!(*c as usize, first + i);
        }
        // Multi-type cards carry every type.
        assert!(Card::GreatHall.is_action() && Card::GreatHall.is_victory());
        assert!(Card::Nobles.is_action() && Card::Nobles.is_victory());
        assert!(Card::Harem.is_treasure() && Card::Harem.is_victory());
        assert!(CardSet::reactions().contains(Card::SecretChamber));
        for c in [Card::Minion, Card::Saboteur, Card::Swindler, Card::Torturer] {
            assert!(CardSet::attacks().contains(c), "{c}");
        }
        // Victory-type Kingdom piles are 8 / 12.
        let size = |c: Card, n| c.info().pile.size(n, c.is_victory());
        for c in [Card::Duke, Card::GreatHall, Card::Harem, Card::Nobles] {
            assert_eq!([2, 3, 5, 6].map(|n| size(c, n)), [8, 12, 12, 12], "{c}");
        }
        assert_eq!([2, 6].map(|n| size(Card::Baron, n)), [10, 10]);
        assert_eq!(Card::from_name("secret_chamber"), Some(Card::SecretChamber));
        assert_eq!(Card::suggest("Wishing Wel"), Some(Card::WishingWell));
    }

    /// `variable_vp()` lists exactly the cards whose VP are not the table's.
    #[test]
    fn variable_vp_cards_are_exactly_those_scored_by_the_deck() {
        let mut owned = [0u8; Card::COUNT];
        owned[Card::Duchy as usize] = 5;
        owned[Card::Silver as usize] = 9;
        for &c in Card::PRINTED.iter() {
            let variable = vp_of_counts(c, &owned, 37) != c.info().vp as i16;
            assert_eq!(variable, variable_vp().contains(c), "{c}");
            if variable_vp().contains(c) {
                assert_eq!(c.info().vp, 0, "{c}");
            }
        }
    }

    #[test]
    fn vp_of_intrigue_cards() {
        let mut owned = [0u8; Card::COUNT];
        owned[Card::Duchy as usize] = 3;
        assert_eq!(vp_of_counts(Card::Duke, &owned, 3), 3);
        assert_eq!(vp_of_counts(Card::GreatHall, &owned, 3), 1);
        assert_eq!(vp_of_counts(Card::Harem, &owned, 3), 2);
        assert_eq!(vp_of_counts(Card::Nobles, &owned, 3), 2);
    }

    #[test]
    fn names_are_forgiving_and_suggest() {
        assert_eq!(Card::from_name("throne_room"), Some(Card::ThroneRoom));
        assert_eq!(Card::from_name("COUNCILROOM"), Some(Card::CouncilRoom));
        assert_eq!(Card::from_name("Smithyy"), None);
        assert_eq!(Card::suggest("Smithyy"), Some(Card::Smithy));
        assert_eq!(Card::suggest("Thron Rom"), Some(Card::ThroneRoom));
        assert_eq!(Card::suggest("zzzzzzzzzzzzzzzz"), None);
    }

    #[test]
    fn pile_sizes_follow_rules_3_2() {
        let size = |c: Card, n| c.info().pile.size(n, c.is_victory());
        assert_eq!(
            [2, 3, 4, 5, 6].map(|n| size(Card::Copper, n)),
            [46, 39, 32, 85, 78]
        );
        assert_eq!([2, 5].map(|n| size(Card::Silver, n)), [40, 80]);
        assert_eq!([2, 6].map(|n| size(Card::Gold, n)), [30, 60]);
        assert_eq!(
            [2, 3, 4, 5, 6].map(|n| size(Card::Province, n)),
            [8, 12, 12, 15, 18]
        );
        assert_eq!(
            [2, 3, 4, 5, 6].map(|n| size(Card::Curse, n)),
            [10, 20, 30, 40, 50]
        );
        assert_eq!([2, 3].map(|n| size(Card::Estate, n)), [8, 12]);
        assert_eq!([2, 3].map(|n| size(Card::Duchy, n)), [8, 12]);
        assert_eq!([2, 3, 6].map(|n| size(Card::Gardens, n)), [8, 12, 12]);
        assert_eq!([2, 6].map(|n| size(Card::Smithy, n)), [10, 10]);
    }

    #[test]
    fn cardset_ops() {
        let mut s = CardSet::EMPTY;
        s.insert(Card::Witch);
        s.insert(Card::Copper);
        assert_eq!(s.len(), 2);
        assert_eq!(s.first(), Some(Card::Copper));
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![Card::Copper, Card::Witch]
        );
        s.remove(Card::Copper);
        assert!(!s.contains(Card::Copper));
        assert!(CardSet::of_type(Types::ATTACK).contains(Card::Militia));
        assert!(!CardSet::of_type(Types::VICTORY).contains(Card::Curse));
    }
}
