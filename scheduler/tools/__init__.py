"""Thin command-line entry points: `ktir-opt` and `ktir`."""
