package dev.ctk.fake.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.select.LabelSelector;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A counted rule that is used up leaves every watch and the hub, so the watches take the direct path again. */
class WatchFaultRuleLifecycleTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONFIG_MAPS = "/configmaps";
  private static final WatchFilter ALL = new WatchFilter(CONFIG_MAPS, null, LabelSelector.everything(), null);

  /** A sink that keeps {@code TYPE name} of each event it is sent, and {@code expect N} when told to expect one. */
  private static final class Lines implements WatchSink {
    final List<String> sent = new CopyOnWriteArrayList<>();

    @Override
    public void expectEvent(int watchesTold) {
      sent.add("expect " + watchesTold);
    }

    @Override
    public void send(String eventJson) {
      JsonNode event = parse(eventJson);
      sent.add(event.path("type").asText() + " " + event.path("object").path("metadata").path("name").asText());
    }

    @Override
    public void close() {
    }
  }

  @Test
  void aUsedUpCountedRule_isForgottenByEveryWatchAndByTheHub() {
    WatchHub hub = new WatchHub(100, 0);
    Lines first = new Lines();
    Lines second = new Lines();
    Watch one = hub.openFrom(0, 0, ALL, "v1", first);
    Watch two = hub.openFrom(0, 0, ALL, "v1", second);
    WatchFaultRule drop = WatchFaultRule.of(WatchFaultRule.Kind.DROP, "drop(configmaps, next 1 event)", w -> true,
        0, 0, 1);
    hub.faults().add(drop);
    assertThat(one.outbox().attached()).containsExactly(drop);
    assertThat(two.outbox().attached()).containsExactly(drop);

    hub.publish(new WatchEvent(CONFIG_MAPS, WatchEvent.ADDED, configMap("a", 1), null, 1));

    assertThat(drop.active()).isFalse();
    assertThat(drop.fired()).isOne();
    assertThat(one.outbox().attached()).as("the watch that used it up").isEmpty();
    assertThat(two.outbox().attached()).as("the other watch, on its next event").isEmpty();
    assertThat(hub.faults().kept()).isEmpty();
    assertThat(first.sent).isEmpty();
    assertThat(second.sent).containsExactly("ADDED a");

    hub.publish(new WatchEvent(CONFIG_MAPS, WatchEvent.ADDED, configMap("b", 2), null, 2));

    assertThat(first.sent).containsExactly("ADDED b");
    assertThat(second.sent).containsExactly("ADDED a", "ADDED b");
    assertThat(hub.faults().log().records()).extracting(r -> "#" + r.watchId() + " " + r.name() + " " + r.outcome()
        + (r.detail() == null ? "" : " (" + r.detail() + ")")).containsExactly(
            "#1 a DROPPED (drop(configmaps, next 1 event))", "#2 a DELIVERED", "#1 b DELIVERED", "#2 b DELIVERED");
  }

  @Test
  void aWatchOpenedAfterARuleWasUsedUp_neverAttachesIt() {
    WatchHub hub = new WatchHub(100, 0);
    Watch one = hub.openFrom(0, 0, ALL, "v1", new Lines());
    WatchFaultRule duplicate = WatchFaultRule.of(WatchFaultRule.Kind.DUPLICATE, "duplicate(configmaps, next 1 "
        + "event)", w -> true, 0, 0, 1);
    hub.faults().add(duplicate);
    hub.publish(new WatchEvent(CONFIG_MAPS, WatchEvent.ADDED, configMap("a", 1), null, 1));

    Watch later = hub.openFrom(1, 1, ALL, "v1", new Lines());

    assertThat(one.outbox().attached()).isEmpty();
    assertThat(later.outbox().attached()).isEmpty();
    assertThat(hub.faults().kept()).isEmpty();
  }

  private static ObjectNode configMap(String name, long resourceVersion) {
    ObjectNode object = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    object.putObject("metadata").put("namespace", "default").put("name", name)
        .put("resourceVersion", Long.toString(resourceVersion));
    return object;
  }

  private static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a watch event is not JSON: " + text, e);
    }
  }

  @Test
  void aWatchThatARuleSelects_isNotToldToExpectAnEvent_untilTheRuleIsUsedUp() {
    WatchHub hub = new WatchHub(100, 0);
    Lines lines = new Lines();
    hub.openFrom(0, 0, ALL, "v1", lines);
    hub.faults().add(WatchFaultRule.of(WatchFaultRule.Kind.DROP, "drop(configmaps, next 1 event)", w -> true,
        0, 0, 1));

    hub.expectEvent(CONFIG_MAPS, "default");
    hub.publish(new WatchEvent(CONFIG_MAPS, WatchEvent.ADDED, configMap("a", 1), null, 1));
    hub.expectEvent(CONFIG_MAPS, "default");
    hub.publish(new WatchEvent(CONFIG_MAPS, WatchEvent.ADDED, configMap("b", 2), null, 2));
    hub.expectEvent("apps/deployments", "default");

    assertThat(lines.sent).as("a dropped, then the direct path again; another collection tells nothing")
        .containsExactly("expect 1", "ADDED b");
  }
}
