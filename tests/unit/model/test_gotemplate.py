"""``model.gotemplate`` against kubectl 1.33's own output.

Each case is a template kubectl 1.33 ran (``kubectl get widget w1 -o go-template=...``,
with ``--allow-missing-template-keys=false`` where marked strict) over an object whose
``spec`` and labels are ``SPEC`` and ``LABELS``; the expected text, parse error or
execution error (and what was written before it) is what kubectl printed, recorded
from the real binary against kube-apiserver. Templates that read only ``spec`` and
``metadata.labels`` keep the cases independent of the server's metadata.
``tests/integration/test_get_templates_differential.py`` runs the same kinds of
templates side by side with kubectl, live.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.gostrconv import go_bytes
from kubectl_crd.model.gotemplate import (
    ExecError,
    Template,
    TemplateError,
    go_sprintf,
)
from kubectl_crd.model.govalues import as_kubectl_decodes
from tests.cli_runner import run_python

# fmt: off
SPEC = {'bad64': 'a$b', 'big': 12345678901, 'empty': '', 'encoded': 'aGVsbG8=', 'false': False, 'flag': True, 'html': '<script>&\'"', 'huge': 1e+21, 'list': [1, 'two', 3.5, None, {'k': 'v'}], 'map': {'a': 1, 'b': 2, 'c': {'d': [True]}}, 'name': 'hello world', 'neg': -7, 'nums': [3, 1, 2], 'ratio': 0.25, 'replicas': 3, 'uni': 'héllo ☃', 'whole': 2}
LABELS = {'app': 'demo', 'tier': '1'}
CASES = [
    ('ok', False, '{{.spec.replicas}} {{.spec.ratio}} {{.spec.big}} {{.spec.huge}} {{.spec.whole}} {{.spec.neg}}', '3 0.25 12345678901 1e+21 2 -7'),
    ('ok', False, '{{.spec.flag}} {{.spec.name}} [{{.spec.empty}}] {{.spec.nothing}} {{.spec.list}} {{.spec.map}}', 'true hello world [] <no value> [1 two 3.5 <nil> map[k:v]] map[a:1 b:2 c:map[d:[true]]]'),
    ('ok', False, '{{.spec.nope}} {{.nope.deeper}} {{.metadata.labels}}', '<no value> <no value> map[app:demo tier:1]'),
    ('ok', False, '{{printf "%T %T %T %T %T %T %T %T" .spec.replicas .spec.ratio .spec.flag .spec.name .spec.list .spec.map .spec.nothing 1}}', 'int64 float64 bool string []interface {} map[string]interface {} <nil> int'),
    ('ok', False, '{{printf "%d %5d %-5d| %05d %x %X %o %b %c %q %U %+d" .spec.replicas .spec.replicas .spec.replicas .spec.neg .spec.big .spec.big .spec.replicas .spec.replicas 65 66 9731 .spec.replicas}}', "3     3 3    | -0007 2dfdc1c35 2DFDC1C35 3 11 A 'B' U+2603 +3"),
    ('ok', False, '{{printf "%f %.2f %e %E %g %G %8.3f %v %v %x" .spec.ratio .spec.ratio .spec.ratio .spec.huge .spec.huge .spec.ratio .spec.ratio .spec.huge 1.5 .spec.ratio}}', '0.250000 0.25 2.500000e-01 1.000000E+21 1e+21 0.25    0.250 1e+21 1.5 0x1p-02'),
    ('ok', False, '{{printf "%s %q %+q %10s %-10s| %x % X %.3s" .spec.name .spec.html .spec.uni .spec.name .spec.name .spec.name .spec.name .spec.name}}', 'hello world "<script>&\'\\"" "h\\u00e9llo \\u2603" hello world hello world| 68656c6c6f20776f726c64 68 65 6C 6C 6F 20 77 6F 72 6C 64 hel'),
    ('ok', False, '{{printf "%v %+v %#v %s %d %5s" .spec.map .spec.map .spec.map .spec.list .spec.list .spec.nums}}', 'map[a:1 b:2 c:map[d:[true]]] map[a:1 b:2 c:map[d:[true]]] map[string]interface {}{"a":1, "b":2, "c":map[string]interface {}{"d":[]interface {}{true}}} [%!s(int64=1) two %!s(float64=3.5) <nil> map[k:v]] [1 %!d(string=two) %!d(float64=3.5) <nil> map[%!d(string=k):%!d(string=v)]] [%!s(int64=    3) %!s(int64=    1) %!s(int64=    2)]'),
    ('ok', False, '{{printf "%v %d %s %t %t" .spec.nothing .spec.nothing .spec.nope .spec.flag .spec.replicas}}', '<nil> %!d(<nil>) %!s(<nil>) true %!t(int64=3)'),
    ('ok', False, '{{printf "%d"}} {{printf "%d" 1 2 "x"}} {{printf "100%%"}} {{printf "%!"}} {{printf "%"}} {{printf "%[2]d %[1]d" 1 2}} {{printf "%*d|%.*f" 5 42 2 3.14159}}', '%!d(MISSING) 1%!(EXTRA int=2, string=x) 100% %!!(MISSING) %!(NOVERB) 2 1    42|3.14'),
    ('ok', False, '{{print 1 2 "a" "b" 3 .spec.list}} {{println "a" 1 .spec.nope}} {{print .spec.nothing .spec.nope}}', '1 2ab3 [1 two 3.5 <nil> map[k:v]] a 1 <nil>\n <nil> <nil>'),
    ('ok', False, '{{len .spec.list}} {{len .spec.map}} {{len .spec.uni}} {{index .spec.list 1}} {{index .spec.map "zz"}} {{index .spec "map" "c" "d" 0}}', '5 3 10 two <no value> true'),
    ('ok', False, '{{slice .spec.list 1 3}} {{slice .spec.name 0 5}} {{slice .spec.name 6}}', '[two 3.5] hello world'),
    ('ok', False, '{{if .spec.flag}}yes{{else}}no{{end}} {{if .spec.off}}yes{{else if .spec.replicas}}r{{end}} {{with .spec.map}}{{.a}}{{end}} {{with .spec.nope}}x{{else with .spec.name}}{{.}}{{end}}', 'yes r 1 hello world'),
    ('ok', False, '{{range .spec.list}}[{{.}}]{{end}} {{range $k, $v := .spec.map}}{{$k}}={{$v}};{{end}} {{range .spec.nope}}x{{else}}empty{{end}} {{range 3}}{{.}}{{end}}', '[1][two][3.5][<no value>][map[k:v]] a=1;b=2;c=map[d:[true]]; empty 012'),
    ('ok', False, '{{range $i, $e := .spec.nums}}{{if eq $i 1}}{{continue}}{{end}}{{$e}}{{end}} {{range .spec.nums}}{{if eq . 1}}{{break}}{{end}}{{.}}{{end}}', '32 3'),
    ('ok', False, '{{$x := .spec.name}}{{$x}} {{$x = "changed"}}{{$x}}', 'hello world changed'),
    ('ok', False, '{{- /* comment */ -}} trimmed {{- " x " -}}   |  {{- 1 }}  b  {{ 2 -}}  c', 'trimmed x |1  b  2c'),
    ('ok', False, '{{define "t"}}[{{.}}]{{end}}{{template "t" .spec.name}}{{template "t"}}{{block "b" .spec.replicas}}<{{.}}>{{end}}', '[hello world][<no value>]<3>'),
    ('ok', False, '{{eq .spec.replicas 3}} {{eq .spec.replicas 1 2 3}} {{ne .spec.flag true}} {{eq .spec.nope .spec.nope2}} {{lt .spec.replicas 5}} {{ge .spec.ratio 0.25}} {{gt .spec.name "a"}}', 'true true false true true true true'),
    ('ok', False, '{{and .spec.flag .spec.name}} {{or .spec.off .spec.nope "dflt"}} {{not .spec.empty}} {{not .spec.map}}', 'hello world dflt true false'),
    ('ok', False, '{{html .spec.html}} {{js .spec.html}} {{urlquery .spec.name "&x=1/é"}} {{html .spec.nope}} {{js .spec.uni}}', '&lt;script&gt;&amp;&#39;&#34; \\u003Cscript\\u003E\\u0026\\\'\\" hello+world%26x%3D1%2F%C3%A9 &lt;no value&gt; héllo ☃'),
    ('ok', False, '{{exists .spec "map" "a"}} {{exists .spec "map" "zz"}} {{exists .spec.list 9}} {{exists .spec "nothing"}} {{base64decode .spec.encoded}}', 'true false false false hello'),
    ('ok', False, '{{.spec.name | printf "%q"}} {{.spec.replicas | printf "%d-%d" 1}} {{(index .spec.map "c").d}} {{\'a\'}} {{0x1F}} {{1e3}} {{1.5i}}', '"hello world" 1-3 [true] 97 31 1000 (0+1.5i)'),
    ('exec', True, '{{.spec.name}} {{index .spec "nope"}} {{.spec.nothing}}', ('template: output:1:45: executing "output" at <.spec.nothing>: map has no entry for key "nothing"', 'hello world <no value> ')),
    ('exec', True, '{{.spec.nope}}', ('template: output:1:7: executing "output" at <.spec.nope>: map has no entry for key "nope"', '')),
    ('exec', True, '{{.nope.deeper}}', ('template: output:1:7: executing "output" at <.nope.deeper>: map has no entry for key "nope"', '')),
    ('exec', True, '{{$x := .spec}}{{$x.nope}}', ('template: output:1:19: executing "output" at <$x.nope>: map has no entry for key "nope"', '')),
    ('parse', False, '{{.x', 'template: output:1: unclosed action'),
    ('parse', False, '{{if .x}}', 'template: output:1: unexpected EOF'),
    ('parse', False, '{{end}}', 'template: output:1: unexpected {{end}}'),
    ('parse', False, '{{range $i, $j, $k := .x}}{{end}}', 'template: output:1: too many declarations in range'),
    ('parse', False, '{{$y}}', 'template: output:1: undefined variable "$y"'),
    ('parse', False, '{{nofunc .x}}', 'template: output:1: function "nofunc" not defined'),
    ('parse', False, '{{.x | 3}}', 'template: output:1: non executable command in pipeline stage 2'),
    ('parse', False, '{{"unterminated}}', 'template: output:1: unterminated quoted string'),
    ('parse', False, '{{/* c */ x}}', 'template: output:1: comment ends before closing delimiter'),
    ('parse', False, '{{.x.}}', 'template: output:1: unexpected <.> in operand'),
    ('parse', False, '{{3.x}}', 'template: output:1: bad number syntax: "3.x"'),
    ('parse', False, '{{break}}', 'template: output:1: {{break}} outside {{range}}'),
    ('parse', False, '{{.a-b}}', "template: output:1: bad character U+002D '-'"),
    ('exec', False, '{{nil}}', ('template: output:1:2: executing "output" at <nil>: nil is not a command', '')),
    ('exec', False, '{{.spec.replicas.x}}', ('template: output:1:7: executing "output" at <.spec.replicas.x>: can\'t evaluate field x in type interface {}', '')),
    ('ok', False, '{{.spec.nothing.x}}', '<no value>'),
    ('exec', False, '{{index .spec.list 10}}', ('template: output:1:2: executing "output" at <index .spec.list 10>: error calling index: index out of range: 10', '')),
    ('exec', False, '{{index .spec.list 5}}', ('template: output:1:2: executing "output" at <index .spec.list 5>: error calling index: reflect: slice index out of range', '')),
    ('exec', False, '{{index .spec.map 1}}', ('template: output:1:2: executing "output" at <index .spec.map 1>: error calling index: value has type int; should be string', '')),
    ('exec', False, '{{index .spec.nope 1}}', ('template: output:1:2: executing "output" at <index .spec.nope 1>: error calling index: index of untyped nil', '')),
    ('exec', False, '{{len .spec.replicas}}', ('template: output:1:2: executing "output" at <len .spec.replicas>: error calling len: len of type int64', '')),
    ('exec', False, '{{len .spec.nope}}', ('template: output:1:2: executing "output" at <len .spec.nope>: error calling len: reflect: call of reflect.Value.Type on zero Value', '')),
    ('exec', False, '{{len .spec.nothing}}', ('template: output:1:2: executing "output" at <len .spec.nothing>: error calling len: reflect: call of reflect.Value.Type on zero Value', '')),
    ('exec', False, '{{eq .spec.replicas "3"}}', ('template: output:1:2: executing "output" at <eq .spec.replicas "3">: error calling eq: incompatible types for comparison', '')),
    ('exec', False, '{{eq .spec.map .spec.map}}', ('template: output:1:2: executing "output" at <eq .spec.map .spec.map>: error calling eq: non-comparable type map[a:%!s(int64=1) b:%!s(int64=2) c:map[d:[%!s(bool=true)]]]: map[string]interface {}', '')),
    ('exec', False, '{{lt .spec.flag true}}', ('template: output:1:2: executing "output" at <lt .spec.flag true>: error calling lt: invalid type for comparison', '')),
    ('exec', False, '{{lt .spec.nope 1}}', ('template: output:1:2: executing "output" at <lt .spec.nope 1>: error calling lt: invalid type for comparison', '')),
    ('exec', False, '{{eq .spec.replicas}}', ('template: output:1:2: executing "output" at <eq .spec.replicas>: error calling eq: missing argument for comparison', '')),
    ('exec', False, '{{printf .spec.replicas}}', ('template: output:1:14: executing "output" at <.spec.replicas>: wrong type for value; expected string; got int64', '')),
    ('exec', False, '{{base64decode .spec.bad64}}', ('template: output:1:2: executing "output" at <base64decode .spec.bad64>: error calling base64decode: base64 decode failed: illegal base64 data at input byte 1', '')),
    ('exec', False, '{{range .spec.name}}x{{end}}', ('template: output:1:13: executing "output" at <.spec.name>: range can\'t iterate over hello world', '')),
    ('ok', False, '{{range .spec.nothing}}x{{end}}', ''),
    ('exec', False, '{{range $i, $e := 3}}x{{end}}', ('template: output:1:18: executing "output" at <3>: can\'t use 3 to iterate over more than one variable', '')),
    ('exec', False, '{{template "nope"}}', ('template: output:1:11: executing "output" at <{{template "nope"}}>: template "nope" not defined', '')),
    ('exec', False, '{{call .spec.map}}', ('template: output:1:2: executing "output" at <call .spec.map>: error calling call: non-function .spec.map of type map[string]interface {}', '')),
    ('exec', False, '{{.spec.name 1}}', ('template: output:1:7: executing "output" at <.spec.name>: name is not a method but has arguments', '')),
    ('exec', False, '{{"x" 1}}', ('template: output:1:2: executing "output" at <"x">: can\'t give argument to non-function "x"', '')),
    ('exec', False, '{{slice .spec.list 3 1}}', ('template: output:1:2: executing "output" at <slice .spec.list 3 1>: error calling slice: invalid slice index: 3 > 1', '')),
    ('exec', False, 'partial {{.spec.name}} then {{.spec.replicas.x}} never', ('template: output:1:35: executing "output" at <.spec.replicas.x>: can\'t evaluate field x in type interface {}', 'partial hello world then ')),
    # recorded by helper-81: an empty character constant, a template that calls itself
    ('parse', False, "{{''}}", 'template: output:1: invalid syntax'),
    ('ok', False, '{{(index .spec.list 3).x}} {{(.spec.nope).x}}', '<no value> <no value>'),
    ('ok', False, '{{printf "%.2T|%-10.1T|%.1T|%.5U|%#.6U|%0 8.5s|%0 11x|% 08.2f|%.3T" .spec.flag .spec.map .spec.nothing 3 9731 .spec.ratio .spec.ratio .spec.ratio .spec.nope}}', "bo|m         |<nil>|U+00003|U+002603 '\u2603'|%!s(float64= 0000.25)| 0000x1p-02| 0000.25|<nil>"),
    ('exec', False, '{{$w := .spec.whole}}{{slice .spec.name $w}} {{slice .spec.name .spec.whole}}', ('template: output:1:47: executing "output" at <slice .spec.name .spec.whole>: error calling slice: cannot index slice/array with type interface {}', 'llo world ')),
    ('exec', True, '{{(index .spec.list 3).x}}', ('template: output:1:20: executing "output" at <3>: nil data; no entry for key "x"', '')),
    ('ok', False, '{{exists nil}} {{exists .spec.nope}} {{exists nil 1}} {{exists .spec.list 3}} {{exists .spec "list" 0}}', 'true true false false true'),
    ('exec', False, '{{define "r"}}{{template "r"}}{{end}}{{template "r"}}', ('template: output:1:25: executing "r" at <{{template "r"}}>: exceeded maximum template depth (100000)', '')),
    # recorded by helper-81: a byte that is not UTF-8 in an action is read as RuneError
    ('parse', False, '{{\udcff', "template: output:1: unrecognized character in action: U+FFFD '\ufffd'"),
    ('parse', False, '{{.a\udcff}}', "template: output:1: bad character U+FFFD '\ufffd'"),
    ('parse', False, '{{$x\udce2}}', "template: output:1: bad character U+FFFD '\ufffd'"),
    # recorded by helper-76: a string's byte (uint8), %+q of a rune, %x precisions, #, widths, slice to a list's capacity
    ('ok', False, '{{printf "%T %T %#v %#5v %#x %e %q" (index "abc" 0) (index .spec.uni 1) (index "abc" 0) (index .spec.uni 1) (index "a" 0) (index "a" 0) (index "a" 0)}} {{range $i := index "\\x03" 0}}{{printf "%T " $i}}{{end}}', "uint8 uint8 0x61  0xc3 0x61 %!e(uint8=97) 'a' uint8 uint8 uint8 "),
    ('ok', False, '{{printf "%+q %+q %+q %+q %#+q %+q %x %X %q %x %X %q %q" 9731 .spec.neg 128512 .spec.big 233 10 .spec.name .spec.uni .spec.uni .spec.neg .spec.big .spec.replicas .spec.huge}}', '\'\\u2603\' \'\\ufffd\' \'\\U0001f600\' \'\\ufffd\' \'\\u00e9\' \'\\n\' 68656c6c6f20776f726c64 68C3A96C6C6F20E29883 "héllo ☃" -7 2DFDC1C35 \'\\x03\' %!q(float64=1e+21)'),
    ('ok', False, '{{printf "%.1x|%.3X|% .3x|%.2q|%.1s|%08s|%-8X|" .spec.uni .spec.uni .spec.uni .spec.uni .spec.uni "-ab" "ab"}}', '68|68C3A9|68 c3 a9|"hé"|h|00000-ab|6162    |'),
    ('ok', False, '{{printf "%.0x %.1x %.2x %.3X %.0x %.1x %.1x %.2x" .spec.huge .spec.huge .spec.huge .spec.huge 1.5 1.03125 1.09375 -0.0}} {{printf "%#x %#.0x %#X %#g %#.3g %#.0e %#.0f %#8.2g" .spec.whole 1.5 .spec.ratio 1.0 .spec.whole 3.0 3.0 .spec.ratio}}', '0x1p+70 0x1.bp+69 0x1.b2p+69 0X1.B1BP+69 0x1p+01 0x1.0p+00 0x1.2p+00 -0x0.00p+00 0x2 0x1.p+01 0X1.P-02 1.00000 %!g(int64=002) 3.e+00 3.     0.25'),
    ('ok', False, '{{printf "%v|%v|%5v|%-4v|%05v|%6.2v|%8.3q|%06t|%05c|%06q|%+08d|%08.1f" .spec.map .spec.list .spec.nums .spec.map .spec.nums .spec.list .spec.list .spec.flag 65 65 5 -2.5}}', 'map[a:1 b:2 c:map[d:[true]]]|[1 two 3.5 <nil> map[k:v]]|[    3     1     2]|map[a   :1    b   :2    c   :map[d   :[true]]]|[00003 00001 00002]|[    01     tw    3.5 <nil> map[     k:     v]]|[  \'\\x01\'    "two" %!q(float64=     3.5) <nil> map[     "k":     "v"]]|00true|0000A|000\'A\'|+0000005|-00002.5'),
    ('ok', False, '{{printf "%#8v|%#08v|%#-8v|%#08v|%#.3g|%#d|%#s|%#x" .spec.list .spec.map .spec.flag .spec.neg .spec.whole 2.5 1.0 .spec.list}}', '[]interface {}{       1,    "two",      3.5, interface {}(nil), map[string]interface {}{     "k":     "v"}}|map[string]interface {}{00000"a":00000001, 00000"b":00000002, 00000"c":map[string]interface {}{00000"d":[]interface {}{0000true}}}|true    |-0000007|%!g(int64=002)|%!d(float64=2.50000)|%!s(float64=1.00000)|[0x1 0x74776f 0x1.c000p+01 <nil> map[0x6b:0x76]]'),
    ('ok', False, '{{slice .spec.list 1 7}} {{slice .spec.nums 0 4}} {{len (slice .spec.list 0 8)}} {{slice (slice .spec.list 0 2) 0 8}} {{slice (slice .spec.list 2 3 4) 0 2}} {{slice .spec.list 0 5 8}}', '[two 3.5 <nil> map[k:v] <nil> <nil>] [3 1 2 <nil>] 8 [1 two 3.5 <nil> map[k:v] <nil> <nil> <nil>] [3.5 <nil>] [1 two 3.5 <nil> map[k:v]]'),
    ('exec', False, '{{slice .spec.list 6}}', ('template: output:1:2: executing "output" at <slice .spec.list 6>: error calling slice: invalid slice index: 6 > 5', '')),
    ('exec', False, '{{index (index "a" 0) 0}}', ('template: output:1:2: executing "output" at <index (index "a" 0) 0>: error calling index: can\'t index item of type uint8', '')),
    ('ok', False, '{{.spec.\U00011f04\U00011f50}}|{{$\U00031350 := 7}}{{$\U00031350}}', '<no value>|7'),
    ('parse', False, '{{.a\U0001f6dc}}', "template: output:1: bad character U+1F6DC '\U0001f6dc'"),
    ('ok', False, '{{printf "%b|%b|%b|%+b|%25b|%-25b|%#b|%025b|%.2b|%b|%b" 1.5 .spec.ratio .spec.huge 2.0 -3.5 1.0 1.0 -1.0 3.0 -0.0 .spec.list}}', '6755399441055744p-52|4503599627370496p-54|7629394531250000p+17|+4503599627370496p-51|    -7881299347898368p-51|4503599627370496p-52     |4503599627370496p-52|-00004503599627370496p-52|6755399441055744p-51|-0p-1074|[1 %!b(string=two) 7881299347898368p-51 <nil> map[%!b(string=k):%!b(string=v)]]'),
]
# fmt: on

DATA: dict[str, Any] = {"metadata": {"labels": LABELS}, "spec": SPEC}


@pytest.mark.parametrize(
    ("kind", "strict", "template", "expected"), CASES, ids=[c[2][:40] for c in CASES]
)
def test_as_kubectl_prints(kind: str, strict: bool, template: str, expected: Any) -> None:
    if kind == "parse":
        with pytest.raises(TemplateError) as parse_error:
            Template(template)
        assert str(parse_error.value) == expected
        return
    parsed = Template(template)
    if kind == "ok":
        assert parsed.execute(DATA, missing_key_error=strict) == expected
        return
    message, written = expected
    with pytest.raises(ExecError) as exec_error:
        parsed.execute(DATA, missing_key_error=strict)
    assert (str(exec_error.value), exec_error.value.partial) == (message, written)


def test_a_template_runs_again_with_the_same_result() -> None:
    # variables and the range stack are per execution, not per template
    parsed = Template("{{$n := 0}}{{range .spec.nums}}{{$n = .}}{{end}}{{$n}}")
    assert [parsed.execute(DATA) for _ in range(2)] == ["2", "2"]


def test_sprintf_reports_missing_and_extra_operands() -> None:
    assert go_sprintf("%d %s", [1]) == "1 %!s(MISSING)"
    assert go_sprintf("%d", [1, "x"]) == "1%!(EXTRA string=x)"


def test_imported_only_when_a_template_is_printed() -> None:
    # start-up matters (bench/fast_path_bench.py): -o json must not load the engine
    code = (
        "import io, sys\n"
        "from kubectl_crd.output.printing import GET_FORMATS, ObjectPrinter, resolve_output\n"
        "for output in ('json', 'go-template={{.kind}}'):\n"
        "    printer = ObjectPrinter(resolve_output(output, GET_FORMATS), io.StringIO())\n"
        "    printer.write({'kind': 'K'})\n"
        "    printer.flush()\n"
        "    print('kubectl_crd.model.gotemplate' in sys.modules)\n"
    )
    assert run_python(code).stdout.split() == ["False", "True"]


@pytest.mark.parametrize(
    ("value", "decoded"),
    [
        # json.Marshal writes a whole float64 below 1e21 without a fraction, and
        # util/json.Unmarshal reads a whole number that fits an int64 as an int64
        (2.0, 2),
        (-0.0, 0),
        (1e15, 10**15),
        # past int64 (or written with an exponent, from 1e21) it stays a float64
        (1e20, 1e20),
        (1e21, 1e21),
        (2**63, float(2**63)),
        (2.5, 2.5),
        ({"a": [1.0, {"b": 3}]}, {"a": [1, {"b": 3}]}),
    ],
)
def test_values_as_kubectl_decodes_them(value: Any, decoded: Any) -> None:
    got = as_kubectl_decodes(value)
    assert (got, _types(got)) == (decoded, _types(decoded))


def _types(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__


# quote_test.go's quoterunetests: (rune, strconv.QuoteRune, strconv.QuoteRuneToASCII),
# which printf's %q and %+q of a number print
QUOTE_RUNE_TESTS = [
    (ord("a"), "'a'", "'a'"),
    (7, "'\\a'", "'\\a'"),
    (ord("\\"), "'\\\\'", "'\\\\'"),
    (0xFF, "'\u00ff'", "'\\u00ff'"),
    (0x263A, "'\u263a'", "'\\u263a'"),
    (0xDEAD, "'\ufffd'", "'\\ufffd'"),
    (0xFFFD, "'\ufffd'", "'\\ufffd'"),
    (0x10FFFF, "'\\U0010ffff'", "'\\U0010ffff'"),
    (0x10FFFF + 1, "'\ufffd'", "'\\ufffd'"),
    (0x04, "'\\x04'", "'\\x04'"),
]


@pytest.mark.parametrize(("rune", "quoted", "ascii_quoted"), QUOTE_RUNE_TESTS)
def test_q_and_plus_q_of_a_rune_as_go(rune: int, quoted: str, ascii_quoted: str) -> None:
    assert go_sprintf("%q|%+q", [rune, rune]) == f"{quoted}|{ascii_quoted}"


def test_strings_hold_the_bytes_go_cuts_and_joins() -> None:
    # kubectl 1.33's bytes for these (tests/integration/test_get_templates_differential.py
    # compares them live): a rune cut by slice and index, binary base64decode, \x escapes,
    # the cut halves joined again into the rune that eq, len and %.1s see whole
    template = Template(
        "{{slice .s 0 2}}|{{slice .s 2}}|{{index .s 1}}|{{base64decode .b}}|"
        '{{printf "%q %+q %x" (slice .s 0 2) (base64decode .b) (slice .s 0 2)}}|'
        '{{$j := print (slice .s 0 2) (slice .s 2)}}{{eq $j .s}} {{len $j}} {{printf "%.2s" $j}}|'
        '{{"\\xc3\\xa9"}} {{len "\\xff"}} {{lt (slice .s 0 2) .s}} {{exists . "s" 5}}|'
        "{{js (slice .s 0 2)}} {{urlquery (slice .s 0 2)}}"
    )
    text = template.execute({"s": "h\u00e9llo", "b": "/w=="})
    assert go_bytes(text) == (
        b"h\xc3|\xa9llo|195|\xff|"
        b'"h\\xc3" "\\xff" 68c3|'
        b"true 6 h\xc3\xa9|"
        b"\xc3\xa9 1 true true|"
        b"h\xc3 h%C3"
    )


# recorded from kubectl 1.33 (label --local -o go-template): how fmt's doPrintf reads
# argument indexes, * widths and precisions, ASCII digits only, numbers past a million
PRINTF_PARSING = [
    (
        '{{printf "%[x]d|%[0]d|%[3]d|%[]d|%[1" 5}}',
        "%!d(BADINDEX)|%!d(BADINDEX)|%!d(BADINDEX)|%!d(BADINDEX)|%!(NOVERB)",
    ),
    (
        '{{printf "%[]" 5}}|{{printf "%[1]" 5}}|{{printf "%5." 5}}|{{printf "%.[1]*d" 5}}',
        "%!](BADINDEX)|%!(NOVERB)|%!.(int=    5)|%!d(MISSING)",
    ),
    (
        '{{printf "%[1]2d|%[1].2f|%[2]*[1]d|%[1]*.[2]*[3]d" 1.5 3 4}}',
        "%!d(BADINDEX)|%!f(BADINDEX)|%!d(float64=1.5)|%!(BADWIDTH)004",
    ),
    (
        '{{printf "%*d|%.*d|%*d|%.*d" 2000000 5 -2000000 5 -3 7 -1 5}}',
        "%!(BADWIDTH)5|%!(BADPREC)5|7  |%!(BADPREC)5",
    ),
    ('{{printf "%12345678d|" 5}}', "%!(NOVERB)%!(EXTRA int=5)"),
    (
        '{{printf "%\u0663d|%\u00b2d|%[\u0661]d|%.\u0662f" 5 6 7 1.5}}',
        "%!\u0663(int=5)d|%!\u00b2(int=6)d|%!d(BADINDEX)|%!\u0662(int=7)f",
    ),
]


@pytest.mark.parametrize(("template", "expected"), PRINTF_PARSING)
def test_printf_reads_its_format_as_fmt_does(template: str, expected: str) -> None:
    assert Template(template).execute({}) == expected
