//! The information boundary of the search bot: what one player may know of
//! a game ([`Observation`]) and the worlds consistent with it
//! ([`Observation::deal`]).
//!
//! [`Observation::observe`] is the only place the search reads the true
//! game. It keeps what RULES §2 lets a player see or remember and erases
//! the rest; everything the search does afterwards — sampling, rollouts,
//! statistics — reads the observation only, so two true games that differ
//! only in what `me` cannot see give the same observation, the same
//! samples and the same decision (tests/it/search.rs checks it).
//!
//! What `me` keeps:
//! * every public zone: the Supply counts, the trash, every play area and
//!   set-aside area, the turn state, the turns taken, the top card of
//!   every discard pile and of the Knights and Ruins piles;
//! * his own hand, his own discard pile (he put every card of it there
//!   himself, or saw it gained) and the **composition** of his own draw
//!   pile (what he owns less what he sees: RULES §2 lets a player count
//!   his own deck) — not its order;
//! * each card count a player owns (every gain, trash and return to a
//!   pile is announced), and the sizes of every hand, draw pile and
//!   discard pile (hand and deck sizes are public; the discard's follows
//!   from them and the counts).
//!
//! What is erased:
//! * the order of his own draw pile (kept sorted);
//! * each opponent's hand, draw pile and discard pile below its top card:
//!   pooled into one sorted multiset. RULES §2: nobody may look through a
//!   deck or a discard pile, and the cards an opponent discards from hand
//!   at Cleanup are never shown, so which of his unseen cards lie in his
//!   hand, his deck or under the top of his discard is unknown;
//! * the order of the Knights and Ruins piles under their top cards;
//! * the game's random generator (future shuffles).
//!
//! Approximations, both on the side of knowing less or the same: cards an
//! opponent revealed earlier (Bureaucrat, Moat, Library…) are forgotten,
//! and a card passed face down by Masquerade is counted as moved (the
//! counts are taken as public; a third player would only know that a card
//! moved, not which).

use crate::cards::Card;
use crate::engine::{CardVec, Game, GameRng, Player, MAX_PLAYERS};

/// What seat `me` may know of a game at one of his decisions: the true
/// game with its hidden parts erased (see the module doc), and the sizes
/// the erased zones had.
#[derive(Clone)]
pub struct Observation {
    /// The public game. Each opponent's unseen cards are pooled, sorted, in
    /// his draw pile (his hand is empty and his discard pile holds its top
    /// card only); `me`'s draw pile is sorted; the generator is a constant.
    game: Game,
    me: u8,
    /// Each opponent's hand size.
    hand_len: [u16; MAX_PLAYERS],
    /// Each opponent's discard pile size (its top card included).
    discard_len: [u16; MAX_PLAYERS],
}

/// The generator an observation carries in place of the game's (erased).
fn erased_rng() -> GameRng {
    GameRng::for_game(0, 0)
}

impl Observation {
    /// An observation of `g` by seat `me`.
    pub fn of(g: &Game, me: u8) -> Observation {
        let mut o = Observation {
            game: g.clone(),
            me,
            hand_len: [0; MAX_PLAYERS],
            discard_len: [0; MAX_PLAYERS],
        };
        o.observe(g, me);
        o
    }

    /// Make this the observation of `g` by seat `me` (reusing its memory).
    pub fn observe(&mut self, g: &Game, me: u8) {
        copy_game(&mut self.game, g);
        self.me = me;
        self.hand_len = [0; MAX_PLAYERS];
        self.discard_len = [0; MAX_PLAYERS];
        let o = &mut self.game;
        o.rng = erased_rng();
        o.fault = None;
        o.players[me as usize].deck.as_mut_slice().sort_unstable();
        for q in g.others(me) {
            let pl = &mut o.players[q as usize];
            self.hand_len[q as usize] = pl.hand.len() as u16;
            self.discard_len[q as usize] = pl.discard.len() as u16;
            let top = pl.discard.pop();
            let (deck, hand, discard) = (&mut pl.deck, &mut pl.hand, &mut pl.discard);
            deck.append(hand);
            deck.append(discard);
            hand.clear();
            discard.clear();
            if let Some(t) = top {
                discard.push(t);
            }
            deck.as_mut_slice().sort_unstable();
        }
        for pile in [&mut o.knights, &mut o.ruins] {
            let n = pile.len as usize;
            if n > 1 {
                pile.cards[..n - 1].sort_unstable();
            }
        }
    }

    /// The seat observing.
    pub fn me(&self) -> u8 {
        self.me
    }

    /// The public game (hidden parts erased, as described in the module doc).
    pub fn public(&self) -> &Game {
        &self.game
    }

    /// One world consistent with the observation, written into `into`:
    /// `me`'s draw pile shuffled; each opponent's unseen cards shuffled and
    /// dealt into his hand, his draw pile and his discard pile (under its
    /// known top card) in their public sizes; the Knights and Ruins piles
    /// shuffled under their top cards; a fresh generator for the future
    /// shuffles. Everything comes from `self` and `rng`: never from the
    /// true game.
    pub fn deal(&self, into: &mut Game, rng: &mut GameRng) {
        copy_game(into, &self.game);
        rng.shuffle(into.players[self.me as usize].deck.as_mut_slice());
        let n = self.game.n();
        for q in (0..n).filter(|&q| q != self.me as usize) {
            let pl = &mut into.players[q];
            rng.shuffle(pl.deck.as_mut_slice());
            let top = pl.discard.pop();
            for _ in 1..self.discard_len[q] {
                if let Some(c) = pl.deck.pop() {
                    pl.discard.push(c);
                }
            }
            if let Some(t) = top {
                pl.discard.push(t);
            }
            for _ in 0..self.hand_len[q] {
                if let Some(c) = pl.deck.pop() {
                    pl.hand.push(c);
                }
            }
        }
        for pile in [&mut into.knights, &mut into.ruins] {
            let n = pile.len as usize;
            if n > 1 {
                rng.shuffle(&mut pile.cards[..n - 1]);
            }
        }
        into.rng = GameRng::for_game(rng.next_u64(), rng.next_u64());
    }

    /// The pooled unseen cards of opponent `q` (sorted), for tests and
    /// `--explain`; `me`'s own draw pile (sorted) for `q == me`.
    pub fn unseen(&self, q: u8) -> &[Card] {
        self.game.players[q as usize].deck.as_slice()
    }
}

/// Copy `src` into `dst` — what `dst.clone_from(src)` does, for the parts
/// a game uses: the seats in play and the filled part of each zone, not
/// the whole fixed capacity (a `Game` is about 30 KB, a 2-player game's
/// cards a few hundred bytes). `dst` must have been a game of the same
/// number of players or more (seats beyond `src`'s are left as they are,
/// and nothing reads them). The destructuring names every field, so a
/// field added to [`Game`] fails to compile here until it is copied.
pub(crate) fn copy_game(dst: &mut Game, src: &Game) {
    let Game {
        kingdom,
        players,
        supply,
        trash,
        empty_piles,
        nonempty,
        active,
        turn,
        turn_gained,
        turn_bought,
        turns_taken,
        rng,
        over,
        capped,
        action_capped,
        fault,
        next_uid,
        total,
        knights,
        ruins,
        identity,
        identity_len,
        pend,
        pend_len,
        pend_ms,
        trash_batch,
        shelters,
        seed,
        index,
    } = src;
    dst.kingdom = *kingdom;
    for (d, s) in dst.players.iter_mut().zip(players.iter()).take(src.n()) {
        copy_player(d, s);
    }
    dst.supply = *supply;
    copy_zone(&mut dst.trash, trash);
    dst.empty_piles = *empty_piles;
    dst.nonempty = *nonempty;
    dst.active = *active;
    dst.turn = *turn;
    dst.turn_gained = *turn_gained;
    dst.turn_bought = *turn_bought;
    dst.turns_taken = *turns_taken;
    dst.rng.clone_from(rng);
    dst.over = *over;
    dst.capped = *capped;
    dst.action_capped = *action_capped;
    dst.fault = *fault;
    dst.next_uid = *next_uid;
    dst.total = *total;
    dst.knights = *knights;
    dst.ruins = *ruins;
    let k = *identity_len as usize;
    dst.identity[..k].copy_from_slice(&identity[..k]);
    dst.identity_len = *identity_len;
    let k = *pend_len as usize;
    dst.pend[..k].copy_from_slice(&pend[..k]);
    dst.pend_len = *pend_len;
    dst.pend_ms = *pend_ms;
    dst.trash_batch = *trash_batch;
    dst.shelters = *shelters;
    dst.seed = *seed;
    dst.index = *index;
}

fn copy_zone(dst: &mut CardVec, src: &CardVec) {
    dst.clear();
    dst.extend_from(src.as_slice());
}

fn copy_player(d: &mut Player, s: &Player) {
    let Player {
        deck,
        hand,
        discard,
        play,
        play_uid,
        aside,
        owned,
        owned_total,
        money,
        vp_fixed,
        actions_owned,
    } = s;
    copy_zone(&mut d.deck, deck);
    copy_zone(&mut d.hand, hand);
    copy_zone(&mut d.discard, discard);
    copy_zone(&mut d.play, play);
    let k = play.len();
    d.play_uid[..k].copy_from_slice(&play_uid[..k]);
    copy_zone(&mut d.aside, aside);
    d.owned = *owned;
    d.owned_total = *owned_total;
    d.money = *money;
    d.vp_fixed = *vp_fixed;
    d.actions_owned = *actions_owned;
}
