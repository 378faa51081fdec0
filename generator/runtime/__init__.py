"""Services of the running process: both cores, atomic files and folders, package resources,
and pauses of the garbage collector.

Each is written once so that every stage writes outputs the same safe way (whole or not at all)
and runs the same on Linux, macOS and Windows.
"""
