"use strict";
(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));
  const body = document.body;
  const search = $("#q"), kind = $("#kind"), sides = $("#sides"), only = $("#only-findings");
  const size = $("#size"), shown = $("#shown"), zoom = $("#zoom");
  const localeBoxes = $$('input[name="locale"]');
  const cards = $$("article.card");
  const stateKey = "pnp-proof:" + document.title;

  function visibleLocales() {
    if (!localeBoxes.length) return null;
    return new Set(localeBoxes.filter((box) => box.checked).map((box) => box.value));
  }

  function apply() {
    const query = search.value.trim().toLowerCase();
    const locales = visibleLocales();
    const showLocale = (el) => !locales || !el.dataset.locale || locales.has(el.dataset.locale);
    body.dataset.sides = sides.value;
    document.documentElement.style.setProperty("--face-w", size.value + "px");
    let count = 0;
    for (const card of cards) {
      $$(".version, .finding", card).forEach((el) => { el.hidden = !showLocale(el); });
      const findings = $$(".finding", card).filter((el) => !el.hidden).length;
      const show = (!kind.value || card.dataset.kind === kind.value)
        && (!query || card.dataset.search.includes(query))
        && (!only.checked || findings > 0);
      card.hidden = !show;
      if (show) count += 1;
    }
    $$("section.kind").forEach((section) => {
      section.hidden = !$$("article.card", section).some((card) => !card.hidden);
    });
    $$(".pack-findings .finding").forEach((el) => { el.hidden = !showLocale(el); });
    shown.textContent = count + " of " + cards.length + " cards shown";
    save();
  }

  function save() {
    try {
      sessionStorage.setItem(stateKey, JSON.stringify({
        q: search.value, kind: kind.value, sides: sides.value, only: only.checked,
        size: size.value, locales: localeBoxes.filter((b) => !b.checked).map((b) => b.value),
        y: window.scrollY,
      }));
    } catch (e) { /* storage may be off (private mode, some file:// setups): filters still work */ }
  }

  function restore() {
    let state = null;
    try { state = JSON.parse(sessionStorage.getItem(stateKey) || "null"); } catch (e) { state = null; }
    if (!state) return null;
    search.value = state.q || "";
    if ($$("option", kind).some((o) => o.value === state.kind)) kind.value = state.kind;
    if (["both", "front", "back"].includes(state.sides)) sides.value = state.sides;
    only.checked = !!state.only;
    if (state.size) size.value = state.size;
    const hiddenLocales = new Set(state.locales || []);
    localeBoxes.forEach((box) => { box.checked = !hiddenLocales.has(box.value); });
    return state;
  }

  const state = restore();
  apply();
  if (state && state.y) window.scrollTo(0, state.y);
  [search, kind, sides, only, size, ...localeBoxes].forEach((el) => el.addEventListener("input", apply));
  window.addEventListener("pagehide", save);

  // keyboard: "/" to search, arrows between cards, Enter or a click on a picture to enlarge
  function visibleCards() { return cards.filter((card) => !card.hidden); }
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target.matches && target.matches("input, select, textarea");
    if (event.key === "/" && !typing && !zoom.open) {
      event.preventDefault();
      search.focus();
      search.select();
      return;
    }
    if (target === search && event.key === "Escape" && search.value) {
      search.value = "";
      apply();
      return;
    }
    if (!target.matches || !target.matches("article.card") || zoom.open) return;
    const list = visibleCards();
    const index = list.indexOf(target);
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -index, End: list.length - 1 - index };
    if (event.key in moves) {
      event.preventDefault();
      const next = list[Math.max(0, Math.min(list.length - 1, index + moves[event.key]))];
      if (next) next.focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      enlarge(target);
    }
  });
  document.addEventListener("click", (event) => {
    const pic = event.target.closest && event.target.closest("article.card .pic");
    if (pic) enlarge(pic.closest("article.card"));
  });

  let lastCard = null;
  function enlarge(card) {
    const versions = $(".versions", card);
    if (!versions || typeof zoom.showModal !== "function") return;
    const holder = $(".zoom-body", zoom);
    holder.replaceChildren($(".card-head", card).cloneNode(true), versions.cloneNode(true));
    const columns = $$(".version", holder).filter((v) => !v.hidden).length || 1;
    const facesPerRow = columns * (sides.value === "both" ? 2 : 1);
    const width = Math.min(480, (window.innerWidth * 0.9 - 40 * facesPerRow) / facesPerRow,
      (window.innerHeight - 170) * 0.7);
    $(".versions", holder).style.setProperty("--face-w", Math.max(120, Math.floor(width)) + "px");
    lastCard = card;
    zoom.showModal();
  }
  zoom.addEventListener("close", () => { if (lastCard) lastCard.focus(); });
  zoom.addEventListener("click", (event) => { if (event.target === zoom) zoom.close(); });

  // served by `pnp watch`: reload when a rebuild changed the page (never from file://)
  if (body.hasAttribute("data-live") && window.EventSource && location.protocol.startsWith("http")) {
    const live = $("#live");
    const events = new EventSource("/__pnp/events");
    events.addEventListener("version", (event) => {
      live.className = "live";
      live.textContent = "live";
      if (event.data !== body.dataset.version) {
        save();
        location.reload();
      }
    });
    events.addEventListener("building", () => {
      live.className = "live busy";
      live.textContent = "rebuilding\u2026";
    });
    events.onerror = () => {
      live.className = "live lost";
      live.textContent = "pnp watch stopped; reconnecting\u2026";
    };
  }
})();
