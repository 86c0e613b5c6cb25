"""Fixtures of the packaging tests."""

from tests.packaging.linuxbuild import linux_build

__all__ = ["linux_build"]
