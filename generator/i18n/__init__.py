"""Translations: gettext catalogs read and written exactly as GNU gettext does, the
localization of card texts and template labels, and the messages extracted for translators.
"""
