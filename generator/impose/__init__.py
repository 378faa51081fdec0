"""Imposition: card faces placed on sheets (grid, margins, gutters, bleed), backs mirrored for
the duplex flip, and the sheet marks (crop, cut, registration, label), all in millimetres.
"""
