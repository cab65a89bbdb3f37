"""The Monkey module's checks of a whole state (``Module.invariants``) made by one rule stop while that rule is
repealed (seed 001 1.1: a repealed rule no longer governs the gamestate). Each check is shown once with its rule
in force (reported) and once repealed (not); the shape of the documents is checked whatever is repealed.

The cases of actions, consequences and the Dance are in tests/cases/monkey/repealed-rules.yaml."""

from __future__ import annotations

import pytest

from validators.cases import base_state, patched
from validators.judge import state_problems

REPEAL = "/rules/{}/meta/status"

# (rule id, the patch that breaks what the rule asks, a word of the problem reported)
BROKEN = [
    # seed 000, the status rule: a Monkey In the Barrel is out of the Line
    ("status-and-barrel", [{"op": "replace", "path": "/roster/players/name=Bruno/stats/status",
                            "value": "In the Barrel"}], "Bruno's status"),
    # seed 000, Hammers: the hammer is one of the list
    ("hammers", [{"op": "replace", "path": "/roster/players/name=Bruno/stats/hammer", "value": "Spoon"}],
     "not on the hammer list"),
    # seed 000, Hats: the hat is one of the Hat List, or Bare
    ("hats", [{"op": "replace", "path": "/roster/players/name=Bruno/stats/hat", "value": "Fez"}],
     "not on the Hat List"),
    # seed 000, Items: an item nobody holds lies only in an empty position
    ("items", [{"op": "replace", "path": "/monkey_items/items/name=Banana Fountain/lies_at", "value": 4}],
     "may lie only in an empty position"),
    # seed 000, Items: only pocket-size items go into the barrel with their Monkey
    ("items", [{"op": "replace", "path": "/monkey_line/positions/8/monkeys", "value": ["Fatima"]},
               {"op": "remove", "path": "/monkey_line/positions/9"},
               {"op": "replace", "path": "/monkey_line/barrel", "value": [{"name": "Emeka", "since":
                                                                            "2026-11-01T00:00:00Z"}]},
               {"op": "replace", "path": "/roster/players/name=Emeka/stats/status", "value": "In the Barrel"},
               {"op": "replace", "path": "/monkey_items/items/name=Big Rock/held_by", "value": "Emeka"}],
     "only pocket-size items go into the barrel"),
    # seed 000, NPCs: an NPC has no section of the Dance
    ("npcs", [{"op": "add", "path": "/monkey_dance/sections/-", "value": {"monkey": "King Kong", "moves": []}}],
     "may not have a section"),
    # seed 000, Doing the Dance (the move list, 2.3 Dance Moves): a move's name gives its effect its positions
    ("dance-moves", [{"op": "replace", "path": "/monkey_dance/moves/name=Hat Trick n_A/name", "value": "Hat Trick"}],
     "acts on 1 position"),
]


@pytest.mark.parametrize("rule, ops, word", BROKEN, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(BROKEN)])
def test_a_check_of_the_state_stops_with_its_rule(rule, ops, word):
    state, registry = base_state("monkey-dance")
    assert not [p.text() for p in state_problems(state, registry)]
    broken = patched(state, registry, ops)
    assert any(word in p.text() for p in state_problems(broken, registry)), "in force, the rule's check reports it"
    repealed = patched(state, registry, [{"op": "replace", "path": REPEAL.format(rule), "value": "repealed"}] + ops)
    assert not [p.text() for p in state_problems(repealed, registry) if word in p.text()]


def test_the_shape_of_the_line_is_checked_whatever_is_repealed():
    """Who is where belongs to no one rule: a Monkey neither in the Line nor in the barrel is reported even with
    every dynastic rule repealed."""
    state, registry = base_state("monkey-dance")
    ids = ["the-monkey-line", "status-and-barrel", "items", "npcs", "hammers", "hats", "dance-moves",
           "doing-the-dance", "all-danced-out"]
    ops = [{"op": "replace", "path": REPEAL.format(r), "value": "repealed"} for r in ids]
    ops.append({"op": "remove", "path": "/monkey_line/positions/9"})
    problems = state_problems(patched(state, registry, ops), registry)
    assert any("neither in the Line nor in the barrel" in p.text() for p in problems)


def test_the_roster_sync_does_not_trust_an_order_found_under_other_rules():
    """The roster sync skips a state whose documents it last found in order. Whether NPCs have sections is the NPCs
    rule's, so a repeal that touches none of those documents (a proposal's) must still have the sync look again:
    the NPCs are then given sections as any Monkey."""
    from validators.engine import Rule, State, apply_action

    state, registry = base_state("monkey-dance")
    record = {"at": "2026-11-02T12:00:00Z", "actor": "Alice", "action": "core.propose", "params": {"title": "A"}}
    apply_action(registry, state, dict(record))  # in force: found in order, the NPCs without sections
    rules = dict(state.rules)
    rules["npcs"] = Rule("npcs", {**rules["npcs"].meta, "status": "repealed"}, rules["npcs"].body)
    applied = apply_action(registry, State(state.config, state.docs, rules), dict(record))
    sections = {s["monkey"] for s in applied.state.doc("monkey_dance")["sections"]}
    assert {"King Kong", "Curious George", "Miss Bubbles", "Robin Hood"} <= sections


def test_with_list_of_items_repealed_no_item_is_ready_to_use():
    """`nomic act --list` asks ``ready`` whether an action may be taken at all: with seed 000's List of Items
    repealed no item has a use, so using one is not offered (Alice holds the Monkey Ball, offered in force)."""
    from validators.engine import Ctx
    from validators.games.monkey import items
    from validators.timeutil import parse_time

    state, registry = base_state("monkey-dance")
    record = {"at": "2026-11-02T12:00:00Z", "actor": "Alice", "action": "monkey.use-item", "params": {}}

    def ready(s):
        return list(items._use_ready(Ctx(s, items.USE_ITEM, record, parse_time(record["at"]), registry)))

    assert ready(state) == []
    repeal = {"op": "replace", "path": REPEAL.format("list-of-items"), "value": "repealed"}
    repealed = patched(state, registry, [repeal])
    assert ready(repealed) == ["the rule that describes the items is repealed: no item has a use"]
