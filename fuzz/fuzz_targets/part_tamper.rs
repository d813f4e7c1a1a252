//! Partial files and checkpoints, damaged: loading arbitrary text (in
//! practice, libFuzzer's mutations of real parts and checkpoints from the
//! corpus) must never panic, and whatever loads carries a digest that
//! matches its content — so a mutation is either refused ("damaged or
//! edited") or changes nothing that `merge` or a resume would use.
#![no_main]

use domsim::sim::checkpoint::Checkpoint;
use domsim::sim::shard::{content_digest, Partial};
use domsim::dominion::matches::Stats;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = Partial::from_json(text) {
        // Accepted: written again, it reads back as the very same part.
        let again = p.to_json().expect("a part serializes");
        let back = Partial::from_json(std::str::from_utf8(&again).unwrap()).expect("round trip");
        assert_eq!(back, p);
        assert!(content_digest(&p).is_ok());
    }
    if let Ok(c) = Checkpoint::parse(text, Stats::default()) {
        let back = Checkpoint::parse(&c.to_text(), Stats::default()).expect("round trip");
        assert_eq!(back, c);
    }
});
