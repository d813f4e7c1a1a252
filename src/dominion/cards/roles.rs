//! What a Kingdom card is for: its roles in a deck (draw, village,
//! trasher, attack, …), for strategy templates (`{X: card draw}`) and for
//! anything that groups cards by what they do.
//!
//! The roles come from the card table in two parts:
//!
//! * **vanilla**, computed from the row's bonuses and types, the same for
//!   printed and data cards: `+2 Cards` or more → draw; `+2 Actions` or
//!   more → village; `+1 Card +1 Action` without being a village →
//!   cantrip; `+$` or a Treasure → payload; `+Buy` → buy; an Attack type →
//!   attack; a Victory type → alternative VP; a Reaction to Attacks →
//!   defense;
//! * **effects**, which the bonuses do not show: for a printed card with
//!   an effect, the list [`effect_roles`] below (Library draws to seven
//!   cards, Nobles chooses +3 Cards or +2 Actions, Chapel trashes…), read
//!   from the rulebook text in ../shared/CARDS.md; for a data card, derived
//!   from the primitives of its program (a `trash` primitive makes a
//!   trasher, `draw_until` draw, `gain` a gainer, a `vp_per` rule
//!   alternative VP, …; [`data_roles`]).
//!
//! A test checks that every printed Kingdom card and every card of the
//! shipped card files has at least one role, so a template's `draw` never
//! skips Library or Nobles again.

use super::data::{DataCard, Op};
use super::{Card, CardInfo, Hooks, Types};
use std::fmt;

/// A set of roles, as bit flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Roles(pub u16);

impl Roles {
    pub const NONE: Roles = Roles(0);
    /// Draws two cards or more (or draws to a hand size, or reveals cards
    /// into hand).
    pub const DRAW: Roles = Roles(1);
    /// Gives +2 Actions or more (or may: Nobles, Squire, Tribute).
    pub const VILLAGE: Roles = Roles(1 << 1);
    /// Replaces itself: +1 Card +1 Action (and no village).
    pub const CANTRIP: Roles = Roles(1 << 2);
    /// Trashes cards from its owner's hand or deck.
    pub const TRASHER: Roles = Roles(1 << 3);
    /// An Attack.
    pub const ATTACK: Roles = Roles(1 << 4);
    /// Gives the other players Curses or Ruins (junking).
    pub const CURSER: Roles = Roles(1 << 5);
    /// Gains cards other than by buying (Workshop, Remodel, Ironworks…).
    pub const GAINER: Roles = Roles(1 << 6);
    /// Gives coins this turn (+$, a Treasure, Spoils, Copper bonuses).
    pub const PAYLOAD: Roles = Roles(1 << 7);
    /// Gives +Buy.
    pub const BUY: Roles = Roles(1 << 8);
    /// Points other than the basic Victory cards (a Victory Kingdom card,
    /// VP counted by a rule).
    pub const ALT_VP: Roles = Roles(1 << 9);
    /// Plays another card more than once (Throne Room, Procession).
    pub const THRONE: Roles = Roles(1 << 10);
    /// Cycles: discards or sets aside cards to draw or dig (Cellar,
    /// Scout, looters of the deck).
    pub const SIFTER: Roles = Roles(1 << 11);
    /// Protects against Attacks (Moat, Secret Chamber, Beggar).
    pub const DEFENSE: Roles = Roles(1 << 12);
    /// Plays as another Kingdom card (Band of Misfits): its roles are the
    /// kingdom's.
    pub const VERSATILE: Roles = Roles(1 << 13);

    /// Every role with its name (as templates write it).
    pub const NAMES: [(&'static str, Roles); 14] = [
        ("draw", Roles::DRAW),
        ("village", Roles::VILLAGE),
        ("cantrip", Roles::CANTRIP),
        ("trasher", Roles::TRASHER),
        ("attack", Roles::ATTACK),
        ("curser", Roles::CURSER),
        ("gainer", Roles::GAINER),
        ("payload", Roles::PAYLOAD),
        ("buy", Roles::BUY),
        ("altvp", Roles::ALT_VP),
        ("throne", Roles::THRONE),
        ("sifter", Roles::SIFTER),
        ("defense", Roles::DEFENSE),
        ("versatile", Roles::VERSATILE),
    ];

    #[inline]
    pub const fn has(self, r: Roles) -> bool {
        self.0 & r.0 == r.0 && r.0 != 0
    }
    pub const fn union(self, r: Roles) -> Roles {
        Roles(self.0 | r.0)
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The role named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Roles> {
        Roles::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
    }
}

impl fmt::Debug for Roles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Roles::NAMES
            .iter()
            .filter(|(_, r)| self.has(*r))
            .map(|(n, _)| *n)
            .collect();
        f.write_str(&names.join(" "))
    }
}

impl fmt::Display for Roles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The roles a table row's bonuses and types show.
pub fn vanilla_roles(i: &CardInfo) -> Roles {
    let mut r = Roles::NONE;
    let village = i.actions >= 2;
    if i.cards >= 2 {
        r = r.union(Roles::DRAW);
    }
    if village {
        r = r.union(Roles::VILLAGE);
    }
    if i.cards >= 1 && i.actions >= 1 && !village {
        r = r.union(Roles::CANTRIP);
    }
    if i.coins >= 1 || (i.types.has(Types::TREASURE) && i.value >= 1) {
        r = r.union(Roles::PAYLOAD);
    }
    if i.buys >= 1 {
        r = r.union(Roles::BUY);
    }
    if i.types.has(Types::ATTACK) {
        r = r.union(Roles::ATTACK);
    }
    if i.types.has(Types::VICTORY) {
        r = r.union(Roles::ALT_VP);
    }
    if i.hooks.has(Hooks::ATTACK_REACTION) {
        r = r.union(Roles::DEFENSE);
    }
    r
}

/// The roles of a printed card's effect, beyond its bonuses (first
/// editions; CARDS.md). Cards without an effect, or whose effect adds no
/// role, give none.
pub fn effect_roles(c: Card) -> Roles {
    use Card::*;
    const D: Roles = Roles::DRAW;
    const V: Roles = Roles::VILLAGE;
    const C: Roles = Roles::CANTRIP;
    const T: Roles = Roles::TRASHER;
    const A: Roles = Roles::ATTACK;
    const K: Roles = Roles::CURSER;
    const G: Roles = Roles::GAINER;
    const P: Roles = Roles::PAYLOAD;
    const B: Roles = Roles::BUY;
    const X: Roles = Roles::ALT_VP;
    const R: Roles = Roles::THRONE;
    const S: Roles = Roles::SIFTER;
    let all = |rs: &[Roles]| rs.iter().fold(Roles::NONE, |a, &r| a.union(r));
    match c {
        // Base.
        Adventurer => all(&[D, P]),
        Bureaucrat => G,
        Cellar => S,
        Chapel => T,
        CouncilRoom => B,
        Feast => G,
        Library => all(&[D, S]),
        Mine => all(&[G, P]),
        Moneylender => all(&[T, P]),
        Remodel => all(&[T, G]),
        Thief => G,
        ThroneRoom => R,
        Witch => K,
        Workshop => G,
        // Intrigue.
        Baron => all(&[P, G]),
        Conspirator => C,
        Coppersmith => P,
        Ironworks => all(&[G, C, P]),
        Masquerade => T,
        MiningVillage => P,
        Minion => all(&[P, D]),
        Nobles => all(&[D, V]),
        Pawn => all(&[C, P, B]),
        Saboteur => T,
        Scout => S,
        SecretChamber => all(&[P, S]),
        ShantyTown => D,
        Steward => all(&[D, P, T]),
        Swindler => Roles::NONE,
        Torturer => K,
        TradingPost => all(&[T, G]),
        Tribute => all(&[D, P, V]),
        Upgrade => all(&[T, G]),
        WishingWell => D,
        // Dark Ages.
        Altar => all(&[T, G]),
        Armory => G,
        BandOfMisfits => Roles::VERSATILE,
        BanditCamp => all(&[P, G]),
        Beggar => all(&[P, G]),
        Catacombs => all(&[D, S]),
        Count => all(&[T, G, P]),
        Counterfeit => all(&[T, B, R]),
        Cultist => all(&[K, D]),
        DeathCart => all(&[T, G]),
        Forager => all(&[T, P]),
        Graverobber => all(&[G, T]),
        Hermit => all(&[T, G]),
        HuntingGrounds => G,
        Ironmonger => all(&[P, S]),
        JunkDealer => T,
        Knights => all(&[A, T]),
        Marauder => all(&[K, G, P]),
        MarketSquare => G,
        Mystic => C,
        Pillage => all(&[G, P]),
        PoorHouse => P,
        Procession => all(&[R, T, G]),
        Rats => T,
        Rebuild => all(&[G, T, X]),
        Rogue => G,
        Sage => all(&[C, S]),
        Scavenger => S,
        Squire => all(&[V, B, G]),
        Storeroom => all(&[S, P]),
        Urchin => G,
        Vagrant => D,
        WanderingMinstrel => S,
        _ => Roles::NONE,
    }
}

/// The roles of one primitive of a data card's program.
fn op_roles(op: &Op) -> Roles {
    let bonus = |b: &super::data::Bonus| {
        let mut r = Roles::NONE;
        if b.cards >= 2 {
            r = r.union(Roles::DRAW);
        }
        if b.actions >= 2 {
            r = r.union(Roles::VILLAGE);
        }
        if b.coins >= 1 {
            r = r.union(Roles::PAYLOAD);
        }
        if b.buys >= 1 {
            r = r.union(Roles::BUY);
        }
        r
    };
    match op {
        Op::Plus(b) => bonus(b),
        Op::Gain { .. } => Roles::GAINER,
        Op::GainCard { card, .. } => {
            if *card == Card::Curse || card.is(Types::RUINS) {
                Roles::NONE
            } else {
                Roles::GAINER
            }
        }
        Op::TrashCard { then, .. } => Roles::TRASHER.union(bonus(then)),
        Op::Trash { each, .. } => Roles::TRASHER.union(bonus(each)),
        Op::Improve { .. } => Roles::TRASHER.union(Roles::GAINER),
        Op::TrashSelf => Roles::NONE,
        Op::DiscardFor { each, .. } => Roles::SIFTER.union(bonus(each)),
        Op::DrawUntil { .. } => Roles::DRAW,
        Op::MayDiscardDeck => Roles::NONE,
        Op::PlayAction { .. } => Roles::THRONE,
        Op::Topdeck => Roles::NONE,
        Op::MayTrashSelf { then } => bonus(then),
        Op::IfNoActionInHand { then } => bonus(then),
        Op::RevealUntilCost(_) => Roles::SIFTER,
        Op::RevealTreasures(_) => Roles::DRAW.union(Roles::PAYLOAD),
        Op::RevealTake { .. } => Roles::DRAW,
        Op::OthersDraw(_) => Roles::NONE,
        Op::VictimsGain(c) => {
            if *c == Card::Curse || c.is(Types::RUINS) || *c == Card::Ruins {
                Roles::CURSER
            } else {
                Roles::NONE
            }
        }
        Op::VictimsDiscardDownTo(_) | Op::VictimsTopdeck(_) => Roles::NONE,
        Op::VictimsTrashTreasure { gain, .. } => {
            if *gain {
                Roles::GAINER
            } else {
                Roles::NONE
            }
        }
        Op::CostReduction(_) | Op::CopperBonus(_) => Roles::PAYLOAD,
        // The options' primitives follow in the program and are read there.
        Op::Choose { .. } => Roles::NONE,
    }
}

/// The roles of a data card: its row's bonuses and types, and every
/// primitive of its programs (play, options, on-gain, on-trash), and a VP
/// rule.
pub fn data_roles(dc: &DataCard) -> Roles {
    let mut r = vanilla_roles(&dc.info);
    for op in dc.program.ops() {
        r = r.union(op_roles(op));
    }
    if dc.program.vp_rule().is_some() {
        r = r.union(Roles::ALT_VP);
    }
    if dc.program.blocks() {
        r = r.union(Roles::DEFENSE);
    }
    r
}

/// The roles of card `c`: a printed card's bonuses and effect, or a bound
/// data card's program (see the module documentation).
pub fn roles(c: Card) -> Roles {
    let v = vanilla_roles(c.info());
    if c.is_data() {
        return match super::data::bound_program(c) {
            Some(p) => {
                let mut r = v;
                for op in p.ops() {
                    r = r.union(op_roles(op));
                }
                if p.vp_rule().is_some() {
                    r = r.union(Roles::ALT_VP);
                }
                if p.blocks() {
                    r = r.union(Roles::DEFENSE);
                }
                r
            }
            None => v,
        };
    }
    v.union(effect_roles(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every printed Kingdom card has at least one role, and the ones the
    /// templates missed before are draw.
    #[test]
    fn every_printed_kingdom_card_has_roles() {
        let mut without = Vec::new();
        for &c in Card::PRINTED {
            if c.is_kingdom() && roles(c).is_empty() {
                without.push(c.name());
            }
        }
        assert!(without.is_empty(), "no role: {without:?}");
        for c in [
            Card::Library,
            Card::Nobles,
            Card::Smithy,
            Card::Torturer,
            Card::Courtyard,
        ] {
            assert!(roles(c).has(Roles::DRAW), "{}", c.name());
        }
        for c in [
            Card::Village,
            Card::Nobles,
            Card::Fortress,
            Card::MiningVillage,
        ] {
            assert!(roles(c).has(Roles::VILLAGE), "{}", c.name());
        }
        for c in [Card::Chapel, Card::Masquerade, Card::Steward, Card::Remodel] {
            assert!(roles(c).has(Roles::TRASHER), "{}", c.name());
        }
        for c in [Card::Witch, Card::Torturer, Card::Cultist, Card::Marauder] {
            assert!(roles(c).has(Roles::CURSER), "{}", c.name());
        }
        for c in [
            Card::Nobles,
            Card::Duke,
            Card::Gardens,
            Card::Harem,
            Card::Feodum,
        ] {
            assert!(roles(c).has(Roles::ALT_VP), "{}", c.name());
        }
        assert!(roles(Card::Moat).has(Roles::DEFENSE));
        assert!(roles(Card::ThroneRoom).has(Roles::THRONE));
        assert!(!roles(Card::Smithy).has(Roles::VILLAGE));
        assert!(!roles(Card::Village).has(Roles::DRAW));
    }

    /// Every card of the shipped card files gets roles from its program,
    /// and a reprint of a printed card gets that card's main roles.
    #[test]
    fn every_shipped_data_card_has_roles() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cards");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        assert!(!files.is_empty());
        let mut seen = 0;
        for f in files {
            for dc in super::super::data::load_files(&[&f]).unwrap() {
                let r = data_roles(&dc);
                assert!(!r.is_empty(), "{} in {}: no role", dc.name, f.display());
                if let Some(p) = dc.reprint_of {
                    for main in [Roles::DRAW, Roles::VILLAGE, Roles::TRASHER, Roles::CURSER] {
                        if roles(p).has(main) {
                            assert!(r.has(main), "{} reprints {}: {main}", dc.name, p.name());
                        }
                    }
                }
                seen += 1;
            }
        }
        assert!(seen >= 5, "{seen} data cards");
    }

    #[test]
    fn role_names_round_trip() {
        for (n, r) in Roles::NAMES {
            assert_eq!(Roles::from_name(&n.to_uppercase()), Some(r));
        }
        assert_eq!(Roles::from_name("drw"), None);
        assert_eq!(
            format!("{}", Roles::DRAW.union(Roles::TRASHER)),
            "draw trasher"
        );
    }
}
