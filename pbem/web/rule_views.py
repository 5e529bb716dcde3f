"""The text of a rule, linked from a refusal's rule id (the registry's rules-text hook): public,
like the rulebook. Unknown rulesets and rule ids are a 404; the path admits only rule-id
characters, so no input names a file."""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.registry import rule_text, ruleset_rules
from pbem.play.rulesets import ruleset_get

RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+){1,3}$")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_EMPH = re.compile(r"(?<![*\w])\*(?!\s)([^*]+?)\*(?![*\w])")
_RULE_REF = re.compile(r"\b(NT(?:-TEAM)?-\d+)\b")


def rule_href(ruleset_id: str, rule: str) -> str:
    """The page of `rule` when the ruleset has its text, else "" (a form error, an AMB id)."""
    if not RULE_ID.match(rule):
        return ""
    try:
        found = rule_text(ruleset_id, rule)
    except KeyError:
        return ""
    return reverse("web:rule", args=[ruleset_id, rule]) if found else ""


def _html(ruleset_id: str, text: str) -> SafeString:
    """The digest's markdown emphasis, code and line breaks as HTML, rule references linked;
    everything else escaped."""
    out = str(escape(text))
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    out = _EMPH.sub(r"<em>\1</em>", out)

    def link(m: re.Match[str]) -> str:
        href = rule_href(ruleset_id, m.group(1))
        return f'<a href="{href}">{m.group(1)}</a>' if href else m.group(1)

    out = _RULE_REF.sub(link, out)
    return mark_safe(out.replace("\n", "<br>"))  # noqa: S308 (escaped above, tags ours)


def rule_page(request: HttpRequest, ruleset_id: str, rule: str) -> HttpResponse:
    if not RULE_ID.match(rule):
        raise Http404("no such rule")
    try:
        found = rule_text(ruleset_id, rule)
        title = ruleset_get(ruleset_id).title
    except KeyError:
        raise Http404("no such ruleset") from None
    if found is None:
        raise Http404("no such rule")
    context = {
        "ruleset_title": title,
        "rule": found,
        "text_html": _html(ruleset_id, found.text),
        "source": rules.source if (rules := ruleset_rules(ruleset_id)) else "",
    }
    return render(request, "web/rule.html", context)
