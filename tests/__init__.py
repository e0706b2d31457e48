"""Tests for hubitat_dev_tools."""
