"""A data directory holding only what an operator ingested — no generated world — served by `leadwire
api` + `leadwire worker` processes: public-web search answers from the ingested pages and customs from
the ingested shipments."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.processes import LEADWIRE, REPO, free_port, leadwire_process, process_env, wait_ready
from tests.support.trade import ACME, OSAKA, write_csv

pytestmark = pytest.mark.e2e

COMPANIES = [
    {"domain": "alpine-valves.example", "name": "Alpine Valves AG", "country": "CH", "country3": "CHE"},
    {"domain": "fjord-fish.example", "name": "Fjord Fish AS", "country": "NO"},
]
DOCUMENTS = [
    {
        "url": "https://alpine-valves.example/",
        "category": "company",
        "title": "Alpine Valves AG — industrial valves from Switzerland",
        "text": "Alpine Valves designs stainless steel industrial valves for chemical plants in Switzerland.",
        "company_domain": "alpine-valves.example",
        "country": "CH",
    },
    {
        "url": "https://fjord-fish.example/",
        "category": "company",
        "title": "Fjord Fish — Norwegian salmon exporter",
        "text": "Fjord Fish farms and exports Atlantic salmon from Norway.",
        "company_domain": "fjord-fish.example",
        "country": "NO",
    },
]

# A company list as people compile it, turned into ingest files by `leadwire ingest convert`.
COMPANY_LIST = [
    {
        "name": "Helvetia Aromen AG",
        "country_or_hq": "Basel, Switzerland",
        "industries": ["Chemicals", "Materials"],
        "website": "www.helvetia-aromen.example",
        "products": "Flavours and fragrances",
        "employees": "16,800 (2024)",
        "founded": "1895 ; 131 years ago",
    },
    {
        "name": "Lone Star Specialty Chemicals",
        "headquarters": "Houston, Texas , U.S.",
        "industries": ["Chemicals"],
        "website": "lonestar-chem.example",
    },
    {"name": "Rheinische Kreditbank", "country_or_hq": "Frankfurt", "industries": ["Banks"]},
]


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _cli(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run([*LEADWIRE, *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_an_ingested_only_world_is_searchable_and_queryable_through_processes(tmp_path: Path) -> None:
    env = process_env(tmp_path / "var")
    assert _cli(env, "ingest", "companies", str(_jsonl(tmp_path / "companies.jsonl", COMPANIES)))["accepted"]
    assert _cli(env, "ingest", "documents", str(_jsonl(tmp_path / "documents.jsonl", DOCUMENTS)))["accepted"]
    assert _cli(env, "ingest", "shipments", str(write_csv(tmp_path / "shipments.csv")))["accepted"]
    converted = _cli(
        env,
        "ingest",
        "convert",
        str(_jsonl(tmp_path / "list.jsonl", COMPANY_LIST)),
        "--out",
        str(tmp_path / "c"),
    )
    assert converted["companies"] == 3 and converted["skipped"] == []
    assert _cli(env, "ingest", "companies", str(tmp_path / "c" / "companies.jsonl"))["accepted"]
    assert _cli(env, "ingest", "documents", str(tmp_path / "c" / "documents.jsonl"))["accepted"]
    subprocess.run([*LEADWIRE, "migrate"], env=env, cwd=REPO, capture_output=True, check=True)
    user = _cli(
        env, "admin", "user", "create", "--email", "ops@x.example", "--plan", "pro", "--credits", "500"
    )
    key = _cli(env, "admin", "key", "create", "--user", str(user["user_id"]))
    headers = {"Authorization": f"Bearer {key['key']}", "Prefer": "wait=30"}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (
        leadwire_process(["api", "--port", str(port)], env, tmp_path / "api.log") as api,
        leadwire_process(["worker"], env, tmp_path / "worker.log"),
    ):
        wait_ready(base, api, tmp_path / "api.log")
        with httpx.Client(base_url=base, timeout=60) as http:
            search = http.post(
                "/api/v2/research/public-web",
                json={"queries": ["salmon exporter Norway"], "search_limit": 2},
                headers=headers,
            )
            job = search.json()["item"]
            assert search.status_code == 200 and job["status"] == "succeeded", search.text
            urls = [s["url"] for s in job["result"]["results"][0]["sources"]]
            assert urls[0] == "https://fjord-fish.example/"
            places = http.post(
                "/api/v2/research/public-web",
                json={"queries": ["chemical companies in Switzerland", "German banks"], "search_limit": 5},
                headers=headers,
            )
            results = places.json()["item"]["result"]["results"]
            swiss, german = ([s["url"] for s in r["sources"]] for r in results)
            # The place filters (no Houston chemicals), the industry bridges (no word "chemical" needed).
            assert (
                swiss[0] == "https://helvetia-aromen.example/"
                and "https://lonestar-chem.example/" not in swiss
            )
            assert german == ["https://rheinische-kreditbank.example/"]
            partners = http.post(
                "/api/v2/customs/counterparties",
                json={
                    "company_name": ACME,
                    "company_role": "importer",
                    "start_date": "2024-01-01",
                    "end_date": "2024-12-31",
                },
                headers=headers,
            )
            rows = partners.json()["item"]["result"]["data"]["items"]
            assert partners.status_code == 200 and rows[0]["name"] == OSAKA, partners.text
