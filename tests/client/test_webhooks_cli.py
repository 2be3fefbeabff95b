"""`leadwire webhooks …` against the real app on loopback: register (the secret printed once), list,
read, change, rotate, read the log, retry and delete; an API error on stderr with exit code 1."""

from __future__ import annotations

import asyncio
import json

from click.testing import Result

from leadwire.config import Settings
from tests.client.test_research_cli import runner
from tests.support.served import served_app

URL = "https://hooks.leadwire-receiver.test/cli"


async def test_webhook_commands_manage_a_webhook_end_to_end(settings: Settings) -> None:
    async with served_app(settings, worker=False) as served:
        run = runner(served)

        def commands() -> dict[str, Result]:
            created = run(
                "webhooks", "create", URL, "--event", "job.succeeded", "--description", "crm", "--json"
            )
            hook = json.loads(created.stdout)["id"] if created.exit_code == 0 else "wh_x"
            return {
                "created": created,
                "plain": run("webhooks", "create", URL),
                "list": run("webhooks", "list"),
                "get": run("webhooks", "get", hook),
                "update": run("webhooks", "update", hook, "--status", "disabled", "--event", "*", "--json"),
                "rotate": run("webhooks", "rotate-secret", hook),
                "log": run("webhooks", "deliveries", hook, "--status", "failed"),
                "retry": run("webhooks", "retry", hook, "whd_missing"),
                "delete": run("webhooks", "delete", hook),
                "gone": run("webhooks", "get", hook),
                "private": run("webhooks", "create", "https://127.0.0.1/x"),
            }

        results = await asyncio.to_thread(commands)

    for name in ("created", "plain", "list", "get", "update", "rotate", "log", "delete"):
        assert results[name].exit_code == 0, (name, results[name].output)
    created = json.loads(results["created"].stdout)
    assert created["events"] == ["job.succeeded"] and created["secret"].startswith("whsec_")
    assert "secret       whsec_" in results["plain"].stdout and "shown once" in results["plain"].stdout
    assert created["id"] in results["list"].stdout and "2 shown" in results["list"].stdout
    assert "secret" not in results["get"].stdout and "job.succeeded" in results["get"].stdout
    assert json.loads(results["update"].stdout)["status"] == "disabled"
    assert "secret       whsec_" in results["rotate"].stdout
    assert "0 shown" in results["log"].stdout
    assert results["delete"].stdout.strip() == f"deleted {created['id']}"
    for name, refusal in (
        ("retry", "404 webhook_delivery_not_found"),
        ("gone", "404 webhook_not_found"),
        ("private", "400 webhook_url_not_allowed (url)"),
    ):
        assert results[name].exit_code == 1 and results[name].stdout == ""
        assert f"error: {refusal}" in results[name].stderr, results[name].stderr


async def test_webhook_metadata_is_given_as_key_value_pairs(settings: Settings) -> None:
    """`--metadata KEY=VALUE` (repeatable) on create and update; on update the pairs given replace the
    webhook's labels, and without the option they stay. A pair without `=` is a usage error."""
    async with served_app(settings, worker=False) as served:
        run = runner(served)

        def commands() -> dict[str, Result]:
            created = run(
                "webhooks", "create", URL, "--metadata", "crm=hubspot", "--metadata", "q=a=b", "--json"
            )
            hook = json.loads(created.stdout)["id"] if created.exit_code == 0 else "wh_x"
            return {
                "created": created,
                "untouched": run("webhooks", "update", hook, "--description", "crm", "--json"),
                "replaced": run("webhooks", "update", hook, "--metadata", "team=growth", "--json"),
                "get": run("webhooks", "get", hook),
                "bad": run("webhooks", "create", URL, "--metadata", "crm"),
                "no_key": run("webhooks", "update", hook, "--metadata", "=x"),
            }

        results = await asyncio.to_thread(commands)

    for name in ("created", "untouched", "replaced", "get"):
        assert results[name].exit_code == 0, (name, results[name].output)
    assert json.loads(results["created"].stdout)["metadata"] == {"crm": "hubspot", "q": "a=b"}
    assert json.loads(results["untouched"].stdout)["metadata"] == {"crm": "hubspot", "q": "a=b"}
    assert json.loads(results["replaced"].stdout)["metadata"] == {"team": "growth"}
    assert 'metadata     {"team": "growth"}' in results["get"].stdout
    for name, pair in (("bad", "'crm'"), ("no_key", "'=x'")):
        assert results[name].exit_code == 2 and results[name].stdout == ""
        assert f"{pair} is not KEY=VALUE" in results[name].stderr, results[name].stderr
