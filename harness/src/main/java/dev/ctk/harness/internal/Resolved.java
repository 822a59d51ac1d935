package dev.ctk.harness.internal;

/**
 * A setting's value and where it came from, for messages: {@code the JUnit configuration parameter ctk.mode}, {@code
 * the environment variable CTK_MODE}, {@code @ControllerTest on FooTest}, {@code default}.
 *
 * @param value the value; {@code null} when unset
 * @param source where it came from
 * @param <T> the value's type
 */
public record Resolved<T>(T value, String source) {}
