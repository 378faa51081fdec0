// pnp studio: what every page of the studio shares (loaded before the page's own script).
"use strict";

const TOKEN = document.querySelector('meta[name="pnp-token"]').content;

async function api(path, body) {
  const options = body === undefined
    ? { headers: { "X-Pnp-Token": TOKEN } }
    : { method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", "X-Pnp-Token": TOKEN } };
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (error) { data = { message: response.statusText }; }
  return { status: response.status, data };
}

function typing(target) {
  return target && (target.matches("input, textarea, select") || target.isContentEditable);
}

function escapeText(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span;
}

function showState(place, kind, text) {
  // the save state: clean, dirty, saving, saved, error or conflict, in words
  place.dataset.state = kind;
  place.textContent = text;
}

function keysDialog() {
  const dialog = document.getElementById("keys");
  if (dialog && !dialog.open) dialog.showModal();
}

document.addEventListener("click", (event) => {
  if (event.target.closest('[data-action="keys"]')) keysDialog();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "?" && !typing(event.target) && !document.querySelector("dialog[open]")) {
    event.preventDefault();
    keysDialog();
  }
});
