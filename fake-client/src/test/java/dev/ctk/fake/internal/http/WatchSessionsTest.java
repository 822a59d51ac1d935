package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.store.NameGenerator;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.WatchStart;
import dev.ctk.fake.internal.watch.WatchFilter;
import dev.ctk.fake.internal.watch.WatchSink;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A watch opened as the transports open it passes a write's expected event on to the transport's sink. */
class WatchSessionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Records "expect N" for each expected event and "event" for each event. */
  private static final class Recording implements WatchSink {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void send(String eventJson) {
      seen.add("event");
    }

    @Override
    public void expectEvent(int watchesTold) {
      seen.add("expect " + watchesTold);
    }

    @Override
    public void close() {
    }
  }

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store = new ObjectStore(registry,
      new ObjectRules(new NameGenerator(7L), Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.UTC)), 100);

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  @Test
  void aWriteOnTheWatchedCollection_reachesTheTransportsSinkAsAnExpectedEvent_beforeTheEvent() {
    ResourceType namespaces = registry.byPath("", "v1", "namespaces").orElseThrow();
    ResourceType configMaps = registry.byPath("", "v1", "configmaps").orElseThrow();
    store.create(namespaces, null, named("default"), WriteOptions.API);
    Recording sink = new Recording();
    WatchFilter all = new WatchFilter(configMaps.storageKey(), null, LabelSelector.everything(),
        FieldSelector.everything());
    WatchSessions.open(timer, store, new PreparedWatch(configMaps, all, new WatchStart(store.resourceVersion(), false),
        null, false), sink);

    store.create(configMaps, "default", named("a"), WriteOptions.API);

    assertThat(sink.seen).containsExactly("expect 1", "event");
  }

  private static ObjectNode named(String name) {
    ObjectNode object = JSON.createObjectNode();
    object.putObject("metadata").put("name", name);
    return object;
  }
}
