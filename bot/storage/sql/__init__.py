"""The schema migrations: ``NNNN_name.sql`` files, read by ``bot.storage.migrations``."""
