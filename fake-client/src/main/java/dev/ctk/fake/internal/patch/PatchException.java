package dev.ctk.fake.internal.patch;

/**
 * A patch could not be applied; carries what kube-apiserver puts in the {@code Status} it answers.
 *
 * <ul>
 *   <li>{@link #code()}: the HTTP status. 400 for a malformed patch document, 413 for a JSON patch
 *       with more than 10000 operations, 422 when a JSON-patch operation cannot be applied (a
 *       failed {@code test}, a path that does not exist) or a strategic merge patch holds a list of
 *       lists, and 500 for strategic-merge-patch errors that kube-apiserver does not classify (an
 *       unknown {@code $patch} directive, a list element without its merge key): kube answers those
 *       with {@code 500} and an empty reason, and so does the fake.
 *   <li>{@link #reason()}: {@code Status.reason} ({@code BadRequest}, {@code Invalid},
 *       {@code RequestEntityTooLarge}, or {@code ""} for the unclassified 500s).
 *   <li>{@link #getMessage()}: {@code Status.message}, word for word.
 *   <li>{@link #causeMessage()}: for 422 answers, the engine's own text (json-patch's or the strategic merge
 *       patch's error). kube-apiserver does not send it: its answer has the generic {@code message} and empty
 *       {@code details} ({@code NewGenericServerResponse} without a cause); the fake logs it at DEBUG. {@code null}
 *       for other answers.
 * </ul>
 *
 * <pre>{@code
 * try {
 *   patched = JsonPatch.apply(stored, patch);
 * } catch (PatchException e) {
 *   // e.code() == 422, e.reason() == "Invalid",
 *   // e.getMessage() == "the server rejected our request due to an error in our request",
 *   // e.causeMessage() == "testing value /spec/replicas failed: test failed"
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class PatchException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** {@code Status.message} kube-apiserver uses for every 422 raised by a patch engine. */
  static final String REJECTED = "the server rejected our request due to an error in our request";

  private final int code;
  private final String reason;
  private final String causeMessage;

  /**
   * Creates the exception with the reason kube-apiserver uses for {@code code} and no cause.
   *
   * @param code HTTP status the API server answers
   * @param message the text for {@code Status.message}
   */
  public PatchException(int code, String message) {
    this(code, defaultReason(code), message, null);
  }

  /**
   * Creates the exception with every part of the {@code Status}.
   *
   * @param code HTTP status the API server answers
   * @param reason {@code Status.reason}; {@code ""} for an unclassified error
   * @param message the text for {@code Status.message}
   * @param causeMessage the engine's own text for a 422 (not sent, see {@link #causeMessage()}), or {@code null}
   */
  public PatchException(int code, String reason, String message, String causeMessage) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.causeMessage = causeMessage;
  }

  /** 400 BadRequest with {@code message}. */
  static PatchException badRequest(String message) {
    return new PatchException(400, "BadRequest", message, null);
  }

  /** 422 Invalid with kube's generic message and {@code cause} as the detail. */
  static PatchException unprocessable(String cause) {
    return new PatchException(422, "Invalid", REJECTED, cause);
  }

  /** 500 with an empty reason: an error kube-apiserver passes through without classifying it. */
  static PatchException unclassified(String message) {
    return new PatchException(500, "", message, null);
  }

  /** 413 RequestEntityTooLarge as kube's {@code NewRequestEntityTooLargeError} words it. */
  static PatchException tooLarge(String message) {
    return new PatchException(413, "RequestEntityTooLarge", "Request entity too large: " + message, null);
  }

  private static String defaultReason(int code) {
    switch (code) {
      case 400:
        return "BadRequest";
      case 413:
        return "RequestEntityTooLarge";
      case 415:
        return "UnsupportedMediaType";
      case 422:
        return "Invalid";
      default:
        return "";
    }
  }

  /**
   * HTTP status the API server answers for this failure.
   *
   * @return 400, 413, 422 or 500
   */
  public int code() {
    return code;
  }

  /**
   * {@code Status.reason} kube-apiserver answers with.
   *
   * @return e.g. {@code "BadRequest"}, {@code "Invalid"}, or {@code ""} for an unclassified 500
   */
  public String reason() {
    return reason;
  }

  /**
   * Status message, same as {@link #getMessage()}.
   *
   * @return the text kube-apiserver would put in {@code Status.message}
   */
  public String message() {
    return getMessage();
  }

  /**
   * The engine's own text behind a 422, which kube-apiserver leaves out of its answer.
   *
   * @return the text, or {@code null} for other answers
   */
  public String causeMessage() {
    return causeMessage;
  }
}
