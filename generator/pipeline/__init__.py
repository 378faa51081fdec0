"""The stages run in order for a pack: load it with its game, validate (schema, rules,
cross-pack and locale checks), prepare the faces, and build the sheet files; also the checks
that need laid-out faces (preflight).
"""
