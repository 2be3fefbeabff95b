"""Every MCP tool that mirrors a REST body publishes the same rules as the REST request model: for each
field, the same enums, constants, bounds, lengths, patterns and item counts (nested objects included),
so an agent learns the limits from the schema rather than by failing."""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import BaseModel

from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.engagement.schemas import PostLikeRequest
from leadwire.keys.schemas import KeyCreate
from leadwire.outreach.schemas import DispatchRequest
from leadwire.research.schemas import ContactsRequest, PublicWebRequest
from leadwire.websets.schemas import CreateWebsetRequest, FindMoreRequest
from tests.mcp.test_mcp_server import rpc
from tests.support.accounts import AccountFactory

# Tool -> the REST request model it fills, and the model fields the tool sets itself.
TOOL_BODIES: dict[str, tuple[type[BaseModel], frozenset[str]]] = {
    "research_public_web": (PublicWebRequest, frozenset()),
    "research_contacts": (ContactsRequest, frozenset()),
    "dispatch_outreach": (DispatchRequest, frozenset({"action"})),  # always "outreach"
    "like_linkedin_post": (PostLikeRequest, frozenset()),
    "create_webset": (CreateWebsetRequest, frozenset()),
    "create_api_key": (KeyCreate, frozenset()),
    "find_more_webset": (FindMoreRequest, frozenset()),
    "customs_company_candidates": (CandidatesRequest, frozenset()),
    "customs_companies_search": (CompanySearchRequest, frozenset()),
    **{
        f"customs_{name}": (SectionRequest, frozenset())
        for name in ("counterparties", "categories", "trends", "countries", "trade_report")
    },
}
RULES = (
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "format",
    "required",
)


def rules(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The validation keywords of a schema, `$ref`s resolved and `null` alternatives dropped."""
    if "$ref" in schema:
        schema = {
            **defs[schema["$ref"].rsplit("/", 1)[-1]],
            **{k: v for k, v in schema.items() if k != "$ref"},
        }
    found = {key: schema[key] for key in RULES if key in schema}
    branches = [b for b in schema.get("anyOf", ()) if b.get("type") != "null"]
    if branches:
        found["anyOf"] = [rules(branch, defs) for branch in branches]
        if len(branches) == 1:
            found.update(found.pop("anyOf")[0])
    if "items" in schema:
        found["items"] = rules(schema["items"], defs)
    if "properties" in schema:
        found["properties"] = {name: rules(sub, defs) for name, sub in schema["properties"].items()}
    return found


async def test_every_tool_mirroring_a_rest_body_publishes_the_rest_rules(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    listed = (await rpc(client, acct.headers, "tools/list", {})).json()["result"]["tools"]
    tools = {tool["name"]: tool["inputSchema"] for tool in listed}
    assert set(TOOL_BODIES) <= set(tools)
    differences = []
    for name, (model, set_by_tool) in TOOL_BODIES.items():
        rest = model.model_json_schema()
        defs = rest.get("$defs", {})
        published = tools[name]["properties"]
        for field, schema in rest["properties"].items():
            if field in set_by_tool:
                continue
            if field not in published:
                differences.append(f"{name}: no argument {field}")
            elif rules(published[field], {}) != rules(schema, defs):
                differences.append(
                    f"{name}.{field}: MCP {rules(published[field], {})} != REST {rules(schema, defs)}"
                )
    assert differences == [], "\n".join(differences)


def test_rules_sees_nested_limits_and_drops_null_alternatives() -> None:
    # The comparison itself: a bound inside an optional nested list is seen, a nullable one unwrapped.
    schema = {
        "anyOf": [{"type": "array", "maxItems": 2, "items": {"$ref": "#/$defs/X"}}, {"type": "null"}],
        "title": "ignored",
    }
    defs = {"X": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}}}
    assert rules(schema, defs) == {"maxItems": 2, "items": {"properties": {"n": {"maximum": 9}}}}
    assert rules({"type": "array", "items": {"type": "integer"}}, {}) != rules(schema, defs)
