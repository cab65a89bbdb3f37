"""The actions reference: every action a game allows, from the engine's registry."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from validators.act import WHO
from validators.act import param_type as _type
from validators.engine import Registry, State, repealed, withdrawn
from validators.games._markup import in_words
from validators.judge import cite
from validators.problems import Problem

from .links import Links
from .markup import esc, md_text, plain_html

_CODE = re.compile(r"`([^`]+)`")


def words_html(text: str) -> str:
    """An action's summary or a parameter's description, escaped, with its `code spans` (written for
    ``nomic act --help``) shown as code rather than between backticks."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", esc(text))


def params_table(schema: dict[str, Any], say: Callable[[str], str] = lambda text: text) -> str:
    props = schema.get("properties") or {}
    if not props:
        return "<p>No parameters.</p>"
    required = set(schema.get("required") or [])
    rows = "".join(f"<tr><td><code>{esc(name)}</code></td><td>{esc(_type(s))}</td>"
                   f"<td>{'yes' if name in required else 'no'}</td>"
                   f"<td>{words_html(say(s.get('description', '')))}</td></tr>"
                   for name, s in props.items())
    return ('<table class="nomic-params"><thead><tr><th>Parameter</th><th>Type</th><th>Required</th>'
            f"<th>About</th></tr></thead><tbody>{rows}</tbody></table>")


def rule_link(state: State, rule: str, links: Links) -> str:
    """The rule an action or event cites, linked to the ruleset; one the game's ruleset lacks is named as the judge
    names it ("rule-id (no such rule in this game's ruleset)"), a rule named in words as it is."""
    r = state.rules.get(rule)
    if r is None:
        return esc(cite(state, Problem("", rule=rule)).rule)
    return f'<a href="{esc(links.rule(r.id))}">{esc(r.cite())}</a>'


def render_actions(state: State, registry: Registry, links: Links, game: str) -> str:
    out = ["# Actions", "",
           f'<p class="nomic-lede">Every action this game allows, by module. Take one with '
           f"<code>nomic act {esc(game)} ACTION key=value … --as NAME</code>; "
           f"<code>nomic act {esc(game)} --list --as NAME</code> says which you may take now.</p>", ""]
    for module in registry.modules:
        if not module.actions and not module.events:
            continue
        out += [f"## {md_text(module.title)} {{#module-{esc(module.name)}}}", ""]
        say = in_words(state, module)
        for a in sorted(module.actions, key=lambda a: a.name):
            out += [f"### `{a.name}` {{#action-{a.name.replace('.', '-')}}}", ""]
            facts = [f"<strong>who</strong>: {esc(WHO.get(a.who, a.who))}",
                     f"<strong>rule</strong>: {rule_link(state, a.rule, links)}"]
            if a.frequency:
                facts.append(f"<strong>how often</strong>: {esc(a.frequency)}")
            if a.in_hiatus:
                facts.append("allowed in Hiatus")
            out.append('<div class="nomic-action-ref">')
            if withdrawn(state, a):  # engine.withdrawn: the judge refuses it until a proposal enacts the rule again
                out.append('<p class="nomic-gone"><strong>Not an action of the game now</strong>: its rule has been '
                           "repealed; it comes back if a proposal enacts the rule again.</p>")
            out.append(f"<p>{words_html(say(a.summary))}</p>")
            out.append(f'<p class="nomic-meta">{" · ".join(facts)}</p>')
            out.append(params_table(dict(a.params), say))
            if a.doc:
                out.append(f'<div class="nomic-doc">{plain_html(say(a.doc))}</div>')
            out += ["</div>", ""]
        if module.events:
            out += ["### Scheduled events", "",
                    "<ul>" + "".join(f"<li><code>{esc(e.name)}</code>: {words_html(say(e.said()))} "
                                     f"({rule_link(state, e.rule, links)})"
                                     + (" <strong>not now: its rule has been repealed</strong>"
                                        if repealed(state, e.rule) else "") + "</li>"
                                     for e in module.events) + "</ul>", ""]
    return "\n".join(out).rstrip() + "\n"
