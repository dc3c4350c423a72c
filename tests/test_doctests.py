"""Run the docstring examples of every public module of the *installed* packages."""

import doctest
import importlib
import pkgutil

import pytest

import analysis
import trickcore


def _modules():
    for pkg in (trickcore, analysis):
        yield pkg.__name__
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if not info.name.rsplit(".", 1)[-1].startswith("_"):
                yield info.name


@pytest.mark.parametrize("name", sorted(set(_modules())))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
