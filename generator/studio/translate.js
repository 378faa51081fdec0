// pnp studio: the translator's view. Each keystroke asks the studio whether the text fits the
// faces it prints on and how it fares in the checks; saving writes the PO file(s). common.js
// comes first.
"use strict";

(function translatePage() {
  const main = document.getElementById("main");
  const locale = main.dataset.locale;
  let versions = JSON.parse(main.dataset.versions);
  const entries = Array.from(document.querySelectorAll(".entry"));
  const state = document.getElementById("save-state");
  const saveButton = document.querySelector('[data-action="save"]');
  const undoButton = document.querySelector('[data-action="undo"]');
  const query = document.getElementById("q");
  const show = document.getElementById("show");
  const shown = document.getElementById("shown");
  const loaded = new Map();  // key -> {text, fuzzy} as the page loaded them
  const history = [];
  let lastEdit = { key: null, time: 0 };

  function read(entry) {
    return { text: entry.querySelector("textarea").value,
             fuzzy: entry.querySelector("[data-fuzzy]").checked };
  }
  for (const entry of entries) loaded.set(entry.dataset.key, read(entry));

  function edited() {
    return entries.filter((entry) => {
      const now = read(entry);
      const was = loaded.get(entry.dataset.key);
      return now.text !== was.text || now.fuzzy !== was.fuzzy;
    });
  }

  const say = (kind, text) => showState(state, kind, text);

  function refresh() {
    const changed = edited();
    for (const entry of entries) entry.classList.toggle("edited", changed.includes(entry));
    saveButton.disabled = !changed.length;
    undoButton.disabled = !history.length;
    if (changed.length) {
      say("dirty", `Unsaved: ${changed.length} translation${changed.length === 1 ? "" : "s"}`);
    } else if (state.dataset.state === "dirty") {
      say("clean", "No changes");
    }
    counts();
  }

  function entryState(entry) {
    const now = read(entry);
    entry.dataset.state = now.fuzzy ? "fuzzy" : (now.text ? "done" : "missing");
  }

  function counts() {
    const tally = { translated: 0, fuzzy: 0, missing: 0 };
    for (const entry of entries) {
      tally[{ done: "translated", fuzzy: "fuzzy", missing: "missing" }[entry.dataset.state]] += 1;
    }
    for (const [name, value] of Object.entries(tally)) {
      const place = document.querySelector(`[data-count="${name}"]`);
      if (place) place.textContent = `${value} ${name}`;
    }
  }

  function remember(entry) {
    const key = entry.dataset.key;
    const time = performance.now();
    if (!(key === lastEdit.key && time - lastEdit.time < 900)) {
      history.push({ key, before: entry.dataset.before ? JSON.parse(entry.dataset.before) : loaded.get(key) });
      if (history.length > 300) history.shift();
    }
    lastEdit = { key, time };
    entry.dataset.before = JSON.stringify(read(entry));
  }

  function undo() {
    const step = history.pop();
    if (!step) return;
    const entry = entries.find((e) => e.dataset.key === step.key);
    entry.querySelector("textarea").value = step.before.text;
    entry.querySelector("[data-fuzzy]").checked = step.before.fuzzy;
    entry.dataset.before = JSON.stringify(step.before);
    lastEdit = { key: null, time: 0 };
    entryState(entry);
    refresh();
    check(entry);
    entry.querySelector("textarea").focus();
  }

  // checks: one request at a time, the newest text next
  let inFlight = false;
  const waiting = new Map();
  let serial = 0;

  function check(entry) {
    waiting.set(entry.dataset.key, entry);
    if (!inFlight) next();
  }

  async function next() {
    const first = waiting.entries().next();
    if (first.done) return;
    const [key, entry] = first.value;
    waiting.delete(key);
    inFlight = true;
    const text = entry.querySelector("textarea").value;
    try {
      const answer = await api(`/api/translate/${encodeURIComponent(locale)}/check`,
        { key, text, serial: ++serial });
      if (answer.status === 200 && !waiting.has(key)) verdicts(entry, answer.data);
    } catch (error) {
      say("error", "The studio does not answer (was pnp studio stopped?)");
    } finally {
      inFlight = false;
      next();
    }
  }

  function verdicts(entry, data) {
    for (const fit of data.fits) {
      const item = entry.querySelector(`.fits li[data-face="${CSS.escape(fit.face)}"]`);
      if (!item) continue;
      item.dataset.fit = fit.fit;
      item.dataset.over = String(fit.over);
      item.querySelector("span").textContent = fit.fit === "over" ? `+${fit.over.toFixed(1)} mm` : "fits";
    }
    const list = entry.querySelector(".checks");
    list.replaceChildren();
    for (const finding of data.checks) {
      const item = document.createElement("li");
      item.className = `finding ${finding.severity}`;
      item.dataset.code = finding.code;
      item.dataset.severity = finding.severity;
      const code = document.createElement("code");
      code.textContent = finding.code;
      const message = document.createElement("span");
      message.className = "msg";
      message.textContent = finding.message;
      item.append(code, " ", message);
      list.append(item);
    }
    for (const hint of entry.querySelectorAll(".glossary li[data-term]")) {
      const missed = data.checks.some((c) => c.code === "glossary-term"
        && c.message.includes(`'${hint.dataset.term}'`));
      hint.className = missed ? "missed" : "met";
    }
    const problem = data.fits.some((f) => f.fit === "over") || data.checks.length > 0;
    if (problem) entry.dataset.problem = ""; else delete entry.dataset.problem;
    entry.dataset.checked = String(data.serial);
  }

  main.addEventListener("input", (event) => {
    const entry = event.target.closest(".entry");
    if (!entry) return;
    remember(entry);
    entryState(entry);
    refresh();
    if (event.target.matches("textarea")) check(entry);
  });
  main.addEventListener("focusin", (event) => {
    const entry = event.target.closest(".entry");
    if (entry && !entry.dataset.before) entry.dataset.before = JSON.stringify(read(entry));
  });

  // filters
  function filter() {
    const words = query.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    for (const entry of entries) {
      const text = entry.dataset.search + " " + entry.querySelector("textarea").value.toLowerCase();
      const wanted = show.value === "" || (show.value === "problem" ? "problem" in entry.dataset
        : entry.dataset.state === show.value);
      entry.hidden = !(wanted && words.every((word) => text.includes(word)));
      if (!entry.hidden) count += 1;
    }
    shown.textContent = count === entries.length ? "" : `${count} of ${entries.length} texts shown`;
  }
  query.addEventListener("input", filter);
  show.addEventListener("change", filter);

  // saving
  async function save(force) {
    const changed = edited();
    if (!changed.length) return;
    say("saving", "Saving…");
    saveButton.disabled = true;
    const edits = changed.map((entry) => {
      const now = read(entry);
      const was = loaded.get(entry.dataset.key);
      return { key: entry.dataset.key, text: now.text, fuzzy: now.fuzzy,
               was_text: was.text, was_fuzzy: was.fuzzy };
    });
    const answer = await api(`/api/translate/${encodeURIComponent(locale)}/save`,
      { edits, versions, force: force === true });
    if (answer.status === 200) {
      for (const entry of changed) loaded.set(entry.dataset.key, read(entry));
      versions = answer.data.versions || versions;
      say("saved", `Saved ${new Date().toLocaleTimeString()}`);
      refresh();
      if (!edited().length) say("saved", state.textContent);
    } else if (answer.status === 409) {
      say("conflict", "Not saved: the catalog changed on disk");
      const lines = answer.data.conflicts.map((c) => `${c.msgctxt}: on disk "${c.disk}", yours "${c.mine}"`);
      conflictDialog(answer.data.message, lines);
    } else {
      const findings = (answer.data.findings || []).map((f) => `${f.where}: ${f.message}`);
      say("error", [answer.data.message || "Not saved"].concat(findings).join(" — "));
      saveButton.disabled = false;
    }
  }

  function conflictDialog(message, lines) {
    let dialog = document.getElementById("conflict");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.id = "conflict";
      const form = document.createElement("form");
      form.method = "dialog";
      const title = document.createElement("h2");
      title.textContent = "The catalog changed on disk";
      const text = document.createElement("p");
      text.className = "conflict-text";
      const list = document.createElement("ul");
      const buttons = document.createElement("div");
      buttons.className = "buttons";
      const reload = document.createElement("button");
      reload.value = "reload";
      reload.textContent = "Reload from disk (drop my changes)";
      const mine = document.createElement("button");
      mine.value = "mine";
      mine.className = "primary";
      mine.textContent = "Keep my translations";
      buttons.append(reload, mine);
      form.append(title, text, list, buttons);
      dialog.append(form);
      document.body.append(dialog);
    }
    dialog.querySelector(".conflict-text").textContent = message;
    const list = dialog.querySelector("ul");
    list.replaceChildren(...lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }));
    dialog.onclose = () => {
      if (dialog.returnValue === "mine") save(true);
      else if (dialog.returnValue === "reload") {
        for (const entry of entries) loaded.set(entry.dataset.key, read(entry));
        window.location.reload();
      } else saveButton.disabled = false;
    };
    dialog.showModal();
  }

  saveButton.addEventListener("click", () => save(false));
  undoButton.addEventListener("click", undo);
  window.addEventListener("beforeunload", (event) => {
    if (edited().length) { event.preventDefault(); event.returnValue = ""; }
  });

  // keyboard
  function visibleAreas() {
    return entries.filter((entry) => !entry.hidden).map((entry) => entry.querySelector("textarea"));
  }
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    const command = event.ctrlKey || event.metaKey;
    if (command && event.key === "Enter") {
      const areas = visibleAreas();
      const at = areas.indexOf(document.activeElement);
      const target = areas[event.shiftKey ? Math.max(0, at - 1) : Math.min(areas.length - 1, at + 1)];
      if (target) {
        event.preventDefault();
        target.focus();
        target.closest(".entry").scrollIntoView({ block: "center" });
      }
    } else if (command && event.key.toLowerCase() === "u") {
      const entry = document.activeElement && document.activeElement.closest(".entry");
      if (entry) {
        event.preventDefault();
        const box = entry.querySelector("[data-fuzzy]");
        remember(entry);
        box.checked = !box.checked;
        entry.dataset.before = JSON.stringify(read(entry));
        entryState(entry);
        refresh();
      }
    } else if (command && event.key.toLowerCase() === "s") {
      event.preventDefault();
      save(false);
    } else if (command && event.key.toLowerCase() === "z" && !typing(event.target)) {
      event.preventDefault();
      undo();
    } else if (event.key === "/" && !typing(event.target)) {
      event.preventDefault();
      query.focus();
    }
  });
  filter();
})();
