//! New Salem's card data and bot files. The input is cut at the first three
//! `\n%%\n` separators into rules.toml, buildings.csv, events.toml and
//! characters.toml (missing parts take the SAMPLE file), and what follows a
//! fourth separator is a bot file. Loading must never panic and every error
//! must name its file; whatever loads must play games to the end with the
//! engine's invariants intact.
#![no_main]

use domsim::new_salem::data::{self, Data};
use domsim::new_salem::{bot, engine, sim::SalemMatch};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let mut parts = text.splitn(5, "\n%%\n");
    let defaults = [
        data::SAMPLE_RULES,
        data::SAMPLE_BUILDINGS,
        data::SAMPLE_EVENTS,
        data::SAMPLE_CHARACTERS,
    ];
    let files: Vec<&str> = defaults.iter().map(|d| parts.next().unwrap_or(d)).collect();
    let bot_text = parts.next();
    let d = match Data::parse(
        [
            ("rules.toml", files[0]),
            ("buildings.csv", files[1]),
            ("events.toml", files[2]),
            ("characters.toml", files[3]),
        ],
        "fuzz",
    ) {
        Ok(d) => d,
        Err(e) => {
            let m = e.to_string();
            assert!(data::FILES.iter().any(|f| m.contains(f)), "error without a file: {m}");
            return;
        }
    };
    let mut bots = bot::shipped(&d).unwrap_or_default();
    if let Some(t) = bot_text {
        match bot::compile("fuzz.salem", t, &d) {
            Ok(b) => bots.push(b),
            Err(e) => assert!(e.to_string().starts_with("fuzz.salem")),
        }
    }
    if bots.is_empty() {
        return;
    }
    for &p in &d.rules.player_counts {
        let t = engine::Table::new(&d, p).expect("a validated player count");
        let m = SalemMatch { table: &t, bots: &bots };
        let mut g = engine::Game::new();
        for i in 0..3 {
            let seats = m.setup(&mut g, 1, i);
            g.play(&t, &mut m.seated(&seats), &mut engine::NoLog);
        }
    }
});
