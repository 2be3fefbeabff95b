"""Leadwire."""
