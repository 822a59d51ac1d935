package dev.ctk.fake.internal.store;

import static dev.ctk.fake.internal.store.OwnedObjects.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.apply.ApplyRequest;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.watch.WatchFilter;
import dev.ctk.fake.internal.watch.WatchSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every write that can commit a change tells its collection's watches before the change's event
 * ({@link WatchSink#expectEvent}), so that an in-process watch can wake its delivery thread while the write works;
 * a dryRun write and a write on another collection do not.
 */
class ExpectedEventsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC);

  /** Records "expect N" for each expectEvent (N watches told) and "TYPE name" for each event, in order. */
  private static final class Recording implements WatchSink {
    final List<String> seen = new ArrayList<>();

    @Override
    public void send(String eventJson) {
      try {
        var event = JSON.readTree(eventJson);
        seen.add(event.path("type").asText() + " " + event.path("object").path("metadata").path("name").asText());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void expectEvent(int watchesTold) {
      seen.add("expect " + watchesTold);
    }

    @Override
    public void close() {
    }
  }

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry, new ObjectRules(new NameGenerator(7L), CLOCK), 100);
  private final ResourceType namespaces = registry.byPath("", "v1", "namespaces").orElseThrow();
  private final ResourceType configMaps = registry.byPath("", "v1", "configmaps").orElseThrow();
  private final ResourceType secrets = registry.byPath("", "v1", "secrets").orElseThrow();

  @Test
  void everyWriteThatCanCommit_tellsTheCollectionsWatchesBeforeItsEvent() {
    store.create(namespaces, null, object("default"), WriteOptions.API);
    Recording sink = watchConfigMaps();

    store.create(configMaps, "default", object("a"), WriteOptions.API);
    ObjectNode replaced = store.get(configMaps, "default", "a").deepCopy();
    ((ObjectNode) replaced.get("metadata")).putObject("labels").put("tier", "web");
    store.update(configMaps, "default", "a", replaced, null, WriteOptions.API);
    store.patch(configMaps, "default", "a", null, copy -> {
      copy.putObject("data").put("k", "v");
      return copy;
    }, WriteOptions.API);
    store.apply(configMaps, "default", "b", null, new ApplyRequest(applied("b"), "tester", false), WriteOptions.API);
    store.delete(configMaps, "default", "a", DeletePreconditions.NONE, WriteOptions.API);
    store.deleteCollection(configMaps, "default", LabelSelector.everything(), FieldSelector.everything(),
        WriteOptions.API);

    assertThat(sink.seen).containsExactly("expect 1", "ADDED a", "expect 1", "MODIFIED a", "expect 1", "MODIFIED a",
        "expect 1", "ADDED b", "expect 1", "DELETED a", "expect 1", "DELETED b");
  }

  @Test
  void aDryRunWrite_aWriteOnAnotherCollection_andOneInAnotherNamespace_tellNoWatch() {
    store.create(namespaces, null, object("default"), WriteOptions.API);
    store.create(namespaces, null, object("other"), WriteOptions.API);
    Recording sink = watchConfigMaps("default");

    store.create(configMaps, "default", object("a"), WriteOptions.DRY_RUN);
    store.create(secrets, "default", object("s"), WriteOptions.API);
    store.create(configMaps, "other", object("b"), WriteOptions.API);

    assertThat(sink.seen).isEmpty();
  }

  @Test
  void aWriteOnEveryNamespace_tellsANamespacesWatch() {
    store.create(namespaces, null, object("default"), WriteOptions.API);
    store.create(configMaps, "default", object("a"), WriteOptions.API);
    Recording sink = watchConfigMaps("default");

    store.deleteCollection(configMaps, null, LabelSelector.everything(), FieldSelector.everything(),
        WriteOptions.API);

    assertThat(sink.seen).containsExactly("expect 1", "DELETED a");
  }

  @Test
  void everyWatchToldOfAWrite_isToldHowManyAreTold() {
    store.create(namespaces, null, object("default"), WriteOptions.API);
    store.create(namespaces, null, object("other"), WriteOptions.API);
    Recording everywhere = watchConfigMaps();
    Recording inDefault = watchConfigMaps("default");
    Recording inOther = watchConfigMaps("other");

    store.create(configMaps, "default", object("a"), WriteOptions.API);

    assertThat(everywhere.seen).containsExactly("expect 2", "ADDED a");
    assertThat(inDefault.seen).containsExactly("expect 2", "ADDED a");
    assertThat(inOther.seen).isEmpty();
  }

  private Recording watchConfigMaps() {
    return watchConfigMaps(null);
  }

  private Recording watchConfigMaps(String namespace) {
    Recording sink = new Recording();
    store.watch(configMaps, new WatchFilter(configMaps.storageKey(), namespace, LabelSelector.everything(),
        FieldSelector.everything()), new WatchStart(store.resourceVersion(), false), sink);
    return sink;
  }

  private static ObjectNode applied(String name) {
    ObjectNode config = JSON.createObjectNode();
    config.put("apiVersion", "v1").put("kind", "ConfigMap");
    config.putObject("metadata").put("name", name).put("namespace", "default");
    config.putObject("data").put("k", "v");
    return config;
  }
}
