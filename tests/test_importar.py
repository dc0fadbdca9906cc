"""Importing the package changes no other library: a notebook user's own sqlite-utils keeps taking
numpy values after ``import argentina_datos`` (it once hid pandas and numpy from sqlite-utils)."""

import subprocess
import sys

import pytest

CODE = """
import argentina_datos, argentina_datos.construccion.cli, argentina_datos.web.servidor
import numpy, sqlite_utils
db = sqlite_utils.Database(memory=True)
db["t"].insert({"a": numpy.float32(1.5), "b": numpy.int64(2)})
print(db["t"].columns_dict)
"""


def test_sqlite_utils_takes_numpy_after_importing_the_package():
    pytest.importorskip("numpy")
    # A fresh interpreter: in this one sqlite-utils may already be imported by other tests.
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True).stdout
    # sqlite-utils maps numpy's types to column types (it raised KeyError: <class 'numpy.float32'>).
    assert out.strip() == "{'a': <class 'float'>, 'b': <class 'int'>}"
