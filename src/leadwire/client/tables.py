"""Results printed as tables by the commands (`leadwire customs …`, `leadwire research …`)."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

# Column kinds: how a value is written and aligned.
TEXT, INT, MONEY, NUMBER, PCT, SCORE = "text", "int", "money", "number", "pct", "score"
Column = tuple[str, str, str]  # header, key of the row, kind


def cell(value: Any, kind: str) -> str:
    """A value as a table shows it: counts and money with thousands separators, money in cents."""
    if value is None:
        return "-"
    if kind == INT:
        return f"{int(value):,}"
    if kind == MONEY:
        return f"{float(value):,.2f}"
    if kind == NUMBER:
        number = float(value)
        return f"{number:,.0f}" if number.is_integer() else f"{number:,.2f}"
    if kind == PCT:
        return f"{float(value):.2f}"
    if kind == SCORE:
        return f"{float(value):.1f}"
    return str(value)


def show(
    console: Console, title: str, columns: list[Column], rows: list[dict[str, Any]], caption: str
) -> None:
    """A title line, then the rows as a table; text is never read as rich markup (names may hold
    brackets)."""
    console.print(Text(title, style="bold"))
    grid = Table(caption=Text(caption), caption_justify="left")
    for header, _, kind in columns:
        numeric = kind != TEXT
        grid.add_column(
            header, justify="right" if numeric else "left", no_wrap=numeric, max_width=None if numeric else 60
        )
    for row in rows:
        grid.add_row(*(Text(cell(row.get(key), kind)) for _, key, kind in columns))
    console.print(grid)


def show_page(
    page: dict[str, Any],
    title: str,
    columns: list[Column],
    as_json: bool,
    rows: list[dict[str, Any]] | None = None,
) -> None:
    """One page of a list command: the page as JSON, or its rows (`rows`, else its items) as a table
    whose caption says how to ask for the next page."""
    if as_json:
        print(json.dumps(page, indent=2, ensure_ascii=False))
        return
    shown = page["items"] if rows is None else rows
    more = f"; more with --cursor {page['next_cursor']}" if page.get("has_more") else ""
    show(Console(), title, columns, shown, f"{len(shown)} shown{more}")
