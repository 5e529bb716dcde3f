"""Read an inbound mail: who sent it, whether it is automatic, and the lines that may be orders.

Pure standard library (the `email` package with `policy.default`, `html.parser`), no Django and
no database, so every mail client quirk is testable on its own:

- `mail_read(raw, envelope_from)` never raises, whatever the bytes: a part that cannot be read
  is named in `Mail.problems` instead. The body is the first text/plain part that is not an
  attachment, else the first text/html part turned into text (its <blockquote>s, the quoted
  report, dropped); quoted-printable and base64 are decoded with the declared charset.
  Forwarded messages attached as message/rfc822 are never read as the body. Its time is
  bounded too (see MAX_RAW_HEADER_CHARS: the stdlib parsers are quadratic on some input).
- `Mail.automatic` says why a mail must never be answered (auto-replies, bounces, list mail):
  answering those is how mail loops start. The null envelope sender counts when the caller
  passes it as "<>" (aiosmtpd reports `MAIL FROM:<>` so); "" means the sender is not known.
- `order_lines(body)` keeps the player's own text: it stops at the signature, the attribution
  of a top-posted quote ("On ... wrote:"), an "Original Message" or forwarded-message marker,
  and skips blank lines, "#" comments and ">" quoted lines. An attribution followed by quoted
  lines is skipped rather than stopped at, so replies written below the quote work too.
- `sections(lines)` splits a reply to a digest at its `== game <uuid> as <role> ==` lines.

Bounds: `order_lines` returns at most MAX_ORDER_LINES + 1 lines (one more than allowed, so the
caller can refuse "too many lines" without reading the rest); a line longer than
MAX_LINE_CHARS is returned whole, not cut, so that the caller refuses it naming its line
rather than applying part of an order. The raw mail is read up to MAX_READ_BYTES.
"""

from __future__ import annotations

import codecs
import contextlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import EmailPolicy
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

MAX_READ_BYTES = 4 * 1024 * 1024  # the store refuses far less (PBEM MAX_MAIL_BYTES)
MAX_ORDER_LINES = 500
MAX_LINE_CHARS = 500
MAX_HEADER_CHARS = 998  # RFC 5322's line limit
MAX_ADDRESS_CHARS = 320
MAX_PARTS = 200  # MIME parts looked at
# the stdlib's parsers take quadratic time on some inputs: a header of 500 KB, or thousands of
# boundary lines, cost seconds; longer headers are cut before they are parsed, and a mail with
# more lines starting with "--" than this is read for its headers only
MAX_RAW_HEADER_CHARS = 4000
MAX_BOUNDARY_LINES = 1000


class _Policy(EmailPolicy):
    """`email.policy.default`, with every header cut to MAX_RAW_HEADER_CHARS before parsing."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        return super().header_fetch_parse(name, value[:MAX_RAW_HEADER_CHARS])  # type: ignore[no-any-return]


_POLICY = _Policy()

Lines = tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Mail:
    """What the server needs of one inbound mail."""

    message_id: str  # without <>; "" if none
    from_addr: str  # the lowercased addr-spec of From; "" if none or unreadable
    reply_to_addr: str  # the same for Reply-To
    subject: str
    in_reply_to: str  # the first msg-id of In-Reply-To, without <>; "" if none
    body: str  # the plain text chosen
    lines: Lines  # order_lines(body)
    automatic: str  # "" or why this mail must never be answered
    attachments_only: bool  # no text part, but attachments
    problems: tuple[str, ...]  # e.g. "undecodable", "unknown_charset", "truncated"


# --- headers --------------------------------------------------------------------------------------


def _header(msg: Message, name: str) -> str:
    """A header's decoded text (unfolded, bounded), "" when missing or unreadable."""
    try:
        value = msg.get(name)
        text = "" if value is None else str(value)
    except Exception:  # a broken header is a missing one
        return ""
    return " ".join(text.split())[:MAX_HEADER_CHARS]


def _msg_id(value: str) -> str:
    """The first `<id>` of a Message-ID or In-Reply-To value, without the brackets."""
    start = value.find("<")
    end = value.find(">", start + 1)
    if start >= 0 and end > start:
        return value[start + 1 : end].strip()
    words = value.split()
    return words[0].strip("<>") if words else ""


def _address(msg: Message, name: str) -> str:
    """The lowercased addr-spec of the first address of a header; "" if none."""
    spec = ""
    try:
        header = msg.get(name)
        addresses = getattr(header, "addresses", ()) if header is not None else ()
        if addresses:
            spec = str(addresses[0].addr_spec)
    except Exception:  # fall back on the lenient parser below
        spec = ""
    if not spec:
        raw = _header(msg, name)
        try:
            pairs = getaddresses([raw]) if raw else []
        except Exception:  # no address then
            pairs = []
        spec = pairs[0][1] if pairs else ""
    spec = spec.strip().lower()
    if len(spec) > MAX_ADDRESS_CHARS or "@" not in spec or spec.startswith("<"):
        return ""
    return spec


_BULK = {"bulk", "junk", "list"}
_DAEMONS = {"mailer-daemon", "postmaster"}


def _automatic(msg: Message, envelope_from: str, parts: Sequence[Message]) -> str:
    """Why this mail is an auto-reply, a bounce or list mail; "" for a person's mail."""
    auto = _header(msg, "Auto-Submitted").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(msg, "Precedence").strip().lower()
    if precedence in _BULK:
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond"):
        if name in msg:
            return f"{name} header"
    if "List-Id" in msg:
        return "List-Id header (list mail)"
    for part in parts:
        kind = part.get_content_type()
        if kind in ("multipart/report", "message/delivery-status"):
            return f"a delivery report ({kind})"
    sender = _address(msg, "From")
    if not sender:
        _, sender = parseaddr(_header(msg, "From"))
    if sender.lower().partition("@")[0] in _DAEMONS:
        return f"sent by {sender.lower().partition('@')[0]}"
    if envelope_from.strip() == "<>":
        return "empty envelope sender (a bounce)"
    if _header(msg, "Return-Path").replace(" ", "") == "<>":
        return "empty Return-Path (a bounce)"
    return ""


# --- the body -------------------------------------------------------------------------------------


def _parts(msg: Message) -> Iterator[Message]:
    """Every part, depth first, without going into attached messages (message/*)."""
    stack = [msg]
    seen = 0
    while stack and seen < MAX_PARTS:
        part = stack.pop()
        seen += 1
        yield part
        if part.is_multipart() and part.get_content_maintype() != "message":
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend(p for p in reversed(payload) if isinstance(p, Message))


def _is_attachment(part: Message) -> bool:
    if part.get_content_maintype() == "message":
        return True
    try:
        disposition = part.get_content_disposition()
        filename = part.get_filename()
    except Exception:  # an unreadable disposition: read the part
        return False
    return disposition == "attachment" or filename is not None


def _decode(part: Message, problems: list[str]) -> str:
    """The part's text: transfer encoding undone, then decoded with its declared charset."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return ""
    try:
        charset = part.get_content_charset() or "us-ascii"
        codecs.lookup(charset)
    except (LookupError, ValueError, TypeError):
        problems.append("unknown_charset")
        charset = "utf-8"
    try:
        return data.decode(charset)
    except (UnicodeError, LookupError):
        pass
    if charset in ("us-ascii", "ascii"):  # undeclared or ASCII, yet 8-bit: clients mean UTF-8
        try:
            return data.decode("utf-8")
        except UnicodeError:
            pass
    problems.append("undecodable")
    try:
        return data.decode(charset, errors="replace")
    except (UnicodeError, LookupError):
        return data.decode("utf-8", errors="replace")


_BLOCKS = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
    "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
_DROPPED = {"style", "script", "head", "title", "blockquote", "template"}


class _HtmlText(HTMLParser):
    """Text of an HTML mail: one line per block and <br>, quoted text and styles dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.dropped = 0  # depth inside elements whose text is dropped
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.dropped += 1
        if tag == "pre":
            self.pre += 1
        if tag == "br" or tag in _BLOCKS:
            self.out.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" or tag in _BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED and self.dropped:
            self.dropped -= 1
        if tag == "pre" and self.pre:
            self.pre -= 1
        if tag in _BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if self.dropped:
            return
        self.out.append(data if self.pre else re.sub(r"\s+", " ", data))


def html_text(html: str) -> str:
    """Plain text of an HTML body (see _HtmlText); never raises."""
    parser = _HtmlText()
    with contextlib.suppress(Exception):  # keep what was read
        parser.feed(html)
        parser.close()
    text = "".join(parser.out).replace("\xa0", " ")
    lines = [line.strip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:  # no runs of blank lines from nested blocks
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def _body(parts: Sequence[Message], problems: list[str]) -> tuple[str, bool]:
    """(the text chosen, whether the mail has attachments but no text part)."""
    plain: list[Message] = []
    html: list[Message] = []
    attachments = 0
    for part in parts:
        if part.is_multipart() and part.get_content_maintype() != "message":
            continue
        if _is_attachment(part):
            attachments += 1
        elif part.get_content_type() == "text/plain":
            plain.append(part)
        elif part.get_content_type() == "text/html":
            html.append(part)
    for part in plain[:1]:
        text = _decode(part, problems)
        if text.strip() or not html:
            return text, False
    for part in html[:1]:
        return html_text(_decode(part, problems)), False
    return "", attachments > 0 and not plain


# --- the whole mail -------------------------------------------------------------------------------


def _read(raw: bytes, envelope_from: str) -> Mail:
    problems: list[str] = []
    if len(raw) > MAX_READ_BYTES:
        raw = raw[:MAX_READ_BYTES]
        problems.append("truncated")
    headers_only = raw.count(b"\n--") > MAX_BOUNDARY_LINES
    if headers_only:
        problems.append("too_many_parts")
    msg = BytesParser(policy=_POLICY).parsebytes(raw, headersonly=headers_only)
    parts = list(_parts(msg))
    try:
        body, attachments_only = _body(parts, problems)
    except Exception:  # a part the email package cannot read
        body, attachments_only = "", False
        problems.append("unreadable_body")
    return Mail(
        message_id=_msg_id(_header(msg, "Message-ID")),
        from_addr=_address(msg, "From"),
        reply_to_addr=_address(msg, "Reply-To"),
        subject=_header(msg, "Subject"),
        in_reply_to=_msg_id(_header(msg, "In-Reply-To")),
        body=body,
        lines=tuple(order_lines(body)),
        automatic=_automatic(msg, envelope_from or "", parts),
        attachments_only=attachments_only,
        problems=tuple(dict.fromkeys(problems)),
    )


def mail_read(raw: bytes, envelope_from: str = "") -> Mail:
    """Read one inbound mail; never raises (an unreadable mail has "unreadable" in problems)."""
    try:
        return _read(bytes(raw), envelope_from)
    except Exception:  # whatever the bytes, the caller gets a Mail
        return Mail("", "", "", "", "", "", (), "", False, ("unreadable",))


# --- the order lines ------------------------------------------------------------------------------

_SIGNATURE = {"--", "-- "}
_STOPS = re.compile(
    r"""-{2,}\s*(original\s+message|ursprüngliche\s+nachricht|message\s+d'origine)\s*-{2,}
    | -{2,}\s*(forwarded\s+message|weitergeleitete\s+nachricht|message\s+transféré)\s*-{2,}
    | (begin\s+forwarded\s+message|anfang\s+der\s+weitergeleiteten\s+nachricht
       |début\s+du\s+message\s+réexpédié)\s*:
    | _{20,}""",
    re.IGNORECASE | re.VERBOSE,
)
_ATTRIBUTION = re.compile(
    r"""on\s.*\swrote\s*:
    | am\s.*\sschrieb(\s.*)?:
    | le\s.*\sa\s+écrit\s*:""",
    re.IGNORECASE | re.VERBOSE | re.DOTALL,
)
_ATTRIBUTION_START = re.compile(r"(on|am|le)\s", re.IGNORECASE)
# Outlook's quote header: "From: ..." followed by "Sent:" (or Date/To/Gesendet/Envoyé)
_OUTLOOK_FROM = re.compile(r"(from|von|de)\s*:\s*\S", re.IGNORECASE)
_OUTLOOK_NEXT = re.compile(r"(sent|date|to|gesendet|datum|an|envoyé|à)\s*:", re.IGNORECASE)
_SPACE = " \t\r\f\v\xa0\ufeff\u200b\u200e\u200f\u202f"


def _quoted(line: str) -> bool:
    return line.lstrip(_SPACE).startswith(">")


def _next_filled(lines: Sequence[str], start: int) -> int:
    """The index of the first non-blank line from `start` (len(lines) if none)."""
    i = start
    while i < len(lines) and not lines[i].strip(_SPACE):
        i += 1
    return i


def _attribution_span(lines: Sequence[str], i: int) -> int:
    """How many lines from `i` an attribution ("On <date>, <who> wrote:") takes, 0 if none;
    mail clients wrap a long one over two or three lines."""
    if not _ATTRIBUTION_START.match(lines[i].strip(_SPACE)):
        return 0
    joined = ""
    for span in range(1, 4):
        if i + span > len(lines) or _quoted(lines[i + span - 1]):
            return 0
        joined = f"{joined} {lines[i + span - 1].strip(_SPACE)}".strip()
        if len(joined) > 1000:
            return 0
        if _ATTRIBUTION.fullmatch(joined):
            return span
    return 0


def _stop(lines: Sequence[str], i: int) -> bool:
    line = lines[i].rstrip("\r")
    text = line.strip(_SPACE)
    if line in _SIGNATURE or text == "--" or _STOPS.fullmatch(text):
        return True
    if _OUTLOOK_FROM.match(text):
        j = _next_filled(lines, i + 1)
        return j < len(lines) and bool(_OUTLOOK_NEXT.match(lines[j].strip(_SPACE)))
    return False


def order_lines(text: str) -> list[tuple[int, str]]:
    """The 1-based line numbers and stripped text of the lines that may carry orders.

    Stops at a signature separator ("-- "), an attribution line ("On <...> wrote:", "Am <...>
    schrieb <...>:", "Le <...> a écrit :") unless quoted lines follow it (then it heads a
    quote written above the player's text and is skipped), "-----Original Message-----",
    Outlook's "From: ... / Sent: ..." quote header or its line of underscores, and a forwarded
    message ("---------- Forwarded message ---------", "Begin forwarded message:"). Skips
    blank lines, "#" comments and ">" quoted lines. At most MAX_ORDER_LINES + 1 lines are
    returned; long lines are returned whole (the caller refuses them)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines) and len(out) <= MAX_ORDER_LINES:
        if _stop(lines, i):
            break
        span = _attribution_span(lines, i)
        if span:
            after = _next_filled(lines, i + span)
            if after < len(lines) and _quoted(lines[after]):
                i += span
                continue
            break
        stripped = lines[i].strip(_SPACE)
        if stripped and not stripped.startswith("#") and not stripped.startswith(">"):
            out.append((i + 1, stripped))
        i += 1
    return out


# --- sections of a reply to a digest --------------------------------------------------------------

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_HEADER = re.compile(
    rf"(?:=+\s*)?game\s+({_UUID})(?:\s+as\s+([A-Za-z0-9_.-]{{1,64}}))?\s*:?\s*(?:=+)?",
    re.IGNORECASE | re.ASCII,
)


@dataclass(frozen=True)
class Section:
    """The order lines for one game of a reply to a digest (game None: before any header)."""

    game: str | None  # the game's UUID, lowercased
    role: str | None  # as written
    lines: Lines


def sections(lines: Sequence[tuple[int, str]]) -> list[Section]:
    """Split order lines at the header lines `== game <uuid> as <role> ==` (also `== game
    <uuid> ==`, and without the `==`: `GAME <uuid> AS <role>:`, any case). Lines before the
    first header are a section with game None, only when there are some; a header with no
    lines under it is still a section (with no lines). Header lines are in no section."""
    out: list[Section] = []
    game: str | None = None
    role: str | None = None
    current: list[tuple[int, str]] = []
    started = False
    for number, text in lines:
        match = _HEADER.fullmatch(text.strip())
        if match is None:
            current.append((number, text))
            continue
        if started or current:
            out.append(Section(game=game, role=role, lines=tuple(current)))
        game, role, current, started = match.group(1).lower(), match.group(2), [], True
    if started or current:
        out.append(Section(game=game, role=role, lines=tuple(current)))
    return out


__all__ = [
    "MAX_LINE_CHARS",
    "MAX_ORDER_LINES",
    "Mail",
    "Section",
    "html_text",
    "mail_read",
    "order_lines",
    "sections",
]
