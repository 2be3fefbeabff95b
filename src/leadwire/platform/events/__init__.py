"""Append-only event log and its followers (SSE streams, live views)."""
