"""LinkedIn posts of the sandbox world: who posts how often, on which topics (the ground-truth
label), when, in which language, with how many likes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from functools import cache

import numpy as np

from leadwire.sandbox.config import SizeConfig, stage_random, stage_rng
from leadwire.sandbox.names import slugify
from leadwire.sandbox.people import Person
from leadwire.sandbox.texts import post_text, slots, zh_text
from leadwire.sandbox.topics import TOPICS, Topic, topics_for

PostRow = tuple[str, str, str, str, str, str, str, str, str, int]
_SENIORITY_ACTIVITY = {
    "c_level": 1.6,
    "vp": 1.5,
    "director": 1.3,
    "manager": 1.1,
    "senior": 1.0,
    "entry": 0.8,
}
_DEPARTMENT_ACTIVITY = {"sales": 1.5, "marketing": 1.5, "executive": 1.4, "hr": 1.3}
_SENIORITY_LIKES = {"c_level": 80, "vp": 50, "director": 35, "manager": 20, "senior": 15, "entry": 10}
_OFF_TOPIC = tuple(t for t in TOPICS if t.off_topic)
_HIRING = next(t for t in TOPICS if t.label == "hiring")


def post_id(index: int) -> str:
    """Public id of the post at `index`."""
    return f"post_{index + 1:07d}"


def assign_interests(seed: int, people: list[Person]) -> list[tuple[Topic, ...]]:
    """Two or three favourite topics per person, tied to department and industry."""
    rnd = stage_random(seed, "interests")
    out = []
    for p in people:
        pool = topics_for(p.department, p.company.industry.sector.key)
        out.append(tuple(rnd.sample(pool, min(len(pool), rnd.randint(2, 3)))))
    return out


def posts_per_person(cfg: SizeConfig, seed: int, people: list[Person]) -> np.ndarray:
    """How many posts each person wrote; about 45% of people post at all."""
    rng = stage_rng(seed, "post-counts")
    activity = rng.lognormal(0.0, 0.8, len(people)) * (rng.random(len(people)) < 0.45)
    activity *= np.array(
        [_SENIORITY_ACTIVITY[p.seniority] * _DEPARTMENT_ACTIVITY.get(p.department, 1.0) for p in people]
    )
    if activity.sum() == 0:
        activity[:] = 1.0
    return rng.multinomial(cfg.posts, activity / activity.sum())


def generate_posts(
    cfg: SizeConfig, seed: int, as_of: date, people: list[Person], interests: list[tuple[Topic, ...]]
) -> Iterator[PostRow]:
    """Post rows in id order: each author's posts together, oldest first."""
    counts = posts_per_person(cfg, seed, people)
    rng = stage_rng(seed, "posts")
    rnd = stage_random(seed, "posts")
    total = int(counts.sum())
    end = datetime(as_of.year, as_of.month, as_of.day, tzinfo=UTC)
    offsets = rng.integers(0, 365 * 86_400, size=total)  # seconds before the end of the window
    millis = rng.integers(0, 1000, size=total)
    like_noise = rng.lognormal(0.0, 1.0, size=total)
    index = 0
    for person, count in zip(people, counts, strict=True):
        if count == 0:
            continue
        span = slice(index, index + int(count))
        order = np.argsort(-offsets[span], kind="stable")  # oldest first
        for k in order:
            i = index + int(k)
            when = end - timedelta(seconds=int(offsets[i])) + timedelta(milliseconds=int(millis[i]))
            yield _post(rnd, i, person, interests[person.index], when, float(like_noise[i]))
        index += int(count)


def _pick_topic(rnd: random.Random, person: Person, favourites: tuple[Topic, ...]) -> Topic:
    u = rnd.random()
    if u < 0.75 and favourites:
        return rnd.choices(favourites, [3, 2, 1][: len(favourites)])[0]
    if u < 0.85:
        return rnd.choice(topics_for(person.department, person.company.industry.sector.key))
    if u < 0.88:
        return _HIRING
    return rnd.choice(_OFF_TOPIC)


def _post(
    rnd: random.Random,
    index: int,
    person: Person,
    favourites: tuple[Topic, ...],
    when: datetime,
    like_noise: float,
) -> PostRow:
    topic = _pick_topic(rnd, person, favourites)
    zh_share = 0.75 if person.company.country.alpha2 in ("CN", "TW") else 0.5
    zh = person.name.language == "zh" and rnd.random() < zh_share
    text = post_text(rnd, topic, slots(rnd, person.company, person.department), zh)
    if zh:
        text = zh_text(person.company, text)
    ms = int(when.timestamp() * 1000)
    activity = (ms << 22) | (index & 0x3FFFFF)  # LinkedIn activity ids are time-ordered snowflakes
    likes = _SENIORITY_LIKES[person.seniority] * like_noise * (2 if topic.off_topic else 1)
    return (
        post_id(index),
        person.id,
        person.linkedin_url,
        f"https://www.linkedin.com/posts/{person.slug}_{_topic_slug(topic)}-activity-{activity}",
        f"urn:li:activity:{activity}",
        when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        text,
        topic.label,
        "zh" if zh else "en",
        int(likes),
    )


@cache
def _topic_slug(topic: Topic) -> str:
    return slugify(topic.phrases[0])
