"""The starter game that ``pnp new`` writes: ``game/`` is package data, ``newgame`` copies it.

Kept as files, not strings in Python, so that the starter is itself an ordinary pack folder:
the tests validate and build it as it is, and a designer reads the same files they get.
"""
