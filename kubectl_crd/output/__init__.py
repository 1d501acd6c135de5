"""Printers, one per output format, and the terminal wrapper that owns colour."""
