package dev.ctk.fake.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Converts between fabric8 objects (typed model classes and {@code GenericKubernetesResource}) and the JSON trees
 * the store keeps, with fabric8's own serialization (so quantities, int-or-strings and additional properties keep
 * their wire form).
 *
 * <p>Every instance uses one private serialization, made once per JVM (making one warms Jackson up, tens of
 * milliseconds). It is never handed to a client: the clients ctk hands out share another one, so a mapper setting
 * or a resource class registered through a client does not change the fake's own conversions.
 */
public final class ObjectJson {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** The object as a JSON tree (a fresh copy). */
  public ObjectNode toJson(HasMetadata object) {
    JsonNode node = SERIALIZATION.convertValue(object, JsonNode.class);
    if (!(node instanceof ObjectNode objectNode)) {
      throw new IllegalArgumentException("not a Kubernetes object: " + object);
    }
    return objectNode;
  }

  /** The JSON tree as an instance of {@code type} (e.g. the class of the object a caller passed in). */
  public <T> T toObject(ObjectNode json, Class<T> type) {
    return SERIALIZATION.convertValue(json, type);
  }

  /** The JSON tree as the fabric8 class registered for its apiVersion/kind, else a GenericKubernetesResource. */
  public HasMetadata toObject(ObjectNode json) {
    KubernetesResource resource = SERIALIZATION.convertValue(json, KubernetesResource.class);
    if (resource instanceof HasMetadata hasMetadata) {
      return hasMetadata;
    }
    throw new IllegalArgumentException("not a Kubernetes object: " + json);
  }
}
