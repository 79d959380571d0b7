"""e2e_common.compare, the rule the Python runners (tests/cross,
tests/gpu) check outputs with, on the cases aot_tolerance.h defines: within
atol + rtol * |expected|, NaN only for NaN, an infinity only for the same
infinity, integers exactly."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "programs"))
from e2e_common import compare  # noqa: E402

EXPECTED = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], np.float32)


def with_value(index, value):
    actual = EXPECTED.copy()
    actual[index] = value
    return actual


def test_equal_arrays_match():
    assert compare(EXPECTED.copy(), EXPECTED) is None


def test_within_tolerance_matches():
    assert compare(with_value(4, 9e-6), EXPECTED) is None
    assert compare(with_value(0, 1.00005), EXPECTED) is None


def test_outside_tolerance_fails():
    assert compare(with_value(4, 2e-5), EXPECTED) is not None


def test_nan_only_for_nan():
    assert compare(with_value(0, np.nan), EXPECTED) is not None
    assert compare(with_value(3, 1.0), EXPECTED) is not None


def test_infinity_only_for_the_same_infinity():
    assert compare(with_value(1, -np.inf), EXPECTED) is not None
    assert compare(with_value(1, 3e38), EXPECTED) is not None
    assert compare(with_value(0, np.inf), EXPECTED) is not None


def test_integers_exactly():
    expected = np.array([1, 2], np.int32)
    assert compare(np.array([1, 2], np.int32), expected) is None
    assert compare(np.array([1, 3], np.int32), expected) is not None


def test_shapes_must_agree():
    assert compare(EXPECTED[:4], EXPECTED) is not None
