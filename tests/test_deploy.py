"""The deployment files: nginx's configuration is valid and keeps sessions on one replica; the
container and Kubernetes files hold the settings the README promises."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if pathlib.Path("/usr/sbin/nginx").exists() else None)


def _run_local():
    spec = importlib.util.spec_from_file_location("run_local", DEPLOY / "run_local.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (apt-get install -y nginx); its configuration is not checked"
)
def test_nginx_accepts_the_configuration(tmp_path):
    config = _run_local().write_nginx_prefix(18080, [18501, 18502], tmp_path)
    result = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(config)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_affinity_hashes_on_a_cookie_not_on_the_address():
    text = _run_local().nginx_config(8080, [8501, 8502], pathlib.Path("/tmp/x"))
    assert re.search(r"^\s*hash \$affinity;", text, re.MULTILINE)
    assert "ip_hash" not in re.sub(r"#.*", "", text)  # a lecture hall behind one NAT would share one replica
    assert "server 127.0.0.1:8501" in text and "server 127.0.0.1:8502" in text
    assert "@@" not in text
    for header in ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Permissions-Policy"):
        assert f"add_header {header}" in text
    assert "proxy_set_header Upgrade $http_upgrade" in text  # websockets pass


def test_dockerfile_is_slim_pinned_unprivileged_and_checks_its_health():
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    # The base image by tag AND digest (issue 23, item 6).
    assert re.search(r"^FROM python:3\.11(\.\d+)?-slim-bookworm@sha256:[0-9a-f]{64}$", text, re.MULTILINE)
    # The whole tree, with hashes.
    assert "COPY requirements.lock" in text and "--require-hashes -r requirements.lock" in text
    assert "--no-cache-dir" in text
    assert re.search(r"^USER 10001:10001$", text, re.MULTILINE)
    assert "--uid 10001" in text and "--gid 10001" in text
    assert "HEALTHCHECK" in text and "/_stcore/health" in text
    # jemalloc, pinned and preloaded, from where Debian's package puts it (checked where it is installed).
    preload = re.search(r"^ENV LD_PRELOAD=(\S+)$", text, re.MULTILINE)
    assert preload and re.search(r"libjemalloc2=[0-9][0-9.-]*", text)
    installed = pathlib.Path("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")
    if installed.parent.is_dir() and installed.exists():
        assert pathlib.Path(preload[1]) == installed
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", line), line


# --- Kubernetes (issue 23, item 5) ----------------------------------------------------------------------

KUBERNETES_VERSION = "1.34.0"


def _manifests() -> list[dict]:
    import yaml

    documents = []
    for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
        documents += [document for document in yaml.safe_load_all(path.read_text(encoding="utf-8")) if document]
    return documents


def _of_kind(kind: str) -> list[dict]:
    return [document for document in _manifests() if document["kind"] == kind]


def test_every_manifest_passes_the_kubernetes_schema():
    import kubernetes_validate

    documents = _manifests()
    assert {d["kind"] for d in documents} >= {"StatefulSet", "Deployment", "Service", "ConfigMap", "Ingress"}
    for document in documents:
        # strict: a misspelt or unknown field is an error too (the schemas ship in the package: offline).
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def test_the_schema_check_can_fail():
    import kubernetes_validate
    from kubernetes_validate.utils import ValidationError

    (statefulset,) = _of_kind("StatefulSet")
    broken = {**statefulset, "spec": {**statefulset["spec"], "replica": 3}}
    with pytest.raises(ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def _pod_specs():
    for document in _of_kind("StatefulSet") + _of_kind("Deployment"):
        yield document["metadata"]["name"], document["spec"]["template"]["spec"]


def test_pods_run_as_a_numeric_non_root_user_with_probes_and_limits():
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    image_user = int(re.search(r"^USER (\d+)", dockerfile, re.MULTILINE)[1])
    for name, pod in _pod_specs():
        security = pod["securityContext"]
        # The kubelet refuses runAsNonRoot for an image whose USER is a name, unless runAsUser is numeric.
        assert security["runAsNonRoot"] is True and isinstance(security["runAsUser"], int) and security["runAsUser"] > 0
        for container in pod["containers"]:
            assert container["readinessProbe"] and container["livenessProbe"], name
            assert container["resources"]["limits"]["memory"] and container["resources"]["limits"]["cpu"], name
            assert container["securityContext"]["allowPrivilegeEscalation"] is False
            assert container["securityContext"]["readOnlyRootFilesystem"] is True
    (replicas,) = _of_kind("StatefulSet")
    assert replicas["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == image_user


def test_no_configuration_snippets_and_affinity_on_a_cookie_the_proxy_really_hashes():
    for document in _manifests():
        for key in document["metadata"].get("annotations", {}):
            assert "snippet" not in key, key  # ingress-nginx refuses snippets by default
    for service in _of_kind("Service"):
        assert service["spec"].get("sessionAffinity", "None") == "None"  # ClientIP would pin a NAT'd hall
    (proxy_config,) = _of_kind("ConfigMap")
    config = proxy_config["data"]["nginx.conf"]
    assert re.search(r"^\s*hash \$affinity;", config, re.MULTILINE)
    (replicas,) = _of_kind("StatefulSet")
    count = replicas["spec"]["replicas"]
    servers = re.findall(
        r"server gaussmech-(\d+)\.gaussmech-replicas\.gaussmech\.svc\.cluster\.local:8501 resolve", config
    )
    assert sorted(set(map(int, servers))) == list(range(count)), "the proxy lists every replica of the StatefulSet"
    assert re.search(r"^\s*upstream replica_%d \{" % (count - 1), config, re.MULTILINE)
    (ingress,) = _of_kind("Ingress")
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"]
    (proxy_service,) = [s for s in _of_kind("Service") if s["metadata"]["name"] == backend]
    assert proxy_service["spec"]["selector"] == {"app": "gaussmech-proxy"}


def test_the_proxy_manifest_is_generated_from_the_templates():
    generated = _run_local().kubernetes_proxy_manifest()
    assert (DEPLOY / "kubernetes" / "proxy.yaml").read_text(encoding="utf-8") == generated, (
        "run python deploy/run_local.py --write-kubernetes-proxy"
    )
    assert "@@" not in generated


def test_replica_settings_are_streamlit_options():
    from streamlit import config

    known = {option.env_var for option in config._config_options_template.values()}
    for key in _run_local().replica_settings():
        assert key in known, key


# --- nginx hardening (issue 23, items 1 and 6) -------------------------------------------------------------


def _nginx() -> str:
    return _run_local().nginx_config(8080, [8501, 8502], pathlib.Path("/tmp/x"))


def test_nginx_answers_only_its_own_host_names():
    text = _nginx()
    assert re.search(r"listen \S+ default_server;\s*server_name _;\s*server_tokens off;\s*return 444;", text)
    assert re.search(r"^\s*server_name 127\.0\.0\.1 localhost;", text, re.MULTILINE)
    assert "gaussmech.example.org" in _run_local().kubernetes_nginx_config()


def test_nginx_closes_the_metrics_and_limits_each_client():
    text = _nginx()
    assert re.search(r"location = /_stcore/metrics \{\s*return 404;", text)
    assert "limit_req_zone" in text and "limit_conn_zone" in text
    upload = re.search(r"location /_stcore/upload_file/ \{(.*?)\}", text, re.DOTALL)[1]
    assert "limit_req zone=uploads_per_browser" in upload and "limit_req zone=uploads_per_address" in upload
    assert re.search(r"^\s*limit_conn connections_per_browser \d+;", text, re.MULTILINE)


def test_nginx_streams_large_responses_instead_of_spooling_them():
    # Spooled to a temporary file a worker could not write, the 4.7 MB Plotly bundle was cut short and
    # Chromium showed no chart behind nginx (net::ERR_CONTENT_LENGTH_MISMATCH).
    assert re.search(r"^\s*proxy_max_temp_file_size 0;", _nginx(), re.MULTILINE)


def test_nginx_logs_no_session_or_file_ids():
    text = _nginx()
    log_format = re.search(r"log_format upstream (.*?);", text, re.DOTALL)[1]
    assert "$request " not in log_format and "$request_uri" not in log_format and "$args" not in log_format
    assert "$logged_path" in log_format and "$cookie_" not in log_format
    assert "affinity=$affinity_tag" in log_format


def test_nginx_sends_a_content_security_policy_beyond_framing():
    text = _nginx()
    policy = re.search(r'add_header Content-Security-Policy "([^"]+)" always;', text)[1]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'self'" and directives["base-uri"] == "'self'"
    assert "'self'" in directives["script-src"] and "http:" not in policy and "*" not in policy
    assert "'unsafe-inline'" not in directives["script-src"]
    # Every inline script of the installed Streamlit's page is allowed by its hash (else the browser blocks it).
    import base64
    import hashlib

    import streamlit

    index = (pathlib.Path(streamlit.__file__).parent / "static" / "index.html").read_text(encoding="utf-8")
    for body in re.findall(r"<script>(.*?)</script>", index, re.DOTALL):
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in directives["script-src"], "Streamlit's inline script changed: update the CSP"


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
def test_nginx_redacts_ids_and_closes_metrics_live(tmp_path):
    """nginx itself (no replicas behind it): what it logs, and what it answers for metrics and a foreign host."""
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = _run_local().write_nginx_prefix(port, [9], tmp_path)  # port 9: nothing listens, 502 upstream
    process = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(config)], stderr=subprocess.PIPE)
    try:
        import time

        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

        def status(path, host="127.0.0.1", method="GET"):
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers={"Host": host})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                return error.code
            except (urllib.error.URLError, ConnectionError, OSError):
                return "closed"

        assert status("/_stcore/metrics") == 404
        assert status("/", host="evil.example") == "closed"  # 444: no answer at all
        secret = "c0ffee00-1111-2222-3333-444455556666"
        status(f"/_stcore/upload_file/{secret}/{secret}", method="PUT")
        status(f"/?session={secret}")
    finally:
        process.terminate()
        process.wait(20)
    log = (tmp_path / "access.log").read_text(encoding="utf-8")
    assert "/_stcore/upload_file/" in log and secret not in log


_STAND_IN = """
import http.server, sys
name = sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = name.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
def test_after_a_failover_a_browser_stays_on_the_replica_that_holds_its_session(tmp_path):
    """Issue 23, item 7: with two stand-in replicas behind nginx, a browser whose replica dies moves to the
    other one, and stays there when the first comes back (its page, websocket and uploads together)."""
    import socket
    import sys
    import time
    import urllib.request

    def free_port():
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1]

    def wait_port(port):
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nothing listens on {port}")

    ports = [free_port(), free_port()]
    script = tmp_path / "stand_in.py"
    script.write_text(_STAND_IN, encoding="utf-8")

    def start_replica(index):
        return subprocess.Popen([sys.executable, str(script), str(ports[index]), f"replica_{index}"])

    replicas = [start_replica(0), start_replica(1)]
    listen = free_port()
    config = _run_local().write_nginx_prefix(listen, ports, tmp_path / "nginx")
    balancer = subprocess.Popen([NGINX, "-p", str(tmp_path / "nginx"), "-c", str(config)], stderr=subprocess.PIPE)
    try:
        for port in [*ports, listen]:
            wait_port(port)

        def get(route=None):
            headers = {"Cookie": f"gm_affinity=abc123; gm_route={route}"} if route else {"Cookie": "gm_affinity=abc123"}
            request = urllib.request.Request(f"http://127.0.0.1:{listen}/", headers=headers)
            with urllib.request.urlopen(request, timeout=10) as response:
                cookies = [value for key, value in response.headers.items() if key.lower() == "set-cookie"]
                routed = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("gm_route=")), None)
                return response.read().decode(), routed

        home, cookie = get()
        assert cookie == home, "the route cookie names the replica that answered"
        assert get("replica_1") == ("replica_1", "replica_1") and get("replica_0") == ("replica_0", "replica_0")
        replicas[1].terminate()
        replicas[1].wait(10)
        assert get("replica_1") == ("replica_0", "replica_0"), "moved to the replica that answers, and told so"
        replicas[1] = start_replica(1)
        wait_port(ports[1])
        assert get("replica_0") == ("replica_0", "replica_0"), "stays where its session now lives"
        assert get("evil; replica_9")[1] in ("replica_0", "replica_1")  # an unknown name is the home replica
    finally:
        balancer.terminate()
        balancer.wait(20)
        for replica in replicas:
            replica.terminate()
            replica.wait(10)
