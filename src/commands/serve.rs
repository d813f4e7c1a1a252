//! `domsim serve`: the arguments of the strategy workbench; the server
//! itself is [`crate::serve`].

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. The default answers this machine only;
    /// another address lets anyone who can reach it run games here.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// The folder of strategy files the page offers (a typed strategy's
    /// `extends:` is looked for there, then along the strategy search path,
    /// and may read no other folder); default: strategies/ here, else the
    /// strategies/ of the source tree this binary was built from (the
    /// first line printed names the folder).
    #[arg(long, value_name = "DIR")]
    pub strategies: Option<PathBuf>,
    /// The global `--cards` files (set by `commands::run`): the page's card
    /// editor starts with their cards.
    #[arg(skip)]
    pub cards: Vec<PathBuf>,
    /// The global `--cards-only`.
    #[arg(skip)]
    pub cards_only: Option<String>,
}

/// `domsim serve`.
pub fn run(a: &ServeArgs) -> Result<ExitCode> {
    crate::serve::run(&crate::serve::ServeConfig {
        port: a.port,
        bind: a.bind,
        open: a.open,
        strategies: a.strategies.clone(),
        cards: a.cards.clone(),
        cards_only: a.cards_only.clone(),
    })
}
