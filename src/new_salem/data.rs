//! New Salem's card data: the four files of the specification (§8), loaded
//! with serde, csv and toml and validated with errors that name the file, the
//! line and the field.
//!
//! * `rules.toml` — the official numbers from the rulebook, plus an
//!   `[options]` table: every rule the rulebook leaves open is one named
//!   option ([`Options`]) whose default is the specification's suggestion.
//! * `buildings.csv` — one row per building design, with its copies per
//!   player-count number.
//! * `events.toml` — the event cards.
//! * `characters.toml` — the character cards (team, categories).
//!
//! The built-in data is the specification's **SAMPLE** set, invented for rule
//! coverage (the rulebook lists no cards). A user with the real cards writes
//! the same four files and passes `--data DIR`; nothing else changes.
//!
//! Loading happens once per run; the game itself works on the compact indices
//! of [`Data`] (designs, sets, events, characters as `u8`).

use anyhow::{anyhow, bail, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Most players a table seats.
pub const MAX_PLAYERS: usize = 8;
/// Fewest players the game supports.
pub const MIN_PLAYERS: usize = 3;
/// Building designs a data set may have (a design index is a `u8`; sets
/// and tableau masks stay small).
pub const MAX_DESIGNS: usize = 128;
/// Event cards a data set may have (display and hand masks are `u64`).
pub const MAX_EVENTS: usize = 64;
/// Categories a data set may have (a character's categories are a `u16` mask).
pub const MAX_CATEGORIES: usize = 16;
/// Characters of one team a data set may have (the setup cuts each
/// team's pile in a fixed array).
pub const MAX_TEAM_CHARACTERS: usize = 32;
/// Rounds: the rulebook has 5; data may not have more than this.
pub const MAX_ROUNDS: usize = 8;
/// Most buildings one player's row may hold (the kept buildings of all the
/// rounds, plus any taken with an event).
pub const MAX_ROW: usize = 32;
/// Most buildings a player may be dealt in one round.
pub const MAX_HAND: usize = 8;
/// Building cards in play at once (all copies at 8 players).
pub const MAX_BUILDINGS: usize = 255;

/// The two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Team {
    Witch,
    Puritan,
}

impl Team {
    pub fn name(self) -> &'static str {
        match self {
            Team::Witch => "Witch",
            Team::Puritan => "Puritan",
        }
    }

    /// The team's name for its members together ("the Witches win").
    pub fn plural(self) -> &'static str {
        match self {
            Team::Witch => "Witches",
            Team::Puritan => "Puritans",
        }
    }
}

/// A set's end-game icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endgame {
    None,
    Death,
    Justice,
}

/// An edge symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    None,
    Moon,
    Triangle,
}

/// One building design (a row of `buildings.csv`).
#[derive(Clone, Debug)]
pub struct Design {
    pub id: String,
    pub name: String,
    pub category: u8,
    pub set: u8,
    pub endgame: Endgame,
    pub edge_left: Edge,
    pub edge_right: Edge,
    pub hope: u8,
    pub despair_add: u8,
    pub despair_remove: u8,
    /// `copies[p]` = copies in the deck at `p` players (numbers ≤ p).
    pub copies: [u8; MAX_PLAYERS + 1],
}

/// A set: three designs that chain left to right.
#[derive(Clone, Debug)]
pub struct SetInfo {
    pub name: String,
    /// The three designs, in chain order.
    pub designs: [u8; 3],
    pub endgame: Endgame,
}

/// What an event does when launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    None,
    PutOnTrial,
    GainHope,
    AddDespair,
    TakeBuilding,
    DestroyBuilding,
    PeekCharacter,
    RevealCharacter,
}

impl Effect {
    pub const ALL: [(&'static str, Effect); 8] = [
        ("none", Effect::None),
        ("put_on_trial", Effect::PutOnTrial),
        ("gain_hope", Effect::GainHope),
        ("add_despair", Effect::AddDespair),
        ("take_building", Effect::TakeBuilding),
        ("destroy_building", Effect::DestroyBuilding),
        ("peek_character", Effect::PeekCharacter),
        ("reveal_character", Effect::RevealCharacter),
    ];
    pub fn name(self) -> &'static str {
        Effect::ALL
            .iter()
            .find(|e| e.1 == self)
            .map_or("none", |e| e.0)
    }
}

/// Whom an event's effect reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Target,
    All,
    Launcher,
}

/// Where a give/take card goes after its launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GiveTake {
    None,
    /// To the player the launcher names (the target).
    Give,
    /// To the launcher.
    Take,
}

/// One event card.
#[derive(Clone, Debug)]
pub struct Event {
    pub id: String,
    pub name: String,
    pub cost: u8,
    pub red_border: bool,
    pub start_face_up: bool,
    pub give_take: GiveTake,
    pub min_players: u8,
    pub remove_despair: u8,
    pub effect: Effect,
    pub who: Who,
    pub n: u8,
}

impl Event {
    /// Does the launcher name a player for this event?
    pub fn needs_target(&self) -> bool {
        (self.effect != Effect::None && self.who == Who::Target) || self.give_take == GiveTake::Give
    }
}

/// One character card.
#[derive(Clone, Debug)]
pub struct Character {
    pub id: String,
    pub team: Team,
    /// Bit `c` set: category `c` scores for this character.
    pub categories: u16,
}

/// Where removes of a reveal start (and, for `discard_order`, where the
/// discards start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemovesFrom {
    Constable,
    Seat0,
}

/// Which buildings a remove-Despair icon may take a cube from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoveTarget {
    /// Any player's building.
    Any,
    /// Only the owner's buildings (lost if they carry none).
    Own,
    /// The owner's buildings if any carries Despair, else any player's.
    OwnFirst,
}

/// Which of the eligible buildings gives up the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoveCube {
    /// The building carrying the most Despair.
    Most,
    /// The building carrying the least Despair (at least one cube).
    Least,
}

/// Which end of a row new cubes go on, or Hope is paid from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowEnd {
    /// The most recently built building first.
    Newest,
    /// The first building of the row first.
    Oldest,
}

/// The building deck running out during a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyDeck {
    /// Deal seat by seat from seat 0, each seat its full hand, and stop.
    Stop,
    /// Deal one card at a time around the table from seat 0, and stop.
    RoundRobin,
}

/// Nobody may take the Constable token at a hand-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEligible {
    /// The Constable keeps the token; no badge, no Hope.
    Keep,
    /// Every other player returns their badge (the badge-return rule),
    /// then the hand-off goes on; only if every other player is on Trial
    /// does the Constable keep the token.
    Reset,
}

/// The Trial supply: how many Trial cards there are and where one goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrialSupply {
    /// The card stays face up after every launch (red border): any
    /// number of players may be put on Trial.
    Unlimited,
    /// `n` Trial cards (1 = a single card): each launch gives one to the
    /// named player, who holds it; the last one leaves the display and the
    /// top event replaces it.
    Copies(u8),
    /// One Trial card that moves: launching it again takes it from its
    /// holder (no longer on Trial) and gives it to the named player.
    Moving,
}

/// Which events set the forced-launch level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedBy {
    /// The costliest face-up event, launchable or not.
    FaceUp,
    /// The costliest event the Constable could launch now.
    Launchable,
}

/// The rules the rulebook leaves open, each with the specification's default.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Despair cubes per add-Despair icon (spec: one per icon, assumed).
    pub despair_per_icon: u8,
    /// Which buildings a remove-Despair icon may take a cube from.
    pub remove_target: RemoveTarget,
    /// Which of those buildings gives up the cube.
    pub remove_cube: RemoveCube,
    /// Order of the removes in a simultaneous reveal (adds always first).
    pub removes_from: RemovesFrom,
    /// Order of the discards (and blind draws) at the end of a draft.
    pub discard_order: RemovesFrom,
    /// Out of buildings during a deal.
    pub empty_deck: EmptyDeck,
    /// Nobody can take the token at a hand-off.
    pub no_eligible: NoEligible,
    /// At most this many launches in one launch phase.
    pub launch_cap: u8,
    /// Which events set the forced-launch level.
    pub forced_by: ForcedBy,
    /// Clamp Despair at zero (default: signed, no clamp).
    pub clamp_despair: bool,
    /// Witches win at D ≥ threshold (`true`) or D > threshold.
    pub threshold_at_least: bool,
    /// Trial may target the launcher too (default: only others).
    pub trial_self: bool,
    /// How many Trial cards there are and where a launched one goes.
    pub trial: TrialSupply,
    /// Hope cubes each player gains at the start of a round (default 0).
    pub hope_per_round: u8,
    /// A building that leaves play goes under the building deck (`true`,
    /// the specification's assumption) or out of the game.
    pub destroyed_under_deck: bool,
    /// Where new cubes (Hope, an event's Despair) go in the receiver's row.
    pub new_cubes: RowEnd,
    /// Which buildings pay Hope first.
    pub pay_from: RowEnd,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            despair_per_icon: 1,
            remove_target: RemoveTarget::Any,
            remove_cube: RemoveCube::Most,
            removes_from: RemovesFrom::Constable,
            discard_order: RemovesFrom::Seat0,
            empty_deck: EmptyDeck::Stop,
            no_eligible: NoEligible::Keep,
            launch_cap: 20,
            forced_by: ForcedBy::FaceUp,
            clamp_despair: false,
            threshold_at_least: true,
            trial_self: false,
            trial: TrialSupply::Unlimited,
            hope_per_round: 0,
            destroyed_under_deck: true,
            new_cubes: RowEnd::Newest,
            pay_from: RowEnd::Newest,
        }
    }
}

/// One rule option, for `--rule`, `salem rules`, `salem check` and the docs.
#[derive(Clone, Copy, Debug)]
pub struct OptionDoc {
    pub name: &'static str,
    /// The values it accepts.
    pub values: &'static str,
    /// The default (the specification's suggestion).
    pub default: &'static str,
    /// What it decides, and what each value means.
    pub meaning: &'static str,
    /// The rulebook sentence (French text) the question comes from, and
    /// what it leaves open.
    pub rulebook: &'static str,
}

/// Every rule option: its accepted values, default, meaning and the
/// rulebook sentence behind it.
pub const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        name: "despair_per_icon",
        values: "1..=3",
        default: "1",
        meaning: "Despair cubes an add-Despair icon puts on its building.",
        rulebook: "\"chaque joueur y ajoute un cube Espoir, un cube Désespoir, ou bien enlève un cube Désespoir\" (the draft): \"a cube\", but not per icon or per card.",
    },
    OptionDoc {
        name: "remove_target",
        values: "any|own|own_first",
        default: "any",
        meaning: "Which buildings a remove-Despair icon may take a cube from: any player's (any), only the owner's, lost if they carry none (own), or the owner's if one carries Despair, else any player's (own_first).",
        rulebook: "\"pour chaque symbole présent, il retire un cube Désespoir d'un bâtiment\": \"a building\", not whose.",
    },
    OptionDoc {
        name: "remove_cube",
        values: "most|least",
        default: "most",
        meaning: "Which of those buildings gives up the cube: the one carrying the most Despair (most) or the fewest, at least one (least); ties go to the owner's, then the next seats', earliest built first. It changes which cubes leave with a taken or destroyed building, never the Despair in play.",
        rulebook: "\"il retire un cube Désespoir d'un bâtiment\": the player chooses; the text gives no preference.",
    },
    OptionDoc {
        name: "reveal_removes_from",
        values: "constable|seat0",
        default: "constable",
        meaning: "The adds of a simultaneous reveal come first; then the removes resolve one player at a time, in seat order starting from the Constable (constable) or from seat 0 (seat0). It matters when there is less Despair in play than remove icons.",
        rulebook: "\"Une fois que tous les joueurs ont sélectionné une carte Bâtiment, ils la retournent face visible\": the picks are revealed together; the text gives no order for resolving them.",
    },
    OptionDoc {
        name: "discard_order",
        values: "seat0|constable",
        default: "seat0",
        meaning: "The discards and blind draws at the end of a draft go in seat order from seat 0 (seat0) or from the Constable (constable); each player puts both cards under the deck before drawing. It matters only when the deck is nearly empty.",
        rulebook: "\"Défausser les deux cartes et prendre une carte Bâtiment du haut du paquet\": players choose at once; the text gives no order.",
    },
    OptionDoc {
        name: "empty_deck",
        values: "stop|round_robin",
        default: "stop",
        meaning: "The building deck running out during a deal: deal seat by seat from seat 0, each seat its full hand, and stop (stop), or one card at a time around the table from seat 0 and stop (round_robin: hands differ by one card at most). The official counts never run out (15 buildings per player).",
        rulebook: "\"La carte Round du round en cours indique le nombre de Bâtiments devant être distribué\": the text never says the deck can run out.",
    },
    OptionDoc {
        name: "no_eligible_constable",
        values: "keep|reset",
        default: "keep",
        meaning: "Nobody may take the token at a hand-off (every other player holds a badge or is on Trial): the Constable keeps it, with no badge and no Hope (keep), or every other player returns their badge, as the badge-return rule does, and the hand-off goes on (reset); with every other player on Trial the Constable keeps it either way.",
        rulebook: "\"Vous ne pouvez pas désigner un joueur possédant un Insigne ou soumis au Procès\" and \"Si à ce moment, tous les joueurs, à l'exception du Connétable, sont en possession d'un Insigne ou sont en Procès, ils remettent leur Insigne au centre de la table\": the return is checked after the new Constable takes a badge, so the text does not say what happens when no one can be named.",
    },
    OptionDoc {
        name: "launch_cap",
        values: "1..=100",
        default: "20",
        meaning: "Most launches in one launch phase (cheap events could otherwise force launches without end).",
        rulebook: "\"Si le Connétable possède suffisamment d'Espoir pour lancer l'Événement le plus cher, il doit obligatoirement lancer un Événement\": no limit is given.",
    },
    OptionDoc {
        name: "forced_launch",
        values: "face_up|launchable",
        default: "face_up",
        meaning: "The forced-launch level is the cost of the costliest face-up event, even one that cannot be launched now (face_up), or of the costliest event the Constable could launch now (launchable).",
        rulebook: "\"Si le Connétable possède suffisamment d'Espoir pour lancer l'Événement le plus cher\": \"the costliest event\", not whether it must be launchable.",
    },
    OptionDoc {
        name: "clamp_despair",
        values: "true|false",
        default: "false",
        meaning: "Clamp the final Despair D at zero (true) or keep it signed (false): a Justice set and tried Witches can take it below zero.",
        rulebook: "\"retirez 3 Désespoir de la ville\": the text never says the town's Despair stops at zero.",
    },
    OptionDoc {
        name: "threshold",
        values: "at_least|more_than",
        default: "at_least",
        meaning: "The Witches' side wins at D >= threshold (at_least, the text) or D > threshold (more_than, a review's wording).",
        rulebook: "\"le nombre minimum de cubes Désespoir requis dans la ville à la fin de la partie pour qu'une Sorcière l'emporte\": a minimum, so at least.",
    },
    OptionDoc {
        name: "trial_target",
        values: "others|anyone",
        default: "others",
        meaning: "Whom Trial may name: another player not on Trial (others), or any player not on Trial, the launcher too (anyone).",
        rulebook: "\"Le Joueur 1 lance l'événement du Procès et le donne au Joueur 2\": the only example names another player; the text never says whom Trial may name.",
    },
    OptionDoc {
        name: "trial",
        values: "unlimited|single|moving|2..=7",
        default: "unlimited",
        meaning: "The Trial supply. unlimited: the card stays face up after every launch (a red border), so any number of players can be put on Trial. single: one Trial card, given to the named player, who holds it (one Trial per game); it leaves the display and the top event replaces it. moving: one Trial card that can be launched again from its holder, who is then no longer on Trial. A number N: N Trial cards, each given away, the last one leaving the display. It applies to every event whose effect is put_on_trial, whatever its border.",
        rulebook: "\"Si la carte ne présente pas une bordure rouge, placez-la face cachée au-dessous du paquet Événement, à moins que la carte ne vous spécifie de la remettre à un autre joueur\" and \"Tout Événement sur lequel figure ce symbole est donné ou pris par un joueur\": Trial is face up all game and is given to a player, but the text never says which cards have a red border nor how many Trial cards there are; the end-of-game example shows two players holding one.",
    },
    OptionDoc {
        name: "hope_per_round",
        values: "0..=5",
        default: "0",
        meaning: "Hope each player gains at the start of each round (on their newest building).",
        rulebook: "\"Lorsque ce symbole est présent sur une carte Bâtiment, cela indique qu'il en génère\": the text gives no income but the icons; it does not say whether they pay once or every round.",
    },
    OptionDoc {
        name: "destroyed_building",
        values: "under_deck|removed",
        default: "under_deck",
        meaning: "A building that leaves play goes under the building deck (under_deck) or out of the game (removed); its cubes go to the supply either way.",
        rulebook: "\"Chaque fois qu'un Bâtiment sort du jeu, tout Espoir et/ou Désespoir présent dessus est retiré et remis dans la réserve\": where the card goes is not said.",
    },
    OptionDoc {
        name: "new_cubes",
        values: "newest|oldest",
        default: "newest",
        meaning: "Which of the receiver's buildings new cubes (gifts, events, a new Constable's Hope, an event's Despair) go on: the most recently built (newest) or the first of the row (oldest). It changes which cubes leave with a taken or destroyed building.",
        rulebook: "\"Chaque fois qu'un joueur reçoit de l'Espoir ou du Désespoir, il doit le placer sur un de ses Bâtiments\": the player chooses which.",
    },
    OptionDoc {
        name: "pay_from",
        values: "newest|oldest",
        default: "newest",
        meaning: "Which buildings Hope is paid (or given) from first: the most recently built (newest) or the first of the row (oldest).",
        rulebook: "\"Retirez autant de cubes Espoir de vos propres cartes Bâtiments que le coût indiqué sur l'Événement\": from which buildings is not said.",
    },
];

impl Options {
    /// Set option `key` from its text `value`; the error names the option
    /// and the values it accepts.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let bad = || {
            let accepted = OPTION_DOCS
                .iter()
                .find(|o| o.name == key)
                .map_or("", |o| o.values);
            anyhow!("rule option {key} = {value:?} is not valid (expected {accepted})")
        };
        let num = |lo: u8, hi: u8| -> Result<u8> {
            value
                .parse::<u8>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(bad)
        };
        let flag = || -> Result<bool> {
            match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(bad()),
            }
        };
        let end = || -> Result<RowEnd> {
            match value {
                "newest" => Ok(RowEnd::Newest),
                "oldest" => Ok(RowEnd::Oldest),
                _ => Err(bad()),
            }
        };
        match key {
            "despair_per_icon" => self.despair_per_icon = num(1, 3)?,
            "remove_target" => {
                self.remove_target = match value {
                    "any" => RemoveTarget::Any,
                    "own" => RemoveTarget::Own,
                    "own_first" => RemoveTarget::OwnFirst,
                    _ => return Err(bad()),
                }
            }
            "remove_cube" => {
                self.remove_cube = match value {
                    "most" => RemoveCube::Most,
                    "least" => RemoveCube::Least,
                    _ => return Err(bad()),
                }
            }
            "reveal_removes_from" | "discard_order" => {
                let v = match value {
                    "constable" => RemovesFrom::Constable,
                    "seat0" => RemovesFrom::Seat0,
                    _ => return Err(bad()),
                };
                if key == "discard_order" {
                    self.discard_order = v;
                } else {
                    self.removes_from = v;
                }
            }
            "empty_deck" => {
                self.empty_deck = match value {
                    "stop" => EmptyDeck::Stop,
                    "round_robin" => EmptyDeck::RoundRobin,
                    _ => return Err(bad()),
                }
            }
            "no_eligible_constable" => {
                self.no_eligible = match value {
                    "keep" => NoEligible::Keep,
                    "reset" => NoEligible::Reset,
                    _ => return Err(bad()),
                }
            }
            "launch_cap" => self.launch_cap = num(1, 100)?,
            "forced_launch" => {
                self.forced_by = match value {
                    "face_up" => ForcedBy::FaceUp,
                    "launchable" => ForcedBy::Launchable,
                    _ => return Err(bad()),
                }
            }
            "clamp_despair" => self.clamp_despair = flag()?,
            "threshold" => {
                self.threshold_at_least = match value {
                    "at_least" => true,
                    "more_than" => false,
                    _ => return Err(bad()),
                }
            }
            "trial_target" => {
                self.trial_self = match value {
                    "others" => false,
                    "anyone" => true,
                    _ => return Err(bad()),
                }
            }
            "trial" => {
                self.trial = match value {
                    "unlimited" => TrialSupply::Unlimited,
                    "single" => TrialSupply::Copies(1),
                    "moving" => TrialSupply::Moving,
                    _ => TrialSupply::Copies(num(2, 7)?),
                }
            }
            "hope_per_round" => self.hope_per_round = num(0, 5)?,
            "destroyed_building" => {
                self.destroyed_under_deck = match value {
                    "under_deck" => true,
                    "removed" => false,
                    _ => return Err(bad()),
                }
            }
            "new_cubes" => self.new_cubes = end()?,
            "pay_from" => self.pay_from = end()?,
            _ => {
                let names: Vec<&str> = OPTION_DOCS.iter().map(|o| o.name).collect();
                let hint = super::hint(key, &names);
                bail!(
                    "unknown rule option {key:?}{hint}; the options are: {}",
                    names.join(", ")
                )
            }
        }
        Ok(())
    }

    /// The current value of option `name`, as `--rule` writes it (None
    /// for an unknown name).
    pub fn value(&self, name: &str) -> Option<String> {
        let end = |e: RowEnd| match e {
            RowEnd::Newest => "newest",
            RowEnd::Oldest => "oldest",
        };
        let from = |f: RemovesFrom| match f {
            RemovesFrom::Constable => "constable",
            RemovesFrom::Seat0 => "seat0",
        };
        Some(match name {
            "despair_per_icon" => self.despair_per_icon.to_string(),
            "remove_target" => match self.remove_target {
                RemoveTarget::Any => "any",
                RemoveTarget::Own => "own",
                RemoveTarget::OwnFirst => "own_first",
            }
            .into(),
            "remove_cube" => match self.remove_cube {
                RemoveCube::Most => "most",
                RemoveCube::Least => "least",
            }
            .into(),
            "reveal_removes_from" => from(self.removes_from).into(),
            "discard_order" => from(self.discard_order).into(),
            "empty_deck" => match self.empty_deck {
                EmptyDeck::Stop => "stop",
                EmptyDeck::RoundRobin => "round_robin",
            }
            .into(),
            "no_eligible_constable" => match self.no_eligible {
                NoEligible::Keep => "keep",
                NoEligible::Reset => "reset",
            }
            .into(),
            "launch_cap" => self.launch_cap.to_string(),
            "forced_launch" => match self.forced_by {
                ForcedBy::FaceUp => "face_up",
                ForcedBy::Launchable => "launchable",
            }
            .into(),
            "clamp_despair" => self.clamp_despair.to_string(),
            "threshold" => if self.threshold_at_least {
                "at_least"
            } else {
                "more_than"
            }
            .into(),
            "trial_target" => if self.trial_self { "anyone" } else { "others" }.into(),
            "trial" => match self.trial {
                TrialSupply::Unlimited => "unlimited".into(),
                TrialSupply::Copies(1) => "single".into(),
                TrialSupply::Copies(n) => n.to_string(),
                TrialSupply::Moving => "moving".into(),
            },
            "hope_per_round" => self.hope_per_round.to_string(),
            "destroyed_building" => if self.destroyed_under_deck {
                "under_deck"
            } else {
                "removed"
            }
            .into(),
            "new_cubes" => end(self.new_cubes).into(),
            "pay_from" => end(self.pay_from).into(),
            _ => return None,
        })
    }

    /// Every option as `name=value`, space-separated (the CSV header's and
    /// the checkpoint key's `rule options`).
    pub fn line(&self) -> String {
        OPTION_DOCS
            .iter()
            .map(|o| format!("{}={}", o.name, self.value(o.name).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `salem rules`: every option in full, its value now, its default,
    /// what each value means and the rulebook sentence behind it.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for o in OPTION_DOCS {
            let now = self.value(o.name).unwrap_or_default();
            let changed = if now == o.default { "" } else { " (changed)" };
            s.push_str(&format!(
                "{} = {now}{changed}\n  values: {}; default: {}\n  {}\n  Rulebook: {}\n\n",
                o.name, o.values, o.default, o.meaning, o.rulebook
            ));
        }
        s
    }
}

/// Official numbers, per player count (`[p]`, 0 where the count is not played).
#[derive(Clone, Debug)]
pub struct Rules {
    pub witch_cards: [u8; MAX_PLAYERS + 1],
    pub puritan_cards: [u8; MAX_PLAYERS + 1],
    pub threshold: [i16; MAX_PLAYERS + 1],
    pub player_counts: Vec<usize>,
    pub dealt: Vec<u8>,
    pub kept: Vec<u8>,
    pub witch_on_trial: i16,
    pub witch_free: i16,
    pub puritan_on_trial: i16,
    pub puritan_free: i16,
    pub death_set: i16,
    pub justice_set: i16,
    pub matching_building: i16,
    pub complete_set: i16,
    pub new_constable_hope: u8,
    pub options: Options,
}

/// Everything one run of New Salem needs, validated.
#[derive(Clone, Debug)]
pub struct Data {
    /// Where it came from (a folder, or "built-in SAMPLE").
    pub source: String,
    /// A digest of the four files' contents ([`crate::digest`]): a
    /// checkpoint of a run over other contents of the same folder is
    /// refused.
    pub digest: String,
    /// True for the built-in invented set: every output says so.
    pub sample: bool,
    pub rules: Rules,
    pub categories: Vec<String>,
    pub designs: Vec<Design>,
    pub sets: Vec<SetInfo>,
    pub events: Vec<Event>,
    pub characters: Vec<Character>,
}

pub const SAMPLE_RULES: &str = include_str!("sample/rules.toml");
pub const SAMPLE_BUILDINGS: &str = include_str!("sample/buildings.csv");
pub const SAMPLE_EVENTS: &str = include_str!("sample/events.toml");
pub const SAMPLE_CHARACTERS: &str = include_str!("sample/characters.toml");

/// The four file names of a data folder.
pub const FILES: [&str; 4] = [
    "rules.toml",
    "buildings.csv",
    "events.toml",
    "characters.toml",
];

/// Largest magnitude of an end-of-game number of `rules.toml` (Trial and
/// set Despair, points).
pub const END_NUMBER: i64 = 100;

/// Largest data file read (bytes).
const MAX_FILE: u64 = 4 << 20;

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `file:line:col: msg` for a byte span of `text`.
fn at(
    file: &str,
    text: &str,
    span: std::ops::Range<usize>,
    msg: impl std::fmt::Display,
) -> anyhow::Error {
    let (l, c) = line_col(text, span.start);
    anyhow!("{file}:{l}:{c}: {msg}")
}

fn toml_err(file: &str, text: &str, e: toml::de::Error) -> anyhow::Error {
    let mut msg = e.message().trim().to_string();
    if let Some(s) = e.span() {
        if msg.contains("as i128") || msg.contains("out of range") {
            // A whole number beyond what TOML reads (64 bits): out of range
            // like any other, with the field's documented range.
            let number = text.get(s.clone()).unwrap_or("").trim();
            msg = too_large(text, s.start, number);
        }
    }
    match e.span() {
        Some(s) => at(file, text, s, msg),
        None => anyhow!("{file}: {msg}"),
    }
}

/// The documented range of each whole-number field of the TOML files
/// (rules, events), as the checks below apply them.
fn field_range(key: &str) -> Option<String> {
    Some(match key {
        "player_counts" | "min_players" => format!("{MIN_PLAYERS}..={MAX_PLAYERS}"),
        "witch_cards" => format!("0..={MAX_PLAYERS}"),
        "puritan_cards" => "0..=16".into(),
        "despair_threshold" => "-1000..=1000".into(),
        "dealt_per_round" | "kept_per_round" => format!("1..={MAX_HAND}"),
        "witch_on_trial" | "witch_free" | "puritan_on_trial" | "puritan_free" | "death"
        | "justice" | "matching_building" | "complete_set" => {
            format!("-{END_NUMBER}..={END_NUMBER}")
        }
        "new_constable_hope" => "0..=10".into(),
        "cost" => "0..=50".into(),
        "remove_despair" | "n" => "0..=20".into(),
        _ => return None,
    })
}

/// The message for a number too large for TOML at `offset` of `text`: the
/// field it is given to (the nearest key before it, in an array or an
/// inline table too) and the field's range.
fn too_large(text: &str, offset: usize, number: &str) -> String {
    let before = text.get(..offset).unwrap_or("");
    let key: String = before
        .rfind('=')
        .map(|i| {
            let k: Vec<char> = before[..i]
                .trim_end()
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            k.into_iter().rev().collect()
        })
        .unwrap_or_default();
    let number = if number.chars().count() > 24 {
        format!("{}…", number.chars().take(24).collect::<String>())
    } else {
        number.to_string()
    };
    match field_range(&key) {
        Some(r) => format!("{key}: {number} is outside {r}"),
        None => format!(
            "{number} is out of range (every number of the New Salem data is small; docs/NEW_SALEM.md gives each field's range)"
        ),
    }
}

type Sp<T> = toml::Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    player_counts: Sp<Vec<i64>>,
    witch_cards: Sp<Vec<i64>>,
    puritan_cards: Sp<Vec<i64>>,
    despair_threshold: Sp<Vec<i64>>,
    dealt_per_round: Sp<Vec<i64>>,
    kept_per_round: Sp<Vec<i64>>,
    trial_despair: TrialDespair,
    set_despair: SetDespair,
    points: Points,
    new_constable_hope: Sp<i64>,
    #[serde(default)]
    options: Option<Sp<toml::Table>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrialDespair {
    witch_on_trial: Sp<i64>,
    witch_free: Sp<i64>,
    puritan_on_trial: Sp<i64>,
    puritan_free: Sp<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetDespair {
    death: Sp<i64>,
    justice: Sp<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Points {
    matching_building: Sp<i64>,
    complete_set: Sp<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsFile {
    events: Vec<Sp<EventRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventRow {
    id: Sp<String>,
    name: String,
    #[serde(default)]
    cost: Option<Sp<i64>>,
    #[serde(default)]
    red_border: bool,
    #[serde(default)]
    start_face_up: bool,
    #[serde(default)]
    give_take: Option<Sp<String>>,
    #[serde(default)]
    min_players: Option<Sp<i64>>,
    #[serde(default)]
    remove_despair: Option<Sp<i64>>,
    #[serde(default)]
    effect: Option<Sp<String>>,
    #[serde(default)]
    who: Option<Sp<String>>,
    #[serde(default)]
    n: Option<Sp<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharactersFile {
    characters: Vec<Sp<CharRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharRow {
    id: Sp<String>,
    team: Sp<String>,
    categories: Sp<Vec<Sp<String>>>,
}

fn did_you_mean<'a>(word: &str, options: impl IntoIterator<Item = &'a str> + Clone) -> String {
    let list: Vec<&str> = options.clone().into_iter().collect();
    let hint = super::hint(word, &list);
    format!("expected one of: {}{hint}", list.join(", "))
}

impl Data {
    /// The built-in SAMPLE set (invented; see the module doc).
    pub fn sample() -> Data {
        let mut d = Data::parse(
            [
                ("rules.toml", SAMPLE_RULES),
                ("buildings.csv", SAMPLE_BUILDINGS),
                ("events.toml", SAMPLE_EVENTS),
                ("characters.toml", SAMPLE_CHARACTERS),
            ],
            "built-in SAMPLE data (invented, not the real cards)",
        )
        .expect("the built-in sample data is valid (checked by a test)");
        d.sample = true;
        d
    }

    /// Load the four files of folder `dir`.
    pub fn load(dir: &Path) -> Result<Data> {
        if !dir.is_dir() {
            bail!(
                "{}: not a folder; --data expects a folder holding {}",
                dir.display(),
                FILES.join(", ")
            );
        }
        let mut texts = Vec::new();
        for f in FILES {
            let p: PathBuf = dir.join(f);
            let bytes = crate::output::read_capped(&p, MAX_FILE)
                .map_err(|e| anyhow!("{}: {e}", p.display()))?;
            let s = String::from_utf8(bytes).map_err(|e| {
                anyhow!(
                    "{}: not UTF-8 text (invalid byte at offset {})",
                    p.display(),
                    e.utf8_error().valid_up_to()
                )
            })?;
            // A byte-order mark some editors write is not part of the text
            // (it would otherwise glue itself to the CSV's first column).
            let s = match s.strip_prefix('\u{feff}') {
                Some(rest) => rest.to_string(),
                None => s,
            };
            texts.push((p.display().to_string(), s));
        }
        Data::parse(
            [
                (texts[0].0.as_str(), texts[0].1.as_str()),
                (texts[1].0.as_str(), texts[1].1.as_str()),
                (texts[2].0.as_str(), texts[2].1.as_str()),
                (texts[3].0.as_str(), texts[3].1.as_str()),
            ],
            &dir.display().to_string(),
        )
    }

    /// Parse and validate the four texts (named for messages), in the order
    /// of [`FILES`].
    pub fn parse(files: [(&str, &str); 4], source: &str) -> Result<Data> {
        let [(rf, rt), (bf, bt), (ef, et), (cf, ct)] = files;
        let rules = parse_rules(rf, rt)?;
        let (categories, first_use, designs, sets) = parse_buildings(bf, bt)?;
        let events = parse_events(ef, et)?;
        let characters = parse_characters(cf, ct, &categories, (bf, &first_use))?;
        check_categories(bf, cf, &categories, &first_use, &designs, &characters)?;
        let mut digest = crate::digest::Digest::default();
        for text in [rt, bt, et, ct] {
            // Each text's length first, so no split point is ambiguous.
            digest
                .update(&(text.len() as u64).to_le_bytes())
                .update(text.as_bytes());
        }
        let d = Data {
            source: source.to_string(),
            digest: digest.hex(),
            sample: false,
            rules,
            categories,
            designs,
            sets,
            events,
            characters,
        };
        d.check_counts(bf, cf)?;
        Ok(d)
    }

    /// Cross-file checks: enough characters of each team, enough buildings
    /// for every player count.
    fn check_counts(&self, bf: &str, cf: &str) -> Result<()> {
        let witches = self
            .characters
            .iter()
            .filter(|c| c.team == Team::Witch)
            .count();
        let puritans = self.characters.len() - witches;
        for &p in &self.rules.player_counts {
            let (w, pu) = (
                self.rules.witch_cards[p] as usize,
                self.rules.puritan_cards[p] as usize,
            );
            if w > witches || pu > puritans {
                bail!(
                    "{cf}: {p} players need {w} Witch and {pu} Puritan cards, but the file has {witches} Witch and {puritans} Puritan characters"
                );
            }
            let have: usize = self.designs.iter().map(|d| d.copies[p] as usize).sum();
            let need = self.buildings_needed(p);
            if have < need {
                bail!(
                    "{bf}: {p} players need at least {need} buildings ({} per player: the buildings kept before a round plus those dealt in it), but the file has {have} with a number of {p} or less",
                    need / p
                );
            }
            if have > MAX_BUILDINGS {
                bail!(
                    "{bf}: {have} buildings at {p} players; at most {MAX_BUILDINGS} are supported"
                );
            }
        }
        Ok(())
    }

    /// Buildings the deck must hold at `p` players: the largest, over the
    /// rounds, of the buildings kept before the round plus those dealt in it.
    pub fn buildings_needed(&self, p: usize) -> usize {
        let mut kept = 0usize;
        let mut need = 0usize;
        for (d, k) in self.rules.dealt.iter().zip(&self.rules.kept) {
            need = need.max(kept + *d as usize);
            kept += *k as usize;
        }
        need * p
    }

    /// Is `p` a player count these rules play?
    pub fn check_players(&self, p: usize) -> Result<()> {
        if !self.rules.player_counts.contains(&p) {
            bail!(
                "New Salem is played by {} players (from {}); {p} is not one of them",
                self.rules
                    .player_counts
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                self.source
            );
        }
        Ok(())
    }

    pub fn event_index(&self, id: &str) -> Option<u8> {
        self.events
            .iter()
            .position(|e| e.id.eq_ignore_ascii_case(id))
            .map(|i| i as u8)
    }

    pub fn category_index(&self, name: &str) -> Option<u8> {
        self.categories
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }

    pub fn threshold(&self, p: usize) -> i16 {
        self.rules.threshold[p]
    }
}

fn parse_rules(file: &str, text: &str) -> Result<Rules> {
    let r: RulesFile = toml::from_str(text).map_err(|e| toml_err(file, text, e))?;
    let counts: Vec<i64> = r.player_counts.get_ref().clone();
    if counts.is_empty() {
        return Err(at(
            file,
            text,
            r.player_counts.span(),
            "player_counts is empty",
        ));
    }
    let mut pc = Vec::new();
    for &c in &counts {
        if !(MIN_PLAYERS as i64..=MAX_PLAYERS as i64).contains(&c) || pc.contains(&(c as usize)) {
            return Err(at(
                file,
                text,
                r.player_counts.span(),
                format!("player_counts: {c} is repeated or outside {MIN_PLAYERS}..={MAX_PLAYERS}"),
            ));
        }
        pc.push(c as usize);
    }
    let per_count =
        |name: &str, v: &Sp<Vec<i64>>, lo: i64, hi: i64| -> Result<[i64; MAX_PLAYERS + 1]> {
            if v.get_ref().len() != pc.len() {
                return Err(at(
                    file,
                    text,
                    v.span(),
                    format!(
                        "{name} has {} values, but player_counts has {}: one per player count",
                        v.get_ref().len(),
                        pc.len()
                    ),
                ));
            }
            let mut out = [0i64; MAX_PLAYERS + 1];
            for (i, &x) in v.get_ref().iter().enumerate() {
                if !(lo..=hi).contains(&x) {
                    return Err(at(
                        file,
                        text,
                        v.span(),
                        format!("{name}: {x} is outside {lo}..={hi}"),
                    ));
                }
                out[pc[i]] = x;
            }
            Ok(out)
        };
    let w = per_count("witch_cards", &r.witch_cards, 0, MAX_PLAYERS as i64)?;
    let pu = per_count("puritan_cards", &r.puritan_cards, 0, 16)?;
    let th = per_count("despair_threshold", &r.despair_threshold, -1000, 1000)?;
    for &p in &pc {
        if ((w[p] + pu[p]) as usize) < p {
            return Err(at(
                file,
                text,
                r.witch_cards.span(),
                format!(
                    "at {p} players the character deck has {} cards ({} Witch + {} Puritan): fewer than the players",
                    w[p] + pu[p],
                    w[p],
                    pu[p]
                ),
            ));
        }
    }
    let rounds = |name: &str, v: &Sp<Vec<i64>>| -> Result<Vec<u8>> {
        let n = v.get_ref().len();
        if n == 0 || n > MAX_ROUNDS {
            return Err(at(
                file,
                text,
                v.span(),
                format!("{name}: expected 1 to {MAX_ROUNDS} rounds, found {n}"),
            ));
        }
        v.get_ref()
            .iter()
            .map(|&x| {
                if (1..=MAX_HAND as i64).contains(&x) {
                    Ok(x as u8)
                } else {
                    Err(at(
                        file,
                        text,
                        v.span(),
                        format!("{name}: {x} is outside 1..={MAX_HAND}"),
                    ))
                }
            })
            .collect()
    };
    let dealt = rounds("dealt_per_round", &r.dealt_per_round)?;
    let kept = rounds("kept_per_round", &r.kept_per_round)?;
    if dealt.len() != kept.len() {
        return Err(at(
            file,
            text,
            r.kept_per_round.span(),
            "kept_per_round and dealt_per_round must have one value per round each",
        ));
    }
    for (i, (d, k)) in dealt.iter().zip(&kept).enumerate() {
        // The draft picks while a player holds more than 2 cards, then keeps
        // one of the last two: kept = dealt - 1 always.
        if *d < 2 || *k != d - 1 {
            return Err(at(
                file,
                text,
                r.kept_per_round.span(),
                format!(
                    "round {}: {d} dealt and {k} kept; the draft (pick while holding more than 2, then keep 1 of the last 2) keeps dealt - 1, so at least 2 must be dealt",
                    i + 1
                ),
            ));
        }
    }
    let total: usize = kept.iter().map(|&k| k as usize).sum();
    if total > MAX_ROW {
        return Err(at(
            file,
            text,
            r.kept_per_round.span(),
            format!("kept_per_round keeps {total} buildings per player over the game; a player's row holds at most {MAX_ROW}"),
        ));
    }
    let hope = *r.new_constable_hope.get_ref();
    if !(0..=10).contains(&hope) {
        return Err(at(
            file,
            text,
            r.new_constable_hope.span(),
            "new_constable_hope: expected 0..=10",
        ));
    }
    let mut options = Options::default();
    if let Some(t) = &r.options {
        for (k, v) in t.get_ref() {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => other.to_string(),
            };
            options
                .set(k, &value)
                .map_err(|e| at(file, text, t.span(), format!("[options]: {e}")))?;
        }
    }
    // The end-of-game numbers: the rulebook's are single digits; a bound
    // keeps every sum of them (over 8 players and their sets) far inside
    // the engine's integers.
    let end = |name: &str, v: &Sp<i64>| -> Result<i16> {
        let x = *v.get_ref();
        if (-END_NUMBER..=END_NUMBER).contains(&x) {
            Ok(x as i16)
        } else {
            Err(at(
                file,
                text,
                v.span(),
                format!("{name} = {x} is outside -{END_NUMBER}..={END_NUMBER}"),
            ))
        }
    };
    let td = &r.trial_despair;
    let (witch_on_trial, witch_free, puritan_on_trial, puritan_free) = (
        end("trial_despair.witch_on_trial", &td.witch_on_trial)?,
        end("trial_despair.witch_free", &td.witch_free)?,
        end("trial_despair.puritan_on_trial", &td.puritan_on_trial)?,
        end("trial_despair.puritan_free", &td.puritan_free)?,
    );
    let death_set = end("set_despair.death", &r.set_despair.death)?;
    let justice_set = end("set_despair.justice", &r.set_despair.justice)?;
    let matching_building = end("points.matching_building", &r.points.matching_building)?;
    let complete_set = end("points.complete_set", &r.points.complete_set)?;
    let to8 = |a: [i64; MAX_PLAYERS + 1]| a.map(|x| x as u8);
    let mut thr = [0i16; MAX_PLAYERS + 1];
    for (o, x) in thr.iter_mut().zip(th) {
        *o = x as i16;
    }
    Ok(Rules {
        witch_cards: to8(w),
        puritan_cards: to8(pu),
        threshold: thr,
        player_counts: pc,
        dealt,
        kept,
        witch_on_trial,
        witch_free,
        puritan_on_trial,
        puritan_free,
        death_set,
        justice_set,
        matching_building,
        complete_set,
        new_constable_hope: hope as u8,
        options,
    })
}

const BUILDING_COLUMNS: [&str; 11] = [
    "id",
    "name",
    "category",
    "set",
    "endgame",
    "edge_left",
    "edge_right",
    "hope",
    "despair_add",
    "despair_remove",
    "copies",
];

/// Where a category is first used: the line of its first row and the
/// field as written there.
type FirstUse = (usize, String);

type Buildings = (Vec<String>, Vec<FirstUse>, Vec<Design>, Vec<SetInfo>);

/// The line a CSV record is on. The reader gives the position where it
/// started reading, before the comment and empty lines it skipped: count
/// those too.
fn csv_line(text: &str, pos: Option<&csv::Position>) -> usize {
    let Some(pos) = pos else { return 1 };
    let (mut off, mut line) = (pos.byte() as usize, pos.line() as usize);
    while let Some(rest) = text.get(off..) {
        let len = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let l = rest[..len].trim_end_matches(['\n', '\r']);
        if len == 0 || !(l.is_empty() || l.starts_with('#')) || len == rest.len() {
            break;
        }
        off += len;
        line += 1;
    }
    line
}

fn parse_buildings(file: &str, text: &str) -> Result<Buildings> {
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| anyhow!("{file}: {e}"))?.clone();
    let cols: Vec<&str> = headers.iter().collect();
    if cols != BUILDING_COLUMNS {
        let line = csv_line(text, headers.position());
        for (i, want) in BUILDING_COLUMNS.iter().enumerate() {
            let got = cols.get(i).copied().unwrap_or("");
            if got != *want {
                bail!(
                    "{file}:{line}: header column {} is {got:?}, expected {want:?} (the columns are: {})",
                    i + 1,
                    BUILDING_COLUMNS.join(",")
                );
            }
        }
        bail!(
            "{file}:{line}: the header has {} columns, expected {}: {}",
            cols.len(),
            BUILDING_COLUMNS.len(),
            BUILDING_COLUMNS.join(",")
        );
    }
    let mut categories: Vec<String> = Vec::new();
    let mut first_use: Vec<FirstUse> = Vec::new();
    let mut set_names: Vec<String> = Vec::new();
    let mut designs: Vec<Design> = Vec::new();
    // The ids seen (a search of `designs` per row made a long file quadratic).
    let mut design_ids: std::collections::HashSet<String> = Default::default();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| anyhow!("{file}: {e}"))?;
        let line = csv_line(text, rec.position());
        if rec.len() != BUILDING_COLUMNS.len() {
            bail!(
                "{file}:{line}: {} fields, expected {} ({})",
                rec.len(),
                BUILDING_COLUMNS.len(),
                BUILDING_COLUMNS.join(",")
            );
        }
        let f = |i: usize| rec.get(i).unwrap_or("");
        let field_err =
            |i: usize, msg: String| anyhow!("{file}:{line}: field {}: {msg}", BUILDING_COLUMNS[i]);
        // Every name of the row is printed (logs, messages): no control
        // character ([`crate::output::check_name`]).
        for i in [0, 1, 2, 3] {
            crate::output::check_name(f(i)).map_err(|m| field_err(i, m))?;
        }
        let id = f(0).to_string();
        if id.is_empty() {
            return Err(field_err(0, "empty id".into()));
        }
        if !design_ids.insert(id.clone()) {
            return Err(field_err(0, format!("{id:?} is used twice")));
        }
        let name = f(1).to_string();
        if name.is_empty() {
            return Err(field_err(1, "empty name".into()));
        }
        let cat = f(2).to_ascii_lowercase();
        if cat.is_empty() {
            return Err(field_err(2, "empty category".into()));
        }
        let category = match categories.iter().position(|c| *c == cat) {
            Some(i) => i,
            None => {
                if categories.len() >= MAX_CATEGORIES {
                    let names: Vec<&str> = categories.iter().map(|s| s.as_str()).collect();
                    return Err(field_err(
                        2,
                        format!(
                            "{:?}{}: more than {MAX_CATEGORIES} categories",
                            f(2),
                            super::hint(&cat, &names)
                        ),
                    ));
                }
                categories.push(cat);
                first_use.push((line, f(2).to_string()));
                categories.len() - 1
            }
        };
        let set_name = f(3).to_string();
        if set_name.is_empty() {
            return Err(field_err(3, "empty set".into()));
        }
        let set = match set_names.iter().position(|c| *c == set_name) {
            Some(i) => i,
            None => {
                set_names.push(set_name);
                set_names.len() - 1
            }
        };
        let endgame = match f(4) {
            "" => Endgame::None,
            "death" => Endgame::Death,
            "justice" => Endgame::Justice,
            o => {
                return Err(field_err(
                    4,
                    format!(
                        "{o:?}: {}",
                        did_you_mean(o, ["death", "justice", "(empty)"])
                    ),
                ))
            }
        };
        let edge = |i: usize| -> Result<Edge> {
            match f(i) {
                "" => Ok(Edge::None),
                "moon" => Ok(Edge::Moon),
                "triangle" => Ok(Edge::Triangle),
                o => Err(field_err(
                    i,
                    format!(
                        "{o:?}: {}",
                        did_you_mean(o, ["moon", "triangle", "(empty)"])
                    ),
                )),
            }
        };
        let (edge_left, edge_right) = (edge(5)?, edge(6)?);
        let icons = |i: usize| -> Result<u8> {
            f(i).parse::<u8>()
                .ok()
                .filter(|n| *n <= 9)
                .ok_or_else(|| field_err(i, format!("{:?} is not a count from 0 to 9", f(i))))
        };
        let (hope, despair_add, despair_remove) = (icons(7)?, icons(8)?, icons(9)?);
        let mut by_number = [0u8; MAX_PLAYERS + 1];
        for part in f(10).split_whitespace() {
            let parsed = part
                .split_once('@')
                .and_then(|(c, n)| Some((c.parse::<u8>().ok()?, n.parse::<usize>().ok()?)));
            match parsed {
                Some((c, n)) if (MIN_PLAYERS..=MAX_PLAYERS).contains(&n) && c <= 20 => {
                    by_number[n] = by_number[n].saturating_add(c)
                }
                _ => {
                    return Err(field_err(
                        10,
                        format!("{part:?}: expected count@number pairs like \"3@3 1@4\" (number {MIN_PLAYERS} to {MAX_PLAYERS}, count up to 20)"),
                    ))
                }
            }
        }
        if by_number.iter().all(|c| *c == 0) {
            return Err(field_err(
                10,
                "no copies (expected count@number pairs like \"3@3 1@4\")".into(),
            ));
        }
        let mut copies = [0u8; MAX_PLAYERS + 1];
        let mut acc = 0u8;
        for p in 0..=MAX_PLAYERS {
            acc = acc.saturating_add(by_number[p]);
            copies[p] = acc;
        }
        if designs.len() >= MAX_DESIGNS {
            bail!("{file}:{line}: more than {MAX_DESIGNS} building designs");
        }
        designs.push(Design {
            id,
            name,
            category: category as u8,
            set: set as u8,
            endgame,
            edge_left,
            edge_right,
            hope,
            despair_add,
            despair_remove,
            copies,
        });
    }
    if designs.is_empty() {
        bail!("{file}: no buildings");
    }
    // Sets: exactly three designs chaining left to right with both symbols.
    let mut sets = Vec::new();
    for (si, name) in set_names.iter().enumerate() {
        let members: Vec<usize> = (0..designs.len())
            .filter(|&d| designs[d].set as usize == si)
            .collect();
        let label: Vec<&str> = members.iter().map(|&d| designs[d].id.as_str()).collect();
        if members.len() != 3 {
            bail!(
                "{file}: set {name:?} has {} designs ({}); a set is 3 distinct designs, so it can never complete",
                members.len(),
                label.join(", ")
            );
        }
        let endgame = designs[members[0]].endgame;
        if members.iter().any(|&d| designs[d].endgame != endgame) {
            bail!(
                "{file}: set {name:?}: its designs ({}) disagree on the endgame icon",
                label.join(", ")
            );
        }
        let chain = chain_of(&designs, &members).ok_or_else(|| {
            let edges: Vec<String> = members
                .iter()
                .map(|&d| format!("{} [{:?}|{:?}]", designs[d].id, designs[d].edge_left, designs[d].edge_right))
                .collect();
            anyhow!(
                "{file}: set {name:?} can never complete: its edges ({}) do not chain into left end, middle, right end using both a moon and a triangle pair",
                edges.join(", ")
            )
        })?;
        sets.push(SetInfo {
            name: name.clone(),
            designs: chain,
            endgame,
        });
    }
    Ok((categories, first_use, designs, sets))
}

/// A category exists by being used in `buildings.csv`: nothing declares it.
/// So a misspelt category on one row would silently make a new category
/// that scores for nobody. A category that no character names must
/// therefore be on at least 2 rows; one used by a single row and named by
/// no character is refused, at that row, with the close name if any.
fn check_categories(
    bf: &str,
    cf: &str,
    categories: &[String],
    first_use: &[FirstUse],
    designs: &[Design],
    characters: &[Character],
) -> Result<()> {
    let scored = characters.iter().fold(0u16, |m, c| m | c.categories);
    for (i, (line, written)) in first_use.iter().enumerate() {
        let rows = designs.iter().filter(|d| d.category as usize == i).count();
        if rows > 1 || scored & (1 << i) != 0 {
            continue;
        }
        let others: Vec<&str> = categories
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, s)| s.as_str())
            .collect();
        bail!(
            "{bf}:{line}: field category: {written:?}{} is on this row only and no character in {cf} names it, so it scores for nobody; a category that no character names must be on 2 rows or more (the other categories: {})",
            super::hint(&categories[i], &others),
            others.join(", ")
        );
    }
    Ok(())
}

/// The chain order of a set's three designs, if they form one: a left end
/// (no left edge), a middle, a right end (no right edge), each right edge
/// matching the next left edge, the two joints using different symbols.
fn chain_of(designs: &[Design], m: &[usize]) -> Option<[u8; 3]> {
    for a in 0..3 {
        for b in 0..3 {
            for c in 0..3 {
                if a == b || b == c || a == c {
                    continue;
                }
                let (x, y, z) = (&designs[m[a]], &designs[m[b]], &designs[m[c]]);
                let ok = x.edge_left == Edge::None
                    && z.edge_right == Edge::None
                    && x.edge_right != Edge::None
                    && x.edge_right == y.edge_left
                    && y.edge_right != Edge::None
                    && y.edge_right == z.edge_left
                    && x.edge_right != y.edge_right;
                if ok {
                    return Some([m[a] as u8, m[b] as u8, m[c] as u8]);
                }
            }
        }
    }
    None
}

fn parse_events(file: &str, text: &str) -> Result<Vec<Event>> {
    let f: EventsFile = toml::from_str(text).map_err(|e| toml_err(file, text, e))?;
    let mut out: Vec<Event> = Vec::new();
    // The ids seen (a search of `out` per row made a long file quadratic).
    let mut ids: std::collections::HashSet<String> = Default::default();
    for row in &f.events {
        let r = row.get_ref();
        let e = |span: std::ops::Range<usize>, msg: String| at(file, text, span, msg);
        let id = r.id.get_ref().clone();
        crate::output::check_name(&id).map_err(|m| e(r.id.span(), format!("event id {m}")))?;
        crate::output::check_name(&r.name)
            .map_err(|m| e(r.id.span(), format!("event {id:?}: name {m}")))?;
        if id.is_empty() || !ids.insert(id.clone()) {
            return Err(e(
                r.id.span(),
                format!("event id {id:?} is empty or used twice"),
            ));
        }
        let small = |v: &Sp<i64>, name: &str, lo: i64, hi: i64| -> Result<u8> {
            let x = *v.get_ref();
            if (lo..=hi).contains(&x) {
                Ok(x as u8)
            } else {
                Err(e(v.span(), format!("{name} = {x} is outside {lo}..={hi}")))
            }
        };
        let cost = r.cost.as_ref().map_or(Ok(0), |v| small(v, "cost", 0, 50))?;
        let remove_despair = r
            .remove_despair
            .as_ref()
            .map_or(Ok(0), |v| small(v, "remove_despair", 0, 20))?;
        let min_players = match &r.min_players {
            Some(v) => small(v, "min_players", MIN_PLAYERS as i64, MAX_PLAYERS as i64)?,
            None => MIN_PLAYERS as u8,
        };
        let n = match &r.n {
            Some(v) => small(v, "n", 0, 20)?,
            None => 0,
        };
        let give_take = match &r.give_take {
            None => GiveTake::None,
            Some(v) => match v.get_ref().as_str() {
                "none" => GiveTake::None,
                "give" => GiveTake::Give,
                "take" => GiveTake::Take,
                o => {
                    return Err(e(
                        v.span(),
                        format!(
                            "give_take {o:?}: {}",
                            did_you_mean(o, ["none", "give", "take"])
                        ),
                    ))
                }
            },
        };
        let effect = match &r.effect {
            None => Effect::None,
            Some(v) => {
                let s = v.get_ref().as_str();
                match Effect::ALL.iter().find(|x| x.0 == s) {
                    Some(x) => x.1,
                    None => {
                        return Err(e(
                            v.span(),
                            format!(
                                "effect {s:?}: {}",
                                did_you_mean(s, Effect::ALL.iter().map(|x| x.0))
                            ),
                        ))
                    }
                }
            }
        };
        let who = match &r.who {
            None if effect == Effect::None => Who::Launcher,
            None => {
                return Err(e(
                    row.span(),
                    format!(
                        "event {id:?}: effect {} needs `who` (target, all or launcher)",
                        effect.name()
                    ),
                ))
            }
            Some(v) => match v.get_ref().as_str() {
                "target" => Who::Target,
                "all" => Who::All,
                "launcher" => Who::Launcher,
                o => {
                    return Err(e(
                        v.span(),
                        format!(
                            "who {o:?}: {}",
                            did_you_mean(o, ["target", "all", "launcher"])
                        ),
                    ))
                }
            },
        };
        let single = matches!(
            effect,
            Effect::PutOnTrial
                | Effect::TakeBuilding
                | Effect::DestroyBuilding
                | Effect::PeekCharacter
                | Effect::RevealCharacter
        );
        if single && who != Who::Target {
            return Err(e(
                row.span(),
                format!(
                    "event {id:?}: effect {} acts on one named player, so `who` must be \"target\"",
                    effect.name()
                ),
            ));
        }
        if matches!(effect, Effect::GainHope | Effect::AddDespair) && n == 0 {
            return Err(e(
                row.span(),
                format!("event {id:?}: effect {} needs n >= 1", effect.name()),
            ));
        }
        if out.len() >= MAX_EVENTS {
            return Err(e(row.span(), format!("more than {MAX_EVENTS} events")));
        }
        out.push(Event {
            id,
            name: r.name.clone(),
            cost,
            red_border: r.red_border,
            start_face_up: r.start_face_up,
            give_take,
            min_players,
            remove_despair,
            effect,
            who,
            n,
        });
    }
    if out.is_empty() {
        bail!("{file}: no events");
    }
    Ok(out)
}

/// `buildings`: the buildings file's name and the first row of each
/// category, for the "did you mean" of an unknown category (the misspelling
/// may be on the buildings' side).
fn parse_characters(
    file: &str,
    text: &str,
    categories: &[String],
    buildings: (&str, &[FirstUse]),
) -> Result<Vec<Character>> {
    let f: CharactersFile = toml::from_str(text).map_err(|e| toml_err(file, text, e))?;
    let mut out: Vec<Character> = Vec::new();
    for row in &f.characters {
        let r = row.get_ref();
        let id = r.id.get_ref().clone();
        crate::output::check_name(&id)
            .map_err(|m| at(file, text, r.id.span(), format!("character id {m}")))?;
        if id.is_empty() || out.iter().any(|x| x.id == id) {
            return Err(at(
                file,
                text,
                r.id.span(),
                format!("character id {id:?} is empty or used twice"),
            ));
        }
        let team = match r.team.get_ref().as_str() {
            "witch" => Team::Witch,
            "puritan" => Team::Puritan,
            o => {
                return Err(at(
                    file,
                    text,
                    r.team.span(),
                    format!("team {o:?}: {}", did_you_mean(o, ["witch", "puritan"])),
                ))
            }
        };
        if out.iter().filter(|c| c.team == team).count() >= MAX_TEAM_CHARACTERS {
            return Err(at(
                file,
                text,
                r.id.span(),
                format!(
                    "character {id:?}: more than {MAX_TEAM_CHARACTERS} {} characters",
                    team.name()
                ),
            ));
        }
        let mut mask = 0u16;
        for c in r.categories.get_ref() {
            let name = c.get_ref().to_ascii_lowercase();
            match categories.iter().position(|x| *x == name) {
                Some(i) => mask |= 1 << i,
                None => {
                    // A close category may be the misspelt one (the file
                    // that defines categories is buildings.csv): say where
                    // it is written.
                    let names: Vec<&str> = categories.iter().map(|s| s.as_str()).collect();
                    let (bf, first_use) = buildings;
                    let there = super::closest(&name, &names)
                        .and_then(|close| names.iter().position(|n| *n == close))
                        .and_then(|i| first_use.get(i))
                        .map(|(line, written)| {
                            format!(
                                "; {bf}:{line} is the first row with {written:?}: if the misspelling is there, fix it in {bf}"
                            )
                        })
                        .unwrap_or_default();
                    return Err(at(
                        file,
                        text,
                        c.span(),
                        format!(
                            "unknown category {:?} (no building has it); {}{there}",
                            c.get_ref(),
                            did_you_mean(&name, names.iter().copied())
                        ),
                    ));
                }
            }
        }
        if mask == 0 {
            return Err(at(
                file,
                text,
                r.categories.span(),
                format!("character {id:?} has no category"),
            ));
        }
        out.push(Character {
            id,
            team,
            categories: mask,
        });
    }
    Ok(out)
}

impl Data {
    /// The options the data file set (the sample sets every default).
    pub fn options_default(&self) -> Options {
        self.rules.options.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_loads_and_matches_the_specification() {
        let d = Data::sample();
        assert_eq!(d.designs.len(), 18);
        assert_eq!(d.sets.len(), 6);
        // The published second edition's component counts: 144 buildings
        // (at 8 players, below), 24 events, 10 characters, 5 rounds.
        assert_eq!(d.events.len(), 24);
        assert_eq!(d.rules.dealt.len(), 5);
        assert_eq!(d.characters.len(), 10);
        assert_eq!(d.rules.threshold[5], 10);
        // 54 buildings at 3 players, +18 per extra player.
        for p in 3..=8 {
            let n: usize = d.designs.iter().map(|x| x.copies[p] as usize).sum();
            assert_eq!(n, 54 + 18 * (p - 3));
            assert_eq!(d.buildings_needed(p), 15 * p);
        }
        // Finance's edges are reversed: the chain still orders them.
        let fin = d.sets.iter().find(|s| s.name == "fin_a").unwrap();
        let ids: Vec<&str> = fin
            .designs
            .iter()
            .map(|&i| d.designs[i as usize].id.as_str())
            .collect();
        assert_eq!(ids, ["F1", "F2", "F3"]);
        assert_eq!(d.options_default(), Options::default());
    }
}
