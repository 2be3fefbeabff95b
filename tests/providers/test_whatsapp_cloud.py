"""WhatsApp Cloud API adapter against responses of Meta's documented shapes (respx, no network)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from leadwire.providers.channels import (
    CHANNEL_ERROR_CODES,
    Attachment,
    Channel,
    ChannelError,
    OutboundMessage,
)
from leadwire.providers.whatsapp_cloud import WhatsAppCloud, media_type, normalise_phone

BASE = "https://graph.facebook.com/v21.0"
PHONE_ID = "106540352242922"
TOKEN = "EAAJB-wa-secret-token-Zx81"
MESSAGES = f"{BASE}/{PHONE_ID}/messages"
MEDIA = f"{BASE}/{PHONE_ID}/media"
WAMID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA"


def sent(to: str = "447911123456") -> dict[str, Any]:
    return {
        "messaging_product": "whatsapp",
        "contacts": [{"input": to, "wa_id": to}],
        "messages": [{"id": WAMID}],
    }


def graph_error(code: int, message: str, subcode: int | None = None, type_: str = "OAuthException") -> Any:
    error: dict[str, Any] = {"message": message, "type": type_, "code": code, "fbtrace_id": "AbCdEf123"}
    if subcode is not None:
        error["error_subcode"] = subcode
    return {"error": error}


def message(
    text: str | None = "Hello from Leadwire", phone: str = "+44 7911 123456", **extra: Any
) -> OutboundMessage:
    return OutboundMessage(delivery_id="dlv_1", recipient={"phone": phone}, text=text, **extra)


@pytest.fixture
def whatsapp() -> WhatsAppCloud:
    return WhatsAppCloud(PHONE_ID, TOKEN)


def test_it_implements_the_channel_port(whatsapp: WhatsAppCloud) -> None:
    assert isinstance(whatsapp, Channel)


@respx.mock
async def test_text_is_sent_with_bearer_auth_to_the_e164_number(whatsapp: WhatsAppCloud) -> None:
    route = respx.post(MESSAGES).mock(return_value=httpx.Response(200, json=sent()))
    receipt = await whatsapp.send(message())

    request = route.calls.last.request
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in str(request.url)
    assert json.loads(request.content) == {
        "messaging_product": "whatsapp",
        "to": "447911123456",
        "type": "text",
        "text": {"body": "Hello from Leadwire"},
    }
    assert (receipt.kind, receipt.provider, receipt.provider_message_id) == (
        "message",
        "whatsapp_cloud",
        WAMID,
    )


@pytest.mark.parametrize(
    ("content_type", "kind", "caption", "filename"),
    [
        ("image/jpeg", "image", True, False),
        ("image/png", "image", True, False),
        ("video/mp4", "video", True, False),
        ("application/pdf", "document", True, True),
        ("application/octet-stream", "document", True, True),
    ],
)
@respx.mock
async def test_an_attachment_is_uploaded_then_sent_by_media_id(
    whatsapp: WhatsAppCloud, content_type: str, kind: str, caption: bool, filename: bool
) -> None:
    upload = respx.post(MEDIA).mock(return_value=httpx.Response(200, json={"id": "1037543291543636"}))
    send = respx.post(MESSAGES).mock(return_value=httpx.Response(200, json=sent()))
    attachment = Attachment("offer.bin", b"\x89binary-content", content_type)
    receipt = await whatsapp.send(message("See attached", attachments=[attachment]))

    up = upload.calls.last.request
    assert up.headers["authorization"] == f"Bearer {TOKEN}"
    form = up.content.decode("latin-1")
    assert up.headers["content-type"].startswith("multipart/form-data")
    assert 'name="messaging_product"\r\n\r\nwhatsapp\r\n' in form
    assert f'name="type"\r\n\r\n{content_type}\r\n' in form
    assert f'name="file"; filename="offer.bin"\r\nContent-Type: {content_type}' in form
    assert "\x89binary-content" in form

    body = json.loads(send.calls.last.request.content)
    assert body["type"] == kind and body["to"] == "447911123456"
    expected: dict[str, Any] = {"id": "1037543291543636", "caption": "See attached"}
    if filename:
        expected["filename"] = "offer.bin"
    assert body[kind] == expected
    assert receipt.provider_message_id == WAMID


@respx.mock
async def test_audio_goes_as_audio_without_text_and_as_a_document_with_it(whatsapp: WhatsAppCloud) -> None:
    respx.post(MEDIA).mock(return_value=httpx.Response(200, json={"id": "m1"}))
    send = respx.post(MESSAGES).mock(return_value=httpx.Response(200, json=sent()))
    voice = Attachment("note.ogg", b"OggS", "audio/ogg; codecs=opus")

    await whatsapp.send(message(None, attachments=[voice]))
    assert json.loads(send.calls.last.request.content)["audio"] == {"id": "m1"}

    await whatsapp.send(message("Listen", attachments=[voice]))
    body = json.loads(send.calls.last.request.content)
    assert body["type"] == "document"
    assert body["document"] == {"id": "m1", "caption": "Listen", "filename": "note.ogg"}


def test_media_type_by_content_type() -> None:
    assert [media_type(t) for t in ("IMAGE/PNG", "image/webp", "video/3gpp", "audio/mpeg", "text/csv")] == [
        "image",
        "document",
        "video",
        "audio",
        "document",
    ]


@pytest.mark.parametrize(
    ("phone", "region", "e164"),
    [
        ("+44 7911 123456", None, "447911123456"),
        ("0044 7911 123456", None, "447911123456"),
        ("447911123456", None, "447911123456"),
        ("+49 1512 3456789", None, "4915123456789"),
        ("07911 123456", "GB", "447911123456"),
        ("(650) 253-0000", "US", "16502530000"),
        ("+1 650 253 0000", "GB", "16502530000"),
    ],
)
def test_phone_numbers_are_normalised_to_e164_without_plus(phone: str, region: str | None, e164: str) -> None:
    assert normalise_phone(phone, region) == e164


@pytest.mark.parametrize("phone", ["", "12", "+44 123", "not a number", "07911 123456"])
@respx.mock
async def test_an_invalid_phone_is_refused_before_any_request(whatsapp: WhatsAppCloud, phone: str) -> None:
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message(phone=phone))
    assert caught.value.code == "recipient_not_found"
    assert not respx.calls


@pytest.mark.parametrize(
    ("msg", "why"),
    [
        (message(None), "needs text"),
        (message("x" * 4097), "over 4096"),
        (message("x" * 1025, attachments=[Attachment("a.png", b"p", "image/png")]), "caption over"),
        (message("hi", attachments=[Attachment("a.png", b"p", "image/png")] * 2), "one attachment"),
    ],
)
@respx.mock
async def test_unsendable_content_is_refused_before_any_request(
    whatsapp: WhatsAppCloud, msg: OutboundMessage, why: str
) -> None:
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(msg)
    assert caught.value.code == "provider_rejected" and why in (caught.value.detail or "")
    assert not respx.calls


SEND_ERRORS = [
    (
        401,
        graph_error(190, "Error validating access token: Session has expired", 463),
        "account_disconnected",
        False,
    ),
    (400, graph_error(190, "Invalid OAuth access token"), "account_disconnected", False),
    (
        403,
        graph_error(10, "Application does not have permission for this action"),
        "account_disconnected",
        False,
    ),
    (400, graph_error(131026, "Message undeliverable", type_="OAuthException"), "recipient_not_found", False),
    (400, graph_error(131030, "Recipient phone number not in allowed list"), "recipient_not_found", False),
    (400, graph_error(131047, "Re-engagement message"), "whatsapp_reengagement_required", False),
    (
        400,
        graph_error(
            131050,
            "Unable to deliver the message. This recipient has chosen to stop receiving "
            "marketing messages on WhatsApp from your business.",
        ),
        "recipient_opted_out",
        False,
    ),
    (400, graph_error(131051, "Unsupported message type"), "provider_rejected", False),
    (400, graph_error(100, "Invalid parameter"), "provider_rejected", False),
    (429, graph_error(130429, "Rate limit hit"), "provider_rate_limited", False),
    (400, graph_error(80007, "Rate limit issues"), "provider_rate_limited", False),
    (
        400,
        graph_error(131056, "(Business Account, Consumer Account) pair rate limit hit"),
        "provider_rate_limited",
        False,
    ),
    (500, graph_error(131000, "Something went wrong"), "provider_error", True),
    (503, None, "provider_error", True),
]


@pytest.mark.parametrize(("status", "body", "code", "unknown"), SEND_ERRORS)
@respx.mock
async def test_graph_errors_on_the_send_map_to_codes(
    whatsapp: WhatsAppCloud, status: int, body: dict[str, Any] | None, code: str, unknown: bool
) -> None:
    reply = httpx.Response(status, json=body) if body is not None else httpx.Response(status, text="<html>")
    respx.post(MESSAGES).mock(return_value=reply)
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == (code, unknown)
    assert code in CHANNEL_ERROR_CODES
    assert TOKEN not in str(caught.value)


@respx.mock
async def test_an_echoed_token_is_scrubbed_from_errors(whatsapp: WhatsAppCloud) -> None:
    respx.post(MESSAGES).mock(
        return_value=httpx.Response(401, json=graph_error(190, f"Malformed access token {TOKEN}"))
    )
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message())
    assert TOKEN not in str(caught.value) and TOKEN not in (caught.value.detail or "")
    assert "[redacted]" in (caught.value.detail or "")


@pytest.mark.parametrize(
    ("failure", "code", "unknown"),
    [
        (httpx.ConnectError("refused"), "provider_unavailable", False),
        (httpx.ConnectTimeout("slow connect"), "provider_unavailable", False),
        (httpx.ReadTimeout("slow answer"), "provider_error", True),
        (httpx.RemoteProtocolError("dropped"), "provider_error", True),
    ],
)
@respx.mock
async def test_transport_failures_on_the_send(
    whatsapp: WhatsAppCloud, failure: Exception, code: str, unknown: bool
) -> None:
    respx.post(MESSAGES).mock(side_effect=failure)
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == (code, unknown)


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        (httpx.Response(500, json=graph_error(131000, "Something went wrong")), "provider_unavailable"),
        (httpx.ReadTimeout("slow"), "provider_unavailable"),
        (httpx.Response(400, json=graph_error(131053, "Media upload error")), "provider_rejected"),
        (httpx.Response(401, json=graph_error(190, "Invalid OAuth access token")), "account_disconnected"),
        (httpx.Response(200, json={"unexpected": True}), "provider_error"),
    ],
)
@respx.mock
async def test_a_failed_upload_sends_nothing(whatsapp: WhatsAppCloud, reply: Any, code: str) -> None:
    route = respx.post(MEDIA)
    if isinstance(reply, Exception):
        route.mock(side_effect=reply)
    else:
        route.mock(return_value=reply)
    send = respx.post(MESSAGES)
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message(attachments=[Attachment("a.pdf", b"%PDF", "application/pdf")]))
    assert (caught.value.code, caught.value.sent_unknown) == (code, False)
    assert not send.called


@respx.mock
async def test_a_success_without_a_wamid_may_still_have_sent(whatsapp: WhatsAppCloud) -> None:
    respx.post(MESSAGES).mock(return_value=httpx.Response(200, json={"messaging_product": "whatsapp"}))
    with pytest.raises(ChannelError) as caught:
        await whatsapp.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == ("provider_error", True)


@respx.mock
async def test_a_shared_client_and_another_api_version() -> None:
    route = respx.post(f"https://graph.example/v22.0/{PHONE_ID}/messages").mock(
        return_value=httpx.Response(200, json=sent())
    )
    async with httpx.AsyncClient() as client:
        channel = WhatsAppCloud(PHONE_ID, TOKEN, client=client, base_url="https://graph.example/v22.0/")
        await channel.send(message())
    assert route.called
