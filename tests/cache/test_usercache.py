"""The cache layer's entries: written whole, read back only when intact and of their kind."""

from __future__ import annotations

from generator.cache.usercache import read_entry, write_entry

MAGIC = b"pnp-test-1\n"


def test_an_entry_reads_back_as_written(tmp_path):
    entry = tmp_path / "folder" / "abc"
    write_entry(entry, MAGIC, b"body \x00 bytes")
    assert read_entry(entry, MAGIC) == b"body \x00 bytes"
    assert [p.name for p in entry.parent.iterdir()] == ["abc"]  # no scratch file left


def test_a_damaged_entry_is_not_used(tmp_path):
    entry = tmp_path / "abc"
    write_entry(entry, MAGIC, b"the body")
    raw = entry.read_bytes()
    entry.write_bytes(raw[:-1] + b"X")  # same size, one byte changed
    assert read_entry(entry, MAGIC) is None
    entry.write_bytes(raw[:-3])  # cut short
    assert read_entry(entry, MAGIC) is None


def test_an_entry_of_another_kind_is_not_used(tmp_path):
    entry = tmp_path / "abc"
    write_entry(entry, b"pnp-other-1\n", b"the body")
    assert read_entry(entry, MAGIC) is None
    assert read_entry(tmp_path / "missing", MAGIC) is None
