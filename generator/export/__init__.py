"""Exports beyond sheets: per-card PNG and PDF files for print services, Tabletop Simulator."""

from generator.export.job import ExportOptions, ExportResult, export

__all__ = ["ExportOptions", "ExportResult", "export"]
