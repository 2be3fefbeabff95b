"""Post-like relevance on two sandbox worlds, with topics asked in paraphrase and the threshold judged on a
world it was not chosen on: does the job like a post about the requested topic, and does it skip when
the topic is unrelated to everything the profile posted?

Questions. Related pairs (profile, topic) come from a world's posts: every profile with posts in the
language, every topic among its 20 latest posts (shuffled, at most --pairs per language); each language
is measured on the profiles who post in it. The topic is not asked in the generator's words (its label,
Chinese label and `phrases` appear verbatim in the posts): PARAPHRASES gives every topic of
`sandbox.topics.TOPICS` 3 English and 2 Chinese descriptions, written as a salesperson would describe
the subject of a post they want to like. At start the bench fails if a paraphrase contains the topic's
label, Chinese label or one of its phrases (case-insensitive), shares a two-word sequence with them, or
contains three consecutive characters of the Chinese label. Each related pair is asked with every
paraphrase of its topic in its language; it is correct when the post the rule would like is about the
topic (the post's generated `topic`). Unrelated topics are a fixed list of everyday subjects written for
this benchmark (not from the world's topics; hobbies the world's "personal" posts mention, such as
running, hiking, the piano or novels, are left out because liking such a post would be right); every
profile of the related pairs is asked about every one of them in its language, and the share skipped
is reported.

Thresholds. Two small worlds with different generator seeds are built (`build_world(size="small",
as_of=2025-06-30)`, in var/bench-world-seed<N>): --tune-seed (7) and --report-seed (11). The shipped
score (`relevance.combine`: mean of the whole-post and best-sentence cosine) is evaluated at every
threshold of GRID (0.06 to 0.20 by 0.01); on each world the threshold with the highest mean of related
accuracy and unrelated share skipped, averaged over en and zh, is chosen (ties: the lowest), and its
figures are printed on that world (in-world) beside the other world (held-out), both ways round.
`relevance.THRESHOLD` is the one this procedure chose on seed 7 (seed 11 chose the same), so the headline
figures are the shipped rule's on the report world, which was not used to choose it:
`post_like_accuracy_{en,zh}` and `post_like_unrelated_skipped_{en,zh}`, the baseline being the old rule
(whole-post cosine >= 0.03) on the same questions. Also printed: `post_like_threshold_chosen_seed<N>` and
the chosen threshold's held-out figures (`post_like_tuned_seed<N>_heldout_*`). Other candidate rules
(margins over the profile's own posts, calibration against generic reference texts, the old whole-post
cosine at several cuts) are listed on both worlds as comment lines.

    .venv/bin/python bench/post_like_relevance.py [--tune-seed 7] [--report-seed 11] [--pairs 600]
        [--tune-world DIR] [--report-world DIR]
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sqlite3
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from _support import emit, emit_triple, note, safe_ratio, verdict
from leadwire.engagement import relevance
from leadwire.sandbox.topics import TOPICS
from leadwire.search.embed import encode

POST_LIMIT = 20
OLD_THRESHOLD = 0.03
AS_OF = date(2025, 6, 30)
LANGUAGES = ("en", "zh")
GRID = tuple(round(0.06 + 0.01 * i, 2) for i in range(15))  # 0.06 .. 0.20
SHIPPED_CHOSEN_ON = 7  # the world relevance.THRESHOLD was picked on (see relevance.py)

# How a salesperson would describe the subject of a post they want to like; never the generator's words
# (checked by check_paraphrases). Topic label -> (English, Chinese).
PARAPHRASES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "supply chain resilience": (
        (
            "keeping deliveries flowing when a supplier fails",
            "having backup vendors so production never stops",
            "preparing for disruptions in sourcing critical parts",
        ),
        ("供应商出问题时也能保证按时交货", "多找几家备选供货商，避免断货"),
    ),
    "cloud cost optimisation": (
        (
            "cutting the monthly bill for AWS or Azure",
            "paying less for cloud servers and storage",
            "engineers keeping hosting expenses under control",
        ),
        ("降低云服务器和存储的费用", "控制上云以后每月的账单开销"),
    ),
    "hiring": (
        (
            "a company looking for new people to join its staff",
            "job vacancies they are trying to fill",
            "recruiting candidates for several positions",
        ),
        ("公司在招人，有职位空缺", "寻找合适的求职者加入公司"),
    ),
    "trade fair": (
        (
            "meeting buyers at an industry expo booth",
            "presenting products at a big annual industry fair",
            "visiting stands at a sector convention",
        ),
        ("在行业博览会上设展位接待客户", "参加大型行业博览会"),
    ),
    "product launch": (
        (
            "a company unveiling something new it has built",
            "bringing the next version of their offering to market",
            "announcing a newly available product",
        ),
        ("公司正式推出全新产品", "新版本产品上市"),
    ),
    "AI in sales": (
        (
            "using artificial intelligence to help reps close more deals",
            "machine learning tools that write prospecting emails",
            "letting software assistants do account research for sellers",
        ),
        ("用人工智能帮助销售人员提高成交率", "让智能助手替业务员写开发信"),
    ),
    "cybersecurity": (
        (
            "keeping the company's computers safe from hackers and phishing",
            "defending against data breaches and ransomware",
            "locking down admin accounts against attackers",
        ),
        ("防范黑客攻击和钓鱼邮件", "保护公司系统不被入侵"),
    ),
    "sustainability": (
        (
            "cutting a company's carbon emissions",
            "going green with renewable energy and less waste",
            "reducing the environmental footprint of operations",
        ),
        ("减少企业的碳排放", "使用清洁能源、保护环境"),
    ),
    "customer success": (
        (
            "keeping clients happy so they renew",
            "helping new clients get value from the product",
            "stopping accounts from leaving for a competitor",
        ),
        ("留住老客户、提高续约率", "帮助新客户用好我们的产品"),
    ),
    "leadership": (
        (
            "what makes a good boss",
            "how to guide and motivate the people who report to you",
            "running a team well as a manager",
        ),
        ("如何做一个好上司", "带领团队、激励下属的经验"),
    ),
    "fundraising": (
        (
            "a startup raising money from venture capital",
            "closing a new investment from backers",
            "securing capital to grow the business",
        ),
        ("创业公司获得风险投资", "公司拿到新一轮投资"),
    ),
    "export growth": (
        (
            "selling more of our goods abroad",
            "winning first customers in foreign countries",
            "expanding sales overseas through distributors",
        ),
        ("把产品卖到海外市场", "开拓国外客户和经销商"),
    ),
    "digital transformation": (
        (
            "replacing paper and spreadsheets with modern software",
            "moving a traditional company's processes onto new IT systems",
            "rolling out a new company-wide business software system",
        ),
        ("用新的软件系统替代纸质和表格流程", "传统企业上线新的管理系统"),
    ),
    "data engineering": (
        (
            "building the systems that move and clean company data for analysis",
            "making sure reporting tables are accurate and load on time",
            "designing warehouse models and ETL jobs",
        ),
        ("搭建数据仓库和ETL任务", "保证报表数据准确、按时更新"),
    ),
    "financial planning": (
        (
            "forecasting revenue and setting next year's budget",
            "how the finance team plans cash and costs",
            "planning company spending with forecasts and scenarios",
        ),
        ("制定年度预算和收入预测", "财务团队做现金和成本计划"),
    ),
    "compliance": (
        (
            "following the law and new reporting rules",
            "protecting customers' personal information under privacy laws",
            "preparing for audits and legal requirements",
        ),
        ("遵守法律法规，应对审计", "保护客户个人信息和隐私"),
    ),
    "employer branding": (
        (
            "why people enjoy working at a firm",
            "showing what the workplace is like to attract talent",
            "the values and atmosphere employees experience at work",
        ),
        ("员工为什么喜欢在这里工作", "打造吸引人才的公司形象"),
    ),
    "manufacturing automation": (
        (
            "robots and machines taking over manual work on the production line",
            "connecting factory equipment to software to raise output",
            "modernising a plant with robot arms and sensors",
        ),
        ("工厂用机器人替代人工", "生产线升级改造，提高产量"),
    ),
    "logistics costs": (
        (
            "paying less to move goods by truck, sea or air",
            "negotiating lower prices with carriers and forwarders",
            "how much it costs to transport products to customers",
        ),
        ("降低运费和货运开支", "和货代谈更低的运输价格"),
    ),
    "B2B marketing": (
        (
            "marketing aimed at business buyers",
            "getting inbound leads from corporate customers",
            "campaigns, webinars and case studies aimed at companies",
        ),
        ("面向企业客户的市场推广", "通过内容和网络研讨会获取企业线索"),
    ),
    "personal": (
        (
            "someone's hobbies and time off with family",
            "a run, a hike or a holiday away from the job",
            "what someone does when they are not working",
        ),
        ("下班后的爱好和家庭时光", "跑步、徒步和度假"),
    ),
    "congratulations": (
        (
            "celebrating a colleague's promotion",
            "applauding a team for winning an award",
            "praising someone on their new job",
        ),
        ("恭喜同事升职", "为团队获奖喝彩"),
    ),
    "work anniversary": (
        (
            "marking another year with the same employer",
            "celebrating how long someone has been at their job",
            "the date someone joined their firm, years later",
        ),
        ("纪念加入公司满若干年", "在同一家公司工作又满一年"),
    ),
}

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
    rules["shipped score >= 0.1 and whole - profile median >= 0.03"] = _pick(
        shipped, lambda c, _: (c.shipped >= 0.1) & (c.whole - np.median(c.whole) >= 0.03)
    )
    rules["shipped score >= 0.1 and shipped - reference mean >= 0.0"] = _pick(
        shipped, lambda c, _: (c.shipped >= 0.1) & (c.shipped - c.background.mean() >= 0.0)
    )
    return rules


def shipped_rule(threshold: float) -> Callable[[Case], int]:
    """The shipped rule at one threshold: like the best post by relevance.combine if it reaches it."""
    return _pick(lambda c: c.shipped, lambda c, t: c.shipped >= t, threshold)


# --- paraphrases -------------------------------------------------------------------------------------


def _bigrams(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9&+'-]+", text.lower())
    return {f"{a} {b}" for a, b in itertools.pairwise(words)}


def _runs(text: str, n: int = 3) -> set[str]:
    """Runs of n characters of a short label (the label itself when it has at most n)."""
    text = text.lower()
    return {text} if len(text) <= n else {text[i : i + n] for i in range(len(text) - n + 1)}


def check_paraphrases() -> None:
    """Fail fast unless every topic has 2-3 English and 1-2 Chinese paraphrases that reuse none of the
    generator's wording for it: not its label, Chinese label or phrases (case-insensitive), no two-word
    sequence of those, no three consecutive characters of the Chinese label."""
    problems: list[str] = []
    labels = {t.label for t in TOPICS}
    problems += [
        f"{label!r} is not a topic of sandbox.topics" for label in sorted(PARAPHRASES.keys() - labels)
    ]
    for topic in TOPICS:
        if topic.label not in PARAPHRASES:
            problems.append(f"{topic.label!r} has no paraphrases")
            continue
        en, zh = PARAPHRASES[topic.label]
        if not (2 <= len(en) <= 3 and 1 <= len(zh) <= 2):
            problems.append(f"{topic.label!r}: {len(en)} English and {len(zh)} Chinese paraphrases")
        own = tuple(dict.fromkeys((topic.label, *topic.phrases, topic.zh_label)))
        own_bigrams = set().union(*(_bigrams(p) for p in own))
        for text in (*en, *zh):
            lowered = text.lower()
            problems += [
                f"{topic.label!r}: {text!r} contains the generator's {p!r}"
                for p in own
                if p.lower() in lowered
            ]
            problems += [
                f"{topic.label!r}: {text!r} shares {b!r}" for b in sorted(_bigrams(text) & own_bigrams)
            ]
            problems += [
                f"{topic.label!r}: {text!r} shares {r!r} of {topic.zh_label!r}"
                for r in sorted(_runs(topic.zh_label))
                if r in lowered and topic.zh_label.lower() not in lowered
            ]
    if problems:
        raise SystemExit("PARAPHRASES reuses the generator's wording:\n  " + "\n  ".join(problems))


def paraphrases(label: str, language: str) -> tuple[str, ...]:
    en, zh = PARAPHRASES[label]
    return en if language == "en" else zh


# --- worlds and questions ----------------------------------------------------------------------------


def default_world(seed: int) -> Path:
    return Path(f"var/bench-world-seed{seed}")


def ensure_world(world_dir: Path, size: str, seed: int) -> Path:
    """The world of (seed, size, AS_OF) in world_dir: built when absent, refused when another."""
    from leadwire.sandbox.store import read_meta

    meta = read_meta(world_dir)
    if not meta:
        from leadwire.sandbox.world import build_world

        note(f"building the {size} world of seed {seed} in {world_dir}")
        build_world(world_dir, seed=seed, size=size, as_of=AS_OF, progress=False)
        meta = read_meta(world_dir)
    wanted = {"seed": str(seed), "size": size, "as_of": AS_OF.isoformat()}
    found = {key: meta.get(key) for key in wanted}
    if found != wanted:
        raise SystemExit(f"{world_dir} holds the world {found}, not {wanted}: remove it or pass another dir")
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


@dataclass
class Questions:
    """One world and language, encoded: each related question (a pair asked with one paraphrase of its
    topic) with which of the profile's posts are about the topic, and each unrelated question."""

    related: list[tuple[Case, np.ndarray]]
    unrelated: list[Case]
    pairs: int
    profiles: int
    topics: int  # distinct unrelated topics


def ask(world: Path, language: str, pairs: int, seed: int) -> Questions:
    rnd = random.Random(seed)
    posts = load(world, language)
    related = [(a, t) for a, ps in sorted(posts.items()) for t in sorted({topic for _, topic in ps})]
    rnd.shuffle(related)
    related = related[:pairs]
    texts = sorted({text for _, label in related for text in paraphrases(label, language)})
    unrelated = UNRELATED[language].split("|")
    started = time.perf_counter()
    references = encode([text for pair in REFERENCES for text in pair])

    def background(vectors: np.ndarray) -> np.ndarray:  # per topic: the closer language of each text
        sims = vectors @ references.T
        return np.maximum(sims[:, 0::2], sims[:, 1::2])

    topic_vectors = encode(texts)
    index = {text: k for k, text in enumerate(texts)}
    unrelated_vectors = encode(unrelated)
    topic_background, unrelated_background = background(topic_vectors), background(unrelated_vectors)
    authors = sorted({a for a, _ in related})
    profiles = {a: Profile([text for text, _ in posts[a]]) for a in authors}
    questions = Questions([], [], len(related), len(authors), len(unrelated))
    for author, label in related:
        rows = [index[text] for text in paraphrases(label, language)]
        about = np.array([topic == label for _, topic in posts[author]])
        for case in profiles[author].cases(topic_vectors[rows], topic_background[rows]):
            questions.related.append((case, about))
    for author in authors:
        questions.unrelated += profiles[author].cases(unrelated_vectors, unrelated_background)
    note(
        f"seed {seed} {language}: {len(related)} related pairs ({len(questions.related)} questions with "
        f"the paraphrases) and {len(questions.unrelated)} unrelated ({len(unrelated)} topics) from "
        f"{len(authors)} profiles, {time.perf_counter() - started:.1f} s"
    )
    return questions


def evaluate(questions: Questions, rule: Callable[[Case], int]) -> tuple[float, float]:
    """(accuracy on the related questions, share of the unrelated ones skipped)."""
    hits = 0
    for case, about in questions.related:
        chosen = rule(case)
        hits += chosen >= 0 and bool(about[chosen])
    skipped = sum(rule(case) < 0 for case in questions.unrelated)
    return hits / len(questions.related), skipped / len(questions.unrelated)


# --- report ------------------------------------------------------------------------------------------


Figures = dict[str, tuple[float, float]]  # language -> (accuracy, skipped)


def objective(figures: Figures) -> float:
    """What the threshold is chosen by: mean of accuracy and skipped share, averaged over languages."""
    return float(np.mean([(accuracy + skipped) / 2 for accuracy, skipped in figures.values()]))


def row(label: str, world: str, role: str, figures: Figures) -> str:
    cells = "".join(f"{figures[lang][0]:>9.3f}{figures[lang][1]:>9.3f}" for lang in LANGUAGES)
    return f"{label:<42}{world:<9}{role:<10}{cells}{objective(figures):>10.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tune-seed", type=int, default=7, help="generator seed of the first world")
    parser.add_argument("--report-seed", type=int, default=11, help="seed of the headline (held-out) world")
    parser.add_argument("--tune-world", type=Path, help="default: var/bench-world-seed<tune seed>")
    parser.add_argument("--report-world", type=Path, help="default: var/bench-world-seed<report seed>")
    parser.add_argument("--size", default="small")
    parser.add_argument("--pairs", type=int, default=600, help="related pairs per world and language")
    args = parser.parse_args()
    if args.tune_seed == args.report_seed:
        raise SystemExit("--tune-seed and --report-seed must differ")
    check_paraphrases()
    tune, report = args.tune_seed, args.report_seed
    seeds = (tune, report)
    worlds = {
        tune: ensure_world(args.tune_world or default_world(tune), args.size, tune),
        report: ensure_world(args.report_world or default_world(report), args.size, report),
    }
    english = sum(len(en) for en, _ in PARAPHRASES.values())
    chinese = sum(len(zh) for _, zh in PARAPHRASES.values())
    note(
        f"topics asked as paraphrases: {len(PARAPHRASES)} topics, {english} English and {chinese} Chinese "
        "texts, none reusing the generator's label, Chinese label or phrases"
    )
    note(
        "shipped rule: relevance.combine (mean of whole-post and best-sentence cosine) "
        f">= {relevance.THRESHOLD} (chosen on seed {SHIPPED_CHOSEN_ON})"
    )
    if report == SHIPPED_CHOSEN_ON:
        note(f"warning: the report world (seed {report}) is the one relevance.THRESHOLD was chosen on")
    questions = {(s, lang): ask(worlds[s], lang, args.pairs, s) for s in seeds for lang in LANGUAGES}

    def figures(seed: int, rule: Callable[[Case], int]) -> Figures:
        return {lang: evaluate(questions[seed, lang], rule) for lang in LANGUAGES}

    old_name = f"whole-post cosine >= {OLD_THRESHOLD:.2f}"
    for name, rule in candidates().items():
        found = {s: figures(s, rule) for s in seeds}
        for lang in LANGUAGES:
            note(
                f"{lang} {name}: "
                + "; ".join(
                    f"seed {s} accuracy {found[s][lang][0]:.3f}, skipped {found[s][lang][1]:.2f}"
                    for s in seeds
                )
            )
    grid = {(s, t): figures(s, shipped_rule(t)) for s in seeds for t in GRID}
    note("shipped score at each threshold: accuracy and skipped per language, objective (mean of the four)")
    for t in GRID:
        note(
            f"  >= {t:.2f}: "
            + " | ".join(
                f"seed {s} "
                + " ".join(
                    f"{lang} {grid[s, t][lang][0]:.3f}/{grid[s, t][lang][1]:.2f}" for lang in LANGUAGES
                )
                + f" obj {objective(grid[s, t]):.3f}"
                for s in seeds
            )
        )
    chosen: dict[int, float] = {}
    for s in seeds:
        best = max(objective(grid[s, t]) for t in GRID)
        ties = [t for t in GRID if objective(grid[s, t]) == best]
        chosen[s] = ties[0]
        note(
            f"chosen on seed {s}: {chosen[s]:.2f} (objective {best:.3f}"
            + (f"; tied with {', '.join(f'{t:.2f}' for t in ties[1:])}" if len(ties) > 1 else "")
            + ")"
        )
    other = {tune: report, report: tune}
    shipped = {s: figures(s, shipped_rule(relevance.THRESHOLD)) for s in seeds}
    old = {s: figures(s, candidates()[old_name]) for s in seeds}
    note("in-world (the threshold was chosen there) beside held-out (it was not); paraphrased topics")
    columns = "".join(f"{lang + ' acc':>9}{lang + ' skip':>9}" for lang in LANGUAGES)
    note(f"{'rule':<42}{'world':<9}{'role':<10}{columns}{'objective':>10}")
    shipped_label = f"shipped score >= {relevance.THRESHOLD:.2f}"
    for s in seeds:
        role = "in-world" if s == SHIPPED_CHOSEN_ON else "held-out"
        note(row(shipped_label, f"seed {s}", role, shipped[s]))
    for s in seeds:
        label = f"chosen on seed {s}: score >= {chosen[s]:.2f}"
        note(row(label, f"seed {s}", "in-world", grid[s, chosen[s]]))
        note(row("", f"seed {other[s]}", "held-out", grid[other[s], chosen[s]]))
    for s in seeds:
        note(row(f"old rule: {old_name}", f"seed {s}", "fixed", old[s]))

    for lang in LANGUAGES:
        emit(f"post_like_pairs_{lang}", float(questions[report, lang].pairs))
        emit(f"post_like_related_questions_{lang}", float(len(questions[report, lang].related)))
        emit(f"post_like_unrelated_cases_{lang}", float(len(questions[report, lang].unrelated)))
    emit("post_like_threshold_shipped", relevance.THRESHOLD)
    for s in seeds:
        emit(f"post_like_threshold_chosen_seed{s}", chosen[s])
    for s in seeds:
        held_out = grid[other[s], chosen[s]]
        for lang in LANGUAGES:
            emit(
                f"post_like_tuned_seed{s}_heldout_accuracy_{lang}",
                held_out[lang][0],
                note=f"on seed {other[s]}",
            )
            emit(
                f"post_like_tuned_seed{s}_heldout_skipped_{lang}",
                held_out[lang][1],
                note=f"on seed {other[s]}",
            )
    where = f"baseline: old threshold 0.03; held-out world seed {report}, paraphrased topics"
    for lang in LANGUAGES:
        (accuracy, skipped), (old_accuracy, old_skipped) = shipped[report][lang], old[report][lang]
        emit_triple(
            f"post_like_accuracy_{lang}",
            accuracy,
            old_accuracy,
            "",
            ratio=safe_ratio(accuracy, old_accuracy),
            target=f"accuracy >= 0.9: {verdict(accuracy >= 0.9)}; {where}",
        )
        emit_triple(
            f"post_like_unrelated_skipped_{lang}",
            skipped,
            old_skipped,
            "",
            ratio=safe_ratio(skipped, old_skipped),
            target=f"skipped >= 0.8: {verdict(skipped >= 0.8)}; {where}",
        )


if __name__ == "__main__":
    main()
