"""Services of the running process: both cores, atomic files and folders, package resources,
pauses of the garbage collector, and the one local HTTP server (watch, studio).

Each is written once so that every stage writes outputs the same safe way (whole or not at all)
and runs the same on Linux, macOS and Windows.
"""
