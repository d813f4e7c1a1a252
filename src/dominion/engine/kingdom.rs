//! Kingdom: the immutable, per-run description of a game's card pool and setup.

use super::rng::GameRng;
use super::zone::MAX_CARDS;
use crate::cards::{Card, CardSet, Hooks, Set};
use std::fmt;

pub const MAX_PLAYERS: usize = 6;
pub const MIN_PLAYERS: usize = 2;
/// Default turn cap: a game still running after this many turns of its first
/// player is stopped and marked `capped` (a stalled game, e.g. bots that never buy).
pub const DEFAULT_TURN_CAP: u16 = 100;

/// Why a kingdom or game configuration is not valid. Every variant names the
/// offending value; `Display` is the user-facing message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("unknown card '{name}'{}", did_you_mean(suggestion))]
    UnknownCard {
        name: String,
        suggestion: Option<&'static str>,
    },
    #[error("{0}")]
    OtherSet(String),
    #[error("'{0}' is a basic card, not a Kingdom card (Copper, Silver, Gold, Estate, Duchy, Province and Curse are always in the Supply)")]
    NotKingdom(&'static str),
    #[error("'{0}' is not a Kingdom pile: {1}")]
    NotAPile(&'static str, &'static str),
    #[error("'{0}' is listed twice in the kingdom")]
    Duplicate(&'static str),
    #[error("a kingdom has exactly 10 piles; {0} were given")]
    WrongCount(usize),
    #[error("a kingdom has at most 10 piles (a scenario may give 0 to 10); {0} were given")]
    TooManyPiles(usize),
    #[error("player count {0} is outside 2–6")]
    Players(usize),
    #[error(
        "not enough implemented Kingdom cards in the chosen sets ({have} available, 10 needed)"
    )]
    TooFewCards { have: usize },
    #[error("unknown card set '{0}' (expected one of: base, intrigue, dark-ages)")]
    UnknownSet(String),
    #[error("no card set in '{0}' has implemented cards")]
    EmptySet(String),
    /// The game's cards do not fit the engine's zones ([`MAX_CARDS`]): the
    /// message names the total, the bound, the data cards' piles and files.
    #[error("{0}")]
    TooManyCards(String),
}

pub(crate) fn did_you_mean(s: &Option<&'static str>) -> String {
    match s {
        Some(n) => format!(" (did you mean '{n}'?)"),
        None => String::new(),
    }
}

/// Look a card up by name, with a "did you mean" suggestion on failure.
pub fn parse_card(name: &str) -> Result<Card, SetupError> {
    // Names compare by letters and digits only ("throne_room"), but a
    // control character (a NUL in a damaged file) is not spelling: refused,
    // and shown escaped.
    if name.chars().any(char::is_control) {
        return Err(SetupError::UnknownCard {
            name: name.trim().escape_debug().to_string(),
            suggestion: Card::suggest(name).map(|c| c.name()),
        });
    }
    if Card::from_name(name).is_none() {
        if let Some((card, set)) = crate::cards::other_sets::other_set(name) {
            return Err(SetupError::OtherSet(crate::cards::other_sets::not_covered(
                card, set,
            )));
        }
    }
    Card::from_name(name).ok_or_else(|| SetupError::UnknownCard {
        name: name.trim().to_string(),
        suggestion: Card::suggest(name).map(|c| c.name()),
    })
}

/// Immutable per-run setup: player count, Supply piles and their sizes, end rule.
/// Plain data (`Copy`), embedded in every `Game`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Kingdom {
    pub players: u8,
    /// The Kingdom piles (10 in a real game; scenarios may use fewer).
    pub kingdom: CardSet,
    /// Every Supply pile of this game (basic + Kingdom).
    pub supply: CardSet,
    /// Every card kind that can appear in this game (Supply piles, starting
    /// cards, and for scenarios any card placed in a zone). Engine mechanisms
    /// skip work for kinds that cannot appear (e.g. no Reaction → no window).
    pub in_game: CardSet,
    /// Starting size of each Supply pile, indexed by card id.
    pub pile_size: [u8; Card::COUNT],
    /// Number of empty Supply piles that ends the game (3, or 4 with 5–6 players).
    pub end_piles: u8,
    /// Turn cap per player (see [`DEFAULT_TURN_CAP`]).
    pub turn_cap: u16,
    /// Non-Supply piles of this game (Spoils, Madman, Mercenary; RULES §3.4):
    /// created only when a card that names them is in the Kingdom, never
    /// counted for the end, gainable only through `Game::gain_non_supply`.
    pub non_supply: CardSet,
    /// Shelters forced on (`Some(true)`) or off (`Some(false)`); `None` = the
    /// random rule of RULES §3.3, drawn from the game's RNG.
    pub shelters: Option<bool>,
    /// Every hook ([`Hooks`]) of a card that can appear: the engine runs a
    /// trigger mechanism only when some card of the game has its hook.
    pub hooks: Hooks,
    /// The cards of this game with a "when you gain this" ability
    /// ([`CardSet::ON_GAIN`] ∩ `in_game`).
    pub on_gain: CardSet,
    /// Count each seat's gains and the buys of the current turn (strategy
    /// variables `gained_this_turn`, `bought_this_turn`). Off unless a
    /// strategy of the run uses them ([`crate::dominion::lineup::Lineup::kingdom_for`]):
    /// counting on every gain costs every game about 3%.
    pub track_turn: bool,
    /// The Supply piles as a list (`supply` in id order, `n_piles` of them):
    /// loops over every pile (the strategy variable `gains_to_end`) read a
    /// short array instead of walking a 128-bit mask.
    /// Private: derived from `supply` once, when the Kingdom is built (the
    /// invariant check compares them).
    piles: [Card; MAX_SUPPLY_PILES],
    n_piles: u8,
}

/// Most Supply piles a game can have: 7 basic, 10 Kingdom, Ruins.
pub const MAX_SUPPLY_PILES: usize = 18;

impl fmt::Debug for Kingdom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kingdom")
            .field("players", &self.players)
            .field("kingdom", &self.kingdom)
            .finish()
    }
}

impl Kingdom {
    /// The Supply piles, in id order (the members of `supply`).
    #[inline]
    pub fn supply_piles(&self) -> &[Card] {
        &self.piles[..self.n_piles as usize]
    }

    /// A real game: exactly 10 distinct Kingdom cards, 2–6 players.
    pub fn new(players: usize, cards: &[Card]) -> Result<Kingdom, SetupError> {
        if cards.len() != 10 {
            return Err(SetupError::WrongCount(cards.len()));
        }
        Kingdom::with_piles(players, cards)
    }

    /// Like [`Kingdom::new`] but with any number (0–10) of Kingdom piles: for
    /// scenarios and tests that only need the piles they use.
    pub fn with_piles(players: usize, cards: &[Card]) -> Result<Kingdom, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::Players(players));
        }
        if cards.len() > 10 {
            return Err(SetupError::TooManyPiles(cards.len()));
        }
        let mut kingdom = CardSet::EMPTY;
        for &c in cards {
            if !c.is_kingdom() {
                let why = if CardSet::KNIGHTS.contains(c) {
                    "it is one card of the Knights pile (use 'Knights')"
                } else if CardSet::RUINS.contains(c) || c == Card::Ruins {
                    "the Ruins pile comes with a Looter (Cultist, Death Cart, Marauder)"
                } else if CardSet::SHELTERS.contains(c) {
                    "Shelters replace the starting Estates (see the Shelters option)"
                } else if matches!(c.info().pile, crate::cards::PileRule::NonSupply(_)) {
                    "it is a non-Supply card (Spoils come with Bandit Camp, Marauder or Pillage; Madman with Hermit; Mercenary with Urchin)"
                } else {
                    return Err(SetupError::NotKingdom(c.name()));
                };
                return Err(SetupError::NotAPile(c.name(), why));
            }
            if kingdom.contains(c) {
                return Err(SetupError::Duplicate(c.name()));
            }
            kingdom.insert(c);
        }
        let mut supply = kingdom;
        for c in BASIC {
            supply.insert(c);
        }
        // Dark Ages special piles (RULES §3.4).
        let mut in_game = supply;
        if !kingdom.and(CardSet::LOOTERS).is_empty() {
            supply.insert(Card::Ruins);
            in_game = in_game.or(CardSet::RUINS).or(CardSet::one(Card::Ruins));
        }
        if kingdom.contains(Card::Knights) {
            in_game = in_game.or(CardSet::KNIGHTS);
        }
        let mut non_supply = CardSet::EMPTY;
        // Companion piles come from the card table (`companion` in a row).
        for c in kingdom.iter() {
            if let Some(pile) = c.info().companion {
                non_supply.insert(pile);
            }
        }
        in_game = in_game.or(non_supply);
        if !kingdom.and(CardSet::DARK_AGES).is_empty() {
            in_game = in_game.or(CardSet::SHELTERS);
        }
        let mut pile_size = [0u8; Card::COUNT];
        for c in supply.or(non_supply).iter() {
            pile_size[c as usize] = c.info().pile.size(players, c.is_victory());
        }
        let mut k = Kingdom {
            players: players as u8,
            kingdom,
            supply,
            in_game,
            pile_size,
            end_piles: if players >= 5 { 4 } else { 3 },
            turn_cap: DEFAULT_TURN_CAP,
            non_supply,
            shelters: None,
            hooks: Hooks::NONE,
            on_gain: CardSet::EMPTY,
            track_turn: false,
            piles: [Card::Copper; MAX_SUPPLY_PILES],
            n_piles: 0,
        };
        for c in supply.iter() {
            k.piles[k.n_piles as usize] = c;
            k.n_piles += 1;
        }
        k.refresh_flags();
        // Checked in every build: a zone holds `MAX_CARDS` cards, and a
        // player may end up holding every card of the game in one zone.
        if k.total_cards() > MAX_CARDS {
            return Err(SetupError::TooManyCards(k.too_many_cards()));
        }
        Ok(k)
    }

    /// The message of [`SetupError::TooManyCards`]: the total and the
    /// bound, the data cards' piles (the only piles that can go past it)
    /// with their card files, and the largest `pile` that would fit.
    fn too_many_cards(&self) -> String {
        let total = self.total_cards();
        let start = 10 * self.n();
        let mut data: Vec<(Card, usize)> = self
            .kingdom
            .iter()
            .filter(|c| c.info().set == Set::Data)
            .map(|c| (c, self.pile_size[c as usize] as usize))
            .collect();
        data.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        let mut msg = format!(
            "this {}-player game would hold {total} cards ({} in its piles, {start} in the starting decks), more than the {MAX_CARDS} the engine holds in one game",
            self.n(),
            total - start,
        );
        if !data.is_empty() {
            let mut files: Vec<String> = data
                .iter()
                .filter_map(|&(c, _)| crate::cards::data::file_of(c))
                .collect();
            files.sort();
            files.dedup();
            let piles: Vec<String> = data
                .iter()
                .map(|&(c, n)| format!("{} {n}", c.name()))
                .collect();
            let in_data: usize = data.iter().map(|&(_, n)| n).sum();
            let room = MAX_CARDS.saturating_sub(total - in_data) / data.len();
            msg.push_str(&format!(
                "; the data cards' piles ({}{}) hold {in_data}: give them a smaller `pile` (at most {room} each fits with {} players), or play fewer data cards or fewer players",
                piles.join(", "),
                if files.is_empty() {
                    String::new()
                } else {
                    format!(", from {}", files.join(", "))
                },
                self.n()
            ));
        }
        msg
    }

    /// Parse a kingdom from card names (exactly 10).
    pub fn from_names<S: AsRef<str>>(players: usize, names: &[S]) -> Result<Kingdom, SetupError> {
        let cards = names
            .iter()
            .map(|n| parse_card(n.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Kingdom::new(players, &cards)
    }

    /// 10 Kingdom cards drawn uniformly from the implemented cards of `sets`.
    pub fn random(players: usize, sets: &[Set], seed: u64) -> Result<Kingdom, SetupError> {
        let mut pool: Vec<Card> = Card::ALL
            .iter()
            .copied()
            .filter(|c| c.is_kingdom() && sets.contains(&c.info().set))
            .collect();
        if pool.len() < 10 {
            return Err(SetupError::TooFewCards { have: pool.len() });
        }
        let mut rng = GameRng::for_game(seed, u64::MAX);
        rng.shuffle(&mut pool);
        pool.truncate(10);
        pool.sort();
        Kingdom::new(players, &pool)
    }

    /// `10 - given.len()` Kingdom cards drawn uniformly (seeded) from the
    /// implemented cards of `sets` that are not in `given` and that `ok`
    /// accepts (`--fill`: cards no strategy of the run buys), sorted.
    pub fn fill_cards(
        given: &[Card],
        sets: &[Set],
        seed: u64,
        ok: impl Fn(Card) -> bool,
    ) -> Result<Vec<Card>, SetupError> {
        let want = 10usize.saturating_sub(given.len());
        let mut pool: Vec<Card> = Card::ALL
            .iter()
            .copied()
            .filter(|&c| {
                c.is_kingdom() && sets.contains(&c.info().set) && !given.contains(&c) && ok(c)
            })
            .collect();
        if pool.len() < want {
            return Err(SetupError::TooFewCards { have: pool.len() });
        }
        let mut rng = GameRng::for_game(seed, u64::MAX);
        rng.shuffle(&mut pool);
        pool.truncate(want);
        pool.sort();
        Ok(pool)
    }

    /// Parse a comma-separated list of set names.
    pub fn parse_sets(s: &str) -> Result<Vec<Set>, SetupError> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let key = crate::cards::normalize(part);
            let set = Set::ALL
                .into_iter()
                .filter(|&s| s != Set::Basic)
                .find(|s| crate::cards::normalize(s.name()) == key)
                .ok_or_else(|| SetupError::UnknownSet(part.to_string()))?;
            if !Card::ALL.iter().any(|c| c.info().set == set) {
                return Err(SetupError::EmptySet(part.to_string()));
            }
            out.push(set);
        }
        Ok(out)
    }

    pub fn n(&self) -> usize {
        self.players as usize
    }

    /// Recompute the derived flags after `in_game` changed (scenarios add
    /// the cards they place in zones).
    pub fn refresh_flags(&mut self) {
        let mut hooks = Hooks::NONE;
        for c in self.in_game.iter() {
            hooks = hooks.or(c.info().hooks);
        }
        self.on_gain = self.in_game.and(CardSet::ON_GAIN);
        if !self.on_gain.is_empty() {
            // Data cards are in `ON_GAIN` whatever their binding says (their
            // hook runs their `on_gain` program, if any).
            hooks = hooks.or(Hooks::ON_GAIN);
        }
        self.hooks = hooks;
    }

    /// Some card with a "when trashed" ability or a trash Reaction (Market
    /// Square) can appear: the engine then runs the trash-trigger mechanism
    /// (one test otherwise).
    #[inline]
    pub fn watch_trash(&self) -> bool {
        self.hooks.has(Hooks::ON_TRASH.or(Hooks::TRASH_REACTION))
    }

    /// The same kingdom set up again from the cards bound now: pile sizes
    /// and pile rules (a data card's `pile`, or its Victory type), the
    /// non-Supply piles, and the hooks ([`Kingdom::refresh_flags`]) are
    /// derived from card data, so a kingdom built under one binding of the
    /// data cards is wrong under another (`domsim compare`'s variant B).
    /// The settings (players, Kingdom piles, Shelters, turn cap, turn
    /// counters) and any card added to `in_game` are kept.
    pub fn rederived(&self) -> Result<Kingdom, SetupError> {
        let mut k = Kingdom::with_piles(self.n(), &self.kingdom_cards())?;
        k.turn_cap = self.turn_cap;
        k.track_turn = self.track_turn;
        k.end_piles = self.end_piles;
        k.shelters = self.shelters;
        k.in_game = k.in_game.or(self.in_game);
        k.refresh_flags();
        Ok(k)
    }

    /// Force Shelters on or off (`None`: the random rule of RULES §3.3).
    pub fn with_shelters(mut self, shelters: Option<bool>) -> Kingdom {
        self.shelters = shelters;
        if shelters == Some(true) {
            self.in_game = self.in_game.or(CardSet::SHELTERS);
        }
        self.refresh_flags();
        self
    }

    /// The Kingdom cards, in id order.
    pub fn kingdom_cards(&self) -> Vec<Card> {
        self.kingdom.iter().collect()
    }

    /// Cards in the game at setup: Supply piles plus starting decks.
    pub fn total_cards(&self) -> usize {
        let piles: usize = self.pile_size.iter().map(|&n| n as usize).sum();
        piles + 10 * self.n()
    }

    /// "Village, Smithy, ..." in id order.
    pub fn describe(&self) -> String {
        self.kingdom
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The 7 basic cards, always in the Supply.
pub const BASIC: [Card; 7] = [
    Card::Copper,
    Card::Silver,
    Card::Gold,
    Card::Estate,
    Card::Duchy,
    Card::Province,
    Card::Curse,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kingdom_validation() {
        let ten = [
            "Cellar",
            "Market",
            "Militia",
            "Mine",
            "Moat",
            "Remodel",
            "Smithy",
            "Village",
            "Woodcutter",
            "Workshop",
        ];
        let k = Kingdom::from_names(2, &ten).unwrap();
        assert_eq!(k.kingdom.len(), 10);
        assert_eq!(k.supply.len(), 17);
        assert_eq!(k.pile_size[Card::Copper as usize], 46);
        assert_eq!(k.end_piles, 3);
        assert_eq!(
            Kingdom::from_names(7, &ten).unwrap_err(),
            SetupError::Players(7)
        );
        assert_eq!(
            Kingdom::from_names(1, &ten).unwrap_err(),
            SetupError::Players(1)
        );
        assert_eq!(
            Kingdom::from_names(2, &ten[..9]).unwrap_err(),
            SetupError::WrongCount(9)
        );
        let mut dup = ten;
        dup[1] = "Cellar";
        assert_eq!(
            Kingdom::from_names(2, &dup).unwrap_err(),
            SetupError::Duplicate("Cellar")
        );
        let mut bad = ten;
        bad[0] = "Smithee";
        let e = Kingdom::from_names(2, &bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown card 'Smithee' (did you mean 'Smithy'?)"
        );
        let mut basic = ten;
        basic[0] = "Gold";
        assert!(matches!(
            Kingdom::from_names(2, &basic).unwrap_err(),
            SetupError::NotKingdom("Gold")
        ));
    }

    #[test]
    fn five_and_six_players() {
        let k = Kingdom::random(6, &[Set::Base], 1).unwrap();
        assert_eq!(k.end_piles, 4);
        assert_eq!(k.pile_size[Card::Province as usize], 18);
        assert_eq!(k.pile_size[Card::Curse as usize], 50);
        assert!(k.total_cards() <= MAX_CARDS);
    }

    #[test]
    fn random_kingdom_is_seeded() {
        let a = Kingdom::random(2, &[Set::Base], 7).unwrap();
        let b = Kingdom::random(2, &[Set::Base], 7).unwrap();
        assert_eq!(a.kingdom, b.kingdom);
        assert_eq!(a.kingdom.len(), 10);
    }
}
