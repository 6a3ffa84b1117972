"""The wire contract: pydantic models of every state, move, option set, request, response and event."""
