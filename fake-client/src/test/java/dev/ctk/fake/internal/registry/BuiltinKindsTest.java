package dev.ctk.fake.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctk.fake.internal.patch.PatchSchema;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in kind is described whole in its row of {@link BuiltinKinds}, and the per-type tables the engines
 * read below a kind (strategic-merge tags) hang from some row: nothing is described for a kind the fake does not
 * serve.
 */
class BuiltinKindsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Kinds that serve /status although their row's empty object has no status (not described yet). */
  private static final Set<String> STATUS_WITHOUT_ZERO_STATUS = Set.of("apiextensions.k8s.io/CustomResourceDefinition");

  static Stream<ResourceType> kinds() {
    return BuiltinKinds.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void describes_every_column_of(ResourceType type) throws Exception {
    // THEN: the engines' columns
    assertThat(type.custom()).isFalse();
    assertThat(type.goType()).as("Go type").hasValue(type.kind());
    JsonNode zero = JSON.readTree(type.zeroObject());
    assertThat(zero.isObject()).as("zero object %s", type.zeroObject()).isTrue();
    assertThat(zero.has("metadata")).as("zero object without metadata").isFalse();
    assertThat(type.fieldLabels().accepted()).as("field labels").contains("metadata.name");
    assertThat(type.admissionRules()).as("admission rules").isNotNull();
    // AND: the columns agree with each other
    String id = type.group() + "/" + type.kind();
    if (type.hasStatusSubresource() && !STATUS_WITHOUT_ZERO_STATUS.contains(id)) {
      assertThat(zero.has("status")).as("%s serves /status: its empty object has a status", id).isTrue();
    }
    if (type.scaleSubresource().isPresent()) {
      assertThat(type.hasStatusSubresource()).as("/scale reads status.replicas").isTrue();
      assertThat(type.generationPolicy()).as("a scaled kind tracks its generation").isNotEqualTo(GenerationPolicy.NONE);
    }
    for (String label : type.fieldLabels().accepted()) {
      String path = type.fieldLabels().readPath(label);
      if (path != null && !path.equals("-") && !label.startsWith("metadata.")) {
        String top = path.split("[.|]")[0];
        assertThat(zero.has(top) || Set.of("type", "reason", "reportingComponent").contains(top))
            .as("field label %s of %s reads %s, a field of its empty object", label, id, path).isTrue();
      }
    }
    assertThat(type.namedSubresources()).extracting(NamedSubresource::name)
        .as("named subresources, in name order").isSorted().doesNotHaveDuplicates();
  }

  @Test
  void has_one_row_a_group_version_and_resource() {
    List<String> resources = BuiltinKinds.all().stream().map(t -> t.groupVersion() + "/" + t.plural()).toList();
    assertThat(resources).doesNotHaveDuplicates().hasSize(35);
  }

  @Test
  void hangs_every_described_go_type_from_some_kind() {
    // GIVEN: every Go type reachable from a row's root type
    Set<String> reached = new HashSet<>();
    Deque<PatchSchema> open = new ArrayDeque<>();
    BuiltinKinds.all().forEach(t -> open.add(PatchSchema.forType(t.goType().orElseThrow())));
    while (!open.isEmpty()) {
      PatchSchema schema = open.pop();
      if (!reached.add(schema.typeName())) {
        continue;
      }
      schema.fields().forEach(field -> open.add(schema.child(field)));
    }
    // THEN
    assertThat(reached).containsAll(PatchSchema.describedTypes());
  }

  @Test
  void serves_pod_resize_from_1_33() {
    ResourceType pod = BuiltinKinds.all().stream().filter(t -> t.kind().equals("Pod")).findFirst().orElseThrow();
    NamedSubresource resize = pod.namedSubresources().stream().filter(s -> s.name().equals("resize")).findFirst()
        .orElseThrow();
    assertThat(resize.servedIn().test(new KubeMinor(32))).isFalse();
    assertThat(resize.servedIn().test(new KubeMinor(33))).isTrue();
  }

  @Test
  void refuses_a_row_that_leaves_a_column_out() {
    assertThatThrownBy(() -> BuiltinKinds.kind("example.com", "v1", "widgets", "Widget").namespaced()
        .generation(GenerationPolicy.NONE).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the row of example.com/Widget in BuiltinKinds does not declare its status, admission, zero "
            + "object: every row says its scope, status, generation, admission and zero object");
  }
}
