"""Figures with their error: every rate the simulator reports carries its 95 % interval.

- `rate`: a share of games (a win rate) with its Wilson score interval, which stays inside [0, 1] and
  keeps its coverage for small counts and rates near 0 or 1, where the textbook ±1.96·SE does not.
- `mean`: an average with its normal-approximation interval (±1.96 standard errors).
- `difference`: the gap between two rates (with a card vs without it) with Newcombe's interval built
  from the two Wilson intervals; a gap whose interval holds 0 is inside the noise, not a finding.
  `paired_difference`: the same for two rates measured on the same games (a head to head).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    hits: int
    games: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.hits / self.games if self.games else 0.0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float | int]:
        return {"games": self.hits, "percent": round(100 * self.share, 1),
                "low": round(100 * self.low, 1), "high": round(100 * self.high, 1)}


def rate(hits: int, games: int, z: float = Z95) -> Rate:
    """`hits` of `games`, with the Wilson score interval."""
    if games <= 0:
        return Rate(0, 0, 0.0, 1.0)
    p = hits / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return Rate(hits, games, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Mean:
    value: float
    low: float
    high: float
    games: int


def mean(values: Sequence[float], z: float = Z95) -> Mean:
    n = len(values)
    m = statistics.fmean(values) if n else 0.0
    half = z * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    return Mean(m, m - half, m + half, n)


@dataclass(frozen=True)
class Difference:
    value: float
    low: float
    high: float

    @property
    def clear(self) -> bool:
        """True when the interval leaves out 0: a finding, not noise."""
        return self.low > 0 or self.high < 0


def difference(a: Rate, b: Rate) -> Difference:
    """a - b with Newcombe's hybrid score interval (method 10)."""
    d = a.share - b.share
    low = d - math.sqrt((a.share - a.low) ** 2 + (b.high - b.share) ** 2)
    high = d + math.sqrt((a.high - a.share) ** 2 + (b.share - b.low) ** 2)
    return Difference(d, low, high)


def paired_difference(both: int, only_a: int, only_b: int, neither: int, z: float = Z95) -> Difference:
    """a - b for two rates measured on the same games (the same seeds): `both` games won by a and b,
    `only_a`, `only_b`, `neither`. Newcombe's hybrid score interval for paired data (1998, method
    10): the two Wilson intervals joined through the pairs' correlation, so games that go the same
    way for both narrow it; with no correlation it is `difference`'s."""
    n = both + only_a + only_b + neither
    a, b = rate(both + only_a, n, z), rate(both + only_b, n, z)
    product = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(product) if product else 0.0
    d = a.share - b.share
    da, ua = a.share - a.low, a.high - a.share
    db, ub = b.share - b.low, b.high - b.share
    low = d - math.sqrt(max(0.0, da * da - 2 * phi * da * ub + ub * ub))
    high = d + math.sqrt(max(0.0, ua * ua - 2 * phi * ua * db + db * db))
    return Difference(d, max(-1.0, low), min(1.0, high))


def games_for(half_width: float, share: float = 0.5, z: float = Z95) -> int:
    """Games needed for a rate near `share` to have an interval of ± `half_width`."""
    return math.ceil(z * z * share * (1 - share) / (half_width * half_width))


def won(line: Mapping[str, Any]) -> Rate:
    """The win rate of one setting's summary: every result that begins "won" counts as a win."""
    results = line.get("results") or {}
    hits = sum(int(v.get("games", 0)) for k, v in results.items() if str(k).casefold().startswith("won"))
    return rate(hits, int(line.get("games", 0)))
