package dev.ctk.fake.internal.select;

/**
 * A label or field selector was rejected; the message is, word for word, what kube-apiserver puts
 * in the {@code 400 BadRequest} {@code Status} it answers.
 *
 * <pre>{@code
 * try {
 *   LabelSelector.parse("app in nginx");
 * } catch (SelectorException e) {
 *   e.getMessage();   // "unable to parse requirement: found 'nginx' expected: '('"
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class SelectorException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the text for {@code Status.message}
   */
  public SelectorException(String message) {
    super(message);
  }
}
