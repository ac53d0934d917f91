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


def nginx_config(listen: int, replicas: list[int], prefix: Path) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=3 fail_timeout=10s;" for port in replicas)
    text = (HERE / "nginx.conf.template").read_text(encoding="utf-8")
    return (
        text.replace("@@PREFIX@@", str(prefix))
        .replace("@@LISTEN@@", f"127.0.0.1:{listen}")
        .replace("@@UPSTREAM_SERVERS@@", servers)
    )


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
        r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) \d+ upstream=(?P<upstream>\S+) affinity=(?P<key>\S+)'
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
    parser.add_argument(
        "--scenario", choices=("explore", "lecture"), default="explore", help="the load generator's scenario"
    )
    arguments = parser.parse_args()
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
