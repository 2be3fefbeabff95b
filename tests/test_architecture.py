"""The architecture contract of docs/architecture.md, enforced: dependencies point one way (faces ->
capabilities -> channels -> platform and providers -> sandbox -> search), capabilities do not import
each other, the platform's rooms are layered with no cycle, no module of Leadwire sits in an import
cycle, and the SDK imports nothing else of Leadwire. The contracts live in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def _import_cycles() -> list[list[str]]:
    """Groups of modules that import each other in a ring (strongly connected components of the import
    graph, every import counted: at module level, in a function, under TYPE_CHECKING)."""
    import grimp

    graph = grimp.build_graph("leadwire", cache_dir=None)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        # Tarjan's algorithm, iterative: (module, its imports not yet visited)
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imports = work[-1]
            nxt = next(imports, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                elif nxt in on_stack:
                    low[module] = min(low[module], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles


def test_no_module_of_leadwire_is_in_an_import_cycle() -> None:
    assert _import_cycles() == []


def _fresh_interpreter(probe: str) -> str:
    """What `probe` prints in a new interpreter (its imports are the process's own)."""
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_a_worker_loads_the_job_handlers_without_the_http_or_mcp_faces(tmp_path: Path) -> None:
    """A worker's start-up is part of every deploy and scale-out: it installs the capabilities (their
    job handlers and what those need) without importing FastAPI, the routes or the MCP SDK, which
    together cost it over a second. A capability that imports them from its handlers' path fails here."""
    probe = (
        "import sys\n"
        "from leadwire.admin_cli import install_capabilities\n"
        "from leadwire.config import Settings\n"
        f"install_capabilities(Settings(data_dir={str(tmp_path)!r}))\n"
        "from leadwire.platform.jobs.registry import registry\n"
        "assert 'research.public_web' in registry.actions(), registry.actions()\n"
        "faces = sorted(\n"
        "    m for m in sys.modules if m.split('.')[0] in ('fastapi', 'mcp') or m.endswith('.routes')\n"
        ")\n"
        "print(faces)\n"
    )
    assert _fresh_interpreter(probe).strip() == "[]"


def test_a_worker_starts_without_the_client_or_the_adapters_it_has_not_used(tmp_path: Path) -> None:
    """`leadwire worker` names its provider adapters at start and builds each at first use, and the
    command line loads the client's commands only when one runs: a worker that has run no job has not
    imported the SDK's HTTP client, the reasoner's numerics or the trade store's engine, a third of
    its start-up (docs/benchmarks.md, Job throughput). Reading an adapter builds it."""
    probe = (
        "import sys\n"
        "import leadwire.cli\n"
        "from leadwire.admin_cli import install_capabilities\n"
        "from leadwire.config import Settings\n"
        "from leadwire.providers.registry import build_providers\n"
        f"settings = Settings(data_dir={str(tmp_path)!r})\n"
        "install_capabilities(settings)\n"
        "services = build_providers(settings)\n"
        "assert sorted(services) == ['contacts', 'prospects', 'reasoner', 'search', 'trade']\n"
        "print(sorted(m for m in ('httpx', 'numpy', 'duckdb') if m in sys.modules))\n"
        "services['reasoner']\n"
        "print(sorted(m for m in ('httpx', 'numpy', 'duckdb') if m in sys.modules), len(services.built()))\n"
    )
    assert _fresh_interpreter(probe).split("\n")[:2] == ["[]", "['numpy'] 1"]
