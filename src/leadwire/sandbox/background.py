"""The sandbox world built in a separate process while `leadwire serve` already serves.

The server starts `python -m leadwire.sandbox.background` and keeps a `WorldBuild` handle: `/readyz`
shows its status and the in-process worker claims jobs once it is finished. The build process writes
its progress line by line to the inherited stderr and into a status file beside the world; its memory
(the generators, the embedding model) goes when it exits, so the server stays small.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from leadwire.lifetime import end_with_parent
from leadwire.sandbox.progress import EXPECTED, announcement, read_status, status_path, write_status

# How often the server looks at the build when it waits for it.
POLL_SECONDS = 0.5


class WorldBuild:
    """The server's view of the world build: a process `start` ran, or nothing to build."""

    def __init__(self, world_dir: Path, *, seed: int, size: str) -> None:
        self.world_dir, self.seed, self.size = world_dir, seed, size
        self.status_file = status_path(world_dir)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> bool:
        """Start the build process if the world or its index is missing (True then); its output goes
        where the server's goes."""
        if world_is_ready(self.world_dir):
            return False
        self.status_file.unlink(missing_ok=True)  # a previous start's status says nothing of this build
        argv = [sys.executable, "-m", "leadwire.sandbox.background", str(self.world_dir)]
        argv += ["--seed", str(self.seed), "--size", self.size, "--parent", str(os.getpid())]
        self.process = subprocess.Popen(argv)
        return True

    def status(self) -> dict[str, Any]:
        """`state` (building, ready or failed) and, from the status file, what the build is doing."""
        if self.process is None:
            return {"state": "ready"}
        reported = read_status(self.status_file) or {"state": "building", "stage": "starting", "percent": 0.0}
        code = self.process.poll()
        if code is None or reported.get("state") == "failed":
            return reported
        if code == 0:
            return {**reported, "state": "ready"}
        return {**reported, "state": "failed", "error": f"the build process exited with code {code}"}

    def finished(self) -> bool:
        return self.status()["state"] != "building"

    async def wait(self) -> dict[str, Any]:
        """Until the build finished (ready or failed); its last status. Polled: the process and its
        status file are all there is to watch."""
        while True:
            status = self.status()
            if status["state"] != "building":
                return status
            await asyncio.sleep(POLL_SECONDS)

    def terminate(self) -> None:
        """Ask a build still running to end (the server stops): it removes its partial world."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def stop(self, timeout: float = 10.0) -> None:
        """End a build still running and wait for it, at most `timeout` seconds before killing it."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --- the build process ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """The build process: waits for any other build of the world, builds what is missing and leaves
    its outcome in the status file; 0 when the world is ready."""
    args = _parse(argv)
    world_dir = Path(args.world_dir)
    _die_with_parent(args.parent)
    signal.signal(signal.SIGTERM, _interrupted)
    status: dict[str, Any] = {"state": "building", "size": args.size, "seed": args.seed}
    if (expected := EXPECTED.get(args.size)) is not None:
        status["expected_seconds"] = expected.seconds
    status_file = status_path(world_dir)
    write_status(status_file, {**status, "stage": "starting", "percent": 0.0})
    try:
        with _one_builder(world_dir, status_file, status):
            figures = _build(world_dir, args.seed, args.size, status_file, status)
    except KeyboardInterrupt:
        write_status(status_file, {**status, "state": "failed", "error": "interrupted"})
        _say("interrupted; the next start builds the world again")
        return 130
    except Exception as exc:
        write_status(status_file, {**status, "state": "failed", "error": f"{type(exc).__name__}: {exc}"})
        raise
    write_status(status_file, {**status, **figures, "state": "ready", "percent": 100.0, "stage": None})
    return 0


def world_is_ready(world_dir: Path) -> bool:
    """True when the world's tables and its search index are both there."""
    from leadwire.sandbox.store import world_is_built
    from leadwire.search.store import read_manifest

    return world_is_built(world_dir) and read_manifest(world_dir) is not None


def _build(
    world_dir: Path, seed: int, size: str, status_file: Path, status: dict[str, Any]
) -> dict[str, Any]:
    from leadwire.sandbox.progress import LogLines
    from leadwire.sandbox.setup import ensure_world
    from leadwire.sandbox.store import world_is_built

    if world_is_ready(world_dir):  # another process built it while this one waited
        _say(f"{world_dir} was built meanwhile")
        return {}
    if world_is_built(world_dir):  # an earlier build stopped while indexing
        _say(f"one-off build of the search index of {world_dir} (its tables are there)")
    else:
        _say(announcement(world_dir, seed=seed, size=size))
    _say("the API serves meanwhile; jobs wait queued until the world is ready")
    started = time.monotonic()
    with LogLines(sys.stderr, status_file=status_file, status=status) as progress:
        report = ensure_world(world_dir, seed=seed, size=size, progress=progress)
    seconds = round(time.monotonic() - started, 1)
    megabytes = sum(p.stat().st_size for p in world_dir.iterdir() if p.is_file()) / 1e6
    counts = ", ".join(f"{n:,} {name}" for name, n in report.get("counts", {}).items())
    _say(f"ready in {seconds:.0f} s: {megabytes:,.0f} MB in {world_dir} ({counts or 'index rebuilt'})")
    return {"elapsed_seconds": seconds, "megabytes": round(megabytes), "stages_done": progress.seconds}


@contextlib.contextmanager
def _one_builder(world_dir: Path, status_file: Path, status: dict[str, Any]) -> Iterator[None]:
    """One build per world at a time, across processes: a second server on the same data directory
    waits for the first one's build instead of building the same world again."""
    world_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(world_dir.with_name(f"{world_dir.name}.build.lock"), "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _say(f"waiting for another process building {world_dir}")
            write_status(status_file, {**status, "stage": "waiting for another build", "percent": 0.0})
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _say(text: str) -> None:
    sys.stderr.write(f"world build: {text}\n")
    sys.stderr.flush()


def _interrupted(_signum: int, _frame: FrameType | None) -> None:
    # SIGTERM from the stopping server: unwind like Ctrl-C, so the partial build is removed.
    raise KeyboardInterrupt


def _die_with_parent(parent: int) -> None:
    """Linux: end with the server even when it is killed outright (it cannot stop this process then)."""
    end_with_parent()
    if parent and os.getppid() != parent:  # the server died before the line above took effect
        raise SystemExit(1)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m leadwire.sandbox.background")
    parser.add_argument("world_dir")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--size", required=True)
    parser.add_argument("--parent", type=int, default=0, help="the server's pid: end when it ends")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
