package dev.ctk.fake.internal.apply;

import static dev.ctk.fake.internal.apply.FieldSetTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Merging an applied configuration into a live object, and what is pruned, as kube's structured merge does it. */
class ApplyMergeTest {

  private static final FieldType POD = BuiltinTypes.forType("Pod");

  private static JsonNode merge(String live, String config) throws ApplyMerge.InvalidConfig {
    return ApplyMerge.merge(json(live), json(config), POD);
  }

  private static String containers(String... names) {
    StringBuilder out = new StringBuilder("{\"spec\":{\"containers\":[");
    for (int i = 0; i < names.length; i++) {
      out.append(i == 0 ? "" : ",").append("{\"name\":\"").append(names[i]).append("\"}");
    }
    return out.append("]}}").toString();
  }

  @Test
  void keyedItems_mergeByKey_liveItemsKeepTheirPlace_sharedItemsTakeTheConfigurationsOrder() throws Exception {
    assertThat(merge(containers("a", "b"), containers("b", "x"))).isEqualTo(json(containers("a", "b", "x")));
    assertThat(merge(containers("a", "b", "c"), containers("c", "a"))).isEqualTo(json(containers("b", "c", "a")));
    assertThat(merge("{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"1\",\"tty\":true}]}}",
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"2\"}]}}"))
        .isEqualTo(json("{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"2\",\"tty\":true}]}}"));
  }

  @Test
  void portsAreKeyedByPortAndProtocol_whichDefaultsToTcp() throws Exception {
    assertThat(merge("{\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[{\"containerPort\":80,\"protocol\":\"TCP\","
        + "\"name\":\"http\"},{\"containerPort\":80,\"protocol\":\"UDP\"}]}]}}",
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[{\"containerPort\":80,\"name\":\"web\"}]}]}}"))
        .isEqualTo(json("{\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[{\"containerPort\":80,"
            + "\"protocol\":\"TCP\",\"name\":\"web\"},{\"containerPort\":80,\"protocol\":\"UDP\"}]}]}}"));
  }

  @Test
  void setsUnite_atomicListsAndStructsAreReplaced() throws Exception {
    assertThat(merge("{\"metadata\":{\"finalizers\":[\"a\",\"b\"]},\"spec\":{\"tolerations\":[{\"key\":\"x\"}]}}",
        "{\"metadata\":{\"finalizers\":[\"c\",\"a\"]},\"spec\":{\"tolerations\":[{\"key\":\"y\"}]}}"))
        .isEqualTo(json("{\"metadata\":{\"finalizers\":[\"c\",\"a\",\"b\"]},\"spec\":{\"tolerations\":[{\"key\":\"y\"}]}}"));
    FieldType deployment = BuiltinTypes.forType("Deployment");
    assertThat(ApplyMerge.merge(json("{\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"1\",\"b\":\"2\"}}}}"),
        json("{\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"1\"}}}}"), deployment))
        .isEqualTo(json("{\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"1\"}}}}"));
  }

  @Test
  void nullClearsScalars_butLeavesMergeableObjectsAlone() throws Exception {
    assertThat(merge("{\"metadata\":{\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"spec\":{\"hostname\":\"h\"}}",
        "{\"metadata\":{\"labels\":null},\"spec\":{\"hostname\":null}}"))
        .isEqualTo(json("{\"metadata\":{\"labels\":{\"a\":\"1\",\"b\":\"2\"}}}"));
  }

  @Test
  void configurationItemsWithoutTheirKey_orTwice_areRefusedWithKubesText() {
    assertThatThrownBy(() -> merge("{}", "{\"spec\":{\"containers\":[{\"name\":\"a\"},{\"image\":\"x\"}]}}"))
        .isInstanceOf(ApplyMerge.InvalidConfig.class)
        .hasMessage(".spec.containers: element 1: associative list with keys has an element that omits key field "
            + "\"name\" (and doesn't have default value)");
    assertThatThrownBy(() -> merge("{}", containers("a", "a")))
        .hasMessage(".spec.containers: duplicate entries for key [name=\"a\"]");
    assertThatThrownBy(() -> merge("{}", "{\"metadata\":{\"finalizers\":[{\"a\":1}]}}"))
        .hasMessage(".metadata.finalizers: element 0: associative list without keys has an element that's a map type");
  }

  @Test
  void removal_dropsMembersWithEverythingBelow_andFieldsLeftEmpty() {
    JsonNode pod = json("{\"metadata\":{\"labels\":{\"a\":\"1\"}},\"spec\":{\"containers\":[{\"name\":\"a\"},"
        + "{\"name\":\"b\",\"image\":\"x\"}]}}");
    FieldSet remove = FieldSets.of(json("{\"metadata\":{\"labels\":{\"a\":\"1\"}},\"spec\":{\"containers\":"
        + "[{\"name\":\"b\"}]}}"), POD);

    assertThat(FieldSets.remove(pod, remove, POD)).isEqualTo(json("{\"spec\":{\"containers\":[{\"name\":\"a\"}]}}"));
  }

  @Test
  void conflictsMessage_groupsFieldsByManager() {
    ApplyConflicts one = ApplyConflicts.of(java.util.Map.of(
        ManagedFields.EntryKey.updater("kubectl-client-side-apply", "apps/v1", ""),
        FieldSets.of(json("{\"spec\":{\"replicas\":1}}"), POD)));
    assertThat(one.message()).isEqualTo(
        "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");

    java.util.Map<ManagedFields.EntryKey, FieldSet> two = new java.util.LinkedHashMap<>();
    two.put(ManagedFields.EntryKey.updater("z", "v1", "status"), FieldSets.of(json("{\"status\":{\"phase\":1}}"), POD));
    two.put(ManagedFields.EntryKey.applier("a", ""), FieldSets.of(json("{\"spec\":{\"a\":1,\"b\":2}}"), POD));
    assertThat(ApplyConflicts.of(two).message()).isEqualTo("Apply failed with 3 conflicts: conflicts with \"a\":\n"
        + "- .spec.a\n- .spec.b\nconflicts with \"z\" with subresource \"status\" using v1:\n- .status.phase");
  }
}
