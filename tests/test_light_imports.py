"""What an odds question imports: neither sympy, networkx nor matplotlib, nor a game engine.

Each check runs in a fresh interpreter, so nothing another test imported can hide a heavy
import. (How long the commands take is measured in benchmarks/bench_startup.py.)"""

import json
import subprocess
import sys

import pytest

HEAVY = ("sympy", "networkx", "matplotlib")
ENGINES = (
    "coronas.hierro.game",
    "coronas.hierro.state",
    "coronas.carolus.state",
    "coronas.batalla.state",
    "coronas.batalla.game",
)

REPORT = """
import json, sys
{body}
loaded = [m for m in {watched!r} if m in sys.modules]
print(json.dumps({{"status": status, "loaded": loaded}}), file=sys.stderr)
"""


def run_fresh(body, *argv):
    """Run ``body`` (which sets ``status``) in a new interpreter: its output and the watched
    modules it left loaded."""
    code = REPORT.format(body=body, watched=HEAVY + ENGINES)
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stderr.strip().splitlines()[-1])
    return report["status"], report["loaded"], out.stdout


# Each odds command with lines of its answer, worked out by hand.
COMMANDS = [
    (
        ["risk", "2", "1"],
        # two dice beat one with 1 - (1 + 4 + ... + 36)/216 = 125/216; after a lost round,
        # 1 against 1 wins 15/36: 125/216 + 91/216 * 5/12 = 1955/2592
        "P(attacker wins): 1955/2592 (75.42%)",
        # one round, and a second one after the attacker loses the first: 1 + 91/216
        "expected rounds: 307/216 (1.42)",
    ),
    (
        ["hierro-battle", "1", "1", "--shields", "1", "0"],
        "1 pawn (1 shield) attacks 1 pawn (0 shields)",
        # the attacker rerolls 1-3 once: 15/36 + 1/2 * 7/12 = 17/24
        "P(attacker wins): 17/24 (70.83%)",
    ),
    (
        ["hierro-battle", "2", "2"],
        # (7/12)**2 (1 + 2 * 5/12) = 539/864
        "P(attacker wins): 539/864 (62.38%)",
    ),
    (
        ["batalla-battle", "--swords", "2", "--shields", "2"],
        # a gem needs a win by 2 or more: 4 + 3 + 2 + 1 = 10 of 36 rolls; nobody has gold
        "P(gem) with optimal rerolls: 5/18 (27.78%)",
        "P(gem) without rerolls: 5/18 (27.78%)",
    ),
    (
        ["hierro-castle", "--target", "5", "--army", "2", "--shields", "1"],
        "attack a castle: 5+ with the yellow die (2 pawns)",
        # the yellow die is a d6 by default, 5+ is 1/3; one reroll while failing: 1 - (2/3)**2
        "P(one action succeeds, up to 1 reroll): 5/9 (55.56%)",
        "P(one roll succeeds, no reroll): 1/3 (33.33%)",
    ),
    (
        ["hierro-diplomacy", "--target", "2", "--shields", "1"],
        # legitimacy 2 is in the red band: 2+ is 5/6; with a reroll 1 - (1/6)**2
        "P(one action succeeds, up to 1 reroll): 35/36 (97.22%)",
    ),
    (
        ["carolus-draws", "--draws", "3"],
        # a draw goes to the family 2 times in 6 (the family or the joker): 1 - (2/3)**3
        "P: 19/27 (70.37%)",
    ),
]


@pytest.mark.parametrize("table", [False, True], ids=["answer", "table"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[0]))
def test_an_odds_command_imports_nothing_heavy_and_prints_the_exact_answer(command, table):
    argv = ["odds", *command[0], *(["--table"] if table else [])]
    body = "from coronas.cli import main\nstatus = main(sys.argv[1:])"
    status, loaded, out = run_fresh(body, *argv)
    assert status == 0
    for line in command[1:]:
        assert line in out.splitlines(), out
    assert loaded == [], f"coronas {' '.join(argv)} imported {loaded}"


@pytest.mark.parametrize(
    "module",
    [
        "coronas.dice",
        "coronas.attrition",
        "coronas.hierro",
        "coronas.hierro.rules",
        "coronas.hierro.odds",
        "coronas.carolus",
        "coronas.carolus.rules",
        "coronas.carolus.odds",
        "coronas.batalla",
        "coronas.batalla.rules",
        "coronas.batalla.odds",
        "coronas.cli",
    ],
)
def test_the_odds_modules_import_alone(module):
    _, loaded, _ = run_fresh(f"import {module}\nstatus = 0")
    assert loaded == [], f"import {module} imported {loaded}"


def test_an_engine_name_loads_the_engine_when_first_used():
    body = "from coronas.hierro import Game, AttackCastle\nGame(players=3)\nstatus = 0"
    _, loaded, _ = run_fresh(body)
    assert "coronas.hierro.game" in loaded and "networkx" in loaded


@pytest.mark.parametrize("package", ["coronas.hierro", "coronas.carolus", "coronas.batalla"])
def test_lazy_packages_offer_every_name_as_before(package):
    import importlib

    pkg = importlib.import_module(package)
    for name in pkg.__all__:
        assert getattr(pkg, name) is not None
    assert set(pkg.__all__) <= set(dir(pkg))
    star: dict = {}
    exec(f"from {package} import *", star)
    assert set(pkg.__all__) <= set(star)
    assert pkg.odds.__name__ == f"{package}.odds"  # a submodule is an attribute
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        pkg.nonexistent  # noqa: B018


def test_aliases_name_the_same_object():
    from coronas import batalla, hierro
    from coronas.batalla.game import BatallaGame
    from coronas.batalla.state import BatallaState
    from coronas.hierro.game import Game

    assert batalla.Game is BatallaGame and batalla.State is BatallaState
    assert hierro.Game is Game
