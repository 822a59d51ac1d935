package dev.ctk.fake.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.FrozenObject;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.store.StoredNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatchHubTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "/configmaps";

  /** A sink that keeps what it was sent. */
  private static final class Recording implements WatchSink {
    final List<String> lines = new ArrayList<>();
    boolean closed;

    @Override
    public void send(String eventJson) {
      lines.add(eventJson);
    }

    @Override
    public void close() {
      closed = true;
    }

    List<String> summary() {
      List<String> out = new ArrayList<>();
      for (String line : lines) {
        JsonNode e = read(line);
        out.add(e.path("type").asText() + " " + e.path("object").path("metadata").path("name").asText()
            + e.path("object").path("message").asText(""));
      }
      return out;
    }
  }

  @Test
  void replaysRetainedHistoryAfterResourceVersion_thenLive() {
    WatchHub hub = new WatchHub(3, 0);
    for (int rv = 1; rv <= 4; rv++) {
      hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm" + rv, rv), null, rv));
    }
    assertThat(hub.historyStart()).isEqualTo(1);
    Recording sink = new Recording();
    Watch watch = hub.openFrom(2, 4, filter(), "v1", sink);
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm5", 5), null, 5));
    hub.publish(new WatchEvent("apps/deployments", WatchEvent.ADDED, object("other", 6), null, 6));

    assertThat(sink.summary()).containsExactly("ADDED cm3", "ADDED cm4", "ADDED cm5");
    watch.close();
    assertThat(sink.closed).isTrue();
    assertThat(hub.openWatches()).isEmpty();
  }

  @Test
  void tooOldResourceVersion_sendsExpiredErrorAndCloses() {
    WatchHub hub = new WatchHub(2, 0);
    for (int rv = 1; rv <= 5; rv++) {
      hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm" + rv, rv), null, rv));
    }
    Recording sink = new Recording();
    Watch watch = hub.openFrom(2, 5, filter(), "v1", sink);
    assertThat(watch.isClosed()).isTrue();
    assertThat(sink.closed).isTrue();
    assertThat(read(sink.lines.get(0))).isEqualTo(read("""
        {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"too old resource version: 2 (3)","reason":"Expired","code":410}}"""));
    assertThat(hub.openFrom(3, 5, filter(), "v1", new Recording()).isClosed()).isFalse();
  }

  @Test
  void synthetic_reachesOnlyMatchingOpenWatches_andIsNotRecorded() {
    WatchHub hub = new WatchHub(10, 0);
    Recording all = new Recording();
    Recording labelled = new Recording();
    hub.openWithInitialState(filter(), "v1", all, List.of(), null);
    hub.openWithInitialState(new WatchFilter(KEY, null, LabelSelector.parse("app=web"), null), "v1", labelled,
        List.of(), null);

    hub.emitSynthetic(KEY, WatchEvent.MODIFIED, object("ghost", 9));
    Recording later = new Recording();
    hub.openFrom(0, 0, filter(), "v1", later);

    assertThat(all.summary()).containsExactly("MODIFIED ghost");
    assertThat(labelled.summary()).isEmpty();
    assertThat(later.summary()).isEmpty();
  }

  @Test
  void futureResourceVersion_staysOpen_andSendsOnlyEventsAndBookmarksAfterIt() {
    WatchHub hub = new WatchHub(10, 0);
    for (int rv = 1; rv <= 5; rv++) {
      hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm" + rv, rv), null, rv));
    }
    Recording sink = new Recording();
    Watch watch = hub.openFrom(7, 5, filter(), "v1", sink);
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm6", 6), null, 6));
    hub.bookmark(watch, bookmark(6));
    hub.emitSynthetic(KEY, WatchEvent.MODIFIED, object("cm6", 6));
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm7", 7), null, 7));
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm8", 8), null, 8));
    hub.bookmark(watch, bookmark(8));

    assertThat(watch.isClosed()).isFalse();
    assertThat(sink.lines).hasSize(2);
    assertThat(read(sink.lines.get(0)).at("/object/metadata/name").asText()).isEqualTo("cm8");
    assertThat(read(sink.lines.get(1))).isEqualTo(read("""
        {"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"8"}}}"""));
    assertThat(hub.openWatches()).hasSize(1);
  }

  private static ObjectNode bookmark(long resourceVersion) {
    ObjectNode bookmark = JsonNodeFactory.instance.objectNode().put("kind", "ConfigMap").put("apiVersion", "v1");
    bookmark.putObject("metadata").put("resourceVersion", Long.toString(resourceVersion));
    return bookmark;
  }

  @Test
  void deleted_isSelectedOnTheLastStoredState() {
    WatchHub hub = new WatchHub(10, 0);
    Recording labelled = new Recording();
    hub.openWithInitialState(new WatchFilter(KEY, null, LabelSelector.parse("app=web"), null), "v1", labelled,
        List.of(), null);
    ObjectNode last = object("web", 1);
    ((ObjectNode) last.get("metadata")).putObject("labels").put("app", "web");
    ObjectNode relabelled = object("web", 2);
    ((ObjectNode) relabelled.get("metadata")).putObject("labels").put("app", "gone");

    hub.publish(new WatchEvent(KEY, WatchEvent.DELETED, relabelled, last, 2));

    assertThat(labelled.summary()).containsExactly("DELETED web");
  }

  @Test
  void afterShutDown_everyWatchIsClosed_andNewOnesEndAtOnce() {
    WatchHub hub = new WatchHub(10, 0);
    Recording before = new Recording();
    hub.openWithInitialState(filter(), "v1", before, List.of(), null);

    hub.shutDown();
    Recording after = new Recording();
    Watch late = hub.openWithInitialState(filter(), "v1", after, List.of(object("cm", 1)), null);
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, object("cm2", 2), null, 2));

    assertThat(before.closed).isTrue();
    assertThat(late.isClosed()).isTrue();
    assertThat(after.closed).isTrue();
    assertThat(after.lines).isEmpty();
    assertThat(hub.openWatches()).isEmpty();
  }

  @Test
  void oneChange_isSerializedOnceForEveryWatchThatSendsItAsStored_andApartForAWatchThatRewritesIt() {
    WatchHub hub = new WatchHub(10, 0);
    Recording first = new Recording();
    Recording second = new Recording();
    Recording otherVersion = new Recording();
    Recording labelled = new Recording();
    hub.openFrom(0, 0, filter(), "v1", first);
    hub.openFrom(0, 0, filter(), "v1", second);
    hub.openFrom(0, 0, filter(), "v2", otherVersion);
    hub.openFrom(0, 0, new WatchFilter(KEY, null, LabelSelector.parse("app=web"), null), "v1", labelled);

    ObjectNode web = object("cm", 1);
    ((ObjectNode) web.get("metadata")).putObject("labels").put("app", "web");
    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, web, null, 1));
    hub.publish(new WatchEvent(KEY, WatchEvent.MODIFIED, object("cm", 2), web, 2));

    assertThat(first.lines.get(0)).isSameAs(second.lines.get(0));
    assertThat(first.lines.get(1)).isSameAs(second.lines.get(1));
    assertThat(read(first.lines.get(1))).isEqualTo(read("""
        {"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap",
         "metadata":{"name":"cm","namespace":"default","resourceVersion":"2"}}}"""));
    assertThat(otherVersion.lines).hasSize(2)
        .allSatisfy(line -> assertThat(read(line).at("/object/apiVersion").asText()).isEqualTo("v2"));
    assertThat(labelled.summary()).containsExactly("ADDED cm", "DELETED cm");
    assertThat(read(labelled.lines.get(1)).at("/object/metadata/resourceVersion").asText()).isEqualTo("2");
  }

  private static WatchFilter filter() {
    return new WatchFilter(KEY, null, LabelSelector.everything(), null);
  }

  private static ObjectNode object(String name, long rv) {
    ObjectNode o = JSON.createObjectNode();
    o.put("apiVersion", "v1").put("kind", "ConfigMap");
    o.putObject("metadata").put("name", name).put("namespace", "default").put("resourceVersion", Long.toString(rv));
    return o;
  }

  private static JsonNode read(String s) {
    try {
      return JSON.readTree(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aCommittedChangesEvent_isWrittenFromTheObjectsKeptSerialization_aReplayFromItsTree() {
    WatchHub hub = new WatchHub(10, 0);
    Recording live = new Recording();
    hub.openFrom(0, 0, filter(), "v1", live);
    ObjectNode tree = object("cm", 1);

    hub.publish(new WatchEvent(KEY, WatchEvent.ADDED, new Marked(tree), null, 1));
    Recording replay = new Recording();
    hub.openFrom(0, 1, filter(), "v1", replay);

    assertThat(live.lines).containsExactly("{\"type\":\"ADDED\",\"object\":{\"kept\":1}}");
    assertThat(replay.lines).containsExactly(Watch.eventJson(WatchEvent.ADDED, tree));
  }

  /** An object whose kept serialization differs from its tree, to tell which one an event used. */
  private static final class Marked extends ObjectNode implements FrozenObject {
    Marked(ObjectNode tree) {
      super(JSON.getNodeFactory(), new LinkedHashMap<>());
      setAll(tree);
    }

    @Override
    public byte[] json() {
      return "{\"kept\":1}".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] takeJson() {
      return json();
    }
  }

  @Test
  void aStoredVersionsEvent_isWrittenFromItsKeptBytes_asTheSameTextTheTreeGives() {
    ObjectNode plain = object("cm", 1);
    plain.putObject("data").put("greeting", "gr\u00fc\u00dfe \ud83d\udc4b \"quoted\"\n");
    StoredNode stored = StoredNode.copyOf(plain);

    String fromBytes = Watch.committedEventJson(WatchEvent.MODIFIED, stored, true);

    assertThat(fromBytes).isEqualTo(Watch.eventJson(WatchEvent.MODIFIED, plain.deepCopy()));
    assertThat(fromBytes).startsWith("{\"type\":\"MODIFIED\",\"object\":{").contains("gr\u00fc\u00dfe \ud83d\udc4b");
  }
}
