package dev.ctk.harness.internal.perturb;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.WatchDelivery;
import dev.ctk.harness.internal.ControllerWrite;
import dev.ctk.harness.internal.perturb.PerturbationRuns.TimelineLine;
import dev.ctk.harness.internal.timeline.TimelineReport;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads, from a perturbed run's live cluster and tracker, the lines its report may show: the injections, every write
 * since the run began (a controller's numbered as the tracker numbers them, with its instance after a restart) and
 * every watch event a perturbation held, released or dropped. Times are local wall-clock {@code HH:mm:ss.SSS}, as the
 * tracker writes its injections.
 */
public final class PerturbationTimeline {

  /** How every perturbation timeline and injection line writes a time: {@code HH:mm:ss.SSS}, local wall clock. */
  public static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
  private static final Set<WatchDelivery.Outcome> SHOWN_DELIVERIES =
      EnumSet.of(WatchDelivery.Outcome.HELD, WatchDelivery.Outcome.RELEASED, WatchDelivery.Outcome.DROPPED);

  private PerturbationTimeline() {}

  /**
   * The lines of a run.
   *
   * @param cluster the run's cluster, still open
   * @param injections the tracker's injections, {@code HH:mm:ss.SSS <what>}
   * @param writes the tracker's controller writes
   * @param journalMark the journal's last sequence when the run began
   * @return the lines, unsorted
   */
  public static List<TimelineLine> read(FakeCluster cluster, List<String> injections, List<ControllerWrite> writes,
      long journalMark) {
    return read(cluster, injections, writes, Map.of(), journalMark);
  }

  /**
   * The lines of a run, with the requests a crash refused labelled with the instance that sent them.
   *
   * @param cluster the run's cluster, still open
   * @param injections the tracker's injections, {@code HH:mm:ss.SSS <what>}
   * @param writes the tracker's controller writes
   * @param refused who sent each request the crash point refused, by journal sequence ({@code controller "x"
   *     instance 1})
   * @param journalMark the journal's last sequence when the run began
   * @return the lines, unsorted
   */
  public static List<TimelineLine> read(FakeCluster cluster, List<String> injections, List<ControllerWrite> writes,
      Map<Long, String> refused, long journalMark) {
    List<TimelineLine> lines = new ArrayList<>();
    for (String injection : injections) {
      int space = injection.indexOf(' ');
      lines.add(space < 0 ? new TimelineLine("", injection, null)
          : new TimelineLine(injection.substring(0, space), injection.substring(space + 1), null));
    }
    Map<Long, ControllerWrite> bySequence = new HashMap<>();
    writes.forEach(w -> bySequence.put(w.journalSequence(), w));
    for (ApiRequestRecord record : cluster.requests().since(journalMark)) {
      if (record.isWrite()) {
        lines.add(new TimelineLine(time(record.time()), describe(record, bySequence.get(record.sequence()),
            refused.get(record.sequence())), object(record.kind(), record.namespace(), record.name())));
      }
    }
    for (WatchDelivery delivery : cluster.watchFaults().deliveries()) {
      if (SHOWN_DELIVERIES.contains(delivery.outcome()) && delivery.name() != null) {
        lines.add(new TimelineLine(time(delivery.time()), delivery.summary(),
            object(kindOf(delivery), delivery.namespace(), delivery.name())));
      }
    }
    return lines;
  }

  /** An instant as timeline and injection lines start: {@code HH:mm:ss.SSS}, local time. */
  public static String time(Instant instant) {
    return TIME.format(instant);
  }

  /**
   * The kind a watch delivery is about: the first word of its watch's description ({@code ConfigMap in default}).
   *
   * @param delivery an entry of the watch log
   * @return the kind, or {@code ""} when the delivery names no watch
   */
  public static String kindOf(WatchDelivery delivery) {
    String watch = delivery.watch() == null ? "" : delivery.watch().trim();
    int space = watch.indexOf(' ');
    return space < 0 ? watch : watch.substring(0, space);
  }

  /** {@code write #2 create ConfigMap default/web -> 201   (instance 2)}, or {@code request #7 ...} for others. */
  public static String describe(ApiRequestRecord record, ControllerWrite write) {
    return describe(record, write, null);
  }

  /**
   * One write as a timeline shows it: the controller's number (or the request's), the verb, the object with its
   * subresource, what the request carried that decides its outcome (patch type, label and field selectors, the
   * resourceVersion precondition of an update or patch, or that it had none), the answer, and who sent it: the
   * instance after a restart, or the crashed instance whose request the crash refused.
   *
   * @param record the request
   * @param write the controller write it is, or {@code null}
   * @param refusedFrom who sent it when the crash point refused it, or {@code null}
   * @return e.g. {@code write #2 update ConfigMap default/web (no resourceVersion) -> 200   (instance 2)}
   */
  public static String describe(ApiRequestRecord record, ControllerWrite write, String refusedFrom) {
    String what = record.verb() + " " + (record.name() == null && record.namespace() != null
        ? record.kind() + " in " + record.namespace() : object(record.kind(), record.namespace(), record.name()))
        + (record.subresource() == null ? "" : "/" + record.subresource()) + carried(record);
    String answer = record.injected() ? " [injected]"
        : " -> " + (record.code() == 0 ? "connection dropped" : Integer.toString(record.code()));
    if (write == null) {
      String who = record.injected() ? "" : refusedFrom != null ? " (refused: sent by " + refusedFrom + ", crashed)"
          : " (not a controller's)";
      return "request #" + record.sequence() + " " + what + answer + who;
    }
    return "write #" + write.number() + " " + what + answer
        + (write.instance() > 1 ? "   (instance " + write.instance() + ")" : "");
  }

  /** {@code " (merge, resourceVersion=7)"}, {@code " (labelSelector=app=web)"}, or {@code ""}. */
  private static String carried(ApiRequestRecord record) {
    List<String> parts = new ArrayList<>();
    if (record.patchType() != null) {
      parts.add(record.patchType());
    }
    if (record.labelSelector() != null) {
      parts.add("labelSelector=" + record.labelSelector());
    }
    if (record.fieldSelector() != null) {
      parts.add("fieldSelector=" + record.fieldSelector());
    }
    if (("update".equals(record.verb()) || "patch".equals(record.verb())) && !"apply".equals(record.patchType())
        && !record.injected()) {
      parts.add(record.bodyResourceVersion() == null ? "no resourceVersion"
          : "resourceVersion=" + record.bodyResourceVersion());
    }
    return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
  }

  /**
   * {@code ConfigMap default/web}; without a name (a create: the journal does not know it) {@code ConfigMap default/}.
   */
  public static String object(String kind, String namespace, String name) {
    return kind + " " + (namespace == null ? "" : namespace + "/") + (name == null ? "" : name);
  }

  /** What the controllers were doing when they did not settle: reconcile counts and work queues. */
  public static String activity(List<ControllerView> views) {
    List<String> parts = new ArrayList<>();
    for (ControllerView view : views) {
      try {
        WorkQueueStats queue = view.workQueue().stats();
        parts.add(view.vocabulary().controller() + " \"" + view.name() + "\" " + view.stats().reconciles()
            + " reconciles, queue depth " + queue.depth() + ", in flight " + queue.inFlightKeys());
      } catch (RuntimeException e) {
        parts.add("\"" + view.name() + "\" unreadable: " + TimelineReport.describe(e));
      }
    }
    return parts.isEmpty() ? "no controllers" : String.join("; ", parts);
  }
}
