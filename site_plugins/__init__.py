"""MkDocs plugins that turn content/ into wiki pages at build time."""
