"""Reading a pack's files under one policy, with the position of every value.

YAML (one located loader on PyYAML), art file headers and sizes, and the pack file policy
(what may be read, how large, never outside the pack). Every later finding can point at
``file:line:col`` because this stage kept the positions.
"""
