"""A file path that ReportLab names by the file's content, not by where the file lies.

``Canvas.drawImage`` names an image's XObject after the text of the path it is given
(``'%s' % image``), so the same pack built from two folders gave PDFs that differed in those
names: same input, different bytes. The string's value is still the path, which is what
ReportLab opens. A module of its own, with no imports: bench/replay_reportlab.py unpickles
recorded calls that hold such paths and must not import pnp's pipeline to do so.
"""

from __future__ import annotations


class ContentNamedPath(str):
    """``path`` whose ``str()`` is ``content_name`` (a digest of the file's bytes)."""

    content_name: str

    def __new__(cls, path: str, content_name: str) -> ContentNamedPath:
        named = super().__new__(cls, path)
        named.content_name = content_name
        return named

    def __str__(self) -> str:
        return self.content_name

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (ContentNamedPath, (str.__str__(self), self.content_name))
