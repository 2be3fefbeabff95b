"""A child process that must not outlive the process that started it."""

from __future__ import annotations

import contextlib
import ctypes
import signal
import sys

_PR_SET_PDEATHSIG = 1


def end_with_parent() -> None:
    """Linux: SIGTERM to this process when its parent dies, even by SIGKILL (the parent cannot stop it
    then). Elsewhere, and where libc refuses, nothing: the parent's own shutdown has to do."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
