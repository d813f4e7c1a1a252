//! The scenario notation: parse and run must never panic; every error has a
//! position and a message; a parsed state prints (`to_text`) and re-parses
//! to the same state.
#![no_main]

use domsim::scenario::{state_json, to_text, Scenario};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let sc = match Scenario::parse(text) {
        Ok(sc) => sc,
        Err(e) => {
            assert!(!e.msg.is_empty() && e.line > 0 && e.col > 0, "{e:?}");
            return;
        }
    };
    let printed = to_text(&sc.game);
    let again = Scenario::parse(&printed).expect("printed state parses");
    assert_eq!(state_json(&sc.game, &[]), state_json(&again.game, &[]));
    if let Err(e) = sc.run() {
        assert!(!e.msg.is_empty() && e.line > 0 && e.col > 0, "{e:?}");
    }
});
