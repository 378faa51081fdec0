"""Layout: a template plus a localized card become drawing operations in card millimetres."""
