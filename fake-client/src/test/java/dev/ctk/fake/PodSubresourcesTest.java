package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Pod, Node, Service, Namespace and ServiceAccount subresources beyond status and scale: listed in discovery as
 * kube 1.32 lists them, and answered as a bare kube-apiserver (no kubelet) answers them.
 */
class PodSubresourcesTest {

  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String SUCCESS = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
      + "\"status\":\"Success\",\"code\":201}";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void discovery_listsTheSubresources_withKindsGroupsAndVerbs() {
    List<String> listed = new ArrayList<>();
    for (JsonNode r : api.get("/api/v1").json().path("resources")) {
      String name = r.path("name").asText();
      if (name.contains("/") && !name.endsWith("/status") && !name.endsWith("/scale")) {
        listed.add(name + " " + r.path("kind").asText() + " " + r.path("group").asText("-") + " "
            + r.path("verbs"));
      }
    }
    assertThat(listed).containsExactly(
        "pods/attach PodAttachOptions - [\"create\",\"get\"]",
        "pods/binding Binding - [\"create\"]",
        "pods/ephemeralcontainers Pod - [\"get\",\"patch\",\"update\"]",
        "pods/eviction Eviction policy [\"create\"]",
        "pods/exec PodExecOptions - [\"create\",\"get\"]",
        "pods/log Pod - [\"get\"]",
        "pods/portforward PodPortForwardOptions - [\"create\",\"get\"]",
        "pods/proxy PodProxyOptions - [\"create\",\"delete\",\"get\",\"patch\",\"update\"]",
        "services/proxy ServiceProxyOptions - [\"create\",\"delete\",\"get\",\"patch\",\"update\"]",
        "namespaces/finalize Namespace - [\"update\"]",
        "nodes/proxy NodeProxyOptions - [\"create\",\"delete\",\"get\",\"patch\",\"update\"]",
        "serviceaccounts/token TokenRequest authentication.k8s.io [\"create\"]");
  }

  @Test
  void logExecAndPortForward_answerAsABareApiServer() {
    pod("p", "");
    pod("q", "node-1");
    RawApi.Reply log = api.get(PODS + "/p/log");
    assertThat(log.code() + " [" + log.body() + "]").isEqualTo("204 []");
    assertThat(api.get(PODS + "/p/exec?command=ls&stdout=true").json().path("message").asText())
        .isEqualTo("pod p does not have a host assigned");
    assertThat(api.get(PODS + "/p/log?container=nope").json().path("message").asText())
        .isEqualTo("container nope is not valid for pod p");
    assertThat(api.get(PODS + "/q/portforward?ports=80").json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"node-1\\" not found",
         "reason":"NotFound","details":{"name":"node-1","kind":"pods"},"code":404}"""));
    api.post("/api/v1/nodes", "{\"metadata\":{\"name\":\"node-1\"}}");
    assertThat(api.get(PODS + "/q/log").json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"no preferred addresses found; known addresses: []","code":500}"""));
    assertThat(api.get(PODS + "/nope/log").code()).isEqualTo(404);
    assertThat(api.delete(PODS + "/p/log").code()).isEqualTo(405);
  }

  @Test
  void binding_setsTheNodeAndPodScheduled_once() {
    pod("p", "");
    String binding = "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\"},"
        + "\"target\":{\"kind\":\"Node\",\"name\":\"node-2\"}}";
    assertThat(api.post(PODS + "/p/binding", binding).json()).isEqualTo(json(SUCCESS));
    JsonNode bound = api.get(PODS + "/p").json();
    assertThat(bound.at("/spec/nodeName").asText() + " " + bound.at("/status/conditions")).isEqualTo("node-2 "
        + "[{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastProbeTime\":null,"
        + "\"lastTransitionTime\":\"2025-03-01T12:00:00Z\"}]");
    assertThat(api.post(PODS + "/p/binding", binding).json().path("message").asText())
        .isEqualTo("Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"node-2\"");
  }

  @Test
  void eviction_deletesAPendingPod_andConsultsTheBudgetOfARunningOne() {
    pod("pending", "");
    assertThat(evict("pending")).isEqualTo(SUCCESS);
    assertThat(api.get(PODS + "/pending").code()).isEqualTo(404);

    pod("running", "");
    api.patch(PODS + "/running/status", "application/merge-patch+json", "{\"status\":{\"phase\":\"Running\"}}");
    String budgets = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
    api.post(budgets, "{\"metadata\":{\"name\":\"pdb\"},\"spec\":{\"minAvailable\":1,"
        + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}}}}");
    assertThat(json(evict("running"))).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Cannot evict pod as it would violate the pod's disruption budget.","reason":"TooManyRequests",
         "details":{"causes":[{"reason":"DisruptionBudget",
         "message":"The disruption budget pdb is still being processed by the server."}],"retryAfterSeconds":10},
         "code":429}"""));
    api.patch(budgets + "/pdb/status", "application/merge-patch+json", "{\"status\":{\"observedGeneration\":1,"
        + "\"disruptionsAllowed\":0,\"currentHealthy\":1,\"desiredHealthy\":1,\"expectedPods\":1}}");
    assertThat(json(evict("running")).at("/details/causes/0/message").asText())
        .isEqualTo("The disruption budget pdb needs 1 healthy pods and has 1 currently");
    api.patch(budgets + "/pdb/status", "application/merge-patch+json", "{\"status\":{\"disruptionsAllowed\":1}}");
    assertThat(evict("running")).isEqualTo(SUCCESS);
    JsonNode status = api.get(budgets + "/pdb").json().path("status");
    assertThat(status.path("disruptionsAllowed").asInt() + " " + status.path("disruptedPods"))
        .isEqualTo("0 {\"running\":\"2025-03-01T12:00:00Z\"}");
  }

  @Test
  void finalize_writesOnlyTheNamespacesFinalizers_andTokenAnswersATokenRequest() {
    api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"t\",\"labels\":{\"a\":\"b\"}}}");
    JsonNode finalized = api.put("/api/v1/namespaces/t/finalize", "{\"metadata\":{\"name\":\"t\"},"
        + "\"spec\":{\"finalizers\":[]}}").json();
    assertThat(finalized.path("spec") + " " + finalized.at("/metadata/labels/a").asText()).isEqualTo("{} b");

    api.post("/api/v1/namespaces/default/serviceaccounts", "{\"metadata\":{\"name\":\"robot\"}}");
    RawApi.Reply token = api.post("/api/v1/namespaces/default/serviceaccounts/robot/token",
        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{\"expirationSeconds\":600}}");
    assertThat(token.code() + " " + token.json().at("/status/expirationTimestamp").asText())
        .isEqualTo("201 2025-03-01T12:10:00Z");
    assertThat(token.json().at("/status/token").asText()).startsWith("ctk-fake.");
    assertThat(api.post("/api/v1/namespaces/default/serviceaccounts/nobody/token", "{}").code()).isEqualTo(404);
  }

  private void pod(String name, String nodeName) {
    api.post(PODS, "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{"
        + (nodeName.isEmpty() ? "" : "\"nodeName\":\"" + nodeName + "\",")
        + "\"containers\":[{\"name\":\"main\",\"image\":\"nginx\"}]}}");
  }

  private String evict(String pod) {
    return api.post(PODS + "/" + pod + "/eviction", "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\","
        + "\"metadata\":{\"name\":\"" + pod + "\"}}").body();
  }
}
