"""The websets capability: prospect lists. Its endpoints and actions arrive with the websets issue; its
scopes (spec section 5) are declared here already, so keys can be issued with them."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature

CAPABILITY = Capability(
    name="websets", scopes=("websets:read", "websets:write"), features=(Feature("websets"),)
)
