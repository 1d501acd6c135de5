"""``explain -o markdown``: README-ready reference docs, checked on real CRDs.

Structural checks hold for every document (tables are rectangular, every link has a
heading, nothing from the CRD leaks raw HTML); content checks pin facts the corpus
CRDs are known to have.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.explain import resolve_target
from kubectl_crd.model.explain.markdown import Slugger, cell, code, render_markdown
from tests.unit.explain_extras.conftest import crontab, load_crds, target, widget_crd

_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def check_structure(markdown: str) -> None:
    """Tables rectangular, links resolvable, headings unique (as GitHub anchors them)."""
    lines = markdown.split("\n")
    slugger = Slugger()
    anchors = {
        slugger.slug(line.lstrip("#").strip()) for line in lines if re.match(r"#{1,6} ", line)
    }
    for link in re.findall(r"\]\(#([^)]+)\)", markdown):
        assert link in anchors, f"link to #{link} has no heading"
    columns = None
    for number, line in enumerate(lines, 1):
        if line.startswith("|"):
            cells = len(_UNESCAPED_PIPE.findall(line)) - 1
            columns = columns or cells
            assert cells == columns, f"line {number} has {cells} cells, not {columns}: {line}"
        else:
            columns = None
    assert "<script" not in markdown


@pytest.fixture(scope="module")
def certificate(corpus_dir: Path) -> CustomResourceDefinition:
    return load_crds(corpus_dir / "crds" / "cert-manager" / "cert-manager.io_certificates.yaml")[0]


@pytest.fixture(scope="module")
def httproute(corpus_dir: Path) -> CustomResourceDefinition:
    (path,) = (corpus_dir / "crds" / "gateway-api-standard").glob("*httproutes*.yaml")
    return load_crds(path)[0]


def test_cert_manager_certificate(certificate: CustomResourceDefinition) -> None:
    markdown = render_markdown(resolve_target([certificate], "certificates"))
    check_structure(markdown)
    assert markdown.startswith("# Certificate\n\n")
    assert "| API version | `cert-manager.io/v1` |" in markdown
    assert "| Short names | `cert`, `certs` |" in markdown
    assert '| Ready | string | `.status.conditions[?(@.type == "Ready")].status` |' in markdown
    assert "- **status**: `/status`" in markdown
    # the root links to spec, spec has its own section with secretName required
    assert "| [`spec`](#spec) | `Object` |" in markdown
    assert "\n### `spec`\n" in markdown
    assert (
        "\n| `secretName` | `string` | yes | Name of the Secret resource that will be" in markdown
    )
    # a nested object gets its own section and a link to it
    assert "[`privateKey`](#specprivatekey)" in markdown
    assert "\n### `spec.privateKey`\n" in markdown
    assert 'enum: `"RSA", "ECDSA", "Ed25519"`' in markdown


def test_gateway_api_httproute(httproute: CustomResourceDefinition) -> None:
    markdown = render_markdown(resolve_target([httproute], "httproutes"))
    check_structure(markdown)
    assert "| `v1` | yes | yes | preferred; documented here |" in markdown
    rules = next(line for line in markdown.split("\n") if line.startswith("| [`rules`]"))
    assert "maxItems: `16`" in rules
    assert "list-type: atomic" in rules
    assert "the total number of matches across all rules in a route must be less than" in rules
    # CEL with "||" stays inside its table cell
    assert "\\|\\|" in markdown
    assert "\n### `spec.rules.matches.path`\n" in markdown


def test_crontab_sections_in_order() -> None:
    markdown = render_markdown(target(crontab(), "crontabs"))
    check_structure(markdown)
    headings = [line for line in markdown.split("\n") if line.startswith("#")]
    assert headings == [
        "# CronTab",
        "## Versions",
        "## Printer columns",
        "## Subresources",
        "## Fields",
        "### `CronTab`",
        "### `spec`",
        "### `spec.ports`",
        "### `status`",
    ]
    assert (
        "| `replicas` | `integer` |  | How many copies run at once. | "
        "default: `1`<br>format: int32<br>minimum: `0`<br>maximum: `10` |"
    ) in markdown
    assert (
        "| [`spec`](#spec) | `Object` | yes | CronTabSpec is the desired state of a CronTab. | "
        "rule: `self.minReplicas <= self.replicas`<br>&nbsp;&nbsp;message: "
        "replicas must not be below minReplicas |"
    ) in markdown
    assert "| `config` | `Object` |  | Free-form settings passed to the image. | " in markdown
    assert (
        "- **scale**: `/scale` (`kubectl scale`, autoscalers): spec replicas `.spec.replicas`"
        in (markdown)
    )


def test_a_field_path_documents_its_subtree_only() -> None:
    markdown = render_markdown(target(crontab(), "crontabs.spec.ports"))
    check_structure(markdown)
    assert markdown.startswith("# CronTab `spec.ports`\n\nField `spec.ports` of ")
    assert "## Versions" not in markdown
    assert [line for line in markdown.split("\n") if line.startswith("###")] == ["### `spec.ports`"]


def test_text_from_the_crd_cannot_break_the_markdown() -> None:
    field = {
        "type": "string",
        "description": "a | b <b>bold</b>\nsecond line",
        "pattern": "^(a|b)$",
    }
    markdown = render_markdown(target(widget_crd(field), "widgets"))
    check_structure(markdown)
    row = next(line for line in markdown.split("\n") if line.startswith("| `f`"))
    assert "a \\| b &lt;b&gt;bold&lt;/b&gt; second line" in row
    assert "pattern: `^(a\\|b)$`" in row


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a", "`a`"), ("a`b", "``a`b``"), ("`a", "`` `a ``"), ("", "` `")],
)
def test_code_spans_hold_any_backticks(text: str, expected: str) -> None:
    assert code(text) == expected


def test_cells_escape_pipes_and_html() -> None:
    assert cell("x|y <z> & w\nv\n\nnext") == "x\\|y &lt;z&gt; &amp; w v<br><br>next"


def test_slugs_follow_github() -> None:
    slugger = Slugger()
    assert [slugger.slug(h) for h in ("`spec.a`", "Spec A", "`spec.a`", "spec-a")] == [
        "speca",
        "spec-a",
        "speca-1",
        "spec-a-1",
    ]
