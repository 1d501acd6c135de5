"""``indexOf`` and ``lastIndexOf`` where an optional may reach them: in the list (through
``dyn``, or a list of optionals), as the argument, or beside a string's ``indexOf``.
The engine cannot hand such a list to Python, so these calls run as a comprehension
comparing with the engine's own ``==`` (``library.indexing.in_engine``): each answer,
and each error, must be the server's. test_cel_libraries_differential's harness, with
these expressions (the object's spec is ``{"s": "Hello-World", "n": 3, "l": [3, 1, 2]}``).
"""

from __future__ import annotations

import re

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.validation.crds import crd_errors
from tests import crd_factory
from tests.integration import test_cel_libraries_differential as libraries
from tests.integration.envtest import ControlPlane
from tests.integration.test_cel_crd_compile import server_causes

INDEX_OF: list[tuple[str, str]] = [
    # a list holding optionals; optionals equal where their values are (1 and 1.0)
    ("optionals", "[dyn(optional.none()), dyn(1)].indexOf(1)"),
    ("optionals", "[dyn(optional.none()), dyn(1)].lastIndexOf(1)"),
    ("optionals", "[dyn(1), dyn(optional.of(1))].indexOf(dyn(optional.of(1)))"),
    ("optionals", "[dyn(optional.of(1)), dyn(optional.of(1.0))].lastIndexOf(dyn(optional.of(1)))"),
    ("optionals", "[dyn(optional.of(1)), dyn(optional.of(1.0))].indexOf(dyn(optional.of(1.0)))"),
    ("optionals", "[dyn({'a': optional.none()})].indexOf(dyn({'a': optional.none()}))"),
    ("optionals", "[dyn(optional.none())].indexOf(dyn(optional.none()))"),
    ("optionals", "[dyn(optional.of(1))].indexOf(1)"),
    ("optionals", "[dyn([optional.of(2)]), dyn(2)].lastIndexOf(2)"),
    ("optionals", "[dyn([optional.of(2)]), dyn(2)].indexOf(dyn([optional.of(2u)]))"),
    ("optionals", "[optional.of(1), optional.none()].indexOf(optional.none())"),
    ("optionals", "[optional.of(1), optional.none(), optional.of(1)].lastIndexOf(optional.of(1))"),
    (
        "optionals",
        "[dyn(optional.of(optional.of(1)))].indexOf(dyn(optional.of(optional.of(1.0))))",
    ),
    ("optionals", "self.l.map(x, optional.of(x)).indexOf(optional.of(2))"),
    ("optionals", "self.l.map(x, optional.of(x)).lastIndexOf(dyn(optional.of(3.0)))"),
    ("optionals", "[1, 2][?0].orValue(0) + [dyn(optional.none()), dyn(2)].indexOf(2)"),
    ("optionals", "dyn([dyn(optional.none())]).indexOf(1)"),
    # an optional as the argument
    ("argument", "dyn(self.l).indexOf(optional.of(1))"),
    ("argument", "dyn(self.l).lastIndexOf(optional.none())"),
    ("argument", "[optional.none()].indexOf(optional.none())"),
    # elements of every kind: numbers equal across int, uint and double, true is not 1
    ("mixed", "[dyn(optional.none()), dyn(1u), dyn(2.0), dyn('2'), dyn(2)].indexOf(2)"),
    ("mixed", "[dyn(optional.none()), dyn(1u), dyn(2.0), dyn('2'), dyn(2)].lastIndexOf(2u)"),
    ("mixed", "[dyn(optional.none()), dyn(true), dyn(1)].indexOf(1)"),
    ("mixed", "[dyn(optional.none()), dyn(null), dyn(b'a')].lastIndexOf(null)"),
    ("mixed", "[dyn(optional.none()), dyn(b'a'), dyn('a')].indexOf(b'a')"),
    ("mixed", "[dyn(optional.none()), dyn([1, 2]), dyn({'k': [1.0]})].indexOf({'k': [1u]})"),
    (
        "mixed",
        "[dyn(optional.none()), dyn(duration('1h')), dyn(timestamp('2024-01-01T00:00:00Z'))]"
        ".lastIndexOf(duration('60m'))",
    ),
    # not found, and the empty list
    ("not found", "[dyn(optional.none()), dyn(1)].indexOf(7)"),
    ("not found", "[dyn(optional.none()), dyn(1)].lastIndexOf('1')"),
    ("not found", "[dyn(optional.of(1))].indexOf(dyn(optional.of(2)))"),
    ("not found", "[dyn(optional.none())].filter(x, false).indexOf(1)"),
    ("not found", "[].indexOf(dyn(optional.none()))"),
    ("not found", "[].lastIndexOf(optional.of(1))"),
    # calls inside calls: in the receiver, in the argument
    ("nested", "[dyn(optional.none())].indexOf([dyn(optional.none()), dyn(2)].indexOf(2))"),
    (
        "nested",
        "([dyn(optional.none())] + [dyn(self.s)])"
        ".lastIndexOf(self.s.indexOf('o') == 4 ? 'Hello-World' : 'x')",
    ),
    ("nested", "[[dyn(optional.none()), dyn(1)].lastIndexOf(1), 0].indexOf(0)"),
    # spaces around the dot and the name (prepare renames the call there too)
    ("spacing", "self.l . indexOf( 2 )"),
    ("spacing", "[dyn(optional.none()), dyn(2)] . lastIndexOf (2)"),
    # errors: the receiver's first, then the argument's; a receiver that is no list
    ("errors", "[dyn(optional.none())].indexOf(1 / 0)"),
    ("errors", "[dyn(1 / 0), dyn(optional.none())].indexOf(self.l[9])"),
    ("errors", "[dyn(optional.none())].lastIndexOf(dyn(self.s) + 1)"),
    ("errors", "[dyn(optional.none())].indexOf({'a': 1}['b'])"),
    ("errors", "dyn({'a': optional.none()}).indexOf(1)"),
    ("errors", "dyn(1).lastIndexOf(dyn(optional.none()))"),
    ("errors", "dyn(self.s).indexOf(dyn([optional.none()]))"),
    ("errors", "dyn(self.s).lastIndexOf(dyn(optional.none()))"),
    ("errors", "dyn(duration('1s')).indexOf(dyn(optional.none()))"),
    ("errors", "dyn(null).indexOf(optional.of(b'x'))"),
    # no optional: the same dispatch errors, through the string and list overloads
    ("errors", "dyn(1).indexOf(1)"),
    ("errors", "dyn(1).indexOf('a', 1)"),
    ("errors", "dyn(self.l).indexOf('a', 1)"),
    ("errors", "dyn(self.n).lastIndexOf(dyn(self.s))"),
    ("errors", "dyn(self.s).indexOf(dyn(1))"),
    # a library's type as the receiver: the server names it
    # a library's value where no overload takes it: cel-go names its type (a URL, as
    # the only one whose size the estimator knows: the others' calls cost too much)
    ("library", "dyn(url('https://a')).indexOf(1)"),
    ("library", "dyn(url('https://a')).lastIndexOf('a')"),
    ("library", "dyn(url('https://a')).indexOf(null)"),
    ("library", "dyn(url('https://a')).lastIndexOf(2u)"),
    ("library", "dyn(url('https://a')).indexOf(dyn(url('https://a')))"),
    ("library", "dyn(url('https://a')).indexOf('a', 1)"),
    ("library", "dyn(url('https://a')).lastIndexOf('a', 1)"),
    ("library", "dyn('a').indexOf(dyn(ip('1.2.3.4')))"),
    ("library", "[ip('1.2.3.4')].indexOf(ip('1.2.3.4'))"),
    ("library", "[dyn(1), dyn(ip('1.2.3.4'))].lastIndexOf(dyn(ip('1.2.3.4')))"),
    ("library", "[cidr('10.0.0.0/8')].indexOf(cidr('10.0.0.0/9'))"),
    # a string's indexOf beside an optional: the strings extension's, as before
    ("strings", "[dyn(optional.none())].size() + self.s.indexOf('o')"),
    ("strings", "[dyn(optional.none())].size() + self.s.lastIndexOf('o', 5)"),
    ("strings", "[dyn(optional.none())].size() + dyn(self.s).lastIndexOf('o')"),
    ("strings", "[dyn(optional.none())].size() + self.s.indexOf('o', -1)"),
    ("strings", "[dyn(optional.of(self.s))].indexOf(dyn(optional.of('Hello-World')))"),
]


def test_index_of_with_optionals_agrees_with_the_server(apiserver: ControlPlane) -> None:
    libraries.agree_with_the_server(apiserver, INDEX_OF, "cel-indexof.example.com")


# lists.go declares list(A).indexOf(A): an argument of another type than the list's
# elements does not compile (the engine's declarations take any: checked.
# index_of_type_errors); each rule below is one x-kubernetes-validations entry, refused
# or accepted as by the server, with its words and column (after renamed calls too)
TYPED_RULES = [
    "self.l.indexOf('a') == 0",
    "[1].indexOf('a') == 0",
    "[optional.of(2)].lastIndexOf(optional.of(2.0)) == 0",
    "self.l.indexOf(optional.of(1)) == 0",
    "self.l.indexOf(1u) == 0",
    "self.l.lastIndexOf(1.0) == 0",
    "[1].indexOf(null) == -1",
    "[[1]].indexOf(null) == -1",
    "[{'a': 1}].indexOf({'a': 'b'}) == -1",
    "[duration('1s')].indexOf(timestamp('2024-01-01T00:00:00Z')) == -1",
    "self.l.indexOf(1) == 0 && [1, 2].indexOf('x') == 0",
    "[1].indexOf(1) == 0 && [[1]].indexOf(['x']) == 0",
    # accepted: dyn on either side, null where it may be, the same types
    "self.l.indexOf(dyn('a')) == -1",
    "[dyn(1)].indexOf('a') == -1",
    "[[1]].indexOf([dyn('a')]) == -1",
    "[null].indexOf(null) == 0",
    "[optional.of(1)].indexOf(null) == -1",
    "[optional.of(1)].indexOf(optional.none()) == -1",
    "[b'a'].lastIndexOf(b'a') == 0",
    "self.s.indexOf('a') == 0",
]


def test_index_of_type_errors_are_the_servers(apiserver: ControlPlane) -> None:
    spec = {
        "type": "object",
        "properties": {
            "l": {"type": "array", "maxItems": 5, "items": {"type": "integer"}},
            "s": {"type": "string", "maxLength": 9},
        },
        "x-kubernetes-validations": [{"rule": rule} for rule in TYPED_RULES],
    }
    document = crd_factory.make_crd(
        "Idx",
        "cel-indexof-compile.example.com",
        schema={"type": "object", "properties": {"spec": spec}},
    )
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        expected = server_causes(client, document)
    ours = [
        message for field, message, _ in crd_errors(document) if "x-kubernetes-validations" in field
    ]
    print(f"{len(expected)} server errors, {len(ours)} ours")
    refused = {
        int(found.group(1))
        for message in expected
        if "compilation failed" in message
        and (found := re.search(r"validations\[(\d+)\]", message)) is not None
    }
    assert refused == set(range(12))  # the twelve above "accepted"
    assert sorted(ours) == sorted(expected)
