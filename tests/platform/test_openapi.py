"""The OpenAPI 3.1 document describes real shapes, both security schemes and each route's error codes."""

from __future__ import annotations

import httpx


async def test_openapi_document(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    assert doc["openapi"].startswith("3.1")
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["scheme"] == "bearer"
    assert schemes["apiKeyHeader"] == {"type": "apiKey", "in": "header", "name": "x-api-key"}
    credits = doc["paths"]["/api/v2/credits"]["get"]["responses"]
    ok_schema = credits["200"]["content"]["application/json"]["schema"]
    assert "$ref" in ok_schema
    assert "api_key_missing" in credits["401"]["description"]
    job = doc["paths"]["/api/v2/jobs/{job_id}"]["get"]["responses"]
    assert "task_not_found" in job["404"]["description"]
    cancel = doc["paths"]["/api/v2/jobs/{job_id}/cancel"]["post"]["responses"]
    assert "job_already_running" in cancel["409"]["description"]
    schemas = doc["components"]["schemas"]
    assert {"PublicJob", "ErrorEnvelope", "ConnectAccountOut"} <= set(schemas)
    job_error = schemas["JobError"]  # `detail` only when the failure has one
    assert set(job_error["properties"]) == {"code", "detail"} and job_error["required"] == ["code"]
    echo = doc["paths"]["/api/v2/test/echo"]["post"]
    assert echo["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/EchoRequest"
    }
    assert "EchoRequest" in schemas and "x-leadwire-body-model" not in echo


async def test_docs_page_is_served(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200 and "swagger" in response.text.lower()
