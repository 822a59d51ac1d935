package dev.ctk.fake.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import org.junit.jupiter.api.Test;

/** The admission package's building blocks, checked without a server. */
class AdmissionUnitTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void fieldErrors_sameTextTwice_isPrintedOnce_butBothCausesStay() {
    FieldErrors errors = new FieldErrors().required("spec.a", "").required("spec.a", "");

    ApiError error = catchThrowableOfType(ApiError.class, () -> errors.throwIfAny("apps", "Deployment", "web"));

    assertThat(error.getMessage()).isEqualTo("Deployment.apps \"web\" is invalid: spec.a: Required value");
    assertThat(error.toStatus().path("details").path("causes")).hasSize(2);
    assertThat(error.code()).isEqualTo(422);
    assertThat(error.reason()).isEqualTo("Invalid");
  }

  @Test
  void fieldErrors_none_throwsNothing() {
    new FieldErrors().throwIfAny("", "ConfigMap", "web");

    assertThat(new FieldErrors().isEmpty()).isTrue();
  }

  @Test
  void pullPolicy_followsTheTag() {
    assertThat(PodDefaults.pullPolicy("nginx")).isEqualTo("Always");
    assertThat(PodDefaults.pullPolicy("nginx:latest")).isEqualTo("Always");
    assertThat(PodDefaults.pullPolicy("registry:5000/nginx")).isEqualTo("Always");
    assertThat(PodDefaults.pullPolicy("registry:5000/nginx:1.27")).isEqualTo("IfNotPresent");
    assertThat(PodDefaults.pullPolicy("nginx@sha256:abc")).isEqualTo("IfNotPresent");
    assertThat(PodDefaults.pullPolicy("")).isEqualTo("IfNotPresent");
  }

  @Test
  void nameRules_prefixesAndPathSegments() {
    assertThat(NameRule.DNS1123_SUBDOMAIN.problems("web-", true)).isEmpty();
    assertThat(NameRule.DNS1123_SUBDOMAIN.problems("web-", false)).hasSize(1);
    assertThat(NameRule.PATH_SEGMENT.problems("a/b%c", false)).containsExactly("may not contain '/'",
        "may not contain '%'");
    assertThat(NameRule.PATH_SEGMENT.problems("..", false)).containsExactly("may not be '..'");
    assertThat(NameRule.DNS1123_LABEL.problems("x".repeat(64), false))
        .containsExactly("must be no more than 63 characters");
  }

  @Test
  void goSyntax_labelSelectorWithExpressions() throws Exception {
    String rendered = GoSyntax.labelSelector(JSON.readTree("""
        {"matchExpressions":[{"key":"tier","operator":"In","values":["a","b"]},{"key":"x","operator":"Exists"}]}"""));

    assertThat(rendered).isEqualTo("v1.LabelSelector{MatchLabels:map[string]string(nil), "
        + "MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:\"tier\", "
        + "Operator:\"In\", Values:[]string{\"a\", \"b\"}}, v1.LabelSelectorRequirement{Key:\"x\", "
        + "Operator:\"Exists\", Values:[]string(nil)}}}");
  }

  @Test
  void goSyntax_mapsSlicesAndSelectors_inBothPrintings() throws Exception {
    var labels = JSON.readTree("{\"tier\":\"front\",\"app\":\"web\"}");
    var ips = JSON.readTree("[\"10.96.0.10\",\"fd00::a\"]");
    var selector = JSON.readTree("""
        {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["a"]},
         {"key":"x","operator":"Exists","values":[]}]}""");

    assertThat(GoSyntax.printedStringMap(labels)).isEqualTo(new GoSyntax.Printed(
        "map[string]string{\"app\":\"web\", \"tier\":\"front\"}", "{\"app\":\"web\",\"tier\":\"front\"}"));
    assertThat(GoSyntax.printedStringMap(null)).isEqualTo(new GoSyntax.Printed("map[string]string(nil)", "null"));
    assertThat(GoSyntax.printedStringSlice(ips)).isEqualTo(new GoSyntax.Printed(
        "[]string{\"10.96.0.10\", \"fd00::a\"}", "[\"10.96.0.10\",\"fd00::a\"]"));
    assertThat(GoSyntax.printedStringSlice(null)).isEqualTo(new GoSyntax.Printed("[]string(nil)", "null"));
    assertThat(GoSyntax.printedLabelSelector(selector).json()).isEqualTo("{\"matchLabels\":{\"app\":\"web\"},"
        + "\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"a\"]},"
        + "{\"key\":\"x\",\"operator\":\"Exists\"}]}");
    assertThat(GoSyntax.printedLabelSelector(JSON.readTree("{}")))
        .isEqualTo(new GoSyntax.Printed("v1.LabelSelector{MatchLabels:map[string]string(nil), "
            + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}", "{}"));
  }

  @Test
  void selection_followsKubesOperators() throws Exception {
    var labels = JSON.readTree("{\"app\":\"web\",\"tier\":\"front\"}");

    assertThat(Selection.matches(JSON.readTree("{\"matchLabels\":{\"app\":\"web\"},\"matchExpressions\":["
        + "{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"front\"]},"
        + "{\"key\":\"x\",\"operator\":\"DoesNotExist\"}]}"), labels)).isTrue();
    assertThat(Selection.matches(JSON.readTree("{\"matchExpressions\":["
        + "{\"key\":\"tier\",\"operator\":\"NotIn\",\"values\":[\"front\"]}]}"), labels)).isFalse();
    assertThat(Selection.matches(JSON.readTree("{\"matchLabels\":{\"app\":\"api\"}}"), labels)).isFalse();
  }

  @Test
  void podQosClass() throws Exception {
    assertThat(PodStatus.qosClass(JSON.readTree("{\"containers\":[{\"name\":\"a\"}]}"))).isEqualTo("BestEffort");
    assertThat(PodStatus.qosClass(JSON.readTree("{\"containers\":[{\"resources\":{\"limits\":"
        + "{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]}"))).isEqualTo("Guaranteed");
    assertThat(PodStatus.qosClass(JSON.readTree("{\"containers\":[{\"resources\":{\"requests\":"
        + "{\"cpu\":\"1\"}}}]}"))).isEqualTo("Burstable");
  }

  @Test
  void daemonSet_rollingUpdateDefaults_notForOnDelete() throws Exception {
    ObjectNode onDelete = (ObjectNode) JSON.readTree("{\"spec\":{\"updateStrategy\":{\"type\":\"OnDelete\"}}}");

    WorkloadDefaults.daemonSet(onDelete);

    assertThat(onDelete.path("spec").path("updateStrategy")).isEqualTo(JSON.readTree("{\"type\":\"OnDelete\"}"));
  }
}
