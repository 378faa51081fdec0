"""Rendering: drawing operations become PDF through ReportLab (millimetres become points only
here), for sheets, lone card pages and the calibration page.
"""
