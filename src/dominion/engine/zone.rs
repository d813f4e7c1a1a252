//! Fixed-capacity card lists: the storage of every zone.

use crate::cards::Card;
use std::fmt;

/// Capacity of every zone. A zone must be able to hold every card of the game
/// (a player may draw his whole deck). The largest game of printed cards — 6
/// players, two sets of basic cards, ten 12-card Victory Kingdom piles,
/// Ruins, Spoils, Madman and Mercenary — has 575 cards; data cards with a
/// large `pile` can ask for more, and `Kingdom` setup refuses any game whose
/// cards do not fit ([`crate::engine::SetupError::TooManyCards`], in every
/// build). No card is ever created during a game, so no zone can hold more.
///
/// Should that bound ever be wrong, no operation of [`CardVec`] indexes past
/// its storage or panics: a card that does not fit is dropped and counted
/// ([`zone_overflows`]), which breaks the conservation invariant the soak
/// and the tests check.
pub const MAX_CARDS: usize = 600;

/// Cards dropped because a zone was full, over the whole process (0 unless
/// the bound of [`MAX_CARDS`] is wrong). Written only on that cold path.
static OVERFLOWS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many cards were dropped because a zone was full, since the process
/// started: 0 in any game whose setup passed the `Kingdom` checks.
pub fn zone_overflows() -> u64 {
    OVERFLOWS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The cold path of a full zone: `n` cards dropped.
#[cold]
#[inline(never)]
fn overflowed(n: usize) {
    OVERFLOWS.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
}

/// Cards copied per step by [`CardVec::append`]; the backing array has this
/// many spare slots past `MAX_CARDS` so a chunk never needs a range check.
pub(crate) const CHUNK: usize = 16;

/// An ordered list of cards with a fixed capacity; plain data, `Copy`.
///
/// For piles with a top (deck, discard), the **top is the last element**, so
/// drawing is a `pop`.
#[derive(Clone, Copy)]
pub struct CardVec {
    len: u16,
    /// `MAX_CARDS` usable slots, plus `CHUNK` spare ones written only by the
    /// over-long chunk copies of [`CardVec::append`].
    cards: [Card; MAX_CARDS + CHUNK],
}

impl Default for CardVec {
    fn default() -> Self {
        CardVec::new()
    }
}

impl CardVec {
    pub const fn new() -> Self {
        CardVec {
            len: 0,
            cards: [Card::Copper; MAX_CARDS + CHUNK],
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Keep only the first `n` cards.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n < self.len as usize {
            self.len = n as u16;
        }
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }
    /// Put `c` last. A full zone (which `Kingdom` setup rules out) drops
    /// it and counts it ([`zone_overflows`]); never panics.
    #[inline]
    pub fn push(&mut self, c: Card) {
        let n = self.len as usize;
        if n < MAX_CARDS {
            self.cards[n] = c;
            self.len += 1;
        } else {
            overflowed(1);
        }
    }
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cards[self.len as usize])
        }
    }
    #[inline]
    pub fn last(&self) -> Option<Card> {
        if self.len == 0 {
            None
        } else {
            Some(self.cards[self.len as usize - 1])
        }
    }
    #[inline]
    pub fn get(&self, i: usize) -> Option<Card> {
        self.as_slice().get(i).copied()
    }
    #[inline]
    pub fn count(&self, c: Card) -> usize {
        self.as_slice().iter().filter(|&&x| x == c).count()
    }
    #[inline]
    pub fn contains(&self, c: Card) -> bool {
        self.as_slice().contains(&c)
    }
    #[inline]
    pub fn position(&self, c: Card) -> Option<usize> {
        self.as_slice().iter().position(|&x| x == c)
    }
    /// Remove the element at `i`, keeping the order of the others.
    #[inline]
    pub fn remove(&mut self, i: usize) -> Card {
        let c = self.cards[i];
        self.cards.copy_within(i + 1..self.len as usize, i);
        self.len -= 1;
        c
    }
    /// Remove the element at `i`; the last element takes its place.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> Card {
        let c = self.cards[i];
        self.len -= 1;
        self.cards[i] = self.cards[self.len as usize];
        c
    }
    /// Remove one copy of `c` (order-preserving). False if absent.
    #[inline]
    pub fn remove_one(&mut self, c: Card) -> bool {
        match self.position(c) {
            Some(i) => {
                self.remove(i);
                true
            }
            None => false,
        }
    }
    /// Remove one copy of `c`, not preserving order (for unordered zones: hand).
    #[inline]
    pub fn take_one(&mut self, c: Card) -> bool {
        match self.position(c) {
            Some(i) => {
                self.swap_remove(i);
                true
            }
            None => false,
        }
    }
    /// Move the cards `c` of this zone whose `info[c]` has its top bit set
    /// (`0x80`: a printed Treasure in [`crate::cards::PLAY_ALL`]; the
    /// Treasure step uses this pass only when no Treasure in hand has a play
    /// effect) to the end of `out`, without a branch per card: the others
    /// stay here in order, the moved ones are appended in order, each with
    /// the next id from `*uid` written to `out_uid` at its position (ids
    /// beyond `out`'s length are unspecified: nothing reads them). Returns
    /// the sum of the low seven bits of `info[c]` over the moved cards
    /// (their coins); `info` must be 0 for every card it does not move, as
    /// `PLAY_ALL` is (the sum adds every card's byte). Every card is written to both places and the two ends
    /// advance by 0 or 1, so a random hand costs no mispredicted branch
    /// (the stray writes land past the ends, in unused capacity). The card
    /// kept at step `i` goes to `i - moved so far`, so one counter serves
    /// both ends, and one table byte gives both the test and the coins. A
    /// zone of at most `CHUNK` cards (every hand of a plain turn) goes
    /// through [`CardVec::partition_chunk`], which reads it as one local
    /// 16-card chunk and writes through fixed 16-card windows, without
    /// range checks.
    ///
    /// A game never holds more than `MAX_CARDS` cards, so `out.len() +
    /// self.len() <= MAX_CARDS`; should that fail, the moves go one card at
    /// a time through [`CardVec::push`] (which drops what does not fit), so
    /// nothing indexes past the storage.
    #[inline(always)]
    pub fn partition_out(
        &mut self,
        out: &mut CardVec,
        out_uid: &mut [u16; MAX_CARDS + CHUNK],
        uid: &mut u16,
        info: &[u8; Card::COUNT],
    ) -> u16 {
        let n = self.len as usize;
        let o0 = out.len as usize;
        if n + o0 > MAX_CARDS {
            return self.partition_out_slow(out, out_uid, uid, info);
        }
        let id = *uid;
        let (o, sum) = if n <= CHUNK {
            let pass = self.partition_chunk(out, o0, info);
            // The ids as one chunk too (those past the moved cards are
            // unused).
            const STEP: [u16; CHUNK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
            // `o0 <= MAX_CARDS`, so the chunk is always there.
            if let Some(ids) = out_uid[o0..].first_chunk_mut::<CHUNK>() {
                for (x, k) in ids.iter_mut().zip(STEP) {
                    *x = id.wrapping_add(k);
                }
            }
            pass
        } else {
            // Range checks once per zone rather than three per card: both
            // ends advance by at most one a card, so they stay inside these
            // slices.
            let (mut o, mut sum) = (0usize, 0u32);
            let src = &mut self.cards[..n];
            let dst = &mut out.cards[o0..o0 + n];
            let ids = &mut out_uid[o0..o0 + n];
            for i in 0..n {
                let c = src[i];
                let f = info[c as usize];
                dst[o] = c;
                ids[o] = id.wrapping_add(o as u16);
                src[i - o] = c;
                sum += f as u32;
                o += (f >> 7) as usize;
            }
            (o, sum)
        };
        self.len = (n - o) as u16;
        out.len = (o0 + o) as u16;
        *uid = id.wrapping_add(o as u16);
        // Each moved card added its 0x80 flag to the sum; a kept card adds
        // 0 (its low bits are 0 in the table).
        (sum - 0x80 * o as u32) as u16
    }

    /// [`CardVec::partition_out`] when the two zones together hold more
    /// than `MAX_CARDS` (never, once `Kingdom` setup passed): the same
    /// moves, one checked push at a time.
    #[cold]
    #[inline(never)]
    fn partition_out_slow(
        &mut self,
        out: &mut CardVec,
        out_uid: &mut [u16; MAX_CARDS + CHUNK],
        uid: &mut u16,
        info: &[u8; Card::COUNT],
    ) -> u16 {
        let n = self.len as usize;
        let (mut kept, mut coins) = (0usize, 0u16);
        for i in 0..n {
            let c = self.cards[i];
            let f = info[c as usize];
            if f & 0x80 != 0 {
                let at = out.len as usize;
                out.push(c);
                if (out.len as usize) > at {
                    out_uid[at] = *uid;
                    *uid = uid.wrapping_add(1);
                    coins = coins.saturating_add((f & 0x7f) as u16);
                }
            } else {
                self.cards[kept] = c;
                kept += 1;
            }
        }
        self.len = kept as u16;
        coins
    }

    /// The card moves of [`CardVec::partition_out`] for a zone of at most
    /// `CHUNK` cards (every hand of a plain turn), `out` holding `o0` cards:
    /// the zone is read once as a local chunk, and each card is written
    /// into the first `CHUNK` slots of this zone and the `CHUNK` slots from
    /// `o0` in `out` (its spare slots make room), through fixed-size chunks
    /// indexed by `& (CHUNK - 1)`: no range check and no branch a card.
    /// Returns how many cards moved and the sum of their `info` bytes; the
    /// caller sets both lengths.
    #[inline(always)]
    fn partition_chunk(
        &mut self,
        out: &mut CardVec,
        o0: usize,
        info: &[u8; Card::COUNT],
    ) -> (usize, u32) {
        let n = self.len as usize;
        let mut src = [Card::Copper; CHUNK];
        src.copy_from_slice(&self.cards[..CHUNK]);
        // Written one by one straight into both zones (not into local
        // chunks copied afterwards: a 16-byte load of bytes just stored one
        // by one waits for them, as store forwarding cannot serve it).
        let kept = self
            .cards
            .first_chunk_mut::<CHUNK>()
            .expect("CHUNK <= MAX_CARDS");
        let moved = out.cards[o0..]
            .first_chunk_mut::<CHUNK>()
            .expect("o0 <= MAX_CARDS: CHUNK spare slots follow it");
        let (mut o, mut sum) = (0usize, 0u32);
        for i in 0..n.min(CHUNK) {
            let c = src[i];
            let f = info[c as usize];
            moved[o & (CHUNK - 1)] = c;
            kept[(i - o) & (CHUNK - 1)] = c;
            sum += f as u32;
            o += (f >> 7) as usize;
        }
        (o, sum)
    }

    /// Append every card of `other`, in order (what `extend_from` does for a
    /// slice). Zones are short and this runs several times a turn (Cleanup,
    /// shuffles), so it copies whole 16-card chunks of the backing arrays
    /// (one vector move each, no call to `memmove`): the copy may write up to
    /// 15 stale cards past the new length, which is unused capacity.
    ///
    /// A game never holds more than `MAX_CARDS` cards, so `n + m <=
    /// MAX_CARDS` and every chunk stays inside the padded array; with a
    /// longer total (a wrong bound) the copy stops at the end of the
    /// storage and the zone keeps its first `MAX_CARDS` cards, the rest
    /// dropped and counted ([`zone_overflows`]): nothing indexes past the
    /// storage.
    #[inline(always)]
    pub fn append(&mut self, other: &CardVec) {
        let (n, m) = (self.len as usize, other.len as usize);
        // The check comes after the copy, and its rare path out of line:
        // checked first, the same check let LLVM compile this loop to one
        // that cost 4.5 times as much; with the chunk starts clamped instead
        // of checked, 3 times (callgrind, results/BENCHMARKS.md).
        let mut i = 0;
        while i < m {
            // `i < m <= MAX_CARDS`: the source chunk is inside the padded
            // array; the destination is too unless the bound is wrong.
            let mut chunk = [Card::Copper; CHUNK];
            chunk.copy_from_slice(&other.cards[i..i + CHUNK]);
            let Some(dst) = self.cards.get_mut(n + i..n + i + CHUNK) else {
                break;
            };
            dst.copy_from_slice(&chunk);
            i += CHUNK;
        }
        if n + m > MAX_CARDS {
            return self.overfull(n + m);
        }
        self.len = (n + m) as u16;
    }

    /// The end of an [`CardVec::append`] that did not fit (a wrong bound):
    /// the zone keeps its first `MAX_CARDS` cards, the rest is dropped and
    /// counted. Cold and out of line, so that the copy stays as small as it
    /// was before the check.
    #[cold]
    #[inline(never)]
    fn overfull(&mut self, total: usize) {
        overflowed(total - MAX_CARDS);
        self.len = MAX_CARDS as u16;
    }

    /// Move the top `k` cards of this pile (the last `k`) to the end of
    /// `to`, top card first: what `k` pops each followed by a push does.
    /// At most the whole pile moves (`k` is clamped to `self.len()`), and
    /// cards that do not fit in `to` (a wrong bound) are dropped as
    /// [`CardVec::push`] drops them.
    #[inline]
    pub fn move_top_to(&mut self, to: &mut CardVec, k: usize) {
        let d = self.len as usize;
        let t = to.len as usize;
        if k > d || t + k > MAX_CARDS {
            return self.move_top_overfull(to, k);
        }
        let src = &self.cards[d - k..d];
        let dst = &mut to.cards[t..t + k];
        for (x, &c) in dst.iter_mut().zip(src.iter().rev()) {
            *x = c;
        }
        self.len -= k as u16;
        to.len += k as u16;
    }

    /// [`CardVec::move_top_to`] asked for more cards than the pile holds, or
    /// more than `to` can take (neither happens in a game): the whole pile
    /// at most, and what does not fit dropped and counted. Cold and out of
    /// line, as [`CardVec::overfull`].
    #[cold]
    #[inline(never)]
    fn move_top_overfull(&mut self, to: &mut CardVec, k: usize) {
        let k = k.min(self.len as usize);
        for _ in 0..k {
            if let Some(c) = self.pop() {
                to.push(c);
            }
        }
    }

    /// Append every card of `other`, in order; what does not fit (a wrong
    /// bound) is dropped as [`CardVec::push`] drops it.
    #[inline]
    pub fn extend_from(&mut self, other: &[Card]) {
        let n = self.len as usize;
        let fit = other.len().min(MAX_CARDS - n);
        if fit < other.len() {
            overflowed(other.len() - fit);
        }
        self.cards[n..n + fit].copy_from_slice(&other[..fit]);
        self.len += fit as u16;
    }
    pub fn iter(&self) -> std::iter::Copied<std::slice::Iter<'_, Card>> {
        self.as_slice().iter().copied()
    }
    pub fn from_slice(s: &[Card]) -> Self {
        let mut v = CardVec::new();
        v.extend_from(s);
        v
    }
}

impl fmt::Debug for CardVec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for CardVec {
    fn eq(&self, o: &Self) -> bool {
        self.as_slice() == o.as_slice()
    }
}
impl Eq for CardVec {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::PLAY_ALL;
    use Card::*;

    #[test]
    fn partition_out_moves_treasures_in_order_and_keeps_the_rest() {
        let mut hand = CardVec::from_slice(&[Estate, Copper, Smithy, Gold, Copper, Curse, Silver]);
        let mut play = CardVec::from_slice(&[Village]);
        let mut uids = [0u16; MAX_CARDS + CHUNK];
        uids[0] = 7;
        let mut next = 40u16;
        let coins = hand.partition_out(&mut play, &mut uids, &mut next, &PLAY_ALL);
        assert_eq!(hand.as_slice(), &[Estate, Smithy, Curse]);
        assert_eq!(play.as_slice(), &[Village, Copper, Gold, Copper, Silver]);
        assert_eq!(&uids[..5], &[7, 40, 41, 42, 43]);
        assert_eq!(next, 44);
        assert_eq!(coins, 1 + 3 + 1 + 2);
        // Nothing to move: both zones unchanged, no id used.
        let coins = hand.partition_out(&mut play, &mut uids, &mut next, &PLAY_ALL);
        assert_eq!((coins, next), (0, 44));
        assert_eq!(hand.as_slice(), &[Estate, Smithy, Curse]);
        assert_eq!(play.len(), 5);
    }

    /// Both ways through `partition_out` (a hand of up to `CHUNK` cards
    /// goes by local chunks, a longer one by the range-checked loop) against
    /// the obvious reading: hands of 0 to 40 cards, mixed and all-Treasure,
    /// onto a play area that already holds cards.
    #[test]
    fn partition_out_agrees_with_a_plain_filter_at_every_hand_size() {
        let pattern = [
            Copper, Estate, Silver, Gold, Smithy, Harem, Curse, Copper, Province,
        ];
        for n in 0..=40 {
            for all_treasure in [false, true] {
                let cards: Vec<Card> = (0..n)
                    .map(|i| {
                        let c = pattern[(i * 5 + n) % pattern.len()];
                        if all_treasure && PLAY_ALL[c as usize] == 0 {
                            Silver
                        } else {
                            c
                        }
                    })
                    .collect();
                let mut hand = CardVec::from_slice(&cards);
                let mut play = CardVec::from_slice(&[Village, Smithy, Copper]);
                let mut uids = [9u16; MAX_CARDS + CHUNK];
                uids[..3].copy_from_slice(&[1, 2, 3]);
                let mut next = 100u16;
                let coins = hand.partition_out(&mut play, &mut uids, &mut next, &PLAY_ALL);
                let moved: Vec<Card> = cards
                    .iter()
                    .copied()
                    .filter(|&c| PLAY_ALL[c as usize] != 0)
                    .collect();
                let kept: Vec<Card> = cards
                    .iter()
                    .copied()
                    .filter(|&c| PLAY_ALL[c as usize] == 0)
                    .collect();
                let value: u16 = moved
                    .iter()
                    .map(|&c| (PLAY_ALL[c as usize] & 0x7f) as u16)
                    .sum();
                assert_eq!(hand.as_slice(), &kept[..], "kept, {n} cards");
                assert_eq!(&play.as_slice()[..3], &[Village, Smithy, Copper]);
                assert_eq!(&play.as_slice()[3..], &moved[..], "moved, {n} cards");
                let ids: Vec<u16> = (100..100 + moved.len() as u16).collect();
                assert_eq!(&uids[..3], &[1, 2, 3]);
                assert_eq!(&uids[3..3 + moved.len()], &ids[..], "ids, {n} cards");
                assert_eq!(next, 100 + moved.len() as u16);
                assert_eq!(coins, value, "coins, {n} cards");
            }
        }
    }

    /// A zone never panics or writes past its storage, even when asked to
    /// hold more than `MAX_CARDS` (which `Kingdom` setup rules out): the
    /// extra cards are dropped and counted.
    #[test]
    fn a_full_zone_drops_cards_instead_of_panicking() {
        let before = zone_overflows();
        let mut a = CardVec::from_slice(&[Copper; MAX_CARDS - 2]);
        a.push(Silver);
        a.push(Gold);
        a.push(Estate);
        assert_eq!(a.len(), MAX_CARDS);
        assert_eq!(a.last(), Some(Gold));
        assert!(zone_overflows() > before);
        let b = CardVec::from_slice(&[Duchy; 40]);
        a.append(&b);
        a.extend_from(&[Duchy; 3]);
        assert_eq!(a.len(), MAX_CARDS);
        let mut c = CardVec::from_slice(&[Curse; MAX_CARDS - 1]);
        let mut d = CardVec::from_slice(&[Province; 10]);
        // More than the pile holds, and more than fits.
        d.move_top_to(&mut c, 25);
        assert_eq!((c.len(), d.len()), (MAX_CARDS, 0));
        assert_eq!(c.last(), Some(Province));
        // Treasures out of a long hand into a nearly full play area.
        let mut hand = CardVec::from_slice(&[Copper; 30]);
        let mut play = CardVec::from_slice(&[Village; MAX_CARDS - 5]);
        let mut uids = [0u16; MAX_CARDS + CHUNK];
        let mut next = 0u16;
        let coins = hand.partition_out(&mut play, &mut uids, &mut next, &PLAY_ALL);
        assert_eq!((play.len(), hand.len(), coins, next), (MAX_CARDS, 0, 5, 5));
        let mut short = CardVec::from_slice(&[Copper; 8]);
        let coins = short.partition_out(&mut play, &mut uids, &mut next, &PLAY_ALL);
        assert_eq!((play.len(), short.len(), coins), (MAX_CARDS, 0, 0));
    }

    #[test]
    fn append_and_move_top_keep_order() {
        let mut a = CardVec::from_slice(&[Copper; 20]);
        let b = CardVec::from_slice(&[Silver, Gold, Estate]);
        a.append(&b);
        assert_eq!(a.len(), 23);
        assert_eq!(&a.as_slice()[20..], &[Silver, Gold, Estate]);
        let mut hand = CardVec::new();
        a.move_top_to(&mut hand, 2);
        // Top (last) card first, as two single draws would.
        assert_eq!(hand.as_slice(), &[Estate, Gold]);
        assert_eq!(a.len(), 21);
    }
}
