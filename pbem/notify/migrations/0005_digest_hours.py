"""The digest every N hours (issue 14 item 6): NotificationPref.digest_hours (1..168, default 24)
and DigestRun keyed by (user, window_start) instead of (user, day).

A past daily run's day becomes the start of its 24-hour window, midnight UTC (the windows are
counted from the Unix epoch in UTC, so that is exactly the 24-hour window of that day); the
copy is done in Python so it means the same on SQLite and PostgreSQL. The stored mode value
`daily_digest` is kept (its label becomes "Digest")."""

from datetime import UTC, datetime, time

import django.core.validators
from django.db import migrations, models


def days_to_windows(apps, schema_editor):
    DigestRun = apps.get_model("notify", "DigestRun")
    for run in DigestRun.objects.all().only("pk", "day").iterator():
        start = datetime.combine(run.day, time(0), tzinfo=UTC)
        DigestRun.objects.filter(pk=run.pk).update(window_start=start, hours=24)


def windows_to_days(apps, schema_editor):
    DigestRun = apps.get_model("notify", "DigestRun")
    for run in DigestRun.objects.all().only("pk", "window_start").iterator():
        DigestRun.objects.filter(pk=run.pk).update(day=run.window_start.astimezone(UTC).date())


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0004_turn_begins_kind"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notificationpref",
            name="mode",
            field=models.CharField(
                choices=[("instant", "Instant"), ("daily_digest", "Digest")],
                default="instant",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="notificationpref",
            name="digest_hours",
            field=models.PositiveSmallIntegerField(
                default=24,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(168),
                ],
            ),
        ),
        migrations.AddConstraint(
            model_name="notificationpref",
            constraint=models.CheckConstraint(
                condition=models.Q(("digest_hours__gte", 1), ("digest_hours__lte", 168)),
                name="notify_pref_digest_hours_range",
            ),
        ),
        # DigestRun: (user, day) -> (user, window_start), with the window's length
        migrations.AddField(
            model_name="digestrun",
            name="window_start",
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name="digestrun",
            name="hours",
            field=models.PositiveSmallIntegerField(default=24),
        ),
        # nullable first, so that unapplying can add it back before the reverse copy fills it
        migrations.AlterField(
            model_name="digestrun",
            name="day",
            field=models.DateField(null=True),
        ),
        migrations.RunPython(days_to_windows, windows_to_days),
        migrations.RemoveConstraint(
            model_name="digestrun",
            name="notify_digest_user_day_uniq",
        ),
        migrations.RemoveField(
            model_name="digestrun",
            name="day",
        ),
        migrations.AlterField(
            model_name="digestrun",
            name="window_start",
            field=models.DateTimeField(),
        ),
        migrations.AddConstraint(
            model_name="digestrun",
            constraint=models.UniqueConstraint(
                fields=("user", "window_start"), name="notify_digest_user_window_uniq"
            ),
        ),
    ]
