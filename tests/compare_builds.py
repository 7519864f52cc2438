"""Compare two build folders: every PNG export by decoded pixels, every PDF page rasterised.

    python -m tests.compare_builds OLD_BUILD NEW_BUILD [--dpi 72]

For changes that must not change what is printed (encodings, batching, speed work): exits 1 and names
each file that differs, or lists a file only one side has; prints PDF sizes before and after."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image


def pixels(image: Image.Image) -> tuple[str, tuple[int, int], bytes]:
    return image.mode, image.size, image.tobytes()


def pdf_pages(path: Path, dpi: float) -> list[tuple[str, tuple[int, int], bytes]]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [pixels(pdf[i].render(scale=dpi / 72).to_pil()) for i in range(len(pdf))]
    finally:
        pdf.close()


def _files(root: Path, pattern: str) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob(pattern)}


def compare(old: Path, new: Path, dpi: float) -> list[str]:
    problems: list[str] = []
    pngs_old, pngs_new = _files(old, "*.png"), _files(new, "*.png")
    pdfs_old, pdfs_new = _files(old, "*.pdf"), _files(new, "*.pdf")
    problems += [f"only in one build: {p}" for p in sorted((pngs_old ^ pngs_new) | (pdfs_old ^ pdfs_new))]
    for rel in sorted(pngs_old & pngs_new):
        with Image.open(old / rel) as a, Image.open(new / rel) as b:
            if pixels(a) != pixels(b):
                problems.append(f"PNG pixels differ: {rel}")
    pages = 0
    size_old = size_new = 0
    for rel in sorted(pdfs_old & pdfs_new):
        a, b = pdf_pages(old / rel, dpi), pdf_pages(new / rel, dpi)
        pages += len(a)
        size_old += (old / rel).stat().st_size
        size_new += (new / rel).stat().st_size
        if len(a) != len(b):
            problems.append(f"PDF page count differs: {rel} ({len(a)} vs {len(b)})")
        else:
            pairs = enumerate(zip(a, b, strict=True), 1)
            problems += [f"PDF page {i} differs: {rel}" for i, (x, y) in pairs if x != y]
    print(f"{len(pngs_old & pngs_new)} PNGs compared by pixels; {len(pdfs_old & pdfs_new)} PDFs, {pages} pages "
          f"compared rasterised at {dpi:g} dpi; {len(problems)} differences")
    if size_old:
        print(f"PDF bytes: {size_old / 1024:.1f} KiB before, {size_new / 1024:.1f} KiB after "
              f"({size_new / size_old:.1%})")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--dpi", type=float, default=72)
    args = p.parse_args(argv)
    problems = compare(args.old, args.new, args.dpi)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
