package dev.ctk.harness.internal.timeline;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileListener;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.TimeSource;
import dev.ctk.controller.WorkQueueListener;
import dev.ctk.harness.values.TestCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one {@link dev.ctk.harness.TestScope} records for its failure timeline while the test runs: when the scope
 * began, where the fake cluster's request journal stood then, and a work-queue listener and a
 * reconcile listener on every controller its harness starts (attached through the harness's start
 * hook, before the controller starts). The listeners only append to bounded {@link TimelineLog}s, so
 * a test that passes pays one small object per queue change and reconcile, and nothing is ever read.
 *
 * <p>A method scope that borrows a class scope's cluster reads the class scope's controllers too,
 * from its own start on.
 */
public final class TimelineRecorder {

  private final Instant started = Instant.now();
  private final TimelineRecorder enclosing;
  private final TimelineFakeSources.Mark fakeMark;
  private final List<Attached> attached = new CopyOnWriteArrayList<>();

  /** A controller with its two logs. */
  private record Attached(Controller controller, TimelineLog queue, TimelineLog reconciles) {}

  /**
   * Starts recording for a scope: now is the start of its timeline.
   *
   * @param cluster the scope's cluster; in fake mode, the journal's position is taken now
   * @param enclosing the recorder of the enclosing scope, or {@code null}
   */
  public TimelineRecorder(TestCluster cluster, TimelineRecorder enclosing) {
    this.enclosing = enclosing;
    this.fakeMark = cluster.fakeCluster().map(TimelineFakeSources::mark).orElse(null);
  }

  /** When the scope began: time 0 of its timeline. */
  public Instant started() {
    return started;
  }

  /** Where the fake cluster's journal stood when the scope began, or {@code null} in a real mode. */
  public TimelineFakeSources.Mark fakeMark() {
    return fakeMark;
  }

  /**
   * Attaches the listeners to a controller about to start.
   *
   * @param controller the controller
   */
  public void attach(Controller controller) {
    TimelineLog queue = new TimelineLog(TimelineEntry.Kind.QUEUE, "queue " + controller.name());
    TimelineLog reconciles = new TimelineLog(TimelineEntry.Kind.RECONCILE,
        "reconcile " + controller.name());
    TimeSource time = controller.workQueue().timeSource();
    TimeSource virtual = time == null || time == TimeSource.system() ? null : time;
    controller.workQueue().addListener(new QueueListener(queue, virtual));
    controller.addReconcileListener(new ReconcileSteps(reconciles, virtual));
    attached.add(new Attached(controller, queue, reconciles));
  }

  /** Whether this recorder or an enclosing one listens to {@code view}. */
  public boolean listensTo(ControllerView view) {
    for (TimelineRecorder r = this; r != null; r = r.enclosing) {
      for (Attached a : r.attached) {
        if (a.controller() == view) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The listened controllers' steps since {@code since}, outermost scope first, and a note for each
   * log that dropped old steps.
   */
  public List<TimelineEntry> controllerEntries(Instant since, List<String> notes) {
    List<TimelineRecorder> chain = new ArrayList<>();
    for (TimelineRecorder r = this; r != null; r = r.enclosing) {
      chain.add(0, r);
    }
    List<TimelineEntry> entries = new ArrayList<>();
    for (TimelineRecorder r : chain) {
      for (Attached a : r.attached) {
        for (TimelineLog log : List.of(a.queue(), a.reconciles())) {
          entries.addAll(log.entries(since, a.controller().vocabulary()));
          long dropped = log.dropped();
          if (dropped > 0) {
            notes.add(log.source() + ": " + dropped + " older entries were dropped (the timeline "
                + "keeps the last " + log.limit() + " of each source)");
          }
        }
      }
    }
    return entries;
  }

  /** Feeds a controller's work-queue changes into its log. */
  private record QueueListener(TimelineLog log, TimeSource virtual)
      implements WorkQueueListener<ObjectKey> {

    @Override
    public void onAdd(ObjectKey key, boolean deduplicated) {
      log.record(deduplicated ? TimelineLog.Step.ADD_DEDUPLICATED : TimelineLog.Step.ADD, key,
          null, clock(virtual));
    }

    @Override
    public void onDelayed(ObjectKey key, Duration delay) {
      log.record(TimelineLog.Step.DELAY, key, delay, clock(virtual));
    }

    @Override
    public void onHandedOut(ObjectKey key) {
      log.record(TimelineLog.Step.HAND_OUT, key, null, clock(virtual));
    }

    @Override
    public void onDone(ObjectKey key, boolean requeued) {
      log.record(requeued ? TimelineLog.Step.DONE_REQUEUED : TimelineLog.Step.DONE, key, null,
          clock(virtual));
    }

    @Override
    public void onDropped(ObjectKey key) {
      log.record(TimelineLog.Step.DROP, key, null, clock(virtual));
    }
  }

  /** Feeds a controller's reconcile starts and ends into its log. */
  private record ReconcileSteps(TimelineLog log, TimeSource virtual) implements ReconcileListener {

    @Override
    public void onReconcileStart(ObjectKey key, String worker) {
      log.record(TimelineLog.Step.RECONCILE_START, key, worker, clock(virtual));
    }

    @Override
    public void onReconcileEnd(ReconcileRecord record) {
      log.record(TimelineLog.Step.RECONCILE_END, record.key(), record,
          virtual == null ? null : record.end());
    }
  }

  private static Instant clock(TimeSource virtual) {
    return virtual == null ? null : virtual.now();
  }
}
