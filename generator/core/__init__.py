"""The vocabulary every stage speaks: findings, source locations, errors and limits.

Nothing here knows a pipeline stage or a game. A finding (code, severity, message, file:line:col)
is the one currency of every check, so that a user sees every problem of a pack in one run;
the limits are the ceilings that keep any input, however hostile, within seconds and bounded
memory.
"""
