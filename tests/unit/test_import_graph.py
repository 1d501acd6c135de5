"""The package's import graph has no cycles (import-linter checks the layers; this the rest).

Built with grimp, the graph library import-linter runs on; every import counts, also
those inside functions, since a lazy import is still a dependency.
"""

from __future__ import annotations

import grimp


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module: each is an import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def package_graph() -> dict[str, set[str]]:
    built = grimp.build_graph("kubectl_crd")
    ours = {module for module in built.modules if module.startswith("kubectl_crd")}
    return {
        module: {m for m in built.find_modules_directly_imported_by(module) if m in ours}
        for module in ours
    }


def test_the_finder_sees_a_cycle() -> None:
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_package_has_no_import_cycles() -> None:
    graph = package_graph()
    assert len(graph) > 60  # the whole package was read
    assert strongly_connected(graph) == []


def _contracts() -> list[dict[str, object]]:
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    settings = tomllib.loads(pyproject.read_text())
    contracts: list[dict[str, object]] = settings["tool"]["importlinter"]["contracts"]
    return contracts


def test_every_package_has_its_place_in_the_layers() -> None:
    """A new package can't slip past the layer contract: each one is in a layer, in the
    order the engine and its dashboard need (reconcile below output)."""
    import pkgutil

    import kubectl_crd

    (layers,) = [
        c
        for c in _contracts()
        if c["type"] == "layers" and "containers" not in c and "kubectl_crd.cli" in c["layers"]  # type: ignore[operator]
    ]
    placed = [
        [name.strip().removeprefix("kubectl_crd.") for name in str(layer).split("|")]
        for layer in layers["layers"]  # type: ignore[attr-defined]
    ]
    assert placed == [
        ["cli"],
        ["output"],
        ["reconcile"],
        ["sources", "validation"],
        ["io", "kube"],
        ["model"],
    ]
    packages = {info.name for info in pkgutil.iter_modules(kubectl_crd.__path__) if info.ispkg}
    assert packages == {name for layer in placed for name in layer}


def test_watchdog_and_the_fake_source_are_pinned() -> None:
    names = {c["name"] for c in _contracts()}
    assert "only io.filewatch imports watchdog" in names
    assert "the fake CRD source is for tests: no product module imports it" in names
    built = grimp.build_graph("kubectl_crd", "watchdog")
    importers = {m for m in built.find_modules_that_directly_import("watchdog")}
    importers |= {
        m
        for m in built.modules
        if m.startswith("kubectl_crd")
        for imported in built.find_modules_directly_imported_by(m)
        if imported.startswith("watchdog")
    }
    assert importers == {"kubectl_crd.io.filewatch"}
