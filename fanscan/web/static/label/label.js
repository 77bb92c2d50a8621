// fanscan labelling page: photo by photo, fix boxes and codes, accept; every change saved at once.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const LOW_CONFIDENCE = 0.8;
const $ = (id) => document.getElementById(id);

const state = {
  codes: [],
  photos: [],     // review order, fixed when the page loads
  index: 0,
  labels: null,   // the current photo's label file (JSON as the API gives it)
  selected: -1,
  opening: 0,     // counts openPhoto calls, so that only the latest one shows its photo
  skipped: null,  // the photo just skipped as it cannot be opened, and why
  typed: "",      // a digit waiting for its suit letter
  drag: null,
  pending: null,  // a new box drawn but not given a code yet (never saved without one)
  view: null,     // the part of the photo shown: {x, y, w, h} in photo pixels
  hidden: false,  // boxes hidden to see the photo
  region: false,  // the next drag deletes the boxes inside it
};
const histories = new Map(); // photo -> {undo: [], redo: []}, snapshots of its label file
const pointers = new Map();  // the pointers down on the photo, for pinch zoom

// ---- saving: one request at a time, in order, so the last change is the one kept ----
let saveChain = Promise.resolve();
const versions = new Map(); // image -> the ETag of its labels as this page last loaded or saved them
// image -> the labels (JSON) of its last change the server has not taken yet: sent again every
// RETRY_MS while the server cannot be reached or fails, and the page asks before it is left.
const unsaved = new Map();
const RETRY_MS = 3000;      // the first wait before a change is sent again; doubled up to RETRY_MAX_MS
const RETRY_MAX_MS = 60000;
const TRANSIENT = new Set([408, 425, 429]); // refusals that may pass later, as a 5xx may
let retryTimer = null;
let retryDelay = RETRY_MS;
window.addEventListener("beforeunload", (event) => {
  if (!unsaved.size) return;
  event.preventDefault();
  event.returnValue = "";
});

function showSave(text, isError = false) {
  const element = $("save-state");
  element.textContent = text;
  element.classList.toggle("error", isError);
}

async function detail(response) {
  try {
    return (await response.json()).detail || response.statusText;
  } catch {
    return response.statusText;
  }
}

function save() {
  return send(state.labels.image, JSON.stringify(state.labels));
}

function send(image, body) {
  unsaved.set(image, body);
  showSave("saving…");
  saveChain = saveChain
    .then(async () => {
      if (unsaved.get(image) !== body) return; // a later change of this photo is on its way
      const headers = { "content-type": "application/json" };
      if (versions.has(image)) headers["if-match"] = versions.get(image);
      const response = await fetch(labelsUrl(image), {
        method: "PUT",
        headers,
        body,
        keepalive: new Blob([body]).size < 60000, // finishes even if the tab is closed right now
      });
      // Only this body is settled by the answer: a newer change of the photo queued behind it
      // is still sent, and judged on its own.
      const settle = () => { if (unsaved.get(image) === body) unsaved.delete(image); };
      if (response.status === 409) {
        settle(); // the person chooses in the dialog
        return showConflict(image, JSON.parse(body), await response.json());
      }
      if (response.status >= 400 && response.status < 500 && !TRANSIENT.has(response.status)) {
        settle(); // refused as it is: sending it again would be refused again
        throw new Error(await detail(response));
      }
      if (!response.ok) throw Object.assign(new Error(await detail(response)), { retry: true });
      versions.set(image, response.headers.get("etag"));
      settle();
      retryDelay = RETRY_MS;
      showSave(unsaved.size ? "saving…" : "saved");
    })
    .catch((error) => {
      const retry = error.retry || error instanceof TypeError; // a 5xx or 429, or no server reached
      showSave(`NOT SAVED (${unsaved.get(image) ? image : "this change"}): ${error.message}`
        + (retry ? "; trying again…" : ""), true);
      if (retry) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => { for (const [name, labels] of unsaved) send(name, labels); }, retryDelay);
        retryDelay = Math.min(RETRY_MAX_MS, retryDelay * 2);
      }
    });
  return saveChain;
}

// A save refused because the labels changed elsewhere (another tab, a pre-labelling batch): show
// both versions and let the person choose; nothing is overwritten without being asked.
function showConflict(image, mine, answer) {
  const summary = (labels) =>
    `${labels.status}, ${labels.tiles.length} tile${labels.tiles.length === 1 ? "" : "s"}: `
    + `${labels.tiles.map((t) => t.code).join(" ") || "–"}`;
  let dialog = $("conflict");
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.id = "conflict";
    dialog.className = "conflict";
    document.body.append(dialog);
  }
  dialog.replaceChildren();
  const add = (tag, text, className) => {
    const element = document.createElement(tag);
    element.textContent = text;
    if (className) element.className = className;
    return dialog.appendChild(element);
  };
  add("h2", `${image} was changed elsewhere`);
  add("p", answer.detail);
  add("h3", "Saved (on disk)");
  add("p", summary(answer.labels), "saved-version");
  add("h3", "This page's");
  add("p", summary(mine), "page-version");
  const keep = add("button", "Keep this page's");
  const take = add("button", "Take the saved one");
  keep.id = "conflict-keep";
  take.id = "conflict-take";
  keep.onclick = () => {
    dialog.close();
    versions.set(image, answer.version);
    if (state.labels.image === image) save();
  };
  take.onclick = () => {
    dialog.close();
    versions.set(image, answer.version);
    if (state.labels.image === image) {
      state.labels = { ...answer.labels, image };
      const entry = state.photos.find((p) => p.image === image);
      if (entry) entry.status = answer.labels.status;
      render();
    }
    showSave("saved version loaded");
  };
  if (!dialog.open) dialog.showModal();
  showSave("not saved: changed elsewhere", true);
}

function labelsUrl(image) {
  return `/api/label/labels?image=${encodeURIComponent(image)}`;
}

// ---- loading photos ----
async function loadList() {
  const response = await fetch("/api/label/photos");
  if (!response.ok) throw new Error(await detail(response));
  const list = await response.json();
  state.codes = list.codes;
  $("code-grid").replaceChildren(...list.codes.map((code) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.code = code;
    button.title = code;
    button.textContent = code === "back" ? "▮" : code;
    button.addEventListener("mousedown", (e) => e.preventDefault());
    return button;
  }));
  state.photos = list.photos;
  $("folder").textContent = list.folder;
}

// Open photo ``index``; one that cannot be opened (a file that is no image) is skipped in the
// direction ``step``, and named in the save state until another photo opens.
async function openPhoto(index, step = index < state.index ? -1 : 1) {
  if (!state.photos.length) {
    $("position").textContent = "no photos in this folder";
    return;
  }
  const wanted = Math.max(0, Math.min(index, state.photos.length - 1));
  const ticket = ++state.opening; // a later openPhoto wins over one still waiting for the server
  const image = state.photos[wanted].image;
  const response = await fetch(labelsUrl(image));
  if (!response.ok) {
    if (ticket !== state.opening) return;
    const why = await detail(response);
    state.skipped = `${image}: ${why}`;
    showSave(`cannot open ${image}: ${why}`, true);
    const next = wanted + step;
    if (response.status < 500 && next >= 0 && next < state.photos.length && next !== state.index) {
      return openPhoto(next, step);
    }
    if (!state.labels) $("position").textContent = "no photo here can be opened";
    return;
  }
  const labels = await response.json();
  if (ticket !== state.opening) return;
  if (state.skipped) { // the photo before could not be opened: say so once, not as an error
    showSave(`skipped ${state.skipped}`);
    state.skipped = null;
  } else if (!unsaved.size && $("save-state").classList.contains("error")) {
    showSave("–");
  }
  versions.set(image, response.headers.get("etag"));
  state.index = wanted;
  state.labels = labels;
  state.typed = "";
  state.pending = null;
  state.selected = leastSure();
  fitView();
  history.replaceState(null, "", `#${encodeURIComponent(image)}`);
  const photo = $("photo");
  photo.setAttribute("href", `/api/label/photo?image=${encodeURIComponent(image)}`);
  photo.setAttribute("width", state.labels.width);
  photo.setAttribute("height", state.labels.height);
  render();
}

// The model's least sure tile that no person has confirmed yet; else ``fallback``.
function leastSure(fallback = state.labels.tiles.length ? 0 : -1) {
  let best = -1;
  state.labels.tiles.forEach((tile, i) => {
    if (tile.source === "model" && (best < 0 || tile.confidence < state.labels.tiles[best].confidence)) {
      best = i;
    }
  });
  return best >= 0 ? best : fallback;
}

// ---- drawing ----
function render() {
  const labels = state.labels;
  const reviewed = labels.status === "reviewed";
  const done = state.photos.filter((p) => p.status === "reviewed").length;
  $("position").textContent = `${state.index + 1} of ${state.photos.length} (${done} reviewed): ${labels.image}`;
  $("position").title = labels.image;
  $("status").textContent = labels.status;
  $("status").classList.toggle("reviewed", reviewed);
  $("typed").textContent = state.typed;

  const boxes = $("boxes");
  boxes.replaceChildren();
  const scale = Math.max(labels.width, labels.height) / 900;
  labels.tiles.forEach((tile, i) => {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", tile.corners.map((c) => c.join(",")).join(" "));
    polygon.setAttribute("stroke-width", 2 * scale);
    polygon.classList.add("tile");
    if (tile.source === "person") polygon.classList.add("person");
    else if (tile.confidence < LOW_CONFIDENCE) polygon.classList.add("low");
    if (i === state.selected) polygon.classList.add("selected");
    polygon.dataset.index = i;
    boxes.append(polygon);

    // The code sits just outside the face's top edge, so the face itself stays visible.
    const [c0, c1, c2, c3] = tile.corners;
    const centre = [(c0[0] + c2[0]) / 2, (c0[1] + c2[1]) / 2];
    const top = [(c0[0] + c1[0]) / 2, (c0[1] + c1[1]) / 2];
    const side = Math.hypot(c0[0] - c3[0], c0[1] - c3[1]);
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", top[0] + (top[0] - centre[0]) * 0.45);
    text.setAttribute("y", top[1] + (top[1] - centre[1]) * 0.45);
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "central");
    text.setAttribute("font-size", Math.max(11 * scale, side * 0.24));
    text.setAttribute("stroke-width", 3 * scale);
    text.classList.add("code");
    text.textContent = tile.code;
    boxes.append(text);
  });
  if (state.pending) boxes.append(pendingBox(state.pending, scale));
  boxes.classList.toggle("hidden", state.hidden);
  $("toggle-boxes").textContent = state.hidden ? "Show boxes (h)" : "Hide boxes (h)";
  $("region").classList.toggle("on", state.region);
  const history = historyOf();
  $("undo").disabled = !history.undo.length;
  $("redo").disabled = !history.redo.length;
  const tile = state.pending ? null : labels.tiles[state.selected];
  if (tile) {
    tile.corners.forEach((corner, c) => {
      const handle = document.createElementNS(SVG, "circle");
      handle.setAttribute("cx", corner[0]);
      handle.setAttribute("cy", corner[1]);
      handle.setAttribute("r", 6 * scale);
      handle.classList.add("handle");
      handle.dataset.corner = c;
      boxes.append(handle);
    });
  }
  showZoom(state.pending || tile);
  $("tile-info").textContent = state.pending
    ? "New box: type or pick its code (Escape drops it)"
    : tile
      ? `${tile.code}: ${tile.source === "person" ? "set by a person" : `model, ${Math.round(tile.confidence * 100)}% sure`}`
      : "no tile selected";
  $("tile-info").classList.toggle("pending", !!state.pending);

  const list = $("tiles");
  list.replaceChildren();
  labels.tiles.forEach((t, i) => {
    const item = document.createElement("li");
    item.textContent = `${t.code} ${t.source === "person" ? "✓" : `${Math.round(t.confidence * 100)}%`}`;
    item.dataset.index = i;
    item.dataset.code = t.code;
    item.classList.toggle("selected", i === state.selected);
    item.classList.toggle("person", t.source === "person");
    list.append(item);
  });
}

// The selected tile, enlarged in the side panel.
function showZoom(tile) {
  const zoom = $("zoom");
  zoom.hidden = !tile;
  if (!tile) return;
  const [x0, y0, x1, y1] = bounds(tile.corners);
  const pad = Math.max(x1 - x0, y1 - y0) * 0.15;
  zoom.setAttribute("viewBox", `${x0 - pad} ${y0 - pad} ${x1 - x0 + 2 * pad} ${y1 - y0 + 2 * pad}`);
  const photo = $("zoom-photo");
  photo.setAttribute("href", $("photo").getAttribute("href"));
  photo.setAttribute("width", state.labels.width);
  photo.setAttribute("height", state.labels.height);
  $("zoom-box").setAttribute("points", tile.corners.map((c) => c.join(",")).join(" "));
}

function bounds(corners) {
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

// ---- undo and redo: every change to a photo's labels is a step of that photo's history ----
function historyOf() {
  const image = state.labels ? state.labels.image : "";
  if (!histories.has(image)) histories.set(image, { undo: [], redo: [] });
  return histories.get(image);
}

const labelsSnapshot = () => JSON.stringify({ tiles: state.labels.tiles, status: state.labels.status });

// Call before changing the labels (or with the snapshot taken when a drag began).
function remember(snapshot = labelsSnapshot()) {
  const history = historyOf();
  history.undo.push(snapshot);
  if (history.undo.length > 500) history.undo.shift();
  history.redo = [];
}

function step(from, to) {
  const history = historyOf();
  if (!history[from].length) return;
  history[to].push(labelsSnapshot());
  const saved = JSON.parse(history[from].pop());
  state.labels.tiles = saved.tiles;
  state.labels.status = saved.status;
  state.photos[state.index].status = saved.status;
  state.pending = null;
  state.selected = Math.min(state.selected, state.labels.tiles.length - 1);
  save();
  render();
}

const undo = () => step("undo", "redo");
const redo = () => step("redo", "undo");

// ---- editing ----
function touched(tile) {
  tile.source = "person";
  tile.confidence = 1.0;
}

function setCode(code) {
  if (state.pending && state.codes.includes(code)) {
    remember();
    state.labels.tiles.push({ ...state.pending, code });
    state.pending = null;
    state.typed = "";
    state.selected = state.labels.tiles.length - 1;
    save();
    render();
    return;
  }
  const tile = state.labels.tiles[state.selected];
  state.typed = "";
  if (!tile || !state.codes.includes(code)) {
    showSave(tile ? `${code} is not a tile code` : "select a tile first", true);
    render();
    return;
  }
  remember();
  tile.code = code;
  touched(tile);
  state.selected = leastSure(state.selected);
  save();
  render();
}

function confirmTile() {
  const tile = state.labels.tiles[state.selected];
  if (!tile) return;
  remember();
  touched(tile);
  state.selected = leastSure(state.selected);
  save();
  render();
}

function removeTile() {
  if (state.pending) {
    state.pending = null;
    render();
    return;
  }
  if (state.selected < 0 || !state.labels.tiles.length) return;
  remember();
  state.labels.tiles.splice(state.selected, 1);
  state.selected = Math.min(state.selected, state.labels.tiles.length - 1);
  save();
  render();
}

// Bulk edits: every box the model was less sure of than `percent`, or whose middle is in `rect`.
function removeWhere(keep) {
  const before = state.labels.tiles.length;
  const kept = state.labels.tiles.filter(keep);
  if (kept.length === before) {
    showSave("no box to delete");
    return 0;
  }
  remember();
  state.labels.tiles = kept;
  state.selected = Math.min(state.selected, kept.length - 1);
  save();
  render();
  return before - kept.length;
}

function deleteBelow() {
  $("below").blur(); // the keys go back to the photo
  const percent = Number($("below").value);
  if (!(percent > 0 && percent <= 100)) {
    showSave("give a confidence from 1 to 100%", true);
    return;
  }
  removeWhere((tile) => tile.confidence * 100 >= percent);
}

function deleteInside([l, t, r, b]) {
  removeWhere((tile) => {
    const [x0, y0, x1, y1] = bounds(tile.corners);
    const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
    return !(cx >= l && cx <= r && cy >= t && cy <= b);
  });
}

function pendingBox(tile, scale) {
  const polygon = document.createElementNS(SVG, "polygon");
  polygon.setAttribute("points", tile.corners.map((c) => c.join(",")).join(" "));
  polygon.setAttribute("stroke-width", 2 * scale);
  polygon.classList.add("tile", "pending");
  return polygon;
}

// ---- zoom and pan: the SVG's viewBox is the part of the photo shown ----
function fitView() {
  state.view = { x: 0, y: 0, w: state.labels.width, h: state.labels.height };
  applyView();
}

function applyView() {
  const v = state.view;
  $("stage").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  const zoom = state.labels.width / v.w;
  $("zoom-level").textContent = `${Math.round(zoom * 100)}%`;
}

// Zoom by `factor` keeping the photo point (px, py) where it is on the screen.
function zoomBy(factor, px, py) {
  const v = state.view;
  const full = Math.max(state.labels.width, state.labels.height);
  const w = Math.min(state.labels.width * 1.5, Math.max(full / 40, v.w / factor));
  const h = (v.h / v.w) * w;
  const cx = px === undefined ? v.x + v.w / 2 : px;
  const cy = py === undefined ? v.y + v.h / 2 : py;
  state.view = { x: cx - ((cx - v.x) * w) / v.w, y: cy - ((cy - v.y) * h) / v.h, w, h };
  applyView();
}

function panBy(dx, dy) {
  state.view = { ...state.view, x: state.view.x + dx, y: state.view.y + dy };
  applyView();
}

function onWheel(event) {
  if (!state.labels) return;
  event.preventDefault();
  const [x, y] = svgPoint(event, false);
  zoomBy(Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0015)), x, y);
}

async function accept() {
  remember();
  state.labels.status = "reviewed";
  state.photos[state.index].status = "reviewed";
  await save();
  if (state.index + 1 < state.photos.length) await openPhoto(state.index + 1);
  else render();
}

function cycle(step) {
  const count = state.labels.tiles.length;
  if (!count) return;
  state.selected = (state.selected + step + count) % count;
  state.typed = "";
  render();
}

function onKey(event) {
  if (!state.labels || event.altKey) return;
  const key = event.key;
  if (event.ctrlKey || event.metaKey) {
    const lower = key.toLowerCase();
    if (lower === "z" && !event.shiftKey) undo();
    else if (lower === "y" || lower === "z") redo();
    else return;
    event.preventDefault();
    return;
  }
  if (event.target && event.target.matches && event.target.matches("input")) return; // typing a number
  const pan = Math.max(state.view.w, state.view.h) * 0.1;
  if (event.shiftKey && key.startsWith("Arrow")) {
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    panBy(dx * pan, dy * pan);
  } else if (key === "+" || key === "=") zoomBy(1.25);
  else if (key === "-" || key === "_") zoomBy(0.8);
  else if (key === "0") fitView();
  else if (key === "h" || key === "H") { state.hidden = !state.hidden; render(); }
  else if (key === "Enter") accept();
  else if (key === "ArrowRight" || key === "PageDown") openPhoto(state.index + 1);
  else if (key === "ArrowLeft" || key === "PageUp") openPhoto(state.index - 1);
  else if (key === "Tab") cycle(event.shiftKey ? -1 : 1);
  else if (key === "Delete" || key === "Backspace") removeTile();
  else if (key === " ") confirmTile();
  else if (key === "Escape") { state.typed = ""; state.pending = null; state.region = false; render(); }
  else if (/^[1-9]$/.test(key)) { state.typed = key; render(); }
  else if (state.typed && /^[mpsf]$/i.test(key)) setCode(state.typed + key.toLowerCase());
  else if (/^[eswncfp]$/i.test(key)) setCode(key.toUpperCase());
  else if (key === "b" || key === "B") setCode("back");
  else return;
  event.preventDefault();
}

// ---- mouse: move corners, move boxes, draw new boxes ----
function svgPoint(event, clamped = true) {
  const stage = $("stage");
  const point = stage.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(stage.getScreenCTM().inverse());
  if (!clamped) return [p.x, p.y];
  const clamp = (v, top) => Math.round(Math.max(0, Math.min(top, v)) * 100) / 100;
  return [clamp(p.x, state.labels.width), clamp(p.y, state.labels.height)];
}

// Two fingers on the photo: pinch to zoom, move them to pan (screen pixels to photo pixels).
function pinch() {
  const [a, b] = [...pointers.values()];
  return { mid: [(a.x + b.x) / 2, (a.y + b.y) / 2], span: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
}

function onPinchMove() {
  const now = pinch();
  const before = state.drag.pinch;
  const stage = $("stage").getBoundingClientRect();
  const perPixel = Math.max(state.view.w / stage.width, state.view.h / stage.height);
  panBy((before.mid[0] - now.mid[0]) * perPixel, (before.mid[1] - now.mid[1]) * perPixel);
  const ctm = $("stage").getScreenCTM().inverse();
  const point = $("stage").createSVGPoint();
  point.x = now.mid[0];
  point.y = now.mid[1];
  const p = point.matrixTransform(ctm);
  zoomBy(now.span / before.span, p.x, p.y);
  state.drag.pinch = now;
}

function onPointerDown(event) {
  if (!state.labels) return;
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  try {
    $("stage").setPointerCapture(event.pointerId);
  } catch {
    // a pointer the browser no longer knows (already lifted): nothing to capture
  }
  if (pointers.size === 2) {
    if (state.drag && state.drag.before && state.drag.moved) {
      state.labels.tiles = JSON.parse(state.drag.before).tiles; // a pinch, not a drag: undo the first finger's move
      render();
    }
    $("rubber").classList.remove("on");
    state.drag = { kind: "pinch", pinch: pinch(), moved: false };
    return;
  }
  if (pointers.size > 2) return;
  const target = event.target;
  const start = svgPoint(event);
  const middle = event.button === 1 || (event.button === 0 && event.altKey);
  if (middle) {
    state.drag = { kind: "pan", last: [event.clientX, event.clientY] };
  } else if (state.region || event.shiftKey) {
    state.drag = { kind: "region", start };
  } else if (state.hidden) {
    state.drag = { kind: "pan", last: [event.clientX, event.clientY] };
  } else if (target.dataset.corner !== undefined) {
    state.drag = { kind: "corner", corner: Number(target.dataset.corner) };
  } else if (target.dataset.index !== undefined && target.tagName === "polygon") {
    state.selected = Number(target.dataset.index);
    const corners = state.labels.tiles[state.selected].corners.map((c) => c.slice());
    state.drag = { kind: "move", start, corners };
    render();
  } else {
    state.drag = { kind: "draw", start };
  }
  state.drag.moved = false;
  if (state.drag.kind === "corner" || state.drag.kind === "move") state.drag.before = labelsSnapshot();
}

function onPointerMove(event) {
  if (pointers.has(event.pointerId)) pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  const drag = state.drag;
  if (!drag) return;
  if (drag.kind === "pinch") {
    if (pointers.size === 2) onPinchMove();
    return;
  }
  if (drag.kind === "pan") {
    const stage = $("stage").getBoundingClientRect();
    const perPixel = Math.max(state.view.w / stage.width, state.view.h / stage.height);
    panBy((drag.last[0] - event.clientX) * perPixel, (drag.last[1] - event.clientY) * perPixel);
    drag.last = [event.clientX, event.clientY];
    return;
  }
  const [x, y] = svgPoint(event);
  drag.moved = true;
  if (drag.kind === "corner") {
    state.labels.tiles[state.selected].corners[drag.corner] = [x, y];
    render();
  } else if (drag.kind === "move") {
    const [dx, dy] = [x - drag.start[0], y - drag.start[1]];
    state.labels.tiles[state.selected].corners = drag.corners.map(([cx, cy]) => [cx + dx, cy + dy]);
    render();
  } else {
    const rubber = $("rubber");
    const [x0, y0] = drag.start;
    rubber.setAttribute("x", Math.min(x0, x));
    rubber.setAttribute("y", Math.min(y0, y));
    rubber.setAttribute("width", Math.abs(x - x0));
    rubber.setAttribute("height", Math.abs(y - y0));
    rubber.classList.add("on");
    rubber.classList.toggle("region", drag.kind === "region");
    drag.end = [x, y];
  }
}

function onPointerUp(event) {
  pointers.delete(event.pointerId);
  const drag = state.drag;
  if (drag && drag.kind === "pinch" && pointers.size) return; // until the last finger lifts
  state.drag = null;
  $("rubber").classList.remove("on"); // the rubber band never outlives its drag
  if (!drag || !drag.moved) return;
  if (drag.kind === "draw" || drag.kind === "region") {
    const [x0, y0] = drag.start;
    const [x1, y1] = drag.end || drag.start;
    const rect = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
    if (drag.kind === "region") {
      state.region = false;
      deleteInside(rect);
      return;
    }
    if (Math.abs(x1 - x0) < 4 || Math.abs(y1 - y0) < 4) return;
    const [l, t, r, b] = rect;
    // a new box waits for its code (typed or picked); it is saved only once it has one
    state.pending = { code: null, corners: [[l, t], [r, t], [r, b], [l, b]], confidence: 1.0, source: "person", group: null };
    state.typed = "";
    render();
    return;
  }
  if (drag.kind === "corner" || drag.kind === "move") {
    remember(drag.before);
    touched(state.labels.tiles[state.selected]);
    save();
    render();
  }
}

function start() {
  document.addEventListener("keydown", onKey);
  const stage = $("stage");
  stage.addEventListener("pointerdown", onPointerDown);
  stage.addEventListener("pointermove", onPointerMove);
  stage.addEventListener("pointerup", onPointerUp);
  stage.addEventListener("pointercancel", onPointerUp);
  stage.addEventListener("wheel", onWheel, { passive: false });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("zoom-fit").addEventListener("click", fitView);
  $("toggle-boxes").addEventListener("click", () => { state.hidden = !state.hidden; render(); });
  $("region").addEventListener("click", () => { state.region = !state.region; render(); });
  $("delete-below").addEventListener("click", deleteBelow);
  $("code-grid").addEventListener("click", (event) => {
    const code = event.target.closest("[data-code]");
    if (code) setCode(code.dataset.code);
  });
  $("tiles").addEventListener("click", (event) => {
    if (event.target.dataset.index === undefined) return;
    state.selected = Number(event.target.dataset.index);
    render();
  });
  // Buttons never take the focus, so Enter and the arrows always go to the key handler.
  document.querySelectorAll("button").forEach((b) => b.addEventListener("mousedown", (e) => e.preventDefault()));
  $("prev").addEventListener("click", () => openPhoto(state.index - 1));
  $("next").addEventListener("click", () => openPhoto(state.index + 1));
  $("accept").addEventListener("click", accept);
  loadList()
    .then(() => {
      const wanted = decodeURIComponent(location.hash.slice(1));
      const found = state.photos.findIndex((p) => p.image === wanted);
      return openPhoto(found >= 0 ? found : 0);
    })
    .catch((error) => showSave(`cannot load the photos: ${error.message}`, true));
}

start();
