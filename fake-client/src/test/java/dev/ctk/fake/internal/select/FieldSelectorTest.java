package dev.ctk.fake.internal.select;

import static dev.ctk.fake.internal.select.Json.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.registry.BuiltinKinds;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldSelectorTest {

  private static final Set<String> METADATA = Set.of("metadata.name", "metadata.namespace");

  /** The field labels of a built-in kind's row in BuiltinKinds; kube's default for any other kind. */
  private static FieldLabels labelsOf(String group, String kind) {
    return BuiltinKinds.all().stream().filter(t -> t.group().equals(group) && t.kind().equals(kind)).findFirst()
        .map(ResourceType::fieldLabels).orElse(FieldLabels.standard());
  }

  private static final JsonNode WEB = json("{metadata: {name: 'web', namespace: 'default'}}");
  private static final JsonNode ODD = json("{metadata: {name: 'a,b=c\\\\d', namespace: 'default'}}");

  private static final JsonNode POD = json("""
      {metadata: {name: 'web-1', namespace: 'default'},
       spec: {nodeName: 'node-1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'web'},
       status: {phase: 'Running', podIP: '10.0.0.5', podIPs: [{ip: '10.0.0.5'}, {ip: 'fd00::5'}]}}
      """);
  private static final JsonNode PENDING_POD = json("{metadata: {name: 'web-2', namespace: 'default'}, spec: {}, status: {}}");
  private static final JsonNode NODE = json("{metadata: {name: 'node-1'}, spec: {}}");
  private static final JsonNode JOB = json("{metadata: {name: 'migrate', namespace: 'default'}, status: {succeeded: 1}}");
  private static final JsonNode EVENT = json("""
      {metadata: {name: 'web.1', namespace: 'default'}, reason: 'Started', type: 'Normal',
       involvedObject: {kind: 'Pod', name: 'web-1', namespace: 'default'}, reportingComponent: 'kubelet'}
      """);

  static Stream<Arguments> matching() {
    return Stream.of(
        arguments("metadata.name=web", WEB, true),
        arguments("metadata.name==web", WEB, true),
        arguments("metadata.name!=web", WEB, false),
        arguments("metadata.name=api", WEB, false),
        arguments("metadata.name!=api", WEB, true),
        arguments("metadata.name=web,metadata.namespace=default", WEB, true),
        arguments("metadata.name=web,metadata.namespace=kube-system", WEB, false),
        arguments("metadata.name=", WEB, false),
        arguments("metadata.namespace=", json("{metadata: {name: 'cluster-scoped'}}"), true),
        arguments("metadata.name=a\\,b\\=c\\\\d", ODD, true),
        arguments(",metadata.name=web,", WEB, true));
  }

  @ParameterizedTest(name = "{0} on {1}: {2}")
  @MethodSource("matching")
  void matches_metadata_fields(String expression, JsonNode object, boolean expected) {
    assertThat(FieldSelector.parse(expression, METADATA).matches(object)).isEqualTo(expected);
  }

  /** kube's per-kind field labels: group, kind, selector, object, matches?, canonical form. */
  static Stream<Arguments> perKind() {
    return Stream.of(
        arguments("", "Pod", "status.phase=Running", POD, true, "status.phase=Running"),
        arguments("", "Pod", "status.phase=Running", PENDING_POD, false, "status.phase=Running"),
        arguments("", "Pod", "status.phase=", PENDING_POD, true, "status.phase="),
        arguments("", "Pod", "spec.nodeName=node-1,status.phase!=Failed", POD, true, "spec.nodeName=node-1,status.phase!=Failed"),
        arguments("", "Pod", "spec.host=node-1", POD, true, "spec.nodeName=node-1"),
        arguments("", "Pod", "spec.restartPolicy=Always", POD, true, "spec.restartPolicy=Always"),
        arguments("", "Pod", "spec.schedulerName=default-scheduler", POD, true, "spec.schedulerName=default-scheduler"),
        arguments("", "Pod", "spec.serviceAccountName=web", POD, true, "spec.serviceAccountName=web"),
        arguments("", "Pod", "spec.hostNetwork=false", POD, true, "spec.hostNetwork=false"),
        arguments("", "Pod", "spec.hostNetwork=true", json("{spec: {hostNetwork: true}}"), true, "spec.hostNetwork=true"),
        arguments("", "Pod", "status.podIP=10.0.0.5", POD, true, "status.podIP=10.0.0.5"),
        arguments("", "Pod", "status.podIPs=10.0.0.5", POD, false, "status.podIPs=10.0.0.5"),
        arguments("", "Pod", "status.podIPs=", POD, true, "status.podIPs="),
        arguments("", "Pod", "status.nominatedNodeName=", POD, true, "status.nominatedNodeName="),
        arguments("", "Pod", "metadata.namespace=default", POD, true, "metadata.namespace=default"),
        arguments("", "Node", "spec.unschedulable=false", NODE, true, "spec.unschedulable=false"),
        arguments("", "Node", "metadata.name=node-1", NODE, true, "metadata.name=node-1"),
        arguments("", "Namespace", "status.phase=Active", json("{metadata: {name: 'a'}, status: {phase: 'Active'}}"), true,
            "status.phase=Active"),
        arguments("", "Secret", "type=kubernetes.io/tls", json("{type: 'kubernetes.io/tls'}"), true, "type=kubernetes.io/tls"),
        arguments("", "Service", "spec.type=ClusterIP,spec.clusterIP!=None", json("{spec: {type: 'ClusterIP', clusterIP: '10.96.0.10'}}"),
            true, "spec.clusterIP!=None,spec.type=ClusterIP"),
        arguments("", "ReplicationController", "status.replicas=0", json("{status: {}}"), true, "status.replicas=0"),
        arguments("", "Event", "involvedObject.name=web-1,involvedObject.kind=Pod,reason=Started", EVENT, true,
            "involvedObject.kind=Pod,involvedObject.name=web-1,reason=Started"),
        arguments("", "Event", "source=kubelet", EVENT, true, "source=kubelet"),
        arguments("batch", "Job", "status.successful=1", JOB, true, "status.successful=1"),
        arguments("batch", "Job", "status.successful=0", json("{status: {}}"), true, "status.successful=0"),
        arguments("apps", "Deployment", "metadata.name=web", WEB, true, "metadata.name=web"),
        arguments("samplecrd.k8s.io", "Network", "metadata.namespace=default", WEB, true, "metadata.namespace=default"));
  }

  @ParameterizedTest(name = "{1} {2}")
  @MethodSource("perKind")
  void knows_the_field_labels_of(String group, String kind, String expression, JsonNode object, boolean matches,
      String canonical) {
    // WHEN
    FieldSelector selector = FieldSelector.parse(expression, labelsOf(group, kind));
    // THEN
    assertThat(selector.matches(object)).isEqualTo(matches);
    assertThat(selector).hasToString(canonical);
  }

  static Stream<Arguments> rejected() {
    String onlyMetadata = " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"";
    return Stream.of(
        arguments("", "Pod", "spec.foo=x", "field label not supported: spec.foo"),
        arguments("", "Pod", "status.phase=Running,spec.foo=x", "field label not supported: spec.foo"),
        arguments("", "Pod", "metadata.labels=x", "field label not supported: metadata.labels"),
        arguments("", "Node", "metadata.namespace=x", "field label not supported: metadata.namespace"),
        arguments("", "Namespace", "metadata.namespace=x", "field label not supported: metadata.namespace"),
        arguments("", "Secret", "data=x", "field label not supported: data"),
        arguments("", "ConfigMap", "data.a=x", "\"data.a\"" + onlyMetadata),
        arguments("apps", "Deployment", "status.replicas=1", "\"status.replicas\"" + onlyMetadata),
        arguments("samplecrd.k8s.io", "Network", "spec.cidr=10.0.0.0/24", "\"spec.cidr\"" + onlyMetadata),
        arguments("batch", "Job", "status.failed=1", "field label \"status.failed\" not supported for Job"),
        arguments("", "Pod", "status.phase", "invalid selector: 'status.phase'; can't understand 'status.phase'"),
        arguments("", "Pod", "z=1,status.phase", "invalid selector: 'z=1,status.phase'; can't understand 'status.phase'"),
        arguments("", "Pod", " ", "invalid selector: ' '; can't understand ' '"),
        arguments("", "Pod", "metadata.name=a=b", "invalid field selector: unescaped character in value: 61"),
        arguments("", "Pod", "metadata.name=a\\x", "invalid field selector: invalid escape sequence: \\x"),
        arguments("", "Pod", "metadata.name=a\\", "invalid field selector: invalid escape sequence: \\"));
  }

  @ParameterizedTest(name = "{1} {2}")
  @MethodSource("rejected")
  void rejects_with_kubes_message(String group, String kind, String expression, String message) {
    // WHEN
    SelectorException e = catchThrowableOfType(SelectorException.class, () -> FieldSelector.parse(expression, labelsOf(group, kind)));
    // THEN
    assertThat(e).as("expected a SelectorException for %s", expression).isNotNull();
    assertThat(e.getMessage()).isEqualTo(message);
  }

  @Test
  void rejects_fields_outside_the_given_set_with_core_wording() {
    SelectorException e = catchThrowableOfType(SelectorException.class,
        () -> FieldSelector.parse("metadata.name=web,spec.nodeName=x", METADATA));
    assertThat(e.getMessage()).isEqualTo("field label not supported: spec.nodeName");
  }

  @Test
  void prints_sorted_terms_with_escaped_values() {
    assertThat(FieldSelector.parse("metadata.namespace=ns,metadata.name=a\\,b", METADATA))
        .hasToString("metadata.name=a\\,b,metadata.namespace=ns");
  }

  @Test
  void null_and_empty_select_everything() {
    for (String expression : new String[] {null, "", ",,"}) {
      FieldSelector selector = FieldSelector.parse(expression, METADATA);
      assertThat(selector.isEverything()).as("%s", expression).isTrue();
      assertThat(selector.matches(WEB)).isTrue();
      assertThat(selector).hasToString("");
    }
    assertThat(FieldSelector.everything().isEverything()).isTrue();
    assertThat(FieldSelector.parse("metadata.name=web", METADATA).isEverything()).isFalse();
  }

  @Test
  void tells_which_value_a_field_is_pinned_to() {
    FieldSelector selector = FieldSelector.parse("metadata.name=web,metadata.namespace!=kube-system", METADATA);
    assertThat(selector.exactMatch("metadata.name")).hasValue("web");
    assertThat(selector.exactMatch("metadata.namespace")).isEmpty();
    assertThat(FieldSelector.parse("spec.host=node-1", labelsOf("", "Pod")).exactMatch("spec.nodeName")).hasValue("node-1");
  }

  @Test
  void lists_the_fields_a_kind_supports() {
    assertThat(labelsOf("", "Node").accepted()).containsExactlyInAnyOrder("metadata.name", "spec.unschedulable");
    assertThat(labelsOf("apps", "Deployment").accepted())
        .containsExactlyInAnyOrder("metadata.name", "metadata.namespace");
    assertThat(labelsOf("batch", "Job").accepted())
        .containsExactlyInAnyOrder("metadata.name", "metadata.namespace", "status.successful");
    assertThat(labelsOf("", "Pod").accepted()).contains("spec.host", "spec.nodeName", "status.podIPs");
  }
}
