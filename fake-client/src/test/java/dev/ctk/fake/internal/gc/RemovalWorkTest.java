package dev.ctk.fake.internal.gc;

import static dev.ctk.fake.internal.store.OwnedObjects.object;
import static dev.ctk.fake.internal.store.OwnedObjects.withOwners;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.controller.TimeSource;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.NameGenerator;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A removal gives the asynchronous collector work only when there is some (a dependent to collect, an owner waiting
 * for its dependents): the removal of an object nobody references wakes no thread. Whether a thread was woken is seen
 * while the test holds the store lock, so a started worker cannot finish before it is looked for.
 */
class RemovalWorkTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC);
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String THREAD = "removal-work-test-gc";

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry, new ObjectRules(new NameGenerator(7L), CLOCK), 100);
  private final ResourceType configMaps = registry.byPath("", "v1", "configmaps").orElseThrow();
  private final ResourceType secrets = registry.byPath("", "v1", "secrets").orElseThrow();
  private final GarbageCollector collector = GarbageCollector.attachTo(store,
      new CollectorSettings(GarbageCollection.ASYNCHRONOUS, TimeSource.system(), Duration.ZERO), THREAD);

  RemovalWorkTest() {
    store.create(registry.byPath("", "v1", "namespaces").orElseThrow(), null, object("default"), WriteOptions.API);
  }

  @AfterEach
  void closeCollector() {
    collector.close();
  }

  @Test
  void removalOfAnObjectNobodyReferences_wakesNoCollectorThread_anOwnersRemovalDoes() {
    String owner = create(configMaps, "owner");
    create(secrets, "dependent", owner);   // its owner check runs on the collector's thread
    create(configMaps, "plain");
    collector.awaitSettled(WAIT, "test");
    awaitNoCollectorThread();   // the worker ends a second after its last item

    store.inTransaction(() -> {
      delete(configMaps, "plain");
      assertThat(collectorThreadAlive()).as("a thread woken for the removal of an unreferenced object").isFalse();
      delete(configMaps, "owner");
      assertThat(collectorThreadAlive()).as("a thread woken to collect the owner's dependent").isTrue();
      return null;
    });
    collector.awaitSettled(WAIT, "test");

    assertThat(store.exists(secrets, "default", "dependent")).isFalse();
  }

  @Test
  void dependentThatNamesAnOwnerRemovedBefore_isStillCollected() {
    String owner = create(configMaps, "owner");
    delete(configMaps, "owner");   // nothing referenced it: no work then

    create(secrets, "late", owner);
    collector.awaitSettled(WAIT, "test");

    assertThat(store.exists(secrets, "default", "late")).as("a dependent of an owner that is gone").isFalse();
  }

  @Test
  void referenceToARemovedOwner_addedWhileTheDependentsCheckWaits_isStillCollected() {
    String first = create(configMaps, "owner");
    String removed = create(configMaps, "other");
    awaitNoCollectorThread();

    store.inTransaction(() -> {
      create(secrets, "busy", first);   // the collector's thread takes this one's check and waits for the lock
      create(secrets, "dependent", first);   // its check is queued behind
      delete(configMaps, "other");   // nothing references it: nothing is queued
      ObjectNode body = store.get(secrets, "default", "dependent").deepCopy();
      store.update(secrets, "default", "dependent", withOwners(body, removed), null, WriteOptions.API);
      return null;   // the update's own check is not queued twice: the queued one must see the new reference
    });
    collector.awaitSettled(WAIT, "test");

    assertThat(store.exists(secrets, "default", "dependent")).as("a dependent whose only owner is gone").isFalse();
    assertThat(store.exists(secrets, "default", "busy")).isTrue();
  }

  private static boolean collectorThreadAlive() {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
  }

  private static void awaitNoCollectorThread() {
    Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> !collectorThreadAlive());
  }

  private String create(ResourceType type, String name, String... owners) {
    return store.create(type, "default", object(name, owners), WriteOptions.API).path("metadata").path("uid")
        .asText();
  }

  private void delete(ResourceType type, String name) {
    store.delete(type, "default", name, DeletePreconditions.NONE, WriteOptions.API);
  }
}
