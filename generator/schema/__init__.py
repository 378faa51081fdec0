"""JSON Schema (2020-12): the schemas pnp ships, checking loaded documents against them with
findings a card author understands, and the export of schemas for editors.
"""
