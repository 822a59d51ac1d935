package dev.ctk.fake.values;

import dev.ctk.controller.CtkException;

/**
 * A {@link dev.ctk.fake.FakeCluster} could not do what was asked: a seed file that does not exist or is not valid YAML, an
 * object whose kind has no CustomResourceDefinition, a port already in use, a write the fake API server
 * rejected.
 *
 * <p>The message always says what failed, the context (file and document index, kind/namespace/name, host and
 * port) and how to fix it. For example:
 *
 * <pre>{@code
 * try {
 *   FakeCluster.builder().withYaml(Path.of("missing.yaml")).build();
 * } catch (FakeClusterException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class FakeClusterException extends CtkException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a complete message (what failed, context, fix).
   *
   * @param message the message
   */
  public FakeClusterException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a complete message and the underlying cause.
   *
   * @param message the message
   * @param cause the cause
   */
  public FakeClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
