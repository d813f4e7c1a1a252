//! Small hand-coded bots for tests, benchmarks and the sample report, until
//! strategy files are plugged in: Big Money and Smithy Big Money, one per seat.

use crate::bots::BigMoney;
use crate::cards::Card;
use crate::engine::{Bots, Choose, Game, Pick, Why, YesNo, MAX_PLAYERS};

/// Smithy Big Money: one Smithy early, a second once the deck has 16 cards;
/// otherwise Big Money (Province at $8, Duchy at $5–7 once 4 or fewer
/// Provinces are left, Gold at $6–7, Silver at $3–5). Plays Smithy whenever
/// it can.
#[derive(Clone, Copy, Debug, Default)]
pub struct SmithyBigMoney;

impl Bots for SmithyBigMoney {
    #[inline(always)]
    fn play_all_treasures(&mut self, _g: &Game, _p: u8) -> bool {
        true
    }
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match q.why {
            Why::PlayTreasure => q.legal.first(),
            Why::PlayAction => q.legal.contains(Card::Smithy).then_some(Card::Smithy),
            Why::Buy => {
                let coins = g.turn.coins;
                let pl = g.player(q.player);
                let smithies = pl.owns(Card::Smithy);
                let late = g.pile(Card::Province) <= 4;
                let want = if coins >= 8 {
                    Card::Province
                } else if coins >= 5 && late {
                    Card::Duchy
                } else if coins >= 6 {
                    Card::Gold
                } else if coins >= 4 && (smithies == 0 || (smithies == 1 && pl.owned_total >= 16)) {
                    Card::Smithy
                } else if coins >= 3 {
                    Card::Silver
                } else {
                    return None;
                };
                if q.legal.contains(want) {
                    Some(want)
                } else if q.legal.contains(Card::Silver) && coins >= 3 {
                    Some(Card::Silver)
                } else {
                    None
                }
            }
            _ => q.default_answer(g),
        }
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        q.default_answer(g)
    }
}

/// A built-in bot for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemoBot {
    BigMoney,
    SmithyBigMoney,
}

impl DemoBot {
    pub fn name(self) -> &'static str {
        match self {
            DemoBot::BigMoney => "BigMoney",
            DemoBot::SmithyBigMoney => "SmithyBigMoney",
        }
    }
}

/// One [`DemoBot`] per seat: the `make_bots` of a playtest is
/// `|seats| DemoBots::new(seats.iter().map(|&s| strategies[s]))`.
#[derive(Clone, Copy, Debug)]
pub struct DemoBots {
    pub seats: [DemoBot; MAX_PLAYERS],
}

impl DemoBots {
    pub fn new(per_seat: impl IntoIterator<Item = DemoBot>) -> Self {
        let mut seats = [DemoBot::BigMoney; MAX_PLAYERS];
        for (s, b) in seats.iter_mut().zip(per_seat) {
            *s = b;
        }
        DemoBots { seats }
    }
}

impl Bots for DemoBots {
    #[inline]
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        match self.seats[q.player as usize] {
            DemoBot::BigMoney => BigMoney.pick(g, q),
            DemoBot::SmithyBigMoney => SmithyBigMoney.pick(g, q),
        }
    }
    #[inline]
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        q.default_answer(g)
    }
    #[inline]
    fn play_all_treasures(&mut self, _g: &Game, _p: u8) -> bool {
        true
    }
    fn choose(&mut self, _g: &Game, _q: &Choose) -> u8 {
        0
    }
}
