"""Reading a pack's files under one policy, with the position of every value.

YAML (one located loader on PyYAML), art file headers and sizes, and the pack file policy
(what may be read, how large, never outside the pack). YAML written back goes through
``yamledit`` (ruamel.yaml's round-trip composer: only the changed characters change), which only
the commands that write load. Every later finding can point at
``file:line:col`` because this stage kept the positions.
"""
