package dev.ctk.josdk.internal;

import dev.ctk.controller.CacheState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The caches of one Java Operator SDK controller: one {@link CacheState} per informer of each event
 * source that wraps informers (the controller's own event source first, then the others by name),
 * read from JOSDK's health indicators. Reading takes no lock of JOSDK's, so it may run while a
 * reconcile holds the event processor's lock.
 */
public final class EventSourceCaches implements Supplier<List<CacheState>> {

  private final Controller<? extends HasMetadata> controller;

  /**
   * Reads the caches of a controller.
   *
   * @param controller the JOSDK controller
   */
  public EventSourceCaches(Controller<? extends HasMetadata> controller) {
    this.controller = controller;
  }

  /**
   * The states now. An informer-wrapping event source that has not started yet (no informer yet)
   * shows as one cache {@code "event source Kind (not started)"}, not synced and not running.
   *
   * @return the states, controller's event source first
   */
  @Override
  public List<CacheState> get() {
    List<EventSource<?, ?>> sources = informerSources();
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      EventSource<?, ?> source = sources.get(i);
      boolean own = i == 0;
      String kind = kindOf(source);
      Map<String, InformerHealthIndicator> informers = informersOf(source);
      List<Entry> ofSource = new ArrayList<>();
      if (informers.isEmpty()) {
        ofSource.add(new Entry(own, source.name(),
            new CacheState("event source " + kind + " (not started)", false, false, false)));
      } else {
        informers.forEach((namespace, informer) -> ofSource.add(new Entry(own, source.name(),
            new CacheState("event source " + kind + " (" + namespaceText(namespace) + ")",
                flag(informer::hasSynced), flag(informer::isRunning), flag(informer::isWatching)))));
      }
      ofSource.sort(Comparator.comparing(e -> e.state.name()));
      entries.addAll(ofSource);
    }
    List<Entry> sorted = new ArrayList<>(entries.stream().filter(e -> e.own).toList());
    sorted.addAll(entries.stream().filter(e -> !e.own)
        .sorted(Comparator.comparing((Entry e) -> e.state.name()).thenComparing(e -> e.source))
        .toList());
    return disambiguate(sorted);
  }

  /**
   * Whether the controller runs: its own event source has informers and all of them run. JOSDK
   * starts them when the operator starts and stops them when it stops.
   *
   * @return a supplier of the running state
   */
  public BooleanSupplier runningState() {
    return () -> {
      Map<String, InformerHealthIndicator> own =
          informersOf(controller.getEventSourceManager().getControllerEventSource());
      return !own.isEmpty() && own.values().stream().allMatch(i -> flag(i::isRunning));
    };
  }

  /** Informer-wrapping event sources, the controller's own first. */
  private List<EventSource<?, ?>> informerSources() {
    List<EventSource<?, ?>> sources = new ArrayList<>();
    for (Object source : controller.getEventSourceManager().allEventSources()) {
      if (source instanceof InformerWrappingEventSourceHealthIndicator<?>
          && source instanceof EventSource<?, ?> eventSource) {
        sources.add(eventSource);
      }
    }
    return sources;
  }

  private static Map<String, InformerHealthIndicator> informersOf(Object source) {
    try {
      return ((InformerWrappingEventSourceHealthIndicator<?>) source).informerHealthIndicators();
    } catch (RuntimeException e) {
      return Map.of();   // not started: JOSDK has not built its informer manager yet
    }
  }

  private static String kindOf(EventSource<?, ?> source) {
    Class<?> type = source.resourceType();
    if (type == null) {
      return source.name();
    }
    if (HasMetadata.class.isAssignableFrom(type)) {
      @SuppressWarnings("unchecked")
      Class<? extends HasMetadata> resourceType = (Class<? extends HasMetadata>) type;
      return HasMetadata.getKind(resourceType);
    }
    return type.getSimpleName();
  }

  private static String namespaceText(String namespace) {
    if (namespace == null || Constants.WATCH_ALL_NAMESPACES.equals(namespace)) {
      return "all namespaces";
    }
    if (Constants.WATCH_CURRENT_NAMESPACE.equals(namespace)) {
      return "the client's namespace";
    }
    return "namespace " + namespace;
  }

  private static boolean flag(BooleanSupplier read) {
    try {
      return read.getAsBoolean();
    } catch (RuntimeException e) {
      return false;   // fabric8 may throw while it replaces a watch
    }
  }

  /** Appends the event source's name to names that two event sources share. */
  private static List<CacheState> disambiguate(List<Entry> entries) {
    Map<String, Long> counts = new HashMap<>();
    entries.forEach(e -> counts.merge(e.state.name(), 1L, Long::sum));
    return entries.stream().map(e -> counts.get(e.state.name()) == 1 ? e.state
        : new CacheState(e.state.name() + " [" + e.source + "]", e.state.synced(),
            e.state.running(), e.state.watching())).toList();
  }

  private record Entry(boolean own, String source, CacheState state) {}
}
