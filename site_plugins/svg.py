"""Small pictures drawn as SVG in Python: readable without JavaScript, nothing fetched."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from validators.games._markup import legible_width
from validators.games._timefmt import when

from .markup import counted, esc


def stat_chart(points: Sequence[tuple[datetime, int]], label: str, *, end: datetime | None = None,
               width: int = 320, height: int = 96) -> str:
    """A step chart of one number over time: each point is (when it changed, the new value).

    The line holds each value until the next change, and up to ``end`` (the game's clock).
    """
    if not points:
        return ""
    pts = sorted(points, key=lambda p: p[0])
    t0 = pts[0][0]
    t1 = max(end or pts[-1][0], pts[-1][0])
    span = (t1 - t0).total_seconds() or 1.0
    values = [v for _, v in pts]
    lo, hi = min(values + [0]), max(values)
    if hi == lo:
        hi = lo + 1
    left, right, top, bottom = 36, 8, 8, 20
    w, h = width - left - right, height - top - bottom

    def x(t: datetime) -> float:
        return left + w * (t - t0).total_seconds() / span

    def y(v: int) -> float:
        return top + h * (hi - v) / (hi - lo)

    path = [f"M{x(pts[0][0]):.1f},{y(pts[0][1]):.1f}"]
    for t, v in pts[1:]:
        path.append(f"H{x(t):.1f}V{y(v):.1f}")
    path.append(f"H{x(t1):.1f}")
    dots = "".join(f'<circle cx="{x(t):.1f}" cy="{y(v):.1f}" r="2.5"><title>{esc(when(t))}: '
                   f'{v}</title></circle>' for t, v in pts)
    summary = f"{label}: from {pts[0][1]} to {pts[-1][1]}, {counted(len(pts), 'value')}"
    return (
        # never narrower than three quarters of its size (its 9 px labels were 4 px on a phone): the stats table
        # scrolls sideways in its box instead, as the modules' drawings do
        f'<svg class="nomic-chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'style="min-width:{legible_width(width)}px" role="img" '
        f'aria-label="{esc(summary)}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{esc(summary)}</title>"
        f'<line class="axis" x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}"/>'
        f'<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{top + h}"/>'
        f'<text x="{left - 4}" y="{top + 4}" text-anchor="end">{hi}</text>'
        f'<text x="{left - 4}" y="{top + h}" text-anchor="end">{lo}</text>'
        f'<text x="{left}" y="{height - 4}">{t0.day} {esc(t0.strftime("%b"))}</text>'
        f'<text x="{left + w}" y="{height - 4}" text-anchor="end">{t1.day} {esc(t1.strftime("%b"))}</text>'
        f'<path class="line" d="{"".join(path)}"/>{dots}</svg>'
    )


def bar(value: int, total: int, *, width: int = 120, height: int = 10, cls: str = "for") -> str:
    """A thin bar: ``value`` out of ``total`` (a tally next to Quorum)."""
    total = max(total, 1)
    filled = min(width, round(width * max(value, 0) / total))
    return (f'<svg class="nomic-bar" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{value} of {total}" xmlns="http://www.w3.org/2000/svg"><rect class="track" width="{width}" '
            f'height="{height}"/><rect class="{esc(cls)}" width="{filled}" height="{height}"/></svg>')
