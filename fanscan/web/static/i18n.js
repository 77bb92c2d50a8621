// The referee page's words in English, 简体 and 繁體. The browser's languages choose one (zh-TW,
// zh-HK, zh-MO and zh-Hant give 繁體, other zh 简体); the menu in the top bar switches and is
// remembered. 繁體 is 简体 converted by hant.js (a map generated from OpenCC, see docs/web.md).
"use strict";

(() => {
  const EN = {
    "page.title": "fanscan referee",
    "bar.referee": "referee",
    undo: "↶ Undo",
    redo: "↷ Redo",
    undoTitle: "Undo (Ctrl+Z)",
    redoTitle: "Redo (Ctrl+Shift+Z)",
    photo: "Photo",
    takePhoto: "Take photo",
    uploadPhoto: "Upload photo",
    newHand: "New hand",
    legendSure: "sure",
    legendDoubt: "doubtful (under {p}%): check these",
    legendFixed: "corrected",
    legendOff: "not in the hand (✗; crossed: taken for no tile)",
    legendTap: "Tap a tile on the photo to correct it.",
    savePicture: "Save picture",
    saveLabelled: "Save as labelled data",
    hand: "Hand",
    handHint: "tap a tile to fix it, move it or mark the winning tile",
    concealedTiles: "Concealed tiles",
    melds: "Melds",
    flowers: "Flowers",
    addTile: "+ tile",
    addMeldButton: "+ meld",
    addFlowerButton: "+ flower",
    winningTile: "Winning tile:",
    win: "Win",
    ruleSet: "Rule set",
    seatWind: "Seat wind",
    roundWind: "Round wind",
    selfDrawn: "Self-drawn 自摸",
    fourthTile: "Last tile of its kind 和绝张",
    score: "Score",
    fans: "fans",
    fan: "Fan",
    points: "Points",
    pickerWin: "Winning tile",
    makePung: "Make pung",
    makeChow: "Make chow",
    makeKong: "Make kong",
    makeConcealedKong: "Concealed kong",
    moveTo: "Move to",
    remove: "Remove",
    close: "Done",
    language: "Language",
    "meld.chow": "chow",
    "meld.pung": "pung",
    "meld.kong": "kong",
    "wind.E": "East 東",
    "wind.S": "South 南",
    "wind.W": "West 西",
    "wind.N": "North 北",
    noChowAt: "a chow cannot start at {code}",
    noTileForMeld: "the concealed tiles have no {code} for this {type}",
    winningTileLabel: "{code}, winning tile",
    count: "{n} tiles",
    countWithMelds: "{n} tiles, {all} with melds",
    noWinTile: "none marked (tap a concealed tile)",
    kongReplacement: "Kong replacement 杠上开花",
    robbingKong: "Robbing a kong 抢杠和",
    lastWallTile: "Last tile of the wall 妙手回春",
    lastDiscard: "Last discard 海底捞月",
    inMeld: "{code} in meld {n}",
    meldType: "meld {n} type",
    concealedKongBox: "concealed",
    breakUp: "break up",
    pickFace: "Tile {code}: pick the right face",
    putBack: "A box left out of the hand: pick its face to put it back",
    addConcealed: "Add concealed tiles",
    addFlower: "Add flowers",
    addMeld: "New meld: pick its tile",
    pickSeveral: "Pick as many tiles as you like, then Done.",
    added: "Added {n}: {codes}",
    meldOption: "Meld {n} ({type} {code})",
    newMeld: "A new meld",
    noServer: "the server cannot be reached",
    noServerReload: "The server cannot be reached: reload the page.",
    noHandYet: "no hand yet",
    startHint: "Take a photo, or add tiles by hand.",
    cannotScore: "cannot score",
    cannotScoreHand: "this hand cannot be scored",
    minimumMet: "minimum {n}: met ✓",
    minimumMetUnsure: "minimum {n}: met ✓, {d} doubtful in the hand",
    minimumNotMet: "minimum {n}: NOT met ✗",
    fansTotal: "{n} fans",
    flowerPoints: "Flowers: +{n} (not counted for the minimum)",
    overLimit: "This photo is over the {limit} upload limit: send a smaller one.",
    reading: "Reading {name}…",
    thePhoto: "the photo",
    badAnswer: "The server cannot be reached, or its answer is not JSON.",
    cannotRead: "Cannot read this photo: {detail}",
    found: "{n} tiles found.",
    foundDoubtful: "{n} tiles found, {d} doubtful in the hand (orange): check them.",
    moreDoubts: "{n} more doubts",
    useInstead: "Use instead: {description}",
    savingLabelled: "Saving the photo as labelled data…",
    savedLabelled: "Saved as labelled data: {name}",
    notSavedLabelled: "Not saved as labelled data: {detail}",
  };

  const HANS = {
    "page.title": "fanscan 裁判",
    "bar.referee": "裁判",
    undo: "↶ 撤销",
    redo: "↷ 重做",
    undoTitle: "撤销 (Ctrl+Z)",
    redoTitle: "重做 (Ctrl+Shift+Z)",
    photo: "照片",
    takePhoto: "拍照",
    uploadPhoto: "上传照片",
    newHand: "新的一手",
    legendSure: "确定",
    legendDoubt: "存疑（低于 {p}%）：请检查",
    legendFixed: "已改正",
    legendOff: "不在手牌中（✗；打叉：判为非牌）",
    legendTap: "点照片上的牌即可改正。",
    savePicture: "保存图片",
    saveLabelled: "保存为标注数据",
    hand: "手牌",
    handHint: "点一张牌来改正、移动或标为和张",
    concealedTiles: "门前牌",
    melds: "副露",
    flowers: "花牌",
    addTile: "+ 牌",
    addMeldButton: "+ 副露",
    addFlowerButton: "+ 花",
    winningTile: "和张：",
    win: "和牌",
    ruleSet: "规则",
    seatWind: "门风",
    roundWind: "圈风",
    selfDrawn: "自摸 Self-drawn",
    fourthTile: "和绝张 Last tile of its kind",
    score: "计分",
    fans: "番",
    fan: "番种",
    points: "番数",
    pickerWin: "和张",
    makePung: "组成刻子",
    makeChow: "组成顺子",
    makeKong: "组成杠",
    makeConcealedKong: "暗杠",
    moveTo: "移到",
    remove: "删除",
    close: "完成",
    language: "语言",
    "meld.chow": "顺子",
    "meld.pung": "刻子",
    "meld.kong": "杠",
    "wind.E": "东 East",
    "wind.S": "南 South",
    "wind.W": "西 West",
    "wind.N": "北 North",
    noChowAt: "顺子不能从 {code} 开始",
    noTileForMeld: "门前牌里没有可组成这个{type}的 {code}",
    winningTileLabel: "{code}，和张",
    count: "{n} 张",
    countWithMelds: "{n} 张，连副露 {all} 张",
    noWinTile: "未标出（点一张门前牌）",
    kongReplacement: "杠上开花 Kong replacement",
    robbingKong: "抢杠和 Robbing a kong",
    lastWallTile: "妙手回春 Last tile of the wall",
    lastDiscard: "海底捞月 Last discard",
    inMeld: "第 {n} 组副露中的 {code}",
    meldType: "第 {n} 组副露的类型",
    concealedKongBox: "暗杠",
    breakUp: "拆开",
    pickFace: "{code}：选出正确的牌",
    putBack: "不在手牌中的牌框：选出它的牌面即可放回",
    addConcealed: "添加门前牌",
    addFlower: "添加花牌",
    addMeld: "新副露：选它的牌",
    pickSeveral: "可连续选多张牌，选好后点“完成”。",
    added: "已添加 {n} 张：{codes}",
    meldOption: "第 {n} 组副露（{type} {code}）",
    newMeld: "新的副露",
    noServer: "无法连接服务器",
    noServerReload: "无法连接服务器：请重新加载页面。",
    noHandYet: "还没有手牌",
    startHint: "拍一张照片，或手动添加牌。",
    cannotScore: "无法计分",
    cannotScoreHand: "这手牌无法计分",
    minimumMet: "起和 {n} 番：已达到 ✓",
    minimumMetUnsure: "起和 {n} 番：已达到 ✓，手牌中 {d} 张存疑",
    minimumNotMet: "起和 {n} 番：未达到 ✗",
    fansTotal: "{n} 番",
    flowerPoints: "花牌：+{n}（不计入起和番）",
    overLimit: "照片超过 {limit} 的上传上限：请换一张小一些的。",
    reading: "正在识别{name}…",
    thePhoto: "照片",
    badAnswer: "无法连接服务器，或服务器的回应不是 JSON。",
    cannotRead: "无法识别这张照片：{detail}",
    found: "找到 {n} 张牌。",
    foundDoubtful: "找到 {n} 张牌，手牌中 {d} 张存疑（橙色）：请检查。",
    moreDoubts: "另外 {n} 条疑问",
    useInstead: "改用：{description}",
    savingLabelled: "正在把照片保存为标注数据…",
    savedLabelled: "已保存为标注数据：{name}",
    notSavedLabelled: "未能保存为标注数据：{detail}",
  };

  const LANGS = [["en", "English"], ["zh-Hans", "简体中文"], ["zh-Hant", "繁體中文"]];
  const STORE = "fanscan.lang";
  const listeners = [];
  let lang = "en";

  // 简体 -> 繁體: whole phrases the map knows first, then character by character.
  function toHant(text) {
    const table = window.FANSCAN_HANT || { phrases: {}, chars: {} };
    let out = text;
    for (const [from, to] of table.phraseList || []) out = out.split(from).join(to);
    return Array.from(out, (c) => table.chars[c] || c).join("");
  }

  function prepare() {
    const table = window.FANSCAN_HANT;
    if (table && !table.phraseList) {
      table.phraseList = Object.entries(table.phrases).sort((a, b) => b[0].length - a[0].length);
    }
  }

  function fromBrowser() {
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const lower = tag.toLowerCase();
      if (/^zh-(tw|hk|mo|hant)/.test(lower)) return "zh-Hant";
      if (lower.startsWith("zh")) return "zh-Hans";
      if (lower.startsWith("en")) return "en";
    }
    return "en";
  }

  function t(key, params) {
    let text = lang === "en" ? EN[key] : HANS[key];
    if (text === undefined) text = EN[key] !== undefined ? EN[key] : key;
    if (lang === "zh-Hant") text = toHant(text);
    for (const [name, value] of Object.entries(params || {})) text = text.split(`{${name}}`).join(String(value));
    return text;
  }

  function apply() {
    document.documentElement.lang = lang;
    document.title = t("page.title");
    for (const element of document.querySelectorAll("[data-i18n]")) {
      element.textContent = t(element.dataset.i18n, { p: 80 });
    }
    for (const element of document.querySelectorAll("[data-i18n-title]")) {
      element.title = t(element.dataset.i18nTitle);
    }
  }

  function set(next) {
    lang = LANGS.some(([code]) => code === next) ? next : "en";
    try {
      localStorage.setItem(STORE, lang);
    } catch {
      // private mode: the choice lasts this page only
    }
    apply();
    listeners.forEach((listener) => listener(lang));
  }

  function setup(select) {
    prepare();
    let saved = null;
    try {
      saved = localStorage.getItem(STORE);
    } catch {
      saved = null;
    }
    lang = LANGS.some(([code]) => code === saved) ? saved : fromBrowser();
    select.replaceChildren(...LANGS.map(([code, name]) => new Option(name, code, false, code === lang)));
    select.addEventListener("change", () => set(select.value));
    apply();
  }

  window.fanscanI18n = {
    t,
    setup,
    onChange: (listener) => listeners.push(listener),
    isChinese: () => lang !== "en",
    // a Chinese name (simplified, as the scorer gives it) in the script of the page
    chinese: (text) => (lang === "zh-Hant" ? toHant(text) : text),
    language: () => lang,
  };
})();
