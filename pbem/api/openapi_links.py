"""OpenAPI links between operations (so that schemathesis runs stateful, and a client reading
the document learns that a created game's `id` feeds every `/games/{game_id}/...` operation and
an order's intake id feeds `/intakes/{intake_id}`).

drf-spectacular has no per-response links, so a postprocessing hook adds them to the finished
document: for each producer (operation, status, where the id is in the body) a link to every
operation whose path takes that id.
"""

from __future__ import annotations

from typing import Any

# (method, path, status) -> (the path parameter it produces, the runtime expression of its value)
PRODUCERS: dict[tuple[str, str, str], tuple[str, str]] = {
    ("post", "/api/v1/games", "201"): ("game_id", "$response.body#/id"),
    ("get", "/api/v1/games/{game_id}", "200"): ("game_id", "$response.body#/id"),
    ("post", "/api/v1/games/{game_id}/actions", "202"): (
        "intake_id",
        "$response.body#/intake/id",
    ),
    ("post", "/api/v1/games/{game_id}/actions", "201"): (
        "intake_id",
        "$response.body#/intake/id",
    ),
}


def _link_name(method: str, path: str) -> str:
    words = [w.strip("{}") for w in path.removeprefix("/api/v1/").split("/") if w]
    return method.upper() + "_" + "_".join(words)


def add_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """The postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    paths: dict[str, dict[str, Any]] = result.get("paths", {})
    for (method, path, status), (param, expression) in PRODUCERS.items():
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        links = response.setdefault("links", {})
        for target, operations in sorted(paths.items()):
            if "{" + param + "}" not in target:
                continue
            for target_method, operation in sorted(operations.items()):
                if not isinstance(operation, dict) or "operationId" not in operation:
                    continue
                parameters = {param: expression}
                if param != "game_id" and "{game_id}" in target:
                    parameters["game_id"] = "$request.path.game_id"
                links[_link_name(target_method, target)] = {
                    "operationId": operation["operationId"],
                    "parameters": parameters,
                }
    return result
