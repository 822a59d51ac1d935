package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's v1 defaulting of a pod spec ({@code SetDefaults_PodSpec}, {@code SetDefaults_Container}, ports, probes,
 * volumes, env), used for Pods and for the pod template of every workload kind, plus what only a Pod gets
 * ({@code SetDefaults_Pod}: {@code enableServiceLinks}, requests copied from limits). Every container, init and
 * ephemeral container also gets {@code resources: {}} when it has none: not a default in kube but its Go struct,
 * which kube always serializes.
 */
final class PodDefaults {

  /** kube's default file mode for configMap, secret, projected and downwardAPI volumes (0644). */
  private static final int DEFAULT_MODE = 420;

  private PodDefaults() {}

  /** Defaults a Pod: its spec as a template's, plus the Pod-only defaults. */
  static void pod(ObjectNode pod) {
    ObjectNode spec = Json.object(pod, "spec");
    spec(spec);
    if (!spec.has("enableServiceLinks")) {
      spec.put("enableServiceLinks", true);
    }
    for (JsonNode container : Json.elements(spec, "containers", "initContainers")) {
      requestsFromLimits((ObjectNode) container);
    }
  }

  /**
   * Defaults a pod template ({@code spec.template} of a workload): its spec as a Pod's, without Pod-only fields. A
   * missing template is defaulted too (kube's template is a struct, never nil).
   */
  static void template(ObjectNode owner) {
    spec(Json.object(Json.object(owner, "template"), "spec"));
  }

  /** kube's {@code SetDefaults_PodSpec} and what it walks into. */
  static void spec(ObjectNode spec) {
    Json.putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    Json.putIfAbsent(spec, "restartPolicy", "Always");
    if (!spec.has("terminationGracePeriodSeconds")) {
      spec.put("terminationGracePeriodSeconds", 30L);
    }
    if (!(spec.get("securityContext") instanceof ObjectNode)) {
      spec.putObject("securityContext");
    }
    Json.putIfAbsent(spec, "schedulerName", "default-scheduler");
    boolean hostNetwork = spec.path("hostNetwork").asBoolean(false);
    for (JsonNode container : Json.elements(spec, "containers", "initContainers", "ephemeralContainers")) {
      container((ObjectNode) container, hostNetwork);
    }
    for (JsonNode volume : spec.path("volumes")) {
      if (volume instanceof ObjectNode v) {
        volume(v);
      }
    }
  }

  private static void container(ObjectNode container, boolean hostNetwork) {
    if (!container.has("imagePullPolicy")) {
      container.put("imagePullPolicy", pullPolicy(container.path("image").asText("")));
    }
    if (!(container.get("resources") instanceof ObjectNode)) {
      // a Go struct, not a pointer: kube always serializes it, as {} when nothing is set
      container.putObject("resources");
    }
    Json.putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
    Json.putIfAbsent(container, "terminationMessagePolicy", "File");
    for (JsonNode port : container.path("ports")) {
      if (port instanceof ObjectNode p) {
        Json.putIfAbsent(p, "protocol", "TCP");
        if (hostNetwork && !p.has("hostPort") && p.has("containerPort")) {
          p.set("hostPort", p.get("containerPort").deepCopy());
        }
      }
    }
    for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
      if (container.get(probe) instanceof ObjectNode p) {
        probe(p);
      }
    }
    for (JsonNode env : container.path("env")) {
      if (env.path("valueFrom").path("fieldRef") instanceof ObjectNode fieldRef) {
        Json.putIfAbsent(fieldRef, "apiVersion", "v1");
      }
    }
  }

  /** kube's rule: {@code Always} for an image without a tag or tagged {@code :latest}, else (a digest,
   * another tag, no image) {@code IfNotPresent}. */
  static String pullPolicy(String image) {
    if (image.isEmpty() || image.contains("@")) {
      return "IfNotPresent";
    }
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    if (colon <= slash) {
      return "Always";
    }
    return image.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }

  private static void probe(ObjectNode probe) {
    putIfAbsent(probe, "timeoutSeconds", 1);
    putIfAbsent(probe, "periodSeconds", 10);
    putIfAbsent(probe, "successThreshold", 1);
    putIfAbsent(probe, "failureThreshold", 3);
    if (probe.get("httpGet") instanceof ObjectNode httpGet) {
      Json.putIfAbsent(httpGet, "path", "/");
      Json.putIfAbsent(httpGet, "scheme", "HTTP");
    }
    if (probe.get("grpc") instanceof ObjectNode grpc && !grpc.has("service")) {
      grpc.put("service", "");
    }
  }

  private static void volume(ObjectNode volume) {
    boolean hasSource = false;
    var names = volume.fieldNames();
    while (names.hasNext()) {
      if (!names.next().equals("name")) {
        hasSource = true;
      }
    }
    if (!hasSource) {
      volume.putObject("emptyDir");
    }
    for (String source : new String[] {"configMap", "secret", "projected", "downwardAPI"}) {
      if (volume.get(source) instanceof ObjectNode s) {
        putIfAbsent(s, "defaultMode", DEFAULT_MODE);
      }
    }
    if (volume.get("hostPath") instanceof ObjectNode hostPath) {
      Json.putIfAbsent(hostPath, "type", "");
    }
  }

  private static void requestsFromLimits(ObjectNode container) {
    if (!(container.path("resources").path("limits") instanceof ObjectNode limits) || limits.isEmpty()) {
      return;
    }
    ObjectNode resources = (ObjectNode) container.get("resources");
    ObjectNode requests = resources.get("requests") instanceof ObjectNode r ? r : resources.putObject("requests");
    for (var limit : limits.properties()) {
      if (!requests.has(limit.getKey())) {
        requests.set(limit.getKey(), limit.getValue().deepCopy());
      }
    }
  }

  private static void putIfAbsent(ObjectNode node, String field, int value) {
    if (!node.has(field) || node.get(field).isNull()) {
      node.put(field, value);
    }
  }
}
