package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlagListTest {

  @Test
  void a_later_flag_replaces_one_of_the_same_name_in_place() {
    assertThat(
            FlagList.merge(
                List.of("--v=0", "--authorization-mode=RBAC", "--allow-privileged=true"),
                List.of("--v=4", "--feature-gates=A=true", "--v=6")))
        .containsExactly(
            "--v=6", "--authorization-mode=RBAC", "--allow-privileged=true", "--feature-gates=A=true");
  }

  @Test
  void the_name_is_the_part_before_the_first_equals_sign() {
    assertThat(FlagList.nameOf("--feature-gates=A=true")).isEqualTo("--feature-gates");
    assertThat(FlagList.nameOf("--profiling")).isEqualTo("--profiling");
  }

  @Test
  void refuses_malformed_and_owned_flags() {
    Map<String, String> owned = Map.of("--data-dir", "ctk owns it.");

    assertThatThrownBy(() -> FlagList.check("withEtcdFlags", List.of("--"), owned))
        .hasMessage(
            "withEtcdFlags(..): \"--\" is not a flag. Pass each flag as one string --name=value,"
                + " e.g. --v=4.");
    assertThatThrownBy(() -> FlagList.check("withEtcdFlags", List.of("-v=4"), owned))
        .hasMessageStartingWith("withEtcdFlags(..): \"-v=4\" is not a flag.");
    assertThatThrownBy(() -> FlagList.check("withEtcdFlags", List.of("--data-dir=/x"), owned))
        .hasMessage("withEtcdFlags(..): --data-dir is set by ctk and cannot be changed: ctk owns it.");
    FlagList.check("withEtcdFlags", List.of("--quota-backend-bytes=1"), owned);
  }
}
