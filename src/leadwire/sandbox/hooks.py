"""Callbacks run when the world's contents change (after an ingest), so derived data such as the
local search index can refresh itself without the ingester knowing about it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

WorldChanged = Callable[[Path, str], None]

_callbacks: list[WorldChanged] = []
_log = logging.getLogger(__name__)


def register_world_changed(callback: WorldChanged) -> None:
    """Adds a callback(world_dir, kind) run after rows of `kind` changed; registering twice is a no-op."""
    if callback not in _callbacks:
        _callbacks.append(callback)


def unregister_world_changed(callback: WorldChanged) -> None:
    """Removes a callback added with register_world_changed (tests use this to clean up)."""
    if callback in _callbacks:
        _callbacks.remove(callback)


def notify_world_changed(world_dir: Path, kind: str) -> None:
    """Runs every registered callback; kind is companies, people, documents or posts.

    A failing callback is logged and re-raised after the others ran, so one listener cannot starve
    the rest."""
    errors: list[Exception] = []
    for callback in list(_callbacks):
        try:
            callback(Path(world_dir), kind)
        except Exception as exc:  # collected and re-raised below
            _log.exception("world-changed callback %r failed", callback)
            errors.append(exc)
    if errors:
        raise errors[0]


def on_world_changed(world_dir: Path, kind: str) -> None:
    """Alias of notify_world_changed, the name the ingester calls."""
    notify_world_changed(world_dir, kind)


def _refresh_search_index(world_dir: Path, kind: str) -> None:
    from leadwire.search.build import refresh_search_index  # numpy and the index only when needed

    refresh_search_index(world_dir, kind)


# The local search index follows the world: every ingest refreshes it before the ingest returns.
register_world_changed(_refresh_search_index)
