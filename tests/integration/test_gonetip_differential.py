"""``model.gonetip`` against Go's own ``net/netip``: the same strings through
``netip.ParseAddr`` and ``netip.ParsePrefix`` of the local Go (a small program run with
``go run``; skipped, with the reason, where there is no Go), the parsed value (Go's
``String()``, Python's ``ipaddress`` text) or the error text must be the same."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kubectl_crd.model.gonetip import AddrError, Address, parse_addr, parse_prefix

PROGRAM = """package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var s string
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			panic(err)
		}
		answer := []string{}
		if a, err := netip.ParseAddr(s); err != nil {
			answer = append(answer, "error: "+err.Error())
		} else {
			answer = append(answer, fmt.Sprintf("%s|%s", a.WithZone("").String(), a.Zone()))
		}
		if p, err := netip.ParsePrefix(s); err != nil {
			answer = append(answer, "error: "+err.Error())
		} else {
			answer = append(answer, fmt.Sprintf("%s/%d", p.Addr().String(), p.Bits()))
		}
		out.Encode(answer)
	}
}
"""

INPUTS = [
    # IPv4
    "10.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5",
    ".1.2.3", "1.2.3.", "1..2.3", "1.2.3.a", "1.2.3.4:80", "1.2.3.4%eth0", "\uff11.2.3.4",
    # IPv6
    "::", "::1", "2001:db8::1", "2001:DB8::ABCD", "fe80::1%eth0", "fe80::1%", "%eth0",
    "1::2::3", "12345::", "1:2:3", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::",
    "::1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8::", "::ffff:1.2.3.4", "::ffff:1.2.3", "1::1.2.3.4",
    "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1.2::3", "g::1", "1:", ":1", "1:::2",
    "::1%", "0000:0000::", "00000::", "fffff::", "::ffff:01.2.3.4",
    # neither, and prefixes
    "", "abc", "localhost", "10.0.0.0/8", "10.0.0.0", "10.0.0.0/33", "10.0.0.0/08",
    "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/", "10.0.0.0/x", "2001:db8::/32", "2001:db8::/129",
    "fe80::1%eth0/64", "::ffff:1.2.3.4/96", "1.2.3/8", "10.0.0.0/8/8", "/8",
]  # fmt: skip


def _go_string(address: Address) -> str:
    """``Addr.String()``: an IPv4-mapped IPv6 address with its IPv4 dotted (Python
    writes hex groups)."""
    mapped = getattr(address, "ipv4_mapped", None)
    return f"::ffff:{mapped}" if mapped is not None else str(address)


def _ours(text: str) -> list[str]:
    answer = []
    try:
        parsed = parse_addr(text)
        answer.append(f"{_go_string(parsed.address)}|{parsed.zone}")
    except AddrError as error:
        answer.append(f"error: {error}")
    try:
        prefix, bits = parse_prefix(text)
        answer.append(f"{_go_string(prefix.address)}/{bits}")
    except AddrError as error:
        answer.append(f"error: {error}")
    return answer


def test_parse_addr_and_prefix_as_go(tmp_path: Path) -> None:
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go on PATH to compare net/netip with")
    (tmp_path / "main.go").write_text(PROGRAM)
    done = subprocess.run(
        [go, "run", "main.go"],
        cwd=tmp_path,
        input="".join(json.dumps(text) + "\n" for text in INPUTS),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "GO111MODULE": "off", "GOFLAGS": ""},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    theirs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(theirs) == len(INPUTS)
    problems = [
        f"{text!r}:\n  go   {go_answer}\n  ours {_ours(text)}"
        for text, go_answer in zip(INPUTS, theirs, strict=True)
        if _ours(text) != go_answer
    ]
    print(f"{len(INPUTS)} strings, each through ParseAddr and ParsePrefix: {len(problems)} differ")
    assert problems == [], "\n".join(problems)
