package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** kube's defaulting of the built-in kinds controllers create most, observed through the HTTP API. */
class DefaultingTest {

  private static final String TEMPLATE = """
      "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"main","image":"nginx:1.27"}]}}""";
  private static final String DEFAULTED_TEMPLATE_SPEC = """
      {"containers":[{"name":"main","image":"nginx:1.27","imagePullPolicy":"IfNotPresent","resources":{},
        "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
       "dnsPolicy":"ClusterFirst","restartPolicy":"Always","terminationGracePeriodSeconds":30,
       "securityContext":{},"schedulerName":"default-scheduler"}""";

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
  void pod_getsSpecContainerAndPodOnlyDefaults_andPendingStatus() {
    Reply reply = api.post("/api/v1/namespaces/default/pods", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[
          {"name":"a","image":"busybox","ports":[{"containerPort":80}],
           "readinessProbe":{"httpGet":{"port":80}},
           "resources":{"limits":{"cpu":"1"}},
           "env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]},
          {"name":"b","image":"repo:5000/img:latest"},
          {"name":"c","image":"img@sha256:0123"}],
          "volumes":[{"name":"v"},{"name":"cm","configMap":{"name":"x"}}]}}""");

    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("spec")).isEqualTo(json("""
        {"containers":[
          {"name":"a","image":"busybox","ports":[{"containerPort":80,"protocol":"TCP"}],
           "readinessProbe":{"httpGet":{"port":80,"path":"/","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,
             "successThreshold":1,"failureThreshold":3},
           "resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}},
           "env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name","apiVersion":"v1"}}}],
           "imagePullPolicy":"Always","terminationMessagePath":"/dev/termination-log",
           "terminationMessagePolicy":"File"},
          {"name":"b","image":"repo:5000/img:latest","imagePullPolicy":"Always","resources":{},
           "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},
          {"name":"c","image":"img@sha256:0123","imagePullPolicy":"IfNotPresent","resources":{},
           "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
         "volumes":[{"name":"v","emptyDir":{}},{"name":"cm","configMap":{"name":"x","defaultMode":420}}],
         "dnsPolicy":"ClusterFirst","restartPolicy":"Always","terminationGracePeriodSeconds":30,
         "securityContext":{},"schedulerName":"default-scheduler","enableServiceLinks":true,
         "priority":0,"preemptionPolicy":"PreemptLowerPriority","tolerations":[
           {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
           {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]}"""));
    assertThat(reply.json().path("status")).isEqualTo(json("{\"phase\":\"Pending\",\"qosClass\":\"Burstable\"}"));
  }

  @Test
  void pod_admission_plugins_add_only_what_the_pod_lacks_and_only_at_create() {
    // GIVEN a Pod that tolerates every taint for NoExecute and names a built-in priority class
    Reply created = api.post("/api/v1/namespaces/default/pods", """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"critical"},"spec":{
          "containers":[{"name":"a","image":"busybox"}],"priorityClassName":"system-node-critical",
          "tolerations":[{"operator":"Exists","effect":"NoExecute"}]}}""");
    // THEN DefaultTolerationSeconds adds nothing, Priority sets the class's value
    assertThat(created.code()).isEqualTo(201);
    assertThat(created.json().at("/spec/tolerations")).isEqualTo(json("[{\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]"));
    assertThat(created.json().at("/spec/priority").asInt()).isEqualTo(2000001000);
    assertThat(created.json().at("/spec/preemptionPolicy").asText()).isEqualTo("PreemptLowerPriority");
    // WHEN a label is added by a merge patch (an update)
    Reply patched = api.patch("/api/v1/namespaces/default/pods/critical", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
    // THEN the plugins do not run again: the spec is unchanged
    assertThat(patched.code()).isEqualTo(200);
    assertThat(patched.json().path("spec")).isEqualTo(created.json().path("spec"));
  }

  @Test
  void deployment_getsReplicasStrategyLimitsAndTemplateDefaults() {
    Reply reply = api.post("/apis/apps/v1/namespaces/default/deployments", """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
         "spec":{"selector":{"matchLabels":{"app":"web"}},""" + TEMPLATE + "}}");

    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("spec")).isEqualTo(json("""
        {"selector":{"matchLabels":{"app":"web"}},
         "template":{"metadata":{"labels":{"app":"web"}},"spec":""" + DEFAULTED_TEMPLATE_SPEC + """
        },
         "replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
         "revisionHistoryLimit":10,"progressDeadlineSeconds":600}"""));
  }

  @Test
  void deployment_updateWithoutDefaults_isANoOp_generationUnchanged() {
    String body = """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
         "spec":{"selector":{"matchLabels":{"app":"web"}},""" + TEMPLATE + "}}";
    Reply created = api.post("/apis/apps/v1/namespaces/default/deployments", body);

    Reply updated = api.put("/apis/apps/v1/namespaces/default/deployments/web", body);

    assertThat(updated.code()).isEqualTo(200);
    assertThat(updated.json().path("metadata").path("resourceVersion"))
        .isEqualTo(created.json().path("metadata").path("resourceVersion"));
    assertThat(updated.json().path("metadata").path("generation").asLong()).isEqualTo(1);
  }

  @Test
  void statefulSet_replicaSet_daemonSet_getTheirDefaults() {
    String spec = "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}}," + TEMPLATE + "}}";
    Reply sts = api.post("/apis/apps/v1/namespaces/default/statefulsets",
        "{\"metadata\":{\"name\":\"db\"}," + spec);
    Reply rs = api.post("/apis/apps/v1/namespaces/default/replicasets", "{\"metadata\":{\"name\":\"rs\"}," + spec);
    Reply ds = api.post("/apis/apps/v1/namespaces/default/daemonsets", "{\"metadata\":{\"name\":\"ds\"}," + spec);

    assertThat(sts.json().path("spec")).isEqualTo(json("""
        {"selector":{"matchLabels":{"app":"web"}},
         "template":{"metadata":{"labels":{"app":"web"}},"spec":""" + DEFAULTED_TEMPLATE_SPEC + """
        },
         "podManagementPolicy":"OrderedReady","updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0}},
         "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"},
         "replicas":1,"revisionHistoryLimit":10}"""));
    assertThat(rs.json().path("spec").path("replicas").asInt()).isEqualTo(1);
    assertThat(rs.json().path("spec").path("template").path("spec")).isEqualTo(json(DEFAULTED_TEMPLATE_SPEC));
    assertThat(ds.json().path("spec").path("updateStrategy")).isEqualTo(json(
        "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1,\"maxSurge\":0}}"));
    assertThat(ds.json().path("spec").path("revisionHistoryLimit").asInt()).isEqualTo(10);
  }

  @Test
  void job_getsDefaults_andKubesGeneratedSelectorAndLabels() {
    Reply reply = api.post("/apis/batch/v1/namespaces/default/jobs", """
        {"metadata":{"name":"once"},"spec":{"template":{"spec":{"restartPolicy":"Never",
          "containers":[{"name":"main","image":"busybox:1.36"}]}}}}""");

    assertThat(reply.code()).isEqualTo(201);
    String uid = reply.json().path("metadata").path("uid").asText();
    assertThat(reply.json().path("spec")).isEqualTo(json("""
        {"template":{"metadata":{"labels":{"batch.kubernetes.io/controller-uid":"%1$s",
            "batch.kubernetes.io/job-name":"once","controller-uid":"%1$s","job-name":"once"}},
          "spec":{"restartPolicy":"Never","containers":[{"name":"main","image":"busybox:1.36",
            "imagePullPolicy":"IfNotPresent","resources":{},"terminationMessagePath":"/dev/termination-log",
            "terminationMessagePolicy":"File"}],
            "dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,"securityContext":{},
            "schedulerName":"default-scheduler"}},
         "completions":1,"parallelism":1,"completionMode":"NonIndexed","backoffLimit":6,"suspend":false,
         "podReplacementPolicy":"TerminatingOrFailed",
         "selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"%1$s"}}}""".formatted(uid)));
  }

  @Test
  void cronJob_getsItsDefaults() {
    Reply reply = api.post("/apis/batch/v1/namespaces/default/cronjobs", """
        {"metadata":{"name":"nightly"},"spec":{"schedule":"0 0 * * *","jobTemplate":{"spec":{"template":{"spec":{
          "restartPolicy":"OnFailure","containers":[{"name":"main","image":"busybox:1.36"}]}}}}}}""");

    assertThat(reply.json().path("spec").path("concurrencyPolicy").asText()).isEqualTo("Allow");
    assertThat(reply.json().path("spec").path("suspend").asBoolean(true)).isFalse();
    assertThat(reply.json().path("spec").path("successfulJobsHistoryLimit").asInt()).isEqualTo(3);
    assertThat(reply.json().path("spec").path("failedJobsHistoryLimit").asInt()).isEqualTo(1);
    assertThat(reply.json().path("spec").path("jobTemplate").path("spec").has("backoffLimit")).isFalse();
    assertThat(reply.json().path("spec").path("jobTemplate").path("spec").path("template").path("spec")
        .path("dnsPolicy").asText()).isEqualTo("ClusterFirst");
  }

  @Test
  void service_getsClusterIpFromTheServiceCidr_andPortDefaults() {
    Reply first = api.post("/api/v1/namespaces/default/services", """
        {"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}""");
    Reply second = api.post("/api/v1/namespaces/default/services", """
        {"metadata":{"name":"api"},"spec":{"ports":[{"port":8080,"targetPort":"http"}]}}""");

    assertThat(first.code()).isEqualTo(201);
    assertThat(first.json().path("spec")).isEqualTo(json("""
        {"selector":{"app":"web"},"ports":[{"port":80,"protocol":"TCP","targetPort":80}],
         "sessionAffinity":"None","type":"ClusterIP","internalTrafficPolicy":"Cluster",
         "clusterIP":"10.96.0.2","clusterIPs":["10.96.0.2"],"ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"]}"""));
    assertThat(second.json().path("spec").path("clusterIP").asText()).isEqualTo("10.96.0.3");
    assertThat(second.json().path("spec").path("ports")).isEqualTo(json(
        "[{\"port\":8080,\"targetPort\":\"http\",\"protocol\":\"TCP\"}]"));
  }

  @Test
  void service_nodePortAndHeadless_andUpdateKeepsAllocatedValues() {
    Reply nodePort = api.post("/api/v1/namespaces/default/services", """
        {"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"port":80}]}}""");
    Reply headless = api.post("/api/v1/namespaces/default/services", """
        {"metadata":{"name":"hl"},"spec":{"clusterIP":"None","selector":{"app":"db"},"ports":[{"port":5432}]}}""");

    assertThat(nodePort.json().path("spec").path("ports")).isEqualTo(json(
        "[{\"port\":80,\"protocol\":\"TCP\",\"targetPort\":80,\"nodePort\":30000}]"));
    assertThat(nodePort.json().path("spec").path("externalTrafficPolicy").asText()).isEqualTo("Cluster");
    assertThat(headless.json().path("spec").path("clusterIPs")).isEqualTo(json("[\"None\"]"));
    assertThat(headless.json().path("spec").path("ipFamilyPolicy").asText()).isEqualTo("SingleStack");

    Reply updated = api.put("/api/v1/namespaces/default/services/np", """
        {"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"port":80}]}}""");
    assertThat(updated.code()).isEqualTo(200);
    assertThat(updated.json().path("spec").path("clusterIP")).isEqualTo(nodePort.json().path("spec")
        .path("clusterIP"));
    assertThat(updated.json().path("spec").path("ports").path(0).path("nodePort").asInt()).isEqualTo(30000);
    assertThat(updated.json().path("metadata").path("resourceVersion"))
        .isEqualTo(nodePort.json().path("metadata").path("resourceVersion"));
  }

  @Test
  void service_throughFabric8_targetPortDefaultsToPort() {
    Service created = cluster.client().services().inNamespace("default").resource(new ServiceBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().addNewPort().withName("http").withPort(8080).endPort().endSpec().build()).create();

    ServicePort port = created.getSpec().getPorts().get(0);
    assertThat(port.getTargetPort()).isEqualTo(new IntOrString(8080));
    assertThat(port.getProtocol()).isEqualTo("TCP");
    assertThat(created.getSpec().getType()).isEqualTo("ClusterIP");
  }

  @Test
  void secret_defaultsToOpaque_andStringDataIsMergedIntoData() {
    Reply reply = api.post("/api/v1/namespaces/default/secrets", """
        {"metadata":{"name":"s"},"data":{"a":"eA==","b":"eQ=="},"stringData":{"b":"new","c":"z"}}""");

    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("type").asText()).isEqualTo("Opaque");
    assertThat(reply.json().path("data")).isEqualTo(json("{\"a\":\"eA==\",\"b\":\"bmV3\",\"c\":\"eg==\"}"));
    assertThat(reply.json().has("stringData")).isFalse();
  }

  @Test
  void configMap_getsNoDefaults() {
    Reply reply = api.post("/api/v1/namespaces/default/configmaps", """
        {"metadata":{"name":"c"},"data":{"k":"v"}}""");

    assertThat(reply.json().has("immutable")).isFalse();
    assertThat(reply.json().path("data")).isEqualTo(json("{\"k\":\"v\"}"));
  }
}
