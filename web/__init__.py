"""Web dashboard (FastAPI) for the table."""
