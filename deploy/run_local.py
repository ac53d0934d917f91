"""Two gaussmech replicas behind nginx on loopback, the load generator through the balancer.

Starts two Streamlit replicas (each with the settings of deploy/replica.env) on free loopback
ports, writes deploy/nginx.conf.template's markers into a temporary nginx prefix and starts
nginx in front of them, waits until /_stcore/health answers through the balancer, runs
benchmarks/load_test.py through it, and then reads nginx's access log to show how the load
was spread: requests, websocket sessions and uploads per replica, and the uploads' statuses.
Everything is stopped at the end (the processes this script started, by their ids).

Run: ``.venv/bin/python deploy/run_local.py [--sessions 30] [--seconds 30] [--replicas 2] [--scenario lecture]``
(needs Debian's nginx: ``apt-get install -y nginx``).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_test import free_port, wait_healthy  # noqa: E402

SECURITY_HEADERS = {
    "x-content-type-options",
    "x-frame-options",
    "content-security-policy",
    "referrer-policy",
    "permissions-policy",
}


def replica_settings() -> dict[str, str]:
    """The environment every replica gets (deploy/replica.env: KEY=value lines, # comments)."""
    settings = {}
    for line in (HERE / "replica.env").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def replica_routing(addresses: list[str], server_options: str = "", upstream_lines: tuple[str, ...] = ()) -> str:
    """nginx's per-replica upstreams, the home replica of a new browser, and the next replica of each.

    ``addresses`` are the replicas' host:port; ``server_options`` follow each address (e.g. ``resolve``).
    """
    count = len(addresses)
    blocks = []
    for index, address in enumerate(addresses):
        blocks += [
            f"    upstream replica_{index} {{",
            *(f"        {line}" for line in upstream_lines),
            f"        server {address}{server_options};",
            "        keepalive 8;",
            "    }",
        ]
    share = f"{100 / count:.2f}".rstrip("0").rstrip(".")
    blocks.append('    split_clients "${affinity}" $home_replica {')
    blocks += [f"        {share}% replica_{index};" for index in range(count - 1)]
    blocks += [f"        * replica_{count - 1};", "    }"]
    blocks += ["    map $cookie_gm_route $route_target {", "        default $home_replica;"]
    blocks += [f"        replica_{index} replica_{index};" for index in range(count)]
    blocks += ["    }", "    map $route_target $second_choice {"]
    blocks += [f"        replica_{index} replica_{(index + 1) % count};" for index in range(count)]
    blocks += ["    }"]
    return "\n".join(blocks)


def nginx_config(listen: int, replicas: list[int], prefix: Path) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=3 fail_timeout=10s;" for port in replicas)
    routing = replica_routing([f"127.0.0.1:{port}" for port in replicas])
    text = (HERE / "nginx.conf.template").read_text(encoding="utf-8")
    return (
        text.replace("@@PREFIX@@", str(prefix))
        .replace("@@LISTEN@@", f"127.0.0.1:{listen}")
        .replace("@@UPSTREAM_SERVERS@@", servers)
        .replace("@@REPLICA_ROUTING@@", routing)
        .replace("@@SERVER_NAME@@", "127.0.0.1 localhost")
        .replace("@@REAL_IP@@", "    # (none here: the load generator connects directly)")
    )


KUBERNETES_NAMESPACE = "gaussmech"
KUBERNETES_HOST = "gaussmech.example.org"
KUBERNETES_REPLICAS = 3


def kubernetes_nginx_config() -> str:
    """The proxy's nginx.conf in Kubernetes (deploy/kubernetes/proxy.yaml holds it; a test keeps them equal).

    The same template as on one machine: the replicas are the StatefulSet's pods by name, looked up
    again while nginx runs (``resolve``, nginx 1.27.3 or newer), logs go to the container's output,
    and the client's address is read from the Ingress controller's X-Forwarded-For.
    """
    names = [
        f"gaussmech-{index}.gaussmech-replicas.{KUBERNETES_NAMESPACE}.svc.cluster.local"
        for index in range(KUBERNETES_REPLICAS)
    ]
    servers = "\n".join(
        [
            "        zone gaussmech 1m;",
            "        resolver kube-dns.kube-system.svc.cluster.local valid=10s;",
            *(f"        server {name}:8501 resolve max_fails=3 fail_timeout=10s;" for name in names),
        ]
    )
    real_ip = "\n".join(
        f"    {line}"
        for line in (
            "set_real_ip_from 10.0.0.0/8;",
            "set_real_ip_from 172.16.0.0/12;",
            "set_real_ip_from 192.168.0.0/16;",
            "real_ip_header X-Forwarded-For;",
            "real_ip_recursive on;",
        )
    )
    routing = replica_routing(
        [f"{name}:8501" for name in names],
        " resolve max_fails=1 fail_timeout=10s",
        ("zone replica 64k;", "resolver kube-dns.kube-system.svc.cluster.local valid=10s;"),
    )
    text = (HERE / "nginx.conf.template").read_text(encoding="utf-8")
    return (
        text.replace("@@REPLICA_ROUTING@@", routing)
        .replace("@@PREFIX@@/access.log", "/dev/stdout")
        .replace("@@PREFIX@@/error.log", "/dev/stderr")
        .replace("@@PREFIX@@", "/tmp/nginx")
        .replace("@@LISTEN@@", "8080")
        .replace("@@UPSTREAM_SERVERS@@", servers)
        .replace("@@SERVER_NAME@@", KUBERNETES_HOST)
        .replace("@@REAL_IP@@", real_ip)
    )


def kubernetes_proxy_manifest() -> str:
    """deploy/kubernetes/proxy.yaml: the proxy's ConfigMap (:func:`kubernetes_nginx_config`), Deployment and Service."""
    config = "\n".join(("    " + line) if line else "" for line in kubernetes_nginx_config().splitlines())
    return (HERE / "kubernetes" / "proxy.yaml.template").read_text(encoding="utf-8").replace("@@NGINX_CONF@@", config)


def write_nginx_prefix(listen: int, replicas: list[int], prefix: Path) -> Path:
    for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / folder).mkdir(parents=True, exist_ok=True)
    config = prefix / "nginx.conf"
    config.write_text(nginx_config(listen, replicas, prefix), encoding="utf-8")
    return config


def start_replica(port: int) -> subprocess.Popen:
    environment = {**os.environ, **replica_settings(), "STREAMLIT_SERVER_PORT": str(port)}
    command = [sys.executable, "-m", "streamlit", "run", "app.py"]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def spread(access_log: Path) -> str:
    """Requests, websocket sessions and uploads per replica, from nginx's access log."""
    requests, sessions, uploads = collections.Counter(), collections.Counter(), collections.Counter()
    statuses = collections.Counter()
    affinities = collections.defaultdict(set)
    pattern = re.compile(
        r'"(?P<method>\S+) (?P<path>[^" ]+)[^"]*" (?P<status>\d+) \d+ upstream=(?P<upstream>\S+) affinity=(?P<key>\S+)'
    )
    for line in access_log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = pattern.search(line)
        if not match:
            continue
        upstream = match["upstream"]
        requests[upstream] += 1
        affinities[match["key"]].add(upstream)
        if match["path"].startswith("/_stcore/stream"):
            sessions[upstream] += 1
        if match["path"].startswith("/_stcore/upload_file/") and match["method"] == "PUT":
            uploads[upstream] += 1
            statuses[match["status"]] += 1
    split = sum(1 for replicas in affinities.values() if len(replicas) > 1)
    lines = [f"{'replica':<22} {'requests':>9} {'websockets':>11} {'uploads':>8}"]
    for upstream in sorted(requests):
        lines.append(f"{upstream:<22} {requests[upstream]:>9} {sessions[upstream]:>11} {uploads[upstream]:>8}")
    lines.append(
        f"upload statuses: {dict(statuses)}; affinity keys seen on more than one replica: {split} of {len(affinities)}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--settle", type=float, default=0)
    parser.add_argument("--attackers", type=int, default=0, help="the load generator's hostile students")
    parser.add_argument(
        "--write-kubernetes-proxy",
        action="store_true",
        help="write deploy/kubernetes/proxy.yaml from nginx.conf.template and proxy.yaml.template, and exit",
    )
    parser.add_argument(
        "--scenario", choices=("explore", "lecture"), default="explore", help="the load generator's scenario"
    )
    arguments = parser.parse_args()
    if arguments.write_kubernetes_proxy:
        (HERE / "kubernetes" / "proxy.yaml").write_text(kubernetes_proxy_manifest(), encoding="utf-8")
        return
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        sys.exit("nginx is missing: apt-get install -y nginx")
    processes = []
    prefix = Path(tempfile.mkdtemp(prefix="gaussmech-nginx-"))
    try:
        ports = [free_port() for _ in range(arguments.replicas)]
        replicas = [start_replica(port) for port in ports]
        processes += replicas
        for port, replica in zip(ports, replicas):
            wait_healthy(f"http://127.0.0.1:{port}", replica)
        listen = free_port()
        config = write_nginx_prefix(listen, ports, prefix)
        subprocess.run([nginx, "-t", "-q", "-p", str(prefix), "-c", str(config)], check=True)
        balancer = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(config)], stderr=subprocess.PIPE)
        processes.append(balancer)
        url = f"http://127.0.0.1:{listen}"
        wait_healthy(url, balancer)
        print(f"{arguments.replicas} replicas on ports {ports}, nginx on {listen}", flush=True)
        with urllib.request.urlopen(url + "/", timeout=30) as response:
            shown = {
                name: value
                for name, value in response.headers.items()
                if name.lower() in SECURITY_HEADERS or (name.lower() == "set-cookie" and "gm_affinity" in value)
            }
        print(
            "headers through the balancer: " + "; ".join(f"{name}: {value}" for name, value in shown.items()),
            flush=True,
        )
        command = [
            sys.executable,
            str(ROOT / "benchmarks" / "load_test.py"),
            "--url",
            url,
            "--sessions",
            str(arguments.sessions),
            "--seconds",
            str(arguments.seconds),
            "--settle",
            str(arguments.settle),
            "--scenario",
            arguments.scenario,
            "--attackers",
            str(arguments.attackers),
        ]
        for replica in replicas:
            command += ["--server-pid", str(replica.pid)]
        subprocess.run(command, check=True)
        time.sleep(1)  # nginx writes its log lines as requests end
        print("\nload spread (nginx access log):")
        print(spread(prefix / "access.log"))
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(prefix, ignore_errors=True)


if __name__ == "__main__":
    main()
