"""A small group for the fair deal's tests: a 256-bit safe prime keeps them fast (the page
uses the groups of ``web.p2p.fair``)."""

from web.p2p.fair.group import Group

__all__ = ["SMALL"]

SMALL = Group(0xA066FCE9C48E856F589E4819FC7EFD726651CC2E7D4785CC4CF4891A1F492E33,
              "a 256-bit safe prime, for fast tests", exponent_bits=64)
