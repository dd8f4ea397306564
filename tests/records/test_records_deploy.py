"""The deployment's records pieces, rendered as they are applied: PostgreSQL is an external dependency
named by a Secret (shipped as a placeholder only in dev), the services read its URL from it, a Job runs
the migrations with the services' image, and the network policies let the records clients reach it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.deploy.test_deploy_manifests import containers, of_kind, render, template_labels, workloads

Obj = dict[str, Any]
RECORDS_CLIENTS = {"sizzle-match", "sizzle-matchmaking"}


@pytest.fixture(scope="module")
def prod() -> list[Obj]:
    return render("overlays/prod")


def env_of(workload: Obj) -> dict[str, Obj]:
    (container,) = workload["spec"]["template"]["spec"]["containers"]
    return {e["name"]: e for e in container.get("env", [])}


def test_services_read_the_records_url_from_a_secret_prod_does_not_ship(prod: list[Obj]) -> None:
    assert "sizzle-records" not in of_kind(prod, "Secret")
    deployments = of_kind(prod, "Deployment")
    for name in RECORDS_CLIENTS:
        ref = env_of(deployments[name])["SIZZLE_RECORDS_URL"]["valueFrom"]["secretKeyRef"]
        assert ref == {"name": "sizzle-records", "key": "url"}
        assert template_labels(deployments[name])["sizzle.io/records-client"] == "true"
    # Bot workers and the rules service never touch the records.
    for name in ("sizzle-rules", "sizzle-bot-worker"):
        assert "SIZZLE_RECORDS_URL" not in env_of(deployments[name])
        assert "sizzle.io/records-client" not in template_labels(deployments[name])


def test_a_job_migrates_the_records_with_the_services_image(prod: list[Obj]) -> None:
    (job,) = render("jobs/migrate")
    assert job["kind"] == "Job" and job["metadata"]["namespace"] == "sizzle"
    (container,) = containers(job)
    assert container["args"] == ["sizzle", "records", "migrate"]
    assert env_of(job)["SIZZLE_RECORDS_URL"]["valueFrom"]["secretKeyRef"] == {"name": "sizzle-records", "key": "url"}
    images = {c["image"] for w in workloads(prod) if w["metadata"]["name"].startswith("sizzle-") for c in containers(w)}
    assert images == {container["image"]}
    assert template_labels(job)["sizzle.io/records-client"] == "true"
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never" and job["spec"]["backoffLimit"] >= 1


def test_records_clients_reach_out_only_to_their_namespace_dns_and_postgresql(prod: list[Obj]) -> None:
    policy = of_kind(prod, "NetworkPolicy")["sizzle-records-clients-egress"]
    assert policy["spec"]["policyTypes"] == ["Egress"]
    assert policy["spec"]["podSelector"] == {"matchLabels": {"sizzle.io/records-client": "true"}}
    selected = {w["metadata"]["name"] for w in workloads(prod)
                if template_labels(w).get("sizzle.io/records-client") == "true"}
    assert selected == RECORDS_CLIENTS
    rules = policy["spec"]["egress"]
    assert {"to": [{"podSelector": {}}]} in rules  # Redis and the other services, in the namespace
    ports = {(p["port"], p["protocol"]) for rule in rules for p in rule.get("ports", [])}
    assert ports == {(53, "UDP"), (53, "TCP"), (5432, "TCP")}
    (database,) = [rule for rule in rules if {"port": 5432, "protocol": "TCP"} in rule.get("ports", [])]
    assert any("ipBlock" in peer for peer in database["to"]) and any("namespaceSelector" in peer for peer in
                                                                     database["to"])


def test_dev_brings_its_own_postgresql_and_migrates_at_start() -> None:
    dev = render("overlays/dev")
    secret = of_kind(dev, "Secret")["sizzle-records"]["stringData"]
    assert "REPLACE-ME" in secret["url"] and secret["url"].endswith("@postgres:5432/sizzle")
    postgres = of_kind(dev, "Deployment")["postgres"]
    assert env_of(postgres)["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"] == {"name": "sizzle-records",
                                                                                   "key": "password"}
    assert of_kind(dev, "Service")["postgres"]["spec"]["ports"][0]["port"] == 5432
    config = next(o for o in dev if o["kind"] == "ConfigMap" and o["metadata"]["name"].startswith("sizzle-config"))
    assert config["data"]["SIZZLE_RECORDS_MIGRATE_ON_START"] == "1"
