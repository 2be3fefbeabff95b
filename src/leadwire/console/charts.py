"""Charts drawn on the server as inline SVG (no chart library, no script): a trade trend's periods as
bars scaled to the largest, with the axis labels a reader needs. Pure functions of the data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 640, 220, 56, 28, 12
MAX_LABELS = 6


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    x_labels: list[tuple[float, str]]
    y_max: float
    baseline: float
    measure: str

    @property
    def y_label(self) -> str:
        return compact(self.y_max)


def compact(value: float) -> str:
    """A number short enough for an axis: 950, 12.3K, 4.5M, 1.2B."""
    for size, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= size:
            return f"{value / size:.1f}".removesuffix(".0") + suffix
    return f"{value:.0f}"


def trend_chart(periods: list[dict[str, Any]], measure: str = "sumOfUSD") -> Chart | None:
    """Bars of `measure` per period (a trend section's `items`), or None when there is nothing to draw."""
    values = [float(p.get(measure) or 0.0) for p in periods]
    if not values or max(values) <= 0:
        return None
    top = max(values)
    plot_width, plot_height = WIDTH - LEFT - 8, HEIGHT - BOTTOM - TOP
    step = plot_width / len(values)
    bars = []
    for index, (period, value) in enumerate(zip(periods, values, strict=True)):
        height = plot_height * value / top
        bars.append(
            Bar(
                x=round(LEFT + index * step + step * 0.1, 1),
                y=round(TOP + plot_height - height, 1),
                width=round(step * 0.8, 1),
                height=round(height, 1),
                label=str(period.get("date", "")),
                value=value,
            )
        )
    every = max(1, -(-len(bars) // MAX_LABELS))  # ceil: at most MAX_LABELS labels under the axis
    labels = [(round(b.x + b.width / 2, 1), b.label[:7]) for b in bars[::every]]
    return Chart(WIDTH, HEIGHT, bars, labels, top, TOP + plot_height, measure)
