"""No module of `bookstore/` imports another in a cycle (through module-level imports): layers stay
layers, and a service can be read, tested and changed without dragging its callers in. Imports inside
functions (a job calling the service that enqueues it) are the deliberate exception and not walked.
The demo catalogue (`bookstore/demo/`) is the CLI's alone: no other module imports it, even inside a function."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bookstore"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(nodes) -> set[str]:
    """The names these statements import, as `module` and, for `from x import y`, `x.y` (y may be a module)."""
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _top_level_imports(path: Path, modules: set[str]) -> set[str]:
    """The bookstore modules a file imports at module level (`from x import y` may name a module)."""
    return {name for name in _imported(ast.parse(path.read_text(), str(path)).body) if name in modules}


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {name: _top_level_imports(path, set(files)) for name, path in files.items()}
    # A package's __init__ is not an edge target for its own submodules (importing a.b runs a first).
    return {name: {target for target in targets if not name.startswith(target + ".")}
            for name, targets in graph.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_bookstore_has_no_import_cycles():
    """Walks every module-level import of bookstore/ and fails naming the first cycle it finds."""
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    """The walker is not blind: a made-up a -> b -> c -> a is reported."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


# Who may import the demo catalogue besides its own modules: `flask seed-demo`.
DEMO = "bookstore.demo"
DEMO_IMPORTERS = {"bookstore.cli"}


def _in_demo(name: str) -> bool:
    return name == DEMO or name.startswith(DEMO + ".")


def demo_importers(sources: dict[str, str]) -> list[str]:
    """The modules outside the demo package and the CLI that import the demo package or one of its modules."""
    return sorted(name for name, source in sources.items()
                  if not _in_demo(name) and name not in DEMO_IMPORTERS
                  and any(_in_demo(found) for found in _imported(ast.walk(ast.parse(source, name)))))


def test_only_the_cli_imports_the_demo_catalogue():
    """The web app never needs the demo catalogue: no module of bookstore/ but cli.py imports bookstore.demo."""
    sources = {_module_name(path): path.read_text() for path in PACKAGE.rglob("*.py")}
    assert DEMO in sources and "bookstore.demo.generator" in sources
    assert demo_importers(sources) == []


def test_the_demo_check_sees_imports_inside_functions():
    """The demo check is not blind: an import of it in any spelling, even inside a function, is reported."""
    sources = {"bookstore.api.books": "def view():\n    from bookstore.demo import generator\n",
               "bookstore.seo": "import bookstore.demo.data\n",
               "bookstore.spa": "from bookstore import demo\n",
               "bookstore.cli": "def seed():\n    from bookstore.demo import generator\n",
               "bookstore.demo.generator": "from bookstore.demo import data\n"}
    assert demo_importers(sources) == ["bookstore.api.books", "bookstore.seo", "bookstore.spa"]


def test_nothing_outside_the_api_imports_an_api_module():
    """Views are the outer layer: schemas, services, seo.py and the rest never import `bookstore.api`
    (a shape the API and a page share lives in `schemas/`)."""
    leaks = sorted(f"{name} -> {target}" for name, targets in import_graph().items()
                   if not name.startswith("bookstore.api") for target in targets
                   if target == "bookstore.api" or target.startswith("bookstore.api."))
    assert leaks == []
