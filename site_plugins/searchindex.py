"""Each search result says which game it belongs to.

Every game has pages called "Proposals", "History", "Roster", and a player may play in two
games; Material's search shows a result's page title and its sections, so a reader searching
"Fatima" would get two results called "Fatima". After the search plugin has written
``search/search_index.json``, the title of each game page's entry (the one without ``#``, which
Material shows above the page's sections in a result) gets the game's name: "Fatima · BlogNomic".
The page itself, its ``<title>`` and the navigation keep the title as it is.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

SEPARATOR = " · "


def name_games(index: dict[str, Any], games: dict[str, str]) -> int:
    """Add the game's name to the title of each game page's entry; how many entries were changed.

    ``games``: URL prefix of a game's pages ("games/blognomic/") -> the game's name as a reader sees it.
    Titles in the index are HTML (Material escapes their text), so the name is escaped the same way.
    """
    changed = 0
    for entry in index.get("docs") or []:
        location = str(entry.get("location", ""))
        if "#" in location:  # a section: a result shows it under its page's entry
            continue
        for prefix, game in games.items():
            if location.startswith(prefix):
                name = escape(game, quote=False)
                title = str(entry.get("title", ""))
                if name not in title:  # the game's home page, "Ruleset of BlogNomic": named already
                    entry["title"] = f"{title}{SEPARATOR}{name}" if title else name
                    changed += 1
                break
    return changed


def name_games_in_file(path: Path, games: dict[str, str]) -> int:
    """The same on the index the search plugin wrote (if it wrote one), written back as compactly."""
    if not games or not path.is_file():
        return 0
    index = json.loads(path.read_text(encoding="utf-8"))
    changed = name_games(index, games)
    if changed:
        path.write_text(json.dumps(index, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
    return changed
