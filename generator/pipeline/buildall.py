"""``make build``: build every shipped pack in every locale it ships, on A4 and Letter.

An expansion (``extends:`` in its game.yaml) is built together with its base game, as a user
would with ``pnp build BASE --with EXPANSION``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.core.findings import render_text
from generator.impose.sheets import PAPERS, SheetOptions
from generator.load.parsecache import safe_load
from generator.pipeline.build import build

CARDS = Path(__file__).resolve().parents[2] / "cards"


def shipped_packs(root: Path) -> list[tuple[Path, tuple[Path, ...], list[str]]]:
    """(base folder, expansion folders, locales) for every pack under ``root``."""
    manifests = {}
    for game_yaml in sorted(root.glob("*/game.yaml")):
        data = safe_load(game_yaml.read_text(encoding="utf-8"), str(game_yaml)) or {}
        manifests[game_yaml.parent] = data
    by_id = {data.get("pack"): folder for folder, data in manifests.items()}
    jobs = []
    for folder, data in manifests.items():
        locales = list(data.get("locales") or [data.get("source_locale", "en")])
        base_id = data.get("extends")
        if base_id:
            jobs.append((by_id[base_id], (folder,), locales))
        else:
            jobs.append((folder, (), locales))
    return jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("output"))
    args = parser.parse_args(argv)
    failures = 0
    for base, expansions, locales in shipped_packs(CARDS):
        for locale in locales:
            for paper in PAPERS:
                result = build(base, expansions, locale, SheetOptions(paper=paper), args.out)
                name = "+".join(p.name for p in (base, *expansions))
                if result.out_dir is None:
                    failures += 1
                    print(render_text(result.findings), file=sys.stderr)
                    print(f"FAILED {name} {locale} {paper}", file=sys.stderr)
                else:
                    warnings = len(result.findings)
                    print(f"built  {result.out_dir} ({result.pages} pages, "
                          f"{warnings} warning(s))")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
