"""The API reference pages, served offline: Swagger UI at `/docs` and ReDoc at `/redoc`.

Their scripts and styles come from the installed `fastapi-offline` package and are served by the app
under `/docs/assets/`, so an install without internet access still shows its API. The pages run no
inline script (Swagger UI is started by a script of its own), which lets the middleware's `DOCS_CSP`
allow scripts from this origin only.
"""

from __future__ import annotations

import html
from importlib.metadata import version
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from starlette.responses import FileResponse, HTMLResponse, Response

from leadwire.platform.errors import ApiError

ASSETS_PATH = "/docs/assets"
_STATIC = Path(fastapi_offline.__file__).parent / "static"
# The only files served: a name outside this table is 404, never a path into the package.
_FILES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "redoc.standalone.js": "text/javascript",
    "favicon.png": "image/png",
}
SWAGGER_INIT = "swagger-init.js"
# Asset URLs name the package version: a cached copy never outlives an upgrade.
_VERSION = version("fastapi-offline")
_CACHE = "public, max-age=86400"

_SWAGGER_INIT_JS = """\
var root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.specUrl,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  displayRequestDuration: true,
  persistAuthorization: false,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""

_PAGE = """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" type="image/png" href="{assets}/favicon.png?v={version}">
{head}
</head>
<body>
{body}
</body>
</html>
"""


def _asset(request: Request, name: str) -> str:
    return html.escape(f"{request.scope.get('root_path', '')}{ASSETS_PATH}/{name}?v={_VERSION}")


def _page(request: Request, title: str, head: str, body: str) -> HTMLResponse:
    assets = html.escape(f"{request.scope.get('root_path', '')}{ASSETS_PATH}")
    text = _PAGE.format(title=html.escape(title), assets=assets, version=_VERSION, head=head, body=body)
    return HTMLResponse(text)


def install_docs(app: FastAPI) -> None:
    """Serve `/docs`, `/redoc` and their assets (none of them in the OpenAPI document)."""

    def spec_url(request: Request) -> str:
        return html.escape(f"{request.scope.get('root_path', '')}{app.openapi_url}")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        head = f'<link rel="stylesheet" href="{_asset(request, "swagger-ui.css")}">'
        body = (
            f'<div id="swagger-ui" data-spec-url="{spec_url(request)}"></div>\n'
            f'<script src="{_asset(request, "swagger-ui-bundle.js")}"></script>\n'
            f'<script src="{_asset(request, SWAGGER_INIT)}"></script>'
        )
        return _page(request, f"{app.title} - Swagger UI", head, body)

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        body = (
            f'<redoc spec-url="{spec_url(request)}"></redoc>\n'
            f'<script src="{_asset(request, "redoc.standalone.js")}"></script>'
        )
        return _page(request, f"{app.title} - ReDoc", "<style>body { margin: 0; }</style>", body)

    @app.get(ASSETS_PATH + "/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name == SWAGGER_INIT:
            return Response(_SWAGGER_INIT_JS, media_type="text/javascript", headers={"Cache-Control": _CACHE})
        media_type = _FILES.get(name)
        if media_type is None:
            raise ApiError("not_found")
        return FileResponse(_STATIC / name, media_type=media_type, headers={"Cache-Control": _CACHE})
