package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * Watch fan-out and the bounded history of committed changes that lets a watch resume from a resourceVersion.
 *
 * <p>Every method that publishes, registers or replays must be called while the store's write lock is held: that
 * single lock makes "list, then watch from the list's resourceVersion" exact (no missed or duplicated event) and
 * makes every watcher see changes in commit order.
 *
 * <p>History holds the last {@code limit} committed changes of all kinds. A watch from resourceVersion {@code N}
 * replays the retained changes after {@code N}; when changes after {@code N} were already dropped, it receives one
 * ERROR event carrying kube's 410 Expired Status ({@code too old resource version: N (M)}) and ends, so informers
 * relist. A kind served by a CustomResourceDefinition has a window of its own that starts when the CRD is created
 * ({@link #startWindow}), as kube-apiserver's watch cache of the kind starts then: a watch of the kind from an older
 * resourceVersion gets the same 410, naming the window's start.
 *
 * <p>The hub also holds the watch fault rules and the delivery log ({@link #faults()}): every event a watch sends
 * passes its {@link WatchOutbox}. The initial ADDED events of a watch opened without a resourceVersion (and the
 * initial-events-end BOOKMARK) are sent before the rules attach, so rules never touch the initial state.
 */
public final class WatchHub {

  private final int limit;
  private final Deque<WatchEvent> history = new ArrayDeque<>();
  private final List<Watch> watches = new CopyOnWriteArrayList<>();
  private final AtomicLong ids = new AtomicLong();
  private final WatchFaultRules faults = new WatchFaultRules(this::openWatches);
  private final java.util.Map<String, Long> windowStarts = new java.util.HashMap<>();
  private long historyStart;
  private volatile boolean shutDown;
  private volatile java.time.Duration bookmarkInterval = java.time.Duration.ofMinutes(1);

  /**
   * Creates a hub.
   *
   * @param limit how many committed changes to retain (at least 1)
   * @param startResourceVersion the resourceVersion before the first change this hub will see
   */
  public WatchHub(int limit, long startResourceVersion) {
    if (limit < 1) {
      throw new IllegalArgumentException("watch history limit must be at least 1, was " + limit);
    }
    this.limit = limit;
    this.historyStart = startResourceVersion;
  }

  /**
   * Records a committed change and delivers it to every open watch. Caller holds the store lock; changes come in
   * commit order (increasing resourceVersion), which resuming a watch relies on.
   */
  public void publish(WatchEvent event) {
    history.addLast(event);
    while (history.size() > limit) {
      historyStart = history.removeFirst().resourceVersion();
    }
    EventTexts texts = EventTexts.of(event.object());
    for (Watch watch : watches) {
      watch.offer(event, texts);
    }
  }

  /**
   * A write on {@code storageKey} has begun and may commit a change: the open watches of that collection and
   * namespace that no fault rule selects are told, with how many they are, so that a sink that hands events to
   * another thread may wake it now ({@link WatchSink#expectEvent}). Their selectors are not checked (the object is
   * not final yet). Caller holds the store lock.
   *
   * @param namespace the namespace written to; {@code null} for a cluster-scoped kind or a write on every namespace
   */
  public void expectEvent(String storageKey, String namespace) {
    int told = 0;
    for (Watch watch : watches) {
      if (watch.expects(storageKey, namespace)) {
        told++;
      }
    }
    if (told == 0) {
      return;
    }
    for (Watch watch : watches) {
      if (watch.expects(storageKey, namespace)) {
        watch.expectEvent(told);
      }
    }
  }

  /**
   * Delivers an event that is not a committed change (not recorded, no resourceVersion bump) to every open watch
   * whose filter selects the object. Caller holds the store lock.
   */
  public void emitSynthetic(String storageKey, String type, ObjectNode object) {
    for (Watch watch : watches) {
      if (watch.filter().storageKey().equals(storageKey) && watch.filter().matches(object)
          && watch.takesAt(object.path("metadata").path("resourceVersion").asLong(Long.MAX_VALUE))) {
        watch.send(type, object);
      }
    }
  }

  /**
   * Opens a watch starting with synthetic ADDED events for the given current objects. Caller holds the store lock.
   *
   * @param filter what the watch selects
   * @param apiVersion the apiVersion events carry (the version the watch was opened on)
   * @param sink where events go
   * @param current every object the collection holds now, in list order
   * @param initialEventsEnd if set, a BOOKMARK marking the end of the initial events (sendInitialEvents=true)
   * @return the open watch
   */
  public Watch openWithInitialState(WatchFilter filter, String apiVersion, WatchSink sink,
      Collection<ObjectNode> current, ObjectNode initialEventsEnd) {
    return openWithInitialState(filter, WatchIdentity.of(filter), Watch.apiVersionView(apiVersion), sink, current,
        initialEventsEnd);
  }

  /**
   * Opens a watch starting with synthetic ADDED events, its events served as {@code type} serves objects (its
   * apiVersion, and a custom resource's read-time pruning and defaults). Caller holds the store lock.
   */
  public Watch openWithInitialState(WatchFilter filter, ResourceType type, WatchSink sink,
      Collection<ObjectNode> current, ObjectNode initialEventsEnd) {
    return openWithInitialState(filter, identityOf(filter, type), type::serve, sink, current, initialEventsEnd);
  }

  private Watch openWithInitialState(WatchFilter filter, WatchIdentity identity, UnaryOperator<ObjectNode> view,
      WatchSink sink, Collection<ObjectNode> current, ObjectNode initialEventsEnd) {
    // the initial state is not an event stream: it reaches the client untouched by fault rules (as a LIST does),
    // and the rules apply from the first change after it
    Watch watch = register(filter, identity, view, sink, false);
    for (ObjectNode object : current) {
      if (filter.matches(object)) {
        watch.send(WatchEvent.ADDED, object);
      }
    }
    if (initialEventsEnd != null) {
      watch.send(WatchEvent.BOOKMARK, initialEventsEnd);
    }
    if (!watch.isClosed()) {
      faults.attach(watch);
    }
    return watch;
  }

  /**
   * Opens a watch replaying the retained changes after {@code resourceVersion}. Caller holds the store lock.
   *
   * @param resourceVersion replay the changes after this one
   * @param currentResourceVersion the store's resourceVersion now
   * @return the open watch; if the history no longer reaches back to {@code resourceVersion}, a watch that has
   *     already sent the 410 ERROR event and is closed; if {@code resourceVersion} is in the future, an open watch
   *     that sends nothing until the store passes it, then only the changes after it, as kube-apiserver's watch
   *     cache serves such a watch (no error, no wait; only a watch asking for initial events waits, see
   *     {@code sendInitialEvents})
   */
  public Watch openFrom(long resourceVersion, long currentResourceVersion, WatchFilter filter, String apiVersion,
      WatchSink sink) {
    return openFrom(resourceVersion, currentResourceVersion, filter, WatchIdentity.of(filter),
        Watch.apiVersionView(apiVersion), sink);
  }

  /**
   * Opens a watch replaying the retained changes after {@code resourceVersion}, its events served as {@code type}
   * serves objects. Caller holds the store lock.
   */
  public Watch openFrom(long resourceVersion, long currentResourceVersion, WatchFilter filter, ResourceType type,
      WatchSink sink) {
    return openFrom(resourceVersion, currentResourceVersion, filter, identityOf(filter, type), type::serve, sink);
  }

  private Watch openFrom(long resourceVersion, long currentResourceVersion, WatchFilter filter,
      WatchIdentity identity, UnaryOperator<ObjectNode> view, WatchSink sink) {
    long start = Math.max(historyStart, windowStarts.getOrDefault(filter.storageKey(), 0L));
    if (resourceVersion < start) {
      return refused(filter, identity, view, sink,
          ApiError.expired("too old resource version: " + resourceVersion + " (" + start + ")"));
    }
    Watch watch = register(filter, identity, view, sink, true);
    if (resourceVersion > currentResourceVersion) {
      watch.sendOnlyAfter(resourceVersion);
      return watch;
    }
    for (WatchEvent event : changesAfter(resourceVersion)) {
      watch.offer(event);
    }
    return watch;
  }

  /**
   * The retained changes after {@code resourceVersion}, oldest first: read from the newest back (history is in
   * commit order), so a watch resuming near the head costs what it replays, not the length of the history.
   */
  private Deque<WatchEvent> changesAfter(long resourceVersion) {
    Deque<WatchEvent> newer = new ArrayDeque<>();
    for (java.util.Iterator<WatchEvent> it = history.descendingIterator(); it.hasNext(); ) {
      WatchEvent event = it.next();
      if (event.resourceVersion() <= resourceVersion) {
        break;
      }
      newer.addFirst(event);
    }
    return newer;
  }

  /**
   * The retained changes after {@code resourceVersion}, oldest first (complete only when {@code resourceVersion} is
   * at least {@link #historyStart()}). Caller holds the store lock.
   */
  public List<WatchEvent> changesSince(long resourceVersion) {
    return List.copyOf(changesAfter(resourceVersion));
  }

  /**
   * How often watches that asked for bookmarks get one (kube-apiserver: about every minute). The transports read it
   * when a watch opens.
   */
  public java.time.Duration bookmarkInterval() {
    return bookmarkInterval;
  }

  /** Sets the bookmark interval for watches opened from now on (positive). */
  public void bookmarkInterval(java.time.Duration interval) {
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("bookmark interval must be positive, was " + interval);
    }
    this.bookmarkInterval = interval;
  }

  /** Sends a BOOKMARK carrying only apiVersion, kind and resourceVersion to one watch. Caller holds the lock. */
  public void bookmark(Watch watch, ObjectNode bookmark) {
    if (watch.takesAt(bookmark.path("metadata").path("resourceVersion").asLong(Long.MAX_VALUE))) {
      watch.send(WatchEvent.BOOKMARK, bookmark);
    }
  }

  /** The watch fault rules, the one-shot actions on open watches, and the delivery log. */
  public WatchFaultRules faults() {
    return faults;
  }

  /** The resourceVersion after which every change is still retained. */
  public long historyStart() {
    return historyStart;
  }

  /**
   * Starts the watch window of one collection at a resourceVersion (a CRD's kind, when the CRD is created): a watch
   * of it from an older resourceVersion is refused with 410 Expired. Caller holds the store lock.
   */
  public void startWindow(String storageKey, long resourceVersion) {
    windowStarts.put(storageKey, resourceVersion);
  }

  /** Forgets a collection's own window (its CRD is gone). Caller holds the store lock. */
  public void endWindow(String storageKey) {
    windowStarts.remove(storageKey);
  }

  /** Open watches, in opening order. */
  public List<Watch> openWatches() {
    return List.copyOf(watches);
  }

  /** Closes every open watch on one collection (its kind went away with its CRD, as kube ends such watches). */
  public void closeAll(String storageKey) {
    for (Watch watch : watches) {
      if (watch.filter().storageKey().equals(storageKey)) {
        watch.close();
      }
    }
  }

  /** Closes every open watch. */
  public void closeAll() {
    for (Watch watch : watches) {
      watch.close();
    }
  }

  /**
   * Closes every open watch and refuses later ones: a watch opened after this ends at once with no event (its
   * stream ends cleanly), so a server that is shutting down never keeps a watch registered. Idempotent.
   */
  public void shutDown() {
    shutDown = true;
    closeAll();
    faults.shutDown();
  }

  /** Whether {@link #shutDown()} was called. */
  public boolean isShutDown() {
    return shutDown;
  }

  /** Registers a watch and, when {@code attachRules}, attaches the active fault rules that select it now. */
  private Watch register(WatchFilter filter, WatchIdentity identity, UnaryOperator<ObjectNode> view,
      WatchSink sink, boolean attachRules) {
    Watch watch = new Watch(ids.incrementAndGet(), filter, identity, view, sink, faults);
    if (shutDown) {
      watch.close();
      return watch;
    }
    watch.onClose(watches::remove);
    watches.add(watch);
    if (attachRules) {
      faults.attach(watch);
    }
    return watch;
  }

  private static WatchIdentity identityOf(WatchFilter filter, ResourceType type) {
    return WatchIdentity.of(filter, type.group(), type.kind(), type.plural(), type.fieldLabels());
  }

  private Watch refused(WatchFilter filter, WatchIdentity identity, UnaryOperator<ObjectNode> view, WatchSink sink,
      ApiError error) {
    Watch refused = new Watch(ids.incrementAndGet(), filter, identity, view, sink, faults);
    refused.send(WatchEvent.ERROR, error.toStatus());
    refused.close();
    return refused;
  }
}
