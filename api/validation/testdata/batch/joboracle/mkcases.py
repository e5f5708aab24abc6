import json, copy
UID = "00000000-0000-4000-8000-000000000000"
def tmpl(labels=None, restart="Never", **spec):
    s = {"containers":[{"name":"c","image":"busybox"}]}
    if restart is not None: s["restartPolicy"] = restart
    s.update(spec)
    t = {"spec":s}
    if labels is not None: t["metadata"] = {"labels":labels}
    return t
def job(name="pi", spec=None, meta=None, template=None):
    sp = {"template": template if template is not None else tmpl()}
    if spec: sp.update(spec)
    m = {"name":name,"namespace":"default"}
    if meta: m.update(meta)
    return {"apiVersion":"batch/v1","kind":"Job","metadata":m,"spec":sp}
def stored(j):
    # The Job as the API server stores it after a create: a uid, the
    # generated selector and template labels (the Job strategy's).
    j = copy.deepcopy(j)
    j["metadata"]["uid"] = UID
    j["metadata"]["resourceVersion"] = "5"
    if not j["spec"].get("manualSelector"):
        n = j["metadata"]["name"]
        t = j["spec"]["template"].setdefault("metadata", {})
        lb = t.setdefault("labels", {})
        for k, v in (("controller-uid", UID), ("batch.kubernetes.io/controller-uid", UID),
                     ("job-name", n), ("batch.kubernetes.io/job-name", n)):
            lb.setdefault(k, v)
        j["spec"].setdefault("selector", {"matchLabels": {"batch.kubernetes.io/controller-uid": UID}})
    return j
C = []
def add(n, o, old=None):
    c = {"name": n, "object": o}
    if old is not None:
        c["object"] = stored(o)
        c["old"] = stored(old)
    C.append(c)
def pfp(*rules): return {"podFailurePolicy": {"rules": list(rules)}}
def ix(completions=None, **kw):
    d = {"completionMode": "Indexed"}
    if completions is not None: d["completions"] = completions
    d.update(kw)
    return d
add("job valid", job())
add("job valid OnFailure parallel", job(spec={"parallelism":3,"completions":6}, template=tmpl(restart="OnFailure")))
add("job restartPolicy defaulted Always", job(template=tmpl(restart=None)))
add("job restartPolicy unknown", job(template=tmpl(restart="Sometimes")))
add("job negative counts", job(spec={"parallelism":-1,"completions":-2,"activeDeadlineSeconds":-3,"backoffLimit":-4,"ttlSecondsAfterFinished":-5}))
add("job maxFailedIndexes without backoffLimitPerIndex", job(spec={"maxFailedIndexes":1}))
add("job backoffLimitPerIndex NonIndexed", job(spec={"backoffLimitPerIndex":1,"completionMode":"NonIndexed"}))
add("job negative backoffLimitPerIndex maxFailedIndexes indexed", job(spec=ix(3, backoffLimitPerIndex=-1, maxFailedIndexes=-1)))
add("job indexed without completions", job(spec=ix()))
add("job indexed parallelism too high", job(spec=ix(5, parallelism=100001)))
add("job indexed maxFailedIndexes above completions", job(spec=ix(3, backoffLimitPerIndex=1, maxFailedIndexes=4)))
add("job indexed high completions limits", job(spec=ix(100001, parallelism=10001, backoffLimitPerIndex=1)))
add("job indexed high completions maxFailedIndexes", job(spec=ix(200000, backoffLimitPerIndex=1, maxFailedIndexes=100001)))
add("job completionMode unknown", job(spec={"completionMode":"Sparse","completions":2}))
add("job indexed name too long for hostname", job(name="a"*60, spec=ix(1000)))
add("job indexed hostname ok", job(name="a"*59, spec=ix(10)))
add("job managedBy not domain prefixed", job(spec={"managedBy":"kueue"}))
add("job managedBy too long", job(spec={"managedBy":"example.com/"+"x"*60}))
add("job managedBy valid", job(spec={"managedBy":"kueue.x-k8s.io/multikueue"}))
add("job podFailurePolicy valid", job(spec=pfp({"action":"FailJob","onExitCodes":{"containerName":"c","operator":"In","values":[1,2]}},{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]})))
add("job podFailurePolicy with OnFailure", job(spec=pfp({"action":"Count","onExitCodes":{"operator":"NotIn","values":[0]}}), template=tmpl(restart="OnFailure")))
add("job podFailurePolicy empty rule", job(spec=pfp({})))
add("job podFailurePolicy FailIndex without backoffLimitPerIndex", job(spec=pfp({"action":"FailIndex","onExitCodes":{"operator":"In","values":[3]}})))
add("job podFailurePolicy FailIndex indexed ok", job(spec=dict(ix(4, backoffLimitPerIndex=2), **pfp({"action":"FailIndex","onExitCodes":{"operator":"In","values":[3]}}))))
add("job podFailurePolicy unknown action", job(spec=pfp({"action":"Explode","onExitCodes":{"operator":"In","values":[3]}})))
add("job podFailurePolicy exit codes empty", job(spec=pfp({"action":"FailJob","onExitCodes":{"containerName":"sidecar","values":[]}})))
add("job podFailurePolicy exit codes In zero duplicate unordered", job(spec=pfp({"action":"FailJob","onExitCodes":{"operator":"In","values":[5,0,5,2]}})))
add("job podFailurePolicy exit codes bad operator", job(spec=pfp({"action":"Ignore","onExitCodes":{"operator":"Between","values":[1]}})))
add("job podFailurePolicy init container name", job(spec=pfp({"action":"FailJob","onExitCodes":{"containerName":"init","operator":"In","values":[1]}}), template=tmpl(initContainers=[{"name":"init","image":"busybox"}])))
add("job podFailurePolicy both requirements", job(spec=pfp({"action":"Ignore","onExitCodes":{"operator":"In","values":[1]},"onPodConditions":[{"type":"DisruptionTarget","status":"True"}]})))
add("job podFailurePolicy pod conditions bad", job(spec=pfp({"action":"Ignore","onPodConditions":[{"type":"Bad Type!","status":""},{"type":"example.com/Ready","status":"Maybe"}]})))
add("job podFailurePolicy too many rules", job(spec=pfp(*[{"action":"Ignore","onExitCodes":{"operator":"In","values":[i+1]}} for i in range(21)])))
add("job podFailurePolicy too many exit codes", job(spec=pfp({"action":"FailJob","onExitCodes":{"operator":"NotIn","values":list(range(256))}})))
add("job successPolicy NonIndexed", job(spec={"completions":3,"successPolicy":{"rules":[{"succeededCount":1}]}}))
add("job successPolicy no rules", job(spec=ix(3, successPolicy={"rules":[]})))
add("job successPolicy empty rule", job(spec=ix(3, successPolicy={"rules":[{}]})))
add("job successPolicy bad indexes", job(spec=ix(5, successPolicy={"rules":[{"succeededIndexes":"1-x"},{"succeededIndexes":"3-1"},{"succeededIndexes":"0,7"},{"succeededIndexes":"2,1"}]})))
add("job successPolicy counts", job(spec=ix(5, successPolicy={"rules":[{"succeededCount":6},{"succeededIndexes":"0-1,3","succeededCount":4},{"succeededCount":-1}]})))
add("job successPolicy valid", job(spec=ix(5, successPolicy={"rules":[{"succeededIndexes":"0,2-4","succeededCount":2}]})))
add("job podReplacementPolicy unknown", job(spec={"podReplacementPolicy":"Never"}))
add("job podReplacementPolicy with podFailurePolicy", job(spec=dict(podReplacementPolicy="TerminatingOrFailed", **pfp({"action":"Ignore","onExitCodes":{"operator":"In","values":[1]}}))))
add("job manualSelector without selector", job(spec={"manualSelector":True}))
add("job manualSelector selector mismatch", job(spec={"manualSelector":True,"selector":{"matchLabels":{"app":"pi"}}}, template=tmpl({"app":"other"})))
add("job manualSelector valid", job(spec={"manualSelector":True,"selector":{"matchLabels":{"app":"pi"}}}, template=tmpl({"app":"pi"})))
add("job selector without manualSelector", job(spec={"selector":{"matchLabels":{"app":"pi"}}}, template=tmpl({"app":"pi"})))
add("job template job-name label conflicts", job(template=tmpl({"batch.kubernetes.io/job-name":"other","controller-uid":"x"})))
add("job bad name and suspend", job(name="Pi_1", spec={"suspend":True}))
add("job bad selector operator", job(spec={"manualSelector":True,"selector":{"matchExpressions":[{"key":"app","operator":"Is","values":["pi"]}]}}, template=tmpl({"app":"pi"})))
add("job template activeDeadlineSeconds and no image", job(template=tmpl(activeDeadlineSeconds=-1, containers=[{"name":"c"}])))
# updates
add("job update parallelism", job(spec={"parallelism":2}), job())
add("job update completions NonIndexed", job(spec={"completions":4}), job(spec={"completions":3}))
add("job update indexed completions without parallelism", job(spec=ix(4, parallelism=3)), job(spec=ix(3, parallelism=3)))
add("job update indexed completions in tandem", job(spec=ix(4, parallelism=4)), job(spec=ix(3, parallelism=3)))
add("job update template not suspended", job(template=tmpl(containers=[{"name":"c","image":"busybox:2"}])), job())
add("job update template suspended resources", job(spec={"suspend":True}, template=tmpl(containers=[{"name":"c","image":"busybox","resources":{"requests":{"cpu":"2"}}}])), job(spec={"suspend":True}))
add("job update suspended scheduling directives", job(spec={"suspend":True}, template=tmpl(nodeSelector={"disk":"ssd"})), job(spec={"suspend":True}))
add("job update suspended image", job(spec={"suspend":True}, template=tmpl(containers=[{"name":"c","image":"busybox:2"}])), job(spec={"suspend":True}))
add("job update immutable fields", job(spec=dict(ix(3, backoffLimitPerIndex=2, managedBy="example.com/a", successPolicy={"rules":[{"succeededCount":1}]}), **pfp({"action":"Ignore","onExitCodes":{"operator":"In","values":[1]}}))), job(spec=ix(3, backoffLimitPerIndex=1)))
add("job update completionMode", job(spec=ix(3)), job(spec={"completions":3}))
add("job update selector", job(spec={"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":UID,"x":"y"}}}, template=tmpl({"x":"y"})), job())
add("job update unsuspend", job(spec={"suspend":False}), job(spec={"suspend":True}))
add("job update negative backoffLimit", job(spec={"backoffLimit":-1}), job())
add("job managedBy bad host and path", job(spec={"managedBy":"Kueue_IO/a b"}))
add("job podFailurePolicy FailIndex NonIndexed with backoffLimitPerIndex", job(spec=dict(backoffLimitPerIndex=1, **pfp({"action":"FailIndex","onPodConditions":[{"type":"DisruptionTarget"}]}))))
def withstatus(j, st):
    j = copy.deepcopy(j); j["status"] = st; return j
started = {"startTime": "2026-01-01T00:00:00Z"}
add("job update suspended after start nodeSelector", job(spec={"suspend":True}, template=tmpl(nodeSelector={"disk":"ssd"})), withstatus(job(spec={"suspend":True}), started))
add("job update suspended condition nodeSelector", job(spec={"suspend":True}, template=tmpl(nodeSelector={"disk":"ssd"})), withstatus(job(spec={"suspend":True}), dict(started, conditions=[{"type":"Suspended","status":"True"}])))
add("job update suspended with active pods resources", job(spec={"suspend":True}, template=tmpl(containers=[{"name":"c","image":"busybox","resources":{"limits":{"memory":"1Gi"}}}])), withstatus(job(spec={"suspend":True}), {"active":1}))
badsel = {"manualSelector":True,"selector":{"matchExpressions":[{"key":"app","operator":"NotIn","values":["-bad-"]}]}}
add("job selector invalid value", job(spec=badsel, template=tmpl({"app":"pi"})))
add("job update stored selector with invalid value", job(spec=dict(badsel, parallelism=2), template=tmpl({"app":"pi"})), job(spec=badsel, template=tmpl({"app":"pi"})))
add("job update selector gains invalid value", job(spec=badsel, template=tmpl({"app":"pi"})), job(spec={"manualSelector":True,"selector":{"matchExpressions":[{"key":"app","operator":"NotIn","values":["bad"]}]}}, template=tmpl({"app":"pi"})))
json.dump(C, open("cases.json", "w"), indent=1)
print(len(C))
