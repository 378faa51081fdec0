"""Run pnp on Linux as it runs where Linux's and Unix's own calls do not exist (Windows, and
macOS for the Linux-only ones): ``python tests/elsewhere.py validate cards/cwnb ...``.

CI cannot run macOS or Windows here, so this launcher takes away, before pnp is imported, the
``os`` attributes those systems lack (``sched_getaffinity``, ``fork``, ``O_NONBLOCK``,
``getuid``...) and makes the modules they lack (``fcntl``, ``resource``, ``termios``, ``pwd``,
``grp``...) fail to import, then runs pnp's command line. tests/test_portable.py compares what
pnp writes here with a normal run, byte for byte.

The one thing said differently here than on those systems: without ``fcntl`` the ``filelock``
library falls back to its soft (file-exists) locks and warns about it once. Windows has locks of
its own, which filelock uses there without a warning, so the warning is silenced here.
"""

from __future__ import annotations

import importlib.abc
import os
import runpy
import sys
import warnings

#: ``os`` attributes that exist on Linux only, or on Unix only (absent on Windows)
REMOVED = ("sched_getaffinity", "sched_setaffinity", "fork", "forkpty",
           "register_at_fork", "O_NONBLOCK", "O_NOFOLLOW", "O_DIRECTORY", "getuid",
           "geteuid", "getgid", "getegid", "getgroups", "getpgid", "setpgid", "setsid",
           "killpg", "nice", "getloadavg", "mkfifo", "mknod", "chown", "lchown", "fchown",
           "statvfs", "fstatvfs", "wait3", "wait4", "sync", "pipe2")
#: modules Windows does not have
BLOCKED = frozenset({"fcntl", "resource", "termios", "tty", "pty", "pwd", "grp", "posix_ipc",
                     "syslog", "crypt"})


class _Missing(importlib.abc.MetaPathFinder):
    """Finds nothing for a blocked module: its import fails as on a system without it."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in BLOCKED:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def take_away() -> None:
    for name in REMOVED:
        if hasattr(os, name):
            delattr(os, name)
    # no call takes a folder's descriptor (dir_fd) on Windows; shutil.rmtree chooses its way by
    # that when imported, and its descriptor way needs O_NONBLOCK on Python 3.13
    os.supports_dir_fd.clear()
    if "shutil" in sys.modules:
        sys.modules["shutil"]._use_fd_functions = False
    for name in BLOCKED:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, _Missing())
    warnings.filterwarnings("ignore", message="only soft file lock is available")


if __name__ == "__main__":
    take_away()
    sys.argv = ["pnp", *sys.argv[1:]]
    runpy.run_module("generator", run_name="__main__", alter_sys=True)
