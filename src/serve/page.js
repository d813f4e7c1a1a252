// domsim serve: the workbench page. Plain JavaScript, no library: the
// server (src/serve/mod.rs) checks the bots, plays the games and draws the
// charts; this script sends what is typed and shows what comes back.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const fmt = (n) => Number(n).toLocaleString("en-US");
const pct = (x) => (100 * x).toFixed(1) + "%";

// One id per page: the server keeps one batch per client.
const CLIENT = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).replace(/[^A-Za-z0-9-]/g, "");

const state = {
  meta: null,
  mode: "preset",           // "preset" or "cards"
  bots: [],                  // {file, text, original, search} per seat (search: the search bot's options, or null)
  checkTimer: null,
  runTimer: null,
  checkSeq: 0,
  running: null,             // AbortController of the stream being read
  blobs: [],                 // object URLs to revoke
  lastOk: false,
  seed: null,                // the seed of the batch shown, as its digits
  cardText: "",              // the card editor's text (a card file)
  cards: [],                 // its cards, as last parsed
  cardErrors: [],
  cardSeq: 0,
  cardTimer: null,
  play: null,                // the game against the bots: its request and answers
  cardsB: null,              // the A/B's variant B, as last parsed (null: none, or an error)
  cardBError: null,          // variant B's error
};

// ---------------------------------------------------------------------------
// Requests

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return r;
}

function kingdomReq() {
  if (state.mode === "preset") return { preset: $("#preset").value };
  return { cards: $("#cards").value };
}

function botsReq() {
  return state.bots.map((b) => (b.search !== null && b.search !== undefined ? { search: b.search } : { file: b.file, text: b.text }));
}

// The search seats' budgets added up (0: no search seat): each seat's
// budget=N, or the bot's default.
function searchBudget(bots) {
  let sum = 0;
  for (const b of bots) {
    if (b.search === undefined) continue;
    const m = /(?:^|,)\s*budget\s*=\s*(\d+)\s*(?:,|$)/.exec(b.search);
    sum += m ? Number(m[1]) : state.meta.limits.search_budget;
  }
  return sum;
}

// The games a batch may play (`plays` times each: an A/B plays each game
// twice) with the search seats of `bots`: the server's bound on games ×
// search budget.
function searchGames(bots, plays) {
  const b = searchBudget(bots);
  return b > 0 ? Math.max(1, Math.floor(state.meta.limits.max_search_work / (plays * b))) : Infinity;
}

// ---------------------------------------------------------------------------
// Kingdom: presets, random, typed with completion

function fillPresets() {
  const sel = $("#preset");
  sel.innerHTML = "";
  for (const p of state.meta.presets) {
    if (!p.available) continue;
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.name;
    sel.appendChild(o);
  }
  const typed = document.createElement("option");
  typed.value = "";
  typed.textContent = "(the cards typed below)";
  sel.appendChild(typed);
  sel.value = state.meta.default_preset;
  showPresetCards();
}

function showPresetCards() {
  const p = state.meta.presets.find((p) => p.name === $("#preset").value);
  if (p) {
    state.mode = "preset";
    $("#cards").value = p.cards.join(", ");
  } else {
    state.mode = "cards";
  }
}

async function randomKingdom() {
  const sets = $$(".set").filter((c) => c.checked).map((c) => c.value).join(",") || "base";
  const seed = Math.floor(Math.random() * 1e9);
  const r = await api(`/api/random?sets=${encodeURIComponent(sets)}&seed=${seed}`);
  const j = await r.json();
  if (!r.ok) { kingdomMessage(j.error, true); return; }
  $("#cards").value = j.cards;
  $("#preset").value = "";
  state.mode = "cards";
  changed();
}

function kingdomMessage(text, bad) {
  const m = $("#kingdom-msg");
  m.textContent = text || "";
  m.classList.toggle("bad", !!bad);
}

// Completion of the card being typed (the text after the last comma).
const suggest = { items: [], on: -1 };

function currentToken() {
  const input = $("#cards");
  const upto = input.value.slice(0, input.selectionStart);
  const start = upto.lastIndexOf(",") + 1;
  return { start, text: upto.slice(start).trim() };
}

function updateSuggest() {
  const ul = $("#suggest");
  const t = currentToken().text.toLowerCase().replace(/[^a-z]/g, "");
  if (!t) { ul.hidden = true; suggest.items = []; return; }
  const norm = (s) => s.toLowerCase().replace(/[^a-z]/g, "");
  const typed = new Set($("#cards").value.split(",").map((s) => norm(s)));
  const known = state.meta.cards.concat(state.cards.map((c) => ({ name: c.name, cost: c.cost, set: "data card" })));
  const cards = known.filter((c) => !typed.has(norm(c.name)) || norm(c.name) === t);
  const starts = cards.filter((c) => norm(c.name).startsWith(t));
  const inside = cards.filter((c) => !norm(c.name).startsWith(t) && norm(c.name).includes(t));
  suggest.items = starts.concat(inside).slice(0, 8);
  suggest.on = suggest.items.length ? 0 : -1;
  if (suggest.items.length === 1 && norm(suggest.items[0].name) === t) suggest.items = [];
  renderSuggest();
}

function renderSuggest() {
  const ul = $("#suggest");
  ul.innerHTML = "";
  suggest.items.forEach((c, i) => {
    const li = document.createElement("li");
    li.textContent = c.name;
    const small = document.createElement("small");
    small.textContent = `$${c.cost} ${c.set}`;
    li.appendChild(small);
    if (i === suggest.on) li.className = "on";
    li.addEventListener("mousedown", (e) => { e.preventDefault(); pickSuggest(i); });
    ul.appendChild(li);
  });
  ul.hidden = suggest.items.length === 0;
}

function pickSuggest(i) {
  const c = suggest.items[i];
  if (!c) return;
  const input = $("#cards");
  const { start } = currentToken();
  const rest = input.value.slice(input.selectionStart);
  const after = rest.includes(",") ? rest.slice(rest.indexOf(",")) : "";
  const before = input.value.slice(0, start);
  const lead = before && !before.endsWith(" ") ? " " : "";
  input.value = before + lead + c.name + (after ? after : ", ");
  const pos = (before + lead + c.name).length + (after ? 0 : 2);
  input.setSelectionRange(pos, pos);
  suggest.items = [];
  renderSuggest();
  cardsTyped();
}

function cardsTyped() {
  $("#preset").value = "";
  state.mode = "cards";
  changed();
}

// ---------------------------------------------------------------------------
// Bot editors

const SEARCH = "search:";

function botOptions(sel, chosen) {
  sel.innerHTML = "";
  const first = document.createElement("option");
  first.value = "";
  first.textContent = "load a bot…";
  sel.appendChild(first);
  const search = document.createElement("option");
  search.value = SEARCH;
  search.textContent = "search bot (no strategy file)";
  sel.appendChild(search);
  for (const f of state.meta.bots) {
    const o = document.createElement("option");
    o.value = f;
    o.textContent = f;
    sel.appendChild(o);
  }
  sel.value = chosen || "";
}

async function loadBot(i, file) {
  const r = await api(`/api/bot/${encodeURIComponent(file)}`);
  const text = r.ok ? await r.text() : "";
  const b = state.bots[i];
  if (!b) return;
  b.file = file;
  b.text = text;
  b.original = text;
  b.search = null;
  const el = botElement(i);
  showSearch(el, false);
  $("textarea", el).value = text;
  $(".file", el).value = file;
  $(".load", el).value = file;
  renderEditor(i, [], []);
}

// Seat `i` is the search bot with options `opts` ("" for its defaults):
// no strategy text; its options instead of the editor.
function setSearch(i, opts) {
  const b = state.bots[i];
  const el = botElement(i);
  if (!b || !el) return;
  b.search = opts;
  showSearch(el, true);
  $(".search-opts", el).value = opts;
  $(".load", el).value = SEARCH;
  renderEditor(i, [], []);
}

function showSearch(el, on) {
  $(".editor", el).hidden = on;
  $(".search-box", el).hidden = !on;
  $(".file", el).disabled = on;
  if (on) {
    $(".file", el).value = "search";
    const l = state.meta.limits;
    $(".search-note", el).textContent = `The search bot: every buy and Action play by Monte-Carlo search over worlds consistent with what it has seen, the rest by its rollout bot (results/SEARCH.md). Options as after search: on the command line, e.g. budget=200,horizon=6 (hover for the list). Here the search seats' budgets add up to at most ${fmt(l.max_search_budget)}, and a batch plays at most ${fmt(l.max_search_work)} games × budget (default budget ${l.search_budget}: about 30–60 ms of CPU a game).`;
    $(".search-opts", el).title = state.meta.search_help;
  }
}

function botElement(i) {
  return $(`.bot[data-i="${i}"]`);
}

function setPlayers(n) {
  const defaults = state.meta.default_bots.length ? state.meta.default_bots : state.meta.bots.slice(0, 2);
  const holder = $("#bots");
  while (state.bots.length < n) {
    const i = state.bots.length;
    const file = defaults[i % Math.max(1, defaults.length)] || `bot${i + 1}.dom`;
    state.bots.push({ file, text: "", original: "", search: null });
    const el = $("#bot-template").content.firstElementChild.cloneNode(true);
    el.dataset.i = String(i);
    $(".seat", el).textContent = `Bot ${i + 1}`;
    botOptions($(".load", el), file);
    $(".file", el).value = file;
    const ta = $("textarea", el);
    ta.addEventListener("input", () => {
      state.bots[i].text = ta.value;
      renderEditor(i, state.bots[i].errors || [], state.bots[i].warnings || []);
      changed();
    });
    ta.addEventListener("paste", () => {
      // A bot pasted over the whole text (or into an empty editor) is
      // another bot, not the folder's file the seat held: it takes a name
      // of its own, which the downloads, the command line and the log's
      // positions then use (the name field renames it).
      const whole = !ta.value.trim() || (ta.selectionStart === 0 && ta.selectionEnd === ta.value.length);
      if (whole && state.meta.bots.includes(state.bots[i].file)) renameBot(i, pastedName());
    });
    ta.addEventListener("scroll", () => syncScroll(el));
    ta.addEventListener("keydown", (e) => {
      if (e.key === "Tab" && !e.shiftKey) {
        e.preventDefault();
        ta.setRangeText("    ", ta.selectionStart, ta.selectionEnd, "end");
        ta.dispatchEvent(new Event("input"));
      }
    });
    $(".load", el).addEventListener("change", async (e) => {
      if (!e.target.value) return;
      if (e.target.value === SEARCH) setSearch(i, state.bots[i].search || "");
      else await loadBot(i, e.target.value);
      changed();
    });
    $(".search-opts", el).addEventListener("input", (e) => {
      state.bots[i].search = e.target.value.trim();
      changed();
    });
    $(".file", el).addEventListener("change", (e) => {
      let f = e.target.value.trim().replace(/[^A-Za-z0-9_. -]/g, "_");
      if (!f.endsWith(".dom")) f += ".dom";
      e.target.value = f;
      state.bots[i].file = f;
      changed();
    });
    holder.appendChild(el);
    loadBot(i, file).then(changed);
  }
  while (state.bots.length > n) {
    state.bots.pop();
    holder.lastElementChild.remove();
  }
}

// The first `pasted-N.dom` that no seat and no file of the folder is.
function pastedName() {
  const taken = new Set(state.bots.map((b) => b.file).concat(state.meta.bots));
  for (let n = 1; ; n++) if (!taken.has(`pasted-${n}.dom`)) return `pasted-${n}.dom`;
}

// Seat `i`'s bot is now the file `file` (no longer one of the folder).
function renameBot(i, file) {
  const el = botElement(i);
  state.bots[i].file = file;
  $(".file", el).value = file;
  $(".load", el).value = "";
}

// The backdrop and the line numbers follow the textarea's scrolling by
// translation (their own scrolling would stop short of the textarea's,
// whose scroll bars take room).
function syncScroll(el) {
  const ta = $("textarea", el);
  const back = $(".backdrop > div", el);
  const nums = $(".gutter > div", el);
  if (back) back.style.transform = `translate(${-ta.scrollLeft}px, ${-ta.scrollTop}px)`;
  if (nums) nums.style.transform = `translateY(${-ta.scrollTop}px)`;
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// Line numbers, the problem lines shaded and the offending text underlined
// (in a backdrop under the transparent textarea), the list of problems.
function renderEditor(i, errors, warnings) {
  const el = botElement(i);
  if (!el) return;
  const b = state.bots[i];
  b.errors = errors;
  b.warnings = warnings;
  paintCode(el, b.text, errors, warnings);
}

// An editor's line numbers, shading, underlines and list of problems.
function paintCode(el, text, errors, warnings) {
  const lines = text.split("\n");
  const at = new Map();
  for (const w of warnings) if (w.line > 0) at.set(w.line, { kind: "warn", p: w });
  for (const e of errors) if (e.line > 0) at.set(e.line, { kind: "err", p: e });
  const gutter = $(".gutter", el);
  gutter.innerHTML = "<div>" + lines.map((_, k) => {
    const a = at.get(k + 1);
    return `<div class="ln${a ? " " + a.kind : ""}" data-line="${k + 1}">${k + 1}</div>`;
  }).join("") + "</div>";
  const back = lines.map((line, k) => {
    const a = at.get(k + 1);
    if (!a) return escapeHtml(line);
    const chars = Array.from(line);
    const c0 = Math.max(0, (a.p.col || 1) - 1);
    const w = Math.max(1, a.p.width || 1);
    const pre = escapeHtml(chars.slice(0, c0).join(""));
    let mid = escapeHtml(chars.slice(c0, c0 + w).join(""));
    if (!mid) mid = "&nbsp;";
    const post = escapeHtml(chars.slice(c0 + w).join(""));
    return `<span class="line-${a.kind}">${pre}<mark>${mid}</mark>${post}</span>`;
  });
  $(".backdrop", el).innerHTML = "<div>" + back.join("\n") + "\n</div>";
  const ul = $(".problems", el);
  ul.innerHTML = "";
  const add = (p, kind) => {
    const li = document.createElement("li");
    li.className = kind;
    const where = document.createElement("span");
    where.className = "at";
    where.textContent = p.line > 0 ? `line ${p.line}, column ${p.col}:` : (kind === "err" ? "error:" : "warning:");
    li.appendChild(where);
    li.appendChild(document.createTextNode(p.message));
    li.title = p.text || p.message;
    if (p.line > 0) li.addEventListener("click", () => goTo(el, p.line, p.col));
    ul.appendChild(li);
  };
  errors.forEach((e) => add(e, "err"));
  warnings.forEach((w) => add(w, "warn"));
  syncScroll(el);
}

function goTo(el, line, col) {
  const ta = $("textarea", el);
  const lines = ta.value.split("\n");
  let pos = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) pos += lines[k].length + 1;
  pos += Math.max(0, col - 1);
  ta.focus();
  ta.setSelectionRange(pos, pos);
}

// ---------------------------------------------------------------------------
// Check as you type, run shortly after

function changed() {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(check, 150);
}

async function check() {
  const seq = ++state.checkSeq;
  let j;
  try {
    const r = await api("/api/check", { kingdom: kingdomReq(), bots: botsReq(), cards: state.cardText });
    j = await r.json();
    if (!r.ok) {
      if (j.card_error) showCardProblems([j.card_error]);
      setStatus(j.error, true);
      state.lastOk = false;
      return;
    }
  } catch (e) {
    setStatus("the server does not answer: is domsim serve still running?", true);
    return;
  }
  if (seq !== state.checkSeq) return; // a newer check is on its way
  let ok = true;
  j.bots.forEach((b, i) => {
    if (!state.bots[i]) return;
    renderEditor(i, b.errors, b.warnings);
    const st = $(".bot-status", botElement(i));
    st.textContent = b.ok
      ? `${b.name} ✓${b.warnings.length ? ` (${b.warnings.length} warning${b.warnings.length > 1 ? "s" : ""})` : ""}`
      : `${b.errors.length} error${b.errors.length > 1 ? "s" : ""}`;
    st.classList.toggle("bad", !b.ok);
    ok = ok && b.ok;
  });
  if (state.cardErrors.length) ok = false;
  if (j.kingdom.ok) {
    kingdomMessage(`${j.kingdom.how}: ${j.kingdom.describe}`, false);
  } else {
    kingdomMessage(j.kingdom.error, true);
    ok = false;
  }
  renderAbSetup();
  state.lastOk = ok;
  if (!ok) {
    setStatus("fix the errors shown to play (the last results stay below)", true);
    return;
  }
  if ($("#auto").checked) {
    clearTimeout(state.runTimer);
    state.runTimer = setTimeout(run, 250);
  }
}

function setStatus(text, bad) {
  const s = $("#status");
  s.textContent = text;
  s.classList.toggle("bad", !!bad);
}

// ---------------------------------------------------------------------------
// A batch: server-sent events read from the response of a POST

// Seeds go up to 2^64 - 1, beyond what a JavaScript number holds exactly
// (2^53): the seed travels as its digits, checked here with BigInt.
const U64_MAX = "18446744073709551615";

function seedText() {
  const t = $("#seed").value.trim();
  if (t === "") return "0";
  if (!/^[0-9]+$/.test(t) || BigInt(t) > BigInt(U64_MAX)) return null;
  return BigInt(t).toString();
}

async function run() {
  if (state.running) state.running.abort();
  const ctl = new AbortController();
  state.running = ctl;
  const asked = Math.max(1, Math.min(state.meta.limits.max_games, Math.floor(Number($("#games").value) || 1)));
  const games = Math.min(asked, searchGames(botsReq(), 1));
  state.gamesNote = games < asked ? ` (not ${fmt(asked)}: with these search seats a batch plays at most ${fmt(games)})` : "";
  const seed = seedText();
  if (seed === null) {
    setStatus(`seed: a whole number from 0 to ${U64_MAX}`, true);
    return;
  }
  state.seed = seed;
  // What this batch plays, as sent: its downloads are these texts, even
  // if the editors change while it plays.
  const sent = {
    bots: botsReq(),
    cardText: state.cardText,
    cardFile: $("#card-file").value,
    hasCards: state.cards.length > 0,
  };
  staleDownloads(true, "A new batch is playing: its downloads come when it ends (Stop ends it with the games played so far).");
  let r;
  try {
    r = await fetch("/api/run", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client: CLIENT, kingdom: kingdomReq(), bots: sent.bots, games, seed, cards: sent.cardText }),
      signal: ctl.signal,
    });
  } catch (e) {
    if (ctl.signal.aborted) return;
    staleDownloads(false);
    setStatus("the server does not answer: is domsim serve still running?", true);
    return;
  }
  if (!r.ok) {
    let msg = `error ${r.status}`;
    try { msg = (await r.json()).error || msg; } catch (e) { /* keep the status */ }
    if (state.running === ctl) {
      // Nothing played: the results and downloads shown are still the
      // batch's before.
      staleDownloads(false);
      setStatus(msg, true);
    }
    return;
  }
  $("#stop").disabled = false;
  await readEvents(r, ctl, (name, d) => onEvent(name, d, sent));
  if (state.running === ctl) {
    state.running = null;
    $("#stop").disabled = true;
  }
}

// The server-sent events of a response, each given to `handler` while
// `ctl` is the stream the page reads.
async function readEvents(r, ctl, handler) {
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length && state.running === ctl) handler(name, JSON.parse(data.join("\n")));
      }
    }
  } catch (e) {
    if (!ctl.signal.aborted) setStatus("the stream of results broke off", true);
  }
}

function onEvent(name, d, sent) {
  if (name === "queued") setStatus("waiting for a free slot on the server…", false);
  else if (name === "start") {
    setStatus(`playing ${fmt(d.games)} games${state.gamesNote || ""}, seed ${state.seed ?? d.seed}, ${d.players} players, kingdom (${d.how})`, false);
    $("#counter").textContent = `0 / ${fmt(d.games)} games`;
  } else if (name === "progress") {
    $("#counter").textContent = `${fmt(d.games)} / ${fmt(d.requested)} games · ${(d.ms / 1000).toFixed(2)} s`;
    renderTable(d.rows);
  } else if (name === "charts") {
    $("#charts").innerHTML = d.html;
  } else if (name === "done") {
    renderTable(d.rows);
    if (d.charts) $("#charts").innerHTML = d.charts;
    $("#counter").textContent = `${fmt(d.games)} / ${fmt(d.requested)} games · ${(d.ms / 1000).toFixed(2)} s`;
    setStatus(d.stopped ? `stopped after ${fmt(d.games)} games` : `done: ${fmt(d.games)} games in ${(d.ms / 1000).toFixed(2)} s`, false);
    downloads(d, sent);
    document.body.dataset.done = String(Number(document.body.dataset.done || 0) + 1);
  } else if (name === "cancelled") {
    // Replaced by a newer batch (its results follow), or stopped while it
    // was still waiting for a slot (the results shown are the batch's
    // before, and so are their downloads).
    if (d.stopped) {
      setStatus("stopped before it started", false);
      staleDownloads(false);
    }
  }
}

function renderTable(rows) {
  const t = $("#table");
  let h = "<tr><th>bot</th><th class=\"num\">games</th><th class=\"num\">score</th><th class=\"num\">95% interval</th><th></th><th class=\"num\">wins</th><th class=\"num\">ties</th><th class=\"num\">avg VP</th><th class=\"num\">avg turns</th></tr>";
  for (const r of rows) {
    h += `<tr><td>${escapeHtml(r.name)}</td><td class="num">${fmt(r.games)}</td>` +
      `<td class="num score">${pct(r.score)}</td><td class="num ci">${pct(r.score_lo)} – ${pct(r.score_hi)}</td>` +
      `<td class="barcell"><div class="scorebar"><div class="fill" style="width:${(100 * r.score).toFixed(2)}%"></div>` +
      `<div class="ci" style="left:${(100 * r.score_lo).toFixed(2)}%;width:${(100 * (r.score_hi - r.score_lo)).toFixed(2)}%"></div></div></td>` +
      `<td class="num">${fmt(r.wins)}</td><td class="num">${fmt(r.ties)}</td>` +
      `<td class="num">${r.avg_vp.toFixed(2)}</td><td class="num">${r.avg_turns.toFixed(2)}</td></tr>`;
  }
  t.innerHTML = h;
}

function blobLink(a, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  state.blobs.push(url);
  a.href = url;
}

// While a batch plays, the downloads of the batch before are not its: they
// are greyed out and cannot be clicked (no href), with `why` above them,
// until the batch's own replace them (or, if it never starts, they come
// back).
function staleDownloads(stale, why) {
  const box = $("#downloads");
  box.classList.toggle("stale", stale);
  for (const a of $$("a", box)) {
    if (stale) {
      if (a.hasAttribute("href")) {
        a.dataset.href = a.getAttribute("href");
        a.removeAttribute("href");
      }
      a.setAttribute("aria-disabled", "true");
    } else {
      if (a.dataset.href) a.setAttribute("href", a.dataset.href);
      delete a.dataset.href;
      a.removeAttribute("aria-disabled");
    }
  }
  const note = $("#dl-note");
  note.hidden = !stale;
  if (why) note.textContent = why;
}

function downloads(d, sent) {
  staleDownloads(false);
  for (const u of state.blobs) URL.revokeObjectURL(u);
  state.blobs = [];
  const box = $("#downloads");
  if (!d.csv) { box.hidden = true; return; }
  box.hidden = false;
  blobLink($("#dl-csv"), d.csv, "text/csv");
  blobLink($("#dl-report"), d.report, "text/html");
  const bots = $("#dl-bots");
  bots.innerHTML = "";
  const seen = new Set();
  sent.bots.forEach((b) => {
    if (b.search !== undefined || seen.has(b.file)) return;
    seen.add(b.file);
    const a = document.createElement("a");
    a.textContent = b.file;
    a.download = b.file;
    a.className = "dl-bot";
    blobLink(a, b.text, "text/plain");
    bots.appendChild(a);
  });
  if (sent.hasCards) {
    const a = document.createElement("a");
    a.textContent = sent.cardFile;
    a.download = sent.cardFile;
    a.id = "dl-cards";
    blobLink(a, sent.cardText, "text/plain");
    bots.appendChild(a);
  }
  $("#command").textContent = d.command;
}

async function stop() {
  await api("/api/stop", { client: CLIENT });
}

async function showLog() {
  const r = await api("/api/log", {
    kingdom: kingdomReq(),
    bots: botsReq(),
    seed: seedText() ?? "1",
    game: Math.max(0, Math.floor(Number($("#game").value) || 0)),
    explain: $("#explain").checked,
    cards: state.cardText,
  });
  const log = $("#log");
  if (r.ok) {
    log.textContent = await r.text();
    log.classList.remove("bad");
  } else {
    let msg = `error ${r.status}`;
    try { msg = (await r.json()).error || msg; } catch (e) { /* keep the status */ }
    log.textContent = msg;
    log.classList.add("bad");
  }
}

// ---------------------------------------------------------------------------
// Start

async function start() {
  const r = await api("/api/meta");
  state.meta = await r.json();
  $("#version").textContent = `domsim ${state.meta.version} · bots from ${state.meta.folder}/ · at most ${fmt(state.meta.limits.max_games)} games a batch`;
  $("#games").max = String(state.meta.limits.max_games);
  fillPresets();
  $("#preset").addEventListener("change", () => { showPresetCards(); changed(); });
  $("#random").addEventListener("click", randomKingdom);
  const cards = $("#cards");
  cards.addEventListener("input", () => { updateSuggest(); cardsTyped(); });
  cards.addEventListener("keydown", (e) => {
    if ($("#suggest").hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = suggest.items.length;
      suggest.on = (suggest.on + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      renderSuggest();
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      pickSuggest(suggest.on);
    } else if (e.key === "Escape") {
      $("#suggest").hidden = true;
    }
  });
  cards.addEventListener("blur", () => { $("#suggest").hidden = true; });
  $("#players").addEventListener("change", (e) => { setPlayers(Number(e.target.value)); changed(); });
  for (const id of ["#games", "#seed"]) $(id).addEventListener("input", changed);
  $("#auto").addEventListener("change", () => { if ($("#auto").checked) changed(); });
  $("#run").addEventListener("click", () => { if (state.lastOk) run(); else check().then(() => { if (state.lastOk && !$("#auto").checked) run(); }); });
  $("#stop").addEventListener("click", stop);
  $("#show-log").addEventListener("click", showLog);
  setPlayers(Number($("#players").value));
  startCards();
  startPlay();
  startAb();
}

// ---------------------------------------------------------------------------
// A/B: the card editor's text (A) against a variant (B), paired.

function startAb() {
  const b = $("#card-b");
  $("#ab-copy").addEventListener("click", () => { b.value = state.cardText; abTyped(); });
  $("#ab").addEventListener("toggle", () => {
    if ($("#ab").open && !b.value) { b.value = state.cardText; abTyped(); }
    renderAbSetup();
  });
  b.addEventListener("input", abTyped);
  $("#ab-card").addEventListener("change", renderAbSetup);
  $("#ab-run").addEventListener("click", runAb);
  renderAbSetup();
}

let abTimer = null;
let abSeq = 0;
function abTyped() {
  clearTimeout(abTimer);
  abTimer = setTimeout(async () => {
    const seq = ++abSeq;
    const r = await api("/api/cards", { text: $("#card-b").value });
    const j = await r.json();
    if (seq !== abSeq) return;
    const ul = $("#ab-problems");
    ul.innerHTML = "";
    if (j.ok) {
      state.cardsB = j.cards;
      state.cardBError = null;
    } else {
      state.cardsB = null;
      state.cardBError = j.error || { line: 0, col: 0, message: "variant B does not parse" };
      const li = document.createElement("li");
      li.className = "err";
      li.textContent = (state.cardBError.line > 0 ? `variant B, line ${state.cardBError.line}, column ${state.cardBError.col}: ` : "variant B: ") + state.cardBError.message;
      ul.appendChild(li);
    }
    renderAbSetup();
  }, 150);
}

const cardWords = (c) => `$${c.cost} ${c.types}: ${c.text}`;
const normName = (x) => x.toLowerCase().replace(/[^a-z0-9]/g, "");

// The A/B's set-up, as the designer reads it before running: which card is
// measured (A's cards in the kingdom; the others cannot be measured), each
// card of A beside B's definition of it with the changed ones marked, and
// why Run A/B cannot run yet, if it cannot.
function renderAbSetup() {
  const sel = $("#ab-card");
  const inKingdom = new Set(kingdomCards().map(normName));
  const was = sel.value;
  sel.innerHTML = "";
  for (const c of state.cards) {
    const o = document.createElement("option");
    o.value = c.name;
    const there = inKingdom.has(normName(c.name));
    o.textContent = there ? c.name : `${c.name} (not in the kingdom)`;
    o.disabled = !there;
    sel.appendChild(o);
  }
  const usable = state.cards.filter((c) => inKingdom.has(normName(c.name)));
  sel.value = usable.some((c) => c.name === was) ? was : (usable[0] ? usable[0].name : "");
  const diff = $("#ab-diff");
  const bCards = state.cardsB;
  let changed = 0;
  let h = "";
  if (state.cards.length) {
    h = "<tr><th>card</th><th>variant A (the card editor)</th><th>variant B (below)</th></tr>";
    state.cards.forEach((a, k) => {
      const b = bCards && bCards[k] && bCards[k].name === a.name ? bCards[k] : null;
      const same = b && b.signature === a.signature;
      if (b && !same) changed++;
      const bText = !bCards ? "" : b ? (same ? "the same" : escapeHtml(cardWords(b))) : "<span class=\"bad\">not defined here (B must define A's cards in A's order)</span>";
      h += `<tr class="${b && !same ? "changed" : "same"}${a.name === sel.value ? " measured" : ""}"><td>${escapeHtml(a.name)}${a.name === sel.value ? " (measured)" : ""}</td>` +
        `<td>${escapeHtml(cardWords(a))}</td><td>${bText}</td></tr>`;
    });
  }
  diff.innerHTML = h;
  let why = "";
  if (!state.cards.length) why = "The card editor has no card: type one (variant A) first.";
  else if (state.cardErrors.length) why = "Variant A (the card editor) has an error: fix it first.";
  else if (!usable.length) why = "No card of variant A is in the kingdom: put one in it (its button above) to measure it.";
  else if (state.cardBError) why = "Variant B has an error: fix it first.";
  else if (!bCards) why = "Variant B: copy A into B, then change a definition.";
  else if (bCards.length !== state.cards.length || bCards.some((c, k) => c.name !== state.cards[k].name)) why = "Variant B must define the same cards as A, in the same order, with other definitions.";
  else if (!changed) why = "Variant B is the same as A: change a definition (e.g. cost = 5) to compare.";
  const st = $("#ab-status");
  st.textContent = why || `Ready: every game is played with A and with B; ${changed} card${changed > 1 ? "s" : ""} changed, ${sel.value} measured.`;
  st.classList.toggle("bad", !!why);
  $("#ab-run").disabled = !!why;
}

async function runAb() {
  if (state.running) state.running.abort();
  const ctl = new AbortController();
  state.running = ctl;
  const games = Math.min(Math.max(1, Math.min(state.meta.limits.max_ab_games, Math.floor(Number($("#games").value) || 1))), searchGames(botsReq(), 2));
  const seed = seedText() ?? "1";
  let r;
  try {
    r = await fetch("/api/ab", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client: CLIENT, kingdom: kingdomReq(), bots: botsReq(), games, seed, cards: state.cardText, cards_b: $("#card-b").value, card: $("#ab-card").value || undefined }),
      signal: ctl.signal,
    });
  } catch (e) {
    if (!ctl.signal.aborted) setStatus("the server does not answer: is domsim serve still running?", true);
    return;
  }
  if (!r.ok) {
    let msg = `error ${r.status}`;
    try { msg = (await r.json()).error || msg; } catch (e) { /* keep the status */ }
    $("#ab-status").textContent = msg;
    $("#ab-status").classList.add("bad");
    return;
  }
  $("#stop").disabled = false;
  await readEvents(r, ctl, onAbEvent);
  if (state.running === ctl) {
    state.running = null;
    $("#stop").disabled = true;
  }
}

function onAbEvent(name, d) {
  const panel = $("#ab-panel");
  if (name === "start") {
    panel.hidden = false;
    $("#ab-downloads").hidden = true;
    $("#ab-counter").textContent = `${d.card}: 0 / ${fmt(d.games)} games per variant`;
    state.abCard = d.card;
    $("#ab-title").textContent = `A/B of ${d.card}: variant B − variant A`;
    // What is compared, as it was when the A/B started.
    const what = $("#ab-what");
    what.innerHTML = "";
    (state.cardsB || []).forEach((b, k) => {
      const a = state.cards[k];
      if (!a || a.signature === b.signature) return;
      const li = document.createElement("li");
      li.innerHTML = `<b>${escapeHtml(a.name)}</b>: A ${escapeHtml(cardWords(a))} <b>→</b> B ${escapeHtml(cardWords(b))}`;
      what.appendChild(li);
    });
  } else if (name === "progress" || name === "done") {
    $("#ab-counter").textContent = `${state.abCard}: ${fmt(d.games)} / ${fmt(d.requested)} games per variant (each played with A and with B) · ${(d.ms / 1000).toFixed(2)} s${name === "done" ? (d.stopped ? " · stopped" : " · done") : ""}`;
    renderAb(d.rows);
    if (name === "done") {
      document.body.dataset.abDone = String(Number(document.body.dataset.abDone || 0) + 1);
      abDownloads(d);
    }
  } else if (name === "failed") {
    $("#ab-counter").textContent = d.error;
  }
}

function abDownloads(d) {
  for (const u of state.abBlobs || []) URL.revokeObjectURL(u);
  const link = (a, text, type) => { const u = URL.createObjectURL(new Blob([text], { type })); a.href = u; return u; };
  if (!d.csv) { $("#ab-downloads").hidden = true; return; }
  state.abBlobs = [
    link($("#dl-ab-csv"), d.csv, "text/csv"),
    link($("#dl-ab-report"), d.report, "text/html"),
    link($("#dl-ab-a"), state.cardText, "text/plain"),
    link($("#dl-ab-b"), $("#card-b").value, "text/plain"),
  ];
  $("#ab-command").textContent = d.command;
  $("#ab-downloads").hidden = false;
}

const MEASURE_WORDS = {
  win_rate: "win rate", bought: "copies bought", played: "plays", owned_at_end: "copies at the end",
  winner_has_card: "winner owns the card", game_length: "rounds",
};

// The change in each bot's win rate as a chart: the paired 95% interval
// on an axis in percentage points, green when B is surely better for the
// bot, red when surely worse; then every measure in a table.
function renderAb(rows) {
  const wr = rows.filter((r) => r.measure === "win_rate");
  const widest = Math.max(0.01, ...wr.flatMap((r) => [Math.abs(r.ci_low), Math.abs(r.ci_high)]).filter((x) => isFinite(x)));
  // Round ticks: two steps of a round size (0.1, 0.2, 0.5, 1, 2, 5… points)
  // on each side of 0, covering every interval.
  const step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50].find((st) => 2 * st >= widest * 100) || 50;
  const lim = 2 * step / 100;
  const W = 640, left = 170, right = 20, rowH = 28, top = 22, H = top + rowH * wr.length + 30;
  const x = (v) => left + (Math.max(-lim, Math.min(lim, v)) + lim) / (2 * lim) * (W - left - right);
  let svg = `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="change in win rate, B minus A">`;
  svg += `<text class="lbl" x="${left}" y="14">change in win rate (B − A), percentage points, 95% paired interval</text>`;
  for (let k = -2; k <= 2; k++) {
    const v = lim * k / 2;
    const xx = x(v).toFixed(1);
    svg += `<line x1="${xx}" x2="${xx}" y1="${top}" y2="${H - 24}" stroke="${k === 0 ? "#555" : "#ddd"}"/>`;
    const pp = Math.round(v * 1000) / 10;
    svg += `<text class="tick" x="${xx}" y="${H - 8}" text-anchor="middle">${(pp > 0 ? "+" : "") + (step < 1 ? pp.toFixed(1) : String(pp))}</text>`;
  }
  wr.forEach((r, i) => {
    const y = top + rowH * i + rowH / 2;
    const col = r.ci_low > 0 ? "#1a7f37" : r.ci_high < 0 ? "#c0392b" : "#777";
    svg += `<text class="lbl" x="${left - 8}" y="${y + 4}" text-anchor="end">${escapeHtml(r.bot)}</text>`;
    svg += `<line x1="${x(r.ci_low).toFixed(1)}" x2="${x(r.ci_high).toFixed(1)}" y1="${y}" y2="${y}" stroke="${col}" stroke-width="3"/>`;
    svg += `<circle cx="${x(r.diff).toFixed(1)}" cy="${y}" r="5" fill="${col}"><title>${escapeHtml(r.bot)}: ${(r.diff * 100).toFixed(2)} pp [${(r.ci_low * 100).toFixed(2)}, ${(r.ci_high * 100).toFixed(2)}]</title></circle>`;
  });
  svg += "</svg>";
  $("#ab-chart").innerHTML = svg;
  let h = "<tr><th>measure</th><th>bot</th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th></tr>";
  // A measure that is 0 with both variants (a bot that never buys the
  // card) says nothing: left out, and counted below the table.
  const zero = (r) => r.measure !== "win_rate" && r.a === 0 && r.b === 0;
  const omitted = rows.filter(zero).length;
  for (const r of rows.filter((r) => !zero(r))) {
    const cls = r.measure === "win_rate" ? (r.ci_low > 0 ? "better" : r.ci_high < 0 ? "worse" : "") : "";
    const f = (v) => (r.measure === "win_rate" || r.measure === "winner_has_card") ? pct(v) : v.toFixed(3);
    const sg = (v) => (v >= 0 ? "+" : "") + f(v);
    h += `<tr><td>${MEASURE_WORDS[r.measure] || r.measure}</td><td>${escapeHtml(r.bot)}</td><td>${f(r.a)}</td><td>${f(r.b)}</td>` +
      `<td class="${cls}">${sg(r.diff)}</td><td>[${sg(r.ci_low)}, ${sg(r.ci_high)}]</td></tr>`;
  }
  if (omitted) h += `<tr><td colspan="6" class="note">${omitted} measure${omitted > 1 ? "s" : ""} that ${omitted > 1 ? "are" : "is"} 0 with both variants left out (the CSV has every row)</td></tr>`;
  $("#ab-table").innerHTML = h;
}

// ---------------------------------------------------------------------------
// The card editor: parsed as you type (/api/cards), its cards listed with
// their text, a button puts one in the kingdom.

function startCards() {
  const ta = $("#card-editor textarea");
  ta.value = state.meta.card_text || "";
  state.cardText = ta.value;
  if (state.meta.card_files && state.meta.card_files.length === 1) {
    $("#card-file").value = state.meta.card_files[0].split("/").pop();
  }
  ta.addEventListener("input", () => {
    state.cardText = ta.value;
    paintCode($("#card-panel"), state.cardText, state.cardErrors, []);
    clearTimeout(state.cardTimer);
    state.cardTimer = setTimeout(parseCards, 150);
  });
  ta.addEventListener("scroll", () => syncScroll($("#card-panel")));
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey) {
      e.preventDefault();
      ta.setRangeText("    ", ta.selectionStart, ta.selectionEnd, "end");
      ta.dispatchEvent(new Event("input"));
    }
  });
  parseCards(true);
}

async function parseCards(first) {
  const seq = ++state.cardSeq;
  const text = state.cardText;
  let j;
  try {
    const r = await api("/api/cards", { text });
    j = await r.json();
    if (!r.ok) { showCardProblems([{ line: 0, col: 0, message: j.error }]); return; }
  } catch (e) {
    setStatus("the server does not answer: is domsim serve still running?", true);
    return;
  }
  if (seq !== state.cardSeq) return;
  state.cards = j.cards;
  showCardProblems(j.ok ? [] : [j.error]);
  renderCardList();
  if (first !== true) {
    // The batch playing has the old cards bound: stop it, then check and
    // play the new ones.
    if (state.running) await stop();
    changed();
  }
}

function showCardProblems(errors) {
  state.cardErrors = errors;
  paintCode($("#card-panel"), state.cardText, errors, []);
  const st = $("#card-status");
  st.textContent = errors.length ? "1 error" : (state.cards.length ? `${state.cards.length} card${state.cards.length > 1 ? "s" : ""} ✓` : "no card");
  st.classList.toggle("bad", errors.length > 0);
}

function kingdomCards() {
  return $("#cards").value.split(",").map((x) => x.trim()).filter((x) => x);
}

function renderCardList() {
  const ul = $("#card-list");
  ul.innerHTML = "";
  const norm = (x) => x.toLowerCase().replace(/[^a-z0-9]/g, "");
  const inKingdom = new Set(kingdomCards().map(norm));
  for (const c of state.cards) {
    const li = document.createElement("li");
    const b = document.createElement("b");
    b.textContent = `${c.name} ($${c.cost} ${c.types})`;
    const t = document.createElement("span");
    t.className = "ctext";
    t.textContent = c.text;
    const btn = document.createElement("button");
    btn.type = "button";
    const there = inKingdom.has(norm(c.name));
    btn.textContent = there ? "in the kingdom" : "put in the kingdom";
    btn.disabled = there;
    btn.className = "to-kingdom";
    btn.addEventListener("click", () => putInKingdom(c.name));
    li.append(b, t, btn);
    ul.appendChild(li);
  }
  renderAbSetup();
}

// Put a data card in the kingdom: in place of its last card that is not a
// data card if ten are there already (a second card of the designer's
// does not push out the first).
function putInKingdom(name) {
  const list = kingdomCards();
  if (list.length >= 10) {
    const data = new Set(state.cards.map((c) => normName(c.name)));
    let k = list.length - 1;
    while (k > 0 && data.has(normName(list[k]))) k--;
    list.splice(k, 1);
  }
  list.push(name);
  $("#cards").value = list.join(", ");
  cardsTyped();
  renderCardList();
}

// ---------------------------------------------------------------------------
// Play against the bots: the game is its seed and the answers so far; each
// answer asks the server to replay it to the next question.

function startPlay() {
  fillSeats();
  $("#players").addEventListener("change", fillSeats);
  $("#play-start").addEventListener("click", newGame);
  $("#play-load").addEventListener("change", loadRecord);
}

function fillSeats() {
  const sel = $("#play-seat");
  const n = Number($("#players").value);
  const was = Number(sel.value || 0);
  sel.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `seat ${i + 1}${i === 0 ? " (first)" : ""}, advised by bot ${i + 1}`;
    sel.appendChild(o);
  }
  sel.value = String(Math.min(was, n - 1));
}

function newGame() {
  const seed = seedText();
  if (seed === null) { setStatus(`seed: a whole number from 0 to ${U64_MAX}`, true); return; }
  state.play = {
    kingdom: kingdomReq(),
    bots: botsReq(),
    seat: Number($("#play-seat").value),
    seed,
    cards: state.cardText,
    answers: [],
  };
  document.body.dataset.playOver = "0";
  playStep();
}

async function loadRecord(e) {
  const f = e.target.files && e.target.files[0];
  if (!f) return;
  try {
    const rec = JSON.parse(await f.text());
    state.play = { kingdom: rec.kingdom, bots: rec.bots, seat: rec.seat, seed: String(rec.seed), cards: rec.cards ?? "", answers: rec.answers || [] };
  } catch (err) {
    $("#play-status").textContent = `not a game record: ${err}`;
    return;
  }
  playStep();
}

async function answer(a) {
  if (!state.play) return;
  state.play.answers.push(a);
  await playStep();
}

async function playStep() {
  const p = state.play;
  $("#board").hidden = false;
  $$("#answers button").forEach((b) => { b.disabled = true; });
  let r, j;
  try {
    r = await api("/api/play", p);
    j = await r.json();
  } catch (e) {
    $("#play-status").textContent = "the server does not answer: is domsim serve still running?";
    return;
  }
  if (!r.ok) {
    // Refused (a bot or card with an error, or an answer that does not
    // fit): the answer is taken back.
    if (p.answers.length) p.answers.pop();
    $("#play-status").textContent = j.error;
    $("#play-status").classList.add("bad");
    $$("#answers button").forEach((b) => { b.disabled = false; });
    return;
  }
  $("#play-status").classList.remove("bad");
  renderBoard(j);
  const q = j.question;
  if (q && q.kind === "treasures" && $("#play-all").checked) {
    answer("all");
  }
}

function cardChip(name, types, extra) {
  const d = document.createElement("span");
  d.className = "card";
  for (const t of (types || "").split("-")) if (t) d.classList.add(`t-${t}`);
  d.textContent = name;
  if (extra !== undefined) {
    const s = document.createElement("small");
    s.textContent = extra;
    d.appendChild(s);
  }
  return d;
}

function chips(holder, names, typesOf) {
  holder.innerHTML = "";
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  for (const [n, k] of counts) holder.appendChild(cardChip(n, typesOf(n), k > 1 ? `×${k}` : undefined));
}

function renderBoard(j) {
  const v = j.view;
  document.body.dataset.answers = String(j.answers);
  const typesOf = (n) => { const c = v.supply.find((s) => s.name === n); return c ? c.types : (n === "Copper" || n === "Silver" || n === "Gold" ? "Treasure" : ""); };
  const over = !j.question;
  $("#play-status").textContent = over
    ? `The game is over · ${j.answers} answers given · your deck ${v.deck}, discard ${v.discard}`
    : `Turn ${v.turn} of ${v.active_name}${v.active === v.seat ? " (you)" : ""} · ${v.phase} phase · ${v.actions} action(s), ${v.buys} buy(s), $${v.coins} · your deck ${v.deck}, discard ${v.discard}${v.discard_top ? ` (top: ${v.discard_top})` : ""} · ${j.answers} answers given`;
  chips($("#hand"), v.hand, typesOf);
  chips($("#inplay"), v.players[v.active].play, typesOf);
  chips($("#aside"), v.aside, typesOf);
  chips($("#trash"), v.trash, typesOf);
  // An empty zone says so (rather than a heading over nothing).
  for (const id of ["#hand", "#inplay", "#aside", "#trash"]) {
    if (!$(id).children.length) $(id).innerHTML = '<span class="none-here">none</span>';
  }
  $("#inplay").previousElementSibling.textContent = over || v.active === v.seat ? "In play" : `In play (${v.active_name}'s)`;
  const owned = $("#owned");
  owned.innerHTML = "";
  for (const [n, k] of v.owned) owned.appendChild(cardChip(n, typesOf(n), `×${k}`));
  const sup = $("#supply");
  sup.innerHTML = "";
  for (const c of v.supply) {
    const d = cardChip(c.name, c.types, `$${c.cost} · ${c.left} left`);
    if (c.left === 0) d.classList.add("empty");
    sup.appendChild(d);
  }
  let h = "<tr><th>seat</th><th>bot</th><th>VP</th><th>hand</th><th>deck</th><th>discard</th><th>cards</th><th>turns</th></tr>";
  v.players.forEach((p, i) => {
    h += `<tr class="${p.you ? "you" : ""}${i === v.active && !over ? " active" : ""}"><td>${escapeHtml(p.name)}</td><td>${p.you ? "you" : escapeHtml(j.bots[i] || "")}</td>` +
      `<td>${p.vp}</td><td>${p.hand}</td><td>${p.deck}</td><td>${p.discard}</td><td>${p.owned}</td><td>${p.turns}</td></tr>`;
  });
  $("#seats").innerHTML = h;
  const log = $("#play-log");
  log.textContent = j.log;
  log.scrollTop = log.scrollHeight;
  const q = j.question;
  $("#question").hidden = !q;
  $("#play-over").hidden = !!q;
  if (q) {
    // A buy says what there is to spend, a play how many Actions are left.
    const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
    $("#prompt").textContent = q.prompt === "Buy a card"
      ? `${q.prompt}: you have $${v.coins} and ${plural(v.buys, "buy")}`
      : q.prompt === "Play an Action"
        ? `${q.prompt}: you have ${plural(v.actions, "action")} left`
        : q.prompt;
    const box = $("#answers");
    box.innerHTML = "";
    for (const o of q.options) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = o.cost !== undefined && o.cost !== null ? `${o.label} ($${o.cost})` : o.label;
      b.dataset.answer = o.answer;
      if (o.answer === "-") b.classList.add("none");
      if (o.answer === q.suggestion) b.classList.add("advised");
      b.addEventListener("click", () => answer(o.answer));
      box.appendChild(b);
    }
    const adv = q.options.find((o) => o.answer === q.suggestion);
    $("#advice").textContent = adv ? `your advisor (${j.bots[v.seat]}) would answer: ${adv.label}` : "";
  } else {
    const o = j.outcome;
    const parts = o.vp.map((x, i) => `${j.names[i]}${i === v.seat ? " (you)" : ""} ${x} VP${o.won[i] ? " — wins" : ""}`);
    $("#play-result").textContent = `Game over${o.capped ? " (turn cap)" : ""}: ${parts.join(", ")}.${o.won[v.seat] ? " You win!" : ""}`;
    // Links of their own (a batch's downloads are revoked when the next
    // batch ends).
    for (const u of state.playBlobs || []) URL.revokeObjectURL(u);
    const link = (a, text, type) => { const u = URL.createObjectURL(new Blob([text], { type })); a.href = u; return u; };
    state.playBlobs = [link($("#dl-game"), j.log, "text/plain"), link($("#dl-record"), JSON.stringify(state.play, null, 1) + "\n", "application/json")];
    document.body.dataset.playOver = "1";
  }
}

start();
