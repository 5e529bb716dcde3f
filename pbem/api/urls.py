"""Routes of the REST API, mounted at /api/v1/ (exact paths are a contract)."""

from __future__ import annotations

from django.urls import path

from pbem.api.boards import BoardDetailApi, BoardListApi
from pbem.api.deadlines import (
    AbsenceCancelApi,
    AbsenceListDeclareApi,
    DeadlineApi,
    PauseApi,
    PauseResumeApi,
    SeatSubstituteSetApi,
)
from pbem.api.games import (
    GameDetailApi,
    GameEventsApi,
    GameListCreateApi,
    GameViewApi,
    RulesetListApi,
    SeatJoinApi,
)
from pbem.api.invitations import InvitationListApi, SeatAcceptApi, SeatDeclineApi
from pbem.api.notification_prefs import NotificationPrefsApi
from pbem.api.orders import IntakeDetailApi, OrderSubmitApi
from pbem.api.team import (
    ArchiveApi,
    CommitmentsApi,
    ConferenceMessagesApi,
    TeamInboxApi,
    TeamOutboxApi,
)
from pbem.api.umpire import UmpireQueueApi
from pbem.api.users import UserSignupApi, UserVerifyApi
from pbem.api.verify import GameVerifyApi
from pbem.api.vf_armies import ArmyCheckApi
from pbem.api.webhooks import WebhookDeleteApi, WebhookListCreateApi

app_name = "api"

urlpatterns = [
    path("games", GameListCreateApi.as_view(), name="games"),
    path("games/<str:game_id>", GameDetailApi.as_view(), name="game-detail"),
    path("games/<str:game_id>/seats/<str:role>/join", SeatJoinApi.as_view(), name="seat-join"),
    # invitations and sign-up (pbem.api.invitations, pbem.api.users)
    path(
        "games/<str:game_id>/seats/<str:role>/accept", SeatAcceptApi.as_view(), name="seat-accept"
    ),
    path(
        "games/<str:game_id>/seats/<str:role>/decline",
        SeatDeclineApi.as_view(),
        name="seat-decline",
    ),
    path("invitations", InvitationListApi.as_view(), name="invitations"),
    path("users", UserSignupApi.as_view(), name="users"),
    path("users/verify", UserVerifyApi.as_view(), name="users-verify"),
    # the caller's email preference: instant or a digest (pbem.api.notification_prefs)
    path("users/me/notifications", NotificationPrefsApi.as_view(), name="users-me-notifications"),
    path("games/<str:game_id>/view", GameViewApi.as_view(), name="game-view"),
    path("games/<str:game_id>/events", GameEventsApi.as_view(), name="game-events"),
    path("games/<str:game_id>/verify", GameVerifyApi.as_view(), name="game-verify"),
    path("games/<str:game_id>/actions", OrderSubmitApi.as_view(), name="order-submit"),
    path("intakes/<str:intake_id>", IntakeDetailApi.as_view(), name="intake-detail"),
    path("rulesets", RulesetListApi.as_view(), name="rulesets"),
    # the boards of a ruleset (pbem.api.boards)
    path("rulesets/<str:ruleset_id>/boards", BoardListApi.as_view(), name="ruleset-boards"),
    path(
        "rulesets/<str:ruleset_id>/boards/<str:board>",
        BoardDetailApi.as_view(),
        name="ruleset-board",
    ),
    # team play (pbem.api.team; digest napoleons-triumph-team.md 3.8)
    path("games/<str:game_id>/team/orders/inbox", TeamInboxApi.as_view(), name="team-inbox"),
    path("games/<str:game_id>/team/orders/outbox", TeamOutboxApi.as_view(), name="team-outbox"),
    path(
        "games/<str:game_id>/team/conference/messages",
        ConferenceMessagesApi.as_view(),
        name="team-conference-messages",
    ),
    path(
        "games/<str:game_id>/orders/commitments",
        CommitmentsApi.as_view(),
        name="orders-commitments",
    ),
    path("games/<str:game_id>/orders/archive", ArchiveApi.as_view(), name="orders-archive"),
    path("webhooks", WebhookListCreateApi.as_view(), name="webhooks"),
    path("webhooks/<str:webhook_id>", WebhookDeleteApi.as_view(), name="webhook-delete"),
    # deadlines, pauses, substitutes and absences (pbem.api.deadlines)
    path("games/<str:game_id>/deadline", DeadlineApi.as_view(), name="game-deadline"),
    path("games/<str:game_id>/pause", PauseApi.as_view(), name="game-pause"),
    path("games/<str:game_id>/resume", PauseResumeApi.as_view(), name="game-resume"),
    path(
        "games/<str:game_id>/seats/<str:role>/substitute",
        SeatSubstituteSetApi.as_view(),
        name="seat-substitute",
    ),
    path("absences", AbsenceListDeclareApi.as_view(), name="absences"),
    path("umpire/queue", UmpireQueueApi.as_view(), name="umpire-queue"),
    path("vf/armies/check", ArmyCheckApi.as_view(), name="vf-army-check"),
    path("absences/<str:absence_id>", AbsenceCancelApi.as_view(), name="absence-cancel"),
]
