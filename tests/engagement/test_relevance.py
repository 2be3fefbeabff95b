"""The post-like relevance rule as shipped (relevance.THRESHOLD, no test-only threshold)."""

from __future__ import annotations

from leadwire.engagement import relevance

POSTS = [
    "Finished my first half marathon this weekend. Slow, happy, sore.",
    "Quick thought on growth. We qualified three suppliers to make our supply chain resilient.\n"
    "Nearshoring part of our volume cut transit time by almost half. #supplychain",
    "We are hiring two backend engineers in Berlin. Great people build great products.",
    "周末完成了人生第一个半程马拉松。",
]


def test_likes_the_post_about_the_topic_even_when_it_mixes_subjects() -> None:
    for topic, expected in (
        ("supply chain resilience", 1),
        ("running a half marathon", 0),
        ("hiring engineers", 2),
        ("半程马拉松", 3),
    ):
        found = relevance.ranked(topic, list(range(len(POSTS))), POSTS)
        assert found and found[0].item == expected, (topic, found)
        assert found[0].score >= relevance.THRESHOLD


def test_unrelated_topics_are_skipped() -> None:
    for topic in (
        "sourdough bread baking",
        "knitting patterns",
        "football world cup",
        "针织图案",
        "酸面包烘焙",
    ):
        assert relevance.ranked(topic, list(range(len(POSTS))), POSTS) == [], topic


def test_sentences_and_empty_input() -> None:
    assert relevance.sentences("One. Two!  Three?\n\nFour\n第五。第六") == [
        "One.",
        "Two!",
        "Three?",
        "Four",
        "第五。",
        "第六",
    ]
    assert relevance.sentences("   ") == []
    assert len(relevance.sentences("a. " * 100)) == relevance.MAX_SENTENCES
    assert relevance.ranked("anything", [], []) == []
    assert relevance.scores("anything", [""]) == relevance.scores("anything", [""])  # a blank post scores too
