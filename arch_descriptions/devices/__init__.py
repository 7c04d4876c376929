"""Shipped architecture descriptions (package data: the *.mlir files), loaded by name."""
