"""An installation without its templates says so and touches nothing (it once moved every
label translation to obsolete without a word)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from generator.runtime.resources import builtin_templates_root

#: run pnp with the built-in templates looked up in a folder of the test's choosing
RUN = """
import sys
from pathlib import Path
import generator.runtime.resources as resources
resources._IN_WHEEL = resources._IN_CHECKOUT = Path(sys.argv[1])
from generator.cli.main import main
sys.argv = ["pnp", *sys.argv[2:]]
main()
"""


def test_the_checkout_finds_its_templates():
    assert builtin_templates_root() == ROOT / "templates"


@pytest.mark.parametrize("missing", ["cwnb/labels.yaml", "cwnb"])
def test_missing_templates_stop_i18n_update_and_leave_the_catalog(tmp_path, missing):
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    gone = templates / missing
    shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
    pack = tmp_path / "cwnb"
    shutil.copytree(ROOT / "cards" / "cwnb", pack)
    before = (pack / "locales" / "ru.po").read_bytes()
    for command in (["i18n", "update", str(pack)], ["build", str(pack), "--out",
                                                    str(tmp_path / "out")]):
        result = subprocess.run([sys.executable, "-c", RUN, str(templates), *command],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 2, result.stderr
        assert "installation is incomplete" in result.stderr
        assert "Traceback" not in result.stderr
    assert (pack / "locales" / "ru.po").read_bytes() == before
    assert not (tmp_path / "out").exists()


def test_no_templates_at_all_is_named(tmp_path):
    result = subprocess.run([sys.executable, "-c", RUN, str(tmp_path / "nowhere"), "build",
                             str(ROOT / "cards" / "cwnb"), "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2
    assert "the built-in templates are missing" in result.stderr
    assert str(Path(tmp_path / "nowhere")) in result.stderr
