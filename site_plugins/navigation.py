"""Where a game's page kept out of the navigation sits: under its game's section.

Its own module, importing nothing of the plugin, so that the benchmark's plain build of the same pages
(``bench/wiki.py``) gives them the same navigation with a hook of MkDocs' own.
"""

from __future__ import annotations

from typing import Any


def place_unlisted(nav: Any, files: Any) -> Any:
    """A game's page kept out of the navigation (an ifMUD room, a Cycle 12 location: hundreds of them, listed on
    the map instead) gets its game's section as its parent: the sidebar opens at its game, as on the game's other
    pages, and the path above its title leads there."""
    listed = {id(p) for p in nav.pages}
    sections = {p.file.src_uri.split("/")[1]: p.parent for p in nav.pages
                if p.parent is not None and p.file.src_uri.startswith("games/")
                and p.file.src_uri.count("/") == 2 and p.file.src_uri.endswith("/index.md")}
    for file in files.documentation_pages():
        page = file.page
        src = file.src_uri
        if page is None or id(page) in listed or page.parent is not None or not src.startswith("games/") \
                or src.count("/") < 2:
            continue
        section = sections.get(src.split("/")[1])
        if section is not None:
            page.parent = section
    return nav
