// fanscan referee page: read a photo (POST /api/read), let the referee fix the hand, and score it
// (POST /api/score) after every edit. No framework: `state` holds the hand, `render()` redraws it.
"use strict";

const DOUBT = 0.8; // found tiles under this confidence are highlighted as doubtful
const WINDS = [["E", "East 東"], ["S", "South 南"], ["W", "West 西"], ["N", "North 北"]];
const MELD_SIZES = { chow: 3, pung: 3, kong: 4 };

const $ = (id) => document.getElementById(id);

const state = {
  hand: emptyHand(),
  winIndex: -1,          // index into hand.concealed of the winning tile, -1 when none
  rules: "mcr",
  reading: null,         // the last /api/read answer
  image: null,           // the photo as an <img>
  doubtful: new Map(),   // code -> how many doubtful found tiles read as that code
  extra: {},             // values of the rule sets' own hand fields, by name
};
const BASE_FIELDS = [
  "concealed", "melds", "win_tile", "flowers", "self_drawn", "seat_wind", "round_wind",
  "fourth_tile", "kong", "last_tile",
];
let ruleSets = [];
let tileCodes = [];
let selection = null;    // {group: "concealed"|"flowers"|"meld", meld, index} or {add: group}
let scoreTimer = null;
let scoreSeq = 0;
let readSeq = 0;
let maxUploadBytes = 25 * 1024 * 1024;

function emptyHand() {
  return {
    concealed: [], melds: [], win_tile: null, flowers: [], self_drawn: false,
    seat_wind: "E", round_wind: "E", fourth_tile: false, kong: false, last_tile: false,
  };
}

const isFlower = (code) => /^[1-8]f$/.test(code);

// ---------------------------------------------------------------- hand state

// The hand as the contract's JSON: the base fields plus the chosen rule set's own fields only
// (a field another rule set defines would be refused as unknown).
function handJson() {
  const hand = {};
  for (const key of BASE_FIELDS) hand[key] = state.hand[key];
  hand.win_tile = state.winIndex >= 0 ? state.hand.concealed[state.winIndex] : null;
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

function loadHand(hand) {
  state.hand = { ...emptyHand(), ...hand };
  state.hand.concealed = [...(hand.concealed || [])];
  state.hand.flowers = [...(hand.flowers || [])];
  state.hand.melds = (hand.melds || []).map((m) => ({ ...m, tiles: [...m.tiles] }));
  state.winIndex = hand.win_tile ? state.hand.concealed.lastIndexOf(hand.win_tile) : -1;
  for (const key of Object.keys(hand)) {
    if (!BASE_FIELDS.includes(key)) state.extra[key] = hand[key];
  }
}

function removeConcealed(index) {
  const [code] = state.hand.concealed.splice(index, 1);
  if (index === state.winIndex) state.winIndex = -1;
  else if (index < state.winIndex) state.winIndex -= 1;
  return code;
}

function takeSelected() {
  const s = selection;
  if (s.group === "concealed") return removeConcealed(s.index);
  if (s.group === "flowers") return state.hand.flowers.splice(s.index, 1)[0];
  const meld = state.hand.melds[s.meld];
  const [code] = meld.tiles.splice(s.index, 1);
  if (meld.tiles.length === 0) state.hand.melds.splice(s.meld, 1);
  return code;
}

function selectedCode() {
  const s = selection;
  if (s.group === "meld") return state.hand.melds[s.meld].tiles[s.index];
  return state.hand[s.group][s.index];
}

function put(code, target) {
  if (isFlower(code) && target !== "flowers") target = "flowers";
  else if (!isFlower(code) && target === "flowers") target = "concealed";
  if (target === "concealed" || target === "flowers") state.hand[target].push(code);
  else if (target === "new-meld") state.hand.melds.push({ type: "pung", tiles: [code], concealed: false });
  else state.hand.melds[Number(target)].tiles.push(code);
}

function replaceSelected(code) {
  const s = selection;
  if (isFlower(code) !== isFlower(selectedCode())) {
    takeSelected();
    put(code, isFlower(code) ? "flowers" : "concealed");
    return;
  }
  if (s.group === "meld") {
    const meld = state.hand.melds[s.meld];
    // a pung or kong is one face: fixing one tile fixes them all
    if (meld.type === "chow") meld.tiles[s.index] = code;
    else meld.tiles = meld.tiles.map(() => code);
  } else {
    state.hand[s.group][s.index] = code;
  }
}

function nextRanks(code, count) {
  const m = /^([1-9])([mps])$/.exec(code);
  if (!m) return null;
  const rank = Number(m[1]);
  if (rank + count - 1 > 9) return null;
  return Array.from({ length: count }, (_, i) => `${rank + i}${m[2]}`);
}

// Turn the selected concealed tile and its partners (taken from the concealed tiles) into a meld.
function makeMeld(kind) {
  const code = selectedCode();
  const type = kind === "concealed-kong" ? "kong" : kind;
  const wanted = type === "chow" ? nextRanks(code, 3) : Array(MELD_SIZES[type]).fill(code);
  if (!wanted) return `a chow cannot start at ${code}`;
  const concealed = [...state.hand.concealed];
  const indices = [];
  const used = new Set();
  for (const want of wanted) {
    let found = -1;
    if (want === code && !used.has(selection.index)) found = selection.index;
    else found = concealed.findIndex((c, i) => c === want && !used.has(i) && i !== selection.index);
    if (found < 0) return `the concealed tiles have no ${want} for this ${type}`;
    used.add(found);
    indices.push(found);
  }
  indices.sort((a, b) => b - a).forEach((i) => removeConcealed(i));
  state.hand.melds.push({ type, tiles: wanted, concealed: kind === "concealed-kong" });
  return null;
}

function setMeldType(index, type) {
  const meld = state.hand.melds[index];
  const first = meld.tiles[0];
  meld.type = type;
  if (type !== "kong") meld.concealed = false;
  if (!first) return;
  if (type === "chow") meld.tiles = nextRanks(first, 3) || meld.tiles;
  else meld.tiles = Array(MELD_SIZES[type]).fill(first);
}

function breakMeld(index) {
  const [meld] = state.hand.melds.splice(index, 1);
  state.hand.concealed.push(...meld.tiles);
}

// ---------------------------------------------------------------- drawing the hand

function tileButton(code, extraClass, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `tile ${extraClass || ""}`.trim();
  button.dataset.code = code;
  button.setAttribute("aria-label", label || code);
  const img = document.createElement("img");
  img.src = `/tiles/${code}.svg`;
  img.alt = "";
  img.draggable = false;
  const caption = document.createElement("span");
  caption.className = "code";
  caption.textContent = code;
  button.append(img, caption);
  return button;
}

function doubtMarker() {
  const left = new Map(state.doubtful);
  return (code) => {
    const n = left.get(code) || 0;
    if (n <= 0) return false;
    left.set(code, n - 1);
    return true;
  };
}

function render() {
  const isDoubtful = doubtMarker();
  const concealed = $("concealed");
  concealed.replaceChildren();
  state.hand.concealed.forEach((code, index) => {
    const win = index === state.winIndex;
    const classes = [win ? "win" : "", isDoubtful(code) ? "doubt" : ""].join(" ");
    const button = tileButton(code, classes, win ? `${code}, winning tile` : code);
    button.addEventListener("click", () => openPicker({ group: "concealed", index }));
    concealed.append(button);
  });
  const melded = state.hand.melds.reduce((n, m) => n + Math.min(m.tiles.length, 3), 0);
  $("concealed-count").textContent = state.hand.concealed.length
    ? `${state.hand.concealed.length} tiles${melded ? `, ${melded + state.hand.concealed.length} with melds` : ""}`
    : "";

  const melds = $("melds");
  melds.replaceChildren();
  state.hand.melds.forEach((meld, m) => melds.append(meldRow(meld, m, isDoubtful)));

  const flowers = $("flowers");
  flowers.replaceChildren();
  state.hand.flowers.forEach((code, index) => {
    const button = tileButton(code, isDoubtful(code) ? "doubt" : "");
    button.addEventListener("click", () => openPicker({ group: "flowers", index }));
    flowers.append(button);
  });

  const win = $("win-tile");
  win.replaceChildren();
  if (state.winIndex >= 0) {
    const code = state.hand.concealed[state.winIndex];
    const img = document.createElement("img");
    img.src = `/tiles/${code}.svg`;
    img.alt = code;
    win.append(img, document.createTextNode(` ${code}`));
  } else {
    win.textContent = "none marked (tap a concealed tile)";
  }

  for (const key of ["self_drawn", "fourth_tile", "kong", "last_tile"]) $(key).checked = !!state.hand[key];
  $("seat_wind").value = state.hand.seat_wind || "E";
  $("round_wind").value = state.hand.round_wind || "E";
  const selfDrawn = !!state.hand.self_drawn;
  $("kong-label").textContent = selfDrawn ? "Kong replacement 杠上开花" : "Robbing a kong 抢杠和";
  $("last-label").textContent = selfDrawn ? "Last tile of the wall 妙手回春" : "Last discard 海底捞月";
}

function meldRow(meld, m, isDoubtful) {
  const row = document.createElement("div");
  row.className = "meld";
  const tiles = document.createElement("div");
  tiles.className = "tiles";
  meld.tiles.forEach((code, index) => {
    const shown = meld.type === "kong" && meld.concealed && (index === 0 || index === 3) ? "back" : code;
    const button = tileButton(shown, isDoubtful(code) ? "doubt" : "", `${code} in meld ${m + 1}`);
    button.dataset.code = code;
    button.addEventListener("click", () => openPicker({ group: "meld", meld: m, index }));
    tiles.append(button);
  });
  const controls = document.createElement("div");
  controls.className = "meld-controls";
  const type = document.createElement("select");
  type.setAttribute("aria-label", `meld ${m + 1} type`);
  for (const t of ["chow", "pung", "kong"]) type.append(new Option(t, t, false, t === meld.type));
  type.addEventListener("change", () => { setMeldType(m, type.value); changed(); });
  controls.append(type);
  if (meld.type === "kong") {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = !!meld.concealed;
    box.addEventListener("change", () => { meld.concealed = box.checked; changed(); });
    label.append(box, " concealed");
    controls.append(label);
  }
  const unmeld = document.createElement("button");
  unmeld.type = "button";
  unmeld.className = "link";
  unmeld.textContent = "break up";
  unmeld.addEventListener("click", () => { breakMeld(m); changed(); });
  controls.append(unmeld);
  row.append(tiles, controls);
  return row;
}

// ---------------------------------------------------------------- the tile picker

function openPicker(sel) {
  selection = sel;
  const adding = "add" in sel;
  const code = adding ? null : selectedCode();
  $("picker-title").textContent = adding
    ? { concealed: "Add a concealed tile", flowers: "Add a flower", "new-meld": "New meld: pick its tile" }[sel.add]
    : `Tile ${code}: pick the right face`;
  $("picker-note").textContent = "";
  $("picker-actions").hidden = adding;
  const inConcealed = sel.group === "concealed";
  $("act-win").hidden = !inConcealed;
  for (const b of document.querySelectorAll("[data-make]")) b.hidden = !inConcealed || isFlower(code || "");
  if (!adding) fillMoveTargets(sel);
  for (const b of $("picker-grid").children) b.classList.toggle("current", b.dataset.code === code);
  $("picker").showModal();
}

function fillMoveTargets(sel) {
  const move = $("move-to");
  move.replaceChildren(new Option("…", ""));
  if (sel.group !== "concealed") move.append(new Option("Concealed tiles", "concealed"));
  state.hand.melds.forEach((meld, m) => {
    if (sel.group !== "meld" || sel.meld !== m) {
      move.append(new Option(`Meld ${m + 1} (${meld.type} ${meld.tiles[0] || ""})`, String(m)));
    }
  });
  move.append(new Option("A new meld", "new-meld"));
}

function closePicker() {
  $("picker").close();
  selection = null;
}

function buildPickerGrid() {
  const grid = $("picker-grid");
  for (const code of tileCodes) {
    const button = tileButton(code);
    button.addEventListener("click", () => pick(code));
    grid.append(button);
  }
}

function pick(code) {
  if ("add" in selection) {
    const melds = state.hand.melds.length;
    put(code, selection.add);
    // a new meld starts as a pung of the picked face (a flower went to the flowers instead)
    if (state.hand.melds.length > melds) setMeldType(melds, "pung");
  } else {
    replaceSelected(code);
  }
  closePicker();
  changed();
}

function wirePicker() {
  $("act-win").addEventListener("click", () => {
    state.winIndex = selection.index;
    closePicker();
    changed();
  });
  $("act-remove").addEventListener("click", () => {
    takeSelected();
    closePicker();
    changed();
  });
  for (const button of document.querySelectorAll("[data-make]")) {
    button.addEventListener("click", () => {
      const problem = makeMeld(button.dataset.make);
      if (problem) {
        $("picker-note").textContent = problem;
        return;
      }
      closePicker();
      changed();
    });
  }
  $("move-to").addEventListener("change", () => {
    const target = $("move-to").value;
    if (!target) return;
    // moving out of a meld that empties it renumbers the later melds
    const fromMeld = selection.group === "meld" ? selection.meld : -1;
    const emptied = fromMeld >= 0 && state.hand.melds[fromMeld].tiles.length === 1;
    const code = takeSelected();
    const shifted = emptied && /^\d+$/.test(target) && Number(target) > fromMeld
      ? String(Number(target) - 1) : target;
    put(code, shifted);
    closePicker();
    changed();
  });
  $("picker").addEventListener("close", () => { selection = null; });
}

// The chosen rule set's own hand fields (for example a first-turn win), as inputs.
function renderRuleFields() {
  const box = $("rule-fields");
  box.replaceChildren();
  for (const field of currentRuleSet().fields || []) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.id = `field-${field.name}`;
    const value = field.name in state.extra ? state.extra[field.name] : field.default;
    if (typeof field.default === "boolean") {
      input.type = "checkbox";
      input.checked = !!value;
      input.addEventListener("change", () => { state.extra[field.name] = input.checked; scheduleScore(); });
      label.append(input, ` ${field.help || field.name}`);
    } else {
      input.type = typeof field.default === "number" ? "number" : "text";
      input.value = value == null ? "" : String(value);
      input.addEventListener("input", () => {
        const raw = input.value.trim();
        if (raw === "") delete state.extra[field.name];
        else state.extra[field.name] = input.type === "number" ? Number(raw) : raw;
        scheduleScore();
      });
      label.append(`${field.help || field.name} `, input);
    }
    box.append(label);
  }
}

// ---------------------------------------------------------------- scoring

function changed() {
  render();
  scheduleScore();
}

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
    result = { total: null, fans: [], error: "the server cannot be reached" };
  }
  if (seq !== scoreSeq) return; // a later edit has been sent meanwhile
  $("spot").classList.remove("busy");
  showResult(result);
}

function showResult(result) {
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
  if (!result) {
    spot.classList.add("empty");
    verdict.classList.add("empty");
    $("spot-total").textContent = "–";
    $("spot-minimum").textContent = "no hand yet";
    $("total").textContent = "–";
    $("minimum").textContent = "Take a photo, or add tiles by hand.";
    return;
  }
  if (result.total === null || result.total === undefined) {
    spot.classList.add("invalid");
    verdict.classList.add("invalid");
    $("spot-total").textContent = "✗";
    $("spot-minimum").textContent = "cannot score";
    $("total").textContent = "–";
    $("minimum").textContent = "";
    error.textContent = result.error || "this hand cannot be scored";
    error.hidden = false;
    spotFans.textContent = error.textContent;
    spotFans.hidden = false;
    return;
  }
  const met = !!result.meets_minimum;
  spot.classList.add(met ? "met" : "unmet");
  verdict.classList.add(met ? "met" : "unmet");
  $("spot-total").textContent = String(result.total);
  const minimum = `minimum ${result.minimum}: ${met ? "met ✓" : "NOT met ✗"}`;
  $("spot-minimum").textContent = minimum;
  $("total").textContent = String(result.total);
  $("minimum").textContent = minimum;
  for (const fan of result.fans || []) {
    const row = document.createElement("tr");
    const cells = [fan.name, fan.chinese || "", fan.count > 1 ? `×${fan.count}` : "", String(fan.points * (fan.count || 1))];
    cells.forEach((text, i) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      if (i >= 2) cell.className = "num";
      row.append(cell);
    });
    body.append(row);
  }
  spotFans.textContent = (result.fans || [])
    .map((fan) => `${fan.name} ${fan.points * (fan.count || 1)}`)
    .join(" · ");
  spotFans.hidden = !spotFans.textContent;
  if (result.flower_points) $("flower-points").textContent = `Flowers: +${result.flower_points} (not counted for the minimum)`;
}

// ---------------------------------------------------------------- the photo

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind || ""}`.trim();
}

function loadImage(file) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("not an image"));
    img.src = URL.createObjectURL(file);
  });
}

async function readPhoto(file) {
  if (!file) return;
  const seq = ++readSeq;
  state.reading = null;
  state.doubtful = new Map();
  $("doubts").replaceChildren();
  $("alternatives").replaceChildren();
  if (file.size > maxUploadBytes) {
    const mb = 1024 * 1024;
    const limit = maxUploadBytes >= mb ? `${Math.round(maxUploadBytes / mb)} MB` : `${Math.round(maxUploadBytes / 1024)} KB`;
    setStatus(`This photo is over the ${limit} upload limit: send a smaller one.`, "error");
    return;
  }
  setStatus(`Reading ${file.name || "the photo"}…`, "busy");
  let image = null;
  try {
    image = await loadImage(file);
  } catch {
    // the browser cannot show it; the server may still read it
  }
  if (seq !== readSeq) return;
  state.image = image;
  drawPhoto();
  const form = new FormData();
  form.append("photo", file, file.name || "photo.jpg");
  let response;
  let body;
  try {
    response = await fetch("/api/read", { method: "POST", body: form });
    body = await response.json();
  } catch {
    if (seq === readSeq) setStatus("The server cannot be reached, or its answer is not JSON.", "error");
    return;
  }
  if (seq !== readSeq) return; // another photo was chosen meanwhile
  if (!response.ok) {
    setStatus(`Cannot read this photo: ${body.detail || response.statusText}`, "error");
    loadHand(emptyHand()); // the last photo's hand does not belong to this one
    changed();
    return;
  }
  state.reading = body;
  for (const tile of body.tiles || []) {
    if (tile.confidence < DOUBT) state.doubtful.set(tile.code, (state.doubtful.get(tile.code) || 0) + 1);
  }
  const doubtful = (body.tiles || []).filter((t) => t.confidence < DOUBT).length;
  setStatus(
    `${(body.tiles || []).length} tiles found${doubtful ? `, ${doubtful} doubtful (orange): check them` : ""}.`,
    doubtful ? "warn" : "ok",
  );
  for (const doubt of body.doubts || []) {
    const item = document.createElement("li");
    item.textContent = doubt;
    $("doubts").append(item);
  }
  for (const alternative of body.alternatives || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = `Use instead: ${alternative.description}`;
    button.addEventListener("click", () => {
      loadHand(alternative.hand);
      changed();
    });
    $("alternatives").append(button);
  }
  loadHand(body.hand || emptyHand());
  drawPhoto();
  changed();
}

function drawPhoto() {
  const img = state.image;
  $("figure").hidden = !img;
  if (!img) return;
  const canvas = $("annotated");
  const scale = Math.min(1, 1600 / Math.max(img.naturalWidth, img.naturalHeight));
  canvas.width = Math.round(img.naturalWidth * scale);
  canvas.height = Math.round(img.naturalHeight * scale);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const line = Math.max(2, canvas.width / 500);
  // Boxes the reader took for no tile (a hand one tile too long without them): crossed in grey.
  for (const box of ((state.reading && state.reading.left_out) || []).map((t) => t.box)) {
    const [a, b, c, d] = box.map(([x, y]) => [x * scale, y * scale]);
    ctx.beginPath();
    // the outline, then one diagonal from where it ends (a to c), then the other (b to d)
    [a, b, c, d, a, c, b, d].forEach(([x, y], i) => (i === 0 || i === 6 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
    ctx.lineWidth = line;
    ctx.strokeStyle = "#a0a0a0";
    ctx.stroke();
  }
  for (const tile of (state.reading && state.reading.tiles) || []) {
    const points = tile.box.map(([x, y]) => [x * scale, y * scale]);
    const doubtful = tile.confidence < DOUBT;
    ctx.beginPath();
    points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    if (doubtful) {
      ctx.fillStyle = "rgba(255, 109, 0, 0.28)";
      ctx.fill();
    }
    ctx.lineWidth = doubtful ? line * 2 : line;
    ctx.strokeStyle = doubtful ? "#ff6d00" : "#00c853";
    ctx.stroke();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const left = Math.min(...xs);
    const top = Math.min(...ys);
    const width = Math.max(...xs) - left;
    const size = Math.max(10, Math.min(36, width * 0.36));
    const lines = [tile.code, `${Math.round(tile.confidence * 100)}%`];
    ctx.font = `bold ${size}px system-ui, sans-serif`;
    const textWidth = Math.max(...lines.map((t) => ctx.measureText(t).width)) + size * 0.4;
    const boxTop = Math.max(0, top - size * 2.3);
    ctx.fillStyle = doubtful ? "#ff6d00" : "rgba(0, 0, 0, 0.72)";
    ctx.fillRect(left, boxTop, Math.max(width, textWidth), size * 2.2);
    ctx.fillStyle = "#fff";
    ctx.textBaseline = "top";
    lines.forEach((text, i) => ctx.fillText(text, left + size * 0.2, boxTop + size * 0.1 + i * size * 1.05));
  }
}

// ---------------------------------------------------------------- start

function newHand() {
  state.hand = emptyHand();
  state.winIndex = -1;
  state.reading = null;
  state.image = null;
  state.doubtful = new Map();
  state.extra = {};
  renderRuleFields();
  $("doubts").replaceChildren();
  $("alternatives").replaceChildren();
  readSeq += 1; // a read still running is no longer wanted
  setStatus("");
  drawPhoto();
  changed();
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
  for (const key of ["self_drawn", "fourth_tile", "kong", "last_tile"]) {
    $(key).addEventListener("change", () => { state.hand[key] = $(key).checked; changed(); });
  }
  for (const key of ["seat_wind", "round_wind"]) {
    for (const [code, name] of WINDS) $(key).append(new Option(name, code));
    $(key).addEventListener("change", () => { state.hand[key] = $(key).value; changed(); });
  }
  $("rules").addEventListener("change", () => {
    state.rules = $("rules").value;
    renderRuleFields();
    scheduleScore();
  });
  $("doubt-percent").textContent = String(Math.round(DOUBT * 100));
}

async function start() {
  wireControls();
  wirePicker();
  render();
  try {
    const [tiles, rules, config] = await Promise.all([
      fetch("/api/tiles").then((r) => r.json()),
      fetch("/api/rules").then((r) => r.json()),
      fetch("/api/config").then((r) => r.json()),
    ]);
    maxUploadBytes = config.max_upload_bytes;
    tileCodes = tiles.tiles.map((t) => t.code);
    buildPickerGrid();
    ruleSets = rules;
    for (const rule of rules) {
      const label = rule.minimum != null ? `${rule.title} (min ${rule.minimum})` : rule.title;
      $("rules").append(new Option(label, rule.name));
    }
    state.rules = rules.length ? rules[0].name : "mcr";
    $("rules").value = state.rules;
    renderRuleFields();
    document.body.dataset.ready = "true";
  } catch {
    setStatus("The server cannot be reached: reload the page.", "error");
  }
}

start();
