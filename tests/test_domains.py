"""Domain normalisation for contacts searches: what is accepted, how it is cleaned, what is rejected."""

from __future__ import annotations

import pytest

from leadwire.domains import normalise_domain


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("acme.example", "acme.example"),
        ("https://www.Acme.example:8443/about?x=1", "acme.example"),
        ("http://acme.com", "acme.com"),
        ("HTTPS://WWW.ACME.COM/", "acme.com"),
        ("www.acme.co.uk", "acme.co.uk"),
        ("acme.co.uk/contact#team", "acme.co.uk"),
        ("  acme.com.  ", "acme.com"),
        ("acme.com:443", "acme.com"),
        ("shop.acme.com", "shop.acme.com"),
        ("acme.test", "acme.test"),
        ("acme.localhost", "acme.localhost"),
        ("news.acme.example", "news.acme.example"),
        ("例子.中国", "xn--fsqu00a.xn--fiqs8s"),
        ("https://münchen-gmbh.de/impressum", "xn--mnchen-gmbh-thb.de"),
        ("my-company.io", "my-company.io"),
    ],
)
def test_accepted_domains_are_normalised(raw: str, expected: str) -> None:
    assert normalise_domain(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "Acme Inc",
        "Acme",
        "acme",
        "jane@acme.example",
        "mailto:jane@acme.example",
        "https://jane:pw@acme.example/",
        "https://www.linkedin.com/company/acme",
        "linkedin.com/in/jane-doe",
        "https://lnkd.in/abc",
        "https://twitter.com/acme",
        "https://x.com/acme",
        "facebook.com/acme",
        "https://weibo.com/acme",
        "192.168.0.1",
        "http://10.0.0.1:8080/",
        "[::1]",
        "co.uk",
        "acme.notatld",
        "acme_corp.com",
        "-acme.com",
        "acme..com",
        "ftp://acme.com",
        "www.example",
        "https://",
        "a" * 64 + ".com",
        "1.2.3",
    ],
)
def test_rejected_inputs_raise_value_error(raw: str) -> None:
    with pytest.raises(ValueError):
        normalise_domain(raw)


def test_sandbox_domains_are_valid() -> None:
    assert normalise_domain("https://northwind-logistics.example/team") == "northwind-logistics.example"


@pytest.mark.parametrize(
    "raw", ["Acme Logistics", "jane@acme.example", "https://linkedin.com/company/acme", "10.0.0.1"]
)
def test_lenient_mode_never_raises_where_strict_mode_refuses(raw: str) -> None:
    with pytest.raises(ValueError):
        normalise_domain(raw)
    assert isinstance(normalise_domain(raw, strict=False), str)


def test_both_modes_agree_on_a_company_website() -> None:
    for raw in ("https://www.Acme.example/about", "acme.example:443", " news.acme.example. "):
        assert normalise_domain(raw) == normalise_domain(raw, strict=False)
