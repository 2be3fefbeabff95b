"""The error catalogue against the code and the tests: every public code is provoked and asserted by
some test, on REST and (where a tool can refuse with it) as an MCP tool error, and the source names no
code the catalogue (docs/api.md, Errors) does not hold.

Both sides are read statically, with `ast`, so a comment, a docstring or a bare mention never counts.

Asserted on REST means the code reaches the `code` argument of `assert_error(response, status, code)`
(tests/support/envelope.py), directly or through a helper of the same module that passes its own
parameter on (`_assert_envelope(*raw, 431, "code")`), as:
- a string literal;
- a name bound by a `for` over a case table, or by `pytest.mark.parametrize`: the table (a list or
  tuple literal, a local or module-level name holding one, rows of `pytest.param(...)`) gives the
  code at the name's position.
Asserted as an MCP tool error means a comparison (`==`, `in`) of such a code with `error_text(...)`,
`error_code(...)` or `refusal(...)` (the MCP helpers of tests/mcp/), or with a local name assigned from
one of them; a literal counts for its part before `:` ("invalid_request: end_date").

Raised means a code in an error-code position of src/: the first argument of `ApiError`, `ToolError`,
`error_body`, the HTTP server's `_Refused` and `error_response`, or of a module function passing its
parameter on to one (`check(ok, "code", param)`, `_refuse(code, detail)`) — a literal, a conditional of
literals, or a local name assigned those or `TABLE.get(key, default)`; `super().__init__("code")` in
an `ApiError` subclass; `errors(...)` (OpenAPI) and a job route's `error_codes=`; the values of a body
model's `missing_codes` / `invalid_codes`. Job failure codes (`JobFailure`, a finished job's
`error_code`) are another namespace, a failed job's `error.code` and not an HTTP error
(docs/api.md, Job failures), so they are not held against the catalogue.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from leadwire.platform.errors import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
SRC = ROOT / "src" / "leadwire"
MCP_HELPERS = frozenset({"error_text", "error_code", "refusal"})
# Calls whose first argument is a code: the error, the MCP tool error, the envelope and raw-socket
# forms, the HTTP server's refusal.
CODE_HOLDERS = frozenset({"ApiError", "ToolError", "_Refused", "error_body", "error_response"})
BODY_CODE_TABLES = frozenset({"missing_codes", "invalid_codes"})

# Codes no test can provoke through the public API, each with why. The checks fail when a code listed
# here gets a test or starts being raised (then it is provokable and belongs in a test instead).
UNPROVOKABLE: dict[str, str] = {
    # The catalogue lists it without a condition of its own, sent by no endpoint (docs/api.md, Errors);
    # every unsuitable account state maps to `connect_account_not_sendable` or
    # `connect_account_reconnect_required`, and nothing in src/ raises it: a reserved code.
    "connect_account_not_receivable": "reserved; no account state maps to it",
}


# Codes that have no MCP tool error, each with why; every other code must be asserted as one too.
MCP_NOT_APPLICABLE: dict[str, str] = {
    **dict.fromkeys(
        ("api_key_missing", "api_key_invalid", "api_key_expired", "api_key_revoked"),
        "checked before any tool runs: /mcp/ answers the 401 envelope (asserted with assert_error)",
    ),
    **dict.fromkeys(
        ("request_timeout", "request_header_fields_too_large", "request_payload_too_large"),
        "a transport limit, answered as an HTTP envelope before the MCP layer reads the request",
    ),
    **dict.fromkeys(
        ("idempotency_key_required", "idempotency_conflict", "idempotency_key_in_progress"),
        "MCP tools take no Idempotency-Key",
    ),
    **dict.fromkeys(
        ("account_id_required_multiple_linkedin_accounts", "action_failed"),
        "a v1 code; the like tool follows v2 (`account_id_required`; a failed like is a failed job)",
    ),
    "invalid_action": "dispatch_outreach has no `action` argument: the tool is the action",
    **dict.fromkeys(
        ("suppression_import_too_large", "suppression_import_in_progress"),
        "a CSV file is for REST, the SDK and the CLI: no MCP tool imports one",
    ),
    "not_found": "REST routing; an unknown tool is the MCP library's own protocol error",
    "method_not_allowed": "REST routing; MCP has one method, tools/call",
    "internal_error": "not an ApiError: the MCP library answers `Error executing tool <name>`, no code",
    "connect_account_not_receivable": "unprovokable (UNPROVOKABLE)",
}


class Slot(NamedTuple):
    """Where a callable takes its code: positional index, index from the last positional, keyword."""

    index: int
    from_end: int | None = None
    keyword: str = "code"


ASSERTIONS = {"assert_error": Slot(2, 0)}  # assert_error(response, status, code, *, param=None)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _strings(node: ast.expr | None) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value.split(":")[0].strip()}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


class _Module:
    """One parsed module with its module-level assignments, to resolve case tables by name."""

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        self.assigned: dict[str, ast.expr] = {}
        for node in self.tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
            value = getattr(node, "value", None)
            if isinstance(target, ast.Name) and value is not None:
                self.assigned[target.id] = value

    def rows(self, table: ast.expr, function: ast.AST | None = None) -> list[ast.expr]:
        if isinstance(table, ast.Name):
            table = _assigned_in(function, table.id) or self.assigned.get(table.id, table)
        if isinstance(table, ast.List | ast.Tuple):
            return [_unwrap_param(row) for row in table.elts]
        return []

    def column(self, table: ast.expr, index: int | None, function: ast.AST | None = None) -> set[str]:
        found: set[str] = set()
        for row in self.rows(table, function):
            if index is None:
                found |= _strings(row)
            elif isinstance(row, ast.Tuple) and index < len(row.elts):
                found |= _strings(row.elts[index])
        return found


def _assigned_in(function: ast.AST | None, name: str) -> ast.expr | None:
    """The value a function assigns to a local name (a case table written inside the test)."""
    for node in ast.walk(function) if function is not None else ():
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
    return None


def _unwrap_param(row: ast.expr) -> ast.expr:
    """`pytest.param(a, b, id=...)` is the row `(a, b)`."""
    if isinstance(row, ast.Call) and _name(row.func) == "param":
        return ast.Tuple(elts=list(row.args), ctx=ast.Load())
    return row


def _target_index(target: ast.expr, name: str) -> tuple[bool, int | None]:
    if isinstance(target, ast.Name):
        return target.id == name, None
    if isinstance(target, ast.Tuple):
        for index, element in enumerate(target.elts):
            if isinstance(element, ast.Name) and element.id == name:
                return True, index
    return False, None


def _argnames(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",")]
    if isinstance(node, ast.List | ast.Tuple):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _parametrized(function: ast.AsyncFunctionDef | ast.FunctionDef, module: _Module, name: str) -> set[str]:
    found: set[str] = set()
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Call) and _name(decorator.func) == "parametrize"):
            continue
        if len(decorator.args) < 2:
            continue
        names = _argnames(decorator.args[0])
        if name in names:
            found |= module.column(decorator.args[1], None if len(names) == 1 else names.index(name))
    return found


def _resolve(expr: ast.expr, function: ast.AST | None, module: _Module) -> set[str]:
    """The codes an expression at an assertion can hold (see the module docstring)."""
    found = _strings(expr)
    if found or not isinstance(expr, ast.Name) or function is None:
        return found
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            matches, index = _target_index(node.target, expr.id)
            if matches:
                found |= module.column(node.iter, index, function)
    if isinstance(function, ast.AsyncFunctionDef | ast.FunctionDef):
        found |= _parametrized(function, module, expr.id)
    return found


def _functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.AST]]:
    """Every node inside a function, with that function (once per enclosing function)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef):
            for inner in ast.walk(node):
                yield node, inner


def _mcp_names(function: ast.AST) -> set[str]:
    """Local names assigned the text of an MCP tool error (`text = refusal(...)`)."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _mentions_mcp_helper(node.value, set()):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _mentions_mcp_helper(expr: ast.expr, names: set[str]) -> bool:
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and _name(node.func) in MCP_HELPERS:
            return True
        if isinstance(node, ast.Name) and node.id in names:
            return True
    return False


def asserted_codes(source: str) -> tuple[set[str], set[str]]:
    """(codes asserted as REST envelopes, codes asserted as MCP tool errors) in one test module."""
    module = _Module(source)
    assertions = _helpers(module.tree, ASSERTIONS)
    rest: set[str] = set()
    mcp: set[str] = set()
    mcp_names: dict[int, set[str]] = {}
    for function, node in _functions(module.tree):
        if isinstance(node, ast.Call) and _name(node.func) in assertions:
            code = _code_argument(node, assertions)
            if code is not None:
                rest |= _resolve(code, function, module)
        if isinstance(node, ast.Compare):
            names = mcp_names.setdefault(id(function), _mcp_names(function))
            sides = [node.left, *node.comparators]
            if any(_mentions_mcp_helper(side, names) for side in sides):
                for side in sides:
                    if not _mentions_mcp_helper(side, names):
                        mcp |= _resolve(side, function, module)
    return rest, mcp


def _code_argument(call: ast.Call, holders: dict[str, Slot]) -> ast.expr | None:
    slot = holders.get(_name(call.func) or "", Slot(0))
    for keyword in call.keywords:
        if keyword.arg == slot.keyword:
            return keyword.value
    args = call.args
    starred = [i for i, a in enumerate(args) if isinstance(a, ast.Starred)]
    if not starred or starred[0] > slot.index:
        return args[slot.index] if len(args) > slot.index else None
    # `helper(*parts, 431, "code")`: the code is counted from the end when nothing is starred after it.
    if slot.from_end is not None and len(args) > slot.from_end:
        position = len(args) - 1 - slot.from_end
        if position > starred[-1]:
            return args[position]
    return None


def _helpers(tree: ast.Module, holders: dict[str, Slot]) -> dict[str, Slot]:
    """The holders plus every function of the module that passes a parameter on to one (to a fixpoint:
    a helper of a helper counts)."""
    found = dict(holders)
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    while True:
        more = {
            f.name: slot
            for f in functions
            if f.name not in found and (slot := _passes_on(f, found)) is not None
        }
        if not more:
            return found
        found |= more


def _passes_on(function: ast.FunctionDef | ast.AsyncFunctionDef, holders: dict[str, Slot]) -> Slot | None:
    parameters = [a.arg for a in function.args.args]
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and _name(node.func) in holders:
            code = _code_argument(node, holders)
            if isinstance(code, ast.Name) and code.id in parameters:
                index = parameters.index(code.id)
                return Slot(index, len(parameters) - 1 - index, code.id)
    return None


def _local_values(function: ast.AST | None, name: str, module: _Module) -> set[str]:
    """The codes a local name is assigned: literals, conditionals, or `TABLE.get(key, default)`."""
    found: set[str] = set()
    for node in ast.walk(function) if function is not None else ():
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            found |= _strings(node.value) | _table_lookup(node.value, module)
    return found


def _table_lookup(value: ast.expr, module: _Module) -> set[str]:
    if not (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"
    ):
        return set()
    table = module.assigned.get(_name(value.func.value) or "")
    found = set().union(*(_strings(v) for v in table.values)) if isinstance(table, ast.Dict) else set()
    return found.union(*(_strings(a) for a in value.args[1:]))


def _error_classes(tree: ast.Module) -> set[str]:
    """Classes of the module deriving from `ApiError` (their `super().__init__(code)` names a code)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(_name(b) in CODE_HOLDERS | found for b in node.bases):
            found.add(node.name)
    return found


def raised_codes(source: str) -> set[str]:
    """Every code one source module names in an error-code position (see the module docstring)."""
    module = _Module(source)
    holders = _helpers(module.tree, dict.fromkeys(CODE_HOLDERS, Slot(0)))
    error_classes = _error_classes(module.tree)
    enclosing = {id(node): function for function, node in _functions(module.tree)}  # innermost wins
    found: set[str] = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ClassDef) and node.name in error_classes:
            found |= _codes_of_super_init(node)
        if isinstance(node, ast.Assign | ast.AnnAssign):
            found |= _body_code_table(node)
        if isinstance(node, ast.Call):
            found |= _declared(node)
        if isinstance(node, ast.Call) and _name(node.func) in holders:
            code = _code_argument(node, holders)
            if isinstance(code, ast.Name):
                found |= _local_values(enclosing.get(id(node)), code.id, module)
            else:
                found |= _strings(code)
    return found


def _codes_of_super_init(cls: ast.ClassDef) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and _name(node.func) == "__init__" and node.args:
            found |= _strings(node.args[0])
    return found


def _body_code_table(node: ast.Assign | ast.AnnAssign) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    if any(_name(t) in BODY_CODE_TABLES for t in targets) and isinstance(node.value, ast.Dict):
        return set().union(*(_strings(v) for v in node.value.values))
    return set()


def _declared(call: ast.Call) -> set[str]:
    """Codes an OpenAPI declaration names: `errors("a", "b")`, `error_codes=("a",)`."""
    found: set[str] = set()
    if _name(call.func) == "errors":
        found = set().union(*(_strings(a) for a in call.args))
    return found.union(*(_strings_of(k.value) for k in call.keywords if k.arg == "error_codes"))


def _strings_of(node: ast.expr) -> set[str]:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return set().union(*(_strings(e) for e in node.elts))
    return _strings(node)


def _sources(root: Path, *, skip: Iterable[Path] = ()) -> Iterator[tuple[Path, str]]:
    skipped = {p.resolve() for p in skip}
    for path in sorted(root.rglob("*.py")):
        if path.resolve() not in skipped:
            yield path, path.read_text(encoding="utf-8")


def _raised_in_src() -> dict[str, list[str]]:
    raised: dict[str, list[str]] = {}
    for path, source in _sources(SRC):
        for code in raised_codes(source):
            raised.setdefault(code, []).append(str(path.relative_to(ROOT)))
    return raised


def _asserted_in_tests() -> tuple[set[str], set[str]]:
    rest: set[str] = set()
    mcp: set[str] = set()
    for _, source in _sources(TESTS, skip=[Path(__file__)]):
        module_rest, module_mcp = asserted_codes(source)
        rest, mcp = rest | module_rest, mcp | module_mcp
    return rest, mcp


def _missing(asserted: set[str], exempt: dict[str, str]) -> list[str]:
    return sorted(set(CATALOGUE) - asserted - set(exempt))


def test_every_catalogue_code_is_asserted_by_a_test_of_the_public_api() -> None:
    rest = _asserted_in_tests()[0]
    missing = _missing(rest, UNPROVOKABLE)
    assert not missing, f"catalogue codes no test asserts with assert_error(...): {missing}"
    assert not set(UNPROVOKABLE) & rest, (
        "listed as unprovokable, yet a test asserts it: drop it from the list"
    )
    assert set(UNPROVOKABLE) <= set(CATALOGUE)


def test_every_code_a_tool_can_refuse_with_is_asserted_as_an_mcp_tool_error() -> None:
    mcp = _asserted_in_tests()[1]
    missing = _missing(mcp, MCP_NOT_APPLICABLE)
    assert not missing, f"codes no test asserts as an MCP tool error: {missing}"
    assert not set(MCP_NOT_APPLICABLE) & mcp, "listed as not applicable to MCP, yet asserted there"
    assert set(MCP_NOT_APPLICABLE) <= set(CATALOGUE)


def test_the_source_names_no_code_outside_the_catalogue() -> None:
    raised = _raised_in_src()
    unknown = {code: where for code, where in raised.items() if code not in CATALOGUE}
    assert not unknown, f"codes raised but not in the catalogue: {unknown}"
    # An unprovokable code that the source starts raising has become provokable: it needs its test.
    revived = {code: where for code, where in raised.items() if code in UNPROVOKABLE}
    assert not revived, f"raised, so provokable; write its test and drop it from UNPROVOKABLE: {revived}"
    # The scan sees the codes in their usual places; seeing none would mean it is blind, not clean.
    assert set(CATALOGUE) - set(UNPROVOKABLE) <= set(raised), sorted(set(CATALOGUE) - set(raised))


SYNTHETIC_TESTS = '''
CASES = [("a", "webset_busy"), ("b", "not_a_catalogue_code")]

def envelope_of(status, body, expected, code):
    assert_error(httpx.Response(status, content=body), expected, code)

async def test_literal(client):
    # assert_error(response, 400, "attachment_invalid") in a comment does not count
    """Nor in a docstring: assert_error(response, 409, "job_already_running")."""
    assert_error(await client.get("/"), 404, "not_found")
    envelope_of(408, b"", 408, "request_timeout")
    print("webset_not_found", "api_key_expired")

async def test_loop(client):
    for case, code in CASES:
        assert_error(await client.get(case), 409, code)

@pytest.mark.parametrize(
    ("body", "code"), [({}, "webset_query_required"), pytest.param({}, "invalid_domain", id="domain")]
)
async def test_param(client, body, code):
    assert_error(await client.post("/", json=body), 400, code=code)

def test_starred(sock):
    envelope_of(*read(sock), 431, "request_header_fields_too_large")

async def test_local_table(client):
    cases = [(1, "job_already_running"), (2, "webset_not_found")]
    for number, code in cases:
        assert refusal(await call(client, {}, "get_job", n=number), "get_job").split(":")[0] == code

async def test_mcp(client):
    text = refusal(await call(client, {}, "dispatch_outreach"), "dispatch_outreach")
    assert text.split(":")[0] == "account_not_found"
    assert "invalid_request: end_date" in error_text(await call(client, {}, "customs_trends"))
    assert error_code(await call(client, {}, "get_credits")) == "api_key_rate_limit_exceeded"
    assert "internal_error" == "content_required"
'''


def test_the_test_scan_counts_assertions_only() -> None:
    rest, mcp = asserted_codes(SYNTHETIC_TESTS)
    assert rest == {
        "not_found",
        "request_timeout",
        "request_header_fields_too_large",
        "webset_busy",
        "not_a_catalogue_code",
        "webset_query_required",
        "invalid_domain",
    }
    assert mcp == {
        "job_already_running",
        "webset_not_found",
        "account_not_found",
        "invalid_request",
        "api_key_rate_limit_exceeded",
    }


def test_a_code_only_mentioned_is_reported_missing() -> None:
    rest, mcp = asserted_codes(SYNTHETIC_TESTS)
    assert {"attachment_invalid", "api_key_expired", "internal_error"} <= set(_missing(rest, UNPROVOKABLE))
    assert "content_required" in _missing(mcp, MCP_NOT_APPLICABLE)
    assert "not_found" not in _missing(rest, UNPROVOKABLE)


SYNTHETIC_SOURCE = '''
"""Docstring naming ApiError("not_a_code_either")."""
from x import ApiError, errors

if caller is None:
    raise ToolError("made_up_tool_error_code")

STATUS = {404: "made_up_table_code"}

class Body:
    missing_codes = {"query": "webset_query_required"}
    invalid_codes = {"count": "made_up_count_code"}

class TooSlow(ApiError):
    def __init__(self):
        super().__init__("made_up_subclass_code")

def check(condition, code, param):
    if not condition:
        raise tool_error(ApiError(code, param=param))

def route(version, status):
    check(False, "made_up_tool_code", "x")
    code = "account_id_required" if version >= 2 else "made_up_v1_code"
    other = STATUS.get(status, "made_up_default_code")
    log.info("made_up_log_text")
    if other:
        return error_body(other)
    raise ApiError(code, param="account_id")

router.add(responses=errors("made_up_openapi_code"), error_codes=("made_up_job_route_code",))
raise ApiError("made_up_literal_code")  # ApiError("not_in_a_comment")
'''


def test_the_source_scan_finds_every_code_position() -> None:
    assert raised_codes(SYNTHETIC_SOURCE) == {
        "made_up_tool_error_code",
        "made_up_table_code",
        "made_up_default_code",
        "webset_query_required",
        "made_up_count_code",
        "made_up_subclass_code",
        "made_up_tool_code",
        "account_id_required",
        "made_up_v1_code",
        "made_up_openapi_code",
        "made_up_job_route_code",
        "made_up_literal_code",
    }
