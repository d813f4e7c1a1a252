//! The statistics JSON that `domsim report` reads: loading arbitrary text
//! must never panic, and whatever loads (it passed the invariant checks)
//! must render as HTML and CSV without panic.
#![no_main]

use domsim::stats::{self, html};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(st) = stats::parse_json(text) {
        let page = html::render_html(&st, &html::ReportOptions::default());
        assert!(page.contains("</html>"));
        let mut csv = Vec::new();
        stats::csv::write_csv_to(&mut csv, &st).expect("CSV into memory");
    }
});
