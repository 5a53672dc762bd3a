#!/usr/bin/env bash
# The Kubernetes files (deploy/kubernetes): every resource against the Kubernetes schemas
# (kubernetes-validate from PyPI, strict: no unknown field), then what a schema cannot say:
# the probes on the admin listener's /healthz and /readyz, a non-root user and a read-only
# root filesystem, no Secret shipped (they are referred to), and every PIXGATE_* variable one
# that the configuration page documents.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import importlib.metadata as m; assert m.version("kubernetes-validate") == "1.37.0"' 2>/dev/null ||
  python3 -m pip install --quiet 'kubernetes-validate==1.37.0'
kubernetes-validate --strict --quiet deploy/kubernetes/*.yaml
python3 - deploy/kubernetes docs/src/operations/configuration.md <<'PY'
import pathlib, re, sys
import yaml

folder, config = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).read_text()
documented = set(re.findall(r"`(PIXGATE_[A-Z_]+)`", config))
docs = [d for f in sorted(folder.glob("*.yaml")) for d in yaml.safe_load_all(f.read_text()) if d]
kinds = sorted(d["kind"] for d in docs)
problems = []
if "Secret" in kinds:
    problems.append("a Secret is shipped: refer to one instead")
for want in ["Deployment", "HorizontalPodAutoscaler", "Job", "PodDisruptionBudget", "Service"]:
    if want not in kinds:
        problems.append(f"no {want}")
for d in docs:
    if d["kind"] == "Job":
        args = [c.get("args") for c in d["spec"]["template"]["spec"]["containers"]]
        if args != [["migrate"]]:
            problems.append(f"the Job runs {args}, not pixgate migrate")
    if d["kind"] not in ("Deployment", "Job"):
        continue
    pod = d["spec"]["template"]["spec"]
    if not pod.get("securityContext", {}).get("runAsNonRoot"):
        problems.append("the pod may run as root")
    for c in pod["containers"]:
        sc = c.get("securityContext", {})
        if not sc.get("readOnlyRootFilesystem"):
            problems.append(f"{c['name']}: the root filesystem is writable")
        paths = {p: c.get(p, {}).get("httpGet", {}).get("path") for p in ("livenessProbe", "readinessProbe")}
        if d["kind"] == "Deployment" and paths != {"livenessProbe": "/healthz", "readinessProbe": "/readyz"}:
            problems.append(f"{c['name']}: probes {paths}")
        migrate = {e["name"]: e.get("value") for e in c.get("env", [])}.get("PIXGATE_MIGRATE")
        if d["kind"] == "Deployment" and migrate != "off":
            problems.append(f"{c['name']}: instances migrate by themselves (PIXGATE_MIGRATE={migrate})")
        for env in c.get("env", []):
            if env["name"].startswith("PIXGATE_") and env["name"] not in documented:
                problems.append(f"{c['name']}: {env['name']} is no documented setting")
if problems:
    sys.exit("deploy/kubernetes: " + "; ".join(problems))
print(f"kubernetes: {len(docs)} resources valid ({', '.join(kinds)})")
PY
