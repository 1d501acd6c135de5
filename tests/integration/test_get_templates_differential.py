"""``kubectl crd get`` and ``scale`` with kubectl's template formats, side by side with
kubectl 1.33 on the session's control plane.

Every case runs both tools on the same objects and compares stdout, stderr (kubectl's
``See 'kubectl get --help'`` read as ``kubectl crd get``) and the exit code:

- ``-o go-template=`` with every construct, builtin function and ``printf`` verb over
  strings, int64s, float64s, bools, maps, lists and nulls, on one object and on a list
  (a ``v1`` ``List``), live and from ``get -f`` of a dump (ours offline, kubectl reads
  the cluster); many templates joined into one so that a run checks them all, each
  part compared on its own;
- missing keys with ``--allow-missing-template-keys=false``, parse errors and execution
  errors (the partial output and kubectl's debugging text on stdout);
- ``template=``, ``templatefile=``, ``go-template-file=``, ``jsonpath-file=``,
  ``jsonpath-as-json=``, ``custom-columns-file=``, ``--template`` alone and with
  ``-o jsonpath``, a missing file, an empty template, an unknown format;
- ``scale`` with those formats (to the count the objects have: kubectl prints the
  object it read before the scale, kubectl-crd the one after, equal when nothing
  changes).

The objects: ``Gadget`` (a CRD of this module whose spec keeps any field, with a scale
subresource) and strimzi's ``KafkaBridge`` from the corpus.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integration.envtest import ControlPlane, newest_kubectl

SCRIPT = Path(sys.executable).with_name("kubectl-crd")
KUBECTL_CRD = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]
NAMESPACE = "gotemplates"
#: qualified: other modules install a "gadgets" of their own group on the same session
#: control plane, and then the bare plural names one of them (as kubectl picks it)
GADGET_RESOURCE = "gadgets.gotemplates.example.com"
BRIDGE_CRD = Path("crds", "strimzi", "046-Crd-kafkabridge.yaml")
BRIDGE_SAMPLE = Path("samples", "strimzi", "bridge__kafka-bridge.yaml")

GADGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.gotemplates.example.com}
spec:
  group: gotemplates.example.com
  names: {kind: Gadget, plural: gadgets, singular: gadget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""

GADGETS = f"""\
apiVersion: gotemplates.example.com/v1
kind: Gadget
metadata:
  name: g1
  namespace: {NAMESPACE}
  labels: {{app: demo, tier: "1"}}
  annotations: {{note: "<a&b>"}}
spec:
  replicas: 3
  ratio: 0.25
  big: 12345678901
  huge: 1.0e+21
  whole: 2.0
  neg: -7
  flag: true
  "no": false
  name: hello world
  empty: ""
  nothing: null
  list: [1, "two", 3.5, null, {{k: v}}]
  nums: [3, 1, 2]
  map: {{b: 2, a: 1, c: {{d: [true]}}}}
  encoded: aGVsbG8=
  unpadded: aGVsbG8
  bad64: "a$b"
  html: "<script>&'\\""
  uni: "héllo ☃"
---
apiVersion: gotemplates.example.com/v1
kind: Gadget
metadata: {{name: g2, namespace: {NAMESPACE}}}
spec: {{replicas: 1, list: [], map: {{}}, name: second}}
"""

#: one object's templates: every construct, builtin and printf verb (joined by PART)
SINGLE = [
    "{{.spec.replicas}} {{.spec.ratio}} {{.spec.big}} {{.spec.huge}} {{.spec.whole}} {{.spec.neg}}",
    "{{.spec.flag}} {{.spec.no}} {{.spec.name}} [{{.spec.empty}}] {{.spec.nothing}} {{.spec.list}}",
    "{{.spec.map}} {{.spec.nope}} {{.nope.deeper}} {{.metadata.labels}}",
    '{{printf "%T %T %T %T %T %T %T %T %T" .spec.replicas .spec.ratio .spec.flag .spec.name'
    " .spec.list .spec.map .spec.nothing .spec.nope 1}}",
    '{{printf "%d %5d %-5d| %05d %x %X %o %O %b %c %q %U %#U %+d %#x" .spec.replicas'
    " .spec.replicas .spec.replicas .spec.neg .spec.big .spec.big .spec.replicas 8"
    " .spec.replicas 65 66 9731 9731 .spec.replicas 255}}",
    '{{printf "%f %.2f %e %E %g %G %8.3f %v %v %x %.3g %+.1e %6.2v" .spec.ratio .spec.ratio'
    " .spec.ratio .spec.huge .spec.huge .spec.ratio .spec.ratio .spec.huge 1.5 .spec.ratio"
    " 123456.0 .spec.huge 3.14159}}",
    '{{printf "%s %q %+q %#q %10s %-10s| %x % X %#x %.3s %v" .spec.name .spec.html .spec.uni'
    ' "a`b" .spec.name .spec.name .spec.name .spec.name "hi" .spec.name .spec.uni}}',
    '{{printf "%v %+v %#v %s %d %5s %t" .spec.map .spec.map .spec.map .spec.list .spec.list'
    " .spec.nums .spec.flag}}",
    '{{printf "%v %d %s %t %t %d" .spec.nothing .spec.nothing .spec.nope .spec.flag'
    " .spec.replicas .spec.name}}",
    '{{printf "%d"}} {{printf "%d" 1 2 "x"}} {{printf "100%%"}} {{printf "%!"}} {{printf "%"}}'
    ' {{printf "%[2]d %[1]d" 1 2}} {{printf "%*d|%-*d|%.*f" 5 42 5 42 2 3.14159}}',
    '{{print 1 2 "a" "b" 3 .spec.list}} {{println "a" 1 .spec.nope}} {{print}}'
    " {{print .spec.nothing .spec.nope}}",
    "{{len .spec.list}} {{len .spec.map}} {{len .spec.name}} {{len .spec.uni}}"
    ' {{index .spec.list 1}} {{index .spec.map "zz"}} {{index .spec "map" "c" "d" 0}}'
    ' {{index .spec.list 4 "k"}} {{index .metadata.labels "app"}}',
    "{{slice .spec.list 1 3}} {{slice .spec.name 0 5}} {{slice .spec.list}} {{slice .spec.name 6}}",
    "{{if .spec.flag}}yes{{else}}no{{end}} {{if .spec.no}}y{{else if .spec.replicas}}r{{end}}"
    " {{if .spec.nope}}a{{else}}b{{end}} {{if .spec.empty}}e{{end}} {{if .spec.nothing}}n{{end}}",
    "{{with .spec.map}}{{.a}}-{{.b}}{{end}} {{with .spec.nope}}x{{else}}none{{end}}"
    " {{with .spec.nope}}x{{else with .spec.name}}{{.}}{{end}}",
    "{{range .spec.list}}[{{.}}]{{end}} {{range $i, $v := .spec.map}}{{$i}}={{$v}};{{end}}"
    " {{range .spec.nope}}x{{else}}empty{{end}} {{range $k, $v := .metadata.labels}}{{$k}}{{end}}",
    "{{range $i, $e := .spec.nums}}{{if eq $i 1}}{{continue}}{{end}}{{$e}}{{end}}"
    " {{range .spec.nums}}{{if eq . 1}}{{break}}{{end}}{{.}}{{end}}",
    "{{range 3}}{{.}}{{end}} {{range $x := .spec.replicas}}<{{$x}}>{{end}} {{range 0}}x{{else}}0{{end}}",
    '{{$x := .spec.name}}{{$x}} {{$x = "changed"}}{{$x}} {{$.kind}}'
    " {{$n := 0}}{{range .spec.nums}}{{$n = .}}{{end}}{{$n}}",
    '{{- /* comment */ -}} trimmed {{- " x " -}}   |  {{- 1 }}  b  {{ 2 -}}  c {{/* kept */}}',
    '{{define "t"}}[{{.}}]{{end}}{{template "t" .spec.name}}{{template "t"}}'
    '{{block "b" .spec.replicas}}<{{.}}>{{end}}',
    '{{eq .spec.replicas 3}} {{eq .spec.name "hello world"}} {{eq .spec.replicas 1 2 3}}'
    ' {{ne .spec.flag true}} {{eq .spec.nope .spec.nope2}} {{eq .spec.nope "x"}}'
    " {{eq .spec.list .spec.nope}}",
    '{{lt .spec.replicas 5}} {{le 3 .spec.replicas}} {{gt .spec.name "a"}} {{ge .spec.ratio 0.25}}'
    ' {{lt "a" "b"}} {{gt .spec.neg -10}}',
    '{{and .spec.flag .spec.name}} {{and .spec.no .spec.name}} {{or .spec.no .spec.nope "dflt"}}'
    " {{or .spec.nope}} {{not .spec.empty}} {{not .spec.map}} {{not .spec.nothing}}",
    '{{html .spec.html}} {{js .spec.html}} {{urlquery .spec.name "&x=1/é"}} {{html .spec.nope}}'
    ' {{js .spec.uni}} {{html 1 2}} {{js "a\\nb=c"}}',
    '{{exists .spec "map" "a"}} {{exists .spec "map" "zz"}} {{exists .spec.list 1}}'
    ' {{exists .spec.list 9}} {{exists . "spec" "nothing"}} {{base64decode .spec.encoded}}'
    " {{exists nil}} {{exists .spec.nothing}} {{exists .spec.nope}} {{exists nil 1}}",
    '{{.spec.name | printf "%q"}} {{.spec.replicas | printf "%d-%d" 1}} {{"x" | len}}'
    ' {{.spec.list | len}} {{(index .spec.map "c").d}} {{(.spec.map).a}}',
    "{{'a'}} {{0x1F}} {{1e3}} {{-5}} {{1_000}} {{0o17}} {{017}} {{1.5i}}"
    ' {{printf "%T %T %T" 1 1.0 \'a\'}} {{"a\\tb\\u00e9\\x41"}} {{`raw\\n`}}',
    "{{len .metadata.managedFields}} {{.metadata.name}} {{.metadata.namespace}}",
    # a string's element is a byte: uint8, not int64 (its type, %#v, a bad verb, range)
    '{{printf "%T %T %#v %#5v %#x %e %q" (index "abc" 0) (index .spec.uni 1) (index "abc" 0)'
    ' (index .spec.uni 1) (index "a" 0) (index "a" 0) (index "a" 0)}}'
    ' {{range $i := index "\\x03" 0}}{{printf "%T " $i}}{{end}}',
    # %+q of a number is its rune quoted in ASCII; %x, %X, %q of strings and numbers
    '{{printf "%+q %+q %+q %+q %#+q %+q %x %X %q %x %X %q %q" 9731 .spec.neg 128512 .spec.big'
    " 233 10 .spec.name .spec.uni .spec.uni .spec.neg .spec.big .spec.replicas .spec.huge}}",
    # a precision counts a string's bytes for %x and %X, its runes for the others
    '{{printf "%.1x|%.3X|% .3x|%.2q|%.1s|%08s|%-8X|" .spec.uni .spec.uni .spec.uni .spec.uni'
    ' .spec.uni "-ab" "ab"}}',
    # numbers: strconv.ParseFloat's underscores, hex, rounding, range
    '{{printf "%v|%T|%v|%v|%v|%v|%v" 1_23.50_0_0e+1_2 1e3 0x_1_2.3_4_5p+1_2 0x1p-1075'
    " 1.7976931348623158e308 0x1.fffffffffffff7fffp1023 2.4703282292062328e-324}}"
    ' {{printf "%v|%T|%v|%v" 9223372036854775807 0x10 -0 0x1.p1}}',
    # %T cut by a precision (not nil's), %U's precision, a space sign before a float's zeros
    '{{printf "%.2T|%-10.1T|%.1T|%.5U|%#.6U|%0 8.5s|%0 11x|% 08.2f|%.3T" .spec.flag .spec.map'
    " .spec.nothing 3 9731 .spec.ratio .spec.ratio .spec.ratio .spec.nope}}",
    # a field of a parenthesized nil: no value (exec.go evalField of an invalid receiver)
    "{{(index .spec.list 3).x}} {{(.spec.nothing).x.y}} {{(.spec.nope).x}}",
    # fmt's doPrintf: argument indexes good and bad, * widths and precisions out of
    # range, digits that are not ASCII (a verb, not a width), a number past a million
    '{{printf "%[x]d|%[0]d|%[3]d|%[]d|%[2]*[1]d|%[1]*.[2]*[3]d|%[1]2d" .spec.ratio 3 4}}'
    ' {{printf "%*d|%.*d|%.*d|%5." 2000000 5 -1 5 .spec.neg}}'
    ' {{printf "%\u0663d|%[\u0661]d|%12345678d" .spec.replicas 5 6}}',
    # %x of a float rounds half to even to its precision; # keeps a point and zeros
    '{{printf "%.0x %.1x %.2x %.3X %.0x %.1x %.1x %.2x" .spec.huge .spec.huge .spec.huge'
    ' .spec.huge 1.5 1.03125 1.09375 -0.0}} {{printf "%#x %#.0x %#X %#g %#.3g %#.0e %#.0f'
    ' %#8.2g" .spec.whole 1.5 .spec.ratio 1.0 .spec.whole 3.0 3.0 .spec.ratio}}',
    # %v of maps and lists; a width pads each element, zeros too, never a nil inside
    '{{printf "%v|%v|%5v|%-4v|%05v|%6.2v|%8.3q|%08v|%06t|%05c|%06q|%+08d|%08.1f" .spec.map'
    " .spec.list .spec.nums .spec.map .spec.nums .spec.list .spec.list .spec.nothing"
    " .spec.flag 65 65 5 -2.5}}",
    '{{printf "%#8v|%#08v|%#-8v|%#08v" .spec.list .spec.map .spec.flag .spec.neg}}',
    # %b of a float: its integer mantissa and power of two (strconv fmtB)
    '{{printf "%b|%b|%b|%+b|%25b|%-25b|%#b|%025b|%.2b|%b|%b" 1.5 .spec.ratio .spec.huge 2.0'
    " -3.5 1.0 1.0 -1.0 3.0 -0.0 .spec.list}}",
    # a bad verb shows the value with %v and the verb's flags (# is not %#v there)
    '{{printf "%#.3g|%#d|%#s|%#x" .spec.whole 2.5 1.0 .spec.list}}',
    # identifiers' letters and digits are Go's (Unicode 15.0): Kawi's letter and digit,
    # CJK Extension H, Nag Mundari's digit
    "{{.spec.\U00011f04\U00011f50}} {{$\U00031350 := 1}}{{$\U00031350}}"
    " {{$x\U0001e4f0 := .spec.name}}{{$x\U0001e4f0}}",
    # slice reaches a list's capacity (Go's append grew it as JSON was decoded): nils
    "{{slice .spec.list 1 7}} {{slice .spec.nums 0 4}} {{len (slice .spec.list 0 8)}}"
    " {{slice (slice .spec.list 0 2) 0 8}} {{slice (slice .spec.list 2 3 4) 0 2}}"
    " {{slice .spec.list 0 5 8}} {{slice .metadata.managedFields 1 1}}",
]

#: a list's templates
LISTED = [
    "{{.kind}} {{.apiVersion}} {{.metadata}} {{len .items}}",
    "{{range .items}}{{.metadata.name}}:{{.spec.replicas}}:{{.spec.list}};{{end}}",
    '{{range $i, $o := .items}}{{$i}}={{index $o.spec "name"}} {{end}}',
    "{{with index .items 0}}{{.kind}}{{end}} {{(index .items 1).spec.map}}",
]

#: strimzi's KafkaBridge sample (spec.replicas, bootstrapServers, http.port)
BRIDGE = [
    "{{.kind}} {{.spec}} {{.spec.http}} {{.spec.replicas}} {{.status}} {{.metadata.labels}}",
    '{{printf "%T %v %05d %q" .spec.http.port .spec.http.port .spec.replicas'
    " .spec.bootstrapServers}}",
    "{{range $k, $v := .spec}}{{$k}}={{$v}};{{end}} {{len .spec}} {{with .spec.tls}}tls{{end}}",
    '{{index .spec "http" "port"}} {{eq .spec.replicas 1}} {{exists .spec "http" "cors"}}'
    " {{slice .spec.bootstrapServers 0 8}} {{js .spec.bootstrapServers}}",
]

#: templates whose strings hold bytes that are not UTF-8, compared as bytes: a rune cut
#: by ``slice`` (.spec.uni is "héllo ☃"), ``base64decode`` of binary data ("/w==" is
#: 0xff, "wyg=" 0xc3 0x28), ``\\x`` escapes in literals, the halves of a rune joined again
BYTES = [
    "{{slice .spec.uni 0 2}}|{{slice .spec.uni 2}}|{{slice .spec.uni 7 9}}|{{index .spec.uni 5}}",
    '{{printf "%s|%q|%+q|%#q|%x|% X|%.1s|%.2q|%5s|%-4s|%v" (slice .spec.uni 0 2)'
    " (slice .spec.uni 0 2) (slice .spec.uni 0 2) (slice .spec.uni 0 2) (slice .spec.uni 0 2)"
    " (slice .spec.uni 0 2) (slice .spec.uni 1) (slice .spec.uni 1) (slice .spec.uni 1)"
    " (slice .spec.uni 2 3) (slice .spec.uni 7)}}",
    '{{base64decode "/w=="}}|{{base64decode "wyg="}}|{{printf "%q %+q %x %v %#v" (base64decode'
    ' "/w==") (base64decode "wyg=") (base64decode "wyg=") (base64decode "/w==") (base64decode'
    ' "wyg=")}}',
    "{{html (slice .spec.uni 0 2)}}|{{js (slice .spec.uni 0 2)}}|{{urlquery (slice .spec.uni 0"
    ' 2)}}|{{js (base64decode "/w==")}}|{{html (base64decode "/w==")}}|{{js (slice .spec.uni 0 8)}}',
    "{{$a := slice .spec.uni 0 2}}{{$b := slice .spec.uni 2}}{{$j := print $a $b}}{{$j}}"
    ' {{eq $j .spec.uni}} {{len $j}} {{printf "%.2s|%q|%+q" $j $j $j}} {{println $a 1}}'
    '{{print 1 $b 2}} {{printf "%s%s" $a $b}}',
    "{{lt (slice .spec.uni 0 2) .spec.uni}} {{lt .spec.uni (slice .spec.uni 0 2)}}"
    r' {{gt (slice .spec.uni 0 2) "hz"}} {{lt "h\u00ff" (slice .spec.uni 0 2)}}'
    ' {{exists .spec "uni" 9}} {{exists .spec "uni" 10}} {{len (slice .spec.uni 8)}}',
    r"""{{"\xc3\xa9"}}|{{len "\xff"}}|{{"\303\251"}}|{{printf "%q" "\xff"}}|{{'\xff'}}"""
    r'|{{"\xc3"}}{{"\xa9"}}|{{eq "\xc3\xa9" "é"}}|{{printf "%c|%c|%c" 0xD800 0x110000 233}}',
    # %+q: strconv.QuoteToASCII and QuoteRuneToASCII (printable runes past ASCII escaped)
    r'{{printf "%+q|%+q|%+q|%+q|%#+q|%+q|%+q|%+q" "h\u00e9\x00\u2028\U0001F600\u00a0" 233'
    r' 0x1F600 7 "é" 0xD800 0x10FFFF "\x7f\u0378"}}',
    # %#q: strconv.CanBackquote takes any rune past ASCII but U+FEFF, no byte cut off
    r'{{printf "%#q|%#q|%#q|%#q|%#q|%#q|%#q|%#+q|%#q" "a\u2028" "\ufeff" "\u0378" "\u0085"'
    r' "\x7f" "\ufffd" "a\u00a0" "é" (slice .spec.uni 0 2)}}',
]

PART = "<@@>"  # no white space: a trim marker would eat it
#: in a case's arguments: ``-f`` of the dump, for kubectl-crd only
OFFLINE = "<offline>"

#: templates that fail to parse, or fail while running (each alone; the unit tests of
#: model.gotemplate hold more, with kubectl's recorded output)
FAILING = [
    "{{.x",
    "{{if .x}}",
    "{{nofunc .x}}",
    "{{3.x}}",
    "{{.spec.replicas.x}}",
    "{{.spec.nothing.x}}",
    "{{index .spec.list 10}}",
    '{{eq .spec.replicas "3"}}',
    "{{printf .spec.replicas}}",
    "{{base64decode .spec.unpadded}}",
    "{{range .spec.nothing}}x{{end}}",
    '{{template "nope"}}',
    "partial {{.spec.name}} then {{.spec.replicas.x}} never",
    "{{slice .spec.list 1 9}}",
    "{{slice .spec.list 6}}",
    "{{slice .spec.name 0 50}}",
    "{{slice .spec.name 12}}",
    "{{len .spec.replicas}}",
    "{{len .spec.ratio}}",
    '{{index (index "a" 0) 0}}',
    '{{len (index "a" 0)}}',
    # numbers as parse.go's newNumber reads them: a uint64 fails where it is used
    "{{9223372036854775808}}",
    "{{18446744073709551616}}",
    "{{08}}",
    "{{1e400}}",
    "{{123.5e+1__2}}",
    "{{''}}",
    "{{slice .spec.name .spec.whole}}",
    '{{define "r"}}{{template "r" .}}{{end}}{{template "r" .spec}}',
    # runes Unicode 15.0 made printable that are no letter: a symbol, a Kawi mark
    "{{.spec.a\U0001f6dc}}",
    "{{$\U00011f41 := 1}}",
]

#: templates with missing keys, run with --allow-missing-template-keys=false
STRICT = [
    '{{.spec.name}} {{index .spec "nope"}} {{.spec.nothing}}',
    "{{.spec.nope}}",
    "{{$x := .spec}}{{$x.nope}}",
    "{{(index .spec.list 3).x}}",
]


@dataclass(frozen=True)
class Setup:
    plane: ControlPlane
    kubectl: str
    files: Path
    dump: Path


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(scope="module")
def setup(
    apiserver: ControlPlane, corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Setup]:
    files = tmp_path_factory.mktemp("templates")
    (files / "crd.yaml").write_text(GADGET_CRD)
    (files / "gadgets.yaml").write_text(GADGETS)
    apiserver.install_crds([files / "crd.yaml", corpus_dir / BRIDGE_CRD])
    apiserver.kubectl("create", "namespace", NAMESPACE)
    try:
        apiserver.kubectl("create", "-f", str(files / "gadgets.yaml"))
        apiserver.kubectl("create", "-n", NAMESPACE, "-f", str(corpus_dir / BRIDGE_SAMPLE))
        # a dump with what kubectl's printers see (get -f shows it as stored)
        dump = apiserver.kubectl(
            "get", GADGET_RESOURCE, "-n", NAMESPACE, "-o", "yaml", "--show-managed-fields"
        ).stdout
        (files / "dump.yaml").write_text(dump)
        (files / "template.txt").write_text("{{range .items}}{{.metadata.name}} {{end}}\n")
        # CRLF and a lone CR: kubectl reads the file's bytes, no line ending translated
        (files / "crlf.txt").write_bytes(b"{{.metadata.name}}\r\n{{.kind}}\rx\r\n")
        (files / "crlf-jsonpath.txt").write_bytes(b"{.items[*].metadata.name}\r\n{.kind}\rx\r\n")
        (files / "jsonpath.txt").write_text("{.items[*].spec.nums}")
        (files / "columns.txt").write_text("NAME   NUMS  NOPE\n.metadata.name {.spec.nums} .nope\n")
        yield Setup(apiserver, newest_kubectl(), files, files / "dump.yaml")
    finally:
        apiserver.kubectl("delete", "namespace", NAMESPACE, "--wait=false", check=False)


def run_both(setup: Setup, *args: str) -> tuple[Run, Run]:
    """kubectl ARGS and kubectl crd ARGS, started together, in the module's namespace;
    ``OFFLINE`` in ARGS is ``-f DUMP`` for ours only (kubectl reads the cluster, and
    takes no resource with -f)."""
    kubectl, ours = run_both_bytes(setup, *args)
    return Run(kubectl.code, kubectl.out.decode(), kubectl.err.decode()), Run(
        ours.code, ours.out.decode(), ours.err.decode()
    )


@dataclass(frozen=True)
class RawRun:
    code: int
    out: bytes
    err: bytes


def run_both_bytes(setup: Setup, *args: str) -> tuple[RawRun, RawRun]:
    """``run_both``, its outputs the bytes each tool wrote."""
    plane = setup.plane
    config = [f"--kubeconfig={plane.kubeconfig}", f"--context={plane.context}", "-n", NAMESPACE]
    theirs = [a for a in args if a != OFFLINE]
    ours = [b for a in args for b in (("-f", str(setup.dump)) if a == OFFLINE else (a,))]
    running = [
        subprocess.Popen(
            [*command, *arguments, *config],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=plane.env(),
            cwd=setup.files,
        )
        for command, arguments in (([setup.kubectl], theirs), (KUBECTL_CRD, ours))
    ]
    runs = []
    for process in running:
        out, err = process.communicate(timeout=120)
        runs.append(RawRun(process.returncode, out, err))
    kubectl, ours = runs
    err = kubectl.err.replace(b"'kubectl ", b"'kubectl crd ")
    return RawRun(kubectl.code, kubectl.out, err), ours


def check_all(setup: Setup, cases: list[list[str]]) -> list[str]:
    """Each case's differences between kubectl and kubectl crd (none: equal)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda args: run_both(setup, *args), cases))
    problems = []
    for args, (kubectl, ours) in zip(cases, results, strict=True):
        if kubectl != ours:
            problems.append(f"{' '.join(args)}\n  kubectl: {kubectl}\n  ours:    {ours}")
    return problems


def parts_differ(kubectl: RawRun, ours: RawRun, templates: list[str]) -> list[str]:
    """The templates of a joined run whose parts differ, byte for byte."""
    assert (kubectl.code, kubectl.err) == (0, b""), kubectl
    assert (ours.code, ours.err) == (0, b""), ours
    theirs, mine = kubectl.out.split(PART.encode()), ours.out.split(PART.encode())
    assert len(theirs) == len(mine) == len(templates)
    return [
        f"{t}\n  kubectl: {a!r}\n  ours:    {b!r}"
        for t, a, b in zip(templates, theirs, mine, strict=True)
        if a != b
    ]


def test_every_construct_prints_as_kubectl_prints_it(setup: Setup) -> None:
    single, listed = PART.join(SINGLE), PART.join(LISTED)
    runs = [
        (["get", GADGET_RESOURCE, "g1", "-o", f"go-template={single}"], SINGLE),
        (["get", GADGET_RESOURCE, "-o", f"go-template={listed}"], LISTED),
        (["get", GADGET_RESOURCE, "g1", OFFLINE, "-o", f"go-template={single}"], SINGLE),
        (["get", GADGET_RESOURCE, OFFLINE, "-o", f"go-template={listed}"], LISTED),
        (["get", "kafkabridges", "my-bridge", "-o", f"go-template={PART.join(BRIDGE)}"], BRIDGE),
    ]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda run: run_both_bytes(setup, *run[0]), runs))
    problems = [
        f"{' '.join(args[:4])}: {problem}"
        for (args, templates), (kubectl, ours) in zip(runs, results, strict=True)
        for problem in parts_differ(kubectl, ours, templates)
    ]
    assert not problems, "\n".join(problems)


def test_strings_of_any_bytes_print_as_kubectl_writes_them(setup: Setup) -> None:
    # Go writes a string's bytes as they are: compared as bytes, not as text
    kubectl, ours = run_both_bytes(
        setup, "get", GADGET_RESOURCE, "g1", "-o", f"go-template={PART.join(BYTES)}"
    )
    problems = parts_differ(kubectl, ours, BYTES)
    assert not problems, "\n".join(problems)
    with pytest.raises(UnicodeDecodeError):  # kubectl wrote bytes no text holds
        kubectl.out.decode()


def test_errors_carry_a_templates_raw_bytes_as_kubectl_writes_them(setup: Setup) -> None:
    # a node's text in "executing ... at <...>" is the template's own bytes, not quoted
    # (parse.go StringNode.Quoted): kubectl's stderr carries the 0xc3 of the argument
    # (a str's "\udcc3" is that byte in argv), the file, or an unknown flag as they are
    (setup.files / "raw.txt").write_bytes(b'{{index "\xc3x" 5}}')
    cases = [  # each with the raw bytes kubectl's stderr must carry
        (["get", GADGET_RESOURCE, "g1", "-o", 'go-template={{index "\udcc3x" 5}}'], b'"\xc3x"'),
        (["get", GADGET_RESOURCE, "g1", "-o", "go-template-file=raw.txt"], b'"\xc3x"'),
        (["get", GADGET_RESOURCE, "--\udcff"], b"flag: --\xff\n"),
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda case: run_both_bytes(setup, *case[0]), cases))
    for (args, raw), (kubectl, ours) in zip(cases, results, strict=True):
        assert kubectl.code == 1 and raw in kubectl.err, (args, kubectl)
        assert ours == kubectl, (args, ours)


#: every printf verb with each flag set, width and precision (fmt's fmtInteger,
#: fmtFloat, fmtQ, printValue's %#v), over each kind of value a template meets
VERBS = "vdfFeEgGxXboOsqcUt"
SPECS = [
    f"%{flags}{width}{prec}{verb}"
    for verb in VERBS
    for flags in ("", "+", "-", "#", "0", " ", "+#", "-0", "#0", "+ ")
    for width in ("", "8")
    for prec in ("", ".0", ".3")
]
OPERANDS = [
    *(".spec.replicas", ".spec.neg", ".spec.big", ".spec.ratio", ".spec.huge", ".spec.whole"),
    *(".spec.name", ".spec.uni", ".spec.flag", ".spec.nothing", ".spec.list", ".spec.map"),
    *("(index .spec.uni 1)", "(slice .spec.uni 1 2)", "0", "'x'"),
]


def test_every_printf_verb_flag_width_and_precision_as_kubectl(setup: Setup) -> None:
    templates = [
        (operand, PART.join(f'{{{{printf "{spec}" {operand}}}}}' for spec in SPECS))
        for operand in OPERANDS
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(
            pool.map(
                lambda t: run_both_bytes(
                    setup, "get", GADGET_RESOURCE, "g1", "-o", f"go-template={t[1]}"
                ),
                templates,
            )
        )
    problems = [
        f"{operand} {problem}"
        for (operand, _), (kubectl, ours) in zip(templates, results, strict=True)
        for problem in parts_differ(kubectl, ours, SPECS)
    ]
    assert not problems, f"{len(problems)} differ:\n" + "\n".join(problems[:40])


def test_errors_and_missing_keys_as_kubectl(setup: Setup) -> None:
    cases = [["get", GADGET_RESOURCE, "g1", "-o", f"go-template={t}"] for t in FAILING]
    strict = "--allow-missing-template-keys=false"
    cases += [["get", GADGET_RESOURCE, "g1", "-o", f"go-template={t}", strict] for t in STRICT]
    cases += [
        ["get", GADGET_RESOURCE, "-o", "go-template={{range .items}}{{.spec.name}}{{end}}", strict]
    ]
    cases += [
        ["get", GADGET_RESOURCE, OFFLINE, "-o", "go-template={{.spec.list.x}}"],
        [
            "get",
            GADGET_RESOURCE,
            "-o",
            "go-template={{range .items}}{{.metadata.name}}{{.spec.nums.x}}{{end}}",
        ],
    ]
    problems = check_all(setup, cases)
    assert not problems, "\n".join(problems)


def test_the_other_formats_and_flags_as_kubectl(setup: Setup) -> None:
    gadgets = ["get", GADGET_RESOURCE]
    cases = [
        [*gadgets, "-o", "template={{.kind}}"],
        [*gadgets, "-o", "templatefile=template.txt"],
        [*gadgets, "g2", "-o", "go-template-file=template.txt"],
        [*gadgets, "g2", "-o", "go-template-file=crlf.txt"],
        [*gadgets, "-o", "jsonpath-file=crlf-jsonpath.txt"],
        [*gadgets, "-o", "jsonpath-file=jsonpath.txt"],
        [*gadgets, "-o", "jsonpath-as-json={.items[*].metadata.name} {.kind}"],
        [*gadgets, "g1", "-o", "jsonpath-as-json={.spec.map}{.spec.nope}{.spec.list[*]}"],
        [*gadgets, "-o", "custom-columns-file=columns.txt", "--no-headers"],
        [*gadgets, "-o", "custom-columns=N:.metadata.name,R:.spec.replicas", "--no-headers"],
        [*gadgets, "g1", "--template", "{{.spec.name}}"],
        [*gadgets, "g1", "-o", "jsonpath", "--template", "{.spec.name}"],
        [*gadgets, "g1", "-o", "go-template={{.kind}}", "--template", "{{.kind}}"],
        [*gadgets, "g1", "-o", "jsonpath={.metadata.managedFields[0].manager}"],
        [*gadgets, "-o", "jsonpath={.items[*].spec.big} {.items[0].spec.huge} {.items[0].spec}"],
        [*gadgets, "g1", "-o", "jsonpath={.nope}", "--allow-missing-template-keys=false"],
        [*gadgets, "g1", "-o", "go-template={{.nope}}", "--allow-missing-template-keys=no"],
        [*gadgets, "g1", "-o", "go-template"],
        [*gadgets, "g1", "-o", "go-template-file=missing.txt"],
        [*gadgets, "g1", "-o", "templatefile=."],
        [*gadgets, "g1", "-o", "custom-columns-file=missing.txt"],
        [*gadgets, OFFLINE, "-o", "jsonpath-as-json={.items[*].spec.ratio}"],
        # nothing found: an empty List through the printer, no "No resources found"
        [*gadgets, "-l", "none=here", "-o", "go-template={{.kind}} {{len .items}}"],
        [*gadgets, "-l", "none=here", "-o", "json"],
        [*gadgets, "-l", "none=here", "-o", "custom-columns=N:.kind"],
        [*gadgets, "nope", "g2", "-o", "go-template={{len .items}}"],
    ]
    problems = check_all(setup, cases)
    assert not problems, "\n".join(problems)


def test_scale_prints_with_the_template_formats_as_kubectl(setup: Setup) -> None:
    # to the count the objects have: what kubectl read before equals what we read after
    g1 = ["scale", GADGET_RESOURCE, "g1", "--replicas", "3"]
    cases = [
        [*g1, "-o", "go-template={{.kind}} {{.spec.replicas}} {{.spec.map}}"],
        [*g1, "--template", "{{.spec.ratio}}"],
        [*g1, "-o", "templatefile=template.txt"],
        [*g1, "-o", "jsonpath-as-json={.spec.nums}"],
        [*g1, "-o", "go-template={{.spec.nope}}", "--allow-missing-template-keys=false"],
        [*g1, "-o", "custom-columns=N:.kind"],
        ["scale", "kafkabridges", "my-bridge", "--replicas", "1", "-o", "go-template={{.spec}}"],
    ]
    problems = check_all(setup, cases)
    assert not problems, "\n".join(problems)


def test_watch_events_print_through_the_template_as_kubectl(setup: Setup) -> None:
    # each event as get.go prints it with --output-watch-events: a metav1.WatchEvent
    # through the template, at once (waited for on both outputs, then both stopped)
    plane = setup.plane
    template = "{{.type}}:{{.object.metadata.name}}:{{.object.spec.replicas}} "
    args = ["get", GADGET_RESOURCE, "-w", "--output-watch-events", "-o", f"go-template={template}"]
    config = [f"--kubeconfig={plane.kubeconfig}", f"--context={plane.context}", "-n", NAMESPACE]
    outputs = [setup.files / "watch-kubectl.txt", setup.files / "watch-ours.txt"]
    running = []
    for command, output in zip(([setup.kubectl], KUBECTL_CRD), outputs, strict=True):
        with output.open("w") as sink:
            running.append(
                subprocess.Popen(
                    [*command, *args, *config],
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    env=plane.env(),
                )
            )

    def wait_for(text: str) -> None:
        deadline = time.monotonic() + 60
        while not all(text in output.read_text() for output in outputs):
            assert time.monotonic() < deadline, [o.read_text() for o in outputs]
            time.sleep(0.05)

    g3 = "apiVersion: gotemplates.example.com/v1\nkind: Gadget\nmetadata: {name: g3}\nspec: {replicas: 7}\n"
    try:
        wait_for("ADDED:g2:1 ")
        plane.kubectl("create", "-n", NAMESPACE, "-f", "-", input=g3)
        wait_for("ADDED:g3:7 ")
        plane.kubectl("delete", "-n", NAMESPACE, GADGET_RESOURCE, "g3", "--wait=false")
        wait_for("DELETED:g3:7 ")
    finally:
        for process in running:
            process.terminate()
            process.wait(timeout=30)
    kubectl, ours = (output.read_text() for output in outputs)
    assert ours == kubectl


#: list lengths whose capacity after kubectl's JSON decoding takes each of Go's growth
#: steps: doubling (3, 5), the malloc header past 512 bytes (33: cap 71, 65: 143), +25%
#: past 256 elements (257, 513, 1025), whole pages past 32 KiB (3000)
CAP_LENGTHS = (3, 5, 33, 65, 257, 513, 1025, 3000)


def test_slice_reaches_each_list_capacity_as_kubectl(setup: Setup) -> None:
    """``slice`` takes indexes up to a list's capacity, not its length (funcs.go); the
    capacity is what ``append`` grew it to while encoding/json decoded it. Each length
    is sliced to the capacity ``model.gotemplate`` computes (kubectl must succeed) and
    one past it (kubectl must fail): a capacity computed too small or too large differs
    from kubectl in one of the two."""
    from kubectl_crd.model.gotemplate import decoded_capacity

    spec = {f"l{n}": list(range(n)) for n in CAP_LENGTHS}
    gadget = {
        "apiVersion": "gotemplates.example.com/v1",
        "kind": "Gadget",
        "metadata": {"name": "caps", "namespace": NAMESPACE},
        "spec": spec,
    }
    setup.plane.kubectl("create", "-f", "-", input=json.dumps(gadget))
    caps = ["get", GADGET_RESOURCE, "caps", "-o"]
    at = " ".join(f"{{{{len (slice .spec.l{n} 0 {decoded_capacity(n)})}}}}" for n in CAP_LENGTHS)
    past = [f"go-template={{{{slice .spec.l{n} {decoded_capacity(n) + 1}}}}}" for n in CAP_LENGTHS]
    cases = [[*caps, f"go-template={at}"], *([*caps, template] for template in past)]
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda args: run_both(setup, *args), cases))
    finally:
        setup.plane.kubectl("delete", GADGET_RESOURCE, "caps", "-n", NAMESPACE, "--wait=false")
    (kubectl, ours), *over = results
    assert (kubectl.code, kubectl.err) == (0, ""), kubectl
    assert kubectl.out == " ".join(str(decoded_capacity(n)) for n in CAP_LENGTHS), kubectl.out
    assert ours == kubectl, ours
    for args, (real, mine) in zip(cases[1:], over, strict=True):
        assert real.code == 1 and "index out of range" in real.err, (args, real)
        assert mine == real, (args, mine)
