"""JSON Schemas (draft 2020-12) of the Путь Командора card kinds and deck files."""
