//! The `domsim` command line. `main` maps errors to exit codes: 0 success,
//! 1 a check that ran and failed (scenario expectation), 2 bad input.

use std::process::ExitCode;

fn main() -> ExitCode {
    match domsim::cli::run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
