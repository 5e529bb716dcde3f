"""The user's language lives in notify (NotificationPref.language) from now on: notify writes the
mails in it, pbem.web shows the pages in it (pbem.notify.language). Every chosen language is
copied there (a NotificationPref row is created with the defaults for a user without one), then
Profile.language is removed. Backwards: the field comes back and the chosen languages are copied
back into the profiles (a profile is created with the defaults for a user without one)."""

from django.db import migrations, models


def profile_to_pref(apps, schema_editor):
    Profile = apps.get_model("web", "Profile")
    NotificationPref = apps.get_model("notify", "NotificationPref")
    chosen = Profile.objects.exclude(language="").values_list("user_id", "language")
    for user_id, language in chosen.iterator():
        NotificationPref.objects.update_or_create(user_id=user_id, defaults={"language": language})


def pref_to_profile(apps, schema_editor):
    Profile = apps.get_model("web", "Profile")
    NotificationPref = apps.get_model("notify", "NotificationPref")
    chosen = NotificationPref.objects.exclude(language="").values_list("user_id", "language")
    for user_id, language in chosen.iterator():
        Profile.objects.update_or_create(user_id=user_id, defaults={"language": language})


class Migration(migrations.Migration):
    dependencies = [
        ("web", "0001_initial"),
        ("notify", "0006_notificationpref_language"),
    ]

    operations = [
        migrations.RunPython(profile_to_pref, pref_to_profile),
        migrations.RemoveField(
            model_name="profile",
            name="language",
        ),
    ]
