"""Services of the running process: both cores, atomic files and folders, package resources,
pauses of the garbage collector, the one local HTTP server (watch, studio), and the forgetting
of what the process remembered of files when a long-running command reads a pack again.

Each is written once so that every stage writes outputs the same safe way (whole or not at all)
and runs the same on Linux, macOS and Windows.
"""
