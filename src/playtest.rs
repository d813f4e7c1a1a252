//! Playtesting cards that do not exist yet: `domsim cards verify` (a data
//! reprint of a printed card plays the same games) and `domsim compare`
//! (variant A against variant B of a card on common random numbers).
//!
//! Both bind data cards themselves ([`crate::cards::data::bind`]), one
//! binding at a time, and play on the shared runner with a hook that keeps
//! one small record per game; nothing here runs inside a game.

use crate::cards::data::{self, DataCard};
use crate::cards::Card;
use crate::dominion::lineup::Lineup;
use crate::dominion::matches::{self, GameHook};
use crate::engine::{Bots, Choose, Event, Game, Kingdom, Outcome, Pick, YesNo, MAX_PLAYERS};
use crate::sim::{self, RunConfig};
use anyhow::{anyhow, bail, Context, Result};
use std::sync::atomic::AtomicBool;

/// The shipped card files, built in (`cards/` in the repository): the
/// reprints `cards verify` checks, and invented examples.
pub const REPRINTS: (&str, &str) = (
    "cards/reprints.toml",
    include_str!("../cards/reprints.toml"),
);
pub const EXAMPLES: (&str, &str) = (
    "cards/examples.toml",
    include_str!("../cards/examples.toml"),
);

// -------------------------------------------------------------------------
// Per-game records

/// Games per variant that `domsim compare` plays before it pairs them,
/// lets their records go and checks `--precision`: its memory (about
/// 40 MB) does not grow with `-n`. (The runner shares each of its own
/// smaller blocks among the threads, so this does not depend on their
/// number.)
pub const COMPARE_BLOCK: u64 = 1 << 16;

/// What one game says about one card: per seat, copies bought and gained,
/// plays, copies owned at the end; and the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardGame {
    pub index: u64,
    pub order: [u8; MAX_PLAYERS],
    pub outcome: Outcome,
    pub bought: [u8; MAX_PLAYERS],
    pub plays: [u16; MAX_PLAYERS],
    pub owned: [u8; MAX_PLAYERS],
}

/// Bots that also count the buys and plays of one card (forwarding every
/// question: the game is the same as without the counter).
struct Counting<B> {
    inner: B,
    card: Card,
    bought: [u8; MAX_PLAYERS],
    plays: [u16; MAX_PLAYERS],
}

impl<B: Bots> Bots for Counting<B> {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.inner.pick(g, q)
    }
    #[inline]
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.inner.turn_pick(g, q)
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.inner.yes_no(g, q)
    }
    #[inline]
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        self.inner.play_all_treasures(g, player)
    }
    #[inline]
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.inner.choose(g, q)
    }
    #[inline]
    fn event(&mut self, g: &Game, e: Event) {
        match e {
            Event::Buy { player, card } if card == self.card => {
                let n = &mut self.bought[player as usize % MAX_PLAYERS];
                *n = n.saturating_add(1);
            }
            Event::Play { player, card } if card == self.card => {
                let n = &mut self.plays[player as usize % MAX_PLAYERS];
                *n = n.saturating_add(1);
            }
            _ => {}
        }
        self.inner.event(g, e);
    }
    fn explain(&self, g: &Game, q: &Pick) -> Option<String> {
        self.inner.explain(g, q)
    }
    fn explain_yes_no(&self, g: &Game, q: &YesNo) -> Option<String> {
        self.inner.explain_yes_no(g, q)
    }
    fn explain_choose(&self, g: &Game, q: &Choose) -> Option<String> {
        self.inner.explain_choose(g, q)
    }
}

/// The hook that keeps a [`CardGame`] per game.
struct Records {
    card: Card,
}

impl GameHook for Records {
    type Acc = Vec<CardGame>;
    fn acc(&self) -> Vec<CardGame> {
        Vec::new()
    }
    fn merge(&self, mut a: Vec<CardGame>, b: Vec<CardGame>) -> Vec<CardGame> {
        a.extend(b);
        a
    }
    fn play<B: Bots>(
        &self,
        acc: &mut Vec<CardGame>,
        g: &mut Game,
        bots: B,
        order: &[u8],
    ) -> Outcome {
        let mut c = Counting {
            inner: bots,
            card: self.card,
            bought: [0; MAX_PLAYERS],
            plays: [0; MAX_PLAYERS],
        };
        let o = g.play_game(&mut c);
        let mut rec = CardGame {
            index: 0,
            order: [0; MAX_PLAYERS],
            outcome: o,
            bought: c.bought,
            plays: c.plays,
            owned: [0; MAX_PLAYERS],
        };
        rec.order[..order.len()].copy_from_slice(order);
        for s in 0..g.n() {
            rec.owned[s] = g.players[s].owns(self.card);
        }
        acc.push(rec);
        o
    }
    fn finished(&self, acc: &mut Vec<CardGame>, index: u64, _order: &[u8], _o: &Outcome) {
        if let Some(last) = acc.last_mut() {
            last.index = index;
        }
    }
}

/// Play `games` games of `kingdom` between `lineup` (compiled for it) and
/// keep one record per game about `card`, in game order.
pub fn play_records(
    kingdom: &Kingdom,
    lineup: &Lineup,
    card: Card,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<Vec<CardGame>> {
    let stop = AtomicBool::new(false);
    play_records_until(kingdom, lineup, card, 0..games, seed, threads, &stop)
}

/// The compiler's warnings for `lineup` in `kingdom` under the cards bound
/// now (what `sim` prints before it plays; the record runs compile
/// silently, once per variant and block).
pub fn compile_warnings(kingdom: &Kingdom, lineup: &Lineup) -> Result<Vec<String>> {
    let k = lineup.kingdom_for(kingdom);
    Ok(lineup.compile(&k)?.warnings)
}

/// [`play_records`] of the games whose indices are in `games` (each game
/// is the one a whole run plays at its index), stopping early once `stop`
/// is set (the games in progress finish, none starts): then fewer
/// records.
pub fn play_records_until(
    kingdom: &Kingdom,
    lineup: &Lineup,
    card: Card,
    games: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<CardGame>> {
    let k = lineup.kingdom_for(kingdom);
    let compiled = lineup.compile(&k)?;
    let cfg = RunConfig {
        games: games.end.saturating_sub(games.start),
        first: games.start,
        seed,
        threads,
        progress: false,
        precision: None,
    };
    let pool = sim::pool(threads)?;
    let (r, mut recs) = pool.install(|| {
        matches::run_hooked(
            &k,
            &cfg,
            |order| compiled.bots(order),
            stop,
            &Records { card },
        )
    });
    if let Some((i, f)) = &r.stats.first_fault {
        bail!("game {i}: a bot gave an illegal answer: {f}");
    }
    recs.sort_by_key(|r| r.index);
    Ok(recs)
}

// -------------------------------------------------------------------------
// cards verify

/// One reprint checked: the data card, the printed card it reprints, and
/// the first game that differs (None: every game identical).
#[derive(Clone, Debug)]
pub struct Verified {
    pub data: String,
    pub printed: Card,
    pub games: u64,
    pub first_difference: Option<String>,
}

/// The bot that plays a card in `cards verify`: money, at most two copies
/// of the card, and explicit lists for every question a card of the
/// vocabulary asks (the same for the printed card, whose per-card options
/// are given the same lists, and the data card, which reads the general
/// lists): both copies answer every question the same way.
pub fn verify_bot(card_name: &str, printed: Option<Card>, attacker: bool) -> String {
    let x = card_name;
    let mut s = format!(
        "name: {x} money\n\
         buy:\n    Province if total_money >= 16\n    Duchy if supply(Province) <= 4\n    Estate if supply(Province) <= 2\n    Gold\n    {x} if count({x}) < 2\n"
    );
    if attacker {
        s.push_str("    Militia if count(Militia) < 1\n");
    }
    s.push_str("    Silver\n");
    const TRASH: &str =
        "    Curse\n    Estate if supply(Province) >= 5\n    Copper if total_money >= 7\n";
    const DISCARD: &str = "    Curse\n    Province\n    Duchy\n    Estate\n    Copper\n";
    // Always matches a card in hand, so no default (some printed cards
    // have their own) is ever reached.
    const TOPDECK: &str =
        "    Province\n    Duchy\n    Estate\n    Curse\n    Copper\n    Action\n    Treasure\n    Victory\n";
    let gain = format!("    Gold\n    Silver\n    {x}\n    Copper\n");
    s.push_str(&format!(
        "trash:\n{TRASH}discard:\n{DISCARD}topdeck:\n{TOPDECK}gain:\n{gain}"
    ));
    if let Some(p) = printed {
        use crate::engine::Why;
        use crate::strategy::options::{Kind, Question, OPTIONS};
        // "Choose one" modes: the first option, as a data card's default
        // answer (option 0) when its strategy does not say.
        for o in OPTIONS.iter().filter(|o| o.card == p) {
            if let Question::Mode(m) = o.question {
                let yes = if m == 0 { "yes" } else { "no" };
                s.push_str(&format!("{} {}: {yes}\n", p.name(), o.name));
            }
        }
        // May-questions: "no", a data card's default answer.
        for o in OPTIONS
            .iter()
            .filter(|o| o.card == p && o.kind == Kind::Bool)
        {
            if matches!(o.question, Question::YesNoOwn | Question::YesNoOther) {
                s.push_str(&format!("{} {}: no\n", p.name(), o.name));
            }
        }
        for o in OPTIONS
            .iter()
            .filter(|o| o.card == p && o.kind == Kind::List)
        {
            if o.question == Question::YesNoOwn {
                // A list answering a may-question (Library's set_aside):
                // an entry that never matches, i.e. always "no".
                s.push_str(&format!("{} {}:\n    Curse\n", p.name(), o.name));
                continue;
            }
            let list = match o.question {
                Question::Pick(Why::Trash) => TRASH.to_string(),
                // Storeroom's second round asks `DiscardForCoin`; a data
                // `discard_for` asks `Discard` every round: the same list.
                Question::Pick(Why::Discard | Why::DiscardForCoin) => DISCARD.to_string(),
                Question::Pick(Why::Topdeck) => TOPDECK.to_string(),
                Question::Pick(Why::Gain) => gain.clone(),
                _ => continue,
            };
            s.push_str(&format!("{} {}:\n{list}", p.name(), o.name));
        }
    }
    s
}

/// The kingdom of a verify run: the card and the first nine base cards
/// that are neither it nor its reprint (and Militia, for a Reaction).
fn verify_kingdom(card: Card, reaction: bool, avoid: Card) -> Result<Kingdom> {
    let mut cards = vec![card];
    if reaction && card != Card::Militia {
        cards.push(Card::Militia);
    }
    for &c in Card::PRINTED {
        if cards.len() == 10 {
            break;
        }
        if c.is_kingdom()
            && c.info().set == crate::cards::Set::Base
            && c != avoid
            && !cards.contains(&c)
        {
            cards.push(c);
        }
    }
    // Shelters off in both runs: by the rule a Dark Ages card brings them
    // (decided per game), and a data card belongs to no set.
    Kingdom::new(2, &cards)
        .map(|k| k.with_shelters(Some(false)))
        .map_err(|e| anyhow!("{e}"))
}

/// A strategy name as the strategy language reads it (letters, digits,
/// spaces).
fn spelled(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' {
                c
            } else {
                ' '
            }
        })
        .collect()
}

/// Check every reprint of `cards`: the printed card and its data copy, in
/// the same kingdom with the same bots and seeds, must give the same game,
/// game for game.
pub fn verify(cards: &[DataCard], games: u64, seed: u64, threads: usize) -> Result<Vec<Verified>> {
    let mut out = Vec::new();
    for dc in cards {
        let Some(printed) = dc.reprint_of else {
            continue;
        };
        // The printed card's run (no data card bound).
        let (k, lineup) = verify_setup(dc, None)?;
        let a = play_records(&k, &lineup, printed, games, seed, threads)?;
        // The data card's run.
        let binding = data::bind(std::slice::from_ref(dc))?;
        let d = binding.cards()[0];
        let (k, lineup) = verify_setup(dc, Some(d))?;
        let b = play_records(&k, &lineup, d, games, seed, threads)?;
        drop(binding);
        let first_difference = a.iter().zip(&b).find(|(x, y)| !same_game(x, y)).map(|(x, y)| {
            format!(
                "game {}: printed VP {:?} turns {:?} bought {:?} played {:?}; data VP {:?} turns {:?} bought {:?} played {:?}",
                x.index,
                &x.outcome.vp[..2],
                &x.outcome.turns[..2],
                &x.bought[..2],
                &x.plays[..2],
                &y.outcome.vp[..2],
                &y.outcome.turns[..2],
                &y.bought[..2],
                &y.plays[..2]
            )
        });
        out.push(Verified {
            data: dc.name.clone(),
            printed,
            games,
            first_difference,
        });
    }
    Ok(out)
}

/// The kingdom and the bots of a verify run of reprint `dc`: the printed
/// card's (`bound` None), or the data card's once bound to `bound` (also
/// the benchmark `benches/data_cards.rs`: the same game, printed or data).
pub fn verify_setup(dc: &DataCard, bound: Option<Card>) -> Result<(Kingdom, Lineup)> {
    let printed = dc
        .reprint_of
        .ok_or_else(|| anyhow!("{} reprints no card", dc.name))?;
    let reaction = dc.info.types.has(crate::cards::Types::REACTION);
    let (card, text) = match bound {
        None => (printed, verify_bot(printed.name(), Some(printed), reaction)),
        Some(d) => (d, verify_bot(&spelled(&dc.name), None, reaction)),
    };
    Ok((
        verify_kingdom(card, reaction, printed)?,
        lineup_of(&text, "verify")?,
    ))
}

fn same_game(a: &CardGame, b: &CardGame) -> bool {
    a.index == b.index
        && a.outcome == b.outcome
        && a.bought == b.bought
        && a.plays == b.plays
        && a.owned == b.owned
}

/// A mirror of one strategy text (two seats).
fn lineup_of(text: &str, label: &str) -> Result<Lineup> {
    let st = crate::strategy::parse(text, label).map_err(|e| anyhow!("{e}"))?;
    let info = crate::report::EntrantInfo {
        name: st.name.clone(),
        source: label.to_string(),
        hash: format!("{:016x}", st.source_hash),
    };
    let l = crate::dominion::lineup::Loaded::File(Box::new(st));
    Ok(Lineup::from_entrants(vec![
        (info.clone(), l.clone()),
        (info, l),
    ]))
}

/// Parse the built-in card files.
pub fn builtin(which: (&str, &str)) -> Result<Vec<DataCard>> {
    data::parse_cards(which.0, which.1).with_context(|| format!("built-in {}", which.0))
}

// -------------------------------------------------------------------------
// compare: variant A against variant B on common random numbers

/// One compared measure: its means under A and B and the paired difference
/// B − A with its 95% interval (from the per-game differences).
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    pub measure: &'static str,
    /// The bot (entrant name), or "all" for a game-level measure.
    pub bot: String,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub games: u64,
}

/// The measures of a comparison, with what they mean (CSV and docs).
pub const MEASURES: &[(&str, &str)] = &[
    ("win_rate", "share of wins (ties split) of the bot"),
    ("bought", "copies of the card the bot buys per game"),
    ("played", "plays of the card by the bot per game"),
    (
        "owned_at_end",
        "copies of the card in the bot's deck at the end",
    ),
    (
        "winner_has_card",
        "share of games whose winner (one of them) owns the card at the end",
    ),
    (
        "game_length",
        "rounds per game (the most turns any player took)",
    ),
];

/// Every value a compared measure takes in one game, times this, is an
/// integer: a bot's value is a mean over the seats it holds (1 to 6) of a
/// count or of a tie's share of a win (1/1 to 1/6), and 3600 is a multiple
/// of every product of two numbers up to 6. The sums are kept exactly, so
/// the result does not depend on how the games were split into blocks.
const SCALE: i64 = 3600;

/// Exact sums over games of one measure under A and B (scaled by
/// [`SCALE`]) and of the paired difference and its square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct PairSums {
    n: u64,
    a: i128,
    b: i128,
    d: i128,
    dd: i128,
}

impl PairSums {
    /// These sums and `o`'s (the games of another shard); None on overflow.
    fn checked_merge(&self, o: &PairSums) -> Option<PairSums> {
        Some(PairSums {
            n: self.n.checked_add(o.n)?,
            a: self.a.checked_add(o.a)?,
            b: self.b.checked_add(o.b)?,
            d: self.d.checked_add(o.d)?,
            dd: self.dd.checked_add(o.dd)?,
        })
    }

    /// Sums that `games` games with values in `0..=most` (scaled) can
    /// give: each within its range, d = b − a, and Σd² between (Σd)²/n
    /// and n·most² (a damaged or edited file is refused).
    fn check(&self, games: u64, most: i128) -> Result<(), String> {
        let n = self.n as i128;
        if self.n != games {
            return Err(format!(
                "n is {}, not the {games} games of the part",
                self.n
            ));
        }
        let bound = n.saturating_mul(most);
        if !(0..=bound).contains(&self.a) || !(0..=bound).contains(&self.b) {
            return Err("a or b outside what its games can sum to".into());
        }
        if self.d != self.b - self.a {
            return Err("d is not b − a".into());
        }
        let upper = bound.saturating_mul(most);
        // n·Σd² ≥ (Σd)² (Cauchy–Schwarz), exactly while both products fit
        // in i128; beyond (some 10^14 games of the longest measures, only
        // in an edited file) in f64 with room for its rounding.
        let lower = match (n.checked_mul(self.dd), self.d.checked_mul(self.d)) {
            (Some(x), Some(y)) => x >= y,
            _ => n as f64 * self.dd as f64 >= (self.d as f64).powi(2) * (1.0 - 1e-9),
        };
        if !(0..=upper).contains(&self.dd) || !lower {
            return Err("dd is not a sum of squares of these differences".into());
        }
        Ok(())
    }

    fn add(&mut self, a: i64, b: i64) {
        let d = (b - a) as i128;
        self.n += 1;
        self.a += a as i128;
        self.b += b as i128;
        self.d += d;
        self.dd += d * d;
    }

    /// Means and the paired 95% interval of B − A.
    fn finish(&self, measure: &'static str, bot: &str) -> Compared {
        let nf = self.n.max(1) as f64;
        let s = SCALE as f64;
        let md = self.d as f64 / nf / s;
        // Σ(d − mean)² = (n·Σd² − (Σd)²) / n, exact while it fits in i128
        // (beyond some 10^10 games of the largest measures: then in f64).
        let var = if self.n > 1 {
            let n = self.n as i128;
            let spread = n
                .checked_mul(self.dd)
                .and_then(|x| x.checked_sub(self.d.checked_mul(self.d)?))
                .map_or_else(
                    || self.dd as f64 - (self.d as f64) * (self.d as f64) / nf,
                    |x| x as f64 / nf,
                );
            spread / (nf - 1.0) / (s * s)
        } else {
            0.0
        };
        // One game says nothing about the spread of the differences: no
        // interval (not a zero-width one that "excludes 0").
        let half = if self.n > 1 {
            1.96 * (var.max(0.0) / nf).sqrt()
        } else {
            f64::INFINITY
        };
        Compared {
            measure,
            bot: bot.to_string(),
            a: self.a as f64 / nf / s,
            b: self.b as f64 / nf / s,
            diff: md,
            ci_low: md - half,
            ci_high: md + half,
            games: self.n,
        }
    }
}

/// The seat measures, in the order of the output; all but the first also
/// get an "all" row (the sum over the bots).
const SEAT_MEASURES: [&str; 4] = ["win_rate", "bought", "played", "owned_at_end"];

/// Measure `m` of [`SEAT_MEASURES`] at seat `s` of game `r`, scaled.
fn seat_value(m: usize, r: &CardGame, s: usize) -> i64 {
    match m {
        0 if r.outcome.won(s) => SCALE / r.outcome.winner_count().max(1) as i64,
        0 => 0,
        1 => r.bought[s] as i64 * SCALE,
        2 => r.plays[s] as i64 * SCALE,
        _ => r.owned[s] as i64 * SCALE,
    }
}

/// Per-entrant values of measure `m` in one game, scaled: the mean over
/// the seats each entrant holds (exact, see [`SCALE`]).
fn per_entrant(r: &CardGame, m: usize) -> [i64; MAX_PLAYERS] {
    let n = (r.outcome.players as usize).min(MAX_PLAYERS);
    let mut sum = [0i64; MAX_PLAYERS];
    let mut seats = [0i64; MAX_PLAYERS];
    for s in 0..n {
        let e = r.order[s] as usize;
        if e < MAX_PLAYERS {
            sum[e] += seat_value(m, r, s);
            seats[e] += 1;
        }
    }
    for (x, &k) in sum.iter_mut().zip(&seats) {
        if k > 0 {
            // Arithmetic, not a bound: SCALE is a multiple of every seat
            // count 1..=6, so the division is exact; were it not, the mean
            // would round down, never index or overflow.
            debug_assert_eq!(*x % k, 0, "SCALE makes every mean exact");
            *x /= k;
        }
    }
    sum
}

/// A comparison being accumulated: the games of both variants are added a
/// block at a time ([`Pairing::add`]) and forgotten, so memory does not
/// grow with the number of games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pairing {
    names: Vec<String>,
    /// Per seat measure, per entrant, then the "all" row.
    seat: [[PairSums; MAX_PLAYERS + 1]; 4],
    winner_has: PairSums,
    length: PairSums,
}

impl Pairing {
    /// A comparison of a field of `names` (at most [`MAX_PLAYERS`]).
    pub fn new(names: &[String]) -> Pairing {
        Pairing {
            names: names.iter().take(MAX_PLAYERS).cloned().collect(),
            seat: [[PairSums::default(); MAX_PLAYERS + 1]; 4],
            winner_has: PairSums::default(),
            length: PairSums::default(),
        }
    }

    /// Add the records of the same games under A and under B (the same
    /// indices, in the same order).
    pub fn add(&mut self, a: &[CardGame], b: &[CardGame]) -> Result<()> {
        if a.len() != b.len() {
            bail!("{} games of variant A against {} of B", a.len(), b.len());
        }
        let e = self.names.len();
        for (ra, rb) in a.iter().zip(b) {
            if ra.index != rb.index {
                bail!("game {} of A paired with game {} of B", ra.index, rb.index);
            }
            for (m, rows) in self.seat.iter_mut().enumerate() {
                let (va, vb) = (per_entrant(ra, m), per_entrant(rb, m));
                for i in 0..e {
                    rows[i].add(va[i], vb[i]);
                }
                rows[MAX_PLAYERS].add(va[..e].iter().sum(), vb[..e].iter().sum());
            }
            self.winner_has
                .add(winner_has(ra) * SCALE, winner_has(rb) * SCALE);
            self.length.add(length(ra) * SCALE, length(rb) * SCALE);
        }
        Ok(())
    }

    /// Games paired so far.
    pub fn games(&self) -> u64 {
        self.length.n
    }

    /// The pairing of these games and `o`'s (another shard of the same
    /// run); None on overflow.
    pub fn checked_merge(&self, o: &Pairing) -> Option<Pairing> {
        if self.names != o.names {
            return None;
        }
        let mut out = self.clone();
        for (ra, rb) in out.seat.iter_mut().zip(&o.seat) {
            for (x, y) in ra.iter_mut().zip(rb) {
                *x = x.checked_merge(y)?;
            }
        }
        out.winner_has = out.winner_has.checked_merge(&o.winner_has)?;
        out.length = out.length.checked_merge(&o.length)?;
        Some(out)
    }

    /// Check a loaded pairing (a shard's partial file) against the bots of
    /// its run and the `games` of its part: every sum counts those games
    /// and could come from them (the sum at fault is named).
    pub fn check(&self, names: &[String], games: u64) -> Result<(), String> {
        if self.names != names {
            return Err(format!(
                "names {:?} are not the run's bots {names:?}",
                self.names
            ));
        }
        let s = SCALE as i128;
        // The largest value of each measure in one game: a bot's win share
        // 1; its mean buys, plays, copies (u8, u16, u8 a seat); their sum
        // over up to MAX_PLAYERS bots; winner_has 1; rounds u16.
        let most = [s, 255 * s, 65_535 * s, 255 * s];
        for (m, rows) in self.seat.iter().enumerate() {
            for (i, r) in rows.iter().enumerate() {
                let all = i == MAX_PLAYERS;
                if !all && i >= names.len() {
                    if *r != PairSums::default() {
                        return Err(format!(
                            "{}: a row for bot {i}, beyond the run's",
                            SEAT_MEASURES[m]
                        ));
                    }
                    continue;
                }
                let most = if all {
                    most[m] * MAX_PLAYERS as i128
                } else {
                    most[m]
                };
                r.check(games, most).map_err(|e| {
                    format!(
                        "{} of {}: {e}",
                        SEAT_MEASURES[m],
                        if all { "all" } else { &names[i] }
                    )
                })?;
            }
        }
        // Each game's "all" value is the sum of the bots' values: so are
        // the sums (an edit of one row alone is caught).
        for (m, rows) in self.seat.iter().enumerate() {
            let bots = &rows[..names.len()];
            let all = &rows[MAX_PLAYERS];
            if all.a != bots.iter().map(|r| r.a).sum::<i128>()
                || all.b != bots.iter().map(|r| r.b).sum::<i128>()
            {
                return Err(format!(
                    "{} of all: a or b is not the sum of the bots' rows",
                    SEAT_MEASURES[m]
                ));
            }
        }
        self.winner_has
            .check(games, s)
            .map_err(|e| format!("winner_has_card: {e}"))?;
        self.length
            .check(games, 65_535 * s)
            .map_err(|e| format!("game_length: {e}"))
    }

    /// The widest 95% half-width of the bots' win-rate changes (what
    /// `--precision` stops on; infinite before two games).
    pub fn widest_win_rate_half_width(&self) -> f64 {
        if self.games() < 2 {
            return f64::INFINITY;
        }
        self.seat[0][..self.names.len()]
            .iter()
            .map(|r| {
                let c = r.finish("win_rate", "");
                (c.ci_high - c.ci_low) / 2.0
            })
            .fold(0.0, f64::max)
    }

    /// The compared measures, in the order of [`MEASURES`]: each seat
    /// measure per bot (and for "all" but the win rate), then the game
    /// measures.
    pub fn rows(&self) -> Vec<Compared> {
        let mut out = Vec::new();
        for (m, rows) in SEAT_MEASURES.iter().zip(&self.seat) {
            for (i, name) in self.names.iter().enumerate() {
                out.push(rows[i].finish(m, name));
            }
            if *m != "win_rate" {
                out.push(rows[MAX_PLAYERS].finish(m, "all"));
            }
        }
        out.push(self.winner_has.finish("winner_has_card", "all"));
        out.push(self.length.finish("game_length", "all"));
        out
    }
}

/// 1 when a winner (one of them) owns the card at the end.
fn winner_has(r: &CardGame) -> i64 {
    let n = r.outcome.players as usize;
    i64::from((0..n).any(|s| r.outcome.won(s) && r.owned[s] > 0))
}

/// Rounds: the most turns any player took.
fn length(r: &CardGame) -> i64 {
    let n = r.outcome.players as usize;
    r.outcome.turns[..n].iter().copied().max().unwrap_or(0) as i64
}

/// The comparison as CSV (long format: one row per measure and bot).
pub fn compare_csv(meta: &crate::report::Meta, rows: &[Compared]) -> Result<Vec<u8>> {
    let mut out = meta.render().into_bytes();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "measure", "bot", "a", "b", "diff", "ci_low", "ci_high", "games",
    ])?;
    for r in rows {
        w.write_record([
            r.measure.to_string(),
            r.bot.clone(),
            format!("{:.6}", r.a),
            format!("{:.6}", r.b),
            format!("{:.6}", r.diff),
            format!("{:.6}", r.ci_low),
            format!("{:.6}", r.ci_high),
            r.games.to_string(),
        ])?;
    }
    out.extend(w.into_inner().map_err(|e| anyhow!("{e}"))?);
    Ok(out)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What a measure's axis counts, and the factor its values are shown at.
fn measure_unit(m: &str) -> (&'static str, f64) {
    match m {
        "win_rate" => ("change in win rate, percentage points", 100.0),
        "winner_has_card" => (
            "change in the share of games whose winner owns the card, percentage points",
            100.0,
        ),
        "bought" => ("change in copies bought per game", 1.0),
        "played" => ("change in plays per game", 1.0),
        "owned_at_end" => ("change in copies owned at the end", 1.0),
        _ => ("change in rounds per game", 1.0),
    }
}

/// The card's description in a variant's signatures (`NAME ($4, Action,
/// +2 Cards; definition …) ; …`): its parts before the definition hash.
fn signature_parts<'s>(sigs: &'s str, card: &str) -> Vec<&'s str> {
    sigs.split(" ; ")
        .find(|s| crate::cards::data::DataCard::name_of_signature(s) == card)
        .and_then(|s| s.split_once(" (").map(|(_, rest)| rest))
        .map(|rest| rest.split("; definition").next().unwrap_or(rest))
        .map(|inner| inner.split(", ").collect())
        .unwrap_or_default()
}

/// How the headline names the two variants: "at $5" / "at $4" when only
/// the cost differs, "with +3 Cards" / "with +2 Cards" when other printed
/// numbers do, else "with variant B" / "with variant A".
fn variant_words(a: Option<&str>, b: Option<&str>, card: &str) -> (String, String) {
    let pa = a.map(|s| signature_parts(s, card)).unwrap_or_default();
    let pb = b.map(|s| signature_parts(s, card)).unwrap_or_default();
    let only = |x: &[&str], y: &[&str]| -> Vec<String> {
        x.iter()
            .filter(|p| !y.contains(p))
            .map(|p| p.to_string())
            .collect()
    };
    let (oa, ob) = (only(&pa, &pb), only(&pb, &pa));
    if oa.is_empty() || ob.is_empty() {
        return ("with variant A".into(), "with variant B".into());
    }
    let cost = |v: &[String]| v.len() == 1 && v[0].starts_with('$');
    if cost(&oa) && cost(&ob) {
        (format!("at {}", oa[0]), format!("at {}", ob[0]))
    } else {
        (
            format!("with {}", oa.join(", ")),
            format!("with {}", ob.join(", ")),
        )
    }
}

/// The comparison as a page a designer reads in ten seconds: the headline
/// (how the win rate of the bot that plays the card changes from variant A
/// to B, in words, with its interval), one chart of every measure that
/// changed — each interval on a labelled axis, green when B is surely
/// better for the card's owner, red when surely worse, grey when the
/// interval holds 0 or the measure is neither —, then the numbers and the
/// run's details folded away.
pub fn compare_html(title: &str, meta: &crate::report::Meta, rows: &[Compared]) -> String {
    let field = |k: &str| {
        meta.0
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let card = field("card").unwrap_or("the card");
    let per_bot = |m: &'static str| {
        rows.iter()
            .filter(move |r| r.measure == m && r.bot != "all")
    };
    // The card's owner: the bot that buys it most (over both variants).
    let owner = per_bot("bought")
        .filter(|r| r.a + r.b > 0.0)
        .max_by(|x, y| (x.a + x.b).total_cmp(&(y.a + y.b)))
        .or_else(|| per_bot("win_rate").next())
        .map(|r| r.bot.clone())
        .unwrap_or_default();
    let games = rows.first().map_or(0, |r| r.games);
    let (va, vb) = variant_words(field("variant_a_cards"), field("variant_b_cards"), card);
    let pp = |v: f64| format!("{:.1}", v * 100.0);
    let o = esc(&owner);
    let headline = match rows
        .iter()
        .find(|r| r.measure == "win_rate" && r.bot == owner)
    {
        Some(w) if w.ci_low > 0.0 => format!(
            "{vb}, {o} wins <b>{} points more</b> than {va} [{}, {}]",
            pp(w.diff),
            pp(w.ci_low),
            pp(w.ci_high)
        ),
        Some(w) if w.ci_high < 0.0 => format!(
            "{vb}, {o} wins <b>{} points less</b> than {va} [{}, {}]",
            pp(-w.diff),
            pp(-w.ci_high),
            pp(-w.ci_low)
        ),
        Some(w) => format!(
            "{vb}, {o} wins <b>about as often</b> as {va}: {:+.1} points [{:+.1}, {:+.1}], no clear change",
            w.diff * 100.0,
            w.ci_low * 100.0,
            w.ci_high * 100.0
        ),
        None => format!("{}: variant B against variant A", esc(card)),
    };
    let headline = {
        let mut c = headline.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect::<String>())
            .unwrap_or_default()
    };
    let win = |bot: &str| {
        rows.iter()
            .find(|r| r.measure == "win_rate" && r.bot == bot)
    };
    let sub = match win(&owner) {
        Some(w) => format!(
            "{} win rate: {:.1}% with variant A, {:.1}% with variant B. 95% paired interval of the change over {games} game{} played with each variant on the same seeds and seats; {o} is the bot that buys {} most.",
            o,
            w.a * 100.0,
            w.b * 100.0,
            if games == 1 { "" } else { "s" },
            esc(card)
        ),
        None => String::new(),
    };
    // Better or worse for the owner (win rates only).
    let colour = |r: &Compared| -> &'static str {
        let up = r.ci_low > 0.0;
        let down = r.ci_high < 0.0;
        if r.measure != "win_rate" {
            return if up || down { "#2c6fbb" } else { "#999" };
        }
        let mine = r.bot == owner;
        match (up, down) {
            (true, _) if mine => "#1a7f37",
            (true, _) => "#c0392b",
            (_, true) if mine => "#c0392b",
            (_, true) => "#1a7f37",
            _ => "#999",
        }
    };
    let shown: Vec<&Compared> = rows
        .iter()
        .filter(|r| !(r.a == 0.0 && r.b == 0.0 && r.diff == 0.0))
        .collect();
    // One chart: a panel per measure, each with its own labelled axis.
    let (w, label_w, plot_w, row_h) = (820.0, 230.0, 540.0, 22.0);
    let mut svg = String::new();
    let mut y: f64 = 0.0;
    for (m, _) in MEASURES {
        let rs: Vec<&&Compared> = shown.iter().filter(|r| r.measure == *m).collect();
        if rs.is_empty() {
            continue;
        }
        let (unit, k) = measure_unit(m);
        let lim = rs
            .iter()
            .flat_map(|r| [r.ci_low.abs(), r.ci_high.abs(), r.diff.abs()])
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
            * 1.1;
        let lim = if lim > 0.0 { lim } else { 1.0 / k };
        let x = |v: f64| label_w + plot_w * (0.5 + 0.5 * (v / lim).clamp(-1.0, 1.0));
        svg.push_str(&format!(
            "<text x=\"{label_w}\" y=\"{:.1}\" class=\"axis-title\">{}</text>",
            y + 14.0,
            esc(unit)
        ));
        y += 22.0;
        let top = y;
        for r in &rs {
            let cy = y + row_h / 2.0;
            let c = colour(r);
            svg.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" class=\"bot\">{}</text><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{cy:.1}\" y2=\"{cy:.1}\" stroke=\"{c}\" stroke-width=\"4\" stroke-linecap=\"round\"/><circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"5\" fill=\"{c}\"><title>{}: {:+.4} [{:+.4}, {:+.4}]</title></circle>",
                label_w - 10.0,
                cy + 4.0,
                esc(&r.bot),
                x(r.ci_low),
                x(r.ci_high),
                x(r.diff),
                esc(&r.bot),
                r.diff * k,
                r.ci_low * k,
                r.ci_high * k
            ));
            y += row_h;
        }
        // The axis: zero, and ticks at half and all of the range each way.
        for t in [-1.0, -0.5, 0.0, 0.5, 1.0] {
            let xx = x(t * lim);
            let v = t * lim * k;
            let label = if t == 0.0 {
                "0".to_string()
            } else if v.abs() >= 10.0 {
                format!("{v:+.0}")
            } else if v.abs() >= 1.0 {
                format!("{v:+.1}")
            } else {
                format!("{v:+.2}")
            };
            svg.push_str(&format!(
                "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{top:.1}\" y2=\"{:.1}\" stroke=\"{}\"/><text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" class=\"tick\">{label}</text>",
                y + 4.0,
                if t == 0.0 { "#444" } else { "#ddd" },
                y + 18.0
            ));
        }
        y += 34.0;
    }
    let mut h = String::new();
    h.push_str("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    h.push_str(&esc(title));
    h.push_str("</title><style>body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;padding:0 1em}h1{font-size:1.3em;margin-bottom:.2em}.headline{font-size:1.6em;line-height:1.3;margin:.4em 0}.sub{color:#555;margin-top:0}.legend span{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:middle;margin:0 .3em 0 1em}svg text{font-size:13px}svg .tick{font-size:11px;fill:#555}svg .axis-title{font-weight:600;fill:#333}details{margin:1em 0}summary{cursor:pointer;color:#333}table{border-collapse:collapse;font-size:.9em}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:right}td:first-child,th:first-child,td:nth-child(2),th:nth-child(2){text-align:left}.meta{font-size:.85em;color:#444;word-break:break-all}</style></head><body>");
    h.push_str("<section id=\"compare\">");
    h.push_str(&format!("<h1>{}</h1>", esc(title)));
    h.push_str(&format!("<p class=\"headline\">{headline}.</p>"));
    if !sub.is_empty() {
        h.push_str(&format!("<p class=\"sub\">{sub}</p>"));
    }
    h.push_str(&format!(
        "<p class=\"legend\">Change from variant A to variant B, with its 95% interval:<span style=\"background:#1a7f37\"></span>better for {o}<span style=\"background:#c0392b\"></span>worse for {o}<span style=\"background:#2c6fbb\"></span>a clear change that is neither<span style=\"background:#999\"></span>no clear change (the interval holds 0)</p>",
        o = esc(if owner.is_empty() { "the card's owner" } else { &owner })
    ));
    h.push_str(&format!(
        "<svg width=\"{w}\" height=\"{:.0}\" viewBox=\"0 0 {w} {:.0}\" role=\"img\" aria-label=\"every measure's change from A to B with its interval\">{svg}</svg>",
        y.max(1.0),
        y.max(1.0)
    ));
    h.push_str("<details><summary>The numbers</summary><table><tr><th>measure</th><th>bot</th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th></tr>");
    for r in &shown {
        h.push_str(&format!(
            "<tr data-measure=\"{}\"><td>{}</td><td>{}</td><td>{:.4}</td><td>{:.4}</td><td style=\"color:{}\">{:+.4}</td><td>[{:+.4}, {:+.4}]</td></tr>",
            esc(r.measure),
            esc(r.measure),
            esc(&r.bot),
            r.a,
            r.b,
            colour(r),
            r.diff,
            r.ci_low,
            r.ci_high
        ));
    }
    h.push_str("</table>");
    let left_out = rows.len() - shown.len();
    if left_out > 0 {
        h.push_str(&format!(
            "<p class=\"sub\">{left_out} measure{} that {} 0 with both variants (a bot that never buys the card) left out.</p>",
            if left_out == 1 { "" } else { "s" },
            if left_out == 1 { "is" } else { "are" }
        ));
    }
    h.push_str("<p class=\"sub\">Every game is played twice, with variant A and with variant B, from the same seed and the same seats (common random numbers): the interval of B − A comes from the per-game differences, much narrower than two independent runs would give.</p></details>");
    h.push_str("<details><summary>How this was run</summary><p class=\"meta\">");
    for (k, v) in &meta.0 {
        h.push_str(&format!("<b>{}</b>: {}<br>", esc(k), esc(v)));
    }
    h.push_str("</p></details></section></body></html>\n");
    h
}

/// Variant B as a change of variant A: `field=value` for one card
/// (`cost`, `cards`, `actions`, `buys`, `coins`, `value`, `vp`).
pub fn modified(cards: &[DataCard], card: &str, field: &str, value: &str) -> Result<Vec<DataCard>> {
    let key = crate::cards::normalize(card);
    let Some(i) = cards
        .iter()
        .position(|c| crate::cards::normalize(&c.name) == key)
    else {
        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        bail!(
            "--b-set: no card '{card}' in the variant A files (their cards: {})",
            names.join(", ")
        );
    };
    let v: i64 = value.trim().parse().map_err(|_| {
        anyhow!("--b-set {card}:{field}={value}: the value is a whole number (cost 0–16; cards, actions, buys, coins and value 0–20; vp −10–20)")
    })?;
    let mut out = cards.to_vec();
    out[i] = out[i].with_field(field, v)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random records of the same games under two variants: 2 to 6 seats,
    /// entrants holding several seats, ties of up to every seat.
    fn records(n: u64, entrants: usize, seed: u64) -> (Vec<CardGame>, Vec<CardGame>) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut one = |index: u64, players: usize, order: [u8; MAX_PLAYERS]| {
            let mut r = CardGame {
                index,
                order,
                outcome: Outcome {
                    players: players as u8,
                    vp: [0; MAX_PLAYERS],
                    turns: [0; MAX_PLAYERS],
                    winners: 0,
                    capped: false,
                },
                bought: [0; MAX_PLAYERS],
                plays: [0; MAX_PLAYERS],
                owned: [0; MAX_PLAYERS],
            };
            while r.outcome.winners == 0 {
                r.outcome.winners = rng.random_range(0..1u8 << players);
            }
            for s in 0..players {
                r.outcome.turns[s] = rng.random_range(10..40);
                r.bought[s] = rng.random_range(0..6);
                r.plays[s] = rng.random_range(0..20);
                r.owned[s] = rng.random_range(0..6);
            }
            r
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        for i in 0..n {
            let players = 2 + (i as usize % 5);
            let mut order = [0u8; MAX_PLAYERS];
            for (s, o) in order.iter_mut().enumerate().take(players) {
                *o = ((s + i as usize) % entrants) as u8;
            }
            a.push(one(i, players, order));
            b.push(one(i, players, order));
        }
        (a, b)
    }

    /// The old computation: per-game values in f64, two-pass variance.
    fn reference(names: &[String], a: &[CardGame], b: &[CardGame]) -> Vec<(f64, f64, f64, f64)> {
        let e = names.len();
        let per = |r: &CardGame, m: usize| -> Vec<f64> {
            let mut sum = vec![0.0; e];
            let mut k = vec![0.0; e];
            for s in 0..r.outcome.players as usize {
                let v = match m {
                    0 if r.outcome.won(s) => 1.0 / r.outcome.winner_count() as f64,
                    0 => 0.0,
                    1 => r.bought[s] as f64,
                    2 => r.plays[s] as f64,
                    _ => r.owned[s] as f64,
                };
                sum[r.order[s] as usize] += v;
                k[r.order[s] as usize] += 1.0;
            }
            sum.iter()
                .zip(&k)
                .map(|(x, k)| if *k > 0.0 { x / k } else { 0.0 })
                .collect()
        };
        let stats = |xa: Vec<f64>, xb: Vec<f64>| {
            let n = xa.len() as f64;
            let d: Vec<f64> = xa.iter().zip(&xb).map(|(x, y)| y - x).collect();
            let md = d.iter().sum::<f64>() / n;
            let var = d.iter().map(|x| (x - md) * (x - md)).sum::<f64>() / (n - 1.0);
            (
                xa.iter().sum::<f64>() / n,
                xb.iter().sum::<f64>() / n,
                md,
                1.96 * (var / n).sqrt(),
            )
        };
        let mut out = Vec::new();
        for m in 0..4 {
            let va: Vec<Vec<f64>> = a.iter().map(|r| per(r, m)).collect();
            let vb: Vec<Vec<f64>> = b.iter().map(|r| per(r, m)).collect();
            for i in 0..e {
                out.push(stats(
                    va.iter().map(|v| v[i]).collect(),
                    vb.iter().map(|v| v[i]).collect(),
                ));
            }
            if m > 0 {
                out.push(stats(
                    va.iter().map(|v| v.iter().sum()).collect(),
                    vb.iter().map(|v| v.iter().sum()).collect(),
                ));
            }
        }
        let f = |g: fn(&CardGame) -> i64, x: &[CardGame]| x.iter().map(|r| g(r) as f64).collect();
        out.push(stats(f(winner_has, a), f(winner_has, b)));
        out.push(stats(f(length, a), f(length, b)));
        out
    }

    #[test]
    fn pairing_in_blocks_is_exact_and_matches_the_per_game_computation() {
        for entrants in [2, 3, 6] {
            let names: Vec<String> = (0..entrants).map(|i| format!("bot {i}")).collect();
            let (a, b) = records(5_000, entrants, entrants as u64);
            let mut one = Pairing::new(&names);
            one.add(&a, &b).unwrap();
            let whole = one.rows();
            let mut blocks = Pairing::new(&names);
            for (ca, cb) in a.chunks(777).zip(b.chunks(777)) {
                blocks.add(ca, cb).unwrap();
            }
            // Exact sums: the split into blocks changes no bit.
            assert_eq!(blocks.rows(), whole);
            assert_eq!(blocks.games(), 5_000);
            let want = reference(&names, &a, &b);
            assert_eq!(whole.len(), want.len());
            for (r, (ma, mb, md, half)) in whole.iter().zip(want) {
                let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
                assert!(
                    close(r.a, ma) && close(r.b, mb) && close(r.diff, md),
                    "{r:?}"
                );
                assert!(close(r.ci_high - r.diff, half), "{r:?} {half}");
                assert!(
                    half > 0.0,
                    "random values differ between the variants: {r:?}"
                );
            }
        }
    }

    /// Shards add exactly, and a part's sums survive its JSON file even
    /// beyond 64 bits (squares of many games).
    #[test]
    fn pairings_of_shards_add_up_and_round_trip_through_json() {
        let names = vec!["x".to_string(), "y".to_string(), "z".to_string()];
        let (a, b) = records(3_000, 3, 9);
        let whole = {
            let mut p = Pairing::new(&names);
            p.add(&a, &b).unwrap();
            p
        };
        let mut parts = Vec::new();
        for (ca, cb) in a.chunks(1_000).zip(b.chunks(1_000)) {
            let mut p = Pairing::new(&names);
            p.add(ca, cb).unwrap();
            parts.push(p);
        }
        let merged = parts[1..]
            .iter()
            .fold(parts[0].clone(), |t, p| t.checked_merge(p).unwrap());
        assert_eq!(merged, whole);
        assert!(whole.check(&names, 3_000).is_ok());
        let mut big = whole.clone();
        big.length.dd = i128::from(u64::MAX) * 1_000;
        let text = serde_json::to_string(&big).unwrap();
        let back: Pairing = serde_json::from_str(&text).unwrap();
        assert_eq!(back, big);
        assert!(Pairing::new(&names[..2]).checked_merge(&whole).is_none());
        assert!(whole.check(&names[..2], 3_000).is_err());
    }

    /// A sum whose game count is not the part's is named: the game length's
    /// own count, not the first bot's win rate.
    #[test]
    fn pairing_check_names_the_sum_at_fault() {
        let names = vec!["x".to_string(), "y".to_string()];
        let (a, b) = records(50, 2, 4);
        let mut p = Pairing::new(&names);
        p.add(&a, &b).unwrap();
        assert_eq!(p.check(&names, 50), Ok(()));
        let e = p.check(&names, 49).unwrap_err();
        assert!(e.starts_with("win_rate of x: n is 50, not the 49"), "{e}");
        let mut bad = p.clone();
        bad.length.n = 1;
        let e = bad.check(&names, 50).unwrap_err();
        assert!(e.starts_with("game_length: n is 1, not the 50"), "{e}");
        let mut bad = p.clone();
        bad.seat[1][MAX_PLAYERS].a += SCALE as i128;
        bad.seat[1][MAX_PLAYERS].d -= SCALE as i128;
        let e = bad.check(&names, 50).unwrap_err();
        assert_eq!(e, "bought of all: a or b is not the sum of the bots' rows");
        let mut bad = p.clone();
        bad.winner_has.n = 7;
        let e = bad.check(&names, 50).unwrap_err();
        assert!(e.starts_with("winner_has_card: n is 7"), "{e}");
    }

    /// A part claiming as many games as a run can play (2^48 per part
    /// at most), each at the largest value, is checked without overflow
    /// (Σd squared overflowed i128: a panic in a debug build, a wrapped
    /// and meaningless comparison in a release build).
    #[test]
    fn pair_sums_check_of_huge_counts_does_not_overflow() {
        let most: i128 = 65_535 * SCALE as i128;
        let games: u64 = 1 << 47;
        let n = games as i128;
        let full = PairSums {
            n: games,
            a: 0,
            b: n * most,
            d: n * most,
            dd: n * most * most,
        };
        assert_eq!(full.check(games, most), Ok(()));
        let short = PairSums { dd: 0, ..full };
        assert!(short
            .check(games, most)
            .unwrap_err()
            .starts_with("dd is not"));
        let under = PairSums {
            dd: n * most * most / 2,
            ..full
        };
        assert!(under.check(games, most).is_err());
    }

    #[test]
    fn pairing_refuses_records_of_different_games() {
        let names = vec!["x".to_string(), "y".to_string()];
        let (a, mut b) = records(10, 2, 1);
        assert!(Pairing::new(&names).add(&a, &b[..9]).is_err());
        b[3].index = 99;
        let e = Pairing::new(&names).add(&a, &b).unwrap_err().to_string();
        assert!(e.contains("game 3 of A paired with game 99 of B"), "{e}");
    }
}
