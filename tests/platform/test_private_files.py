"""The data directory is its user's only: created 0700, its SQLite database (with -wal and -shm) and
its secret key 0600, whatever the process's umask would give (here the usual 022, which makes files
0644 and directories 0755)."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from leadwire.config import Settings
from leadwire.platform.db import make_engine
from tests.support.processes import LEADWIRE, REPO, process_env


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


async def test_a_new_sqlite_database_and_its_wal_and_shm_are_0600(tmp_path: Path) -> None:
    path = tmp_path / "leadwire.db"
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        async with engine.begin() as connection:
            await connection.execute(text("CREATE TABLE t (x INTEGER)"))
            await connection.execute(text("INSERT INTO t VALUES (1)"))
        async with engine.connect() as connection:  # the WAL holds the write until a checkpoint
            assert (await connection.execute(text("SELECT x FROM t"))).scalar_one() == 1
            files = [path, tmp_path / "leadwire.db-wal", tmp_path / "leadwire.db-shm"]
            assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
    finally:
        await engine.dispose()


async def test_an_existing_database_readable_by_others_is_made_0600_at_start(tmp_path: Path) -> None:
    path = tmp_path / "leadwire.db"
    for name in ("leadwire.db", "leadwire.db-wal", "leadwire.db-shm"):
        (tmp_path / name).touch(mode=0o644)
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    await engine.dispose()
    assert {n: _mode(tmp_path / n) for n in ("leadwire.db", "leadwire.db-wal", "leadwire.db-shm")} == {
        "leadwire.db": 0o600,
        "leadwire.db-wal": 0o600,
        "leadwire.db-shm": 0o600,
    }


def test_the_generated_secret_key_and_its_new_data_directory_are_this_users_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh" / "var"
    key = Settings(data_dir=data_dir).resolved_secret_key
    assert key and _mode(data_dir) == 0o700 and _mode(data_dir / "secret.key") == 0o600


def test_a_secret_key_file_readable_by_others_is_made_0600(tmp_path: Path) -> None:
    from cryptography.fernet import Fernet

    (tmp_path / "secret.key").write_text(Fernet.generate_key().decode())
    assert _mode(tmp_path / "secret.key") == 0o644
    assert Settings(data_dir=tmp_path).resolved_secret_key
    assert _mode(tmp_path / "secret.key") == 0o600


def test_leadwire_migrate_creates_the_data_directory_0700_and_its_database_0600(tmp_path: Path) -> None:
    """What `leadwire serve` and `leadwire migrate` do first: the data directory, then the database."""
    data_dir = tmp_path / "var"
    env = process_env(data_dir)
    done = subprocess.run(
        [*LEADWIRE, "migrate"], env=env, cwd=REPO, capture_output=True, timeout=300, umask=0o022
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert _mode(data_dir) == 0o700
    databases = sorted(data_dir.glob("leadwire.db*"))
    assert databases and {p.name: _mode(p) for p in databases} == {p.name: 0o600 for p in databases}
