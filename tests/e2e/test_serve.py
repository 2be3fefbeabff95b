"""`leadwire serve` as a real process: bootstraps the demo account and answers with its key."""

from __future__ import annotations

import json
import stat
import subprocess
from pathlib import Path

import httpx
import pytest

from leadwire.client import Leadwire, LeadwireError
from tests.support.processes import (
    LEADWIRE,
    free_port,
    leadwire_process,
    process_env,
    wait_for,
    wait_ready,
)

pytestmark = pytest.mark.e2e


def test_serve_bootstraps_demo_account_and_serves_credits(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    port = free_port()
    env = process_env(
        data_dir, LEADWIRE_PORT=str(port), LEADWIRE_LOG_LEVEL="info", LEADWIRE_METRICS_PUBLIC="true"
    )
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with leadwire_process(["serve", "--no-build-world"], env, log) as process:
        wait_ready(base, process, log)
        key_file = data_dir / "demo-api-key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text().strip()
        assert key.startswith("lw_live_")
        credits = httpx.get(f"{base}/api/v2/credits", headers={"Authorization": f"Bearer {key}"}).json()
        assert credits["ok"] is True and credits["item"]["balance"] == 10_000
        accounts = httpx.get(f"{base}/api/v2/connect/accounts", headers={"x-api-key": key}).json()["items"]
        assert sorted(a["channel"] for a in accounts) == ["email", "linkedin", "whatsapp"]
        assert all(a["provider"] == "sandbox" and a["can_send"] for a in accounts)
        with Leadwire(key, base) as sdk:  # the sync SDK against the live server
            assert sdk.credits()["balance"] == 10_000
            assert len(sdk.accounts(can_send=True)) == 3
            with pytest.raises(LeadwireError) as caught:
                sdk.job("job_missing")
            assert caught.value.status == 404 and caught.value.code == "task_not_found"
        metrics = httpx.get(f"{base}/metrics").text
        assert 'route="/api/v2/credits"' in metrics
    output = log.read_text()
    assert key in output  # printed once, with a ready curl line
    assert "curl" in output
    access = [line for line in output.splitlines() if '"route":"/api/v2/credits"' in line]
    assert access and '"key_id":"key_' in access[0] and key not in access[0]

    # A second start reuses the account and the key, and does not print the key again.
    log2 = tmp_path / "serve2.log"
    with leadwire_process(["serve", "--no-build-world"], env, log2) as process:
        wait_ready(base, process, log2)
        assert (data_dir / "demo-api-key").read_text().strip() == key
        again = httpx.get(f"{base}/api/v2/credits", headers={"Authorization": f"Bearer {key}"}).json()
        assert again["item"]["balance"] == 10_000
    assert key not in log2.read_text()


def test_first_start_builds_the_world_and_research_runs_on_it(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    port = free_port()
    env = process_env(data_dir, LEADWIRE_PORT=str(port), LEADWIRE_SANDBOX_SIZE="small")
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with leadwire_process(["serve"], env, log) as process:
        wait_ready(base, process, log, timeout=120)  # answers at once; the world builds meanwhile
        wait_for(lambda: httpx.get(f"{base}/readyz").json()["world"]["state"] == "ready", timeout=120)
        assert (data_dir / "world" / "world.db").exists() and (
            data_dir / "world" / "search_index.json"
        ).exists()
        key = (data_dir / "demo-api-key").read_text().strip()
        headers = {"Authorization": f"Bearer {key}", "Prefer": "wait=30"}
        response = httpx.post(
            f"{base}/api/v2/research/public-web",
            json={"queries": ["software company"], "search_limit": 2},
            headers=headers,
            timeout=40,
        )
        assert response.status_code == 200, response.text
        job = response.json()["item"]
        assert job["status"] == "succeeded" and job["result"]["status"] == "complete"
        assert job["result"]["results"][0]["sources"]


def test_admin_cli_contract(tmp_path: Path) -> None:
    import json
    import subprocess

    from tests.support.processes import LEADWIRE, REPO

    env = process_env(tmp_path / "var")

    def admin(*args: str) -> dict[str, object]:
        done = subprocess.run([*LEADWIRE, "admin", *args], env=env, cwd=REPO, capture_output=True, check=True)
        return json.loads(done.stdout)

    subprocess.run([*LEADWIRE, "migrate"], env=env, cwd=REPO, capture_output=True, check=True)
    user = admin("user", "create", "--email", "ops@x.example", "--plan", "pro", "--credits", "5")
    user_id = str(user["user_id"])
    key = admin("key", "create", "--user", user_id, "--scopes", "credits:read", "--mode", "test")
    assert str(key["key"]).startswith("lw_test_") and str(key["key_id"]).startswith("key_")
    assert admin("credits", "grant", "--user", user_id, "--amount", "7") == {
        "user_id": user_id,
        "balance": 12,
    }
    account = admin(
        "account",
        "add",
        "--user",
        user_id,
        "--channel",
        "email",
        "--provider",
        "smtp",
        "--smtp-host",
        "127.0.0.1",
        "--from-address",
        "ops@x.example",
        "--smtp-password",
        "s3cret",
    )
    assert str(account["account_id"]).startswith("acct_")
    status = admin("account", "set-status", str(account["account_id"]), "reconnect_required")
    assert status == {"account_id": account["account_id"], "status": "reconnect_required"}
    assert admin("key", "revoke", str(key["key_id"])) == {"key_id": key["key_id"], "revoked": True}
    listed = admin("key", "list", "--user", user_id)["keys"]
    assert [(k["key_id"], k["prefix"], k["scopes"]) for k in listed] == [
        (key["key_id"], str(key["key"]).removeprefix("lw_test_")[:8], ["credits:read"])
    ]
    assert listed[0]["revoked_at"] is not None and str(key["key"]) not in json.dumps(listed)
    failed = subprocess.run(
        [*LEADWIRE, "admin", "user", "create", "--email", "x@y.example", "--plan", "platinum"],
        env=env,
        cwd=REPO,
        capture_output=True,
    )
    assert failed.returncode == 1 and "unknown plan" in failed.stderr.decode()
    db = (tmp_path / "var" / "leadwire.db").read_bytes()
    assert b"s3cret" not in db  # the SMTP password is stored encrypted


def test_outreach_cli_sends_through_a_live_server_and_the_outbox_shows_it(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    port = free_port()
    env = process_env(data_dir, LEADWIRE_PORT=str(port))
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with leadwire_process(["serve", "--no-build-world"], env, log) as process:
        wait_ready(base, process, log)
        key = (data_dir / "demo-api-key").read_text().strip()
        with Leadwire(key, base) as sdk:
            email_account = next(a for a in sdk.accounts() if a["channel"] == "email")["account_id"]
        cli_env = {**env, "LEADWIRE_API_URL": base, "LEADWIRE_API_KEY": key}
        attachment = tmp_path / "notes.txt"
        attachment.write_text("agenda")
        sent = subprocess.run(
            [*LEADWIRE, "outreach", "send", "--account", email_account, "--channel", "email",
             "--to", "jane@acme.example", "--subject", "Hello", "--text", "Hi Jane",
             "--attach", str(attachment), "--wait", "20"],
            env=cli_env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert sent.returncode == 0, sent.stderr
        assert "outreach.dispatch  succeeded" in sent.stdout and "kind         message" in sent.stdout
        refused = subprocess.run(
            [*LEADWIRE, "outreach", "send", "--account", email_account, "--channel", "email",
             "--to", "jane@acme.example", "--text", "no subject"],
            env=cli_env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert refused.returncode == 1 and "400 content_subject_required" in refused.stderr
    outbox = subprocess.run(
        [*LEADWIRE, "sandbox", "outbox", "--channel", "email"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert outbox.returncode == 0, outbox.stderr
    (record,) = [json.loads(line) for line in outbox.stdout.splitlines()]
    assert record["channel"] == "email" and record["subject"] == "Hello"
    assert record["attachments"] == [{"filename": "notes.txt", "content_type": "text/plain", "bytes": 6}]
