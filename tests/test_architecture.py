"""engines/ and render/ stay pure: they import nothing that reaches the network, the database, the clock, the
global random generator or the bot. Imports are read from the source with `ast`, so nothing is executed."""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

import pytest

from engines import all_engines
from engines.base import State, View

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("engines", "render")
FORBIDDEN = frozenset({"discord", "sqlalchemy", "asyncio", "random", "time", "datetime", "bot"})


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every absolute module a source file imports, with its line (a relative import stays inside its package)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def forbidden_imports(source: str) -> list[str]:
    return [
        f"line {line}: {module}"
        for line, module in imported_modules(source)
        if module.split(".")[0] in FORBIDDEN
    ]


def test_the_pure_packages_have_sources():
    for package in PURE_PACKAGES:
        assert len(list((ROOT / package).rglob("*.py"))) > 3


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_import_nothing_impure(package):
    offences = {
        str(path.relative_to(ROOT)): bad
        for path in sorted((ROOT / package).rglob("*.py"))
        if (bad := forbidden_imports(path.read_text(encoding="utf-8")))
    }
    assert offences == {}


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "import time as clock",
        "from datetime import UTC",
        "from discord.ext import commands",
        "import sqlalchemy.orm",
        "def f():\n    from bot.service import GameService\n",
        "import os, asyncio",
        "import importlib\nimportlib.import_module('bot.db')",
    ],
)
def test_the_check_catches_each_kind_of_impure_import(source):
    assert forbidden_imports(source)


@pytest.mark.parametrize(
    "source",
    ["import json", "from engines.rng import Rng", "from . import rules", "import botanical", "x = time"],
)
def test_the_check_lets_pure_imports_through(source):
    assert forbidden_imports(source) == []


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.name)
def test_renderers_draw_views_not_states(engine):
    """A view and a state are distinct types: the pictures are drawn from what a viewer may see."""
    render = importlib.import_module(f"render.{engine.name}")
    assert typing.get_type_hints(type(engine).view)["return"] is View
    for name in ("render_table", "render_private"):
        hints = typing.get_type_hints(getattr(render, name))
        assert hints["view"] is View, f"render.{engine.name}.{name} takes {hints['view']}"
        assert State not in hints.values()
