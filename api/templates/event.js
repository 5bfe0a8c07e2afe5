// The public event page (contract §15): renders the state the HTML carries, then follows it.
// Names are only ever set as text (never HTML). Polls every 5 s with If-None-Match, never while the page is hidden.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var key = location.pathname.replace(/\/+$/, "").split("/").pop();
  var store = "courtside-event-person:" + key;
  var state = JSON.parse(document.getElementById("state").textContent).data;
  var SIDE_JOIN = document.body.getAttribute("data-side-join");  // the one person rule's join, from the server
  var etag = '"' + state.version + '"';
  var person = null, personTag = null, chosen = null;
  try { chosen = localStorage.getItem(store); } catch (e) { chosen = null; }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function time(iso) {
    if (!iso) return "";
    var d = new Date(iso);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  function key8(name) { return (name || "").normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase(); }
  function plain(name) { return key8(name).normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }

  // ------------------------------------------------------------------ one match card, used everywhere
  function card(m, opts) {
    opts = opts || {};
    var live = m.status === "active", called = m.status === "pending" && m.calledOn;
    var box = el("div", "card" + (live ? " live" : "") + (called ? " called" : ""));
    var head = el("div", "court");
    var done = m.status === "completed";
    var where = m.pool ? "Waiting for a court" : done ? (m.result === "w/o" ? "Walkover" : "Result") : "Court to be announced";
    head.appendChild(el("span", null, opts.title || m.court || where));
    if (live) head.appendChild(el("span", "tag live", "Playing"));
    else if (called) head.appendChild(el("span", "tag call", "Called"));
    box.appendChild(head);
    var meta = [m.event, m.round].filter(Boolean).join(" · ");
    if (meta) box.appendChild(el("div", "meta", meta));
    m.sides.forEach(function (side, i) {
      var row = el("div", "side" + (done && m.winner === "ab"[i] ? " win" : ""));
      var who = el("div", "who", side.names.join(SIDE_JOIN));
      if (side.team) who.appendChild(el("small", null, side.team));
      row.appendChild(who);
      if (m.status !== "pending") {
        var pts = el("div", "pts");
        if (live && m.currentGame) pts.appendChild(el("span", "cur", m.currentGame["ab"[i]]));
        if (live && m.currentSet) pts.appendChild(el("span", "cur", m.currentSet["ab"[i]]));  // games of the set
        var won = m.winner === "ab"[i];
        // a walkover has no games: "w/o" beside the winner; a retirement: the games, "ret." beside the one who retired
        if (done && m.result === "w/o") pts.appendChild(el("span", "g", won ? "w/o" : ""));
        else pts.appendChild(el("span", "g", side.games + (done && m.result === "ret." && !won ? " ret." : "")));
        row.appendChild(pts);
      }
      box.appendChild(row);
    });
    var finished = m.finished || [];
    if (finished.length) box.appendChild(el("div", "games", (m.kind === "sets" ? "Sets " : "Games ") +
      m.finishedText.split(" ").join("  ")));
    if (m.status === "pending" && m.plannedOn) {  // the published order of play (§20)
      box.appendChild(el("div", "planned", notBefore(m.plannedOn, m.plannedCourt)));
      if (m.timeChanged) box.appendChild(el("div", "changed", "Time changed: was " + time(m.timeChanged.from)));
    }
    if (called) box.appendChild(el("div", "calledline", "Called to " + (m.court || "the desk")));
    else if (m.status === "pending" && (m.estimatedStartOn || m.notBefore)) {
      var next = el("div", "next");
      next.appendChild(document.createTextNode("Expected "));
      next.appendChild(el("b", null, time(m.estimatedStartOn || m.notBefore)));
      box.appendChild(next);
    }
    if (done && m.completedOn) box.appendChild(el("div", "meta", "Finished " + time(m.completedOn)));
    return box;
  }

  function notBefore(iso, court) { return "Not before " + time(iso) + (court ? " · " + court : ""); }

  // ------------------------------------------------------------------ Order of play (§20, once published)
  function renderOrder() {
    var days = state.orderOfPlay || [];
    document.getElementById("order-tab").classList.toggle("hidden", !state.orderOfPlay);
    var root = clear(document.getElementById("order"));
    if (!days.length) root.appendChild(el("p", "empty", "No order of play yet."));
    if (days.length) root.appendChild(el("p", "order-note", "Times are \u201cnot before\u201d: a match may start later, never earlier."));
    days.forEach(function (day) {
      root.appendChild(el("h2", null, new Date(day.date + "T12:00:00").toDateString()));
      day.courts.forEach(function (court) {
        var box = el("div", "card"), head = el("div", "court");
        head.appendChild(el("span", null, court.label));
        box.appendChild(head);
        var list = el("ol", "upnext planned");
        court.slots.forEach(function (slot) {
          var item = el("li"), who = el("span", "who", slot.names.join(" v "));
          var meta = [slot.event, slot.round].filter(Boolean).join(" · ");
          if (meta) who.appendChild(el("small", null, meta));
          if (slot.timeChanged) who.appendChild(el("small", "changed", "Time changed: was " + time(slot.timeChanged.from)));
          item.appendChild(el("span", "when", time(slot.plannedOn)));  // the court is the card's heading
          item.appendChild(who);
          list.appendChild(item);
        });
        box.appendChild(list);
        root.appendChild(box);
      });
    });
  }

  // ------------------------------------------------------------------ Now: one card per court
  function versus(m) { return m.sides.map(function (s) { return s.names.join(SIDE_JOIN); }).join(" v "); }
  function renderNow() {
    var root = clear(document.getElementById("courts"));
    if (!state.courts.length) root.appendChild(el("p", "empty", "No courts yet."));
    state.courts.forEach(function (court) {
      var box;
      if (court.match) box = card(court.match, { title: court.label });
      else {
        box = el("div", "card");
        var head = el("div", "court");
        head.appendChild(el("span", null, court.label));
        head.appendChild(el("span", "tag free", "Free"));
        box.appendChild(head);
      }
      if (court.late) box.appendChild(el("div", "late", court.late));
      if (court.upNext.length) {
        var list = el("ol", "upnext");
        court.upNext.forEach(function (m) {
          var item = el("li", m.calledOn ? "called" : null);
          item.appendChild(el("span", "who", versus(m)));
          item.appendChild(el("span", "when", m.calledOn ? "Called to " + court.label :
            (m.estimatedStartOn || m.notBefore ? "~" + time(m.estimatedStartOn || m.notBefore) : "")));
          list.appendChild(item);
        });
        box.appendChild(el("div", "meta upnext-label", "Up next"));
        box.appendChild(list);
      }
      root.appendChild(box);
    });
    renderWaiting(root);
  }

  // the draws' matches no court has taken yet (§13's court pool), in the order courts will take them
  function renderWaiting(root) {
    var waiting = state.waiting || { matches: [], more: 0 };
    if (!waiting.matches.length) return;
    var box = el("div", "card waiting"), head = el("div", "court");
    var count = waiting.matches.length + waiting.more;
    head.appendChild(el("span", null, "Waiting for a court"));
    head.appendChild(el("span", "tag free", count + (count === 1 ? " match" : " matches")));
    box.appendChild(head);
    box.appendChild(el("div", "meta", "Courts take them in this order as they come free."));
    var list = el("ol", "upnext");
    waiting.matches.forEach(function (m) {
      var item = el("li", m.calledOn ? "called" : null), who = el("span", "who", versus(m));
      var meta = [m.event, m.round].filter(Boolean).join(" · ");
      if (meta) who.appendChild(el("small", null, meta));
      item.appendChild(who);
      item.appendChild(el("span", "when", m.calledOn ? "Called" :
        (m.estimatedStartOn || m.notBefore ? "~" + time(m.estimatedStartOn || m.notBefore) : "")));
      list.appendChild(item);
    });
    box.appendChild(list);
    if (waiting.more) box.appendChild(el("div", "meta", "and " + waiting.more + " more after these"));
    root.appendChild(box);
  }

  // ------------------------------------------------------------------ My matches
  function renderPicker() {
    var query = plain(document.getElementById("find").value);
    var list = clear(document.getElementById("matches-list"));
    if (query.length < 2) return;
    state.people.filter(function (p) { return plain(p.name).indexOf(query) !== -1; }).slice(0, 30).forEach(function (p) {
      var item = el("li"), button = el("button", null, p.name);
      if (p.club) button.appendChild(el("small", null, p.club));
      button.addEventListener("click", function () { choose(p.personID); });
      item.appendChild(button);
      list.appendChild(item);
    });
    if (!list.firstChild) list.appendChild(el("li", "empty", "Nobody by that name yet."));
  }

  function choose(id) {
    chosen = id; person = null; personTag = null;
    try { if (id) localStorage.setItem(store, id); else localStorage.removeItem(store); } catch (e) { /* private mode */ }
    document.getElementById("find").value = "";
    renderPicker();
    renderMine();
    if (id) fetchPerson();
  }

  function renderMine() {
    var me = clear(document.getElementById("me")), mine = clear(document.getElementById("my-matches"));
    var top = clear(document.getElementById("my-next"));
    document.getElementById("picker").classList.toggle("hidden", !!chosen);
    me.classList.toggle("hidden", !chosen);
    if (!chosen) return;
    var line = el("div", "me");
    line.appendChild(el("b", null, person ? person.person.name : "…"));
    var change = el("button", "link", "Not you?");
    change.addEventListener("click", function () { choose(null); });
    line.appendChild(change);
    me.appendChild(line);
    if (!person) return;
    var current = person.current, next = person.next;
    if (current) { mine.appendChild(el("h2", null, "Playing now")); mine.appendChild(card(current)); }
    if (next) { mine.appendChild(el("h2", null, "Your next match")); mine.appendChild(card(next)); }
    if (!current && !next) mine.appendChild(el("p", "empty", "No match waiting for you right now."));
    (person.upcoming || []).slice(1).forEach(function (m) { mine.appendChild(card(m)); });
    if (person.finished.length) {
      mine.appendChild(el("h2", null, "Your results"));
      person.finished.forEach(function (m) { mine.appendChild(card(m)); });
    }
    var headline = current || next;
    if (headline) {
      top.appendChild(el("h2", null, person.person.name + (current ? ": playing now" : ": next match")));
      top.appendChild(card(headline));
    }
  }

  // ------------------------------------------------------------------ Draws: brackets as brackets, groups as tables
  var SVG = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function bracket(rounds) {
    var W = 190, H = 52, GAP = 34, PAD = 6;
    var most = Math.max.apply(null, rounds.map(function (r) { return r.matches.length; }));
    var height = Math.max(most * (H + 14), H + 20);
    var svg = svgEl("svg", { width: rounds.length * (W + GAP), height: height + 24, role: "img" });
    var pos = rounds.map(function (r, ri) {
      var slot = height / r.matches.length;
      return r.matches.map(function (m, mi) { return { x: ri * (W + GAP), y: 24 + mi * slot + (slot - H) / 2 }; });
    });
    rounds.forEach(function (r, ri) {
      svg.appendChild(svgEl("text", { x: ri * (W + GAP) + 2, y: 14, "font-size": 13, "font-weight": 700, fill: "#3d4451" }, r.name));
      r.matches.forEach(function (m, mi) {
        var p = pos[ri][mi];
        if (m.next && pos[m.next[0]] && pos[m.next[0]][m.next[1]]) {
          var q = pos[m.next[0]][m.next[1]], mx = p.x + W + GAP / 2;
          svg.appendChild(svgEl("path", { d: "M" + (p.x + W) + " " + (p.y + H / 2) + " H" + mx + " V" + (q.y + H / 2) + " H" + q.x,
            fill: "none", stroke: "#8a93a3", "stroke-width": 2 }));
        }
        svg.appendChild(svgEl("rect", { x: p.x, y: p.y, width: W, height: H, rx: 6, fill: m.status === "active" ? "#e7f6ec" : "#fff",
          stroke: m.status === "active" ? "#0a7a32" : "#0a0a0a", "stroke-width": 1.5 }));
        m.sides.forEach(function (s, si) {
          var y = p.y + 20 + si * 22;
          var label = s.name || (m.status === "bye" && si === 1 ? "bye" : "—");
          svg.appendChild(svgEl("text", { x: p.x + PAD, y: y, "font-size": 13, "font-weight": s.winner ? 800 : 500,
            fill: s.name ? "#0a0a0a" : "#8a93a3" }, label.length > 22 ? label.slice(0, 21) + "…" : label));
          // a walkover: "w/o" beside the winner, no 0-0; a retirement: "ret." beside the one who retired
          var shown = m.resultType === "walkover" ? (s.winner ? "w/o" : "")
            : s.games === null || s.games === undefined ? null
            : String(s.games) + (m.resultType === "retired" && !s.winner ? " ret." : "");
          if (shown) svg.appendChild(svgEl("text", { x: p.x + W - PAD, y: y, "font-size": 13,
            "font-weight": 800, "text-anchor": "end" }, shown));
        });
      });
    });
    var wrap = el("div", "bracket");
    wrap.appendChild(svg);
    return wrap;
  }
  function renderDraws() {
    var root = clear(document.getElementById("draws"));
    if (!state.draws.length) { root.appendChild(el("p", "empty", "No draws yet.")); return; }
    state.draws.forEach(function (d) {
      root.appendChild(el("h2", null, d.name));
      (d.groups || []).forEach(function (g) {
        var t = el("table", "standings"), head = el("tr");
        ["#", "Group " + g.name, "P", "W", "L", d.standingUnit || "Games"].forEach(function (h) { head.appendChild(el("th", null, h)); });
        t.appendChild(head);
        g.standings.forEach(function (s) {
          var tr = el("tr");
          [s.rank, s.name, s.played, s.won, s.lost, s.gamesWon + "–" + s.gamesLost].forEach(function (v) { tr.appendChild(el("td", null, v)); });
          t.appendChild(tr);
        });
        root.appendChild(t);
        if (g.tiebreaks && g.tiebreaks.length) {
          var notes = el("div", "tiebreaks");
          notes.appendChild(el("div", "meta", "Tie-breaks: " + d.tiebreak));
          g.tiebreaks.forEach(function (line) { notes.appendChild(el("div", null, line)); });
          root.appendChild(notes);
        }
      });
      (d.brackets || []).forEach(function (b) {
        if (b.name) root.appendChild(el("h3", "bracket-title", b.name));
        root.appendChild(bracket(b.rounds));
      });
      if (d.placings && d.placings.length) {
        var p = el("div", "placings");
        // the consolation's winner (contract §22) is marked as such, not shown as a second "1."
        d.placings.forEach(function (pl) {
          p.appendChild(el("div", pl.stage === "consolation" ? "consolation" : null,
            pl.stage === "consolation" ? "Consolation winner: " + pl.name : pl.place + ". " + pl.name));
        });
        root.appendChild(p);
      }
    });
  }

  // ------------------------------------------------------------------ Results
  function renderResults() {
    var root = clear(document.getElementById("results"));
    if (!state.results.length) root.appendChild(el("p", "empty", "No results yet."));
    state.results.forEach(function (m) { root.appendChild(card(m)); });
  }

  function render() {
    document.getElementById("event-name").textContent = state.event.name;
    document.title = state.event.name;
    renderNow(); renderMine(); renderOrder(); renderDraws(); renderResults();
  }

  // ------------------------------------------------------------------ tabs
  Array.prototype.forEach.call(document.querySelectorAll("nav button"), function (button) {
    button.addEventListener("click", function () {
      Array.prototype.forEach.call(document.querySelectorAll("nav button"), function (b) {
        var on = b === button;
        b.setAttribute("aria-selected", on ? "true" : "false");
        document.getElementById("tab-" + b.dataset.tab).classList.toggle("hidden", !on);
      });
      if (button.dataset.tab === "mine" && !chosen) document.getElementById("find").focus();
    });
  });
  document.getElementById("find").addEventListener("input", renderPicker);

  // ------------------------------------------------------------------ following the state
  function get(url, tag, wait) {
    var headers = tag ? { "If-None-Match": tag } : {};
    if (tag && wait) headers["Prefer"] = "wait=" + wait;
    return fetch(url, { headers: headers, cache: "no-store" }).then(function (r) {
      if (wait !== undefined) held = !!(wait && r.headers.get("Preference-Applied"));
      if (r.status === 304) return null;
      if (r.status === 404) return { gone: true };
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json().then(function (body) { return { body: body, tag: r.headers.get("ETag") }; });
    });
  }
  function fetchPerson() {
    if (!chosen) return Promise.resolve();
    var id = chosen;
    return get(key + "/people/" + encodeURIComponent(id), personTag).then(function (got) {
      if (id !== chosen || !got) return;
      if (got.gone) { choose(null); return; }
      person = got.body.data; personTag = got.tag;
      renderMine();
    });
  }
  /* Held polls (Prefer: wait): the server answers as soon as the page changes, or 304 when the wait ends, and says
     so (Preference-Applied); then the next poll goes at once. Where it does not hold them (or the poll waited in
     the browser's queue far longer than asked), the page polls every POLL_MS. One chain of polls at a time. */
  var WAIT = 25, holding = true, held = false, polling = false;
  function poll() {
    if (polling || document.visibilityState === "hidden") return;
    polling = true;
    var sent = Date.now(), ok = true;
    get(key + "/state", etag, holding ? WAIT : 0).then(function (got) {
      if (held && Date.now() - sent > (WAIT + 5) * 1000) holding = false;
      document.getElementById("updated").textContent = "Updated " + time(new Date().toISOString()) + " · updates by itself";
      if (!got || got.gone) return null;
      state = got.body.data; etag = got.tag; render();
      return fetchPerson();  // a person's matches change only with the page's state
    }).catch(function () {
      ok = false; held = false;
      document.getElementById("updated").textContent = "No connection: showing the last state we had.";
    }).then(function () {
      polling = false;
      setTimeout(poll, ok && held && holding ? 0 : POLL_MS);
    });
  }
  setTimeout(poll, 0);  // the state came with the page: the first poll is held at once
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") poll(); });

  render();
  if (chosen) fetchPerson();
}());
