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
    assert re.search(r"^FROM python:3\.11(\.\d+)?-slim-bookworm", text, re.MULTILINE)
    assert "requirements.txt" in text and "--no-cache-dir" in text
    assert re.search(r"^USER gaussmech", text, re.MULTILINE)
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


def test_kubernetes_has_probes_and_cookie_affinity():
    deployment = (DEPLOY / "kubernetes" / "deployment.yaml").read_text(encoding="utf-8")
    assert "readinessProbe" in deployment and "livenessProbe" in deployment and "/_stcore/health" in deployment
    assert "runAsNonRoot: true" in deployment
    ingress = (DEPLOY / "kubernetes" / "ingress.yaml").read_text(encoding="utf-8")
    assert 'nginx.ingress.kubernetes.io/affinity: "cookie"' in ingress
    assert "proxy-body-size" in ingress
    service = (DEPLOY / "kubernetes" / "service.yaml").read_text(encoding="utf-8")
    assert "kind: Service" in service


def test_replica_settings_are_streamlit_options():
    from streamlit import config

    known = {option.env_var for option in config._config_options_template.values()}
    for key in _run_local().replica_settings():
        assert key in known, key
