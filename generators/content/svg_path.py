"""Icon path data: the subset of SVG path syntax that content/icons.yaml may use (M, L, H, V, C, Q, Z,
absolute or relative), parsed into absolute M/L/C/Z commands. Shared by the loader (which checks
every icon at load time) and the renderers (which draw them)."""

from __future__ import annotations

import math
import re
from functools import lru_cache

_TOKEN = re.compile(r"([MmLlHhVvCcQqZz])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
# Icons are drawn in a 24 x 24 box; a point this far out is a typo, and a huge one (1e30) would
# overflow the PDF writer's number formatting.
MAX_COORDINATE = 1000
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}

# Absolute commands: ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",)
Command = tuple


@lru_cache(maxsize=512)
def parse_path(data: str) -> tuple[Command, ...]:
    """Parse path data into absolute M/L/C/Z commands (H, V, Q and relative forms converted)."""
    tokens: list[str | float] = []
    pos = 0
    for m in _TOKEN.finditer(data):
        gap = data[pos:m.start()]
        if gap.strip(" ,\t\n"):
            raise ValueError(f"unexpected {gap.strip()!r} at character {pos + 1}")
        tokens.append(m.group(1) if m.group(1) else float(m.group(2)))
        pos = m.end()
    if data[pos:].strip(" ,\t\n"):
        raise ValueError(f"unexpected {data[pos:].strip()!r} at character {pos + 1}")
    out: list[Command] = []
    x = y = sx = sy = 0.0
    i = 0
    cmd = ""
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, str):
            cmd = tok
            i += 1
            if cmd in "Zz":
                out.append(("Z",))
                x, y = sx, sy
                continue
        elif not cmd:
            raise ValueError("path data must start with a command such as M")
        upper = cmd.upper()
        n = _ARGS[upper]
        args = tokens[i:i + n]
        if len(args) < n or any(isinstance(a, str) for a in args):
            raise ValueError(f"command {cmd} needs {n} numbers")
        i += n
        rel = cmd.islower()
        a = [float(v) for v in args]
        if upper == "M":
            x, y = (x + a[0], y + a[1]) if rel else (a[0], a[1])
            sx, sy = x, y
            out.append(("M", x, y))
            cmd = "l" if rel else "L"  # further pairs after M are line-tos
        elif upper == "L":
            x, y = (x + a[0], y + a[1]) if rel else (a[0], a[1])
            out.append(("L", x, y))
        elif upper == "H":
            x = x + a[0] if rel else a[0]
            out.append(("L", x, y))
        elif upper == "V":
            y = y + a[0] if rel else a[0]
            out.append(("L", x, y))
        elif upper == "C":
            pts = [(x + a[k], y + a[k + 1]) if rel else (a[k], a[k + 1]) for k in (0, 2, 4)]
            out.append(("C", *pts[0], *pts[1], *pts[2]))
            x, y = pts[2]
        elif upper == "Q":
            (qx, qy), (ex, ey) = [(x + a[k], y + a[k + 1]) if rel else (a[k], a[k + 1]) for k in (0, 2)]
            # A quadratic is a cubic with control points 2/3 of the way to the quadratic one.
            c1 = (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y))
            c2 = (ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey))
            out.append(("C", *c1, *c2, ex, ey))
            x, y = ex, ey
    if not out:
        raise ValueError("empty path")
    for made in out:
        for v in made[1:]:
            if not math.isfinite(v) or abs(v) > MAX_COORDINATE:
                raise ValueError(f"the coordinate {v:g} lies far outside the 24 x 24 icon box (coordinates "
                                 f"reach at most {MAX_COORDINATE} either way)")
    return tuple(out)
