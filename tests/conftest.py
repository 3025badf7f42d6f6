"""Shared by both tiers. Its folder (tests/) goes on sys.path so that ``import testkit`` works."""
