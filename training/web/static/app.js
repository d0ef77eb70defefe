// meadowzoo in the browser: lobby, playing a seat, watching, replays. Plain JS, no build step.
// Every answer of the server is kept in window.meadowzoo.messages (the tests read them to check
// that a seat never receives what it may not see).
"use strict";

const meadowzoo = (window.meadowzoo = { messages: [], state: null, replay: null });
const $ = (id) => document.getElementById(id);
let meta = null;
let pollToken = 0; // bumped to stop an older polling loop

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    // a string is sent as it is (JSON text read from a file: its 64-bit seeds must not pass
    // through JavaScript numbers, which round them)
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  meadowzoo.messages.push(text);
  if (meadowzoo.messages.length > 2000) meadowzoo.messages.shift();
  const data = JSON.parse(text);
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function notice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

function show(section) {
  for (const id of ["lobby", "play", "replay"]) $(id).hidden = id !== section;
}

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}

// ---- lobby ---------------------------------------------------------------------------------------
async function lobby() {
  show("lobby");
  if (!meta) {
    meta = await api("GET", "/api/meta");
    for (const game of meta.games) $("game").append(element("option", game.title, { value: game.name }));
    $("game").addEventListener("change", fillPlayers);
    $("players").addEventListener("change", fillSeats);
    fillPlayers();
    const results = (await api("GET", "/api/results")).results;
    for (const r of results) {
      const label = `${r.name} (${r.games} games: ${r.agents.join(", ")})`;
      $("results").append(element("option", label, { value: r.name }));
    }
    $("open-replay").disabled = results.length === 0;
  }
  const games = (await api("GET", "/api/games")).games;
  $("games").replaceChildren(...games.map((g) => {
    const item = element("li");
    const state = g.over ? "over" : `move ${g.moves + 1}`;
    item.append(element("a", `${g.title}: ${g.agents.join(" · ")} (${state})`, { href: `#/game/${g.id}` }));
    return item;
  }));
}

function currentGame() {
  return meta.games.find((g) => g.name === $("game").value);
}

function fillPlayers() {
  const game = currentGame();
  $("players").replaceChildren(...game.player_counts.map((n) => element("option", n, { value: n })));
  $("players").value = game.player_counts.includes(2) ? 2 : game.player_counts[0];
  fillSeats();
}

function fillSeats() {
  const game = currentGame();
  const players = Number($("players").value);
  const choices = game.agents.filter((a) => a.players === null || a.players === players);
  const seats = [];
  for (let seat = 0; seat < players; seat++) {
    const select = element("select", null, { id: `seat-${seat}`, "data-seat": seat });
    for (const choice of choices) select.append(element("option", choice.spec, { value: choice.spec }));
    select.value = seat === 0 ? "human" : "random";
    const custom = element("input", null, { id: `seat-${seat}-spec`, placeholder: "or any agent spec, e.g. mcts:50" });
    const label = element("label", `player_${seat} `);
    label.append(select, " ", custom);
    seats.push(label);
  }
  $("seats").replaceChildren(...seats);
}

async function startGame(event) {
  event.preventDefault();
  notice("");
  const players = Number($("players").value);
  const agents = [];
  for (let seat = 0; seat < players; seat++) {
    agents.push($(`seat-${seat}-spec`).value.trim() || $(`seat-${seat}`).value);
  }
  let body = JSON.stringify({ game: $("game").value, agents });
  const seed = $("seed").value.trim();
  if (seed !== "") {
    if (!/^\d+$/.test(seed)) return notice("the seed is a whole number (or empty: a random one)");
    // as typed (a long seed would round as a JS number), without leading zeros (007 is no JSON number)
    body = body.slice(0, -1) + `, "seed": ${seed.replace(/^0+(?=\d)/, "")}}`;
  }
  try {
    const created = await api("POST", "/api/games", body);
    sessionStorage.setItem(`seats-${created.id}`, JSON.stringify(created.seats));
    const human = created.seats.find((s) => s.token);
    location.hash = human ? `#/game/${created.id}/${human.seat}/${human.token}` : `#/game/${created.id}`;
  } catch (error) {
    notice(error.message);
  }
}

// ---- playing and watching -------------------------------------------------------------------------
async function play(id, seat, token) {
  show("play");
  meadowzoo.state = null; // until this game's first answer
  $("board").replaceChildren();
  const mine = ++pollToken;
  let version = null;
  const query = seat === null ? "" : `seat=${seat}&token=${encodeURIComponent(token)}`;
  while (mine === pollToken) {
    try {
      const since = version === null ? "" : `&since=${version}`;
      const state = await api("GET", `/api/games/${id}?${query}${since}`);
      if (mine !== pollToken) return;
      version = state.version;
      // a move of this page is drawn from its own answer already; draw only what is newer
      if (!meadowzoo.state || meadowzoo.state.id !== state.id || state.version > meadowzoo.state.version) {
        render(state, token);
      }
      if (state.over || state.error) return;
    } catch (error) {
      notice(error.message);
      return;
    }
  }
}

function render(state, token) {
  meadowzoo.state = state;
  const you = state.seat === null ? "watching" : `you are player_${state.seat}`;
  let status;
  if (state.error) status = `stopped: ${state.error}`;
  else if (state.over) status = "game over";
  else if (state.legal.length) status = "your move";
  else status = `player_${state.to_move} (${state.seats[state.to_move].agent}) is thinking…`;
  $("status").textContent = `${state.title} — ${you} — ${status}`;
  $("board").innerHTML = state.svg;
  renderMoves(state, token);
  renderHistory(state);
  renderResult(state);
}

function renderMoves(state, token) {
  $("moves-title").hidden = state.legal.length === 0;
  $("choose-hint").hidden = true;
  const byAnchor = new Map();
  for (const move of state.legal) {
    if (move.anchor) byAnchor.set(move.anchor, [...(byAnchor.get(move.anchor) || []), move]);
  }
  const buttons = state.legal.map((move) => {
    const button = element("button", move.name, { "data-action": move.action, "data-anchor-of": move.anchor || "" });
    button.addEventListener("click", () => act(state, token, move.action));
    return button;
  });
  $("moves").replaceChildren(...buttons);
  for (const node of $("board").querySelectorAll("[data-anchor]")) {
    const moves = byAnchor.get(node.getAttribute("data-anchor"));
    if (!moves) continue;
    node.classList.add("legal");
    node.addEventListener("click", () => {
      if (moves.length === 1) return act(state, token, moves[0].action);
      // several moves start at this element: mark them in the list
      for (const other of $("board").querySelectorAll(".selected")) other.classList.remove("selected");
      for (const same of $("board").querySelectorAll(`[data-anchor="${node.getAttribute("data-anchor")}"]`)) {
        same.classList.add("selected");
      }
      for (const button of buttons) {
        button.classList.toggle("choice", button.getAttribute("data-anchor-of") === node.getAttribute("data-anchor"));
      }
      $("choose-hint").hidden = false;
    });
  }
}

async function act(state, token, action) {
  notice("");
  for (const button of $("moves").querySelectorAll("button")) button.disabled = true;
  try {
    const next = await api("POST", `/api/games/${state.id}/act`,
      { seat: state.seat, token, action, version: state.version });
    if (next.version > meadowzoo.state.version) render(next, token);
  } catch (error) {
    notice(error.message);
    for (const button of $("moves").querySelectorAll("button")) button.disabled = false;
  }
}

function renderHistory(state) {
  const items = state.history.map((move) => {
    const item = element("li", move.text, { value: move.n });
    if (move.new) item.classList.add("new");
    if (move.events.length) item.append(element("div", move.events.join("; "), { class: "events" }));
    return item;
  });
  $("history").replaceChildren(...items);
  $("history").scrollTop = $("history").scrollHeight;
}

function renderResult(state) {
  $("result").textContent = "";
  $("links").replaceChildren();
  const stored = JSON.parse(sessionStorage.getItem(`seats-${state.id}`) || "[]");
  for (const seat of stored.filter((s) => s.token && s.seat !== state.seat)) {
    const link = element("a", `open player_${seat.seat}'s seat`, { href: `#/game/${state.id}/${seat.seat}/${seat.token}`, target: "_blank" });
    $("links").append(link, element("br"));
  }
  if (!state.over) return;
  const r = state.result;
  const order = [...r.rewards.keys()].sort((a, b) => (r.places ? r.places[a] - r.places[b] : r.rewards[b] - r.rewards[a]));
  const lines = order.map((p) => {
    const place = r.places ? `${r.places[p] + 1}.` : "";
    const score = r.scores ? ` ${r.scores[p]} points,` : "";
    return `${place} player_${p} (${state.seats[p].agent}):${score} reward ${r.rewards[p].toFixed(2)}`;
  });
  $("result").replaceChildren(element("div", r.truncated ? "Truncated (turn limit)" : "Final places"),
    ...lines.map((line) => element("div", line, { class: "place" })));
  const replay = element("button", "Replay this game", { id: "replay-this" });
  replay.addEventListener("click", () => openReplay({ game: state.id }));
  const record = element("a", "Download the record", { href: `/api/games/${state.id}/record`, download: `${state.game}-${state.id}.json` });
  $("links").append(replay, " ", record);
}

// ---- replays -------------------------------------------------------------------------------------
async function openReplay(body) {
  notice("");
  try {
    const opened = await api("POST", "/api/replays", body);
    location.hash = `#/replay/${opened.id}/0`;
  } catch (error) {
    notice(error.message);
  }
}

async function replay(id, k) {
  show("replay");
  pollToken++;
  if (!meadowzoo.replay || meadowzoo.replay.id !== id) {
    const summary = await api("GET", `/api/replays/${id}`);
    meadowzoo.replay = { id, ...summary };
    $("replay-title").textContent = `${summary.source}: ${summary.agents.join(" · ")} (seed ${summary.seed})`;
    $("replay-moves").replaceChildren(...summary.moves.map((m) => {
      const item = element("li", `player_${m.seat}: ${m.name}`, { value: m.n });
      item.addEventListener("click", () => { location.hash = `#/replay/${id}/${m.n}`; });
      return item;
    }));
    $("jump").max = summary.count;
    $("gif").href = `/api/replays/${id}/gif`;
  }
  const count = meadowzoo.replay.count;
  k = Math.max(0, Math.min(count, k));
  const frame = await api("GET", `/api/replays/${id}/${k}`);
  meadowzoo.replay.k = k;
  $("replay-board").innerHTML = frame.svg;
  $("position").textContent = `${k} / ${count}`;
  $("jump").value = k;
  const move = frame.move;
  $("replay-move").textContent = move ? `move ${move.n}: player_${move.seat}: ${move.name}` +
    (move.events.length ? ` — ${move.events.join("; ")}` : "") : "start position";
  $("replay-move").setAttribute("data-k", k);
  for (const item of $("replay-moves").children) item.classList.toggle("current", Number(item.value) === k);
  const current = $("replay-moves").querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function stepReplay(delta) {
  const r = meadowzoo.replay;
  if (!r || $("replay").hidden) return;
  const k = delta === "first" ? 0 : delta === "last" ? r.count : Math.max(0, Math.min(r.count, r.k + delta));
  location.hash = `#/replay/${r.id}/${k}`;
}

// ---- routing -------------------------------------------------------------------------------------
function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) {
    return play(parts[1], parts[2] === undefined ? null : Number(parts[2]), parts[3] || null);
  }
  if (parts[0] === "replay" && parts[1]) return replay(parts[1], Number(parts[2] || 0)).catch((e) => notice(e.message));
  pollToken++;
  return lobby().catch((e) => notice(e.message));
}

$("new-game").addEventListener("submit", startGame);
$("open-results").addEventListener("submit", (event) => {
  event.preventDefault();
  openReplay({ results: $("results").value, index: Number($("result-index").value) });
});
$("saved-file").addEventListener("change", async () => {
  const file = $("saved-file").files[0];
  if (!file) return;
  try {
    const text = await file.text();
    JSON.parse(text); // a clear message for a file that is not JSON at all
    openReplay(`{"record": ${text}}`);
  } catch (error) {
    notice(`not a saved game: ${error.message}`);
  }
});
$("first").addEventListener("click", () => stepReplay("first"));
$("back").addEventListener("click", () => stepReplay(-1));
$("forward").addEventListener("click", () => stepReplay(1));
$("last").addEventListener("click", () => stepReplay("last"));
$("jump").addEventListener("change", () => {
  if (meadowzoo.replay) location.hash = `#/replay/${meadowzoo.replay.id}/${Number($("jump").value)}`;
});
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT") return;
  const keys = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  if (event.key in keys) stepReplay(keys[event.key]);
});
window.addEventListener("hashchange", () => { notice(""); route(); });
route();
