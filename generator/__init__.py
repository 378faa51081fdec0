"""pnp: print-and-play card sheets from YAML card definitions.

The pipeline runs in one direction: load -> schema -> model -> rules -> localize -> layout ->
impose -> render -> manifest. Each stage lives in its own module; game-specific knowledge lives
only in ``generator.games.<game>``.
"""

__version__ = "0.1.0"
