//! Kingdom cards of the Dominion sets domsim does not cover, by set, so that
//! naming one says so ("Haven is a Seaside card") instead of suggesting a
//! look-alike of a covered set ("did you mean Harem?").

use super::normalize;

/// (set, its Kingdom cards and special cards), first editions.
pub const OTHER_SETS: [(&str, &[&str]); 7] = [
    (
        "Seaside",
        &[
            "Embargo",
            "Haven",
            "Lighthouse",
            "Native Village",
            "Pearl Diver",
            "Ambassador",
            "Fishing Village",
            "Lookout",
            "Smugglers",
            "Warehouse",
            "Caravan",
            "Cutpurse",
            "Island",
            "Navigator",
            "Pirate Ship",
            "Salvager",
            "Sea Hag",
            "Treasure Map",
            "Bazaar",
            "Explorer",
            "Ghost Ship",
            "Merchant Ship",
            "Outpost",
            "Tactician",
            "Treasury",
            "Wharf",
        ],
    ),
    (
        "Alchemy",
        &[
            "Transmute",
            "Vineyard",
            "Herbalist",
            "Apothecary",
            "Scrying Pool",
            "University",
            "Alchemist",
            "Familiar",
            "Philosopher's Stone",
            "Golem",
            "Apprentice",
            "Possession",
            "Potion",
        ],
    ),
    (
        "Prosperity",
        &[
            "Loan",
            "Trade Route",
            "Watchtower",
            "Bishop",
            "Monument",
            "Quarry",
            "Talisman",
            "Worker's Village",
            "City",
            "Contraband",
            "Counting House",
            "Mint",
            "Mountebank",
            "Rabble",
            "Royal Seal",
            "Vault",
            "Venture",
            "Goons",
            "Grand Market",
            "Hoard",
            "Bank",
            "Expand",
            "Forge",
            "King's Court",
            "Peddler",
            "Platinum",
            "Colony",
        ],
    ),
    (
        "Cornucopia",
        &[
            "Hamlet",
            "Fortune Teller",
            "Menagerie",
            "Farming Village",
            "Horse Traders",
            "Remake",
            "Tournament",
            "Young Witch",
            "Harvest",
            "Horn of Plenty",
            "Hunting Party",
            "Jester",
            "Fairgrounds",
        ],
    ),
    (
        "Hinterlands",
        &[
            "Crossroads",
            "Duchess",
            "Fool's Gold",
            "Develop",
            "Oasis",
            "Oracle",
            "Scheme",
            "Tunnel",
            "Jack of All Trades",
            "Noble Brigand",
            "Nomad Camp",
            "Silk Road",
            "Spice Merchant",
            "Trader",
            "Cache",
            "Cartographer",
            "Embassy",
            "Haggler",
            "Highway",
            "Ill-Gotten Gains",
            "Inn",
            "Mandarin",
            "Margrave",
            "Stables",
            "Border Village",
            "Farmland",
        ],
    ),
    (
        "Guilds",
        &[
            "Candlestick Maker",
            "Stonemason",
            "Doctor",
            "Masterpiece",
            "Advisor",
            "Plaza",
            "Taxman",
            "Herald",
            "Baker",
            "Butcher",
            "Journeyman",
            "Merchant Guild",
            "Soothsayer",
        ],
    ),
    (
        "Promo",
        &[
            "Black Market",
            "Envoy",
            "Walled Village",
            "Governor",
            "Stash",
            "Prince",
        ],
    ),
];

/// The card `name` (any case, spaces or punctuation) of a set domsim does
/// not cover: its printed name and its set.
pub fn other_set(name: &str) -> Option<(&'static str, &'static str)> {
    let key = normalize(name);
    if key.is_empty() {
        return None;
    }
    OTHER_SETS.iter().find_map(|(set, cards)| {
        cards
            .iter()
            .find(|c| normalize(c) == key)
            .map(|c| (*c, *set))
    })
}

/// The message for a card of another set.
pub fn not_covered(card: &str, set: &str) -> String {
    format!("'{card}' is a {set} card: {set} is not supported (domsim covers base, Intrigue and Dark Ages)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_sets_are_named_and_never_clash_with_covered_cards() {
        assert_eq!(other_set("haven"), Some(("Haven", "Seaside")));
        assert_eq!(
            other_set("Kings Court"),
            Some(("King's Court", "Prosperity"))
        );
        assert_eq!(other_set("Smithy"), None);
        assert_eq!(other_set(""), None);
        for (_, cards) in OTHER_SETS {
            for c in cards {
                assert!(super::super::Card::from_name(c).is_none(), "{c} is covered");
            }
        }
    }
}
