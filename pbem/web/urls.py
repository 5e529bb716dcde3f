"""The pages' routes (mounted at the site root by pbem.urls), names in the namespace `web`."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from pbem.web import account_views, game_views, layout_views, lobby_views, rule_views
from pbem.web import ccn_scenario_views as ccn
from pbem.web import vf_army_views as vf

app_name = "web"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", lobby_views.lobby, name="lobby"),
    path("games/new", lobby_views.game_create_view, name="game-create"),
    path("games/<uuid:game_id>/", game_views.game_page, name="game"),
    path("games/<uuid:game_id>/live", game_views.game_fragment, name="game-fragment"),
    path("games/<uuid:game_id>/order", game_views.game_order, name="game-order"),
    path("games/<uuid:game_id>/pause", game_views.game_pause, name="game-pause"),
    path(
        "games/<uuid:game_id>/join/<str:role>",
        lobby_views.seat_action,
        {"action": "join"},
        name="game-join",
    ),
    path(
        "games/<uuid:game_id>/accept/<str:role>",
        lobby_views.seat_action,
        {"action": "accept"},
        name="game-accept",
    ),
    path(
        "games/<uuid:game_id>/decline/<str:role>",
        lobby_views.seat_action,
        {"action": "decline"},
        name="game-decline",
    ),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/verify/", account_views.signup_confirm, name="signup-verify"),
    path("accounts/login/", account_views.login_view, name="login"),
    path("accounts/logout/", account_views.logout_view, name="logout"),
    path("accounts/profile/", account_views.profile, name="profile"),
    path("accounts/profile/token", account_views.token_regenerate, name="token-regenerate"),
    path(
        "accounts/profile/absences/<int:absence_id>/withdraw",
        account_views.absence_withdraw,
        name="absence-withdraw",
    ),
    path("accounts/email/confirm/", account_views.email_confirm, name="email-confirm"),
    path("accounts/password/reset/", account_views.password_reset, name="password-reset"),
    path(
        "accounts/password/reset/sent/",
        account_views.password_reset_done,
        name="password-reset-done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        account_views.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path(
        "accounts/password/reset/done/",
        account_views.password_reset_complete,
        name="password-reset-complete",
    ),
    path("rules/<str:ruleset_id>/<str:rule>/", rule_views.rule_page, name="rule"),
    path("i18n/language", account_views.set_language, name="set-language"),
    path("staff/layout/", layout_views.layout_index, name="layout-index"),
    path("staff/layout/<str:board_name>/", layout_views.layout_edit, name="layout-edit"),
    path("staff/layout/<str:board_name>/check", layout_views.layout_check, name="layout-check"),
    path("ccn/scenarios/", ccn.scenario_list, name="ccn-scenarios"),
    path("vf/armies/check", vf.army_check, name="vf-army-check"),
    path("ccn/scenarios/new", ccn.scenario_new, name="ccn-scenario-new"),
    path("ccn/scenarios/upload", ccn.scenario_upload, name="ccn-scenario-upload"),
    path("ccn/scenarios/<int:pk>/", ccn.scenario_detail, name="ccn-scenario"),
    path("ccn/scenarios/<int:pk>/edit", ccn.scenario_edit, name="ccn-scenario-edit"),
    path("ccn/scenarios/<int:pk>/download", ccn.scenario_download, name="ccn-scenario-download"),
    path("ccn/scenarios/<int:pk>/delete", ccn.scenario_delete, name="ccn-scenario-delete"),
]
