package dev.ctk.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObservationTest {

  private final Observation observation = new Observation("ctk-contract-x7k2p");

  @Test
  void should_normalize_namespace_uid_and_timestamps_and_sort_json_fields() throws Exception {
    observation.record("text", "configmaps \"web\" in ctk-contract-x7k2p, uid 6a1e5c3e-0000-4000-8000-000000000000"
        + " at 2026-11-22T03:30:08Z");
    observation.record("json", new ObjectMapper().readTree("{\"z\":1,\"a\":{\"y\":[2,{\"c\":3,\"b\":4}],\"x\":null}}"));
    observation.record("list", List.of("a", 1));
    observation.record("absent", null);

    assertThat(observation.values()).containsExactly(
        java.util.Map.entry("text", "configmaps \"web\" in <ns>, uid <uid> at <time>"),
        java.util.Map.entry("json", "{\"a\":{\"x\":null,\"y\":[2,{\"b\":4,\"c\":3}]},\"z\":1}"),
        java.util.Map.entry("list", "[a, 1]"),
        java.util.Map.entry("absent", "<absent>"));
  }

  @Test
  void should_list_unmet_expectations_with_expected_and_actual() {
    observation.check("code", 409, "409").check("reason", "Conflict", "AlreadyExists");

    assertThat(observation.unmetExpectations()).containsExactly(
        "reason:\n      expected: AlreadyExists\n      but was:  Conflict");
  }

  @Test
  void should_fail_when_a_key_is_recorded_twice() {
    observation.record("code", 200);

    assertThatThrownBy(() -> observation.check("code", 201, 201))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("observation key \"code\" is recorded twice in one scenario; give each value its own name");
  }

  @Test
  void should_relate_resource_versions_and_shape_generated_names_and_ips() {
    assertThat(List.of(Observation.order("9", "10"), Observation.order("10", "10"), Observation.order("10", "9"),
        Observation.order(null, "1"))).containsExactly("increased", "same", "decreased", "missing (null -> 1)");
    assertThat(Observation.generatedName("web-", "web-x7k2p")).isEqualTo("web-<5 kube chars>");
    assertThat(Observation.generatedName("web-", "web-a1b2c")).isEqualTo("web-a1b2c");
    assertThat(Observation.ip("10.96.0.17")).isEqualTo("<IPv4>");
    assertThat(Observation.ip("None")).isEqualTo("None");
    assertThat(Observation.withoutIps("[]string{\"10.0.0.99\"}")).isEqualTo("[]string{\"<IPv4>\"}");
  }
}
