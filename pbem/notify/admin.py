"""Read-only admin for the outbox; endpoint secrets are never shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from pbem.notify.models import DigestRun, Notification, NotificationPref, WebhookEndpoint

if TYPE_CHECKING:
    NotificationAdminBase = admin.ModelAdmin[Notification]
    WebhookEndpointAdminBase = admin.ModelAdmin[WebhookEndpoint]
else:  # ModelAdmin is not subscriptable at run time
    NotificationAdminBase = WebhookEndpointAdminBase = admin.ModelAdmin


@admin.register(Notification)
class NotificationAdmin(NotificationAdminBase):
    list_display = ("id", "kind", "channel", "user", "role", "status", "attempts", "created_at")
    list_filter = ("status", "channel", "kind")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(WebhookEndpointAdminBase):
    list_display = ("id", "user", "url", "active", "failures")
    exclude = ("secret",)


admin.site.register(NotificationPref)
admin.site.register(DigestRun)
