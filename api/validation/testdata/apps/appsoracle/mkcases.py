import json, copy
def tmpl(labels={"app":"web"}, **spec):
    s = {"containers":[{"name":"c","image":"nginx"}]}
    s.update(spec)
    return {"metadata":{"labels":labels},"spec":s}
def dep(name="web", ns="default", spec=None, meta=None):
    sp = {"selector":{"matchLabels":{"app":"web"}},"template":tmpl()}
    if spec: sp.update(spec)
    m = {"name":name,"namespace":ns}
    if meta: m.update(meta)
    return {"apiVersion":"apps/v1","kind":"Deployment","metadata":m,"spec":sp}
def rs(name="web-abc", ns="default", spec=None, meta=None):
    d = dep(name, ns, spec, meta); d["kind"]="ReplicaSet"
    return d
def ru(mu=None, ms=None):
    r = {}
    if mu is not None: r["maxUnavailable"]=mu
    if ms is not None: r["maxSurge"]=ms
    return {"type":"RollingUpdate","rollingUpdate":r}
C=[]
def add(n,o,old=None):
    c={"name":n,"object":o}
    if old is not None:
        old=copy.deepcopy(old); 
        old["metadata"]["resourceVersion"]="5"
        o["metadata"]["resourceVersion"]="5"
        c["old"]=old
    C.append(c)
add("deployment valid", dep())
add("deployment no selector", dep(spec={"selector":None}))
add("deployment empty selector", dep(spec={"selector":{}}))
add("deployment selector mismatch", dep(spec={"selector":{"matchLabels":{"app":"db"}}}))
add("deployment bad selector operator", dep(spec={"selector":{"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}}))
add("deployment selector In without values", dep(spec={"selector":{"matchExpressions":[{"key":"app","operator":"In"}]}}))
add("deployment selector bad label value", dep(spec={"selector":{"matchLabels":{"app":"-web-"}}}))
add("deployment negative replicas", dep(spec={"replicas":-1}))
add("deployment zero replicas", dep(spec={"replicas":0}))
add("deployment maxSurge and maxUnavailable both 0", dep(spec={"strategy":ru(0,0)}))
add("deployment maxSurge 0 maxUnavailable 0%", dep(spec={"strategy":ru("0%",0)}))
add("deployment maxUnavailable 0 surge 1", dep(spec={"strategy":ru(0,1)}))
add("deployment maxUnavailable 110%", dep(spec={"strategy":ru("110%",1)}))
add("deployment maxSurge 200%", dep(spec={"strategy":ru(1,"200%")}))
add("deployment maxUnavailable bad percent", dep(spec={"strategy":ru("abc",1)}))
add("deployment maxUnavailable string number", dep(spec={"strategy":ru("5",0)}))
add("deployment bad percent and surge 0", dep(spec={"strategy":ru("x%","0%")}))
add("deployment negative maxSurge", dep(spec={"strategy":ru(1,-2)}))
add("deployment negative maxUnavailable and surge 0", dep(spec={"strategy":ru(-1,0)}))
add("deployment recreate with rollingUpdate", dep(spec={"strategy":{"type":"Recreate","rollingUpdate":{"maxSurge":1}}}))
add("deployment recreate", dep(spec={"strategy":{"type":"Recreate"}}))
add("deployment unknown strategy", dep(spec={"strategy":{"type":"BlueGreen"}}))
add("deployment unknown strategy with rollingUpdate", dep(spec={"strategy":{"type":"Canary","rollingUpdate":{"maxSurge":"10%"}}}))
add("deployment negative minReadySeconds", dep(spec={"minReadySeconds":-5}))
add("deployment negative revisionHistoryLimit", dep(spec={"revisionHistoryLimit":-1}))
add("deployment zero revisionHistoryLimit", dep(spec={"revisionHistoryLimit":0}))
add("deployment progressDeadline equals minReady", dep(spec={"minReadySeconds":30,"progressDeadlineSeconds":30}))
add("deployment negative progressDeadline", dep(spec={"progressDeadlineSeconds":-1}))
add("deployment paused valid", dep(spec={"paused":True}))
add("deployment bad name", dep(name="Web_1"))
add("deployment no name", dep(name=""))
add("deployment generateName only", dep(name="", meta={"generateName":"web-"}))
add("deployment bad namespace", dep(ns="Bad.NS"))
add("deployment restartPolicy Never", dep(spec={"template":tmpl(restartPolicy="Never")}))
add("deployment activeDeadlineSeconds", dep(spec={"template":tmpl(activeDeadlineSeconds=30)}))
add("deployment many errors", dep(name="x_y", spec={"replicas":-3,"selector":{"matchLabels":{"app":"db"}},"minReadySeconds":-1,"strategy":ru(0,0),"revisionHistoryLimit":-2,"progressDeadlineSeconds":-4}))
add("deployment bad label on metadata", dep(meta={"labels":{"a/b/c":"x"}}))
add("deployment container missing image", dep(spec={"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c"}]}}}))
add("deployment update selector changed", dep(spec={"selector":{"matchLabels":{"app":"web","tier":"fe"}},"template":tmpl({"app":"web","tier":"fe"})}), dep())
add("deployment update valid scale", dep(spec={"replicas":5}), dep())
add("deployment update to maxSurge 0 maxUnavailable 0", dep(spec={"strategy":ru(0,0)}), dep())
add("deployment update selector removed", dep(spec={"selector":None}), dep())
add("deployment update name changed", dep(name="web2"), dep())
add("replicaset valid", rs())
add("replicaset no selector", rs(spec={"selector":None}))
add("replicaset empty selector", rs(spec={"selector":{}}))
add("replicaset selector mismatch", rs(spec={"selector":{"matchExpressions":[{"key":"app","operator":"NotIn","values":["web"]}]}}))
add("replicaset negative replicas and minReady", rs(spec={"replicas":-2,"minReadySeconds":-1}))
add("replicaset bad name", rs(name="RS"))
add("replicaset selector Exists with values", rs(spec={"selector":{"matchExpressions":[{"key":"app","operator":"Exists","values":["x"]}]}}))
add("replicaset restartPolicy OnFailure", rs(spec={"template":tmpl(restartPolicy="OnFailure")}))
add("replicaset update selector changed", rs(spec={"selector":{"matchLabels":{"app":"web","v":"2"}},"template":tmpl({"app":"web","v":"2"})}), rs())
add("replicaset update replicas negative", rs(spec={"replicas":-1}), rs())
add("replicaset update valid", rs(spec={"replicas":3}), rs())
def ds(name="agent", ns="default", spec=None, meta=None):
    d = dep(name, ns, spec, meta); d["kind"]="DaemonSet"
    return d
def dsru(mu=None, ms=None):
    r = {}
    if mu is not None: r["maxUnavailable"]=mu
    if ms is not None: r["maxSurge"]=ms
    return {"type":"RollingUpdate","rollingUpdate":r}
add("daemonset valid", ds())
add("daemonset no selector", ds(spec={"selector":None}))
add("daemonset empty selector", ds(spec={"selector":{}}))
add("daemonset selector mismatch", ds(spec={"selector":{"matchLabels":{"app":"db"}}}))
add("daemonset bad selector operator", ds(spec={"selector":{"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}}))
add("daemonset surge and unavailable both set", ds(spec={"updateStrategy":dsru(1,1)}))
add("daemonset surge and unavailable both 0", ds(spec={"updateStrategy":dsru(0,"0%")}))
add("daemonset surge only", ds(spec={"updateStrategy":dsru(0,"10%")}))
add("daemonset maxSurge 150%", ds(spec={"updateStrategy":dsru(0,"150%")}))
add("daemonset bad percent", ds(spec={"updateStrategy":dsru("abc",0)}))
add("daemonset negative maxUnavailable", ds(spec={"updateStrategy":dsru(-1,0)}))
add("daemonset OnDelete", ds(spec={"updateStrategy":{"type":"OnDelete"}}))
add("daemonset OnDelete with rollingUpdate", ds(spec={"updateStrategy":{"type":"OnDelete","rollingUpdate":{"maxSurge":1}}}))
add("daemonset unknown strategy", ds(spec={"updateStrategy":{"type":"Canary"}}))
add("daemonset negative minReady and history", ds(spec={"minReadySeconds":-1,"revisionHistoryLimit":-1}))
add("daemonset bad name", ds(name="Agent"))
add("daemonset restartPolicy Never", ds(spec={"template":tmpl(restartPolicy="Never")}))
add("daemonset update selector changed and bad strategy", ds(spec={"selector":{"matchLabels":{"app":"web","x":"y"}},"template":tmpl({"app":"web","x":"y"}),"updateStrategy":dsru(1,1)}), ds())
add("daemonset update template changed", ds(spec={"template":tmpl(restartPolicy="Always",terminationGracePeriodSeconds=5)}), ds())
def sts(name="db", ns="default", spec=None, meta=None):
    sp = {"serviceName":"db","selector":{"matchLabels":{"app":"db"}},"template":tmpl({"app":"db"})}
    if spec: sp.update(spec)
    m = {"name":name,"namespace":ns}
    if meta: m.update(meta)
    return {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":m,"spec":sp}
vct = {"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}
add("statefulset valid", sts())
add("statefulset valid with claim template", sts(spec={"volumeClaimTemplates":[vct]}))
add("statefulset subdomain name", sts(name="db.prod"))
add("statefulset generateName with dash", sts(name="", meta={"generateName":"db-"}))
add("statefulset no selector", sts(spec={"selector":None}))
add("statefulset empty selector", sts(spec={"selector":{}}))
add("statefulset bad selector", sts(spec={"selector":{"matchExpressions":[{"key":"app","operator":"In"}]}}))
add("statefulset bad podManagementPolicy", sts(spec={"podManagementPolicy":"Random"}))
add("statefulset bad serviceName", sts(spec={"serviceName":"DB_1"}))
add("statefulset negative replicas minReady ordinals", sts(spec={"replicas":-1,"minReadySeconds":-2,"ordinals":{"start":-3}}))
add("statefulset OnDelete with rollingUpdate", sts(spec={"updateStrategy":{"type":"OnDelete","rollingUpdate":{"partition":2}}}))
add("statefulset unknown strategy", sts(spec={"updateStrategy":{"type":"Blue"}}))
add("statefulset negative partition", sts(spec={"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":-1}}}))
add("statefulset maxUnavailable 0", sts(spec={"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":0}}}))
add("statefulset maxUnavailable 120%", sts(spec={"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"120%"}}}))
add("statefulset bad retention policy", sts(spec={"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Keep","whenScaled":"Delete"}}))
add("statefulset claim template without storage", sts(spec={"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"]}}]}))
add("statefulset claim template bad access mode", sts(spec={"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteSome"],"resources":{"requests":{"storage":"1Gi"}}}}]}))
add("statefulset template with hostname and mismatch", sts(spec={"template":tmpl({"app":"web"},hostname="db-0")}))
add("statefulset restartPolicy OnFailure", sts(spec={"template":tmpl({"app":"db"},restartPolicy="OnFailure")}))
add("statefulset update replicas", sts(spec={"replicas":3}), sts())
add("statefulset update serviceName forbidden", sts(spec={"serviceName":"db2"}), sts())
add("statefulset update selector forbidden", sts(spec={"selector":{"matchLabels":{"app":"db","v":"1"}},"template":tmpl({"app":"db","v":"1"})}), sts())
add("statefulset update podManagementPolicy forbidden", sts(spec={"podManagementPolicy":"Parallel"}), sts())
add("statefulset update partition negative", sts(spec={"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":-1}}}), sts())
add("statefulset update template image empty", sts(spec={"template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"c"}]}}}), sts())
json.dump(C, open("cases.json","w"), indent=1)
print(len(C))
