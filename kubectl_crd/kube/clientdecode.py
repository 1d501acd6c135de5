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

from kubectl_crd.model.gojson import INTERPRET_PREFIX, go_json_decode
from kubectl_crd.model.gostrconv import GO_SPACES
from kubectl_crd.model.yamlscalars import (
    MERGE_TAG,
    ScalarError,
    allowed_alias_ratio,
    json_key,
    json_value,
    resolve,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

__all__ = ["DecodeError", "decode_exec_output", "is_json_buffer", "yaml_to_json"]


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
            raise DecodeError(_go_yaml_text(exc, yaml)) from None
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
        return _first_document(data, _go_escapes_loader())
    except (yaml.YAMLError, ScalarError):
        raise DecodeError(_go_yaml_text(refused, yaml)) from None


#: libyaml's problems where go-yaml v2 reads on: a ":" inside a flow plain scalar
#: (``[a:b]``), the ``\'`` escape
_READ_ON_BY_GO_YAML = ("found unexpected ':'", "found unknown escape character")
_python_loader: Any = None


def _go_escapes_loader() -> Any:
    """PyYAML's pure-Python safe loader, reading ``\'`` in double quotes as ``'`` as
    go-yaml v2's scanner does (scannerc.go), which libyaml 0.2.5 refuses."""
    global _python_loader
    if _python_loader is None:
        import yaml

        class Loader(yaml.SafeLoader):  # type: ignore[misc]
            ESCAPE_REPLACEMENTS: ClassVar = {**yaml.SafeLoader.ESCAPE_REPLACEMENTS, "'": "'"}

        _python_loader = Loader
    return _python_loader


def _first_document(data: bytes, loader_class: Any) -> object:
    """The first document's value. go-yaml v2 parses the whole document into nodes
    before it decodes them: its parse errors (and unknown anchors, the ``\\/`` escape)
    come before any decoding error, wherever they stand."""
    import yaml

    loader = loader_class(data)
    try:
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # the document's start
        events = []
        anchors = set()
        while not loader.check_event(yaml.DocumentEndEvent):
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent) and event.anchor not in anchors:
                # parser.go ``alias``
                raise DecodeError(f"yaml: unknown anchor '{event.anchor}' referenced")
            if getattr(event, "anchor", None) is not None:
                anchors.add(event.anchor)
            if isinstance(event, yaml.ScalarEvent) and event.style == '"':
                _refuse_slash_escape(event, data)
            events.append(event)
        loader.get_event()  # go-yaml's Unmarshal reads no further than its end
    finally:
        loader.dispose()
    return _value(events, yaml)


def _go_yaml_text(exc: Any, yaml: Any) -> str:
    """go-yaml v2's message for a libyaml error (module docstring)."""
    problem = exc.problem or "unknown problem parsing YAML content"
    mark = exc.problem_mark
    line = 0
    if mark is not None and mark.line != 0:
        line = mark.line + isinstance(exc, yaml.scanner.ScannerError)
    elif exc.context_mark is not None:
        line = exc.context_mark.line
    return f"yaml: line {line}: {problem}" if line else f"yaml: {problem}"


class _Frame:
    """A sequence or mapping being built: its children come one by one."""

    __slots__ = ("anchor", "count_before", "key", "value")

    def __init__(self, value: Any, count_before: int, anchor: str | None) -> None:
        self.value = value
        self.count_before = count_before
        self.anchor = anchor
        self.key: Any = _NO_KEY


_NO_KEY = object()
_MERGE = object()


def _value(events: list[Any], yaml: Any) -> Any:
    """A document's nodes, read as events, as JSON data: the way go-yaml v2 decodes
    them into ``interface{}`` and ``json.Marshal`` writes that. Built from the parser's
    events, not PyYAML's composed nodes: go-yaml keeps the later of two nodes with one
    anchor (parser.go ``anchor``), where PyYAML's composer refuses the second; and a
    node tagged ``!`` keeps that tag (a string), where PyYAML resolves it as untagged.
    Built without recursion (libyaml nests up to 1,000 levels); an alias is the value
    its anchor built, shared, counted against go-yaml v2's budget (decode.go
    ``allowedAliasRatio``: a "billion laughs" is refused, not expanded)."""
    # an anchor's value and its decode operations, or its _Frame while it is built
    anchors: dict[str, Any] = {}
    count = aliased = 0
    stack: list[_Frame] = []
    for event in events:
        if isinstance(event, yaml.ScalarEvent):
            if (
                stack
                and stack[-1].key is _NO_KEY
                and isinstance(stack[-1].value, dict)
                and _is_merge(event)
            ):
                stack[-1].key = _MERGE  # not decoded itself (decode.go ``mapping``)
                continue
            count += 1
            result = _scalar(event)
            if event.anchor is not None:
                anchors[event.anchor] = (result, 1)
        elif isinstance(event, yaml.AliasEvent):
            known = anchors[event.anchor]
            if isinstance(known, _Frame):
                raise DecodeError(f"yaml: anchor '{event.anchor}' value contains itself")
            result, size = known
            count += 1 + size
            aliased += size
            if aliased > 100 and count > 1000 and aliased / count > allowed_alias_ratio(count):
                raise DecodeError("yaml: document contains excessive aliasing")
        elif isinstance(event, yaml.CollectionStartEvent):
            count += 1
            empty: Any = [] if isinstance(event, yaml.SequenceStartEvent) else {}
            stack.append(_Frame(empty, count - 1, event.anchor))
            if event.anchor is not None:
                anchors[event.anchor] = stack[-1]
            continue
        else:  # a collection's end
            frame = stack.pop()
            result = frame.value
            if frame.anchor is not None and anchors.get(frame.anchor) is frame:
                anchors[frame.anchor] = (result, count - frame.count_before)
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


def _is_merge(event: Any) -> bool:
    """go-yaml v2 decode.go ``isMerge``: ``<<`` plain and untagged (or tagged ``!``,
    which libyaml's parser marks implicit too), or tagged ``!!merge``."""
    return event.value == "<<" and bool(event.implicit[0] or event.tag == MERGE_TAG)


def _scalar(event: Any) -> Any:
    tag = event.tag or ""
    if not tag and not event.implicit[0]:  # quoted or a block, no tag
        return event.value
    # go-yaml v2 resolve.go: "" (plain) and the YAML tags resolve; any other tag,
    # ``!`` too, leaves the text a string
    return json_value(resolve(tag, event.value))


def _refuse_slash_escape(event: Any, data: bytes) -> None:
    """go-yaml v2 has no ``\\/`` escape (libyaml 0.2.5 and YAML 1.2 have; io.loading
    refuses it the same way): a double-quoted scalar with one is a scanner error at the
    backslash."""
    start, end = event.start_mark, event.end_mark
    # both parsers' marks count characters (after a byte order mark)
    raw = data.decode("utf-8", "replace").removeprefix("\ufeff")[start.index : end.index]
    index = raw.find("\\")
    while index >= 0:
        if raw[index + 1 : index + 2] == "/":
            line = start.line + raw.count("\n", 0, index)
            problem = "found unknown escape character"
            raise DecodeError(f"yaml: line {line + 1}: {problem}" if line else f"yaml: {problem}")
        index = raw.find("\\", index + 2)


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
    if isinstance(key, dict | list):  # go-yaml v2 decode.go ``mapping``: %#v
        from kubectl_crd.model.gotemplate import go_sharp_v

        shown = go_sharp_v(key, map_type="map[interface {}]interface {}")
        raise ScalarError(f"yaml: invalid map key: {shown}")
    mapping[json_key(key)] = value
