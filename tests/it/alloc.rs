//! No heap allocation while games run (issue 2, DESIGN "State"): a counting
//! global allocator for this test binary proves that thousands of complete
//! games — `Game::reset` + `play_game` — allocate nothing once set up.
//!
//! The counter is thread-local, so tests running in parallel on other threads
//! do not disturb a measurement; only allocations made by the measuring
//! thread between [`count_allocs`]'s start and end are counted.

use domsim::bots::{BigMoney, RandomBots};
use domsim::cards::Set;
use domsim::engine::{Bots, Game, Kingdom};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // `const` initialisation: no lazy init, no destructor registration, so
    // touching it from inside the allocator never allocates itself.
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the slot may be gone while a thread is being torn down.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap allocations (alloc, alloc_zeroed, realloc) made by this thread so far.
/// The whole test binary shares this allocator (other modules use it too).
pub fn count() -> u64 {
    ALLOCS.with(Cell::get)
}

/// Heap allocations (alloc, alloc_zeroed, realloc) made by this thread while `f` runs.
fn count_allocs<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let before = ALLOCS.with(Cell::get);
    let r = f();
    let after = ALLOCS.with(Cell::get);
    (after - before, r)
}

/// Play `games` complete games of `kingdom` on one reused `Game`, with bots
/// made by `bots(i)` for game `i`, and return the allocations made by the
/// games (the bots are made before counting starts, so a bot that allocates
/// at construction — a compiled strategy — is fine; one that allocates while
/// answering is not).
fn allocations_in_games<B: Bots>(
    kingdom: &Kingdom,
    games: u64,
    mut bots: impl FnMut(u64) -> B,
    check: impl Fn(&B),
) -> u64 {
    let mut g = Game::new(kingdom, 42, 0);
    let mut total = 0;
    for i in 0..games {
        let mut b = bots(i);
        let (n, o) = count_allocs(|| {
            g.reset(kingdom, 42, i);
            g.play_game(&mut b)
        });
        assert!(!o.capped && o.winners != 0, "game {i} did not end normally");
        check(&b);
        total += n;
    }
    total
}

/// The counter works (otherwise every "zero" below would be vacuous).
#[test]
fn counter_sees_allocations() {
    let (n, v) = count_allocs(|| vec![1u8; 100]);
    assert_eq!(v.len(), 100);
    assert!(n >= 1);
    let (n, s) = count_allocs(|| format!("{}", 12345));
    assert_eq!(s, "12345");
    assert!(n >= 1);
}

#[test]
fn big_money_games_do_not_allocate() {
    for players in [2, 4, 6] {
        let k = Kingdom::random(players, &[Set::Base], players as u64).unwrap();
        let n = allocations_in_games(&k, 2_000, |_| BigMoney, |_| ());
        assert_eq!(
            n, 0,
            "{players} players: {n} allocations in 2,000 BigMoney games"
        );
    }
}

/// Random bots reach every card of the base set (every question shape,
/// reactions, Throne Room, Thief, Library...), with the invariant check on:
/// `check_invariants` builds a `String` only when it finds a violation.
#[test]
fn random_games_with_invariant_checks_do_not_allocate() {
    for players in [2, 3, 4, 5, 6] {
        for kingdom_seed in 0..20u64 {
            let k = Kingdom::random(players, &[Set::Base], kingdom_seed).unwrap();
            let n = allocations_in_games(
                &k,
                100,
                |i| RandomBots::new(i, true),
                |b| assert!(b.violation.is_none(), "{:?}", b.violation),
            );
            assert_eq!(
                n,
                0,
                "{players} players, kingdom {}: {n} allocations in 100 random games",
                k.describe()
            );
        }
    }
}

/// Every strategy file in `strategies/`, compiled (outside the counted
/// region) against a kingdom holding the cards they use, each against Big
/// Money and in a mirror: the compiled bots answer every question without
/// allocating.
#[test]
fn strategy_file_games_do_not_allocate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "dom"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "strategy files missing in {}",
        dir.display()
    );
    let k = Kingdom::from_names(
        2,
        &[
            "Chapel",
            "Council Room",
            "Gardens",
            "Laboratory",
            "Library",
            "Militia",
            "Moneylender",
            "Smithy",
            "Throne Room",
            "Witch",
        ],
    )
    .unwrap();
    let bm = domsim::strategy::load(&dir.join("big_money.dom"))
        .unwrap()
        .compile(&k)
        .unwrap()
        .0;
    for f in &files {
        let c = domsim::strategy::load(f)
            .unwrap_or_else(|e| panic!("{e}"))
            .compile(&k)
            .unwrap_or_else(|e| panic!("{e}"))
            .0;
        for (name, seats) in [("vs Big Money", [&c, &bm]), ("mirror", [&c, &c])] {
            let n = allocations_in_games(
                &k,
                500,
                |_| domsim::strategy::StrategyBots::new(&seats),
                |_| (),
            );
            assert_eq!(n, 0, "{} {name}: {n} allocations", f.display());
        }
    }
}

/// New Salem: thousands of games between the shipped strategy-file bots,
/// every player count, set up and played on one reused `Game`, allocate
/// nothing.
#[test]
fn new_salem_games_allocate_nothing() {
    use domsim::new_salem::{bot, data::Data, engine::NoLog, engine::Table, sim::SalemMatch};
    let data = Data::sample();
    let bots = bot::shipped(&data).unwrap();
    for p in 3..=8 {
        let t = Table::new(&data, p).unwrap();
        let m = SalemMatch {
            table: &t,
            bots: &bots,
        };
        let mut g = domsim::new_salem::engine::Game::new();
        let (n, played) = count_allocs(|| {
            let mut trials = 0u64;
            for i in 0..500 {
                let seats = m.setup(&mut g, 3, i);
                trials += g.play(&t, &mut m.seated(&seats), &mut NoLog).trials as u64;
            }
            trials
        });
        assert!(played > 0);
        assert_eq!(
            n, 0,
            "{n} allocations in 500 New Salem games at {p} players"
        );
    }
}

/// Data cards (`--cards`): games whose kingdom holds ten data cards — an
/// Attack, a Reaction, trashers, a Throne Room, choose-one, a Treasure with
/// an on-gain effect, a may-question — bought and played by a strategy file,
/// allocate nothing: the programs are read in place.
#[test]
fn data_card_games_do_not_allocate() {
    use domsim::cards::data;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = data::load_files(&[
        root.join("cards/reprints.toml"),
        root.join("cards/examples.toml"),
    ])
    .unwrap();
    let names = [
        "Witch Data",
        "Moat Data",
        "Chapel Data",
        "Throne Room Data",
        "Steward Data",
        "Library Data",
        "Tally Stick",
        "Mining Village Data",
        "Remodel Data",
        "Gardens Data",
    ];
    let chosen: Vec<_> = names
        .iter()
        .map(|n| all.iter().find(|c| c.name == *n).unwrap().clone())
        .collect();
    let _binding = data::bind(&chosen).unwrap();
    let k = Kingdom::from_names(2, &names).unwrap();
    let text = "name: data buyer\n\
        buy:\n    Province if total_money >= 16\n    Gold\n    Witch Data if count(Witch Data) < 1\n    \
        Throne Room Data if count(Throne Room Data) < 1\n    Chapel Data if count(Chapel Data) < 1\n    \
        Steward Data if count(Steward Data) < 1\n    Library Data if count(Library Data) < 1\n    \
        Mining Village Data if count(Mining Village Data) < 1\n    Remodel Data if count(Remodel Data) < 1\n    \
        Moat Data if count(Moat Data) < 1\n    Tally Stick if count(Tally Stick) < 1\n    Gardens Data if count(Gardens Data) < 1\n    Silver\n\
        trash:\n    Curse\n    Estate\n    Copper if total_money > 6\n";
    let c = domsim::strategy::parse(text, "data.dom")
        .unwrap()
        .compile(&k)
        .unwrap()
        .0;
    let seats = [&c, &c];
    let mut played = [0u32; 2];
    let n = allocations_in_games(
        &k,
        500,
        |_| domsim::strategy::StrategyBots::new(&seats),
        |_| (),
    );
    assert_eq!(n, 0, "{n} allocations in data-card games");
    // The cards were really bought: one more game, then the decks.
    let mut g = domsim::engine::Game::new(&k, 42, 7);
    let o = g.play_game(&mut domsim::strategy::StrategyBots::new(&seats));
    assert!(!o.capped);
    for (i, n) in ["Witch Data", "Throne Room Data"].iter().enumerate() {
        let card = domsim::Card::from_name(n).unwrap();
        played[i] = (0..2).map(|p| g.players[p].owns(card) as u32).sum();
    }
    assert!(played.iter().all(|&x| x > 0), "{played:?}");
}
