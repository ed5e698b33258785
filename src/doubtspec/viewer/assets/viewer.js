/* doubtspec viewer: draws the board of every step from the embedded document; no network, no libraries. */
"use strict";
(function () {
  const doc = JSON.parse(document.getElementById("doubtspec-data").textContent);
  const C = doc.cards;
  const boards = decodeFrames(doc.frames);
  const last = doc.steps.length - 1;
  const focus = doc.focus === null || doc.focus === undefined ? last : doc.focus;
  let current = 0;

  /* --- data ------------------------------------------------------------------------------------------ */

  // Mirrors doubtspec.viewer.timeline.decode_frames: each frame holds the keys that changed.
  function decodeFrames(frames) {
    let board = {};
    return frames.map(function (frame) {
      if (frame === null) return null;
      const next = Object.assign({}, board);
      (frame.d || []).forEach(function (key) { delete next[key]; });
      Object.assign(next, frame.s);
      board = next;
      return next;
    });
  }

  // The board to draw at step i: its own, or the last one before it when the step could not be replayed.
  function boardAt(i) {
    for (let j = i; j >= 0; j--) if (boards[j]) return { board: boards[j], at: j };
    return { board: {}, at: 0 };
  }

  function changedKeys(i) {
    const frame = doc.frames[i];
    if (i === 0 || !frame) return new Set();
    return new Set(Object.keys(frame.s).concat(frame.d || []));
  }

  function indexed(board, prefix) {
    const values = [];
    while ((prefix + values.length) in board) values.push(board[prefix + values.length]);
    return values;
  }

  function multisetDiff(before, after) {
    const count = new Map();
    (before || []).forEach(function (x) { count.set(x, (count.get(x) || 0) + 1); });
    const added = [];
    (after || []).forEach(function (x) {
      const left = count.get(x) || 0;
      if (left > 0) count.set(x, left - 1); else added.push(x);
    });
    const removed = [];
    count.forEach(function (n, x) { for (let k = 0; k < n; k++) removed.push(x); });
    return { added: added, removed: removed };
  }

  /* --- building nodes ------------------------------------------------------------------------------- */

  function put(node, attrs, children) {
    Object.keys(attrs || {}).forEach(function (k) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.setAttribute("class", v);
      else node.setAttribute(k, v === true ? "" : String(v));
    });
    (children || []).flat(Infinity).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      node.append(c instanceof Node ? c : String(c));
    });
    return node;
  }
  function el(tag, attrs) { return put(document.createElement(tag), attrs, Array.prototype.slice.call(arguments, 2)); }
  function sv(tag, attrs) {
    return put(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, Array.prototype.slice.call(arguments, 2));
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  /* --- names from the card data -------------------------------------------------------------------- */

  const SIDE_NAMES = { company: "Company", movement: "Movement", chance: "Chance", setup: "Set-Up", terminal: "nobody" };
  const WHO_LETTER = { company: "C", movement: "M", chance: "?", setup: "S" };
  const PHASES = {
    "setup": "Set-Up", "movement-turn": "Movement's turn", "company-play": "Company's Play Phase",
    "company-buy": "Company's Buy Phase", "company-draw": "Company's Draw Phase", "pacing": "Pacing", "over": "game over"
  };
  const BONUS_LETTER = { influence: "I", messaging: "M", agitation: "A", refresh: "R" };

  function cardInfo(kind, n) {
    const table = kind === "company" ? C.company : kind === "movement" ? C.movement : C.goals;
    return table[String(n)] || { name: "unknown card" };
  }
  function cardName(kind, n) {
    const info = cardInfo(kind, n);
    return kind === "goal" ? "G" + n + " " + info.name : info.name + " (#" + n + ")";
  }
  function cardTitle(kind, n) {
    const c = cardInfo(kind, n);
    if (kind === "company") {
      return [c.name + " (#" + n + ") · " + String(c.kind || "").replace(/_/g, " ") + " · Budget " + c.budget,
        c.standard ? "Standard: " + c.standard : null, c.reserve ? "Reserve: " + c.reserve : null]
        .filter(Boolean).join("\n");
    }
    if (kind === "movement") {
      return [c.name + " (#" + n + ") · Influence " + c.influence, c.icons ? "Icons: " + c.icons : null,
        "Bonuses: left " + ((c.left || []).join(", ") || "none") + " · right " + ((c.right || []).join(", ") || "none"),
        c.passive ? "Passive: " + c.passive : null].filter(Boolean).join("\n");
    }
    return ["G" + n + " " + c.name + " · cost " + c.cost + " · " + c.points + " points",
      c.effects ? "Effect: " + c.effects : null, c.passive ? "Passive: " + c.passive : null].filter(Boolean).join("\n");
  }
  function chip(kind, n, extra) {
    const c = cardInfo(kind, n);
    return el("span", { class: "card " + kind + (extra ? " " + extra : ""), title: cardTitle(kind, n), "data-card": n },
      kind === "goal" ? el("span", { class: "n", text: "G" + n }) : null,
      c.name,
      kind === "goal" ? null : el("span", { class: "n", text: "#" + n }));
  }
  function chips(kind, cards, added, gone) {
    const fresh = (added || []).slice();
    const nodes = cards.map(function (n) {
      const k = fresh.indexOf(n);
      if (k >= 0) fresh.splice(k, 1);
      return chip(kind, n, k >= 0 ? "added" : "");
    });
    (gone || []).forEach(function (n) { nodes.push(chip(kind, n, "gone")); });
    return nodes.length ? nodes : [el("span", { class: "empty", text: "none" })];
  }

  /* --- words for changes --------------------------------------------------------------------------- */

  const CARD_LISTS = {};
  ["c.deck", "c.hand", "c.discard", "c.reserve", "c.in_play", "c.trash", "c.removed"].forEach(function (k) { CARD_LISTS[k] = "company"; });
  ["m.deck", "m.hand", "m.discard"].forEach(function (k) { CARD_LISTS[k] = "movement"; });
  CARD_LISTS["m.achieved"] = "goal";

  function labelOf(key) {
    const m = /^(.*)\.(\d+|[a-z_]+)$/.exec(key);
    if (doc.labels[key]) return doc.labels[key];
    if (m) {
      const i = m[2];
      if (m[1] === "c.zone") return C.zones[+i].name + ": Victims and Doubt";
      if (m[1] === "c.pile") return (C.piles[+i] ? C.piles[+i].name : "pile " + i) + " pile";
      if (m[1] === "c.stack") return "stack " + (+i + 1);
      if (m[1] === "m.market") return "Market space " + i;
      if (m[1] === "m.goal") return "Goal place " + i;
      if (m[1] === "supply") return i + " supply";
    }
    return key;
  }

  function pendingName(pending) {
    if (!pending || !pending.length) return "nothing";
    return pending[0].replace(/\(.*$/, "").replace(/([a-z])([A-Z])/g, "$1 $2");
  }

  function outcomeText(outcome) {
    return (SIDE_NAMES[outcome.winner] || outcome.winner) + " wins by " + outcome.reason.replace(/-/g, " ") + " in round " + outcome.round;
  }

  function valueText(key, v) {
    if (v === undefined) return "(none)";
    if (key in CARD_LISTS) return v.length + (v.length === 1 ? " card" : " cards");
    if (key.indexOf("c.zone.") === 0) return v[0] + " Victims, " + v[1] + " Doubt";
    if (key.indexOf("c.pile.") === 0 || key.indexOf("c.stack.") === 0) {
      return v.length ? v.length + " left, top " + cardName("company", v[v.length - 1]) : "empty";
    }
    if (key.indexOf("m.market.") === 0) {
      return (v[0] ? cardName("movement", v[0]) : "empty") + (v[1] ? " (+" + v[1] + " Profit)" : "");
    }
    if (key.indexOf("m.goal.") === 0) {
      return v[0] ? cardName("goal", v[0]) + ", Agitation " + v[2] + ", Profit " + v[1] : "achieved";
    }
    if (key === "m.tableau") {
      return v.map(function (t) { return cardName("movement", t[0]) + (t[1] ? "" : " (flipped)"); }).join(", ") || "empty";
    }
    if (key === "pending") return pendingName(v);
    if (key === "phase") return PHASES[v] || v;
    if (key === "actor") return SIDE_NAMES[v] || v;
    if (key === "outcome") return v ? outcomeText(v) : "none";
    if (Array.isArray(v)) return v.join(", ") || "none";
    return String(v);
  }

  function changeItem(key, before, after) {
    const li = el("li", {}, el("b", { text: labelOf(key) + ": " }));
    if (key in CARD_LISTS) {
      const d = multisetDiff(before, after);
      d.added.forEach(function (n) { li.append(el("span", { class: "added", text: "+" + cardName(CARD_LISTS[key], n) + " " })); });
      d.removed.forEach(function (n) { li.append(el("span", { class: "removed", text: "−" + cardName(CARD_LISTS[key], n) + " " })); });
      li.append(" (" + valueText(key, after) + ")");
    } else {
      li.append(valueText(key, before) + " → " + valueText(key, after));
    }
    return li;
  }

  /* --- the header, notes and failure ---------------------------------------------------------------- */

  function drawHeader() {
    document.getElementById("title").textContent = doc.title;
    const facts = clear(document.getElementById("facts"));
    doc.facts.forEach(function (f) { facts.append(el("div", {}, el("dt", { text: f[0] }), el("dd", { text: f[1] }))); });
    const toFocus = document.getElementById("to-focus");
    toFocus.textContent = doc.kind === "failure" ? "Failing step (f)" : doc.kind === "witness" ? "Witness end (f)" : "Last step (f)";
    const notes = clear(document.getElementById("notes"));
    doc.notes.forEach(function (n) { notes.append(el("p", { class: "note", text: n })); });
    drawFailure();
    drawStepList();
  }

  function drawFailure() {
    const f = doc.failure;
    const host = clear(document.getElementById("failure"));
    if (!f) return;
    const box = el("div", { class: "box", id: "failure-box" },
      el("h2", { text: f.id + " violated at step " + f.step }),
      el("div", { class: "statement" }, el("b", { text: "Invariant (" + f.kind + "): " }), f.statement),
      el("div", { class: "message" }, "Found: ", f.message),
      f.probe ? el("div", {}, "The illegal action ", el("code", { text: f.probe }),
        " was tried after the last step, and the engine did not reject it.") : null,
      el("div", { class: "sections" }, el("b", { text: "Rulebook sections: " }), f.sections.join(" · ")));
    if (f.changes && f.changes.length) {
      const rows = f.changes.map(function (c) {
        const kind = fieldKind(c.field);
        const cell = function (v) { return el("td", { text: kind && Array.isArray(v) ? v.map(function (n) { return cardName(kind, n); }).join(", ") || "none" : JSON.stringify(v) }); };
        return el("tr", {}, el("td", {}, el("code", { text: c.field })), cell(c.before), cell(c.after),
          el("td", { class: "removed", text: c.removed ? (kind ? c.removed.map(function (n) { return cardName(kind, n); }).join(", ") : JSON.stringify(c.removed)) : "" }),
          el("td", { class: "added", text: c.added ? (kind ? c.added.map(function (n) { return cardName(kind, n); }).join(", ") : JSON.stringify(c.added)) : "" }));
      });
      box.append(el("details", { id: "failure-changes" }, el("summary", { text: "Before and after the failing step, field by field (" + f.changes.length + " fields changed)" }),
        el("table", { class: "changes" }, el("tr", {}, ["field", "before", "after", "removed", "added"].map(function (h) { return el("th", { text: h }); })), rows)));
    }
    host.append(box);
  }

  function fieldKind(field) {
    const kinds = doc.card_fields || {};
    for (const section of Object.keys(kinds)) {
      if (kinds[section].indexOf(field) >= 0) return section === "goals" ? "goal" : section;
    }
    return null;
  }

  function drawStepList() {
    const list = clear(document.getElementById("steps"));
    let heading = null;
    doc.steps.forEach(function (s, i) {
      if (s[3] !== heading) {
        heading = s[3];
        list.append(el("li", { class: "group", text: heading }));
      }
      const fail = doc.kind === "failure" && i === focus;
      const li = el("li", { class: "step" + (fail ? " fail" : "") + (boards[i] ? "" : " unreplayed"), "data-step": i, title: s[0] || "Set-Up" },
        el("span", { class: "num", text: i }),
        el("span", { class: "who " + s[2], text: WHO_LETTER[s[2]] || "", title: SIDE_NAMES[s[2]] || s[2] }),
        el("span", { class: "words", text: (fail ? "✖ " : "") + s[1] }));
      li.addEventListener("click", function () { go(i); });
      list.append(li);
    });
  }

  /* --- the board ------------------------------------------------------------------------------------- */

  function stat(key, label, value, changed) {
    return el("span", { class: "stat" + (changed.has(key) ? " changed" : ""), "data-key": key, "data-value": value },
      label + " ", el("b", { text: value }));
  }

  function cardRow(label, key, kind, board, prev, changed, openable) {
    const cards = board[key] || [];
    const d = changed.has(key) && prev ? multisetDiff(prev[key], cards) : { added: [], removed: [] };
    const count = el("span", { class: "count", text: cards.length });
    const cls = "zone-row" + (changed.has(key) ? " changed" : "");
    if (openable) {
      const box = el("details", { class: "pile" },
        el("summary", {}, el("b", { text: label }), " · ", count, cards.length === 1 ? " card" : " cards",
          d.added.length ? el("span", { class: "added", text: " +" + d.added.length }) : null,
          d.removed.length ? el("span", { class: "removed", text: " −" + d.removed.length }) : null),
        el("div", { class: "zone-row" }, chips(kind, cards, d.added, d.removed)));
      return el("div", { class: cls, "data-key": key, "data-count": cards.length }, box);
    }
    return el("div", { class: cls, "data-key": key, "data-count": cards.length },
      el("span", { class: "label" }, label + " (", count, ")"), chips(kind, cards, d.added, d.removed));
  }

  function displaySvg(board, changed) {
    const zones = C.zones;
    const deepest = Math.max.apply(null, zones.map(function (z) { return z.doubt_values.length; }).concat([1]));
    const colW = 150, top = 44, gap = 34;
    const height = Math.max(top + deepest * gap + 24, 190);
    const root = sv("svg", { viewBox: "0 0 " + (colW * zones.length) + " " + height, role: "img",
      "aria-label": "The Company's display: Victims and Doubt per zone" });
    zones.forEach(function (zone, z) {
      const key = "c.zone." + z;
      const v = board[key] || [0, 0];
      const x0 = z * colW;
      const g = sv("g", { "data-key": key, "data-victims": v[0], "data-doubt": v[1] });
      g.append(sv("rect", { class: "zone-back" + (changed.has(key) ? " changed" : ""), x: x0 + 3, y: 3, width: colW - 6,
        height: height - 6, rx: 8, fill: "#fbf8f4", stroke: "#d9c7b5" }));
      g.append(sv("text", { class: "zone-name", x: x0 + 12, y: 24, text: zone.name }));
      zone.doubt_values.forEach(function (value, k) {
        const filled = k < v[1];
        const cy = top + k * gap + 14;
        g.append(sv("circle", { class: "space" + (filled ? " filled" : ""), cx: x0 + 34, cy: cy, r: 14 }));
        g.append(sv("text", { class: "space-value" + (filled ? " filled" : ""), x: x0 + 34, y: cy, text: value }));
      });
      g.append(sv("text", { class: "caption", x: x0 + 34, y: top + zone.doubt_values.length * gap + 12,
        text: "Doubt " + v[1] + "/" + zone.doubt_values.length }));
      g.append(sv("text", { class: "victims-count", x: x0 + 105, y: top + 16, text: v[0] }));
      g.append(sv("text", { class: "caption", x: x0 + 105, y: top + 30, text: "Victims" }));
      const shown = Math.min(v[0], 24);
      for (let t = 0; t < shown; t++) {
        g.append(sv("circle", { class: "victim", cx: x0 + 78 + (t % 6) * 10, cy: top + 44 + Math.floor(t / 6) * 11, r: 4 }));
      }
      if (v[0] > shown) g.append(sv("text", { class: "caption", x: x0 + 105, y: top + 96, text: "+" + (v[0] - shown) }));
      root.append(g);
    });
    return el("div", { class: "display" }, root);
  }

  function drawCompany(board, prev, changed) {
    const host = clear(document.getElementById("company"));
    const R = C.rules;
    const banned = board["c.banned"] || [];
    const stars = "★".repeat(board["c.stars"]) + "☆".repeat(Math.max(0, R.stars_to_win - board["c.stars"]));
    host.append(el("h2", {}, el("span", { text: "Company" })));
    host.append(el("div", { class: "stats" },
      stat("c.profit", "Profit", board["c.profit"] + "/" + R.profit_to_win, changed),
      stat("c.stars", "Stars", stars, changed),
      stat("c.reshuffles", "Reshuffles", board["c.reshuffles"], changed),
      stat("c.plays", "Plays", board["c.plays"], changed),
      stat("c.buys", "Buys", board["c.buys"], changed),
      board["c.discount"] ? stat("c.discount", "Discount", board["c.discount"], changed) : null,
      board["c.unlobbied"] ? stat("c.unlobbied", "Lobbying taken back", "yes", changed) : null,
      el("span", { class: "stat" + (changed.has("c.banned") ? " changed" : ""), "data-key": "c.banned" },
        "Banned ", el("b", { text: banned.map(function (k) { return k.replace(/_/g, " "); }).join(", ") || "none" }))));
    host.append(el("div", { class: "bar profit", title: "Profit towards " + R.profit_to_win },
      el("span", { style: "width:" + Math.min(100, 100 * board["c.profit"] / R.profit_to_win) + "%" })));
    host.append(displaySvg(board, changed));
    host.append(el("h3", { text: "Cards" }));
    host.append(cardRow("Hand", "c.hand", "company", board, prev, changed, false));
    host.append(cardRow("In play", "c.in_play", "company", board, prev, changed, false));
    host.append(cardRow("Reserve", "c.reserve", "company", board, prev, changed, false));
    host.append(cardRow("Deck (shuffled)", "c.deck", "company", board, prev, changed, true));
    host.append(cardRow("Discard pile", "c.discard", "company", board, prev, changed, true));
    host.append(cardRow("Trash (top last)", "c.trash", "company", board, prev, changed, true));
    host.append(cardRow("Out of the game", "c.removed", "company", board, prev, changed, true));
    host.append(el("h3", { text: "Market: piles and stacks" }));
    const market = el("div", { class: "market" });
    indexed(board, "c.pile.").forEach(function (pile, i) {
      const data = C.piles[i] || { name: "pile " + i, kind: "" };
      const isBanned = banned.indexOf(data.kind) >= 0;
      market.append(pileSlot("c.pile." + i, data.name, pile, changed, isBanned));
    });
    indexed(board, "c.stack.").forEach(function (stack, i) {
      market.append(pileSlot("c.stack." + i, "Stack " + (i + 1), stack, changed, false));
    });
    host.append(market);
  }

  function pileSlot(key, name, cards, changed, isBanned) {
    const top = cards.length ? cards[cards.length - 1] : null;
    return el("div", { class: "slot" + (isBanned ? " banned" : "") + (changed.has(key) ? " changed" : ""), "data-key": key,
      "data-count": cards.length },
      el("div", { class: "head" }, el("span", { text: name + (isBanned ? " · banned" : "") }),
        el("span", {}, el("span", { class: "count", text: cards.length }), " left")),
      top === null ? el("span", { class: "empty", text: "empty" }) : chip("company", top),
      top === null ? null : el("div", { class: "caption-line", text: "Budget " + cardInfo("company", top).budget }),
      cards.length > 1 ? el("details", { class: "pile" }, el("summary", { text: "under it" }),
        el("div", { class: "zone-row" }, cards.slice(0, -1).reverse().map(function (n) { return chip("company", n); }))) : null);
  }

  function aligned(a, b) {
    const rest = b.slice();
    const out = [];
    a.forEach(function (k) { const i = rest.indexOf(k); if (i >= 0) { rest.splice(i, 1); out.push(k); } });
    return out;
  }
  function bonusBadges(kinds) {
    return kinds.map(function (k) { return el("span", { class: "bonus " + k, title: k + " Bonus", text: BONUS_LETTER[k] || k }); });
  }

  function drawTableau(board, changed) {
    const tableau = board["m.tableau"] || [];
    const row = el("div", { class: "tableau" + (changed.has("m.tableau") ? " changed" : ""), "data-key": "m.tableau",
      "data-count": tableau.length });
    if (!tableau.length) row.append(el("span", { class: "empty", text: "no cards yet" }));
    tableau.forEach(function (t, i) {
      const c = cardInfo("movement", t[0]);
      if (i > 0) {
        const left = cardInfo("movement", tableau[i - 1][0]);
        const match = aligned(left.right || [], c.left || []);
        row.append(el("div", { class: "link", title: match.length ? "facing edges match: " + match.join(", ") : "no matching Bonus" },
          match.length ? bonusBadges(match) : el("span", { class: "dash" })));
      }
      row.append(el("div", { class: "tcard" + (t[1] ? "" : " down"), title: cardTitle("movement", t[0]), "data-card": t[0],
        "data-face": t[1] ? "up" : "down" },
        el("div", { class: "title", text: c.name + " #" + t[0] }),
        el("div", { class: "edge" }, bonusBadges(c.left || [])),
        el("div", {}, "Infl. " + c.influence, el("br"), c.icons || "no icons"),
        el("div", { class: "edge" }, bonusBadges(c.right || [])),
        el("div", { class: "face", text: (t[1] ? "face up" : "flipped") + (c.passive ? " · passive: " + c.passive : "") })));
    });
    return row;
  }

  function drawMovement(board, prev, changed) {
    const host = clear(document.getElementById("movement"));
    const R = C.rules;
    host.append(el("h2", {}, el("span", { text: "Movement" })));
    host.append(el("div", { class: "stats" },
      stat("m.influence", "Influence", board["m.influence"], changed),
      stat("m.messaging", "Messaging", board["m.messaging"], changed),
      stat("m.agitation", "Agitation", board["m.agitation"], changed),
      stat("m.flight", "Flight", board["m.flight"] + (board["m.flight_spent"] ? " (+" + board["m.flight_spent"] + " spent)" : ""), changed),
      stat("m.points", "Goal points", board["m.points"] + "/" + R.goal_points_to_win, changed),
      stat("m.hand_limit", "Hand limit", board["m.hand_limit"], changed)));
    host.append(cardRow("Hand", "m.hand", "movement", board, prev, changed, false));
    host.append(el("h3", { text: "Tableau (" + (board["m.tableau"] || []).length + "/" + R.tableau_limit + "), left to right; Bonuses on the edges" }));
    host.append(drawTableau(board, changed));
    host.append(el("h3", { text: "Market" }));
    const spaces = indexed(board, "m.market.");
    const rows = [];
    spaces.forEach(function (s, i) {
      const r = C.market[i] ? C.market[i].row : 0;
      if (rows.indexOf(r) < 0) rows.push(r);
    });
    rows.forEach(function (r) {
      const grid = el("div", { class: "market" });
      spaces.forEach(function (s, i) {
        const data = C.market[i];
        if (!data || data.row !== r) return;
        const key = "m.market." + i;
        grid.append(el("div", { class: "slot" + (changed.has(key) ? " changed" : ""), "data-key": key },
          el("div", { class: "head" }, el("span", { text: "Space " + i + ": " + data.action.replace(/^./, function (a) { return a.toUpperCase(); }) }),
            el("span", { text: "cost " + (data.cost + s[1]) })),
          s[0] ? chip("movement", s[0]) : el("span", { class: "empty", text: "empty" }),
          s[1] ? el("div", { class: "lobbied", text: "+" + s[1] + " Profit lobbied" }) : null));
      });
      host.append(el("div", { class: "caption-line", text: "Row " + r }), grid);
    });
    host.append(el("h3", { text: "Goals (a lower row covers the two Goals above it)" }));
    const open = board["m.available"] || [];
    const pyramid = el("div", { class: "pyramid" });
    C.goal_rows.forEach(function (row) {
      const line = el("div", { class: "goal-row" });
      row.forEach(function (slot) {
        const key = "m.goal." + slot;
        const g = board[key] || [0, 0, 0];
        const hl = changed.has(key) ? " changed" : "";
        if (!g[0]) {
          line.append(el("div", { class: "goal achieved" + hl, "data-key": key, text: "place " + slot + ": achieved" }));
          return;
        }
        const info = cardInfo("goal", g[0]);
        const isOpen = open.indexOf(slot) >= 0;
        line.append(el("div", { class: "goal " + (isOpen ? "open" : "covered") + hl, "data-key": key, title: cardTitle("goal", g[0]),
          "data-agitation": g[2], "data-profit": g[1] },
          el("div", { class: "gname", text: "G" + g[0] + " " + info.name }),
          el("div", { text: "cost " + info.cost + " · " + info.points + " pt" + (isOpen ? " · open" : " · covered") }),
          el("div", { class: "bar", title: "Agitation " + g[2] + " of " + info.cost }, el("span", { style: "width:" + Math.min(100, 100 * g[2] / Math.max(1, info.cost)) + "%" })),
          el("div", { text: "Agitation " + g[2] + " · Profit " + g[1] }),
          info.effects ? el("div", { class: "caption-line", text: info.effects }) : null));
      });
      pyramid.append(line);
    });
    host.append(pyramid);
    host.append(cardRow("Achieved", "m.achieved", "goal", board, prev, changed, false));
    host.append(cardRow("Market deck", "m.deck", "movement", board, prev, changed, true));
    host.append(cardRow("Discard pile", "m.discard", "movement", board, prev, changed, true));
  }

  function drawSupply(board, changed) {
    const host = clear(document.getElementById("supply"));
    host.append(el("h2", { text: "Supplies (tokens left / piece limit)" }));
    host.append(el("div", { class: "stats" }, Object.keys(C.supply).map(function (k) {
      const key = "supply." + k;
      return el("span", { class: "stat" + (changed.has(key) ? " changed" : ""), "data-key": key, "data-value": board[key] },
        k + " ", el("b", { text: board[key] }), " / " + C.supply[k]);
    })));
  }

  function drawStatus(board, changed) {
    const host = clear(document.getElementById("status"));
    const actor = board.actor;
    const hl = function (key) { return changed.has(key) ? " changed" : ""; };
    host.append(el("span", { class: "pill" + hl("round"), "data-key": "round", text: board.round ? "Round " + board.round : "Set-Up" }));
    host.append(el("span", { class: "pill" + hl("phase"), "data-key": "phase", text: PHASES[board.phase] || board.phase }));
    if (actor !== "terminal") {
      host.append(el("span", { class: "pill " + actor + hl("actor"), "data-key": "actor", text: (SIDE_NAMES[actor] || actor) + " to act" }));
    }
    if (board.pending && board.pending.length) host.append(el("span", { class: "pill", title: board.pending.join("\n"), text: "next: " + pendingName(board.pending) }));
    if (board.outcome) {
      host.append(el("span", { class: "pill over" + hl("outcome"), "data-key": "outcome",
        text: outcomeText(board.outcome) + ": " + board.outcome.detail }));
    }
  }

  function drawStepInfo(i, shown, prev, changed) {
    const host = clear(document.getElementById("step-info"));
    const s = doc.steps[i];
    const box = el("div", { class: "box" },
      el("div", { class: "caption-line", text: "Step " + i + " of " + last + " · " + s[3] + " · " + (SIDE_NAMES[s[2]] || s[2]) }),
      el("div", { class: "words", id: "step-words", text: s[1] }),
      s[0] ? el("code", { class: "raw", text: s[0] }) : null);
    if (shown.at !== i) {
      box.append(el("p", { class: "note", text: "This step could not be replayed: the board shows step " + shown.at + "." }));
    } else if (i > 0 && prev) {
      const keys = Object.keys(shown.board).filter(function (k) { return changed.has(k); });
      Object.keys(prev).forEach(function (k) { if (changed.has(k) && !(k in shown.board)) keys.push(k); });
      box.append(el("h3", { text: keys.length ? "What this step changed (highlighted on the board)" : "This step changed nothing on the board" }));
      box.append(el("ul", { class: "diff" }, keys.map(function (k) { return changeItem(k, prev[k], shown.board[k]); })));
    }
    host.append(box);
  }

  /* --- navigation ------------------------------------------------------------------------------------ */

  function go(i) {
    current = Math.max(0, Math.min(last, i));
    const shown = boardAt(current);
    const prev = current > 0 ? boardAt(current - 1).board : null;
    const changed = shown.at === current ? changedKeys(current) : new Set();
    document.body.setAttribute("data-step", current);
    document.getElementById("position").textContent = "step " + current + " of " + last;
    document.getElementById("prev").disabled = current === 0;
    document.getElementById("next").disabled = current === last;
    drawStatus(shown.board, changed);
    drawStepInfo(current, shown, prev, changed);
    drawCompany(shown.board, prev, changed);
    drawMovement(shown.board, prev, changed);
    drawSupply(shown.board, changed);
    document.querySelectorAll("#steps li.step").forEach(function (li) {
      const on = +li.getAttribute("data-step") === current;
      li.classList.toggle("current", on);
      if (on) li.scrollIntoView({ block: "nearest" });
    });
    try { history.replaceState(null, "", "#step-" + current); } catch (e) { /* some browsers refuse on file: pages */ }
  }

  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("to-focus").addEventListener("click", function () { go(focus); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowRight: 1, j: 1, ArrowLeft: -1, k: -1 };
    if (e.key in moves) go(current + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last);
    else if (e.key === "f") go(focus);
    else return;
    e.preventDefault();
  });

  drawHeader();
  // On a phone the step list would fill the first screen: it starts folded, the board comes first.
  if (window.matchMedia && window.matchMedia("(max-width: 800px)").matches) document.getElementById("steps-box").open = false;
  const asked = /^#step-(\d+)$/.exec(location.hash);
  go(asked ? +asked[1] : doc.kind === "game" ? 0 : focus);
})();
