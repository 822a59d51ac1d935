package dev.ctk.controller.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The text of an exception in ctk's messages and failure reports, in two forms: a {@link
 * #summary(Throwable) summary} of one line, to name the exception where a line must stay a line (a
 * reconcile's outcome, a timeline row), and its {@link #full(Throwable) whole text}, which says
 * everything once: every line of its message, its stack trace, its suppressed exceptions and its
 * cause chain. A report may give the summary first, but the whole text must follow somewhere the
 * reader looks.
 *
 * <pre>{@code
 * ThrowableText.summary(e);   // "IllegalStateException: backend down"
 * ThrowableText.full(e);      // "java.lang.IllegalStateException: backend down\n\tat ...\nCaused by: ..."
 * }</pre>
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class ThrowableText {

  private ThrowableText() {}

  /**
   * An exception in one line: {@code 409 Conflict: Operation cannot be fulfilled on configmaps
   * "web": ...} for an API error (a {@code KubernetesClientException} with an HTTP code: the code,
   * the reason and the {@code Status} message), {@code IllegalStateException: backend down}
   * otherwise (the simple class name and the message). Nothing is cut from the first line; when the
   * message has more lines, the first non-blank one is given and {@code " ..."} says that more
   * follows in {@link #full(Throwable)}.
   *
   * @param error the exception
   * @return one line, never empty
   */
  public static String summary(Throwable error) {
    Objects.requireNonNull(error, "ThrowableText.summary: error is null");
    if (error instanceof KubernetesClientException api && api.getCode() > 0) {
      Status status = api.getStatus();
      String reason = status == null || status.getReason() == null ? "" : " " + status.getReason();
      String message = status == null || status.getMessage() == null
          ? messageOf(api)
          : status.getMessage();
      return api.getCode() + reason + (message == null ? "" : ": " + firstLine(message));
    }
    String message = messageOf(error);
    String line = message == null ? "" : firstLine(message);
    return error.getClass().getSimpleName() + (line.isEmpty() ? "" : ": " + line);
  }

  /**
   * The whole text of an exception, as {@link Throwable#printStackTrace()} prints it, with {@code \n}
   * between lines and no trailing newline: the class and every line of the message, each stack
   * frame ({@code \tat ...}), each suppressed exception ({@code \tSuppressed: ...}), then each cause
   * ({@code Caused by: ...}). Frames a cause shares with the exception it caused are counted,
   * {@code \t... 12 more}, not repeated. A cause whose whole message the exception above it already
   * quotes (as {@code new RuntimeException(cause)} and Awaitility's timeouts do) is named without
   * repeating its message: {@code Caused by: java.lang.IllegalStateException (its message is in the
   * one above)}. So every message and every frame is printed exactly once.
   *
   * @param error the exception
   * @return the text, lines separated by {@code \n}
   */
  public static String full(Throwable error) {
    Objects.requireNonNull(error, "ThrowableText.full: error is null");
    StringBuilder out = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    write(out, error, null, "", "", new StackTraceElement[0], seen);
    return out.substring(0, out.length() - 1);
  }

  /**
   * An exception and every exception its whole text ({@link #full}) gives: its causes and suppressed
   * exceptions, theirs, and so on, each once.
   *
   * @param error the exception, or {@code null}
   * @return the exceptions, {@code error} first; empty for {@code null}
   */
  public static List<Throwable> all(Throwable error) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> all = new ArrayList<>();
    Deque<Throwable> next = new ArrayDeque<>();
    if (error != null) {
      next.add(error);
    }
    while (!next.isEmpty()) {
      Throwable current = next.removeFirst();
      if (!seen.add(current)) {
        continue;
      }
      all.add(current);
      next.addAll(List.of(current.getSuppressed()));
      if (current.getCause() != null) {
        next.add(current.getCause());
      }
    }
    return all;
  }

  /**
   * Puts {@code prefix} before every line of {@code text}, empty lines included.
   *
   * @param text lines separated by {@code \n}
   * @param prefix what each line starts with, e.g. four spaces
   * @return the indented text, without a trailing newline unless {@code text} had one
   */
  public static String indent(String text, String prefix) {
    return prefix + text.replace("\n", "\n" + prefix);
  }

  private static void write(StringBuilder out, Throwable error, Throwable quoting, String caption,
      String prefix, StackTraceElement[] enclosingTrace, Set<Throwable> seen) {
    if (!seen.add(error)) {
      out.append(prefix).append(caption).append("[CIRCULAR REFERENCE: ")
          .append(error.getClass().getName()).append(", printed above]\n");
      return;
    }
    out.append(prefix).append(caption).append(headline(error, quoting)).append('\n');
    StackTraceElement[] trace = error.getStackTrace();
    int own = trace.length - 1;
    int enclosing = enclosingTrace.length - 1;
    while (own >= 0 && enclosing >= 0 && trace[own].equals(enclosingTrace[enclosing])) {
      own--;
      enclosing--;
    }
    for (int i = 0; i <= own; i++) {
      out.append(prefix).append("\tat ").append(trace[i]).append('\n');
    }
    int inCommon = trace.length - 1 - own;
    if (inCommon > 0) {
      out.append(prefix).append("\t... ").append(inCommon).append(" more\n");
    }
    for (Throwable suppressed : error.getSuppressed()) {
      write(out, suppressed, null, "Suppressed: ", prefix + "\t", trace, seen);
    }
    Throwable cause = error.getCause();
    if (cause != null) {
      write(out, cause, error, "Caused by: ", prefix, trace, seen);
    }
  }

  /** {@code java.lang.IllegalStateException: message}, or just the class when {@code quoting} quotes the message. */
  private static String headline(Throwable error, Throwable quoting) {
    String message = messageOf(error);
    if (quoting != null && message != null && !message.isBlank()) {
      String above = messageOf(quoting);
      if (above != null && above.contains(message)) {
        return error.getClass().getName() + " (its message is in the one above)";
      }
    }
    String text;
    try {
      text = error.toString();
    } catch (RuntimeException e) {
      text = error.getClass().getName() + (message == null ? "" : ": " + message);
    }
    return text == null ? error.getClass().getName() : normalized(text);
  }

  /** The message with {@code \n} line ends, or {@code null}; a message that throws is said so. */
  private static String messageOf(Throwable error) {
    try {
      String message = error.getMessage();
      return message == null ? null : normalized(message);
    } catch (RuntimeException e) {
      return "(its getMessage() threw " + e.getClass().getName() + ")";
    }
  }

  private static String normalized(String text) {
    return text.replace("\r\n", "\n").replace('\r', '\n');
  }

  /**
   * The first non-blank line of a message, stripped, and {@code " ..."} when another non-blank line
   * follows: {@code "expected: 1 ..."} for AssertJ's {@code "\nexpected: 1\n but was: 2"}.
   *
   * @param message a message, or {@code null}
   * @return its first line; empty for a blank or {@code null} message
   */
  public static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    String[] lines = normalized(message).strip().split("\n");
    String first = lines[0].strip();
    for (int i = 1; i < lines.length; i++) {
      if (!lines[i].isBlank()) {
        return first + " ...";
      }
    }
    return first;
  }
}
