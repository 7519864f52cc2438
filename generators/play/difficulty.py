"""Do a game's settings come out as hard as they should? For each declared order (`Game.harder`,
easiest first), each neighbouring pair of settings is compared by the win rate a player reached in
them: the easier one's rate minus the harder one's, with Newcombe's 95 % interval. A pair is in order
when that interval lies above 0, out of order when it lies below, and not told apart when it holds 0
(more games, or a stronger player, would be needed to say)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from generators.rules.contract import Harder
from generators.rules.stats import difference, won

IN_ORDER, OUT_OF_ORDER, UNSEPARATED = "in order", "out of order", "not told apart"


def check(lines: Sequence[Mapping[str, Any]], orders: Sequence[Harder]) -> list[dict[str, Any]]:
    """Per declared order and player (policy), each neighbouring pair's verdict with its figures."""
    out: list[dict[str, Any]] = []
    by_policy: dict[str, dict[str, Mapping[str, Any]]] = {}
    for line in lines:
        by_policy.setdefault(str(line.get("policy")), {})[str(line.get("setting"))] = line
    for order in orders:
        for policy, settings in by_policy.items():
            if not all(label in settings for label in order.settings):
                continue
            pairs = []
            for easier, harder in itertools.pairwise(order.settings):
                a, b = won(settings[easier]), won(settings[harder])
                d = difference(a, b)
                verdict = IN_ORDER if d.low > 0 else OUT_OF_ORDER if d.high < 0 else UNSEPARATED
                pairs.append({"easier": easier, "harder": harder, "verdict": verdict,
                              "easier_won": a.as_dict(), "harder_won": b.as_dict(),
                              "gap": {"points": round(100 * d.value, 1), "low": round(100 * d.low, 1),
                                      "high": round(100 * d.high, 1)}})
            out.append({"settings": list(order.settings), "because": order.because, "policy": policy,
                        "pairs": pairs})
    return out


def words(found: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per pair, as the terminal and the site say it."""
    lines = []
    for order in found:
        for p in order["pairs"]:
            gap = p["gap"]
            lines.append(f"{p['easier']} easier than {p['harder']} ({order['policy']}): {p['verdict']}: "
                         f"won {p['easier_won']['percent']} % against {p['harder_won']['percent']} %, "
                         f"gap {gap['points']:+} points (95 % interval {gap['low']:+} to {gap['high']:+})")
    return lines
