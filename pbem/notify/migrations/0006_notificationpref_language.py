"""The user's language moves to notify (NotificationPref.language): notify writes the mails in it
and may not read pbem.web's Profile. pbem.web's 0002 copies the existing choices here."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0005_digest_hours"),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationpref",
            name="language",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
    ]
