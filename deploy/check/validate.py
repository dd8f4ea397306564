"""Offline checks of Sizzle's deployment files, run by scripts/deploy_check.sh in its tools environment.

Subcommands:
  manifests   validates every object of rendered kustomize builds against the Kubernetes OpenAPI
              schemas bundled by kubernetes-validate (strict: unknown fields are errors), the CRDs
              (KEDA ScaledObject, ServiceMonitor, PrometheusRule) against the small schemas in
              deploy/check/schemas/, and the references between objects that no schema sees.
  render      prints a rendered build as a JSON list (for the tests).
  dashboard   checks the Grafana dashboard JSON and writes its queries as a rules file for promtool.
  metrics     checks that every sizzle_* metric the rules and the dashboard use is defined in
              services/kit/metrics.py.
  dockerfile  checks deploy/Dockerfile's structure: stages, non-root user, build context.
  prometheusrule
              checks (or, with --write, rewrites) the PrometheusRule of the service-monitor component
              from deploy/prometheus/rules/sizzle.rules.yml.
Every subcommand prints one line per problem and exits 1 when it found any.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCHEMAS = HERE / "schemas"
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet"}
CLUSTER_SCOPED = {
    "Namespace",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "PriorityClass",
    "StorageClass",
    "PersistentVolume",
}


# ---------------------------------------------------------------------------------------------------
# Loading


def load_stream(path: Path) -> list[dict[str, Any]]:
    with path.open() as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def kn(obj: dict[str, Any]) -> str:
    return f"{obj.get('kind')}/{obj.get('metadata', {}).get('name')}"


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)

    def add(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def finish(self, what: str) -> int:
        for problem in self.problems:
            print(f"FAIL {problem}")
        if self.problems:
            print(f"{what}: {len(self.problems)} problem(s)")
            return 1
        print(f"{what}: ok")
        return 0


# ---------------------------------------------------------------------------------------------------
# Schemas


def crd_schema(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The shipped schema of a custom resource, by kind and API group (None when none is shipped)."""
    group, _, version = str(obj.get("apiVersion", "")).rpartition("/")
    name = f"{str(obj.get('kind', '')).lower()}-{group.split('.')[0]}-{version}.json"
    path = SCHEMAS / name
    return json.loads(path.read_text()) if path.exists() else None


def validate_schema(obj: dict[str, Any], versions: list[str], report: Report, where: str) -> None:
    import kubernetes_validate
    from kubernetes_validate.utils import SchemaNotFoundError

    custom = crd_schema(obj)
    if custom is not None:
        validator = jsonschema.Draft202012Validator(custom)
        for error in sorted(validator.iter_errors(obj), key=lambda e: list(e.path)):
            path = ".".join(str(p) for p in error.path)
            report.add(f"{where} {kn(obj)}", f"{path}: {error.message} (schema {custom.get('title', '?')})")
        return
    for version in versions:
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(p) for p in error.path)
            report.add(f"{where} {kn(obj)}", f"Kubernetes {version}: {path}: {error.message}")
        except SchemaNotFoundError:
            report.add(
                f"{where} {kn(obj)}",
                f"no schema for {obj.get('apiVersion')} {obj.get('kind')} in Kubernetes {version} "
                "(a removed or misspelled API, or a CRD without a schema in deploy/check/schemas/)",
            )
            return


# ---------------------------------------------------------------------------------------------------
# References between objects


def selector_matches(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    """Kubernetes label-selector semantics (an empty selector matches everything)."""
    selector = selector or {}
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression["key"], expression["operator"], expression.get("values") or []
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and labels.get(key) in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


def pod_template(obj: dict[str, Any]) -> dict[str, Any] | None:
    spec = obj.get("spec") or {}
    if obj.get("kind") == "CronJob":
        return ((spec.get("jobTemplate") or {}).get("spec") or {}).get("template")
    if obj.get("kind") in WORKLOAD_KINDS:
        return spec.get("template")
    return None


def containers_of(pod_spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(pod_spec.get("initContainers") or []) + list(pod_spec.get("containers") or [])


def web_client_services() -> list[str]:
    """The RPC services the browser client calls: each `createClient(XService, ...)` of
    clients/web/src/api.ts, by its full name (from the import's generated path)."""
    source = (ROOT / "clients" / "web" / "src" / "api.ts").read_text()
    imports = dict(re.findall(r'import \{ (\w+) \} from "\./gen/(sizzle/\w+/v\d+)/\w+_pb\.js"', source))
    return [f"{imports[name].replace('/', '.')}.{name}" for name in re.findall(r"createClient\((\w+),", source)]


def web_routes(ingress: dict[str, Any]) -> list[tuple[str, str]]:
    """An Ingress's (path, Service name) pairs, longest path first (how a controller picks)."""
    routes = [(str(path.get("path", "/")), str(((path.get("backend") or {}).get("service") or {}).get("name")))
              for rule in (ingress.get("spec") or {}).get("rules") or []
              for path in (rule.get("http") or {}).get("paths") or []]
    return sorted(routes, key=lambda route: -len(route[0]))


def check_references(objects: list[dict[str, Any]], external_secrets: set[str], report: Report, where: str) -> None:
    by_kind: dict[str, dict[str, dict[str, Any]]] = {}
    seen: set[tuple[str, str, str]] = set()
    for obj in objects:
        meta = obj.get("metadata") or {}
        key = (str(obj.get("apiVersion")), str(obj.get("kind")), str(meta.get("name")))
        if key in seen:
            report.add(where, f"{kn(obj)} is defined twice")
        seen.add(key)
        by_kind.setdefault(str(obj.get("kind")), {})[str(meta.get("name"))] = obj

    namespaces = set(by_kind.get("Namespace", {}))
    for obj in objects:
        if obj.get("kind") in CLUSTER_SCOPED:
            continue
        namespace = (obj.get("metadata") or {}).get("namespace")
        if namespaces and namespace not in namespaces:
            report.add(where, f"{kn(obj)} is in namespace {namespace!r}, not in the build's {sorted(namespaces)}")

    workloads = [obj for obj in objects if pod_template(obj) is not None]
    config_maps = by_kind.get("ConfigMap", {})
    secrets = by_kind.get("Secret", {})

    def secret_keys(name: str) -> set[str] | None:
        secret = secrets.get(name)
        if secret is None:
            return None
        return set(secret.get("data") or {}) | set(secret.get("stringData") or {})

    for obj in workloads:
        template = pod_template(obj) or {}
        labels = (template.get("metadata") or {}).get("labels") or {}
        pod_spec = template.get("spec") or {}
        name = kn(obj)
        selector = (obj.get("spec") or {}).get("selector")
        if obj.get("kind") not in {"Job", "CronJob"} and not selector_matches(selector, labels):
            report.add(where, f"{name}: spec.selector does not match its pod template's labels")
        account = pod_spec.get("serviceAccountName")
        if account and account != "default" and account not in by_kind.get("ServiceAccount", {}):
            report.add(where, f"{name}: serviceAccountName {account!r} is not defined")
        for volume in pod_spec.get("volumes") or []:
            if "configMap" in volume and volume["configMap"].get("name") not in config_maps:
                report.add(
                    where,
                    f"{name}: volume {volume['name']} uses ConfigMap {volume['configMap'].get('name')!r}, "
                    "which is not defined",
                )
            if "secret" in volume:
                secret_name = volume["secret"].get("secretName")
                if secret_name not in secrets and secret_name not in external_secrets:
                    report.add(
                        where, f"{name}: volume {volume['name']} uses Secret {secret_name!r}, which is not defined"
                    )
        for container in containers_of(pod_spec):
            cname = f"{name} container {container.get('name')}"
            image = str(container.get("image", ""))
            last = image.rsplit("/", 1)[-1]
            if "@" not in last and (":" not in last or last.endswith(":latest")):
                report.add(where, f"{cname}: image {image!r} has no fixed tag")
            for source in container.get("envFrom") or []:
                if "configMapRef" in source and source["configMapRef"].get("name") not in config_maps:
                    report.add(
                        where, f"{cname}: envFrom ConfigMap {source['configMapRef'].get('name')!r} is not defined"
                    )
                if "secretRef" in source:
                    secret_name = source["secretRef"].get("name")
                    if secret_name not in secrets and secret_name not in external_secrets:
                        report.add(where, f"{cname}: envFrom Secret {secret_name!r} is not defined")
            for env in container.get("env") or []:
                source = env.get("valueFrom") or {}
                if "configMapKeyRef" in source:
                    ref = source["configMapKeyRef"]
                    config_map = config_maps.get(ref.get("name"))
                    if config_map is None or ref.get("key") not in (config_map.get("data") or {}):
                        report.add(
                            where,
                            f"{cname}: env {env['name']} reads missing ConfigMap key "
                            f"{ref.get('name')}/{ref.get('key')}",
                        )
                if "secretKeyRef" in source:
                    ref = source["secretKeyRef"]
                    if ref.get("name") in external_secrets and ref.get("name") not in secrets:
                        continue
                    keys = secret_keys(ref.get("name"))
                    if keys is None or ref.get("key") not in keys:
                        report.add(
                            where,
                            f"{cname}: env {env['name']} reads missing Secret key {ref.get('name')}/{ref.get('key')}",
                        )
            port_names = {p.get("name") for p in container.get("ports") or [] if p.get("name")}
            for probe_name in ("startupProbe", "readinessProbe", "livenessProbe"):
                probe = container.get(probe_name) or {}
                for handler in ("httpGet", "tcpSocket"):
                    port = (probe.get(handler) or {}).get("port")
                    if isinstance(port, str) and port not in port_names:
                        report.add(
                            where, f"{cname}: {probe_name} uses port {port!r}, which the container does not name"
                        )
            mounts = {m.get("name") for m in container.get("volumeMounts") or []}
            volumes = {v.get("name") for v in pod_spec.get("volumes") or []}
            if obj.get("kind") == "StatefulSet":
                volumes |= {
                    (c.get("metadata") or {}).get("name")
                    for c in (obj.get("spec") or {}).get("volumeClaimTemplates") or []
                }
            for missing in sorted(m for m in mounts - volumes if m):
                report.add(where, f"{cname}: mounts volume {missing!r}, which the pod does not define")

    def pods_selected(selector: dict[str, Any] | None) -> list[dict[str, Any]]:
        return [
            w
            for w in workloads
            if selector_matches(selector, ((pod_template(w) or {}).get("metadata") or {}).get("labels") or {})
        ]

    def container_ports(workload: dict[str, Any]) -> list[dict[str, Any]]:
        pod_spec = (pod_template(workload) or {}).get("spec") or {}
        return [p for c in containers_of(pod_spec) for p in c.get("ports") or []]

    for service in by_kind.get("Service", {}).values():
        spec = service.get("spec") or {}
        if spec.get("type") == "ExternalName" or not spec.get("selector"):
            continue
        matched = pods_selected({"matchLabels": spec["selector"]})
        if not matched:
            report.add(where, f"{kn(service)}: its selector matches no pod template")
            continue
        names = {p.get("name") for w in matched for p in container_ports(w)}
        numbers = {p.get("containerPort") for w in matched for p in container_ports(w)}
        for port in spec.get("ports") or []:
            target = port.get("targetPort", port.get("port"))
            if (isinstance(target, str) and target not in names) or (isinstance(target, int) and target not in numbers):
                report.add(
                    where,
                    f"{kn(service)}: port {port.get('name')} targets {target!r}, which no selected container exposes",
                )

    for statefulset in by_kind.get("StatefulSet", {}).values():
        governing = str((statefulset.get("spec") or {}).get("serviceName"))
        headless = by_kind.get("Service", {}).get(governing)
        if headless is None or (headless.get("spec") or {}).get("clusterIP") != "None":
            report.add(where, f"{kn(statefulset)}: serviceName {governing!r} is not a headless Service of the build")

    for pdb in by_kind.get("PodDisruptionBudget", {}).values():
        matched = pods_selected((pdb.get("spec") or {}).get("selector"))
        if len(matched) != 1:
            report.add(where, f"{kn(pdb)}: selects {len(matched)} workloads (want exactly one)")

    scaled: dict[str, str] = {}
    for hpa in by_kind.get("HorizontalPodAutoscaler", {}).values():
        ref = (hpa.get("spec") or {}).get("scaleTargetRef") or {}
        if ref.get("name") not in by_kind.get(ref.get("kind", ""), {}):
            report.add(where, f"{kn(hpa)}: scales {ref.get('kind')}/{ref.get('name')}, which is not defined")
        scaled[f"{ref.get('kind')}/{ref.get('name')}"] = kn(hpa)
    for scaled_object in by_kind.get("ScaledObject", {}).values():
        ref = (scaled_object.get("spec") or {}).get("scaleTargetRef") or {}
        kind = ref.get("kind", "Deployment")
        if ref.get("name") not in by_kind.get(kind, {}):
            report.add(where, f"{kn(scaled_object)}: scales {kind}/{ref.get('name')}, which is not defined")
        target = f"{kind}/{ref.get('name')}"
        if target in scaled:
            report.add(
                where, f"{kn(scaled_object)}: {target} is also scaled by {scaled[target]} (KEDA owns its own HPA)"
            )

    for policy in by_kind.get("NetworkPolicy", {}).values():
        spec = policy.get("spec") or {}
        selector = spec.get("podSelector") or {}
        if not selector:
            continue
        matched = pods_selected(selector)
        if not matched:
            report.add(where, f"{kn(policy)}: podSelector matches no pod template")
            continue
        numbers = {p.get("containerPort") for w in matched for p in container_ports(w)}
        names = {p.get("name") for w in matched for p in container_ports(w)}
        for rule in spec.get("ingress") or []:
            for port in rule.get("ports") or []:
                value = port.get("port")
                if (isinstance(value, int) and value not in numbers) or (isinstance(value, str) and value not in names):
                    report.add(where, f"{kn(policy)}: allows port {value!r}, which the selected pods do not expose")

    for ingress in by_kind.get("Ingress", {}).values():
        backends = [path.get("backend") or {} for rule in (ingress.get("spec") or {}).get("rules") or []
                    for path in (rule.get("http") or {}).get("paths") or []]
        for backend in backends:
            service_ref = backend.get("service") or {}
            service = by_kind.get("Service", {}).get(service_ref.get("name"))
            if service is None:
                report.add(where, f"{kn(ingress)}: routes to Service {service_ref.get('name')!r}, which is not defined")
                continue
            ports = (service.get("spec") or {}).get("ports") or []
            wanted = service_ref.get("port") or {}
            key, value = ("name", wanted.get("name")) if "name" in wanted else ("port", wanted.get("number"))
            if not any(p.get(key) == value for p in ports):
                report.add(where, f"{kn(ingress)}: {kn(service)} has no port {wanted}")
        routed = web_routes(ingress)
        called = web_client_services()
        if not called:
            report.add(where, "found no createClient(...) in clients/web/src/api.ts: cannot check the web routes")
        for rpc_service in called:
            if not any(f"/{rpc_service}/".startswith(prefix) and prefix != "/" for prefix, _ in routed):
                report.add(where, f"{kn(ingress)}: no path for /{rpc_service}/, which the web client calls "
                                  "(clients/web/src/api.ts)")

    for monitor in by_kind.get("ServiceMonitor", {}).values():
        spec = monitor.get("spec") or {}
        matched = [
            s
            for s in by_kind.get("Service", {}).values()
            if selector_matches(spec.get("selector"), (s.get("metadata") or {}).get("labels") or {})
        ]
        if not matched:
            report.add(where, f"{kn(monitor)}: its selector matches no Service")
        for endpoint in spec.get("endpoints") or []:
            for service in matched:
                ports = {p.get("name") for p in (service.get("spec") or {}).get("ports") or []}
                if endpoint.get("port") and endpoint["port"] not in ports:
                    report.add(where, f"{kn(monitor)}: {kn(service)} has no port named {endpoint['port']!r}")


def cmd_manifests(args: argparse.Namespace) -> int:
    report = Report()
    total = 0
    for path in map(Path, args.files):
        where = path.stem
        try:
            objects = load_stream(path)
        except yaml.YAMLError as error:
            report.add(where, f"not YAML: {error}")
            continue
        if not objects:
            report.add(where, "the build is empty")
        for obj in objects:
            validate_schema(obj, args.k8s_version, report, where)
        check_references(objects, set(args.external_secret), report, where)
        total += len(objects)
        print(f"{where}: {len(objects)} objects checked against Kubernetes {', '.join(args.k8s_version)}")
    return report.finish(f"manifests ({total} objects)")


def cmd_render(args: argparse.Namespace) -> int:
    json.dump(load_stream(Path(args.file)), sys.stdout)
    return 0


# ---------------------------------------------------------------------------------------------------
# Grafana dashboard and metric names

GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}
RAW_SIZZLE_METRIC = re.compile(r"(?<![:\w])sizzle_[a-z0-9_]+(?![:\w])")


def dashboard_queries(dashboard: dict[str, Any], report: Report) -> Iterator[tuple[str, str]]:
    for key in ("uid", "title", "panels", "schemaVersion"):
        if key not in dashboard:
            report.add("dashboard", f"no {key!r}")
    variables = {v.get("name") for v in (dashboard.get("templating") or {}).get("list") or []}
    ids: set[object] = set()

    def walk(panels: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for panel in panels:
            yield panel
            yield from walk(panel.get("panels") or [])

    for panel in walk(dashboard.get("panels") or []):
        where = f"panel {panel.get('id')} {panel.get('title')!r}"
        if panel.get("id") in ids:
            report.add("dashboard", f"{where}: id used twice")
        ids.add(panel.get("id"))
        if "gridPos" not in panel:
            report.add("dashboard", f"{where}: no gridPos")
        if panel.get("type") == "row":
            continue
        targets = panel.get("targets") or []
        if not targets:
            report.add("dashboard", f"{where}: no queries")
        for target in targets:
            expr = target.get("expr")
            if not expr:
                report.add("dashboard", f"{where} query {target.get('refId')}: no expr")
                continue
            for used in re.findall(r"\$\{?(\w+)\}?", expr):
                if f"${used}" not in GRAFANA_VARIABLES and used not in variables:
                    report.add("dashboard", f"{where}: uses ${used}, which the dashboard does not define")
            yield f"{panel.get('id')}_{target.get('refId')}", expr


def substitute(expr: str) -> str:
    for variable, value in GRAFANA_VARIABLES.items():
        expr = expr.replace(variable, value)
    return re.sub(r"\$\{?\w+\}?", ".*", expr)


def cmd_dashboard(args: argparse.Namespace) -> int:
    report = Report()
    try:
        dashboard = json.loads(Path(args.file).read_text())
    except json.JSONDecodeError as error:
        report.add("dashboard", f"not JSON: {error}")
        return report.finish("dashboard")
    rules = [
        {"record": f"dashboard:panel_{ref}", "expr": substitute(expr)}
        for ref, expr in dashboard_queries(dashboard, report)
    ]
    Path(args.rules_out).write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    print(f"dashboard: {len(rules)} queries written to {args.rules_out} for promtool")
    return report.finish("dashboard")


def defined_metrics(source: str) -> set[str]:
    """Exposed metric names of the prometheus_client objects in services/kit/metrics.py."""
    names: set[str] = set()
    for kind, name in re.findall(r"\b(Counter|Gauge|Histogram|Summary)\(\s*\"(sizzle_[a-z0-9_]+)\"", source):
        base = name[: -len("_total")] if kind == "Counter" and name.endswith("_total") else name
        if kind == "Counter":
            names |= {base + "_total", base + "_created"}
        elif kind in {"Histogram", "Summary"}:
            names |= {base + "_bucket", base + "_count", base + "_sum", base + "_created"}
        else:
            names.add(base)
    return names


def cmd_metrics(args: argparse.Namespace) -> int:
    report = Report()
    defined = defined_metrics(Path(args.metrics_module).read_text())
    if not defined:
        report.add(args.metrics_module, "defines no sizzle_* metric")
    for path in map(Path, args.files):
        # Raw metric names only: recording rules (sizzle_service:rpc_requests:rate5m) have colons.
        used = set(RAW_SIZZLE_METRIC.findall(path.read_text()))
        for metric in sorted(used - defined):
            report.add(str(path.relative_to(ROOT)), f"uses {metric}, which services/kit/metrics.py does not define")
    return report.finish(f"metric names ({len(defined)} exposed names defined)")


# ---------------------------------------------------------------------------------------------------
# Dockerfile


def dockerignore_patterns(path: Path) -> list[str]:
    if not path.exists():
        return []
    return [
        line.strip().rstrip("/") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]


def ignored(relative: str, patterns: list[str]) -> bool:
    parts = relative.rstrip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(
        fnmatch.fnmatch(prefix, pattern) or fnmatch.fnmatch(prefix, pattern.removeprefix("**/"))
        for pattern in patterns
        for prefix in prefixes
    )


def cmd_dockerfile(args: argparse.Namespace) -> int:
    import dockerfile

    report = Report()
    path = Path(args.file)
    context = Path(args.context)
    where = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    patterns = dockerignore_patterns(path.with_name(path.name + ".dockerignore"))
    commands = dockerfile.parse_file(str(path))
    global_args: dict[str, str] = {}
    stages: list[dict[str, Any]] = []
    for command in commands:
        if command.cmd == "FROM":
            image = command.value[0]
            alias = command.value[2] if len(command.value) >= 3 and command.value[1].upper() == "AS" else None
            stages.append({"image": image, "alias": alias, "args": dict(global_args), "commands": []})
        elif not stages:
            if command.cmd == "ARG":
                name, _, default = command.value[0].partition("=")
                global_args[name] = default
        else:
            stages[-1]["commands"].append(command)

    def expand(text: str, values: dict[str, str]) -> str:
        return re.sub(r"\$\{?(\w+)\}?", lambda m: values.get(m.group(1), m.group(0)), text)

    if len(stages) < 2:
        report.add(where, f"{len(stages)} stage(s): want a multi-stage build")
    aliases = set()
    for index, stage in enumerate(stages):
        image = expand(stage["image"], global_args)
        if stage["image"] not in aliases:
            name = image.rsplit("/", 1)[-1]
            if "@" not in name and (":" not in name or name.endswith(":latest")):
                report.add(where, f"stage {index} base image {image!r} has no fixed tag")
        values = dict(global_args)
        for command in stage["commands"]:
            if command.cmd == "ARG":
                name, _, default = command.value[0].partition("=")
                values[name] = default or global_args.get(name, "")
            if command.cmd == "ADD" and any(v.startswith(("http://", "https://")) for v in command.value):
                report.add(where, f"line {command.start_line}: ADD of a URL (fetch in a RUN step with a checksum)")
            if command.cmd == "COPY":
                source_stage = next((f.split("=", 1)[1] for f in command.flags if f.startswith("--from=")), None)
                if source_stage is not None:
                    if source_stage not in aliases:
                        report.add(
                            where, f"line {command.start_line}: COPY --from={source_stage}, no such earlier stage"
                        )
                    continue
                sources = [expand(v, values) for v in command.value[:-1]]
                matched = 0
                for source in sources:
                    hits = [
                        p
                        for p in context.glob(source.rstrip("/"))
                        if not ignored(str(p.relative_to(context)), patterns)
                    ]
                    if any(ch in source for ch in "*?["):
                        matched += len(hits)
                        continue
                    if not hits:
                        report.add(
                            where,
                            f"line {command.start_line}: COPY source {source!r} is missing from the "
                            "build context (or excluded by the .dockerignore)",
                        )
                    matched += len(hits)
                if not matched:
                    report.add(where, f"line {command.start_line}: COPY copies nothing")
        stage["values"] = values
        if stage["alias"]:
            aliases.add(stage["alias"])
    if stages:
        final = stages[-1]
        users = [expand(c.value[0], final["values"]) for c in final["commands"] if c.cmd == "USER"]
        if not users:
            report.add(where, "the final stage sets no USER (it would run as root)")
        else:
            user = users[-1].split(":")[0]
            if not user.isdigit() or int(user) == 0:
                report.add(
                    where,
                    f"the final stage runs as {users[-1]!r}: want a numeric non-root uid, so that "
                    "Kubernetes can verify runAsNonRoot",
                )
        exposed = {p.split("/")[0] for c in final["commands"] if c.cmd == "EXPOSE" for p in c.value}
        for port in ("50051", "8080", "9100"):
            if port not in exposed:
                report.add(where, f"the final stage does not EXPOSE {port}")
        for command in final["commands"]:
            if command.cmd in {"ENTRYPOINT", "CMD"} and not command.json:
                report.add(
                    where, f"line {command.start_line}: {command.cmd} in shell form (signals do not reach the app)"
                )
        build_text = "\n".join(c.original for s in stages[:-1] for c in s["commands"])
        for needle, why in (
            ("scripts/gen_protos.py", "generates the protobuf code"),
            ("pip install", "installs the distribution"),
            ("npm run build", "builds the web client"),
        ):
            if needle not in build_text:
                report.add(where, f"no build stage {why} ({needle!r} not found)")
    return report.finish(f"dockerfile ({len(stages)} stages)")


# ---------------------------------------------------------------------------------------------------
# PrometheusRule of the service-monitor component

PROMETHEUS_RULE_HEADER = """\
# GENERATED from deploy/prometheus/rules/sizzle.rules.yml by `scripts/deploy_check.sh sync-rules`;
# do not edit here (scripts/deploy_check.sh fails when the two differ).
"""


class _BlockDumper(yaml.SafeDumper):
    """Writes multi-line strings (long PromQL, descriptions) as YAML block literals."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str_representer)


def prometheus_rule(groups: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "sizzle", "labels": {"app.kubernetes.io/part-of": "sizzle"}},
        "spec": {"groups": groups},
    }


def cmd_prometheusrule(args: argparse.Namespace) -> int:
    report = Report()
    groups = yaml.safe_load(Path(args.rules).read_text())["groups"]
    wanted = prometheus_rule(groups)
    target = Path(args.component_file)
    if args.write:
        target.write_text(PROMETHEUS_RULE_HEADER + yaml.dump(wanted, Dumper=_BlockDumper, sort_keys=False, width=200))
        print(f"wrote {target}")
        return 0
    if not target.exists() or yaml.safe_load(target.read_text()) != wanted:
        report.add(
            str(target.relative_to(ROOT)),
            "differs from deploy/prometheus/rules/sizzle.rules.yml; run `scripts/deploy_check.sh sync-rules`",
        )
    return report.finish("PrometheusRule in sync")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    manifests = sub.add_parser("manifests")
    manifests.add_argument("files", nargs="+")
    manifests.add_argument("--k8s-version", action="append", required=True)
    manifests.add_argument("--external-secret", action="append", default=[])
    manifests.set_defaults(func=cmd_manifests)
    render = sub.add_parser("render")
    render.add_argument("file")
    render.set_defaults(func=cmd_render)
    dashboard = sub.add_parser("dashboard")
    dashboard.add_argument("file")
    dashboard.add_argument("rules_out")
    dashboard.set_defaults(func=cmd_dashboard)
    metrics = sub.add_parser("metrics")
    metrics.add_argument("metrics_module")
    metrics.add_argument("files", nargs="+")
    metrics.set_defaults(func=cmd_metrics)
    docker = sub.add_parser("dockerfile")
    docker.add_argument("file")
    docker.add_argument("--context", default=str(ROOT))
    docker.set_defaults(func=cmd_dockerfile)
    rule = sub.add_parser("prometheusrule")
    rule.add_argument("rules")
    rule.add_argument("component_file")
    rule.add_argument("--write", action="store_true")
    rule.set_defaults(func=cmd_prometheusrule)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
