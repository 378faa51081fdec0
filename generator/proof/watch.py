"""``pnp watch``: serve the proof on the loopback interface and rebuild it on every save.

A rebuild runs the whole checking pipeline again (rules look at the whole set, so one edited
card can change another card's findings), but lays out only the cards whose faces changed (the
face cache, generator.layout.facecache, kept in memory) and renders only the faces whose drawing
changed: pictures are named by what they were drawn from and kept in memory, so a face that
looks the same is never rendered twice. Every file of the packs is watched, and every file a
card names even where a hidden name would have it ignored (``art/.wip.svg``). The open page
listens on a Server-Sent Events stream and reloads itself when the page's version changes; a
rebuild that fails (a broken YAML file, a rule error, a pack folder half-way through a save)
shows its findings or its error on the page, and the server goes on watching.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Collection, Sequence
from contextlib import suppress
from pathlib import Path
from urllib.parse import unquote

from msgspec import Struct

from generator.core.errors import UsageError
from generator.core.location import display_path
from generator.layout.facecache import KeptFaces
from generator.layout.ops import drawn_files
from generator.load.packfiles import PackFolder, card_files
from generator.proof.collect import BLEED_MM, Proof, collect
from generator.proof.page import PICTURES, page_version, render_page
from generator.proof.pictures import MemoryStore, render_pictures
from generator.runtime.filecaches import forget_file_caches
from generator.runtime.localserver import (
    HOST,
    LocalHandler,
    LocalServer,
    serving,
)
from generator.runtime.resources import builtin_templates_root

KEEPALIVE_S = 15.0
#: folders that never hold pack sources: build output, version control, editors' scratch
_IGNORED_DIRS = frozenset({"output", "schemas", "__pycache__", "node_modules"})
_SCRATCH_SUFFIXES = ("~", ".swp", ".swx", ".tmp", ".bak", ".pyc")


class Rebuild(Struct, frozen=True, gc=False):
    seconds: float
    rendered: int
    cards: int
    errors: int
    warnings: int
    failure: str | None = None


class ProofState:
    """The current page and pictures, shared by the watching thread and the server's threads."""

    def __init__(self, pack: Path, expansions: Sequence[Path], locales: Sequence[str]) -> None:
        self.pack, self.expansions, self.locales = pack, tuple(expansions), tuple(locales)
        self.store = MemoryStore()
        self.faces = KeptFaces()
        #: the files the current page's faces draw: watched even where hidden
        self.named: frozenset[str] = frozenset()
        self.changed = threading.Condition()
        self.html = b""
        self.version = ""
        self.building = False
        self.stopping = False
        self._previous: set[str] = set()

    def _publish(self, **state: object) -> None:
        with self.changed:
            for name, value in state.items():
                setattr(self, name, value)
            self.changed.notify_all()

    def only_cards_or_catalogs(self, changed: set[Path]) -> bool:
        """True when every changed file is a card file or a translation catalog: nothing the
        package caches (templates, palettes, labels, glossaries, schemas) came from them."""
        cards = set()
        for root in (self.pack, *self.expansions):
            with suppress(OSError):
                cards.update(file.path.resolve()
                             for file in card_files(PackFolder(Path(root)))[0])
        return all(path in cards or path.suffix in (".po", ".pot") for path in changed)

    def rebuild(self, changed: set[Path] | None = None,
                usage_errors_raise: bool = False) -> Rebuild:
        """Build the page again after ``changed`` files changed (None: anything may have).

        Failures end up on the page, except that ``usage_errors_raise`` makes the first build
        raise UsageError for a wrong command line (no such pack, no such locale)."""
        start = time.perf_counter()
        self._publish(building=True)
        failure = None
        if changed is None or not self.only_cards_or_catalogs(changed):
            forget_file_caches()  # (kept faces need not go: their key covers every file)
        try:
            proof = collect(self.pack, self.expansions, self.locales, kept=self.faces)
            rendered = render_pictures(proof.pictures, proof.bleed_mm, self.store)
            html = render_page(proof, live=True)
        except UsageError as exc:
            if usage_errors_raise:
                raise
            failure = f"pnp: error: {exc}"
        except Exception as exc:  # a rebuild must never stop the server a designer is using
            if os.environ.get("PNP_DEBUG"):
                raise
            failure = f"pnp: internal error: {type(exc).__name__}: {exc}"
        if failure is not None:
            proof = Proof(title=self.pack.name, pack=self.pack.name, locales=self.locales,
                          bleed_mm=BLEED_MM)
            rendered = 0
            html = render_page(proof, live=True, notice=failure)
        current = set(proof.pictures)
        if failure is None:
            self.named = frozenset(path for face in proof.pictures.values()
                                   for path in drawn_files(face.ops))
        # the previous page's pictures stay until the next rebuild: a browser may still be
        # fetching them when the new page is published
        self.store.keep_only(current | self._previous)
        self._previous = current
        self._publish(html=html.encode("utf-8"), version=page_version(html), building=False)
        findings = proof.findings
        errors = sum(1 for f in findings if f.severity == "error")
        return Rebuild(time.perf_counter() - start, rendered, len(proof.cards), errors,
                       len(findings) - errors, failure)

    def stop(self) -> None:
        self._publish(stopping=True)


class _Handler(LocalHandler):
    """The page, its pictures and its event stream (the guards are
    :mod:`generator.runtime.localserver`'s); one request per connection, the event stream ends
    by close. A browser that goes away (a reload, a closed tab) ends its connection quietly."""

    server: _Server

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        state = self.server.state
        path = unquote(self.target().path)
        if path in ("/", "/index.html"):
            with state.changed:
                html = state.html
            self.send_body(200, "text/html; charset=utf-8", html)
        elif path.startswith(f"/{PICTURES}/"):
            data = state.store.pictures.get(path[len(PICTURES) + 2:])
            if data is None:
                self.send_body(404, "text/plain; charset=utf-8", b"no such picture\n")
            else:  # named by content: a name never changes what it shows
                self.send_body(200, "image/png", data, "max-age=31536000, immutable")
        elif path == "/__pnp/events":
            self._events(state)
        else:
            self.send_body(404, "text/plain; charset=utf-8", b"not found\n")

    def _events(self, state: ProofState) -> None:
        """Server-Sent Events: ``building`` when a rebuild starts, ``version`` when it ends."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(b"retry: 1000\n\n")
        sent: tuple[str, bool] | None = None
        while True:
            with state.changed:
                if (state.version, state.building) == sent and not state.stopping:
                    state.changed.wait(KEEPALIVE_S)
                if state.stopping:
                    return
                now = (state.version, state.building)
            if now == sent:
                self.wfile.write(b": still watching\n\n")
            elif now[1]:
                self.wfile.write(b"event: building\ndata: \n\n")
            else:
                self.wfile.write(f"event: version\ndata: {now[0]}\n\n".encode())
            self.wfile.flush()
            sent = now


class _Server(LocalServer):
    command = "pnp watch"

    def __init__(self, port: int, state: ProofState,
                 report: Callable[[str], None] | None = None) -> None:
        self.state = state
        super().__init__(port, _Handler, report)


def open_server(port: int, state: ProofState,
                report: Callable[[str], None] | None = None) -> _Server:
    """The proof's server on 127.0.0.1:``port`` (0: any free port); UsageError when busy."""
    return _Server(port, state, report)


def watched_folders(pack: Path, expansions: Sequence[Path]) -> list[Path]:
    """The pack folders (card files, game.yaml, catalogs, and a data game's templates, art,
    icons and fonts) and the built-in games' templates."""
    folders = [Path(p).resolve() for p in (pack, *expansions)]
    # an incomplete installation has no templates folder: the first rebuild said so already
    with suppress(UsageError):
        folders.append(builtin_templates_root().resolve())
    return list(dict.fromkeys(folders))


class _SourceFilter:
    """Changes worth a rebuild: files inside the watched folders, except in hidden folders,
    build output and caches, and editors' swap and backup files, unless a card names the file
    (``named``: the files the current page draws, hidden ones too). Judged on the path below
    the watched folder, so a pack that itself lives under a folder called ``output`` still
    works."""

    def __init__(self, roots: Sequence[Path],
                 named: Callable[[], Collection[str]] = frozenset) -> None:
        self.roots = [str(root) for root in roots]
        self.named = named

    def __call__(self, change: object, path: str) -> bool:
        if path in self.named():
            return True
        for root in self.roots:
            if path == root or path.startswith(root + os.sep):
                parts = Path(path[len(root):].lstrip(os.sep)).parts
                break
        else:
            parts = (Path(path).name,)
        if any(part.startswith(".") or part in _IGNORED_DIRS for part in parts[:-1]):
            return False
        name = parts[-1] if parts else ""
        return not (name.startswith((".", "#")) or name.endswith(_SCRATCH_SUFFIXES))


def watch_forever(state: ProofState, folders: Sequence[Path],
                  report: Callable[[Rebuild, int], None]) -> None:
    """Rebuild after each batch of saves until interrupted (KeyboardInterrupt) or stopped."""
    import watchfiles

    from generator.runtime.gcpause import collect_frozen

    stop = threading.Event()
    for changes in watchfiles.watch(*folders, step=30,
                                    watch_filter=_SourceFilter(folders, lambda: state.named),
                                    stop_event=stop, raise_interrupt=True):
        changed = {Path(path).resolve() for _, path in changes}
        report(state.rebuild(changed), len(changed))
        collect_frozen()  # what this rebuild's stages froze (see generator.runtime.gcpause)


def run_watch(pack: Path, expansions: Sequence[Path], locales: Sequence[str], port: int,
              echo: Callable[[str], None]) -> None:
    """Serve and rebuild until Ctrl-C (or SIGTERM, a process manager's Ctrl-C), then stop
    cleanly: the event streams are told to end, the server closes, nothing is left behind."""
    state = ProofState(pack, expansions, locales)

    def report(rebuild: Rebuild, changes: int) -> None:
        outcome = rebuild.failure or (f"{rebuild.cards} cards, {rebuild.errors} error(s), "
                                      f"{rebuild.warnings} warning(s)")
        what = f"rebuilt after {changes} change(s)" if changes else "built"
        echo(f"{what} in {rebuild.seconds:.2f} s, {rebuild.rendered} picture(s) rendered: "
             f"{outcome}")

    # a busy port fails before a long first build; the port is closed however this ends
    with open_server(port, state, lambda line: echo(f"pnp watch: {line}")) as server:
        report(state.rebuild(None, usage_errors_raise=True), 0)  # a wrong path or locale: exit 2
        with serving(server, "pnp-proof-server"):
            echo(f"serving http://{HOST}:{server.port}/ (watching {display_path(pack)}; "
                 "Ctrl-C stops)")
            try:
                watch_forever(state, watched_folders(pack, expansions), report)
            finally:
                state.stop()  # the open event streams end before the server stops
    echo("stopped")
