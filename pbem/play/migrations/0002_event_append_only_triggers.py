"""Database triggers that refuse UPDATE and DELETE on play_event (PostgreSQL and SQLite).

The model already refuses save() of an existing event and delete(); these triggers make the
database itself refuse, so no bulk update, raw SQL or admin action can change the log. TRUNCATE
(a table owner's maintenance statement, also how Django's test runner empties tables between
transactional tests on PostgreSQL) is left to database permissions.
"""

from __future__ import annotations

from django.db import migrations

SQLITE = [
    """CREATE TRIGGER play_event_no_update BEFORE UPDATE ON play_event
       BEGIN SELECT RAISE(ABORT, 'play_event is append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER play_event_no_delete BEFORE DELETE ON play_event
       BEGIN SELECT RAISE(ABORT, 'play_event is append-only: DELETE refused'); END;""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS play_event_no_update;",
    "DROP TRIGGER IF EXISTS play_event_no_delete;",
]
POSTGRES = [
    """CREATE OR REPLACE FUNCTION play_event_append_only() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'play_event is append-only: % refused', TG_OP; END;
       $$ LANGUAGE plpgsql;""",
    """CREATE TRIGGER play_event_no_update_delete BEFORE UPDATE OR DELETE ON play_event
       FOR EACH ROW EXECUTE FUNCTION play_event_append_only();""",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS play_event_no_update_delete ON play_event;",
    "DROP FUNCTION IF EXISTS play_event_append_only();",
]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql, None)  # no params: the PL/pgSQL "%" is not a placeholder

    return run


class Migration(migrations.Migration):
    dependencies = [("play", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRES}),
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}),
        )
    ]
