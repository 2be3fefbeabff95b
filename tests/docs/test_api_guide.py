"""docs/api.md, the user guide, against the code: every error code of the catalogue with its status,
every published operation mentioned, every `curl` aimed at a published operation with a body the API
accepts as written, and every response shown valid against the OpenAPI document."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from leadwire.platform.errors import CATALOGUE
from tests.support.conformance import ResponseConformance
from tests.support.openapi_doc import (
    app_without_database,
    operation_for,
    published_operations,
    request_example_problems,
)

REPO = Path(__file__).resolve().parents[2]
GUIDE = (REPO / "docs" / "api.md").read_text()
BASE_URL = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return app_without_database(tmp_path_factory.mktemp("guide"))


@pytest.fixture(scope="module")
def document(app: FastAPI) -> dict[str, Any]:
    return app.openapi()


def _section(title: str) -> str:
    start = GUIDE.index(f"\n## {title}\n")
    end = GUIDE.find("\n## ", start + 1)
    return GUIDE[start : end if end != -1 else None]


def _catalogue_rows() -> dict[str, int]:
    """`| `code` | status | ...` rows of the error catalogue, code -> status."""
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| (\d{3}) \|", _section("4. Errors"), flags=re.MULTILINE)
    return {code: int(status) for code, status in rows}


def _shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", GUIDE, flags=re.DOTALL)


def _curls() -> list[tuple[str, str, Any, bool]]:
    """(method, path, JSON body or None, refused) of every curl in the guide; a body is the
    here-document after `-d @- <<EOF`, its shell variables replaced by a placeholder value; a command
    commented `# refused` shows a body the API refuses."""
    found = []
    for block in _shell_blocks():
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            command = lines[index]
            while command.endswith("\\") and index + 1 < len(lines):
                index += 1
                command = command[:-1] + lines[index]
            index += 1
            if not command.lstrip().startswith("curl"):
                continue
            url = re.search(re.escape(BASE_URL) + r"(/[^\s\"'?]*)", command)
            assert url, f"a curl without a URL of the guide's server: {command}"
            body = None
            if "<<EOF" in command:
                end = lines.index("EOF", index)
                text = re.sub(r"\$[A-Z_]+", "acct_placeholder", "\n".join(lines[index:end]))
                body, index = json.loads(text), end + 1
            explicit = re.search(r"-X (\w+)", command)
            method = explicit.group(1) if explicit else ("POST" if body is not None else "GET")
            found.append((method, url.group(1), body, "# refused" in command))
    return found


def _responses() -> list[tuple[str, str, int, Any]]:
    """(method, path, status, JSON) of every response shown after a `<!-- response: ... -->` marker."""
    marked = re.findall(r"<!-- response: (\w+) (\S+) (\d{3}) -->\n```json\n(.*?)```", GUIDE, flags=re.DOTALL)
    return [(method, path, int(status), json.loads(body)) for method, path, status, body in marked]


def test_every_catalogue_code_is_in_the_guide_with_its_status() -> None:
    rows = _catalogue_rows()
    assert sorted(set(CATALOGUE) - set(rows)) == [], "codes missing from docs/api.md section 4"
    assert sorted(set(rows) - set(CATALOGUE)) == [], "codes in the guide the API does not have"
    assert {code: status for code, status in rows.items() if CATALOGUE[code] != status} == {}


def test_every_catalogue_row_is_the_code_s_declaration() -> None:
    """The guide's table is what the platform and each capability declare (`ErrorCode`), word for
    word: the declaration is the one place a code's status and sentences are written."""
    rows = re.findall(
        r"^\| `([a-z0-9_]+)` \| (\d{3}) \| (.*) \| (.*) \|$", _section("4. Errors"), re.MULTILINE
    )
    guide = {code: (int(status), when, remedy) for code, status, when, remedy in rows}
    declared = {
        code: (
            CATALOGUE.declared(code).status,
            CATALOGUE.declared(code).when,
            CATALOGUE.declared(code).remedy,
        )
        for code in CATALOGUE
    }
    assert {code: row for code, row in guide.items() if declared.get(code) != row} == {}
    assert [d for d in declared.values() if len(d[1]) < 15 or len(d[2]) < 10] == []


def test_every_published_operation_is_in_the_guide(document: dict[str, Any]) -> None:
    def template(path: str) -> str:
        return re.sub(r"\{[^}/]*\}", "{}", path)

    mentioned = template(GUIDE)
    missing = [f"{m} {p}" for m, p, _ in published_operations(document) if template(p) not in mentioned]
    assert missing == []


def test_every_curl_is_a_published_operation_and_its_body_is_accepted(document: dict[str, Any]) -> None:
    curls = _curls()
    assert len(curls) >= 20 and sum(body is not None for _, _, body, _ in curls) >= 12
    for method, path, body, refused in curls:
        operation = operation_for(document, method, path)
        assert operation is not None, f"{method} {path} is not a published operation"
        assert ("requestBody" in operation) == (body is not None), f"{method} {path}: body or not"
        if body is not None:
            problems = request_example_problems(document, operation, body)
            assert bool(problems) == refused, f"{method} {path}: {problems or 'accepted'}"


def test_a_misspelt_field_in_a_guide_body_would_be_caught(document: dict[str, Any]) -> None:
    operation = operation_for(document, "POST", "/api/v2/research/public-web")
    assert operation is not None
    problems = request_example_problems(document, operation, {"queries": ["q"], "searchLimit": 2})
    assert problems == ["unknown field searchLimit"]


def test_every_response_shown_conforms_to_the_document(app: FastAPI) -> None:
    responses = _responses()
    assert len(responses) >= 20
    checker = ResponseConformance(app)
    for method, path, status, body in responses:
        request = httpx.Request(method, BASE_URL + path)
        checker.check(httpx.Response(status, json=body, request=request))
    assert checker.checked == len(responses), "a response shown for an operation that is not published"
    assert checker.failures == []


def test_a_response_with_a_wrong_result_would_be_caught(app: FastAPI) -> None:
    method, path, status, body = next(r for r in _responses() if r[3].get("item", {}).get("result"))
    body["item"]["result"] = {"unexpected": True}
    checker = ResponseConformance(app)
    checker.check(httpx.Response(status, json=body, request=httpx.Request(method, BASE_URL + path)))
    assert checker.failures


def test_the_readme_links_the_guide() -> None:
    assert "docs/api.md" in (REPO / "README.md").read_text()
