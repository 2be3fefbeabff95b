"""How fast sends through connected accounts may be asked for: the `outreach` request class, shared
by every capability that sends (a dispatch, a post like), rate-limited apart from other tasks."""

from __future__ import annotations

from leadwire.platform.plans import RequestClass

SENDS = RequestClass("outreach", {"free": 20, "pro": 60, "business": 300})
