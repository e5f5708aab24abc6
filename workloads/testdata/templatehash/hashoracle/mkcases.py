import json, glob, os
cases = []
def add(name, tmpl, cc=None):
    c = {"name": name, "template": tmpl}
    if cc is not None: c["collisionCount"] = cc
    cases.append(c)

def web(image="nginx:1.27", **extra):
    c = {"name": "nginx", "image": image}
    c.update(extra)
    return {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [c]}}

add("minimal", web())
add("minimal-collision-1", web(), 1)
add("minimal-collision-large", web(), 2147483647)
add("minimal-collision-0", web(), 0)
add("requests", web(resources={"requests": {"cpu": "500m", "memory": "128Mi"}}), 3)
add("limits-only", web(resources={"limits": {"cpu": "1", "memory": "1Gi", "ephemeral-storage": "2G"}}))
add("quantity-spellings", web(resources={"requests": {"cpu": "0.5", "memory": "1024Mi", "ephemeral-storage": "1000", "example.com/dongle": "3", "hugepages-2Mi": "0"},
    "limits": {"cpu": "1500m", "memory": "1.5Gi", "ephemeral-storage": "10e3", "example.com/dongle": "3", "hugepages-2Mi": "0"}}))
add("quantity-large", web(resources={"requests": {"memory": "123456789Mi", "cpu": "12345678901234567m"}, "limits": {"memory": "123456789Mi", "cpu": "12345678901234567m"}}))
add("quantity-tiny", web(resources={"requests": {"cpu": "1n", "memory": "1k"}}))
add("probes", web(
    livenessProbe={"httpGet": {"path": "/healthz", "port": "http", "httpHeaders": [{"name": "X-A", "value": "b"}]}, "failureThreshold": 5},
    readinessProbe={"tcpSocket": {"port": 8080}, "periodSeconds": 3, "terminationGracePeriodSeconds": 7},
    startupProbe={"exec": {"command": ["cat", "/tmp/ok"]}, "initialDelaySeconds": 2},
    ports=[{"name": "http", "containerPort": 80}, {"containerPort": 53, "protocol": "UDP", "hostPort": 5353}]))
add("grpc-probe", web(livenessProbe={"grpc": {"port": 9000}}, readinessProbe={"grpc": {"port": 9000, "service": "health"}}))
add("lifecycle", web(lifecycle={"preStop": {"exec": {"command": ["sleep", "5"]}}, "postStart": {"httpGet": {"port": 80, "path": "/start", "scheme": "HTTPS"}}},
    terminationMessagePolicy="FallbackToLogsOnError", imagePullPolicy="Always"))
add("sleep-prestop", web(lifecycle={"preStop": {"sleep": {"seconds": 3}}}))
add("env", web(env=[{"name": "A", "value": "1"},
    {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
    {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1m"}}},
    {"name": "MEM", "valueFrom": {"resourceFieldRef": {"containerName": "nginx", "resource": "requests.memory"}}},
    {"name": "CM", "valueFrom": {"configMapKeyRef": {"name": "cfg", "key": "k", "optional": True}}},
    {"name": "S", "valueFrom": {"secretKeyRef": {"name": "sec", "key": "pw"}}}],
    envFrom=[{"configMapRef": {"name": "cfg"}}, {"prefix": "S_", "secretRef": {"name": "sec", "optional": False}}],
    command=["/bin/sh", "-c"], args=["echo hi; sleep 3600"], workingDir="/work"))
add("volumes", {"metadata": {"labels": {"app": "vol"}}, "spec": {
    "containers": [{"name": "app", "image": "busybox", "volumeMounts": [
        {"name": "data", "mountPath": "/data"}, {"name": "cfg", "mountPath": "/etc/cfg", "readOnly": True, "subPath": "x"},
        {"name": "tmp", "mountPath": "/tmp"}, {"name": "pod-info", "mountPath": "/info"}, {"name": "token", "mountPath": "/var/run/t"}]}],
    "volumes": [
        {"name": "data", "persistentVolumeClaim": {"claimName": "data"}},
        {"name": "cfg", "configMap": {"name": "cfg", "items": [{"key": "a", "path": "a.txt", "mode": 256}]}},
        {"name": "sec", "secret": {"secretName": "sec"}},
        {"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "64Mi"}},
        {"name": "empty", "emptyDir": {}},
        {"name": "host", "hostPath": {"path": "/var/log", "type": "Directory"}},
        {"name": "pod-info", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
            {"path": "cpu", "resourceFieldRef": {"containerName": "app", "resource": "limits.cpu"}}]}},
        {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3600, "audience": "api"}},
            {"configMap": {"name": "ca", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}, {"downwardAPI": {"items": [{"path": "ns", "fieldRef": {"fieldPath": "metadata.namespace"}}]}}]}},
        {"name": "nfs", "nfs": {"server": "nfs.example", "path": "/export"}},
        {"name": "csi", "csi": {"driver": "csi.example.com", "volumeAttributes": {"b": "2", "a": "1"}}},
        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"metadata": {"labels": {"t": "x"}}, "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast", "resources": {"requests": {"storage": "1Gi"}}}}}},
    ]}})
add("affinity", {"metadata": {"labels": {"app": "aff", "tier": "db"}}, "spec": {
    "containers": [{"name": "db", "image": "postgres:16"}],
    "affinity": {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a", "b"]}]},
                {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]},
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "preference": {"matchExpressions": [{"key": "disk", "operator": "Exists"}]}}]},
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "aff"}}, "topologyKey": "kubernetes.io/hostname", "matchLabelKeys": ["pod-template-hash"]}],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "podAffinityTerm": {"labelSelector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["db"]}]}, "topologyKey": "topology.kubernetes.io/zone", "namespaces": ["other"], "namespaceSelector": {}}}]},
        "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "kubernetes.io/hostname"}}]}},
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "aff"}}, "minDomains": 2, "nodeAffinityPolicy": "Honor", "matchLabelKeys": ["pod-template-hash"]}],
    "nodeSelector": {"kubernetes.io/os": "linux", "disk": "ssd"}}})
add("tolerations", {"metadata": {"labels": {"app": "tol"}}, "spec": {
    "containers": [{"name": "c", "image": "busybox:1.36"}],
    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
        {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}, {"operator": "Exists"}],
    "priorityClassName": "high", "schedulerName": "my-scheduler", "preemptionPolicy": "Never"}})
add("security", {"metadata": {"labels": {"app": "sec"}}, "spec": {
    "securityContext": {"runAsUser": 1000, "runAsGroup": 3000, "fsGroup": 2000, "runAsNonRoot": True, "supplementalGroups": [4000, 5000],
        "seccompProfile": {"type": "RuntimeDefault"}, "sysctls": [{"name": "net.core.somaxconn", "value": "1024"}], "fsGroupChangePolicy": "OnRootMismatch"},
    "containers": [{"name": "c", "image": "busybox", "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}, "runAsUser": 1001, "seccompProfile": {"type": "Localhost", "localhostProfile": "p.json"}}}]}})
add("init-containers", {"metadata": {"labels": {"app": "init"}, "annotations": {"z": "last", "a": "first", "kubectl.kubernetes.io/default-container": "main"}}, "spec": {
    "initContainers": [{"name": "setup", "image": "busybox", "command": ["sh", "-c", "true"]},
        {"name": "sidecar", "image": "envoy:1", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}}],
    "containers": [{"name": "main", "image": "app:v2", "resources": {"limits": {"cpu": "2", "memory": "2Gi"}}}],
    "restartPolicy": "Always", "terminationGracePeriodSeconds": 60, "activeDeadlineSeconds": 100, "dnsPolicy": "Default",
    "serviceAccountName": "builder", "automountServiceAccountToken": False, "hostname": "h", "subdomain": "s", "enableServiceLinks": False,
    "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["a.local"]}], "dnsConfig": {"nameservers": ["1.1.1.1"], "options": [{"name": "ndots", "value": "2"}]},
    "readinessGates": [{"conditionType": "example.com/ready"}], "runtimeClassName": "gvisor", "imagePullSecrets": [{"name": "regcred"}],
    "shareProcessNamespace": True, "os": {"name": "linux"}, "hostUsers": False}})
add("host-network", {"metadata": {"labels": {"app": "hn"}}, "spec": {"hostNetwork": True, "hostPID": True,
    "containers": [{"name": "c", "image": "agent", "ports": [{"containerPort": 9100}]}]}})
add("labels-only", {"metadata": {"labels": {"b": "2", "a": "1", "app": "x", "A": "0", "a.b/c": "d"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}})
add("empty-lists", {"metadata": {"labels": {"app": "e"}, "annotations": {}}, "spec": {"containers": [{"name": "c", "image": "i", "command": [], "env": [], "ports": []}], "volumes": [], "tolerations": [], "nodeSelector": {}}})
add("resize-policy", web(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}],
    resources={"requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"cpu": "500m", "memory": "128Mi"}}))
add("pod-resources", {"metadata": {"labels": {"app": "pr"}}, "spec": {"resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2", "memory": "1Gi"}}, "containers": [{"name": "c", "image": "i"}]}})
add("scheduling-gates", {"metadata": {"labels": {"app": "g"}}, "spec": {"schedulingGates": [{"name": "example.com/gate"}], "containers": [{"name": "c", "image": "i", "stdin": True, "tty": True}]}})
add("image-latest", {"metadata": {"labels": {"app": "l"}, "name": "ignored-name", "namespace": "ns"}, "spec": {"containers": [{"name": "c", "image": "i:latest"}, {"name": "d", "image": "i@sha256:0000000000000000000000000000000000000000000000000000000000000000"}]}})

add("deprecated-service-account", {"metadata": {"labels": {"app": "sa"}}, "spec": {"serviceAccount": "legacy", "containers": [{"name": "c", "image": "i"}]}})
add("both-service-accounts", {"metadata": {"labels": {"app": "sa"}}, "spec": {"serviceAccount": "legacy", "serviceAccountName": "current", "containers": [{"name": "c", "image": "i"}]}})
add("creation-timestamp-null", {"metadata": {"labels": {"app": "t"}, "creationTimestamp": None}, "spec": {"containers": [{"name": "c", "image": "i"}]}})
add("int-or-string-ports", web(livenessProbe={"httpGet": {"port": "8080"}}, readinessProbe={"tcpSocket": {"port": "web"}}, ports=[{"name": "web", "containerPort": 8080}]))
add("ephemeral-no-class", {"metadata": {"labels": {"app": "eph"}}, "spec": {"containers": [{"name": "c", "image": "i"}],
    "volumes": [{"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "5Gi"}}, "volumeMode": "Block"}}}}]}})

add("empty-objects", {"metadata": {"labels": {"app": "eo"}}, "spec": {"securityContext": {}, "affinity": {}, "dnsConfig": {},
    "containers": [{"name": "c", "image": "i", "securityContext": {"capabilities": {}}, "lifecycle": {}, "resources": {"limits": {}, "requests": {}}}]}})
add("probe-variants", web(livenessProbe={"exec": {}, "timeoutSeconds": 0}, readinessProbe={"httpGet": {"port": 0, "host": "h", "scheme": "HTTPS"}}, startupProbe={"grpc": {"port": 1, "service": ""}}))
add("string-quantities", web(resources={"requests": {"cpu": "100m", "memory": "100M", "ephemeral-storage": "1Ki"}, "limits": {"cpu": "0.1", "memory": "1e8", "ephemeral-storage": "1024"}}))

# the scenario templates of cluster/testdata (Deployments and DaemonSets, objects and actions)
def walk(o, path):
    if isinstance(o, dict):
        if o.get("kind") in ("Deployment", "DaemonSet", "ReplicaSet") and "spec" in o and "template" in o["spec"]:
            yield path, o
        for k, v in o.items():
            yield from walk(v, path)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v, path)
seen = set()
root = "/work/wt/hash/cluster/testdata"
for f in sorted(glob.glob(root + "/*.json") + glob.glob(root + "/e2e/*.json")):
    for path, o in walk(json.load(open(f)), f):
        key = json.dumps(o["spec"]["template"], sort_keys=True)
        if key in seen: continue
        seen.add(key)
        add("scenario " + os.path.basename(f)[:-5] + " " + o["kind"] + "/" + o["metadata"]["name"], o["spec"]["template"])
json.dump(cases, open("/tmp/hashoracle/cases.json", "w"), indent=1)
print(len(cases))
