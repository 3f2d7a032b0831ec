/* The campaign replay (campaign/replay): plain JavaScript, no library, no network request.
 *
 * Reads the JSON in #replay-data (campaign/replay/data.py describes its shapes) and shows
 * the map at one campaign minute in one view. Every division's position at minute T is the
 * last step of its track at or before T; a division marching on a road is drawn along it in
 * proportion to the time marched (an enemy glimpsed on a road stays where it was seen).
 * State: the minute, the view and the current log row; the URL's #t=MINUTE&view=NAME
 * follows it, so a link opens at that moment. window.replay exposes seek/setView/state for
 * tests and bookmarklets.
 */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("replay-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var VIEW_NAMES = { umpire: "Umpire", red: DATA.side_names.red, blue: DATA.side_names.blue };
  var STALE_MINUTES = 60; // an enemy last seen longer ago than this is drawn hollow
  var LARGE_MAP = 40; // junction names on bigger maps: objectives and bases only

  // ------------------------------------------------------------------ clock
  var DAY_START = DATA.clock.day_start, DAY_END = DATA.clock.day_end;
  function dayOf(t) { return Math.floor((t + DAY_START) / 1440) + 1; }
  function label(t) {
    var m = Math.round(t + DAY_START) % 1440;
    var hh = Math.floor(m / 60), mm = m % 60;
    return "Day " + dayOf(t) + " " + (hh < 10 ? "0" : "") + hh + ":" + (mm < 10 ? "0" : "") + mm;
  }
  function isNight(t) { var m = (t + DAY_START) % 1440; return m < DAY_START || m >= DAY_END; }

  // ------------------------------------------------------------------ the map
  var J = {}; // junction id -> {x, y, name}
  var xs = [], ys = [];
  DATA.map.junctions.forEach(function (r) {
    J[r[0]] = { id: r[0], name: r[1], x: r[2], y: -r[3], value: r[4] };
    xs.push(r[2]); ys.push(-r[3]);
  });
  var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
  var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
  var span = Math.max(maxX - minX, maxY - minY) || 1;
  var margin = 0.1 * span;
  var home = [minX - margin, minY - margin, maxX - minX + 3 * margin, maxY - minY + 2 * margin]; // labels run right
  var large = DATA.map.junctions.length > LARGE_MAP;
  // sizes in map units: a junction dot a little under a fortieth of the span on small maps
  var roadLengths = DATA.map.roads.map(function (r) {
    var a = DATA.map.junctions[r[0]], b = DATA.map.junctions[r[1]];
    return Math.hypot(a[2] - b[2], a[3] - b[3]);
  }).sort(function (a, b) { return a - b; });
  var typical = roadLengths.length ? roadLengths[Math.floor(roadLengths.length / 2)] : span / 10;
  var U = Math.min(span / 60, typical / 4); // one "unit" of drawing size
  var svg = document.getElementById("map");
  var view = home.slice();
  function setViewBox() { svg.setAttribute("viewBox", view.join(" ")); }
  setViewBox();

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  var gRoads = el("g", { id: "roads" }, svg);
  var gJunctions = el("g", { id: "junctions" }, svg);
  var gDivs = el("g", { id: "divisions" }, svg);
  var gBattles = el("g", { id: "battles" }, svg); // above the divisions, set off to the left
  DATA.map.roads.forEach(function (r) {
    var a = J[DATA.map.junctions[r[0]][0]], b = J[DATA.map.junctions[r[1]][0]];
    var cls = "road " + r[2] + (r[3] ? " primary" : "");
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, "class": cls,
      "stroke-width": (r[3] ? 0.55 : 0.22) * U, "data-road": a.id + "~" + b.id }, gRoads);
  });
  var baseOf = {};
  Object.keys(DATA.map.bases).forEach(function (s) { baseOf[DATA.map.bases[s]] = s; });
  function star(x, y, r) {
    var p = [];
    for (var i = 0; i < 10; i++) {
      var a = Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
      p.push((x + rr * Math.cos(a)).toFixed(3) + "," + (y - rr * Math.sin(a)).toFixed(3));
    }
    return p.join(" ");
  }
  // on a large map, label what matters: objectives, bases and the places divisions stood,
  // marched to or fought at in the views this file holds (as the diary's maps do)
  var visited = {};
  Object.keys(DATA.views).forEach(function (v) {
    var d = DATA.views[v];
    Object.keys(d.tracks).forEach(function (id) {
      d.tracks[id].steps.forEach(function (s) { visited[s[1][1]] = 1; if (s[1][0] === "road") visited[s[1][2]] = 1; });
    });
    d.battles.forEach(function (b) { b.place.forEach(function (j) { visited[j] = 1; }); });
  });
  DATA.map.junctions.forEach(function (r) {
    var j = J[r[0]];
    var g = el("g", { "class": "jn", "data-junction": j.id }, gJunctions);
    var t = el("title", {}, g);
    t.textContent = j.name + (j.value ? " (objective, value " + j.value + ")" : "") +
      (baseOf[j.id] ? " - " + VIEW_NAMES[baseOf[j.id]] + "'s base" : "");
    if (baseOf[j.id]) {
      el("rect", { x: j.x - 0.9 * U, y: j.y - 0.9 * U, width: 1.8 * U, height: 1.8 * U,
        "class": "base " + baseOf[j.id] }, g);
    }
    if (j.value) {
      el("polygon", { points: star(j.x, j.y, 0.75 * U), "class": "objective", "stroke-width": 0.08 * U }, g);
    } else if (!baseOf[j.id]) {
      el("circle", { cx: j.x, cy: j.y, r: 0.32 * U, "class": "junction", "stroke-width": 0.1 * U }, g);
    }
    if (!large || j.value || baseOf[j.id] || visited[j.id]) {
      var txt = el("text", { x: j.x + 0.9 * U, y: j.y - 0.8 * U, "font-size": 1.05 * U,
        "class": "jlabel", "stroke-width": 0.3 * U }, g);
      txt.textContent = j.name + (j.value ? " " + j.value : "");
    }
  });

  // pan (drag) and zoom (wheel); double click goes home
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var k = ev.deltaY > 0 ? 1.15 : 1 / 1.15;
    var box = svg.getBoundingClientRect();
    var fx = (ev.clientX - box.left) / box.width, fy = (ev.clientY - box.top) / box.height;
    var w = view[2] * k, h = view[3] * k;
    view = [view[0] + (view[2] - w) * fx, view[1] + (view[3] - h) * fy, w, h];
    setViewBox();
  }, { passive: false });
  var drag = null;
  svg.addEventListener("mousedown", function (ev) { drag = [ev.clientX, ev.clientY, view[0], view[1]]; });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) return;
    var box = svg.getBoundingClientRect();
    var s = Math.max(view[2] / box.width, view[3] / box.height);
    view[0] = drag[2] - (ev.clientX - drag[0]) * s;
    view[1] = drag[3] - (ev.clientY - drag[1]) * s;
    setViewBox();
  });
  svg.addEventListener("dblclick", function () { view = home.slice(); setViewBox(); });

  // ------------------------------------------------------------------ state
  var names = Object.keys(DATA.views);
  var state = { view: names[0], t: 0, row: -1, playing: false, speed: 1 };
  var V = null; // the current view's data and DOM
  var built = {};

  function lastAtOrBefore(arr, t, key) { // index of the last item with key(item) <= t, or -1
    var lo = 0, hi = arr.length - 1, found = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (key(arr[mid]) <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  function stepT(s) { return s[0]; }
  function rowT(r) { return r[0]; }

  function buildView(name) {
    if (built[name]) return built[name];
    var d = DATA.views[name];
    var b = { name: name, data: d, markers: {}, battleMarks: [], rows: [], shown: -1 };
    // divisions
    Object.keys(d.tracks).forEach(function (id) {
      var tr = d.tracks[id];
      var g = el("g", { "class": "div hidden " + tr.side + (tr.own ? " own" : " enemy"),
        "data-div": id, "data-side": tr.side, "data-where": "" });
      var size = 0.6 * U;
      if (tr.side === "red") {
        el("rect", { x: -size, y: -size, width: 2 * size, height: 2 * size, "class": "shape" }, g);
      } else {
        el("polygon", { points: "0," + (-1.2 * size) + " " + (1.1 * size) + "," + (0.9 * size) +
          " " + (-1.1 * size) + "," + (0.9 * size), "class": "shape" }, g);
      }
      var text = el("text", { x: 1.3 * size, y: 0.45 * size, "font-size": 1.05 * U, "stroke-width": 0.3 * U }, g);
      var title = el("title", {}, g);
      b.markers[id] = { g: g, text: text, title: title, track: tr, key: "" };
    });
    // battles
    d.battles.forEach(function (bt, i) {
      var p = bt.place.map(function (j) { return J[j]; });
      var x = p.length > 1 ? (p[0].x + p[1].x) / 2 : p[0].x, y = p.length > 1 ? (p[0].y + p[1].y) / 2 : p[0].y;
      var r = 0.8 * U;
      x -= 1.6 * U; // beside the place, so that the divisions standing there stay readable
      var g = el("g", { "class": "battle hidden", "data-battle": i, "data-place": bt.place.join("~"),
        transform: "translate(" + x + "," + y + ")" });
      el("circle", { r: r, "stroke-width": 0.1 * U }, g);
      el("path", { d: "M" + (-r * .55) + "," + (-r * .55) + "L" + (r * .55) + "," + (r * .55) +
        "M" + (r * .55) + "," + (-r * .55) + "L" + (-r * .55) + "," + (r * .55), "stroke-width": 0.18 * U }, g);
      var num = el("text", { x: r * 1.1, y: -r * 0.6, "font-size": 0.9 * U }, g);
      num.textContent = String(i + 1);
      var t = el("title", {}, g);
      t.textContent = "Battle " + (i + 1) + ": " + bt.name + " (" + label(bt.t) + ") - click for its account";
      g.addEventListener("click", function (ev) { ev.stopPropagation(); openBattle(i); });
      b.battleMarks.push({ g: g, t: bt.t, state: "" });
    });
    // log rows
    var frag = document.createDocumentFragment();
    d.log.forEach(function (r, i) {
      var row = document.createElement("div");
      row.className = "row " + r[1];
      row.dataset.i = i;
      row.dataset.t = r[0];
      if (r[1] !== "day" && r[1] !== "header") {
        var tm = document.createElement("span");
        tm.className = "tm";
        tm.textContent = r[2];
        row.appendChild(tm);
      }
      row.appendChild(document.createTextNode(r[3]));
      if (r[5] >= 0) {
        row.appendChild(document.createTextNode(" "));
        var a = document.createElement("a");
        a.href = "#";
        a.textContent = "[account]";
        a.dataset.battle = r[5];
        row.appendChild(a);
      }
      r[4].forEach(function (line) {
        var det = document.createElement("span");
        det.className = "det";
        det.textContent = line;
        row.appendChild(det);
      });
      frag.appendChild(row);
      b.rows.push(row);
    });
    b.logBox = document.createElement("div");
    b.logBox.className = "logview";
    b.logBox.appendChild(frag);
    b.times = uniqueTimes(d.log);
    built[name] = b;
    return b;
  }
  function uniqueTimes(log) {
    var out = [];
    log.forEach(function (r) { if (r[1] !== "day" && (!out.length || out[out.length - 1] !== r[0])) out.push(r[0]); });
    return out;
  }

  // ------------------------------------------------------------------ drawing one moment
  function positionOf(m, t) {
    var steps = m.track.steps;
    var i = lastAtOrBefore(steps, t, stepT);
    if (i < 0) return null;
    var s = steps[i];
    if (!s[5]) return null; // destroyed or surrendered
    var w = s[1];
    if (w[0] === "at") return { key: "at:" + w[1], x: J[w[1]].x, y: J[w[1]].y, s: s, at: w[1] };
    var a = J[w[1]], b = J[w[2]], t0 = w[3], minutes = w[4], f;
    if (minutes <= 0) f = 0.5;
    else if (m.track.own) f = Math.min(Math.max((t - t0) / minutes, 0), 1);
    else f = Math.min(Math.max((s[2] - t0) / minutes, 0.1), 0.9);
    return { key: "road:" + w[1] + ":" + w[2], x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, s: s, road: [a, b] };
  }
  function drawDivisions(t) {
    var stacks = {};
    var ids = Object.keys(V.markers);
    for (var k = 0; k < ids.length; k++) {
      var m = V.markers[ids[k]];
      var p = positionOf(m, t);
      if (!p) {
        if (m.key !== "") { m.g.setAttribute("class", "div hidden " + m.track.side); m.g.setAttribute("data-where", ""); m.key = ""; }
        continue;
      }
      var spot = p.key.indexOf("road:") === 0 ? Math.round(p.x / U) + "," + Math.round(p.y / U) : p.key;
      var n = stacks[spot] = (stacks[spot] || 0) + 1;
      var s = p.s;
      var stale = !m.track.own && t - s[2] > STALE_MINUTES;
      var cls = "div " + m.track.side + (m.track.own ? " own" : " enemy") + (stale ? " stale" : "");
      var y = p.y + (n - 1) * 1.6 * U;
      var strength = s[3] === null ? "?" : String(s[3]);
      var where = p.at ? J[p.at].name : "on the road " + p.road[0].name + " - " + p.road[1].name;
      var tip = ids[k] + " (" + VIEW_NAMES[m.track.side] + "): " +
        (s[4] === null ? "strength unknown" : s[4] + " units, " + s[3] + " boxes") + ", " + where +
        (m.track.own ? "" : (stale ? ", last seen " : ", seen ") + label(s[2]));
      var key = p.key + "|" + p.x.toFixed(3) + "|" + y.toFixed(3) + "|" + cls + "|" + strength + "|" + tip;
      if (key === m.key) continue;
      m.key = key;
      m.g.setAttribute("class", cls);
      m.g.setAttribute("data-where", p.key);
      m.g.setAttribute("data-seen", m.track.own ? "" : String(s[2]));
      m.g.setAttribute("transform", "translate(" + p.x.toFixed(3) + "," + y.toFixed(3) + ")");
      m.text.textContent = ids[k] + " " + strength;
      m.title.textContent = tip;
    }
  }
  function drawBattles(t) {
    var today = dayOf(t);
    V.battleMarks.forEach(function (b) {
      var st = b.t > t ? "battle hidden" : (dayOf(b.t) === today ? "battle" : "battle old");
      if (st !== b.state) { b.g.setAttribute("class", st); b.state = st; }
    });
  }
  // The log shows its rows up to the moment by one style rule (no per-row change: a jump
  // across the campaign costs the same as a step), and scrolls the current row into view
  // once per frame.
  var logRule = document.createElement("style");
  document.head.appendChild(logRule);
  var scrollPending = false;
  function drawLog(t) {
    var rows = V.rows, log = V.data.log;
    var upto = lastAtOrBefore(log, t, rowT); // a day's heading has its first row's minute
    if (upto !== V.shown) {
      logRule.textContent = "#log .logview > .row:nth-child(n+" + (upto + 2) + ") { display: none; }";
      V.logBox.dataset.shown = String(upto + 1);
      V.shown = upto;
    }
    var cur = state.row;
    if (cur < 0 || cur > upto || log[cur][0] !== log[Math.max(upto, 0)][0]) cur = upto;
    while (cur > 0 && log[cur][1] === "day") cur--;
    state.row = cur;
    if (cur === V.current) return;
    if (V.current >= 0 && rows[V.current]) rows[V.current].classList.remove("current");
    V.current = cur;
    if (cur >= 0) rows[cur].classList.add("current");
    if (!scrollPending) {
      scrollPending = true;
      requestAnimationFrame(function () {
        scrollPending = false;
        if (V.current >= 0) V.rows[V.current].scrollIntoView({ block: "center" });
      });
    }
  }

  // ------------------------------------------------------------------ controls
  var scrubber = document.getElementById("scrubber");
  var clock = document.getElementById("clock");
  var logBox = document.getElementById("log");
  var mapBox = document.getElementById("mapbox");
  var playBtn = document.getElementById("play");
  scrubber.max = DATA.end;
  var hashTimer = null;

  function render() {
    var t = state.t;
    scrubber.value = t;
    clock.textContent = label(t);
    mapBox.classList.toggle("night", isNight(t));
    drawDivisions(t);
    drawBattles(t);
    drawLog(t);
    if (hashTimer === null) hashTimer = setTimeout(writeHash, 250);
  }
  function writeHash() {
    hashTimer = null;
    var h = "#t=" + Math.round(state.t) + "&view=" + state.view;
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  function seek(t, row) {
    t = Math.max(0, Math.min(DATA.end, Number(t)));
    if (!isFinite(t)) return;
    state.t = t;
    state.row = row === undefined ? -1 : row;
    render();
  }
  function setView(name) {
    if (!DATA.views[name]) return false;
    state.view = name;
    V = buildView(name);
    V.shown = -2; // redraw the log's rule
    V.rows.forEach(function (r) { r.classList.remove("current"); });
    V.current = -1;
    while (gDivs.firstChild) gDivs.removeChild(gDivs.firstChild);
    while (gBattles.firstChild) gBattles.removeChild(gBattles.firstChild);
    Object.keys(V.markers).forEach(function (id) { V.markers[id].key = "-"; gDivs.appendChild(V.markers[id].g); });
    V.battleMarks.forEach(function (b) { b.state = ""; gBattles.appendChild(b.g); });
    while (logBox.firstChild) logBox.removeChild(logBox.firstChild);
    logBox.appendChild(V.logBox);
    document.querySelectorAll("#views button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.view === name));
    });
    document.getElementById("viewname").textContent = name === "umpire" ?
      "the umpire sees everything" : "only what " + VIEW_NAMES[name] + " knew at the time";
    fillBattleJumps();
    render();
    return true;
  }
  function step(dir) {
    var times = V.times, t = state.t, i;
    if (dir > 0) { i = lastAtOrBefore(times, t, Number) + 1; if (i < times.length) seek(times[i]); else seek(DATA.end); }
    else { i = lastAtOrBefore(times, t - 1, Number); seek(i >= 0 ? times[i] : 0); }
  }
  function dawn(dir) {
    var d = DATA.dawns, i;
    if (dir > 0) { i = lastAtOrBefore(d, state.t, Number) + 1; if (i < d.length) seek(d[i]); }
    else { i = lastAtOrBefore(d, state.t - 1, Number); seek(i >= 0 ? d[i] : 0); }
  }

  // play: 1x is one campaign hour a second
  var lastFrame = null;
  function frame(now) {
    if (!state.playing) return;
    if (lastFrame !== null) {
      var t = state.t + (now - lastFrame) / 1000 * 60 * state.speed;
      if (t >= DATA.end) { seek(DATA.end); pause(); return; }
      seek(t);
    }
    lastFrame = now;
    requestAnimationFrame(frame);
  }
  function play() {
    if (state.t >= DATA.end) seek(0);
    state.playing = true; lastFrame = null; playBtn.textContent = "\u275A\u275A"; playBtn.title = "Pause (space)";
    requestAnimationFrame(frame);
  }
  function pause() { state.playing = false; playBtn.textContent = "\u25B6"; playBtn.title = "Play (space)"; }

  scrubber.addEventListener("input", function () { seek(Number(scrubber.value)); });
  document.getElementById("first").addEventListener("click", function () { seek(0); });
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", function () { seek(DATA.end); });
  playBtn.addEventListener("click", function () { if (state.playing) pause(); else play(); });
  var speed = document.getElementById("speed");
  speed.addEventListener("change", function () { state.speed = Number(speed.value); });
  var dawns = document.getElementById("dawns");
  DATA.dawns.forEach(function (t, i) {
    var o = document.createElement("option"); o.value = t; o.textContent = "Day " + (i + 1) + " dawn"; dawns.appendChild(o);
  });
  dawns.addEventListener("change", function () { if (dawns.value !== "") seek(Number(dawns.value)); dawns.value = ""; });
  var battleSel = document.getElementById("battles-jump");
  function fillBattleJumps() {
    while (battleSel.options.length > 1) battleSel.remove(1);
    V.data.battles.forEach(function (b, i) {
      var o = document.createElement("option"); o.value = i;
      o.textContent = (i + 1) + ". " + b.name + " (" + label(b.t) + ")"; battleSel.appendChild(o);
    });
  }
  battleSel.addEventListener("change", function () {
    if (battleSel.value !== "") seek(V.data.battles[Number(battleSel.value)].t);
    battleSel.value = "";
  });
  document.getElementById("views").addEventListener("click", function (ev) {
    var b = ev.target.closest("button");
    if (b) setView(b.dataset.view);
  });
  logBox.addEventListener("click", function (ev) {
    var a = ev.target.closest("a[data-battle]");
    if (a) { ev.preventDefault(); openBattle(Number(a.dataset.battle)); return; }
    var row = ev.target.closest(".row");
    if (row) seek(Number(row.dataset.t), Number(row.dataset.i));
  });

  // the battle's account: summary, odds, units, bound-by-bound log
  var panel = document.getElementById("battle-panel");
  function openBattle(i) {
    var b = V.data.battles[i];
    var body = document.getElementById("battle-body");
    while (body.firstChild) body.removeChild(body.firstChild);
    var h = document.createElement("h2");
    h.textContent = "Battle " + (i + 1) + ": " + b.name + ", " + label(b.t);
    body.appendChild(h);
    var p = document.createElement("p"); p.textContent = b.text; body.appendChild(p);
    b.details.forEach(function (line) { var q = document.createElement("p"); q.textContent = line; body.appendChild(q); });
    if (b.table.length) {
      var table = document.createElement("table");
      b.table.forEach(function (r, k) {
        var tr = document.createElement("tr");
        r.forEach(function (c) { var td = document.createElement(k ? "td" : "th"); td.textContent = c; tr.appendChild(td); });
        table.appendChild(tr);
      });
      body.appendChild(table);
    }
    if (b.log.length) {
      var pre = document.createElement("pre"); pre.textContent = b.log.join("\n"); body.appendChild(pre);
    }
    panel.hidden = false;
    panel.dataset.battle = i;
  }
  function closeBattle() { panel.hidden = true; }
  document.getElementById("battle-close").addEventListener("click", closeBattle);

  document.addEventListener("keydown", function (ev) {
    if (ev.target.tagName === "SELECT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var k = ev.key;
    if (k === " " || k === "Spacebar") { if (state.playing) pause(); else play(); }
    else if (k === "ArrowRight") step(1);
    else if (k === "ArrowLeft") step(-1);
    else if (k === "ArrowUp") dawn(-1);
    else if (k === "ArrowDown") dawn(1);
    else if (k === "Home") seek(0);
    else if (k === "End") seek(DATA.end);
    else if (k === "Escape") closeBattle();
    else return;
    ev.preventDefault();
  }, true);

  // deep links: #t=MINUTE&view=NAME
  function readHash() {
    var h = location.hash.replace(/^#/, ""), out = {};
    h.split("&").forEach(function (kv) { var p = kv.split("="); if (p.length === 2) out[p[0]] = decodeURIComponent(p[1]); });
    return out;
  }
  function applyHash() {
    var h = readHash();
    if (h.view && h.view !== state.view && DATA.views[h.view]) setView(h.view);
    if (h.t !== undefined && Number(h.t) !== Math.round(state.t)) seek(Number(h.t));
  }
  window.addEventListener("hashchange", applyHash);

  // the view switch: one button a view the file holds
  var viewsBox = document.getElementById("views");
  if (names.length > 1) {
    names.forEach(function (n) {
      var b = document.createElement("button");
      b.type = "button"; b.dataset.view = n; b.className = n; b.textContent = VIEW_NAMES[n];
      b.title = n === "umpire" ? "Everything that happened" : "What " + VIEW_NAMES[n] + " knew";
      viewsBox.appendChild(b);
    });
  } else {
    var s = document.createElement("strong"); s.textContent = VIEW_NAMES[names[0]] + "'s view"; viewsBox.appendChild(s);
  }
  var legend = document.getElementById("legend");
  legend.firstChild.textContent = "\u25A0 " + VIEW_NAMES.red + " division (id, boxes)";
  legend.children[1].textContent = "\u25B2 " + VIEW_NAMES.blue + " division";
  var h0 = readHash();
  setView(DATA.views[h0.view] ? h0.view : names[0]);
  seek(h0.t !== undefined ? Number(h0.t) : 0);
  document.body.dataset.ready = "1";
  window.replay = {
    seek: seek, setView: setView, play: play, pause: pause, step: step,
    state: function () { return { t: state.t, view: state.view, row: state.row, playing: state.playing }; },
    views: names.slice(), end: DATA.end
  };
})();
