package dev.ctk.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

/**
 * The ConfigMaps every benchmark writes: name {@code cm-<n>} (zero-padded to 6 digits), one label
 * {@code ctk.dev/bench=true}, one data entry {@code key: value-<n>}. No namespace: the client's default applies.
 *
 * <pre>{@code
 * client.configMaps().resource(ConfigMaps.numbered(42)).create();   // cm-000042
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ConfigMaps {

  private ConfigMaps() {}

  /**
   * The name of the n-th ConfigMap.
   *
   * @param n its number
   * @return e.g. {@code cm-000042}
   */
  public static String name(int n) {
    return String.format("cm-%06d", n);
  }

  /**
   * A new n-th ConfigMap, not stored.
   *
   * @param n its number
   * @return the ConfigMap
   */
  public static ConfigMap numbered(int n) {
    return named(name(n), n);
  }

  /**
   * A new ConfigMap with that name, not stored.
   *
   * @param name its name
   * @param n the number in its data
   * @return the ConfigMap
   */
  public static ConfigMap named(String name, int n) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName(name).addToLabels("ctk.dev/bench", "true").endMetadata()
        .addToData("key", "value-" + n)
        .build();
  }
}
