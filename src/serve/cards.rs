//! Data cards in the workbench: the card files of `--cards` (read once, at
//! start: the only files the server reads besides the strategy folder) and
//! the card text typed in the page's card editor.
//!
//! A process binds one set of data cards at a time
//! ([`crate::cards::data::bind`]: card names, kingdoms, strategies and
//! games see the bound cards while the binding lives), and a binding may
//! only be dropped on the thread that made it. So the server keeps one
//! *binder* thread that owns the binding, and a request that parses, checks
//! or plays with data cards takes a [`Lease`] of the set it needs:
//!
//! * leases are granted first come, first served (a ticket each): a request
//!   for the set bound now joins it (several batches with the same cards
//!   play at once); a request for another set waits until every lease of
//!   the bound set has ended, then the binder binds its set;
//! * a waiting request gives up after its own deadline (or when its batch
//!   is stopped) and is answered "busy";
//! * each card definition takes one row of the process's arena once
//!   ([`crate::cards::DATA_ARENA`] rows in all): the binder remembers the row
//!   of every definition it bound (by [`DataCard::signature`]) and binds a
//!   set of known definitions again without new rows
//!   ([`crate::cards::data::bind_again`]); a designer's every edit of a
//!   card costs one row, and a server that has used them all says so.

use crate::cards::data::{self, Binding, DataCard};
use crate::cards::DATA_SLOTS;
use anyhow::{anyhow, Context, Result};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Largest card-file text a request may carry.
pub const MAX_CARD_TEXT: usize = 32 * 1024;

/// The name typed card text is parsed under (messages, downloads).
pub const TYPED_FILE: &str = "cards.toml";

/// The card files the server was given, and the binding of the requests'
/// cards.
pub struct Desk {
    /// The editor's first text: the `--cards` files (only the cards that
    /// `--cards-only` names), or empty.
    pub start_text: String,
    /// The cards of `start_text`, as read from the files.
    pub start_cards: Vec<DataCard>,
    /// The files, as given.
    pub start_files: Vec<PathBuf>,
    /// ` --cards FILE… [--cards-only …]`: how the command line says them.
    pub start_flags: String,
    st: Mutex<St>,
    cv: Condvar,
    jobs: Mutex<mpsc::Sender<Job>>,
}

#[derive(Default)]
struct St {
    /// The signatures of the set bound now (None: none yet, or a bind failed).
    bound: Option<Vec<String>>,
    /// Leases of the bound set alive now.
    users: usize,
    next_ticket: u64,
    serving: u64,
    /// Tickets given up before their turn (skipped when it comes).
    abandoned: BTreeSet<u64>,
}

impl St {
    fn advance(&mut self) {
        self.serving += 1;
        while self.abandoned.remove(&self.serving) {
            self.serving += 1;
        }
    }
}

struct Job {
    cards: Vec<DataCard>,
    done: mpsc::Sender<Result<(), String>>,
}

/// A request's use of the bound cards: while it lives, the set it asked
/// for stays bound.
pub struct Lease {
    desk: Arc<Desk>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut st = self.desk.st.lock().unwrap_or_else(|e| e.into_inner());
        st.users -= 1;
        self.desk.cv.notify_all();
    }
}

/// Why a lease was not granted.
pub enum LeaseError {
    /// The wait ended first (deadline, or the request was stopped).
    Busy,
    /// The cards could not be bound (the arena is used up).
    Bind(String),
}

impl Desk {
    /// Read the card files of `--cards` (and choose `--cards-only`'s) and
    /// start the binder thread.
    pub fn new(files: &[PathBuf], only: Option<&str>) -> Result<Arc<Desk>> {
        let start_cards = if files.is_empty() {
            Vec::new()
        } else {
            data::load_for_binding(files, only)?
        };
        let mut start_text = String::new();
        for f in files {
            let text = crate::output::read_input(f, "card file")?;
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
            let file = f.display().to_string();
            let mine: Vec<&DataCard> = start_cards.iter().filter(|c| c.file == file).collect();
            if only.is_none() {
                start_text.push_str(&text);
            } else if !mine.is_empty() {
                start_text.push_str(&format!("# from {file}\n"));
                for c in mine {
                    start_text.push_str(&card_section(&text, &c.origin));
                }
            }
            if !start_text.ends_with('\n') && !start_text.is_empty() {
                start_text.push('\n');
            }
        }
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("domsim-cards".into())
            .spawn(move || binder(rx))
            .context("cannot start the card binder thread")?;
        let mut start_flags: String = files
            .iter()
            .map(|f| {
                format!(
                    " --cards {}",
                    crate::output::shell_word(&f.display().to_string())
                )
            })
            .collect();
        if let Some(o) = only {
            start_flags.push_str(&format!(" --cards-only {}", crate::output::shell_word(o)));
        }
        Ok(Arc::new(Desk {
            start_flags,
            start_text,
            start_cards,
            start_files: files.to_vec(),
            st: Mutex::new(St::default()),
            cv: Condvar::new(),
            jobs: Mutex::new(tx),
        }))
    }

    /// A lease of `cards` bound, waiting (first come, first served) until
    /// `give_up` says to stop waiting.
    pub fn lease(
        self: &Arc<Self>,
        cards: &[DataCard],
        give_up: &dyn Fn() -> bool,
    ) -> Result<Lease, LeaseError> {
        let sigs: Vec<String> = cards.iter().map(|c| c.signature()).collect();
        let mut st = self.st.lock().unwrap_or_else(|e| e.into_inner());
        let ticket = st.next_ticket;
        st.next_ticket += 1;
        loop {
            if st.serving == ticket {
                if st.bound.as_ref() == Some(&sigs) {
                    st.users += 1;
                    st.advance();
                    self.cv.notify_all();
                    return Ok(Lease { desk: self.clone() });
                }
                if st.users == 0 {
                    // This request's turn and nobody plays: bind its set
                    // (the lock is held: the others only wait meanwhile).
                    let r = self.rebind(cards);
                    st.bound = r.is_ok().then(|| sigs.clone());
                    st.advance();
                    self.cv.notify_all();
                    return match r {
                        Ok(()) => {
                            st.users += 1;
                            Ok(Lease { desk: self.clone() })
                        }
                        Err(e) => Err(LeaseError::Bind(e)),
                    };
                }
            }
            if give_up() {
                if st.serving == ticket {
                    st.advance();
                } else {
                    st.abandoned.insert(ticket);
                }
                self.cv.notify_all();
                return Err(LeaseError::Busy);
            }
            st = self
                .cv
                .wait_timeout(st, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn rebind(&self, cards: &[DataCard]) -> Result<(), String> {
        let (tx, rx) = mpsc::channel();
        let sent = self
            .jobs
            .lock()
            .map_err(|_| "the card binder stopped".to_string())?
            .send(Job {
                cards: cards.to_vec(),
                done: tx,
            });
        if sent.is_err() {
            return Err("the card binder stopped".into());
        }
        rx.recv()
            .unwrap_or_else(|_| Err("the card binder stopped".into()))
    }
}

/// A deadline as a `give_up` of [`Desk::lease`].
pub fn within(d: Duration) -> impl Fn() -> bool {
    let t = Instant::now();
    move || t.elapsed() >= d
}

/// The binder thread: owns the binding; each job replaces it.
fn binder(rx: mpsc::Receiver<Job>) {
    let mut held: Option<Binding> = None;
    let mut rows: HashMap<String, u16> = HashMap::new();
    for job in rx {
        drop(held.take());
        let r = bind_set(&job.cards, &mut rows).map(|b| held = b);
        let _ = job.done.send(r.map_err(|e| {
            format!("{e:#} (the server binds at most {} card definitions in its life, each edit of a card one: restart domsim serve)", crate::cards::DATA_ARENA)
        }));
    }
}

/// Bind `cards`: the definitions never bound before once alone (taking
/// their rows), then the whole set again on the remembered rows.
fn bind_set(cards: &[DataCard], rows: &mut HashMap<String, u16>) -> Result<Option<Binding>> {
    if cards.is_empty() {
        return Ok(None);
    }
    let fresh: Vec<DataCard> = cards
        .iter()
        .filter(|c| !rows.contains_key(&c.signature()))
        .cloned()
        .collect();
    if !fresh.is_empty() {
        let b = data::bind(&fresh)?;
        for (c, r) in fresh.iter().zip(b.rows()) {
            rows.insert(c.signature(), *r);
        }
        drop(b);
    }
    let r: Vec<u16> = cards
        .iter()
        .map(|c| {
            rows.get(&c.signature())
                .copied()
                .ok_or_else(|| anyhow!("no row for {}", c.name))
        })
        .collect::<Result<_>>()?;
    Ok(Some(data::bind_again(cards, &r)?))
}

/// The text of the card whose `[[card]]` table starts at `origin`
/// (`file:line:col`): its lines up to the next `[[card]]` table.
fn card_section(text: &str, origin: &str) -> String {
    let line: usize = origin
        .rsplit(':')
        .nth(1)
        .and_then(|l| l.parse().ok())
        .unwrap_or(1);
    let lines: Vec<&str> = text.lines().collect();
    let from = line.saturating_sub(1).min(lines.len());
    let mut out = String::new();
    for (k, l) in lines[from..].iter().enumerate() {
        if k > 0 && l.trim_start().starts_with("[[") && l.replace(' ', "").starts_with("[[card]]") {
            break;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// A card-file text's error: line, column (0 when unknown) and message.
#[derive(Debug)]
pub struct CardError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl CardError {
    pub fn json(&self) -> Value {
        json!({ "line": self.line, "col": self.col, "message": self.message })
    }
    /// The message as the command line says it (`cards.toml:3:7: …`).
    pub fn text(&self) -> String {
        if self.line > 0 {
            format!("{TYPED_FILE}:{}:{}: {}", self.line, self.col, self.message)
        } else {
            format!("{TYPED_FILE}: {}", self.message)
        }
    }
}

/// The cards of a typed card-file text (none for a text without a
/// `[[card]]` table: comments and blank lines only), checked as `--cards`
/// checks a file, at most [`DATA_SLOTS`] of them, names once each.
pub fn parse_text(text: &str) -> Result<Vec<DataCard>, CardError> {
    if text.len() > MAX_CARD_TEXT {
        return Err(CardError {
            line: 0,
            col: 0,
            message: format!(
                "the card text is {} bytes; at most {} KiB",
                text.len(),
                MAX_CARD_TEXT / 1024
            ),
        });
    }
    let blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    if blank {
        return Ok(Vec::new());
    }
    let cards = data::parse_cards(TYPED_FILE, text).map_err(|e| positioned(&format!("{e:#}")))?;
    if cards.len() > DATA_SLOTS {
        return Err(CardError {
            line: 0,
            col: 0,
            message: format!(
                "{} cards; at most {DATA_SLOTS} data cards can be loaded at once",
                cards.len()
            ),
        });
    }
    for (i, c) in cards.iter().enumerate() {
        let key = crate::cards::normalize(&c.name);
        if let Some(first) = cards[..i]
            .iter()
            .find(|d| crate::cards::normalize(&d.name) == key)
        {
            let mut e = positioned(&format!(
                "{}: card '{}' is defined twice (first at {})",
                c.origin, c.name, first.origin
            ));
            e.message = e.message.replace(&format!("{TYPED_FILE}:"), "line ");
            return Err(e);
        }
    }
    Ok(cards)
}

/// `cards.toml:L:C: message` split into its parts.
fn positioned(msg: &str) -> CardError {
    let rest = msg
        .strip_prefix(TYPED_FILE)
        .and_then(|r| r.strip_prefix(':'));
    if let Some(rest) = rest {
        let mut it = rest.splitn(3, ':');
        if let (Some(l), Some(c), Some(m)) = (it.next(), it.next(), it.next()) {
            if let (Ok(line), Ok(col)) = (l.trim().parse(), c.trim().parse()) {
                return CardError {
                    line,
                    col,
                    message: m.trim().to_string(),
                };
            }
        }
        return CardError {
            line: 0,
            col: 0,
            message: rest.trim().to_string(),
        };
    }
    CardError {
        line: 0,
        col: 0,
        message: msg.to_string(),
    }
}

/// A card as the page shows it: name, cost, types, its text.
pub fn card_json(c: &DataCard) -> Value {
    json!({
        "name": c.name,
        "cost": c.info.cost,
        "types": format!("{:?}", c.info.types),
        "text": data::card_text(c),
        "signature": c.signature(),
        "line": c.origin.rsplit(':').nth(1).and_then(|l| l.parse::<usize>().ok()).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = "[[card]]\nname = \"Test Village\"\ncost = 3\ntypes = [\"Action\"]\ncards = 1\nactions = 2\n";

    #[test]
    fn typed_cards_parse_with_positions() {
        let cards = parse_text(CARD).unwrap();
        assert_eq!(cards.len(), 1);
        assert_eq!(cards[0].name, "Test Village");
        assert!(parse_text("# nothing yet\n\n").unwrap().is_empty());
        let e = parse_text(&CARD.replace("cost = 3", "cost = 99")).unwrap_err();
        assert_eq!((e.line, e.col), (3, 8), "{e:?}");
        assert!(e.message.contains("cost"), "{e:?}");
        let e = parse_text(&format!("{CARD}{CARD}")).unwrap_err();
        assert!(e.message.contains("defined twice"), "{e:?}");
        assert_eq!(e.line, 7, "{e:?}");
        let e = parse_text(&"#".repeat(MAX_CARD_TEXT + 1)).unwrap_err();
        assert!(e.message.contains("KiB"), "{e:?}");
    }

    #[test]
    fn a_card_section_ends_at_the_next_card() {
        let text = format!("# two\n{CARD}\n{}", CARD.replace("Test Village", "Other"));
        let s = card_section(&text, "f.toml:9:1");
        assert!(s.starts_with("[[card]]\nname = \"Other\""), "{s}");
        let s = card_section(&text, "f.toml:2:1");
        assert!(s.contains("Test Village") && !s.contains("Other"), "{s}");
    }
}
