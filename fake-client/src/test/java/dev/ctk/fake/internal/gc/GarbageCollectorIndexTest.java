package dev.ctk.fake.internal.gc;

import static dev.ctk.fake.internal.store.OwnedObjects.object;
import static dev.ctk.fake.internal.store.OwnedObjects.withOwners;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.controller.TimeSource;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.NameGenerator;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * The collector finds dependents and a namespace's content through the store's indexes: references added, removed
 * or moved after the dependent was created count as they are now, and a namespace deletion empties that namespace
 * only.
 */
class GarbageCollectorIndexTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC);

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry, new ObjectRules(new NameGenerator(7L), CLOCK), 100);
  private final ResourceType namespaces = registry.byPath("", "v1", "namespaces").orElseThrow();
  private final ResourceType configMaps = registry.byPath("", "v1", "configmaps").orElseThrow();
  private final ResourceType secrets = registry.byPath("", "v1", "secrets").orElseThrow();
  /** The names of the objects create made, by uid. */
  private final Map<String, String> names = new HashMap<>();

  GarbageCollectorIndexTest() {
    GarbageCollector.attachTo(store, new CollectorSettings(GarbageCollection.SYNCHRONOUS, TimeSource.system(),
        Duration.ZERO), "test-gc");
    store.create(namespaces, null, object("default"), WriteOptions.API);
  }

  @Test
  void referenceAddedByUpdate_dependentGoesWithItsOwner() {
    String owner = create(configMaps, "owner");
    create(secrets, "dependent");
    ObjectNode body = store.get(secrets, "default", "dependent").deepCopy();
    store.update(secrets, "default", "dependent", named(withOwners(body, owner)), null, WriteOptions.API);

    delete(configMaps, "owner");

    assertThat(store.exists(secrets, "default", "dependent")).isFalse();
  }

  @Test
  void referenceRemovedByPatch_dependentStays() {
    String owner = create(configMaps, "owner");
    create(secrets, "dependent", owner);
    store.patch(secrets, "default", "dependent", null, copy -> withOwners(copy), WriteOptions.API);

    delete(configMaps, "owner");

    assertThat(store.exists(secrets, "default", "dependent")).isTrue();
  }

  @Test
  void referenceMovedToAnotherOwner_dependentGoesWithTheNewOwnerOnly() {
    String first = create(configMaps, "first");
    String second = create(configMaps, "second");
    create(secrets, "dependent", first);
    store.patch(secrets, "default", "dependent", null, copy -> named(withOwners(copy, second)),
        WriteOptions.API);

    delete(configMaps, "first");
    assertThat(store.exists(secrets, "default", "dependent")).isTrue();

    delete(configMaps, "second");
    assertThat(store.exists(secrets, "default", "dependent")).isFalse();
  }

  @Test
  void ownerDeletedAndRecreatedUnderTheSameName_oldDependentsDoNotFollowTheNewOne() {
    String old = create(configMaps, "owner");
    create(secrets, "dependent", old);
    delete(configMaps, "owner");
    assertThat(store.exists(secrets, "default", "dependent")).isFalse();
    String renewed = create(configMaps, "owner");
    create(secrets, "dependent", renewed);
    create(secrets, "kept");

    delete(configMaps, "owner");

    assertThat(store.exists(secrets, "default", "dependent")).isFalse();
    assertThat(store.exists(secrets, "default", "kept")).isTrue();
  }

  @Test
  void referenceToTheUidOfADeletedOwner_isDangling_evenWhenTheNameIsBack() {
    String old = create(configMaps, "owner");
    delete(configMaps, "owner");
    create(configMaps, "owner");

    create(secrets, "stale", old);

    assertThat(store.exists(secrets, "default", "stale")).as("ConfigMap owner exists, with another uid").isFalse();
  }

  @Test
  void foregroundDeletion_chainOfDependents_ownerGoesLast() {
    String top = create(configMaps, "top");
    String middle = create(configMaps, "middle", top);
    create(secrets, "leaf", middle);

    store.delete(configMaps, "default", "top", DeletePreconditions.NONE, WriteOptions.API,
        PropagationPolicy.FOREGROUND);

    assertThat(store.objectsIn("default")).isEmpty();
    assertThat(store.dependentsOf(top)).isEmpty();
    assertThat(store.dependentsOf(middle)).isEmpty();
  }

  @Test
  void namespaceDeletion_emptiesThatNamespaceOnly_thenRemovesIt() {
    for (String ns : new String[] {"team", "team-b", "teams"}) {
      store.create(namespaces, null, object(ns), WriteOptions.API);
      store.create(configMaps, ns, object("config"), WriteOptions.API);
      store.create(secrets, ns, object("secret"), WriteOptions.API);
    }

    store.delete(namespaces, null, "team", DeletePreconditions.NONE, WriteOptions.API);

    assertThat(store.exists(namespaces, null, "team")).isFalse();
    assertThat(store.hasObjectsIn("team")).isFalse();
    assertThat(store.objectsIn("team-b")).hasSize(2);
    assertThat(store.objectsIn("teams")).hasSize(2);
    assertThat(store.exists(namespaces, null, "team-b")).isTrue();
  }

  @Test
  void namespaceDeletion_waitsForAnObjectHeldByAFinalizer() {
    store.create(namespaces, null, object("team"), WriteOptions.API);
    ObjectNode held = object("held");
    ((ObjectNode) held.get("metadata")).putArray("finalizers").add("example.com/hold");
    store.create(configMaps, "team", held, WriteOptions.API);

    store.delete(namespaces, null, "team", DeletePreconditions.NONE, WriteOptions.API);
    assertThat(store.exists(namespaces, null, "team")).as("Terminating while the ConfigMap is held").isTrue();

    store.patch(configMaps, "team", "held", null, copy -> {
      ((ObjectNode) copy.get("metadata")).remove("finalizers");
      return copy;
    }, WriteOptions.API);

    assertThat(store.exists(configMaps, "team", "held")).isFalse();
    assertThat(store.exists(namespaces, null, "team")).isFalse();
  }

  private String create(ResourceType type, String name, String... owners) {
    String uid = store.create(type, "default", named(object(name, owners)), WriteOptions.API).path("metadata")
        .path("uid").asText();
    names.put(uid, name);
    return uid;
  }

  /** The object with each owner reference naming its owner (every owner here is a ConfigMap made by create). */
  private ObjectNode named(ObjectNode object) {
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      ((ObjectNode) ref).put("name", names.getOrDefault(ref.path("uid").asText(), "owner"));
    }
    return object;
  }

  private void delete(ResourceType type, String name) {
    store.delete(type, "default", name, DeletePreconditions.NONE, WriteOptions.API);
  }
}
