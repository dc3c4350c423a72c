"""The balance report under house rules: ``write_report(..., rules=...)`` and ``trickcore report
GAME --rule NAME=VALUE`` compute one game's page under the given options, and its rule
variants flip each option from the report's value, not from the rulings' default."""

from __future__ import annotations

import re

import pytest

from analysis.cli import main
from analysis.report import write_report
from analysis.report.variants import option_values
from trickcore.games import get_game

N_DEALS = 8


def _section(text: str, title: str) -> str:
    """The Markdown of one section of a page (up to the next section's heading)."""
    start = text.index(f"## {title}")
    nxt = text.find("\n## ", start + 1)
    return text[start: nxt if nxt >= 0 else len(text)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = {}
    for name, rules in (("default", None), ("house", {"kitty_points": "if_exchanged", "steal": False})):
        folder = tmp_path_factory.mktemp(name)
        write_report(["goathead3"], n_deals=N_DEALS, out=folder, seed=5, n_jobs=1, rules=rules)
        out[name] = (folder / "goathead3" / "index.md").read_text(encoding="utf-8")
    return out


def test_the_page_states_its_rules(pages):
    assert "Rules (set for this report: kitty_points='if_exchanged', steal=False;" in pages["house"]
    assert "Rules (the rulings' defaults unless stated)" in pages["default"]


def test_variants_flip_from_the_reports_rules(pages):
    house = _section(pages["house"], "Rule variants")
    default = _section(pages["default"], "Rule variants")
    # under the house rules kitty_points is flipped back to the rulings' 'declarer', never to
    # the value the report already plays; by default the other way round
    assert re.search(r"\| kitty_points \| declarer \|", house)
    assert not re.search(r"\| kitty_points \| if_exchanged \|", house)
    assert re.search(r"\| kitty_points \| if_exchanged \|", default)


def test_the_house_rules_change_the_figures_they_act_on(pages):
    # kitty_points decides whose the kitty's points are: the payouts of the contract table move
    house = _section(pages["house"], "Contracts")
    default = _section(pages["default"], "Contracts")
    assert house != default


def test_option_values_from_a_base():
    g = get_game("goathead3")
    assert ("steal", False, True) in option_values(g, {"steal": False})
    assert ("steal", True, False) in option_values(g)
    # a numeric option set away from its default is flipped back to the default too
    oh = get_game("ohhell")
    vals = [v for n, b, v in option_values(oh, {"hand_size": 5}) if n == "hand_size"]
    assert 10 in vals and 5 not in vals


def test_ohhell_hand_size_reaches_every_part(tmp_path):
    write_report(["ohhell"], n_deals=N_DEALS, out=tmp_path, seed=5, n_jobs=1, rules={"hand_size": 5})
    text = (tmp_path / "ohhell" / "index.md").read_text(encoding="utf-8")
    assert "(hands of 5 cards)" in text and "deals of 5 cards each" in text
    assert "hands of 8 cards" not in text


def test_bad_rules(tmp_path):
    with pytest.raises(ValueError, match="give exactly one game"):
        write_report(["goathead3", "hearts"], n_deals=4, out=tmp_path, rules={"steal": False})
    with pytest.raises(ValueError, match="unknown rule option"):
        write_report(["goathead3"], n_deals=4, out=tmp_path, rules={"colour": "red"})
    with pytest.raises(ValueError, match="rules must be a mapping"):
        write_report(["goathead3"], n_deals=4, out=tmp_path, rules=["steal=false"])


def test_cli_rule_needs_one_game(tmp_path, capsys):
    assert main(["report", "--rule", "steal=false", "--deals", "4", "--out", str(tmp_path)]) == 2
    assert "name exactly one GAME" in capsys.readouterr().err
    assert main(["report", "goathead3", "--rule", "steal=maybe", "--deals", "4", "--out", str(tmp_path)]) == 2
    assert "rule option steal cannot be 'maybe'" in capsys.readouterr().err
