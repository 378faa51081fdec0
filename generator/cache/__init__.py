"""The one cache layer: where cached entries live, how they are named, checked and written.

Everything pnp keeps between runs (compiled art, parsed files, schema verdicts, laid-out faces,
the record of a build's inputs) goes through here: one folder policy, one key recipe that
includes the libraries that shape an entry, one switch that turns every cache off.
"""
