"""The command-line stage: ``pnp`` and its commands, on click.

Thin wrappers around the pipeline: each command parses its options, calls the pipeline and
turns what comes back into text and an exit code. :mod:`generator.cli.main` holds the root
command, the table of commands and the exit-code policy; then one module a command (or a group
of commands), the options they share (:mod:`~generator.cli.params`), the number types that
refuse NaN and out-of-range values (:mod:`~generator.cli.values`), and the progress bar
(:mod:`~generator.runtime.progress`).

A command's module is imported to run the command, and also to show its help or complete a
word after it on the command line, which must stay quick: so each command imports the pipeline
inside its own function, on purpose, and only light modules (click, findings) at the top.
"""
