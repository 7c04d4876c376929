"""Shared pytest setup: hypothesis profiles (`ci` fast, `thorough`), selected with the
KTIR_HYPOTHESIS_PROFILE environment variable (default `ci`)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("KTIR_HYPOTHESIS_PROFILE", "ci"))
