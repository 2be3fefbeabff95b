"""How `leadwire websets …` shows websets: item rows (shared by the table and the CSV export), the
webset and strategy blocks, and the live view of a followed webset (a progress bar of qualified items
against the goal, with the items so far). Text from the server is never read as rich markup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from leadwire.client.state import WebsetState, match_status
from leadwire.client.websets import WebsetFollow

CSV_COLUMNS = ("id", "name", "website", "industry_or_title", "match_status", "score")
LIVE_ROWS = 15  # items shown under the live progress bar (the final table shows them all)
SHOWN_UPDATES = ("snapshot", "items.changed", "reset", "complete")


def row(item: dict[str, Any]) -> dict[str, Any]:
    """The compact columns of an item: a person's profile stands in for a website, a title for an
    industry."""
    entity = item.get("entity") or {}
    website = entity.get("website") or entity.get("profile_url") or entity.get("linkedin_url")
    return {
        "id": item.get("id"),
        "name": entity.get("name"),
        "website": website,
        "industry_or_title": entity.get("industry") or entity.get("title"),
        "match_status": match_status(item),
        "score": (item.get("match") or {}).get("score"),
        "provisional": item.get("provisional"),
    }


def items_table(items: Iterable[dict[str, Any]], caption: str = "") -> Table:
    """The items, one row each; items read at detail standard or full also show each criterion's verdict
    (and, at full, why it is not a yes)."""
    shown = list(items)
    judged = any(item.get("criteria") for item in shown)
    grid = Table(caption=Text(caption), caption_justify="left")
    headers = ("Name", "Website", "Industry / Title", "Match", "Score", "Final") + (
        ("Verdicts",) if judged else ()
    )
    for header in headers:
        numeric = header in ("Score", "Final")
        width = None if numeric else 60 if header == "Verdicts" else 40
        grid.add_column(header, justify="right" if numeric else "left", max_width=width)
    for item in shown:
        cells = row(item)
        score = cells["score"]
        grid.add_row(
            *(Text(str(cells[key] or "-")) for key in ("name", "website", "industry_or_title")),
            Text(str(cells["match_status"] or "-")),
            Text(f"{float(score):.0f}" if isinstance(score, int | float) else "-"),
            Text("no" if cells["provisional"] else "yes"),
            *((Text(verdicts(item)),) if judged else ()),
        )
    return grid


def verdicts(item: dict[str, Any]) -> str:
    """One line per criterion: `industry unclear: Its industry label “Industrials” gathers …`."""
    lines = []
    for result in item.get("criteria") or []:
        line = f"{result.get('type') or 'criterion'} {result.get('verdict') or result.get('outcome') or '?'}"
        reasoning = result.get("reasoning")
        if reasoning and result.get("verdict") != "yes":
            line += f": {reasoning}"
        lines.append(line)
    return "\n".join(lines) or "-"


def progress_line(state: WebsetState, fallback: dict[str, Any] | None = None) -> str:
    """`verifying: verified 12/60, qualified 8/25 (full 5)`; `fallback` stands in before the stream
    sends progress."""
    progress = state.progress or fallback or {}
    cap = f"/{progress['verify_cap']}" if progress.get("verify_cap") else ""
    line = (
        f"{state.webset_status or progress.get('stage') or '?'}: "
        f"verified {progress.get('verified') or 0}{cap}, "
        f"qualified {progress.get('qualified') or 0}/{progress.get('goal') or '?'} "
        f"(full {progress.get('full') or 0}), {len(state.items)} items"
    )
    return line + (f", stopped: {progress['stop_reason']}" if progress.get("stop_reason") else "")


def watch(follow: WebsetFollow, console: Console, fallback: dict[str, Any] | None = None) -> WebsetState:
    """Follow to the end: a live bar and table on a terminal, one progress line per change otherwise;
    then the final table and a summary line."""
    if console.is_terminal:
        with Live(console=console, transient=True, refresh_per_second=8) as live:
            for update in follow:
                live.update(_live_view(update.state, fallback))
    else:
        for update in follow:
            if update.kind in SHOWN_UPDATES:
                console.print(Text(f"[{update.kind}] {progress_line(update.state, fallback)}"))
    state = follow.state
    console.print(items_table(state.ranked(), caption=f"{len(state.items)} items ({state.match})"))
    console.print(Text(_summary(state), style="bold"))
    return state


def _live_view(state: WebsetState, fallback: dict[str, Any] | None) -> Group:
    progress = state.progress or fallback or {}
    goal = float(progress.get("goal") or 0) or 1.0
    bar = Table.grid(padding=(0, 1))
    bar.add_row(
        ProgressBar(total=goal, completed=min(goal, float(progress.get("qualified") or 0)), width=40),
        Text(progress_line(state, fallback)),
    )
    shown = state.ranked()[:LIVE_ROWS]
    more = len(state.items) - len(shown)
    return Group(bar, items_table(shown, caption=f"and {more} more" if more > 0 else ""))


def _summary(state: WebsetState) -> str:
    parts = [f"webset {state.webset_id} {state.webset_status}", f"{len(state.items)} items"]
    if state.job:
        parts.append(f"find-more job {state.job['id']}")
    if state.resets:
        parts.append(f"{state.resets} resets")
    if state.reconnects:
        parts.append(f"{state.reconnects} reconnects")
    return ", ".join(parts)


def webset_block(webset: dict[str, Any]) -> Group:
    """A webset's name, query, status, progress, criteria and failure."""
    progress = webset.get("progress") or {}
    lines = [
        f"webset {webset['id']}  {webset.get('name') or ''}  {webset.get('status')}",
        f"  kind        {webset.get('target_kind')}",
        f"  query       {webset.get('query')}",
        f"  progress    {_progress_text(progress)}",
        f"  created at  {webset.get('created_at')}  finished at {webset.get('finished_at') or '-'}",
    ]
    if failure := webset.get("failure"):
        detail = f": {failure['detail']}" if failure.get("detail") else ""
        lines.append(f"  failure     {failure.get('code')}{detail}")
    return Group(Text("\n".join(lines)), criteria_table(webset.get("criteria") or []))


def _progress_text(progress: dict[str, Any]) -> str:
    shown = ("stage", "goal", "verify_cap", "verified", "qualified", "full", "stop_reason", "updated_at")
    return ", ".join(f"{key} {progress[key]}" for key in shown if progress.get(key) is not None)


def criteria_table(criteria: list[dict[str, Any]]) -> Table:
    grid = Table(title=Text("Criteria"))
    for header in ("Description", "Type", "Weight", "Required", "Active"):
        grid.add_column(header, max_width=70 if header == "Description" else None)
    for criterion in criteria:
        grid.add_row(
            Text(str(criterion.get("description"))),
            Text(str(criterion.get("type"))),
            Text(str(criterion.get("weight"))),
            Text("yes" if criterion.get("required") else "no"),
            Text("yes" if criterion.get("active") else "no"),
        )
    return grid


def strategy_block(snapshot: dict[str, Any]) -> Group:
    """Readiness, the criteria, and the query groups with their queries."""
    head = (
        f"webset {snapshot.get('webset_id')}  {snapshot.get('webset_status')}  "
        f"readiness {snapshot.get('readiness')} (criteria ready: {snapshot.get('criteria_ready')}, "
        f"strategy ready: {snapshot.get('strategy_ready')})"
    )
    parts: list[Any] = [Text(head), criteria_table(snapshot.get("criteria") or [])]
    strategy = snapshot.get("strategy")
    if strategy is None:
        parts.append(Text("strategy: not ready yet"))
        return Group(*parts)
    for group in strategy.get("query_groups") or []:
        parts.append(Text(f"{group.get('angle')}: {group.get('rationale')}", style="bold"))
        for query in group.get("queries") or []:
            parts.append(Text(f"  - {query.get('text')}  [{query.get('user_location') or '-'}]"))
    extra = strategy.get("additional_queries") or []
    parts.append(Text(f"{len(extra)} additional queries, {len(strategy.get('rounds') or [])} rounds"))
    return Group(*parts)


def websets_table(page: dict[str, Any]) -> Table:
    caption = f"more: --cursor {page['next_cursor']}" if page.get("has_more") else ""
    grid = Table(caption=Text(caption), caption_justify="left")
    for header in ("ID", "Name", "Kind", "Status", "Qualified", "Created"):
        grid.add_column(header, max_width=50 if header == "Name" else None)
    for webset in page.get("items") or []:
        progress = webset.get("progress") or {}
        grid.add_row(
            *(Text(str(webset.get(key))) for key in ("id", "name", "target_kind", "status")),
            Text(f"{progress.get('qualified', 0)}/{progress.get('goal', '?')}"),
            Text(str(webset.get("created_at"))),
        )
    return grid
