"""JSON Schema (draft 2020-12) checks with positions, most relevant error first.

Two validators, one verdict. jsonschema-rs (Rust) answers "valid?" about a
hundred times faster than the jsonschema package, and nearly every file and
action a check reads is valid; so it is asked first. Only when it finds a
problem (or cannot judge: a value of a type JSON lacks, a schema it cannot
compile, a schema using ``format``) does jsonschema list every error with its
path, ordered by relevance, worded as before. So the messages and their order
come from one place, whichever package is installed.

jsonschema-rs counts 3.0 as an integer and our "integer" does not, so a
document it passes is also searched for whole floats, but only where the
schema may ask for an integer (``_integer_plan``): a log's free-form
``params`` and ``outcome`` are never walked for it, its ``dice`` are.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - the slower validator alone gives the same answers
    jsonschema_rs = None

from .problems import BAD_INPUT, Problem, did_you_mean, format_path, shown_value, wrong_kind
from .yamlio import locate

if TYPE_CHECKING:
    import jsonschema
    from referencing import Registry

# jsonschema (and referencing) are imported when first needed: only a file with an error needs them,
# and importing them costs a command about a tenth of a second.

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
BASE = "file:///schemas/"
MAX_ERRORS = 20

# Characters nothing shows: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which a renderer
# draws as nothing: the zero-width space, joiners and word joiner (U+200B-U+200D, U+2060), the byte order mark
# (U+FEFF), soft hyphen, direction marks and isolates, variation selectors, Hangul fillers, tag characters...
# Held as the characters themselves (Python escapes below; common.schema.json writes JSON \u escapes), the one form
# that Python's re, jsonschema-rs and an editor's JavaScript (with its "u" flag) all read alike past U+FFFF.
INVISIBLE = ("\u00ad\u034f\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
             "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
             "\U000e0000-\U000e0fff")
# A text that must say something (a title, a statement, a name): some character that trimming (Python's
# ``str.strip``) keeps and that is not invisible (a text of zero-width characters says nothing either). The
# blanks are spelled out so that jsonschema-rs, whose ``\s`` leaves out U+001C-U+001F and U+0085, never passes a
# value jsonschema refuses. ``common.schema.json#/$defs/words`` holds the same pattern; an error for it is
# worded "must not be blank", not as the regex. One search for one character class: as cheap as before.
NOT_BLANK = r"[^\s\x1c-\x1f\x85" + INVISIBLE + "]"
_SAYS_SOMETHING = re.compile(NOT_BLANK)
# An optional text that "" leaves out (a post's text, which an empty one removes), else one that says something.
# Not a pattern "^$|...": Python's "$" also matches before a final line break, so "\n" would pass it.
EMPTY_OR_NOT_BLANK = [{"maxLength": 0}, {"pattern": NOT_BLANK}]

# A day of the calendar, 1000-9999 (no game is set earlier): each month's own days, 29 February in leap years
# (every fourth year, but not a century unless it divides by 400). The shared ``time`` of common.schema.json and
# the day patterns of the schemas spell it; a date that only looks like one (2026-02-30) is bad input at its
# line, not an error deep in a rule that reads it.
DAY = ("(?:[1-9][0-9]{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
       "|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[1-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[13579][26])00)"
       "-02-29)")
DAY_PATTERN = f"^{DAY}$"
TIME_PATTERN = f"^{DAY}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$"


# A vote parameter's words for a vote in favour and one against, kept in its schema under VOTES ("x-" marks a
# keyword that validation ignores): how the other games and plain speech say the same, casefolded.
VOTES = "x-votes"
SAID = {"for": ("for", "aye", "yes", "y"), "against": ("against", "nay", "no", "n")}

# A pattern's form in words, where the schema's ``description`` says what the field means rather than what form it
# takes (a repealed rule's ``carried_by``: "the later rule that enacted ...", whose form is a rule's id): a refusal
# says it ("'X' is not a rule's id: ..."), and validation ignores it as it does ``x-votes``.
FORM = "x-form"


def vote_words(words: Iterable[str], *, yes: str, no: str, description: str | None = None,
               elsewhere: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A vote parameter's schema: one of ``words``, ``yes`` being the game's vote in favour and ``no`` its vote
    against. A vote given in another game's words (FOR where ifMUD asks aye or nay, nay where BlogNomic asks FOR
    or AGAINST) is refused with the word meant. ``elsewhere``: words of the game's other votes that this one does
    not take (VETO on a Call for Judgment), each with why, said with the refusal."""
    schema: dict[str, Any] = {"enum": list(words), VOTES: {"for": yes, "against": no}}
    if elsewhere:
        schema[VOTES]["elsewhere"] = dict(elsewhere)
    if description:
        schema["description"] = description
    return schema


def is_blank(text: str) -> bool:
    """Whether ``text`` says nothing by ``NOT_BLANK``'s measure (only blanks and invisible characters, or empty):
    the same answer as the schema pattern, for checks made in Python."""
    return _SAYS_SOMETHING.search(text) is None


def not_blank(schema: Mapping[str, Any], *, empty_ok: bool = False) -> dict[str, Any]:
    """``schema`` (a string's) refusing a value of only blanks (and, unless ``empty_ok``, an empty one)."""
    out = {k: v for k, v in schema.items() if not (k == "minLength" and v == 1)}
    if empty_ok:
        out["anyOf"] = EMPTY_OR_NOT_BLANK
    else:
        out["pattern"] = NOT_BLANK
    return out


@lru_cache(maxsize=1024)
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """A schema's ``pattern`` as JSON Schema means it (ECMA-262): its ``$`` matches at the very end of the text
    only, where Python's also matches before a final line break, which let ``"Dana\n"`` pass a name's
    ``^...$`` (jsonschema-rs refused it, then jsonschema found nothing wrong, and its verdict counts)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            if pattern.startswith("]", i + 1) or pattern.startswith("^]", i + 1):  # a "]" first is a character
                j = pattern.index("]", i + 1) + 1
                out.append(pattern[i:j])
                i = j
                continue
        elif c == "]" and in_class:
            in_class = False
        out.append(r"\Z" if c == "$" and not in_class else c)
        i += 1
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    """JSON Schema counts 3.0 as an integer; a game value never is one (a float where an integer belongs is bad
    input). A ``pattern`` is matched as JSON Schema means it (``ecma_pattern``)."""
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)),
    )


@lru_cache(maxsize=1)
def _registry() -> Registry:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((BASE + path.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator_for(name: str) -> jsonschema.protocols.Validator:
    """A reusable validator for ``schemas/<name>``."""
    path = SCHEMA_DIR / name
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema = {**schema, "$id": BASE + name}
    cls = _validator_class()
    cls.check_schema(schema)
    return cls(schema, registry=_registry(), format_checker=cls.FORMAT_CHECKER)


@lru_cache(maxsize=512)
def _inline(schema_json: str) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_json)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    schema.setdefault("$id", BASE + "inline.schema.json")  # so "common.schema.json#/..." resolves
    cls = _validator_class()
    return cls(schema, registry=_registry(), format_checker=cls.FORMAT_CHECKER)


# ---------------------------------------------------------------- the fast path


def _uses_format(node: Any) -> bool:
    if isinstance(node, dict):
        return "format" in node and isinstance(node["format"], str) or any(_uses_format(v) for v in node.values())
    if isinstance(node, list):
        return any(_uses_format(v) for v in node)
    return False


@lru_cache(maxsize=1)
def _schema_files() -> dict[str, Any]:
    """Every file of schemas/ by its URI, read once (shared by jsonschema-rs and the integer plans: not changed)."""
    return {BASE + path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(SCHEMA_DIR.glob("*.schema.json"))}


@lru_cache(maxsize=1)
def _rs_registry() -> Any:
    """Every schema file for jsonschema-rs, or None where it cannot stand in for jsonschema."""
    if jsonschema_rs is None:
        return None
    resources = []
    for uri, contents in _schema_files().items():
        if _uses_format(contents):
            # jsonschema checks formats only as far as optional packages allow; do not guess which
            return None
        resources.append((uri, contents))
    try:
        return jsonschema_rs.Registry(resources)
    except Exception:  # pragma: no cover
        return None


def _rs_compile(schema: dict[str, Any]) -> Any:
    registry = _rs_registry()
    if registry is None or _uses_format(schema):
        return None
    try:
        return jsonschema_rs.Draft202012Validator(schema, registry=registry, validate_formats=False)
    except Exception:  # a pattern or reference it cannot compile: jsonschema judges alone
        return None


@lru_cache(maxsize=None)
def _rs_for(name: str) -> Any:
    schema = _schema_files().get(BASE + name)
    if schema is None:
        schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))  # FileNotFoundError, as before
    return _rs_compile({**schema, "$id": BASE + name})


@lru_cache(maxsize=512)
def _rs_inline(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    schema.setdefault("$id", BASE + "inline.schema.json")
    return _rs_compile(schema)


def _surely_valid(fast: Any, plan: Any, data: Any) -> bool:
    """True when jsonschema-rs finds ``data`` valid; False means "ask jsonschema"."""
    if fast is None:
        return False
    try:
        if not fast.is_valid(data):
            return False
    except Exception:  # a value JSON cannot hold (a date, a set ...): let jsonschema say what it thinks
        return False
    # jsonschema-rs takes 3.0 for an integer; our "integer" does not
    if plan is None:
        return True
    if plan is _EVERYWHERE:
        return not _whole_float(data)
    return not _whole_float_at(plan, data)


def _whole_float(data: Any) -> bool:
    """Whether a float with a whole value (3.0) is anywhere in ``data``."""
    stack = [data]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        t = type(node)
        if t is str or t is int or t is bool or node is None:
            continue
        if t is dict:
            push(node.values())
        elif t is list:
            push(node)
        elif isinstance(node, float):
            if node.is_integer():
                return True
        elif isinstance(node, dict):
            push(dict.values(node))  # the stored values: reading a copy-on-write map must not copy it
        elif isinstance(node, list):
            push(list.__iter__(node))
    return False


# ---------------------------------------------------------------- where a schema can ask "integer?"
#
# A whole float (3.0) matters only where some subschema with ``"type": "integer"`` may be applied
# to it: everywhere else jsonschema-rs and jsonschema give the same answer for it. So each schema
# is read once into a plan of those places (a property's value, any item of an array ...), and a
# document jsonschema-rs passes is searched only there: an action's free-form ``params`` and
# ``outcome`` (most of a log) are not walked at all, its ``dice`` are. The plan over-approximates:
# every applicator (``$ref``, ``allOf``/``anyOf``/``oneOf``, ``not``, ``if``/``then``/``else``,
# ``dependentSchemas``, ``patternProperties`` (taken to match every key), ``additionalProperties``,
# ``unevaluated*``, ``items``/``prefixItems``/``contains``) is followed, whatever its condition;
# a schema it cannot follow (``$dynamicRef``, an anchor, an ``$id`` inside a schema, a reference it
# cannot resolve) makes the whole document searched, as before.


class _Plan:
    """The places under one instance location where an integer may be asked for."""

    __slots__ = ("check", "items", "live", "other", "props")

    def __init__(self) -> None:
        self.check = False  # a subschema here has type integer: a whole float here matters
        self.props: dict[Any, _Plan | None] = {}  # named properties' plans (None: nothing to look for)
        self.live: tuple[tuple[Any, _Plan], ...] = ()  # the named properties worth looking into
        self.other: _Plan | None = None  # the plan of any other property
        self.items: _Plan | None = None  # the plan of every array item


_EVERYWHERE = object()  # the plan of a schema not followed: look at every value
_MISSING = object()
_MAX_PLANS = 20_000


class _Unfollowed(Exception):
    pass


def _asks_integer(t: Any) -> bool:
    return t == "integer" or (isinstance(t, list) and "integer" in t)


@lru_cache(maxsize=1024)
def _split_ref(base: str, ref: str) -> tuple[str, tuple[str, ...] | None]:
    """A reference's resource URI and JSON Pointer tokens (None: its fragment is an anchor)."""
    from urllib.parse import unquote, urljoin

    url, _, fragment = urljoin(base, ref).partition("#")
    fragment = unquote(fragment)
    if fragment and not fragment.startswith("/"):
        return url, None
    return url, tuple(part.replace("~1", "/").replace("~0", "~") for part in fragment.split("/")[1:])


class _Planner:
    def __init__(self, resources: Mapping[str, Any]):
        self.resources = resources
        self.roots = {id(r) for r in resources.values()}
        self.memo: dict[frozenset, _Plan] = {}

    def resolve(self, ref: Any, base: str) -> tuple[Any, str]:
        if not isinstance(ref, str):
            raise _Unfollowed
        url, parts = _split_ref(base, ref)
        target = self.resources.get(url)
        if target is None or parts is None:
            raise _Unfollowed  # not a schema file, or an anchor
        for part in parts:
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise _Unfollowed
        return target, url

    def group(self, schemas: Iterable[tuple[Any, str]]) -> list[tuple[dict, str]]:
        """The subschemas applied to the same instance as ``schemas``: theirs, and all they apply in place."""
        out: list[tuple[dict, str]] = []
        seen: set[int] = set()
        stack = list(schemas)
        while stack:
            s, base = stack.pop()
            if s is True or s is False:
                continue
            if not isinstance(s, dict):
                raise _Unfollowed
            if id(s) in seen:
                continue
            seen.add(id(s))
            out.append((s, base))
            if "$id" in s and (id(s) not in self.roots or s["$id"] != base):
                raise _Unfollowed  # a new base for the references below it: not followed
            if "$dynamicRef" in s or "$recursiveRef" in s:
                raise _Unfollowed
            if "$ref" in s:
                stack.append(self.resolve(s["$ref"], base))
            for k in ("not", "if", "then", "else"):
                if k in s:
                    stack.append((s[k], base))
            for k in ("allOf", "anyOf", "oneOf"):
                if k in s:
                    if not isinstance(s[k], list):
                        raise _Unfollowed
                    stack.extend((x, base) for x in s[k])
            for k in ("dependentSchemas", "dependencies"):
                if k in s:
                    if not isinstance(s[k], dict):
                        raise _Unfollowed
                    stack.extend((x, base) for x in s[k].values() if not isinstance(x, list))
        return out

    def plan(self, schemas: Iterable[tuple[Any, str]]) -> _Plan:
        group = self.group(schemas)
        key = frozenset(id(s) for s, _ in group)
        plan = self.memo.get(key)
        if plan is not None:
            return plan
        if len(self.memo) > _MAX_PLANS:
            raise _Unfollowed
        plan = self.memo[key] = _Plan()
        plan.check = any(_asks_integer(s.get("type")) for s, _ in group)

        def sub(s: dict, k: str, kind: type) -> Any:
            v = s.get(k, kind())
            if not isinstance(v, kind):
                raise _Unfollowed
            return v

        every_key = []  # applied to every property (patternProperties as if every pattern matched)
        names: dict[Any, None] = {}
        for s, b in group:
            every_key += [(v, b) for v in sub(s, "patternProperties", dict).values()]
            if "unevaluatedProperties" in s:
                every_key.append((s["unevaluatedProperties"], b))
            names.update(dict.fromkeys(sub(s, "properties", dict)))
        for name in names:
            schemas_here = list(every_key)
            for s, b in group:
                props = s.get("properties", {})
                if name in props:
                    schemas_here.append((props[name], b))
                elif "additionalProperties" in s:
                    schemas_here.append((s["additionalProperties"], b))
            plan.props[name] = self.plan(schemas_here)
        plan.other = self.plan(every_key + [(s["additionalProperties"], b) for s, b in group
                                            if "additionalProperties" in s])
        items = []
        for s, b in group:
            for k in ("prefixItems", "items", "additionalItems", "contains", "unevaluatedItems"):
                if k in s:
                    v = s[k]
                    items += [(x, b) for x in v] if isinstance(v, list) else [(v, b)]
        plan.items = self.plan(items)
        return plan

    def prune(self) -> set[int]:
        """Forget the places under which no integer is asked for; the ids of the plans that remain."""
        plans = list(self.memo.values())
        live = {id(p) for p in plans if p.check}
        grew = True
        while grew:
            grew = False
            for p in plans:
                if id(p) not in live and (id(p.other) in live or id(p.items) in live
                                          or any(id(c) in live for c in p.props.values())):
                    live.add(id(p))
                    grew = True
        for p in plans:
            p.props = {k: (c if id(c) in live else None) for k, c in p.props.items()}
            p.live = tuple((k, c) for k, c in p.props.items() if c is not None)
            p.other = p.other if id(p.other) in live else None
            p.items = p.items if id(p.items) in live else None
        return live


def _integer_plan(schema: Mapping[str, Any], base: str) -> Any:
    """Where a whole float in a document valid for jsonschema-rs could be invalid for us.

    None: nowhere (there is nothing to look for); ``_EVERYWHERE``: the schema was not followed.
    """
    resources = {**_schema_files(), base: schema}
    planner = _Planner(resources)
    try:
        root = planner.plan([(schema, base)])
    except (_Unfollowed, RecursionError):
        return _EVERYWHERE
    return root if id(root) in planner.prune() else None


def _whole_float_at(plan: _Plan, data: Any) -> bool:
    """Whether a whole float stands where ``plan`` says an integer may be asked for."""
    dget, ditems = dict.get, dict.items
    if plan.other is None and type(data) is dict:  # the usual document: a few named fields to look into
        stack = []
        for k, c in plan.live:
            v = dget(data, k, _MISSING)
            if v is not _MISSING:
                stack.append((c, v))
        if not stack:
            return False
    else:
        stack = [(plan, data)]
    pop, push = stack.pop, stack.append
    while stack:
        p, node = pop()
        t = type(node)
        if t is dict or (t is not list and isinstance(node, dict)):
            if p.other is None:
                for k, c in p.live:
                    v = dget(node, k, _MISSING)
                    if v is not _MISSING:
                        push((c, v))
            else:
                props, other = p.props, p.other
                for k, v in ditems(node):
                    c = props.get(k, other)
                    if c is not None:
                        push((c, v))
        elif t is list or isinstance(node, list):
            c = p.items
            if c is not None:
                for v in list.__iter__(node):
                    push((c, v))
        elif p.check and isinstance(node, float) and node.is_integer():
            return True
    return False


@lru_cache(maxsize=None)
def _fast_for(name: str) -> tuple[Any, Any]:
    """jsonschema-rs's validator for ``schemas/<name>`` and where to look for whole floats."""
    fast = _rs_for(name)
    if fast is None:
        return None, _EVERYWHERE
    schema = _schema_files().get(BASE + name)
    return fast, _integer_plan(schema, BASE + name) if schema is not None else _EVERYWHERE


@lru_cache(maxsize=512)
def _fast_inline(schema_json: str) -> tuple[Any, Any]:
    fast = _rs_inline(schema_json)
    if fast is None:
        return None, _EVERYWHERE
    schema = json.loads(schema_json)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    schema.setdefault("$id", BASE + "inline.schema.json")
    if not isinstance(schema["$id"], str):
        return fast, _EVERYWHERE
    return fast, _integer_plan(schema, schema["$id"])


def asks_text(schema: Mapping[str, Any]) -> bool:
    """Whether a (parameter) schema takes a string, following its ``$ref`` into schemas/: what a value typed on
    the command line is meant as when YAML reads it as something else (``title=Proposal: Fun``, a mapping)."""
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 8:
        url, pointer = _split_ref(BASE, schema["$ref"])
        node: Any = _schema_files().get(url)
        for part in pointer or ():
            node = node.get(part) if isinstance(node, Mapping) else None
        schema, seen = node, seen + 1
    if not isinstance(schema, Mapping):
        return False
    t = schema.get("type")
    return t == "string" or (isinstance(t, list) and "string" in t)


def inline_key_of(inline: Mapping[str, Any] | None) -> str:
    """The text an inline schema's compiled validators are remembered by."""
    return json.dumps(inline, sort_keys=True)


def is_valid(data: Any, *, schema: str | None = None, inline: Mapping[str, Any] | None = None) -> bool:
    """Whether ``data`` is valid, as quickly as possible (the same verdict as ``errors``)."""
    if schema is not None:
        if _surely_valid(*_fast_for(schema), data):
            return True
        return validator_for(schema).is_valid(data)
    key = json.dumps(inline, sort_keys=True)
    if _surely_valid(*_fast_inline(key), data):
        return True
    return _inline(key).is_valid(data)


# ---------------------------------------------------------------- errors


def _types(schema: Mapping[str, Any]) -> list[Any]:
    """The types a schema's ``type`` names, one or a list."""
    t = schema["type"]
    return [t] if isinstance(t, str) else list(t)


def _in_branch(validator: Any, error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """A ``oneOf`` or ``anyOf`` none of whose alternatives fits, when only one of them takes a value of the
    instance's type (a location, or a list of locations: a list is given): that alternative's own errors, each at
    its own path (``at.1: 'bad' is not a location ...``), rather than "is not valid under any of the given schemas"
    about the whole value."""
    if error.validator not in ("oneOf", "anyOf") or not error.context or not isinstance(error.validator_value, list):
        return [error]
    fits = [i for i, alt in enumerate(error.validator_value) if isinstance(alt, dict) and "type" in alt and any(
        validator.is_type(error.instance, t) for t in _types(alt))]
    if len(fits) != 1:
        return [error]
    inner = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == fits[0]]
    return [found for e in inner for found in _in_branch(validator, e)] or [error]


def _describe(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {}))) if isinstance(
            error.instance, dict) else []
        if extra:
            known = [k for k in error.schema.get("properties", {}) if k not in error.instance]
            hint = did_you_mean(extra[0], known, repr) if len(extra) == 1 else ""
            return f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}{hint}"
    if error.validator == "required" and isinstance(error.schema, dict):
        # a missing field whose values are few: say which they are ('kind' is required: one of 'textual', ...)
        # jsonschema gives one error per missing field, each naming its own in its message
        missing = next((k for k in error.validator_value if isinstance(error.instance, dict) and k not in
                        error.instance and error.message.startswith(repr(k))), None)
        known = error.schema.get("properties", {}).get(missing) if missing is not None else None
        if isinstance(known, dict) and isinstance(known.get("enum"), list) and len(known["enum"]) <= 12:
            return f"{error.message}: one of {', '.join(map(repr, known['enum']))}"
    if error.validator == "type":
        said = wrong_kind(shown_value(error.instance), error.validator_value)
        # a type a conditional (if/then) asks for, the schema saying why there: say it (e.g. Rule 45 of ifMUD: a
        # servant's name and species go together, so a named servant's species may not be null)
        if "then" in error.absolute_schema_path and isinstance(error.schema.get("description"), str):
            return f"{said}: {error.schema['description']}"
        return said
    if error.validator == "pattern" and error.validator_value == NOT_BLANK:
        return "must not be blank: it says nothing"
    if error.validator == "maxLength" and isinstance(error.instance, str) and isinstance(error.validator_value, int):
        # the limit said, and a long text shown by its start and its length, not echoed whole (a --note of 2,001
        # characters was written back in full, "is too long", without saying how long it may be)
        text = error.instance
        shown = repr(text) if len(text) <= 80 else f"{text[:40]!r}..."
        return f"{shown} ({len(text)} characters) is too long (at most {error.validator_value} characters)"
    if error.validator == "pattern" and error.validator_value == TIME_PATTERN:
        return f"{shown_value(error.instance)} is not a UTC time of the calendar, like 2026-11-22T10:15:00Z"
    if error.validator == "pattern" and error.validator_value == DAY_PATTERN:
        return f"{shown_value(error.instance)} is not a day of the calendar, like 2026-11-22"
    if error.validator == "enum" and isinstance(error.validator_value, list):
        # the choices as a player reads them ('FOO' is not one of 'FOR', 'AGAINST'), not as a Python list
        said = f"{_choice(error.instance)} is not one of {', '.join(map(_choice, error.validator_value))}"
        if not isinstance(error.instance, str):
            return said
        # vote=for, vote=AGIANST: the word meant, in the case the rules write it; vote=FOR where aye is asked: the
        # game's own word for a vote in favour
        words = [v for v in error.validator_value if isinstance(v, str)]
        same = [v for v in words if v.casefold() == error.instance.casefold()]
        if same:
            return f"{said}; did you mean {same[0]!r}?"
        return said + (_vote_hint(error.instance, error.schema) or did_you_mean(error.instance, words, repr))
    if error.validator == "pattern" and isinstance(error.instance, str):
        # words first: a regular expression says little to a player, and the schema's description says what is
        # asked (a player's name, the steps of a path, like NNE), or its FORM where it says what the field means;
        # with neither, the expression in brackets
        words = next((w for k in (FORM, "description") if isinstance(w := error.schema.get(k), str)), None) \
            if isinstance(error.schema, dict) else None
        if not isinstance(words, str):
            return f"{error.instance!r} is not of the form this field takes (the pattern {error.validator_value})"
        first = words.split(" ", 1)[0]
        if first[:1].isupper() and (len(first) == 1 or first[1:].islower()):  # "a player's name" in the sentence
            words = words[0].lower() + words[1:]  # ("SHA-256" kept)
        said = f"{error.instance!r} is not {words.rstrip('.')}"
        # a place written without its leading / (a patch's roster/players/...): the one meant, if it is that
        meant = "/" + error.instance
        if str(error.validator_value).startswith("^/") and re.search(error.validator_value, meant):
            said += f"; did you mean {meant!r}?"
        return said
    if error.validator == "anyOf" and error.validator_value == EMPTY_OR_NOT_BLANK:
        return "must not be blank: it says nothing (leave it out, or empty, for none)"
    if _names_a_key(error):
        # a field known to the object, but not taken here: the schema says which are (rule edits, by op)
        return f"{error.schema['description']}, not {error.instance!r}"
    if error.validator in ("oneOf", "anyOf") and isinstance(error.validator_value, list) and error.validator_value \
            and all(isinstance(a, dict) and "type" in a for a in error.validator_value) \
            and {e.relative_schema_path[0] for e in error.context if len(e.relative_schema_path) == 2
                 and e.validator == "type"} == set(range(len(error.validator_value))):
        # none of the alternatives takes a value of its type (``_in_branch`` follows the one that does): say which
        # types they take (5 is not text or a list)
        kinds = [t for a in error.validator_value for t in _types(a)]
        return wrong_kind(shown_value(error.instance), list(dict.fromkeys(kinds)))
    alternatives = error.validator_value if error.validator == "anyOf" else None
    if alternatives and all(isinstance(a, dict) and list(a) == ["required"] for a in alternatives):
        # one of some fields is required: name them, not the whole object
        names = [repr(n) for a in alternatives for n in a["required"]]
        return f"{', '.join(names[:-1])} or {names[-1]} is required" if len(names) > 1 else f"{names[0]} is required"
    return error.message


def _why_required(error: jsonschema.ValidationError) -> str:
    """A field a condition (if/then) requires, the condition saying why in its ``description`` (a patch operation's
    value, by its op; a servant's species, with its name): that reason, shown after the message (``Problem.why``),
    not written into it; else ""."""
    if error.validator == "required" and list(error.absolute_schema_path)[-2:] == ["then", "required"] \
            and isinstance(error.schema, dict) and isinstance(error.schema.get("description"), str):
        return error.schema["description"]
    return ""


def _names_a_key(error: jsonschema.ValidationError) -> bool:
    """Whether ``error`` is about a key of the object at its path, by a ``propertyNames`` schema that says in its
    ``description`` which keys are taken (a rule edit's fields, by op)."""
    return ("propertyNames" in error.relative_schema_path and isinstance(error.instance, str)
            and isinstance(error.schema, dict) and isinstance(error.schema.get("description"), str))


def _first_unknown(error: jsonschema.ValidationError) -> tuple[str, ...]:
    """Where an unknown field is: its key's line, not the line of the mapping that holds it."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        if extra:
            return (extra[0],)
    if _names_a_key(error):
        return (error.instance,)
    return ()


def _choice(value: Any) -> str:
    """A value an enum names or is given, as the refusal shows it: a text quoted ('aye'), anything else as in the
    file (null, true, 3)."""
    return repr(value) if isinstance(value, str) else shown_value(value)


def _vote_hint(given: str, schema: Any) -> str:
    """'; did you mean 'aye'? (aye is for, nay is against)': for a vote parameter made by ``vote_words`` given a
    word another game (or plain speech) votes with, its own word of the same sense; else ""."""
    votes = schema.get(VOTES) if isinstance(schema, Mapping) else None
    if not isinstance(votes, Mapping):
        return ""
    why = next((w for word, w in (votes.get("elsewhere") or {}).items() if word.casefold() == given.casefold()), None)
    if why is not None:
        return f" ({why})"
    sense = next((s for s, said in SAID.items() if given.casefold() in said), None)
    meant = votes.get(sense)
    if not isinstance(meant, str):
        return ""
    plain = all(str(votes.get(s, s)).casefold() == s for s in SAID)  # FOR is for: nothing to explain
    return f"; did you mean {meant!r}?" + ("" if plain else
                                           " (" + ", ".join(f"{votes[s]} is {s}" for s in SAID if s in votes) + ")")


def limit_errors(data: Any, limits: Any, *, file: str = "", text: str | None = None,
                 kind: str = BAD_INPUT) -> list[Problem]:
    """What a document kind's ``limits`` (``DocKind.limits``) find in ``data``, placed in ``text`` as schema errors
    are; ask it only of data the schema accepts. ``limits`` None finds nothing."""
    if limits is None:
        return []
    out = []
    for path, message in limits(data):
        line, col = locate(text, path) if text is not None else (0, 0)
        out.append(Problem(message, file, line, col, format_path(path), kind=kind))
    return out


def errors(data: Any, *, schema: str | None = None, inline: Mapping[str, Any] | None = None,
           file: str = "", text: str | None = None, prefix: Iterable[object] = (),
           line_offset: int = 0, kind: str = BAD_INPUT, inline_key: str | None = None) -> list[Problem]:
    """Every schema error in ``data``, most relevant first, each placed in ``text``.

    ``inline_key``: ``inline_key_of(inline)``, when the caller keeps it (it is asked for every action).
    After MAX_ERRORS, one more problem says how many others there were.
    """
    if schema is not None:
        if _surely_valid(*_fast_for(schema), data):
            return []
        validator = validator_for(schema)
    else:
        key = inline_key or inline_key_of(inline)
        if _surely_valid(*_fast_inline(key), data):
            return []
        validator = _inline(key)
    from jsonschema.exceptions import relevance

    found = sorted((e for err in validator.iter_errors(data) for e in _in_branch(validator, err)), key=relevance)
    prefix = tuple(prefix)
    # one mistake found twice says nothing more: a title is text by both schemas its allOf joins, so a list there
    # broke both; it is said once
    said: set[tuple[str, str]] = set()
    unique = []
    for err in found:
        path = prefix + tuple(err.absolute_path) + _first_unknown(err)
        message = _describe(err)
        if (repr(path), message) not in said:
            said.add((repr(path), message))
            unique.append((err, path, message))
    out = []
    for err, path, message in unique[:MAX_ERRORS]:
        line = col = 0
        if text is not None:
            line, col = locate(text, path)
            if line:
                line += line_offset
        out.append(Problem(message, file, line, col, format_path(path), kind=kind, keyword=str(err.validator),
                           why=_why_required(err)))
    if len(unique) > MAX_ERRORS:
        out.append(Problem(f"{len(unique) - MAX_ERRORS} other errors", file, kind=kind))
    return out
