"""A CRD that uses every checkable schema feature, and values on both sides of each check.

The corpus samples exercise what real projects write; this table exercises every
message template and every format the server checks, with values chosen at the
edges (exclusive bounds, float multiples, RE2-only syntax, Go's net parsers).
"""

from __future__ import annotations

from typing import Any

GROUP = "templates.kubectl-crd.test"


def _s(**extra: Any) -> dict[str, Any]:
    return {"type": "string", **extra}


FORMAT_VALUES: dict[str, list[Any]] = {
    "uri": ["https://x.example/y", "/abs", "rel/path", "mailto:a@b", "http://[::1", " x", "%zz",
            "http://a b/", "http://a:port/", "http://a:80/", "http://a:/", "http://[::1]:80/",
            "http://[::1]x/", "http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/", "http://u:p@h/",
            "http://u p@h/", "http://%zz@h/", "http://h/%zz", "http://h/?%zz", "http://h/#%zz",
            "http://h/a b", "http://h{/", "http://h|x/", "http://h/\u00fc", "http://\u00fc/",
            "*", "", "a:b", "1a:b", ":a", "//h/p", "/a?b", "?a", "#a", "http:", "http:/",
            "http://", "http://h:99999/", "http://h:-1/", "HTTP://H/", "http://h/\x7f",
            "http://h/%", "http://h/%2", "http://[::1/", "http://]/", "http://a]b/",
            "mailto:%zz", "http://h/a%20b", "http://h?a", "http://h%41/", "http://h%zz/",
            "/a:b", "a/b:c", "./a:b", "http://h:8080:80/", "http://[::1]:8080:80/"],
    "email": ["a@b.c", "A <a@b.c>", "a@", "@b", "a b@c", "a..b@c", "a@b",
              '"quoted local"@example.com', "a@[127.0.0.1]", "a(comment)@b.c", "<a@b.c>",
              "a@b.c (Comment)", "a@-b.c", "a@b-.c", "a.@b.c", ".a@b.c", "a@b..c", "\u00fc@b.c",
              "a@\u00fc.c", '"A" <a@b.c>', "a@b.c\n", " a@b.c", "a@b.c ", "a+tag@b.c", "a@b_c.d",
              "=?utf-8?q?A?= <a@b.c>", "a@b.c, d@e.f", "group: a@b.c;", "A B <a@b.c>", "A.B <a@b.c>",
              "a@b.c.", "a@.b.c", "a@b.c>", "<a@b.c", "a\"b@c.d", "a@b@c.d", "a@1.2.3.4",
              "a@[IPv6:::1]", "a@b.c <d@e.f>", "A <a@b.c> x", '"a\\\"b"@c.d', "a@b.c\t",
              # RFC 2047 encoded-words, comments, groups (net/mail's addrParser)
              "=?x-unknown?q?A?= <a@b.c>", "B =?x-unknown?q?A?= <a@b.c>", "a@b.c (=?x-unknown?q?A?=)",
              "a@b.c (=?utf-8?q?A?=)", "=?utf-8?q??= <a@b.c>", "(c) a@b.c", "a@b.c (unclosed",
              "g: a@b.c, d@e.f;", "g:;", "g: (x) a@b.c ;", '"" <a@b.c>', '""@b.c', "a@b.c,",
              "a@[1.2.3.4%eth0]", "A\t<a@b.c>", "=?x?b?QQ=?= <a@b.c>", "=?x?b?QQ==?= <a@b.c>",
              "=?utf-8?q?A?= =?utf-8?q?B?= <a@b.c>", "=?utf-8?q?A?= (c) B <a@b.c>", "A (c) B <a@b.c>",
              "a@b.c (c) (d)", "A <a@b.c> (c)", "<a@b.c> x", "A: <a@b.c>;", "a.b.@c <d@e.f>"],
    "hostname": ["a.b", "a", "-a", "a_b", "xn--bcher-kva.example", "a" * 64, "1.2.3.4", "a.b.",
                 "\u00e9" * 32 + ".com", "\u00e9" * 31 + "a.com", ("\u00e9" * 30 + ".") * 5 + "com", "a.b\n"],
    "ipv4": ["1.2.3.4", "01.2.3.4", "256.1.1.1", "1.2.3", "::1", "::ffff:1.2.3.4", " 1.2.3.4",
             "0001.2.3.4", "1.2.3.²", "1.2.3.\u0664", "::ffff:01.2.3.4", "1.2.3.4\n", "1.2.3.00000255"],
    "ipv6": ["::1", "1.2.3.4", "fe80::1%eth0", "2001:db8::/32", "::ffff:1.2.3.4", "1::2::3",
             "::ffff:01.2.3.4", "00001::1", "::1\n", "::\u0661"],
    "cidr": ["10.0.0.0/8", "10.0.0.1/8", "10.0.0.0/33", "::/0", "010.0.0.0/8", "1.2.3.4", "::1/129",
             "10.0.0.0/²", "0010.0.0.0/8", "10.0.0.0/008", "::ffff:01.2.3.4/104", "10.0.0.0/8\n",
             "10.0.0.0/+8"],
    "mac": ["aa:bb:cc:dd:ee:ff", "AA-BB-CC-DD-EE-FF", "aabb.ccdd.eeff", "aa:bb", "aa:bb:cc:dd:ee:ff:00:11",
            "aa:bb:cc:dd:ee:ff\n", "aa:bb-cc:dd:ee:ff", "aa-bb:cc:dd:ee:ff", "aabb.ccdd.eeff\n"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000", "xyz"],
    "uuid3": ["a987fbc9-4bed-3078-af07-9141ba07c9f3", "a987fbc9-4bed-4078-8f07-9141ba07c9f3"],
    "uuid4": ["a987fbc9-4bed-4078-8f07-9141ba07c9f3", "a987fbc9-4bed-4078-cf07-9141ba07c9f3"],
    "uuid5": ["a987fbc9-4bed-5078-af07-9141ba07c9f3", "a987fbc9-4bed-3078-af07-9141ba07c9f3"],
    "isbn": ["0321751043", "978-0321751041", "0321751044", "0321751043\n", "978\t0321751041"],
    "isbn10": ["0321751043", "0-321-75104-3", "0321751044", "080442957X", "0321751043\n",
               "0\t321\r75104\f3", "0321751043\v", "0321751043\u00a0", "\u0660321751043"],
    "isbn13": ["978-0321751041", "9780321751041", "9780321751042", "9780321751041\n",
               "978 -\n0321751041"],
    "creditcard": ["4111111111111111", "4111 1111 1111 1111", "4111111111111112", "1234",
                   "2221000000000009", "6200000000000005", "4111111111111111\n", "4111-1111-1111-1111"],
    "ssn": ["123-45-6789", "123456789", "12-345-6789", "123 45 6789", "123-45-678\u0669", "123456789\n"],
    "hexcolor": ["#fff", "ffffff", "#ffff", "#GGG", "#fff\n", "ffffff\n"],
    "rgbcolor": ["rgb(1,2,3)", "rgb(256,0,0)", "rgb( 1 , 2 , 3 )", "rgb(01,2,3)", "rgb(1,2,3)\n",
                 "rgb(\v1,2,3)", "rgb(\u00a01,2,3)", "rgb(\n1,\t2,\r3\f)", "rgb(1,2,\u0663)"],
    "byte": ["aGVsbG8=", "aGVsbG8", "!!", "", "aGVs bG8=", "aGVsbG8=\n", "aGVs\nbG8="],
    "password": ["anything"],
    "date": ["2024-02-29", "2023-02-29", "2024-1-01", "2024-01-01T00:00:00Z", "2024-01-01\n",
             "0000-01-01", "10000-01-01", "2024-13-01", "2024-00-10", "2024-01-32", " 2024-01-01",
             "2024-01-0\u0661", "+2024-01-01"],
    "date-time": [
        "2024-01-01T00:00:00Z", "2024-01-01t00:00:00+01:00", "2024-01-01T25:00:00Z",
        "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00.123Z",
        "2024-01-01T00:00:00z", "2024-01-01T00:00:60Z", "2024-01-01T23:59:59+24:00",
        "2024-01-01T00:00:00+01:60", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00,5Z",
        "2024-01-01T00:00:00Z\n", "2024-01-01t00:00:00Z", "2024-01-01T00:00Z", "2024-01-01T0:00:00Z",
        "2024-01-01T00:00:00.1234567891Z", "2024-02-30T00:00:00Z", "2024-01-01T00:00:00+0100",
        "2024-01-01T00:00:00-00:00", "2024-01-01TT00:00:00Z", "2024-01-01T00:00:00.123",
    ],
    "duration": ["1h", "1 hour", "3d", "soon", "1.5h", "10 sec", "5 weeks", "1h30m", "",
                 "1.5.5h", "-1h", "+1h", "1 h", "1hour", "1 hours", "2 days", "1w2d", "1d 2h", "1\u00b5s",
                 "1\u03bcs", "1us", ".5h", "5.h", "1e3s", "1H", "1 Hour", "3 mins", "10\tsec", "0", "-0",
                 "1h-30m", "1h\n", " 1h", "1h ", "1 d", "-1 d", "+2 weeks", "1.5 d", "99999999999h",
                 "1 ms", "1 ns", "1 us", "1 minute", "1 second", "1 sec", "1 mins", "1m1", "1 h 1 m"],
    "bsonobjectid": ["507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901z"],
    "k8s-short-name": ["ok", "Not_OK"],
}  # fmt: skip

SPEC_PROPERTIES: dict[str, Any] = {
    **{f"f-{name}": _s(format=name) for name in FORMAT_VALUES},
    "intBounds": {"type": "integer", "minimum": 1, "maximum": 10, "exclusiveMaximum": True},
    "num": {"type": "number", "minimum": 0.5, "exclusiveMinimum": True, "maximum": 1000000,
            "multipleOf": 0.25},
    "intMult": {"type": "integer", "multipleOf": 3},
    "int32": {"type": "integer", "format": "int32", "maximum": 100},
    "str": _s(minLength=2, maxLength=5, pattern="^(?i)[a-z]+$"),
    "single": _s(maxLength=1),
    "enumInt": {"type": "integer", "enum": [1, 2, 3]},
    "enumStr": _s(enum=["TCP", "UDP"]),
    "ios": {"x-kubernetes-int-or-string": True, "pattern": "^[0-9]+%?$", "maxLength": 4},
    "nullableObj": {"type": "object", "nullable": True, "properties": {"a": _s()}},
    "arr": {"type": "array", "minItems": 2, "maxItems": 3, "items": _s()},
    "one": {"type": "array", "maxItems": 1, "items": _s()},
    "setOfObjects": {"type": "array", "x-kubernetes-list-type": "set",
                     "items": {"type": "object", "x-kubernetes-map-type": "atomic",
                               "properties": {"a": _s()}}},
    "mapList": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name", "proto"],
                "items": {"type": "object", "required": ["name"],
                          "properties": {"name": _s(), "proto": _s(default="TCP")}}},
    "mapList1": {"type": "array", "x-kubernetes-list-type": "map",
                 "x-kubernetes-list-map-keys": ["k"],
                 "items": {"type": "object", "required": ["k"],
                           "properties": {"k": {"type": "integer"}}}},
    "props": {"type": "object", "minProperties": 1, "maxProperties": 2,
              "additionalProperties": {"type": "integer", "maximum": 5}},
    "oneOf": {"type": "object", "properties": {"a": _s(), "b": _s()},
              "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
    "anyOf": {"type": "object", "properties": {"a": _s(), "b": _s()},
              "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
    "allOf": {"type": "string", "allOf": [{"minLength": 2}, {"pattern": "^a"}]},
    "not": {"type": "string", "not": {"enum": ["forbidden"]}},
    "embedded": {"type": "object", "x-kubernetes-embedded-resource": True,
                 "x-kubernetes-preserve-unknown-fields": True},
    "embeddedList": {"type": "array", "items": {"type": "object",
                     "x-kubernetes-embedded-resource": True,
                     "properties": {"spec": {"type": "object",
                                             "x-kubernetes-preserve-unknown-fields": True}}}},
    "dotted": {"type": "object", "additionalProperties": {
        "type": "array", "x-kubernetes-list-type": "set", "maxItems": 2, "items": _s()}},
    "replicas": {"type": "integer"},
    "bool": {"type": "boolean"},
    "defaulted": {"type": "object", "default": {}, "properties": {
        "x": {"type": "integer", "default": 1}, "y": _s(default="y")}},
}  # fmt: skip


def crd() -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"probes.{GROUP}"},
        "spec": {
            "group": GROUP,
            "names": {"kind": "Probe", "plural": "probes", "listKind": "ProbeList"},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "subresources": {
                        "status": {},
                        "scale": {
                            "specReplicasPath": ".spec.replicas",
                            "statusReplicasPath": ".status.replicas",
                        },
                    },
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "properties": {
                                "spec": {"type": "object", "properties": SPEC_PROPERTIES},
                                "status": {"type": "object",
                                           "properties": {"replicas": {"type": "integer"}}},
                            },
                        }
                    },
                }
            ],
        },
    }  # fmt: skip


VALUES: dict[str, list[Any]] = {
    **{f"f-{name}": values for name, values in FORMAT_VALUES.items()},
    "intBounds": [0, 1, 9, 10, 11, 1.5, "3", True, None],
    "num": [0.5, 0.75, 0.6, 1, 1000000, 1000000.25, 2e6, -1],
    "intMult": [3, 4, -6, 0, 4.5],
    "int32": [100, 101, 3000000000, -3000000000],
    "str": ["ab", "AbC", "a", "abcdef", "ab1", "é", "abc\n"],
    "single": ["", "a", "ab", "é", "日本"],
    "enumInt": [1, 4, 1.0, "1", True],
    "enumStr": ["TCP", "tcp", 1, None],
    "ios": [1, "1", "10%", "10%%", "12345", True, 1.5, "a"],
    "nullableObj": [None, {}, {"a": None}, "x"],
    "arr": [["a"], ["a", "b"], ["a", "b", "c", "d"], [], "a", [1, 2]],
    "one": [["a", "b"], []],
    "setOfObjects": [[{"a": "x"}, {"a": "x"}], [{"a": "x"}, {"a": "y"}], [{}, {}]],
    "mapList": [
        [{"name": "a"}, {"name": "a", "proto": "TCP"}],
        [{"name": "a", "proto": "UDP"}, {"name": "a"}],
        [{"proto": "TCP"}],
        ["x"],
        [None, None],
    ],
    "mapList1": [[{"k": 1}, {"k": 1}, {"k": 1}], [{}, {}], [{"k": 1}, {"k": 1.5}]],
    "props": [{}, {"a": 1}, {"a": 1, "b": 2, "c": 3}, {"a": 9}, {"a.b": "x"}],
    "oneOf": [{}, {"a": "x"}, {"a": "x", "b": "y"}],
    "anyOf": [{}, {"b": "y"}],
    "allOf": ["a", "b", "abc", "bb"],
    "not": ["ok", "forbidden"],
    "embedded": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}},
        {"kind": "Pod"},
        {"apiVersion": "", "kind": ""},
        {"apiVersion": "a/b/c", "kind": "Bad_Kind"},
        {"apiVersion": 1, "kind": "Pod"},
        {"apiVersion": "v1", "kind": 2},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a/b", "generateName": "x%"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "..", "namespace": "Bad"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"k": "bad value"}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": "x"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"unknownMeta": 1}},
    ],
    "embeddedList": [[{"apiVersion": "v1", "kind": "Pod", "extra": 1}], [{}]],
    "dotted": [{"a.b": ["x", "x"]}, {"k": ["a", "b", "c"]}, {"k": "x"}],
    "replicas": [-1, 3000000000, "3", 1.5, {"a": 1}],
    "bool": [True, "true", 1],
    "defaulted": [None, {}, {"x": None}],
}
