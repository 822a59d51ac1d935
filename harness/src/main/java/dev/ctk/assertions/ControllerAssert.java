package dev.ctk.assertions;

import static dev.ctk.assertions.internal.StateFormat.count;

import dev.ctk.assertions.internal.FailureCauses;
import dev.ctk.assertions.internal.NotRunning;
import dev.ctk.assertions.internal.SlowReconciles;
import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.fake.RequestJournal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a controller through its {@link ControllerView}, whatever framework runs it: ctk's
 * {@link Controller}, a {@code ControllerProbe} on a hand-written controller, or the views of Java
 * Operator SDK and Kubernetes Java client controllers. It checks cache sync (informers, event
 * sources), what happened to a key (reconciled, succeeded, failed, requeued, how often), and the
 * controller's queue. Failure messages use the view's {@link Vocabulary}: {@code Expecting Java
 * Operator SDK controller "webapp"}, {@code RESCHEDULE 30s}, "pending events", "event source".
 *
 * <pre>{@code
 * assertThat(controller).hasSyncedCaches();
 * assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * assertThat(controller).hasFailedToReconcile("default/db", BackendException.class)
 *     .hasRequeued("default/db")
 *     .hasReconciledAtMost("default/web", 1);
 * assertThat(controller).within(ofSeconds(5)).isIdle();
 * assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(harness.requests());
 * assertThat(controller).isIdempotent(harness.requests()).hasNoHotLoop(harness.requests(), 5);
 * }</pre>
 *
 * <p>The convergence checks ({@link #reachesFixedPoint}, {@link #isIdempotent}, {@link
 * #hasNoHotLoop}, {@link #hasNoStatusChurn}, {@link #hasNoWriteChurn}, {@link
 * #hasNoGenerationChurn}, and {@link #quietFor} to
 * reach them with another quiet period) read the fake cluster's request journal too; {@link
 * ConvergenceAssert} explains them.
 *
 * <p>Keys are {@code "namespace/name"}, {@code "name"} (cluster-scoped) or {@link ObjectKey}; a
 * {@code null} key is refused with a {@code NullPointerException}. The checks of one key read the
 * controller's reconcile log ({@link ControllerView#reconcileLog()}) first and then its counters and
 * queue ({@link ControllerView#stats()}), and make the two agree (a reconcile that ends between the reads
 * is left out of the history, and the history is numbered from the key's first reconcile). The log is
 * bounded, so with a huge number of reconciles the oldest records are gone (counts stay exact). A
 * failure message lists what did happen to the key (its last reconciles with their outcomes and
 * errors) and what the work queue holds.
 *
 * <p>Without {@link #within(Duration)} each check runs once, at once; with it, the returned assertion
 * re-runs the check every 10ms until it passes or the timeout elapses. <b>Trap:</b> checks that hold
 * when "nothing happened yet" ({@link #isIdle()}, {@link #hasEmptyWorkQueue()}, {@link
 * #hasReconciledAtMost(String, long)}) pass at once under {@code within(..)}, before the informer
 * has even delivered the event; wait on an effect first. {@code hasReconciled(key)} and {@code
 * hasReconciledSuccessfully(key)} are such an effect only for a key never reconciled before: after a
 * change to a key that was, they pass at once on its earlier reconcile. Wait on the count instead,
 * {@link #hasReconciledAtLeast(String, long) within(..).hasReconciledAtLeast(key, before + 1)}.
 *
 * @since 0.1.0
 */
public final class ControllerAssert extends AbstractAssert<ControllerAssert, ControllerView> {

  private final Waiting waiting;
  /** The timeout of {@link #within}, or {@code null}; the convergence checks need its value. */
  private final Duration timeout;

  ControllerAssert(ControllerView controller) {
    this(controller, Waiting.IMMEDIATE, null);
  }

  private ControllerAssert(ControllerView controller, Waiting waiting, Duration timeout) {
    super(controller, ControllerAssert.class);
    this.waiting = waiting;
    this.timeout = timeout;
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
  public ControllerAssert within(Duration timeout) {
    ControllerAssert waitingAssert = new ControllerAssert(actual, Waiting.within(timeout),
        timeout);
    waitingAssert.info.description(info.description());
    waitingAssert.info.useRepresentation(info.representation());
    return waitingAssert;
  }

  /**
   * Navigates to the controller's queue (work queue, pending events); the result waits as this
   * assertion does and names the queue in the controller's words.
   *
   * @return assertions on {@link ControllerView#workQueue()}, named after the controller
   */
  public WorkQueueAssert workQueue() {
    isNotNull();
    WorkQueueAssert queueAssert = new WorkQueueAssert(actual.workQueue(), actual, waiting);
    queueAssert.info.description(info.description());
    queueAssert.info.useRepresentation(info.representation());
    return queueAssert;
  }

  /**
   * Checks that every cache the controller reads from (informer, event source) has synced.
   *
   * @return this assertion
   */
  public ControllerAssert hasSyncedCaches() {
    isNotNull();
    waiting.check(() -> {
      List<CacheState> caches = actual.caches();
      List<CacheState> notSynced = caches.stream().filter(c -> !c.synced())
          .collect(Collectors.toList());
      if (!notSynced.isEmpty() || !actual.hasSynced()) {
        StringBuilder lines = new StringBuilder();
        for (CacheState cache : caches) {
          lines.append("  ").append(cache.name()).append(": ").append(cache.describe())
              .append('\n');
        }
        String problem = notSynced.isEmpty()
            ? "but it " + waiting.still() + "reports its caches as not synced, while each "
                + words().cache() + " it lists is synced:\n"
            : "but " + notSynced.size() + " of " + count(caches.size(), words().cache()) + " "
                + waiting.still() + (notSynced.size() == 1 ? "has" : "have") + " not synced:\n";
        boolean running = actual.isRunning();
        throw FailureCauses.attach(failed(expecting("to have synced its " + words().cache() + " caches")
            + problem + lines + (running ? ""
                : "the " + words().controller() + " is not running: " + NotRunning.reason(actual)
                    + "\n")), running ? List.of() : NotRunning.errors(actual));
      }
    });
    return myself;
  }

  /**
   * Checks that {@code key} was reconciled at least once, whatever the outcome.
   *
   * <p>Any reconcile counts, however old: after a change to a key that was reconciled before, this
   * passes at once, before the informer delivered the change. To wait for the reconcile of a change,
   * use {@link #hasReconciledAtLeast(String, long)} with one more than the count before it.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconciled(String key) {
    return hasReconciled(parse(key, "hasReconciled"));
  }

  /**
   * Checks that {@code key} was reconciled at least once, whatever the outcome.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconciled(ObjectKey key) {
    requireKey(key, "hasReconciled");
    return checkKey(key, "to have reconciled " + key, state -> state.total() > 0 ? null
        : "but it " + waiting.still() + "has not.\nreconciled keys: "
            + StateFormat.keys(state.stats().reconcilesPerKey().keySet().stream()
                .map(ObjectKey::toString).sorted().collect(Collectors.toList())) + "\n");
  }

  /**
   * Checks that the last reconcile of {@code key} succeeded and that the key is settled.
   *
   * <p>Succeeded: it returned {@code Result.done()} ({@link ReconcileOutcome#SUCCESS}) or {@code
   * Result.requeueAfter(..)} ({@link ReconcileOutcome#REQUEUE_AFTER}: the reconcile did its work and
   * asked to be woken later, as a controller with a periodic resync does). {@code Result.requeue()}
   * (rate-limited) and an error fail it. For other frameworks, what their view records as those
   * outcomes: a Java Operator SDK reschedule is a {@code REQUEUE_AFTER}.
   *
   * <p>Settled: the work queue does not hold the key again: not queued, not in flight, and not waiting
   * unless that wait is the delay of its own {@code requeueAfter}. So an old success does not pass
   * while a newer reconcile of the key is pending or running. A key is also "in flight" for the short
   * moment between the end of its reconcile and the worker marking it done; {@code
   * within(..).hasReconciledSuccessfully(key)} waits that out. It cannot see an event the informer
   * has not delivered yet: right after a change to a key that succeeded before, it passes on that
   * earlier success. Wait for the new reconcile with {@link #hasReconciledAtLeast(String, long)}
   * first.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconciledSuccessfully(String key) {
    return hasReconciledSuccessfully(parse(key, "hasReconciledSuccessfully"));
  }

  /**
   * Checks that the last reconcile of {@code key} succeeded ({@code done} or {@code requeueAfter}) and
   * that the work queue does not hold the key again; see {@link #hasReconciledSuccessfully(String)}.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconciledSuccessfully(ObjectKey key) {
    requireKey(key, "hasReconciledSuccessfully");
    return checkKey(key, "to have reconciled " + key + " successfully", state -> {
      ReconcileRecord last = state.last();
      if (last == null) {
        return "but it " + waiting.still() + "has not reconciled it.\n" + state.history(words());
      }
      if (last.outcome() == ReconcileOutcome.ERROR) {
        return "but its last reconcile failed:\n  " + StateFormat.outcome(last, words()) + "\n"
            + state.history(words());
      }
      if (last.outcome() == ReconcileOutcome.REQUEUE) {
        return "but its last reconcile asked for a rate-limited requeue:\n  "
            + StateFormat.outcome(last, words()) + "\n" + state.history(words());
      }
      String heldAgain = state.heldAgain();
      return heldAgain == null ? null
          : "but " + key + " is " + heldAgain + "; its last finished reconcile:\n  "
              + StateFormat.outcome(last, words()) + "\n" + state.history(words());
    });
  }

  /**
   * Checks that at least one reconcile of {@code key} failed (threw). Any failure the log holds
   * counts, even when later reconciles of the key succeeded: use {@link
   * #hasReconciledSuccessfully(String)} to check the key's current state.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasFailedToReconcile(String key) {
    return hasFailedToReconcile(parse(key, "hasFailedToReconcile"));
  }

  /**
   * Checks that at least one reconcile of {@code key} failed (threw), whatever came after it.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasFailedToReconcile(ObjectKey key) {
    requireKey(key, "hasFailedToReconcile");
    return checkFailure(key, "", r -> true);
  }

  /**
   * Checks that at least one reconcile of {@code key} failed with an error of {@code type} (or a
   * subtype), whatever came after it.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param type the error's type
   * @return this assertion
   * @throws NullPointerException if {@code key} or {@code type} is null
   */
  public ControllerAssert hasFailedToReconcile(String key, Class<? extends Throwable> type) {
    return hasFailedToReconcile(parse(key, "hasFailedToReconcile"), type);
  }

  /**
   * Checks that at least one reconcile of {@code key} failed with an error of {@code type} (or a
   * subtype), whatever came after it.
   *
   * @param key the key
   * @param type the error's type
   * @return this assertion
   * @throws NullPointerException if {@code key} or {@code type} is null
   */
  public ControllerAssert hasFailedToReconcile(ObjectKey key, Class<? extends Throwable> type) {
    requireKey(key, "hasFailedToReconcile");
    Objects.requireNonNull(type, "ControllerAssert.hasFailedToReconcile(key, type): type is null. "
        + "Pass the error's class, such as IllegalStateException.class.");
    return checkFailure(key, " with " + type.getName(), type::isInstance);
  }

  /**
   * Checks that at least one reconcile of {@code key} failed with an error whose message contains
   * {@code text}, whatever came after it.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param text part of the error message
   * @return this assertion
   * @throws NullPointerException if {@code key} or {@code text} is null
   */
  public ControllerAssert hasFailedToReconcileWithMessageContaining(String key, String text) {
    return hasFailedToReconcileWithMessageContaining(
        parse(key, "hasFailedToReconcileWithMessageContaining"), text);
  }

  /**
   * Checks that at least one reconcile of {@code key} failed with an error whose message contains
   * {@code text}, whatever came after it.
   *
   * @param key the key
   * @param text part of the error message
   * @return this assertion
   * @throws NullPointerException if {@code key} or {@code text} is null
   */
  public ControllerAssert hasFailedToReconcileWithMessageContaining(ObjectKey key, String text) {
    requireKey(key, "hasFailedToReconcileWithMessageContaining");
    Objects.requireNonNull(text, "ControllerAssert.hasFailedToReconcileWithMessageContaining(key, "
        + "text): text is null. Pass part of the expected error message.");
    return checkFailure(key, " with an error message containing \"" + text + "\"",
        e -> e.getMessage() != null && e.getMessage().contains(text));
  }

  /**
   * Checks that {@code key} was requeued: a reconcile returned {@code Result.requeue()} or {@code
   * Result.requeueAfter(..)} (in other frameworks, their equivalents, such as a Java Operator SDK
   * reschedule), or failed (a failure is retried with backoff). The message names the outcomes in
   * the framework's words: "(requeue, requeueAfter or a failure)", "(requeue, reschedule or a
   * failure)".
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasRequeued(String key) {
    return hasRequeued(parse(key, "hasRequeued"));
  }

  /**
   * Checks that {@code key} was requeued: a reconcile returned {@code Result.requeue()} or {@code
   * Result.requeueAfter(..)}, or failed (a failure is retried with backoff).
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasRequeued(ObjectKey key) {
    requireKey(key, "hasRequeued");
    return checkKey(key, "to have requeued " + key + " ("
        + StateFormat.outcomeWord(ReconcileOutcome.REQUEUE, words()) + ", "
        + StateFormat.outcomeWord(ReconcileOutcome.REQUEUE_AFTER, words()) + " or a failure)",
        state -> state.records().stream().anyMatch(r -> r.outcome() != ReconcileOutcome.SUCCESS)
            ? null
            : (state.total() == 0 ? "but it " + waiting.still() + "has not reconciled it.\n"
                : "but none of its reconciles " + waiting.still() + "did.\n")
                + state.history(words()));
  }

  /**
   * Checks that {@code key} was reconciled exactly {@code times} times.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param times the expected count
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconcileCount(String key, long times) {
    return hasReconcileCount(parse(key, "hasReconcileCount"), times);
  }

  /**
   * Checks that {@code key} was reconciled exactly {@code times} times.
   *
   * @param key the key
   * @param times the expected count
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public ControllerAssert hasReconcileCount(ObjectKey key, long times) {
    requireKey(key, "hasReconcileCount");
    return checkKey(key, "to have reconciled " + key + " exactly " + count(times, "time"),
        state -> state.total() == times ? null
            : "but it reconciled it " + count(state.total(), "time") + ".\n"
                + state.history(words()));
  }

  /**
   * Checks that {@code key} was reconciled at least {@code times} times, whatever the outcomes. With
   * {@code within(..)} it waits for the {@code times}-th reconcile: the guard to wait on after a change
   * to a key that was reconciled before, where {@link #hasReconciled(String)} would pass at once.
   *
   * <pre>{@code
   * long before = controller.stats().reconcilesPerKey().getOrDefault(ObjectKey.parse("default/web"), 0L);
   * client.configMaps().withName("web").edit(..);
   * assertThat(controller).within(ofSeconds(5)).hasReconciledAtLeast("default/web", before + 1).isIdle();
   * }</pre>
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param times the minimum
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   * @since 0.1.0
   */
  public ControllerAssert hasReconciledAtLeast(String key, long times) {
    return hasReconciledAtLeast(parse(key, "hasReconciledAtLeast"), times);
  }

  /**
   * Checks that {@code key} was reconciled at least {@code times} times; see {@link
   * #hasReconciledAtLeast(String, long)}.
   *
   * @param key the key
   * @param times the minimum
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   * @since 0.1.0
   */
  public ControllerAssert hasReconciledAtLeast(ObjectKey key, long times) {
    requireKey(key, "hasReconciledAtLeast");
    return checkKey(key, "to have reconciled " + key + " at least " + count(times, "time"),
        state -> state.total() >= times ? null
            : "but it reconciled it " + count(state.total(), "time") + ".\n"
                + state.history(words()));
  }

  /**
   * Checks that {@code key} was reconciled at most {@code times} times (to show that many events
   * for one key were de-duplicated into few reconciles).
   *
   * <p>This check cannot wait: it holds at once, before the informer even delivered the events, and
   * an extra reconcile would break it only later. So it refuses {@code within(..)}: first wait for
   * the effect of the events (an object the reconcile writes, {@code within(..).hasReconciledSuccessfully(key)}
   * for a key never reconciled before, or {@code within(..).hasReconciledAtLeast(key, before + 1)} for
   * one that was: a check that passes on an earlier reconcile would let this one run too early), then
   * check the count at once.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param times the maximum
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if this assertion waits ({@code within(..)})
   */
  public ControllerAssert hasReconciledAtMost(String key, long times) {
    return hasReconciledAtMost(parse(key, "hasReconciledAtMost"), times);
  }

  /**
   * Checks that {@code key} was reconciled at most {@code times} times; refuses to wait, see {@link
   * #hasReconciledAtMost(String, long)}.
   *
   * @param key the key
   * @param times the maximum
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if this assertion waits ({@code within(..)})
   */
  public ControllerAssert hasReconciledAtMost(ObjectKey key, long times) {
    requireKey(key, "hasReconciledAtMost");
    if (waiting.waits()) {
      throw new IllegalStateException("hasReconciledAtMost(" + key + ", " + times + ") cannot "
          + "wait" + waiting.phrase() + ": it holds at once, before any event has been delivered, "
          + "and an extra reconcile would only break it after the wait. Fix: first wait for the "
          + "effect, e.g. assertThat(controller).within(ofSeconds(5)).hasReconciledAtLeast(\""
          + key + "\", before + 1) (before: its reconcile count before the events), or an object the "
          + "reconcile writes, then call hasReconciledAtMost(..) without within(..).");
    }
    return checkKey(key, "to have reconciled " + key + " at most " + count(times, "time"),
        state -> state.total() <= times ? null
            : "but it reconciled it " + count(state.total(), "time") + ".\n"
                + state.history(words()));
  }

  /**
   * Checks that the controller is idle: running, caches synced, and its queue (work queue, pending
   * events) holds no key (nothing queued, in flight or waiting).
   *
   * <p><b>Trap:</b> with {@code within(..)} this passes at once when nothing has happened yet: right
   * after a write, before the informer delivered the event, the queue is empty too. Wait for an effect
   * first (an object the reconcile writes, {@code within(..).hasReconciled(key)} for a key never
   * reconciled before, or {@link #hasReconciledAtLeast(String, long) within(..).hasReconciledAtLeast(key,
   * before + 1)} after a change to one that was), then check that the controller is idle.
   *
   * @return this assertion
   */
  public ControllerAssert isIdle() {
    isNotNull();
    waiting.check(() -> {
      WorkQueueStats queue = actual.workQueue().stats();
      List<String> held = StateFormat.heldKeys(queue);
      boolean running = actual.isRunning();
      String problem = !running ? "but it is not running: " + NotRunning.reason(actual) + "\n"
          : !actual.hasSynced() ? "but its " + words().cache()
              + " caches have not synced.\n"
          : !held.isEmpty() ? "but its " + words().queue() + " " + waiting.still()
              + "held "
              + count(held.size(), "key") + ":\n" + StateFormat.queueContents(queue, "  ")
              + StateFormat.lastFailures(held, actual.reconcileLog())
              + unaccounted()
              + SlowReconciles.lines(actual, "")
          : null;
      if (problem != null) {
        throw FailureCauses.attach(failed(expecting("to be idle (running, caches synced, "
            + words().queue() + " empty)")
            + problem), !running ? NotRunning.errors(actual) : held.isEmpty() ? List.of()
                : FailureCauses.lastErrors(held, actual.reconcileLog()));
      }
    });
    return myself;
  }

  /**
   * Checks that the controller's work queue holds no key: {@code workQueue().isEmpty()}. The same trap
   * as {@link #isIdle()}: with {@code within(..)} it passes before any event arrived.
   *
   * @return this assertion
   */
  public ControllerAssert hasEmptyWorkQueue() {
    workQueue().isEmpty();
    return myself;
  }

  /**
   * Navigates to the convergence checks with a quiet period other than 500ms: {@code
   * within(ofSeconds(10)).quietFor(ofSeconds(1)).reachesFixedPoint(journal)}.
   *
   * @param quiet how long no write may have changed anything, positive (real time)
   * @return convergence assertions on this controller, waiting as this assertion does
   */
  public ConvergenceAssert quietFor(Duration quiet) {
    return convergence().quietFor(quiet);
  }

  /**
   * Checks that the controller reached a fixed point: nothing queued or in flight, no key waiting for
   * a retry, and no changing write in {@code journal} for 500ms; see {@link
   * ConvergenceAssert#reachesFixedPoint}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   */
  public ControllerAssert reachesFixedPoint(RequestJournal journal) {
    convergence().reachesFixedPoint(journal);
    return myself;
  }

  /**
   * Checks that one more reconcile of every key writes nothing (ctk's {@code Controller} only); see
   * {@link ConvergenceAssert#isIdempotent}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   */
  public ControllerAssert isIdempotent(RequestJournal journal) {
    convergence().isIdempotent(journal);
    return myself;
  }

  /**
   * Checks that no key was reconciled more than {@code maxReconciles} times without an outside
   * change; see {@link ConvergenceAssert#hasNoHotLoop}. Refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxReconciles the most reconciles of one key allowed without an outside change
   * @return this assertion
   */
  public ControllerAssert hasNoHotLoop(RequestJournal journal, int maxReconciles) {
    convergence().hasNoHotLoop(journal, maxReconciles);
    return myself;
  }

  /**
   * Checks that no object's status was changed more than twice in a row without an outside change;
   * see {@link ConvergenceAssert#hasNoStatusChurn(RequestJournal)}. Refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   */
  public ControllerAssert hasNoStatusChurn(RequestJournal journal) {
    convergence().hasNoStatusChurn(journal);
    return myself;
  }

  /**
   * Checks that no object's status was changed more than {@code maxWrites} times in a row without an
   * outside change. Refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxWrites the most changing status writes per object allowed
   * @return this assertion
   */
  public ControllerAssert hasNoStatusChurn(RequestJournal journal, int maxWrites) {
    convergence().hasNoStatusChurn(journal, maxWrites);
    return myself;
  }

  /**
   * Checks that no object was changed more than {@code maxWrites} times in a row without an outside
   * change; see {@link ConvergenceAssert#hasNoWriteChurn}. Refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxWrites the most changing writes per object allowed
   * @return this assertion
   */
  public ControllerAssert hasNoWriteChurn(RequestJournal journal, int maxWrites) {
    convergence().hasNoWriteChurn(journal, maxWrites);
    return myself;
  }

  /**
   * Checks that the controller's own writes raised no object's {@code metadata.generation} more than
   * {@code maxBumps} times in a row without an outside change; see {@link
   * ConvergenceAssert#hasNoGenerationChurn}. Refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxBumps the most generation bumps per object allowed
   * @return this assertion
   */
  public ControllerAssert hasNoGenerationChurn(RequestJournal journal, int maxBumps) {
    convergence().hasNoGenerationChurn(journal, maxBumps);
    return myself;
  }

  /** Why a probe cannot tell whether its controller is idle, or {@code ""}. */
  private String unaccounted() {
    if (!(actual instanceof ControllerProbe probe) || probe.unaccountedKeys().isEmpty()) {
      return "";
    }
    return "It cannot tell whether it is idle: the last reconcile of "
        + probe.unaccountedKeys().stream().map(ObjectKey::toString).collect(Collectors.joining(", "))
        + " failed or asked for a retry, and the probe was not told what happens next (a retry after a delay, an "
        + "add, or a drop). Tell it: requeue through probe.delayedRequeue(queue).retryAfter(key, delay) (or "
        + "probe.addedRateLimited(key, delay), probe.added(key)), or call probe.removed(key) when the key is "
        + "dropped.\n";
  }

  private ConvergenceAssert convergence() {
    isNotNull();
    ConvergenceAssert convergence = new ConvergenceAssert(actual, timeout,
        ConvergenceAssert.DEFAULT_QUIET_PERIOD);
    convergence.info.description(info.description());
    convergence.info.useRepresentation(info.representation());
    return convergence;
  }

  private ControllerAssert checkFailure(ObjectKey key, String with,
      Predicate<Throwable> matching) {
    return checkKey(key, "to have failed to reconcile " + key + with, state -> {
      if (state.records().stream().anyMatch(r -> r.outcome() == ReconcileOutcome.ERROR
          && r.error() != null && matching.test(r.error()))) {
        return null;
      }
      if (state.total() == 0) {
        return "but it " + waiting.still() + "has not reconciled it.\n" + state.history(words());
      }
      boolean anyFailed = state.records().stream()
          .anyMatch(r -> r.outcome() == ReconcileOutcome.ERROR);
      return (anyFailed ? "but none of its failures " + waiting.still() + "matched.\n"
          : "but none of its reconciles " + waiting.still() + "failed.\n")
          + state.history(words());
    });
  }

  /** Runs a check on the state of one key; {@code problem} returns null when it passes. */
  private ControllerAssert checkKey(ObjectKey key, String expectation,
      Function<KeyState, String> problem) {
    isNotNull();
    waiting.check(() -> {
      KeyState state = KeyState.of(actual, key);
      String text = problem.apply(state);
      if (text != null) {
        List<Throwable> errors = new ArrayList<>();
        ReconcileRecord last = state.last();
        if (last != null && last.outcome() == ReconcileOutcome.ERROR) {
          errors.add(last.error());
        }
        errors.addAll(FailureCauses.historyErrors(state.records()));
        Duration running = actual.runningReconciles().get(key);
        String slow = running == null ? ""
            : SlowReconciles.lines(Map.of(key, running), state.records(), "");
        throw FailureCauses.attach(failed(expecting(expectation) + text
            + words().queue() + ": " + queueLine(state.stats().queue()) + "\n" + slow), errors);
      }
    });
    return myself;
  }

  private String expecting(String expectation) {
    return "\nExpecting " + words().controller() + " \"" + actual.name() + "\"\n  "
        + expectation + waiting.phrase() + "\n";
  }

  /** The words of the controller's framework. */
  private Vocabulary words() {
    return actual.vocabulary();
  }

  private AssertionError failed(String message) {
    return failure("%s", message.stripTrailing());
  }

  private static String queueLine(WorkQueueStats queue) {
    return "queued " + StateFormat.keys(queue.queuedKeys()) + ", in flight "
        + StateFormat.keys(queue.inFlightKeys()) + ", waiting "
        + StateFormat.keys(queue.waitingKeys());
  }

  private static ObjectKey parse(String key, String method) {
    if (key == null) {
      throw nullKey(method);
    }
    return ObjectKey.parse(key);
  }

  private static void requireKey(ObjectKey key, String method) {
    if (key == null) {
      throw nullKey(method);
    }
  }

  private static NullPointerException nullKey(String method) {
    return new NullPointerException("ControllerAssert." + method + ": the key is null. Pass "
        + "\"namespace/name\", \"name\" (cluster-scoped) or ObjectKey.of(namespace, name).");
  }
}
