"""Shared vocabularies: the department and seniority labels used by the sandbox world, the contacts
providers and the hierarchy inference (one list, so the world's ground truth and the inference agree)."""

from __future__ import annotations

SENIORITIES: tuple[str, ...] = ("c_level", "vp", "director", "manager", "senior", "entry")
DEPARTMENTS: tuple[str, ...] = (
    "executive",
    "engineering",
    "sales",
    "marketing",
    "finance",
    "operations",
    "hr",
    "legal",
    "product",
    "support",
    "it",
    "procurement",
)
