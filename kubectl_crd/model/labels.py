"""Label selectors as ``kubectl -l`` spells them, matched against an object's labels.

Mirrors ``k8s.io/apimachinery/pkg/labels/selector.go`` (``Parse``, ``Requirement.Matches``):
requirements separated by commas, all of which must hold:

- ``key`` (the label exists), ``!key`` (it does not);
- ``key=value``, ``key==value``, ``key!=value``;
- ``key in (a,b)``, ``key notin (a,b)`` (``()`` and empty values allowed);
- ``key>N``, ``key<N`` (the label is an integer greater / less than N).

``!=`` and ``notin`` also match an object without the label, as upstream. An empty
selector matches everything. The dev loop's cache reads (``ctx.list(labels=...)``) use
it, so what a reconciler sees from the cache is what the API server would list; a
differential test holds it to the server. Pure standard library.
"""

from __future__ import annotations

import re

from kubectl_crd.model.records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["LabelSelector", "LabelSelectorError", "Requirement", "parse_selector"]


class LabelSelectorError(ValueError):
    """A selector that does not parse; the message says where, as upstream's."""


@record
class Requirement:
    key: str
    #: "exists", "!", "=", "!=", "in", "notin", "gt", "lt"
    operator: str
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op == "exists":
            return self.key in labels
        if op == "!":
            return self.key not in labels
        if op in ("=", "in"):
            return self.key in labels and labels[self.key] in self.values
        if op in ("!=", "notin"):
            return self.key not in labels or labels[self.key] not in self.values
        # gt / lt: the label must be an integer (selector.go parses it with ParseInt)
        if self.key not in labels:
            return False
        try:
            have = int(labels[self.key])
        except ValueError:
            return False
        want = int(self.values[0])
        return have > want if op == "gt" else have < want


@record
class LabelSelector:
    requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str] | None) -> bool:
        given = labels or {}
        return all(each.matches(given) for each in self.requirements)

    @classmethod
    def from_mapping(cls, labels: Mapping[str, str]) -> LabelSelector:
        """Equality on each pair (``labels.SelectorFromSet``)."""
        return cls(tuple(Requirement(k, "=", (v,)) for k, v in sorted(labels.items())))


# selector.go's lexer: identifiers end at whitespace, ',', '=', '!', '(', ')', '<', '>'
_TOKEN = re.compile(r"\s*(==|!=|=|!|\(|\)|,|<|>|[^\s,=!()<>]+)")
# validation: a qualified name key (optional DNS subdomain prefix), label values
_NAME = r"([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]"
_KEY = re.compile(rf"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?{_NAME}$")
_VALUE = re.compile(rf"^({_NAME})?$")


def _tokens(text: str) -> list[str]:
    tokens = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:  # pragma: no cover - the pattern matches any non-space
            raise LabelSelectorError(f"unable to parse requirement: {text[position:]!r}")
        tokens.append(found.group(1))
        position = found.end()
    return tokens


def parse_selector(selector: str | Mapping[str, str] | None) -> LabelSelector:
    """A ``LabelSelector`` from kubectl's ``-l`` text or a mapping of equalities."""
    if selector is None:
        return LabelSelector()
    if not isinstance(selector, str):
        return LabelSelector.from_mapping(selector)
    tokens = _tokens(selector)
    requirements: list[Requirement] = []
    index = 0

    def take() -> str:
        nonlocal index
        if index >= len(tokens):
            raise LabelSelectorError(f"{selector!r}: unexpected end of selector")
        index += 1
        return tokens[index - 1]

    def key(token: str) -> str:
        if token in ("==", "!=", "=", "!", "(", ")", ",", "<", ">", "in", "notin"):
            raise LabelSelectorError(f"{selector!r}: found {token!r}, expected a key")
        if not _KEY.match(token) or len(token.rpartition("/")[2]) > 63:
            raise LabelSelectorError(f"{selector!r}: invalid label key {token!r}")
        return token

    def value(token: str) -> str:
        if not _VALUE.match(token) or len(token) > 63:
            raise LabelSelectorError(f"{selector!r}: invalid label value {token!r}")
        return token

    while index < len(tokens):
        token = take()
        if token == "!":
            requirements.append(Requirement(key(take()), "!"))
        else:
            name = key(token)
            if index == len(tokens) or tokens[index] == ",":
                requirements.append(Requirement(name, "exists"))
            else:
                op = take()
                if op in ("=", "==", "!="):
                    # "key=" (nothing before the next ',' or the end) is the empty value
                    ends = index == len(tokens) or tokens[index] == ","
                    given = "" if ends else value(take())
                    requirements.append(Requirement(name, "!=" if op == "!=" else "=", (given,)))
                elif op in ("<", ">"):
                    bound = take()
                    if not re.fullmatch(r"-?[0-9]+", bound):
                        raise LabelSelectorError(
                            f"{selector!r}: for 'gt', 'lt' operators, the value must be an"
                            f" integer: {bound!r}"
                        )
                    requirements.append(Requirement(name, "gt" if op == ">" else "lt", (bound,)))
                elif op in ("in", "notin"):
                    if take() != "(":
                        raise LabelSelectorError(f"{selector!r}: expected '(' after {op}")
                    values: list[str] = []
                    expect_value = True
                    while True:
                        part = take()
                        if part == ")":
                            if expect_value and values:
                                values.append("")  # "(a,)": an empty value
                            break
                        if part == ",":
                            if expect_value:
                                values.append("")
                            expect_value = True
                            continue
                        if not expect_value:
                            raise LabelSelectorError(f"{selector!r}: expected ',' or ')'")
                        values.append(value(part))
                        expect_value = False
                    requirements.append(Requirement(name, op, tuple(values) or ("",)))
                else:
                    raise LabelSelectorError(f"{selector!r}: found {op!r}, expected an operator")
        if index < len(tokens):
            if tokens[index] != ",":
                raise LabelSelectorError(f"{selector!r}: found {tokens[index]!r}, expected ','")
            index += 1
            if index == len(tokens):
                raise LabelSelectorError(f"{selector!r}: expected a requirement after ','")
    return LabelSelector(tuple(requirements))
