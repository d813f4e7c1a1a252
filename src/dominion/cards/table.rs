//! The card table: the single source of truth for every card, and a leaf
//! module — it imports nothing from the engine (a test reads its `use`
//! lines), so the engine, the card handlers, the strategy compiler and the
//! reports all depend on it and never the other way round.
//!
//! One macro invocation below defines `enum Card`, `Card::ALL` and the static
//! [`CardInfo`] table (name, cost, types, vanilla bonuses, pile rule, set,
//! and the hooks a card has beyond its play effect). The card lists the
//! engine consults — cards with an on-trash ability, Reactions that answer
//! an Attack — are derived from those hooks ([`CardSet::ON_TRASH`],
//! [`CardSet::ATTACK_REACTIONS`]), never kept by hand.

use std::fmt;

/// Card types as bit flags. A card with several types has all of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Types(pub u16);

impl Types {
    /// No type (an unbound data-card slot).
    pub const NONE: Types = Types(0);
    pub const ACTION: Types = Types(1);
    pub const TREASURE: Types = Types(1 << 1);
    pub const VICTORY: Types = Types(1 << 2);
    pub const CURSE: Types = Types(1 << 3);
    pub const ATTACK: Types = Types(1 << 4);
    pub const REACTION: Types = Types(1 << 5);
    pub const LOOTER: Types = Types(1 << 6);
    pub const RUINS: Types = Types(1 << 7);
    pub const SHELTER: Types = Types(1 << 8);
    pub const KNIGHT: Types = Types(1 << 9);
    /// Not a real type: marks the pile pseudo-cards "Knights" and "Ruins"
    /// (see the Dark Ages block of the card table). Never printed.
    pub const PILE: Types = Types(1 << 10);

    pub const NAMES: [(&'static str, Types); 10] = [
        ("Action", Types::ACTION),
        ("Treasure", Types::TREASURE),
        ("Victory", Types::VICTORY),
        ("Curse", Types::CURSE),
        ("Attack", Types::ATTACK),
        ("Reaction", Types::REACTION),
        ("Looter", Types::LOOTER),
        ("Ruins", Types::RUINS),
        ("Shelter", Types::SHELTER),
        ("Knight", Types::KNIGHT),
    ];

    #[inline]
    pub const fn has(self, t: Types) -> bool {
        self.0 & t.0 != 0
    }
    pub const fn union(self, t: Types) -> Types {
        Types(self.0 | t.0)
    }
}

impl fmt::Debug for Types {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (n, t) in Types::NAMES {
            if self.has(t) {
                if !first {
                    f.write_str("-")?;
                }
                f.write_str(n)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// Which printed set a card comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    /// Copper, Silver, Gold, Estate, Duchy, Province, Curse.
    Basic,
    Base,
    Intrigue,
    DarkAges,
    /// A card defined in a card file (`--cards`), bound to a data slot.
    Data,
}

impl Set {
    pub const ALL: [Set; 4] = [Set::Basic, Set::Base, Set::Intrigue, Set::DarkAges];
    pub fn name(self) -> &'static str {
        match self {
            Set::Basic => "basic",
            Set::Base => "base",
            Set::Intrigue => "intrigue",
            Set::DarkAges => "dark-ages",
            Set::Data => "data",
        }
    }
}

/// How big a card's pile is for a given number of players (RULES §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PileRule {
    /// Copper: 60 − 7n for 2–4 players, 120 − 7n for 5–6.
    Copper,
    /// Silver/Gold: `n` for 2–4 players, doubled for 5–6.
    Treasure(u8),
    /// Estate and Duchy: 8 with 2 players, 12 otherwise.
    BasicVictory,
    /// Province: 8 / 12 / 12 / 15 / 18.
    Province,
    /// Curse: 10 per player beyond the first.
    Curse,
    /// A Kingdom pile: 10, or 8 / 12 if the card has the Victory type.
    Kingdom,
    /// A Kingdom pile of fixed size whatever the player count (Rats: 20).
    Fixed(u8),
    /// The Knights pile (pseudo-card): the 10 different Knights.
    KnightsPile,
    /// The Ruins pile (pseudo-card): 10 Ruins per player beyond the first.
    RuinsPile,
    /// A member of a pile of distinct cards (a Knight, a Ruins): no pile of its own.
    InPile,
    /// A non-Supply pile (Spoils, Madman, Mercenary) of this many cards.
    NonSupply(u8),
    /// A Shelter: starting card only, no pile.
    Shelter,
}

impl PileRule {
    pub const fn size(self, players: usize, victory: bool) -> u8 {
        let big = players >= 5;
        match self {
            PileRule::Copper => {
                if big {
                    (120 - 7 * players) as u8
                } else {
                    (60 - 7 * players) as u8
                }
            }
            PileRule::Treasure(n) => {
                if big {
                    n * 2
                } else {
                    n
                }
            }
            PileRule::BasicVictory => {
                if players == 2 {
                    8
                } else {
                    12
                }
            }
            PileRule::Province => match players {
                2 => 8,
                5 => 15,
                6 => 18,
                _ => 12,
            },
            PileRule::Curse => (10 * (players - 1)) as u8,
            PileRule::Fixed(n) | PileRule::NonSupply(n) => n,
            PileRule::KnightsPile => 10,
            PileRule::RuinsPile => (10 * (players - 1)) as u8,
            PileRule::InPile | PileRule::Shelter => 0,
            PileRule::Kingdom => {
                if !victory {
                    10
                } else if players == 2 {
                    8
                } else {
                    12
                }
            }
        }
    }
}

/// What a card does besides its play effect, as flags: the engine's card
/// lists ([`CardSet::with_hook`]) and each Kingdom's set of live hooks are
/// derived from them, and the engine calls the card's hook (in `cards/mod.rs`)
/// only when the flag says it has one — the engine itself names no card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Hooks(pub u16);

impl Hooks {
    pub const NONE: Hooks = Hooks(0);
    /// "When you trash this …" (RULES §9): the engine runs the card's
    /// on-trash ability (`cards::on_trash`).
    pub const ON_TRASH: Hooks = Hooks(1);
    /// A Reaction revealed when another player plays an Attack
    /// (`cards::react_to_attack`).
    pub const ATTACK_REACTION: Hooks = Hooks(1 << 1);
    /// A Reaction used when one of its owner's cards is trashed (Market
    /// Square; `cards::trash_reaction`).
    pub const TRASH_REACTION: Hooks = Hooks(1 << 2);
    /// VP counted by a rule over the owner's deck (data cards: `vp_per`).
    pub const VP_RULE: Hooks = Hooks(1 << 3);
    /// A Reaction used when its owner buys a card (Hovel; `cards::on_buy`).
    pub const BUY_REACTION: Hooks = Hooks(1 << 4);
    /// "When you gain this" (Death Cart, data cards' `on_gain`;
    /// `cards::on_gain`).
    pub const ON_GAIN: Hooks = Hooks(1 << 5);
    /// In play, "when you play another Attack card" (Urchin;
    /// `cards::when_attack_played`).
    pub const ATTACK_PLAYED: Hooks = Hooks(1 << 6);
    /// "When you discard this from play" (Hermit; `cards::discard_from_play`).
    pub const DISCARD_FROM_PLAY: Hooks = Hooks(1 << 7);
    /// Played as another card, chosen per play (Band of Misfits;
    /// `cards::choose_identity`).
    pub const PLAYS_AS: Hooks = Hooks(1 << 8);

    #[inline]
    pub const fn has(self, h: Hooks) -> bool {
        self.0 & h.0 != 0
    }
    #[inline]
    pub const fn or(self, h: Hooks) -> Hooks {
        Hooks(self.0 | h.0)
    }
}

/// Static facts about one card.
#[derive(Clone, Copy, Debug)]
pub struct CardInfo {
    pub name: &'static str,
    pub cost: u8,
    pub types: Types,
    pub set: Set,
    pub pile: PileRule,
    /// Vanilla bonuses applied by the engine when the card is played.
    pub cards: u8,
    pub actions: u8,
    pub buys: u8,
    pub coins: u8,
    /// Coins a Treasure is worth when played (before modifiers such as Coppersmith).
    pub value: u8,
    /// Fixed VP (Gardens and other variable-VP cards are scored by the engine).
    pub vp: i8,
    /// True if the card has an effect beyond its vanilla bonuses (a handler in `base`).
    pub effect: bool,
    /// Abilities outside its play effect (on-trash, reactions).
    pub hooks: Hooks,
    /// The non-Supply pile a game with this Kingdom card also sets up
    /// (RULES §3.4: Hermit → Madman, Urchin → Mercenary, Bandit Camp,
    /// Marauder and Pillage → Spoils).
    pub companion: Option<Card>,
}

/// The optional companion of a table row (`companion X` or nothing).
const fn companion(c: &[Card]) -> Option<Card> {
    if c.is_empty() {
        None
    } else {
        Some(c[0])
    }
}

macro_rules! card_table {
    ($(
        $variant:ident = $name:literal, cost $cost:literal, [$($ty:ident)|+], $set:ident, $pile:expr,
        +$c:literal cards +$a:literal actions +$b:literal buys +$coin:literal coins,
        value $val:literal, vp $vp:literal, effect $eff:literal $(, hooks [$($hk:ident)|+])? $(, companion $comp:ident)?;
    )*) => {
        /// Every card of the implemented sets. `#[repr(u8)]`: ids are dense from 0,
        /// so a set of cards is a `u128` bit mask and a multiset is `[u8; Card::COUNT]`.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Card { $($variant,)* }

        impl Card {
            /// Every card, in id order.
            pub const ALL: &'static [Card] = &[$(Card::$variant,)*];
            pub const COUNT: usize = Card::ALL.len();
            /// The printed cards (every id below the data-card slots).
            pub const PRINTED: &'static [Card] = Card::ALL.split_at(FIRST_DATA).0;
        }

        /// The table as a constant, for compile-time masks.
        const TABLE: [CardInfo; Card::COUNT] = [$(
            CardInfo {
                name: $name,
                cost: $cost,
                types: Types(0 $(| Types::$ty.0)+),
                set: Set::$set,
                pile: $pile,
                cards: $c,
                actions: $a,
                buys: $b,
                coins: $coin,
                value: $val,
                vp: $vp,
                effect: $eff,
                hooks: Hooks(0 $($(| Hooks::$hk.0)+)?),
                companion: companion(&[$(Card::$comp)?]),
            },
        )*];

        /// The static table, indexed by `Card as usize`.
        pub static INFO: [CardInfo; Card::COUNT] = TABLE;
    };
}

use PileRule::*;

card_table! {
    // ---- Basic cards (always in the Supply) ----
    Copper = "Copper", cost 0, [TREASURE], Basic, Copper, +0 cards +0 actions +0 buys +0 coins, value 1, vp 0, effect false;
    Silver = "Silver", cost 3, [TREASURE], Basic, Treasure(40), +0 cards +0 actions +0 buys +0 coins, value 2, vp 0, effect false;
    Gold = "Gold", cost 6, [TREASURE], Basic, Treasure(30), +0 cards +0 actions +0 buys +0 coins, value 3, vp 0, effect false;
    Estate = "Estate", cost 2, [VICTORY], Basic, BasicVictory, +0 cards +0 actions +0 buys +0 coins, value 0, vp 1, effect false;
    Duchy = "Duchy", cost 5, [VICTORY], Basic, BasicVictory, +0 cards +0 actions +0 buys +0 coins, value 0, vp 3, effect false;
    Province = "Province", cost 8, [VICTORY], Basic, Province, +0 cards +0 actions +0 buys +0 coins, value 0, vp 6, effect false;
    Curse = "Curse", cost 0, [CURSE], Basic, Curse, +0 cards +0 actions +0 buys +0 coins, value 0, vp -1, effect false;
    // ---- Base game, first edition ----
    Adventurer = "Adventurer", cost 6, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Bureaucrat = "Bureaucrat", cost 4, [ACTION | ATTACK], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Cellar = "Cellar", cost 2, [ACTION], Base, Kingdom, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Chancellor = "Chancellor", cost 3, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Chapel = "Chapel", cost 2, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    CouncilRoom = "Council Room", cost 5, [ACTION], Base, Kingdom, +4 cards +0 actions +1 buys +0 coins, value 0, vp 0, effect true;
    Feast = "Feast", cost 4, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Festival = "Festival", cost 5, [ACTION], Base, Kingdom, +0 cards +2 actions +1 buys +2 coins, value 0, vp 0, effect false;
    Gardens = "Gardens", cost 4, [VICTORY], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Laboratory = "Laboratory", cost 5, [ACTION], Base, Kingdom, +2 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Library = "Library", cost 5, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Market = "Market", cost 5, [ACTION], Base, Kingdom, +1 cards +1 actions +1 buys +1 coins, value 0, vp 0, effect false;
    Militia = "Militia", cost 4, [ACTION | ATTACK], Base, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Mine = "Mine", cost 5, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Moat = "Moat", cost 2, [ACTION | REACTION], Base, Kingdom, +2 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [ATTACK_REACTION];
    Moneylender = "Moneylender", cost 4, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Remodel = "Remodel", cost 4, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Smithy = "Smithy", cost 4, [ACTION], Base, Kingdom, +3 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Spy = "Spy", cost 4, [ACTION | ATTACK], Base, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Thief = "Thief", cost 4, [ACTION | ATTACK], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    ThroneRoom = "Throne Room", cost 4, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Village = "Village", cost 3, [ACTION], Base, Kingdom, +1 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Witch = "Witch", cost 5, [ACTION | ATTACK], Base, Kingdom, +2 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Woodcutter = "Woodcutter", cost 3, [ACTION], Base, Kingdom, +0 cards +0 actions +1 buys +2 coins, value 0, vp 0, effect false;
    Workshop = "Workshop", cost 3, [ACTION], Base, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    // ---- Intrigue, first edition ----
    Baron = "Baron", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +1 buys +0 coins, value 0, vp 0, effect true;
    Bridge = "Bridge", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +1 buys +1 coins, value 0, vp 0, effect true;
    Conspirator = "Conspirator", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Coppersmith = "Coppersmith", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Courtyard = "Courtyard", cost 2, [ACTION], Intrigue, Kingdom, +3 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Duke = "Duke", cost 5, [VICTORY], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    GreatHall = "Great Hall", cost 3, [ACTION | VICTORY], Intrigue, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 1, effect false;
    Harem = "Harem", cost 6, [TREASURE | VICTORY], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 2, vp 2, effect false;
    Ironworks = "Ironworks", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Masquerade = "Masquerade", cost 3, [ACTION], Intrigue, Kingdom, +2 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    MiningVillage = "Mining Village", cost 4, [ACTION], Intrigue, Kingdom, +1 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Minion = "Minion", cost 5, [ACTION | ATTACK], Intrigue, Kingdom, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Nobles = "Nobles", cost 6, [ACTION | VICTORY], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 2, effect true;
    Pawn = "Pawn", cost 2, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Saboteur = "Saboteur", cost 5, [ACTION | ATTACK], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Scout = "Scout", cost 4, [ACTION], Intrigue, Kingdom, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    SecretChamber = "Secret Chamber", cost 2, [ACTION | REACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ATTACK_REACTION];
    ShantyTown = "Shanty Town", cost 3, [ACTION], Intrigue, Kingdom, +0 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Steward = "Steward", cost 3, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Swindler = "Swindler", cost 3, [ACTION | ATTACK], Intrigue, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Torturer = "Torturer", cost 5, [ACTION | ATTACK], Intrigue, Kingdom, +3 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    TradingPost = "Trading Post", cost 5, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Tribute = "Tribute", cost 5, [ACTION], Intrigue, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Upgrade = "Upgrade", cost 5, [ACTION], Intrigue, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    WishingWell = "Wishing Well", cost 3, [ACTION], Intrigue, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    // ---- Dark Ages
    // Piles of distinct cards: the pile's identity is a pseudo-card ("Knights",
    // "Ruins", type PILE) that is never in any zone. `supply[pseudo]` counts the
    // cards left and the pile counts once for the end condition; the order is in
    // `Game::knights` / `Game::ruins` (fixed arrays) and only the real top card is
    // in `Game::nonempty`, so every generic gain/buy sees exactly the top card.
    // A pseudo-card (rather than a separate pile index) keeps one id space for
    // kingdoms, masks and the scenario notation ("kingdom: Knights").
    Altar = "Altar", cost 6, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Armory = "Armory", cost 4, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    BandOfMisfits = "Band of Misfits", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [PLAYS_AS];
    BanditCamp = "Bandit Camp", cost 5, [ACTION], DarkAges, Kingdom, +1 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true, companion Spoils;
    Beggar = "Beggar", cost 2, [ACTION | REACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ATTACK_REACTION];
    Catacombs = "Catacombs", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ON_TRASH];
    Count = "Count", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Counterfeit = "Counterfeit", cost 5, [TREASURE], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 1, vp 0, effect true;
    Cultist = "Cultist", cost 5, [ACTION | ATTACK | LOOTER], DarkAges, Kingdom, +2 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ON_TRASH];
    DeathCart = "Death Cart", cost 4, [ACTION | LOOTER], DarkAges, Kingdom, +0 cards +0 actions +0 buys +5 coins, value 0, vp 0, effect true, hooks [ON_GAIN];
    Feodum = "Feodum", cost 4, [VICTORY], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [ON_TRASH];
    Forager = "Forager", cost 3, [ACTION], DarkAges, Kingdom, +0 cards +1 actions +1 buys +0 coins, value 0, vp 0, effect true;
    Fortress = "Fortress", cost 4, [ACTION], DarkAges, Kingdom, +1 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [ON_TRASH];
    Graverobber = "Graverobber", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Hermit = "Hermit", cost 3, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [DISCARD_FROM_PLAY], companion Madman;
    HuntingGrounds = "Hunting Grounds", cost 6, [ACTION], DarkAges, Kingdom, +4 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [ON_TRASH];
    Ironmonger = "Ironmonger", cost 4, [ACTION], DarkAges, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    JunkDealer = "Junk Dealer", cost 5, [ACTION], DarkAges, Kingdom, +1 cards +1 actions +0 buys +1 coins, value 0, vp 0, effect true;
    Knights = "Knights", cost 5, [PILE], DarkAges, KnightsPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Marauder = "Marauder", cost 4, [ACTION | ATTACK | LOOTER], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, companion Spoils;
    MarketSquare = "Market Square", cost 3, [ACTION | REACTION], DarkAges, Kingdom, +1 cards +1 actions +1 buys +0 coins, value 0, vp 0, effect false, hooks [TRASH_REACTION];
    Mystic = "Mystic", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +1 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Pillage = "Pillage", cost 5, [ACTION | ATTACK], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, companion Spoils;
    PoorHouse = "Poor House", cost 1, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +4 coins, value 0, vp 0, effect true;
    Procession = "Procession", cost 4, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Rats = "Rats", cost 4, [ACTION], DarkAges, Fixed(20), +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ON_TRASH];
    Rebuild = "Rebuild", cost 5, [ACTION], DarkAges, Kingdom, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Rogue = "Rogue", cost 5, [ACTION | ATTACK], DarkAges, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Sage = "Sage", cost 3, [ACTION], DarkAges, Kingdom, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Scavenger = "Scavenger", cost 4, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    Squire = "Squire", cost 2, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +0 buys +1 coins, value 0, vp 0, effect true, hooks [ON_TRASH];
    Storeroom = "Storeroom", cost 3, [ACTION], DarkAges, Kingdom, +0 cards +0 actions +1 buys +0 coins, value 0, vp 0, effect true;
    Urchin = "Urchin", cost 3, [ACTION | ATTACK], DarkAges, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ATTACK_PLAYED], companion Mercenary;
    Vagrant = "Vagrant", cost 2, [ACTION], DarkAges, Kingdom, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    WanderingMinstrel = "Wandering Minstrel", cost 4, [ACTION], DarkAges, Kingdom, +1 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true;
    // The ten Knights (members of the Knights pile).
    DameAnna = "Dame Anna", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    DameJosephine = "Dame Josephine", cost 5, [ACTION | ATTACK | VICTORY | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 2, effect true;
    DameMolly = "Dame Molly", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true;
    DameNatalie = "Dame Natalie", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    DameSylvia = "Dame Sylvia", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +2 coins, value 0, vp 0, effect true;
    SirBailey = "Sir Bailey", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +1 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect true;
    SirDestry = "Sir Destry", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +2 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    SirMartin = "Sir Martin", cost 4, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +2 buys +0 coins, value 0, vp 0, effect true;
    SirMichael = "Sir Michael", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    SirVander = "Sir Vander", cost 5, [ACTION | ATTACK | KNIGHT], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true, hooks [ON_TRASH];
    // Non-Supply piles.
    Spoils = "Spoils", cost 0, [TREASURE], DarkAges, NonSupply(15), +0 cards +0 actions +0 buys +0 coins, value 3, vp 0, effect true;
    Madman = "Madman", cost 0, [ACTION], DarkAges, NonSupply(10), +0 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Mercenary = "Mercenary", cost 0, [ACTION | ATTACK], DarkAges, NonSupply(10), +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    // The Ruins pile (pseudo-card) and the five Ruins.
    Ruins = "Ruins", cost 0, [PILE], DarkAges, RuinsPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    AbandonedMine = "Abandoned Mine", cost 0, [ACTION | RUINS], DarkAges, InPile, +0 cards +0 actions +0 buys +1 coins, value 0, vp 0, effect false;
    RuinedLibrary = "Ruined Library", cost 0, [ACTION | RUINS], DarkAges, InPile, +1 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false;
    RuinedMarket = "Ruined Market", cost 0, [ACTION | RUINS], DarkAges, InPile, +0 cards +0 actions +1 buys +0 coins, value 0, vp 0, effect false;
    RuinedVillage = "Ruined Village", cost 0, [ACTION | RUINS], DarkAges, InPile, +0 cards +1 actions +0 buys +0 coins, value 0, vp 0, effect false;
    Survivors = "Survivors", cost 0, [ACTION | RUINS], DarkAges, InPile, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    // Shelters (starting cards only).
    Hovel = "Hovel", cost 1, [REACTION | SHELTER], DarkAges, Shelter, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [BUY_REACTION];
    Necropolis = "Necropolis", cost 1, [ACTION | SHELTER], DarkAges, Shelter, +0 cards +2 actions +0 buys +0 coins, value 0, vp 0, effect false;
    OvergrownEstate = "Overgrown Estate", cost 1, [VICTORY | SHELTER], DarkAges, Shelter, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect false, hooks [ON_TRASH];
    // ---- Data-card slots: placeholders until a card file binds them (cards/data.rs).
    Data1 = "(data slot 1)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data2 = "(data slot 2)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data3 = "(data slot 3)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data4 = "(data slot 4)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data5 = "(data slot 5)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data6 = "(data slot 6)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data7 = "(data slot 7)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data8 = "(data slot 8)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data9 = "(data slot 9)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data10 = "(data slot 10)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data11 = "(data slot 11)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data12 = "(data slot 12)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data13 = "(data slot 13)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
    Data14 = "(data slot 14)", cost 0, [NONE], Data, Kingdom, +0 cards +0 actions +0 buys +0 coins, value 0, vp 0, effect true;
}

const _: () = assert!(Card::COUNT == 128, "CardSet is a u128 bit mask");
const _: () = assert!(Card::Data1 as usize == FIRST_DATA && Card::COUNT == FIRST_DATA + DATA_SLOTS);

/// Cards whose VP depend on the owner's deck (scored by `vp_of_counts`;
/// their table `vp` is 0). A test checks this list against `vp_of_counts`.
const P_VARIABLE_VP: CardSet = CardSet(
    CardSet::one(Card::Gardens).0 | CardSet::one(Card::Duke).0 | CardSet::one(Card::Feodum).0,
);

/// Cards whose VP depend on the owner's deck, bound data cards with a
/// `vp_per` rule included.
#[inline]
pub fn variable_vp() -> CardSet {
    CardSet(P_VARIABLE_VP.0 | dyn_mask(D_VARIABLE_VP))
}

/// `PLAY_ALL[c]`: how the Treasure step's one-pass play
/// ([`crate::engine::CardVec::partition_out`]) reads card `c`: `0x80 |
/// value` for a Treasure, 0 for any other card (its coins must not count).
/// One byte per card, so the loop loads one table, not two. Values are
/// below 128 (checked here).
pub static PLAY_ALL: [u8; Card::COUNT] = {
    let mut t = [0u8; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        if TABLE[i].types.0 & Types::TREASURE.0 != 0 {
            assert!(TABLE[i].value < 0x80);
            t[i] = 0x80 | TABLE[i].value;
        }
        i += 1;
    }
    t
};

// -------------------------------------------------------------------------
// Data-card slots (RULES-free plumbing for `--cards`, see `cards/data.rs`).
//
// The last `DATA_SLOTS` ids of the table are placeholders that a card file
// binds at load time. A binding writes the card's facts into an append-only
// arena (never freed, never rewritten: a reader can never see a half-written
// row, and no `unsafe` is needed) and points the slot at it; the card lists
// the engine consults (`CardSet::actions()`, `cost_at_most()`...) are the
// printed cards' compile-time masks OR'ed with one word of data-slot bits.
// Printed cards never read a slot, so a kingdom of printed cards plays as
// before.

/// Id of the first data-card slot.
pub const FIRST_DATA: usize = 114;
/// How many data cards can be bound at once (the ids up to 127).
pub const DATA_SLOTS: usize = 14;
/// How many bindings one process can make in all (each binding of a card
/// takes a fresh arena row).
pub const DATA_ARENA: usize = 2048;

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::OnceLock;

static DATA_ROWS: [OnceLock<CardInfo>; DATA_ARENA] = [const { OnceLock::new() }; DATA_ARENA];
static DATA_NEXT_ROW: AtomicU16 = AtomicU16::new(0);
const UNBOUND: u16 = u16::MAX;
static DATA_SLOT_ROW: [AtomicU16; DATA_SLOTS] = [const { AtomicU16::new(UNBOUND) }; DATA_SLOTS];

// Derived masks that data cards can join, as words of bits `id - 64`
// (every data id is above 64).
const D_ACTIONS: usize = 0;
const D_TREASURES: usize = 1;
const D_VICTORIES: usize = 2;
const D_SCORING: usize = 3;
const D_ATTACKS: usize = 4;
const D_REACTIONS: usize = 5;
const D_ATTACK_REACTIONS: usize = 6;
const D_TERMINAL: usize = 7;
const D_TREASURES_WITH_EFFECT: usize = 8;
const D_VARIABLE_VP: usize = 9;
const D_ON_TRASH: usize = 10;
const D_BOUND: usize = 11;
const N_DYN: usize = 12;
static DATA_MASKS: [AtomicU64; N_DYN] = [const { AtomicU64::new(0) }; N_DYN];
/// `cost_at_most(x)`'s data-card word, by x (its own array: the index is
/// x itself, with no offset and no bounds check after the clamp).
static DATA_COST: [AtomicU64; 17] = [const { AtomicU64::new(0) }; 17];

// Dense per-card facts read on the hot paths (types, cost, money), one
// relaxed load each — a plain load, with no branch on printed/data: the
// printed rows are set at compile time, a binding writes the data rows.
const fn dense<const F: usize>() -> [AtomicU16; Card::COUNT] {
    let mut a = [const { AtomicU16::new(0) }; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        let t = &TABLE[i];
        let v = match F {
            0 => t.types.0,
            1 => t.cost as u16,
            _ => t.value as u16 + t.coins as u16,
        };
        a[i] = AtomicU16::new(v);
        i += 1;
    }
    a
}
static DENSE_TYPES: [AtomicU16; Card::COUNT] = dense::<0>();
static DENSE_COST: [AtomicU16; Card::COUNT] = dense::<1>();
static DENSE_MONEY: [AtomicU16; Card::COUNT] = dense::<2>();

#[inline(always)]
fn dyn_mask(k: usize) -> u128 {
    (DATA_MASKS[k].load(Ordering::Relaxed) as u128) << 64
}

/// Bind data slot `slot` to `info` (`None` unbinds it) and recompute the
/// derived masks. Only `cards::data` calls this, under its binding lock and
/// while no game runs. Fails when the process has used up its arena.
pub fn bind_data_slot(slot: usize, info: Option<CardInfo>) -> Result<(), &'static str> {
    if slot >= DATA_SLOTS {
        return Err("more data cards than data slots");
    }
    let row = match info {
        None => None,
        Some(info) => {
            let r = DATA_NEXT_ROW.fetch_add(1, Ordering::Relaxed);
            if r as usize >= DATA_ARENA {
                return Err("this process has bound too many card files");
            }
            // A fresh row: nobody else can have set it.
            let _ = DATA_ROWS[r as usize].set(info);
            Some(r)
        }
    };
    point_data_slot(slot, row)
}

/// Point data slot `slot` at arena row `row` (one an earlier
/// [`bind_data_slot`] filled; `None` unbinds the slot) and recompute the
/// derived masks. Binding the same card again this way takes no new row,
/// so a process can switch between two bindings as often as it needs
/// (`domsim compare` alternates its variants block by block). Same
/// conditions as [`bind_data_slot`].
pub fn point_data_slot(slot: usize, row: Option<u16>) -> Result<(), &'static str> {
    if slot >= DATA_SLOTS {
        return Err("more data cards than data slots");
    }
    let row = match row {
        None => UNBOUND,
        Some(r) if DATA_ROWS.get(r as usize).is_some_and(|c| c.get().is_some()) => r,
        Some(_) => return Err("a data slot pointed at an arena row no binding filled"),
    };
    DATA_SLOT_ROW[slot].store(row, Ordering::Release);
    let id = FIRST_DATA + slot;
    let row_info = data_row(Card::ALL[id]).unwrap_or(&TABLE[id]);
    DENSE_TYPES[id].store(row_info.types.0, Ordering::Relaxed);
    DENSE_COST[id].store(row_info.cost as u16, Ordering::Relaxed);
    DENSE_MONEY[id].store(
        row_info.value as u16 + row_info.coins as u16,
        Ordering::Relaxed,
    );
    let mut words = [0u64; N_DYN];
    let mut costs = [0u64; 17];
    for s in 0..DATA_SLOTS {
        let c = Card::ALL[FIRST_DATA + s];
        let Some(i) = data_row(c) else { continue };
        let bit = 1u64 << (FIRST_DATA + s - 64);
        let mut set = |k: usize, on: bool| {
            if on {
                words[k] |= bit;
            }
        };
        let t = i.types;
        set(D_BOUND, true);
        set(D_ACTIONS, t.has(Types::ACTION));
        set(D_TREASURES, t.has(Types::TREASURE));
        set(D_VICTORIES, t.has(Types::VICTORY));
        set(D_SCORING, t.has(Types(Types::VICTORY.0 | Types::CURSE.0)));
        set(D_ATTACKS, t.has(Types::ATTACK));
        set(D_REACTIONS, t.has(Types::REACTION));
        set(D_ATTACK_REACTIONS, i.hooks.has(Hooks::ATTACK_REACTION));
        set(D_TERMINAL, t.has(Types::ACTION) && i.actions == 0);
        // A data Treasure is always played one at a time (the batched
        // Treasure pass reads the printed cards' `PLAY_ALL` table only).
        set(D_TREASURES_WITH_EFFECT, t.has(Types::TREASURE));
        set(D_VARIABLE_VP, i.hooks.has(Hooks::VP_RULE));
        set(D_ON_TRASH, i.hooks.has(Hooks::ON_TRASH));
        for (x, w) in costs.iter_mut().enumerate() {
            if i.cost as usize <= x {
                *w |= bit;
            }
        }
    }
    for (k, w) in words.iter().enumerate() {
        DATA_MASKS[k].store(*w, Ordering::Relaxed);
    }
    for (x, w) in costs.iter().enumerate() {
        DATA_COST[x].store(*w, Ordering::Relaxed);
    }
    Ok(())
}

/// The arena row a data slot is bound to (None for printed cards and
/// unbound slots).
#[inline]
pub fn data_row(c: Card) -> Option<&'static CardInfo> {
    let i = c as usize;
    if i < FIRST_DATA {
        return None;
    }
    let r = DATA_SLOT_ROW[i - FIRST_DATA].load(Ordering::Acquire);
    if r == UNBOUND {
        None
    } else {
        DATA_ROWS[r as usize].get()
    }
}

/// The arena row index of a bound data slot (the key of its compiled
/// program in `cards::data`).
#[inline]
pub fn data_row_index(c: Card) -> Option<usize> {
    let i = c as usize;
    if i < FIRST_DATA {
        return None;
    }
    let r = DATA_SLOT_ROW[i - FIRST_DATA].load(Ordering::Acquire);
    (r != UNBOUND).then_some(r as usize)
}

impl Card {
    /// The facts of this card: the static table row of a printed card, the
    /// bound row of a data card (a placeholder while its slot is unbound).
    #[inline]
    pub fn info(self) -> &'static CardInfo {
        let i = self as usize;
        if i < FIRST_DATA {
            &INFO[i]
        } else {
            data_row(self).unwrap_or(&INFO[i])
        }
    }
    /// A data card (bound or not).
    #[inline]
    pub fn is_data(self) -> bool {
        self as usize >= FIRST_DATA
    }
    /// A printed card, or a data card bound now: a card that can be named.
    #[inline]
    pub fn is_bound(self) -> bool {
        !self.is_data() || data_row_index(self).is_some()
    }
    /// Every printed card and every data card bound now, in id order.
    pub fn named() -> impl Iterator<Item = Card> {
        Card::ALL.iter().copied().filter(|c| c.is_bound())
    }
    #[inline]
    pub fn name(self) -> &'static str {
        self.info().name
    }
    #[inline]
    pub fn types(self) -> Types {
        Types(DENSE_TYPES[self as usize].load(Ordering::Relaxed))
    }
    #[inline]
    pub fn is(self, t: Types) -> bool {
        self.types().has(t)
    }
    /// Printed cost (`info().cost`, from a dense table).
    #[inline]
    pub fn cost(self) -> u8 {
        DENSE_COST[self as usize].load(Ordering::Relaxed) as u8
    }
    /// Money this card adds to a deck's total: a Treasure's value plus an
    /// Action's printed +$ (the strategy variable `total_money`).
    #[inline]
    pub fn money(self) -> u8 {
        DENSE_MONEY[self as usize].load(Ordering::Relaxed) as u8
    }
    #[inline]
    pub fn is_action(self) -> bool {
        self.is(Types::ACTION)
    }
    #[inline]
    pub fn is_treasure(self) -> bool {
        self.is(Types::TREASURE)
    }
    #[inline]
    pub fn is_victory(self) -> bool {
        self.is(Types::VICTORY)
    }
    #[inline]
    pub fn from_index(i: usize) -> Option<Card> {
        Card::ALL.get(i).copied()
    }
    /// True for cards that are chosen as one of the 10 Kingdom piles (not
    /// the members of the Knights/Ruins piles, non-Supply cards or Shelters).
    pub fn is_kingdom(self) -> bool {
        self.is_bound()
            && self.info().set != Set::Basic
            && matches!(
                self.info().pile,
                PileRule::Kingdom | PileRule::Fixed(_) | PileRule::KnightsPile
            )
    }
    /// Exact (case-, space- and punctuation-insensitive) name lookup.
    pub fn from_name(name: &str) -> Option<Card> {
        // Compared char by char, without a String per candidate: strategy
        // and card files look up every name they mention, and allocating
        // the normalised form of each of the ~200 names per lookup was half
        // of a short run's start-up.
        let key = normalize(name);
        Card::named().find(|c| normalized_chars(c.name()).eq(key.chars()))
    }
    /// The closest card name, for "did you mean" messages.
    pub fn suggest(name: &str) -> Option<Card> {
        let key = normalize(name);
        let mut best: Option<(usize, Card)> = None;
        for c in Card::named() {
            let d = edit_distance(&key, &normalize(c.name()));
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        // Only suggest something reasonably close.
        best.filter(|&(d, c)| d <= 2.max(c.name().len() / 3))
            .map(|(_, c)| c)
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lower-case, keep only letters and digits: "Throne Room", "throne_room" and
/// "ThroneRoom" are the same name.
pub fn normalize(s: &str) -> String {
    normalized_chars(s).collect()
}

/// The characters of [`normalize`]`(s)`, without collecting them.
fn normalized_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
}

/// Words longer than this (in bytes, so more than 64 characters) are near
/// no name: [`edit_distance`] does not compare them. Comparing a
/// megabyte-long word with every card name took seconds per name.
pub const SUGGEST_MAX_BYTES: usize = 256;

/// Levenshtein distance (for suggestions; never on the hot path). Past
/// [`SUGGEST_MAX_BYTES`] it answers "far" (`usize::MAX / 2`) at once.
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.len() > SUGGEST_MAX_BYTES || b.len() > SUGGEST_MAX_BYTES {
        return usize::MAX / 2;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// `BIT[id]` = the mask of one card. With more than 64 cards a variable
/// `1u128 << id` compiles to a two-word shift with branches; a table load is
/// cheaper on the hot paths (`hand_kinds`, `contains`).
static BIT: [u128; Card::COUNT] = {
    let mut t = [0u128; Card::COUNT];
    let mut i = 0;
    while i < Card::COUNT {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// A set of card kinds as a 128-bit mask. Used for the legal answers of a
/// decision, the piles of a kingdom, type filters: no allocation, O(1) tests.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(pub u128);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    #[inline]
    pub const fn one(c: Card) -> CardSet {
        CardSet(1u128 << c as u8)
    }
    #[inline]
    pub fn contains(self, c: Card) -> bool {
        self.0 & BIT[c as usize] != 0
    }
    #[inline]
    pub fn insert(&mut self, c: Card) {
        self.0 |= BIT[c as usize];
    }
    #[inline]
    pub fn remove(&mut self, c: Card) {
        self.0 &= !BIT[c as usize];
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// The card with the lowest id, if any.
    #[inline]
    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card::ALL[self.0.trailing_zeros() as usize])
        }
    }
    /// The `i`-th card in id order.
    pub fn nth(self, i: usize) -> Option<Card> {
        self.iter().nth(i)
    }
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
    #[inline]
    pub fn and(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
    #[inline]
    pub fn or(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    #[inline]
    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    /// Every card having any of the given types (computed at compile time).
    pub const fn of_type(t: Types) -> CardSet {
        let mut m = 0u128;
        let mut i = 0;
        while i < Card::COUNT {
            if TABLE[i].types.0 & t.0 != 0 {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    }
    /// Terminal Actions: Action cards whose card-table +Actions is 0 (the
    /// strategy vocabulary's `Terminal`; a card whose +Action is a choice or
    /// a condition, such as Nobles, Pawn or Ironworks, counts as terminal).
    const P_TERMINAL: CardSet = {
        let mut m = 0u128;
        let mut i = 0;
        while i < Card::COUNT {
            if TABLE[i].types.0 & Types::ACTION.0 != 0 && TABLE[i].actions == 0 {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    };
    /// Every card whose printed cost is at most `x` (computed at compile time).
    pub const fn printed_cost_at_most(x: u8) -> CardSet {
        let mut m = 0u128;
        let mut i = 0;
        // Printed cards only: the data slots join by `cost_at_most`.
        while i < FIRST_DATA {
            if TABLE[i].cost <= x {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    }
    /// `COST_AT_MOST[x]`: cards with printed cost ≤ x, for x in 0..=16 (a
    /// lookup replaces a scan of the Supply when asking what is affordable).
    const P_COST_AT_MOST: [CardSet; 17] = {
        let mut t = [CardSet(0); 17];
        let mut x = 0;
        while x < 17 {
            t[x] = CardSet::printed_cost_at_most(x as u8);
            x += 1;
        }
        t
    };
    /// Treasures with a "when you play this" effect (their play order may matter).
    const P_TREASURES_WITH_EFFECT: CardSet = {
        let mut m = 0u128;
        let mut i = 0;
        while i < Card::COUNT {
            if TABLE[i].types.0 & Types::TREASURE.0 != 0 && TABLE[i].effect {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    };
    /// Cards that can be worth VP at game end (Victory and Curse types).
    const P_SCORING: CardSet = CardSet::of_type(Types(Types::VICTORY.0 | Types::CURSE.0));
    const P_ACTIONS: CardSet = CardSet::of_type(Types::ACTION);
    const P_TREASURES: CardSet = CardSet::of_type(Types::TREASURE);
    const P_VICTORIES: CardSet = CardSet::of_type(Types::VICTORY);
    const P_REACTIONS: CardSet = CardSet::of_type(Types::REACTION);
    const P_ATTACKS: CardSet = CardSet::of_type(Types::ATTACK);
    /// Reactions revealed against an Attack (derived from [`Hooks::ATTACK_REACTION`];
    /// Market Square and Hovel react to other events).
    const P_ATTACK_REACTIONS: CardSet = CardSet::with_hook(Hooks::ATTACK_REACTION);
    pub const LOOTERS: CardSet = CardSet::of_type(Types::LOOTER);
    /// The ten Knights (members of the Knights pile).
    pub const KNIGHTS: CardSet = CardSet::of_type(Types::KNIGHT);
    /// The five Ruins (members of the Ruins pile).
    pub const RUINS: CardSet = CardSet::of_type(Types::RUINS);
    pub const SHELTERS: CardSet = CardSet::of_type(Types::SHELTER);
    /// Cards of a pile of distinct cards, and the two pile pseudo-cards.
    pub const DISTINCT: CardSet =
        CardSet::of_type(Types(Types::KNIGHT.0 | Types::RUINS.0 | Types::PILE.0));
    /// The pile pseudo-cards (Knights, Ruins).
    pub const PILES: CardSet = CardSet::of_type(Types::PILE);
    /// Cards with a "when you trash this" ability (RULES §9), derived from
    /// [`Hooks::ON_TRASH`].
    const P_ON_TRASH: CardSet = CardSet::with_hook(Hooks::ON_TRASH);
    /// Cards whose table row has hook `h`.
    pub const fn with_hook(h: Hooks) -> CardSet {
        let mut m = 0u128;
        let mut i = 0;
        while i < Card::COUNT {
            if TABLE[i].hooks.has(h) {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    }
    /// Cards of the Dark Ages set (for the Shelters rule).
    pub const DARK_AGES: CardSet = {
        let mut m = 0u128;
        let mut i = 0;
        while i < Card::COUNT {
            if matches!(TABLE[i].set, Set::DarkAges) {
                m |= 1u128 << i;
            }
            i += 1;
        }
        CardSet(m)
    };
    /// Every card in the table.
    pub fn all() -> CardSet {
        CardSet(if Card::COUNT == 128 {
            u128::MAX
        } else {
            (1u128 << Card::COUNT) - 1
        })
    }
    /// scoring: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn scoring() -> CardSet {
        CardSet(Self::P_SCORING.0 | dyn_mask(D_SCORING))
    }
    /// actions: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn actions() -> CardSet {
        CardSet(Self::P_ACTIONS.0 | dyn_mask(D_ACTIONS))
    }
    /// treasures: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn treasures() -> CardSet {
        CardSet(Self::P_TREASURES.0 | dyn_mask(D_TREASURES))
    }
    /// victories: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn victories() -> CardSet {
        CardSet(Self::P_VICTORIES.0 | dyn_mask(D_VICTORIES))
    }
    /// reactions: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn reactions() -> CardSet {
        CardSet(Self::P_REACTIONS.0 | dyn_mask(D_REACTIONS))
    }
    /// attacks: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn attacks() -> CardSet {
        CardSet(Self::P_ATTACKS.0 | dyn_mask(D_ATTACKS))
    }
    /// attack reactions: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn attack_reactions() -> CardSet {
        CardSet(Self::P_ATTACK_REACTIONS.0 | dyn_mask(D_ATTACK_REACTIONS))
    }
    /// on trash: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn on_trash() -> CardSet {
        CardSet(Self::P_ON_TRASH.0 | dyn_mask(D_ON_TRASH))
    }
    /// terminal: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn terminal() -> CardSet {
        CardSet(Self::P_TERMINAL.0 | dyn_mask(D_TERMINAL))
    }
    /// treasures with effect: the printed cards' mask and the bound data cards.
    #[inline(always)]
    pub fn treasures_with_effect() -> CardSet {
        CardSet(Self::P_TREASURES_WITH_EFFECT.0 | dyn_mask(D_TREASURES_WITH_EFFECT))
    }
    /// Cards whose printed cost is at most `x` (0..=16; clamped), data cards included.
    #[inline(always)]
    pub fn cost_at_most(x: usize) -> CardSet {
        let x = x.min(16);
        CardSet(Self::P_COST_AT_MOST[x].0 | (DATA_COST[x].load(Ordering::Relaxed) as u128) << 64)
    }
    /// Every card having any of the types `t`, the data cards bound now
    /// included (`of_type` is the printed cards' compile-time mask).
    pub fn of_types(t: Types) -> CardSet {
        let mut s = CardSet::of_type(t);
        for (i, ty) in DENSE_TYPES.iter().enumerate().skip(FIRST_DATA) {
            if Types(ty.load(Ordering::Relaxed)).has(t) {
                s.insert(Card::ALL[i]);
            }
        }
        s
    }
    /// Every data card bound now.
    #[inline]
    pub fn data_bound() -> CardSet {
        CardSet(dyn_mask(D_BOUND))
    }
    /// Every data-card slot, bound or not.
    pub const DATA_SLOTS: CardSet = CardSet(((1u128 << DATA_SLOTS) - 1) << FIRST_DATA);
    /// Cards with a "when you gain this" ability: the printed ones from their
    /// table rows ([`Hooks::ON_GAIN`]), and every data slot (a data card's
    /// `on_gain` program may be empty: its hook then does nothing).
    pub const ON_GAIN: CardSet =
        CardSet(CardSet::with_hook(Hooks::ON_GAIN).0 | CardSet::DATA_SLOTS.0);
    /// Reactions used when one of their owner's cards is trashed (Market Square).
    pub const TRASH_REACTIONS: CardSet = CardSet::with_hook(Hooks::TRASH_REACTION);
    /// Reactions used when their owner buys a card (Hovel).
    pub const BUY_REACTIONS: CardSet = CardSet::with_hook(Hooks::BUY_REACTION);
    /// Cards that, in play, react to their owner playing another Attack (Urchin).
    pub const ATTACK_PLAYED: CardSet = CardSet::with_hook(Hooks::ATTACK_PLAYED);
    /// Cards with a "when you discard this from play" ability (Hermit).
    pub const DISCARD_FROM_PLAY: CardSet = CardSet::with_hook(Hooks::DISCARD_FROM_PLAY);
    /// Cards played as another card (Band of Misfits).
    pub const PLAYS_AS: CardSet = CardSet::with_hook(Hooks::PLAYS_AS);

    /// The `N` cards of this set in id order, as an array (compile time:
    /// `CardSet::SHELTERS.members::<3>()`). Panics at compile time if the set
    /// does not hold exactly `N` cards.
    pub const fn members<const N: usize>(self) -> [Card; N] {
        let mut out = [Card::Copper; N];
        let mut n = 0;
        let mut i = 0;
        while i < Card::COUNT {
            if self.0 >> i & 1 != 0 {
                assert!(n < N, "the set has more members than asked");
                out[n] = Card::ALL[i];
                n += 1;
            }
            i += 1;
        }
        assert!(n == N, "the set has fewer members than asked");
        out
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(it: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}

pub struct CardSetIter(u128);
impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card::ALL[i as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass Treasure play reads `PLAY_ALL`: the top bit for exactly
    /// the printed Treasures, their value below it, nothing for the others
    /// (a Victory card's coins must not count) nor for the data slots (a
    /// data Treasure is played one at a time).
    #[test]
    fn play_all_is_the_treasure_flag_and_value_of_every_card() {
        for &c in Card::ALL.iter() {
            let i = c as usize;
            let want = if c.info().types.has(Types::TREASURE) && i < FIRST_DATA {
                0x80 | c.info().value
            } else {
                0
            };
            assert_eq!(PLAY_ALL[i], want, "{c:?}");
        }
        assert_eq!(PLAY_ALL[Card::Gold as usize], 0x83);
        assert_eq!(PLAY_ALL[Card::Province as usize], 0);
    }

    /// The table is a leaf: it imports nothing but the standard library, so
    /// no circle runs through it (the engine and the handlers import it).
    #[test]
    fn the_card_table_imports_nothing_from_the_crate() {
        let src = include_str!("table.rs");
        let code = src.split("#[cfg(test)]").next().unwrap_or(src);
        for (n, line) in code.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("use ") || l.starts_with("pub use ") {
                assert!(
                    l.contains("std::") || l.starts_with("use PileRule::*"),
                    "table.rs:{}: `{l}` imports from outside the table",
                    n + 1
                );
            }
            assert!(
                !l.contains("crate::") || l.starts_with("//"),
                "table.rs:{}: `{l}` names the crate",
                n + 1
            );
        }
    }

    /// Every Reaction has exactly one reaction hook, and only Reactions do;
    /// the derived lists are what the rules name.
    #[test]
    fn reactions_triggers_and_on_trash_come_from_the_hooks() {
        let reaction_hooks = [
            Hooks::ATTACK_REACTION,
            Hooks::TRASH_REACTION,
            Hooks::BUY_REACTION,
        ];
        for &c in Card::ALL {
            let h = c.info().hooks;
            let n = reaction_hooks.iter().filter(|&&r| h.has(r)).count();
            if c.is(Types::REACTION) {
                assert_eq!(n, 1, "{c}: a Reaction needs exactly one reaction hook");
            } else {
                assert_eq!(n, 0, "{c}: a reaction hook on a non-Reaction");
            }
        }
        let names = |s: CardSet| s.iter().map(|c| c.name()).collect::<Vec<_>>();
        assert_eq!(
            names(CardSet::attack_reactions()),
            ["Moat", "Secret Chamber", "Beggar"]
        );
        assert_eq!(
            names(CardSet::on_trash()),
            [
                "Catacombs",
                "Cultist",
                "Feodum",
                "Fortress",
                "Hunting Grounds",
                "Rats",
                "Squire",
                "Sir Vander",
                "Overgrown Estate"
            ]
        );
        assert_eq!(names(CardSet::TRASH_REACTIONS), ["Market Square"]);
        assert_eq!(names(CardSet::BUY_REACTIONS), ["Hovel"]);
        assert_eq!(names(CardSet::ATTACK_PLAYED), ["Urchin"]);
        assert_eq!(names(CardSet::DISCARD_FROM_PLAY), ["Hermit"]);
        assert_eq!(names(CardSet::PLAYS_AS), ["Band of Misfits"]);
        assert_eq!(
            names(CardSet::ON_GAIN.minus(CardSet::DATA_SLOTS)),
            ["Death Cart"]
        );
        assert_eq!(CardSet::DATA_SLOTS.len(), DATA_SLOTS);
        assert_eq!(CardSet::DATA_SLOTS.first(), Some(Card::Data1));
        assert_eq!(
            CardSet::SHELTERS.members::<3>(),
            [Card::Hovel, Card::Necropolis, Card::OvergrownEstate]
        );
    }

    /// Every non-Supply pile is the companion of some Kingdom card, and
    /// companions are non-Supply piles.
    #[test]
    fn companion_piles_come_from_the_table() {
        for &c in Card::ALL {
            if let Some(p) = c.info().companion {
                assert!(
                    matches!(p.info().pile, PileRule::NonSupply(_)),
                    "{c} -> {p}"
                );
            }
            if matches!(c.info().pile, PileRule::NonSupply(_)) {
                assert!(
                    Card::ALL.iter().any(|k| k.info().companion == Some(c)),
                    "{c}: no card brings this pile"
                );
            }
        }
    }
}
