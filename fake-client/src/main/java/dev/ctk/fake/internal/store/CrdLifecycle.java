package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.CrdRegistration;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.List;
import java.util.function.Consumer;

/**
 * What kube-apiserver's apiextensions controllers do when a CustomResourceDefinition is written, done
 * synchronously inside the same store transaction:
 *
 * <ul>
 *   <li>create/update: validate names, mark {@code NamesAccepted} and {@code Established} (so the stored CRD is
 *       already established when its ADDED event goes out) and (re)register every served version;
 *   <li>removal: delete every object of the kind (one DELETED event each), then unregister the kind, so later
 *       requests for it answer 404.
 * </ul>
 *
 * <p>Unlike a real server there is no {@code customresourcecleanup.apiextensions.k8s.io} finalizer and no
 * Terminating phase: cleanup happens when the CRD is removed.
 */
final class CrdLifecycle {

  private final ResourceRegistry registry;
  private final ObjectRules rules;

  CrdLifecycle(ResourceRegistry registry, ObjectRules rules) {
    this.registry = registry;
    this.rules = rules;
  }

  void beforeCreate(ResourceType type, ObjectNode crd) {
    if (isCrd(type)) {
      CrdRegistration.typesOf(crd);
      CrdRegistration.markEstablished(crd, rules.now());
    }
  }

  void beforeUpdate(ResourceType type, ObjectNode current, ObjectNode next) {
    if (isCrd(type)) {
      CrdRegistration.typesOf(next);
      if (!next.path("status").has("conditions")) {
        CrdRegistration.markEstablished(next, current.path("status").path("conditions").path(0)
            .path("lastTransitionTime").asText(rules.now()));
      }
    }
  }

  void afterWrite(ResourceType type, ObjectNode crd) {
    if (isCrd(type)) {
      registry.registerCrd(crd.path("metadata").path("name").asText(), CrdRegistration.typesOf(crd));
    }
  }

  void beforeRemove(ResourceType type, ObjectNode crd, Consumer<ResourceType> removeAll) {
    if (isCrd(type)) {
      List<ResourceType> types = registry.typesOfCrd(crd.path("metadata").path("name").asText());
      if (!types.isEmpty()) {
        removeAll.accept(types.get(0));
      }
    }
  }

  void afterRemove(ResourceType type, ObjectNode crd) {
    if (isCrd(type)) {
      registry.unregisterCrd(crd.path("metadata").path("name").asText());
    }
  }

  static boolean isCrd(ResourceType type) {
    return type.group().equals("apiextensions.k8s.io") && type.plural().equals("customresourcedefinitions");
  }
}
