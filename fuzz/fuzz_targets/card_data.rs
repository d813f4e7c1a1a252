//! Dominion card files (`--cards`, docs/DESIGNING_CARDS.md): the input is a
//! card file. Parsing must never panic and every error must name the file;
//! whatever loads (up to 10 cards) is bound, put in a kingdom (filled with
//! base cards) and played by a bot that buys and plays every data card, a
//! few games, with the engine's invariants checked after each.
#![no_main]

use domsim::cards::data;
use domsim::engine::Kingdom;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let cards = match data::parse_cards("fuzz.toml", text) {
        Ok(c) => c,
        Err(e) => {
            assert!(format!("{e:#}").starts_with("fuzz.toml"), "{e:#}");
            return;
        }
    };
    if cards.is_empty() || cards.len() > 10 {
        return;
    }
    // Names must be unique for a binding (load_files checks it across files).
    let mut names: Vec<String> = cards.iter().map(|c| domsim::cards::normalize(&c.name)).collect();
    names.sort();
    names.dedup();
    if names.len() != cards.len() {
        return;
    }
    let Ok(binding) = data::bind(&cards) else {
        return;
    };
    let mut kingdom: Vec<String> = cards.iter().map(|c| c.name.clone()).collect();
    for filler in ["Village", "Smithy", "Militia", "Moat", "Cellar", "Chapel", "Market", "Mine", "Witch", "Festival"] {
        if kingdom.len() < 10 {
            kingdom.push(filler.to_string());
        }
    }
    let Ok(k) = Kingdom::from_names(2, &kingdom) else {
        return;
    };
    let mut text = String::from("name: fuzz\nbuy:\n    Province if total_money >= 16\n");
    for c in binding.cards() {
        text.push_str(&format!("    {} if count({}) < 2\n", c.name(), c.name()));
    }
    text.push_str("    Gold\n    Silver\ntrash:\n    Curse\n    Estate\n");
    let Ok(st) = domsim::strategy::parse(&text, "fuzz.dom") else {
        return;
    };
    let Ok((compiled, _)) = st.compile(&k) else {
        return;
    };
    let seats = [&compiled, &compiled];
    for i in 0..3 {
        let mut g = domsim::engine::Game::new(&k, 1, i);
        let mut bots = domsim::strategy::StrategyBots::new(&seats);
        let o = g.play_game(&mut bots);
        let _ = o;
        if let Err(e) = g.check_invariants() {
            panic!("invariant broken: {e}");
        }
    }
});
