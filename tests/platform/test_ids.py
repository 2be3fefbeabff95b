"""Identifiers: prefixed ULIDs, time-ordered, unguessable, never repeated, also across a fork."""

from __future__ import annotations

import os
import re
import threading

import pytest

from leadwire.platform.ids import new_id

ULID = re.compile(r"^job_[0-9abcdefghjkmnpqrstvwxyz]{26}$")


def test_an_id_is_its_prefix_and_a_ulid() -> None:
    assert ULID.match(new_id("job"))
    with pytest.raises(ValueError):
        new_id("nope")


def test_ids_do_not_repeat_across_pool_refills_and_threads() -> None:
    made: list[str] = []

    def make() -> None:
        made.extend(new_id("job") for _ in range(2_000))  # several refills of the random pool each

    threads = [threading.Thread(target=make) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == len(set(made)) == 8_000


def test_a_forked_child_does_not_reuse_the_parents_random_bits() -> None:
    new_id("job")  # the pool holds bits a child must not use as well
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child process
        os.write(write, ",".join(new_id("job") for _ in range(50)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read) as pipe:
        theirs = pipe.read().split(",")
    ours = [new_id("job") for _ in range(50)]
    # Same millisecond or not, the 80 random bits of the two processes' ids differ.
    assert not {i[-16:] for i in ours} & {i[-16:] for i in theirs}
