//! Recommended 10-card kingdoms printed in the three rulebooks
//! (/work/shared/seeds: 003 base game, 002 Intrigue, 001 Dark Ages; all French
//! editions), under their English names, as data.
//!
//! The French rulebooks name the cards in French; they are translated here to
//! the English card names of the card table. The Dark Ages rulebook also lists
//! kingdoms that mix Dark Ages with Seaside, Alchemy, Prosperity, Cornucopia and
//! Hinterlands; they are kept (the rulebook prints them) but domsim does not
//! cover those sets, so they report which cards are missing.

use crate::cards::{normalize, Card};
use crate::engine::{Kingdom, SetupError};

/// One recommended kingdom.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// English name.
    pub name: &'static str,
    /// Which rulebook prints it, and the French name there.
    pub source: &'static str,
    /// The 10 Kingdom cards, by English name.
    pub cards: [&'static str; 10],
}

macro_rules! presets {
    ($($name:literal, $src:literal: [$($c:literal),* $(,)?];)*) => {
        /// Every preset, in rulebook order.
        pub const PRESETS: &[Preset] = &[$(Preset { name: $name, source: $src, cards: [$($c),*] }),*];
    };
}

presets! {
    // Base game rulebook (003), "Les premières parties" etc.
    "First Game", "base rulebook: Les premières parties":
        ["Cellar", "Market", "Militia", "Mine", "Moat", "Remodel", "Smithy", "Village", "Woodcutter", "Workshop"];
    "Big Money", "base rulebook: Richesses et trésors":
        ["Adventurer", "Bureaucrat", "Chancellor", "Chapel", "Feast", "Laboratory", "Market", "Mine", "Moneylender", "Throne Room"];
    "Interaction", "base rulebook: Interaction":
        ["Bureaucrat", "Chancellor", "Council Room", "Festival", "Library", "Militia", "Moat", "Spy", "Thief", "Village"];
    "Size Distortion", "base rulebook: Changement de taille":
        ["Cellar", "Chapel", "Feast", "Gardens", "Laboratory", "Thief", "Village", "Witch", "Woodcutter", "Workshop"];
    "Village Square", "base rulebook: Place du village":
        ["Bureaucrat", "Cellar", "Festival", "Library", "Market", "Remodel", "Smithy", "Throne Room", "Village", "Woodcutter"];
    // Intrigue rulebook (002).
    "Victory Dance", "Intrigue rulebook: Danse de la victoire":
        ["Bridge", "Duke", "Great Hall", "Harem", "Ironworks", "Masquerade", "Nobles", "Pawn", "Scout", "Upgrade"];
    "Secret Schemes", "Intrigue rulebook: Manigances":
        ["Conspirator", "Harem", "Ironworks", "Pawn", "Saboteur", "Shanty Town", "Steward", "Swindler", "Trading Post", "Tribute"];
    "Best Wishes", "Intrigue rulebook: Meilleurs vœux":
        ["Coppersmith", "Courtyard", "Masquerade", "Scout", "Shanty Town", "Steward", "Torturer", "Trading Post", "Upgrade", "Wishing Well"];
    "Deconstruction", "Intrigue rulebook: Déconstruction (Intrigue + base)":
        ["Bridge", "Mining Village", "Remodel", "Saboteur", "Secret Chamber", "Spy", "Swindler", "Thief", "Throne Room", "Torturer"];
    "Hand Madness", "Intrigue rulebook: La corruption du pouvoir (Intrigue + base)":
        ["Bureaucrat", "Chancellor", "Council Room", "Courtyard", "Mine", "Militia", "Minion", "Nobles", "Steward", "Torturer"];
    "Underlings", "Intrigue rulebook: Subalternes (Intrigue + base)":
        ["Baron", "Cellar", "Festival", "Library", "Masquerade", "Minion", "Nobles", "Pawn", "Steward", "Witch"];
    // Dark Ages rulebook (001).
    "Grim Parade", "Dark Ages rulebook: Défilé funeste":
        ["Armory", "Band of Misfits", "Catacombs", "Cultist", "Forager", "Fortress", "Hunting Grounds", "Knights", "Market Square", "Procession"];
    "Playing Chess with Death", "Dark Ages rulebook: Jouer aux échecs avec la mort":
        ["Bandit Camp", "Graverobber", "Junk Dealer", "Mystic", "Pillage", "Rats", "Sage", "Scavenger", "Storeroom", "Vagrant"];
    "High and Low", "Dark Ages rulebook: Les hauts et les bas (Dark Ages + base)":
        ["Hermit", "Hunting Grounds", "Mystic", "Poor House", "Wandering Minstrel", "Cellar", "Moneylender", "Throne Room", "Witch", "Workshop"];
    "Chivalry and Revelry", "Dark Ages rulebook: Chevalerie et réjouissance (Dark Ages + base)":
        ["Altar", "Knights", "Rats", "Scavenger", "Squire", "Festival", "Gardens", "Laboratory", "Library", "Remodel"];
    "Prophecy", "Dark Ages rulebook: Prophétie (Dark Ages + Intrigue)":
        ["Armory", "Ironmonger", "Mystic", "Rebuild", "Vagrant", "Baron", "Conspirator", "Great Hall", "Nobles", "Wishing Well"];
    "Invasion", "Dark Ages rulebook: Invasion (Dark Ages + Intrigue)":
        ["Beggar", "Marauder", "Rogue", "Squire", "Urchin", "Harem", "Mining Village", "Swindler", "Torturer", "Upgrade"];
    "Watery Graves", "Dark Ages rulebook: Tombes aquatiques (Dark Ages + Seaside)":
        ["Count", "Graverobber", "Hermit", "Scavenger", "Urchin", "Native Village", "Pirate Ship", "Salvager", "Treasure Map", "Treasury"];
    "Peasants", "Dark Ages rulebook: Paysans (Dark Ages + Seaside)":
        ["Death Cart", "Feodum", "Poor House", "Urchin", "Vagrant", "Fishing Village", "Haven", "Island", "Lookout", "Warehouse"];
    "Infestations", "Dark Ages rulebook: Infestations (Dark Ages + Alchemy)":
        ["Armory", "Cultist", "Feodum", "Market Square", "Rats", "Wandering Minstrel", "Apprentice", "Scrying Pool", "Transmute", "Vineyard"];
    "Lamentations", "Dark Ages rulebook: Lamentations (Dark Ages + Alchemy)":
        ["Beggar", "Catacombs", "Counterfeit", "Forager", "Ironmonger", "Pillage", "Apothecary", "Golem", "Herbalist", "University"];
    "One Man's Trash", "Dark Ages rulebook: Le malheur des uns (Dark Ages + Prosperity)":
        ["Counterfeit", "Forager", "Graverobber", "Market Square", "Rogue", "City", "Grand Market", "Monument", "Talisman", "Venture"];
    "Honor Among Thieves", "Dark Ages rulebook: Les loups ne se mangent pas entre eux (Dark Ages + Prosperity)":
        ["Bandit Camp", "Procession", "Rebuild", "Rogue", "Squire", "Forge", "Hoard", "Peddler", "Quarry", "Watchtower"];
    "Dark Carnival", "Dark Ages rulebook: Sombre carnaval (Dark Ages + Cornucopia)":
        ["Band of Misfits", "Cultist", "Fortress", "Hermit", "Junk Dealer", "Knights", "Fairgrounds", "Hamlet", "Horn of Plenty", "Menagerie"];
    "To the Victor", "Dark Ages rulebook: Honneur au vainqueur (Dark Ages + Cornucopia)":
        ["Bandit Camp", "Counterfeit", "Death Cart", "Marauder", "Pillage", "Sage", "Harvest", "Hunting Party", "Remake", "Tournament"];
    "Far From Home", "Dark Ages rulebook: Loin de la maison (Dark Ages + Hinterlands)":
        ["Beggar", "Count", "Feodum", "Marauder", "Wandering Minstrel", "Cartographer", "Develop", "Embassy", "Fool's Gold", "Haggler"];
    "Expeditions", "Dark Ages rulebook: Expéditions (Dark Ages + Hinterlands)":
        ["Altar", "Catacombs", "Ironmonger", "Poor House", "Storeroom", "Crossroads", "Farmland", "Highway", "Spice Merchant", "Tunnel"];
}

/// Why a preset cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    #[error("unknown preset '{name}'{}; `domsim presets` lists them", suggestion.map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default())]
    Unknown {
        name: String,
        suggestion: Option<&'static str>,
    },
    #[error("preset '{name}' is not available yet: needs {}{note}", missing.join(", "))]
    NotAvailable {
        name: &'static str,
        missing: Vec<&'static str>,
        /// Which missing cards domsim will never have (other expansions).
        note: String,
    },
    #[error("preset '{name}': {err}")]
    Setup { name: &'static str, err: SetupError },
}

impl Preset {
    /// Find a preset by name (case, spaces and punctuation ignored).
    pub fn find(name: &str) -> Result<&'static Preset, PresetError> {
        let key = normalize(name);
        if let Some(p) = PRESETS.iter().find(|p| normalize(p.name) == key) {
            return Ok(p);
        }
        let suggestion = PRESETS
            .iter()
            .map(|p| {
                (
                    crate::cards::edit_distance(&key, &normalize(p.name)),
                    p.name,
                )
            })
            .min()
            .filter(|&(d, n)| d <= 3.max(n.len() / 3))
            .map(|(_, n)| n);
        Err(PresetError::Unknown {
            name: name.trim().to_string(),
            suggestion,
        })
    }

    /// The cards of this preset that the card table does not have (yet).
    pub fn missing(&self) -> Vec<&'static str> {
        self.cards
            .iter()
            .copied()
            .filter(|c| Card::from_name(c).is_none())
            .collect()
    }

    /// Whether every card is implemented.
    pub fn available(&self) -> bool {
        self.missing().is_empty()
    }

    /// The kingdom for `players`, or which cards are missing.
    pub fn kingdom(&self, players: usize) -> Result<Kingdom, PresetError> {
        let missing = self.missing();
        if !missing.is_empty() {
            let other = [
                "Seaside",
                "Alchemy",
                "Prosperity",
                "Cornucopia",
                "Hinterlands",
            ]
            .into_iter()
            .find(|s| self.source.contains(s));
            let note = other
                .map(|s| format!(" ({s} cards are not part of domsim, which covers base, Intrigue and Dark Ages)"))
                .unwrap_or_default();
            return Err(PresetError::NotAvailable {
                name: self.name,
                missing,
                note,
            });
        }
        Kingdom::from_names(players, &self.cards).map_err(|err| PresetError::Setup {
            name: self.name,
            err,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_well_formed() {
        assert_eq!(PRESETS.len(), 27);
        for p in PRESETS {
            let mut v: Vec<String> = p.cards.iter().map(|c| normalize(c)).collect();
            v.sort();
            v.dedup();
            assert_eq!(v.len(), 10, "{} has a duplicate card", p.name);
            if p.available() {
                p.kingdom(2).unwrap();
            }
        }
        let names: std::collections::HashSet<_> = PRESETS.iter().map(|p| p.name).collect();
        assert_eq!(names.len(), PRESETS.len());
    }

    #[test]
    fn base_presets_are_available() {
        for name in [
            "First Game",
            "Big Money",
            "Interaction",
            "Size Distortion",
            "Village Square",
        ] {
            let k = Preset::find(name).unwrap().kingdom(2).unwrap();
            assert_eq!(k.kingdom.len(), 10);
        }
        assert_eq!(Preset::find("first-game").unwrap().name, "First Game");
    }

    #[test]
    fn unknown_and_unavailable() {
        let e = Preset::find("Frist Game").unwrap_err();
        assert!(e.to_string().contains("did you mean 'First Game'"), "{e}");
        let e = Preset::find("Watery Graves")
            .unwrap()
            .kingdom(2)
            .unwrap_err();
        assert!(e.to_string().contains("not available yet: needs"), "{e}");
        assert!(e.to_string().contains("Pirate Ship"), "{e}");
    }
}
