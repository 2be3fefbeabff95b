"""The unified job interface as a capability: read and cancel any job, on REST (v2) and MCP."""
