package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;

/**
 * A stored object with its resource type (read-only: the store's own tree).
 *
 * @param type the resource type
 * @param object the object as stored
 */
public record StoredObject(ResourceType type, ObjectNode object) {

  /** {@code metadata.namespace}, or {@code null} for a cluster-scoped object. */
  public String namespace() {
    return type.namespaced() ? object.path("metadata").path("namespace").asText(null) : null;
  }

  /** {@code metadata.name}. */
  public String name() {
    return object.path("metadata").path("name").asText();
  }

  /** {@code metadata.uid}. */
  public String uid() {
    return object.path("metadata").path("uid").asText();
  }
}
