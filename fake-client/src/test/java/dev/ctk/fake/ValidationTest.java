package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** kube's 422 Invalid answers for the validation controllers trip over, checked as whole messages and bodies. */
class ValidationTest {

  private static final String SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      + "'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String DEPLOYMENT_BODY = """
      {"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
       "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"main","image":"nginx:1"}]}}}}""";

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
  void invalidName_isA422WithCauses() {
    Reply reply = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"Web_1\"}}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":%s,
         "reason":"Invalid",
         "details":{"name":"Web_1","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid",
           "message":%s,"field":"metadata.name"}]},
         "code":422}""".formatted(quoted("ConfigMap \"Web_1\" is invalid: metadata.name: Invalid value: \"Web_1\": "
        + SUBDOMAIN_RULE), quoted("Invalid value: \"Web_1\": " + SUBDOMAIN_RULE))));
  }

  @Test
  void serviceName_isADns1035Label_namespaceName_aDns1123Label() {
    Reply service = api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"1web\"}}");
    Reply namespace = api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"team.a\"}}");

    assertThat(service.json().path("message").asText()).isEqualTo("Service \"1web\" is invalid: metadata.name: "
        + "Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
        + "start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
        + "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
    assertThat(namespace.json().path("message").asText()).isEqualTo("Namespace \"team.a\" is invalid: "
        + "metadata.name: Invalid value: \"team.a\": must not contain dots");
  }

  @Test
  void badGenerateName_andSeveralErrors_areJoinedAsKubeDoes() {
    Reply reply = api.post("/api/v1/namespaces/default/configmaps", """
        {"metadata":{"generateName":"Web-","labels":{"ok":"bad value"}}}""");

    String generated = reply.json().path("details").path("name").asText();
    assertThat(generated).startsWith("Web-").hasSize(9);
    assertThat(reply.json().path("message").asText()).isEqualTo("ConfigMap \"" + generated + "\" is invalid: ["
        + "metadata.generateName: Invalid value: \"Web-\": " + SUBDOMAIN_RULE + ", "
        + "metadata.name: Invalid value: \"" + generated + "\": " + SUBDOMAIN_RULE + ", "
        + "metadata.labels: Invalid value: \"bad value\": a valid label must be an empty string or consist of "
        + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
        + "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]");
    assertThat(reply.json().path("details").path("causes")).hasSize(3);
  }

  @Test
  void badLabelKey_andAnnotationTooLarge() {
    Reply label = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"a\",\"labels\":{\"-bad\":\"x\"}}}");
    Reply annotations = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"b\",\"annotations\":{\"big\":\"" + "x".repeat(256 * 1024) + "\"}}}");

    assertThat(label.json().path("message").asText()).isEqualTo("ConfigMap \"a\" is invalid: metadata.labels: "
        + "Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must "
        + "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
        + "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
    assertThat(annotations.json().path("message").asText()).isEqualTo("ConfigMap \"b\" is invalid: "
        + "metadata.annotations: Too long: may not be more than 262144 bytes");
    assertThat(annotations.json().path("details").path("causes").path(0).path("reason").asText())
        .isEqualTo("FieldValueTooLong");
  }

  @Test
  void podWithoutContainers_andContainerWithoutNameOrImage() {
    Reply empty = api.post("/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"p\"},\"spec\":{}}");
    Reply incomplete = api.post("/api/v1/namespaces/default/pods",
        "{\"metadata\":{\"name\":\"q\"},\"spec\":{\"containers\":[{}]}}");

    assertThat(empty.code()).isEqualTo(422);
    assertThat(empty.json().path("message").asText()).isEqualTo("Pod \"p\" is invalid: spec.containers: "
        + "Required value");
    assertThat(empty.json().path("details").path("causes")).isEqualTo(json(
        "[{\"reason\":\"FieldValueRequired\",\"message\":\"Required value\",\"field\":\"spec.containers\"}]"));
    assertThat(incomplete.json().path("message").asText()).isEqualTo("Pod \"q\" is invalid: ["
        + "spec.containers[0].name: Required value, spec.containers[0].image: Required value]");
  }

  @Test
  void deploymentTemplateMustMatchSelector_andDuplicateContainerNames() {
    Reply mismatch = api.post("/apis/apps/v1/namespaces/default/deployments", """
        {"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
         "template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[
           {"name":"main","image":"a"},{"name":"main","image":"b"}]}}}}""");

    assertThat(mismatch.json().path("message").asText()).isEqualTo("Deployment.apps \"web\" is invalid: ["
        + "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"api\"}: `selector` does not "
        + "match template `labels`, spec.template.spec.containers[1].name: Duplicate value: \"main\"]");
    assertThat(mismatch.json().path("details").path("group").asText()).isEqualTo("apps");
  }

  @Test
  void jobRestartPolicyMustBeOnFailureOrNever() {
    Reply reply = api.post("/apis/batch/v1/namespaces/default/jobs", """
        {"metadata":{"name":"j"},"spec":{"template":{"spec":{"containers":[{"name":"m","image":"busybox"}]}}}}""");

    assertThat(reply.json().path("message").asText()).isEqualTo("Job.batch \"j\" is invalid: "
        + "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", "
        + "\"Never\"");
  }

  @Test
  void deploymentSelector_isImmutable() {
    api.post("/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT_BODY);

    Reply reply = api.patch("/apis/apps/v1/namespaces/default/deployments/web", "application/merge-patch+json",
        "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\",\"tier\":\"x\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\",\"tier\":\"x\"}}}}}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json().path("message").asText()).isEqualTo("Deployment.apps \"web\" is invalid: "
        + "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", "
        + "\"tier\":\"x\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
  }

  @Test
  void deploymentSelectorChange_thatNoLongerSelectsTheTemplate_reportsBothInKubesOrder() {
    api.post("/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT_BODY);

    Reply reply = api.patch("/apis/apps/v1/namespaces/default/deployments/web", "application/merge-patch+json",
        "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"api\"}}}}");

    assertThat(reply.json().path("message").asText()).isEqualTo("Deployment.apps \"web\" is invalid: ["
        + "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not "
        + "match template `labels`, spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"
        + "\"app\":\"api\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable]");
    assertThat(reply.json().path("details").path("causes")).isEqualTo(json("""
        [{"reason":"FieldValueInvalid","message":"Invalid value: map[string]string{\\"app\\":\\"web\\"}: \
        `selector` does not match template `labels`","field":"spec.template.metadata.labels"},
         {"reason":"FieldValueInvalid","message":"Invalid value: v1.LabelSelector{MatchLabels:\
        map[string]string{\\"app\\":\\"api\\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: \
        field is immutable","field":"spec.selector"}]"""));
  }

  @Test
  void jobReplacedWithoutItsGeneratedSelector_printsTheNilSelectorAsKubeDoes() {
    api.post("/apis/batch/v1/namespaces/default/jobs", """
        {"metadata":{"name":"j"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}},
          "template":{"metadata":{"labels":{"a":"b"}},"spec":{"restartPolicy":"Never",
          "containers":[{"name":"m","image":"busybox"}]}}}}""");

    Reply reply = api.put("/apis/batch/v1/namespaces/default/jobs/j", """
        {"metadata":{"name":"j"},"spec":{"manualSelector":true,
          "template":{"metadata":{"labels":{"a":"b"}},"spec":{"restartPolicy":"Never",
          "containers":[{"name":"m","image":"busybox"}]}}}}""");

    assertThat(reply.json().path("message").asText()).isEqualTo("Job.batch \"j\" is invalid: ["
        + "spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"
        + "\"a\":\"b\"}: `selector` does not match template `labels`, spec.selector: Invalid value: \"null\": "
        + "field is immutable]");
  }

  @Test
  void statefulSetSpec_beyondTheMutableFields_isForbidden() {
    api.post("/apis/apps/v1/namespaces/default/statefulsets", DEPLOYMENT_BODY);

    Reply reply = api.patch("/apis/apps/v1/namespaces/default/statefulsets/web", "application/merge-patch+json",
        "{\"spec\":{\"serviceName\":\"other\"}}");

    assertThat(reply.json().path("message").asText()).isEqualTo("StatefulSet.apps \"web\" is invalid: spec: "
        + "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
        + "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  }

  @Test
  void jobSelectorAndTemplate_areImmutable() {
    api.post("/apis/batch/v1/namespaces/default/jobs", """
        {"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never",
          "containers":[{"name":"m","image":"busybox"}]}}}}""");

    Reply reply = api.patch("/apis/batch/v1/namespaces/default/jobs/j", "application/strategic-merge-patch+json",
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"m\",\"image\":\"busybox:2\"}]}}}}");

    assertThat(reply.json().path("message").asText()).isEqualTo("Job.batch \"j\" is invalid: spec.template: "
        + "Invalid value: core.PodTemplateSpec{...}: field is immutable");
  }

  @Test
  void immutableConfigMap_andSecret_refuseChanges() {
    api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"data\":{\"k\":\"v\"}}");
    api.post("/api/v1/namespaces/default/secrets",
        "{\"metadata\":{\"name\":\"tls\"},\"type\":\"kubernetes.io/tls\",\"immutable\":true,"
            + "\"data\":{\"tls.crt\":\"eA==\",\"tls.key\":\"eQ==\"}}");

    Reply configMap = api.put("/api/v1/namespaces/default/configmaps/frozen",
        "{\"metadata\":{\"name\":\"frozen\"},\"data\":{\"k\":\"changed\"}}");
    Reply secret = api.put("/api/v1/namespaces/default/secrets/tls",
        "{\"metadata\":{\"name\":\"tls\"},\"immutable\":true,\"stringData\":{\"tls.crt\":\"z\"}}");

    assertThat(configMap.json().path("message").asText()).isEqualTo("ConfigMap \"frozen\" is invalid: ["
        + "immutable: Forbidden: field is immutable when `immutable` is set, "
        + "data: Forbidden: field is immutable when `immutable` is set]");
    assertThat(secret.json().path("message").asText()).isEqualTo("Secret \"tls\" is invalid: ["
        + "type: Invalid value: \"Opaque\": field is immutable, "
        + "data: Forbidden: field is immutable when `immutable` is set]");
  }

  @Test
  void serviceClusterIp_mayNotChange_andAProvidedIpMustBeFree() {
    api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"ports\":"
        + "[{\"port\":80}]}}");

    Reply changed = api.patch("/api/v1/namespaces/default/services/web", "application/merge-patch+json",
        "{\"spec\":{\"clusterIP\":\"10.96.0.99\"}}");
    Reply replaced = api.put("/api/v1/namespaces/default/services/web", "{\"metadata\":{\"name\":\"web\"},"
        + "\"spec\":{\"clusterIP\":\"10.96.0.98\",\"ports\":[{\"port\":80}]}}");
    Reply taken = api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"api\"},\"spec\":"
        + "{\"clusterIP\":\"10.96.0.2\",\"ports\":[{\"port\":80}]}}");
    Reply outside = api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"far\"},\"spec\":"
        + "{\"clusterIP\":\"192.168.0.1\",\"ports\":[{\"port\":80}]}}");

    assertThat(changed.json().path("message").asText()).isEqualTo("Service \"web\" is invalid: "
        + "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.99\"}: may not change once set");
    assertThat(replaced.json().path("message").asText()).isEqualTo("Service \"web\" is invalid: "
        + "spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.98\"}: may not change once set");
    assertThat(taken.json().path("message").asText()).isEqualTo("Service \"api\" is invalid: spec.clusterIPs: "
        + "Invalid value: []string{\"10.96.0.2\"}: failed to allocate IP 10.96.0.2: provided IP is already "
        + "allocated");
    assertThat(outside.json().path("message").asText()).isEqualTo("Service \"far\" is invalid: spec.clusterIPs: "
        + "Invalid value: []string{\"192.168.0.1\"}: failed to allocate IP 192.168.0.1: the provided IP "
        + "(192.168.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12");
  }

  @Test
  void throughFabric8_aValidationErrorIsAKubernetesClientExceptionWith422() {
    KubernetesClientException error = catchThrowableOfType(KubernetesClientException.class,
        () -> cluster.client().configMaps().inNamespace("default")
            .resource(new ConfigMapBuilder().withNewMetadata().withName("Bad").endMetadata().build()).create());

    assertThat(error.getCode()).isEqualTo(422);
    assertThat(error.getStatus().getMessage()).isEqualTo("ConfigMap \"Bad\" is invalid: metadata.name: Invalid "
        + "value: \"Bad\": " + SUBDOMAIN_RULE);
  }

  private static String quoted(String text) {
    return TextNode.valueOf(text).toString();
  }
}
