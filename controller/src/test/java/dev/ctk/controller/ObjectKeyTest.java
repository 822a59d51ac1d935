package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ObjectKeyTest {

  @Test
  void a_namespaced_key_reads_and_writes_namespace_slash_name() {
    ObjectKey key = ObjectKey.parse("default/web");

    assertThat(key).isEqualTo(ObjectKey.of("default", "web"));
    assertThat(key.namespace()).isEqualTo("default");
    assertThat(key.name()).isEqualTo("web");
    assertThat(key.isClusterScoped()).isFalse();
    assertThat(key).hasToString("default/web");
  }

  @Test
  void a_cluster_scoped_key_is_just_the_name() {
    ObjectKey key = ObjectKey.parse("node-1");

    assertThat(key.namespace()).isNull();
    assertThat(key.isClusterScoped()).isTrue();
    assertThat(key).hasToString("node-1").isEqualTo(ObjectKey.of("", "node-1"));
  }

  @Test
  void the_key_of_an_object_comes_from_its_metadata() {
    assertThat(ObjectKey.of(new ConfigMapBuilder().withNewMetadata().withNamespace("ns")
        .withName("cm").endMetadata().build())).isEqualTo(ObjectKey.of("ns", "cm"));
    assertThat(ObjectKey.of(new NamespaceBuilder().withNewMetadata().withName("ns").endMetadata()
        .build())).isEqualTo(ObjectKey.of(null, "ns"));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"/web", "default/", "a/b/c", "/"})
  void parse_rejects_malformed_keys(String text) {
    String shown = text == null ? "null" : "\"" + text + "\"";
    assertThatThrownBy(() -> ObjectKey.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid object key " + shown + ": expected \"namespace/name\", or \"name\" "
            + "for a cluster-scoped object, with non-empty parts and at most one '/'.");
  }

  @Test
  void a_key_needs_a_name() {
    assertThatThrownBy(() -> ObjectKey.of("default", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid object key: the name is empty (namespace \"default\"). Every object "
            + "key needs a name.");
  }

  @Test
  void parts_may_not_contain_a_slash() {
    assertThatThrownBy(() -> ObjectKey.of("default", "a/b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid object key: namespace \"default\", name \"a/b\": neither part may "
            + "contain '/'. To read a \"namespace/name\" string use ObjectKey.parse(..).");
  }

  @Test
  void an_object_without_a_name_has_no_key() {
    assertThatThrownBy(() -> ObjectKey.of(new ConfigMapBuilder().withNewMetadata()
        .withGenerateName("web-").endMetadata().build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make an object key of a ConfigMap without metadata.name (generateName "
            + "\"web-\" gets a name only when the API server creates the object). Use the object "
            + "as the API server returned it.");
  }
}
