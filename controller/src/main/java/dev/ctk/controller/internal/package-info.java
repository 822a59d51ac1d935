/**
 * Internals of ctk's controller module that its other modules share. Not an API: anything here may
 * change in any release, and no public signature of {@code dev.ctk.controller} mentions a type from
 * here.
 *
 * <p>{@link dev.ctk.controller.internal.ThrowableText} is the one place that turns an exception
 * into text for ctk's messages and failure reports: a one-line summary, and the whole of it (message,
 * cause chain, suppressed exceptions, stack traces), each part printed once.
 *
 * <p>What it does not do: shorten anything. A summary is the first line of a message; the whole
 * text has every line of every message and every stack frame (frames a cause shares with the
 * exception it caused are counted, {@code ... 12 more}, as the JVM prints them).
 */
package dev.ctk.controller.internal;
