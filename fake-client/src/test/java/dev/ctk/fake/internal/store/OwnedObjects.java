package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;

/**
 * Test bodies for the store's owner index: an object with a name and optional ownerReferences.
 *
 * <pre>{@code
 * store.create(configMaps, "default", OwnedObjects.object("dependent", ownerUid), WriteOptions.API);
 * }</pre>
 */
public final class OwnedObjects {

  private static final ObjectMapper JSON = new ObjectMapper();

  private OwnedObjects() {
  }

  /** A body with {@code metadata.name} and one ownerReference per uid. */
  public static ObjectNode object(String name, String... ownerUids) {
    ObjectNode object = JSON.createObjectNode();
    object.putObject("metadata").put("name", name);
    return withOwners(object, ownerUids);
  }

  /** Replaces the object's ownerReferences by one per uid (none: removes them). */
  public static ObjectNode withOwners(ObjectNode object, String... ownerUids) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    meta.remove("ownerReferences");
    if (ownerUids.length > 0) {
      ArrayNode refs = meta.putArray("ownerReferences");
      for (String uid : ownerUids) {
        refs.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "owner").put("uid", uid);
      }
    }
    return object;
  }
}
