"""``indexOf`` and ``lastIndexOf`` where an optional may reach them: in the list (through
``dyn``, or a list of optionals), as the argument, or beside a string's ``indexOf``.
The engine cannot hand such a list to Python, so these calls run as a comprehension
comparing with the engine's own ``==`` (``library.indexing.in_engine``): each answer,
and each error, must be the server's. test_cel_libraries_differential's harness, with
these expressions (the object's spec is ``{"s": "Hello-World", "n": 3, "l": [3, 1, 2]}``).
"""

from __future__ import annotations

from tests.integration import test_cel_libraries_differential as libraries
from tests.integration.envtest import ControlPlane

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
    # a string's indexOf beside an optional: the strings extension's, as before
    ("strings", "[dyn(optional.none())].size() + self.s.indexOf('o')"),
    ("strings", "[dyn(optional.none())].size() + self.s.lastIndexOf('o', 5)"),
    ("strings", "[dyn(optional.none())].size() + dyn(self.s).lastIndexOf('o')"),
    ("strings", "[dyn(optional.none())].size() + self.s.indexOf('o', -1)"),
    ("strings", "[dyn(optional.of(self.s))].indexOf(dyn(optional.of('Hello-World')))"),
]


def test_index_of_with_optionals_agrees_with_the_server(apiserver: ControlPlane) -> None:
    libraries.agree_with_the_server(apiserver, INDEX_OF, "cel-indexof.example.com")
