"""dtype objects, promotion and defaults against torch."""
import itertools

import oracle
import pytest

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.notorch
def test_dtype_objects_are_singletons_with_torch_aliases():
    import densecore as dc

    assert dc.float is dc.float32 and dc.long is dc.int64 and dc.half is dc.float16
    assert repr(dc.bfloat16) == "torch.bfloat16"
    assert dc.float16.itemsize == 2 and dc.float16.is_floating_point and not dc.uint8.is_signed


@pytest.mark.oracle
def test_promote_types_table_matches_torch():
    cases = {
        f"{a}-{b}": f"out = torch.promote_types(torch.{a}, torch.{b})"
        for a, b in itertools.product(DTYPES, DTYPES)
    }
    oracle.assert_cases_equal(cases)


@pytest.mark.oracle
def test_default_dtype_roundtrip():
    oracle.assert_cases_equal(
        {
            "default": "out = torch.get_default_dtype()",
            "set64": "torch.set_default_dtype(torch.float64); out = torch.get_default_dtype()",
            "set_int": oracle.raises(TypeError, "torch.set_default_dtype(torch.int32)"),
        }
    )
