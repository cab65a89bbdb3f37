"""JSON Schema (draft 2020-12) checks with positions, most relevant error first."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

import jsonschema
from jsonschema.exceptions import relevance
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .problems import BAD_INPUT, Problem, format_path
from .yamlio import locate

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
BASE = "file:///schemas/"
MAX_ERRORS = 20


@lru_cache(maxsize=1)
def _registry() -> Registry:
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
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema, registry=_registry(), format_checker=cls.FORMAT_CHECKER)


@lru_cache(maxsize=512)
def _inline(schema_json: str) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_json)
    schema.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    schema.setdefault("$id", BASE + "inline.schema.json")  # so "common.schema.json#/..." resolves
    cls = jsonschema.Draft202012Validator
    return cls(schema, registry=_registry(), format_checker=cls.FORMAT_CHECKER)


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
           line_offset: int = 0, kind: str = BAD_INPUT) -> list[Problem]:
    """Every schema error in ``data``, most relevant first, each placed in ``text``.

    After MAX_ERRORS, one more problem says how many others there were.
    """
    if schema is not None:
        validator = validator_for(schema)
    else:
        validator = _inline(json.dumps(inline, sort_keys=True))
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
