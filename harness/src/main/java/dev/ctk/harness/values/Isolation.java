package dev.ctk.harness.values;

/**
 * How tests share clusters (fake mode) or namespaces (real modes).
 *
 * @since 0.1.0
 */
public enum Isolation {
  /** Not set here: resolve from configuration, then the environment, then {@link #PER_METHOD}. */
  DEFAULT,
  /** A fresh cluster (or namespace) for every test method (the default). */
  PER_METHOD,
  /** One cluster (or namespace) for every test of the class and of its {@code @Nested} classes. */
  PER_CLASS
}
