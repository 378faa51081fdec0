"""The ``pnp`` command ends as any Python program does (SystemExit, the interpreter's own
teardown; no ``os._exit``): what it printed all arrives, its exit code is main's, and exit
handlers run."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

CWNB = ROOT / "cards" / "cwnb"


def test_a_long_output_to_a_file_arrives_whole(tmp_path):
    # a file is block-buffered: what is still in the buffer at the end must be written out
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


def test_the_process_ends_normally_with_exit_handlers_and_finalizers_run(tmp_path):
    """A pipe is block-buffered (PYTHONUNBUFFERED is taken out): a line an exit handler prints
    is still in the buffer when the process ends, and an object's finalizer runs only in the
    interpreter's own teardown (os._exit skipped it)."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('handler ran'))\n"
            "class Last:\n"
            "    def __del__(self):\n"
            f"        open({str(tmp_path / 'finalized')!r}, 'w').close()\n"
            "sys.modules['last'] = Last()  # freed when the interpreter clears its modules\n"
            "from generator.cli.main import main\n"
            f"sys.argv = ['pnp', 'validate', {str(CWNB)!r}]\n"
            "main()\n")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=120, check=False, env=environment)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.rstrip().endswith("handler ran")
    assert (tmp_path / "finalized").exists()
