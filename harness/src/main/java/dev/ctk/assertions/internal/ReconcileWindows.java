package dev.ctk.assertions.internal;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileListener;
import dev.ctk.controller.ReconcileRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The real (wall-clock) start and end of each reconcile of a ctk {@link Controller}, recorded by a
 * {@link ReconcileListener}. A controller's own reconcile log is stamped by its time source, which is
 * virtual under virtual time; the request journal is stamped in real time. These windows let the
 * convergence assertions tell whether a request arrived while a reconcile ran, whatever the clock.
 *
 * <p>{@code ControllerHarness.start} calls {@link #track} before the controller starts; the
 * assertions find the windows by controller with {@link #of}. Controllers are held weakly. At most
 * {@value #LIMIT} windows are kept per controller, the oldest dropped first.
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class ReconcileWindows implements ReconcileListener {

  /** How many windows are kept per controller. */
  public static final int LIMIT = 100_000;

  private static final Map<ControllerView, ReconcileWindows> TRACKED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final Map<String, Instant> openByWorker = new HashMap<>();
  private final Map<Long, Window> bySequence = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Window> eldest) {
      return size() > LIMIT;
    }
  };

  private ReconcileWindows() {}

  /**
   * Starts recording the reconcile windows of {@code controller}, once: later calls do nothing.
   *
   * @param controller the controller; best before it starts, so that no reconcile is missed
   */
  public static void track(Controller controller) {
    TRACKED.computeIfAbsent(controller, c -> {
      ReconcileWindows windows = new ReconcileWindows();
      controller.addReconcileListener(windows);
      return windows;
    });
  }

  /**
   * The windows of a tracked controller; for a {@code RestartableController}, those of its current instance.
   *
   * @param view the controller
   * @return its windows, or empty when it is not tracked
   */
  public static Optional<ReconcileWindows> of(ControllerView view) {
    ControllerView tracked = view instanceof dev.ctk.harness.values.Restartable restartable
        ? restartable.currentController().map(ControllerView.class::cast).orElse(view) : view;
    return Optional.ofNullable(TRACKED.get(tracked));
  }

  @Override
  public synchronized void onReconcileStart(ObjectKey key, String worker) {
    openByWorker.put(worker, Instant.now());
  }

  @Override
  public synchronized void onReconcileEnd(ReconcileRecord record) {
    Instant start = openByWorker.remove(record.worker());
    if (start != null) {
      bySequence.put(record.sequence(), new Window(start, Instant.now()));
    }
  }

  /**
   * The real window of a finished reconcile.
   *
   * @param sequence the reconcile record's sequence
   * @return its window, or empty if it was not recorded (before tracking, or dropped)
   */
  public synchronized Optional<Window> window(long sequence) {
    return Optional.ofNullable(bySequence.get(sequence));
  }

  /**
   * The real start of each reconcile running now.
   *
   * @return the starts, in no particular order
   */
  public synchronized List<Instant> runningSince() {
    return new ArrayList<>(openByWorker.values());
  }

  /**
   * A real time span.
   *
   * @param start when it started
   * @param end when it ended
   */
  public record Window(Instant start, Instant end) {

    /**
     * Whether {@code time} lies in this window, ends included.
     *
     * @param time the instant
     * @return {@code true} if {@code start <= time <= end}
     */
    public boolean contains(Instant time) {
      return !time.isBefore(start) && !time.isAfter(end);
    }
  }
}
