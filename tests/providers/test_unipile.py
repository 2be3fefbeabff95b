"""Unipile LinkedIn adapter against responses of Unipile's documented shapes (respx, no network)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
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
from leadwire.providers.unipile import (
    INVITATION_NOTE_LIMIT,
    UnipileLinkedIn,
    profile_slug,
)

DSN = "api8.unipile.com:13851"
BASE = f"https://{DSN}/api/v1"
KEY = "unipile-secret-key-9f8e7d"
ACCOUNT = "acc_Zk3q9LwXTn2"
PROFILE_URL = "https://www.linkedin.com/in/jane-doe-42/"
PROVIDER_ID = "ACoAAAcDMMQBODyLwZrRcgYhrkCafURGqva0U4E"
SOCIAL_ID = "urn:li:activity:7332661864792854528"


def user(distance: str = "FIRST_DEGREE", **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "UserProfile",
        "provider": "LINKEDIN",
        "provider_id": PROVIDER_ID,
        "public_identifier": "jane-doe-42",
        "first_name": "Jane",
        "last_name": "Doe",
        "headline": "VP Procurement at Acme",
        "network_distance": distance,
        "is_relationship": distance == "FIRST_DEGREE",
        "invitation": None,
    }
    body.update(extra)
    return body


def post(social_id: str = SOCIAL_ID, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "Post",
        "provider": "LINKEDIN",
        "id": "7332661864792854528",
        "social_id": social_id,
        "share_url": "https://www.linkedin.com/posts/jane-doe-42_supply-chain-activity-7332661864792854528",
        "date": "2d",
        "parsed_datetime": "2025-05-26T09:12:44.000Z",
        "text": "Our supply chain team is hiring.",
        "reaction_counter": 12,
        "comment_counter": 3,
        "repost_counter": 0,
        "is_repost": False,
        "author": {"public_identifier": "jane-doe-42", "name": "Jane Doe", "is_company": False},
    }
    body.update(extra)
    return body


def problem(status: int, type_: str, title: str, detail: str = "") -> dict[str, Any]:
    return {"status": status, "type": type_, "title": title, "detail": detail}


def message(text: str | None = "Hello Jane", **extra: Any) -> OutboundMessage:
    return OutboundMessage(delivery_id="dlv_01J0", recipient={"profile_url": PROFILE_URL}, text=text, **extra)


@pytest.fixture
def unipile() -> UnipileLinkedIn:
    return UnipileLinkedIn(DSN, KEY, ACCOUNT)


def mock_profile(distance: str = "FIRST_DEGREE", **extra: Any) -> respx.Route:
    return respx.get(f"{BASE}/users/jane-doe-42").mock(
        return_value=httpx.Response(200, json=user(distance, **extra))
    )


def multipart_fields(request: httpx.Request) -> str:
    assert request.headers["content-type"].startswith("multipart/form-data")
    return request.content.decode("latin-1")


def test_it_implements_the_channel_port(unipile: UnipileLinkedIn) -> None:
    assert isinstance(unipile, Channel)


@respx.mock
async def test_a_connection_gets_a_chat_message_with_the_attachment_as_a_file(
    unipile: UnipileLinkedIn,
) -> None:
    lookup = mock_profile("FIRST_DEGREE")
    chat = respx.post(f"{BASE}/chats").mock(
        return_value=httpx.Response(
            201, json={"object": "ChatStarted", "chat_id": "chat_9Qx", "message_id": "msg_7Tb"}
        )
    )
    pdf = Attachment("brochure.pdf", b"%PDF-1.7 brochure", "application/pdf")
    receipt = await unipile.send(message(attachments=[pdf]))

    assert lookup.calls.last.request.url.params["account_id"] == ACCOUNT
    sent = chat.calls.last.request
    assert sent.headers["x-api-key"] == KEY
    assert KEY not in str(sent.url)
    form = multipart_fields(sent)
    assert f'name="account_id"\r\n\r\n{ACCOUNT}\r\n' in form
    assert f'name="attendees_ids"\r\n\r\n{PROVIDER_ID}\r\n' in form
    assert 'name="text"\r\n\r\nHello Jane\r\n' in form
    assert 'name="attachments"; filename="brochure.pdf"\r\nContent-Type: application/pdf' in form
    assert "%PDF-1.7 brochure" in form
    assert (receipt.kind, receipt.provider, receipt.provider_message_id) == ("message", "unipile", "msg_7Tb")
    assert receipt.delivered_at.tzinfo is not None


@respx.mock
async def test_is_relationship_alone_counts_as_connected(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE", is_relationship=True)
    chat = respx.post(f"{BASE}/chats").mock(
        return_value=httpx.Response(201, json={"object": "ChatStarted", "chat_id": "c", "message_id": "m"})
    )
    assert (await unipile.send(message())).kind == "message"
    assert "filename=" not in multipart_fields(chat.calls.last.request)


@pytest.mark.parametrize("distance", ["SECOND_DEGREE", "THIRD_DEGREE", "OUT_OF_NETWORK"])
@respx.mock
async def test_someone_not_connected_gets_an_invitation_with_the_text_as_note(
    unipile: UnipileLinkedIn, distance: str
) -> None:
    mock_profile(distance)
    invite = respx.post(f"{BASE}/users/invite").mock(
        return_value=httpx.Response(201, json={"object": "UserInvitationSent", "invitation_id": "inv_5Kd"})
    )
    chat = respx.post(f"{BASE}/chats")
    text = "x" * INVITATION_NOTE_LIMIT
    receipt = await unipile.send(message(text))

    body = json.loads(invite.calls.last.request.content)
    assert body["provider_id"] == PROVIDER_ID and body["account_id"] == ACCOUNT
    assert body["message"] == text
    assert invite.calls.last.request.headers["x-api-key"] == KEY
    assert not chat.called
    assert (receipt.kind, receipt.provider_message_id) == ("connection_request", "inv_5Kd")


@respx.mock
async def test_a_note_over_300_characters_fails_and_sends_nothing(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE")
    invite = respx.post(f"{BASE}/users/invite")
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message(("Loved your talk on nearshoring " * 15).strip()))
    assert caught.value.code == "invitation_note_too_long" and caught.value.sent_unknown is False
    assert not invite.called


@respx.mock
async def test_an_invitation_without_text_has_no_note(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE")
    invite = respx.post(f"{BASE}/users/invite").mock(
        return_value=httpx.Response(201, json={"object": "UserInvitationSent", "invitation_id": "inv_1"})
    )
    await unipile.send(message(None))
    assert "message" not in json.loads(invite.calls.last.request.content)


@respx.mock
async def test_an_empty_message_to_a_connection_is_refused_before_sending(unipile: UnipileLinkedIn) -> None:
    mock_profile()
    chat = respx.post(f"{BASE}/chats")
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message("  "))
    assert caught.value.code == "provider_rejected"
    assert not chat.called


@pytest.mark.parametrize(
    ("url", "slug"),
    [
        ("https://www.linkedin.com/in/jane-doe-42", "jane-doe-42"),
        ("https://www.linkedin.com/in/jane-doe-42/?trk=public", "jane-doe-42"),
        ("linkedin.com/in/jane-doe-42", "jane-doe-42"),
        ("https://uk.linkedin.com/in/j%C3%BCrgen-m/", "jürgen-m"),
    ],
)
def test_profile_slug(url: str, slug: str) -> None:
    assert profile_slug(url) == slug


@pytest.mark.parametrize(
    "url",
    ["", "https://example.com/in/jane", "https://www.linkedin.com/company/acme", "https://linkedin.com/in/"],
)
@respx.mock
async def test_a_bad_profile_url_is_refused_before_any_request(unipile: UnipileLinkedIn, url: str) -> None:
    with pytest.raises(ChannelError) as caught:
        await unipile.send(OutboundMessage(delivery_id="d", recipient={"profile_url": url}, text="hi"))
    assert caught.value.code == "recipient_not_found"
    assert not respx.calls


@respx.mock
async def test_recent_posts_and_like(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE")
    listing = respx.get(f"{BASE}/users/{PROVIDER_ID}/posts").mock(
        return_value=httpx.Response(
            200,
            json={
                "object": "PostList",
                "items": [post(), post("urn:li:activity:1", parsed_datetime=None, share_url=None), {"x": 1}],
                "cursor": "eyJvZmZzZXQiOjJ9",
            },
        )
    )
    reaction = respx.post(f"{BASE}/posts/reaction").mock(
        return_value=httpx.Response(201, json={"object": "ReactionAdded"})
    )

    posts = await unipile.recent_posts(PROFILE_URL, limit=5)
    params = listing.calls.last.request.url.params
    assert (params["account_id"], params["limit"]) == (ACCOUNT, "5")
    assert [p.post_id for p in posts] == [SOCIAL_ID, "urn:li:activity:1"]
    first = posts[0]
    assert first.url is not None and first.url.endswith("activity-7332661864792854528")
    assert first.text == "Our supply chain team is hiring."
    assert first.published_at == datetime(2025, 5, 26, 9, 12, 44, tzinfo=UTC)
    assert (posts[1].url, posts[1].published_at) == (None, None)

    await unipile.like(first.post_id)
    sent = reaction.calls.last.request
    assert sent.headers["x-api-key"] == KEY
    assert json.loads(sent.content) == {"account_id": ACCOUNT, "post_id": SOCIAL_ID, "reaction_type": "like"}


@respx.mock
async def test_a_posts_response_without_items_is_an_error(unipile: UnipileLinkedIn) -> None:
    mock_profile()
    respx.get(f"{BASE}/users/{PROVIDER_ID}/posts").mock(return_value=httpx.Response(200, json={"x": []}))
    with pytest.raises(ChannelError) as caught:
        await unipile.recent_posts(PROFILE_URL, 3)
    assert caught.value.code == "provider_error"


PROFILE_ERRORS = [
    (401, problem(401, "errors/invalid_credentials", "Unauthorized"), "account_disconnected"),
    (403, problem(403, "errors/insufficient_permissions", "Forbidden"), "account_disconnected"),
    (404, problem(404, "errors/resource_not_found", "Not Found", "User not found."), "recipient_not_found"),
    (400, problem(400, "errors/invalid_parameters", "Bad Request"), "provider_rejected"),
    (422, problem(422, "errors/invalid_recipient", "Unprocessable Entity"), "provider_rejected"),
    (429, problem(429, "errors/too_many_requests", "Too Many Requests"), "provider_rate_limited"),
    (500, problem(500, "errors/unexpected_error", "Internal Server Error"), "provider_unavailable"),
    (503, None, "provider_unavailable"),
]


@pytest.mark.parametrize(("status", "body", "code"), PROFILE_ERRORS)
@respx.mock
async def test_profile_lookup_errors_map_to_codes_and_send_nothing(
    unipile: UnipileLinkedIn, status: int, body: dict[str, Any] | None, code: str
) -> None:
    reply = httpx.Response(status, json=body) if body is not None else httpx.Response(status, text="<html>")
    respx.get(f"{BASE}/users/jane-doe-42").mock(return_value=reply)
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert caught.value.code == code and code in CHANNEL_ERROR_CODES
    assert caught.value.sent_unknown is False
    assert KEY not in str(caught.value)


SEND_ERRORS = [
    (401, "account_disconnected", False),
    (403, "account_disconnected", False),
    (400, "provider_rejected", False),
    (422, "provider_rejected", False),
    (429, "provider_rate_limited", False),
    (500, "provider_error", True),
    (502, "provider_error", True),
]


@pytest.mark.parametrize(
    ("path", "distance"), [("/chats", "FIRST_DEGREE"), ("/users/invite", "SECOND_DEGREE")]
)
@pytest.mark.parametrize(("status", "code", "unknown"), SEND_ERRORS)
@respx.mock
async def test_send_errors_map_to_codes(
    unipile: UnipileLinkedIn, path: str, distance: str, status: int, code: str, unknown: bool
) -> None:
    mock_profile(distance)
    # An upstream that echoes the key back must not leak it through the error.
    body = problem(status, "errors/x", "Upstream said", f"bad key {KEY}")
    respx.post(f"{BASE}{path}").mock(return_value=httpx.Response(status, json=body))
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == (code, unknown)
    assert KEY not in str(caught.value) and KEY not in (caught.value.detail or "")


@respx.mock
async def test_an_already_invited_member_is_a_rejection(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE")
    respx.post(f"{BASE}/users/invite").mock(
        return_value=httpx.Response(
            422, json=problem(422, "errors/already_invited_recently", "Unprocessable Entity")
        )
    )
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert caught.value.code == "provider_rejected"
    assert "already_invited_recently" in (caught.value.detail or "")


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
async def test_transport_failures_on_the_sending_post(
    unipile: UnipileLinkedIn, failure: Exception, code: str, unknown: bool
) -> None:
    mock_profile()
    respx.post(f"{BASE}/chats").mock(side_effect=failure)
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == (code, unknown)


@pytest.mark.parametrize("failure", [httpx.ConnectError("refused"), httpx.ReadTimeout("slow")])
@respx.mock
async def test_transport_failures_on_the_lookup_send_nothing(
    unipile: UnipileLinkedIn, failure: Exception
) -> None:
    respx.get(f"{BASE}/users/jane-doe-42").mock(side_effect=failure)
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == ("provider_unavailable", False)


@pytest.mark.parametrize(
    ("reply", "code", "unknown"),
    [
        (
            httpx.Response(404, json=problem(404, "errors/resource_not_found", "Not Found")),
            "provider_rejected",
            False,
        ),
        (
            httpx.Response(429, json=problem(429, "errors/too_many_requests", "Slow down")),
            "provider_rate_limited",
            False,
        ),
        (httpx.Response(500, json=problem(500, "errors/unexpected_error", "Oops")), "provider_error", True),
        (httpx.ReadTimeout("slow"), "provider_error", True),
        (httpx.ConnectError("refused"), "provider_unavailable", False),
    ],
)
@respx.mock
async def test_like_errors(unipile: UnipileLinkedIn, reply: Any, code: str, unknown: bool) -> None:
    route = respx.post(f"{BASE}/posts/reaction")
    if isinstance(reply, Exception):
        route.mock(side_effect=reply)
    else:
        route.mock(return_value=reply)
    with pytest.raises(ChannelError) as caught:
        await unipile.like(SOCIAL_ID)
    assert (caught.value.code, caught.value.sent_unknown) == (code, unknown)


@respx.mock
async def test_a_success_without_an_id_may_still_have_sent(unipile: UnipileLinkedIn) -> None:
    mock_profile()
    respx.post(f"{BASE}/chats").mock(return_value=httpx.Response(201, json={"object": "ChatStarted"}))
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert (caught.value.code, caught.value.sent_unknown) == ("provider_error", True)


@respx.mock
async def test_a_shared_client_is_used_and_the_dsn_may_carry_a_scheme() -> None:
    lookup = mock_profile()
    async with httpx.AsyncClient() as client:
        profile = await UnipileLinkedIn(f"https://{DSN}/", KEY, ACCOUNT, client=client).profile(PROFILE_URL)
    assert lookup.called and profile.connected and profile.provider_id == PROVIDER_ID


@respx.mock
async def test_a_file_to_someone_not_connected_is_refused_not_dropped(unipile: UnipileLinkedIn) -> None:
    mock_profile("SECOND_DEGREE")
    invite = respx.post(f"{BASE}/users/invite")
    pdf = Attachment("brochure.pdf", b"%PDF-1.7", "application/pdf")
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message("Hi", attachments=[pdf]))
    assert caught.value.code == "invitation_attachment_unsupported" and caught.value.sent_unknown is False
    assert not invite.called


@respx.mock
async def test_a_2xx_without_json_to_an_acting_call_is_sent_unknown(unipile: UnipileLinkedIn) -> None:
    mock_profile()
    respx.post(f"{BASE}/chats").mock(return_value=httpx.Response(201, text="<html>ok</html>"))
    with pytest.raises(ChannelError) as caught:
        await unipile.send(message())
    assert caught.value.code == "provider_error" and caught.value.sent_unknown is True
