"""Bytes decoded as client-go decodes a kubeconfig file or an exec plugin's output, with
its error texts.

Both go through apimachinery's JSON serializer (runtime/serializer/json ``Decode``):

- the YAML serializer (a kubeconfig always: clientcmd ``Load``; an exec plugin's output
  when it does not start with ``{``, the universal decoder's recognizer) converts with
  ``sigs.k8s.io/yaml.YAMLToJSON``: go-yaml v2 reads the first document into
  ``interface{}`` (YAML 1.1 scalars, ``model.yamlscalars``), map keys become strings,
  then ``json.Marshal``. Its errors are go-yaml's own, ``yaml: line N: PROBLEM``
  (``yaml_to_json``);
- output that starts with ``{`` (``utilyaml.IsJSONBuffer``, after Unicode spaces) is
  JSON as it stands, and ``json.Unmarshal`` refuses what is not JSON with encoding/json's
  scanner text (``model.gojson``);
- then the meta factory's ``Interpret`` reads apiVersion and kind into a small struct,
  and says ``couldn't get version/kind; json parse error: ...`` when it cannot
  (``model.gojson.interpret_problem``, the callers').

go-yaml is a port of libyaml, and PyYAML's C loader is libyaml: the same parser, the
same problems and marks. go-yaml's line in its message is its own: the problem's
0-based line, plus one for a scanner's error only (parser.go's comment: "scanner
errors don't iterate line before returning error"), else the context's 0-based line,
and no line at all when that is 0 (go-yaml v2 ``yaml.go`` ``handleErr``/``fail``).
"""

from __future__ import annotations

import json
import re

from kubectl_crd.model.gojson import INTERPRET_PREFIX, go_json_decode
from kubectl_crd.model.gostrconv import GO_SPACES
from kubectl_crd.model.yamlscalars import (
    MERGE_TAG,
    STR_TAG,
    ScalarError,
    allowed_alias_ratio,
    json_key,
    json_value,
    resolve,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DecodeError", "decode_exec_output", "is_json_buffer", "yaml_to_json"]

#: an alias where libyaml's mark points: ``*`` and its anchor's name (yaml_scan_anchor's
#: characters)
_ALIAS = re.compile(r"\*([0-9A-Za-z_-]+)")
_ANCHOR = re.compile(r"&([0-9A-Za-z_-]+)")


class DecodeError(ValueError):
    """What client-go's decoding says of the bytes (its whole message)."""


def is_json_buffer(data: bytes) -> bool:
    """``utilyaml.IsJSONBuffer``: ``{`` first, after leading Unicode spaces."""
    text = data[:4096].decode("utf-8", "replace")
    index = 0
    while index < len(text) and text[index] in GO_SPACES:
        index += 1
    return text[index : index + 1] == "{"


def decode_exec_output(data: bytes) -> object:
    """An exec plugin's output as the universal decoder reads it (JSON when it starts
    with ``{``, else YAML), before ``Interpret``; ``DecodeError`` with client-go's text."""
    if not is_json_buffer(data):
        return yaml_to_json(data)
    value, problem = go_json_decode(data)
    if problem is not None:
        raise DecodeError(INTERPRET_PREFIX + problem)
    return value


def yaml_to_json(data: bytes) -> object:
    """``sigs.k8s.io/yaml.YAMLToJSON`` then a JSON decode: the first YAML document as
    JSON data (None for an empty stream); ``DecodeError`` with go-yaml's text."""
    import yaml

    try:
        return _first_document(data, getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        if exc.problem not in _READ_ON_BY_GO_YAML:
            raise DecodeError(_go_yaml_text(exc, yaml, data)) from None
        refused = exc
    except yaml.reader.ReaderError as exc:
        raise DecodeError(f"yaml: {exc.reason}") from None
    except ScalarError as exc:
        raise DecodeError(str(exc)) from None
    # libyaml 0.2.5 refused what go-yaml's older scanner reads (``io.loading`` has
    # the same retry): PyYAML's pure-Python parser reads it, as go-yaml does but for
    # a flow sequence's plain scalar ending in ":" (a one-pair map there; the one
    # difference tests/unit/kube/test_clientdecode.py knows)
    try:
        return _first_document(data, yaml.SafeLoader)
    except (yaml.YAMLError, ScalarError):
        raise DecodeError(_go_yaml_text(refused, yaml, data)) from None


#: libyaml's problems where go-yaml v2 reads on: a ":" inside a flow plain scalar
#: (``[a:b]``), the ``\'`` escape
_READ_ON_BY_GO_YAML = ("found unexpected ':'", "found unknown escape character")


def _first_document(data: bytes, loader_class: Any) -> object:
    loader = loader_class(data)
    try:
        if not loader.check_node():
            return None
        # the first document: go-yaml's Unmarshal reads no further
        return _value(loader.get_node(), loader, data)
    finally:
        loader.dispose()


def _go_yaml_text(exc: Any, yaml: Any, data: bytes) -> str:
    """go-yaml v2's message for a libyaml error (module docstring)."""
    problem = exc.problem or "unknown problem parsing YAML content"
    mark = exc.problem_mark
    if isinstance(exc, yaml.composer.ComposerError) and problem.startswith("found undefined alias"):
        # go-yaml's parser.go ``alias``; the C loader's problem leaves the name out
        text = data.decode("utf-8", "replace")
        name = _ALIAS.match(text, mark.index) if mark is not None else None
        return f"yaml: unknown anchor '{name.group(1) if name else ''}' referenced"
    line = 0
    if mark is not None and mark.line != 0:
        line = mark.line + isinstance(exc, yaml.scanner.ScannerError)
    elif exc.context_mark is not None:
        line = exc.context_mark.line
    return f"yaml: line {line}: {problem}" if line else f"yaml: {problem}"


class _Frame:
    """A sequence or mapping being built: its children come one by one."""

    __slots__ = ("children", "count_before", "key", "node", "value")

    def __init__(self, node: Any, value: Any, count_before: int) -> None:
        self.node = node
        self.value = value
        # a mapping's keys and values in turn (structured-merge of its pairs)
        self.children = iter(
            node.value if isinstance(value, list) else [n for pair in node.value for n in pair]
        )
        self.count_before = count_before
        self.key: Any = _NO_KEY


_NO_KEY = object()
_MERGE = object()


def _value(root: Any, loader: Any, data: bytes) -> Any:
    """A composed document as JSON data, the way go-yaml v2 decodes it into
    ``interface{}`` and ``json.Marshal`` writes that. Built without recursion (libyaml
    nests up to 1,000 levels); an alias is the value its anchor built, shared, counted
    against go-yaml v2's budget (decode.go ``allowedAliasRatio``: a "billion laughs"
    is refused, not expanded)."""
    import yaml

    built: dict[int, tuple[Any, int]] = {}  # a node's value and its decode operations
    building: set[int] = set()
    count = aliased = 0

    def reuse(node: Any) -> Any:
        nonlocal count, aliased
        if id(node) in building:
            raise DecodeError(f"yaml: anchor '{_anchor_name(node, data)}' value contains itself")
        value, size = built[id(node)]
        count += 1 + size
        aliased += size
        if aliased > 100 and count > 1000 and aliased / count > allowed_alias_ratio(count):
            raise DecodeError("yaml: document contains excessive aliasing")
        return value

    stack: list[_Frame] = []

    def begin(node: Any) -> Any:
        """The node's value when it is complete at once, else _Frame pushed."""
        nonlocal count
        if id(node) in built or id(node) in building:
            return reuse(node)
        count += 1
        if isinstance(node, yaml.ScalarNode):
            value = _scalar(node, loader)
            built[id(node)] = (value, 1)
            return value
        building.add(id(node))
        empty: Any = [] if isinstance(node, yaml.SequenceNode) else {}
        stack.append(_Frame(node, empty, count - 1))
        return _Frame

    result = begin(root)
    while stack:
        frame = stack[-1]
        child = next(frame.children, None)
        if child is None:  # complete
            stack.pop()
            building.discard(id(frame.node))
            built[id(frame.node)] = (frame.value, count - frame.count_before)
            result = frame.value
        elif isinstance(frame.value, dict) and frame.key is _NO_KEY and child.tag == MERGE_TAG:
            frame.key = _MERGE
            continue
        else:
            result = begin(child)
            if result is _Frame:
                continue
        # ``result`` is complete: it goes into the frame now on top
        if not stack:
            break
        parent = stack[-1]
        if isinstance(parent.value, list):
            parent.value.append(result)
        elif parent.key is _NO_KEY:
            parent.key = result
        else:
            _store(parent.value, parent.key, result)
            parent.key = _NO_KEY
    return result


def _scalar(node: Any, loader: Any) -> Any:
    import yaml

    plain = not node.style  # the C loader's plain style is "", the other's None
    if not plain and node.tag == STR_TAG:  # quoted or a block, no tag
        return node.value
    # a plain scalar's tag is the loader's resolver's unless it was written
    implicit = plain and node.tag == loader.resolve(yaml.ScalarNode, node.value, (True, False))
    return json_value(resolve("" if implicit else node.tag, node.value))


def _store(mapping: dict[str, Any], key: Any, value: Any) -> None:
    """One pair of a mapping, as go-yaml v2 and sigs.k8s.io/yaml store it."""
    if key is _MERGE:
        # go-yaml v2 decode.go ``merge``: written into the map where it stands (a later
        # key overwrites it, it overwrites an earlier one); of a list of maps, the
        # earlier ones win
        for each in reversed(value) if isinstance(value, list) else [value]:
            if not isinstance(each, dict):
                raise ScalarError("yaml: map merge requires map or sequence of maps as the value")
            mapping.update(each)
        return
    if key is None:  # sigs.k8s.io/yaml's convertToJSONableObject
        from kubectl_crd.model.gotemplate import go_sharp_v

        shown = go_sharp_v(value, map_type="map[interface {}]interface {}")
        raise ScalarError(f"unsupported map key of type: %!s(<nil>), key: <nil>, value: {shown}")
    if isinstance(key, dict | list):
        raise ScalarError(f"yaml: invalid map key: {json.dumps(key)}")
    mapping[json_key(key)] = value


def _anchor_name(node: Any, data: bytes) -> str:
    """The anchor a node was defined with (its start mark points at ``&name``)."""
    text = data.decode("utf-8", "replace")
    found = _ANCHOR.match(text, node.start_mark.index)
    return found.group(1) if found else ""
