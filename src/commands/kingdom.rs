//! `domsim kingdom`: print a kingdom without playing.

use super::common::{kingdom_config, parse_seed, KingdomArgs};
use crate::dominion::kingdoms::KingdomConfig;
use crate::outln;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("seeded").args(["random", "fill"]).multiple(true))]
pub struct KingdomCmdArgs {
    #[command(flatten)]
    pub kingdom: KingdomArgs,
    /// Players (pile sizes depend on it).
    #[arg(long, short = 'p', default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// Seed of a random kingdom or of the --fill cards (same as
    /// --kingdom-seed); only with --random or --fill.
    #[arg(long, default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true, requires = "seeded")]
    pub seed: u64,
}

fn cmd_kingdom(kc: &KingdomConfig) -> Result<ExitCode> {
    let k = &kc.kingdom;
    let players = k.n();
    outln!("{}", k.describe());
    outln!("# {players} players, kingdom ({})", kc.how);
    for c in k.kingdom_cards() {
        let i = c.info();
        let mut types: Vec<&str> = crate::Types::NAMES
            .iter()
            .filter(|(_, t)| i.types.has(*t))
            .map(|(n, _)| *n)
            .collect();
        if i.types.has(crate::Types::PILE) {
            // The pile pseudo-cards: what the pile's cards are.
            types = if c == crate::Card::Knights {
                vec!["Action", "Attack", "Knight (10 different)"]
            } else {
                vec!["Action", "Ruins"]
            };
        }
        outln!(
            "#   {:<20} ${:<2} {:<22} {}",
            c.name(),
            i.cost,
            types.join("-"),
            i.set.name()
        );
    }
    let extra: Vec<&str> = k
        .supply_piles()
        .iter()
        .filter(|c| !k.kingdom.contains(**c) && !crate::engine::kingdom::BASIC.contains(c))
        .map(|c| c.name())
        .collect();
    if !extra.is_empty() {
        outln!("# other Supply piles: {}", extra.join(", "));
    }
    let aside: Vec<&str> = k
        .in_game
        .iter()
        .filter(|c| {
            !k.supply.contains(*c)
                && !c.is(crate::Types::SHELTER)
                && !c.is(crate::Types::PILE)
                && !c.is(crate::Types::RUINS)
                && !c.is(crate::Types::KNIGHT)
        })
        .map(|c| c.name())
        .collect();
    if !aside.is_empty() {
        outln!("# piles not in the Supply: {}", aside.join(", "));
    }
    let da = k
        .kingdom_cards()
        .iter()
        .filter(|c| c.info().set == crate::cards::Set::DarkAges)
        .count();
    let n = k.kingdom_cards().len().max(1);
    let shelters = match k.shelters {
        Some(true) => "used in every game (--shelters on)".to_string(),
        Some(false) => "never used (--shelters off)".to_string(),
        None if da == 0 => "not used (no Dark Ages pile)".to_string(),
        None if da == n => "used in every game (every pile is Dark Ages)".to_string(),
        None => format!(
            "used in a game when a Kingdom pile drawn at random is Dark Ages: {da} of {n} piles, so in {:.0}% of the games",
            100.0 * da as f64 / n as f64
        ),
    };
    outln!("# Shelters: {shelters}");
    Ok(ExitCode::SUCCESS)
}

/// `domsim kingdom`: resolve the kingdom, then print it.
pub fn run(a: &KingdomCmdArgs) -> Result<ExitCode> {
    cmd_kingdom(&kingdom_config(
        &a.kingdom,
        a.players as usize,
        a.seed,
        &[],
    )?)
}
