"""The API reference pages work offline: `/docs` (Swagger UI) and `/redoc` (ReDoc) load only assets the
app serves itself, under a CSP that admits this origin and nothing else.

The browser test starts a real `leadwire api` on loopback and loads both pages in headless Chromium with
every other destination unreachable (host names resolve to nothing, everything else goes to a proxy
that does not exist), so a page that still needed a CDN would render nothing and fail."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from leadwire.app import create_app
from leadwire.config import Settings
from tests.support.processes import LEADWIRE, REPO, free_port, leadwire_process, process_env, wait_ready

PAGES = ("/docs", "/redoc")
CHROMIUM = shutil.which("chromium")
# What Chromium logs when the page's CSP blocks something (`--enable-logging=stderr`).
CSP_VIOLATION = re.compile(r"violates the following Content Security Policy directive: \"([a-z-]+)")


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(Settings(data_dir=tmp_path / "var", plugins=""))


async def get(app: FastAPI, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        return await http.get(path)


def referenced(page: str) -> list[str]:
    return re.findall(r'(?:src|href|spec-url)="([^"]+)"', page)


@pytest.mark.parametrize("path", PAGES)
async def test_a_page_references_only_its_own_origin(app: FastAPI, path: str) -> None:
    page = await get(app, path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    urls = referenced(page.text)
    assert urls and all(url.startswith("/") and not url.startswith("//") for url in urls), urls
    assert "<script>" not in page.text  # no inline script: the CSP admits none
    for url in urls:
        asset = await get(app, url)
        assert asset.status_code == 200, url
        if url.startswith("/docs/"):  # the assets; the OpenAPI document is JSON under the API's policy
            assert asset.headers["content-security-policy"] == page.headers["content-security-policy"]
    assert "/openapi.json" in urls


async def test_the_docs_csp_admits_this_origin_only(app: FastAPI) -> None:
    csp = (await get(app, "/docs")).headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"  # neither inline script nor eval
    assert directives["connect-src"] == "'self'"  # the OpenAPI document and "Try it out"
    assert directives["frame-ancestors"] == "'none'"
    assert not [d for d in directives.values() if "http" in d or "*" in d]
    # Everything else keeps the API's policy, which loads nothing.
    for path in ("/openapi.json", "/healthz", "/docsx", "/redoc/x"):
        assert (await get(app, path)).headers["content-security-policy"].startswith("default-src 'none';")


async def test_only_the_listed_assets_are_served(app: FastAPI) -> None:
    for name in ("core.py", "..%2Fcore.py", "%2E%2E%2F__init__.py", "LICENSE"):
        response = await get(app, f"/docs/assets/{name}")
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found", name
    bundle = await get(app, "/docs/assets/swagger-ui-bundle.js")
    assert bundle.headers["content-type"].startswith("text/javascript")
    assert "max-age" in bundle.headers["cache-control"]


# --- in a browser, offline --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("docs-pages")
    port = free_port()
    env = process_env(tmp / "var", LEADWIRE_PORT=str(port), LEADWIRE_PLUGINS="")
    subprocess.run([*LEADWIRE, "migrate"], env=env, cwd=REPO, capture_output=True, check=True)
    log = tmp / "api.log"
    with leadwire_process(["api", "--port", str(port)], env, log) as process:
        base_url = f"http://127.0.0.1:{port}"
        wait_ready(base_url, process, log)
        yield base_url


def offline_chromium(url: str, profile: Path) -> tuple[str, str]:
    """The page's DOM after its scripts ran, and Chromium's log, with no network but loopback."""
    assert CHROMIUM is not None
    args = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--proxy-server=http://127.0.0.1:9",  # nothing listens there; loopback bypasses a proxy
        "--virtual-time-budget=30000",  # virtual time stands still while a request is pending
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        url,
    ]
    done = subprocess.run(args, capture_output=True, text=True, timeout=180, check=False)
    return done.stdout, done.stderr


def blocked_directives(log: str) -> set[str]:
    return set(CSP_VIOLATION.findall(log))


def console(log: str) -> str:
    """What the page logged (Chromium's own start-up noise left out)."""
    return "\n".join(line for line in log.splitlines() if "CONSOLE" in line)[-3000:]


needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@needs_chromium
@pytest.mark.e2e  # a real `leadwire api` process
def test_swagger_ui_renders_the_operations_offline(api_server: str, tmp_path: Path) -> None:
    dom, log = offline_chromium(f"{api_server}/docs", tmp_path / "profile")
    assert 'data-path="/api/v2/jobs/{job_id}"' in dom, console(log)
    assert 'data-path="/api/v2/research/public-web"' in dom
    assert "Failed to load API definition" not in dom
    assert blocked_directives(log) == set(), console(log)


@needs_chromium
@pytest.mark.e2e  # a real `leadwire api` process
def test_redoc_renders_the_operations_offline(api_server: str, tmp_path: Path) -> None:
    dom, log = offline_chromium(f"{api_server}/redoc", tmp_path / "profile")
    assert re.search(r">\s*/api/v2/jobs/\{job_id\}\s*<", dom), console(log)
    assert "Liveness: the process answers" in dom  # an operation summary, rendered from the document
    assert "Something went wrong" not in dom
    # ReDoc's menu links a logo from its vendor's CDN; the CSP blocks that image and nothing else (it
    # removes the image when it fails to load).
    assert blocked_directives(log) <= {"img-src"}, console(log)


@pytest.fixture
def loopback_site(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A plain static file server on loopback (no CORP header: any page may run its scripts)."""
    site = tmp_path / "site"
    site.mkdir()
    handler = functools.partial(QuietHandler, directory=str(site))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield site, server.server_address[1]
        server.shutdown()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@needs_chromium
def test_the_browser_reaches_loopback_and_nothing_else(
    loopback_site: tuple[Path, int], tmp_path: Path
) -> None:
    """The control: under the same flags a script from 127.0.0.1 runs, while the same server named
    `localhost` and a CDN's script never load."""
    site, port = loopback_site
    (site / "mark.js").write_text('document.body.dataset[document.currentScript.dataset.name] = "ran";')
    (site / "page.html").write_text(
        '<body><script data-name="loopback" src="/mark.js"></script>'
        f'<script data-name="named" src="http://localhost:{port}/mark.js"></script>'
        '<script src="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"></script>'
        "<script>document.body.dataset.cdn = typeof SwaggerUIBundle;</script></body>"
    )
    dom, _ = offline_chromium(f"http://127.0.0.1:{port}/page.html", tmp_path / "profile")
    assert 'data-loopback="ran"' in dom, dom
    assert "data-named" not in dom and 'data-cdn="undefined"' in dom, dom
