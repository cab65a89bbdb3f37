"""The ruleset page: rules numbered as the game numbers them, with anchors, glossary links and history.

Sections come in the order of their lowest rule number; a rule with ``parent:``
is drawn under its parent (Cycle 12's subrule tree), one heading level deeper.
Glossary terms (the titles of the game's ``glossary`` rules) are linked wherever
they appear, case as written, plurals too; "Rule 1.5" links to rule 1.5.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from validators.engine import Rule, State, carrier_in_force
from validators.games._timefmt import day

from .links import Links
from .markup import RuleMarkdown, css_colour, esc, md_text

SECTION_TITLES = {"core": "Core Rules", "dynastic": "Dynastic Rules", "glossary": "Glossary",
                  "special": "Special Case Rules"}
_BY = re.compile(r"^(proposal|cfj|dov)\s+#?(\d+)$", re.IGNORECASE)


def number_key(number: object) -> tuple:
    """Natural order of rule numbers: 1.2 < 1.10 < 2.1 < G1; ifMUD's 9 < 42."""
    parts = re.findall(r"\d+|[^\d.]+", str(number))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


def glossary_terms(rules: dict[str, Rule]) -> dict[str, str]:
    """Term -> the anchor of its definition, from the active glossary rules."""
    return {r.title: r.id for r in rules.values()
            if r.meta.get("section") == "glossary" and r.meta.get("status", "active") == "active" and r.title}


def number_anchors(rules: dict[str, Rule]) -> dict[str, str]:
    return {r.number: r.id for r in rules.values() if r.number and r.meta.get("status", "active") == "active"}


def tree(rules: dict[str, Rule]) -> tuple[list[str], dict[str, list[Rule]], dict[str, list[Rule]]]:
    """(sections in order, top-level rules by section, children by parent id), each sorted by number."""
    children: dict[str, list[Rule]] = {}
    top: dict[str, list[Rule]] = {}
    for r in rules.values():
        parent = r.meta.get("parent")
        if parent and parent in rules and parent != r.id:
            children.setdefault(parent, []).append(r)
        else:
            top.setdefault(str(r.meta.get("section", "core")), []).append(r)
    for lst in (*children.values(), *top.values()):
        lst.sort(key=lambda r: (number_key(r.number), r.id))
    order = sorted(top, key=lambda s: (s == "glossary", number_key(top[s][0].number) if top[s] else (), s))
    return order, top, children


def by_link(by: str, links: Links) -> str:
    """'proposal 3' as a link to that proposal on the proposals page."""
    m = _BY.match(by.strip())
    if not m:
        return esc(by)
    kind = m.group(1).lower()
    return f'<a href="{esc(links.page("proposals", f"{kind}-{m.group(2)}"))}">{esc(by)}</a>'


def history_html(rule: Rule, links: Links) -> str:
    items = []
    for h in rule.meta.get("history", []) or []:
        when = day(h.get("at", ""))
        event = esc(h.get("event", ""))
        anchor = change_anchor(rule.id, h.get("at", ""))
        text = f'<a href="{esc(links.page("ruleset-history", anchor))}">{event}</a>' if h.get("event") != "founded" \
            else event
        if h.get("by"):
            text += " by " + by_link(str(h["by"]), links)
        text += f" <time datetime=\"{esc(h.get('at', ''))}\">{esc(when)}</time>"
        if h.get("note"):
            text += f" ({esc(h['note'])})"
        items.append(f"<li>{text}</li>")
    return f'<ul class="nomic-rule-history">{"".join(items)}</ul>' if items else ""


def change_anchor(rule_id: str, at: object) -> str:
    return f"c-{rule_id}-" + re.sub(r"[^0-9]", "", str(at))


def carrying_badges(rule: Rule, rules: Mapping[str, Rule], links: Links) -> list[str]:
    """Badges linking a repealed rule and the later rule that enacted its very text again (ifMUD's Rule 9 gives
    it a new number: ``carries``, ``carried_by``, engine.repealed_in)."""
    def cite(rid: str) -> str:
        other = rules.get(rid)
        if other is None:  # a rule the ruleset lacks (its file removed): named, with no link to a missing anchor
            return f"{esc(rid)}, a rule the ruleset lacks"
        return f'<a href="{esc(links.rule(rid))}">{esc(other.cite())}</a>'

    out = []
    by = rule.meta.get("carried_by")
    if by:
        if str(by) not in rules:  # nothing carries it (engine.repealed_in): neither in force again nor "since repealed"
            out.append(f'<span class="nomic-badge carried">enacted again as {cite(str(by))}</span>')
        elif (live := carrier_in_force(rules, rule.id)) is not None:
            # a carrier itself repealed and carried: the rule in force at the chain's end
            out.append(f'<span class="nomic-badge carried">in force again as {cite(live)}</span>')
        else:
            out.append(f'<span class="nomic-badge carried">enacted again as {cite(str(by))}, since repealed</span>')
    for rid in rule.meta.get("carries") or ():
        out.append(f'<span class="nomic-badge carried">enacts again the text of {cite(str(rid))}</span>')
    return out


def rule_block(rule: Rule, renderer: RuleMarkdown, links: Links, colours: dict[str, str], level: int,
               source: str = "", rules: Mapping[str, Rule] | None = None) -> list[str]:
    repealed = rule.meta.get("status") == "repealed"
    number, path = rule.number, ""
    if number and number != rule.title and number.endswith(rule.title):
        # Cycle 12 numbers a subrule by its path ("Terrain Tags → Tags → Air"): the heading is its title
        number, path = "", rule.number
    elif number == rule.title:
        number = ""
    heading = f"{md_text(number)} {md_text(rule.title)}".strip() if number else md_text(rule.title)
    classes = ".nomic-rule-title" + (" .nomic-repealed" if repealed else "")
    out = [f"{'#' * min(level, 6)} {heading}{' (repealed)' if repealed else ''} {{#{rule.id} {classes}}}", ""]
    colour = rule.meta.get("colour")
    style = ""
    badges = []
    if colour:
        css = css_colour(colours.get(str(colour), colour))
        swatch = f' style="background: {css}"' if css else ""
        if css:
            style = f' style="border-left-color: {css}"'
        badges.append(f'<span class="nomic-colour"><span class="swatch"{swatch}></span>{esc(colour)}</span>')
    if repealed:
        badges.append('<span class="nomic-badge repealed">repealed</span>')
    if rules is not None and (rule.meta.get("carried_by") or rule.meta.get("carries")):
        badges += carrying_badges(rule, rules, links)
    body = renderer.render(rule.body, skip=rule.id)
    src = links.blob(source) if source else ""
    src_link = f' · <a class="nomic-source" href="{esc(src)}">source</a>' if src else ""
    cls = "nomic-rule" + (" repealed" if repealed else "")
    out.append(f'<div class="{cls}" data-rule="{esc(rule.id)}"{style}>')
    if path:
        badges.insert(0, f'<span class="nomic-path">{esc(path)}</span>')
    if badges:
        out.append(f'<p class="nomic-badges">{" ".join(badges)}</p>')
    out.append(body)
    out.append(f'<details class="nomic-history-box"><summary>History{src_link}</summary>{history_html(rule, links)}'
               "</details>")
    out.append("</div>")
    out.append("")
    return out


def keywords_html(config: dict[str, Any]) -> str:
    kw = config.get("keywords") or {}
    if not kw:
        return ""
    rows = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in kw.items())
    return ('<table class="nomic-keywords"><thead><tr><th>the rules say</th><th>this game calls it</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def render_ruleset(state: State, links: Links, rule_paths: dict[str, str] | None = None,
                   title: str = "Ruleset") -> str:
    """The whole ruleset as Markdown (headings for the table of contents and search; rule text as safe HTML)."""
    rules = state.rules
    renderer = RuleMarkdown(glossary_terms(rules), number_anchors(rules))
    colours = {str(k): str(v) for k, v in (state.config.get("colours") or {}).items()}
    order, top, children = tree(rules)
    active = sum(1 for r in rules.values() if r.meta.get("status", "active") == "active")
    out = [f"# {md_text(title)}", "",
           f'<p class="nomic-lede">{active} rules in force'
           f'{f", {len(rules) - active} repealed" if len(rules) > active else ""}. '
           f'<a href="{esc(links.page("ruleset-history"))}">How the rules changed</a>.</p>', ""]
    kw = keywords_html(state.config)
    if kw:
        out += ['<details class="nomic-keywords-box"><summary>Keywords of this game</summary>', kw, "</details>", ""]
    paths = rule_paths or {}

    def walk(rule: Rule, level: int, seen: set[str]) -> Iterable[str]:
        seen.add(rule.id)
        yield from rule_block(rule, renderer, links, colours, level, paths.get(rule.id, ""), rules)
        for child in children.get(rule.id, []):
            if child.id not in seen:  # a cycle of parents is drawn once
                yield from walk(child, level + 1, seen)

    seen: set[str] = set()
    if "blognomic" in state.modules and "core" in top and "dynastic" not in top and set(top) <= set(SECTION_TITLES):
        # BlogNomic's Section Two, the dynasty's rules, has none between dynasties: the page says so where it goes
        order = order[:order.index("core") + 1] + ["dynastic"] + order[order.index("core") + 1:]
    for section in order:
        name = SECTION_TITLES.get(section, section.replace("-", " ").replace("_", " ").title())
        out += [f"## {md_text(name)} {{#section-{re.sub(r'[^a-z0-9-]', '-', section.lower())}}}", ""]
        if section not in top:
            out += ["<p>No dynastic rule is in force.</p>", ""]
        for rule in top.get(section, []):
            out += list(walk(rule, 3, seen))
    orphans = [r for r in rules.values() if r.id not in seen]
    if orphans:  # rules whose parents form a cycle
        out += ["## Other rules {#section-other}", ""]
        for rule in sorted(orphans, key=lambda r: number_key(r.number)):
            out += rule_block(rule, renderer, links, colours, 3, paths.get(rule.id, ""), rules)
    return "\n".join(out).rstrip() + "\n"
