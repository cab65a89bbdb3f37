"""Every parameter of every action says what it is: the wiki's Actions page shows its description under "About"
and ``nomic act GAME ACTION --list`` beside it; ``engine.reveal``'s ``secret`` and ``salt`` had none, and their
cells were empty, and so were some two hundred others of every module. The registry of every module is walked (the
engine's own actions too): a parameter without a description fails."""

from __future__ import annotations

from validators.engine import engine_module
from validators.modules import all_modules


def _params() -> dict[str, dict]:
    return {f"{a.name}.{name}": schema for m in [engine_module(), *all_modules().values()] for a in m.actions
            for name, schema in (a.params.get("properties") or {}).items()}


def test_every_parameter_of_every_action_has_a_description() -> None:
    params = _params()
    missing = {key for key, schema in params.items() if not str(schema.get("description") or "").strip()}
    assert not missing, f"parameters without a description: {sorted(missing)}"
    for key in ("engine.reveal.secret", "engine.reveal.salt", "engine.reveal.label", "core.vote.vote"):
        assert params[key].get("description"), key


def test_the_actions_page_has_no_empty_about_cell() -> None:
    import re
    from pathlib import Path

    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.timeutil import parse_time

    root = Path(__file__).resolve().parents[1]
    site = build_game(model.load(root, "blognomic"), now=parse_time("2026-11-25T08:00:00Z"))
    page = next(p.content for p in site.pages if p.src == "games/blognomic/actions.md")
    # every row of every parameters table: its last cell, "About" (a BlogNomic game's are the core's and engine's)
    rows = re.findall(r"<tr><td><code>([^<]*)</code></td>(?:<td>.*?</td>){2}<td>(.*?)</td></tr>", page)
    assert len(rows) > 40 and not [name for name, about in rows if not about.strip()], rows
    reveal = page.split('{#action-engine-reveal}')[1].split("</table>")[0]
    assert "the salt <code>nomic hash</code> gave you" in reveal, reveal
