package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.CrdRegistration;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.watch.WatchHub;
import java.util.List;
import java.util.function.Consumer;

/**
 * What kube-apiserver's apiextensions controllers do when a CustomResourceDefinition is written, done
 * synchronously inside the same store transaction:
 *
 * <ul>
 *   <li>create/update: validate names, mark {@code NamesAccepted} and {@code Established} (so the stored CRD is
 *       already established when its ADDED event goes out) and (re)register every served version; a created CRD
 *       starts its kind's watch window at its own resourceVersion ({@link WatchHub#startWindow}), as kube's watch
 *       cache of the kind starts when the CRD is established (kube also restarts it when the CRD's spec changes;
 *       the fake does not);
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
  private final WatchHub hub;

  CrdLifecycle(ResourceRegistry registry, ObjectRules rules, WatchHub hub) {
    this.registry = registry;
    this.rules = rules;
    this.hub = hub;
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
      String name = crd.path("metadata").path("name").asText();
      boolean created = registry.typesOfCrd(name).isEmpty();
      List<ResourceType> types = CrdRegistration.typesOf(crd);
      registry.registerCrd(name, types);
      if (created && !types.isEmpty()) {
        hub.startWindow(types.get(0).storageKey(), crd.path("metadata").path("resourceVersion").asLong());
      }
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
      registry.unregisterCrd(crd.path("metadata").path("name").asText()).stream().findFirst()
          .ifPresent(removed -> hub.endWindow(removed.storageKey()));
    }
  }

  static boolean isCrd(ResourceType type) {
    return type.group().equals("apiextensions.k8s.io") && type.plural().equals("customresourcedefinitions");
  }
}
