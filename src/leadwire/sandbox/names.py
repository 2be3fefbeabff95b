"""Person names per country for the sandbox world: Faker's name lists per locale sampled with
numpy, plus paired character/romanisation tables for Chinese, Korean, Vietnamese and Emirati names."""

from __future__ import annotations

import importlib
import unicodedata
import zlib
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from faker import Generator

from leadwire.sandbox.geo import Country


class PersonName(NamedTuple):
    """A generated name; `full_zh` is set for people with a Chinese name."""

    first: str
    last: str
    full: str
    full_zh: str | None
    language: str  # "zh" when the person's texts are (partly) Chinese


_FOLD = str.maketrans(
    {
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "ð": "d",
        "ı": "i",
        "œ": "oe",
        "'": "",
        "’": "",
    }
)


def ascii_fold(text: str) -> str:
    """Latin text without diacritics, for domains, e-mail addresses and URL slugs."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return decomposed.encode("ascii", "ignore").decode()


def slugify(text: str, sep: str = "-") -> str:
    """Lower-case ASCII words of `text` joined by `sep`."""
    words = "".join(ch if ch.isalnum() else " " for ch in ascii_fold(text).lower()).split()
    return sep.join(words)


def claim_label(used: set[str], candidates: Sequence[str], stem: str, suffix: str = "") -> str:
    """The first non-empty candidate whose `label + suffix` is not in `used`, else `stem2`, `stem3`, ...;
    the one chosen is recorded in `used` (with its suffix), so the next caller gets another."""
    for label in candidates:
        if label and label + suffix not in used:
            used.add(label + suffix)
            return label
    n = 2
    while f"{stem}{n}{suffix}" in used:
        n += 1
    used.add(f"{stem}{n}{suffix}")
    return f"{stem}{n}"


# simplified, traditional, pinyin, Wade-Giles (Taiwan), Cantonese (Hong Kong), Hokkien (Singapore), weight
_ZH_SURNAMES = (
    "王 王 Wang Wang Wong Ong 7.2|李 李 Li Lee Lee Lee 7.0|张 張 Zhang Chang Cheung Teo 6.7|"
    "刘 劉 Liu Liu Lau Lau 5.1|陈 陳 Chen Chen Chan Tan 4.6|杨 楊 Yang Yang Yeung Yeo 3.2|"
    "黄 黃 Huang Huang Wong Ng 2.5|吴 吳 Wu Wu Ng Goh 2.0|赵 趙 Zhao Chao Chiu Chew 2.0|"
    "周 周 Zhou Chou Chow Chew 1.9|徐 徐 Xu Hsu Tsui Chee 1.45|孙 孫 Sun Sun Suen Soon 1.38|"
    "马 馬 Ma Ma Ma Mah 1.29|朱 朱 Zhu Chu Chu Choo 1.28|胡 胡 Hu Hu Wu Foo 1.16|林 林 Lin Lin Lam Lim 1.13|"
    "郭 郭 Guo Kuo Kwok Kwek 1.13|何 何 He Ho Ho Ho 1.06|高 高 Gao Kao Ko Koh 1.0|罗 羅 Luo Lo Law Loh 0.95|"
    "郑 鄭 Zheng Cheng Cheng Tay 0.93|梁 梁 Liang Liang Leung Neo 0.85|谢 謝 Xie Hsieh Tse Chia 0.76|"
    "宋 宋 Song Sung Sung Song 0.7|唐 唐 Tang Tang Tong Tng 0.69|许 許 Xu Hsu Hui Koh 0.66|"
    "邓 鄧 Deng Teng Tang Teng 0.62|冯 馮 Feng Feng Fung Pang 0.62|韩 韓 Han Han Hon Han 0.61|"
    "曹 曹 Cao Tsao Tso Chow 0.6|曾 曾 Zeng Tseng Tsang Chan 0.58|彭 彭 Peng Peng Pang Phang 0.58|"
    "蔡 蔡 Cai Tsai Choi Chua 0.53|潘 潘 Pan Pan Poon Phua 0.52|叶 葉 Ye Yeh Yip Yap 0.48|"
    "苏 蘇 Su Su So Soh 0.46"
)
# simplified, traditional, pinyin, Wade-Giles, Cantonese
_ZH_GIVEN = (
    "伟 偉 wei wei wai|芳 芳 fang fang fong|敏 敏 min min man|静 靜 jing ching ching|丽 麗 li li lai|"
    "强 強 qiang chiang keung|磊 磊 lei lei lui|军 軍 jun chun kwan|洋 洋 yang yang yeung|"
    "勇 勇 yong yung yung|"
    "艳 豔 yan yen yim|杰 傑 jie chieh kit|涛 濤 tao tao to|明 明 ming ming ming|超 超 chao chao chiu|"
    "华 華 hua hua wah|平 平 ping ping ping|辉 輝 hui hui fai|鹏 鵬 peng peng pang|飞 飛 fei fei fei|"
    "婷 婷 ting ting ting|慧 慧 hui hui wai|佳 佳 jia chia kai|欣 欣 xin hsin yan|宇 宇 yu yu yu|"
    "浩 浩 hao hao ho|俊 俊 jun chun chun|志 志 zhi chih chi|嘉 嘉 jia chia ka|文 文 wen wen man|"
    "雅 雅 ya ya nga|怡 怡 yi yi yi|家 家 jia chia ka|建 建 jian chien kin|国 國 guo kuo kwok|"
    "子 子 zi tzu tsz|晓 曉 xiao hsiao hiu|玲 玲 ling ling ling|倩 倩 qian chien sin|凯 凱 kai kai hoi|"
    "博 博 bo po pok|思 思 si ssu sze|雨 雨 yu yu yu|晨 晨 chen chen san|瑞 瑞 rui jui sui"
)
_KR_SURNAMES = [
    "Kim",
    "Lee",
    "Park",
    "Choi",
    "Jung",
    "Kang",
    "Cho",
    "Yoon",
    "Jang",
    "Lim",
    "Han",
    "Oh",
    "Seo",
    "Shin",
    "Kwon",
    "Hwang",
    "Ahn",
    "Song",
    "Yoo",
    "Hong",
    "Jeon",
    "Ko",
    "Moon",
    "Yang",
    "Son",
    "Bae",
    "Baek",
    "Heo",
    "Nam",
    "Noh",
]
_KR_GIVEN = [
    "Min-jun",
    "Seo-yeon",
    "Ji-hoon",
    "Ji-woo",
    "Hyun-woo",
    "Soo-jin",
    "Eun-ji",
    "Dong-hyun",
    "Jae-won",
    "Ha-eun",
    "Yoo-na",
    "Sung-min",
    "Young-ho",
    "Hye-jin",
    "Jin-woo",
    "Min-seo",
    "Joon-ho",
    "Da-eun",
    "Tae-yang",
    "Seung-hoon",
    "Ye-jin",
    "Sang-woo",
    "Ji-min",
    "Kyung-soo",
    "Na-rae",
    "Woo-jin",
    "Hee-jung",
    "Jun-seo",
    "Eun-woo",
    "So-yeon",
]
_VN_SURNAMES = [
    "Nguyễn",
    "Trần",
    "Lê",
    "Phạm",
    "Hoàng",
    "Huỳnh",
    "Vũ",
    "Võ",
    "Phan",
    "Trương",
    "Bùi",
    "Đặng",
    "Đỗ",
    "Ngô",
    "Hồ",
    "Dương",
    "Lý",
]
_VN_SURNAME_WEIGHTS = (38, 11, 9.5, 7, 5, 5, 4, 3.5, 3, 3, 2, 2, 1.5, 1.5, 1.5, 1, 0.5)
_VN_GIVEN = [
    "Minh",
    "Anh",
    "Hương",
    "Lan",
    "Tuấn",
    "Đức",
    "Hoa",
    "Linh",
    "Trang",
    "Hùng",
    "Dũng",
    "Thảo",
    "Nam",
    "Phương",
    "Quang",
    "Hải",
    "Thu",
    "Mai",
    "Long",
    "Khoa",
    "Ngọc",
    "Vy",
    "Bảo",
    "Thanh",
    "Huy",
    "Tâm",
    "Yến",
    "Khánh",
]
_AE_GIVEN = [
    "Mohammed",
    "Ahmed",
    "Khalid",
    "Omar",
    "Fatima",
    "Aisha",
    "Mariam",
    "Saeed",
    "Rashid",
    "Hamad",
    "Noura",
    "Hessa",
    "Sultan",
    "Yousef",
    "Layla",
    "Abdullah",
    "Salem",
    "Mansour",
    "Hind",
    "Maitha",
    "Rania",
    "Tariq",
]
_AE_SURNAMES = [
    "Al Mansouri",
    "Al Hashimi",
    "Al Nuaimi",
    "Al Falasi",
    "Al Shamsi",
    "Al Mazrouei",
    "Al Suwaidi",
    "Al Ketbi",
    "Al Dhaheri",
    "Al Marri",
    "Al Zaabi",
    "Al Blooshi",
    "Haddad",
    "Khoury",
    "Nasser",
    "Saleh",
]

# name source of a country -> weighted mix of pools (a bare pool name means that pool alone)
_MIXES: dict[str, tuple[tuple[str, float], ...]] = {
    "de_CH": (("de_CH", 6), ("fr_CH", 3), ("it_CH", 1)),
    "nl_BE": (("nl_BE", 6), ("fr_BE", 4)),
    "en_CA": (("en_CA", 8), ("fr_CA", 2)),
    "ar_AE": (("ar_AE", 5), ("en_IN", 4), ("en_GB", 1)),
    "zu_ZA": (("zu_ZA", 6), ("en_GB", 4)),
    "zh_SG": (("zh_SG", 8), ("en_IN", 2)),
}
ZH_POOLS = frozenset({"zh_CN", "zh_TW", "zh_HK", "zh_SG"})


class _Pool(NamedTuple):
    male: np.ndarray
    female: np.ndarray
    last_male: np.ndarray
    last_female: np.ndarray


# Faker has no person data of its own for these locales; its fallback would be generic English
_LOCALE_FALLBACK = {"en_CA": "en_US", "en_AU": "en_GB", "en_PH": "en_US", "it_CH": "it_IT"}
_POOL_SIZE = 400


@cache
def _faker_pool(locale: str) -> _Pool:
    # a bare Generator with only the person provider: a full Faker() per locale costs ~20 ms each
    module = importlib.import_module(f"faker.providers.person.{_LOCALE_FALLBACK.get(locale, locale)}")
    gen: Any = Generator()  # person-provider methods are attached at runtime
    gen.add_provider(module.Provider)
    gen.seed_instance(zlib.crc32(locale.encode()))  # the pool is the locale's vocabulary, not seed-dependent
    if locale == "ja_JP":
        first = [gen.first_romanized_name() for _ in range(_POOL_SIZE)]
        last = [gen.last_romanized_name() for _ in range(_POOL_SIZE)]
        return _Pool(_arr(first), _arr(first), _arr(last), _arr(last))
    return _Pool(
        _arr([gen.first_name_male() for _ in range(_POOL_SIZE)]),
        _arr([gen.first_name_female() for _ in range(_POOL_SIZE)]),
        _arr([gen.last_name_male() for _ in range(_POOL_SIZE)]),
        _arr([gen.last_name_female() for _ in range(_POOL_SIZE)]),
    )


def _arr(values: list[str]) -> np.ndarray:
    return np.array(values, dtype=object)


@cache
def _zh_tables() -> tuple[list[list[str]], np.ndarray, list[list[str]]]:
    surnames = [row.split() for row in _ZH_SURNAMES.split("|")]
    weights = np.array([float(r[6]) for r in surnames])
    given = [row.split() for row in _ZH_GIVEN.split("|")]
    return surnames, weights / weights.sum(), given


def _zh_names(rng: np.random.Generator, pool: str, n: int) -> list[PersonName]:
    surnames, weights, given = _zh_tables()
    sur_idx = rng.choice(len(surnames), size=n, p=weights)
    two_char = rng.random(n) < 0.7
    syl = rng.integers(0, len(given), size=(n, 2))
    english_first = rng.random(n) < (0.5 if pool in ("zh_HK", "zh_SG") else 0.0)
    western = _faker_pool("en_GB")
    west_idx = rng.integers(0, _POOL_SIZE, size=n)
    west_female = rng.random(n) < 0.45
    # column of the romanisation table used for given names / surnames per region
    given_col = {"zh_CN": 2, "zh_SG": 2, "zh_TW": 3, "zh_HK": 4}[pool]
    sur_col = {"zh_CN": 2, "zh_TW": 3, "zh_HK": 4, "zh_SG": 5}[pool]
    trad = pool in ("zh_TW", "zh_HK")
    out = []
    for i in range(n):
        sur = surnames[sur_idx[i]]
        parts = [given[syl[i, 0]]] + ([given[syl[i, 1]]] if two_char[i] else [])
        chars = "".join(p[1] if trad else p[0] for p in parts)
        full_zh = (sur[1] if trad else sur[0]) + chars
        if english_first[i]:
            first = str((western.female if west_female[i] else western.male)[west_idx[i]])
        elif given_col == 2:
            first = "".join(p[2] for p in parts).capitalize()
        else:
            first = "-".join(p[given_col] for p in parts).capitalize()
        last = sur[sur_col]
        out.append(PersonName(first, last, f"{first} {last}", full_zh, "zh"))
    return out


def _listed_names(
    rng: np.random.Generator,
    n: int,
    given: Sequence[str],
    surnames: Sequence[str],
    weights: Sequence[float] | None = None,
) -> list[PersonName]:
    p = None if weights is None else np.asarray(weights) / np.sum(weights)
    first_idx = rng.integers(0, len(given), size=n)
    last_idx = rng.choice(len(surnames), size=n, p=p)
    return [_latin(given[f], surnames[s]) for f, s in zip(first_idx, last_idx, strict=True)]


def _latin(first: str, last: str) -> PersonName:
    return PersonName(first, last, f"{first} {last}", None, "en")


def _faker_names(rng: np.random.Generator, pool: str, n: int) -> list[PersonName]:
    names = _faker_pool(pool)
    female = rng.random(n) < 0.45
    u_first = rng.random(n)
    u_last = rng.random(n)
    out = []
    for i in range(n):
        firsts, lasts = (names.female, names.last_female) if female[i] else (names.male, names.last_male)
        out.append(
            _latin(str(firsts[int(u_first[i] * len(firsts))]), str(lasts[int(u_last[i] * len(lasts))]))
        )
    return out


def _pool_names(rng: np.random.Generator, pool: str, n: int) -> list[PersonName]:
    if pool in ZH_POOLS:
        return _zh_names(rng, pool, n)
    if pool == "ko_KR":
        return _listed_names(rng, n, _KR_GIVEN, _KR_SURNAMES)
    if pool == "vi_VN":
        return _listed_names(rng, n, _VN_GIVEN, _VN_SURNAMES, _VN_SURNAME_WEIGHTS)
    if pool == "ar_AE":
        return _listed_names(rng, n, _AE_GIVEN, _AE_SURNAMES)
    return _faker_names(rng, pool, n)


def draw_names(rng: np.random.Generator, country: Country, n: int) -> list[PersonName]:
    """`n` names typical of `country`, in a deterministic order for a given generator state."""
    mix = _MIXES.get(country.names, ((country.names, 1.0),))
    weights = np.array([w for _, w in mix], dtype=float)
    which = rng.choice(len(mix), size=n, p=weights / weights.sum())
    out: list[PersonName | None] = [None] * n
    for k, (pool, _) in enumerate(mix):
        idx = np.flatnonzero(which == k)
        for i, name in zip(idx, _pool_names(rng, pool, len(idx)), strict=True):
            out[i] = name
    return [name for name in out if name is not None]


def last_names(country: Country) -> np.ndarray:
    """Family names of the country's main name pool (for company names such as "Weber Logistics")."""
    pool = _MIXES.get(country.names, ((country.names, 1.0),))[0][0]
    if pool in ZH_POOLS:
        return np.array([r[2] for r in _zh_tables()[0]], dtype=object)
    if pool == "ko_KR":
        return np.array(_KR_SURNAMES, dtype=object)
    if pool == "vi_VN":
        return np.array(_VN_SURNAMES, dtype=object)
    if pool == "ar_AE":
        return np.array(_AE_SURNAMES, dtype=object)
    return _faker_pool(pool).last_male
