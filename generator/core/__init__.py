"""The vocabulary every stage speaks: findings, source locations, errors and limits.

Nothing here knows a pipeline stage or a game. A finding (code, severity, message, file:line:col)
is the one currency of every check, so that a user sees every problem of a pack in one run;
the limits are the ceilings that keep any input, however hostile, within seconds and bounded
memory.

The rule for records, in every package: every record in generator/ is a msgspec Struct, frozen
(and ``gc=False`` where it holds only numbers, strings and tuples of them) unless it is filled in
place by the code that makes it, and no record is a dataclass, a NamedTuple or a class with a
hand-written ``__init__`` (a class with behaviour and state, such as a server or a lazy loader,
is not a record); a field that is no part of a record's value stays out of its equality and hash
through :class:`generator.core.records.PartlyCompared`.
"""
