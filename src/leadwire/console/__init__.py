"""The console: Leadwire in a browser, served by the app itself (docs/console.md)."""
