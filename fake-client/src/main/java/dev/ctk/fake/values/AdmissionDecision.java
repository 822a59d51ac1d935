package dev.ctk.fake.values;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.Optional;

/**
 * What an {@link AdmissionHook} decided: allow, allow with a changed object (mutating hooks), or deny with a message
 * and an HTTP status code, answered as kube-apiserver answers a webhook's denial:
 * {@code admission webhook "<name>" denied the request: <message>}.
 *
 * <pre>{@code
 * AdmissionDecision.allow();
 * AdmissionDecision.patch(configMapWithExtraLabel);               // mutating hooks only
 * AdmissionDecision.deny("replicas must not exceed 10");           // 403 Forbidden, like controller-runtime's Denied
 * AdmissionDecision.deny(422, "spec.replicas must not exceed 10"); // any code from 400 up
 * }</pre>
 *
 * <p>Immutable.
 *
 * @since 0.1.0
 */
public final class AdmissionDecision {

  private static final AdmissionDecision ALLOW = new AdmissionDecision(true, null, 0, null, null);

  private final boolean allowed;
  private final HasMetadata patched;
  private final int code;
  private final String reason;
  private final String message;

  private AdmissionDecision(boolean allowed, HasMetadata patched, int code, String reason, String message) {
    this.allowed = allowed;
    this.patched = patched;
    this.code = code;
    this.reason = reason;
    this.message = message;
  }

  /**
   * Allows the request unchanged.
   *
   * @return the decision
   */
  public static AdmissionDecision allow() {
    return ALLOW;
  }

  /**
   * Allows the request with a changed object, which replaces the one under review (mutating hooks only; it is then
   * defaulted again, as kube defaults a webhook's patched object). Change a copy from {@link AdmissionRequest#object()}
   * or {@link AdmissionRequest#object(Class)}, typed or generic.
   *
   * @param changed the object to write instead
   * @return the decision
   */
  public static AdmissionDecision patch(HasMetadata changed) {
    return new AdmissionDecision(true, Objects.requireNonNull(changed, "changed"), 0, null, null);
  }

  /**
   * Denies the request with 403 Forbidden (reason {@code Forbidden}), as controller-runtime's {@code Denied} does.
   *
   * @param message why; kube prefixes it with {@code admission webhook "<name>" denied the request: }
   * @return the decision
   */
  public static AdmissionDecision deny(String message) {
    return new AdmissionDecision(false, null, 403, "Forbidden", Objects.requireNonNull(message, "message"));
  }

  /**
   * Denies the request with a status code and no reason, as a webhook that sets only {@code code} and
   * {@code message} does (kube raises codes below 400 to 400).
   *
   * @param code the HTTP status code of the answer
   * @param message why; kube prefixes it with {@code admission webhook "<name>" denied the request: }
   * @return the decision
   */
  public static AdmissionDecision deny(int code, String message) {
    return new AdmissionDecision(false, null, Math.max(code, 400), null, Objects.requireNonNull(message, "message"));
  }

  /**
   * Whether the request may go on.
   *
   * @return {@code true} for {@link #allow()} and {@link #patch}
   */
  public boolean allowed() {
    return allowed;
  }

  /**
   * The changed object of a {@link #patch} decision.
   *
   * @return the object, or empty
   */
  public Optional<HasMetadata> patchedObject() {
    return Optional.ofNullable(patched);
  }

  /**
   * The HTTP status code of a denial.
   *
   * @return the code, 0 when allowed
   */
  public int code() {
    return code;
  }

  /**
   * The {@code Status.reason} of a denial.
   *
   * @return the reason ({@code Forbidden} for {@link #deny(String)}), or empty
   */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /**
   * The message of a denial, without kube's prefix.
   *
   * @return the message, or {@code null} when allowed
   */
  public String message() {
    return message;
  }

  @Override
  public String toString() {
    if (allowed) {
      return patched == null ? "AdmissionDecision[allow]" : "AdmissionDecision[patch " + patched.getKind() + "]";
    }
    return "AdmissionDecision[deny " + code + ": " + message + "]";
  }
}
