"""``pnp preview``: write the proof of a pack as ``OUT/<pack>/proof/index.html`` plus pictures.

The folder is updated in place, never half-written: new pictures are written first (each
renamed into place whole), then the page that refers to them, and only then are pictures that
no page refers to any more deleted. Pictures already there are not rendered again, so a second
preview after an edit costs little more than the edited cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from generator.cache.usercache import FileDigests, output_cache_folder
from generator.core.errors import UsageError
from generator.proof.collect import Proof, collect
from generator.proof.page import PICTURES, render_page
from generator.proof.pictures import FolderStore, render_pictures, write_atomic


class PreviewResult(Struct, frozen=True):
    page: Path
    proof: Proof
    rendered: int  # pictures rendered by this run (the others were there already)


def write_preview(pack: Path, expansions: Sequence[Path], locales: Sequence[str],
                  out_root: Path) -> PreviewResult:
    proof = collect(pack, expansions, locales)
    folder = out_root / proof.pack / "proof"
    cache = output_cache_folder(out_root)
    store = FolderStore(folder / PICTURES, None if cache is None else FileDigests(
        folder, cache / "proof" / f"{proof.pack}.digests"))
    try:
        rendered = render_pictures(proof.pictures, proof.bleed_mm, store)
        page = folder / "index.html"
        write_atomic(page, render_page(proof).encode("utf-8"))
        store.keep_only(set(proof.pictures))
    except OSError as exc:
        raise UsageError(f"{folder}: cannot write the proof: {exc.strerror or exc}") from None
    return PreviewResult(page, proof, rendered)
