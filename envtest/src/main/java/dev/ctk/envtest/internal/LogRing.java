package dev.ctk.envtest.internal;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The last lines of a process' log, bounded, for failure messages. Thread-safe.
 *
 * <pre>{@code
 * LogRing ring = new LogRing(50);
 * ring.add("E0101 listen tcp 127.0.0.1:6443: bind: address already in use");
 * ring.describe(); // "Its log (1 line):\n  E0101 listen tcp ..."
 * }</pre>
 */
public final class LogRing {

  private static final int MAX_LINE_CHARS = 2_000;

  private final int capacity;
  private final ArrayDeque<String> lines;
  private long total;

  /**
   * A ring that keeps the last {@code capacity} lines.
   *
   * @param capacity at least 1
   */
  public LogRing(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    this.lines = new ArrayDeque<>(capacity);
  }

  /**
   * Adds a line, dropping the oldest when full; lines past 2,000 characters are cut.
   *
   * @param line one log line without its line break
   */
  public synchronized void add(String line) {
    if (lines.size() == capacity) {
      lines.removeFirst();
    }
    lines.addLast(
        line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + " [cut]" : line);
    total++;
  }

  /**
   * The kept lines, oldest first.
   *
   * @return a copy
   */
  public synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  /**
   * How many lines were added in all.
   *
   * @return the count
   */
  public synchronized long total() {
    return total;
  }

  /**
   * The kept lines for a message, each indented by two spaces, after a heading: {@code Last 50 of
   * its 60 log lines:}, {@code Its log (3 lines):} or {@code Its log is empty.}
   *
   * @return the text, without a trailing line break
   */
  public synchronized String describe() {
    if (total == 0) {
      return "Its log is empty.";
    }
    String heading =
        total > lines.size()
            ? "Last " + lines.size() + " of its " + total + " log lines:"
            : "Its log (" + total + (total == 1 ? " line):" : " lines):");
    StringBuilder text = new StringBuilder(heading);
    for (String line : lines) {
      text.append("\n  ").append(line);
    }
    return text.toString();
  }
}
