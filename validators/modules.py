"""Which game modules exist: every package under ``validators/games`` that defines ``MODULE``.

Adding a module is adding a package; nothing here changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Iterable

from .engine import Module, Registry


@lru_cache(maxsize=1)
def all_modules() -> dict[str, Module]:
    from . import games

    found: dict[str, Module] = {}
    for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{games.__name__}.{info.name}")
        module = getattr(mod, "MODULE", None)
        if isinstance(module, Module):
            found[module.name] = module
    return found


def _named(names: tuple[str, ...]) -> dict[str, Module]:
    """Import only the modules a game names (each package is named as its module); else look at them all."""
    from . import games

    found: dict[str, Module] = {}
    for name in names:
        try:
            mod = importlib.import_module(f"{games.__name__}.{name}")
        except ImportError:
            return all_modules()
        module = getattr(mod, "MODULE", None)
        if not isinstance(module, Module) or module.name != name:
            return all_modules()
        found[name] = module
    return found


@lru_cache(maxsize=64)
def _registry(names: tuple[str, ...]) -> Registry:
    known = _named(names)
    missing = [n for n in names if n not in known]
    if missing:
        raise KeyError(f"unknown module {', '.join(map(repr, missing))} (known: {', '.join(sorted(known))})")
    return Registry(known[n] for n in names)


def registry_for(names: Iterable[str]) -> Registry:
    return _registry(tuple(names))
