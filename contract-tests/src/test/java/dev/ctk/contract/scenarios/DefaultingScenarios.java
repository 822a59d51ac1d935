package dev.ctk.contract.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.Observation;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;

/**
 * Defaulting of the built-in kinds controllers create most: the fields a controller reads back after create.
 */
final class DefaultingScenarios {

  private static final String GROUP = "defaulting";

  private DefaultingScenarios() {
  }

  /** The toleration kube's DefaultTolerationSeconds adds for node.kubernetes.io/{@code taint}, as canonical JSON. */
  private static String toleration(String taint) {
    return "{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/" + taint
        + "\",\"operator\":\"Exists\",\"tolerationSeconds\":300}";
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a Deployment gets replicas, strategy, history and deadline defaults").body((t, o) -> {
          Response r = t.create(t.apis("apps/v1", "deployments"), Manifests.deployment("web"));
          JsonNode spec = r.body().path("spec");
          o.check("replicas", spec.path("replicas"), "1");
          o.check("strategy", spec.path("strategy"),
              "{\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":\"25%\"},\"type\":\"RollingUpdate\"}");
          o.check("revisionHistoryLimit", spec.path("revisionHistoryLimit"), "10");
          o.check("progressDeadlineSeconds", spec.path("progressDeadlineSeconds"), "600");
          o.check("generation", r.at("/metadata/generation"), "1");
          podSpecDefaults(o, spec.at("/template/spec"));
        }),

        Scenario.named(GROUP, "a Pod gets restartPolicy, dnsPolicy, grace period and imagePullPolicy defaults")
            .body((t, o) -> {
              Response r = t.create(t.core("pods"), """
                  {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
                    {"name":"tagged","image":"nginx:1.25"},{"name":"untagged","image":"nginx"},
                    {"name":"latest","image":"nginx:latest"}]}}""");
              JsonNode spec = r.body().path("spec");
              podSpecDefaults(o, spec);
              o.check("imagePullPolicy untagged", spec.at("/containers/1/imagePullPolicy"), "Always");
              o.check("imagePullPolicy latest", spec.at("/containers/2/imagePullPolicy"), "Always");
              o.check("enableServiceLinks", spec.path("enableServiceLinks"), "true");
              o.check("status", r.body().path("status"), "{\"phase\":\"Pending\",\"qosClass\":\"BestEffort\"}");
            }),

        Scenario.named(GROUP, "a Pod gets tolerations and priority from kube's default admission plugins")
            .body((t, o) -> {
              Response r = t.create(t.core("pods"), Manifests.pod("p"));
              JsonNode spec = r.body().path("spec");
              o.check("tolerations", spec.path("tolerations"), "[" + toleration("not-ready") + ","
                  + toleration("unreachable") + "]");
              o.check("priority", spec.path("priority"), "0");
              o.check("preemptionPolicy", spec.path("preemptionPolicy"), "PreemptLowerPriority");
            }),

        Scenario.named(GROUP, "a Pod that tolerates not-ready for NoExecute gets only the unreachable toleration")
            .body((t, o) -> {
              Response r = t.create(t.core("pods"), """
                  {"metadata":{"name":"tolerant"},"spec":{"containers":[{"name":"c","image":"nginx:1.25"}],
                  "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute"}],
                  "priorityClassName":"system-cluster-critical"}}""");
              JsonNode spec = r.body().path("spec");
              o.check("tolerations", spec.path("tolerations"),
                  "[{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\"},"
                      + toleration("unreachable") + "]");
              o.check("priority", spec.path("priority"), "2000000000");
              o.check("preemptionPolicy", spec.path("preemptionPolicy"), "PreemptLowerPriority");
            }),

        Scenario.named(GROUP, "a Service gets type ClusterIP, an allocated cluster IP and port defaults")
            .body((t, o) -> {
              Response r = t.create(t.core("services"), """
                  {"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},
                   "ports":[{"name":"http","port":80},
                            {"name":"dns","port":53,"protocol":"UDP","targetPort":5353}]}}""");
              JsonNode spec = r.body().path("spec");
              o.check("type", spec.path("type"), "ClusterIP");
              o.check("clusterIP", Observation.ip(spec.path("clusterIP").asText()), "<IPv4>");
              o.check("clusterIPs", spec.path("clusterIPs").size() == 1
                  && spec.at("/clusterIPs/0").equals(spec.path("clusterIP")), true);
              o.check("sessionAffinity", spec.path("sessionAffinity"), "None");
              o.check("ports", spec.path("ports"), "[{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\","
                  + "\"targetPort\":80},{\"name\":\"dns\",\"port\":53,\"protocol\":\"UDP\",\"targetPort\":5353}]");
              o.check("ipFamilies", spec.path("ipFamilies"), "[\"IPv4\"]");
              o.check("ipFamilyPolicy", spec.path("ipFamilyPolicy"), "SingleStack");
              o.check("internalTrafficPolicy", spec.path("internalTrafficPolicy"), "Cluster");
            }),

        Scenario.named(GROUP, "a Job gets completions, parallelism, backoffLimit and a generated selector")
            .body((t, o) -> {
              Response r = t.create(t.apis("batch/v1", "jobs"), """
                  {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"once"},"spec":{"template":{"spec":{
                    "restartPolicy":"Never","containers":[{"name":"main","image":"busybox:1.36"}]}}}}""");
              JsonNode spec = r.body().path("spec");
              String uid = r.at("/metadata/uid");
              o.check("completions", spec.path("completions"), "1");
              o.check("parallelism", spec.path("parallelism"), "1");
              o.check("backoffLimit", spec.path("backoffLimit"), "6");
              o.check("completionMode", spec.path("completionMode"), "NonIndexed");
              o.check("suspend", spec.path("suspend"), "false");
              o.check("podReplacementPolicy", spec.path("podReplacementPolicy"), "TerminatingOrFailed");
              o.check("selector uses the Job's uid", spec.path("selector").toString().contains(uid), true);
              o.check("selector", spec.path("selector"),
                  "{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"<uid>\"}}");
              o.check("template labels", spec.at("/template/metadata/labels"),
                  "{\"batch.kubernetes.io/controller-uid\":\"<uid>\",\"batch.kubernetes.io/job-name\":\"once\","
                      + "\"controller-uid\":\"<uid>\",\"job-name\":\"once\"}");
              o.check("restartPolicy kept", spec.at("/template/spec/restartPolicy"), "Never");
            }),

        Scenario.named(GROUP, "a StatefulSet gets replicas, pod management and update strategy defaults")
            .body((t, o) -> {
              Response r = t.create(t.apis("apps/v1", "statefulsets"), """
                  {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"serviceName":"db",
                   "selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},
                   "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}}}""");
              JsonNode spec = r.body().path("spec");
              o.check("replicas", spec.path("replicas"), "1");
              o.check("podManagementPolicy", spec.path("podManagementPolicy"), "OrderedReady");
              o.check("updateStrategy", spec.path("updateStrategy"),
                  "{\"rollingUpdate\":{\"partition\":0},\"type\":\"RollingUpdate\"}");
              o.check("revisionHistoryLimit", spec.path("revisionHistoryLimit"), "10");
              o.check("persistentVolumeClaimRetentionPolicy", spec.path("persistentVolumeClaimRetentionPolicy"),
                  "{\"whenDeleted\":\"Retain\",\"whenScaled\":\"Retain\"}");
              podSpecDefaults(o, spec.at("/template/spec"));
            }),

        Scenario.named(GROUP, "a Secret gets type Opaque and stringData merged into data").body((t, o) -> {
          Response r = t.create(t.core("secrets"), """
              {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
               "stringData":{"a":"hello","b":"wins"},"data":{"b":"bG9zZXM=","c":"d29ybGQ="}}""");
          o.check("type", r.at("/type"), "Opaque");
          o.check("data", r.body().path("data"), "{\"a\":\"aGVsbG8=\",\"b\":\"d2lucw==\",\"c\":\"d29ybGQ=\"}");
          o.check("stringData", r.body().path("stringData"), Observation.ABSENT);
        }));
  }

  /** What kube defaults in every pod spec, with its first container tagged (imagePullPolicy IfNotPresent). */
  private static void podSpecDefaults(Observation o, JsonNode podSpec) {
    o.check("restartPolicy", podSpec.path("restartPolicy"), "Always");
    o.check("dnsPolicy", podSpec.path("dnsPolicy"), "ClusterFirst");
    o.check("terminationGracePeriodSeconds", podSpec.path("terminationGracePeriodSeconds"), "30");
    o.check("schedulerName", podSpec.path("schedulerName"), "default-scheduler");
    o.check("securityContext", podSpec.path("securityContext"), "{}");
    JsonNode container = podSpec.at("/containers/0");
    o.check("imagePullPolicy", container.path("imagePullPolicy"), "IfNotPresent");
    o.check("terminationMessagePath", container.path("terminationMessagePath"), "/dev/termination-log");
    o.check("terminationMessagePolicy", container.path("terminationMessagePolicy"), "File");
    o.check("resources", container.path("resources"), "{}");
  }
}
