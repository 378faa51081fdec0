"""Checks declared as data: rulebooks (stable code, level, severity, the rule they cite), the
rules table ``pnp rules`` prints, and the CEL engine that data games write their rules in.
"""
