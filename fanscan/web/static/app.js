// fanscan referee page: read a photo (POST /api/read), let the referee fix the hand on the photo or
// in the hand, and score it (POST /api/score) after every edit. No framework: `state` holds the
// hand, `render()` redraws it; every change is one undo step and is kept in the tab's storage.
"use strict";

const DOUBT = 0.8; // found tiles under this confidence are highlighted as doubtful
const DOUBTS_SHOWN = 5; // doubts listed open; the rest are folded
const HISTORY_LIMIT = 200;
const STORE_KEY = "fanscan.referee.v1";
const MELD_SIZES = { chow: 3, pung: 3, kong: 4 };
const BASE_FIELDS = [
  "concealed", "melds", "win_tile", "flowers", "self_drawn", "seat_wind", "round_wind",
  "fourth_tile", "kong", "last_tile",
];
const CONDITIONS = ["self_drawn", "seat_wind", "round_wind", "fourth_tile", "kong", "last_tile"];

const $ = (id) => document.getElementById(id);
const t = (key, params) => window.fanscanI18n.t(key, params);

// An item is one tile of the hand: {code, tile, read, win}. `tile` indexes the reading's tiles
// (-1: no box on the photo), `read` is the code the reader gave it (null: added by hand).
const state = {
  hand: emptyHand(),
  rules: "mcr",
  extra: {},   // values of the rule sets' own hand fields, by name
  photo: null, // id of the photo and reading shown (keys of `readings`), null without one; last
};
const readings = {}; // photo id -> the /api/read answer
const images = {};   // photo id -> <img>
const blobs = {};    // photo id -> the photo file, for "Save as labelled data"
let undoStack = [];
let redoStack = [];
let current = "";    // the snapshot of `state` as last committed
let focus = null;    // the item shown selected on both the photo and the hand
let selection = null; // the picker's target: {item} or {add: group, tile?}
let added = [];      // codes added while the picker has stayed open
let lastResult = null;
let ruleSets = [];
let tileCodes = [];
let tileOrder = new Map();
let scoreTimer = null;
let scoreSeq = 0;
let readSeq = 0;
let maxUploadBytes = 25 * 1024 * 1024;
let labelledEnabled = false;
let photoLayout = null; // where the last drawing put the photo: {scale}

function emptyHand() {
  return {
    concealed: [], melds: [], flowers: [], self_drawn: false, seat_wind: "E", round_wind: "E",
    fourth_tile: false, kong: false, last_tile: false,
  };
}

const isFlower = (code) => /^[1-8]f$/.test(code);
const item = (code, tile = -1, read = null) => ({ code, tile, read, win: false });
const reading = () => (state.photo ? readings[state.photo] : null);

// ---------------------------------------------------------------- hand state

function handJson() {
  const h = state.hand;
  const win = h.concealed.find((i) => i.win);
  const hand = {
    concealed: h.concealed.map((i) => i.code),
    melds: h.melds.map((m) => ({ type: m.type, tiles: m.tiles.map((i) => i.code), concealed: !!m.concealed })),
    win_tile: win ? win.code : null,
    flowers: h.flowers.map((i) => i.code),
  };
  for (const key of CONDITIONS) hand[key] = h[key];
  for (const field of currentRuleSet().fields || []) {
    if (field.name in state.extra) hand[field.name] = state.extra[field.name];
  }
  return hand;
}

function currentRuleSet() {
  return ruleSets.find((r) => r.name === state.rules) || { fields: [] };
}

function handIsEmpty() {
  const h = state.hand;
  return h.concealed.length === 0 && h.melds.length === 0 && h.flowers.length === 0;
}

const sameCodes = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);

// The hand JSON as items, each linked to the box on the photo it was read from.
function itemsFromHand(hand, read) {
  const tiles = (read && read.tiles) || [];
  const groups = (read && read.groups) || [];
  const used = new Set();
  const take = (code, among, anyCode) => {
    for (const i of among) if (!used.has(i) && tiles[i] && (anyCode || tiles[i].code === code)) { used.add(i); return i; }
    return -1;
  };
  const everywhere = tiles.map((_, i) => i).filter((i) => tiles[i].in_hand !== false);
  const usedGroups = new Set();
  const melds = (hand.melds || []).map((m) => {
    const g = groups.findIndex((gr, k) => !usedGroups.has(k) && gr.meld && gr.meld.type === m.type
      && sameCodes(gr.meld.tiles, m.tiles));
    const among = g >= 0 ? groups[g].tiles : [];
    if (g >= 0) usedGroups.add(g);
    const links = m.tiles.map((code) => take(code, among, false));
    // a concealed kong's face-down tiles: the group's remaining boxes, in order
    const linked = links.map((link) => (link >= 0 ? link : take(null, among, true)));
    return {
      type: m.type, concealed: !!m.concealed,
      tiles: m.tiles.map((code, k) => item(code, linked[k] >= 0 ? linked[k] : take(code, everywhere, false), code)),
    };
  });
  const byRole = (roles) => groups.filter((g) => roles.includes(g.role)).flatMap((g) => g.tiles);
  const winBoxes = new Set(byRole(["win"]));
  const concealedBoxes = byRole(["concealed", "win"]);
  const concealed = (hand.concealed || []).map((code) => {
    let link = take(code, concealedBoxes, false);
    if (link < 0) link = take(code, everywhere, false);
    return item(code, link, code);
  });
  const flowerBoxes = byRole(["flowers"]);
  const flowers = (hand.flowers || []).map((code) => {
    let link = take(code, flowerBoxes, false);
    if (link < 0) link = take(code, everywhere, false);
    return item(code, link, code);
  });
  if (hand.win_tile) {
    const win = concealed.find((i) => winBoxes.has(i.tile) && i.code === hand.win_tile)
      || [...concealed].reverse().find((i) => i.code === hand.win_tile);
    if (win) win.win = true;
  }
  return { concealed, melds, flowers };
}

function loadHand(hand, read) {
  const items = itemsFromHand(hand, read);
  const conditions = {};
  for (const key of CONDITIONS) conditions[key] = key in hand ? hand[key] : emptyHand()[key];
  state.hand = { ...items, ...conditions };
  for (const key of Object.keys(hand)) {
    if (!BASE_FIELDS.includes(key)) state.extra[key] = hand[key];
  }
}

// Where `it` is in the hand: {group: "concealed"|"flowers"|"meld", meld, index}, or null.
function locate(it) {
  const h = state.hand;
  for (const group of ["concealed", "flowers"]) {
    const index = h[group].indexOf(it);
    if (index >= 0) return { group, index };
  }
  for (let m = 0; m < h.melds.length; m++) {
    const index = h.melds[m].tiles.indexOf(it);
    if (index >= 0) return { group: "meld", meld: m, index };
  }
  return null;
}

function takeItem(it) {
  const where = locate(it);
  if (!where) return it;
  it.win = false;
  if (where.group !== "meld") return state.hand[where.group].splice(where.index, 1)[0];
  const meld = state.hand.melds[where.meld];
  meld.tiles.splice(where.index, 1);
  if (meld.tiles.length === 0) state.hand.melds.splice(where.meld, 1);
  return it;
}

function put(it, target) {
  if (isFlower(it.code) && target !== "flowers") target = "flowers";
  else if (!isFlower(it.code) && target === "flowers") target = "concealed";
  if (target === "concealed" || target === "flowers") state.hand[target].push(it);
  else if (target === "new-meld") state.hand.melds.push({ type: "pung", tiles: [it], concealed: false });
  else state.hand.melds[Number(target)].tiles.push(it);
}

function replaceItem(it, code) {
  const where = locate(it);
  if (!where) return;
  if (isFlower(code) !== isFlower(it.code)) {
    takeItem(it);
    it.code = code;
    put(it, isFlower(code) ? "flowers" : "concealed");
    return;
  }
  if (where.group === "meld") {
    const meld = state.hand.melds[where.meld];
    // a pung or kong is one face: fixing one tile fixes them all
    if (meld.type === "chow") it.code = code;
    else meld.tiles.forEach((i) => { i.code = code; });
  } else {
    it.code = code;
  }
}

function nextRanks(code, count) {
  const m = /^([1-9])([mps])$/.exec(code);
  if (!m) return null;
  const rank = Number(m[1]);
  if (rank + count - 1 > 9) return null;
  return Array.from({ length: count }, (_, i) => `${rank + i}${m[2]}`);
}

// Turn a concealed tile and its partners (taken from the concealed tiles) into a meld.
function makeMeld(it, kind) {
  const type = kind === "concealed-kong" ? "kong" : kind;
  const wanted = type === "chow" ? nextRanks(it.code, 3) : Array(MELD_SIZES[type]).fill(it.code);
  if (!wanted) return t("noChowAt", { code: it.code });
  const chosen = [];
  for (const want of wanted) {
    const found = want === it.code && !chosen.includes(it)
      ? it : state.hand.concealed.find((i) => i.code === want && !chosen.includes(i) && i !== it);
    if (!found) return t("noTileForMeld", { code: want, type: t(`meld.${type}`) });
    chosen.push(found);
  }
  chosen.forEach(takeItem);
  state.hand.melds.push({ type, tiles: chosen, concealed: kind === "concealed-kong" });
  return null;
}

function setMeldType(index, type) {
  const meld = state.hand.melds[index];
  meld.type = type;
  if (type !== "kong") meld.concealed = false;
  const first = meld.tiles[0];
  if (!first) return;
  const codes = type === "chow" ? nextRanks(first.code, 3) || meld.tiles.map((i) => i.code)
    : Array(MELD_SIZES[type]).fill(first.code);
  const tiles = codes.map((code, k) => {
    const old = meld.tiles[k] || item(code);
    old.code = code;
    return old;
  });
  meld.tiles = tiles;
}

function breakMeld(index) {
  const [meld] = state.hand.melds.splice(index, 1);
  state.hand.concealed.push(...meld.tiles);
}

// Concealed tiles and flowers in the contract's order (suits, winds, dragons), chows upward.
function sortHand() {
  const rank = (i) => (tileOrder.has(i.code) ? tileOrder.get(i.code) : 99);
  const byRank = (a, b) => rank(a) - rank(b);
  state.hand.concealed.sort(byRank);
  state.hand.flowers.sort(byRank);
  for (const meld of state.hand.melds) if (meld.type === "chow") meld.tiles.sort(byRank);
}

// ---------------------------------------------------------------- undo, redo, keeping the hand

const snapshot = () => JSON.stringify(state);

function restore(text) {
  const saved = JSON.parse(text);
  state.hand = saved.hand;
  state.rules = saved.rules;
  state.extra = saved.extra || {};
  state.photo = saved.photo && readings[saved.photo] ? saved.photo : null;
  focus = null;
  $("rules").value = state.rules;
  renderRuleFields();
  if (state.photo && !images[state.photo]) loadStoredPhoto(state.photo);
}

// Every change ends here: one undo step, redrawn, scored and kept in the tab's storage.
function changed() {
  sortHand();
  const now = snapshot();
  if (now !== current) {
    undoStack.push(current);
    if (undoStack.length > HISTORY_LIMIT) undoStack.shift();
    redoStack = [];
    current = now;
  }
  refresh();
}

function refresh() {
  render();
  scheduleScore();
  persist();
}

function undo() {
  if (!undoStack.length) return;
  closePicker(); // its target belongs to the hand being replaced
  redoStack.push(current);
  current = undoStack.pop();
  restore(current);
  refresh();
}

function redo() {
  if (!redoStack.length) return;
  closePicker();
  undoStack.push(current);
  current = redoStack.pop();
  restore(current);
  refresh();
}

// `photo` is the last key of a snapshot (see `state`), so it is read without parsing the rest.
function photoIds(snapshots) {
  const ids = new Set();
  for (const text of snapshots) {
    const found = text && /"photo":"([^"]+)"}$/.exec(text);
    if (found) ids.add(found[1]);
  }
  return ids;
}

function persist() {
  const wanted = photoIds([current, ...undoStack, ...redoStack]);
  for (const id of Object.keys(readings)) if (!wanted.has(id) && id !== pendingPhoto) dropPhoto(id);
  const kept = {};
  for (const id of wanted) kept[id] = readings[id];
  for (;;) {
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify({ current, undo: undoStack, redo: redoStack, readings: kept }));
      return;
    } catch {
      if (!undoStack.length) return; // the storage is full even without history: keep going unsaved
      undoStack.splice(0, Math.ceil(undoStack.length / 2));
    }
  }
}

function restoreSession() {
  let saved;
  try {
    saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
  } catch {
    saved = null;
  }
  if (!saved || !saved.current) return false;
  Object.assign(readings, saved.readings || {});
  undoStack = saved.undo || [];
  redoStack = saved.redo || [];
  current = saved.current;
  restore(current);
  return true;
}

// The photos themselves are kept in IndexedDB (too big for sessionStorage), by photo id; the ids
// start with this tab's id, so that a tab only ever deletes its own.
let pendingPhoto = null;
const tabId = (() => {
  const fresh = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  try {
    let id = sessionStorage.getItem(`${STORE_KEY}.tab`);
    if (!id) {
      id = fresh;
      sessionStorage.setItem(`${STORE_KEY}.tab`, id);
    }
    return id;
  } catch {
    return fresh; // no storage (a locked-down browser): the page works, a reload starts afresh
  }
})();
let photoCount = 0;
const newPhotoId = () => `${tabId}-${Date.now().toString(36)}-${photoCount++}`;

function photoStore(mode, work) {
  return new Promise((resolve) => {
    let open;
    try {
      open = indexedDB.open("fanscan-referee", 1);
    } catch {
      resolve(null);
      return;
    }
    open.onupgradeneeded = () => open.result.createObjectStore("photos");
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction("photos", mode);
      const request = work(tx.objectStore("photos"));
      tx.oncomplete = () => { db.close(); resolve(request ? request.result : null); };
      tx.onerror = () => { db.close(); resolve(null); };
    };
  });
}

async function storePhoto(id, blob) {
  await photoStore("readwrite", (store) => store.put(blob, id));
  document.body.dataset.photoStored = id; // the tests wait for this before reloading
}

function dropPhoto(id) {
  delete readings[id];
  delete images[id];
  delete blobs[id];
  photoStore("readwrite", (store) => store.delete(id));
}

async function loadStoredPhoto(id) {
  const blob = await photoStore("readonly", (store) => store.get(id));
  if (!blob || !readings[id]) return;
  blobs[id] = blob;
  try {
    images[id] = await loadImage(blob);
  } catch {
    return;
  }
  if (state.photo === id) render();
}

// ---------------------------------------------------------------- drawing the hand

function tileButton(code, classes, label, shown) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = ["tile", ...classes].filter(Boolean).join(" ");
  button.dataset.code = code;
  button.setAttribute("aria-label", label || code);
  const img = document.createElement("img");
  img.src = `/tiles/${shown || code}.svg`;
  img.alt = "";
  img.draggable = false;
  const caption = document.createElement("span");
  caption.className = "code";
  caption.textContent = code;
  button.append(img, caption);
  return button;
}

const isFixed = (it) => it.read !== null && it.code !== it.read;

// The hand's tiles still as read that the reader was unsure of: what a referee should check.
function doubtfulInHand() {
  const r = reading();
  if (!r) return 0;
  const h = state.hand;
  return [...h.concealed, ...h.melds.flatMap((m) => m.tiles), ...h.flowers].filter((it) =>
    it.tile >= 0 && !isFixed(it) && !it.checked && r.tiles[it.tile] && r.tiles[it.tile].confidence < DOUBT).length;
}

// "minimum N: met" (or not); met with tiles of the hand still doubtful says so.
function minimumText(result, doubtful) {
  if (!result.meets_minimum) return t("minimumNotMet", { n: result.minimum });
  return t(doubtful ? "minimumMetUnsure" : "minimumMet", { n: result.minimum, d: doubtful });
}

function itemClasses(it) {
  const r = reading();
  const box = r && it.tile >= 0 ? r.tiles[it.tile] : null;
  return [
    it.win ? "win" : "",
    isFixed(it) ? "fixed" : "",
    it.read === null && r ? "added" : "",
    box && !isFixed(it) && !it.checked && box.confidence < DOUBT ? "doubt" : "",
    it === focus ? "focus" : "",
  ];
}

function itemButton(it, label, shown) {
  const button = tileButton(it.code, itemClasses(it), label, shown);
  if (it.tile >= 0) button.dataset.box = String(it.tile);
  button.addEventListener("click", () => {
    focus = it;
    openPicker({ item: it });
  });
  return button;
}

function render() {
  const h = state.hand;
  const concealed = $("concealed");
  concealed.replaceChildren(...h.concealed.map((it) => itemButton(it, it.win ? t("winningTileLabel", { code: it.code }) : it.code)));
  const melded = h.melds.reduce((n, m) => n + Math.min(m.tiles.length, 3), 0);
  $("concealed-count").textContent = h.concealed.length
    ? t(melded ? "countWithMelds" : "count", { n: h.concealed.length, all: melded + h.concealed.length })
    : "";
  $("melds").replaceChildren(...h.melds.map(meldRow));
  $("flowers").replaceChildren(...h.flowers.map((it) => itemButton(it)));

  const win = $("win-tile");
  win.replaceChildren();
  const winItem = h.concealed.find((i) => i.win);
  if (winItem) {
    const img = document.createElement("img");
    img.src = `/tiles/${winItem.code}.svg`;
    img.alt = winItem.code;
    win.append(img, document.createTextNode(` ${winItem.code}`));
  } else {
    win.textContent = t("noWinTile");
  }

  for (const key of ["self_drawn", "fourth_tile", "kong", "last_tile"]) $(key).checked = !!h[key];
  $("seat_wind").value = h.seat_wind || "E";
  $("round_wind").value = h.round_wind || "E";
  $("kong-label").textContent = t(h.self_drawn ? "kongReplacement" : "robbingKong");
  $("last-label").textContent = t(h.self_drawn ? "lastWallTile" : "lastDiscard");
  $("undo").disabled = !undoStack.length;
  $("redo").disabled = !redoStack.length;
  $("save-labelled").hidden = !labelledEnabled || !state.photo;
  renderReading();
  drawPhoto();
}

function meldRow(meld, m) {
  const row = document.createElement("div");
  row.className = "meld";
  const tiles = document.createElement("div");
  tiles.className = "tiles";
  meld.tiles.forEach((it, index) => {
    const shown = meld.type === "kong" && meld.concealed && (index === 0 || index === 3) ? "back" : it.code;
    tiles.append(itemButton(it, t("inMeld", { code: it.code, n: m + 1 }), shown));
  });
  const controls = document.createElement("div");
  controls.className = "meld-controls";
  const type = document.createElement("select");
  type.setAttribute("aria-label", t("meldType", { n: m + 1 }));
  for (const kind of ["chow", "pung", "kong"]) type.append(new Option(t(`meld.${kind}`), kind, false, kind === meld.type));
  type.addEventListener("change", () => { setMeldType(m, type.value); changed(); });
  controls.append(type);
  if (meld.type === "kong") {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = !!meld.concealed;
    box.addEventListener("change", () => { meld.concealed = box.checked; changed(); });
    label.append(box, ` ${t("concealedKongBox")}`);
    controls.append(label);
  }
  const unmeld = document.createElement("button");
  unmeld.type = "button";
  unmeld.className = "link";
  unmeld.textContent = t("breakUp");
  unmeld.addEventListener("click", () => { breakMeld(m); changed(); });
  controls.append(unmeld);
  row.append(tiles, controls);
  return row;
}

// ---------------------------------------------------------------- the tile picker

function openPicker(sel) {
  selection = sel;
  added = [];
  const adding = "add" in sel;
  const code = adding ? null : sel.item.code;
  const where = adding ? null : locate(sel.item);
  let title;
  if (!adding) title = t("pickFace", { code });
  else if (sel.tile !== undefined) title = t("putBack");
  else title = t({ concealed: "addConcealed", flowers: "addFlower", "new-meld": "addMeld" }[sel.add]);
  $("picker-title").textContent = title;
  $("picker-note").textContent = adding && sel.tile === undefined && sel.add !== "new-meld" ? t("pickSeveral") : "";
  $("picker-note").className = "picker-note";
  $("picker-actions").hidden = adding;
  const inConcealed = !!where && where.group === "concealed";
  $("act-win").hidden = !inConcealed;
  for (const b of document.querySelectorAll("[data-make]")) b.hidden = !inConcealed || isFlower(code || "");
  if (!adding) fillMoveTargets(where);
  for (const b of $("picker-grid").children) b.classList.toggle("current", b.dataset.code === code);
  render();
  if (!$("picker").open) $("picker").showModal();
}

function fillMoveTargets(where) {
  const move = $("move-to");
  move.replaceChildren(new Option("…", ""));
  if (where.group !== "concealed") move.append(new Option(t("concealedTiles"), "concealed"));
  state.hand.melds.forEach((meld, m) => {
    if (where.group !== "meld" || where.meld !== m) {
      const first = meld.tiles[0] ? meld.tiles[0].code : "";
      move.append(new Option(t("meldOption", { n: m + 1, type: t(`meld.${meld.type}`), code: first }), String(m)));
    }
  });
  move.append(new Option(t("newMeld"), "new-meld"));
}

function closePicker() {
  if ($("picker").open) $("picker").close();
  selection = null;
}

function buildPickerGrid() {
  const grid = $("picker-grid");
  for (const code of tileCodes) {
    const button = tileButton(code, []);
    button.addEventListener("click", () => pick(code));
    grid.append(button);
  }
}

function pick(code) {
  const sel = selection;
  if (!sel) return;
  if (!("add" in sel)) {
    if (code === sel.item.code) sel.item.checked = true; // looked at and kept: no longer in doubt
    replaceItem(sel.item, code);
    closePicker();
    changed();
    return;
  }
  const r = reading();
  const box = sel.tile !== undefined ? sel.tile : -1;
  // a box put back into the hand counts as read as the reader's code, so a new face is a fix
  const it = item(code, box, box >= 0 && r ? r.tiles[box].code : null);
  const melds = state.hand.melds.length;
  put(it, sel.add);
  if (state.hand.melds.length > melds) setMeldType(melds, "pung"); // a new meld: a pung of that face
  if (box >= 0 || sel.add === "new-meld") {
    focus = it;
    closePicker();
    changed();
    return;
  }
  // adding tiles one after another: the picker stays open until Done
  added.push(code);
  $("picker-note").textContent = t("added", { n: added.length, codes: added.join(" ") });
  $("picker-note").className = "picker-note ok";
  changed();
}

function wirePicker() {
  $("act-win").addEventListener("click", () => {
    const it = selection.item;
    for (const i of state.hand.concealed) i.win = i === it;
    closePicker();
    changed();
  });
  $("act-remove").addEventListener("click", () => {
    takeItem(selection.item);
    if (focus === selection.item) focus = null;
    closePicker();
    changed();
  });
  for (const button of document.querySelectorAll("[data-make]")) {
    button.addEventListener("click", () => {
      const problem = makeMeld(selection.item, button.dataset.make);
      if (problem) {
        $("picker-note").textContent = problem;
        $("picker-note").className = "picker-note";
        return;
      }
      closePicker();
      changed();
    });
  }
  $("move-to").addEventListener("change", () => {
    const target = $("move-to").value;
    if (!target) return;
    const it = selection.item;
    // moving out of a meld that it empties renumbers the later melds
    const where = locate(it);
    const emptied = where.group === "meld" && state.hand.melds[where.meld].tiles.length === 1;
    takeItem(it);
    const shifted = emptied && /^\d+$/.test(target) && Number(target) > where.meld
      ? String(Number(target) - 1) : target;
    put(it, shifted);
    closePicker();
    changed();
  });
  $("picker").addEventListener("close", () => { selection = null; render(); });
}

// A field's short name for its label ("wild_indicator" -> "wild indicator"); its help is the tooltip.
const fieldName = (field) => field.name.replace(/_/g, " ");

// The chosen rule set's own hand fields (for example a first-turn win), as inputs: a checkbox
// labelled by its help, a list of its words, or a short text or number box under its name.
function renderRuleFields() {
  const box = $("rule-fields");
  box.replaceChildren();
  for (const field of currentRuleSet().fields || []) {
    const label = document.createElement("label");
    label.title = field.help || "";
    const value = field.name in state.extra ? state.extra[field.name] : field.default;
    if (typeof field.default === "boolean") {
      const input = document.createElement("input");
      input.id = `field-${field.name}`;
      input.type = "checkbox";
      input.checked = !!value;
      input.addEventListener("change", () => { state.extra[field.name] = input.checked; changed(); });
      label.append(input, ` ${field.help || field.name}`);
    } else {
      label.className = "value";
      let input;
      if (field.choices) {
        input = document.createElement("select");
        for (const choice of field.choices) input.append(new Option(choice, choice));
      } else {
        input = document.createElement("input");
        input.type = typeof field.default === "number" ? "number" : "text";
      }
      input.id = `field-${field.name}`;
      input.value = value == null ? "" : String(value);
      input.addEventListener("change", () => {
        const raw = input.value.trim();
        if (raw === "") delete state.extra[field.name];
        else state.extra[field.name] = typeof field.default === "number" ? Number(raw) : raw;
        changed();
      });
      const help = document.createElement("small");
      help.textContent = field.help || "";
      label.append(fieldName(field), input, help);
    }
    box.append(label);
  }
}

// ---------------------------------------------------------------- scoring

function scheduleScore() {
  clearTimeout(scoreTimer);
  scoreTimer = setTimeout(runScore, 150);
}

async function runScore() {
  const seq = ++scoreSeq;
  if (handIsEmpty()) {
    showResult(null);
    return;
  }
  $("spot").classList.add("busy");
  let result;
  try {
    const response = await fetch("/api/score", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...handJson(), rules: state.rules }),
    });
    const body = await response.json();
    result = response.ok ? body : { total: null, fans: [], error: body.detail };
  } catch (error) {
    result = { total: null, fans: [], error: t("noServer") };
  }
  if (seq !== scoreSeq) return; // a later edit has been sent meanwhile
  $("spot").classList.remove("busy");
  showResult(result);
}

// A fan's name in the page's language first, the other language after it.
function fanNames(fan) {
  const chinese = fan.chinese ? window.fanscanI18n.chinese(fan.chinese) : "";
  return window.fanscanI18n.isChinese() && chinese ? [chinese, fan.name] : [fan.name, chinese];
}

function showResult(result) {
  lastResult = result;
  const spot = $("spot");
  const verdict = $("verdict");
  const body = $("fans").querySelector("tbody");
  body.replaceChildren();
  $("flower-points").textContent = "";
  const error = $("score-error");
  error.hidden = true;
  spot.className = "spot";
  verdict.className = "verdict";
  const spotFans = $("spot-fans");
  spotFans.hidden = true;
  drawPhoto();
  if (!result) {
    spot.classList.add("empty");
    verdict.classList.add("empty");
    $("spot-total").textContent = "–";
    $("spot-minimum").textContent = t("noHandYet");
    $("total").textContent = "–";
    $("minimum").textContent = t("startHint");
    return;
  }
  if (result.total === null || result.total === undefined) {
    spot.classList.add("invalid");
    verdict.classList.add("invalid");
    $("spot-total").textContent = "✗";
    $("spot-minimum").textContent = t("cannotScore");
    $("total").textContent = "–";
    $("minimum").textContent = "";
    error.textContent = result.error || t("cannotScoreHand");
    error.hidden = false;
    spotFans.textContent = error.textContent;
    spotFans.hidden = false;
    return;
  }
  const met = !!result.meets_minimum;
  const doubtful = doubtfulInHand();
  spot.classList.add(met ? "met" : "unmet");
  verdict.classList.add(met ? "met" : "unmet");
  if (met && doubtful) {
    spot.classList.add("unsure");
    verdict.classList.add("unsure");
  }
  $("spot-total").textContent = String(result.total);
  const minimum = minimumText(result, doubtful);
  $("spot-minimum").textContent = minimum;
  $("total").textContent = String(result.total);
  $("minimum").textContent = minimum;
  for (const fan of result.fans || []) {
    const row = document.createElement("tr");
    const [first, second] = fanNames(fan);
    const cells = [first, second, fan.count > 1 ? `×${fan.count}` : "", String(fan.points * (fan.count || 1))];
    cells.forEach((text, i) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      if (i >= 2) cell.className = "num";
      row.append(cell);
    });
    body.append(row);
  }
  spotFans.textContent = (result.fans || [])
    .map((fan) => `${fanNames(fan)[0]} ${fan.points * (fan.count || 1)}`)
    .join(" · ");
  spotFans.hidden = !spotFans.textContent;
  if (result.flower_points) $("flower-points").textContent = t("flowerPoints", { n: result.flower_points });
}

// ---------------------------------------------------------------- the photo

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind || ""}`.trim();
}

function loadImage(blob) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("not an image"));
    img.src = URL.createObjectURL(blob);
  });
}

async function readPhoto(file) {
  if (!file) return;
  const seq = ++readSeq;
  if (file.size > maxUploadBytes) {
    const mb = 1024 * 1024;
    const limit = maxUploadBytes >= mb ? `${Math.round(maxUploadBytes / mb)} MB` : `${Math.round(maxUploadBytes / 1024)} KB`;
    setStatus(t("overLimit", { limit }), "error");
    return;
  }
  setStatus(t("reading", { name: file.name || t("thePhoto") }), "busy");
  const id = newPhotoId();
  pendingPhoto = id;
  let image = null;
  try {
    image = await loadImage(file);
  } catch {
    // the browser cannot show it; the server may still read it
  }
  const form = new FormData();
  form.append("photo", file, file.name || "photo.jpg");
  form.append("rules", state.rules); // the rule set's hand size guides the reading
  let response;
  let body;
  try {
    response = await fetch("/api/read", { method: "POST", body: form });
    body = await response.json();
  } catch {
    if (seq === readSeq) setStatus(t("badAnswer"), "error");
    return;
  }
  if (seq !== readSeq) return; // another photo was chosen meanwhile
  pendingPhoto = null;
  if (!response.ok) {
    setStatus(t("cannotRead", { detail: body.detail || response.statusText }), "error");
    state.photo = null;
    loadHand(emptyHand(), null); // the last photo's hand does not belong to this one
    changed();
    return;
  }
  readings[id] = body;
  if (image) images[id] = image;
  blobs[id] = file;
  storePhoto(id, file);
  state.photo = id;
  focus = null;
  const found = (body.tiles || []).length;
  const doubtful = (body.tiles || []).filter((tile) => tile.in_hand !== false && tile.confidence < DOUBT).length;
  setStatus(t(doubtful ? "foundDoubtful" : "found", { n: found, d: doubtful }), doubtful ? "warn" : "ok");
  loadHand(body.hand || emptyHand(), body);
  changed();
}

// The reader's doubts, most important first: what stops the hand from scoring, then the tiles
// read with the least confidence, then the layout; at most DOUBTS_SHOWN open.
function doubtRank(text) {
  if (/cannot be a complete hand|fewer than a hand of|face-down|cannot be read|No concealed tiles|make no (complete )?hand|is read \d+ times|more than a hand|as a complete hand does/i.test(text)) {
    return [0, 0];
  }
  const percent = /(\d+)%/.exec(text);
  if (percent) return [1, Number(percent[1])];
  return [2, 0];
}

function rankedDoubts(doubts) {
  return doubts.map((text, i) => ({ text, rank: doubtRank(text), i }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.i - b.i)
    .map((d) => d.text);
}

function renderReading() {
  const r = reading();
  const doubts = rankedDoubts((r && r.doubts) || []);
  const li = (text) => {
    const element = document.createElement("li");
    element.textContent = text;
    return element;
  };
  $("doubts").replaceChildren(...doubts.slice(0, DOUBTS_SHOWN).map(li));
  const rest = doubts.slice(DOUBTS_SHOWN);
  $("more-doubts").hidden = !rest.length;
  $("more-doubts-list").replaceChildren(...rest.map(li));
  $("more-doubts-count").textContent = t("moreDoubts", { n: rest.length });
  const alternatives = $("alternatives");
  alternatives.replaceChildren();
  for (const alternative of (r && r.alternatives) || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = t("useInstead", { description: alternative.description });
    button.addEventListener("click", () => {
      loadHand(alternative.hand, r);
      focus = null;
      changed();
    });
    alternatives.append(button);
  }
}

function boxItems() {
  const byBox = new Map();
  const h = state.hand;
  for (const it of [...h.concealed, ...h.flowers, ...h.melds.flatMap((m) => m.tiles)]) {
    if (it.tile >= 0) byBox.set(it.tile, it);
  }
  return byBox;
}

function bounds(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// The part of a (possibly tilted) tile's bounding box its face surely covers.
function faceCore(face) {
  const dx = (face.right - face.left) * 0.12;
  const dy = (face.bottom - face.top) * 0.12;
  return { left: face.left + dx, top: face.top + dy, right: face.right - dx, bottom: face.bottom - dy };
}

// A place for a tile's label beside its box: above, below, left or right of it, further out when
// nearer is taken, on no tile's face and clear of the labels placed before it where possible.
function labelPlace(box, width, height, cores, taken, canvas) {
  const gap = 2;
  const cx = (box.left + box.right) / 2 - width / 2;
  const cy = (box.top + box.bottom) / 2 - height / 2;
  const candidates = [];
  for (let ring = 0; ring < 4; ring++) {
    const d = gap + ring * height;
    for (const shift of [0, -width / 2, width / 2]) {
      candidates.push([cx + shift, box.top - height - d, ring], [cx + shift, box.bottom + d, ring]);
    }
    candidates.push([box.left - width - gap - ring * width / 2, cy, ring], [box.right + gap + ring * width / 2, cy, ring]);
  }
  let best = null;
  for (const [x, y, ring] of candidates) {
    const left = Math.max(0, Math.min(canvas.width - width, x));
    const top = Math.max(0, Math.min(canvas.height - height, y));
    const place = { left, top, right: left + width, bottom: top + height };
    const cost = cores.reduce((sum, core) => sum + overlap(place, core), 0) * 10
      + taken.reduce((sum, other) => sum + overlap(place, other), 0) * 3
      + ring * height * 2 + Math.abs(x - cx) * 0.1;
    if (!best || cost < best.cost) best = { place, cost };
  }
  return best.place;
}

function drawPhoto() {
  const r = reading();
  const img = state.photo ? images[state.photo] : null;
  $("figure").hidden = !img;
  photoLayout = null;
  if (!img) return;
  const canvas = $("annotated");
  const scale = Math.min(1, 1600 / Math.max(img.naturalWidth, img.naturalHeight));
  canvas.width = Math.round(img.naturalWidth * scale);
  canvas.height = Math.round(img.naturalHeight * scale);
  photoLayout = { scale };
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const line = Math.max(2, canvas.width / 500);
  // Boxes the reader took for no tile (a hand one tile too long without them): crossed in grey.
  for (const box of (r.left_out || []).map((tile) => tile.box)) {
    const [a, b, c, d] = box.map(([x, y]) => [x * scale, y * scale]);
    ctx.beginPath();
    [a, b, c, d, a, c, b, d].forEach(([x, y], i) => (i === 0 || i === 6 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
    ctx.lineWidth = line;
    ctx.strokeStyle = "#a0a0a0";
    ctx.stroke();
  }
  const byBox = boxItems();
  const tiles = r.tiles || [];
  const quads = tiles.map((tile) => tile.box.map(([x, y]) => [x * scale, y * scale]));
  const faces = quads.map(bounds);
  const badge = totalBadge(ctx, canvas);
  // the labels keep off every face and off the total in the corner, drawn last
  const cores = [...faces.map(faceCore), ...(badge ? [badge.place] : [])];
  const labels = [];
  const texts = [];
  // Outlines only, so every face stays visible; the code goes beside the tile.
  tiles.forEach((tile, i) => {
    const it = byBox.get(i);
    const fixed = it && isFixed(it);
    const doubtful = it && !fixed && !it.checked && tile.confidence < DOUBT;
    const colour = !it ? "#9e9e9e" : fixed ? "#2979ff" : doubtful ? "#ff6d00" : "#00c853";
    ctx.beginPath();
    quads[i].forEach(([x, y], k) => (k ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.setLineDash(it ? [] : [line * 3, line * 2]);
    ctx.lineWidth = it === focus && it ? line * 3 : doubtful || fixed ? line * 2 : line;
    ctx.strokeStyle = it === focus && it ? "#ffffff" : colour;
    ctx.stroke();
    ctx.setLineDash([]);
    const face = faces[i];
    const size = Math.max(11, Math.min(30, (face.right - face.left) * 0.34));
    const text = !it ? `${tile.code} ✗` : fixed ? `${it.read}→${it.code}` : `${it.code} ${Math.round(tile.confidence * 100)}%`;
    ctx.font = `bold ${size}px system-ui, sans-serif`;
    const width = ctx.measureText(text).width + size * 0.5;
    const place = labelPlace(face, width, size * 1.35, cores, labels, canvas);
    labels.push(place);
    texts.push(text);
    const far = Math.max(place.top - face.bottom, face.top - place.bottom, place.left - face.right, face.left - place.right);
    if (far > size) { // a label pushed away from its tile points at it
      const [mx, my] = [(place.left + place.right) / 2, (place.top + place.bottom) / 2];
      ctx.beginPath();
      ctx.moveTo(mx, my);
      // to the nearest point of the tile's outline box, not across its face
      ctx.lineTo(Math.max(face.left, Math.min(face.right, mx)), Math.max(face.top, Math.min(face.bottom, my)));
      ctx.lineWidth = Math.max(1, line / 2);
      ctx.strokeStyle = "rgba(255, 255, 255, 0.8)";
      ctx.stroke();
    }
    ctx.fillStyle = fixed ? "#2979ff" : doubtful ? "#ff6d00" : "rgba(0, 0, 0, 0.72)";
    ctx.fillRect(place.left, place.top, place.right - place.left, place.bottom - place.top);
    ctx.fillStyle = "#fff";
    ctx.textBaseline = "middle";
    ctx.fillText(text, place.left + size * 0.25, (place.top + place.bottom) / 2);
  });
  window.fanscanPhotoLabels = { faces, labels, texts, badge: badge && badge.place }; // for the tests
  if (badge) drawTotal(ctx, badge);
}

// The score for the photo's top-left corner, so the annotated picture says it all by itself:
// its text, size, colour and place (null before a hand is scored).
function totalBadge(ctx, canvas) {
  const result = lastResult;
  if (!result) return null;
  const scored = result.total !== null && result.total !== undefined;
  const doubtful = doubtfulInHand();
  const text = scored
    ? `${t("fansTotal", { n: result.total })}  ${minimumText(result, doubtful)}`
    : t("cannotScore");
  const size = Math.max(16, Math.round(canvas.width / 32));
  ctx.font = `bold ${size}px system-ui, sans-serif`;
  const width = ctx.measureText(text).width + size;
  const colour = !scored || !result.meets_minimum ? "rgba(211, 47, 47, 0.92)"
    : doubtful ? "rgba(230, 98, 0, 0.92)" : "rgba(0, 163, 68, 0.92)";
  return { text, size, colour, place: { left: 0, top: 0, right: width, bottom: size * 1.6 } };
}

function drawTotal(ctx, badge) {
  ctx.font = `bold ${badge.size}px system-ui, sans-serif`;
  ctx.fillStyle = badge.colour;
  ctx.fillRect(0, 0, badge.place.right, badge.place.bottom);
  ctx.fillStyle = "#fff";
  ctx.textBaseline = "middle";
  ctx.fillText(badge.text, badge.size / 2, badge.size * 0.8);
}

function inside(point, quad) {
  let hit = false;
  for (let i = 0, j = quad.length - 1; i < quad.length; j = i++) {
    const [xi, yi] = quad[i];
    const [xj, yj] = quad[j];
    if ((yi > point[1]) !== (yj > point[1]) && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

// A tap on the photo: the box under it is selected in the hand and its face can be picked.
function tapPhoto(event) {
  const r = reading();
  if (!r || !photoLayout) return;
  const canvas = $("annotated");
  const rect = canvas.getBoundingClientRect();
  const x = ((event.clientX - rect.left) / rect.width) * canvas.width / photoLayout.scale;
  const y = ((event.clientY - rect.top) / rect.height) * canvas.height / photoLayout.scale;
  const index = (r.tiles || []).findIndex((tile) => inside([x, y], tile.box));
  if (index < 0) return;
  const it = boxItems().get(index);
  if (it) {
    focus = it;
    openPicker({ item: it });
  } else {
    openPicker({ add: "concealed", tile: index });
  }
}

function savePicture() {
  const canvas = $("annotated");
  canvas.toBlob((blob) => {
    if (!blob) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "fanscan-hand.png";
    link.click();
  }, "image/png");
}

// "Save as labelled data": the photo and its corrected boxes go to the server's labelled folder.
async function saveLabelled() {
  const r = reading();
  const blob = state.photo ? blobs[state.photo] : null;
  if (!r || !blob) return;
  const byBox = boxItems();
  const tiles = [];
  (r.tiles || []).forEach((tile, i) => {
    const it = byBox.get(i);
    if (!it) return; // a box the referee removed from the hand is no tile of it
    const code = tile.code === "back" && it.code === it.read ? "back" : it.code;
    tiles.push({ code, box: tile.box, confidence: tile.confidence, corrected: isFixed(it) });
  });
  const form = new FormData();
  form.append("photo", blob, blob.name || "photo.jpg");
  form.append("tiles", JSON.stringify(tiles));
  setStatus(t("savingLabelled"), "busy");
  try {
    const response = await fetch("/api/labelled", { method: "POST", body: form });
    const body = await response.json();
    if (!response.ok) setStatus(t("notSavedLabelled", { detail: body.detail }), "error");
    else setStatus(t("savedLabelled", { name: body.image }), "ok");
  } catch {
    setStatus(t("noServer"), "error");
  }
}

// ---------------------------------------------------------------- start

function newHand() {
  readSeq += 1; // a read still running is no longer wanted
  state.photo = null;
  state.extra = {};
  focus = null;
  loadHand(emptyHand(), null);
  renderRuleFields();
  setStatus("");
  changed();
}

function onKey(event) {
  const key = event.key.toLowerCase();
  if (!(event.ctrlKey || event.metaKey) || (key !== "z" && key !== "y")) return;
  const target = event.target;
  if (target && target.matches && target.matches("input[type=text], input[type=number], textarea")) return;
  event.preventDefault();
  if (key === "y" || event.shiftKey) redo();
  else undo();
}

function fillWinds() {
  for (const key of ["seat_wind", "round_wind"]) {
    const select = $(key);
    const value = select.value;
    select.replaceChildren(...["E", "S", "W", "N"].map((code) => new Option(t(`wind.${code}`), code)));
    select.value = value || "E";
  }
}

function wireControls() {
  for (const id of ["camera", "upload"]) {
    $(id).addEventListener("change", (event) => {
      readPhoto(event.target.files[0]);
      event.target.value = ""; // the same photo again still triggers a read
    });
  }
  $("new-hand").addEventListener("click", newHand);
  $("add-concealed").addEventListener("click", () => openPicker({ add: "concealed" }));
  $("add-flower").addEventListener("click", () => openPicker({ add: "flowers" }));
  $("add-meld").addEventListener("click", () => openPicker({ add: "new-meld" }));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("annotated").addEventListener("click", tapPhoto);
  $("save-picture").addEventListener("click", savePicture);
  $("save-labelled").addEventListener("click", saveLabelled);
  document.addEventListener("keydown", onKey);
  for (const key of ["self_drawn", "fourth_tile", "kong", "last_tile"]) {
    $(key).addEventListener("change", () => { state.hand[key] = $(key).checked; changed(); });
  }
  fillWinds();
  for (const key of ["seat_wind", "round_wind"]) {
    $(key).addEventListener("change", () => { state.hand[key] = $(key).value; changed(); });
  }
  $("rules").addEventListener("change", () => {
    state.rules = $("rules").value;
    renderRuleFields();
    changed();
  });
  window.fanscanI18n.onChange(() => {
    fillWinds();
    render();
    showResult(lastResult);
  });
}

async function start() {
  window.fanscanI18n.setup($("lang"));
  wireControls();
  wirePicker();
  current = snapshot();
  render();
  try {
    const [tiles, rules, config] = await Promise.all([
      fetch("/api/tiles").then((r) => r.json()),
      fetch("/api/rules").then((r) => r.json()),
      fetch("/api/config").then((r) => r.json()),
    ]);
    maxUploadBytes = config.max_upload_bytes;
    labelledEnabled = !!config.save_labelled;
    tileCodes = tiles.tiles.map((tile) => tile.code);
    tileOrder = new Map(tileCodes.map((code, i) => [code, i]));
    buildPickerGrid();
    ruleSets = rules;
    for (const rule of rules) {
      const label = rule.minimum != null ? `${rule.title} (min ${rule.minimum})` : rule.title;
      $("rules").append(new Option(label, rule.name));
    }
    state.rules = rules.length ? rules[0].name : "mcr";
    $("rules").value = state.rules;
    renderRuleFields();
    current = snapshot();
    if (restoreSession()) refresh();
    else {
      render();
      showResult(null); // the empty hand's hint: take a photo, or add tiles by hand
    }
    document.body.dataset.ready = "true";
  } catch {
    setStatus(t("noServerReload"), "error");
  }
}

start();
