//! `domsim serve`: the strategy workbench in the browser.
//!
//! One page (`page.html`, `page.js`, `page.css`, compiled into the binary:
//! nothing is fetched from elsewhere, it works offline) and a small JSON API
//! on axum:
//!
//! | route | what |
//! |---|---|
//! | `GET /` | the page (and `/app.js`, `/app.css`) |
//! | `GET /api/meta` | presets, Kingdom cards (for completion), the bots of the strategy folder, limits |
//! | `GET /api/bot/FILE` | the text of a bot of the strategy folder |
//! | `GET /api/random?sets=base&seed=N` | 10 random Kingdom cards |
//! | `POST /api/check` | each bot parsed and compiled for the kingdom: errors and warnings at line:column |
//! | `POST /api/run` | a batch of games, streamed as server-sent events |
//! | `POST /api/stop` | stop the client's batch (its results so far stay) |
//! | `POST /api/log` | one game, turn by turn |
//! | `POST /api/cards` | a card file's text parsed: its cards (with their text) or its error at line:column |
//! | `POST /api/ab` | variant A of the data cards against variant B, paired, streamed as server-sent events ([`ab`]) |
//! | `POST /api/play` | a game against the bots: replayed from its seed and the person's answers to the next question ([`play`]) |
//!
//! **Data cards** ([`cards`]): `domsim --cards FILE serve` reads the card
//! files once, at start, and the page's card editor starts with them; every
//! request may carry a card file's text (`cards`), parsed and checked as
//! `--cards` checks a file (at most 14 cards, [`cards::MAX_CARD_TEXT`]
//! bytes), and its cards are bound while the request checks or plays (one
//! set of cards bound at a time, first come first served; a request without
//! `cards` gets the files' cards).
//!
//! **A batch** plays games `0..n` of the seed in chunks (500 games, then
//! doubling up to 8192) through the simulator's runner, with the playtest
//! recorder in the same pass, exactly as `domsim sim --report` does. After
//! each chunk it sends a `progress` event (the win-rate table with its 95%
//! intervals) and, at most every 300 ms, a `charts` event (the report's own
//! chart sections, [`crate::stats::html::charts`]); at the end a `done`
//! event carries the CSV — the bytes `domsim sim -o` writes for the same
//! seed, games, kingdom and strategy files — and the HTML report. Chunks are
//! game-index ranges, so a batch stopped after `k` games has played games
//! `0..k`: its CSV is `domsim sim -n k`'s.
//!
//! **Limits** (a page anyone on the machine can reach must not be a way to
//! read files or to stall the machine): request bodies of at most
//! [`MAX_BODY`] bytes, at most [`MAX_GAMES`] games a batch, one batch per
//! client (a newer one cancels the older: the generation is a stop flag per
//! batch, checked by the runner before every game and between chunks), at
//! most [`MAX_RUNNING`] batches playing at once and [`MAX_QUEUED`] waiting
//! (more are refused with 503 at once), a typed strategy's `extends:`
//! confined to the strategy folder and the strategy search path
//! ([`crate::strategy::parse_within`]), and
//! on a loopback address only requests naming this machine in `Host` (a
//! web page elsewhere cannot reach the server through DNS rebinding). Bad
//! input is answered with a status 400 and a JSON `{"error": …}`; nothing a
//! request holds can panic the server.

mod ab;
mod cards;
mod play;

use crate::dominion::kingdoms::{KingdomConfig, KingdomSpec, DEFAULT_PRESET};
use crate::dominion::lineup::{CompiledLineup, Lineup, Loaded};
use crate::dominion::matches;
use crate::dominion::outputs;
use crate::engine::Kingdom;
use crate::report::EntrantInfo;
use crate::sim::{self, RunConfig};
use crate::stats::{self, html, PlaytestStats};
use crate::strategy::{self, StrategyError};
use anyhow::{anyhow, Context, Result};
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path as UrlPath, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify, Semaphore};

/// Largest request body accepted (a few strategies are a few KB).
pub const MAX_BODY: usize = 64 * 1024;
/// Most games of one batch.
pub const MAX_GAMES: u64 = 100_000;
/// Most rollouts a decision of a request's search seats together (the sum
/// of their budgets): a 2-player game costs about 0.06 to 0.12 ms of CPU
/// per unit of budget (results/SEARCH.md, "Speed"), so a game at this
/// bound about 0.1 to 0.25 s, and so does a replay of the play mode.
pub const MAX_SEARCH_BUDGET: u64 = 2_000;
/// Most games × search budget of one batch (an A/B counts its games
/// twice): 500 games at the default budget 500, about 15 to 30 s of CPU —
/// some 20 times a batch of the largest size without search seats.
/// `domsim sim` on the command line has no such bound.
pub const MAX_SEARCH_WORK: u64 = 250_000;
/// With search seats, a batch's first chunk is about this many games ×
/// budget (about half a second of CPU: the first results come soon), and
/// its chunks grow to at most [`SEARCH_CHUNK_WORK`].
const SEARCH_FIRST_WORK: u64 = 10_000;
const SEARCH_CHUNK_WORK: u64 = 100_000;
/// Batches playing at the same time (each uses every core).
pub const MAX_RUNNING: usize = 2;
/// Batches waiting for their turn; more are refused with 503.
pub const MAX_QUEUED: usize = 8;
/// Clients remembered (one entry each, for "one batch per client").
const MAX_CLIENTS: usize = 4096;
/// Games of a batch's first chunk (then doubling up to [`MAX_CHUNK`]).
const FIRST_CHUNK: u64 = 500;
const MAX_CHUNK: u64 = 8192;
/// Least time between two `charts` events of a batch.
const CHART_EVERY: Duration = Duration::from_millis(300);
/// How long a batch's last event (`done`, `cancelled`) waits for room in
/// a stream its client does not read.
const LAST_EVENT_WAIT: Duration = Duration::from_secs(30);
/// A batch that has not found a free slot within this time is told it is
/// `queued`.
const QUEUED_AFTER: Duration = Duration::from_millis(250);
/// Connections open at once (each holds a file descriptor; a client that
/// opens more waits for one to close): well below the usual limit of 1024
/// open files.
pub const MAX_CONNECTIONS: usize = 256;
/// A request's head must arrive within this time of the connection being
/// ready for it (also the idle time of a kept-alive connection).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A request's body must arrive and its answer start within this time.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// A connection whose client takes nothing of its answer for this long is
/// closed (an unread stream of results).
pub const WRITE_STALL: Duration = Duration::from_secs(60);

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const PAGE_CSS: &str = include_str!("page.css");

/// `domsim serve`'s options.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub port: u16,
    pub bind: IpAddr,
    pub open: bool,
    /// The strategy folder (default: `strategies/`, see [`crate::dominion::lineup::shipped`]).
    pub strategies: Option<PathBuf>,
    /// Card files (`--cards`): the card editor's first text.
    pub cards: Vec<PathBuf>,
    /// `--cards-only`: the cards of those files the editor starts with.
    pub cards_only: Option<String>,
}

/// How long a request waits for the data cards it needs while other
/// requests play with other cards.
const LEASE_WAIT: Duration = Duration::from_secs(20);

/// Why a batch stopped early.
const RUNNING: u8 = 0;
const SUPERSEDED: u8 = 1;
const STOPPED: u8 = 2;
const GONE: u8 = 3;

/// One batch's stop flag (checked by the runner before every game) and why
/// it was raised; `wake` frees a batch still waiting in the queue.
struct Batch {
    stop: AtomicBool,
    why: AtomicU8,
    wake: Notify,
}

impl Batch {
    fn new() -> Arc<Batch> {
        Arc::new(Batch {
            stop: AtomicBool::new(false),
            why: AtomicU8::new(RUNNING),
            wake: Notify::new(),
        })
    }
    fn cancel(&self, why: u8) {
        let _ = self
            .why
            .compare_exchange(RUNNING, why, Ordering::SeqCst, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.wake.notify_one();
    }
    fn why(&self) -> u8 {
        self.why.load(Ordering::SeqCst)
    }
}

/// The server's state.
struct App {
    /// The strategy folder as given (sources in the CSV name files by it,
    /// as `domsim sim DIR/FILE.dom` does).
    dir: PathBuf,
    /// The same folder, canonical: `extends:` may not leave it.
    root: PathBuf,
    /// The `*.dom` files of the folder, sorted.
    bots: Vec<String>,
    pool: rayon::ThreadPool,
    running: Arc<Semaphore>,
    /// Batches queued or running.
    admitted: AtomicUsize,
    /// The current batch of each client.
    clients: Mutex<HashMap<String, Arc<Batch>>>,
    /// Bound to a loopback address: only `Host: localhost` and the like.
    loopback: bool,
    css: String,
    /// The `--cards` files and the binding of the requests' data cards.
    desk: Arc<cards::Desk>,
}

/// The strategy folder when none is given: `strategies/` here, else in the
/// source tree this binary was built from.
fn default_dir() -> PathBuf {
    crate::dominion::strategy::search_path::shipped().unwrap_or_else(|| PathBuf::from("strategies"))
}

/// The bots the folder offers: `*.dom` files with plain names, and links
/// only if they lead to a file inside the folder (the rule `extends:`
/// follows). `root` is the folder, canonical.
fn list_bots(dir: &Path, root: &Path) -> Result<Vec<String>> {
    let mut bots: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("--strategies: cannot read the folder '{}'", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| f.ends_with(".dom") && valid_file_name(f))
        .filter(|f| inside(root, &dir.join(f)))
        .collect();
    bots.sort();
    Ok(bots)
}

/// Whether `path` is, once every link is followed, a file in `root`.
fn inside(root: &Path, path: &Path) -> bool {
    std::fs::canonicalize(path).is_ok_and(|p| p.starts_with(root) && p.is_file())
}

/// A bot's file name: a plain name ending in `.dom` (no folder), short.
fn valid_file_name(f: &str) -> bool {
    f.len() <= 64
        && f.len() > 4
        && f.ends_with(".dom")
        && !f.starts_with('.')
        && f.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '))
}

fn app(cfg: &ServeConfig) -> Result<App> {
    let dir = cfg.strategies.clone().unwrap_or_else(default_dir);
    let root = std::fs::canonicalize(&dir)
        .with_context(|| format!("--strategies: cannot read the folder '{}'", dir.display()))?;
    if !root.is_dir() {
        return Err(anyhow!("--strategies: '{}' is not a folder", dir.display()));
    }
    let bots = list_bots(&dir, &root)?;
    let desk = cards::Desk::new(&cfg.cards, cfg.cards_only.as_deref())?;
    Ok(App {
        desk,
        dir,
        root,
        bots,
        pool: sim::pool(0)?,
        running: Arc::new(Semaphore::new(MAX_RUNNING)),
        admitted: AtomicUsize::new(0),
        clients: Mutex::new(HashMap::new()),
        loopback: cfg.bind.is_loopback(),
        // The report's own style first (the charts are the report's), then
        // the page's layout over it.
        css: format!(
            "/* the report's style (src/stats/html.rs) */\n{}\n{PAGE_CSS}",
            html::STYLE
        ),
    })
}

/// The router of the server (every route, the body limit, the `Host` check).
fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/api/meta", get(meta))
        .route("/api/bot/{file}", get(bot_text))
        .route("/api/random", get(random_kingdom))
        .route("/api/check", post(check))
        .route("/api/run", post(run_batch))
        .route("/api/stop", post(stop))
        .route("/api/log", post(game_log))
        .route("/api/cards", post(parse_cards))
        .route("/api/play", post(play_game))
        .route("/api/ab", post(run_ab))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// `domsim serve`: bind, say where, serve until killed.
pub fn run(cfg: &ServeConfig) -> Result<ExitCode> {
    let app = Arc::new(app(cfg)?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    rt.block_on(async move {
        let addr = SocketAddr::new(cfg.bind, cfg.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        let host = if local.ip().is_loopback() && local.is_ipv4() {
            format!("127.0.0.1:{}", local.port())
        } else if local.is_ipv6() {
            format!("[{}]:{}", local.ip(), local.port())
        } else {
            local.to_string()
        };
        let url = format!("http://{host}/");
        // The first line says where: tests and scripts read the port from it.
        crate::output::console_write(
            format!(
                "domsim serve: listening on {url} (strategies from {}; Ctrl-C to stop)\n",
                app.dir.display()
            )
            .as_bytes(),
        )?;
        if !cfg.bind.is_loopback() {
            crate::errln!(
                "warning: listening on {}: anyone who can reach this address can run games on this machine",
                cfg.bind
            );
        }
        if cfg.open {
            open_browser(&url);
        }
        serve_connections(listener, router(app)).await;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Accept and serve connections for ever, each under the limits above:
/// at most [`MAX_CONNECTIONS`] at once, [`HEADER_TIMEOUT`] for a request's
/// head (hyper's timer), [`WRITE_STALL`] for a client that reads nothing
/// (`axum::serve` has no timeouts: a few hundred half-open connections used
/// to make the page unreachable).
async fn serve_connections(listener: tokio::net::TcpListener, router: Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was
            // accepted: wait a moment rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(StallGuard::new(stream, WRITE_STALL));
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            // A connection error (reset, timeout) ends only that connection.
            let _ = http.serve_connection(io, service).await;
            drop(slot);
        });
    }
}

/// A connection that fails its writes once one has made no progress for
/// `stall`: hyper has no write timeout, and a client that never reads
/// its stream would otherwise hold the connection for ever.
struct StallGuard {
    io: tokio::net::TcpStream,
    stall: Duration,
    timer: std::pin::Pin<Box<tokio::time::Sleep>>,
    armed: bool,
}

impl StallGuard {
    fn new(io: tokio::net::TcpStream, stall: Duration) -> StallGuard {
        StallGuard {
            io,
            stall,
            timer: Box::pin(tokio::time::sleep(stall)),
            armed: false,
        }
    }

    /// A write that could not proceed: pending until `stall` has passed
    /// since the first such write in a row, then an error.
    fn stalled<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<T>> {
        use std::future::Future;
        if !self.armed {
            let at = tokio::time::Instant::now() + self.stall;
            self.timer.as_mut().reset(at);
            self.armed = true;
        }
        match self.timer.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client has read nothing for too long",
            ))),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }

    fn progress<T>(
        &mut self,
        r: std::task::Poll<std::io::Result<T>>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<T>> {
        match r {
            std::task::Poll::Pending => self.stalled(cx),
            done => {
                self.armed = false;
                done
            }
        }
    }
}

impl tokio::io::AsyncRead for StallGuard {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for StallGuard {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let r = std::pin::Pin::new(&mut self.io).poll_write(cx, buf);
        self.progress(r, cx)
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let r = std::pin::Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.progress(r, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let r = std::pin::Pin::new(&mut self.io).poll_flush(cx);
        self.progress(r, cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Start the system's browser on `url` (`--open`); a failure is only said.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let r = std::process::Command::new(cmd)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if r.is_err() {
        crate::errln!("could not start a browser ({cmd}); open {url} by hand");
    }
}

// ---------------------------------------------------------------------------
// Errors and request bodies

/// An answer with a status and a JSON `{"error": …}` (plus details).
struct ApiError {
    status: StatusCode,
    body: Value,
}

impl ApiError {
    fn bad(msg: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body: json!({ "error": msg.into() }),
        }
    }
    fn status(status: StatusCode, msg: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: json!({ "error": msg.into() }),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// A JSON body whose rejections (not JSON, wrong fields, too large) are
/// answered as [`ApiError`]s.
struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(e) => Err(json_error(e)),
        }
    }
}

fn json_error(e: JsonRejection) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::status(
            status,
            format!("the request body is larger than {} KiB", MAX_BODY / 1024),
        );
    }
    let msg = match &e {
        JsonRejection::MissingJsonContentType(_) => {
            "the request body must be JSON (Content-Type: application/json)".to_string()
        }
        _ => format!("bad request body: {}", e.body_text()),
    };
    ApiError::status(
        if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
            status
        } else {
            StatusCode::BAD_REQUEST
        },
        msg,
    )
}

/// Every answer: the `Host` check on loopback, and headers that keep the
/// page to itself.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if app.loopback {
        let host = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !local_host(host) {
            return ApiError::status(
                StatusCode::FORBIDDEN,
                format!("this server answers requests for this machine only (Host: localhost or 127.0.0.1), not '{host}'"),
            )
            .into_response();
        }
    }
    // A body that trickles in (or an answer that never starts) ends here;
    // a stream of results, once started, is bounded by `WRITE_STALL`.
    let mut r = match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::status(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request did not arrive in full within {} s",
                REQUEST_TIMEOUT.as_secs()
            ),
        )
        .into_response(),
    };
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' blob:; frame-ancestors 'none'",
        ),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `Host` names this machine: localhost, 127.x.x.x or [::1], any port.
fn local_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

async fn not_found() -> ApiError {
    ApiError::status(StatusCode::NOT_FOUND, "no such page")
}

// ---------------------------------------------------------------------------
// The page

async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

async fn style(State(app): State<Arc<App>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        app.css.clone(),
    )
        .into_response()
}

async fn meta(State(app): State<Arc<App>>) -> Json<Value> {
    let presets: Vec<Value> = crate::dominion::presets::PRESETS
        .iter()
        .map(|p| {
            let missing = p.missing();
            json!({ "name": p.name, "cards": p.cards, "available": missing.is_empty() })
        })
        .collect();
    // Printed cards only: the data cards are the page's (its card editor).
    let cards: Vec<Value> = crate::cards::Card::PRINTED
        .iter()
        .filter(|c| c.is_kingdom())
        .map(|c| json!({ "name": c.name(), "set": c.info().set.name(), "cost": c.info().cost }))
        .collect();
    let defaults: Vec<&str> = ["big_money.dom", "smithy_big_money.dom"]
        .into_iter()
        .filter(|f| app.bots.iter().any(|b| b == f))
        .collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "presets": presets,
        "default_preset": DEFAULT_PRESET,
        "cards": cards,
        "sets": ["base", "intrigue", "dark-ages"],
        "bots": app.bots,
        "default_bots": defaults,
        "folder": app.dir.display().to_string(),
        "limits": { "max_games": MAX_GAMES, "max_body": MAX_BODY, "players": [2, 6],
            "max_card_text": cards::MAX_CARD_TEXT, "max_answers": play::MAX_ANSWERS,
            "max_ab_games": ab::MAX_AB_GAMES,
            "max_search_budget": MAX_SEARCH_BUDGET, "max_search_work": MAX_SEARCH_WORK,
            "search_budget": crate::search::SearchConfig::DEFAULT_BUDGET },
        "search_help": crate::dominion::lineup::SEARCH_HELP,
        "card_text": app.desk.start_text,
        "card_files": app.desk.start_files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
    }))
}

async fn bot_text(
    State(app): State<Arc<App>>,
    UrlPath(file): UrlPath<String>,
) -> Result<Response, ApiError> {
    // Only a file the listing offers: never a path built from the request.
    let Some(name) = app.bots.iter().find(|b| **b == file) else {
        return Err(ApiError::status(
            StatusCode::NOT_FOUND,
            format!("no bot '{file}' in the strategy folder (GET /api/meta lists them)"),
        ));
    };
    let text = read_bot(&app, name).ok_or_else(|| {
        ApiError::status(
            StatusCode::NOT_FOUND,
            format!("cannot read the bot '{name}'"),
        )
    })?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The text of a bot of the folder (None if unreadable or too large).
fn read_bot(app: &App, file: &str) -> Option<String> {
    // Checked again at each read: a link may have changed since the listing.
    let path = app.dir.join(file);
    if !inside(&app.root, &path) {
        return None;
    }
    let bytes = crate::output::read_capped(&path, strategy::MAX_FILE_BYTES).ok()?;
    String::from_utf8(bytes).ok()
}

#[derive(Deserialize)]
struct RandomQuery {
    #[serde(default = "base_set")]
    sets: String,
    #[serde(default)]
    seed: u64,
}

fn base_set() -> String {
    "base".into()
}

async fn random_kingdom(
    q: Result<Query<RandomQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    let sets = Kingdom::parse_sets(&q.sets).map_err(|e| ApiError::bad(format!("sets: {e}")))?;
    if sets.is_empty() {
        return Err(ApiError::bad("sets: no card set given"));
    }
    let k = Kingdom::random(2, &sets, q.seed).map_err(|e| ApiError::bad(format!("{e}")))?;
    let cards: Vec<&str> = k.kingdom_cards().iter().map(|c| c.name()).collect();
    Ok(Json(json!({ "cards": cards.join(", ") })))
}

// ---------------------------------------------------------------------------
// Kingdoms and bots of a request

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct KingdomReq {
    /// A preset by name.
    #[serde(default)]
    preset: Option<String>,
    /// Kingdom cards, comma-separated.
    #[serde(default)]
    cards: Option<String>,
    /// auto, on, off.
    #[serde(default)]
    shelters: Option<String>,
}

/// A seat's bot: a strategy (`file` and `text`), or the search bot
/// (`search`: its options, as after `search:` on the command line; `""`
/// for its defaults).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotReq {
    /// The file it is, or will be saved as: `NAME.dom` (its `extends:` are
    /// read from the strategy folder).
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    search: Option<String>,
}

/// What a [`BotReq`] is.
enum Seat<'a> {
    File { file: &'a str, text: &'a str },
    Search(&'a str),
}

impl BotReq {
    /// Bot `i`'s kind, or why the request is malformed.
    fn seat(&self, i: usize) -> Result<Seat<'_>, ApiError> {
        match (&self.file, &self.text, &self.search) {
            (Some(file), Some(text), None) => Ok(Seat::File { file, text }),
            (None, None, Some(opts)) => Ok(Seat::Search(opts)),
            _ => Err(ApiError::bad(format!(
                "bot {}: give \"file\" and \"text\" (a strategy), or \"search\" alone (the search bot's options, e.g. \"budget=200\"; \"\" for its defaults)",
                i + 1
            ))),
        }
    }
}

/// Longest search options accepted.
const MAX_SEARCH_OPTIONS: usize = 1024;

/// The search bot of a seat: `opts` as after `search:` on the command line
/// (`lineup::SEARCH_HELP`). A strategy file an option names (`rollout=`,
/// `opponent=`) must be a bot of the strategy folder, by its file name —
/// the request names no path —, and the budget is at most
/// [`MAX_SEARCH_BUDGET`]. The error is a sentence without the bot's number.
fn search_entrant(app: &App, opts: &str) -> Result<(EntrantInfo, Loaded), String> {
    if opts.len() > MAX_SEARCH_OPTIONS {
        return Err(format!(
            "search options of {} bytes; at most {MAX_SEARCH_OPTIONS}",
            opts.len()
        ));
    }
    let mut parts = Vec::new();
    for part in opts.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let file_option = part
            .split_once('=')
            .map(|(n, v)| (n.trim(), v.trim()))
            .filter(|(n, v)| {
                matches!(*n, "rollout" | "opponent") && !matches!(*v, "" | "auto" | "same")
            });
        match file_option {
            Some((name, v)) => {
                if !app.bots.iter().any(|b| b == v) || !inside(&app.root, &app.dir.join(v)) {
                    return Err(format!(
                        "search option {name}={}: name a bot of the strategy folder by its file name (GET /api/meta lists them), or auto{}",
                        v.chars().take(80).collect::<String>(),
                        if name == "opponent" { " or same" } else { "" }
                    ));
                }
                parts.push(format!("{name}={}", app.dir.join(v).display()));
            }
            None => parts.push(part.to_string()),
        }
    }
    let spec = if parts.is_empty() {
        "search".to_string()
    } else {
        format!("search:{}", parts.join(","))
    };
    let loaded = crate::dominion::lineup::load_search(&spec)
        .unwrap_or_else(|| Err(anyhow!("not a search entry")))
        .map_err(|e| format!("{e:#}"))?;
    if let Loaded::Search(s) = &loaded.1 {
        if u64::from(s.cfg.budget) > MAX_SEARCH_BUDGET {
            return Err(format!(
                "search budget {} is above the {MAX_SEARCH_BUDGET} rollouts a decision this server allows (a game at budget B takes about B × 0.1 ms of CPU; domsim sim on the command line has no such bound)",
                s.cfg.budget
            ));
        }
    }
    Ok(loaded)
}

/// The search seats' budgets of `lineup`, added up (0: no search seat).
fn search_budget(lineup: &Lineup) -> u64 {
    lineup
        .entrants
        .iter()
        .map(|(_, l)| match l {
            Loaded::Search(s) => u64::from(s.cfg.budget),
            _ => 0,
        })
        .sum()
}

/// The bound of a batch of `games` (`plays` times each: an A/B plays
/// every game twice) with search seats of `budget` rollouts a decision in
/// all: games × budget at most [`MAX_SEARCH_WORK`].
fn search_work_bound(games: u64, plays: u64, budget: u64) -> Result<(), ApiError> {
    if budget == 0 || games.saturating_mul(plays).saturating_mul(budget) <= MAX_SEARCH_WORK {
        return Ok(());
    }
    let most = (MAX_SEARCH_WORK / (plays * budget)).max(1);
    Err(ApiError::bad(format!(
        "games: {games} games{} with search seats of budget {budget} in all is {} games × budget; a batch allows at most {MAX_SEARCH_WORK} (about 0.1 ms of CPU each): play at most {most} games, or give the search seats a lower budget (budget=N); domsim sim on the command line has no such bound",
        if plays > 1 { " per variant" } else { "" },
        games.saturating_mul(plays).saturating_mul(budget)
    )))
}

/// A batch's first chunk and largest chunk of games: fewer games with
/// search seats (`budget` in all), so that results come about as often.
fn chunk_sizes(budget: u64, first: u64, most: u64) -> (u64, u64) {
    if budget == 0 {
        return (first, most);
    }
    (
        (SEARCH_FIRST_WORK / budget).clamp(1, first),
        (SEARCH_CHUNK_WORK / budget).clamp(1, most),
    )
}

/// The kingdom of a request, as `domsim sim --preset/--kingdom` chooses it.
fn kingdom_of(k: &KingdomReq, players: usize) -> Result<KingdomConfig, ApiError> {
    let shelters = k.shelters.clone().unwrap_or_else(|| "auto".into());
    if !["auto", "on", "off"].contains(&shelters.as_str()) {
        return Err(ApiError::bad(format!(
            "shelters: '{shelters}' is not auto, on or off"
        )));
    }
    let cards = k.cards.as_deref().map(str::trim).filter(|c| !c.is_empty());
    if cards.is_some() && k.preset.is_some() {
        return Err(ApiError::bad("kingdom: give a preset or cards, not both"));
    }
    let spec = KingdomSpec {
        kingdom: cards.map(str::to_string),
        preset: k.preset.clone(),
        sets: None,
        shelters,
        ..Default::default()
    };
    let mut kc = KingdomConfig::from_spec(&spec, players, 1, &[])
        .map_err(|e| ApiError::bad(api_words(&format!("{e:#}"))))?;
    kc.how = api_words(&kc.how);
    Ok(kc)
}

/// A message of the command line's kingdom options in the API's words:
/// the request fields `preset` and `cards`, and no `--fill` (the API has
/// none).
fn api_words(msg: &str) -> String {
    msg.replace("--preset: ", "preset: ")
        .replace("--kingdom: ", "cards: ")
        .replace("; --fill completes it", "")
}

/// A bot of a request, parsed (its `extends:` confined to the folder).
struct ParsedBot {
    info: EntrantInfo,
    parsed: Result<strategy::Strategy, StrategyError>,
    /// The name its errors, warnings and `--explain` positions give it:
    /// the folder's path for a file of the folder sent back unchanged,
    /// else its own file name (see [`own_name`]).
    shown: String,
}

/// A typed bot named by its own file name: the folder's file of that
/// name, if there is one, is not this text, so an error, a warning or an
/// `--explain` position at line L of this text names `FILE.dom:L:C` (the
/// file the page downloads and its command line names), never
/// `DIR/FILE.dom`. `shown` is the path it was parsed as (its `extends:`
/// are read from the folder); the files it extends keep their paths.
fn own_name(
    parsed: Result<strategy::Strategy, StrategyError>,
    shown: &str,
    file: &str,
) -> Result<strategy::Strategy, StrategyError> {
    match parsed {
        Ok(mut st) => {
            if let Some(f) = st.files.first_mut().filter(|f| *f == shown) {
                *f = file.to_string();
            }
            Ok(st)
        }
        Err(mut e) => {
            if e.file == shown {
                e.file = file.to_string();
            }
            Err(e)
        }
    }
}

fn parse_bot(app: &App, file: &str, text: &str) -> Result<ParsedBot, ApiError> {
    if !valid_file_name(file) {
        return Err(ApiError::bad(format!(
            "bot file name '{}' is not a plain NAME.dom (letters, digits, _ - . and spaces; no folder)",
            file.chars().take(80).collect::<String>()
        )));
    }
    let path = app.dir.join(file);
    let shown = path.display().to_string();
    // A bot of the folder sent back unchanged is that file, named as
    // `domsim sim DIR/FILE.dom` names it; an edited one is marked typed.
    let same = app.bots.iter().any(|b| b == file) && read_bot(app, file).as_deref() == Some(text);
    let parsed = strategy::parse_within(text, &shown, &app.root);
    let parsed = if same {
        parsed
    } else {
        own_name(parsed, &shown, file)
    };
    let info = EntrantInfo {
        name: parsed.as_ref().map_or_else(
            |_| file.trim_end_matches(".dom").to_string(),
            |s| s.name.clone(),
        ),
        source: if same {
            shown.clone()
        } else {
            format!("typed:{file}")
        },
        hash: parsed
            .as_ref()
            .map_or_else(|_| String::new(), |s| format!("{:016x}", s.source_hash)),
    };
    let shown = if same { shown } else { file.to_string() };
    Ok(ParsedBot {
        info,
        parsed,
        shown,
    })
}

/// An error of bot `i` as JSON: where it is (line and column in this bot's
/// text, or another file it extends) and the message.
/// A 400 answer for bot `i`'s parse or compile error, with its position.
fn bot_error(i: usize, file: &str, shown: &str, e: &StrategyError) -> ApiError {
    let mut body = error_json(i, file, shown, e);
    body["error"] = json!(format!(
        "bot {} ({file}): {}",
        i + 1,
        body["text"].as_str().unwrap_or("")
    ));
    ApiError {
        status: StatusCode::BAD_REQUEST,
        body,
    }
}

fn error_json(i: usize, file: &str, shown: &str, e: &StrategyError) -> Value {
    let here = e.file == shown;
    json!({
        "bot": i,
        "line": if here { e.line } else { 0 },
        "col": if here { e.col } else { 0 },
        "width": e.width,
        "message": if here || e.file.is_empty() { e.msg.clone() } else { format!("in {}: {}", e.file, e.msg) },
        "text": e.to_string().replacen(shown, file, 1),
    })
}

/// A compiler or lint warning (`FILE:LINE:COL: warning: …`) as JSON.
fn warning_json(shown: &str, w: &str) -> Value {
    let rest = w.strip_prefix(shown).and_then(|r| r.strip_prefix(':'));
    let mut line = 0;
    let mut col = 0;
    let mut msg = w.to_string();
    if let Some(rest) = rest {
        let mut it = rest.splitn(3, ':');
        if let (Some(l), Some(c), Some(m)) = (it.next(), it.next(), it.next()) {
            if let (Ok(l), Ok(c)) = (l.trim().parse(), c.trim().parse()) {
                line = l;
                col = c;
                msg = m.trim().trim_start_matches("warning:").trim().to_string();
            }
        } else {
            msg = rest
                .trim()
                .trim_start_matches("warning:")
                .trim()
                .to_string();
        }
    }
    json!({ "line": line, "col": col, "message": msg })
}

/// Everything a batch or a game log needs, validated.
struct Setup {
    kc: KingdomConfig,
    kingdom: Kingdom,
    lineup: Lineup,
    compiled: CompiledLineup,
    /// The search seats' budgets added up ([`search_budget`]; 0: none).
    search_budget: u64,
    /// The data cards, bound while this lives.
    cards: Leased,
}

/// A request's data cards, bound: the lease, the cards, and how the
/// command line names their file.
struct Leased {
    _lease: cards::Lease,
    cards: Vec<crate::cards::data::DataCard>,
    /// ` --cards FILE…` for the suggested command line (empty without).
    flags: String,
}

/// The data cards of a request (its `cards` text, or the `--cards` files'
/// when it has none), parsed and bound; `give_up` ends the wait for them.
fn lease_cards(
    app: &App,
    text: Option<&str>,
    give_up: &dyn Fn() -> bool,
) -> Result<Leased, ApiError> {
    let start = text.is_none_or(|t| t == app.desk.start_text);
    let list = match text {
        Some(t) if !start => cards::parse_text(t).map_err(|e| ApiError {
            status: StatusCode::BAD_REQUEST,
            body: json!({ "error": format!("cards: {}", e.text()), "card_error": e.json() }),
        })?,
        _ => app.desk.start_cards.clone(),
    };
    let flags = if list.is_empty() {
        String::new()
    } else if start {
        app.desk.start_flags.clone()
    } else {
        format!(" --cards {}", cards::TYPED_FILE)
    };
    let lease = app.desk.lease(&list, give_up).map_err(|e| match e {
        cards::LeaseError::Busy => ApiError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is playing other data cards for another request: try again when it is done",
        ),
        cards::LeaseError::Bind(m) => {
            ApiError::status(StatusCode::SERVICE_UNAVAILABLE, format!("cards: {m}"))
        }
    })?;
    Ok(Leased {
        _lease: lease,
        cards: list,
        flags,
    })
}

fn setup(
    app: &App,
    kingdom: &KingdomReq,
    bots: &[BotReq],
    card_text: Option<&str>,
) -> Result<Setup, ApiError> {
    let players = bots.len();
    if !(2..=6).contains(&players) {
        return Err(ApiError::bad(format!(
            "players: {players} bots given; a game has 2 to 6 players (one bot per seat)"
        )));
    }
    let leased = lease_cards(app, card_text, &cards::within(LEASE_WAIT))?;
    let kc = kingdom_of(kingdom, players)?;
    let mut entrants = Vec::new();
    for (i, b) in bots.iter().enumerate() {
        let (file, text) = match b.seat(i)? {
            Seat::File { file, text } => (file, text),
            Seat::Search(opts) => {
                let e = search_entrant(app, opts)
                    .map_err(|e| ApiError::bad(format!("bot {} (search): {e}", i + 1)))?;
                entrants.push(e);
                continue;
            }
        };
        let p = parse_bot(app, file, text)?;
        let shown = &p.shown;
        match p.parsed {
            Ok(st) => {
                if let Err(e) = st.compile(&kc.kingdom) {
                    return Err(bot_error(i, file, shown, &e));
                }
                entrants.push((p.info, Loaded::File(Box::new(st))));
            }
            Err(e) => return Err(bot_error(i, file, shown, &e)),
        }
    }
    let lineup = Lineup::from_entrants(entrants);
    let search_budget = search_budget(&lineup);
    if search_budget > MAX_SEARCH_BUDGET {
        return Err(ApiError::bad(format!(
            "search: the search seats' budgets add up to {search_budget} rollouts a decision; a request allows at most {MAX_SEARCH_BUDGET} in all (a game at budget B takes about B × 0.1 ms of CPU): give them lower budgets (budget=N)"
        )));
    }
    let k = lineup.kingdom_for(&kc.kingdom);
    let compiled = lineup
        .compile(&k)
        .map_err(|e| ApiError::bad(format!("{e:#}")))?;
    Ok(Setup {
        kc,
        kingdom: k,
        lineup,
        compiled,
        search_budget,
        cards: leased,
    })
}

// ---------------------------------------------------------------------------
// Check

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    #[serde(default)]
    kingdom: KingdomReq,
    bots: Vec<BotReq>,
    /// A card file's text (None: the `--cards` files').
    #[serde(default)]
    cards: Option<String>,
}

/// Each bot parsed and compiled against the kingdom; errors and warnings
/// at their line and column. Answers 200 with the diagnosis (a checker's
/// findings are its answer); 400 only for a malformed request.
async fn check(
    State(app): State<Arc<App>>,
    Body(req): Body<CheckReq>,
) -> Result<Json<Value>, ApiError> {
    off_thread("the check failed", move || check_now(&app, &req)).await
}

/// Run `f` (a request's game work: setup, compiling, playing) on the
/// blocking pool, not on the async workers; a panic inside it (a bug)
/// becomes a 500 saying `what`, never a dropped connection.
async fn off_thread<T: Send + 'static>(
    what: &'static str,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|_| ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, what))?
}

fn check_now(app: &App, req: &CheckReq) -> Result<Json<Value>, ApiError> {
    if req.bots.is_empty() || req.bots.len() > 6 {
        return Err(ApiError::bad(format!(
            "players: {} bots given; a game has 2 to 6 players (one bot per seat)",
            req.bots.len()
        )));
    }
    let players = req.bots.len().max(2);
    let leased = lease_cards(app, req.cards.as_deref(), &cards::within(LEASE_WAIT))?;
    let kingdom = kingdom_of(&req.kingdom, players);
    let mut out = Vec::new();
    for (i, b) in req.bots.iter().enumerate() {
        let (file, text) = match b.seat(i)? {
            Seat::File { file, text } => (file, text),
            Seat::Search(opts) => {
                out.push(match search_entrant(app, opts) {
                    Ok((info, _)) => json!({
                        "search": true, "name": info.name, "source": info.source,
                        "ok": true, "errors": [], "warnings": [],
                    }),
                    Err(e) => json!({
                        "search": true, "name": "Search", "source": "search", "ok": false,
                        "errors": [{ "bot": i, "line": 0, "col": 0, "width": 0, "message": e,
                            "text": format!("bot {} (search): {e}", i + 1) }],
                        "warnings": [],
                    }),
                });
                continue;
            }
        };
        let p = parse_bot(app, file, text)?;
        let shown = p.shown.clone();
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        match &p.parsed {
            Err(e) => errors.push(error_json(i, file, &shown, e)),
            Ok(st) => {
                if let Ok(kc) = &kingdom {
                    let k = {
                        let mut k = kc.kingdom;
                        k.track_turn |= st.uses_turn_counters();
                        k
                    };
                    match st.compile(&k) {
                        Err(e) => errors.push(error_json(i, file, &shown, &e)),
                        Ok((_, mut w)) => {
                            w.extend(strategy::lint::lint(st, &kc.kingdom));
                            st.in_line_order(&mut w);
                            warnings.extend(w.iter().map(|w| warning_json(&shown, w)));
                        }
                    }
                }
            }
        }
        out.push(json!({
            "file": file,
            "name": p.info.name,
            "source": p.info.source,
            "ok": errors.is_empty(),
            "errors": errors,
            "warnings": warnings,
        }));
    }
    let k = match &kingdom {
        Ok(kc) => json!({ "ok": true, "describe": kc.kingdom.describe(), "how": kc.how,
            "cards": kc.kingdom.kingdom_cards().iter().map(|c| c.name()).collect::<Vec<_>>() }),
        Err(e) => json!({ "ok": false, "error": e.body["error"] }),
    };
    let data: Vec<Value> = leased.cards.iter().map(cards::card_json).collect();
    Ok(Json(json!({ "kingdom": k, "bots": out, "cards": data })))
}

// ---------------------------------------------------------------------------
// Game log

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogReq {
    #[serde(default)]
    kingdom: KingdomReq,
    bots: Vec<BotReq>,
    #[serde(default = "one", deserialize_with = "seed_any")]
    seed: u64,
    #[serde(default)]
    game: u64,
    #[serde(default)]
    explain: bool,
    #[serde(default)]
    cards: Option<String>,
}

fn one() -> u64 {
    1
}

/// A seed given as a JSON number or as a string of decimal digits: the page
/// sends a string, because a JavaScript number holds integers exactly only
/// up to 2^53 and seeds go up to 2^64 − 1.
fn seed_any<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Number(u64),
        Text(String),
    }
    match Seed::deserialize(d) {
        Ok(Seed::Number(n)) => Ok(n),
        Ok(Seed::Text(t)) => t.trim().parse::<u64>().map_err(|_| {
            serde::de::Error::custom(format!(
                "seed {t:?} is not a whole number from 0 to {}",
                u64::MAX
            ))
        }),
        Err(_) => Err(serde::de::Error::custom(format!(
            "seed: give a whole number from 0 to {} (a number or a string of digits)",
            u64::MAX
        ))),
    }
}

async fn game_log(
    State(app): State<Arc<App>>,
    Body(req): Body<LogReq>,
) -> Result<Response, ApiError> {
    let text = off_thread("the game failed", move || {
        let s = setup(&app, &req.kingdom, &req.bots, req.cards.as_deref())?;
        Ok(outputs::game_log(
            &s.lineup,
            &s.compiled,
            &s.kc,
            &s.kingdom,
            req.seed,
            req.game,
            req.explain,
        ))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

// ---------------------------------------------------------------------------
// Data cards typed in the page

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsReq {
    text: String,
}

/// A card file's text parsed (no binding, no game): its cards with their
/// card text, or its error at line and column. Answers 200 with the
/// diagnosis, as `/api/check` does.
async fn parse_cards(Body(req): Body<CardsReq>) -> Json<Value> {
    Json(match cards::parse_text(&req.text) {
        Ok(list) => json!({
            "ok": true,
            "cards": list.iter().map(cards::card_json).collect::<Vec<_>>(),
        }),
        Err(e) => json!({ "ok": false, "cards": [], "error": e.json(), "text": e.text() }),
    })
}

// ---------------------------------------------------------------------------
// Play against the bots

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayReq {
    #[serde(default)]
    kingdom: KingdomReq,
    /// One bot per seat, in seat order (seat 1 plays first); the person's
    /// seat's bot is the advisor (its answer is suggested; it finishes a
    /// replay after the question).
    bots: Vec<BotReq>,
    /// The person's seat, 0-based.
    seat: usize,
    #[serde(default = "one", deserialize_with = "seed_any")]
    seed: u64,
    #[serde(default)]
    cards: Option<String>,
    /// The person's answers so far, in order ([`play`]).
    #[serde(default)]
    answers: Vec<String>,
}

/// A game against the bots, replayed from its seed and the person's
/// answers to the next question (or to its end).
async fn play_game(
    State(app): State<Arc<App>>,
    Body(req): Body<PlayReq>,
) -> Result<Json<Value>, ApiError> {
    off_thread("the game failed", move || play_now(&app, &req)).await
}

fn play_now(app: &App, req: &PlayReq) -> Result<Json<Value>, ApiError> {
    if req.seat >= req.bots.len() {
        return Err(ApiError::bad(format!(
            "seat: {} is not a seat of this {}-player game (0 to {})",
            req.seat,
            req.bots.len(),
            req.bots.len().saturating_sub(1)
        )));
    }
    let s = setup(app, &req.kingdom, &req.bots, req.cards.as_deref())?;
    let n = s.kingdom.n();
    let order: Vec<u8> = (0..n as u8).collect();
    let names: Vec<String> = (1..=n).map(|p| format!("P{p}")).collect();
    let seat = req.seat as u8;
    let r = play::replay(
        &s.kingdom,
        req.seed,
        0,
        s.compiled.bots(&order),
        seat,
        &names,
        &req.answers,
        crate::dominion::lineup::MixedBots::stop_searching,
    )
    .map_err(ApiError::bad)?;
    let infos = s.lineup.infos();
    let mut head = format!(
        "A game against the bots (domsim serve), seed {}, {n} players, kingdom ({}): {}\n",
        req.seed,
        s.kc.how,
        s.kingdom.describe()
    );
    for (p, info) in infos.iter().enumerate() {
        let who = if p == req.seat {
            format!("you (advised by {} [{}])", info.name, info.source)
        } else {
            format!("{} [{}]", info.name, info.source)
        };
        head.push_str(&format!("  P{} (seat {}): {who}\n", p + 1, p + 1));
    }
    for c in &s.cards.cards {
        head.push_str(&format!("  data card: {}\n", c.signature()));
    }
    head.push_str(&format!(
        "  answers of P{} ({}): {}\n",
        req.seat + 1,
        req.answers.len(),
        req.answers.join(" | ")
    ));
    Ok(Json(json!({
        "question": r.question,
        "view": r.view,
        "log": format!("{head}{}", r.log),
        "outcome": r.outcome,
        "answers": req.answers.len(),
        "names": names,
        "bots": infos.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
    })))
}

// ---------------------------------------------------------------------------
// Batches

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunReq {
    /// Who asks: one batch per client (a newer one cancels the older).
    client: String,
    #[serde(default)]
    kingdom: KingdomReq,
    bots: Vec<BotReq>,
    games: u64,
    #[serde(default = "one", deserialize_with = "seed_any")]
    seed: u64,
    #[serde(default)]
    cards: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopReq {
    client: String,
}

fn valid_client(c: &str) -> Result<(), ApiError> {
    if c.is_empty()
        || c.len() > 64
        || !c
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
    {
        return Err(ApiError::bad(
            "client: an id of 1 to 64 letters, digits, - or _",
        ));
    }
    Ok(())
}

async fn stop(
    State(app): State<Arc<App>>,
    Body(req): Body<StopReq>,
) -> Result<Json<Value>, ApiError> {
    valid_client(&req.client)?;
    let b = app
        .clients
        .lock()
        .ok()
        .and_then(|m| m.get(&req.client).cloned());
    let stopped = b.is_some_and(|b| {
        b.cancel(STOPPED);
        true
    });
    Ok(Json(json!({ "stopped": stopped })))
}

/// Frees a batch's place in the queue and its client's slot, however the
/// batch ends.
struct Admission {
    app: Arc<App>,
    client: String,
    batch: Arc<Batch>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.app.admitted.fetch_sub(1, Ordering::SeqCst);
        if let Ok(mut m) = self.app.clients.lock() {
            if m.get(&self.client)
                .is_some_and(|b| Arc::ptr_eq(b, &self.batch))
            {
                m.remove(&self.client);
            }
        }
    }
}

async fn run_batch(
    State(app): State<Arc<App>>,
    Body(req): Body<RunReq>,
) -> Result<Response, ApiError> {
    valid_client(&req.client)?;
    if req.games == 0 || req.games > MAX_GAMES {
        return Err(ApiError::bad(format!(
            "games: {} is out of range (1 to {MAX_GAMES} a batch)",
            req.games
        )));
    }
    supersede(&app, &req.client);
    let app2 = app.clone();
    let (req, s) = tokio::task::spawn_blocking(move || {
        let s = setup(&app2, &req.kingdom, &req.bots, req.cards.as_deref());
        (req, s)
    })
    .await
    .map_err(|_| ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, "the setup failed"))?;
    let s = s?;
    search_work_bound(req.games, 1, s.search_budget)?;
    let client = req.client.clone();
    stream_batch(app, client, move |app, batch, tx, permit| {
        play(app, &s, &req, batch, tx, permit)
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbReq {
    client: String,
    #[serde(default)]
    kingdom: KingdomReq,
    bots: Vec<BotReq>,
    /// Games per variant.
    games: u64,
    #[serde(default = "one", deserialize_with = "seed_any")]
    seed: u64,
    /// Variant A: a card file's text (None: the `--cards` files').
    #[serde(default)]
    cards: Option<String>,
    /// Variant B: the same cards, other definitions.
    cards_b: String,
    /// The card measured (default: the first of A in the kingdom).
    #[serde(default)]
    card: Option<String>,
}

/// A/B of a data card: variant A's games and B's, paired, streamed.
async fn run_ab(State(app): State<Arc<App>>, Body(req): Body<AbReq>) -> Result<Response, ApiError> {
    valid_client(&req.client)?;
    if req.games == 0 || req.games > ab::MAX_AB_GAMES {
        return Err(ApiError::bad(format!(
            "games: {} is out of range (1 to {} a comparison, each played with both variants)",
            req.games,
            ab::MAX_AB_GAMES
        )));
    }
    let cards_b = cards::parse_text(&req.cards_b).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        body: json!({ "error": format!("cards_b: {}", e.text().replacen(cards::TYPED_FILE, "b.toml", 1)), "card_error_b": e.json() }),
    })?;
    supersede(&app, &req.client);
    let app2 = app.clone();
    let (req, r) = tokio::task::spawn_blocking(move || {
        let r = (|| {
            let s = setup(&app2, &req.kingdom, &req.bots, req.cards.as_deref())?;
            ab::same_names(&s.cards.cards, &cards_b)?;
            let card = ab::chosen_card(&s, req.card.as_deref())?;
            Ok::<_, ApiError>((s, card, cards_b))
        })();
        (req, r)
    })
    .await
    .map_err(|_| ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, "the setup failed"))?;
    let (s, card, cards_b) = r?;
    search_work_bound(req.games, 2, s.search_budget)?;
    let command = command_of(
        &s,
        &req.kingdom,
        &format!(
            "domsim compare --a a.toml --b b.toml --card {}",
            crate::output::shell_word(card.name())
        ),
        &format!(" -n {{games}} --seed {}", req.seed),
        " -o compare.csv",
    );
    let plan = ab::AbPlan {
        cards_a: s.cards.cards.clone(),
        cards_b,
        card,
        games: req.games,
        seed: req.seed,
        command,
    };
    stream_batch(app, req.client.clone(), move |app, batch, tx, permit| {
        ab::play_ab(app, s, &plan, batch, tx, permit)
    })
}

/// A client's previous batch ends now, before a new one waits for its
/// data cards (which that batch may hold bound with other cards).
fn supersede(app: &App, client: &str) {
    if let Some(old) = app.clients.lock().ok().and_then(|m| m.get(client).cloned()) {
        old.cancel(SUPERSEDED);
    }
}

/// Admit a batch of `client` (a place in the queue; it replaces the
/// client's previous batch), play it with `work` on a blocking thread once
/// a slot is free, and stream its events; `work`'s last event is sent
/// even to a slow reader (for a while).
fn stream_batch<W>(app: Arc<App>, client: String, work: W) -> Result<Response, ApiError>
where
    W: FnOnce(
            &App,
            &Batch,
            &mpsc::Sender<Event>,
            tokio::sync::OwnedSemaphorePermit,
        ) -> Option<Event>
        + Send
        + 'static,
{
    let admitted = app.admitted.fetch_add(1, Ordering::SeqCst);
    let batch = Batch::new();
    let guard = Admission {
        app: app.clone(),
        client: client.clone(),
        batch: batch.clone(),
    };
    if admitted >= MAX_RUNNING + MAX_QUEUED {
        drop(guard);
        return Err(ApiError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server is busy ({MAX_RUNNING} batches playing, {MAX_QUEUED} waiting): try again in a moment"),
        ));
    }
    {
        let mut m = app
            .clients
            .lock()
            .map_err(|_| ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, "state poisoned"))?;
        if let Some(old) = m.insert(client.clone(), batch.clone()) {
            old.cancel(SUPERSEDED);
        }
        if m.len() > MAX_CLIENTS {
            m.retain(|_, b| !b.stop.load(Ordering::SeqCst));
        }
    }
    let (tx, rx) = mpsc::channel::<Event>(32);
    tokio::spawn(async move {
        // `queued` only if no slot frees within a moment: a batch that
        // replaces its client's previous one waits for that one to notice
        // and end, which is not waiting for a slot.
        let acquire = app.running.clone().acquire_owned();
        tokio::pin!(acquire);
        let mut announced = false;
        let permit = loop {
            tokio::select! {
                p = &mut acquire => break p.ok(),
                _ = batch.wake.notified() => break None,
                _ = tx.closed() => { batch.cancel(GONE); break None }
                _ = tokio::time::sleep(QUEUED_AFTER), if !announced => {
                    announced = true;
                    let _ = tx
                        .send(event(
                            "queued",
                            &json!({ "message": "waiting for a free slot" }),
                        ))
                        .await;
                }
            }
        };
        let Some(permit) = permit else {
            // Replaced or stopped while waiting: the stream still ends
            // with an event that says so (the page leaves "waiting").
            let why = batch.why();
            drop(guard);
            let message = match why {
                SUPERSEDED => "a newer batch replaced this one",
                STOPPED => "stopped before it started",
                _ => return,
            };
            let last = event(
                "cancelled",
                &json!({ "message": message, "games": 0, "stopped": why == STOPPED }),
            );
            let _ = tokio::time::timeout(LAST_EVENT_WAIT, tx.send(last)).await;
            return;
        };
        let tx2 = tx.clone();
        let last = tokio::task::spawn_blocking(move || {
            let last = work(&app, &batch, &tx2, permit);
            // The place in the queue is free once the games are played,
            // not once a client that may never read has taken the result.
            drop(guard);
            last
        })
        .await;
        if let Ok(Some(last)) = last {
            let _ = tokio::time::timeout(LAST_EVENT_WAIT, tx.send(last)).await;
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|e| (Ok::<_, Infallible>(e), rx))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn event(name: &str, data: &Value) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name).data("{}"))
}

/// The win-rate table of `stats` (rows as `domsim sim` prints them).
fn table_json(stats: &matches::Stats, infos: &[EntrantInfo]) -> Value {
    let rows: Vec<Value> = crate::report::rows(stats, infos)
        .iter()
        .map(|r| {
            let (lo, hi) = sim::wilson(r.s.score_wins(), r.s.games);
            json!({
                "name": r.info.name,
                "source": r.info.source,
                "games": r.s.games,
                "wins": r.s.wins,
                "ties": r.s.ties,
                "losses": r.s.losses,
                "score": r.score(),
                "score_lo": lo,
                "score_hi": hi,
                "win_rate": r.win_rate(),
                "avg_vp": r.avg_vp(),
                "avg_turns": r.avg_turns(),
            })
        })
        .collect();
    json!(rows)
}

/// The command line that gives the same games (and, for files of the
/// folder, the same CSV byte for byte).
fn command_line(s: &Setup, req: &RunReq, games: u64) -> String {
    command_of(
        s,
        &req.kingdom,
        &format!("domsim{} sim", s.cards.flags),
        &format!(" -p {} -n {games} --seed {}", s.kingdom.n(), req.seed),
        " -o table.csv",
    )
}

/// `head FILES… middle [--preset P | --kingdom K] [--shelters S] tail`:
/// the bots of `s` by their files, the kingdom as requested.
fn command_of(s: &Setup, kingdom: &KingdomReq, head: &str, middle: &str, tail: &str) -> String {
    let q = |x: &str| {
        if x.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:".contains(c))
        {
            x.to_string()
        } else {
            format!("'{}'", x.replace('\'', "'\\''"))
        }
    };
    let files: Vec<String> = s
        .lineup
        .entrants
        .iter()
        .map(|(i, _)| q(i.source.strip_prefix("typed:").unwrap_or(&i.source)))
        .collect();
    let mut c = format!("{head} {}{middle}", files.join(" "));
    match (&kingdom.preset, &kingdom.cards) {
        (Some(p), _) => c.push_str(&format!(" --preset {}", q(p))),
        (None, Some(cards)) if !cards.trim().is_empty() => {
            c.push_str(&format!(" --kingdom {}", q(cards.trim())))
        }
        _ => {}
    }
    if let Some(sh) = &kingdom.shelters {
        if sh != "auto" {
            c.push_str(&format!(" --shelters {sh}"));
        }
    }
    c.push_str(tail);
    c
}

/// Play a batch (on a blocking thread), streaming its events.
fn play(
    app: &App,
    s: &Setup,
    req: &RunReq,
    batch: &Batch,
    tx: &mpsc::Sender<Event>,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> Option<Event> {
    let infos = s.lineup.infos();
    let names: Vec<String> = infos.iter().map(|i| i.name.clone()).collect();
    let k = &s.kingdom;
    let games = req.games;
    let seed = req.seed;
    let warnings: Vec<String> = s
        .compiled
        .warnings
        .iter()
        .map(|w| outputs::warning(w))
        .collect();
    let _ = tx.blocking_send(event(
        "start",
        &json!({
            "games": games,
            "seed": seed,
            "players": k.n(),
            "kingdom": k.describe(),
            "how": s.kc.how,
            "names": names,
            "warnings": warnings,
        }),
    ));
    let recording = stats::Recording {
        kingdom: k,
        names: &names,
    };
    let mut total = matches::Stats::default();
    let mut pt = PlaytestStats::new(k, &names);
    let mut done = 0u64;
    let (mut chunk, most) = chunk_sizes(s.search_budget, FIRST_CHUNK, MAX_CHUNK);
    let t0 = Instant::now();
    let mut last_chart: Option<Instant> = None;
    while done < games && !batch.stop.load(Ordering::SeqCst) {
        let n = chunk.min(games - done);
        let cfg = RunConfig {
            games: n,
            first: done,
            seed,
            threads: 0,
            progress: false,
            precision: None,
        };
        let (r, acc) = app.pool.install(|| {
            matches::run_hooked(
                k,
                &cfg,
                |o: &[u8]| s.compiled.bots(o),
                &batch.stop,
                &recording,
            )
        });
        if r.completed < n {
            // Stopped inside the chunk: its games are not a prefix of the
            // run, so they are left out.
            break;
        }
        total = total.merge(r.stats);
        if let Some(a) = acc {
            pt += &a.stats;
        }
        done += n;
        chunk = (chunk * 2).min(most);
        let progress = event(
            "progress",
            &json!({
                "games": done,
                "requested": games,
                "ms": t0.elapsed().as_millis() as u64,
                "rows": table_json(&total, &infos),
                "tied": total.tied_games,
                "capped": total.capped,
                "faults": total.faults,
            }),
        );
        if let Err(mpsc::error::TrySendError::Closed(_)) = tx.try_send(progress) {
            batch.cancel(GONE);
            break;
        }
        if done < games && last_chart.is_none_or(|t| t.elapsed() >= CHART_EVERY) {
            last_chart = Some(Instant::now());
            let _ = tx.try_send(event(
                "charts",
                &json!({ "games": done, "html": html::charts(&pt) }),
            ));
        }
    }
    drop(permit);
    match batch.why() {
        SUPERSEDED => {
            return Some(event(
                "cancelled",
                &json!({ "message": "a newer batch replaced this one", "games": done }),
            ));
        }
        GONE => return None,
        _ => {}
    }
    let stopped = done < games;
    let mut body = json!({
        "games": done,
        "requested": games,
        "stopped": stopped,
        "ms": t0.elapsed().as_millis() as u64,
        "rows": table_json(&total, &infos),
        "command": command_line(s, req, done),
    });
    if done > 0 {
        let mut base = outputs::base_meta("sim", seed, &s.kc);
        base.push("players", k.n());
        // A stopped batch played games 0..done: `domsim sim -n done`.
        match outputs::sim_csv_bytes(&base, done, done, None, &total, &infos) {
            Ok(csv) => body["csv"] = json!(String::from_utf8_lossy(&csv)),
            Err(e) => body["csv_error"] = json!(format!("{e:#}")),
        }
        pt.seed = Some(seed);
        pt.sources = infos
            .iter()
            .map(|i| format!("{} | {} | {}", i.name, i.source, i.hash))
            .collect();
        let opts = html::ReportOptions {
            title: None,
            note: Some(format!(
                "domsim sim: {done} games, seed {seed}, kingdom ({}): {}",
                s.kc.how,
                k.describe()
            )),
            matrix: None,
        };
        body["report"] = json!(html::render_html(&pt, &opts));
        body["charts"] = json!(html::charts(&pt));
    }
    Some(event("done", &body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_this_machine() {
        for h in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:80",
            "127.0.0.2",
            "[::1]:8080",
            "LOCALHOST",
        ] {
            assert!(local_host(h), "{h}");
        }
        for h in [
            "",
            "evil.example",
            "evil.example:8080",
            "10.0.0.1:8080",
            "[::2]",
        ] {
            assert!(!local_host(h), "{h}");
        }
    }

    #[test]
    fn bot_file_names_are_plain() {
        assert!(valid_file_name("big_money.dom"));
        assert!(valid_file_name("my bot-2.dom"));
        for f in [
            "../x.dom",
            "a/b.dom",
            ".dom",
            "x.txt",
            ".hidden.dom",
            "/etc/passwd",
        ] {
            assert!(!valid_file_name(f), "{f}");
        }
    }

    #[test]
    fn warnings_keep_their_position() {
        let w = warning_json(
            "strategies/x.dom",
            "strategies/x.dom:3:5: warning: Witch is not in this game; entry ignored",
        );
        assert_eq!((w["line"].as_u64(), w["col"].as_u64()), (Some(3), Some(5)));
        assert_eq!(w["message"], "Witch is not in this game; entry ignored");
    }
}
