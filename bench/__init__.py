"""Benchmarks (`make bench`): they print figures; nothing here asserts a timing."""
