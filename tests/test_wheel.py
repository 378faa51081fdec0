"""The installed package: a wheel built from the repository, installed in a fresh venv, run from a
folder that is not the repository, prints exactly what the editable install prints."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from conftest import ROOT
from trove_classifiers import classifiers as known_classifiers

#: (pack, expansions) of every shipped pack
PACKS = [("cwnb", ()), ("cwnb", ("cwnb-expansion",)), ("commander", ()), ("gwas", ()),
         ("rockpool", ())]


def _run(*args: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, timeout=timeout)


def _source_copy(target: Path) -> Path:
    """The repository's own files (those git tracks or would track) copied to ``target``:
    setuptools builds in the source folder's ``build/``, where files of an earlier layout of
    the package survive and would go into the wheel as if they were sources."""
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                  cwd=ROOT)
    assert listed.returncode == 0, listed.stderr
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the pnp command of a fresh venv that has that wheel installed).

    The venv borrows the dependencies from this one (a .pth line names this venv's
    site-packages; the editable install's own .pth files are not read from there) instead of
    installing them again: that took a minute and more of the suite, and a real install from
    the index with every dependency is what CI's lowest-versions step does (.ci/run), while
    test_portable checks that every import is a declared dependency. ``pip check`` still
    holds the wheel's requirements against what the venv sees."""
    work = tmp_path_factory.mktemp("wheel")
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                 str(work / "dist"), str(_source_copy(work / "src")), cwd=work)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("*.whl")
    venv = work / "venv"
    made = _run(sys.executable, "-m", "venv", "--without-pip", str(venv), cwd=work)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = Path(_run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                     cwd=work).stdout.strip())
    borrowed = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "borrowed-dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n",
                                                    encoding="utf-8")
    pip = _run(sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
               "--no-deps", str(wheel), cwd=work)
    assert pip.returncode == 0, pip.stderr
    checked = _run(sys.executable, "-m", "pip", "--python", str(python), "check", cwd=work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    where = _run(str(python), "-c", "import generator; print(generator.__file__)", cwd=work)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    return wheel, venv / "bin" / "pnp"


def test_the_wheel_carries_templates_licence_and_metadata(installed):
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (meta_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = Parser().parsestr(archive.read(meta_name).decode("utf-8"))
    shipped = {f"generator/builtin_templates/{p.relative_to(ROOT / 'templates').as_posix()}"
               for p in (ROOT / "templates").rglob("*") if p.is_file()}
    assert shipped and shipped <= names
    # the studio's pages work offline: their script and style come from the package
    assert {f"generator/studio/{name}" for name in ("studio.css", "common.js", "studio.js",
                                                    "translate.js")} <= names
    assert meta["Name"] == "pnp-sheets" and meta["License-Expression"] == "MIT"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    classifiers = meta.get_all("Classifier")
    assert classifiers and set(classifiers) <= known_classifiers
    # the systems pnp runs on (tests/test_portable.py runs it as on macOS and Windows), not
    # "OS Independent"
    assert sorted(c for c in classifiers if c.startswith("Operating System")) == [
        "Operating System :: MacOS", "Operating System :: Microsoft :: Windows",
        "Operating System :: POSIX :: Linux"]
    # SARIF help links: the docs' base URL and the map of finding codes into docs/
    assert any(u.startswith("Documentation, https://") for u in meta.get_all("Project-URL"))
    assert "generator/core/finding_docs.json" in names
    assert meta["Author"] and meta["Keywords"] and meta["Summary"]
    assert not any(n.startswith(("templates/", "tests/", "cards/")) for n in names)


def _pack_args(pack: str, expansions: tuple[str, ...]) -> list[str]:
    args = [str(ROOT / "cards" / pack)]
    for expansion in expansions:
        args += ["--with", str(ROOT / "cards" / expansion)]
    return args


def _built(out: Path) -> list[Path]:
    """The output folders (pack/locale/paper) under ``out``, not its build cache."""
    return [p for p in out.glob("*/*/*") if not p.relative_to(out).parts[0].startswith(".")]


@pytest.mark.parametrize(("pack", "expansions"), PACKS,
                         ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_the_installed_pnp_builds_like_the_editable_one(installed, tmp_path, pack, expansions):
    _, pnp = installed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = _pack_args(pack, expansions)
    checked = _run(str(pnp), "validate", *args, "--format", "json", cwd=elsewhere)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["summary"]["errors"] == 0
    wheel_build = _run(str(pnp), "build", *args, "--out", "out", "-q", cwd=elsewhere)
    assert wheel_build.returncode == 0, wheel_build.stderr
    editable_build = _run(sys.executable, "-m", "generator", "build", *args, "--out",
                          str(tmp_path / "editable"), "-q", cwd=ROOT)
    assert editable_build.returncode == 0, editable_build.stderr
    (ours,) = _built(elsewhere / "out")
    (reference,) = _built(tmp_path / "editable")
    assert ours.relative_to(elsewhere / "out") == reference.relative_to(tmp_path / "editable")
    assert json.loads((ours / "manifest.json").read_text(encoding="utf-8")) == \
        json.loads((reference / "manifest.json").read_text(encoding="utf-8"))
    for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
        assert (ours / name).read_bytes() == (reference / name).read_bytes(), name


@pytest.mark.parametrize("pack", ["cwnb", "cwnb-expansion", "commander", "gwas", "rockpool"])
def test_the_installed_pnp_sees_every_translation(installed, tmp_path, pack):
    """Template labels come from the wheel's templates: none may turn up missing or obsolete."""
    _, pnp = installed
    wheel_status = _run(str(pnp), "i18n", "status", str(ROOT / "cards" / pack), "--format",
                        "json", cwd=tmp_path)
    assert wheel_status.returncode == 0, wheel_status.stderr
    editable_status = _run(sys.executable, "-m", "generator", "i18n", "status",
                           str(ROOT / "cards" / pack), "--format", "json", cwd=ROOT)
    assert json.loads(wheel_status.stdout) == json.loads(editable_status.stdout)
    for row in json.loads(wheel_status.stdout)["locales"]:
        assert row["missing"] == row["obsolete"] == 0, row
