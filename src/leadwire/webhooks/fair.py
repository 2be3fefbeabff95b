"""Which due deliveries a worker takes into its free slots: round robin by account, then by webhook,
oldest first. A rule apart from the SQL that finds the candidates and leases the choice (`leases.py`).

One account's slow receivers must not hold up another account's events. A webhook already has at most
one delivery in flight (in order per webhook); here each free slot goes to the account holding the
fewest of this worker's slots, and an account that holds one never takes the worker's last free slot:
that one stays for an account holding none, so its event goes as it arrives instead of after another
account's slow receiver answers.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """A webhook's due head: its oldest pending delivery, due and not leased."""

    seq: int
    user_id: str
    webhook_id: str


def choose(candidates: Sequence[Candidate], held: Mapping[str, int], free: int) -> list[Candidate]:
    """Up to `free` of `candidates` (oldest first, one per webhook), given the slots each account
    already `held` on this worker: each slot to the account holding fewest (the one whose head is
    oldest among equals), that account's oldest head first; the last free slot only to an account
    holding none."""
    queues: dict[str, deque[Candidate]] = {}
    for candidate in candidates:  # accounts in the order of their oldest head
        queues.setdefault(candidate.user_id, deque()).append(candidate)
    counts = Counter({user: n for user, n in held.items() if n > 0})
    chosen: list[Candidate] = []
    while len(chosen) < free and queues:
        user = min(queues, key=lambda u: counts[u])  # the first such account in `queues`' order
        if free - len(chosen) == 1 and counts[user] > 0:
            break  # every account with due work holds a slot: the last one waits for a newcomer
        queue = queues[user]
        chosen.append(queue.popleft())
        counts[user] += 1
        if not queue:
            del queues[user]
    return chosen
