"""The rules engine imports only itself, the standard library and the pure
packages named here.

The import contract (``[tool.importlinter]`` in pyproject.toml, run by
``make test``) forbids Django, the frameworks and the apps; import-linter can
only forbid named packages, not allow a list, so the allow-list is this test,
on the same import graph (grimp, import-linter's own).
"""

from __future__ import annotations

import sys

import grimp

ENGINE = "tables.rules"
#: Third-party packages the engine may import: pure computation, no I/O, no framework.
PURE_PACKAGES: frozenset[str] = frozenset()


def outside_imports(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    """Each module the engine imports that is neither the engine's own, the
    standard library's nor an allowed pure package's, with its importers."""
    engine = {m for m in graph.modules if m == ENGINE or m.startswith(ENGINE + ".")}
    outside: dict[str, set[str]] = {}
    for module in engine:
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.partition(".")[0]
            if imported in engine or top in sys.stdlib_module_names or top in PURE_PACKAGES:
                continue
            outside.setdefault(imported, set()).add(module)
    return outside


def test_the_rules_engine_imports_only_the_standard_library_and_pure_packages():
    graph = grimp.build_graph("tables", include_external_packages=True)
    assert "tables.rules.engine" in graph.modules
    assert outside_imports(graph) == {}


def test_the_check_names_each_import_from_outside_the_engine():
    graph = grimp.ImportGraph()
    graph.add_import(importer="tables.rules.money", imported="fractions")
    graph.add_import(importer="tables.rules.money", imported="tables.rules.cards")
    graph.add_import(importer="tables.rules.money", imported="django.db")
    graph.add_import(importer="tables.rules.games.x", imported="tables.models")
    graph.add_import(importer="tables.models", imported="django.db")
    assert outside_imports(graph) == {
        "django.db": {"tables.rules.money"},
        "tables.models": {"tables.rules.games.x"},
    }
