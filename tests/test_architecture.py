"""The layers of `docs/architecture.md` hold in the code: its "Import rules" table is read from the document and
every import of every project module (parsed with `ast`, also imports inside functions and under
`TYPE_CHECKING`) is checked against it, and no project module imports, directly or through others, a module that
imports it (no import cycle)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "domain", "storage", "scheduler", "cli", "console", "bench", "tests")
DOC = ROOT / "docs" / "architecture.md"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {
    _module_name(path): path
    for package in PACKAGES
    for path in sorted((ROOT / package).rglob("*.py"))
    if ".venv" not in path.parts
}


@functools.cache  # the files do not change during a run; each test of this module reads many of them
def imports_of(module: str) -> frozenset[str]:
    """Every module `module` imports: `from a import b` is `a.b` when that is one of ours, else `a`."""
    path = MODULES[module]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if path.name != "__init__.py":
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                member = f"{source}.{alias.name}"
                found.add(member if member in MODULES else source)
    return frozenset(found - {module})


def _matches(imported: str, name: str) -> bool:
    return imported == name or imported.startswith(name + ".")


def import_rules() -> list[tuple[str, list[str], list[str]]]:
    """The rows of the document's "Import rules" table: package, what it must not import, the exceptions."""
    section = DOC.read_text(encoding="utf-8").split("## Import rules", 1)[1].split("\n## ", 1)[0]
    rules = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        package, forbidden, allowed = (re.findall(r"`([\w.]+)`", cell) for cell in cells)
        rules.append((package[0], forbidden, allowed))
    return rules


def test_the_document_states_rules_for_every_server_layer() -> None:
    assert {package for package, _, _ in import_rules()} >= {"domain", "storage", "scheduler", "console", "api"}


@pytest.mark.parametrize("package,forbidden,allowed", import_rules(), ids=[rule[0] for rule in import_rules()])
def test_no_module_imports_what_the_architecture_document_forbids(
    package: str, forbidden: list[str], allowed: list[str],
) -> None:
    broken = sorted(
        f"{module} imports {imported}"
        for module in MODULES if _matches(module, package)
        for imported in imports_of(module)
        if any(_matches(imported, name) for name in forbidden) and not any(_matches(imported, a) for a in allowed)
    )
    assert broken == []


def test_no_project_module_imports_a_module_that_imports_it() -> None:
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    graph.add_edges_from((module, imported) for module in MODULES for imported in imports_of(module)
                         if imported in MODULES)
    assert [sorted(cycle) for cycle in nx.strongly_connected_components(graph) if len(cycle) > 1] == []


def test_the_checker_sees_function_level_and_relative_imports() -> None:
    """The parser is not blind: a lazy import inside a function is an import (cli imports storage that way)."""
    assert "storage.backend" in imports_of("cli.data_dir")
    assert "domain.access.audit_records" in imports_of("domain.ports")


# ------------------------------------------------------------------ camelCase stays in api/schemas
CAMEL_CASE = re.compile(r"^[a-z]+[A-Z][A-Za-z0-9]*$")

#: The only domain modules that read camelCase keys from a dict, and the keys each reads. Request bodies never
#: reach the domain as dicts (api/schemas builds a typed command), so what is left is records the domain keeps in
#: their wire shape, documented in `docs/decisions.md` ("camelCase in the domain"): a list's players and a match's
#: participant references (`PlayerList.players`, `Team.players`, `Match.participants`), a webhook secret's
#: rotations (`WebhookConfig.rotations`), an audit entry's view (`domain.access.audit` verifies the exported chain), and
#: the read views that other read modules compose (board, paper sheets, the event page). Adding a key or a module
#: here is a decision to write down there; a key no longer read must leave this table too.
CAMEL_CASE_READS: dict[str, set[str]] = {
    "domain.access.audit": {"prevHash", "requestID"},
    "domain.event_day.availability": {"clubName", "externalID", "manualName"},
    "domain.event_day.board": {"activeMatch"},
    "domain.draws.service": {"externalID"},
    "domain.public.event_page": {"currentGame", "currentSet", "finishedText", "scoreText", "personID"},
    # the draw read's one parser (`draw_from_json`): the console reads a draw over HTTP into the typed read
    "domain.draws.read": {"broadcastID", "createdOn", "decidedBy", "drawMatchID", "drawMatches", "entryID",
                          "entryIDs", "externalID", "firstPlace", "gamesLost", "gamesWon", "loserEntryID",
                          "manualName", "matchID", "playerListExternalID", "plannedOn", "plannedTableID",
                          "pointsLost", "pointsWon", "resultType", "scoringName", "winnerEntryID"},
    "domain.match.formats": {"decidingGame"},  # a stored format object is the §18 object itself
    "domain.match.matches": {"externalID"},
    # a sample event is a match read (the read's own keys), put into another format or built from a real read
    "domain.webhooks.samples": {"currentGame", "gameScores"},
    "domain.public.outputs": {"clubName", "externalID", "manualName", "upNext"},
    "domain.public.paper": {"activeMatch", "bestOf", "calledOn", "checkedIn", "estimatedStartOn", "eventName",
                     "expectedEndOn", "matchRound", "notBefore", "queuePosition", "startedOn"},
    "domain.public.mail": {"externalID", "manualName"},
    "domain.public.personal": {"calledOn", "checkedIn", "completedOn", "estimatedStartOn", "matchID", "personID"},
    "domain.partner.player_lists": {"connectionID", "externalID", "firstName"},
    "domain.partner.queues": {"externalID", "manualName"},
    "domain.event_day.registration": {"firstName", "lastName"},
    "domain.event_day.schedule": {"externalID", "manualName"},
    "domain.webhooks.config": {"keyHash", "rotatedOn"},
}


def camel_case_reads(source: str) -> set[str]:
    """The camelCase keys a module reads from a dict: `d["tableID"]`, `d.get("tableID")` (also `.pop`,
    `.setdefault`) and `"tableID" in d`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        key: object = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop", "setdefault") and node.args
              and isinstance(node.args[0], ast.Constant)):
            key = node.args[0].value
        elif (isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant)
              and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)):
            key = node.left.value
        if isinstance(key, str) and CAMEL_CASE.match(key):
            found.add(key)
    return found


def test_the_camel_case_scan_sees_every_form_of_read() -> None:
    reads = camel_case_reads('a = body["tableID"]\nb = body.get("bestOf")\nif "externalID" in body: pass\n'
                             'body["written"] = 1\nc = body["snake_case"]\nd = body.pop("dryRun", False)\n')
    assert reads == {"tableID", "bestOf", "externalID", "dryRun"}


def test_the_domain_reads_no_camel_case_key_but_the_documented_ones() -> None:
    """Request bodies reach services as typed commands (`domain/commands.py`); camelCase stays in api/schemas."""
    found = {module: reads for module in MODULES if _matches(module, "domain")
             if (reads := camel_case_reads(MODULES[module].read_text(encoding="utf-8")))}
    undocumented = {module: sorted(reads - CAMEL_CASE_READS.get(module, set())) for module, reads in found.items()
                    if reads - CAMEL_CASE_READS.get(module, set())}
    stale = {module: sorted(keys - found.get(module, set())) for module, keys in CAMEL_CASE_READS.items()
             if keys - found.get(module, set())}
    assert undocumented == {}, "a domain module reads camelCase keys: build a command in api/schemas"
    assert stale == {}, "these exceptions are no longer needed: remove them from CAMEL_CASE_READS"


def body_parameters() -> dict[str, str]:
    """Each view that takes a JSON body (`@blp.arguments(Schema)` without `location=`): `module.view` -> the
    annotation of the parameter the parsed body arrives in (the first one)."""
    found: dict[str, str] = {}
    for module, path in MODULES.items():
        if not _matches(module, "api"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                        and decorator.func.attr == "arguments"
                        and not any(keyword.arg == "location" for keyword in decorator.keywords)):
                    annotation = node.args.args[0].annotation
                    found[f"{module}.{node.name}"] = ast.unparse(annotation) if annotation else ""
    return found


def test_every_write_view_takes_a_typed_command_not_a_request_dict() -> None:
    """A request schema's `@post_load` builds the command; a view that took `dict`/`Json`/`Any` would read
    camelCase keys itself or hand the dict on to a service."""
    views = body_parameters()
    assert len(views) >= 40  # the scan sees the routes
    untyped = {view: annotation for view, annotation in views.items()
               if not annotation or re.search(r"\b(dict|Json|Any|Mapping)\b", annotation)}
    assert untyped == {}


def test_the_scoring_rules_are_read_from_settings_in_one_place() -> None:
    """Points per game and the default best-of come from settings once, into `Services.rules` (api/bootstrap.py);
    every other reader takes them from there, so the console, the scorer page and the API count alike."""
    reads = re.compile(r"settings(?:\(\))?\.(?:points_per_game|default_best_of)\b")
    readers = sorted(str(path.relative_to(ROOT)) for package in PACKAGES if package not in ("tests", "bench")
                     for path in (ROOT / package).rglob("*.py") if reads.search(path.read_text()))
    assert readers == ["api/bootstrap.py"]


# ------------------------------------------------------------------ the one person rule (issue 36)
#: Where the rule lives: the only file that may write a "First Last" join or the join of a side's names.
PERSON_RULE = "domain/names.py"
#: A side's names joined by hand: the literal " / " as a string of its own (not a path's `ROOT / "docs"`).
SIDE_JOIN_BY_HAND = re.compile(r"""(?<![\w"'])(["']) / \1""")
#: A person's name put together by hand from a player's fields: `" ".join(... firstName ... lastName ...)` or
#: `f"{...firstName...} {...lastName...}"` (Python, templates and scripts alike).
FULL_NAME_BY_HAND = re.compile(r"""join\(.*firstName.*lastName|\{[^{}]*firstName[^{}]*\}\s+\{[^{}]*lastName""")
PERSON_RULE_SCANNED = ("api", "domain", "console", "cli", "scheduler", "storage", "bench")


def person_rule_breaches(text: str) -> list[str]:
    """The lines of `text` that write the person rule by hand."""
    return [line.strip() for line in text.splitlines()
            if SIDE_JOIN_BY_HAND.search(line) or FULL_NAME_BY_HAND.search(line)]


def test_the_person_rule_scan_sees_joins_written_by_hand() -> None:
    written = ['who = " / ".join(names)', "side.names.join(' / ')", '{{ side.names | join(" / ") }}',
               'parts = el.textContent.split(" / ")', 'return names.join(sep || " / ");',
               'name = " ".join(p for p in (player.get("firstName"), player.get("lastName")) if p)',
               'f"{player[\'firstName\']} {player[\'lastName\']} is already on this roster."',
               "return ' '.join(str(player[f]) for f in ('firstName', 'lastName') if player.get(f))"]
    assert person_rule_breaches("\n".join(written)) == written
    assert person_rule_breaches('out = ROOT / "docs" / "phone"\nside_name(names)\n'
                                'FIELDS = (("firstName", "First name"), ("lastName", "Last name"))') == []


def test_no_one_but_the_person_rule_joins_a_name_or_a_side_by_hand() -> None:
    """"First Last" and a side's " / " come from `domain/names.py` everywhere: Python calls `full_name`,
    `shown_name` and `side_name`; templates use the `side` filter and scripts the `side_join` the server gives."""
    files = [path for package in PERSON_RULE_SCANNED for path in sorted((ROOT / package).rglob("*"))
             if path.suffix in (".py", ".html", ".js") and ".venv" not in path.parts]
    assert len(files) > 100 and any(path.suffix == ".js" for path in files)  # the scan sees scripts and templates
    breaches = {str(path.relative_to(ROOT)): found for path in files
                if str(path.relative_to(ROOT)) != PERSON_RULE
                and (found := person_rule_breaches(path.read_text(encoding="utf-8")))}
    assert breaches == {}


MAX_LINES = 800
PRODUCT = ("api", "domain", "storage", "scheduler", "console", "cli")


def oversized(paths: list[Path], limit: int = MAX_LINES) -> list[str]:
    """The files among `paths` longer than `limit` lines, each with its length."""
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return found


def test_the_size_check_names_each_file_over_the_limit() -> None:
    small = ROOT / "storage" / "port.py"  # under 100 lines
    big = ROOT / "storage" / "engine.py"  # over 100 lines
    big_lines = len(big.read_text(encoding="utf-8").splitlines())
    assert oversized([small, big], limit=100) == [f"storage/engine.py: {big_lines} lines"]
    assert oversized([small, big], limit=big_lines) == []


def test_no_product_file_is_over_800_lines() -> None:
    """Issue 36: a file a newcomer must read whole stays under 800 lines; split it by concern when it grows."""
    paths = sorted(path for package in PRODUCT for path in (ROOT / package).rglob("*.py"))
    assert len(paths) > 100
    assert oversized(paths) == []


LABELS = "domain/draws/labels.py"
ROUND_WORDS = ("Quarterfinal", "Semifinal", "Round of", "Places ", "Third place", "Consolation final",
               "Losers final", "Winners final")
#: literals that carry a round's words but neither make nor read a label, each with its reason
ROUND_WORDS_ALLOWED = {
    "domain/webhooks/samples.py": "a sample webhook payload's `matchRound` example value",
}


def round_word_literals(source: str) -> list[str]:
    """The string literals of `source` (docstrings left out) holding a round's words (`ROUND_WORDS`)."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and any(word in node.value for word in ROUND_WORDS)]


def test_the_round_word_check_finds_a_literal_and_skips_a_docstring() -> None:
    source = '"""A Quarterfinal."""\n\ndef f(name):\n    """Semifinal."""\n    return name == "Quarterfinal"\n'
    assert round_word_literals(source) == ["Quarterfinal"]
    assert round_word_literals('x = f"Round of {n}"\n') == ["Round of "]


def test_round_names_live_in_the_labelling_module_only() -> None:
    """Issue 48 point 5: a round's name is made at display from the draw's structure by `domain/draws/labels.py`,
    the one place its words live (a later language step swaps them there); no other product code writes them,
    and nothing parses a name back (`name.startswith("Round of ")`)."""
    found = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = str(path.relative_to(ROOT))
            if relative == LABELS or relative in ROUND_WORDS_ALLOWED:
                continue
            if hits := round_word_literals(path.read_text(encoding="utf-8")):
                found[relative] = hits
    assert found == {}
    assert round_word_literals((ROOT / LABELS).read_text(encoding="utf-8"))  # the words are there
