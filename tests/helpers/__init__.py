"""Helpers shared by test modules of several folders (no tests here)."""
