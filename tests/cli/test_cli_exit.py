"""The ``pnp`` command ends its process without tearing the interpreter down
(generator.cli.command): what it printed must still all arrive, its exit code must be main's,
and exit handlers must still run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

CWNB = ROOT / "cards" / "cwnb"


def test_a_long_output_to_a_file_arrives_whole(tmp_path):
    # a file is block-buffered: without the flush before the process ends, the JSON is cut
    out = tmp_path / "findings.json"
    with out.open("wb") as handle:
        completed = subprocess.run([sys.executable, "-m", "generator", "validate",
                                    str(ROOT / "tests" / "fixtures" / "gwas-broken"),
                                    "--format", "json"], stdout=handle, stderr=subprocess.PIPE,
                                   timeout=120, check=False)
    assert completed.returncode == 1, completed.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["findings"], document


def test_exit_codes_and_messages_are_mains(tmp_path):
    missing = subprocess.run([sys.executable, "-m", "generator", "validate",
                              str(tmp_path / "nowhere")], capture_output=True, text=True,
                             timeout=120, check=False)
    assert missing.returncode == 2
    assert "no such pack folder" in missing.stderr
    fine = subprocess.run([sys.executable, "-m", "generator", "validate", str(CWNB)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert fine.returncode == 0, fine.stderr
    assert "0 error(s)" in fine.stdout


def test_exit_handlers_run_and_what_they_print_is_flushed():
    # a pipe is block-buffered (unless PYTHONUNBUFFERED says otherwise, so it is taken out): a
    # line printed by an exit handler is still in the buffer when the process would end
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('handler ran'))\n"
            "from generator.cli import command\n"
            f"sys.argv = ['pnp', 'validate', {str(CWNB)!r}]\n"
            "command()\n")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=120, check=False, env=environment)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.rstrip().endswith("handler ran")
