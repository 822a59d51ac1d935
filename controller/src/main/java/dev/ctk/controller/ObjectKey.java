package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The key of a Kubernetes object in a work queue: {@code namespace/name}, or just {@code name} for a
 * cluster-scoped object (then {@link #namespace()} is {@code null}).
 *
 * <pre>{@code
 * ObjectKey key = ObjectKey.of("default", "web");   // "default/web"
 * ObjectKey node = ObjectKey.parse("node-1");        // cluster-scoped, namespace() == null
 * ObjectKey same = ObjectKey.of(configMap);          // from the object's metadata
 * }</pre>
 *
 * @param namespace the namespace, or {@code null} for a cluster-scoped object (an empty string is
 *     taken as {@code null})
 * @param name the name; never empty, never contains {@code '/'}
 * @since 0.1.0
 */
public record ObjectKey(String namespace, String name) {

  /**
   * Validates and normalises the parts.
   *
   * @param namespace the namespace, or {@code null} (or empty) for a cluster-scoped object
   * @param name the name
   * @throws IllegalArgumentException if the name is null or empty, or a part contains {@code '/'}
   */
  public ObjectKey {
    if (namespace != null && namespace.isEmpty()) {
      namespace = null;
    }
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("Invalid object key: the name is "
          + (name == null ? "null" : "empty") + " (namespace " + quoteOrNull(namespace)
          + "). Every object key needs a name.");
    }
    if (name.indexOf('/') >= 0 || (namespace != null && namespace.indexOf('/') >= 0)) {
      throw new IllegalArgumentException("Invalid object key: namespace " + quoteOrNull(namespace)
          + ", name \"" + name + "\": neither part may contain '/'. To read a \"namespace/name\" "
          + "string use ObjectKey.parse(..).");
    }
  }

  /**
   * The key of an object, from its {@code metadata.namespace} and {@code metadata.name}.
   *
   * @param object an object with a name
   * @return its key
   * @throws IllegalArgumentException if the object has no metadata or no name
   */
  public static ObjectKey of(HasMetadata object) {
    if (object == null) {
      throw new IllegalArgumentException("Cannot make an object key of null: expected a Kubernetes "
          + "object with metadata.name.");
    }
    ObjectMeta metadata = object.getMetadata();
    if (metadata == null || metadata.getName() == null || metadata.getName().isEmpty()) {
      String what = object.getKind() == null ? "an object" : "a " + object.getKind();
      throw new IllegalArgumentException("Cannot make an object key of " + what
          + " without metadata.name" + (metadata != null && metadata.getGenerateName() != null
              ? " (generateName \"" + metadata.getGenerateName() + "\" gets a name only when the "
                  + "API server creates the object)"
              : "")
          + ". Use the object as the API server returned it.");
    }
    return new ObjectKey(metadata.getNamespace(), metadata.getName());
  }

  /**
   * A key from its parts.
   *
   * @param namespace the namespace, or {@code null} (or empty) for a cluster-scoped object
   * @param name the name
   * @return the key
   */
  public static ObjectKey of(String namespace, String name) {
    return new ObjectKey(namespace, name);
  }

  /**
   * Reads a key written as {@code "namespace/name"} or {@code "name"}, the form {@link #toString()}
   * writes.
   *
   * @param key the text
   * @return the key
   * @throws IllegalArgumentException if the text is null, empty, has an empty part or more than one
   *     {@code '/'}
   */
  public static ObjectKey parse(String key) {
    if (key != null && !key.isEmpty()) {
      int slash = key.indexOf('/');
      if (slash < 0) {
        return new ObjectKey(null, key);
      }
      if (slash > 0 && slash < key.length() - 1 && key.indexOf('/', slash + 1) < 0) {
        return new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
      }
    }
    throw new IllegalArgumentException("Invalid object key " + quoteOrNull(key)
        + ": expected \"namespace/name\", or \"name\" for a cluster-scoped object, with non-empty "
        + "parts and at most one '/'.");
  }

  /**
   * Whether this is the key of a cluster-scoped object.
   *
   * @return {@code true} when there is no namespace
   */
  public boolean isClusterScoped() {
    return namespace == null;
  }

  /**
   * {@code "namespace/name"}, or {@code "name"} for a cluster-scoped object.
   *
   * @return the key as text, readable by {@link #parse(String)}
   */
  @Override
  public String toString() {
    return namespace == null ? name : namespace + "/" + name;
  }

  private static String quoteOrNull(String text) {
    return text == null ? "null" : "\"" + text + "\"";
  }
}
