// A player's own page (contract §21). Names are only ever set as text (never HTML). Polls every 5 s with
// If-None-Match, also in a background tab (a call-up must reach the player within 6 s); on a new call-up it
// vibrates where the phone can and raises a notification when the player allowed them.
(function () {
  "use strict";
  var state = JSON.parse(document.getElementById("state").textContent).data;
  var etag = '"' + state.version + '"';
  var key = location.pathname.replace(/\/+$/, "");
  var seenCall = state.called ? state.called.matchID + state.called.calledOn : null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clock(iso) {  // a time of day on the 24-hour clock, as the event page and the order of play write it
    var d = new Date(iso);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function say(text) { document.getElementById("message").textContent = text || ""; }

  function card(c, kind) {
    var box = el("div", "card " + (kind || ""));
    box.dataset.match = c.matchID;
    var top = el("div", "top");
    top.appendChild(el("span", "", c.court || c.plannedCourt || "Court to be announced"));
    top.appendChild(el("span", "", (c.event || "") + (c.round ? " · " + c.round : "")));
    box.appendChild(top);
    if (c.calledOn) { var m = el("div", "meta"); m.appendChild(el("b", "", "Called to " + c.court)); box.appendChild(m); }
    else if (c.plannedOn) box.appendChild(el("div", "meta", "Not before " + clock(c.plannedOn) +
                                               (c.plannedCourt ? " · " + c.plannedCourt : "")));
    else if (c.estimatedStartOn) box.appendChild(el("div", "meta", "About " + clock(c.estimatedStartOn)));
    c.sides.forEach(function (s, i) {
      var row = el("div", "side" + (c.side === "ab"[i] ? " me" : ""));
      var who = el("span", "who", s.names.join(document.body.getAttribute("data-side-join"))  /* the one person rule's join */);
      if (s.team) who.appendChild(el("small", "", s.team));
      row.appendChild(who);
      row.appendChild(el("span", "g", c.status !== "pending" ? s.games : ""));
      box.appendChild(row);
    });
    if (c.scoreText) box.appendChild(el("div", "games", c.scoreText + (c.result ? " " + c.result : "")));
    reportPart(box, c);
    return box;
  }

  function winnerOf(report, c) {  // ": Ann Lee won", from the games each side won
    var a = 0, b = 0;
    report.gameScores.forEach(function (g) { if (g.a > g.b) a++; else if (g.b > g.a) b++; });
    if (a === b || !c.sides) return "";
    var side = c.sides[a > b ? 0 : 1];
    return ": " + side.names.join(document.body.getAttribute("data-side-join")) + " won";
  }

  function reportFor(matchID) {
    return (state.reports || []).filter(function (r) { return r.matchID === matchID; })[0] || null;
  }

  function reportPart(box, c) {
    if (!state.selfReport || c.status === "completed") return;
    var report = reportFor(c.matchID);
    if (report) {
      var part = el("div", "report " + report.status);
      var games = report.gameScores.map(function (g) { return g.a + "-" + g.b; }).join(", ");
      if (report.status === "waiting" && report.mine) {
        part.appendChild(el("div", "", "You reported " + games + ". Waiting for your opponent to confirm."));
      } else if (report.status === "waiting") {
        part.appendChild(el("div", "", "Your opponent reported " + games + winnerOf(report, c) + ". Is that right?"));
        var row = el("div", "row");
        var yes = el("button", "confirm", "Confirm"); yes.type = "button";
        var no = el("button", "dispute", "Dispute"); no.type = "button";
        yes.addEventListener("click", function () { post("/reports/" + report.reportID + "/confirm", {}); });
        no.addEventListener("click", function () { post("/reports/" + report.reportID + "/dispute", {}); });
        row.appendChild(yes); row.appendChild(no); part.appendChild(row);
      } else if (report.status === "disputed") {
        part.appendChild(el("div", "", "Disputed (" + games + "): the desk will settle it."));
      }
      box.appendChild(part);
      return;
    }
    if (c.status !== "active" && !c.court) return;
    var form = el("form", "score");
    var rows = c.bestOf || 3, unit = c.kind === "sets" ? "Set " : "Game ";  // one row per game (set) it may have
    for (var i = 0; i < rows; i++) {
      var line = el("div", "game");
      line.appendChild(el("span", "", unit + (i + 1)));
      ["a", "b"].forEach(function (side) {
        var input = el("input"); input.type = "number"; input.min = "0"; input.max = "99"; input.inputMode = "numeric";
        input.name = side + i; input.setAttribute("aria-label", unit + (i + 1) + " side " + side);
        line.appendChild(input);
      });
      form.appendChild(line);
    }
    var send = el("button", "big", "Report the result"); send.type = "submit";
    form.appendChild(send);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var games = [];
      for (var g = 0; g < rows; g++) {
        var a = form.elements["a" + g].value, b = form.elements["b" + g].value;
        if (a !== "" && b !== "") games.push({ a: Number(a), b: Number(b) });
      }
      post("/matches/" + c.matchID + "/report", { gameScores: games });
    });
    box.appendChild(form);
  }

  function render() {
    document.getElementById("name").textContent = state.person.name;
    document.getElementById("sub").textContent = (state.person.club ? state.person.club + " · " : "") + state.event.name;
    var banner = clear(document.getElementById("banner"));
    if (state.called) {
      banner.appendChild(document.createTextNode("Called to " + state.called.court));
      banner.appendChild(el("small", "", "Go to the court now."));
    }
    banner.hidden = !state.called; banner.classList.toggle("hidden", !state.called);
    var checkin = clear(document.getElementById("checkin"));
    if (state.person.checkedIn) checkin.appendChild(el("div", "ok", "Checked in ✓"));
    else if (state.selfCheckIn) {
      var b = el("button", "big", "I'm here: check in"); b.type = "button"; b.id = "check-in";
      b.addEventListener("click", function () { post("/check-in", {}); });
      checkin.appendChild(b);
    } else checkin.appendChild(el("div", "empty", "Not checked in yet: check in at the desk."));
    var current = clear(document.getElementById("current"));
    if (state.current) current.appendChild(card(state.current, "live"));
    else current.appendChild(el("div", "empty", "Not playing right now."));
    var next = clear(document.getElementById("next"));
    state.next.forEach(function (c) { next.appendChild(card(c, c.calledOn ? "called" : "")); });
    if (!state.next.length) next.appendChild(el("div", "empty", "No match planned yet."));
    var results = clear(document.getElementById("results"));
    state.results.forEach(function (c) { results.appendChild(card(c, "")); });
    if (!state.results.length) results.appendChild(el("div", "empty", "No results yet."));
  }

  function alertCall() {
    var now = state.called ? state.called.matchID + state.called.calledOn : null;
    if (now && now !== seenCall) {
      if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
      if (window.Notification && Notification.permission === "granted") {
        try { new Notification("Called to " + state.called.court, { body: state.event.name }); } catch (e) { /* mobile: none */ }
      }
    }
    seenCall = now;
  }

  function post(path, body) {
    say("");
    return fetch(key + path, { method: "POST", headers: { "Content-Type": "application/json" },
                               body: JSON.stringify(body), cache: "no-store" }).then(function (r) {
      return r.json().then(function (answer) {
        if (!r.ok) { say((answer.error && answer.error.message) || "That did not work."); return; }
        state = answer.data; etag = '"' + state.version + '"'; render(); alertCall();
      });
    }).catch(function () { say("No connection: try again."); });
  }

  function poll() {
    fetch(key + "/state", { headers: { "If-None-Match": etag }, cache: "no-store" }).then(function (r) {
      if (r.status === 304 || !r.ok) return;
      return r.json().then(function (body) { state = body.data; etag = r.headers.get("ETag"); render(); alertCall(); });
    }).catch(function () { /* offline a moment: the next poll tries again */ });
  }

  var notify = document.getElementById("notify");
  if (window.Notification && Notification.permission === "default") {
    notify.hidden = false; notify.classList.remove("hidden");
    notify.addEventListener("click", function () {
      Notification.requestPermission().then(function () { notify.hidden = true; notify.classList.add("hidden"); });
    });
  }
  render();
  setInterval(poll, 5000);
})();
