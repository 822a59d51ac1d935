package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KubernetesVersionTest {

  @Test
  void parses_what_users_write() {
    assertThat(KubernetesVersion.parse("1.20")).contains(new KubernetesVersion(List.of(1, 20)));
    assertThat(KubernetesVersion.parse("v1.20.2")).contains(new KubernetesVersion(List.of(1, 20, 2)));
    assertThat(KubernetesVersion.parse("1.20.x")).contains(new KubernetesVersion(List.of(1, 20)));
    assertThat(KubernetesVersion.parse(" 1.* ")).contains(new KubernetesVersion(List.of(1)));
    assertThat(KubernetesVersion.parse("latest")).isEmpty();
    assertThat(KubernetesVersion.parse("1.20.2.1")).isEmpty();
  }

  @Test
  void a_wanted_version_matches_the_versions_it_is_a_prefix_of() {
    KubernetesVersion wanted = KubernetesVersion.parse("1.20").orElseThrow();

    assertThat(wanted.matches(KubernetesVersion.parse("1.20.2").orElseThrow())).isTrue();
    assertThat(wanted.matches(KubernetesVersion.parse("1.2.0").orElseThrow())).isFalse();
    assertThat(wanted.matches(KubernetesVersion.parse("1.21.0").orElseThrow())).isFalse();
    assertThat(wanted.matches(KubernetesVersion.parse("1").orElseThrow())).isFalse();
  }

  @Test
  void orders_numerically_and_prints_with_dots() {
    assertThat(KubernetesVersion.parse("1.9.0").orElseThrow())
        .isLessThan(KubernetesVersion.parse("1.20.0").orElseThrow());
    assertThat(KubernetesVersion.parse("1.20.10").orElseThrow())
        .isGreaterThan(KubernetesVersion.parse("1.20.9").orElseThrow())
        .hasToString("1.20.10");
  }

  @Test
  void finds_the_version_in_binary_output() {
    assertThat(KubernetesVersion.find("Kubernetes v1.20.2\n").map(Object::toString))
        .isEqualTo(Optional.of("1.20.2"));
    assertThat(KubernetesVersion.find("Kubernetes v1.31.0-rc.1").map(Object::toString))
        .isEqualTo(Optional.of("1.31.0"));
    assertThat(KubernetesVersion.find("no version here")).isEmpty();
  }
}
