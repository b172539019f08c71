"""PostgreSQL migrations, numbered as the SQLite ones in the folder above (same versions)."""
