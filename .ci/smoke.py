"""The smoke set: what a user does first, on every shipped pack, with the pnp of this Python.

    python .ci/smoke.py [OUT]

Run by .ci/run in a second venv that holds each direct dependency at the lowest version
pyproject.toml declares (``uv pip install --resolution lowest-direct``): a floor that does not
work fails here. Only pnp's own dependencies are needed (no test tools): the PDFs are opened
with pikepdf and the pictures with Pillow, which pnp installs anyway.

For each shipped pack, in each of its languages: ``pnp validate`` (text and SARIF),
``pnp build`` (each PDF opens and has the pages its manifest lists), ``pnp export --to png``
(every file export.json names exists and is the size it says), and ``pnp i18n status``. Every
command must end with exit 0 and print no traceback. Exit status 0 when all did.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pikepdf
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
#: (pack, expansions, its languages)
PACKS = [("cwnb", (), ("en", "ru")), ("cwnb", ("cwnb-expansion",), ("en", "ru")),
         ("commander", (), ("ru", "en")), ("gwas", (), ("ru", "en")),
         ("rockpool", (), ("en", "de"))]


def pnp(*args: str, out: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PNP_CACHE_DIR": str(out / "user-cache")}
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=600)


def check_build(folder: Path) -> list[str]:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    sides = len(manifest["pages"])
    problems = []
    for name, pages in (("fronts.pdf", None), ("backs.pdf", None), ("duplex.pdf", sides)):
        with pikepdf.open(folder / name) as pdf:
            if len(pdf.pages) == 0 or (pages is not None and len(pdf.pages) != pages):
                problems.append(f"{folder / name}: {len(pdf.pages)} pages, manifest {pages}")
    return problems


def check_export(folder: Path) -> list[str]:
    listing = json.loads((folder / "export.json").read_text(encoding="utf-8"))
    problems = []
    for entry in listing["files"]:
        if entry.get("width_px") is None:
            continue
        with Image.open(folder / entry["path"]) as image:
            if image.size != (entry["width_px"], entry["height_px"]):
                problems.append(f"{folder / entry['path']}: {image.size}, export.json says "
                                f"{entry['width_px']} x {entry['height_px']}")
    return problems


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="pnp-smoke-"))
    failures: list[str] = []
    ran = 0
    for pack, expansions, locales in PACKS:
        args = [f"cards/{pack}", *(a for e in expansions for a in ("--with", f"cards/{e}"))]
        name = "+".join((pack, *expansions))
        for locale in locales:
            built = out / name
            steps = [
                (["validate", *args, "--locale", locale], None),
                (["validate", *args, "--locale", locale, "--format", "sarif"], None),
                (["build", *args, "--locale", locale, "--out", str(built)],
                 (check_build, f"*/{locale}/a4")),
                (["export", *args, "--locale", locale, "--to", "png", "--dpi", "40",
                  "--out", str(built)], (check_export, f"*/{locale}/png")),
            ]
            for command, check in steps:
                ran += 1
                done = pnp(*command, out=out)
                said = done.stdout + done.stderr
                if done.returncode != 0 or "Traceback" in said or "internal error" in said:
                    failures.append(f"pnp {' '.join(command)}: exit {done.returncode}\n{said}")
                    continue
                if command[0] == "validate" and "--format" in command:
                    json.loads(done.stdout)
                if check is not None:
                    checker, pattern = check
                    failures += [f"pnp {' '.join(command)}: {problem}"
                                 for problem in checker(next(built.glob(pattern)))]
        ran += 1
        done = pnp("i18n", "status", f"cards/{pack}", out=out)
        if done.returncode != 0 or "Traceback" in done.stdout + done.stderr:
            failures.append(f"pnp i18n status cards/{pack}: exit {done.returncode}\n"
                            f"{done.stdout}{done.stderr}")
    for failure in failures:
        print(f"FAILED {failure}", file=sys.stderr)
    print(f"smoke set: {ran - len(failures)} of {ran} commands clean")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
