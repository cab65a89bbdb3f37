"""The engine's parts: loading, round trip, time, dice, limits, scheduled events."""

from __future__ import annotations

from datetime import datetime

import pytest

from validators import yamlio
from validators.dice import Dice, chain
from validators.engine import Action, Event, Module, Registry, State, apply_action
from validators.problems import BadInput, Illegal
from validators.timeutil import frequency_violation, next_weekly, parse_time, to_roman, week_start


def t(text: str) -> datetime:
    return parse_time(text)


# ---------------------------------------------------------------- YAML


CANONICAL = """\
# yaml-language-server: $schema=../../../schemas/roster.schema.json
# a comment that must survive
stats:
  bananas: {type: integer, default: 0}
players:
  - name: Alice   # the first
    joined: 2026-10-01T00:00:00Z
    stats: {bananas: 3}
  - name: 'Bob'
    joined: 2026-10-02T00:00:00Z
    stats: {bananas: 5}
"""


def test_round_trip_of_a_canonical_file_is_byte_identical():
    assert yamlio.canonical(CANONICAL, "x.yaml") == CANONICAL


def test_a_changed_value_changes_only_its_line():
    tree = yamlio.rt_load(CANONICAL, "x.yaml")
    new = yamlio.load(CANONICAL, "x.yaml")
    new["players"][1]["stats"]["bananas"] = 6
    yamlio.sync_into(tree, new)
    out = yamlio.rt_dump(tree)
    changed = [(a, b) for a, b in zip(CANONICAL.splitlines(), out.splitlines()) if a != b]
    assert changed == [("    stats: {bananas: 5}", "    stats: {bananas: 6}")]


def test_both_loaders_read_the_same_values():
    text = "a: 012\nb: no\nc: 2026-11-22T10:15:00Z\nd: 1.5\ne: true\nf: ~\ng: 7\n"
    fast = yamlio.load(text, "x.yaml")
    slow = yamlio.to_plain(yamlio.rt_load(text, "x.yaml"))
    assert fast == slow == {"a": "012", "b": "no", "c": "2026-11-22T10:15:00Z", "d": 1.5, "e": True, "f": None,
                            "g": 7}


def test_a_timestamp_string_is_written_back_unquoted():
    tree = yamlio.rt_load("at: 2026-11-22T10:15:00Z\n", "x.yaml")
    yamlio.sync_into(tree, {"at": "2026-11-23T00:00:00Z"})
    assert yamlio.rt_dump(tree) == "at: 2026-11-23T00:00:00Z\n"


def test_removing_a_list_item_in_the_middle_keeps_the_others():
    text = "xs:\n  - 1   # one\n  - 2   # two\n  - 3   # three\n"
    tree = yamlio.rt_load(text, "x.yaml")
    yamlio.sync_into(tree, {"xs": [1, 3]})
    assert yamlio.rt_dump(tree) == "xs:\n  - 1   # one\n  - 3   # three\n"


@pytest.mark.parametrize("text, says", [
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("a: &x 1\nb: *x\n", "aliases and anchors"),
    ("a:\n\tb: 1\n", "tab in indentation"),
    ("a: !!python/object:os.system x\n", "is not allowed"),
    ("a: 9999999999999999999999\n", "too large"),
    ("a: " + "[" * 50 + "]" * 50 + "\n", "nested deeper"),
    ("a: .nan\n", "infinite or NaN"),
    ("<<: {a: 1}\n", "merge keys"),
])
def test_refused_yaml(text, says):
    with pytest.raises(BadInput) as e:
        yamlio.load(text, "x.yaml")
    assert says in str(e.value)
    assert "x.yaml:1:" in str(e.value) or "x.yaml:2:" in str(e.value)


def _large(line: str) -> str:
    """``line`` at line 2 of a text long enough to be read by the full loader (not the one-pass reader of small
    action files), whose walk over the converted values only runs when the conversion saw something to refuse."""
    filler = "".join(f"k{i}: value number {i}\n" for i in range(3000))
    return "a: 1\n" + line + filler


@pytest.mark.parametrize("line, says", [
    ('s: "' + "x" * (yamlio.MAX_STRING + 1) + '"\n', "the limit is"),
    ('s: "a\\0b"\n', "NUL character"),
    ("s: [1, .inf]\n", "infinite or NaN"),
    ("s: 1e999\n", "infinite or NaN"),
    ("s: {7: seven}\n", "must be a string"),
    ("s:\n" + "".join("  " * i + "- \n" for i in range(1, 44)) + "  " * 44 + "- x\n", "nested deeper"),
])
def test_refused_values_in_a_large_file(line, says):
    text = _large(line)
    assert len(text) > yamlio.yamlfast.MAX_CHARS
    with pytest.raises(BadInput) as e:
        yamlio.load(text, "x.yaml")
    assert says in str(e.value)
    assert "x.yaml:2:" in str(e.value) or says == "nested deeper"


def test_a_large_file_of_plain_values_is_read_whole():
    text = _large("s: [1, 2.5, true, null, 'quoted', \"double\"]\n")
    data = yamlio.load(text, "x.yaml")
    assert data["s"] == [1, 2.5, True, None, "quoted", "double"] and data["k2999"] == "value number 2999"


def test_a_file_over_the_size_limit_is_refused():
    with pytest.raises(BadInput) as e:
        yamlio.read_text("big.yaml", data=b"a" * (yamlio.MAX_FILE_BYTES + 1))
    assert "the limit is" in str(e.value)


# ---------------------------------------------------------------- time


def test_week_starts_on_monday_utc():
    assert week_start(t("2026-11-22T23:59:59Z")) == t("2026-11-16T00:00:00Z")  # a Sunday
    assert week_start(t("2026-11-23T00:00:00Z")) == t("2026-11-23T00:00:00Z")  # a Monday


def test_next_weekly_is_strictly_after():
    assert next_weekly(t("2026-11-23T00:00:00Z")) == t("2026-11-30T00:00:00Z")
    assert next_weekly(t("2026-11-22T23:59:59Z"), 0, 0, 0, 1) == t("2026-11-23T00:00:01Z")


@pytest.mark.parametrize("kind, previous, now, refused", [
    ("daily", ["2026-11-22T01:00:00Z"], "2026-11-22T23:00:00Z", "already taken this day"),
    ("daily", ["2026-11-21T22:00:00Z"], "2026-11-22T03:59:59Z", "needs 6 hours"),
    ("daily", ["2026-11-21T22:00:00Z"], "2026-11-22T04:00:00Z", None),
    ("weekly", ["2026-11-16T00:00:00Z"], "2026-11-22T23:59:59Z", "already taken this week"),
    ("weekly", ["2026-11-22T12:00:00Z"], "2026-11-23T11:59:59Z", "needs 24 hours"),
    ("weekly", ["2026-11-22T12:00:00Z"], "2026-11-23T12:00:00Z", None),
])
def test_daily_and_weekly_limits(kind, previous, now, refused):
    why = frequency_violation(kind, [t(p) for p in previous], t(now))
    if refused is None:
        assert why is None
    else:
        assert why is not None and refused in why


def test_roman_numerals():
    assert [to_roman(n) for n in (1, 4, 9, 14, 40, 1994)] == ["I", "IV", "IX", "XIV", "XL", "MCMXCIV"]


# ---------------------------------------------------------------- dice


def test_dice_are_reproducible_and_ignore_wording():
    a = Dice("head", "Alice", "monkey.dance", 0)
    b = Dice("head", "Alice", "monkey.dance", 0)
    assert [a.roll(6) for _ in range(20)] == [b.roll(6) for _ in range(20)]
    assert all(1 <= v <= 6 for v in a.rolled)


def test_dice_change_with_the_chain_and_the_actor():
    rolls = {tuple(Dice(h, who, "x", 0).roll(1000) for _ in range(1)) for h in ("h1", "h2") for who in ("A", "B")}
    assert len(rolls) == 4


def test_a_die_of_no_sides_gives_zero():
    assert Dice("h", "A", "x", 0).roll(0) == 0


def test_the_chain_is_sha256_of_the_head_and_the_records_canonical_json():
    import hashlib

    r = {"params": {"vote": "FOR", "n": 1.5, "é": None}, "action": "x", "actor": "Zoë", "at": "2026-11-22T10:00:00Z"}
    body = '{"action":"x","actor":"Zoë","at":"2026-11-22T10:00:00Z","params":{"n":1.5,"vote":"FOR","é":null}}'
    assert chain("h", r) == hashlib.sha256(("h\n" + body).encode("utf-8")).hexdigest()
    assert chain("", {}) == hashlib.sha256(b'\n{"action":null,"actor":null,"at":null,"params":null}').hexdigest()


def test_the_chain_ignores_the_note():
    r = {"at": "2026-11-22T10:00:00Z", "actor": "A", "action": "x", "params": {"n": 1}}
    assert chain("h", r) == chain("h", {**r, "note": "anything"})
    assert chain("h", r) != chain("h", {**r, "params": {"n": 2}})


# ---------------------------------------------------------------- the engine with a toy module


def _toy_registry() -> Registry:
    def roll(ctx):
        ctx.edit("roster")["players"][0]["stats"]["luck"] = ctx.roll(6)

    def weekly_bonus(ctx):
        for p in ctx.edit("roster")["players"]:
            p["stats"]["luck"] += 10

    module = Module(
        name="toy", title="Toy",
        actions=[Action(name="toy.roll", rule="toy", summary="", effect=roll, frequency="daily")],
        events=[Event(name="toy.weekly", rule="toy", next_time=lambda when: next_weekly(when), apply=weekly_bonus)],
    )
    return Registry([module])


def _toy_state() -> State:
    roster = {"stats": {"luck": {"type": "integer", "default": 0}},
              "players": [{"name": "A", "joined": "2026-11-01T00:00:00Z", "stats": {"luck": 0}}]}
    ledger = {"clock": "2026-11-20T00:00:00Z", "actions": 0, "head": ""}
    return State({"modules": []}, {"roster": roster, "ledger": ledger}, {})


def test_scheduled_events_fire_between_actions():
    reg, state = _toy_registry(), _toy_state()
    applied = apply_action(reg, state, {"at": "2026-11-30T12:00:00Z", "actor": "A", "action": "toy.roll"})
    assert [e["at"] for e in applied.events] == ["2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z"]
    assert applied.state.docs["roster"]["players"][0]["stats"]["luck"] == applied.dice[0]
    assert state.docs["roster"]["players"][0]["stats"]["luck"] == 0  # the old state is untouched


def test_an_event_read_from_the_state_fires_at_the_moment_the_state_names():
    """``next_due``: the state, not a calendar, says when (a stay that ends at a time written in a document)."""
    from validators.timeutil import parse_time

    def due(state, after):
        ends = [parse_time(t) for t in state.docs["roster"].get("wake_at", [])]
        return min((t for t in ends if t > after), default=None)

    def wake(ctx):
        ctx.edit("roster")["players"][0]["stats"]["luck"] += 1

    module = Module(name="toy", title="Toy",
                    actions=[Action(name="toy.roll", rule="toy", summary="", effect=lambda ctx: None)],
                    events=[Event(name="toy.wake", rule="toy", next_time=None, apply=wake, next_due=due)])
    state = _toy_state()
    state = State(state.config, {**state.docs, "roster": {**state.docs["roster"],
                  "wake_at": ["2026-11-19T23:00:00Z", "2026-11-20T03:17:42Z", "2026-11-21T09:05:00Z"]}}, {})
    applied = apply_action(Registry([module]), state, {"at": "2026-11-21T09:04:59Z", "actor": "A",
                                                        "action": "toy.roll"})
    assert [e["at"] for e in applied.events] == ["2026-11-20T03:17:42Z"]  # the past one and the later one: no
    with pytest.raises(ValueError):
        Event(name="toy.both", rule="toy", next_time=next_weekly, apply=wake, next_due=due)


def test_a_firing_that_moves_a_later_moment_is_followed_at_the_new_moment():
    """``advance`` asks each event again of the state the last firing left (seed 004 Reputability, Lifecycle: a
    proposal taking effect within a gap may move a join time or another proposal's end). ``early`` fires at
    03:00 and moves ``late`` from 20:00 to 05:00, and to the very moment 03:00 for an event registered after
    it, which still fires then; ``late``, registered first, moves ``early`` back to 03:00, its own past moment,
    and ``early`` does not fire twice."""
    def read(key):
        return lambda state, after: min((parse_time(t) for t in state.docs["roster"].get(key, [])
                                         if parse_time(t) > after), default=None)

    def early(ctx):
        roster = ctx.edit("roster")
        roster["late_at"] = ["2026-11-20T05:00:00Z"]
        roster["tie_at"] = ["2026-11-20T03:00:00Z"]
        roster["early_at"] = []

    def late(ctx):
        ctx.edit("roster")["early_at"] = ["2026-11-20T03:00:00Z"]

    def note(ctx):
        ctx.step({"at": ctx.record["at"]})

    module = Module(name="toy", title="Toy",
                    actions=[Action(name="toy.roll", rule="toy", summary="", effect=lambda ctx: None)],
                    events=[Event(name="toy.late", rule="toy", next_time=None, apply=late, next_due=read("late_at")),
                            Event(name="toy.early", rule="toy", next_time=None, apply=early,
                                  next_due=read("early_at")),
                            Event(name="toy.tie", rule="toy", next_time=None, apply=note, next_due=read("tie_at"))])
    state = _toy_state()
    state = State(state.config, {**state.docs, "roster": {**state.docs["roster"], "early_at": ["2026-11-20T03:00:00Z"],
                                                          "late_at": ["2026-11-20T20:00:00Z"]}}, {})
    applied = apply_action(Registry([module]), state, {"at": "2026-11-21T00:00:00Z", "actor": "A",
                                                        "action": "toy.roll"})
    assert [(e["event"], e["at"]) for e in applied.events] == [
        ("toy.early", "2026-11-20T03:00:00Z"), ("toy.tie", "2026-11-20T03:00:00Z"),
        ("toy.late", "2026-11-20T05:00:00Z")]


def test_a_daily_action_twice_in_a_day_is_refused():
    reg, state = _toy_registry(), _toy_state()
    first = apply_action(reg, state, {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.roll"})
    with pytest.raises(Illegal) as e:
        apply_action(reg, first.state, {"at": "2026-11-21T20:00:00Z", "actor": "A", "action": "toy.roll"})
    assert "already taken this day" in str(e.value)


def test_dice_do_not_change_when_the_actor_retries_with_other_wording():
    reg, state = _toy_registry(), _toy_state()
    a = apply_action(reg, state, {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.roll", "note": "x"})
    b = apply_action(reg, state, {"at": "2026-11-21T05:00:00Z", "actor": "A", "action": "toy.roll", "note": "yy"})
    assert a.dice == b.dice


def test_an_outcome_holds_what_its_file_will_hold():
    """A tuple in an outcome (ifMUD's monkey-steal recorded ``("player", name)``) is recorded as a list.

    The judge compares the replay's outcome with the file's; a tuple never equals the list read back.
    """
    from validators.content import doc_text
    from validators.judge import judge_one

    def grab(ctx):
        ctx.step({"from": ("player", "A"), "nested": [{"pair": (1, 2)}], "plain": [1, "x"]})

    module = Module(name="toy", title="Toy", actions=[Action(name="toy.grab", rule="toy", summary="", effect=grab)])
    reg, state = Registry([module]), _toy_state()
    record = {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.grab"}
    applied = apply_action(reg, state, record)
    assert applied.outcome == [{"from": ["player", "A"], "nested": [{"pair": [1, 2]}], "plain": [1, "x"]}]
    text = doc_text({**record, "outcome": applied.outcome}, "content/toy/actions/x.yaml", "action.schema.json")
    step = judge_one(reg, state, yamlio.load(text, "x.yaml"), "x.yaml")
    assert step.legal, [p.text() for p in step.problems]


@pytest.mark.parametrize("cited, shown", [
    ("time", "time"),  # the engine's own rules, cited in a word, are no rule file of the game
    ("dice", "dice"),
    ("scheduled events", "scheduled events"),
    ("ruleset-and-gamestate", "ruleset-and-gamestate (no such rule in this game's ruleset)"),
])
def test_a_rule_the_ruleset_lacks_is_cited_as_missing_but_the_engines_own_are_not(cited, shown):
    from validators.judge import cite
    from validators.problems import Problem

    state = State({"modules": []}, {}, {})
    assert cite(state, Problem("refused", rule=cited)).rule == shown


def _ruled_registry():
    """A toy game whose rule ``bonus`` makes a consequence (a roll gives one more luck), ``curfew`` a gate (no roll
    after 22:00) and ``cap`` an invariant (luck at most 6), each tied to its rule by ``engine.ruled``; the
    consequence ``untied`` is tied to none."""
    from validators.engine import Rule, ruled

    def roll(ctx):
        ctx.edit("roster")["players"][0]["stats"]["luck"] = ctx.roll(6)

    @ruled("bonus")
    def bonus(ctx):
        ctx.edit("roster")["players"][0]["stats"]["luck"] += 1

    def untied(ctx):
        ctx.edit("roster")["players"][0]["stats"]["rolls"] = ctx.doc("roster")["players"][0]["stats"]["rolls"] + 1

    @ruled("curfew")
    def curfew(ctx):
        if ctx.at.hour >= 22:
            yield "no rolling after 22:00"

    @ruled("cap")
    def cap(state):
        from validators.problems import Problem
        for p in state.docs["roster"]["players"]:
            if p["stats"]["luck"] > 6:
                yield Problem(f"{p['name']} has more luck than 6")

    def repeal(ctx):
        ctx.tx.edit_rules()[ctx.params["rule"]].meta["status"] = "repealed"

    module = Module(name="toy", title="Toy",
                    actions=[Action(name="toy.roll", rule="toy", summary="", effect=roll),
                             Action(name="toy.repeal", rule="toy", summary="", effect=repeal)],
                    consequences=[bonus, untied], gates=[curfew], invariants=[cap])
    rules = {rid: Rule(rid, {"status": "active"}, "") for rid in ("toy", "bonus", "curfew", "cap")}
    base = _toy_state()
    roster = {**base.docs["roster"], "stats": {"luck": {"type": "integer", "default": 0},
                                                "rolls": {"type": "integer", "default": 0}},
              "players": [{**base.docs["roster"]["players"][0], "stats": {"luck": 0, "rolls": 0}}]}
    return Registry([module]), State(base.config, {**base.docs, "roster": roster}, rules)


def _with_repealed(state, *rids):
    from validators.engine import Rule
    rules = {k: Rule(k, {**r.meta, "status": "repealed"} if k in rids else r.meta, r.body)
             for k, r in state.rules.items()}
    return State(state.config, state.docs, rules)


def test_a_consequence_tied_to_a_repealed_rule_no_longer_runs():
    """Seed 001 1.1 (the Ruleset says what may change the gamestate): a consequence ``engine.ruled`` ties to a rule
    runs while the rule is in force and not once it is repealed; one tied to no rule runs either way."""
    reg, state = _ruled_registry()
    record = {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.roll"}
    live = apply_action(reg, state, record)
    stats = live.state.docs["roster"]["players"][0]["stats"]
    assert (stats["luck"], stats["rolls"]) == (live.dice[0] + 1, 1)
    gone = apply_action(reg, _with_repealed(state, "bonus"), record)
    stats = gone.state.docs["roster"]["players"][0]["stats"]
    assert (stats["luck"], stats["rolls"]) == (gone.dice[0], 1)


def test_an_action_that_repeals_a_rule_stops_its_consequence_at_once():
    """The consequences after an action read the ruleset as the action left it: the repeal of ``bonus`` is
    followed by no bonus."""
    reg, state = _ruled_registry()
    applied = apply_action(reg, state, {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.repeal",
                                        "params": {"rule": "bonus"}})
    assert applied.state.docs["roster"]["players"][0]["stats"]["luck"] == 0
    assert applied.state.rules["bonus"].meta["status"] == "repealed"
    kept = apply_action(reg, state, {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.repeal",
                                     "params": {"rule": "cap"}})
    assert kept.state.docs["roster"]["players"][0]["stats"]["luck"] == 1


def test_a_gate_tied_to_a_repealed_rule_no_longer_refuses():
    reg, state = _ruled_registry()
    late = {"at": "2026-11-21T23:00:00Z", "actor": "A", "action": "toy.roll"}
    with pytest.raises(Illegal) as e:
        apply_action(reg, state, late)
    assert "no rolling after 22:00" in str(e.value)
    assert e.value.problems[0].rule == "curfew"  # cited as the rule that makes the gate
    apply_action(reg, _with_repealed(state, "curfew"), late)


def test_an_invariant_tied_to_a_repealed_rule_no_longer_holds_the_state():
    from validators.judge import state_problems

    reg, state = _ruled_registry()
    roster = state.docs["roster"]
    lucky = State(state.config, {**state.docs, "roster": {**roster, "players": [
        {**roster["players"][0], "stats": {"luck": 9, "rolls": 0}}]}}, state.rules)
    assert [p.message for p in state_problems(lucky, reg)] == ["A has more luck than 6"]
    assert state_problems(_with_repealed(lucky, "cap"), reg) == []


def test_a_repealed_rule_carried_by_a_rule_in_force_is_in_force():
    """ifMUD seed, Rule 9 (every added rule takes a new number): a repealed rule whose very text a later rule
    enacted again (``carried_by``) is in force while that rule is, down a chain of such rules; a chain that loops
    or ends at a rule the ruleset lacks leaves it repealed."""
    from validators.engine import Rule, repealed_in

    def rules(**meta):
        return {rid: Rule(rid, {"id": rid, "status": status, **({"carried_by": by} if by else {})}, "text\n")
                for rid, (status, by) in meta.items()}

    assert repealed_in(rules(r1=("repealed", None)), "r1") is not None
    assert repealed_in(rules(r1=("repealed", "r2"), r2=("active", None)), "r1") is None
    assert repealed_in(rules(r1=("repealed", "r2"), r2=("repealed", None)), "r1") is not None
    chain = rules(r1=("repealed", "r2"), r2=("repealed", "r3"), r3=("active", None))
    assert (repealed_in(chain, "r1"), repealed_in(chain, "r2")) == (None, None)
    looped = rules(r1=("repealed", "r2"), r2=("repealed", "r1"))
    assert repealed_in(looped, "r1").id == "r1"
    assert repealed_in(rules(r1=("repealed", "r9")), "r1").id == "r1"
    assert repealed_in(rules(r1=("active", "r9")), "r1") is None


def test_an_action_is_judged_by_the_ruleset_its_gates_leave():
    """A gate that lets a module's own time run up to the action (ifMUD's settle: a proposal taking effect an
    hour after ratification, seed 002 Rule 10) may repeal the action's rule, or enact it again: the action is
    refused or taken by the ruleset as the gate left it."""
    from validators.engine import Rule

    def toggle(ctx):
        meta = ctx.tx.edit_rules()["roll"].meta
        meta["status"] = "active" if meta["status"] == "repealed" else "repealed"
        return ()

    def roll(ctx):
        ctx.edit("roster")["players"][0]["stats"]["luck"] = ctx.roll(6)

    _, state = _ruled_registry()
    rules = {**state.rules, "roll": Rule("roll", {"id": "roll", "title": "Rolling", "number": "3",
                                                   "status": "active"}, "Roll.\n")}
    base = State(state.config, state.docs, rules)
    record = {"at": "2026-11-21T01:00:00Z", "actor": "A", "action": "toy.roll"}
    action = Action(name="toy.roll", rule="roll", summary="", effect=roll)
    plain = Registry([Module(name="toy", title="Toy", actions=[action])])
    gated = Registry([Module(name="toy", title="Toy", actions=[action], gates=[toggle])])
    apply_action(plain, base, record)  # in force, no gate: taken
    with pytest.raises(Illegal) as e:  # in force, repealed by the gate: refused
        apply_action(gated, base, record)
    assert "the rule that makes this action, 3 Rolling, has been repealed" in str(e.value)
    gone = _with_repealed(base, "roll")
    with pytest.raises(Illegal):  # repealed, no gate: refused
        apply_action(plain, gone, record)
    applied = apply_action(gated, gone, record)  # repealed, enacted again by the gate: taken
    assert applied.state.rules["roll"].meta["status"] == "active"
