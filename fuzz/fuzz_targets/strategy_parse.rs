//! The strategy parser (and compiler) must never panic, and every error must
//! carry a position and a message.
#![no_main]

use domsim::engine::Kingdom;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A file name in a directory without strategy files: `extends` fails
    // with a positioned error instead of reading the disk at random.
    match domsim::strategy::parse(text, "/nonexistent/fuzz.dom") {
        Ok(st) => {
            let k = Kingdom::random(3, &domsim::soak::implemented_sets(), 1).unwrap();
            if let Err(e) = st.compile(&k) {
                assert!(!e.msg.is_empty());
                let _ = e.to_string();
            }
        }
        Err(e) => {
            assert!(!e.msg.is_empty(), "error without a message");
            assert!(e.line > 0 && e.col > 0, "error without a position: {e:?}");
            let _ = e.to_string();
        }
    }
});
