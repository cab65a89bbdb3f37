"""Game modules, one package per ruleset family; each defines ``MODULE``."""
