package dev.ctk.fake.internal.cel;

/**
 * An evaluation error of a Kubernetes library function, carrying the text cel-go's implementation gives (e.g.
 * {@code min called on empty list}); {@link EvalErrors} finds it in cel-java's exception chain.
 */
final class KubeFunctionError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  KubeFunctionError(String message) {
    super(message, null, false, false);
  }
}
