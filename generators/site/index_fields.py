"""The search-only words of a rules entry, in the index as fields of their own rather than as text.

Each rules entry carries, hidden on its page, the other spellings of its key words (searchwords.py,
inflect.py) after a fixed label; the site's search index has them in the entry's text, where a
result whose only match was a misspelling showed that list as its teaser. So in each index entry:

- Material's: the hidden paragraph moves out of `text` to a `words` field, and the names a rule is
  also searched by (its "Also searched as:" line, which readers see) are copied to a `names` field;
  mkdocs.yml weighs `names` near a title, `words` as text. Material's worker indexes every configured
  field and shows `title` and `text` alone.
- Zensical's (which searches title, text and path, nothing else): the hidden paragraph becomes a
  hidden span at the end of `title` (the words are its title's and names' other forms): still
  searched, never shown, and a result matched there alone shows the entry's first lines (its
  dialog shows a text around the first match in it: in the text, the list itself).
"""

from __future__ import annotations

import html
import re
from typing import Any

FORMS_LABEL = "Other spellings searched:"  # what the rules pages' hidden paragraph starts with
NAMES_LABEL = "Also searched as:"  # the line under a rule naming its glossary terms
_FORMS = re.compile(rf"\s*<p>{re.escape(FORMS_LABEL)}\s*(.*?)</p>", re.S)
_NAMES = re.compile(rf"<p>{re.escape(NAMES_LABEL)}\s*(.*?)</p>", re.S)


def material_entry(doc: dict[str, Any]) -> dict[str, Any]:
    """One entry of Material's index with its search-only words in `words` and its names in `names`."""
    text = doc.get("text")
    if not isinstance(text, str):
        return doc
    out = dict(doc)
    forms = _FORMS.search(text)
    if forms:
        out["text"] = (text[: forms.start()] + text[forms.end():]).strip()
        out["words"] = forms.group(1).strip()
    names = _NAMES.search(out["text"])
    if names:
        out["names"] = html.unescape(re.sub(r"<[^>]*>", "", names.group(1))).strip()
    return out


def zensical_kept(item: dict[str, Any]) -> bool:
    """Whether an entry of Zensical's index says anything: a heading with nothing under it (a rules
    chapter's title, which its entries' results carry in their path) is left out, where it took a
    place among the first results ("setup a mission" found the Setup chapter's bare title first).
    Material folds such an entry under its page's sections instead."""
    text = item.get("text")
    return not isinstance(text, str) or bool(re.sub(r"<[^>]*>", "", text).strip())


def zensical_entry(item: dict[str, Any]) -> dict[str, Any]:
    """One entry of Zensical's index with its search-only words in a hidden span of its title."""
    text = item.get("text")
    forms = _FORMS.search(text) if isinstance(text, str) else None
    if text is None or forms is None:
        return item
    rest = (text[: forms.start()] + text[forms.end():]).strip()
    # `hidden="hidden"`: its dialog renders a bare `hidden` as an empty, false property.
    title = f'{item.get("title", "")}<span hidden="hidden"> {forms.group(1).strip()}</span>'
    return {**item, "title": title, "text": rest}
