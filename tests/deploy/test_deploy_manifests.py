"""The rendered Kubernetes manifests have the properties docs/deploy.md promises.

Builds the overlays through `scripts/deploy_check.sh render` (kubectl kustomize, installed by the
script when missing) and inspects the objects: probes, resources, hardened security contexts,
disruption budgets, services for client-side load balancing, network policies and autoscaling.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("rules", "match", "matchmaking")
WORKER = "sizzle-bot-worker"

Obj = dict[str, Any]


def render(build: str) -> list[Obj]:
    result = subprocess.run(
        ["bash", "scripts/deploy_check.sh", "render", build],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    objects = json.loads(result.stdout)
    assert objects, f"{build} rendered nothing"
    return objects


@pytest.fixture(scope="module")
def prod() -> list[Obj]:
    return render("overlays/prod")


@pytest.fixture(scope="module")
def dev() -> list[Obj]:
    return render("overlays/dev")


def of_kind(objects: list[Obj], kind: str) -> dict[str, Obj]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def workloads(objects: list[Obj]) -> Iterator[Obj]:
    for obj in objects:
        if obj["kind"] in {"Deployment", "StatefulSet", "Job"}:
            yield obj


def containers(workload: Obj) -> list[Obj]:
    spec = workload["spec"]["template"]["spec"]
    return list(spec.get("initContainers", [])) + list(spec["containers"])


def matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def template_labels(workload: Obj) -> dict[str, str]:
    return workload["spec"]["template"]["metadata"]["labels"]


def config(objects: list[Obj]) -> dict[str, str]:
    maps = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"].startswith("sizzle-config")]
    assert len(maps) == 1
    return maps[0]["data"]


# ---------------------------------------------------------------------------------------------------
# Every container: probes, resources, security


def test_every_workload_container_is_hardened(prod: list[Obj]) -> None:
    checked = 0
    for workload in workloads(prod):
        pod = workload["spec"]["template"]["spec"]
        pod_security = pod.get("securityContext", {})
        assert pod_security.get("runAsNonRoot") is True, workload["metadata"]["name"]
        assert pod_security.get("runAsUser", 0) != 0
        assert pod_security.get("seccompProfile", {}).get("type") == "RuntimeDefault"
        assert pod.get("automountServiceAccountToken") is False
        mounts_tmp = set()
        for container in containers(workload):
            where = f"{workload['metadata']['name']}/{container['name']}"
            security = container.get("securityContext", {})
            assert security.get("runAsNonRoot") is True, where
            assert security.get("allowPrivilegeEscalation") is False, where
            assert security.get("readOnlyRootFilesystem") is True, where
            assert security.get("privileged", False) is False, where
            assert security.get("capabilities", {}).get("drop") == ["ALL"], where
            assert "add" not in security.get("capabilities", {}), where
            assert security.get("seccompProfile", {}).get("type") == "RuntimeDefault", where
            resources = container.get("resources", {})
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources.get(kind, {})), f"{where}: {kind}"
            image = container["image"]
            assert ":" in image.rsplit("/", 1)[-1] and not image.endswith(":latest"), where
            mounts_tmp |= {m["name"] for m in container.get("volumeMounts", []) if m["mountPath"] == "/tmp"}
            checked += 1
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        if workload["metadata"]["name"].startswith("sizzle-"):
            # Read-only root filesystem: scratch space is an emptyDir on /tmp.
            assert mounts_tmp and all("emptyDir" in volumes[name] for name in mounts_tmp), workload["metadata"]["name"]
    assert checked >= 6


def test_every_long_running_container_has_probes(prod: list[Obj]) -> None:
    for workload in workloads(prod):
        if workload["kind"] == "Job":
            continue
        for container in containers(workload):
            where = f"{workload['metadata']['name']}/{container['name']}"
            assert "readinessProbe" in container, where
            assert "livenessProbe" in container, where


def test_grpc_services_use_native_grpc_probes_and_drain_gracefully(prod: list[Obj]) -> None:
    deployments = of_kind(prod, "Deployment")
    grace = float(config(prod)["SIZZLE_GRACE_SECONDS"])
    for name in SERVICES:
        deployment = deployments[f"sizzle-{name}"]
        pod = deployment["spec"]["template"]["spec"]
        (container,) = pod["containers"]
        assert container["args"] == ["sizzle", "serve", "--services", name]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"] == {"port": 50051}, f"{name} {probe}"
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        assert ports == {"grpc": 50051, "web": 8080, "metrics": 9100}
        sleep = container["lifecycle"]["preStop"]["exec"]["command"]
        assert sleep[0] == "sleep"
        # The kubelet's SIGKILL must come after the preStop sleep and the drain.
        assert pod["terminationGracePeriodSeconds"] > float(sleep[1]) + grace


def test_worker_runs_celery_with_multiprocess_metrics(prod: list[Obj]) -> None:
    worker = of_kind(prod, "Deployment")[WORKER]
    (container,) = worker["spec"]["template"]["spec"]["containers"]
    assert container["args"] == ["sizzle", "worker"]
    env = {e["name"]: e for e in container["env"]}
    directory = env["PROMETHEUS_MULTIPROC_DIR"]["value"]
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in worker["spec"]["template"]["spec"]["volumes"]}
    assert "emptyDir" in volumes[mounts[directory]]
    assert container["readinessProbe"]["httpGet"]["path"] == "/metrics"


# ---------------------------------------------------------------------------------------------------
# Objects per service


def test_each_deployment_has_service_account_services_and_one_pdb(prod: list[Obj]) -> None:
    deployments = of_kind(prod, "Deployment")
    assert set(deployments) == {f"sizzle-{s}" for s in SERVICES} | {WORKER}
    accounts = of_kind(prod, "ServiceAccount")
    services = list(of_kind(prod, "Service").values())
    pdbs = list(of_kind(prod, "PodDisruptionBudget").values())
    for name, deployment in deployments.items():
        account = deployment["spec"]["template"]["spec"]["serviceAccountName"]
        assert account == name and account in accounts
        assert accounts[account].get("automountServiceAccountToken") is False
        labels = template_labels(deployment)
        assert [p for p in pdbs if matches(p["spec"]["selector"]["matchLabels"], labels)].__len__() == 1, name
        assert any(matches(s["spec"].get("selector", {}), labels) for s in services), name


def test_grpc_services_have_clusterip_and_headless_services(prod: list[Obj]) -> None:
    services = of_kind(prod, "Service")
    for name in SERVICES:
        regular, headless = services[f"sizzle-{name}"], services[f"sizzle-{name}-headless"]
        assert regular["spec"]["type"] == "ClusterIP" and regular["spec"].get("clusterIP") != "None"
        assert headless["spec"]["clusterIP"] == "None"
        assert not headless["spec"].get("publishNotReadyAddresses", False)
        for service in (regular, headless):
            grpc = next(p for p in service["spec"]["ports"] if p["name"] == "grpc")
            assert grpc["port"] == 50051 and grpc["appProtocol"] == "grpc"
    # Matchmaking and the workers reach MatchService through the headless Service (round robin).
    assert config(prod)["SIZZLE_MATCH_ADDR"] == "dns:///sizzle-match-headless:50051"


def test_config_and_secret(prod: list[Obj]) -> None:
    data = config(prod)
    assert data["SIZZLE_ADDR"] == "0.0.0.0:50051"
    assert data["SIZZLE_METRICS_PORT"] == "9100"
    assert data["SIZZLE_REDIS_URL"] == "redis://redis:6379/0"
    assert data["SIZZLE_BROKER_URL"] == "redis://redis:6379/1"
    # prod ships no token key: the Secret is created outside the manifests.
    assert "sizzle-token" not in of_kind(prod, "Secret")
    for name in ("sizzle-match", "sizzle-matchmaking", WORKER):
        (container,) = of_kind(prod, "Deployment")[name]["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e for e in container["env"]}
        assert env["SIZZLE_TOKEN_KEY"]["valueFrom"]["secretKeyRef"] == {"name": "sizzle-token", "key": "token-key"}


def test_redis_is_persistent(prod: list[Obj]) -> None:
    redis = of_kind(prod, "StatefulSet")["redis"]
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    assert claim["spec"]["accessModes"] == ["ReadWriteOnce"]
    redis_container = next(c for c in redis["spec"]["template"]["spec"]["containers"] if c["name"] == "redis")
    assert {"name": "data", "mountPath": "/data"} in redis_container["volumeMounts"]
    conf = next(o for o in prod if o["kind"] == "ConfigMap" and o["metadata"]["name"].startswith("redis-config"))
    lines = conf["data"]["redis.conf"].splitlines()
    assert "appendonly yes" in lines and "dir /data" in lines and "maxmemory-policy noeviction" in lines
    assert of_kind(prod, "Service")["redis-headless"]["spec"]["clusterIP"] == "None"


# ---------------------------------------------------------------------------------------------------
# prod: replicas, spreading, components


def test_prod_runs_three_replicas_spread_over_nodes(prod: list[Obj]) -> None:
    for name, deployment in of_kind(prod, "Deployment").items():
        spec = deployment["spec"]
        assert spec["replicas"] >= 3, name
        constraints = spec["template"]["spec"]["topologySpreadConstraints"]
        keys = {c["topologyKey"] for c in constraints}
        assert {"kubernetes.io/hostname", "topology.kubernetes.io/zone"} <= keys, name
        for constraint in constraints:
            assert matches(constraint["labelSelector"]["matchLabels"], template_labels(deployment)), name
        assert "podAntiAffinity" in spec["template"]["spec"]["affinity"], name


def test_prod_autoscaling(prod: list[Obj]) -> None:
    hpas = of_kind(prod, "HorizontalPodAutoscaler")
    assert set(hpas) == {f"sizzle-{s}" for s in SERVICES}
    for hpa in hpas.values():
        assert hpa["spec"]["minReplicas"] >= 3 and hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    (scaled,) = of_kind(prod, "ScaledObject").values()
    assert scaled["spec"]["scaleTargetRef"]["name"] == WORKER
    (trigger,) = scaled["spec"]["triggers"]
    assert trigger["type"] == "redis"
    assert trigger["metadata"]["listName"] == "bots" and trigger["metadata"]["databaseIndex"] == "1"
    assert of_kind(prod, "ServiceMonitor") and of_kind(prod, "PrometheusRule")


def test_prod_network_policies(prod: list[Obj]) -> None:
    policies = list(of_kind(prod, "NetworkPolicy").values())
    deployments = of_kind(prod, "Deployment")
    assert any(
        p["spec"]["podSelector"] == {} and p["spec"]["policyTypes"] == ["Ingress"] and not p["spec"].get("ingress")
        for p in policies
    ), "no default deny"

    def policy_for(name: str) -> Obj:
        (policy,) = [
            p for p in policies if p["spec"]["podSelector"].get("matchLabels") == {"app.kubernetes.io/name": name}
        ]
        return policy

    def sources_on(policy: Obj, port: int) -> list[list[Obj] | None]:
        return [rule.get("from") for rule in policy["spec"]["ingress"] if any(p["port"] == port for p in rule["ports"])]

    # Redis: only the Sizzle pods (by label) and the KEDA operator (by namespace).
    (redis_sources,) = sources_on(policy_for("redis"), 6379)
    assert redis_sources is not None
    pod_selectors = [s["podSelector"]["matchLabels"] for s in redis_sources if "podSelector" in s]
    assert pod_selectors == [{"sizzle.io/redis-client": "true"}]
    assert all("ipBlock" not in s for s in redis_sources)
    assert [s for s in redis_sources if "namespaceSelector" in s] == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "keda"}}}
    ]
    clients = {
        o["metadata"]["name"] for o in workloads(prod) if template_labels(o).get("sizzle.io/redis-client") == "true"
    }
    assert clients == set(deployments)

    # RulesService: only pods of this namespace that are part of Sizzle.
    (rules_sources,) = sources_on(policy_for("sizzle-rules"), 50051)
    assert rules_sources == [{"podSelector": {"matchLabels": {"app.kubernetes.io/part-of": "sizzle"}}}]

    # Match and matchmaking: any client.
    for name in ("sizzle-match", "sizzle-matchmaking"):
        assert sources_on(policy_for(name), 50051) == [None]

    # The web ports: the Ingress controller only (the quotas trust the X-Forwarded-For entry it adds).
    for name in SERVICES:
        assert sources_on(policy_for(f"sizzle-{name}"), 8080) == [
            [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}]
        ], name


def test_the_browser_reaches_every_service_through_one_ingress(prod: list[Obj]) -> None:
    """Each service pod serves its own services on its web port; the Ingress sends each RPC path to
    the pods that serve it and the rest (the client's files) to match, and the pods read the caller's
    address from the one X-Forwarded-For entry the Ingress adds."""
    (ingress,) = of_kind(prod, "Ingress").values()
    routes = {p["path"]: p["backend"]["service"] for r in ingress["spec"]["rules"] for p in r["http"]["paths"]}
    assert routes == {
        "/sizzle.auth.v1.AuthService/": {"name": "sizzle-match", "port": {"name": "web"}},
        "/sizzle.match.v1.MatchService/": {"name": "sizzle-match", "port": {"name": "web"}},
        "/sizzle.matchmaking.v1.MatchmakingService/": {"name": "sizzle-matchmaking", "port": {"name": "web"}},
        "/sizzle.rules.v1.RulesService/": {"name": "sizzle-rules", "port": {"name": "web"}},
        "/": {"name": "sizzle-match", "port": {"name": "web"}},
    }
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    services, deployments = of_kind(prod, "Service"), of_kind(prod, "Deployment")
    for name in SERVICES:
        web = next(p for p in services[f"sizzle-{name}"]["spec"]["ports"] if p["name"] == "web")
        assert web["port"] == 8080 and web["targetPort"] == "web"
        (container,) = deployments[f"sizzle-{name}"]["spec"]["template"]["spec"]["containers"]
        assert {"name": "web", "containerPort": 8080} in container["ports"]
    data = config(prod)
    assert data["SIZZLE_WEB_ADDR"] == "0.0.0.0:8080" and data["SIZZLE_WEB_PROXY_HOPS"] == "1"


def test_prod_namespace_enforces_restricted_pod_security(prod: list[Obj]) -> None:
    (namespace,) = of_kind(prod, "Namespace").values()
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for obj in prod:
        if obj["kind"] != "Namespace":
            assert obj["metadata"]["namespace"] == namespace["metadata"]["name"], obj["metadata"]["name"]


# ---------------------------------------------------------------------------------------------------
# dev and the load-test Job


def test_dev_is_small_and_needs_no_operators(dev: list[Obj]) -> None:
    for name, deployment in of_kind(dev, "Deployment").items():
        assert deployment["spec"]["replicas"] == 1, name
    kinds = {o["kind"] for o in dev}
    assert not kinds & {"ScaledObject", "ServiceMonitor", "PrometheusRule", "HorizontalPodAutoscaler"}
    # The base's placeholder token key, flagged as such.
    assert "REPLACE-ME" in of_kind(dev, "Secret")["sizzle-token"]["stringData"]["token-key"]


def test_loadtest_job_runs_the_locustfile_with_the_same_image(prod: list[Obj]) -> None:
    (job,) = render("jobs/loadtest")
    assert job["kind"] == "Job"
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["args"][:4] == ["locust", "-f", "deploy/load/locustfile.py", "--headless"]
    assert "--run-time" in container["args"]
    images = {c["image"] for w in workloads(prod) if w["metadata"]["name"].startswith("sizzle-") for c in containers(w)}
    assert images == {container["image"]}
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"
