"""Typed, immutable objects that every stage after schema checking works with: cards, card
sets, decks, templates, and the Game contract that built-in and data games both fulfil.
"""
