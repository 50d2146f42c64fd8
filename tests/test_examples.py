"""The examples/ programs run and give their puzzles' known answers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from logicpy.errors import InputError

EXAMPLES = Path(__file__).resolve().parent.parent / "logicpy" / "data" / "examples"


def load_example(name: str):
    """Import examples/<name>.py as a module (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def zebra():
    return load_example("zebra")


@pytest.fixture(scope="module")
def zebra_solutions(zebra):
    return zebra.solve()


def test_zebra_relational(zebra, zebra_solutions):
    """Known answer (Life International, 1962): the Norwegian drinks water, the Japanese owns the zebra."""
    (houses,) = zebra_solutions
    assert zebra.who(houses, "drink", "water") == "Norwegian"
    assert zebra.who(houses, "pet", "zebra") == "Japanese"
    assert zebra.verify(houses) == []
    assert [h[1] for h in houses] == ["Norwegian", "Ukrainian", "Englishman", "Spaniard", "Japanese"]


def test_zebra_verify_rejects_corrupted_answers(zebra, zebra_solutions):
    (houses,) = zebra_solutions
    swapped = [houses[1], houses[0], *houses[2:]]  # the Norwegian no longer in the first house
    assert "10. Norwegian first" in zebra.verify(swapped)
    wrong_pet = [h if h[3] != "zebra" else (*h[:3], "fox", *h[4:]) for h in houses]
    assert "1. five houses, each value once" in zebra.verify(wrong_pet)
    assert zebra.verify(houses[:4])


def test_zebra_render_shows_every_house(zebra, zebra_solutions):
    (houses,) = zebra_solutions
    text = zebra.render(houses)
    assert text.splitlines()[1].split()[:3] == ["1", "Norwegian", "yellow"]
    assert len(text.splitlines()) == 6


def test_zebra_house_rejects_an_unknown_field(zebra):
    with pytest.raises(InputError, match="colur"):
        zebra.house(colur="red")
