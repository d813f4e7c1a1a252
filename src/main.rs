//! The `domsim` command line. `main` maps errors to exit codes: 0 success,
//! 1 a check that ran and failed (scenario expectation), 2 bad input.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match domsim::commands::run() {
        Ok(code) => code,
        Err(e) => {
            // Not eprintln!: a failing standard error must not turn the
            // exit status 2 into a panic's.
            let msg = format!("{e:#}");
            let _ = writeln!(
                std::io::stderr(),
                "error: {}",
                domsim::output::shorten(&msg)
            );
            ExitCode::from(2)
        }
    }
}
