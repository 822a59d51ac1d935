package dev.ctk.assertions;

import static dev.ctk.assertions.internal.StateFormat.count;
import static dev.ctk.assertions.internal.StateFormat.keys;

import dev.ctk.assertions.internal.FailureCauses;
import dev.ctk.assertions.internal.SlowReconciles;
import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueue;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.controller.WorkQueueView;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a queue of keys through its {@link WorkQueueView}: ctk's {@link WorkQueue}, or the
 * queue of any {@link ControllerView} (a {@code ControllerProbe}'s, Java Operator SDK's pending
 * events, a Kubernetes Java client work queue). They check what it holds, in which state. A key is
 * <em>queued</em> (ready for a worker), <em>in flight</em> (handed to a worker, not done yet) or
 * <em>waiting</em> (added with a delay or backing off after a failure); the queue "holds" a key in
 * any of the three states.
 *
 * <pre>{@code
 * assertThat(queue).hasDepth(2).containsKey("default/web").hasNoKeysInFlight();
 * assertThat(controller).workQueue().within(ofSeconds(5)).isEmpty();
 * }</pre>
 *
 * <p>Without {@link #within(Duration)} each check runs once, at once; with it, the returned assertion
 * re-runs the check every 10ms until it passes or the timeout elapses ({@link #isEmpty()} and {@link
 * #doesNotContainKey(String)} then pass at once if nothing was added yet). Failure messages name the
 * queue in its framework's words ({@code work queue "name"}, or {@code work queue of controller
 * "name"} when reached through {@link ControllerAssert#workQueue()}, which also lists the last
 * failure of each held key; {@code pending events of Java Operator SDK controller "webapp"} for a
 * view whose {@link dev.ctk.controller.Vocabulary} says so).
 *
 * @since 0.1.0
 */
public final class WorkQueueAssert extends AbstractAssert<WorkQueueAssert, WorkQueueView> {

  private final ControllerView controller;
  private final Waiting waiting;

  WorkQueueAssert(WorkQueueView queue) {
    this(queue, null, Waiting.IMMEDIATE);
  }

  WorkQueueAssert(WorkQueueView queue, ControllerView controller, Waiting waiting) {
    super(queue, WorkQueueAssert.class);
    this.controller = controller;
    this.waiting = waiting;
  }

  /**
   * The same assertion, waiting: each check re-runs until it passes or {@code timeout} elapses, and
   * then fails with the last failure's message (which says "within ...") once, carrying what that
   * failure carried (the reconcile errors it names, whole, as cause and suppressed exceptions). This
   * assertion is not changed.
   *
   * @param timeout how long to wait, positive
   * @return a new, waiting assertion
   */
  public WorkQueueAssert within(Duration timeout) {
    WorkQueueAssert waitingAssert = new WorkQueueAssert(actual, controller, Waiting.within(timeout));
    waitingAssert.info.description(info.description());
    waitingAssert.info.useRepresentation(info.representation());
    return waitingAssert;
  }

  /**
   * Checks that the queue holds no key: nothing queued, in flight or waiting.
   *
   * <p><b>Trap:</b> with {@code within(..)} this passes at once when nothing has happened yet: right
   * after a write, before the informer delivered the event, the queue is empty too. Wait for an effect
   * first (an object the reconcile writes, {@code assertThat(controller).within(..).hasReconciled(key)}
   * for a key never reconciled before, or {@code hasReconciledAtLeast(key, before + 1)} after a change to
   * one that was), then check the queue.
   *
   * @return this assertion
   */
  public WorkQueueAssert isEmpty() {
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      List<String> held = StateFormat.heldKeys(stats);
      if (!held.isEmpty()) {
        throw FailureCauses.attach(failed(expecting("to be empty") + "but it " + waiting.still()
            + "held " + count(held.size(), "key") + ":\n" + contents(stats) + lastFailures(held)
            + (controller == null ? "" : SlowReconciles.lines(controller, ""))),
            controller == null ? List.of()
                : FailureCauses.lastErrors(held, controller.reconcileLog()));
      }
    });
    return myself;
  }

  /**
   * Checks the queue's depth: how many keys are queued and ready (in flight and waiting keys do not
   * count).
   *
   * @param depth the expected depth
   * @return this assertion
   */
  public WorkQueueAssert hasDepth(int depth) {
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      if (stats.depth() != depth) {
        throw failed(expecting("to have depth " + depth + " (keys queued and ready)")
            + "but its depth was " + stats.depth() + ":\n" + contents(stats));
      }
    });
    return myself;
  }

  /**
   * Checks that the queue holds {@code key} (queued, in flight or waiting).
   *
   * @param key {@code "namespace/name"} or {@code "name"}; compared with the keys' text
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public WorkQueueAssert containsKey(String key) {
    requireKey(key, "containsKey");
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      if (!StateFormat.heldKeys(stats).contains(key)) {
        throw failed(expecting("to contain " + key + " (queued, in flight or waiting)")
            + "but it did not:\n" + contents(stats));
      }
    });
    return myself;
  }

  /**
   * Checks that the queue holds {@code key} (queued, in flight or waiting).
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public WorkQueueAssert containsKey(ObjectKey key) {
    requireKey(key, "containsKey");
    return containsKey(key.toString());
  }

  /**
   * Checks that the queue does not hold {@code key} in any state.
   *
   * <p><b>Trap:</b> like {@link #isEmpty()}, with {@code within(..)} this passes at once if the key
   * was not added yet; wait for the key to be reconciled first.
   *
   * @param key {@code "namespace/name"} or {@code "name"}; compared with the keys' text
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public WorkQueueAssert doesNotContainKey(String key) {
    requireKey(key, "doesNotContainKey");
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      if (StateFormat.heldKeys(stats).contains(key)) {
        throw failed(expecting("not to contain " + key) + "but it " + waiting.still()
            + "did:\n" + contents(stats) + lastFailures(List.of(key)));
      }
    });
    return myself;
  }

  /**
   * Checks that the queue does not hold {@code key} in any state.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public WorkQueueAssert doesNotContainKey(ObjectKey key) {
    requireKey(key, "doesNotContainKey");
    return doesNotContainKey(key.toString());
  }

  /**
   * Checks that no key is in flight (handed to a worker and not done).
   *
   * @return this assertion
   */
  public WorkQueueAssert hasNoKeysInFlight() {
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      if (!stats.inFlightKeys().isEmpty()) {
        throw failed(expecting("to have no key in flight") + "but "
            + count(stats.inFlightKeys().size(), "key") + " " + waiting.still()
            + (stats.inFlightKeys().size() == 1 ? "was" : "were") + " in flight: "
            + keys(stats.inFlightKeys()) + "\n");
      }
    });
    return myself;
  }

  /**
   * Checks how many retries the queue counted since it was made ({@code addRateLimited} calls; for a
   * {@code ControllerProbe}, its {@code addedRateLimited} calls).
   *
   * @param retries the expected count
   * @return this assertion
   */
  public WorkQueueAssert hasRetried(long retries) {
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats stats = actual.stats();
      if (stats.retries() != retries) {
        // addRateLimited is ctk's (and client-go's) name of a retry; other frameworks retry otherwise
        String how = words().equals(Vocabulary.CTK) ? " (addRateLimited)" : "";
        throw failed(expecting("to have counted "
            + count(retries, "retry", "retries") + how)
            + "but it counted " + stats.retries() + ".\n" + contents(stats));
      }
    });
    return myself;
  }

  private String expecting(String expectation) {
    return "\nExpecting " + subject() + "\n  " + expectation + waiting.phrase() + "\n";
  }

  private AssertionError failed(String message) {
    return failure("%s", message.stripTrailing());
  }

  private String subject() {
    if (controller != null) {
      return words().queue() + " of " + words().controller() + " \"" + controller.name() + "\"";
    }
    String name = actual.name();
    return name == null || name.isEmpty() ? words().queue() + " (unnamed)"
        : words().queue() + " \"" + name + "\"";
  }

  /** The words of the queue's framework: its controller's, when reached through one. */
  private Vocabulary words() {
    return controller != null ? controller.vocabulary() : actual.vocabulary();
  }

  private static String contents(WorkQueueStats stats) {
    return StateFormat.queueContents(stats, "  ");
  }

  private static void requireKey(Object key, String method) {
    if (key == null) {
      throw new NullPointerException("WorkQueueAssert." + method + ": the key is null. Pass "
          + "\"namespace/name\", \"name\" (cluster-scoped) or ObjectKey.of(namespace, name).");
    }
  }

  private String lastFailures(List<String> held) {
    return controller == null ? "" : StateFormat.lastFailures(held, controller.reconcileLog());
  }
}
