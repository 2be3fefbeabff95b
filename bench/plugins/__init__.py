"""Plugin modules the benchmarks load into Leadwire processes with `LEADWIRE_PLUGINS`."""
