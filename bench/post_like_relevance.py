"""Post-like relevance on the sandbox world: does the job pick a post about the requested topic?

Pairs (profile, topic) come from the world's posts: every profile with posts, every topic among its 20
latest posts; the content is one of the topic's English phrases (en) or its Chinese label (zh), and
each language is measured on the profiles who post in it. A pair is correct when the post the job
would like (`engagement.relevance.ranked`, the most similar post at or above the threshold) is about
the requested topic. Hard negatives (a topic of the same world the profile did not post about) show
how often the threshold skips. Prints accuracy per language and a table over thresholds, the
basis of `relevance.THRESHOLD` (the highest threshold keeping both languages at >= 0.9).

    .venv/bin/python bench/post_like_relevance.py [--world-dir DIR] [--pairs 600]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

import numpy as np

from _support import emit, note
from leadwire.engagement.relevance import THRESHOLD, similarities
from leadwire.sandbox.topics import TOPICS

DEFAULT_WORLD_DIR = Path("var/bench-world")
POST_LIMIT = 20
GRID = (0.0, 0.03, 0.05, 0.07, 0.1, 0.15)


def ensure_world(world_dir: Path, size: str, seed: int) -> Path:
    if not (world_dir / "world.db").is_file():
        from leadwire.sandbox.world import build_world

        build_world(world_dir, seed=seed, size=size, as_of=date(2025, 6, 30), progress=False)
    return world_dir


def load(world: Path, language: str) -> dict[str, list[tuple[str, str]]]:
    """Author -> their latest posts as (text, topic), newest first."""
    with sqlite3.connect(f"{(world / 'world.db').resolve().as_uri()}?mode=ro", uri=True) as con:
        rows = con.execute(
            "SELECT author_id, text, topic FROM posts WHERE language = ? "
            "ORDER BY author_id, published_at DESC",
            (language,),
        ).fetchall()
    posts: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for author, text, topic in rows:
        if len(posts[author]) < POST_LIMIT:
            posts[author].append((text, topic))
    return posts


def measure(world: Path, language: str, pairs: int, seed: int) -> None:
    rnd = random.Random(seed)
    by_label = {t.label: t for t in TOPICS}

    def content(label: str) -> str:
        return rnd.choice(by_label[label].phrases) if language == "en" else by_label[label].zh_label

    posts = load(world, language)
    cases = [(a, t) for a, ps in sorted(posts.items()) for t in sorted({topic for _, topic in ps})]
    rnd.shuffle(cases)
    cases = cases[:pairs]
    started = time.perf_counter()
    positive: list[tuple[bool, float]] = []  # (argmax is on topic, best score)
    negative: list[float] = []
    for author, label in cases:
        texts = [text for text, _ in posts[author]]
        scores = similarities(content(label), texts)
        best = int(np.argmax(scores))
        positive.append((posts[author][best][1] == label, scores[best]))
        posted = {topic for _, topic in posts[author]}
        other = rnd.choice([t.label for t in TOPICS if t.label not in posted] or [label])
        negative.append(max(similarities(content(other), texts)))
    seconds = time.perf_counter() - started
    correct = np.array([ok for ok, _ in positive])
    best_scores = np.array([score for _, score in positive])
    negatives = np.array(negative)
    note(f"{language}: {len(cases)} pairs from {len(posts)} profiles, {seconds:.1f} s")
    for threshold in GRID:
        accuracy = float(np.mean(correct & (best_scores >= threshold)))
        skipped = float(np.mean(negatives < threshold))
        note(
            f"{language} threshold {threshold:.2f}: accuracy {accuracy:.3f}, "
            f"hard negatives skipped {skipped:.2f}"
        )
    emit(
        f"post_like_accuracy_{language}",
        float(np.mean(correct & (best_scores >= THRESHOLD))),
        "",
        f"threshold {THRESHOLD}",
    )
    emit(f"post_like_accuracy_{language}_baseline", float(np.mean(correct)), "", "argmax, no threshold")
    emit(f"post_like_negatives_skipped_{language}", float(np.mean(negatives < THRESHOLD)))
    emit(f"post_like_pairs_{language}", float(len(cases)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, default=DEFAULT_WORLD_DIR)
    parser.add_argument("--size", default="small")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=600)
    args = parser.parse_args()
    world = ensure_world(args.world_dir, args.size, args.seed)
    for language in ("en", "zh"):
        measure(world, language, args.pairs, args.seed)


if __name__ == "__main__":
    main()
