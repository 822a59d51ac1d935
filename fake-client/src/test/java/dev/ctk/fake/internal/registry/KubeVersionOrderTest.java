package dev.ctk.fake.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KubeVersionOrderTest {

  @Test
  void sortsAsKubernetesPrioritizesVersions() {
    List<String> versions = new ArrayList<>(List.of("v1alpha1", "foo10", "v1beta1", "v11alpha2", "v2", "v1",
        "v12alpha1", "v3beta1", "v1beta2", "foo1", "v10", "v11beta2"));
    versions.sort(KubeVersionOrder.INSTANCE);
    assertThat(versions).containsExactly("v10", "v2", "v1", "v11beta2", "v3beta1", "v1beta2", "v1beta1",
        "v12alpha1", "v11alpha2", "v1alpha1", "foo1", "foo10");
  }
}
