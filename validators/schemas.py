"""JSON Schema (draft 2020-12) checks with positions, most relevant error first.

Two validators, one verdict. jsonschema-rs (Rust) answers "valid?" about a
hundred times faster than the jsonschema package, and nearly every file and
action a check reads is valid; so it is asked first. Only when it finds a
problem (or cannot judge: a value of a type JSON lacks, a schema it cannot
compile, a schema using ``format``) does jsonschema list every error with its
path, ordered by relevance, worded as before. So the messages and their order
come from one place, whichever package is installed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - the slower validator alone gives the same answers
    jsonschema_rs = None

from .problems import BAD_INPUT, Problem, format_path
from .yamlio import locate

if TYPE_CHECKING:
    import jsonschema
    from referencing import Registry

# jsonschema (and referencing) are imported when first needed: only a file with an error needs them,
# and importing them costs a command about a tenth of a second.

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
BASE = "file:///schemas/"
MAX_ERRORS = 20


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    """JSON Schema counts 3.0 as an integer; a game value never is one (a float where an integer belongs is bad input)."""
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
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
def _rs_registry() -> Any:
    """Every schema file for jsonschema-rs, or None where it cannot stand in for jsonschema."""
    if jsonschema_rs is None:
        return None
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if _uses_format(contents):
            # jsonschema checks formats only as far as optional packages allow; do not guess which
            return None
        resources.append((BASE + path.name, contents))
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
    schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return _rs_compile({**schema, "$id": BASE + name})


@lru_cache(maxsize=512)
def _rs_inline(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    schema.setdefault("$id", BASE + "inline.schema.json")
    return _rs_compile(schema)


def _surely_valid(fast: Any, data: Any) -> bool:
    """True when jsonschema-rs finds ``data`` valid; False means "ask jsonschema"."""
    if fast is None:
        return False
    try:
        if not fast.is_valid(data):
            return False
    except Exception:  # a value JSON cannot hold (a date, a set ...): let jsonschema say what it thinks
        return False
    return not _whole_float(data)  # jsonschema-rs takes 3.0 for an integer; our "integer" does not


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
            push(node.values())
        elif isinstance(node, list):
            push(node)
    return False


def inline_key_of(inline: Mapping[str, Any] | None) -> str:
    """The text an inline schema's compiled validators are remembered by."""
    return json.dumps(inline, sort_keys=True)


def is_valid(data: Any, *, schema: str | None = None, inline: Mapping[str, Any] | None = None) -> bool:
    """Whether ``data`` is valid, as quickly as possible (the same verdict as ``errors``)."""
    if schema is not None:
        if _surely_valid(_rs_for(schema), data):
            return True
        return validator_for(schema).is_valid(data)
    key = json.dumps(inline, sort_keys=True)
    if _surely_valid(_rs_inline(key), data):
        return True
    return _inline(key).is_valid(data)


# ---------------------------------------------------------------- errors


def _describe(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {}))) if isinstance(
            error.instance, dict) else []
        if extra:
            return f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
    if error.validator == "type":
        return f"{_short(error.instance)} is not of type {error.validator_value}"
    return error.message


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def errors(data: Any, *, schema: str | None = None, inline: Mapping[str, Any] | None = None,
           file: str = "", text: str | None = None, prefix: Iterable[object] = (),
           line_offset: int = 0, kind: str = BAD_INPUT, inline_key: str | None = None) -> list[Problem]:
    """Every schema error in ``data``, most relevant first, each placed in ``text``.

    ``inline_key``: ``inline_key_of(inline)``, when the caller keeps it (it is asked for every action).
    After MAX_ERRORS, one more problem says how many others there were.
    """
    if schema is not None:
        if _surely_valid(_rs_for(schema), data):
            return []
        validator = validator_for(schema)
    else:
        key = inline_key or inline_key_of(inline)
        if _surely_valid(_rs_inline(key), data):
            return []
        validator = _inline(key)
    from jsonschema.exceptions import relevance

    found = sorted(validator.iter_errors(data), key=relevance)
    prefix = tuple(prefix)
    out = []
    for err in found[:MAX_ERRORS]:
        path = prefix + tuple(err.absolute_path)
        line = col = 0
        if text is not None:
            line, col = locate(text, path)
            if line:
                line += line_offset
        out.append(Problem(_describe(err), file, line, col, format_path(path), kind=kind))
    if len(found) > MAX_ERRORS:
        out.append(Problem(f"{len(found) - MAX_ERRORS} other errors", file, kind=kind))
    return out
