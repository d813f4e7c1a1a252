//! Play against the bots: one seat of a game is a person, the others are
//! strategy files.
//!
//! **Replay, not a paused engine.** The engine asks its questions through a
//! type parameter (`B: Bots`, monomorphized), and a game cannot be paused
//! half-way through a card. So nothing of the engine changes, and the
//! simulation pays nothing: a game in progress is its seed and the
//! person's answers so far. Each request plays the game from its seed with
//! those answers ([`Script`] gives them, in order, to the person's
//! questions) and, at the person's first question beyond them, takes a
//! picture of the game ([`Watch`]: the question with its legal answers, what
//! the person may see, the log so far). The rest of that replay is played
//! by the seat's advisor bot and thrown away. A game is a few thousand
//! decisions, so a replay costs well under a millisecond; the server keeps
//! nothing between requests, and the game is deterministic: the same seed
//! and answers give the same game, which is what makes the record
//! replayable and the game undo-free (an answer once sent is part of it).
//!
//! Answers are words: a card's name or `-` (none) for a pick, `yes`/`no`,
//! an option number for "choose one", `all`/`each` for "play all your
//! Treasures at once". An answer that is not legal for the question it
//! meets is refused with its position.

use crate::cards::Card;
use crate::dominion::logbots::LoggingBots;
use crate::engine::decision::{questions, QuestionKind};
use crate::engine::{Bots, Choose, Event, Game, Phase, Pick, Why, YesNo};
use serde_json::{json, Value};

/// Most answers a game record may hold.
pub const MAX_ANSWERS: usize = 5000;

/// A question of the person's seat.
#[derive(Clone, Copy, Debug)]
enum Asked {
    Pick(Pick),
    YesNo(YesNo),
    Choose(Choose, u8),
    /// Play every Treasure in hand at once (the engine's batched Treasure
    /// play), or one at a time.
    Treasures,
}

/// Inside the logger: the person's seat answered from the script, every
/// other question by the bots. Once the script is used up (the replay has
/// passed the question being asked), the seat's advisor answers.
struct Script<'a, B> {
    inner: B,
    seat: u8,
    answers: &'a [String],
    next: usize,
    error: Option<String>,
    /// Which "choose one" of the card being played this is (Count asks two).
    choice: u8,
}

impl<'a, B: Bots> Script<'a, B> {
    /// The next answer, if any is left.
    fn take(&mut self) -> Option<(usize, &'a str)> {
        let k = self.next;
        let answers: &'a [String] = self.answers;
        let a = answers.get(k)?;
        self.next += 1;
        Some((k, a.as_str()))
    }

    fn refuse(&mut self, k: usize, a: &str, legal: String) {
        if self.error.is_none() {
            self.error = Some(format!(
                "answer {} ('{}') does not answer the question it meets; legal: {legal}",
                k + 1,
                a.chars().take(40).collect::<String>()
            ));
        }
    }

    fn scripted_pick(
        &mut self,
        g: &Game,
        q: &Pick,
        fallback: impl FnOnce(&mut B) -> Option<Card>,
    ) -> Option<Card> {
        let Some((k, a)) = self.take() else {
            return fallback(&mut self.inner);
        };
        let answer = if a == "-" {
            q.optional.then_some(None)
        } else {
            Card::from_name(a)
                .filter(|c| q.legal.contains(*c))
                .map(Some)
        };
        match answer {
            Some(c) => c,
            None => {
                self.refuse(k, a, legal_words(&pick_options(g, q)));
                fallback(&mut self.inner)
            }
        }
    }
}

impl<B: Bots> Bots for Script<'_, B> {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        if q.player != self.seat {
            return self.inner.pick(g, q);
        }
        self.scripted_pick(g, q, |b| b.pick(g, q))
    }
    fn turn_pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        if q.player != self.seat {
            return self.inner.turn_pick(g, q);
        }
        self.scripted_pick(g, q, |b| b.turn_pick(g, q))
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        if q.player != self.seat {
            return self.inner.yes_no(g, q);
        }
        match self.take() {
            Some((_, "yes")) => true,
            Some((_, "no")) => false,
            Some((k, a)) => {
                self.refuse(k, a, "yes, no".into());
                self.inner.yes_no(g, q)
            }
            None => self.inner.yes_no(g, q),
        }
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        if q.player != self.seat {
            return self.inner.choose(g, q);
        }
        self.choice += 1;
        match self.take() {
            Some((k, a)) => match a.parse::<u8>() {
                Ok(n) if n < q.n => n,
                _ => {
                    self.refuse(k, a, format!("0 to {}", q.n.saturating_sub(1)));
                    self.inner.choose(g, q)
                }
            },
            None => self.inner.choose(g, q),
        }
    }
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        if player != self.seat {
            return self.inner.play_all_treasures(g, player);
        }
        match self.take() {
            Some((_, "all")) => true,
            Some((_, "each")) => false,
            Some((k, a)) => {
                self.refuse(k, a, "all, each".into());
                false
            }
            None => self.inner.play_all_treasures(g, player),
        }
    }
    fn event(&mut self, g: &Game, e: Event) {
        if let Event::Play { player, .. } = e {
            if player == self.seat {
                self.choice = 0;
            }
        }
        self.inner.event(g, e);
    }
}

/// What a replay stopped at: the person's question and the game as the
/// person sees it then.
struct Stopped {
    question: Value,
    view: Value,
    log: String,
}

/// Outside the logger: notices the person's first question beyond the
/// script and takes the picture before the question is answered (and
/// logged).
struct Watch<'a, B> {
    inner: LoggingBots<Script<'a, B>>,
    names: &'a [String],
    stopped: Option<Stopped>,
    /// Called on the bots once the picture is taken: the rest of the replay
    /// is thrown away, so it may be played cheaply (a search seat answers
    /// as its rollout strategy).
    quiet: fn(&mut B),
}

impl<B: Bots> Watch<'_, B> {
    fn due(&self, player: u8) -> bool {
        let s = &self.inner.inner;
        self.stopped.is_none() && player == s.seat && s.next >= s.answers.len() && s.error.is_none()
    }

    fn stop(&mut self, g: &Game, asked: Asked, suggestion: String) {
        self.stopped = Some(Stopped {
            question: question_json(g, &asked, &suggestion, self.names),
            view: view(g, self.inner.inner.seat, self.names),
            log: self.inner.so_far(),
        });
        (self.quiet)(&mut self.inner.inner.inner);
    }
}

impl<B: Bots> Bots for Watch<'_, B> {
    fn pick(&mut self, g: &Game, q: &Pick) -> Option<Card> {
        if self.due(q.player) {
            // The advisor's answer, asked once (the replay ends here).
            let s = self.inner.inner.inner.pick(g, q);
            self.stop(
                g,
                Asked::Pick(*q),
                s.map_or("-".into(), |c| c.name().to_string()),
            );
        }
        self.inner.pick(g, q)
    }
    fn yes_no(&mut self, g: &Game, q: &YesNo) -> bool {
        if self.due(q.player) {
            let s = self.inner.inner.inner.yes_no(g, q);
            self.stop(g, Asked::YesNo(*q), if s { "yes" } else { "no" }.into());
        }
        self.inner.yes_no(g, q)
    }
    fn choose(&mut self, g: &Game, q: &Choose) -> u8 {
        if self.due(q.player) {
            let s = self.inner.inner.inner.choose(g, q);
            let which = self.inner.inner.choice;
            self.stop(g, Asked::Choose(*q, which), s.to_string());
        }
        self.inner.choose(g, q)
    }
    fn play_all_treasures(&mut self, g: &Game, player: u8) -> bool {
        if self.due(player) {
            self.stop(g, Asked::Treasures, "all".into());
        }
        self.inner.play_all_treasures(g, player)
    }
    fn event(&mut self, g: &Game, e: Event) {
        self.inner.event(g, e);
    }
}

/// The end of one replay.
pub struct Replayed {
    /// The person's question (None: the game is over).
    pub question: Option<Value>,
    /// The game as the person sees it (at the question, or at the end).
    pub view: Value,
    /// The log up to the question, or the whole game's with the scores.
    pub log: String,
    /// The outcome, when the game is over.
    pub outcome: Option<Value>,
}

/// Play game `index` of `seed` on `k` with `bots` (one seat each, seat
/// order as given), seat `seat` answered by `answers`, to the person's
/// next question or the end. `names[s]` labels seat `s` in the log;
/// `quiet` is called on `bots` once the question is reached (the rest of
/// the game is played out and thrown away).
#[allow(clippy::too_many_arguments)]
pub fn replay<B: Bots>(
    k: &crate::engine::Kingdom,
    seed: u64,
    index: u64,
    bots: B,
    seat: u8,
    names: &[String],
    answers: &[String],
    quiet: fn(&mut B),
) -> Result<Replayed, String> {
    if answers.len() > MAX_ANSWERS {
        return Err(format!(
            "answers: {} given; a game record holds at most {MAX_ANSWERS}",
            answers.len()
        ));
    }
    let mut g = Game::new(k, seed, index);
    let script = Script {
        inner: bots,
        seat,
        answers,
        next: 0,
        error: None,
        choice: 0,
    };
    let mut w = Watch {
        inner: LoggingBots::new(script, names.to_vec()),
        names,
        stopped: None,
        quiet,
    };
    let o = g.play_game(&mut w);
    let script = &w.inner.inner;
    if let Some(e) = &script.error {
        return Err(e.clone());
    }
    if let Some(s) = w.stopped {
        if script.next < answers.len() {
            // Not reached: the stop is at the first unanswered question.
            return Err("internal: a replay stopped before its last answer".into());
        }
        return Ok(Replayed {
            question: Some(s.question),
            view: s.view,
            log: s.log,
            outcome: None,
        });
    }
    if script.next < answers.len() {
        return Err(format!(
            "answers: the game ended after answer {}; {} more given",
            script.next,
            answers.len() - script.next
        ));
    }
    let view = view(&g, seat, names);
    let outcome = json!({
        "vp": o.vp[..g.n()].to_vec(),
        "turns": o.turns[..g.n()].to_vec(),
        "won": (0..g.n()).map(|p| o.won(p)).collect::<Vec<_>>(),
        "capped": o.capped,
    });
    let log = w.inner.finish(&g);
    Ok(Replayed {
        question: None,
        view,
        log,
        outcome: Some(outcome),
    })
}

/// A pick's legal answers, most expensive first, as (answer, label, cost).
fn pick_options(g: &Game, q: &Pick) -> Vec<(String, String, Option<u8>)> {
    let mut cards: Vec<Card> = q.legal.iter().collect();
    cards.sort_by_key(|&c| (std::cmp::Reverse(g.cost(c)), c.name()));
    let mut out: Vec<(String, String, Option<u8>)> = cards
        .iter()
        .map(|&c| (c.name().to_string(), c.name().to_string(), Some(g.cost(c))))
        .collect();
    if q.optional {
        let none = match q.why {
            Why::Buy => "buy nothing (end the turn)",
            Why::PlayAction => "play no more Actions",
            Why::PlayTreasure => "play no more Treasures",
            Why::React => "do not reveal",
            Why::TrashTrigger => "stop",
            _ => "none",
        };
        out.push(("-".into(), none.into(), None));
    }
    out
}

fn legal_words(opts: &[(String, String, Option<u8>)]) -> String {
    let mut s: Vec<&str> = opts.iter().map(|o| o.0.as_str()).collect();
    if s.len() > 12 {
        s.truncate(12);
        s.push("…");
    }
    s.join(", ")
}

/// The question as the page shows it: a sentence, the legal answers as
/// buttons, the advisor's answer.
fn question_json(g: &Game, asked: &Asked, suggestion: &str, names: &[String]) -> Value {
    let name = |p: u8| names.get(p as usize).map_or("?", |n| n.as_str());
    let (kind, prompt, options): (&str, String, Vec<Value>) = match asked {
        Asked::Pick(q) => {
            let by = q.by.map(|c| format!(" ({c})")).unwrap_or_default();
            let whose = if q.target != q.player {
                format!(", a card of {}", name(q.target))
            } else {
                String::new()
            };
            let opts = pick_options(g, q)
                .into_iter()
                .map(|(answer, label, cost)| json!({ "answer": answer, "label": label, "cost": cost }))
                .collect();
            (
                "pick",
                format!("{}{by}{whose}", capital(q.why.name())),
                opts,
            )
        }
        Asked::YesNo(q) => {
            let doc = questions().find(|d| d.card == q.by && d.kind == QuestionKind::YesNo);
            let meaning = doc.map_or("yes or no", |d| d.meaning);
            let about = q
                .card
                .map(|c| format!(" ({c} of {})", name(q.target)))
                .unwrap_or_default();
            (
                "yes_no",
                format!("{}: {meaning}{about}?", q.by),
                vec![
                    json!({ "answer": "yes", "label": "yes" }),
                    json!({ "answer": "no", "label": "no" }),
                ],
            )
        }
        Asked::Choose(q, which) => {
            let docs: Vec<_> = questions()
                .filter(|d| d.card == q.by && matches!(d.kind, QuestionKind::Choose(_)))
                .collect();
            let doc = docs.get(*which as usize).or(docs.first()).copied();
            let opts = (0..q.n)
                .map(|i| {
                    let label = doc
                        .and_then(|d| d.options.get(i as usize))
                        .map_or(format!("option {i}"), |l| l.to_string());
                    json!({ "answer": i.to_string(), "label": label })
                })
                .collect();
            (
                "choose",
                format!("{}: {}", q.by, doc.map_or("choose one", |d| d.meaning)),
                opts,
            )
        }
        Asked::Treasures => (
            "treasures",
            "Play all your Treasures at once?".into(),
            vec![
                json!({ "answer": "all", "label": "play all Treasures" }),
                json!({ "answer": "each", "label": "one at a time" }),
            ],
        ),
    };
    json!({
        "kind": kind,
        "prompt": prompt,
        "options": options,
        "suggestion": suggestion,
    })
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn names_of(cards: impl Iterator<Item = Card>) -> Vec<&'static str> {
    cards.map(|c| c.name()).collect()
}

/// The game as seat `seat` may see it: his own hand and revealed cards,
/// everyone's play area and pile sizes, the Supply, the trash.
fn view(g: &Game, seat: u8, names: &[String]) -> Value {
    let me = g.player(seat);
    let players: Vec<Value> = (0..g.n() as u8)
        .map(|p| {
            let pl = g.player(p);
            json!({
                "name": names.get(p as usize).cloned().unwrap_or_default(),
                "you": p == seat,
                "vp": g.vp(p),
                "hand": pl.hand.len(),
                "deck": pl.deck.len(),
                "discard": pl.discard.len(),
                "owned": pl.owned_total,
                "play": names_of(pl.play.iter()),
                "turns": g.turns_taken[p as usize],
            })
        })
        .collect();
    let supply: Vec<Value> = g
        .kingdom
        .supply
        .iter()
        .chain(g.kingdom.non_supply.iter())
        .map(|c| {
            json!({
                "name": c.name(),
                "left": g.supply[c as usize],
                "cost": g.cost(c),
                "types": format!("{:?}", c.info().types),
                "kingdom": g.kingdom.kingdom.contains(c),
                "supply": g.kingdom.supply.contains(c),
            })
        })
        .collect();
    let mut owned: Vec<(Card, u8)> = Card::ALL
        .iter()
        .map(|&c| (c, me.owns(c)))
        .filter(|&(_, n)| n > 0)
        .collect();
    owned.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    let phase = match g.turn.phase {
        Phase::Action => "Action",
        Phase::Buy => "Buy",
        Phase::Bought => "Buy (bought)",
    };
    json!({
        "seat": seat,
        "active": g.active,
        "active_name": names.get(g.active as usize).cloned().unwrap_or_default(),
        "turn": g.turns_taken[g.active as usize],
        "phase": phase,
        "actions": g.turn.actions,
        "buys": g.turn.buys,
        "coins": g.turn.coins,
        "hand": names_of(me.hand.iter()),
        "aside": names_of(me.aside.iter()),
        "deck": me.deck.len(),
        "discard": me.discard.len(),
        "discard_top": me.discard.last().map(|c| c.name()),
        "owned": owned.iter().map(|(c, n)| json!([c.name(), n])).collect::<Vec<_>>(),
        "players": players,
        "supply": supply,
        "trash": names_of(g.trash.iter()),
        "over": g.over,
    })
}
