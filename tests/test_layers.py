"""The page's layers run one way: every module's imports, read from its source, are held
to the list of layers in docs/architecture.md (and the folders import each other in no loop).

A module's *unit* is the folder it is in (``web.table``, ``web.p2p.fair``, all of
``hearts``) or, at the top of ``web/``, the module itself (``web.words``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from tools.site import build

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def layers() -> list[list[str]]:
    """The units of each layer, top first, as docs/architecture.md's "Layers" lists them."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"^## Layers\n.*?^```\n(.*?)^```", text, re.S | re.M)
    assert block is not None, "docs/architecture.md has no list of layers"
    found = []
    for line in block.group(1).splitlines():
        names = line.partition("—")[0].split()
        if names:
            found.append(names)
    return found


def modules() -> dict[str, Path]:
    """Every module of the page and the engine, by its dotted name (a package by its own)."""
    found = {}
    for path in sorted([*ROOT.glob("web/**/*.py"), *ROOT.glob("hearts/**/*.py")]):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def unit_of(module: str) -> str:
    """``web.table.view`` -> ``web.table``; ``web.words`` -> ``web.words``; ``hearts.*``
    -> ``hearts`` (the engine is one unit: its folders are its own business)."""
    if module == "hearts" or module.startswith("hearts."):
        return "hearts"
    path = MODULES[module]
    parts = module.split(".")
    if path.name == "__init__.py":
        return module
    return ".".join(parts[:-1]) if len(parts) > 2 else module


def imported(module: str) -> set[str]:
    """The modules of this tree that ``module`` imports, anywhere in its code."""
    found = set()
    for name in build.imports_of(MODULES[module], module):
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name not in {module, "web"}:
            found.add(name)
    return found


def arrows() -> Iterator[tuple[str, str]]:
    """(importer, imported) for every import between two units."""
    for module in MODULES:
        if module == "web":
            continue
        for target in imported(module):
            if unit_of(target) != unit_of(module):
                yield module, target


def test_the_list_of_layers_names_every_unit_once() -> None:
    listed = [name for layer in layers() for name in layer]
    units = {unit_of(m) for m in MODULES if m != "web"}
    assert len(listed) == len(set(listed)), "a unit is listed twice"
    assert units - set(listed) == set(), "place these in docs/architecture.md's Layers"
    assert set(listed) - units == set(), "these are listed but no module is there"


def test_every_import_runs_down_the_layers() -> None:
    rank = {name: i for i, layer in enumerate(layers()) for name in layer}
    wrong = sorted(f"{a} -> {b}" for a, b in arrows()
                   if rank[unit_of(a)] >= rank[unit_of(b)])
    assert wrong == []


def test_the_engine_imports_nothing_of_the_page() -> None:
    wrong = sorted(f"{a} -> {b}" for a, b in arrows()
                   if unit_of(a) == "hearts" and not b.startswith("hearts"))
    assert wrong == []


def test_no_units_import_each_other_in_a_loop() -> None:
    """Independently of the list: the graph of units has no cycle (a unit reaches itself
    through no chain of arrows)."""
    edges: dict[str, set[str]] = {}
    for a, b in arrows():
        edges.setdefault(unit_of(a), set()).add(unit_of(b))
    reach = {unit: set(targets) for unit, targets in edges.items()}
    grew = True
    while grew:
        grew = False
        for targets in reach.values():
            more = set(itertools.chain.from_iterable(reach.get(t, ()) for t in targets))
            if not more <= targets:
                targets |= more
                grew = True
    assert sorted(unit for unit, targets in reach.items() if unit in targets) == []


def test_the_reader_sees_an_upward_import(tmp_path: Path) -> None:
    """The check can fail: an import in a function body, relative, is found."""
    source = tmp_path / "view.py"
    source.write_text("def f():\n    from ..seats import solo\n    return solo\n")
    assert "web.seats.solo" in build.imports_of(source, "web.table.view")
