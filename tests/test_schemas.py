"""Schema validation: a whole float (3.0) where a schema asks for an integer is refused, with its path and line.

jsonschema-rs answers first and counts 3.0 as an integer, so validators/schemas.py searches a document it
passes for whole floats, but only where the schema may ask for an integer (its "integer plan"). These tests
hold that search to its job: every float spelling the loader resolves, every way a schema can reach an
integer (references, combinators, conditionals, pattern and additional properties, items ...), schemas the
plan does not follow, and the verdict of jsonschema alone on the same data.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from validators import schemas, yamlio

ACTION = "action.schema.json"

# Every spelling of a whole number that the loader resolves to a float (validators/yamlio.py: the narrowed
# core schema's float). An explicit !!float tag (which PyYAML would read with underscores and base 60) is
# refused by the loader itself, as every tag is.
WHOLE_FLOATS = ["3.0", "3.", "3e0", "3E0", "30e-1", ".3e1", "+3.0", "3.0e+0", "0.3e+1", "-0.0", "3.000"]
TAGGED = ["!!float 3", "!!float 3_0", "!!float 1:30", '!!float "4"', "!!float '4.0'", "!!int '4'", "!!str 4",
          "! 4"]


def action_text(value: str) -> str:
    # an action the fast path would like to skip: large free-form params and outcome, full of floats that
    # are allowed there (the action schema says nothing of their types), and one die
    return (
        "# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
        "at: 2026-02-20T13:19:00Z\n"
        "actor: Dana\n"
        "action: monkey.update-section\n"
        "params:\n"
        "  ratio: 2.0\n"
        "  moves: [Big Bonus, Bow, 1.0, 7.5]\n"
        "outcome:\n"
        + "".join(f"  - {{section: P{i}, score: {i}.0, moves: [Bow, Swing 2 to {i}]}}\n" for i in range(50))
        + "dice:\n"
        "  - 4\n"
        f"  - {value}\n"
        "  - 6\n"
    )


@pytest.mark.parametrize("spelling", WHOLE_FLOATS)
def test_a_whole_float_die_is_refused_in_every_spelling(spelling):
    text = action_text(spelling)
    data = yamlio.load(text, "a.yaml")
    assert type(data["dice"][1]) is float and data["dice"][1].is_integer()
    assert schemas._rs_for(ACTION).is_valid(data)  # jsonschema-rs alone would pass it
    found = schemas.errors(data, schema=ACTION, file="a.yaml", text=text)
    assert [(p.field, p.line) for p in found] == [("dice[1]", text.count("\n") - 1)]
    assert found[0].message == f"{json.dumps(data['dice'][1])} is not a whole number"
    assert not schemas.is_valid(data, schema=ACTION)


@pytest.mark.parametrize("spelling", TAGGED)
def test_a_tagged_value_is_refused_by_the_loader_at_its_place(spelling):
    text = action_text(spelling)
    with pytest.raises(yamlio.BadInput) as e:
        yamlio.load(text, "a.yaml")
    (problem,) = e.value.problems
    assert (problem.file, problem.line, problem.col) == ("a.yaml", text.count("\n") - 1, 5)
    assert problem.message.startswith("tag ") and "is not allowed in content files" in problem.message


def test_an_exclamation_mark_in_text_is_not_a_tag():
    data = yamlio.load('a: "hello!"\nb: wow!\nc: [x!, "!!float 3"]\n', "a.yaml")
    assert data == {"a": "hello!", "b": "wow!", "c": ["x!", "!!float 3"]}


def test_whole_floats_where_no_integer_is_asked_are_not_errors():
    text = action_text("5")
    data = yamlio.load(text, "a.yaml")
    assert schemas.errors(data, schema=ACTION, text=text) == []
    assert schemas.is_valid(data, schema=ACTION)
    assert schemas.validator_for(ACTION).is_valid(data)  # jsonschema alone agrees


def test_the_action_plan_looks_only_at_the_dice():
    fast, plan = schemas._fast_for(ACTION)
    assert fast is not None
    assert [k for k, _ in plan.live] == ["dice"] and plan.other is None
    dice = plan.props["dice"]
    assert dice.items is not None and dice.items.check
    assert plan.props["params"] is None and plan.props["outcome"] is None


def test_a_whole_float_in_a_game_document_is_refused_with_its_path():
    text = ("next: 4\nproposals:\n  - id: 1\n    title: One\n    author: Dana\n    status: pending\n"
            "    submitted: 2026-01-01T00:00:00Z\n    text: hi\n    votes: {Dana: FOR}\n")
    data = yamlio.load(text, "proposals.yaml")
    assert schemas.errors(data, schema="proposals.schema.json", text=text) == []
    bad = copy.deepcopy(data)
    bad["proposals"][0]["id"] = 1.0
    found = schemas.errors(bad, schema="proposals.schema.json", file="proposals.yaml", text=text)
    assert [(p.field, p.line, p.message) for p in found] == [("proposals[0].id", 3, "1.0 is not a whole number")]


# ---------------------------------------------------------------- every way a schema reaches an integer

INT = {"type": "integer"}
CASES = [
    # (schema, a valid document, the path of an integer in it)
    ({"type": "integer"}, 3, ()),
    ({"type": ["integer", "null"]}, 3, ()),
    ({"properties": {"a": INT}}, {"a": 3}, ("a",)),
    ({"additionalProperties": INT}, {"x": 3}, ("x",)),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": INT}, {"a": "s", "b": 3}, ("b",)),
    ({"patternProperties": {"^n_": INT}}, {"n_x": 3}, ("n_x",)),
    ({"properties": {"n_a": {}}, "patternProperties": {"^n_": INT}}, {"n_a": 3}, ("n_a",)),
    ({"unevaluatedProperties": INT}, {"u": 3}, ("u",)),
    ({"items": INT}, [1, 2, 3], (2,)),
    ({"prefixItems": [{"type": "string"}, INT]}, ["s", 3], (1,)),
    ({"prefixItems": [{"type": "string"}], "items": INT}, ["s", 3], (1,)),
    ({"contains": INT}, ["s", 3], (1,)),
    ({"unevaluatedItems": INT}, [3], (0,)),
    ({"$ref": "#/$defs/n", "$defs": {"n": INT}}, 3, ()),
    ({"properties": {"a": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"$ref": "#/$defs/m"}, "m": INT}},
     {"a": 3}, ("a",)),
    ({"properties": {"a": {"$ref": "#/$defs/ev%25ery~1th~0ing"}}, "$defs": {"ev%ery/th~ing": INT}},
     {"a": 3}, ("a",)),
    ({"allOf": [{"properties": {"a": INT}}]}, {"a": 3}, ("a",)),
    # "a" is named by one subschema, and another's additionalProperties applies to it
    ({"allOf": [{"properties": {"a": {}}}, {"additionalProperties": INT}]}, {"a": 3}, ("a",)),
    ({"anyOf": [{"type": "string"}, INT]}, 3, ()),
    ({"oneOf": [{"type": "string"}, INT]}, 3, ()),
    ({"if": {"properties": {"k": {"const": "n"}}}, "then": {"properties": {"v": INT}}}, {"k": "n", "v": 3},
     ("v",)),
    ({"if": {"properties": {"k": {"const": "n"}}}, "then": {}, "else": {"properties": {"v": INT}}},
     {"k": "s", "v": 3}, ("v",)),
    # the float changes the condition: 3.0 is no integer, so "else" applies and refuses it
    ({"if": {"properties": {"v": INT}}, "else": {"properties": {"v": {"type": "string"}}}}, {"v": 3}, ("v",)),
    ({"not": {"properties": {"v": {"type": "string"}}}, "properties": {"v": {"anyOf": [INT, {"type": "null"}]}}},
     {"v": 3}, ("v",)),
    ({"dependentSchemas": {"k": {"properties": {"v": INT}}}}, {"k": 1, "v": 3}, ("v",)),
    # recursion: a tree of any depth whose leaves are integers
    ({"$ref": "#/$defs/tree",
      "$defs": {"tree": {"anyOf": [INT, {"type": "array", "items": {"$ref": "#/$defs/tree"}}]}}},
     [1, [2, [3, [4]]]], (1, 1, 1, 0)),
    ({"$ref": "#/$defs/node", "$defs": {"node": {"properties": {"next": {"$ref": "#/$defs/node"}, "n": INT}}}},
     {"next": {"next": {"n": 3}}}, ("next", "next", "n")),
    # references into the shared schema files
    ({"properties": {"r": {"$ref": "rule.schema.json#/properties/number"}}}, {"r": 3}, ("r",)),
    ({"properties": {"p": {"$ref": "proposals.schema.json#/properties/proposals"}}},
     {"p": [{"id": 1, "title": "t", "author": "Dana", "status": "pending", "submitted": "2026-01-01T00:00:00Z",
             "votes": {}}]}, ("p", 0, "id")),
    ({"properties": {"c": {"$ref": "common.schema.json#/$defs/count"}}}, {"c": 3}, ("c",)),
]


def _set(data, path, value):
    if not path:
        return value
    data = copy.deepcopy(data)
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize("schema, doc, path", CASES, ids=[json.dumps(c[0])[:60] for c in CASES])
def test_an_integer_reached_any_way_refuses_a_whole_float(schema, doc, path):
    key = schemas.inline_key_of(schema)
    python = schemas._inline(key)
    assert python.is_valid(doc), "the case's document must be valid"
    assert schemas.errors(doc, inline=schema) == []
    node = doc
    for part in path:
        node = node[part]
    bad = _set(doc, path, float(node))
    assert not python.is_valid(bad), "jsonschema alone refuses the whole float"
    fast, plan = schemas._fast_inline(key)
    assert fast is not None and plan is not None and plan is not schemas._EVERYWHERE  # followed
    found = schemas.errors(bad, inline=schema)
    assert found, "the whole float must be reported"
    assert [p.message for p in found] == [e.message if e.validator not in ("type", "anyOf", "oneOf")
                                          else schemas._describe(e)
                                          for e in sorted((e for err in python.iter_errors(bad)
                                                           for e in schemas._in_branch(python, err)),
                                                          key=_relevance())][:len(found)]
    assert not schemas.is_valid(bad, inline=schema)


def _relevance():
    from jsonschema.exceptions import relevance

    return relevance


@pytest.mark.parametrize("schema, doc", [
    # A reference to a whole schema (one with "$schema") makes jsonschema continue with the stock draft 2020-12
    # validator, which counts 3.0 as an integer below it (jsonschema's evolve() picks the class by "$schema").
    # No schema of schemas/ refers to a whole file; the verdict is jsonschema's either way.
    ({"properties": {"p": {"$ref": "proposals.schema.json"}}}, {"p": {"next": 1.0, "proposals": []}}),
    ({"properties": {"next": {"$ref": "#"}, "n": INT}}, {"next": {"n": 3.0}}),
    ({"properties": {"n": INT}}, {"n": 3.0}),
])
def test_the_verdict_is_jsonschemas(schema, doc):
    python = schemas._inline(schemas.inline_key_of(schema))
    assert bool(schemas.errors(doc, inline=schema)) == (not python.is_valid(doc))
    assert schemas.is_valid(doc, inline=schema) == python.is_valid(doc)


@pytest.mark.parametrize("schema", [
    {"$defs": {"n": {"$dynamicAnchor": "n", "type": "integer"}}, "properties": {"a": {"$dynamicRef": "#n"}}},
    {"$defs": {"n": {"$anchor": "n", "type": "integer"}}, "properties": {"a": {"$ref": "#n"}}},
    # "#/$defs/n" is sub.json's n (an integer), not the root's (anything)
    {"$defs": {"n": {}}, "properties": {"a": {"$id": "sub.json", "$ref": "#/$defs/n", "$defs": {"n": INT}}}},
], ids=["dynamicRef", "anchor", "nested $id"])
def test_a_schema_the_plan_does_not_follow_is_searched_everywhere(schema):
    key = schemas.inline_key_of(schema)
    fast, plan = schemas._fast_inline(key)
    assert fast is None or plan is schemas._EVERYWHERE
    assert schemas.errors({"a": 3}, inline=schema) == []
    assert schemas.errors({"a": 3.0}, inline=schema)
    assert schemas.errors({"b": 3.0}, inline=schema) == []  # not an integer's place: jsonschema agrees


def test_no_integer_anywhere_means_nothing_to_search():
    schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "array"}}}
    assert schemas._fast_inline(schemas.inline_key_of(schema))[1] is None
    assert schemas.errors({"a": 3.0, "b": [1.0, {"c": 2.0}]}, inline=schema) == []


def test_an_unnamed_property_next_to_named_ones_keeps_its_own_plan():
    # "a" is named with no integer; any other key is an integer: a whole float under "a" is fine, under "b" not
    schema = {"properties": {"a": {"type": "number"}}, "additionalProperties": INT}
    assert schemas.errors({"a": 3.0, "b": 3}, inline=schema) == []
    assert [p.field for p in schemas.errors({"a": 3.0, "b": 3.0}, inline=schema)] == ["b"]


def test_copy_on_write_documents_are_read_without_being_copied():
    from validators import engine

    doc = {"next": 2, "proposals": [{"id": 1, "title": "t", "author": "Dana", "status": "pending",
                                     "submitted": "2026-01-01T00:00:00Z", "text": "x", "votes": {}}]}
    state = engine.State(docs={"proposals": doc}, rules={}, config={})
    tx = engine.Tx(state)
    edited = tx.edit("proposals")
    assert type(edited) is not dict and isinstance(edited, dict)
    _, plan = schemas._fast_for("proposals.schema.json")
    assert not schemas._whole_float_at(plan, edited)
    assert dict.__getitem__(edited, "proposals") is doc["proposals"]  # not adopted by the search
    edited["next"] = 2.0
    assert schemas._whole_float_at(plan, edited)
    assert [p.field for p in schemas.errors(edited, schema="proposals.schema.json")] == ["next"]


# ---------------------------------------------------------------- blank text


def test_the_shared_words_pattern_is_not_blank():
    common = json.loads((schemas.SCHEMA_DIR / "common.schema.json").read_text(encoding="utf-8"))
    assert common["$defs"]["words"]["pattern"] == schemas.NOT_BLANK


def test_every_schema_spelling_out_the_blank_pattern_spells_it_as_not_blank():
    """A schema that writes the not-blank pattern itself (one that cannot use ``$defs/words``, a name that may also
    be null) writes all of it: a copy of an older, shorter pattern would let invisible text through and be
    reported as a regex rather than as "must not be blank"."""
    def patterns(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "pattern" and isinstance(v, str):
                    yield v
                else:
                    yield from patterns(v)
        elif isinstance(node, list):
            for v in node:
                yield from patterns(v)

    found = {}
    for path in sorted(schemas.SCHEMA_DIR.glob("*.json")):
        for v in patterns(json.loads(path.read_text(encoding="utf-8"))):
            if v.startswith("[^\\s\\x1c"):
                found.setdefault(v, []).append(path.name)
    assert set(found) == {schemas.NOT_BLANK}, found


# every character Python's str.strip removes, one at a time and together
BLANKS = [" ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u2028", "\u3000",
          "".join(chr(i) for i in range(0x110000) if chr(i).isspace())]


@pytest.mark.parametrize("blank", BLANKS)
def test_a_blank_text_is_refused_by_both_validators_saying_so(blank):
    doc = {"next": 2, "proposals": [{"id": 1, "title": blank * 2, "author": "Dana",
                                      "submitted": "2026-11-02T10:00:00Z", "status": "pending", "votes": {}}]}
    assert not blank.strip()
    assert not schemas.is_valid(doc, schema="proposals.schema.json")
    problems = schemas.errors(doc, schema="proposals.schema.json")
    assert [(p.field, p.message) for p in problems] == [("proposals[0].title", "must not be blank: it says nothing")]
    for inline in ({"type": "string", "pattern": schemas.NOT_BLANK},
                   schemas.not_blank({"type": "string"}, empty_ok=True)):
        assert not schemas.is_valid(blank, inline=inline)
        assert [p.message for p in schemas.errors(blank, inline=inline)][0].startswith("must not be blank")


# characters nothing shows (Unicode's Default_Ignorable_Code_Point), alone, together and among blanks
INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200b\u200c\u200d\u2060\ufeff", " \u200b\t\n",
              "\u00ad", "\u034f", "\u061c", "\u115f\u1160", "\u180e", "\u200e\u200f", "\u202a\u202e", "\u2066\u2069",
              "\u3164", "\ufe0f", "\uffa0", "\U0001bca0", "\U0001d173", "\U000e0001\U000e0041\U000e007f", "\U000e0100"]


@pytest.mark.parametrize("invisible", INVISIBLES)
def test_a_text_of_invisible_characters_is_blank_to_both_validators_and_in_python(invisible):
    """A title of zero-width spaces and joiners (or other characters nothing shows) says nothing, as one of spaces
    does: both validators refuse it, naming the field, and ``is_blank`` (for checks made in Python) agrees."""
    doc = {"next": 2, "proposals": [{"id": 1, "title": invisible, "author": "Dana",
                                      "submitted": "2026-11-02T10:00:00Z", "status": "pending", "votes": {}}]}
    assert not schemas.is_valid(doc, schema="proposals.schema.json")
    problems = schemas.errors(doc, schema="proposals.schema.json")
    assert [(p.field, p.message) for p in problems] == [("proposals[0].title", "must not be blank: it says nothing")]
    for inline in (schemas.not_blank({"type": "string"}), schemas.not_blank({"type": "string"}, empty_ok=True)):
        assert not schemas.is_valid(invisible, inline=inline)
        assert schemas.errors(invisible, inline=inline)[0].message.startswith("must not be blank")
    assert schemas.is_blank(invisible)


@pytest.mark.parametrize("text", ["x", " x ", "Proposal: bananas", "\n\nA\n", "x\u200b", "\u200b\u200dA\u2060",
                                  "\ufeffTitle", "\u0600", "\U0001f600", "\u2800", "e\u0301"])
def test_a_text_with_something_trimming_keeps_is_not_blank(text):
    """Something visible among blanks and invisible characters says something (an emoji, a prepended Arabic
    number sign, a braille cell are drawn; only Default_Ignorable_Code_Point characters are not)."""
    assert schemas.is_valid(text, inline=schemas.not_blank({"type": "string"}))
    assert schemas.is_valid(text, inline=schemas.not_blank({"type": "string"}, empty_ok=True))
    assert not schemas.is_blank(text)


# every character of planes 0 (but the surrogates), 1 and 14, where all the blank and invisible ones are
_PLANES_WITH_BLANKS = [chr(i) for i in [*range(0xD800), *range(0xE000, 0x20000), *range(0xE0000, 0xE1100)]]


def test_both_validators_and_is_blank_agree_on_every_character():
    """jsonschema-rs (Rust's regex), jsonschema (Python's re) and ``is_blank`` read NOT_BLANK alike, the characters
    past U+FFFF included (planes 0, 1 and 14 hold every blank and invisible one)."""
    rs = pytest.importorskip("jsonschema_rs").validator_for({"type": "string", "pattern": schemas.NOT_BLANK})
    pattern = re.compile(schemas.NOT_BLANK)
    chars = _PLANES_WITH_BLANKS
    assert [c for c in chars if rs.is_valid(c) != (pattern.search(c) is not None)] == []
    assert [c for c in chars if schemas.is_blank(c) != (pattern.search(c) is None)] == []


def test_the_invisible_characters_are_unicodes_default_ignorable_code_points():
    """INVISIBLE is Unicode's Default_Ignorable_Code_Point, checked against another copy of the property's table
    (the one backrefs, which the wiki's Markdown extensions bring, carries)."""
    binary = pytest.importorskip("backrefs.uniprops.unidata.binary")
    theirs = re.compile("[" + binary.unicode_binary["defaultignorablecodepoint"] + "]")
    ours = re.compile("[" + schemas.INVISIBLE + "]")
    assert [hex(ord(c)) for c in _PLANES_WITH_BLANKS if bool(theirs.match(c)) != bool(ours.match(c))] == []


def test_an_empty_text_is_none_where_empty_is_allowed():
    assert schemas.is_valid("", inline=schemas.not_blank({"type": "string"}, empty_ok=True))
    assert schemas.errors("", inline=schemas.not_blank({"type": "string", "minLength": 1}))[0].message == (
        "must not be blank: it says nothing")


def _calendar_ok(text: str) -> bool:
    import datetime as dt

    try:
        t = dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ") if "T" in text else dt.datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        return False
    return t.year >= 1000 and len(text) in (10, 20)


DAYS = ["2026-11-22", "2026-02-28", "2026-02-29", "2028-02-29", "2000-02-29", "2100-02-29", "2400-02-29",
        "1900-02-29", "2026-04-30", "2026-04-31", "2026-12-31", "2026-13-01", "2026-00-10", "2026-01-00",
        "0999-01-01", "1000-01-01", "9999-12-31", "2026-1-01", "2026-01-32"]
CLOCKS = ["T00:00:00Z", "T23:59:59Z", "T24:00:00Z", "T12:60:00Z", "T12:00:60Z", "T12:00:00", "T12:00:00+00:00"]


@pytest.mark.parametrize("day", DAYS)
def test_time_and_day_patterns_are_the_calendar(day):
    # a date that only looks like one (2026-02-30) is bad input at its line, under both validators, not an error
    # deep in the rule that reads it; 29 February only in leap years (2000 and 2400, not 1900 or 2100)
    rs = pytest.importorskip("jsonschema_rs")
    for text, pattern in [(day, schemas.DAY_PATTERN)] + [(day + c, schemas.TIME_PATTERN) for c in CLOCKS]:
        want = _calendar_ok(text)
        inline = {"type": "string", "pattern": pattern}
        assert schemas.is_valid(text, inline=inline) is want, text
        assert rs.validator_for(inline).is_valid(text) is want, text


def test_every_schema_spells_the_time_and_day_patterns_alike():
    common = json.loads((schemas.SCHEMA_DIR / "common.schema.json").read_text(encoding="utf-8"))
    assert common["$defs"]["time"]["pattern"] == schemas.TIME_PATTERN
    found = {}
    for path in sorted(schemas.SCHEMA_DIR.glob("*.json")):
        for m in re.finditer(r'"pattern":\s*("(?:[^"\\]|\\.)*")', path.read_text(encoding="utf-8")):
            p = json.loads(m.group(1))
            if "-02-" in p or "{4}-" in p:
                found.setdefault(p, []).append(path.name)
    assert set(found) <= {schemas.TIME_PATTERN, schemas.DAY_PATTERN}, found
    assert schemas.DAY_PATTERN in found


def test_an_impossible_day_is_reported_at_its_field():
    doc = {"next": 2, "proposals": [{"id": 1, "title": "Fix", "author": "Dana",
                                      "submitted": "2026-02-30T10:00:00Z", "status": "pending", "votes": {}}]}
    problems = schemas.errors(doc, schema="proposals.schema.json")
    said = '"2026-02-30T10:00:00Z" is not a UTC time of the calendar, like 2026-11-22T10:15:00Z'
    assert [(p.field, p.message) for p in problems] == [("proposals[0].submitted", said)]


def test_a_missing_field_of_few_values_names_them():
    # cycle12.propose's change without its kind was told only that 'kind' is required; the values are few
    inline = {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["textual", "location-card"]}}}
    assert [p.message for p in schemas.errors({}, inline=inline)] == [
        "'kind' is a required property: one of 'textual', 'location-card'"]
    many = {"type": "object", "required": ["n"], "properties": {"n": {"enum": list(range(13))}}}
    assert [p.message for p in schemas.errors({}, inline=many)] == ["'n' is a required property"]


@pytest.mark.parametrize("value, kinds, said", [
    ("three", "integer", '"three" is not a whole number'),
    ("1.5", "number", '"1.5" is not a number'),
    (3, "string", "3 is not text"),
    ("maybe", "boolean", '"maybe" is not true or false'),
    ({"a": 1}, "array", '{"a": 1} is not a list'),
    ([1, 2], "object", "[1, 2] is not a mapping (key: value pairs)"),
    (3, "null", "3 is not nothing (null)"),
    ([1], ["integer", "null"], "[1] is not a whole number or nothing (null)"),
    ([1], ["string", "integer", "null"], "[1] is not text, a whole number or nothing (null)"),
    (True, "integer", "true is not a whole number"),  # a YAML yes is no count
])
def test_a_value_of_the_wrong_kind_is_told_in_words(value, kinds, said):
    found = schemas.errors(value, inline={"type": kinds})
    assert [(p.message, p.keyword) for p in found] == [(said, "type")]
    assert not schemas.errors({"integer": 3, "number": 1.5, "string": "x", "boolean": True, "array": [],
                               "object": {}, "null": None}[kinds if isinstance(kinds, str) else "null"],
                              inline={"type": kinds})


def test_a_roster_stat_of_the_wrong_kind_is_worded_as_a_schema_type_is():
    # one wording for both: a stat's declared type (its 'list' too) and a JSON Schema type
    from validators.problems import wrong_kind

    assert wrong_kind("'x'", "integer") == "'x' is not a whole number"
    assert wrong_kind("3", "list") == wrong_kind("3", "array") == "3 is not a list"
    assert wrong_kind("3.5", ["string", "integer"]) == "3.5 is not text or a whole number"
    assert wrong_kind("3", "colour") == "3 is not colour"  # a kind it has no words for is named as it is


@pytest.mark.parametrize("value, said", [
    ("MAYBE", "'MAYBE' is not one of 'FOR', 'AGAINST', null, 3"),
    ("for", "'for' is not one of 'FOR', 'AGAINST', null, 3; did you mean 'FOR'?"),  # the rules' case
    (True, "true is not one of 'FOR', 'AGAINST', null, 3"),
    ([1], "[1] is not one of 'FOR', 'AGAINST', null, 3"),
])
def test_a_value_not_among_the_choices_is_told_the_choices_as_words(value, said):
    # the choices listed as the file writes them, not as a Python list ("['FOR', 'AGAINST', None, 3]")
    found = schemas.errors(value, inline={"enum": ["FOR", "AGAINST", None, 3]})
    assert [(p.message, p.keyword) for p in found] == [(said, "enum")]


def test_a_vote_parameter_tells_another_games_vote_its_own_word():
    ifmud = schemas.vote_words(["aye", "nay"], yes="aye", no="nay")
    cycle12 = schemas.vote_words(["for", "against", "none"], yes="for", no="against")
    assert [p.message for p in schemas.errors("yes", inline=ifmud)] == [
        "'yes' is not one of 'aye', 'nay'; did you mean 'aye'? (aye is for, nay is against)"]
    assert [p.message for p in schemas.errors("AGAINST", inline=ifmud)] == [
        "'AGAINST' is not one of 'aye', 'nay'; did you mean 'nay'? (aye is for, nay is against)"]
    assert [p.message for p in schemas.errors("aye", inline=cycle12)] == [
        "'aye' is not one of 'for', 'against', 'none'; did you mean 'for'?"]
    assert schemas.errors("aye", inline=ifmud) == [] and schemas.errors("none", inline=cycle12) == []
    # an enum that does not say which of its words is a vote for gets no such guess
    assert [p.message for p in schemas.errors("FOR", inline={"enum": ["aye", "nay"]})] == [
        "'FOR' is not one of 'aye', 'nay'"]


def test_one_mistake_two_schemas_find_is_said_once():
    # a stored title is text by both schemas its allOf joins (common.schema.json#/$defs/title): a list there was
    # reported twice, word for word
    text = ("next: 2\nproposals:\n  - id: 1\n    title: [More, Fun]\n    author: Dana\n    status: pending\n"
            "    submitted: 2026-01-01T00:00:00Z\n    votes: {}\n")
    found = schemas.errors(yamlio.load(text, "proposals.yaml"), schema="proposals.schema.json", text=text)
    assert [(p.field, p.line, p.message) for p in found] == [("proposals[0].title", 4, '["More", "Fun"] is not text')]
    # different mistakes at one place are each said, and the count of those left out counts each once
    many = {"type": "array", "items": {"allOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}}
    found = schemas.errors([1] * (schemas.MAX_ERRORS + 3), inline=many)
    assert len(found) == schemas.MAX_ERRORS + 1 and found[-1].message == "3 other errors"
    assert len({p.field for p in found[:-1]}) == schemas.MAX_ERRORS


def test_a_value_one_alternative_of_whose_type_fails_is_told_at_its_item():
    """Seed 005 (Settlement), 2.11 Outsiders: the Leader may create several Rats Indoors, ``at`` a list of
    locations. A bad location in the list is named by its place in it, with what a location is; a value of a
    type no alternative takes says which types they take."""
    from validators.games.settlement.outsiders import CREATE
    from validators.judge import only_param_problems

    def said(at):
        return [(p.field, p.message) for p in only_param_problems(CREATE, {"params": {"type": "Rat", "at": at}})]

    assert said(["3a", "bad"]) == [("params.at[1]", "'bad' is not a location, like 13a")]
    assert said(["3a", 7]) == [("params.at[1]", "7 is not text")]
    assert said("bad") == [("params.at", "'bad' is not a location, like 13a")]
    assert said([]) == [("params.at", "[] should be non-empty")]
    assert said(5) == [("params.at", "5 is not text or a list")]
    assert said(["3a", "4b"]) == []


def test_alternatives_that_take_the_value_s_type_are_not_said_to_refuse_its_type():
    """Two alternatives both take a mapping and each fails it deeper in: the value is of a type they take, so the
    message must not say it is no mapping (only a value no alternative's type takes is told which types they take)."""
    both = {"type": "object", "properties": {"v": {"oneOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"a": {"type": "integer", "minimum": 5}}, "required": ["a"]}]}}}
    said = [p.message for p in schemas.errors({"v": {"a": 1}}, inline=both)]
    assert said and not any("is not a mapping" in m for m in said), said
    assert [p.message for p in schemas.errors({"v": 5}, inline=both)] == ["5 is not a mapping (key: value pairs)"]


# ---------------------------------------------------------------- a pattern's refusal, in words


def _bare_patterns(node, where):
    """Where a regular expression stands with no words to tell its refusal by (no ``description``): the blank,
    time and day patterns have their own words (``schemas._describe``); ``x-form`` says the form where the
    description says what the field means."""
    own_words = {schemas.NOT_BLANK, schemas.TIME_PATTERN, schemas.DAY_PATTERN}
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str) and node["pattern"] not in own_words \
                and not any(isinstance(node.get(k), str) for k in ("description", schemas.FORM)):
            yield where, node["pattern"]
        for k, v in node.items():
            yield from _bare_patterns(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _bare_patterns(v, f"{where}/{i}")


def test_every_pattern_of_a_schema_or_a_game_is_told_in_words():
    """Every regular expression a file, an option or an action's parameter is checked by says in words what it
    takes: a value it refuses is told that form ("'x' is not a medal's id: ..."), never "is not of the form this
    field takes (the pattern ^[a-z][a-z0-9-]{0,39}$)", as a medal's id, a map's letters, an Outsider's type, a
    good's or a stat's name, a ledger's hashes, ifMUD's letter and Quazie's flavour were."""
    from validators.modules import all_modules

    bare = []
    for path in sorted(schemas.SCHEMA_DIR.glob("*.json")):
        bare += _bare_patterns(json.loads(path.read_text(encoding="utf-8")), path.name)
    for module in all_modules().values():
        for action in module.actions:
            bare += _bare_patterns(action.params, f"{action.name} params")
        bare += _bare_patterns(module.options_schema, f"options.{module.name}")
    assert bare == []


@pytest.mark.parametrize("schema, doc, field, said", [
    ("cycle12_medals.schema.json",
     {"medals": [{"id": "Gold Star", "name": "Gold", "symbol": "G", "condition": "c", "quantity": 1}]},
     "medals[0].id", "'Gold Star' is not a medal's id: 1 to 40 lower-case letters, digits and dashes, starting with a "
                     "letter, like participation"),
    ("ledger.schema.json", {"clock": "2026-11-02T10:00:00Z", "actions": 0, "head": "XYZ"},
     "head", "'XYZ' is not a hash chain's head: up to 64 digits and letters a-f"),
    ("settlement_stockpile.schema.json", {"items": {"wood": 5}},
     "items.wood", "'wood' is not a good's name: 1 to 40 letters and spaces, starting with a capital letter, like "
                   "Wood"),
])
def test_a_pattern_of_a_file_refuses_in_words(schema, doc, field, said):
    found = [(p.field, p.message) for p in schemas.errors(doc, schema=schema)]
    assert (field, said) in found, found


@pytest.mark.parametrize("module, action, params, field, said", [
    ("ifmud", "ifmud.spend-damage", {"room": "Lobby", "position": 1, "letter": "ab"},
     "params.letter", "'ab' is not one letter, A to Z in either case"),
    ("quazie", "quazie.movement", {"movement": "Intricacy", "flavour": "minty"},
     "params.flavour", "'minty' is not a flavour's name: 1 to 40 letters, spaces, apostrophes and dashes, starting "
                       "with a capital letter, like Plain"),
    ("blognomic", "core.ascend", {"theme": "Pirates", "keywords": {"Player": "Pirate "}},
     "params.keywords.Player", "'Pirate ' is not a word (or words) with no blank at either end"),
])
def test_a_pattern_of_a_parameter_refuses_in_words(module, action, params, field, said):
    from validators.judge import only_param_problems
    from validators.modules import all_modules

    act = next(a for a in all_modules()[module].actions if a.name == action)
    found = [(p.field, p.message) for p in only_param_problems(act, {"params": params})]
    assert found == [(field, said)]


@pytest.mark.parametrize("schema, doc, field, said", [
    ("rule.schema.json", {"id": "fair-play", "number": "3", "title": "Fair Play", "section": "core",
                          "status": "repealed", "carried_by": "Fair Play 2"},
     "carried_by", "'Fair Play 2' is not a rule's id: 1 to 80 lower-case letters, digits and dashes, starting with a "
                   "letter or digit, like fair-play"),
    ("checkpoint.schema.json", {"through": "core.vote.yaml", "actions": 3, "start": {"actions": 0, "head": ""},
                                "files": "0" * 64, "at": "2026-11-02T10:00:00Z", "by": "Alice", "why": "w"},
     "through", "'core.vote.yaml' is not an action file's name: TIME--ACTOR--ACTION.yaml, like "
                "20261103T080000Z--Bruno--core.enact.yaml"),
    ("checkpoint.schema.json", {"through": "20261103T080000Z--Bruno--core.enact.yaml", "actions": 3,
                                "start": {"actions": 0, "head": ""}, "files": "abc", "at": "2026-11-02T10:00:00Z",
                                "by": "Alice", "why": "w"},
     "files", "'abc' is not a SHA-256 digest: 64 digits and letters a-f"),
])
def test_a_pattern_whose_description_says_what_the_field_means_is_told_its_form(schema, doc, field, said):
    """A description that says what a field means ("The later rule that enacted this repealed rule's very text
    again") reads wrong as a refusal ("'X' is not the later rule that enacted ..."): the form is said by the
    schema's ``x-form``, which validation ignores, and the description stays what the field means."""
    found = [(p.field, p.message) for p in schemas.errors(doc, schema=schema)]
    assert (field, said) in found, found
