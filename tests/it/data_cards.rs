//! Cards from data files (`--cards`, `domsim cards`, `domsim compare`):
//! a scenario for every primitive of the vocabulary (tests/data_cards/),
//! data cards under Throne Room, Band of Misfits, Procession and
//! Masquerade, the reprints against the printed cards, bad card files, and
//! the A/B comparison.

use domsim::cards::data::{self, DataCard};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every card a data-card scenario may name: the shipped reprints and
/// examples, and the test cards.
fn all_cards() -> Vec<DataCard> {
    let mut v = data::load_files(&[
        root().join("cards/reprints.toml"),
        root().join("cards/examples.toml"),
        root().join("tests/data_cards/cards.toml"),
    ])
    .unwrap();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

/// Run `tests/data_cards/NAME` with the cards of its `# cards:` line bound.
fn run_file(name: &str) {
    let path = root().join("tests/data_cards").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let first = text.lines().next().unwrap_or("");
    let wanted: Vec<&str> = first
        .strip_prefix("# cards:")
        .unwrap_or_else(|| panic!("{name}: the first line must be `# cards: A, B`"))
        .split(',')
        .map(str::trim)
        .collect();
    let all = all_cards();
    let chosen: Vec<DataCard> = wanted
        .iter()
        .map(|w| {
            all.iter()
                .find(|c| c.name == *w)
                .unwrap_or_else(|| panic!("{name}: no data card '{w}'"))
                .clone()
        })
        .collect();
    let _binding = data::bind(&chosen).unwrap();
    super::scenarios::check_scenario(name, &text);
}

macro_rules! scenarios {
    ($($test:ident => $file:literal,)*) => {
        $( #[test] fn $test() { run_file($file); } )*

        /// Every scenario file of tests/data_cards/ is listed above.
        #[test]
        fn every_data_card_scenario_is_listed() {
            let listed: &[&str] = &[$($file),*];
            for e in std::fs::read_dir(root().join("tests/data_cards")).unwrap() {
                let name = e.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".txt") {
                    assert!(listed.contains(&name.as_str()), "{name} is not listed in tests/it/data_cards.rs");
                }
            }
        }
    };
}

scenarios! {
    plus_and_choose_steward_cards => "primitive_plus_and_choose_steward_cards.txt",
    choose_steward_trash_exactly => "primitive_choose_steward_trash_exactly.txt",
    choose_pick_two_pawn => "primitive_choose_pick_two_pawn.txt",
    gain_up_to_workshop => "primitive_gain_up_to_workshop.txt",
    gain_exactly_to_hand => "primitive_gain_exactly_to_hand.txt",
    gain_card_to_deck_and_others_topdeck => "primitive_gain_card_to_deck_and_others_topdeck.txt",
    trash_card_then_bonus => "primitive_trash_card_then_bonus.txt",
    trash_card_missing => "primitive_trash_card_missing.txt",
    trash_up_to_chapel => "primitive_trash_up_to_chapel.txt",
    trash_exactly_each_bonus => "primitive_trash_exactly_each_bonus.txt",
    improve_remodel => "primitive_improve_remodel.txt",
    improve_mine_to_hand => "primitive_improve_mine_to_hand.txt",
    improve_exactly_upgrade => "primitive_improve_exactly_upgrade.txt",
    improve_exactly_refused => "primitive_improve_exactly_refused.txt",
    trash_self_feast => "primitive_trash_self_feast.txt",
    discard_for_cellar => "primitive_discard_for_cellar.txt",
    discard_for_coins_up_to => "primitive_discard_for_coins_up_to.txt",
    draw_until => "primitive_draw_until.txt",
    reveal_until_treasures => "primitive_reveal_until_treasures.txt",
    reveal_top_take => "primitive_reveal_top_take.txt",
    others_draw => "primitive_others_draw.txt",
    others_gain_and_reaction_block => "primitive_others_gain_and_reaction_block.txt",
    others_discard_down_to => "primitive_others_discard_down_to.txt",
    others_trash_treasure_gain => "primitive_others_trash_treasure_gain.txt",
    cost_reduction => "primitive_cost_reduction.txt",
    copper_bonus => "primitive_copper_bonus.txt",
    vp_per => "primitive_vp_per.txt",
    vp_and_vp_per => "primitive_vp_and_vp_per.txt",
    treasure_on_gain => "primitive_treasure_on_gain.txt",
    throne_room_data_card => "rules_throne_room_data_card.txt",
    throne_room_data_feast => "rules_throne_room_data_feast.txt",
    band_of_misfits_data_card => "rules_band_of_misfits_data_card.txt",
    procession_data_card => "rules_procession_data_card.txt",
    masquerade_data_card => "rules_masquerade_data_card.txt",
    draw_until_set_aside => "primitive_draw_until_set_aside.txt",
    may_discard_deck => "primitive_may_discard_deck.txt",
    play_action_twice => "primitive_play_action_twice.txt",
    topdeck => "primitive_topdeck.txt",
    may_trash_self => "primitive_may_trash_self.txt",
    if_no_action_in_hand => "primitive_if_no_action_in_hand.txt",
    reveal_until_cost => "primitive_reveal_until_cost.txt",
    on_trash_gain => "primitive_on_trash_gain.txt",
    on_trash_choose => "primitive_on_trash_choose.txt",
    on_trash_gain_attack => "primitive_on_trash_gain_attack.txt",
}

// -------------------------------------------------------------------------
// The command line: bad card files, verify, compare, --cards.

use super::cli::{domsim, entries, scratch, stderr, stdout, COMPARE_POST_RIDER};

/// A card file with `text`, run with `sim --cards`: exit status 2, the
/// message (with `needle`) on standard error, no output file.
fn bad_card_file(name: &str, text: &str, needle: &str) {
    let d = scratch(name);
    let f = d.join("bad.toml");
    std::fs::write(&f, text).unwrap();
    let out = d.join("out.csv");
    let o = domsim(&[
        "sim",
        "--cards",
        f.to_str().unwrap(),
        "-n",
        "10",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{name}: {err}");
    assert!(
        err.contains(needle),
        "{name}: expected '{needle}' in: {err}"
    );
    assert!(!out.exists(), "{name}: an output was written");
    assert!(!err.contains("panicked"), "{name}: {err}");
}

#[test]
fn bad_card_files_name_the_file_line_and_field() {
    let card = |body: &str| {
        format!("[[card]]\nname = \"Test Card\"\ncost = 3\ntypes = [\"Action\"]\n{body}\n")
    };
    bad_card_file("syntax", "[[card]\nname = 1\n", "bad.toml:1:");
    bad_card_file("empty", "# nothing\n", "no [[card]] table");
    bad_card_file(
        "unknown field",
        &card("cardz = 2"),
        "bad.toml:5:9: unknown field 'cardz' (did you mean 'cards'?)",
    );
    bad_card_file(
        "unknown primitive",
        &card("effect = [{ do = \"gian\", up_to = 4 }]"),
        "unknown primitive 'gian' (did you mean 'gain'?)",
    );
    bad_card_file(
        "primitive field",
        &card("effect = [{ do = \"gain\", upto = 4 }]"),
        "'gain' has no field 'upto' (did you mean 'up_to'?)",
    );
    bad_card_file(
        "unknown card",
        &card("effect = [{ do = \"gain\", card = \"Silverr\" }]"),
        "unknown card 'Silverr' (did you mean 'Silver'?)",
    );
    bad_card_file(
        "unknown type",
        "[[card]]\nname = \"X\"\ncost = 3\ntypes = [\"Acton\"]\n",
        "bad.toml:4:9: field 'types': unknown type 'Acton' (did you mean 'Action'?)",
    );
    bad_card_file(
        "type twice",
        "[[card]]\nname = \"X\"\ncost = 3\ntypes = [\"Action\", \"action\"]\ncards = 1\n",
        "bad.toml:4:9: field 'types': type 'Action' given twice",
    );
    bad_card_file(
        "gain card with types",
        &card("effect = [{ do = \"gain\", card = \"Silver\", types = [\"Treasure\"] }]"),
        "'gain' takes `types` only with a cost",
    );
    bad_card_file(
        "printed name",
        "[[card]]\nname = \"Smithy\"\ncost = 3\ntypes = [\"Action\"]\n",
        "'Smithy' is the printed card Smithy",
    );
    bad_card_file(
        "parenthesis",
        "[[card]]\nname = \"Smithy (v2)\"\ncost = 3\ntypes = [\"Action\"]\n",
        "cannot be part of a card name",
    );
    bad_card_file(
        "attack without type",
        &card("effect = [{ do = \"others_gain\", card = \"Curse\" }]"),
        "needs the Attack type",
    );
    bad_card_file(
        "cost range",
        "[[card]]\nname = \"X\"\ncost = 99\ntypes = [\"Action\"]\n",
        "bad.toml:3:8: field 'cost': 99 is outside 0..=16",
    );
    bad_card_file(
        "twice",
        &format!("{}{}", card(""), card("")),
        "card 'Test Card' is defined twice",
    );
    bad_card_file(
        "missing",
        "[[card]]\nname = \"X\"\ntypes = [\"Action\"]\n",
        "[[card]] needs the field 'cost'",
    );
    bad_card_file(
        "reaction without block",
        "[[card]]\nname = \"X\"\ncost = 2\ntypes = [\"Action\", \"Reaction\"]\n",
        "a Reaction needs `reaction = \"block_attack\"`",
    );
    let many: String = (0..15)
        .map(|i| {
            format!("[[card]]\nname = \"Card {i}\"\ncost = 3\ntypes = [\"Action\"]\ncards = 1\n")
        })
        .collect();
    bad_card_file("fifteen", &many, "at most 14 can be loaded at once");
}

/// Every documented range of docs/DESIGNING_CARDS.md is enforced: a value
/// outside it is refused with the range, never clamped into it.
#[test]
fn values_outside_the_documented_ranges_are_refused() {
    let card = |types: &str, body: &str| {
        format!("[[card]]\nname = \"Test Card\"\ncost = 3\ntypes = [{types}]\n{body}\n")
    };
    let action = |body: &str| card("\"Action\"", body);
    bad_card_file(
        "pile 0",
        &action("pile = 0"),
        "bad.toml:5:8: field 'pile': 0 is outside 1..=60",
    );
    bad_card_file(
        "pile 61",
        &action("pile = 61"),
        "field 'pile': 61 is outside 1..=60",
    );
    bad_card_file(
        "vp_per 0",
        &card("\"Victory\"", "vp_per = { per = 0 }"),
        "field 'vp_per.per': 0 is outside 1..=100",
    );
    for (body, needle) in [
        ("{ do = \"play_action\", times = 0 }", "'times': 0 is outside 1..=4"),
        ("{ do = \"play_action\", times = 5 }", "'times': 5 is outside 1..=4"),
        (
            "{ do = \"reveal_until_treasures\", count = 0 }",
            "'count': 0 is outside 1..=10",
        ),
        (
            "{ do = \"discard_for\", up_to = 0, each = { cards = 1 } }",
            "'up_to': 0 is outside 1..=100",
        ),
        (
            "{ do = \"choose\", pick = 0, options = [[{ do = \"plus\", cards = 1 }], [{ do = \"plus\", coins = 1 }]] }",
            "'pick': 0 is outside 1..=2",
        ),
    ] {
        bad_card_file(body, &action(&format!("effect = [{body}]")), needle);
    }
    bad_card_file(
        "reveal 0",
        &card(
            "\"Action\", \"Attack\"",
            "effect = [{ do = \"others_trash_treasure\", reveal = 0 }]",
        ),
        "'reveal': 0 is outside 1..=5",
    );
}

#[test]
fn wrong_card_names_get_a_valid_suggestion() {
    // The suggested name must itself be a valid card name (no parentheses).
    bad_card_file(
        "printed name suggestion",
        "[[card]]\nname = \"Smithy\"\ncost = 3\ntypes = [\"Action\"]\n",
        "e.g. 'Smithy Data'",
    );
    // Knights is the name of a pile of ten different cards.
    let d = scratch("knights");
    let f = d.join("k.toml");
    std::fs::write(
        &f,
        "[[card]]\nname = \"Squire Data\"\ncost = 3\ntypes = [\"Action\"]\neffect = [{ do = \"gain\", card = \"Knights\" }]\n",
    )
    .unwrap();
    let o = domsim(&["cards", "list", f.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'Knights' is a pile of different cards, not one card"),
        "{err}"
    );
    assert!(!err.contains("did you mean 'Knights'"), "{err}");
}

#[test]
fn a_missing_card_file_and_cards_on_salem_exit_2() {
    let o = domsim(&["sim", "--cards", "/nonexistent/x.toml", "-n", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/x.toml"), "{}", stderr(&o));
    let o = domsim(&["cards", "verify", "--cards", "cards/reprints.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("takes its card files as arguments"));
}

#[test]
fn cards_verify_says_every_reprint_is_identical() {
    let o = domsim(&["cards", "verify", "-n", "300"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let last = out.lines().last().unwrap_or("");
    let (same, all) = last
        .strip_suffix(" identical")
        .and_then(|s| s.split_once('/'))
        .unwrap_or_else(|| panic!("last line: {last}"));
    assert_eq!(same, all, "{out}");
    assert!(all.parse::<usize>().unwrap() >= 15, "{out}");
}

/// A reprint that is not exact is caught: Smithy with +2 Cards.
#[test]
fn cards_verify_catches_a_wrong_reprint() {
    let d = scratch("wrong reprint");
    let f = d.join("wrong.toml");
    std::fs::write(
        &f,
        "[[card]]\nname = \"Smithy Two\"\nreprint_of = \"Smithy\"\ncost = 4\ntypes = [\"Action\"]\ncards = 2\n",
    )
    .unwrap();
    let o = domsim(&["cards", "verify", "-n", "200", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("0/1 identical"), "{}", stdout(&o));
}

/// A data card plays in `sim` like a printed card: named in --kingdom and
/// in a strategy file, and in the output's metadata.
#[test]
fn sim_with_a_data_card_in_kingdom_and_strategy() {
    let d = scratch("sim data card");
    let st = d.join("hex.dom");
    std::fs::write(
        &st,
        "name: Hex Peddler money\nbuy:\n    Province if total_money >= 16\n    Gold\n    Hex Peddler if count(Hex Peddler) < 2\n    Silver\n",
    )
    .unwrap();
    let out = d.join("out.csv");
    let o = domsim(&[
        "sim",
        "--cards",
        &root().join("cards/examples.toml").display().to_string(),
        "--kingdom",
        "Hex Peddler",
        "--fill",
        st.to_str().unwrap(),
        "builtin:big-money",
        "-n",
        "400",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.contains("Hex Peddler ($4, Action-Attack"), "{csv}");
    assert!(csv.contains("Hex Peddler money"), "{csv}");
    assert!(entries(&d).len() == 2, "{:?}", entries(&d));
}

/// compare: the same variant twice gives zero differences with zero-width
/// intervals (common random numbers); a real change shows up.
#[test]
fn compare_pairs_the_games() {
    let d = scratch("compare");
    let st = d.join("smithy.dom");
    std::fs::write(
        &st,
        "name: Smithy Data BM\nbuy:\n    Province if total_money >= 16\n    Gold\n    Smithy Data if count(Smithy Data) < 2\n    Silver\n",
    )
    .unwrap();
    let cards = d.join("s.toml");
    std::fs::write(
        &cards,
        "[[card]]\nname = \"Smithy Data\"\ncost = 4\ntypes = [\"Action\"]\ncards = 3\n",
    )
    .unwrap();
    let csv = d.join("c.csv");
    let html = d.join("c.html");
    let run = |bset: &str| {
        domsim(&[
            "compare",
            "--a",
            cards.to_str().unwrap(),
            "--b-set",
            bset,
            st.to_str().unwrap(),
            "builtin:big-money",
            "--kingdom",
            "Smithy Data",
            "--fill",
            "-n",
            "2000",
            "-o",
            csv.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ])
    };
    let o = run("Smithy Data:cost=4");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .collect();
    assert!(rows.len() >= 10, "{text}");
    for r in &rows {
        let f: Vec<&str> = r.split(',').collect();
        assert_eq!(&f[4..7], &["0.000000", "0.000000", "0.000000"], "{r}");
    }
    let o = run("Smithy Data:cards=1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let win = text
        .lines()
        .find(|l| l.starts_with("win_rate,Smithy Data BM,"))
        .unwrap();
    let f: Vec<f64> = win.split(',').skip(2).map(|x| x.parse().unwrap()).collect();
    assert!(f[3] < 0.0 && f[4] < 0.0, "a weaker Smithy wins less: {win}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<section id=\"compare\">") && page.contains("win_rate"));
    // Bad variant B: unknown field, unknown card.
    let o = run("Smithy Data:cots=5");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean 'cost'"), "{}", stderr(&o));
    let o = run("Smithy:cost=5");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no card 'Smithy'"), "{}", stderr(&o));
}

/// A data card's own strategy options (`Chapel Data trash:`): checked like
/// a printed card's, and they answer its questions over the general lists.
#[test]
fn data_card_options_in_strategy_files() {
    let d = scratch("data options");
    let reprints = root().join("cards/reprints.toml").display().to_string();
    let bot = |name: &str, extra: &str| {
        let f = d.join(name);
        std::fs::write(
            &f,
            format!("name: {name}\nbuy:\n    Province if total_money >= 16\n    Gold\n    Chapel Data if count(Chapel Data) < 1\n    Silver\n{extra}"),
        )
        .unwrap();
        f.display().to_string()
    };
    let typo = bot("typo.dom", "Chapel Data trsh:\n    Estate\n");
    let o = domsim(&[
        "check",
        &typo,
        "--cards",
        &reprints,
        "--cards-only",
        "Chapel Data",
        "--kingdom",
        "Chapel Data",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Chapel Data has no option 'trsh' (did you mean 'trash'?)"),
        "{}",
        stderr(&o)
    );
    // Without --cards-only, 41 cards are too many for the 14 slots.
    let o = domsim(&[
        "check",
        &typo,
        "--cards",
        &reprints,
        "--kingdom",
        "Chapel Data",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--cards-only"), "{}", stderr(&o));
    // The option decides: with a trash list the Chapel trashes, without one
    // (and no general `trash:` list) it trashes nothing, so the games differ.
    let run = |f: &str| {
        let out = d.join("o.csv");
        let o = domsim(&[
            "sim",
            f,
            "builtin:big-money",
            "--cards",
            &reprints,
            "--cards-only",
            "Chapel Data",
            "--kingdom",
            "Chapel Data",
            "--fill",
            "-n",
            "1000",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter(|l| l.contains(".dom,"))
            .map(|l| l.split(',').skip(3).take(5).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
    };
    let with = run(&bot(
        "with.dom",
        "Chapel Data trash:\n    Estate\n    Copper if total_money > 5\n",
    ));
    let without = run(&bot("without.dom", ""));
    assert_ne!(with, without);
}

/// `--cards` on the other verbs: `scenario` (a data card in the notation),
/// `log` (a game printed with the data card's name) and `matrix`.
#[test]
fn cards_option_on_scenario_log_and_matrix() {
    let d = scratch("other verbs");
    let cards = d.join("c.toml");
    std::fs::write(
        &cards,
        "[[card]]\nname = \"Smithy Data\"\ncost = 4\ntypes = [\"Action\"]\ncards = 3\n",
    )
    .unwrap();
    let c = cards.to_str().unwrap();
    let sc = d.join("s.txt");
    std::fs::write(
        &sc,
        "players: 2\nstrict: yes\nkingdom: Smithy Data\np0.hand: Smithy Data\np0.deck: Copper*3, Gold\ndo: play Smithy Data\nexpect p0.hand: Copper*3\nexpect p0.deck: Gold\n",
    )
    .unwrap();
    let o = domsim(&["scenario", "--cards", c, sc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // Without the card file the name is unknown: exit 2.
    let o = domsim(&["scenario", sc.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let st = d.join("b.dom");
    std::fs::write(
        &st,
        "name: SD\nbuy:\n    Province if total_money >= 16\n    Gold\n    Smithy Data if count(Smithy Data) < 2\n    Silver\n",
    )
    .unwrap();
    let s = st.to_str().unwrap();
    let o = domsim(&[
        "log",
        "--cards",
        c,
        s,
        "builtin:big-money",
        "--kingdom",
        "Smithy Data",
        "--fill",
        "--seed",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("plays Smithy Data"), "{}", stdout(&o));
    let out = d.join("m.csv");
    let o = domsim(&[
        "matrix",
        "--cards",
        c,
        s,
        "builtin:big-money",
        "--kingdom",
        "Smithy Data",
        "--fill",
        "-n",
        "200",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("data_cards: Smithy Data"));
}

/// Stable-Rust fuzzing of the card-file parser (the `card_data` cargo-fuzz
/// target is the long version): 2,000 mutations of the shipped card files —
/// bytes replaced, deleted, duplicated, lines swapped — never panic, and
/// every error names the file; whatever parses binds and plays a game.
#[test]
fn mutated_card_files_never_panic() {
    let seeds = [
        std::fs::read_to_string(root().join("cards/reprints.toml")).unwrap(),
        std::fs::read_to_string(root().join("cards/examples.toml")).unwrap(),
        std::fs::read_to_string(root().join("tests/data_cards/cards.toml")).unwrap(),
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    const BYTES: &[u8] = b"[]{}=\",.#\n 0123456789-_abcdoxyz\xc3\xa9";
    let mut loaded = 0;
    for i in 0..2000 {
        let mut b = seeds[i % seeds.len()].clone().into_bytes();
        for _ in 0..1 + next(4) {
            let p = next(b.len());
            match next(4) {
                0 => b[p] = BYTES[next(BYTES.len())],
                1 => {
                    b.remove(p);
                }
                2 => {
                    let q = (p + next(40)).min(b.len());
                    let chunk: Vec<u8> = b[p..q].to_vec();
                    b.splice(p..p, chunk);
                }
                _ => b.insert(p, BYTES[next(BYTES.len())]),
            }
        }
        let text = String::from_utf8_lossy(&b).into_owned();
        match data::parse_cards("m.toml", &text) {
            Err(e) => assert!(format!("{e:#}").starts_with("m.toml"), "{e:#}"),
            Ok(cards) => {
                loaded += 1;
                if i % 50 == 0 && !cards.is_empty() && cards.len() <= 10 {
                    let mut names: Vec<String> = cards
                        .iter()
                        .map(|c| domsim::cards::normalize(&c.name))
                        .collect();
                    names.sort();
                    names.dedup();
                    if names.len() == cards.len() {
                        let _b = data::bind(&cards).unwrap();
                        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
                        if let Ok(k) = domsim::engine::Kingdom::with_piles(
                            2,
                            &names
                                .iter()
                                .map(|n| domsim::Card::from_name(n).unwrap())
                                .collect::<Vec<_>>(),
                        ) {
                            let mut g = domsim::engine::Game::new(&k, 1, i as u64);
                            let o = g.play_game(&mut domsim::bots::RandomBots::new(i as u64, true));
                            let _ = o;
                            g.check_invariants().unwrap();
                        }
                    }
                }
            }
        }
    }
    assert!(
        loaded > 50,
        "only {loaded} mutated files loaded: the mutations are too destructive to test the rest"
    );
}

/// The safety rules' hypothetical score (`vp_if_gained`) equals the score
/// after really gaining, for a card with both `vp` and `vp_per` (its fixed
/// part was counted twice in both before the audit's fix).
#[test]
fn vp_if_gained_matches_the_score_after_the_gain() {
    use domsim::bots::BigMoney;
    use domsim::cards::Card;
    use domsim::engine::{Dest, Game, Kingdom};
    let manor: Vec<DataCard> = all_cards()
        .into_iter()
        .filter(|c| c.name == "Manor Estate")
        .collect();
    let _binding = data::bind(&manor).unwrap();
    let m = Card::from_name("Manor Estate").unwrap();
    let mut ten = vec![m];
    ten.extend(
        [
            "Village", "Smithy", "Market", "Moat", "Cellar", "Chapel", "Mine", "Festival",
            "Library",
        ]
        .iter()
        .map(|n| Card::from_name(n).unwrap()),
    );
    let k = Kingdom::new(2, &ten).unwrap();
    let mut g = Game::new(&k, 1, 0);
    let mut b = BigMoney;
    for gained in 0..8 {
        // 3 Estates, then 1 + floor(cards / 10) per Manor Estate.
        let cards = 10 + gained;
        assert_eq!(g.vp(0), 3 + gained * (1 + cards / 10), "{gained} gained");
        let predicted = g.vp_if_gained(0, m);
        assert!(g.gain(&mut b, 0, m, Dest::Discard));
        assert_eq!(g.vp(0), predicted, "after gaining number {}", gained + 1);
    }
}

// -------------------------------------------------------------------------
// compare --b: variant B plays with its own kingdom setup.

/// The `measure,bot,a,b,diff,…` row of a compare CSV, as numbers.
fn compare_row(csv: &str, measure: &str, bot: &str) -> Vec<f64> {
    let key = format!("{measure},{bot},");
    let line = csv
        .lines()
        .find(|l| l.starts_with(&key))
        .unwrap_or_else(|| panic!("no row {key} in:\n{csv}"));
    line[key.len()..]
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect()
}

/// Run `compare --a A --b B STRATEGY BMU --kingdom CARD -n N -o c.csv`:
/// the CSV and standard error.
fn compare_files(
    d: &std::path::Path,
    a: &str,
    b: &str,
    strategy: &str,
    card: &str,
) -> (String, String) {
    let out = d.join("c.csv");
    let bmu = root().join("strategies/big_money_ultimate.dom");
    let o = domsim(&[
        "compare",
        "--a",
        d.join(a).to_str().unwrap(),
        "--b",
        d.join(b).to_str().unwrap(),
        d.join(strategy).to_str().unwrap(),
        bmu.to_str().unwrap(),
        "--kingdom",
        card,
        "-n",
        "600",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    (std::fs::read_to_string(&out).unwrap(), stderr(&o))
}

/// A strategy file `NAME` that buys money and up to `most` copies of `card`.
fn money_bot(d: &std::path::Path, name: &str, card: &str, most: u32) {
    let bmu = root().join("strategies/big_money_ultimate.dom");
    std::fs::write(
        d.join(name),
        format!(
            "name: {card} BM\nextends: {}\nbuy:\n    Province if total_money >= 16\n    Gold\n    {card} if count({card}) < {most}\n    Silver\nplay:\n    {card}\n",
            bmu.display()
        ),
    )
    .unwrap();
}

/// Variant B's `pile` sets B's pile size (it was A's), and B's definition
/// hash differs from A's (`pile` was left out of the signature, so compare
/// warned that the variants were the same).
#[test]
fn compare_b_uses_its_own_pile_size() {
    let d = scratch("compare pile");
    let lurer = "[[card]]\nname = \"Lurer\"\ncost = 4\ntypes = [\"Action\"]\ncards = 3\n";
    std::fs::write(d.join("ga.toml"), lurer).unwrap();
    std::fs::write(d.join("gp.toml"), format!("{lurer}pile = 1\n")).unwrap();
    money_bot(&d, "lurer.dom", "Lurer", 2);
    let (csv, err) = compare_files(&d, "ga.toml", "gp.toml", "lurer.dom", "Lurer");
    assert!(!err.contains("define the same cards"), "{err}");
    let header = |k: &str| {
        csv.lines()
            .find_map(|l| l.strip_prefix(&format!("# {k}: ")))
            .unwrap()
            .to_string()
    };
    assert_ne!(header("variant_a_cards"), header("variant_b_cards"));
    assert!(header("variant_b_cards").contains("pile 1"), "{csv}");
    let bought = compare_row(&csv, "bought", "all");
    assert!(bought[0] > 1.5, "A buys two copies most games: {bought:?}");
    assert!(bought[1] <= 1.0, "B's pile holds one copy: {bought:?}");
    assert!(bought[2] < 0.0, "{bought:?}");
    // The other way round: A's single copy does not limit B.
    let (csv, _) = compare_files(&d, "gp.toml", "ga.toml", "lurer.dom", "Lurer");
    let bought = compare_row(&csv, "bought", "all");
    assert!(bought[0] <= 1.0 && bought[1] > 1.5, "{bought:?}");
}

/// A `pile` of 1 and the default pile hash differently; a card without
/// `pile` keeps the definition hash written in results/card_variants.
#[test]
fn signature_includes_the_pile() {
    let text = "[[card]]\nname = \"Smithy Data\"\ncost = 4\ntypes = [\"Action\"]\ncards = 3\n";
    let a = &data::parse_cards("a.toml", text).unwrap()[0];
    let b = &data::parse_cards("b.toml", &format!("{text}pile = 1\n")).unwrap()[0];
    assert_ne!(a.signature(), b.signature());
    assert_eq!(
        a.signature(),
        "Smithy Data ($4, Action, +3 Cards; definition aa9dd4f5aaf84719)"
    );
}

/// Variant B's `on_trash` runs (the kingdom's trash hook was A's, so B's
/// on-trash gain never happened), and each variant's numbers are exactly
/// those of `sim --cards` with that variant on the same seed.
#[test]
fn compare_b_on_trash_matches_two_sims() {
    let d = scratch("compare on_trash");
    let burner = "[[card]]\nname = \"Burner\"\ncost = 2\ntypes = [\"Action\"]\ncoins = 1\neffect = [{ do = \"trash_self\" }]\n";
    std::fs::write(d.join("ta.toml"), burner).unwrap();
    std::fs::write(
        d.join("tb.toml"),
        format!("{burner}on_trash = [{{ do = \"gain\", card = \"Gold\" }}]\n"),
    )
    .unwrap();
    money_bot(&d, "burner.dom", "Burner", 9);
    let bmu = root().join("strategies/big_money_ultimate.dom");
    let sim_score = |cards: &str| -> f64 {
        let out = d.join("s.csv");
        let o = domsim(&[
            "sim",
            "--cards",
            d.join(cards).to_str().unwrap(),
            d.join("burner.dom").to_str().unwrap(),
            bmu.to_str().unwrap(),
            "--kingdom",
            "Burner",
            "-n",
            "600",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = head.iter().position(|h| *h == "score").unwrap();
        let row = lines.find(|l| l.starts_with("Burner BM,")).unwrap();
        row.split(',').nth(col).unwrap().parse().unwrap()
    };
    let (sa, sb) = (sim_score("ta.toml"), sim_score("tb.toml"));
    assert!(sb != sa, "the on-trash Gold changes the games: {sa} {sb}");
    let (csv, _) = compare_files(&d, "ta.toml", "tb.toml", "burner.dom", "Burner");
    let w = compare_row(&csv, "win_rate", "Burner BM");
    assert!((w[0] - sa).abs() < 1e-6, "A: compare {} sim {sa}", w[0]);
    assert!((w[1] - sb).abs() < 1e-6, "B: compare {} sim {sb}", w[1]);
    assert!(
        (w[2] - (sb - sa)).abs() < 2e-6,
        "B − A: {w:?} sims {sa} {sb}"
    );
    // Swapped, the same difference with the other sign.
    let (csv, _) = compare_files(&d, "tb.toml", "ta.toml", "burner.dom", "Burner");
    let s = compare_row(&csv, "win_rate", "Burner BM");
    assert!((s[2] + w[2]).abs() < 2e-6, "{s:?} {w:?}");
}

// -------------------------------------------------------------------------
// Card names that strategy files can write.

/// The card a strategy's buy entry and its `count(…)` condition name.
fn entry_cards(
    e: &domsim::strategy::Entry,
) -> (Option<domsim::cards::Card>, Option<domsim::cards::Card>) {
    use domsim::strategy::{Expr, Subject};
    let target = match e.target {
        Some(Subject::Card(c)) => Some(c),
        _ => None,
    };
    let counted = match &e.cond {
        Some(Expr::Bin(_, l, _)) => match **l {
            Expr::Fun(_, Subject::Card(c)) => Some(c),
            _ => None,
        },
        _ => None,
    };
    (target, counted)
}

/// Every name the card loader accepts can be written in a strategy file:
/// `buy: NAME if count(NAME) < 2` parses to that card, for names built from
/// keywords, near-keywords, digits, apostrophes, hyphens, letters beyond
/// ASCII, case variants and double spaces; and names holding a keyword
/// (`Max Out`, `Gold if`) are refused at load time, at the name, with the
/// reason.
#[test]
fn every_accepted_card_name_round_trips_through_a_strategy() {
    let pieces = [
        "Max",
        "max",
        "MAX",
        "If",
        "if",
        "IF",
        "Keep",
        "keep",
        "None",
        "none",
        "And",
        "and",
        "Or",
        "OR",
        "Not",
        "not",
        "Maxi",
        "Iffy",
        "Keeper",
        "Nothing",
        "Order",
        "Android",
        "Village",
        "3",
        "Wishes",
        "O'Hara-Smith",
        "Max-Out",
        "if-",
        "'",
        "Café",
        "Ωmega",
        "Count",
        "Treasures",
        "Terminal",
        "yes",
        "no",
    ];
    let mut names: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
    for a in &pieces {
        for b in &pieces {
            names.push(format!("{a} {b}"));
        }
    }
    for (a, b, c) in [
        ("Gold", "if", "Silver"),
        ("Two", "", "Spaces"),
        ("Copper", "and", "Tin"),
        ("Lord", "of", "Max"),
    ] {
        names.push(format!("{a} {b} {c}"));
    }
    let mut accepted: Vec<DataCard> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut refused_for_keyword = 0;
    for n in &names {
        let text = format!("[[card]]\nname = \"{n}\"\ncost = 3\ntypes = [\"Action\"]\ncards = 1\n");
        match data::parse_cards("n.toml", &text) {
            Ok(mut v) => {
                if seen.insert(domsim::cards::normalize(n)) {
                    accepted.push(v.remove(0));
                }
            }
            Err(e) => {
                let e = format!("{e:#}");
                if e.contains("strategy files read as a keyword") {
                    assert!(e.starts_with("n.toml:2:8: field 'name'"), "{e}");
                    refused_for_keyword += 1;
                }
            }
        }
    }
    assert!(accepted.len() > 200, "{}", accepted.len());
    assert!(refused_for_keyword > 200, "{refused_for_keyword}");
    for n in [
        "Max Out",
        "Gold if",
        "Copper and Tin",
        "None",
        "Lord of Max",
        "keep",
    ] {
        assert!(!accepted.iter().any(|c| c.name == n), "{n} was accepted");
    }
    for n in [
        "Maxi Iffy",
        "3 Wishes",
        "O'Hara-Smith",
        "Max-Out Village",
        "Café Ωmega",
        "Two  Spaces",
        "Terminal",
    ] {
        assert!(accepted.iter().any(|c| c.name == n), "{n} was refused");
    }
    for batch in accepted.chunks(14) {
        let binding = data::bind(batch).unwrap();
        for (dc, &card) in batch.iter().zip(binding.cards()) {
            let n = &dc.name;
            let text = format!(
                "name: t\nbuy:\n    {n} if count({n}) < 2\n    Gold if count({n}) >= 2, {n}\n"
            );
            let st = domsim::strategy::parse(&text, "t.dom")
                .unwrap_or_else(|e| panic!("'{n}' loads but a strategy cannot name it: {e}"));
            let buy = st.list(domsim::strategy::ListKind::Buy).unwrap();
            assert_eq!(buy.len(), 3, "{n}");
            assert_eq!(entry_cards(&buy[0]), (Some(card), Some(card)), "{n}");
            assert_eq!(entry_cards(&buy[1]).1, Some(card), "{n}");
            assert_eq!(entry_cards(&buy[2]).0, Some(card), "{n}");
        }
    }
}

// -------------------------------------------------------------------------
// The options each verb lists, and compare --cards-only.

/// `--cards` and `--cards-only` are listed by the verbs that take them and
/// by no other (`compare` lists its own `--cards-only`).
#[test]
fn help_lists_cards_only_where_it_is_taken() {
    let help = |args: &[&str]| {
        let o = domsim(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    for verb in [
        "sim", "matrix", "log", "check", "scenario", "rank", "sweep", "optimize", "best",
        "kingdom", "report",
    ] {
        let h = help(&[verb, "--help"]);
        assert!(
            h.contains("--cards <FILE>") && h.contains("--cards-only"),
            "{verb}: {h}"
        );
    }
    let h = help(&["compare", "--help"]);
    assert!(!h.contains("--cards <FILE>"), "{h}");
    assert!(h.contains("--cards-only <NAMES>"), "{h}");
    for args in [
        &["cards", "--help"][..],
        &["cards", "list", "--help"],
        &["cards", "verify", "--help"],
        &["merge", "--help"],
        &["presets", "--help"],
    ] {
        let h = help(args);
        assert!(!h.contains("--cards"), "{args:?}: {h}");
    }
    // Refused as before, with the reason.
    let o = domsim(&["cards", "list", "--cards", "cards/examples.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("takes its card files as arguments"),
        "{}",
        stderr(&o)
    );
}

/// `compare --cards-only` picks cards of a file of many, for both variants.
#[test]
fn compare_cards_only_picks_cards_of_both_variants() {
    let d = scratch("compare cards-only");
    let bot = d.join("bot.dom");
    std::fs::write(
        &bot,
        "name: Smithy Data BM\nbuy:\n    Province if total_money >= 16\n    Gold\n    Smithy Data if count(Smithy Data) < 2\n    Silver\n",
    )
    .unwrap();
    let reprints = root().join("cards/reprints.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "--a",
            reprints.to_str().unwrap(),
            bot.to_str().unwrap(),
            "builtin:big-money",
            "--kingdom",
            "Smithy Data",
            "-n",
            "40",
        ];
        args.extend_from_slice(extra);
        domsim(&args)
    };
    let o = run(&[
        "--cards-only",
        "Smithy Data",
        "--b-set",
        "Smithy Data:cost=5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("bought"), "{}", stdout(&o));
    let o = run(&[
        "--cards-only",
        "Smithy Data",
        "--b",
        reprints.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("define the same cards"),
        "{}",
        stderr(&o)
    );
    let o = run(&["--b-set", "Smithy Data:cost=5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("choose some with --cards-only"),
        "{}",
        stderr(&o)
    );
    let o = run(&[
        "--cards-only",
        "Smithy Dta",
        "--b-set",
        "Smithy Data:cost=5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean 'Smithy Data'"),
        "{}",
        stderr(&o)
    );
    // --b-set takes the file's ranges: vp from −10.
    let o = run(&[
        "--cards-only",
        "Smithy Data",
        "--b-set",
        "Smithy Data:vp=-1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&[
        "--cards-only",
        "Smithy Data",
        "--b-set",
        "Smithy Data:vp=-11",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("-11 is outside -10..=20"),
        "{}",
        stderr(&o)
    );
}

/// Messages of the card loader: the field, its range and the effect.
#[test]
fn card_file_messages_name_the_field_the_range_and_the_effect() {
    let card = |body: &str| {
        format!("[[card]]\nname = \"Test Card\"\ncost = 3\ntypes = [\"Action\"]\n{body}\n")
    };
    bad_card_file(
        "huge cost",
        "[[card]]\nname = \"X\"\ncost = 99999999999999999999\ntypes = [\"Action\"]\n",
        "field 'cost': 99999999999999999999 is outside 0..=16",
    );
    bad_card_file(
        "vp below",
        &card("vp = -11"),
        "bad.toml:5:6: field 'vp': -11 is outside -10..=20",
    );
    bad_card_file(
        "bonus on a card not played",
        "[[card]]\nname = \"X\"\ncost = 3\ntypes = [\"Victory\"]\nbuys = 1\n",
        "bad.toml:5:8: field 'buys': +cards/actions/buys/coins need the Action or Treasure type",
    );
    bad_card_file(
        "range in an effect",
        &card("effect = [{ do = \"plus\", cards = 1 }, { do = \"others_draw\", cards = 11 }]"),
        "effect[2]: field 'cards': 11 is outside 0..=10",
    );
    bad_card_file(
        "option of a choose",
        &card("effect = [{ do = \"choose\", options = [[{ do = \"plus\", cards = 1 }], [{ do = \"gian\" }]] }]"),
        "effect[1]: options[2][1]: unknown primitive 'gian'",
    );
    bad_card_file(
        "single brackets",
        "[card]\nname = \"X\"\ncost = 3\ntypes = [\"Action\"]\n",
        "each card is a `[[card]]` table, with double brackets",
    );
    bad_card_file(
        "data card named in gain",
        "[[card]]\nname = \"Selfy\"\ncost = 3\ntypes = [\"Action\"]\neffect = [{ do = \"gain\", card = \"Selfy\" }]\n",
        "'Selfy' is a data card; a card file names printed cards only",
    );
    bad_card_file(
        "keyword in a name",
        "[[card]]\nname = \"Max Out\"\ncost = 3\ntypes = [\"Action\"]\n",
        "bad.toml:2:8: field 'name': 'Max Out' holds the word 'Max', which strategy files read as a keyword",
    );
}

/// `sweep --random` with `--cards` says that its kingdoms have no data card.
#[test]
fn sweep_random_warns_that_data_cards_are_not_drawn() {
    let o = domsim(&[
        "sweep",
        "--cards",
        "cards/examples.toml",
        "--random",
        "1",
        "-n",
        "2",
        "builtin:big-money",
        "builtin:big-money",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no kingdom of this sweep has a data card"),
        "{}",
        stderr(&o)
    );
}

/// `cards list` of one card: "1 card", and a gain of any card reads so.
#[test]
fn cards_list_of_one_card() {
    let d = scratch("list one");
    let f = d.join("one.toml");
    std::fs::write(
        &f,
        "[[card]]\nname = \"Gainer\"\ncost = 4\ntypes = [\"Action\"]\neffect = [{ do = \"gain\", up_to = 4 }]\n",
    )
    .unwrap();
    let o = domsim(&["cards", "list", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.ends_with("\n1 card\n"), "{out}");
    assert!(
        out.contains("Gainer — $4 Action\n    Gain a card costing up to $4.\n"),
        "{out}"
    );
}

/// A kingdom set up under one binding, set up again under another
/// (`compare`'s variant B): the pile follows B's types (a Victory card's
/// pile is 8 in 2 players) and B's on_trash switches the trash hook on.
#[test]
fn a_kingdom_rederived_under_another_binding_follows_its_cards() {
    use domsim::engine::Kingdom;
    let a = "[[card]]\nname = \"Turner\"\ncost = 4\ntypes = [\"Action\"]\ncards = 2\n";
    let b = "[[card]]\nname = \"Turner\"\ncost = 4\ntypes = [\"Action\", \"Victory\"]\ncards = 2\nvp = 1\non_trash = [{ do = \"gain\", card = \"Gold\" }]\n";
    let a = data::parse_cards("a.toml", a).unwrap();
    let b = data::parse_cards("b.toml", b).unwrap();
    let bind_a = data::bind(&a).unwrap();
    let card = bind_a.cards()[0];
    let k = Kingdom::with_piles(2, &[card]).unwrap();
    assert_eq!(k.pile_size[card as usize], 10);
    assert!(!k.watch_trash());
    drop(bind_a);
    let _bind_b = data::bind(&b).unwrap();
    let kb = k.rederived().unwrap();
    assert_eq!(kb.pile_size[card as usize], 8);
    assert!(kb.watch_trash());
    assert_eq!(kb.kingdom, k.kingdom);
    assert_eq!(kb.supply_piles(), k.supply_piles());
}

/// `compare --precision`: it stops after the first block of 65,536 games
/// whose win-rate changes are all narrower than the target, says so, and
/// its rows are those of a run of exactly that many games (the pairing is
/// exact, so stopping early changes nothing but the count); the target is
/// recorded. Out of range it is refused like sim's.
#[test]
fn compare_precision_stops_at_a_block_with_the_fixed_count_numbers() {
    let d = scratch("compare-precision");
    let run = |extra: &[&str]| {
        let out = d.join("c.csv");
        let mut a = COMPARE_POST_RIDER.to_vec();
        a.extend(["-o", out.to_str().unwrap()]);
        a.extend_from_slice(extra);
        let o = domsim(&a);
        let csv = std::fs::read_to_string(&out).unwrap_or_default();
        let _ = std::fs::remove_file(&out);
        (o, csv)
    };
    let rows = |csv: &str| -> Vec<String> {
        csv.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    let (o, sequential) = run(&["-n", "10000000", "--precision", "0.02"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("precision ±0.02 reached after 65536 games per variant"),
        "{}",
        stdout(&o)
    );
    for meta in [
        "# games_per_variant: 65536",
        "# games_requested: 10000000",
        "# precision_target: 0.02",
        "# precision_reached: yes",
    ] {
        assert!(sequential.contains(meta), "{meta}: {sequential}");
    }
    let (o, fixed) = run(&["-n", "65536"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!fixed.contains("precision"), "{fixed}");
    assert_eq!(rows(&sequential), rows(&fixed));
    for bad in ["0", "0.5", "-0.01", "nan"] {
        let (o, csv) = run(&["--precision", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&o).contains("out of range") || stderr(&o).contains("invalid"),
            "{bad}: {}",
            stderr(&o)
        );
        assert!(csv.is_empty());
    }
}

/// `cards list` prints what domsim read, the pile size included (it
/// changes the game: compare's B may differ only by it); a card file with
/// a byte-order mark reads like one without, positions included (line 1
/// was a column off).
#[test]
fn cards_list_shows_the_pile_and_positions_ignore_a_byte_order_mark() {
    let d = scratch("list pile bom");
    let f = d.join("pile.toml");
    let card = "[[card]]\nname = \"Piled\"\ncost = 3\ntypes = [\"Action\"]\ncards = 1\npile = 5\n";
    std::fs::write(&f, format!("\u{feff}{card}")).unwrap();
    let o = domsim(&["cards", "list", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Piled — $3 Action\n    +1 Card. (A pile of 5.)\n"),
        "{out}"
    );
    assert!(out.contains("pile.toml:1:1)"), "{out}");
    let bad = d.join("bad.toml");
    std::fs::write(&bad, "\u{feff}name = \"Loose\"\n").unwrap();
    let o = domsim(&["cards", "list", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.toml:1:1: unknown field `name`"),
        "{}",
        stderr(&o)
    );
}

/// One game gives no interval: the CSV says `-inf`/`inf`, the table marks
/// nothing `*` (it printed a zero-width interval [d, d] as excluding 0),
/// and the HTML page draws no NaN.
#[test]
fn compare_of_one_game_claims_no_interval() {
    let d = scratch("compare one game");
    let (csv, html) = (d.join("c.csv"), d.join("c.html"));
    let o = domsim(&[
        "compare",
        "--a",
        root().join("cards/post_rider.toml").to_str().unwrap(),
        "--b",
        root().join("cards/post_rider_b.toml").to_str().unwrap(),
        "--kingdom",
        "Post Rider",
        root()
            .join("strategies/playtest/post_rider_big_money.dom")
            .to_str()
            .unwrap(),
        root()
            .join("strategies/big_money_ultimate.dom")
            .to_str()
            .unwrap(),
        "-n",
        "1",
        "-o",
        csv.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    // Said in the singular, and no footnote for a star that is not there.
    assert!(table.contains(", 1 game each on the same seeds"), "{table}");
    assert!(
        table.contains("\nno interval excludes 0 (paired design"),
        "{table}"
    );
    assert!(!table.contains("* the interval excludes 0"), "{table}");
    let rows: Vec<&str> = table.lines().filter(|l| l.contains(" [")).collect();
    assert_eq!(rows.len(), 13, "{table}");
    for r in rows {
        assert!(r.ends_with("[-inf, +inf]"), "{r}");
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .collect();
    assert_eq!(body.len(), 13, "{text}");
    for l in body {
        assert!(l.ends_with(",-inf,inf,1"), "{l}");
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("NaN") && !page.contains("inf\""), "{page}");
}

/// `compare --random` (or `--preset`) never holds the data card, and
/// `--kingdom` does not combine with them: the message points to the way
/// that works (it said "add it with --kingdom", which clap then refuses),
/// and that way runs.
#[test]
fn compare_random_kingdom_without_the_card_points_to_fill() {
    let a = root().join("cards/post_rider.toml");
    let bot = root().join("strategies/playtest/post_rider_big_money.dom");
    let run = |kingdom: &[&str]| {
        let mut args = vec![
            "compare",
            "--a",
            a.to_str().unwrap(),
            "--b-set",
            "Post Rider:cost=5",
            bot.to_str().unwrap(),
            "builtin:big-money",
            "-n",
            "20",
        ];
        args.extend_from_slice(kingdom);
        domsim(&args)
    };
    for k in [&["--random"][..], &["--preset", "First Game"]] {
        let o = run(k);
        assert_eq!(o.status.code(), Some(2), "{k:?}");
        let e = stderr(&o);
        assert!(
            e.contains("give it with --kingdom \"Post Rider\" --fill"),
            "{e}"
        );
        assert!(!e.contains("add it with --kingdom"), "{e}");
    }
    let o = run(&["--kingdom", "Post Rider", "--fill"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["--kingdom", "Village"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("add it with --kingdom"),
        "{}",
        stderr(&o)
    );
}

/// The same card file given twice (by any path) is called that, not "card
/// 'X' is defined twice (first at F:6:1)" pointing at the card's own place.
#[test]
fn a_card_file_given_twice_is_named() {
    let d = scratch("cards twice");
    let f = d.join("one.toml");
    std::fs::write(
        &f,
        "[[card]]\nname = \"Twice\"\ncost = 2\ntypes = [\"Action\"]\ncards = 1\n",
    )
    .unwrap();
    let other = d.join(".").join("one.toml");
    let o = domsim(&[
        "cards",
        "list",
        f.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("is given twice (also as"), "{e}");
    assert!(!e.contains("defined twice"), "{e}");
}

/// compare prints the strategies' warnings as sim does, once: an entry
/// naming a card that is not in the game was ignored without a word (the
/// per-variant, per-block compilations are silent).
#[test]
fn compare_warns_once_about_an_entry_for_a_card_not_in_the_game() {
    let d = scratch("compare-warns");
    let bot = d.join("pr.dom");
    std::fs::write(
        &bot,
        "name: PR warn\nbuy:\n    Province if total_money >= 16\n    Witch\n    Post Rider if count(Post Rider) < 2\n    Silver\n",
    )
    .unwrap();
    let mut args = COMPARE_POST_RIDER.to_vec();
    args[7] = bot.to_str().unwrap();
    args.extend(["-n", "70000", "-o", "-"]);
    let o = domsim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let want = format!(
        "{}:4:5: warning: Witch is not in this game; entry ignored",
        bot.display()
    );
    assert_eq!(err.matches(&want).count(), 1, "{err}");
}

/// `cards list` writes each card as its rules text, from the compiled
/// primitives: never the engine's internal form (`Choose { n: 2, … }`,
/// `VictimsGain(Copper)`), and for the shipped examples and a few reprints
/// exactly the sentence a printed card would have.
#[test]
fn cards_list_writes_card_text_not_internals() {
    let o = domsim(&[
        "cards",
        "list",
        "cards/examples.toml",
        "cards/reprints.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for internal in [
        "{", "}", "Op::", "Choose {", "Victims", "Bonus", "filter:", "Some(", "Dest",
    ] {
        assert!(!out.contains(internal), "'{internal}' in:\n{out}");
    }
    for expected in [
        "Hamlet Smith — $4 Action\n    +2 Cards. Choose one: +1 Action; or +$1.\n",
        "Hex Peddler — $4 Action-Attack\n    +$1. Each other player gains a Curse.\n",
        "Pawnbroker — $3 Action\n    Trash up to 2 cards from your hand. +$1 per card trashed.\n",
        "Silver Mine — $4 Victory\n    Worth 1 VP for every 4 Silvers you have (round down).\n",
        "Tally Stick — $3 Treasure\n    $1. +1 Buy. When you gain this, gain a Copper.\n",
        "Witch Data — $5 Action-Attack\n    +2 Cards. Each other player gains a Curse.\n",
        "Moneylender Data — $4 Action\n    Trash a Copper from your hand. If you do, +$3.\n",
        "Throne Room Data — $4 Action\n    Choose an Action card in your hand. Play it twice.\n",
        "Library Data — $5 Action\n    Draw until you have 7 cards in hand. You may set aside any Action cards drawn this way",
        "Duke Data — $5 Victory\n    Worth 1 VP per Duchy you have.\n",
        "Steward Data — $3 Action\n    Choose one: +2 Cards; or +$2; or trash 2 cards from your hand.\n",
        "Altar Data — $6 Action\n    Trash a card from your hand. Gain a card costing up to $5.\n",
        "Feodum Data — $4 Victory\n    Worth 1 VP for every 3 Silvers you have (round down). When you trash this, gain 3 Silvers.\n",
        "Hunting Grounds Data — $6 Action\n    +4 Cards. When you trash this, choose one: gain a Duchy; or gain 3 Estates.\n",
        "Squire Data — $2 Action\n    +$1. Choose one: +2 Actions; or +2 Buys; or gain a Silver. When you trash this, gain an Attack card.\n",
        "Moat Data — $2 Action-Reaction\n    +2 Cards. When another player plays an Attack card, you may reveal this from your hand.",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
}

/// A card file's errors come all at once (issue 45): the first error of
/// each card, each at its file:line:col, on its own line, then their
/// count; `cards list` and `--cards` alike.
#[test]
fn every_card_of_a_card_file_reports_its_error() {
    let d = scratch("card-errors");
    let f = d.join("bad.toml");
    std::fs::write(
        &f,
        "[[card]]\nname = \"One\"\ncost = 3\ntypes = [\"Action\"]\ncardz = 2\n\n\
         [[card]]\nname = \"Two\"\ncost = 3\ntypes = [\"Action\"]\ncards = 2\n\n\
         [[card]]\nname = \"Three\"\ncost = 99\ntypes = [\"Action\"]\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap();
    for args in [
        vec!["cards", "list", fs],
        vec!["--cards", fs, "kingdom", "--preset", "First Game"],
    ] {
        let o = domsim(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("error: {fs}:5:9: unknown field 'cardz'")),
            "{err}"
        );
        assert!(err.contains(&format!("\nerror: {fs}:15:8: ")), "{err}");
        assert!(
            err.contains(&format!("error: {fs}: 2 cards have errors")),
            "{err}"
        );
        assert!(!err.contains("Two"), "the good card is no error: {err}");
    }
    // The library's first-error reader gives the first of them.
    let text = std::fs::read_to_string(&f).unwrap();
    let first = format!("{:#}", data::parse_cards(fs, &text).err().unwrap());
    assert!(
        first.starts_with(&format!("{fs}:5:9: unknown field 'cardz'")),
        "{first}"
    );
    assert_eq!(data::parse_cards_all(fs, &text).err().unwrap().len(), 2);
}
