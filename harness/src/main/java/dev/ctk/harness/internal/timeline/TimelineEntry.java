package dev.ctk.harness.internal.timeline;

import java.time.Instant;
import java.util.Comparator;

/**
 * One line of a failure timeline: when it happened (wall clock), where it came from, what happened.
 *
 * @param time the wall-clock instant, as {@link Instant#now()} (or the fake server) stamped it
 * @param kind which kind of source it came from; decides its colour in the HTML report
 * @param source the source as the timeline's column shows it, e.g. {@code request}, {@code queue web}
 * @param text what happened, one line (an error by its one-line summary)
 * @param virtualTime the virtual clock of the controller when it happened, or {@code null} under real
 *     time or when the source does not know it
 * @param order a tie-breaker for entries with equal times: the order the JVM recorded them in
 * @param error the error of a failed reconcile, which the HTML report gives whole, or {@code null}
 */
public record TimelineEntry(Instant time, Kind kind, String source, String text, Instant virtualTime,
    long order, Throwable error) {

  /** An entry without an error. */
  public TimelineEntry(Instant time, Kind kind, String source, String text, Instant virtualTime,
      long order) {
    this(time, kind, source, text, virtualTime, order, null);
  }

  /** Oldest first; equal times in recording order. */
  public static final Comparator<TimelineEntry> IN_TIME_ORDER = Comparator.comparing(TimelineEntry::time)
      .thenComparingLong(TimelineEntry::order);

  /** The kinds of sources, in the order the HTML legend lists them, each with its row colour. */
  public enum Kind {
    /** An event a test injected through {@code EventInjector} (fake mode). */
    INJECTED("injected event", "#fde2e4"),
    /** An API request the fake server answered (fake mode). */
    REQUEST("API request", "#e2ecfd"),
    /** A fault rule that fired on a request (fake mode). */
    FAULT("fault firing", "#ffd6a5"),
    /** A watch event delivered, dropped, held... by the fake server (fake mode). */
    WATCH("watch delivery", "#e4f7e4"),
    /** A change of a controller's work queue. */
    QUEUE("work queue", "#f1f1f1"),
    /** A reconcile started or ended. */
    RECONCILE("reconcile", "#fff5c2");

    private final String label;
    private final String colour;

    Kind(String label, String colour) {
      this.label = label;
      this.colour = colour;
    }

    /** How the HTML legend names it. */
    public String label() {
      return label;
    }

    /** The background colour of its rows in the HTML report. */
    public String colour() {
      return colour;
    }

    /** Its CSS class name. */
    public String cssClass() {
      return "k-" + name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
