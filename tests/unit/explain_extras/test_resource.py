"""At the root, the section also shows the CRD: names, versions, columns, subresources."""

from __future__ import annotations

from typing import Any

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.explain.detailtext import SEPARATOR
from tests.crd_factory import make_crd
from tests.unit.explain_extras.conftest import crontab, details_text, target, widget_crd


def section(text: str, heading: str) -> str:
    """The lines of one block, from its heading to the blank line after it."""
    start = text.index(f"\n{heading}") + 1
    end = text.index("\n\n", start)
    return text[start : end + 1]


def test_crontab_root() -> None:
    text = details_text(target(crontab(), "crontabs"))
    assert text.startswith(f"{SEPARATOR}\n\nRESOURCE:\n")
    assert section(text, "RESOURCE:") == (
        "RESOURCE:\n"
        "    crontabs.stable.example.com (Namespaced)\n"
        "    kind CronTab, list kind CronTabList, plural crontabs, singular crontab\n"
        "    short names: ct\n"
        "    categories: all\n"
    )
    assert section(text, "VERSIONS:") == (
        "VERSIONS:\n    v1   served, storage, preferred  (explained here)\n"
    )
    assert section(text, "PRINTER COLUMNS:") == (
        "PRINTER COLUMNS: (kubectl get)\n"
        "    NAME        TYPE      JSONPATH\n"
        "    Schedule    string    .spec.cronSpec\n"
        "    Replicas    integer   .spec.replicas\n"
        "    Suspended   boolean   .spec.suspend  (priority 1: only with -o wide)\n"
        "    Age         date      .metadata.creationTimestamp\n"
    )
    assert section(text, "SUBRESOURCES:") == (
        "SUBRESOURCES:\n"
        "    status   /status: status is written separately; writes to the object ignore it\n"
        "    scale    /scale (kubectl scale, autoscalers):\n"
        "             spec replicas:   .spec.replicas\n"
        "             status replicas: .status.replicas\n"
        "             label selector:  .status.labelSelector\n"
    )
    assert "\nFIELD DETAILS:\n  crontabs.spec <Object> -required-\n" in text


def test_a_field_path_shows_no_crd_settings() -> None:
    text = details_text(target(crontab(), "crontabs.spec"))
    assert "RESOURCE:" not in text
    assert "PRINTER COLUMNS:" not in text


def _versions_crd(**per_version: dict[str, Any]) -> CustomResourceDefinition:
    raw = make_crd("Widget", "example.com", versions=tuple(per_version), storage="v1")
    for entry in raw["spec"]["versions"]:
        entry.update(per_version[entry["name"]])
    return CustomResourceDefinition.from_object(raw)


def test_versions_say_served_storage_and_deprecated_with_the_warning_clients_get() -> None:
    crd = _versions_crd(
        v1={},
        v1beta1={"deprecated": True, "deprecationWarning": "use example.com/v1"},
        v1alpha1={"deprecated": True, "served": False},
    )
    text = details_text(target(crd, "widgets"))
    assert section(text, "VERSIONS:") == (
        "VERSIONS:\n"
        "    v1         served, storage, preferred  (explained here)\n"
        "    v1beta1    served, deprecated\n"
        "               warning: use example.com/v1\n"
        "    v1alpha1   not served, deprecated\n"
        # the API server's own warning when deprecationWarning is not set
        "               warning: example.com/v1alpha1 Widget is deprecated\n"
    )


def test_explaining_another_version_marks_it() -> None:
    crd = _versions_crd(v1={}, v1beta1={})
    explained = target(crd, "widgets")
    text = details_text(type(explained)(crd, "v1beta1", explained.published))
    assert "    v1beta1   served  (explained here)\n" in text


def test_no_columns_and_no_subresources_are_stated() -> None:
    text = details_text(target(widget_crd(), "widgets"))
    assert section(text, "PRINTER COLUMNS:") == (
        "PRINTER COLUMNS: (kubectl get)\n    none declared: kubectl get shows NAME and AGE\n"
    )
    assert section(text, "SUBRESOURCES:") == (
        "SUBRESOURCES:\n    none: status is written with the rest; no /scale\n"
    )


def test_column_format_and_description_and_selectable_fields() -> None:
    crd = widget_crd(
        additionalPrinterColumns=[
            {
                "name": "Size",
                "type": "number",
                "jsonPath": ".spec.f",
                "format": "float",
                "description": "How big.",
            }
        ],
        selectableFields=[{"jsonPath": ".spec.f"}],
    )
    text = details_text(target(crd, "widgets"))
    assert section(text, "PRINTER COLUMNS:") == (
        "PRINTER COLUMNS: (kubectl get)\n"
        "    NAME   TYPE     JSONPATH\n"
        "    Size   number   .spec.f  (format float)\n"
        "           How big.\n"
    )
    assert section(text, "SELECTABLE FIELDS:") == (
        "SELECTABLE FIELDS: (kubectl get --field-selector)\n    .spec.f\n"
    )
