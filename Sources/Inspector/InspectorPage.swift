/// The inspector's page: one HTML document with its style and script,
/// served at `/`. It speaks to the application over the WebSocket at
/// `/socket` (the messages are listed in `docs/inspector.md`).
///
/// What it shows: the screen (each new frame as it comes, outlined with
/// the chosen view, the view under the pointer and the hit-test walk of
/// the chosen touch); the view tree; for each of the last touches the walk,
/// the view found, the responder chain, the recognizers' contest and every
/// touch method called, as a timeline to step through. Clicking and
/// dragging on the screen are touches, sent to the application's input port.
enum InspectorPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>OpenUIKit inspector</title>
<style>
  body { font: 13px/1.35 system-ui, sans-serif; margin: 0; background: #f4f4f6; color: #1c1c1e; }
  header { display: flex; gap: 16px; align-items: center; padding: 8px 14px; background: #1c1c1e; color: #fff; }
  header h1 { font-size: 15px; margin: 0; }
  header select { font: inherit; }
  #status { margin-left: auto; font-size: 12px; opacity: .8; }
  main { display: grid; grid-template-columns: auto minmax(260px, 1fr) minmax(340px, 1.2fr); gap: 12px; padding: 12px; align-items: start; }
  section { background: #fff; border-radius: 8px; padding: 10px 12px; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
  h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: #636366; }
  h3 { font-size: 12px; margin: 10px 0 4px; color: #3a3a3c; }
  #screen-wrap { position: relative; line-height: 0; border: 1px solid #c7c7cc; }
  #screen { width: 390px; height: auto; cursor: crosshair; user-select: none; -webkit-user-drag: none; touch-action: none; }
  #overlay { position: absolute; left: 0; top: 0; pointer-events: none; }
  #tree { max-height: 80vh; overflow: auto; font-family: ui-monospace, monospace; font-size: 12px; }
  .row { white-space: nowrap; padding: 1px 4px; cursor: pointer; border-radius: 3px; }
  .row:hover, .row.hover { background: #fff1d6; }
  .row.selected { background: #d6e4ff; }
  .row .flags, .row .recs { color: #8e8e93; }
  #details { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; color: #3a3a3c; margin-top: 8px; }
  ol, ul { margin: 0; padding-left: 22px; }
  li { margin: 1px 0; }
  li.refused { color: #b3261e; }
  li.accepted { color: #1b7a33; }
  li.current { background: #fff1d6; }
  .mono { font-family: ui-monospace, monospace; font-size: 12px; }
  #timeline-controls { display: flex; gap: 6px; align-items: center; margin: 4px 0; }
  #timeline { max-height: 30vh; overflow: auto; padding-left: 38px; }
  #errors { color: #b3261e; font-size: 12px; }
  #touches button { font: inherit; margin: 0 4px 4px 0; }
  #touches button.chosen { font-weight: bold; }
</style>
</head>
<body>
<header>
  <h1>OpenUIKit inspector</h1>
  <label>Scene <select id="scene"></select></label>
  <span id="scene-summary"></span>
  <span id="status">connecting…</span>
</header>
<main>
  <section>
    <h2>Screen</h2>
    <div id="screen-wrap"><img id="screen" alt="the application's screen"><svg id="overlay"></svg></div>
    <div id="errors"></div>
  </section>
  <section>
    <h2>View tree <span id="tree-info" class="mono"></span></h2>
    <div id="tree"></div>
    <div id="details"></div>
  </section>
  <section id="touch-panel">
    <h2>Last touches</h2>
    <div id="touches"><em>Click or drag on the screen.</em></div>
    <h3>Hit-test walk</h3><ol id="walk"></ol>
    <h3>View found</h3><div id="found" class="mono"></div>
    <h3>Responder chain</h3><ol id="chain"></ol>
    <h3>Recognizers</h3><ul id="recognizers"></ul>
    <h3>Touch methods</h3><ol id="methods"></ol>
    <h3>Timeline</h3>
    <div id="timeline-controls">
      <button id="step-back" title="previous step">◀</button>
      <input id="step" type="range" min="0" max="0" value="0">
      <button id="step-forward" title="next step">▶</button>
      <span id="step-label" class="mono"></span>
    </div>
    <ol id="timeline" class="mono"></ol>
  </section>
</main>
<script>
"use strict";
const $ = id => document.getElementById(id);
const state = {
  socket: null, screen: { width: 390, height: 844 }, views: new Map(), order: [],
  selected: null, hovered: null, records: [], chains: new Map(), touches: [],
  chosenTouch: null, step: 0, frameURL: null, pointerDown: false,
};
const maxRecords = 20000;

function describe(object) {
  if (!object) return "nil";
  return object.name ? `${object.class} “${object.name}”` : `${object.class} #${object.id}`;
}
function point(p) { return `(${p[0]}, ${p[1]})`; }
function rect(r) { return `(${r[0]}, ${r[1]}, ${r[2]}, ${r[3]})`; }
function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}
function showError(text) {
  const line = element("div", text);
  $("errors").prepend(line);
  while ($("errors").childElementCount > 5) $("errors").lastChild.remove();
}

// MARK: The socket

function connect() {
  const socket = new WebSocket(`ws://${location.host}/socket`);
  socket.binaryType = "blob";
  state.socket = socket;
  socket.onopen = () => { $("status").textContent = "live"; };
  socket.onclose = () => { $("status").textContent = "disconnected: reload the page to reconnect"; state.pointerDown = false; };
  socket.onerror = () => { $("status").textContent = "connection error"; };
  socket.onmessage = event => {
    if (typeof event.data !== "string") { showFrame(event.data); return; }
    let message;
    try { message = JSON.parse(event.data); } catch (error) { showError("unreadable message from the application"); return; }
    handle(message);
  };
}
function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function handle(message) {
  switch (message.type) {
  case "hello":
    state.screen = message.screen;
    $("screen").style.width = Math.min(message.screen.width, 430) + "px";
    const picker = $("scene");
    picker.replaceChildren();
    for (const scene of message.scenes) {
      const option = element("option", scene.name);
      option.value = scene.name;
      option.title = scene.summary;
      picker.append(option);
      if (scene.name === message.scene) $("scene-summary").textContent = scene.summary;
    }
    picker.value = message.scene;
    state.records = []; state.chains.clear(); state.touches = []; state.chosenTouch = null; state.selected = null;
    renderTouch();
    break;
  case "tree": receiveTree(message); break;
  case "trace": receiveRecords(message); break;
  case "chain": state.chains.set(message.touch, message.chain); if (message.touch === state.chosenTouch) renderTouch(); break;
  case "error": showError(message.message); break;
  case "status": $("status").textContent = message.message; break;
  default: showError(`unknown message ${message.type}`);
  }
}

function showFrame(blob) {
  const url = URL.createObjectURL(blob);
  const image = $("screen");
  image.onload = () => {
    if (state.frameURL) URL.revokeObjectURL(state.frameURL);
    state.frameURL = url;
    sizeOverlay();
    drawOverlay();
    send({ type: "frameShown" });
  };
  image.src = url;
}

// MARK: The view tree

function receiveTree(message) {
  const started = performance.now();
  state.views = new Map(); state.order = message.views;
  for (const view of message.views) state.views.set(view.id, view);
  $("tree-info").textContent = `${message.viewCount} views, described in ${message.milliseconds} ms`;
  const tree = $("tree");
  const rows = document.createDocumentFragment();
  // A huge tree shows its first views; every view can still be picked on the screen.
  const shown = message.views.slice(0, 3000);
  for (const view of shown) {
    const row = element("div", undefined, "row");
    row.dataset.id = view.id;
    row.style.paddingLeft = (4 + view.depth * 14) + "px";
    row.append(element("span", describe(view)), " ", element("span", rect(view.frame)));
    const flags = [];
    if (view.hidden) flags.push("hidden");
    if (view.alpha !== 1) flags.push(`alpha ${view.alpha}`);
    if (!view.interaction) flags.push("no interaction");
    if (view.multipleTouch) flags.push("multiple touch");
    if (view.exclusiveTouch) flags.push("exclusive touch");
    if (view.controller) flags.push(`view of ${view.controller}`);
    if (flags.length) row.append(" ", element("span", flags.join(", "), "flags"));
    if (view.recognizers.length) row.append(" ", element("span", view.recognizers.map(r => `${r.name || r.class}: ${r.state}`).join(", "), "recs"));
    row.onclick = () => select(view.id);
    row.onmouseenter = () => { state.hovered = view.id; drawOverlay(); };
    row.onmouseleave = () => { state.hovered = null; drawOverlay(); };
    rows.append(row);
  }
  if (message.views.length > shown.length) rows.append(element("div", `… and ${message.views.length - shown.length} more`, "row"));
  tree.replaceChildren(rows);
  if (state.selected !== null && !state.views.has(state.selected)) state.selected = null;
  markRows();
  renderDetails();
  drawOverlay();
  tree.dataset.renderMilliseconds = Math.round(performance.now() - started);
}

function select(id) {
  state.selected = id;
  markRows();
  renderDetails();
  drawOverlay();
}
function markRows() {
  for (const row of $("tree").children) {
    const id = Number(row.dataset.id);
    row.classList.toggle("selected", id === state.selected);
    row.classList.toggle("hover", id === state.hovered);
  }
}
function renderDetails() {
  const view = state.views.get(state.selected);
  if (!view) { $("details").textContent = ""; return; }
  const lines = [
    describe(view), `frame ${rect(view.frame)}, on screen ${rect(view.screen)}`,
    `hidden ${view.hidden}, alpha ${view.alpha}, user interaction ${view.interaction}`,
    `multiple touch ${view.multipleTouch}, exclusive touch ${view.exclusiveTouch}`,
    `layer ${view.layer.class}: corner radius ${view.layer.cornerRadius}, clips ${view.layer.masksToBounds}, opacity ${view.layer.opacity}`,
    `controller ${view.controller || "none"}`,
    "recognizers: " + (view.recognizers.map(r => `${r.name || r.class} (${r.state}${r.enabled ? "" : ", disabled"})`).join(", ") || "none"),
  ];
  $("details").textContent = lines.join("\n");
}

/// The front-most visible view whose box holds the point: the last in tree
/// order (subviews follow their superview, back to front).
function viewAt(x, y) {
  let found = null;
  const hiddenAncestors = new Set();
  for (const view of state.order) {
    if (view.hidden || hiddenAncestors.has(view.parent)) { hiddenAncestors.add(view.id); continue; }
    const [vx, vy, vw, vh] = view.screen;
    if (x >= vx && y >= vy && x < vx + vw && y < vy + vh) found = view.id;
  }
  return found;
}

// MARK: Drawing over the screen

function scale() { return $("screen").clientWidth / state.screen.width; }
function sizeOverlay() {
  const overlay = $("overlay");
  overlay.setAttribute("width", $("screen").clientWidth);
  overlay.setAttribute("height", $("screen").clientHeight);
}
function outline(svg, view, color, width, dash, label) {
  if (!view) return;
  const s = scale();
  const [x, y, w, h] = view.screen;
  const box = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  box.setAttribute("x", x * s); box.setAttribute("y", y * s);
  box.setAttribute("width", Math.max(w * s, 1)); box.setAttribute("height", Math.max(h * s, 1));
  box.setAttribute("fill", "none"); box.setAttribute("stroke", color); box.setAttribute("stroke-width", width);
  if (dash) box.setAttribute("stroke-dasharray", dash);
  svg.append(box);
  if (label) {
    const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
    text.setAttribute("x", x * s + 3); text.setAttribute("y", y * s + 13);
    text.setAttribute("fill", color); text.setAttribute("font-size", "12"); text.setAttribute("font-weight", "bold");
    text.textContent = label;
    svg.append(text);
  }
}
function drawOverlay() {
  const svg = $("overlay");
  svg.replaceChildren();
  const walk = currentWalk();
  walk.forEach((entry, index) => {
    outline(svg, state.views.get(entry.view.id), entry.inside === false ? "#d93025" : "#1e8e3e", 1.5, "4 3", String(index + 1));
  });
  const bound = touchRecords(state.chosenTouch).find(r => r.step === "touchBound");
  if (bound && bound.view) outline(svg, state.views.get(bound.view.id), "#1e8e3e", 3);
  const record = timelineRecords()[state.step];
  if (record) {
    const object = record.view || record.control || record.from || (record.recognizer && record.view);
    if (object) outline(svg, state.views.get(object.id), "#a142f4", 3);
  }
  outline(svg, state.views.get(state.hovered), "#f29900", 2, "6 3");
  outline(svg, state.views.get(state.selected), "#1a73e8", 3);
}

// MARK: Touches from the pointer

function screenPoint(event) {
  const bounds = $("screen").getBoundingClientRect();
  const s = scale();
  return { x: Math.round((event.clientX - bounds.left) / s * 100) / 100, y: Math.round((event.clientY - bounds.top) / s * 100) / 100 };
}
const image = $("screen");
image.addEventListener("pointerdown", event => {
  event.preventDefault();
  image.setPointerCapture(event.pointerId);
  state.pointerDown = true;
  const p = screenPoint(event);
  send({ type: "touch", pointer: 1, phase: "began", x: p.x, y: p.y });
});
image.addEventListener("pointermove", event => {
  const p = screenPoint(event);
  if (state.pointerDown) { send({ type: "touch", pointer: 1, phase: "moved", x: p.x, y: p.y }); return; }
  const id = viewAt(p.x, p.y);
  if (id !== state.hovered) { state.hovered = id; markRows(); drawOverlay(); }
});
image.addEventListener("pointerup", event => {
  if (!state.pointerDown) return;
  state.pointerDown = false;
  const p = screenPoint(event);
  send({ type: "touch", pointer: 1, phase: "ended", x: p.x, y: p.y });
});
image.addEventListener("pointercancel", event => {
  if (!state.pointerDown) return;
  state.pointerDown = false;
  const p = screenPoint(event);
  send({ type: "touch", pointer: 1, phase: "cancelled", x: p.x, y: p.y });
});
image.addEventListener("pointerleave", () => { if (!state.pointerDown && state.hovered !== null) { state.hovered = null; markRows(); drawOverlay(); } });
image.addEventListener("click", event => {
  const id = viewAt(...Object.values(screenPoint(event)));
  if (id !== null) select(id);
});

// MARK: The trace

function receiveRecords(message) {
  if (message.dropped) showError(`${message.dropped} trace records were dropped (too many at once)`);
  for (const record of message.records) {
    state.records.push(record);
    for (const touch of record.touches) {
      if (!state.touches.includes(touch)) {
        state.touches.push(touch);
        if (state.touches.length > 10) state.touches.shift();
      }
    }
  }
  if (state.records.length > maxRecords) state.records.splice(0, state.records.length - maxRecords);
  const newest = state.touches[state.touches.length - 1];
  if (newest !== undefined && newest !== state.chosenTouch) { state.chosenTouch = newest; state.step = 0; }
  renderTouch();
}

function touchRecords(touch) {
  if (touch === null) return [];
  return state.records.filter(r => r.touches.includes(touch));
}
/// Every record of the chosen touch's events: its own, and the steps of
/// those events that name no touch (delivery, layout, commit).
function timelineRecords() {
  const touch = state.chosenTouch;
  if (touch === null) return [];
  const events = new Set(touchRecords(touch).map(r => r.event).filter(e => e !== null));
  return state.records.filter(r => r.touches.includes(touch) || (r.event !== null && events.has(r.event)));
}
function currentWalk() {
  const walk = [];
  for (const record of touchRecords(state.chosenTouch)) {
    if (record.step === "hitTest") walk.push({ view: record.view, point: record.point, inside: undefined, result: undefined });
    if (record.step === "pointInside") {
      for (let i = walk.length - 1; i >= 0; i--) if (walk[i].view.id === record.view.id && walk[i].inside === undefined) { walk[i].inside = record.result; walk[i].insidePoint = record.point; break; }
    }
    if (record.step === "hitTestResult") {
      for (let i = walk.length - 1; i >= 0; i--) if (walk[i].view.id === record.view.id && walk[i].result === undefined) { walk[i].result = record.result; break; }
    }
  }
  return walk;
}

function renderTouch() {
  const touchButtons = $("touches");
  touchButtons.replaceChildren();
  for (const touch of state.touches) {
    const button = element("button", `touch ${touch}`, touch === state.chosenTouch ? "chosen" : "");
    button.onclick = () => { state.chosenTouch = touch; state.step = 0; renderTouch(); };
    touchButtons.append(button);
  }
  if (!state.touches.length) touchButtons.append(element("em", "Click or drag on the screen."));

  const walkList = $("walk");
  walkList.replaceChildren();
  for (const entry of currentWalk()) {
    let text = `${describe(entry.view)}.hitTest at ${point(entry.point)}`;
    if (entry.inside !== undefined) text += ` — point(inside:) ${entry.inside}`;
    text += ` → ${entry.result === undefined ? "…" : describe(entry.result)}`;
    const item = element("li", text, entry.inside === false || entry.result === null ? "refused" : "accepted");
    item.dataset.view = entry.view.name || entry.view.class;
    walkList.append(item);
  }
  const bound = touchRecords(state.chosenTouch).find(r => r.step === "touchBound");
  $("found").textContent = bound ? `${describe(bound.view)} in ${describe(bound.window)}` : "";
  if (bound && bound.view) $("found").dataset.view = bound.view.name || bound.view.class;

  const chainList = $("chain");
  chainList.replaceChildren();
  for (const responder of state.chains.get(state.chosenTouch) || []) {
    const item = element("li", describe(responder));
    item.dataset.responder = responder.name || responder.class;
    chainList.append(item);
  }

  const recognizers = $("recognizers");
  recognizers.replaceChildren();
  const byRecognizer = new Map();
  for (const record of touchRecords(state.chosenTouch)) {
    if (record.step !== "gestureStateChanged") continue;
    const key = record.recognizer.id;
    if (!byRecognizer.has(key)) byRecognizer.set(key, { recognizer: record.recognizer, view: record.view, changes: [] });
    byRecognizer.get(key).changes.push(`${record.to} (${record.reason}${record.other ? " " + describe(record.other) : ""})`);
  }
  for (const entry of byRecognizer.values()) {
    recognizers.append(element("li", `${describe(entry.recognizer)} on ${describe(entry.view)}: ${entry.changes.join(" → ")}`));
  }
  if (!byRecognizer.size) recognizers.append(element("li", "none took part"));

  const methods = $("methods");
  methods.replaceChildren();
  for (const record of touchRecords(state.chosenTouch)) {
    const name = p => "touches" + p[0].toUpperCase() + p.slice(1);
    if (record.step === "touchesDelivered") {
      const item = element("li", `${describe(record.view)}.${name(record.phase)}`);
      item.dataset.view = record.view.name || record.view.class;
      item.dataset.phase = record.phase;
      methods.append(item);
    } else if (record.step === "touchesPassedToNext") {
      methods.append(element("li", `  ${describe(record.from)} passes ${name(record.phase)} to ${describe(record.to)}`));
    } else if (record.step === "actionSent") {
      methods.append(element("li", `${describe(record.control)} sends ${record.action} to ${describe(record.target)}`));
    }
  }

  const timeline = timelineRecords();
  const slider = $("step");
  slider.max = Math.max(timeline.length - 1, 0);
  state.step = Math.min(state.step, Math.max(timeline.length - 1, 0));
  slider.value = state.step;
  $("step-label").textContent = timeline.length ? `${state.step + 1} / ${timeline.length}` : "";
  const list = $("timeline");
  list.replaceChildren();
  const start = timeline.length ? timeline[0].t : 0;
  timeline.forEach((record, index) => {
    const item = element("li", summary(record, start), index === state.step ? "current" : "");
    item.onclick = () => { state.step = index; renderTouch(); };
    list.append(item);
  });
  const current = list.children[state.step];
  if (current) current.scrollIntoView({ block: "nearest" });
  drawOverlay();
}

/// When the event server read and sent an event, before the application got it.
function serverTimes(record) {
  if (record.serverReadTime == null || record.serverSendTime == null) return "";
  const before = (time) => `${((record.t - time) * 1000).toFixed(1)} ms`;
  return ` (read by the server ${before(record.serverReadTime)} before, sent ${before(record.serverSendTime)} before)`;
}

/// One line of the timeline; times in milliseconds after `start`.
function summary(record, start) {
  const t = `+${((record.t - start) * 1000).toFixed(1)} ms`;
  switch (record.step) {
  case "hidEventReceived": return `${t} HID ${record.kind} event received${serverTimes(record)}`;
  case "eventQueued": return `${t} ${record.type} event queued (${record.queueLength} waiting)`;
  case "touchMovesHeld": return `${t} moves held for the next frame (${record.frameCount})`;
  case "eventDelivery": return `${t} event ${record.event}: ${record.type} delivered`;
  case "hitTest": return `${t} ${describe(record.view)}.hitTest ${point(record.point)}`;
  case "pointInside": return `${t} ${describe(record.view)}.point(inside: ${point(record.point)}) → ${record.result}`;
  case "hitTestResult": return `${t} ${describe(record.view)}.hitTest → ${describe(record.result)}`;
  case "touchBound": return `${t} touch bound to ${describe(record.view)}`;
  case "gestureStateChanged": return `${t} ${describe(record.recognizer)}: ${record.from} → ${record.to} (${record.reason})`;
  case "touchesDelivered": return `${t} ${describe(record.view)}.touches${record.phase[0].toUpperCase() + record.phase.slice(1)}`;
  case "touchesPassedToNext": return `${t} ${describe(record.from)} → next ${describe(record.to)}`;
  case "controlEvents": return `${t} ${describe(record.control)} sends ${record.events.join(", ")}`;
  case "actionSent": return `${t} action ${record.action} → ${describe(record.target)}`;
  case "layout": return `${t} layout ${describe(record.view)}`;
  case "display": return `${t} display ${describe(record.view)}`;
  case "commit": return `${t} commit`;
  case "framePresented": return `${t} frame presented`;
  default: return `${t} ${record.step}`;
  }
}

$("step").oninput = event => { state.step = Number(event.target.value); renderTouch(); };
$("step-back").onclick = () => { state.step = Math.max(state.step - 1, 0); renderTouch(); };
$("step-forward").onclick = () => { state.step = Math.min(state.step + 1, timelineRecords().length - 1); renderTouch(); };
$("scene").onchange = event => send({ type: "scene", name: event.target.value });
window.addEventListener("resize", () => { sizeOverlay(); drawOverlay(); });
connect();
</script>
</body>
</html>
"""#
}
