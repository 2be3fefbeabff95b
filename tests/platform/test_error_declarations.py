"""Error codes are declared where they belong: the platform's in `platform/errors.py`, a capability's
in its declaration, gathered when it is installed; a code nobody declared is refused."""

from __future__ import annotations

import pytest

from leadwire import capabilities
from leadwire.platform.capability import Capability, install
from leadwire.platform.errors import CATALOGUE, PLATFORM_ERRORS, ApiError, ErrorCode


def test_each_built_in_capability_s_codes_are_its_own_and_none_is_the_platform_s() -> None:
    platform_codes = {e.code for e in PLATFORM_ERRORS}
    declared = {e.code for capability in capabilities.CAPABILITIES for e in capability.errors}
    assert platform_codes.isdisjoint(declared)
    assert set(CATALOGUE) == platform_codes | declared
    websets = next(c for c in capabilities.CAPABILITIES if c.name == "websets")
    # Each names the resource it is about: a list, one of its exclusions, or an import.
    assert all(
        {"webset", "exclusion", "import", "enrichment", "monitor"} & set(e.code.split("_"))
        for e in websets.errors
    )


def test_a_new_capability_brings_its_codes_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(CATALOGUE, "_codes", dict(CATALOGUE._codes))  # the session's catalogue stays
    code = ErrorCode("sample_refused", 409, when="a sample was refused by the test", remedy="nothing to do")
    with pytest.raises(ValueError, match="unknown public error code"):
        ApiError("sample_refused")
    install([Capability(name="sample", errors=(code,))])
    assert ApiError("sample_refused").status == 409
    install([Capability(name="sample", errors=(code,))])  # the same declaration again: idempotent
    different = ErrorCode("sample_refused", 400, when="a sample was refused by the test", remedy="nothing")
    with pytest.raises(ValueError, match="declared twice"):
        install([Capability(name="sample-2", errors=(different,))])
