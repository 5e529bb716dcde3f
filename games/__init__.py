"""Pure rules engines. Never imports django, pbem or celery (checked by import-linter)."""
