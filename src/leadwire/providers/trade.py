"""The trade store port: aggregates over customs shipment records, with one set of query plans.

Both adapters (`trade_duckdb`: the embedded world file; `trade_postgres`: a table in PostgreSQL) run
the SQL built here, written in the dialect the two engines share (`$n` parameters, `date_trunc`,
`left`, `ILIKE ... ESCAPE`, window aggregates), so a question gets the same rows from either. An
adapter only says how to execute a plan (`_fetch`) and which table holds the rows.

Record semantics (docs/api.md, Customs trade data): `catalog` picks the record directory — imports
are the rows the importing country declared (`in_imports`), exports those the exporting country
declared (`in_exports`). `company_role` is the side of the target company in those rows; a cross pair
(exporter in imports, importer in exports) simply reads the target's side from the other directory.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

Role = Literal["importer", "exporter"]
Catalog = Literal["imports", "exports"]
PeriodUnit = Literal["months", "quarters", "years"]
CompanySort = Literal["trade_count", "amount_usd", "quantity", "weight"]

OTHER_SIDE: dict[Role, Role] = {"importer": "exporter", "exporter": "importer"}
_TRUNC_UNIT = {"months": "month", "quarters": "quarter", "years": "year"}
_SORT_COLUMN = {
    "trade_count": "trade_count",
    "amount_usd": "amount_usd",
    "quantity": "quantity",
    "weight": "weight_kg",
}
# The country a target company's goods come from (as importer) or go to (as exporter).
_PARTNER_COUNTRY: dict[Role, str] = {"importer": "origin_country3", "exporter": "destination_country3"}
CATEGORY_DIGITS = 6  # categories group by HS subheading, the most detailed internationally shared level


class TradeStoreError(Exception):
    """The trade data cannot be read (no data loaded, database down); `code` is the job's error code."""

    def __init__(self, detail: str, code: str = "trade_data_unavailable") -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class TradeFilters:
    hs_code: str | None = None  # a prefix: chapter, heading, subheading or national code
    product_description: str | None = None  # a case-insensitive substring
    origin_country: str | None = None  # alpha-3
    destination_country: str | None = None  # alpha-3


@dataclass(frozen=True)
class TradeScope:
    """Which records a question reads: a directory, a date range (inclusive) and optional filters."""

    catalog: Catalog
    start: date
    end: date
    filters: TradeFilters = field(default_factory=TradeFilters)


@dataclass(frozen=True)
class Group:
    """One aggregated row: its key values and the measures summed over its records."""

    key: tuple[Any, ...]
    trade_count: int
    amount_usd: float
    weight_kg: float
    quantity: float
    company_count: int | None = None


@dataclass(frozen=True)
class GroupPage:
    groups: list[Group]
    total: int  # groups over all pages
    amount_usd: float  # over all groups: the denominator of each row's share


@dataclass(frozen=True)
class NameCount:
    """How often one company (name, country, id) appears on one side of one directory in a range."""

    name: str
    country3: str
    company_id: str | None
    trade_count: int


@dataclass(frozen=True)
class TradingCompany:
    """One company on one side of the records in scope, with its totals: a trade-seeded list's candidate."""

    name: str
    country3: str
    trade_count: int
    amount_usd: float
    last_shipment: date


@dataclass(frozen=True)
class Partner:
    """One counterparty of a company in scope: who it is and what they traded."""

    name: str
    country3: str
    trade_count: int
    amount_usd: float


class _Sql:
    """Collects conditions and their `$n` parameters."""

    def __init__(self) -> None:
        self.conditions: list[str] = []
        self.params: list[Any] = []

    def param(self, value: Any) -> str:
        self.params.append(value)
        return f"${len(self.params)}"

    def where(self, condition: str) -> None:
        self.conditions.append(condition)

    def scope(self, scope: TradeScope) -> None:
        self.where("in_imports" if scope.catalog == "imports" else "in_exports")
        self.where(f"date BETWEEN {self.param(scope.start)} AND {self.param(scope.end)}")
        f = scope.filters
        if f.hs_code:
            self.where(f"hs_code LIKE {self.param(f.hs_code + '%')}")
        if f.product_description:
            self.where(
                f"product_description ILIKE {self.param(_contains(f.product_description))} ESCAPE '\\'"
            )
        if f.origin_country:
            self.where(f"origin_country3 = {self.param(f.origin_country)}")
        if f.destination_country:
            self.where(f"destination_country3 = {self.param(f.destination_country)}")

    @property
    def clause(self) -> str:
        return " AND ".join(self.conditions)


def _contains(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@dataclass(frozen=True)
class _Grouping:
    keys: tuple[str, ...]  # SQL expressions, aliased k0, k1, ...
    order: str  # ORDER BY over the aliases
    distinct_companies: str | None = None  # the column whose distinct values make company_count


def _measures(grouping: _Grouping) -> str:
    companies = (
        f", COUNT(DISTINCT {grouping.distinct_companies}) AS company_count"
        if grouping.distinct_companies
        else ""
    )
    return (
        "COUNT(*) AS trade_count, SUM(amount_usd) AS amount_usd, SUM(weight_kg) AS weight_kg, "
        f"SUM(quantity) AS quantity{companies}"
    )


class TradeStore(ABC):
    """The questions customs asks of shipment records; subclasses execute the shared plans."""

    table: str

    @abstractmethod
    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Run one plan; raise TradeStoreError when the data cannot be read."""

    @abstractmethod
    async def company_names(self, role: Role) -> list[str]:
        """Every distinct name on one side of the records, for candidates (cached by the adapter)."""

    async def close(self) -> None:
        return None

    def table_of(self, role: Role) -> str:
        """The table laid out for questions about one company on side `role` (its rows found without
        reading the others'): the shipments table unless the store keeps a copy ordered for that side."""
        return self.table

    # -- the questions -------------------------------------------------------------------------

    async def companies(
        self,
        role: Role,
        scope: TradeScope,
        *,
        sort_by: CompanySort,
        descending: bool,
        page: int,
        page_size: int,
    ) -> GroupPage:
        """Companies on one side of the matching records (`companies/search`)."""
        direction = "DESC" if descending else "ASC"
        grouping = _Grouping(
            keys=(f"{role}_name", f"{role}_country3"),
            order=f"{_SORT_COLUMN[sort_by]} {direction}, k0 ASC, k1 ASC",
        )
        return await self._group_page(grouping, None, scope, page, page_size)

    async def counterparties(
        self, company: str, role: Role, scope: TradeScope, *, page: int, page_size: int
    ) -> GroupPage:
        other = OTHER_SIDE[role]
        grouping = _Grouping(
            keys=(f"{other}_name", f"{other}_country3"),
            order="amount_usd DESC, trade_count DESC, k0 ASC, k1 ASC",
        )
        return await self._group_page(grouping, (role, company), scope, page, page_size)

    async def categories(
        self, company: str, role: Role, scope: TradeScope, *, page: int, page_size: int
    ) -> GroupPage:
        grouping = _Grouping(
            keys=(f"left(hs_code, {CATEGORY_DIGITS})",),
            order="amount_usd DESC, trade_count DESC, k0 ASC",
            distinct_companies=f"{OTHER_SIDE[role]}_name",
        )
        return await self._group_page(grouping, (role, company), scope, page, page_size)

    async def countries(
        self, company: str, role: Role, scope: TradeScope, *, page: int, page_size: int
    ) -> GroupPage:
        grouping = _Grouping(
            keys=(_PARTNER_COUNTRY[role],),
            order="amount_usd DESC, trade_count DESC, k0 ASC",
            distinct_companies=f"{OTHER_SIDE[role]}_name",
        )
        return await self._group_page(grouping, (role, company), scope, page, page_size)

    async def periods(self, company: str, role: Role, scope: TradeScope, unit: PeriodUnit) -> list[Group]:
        """Every period with records, oldest first; the key is the period's first day."""
        sql = _Sql()
        sql.where(f"{role}_name = {sql.param(company)}")
        sql.scope(scope)
        grouping = _Grouping(
            keys=(f"date_trunc('{_TRUNC_UNIT[unit]}', CAST(date AS TIMESTAMP))",),
            order="k0 ASC",
            distinct_companies=f"{OTHER_SIDE[role]}_name",
        )
        rows = await self._fetch(
            f"SELECT {grouping.keys[0]} AS k0, {_measures(grouping)} "
            f"FROM {self.table_of(role)} WHERE {sql.clause} GROUP BY k0 ORDER BY k0",
            sql.params,
        )
        return [_group(row[:1], row[1:]) for row in rows]

    async def name_counts(
        self, role: Role, scope: TradeScope, names: Sequence[str], countries: Sequence[str] = ()
    ) -> list[NameCount]:
        """Record counts of the given names on one side, per (name, country, company id)."""
        if not names:
            return []
        sql = _Sql()
        sql.scope(scope)
        sql.where(f"{role}_name IN ({', '.join(sql.param(n) for n in names)})")
        if countries:
            sql.where(f"{role}_country3 IN ({', '.join(sql.param(c) for c in countries)})")
        rows = await self._fetch(
            f"SELECT {role}_name, {role}_country3, {role}_id, COUNT(*) FROM {self.table_of(role)} "
            f"WHERE {sql.clause} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            sql.params,
        )
        return [NameCount(name, country, company_id, int(count)) for name, country, company_id, count in rows]

    async def trading_companies(
        self,
        role: Role,
        scope: TradeScope,
        countries: Sequence[str],
        *,
        min_trade_count: int,
        offset: int,
        limit: int,
    ) -> list[TradingCompany]:
        """Companies on side `role` of the records in scope, located in one of `countries`, with at least
        `min_trade_count` records: most records first (then value, name, country), a stable order a
        reader can page through by offset."""
        sql = self._trading(role, scope, countries)
        having = sql.param(min_trade_count)
        limit_at, offset_at = sql.param(limit), sql.param(offset)
        rows = await self._fetch(
            f"SELECT {role}_name AS k0, {role}_country3 AS k1, COUNT(*) AS trade_count, "
            f"SUM(amount_usd) AS amount_usd, MAX(date) AS last_day FROM {self.table} WHERE {sql.clause} "
            f"GROUP BY k0, k1 HAVING COUNT(*) >= {having} "
            f"ORDER BY trade_count DESC, amount_usd DESC, k0 ASC, k1 ASC LIMIT {limit_at} OFFSET {offset_at}",
            sql.params,
        )
        return [
            TradingCompany(name, country, int(count), float(usd or 0.0), _plain(last))
            for name, country, count, usd, last in rows
        ]

    async def trading_company_count(
        self, role: Role, scope: TradeScope, countries: Sequence[str], *, min_trade_count: int
    ) -> int:
        """How many companies `trading_companies` gives over all its pages."""
        sql = self._trading(role, scope, countries)
        having = sql.param(min_trade_count)
        rows = await self._fetch(
            f"SELECT COUNT(*) FROM (SELECT {role}_name FROM {self.table} WHERE {sql.clause} "
            f"GROUP BY {role}_name, {role}_country3 HAVING COUNT(*) >= {having}) AS g",
            sql.params,
        )
        return int(rows[0][0]) if rows else 0

    async def top_partners(
        self, role: Role, scope: TradeScope, companies: Sequence[tuple[str, str]], per_company: int
    ) -> dict[tuple[str, str], list[Partner]]:
        """Each company's (name, country3) largest counterparties by value in scope, at most `per_company`."""
        if not companies:
            return {}
        other = OTHER_SIDE[role]
        sql = _Sql()
        sql.scope(scope)
        names = sorted({name for name, _ in companies})
        sql.where(f"{role}_name IN ({', '.join(sql.param(n) for n in names)})")
        most = sql.param(per_company)
        rows = await self._fetch(
            f"SELECT c0, c1, k0, k1, trade_count, amount_usd FROM ("
            f"SELECT {role}_name AS c0, {role}_country3 AS c1, {other}_name AS k0, {other}_country3 AS k1, "
            f"COUNT(*) AS trade_count, SUM(amount_usd) AS amount_usd, ROW_NUMBER() OVER ("
            f"PARTITION BY {role}_name, {role}_country3 "
            f"ORDER BY SUM(amount_usd) DESC, COUNT(*) DESC, {other}_name, {other}_country3) AS place "
            f"FROM {self.table_of(role)} WHERE {sql.clause} "
            f"GROUP BY {role}_name, {role}_country3, {other}_name, {other}_country3) AS ranked "
            f"WHERE place <= {most} ORDER BY c0, c1, place",
            sql.params,
        )
        wanted = set(companies)
        found: dict[tuple[str, str], list[Partner]] = {company: [] for company in companies}
        for name, country, partner, partner_country, count, usd in rows:
            if (name, country) in wanted:
                found[(name, country)].append(Partner(partner, partner_country, int(count), float(usd or 0)))
        return found

    def _trading(self, role: Role, scope: TradeScope, countries: Sequence[str]) -> _Sql:
        sql = _Sql()
        sql.scope(scope)
        if countries:
            sql.where(f"{role}_country3 IN ({', '.join(sql.param(c) for c in countries)})")
        return sql

    # -- the shared plan ---------------------------------------------------------------------

    async def _group_page(
        self,
        grouping: _Grouping,
        company: tuple[Role, str] | None,
        scope: TradeScope,
        page: int,
        page_size: int,
    ) -> GroupPage:
        sql = _Sql()
        table = self.table
        if company is not None:
            role, name = company
            sql.where(f"{role}_name = {sql.param(name)}")
            table = self.table_of(role)
        sql.scope(scope)
        keys = ", ".join(f"{expr} AS k{i}" for i, expr in enumerate(grouping.keys))
        aliases = ", ".join(f"k{i}" for i in range(len(grouping.keys)))
        grouped = f"SELECT {keys}, {_measures(grouping)} FROM {table} WHERE {sql.clause} GROUP BY {aliases}"
        limit, offset = sql.param(page_size), sql.param((page - 1) * page_size)
        rows = await self._fetch(
            f"WITH g AS ({grouped}) SELECT *, COUNT(*) OVER () AS total_groups, "
            f"SUM(amount_usd) OVER () AS total_usd FROM g ORDER BY {grouping.order} "
            f"LIMIT {limit} OFFSET {offset}",
            sql.params,
        )
        width = len(grouping.keys)
        measures = 5 if grouping.distinct_companies else 4
        if rows:
            total, usd = rows[0][width + measures], rows[0][width + measures + 1]
            groups = [_group(row[:width], row[width : width + measures]) for row in rows]
            return GroupPage(groups, int(total), float(usd or 0.0))
        # Past the last page the window has no row to ride on: count the groups on their own.
        counted = await self._fetch(
            f"WITH g AS ({grouped}) SELECT COUNT(*), SUM(amount_usd) FROM g", sql.params[:-2]
        )
        total, usd = counted[0] if counted else (0, 0.0)
        return GroupPage([], int(total or 0), float(usd or 0.0))


def _group(key: Sequence[Any], measures: Sequence[Any]) -> Group:
    count, usd, weight, quantity, *companies = measures
    return Group(
        key=tuple(_plain(k) for k in key),
        trade_count=int(count),
        amount_usd=float(usd or 0.0),
        weight_kg=float(weight or 0.0),
        quantity=float(quantity or 0.0),
        company_count=int(companies[0]) if companies else None,
    )


def _plain(value: Any) -> Any:
    # date_trunc gives a DATE in one engine and a TIMESTAMP in the other: a period is a day.
    return value.date() if isinstance(value, datetime) else value
