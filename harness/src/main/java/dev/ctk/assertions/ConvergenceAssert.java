package dev.ctk.assertions;

import static dev.ctk.assertions.internal.StateFormat.count;

import dev.ctk.assertions.internal.FailureCauses;
import dev.ctk.assertions.internal.GenerationBumps;
import dev.ctk.assertions.internal.NotRunning;
import dev.ctk.assertions.internal.OwnWrites;
import dev.ctk.assertions.internal.Polling;
import dev.ctk.assertions.internal.ReconcileWindows;
import dev.ctk.assertions.internal.SlowReconciles;
import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.assertions.internal.Streaks;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.ApiRequestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.assertj.core.api.AbstractAssert;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Whether a controller converges, read from its {@link ControllerView} and the fake cluster's {@link
 * RequestJournal}: it reaches a fixed point, one more reconcile of every key writes nothing, no key
 * is reconciled over and over by its own writes (a hot loop), and no object's status, spec or
 * {@code metadata.generation} is rewritten over and over (churn). Reach it from {@code
 * assertThat(controller)}:
 *
 * <pre>{@code
 * RequestJournal journal = harness.requests();
 * assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);   // quiet for 500ms
 * assertThat(controller).within(ofSeconds(10)).quietFor(ofSeconds(1)).reachesFixedPoint(journal);
 * assertThat(controller).isIdempotent(journal);
 * assertThat(controller).hasNoHotLoop(journal, 5);
 * assertThat(controller).hasNoStatusChurn(journal);
 * assertThat(controller).hasNoGenerationChurn(journal, 1);
 * }</pre>
 *
 * <p><b>Own writes and outside changes.</b> A request is the controller's own when the server received
 * it while one of the controller's reconciles ran, whoever sent it. For controllers started through
 * {@code ControllerHarness.start} the real start and end of each reconcile are recorded, so this
 * holds on virtual time too; for other views the times of their reconcile records are used, which
 * must then be real time. An outside change is an event injected through {@code EventInjector}, or
 * any other write that succeeded and changed the store (the test's, another controller's), to any
 * object: an outside change anywhere ends every key's streak, so a test that keeps writing unrelated
 * objects hides a loop.
 *
 * <p><b>Time.</b> {@link #within(Duration)} and {@link #quietFor(Duration)} are real time, measured
 * with Awaitility: they bound the wait, they assert nothing about speed.
 *
 * @since 0.1.0
 */
public final class ConvergenceAssert extends AbstractAssert<ConvergenceAssert, ControllerView> {

  /** The quiet period of {@link #reachesFixedPoint} unless {@link #quietFor} sets another. */
  public static final Duration DEFAULT_QUIET_PERIOD = Duration.ofMillis(500);

  /** How long {@link #isIdempotent} waits for the controller without {@link #within}. */
  public static final Duration DEFAULT_IDEMPOTENCY_TIMEOUT = Duration.ofSeconds(10);

  /** The changing status writes per object {@link #hasNoStatusChurn(RequestJournal)} allows. */
  public static final int DEFAULT_STATUS_WRITES = 2;

  /** How many writes a message lists before "... and N more". */
  private static final int WRITE_LIMIT = 10;

  private final Duration timeout;
  private final Duration quiet;

  ConvergenceAssert(ControllerView controller, Duration timeout, Duration quiet) {
    super(controller, ConvergenceAssert.class);
    this.timeout = timeout;
    this.quiet = quiet;
  }

  /**
   * The same assertion, waiting at most {@code timeout} (real time) for a fixed point, or for the
   * extra reconciles of {@link #isIdempotent}. This assertion is not changed.
   *
   * @param timeout how long to wait, positive
   * @return a new, waiting assertion
   */
  public ConvergenceAssert within(Duration timeout) {
    Waiting.within(timeout);   // checks the value
    return copy(timeout, quiet);
  }

  /**
   * The same assertion with another quiet period for {@link #reachesFixedPoint}: how long no write
   * may have changed anything. Under {@link #within}, it must be shorter than the timeout.
   *
   * @param quiet the quiet period, positive (real time)
   * @return a new assertion
   */
  public ConvergenceAssert quietFor(Duration quiet) {
    Objects.requireNonNull(quiet, "quietFor(null): pass a quiet period such as ofMillis(500)");
    if (quiet.isNegative() || quiet.isZero()) {
      throw new IllegalArgumentException("quietFor(" + quiet + "): the quiet period must be "
          + "positive, such as Duration.ofMillis(500).");
    }
    return copy(timeout, quiet);
  }

  private ConvergenceAssert copy(Duration timeout, Duration quiet) {
    ConvergenceAssert next = new ConvergenceAssert(actual, timeout, quiet);
    next.info.description(info.description());
    next.info.useRepresentation(info.representation());
    return next;
  }

  /**
   * Checks that the controller reached a fixed point: running, nothing queued or in flight in its
   * work queue, no key waiting for a retry (a key waiting on its own {@code requeueAfter} is
   * fine), and nothing changed during the quiet period (500ms unless {@link #quietFor} says
   * otherwise): no write in {@code journal} that changed the store, whoever wrote, and no injected
   * event. Under {@link #within} it waits until that holds.
   *
   * <p><b>Trap:</b> it cannot see an event the informer has not delivered yet. Right after a write,
   * before the watch event reached the controller, the queue is empty too, and once the quiet
   * period has passed the check holds. Wait for an effect of your last write first (an object the
   * reconcile writes, {@code hasReconciled(key)} for a key never reconciled before, or {@code
   * hasReconciledAtLeast(key, before + 1)} after a change to one that was), then check the fixed point.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   * @throws IllegalArgumentException if the quiet period is not shorter than the {@code within} timeout
   */
  public ConvergenceAssert reachesFixedPoint(RequestJournal journal) {
    isNotNull();
    requireJournal(journal, "reachesFixedPoint");
    if (timeout != null && quiet.compareTo(timeout) >= 0) {
      throw new IllegalArgumentException("reachesFixedPoint: the quiet period ("
          + StateFormat.duration(quiet) + ") must be shorter than the within(..) timeout ("
          + StateFormat.duration(timeout) + "), or no wait could ever see it. Fix: give within(..) "
          + "more time or quietFor(..) less.");
    }
    Waiting waiting = waiting();
    waiting.check(() -> {
      String problem = unsettled(journal, waiting);
      if (problem != null) {
        throw FailureCauses.attach(failed(expecting("to reach a fixed point" + waiting.phrase()
            + " (" + words().queue() + " empty, nothing in flight, no change for "
            + StateFormat.duration(quiet) + ")") + problem + queueLine()),
            withWorkerError(FailureCauses.lastErrors(actual.workQueue().stats().waitingKeys(),
                actual.reconcileLog())));
      }
    });
    return myself;
  }

  /** {@code errors}, then the error that ended a worker of the controller, if one did. */
  private List<Throwable> withWorkerError(List<Throwable> errors) {
    List<Throwable> all = new ArrayList<>(errors);
    all.addAll(NotRunning.errors(actual));
    return all;
  }

  /** Why the controller is not at a fixed point now, or null. */
  private String unsettled(RequestJournal journal, Waiting waiting) {
    if (!actual.isRunning()) {
      return "but it is not running: " + NotRunning.reason(actual) + "\n";
    }
    WorkQueueStats queue = actual.workQueue().stats();
    StringBuilder problems = new StringBuilder();
    if (!queue.queuedKeys().isEmpty()) {
      problems.append("  queued: ").append(StateFormat.keys(queue.queuedKeys())).append('\n');
    }
    if (!queue.inFlightKeys().isEmpty()) {
      problems.append("  in flight: ").append(StateFormat.keys(queue.inFlightKeys()))
          .append('\n').append(SlowReconciles.lines(actual, "    "));
    }
    for (String key : queue.waitingKeys()) {
      List<ReconcileRecord> records = StateFormat.recordsOf(actual.reconcileLog(),
          ObjectKey.parse(key));
      ReconcileRecord last = records.isEmpty() ? null : records.get(records.size() - 1);
      if (last != null && (last.outcome() == ReconcileOutcome.ERROR
          || last.outcome() == ReconcileOutcome.REQUEUE)) {
        problems.append("  waiting for a retry: ").append(key).append(", last reconcile: ")
            .append(StateFormat.outcome(last, words())).append('\n');
      }
    }
    Instant quietSince = Instant.now().minus(quiet);
    List<ApiRequestRecord> recent = journal.all().stream()
        .filter(OwnWrites::isChange).filter(r -> r.time().isAfter(quietSince)).toList();
    if (!recent.isEmpty()) {
      problems.append("  ").append(count(recent.size(), "change"))
          .append(" in the last ").append(StateFormat.duration(quiet)).append(":\n")
          .append(writeLines(recent, "    "));
    }
    return problems.length() == 0 ? null
        : "but it has " + waiting.still() + "not settled:\n" + problems;
  }

  /**
   * Checks that reconciling every key once more writes nothing: adds each key the controller has
   * reconciled to its work queue, waits until they were reconciled and the queue holds nothing queued
   * or in flight, and fails if any write of the controller changed anything meanwhile. Waits first
   * until the controller has settled (nothing queued or in flight). All waits together take at most
   * the {@link #within} timeout, 10s without one. Only ctk's {@link Controller} lets a test add keys.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   * @throws IllegalArgumentException if the controller is not a ctk {@code Controller}
   */
  public ConvergenceAssert isIdempotent(RequestJournal journal) {
    isNotNull();
    requireJournal(journal, "isIdempotent");
    if (!(actual instanceof Controller controller)) {
      throw new IllegalArgumentException("isIdempotent(..) adds every key to the controller's work "
          + "queue once more, which only ctk's dev.ctk.controller.Controller allows; "
          + words().controller() + " \"" + actual.name() + "\" is a " + actual.getClass().getName()
          + ". Fix: for other controllers, touch each object once more yourself (e.g. add an "
          + "annotation through the client) and then assert reachesFixedPoint(..) and "
          + "hasNoHotLoop(..).");
    }
    ReconcileWindows.track(controller);
    Duration bound = timeout == null ? DEFAULT_IDEMPOTENCY_TIMEOUT : timeout;
    Instant deadline = Instant.now().plus(bound);
    String expectation = expecting("to be idempotent: one more reconcile of each key it "
        + "reconciled writes nothing");
    if (!awaitSettled(controller, until(deadline), Map.of())) {
      throw failed(expectation + "but it did not settle within " + StateFormat.duration(bound)
          + " before the extra reconciles (it still had keys queued or in flight).\n"
          + queueLine() + SlowReconciles.lines(controller, ""));
    }
    Map<ObjectKey, Long> before = controller.stats().reconcilesPerKey();
    if (before.isEmpty()) {
      throw failed(expectation + "but it has not reconciled any key yet. Fix: first wait until "
          + "it reconciled, e.g. within(..).reachesFixedPoint(journal) after creating objects.");
    }
    List<ObjectKey> keys = before.keySet().stream()
        .sorted(Comparator.comparing(ObjectKey::toString)).toList();
    long mark = journal.lastSequence();
    keys.forEach(controller.workQueue()::add);
    if (!awaitSettled(controller, until(deadline), before)) {
      throw failed(expectation + "but the extra reconciles of " + StateFormat.keys(keys)
          + " did not finish within " + StateFormat.duration(bound) + ".\n" + queueLine()
          + SlowReconciles.lines(controller, ""));
    }
    OwnWrites own = OwnWrites.of(controller);
    List<ApiRequestRecord> writes = journal.since(mark).stream().filter(OwnWrites::isChangingWrite)
        .filter(own::isOwn).toList();
    if (!writes.isEmpty()) {
      throw failed(expectation + "but reconciling " + StateFormat.keys(keys) + " once more made "
          + count(writes.size(), "changing write") + ":\n" + writeLines(writes, "  ")
          + "Fix: compare the desired state with the live object and write only what differs, "
          + "so that a reconcile of a settled object changes nothing.");
    }
    return myself;
  }

  private static Duration until(Instant deadline) {
    Duration left = Duration.between(Instant.now(), deadline);
    return left.compareTo(Polling.INTERVAL) < 0 ? Polling.INTERVAL : left;
  }

  /** Waits until nothing is queued or in flight and every key of {@code before} was reconciled again. */
  private static boolean awaitSettled(Controller controller, Duration bound,
      Map<ObjectKey, Long> before) {
    try {
      Polling.atMost(bound).until(() -> {
        WorkQueueStats queue = controller.workQueue().stats();
        Map<ObjectKey, Long> now = controller.stats().reconcilesPerKey();
        return queue.queuedKeys().isEmpty() && queue.inFlightKeys().isEmpty()
            && before.entrySet().stream()
                .allMatch(e -> now.getOrDefault(e.getKey(), 0L) > e.getValue());
      });
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }

  /**
   * Checks that no key was reconciled more than {@code maxReconciles} times in a row while the only
   * changes to the world were the controller's own writes. Every reconcile counts, whatever its
   * outcome: also retries after errors and {@code requeue}/{@code requeueAfter} (on real time, a
   * short periodic {@code requeueAfter} adds up; pick the maximum accordingly). The message lists the
   * writes that kept the key busy.
   *
   * <p>It checks the history once, at once, and refuses {@link #within}: it holds before anything
   * happened. Wait for the controller first ({@code within(..).reachesFixedPoint(journal)}).
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxReconciles the most reconciles of one key allowed without an outside change, at least 1
   * @return this assertion
   * @throws IllegalStateException if this assertion waits
   */
  public ConvergenceAssert hasNoHotLoop(RequestJournal journal, int maxReconciles) {
    isNotNull();
    requireJournal(journal, "hasNoHotLoop");
    requireAtLeastOne(maxReconciles, "hasNoHotLoop", "maxReconciles");
    refuseWaiting("hasNoHotLoop(journal, " + maxReconciles + ")");
    OwnWrites own = OwnWrites.of(actual);
    Streaks.longestReconcileRun(own, journal.all())
        .filter(run -> run.reconciles().size() > maxReconciles)
        .ifPresent(run -> {
          String because = run.writes().isEmpty()
              ? "; it wrote nothing that changed anything, so its own requeues kept it busy; "
                  + "its last reconcile:\n  " + run.reconciles().get(run.reconciles().size() - 1)
                      .record().summary() + "\n"
              : "; its own writes kept it busy:\n" + writeLines(run.writes(), "  ");
          throw failed(expecting("to have no hot loop (at most " + count(maxReconciles,
              "reconcile") + " of a key without an outside change)") + "but " + run.key()
              + " was reconciled " + count(run.reconciles().size(), "time")
              + " without an outside change" + because);
        });
    return myself;
  }

  /**
   * Checks that the controller changed no object's status more than twice ({@value
   * #DEFAULT_STATUS_WRITES}) in a row without an outside change: a reconcile may move a status
   * through one intermediate state, but a status rewritten again and again (a timestamp, a counter,
   * conditions in a new order) is churn. Counts writes to the {@code status} subresource that changed
   * the object.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @return this assertion
   * @throws IllegalStateException if this assertion waits
   */
  public ConvergenceAssert hasNoStatusChurn(RequestJournal journal) {
    return hasNoStatusChurn(journal, DEFAULT_STATUS_WRITES);
  }

  /**
   * Checks that the controller changed no object's status more than {@code maxWrites} times in a
   * row without an outside change (writes to the {@code status} subresource that changed the
   * object). Checks once, at once; refuses {@link #within}, as {@link #hasNoHotLoop} does.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxWrites the most changing status writes per object allowed, at least 1
   * @return this assertion
   * @throws IllegalStateException if this assertion waits
   */
  public ConvergenceAssert hasNoStatusChurn(RequestJournal journal, int maxWrites) {
    return checkChurn(journal, maxWrites, "hasNoStatusChurn", "status churn",
        "changing writes of an object's status", r -> "status".equals(r.subresource()));
  }

  /**
   * Checks that the controller changed no object (each subresource apart: an object and its status
   * are two) more than {@code maxWrites} times in a row without an outside change: the churn of
   * spec, labels or annotations that bumps {@code metadata.generation} or {@code resourceVersion} for
   * nothing. Checks once, at once; refuses {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxWrites the most changing writes per object allowed, at least 1
   * @return this assertion
   * @throws IllegalStateException if this assertion waits
   */
  public ConvergenceAssert hasNoWriteChurn(RequestJournal journal, int maxWrites) {
    return checkChurn(journal, maxWrites, "hasNoWriteChurn", "write churn",
        "changing writes of an object", r -> true);
  }

  /**
   * Checks that the controller's own writes raised no object's {@code metadata.generation} more than
   * {@code maxBumps} times in a row without an outside change: a controller that rewrites a spec on
   * every reconcile (a timestamp or counter in a pod template annotation, a field the server
   * defaults written back without it, a list in another order) makes every workload controller
   * downstream roll out again. Counts the writes whose {@link ApiRequestRecord#generation()} is
   * higher than the last one recorded for the object (writes to its {@code status} or {@code scale}
   * subresource included; a create is no bump). Kinds that keep no generation (ConfigMap, Secret,
   * ...) are never counted: use {@link #hasNoWriteChurn} for them. Checks once, at once; refuses
   * {@link #within}.
   *
   * @param journal the fake cluster's journal ({@code harness.requests()})
   * @param maxBumps the most generation bumps per object allowed, at least 1
   * @return this assertion
   * @throws IllegalStateException if this assertion waits
   */
  public ConvergenceAssert hasNoGenerationChurn(RequestJournal journal, int maxBumps) {
    isNotNull();
    requireJournal(journal, "hasNoGenerationChurn");
    requireAtLeastOne(maxBumps, "hasNoGenerationChurn", "maxBumps");
    refuseWaiting("hasNoGenerationChurn(journal, " + maxBumps + ")");
    List<ApiRequestRecord> records = journal.all();
    GenerationBumps bumps = GenerationBumps.of(records);
    List<ApiRequestRecord> run = Streaks.longestWriteRun(OwnWrites.of(actual), records,
        bumps::raised, GenerationBumps::object);
    if (run.size() > maxBumps) {
      throw failed(expecting("to have no generation churn (at most " + count(maxBumps, "write")
          + " raising an object's metadata.generation without an outside change)") + "but it "
          + "raised the metadata.generation of " + GenerationBumps.object(run.get(0)) + " "
          + count(run.size(), "time") + " without an outside change:\n" + writeLines(run, "  ")
          + "Fix: compare the desired spec with the live object and write only what differs; "
          + "keep changing values such as timestamps or counters out of the spec and the pod "
          + "template.");
    }
    return myself;
  }

  private ConvergenceAssert checkChurn(RequestJournal journal, int maxWrites, String method,
      String what, String counted, Predicate<ApiRequestRecord> counts) {
    isNotNull();
    requireJournal(journal, method);
    requireAtLeastOne(maxWrites, method, "maxWrites");
    refuseWaiting(method + "(journal, " + maxWrites + ")");
    List<ApiRequestRecord> run = Streaks.longestWriteRun(OwnWrites.of(actual), journal.all(),
        counts);
    if (run.size() > maxWrites) {
      throw failed(expecting("to have no " + what + " (at most " + maxWrites + " " + counted
          + " without an outside change)") + "but it changed " + Streaks.object(run.get(0)) + " "
          + count(run.size(), "time") + " without an outside change:\n" + writeLines(run, "  "));
    }
    return myself;
  }

  private Waiting waiting() {
    return timeout == null ? Waiting.IMMEDIATE : Waiting.within(timeout);
  }

  private void refuseWaiting(String call) {
    if (timeout != null) {
      throw new IllegalStateException(call + " cannot wait within "
          + StateFormat.duration(timeout) + ": it checks what already happened, and holds at once "
          + "before anything happened. Fix: first wait for the controller, e.g. "
          + "assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal), then call "
          + call + " without within(..).");
    }
  }

  private static void requireJournal(RequestJournal journal, String method) {
    Objects.requireNonNull(journal, method + "(null): pass the fake cluster's request journal, "
        + "harness.requests() or cluster.requests()");
  }

  private static void requireAtLeastOne(int value, String method, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(method + ": " + name + " must be at least 1, was "
          + value + ".");
    }
  }

  /** The writes' summaries, one per line, at most {@value #WRITE_LIMIT}, then "... and N more". */
  static String writeLines(List<ApiRequestRecord> writes, String indent) {
    StringBuilder lines = new StringBuilder();
    writes.stream().limit(WRITE_LIMIT)
        .forEach(w -> lines.append(indent).append(w.summary()).append('\n'));
    if (writes.size() > WRITE_LIMIT) {
      lines.append(indent).append("... and ").append(writes.size() - WRITE_LIMIT)
          .append(" more\n");
    }
    return lines.toString();
  }

  private String queueLine() {
    WorkQueueStats queue = actual.workQueue().stats();
    return words().queue() + ": queued " + StateFormat.keys(queue.queuedKeys()) + ", in flight "
        + StateFormat.keys(queue.inFlightKeys()) + ", waiting "
        + StateFormat.keys(queue.waitingKeys()) + "\n";
  }

  private String expecting(String expectation) {
    return "\nExpecting " + words().controller() + " \"" + actual.name() + "\"\n  " + expectation
        + "\n";
  }

  private Vocabulary words() {
    return actual.vocabulary();
  }

  private AssertionError failed(String message) {
    return failure("%s", message.stripTrailing());
  }
}
