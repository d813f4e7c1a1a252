//! The kingdom of a run and how it was chosen: [`KingdomSpec`] (what the
//! user asked for — a preset, a card list with `--fill`, a random kingdom,
//! Shelters — as the command line's `--kingdom`/`--preset`/`--random`
//! options and the web page's requests both give it), resolved into a
//! [`KingdomConfig`] with every check and its message; [`KingdomList`], the
//! kingdoms of a run over many kingdoms (`sweep`, `rank`), and
//! [`kingdom_seed`], the seed of kingdom k of such a run.

use crate::dominion::lineup::Lineup;
use crate::dominion::presets::Preset;
use crate::engine::Kingdom;
use anyhow::{anyhow, bail, Result};
use std::path::Path;

/// For a name no card set has: where a data card of that name may be
/// (`--cards FILE`, and the card files of the shipped `cards/` folder that
/// define it); empty for another error.
pub fn data_card_hint(name: &str, e: &crate::engine::kingdom::SetupError) -> String {
    if !matches!(e, crate::engine::kingdom::SetupError::UnknownCard { .. }) {
        return String::new();
    }
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = key(name);
    let mut files: Vec<String> = crate::output::shipped_folder("cards")
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .filter(|p| {
            let Ok(text) = crate::output::read_capped(p, 1 << 20) else {
                return false;
            };
            let text = String::from_utf8_lossy(&text);
            crate::cards::data::parse_cards(&p.display().to_string(), &text)
                .is_ok_and(|cs| cs.iter().any(|c| key(&c.name) == want))
        })
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    match files.len() {
        0 => "; it is in no card set: if it is a data card, load its card file with --cards FILE (docs/DESIGNING_CARDS.md)".to_string(),
        _ => format!(
            "; it is in no card set: a data card of that name is defined in {}: load it with --cards {}",
            files.join(", "),
            files[0]
        ),
    }
}

/// How the kingdom is chosen (the fields of the command line's kingdom
/// options; `Default` is the default preset with Shelters by the rule).
#[derive(Debug, Clone, Default)]
pub struct KingdomSpec {
    /// `--kingdom`: Kingdom cards, comma-separated.
    pub kingdom: Option<String>,
    /// `--fill`: complete a short `kingdom` list with random cards.
    pub fill: bool,
    /// `--preset`: a recommended kingdom by name.
    pub preset: Option<String>,
    /// `--random`: 10 random Kingdom cards from `sets`.
    pub random: bool,
    /// `--sets` of `random` and `fill` (None: base).
    pub sets: Option<String>,
    /// `--kingdom-seed` (None: the run seed).
    pub kingdom_seed: Option<u64>,
    /// Whether an unknown card's message may name `--cards` (the command
    /// line: [`data_card_hint`]; not the workbench's API).
    pub cards_hint: bool,
    /// `--shelters`: `auto` (or empty), `on` or `off`.
    pub shelters: String,
}

impl KingdomSpec {
    /// The card sets of --random and --fill (`base` when not given).
    pub fn sets(&self) -> &str {
        self.sets.as_deref().unwrap_or("base")
    }
}

/// A kingdom and how it was chosen (for the metadata and the console).
#[derive(Debug, Clone)]
pub struct KingdomConfig {
    pub kingdom: Kingdom,
    pub how: String,
}

/// The preset used when no kingdom is given.
pub const DEFAULT_PRESET: &str = "First Game";

impl KingdomConfig {
    /// The kingdom of a run for `players`. `strategies` are the run's
    /// strategy specs: a `--fill` never draws a card one of them may buy or
    /// gain. `seed` is the run seed (the default `--kingdom-seed`).
    pub fn from_spec(
        a: &KingdomSpec,
        players: usize,
        seed: u64,
        strategies: &[String],
    ) -> Result<KingdomConfig> {
        let mut kc = Self::cards(a, players, seed, strategies)?;
        if let Some(on) = shelters(&a.shelters) {
            kc.kingdom = kc.kingdom.with_shelters(Some(on));
            kc.how.push_str(shelters_forced(on));
        }
        Ok(kc)
    }

    fn cards(
        a: &KingdomSpec,
        players: usize,
        seed: u64,
        strategies: &[String],
    ) -> Result<KingdomConfig> {
        if a.kingdom_seed.is_some() && !a.random && !a.fill {
            bail!("--kingdom-seed goes with --random or --fill");
        }
        // Options of a drawn kingdom with a kingdom that draws nothing: they
        // would be ignored, and the user think he played another kingdom.
        if a.fill && a.kingdom.is_none() {
            let with = if a.random { "--random" } else { "--preset" };
            bail!("--fill completes a --kingdom list of fewer than 10 cards; it does not go with {with}");
        }
        if let Some(s) = &a.sets {
            if !a.random && !a.fill {
                bail!("--sets {s} goes with --random or --fill (the sets random cards are drawn from); this kingdom draws no card");
            }
        }
        if let Some(list) = &a.kingdom {
            let names: Vec<&str> = list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            let mut cards = names
                .iter()
                .map(|n| crate::engine::kingdom::parse_card(n).map_err(|e| (n, e)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|(n, e)| {
                    let hint = if a.cards_hint {
                        data_card_hint(n, &e)
                    } else {
                        String::new()
                    };
                    anyhow!("--kingdom: {e}{hint}")
                })?;
            if cards.len() > 10 {
                bail!(
                    "--kingdom: a kingdom has at most 10 piles; {} were given",
                    cards.len()
                );
            }
            let given = cards.len();
            if given == 0 && !a.fill {
                bail!("--kingdom '{list}' names no card: give Kingdom cards separated by commas (e.g. --kingdom \"Smithy,Village\"), or --preset NAME or --random");
            }
            let mut how = "list".to_string();
            if a.fill && given < 10 {
                let sets = Kingdom::parse_sets(a.sets()).map_err(|e| anyhow!("--sets: {e}"))?;
                let lineup = load_lineup(strategies)?;
                let ks = a.kingdom_seed.unwrap_or(seed);
                let fill = Kingdom::fill_cards(&cards, &sets, ks, |c| !lineup.may_gain(c))
                    .map_err(|e| anyhow!("--fill: {e}"))?;
                how = format!(
                    "list of {given}, filled with {} by --fill sets={} kingdom_seed={ks}",
                    fill.iter().map(|c| c.name()).collect::<Vec<_>>().join(";"),
                    a.sets()
                );
                cards.extend(fill);
            } else if given < 10 {
                how = format!(
                    "partial list: {given} of 10 piles, so a three-pile ending is less likely than in a real game; --fill completes it"
                );
            }
            let k = Kingdom::with_piles(players, &cards).map_err(|e| anyhow!("--kingdom: {e}"))?;
            return Ok(KingdomConfig { kingdom: k, how });
        }
        if a.random {
            let sets = Kingdom::parse_sets(a.sets()).map_err(|e| anyhow!("--sets: {e}"))?;
            if sets.is_empty() {
                bail!("--sets: no card set given");
            }
            let ks = a.kingdom_seed.unwrap_or(seed);
            let k = Kingdom::random(players, &sets, ks).map_err(|e| anyhow!("--random: {e}"))?;
            return Ok(KingdomConfig {
                kingdom: k,
                how: format!("random sets={} kingdom_seed={ks}", a.sets()),
            });
        }
        let name = a.preset.as_deref().unwrap_or(DEFAULT_PRESET);
        let p = Preset::find(name).map_err(|e| anyhow!("--preset: {e}"))?;
        let k = p.kingdom(players).map_err(|e| anyhow!("--preset: {e}"))?;
        Ok(KingdomConfig {
            kingdom: k,
            how: format!("preset {}", p.name),
        })
    }

    /// The kingdom options that give this kingdom again (for a replay command).
    pub fn flags(&self) -> String {
        // Quoted for a POSIX shell: a data card's name may hold a quote.
        let mut f = format!(
            "--kingdom {}",
            crate::output::shell_word(&self.kingdom.describe())
        );
        match self.kingdom.shelters {
            Some(true) => f.push_str(" --shelters on"),
            Some(false) => f.push_str(" --shelters off"),
            None => {}
        }
        f
    }
}

/// How a run's kingdom description records `--shelters on|off`.
pub fn shelters_forced(on: bool) -> &'static str {
    if on {
        "; Shelters forced on"
    } else {
        "; Shelters forced off"
    }
}

/// `--shelters auto|on|off` as the kingdom's setting (None: the rule decides).
pub fn shelters(s: &str) -> Option<bool> {
    match s {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// The kingdoms of a run over many kingdoms (`sweep`, `rank`): `--random N`
/// (kingdom k drawn from (seed, k)) or a kingdoms file, and how they were
/// chosen.
#[derive(Debug, Clone)]
pub struct KingdomList {
    pub kingdoms: Vec<Kingdom>,
    pub how: String,
}

impl KingdomList {
    /// The kingdoms of `--random N` (kingdom k drawn from (seed, k)) or of a
    /// kingdoms file (one per line, comma-separated cards, `#` comments),
    /// for `players`.
    /// `random_opt` names the count's option in messages (`--random` for
    /// sweep, `--random-kingdoms` for rank).
    pub fn from_args(
        (random, random_opt): (Option<u64>, &str),
        sets: &str,
        file: Option<&Path>,
        seed: u64,
        players: usize,
    ) -> Result<KingdomList> {
        if let Some(path) = file {
            let text = crate::output::read_input(path, "kingdoms file")?;
            let mut ks = Vec::new();
            for (n, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                // Commas, or the "; " a sweep CSV writes its kingdoms with.
                let names: Vec<&str> = line
                    .split([',', ';'])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect();
                let k = Kingdom::from_names(players, &names)
                    .map_err(|e| anyhow!("{}:{}: {e}", path.display(), n + 1))?;
                ks.push(k);
            }
            if ks.is_empty() {
                bail!("{}: no kingdom in the file", path.display());
            }
            // The contents, not only the path: shards or a checkpoint of
            // an edited file belong to another run.
            return Ok(KingdomList {
                how: format!(
                    "file {} ({} kingdoms, contents {})",
                    path.display(),
                    ks.len(),
                    crate::digest::hex(text.as_bytes())
                ),
                kingdoms: ks,
            });
        }
        let n = random.ok_or_else(|| anyhow!("give {random_opt} N or --kingdoms FILE"))?;
        if n > 10_000_000 {
            bail!("{random_opt} {n}: at most 10000000 kingdoms");
        }
        let sets_v = Kingdom::parse_sets(sets).map_err(|e| anyhow!("--sets: {e}"))?;
        if sets_v.is_empty() {
            bail!("--sets: no card set given");
        }
        let ks = (0..n)
            .map(|k| Kingdom::random(players, &sets_v, kingdom_seed(seed, k)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow!("{random_opt}: {e}"))?;
        Ok(KingdomList {
            kingdoms: ks,
            how: format!("{RANDOM_SETS}{sets} count={n}"),
        })
    }

    /// The card sets of a `--random N` list from its description (`how`,
    /// as written above and kept in run keys); None for a kingdoms file.
    pub fn random_sets(how: &str) -> Option<&str> {
        let rest = how.strip_prefix(RANDOM_SETS)?;
        let (sets, count) = rest.split_once(' ')?;
        // One random kingdom (`random sets=S kingdom_seed=K`, see
        // KingdomConfig) is not a list: its seed is K itself.
        count.strip_prefix("count=")?;
        Some(sets)
    }
}

/// How a `--random N` list's description starts.
const RANDOM_SETS: &str = "random sets=";

/// The seed of kingdom `k` of a run over many kingdoms (its cards and its
/// games).
pub fn kingdom_seed(seed: u64, k: u64) -> u64 {
    // SplitMix64 of (seed, k): distinct, well-mixed seeds per kingdom.
    let mut z = seed
        ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// [`Lineup::load`], with a "did you mean" for a strategy file that does
/// not exist when a file of the same folder has a close name.
pub fn load_lineup(specs: &[String]) -> Result<Lineup> {
    for spec in specs {
        if let Some(near) = near_strategy_file(spec) {
            bail!("strategy file '{spec}' does not exist (did you mean '{near}'?)");
        }
    }
    Lineup::load(specs)
}

/// For a strategy file `spec` that does not exist, the `.dom` file of its
/// folder whose name is closest to it, if close enough to be a typo.
fn near_strategy_file(spec: &str) -> Option<String> {
    let path = Path::new(spec);
    // symlink_metadata: a link to a missing file is there (its own error
    // says so), not a typo for itself.
    if spec.starts_with("builtin:") || path.symlink_metadata().is_ok() {
        return None;
    }
    let name = path.file_name()?.to_str()?.to_lowercase();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (d, near) = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".dom"))
        .map(|f| (crate::cards::edit_distance(&name, &f.to_lowercase()), f))
        .min()?;
    (d <= 1 + name.chars().count() / 4).then(|| dir.join(near).display().to_string())
}
