"""The report's charts, drawn as inline SVG: F1 per language and method, quality against
speed, per-page score distributions."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from typing import Any

from .data import BINS, PALETTE, Histogram, _ms, _pct


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _hatches(methods: int) -> str:
    """Striped fills for methods past the palette, defined once for every plot."""
    if methods <= len(PALETTE):
        return ""
    patterns = "".join(
        f'<pattern id="hatch-{i}" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
        f'<rect width="3.5" height="6" fill="{colour}"/></pattern>'
        for i, colour in enumerate(PALETTE))
    return (f'<svg class="defs" width="0" height="0" aria-hidden="true" '
            f'style="position:absolute"><defs>{patterns}</defs></svg>')


def _text_width(text: str, size: float) -> float:
    """Rough rendered width: wide characters (CJK) count double."""
    return size * 0.58 * sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _svg(name: str, title: str, width: float, height: float, body: Iterable[str]) -> str:
    return (f'<svg class="plot" data-plot="{_e(name)}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img">'
            f"<title>{_e(title)}</title>" + "".join(body) + "</svg>")


def _t(x: float, y: float, text: str, size: float = 12, anchor: str = "start",
       extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
            f'{extra}>{_e(text)}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = "#d9dde2",
          extra: str = "") -> str:
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}"{extra}/>')


def _legend(items: Sequence[tuple[str, str]], x0: float, y0: float,
            width: float) -> tuple[list[str], float]:
    """Swatch + label items laid out in rows; returns the marks and the height used."""
    marks, x, y = [], x0, y0
    for label, colour in items:
        w = 22 + _text_width(label, 12) + 18
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + 20
        marks.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="14" rx="2" '
                     f'fill="{colour}"/>' + _t(x + 20, y + 1.5, label))
        x += w
    return marks, y - y0 + 20


def _y_axis(left: float, right: float, top: float, bottom: float, lo: float, hi: float,
            step: float, label: str) -> list[str]:
    """Horizontal grid lines with tick labels, and the rotated axis label."""
    marks = []
    v = lo
    while v <= hi + 1e-9:
        y = bottom - (v - lo) / (hi - lo) * (bottom - top)
        marks.append(_line(left, y, right, y) + _t(left - 6, y + 4, f"{v:g}", 11, "end"))
        v += step
    mid = (top + bottom) / 2
    marks.append(_t(16, mid, label, 12, "middle", f' transform="rotate(-90 16 {mid:.1f})"'))
    return marks


def _bar_chart(name: str, title: str, groups: Sequence[tuple[str, int | None]],
               series: Sequence[tuple[str, str, Sequence[float | None]]], y_label: str) -> str:
    """Grouped bars: one group per language, one bar per method, values in [0, 1]."""
    width, left, right = 980.0, 64.0, 16.0
    marks = [_t(left, 20, title, 14, extra=' font-weight="600"')]
    legend, legend_h = _legend([(s[0], s[1]) for s in series], left, 44, width - left - right)
    top = 44 + legend_h + 8
    bottom = top + 260
    marks += legend + _y_axis(left, width - right, top, bottom, 0, 100, 20, y_label)
    group_w = (width - left - right) / max(1, len(groups))
    bar_w = min(40.0, group_w * 0.82 / max(1, len(series)))
    for g, (label, pages) in enumerate(groups):
        x0 = left + g * group_w + (group_w - bar_w * len(series)) / 2
        for s, (method, colour, values) in enumerate(series):
            marks.append(_bar(x0 + s * bar_w, bar_w, values[g], top, bottom, colour,
                              f"{method}, {label}"))
        cx = left + (g + 0.5) * group_w
        marks.append(_t(cx, bottom + 18, label, 12, "middle", ' font-weight="600"'))
        if pages is not None:
            marks.append(_t(cx, bottom + 33, f"{pages} pages", 10, "middle", ' fill="#555"'))
    marks.append(_line(left, bottom, width - right, bottom, "#444"))
    return _svg(name, title, width, bottom + 44, marks)


def _bar(x: float, w: float, value: float | None, top: float, bottom: float, colour: str,
         what: str) -> str:
    """One bar with its value above it (when wide enough), or 'n/a' standing upright."""
    inner = w - 2
    if value is None:
        cx = x + w / 2
        return _t(cx, bottom - 6, "n/a", 10, "start",
                  f' fill="#777" transform="rotate(-90 {cx:.1f} {bottom - 6:.1f})"'
                  f' dy="3.5"')
    h = max(0.0, min(1.0, value)) * (bottom - top)
    tip = f"<title>{_e(what)}: {_pct(value)}</title>"
    bar = (f'<rect x="{x + 1:.1f}" y="{bottom - h:.1f}" width="{inner:.1f}" height="{h:.1f}" '
           f'fill="{colour}">{tip}</rect>')
    if inner >= 24:
        bar += _t(x + w / 2, bottom - h - 4, f"{100 * value:.1f}", 10, "middle")
    return bar


def _log_ticks(lo: float, hi: float) -> tuple[float, float, list[float]]:
    """Decade bounds around [lo, hi] and the tick values (1, 2, 5 per decade when few)."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    b = max(b, a + 1)
    steps = (1, 2, 5) if b - a <= 3 else (1,)
    ticks = [m * 10.0 ** e for e in range(a, b + 1) for m in steps if m * 10.0 ** e <= 10.0 ** b]
    return 10.0 ** a, 10.0 ** b, ticks


def _scatter(points: Sequence[tuple[str, str, float | None, float | None]]) -> str:
    """Median ms per page (x, log) against TO F1 (y), one labelled point per method."""
    width, height, left, right, top, bottom = 980.0, 460.0, 70.0, 190.0, 40.0, 400.0
    xs = [p[2] for p in points if p[2]]
    ys = [100 * p[3] for p in points if p[3] is not None]
    x_lo, x_hi, ticks = _log_ticks(min(xs), max(xs))
    y_lo = max(0.0, math.floor((min(ys) - 5) / 10) * 10)

    def px(v: float) -> float:
        span = math.log10(x_hi) - math.log10(x_lo)
        return left + (math.log10(v) - math.log10(x_lo)) / span * (width - left - right)

    def py(v: float) -> float:
        return bottom - (v - y_lo) / (100 - y_lo) * (bottom - top)

    marks = [_t(left, 20, "Quality against speed (all pages)", 14, extra=' font-weight="600"')]
    marks += _y_axis(left, width - right, top, bottom, y_lo, 100, 10, "TO F1, micro (%)")
    for v in ticks:
        marks.append(_line(px(v), top, px(v), bottom) + _t(px(v), bottom + 18, f"{v:g}", 11,
                                                             "middle"))
    marks.append(_t((left + width - right) / 2, bottom + 42,
                    "median milliseconds per page (log scale)", 12, "middle"))
    marks.append(_line(left, bottom, width - right, bottom, "#444"))
    placed: list[tuple[float, float, float]] = []
    for method, colour, ms, f1 in sorted(points, key=lambda p: -(p[3] or 0)):
        x, y = px(ms or 1), py(100 * (f1 or 0))
        marks.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="{colour}" '
                     f'stroke="#222" stroke-width="1"><title>{_e(method)}: {_pct(f1)} F1, '
                     f"{_ms(ms)} ms</title></circle>")
        marks.append(_point_label(method, x, y, placed))
    return _svg("speed", "Quality against speed", width, height, marks)


def _point_label(label: str, x: float, y: float,
                 placed: list[tuple[float, float, float]]) -> str:
    """A label right of its point, moved down until it overlaps no label already placed."""
    w = _text_width(label, 12)
    ly = y + 4
    while any(abs(ly - py) < 14 and x + 10 < px + pw and px < x + 10 + w for px, py, pw in placed):
        ly += 14
    placed.append((x + 10, ly, w))
    leader = _line(x + 6, y, x + 9, ly - 4, "#888") if ly - y > 8 else ""
    return leader + _t(x + 10, ly, label, 12)


def _histogram_plot(panels: Sequence[tuple[str, str, Histogram]]) -> str:
    """Small multiples: one histogram of per-page TO F1 per method, shared x axis."""
    width, left, right, panel_h, gap, top = 980.0, 230.0, 24.0, 84.0, 14.0, 36.0
    plot_w = width - left - right
    marks = [_t(16, 20, "Per-page TO F1, by method", 14, extra=' font-weight="600"')]
    for i, (method, colour, hist) in enumerate(panels):
        marks += _panel(method, colour, hist, top + i * (panel_h + gap), panel_h, left, plot_w)
    bottom = top + len(panels) * (panel_h + gap) - gap
    for v in range(0, 101, 20):
        x = left + v / 100 * plot_w
        marks.append(_t(x, bottom + 16, str(v), 11, "middle"))
    marks.append(_t(left + plot_w / 2, bottom + 38, "per-page TO F1 (%)", 12, "middle"))
    return _svg("distributions", "Per-page TO F1 by method", width, bottom + 50, marks)


def _panel(method: str, colour: str, hist: Histogram, y0: float, h: float, left: float,
           plot_w: float) -> list[str]:
    """One method's histogram: bars as shares of its scored pages, its counts on the left."""
    bottom = y0 + h
    peak = max(hist.bins) or 1
    scale = peak / hist.scored if hist.scored else 0.0
    marks = [f'<rect x="{left:.1f}" y="{y0:.1f}" width="{plot_w:.1f}" height="{h:.1f}" '
             f'fill="#f7f8fa"/>']
    marks += [_line(left + v / 100 * plot_w, y0, left + v / 100 * plot_w, bottom)
              for v in range(0, 101, 20)]
    bin_w = plot_w / BINS
    for b, n in enumerate(hist.bins):
        if n:
            bh = n / peak * (h - 6)
            marks.append(f'<rect x="{left + b * bin_w + 1:.1f}" y="{bottom - bh:.1f}" '
                         f'width="{bin_w - 2:.1f}" height="{bh:.1f}" fill="{colour}">'
                         f"<title>{_e(method)}: {n} page(s) with F1 in "
                         f"[{100 * b // BINS}, {100 * (b + 1) // BINS}"
                         f"{']' if b == BINS - 1 else ')'}</title></rect>")
    marks.append(_line(left, bottom, left + plot_w, bottom, "#444"))
    if hist.scored:
        marks.append(_t(left - 6, y0 + 10, f"{100 * scale:.0f}%", 10, "end", ' fill="#555"'))
    mean = "N/A" if hist.mean is None else f"{100 * hist.mean:.1f}"
    marks.append(_t(16, y0 + 22, method, 13, extra=' font-weight="600"'))
    marks.append(_t(16, y0 + 40, f"{hist.scored} scored, {hist.failed} failed", 11,
                    extra=' fill="#444"'))
    marks.append(_t(16, y0 + 56, f"mean F1 {mean}", 11, extra=' fill="#444"'))
    return marks
