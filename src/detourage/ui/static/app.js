// detourage inspector: plain JavaScript, no build step, no library.
// The shown page lives in a sandboxed iframe (no scripts of its own); this script reads
// and colours its blocks (<span data-dtr-b="N">) from outside.
"use strict";

const LETTERS = ["h", "p", "l", "c", "o"];
const NAMES = {h: "header", p: "paragraph", l: "list item", c: "continuation", o: "other"};
const S = {
  token: document.querySelector('meta[name="dtr-token"]').content,
  pages: [], methods: [], key: null, info: null, mode: "inspect", source: "", compare: "",
  cache: {}, work: null, dirty: false, cursor: 0, anchor: 0, undo: [], spans: [], progress: null,
};
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  // the session token on every request: writes and labels (which compute) need it
  const options = body === undefined ? {headers: {"X-Detourage-Token": S.token}} : {
    method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-Detourage-Token": S.token},
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function status(text, error) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!error);
}

// ------------------------------------------------------------------ session, pages

async function init() {
  const session = await api("/api/session");
  S.pages = session.pages;
  S.methods = session.methods;
  S.progress = session.progress;
  const params = new URLSearchParams(location.search);
  S.mode = params.get("mode") === "annotate" ? "annotate" : "inspect";
  S.source = params.get("method") || "";
  S.compare = params.get("compare") || "";
  fillPages();
  bind();
  const key = params.get("page");
  await openPage(S.pages.some((p) => p.key === key) ? key : S.pages[0].key);
}

function fillPages() {
  const select = $("page");
  select.replaceChildren(...S.pages.map((p) => {
    const option = document.createElement("option");
    option.value = p.key;
    option.textContent = (p.annotated ? "✓ " : "\u2003 ") + p.key;
    return option;
  }));
  if (S.key) select.value = S.key;
  const pr = S.progress;
  $("progress").textContent = `${pr.done} / ${pr.pages} annotated · ${pr.left} left`;
}

async function openPage(key) {
  if (S.dirty && !confirm("Unsaved labels on this page: leave it anyway?")) {
    $("page").value = S.key;
    return;
  }
  S.key = key;
  delete document.body.dataset.ready;
  S.cache = {};
  S.dirty = false;
  S.work = null;
  S.undo = [];
  $("page").value = key;
  status("loading…");
  try {
    S.info = await api("/api/page?key=" + encodeURIComponent(key));
  } catch (error) {  // a page too large, too slow or unreadable: say so, keep the others usable
    S.info = null;
    $("frame").src = "about:blank";
    $("text").replaceChildren();
    status(error.message, true);
    return;
  }
  fillSources();
  await new Promise((resolve) => {
    $("frame").onload = resolve;
    $("frame").src = "/render?key=" + encodeURIComponent(key);
  });
  indexFrame();
  await refresh();
  document.body.dataset.ready = key;  // for the browser tests: the page is shown
}

function fillSources() {
  const sources = S.info.sources;
  // gold and anno exist for some pages only; any method name is accepted (the server checks it)
  const missing = (name) => (name === "gold" || name === "anno") && !sources.includes(name);
  if (!S.source || missing(S.source)) S.source = S.methods[0];
  if (missing(S.compare)) S.compare = "";
  const names = [...new Set([...sources, S.source, ...(S.compare ? [S.compare] : [])])];
  const option = (value) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = value === "gold" ? "gold (aligned)" : value === "anno" ? "annotation (.anno)" : value;
    return o;
  };
  $("source").replaceChildren(...names.map(option));
  $("source").value = S.source;
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "(no diff)";
  $("compare").replaceChildren(none, ...names.map(option));
  $("compare").value = S.compare;
}

function frameDoc() {
  return $("frame").contentDocument;
}

function indexFrame() {
  const doc = frameDoc();
  S.spans = S.info.blocks.map(() => []);
  for (const el of doc.querySelectorAll("[data-dtr-b]")) {
    const id = Number(el.getAttribute("data-dtr-b"));
    if (S.spans[id]) S.spans[id].push(el);
  }
  doc.addEventListener("click", onFrameClick, true);
  doc.addEventListener("mouseup", onFrameSelect);
  doc.addEventListener("keydown", onKey);
  doc.addEventListener("submit", (e) => e.preventDefault(), true);
}

async function labels(source) {
  if (!S.cache[source]) {
    S.cache[source] = await api(`/api/labels?key=${encodeURIComponent(S.key)}&source=${encodeURIComponent(source)}`);
  }
  return S.cache[source];
}

// -------------------------------------------------------------------------- views

async function refresh() {
  for (const button of document.querySelectorAll(".tabs button")) {
    button.setAttribute("aria-selected", String(button.dataset.mode === S.mode));
  }
  $("compare-box").hidden = S.mode === "annotate";
  $("source-label").textContent = S.mode === "annotate" ? "start from" : "labels";
  $("save").hidden = S.mode !== "annotate";
  updateUrl();
  try {
    if (S.mode === "annotate") await showAnnotate();
    else if (S.compare && S.compare !== S.source) await showDiff();
    else await showLabels();
  } catch (error) {
    status(error.message, true);
  }
}

function updateUrl() {
  const params = new URLSearchParams({page: S.key, method: S.source});
  if (S.compare && S.mode === "inspect") params.set("compare", S.compare);
  if (S.mode === "annotate") params.set("mode", "annotate");
  history.replaceState(null, "", "?" + params.toString());
}

function legend(items) {
  $("legend").replaceChildren(...items.map(([cls, text]) => {
    const span = document.createElement("span");
    const box = document.createElement("i");
    box.className = "k-" + cls;
    span.append(box, text);
    return span;
  }));
}

function labelLegend() {
  legend(LETTERS.map((x) => [x, `${x} ${NAMES[x]}`]));
}

function paint(letters) {
  letters.forEach((letter, id) => {
    for (const el of S.spans[id] || []) {
      el.setAttribute("data-dtr-l", letter);
      el.removeAttribute("data-dtr-d");
    }
  });
}

function located() {
  const info = S.info;
  const missing = info.blocks.length - info.located;
  return `${info.blocks.length} blocks` + (missing ? ` (${missing} in form fields, not outlined)` : "");
}

async function showLabels() {
  const data = await labels(S.source);
  paint(data.labels);
  labelLegend();
  const kept = data.labels.filter((x) => x !== "o").length;
  status(`${S.info.title || S.key} · ${located()} · ${S.source} keeps ${kept}`);
  $("text").replaceChildren(...data.units.map((unit) => {
    const div = document.createElement("div");
    div.className = "u u-" + unit.kind;
    div.textContent = unit.text;
    div.addEventListener("click", () => reveal(unit.blocks[0]));
    return div;
  }));
}

async function showDiff() {
  const [a, b] = [await labels(S.source), await labels(S.compare)];
  const kinds = a.labels.map((x, i) => {
    const [ka, kb] = [x !== "o", b.labels[i] !== "o"];
    return ka && kb ? "both" : ka ? "a" : kb ? "b" : "none";
  });
  kinds.forEach((kind, id) => {
    for (const el of S.spans[id] || []) {
      el.setAttribute("data-dtr-d", kind);
      el.removeAttribute("data-dtr-l");
    }
  });
  const count = (k) => kinds.filter((x) => x === k).length;
  legend([["a", `kept by ${S.source} only (${count("a")})`], ["b", `kept by ${S.compare} only (${count("b")})`],
          ["both", `kept by both (${count("both")})`]]);
  status(`${S.info.title || S.key} · ${located()} · diff ${S.source} vs ${S.compare}`);
  $("text").replaceChildren(...kinds.flatMap((kind, id) => kind === "none" ? [] : [diffLine(kind, id)]));
  const first = kinds.findIndex((kind) => kind === "a" || kind === "b");
  if (first >= 0) reveal(first);  // the page opens at its first difference
}

function diffLine(kind, id) {
  const div = document.createElement("div");
  div.className = "b d-" + kind;
  div.textContent = (kind === "a" ? "− " : kind === "b" ? "+ " : "\u2003 ") + S.info.blocks[id].text;
  div.title = kind === "a" ? `only ${S.source}` : kind === "b" ? `only ${S.compare}` : "both";
  div.addEventListener("click", () => reveal(id));
  return div;
}

function reveal(id) {
  const el = (S.spans[id] || [])[0];
  if (!el) return;
  for (const old of frameDoc().querySelectorAll("[data-dtr-cur]")) old.removeAttribute("data-dtr-cur");
  el.setAttribute("data-dtr-cur", "");
  el.scrollIntoView({block: "center"});
}

// ----------------------------------------------------------------------- annotate

async function showAnnotate() {
  if (!S.work) {
    const start = S.info.sources.includes("anno") ? "anno" : S.info.gold ? "gold" : S.source;
    S.source = start;
    $("source").value = start;
    updateUrl();
    S.work = [...(await labels(start)).labels];
    S.cursor = S.anchor = 0;
  }
  labelLegend();
  paint(S.work);
  $("text").replaceChildren(...S.work.map((letter, id) => blockLine(id)));
  select(S.cursor, false);
  status(`annotating ${S.key} · ${located()} · keys: h p l c o label · j/k next/previous · ` +
         "shift extends · z undo · s save · [ ] pages" + (S.info.annotated ? " · saved before" : ""));
  $("save").classList.toggle("dirty", S.dirty);
}

function blockLine(id) {
  const div = document.createElement("div");
  div.className = "b l-" + S.work[id];
  div.dataset.b = id;
  const tag = document.createElement("span");
  tag.className = "t";
  tag.textContent = `[${S.work[id]}]`;
  div.append(tag, S.info.blocks[id].image ? `(image) ${S.info.blocks[id].text}` : S.info.blocks[id].text);
  div.addEventListener("click", (e) => select(id, e.shiftKey));
  return div;
}

function selection() {
  return [Math.min(S.anchor, S.cursor), Math.max(S.anchor, S.cursor)];
}

function select(id, extend) {
  const last = S.work.length - 1;
  S.cursor = Math.max(0, Math.min(last, id));
  if (!extend) S.anchor = S.cursor;
  const [lo, hi] = selection();
  const doc = frameDoc();
  for (const el of doc.querySelectorAll("[data-dtr-sel],[data-dtr-cur]")) {
    el.removeAttribute("data-dtr-sel");
    el.removeAttribute("data-dtr-cur");
  }
  for (const line of $("text").querySelectorAll(".sel,.cur")) line.classList.remove("sel", "cur");
  const lines = $("text").children;
  for (let i = lo; i <= hi; i++) {
    for (const el of S.spans[i] || []) el.setAttribute("data-dtr-sel", "");
    if (lines[i]) lines[i].classList.add("sel");
  }
  for (const el of S.spans[S.cursor] || []) el.setAttribute("data-dtr-cur", "");
  if (lines[S.cursor]) {
    lines[S.cursor].classList.add("cur");
    lines[S.cursor].scrollIntoView({block: "nearest"});
  }
  const el = (S.spans[S.cursor] || [])[0];
  if (el) el.scrollIntoView({block: "nearest"});
}

function setLabel(letter) {
  const [lo, hi] = selection();
  S.undo.push({lo, before: S.work.slice(lo, hi + 1), cursor: S.cursor, anchor: S.anchor});
  const lines = $("text").children;
  for (let i = lo; i <= hi; i++) {
    S.work[i] = letter;
    for (const el of S.spans[i] || []) el.setAttribute("data-dtr-l", letter);
    if (lines[i]) {
      lines[i].className = "b l-" + letter;
      lines[i].firstChild.textContent = `[${letter}]`;
    }
  }
  S.dirty = true;
  $("save").classList.add("dirty");
  select(hi + 1, false);
}

function undo() {
  const step = S.undo.pop();
  if (!step) return;
  step.before.forEach((letter, k) => { S.work[step.lo + k] = letter; });
  S.cursor = step.cursor;
  S.anchor = step.anchor;
  S.dirty = true;
  showAnnotate();
}

async function save() {
  if (S.mode !== "annotate" || !S.work) return;
  try {
    const done = await api("/api/anno", {key: S.key, labels: S.work});
    S.dirty = false;
    S.work = done.labels;
    delete S.cache.anno;
    S.info = await api("/api/page?key=" + encodeURIComponent(S.key));
    const session = await api("/api/session");
    S.pages = session.pages;
    S.progress = session.progress;
    fillPages();
    fillSources();
    await showAnnotate();
    status(`saved ${done.path} (${done.blocks} blocks` +
           (done.settled ? `, ${done.settled} continuation(s) with nothing to continue made paragraphs` : "") + ")");
  } catch (error) {
    status("not saved: " + error.message, true);
  }
}

// ------------------------------------------------------------------------- events

function onFrameClick(event) {
  event.preventDefault();  // never follow the page's links
  if (!frameDoc().getSelection().isCollapsed) return;
  const block = event.target.closest && event.target.closest("[data-dtr-b]");
  if (!block) return;
  const id = Number(block.getAttribute("data-dtr-b"));
  if (S.mode === "annotate") select(id, event.shiftKey);
  else reveal(id);
}

function onFrameSelect() {
  const chosen = frameDoc().getSelection();
  if (S.mode !== "annotate" || chosen.isCollapsed || !chosen.rangeCount) return;
  const range = chosen.getRangeAt(0);
  const ids = [];
  S.spans.forEach((els, id) => { if (els.some((el) => range.intersectsNode(el))) ids.push(id); });
  if (!ids.length) return;
  S.anchor = ids[0];
  select(ids[ids.length - 1], true);
  chosen.removeAllRanges();
}

function onKey(event) {
  const tag = event.target && event.target.tagName;
  if ((tag === "SELECT" || tag === "INPUT") && event.target.ownerDocument === document) return;
  if (event.ctrlKey || event.metaKey || event.altKey || $("train").open) return;
  const key = event.key;
  if (key === "[" || key === "]") {
    const i = S.pages.findIndex((p) => p.key === S.key) + (key === "]" ? 1 : -1);
    if (S.pages[i]) openPage(S.pages[i].key);
  } else if (S.mode !== "annotate" || !S.work) {
    return;
  } else if (LETTERS.includes(key.toLowerCase()) && !event.shiftKey) {
    setLabel(key.toLowerCase());
  } else if (["j", "J", "ArrowDown", "n"].includes(key)) {
    select(S.cursor + 1, event.shiftKey);
  } else if (["k", "K", "ArrowUp", "b"].includes(key)) {
    select(S.cursor - 1, event.shiftKey);
  } else if (key === "z") {
    undo();
  } else if (key === "s") {
    save();
  } else {
    return;
  }
  event.preventDefault();
}

function bind() {
  document.addEventListener("keydown", onKey);
  $("page").addEventListener("change", () => openPage($("page").value));
  $("prev-page").addEventListener("click", () => onKey({key: "[", preventDefault() {}}));
  $("next-page").addEventListener("click", () => onKey({key: "]", preventDefault() {}}));
  for (const button of document.querySelectorAll(".tabs button")) {
    button.addEventListener("click", () => { S.mode = button.dataset.mode; refresh(); });
  }
  $("source").addEventListener("change", () => {
    if (S.mode === "annotate" && S.dirty && !confirm("Start again from these labels? Unsaved changes are lost.")) {
      $("source").value = S.source;
      return;
    }
    S.source = $("source").value;
    if (S.mode === "annotate") {
      labels(S.source).then((data) => { S.work = [...data.labels]; S.dirty = true; refresh(); });
    } else refresh();
  });
  $("compare").addEventListener("change", () => { S.compare = $("compare").value; refresh(); });
  $("save").addEventListener("click", save);
  bindTraining();
}

// ----------------------------------------------------------------------- training

function bindTraining() {
  $("train-open").addEventListener("click", async () => { $("train").showModal(); await poll(); });
  $("train-close").addEventListener("click", () => $("train").close());
  for (const kind of ["victor", "learned"]) {
    $("train-" + kind).addEventListener("click", async () => {
      try {
        await api("/api/train", {kind, folds: Number($("folds").value)});
        await poll();
      } catch (error) {
        $("train-output").textContent = "not started: " + error.message;
      }
    });
  }
}

async function poll() {
  const state = await api("/api/train");
  $("plan-victor").textContent = state.planned.victor.join("\n");
  $("plan-learned").textContent = state.planned.learned.join("\n");
  if (state.kind) {
    const end = state.running ? "… running" : state.returncode === 0
      ? `done: model ${state.model}` : `failed (exit status ${state.returncode})`;
    $("train-output").textContent = state.output + "\n" + end;
    $("train-output").scrollTop = $("train-output").scrollHeight;
  }
  for (const kind of ["victor", "learned"]) $("train-" + kind).disabled = state.running;
  if (state.running && $("train").open) setTimeout(poll, 1500);
}

init().catch((error) => status(error.message, true));
