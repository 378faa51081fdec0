"""The studio's routes: pages, their assets, the pictures, and the JSON API the pages call.

No URL names a file: a card is found by its id in the pack's cards, a picture by its name in
the studio's memory, a pack's picture by its path in the pack's own file listing (and only a
picture), an asset by its name in a fixed list of package files.

``pnp studio`` (:func:`run_studio`) opens the pack, then serves until Ctrl-C.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from http import HTTPStatus
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from generator.core.findings import Finding, Severity
from generator.core.limits import MAX_DEPTH, MAX_INTEGER, MAX_STRING_CHARS
from generator.core.location import display_path
from generator.layout.faces import lay_out_cards
from generator.load.packfiles import PackFolder
from generator.load.parsecache import load_yaml_text
from generator.model.template import TemplateError
from generator.pipeline.localecheck import MessageChecks
from generator.proof.collect import BLEED_MM
from generator.runtime.localserver import HOST, Refused, serving, wait_for_interrupt
from generator.schema.check import load_schema
from generator.studio import pages, saving, translate
from generator.studio.live import Drawn, Face, Pictures, draw_card, faces_of
from generator.studio.schemaform import FieldSpec, FormSpec, form_spec
from generator.studio.server import (
    Request,
    Response,
    StudioServer,
    json_response,
    text_response,
)
from generator.studio.session import CardSource, Loaded, Session

ASSETS = {"studio.css": "text/css; charset=utf-8",
          "common.js": "text/javascript; charset=utf-8",
          "studio.js": "text/javascript; charset=utf-8",
          "translate.js": "text/javascript; charset=utf-8"}
PICTURE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
                 ".webp": "image/webp", ".svg": "image/svg+xml"}
#: an SVG of a pack, opened by itself, runs no script and reaches nothing
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
#: entries of one list (or mapping) a page may send: far more than any card field holds
_MAX_ENTRIES = 10_000


@cache
def asset(name: str) -> bytes:
    return files("generator.studio").joinpath(name).read_bytes()


class Studio:
    """The routes over one session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.pictures = Pictures()
        self.token = ""
        self._overview: tuple[int, dict[str, Face], list[Finding]] | None = None
        self._fitting: dict[tuple[int, str], translate.Fitting] = {}

    # --- shared ------------------------------------------------------------------------------

    def title(self, loaded: Loaded) -> str:
        if loaded.card_set is None:
            return self.session.pack.name
        return loaded.card_set.base.manifest.name

    def form(self, loaded: Loaded, kind: str) -> FormSpec | None:
        game = loaded.game
        if game is None or kind not in game.kinds:
            return None
        card_kind = game.kinds[kind]
        schema = card_kind.schema_data if card_kind.schema_data is not None else load_schema(
            game.schema_package, card_kind.schema)
        return form_spec(kind, schema)

    def overview(self, loaded: Loaded) -> tuple[dict[str, Face], list[Finding]]:
        """Every card's front (the list's thumbnails, drawn when the browser asks) and what
        laying the cards out found, in the source language."""
        generation = self.session.generation
        if self._overview is not None and self._overview[0] == generation:
            return self._overview[1], self._overview[2]
        fronts: dict[str, Face] = {}
        findings: list[Finding] = []
        if loaded.card_set is not None and loaded.game is not None \
                and loaded.game.faces is not None:
            localizer = self.session.localizer(loaded.card_set.base.manifest.source_locale)
            try:
                laid = lay_out_cards(loaded.card_set, loaded.game, localizer, BLEED_MM)
            except TemplateError:
                laid = None
            if laid is not None:
                findings = laid.findings
                for card in loaded.card_set.cards:
                    key = laid.fronts.get(card.id)
                    if key is not None and key in laid.layouts:
                        fronts[card.id] = faces_of([("front", laid.layouts[key])],
                                                   self.pictures)[0]
        self._overview = (generation, fronts, findings)
        return fronts, findings

    def fitting(self, loaded: Loaded, locale: str) -> translate.Fitting:
        key = (self.session.generation, locale)
        if key not in self._fitting:
            self._fitting = {key: translate.Fitting(self.session, loaded, locale)}
        return self._fitting[key]

    # --- routing -----------------------------------------------------------------------------

    def route(self, request: Request) -> Response:
        path = request.path
        if request.method in ("GET", "HEAD"):
            if path == "/":
                return self.list_page()
            if path.startswith("/card/"):
                query = parse_qs(request.query)
                return self.card_page(unquote(path[6:]), (query.get("locale") or [None])[0])
            if path.startswith("/translate/"):
                return self.translate_page(unquote(path[11:]))
            if path.startswith("/static/"):
                return self.static(path[8:])
            if path.startswith("/pictures/"):
                return self.picture(path[10:])
            if path.startswith("/pack-file/"):
                return self.pack_file(unquote(path[11:]))
            if path == "/api/free-id":
                return self.free_id(parse_qs(request.query))
            if path == "/favicon.ico":
                return Response(204, "image/x-icon", b"", "max-age=86400")
            return self.not_found("no such page")
        if request.method == "POST":
            body = request.body if isinstance(request.body, dict) else {}
            parts = path.split("/")
            if len(parts) == 5 and parts[:3] == ["", "api", "card"]:
                card_id, action = unquote(parts[3]), parts[4]
                actions: dict[str, Callable[[str, dict[str, Any]], Response]] = {
                    "preview": self.preview, "save": self.save, "duplicate": self.duplicate}
                if action in actions:
                    return actions[action](card_id, body)
            if path == "/api/new":
                return self.new_card(body)
            if len(parts) == 5 and parts[:3] == ["", "api", "translate"]:
                locale, action = unquote(parts[3]), parts[4]
                if action == "check":
                    return self.check_translation(locale, body)
                if action == "save":
                    return self.save_translations(locale, body)
        raise Refused(HTTPStatus.NOT_FOUND, "no such request")

    def not_found(self, message: str) -> Response:
        html = pages.message_page(self.session.pack.name, message, self.token)
        return Response(404, "text/html; charset=utf-8", html.encode("utf-8"))

    def static(self, name: str) -> Response:
        if name not in ASSETS:
            return text_response("no such file", 404)
        return Response(200, ASSETS[name], asset(name), "no-cache")

    def picture(self, name: str) -> Response:
        with self.session.lock:
            data = self.pictures.png(name)
        if data is None:
            return text_response("no such picture (the studio draws it again when the page "
                                 "is reloaded)", 404)
        return Response(200, "image/png", data, "max-age=31536000, immutable")

    def pack_file(self, rest: str) -> Response:
        """A picture of a pack (its ``format: image`` choices), by the pack's id and its path
        in the pack's file listing: only listed files, only pictures."""
        pack_id, _, relative = rest.partition("/")
        loaded = self.session.current()
        if loaded.card_set is None:
            return text_response("no pack", 404)
        pack = next((p for p in loaded.card_set.packs if p.manifest.pack == pack_id), None)
        if pack is None:
            return text_response("no such pack", 404)
        folder = PackFolder(pack.root)
        file = next((f for f in folder.files().files if str(f.relative) == relative), None)
        if file is None or file.suffix not in PICTURE_TYPES:
            return text_response("no such picture in the pack", 404)
        data, _ = folder.read_bytes(file, "image")
        if data is None:
            return text_response("the picture cannot be read", 404)
        headers = {"Content-Security-Policy": SVG_POLICY} if file.suffix == ".svg" else {}
        return Response(200, PICTURE_TYPES[file.suffix], data, "no-cache", headers)

    # --- pages -------------------------------------------------------------------------------

    def list_page(self) -> Response:
        with self.session.lock:
            loaded = self.session.current()
            fronts, laid = self.overview(loaded)
        findings = loaded.findings + laid
        listed = []
        for source in loaded.sources.values():
            own = [f for f in findings if f.card == source.id]
            errors = sum(1 for f in own if f.severity is Severity.ERROR)
            name = source.data.get("name")
            listed.append(pages.ListedCard(
                source.id, source.kind, name if isinstance(name, str) and name else source.id,
                source.pack, f"{source.file.relative}:{source.location.line}", errors,
                len(own) - errors, fronts.get(source.id)))
        kinds = list(loaded.game.kinds) if loaded.game is not None else []
        several = loaded.card_set is not None and bool(loaded.card_set.expansions)
        html = pages.list_page(self.title(loaded), listed, kinds,
                               [f for f in findings if f.card is None
                                or f.card not in loaded.sources],
                               self.session.locales(loaded), self.session.source_locale(loaded),
                               self.token, several)
        return Response(200, "text/html; charset=utf-8", html.encode("utf-8"))

    def card_page(self, card_id: str, locale: str | None) -> Response:
        loaded = self.session.current()
        source = loaded.sources.get(card_id)
        if source is None:
            return self.not_found(f"there is no card '{card_id}' in the pack's files")
        form = self.form(loaded, source.kind)
        if form is None:
            return self.not_found(f"card '{card_id}' has the kind '{source.kind}', which this "
                                  "game does not have: fix it in its file")
        form = with_unknown_fields(form, source.data)
        locales = self.session.locales(loaded)
        chosen = locale if locale in locales else (locales[0] if locales else "")
        with self.session.lock:
            drawn = draw_card(self.session, loaded, self.pictures, source, source.data, chosen,
                              form.order)
        ids = list(loaded.sources)
        at = ids.index(card_id)
        name = source.data.get("name")
        view = pages.CardView(
            card_id, source.kind, name if isinstance(name, str) and name else card_id,
            f"{source.file.display}:{source.location.line}",
            loaded.versions.get(source.file.display, ""), source.data, form,
            saving.pack_images(source.root), f"/pack-file/{source.pack}/", drawn.faces,
            [(f, drawn.fields.get(i)) for i, f in enumerate(drawn.findings)],
            ids[at - 1] if at > 0 else None, ids[at + 1] if at + 1 < len(ids) else None,
            locales, chosen, source.format)
        html = pages.card_page(self.title(loaded), view, locales,
                               self.session.source_locale(loaded), self.token)
        return Response(200, "text/html; charset=utf-8", html.encode("utf-8"))

    def translate_page(self, locale: str) -> Response:
        loaded = self.session.current()
        if loaded.card_set is None or loaded.game is None:
            return self.not_found("the pack does not load; fix its findings first")
        manifest = loaded.card_set.base.manifest
        if locale == manifest.source_locale:
            return self.not_found(f"{locale} is the pack's source language: its texts are the "
                                  "card files themselves (edit them on the cards' pages)")
        if locale not in manifest.locales or locale not in self.session.locales(loaded):
            return self.not_found(f"this studio does not translate into '{locale}' (it "
                                  f"offers: {', '.join(self.session.locales(loaded))})")
        with self.session.lock:
            catalogs = translate.read_catalogs(loaded, locale)
            fitting = self.fitting(loaded, locale)
            fits = {entry.key: fitting.fits(entry, entry.translation)
                    for entry in catalogs.entries}
            localizer = self.session.localizer(locale)
            shared = MessageChecks(loaded.card_set, localizer, False)
            checks = {entry.key: translate.entry_checks(loaded, entry, entry.translation,
                                                        locale, localizer, shared)
                      for entry in catalogs.entries if entry.translation}
            hints: dict[str, list[dict[str, Any]]] = {}
            notes: dict[str, dict[str, str]] = {}
            for entry in catalogs.entries:
                if entry.pack not in notes:
                    notes[entry.pack] = translate.glossary_notes(loaded, entry.pack)
                terms = translate.glossary_for(loaded, entry.pack, locale)
                found = translate.hints(terms, entry.source, notes[entry.pack],
                                        entry.translation)
                if found:
                    hints[entry.key] = found
        names = {s.id: str(s.data.get("name") or s.id) for s in loaded.sources.values()}
        view = pages.TranslateView(locale, manifest.source_locale, catalogs, fits,
                                   {k: [f for f in v if f.code != "missing-translation"]
                                    for k, v in checks.items()}, hints, names,
                                   bool(loaded.card_set.expansions))
        html = pages.translate_page(self.title(loaded), view, self.session.locales(loaded),
                                    self.token)
        return Response(200, "text/html; charset=utf-8", html.encode("utf-8"))

    # --- the API -----------------------------------------------------------------------------

    def _source(self, card_id: str) -> tuple[Loaded, CardSource, FormSpec]:
        loaded = self.session.loaded or self.session.current()
        source = loaded.sources.get(card_id)
        form = self.form(loaded, source.kind) if source is not None else None
        if source is None or form is None:
            raise Refused(HTTPStatus.NOT_FOUND, f"no card '{card_id}' in the pack's files")
        return loaded, source, form

    def preview(self, card_id: str, body: dict[str, Any]) -> Response:
        with self.session.lock:
            loaded, source, form = self._source(card_id)
            item = card_item(source, body.get("values"))
            offered = self.session.locales(loaded)
            locale = str(body.get("locale") or offered[0])
            if locale not in offered:
                raise Refused(HTTPStatus.BAD_REQUEST, f"no language '{locale}' here")
            drawn = draw_card(self.session, loaded, self.pictures, source, item, locale,
                              form.order)
        return json_response(drawn_json(drawn, body.get("serial")))

    def save(self, card_id: str, body: dict[str, Any]) -> Response:
        _, source, form = self._source(card_id)
        values = card_item(source, body.get("values"))
        original = body.get("original") if isinstance(body.get("original"), dict) else {}
        outcome = saving.save_card(self.session, card_id, values, decode_values(original),
                                   str(body.get("version", "")), form.order,
                                   force=body.get("force") is True)
        status = {"conflict": 409, "refused": 422}.get(outcome.status, 200)
        return json_response(outcome.as_json(), status)

    def duplicate(self, card_id: str, body: dict[str, Any]) -> Response:
        _, source, form = self._source(card_id)
        original = body.get("original") if isinstance(body.get("original"), dict) else {}
        outcome = saving.add_card(self.session, form, source.kind, str(body.get("id", "")),
                                  copy_of=card_id, values=card_item(source, body.get("values")),
                                  original=decode_values(original))
        return self._added(outcome)

    def new_card(self, body: dict[str, Any]) -> Response:
        loaded = self.session.current()
        kind = str(body.get("kind", ""))
        form = self.form(loaded, kind)
        if form is None:
            return json_response(saving.refused(f"'{kind}' is not a kind of this game")
                                 .as_json(), 422)
        near = body.get("near") if isinstance(body.get("near"), str) else None
        outcome = saving.add_card(self.session, form, kind, str(body.get("id", "")), near=near)
        return self._added(outcome)

    def _added(self, outcome: saving.Outcome) -> Response:
        result = outcome.as_json()
        if outcome.status == "saved" and outcome.card:
            result["url"] = pages.card_url(outcome.card)
        return json_response(result, 200 if outcome.status == "saved" else 422)

    def free_id(self, query: Mapping[str, list[str]]) -> Response:
        stem = (query.get("stem") or ["card"])[0][:60]
        return json_response({"id": saving.free_id(self.session.current(), stem)})

    def check_translation(self, locale: str, body: dict[str, Any]) -> Response:
        text = body.get("text")
        key = body.get("key")
        if not isinstance(text, str) or not isinstance(key, str):
            raise Refused(HTTPStatus.BAD_REQUEST, "a check needs the text and its key")
        bounded(text)
        with self.session.lock:
            loaded = self.session.loaded or self.session.current()
            if locale not in self.session.locales(loaded) or loaded.card_set is None:
                raise Refused(HTTPStatus.NOT_FOUND, f"no language '{locale}' here")
            entry = self._entry(loaded, locale, key)
            fits = self.fitting(loaded, locale).fits(entry, text)
            checks = translate.entry_checks(loaded, entry, text, locale,
                                            self.session.localizer(locale))
        return json_response({
            "serial": body.get("serial"), "key": key,
            "fits": [{"face": slot.key, "over": round(over, 2),
                      "fit": "over" if over > 0.05 else "ok"} for slot, over in fits],
            "checks": [{"code": f.code, "severity": str(f.severity), "message": f.message}
                       for f in checks if f.code != "missing-translation"]})

    def _entry(self, loaded: Loaded, locale: str, key: str) -> translate.Entry:
        pack, _, rest = key.partition("\x04")
        context, _, source = rest.partition("\x04")
        assert loaded.card_set is not None
        owner = next((p for p in loaded.card_set.packs if p.manifest.pack == pack), None)
        if owner is None:
            raise Refused(HTTPStatus.NOT_FOUND, "no such pack")
        card = context.rpartition(".")[0] if context != translate.LABEL_CONTEXT else None
        return translate.Entry(pack, context, source,
                               card=card if card in loaded.sources else None)

    def save_translations(self, locale: str, body: dict[str, Any]) -> Response:
        if locale not in self.session.locales():
            raise Refused(HTTPStatus.NOT_FOUND, f"no language '{locale}' here")
        edits = []
        bounded(body.get("edits"))
        for raw in body.get("edits") or []:
            if not isinstance(raw, dict):
                continue
            pack, _, rest = str(raw.get("key", "")).partition("\x04")
            context, _, source = rest.partition("\x04")
            edits.append(translate.Edit(pack, context, source, str(raw.get("text", "")),
                                        raw.get("fuzzy") is True,
                                        str(raw.get("was_text", "")),
                                        raw.get("was_fuzzy") is True))
        versions = body.get("versions") if isinstance(body.get("versions"), dict) else {}
        result = translate.save_translations(self.session, locale, edits, versions,
                                             force=body.get("force") is True)
        status = {"conflict": 409, "refused": 422}.get(result["status"], 200)
        return json_response(result, status)


def with_unknown_fields(form: FormSpec, data: Mapping[str, Any]) -> FormSpec:
    """The form, plus a control for each field the file writes that the kind does not have
    (its schema reports it), so that it is kept as it is, or left out on purpose."""
    known = set(form.order)
    extra = tuple(FieldSpec(str(name), "yaml", description="not a field of this kind: leave it "
                            "out, or rename it in the file") for name in data
                  if name not in known)
    return FormSpec(form.kind, form.fields + extra) if extra else form


def bounded(value: Any, depth: int = 0) -> None:
    """A value from a page within the limits a pack's own files have (texts, numbers, nesting,
    entries): else the request is refused, as a file holding it would be."""
    if depth > MAX_DEPTH:
        raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, "the values are nested too deeply")
    if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
        raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, f"a text of {len(value)} characters; "
                      f"the limit is {MAX_STRING_CHARS}")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
        raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, f"the number {value} is too large")
    if isinstance(value, list | dict):
        if len(value) > _MAX_ENTRIES:
            raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, "a list of too many entries")
        for item in value.values() if isinstance(value, dict) else value:
            bounded(item, depth + 1)


def decode_values(values: Any) -> dict[str, Any]:
    """The form's values as the card's fields: ``{"$yaml": text}`` (a control that takes any
    YAML value) read by pnp's YAML loader (with its limits); refused beyond the limits."""
    if not isinstance(values, dict):
        return {}
    bounded(values)
    decoded: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, dict) and set(value) == {"$yaml"} and isinstance(value["$yaml"],
                                                                               str):
            doc, problems = load_yaml_text("value", f"value: {value['$yaml']}\n")
            # not YAML (or over a limit): the text itself, which the schema then judges
            value = doc.data["value"] if doc is not None and not problems and isinstance(
                doc.data, dict) and "value" in doc.data else value["$yaml"]
        decoded[str(name)] = value
    return decoded


def card_item(source: CardSource, values: Any) -> dict[str, Any]:
    """The card the page's values make: its id and kind stay the file's."""
    item = decode_values(values)
    item["id"] = source.id
    if "kind" in source.data:
        item["kind"] = source.data["kind"]
    return {"id": item.pop("id"), "kind": item.pop("kind", source.kind), **item}


def drawn_json(drawn: Drawn, serial: object = None) -> dict[str, Any]:
    return {
        "serial": serial,
        "faces": [{"side": f.side, "url": f"/pictures/{f.picture}", "width": f.width_px,
                   "height": f.height_px} for f in drawn.faces],
        "findings": [{"code": f.code, "severity": str(f.severity), "message": f.message,
                      "where": str(f.location), "locale": f.locale,
                      "field": drawn.fields.get(i)} for i, f in enumerate(drawn.findings)]}


def run_studio(pack: Path, expansions: Sequence[Path], locales: Sequence[str], port: int,
               echo: Callable[[str], None]) -> None:
    """Serve the studio until Ctrl-C (or SIGTERM), then stop cleanly."""
    session = Session(pack, expansions, locales)
    studio = Studio(session)
    # a busy port fails before the pack is read; the port is closed however this ends
    with StudioServer(port, studio.route, lambda line: echo(f"pnp studio: {line}")) as server:
        loaded = session.open()  # a wrong path or locale: exit 2 now
        studio.token = server.token
        findings = loaded.findings
        errors = sum(1 for f in findings if f.severity is Severity.ERROR)
        echo(f"read {display_path(pack)}: {len(loaded.sources)} cards, {errors} error(s), "
             f"{len(findings) - errors} warning(s)")
        try:
            with serving(server, "pnp-studio"):
                echo(f"serving http://{HOST}:{server.port}/ (editing {display_path(pack)}; "
                     "Ctrl-C stops)")
                wait_for_interrupt()
        finally:
            # a request may be drawing a card (pdfium is not to be torn down under it): wait
            # for it, then keep every later one out while the interpreter ends
            session.lock.acquire()
    echo("stopped")
