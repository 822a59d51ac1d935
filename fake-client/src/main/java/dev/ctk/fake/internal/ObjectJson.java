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
 */
public final class ObjectJson {

  /**
   * One serialization for the whole JVM: building one warms Jackson up again (tens of milliseconds), which would
   * dominate a test's setup. A resource class registered with it (a client's {@code resources(MyResource.class)})
   * is therefore known to every cluster and client ctk makes in this JVM.
   */
  private static final KubernetesSerialization SHARED = new KubernetesSerialization();

  private final KubernetesSerialization serialization = SHARED;

  /** The serialization every ctk-made client and cluster in this JVM shares. */
  public static KubernetesSerialization shared() {
    return SHARED;
  }

  /** The object as a JSON tree (a fresh copy). */
  public ObjectNode toJson(HasMetadata object) {
    JsonNode node = serialization.convertValue(object, JsonNode.class);
    if (!(node instanceof ObjectNode objectNode)) {
      throw new IllegalArgumentException("not a Kubernetes object: " + object);
    }
    return objectNode;
  }

  /** The JSON tree as an instance of {@code type} (e.g. the class of the object a caller passed in). */
  public <T> T toObject(ObjectNode json, Class<T> type) {
    return serialization.convertValue(json, type);
  }

  /** The JSON tree as the fabric8 class registered for its apiVersion/kind, else a GenericKubernetesResource. */
  public HasMetadata toObject(ObjectNode json) {
    KubernetesResource resource = serialization.convertValue(json, KubernetesResource.class);
    if (resource instanceof HasMetadata hasMetadata) {
      return hasMetadata;
    }
    throw new IllegalArgumentException("not a Kubernetes object: " + json);
  }

  /** fabric8's serialization, for clients built by the fake. */
  public KubernetesSerialization serialization() {
    return serialization;
  }
}
