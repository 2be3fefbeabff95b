"""Credits: the prices of what jobs produce, and the ledger of grants, reservations and charges.

This module is the room's public face for the capabilities; settling a job's charge belongs to the
job engine (`platform/jobs/states.py`), which calls the ledger directly.
"""

from leadwire.platform.billing.ledger import (
    ENTRY_KINDS,
    BalanceView,
    EntryKind,
    LedgerEntry,
    grant,
    list_entries,
    read_balance,
)
from leadwire.platform.billing.prices import NOT_BILLABLE, NOT_METERED, per_kind, per_unit

__all__ = [
    "ENTRY_KINDS",
    "NOT_BILLABLE",
    "NOT_METERED",
    "BalanceView",
    "EntryKind",
    "LedgerEntry",
    "grant",
    "list_entries",
    "per_kind",
    "per_unit",
    "read_balance",
]
