"""The studio: the pack's cards and translations edited in the browser, each edit redrawn and
checked before anything is saved, and saved into the very file it came from.

``session`` holds the loaded pack and where each card was written; ``schemaform`` turns a kind's
JSON Schema into the fields of a form; ``live`` checks and draws one edited card;
``yamlcards`` (cards in a YAML file, written by :mod:`generator.load.yamledit`) and ``tableedit``
write changed values into YAML, CSV and XLSX files (and nothing else); ``saving`` checks a
write before it happens and guards against files changed on disk;
``translate`` is the translator's view (fit, glossary, token and tag checks, PO writing);
``pages`` renders the HTML, ``app`` routes requests, ``server`` adds the token, origin and body
checks and the security headers to pnp's local HTTP server (:mod:`generator.runtime.localserver`).
"""
