"""Run ``gradguard ARGS`` under a Python audit hook that records what it touches.

Usage: ``GG_AUDIT_LOG=/path/log.jsonl python audit_wrapper.py check ...``. One JSON line
per event: ``["open", path, mode]`` for every file opened by path,
``["socket", event, args]`` for socket creation, bind and connect,
``["process", event, args]`` for any attempt to start a program, and, at exit,
``["module", name, file]`` for every imported module (so a test can see that none came
from the checked folder). PEP 578 audit hooks cannot be removed: nothing in the process
escapes them.
"""

import atexit
import json
import os
import sys

_LOG = open(os.environ["GG_AUDIT_LOG"], "a", encoding="utf-8", buffering=1)
_PROCESS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
            "os.fork", "os.forkpty", "pty.spawn"}


def _write(*record) -> None:
    _LOG.write(json.dumps(record, default=repr) + "\n")


def _hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        path = os.fsdecode(args[0])
        _write("open", os.path.abspath(path), args[1])
    elif event in ("socket.__new__", "socket.bind", "socket.connect"):
        _write("socket", event, [repr(a) for a in args])
    elif event in _PROCESS:
        _write("process", event, [repr(a) for a in args][:3])


def _modules() -> None:
    for name, module in list(sys.modules.items()):
        _write("module", name, getattr(module, "__file__", None))


sys.addaudithook(_hook)
atexit.register(_modules)

from gradguard.cli import main  # noqa: E402  (after the hook, so every import is seen)

sys.exit(main(sys.argv[1:]))
