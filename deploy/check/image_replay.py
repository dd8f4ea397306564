"""Builds the container image without a container engine, then starts what the manifests start.

    python deploy/check/image_replay.py [--keep DIR] [--manifests RENDERED.json]

Where no engine runs (this kind of machine), `docker build` cannot prove the image builds. This
replays deploy/Dockerfile instead, instruction by instruction, into a sandbox folder that stands for
the image's root: the build context is a clean checkout's files (`git ls-files`) less
deploy/Dockerfile.dockerignore's patterns; ARG and ENV set variables, WORKDIR and COPY place files
under the sandbox (COPY --from copies between the sandbox's paths: every stage shares it), RUN runs
in bash with the image's absolute paths (/opt, /src, /web, /app, /tmp) moved into the sandbox;
`python` is this machine's Python 3.11, as the image's base is, and `node` and `npm` are this
machine's Node 20, as the web stage's base is. Then every
container the Kubernetes manifests run (each Deployment's and Job's `args`, with the ConfigMap's
environment moved onto loopback, a Redis prefix of its own and a test key) starts from the sandbox's
/app with the sandbox's /opt/sizzle/bin first on PATH, and must answer its health check: the gRPC
health service for `sizzle serve`, /metrics for the bot worker, a short headless run for the load
test. Then the browser's way in: through the routes of the sizzle-web Ingress, the web client's
page and one Connect call of each service it calls must reach the web port of a process that
serves them. A COPY of a path the context lacks, a RUN that fails, a process that never gets
healthy or a route that does not answer fails the check with what it printed.

Needs: the `dockerfile` parser (deploy tools venv), git, bash, Node 20 with npm, Redis at
SIZZLE_TEST_REDIS_URL (default redis://127.0.0.1:6379/13), and the package registries for the RUN
steps' pip and npm installs.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
IMAGE_ROOTS = ("/opt", "/src", "/web", "/app", "/tmp")  # the image's absolute paths the Dockerfile writes to
BUILD_STAGES = ("web", "build")  # the stages whose RUN steps are replayed (the runtime's install system packages)
HEALTH_SECONDS = 120


def log(message: str) -> None:
    print(f"image-replay: {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ the build context
def ignore_patterns() -> list[str]:
    path = DOCKERFILE.with_name(DOCKERFILE.name + ".dockerignore")
    lines = path.read_text().splitlines() if path.exists() else []
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def ignored(relative: str, patterns: list[str]) -> bool:
    """Docker's rule: a pattern matches the path or one of its parent folders (`**` any depth)."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        plain = pattern.rstrip("/")
        for prefix in prefixes:
            if fnmatch.fnmatchcase(prefix, plain) or (plain.startswith("**/") and
                                                      fnmatch.fnmatchcase(prefix.rsplit("/", 1)[-1], plain[3:])):
                return True
    return False


def build_context(into: Path) -> Path:
    """The files a clean clone has, less the ignored ones (what `docker build .` would send)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    patterns = ignore_patterns()
    for relative in filter(None, listed):
        source = ROOT / relative
        if not source.is_file() or ignored(relative, patterns):
            continue
        target = into / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return into


# ------------------------------------------------------------------ the replay
class Sandbox:
    """Stands for the image's filesystem: image paths under IMAGE_ROOTS live below `root`."""

    def __init__(self, root: Path, context: Path) -> None:
        self.root = root
        self.context = context
        self.cwd = "/"
        self.env: dict[str, str] = {}
        self.args: dict[str, str] = {}

    def path(self, image_path: str) -> Path:
        absolute = image_path if image_path.startswith("/") else f"{self.cwd.rstrip('/')}/{image_path}"
        return self.root / absolute.lstrip("/")

    def moved(self, text: str) -> str:
        """A shell command with the image's absolute paths moved into the sandbox (in one pass, so a
        sandbox that itself lives under /tmp is not moved twice)."""
        roots = "|".join(re.escape(r) for r in IMAGE_ROOTS)
        return re.sub(rf"(?<=[\s='\"])({roots})(?=/|\s|$)", lambda m: f"{self.root}{m.group(1)}", text)

    def expand(self, text: str) -> str:
        for name, value in {**self.args, **self.env}.items():
            text = text.replace("${" + name + "}", value).replace("$" + name, value)
        return text

    def copy(self, sources: list[str], destination: str) -> None:
        target = self.path(self.expand(destination))
        for source in sources:
            origin = self.context / source.rstrip("/")
            matches = sorted(self.context.glob(source.rstrip("/"))) if any(c in source for c in "*?[") else [origin]
            if not matches or not all(m.exists() for m in matches):
                raise SystemExit(f"COPY {source}: not in the build context (a clean checkout less .dockerignore)")
            for match in matches:
                if match.is_dir():
                    shutil.copytree(match, target if destination.endswith("/") and source.endswith("/") else
                                    target / match.name, dirs_exist_ok=True)
                else:
                    into = target / match.name if destination.endswith("/") else target
                    into.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(match, into)

    def copy_from_stage(self, sources: list[str], destination: str) -> None:
        """COPY --from=STAGE: the earlier stage's files are the sandbox's own, at their image paths."""
        target = self.path(self.expand(destination))
        for source in sources:
            origin = self.path(self.expand(source))
            if not origin.exists():
                raise SystemExit(f"COPY --from {source}: the earlier stage made no such path")
            if origin == target:
                continue
            if origin.is_dir():
                shutil.copytree(origin, target, dirs_exist_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target / origin.name if destination.endswith("/") else target)

    def image_value(self, value: str) -> str:
        """An environment value naming an image path (SIZZLE_WEB_CLIENT_DIR=/app/web), in the sandbox."""
        return str(self.path(value)) if value.startswith(tuple(r + "/" for r in IMAGE_ROOTS)) else value

    def run(self, command: str) -> None:
        workdir = self.path(self.cwd)
        workdir.mkdir(parents=True, exist_ok=True)
        shell = self.moved(" " + self.expand(command))
        env = {**os.environ, **self.env, "PATH": f"{self.root}/bin:{os.environ['PATH']}"}
        for key in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"):
            env.pop(key, None)
        log(f"RUN {command[:110]}")
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", shell], cwd=workdir, env=env, capture_output=True,
                              text=True)
        if done.returncode:
            raise SystemExit(f"RUN failed ({done.returncode}): {command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def python_shim(sandbox: Sandbox) -> None:
    """`python` in RUN steps is the base image's Python: here this machine's python3 (3.11)."""
    bin_dir = sandbox.root / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    real = shutil.which("python3.11") or shutil.which("python3")
    if real is None:
        raise SystemExit("no python3 on PATH")
    for name in ("python", "python3"):
        (bin_dir / name).unlink(missing_ok=True)
        (bin_dir / name).symlink_to(real)


def replay(sandbox: Sandbox) -> None:
    import dockerfile

    python_shim(sandbox)
    for folder in IMAGE_ROOTS:  # what the base image already has
        sandbox.path(folder).mkdir(parents=True, exist_ok=True)
    stage = ""
    for instruction in dockerfile.parse_file(str(DOCKERFILE)):
        cmd, value, flags = instruction.cmd.lower(), list(instruction.value), list(instruction.flags)
        if cmd == "from":
            stage = value[-1] if len(value) >= 3 and value[-2].lower() == "as" else ""
            log(f"stage {stage or '(unnamed)'}")
        elif cmd == "arg":
            name, _, default = value[0].partition("=")
            sandbox.args.setdefault(name, default)
        elif cmd == "env":
            for name, val in zip(value[::2], value[1::2], strict=True):
                sandbox.env[name] = sandbox.expand(val)
        elif cmd == "workdir":
            sandbox.cwd = sandbox.expand(value[0])
            sandbox.path(sandbox.cwd).mkdir(parents=True, exist_ok=True)
        elif cmd == "copy":
            if any(f.startswith("--from=") for f in flags):
                sandbox.copy_from_stage(value[:-1], value[-1])
            else:
                sandbox.copy(value[:-1], value[-1])
        elif cmd == "run":
            if stage not in BUILD_STAGES:
                log(f"skipped in the runtime stage (system packages and users): {value[0][:80]}")
                continue
            sandbox.run(" ".join(value))


# ------------------------------------------------------------------ what the manifests start
def containers(rendered: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for obj in rendered:
        if obj.get("kind") not in ("Deployment", "Job"):
            continue
        for container in obj["spec"]["template"]["spec"]["containers"]:
            found.append((obj["metadata"]["name"], container))
    return found


def mounted_dirs(sandbox: Sandbox, name: str, container: dict[str, Any]) -> dict[str, Path]:
    """The pod's volume mounts as fresh sandbox folders (an emptyDir is an empty folder per pod)."""
    mounts = {}
    for mount in container.get("volumeMounts", []):
        folder = sandbox.root / "volumes" / name / mount["name"]
        folder.mkdir(parents=True, exist_ok=True)
        mounts[mount["mountPath"].rstrip("/")] = folder
    return mounts


def on_volume(value: str, mounts: dict[str, Path]) -> str:
    """A path under a mount (PROMETHEUS_MULTIPROC_DIR=/tmp/prometheus) pointed at its sandbox folder."""
    for mount in sorted(mounts, key=len, reverse=True):
        if value == mount or value.startswith(mount + "/"):
            return str(mounts[mount]) + value[len(mount):]
    return value


def config_env(rendered: list[dict[str, Any]]) -> dict[str, str]:
    for obj in rendered:
        if obj.get("kind") == "ConfigMap" and obj["metadata"]["name"].startswith("sizzle-config"):
            return dict(obj["data"])
    raise SystemExit("no sizzle-config ConfigMap in the manifests")


def wait_healthy(name: str, proc: subprocess.Popen[str], check: Any) -> None:
    deadline = time.monotonic() + HEALTH_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited ({proc.returncode}) before it was healthy:\n{proc.stdout.read()[-3000:]}"
                             if proc.stdout else f"{name} exited ({proc.returncode})")
        if check():
            log(f"{name}: healthy")
            return
        time.sleep(0.5)
    raise SystemExit(f"{name} not healthy within {HEALTH_SECONDS}s")


def grpc_healthy(sandbox: Sandbox, port: int) -> Any:
    probe = (f"import grpc; from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; "
             f"c = grpc.insecure_channel('127.0.0.1:{port}'); "
             f"r = g.HealthStub(c).Check(h.HealthCheckRequest(), timeout=2); "
             f"raise SystemExit(0 if r.status == h.HealthCheckResponse.SERVING else 1)")
    python = str(sandbox.root / "opt/sizzle/bin/python")
    return lambda: subprocess.run([python, "-c", probe], capture_output=True).returncode == 0


def http_ok(port: int, path: str) -> Any:
    def check() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False
    return check


def start_everything(sandbox: Sandbox, rendered: list[dict[str, Any]], redis_url: str) -> None:
    base = config_env(rendered)
    prefix = f"sizzle-image-{uuid.uuid4().hex[:10]}"
    broker = redis_url.rsplit("/", 1)[0] + "/12"
    app_dir = sandbox.root / "app"
    path = f"{sandbox.root}/opt/sizzle/bin:{os.environ['PATH']}"
    started: list[subprocess.Popen[str]] = []
    addresses: dict[str, int] = {}
    web_ports: dict[str, int] = {}  # Deployment name: its web port on loopback
    order = {"rules": 0, "match": 1, "matchmaking": 2, "worker": 3}
    ranked = sorted(containers(rendered), key=lambda c: next((v for k, v in order.items() if k in c[0]), 9))
    try:
        for name, container in ranked:
            args = [sandbox.expand(a) for a in container.get("command", []) + container.get("args", [])]
            port, metrics = free_port(), free_port()
            image_env = {name: sandbox.image_value(value) for name, value in sandbox.env.items()}
            env = {**os.environ, **image_env, **base, "PATH": path, "HOME": str(sandbox.root / "tmp"),
                   "SIZZLE_ADDR": f"127.0.0.1:{port}", "SIZZLE_METRICS_PORT": str(metrics),
                   "SIZZLE_METRICS_ADDR": "127.0.0.1", "SIZZLE_REDIS_URL": redis_url, "SIZZLE_REDIS_PREFIX": prefix,
                   "SIZZLE_BROKER_URL": broker, "SIZZLE_BOT_QUEUE": prefix, "SIZZLE_GRACE_SECONDS": "1",
                   "SIZZLE_TOKEN_KEY": "sizzle-image-replay-key-0123456789abcdef"}
            # The cluster's addresses of the services, replaced by the local ones.
            local_addresses = {"SIZZLE_MATCH_ADDR": "match", "SIZZLE_LOAD_MATCHMAKING_ADDR": "matchmaking"}
            for variable, service in local_addresses.items():
                if service in addresses:
                    env[variable] = f"127.0.0.1:{addresses[service]}"
            mounts = mounted_dirs(sandbox, name, container)
            for item in container.get("env", []):
                if "value" in item and item["name"] not in local_addresses:
                    env[item["name"]] = on_volume(item["value"], mounts)
            check: Any
            if args[:2] == ["sizzle", "serve"]:
                service = args[args.index("--services") + 1] if "--services" in args else "all"
                check = grpc_healthy(sandbox, port)
                addresses[service] = port
                if env.get("SIZZLE_WEB_ADDR"):
                    web_ports[name] = free_port()
                    env["SIZZLE_WEB_ADDR"] = f"127.0.0.1:{web_ports[name]}"
            elif args[:2] == ["sizzle", "worker"]:
                check = http_ok(metrics, "/metrics")
            elif args and args[0] == "locust":
                args = short_load_run(args, f"127.0.0.1:{addresses['match']}")
                log(f"{name}: {' '.join(args)}")
                done = subprocess.run(args, cwd=app_dir, env=env, capture_output=True, text=True, timeout=180)
                if done.returncode:
                    raise SystemExit(f"{name} failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
                                     f"{done.stderr[-3000:]}")
                log(f"{name}: a short headless run finished")
                continue
            else:
                raise SystemExit(f"{name}: no health check known for {args}")
            log(f"{name}: {' '.join(args)}")
            proc = subprocess.Popen(args, cwd=app_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, start_new_session=True)
            started.append(proc)
            wait_healthy(name, proc, check)
        check_web_routes(rendered, web_ports)
    finally:
        for proc in reversed(started):
            with_suppressed(lambda p=proc: os.killpg(p.pid, signal.SIGTERM))
        for proc in started:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                with_suppressed(lambda p=proc: os.killpg(p.pid, signal.SIGKILL))
        cleanup_redis(redis_url, prefix, broker)


# One call a service of the web client takes without a token, and what its answer must hold.
WEB_PROBES = {
    "sizzle.auth.v1.AuthService": ("CreateGuest", {"displayName": "Replay"}, "token"),
    "sizzle.match.v1.MatchService": ("ListMatches", {}, ""),
    "sizzle.matchmaking.v1.MatchmakingService": ("ListLeaderboard", {"gameId": "hibachi"}, ""),
    "sizzle.rules.v1.RulesService": ("ListGames", {}, "games"),
}


def check_web_routes(rendered: list[dict[str, Any]], web_ports: dict[str, int]) -> None:
    """The browser's way in, as the Ingress routes it: each path to its Service, the Service to the
    pods its selector picks (here, the Deployment's process and its web port). The client's page and
    one Connect call of each service the web client calls must answer."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from validate import web_client_services, web_routes

    ingresses = [obj for obj in rendered if obj.get("kind") == "Ingress"]
    if len(ingresses) != 1:
        raise SystemExit(f"want one Ingress for the web client, found {len(ingresses)}")
    routes = web_routes(ingresses[0])
    services = {obj["metadata"]["name"]: obj for obj in rendered if obj.get("kind") == "Service"}
    deployments = {obj["metadata"]["name"]: obj for obj in rendered if obj.get("kind") == "Deployment"}

    def port_for(path: str) -> int:
        prefix, service_name = next((p, s) for p, s in routes if path.startswith(p))
        selector = services[service_name]["spec"]["selector"]
        for name, deployment in deployments.items():
            labels = deployment["spec"]["template"]["metadata"]["labels"]
            if all(labels.get(k) == v for k, v in selector.items()) and name in web_ports:
                return web_ports[name]
        raise SystemExit(f"the Ingress routes {prefix} to {service_name}, whose pods open no web port")

    with urllib.request.urlopen(f"http://127.0.0.1:{port_for('/')}/", timeout=5) as page:
        body = page.read().decode()
        if page.status != 200 or "<script" not in body:
            raise SystemExit(f"the web client's page through the Ingress: {page.status} {body[:200]!r}")
    log("web: the client's page answers through the Ingress's / route")
    for rpc_service in web_client_services():
        if rpc_service not in WEB_PROBES:
            raise SystemExit(f"no web probe for {rpc_service}: add one to WEB_PROBES")
        method, body_json, must_hold = WEB_PROBES[rpc_service]
        path = f"/{rpc_service}/{method}"
        request = urllib.request.Request(f"http://127.0.0.1:{port_for(path)}{path}", method="POST",
                                         data=json.dumps(body_json).encode(),
                                         headers={"Content-Type": "application/json", "Connect-Protocol-Version": "1",
                                                  "X-Forwarded-For": "203.0.113.7"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as refused:
            raise SystemExit(f"{path} through the Ingress: HTTP {refused.code} {refused.read()[:300]!r}") from None
        if must_hold and must_hold not in answer:
            raise SystemExit(f"{path} through the Ingress answered without {must_hold!r}: {str(answer)[:300]}")
        log(f"web: {path} answers through the Ingress")


def with_suppressed(call: Any) -> None:
    try:
        call()
    except (ProcessLookupError, PermissionError):
        pass


def short_load_run(args: list[str], match_addr: str) -> list[str]:
    """The Job's locust command cut to a few seconds and users, against the local match service."""
    out, skip = [], False
    overrides = {"--users": "2", "--spawn-rate": "2", "--run-time": "5s", "--host": match_addr,
                 "--stop-timeout": "5", "--csv": None}
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in overrides:
            skip = True
            if overrides[arg] is not None:
                out += [arg, str(overrides[arg])]
            continue
        out.append(arg)
        del index
    return out


def cleanup_redis(redis_url: str, prefix: str, broker: str) -> None:
    try:
        import redis
    except ImportError:
        return
    for url, pattern in ((redis_url, f"{prefix}:*"), (broker, f"*{prefix}*")):
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="replay into this folder and keep it (default: a temporary one)")
    parser.add_argument("--manifests", type=Path, required=True,
                        help="the rendered base (scripts/deploy_check.sh render base > FILE)")
    parser.add_argument("--build-only", action="store_true", help="replay the build; start nothing")
    args = parser.parse_args(argv)
    redis_url = os.environ.get("SIZZLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
    work = args.keep or Path(tempfile.mkdtemp(prefix="sizzle-image-"))
    try:
        started = time.monotonic()
        sandbox = Sandbox(work / "root", build_context(work / "context"))
        replay(sandbox)
        log(f"the image's build replayed in {time.monotonic() - started:.0f}s")
        if not args.build_only:
            start_everything(sandbox, json.loads(args.manifests.read_text()), redis_url)
        log("every container the manifests run started and answered its health check")
        return 0
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
