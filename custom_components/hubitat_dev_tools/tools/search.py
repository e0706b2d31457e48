"""A small BM25 over every tool's name, title, description, parameters and search words.

Built once from the tool instances: everything indexed is declared on the tool class (its
``search_words`` hold the everyday words its text lacks). Tokens are lowercased words of
two or more characters with a light plural/verb-suffix stemmer. ``SYNONYMS`` is general
language, not about any one tool: it maps the words people use ("turn on the lights", "what
happened") onto the vocabulary descriptions share, at half weight; a new tool never needs
it. Results are filtered by the caller's reachable set, so hidden and disabled tools never
appear.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .args import schema_fields
from .base import HubTool

K1 = 1.5
B = 0.5  # long descriptions are not noise here: milder length normalisation
SYNONYM_WEIGHT = 0.5
NAME_BONUS = 1.0  # per query word (weighted) that is a word of the tool's name

# words; pure numbers ("30 percent", "5 minutes") name no tool and are left out
_WORD = re.compile(r"[a-z0-9]*[a-z][a-z0-9]*")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "called",  # "a room called X" names it (synonym: name); it asks no hub_call_* tool
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "one",
        "or",
        "the",
        "this",
        "that",
        "to",
        "use",
        "what",
        "when",
        "which",
        "with",
        "you",
        "your",
        "all",
        "any",
        "get",
        "old",
        "have",
        "they",
        "please",
        "right",
    ]
)

# Everyday words -> the vocabulary of tool descriptions.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "turn": ("command", "switch"),
    "light": ("switch", "dimmer", "level", "device"),
    "lamp": ("switch", "light", "device"),
    "dim": ("level", "setlevel"),
    "percent": ("level", "setlevel"),
    "brightness": ("level", "setlevel"),
    "happen": ("event", "history"),
    "happened": ("event", "history"),
    "history": ("event",),
    "when": ("event", "history"),
    "remove": ("delete",),
    "erase": ("delete",),
    "rename": ("update", "name", "label"),
    "called": ("name",),
    "unlocked": ("lock", "state", "device"),
    "anything": ("device", "list"),
    "back": ("backup",),
    "rule": ("app",),
    "edit": ("update", "change"),
    "modify": ("update", "change"),
    "change": ("update", "set"),
    "make": ("create", "add"),
    "new": ("create", "add"),
    "add": ("create",),
    "automation": ("rule", "app"),
    "error": ("log",),
    "slow": ("performance", "memory", "health"),
    "groovy": ("code", "driver", "app", "source"),
    "alarm": ("hsm", "security"),
    "arm": ("hsm",),
    "disarm": ("hsm",),
    "who": ("audit", "user"),
    "zwave": ("radio", "z"),
    "zigbee": ("radio",),
    "status": ("info", "health", "state"),
    "state": ("status", "current"),
    "firmware": ("info", "version"),
    "restart": ("reboot",),
    "space": ("room",),
    "snapshot": ("backup",),
    "restore": ("backup",),
    "setting": ("preference", "option"),
    "save": ("backup", "create"),
    "find": ("search", "list"),
    "which": ("list",),
    "what": ("list", "get"),
    "show": ("list", "get"),
    "see": ("list", "get"),
    "temperature": ("sensor", "attribute", "state"),
    "open": ("contact", "state", "current", "device"),
    "closed": ("contact", "state", "current"),
    "now": ("current", "state"),
    "door": ("contact", "device"),
    "is": ("current", "state"),
}


# Sentences that describe an automation ("when the door opens turn on the hall light", "make
# a rule that ...", "every day at 7 ...") want the rule tools, whatever devices they name.
AUTOMATION_INTENT = re.compile(
    r"\bautomat\w*|\b(make|create|add|write|build|set up|new)\b.{0,40}\brules?\b"
    r"|\b(whenever|every (day|night|morning|evening|hour|\d+ minutes?))\b"
    r"|\b(after|at|before) sun(set|rise)\b"
    r"|\bwhen\b(?!\s+(did|was|were|is|does|do|has|had|will)\b).{3,160}"
    r"\b(turn|switch|set|send|notify|lock|unlock|close|run|then)\b"
    r"|\bif\b.{3,160}\bthen\b",
    re.I,
)
AUTOMATION_TOOLS = ("hub_create_rule", "hub_get_rule", "hub_update_rule")
# "what does my porch rule do": the rule read-back answers it
RULE_QUESTION = re.compile(r"\bwhat (does|do)\b.{0,80}\b(rule|automation)s?\b.{0,30}\bdo\b", re.I)
INTENT_BOOST = 1.25


def stem(word: str) -> str:
    """A light stemmer: plurals and common verb suffixes."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return word[:-2] if not word.endswith("ied") else word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Lowercase words of 2+ characters, stop words dropped, stemmed."""
    return [stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in _STOP]


def tool_text(tool: HubTool[Any]) -> str:
    """Everything searchable about a tool."""
    name_words = tool.name.removeprefix("hub_").replace("_", " ")
    parts = [
        name_words,  # names and titles are short and precise: they count three times
        name_words,
        name_words,
        tool.title,
        tool.title,
        tool.title,
        tool.description,
        tool.domain,
        *tool.search_words,
    ]
    for marker in schema_fields(tool.args_type):
        key = getattr(marker, "schema", marker)
        parts.append(str(key).replace("_", " "))
        desc = getattr(marker, "description", None)
        if desc:
            parts.append(str(desc))
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result."""

    name: str
    score: float


class Bm25Index:
    """BM25 over a fixed set of documents (tool name -> text)."""

    def __init__(self, docs: dict[str, str]) -> None:
        self.names = list(docs)
        # the words of each tool's own name: a query word found there says most
        self.name_terms = [set(tokens(n.removeprefix("hub_").replace("_", " "))) for n in docs]
        self.terms = [Counter(tokens(docs[n])) for n in self.names]
        self.lengths = [sum(c.values()) for c in self.terms]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        df: Counter[str] = Counter()
        for counts in self.terms:
            df.update(counts.keys())
        n = len(self.names)
        self.idf = {t: math.log((n - f + 0.5) / (f + 0.5) + 1.0) for t, f in df.items()}

    def query_weights(self, query: str) -> dict[str, float]:
        """Query terms with weights: the words themselves, and their synonyms at half."""
        weights: dict[str, float] = {}
        for raw in _WORD.findall(query.lower()):
            if len(raw) < 2:
                continue
            if raw not in _STOP:
                term = stem(raw)
                weights[term] = max(weights.get(term, 0.0), 1.0)
            for syn in SYNONYMS.get(raw, SYNONYMS.get(stem(raw), ())):
                term = stem(syn)
                weights[term] = max(weights.get(term, 0.0), SYNONYM_WEIGHT)
        return weights

    def search(self, query: str, allowed: Iterable[str] | None = None) -> list[Hit]:
        """Score every allowed document; best first, zero scores dropped."""
        weights = self.query_weights(query)
        allow = set(allowed) if allowed is not None else None
        hits = []
        for i, name in enumerate(self.names):
            if allow is not None and name not in allow:
                continue
            counts, length = self.terms[i], self.lengths[i]
            score = 0.0
            for term, weight in weights.items():
                f = counts.get(term, 0)
                if not f:
                    continue
                norm = f * (K1 + 1) / (f + K1 * (1 - B + B * length / self.avg))
                score += weight * self.idf.get(term, 0.0) * norm
                if term in self.name_terms[i]:
                    score += NAME_BONUS * weight * self.idf.get(term, 0.0)
            if score > 0:
                hits.append(Hit(name, round(score, 3)))
        intent = (
            AUTOMATION_TOOLS
            if AUTOMATION_INTENT.search(query)
            else ("hub_get_rule",)
            if RULE_QUESTION.search(query)
            else ()
        )
        if intent and hits:
            top = max(h.score for h in hits)
            boosted = {t: i for i, t in enumerate(intent)}
            hits = [
                Hit(
                    h.name,
                    round(top * INTENT_BOOST + 0.01 * (3 - boosted[h.name]) + h.score * 0.01, 3),
                )
                if h.name in boosted
                else h
                for h in hits
            ]
            missing = [
                t
                for t in AUTOMATION_TOOLS
                if t in self.names
                and t not in {h.name for h in hits}
                and (allow is None or t in allow)
            ]
            hits += [Hit(t, round(top * INTENT_BOOST, 3)) for t in missing]
        hits.sort(key=lambda h: (-h.score, self.names.index(h.name)))
        return hits
