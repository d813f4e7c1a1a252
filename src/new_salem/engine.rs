//! The New Salem engine: one game from setup to the final check, rules-exact
//! to the specification (docs/NEW_SALEM.md), with every open rule a named
//! option of [`super::data::Options`].
//!
//! **State.** [`Game`] is plain fixed-size data (no heap): the building deck
//! is a ring buffer of design indices (cards go *under* it, draws come from
//! the top), hands and tableaux are small arrays, the event display and the
//! held events are bit masks, badges / Trial / knowledge are `u8` masks over
//! the seats. A worker builds one `Game` and [`Game::reset`]s it for every
//! game, so a run allocates nothing per game.
//!
//! **Hidden information.** Bots never see a `Game`: every decision gets a
//! [`View`] — the game as one seat sees it. The fields of `Game` are private
//! to this module, so a bot can read only what `View`'s methods expose: its
//! own character, its own hand, every tableau and its cubes, the display,
//! badges, Trial, the Constable, and characters it was shown (Confession) or
//! that were revealed to all. Other characters, other hands and the order
//! of the deck cannot be read; a `compile_fail` test shows it.
//!
//! **Engine defaults** (not in the rulebook, documented in docs/NEW_SALEM.md):
//! Hope is paid from the player's most recent buildings first; new Hope
//! cubes go on the receiver's most recent building (a cube always sits on a
//! building: with no building it is lost); a remove-Despair takes the cube
//! from the building carrying the most Despair, looking at the owner's
//! buildings first and then the next seats; "give" / "take" cards with a red
//! border stay on the display (the player gets the card's effect, e.g. goes
//! on Trial, but the card stays available, as Trial must).

// Seats index several parallel arrays (hands, rows, picks) in the same loop.
#![allow(clippy::needless_range_loop)]

use super::data::{
    Data, Effect, EmptyDeck, Endgame, ForcedBy, GiveTake, NoEligible, RemoveCube, RemoveTarget,
    RemovesFrom, RowEnd, Team, TrialSupply, Who, MAX_DESIGNS, MAX_HAND, MAX_PLAYERS, MAX_ROUNDS,
    MAX_TEAM_CHARACTERS,
};
use crate::sim::rng::GameRng;

/// Buildings one player may own (14 drafted plus taken ones; the data
/// check keeps the drafted ones within it).
pub const MAX_TABLEAU: usize = super::data::MAX_ROW;
// `Game::dmask` holds a bit per row position.
const _: () = assert!(MAX_TABLEAU <= u32::BITS as usize);
const DECK_RING: usize = 256;

/// What the table has seen a player do, counted over the game: the
/// evidence the bots' suspicion model ([`super::bot`]) reads. Kinds
/// `PICKS..=LATE_JUSTICE` are public (every player sees every reveal, gift
/// and launch); the `PASSES..` kinds are what only the player's left
/// neighbour sees (the cards passed to them), so [`View::evidence`] shows
/// them for the viewer's right neighbour alone.
pub mod ev {
    /// Buildings the player chose (draft picks and kept cards, not blind
    /// draws) before [`LATE_ROUND`]; the next four kinds count the same
    /// choices.
    pub const PICKS: usize = 0;
    /// Chosen buildings with add-Despair icons.
    pub const ADD: usize = 1;
    /// Chosen buildings with remove-Despair icons.
    pub const REMOVE: usize = 2;
    /// Chosen buildings of a Death set.
    pub const DEATH: usize = 3;
    /// Chosen buildings of a Justice set.
    pub const JUSTICE: usize = 4;
    /// Discard choices made (two cards at the end of a draft).
    pub const DISCARDS: usize = 5;
    /// ... of which both went under the deck for a blind draw.
    pub const BLIND: usize = 6;
    /// Times the player could give Hope (not the Constable, holding Hope).
    pub const GIFT_CHANCES: usize = 7;
    /// ... and gave some to the Constable.
    pub const GIFTS: usize = 8;
    /// Events launched as Constable.
    pub const LAUNCHES: usize = 9;
    /// ... with remove-Despair icons.
    pub const REMOVE_LAUNCHES: usize = 10;
    /// ... that add Despair.
    pub const ADD_LAUNCHES: usize = 11;
    /// ... that put a player on Trial.
    pub const TRIALS: usize = 12;
    /// Times another player's Trial named this player.
    pub const NAMED: usize = 13;
    /// The round (0-based: round 4) from which choices count in the
    /// `LATE_` kinds instead of `PICKS..=JUSTICE`: a player's drafts late
    /// in the game may say the opposite of their early ones (a Witch that
    /// hides, then turns), so the two are weighed apart.
    pub const LATE_ROUND: u8 = 3;
    /// Buildings chosen from [`LATE_ROUND`] on, and of those...
    pub const LATE_PICKS: usize = 14;
    /// ... with add-Despair icons,
    pub const LATE_ADD: usize = 15;
    /// ... with remove-Despair icons,
    pub const LATE_REMOVE: usize = 16;
    /// ... of a Death set,
    pub const LATE_DEATH: usize = 17;
    /// ... of a Justice set.
    pub const LATE_JUSTICE: usize = 18;
    // `note_pick` writes a choice's five counts from its phase's first.
    const _: () = assert!(
        ADD == PICKS + 1
            && REMOVE == PICKS + 2
            && DEATH == PICKS + 3
            && JUSTICE == PICKS + 4
            && LATE_ADD == LATE_PICKS + 1
            && LATE_REMOVE == LATE_PICKS + 2
            && LATE_DEATH == LATE_PICKS + 3
            && LATE_JUSTICE == LATE_PICKS + 4
    );
    /// Public kinds.
    pub const PUBLIC: usize = 19;
    /// Picks from a hand of more than two whose rest came to the observer.
    pub const PASSES: usize = 19;
    /// ... where the pick had more add-Despair icons than a card passed on.
    pub const TOOK_DIRTIER: usize = 20;
    /// ... where it had fewer than a card passed on.
    pub const TOOK_CLEANER: usize = 21;
    /// All kinds.
    pub const KINDS: usize = 22;
}

/// One building in play and the cubes on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bld {
    pub design: u8,
    pub hope: u16,
    pub despair: u16,
}

/// A design's numbers in 8 bytes, for the decisions' inner loops (the full
/// [`super::data::Design`] carries names and lives far away in memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compact {
    /// Bit of its category.
    pub category: u16,
    pub hope: u8,
    pub add: u8,
    pub remove: u8,
    /// 1 Death, 2 Justice, 0 none (its set's end-game icon).
    pub endgame: u8,
    /// The other two designs of its set.
    pub others: [u8; 2],
}

/// A player count's compiled setup: the deck list, the events in play, the
/// character pools. Built once per run.
#[derive(Clone, Debug)]
pub struct Table {
    pub players: usize,
    pub threshold: i16,
    deck: Vec<u8>,
    /// Events in play (after the player-count filter) that start face up.
    face_up: u64,
    /// Events in play that start in the event deck.
    ev_deck: Vec<u8>,
    witches: Vec<u8>,
    puritans: Vec<u8>,
    compact: Vec<Compact>,
    pub data: Data,
}

impl Table {
    pub fn new(data: &Data, players: usize) -> anyhow::Result<Table> {
        data.check_players(players)?;
        let mut deck = Vec::new();
        for (i, d) in data.designs.iter().enumerate() {
            for _ in 0..d.copies[players] {
                deck.push(i as u8);
            }
        }
        let mut face_up = 0u64;
        let mut ev_deck = Vec::new();
        for (i, e) in data.events.iter().enumerate() {
            if e.min_players as usize > players {
                continue;
            }
            if e.start_face_up {
                face_up |= 1 << i;
            } else {
                ev_deck.push(i as u8);
            }
        }
        let team = |t: Team| -> Vec<u8> {
            data.characters
                .iter()
                .enumerate()
                .filter(|c| c.1.team == t)
                .map(|c| c.0 as u8)
                .collect()
        };
        let compact = data
            .designs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let set = &data.sets[d.set as usize];
                let mut others = [0u8; 2];
                let mut k = 0;
                for &o in &set.designs {
                    if o as usize != i && k < 2 {
                        others[k] = o;
                        k += 1;
                    }
                }
                Compact {
                    category: 1 << d.category,
                    hope: d.hope,
                    add: d.despair_add,
                    remove: d.despair_remove,
                    endgame: match set.endgame {
                        Endgame::None => 0,
                        Endgame::Death => 1,
                        Endgame::Justice => 2,
                    },
                    others,
                }
            })
            .collect();
        Ok(Table {
            compact,
            players,
            threshold: data.threshold(players),
            deck,
            face_up,
            ev_deck,
            witches: team(Team::Witch),
            puritans: team(Team::Puritan),
            data: data.clone(),
        })
    }

    /// Buildings in the deck at this player count.
    pub fn deck_size(&self) -> usize {
        self.deck.len()
    }
}

/// How a player answers the end of a draft round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Keep this card (0 or 1) of the two; the other goes under the deck.
    Card(u8),
    /// Both under the deck; keep the top card, sight unseen.
    Blind,
}

/// The decisions of a game, asked of the seat in `v.me()`. Implemented by
/// strategy-file bots ([`super::bot`]), scripted test bots and the logging
/// wrapper; the engine checks every answer and replaces an illegal one with
/// a legal default, so no bot can break the rules.
pub trait Bots {
    /// Which card of `v.hand()` to place in the tableau.
    fn pick(&mut self, v: &View) -> usize;
    /// The end-of-round choice between the two cards of `v.hand()`.
    fn keep(&mut self, v: &View) -> Keep;
    /// A gift of Hope now (RULES §4.4: anyone but the Constable may give
    /// Hope to other players): `(recipient seat, amount)`, or None. Never
    /// asked of the Constable; a gift to oneself, to a seat not at the
    /// table, or of no Hope is no gift, and at most what the giver has is
    /// given.
    fn gift(&mut self, v: &View) -> Option<(u8, u16)>;
    /// The event to launch from `launchable` (a mask of event indices), or
    /// None to end the phase. When `forced`, None launches the first one.
    fn launch(&mut self, v: &View, launchable: u64, forced: bool) -> Option<u8>;
    /// The player event `event` names, from the seats in `eligible`.
    fn target(&mut self, v: &View, event: u8, eligible: u8) -> u8;
    /// Which building (index in `v.tableau(seat)`) to take or destroy.
    fn building(&mut self, v: &View, event: u8, seat: u8) -> usize;
    /// The next Constable, from the seats in `eligible`.
    fn next_constable(&mut self, v: &View, eligible: u8) -> u8;
}

/// Where a game's events are written (a no-op for simulation runs; the
/// `salem log` verb collects lines). `ON` lets the compiler drop the
/// formatting entirely when off.
pub trait Log {
    const ON: bool;
    fn line(&mut self, seat: Option<u8>, text: String);
    /// Called after every step that changes the table (each reveal, each
    /// launch, the end of each round) when `ON`: the soak test checks the
    /// invariants here.
    fn step(&mut self, _g: &Game, _t: &Table) {}
}

/// The silent log of simulation runs.
pub struct NoLog;
impl Log for NoLog {
    const ON: bool = false;
    #[inline(always)]
    fn line(&mut self, _: Option<u8>, _: String) {}
}

/// What a game produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub players: u8,
    /// Winning side: `Some(team)`, or None when the Witches' side won with
    /// no Witch in play ("everybody loses").
    pub side: Option<Team>,
    /// Seats that won (ties share).
    pub winners: u8,
    /// Seats that are Witches.
    pub witches: u8,
    /// Seats on Trial at the end.
    pub on_trial: u8,
    /// Despair cubes on buildings at the end, before the final changes.
    pub cubes: i16,
    /// D: the cubes plus the Trial and set changes, compared with the threshold.
    pub despair: i16,
    pub threshold: i16,
    /// Points of each seat (0 for the losing side: only the winners score).
    pub points: [i16; MAX_PLAYERS],
    /// Hope cubes of each seat at the end.
    pub hope: [u16; MAX_PLAYERS],
    /// Launches and forced launches in each round.
    pub launches: [u8; MAX_ROUNDS],
    pub forced: [u8; MAX_ROUNDS],
    /// Trials launched, and how many of them hit a Witch.
    pub trials: u8,
    pub trials_on_witch: u8,
    /// Trials launched by a Puritan Constable, and how many hit a Witch.
    pub puritan_trials: u8,
    pub puritan_trials_on_witch: u8,
    /// Σ over Trials of the Witches' share of the players it could name,
    /// in units of 1/840: what naming at random would have hit (all
    /// Trials, and a Puritan Constable's).
    pub trial_chance: u32,
    pub puritan_trial_chance: u32,
    /// Launch phases stopped by the launch cap.
    pub capped: u8,
    /// Each seat's character (index in the data).
    pub chars: [u8; MAX_PLAYERS],
    /// Designs each seat drafted (kept from the draft, blind draws too),
    /// one bit per design index, whatever happened to them later.
    pub drafted_designs: [u128; MAX_PLAYERS],
    /// Copies of each design drafted, all seats together.
    pub design_picks: [u8; MAX_DESIGNS],
    /// Despair cubes in play at the end of each round.
    pub despair_by_round: [i16; MAX_ROUNDS],
    /// The first Constable's seat (seat effects count from it).
    pub first_constable: u8,
}

impl Default for Outcome {
    fn default() -> Self {
        Outcome {
            players: 0,
            side: None,
            winners: 0,
            witches: 0,
            on_trial: 0,
            cubes: 0,
            despair: 0,
            threshold: 0,
            points: [0; MAX_PLAYERS],
            hope: [0; MAX_PLAYERS],
            launches: [0; MAX_ROUNDS],
            forced: [0; MAX_ROUNDS],
            trials: 0,
            trials_on_witch: 0,
            puritan_trials: 0,
            puritan_trials_on_witch: 0,
            trial_chance: 0,
            puritan_trial_chance: 0,
            capped: 0,
            chars: [0; MAX_PLAYERS],
            drafted_designs: [0; MAX_PLAYERS],
            design_picks: [0; MAX_DESIGNS],
            despair_by_round: [0; MAX_ROUNDS],
            first_constable: 0,
        }
    }
}

/// One game of New Salem. See the module doc.
#[derive(Clone)]
pub struct Game {
    n: u8,
    round: u8,
    chars: [u8; MAX_PLAYERS],
    /// Each seat's character's categories (a cache of `chars`).
    cats: [u16; MAX_PLAYERS],
    witches: u8,
    deck: [u8; DECK_RING],
    deck_head: u8,
    deck_len: u16,
    hands: [[u8; MAX_HAND]; MAX_PLAYERS],
    hand_len: [u8; MAX_PLAYERS],
    tab: [[Bld; MAX_TABLEAU]; MAX_PLAYERS],
    tab_len: [u8; MAX_PLAYERS],
    /// Per seat, a bit per row position whose building carries Despair
    /// (a cache of the rows, checked by `check_invariants`): the
    /// remove-Despair search visits only those.
    dmask: [u32; MAX_PLAYERS],
    count: [[u8; MAX_DESIGNS]; MAX_PLAYERS],
    ev_deck: [u8; 64],
    ev_head: u8,
    ev_len: u8,
    display: u64,
    held: [u64; MAX_PLAYERS],
    on_trial: u8,
    badges: u8,
    constable: u8,
    known: [u8; MAX_PLAYERS],
    revealed: u8,
    /// Buildings each seat has drafted (kept from the draft), whatever
    /// happened to them later.
    drafted: [u8; MAX_PLAYERS],
    /// Caches kept in step with the rows (checked by `check_invariants`):
    /// each seat's Hope, the Despair in play, and each seat's icon sums
    /// (see [`View::icons`]).
    hope_tot: [u16; MAX_PLAYERS],
    /// Wide: events can add far more than an `i16` over a game
    /// (`add_despair` to all, `n` up to 20, up to 100 launches a phase).
    despair_tot: i32,
    icons: [[i16; 5]; MAX_PLAYERS],
    /// Buildings out of the game (destroyed with `destroyed_building = removed`).
    removed: [u8; MAX_DESIGNS],
    /// Trial cards given away so far (`trial = N` counts them).
    trial_cards_given: u8,
    /// Public evidence per seat (see [`ev`]).
    evid: [[u8; ev::PUBLIC]; MAX_PLAYERS],
    /// What each seat saw its right neighbour pass (see [`ev`]).
    passev: [[u8; ev::KINDS - ev::PUBLIC]; MAX_PLAYERS],
    out: Outcome,
    rng: GameRng,
}

/// The game as one seat sees it: the only thing bots are given.
///
/// A bot cannot reach the hidden state through it: the game behind a view
/// is a private field, and `Game`'s own fields are private too. Both of
/// these fail to compile:
///
/// ```compile_fail
/// // Another player's character, through the view's game.
/// fn peek(v: &domsim::new_salem::engine::View) -> u8 { v.g.chars[1] }
/// ```
///
/// ```compile_fail
/// // The order of the building deck.
/// fn peek(g: &domsim::new_salem::engine::Game) -> u8 { g.deck[0] }
/// ```
///
/// while the public surface compiles:
///
/// ```
/// fn mine(v: &domsim::new_salem::engine::View) -> u8 { v.my_character() }
/// ```
#[derive(Clone, Copy)]
pub struct View<'a> {
    g: &'a Game,
    t: &'a Table,
    me: u8,
}

impl<'a> View<'a> {
    /// The seat deciding.
    #[inline]
    pub fn me(&self) -> u8 {
        self.me
    }
    pub fn players(&self) -> usize {
        self.g.n as usize
    }
    /// Round, from 1.
    pub fn round(&self) -> u8 {
        self.g.round + 1
    }
    pub fn data(&self) -> &'a Data {
        &self.t.data
    }
    /// A design's numbers, compactly (see [`Compact`]).
    #[inline]
    pub fn design(&self, d: u8) -> &'a Compact {
        &self.t.compact[d as usize]
    }
    /// My own team.
    #[inline]
    pub fn my_team(&self) -> Team {
        self.g.team(self.me)
    }
    /// My character's categories (bit per category).
    #[inline]
    pub fn my_categories(&self) -> u16 {
        self.g.cats[self.me as usize]
    }
    /// My character's index (my own card: always known to me).
    pub fn my_character(&self) -> u8 {
        self.g.chars[self.me as usize]
    }
    /// My hand (the cards passed to me, or dealt).
    #[inline]
    pub fn hand(&self) -> &'a [u8] {
        let m = self.me as usize;
        &self.g.hands[m][..self.g.hand_len[m] as usize]
    }
    /// Every player's revealed buildings and the cubes on them.
    #[inline]
    pub fn tableau(&self, seat: u8) -> &'a [Bld] {
        self.g.tableau(seat)
    }
    /// Copies of `design` in `seat`'s tableau.
    #[inline]
    pub fn count(&self, seat: u8, design: u8) -> u8 {
        self.g.count[seat as usize][design as usize]
    }
    pub fn hope(&self, seat: u8) -> u16 {
        self.g.hope(seat)
    }
    /// Despair cubes on all buildings.
    #[inline]
    pub fn despair(&self) -> i16 {
        self.g.despair()
    }
    /// Icon sums of `seat`'s revealed buildings: add-Despair, remove-Despair,
    /// Hope icons, Death buildings, Justice buildings (public: every row is
    /// face up).
    #[inline]
    pub fn icons(&self, seat: u8) -> [i16; 5] {
        self.g.icons[seat as usize]
    }
    pub fn threshold(&self) -> i16 {
        self.t.threshold
    }
    pub fn constable(&self) -> u8 {
        self.g.constable
    }
    pub fn badges(&self) -> u8 {
        self.g.badges
    }
    /// Seats on Trial (holding a Trial card).
    pub fn on_trial(&self) -> u8 {
        self.g.on_trial
    }
    /// Face-up events (bit per event index).
    pub fn display(&self) -> u64 {
        self.g.display
    }
    /// Events each seat holds (public: give/take cards are handed over openly).
    pub fn held(&self, seat: u8) -> u64 {
        self.g.held[seat as usize]
    }
    /// A player's team, if I may know it: my own, one shown to me, one revealed to all.
    #[inline]
    pub fn known_team(&self, seat: u8) -> Option<Team> {
        let bit = 1u8 << seat;
        if seat == self.me
            || self.g.known[self.me as usize] & bit != 0
            || self.g.revealed & bit != 0
        {
            Some(self.g.team(seat))
        } else {
            None
        }
    }
    /// What I have seen `seat` do this game (see [`ev`]): the public
    /// counts, and, for my right neighbour only, what they passed me.
    #[inline]
    pub fn evidence(&self, seat: u8) -> [u8; ev::KINDS] {
        let mut e = [0u8; ev::KINDS];
        e[..ev::PUBLIC].copy_from_slice(&self.g.evid[seat as usize]);
        let n = self.g.n;
        if n > 0 && (seat + 1) % n == self.me && seat != self.me {
            e[ev::PUBLIC..].copy_from_slice(&self.g.passev[self.me as usize]);
        }
        e
    }
    /// One public kind (below [`ev::PUBLIC`]) of [`View::evidence`].
    #[inline]
    pub fn public_evidence(&self, seat: u8, kind: usize) -> u8 {
        self.g.evid[seat as usize][kind]
    }
    /// Buildings left in the deck (its size is public; its order is not).
    pub fn deck_left(&self) -> usize {
        self.g.deck_len as usize
    }
}

impl Game {
    /// An empty game (call [`Game::reset`] before playing).
    pub fn new() -> Game {
        Game {
            n: 0,
            round: 0,
            chars: [0; MAX_PLAYERS],
            cats: [0; MAX_PLAYERS],
            witches: 0,
            deck: [0; DECK_RING],
            deck_head: 0,
            deck_len: 0,
            hands: [[0; MAX_HAND]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            tab: [[Bld::default(); MAX_TABLEAU]; MAX_PLAYERS],
            tab_len: [0; MAX_PLAYERS],
            dmask: [0; MAX_PLAYERS],
            count: [[0; MAX_DESIGNS]; MAX_PLAYERS],
            ev_deck: [0; 64],
            ev_head: 0,
            ev_len: 0,
            display: 0,
            held: [0; MAX_PLAYERS],
            on_trial: 0,
            badges: 0,
            constable: 0,
            known: [0; MAX_PLAYERS],
            revealed: 0,
            drafted: [0; MAX_PLAYERS],
            hope_tot: [0; MAX_PLAYERS],
            despair_tot: 0,
            removed: [0; MAX_DESIGNS],
            trial_cards_given: 0,
            evid: [[0; ev::PUBLIC]; MAX_PLAYERS],
            passev: [[0; ev::KINDS - ev::PUBLIC]; MAX_PLAYERS],
            icons: [[0; 5]; MAX_PLAYERS],
            out: Outcome::default(),
            rng: GameRng::for_game(0, 0),
        }
    }

    /// Set up game `index` of the run seeded `seed` (characters dealt, decks
    /// shuffled, the first Constable drawn). Randomness depends only on
    /// `(seed, index)`.
    pub fn reset(&mut self, t: &Table, rng: GameRng) {
        let n = t.players;
        self.rng = rng;
        self.n = n as u8;
        self.round = 0;
        // Characters: each team's pile cut to the table's count, the two
        // shuffled together, one dealt to each player, the rest unseen.
        let mut pile = [0u8; 2 * MAX_TEAM_CHARACTERS];
        let mut len = 0;
        let mut w = [0u8; MAX_TEAM_CHARACTERS];
        let wl = t.witches.len().min(MAX_TEAM_CHARACTERS);
        w[..wl].copy_from_slice(&t.witches[..wl]);
        self.rng.shuffle(&mut w[..wl]);
        for &c in &w[..(t.data.rules.witch_cards[n] as usize).min(wl)] {
            pile[len] = c;
            len += 1;
        }
        let mut p = [0u8; MAX_TEAM_CHARACTERS];
        let pl = t.puritans.len().min(MAX_TEAM_CHARACTERS);
        p[..pl].copy_from_slice(&t.puritans[..pl]);
        self.rng.shuffle(&mut p[..pl]);
        for &c in &p[..(t.data.rules.puritan_cards[n] as usize).min(pl)] {
            pile[len] = c;
            len += 1;
        }
        self.rng.shuffle(&mut pile[..len]);
        self.witches = 0;
        for s in 0..n {
            self.chars[s] = pile[s];
            self.cats[s] = t.data.characters[pile[s] as usize].categories;
            if t.data.characters[pile[s] as usize].team == Team::Witch {
                self.witches |= 1 << s;
            }
            self.known[s] = 1 << s;
        }
        self.revealed = 0;
        // Buildings.
        let dl = t.deck.len();
        self.deck[..dl].copy_from_slice(&t.deck);
        self.rng.shuffle(&mut self.deck[..dl]);
        self.deck_head = 0;
        self.deck_len = dl as u16;
        for s in 0..MAX_PLAYERS {
            self.hand_len[s] = 0;
            self.tab_len[s] = 0;
            self.dmask[s] = 0;
            self.held[s] = 0;
            self.count[s] = [0; MAX_DESIGNS];
        }
        // Events: Purification and Trial (the start_face_up ones) face up,
        // the rest shuffled into the event deck.
        self.display = t.face_up;
        let el = t.ev_deck.len();
        self.ev_deck[..el].copy_from_slice(&t.ev_deck);
        self.rng.shuffle(&mut self.ev_deck[..el]);
        self.ev_head = 0;
        self.ev_len = el as u8;
        self.on_trial = 0;
        self.drafted = [0; MAX_PLAYERS];
        self.hope_tot = [0; MAX_PLAYERS];
        self.despair_tot = 0;
        self.removed = [0; MAX_DESIGNS];
        self.trial_cards_given = 0;
        self.evid = [[0; ev::PUBLIC]; MAX_PLAYERS];
        self.passev = [[0; ev::KINDS - ev::PUBLIC]; MAX_PLAYERS];
        self.icons = [[0; 5]; MAX_PLAYERS];
        // First Constable: at random; a badge, no Hope.
        self.constable = self.rng.below(n as u32) as u8;
        self.badges = 1 << self.constable;
        self.out = Outcome {
            players: n as u8,
            threshold: t.threshold,
            witches: self.witches,
            chars: self.chars,
            first_constable: self.constable,
            ..Outcome::default()
        };
    }

    /// Everything the table saw `seat` do (see [`ev`]), the private pass
    /// counts included (as their left neighbour saw them): for learning
    /// the belief model's likelihoods after a game ([`super::belief`]);
    /// bots only ever get a [`View`].
    pub fn evidence(&self, seat: u8) -> [u8; ev::KINDS] {
        let mut e = [0u8; ev::KINDS];
        e[..ev::PUBLIC].copy_from_slice(&self.evid[seat as usize]);
        if self.n > 0 {
            e[ev::PUBLIC..].copy_from_slice(&self.passev[((seat + 1) % self.n) as usize]);
        }
        e
    }

    /// The game's random generator (the runner draws the seating from it
    /// after setup).
    pub fn rng(&mut self) -> &mut GameRng {
        &mut self.rng
    }

    #[inline]
    fn team(&self, seat: u8) -> Team {
        if self.witches & (1 << seat) != 0 {
            Team::Witch
        } else {
            Team::Puritan
        }
    }

    #[inline]
    fn tableau(&self, seat: u8) -> &[Bld] {
        &self.tab[seat as usize][..self.tab_len[seat as usize] as usize]
    }

    #[inline]
    fn hope(&self, seat: u8) -> u16 {
        self.hope_tot[seat as usize]
    }

    /// Despair cubes in play, clamped into an `i16` (only absurd card data
    /// gets near the clamp: the threshold is within ±1000, so the clamp
    /// never changes which side wins).
    #[inline]
    fn despair(&self) -> i16 {
        self.despair_tot.clamp(i16::MIN as i32, i16::MAX as i32) as i16
    }

    /// Add (`sign` 1) or remove (-1) design `d`'s icons to `seat`'s sums.
    #[inline]
    fn icons_add(&mut self, t: &Table, seat: u8, d: u8, sign: i16) {
        let x = &t.compact[d as usize];
        let v = &mut self.icons[seat as usize];
        v[0] += sign * x.add as i16;
        v[1] += sign * x.remove as i16;
        v[2] += sign * x.hope as i16;
        v[3] += sign * (x.endgame == 1) as i16;
        v[4] += sign * (x.endgame == 2) as i16;
    }

    fn all(&self) -> u8 {
        ((1u16 << self.n) - 1) as u8
    }

    fn view<'a>(&'a self, t: &'a Table, me: u8) -> View<'a> {
        View { g: self, t, me }
    }

    // ----- decks -----

    fn draw(&mut self) -> Option<u8> {
        if self.deck_len == 0 {
            return None;
        }
        let c = self.deck[self.deck_head as usize];
        self.deck_head = self.deck_head.wrapping_add(1);
        self.deck_len -= 1;
        Some(c)
    }

    fn under(&mut self, c: u8) {
        let at = (self.deck_head as usize + self.deck_len as usize) % DECK_RING;
        self.deck[at] = c;
        self.deck_len += 1;
    }

    fn shuffle_deck(&mut self) {
        // Shuffle the cards where they lie when they do not wrap around
        // the ring (the same cards in the same order: the same shuffle);
        // otherwise move them to the front first. Only the `len` cards
        // from the head are ever read.
        let len = self.deck_len as usize;
        let head = self.deck_head as usize;
        if head + len > DECK_RING {
            let mut tmp = [0u8; DECK_RING];
            let first = DECK_RING - head;
            tmp[..first].copy_from_slice(&self.deck[head..]);
            tmp[first..len].copy_from_slice(&self.deck[..len - first]);
            self.deck[..len].copy_from_slice(&tmp[..len]);
            self.deck_head = 0;
        }
        let head = self.deck_head as usize;
        self.rng.shuffle(&mut self.deck[head..head + len]);
    }

    fn flip_event(&mut self) {
        if self.ev_len > 0 {
            let e = self.ev_deck[self.ev_head as usize % 64];
            self.ev_head = self.ev_head.wrapping_add(1) % 64;
            self.ev_len -= 1;
            self.display |= 1 << e;
        }
    }

    fn event_under(&mut self, e: u8) {
        let at = (self.ev_head as usize + self.ev_len as usize) % 64;
        self.ev_deck[at] = e;
        self.ev_len += 1;
    }

    // ----- cubes -----

    /// The building of `seat`'s row new cubes go on (`new_cubes`), if any.
    #[inline]
    fn new_cube_at(&self, t: &Table, seat: u8) -> Option<usize> {
        let l = self.tab_len[seat as usize] as usize;
        match (l, t.data.rules.options.new_cubes) {
            (0, _) => None,
            (_, RowEnd::Newest) => Some(l - 1),
            (_, RowEnd::Oldest) => Some(0),
        }
    }

    /// New Hope cubes for `seat`: on their most recent building (or their
    /// first, `new_cubes = oldest`).
    fn add_hope(&mut self, t: &Table, seat: u8, k: u16) {
        let s = seat as usize;
        // A player's Hope stays within a u16 (only a bot gifting without
        // end could get there); the rest stays in the supply.
        let k = k.min(u16::MAX - self.hope_tot[s]);
        if let (Some(i), true) = (self.new_cube_at(t, seat), k > 0) {
            self.tab[s][i].hope += k;
            self.hope_tot[s] += k;
        }
    }

    /// Take `k` Hope from `seat`'s buildings, most recent first (or first
    /// built first, `pay_from = oldest`). Returns what was taken.
    fn take_hope(&mut self, t: &Table, seat: u8, mut k: u16) -> u16 {
        let s = seat as usize;
        let l = self.tab_len[s] as usize;
        let oldest = t.data.rules.options.pay_from == RowEnd::Oldest;
        let mut taken = 0;
        for j in 0..l {
            if k == 0 {
                break;
            }
            let i = if oldest { j } else { l - 1 - j };
            let x = self.tab[s][i].hope.min(k);
            self.tab[s][i].hope -= x;
            k -= x;
            taken += x;
        }
        self.hope_tot[s] -= taken;
        taken
    }

    /// One remove-Despair icon of `owner`: a cube off the building carrying
    /// the most Despair (`remove_cube = least`: the fewest) among those
    /// `remove_target` allows (ties: the owner's first, then the next
    /// seats); lost if none.
    fn remove_despair(&mut self, t: &Table, owner: u8) -> bool {
        let o = &t.data.rules.options;
        let least = o.remove_cube == RemoveCube::Least;
        let seats = match o.remove_target {
            RemoveTarget::Any => self.n,
            RemoveTarget::Own => 1,
            RemoveTarget::OwnFirst => {
                if self.dmask[owner as usize] != 0 {
                    1
                } else {
                    self.n
                }
            }
        };
        if self.despair_tot == 0 {
            // No building carries Despair (the cache is the rows' sum).
            return false;
        }
        // The buildings carrying Despair, row order, seat by seat from the
        // owner (`dmask`): the first of the most (or fewest) wins.
        let mut best: Option<(usize, usize, u16)> = None;
        let mut s = owner as usize;
        for _ in 0..seats {
            let mut m = self.dmask[s];
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let d = self.tab[s][i].despair;
                let better = |b: (usize, usize, u16)| if least { d < b.2 } else { d > b.2 };
                if best.is_none_or(better) {
                    best = Some((s, i, d));
                }
            }
            s += 1;
            if s == self.n as usize {
                s = 0;
            }
        }
        match best {
            Some((s, i, _)) => {
                self.tab[s][i].despair -= 1;
                self.despair_tot -= 1;
                self.note_despair(s, i);
                true
            }
            None => false,
        }
    }

    /// Keep `dmask` in step with the Despair on `seat`'s building `i`.
    #[inline]
    fn note_despair(&mut self, seat: usize, i: usize) {
        if self.tab[seat][i].despair > 0 {
            self.dmask[seat] |= 1 << i;
        } else {
            self.dmask[seat] &= !(1 << i);
        }
    }

    /// Place `design` in `seat`'s tableau with its Hope and add-Despair
    /// cubes (the removes resolve after every add of the reveal).
    fn place(&mut self, t: &Table, seat: u8, design: u8) {
        let d = &t.compact[design as usize];
        let s = seat as usize;
        let l = self.tab_len[s] as usize;
        if l >= MAX_TABLEAU {
            // Cannot happen: the data check keeps the kept buildings within
            // a row, and taking is refused for a full row. Keep the card out
            // of play rather than panic.
            self.under(design);
            return;
        }
        self.tab[s][l] = Bld {
            design,
            hope: d.hope as u16,
            despair: d.add as u16 * t.data.rules.options.despair_per_icon as u16,
        };
        self.hope_tot[s] += self.tab[s][l].hope;
        self.despair_tot += self.tab[s][l].despair as i32;
        self.note_despair(s, l);
        self.icons_add(t, seat, design, 1);
        self.tab_len[s] += 1;
        self.count[s][design as usize] += 1;
    }

    /// Evidence: `seat` chose `design`.
    #[inline]
    fn note_pick(&mut self, t: &Table, seat: u8, design: u8) {
        // Plain sums: a seat chooses fewer than MAX_HAND cards a round over
        // at most MAX_ROUNDS rounds (the data check), far below 255.
        const _: () = assert!(MAX_HAND * MAX_ROUNDS < u8::MAX as usize);
        let c = &t.compact[design as usize];
        let e = &mut self.evid[seat as usize];
        let k = if self.round >= ev::LATE_ROUND {
            ev::LATE_PICKS
        } else {
            ev::PICKS
        };
        e[k] += 1;
        e[k + 1] += (c.add > 0) as u8;
        e[k + 2] += (c.remove > 0) as u8;
        e[k + 3] += (c.endgame == 1) as u8;
        e[k + 4] += (c.endgame == 2) as u8;
    }

    /// A simultaneous reveal: `picks[s]` (if any) joins seat `s`'s row.
    fn reveal<L: Log>(&mut self, t: &Table, picks: &[Option<u8>; MAX_PLAYERS], log: &mut L) {
        // Seats whose pick has remove-Despair icons.
        let mut removing = 0u8;
        for s in 0..self.n {
            if let Some(d) = picks[s as usize] {
                removing |= ((t.compact[d as usize].remove > 0) as u8) << s;
                self.drafted[s as usize] += 1;
                self.out.drafted_designs[s as usize] |= 1u128 << d;
                self.out.design_picks[d as usize] =
                    self.out.design_picks[d as usize].saturating_add(1);
                self.place(t, s, d);
                if L::ON {
                    let x = &t.data.designs[d as usize];
                    log.line(
                        None,
                        format!(
                            "  P{s} reveals {} ({}; +{} Hope, +{} Despair, -{} Despair)",
                            x.name,
                            t.data.categories[x.category as usize],
                            x.hope,
                            x.despair_add,
                            x.despair_remove
                        ),
                    );
                }
            }
        }
        if removing == 0 {
            return;
        }
        let start = match t.data.rules.options.removes_from {
            RemovesFrom::Constable => self.constable,
            RemovesFrom::Seat0 => 0,
        };
        for k in 0..self.n {
            let s = (start + k) % self.n;
            if removing & (1 << s) == 0 {
                continue;
            }
            if let Some(d) = picks[s as usize] {
                for _ in 0..t.compact[d as usize].remove {
                    let done = self.remove_despair(t, s);
                    if L::ON && !done {
                        log.line(
                            None,
                            format!("  P{s}'s remove-Despair icon is lost: no Despair in play"),
                        );
                    }
                }
            }
        }
    }

    // ----- the game -----

    /// Play the whole game (after [`Game::reset`]) and return its outcome.
    pub fn play<B: Bots, L: Log>(&mut self, t: &Table, bots: &mut B, log: &mut L) -> Outcome {
        if L::ON {
            log.line(
                None,
                format!(
                    "{} players; Despair threshold {}; P{} is the first Constable",
                    self.n, t.threshold, self.constable
                ),
            );
            for s in 0..self.n {
                let c = &t.data.characters[self.chars[s as usize] as usize];
                log.line(Some(s), format!("P{s} is {} ({})", c.id, c.team.name()));
            }
        }
        let rounds = t.data.rules.dealt.len();
        for r in 0..rounds {
            self.round = r as u8;
            self.play_round(t, bots, log);
        }
        self.finish(t, log)
    }

    fn play_round<B: Bots, L: Log>(&mut self, t: &Table, bots: &mut B, log: &mut L) {
        let r = self.round as usize;
        let n = self.n as usize;
        if L::ON {
            log.line(None, format!("Round {}", r + 1));
        }
        let income = t.data.rules.options.hope_per_round as u16;
        if income > 0 {
            for s in 0..self.n {
                self.add_hope(t, s, income);
            }
        }
        // Deal (stop dealing when the deck runs out): seat by seat, or one
        // card at a time around the table (`empty_deck`). The order only
        // matters when the deck runs out.
        let dealt = t.data.rules.dealt[r] as usize;
        for s in 0..n {
            self.hand_len[s] = 0;
        }
        match t.data.rules.options.empty_deck {
            EmptyDeck::Stop => {
                for s in 0..n {
                    for _ in 0..dealt {
                        match self.draw() {
                            Some(c) => {
                                self.hands[s][self.hand_len[s] as usize] = c;
                                self.hand_len[s] += 1;
                            }
                            None => break,
                        }
                    }
                }
            }
            EmptyDeck::RoundRobin => {
                'deal: for _ in 0..dealt {
                    for s in 0..n {
                        match self.draw() {
                            Some(c) => {
                                self.hands[s][self.hand_len[s] as usize] = c;
                                self.hand_len[s] += 1;
                            }
                            None => break 'deal,
                        }
                    }
                }
            }
        }
        // Draft: pick one, pass the rest left, reveal together.
        while (0..n).any(|s| self.hand_len[s] > 2) {
            let mut picks = [None; MAX_PLAYERS];
            for s in 0..n {
                if self.hand_len[s] > 2 {
                    let i = bots
                        .pick(&self.view(t, s as u8))
                        .min(self.hand_len[s] as usize - 1);
                    picks[s] = Some(self.hands[s][i]);
                    if L::ON {
                        let h: Vec<&str> = self.hands[s][..self.hand_len[s] as usize]
                            .iter()
                            .map(|&d| t.data.designs[d as usize].name.as_str())
                            .collect();
                        log.line(
                            Some(s as u8),
                            format!("  P{s} holds [{}] and picks {}", h.join(", "), h[i]),
                        );
                    }
                    let l = self.hand_len[s] as usize;
                    self.hands[s].copy_within(i + 1..l, i);
                    self.hand_len[s] -= 1;
                }
            }
            // Evidence: each pick, and what the left neighbour sees of it
            // (the rest of the hand comes to them).
            for s in 0..n {
                if let Some(d) = picks[s] {
                    self.note_pick(t, s as u8, d);
                    let add = t.compact[d as usize].add;
                    // The rest's fewest and most add icons (an empty rest
                    // leaves 255 and 0: neither comparison holds).
                    let (mut lo, mut hi) = (u8::MAX, 0u8);
                    for &c in &self.hands[s][..self.hand_len[s] as usize] {
                        let a = t.compact[c as usize].add;
                        lo = lo.min(a);
                        hi = hi.max(a);
                    }
                    // Plain sums: one a pick (see `note_pick`).
                    let p = &mut self.passev[if s + 1 == n { 0 } else { s + 1 }];
                    p[0] += 1;
                    p[1] += (add > lo) as u8;
                    p[2] += (add < hi) as u8;
                }
            }
            // Pass left: seat s's hand goes to seat s + 1.
            let (hands, lens) = (self.hands, self.hand_len);
            for s in 0..n {
                self.hands[(s + 1) % n] = hands[s];
                self.hand_len[(s + 1) % n] = lens[s];
            }
            self.reveal(t, &picks, log);
            if L::ON {
                log.step(self, t);
            }
        }
        // Discard: keep one of the two, or both under and the top card blind.
        let mut kept = [None; MAX_PLAYERS];
        let first = match t.data.rules.options.discard_order {
            RemovesFrom::Seat0 => 0,
            RemovesFrom::Constable => self.constable as usize,
        };
        for k in 0..n {
            let s = (first + k) % n;
            let l = self.hand_len[s] as usize;
            if l == 0 {
                continue;
            }
            if l == 1 {
                kept[s] = Some(self.hands[s][0]);
            } else {
                let e = &mut self.evid[s];
                e[ev::DISCARDS] = e[ev::DISCARDS].saturating_add(1);
                match bots.keep(&self.view(t, s as u8)) {
                    Keep::Card(k) => {
                        let k = (k as usize).min(1);
                        kept[s] = Some(self.hands[s][k]);
                        self.note_pick(t, s as u8, self.hands[s][k]);
                        self.under(self.hands[s][1 - k]);
                        if L::ON {
                            log.line(
                                Some(s as u8),
                                format!(
                                    "  P{s} keeps {} and puts {} under the deck",
                                    t.data.designs[self.hands[s][k] as usize].name,
                                    t.data.designs[self.hands[s][1 - k] as usize].name
                                ),
                            );
                        }
                    }
                    Keep::Blind => {
                        let e = &mut self.evid[s];
                        e[ev::BLIND] = e[ev::BLIND].saturating_add(1);
                        self.under(self.hands[s][0]);
                        self.under(self.hands[s][1]);
                        kept[s] = self.draw();
                        if L::ON {
                            log.line(
                                Some(s as u8),
                                format!("  P{s} puts both under the deck and keeps the top card"),
                            );
                        }
                    }
                }
            }
            self.hand_len[s] = 0;
        }
        self.reveal(t, &kept, log);
        if L::ON {
            log.step(self, t);
        }
        // Event draw.
        let before = self.display;
        self.flip_event();
        if L::ON && self.display != before {
            let e = (self.display & !before).trailing_zeros() as usize;
            log.line(
                None,
                format!("  Event turned face up: {}", t.data.events[e].name),
            );
        }
        self.launch_phase(t, bots, log);
        self.out.despair_by_round[r] = self.despair();
        self.shuffle_deck();
        if L::ON {
            log.step(self, t);
        }
    }

    /// Can the Constable launch event `e` now (affordable, and a player to name)?
    fn usable(&self, t: &Table, e: u8) -> bool {
        let ev = &t.data.events[e as usize];
        let c = self.constable;
        if ev.cost as u16 > self.hope(c) {
            return false;
        }
        !ev.needs_target() || self.targets(t, e) != 0
    }

    /// The seats event `e` may name.
    fn targets(&self, t: &Table, e: u8) -> u8 {
        let ev = &t.data.events[e as usize];
        let c = self.constable;
        let others = self.all() & !(1 << c);
        let has_buildings = || {
            (0..self.n)
                .filter(|&s| self.tab_len[s as usize] > 0)
                .fold(0u8, |m, s| m | 1 << s)
        };
        match ev.effect {
            Effect::PutOnTrial => {
                let base = if t.data.rules.options.trial_self {
                    self.all()
                } else {
                    others
                };
                base & !self.on_trial
            }
            Effect::TakeBuilding => {
                if (self.tab_len[c as usize] as usize) < MAX_TABLEAU {
                    others & has_buildings()
                } else {
                    0
                }
            }
            Effect::DestroyBuilding => others & has_buildings(),
            Effect::PeekCharacter | Effect::RevealCharacter => others,
            Effect::GainHope | Effect::AddDespair => {
                if ev.who == Who::Target {
                    self.all()
                } else if ev.give_take == GiveTake::Give {
                    others
                } else {
                    self.all()
                }
            }
            Effect::None => others,
        }
    }

    fn launch_phase<B: Bots, L: Log>(&mut self, t: &Table, bots: &mut B, log: &mut L) {
        let r = self.round as usize;
        let cap = t.data.rules.options.launch_cap;
        let mut launches = 0u8;
        loop {
            let c = self.constable;
            // Gifts: anyone but the Constable may give Hope to other players
            // (asked once each, in seat order from the Constable's left).
            for k in 1..self.n {
                let s = (c + k) % self.n;
                let have = self.hope(s);
                if have == 0 {
                    continue;
                }
                let e = &mut self.evid[s as usize];
                e[ev::GIFT_CHANCES] = e[ev::GIFT_CHANCES].saturating_add(1);
                let Some((to, g)) = bots.gift(&self.view(t, s)) else {
                    continue;
                };
                let g = g.min(have);
                if g > 0 && to != s && to < self.n {
                    if to == c {
                        let e = &mut self.evid[s as usize];
                        e[ev::GIFTS] = e[ev::GIFTS].saturating_add(1);
                    }
                    let taken = self.take_hope(t, s, g);
                    self.add_hope(t, to, taken);
                    if L::ON {
                        let who = if to == c {
                            format!("the Constable P{c}")
                        } else {
                            format!("P{to}")
                        };
                        log.line(None, format!("  P{s} gives {taken} Hope to {who}"));
                    }
                }
            }
            let mut launchable = 0u64;
            let mut dmask = self.display;
            let mut most = 0u16;
            while dmask != 0 {
                let e = dmask.trailing_zeros() as u8;
                dmask &= dmask - 1;
                let usable = self.usable(t, e);
                if usable || t.data.rules.options.forced_by == ForcedBy::FaceUp {
                    most = most.max(t.data.events[e as usize].cost as u16);
                }
                if usable {
                    launchable |= 1 << e;
                }
            }
            if launchable == 0 {
                break;
            }
            let forced = self.hope(c) >= most;
            let choice = bots.launch(&self.view(t, c), launchable, forced);
            let e = match choice {
                Some(e) if e < 64 && launchable & (1 << e) != 0 => e,
                _ if forced => launchable.trailing_zeros() as u8,
                _ => break,
            };
            if launches >= cap {
                self.out.capped = self.out.capped.saturating_add(1);
                if L::ON {
                    log.line(
                        None,
                        format!("  Launch cap ({cap}) reached: the phase ends"),
                    );
                }
                break;
            }
            launches += 1;
            self.out.launches[r] = self.out.launches[r].saturating_add(1);
            if forced {
                self.out.forced[r] = self.out.forced[r].saturating_add(1);
            }
            self.launch(t, e, forced, bots, log);
            if L::ON {
                log.step(self, t);
            }
        }
    }

    /// Launch event `e` by the Constable: pay, resolve, move the card, hand
    /// off the token, reset the badges.
    fn launch<B: Bots, L: Log>(
        &mut self,
        t: &Table,
        e: u8,
        forced: bool,
        bots: &mut B,
        log: &mut L,
    ) {
        let ev = &t.data.events[e as usize];
        let c = self.constable;
        self.take_hope(t, c, ev.cost as u16);
        let target = if ev.needs_target() {
            let eligible = self.targets(t, e);
            if ev.effect == Effect::PutOnTrial && eligible != 0 {
                // What naming at random would hit: the Witches' share of
                // the players Trial may name, in WIN_UNITS (exact: 840 is
                // a multiple of 1..=8).
                let chance = 840 * (eligible & self.witches).count_ones() / eligible.count_ones();
                self.out.trial_chance += chance;
                if self.witches & (1 << c) == 0 {
                    self.out.puritan_trial_chance += chance;
                }
            }
            let x = bots.target(&self.view(t, c), e, eligible);
            if x < self.n && eligible & (1 << x) != 0 {
                x
            } else {
                eligible.trailing_zeros() as u8
            }
        } else {
            c
        };
        if L::ON {
            let forced = if forced { " (forced)" } else { "" };
            let whom = if ev.needs_target() {
                format!(", naming P{target}")
            } else {
                String::new()
            };
            log.line(
                None,
                format!(
                    "  Constable P{c} launches {} for {} Hope{whom}{forced}",
                    ev.name, ev.cost
                ),
            );
        }
        {
            let x = &mut self.evid[c as usize];
            x[ev::LAUNCHES] = x[ev::LAUNCHES].saturating_add(1);
            x[ev::REMOVE_LAUNCHES] =
                x[ev::REMOVE_LAUNCHES].saturating_add((ev.remove_despair > 0) as u8);
            x[ev::ADD_LAUNCHES] =
                x[ev::ADD_LAUNCHES].saturating_add((ev.effect == Effect::AddDespair) as u8);
            x[ev::TRIALS] = x[ev::TRIALS].saturating_add((ev.effect == Effect::PutOnTrial) as u8);
            if ev.effect == Effect::PutOnTrial {
                let y = &mut self.evid[target as usize];
                y[ev::NAMED] = y[ev::NAMED].saturating_add(1);
            }
        }
        for _ in 0..ev.remove_despair {
            self.remove_despair(t, c);
        }
        let reached = match ev.who {
            Who::Target => 1u8 << target,
            Who::All => self.all(),
            Who::Launcher => 1 << c,
        };
        match ev.effect {
            Effect::None => {}
            Effect::PutOnTrial => {
                if t.data.rules.options.trial == TrialSupply::Moving {
                    // The one card moves: its holder is no longer on Trial.
                    self.on_trial = 0;
                }
                self.on_trial |= 1 << target;
                self.trial_cards_given = self.trial_cards_given.saturating_add(1);
                self.out.trials = self.out.trials.saturating_add(1);
                let hit = self.witches & (1 << target) != 0;
                if hit {
                    self.out.trials_on_witch = self.out.trials_on_witch.saturating_add(1);
                }
                if self.witches & (1 << c) == 0 {
                    self.out.puritan_trials = self.out.puritan_trials.saturating_add(1);
                    self.out.puritan_trials_on_witch =
                        self.out.puritan_trials_on_witch.saturating_add(hit as u8);
                }
            }
            Effect::GainHope => {
                for s in 0..self.n {
                    if reached & (1 << s) != 0 {
                        self.add_hope(t, s, ev.n as u16);
                    }
                }
            }
            Effect::AddDespair => {
                for s in 0..self.n {
                    if reached & (1 << s) == 0 {
                        continue;
                    }
                    if let Some(i) = self.new_cube_at(t, s) {
                        self.tab[s as usize][i].despair += ev.n as u16;
                        self.despair_tot += ev.n as i32;
                        self.note_despair(s as usize, i);
                    }
                }
            }
            Effect::TakeBuilding | Effect::DestroyBuilding => {
                let l = self.tab_len[target as usize] as usize;
                if l > 0 {
                    let i = bots.building(&self.view(t, c), e, target).min(l - 1);
                    let b = self.tab[target as usize][i];
                    // Remove it from the target's row (order kept).
                    let row = &mut self.tab[target as usize];
                    row.copy_within(i + 1..l, i);
                    let dm = self.dmask[target as usize];
                    let below = (1u32 << i) - 1;
                    self.dmask[target as usize] = (dm & below) | ((dm >> 1) & !below);
                    self.tab_len[target as usize] -= 1;
                    self.count[target as usize][b.design as usize] -= 1;
                    self.hope_tot[target as usize] -= b.hope;
                    self.icons_add(t, target, b.design, -1);
                    if ev.effect == Effect::TakeBuilding {
                        // A building that changes owner keeps its cubes.
                        let cl = self.tab_len[c as usize] as usize;
                        self.tab[c as usize][cl] = b;
                        self.note_despair(c as usize, cl);
                        self.tab_len[c as usize] += 1;
                        self.count[c as usize][b.design as usize] += 1;
                        self.hope_tot[c as usize] += b.hope;
                        self.icons_add(t, c, b.design, 1);
                    } else {
                        // Leaving play: its cubes to the supply, the card under the deck.
                        self.despair_tot -= b.despair as i32;
                        if t.data.rules.options.destroyed_under_deck {
                            self.under(b.design);
                        } else {
                            self.removed[b.design as usize] += 1;
                        }
                    }
                    if L::ON {
                        let verb = if ev.effect == Effect::TakeBuilding {
                            "takes"
                        } else {
                            "destroys"
                        };
                        log.line(
                            None,
                            format!(
                                "  P{c} {verb} P{target}'s {} ({} Hope, {} Despair on it)",
                                t.data.designs[b.design as usize].name, b.hope, b.despair
                            ),
                        );
                    }
                }
            }
            Effect::PeekCharacter => {
                self.known[c as usize] |= 1 << target;
                if L::ON {
                    log.line(
                        Some(c),
                        format!(
                            "  P{c} sees P{target}'s character: {}",
                            self.team(target).name()
                        ),
                    );
                }
            }
            Effect::RevealCharacter => {
                self.revealed |= 1 << target;
                if L::ON {
                    log.line(
                        None,
                        format!(
                            "  P{target} reveals their character: {}",
                            self.team(target).name()
                        ),
                    );
                }
            }
        }
        // Move the card. The Trial supply (`trial`) decides for Trial: a
        // red border keeps it face up; a counted supply gives a card away
        // at each launch, the last one leaving the display.
        let leaves = match (ev.effect, t.data.rules.options.trial) {
            (Effect::PutOnTrial, TrialSupply::Unlimited | TrialSupply::Moving) => false,
            (Effect::PutOnTrial, TrialSupply::Copies(k)) => self.trial_cards_given >= k,
            _ => !ev.red_border,
        };
        if leaves {
            self.display &= !(1 << e);
            match ev.give_take {
                _ if ev.effect == Effect::PutOnTrial => self.held[target as usize] |= 1 << e,
                GiveTake::Give => self.held[target as usize] |= 1 << e,
                GiveTake::Take => self.held[c as usize] |= 1 << e,
                GiveTake::None => self.event_under(e),
            }
            let before = self.display;
            self.flip_event();
            if L::ON && self.display != before {
                let n = (self.display & !before).trailing_zeros() as usize;
                log.line(
                    None,
                    format!("  Event turned face up: {}", t.data.events[n].name),
                );
            }
        }
        // Hand-off to a player with no badge who is not on Trial.
        let mut eligible = self.all() & !self.badges & !self.on_trial & !(1 << c);
        if eligible == 0 && t.data.rules.options.no_eligible == NoEligible::Reset {
            // `no_eligible_constable = reset`: every other player returns
            // their badge, as at a badge reset, and the hand-off goes on.
            let returned = self.badges & !(1 << c);
            self.badges &= 1 << c;
            eligible = self.all() & !self.on_trial & !(1 << c);
            if L::ON && returned != 0 {
                log.line(
                    None,
                    "  Nobody may take the token: every other player returns their badge".into(),
                );
            }
        }
        if eligible == 0 {
            if L::ON {
                log.line(
                    None,
                    format!("  Nobody may take the token: P{c} stays Constable"),
                );
            }
            return;
        }
        let x = bots.next_constable(&self.view(t, c), eligible);
        let new = if x < self.n && eligible & (1 << x) != 0 {
            x
        } else {
            eligible.trailing_zeros() as u8
        };
        self.constable = new;
        self.badges |= 1 << new;
        self.add_hope(t, new, t.data.rules.new_constable_hope as u16);
        if L::ON {
            log.line(
                None,
                format!(
                    "  P{new} becomes Constable, takes a badge and {} Hope",
                    t.data.rules.new_constable_hope
                ),
            );
        }
        let others = self.all() & !(1 << new);
        if others & !(self.badges | self.on_trial) == 0 {
            self.badges = 1 << new;
            if L::ON {
                log.line(
                    None,
                    "  Every other player holds a badge or is on Trial: badges return".into(),
                );
            }
        }
    }

    /// Complete sets of each endgame kind and in all, for `seat`.
    fn sets(&self, t: &Table, seat: u8) -> (i16, i16, i16) {
        let (mut death, mut justice, mut all) = (0, 0, 0);
        for s in &t.data.sets {
            let k = s
                .designs
                .iter()
                .map(|&d| self.count[seat as usize][d as usize])
                .min()
                .unwrap_or(0) as i16;
            all += k;
            match s.endgame {
                Endgame::Death => death += k,
                Endgame::Justice => justice += k,
                Endgame::None => {}
            }
        }
        (death, justice, all)
    }

    /// The end of the game: Trials, sets, the check, points and tie-breaks.
    fn finish<L: Log>(&mut self, t: &Table, log: &mut L) -> Outcome {
        let rules = &t.data.rules;
        let cubes = self.despair();
        if L::ON {
            // The rulebook's end: "Tous les joueurs révèlent leurs cartes
            // Personnage" — public, so every view shows it.
            for s in 0..self.n {
                let c = &t.data.characters[self.chars[s as usize] as usize];
                let trial = if self.on_trial & (1 << s) != 0 {
                    ", on Trial"
                } else {
                    ""
                };
                log.line(
                    None,
                    format!("Reveal: P{s} is {} ({}){trial}", c.id, c.team.name()),
                );
            }
        }
        let mut d = self.despair_tot;
        for s in 0..self.n {
            let trial = self.on_trial & (1 << s) != 0;
            d += match (self.team(s), trial) {
                (Team::Witch, true) => rules.witch_on_trial,
                (Team::Witch, false) => rules.witch_free,
                (Team::Puritan, true) => rules.puritan_on_trial,
                (Team::Puritan, false) => rules.puritan_free,
            } as i32;
        }
        let after_trials = d;
        for s in 0..self.n {
            let (death, justice, _) = self.sets(t, s);
            d += death as i32 * rules.death_set as i32 + justice as i32 * rules.justice_set as i32;
        }
        if rules.options.clamp_despair {
            d = d.max(0);
        }
        let d = d.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let reached = if rules.options.threshold_at_least {
            d >= t.threshold
        } else {
            d > t.threshold
        };
        let side_team = if reached { Team::Witch } else { Team::Puritan };
        let side_mask = if reached {
            self.witches
        } else {
            self.all() & !self.witches
        };
        let mut out = self.out;
        out.cubes = cubes;
        out.despair = d;
        out.on_trial = self.on_trial;
        for s in 0..self.n {
            out.hope[s as usize] = self.hope(s);
        }
        if L::ON {
            log.line(
                None,
                format!(
                    "End: {cubes} Despair cubes, {after_trials} after the Trials, D = {d} after the sets; threshold {}",
                    t.threshold
                ),
            );
        }
        if side_mask == 0 {
            out.side = None;
            out.winners = 0;
            if L::ON {
                log.line(
                    None,
                    "The Witches' side wins, but nobody is a Witch: everybody loses".into(),
                );
            }
            return out;
        }
        out.side = Some(side_team);
        let mut best = (i16::MIN, 0u16);
        for s in 0..self.n {
            if side_mask & (1 << s) == 0 {
                continue;
            }
            let cats = t.data.characters[self.chars[s as usize] as usize].categories;
            let matching = self
                .tableau(s)
                .iter()
                .filter(|b| cats & (1 << t.data.designs[b.design as usize].category) != 0)
                .count() as i16;
            let (_, _, sets) = self.sets(t, s);
            let p = (matching as i32 * rules.matching_building as i32
                + sets as i32 * rules.complete_set as i32)
                .clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            out.points[s as usize] = p;
            let key = (p, out.hope[s as usize]);
            if key > best {
                best = key;
            }
        }
        for s in 0..self.n {
            if side_mask & (1 << s) != 0 && (out.points[s as usize], out.hope[s as usize]) == best {
                out.winners |= 1 << s;
            }
        }
        if L::ON {
            let w: Vec<String> = (0..self.n)
                .filter(|s| out.winners & (1 << s) != 0)
                .map(|s| format!("P{s}"))
                .collect();
            log.line(
                None,
                format!(
                    "The {} win; best score {} (Hope {}): {} win",
                    side_team.plural(),
                    best.0,
                    best.1,
                    w.join(", ")
                ),
            );
        }
        out
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

/// Test access: build a position by hand and run single steps, for the
/// worked examples of the specification. Not used by bots (they get a
/// [`View`]); kept public so integration tests can state exact positions.
pub mod testing {
    use super::*;

    /// Start `t`'s game with these characters (one per seat), an empty deck,
    /// no buildings, and `constable` holding the token and a badge.
    pub fn position(g: &mut Game, t: &Table, chars: &[u8], constable: u8) {
        g.reset(t, GameRng::for_game(0, 0));
        g.witches = 0;
        for (s, &c) in chars.iter().enumerate() {
            g.chars[s] = c;
            g.cats[s] = t.data.characters[c as usize].categories;
            if t.data.characters[c as usize].team == Team::Witch {
                g.witches |= 1 << s;
            }
        }
        g.out.witches = g.witches;
        g.out.chars = g.chars;
        g.out.first_constable = constable;
        g.deck_len = 0;
        g.deck_head = 0;
        g.constable = constable;
        g.badges = 1 << constable;
    }

    /// Put `design` in `seat`'s row with exactly these cubes (no icons resolved).
    pub fn put(g: &mut Game, t: &Table, seat: u8, design: u8, hope: u16, despair: u16) {
        g.icons_add(t, seat, design, 1);
        let s = seat as usize;
        let l = g.tab_len[s] as usize;
        g.tab[s][l] = Bld {
            design,
            hope,
            despair,
        };
        g.hope_tot[s] += hope;
        g.despair_tot += despair as i32;
        g.note_despair(s, l);
        g.tab_len[s] += 1;
        g.count[s][design as usize] += 1;
    }

    /// Reveal these picks together, as a draft step does.
    pub fn reveal(g: &mut Game, t: &Table, picks: &[Option<u8>]) {
        let mut p = [None; MAX_PLAYERS];
        p[..picks.len()].copy_from_slice(picks);
        g.reveal(t, &p, &mut NoLog);
    }

    /// Set `seat`'s public evidence of `kind` (a kind of [`ev`] below
    /// [`ev::PUBLIC`]).
    pub fn set_evidence(g: &mut Game, seat: u8, kind: usize, n: u8) {
        g.evid[seat as usize][kind] = n;
    }
    /// Set what `observer` saw its right neighbour pass: passes, took
    /// dirtier, took cleaner.
    pub fn set_pass_evidence(g: &mut Game, observer: u8, e: [u8; 3]) {
        g.passev[observer as usize] = e;
    }
    pub fn set_badges(g: &mut Game, badges: u8) {
        g.badges = badges;
    }
    pub fn set_on_trial(g: &mut Game, mask: u8) {
        g.on_trial = mask;
    }
    pub fn set_display(g: &mut Game, mask: u64) {
        g.display = mask;
    }
    pub fn set_round(g: &mut Game, r: u8) {
        g.round = r;
    }
    /// Put these buildings in the deck, top first.
    pub fn set_deck(g: &mut Game, cards: &[u8]) {
        g.deck_head = 0;
        g.deck_len = cards.len() as u16;
        g.deck[..cards.len()].copy_from_slice(cards);
    }
    /// The deck, top first.
    pub fn deck(g: &Game) -> Vec<u8> {
        (0..g.deck_len as usize)
            .map(|i| g.deck[(g.deck_head as usize + i) % DECK_RING])
            .collect()
    }
    /// Put these events in the event deck, top first.
    pub fn set_event_deck(g: &mut Game, events: &[u8]) {
        g.ev_head = 0;
        g.ev_len = events.len() as u8;
        g.ev_deck[..events.len()].copy_from_slice(events);
    }
    /// The event deck, top first.
    pub fn event_deck(g: &Game) -> Vec<u8> {
        (0..g.ev_len as usize)
            .map(|i| g.ev_deck[(g.ev_head as usize + i) % 64])
            .collect()
    }
    /// The events `seat` holds (a mask).
    pub fn held(g: &Game, seat: u8) -> u64 {
        g.held[seat as usize]
    }
    /// Players whose character was revealed to all (a mask).
    pub fn revealed(g: &Game) -> u8 {
        g.revealed
    }
    pub fn set_hand(g: &mut Game, seat: u8, cards: &[u8]) {
        g.hands[seat as usize][..cards.len()].copy_from_slice(cards);
        g.hand_len[seat as usize] = cards.len() as u8;
    }
    /// One launch phase, as the end of a round runs it.
    pub fn launch_phase<B: Bots, L: Log>(g: &mut Game, t: &Table, bots: &mut B, log: &mut L) {
        g.launch_phase(t, bots, log)
    }
    /// One whole round (deal from the deck as set, draft, discard, event, launches).
    pub fn round<B: Bots, L: Log>(g: &mut Game, t: &Table, bots: &mut B, log: &mut L) {
        g.play_round(t, bots, log)
    }
    /// The end of the game.
    pub fn finish<L: Log>(g: &mut Game, t: &Table, log: &mut L) -> Outcome {
        g.finish(t, log)
    }
    pub fn constable(g: &Game) -> u8 {
        g.constable
    }
    pub fn badges(g: &Game) -> u8 {
        g.badges
    }
    pub fn on_trial(g: &Game) -> u8 {
        g.on_trial
    }
    pub fn display(g: &Game) -> u64 {
        g.display
    }
    pub fn tableau(g: &Game, seat: u8) -> Vec<Bld> {
        g.tableau(seat).to_vec()
    }
    pub fn hand(g: &Game, seat: u8) -> Vec<u8> {
        g.hands[seat as usize][..g.hand_len[seat as usize] as usize].to_vec()
    }
    pub fn hope(g: &Game, seat: u8) -> u16 {
        g.hope(seat)
    }
    pub fn despair(g: &Game) -> i16 {
        g.despair()
    }
    pub fn drafted(g: &Game, seat: u8) -> u8 {
        g.drafted[seat as usize]
    }
    pub fn round_index(g: &Game) -> u8 {
        g.round
    }
    pub fn characters(g: &Game) -> Vec<u8> {
        g.chars[..g.n as usize].to_vec()
    }
    pub fn view<'a>(g: &'a Game, t: &'a Table, me: u8) -> View<'a> {
        g.view(t, me)
    }
    /// Every invariant that must hold between steps: each building card in
    /// exactly one place (deck, a hand, a row), the deck the size the rules
    /// allow, counts matching rows, badges and the Constable consistent.
    /// Returns a description of the first broken one.
    pub fn check_invariants(g: &Game, t: &Table) -> Result<(), String> {
        let mut seen = [0u16; MAX_DESIGNS];
        for i in 0..g.deck_len as usize {
            seen[g.deck[(g.deck_head as usize + i) % DECK_RING] as usize] += 1;
        }
        for s in 0..g.n as usize {
            for &c in &g.hands[s][..g.hand_len[s] as usize] {
                seen[c as usize] += 1;
            }
            let mut cnt = [0u8; MAX_DESIGNS];
            for b in g.tableau(s as u8) {
                seen[b.design as usize] += 1;
                cnt[b.design as usize] += 1;
            }
            if cnt != g.count[s] {
                return Err(format!("P{s}'s design counts do not match their row"));
            }
        }
        for (d, &k) in g.removed.iter().enumerate() {
            seen[d] += k as u16;
        }
        let mut want = [0u16; MAX_DESIGNS];
        for &d in &t.deck {
            want[d as usize] += 1;
        }
        if seen != want {
            return Err("a building card is missing or duplicated".into());
        }
        let mut despair = 0i32;
        for s in 0..g.n {
            let h: u16 = g.tableau(s).iter().map(|b| b.hope).sum();
            if h != g.hope_tot[s as usize] {
                return Err(format!(
                    "P{s}'s Hope cache says {} but the row holds {h}",
                    g.hope_tot[s as usize]
                ));
            }
            despair += g.tableau(s).iter().map(|b| b.despair as i32).sum::<i32>();
            let mut icons = [0i16; 5];
            for b in g.tableau(s) {
                let x = &t.data.designs[b.design as usize];
                let e = t.data.sets[x.set as usize].endgame;
                icons[0] += x.despair_add as i16;
                icons[1] += x.despair_remove as i16;
                icons[2] += x.hope as i16;
                icons[3] += (e == Endgame::Death) as i16;
                icons[4] += (e == Endgame::Justice) as i16;
            }
            if icons != g.icons[s as usize] {
                return Err(format!("P{s}'s icon sums do not match their row"));
            }
            let dm = g
                .tableau(s)
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, b)| m | ((b.despair > 0) as u32) << i);
            if dm != g.dmask[s as usize] {
                return Err(format!(
                    "P{s}'s mask of buildings with Despair does not match their row"
                ));
            }
        }
        if despair != g.despair_tot {
            return Err(format!(
                "the Despair cache says {} but the rows hold {despair}",
                g.despair_tot
            ));
        }
        if g.badges & (1 << g.constable) == 0 && g.badges != 0 {
            return Err(format!("the Constable P{} holds no badge", g.constable));
        }
        if g.constable >= g.n {
            return Err("the Constable is not a player".into());
        }
        let mut evs = g.display;
        for s in 0..g.n as usize {
            if evs & g.held[s] != 0 {
                return Err("an event is both face up and held".into());
            }
            evs |= g.held[s];
        }
        for i in 0..g.ev_len as usize {
            let e = g.ev_deck[(g.ev_head as usize + i) % 64];
            if evs & (1 << e) != 0 {
                return Err("an event is in two places".into());
            }
            evs |= 1 << e;
        }
        let all_events = t.face_up | t.ev_deck.iter().fold(0u64, |m, &e| m | 1 << e);
        if evs != all_events {
            return Err("an event card is missing".into());
        }
        Ok(())
    }
}
