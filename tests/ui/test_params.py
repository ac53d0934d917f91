"""The shared parameters: URL parsing as untrusted input, round trips, slider stops (no Streamlit needed)."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given, settings, strategies as st

import gaussmech_ui.params as params_module
from gaussmech_core.registry_types import Setting
from gaussmech_ui.params import (
    DEFAULTS,
    PARAMETERS,
    URL_KEYS,
    make_setting,
    nearest_stop,
    parse_query,
    parse_value,
    quote_untrusted,
    slider_options,
    to_query,
)


def test_doctests_pass():
    result = doctest.testmod(params_module)
    assert result.attempted > 0 and result.failed == 0


def test_url_keys_are_exactly_the_agreed_ones():
    assert set(URL_KEYS.values()) == {"epsilon", "delta", "sensitivity", "order", "dim", "l1", "lower", "upper"}


def test_every_parameter_has_help_and_a_valid_default():
    for name, parameter in PARAMETERS.items():
        assert len(parameter.help) > 40, name
        assert parse_value(parameter, to_query(DEFAULTS)[parameter.url_key]) == DEFAULTS[name]
    assert isinstance(make_setting(DEFAULTS), Setting)


def test_help_texts_say_what_users_need():
    assert "smaller ε is more private" in PARAMETERS["epsilon"].help.lower()
    assert "probability" in PARAMETERS["delta"].help
    assert "l2 sensitivity" in PARAMETERS["sensitivity"].help
    assert "Δ₁ = √d·Δ" in PARAMETERS["l1_model"].help
    assert "p = 1" in PARAMETERS["order"].help and "p = 2" in PARAMETERS["order"].help


@pytest.mark.parametrize(
    ("key", "raw", "fragment"),
    [
        ("epsilon", "-1", "outside the allowed range"),
        ("epsilon", "0", "outside the allowed range"),
        ("epsilon", "1e999", "too large"),
        ("epsilon", "1001", "outside the allowed range"),
        ("delta", "2", "outside the allowed range"),
        ("delta", "1", "outside the allowed range"),
        ("delta", "1e-301", "outside the allowed range"),
        ("delta", "0", "outside the allowed range"),
        ("dim", "abc", "not a number"),
        ("dim", "2.5", "not a whole number"),
        ("dim", "0", "outside the allowed range"),
        ("dim", "2e6", "outside the allowed range"),
        ("order", "nan", "not a number"),
        ("order", "0.5", "outside the allowed range"),
        ("order", "11", "outside the allowed range"),
        ("sensitivity", "-inf", "too large"),
        ("sensitivity", "0", "outside the allowed range"),
        ("sensitivity", "", "empty"),
        ("l1", "both", "not a known choice"),
    ],
)
def test_malformed_query_values_give_a_warning_and_keep_the_fallback(key, raw, fragment):
    values, warnings = parse_query({key: raw})
    assert values == {}
    assert len(warnings) == 1
    message = warnings[0]
    assert f"`{key}={raw}`" in message, "the warning names the bad value, quoted as code"
    assert fragment in message, "the warning says what was wrong"
    assert "instead" in message, "the warning says which value is used instead"


def test_untrusted_text_is_quoted_as_code_and_shortened():
    _, warnings = parse_query({"dim": "[win a prize](http://example.com)` **now**" + "x" * 100})
    message = warnings[0]
    assert message.count("`") == 2, "one code span; the backtick in the link cannot close it"
    assert len(message) < 200
    assert quote_untrusted("a\nb") == "`a b`"


def test_warning_names_the_value_used_instead():
    _, warnings = parse_query({"epsilon": "-1"}, fallback={**DEFAULTS, "epsilon": 0.3})
    assert warnings[0].endswith("Using ε = 0.3 instead.")


def test_good_query_values_are_read():
    values, warnings = parse_query(
        {"epsilon": "0.5", "delta": "1e-10", "sensitivity": "2", "order": "3.5", "dim": "100", "l1": "all_coordinates"}
    )
    assert warnings == []
    assert values == {
        "epsilon": 0.5,
        "delta": 1e-10,
        "sensitivity": 2.0,
        "order": 3.5,
        "dim": 100,
        "l1_model": "all_coordinates",
    }
    assert isinstance(values["dim"], int)


def test_extreme_but_allowed_values_are_accepted():
    values, warnings = parse_query({"epsilon": "1e-6", "delta": "1e-300", "dim": "1000000", "order": "10"})
    assert warnings == []
    assert values == {"epsilon": 1e-6, "delta": 1e-300, "dim": 1_000_000, "order": 10.0}
    assert parse_value("delta", "0.999999") == 0.999999


def test_unknown_keys_are_ignored_and_repeated_keys_use_the_last_value():
    values, warnings = parse_query({"page": "x", "epsilon": ["0.1", "0.2"]})
    assert values == {"epsilon": 0.2} and warnings == []


def test_several_bad_values_give_one_warning_each():
    values, warnings = parse_query({"epsilon": "-1", "delta": "2", "dim": "abc", "order": "nan", "sensitivity": "3"})
    assert values == {"sensitivity": 3.0}
    assert len(warnings) == 4


def _values_strategy():
    return st.fixed_dictionaries(
        {
            "epsilon": st.floats(1e-6, 1e3),
            "delta": st.floats(1e-300, 0.999999),
            "sensitivity": st.floats(1e-6, 1e6),
            "order": st.floats(1.0, 10.0),
            "dim": st.integers(1, 1_000_000),
            "l1_model": st.sampled_from(["one_coordinate", "all_coordinates"]),
        }
    )


@settings(max_examples=200, deadline=None)
@given(_values_strategy())
def test_query_round_trip_is_exact(values):
    parsed, warnings = parse_query(to_query(values))
    assert warnings == []
    assert parsed == values


@pytest.mark.parametrize("name", ["epsilon", "delta", "dim"])
def test_stops_are_log_scaled_sorted_and_span_the_range(name):
    parameter = PARAMETERS[name]
    stops = parameter.stops
    assert list(stops) == sorted(stops) and len(set(stops)) == len(stops)
    assert stops[0] == parameter.lower or name == "delta"  # δ's slider spans the usual range, its box the rest
    assert stops[-1] == parameter.upper or (parameter.upper_open and stops[-1] < parameter.upper)
    steps = [math.log10(b / a) for a, b in zip(stops, stops[1:])]
    assert max(steps) <= 1.0 + 1e-12, "at most a decade between stops"
    assert DEFAULTS[name] in stops


def test_delta_slider_spreads_the_deltas_people_use():
    """Issue 21: 1e-10 … 1e-3 take 7 of the slider's 16 decades (not its last 6 px); the box reaches 1e-300."""
    stops = PARAMETERS["delta"].stops
    assert stops[0] == 1e-16 and stops[-1] == 0.5
    usual = [stop for stop in stops if 1e-10 <= stop <= 1e-3]
    assert len(usual) / len(stops) > 0.4
    assert PARAMETERS["delta"].lower == 1e-300  # the box and links still take any δ in [1e-300, 1)
    assert 1e-100 in slider_options("delta", 1e-100)


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 1e3))
def test_nearest_stop_is_within_half_a_step_on_a_log_scale(epsilon):
    stops = PARAMETERS["epsilon"].stops
    widest_step = max(math.log10(b / a) for a, b in zip(stops, stops[1:]))
    stop = nearest_stop("epsilon", epsilon)
    assert stop in stops
    assert abs(math.log10(stop / epsilon)) <= 0.5 * widest_step + 1e-12


def test_make_setting_carries_every_value():
    setting = make_setting({**DEFAULTS, "epsilon": 2.0, "dim": 7, "l1_model": "all_coordinates", "sensitivity": 3.0})
    assert (setting.epsilon, setting.dim, setting.l1_model) == (2.0, 7, "all_coordinates")
    assert setting.l1_sensitivity == pytest.approx(math.sqrt(7) * 3.0)
