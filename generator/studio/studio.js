// pnp studio: the card list and the card editor. Served by pnp itself (no CDN, no framework).
"use strict";

function idDialog(title, suggestion, submit) {
  // asks for a card id; submit(id) resolves to an error message or nothing
  const dialog = document.getElementById("new-card");
  const input = dialog.querySelector("#new-id");
  const problem = dialog.querySelector(".dialog-error");
  dialog.querySelector("h2").textContent = title;
  input.value = suggestion;
  problem.textContent = "";
  dialog.showModal();
  input.select();
  dialog.onclose = null;
  dialog.querySelector("form").onsubmit = async (event) => {
    if (event.submitter && event.submitter.value === "cancel") return;
    event.preventDefault();
    if (!input.checkValidity()) { problem.textContent = "Lowercase letters, digits and '-' only."; return; }
    problem.textContent = "";
    const message = await submit(input.value.trim());
    if (message) problem.textContent = message; else dialog.close();
  };
}

async function freeId(stem) {
  const answer = await api("/api/free-id?stem=" + encodeURIComponent(stem));
  return answer.status === 200 ? answer.data.id : stem;
}

// --- the card list ----------------------------------------------------------------------------

function listPage() {
  const query = document.getElementById("q");
  const kind = document.getElementById("kind");
  const onlyFindings = document.getElementById("only-findings");
  const tiles = Array.from(document.querySelectorAll(".tile"));
  const shown = document.getElementById("shown");

  function filter() {
    const words = query.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    for (const tile of tiles) {
      const visible = (!kind.value || tile.dataset.kind === kind.value)
        && (!onlyFindings.checked || tile.classList.contains("has-findings"))
        && words.every((word) => tile.dataset.search.includes(word));
      tile.hidden = !visible;
      if (visible) count += 1;
    }
    shown.textContent = count === tiles.length ? "" : `${count} of ${tiles.length} cards shown`;
  }
  query.addEventListener("input", filter);
  kind.addEventListener("change", filter);
  onlyFindings.addEventListener("change", filter);

  function visibleLinks() {
    return tiles.filter((tile) => !tile.hidden).map((tile) => tile.querySelector("a"));
  }
  function columns(links) {
    if (links.length < 2) return 1;
    const top = links[0].getBoundingClientRect().top;
    const index = links.findIndex((link) => link.getBoundingClientRect().top > top + 2);
    return index < 0 ? links.length : index;
  }
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "/" && !typing(event.target)) {
      event.preventDefault();
      query.focus();
      return;
    }
    if (event.key === "n" && !typing(event.target) && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      newCard();
      return;
    }
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (!(event.key in moves) && event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    if (typing(event.target) && event.target !== query) return;
    const links = visibleLinks();
    if (!links.length) return;
    const at = links.indexOf(document.activeElement);
    const width = columns(links);
    let next;
    if (at < 0) next = 0;
    else if (event.key === "ArrowDown") next = Math.min(links.length - 1, at + width);
    else if (event.key === "ArrowUp") next = Math.max(0, at - width);
    else next = Math.min(links.length - 1, Math.max(0, at + moves[event.key]));
    if (event.target === query && event.key !== "ArrowDown") return;
    event.preventDefault();
    links[next].focus();
  });

  async function newCard() {
    const chosen = document.getElementById("new-kind").value;
    idDialog(`New ${chosen.replace(/_/g, " ")}`, await freeId(`new-${chosen}`), async (id) => {
      const answer = await api("/api/new", { kind: chosen, id });
      if (answer.status === 200) { window.location.href = answer.data.url; return ""; }
      return answer.data.message || "The card could not be added.";
    });
  }
  document.querySelector('[data-action="new"]').addEventListener("click", newCard);
  filter();
}

// --- the card editor ----------------------------------------------------------------------------

function cardPage() {
  const form = document.getElementById("card-form");
  const state = document.getElementById("save-state");
  const saveButton = document.querySelector('[data-action="save"]');
  const undoButton = document.querySelector('[data-action="undo"]');
  const busy = document.getElementById("busy");
  const localeSelect = document.getElementById("locale");
  const cardId = form.dataset.card;
  let original = {};  // the values as the page loaded them, read from the form below
  let version = form.dataset.version;
  let locale = document.body.dataset.locale;
  const history = [];
  let lastEdit = { field: null, time: 0 };

  // reading and writing the controls
  const ABSENT = undefined;

  function readControl(control, widget, required) {
    switch (widget) {
      case "fixed": return JSON.parse(control.dataset.value);
      case "text": case "textarea":
        return control.value === "" && !required ? ABSENT : control.value;
      case "number": {
        if (control.value.trim() === "") return ABSENT;
        const number = Number(control.value);
        return Number.isNaN(number) ? control.value : number;
      }
      case "checkbox":
        return control.checked ? true : ("absentUnchecked" in control.dataset ? ABSENT : false);
      case "choice": case "image": {
        const option = control.selectedOptions[0];
        if (!option) return ABSENT;
        const value = JSON.parse(option.dataset.value);
        return value === null ? ABSENT : value;
      }
      case "scalar": {
        const text = control.value.trim();
        if (text === "") return ABSENT;
        return /^-?\d+$/.test(text) && !("text" in control.dataset) ? parseInt(text, 10) : control.value;
      }
      case "yaml":
        return control.value.trim() === "" ? ABSENT : { $yaml: control.value };
      default: return ABSENT;
    }
  }

  function writeControl(control, widget, value) {
    const present = value !== ABSENT;
    switch (widget) {
      case "fixed": return;
      case "checkbox": control.checked = value === true; return;
      case "choice": case "image": {
        const wanted = JSON.stringify(present ? value : null);
        let found = Array.from(control.options).find((o) => o.dataset.value === wanted);
        if (!found && present) {
          found = new Option(typeof value === "string" ? value : JSON.stringify(value), String(control.options.length));
          found.dataset.value = wanted;
          control.add(found);
        }
        control.value = found ? found.value : "";
        if (widget === "image") showArt(control);
        return;
      }
      case "yaml": control.value = present ? flow(value) : ""; return;
      default: control.value = present ? String(value) : "";
    }
  }

  function flow(value) {
    if (value && typeof value === "object" && "$yaml" in value) return value.$yaml;
    if (Array.isArray(value)) return "[" + value.map(flow).join(", ") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(", ") + "}";
    }
    return String(value);
  }

  function fieldElements() {
    return Array.from(form.querySelectorAll(":scope > .field"));
  }

  function readField(field) {
    const name = field.dataset.field;
    const widget = field.dataset.widget;
    const required = "required" in field.dataset;
    if (widget === "list") {
      const set = field.querySelector("fieldset.list");
      const itemWidget = set.dataset.itemWidget;
      const rows = Array.from(set.querySelectorAll(":scope > .rows > .row"));
      if (!rows.length && !("present" in set.dataset) && !required) return ABSENT;
      return rows.map((row) => readControl(row.querySelector("[data-item]"), itemWidget, true))
        .filter((value) => value !== ABSENT);
    }
    if (widget === "group") {
      const set = field.querySelector("fieldset.group");
      const value = {};
      for (const control of set.querySelectorAll("[data-key]")) {
        const member = readControl(control, control.dataset.widget, false);
        if (member !== ABSENT) value[control.dataset.key] = member;
      }
      return Object.keys(value).length || "present" in set.dataset ? value : ABSENT;
    }
    return readControl(field.querySelector(`[name="${CSS.escape(name)}"]`), widget, required);
  }

  function values() {
    const result = {};
    for (const field of fieldElements()) {
      const value = readField(field);
      if (value !== ABSENT) result[field.dataset.field] = value;
    }
    return result;
  }

  function writeField(field, value) {
    const widget = field.dataset.widget;
    if (widget === "list") {
      const set = field.querySelector("fieldset.list");
      const rows = set.querySelector(".rows");
      rows.replaceChildren();
      if (value === ABSENT) delete set.dataset.present; else set.dataset.present = "";
      for (const item of value === ABSENT ? [] : value) addRow(set, item);
      return;
    }
    if (widget === "group") {
      const set = field.querySelector("fieldset.group");
      if (value === ABSENT) delete set.dataset.present; else set.dataset.present = "";
      for (const control of set.querySelectorAll("[data-key]")) {
        const member = value === ABSENT ? ABSENT : value[control.dataset.key];
        writeControl(control, control.dataset.widget, member);
      }
      return;
    }
    writeControl(field.querySelector(`[name="${CSS.escape(field.dataset.field)}"]`), widget, value);
  }

  function setValues(snapshot) {
    for (const field of fieldElements()) writeField(field, snapshot[field.dataset.field]);
  }

  // lists
  function addRow(set, value) {
    const template = set.querySelector(":scope > template");
    const row = template.content.firstElementChild.cloneNode(true);
    const control = row.querySelector("[data-item]");
    const suffix = Math.random().toString(36).slice(2, 8);
    control.id = `${set.id}-${suffix}`;
    if (value !== undefined) writeControl(control, set.dataset.itemWidget, value);
    set.querySelector(":scope > .rows").append(row);
    return control;
  }

  form.addEventListener("click", (event) => {
    const button = event.target.closest("[data-list-action], [data-clear]");
    if (!button) return;
    if (button.dataset.clear) {
      const field = form.querySelector(`.field[data-field="${CSS.escape(button.dataset.clear)}"]`);
      writeField(field, ABSENT);
      edited(field.dataset.field, true);
      return;
    }
    const set = button.closest("fieldset.list");
    const row = button.closest(".row");
    const action = button.dataset.listAction;
    if (action === "add") {
      set.dataset.present = "";
      const control = addRow(set);
      control.focus();
    } else if (action === "remove") {
      const next = row.nextElementSibling || row.previousElementSibling;
      row.remove();
      (next ? next.querySelector("[data-item]") : set.querySelector('[data-list-action="add"]')).focus();
    } else if (action === "up" && row.previousElementSibling) {
      row.previousElementSibling.before(row);
      button.focus();
    } else if (action === "down" && row.nextElementSibling) {
      row.nextElementSibling.after(row);
      button.focus();
    }
    edited(set.name, true);
  });

  function showArt(select) {
    const picture = select.closest(".image-choice").querySelector(".art");
    const option = select.selectedOptions[0];
    const value = option ? JSON.parse(option.dataset.value) : null;
    if (value) {
      picture.src = select.dataset.artBase + value.split("/").map(encodeURIComponent).join("/");
      picture.hidden = false;
    } else {
      picture.hidden = true;
    }
  }

  // change tracking, undo, save state
  let current = values();
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  function canonical(object) {
    const sorted = {};
    for (const key of Object.keys(object).sort()) sorted[key] = object[key];
    return sorted;
  }

  function changedFields(now) {
    const names = new Set([...Object.keys(now), ...Object.keys(original)]);
    return Array.from(names).filter((name) => !same(now[name], original[name]));
  }

  const say = (kind, text) => showState(state, kind, text);

  function refreshDirty() {
    const changed = changedFields(current);
    for (const field of fieldElements()) {
      field.classList.toggle("changed", changed.includes(field.dataset.field));
    }
    saveButton.disabled = !changed.length;
    undoButton.disabled = !history.length;
    if (changed.length) {
      say("dirty", `Unsaved: ${changed.length} field${changed.length === 1 ? "" : "s"}`);
    } else if (state.dataset.state === "dirty") {
      say("clean", "No changes");
    }
    return changed;
  }

  function edited(fieldName, force) {
    const now = values();
    if (same(canonical(now), canonical(current)) && !force) return;
    const time = performance.now();
    const coalesce = fieldName === lastEdit.field && time - lastEdit.time < 900;
    if (!coalesce) history.push(current);
    if (history.length > 200) history.shift();
    lastEdit = { field: fieldName, time };
    current = now;
    refreshDirty();
    preview();
  }

  function undo() {
    if (!history.length) return;
    const previous = history.pop();
    setValues(previous);
    current = values();
    lastEdit = { field: null, time: 0 };
    refreshDirty();
    preview();
  }

  form.addEventListener("input", (event) => {
    const field = event.target.closest(".field");
    if (event.target.matches('select[data-widget="image"]')) showArt(event.target);
    if (field) edited(field.dataset.field);
  });
  form.addEventListener("change", (event) => {
    const field = event.target.closest(".field");
    if (field) edited(field.dataset.field);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  window.addEventListener("beforeunload", (event) => {
    if (changedFields(current).length) { event.preventDefault(); event.returnValue = ""; }
  });

  // the live card: one request at a time, the newest values next
  let serial = 0;
  let inFlight = false;
  let pending = false;

  async function preview() {
    if (inFlight) { pending = true; return; }
    inFlight = true;
    pending = false;
    busy.hidden = false;
    const mine = ++serial;
    const started = performance.now();
    try {
      const answer = await api(`/api/card/${encodeURIComponent(cardId)}/preview`,
        { values: current, locale, serial: mine });
      if (answer.status === 200 && !pending) show(answer.data, started);
      else if (answer.status !== 200) say("error", `Not drawn: ${answer.data.message || answer.status}`);
    } catch (error) {
      say("error", "The studio does not answer (was pnp studio stopped?)");
    } finally {
      inFlight = false;
      if (pending) preview(); else busy.hidden = true;
    }
  }

  function show(data, started) {
    const faces = document.getElementById("faces");
    // a card that fails its schema is not drawn: its last picture stays, marked as old
    faces.classList.toggle("stale", data.faces.length === 0);
    for (const face of data.faces) {
      let picture = faces.querySelector(`img[data-face="${face.side}"]`);
      if (!picture) picture = newFace(faces, face);
      if (picture.getAttribute("src") !== face.url) {
        picture.dataset.requested = String(started);
        picture.src = face.url;
      }
    }
    showFindings(data.findings);
  }

  function newFace(faces, face) {
    // a card that could not be drawn when the page was made gets its pictures now
    const none = faces.querySelector(".undrawn");
    if (none) none.remove();
    const figure = document.createElement("figure");
    figure.className = "face";
    figure.dataset.side = face.side;
    const frame = document.createElement("div");
    frame.className = "pic";
    const picture = document.createElement("img");
    picture.dataset.face = face.side;
    picture.width = face.width;
    picture.height = face.height;
    picture.alt = `${document.getElementById("card-title").textContent}, ${face.side}`;
    const caption = document.createElement("figcaption");
    caption.textContent = face.side;
    frame.append(picture);
    figure.append(frame, caption);
    faces.append(figure);
    return picture;
  }

  function showFindings(findings) {
    const list = document.getElementById("findings");
    list.replaceChildren();
    for (const field of fieldElements()) {
      field.classList.remove("flagged");
      field.querySelector(".field-findings").replaceChildren();
      const control = field.querySelector("[name]");
      if (control) control.removeAttribute("aria-invalid");
    }
    for (const finding of findings) {
      const item = document.createElement("li");
      item.className = `finding ${finding.severity}`;
      item.dataset.code = finding.code;
      item.dataset.severity = finding.severity;
      const sev = document.createElement("span");
      sev.className = "sev";
      sev.textContent = finding.severity;
      const code = document.createElement("code");
      code.textContent = finding.code;
      item.append(sev, " ", code, " ");
      if (finding.locale) {
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = finding.locale;
        item.append(tag, " ");
      }
      if (finding.field) {
        item.dataset.field = finding.field;
        const link = document.createElement("button");
        link.type = "button";
        link.className = "to-field";
        link.dataset.field = finding.field;
        link.textContent = finding.field;
        item.append(link, " ");
        const field = form.querySelector(`.field[data-field="${CSS.escape(finding.field)}"]`);
        if (field) {
          if (finding.severity === "error") field.classList.add("flagged");
          const note = document.createElement("li");
          note.className = finding.severity;
          note.textContent = finding.message;
          field.querySelector(".field-findings").append(note);
          const control = field.querySelector("[name]");
          if (control && finding.severity === "error") control.setAttribute("aria-invalid", "true");
        }
      }
      const message = escapeText(finding.message);
      message.className = "msg";
      const where = escapeText(finding.where);
      where.className = "where";
      item.append(message, " ", where);
      list.append(item);
    }
    document.getElementById("finding-count").textContent = String(findings.length);
    document.getElementById("no-findings").hidden = findings.length > 0;
  }

  document.getElementById("findings").addEventListener("click", (event) => {
    const button = event.target.closest(".to-field");
    if (!button) return;
    const field = form.querySelector(`.field[data-field="${CSS.escape(button.dataset.field)}"]`);
    const control = field && field.querySelector("input:not([readonly]), select, textarea, button");
    if (control) { control.focus(); field.scrollIntoView({ block: "center", behavior: "smooth" }); }
  });

  if (localeSelect) {
    localeSelect.addEventListener("change", () => {
      locale = localeSelect.value;
      document.body.dataset.locale = locale;
      const url = new URL(window.location.href);
      url.searchParams.set("locale", locale);
      window.history.replaceState(null, "", url);
      preview();
    });
  }

  // saving
  async function save(force) {
    const changed = changedFields(current);
    if (!changed.length) return;
    say("saving", "Saving…");
    saveButton.disabled = true;
    const sent = current;
    const answer = await api(`/api/card/${encodeURIComponent(cardId)}/save`,
      { values: sent, original, version, force: force === true });
    if (answer.status === 200) {
      original = sent;
      version = answer.data.version;
      const time = new Date().toLocaleTimeString();
      say("saved", answer.data.status === "unchanged" ? "No changes" :
        (answer.data.merged ? `Saved ${time} (merged with changes on disk)` : `Saved ${time}`));
      refreshDirty();
      if (!changedFields(current).length) say("saved", state.textContent);
    } else if (answer.status === 409) {
      say("conflict", "Not saved: the file changed on disk");
      conflict(answer.data);
    } else {
      const findings = (answer.data.findings || []).map((f) => `${f.where}: ${f.message}`);
      say("error", [answer.data.message || "Not saved"].concat(findings).join(" — "));
      saveButton.disabled = false;
    }
  }

  function conflict(data) {
    const dialog = document.getElementById("conflict");
    dialog.querySelector(".conflict-text").textContent = data.message;
    const body = dialog.querySelector("tbody");
    body.replaceChildren();
    for (const row of data.conflicts) {
      const line = document.createElement("tr");
      for (const cell of [row.field, row.disk_absent ? "(left out)" : flow(row.disk),
        row.mine_absent ? "(left out)" : flow(row.mine)]) {
        const td = document.createElement("td");
        td.textContent = cell;
        line.append(td);
      }
      body.append(line);
    }
    dialog.onclose = () => {
      if (dialog.returnValue === "mine") {
        version = data.version;
        save(true);
      } else if (dialog.returnValue === "reload") {
        original = current;  // nothing left to lose: the reader chose the disk
        window.location.reload();
      } else {
        saveButton.disabled = false;
      }
    };
    dialog.showModal();
  }

  saveButton.addEventListener("click", () => save(false));
  undoButton.addEventListener("click", undo);

  // new cards and copies
  document.querySelector('[data-action="duplicate"]').addEventListener("click", async () => {
    idDialog("Duplicate this card", await freeId(`${cardId}-copy`), async (id) => {
      const answer = await api(`/api/card/${encodeURIComponent(cardId)}/duplicate`,
        { id, values: current, original });
      if (answer.status === 200) {
        original = current;  // the edits live on in the copy
        window.location.href = answer.data.url;
        return "";
      }
      return answer.data.message || "The copy could not be added.";
    });
  });
  document.querySelector('[data-action="new"]').addEventListener("click", async () => {
    if (changedFields(current).length) {
      say("dirty", "Save or undo your changes before adding a card");
      return;
    }
    const kind = form.dataset.kind;
    idDialog(`New ${kind.replace(/_/g, " ")}`, await freeId(`new-${kind}`), async (id) => {
      const answer = await api("/api/new", { kind, id, near: cardId });
      if (answer.status === 200) { window.location.href = answer.data.url; return ""; }
      return answer.data.message || "The card could not be added.";
    });
  });

  // keyboard
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    const command = event.ctrlKey || event.metaKey;
    if (command && event.key.toLowerCase() === "s") {
      event.preventDefault();
      save(false);
    } else if (command && event.key.toLowerCase() === "z" && !event.shiftKey
               && !(typing(event.target) && event.target.matches("input[type=text], textarea"))) {
      event.preventDefault();
      undo();
    } else if (event.altKey && (event.key === "PageUp" || event.key === "PageDown")) {
      const link = document.querySelector(event.key === "PageUp" ? 'a[rel="prev"]' : 'a[rel="next"]');
      if (link) { event.preventDefault(); link.click(); }
    } else if (event.key === "Escape" && !typing(event.target)) {
      window.location.href = "/";
    }
  });

  for (const select of form.querySelectorAll('select[data-widget="image"]')) showArt(select);
  current = values();
  original = JSON.parse(JSON.stringify(current));
  refreshDirty();
}

if (document.body.dataset.page === "list") listPage();
if (document.body.dataset.page === "card") cardPage();
