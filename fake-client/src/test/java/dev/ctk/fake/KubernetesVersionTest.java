package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code withKubernetesVersion(..)}: what {@code /version} reports and the behaviours that changed between the
 * minors the fake emulates (the contract suite compares each with a real server of that minor where one is built).
 */
class KubernetesVersionTest {

  private static final String DEPLOYMENT = """
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{
       "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
       "spec":{"containers":[{"name":"main","image":"nginx:1.27"}]}}}}""";
  private static final String STATEFUL_SET = """
      {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"serviceName":"db",
       "selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},
       "spec":{"containers":[{"name":"main","image":"nginx:1.27"}]}}}}""";

  @Test
  void the_default_is_1_32() {
    try (FakeCluster cluster = FakeCluster.builder().build()) {
      assertThat(cluster.kubernetesVersion()).isEqualTo("1.32");
      assertThat(cluster.client().getKubernetesVersion().getMinor()).isEqualTo("32");
      assertThat(cluster.client().getKubernetesVersion().getGitVersion()).isEqualTo("v1.32.0-ctk-fake");
    }
  }

  @ParameterizedTest
  @CsvSource({"1.34, 34", "v1.37, 37", "1.33.9, 33", "  1.35  , 35"})
  void version_reports_the_chosen_minor(String chosen, String minor) {
    try (FakeCluster cluster = FakeCluster.builder().withKubernetesVersion(chosen).build()) {
      assertThat(cluster.kubernetesVersion()).isEqualTo("1." + minor);
      assertThat(cluster.client().getKubernetesVersion().getMinor()).isEqualTo(minor);
      assertThat(cluster.client().getKubernetesVersion().getGitVersion()).isEqualTo("v1." + minor + ".0-ctk-fake");
    }
  }

  @Test
  void from_1_33_version_has_the_compatibility_fields() {
    assertThat(versionFields("1.32")).doesNotContain("emulationMajor", "emulationMinor");
    JsonNode version = onCluster("1.37", api -> api.get("/version").json());
    assertThat(version.path("emulationMajor").asText()).isEqualTo("1");
    assertThat(version.path("emulationMinor").asText()).isEqualTo("37");
    assertThat(version.path("minCompatibilityMajor").asText()).isEqualTo("1");
    assertThat(version.path("minCompatibilityMinor").asText()).isEqualTo("36");
  }

  @Test
  void from_1_34_a_field_error_prints_its_value_as_json() {
    String patch = "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\",\"x\":\"y\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\",\"x\":\"y\"}}}}}";
    Function<RawApi, String> changeSelector = api -> {
      api.post("/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT);
      return api.patch("/apis/apps/v1/namespaces/default/deployments/web", "application/merge-patch+json", patch)
          .json().path("message").asText();
    };
    assertThat(onCluster("1.33", changeSelector)).isEqualTo("Deployment.apps \"web\" is invalid: spec.selector: "
        + "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", \"x\":\"y\"}, "
        + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
    assertThat(onCluster("1.34", changeSelector)).isEqualTo("Deployment.apps \"web\" is invalid: spec.selector: "
        + "Invalid value: {\"matchLabels\":{\"app\":\"web\",\"x\":\"y\"}}: field is immutable");
  }

  @Test
  void from_1_34_a_dry_run_error_prints_the_values_as_json() {
    Function<RawApi, String> bogus = api -> api.post("/api/v1/namespaces/default/configmaps?dryRun=Bogus&dryRun=x",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}").json().path("message").asText();
    assertThat(onCluster("1.32", bogus)).contains("dryRun: Unsupported value: []string{\"Bogus\", \"x\"}");
    assertThat(onCluster("1.37", bogus)).contains("dryRun: Unsupported value: [\"Bogus\",\"x\"]");
  }

  @Test
  void from_1_37_a_stateful_set_gets_max_unavailable_1() {
    Function<RawApi, JsonNode> create = api -> api.post("/apis/apps/v1/namespaces/default/statefulsets",
        STATEFUL_SET).json().at("/spec/updateStrategy/rollingUpdate");
    assertThat(onCluster("1.36", create).toString()).isEqualTo("{\"partition\":0}");
    assertThat(onCluster("1.37", create).path("maxUnavailable").asInt()).isEqualTo(1);
    assertThat(onCluster("1.37", create).path("partition").asInt()).isZero();
  }

  @Test
  void from_1_33_pods_resize_changes_only_the_containers_resources() {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
        + "[{\"name\":\"main\",\"image\":\"nginx:1.27\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}";
    String resize = "{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:9\","
        + "\"resources\":{\"requests\":{\"cpu\":\"200m\"}}}]}}";
    Function<RawApi, String> resizeIt = api -> {
      api.post("/api/v1/namespaces/default/pods", pod);
      RawApi.Reply reply = api.patch("/api/v1/namespaces/default/pods/p/resize",
          "application/strategic-merge-patch+json", resize);
      JsonNode container = api.get("/api/v1/namespaces/default/pods/p").json().at("/spec/containers/0");
      return reply.code() + " " + container.at("/resources/requests/cpu").asText() + " "
          + container.path("image").asText();
    };
    assertThat(onCluster("1.32", resizeIt)).isEqualTo("404 100m nginx:1.27");
    assertThat(onCluster("1.33", resizeIt)).isEqualTo("200 200m nginx:1.27");
    String discovery133 = onCluster("1.33", api -> api.get("/api/v1").json().toString());
    String discovery132 = onCluster("1.32", api -> api.get("/api/v1").json().toString());
    assertThat(discovery133).contains("\"name\":\"pods/resize\"");
    assertThat(discovery132).doesNotContain("pods/resize");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.31", "1.38", "2.0"})
  void a_minor_it_does_not_emulate_is_refused_with_the_list(String version) {
    assertThatThrownBy(() -> FakeCluster.builder().withKubernetesVersion(version))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[1.32, 1.33, 1.34, 1.35, 1.36, 1.37]");
  }

  @Test
  void text_that_is_no_version_is_refused() {
    assertThatThrownBy(() -> FakeCluster.builder().withKubernetesVersion("latest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withKubernetesVersion(\"latest\"): not a Kubernetes version; write the minor, e.g. \"1.34\" "
            + "(one of [1.32, 1.33, 1.34, 1.35, 1.36, 1.37])");
    assertThatThrownBy(() -> FakeCluster.builder().withKubernetesVersion("1.31"))
        .hasMessage("Kubernetes 1.31 is not one the fake emulates; it emulates [1.32, 1.33, 1.34, 1.35, 1.36, 1.37]. "
            + "Choose one of them (the nearest to your cluster), or test against that version with envtest mode.");
  }

  private static List<String> versionFields(String version) {
    JsonNode body = onCluster(version, api -> api.get("/version").json());
    List<String> names = new ArrayList<>();
    body.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static <T> T onCluster(String version, Function<RawApi, T> action) {
    try (FakeCluster cluster = FakeCluster.builder().withKubernetesVersion(version)
        .withClientTransport(ClientTransport.HTTP).build()) {
      return action.apply(new RawApi(cluster.url()));
    }
  }
}
