"""Makes a usable sandbox world: the generated tables and, on top of them, the search index.

A world rebuild replaces the whole world folder (index included), so the index is built after it.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

from leadwire.sandbox.progress import INDEX_STAGES, WORLD_STAGES, StageProgress, on_stderr
from leadwire.sandbox.store import world_is_built
from leadwire.sandbox.world import build_world
from leadwire.search.build import build_search_index
from leadwire.search.store import read_manifest


def ensure_world(
    world_dir: Path, *, seed: int, size: str, progress: bool | StageProgress, force: bool = False
) -> dict[str, Any]:
    """Build what is missing; returns what was built with its figures. `progress`: True shows it on
    stderr (bars on a terminal, else lines), False shows nothing; a `StageProgress` the caller opened
    reports every stage of both parts."""
    report: dict[str, Any] = {"world_dir": str(world_dir), "built": False, "indexed": False}
    build = force or not world_is_built(world_dir)
    shown = progress if isinstance(progress, StageProgress) else on_stderr(progress)
    shown.expect({**(WORLD_STAGES if build else {}), **INDEX_STAGES})
    with nullcontext() if shown is progress else shown:  # a caller's progress is the caller's to close
        if build:
            report.update(
                built=True, **build_world(world_dir, seed=seed, size=size, progress=shown).to_dict()
            )
        if report["built"] or read_manifest(world_dir) is None:
            stats = build_search_index(world_dir, progress=shown.stage)
            report.update(indexed=True, index=getattr(stats, "to_dict", lambda: repr(stats))())
    return report
