"""Request models and their validation, with the public error codes instead of pydantic's errors:
the same rules whether a body arrives over REST, as MCP tool arguments or as a job's stored payload.

A schema declares which public code a missing or invalid field maps to (`missing_codes`,
`invalid_codes`); a validator may also raise `PydanticCustomError(<public code>, ...)` directly.
Everything else is 400 `invalid_request` with `param` naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from leadwire.platform.errors import CATALOGUE, ApiError

M = TypeVar("M", bound=BaseModel)


class RequestModel(BaseModel):
    """Base of every request body: unknown fields are ignored (docs/api.md, First call)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)
    missing_codes: ClassVar[dict[str, str]] = {}
    invalid_codes: ClassVar[dict[str, str]] = {}


MAX_METADATA_KEYS = 20
# A caller's own labels on an object it creates (a webhook, an enrichment), returned as given.
Metadata = dict[Annotated[str, Field(max_length=40)], Annotated[StrictStr, Field(max_length=500)]]


def small_metadata(metadata: dict[str, str] | None) -> dict[str, str] | None:
    """A field validator: metadata holds at most `MAX_METADATA_KEYS` keys."""
    if metadata is not None and len(metadata) > MAX_METADATA_KEYS:
        raise ValueError(f"metadata holds at most {MAX_METADATA_KEYS} keys")
    return metadata


MAX_DEPTH = 32  # JSON nesting of a body: every request shape needs fewer than 10 levels
DEPTH_DETAIL = f"JSON nested deeper than {MAX_DEPTH} levels"


def check_body(raw: bytes, data: Any) -> None:
    """400 `invalid_request` for a body nested deeper than ``MAX_DEPTH`` or holding NUL text. The depth
    is measured without recursion, before anything walks the body recursively."""
    if depth_of(data) > MAX_DEPTH:
        raise ApiError("invalid_request", detail=DEPTH_DETAIL)
    reject_nul(raw, data)


def depth_of(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


NUL_DETAIL = "text must not contain NUL (U+0000) characters"


def reject_nul(raw: bytes, data: Any) -> None:
    """400 `invalid_request` naming the first field whose text holds U+0000.

    No engine stores it the same way (PostgreSQL refuses it in text and JSONB, SQLite keeps it), and no
    real name, query or message contains it, so it is refused on every face before any work starts.
    JSON can only carry it escaped, so bodies without the escape are not walked.
    """
    if b"\\u0000" in raw and (where := nul_path(data)) is not None:
        raise ApiError("invalid_request", param=where or None, detail=NUL_DETAIL)


def nul_path(value: Any, path: str = "") -> str | None:
    """The dotted path of the first string (value or key) containing NUL, or None; walked with a stack,
    so no nesting makes it recurse."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return at
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                where = f"{at}.{key}" if at else str(key)
                if "\x00" in str(key):
                    return where
                children.append((child, where))
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(reversed([(child, f"{at}.{i}" if at else str(i)) for i, child in enumerate(item)]))
    return None


def whole_number(text: str, *, high: int = 2**63 - 1) -> int | None:
    """The whole number `text` spells in ASCII digits, at most `high`; None for anything else.

    The one reading of a number a caller sent as text (a query parameter, a header, a form field).
    `str.isdigit()` also accepts "²" (which `int()` then refuses: a 500) and "١" (which `int()` reads
    as 1), and `int()` also takes " 1", "+1" and "1_000"; a number here is the digits 0-9 and nothing
    else. Its length is checked before it is converted, so no text is long enough to be slow.
    """
    if not text or not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)) or int(digits) > high:
        return None
    return int(digits)


def int_param(
    text: str, param: str, *, low: int = 0, high: int = 2**63 - 1, detail: str | None = None
) -> int:
    """`text` as a whole number from `low` to `high` (`whole_number`); else 400 `invalid_request` naming
    `param`, with `detail` or the range."""
    number = whole_number(text, high=high)
    if number is None or number < low:
        raise ApiError("invalid_request", param=param, detail=detail or f"an integer from {low} to {high}")
    return number


def _param(loc: tuple[Any, ...]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or None


def api_error_from_validation(model: type[BaseModel], exc: ValidationError) -> ApiError:
    missing_codes: dict[str, str] = getattr(model, "missing_codes", {})
    invalid_codes: dict[str, str] = getattr(model, "invalid_codes", {})
    first = exc.errors(include_url=False)[0]
    loc = tuple(first["loc"])
    param = _param(loc)
    if first["type"] in CATALOGUE:
        return ApiError(first["type"], param=param)
    field = str(loc[0]) if loc else ""
    if first["type"] == "missing" and field in missing_codes:
        return ApiError(missing_codes[field], param=param)
    if field in invalid_codes:
        # A rule of the model's own says what is wrong; pydantic's own messages would only repeat the code.
        said = str(first.get("msg", "")).removeprefix("Value error, ")[:200]
        return ApiError(
            invalid_codes[field], param=param, detail=said if first["type"] == "value_error" else None
        )
    return ApiError("invalid_request", param=param, detail=str(first.get("msg", ""))[:200] or None)


def validate(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise api_error_from_validation(model, exc) from None


def with_examples(*bodies: Any) -> ConfigDict:
    """A request model's configuration carrying the bodies OpenAPI shows as its examples."""
    return ConfigDict(json_schema_extra={"examples": list(bodies)})
