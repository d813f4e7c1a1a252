//! Random-play smoke test for Intrigue: random Intrigue-only and mixed
//! (base + Intrigue) kingdoms, 2–6 players, uniformly random legal decisions
//! with the conservation invariant checked at every decision. Every game must
//! end normally: no panic, no invariant violation, no illegal answer, no
//! turn-cap stop. `DOMSIM_SOAK=N` runs N games per test instead (use
//! `--release` for a long soak); random bots can then, very rarely, trash
//! their whole deck down to nothing buyable (e.g. both players left with one
//! Chapel each) and stall until the turn cap, so a soak tolerates capped games
//! below 0.1% and prints how many.

use domsim::bots::RandomBots;
use domsim::cards::{Card, Set};
use domsim::engine::{Bots, Choose, Event, Game, Kingdom, Pick, YesNo};

/// Random bots that also count play and reaction events per card, so the
/// test can check that every Intrigue card's code actually ran.
struct Counting {
    inner: RandomBots,
    played: [u32; Card::COUNT],
    reacted: [u32; Card::COUNT],
}

impl Bots for Counting {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        self.inner.pick(g, q)
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        self.inner.yes_no(g, q)
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        self.inner.choose(g, q)
    }
    fn event(&mut self, _g: &Game, e: Event) {
        match e {
            Event::Play { card, .. } => self.played[card as usize] += 1,
            Event::React { card, .. } => self.reacted[card as usize] += 1,
            _ => {}
        }
    }
}

fn run(sets: &[Set], games: u64, seed: u64) -> (u64, Counting) {
    let soak: Option<u64> = std::env::var("DOMSIM_SOAK")
        .ok()
        .and_then(|s| s.parse().ok());
    let games = soak.unwrap_or(games);
    let mut capped = 0u64;
    let mut decisions = 0;
    let mut total = Counting {
        inner: RandomBots::new(0, false),
        played: [0; Card::COUNT],
        reacted: [0; Card::COUNT],
    };
    let mut game: Option<Game> = None;
    for i in 0..games {
        let players = 2 + (i % 5) as usize;
        let k = Kingdom::random(players, sets, seed ^ i.wrapping_mul(0x9E37_79B9))
            .unwrap_or_else(|e| panic!("kingdom for game {i}: {e}"));
        let g = match &mut game {
            Some(g) => {
                g.reset(&k, seed, i);
                g
            }
            None => game.insert(Game::new(&k, seed, i)),
        };
        let mut b = Counting {
            inner: RandomBots::new(seed.wrapping_add(i), true),
            played: [0; Card::COUNT],
            reacted: [0; Card::COUNT],
        };
        let ctx = || format!("game {i} ({players} players; {})", k.describe());
        while !g.over {
            g.play_turn(&mut b);
            // Revealed / set-aside cards never outlive the effect that put
            // them aside (Scout, Saboteur, Tribute, Swindler, Library...).
            for p in 0..players {
                assert!(
                    g.players[p].aside.is_empty(),
                    "{}: seat {p} has cards left aside: {:?}",
                    ctx(),
                    g.players[p].aside
                );
            }
        }
        let o = g.outcome();
        assert!(
            b.inner.violation.is_none(),
            "{}: {:?}",
            ctx(),
            b.inner.violation
        );
        assert!(g.fault.is_none(), "{}: illegal answer {:?}", ctx(), g.fault);
        if o.capped {
            assert!(soak.is_some(), "{}: hit the turn cap", ctx());
            capped += 1;
        }
        g.check_invariants()
            .unwrap_or_else(|e| panic!("{} at the end: {e}", ctx()));
        assert!(o.winner_count() >= 1);
        decisions += b.inner.decisions;
        for c in 0..Card::COUNT {
            total.played[c] += b.played[c];
            total.reacted[c] += b.reacted[c];
        }
    }
    if soak.is_some() {
        eprintln!("{sets:?}: {games} games, {capped} capped, {decisions} decisions");
        assert!(capped * 1000 < games, "{capped} of {games} games capped");
    }
    (decisions, total)
}

#[test]
fn random_intrigue_kingdoms() {
    let (d, seen) = run(&[Set::Intrigue], 1500, 41);
    assert!(d > 0);
    // Every Intrigue card with a play effect was played (Duke never is).
    for &c in Card::PRINTED {
        if c.info().set == Set::Intrigue && c != Card::Duke {
            assert!(seen.played[c as usize] > 0, "{c} never played");
        }
    }
    assert!(seen.reacted[Card::SecretChamber as usize] > 0);
}

#[test]
fn random_mixed_kingdoms() {
    let (d, _) = run(&[Set::Base, Set::Intrigue], 1500, 43);
    assert!(d > 0);
}

#[test]
fn random_kingdom_draws_from_both_sets() {
    let mut base = 0;
    let mut intrigue = 0;
    for seed in 0..50 {
        let k = Kingdom::random(4, &[Set::Base, Set::Intrigue], seed).unwrap();
        assert_eq!(k.kingdom.len(), 10);
        for c in k.kingdom.iter() {
            match c.info().set {
                Set::Base => base += 1,
                Set::Intrigue => intrigue += 1,
                s => panic!("{c} from {s:?}"),
            }
        }
    }
    assert!(
        base > 100 && intrigue > 100,
        "base {base}, intrigue {intrigue}"
    );
}
