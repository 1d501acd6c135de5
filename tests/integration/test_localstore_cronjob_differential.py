"""A CronJob's spec rules and defaults: the store against the real server.

``ValidateCronJobCreate`` and ``ValidateCronJobUpdate``
(``pkg/apis/batch/validation/validation.go``): ``validateCronJobSpec``'s schedule
(robfig/cron v3's ``ParseStandard``: five fields, descriptors, ``@every``, a
``TZ=``/``CRON_TZ=`` prefix, then the refusal of any TZ in the schedule), starting
deadline, time zone (``validateTimeZone``, on an update only when it changed),
concurrency policy, job template (``ValidateJobTemplateSpec``: the Job spec's rules at
``spec.jobTemplate.spec``, no selector, no manual selector) and history limits; and
``SetDefaults_CronJob`` (``pkg/apis/batch/v1/defaults.go``).

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored object's spec.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import ODD, Sides

CONTAINERS = [{"name": "app", "image": "nginx:1"}]


def answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome (``localstore_answers.answer``): the stored spec."""
    return localstore_answers.answer(call, lambda stored: (stored.get("spec"),))


def cronjob(
    name: str, *, job: dict[str, Any] | None = None, pod: dict[str, Any] | None = None, **spec: Any
) -> dict[str, Any]:
    """A valid CronJob but for what is given (``job``: the job template's spec's
    fields, ``pod``: its pod template's spec's)."""
    pod_spec = {"containers": CONTAINERS, "restartPolicy": "Never", **(pod or {})}
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name},
        "spec": {
            "schedule": "*/5 * * * *",
            **spec,
            "jobTemplate": {"spec": {**(job or {}), "template": {"spec": pod_spec}}},
        },
    }


def schedule(name: str, text: str, **spec: Any) -> dict[str, Any]:
    return cronjob(name, schedule=text, **spec)


INDEXED = {"completionMode": "Indexed", "completions": 3, "parallelism": 3}
RULE_EXIT = {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}

#: (what, body) created on both sides
CREATES: list[tuple[str, dict[str, Any]]] = [
    ("valid: the defaults", cronjob("c0")),
    ("valid: every field given", cronjob("c1", timeZone="Europe/Berlin", startingDeadlineSeconds=30,
     concurrencyPolicy="Forbid", suspend=True, successfulJobsHistoryLimit=0, failedJobsHistoryLimit=5)),
    ("no schedule", schedule("c2", "")),
    # the name's 52-character bound is said after the spec's problems (ValidateCronJobCreate)
    ("a name over 52 characters and a bad schedule", schedule("c" * 53, "every minute")),
    ("valid: names, ranges, steps, lists, ?", schedule("c3", "0,15-30/5 1-23/2 ? JAN-mar,dec mon-FRI")),
    ("valid: @hourly", schedule("c4", "@hourly")),
    ("odd: a concurrency policy", cronjob("q0", concurrencyPolicy=ODD)),
    ("odd: a time zone", cronjob("q1", timeZone=ODD)),
    ("odd: a time zone with a bad part", cronjob("q3", timeZone="Europe/" + ODD)),
    ("odd: Local", cronjob("q4", timeZone="Local")),
    ("odd: a schedule", schedule("q2", ODD)),
    ("valid: @every 1h30m", schedule("c5", "@every 1h30m")),
    ("@every not a duration", schedule("c6", "@every soon")),
    ("@every without a unit", schedule("c7", "@every 5")),
    ("@every an unknown unit", schedule("c8", "@every 5d")),
    ("a descriptor not known", schedule("c9", "@fortnightly")),
    ("four fields", schedule("c10", "* * * *")),
    ("six fields", schedule("c11", "0 * * * * *")),
    ("a minute above 59", schedule("c12", "60 * * * *")),
    ("a day of month 0", schedule("c13", "* * 0 * *")),
    ("a weekday 7", schedule("c14", "* * * * 7")),
    ("a range backwards", schedule("c15", "* 5-2 * * *")),
    ("a step 0", schedule("c16", "*/0 * * * *")),
    ("a negative step", schedule("c17", "*/-1 * * * *")),
    ("too many hyphens", schedule("c18", "1-2-3 * * * *")),
    ("too many slashes", schedule("c19", "*/2/3 * * * *")),
    ("not a number", schedule("c20", "x * * * *")),
    ("a month name not known", schedule("c21", "* * * foo *")),
    ("a number out of range of int", schedule("c22", "99999999999999999999 * * * *")),
    ("valid: a number with a plus sign, empty list items", schedule("c23", "+5,,7 * * * *")),
    ("an empty range end", schedule("c24", "1- * * * *")),
    ("a start-only step past the range", schedule("c25", "70/5 * * * *")),
    ("@every: an empty duration", schedule("c55", "@every ")),
    ("valid: @every of fractions, negative, zero", schedule("c56", "@every 1.5h")),
    ("valid: @every .5h", schedule("c57", "@every .5h")),
    ("@every with an exponent", schedule("c58", "@every 1e3s")),
    ("valid: @every -1h", schedule("c59", "@every -1h")),
    ("valid: @every 0", schedule("c60", "@every 0")),
    ("@every with a trailing space", schedule("c61", "@every 1h ")),
    ("@every beyond an int64 of nanoseconds", schedule("c62", "@every 9999999999h")),
    ("@DAILY in capitals", schedule("c63", "@DAILY")),
    ("valid: a leading space", schedule("c64", " * * * * *")),
    ("valid: *-5, ?/5 (a star's range ignored)", schedule("c65", "*-5 ?/5 * * *")),
    ("a range ending in a star", schedule("c66", "5-* * * * *")),
    ("valid: a month name with a step", schedule("c67", "* * * JAN/2 *")),
    ("a weekday range to 7", schedule("c68", "* * * * sun-7")),
    ("a step of nothing", schedule("c69", "0/ * * * *")),
    ("TZ= of no location", schedule("c70", "TZ= * * * * *")),
    ("CRON_TZ=Local", schedule("c71", "CRON_TZ=Local * * * * *")),
    ("TZ= and two spaces before a descriptor", schedule("c72", "TZ=UTC  @hourly")),
    ("a time zone in the wrong case", cronjob("c73", timeZone="America/new_york")),
    ("valid: a legacy time zone with digits", cronjob("c74", timeZone="EST5EDT")),
    ("a time zone starting with /", cronjob("c75", timeZone="/UTC")),
    ("a time zone ending with /", cronjob("c76", timeZone="UTC/")),
    ("time zone local", cronjob("c77", timeZone="local")),
    ("a time zone that is a directory", cronjob("c78", timeZone="Etc")),
    ("TZ= in the schedule", schedule("c26", "TZ=UTC * * * * *")),
    ("CRON_TZ= in the schedule", schedule("c27", "CRON_TZ=Europe/Paris 0 * * * *")),
    ("TZ= of a bad location", schedule("c28", "TZ=Nowhere/Land 0 * * * *")),
    ("TZ= and a descriptor", schedule("c29", "CRON_TZ=UTC @daily")),
    ("TZ in a field", schedule("c30", "* * * * TZ")),
    ("an empty time zone", cronjob("c31", timeZone="")),
    ("a time zone not known", cronjob("c32", timeZone="Mars/Olympus")),
    ("a time zone with a digit part too long", cronjob("c33", timeZone="Abcdefghijklmnop")),
    ("a time zone of .. parts", cronjob("c34", timeZone="../etc")),
    ("time zone Local", cronjob("c35", timeZone="Local")),
    ("valid: time zone UTC", cronjob("c36", timeZone="UTC")),
    ("valid: time zone Etc/GMT+2", cronjob("c37", timeZone="Etc/GMT+2")),
    ("a negative starting deadline", cronjob("c38", startingDeadlineSeconds=-1)),
    ("a concurrency policy not known", cronjob("c39", concurrencyPolicy="Sometimes")),
    ("negative history limits", cronjob("c40", successfulJobsHistoryLimit=-1, failedJobsHistoryLimit=-2)),
    ("a job template's selector", cronjob("c41", job={"selector": {"matchLabels": {"a": "b"}}})),
    ("a job template's manual selector", cronjob("c42", job={"manualSelector": True})),
    ("valid: a job template's manualSelector false", cronjob("c43", job={"manualSelector": False})),
    ("a job template's negative counts", cronjob("c44", job={"parallelism": -1, "completions": -2,
     "activeDeadlineSeconds": -3, "backoffLimit": -4})),
    ("a job template's pods restarting Always", cronjob("c45", pod={"restartPolicy": "Always"})),
    ("a job template without containers", cronjob("c46", pod={"containers": []})),
    ("a job template: Indexed without completions", cronjob("c47", job={"completionMode": "Indexed"})),
    ("a job template's pod failure policy with OnFailure", cronjob("c48", pod={"restartPolicy": "OnFailure"},
     job={"podFailurePolicy": {"rules": [RULE_EXIT, {"action": "Retry"}]}})),
    ("a job template's success policy without Indexed", cronjob("c49",
     job={"successPolicy": {"rules": [{"succeededCount": 1}]}})),
    ("a job template's success policy rules", cronjob("c50", job={**INDEXED,
     "successPolicy": {"rules": [{}, {"succeededIndexes": "2-1"}]}})),
    ("a job template's backoff per index, not Indexed", cronjob("c51",
     job={"backoffLimitPerIndex": 1, "maxFailedIndexes": 1})),
    ("a job template's managedBy and replacement policy", cronjob("c52",
     job={"managedBy": "nope", "podReplacementPolicy": "Sometimes"})),
    ("valid: an Indexed job template", cronjob("c53", job={**INDEXED, "backoffLimitPerIndex": 1})),
    ("everything wrong at once", cronjob("c54", schedule="* * *", startingDeadlineSeconds=-1,
     timeZone="Nowhere", concurrencyPolicy="No", successfulJobsHistoryLimit=-1,
     job={"selector": {"matchLabels": {"a": "b"}}, "manualSelector": True, "backoffLimit": -1})),
]  # fmt: skip

#: (what, the created CronJob's spec fields, the update's spec fields: None removes one;
#: ``job``/``pod`` changes go to the job template's and the pod template's spec)
UPDATES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("valid: schedule, suspend, limits", {},
     {"schedule": "@daily", "suspend": True, "successfulJobsHistoryLimit": 1}),
    ("a schedule made wrong", {}, {"schedule": "* * * * * *"}),
    ("a TZ added to the schedule", {}, {"schedule": "TZ=UTC 0 * * * *"}),
    ("valid: the job template's image", {}, {"pod": {"containers": [{"name": "app", "image": "nginx:2"}]}}),
    ("a time zone made unknown", {"timeZone": "UTC"}, {"timeZone": "Nowhere/Land"}),
    ("valid: the time zone removed", {"timeZone": "UTC"}, {"timeZone": None}),
    ("the concurrency policy made unknown", {}, {"concurrencyPolicy": "Never"}),
    ("the job template's selector", {}, {"job": {"selector": {"matchLabels": {"a": "b"}}}}),
    ("the job template's pods restarting Always", {}, {"pod": {"restartPolicy": "Always"}}),
    ("a negative starting deadline", {}, {"startingDeadlineSeconds": -5}),
]  # fmt: skip


def _updated(old: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(old)
    spec = new["spec"]
    for key, value in change.items():
        if key == "job":
            spec["jobTemplate"]["spec"].update(copy.deepcopy(value))
        elif key == "pod":
            spec["jobTemplate"]["spec"]["template"]["spec"].update(copy.deepcopy(value))
        elif value is None:
            spec.pop(key, None)
        else:
            spec[key] = copy.deepcopy(value)
    return new


def test_cronjob_creates_answer_as_the_server_answers(client: KubeClient, namespace: str) -> None:
    problems = Sides.of(client, namespace, "batch", "CronJob", "cronjobs").creates(answer, CREATES)
    localstore_answers.assert_agree(problems, len(CREATES), "creates")


def test_cronjob_updates_answer_as_the_server_answers(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "batch", "CronJob", "cronjobs")
    cases = [
        (what, cronjob(f"u{index}", **created), lambda old, change=change: _updated(old, change))
        for index, (what, created, change) in enumerate(UPDATES)
    ]
    localstore_answers.assert_agree(sides.updates(answer, cases), len(UPDATES), "updates")
