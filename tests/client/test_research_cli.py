"""`leadwire research …` and `leadwire jobs …` against the real app served on loopback over the small
sandbox world: the results printed as tables or JSON, a job read, waited for and cancelled, and an
API error on stderr with exit code 1."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from leadwire.cli import app
from leadwire.client import Leadwire
from leadwire.config import Settings
from tests.support.served import Served, served_app
from tests.support.world_rows import company_with_people


def runner(served: Served) -> Callable[..., Result]:
    """`leadwire ARGS…` against `served`, its key and address from the environment as a user sets them."""
    env = {"LEADWIRE_API_URL": served.base_url, "LEADWIRE_API_KEY": served.key, "COLUMNS": "200"}
    return lambda *args: CliRunner().invoke(app, list(args), env=env)


async def test_research_commands_print_sources_and_contacts(
    world_settings: Settings, indexed_world: Path
) -> None:
    company = company_with_people(indexed_world)
    async with served_app(world_settings) as served:
        run = runner(served)

        def commands() -> dict[str, Result]:
            return {
                "web": run("research", "public-web", company["name"], "--search-limit", "3"),
                "web_json": run(
                    "research", "public-web", company["name"], "news", "--category", "news", "--json"
                ),
                "contacts": run("research", "contacts", company["domain"], "--limit", "5"),
                "contacts_json": run("research", "contacts", company["domain"], "--json"),
                "bad": run("research", "contacts", "not a domain"),
                "three_queries": run("research", "public-web", "a", "b", "c"),
            }

        results = await asyncio.to_thread(commands)

    for name in ("web", "web_json", "contacts", "contacts_json"):
        assert results[name].exit_code == 0, (name, results[name].output)
    web = results["web"].stdout
    assert f"Sources for {company['name']!r}" in web and "https://" in web and "credits charged" in web
    printed = json.loads(results["web_json"].stdout)
    assert printed["queries"] == [company["name"], "news"] and len(printed["results"]) == 2
    assert all(source["url"] for found in printed["results"] for source in found["sources"])

    contacts = json.loads(results["contacts_json"].stdout)
    assert contacts["domain"] == company["domain"] and contacts["contacts"]
    table = results["contacts"].stdout
    people = [node for node in contacts["nodes"] if node["kind"] == "person"]
    assert f"Contacts of {contacts['company_name']} ({company['domain']})" in table
    assert people[0]["name"] in table and contacts["note"][:40] in table

    for name, refusal in (("bad", "invalid_domain (domain)"), ("three_queries", "invalid_request (queries)")):
        assert results[name].exit_code == 1 and results[name].stdout == ""
        assert f"error: 400 {refusal}" in results[name].stderr, results[name].stderr


async def test_jobs_commands_read_wait_for_and_cancel_a_job(world_settings: Settings) -> None:
    async with served_app(world_settings, worker=False) as served:  # jobs stay queued
        run = runner(served)

        def commands() -> dict[str, Result]:
            with Leadwire(served.key, served.base_url) as lw:
                job = lw.public_web(["industrial robots"], search_limit=2)
            return {
                "get": run("jobs", "get", job["id"], "--json"),
                "wait_out": run("jobs", "wait", job["id"], "--timeout", "1"),
                "cancel": run("jobs", "cancel", job["id"]),
                "after": run("jobs", "get", job["id"], "--json"),
                "wait": run("jobs", "wait", job["id"]),
                "missing": run("jobs", "get", "job_missing"),
            }

        results = await asyncio.to_thread(commands)

    queued = json.loads(results["get"].stdout)
    assert results["get"].exit_code == 0 and queued["status"] == "queued"
    assert results["wait_out"].exit_code == 1 and "error:" in results["wait_out"].stderr
    assert results["cancel"].exit_code == 0 and f"job {queued['id']}" in results["cancel"].stdout
    assert "cancelled" in results["cancel"].stdout
    assert json.loads(results["after"].stdout)["status"] == "cancelled"
    assert results["wait"].exit_code == 1 and "cancelled" in results["wait"].stdout  # shown, not succeeded
    assert results["missing"].exit_code == 1 and "error: 404 task_not_found" in results["missing"].stderr
