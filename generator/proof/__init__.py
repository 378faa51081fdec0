"""The proof page: every card's faces as pictures of the printed PDF, with its findings pinned on.

``collect`` runs the pipeline for each locale and gathers what the page shows, ``pictures``
renders the faces (only those not rendered before), ``page`` writes the HTML, ``preview`` saves a
static proof and ``watch`` serves one that rebuilds on every save.
"""
