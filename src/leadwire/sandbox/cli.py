"""Command line for the sandbox world: `sandbox build` generates it, `ingest <kind> FILE` loads your own
rows into it. Both print one JSON line on stdout; progress and errors go to stderr."""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from leadwire.sandbox.ingest import IngestReport

# The world modules (numpy, duckdb, the encoder) load inside the commands: every `leadwire` command
# imports this module to mount its sub-commands.

sandbox_app = typer.Typer(no_args_is_help=True, help="Build the offline sandbox world.")
ingest_app = typer.Typer(
    no_args_is_help=True, help="Ingest your own companies, people, documents, posts or customs shipments."
)


class Size(StrEnum):
    small = "small"
    default = "default"
    large = "large"


def _data_dir(value: Path | None) -> Path:
    return value if value is not None else Path(os.environ.get("LEADWIRE_DATA_DIR") or "./var")


def _emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")


DataDir = typer.Option(None, "--data-dir", help="Data directory (default: $LEADWIRE_DATA_DIR or ./var).")


@sandbox_app.command("build")
def build(
    seed: int = typer.Option(7, "--seed", help="Random seed; the same seed and size give the same world."),
    size: Size = typer.Option(Size.default, "--size", help="small (tests), default, or large (benchmarks)."),
    data_dir: Path | None = DataDir,
    force: bool = typer.Option(False, "--force", help="Rebuild even if a world is already there."),
    progress: bool = typer.Option(
        True,
        "--progress/--no-progress",
        help="Show progress on stderr: bars on a terminal, else one line per step with elapsed times.",
    ),
) -> None:
    """Generate the deterministic sandbox world into <data-dir>/world, then its search index."""
    from leadwire.sandbox.progress import announcement
    from leadwire.sandbox.setup import ensure_world
    from leadwire.sandbox.store import read_meta, world_is_built

    world_dir = _data_dir(data_dir) / "world"
    if world_is_built(world_dir) and not force:
        meta = read_meta(world_dir)
        report = ensure_world(world_dir, seed=seed, size=size.value, progress=progress)
        _emit(
            {
                **report,
                "reason": "already built (use --force to rebuild)",
                "seed": int(meta["seed"]) if meta.get("seed") else None,
                "size": meta.get("size"),
                "counts": json.loads(meta.get("counts", "{}")),
            }
        )
        return
    if progress:
        sys.stderr.write(f"world build: {announcement(world_dir, seed=seed, size=size.value)}\n")
    _emit(ensure_world(world_dir, seed=seed, size=size.value, progress=progress, force=True))


def _ingest(kind: str, file: Path, data_dir: Path | None) -> None:
    from leadwire.sandbox.ingest import ingest

    emit_ingest_report(ingest(_data_dir(data_dir) / "world", kind, file), file)


def emit_ingest_report(report: IngestReport, file: Path) -> None:
    """The report as one JSON line on stdout; if rejected, one stderr line per error and exit code 1."""
    _emit(report.to_dict())
    if not report.accepted:
        for err in report.errors:
            where = f"line {err.line}" + (f", field {err.field}" if err.field else "")
            sys.stderr.write(f"{file}: {where}: {err.message}\n")
        if more := getattr(report, "errors_truncated", 0):
            sys.stderr.write(f"{file}: {more} more errors not listed\n")
        raise typer.Exit(code=1)


FileArg = typer.Argument(..., help="A .jsonl/.ndjson or .csv file.", exists=False)

# `ingest <kind> FILE`, one command per kind of world row (`sandbox.ingest.KINDS`), with its help line.
_INGEST_COMMANDS = {
    "companies": "Upsert companies by domain.",
    "people": "Upsert people by LinkedIn profile URL.",
    "documents": "Upsert web documents by URL.",
    "posts": "Upsert LinkedIn posts by URL.",
}


def _ingest_command(kind: str, help_line: str) -> None:
    def command(file: Path = FileArg, data_dir: Path | None = DataDir) -> None:
        _ingest(kind, file, data_dir)

    ingest_app.command(kind, help=help_line)(command)


for _kind, _help_line in _INGEST_COMMANDS.items():
    _ingest_command(_kind, _help_line)


@ingest_app.command("convert")
def convert_companies(
    file: Path = typer.Argument(..., help="A .jsonl file of loose company records."),
    out: Path = typer.Option(..., "--out", help="Directory for companies.jsonl and documents.jsonl."),
) -> None:
    """Turn a loose company list into ingest files: companies and their company pages.

    Then: `leadwire ingest companies OUT/companies.jsonl` and `leadwire ingest documents
    OUT/documents.jsonl`.
    """
    from leadwire.sandbox.convert import convert_file

    if not file.is_file():
        sys.stderr.write(f"{file}: no such file\n")
        raise typer.Exit(code=1)
    conversion = convert_file(file)
    companies, documents = conversion.write(out)
    _emit(
        {
            "companies": len(conversion.companies),
            "documents": len(conversion.documents),
            "skipped": [{"line": line, "reason": reason} for line, reason in conversion.skipped],
            "files": [str(companies), str(documents)],
        }
    )
