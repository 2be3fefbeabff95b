"""Post-like relevance on the sandbox world: does the job like a post about the requested topic, and
does it skip when the topic is unrelated to everything the profile posted?

Related pairs (profile, topic) come from the world's posts: every profile with posts, every topic among
its 20 latest posts; the content is one of the topic's English phrases (en) or its Chinese label (zh),
and each language is measured on the profiles who post in it. A related pair is correct when the post
the rule would like is about the requested topic. Unrelated topics are a fixed list of everyday
subjects written for this benchmark (not from the world's topics; hobbies the world's "personal" posts
mention, such as running, hiking, the piano or novels, are left out because liking such a post would
be right); every profile is asked about every one of them in its language, and the share skipped is
reported. Candidate rules (the old fixed threshold on the whole-post cosine, margins over the profile's
own posts, calibration against generic reference texts, the shipped score at several thresholds) are
listed with both numbers; the figures are those of the shipped rule (`engagement.relevance`), the
baseline being the old rule (whole-post cosine >= 0.03) in the same run.

    .venv/bin/python bench/post_like_relevance.py [--world-dir DIR] [--seed 7] [--pairs 600]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from _support import emit, emit_triple, note, safe_ratio
from leadwire.engagement import relevance
from leadwire.sandbox.topics import TOPICS
from leadwire.search.embed import encode

DEFAULT_WORLD_DIR = Path("var/bench-world")
POST_LIMIT = 20
OLD_THRESHOLD = 0.03

UNRELATED = {
    "en": "sourdough bread baking|football world cup|knitting patterns|houseplant care|chess openings|"
    "birdwatching|vegan dessert recipes|trout fishing|guitar chords for beginners|cat grooming tips|"
    "dog training|growing tomatoes in the garden|origami|skiing in the alps|stamp collecting|"
    "home espresso brewing|yoga poses|watercolor painting|camping gear|basketball playoffs|"
    "cosplay costumes|wine tasting|tarot card reading|video game speedruns|stargazing and astronomy|"
    "wedding dress shopping|aquarium fish|pottery on the wheel|surfing waves|making sushi at home|"
    "crossword puzzles|hair braiding|motorcycle repair|beekeeping|tennis serve technique|"
    "baby sleep schedules|horror movies|scuba diving|mushroom foraging|ballroom dancing|lego building|"
    "pizza dough",
    "zh": "酸面包烘焙|足球世界杯|编织图案|室内植物养护|国际象棋开局|观鸟|纯素甜点食谱|"
    "钓鳟鱼|吉他入门和弦|猫咪美容|训练小狗|在花园里种番茄|折纸|阿尔卑斯山滑雪|"
    "集邮|在家做意式浓缩咖啡|瑜伽体式|水彩画|露营装备|篮球季后赛|角色扮演服装|"
    "品酒|塔罗牌占卜|电子游戏速通|天文观星|挑选婚纱|水族箱观赏鱼|拉坯陶艺|冲浪|"
    "在家做寿司|填字游戏|编辫子|摩托车维修|养蜂|网球发球技巧|婴儿睡眠规律|"
    "恐怖电影|水肺潜水|采野生蘑菇|国标舞|拼乐高|披萨面团",
}

# Generic posts, for the "background" candidates: how similar a topic is to typical posts.
REFERENCES = (
    ("Excited to share some news with my network today.", "今天很高兴和大家分享一个消息。"),
    ("Thank you to everyone who joined our session yesterday.", "感谢昨天参加我们活动的每一位朋友。"),
    ("A few lessons I learned this year, in no particular order.", "今年学到的几点体会，不分先后。"),
    ("We just published our annual report, link in the comments.", "我们刚刚发布了年度报告，链接见评论。"),
    ("Great conversations at the conference this week.", "本周在大会上交流收获很多。"),
    ("Proud of what this team achieved together.", "为团队共同取得的成绩感到骄傲。"),
    ("Looking for recommendations, any ideas are welcome.", "求推荐，欢迎大家出主意。"),
    ("Our new office is finally open.", "我们的新办公室终于启用了。"),
    ("Here is what I think most people get wrong about this.", "我认为大多数人在这件事上都想错了。"),
    ("Join our webinar next Thursday.", "欢迎参加我们下周四的线上研讨会。"),
    ("Happy to announce that I am starting a new position.", "很高兴宣布我开始了一份新工作。"),
    ("The best advice I received early in my career.", "职业生涯早期我得到的最好建议。"),
    ("Our customers keep teaching us something new.", "我们的客户总能让我们学到新东西。"),
    ("A quick update on the project we started in spring.", "春天启动的项目的最新进展。"),
    ("Grateful for my mentors and colleagues.", "感谢我的导师和同事们。"),
    ("Read our latest article on the blog.", "欢迎阅读我们博客上的最新文章。"),
    ("Some thoughts after a long week of meetings.", "开了一周的会，有一些想法。"),
    ("We are growing and there is more to come.", "我们在成长，更多精彩即将到来。"),
    ("The weather was perfect for a walk in the park today.", "今天天气很好，适合去公园散步。"),
    ("Celebrating a birthday with friends tonight.", "今晚和朋友们一起庆祝生日。"),
    ("Back from a short trip and full of new ideas.", "短途旅行归来，收获了很多新想法。"),
    ("The numbers from last quarter are in.", "上个季度的数据出来了。"),
    ("An interesting discussion about the future of our industry.", "关于我们行业未来的一场有趣讨论。"),
    ("Please share this post with anyone who might be interested.", "请把这条动态转给可能感兴趣的人。"),
)


@dataclass
class Case:
    """One topic asked of one profile: the scores of its posts under each signal."""

    whole: np.ndarray  # cosine of topic and whole post, per post
    shipped: np.ndarray  # relevance.combine, per post
    background: np.ndarray  # cosine of topic and each reference text (the closer language of each)


# Which posts a rule would consider liking, given one parameter (the job likes the best by its score).
Accept = Callable[[Case, float], np.ndarray]


def _pick(score: Callable[[Case], np.ndarray], accept: Accept, value: float = 0.0) -> Callable[[Case], int]:
    def choose(case: Case) -> int:
        i = int(np.argmax(score(case)))
        return i if accept(case, value)[i] else -1

    return choose


def candidates() -> dict[str, Callable[[Case], int]]:
    """Each rule: the index of the post it likes, -1 to skip."""
    whole: Callable[[Case], np.ndarray] = lambda c: c.whole  # noqa: E731
    shipped: Callable[[Case], np.ndarray] = lambda c: c.shipped  # noqa: E731
    rules: dict[str, Callable[[Case], int]] = {}
    for t in (0.0, OLD_THRESHOLD, 0.05, 0.07, 0.1):
        rules[f"whole-post cosine >= {t:.2f}"] = _pick(whole, lambda c, t: c.whole >= t, t)
    for m in (0.03, 0.05, 0.08):
        rules[f"whole - median of the profile's posts >= {m:.2f}"] = _pick(
            whole, lambda c, m: c.whole - np.median(c.whole) >= m, m
        )
    for z in (1.0, 1.5):
        rules[f"z vs the profile's posts >= {z}"] = _pick(
            whole, lambda c, z: (c.whole - c.whole.mean()) / max(float(c.whole.std()), 1e-6) >= z, z
        )
    for m in (0.0, 0.03, 0.05):
        rules[f"whole - mean over reference texts >= {m:.2f}"] = _pick(
            whole, lambda c, m: c.whole - c.background.mean() >= m, m
        )
    for z in (1.0, 2.0):
        rules[f"z vs reference texts >= {z}"] = _pick(
            whole, lambda c, z: (c.whole - c.background.mean()) / c.background.std() >= z, z
        )
    rules["whole >= 0.05 and whole - reference mean >= 0.0"] = _pick(
        whole, lambda c, _: (c.whole >= 0.05) & (c.whole - c.background.mean() >= 0.0)
    )
    rules["whole >= 0.1 or (whole >= 0.03 and whole - profile median >= 0.05)"] = _pick(
        whole, lambda c, _: (c.whole >= 0.1) | ((c.whole >= 0.03) & (c.whole - np.median(c.whole) >= 0.05))
    )
    for t in (0.08, 0.1, 0.11, 0.12, 0.13, 0.14, 0.16):
        rules[f"shipped score >= {t:.2f}"] = _pick(shipped, lambda c, t: c.shipped >= t, t)
    rules["shipped score >= 0.1 and whole - profile median >= 0.03"] = _pick(
        shipped, lambda c, _: (c.shipped >= 0.1) & (c.whole - np.median(c.whole) >= 0.03)
    )
    rules["shipped score >= 0.1 and shipped - reference mean >= 0.0"] = _pick(
        shipped, lambda c, _: (c.shipped >= 0.1) & (c.shipped - c.background.mean() >= 0.0)
    )
    return rules


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


class Profile:
    """A profile's posts, encoded once: whole posts and sentences (as relevance.scores splits them)."""

    def __init__(self, texts: list[str]) -> None:
        split = [relevance.sentences(t) for t in texts]
        self.owner = np.repeat(np.arange(len(texts)), [len(s) for s in split])
        vectors = encode([*texts, *(s for parts in split for s in parts)])
        self.posts, self.parts = vectors[: len(texts)], vectors[len(texts) :]

    def cases(self, topics: np.ndarray, background: np.ndarray) -> list[Case]:
        """One case per topic vector (rows of topics)."""
        whole = self.posts @ topics.T
        shipped = relevance.combine(topics.T, self.posts, self.parts, self.owner)
        return [Case(whole[:, k], shipped[:, k], background[k]) for k in range(len(topics))]


def measure(world: Path, language: str, pairs: int, seed: int) -> dict[str, tuple[float, float]]:
    """Rule -> (accuracy on related pairs, share of unrelated topics skipped)."""
    rnd = random.Random(seed)
    by_label = {t.label: t for t in TOPICS}
    posts = load(world, language)
    related = [(a, t) for a, ps in sorted(posts.items()) for t in sorted({topic for _, topic in ps})]
    rnd.shuffle(related)
    related = related[:pairs]
    contents = [
        rnd.choice(by_label[label].phrases) if language == "en" else by_label[label].zh_label
        for _, label in related
    ]
    unrelated = UNRELATED[language].split("|")
    started = time.perf_counter()
    references = encode([text for pair in REFERENCES for text in pair])

    def background(vectors: np.ndarray) -> np.ndarray:  # per topic: the closer language of each text
        sims = vectors @ references.T
        return np.maximum(sims[:, 0::2], sims[:, 1::2])

    topic_vectors = encode(contents)
    unrelated_vectors = encode(unrelated)
    topic_background, unrelated_background = background(topic_vectors), background(unrelated_vectors)
    authors = sorted({a for a, _ in related})
    profiles = {a: Profile([text for text, _ in posts[a]]) for a in authors}
    rules = candidates()
    hits: dict[str, int] = defaultdict(int)
    skips: dict[str, int] = defaultdict(int)
    for k, (author, label) in enumerate(related):
        case = profiles[author].cases(topic_vectors[k : k + 1], topic_background[k : k + 1])[0]
        about = [topic == label for _, topic in posts[author]]
        for name, rule in rules.items():
            chosen = rule(case)
            hits[name] += chosen >= 0 and about[chosen]
    negatives = 0
    for author in authors:
        for case in profiles[author].cases(unrelated_vectors, unrelated_background):
            negatives += 1
            for name, rule in rules.items():
                skips[name] += rule(case) < 0
    seconds = time.perf_counter() - started
    note(
        f"{language}: {len(related)} related pairs and {negatives} unrelated ({len(unrelated)} topics) "
        f"from {len(authors)} profiles, {seconds:.1f} s"
    )
    found = {name: (hits[name] / len(related), skips[name] / negatives) for name in rules}
    for name, (accuracy, skipped) in found.items():
        note(f"{language} {name}: accuracy {accuracy:.3f}, unrelated skipped {skipped:.2f}")
    emit(f"post_like_pairs_{language}", float(len(related)))
    emit(f"post_like_unrelated_cases_{language}", float(negatives))
    return found


def shipped_name() -> str:
    return f"shipped score >= {relevance.THRESHOLD:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, default=DEFAULT_WORLD_DIR)
    parser.add_argument("--size", default="small")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=600)
    args = parser.parse_args()
    world = ensure_world(args.world_dir, args.size, args.seed)
    note(
        "shipped rule: relevance.combine (mean of whole-post and best-sentence cosine) "
        f">= {relevance.THRESHOLD}"
    )
    chosen, old = shipped_name(), f"whole-post cosine >= {OLD_THRESHOLD:.2f}"
    for language in ("en", "zh"):
        found = measure(world, language, args.pairs, args.seed)
        if chosen not in found:
            raise SystemExit(f"{chosen!r} is not among the candidates: add relevance.THRESHOLD to the grid")
        (accuracy, skipped), (old_accuracy, old_skipped) = found[chosen], found[old]
        emit_triple(
            f"post_like_accuracy_{language}",
            accuracy,
            old_accuracy,
            "",
            ratio=safe_ratio(accuracy, old_accuracy),
            target=f"accuracy >= 0.9: {'met' if accuracy >= 0.9 else 'missed'}; baseline: old threshold 0.03",
        )
        emit_triple(
            f"post_like_unrelated_skipped_{language}",
            skipped,
            old_skipped,
            "",
            ratio=safe_ratio(skipped, old_skipped),
            target=f"skipped >= 0.8: {'met' if skipped >= 0.8 else 'missed'}; baseline: old threshold 0.03",
        )


if __name__ == "__main__":
    main()
