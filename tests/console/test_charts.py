"""The trend chart's geometry: bars scaled to the largest period, empty periods drawn flat, at most six
axis labels, nothing drawn for a trend without trade."""

from __future__ import annotations

from leadwire.console.charts import HEIGHT, MAX_LABELS, compact, trend_chart


def _periods(values: list[float]) -> list[dict[str, object]]:
    return [{"date": f"2025-{m + 1:02d}-01", "sumOfUSD": v} for m, v in enumerate(values)]


def test_bars_are_scaled_to_the_largest_period_and_stand_on_one_baseline() -> None:
    chart = trend_chart(_periods([10.0, 40.0, 0.0, 20.0]))
    assert chart is not None and chart.y_max == 40.0
    heights = [bar.height for bar in chart.bars]
    assert heights[1] == max(heights) and heights[2] == 0.0
    assert abs(heights[0] * 4 - heights[1]) < 0.5 and abs(heights[3] * 2 - heights[1]) < 0.5
    assert all(abs(bar.y + bar.height - chart.baseline) < 0.2 for bar in chart.bars)
    assert all(0 <= bar.y <= HEIGHT for bar in chart.bars)
    xs = [bar.x for bar in chart.bars]
    assert xs == sorted(xs) and all(b.x + b.width <= chart.width for b in chart.bars)


def test_a_long_trend_has_at_most_six_labels_and_a_trend_without_trade_draws_nothing() -> None:
    chart = trend_chart(_periods([float(v) for v in range(1, 13)]))
    assert chart is not None and 1 < len(chart.x_labels) <= MAX_LABELS
    assert chart.x_labels[0][1] == "2025-01"
    assert trend_chart(_periods([0.0, 0.0])) is None and trend_chart([]) is None


def test_the_axis_label_is_compact() -> None:
    assert [compact(v) for v in (950, 12_345, 4_500_000, 1_000_000, 1.24e9)] == [
        "950", "12.3K", "4.5M", "1M", "1.2B",
    ]  # fmt: skip
