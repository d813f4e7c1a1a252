//! `domsim log`: play one game of a run and print it turn by turn.

use super::common::{
    kingdom_config, parse_game_index, parse_seed, seat_specs, KingdomArgs, LineupConfig,
    PlayersArg, StrategyArgs,
};
use crate::dominion::kingdoms::KingdomConfig;
use crate::dominion::outputs::game_log;
use crate::out;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

/// `domsim log`'s raw arguments (validated into [`LogConfig`]).
#[derive(Args, Debug, Clone)]
pub struct LogArgs {
    #[command(flatten)]
    pub strategies: StrategyArgs,
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    #[command(flatten)]
    pub players: PlayersArg,
    /// Run seed.
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Which game of the run to play (same deal and seat order as game
    /// GAME of `domsim sim` with the same seed and strategies).
    #[arg(long, default_value_t = 0, value_parser = parse_game_index, allow_negative_numbers = true)]
    pub game: u64,
    /// For every answer (a card choice: buy, gain, play, trash…; a yes/no;
    /// a "choose one"), say which entry or option of the strategy file
    /// decided it (file:line:col) or which default applied.
    #[arg(long)]
    pub explain: bool,
}

fn cmd_log(c: LogConfig) -> Result<ExitCode> {
    let (k, compiled) = c.lineup.compile_for(&c.kingdom.kingdom)?;
    out!(
        "{}",
        game_log(
            &c.lineup.lineup,
            &compiled,
            &c.kingdom,
            &k,
            c.seed,
            c.game,
            c.explain
        )
    );
    Ok(ExitCode::SUCCESS)
}

/// `domsim log`, validated.
#[derive(Debug)]
pub struct LogConfig {
    pub seed: u64,
    /// Which game of the run.
    pub game: u64,
    pub explain: bool,
    pub kingdom: KingdomConfig,
    /// One spec per seat.
    pub lineup: LineupConfig,
}

impl LogConfig {
    pub fn from_args(a: &LogArgs) -> Result<LogConfig> {
        let (specs, players) = seat_specs(&a.strategies.all(), a.players.players)?;
        let kingdom = kingdom_config(&a.kingdom, players, a.seed, &specs)?;
        let lineup = a.strategies.load(specs)?;
        Ok(LogConfig {
            seed: a.seed,
            game: a.game,
            explain: a.explain,
            kingdom,
            lineup,
        })
    }
}

/// `domsim log`: validate the arguments, then run.
pub fn run(a: &LogArgs) -> Result<ExitCode> {
    cmd_log(LogConfig::from_args(a)?)
}
