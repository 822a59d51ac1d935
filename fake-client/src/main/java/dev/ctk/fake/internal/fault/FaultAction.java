package dev.ctk.fake.internal.fault;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.fake.internal.status.ApiError;
import java.time.Duration;
import java.util.function.Function;

/**
 * What the server does instead of (or before) its normal answer when a fault rule fires: answer with an error
 * {@code Status} ({@link Respond}), answer normally after a pause ({@link Delay}), or close the connection without
 * an answer ({@link Drop}), or serve a read from an older state of the store ({@link StaleRead}).
 */
public sealed interface FaultAction
    permits FaultAction.Respond, FaultAction.Delay, FaultAction.Drop, FaultAction.StaleRead {

  /**
   * How the fault reads in the journal and in firings, e.g. {@code 409 Conflict} or {@code delay 250ms}.
   *
   * @return the description
   */
  String description();

  /**
   * Whether the fault can fire on a request its rule's pattern matched. A request it cannot fire on is, for its
   * rule, as if the pattern had not matched: not counted, not fired on.
   *
   * @param request the request as received
   * @return {@code true} for every request, except as a fault says
   */
  default boolean appliesTo(dev.ctk.fake.values.ApiRequestRecord request) {
    return true;
  }

  /**
   * Calls the handler's method for this action: every place that acts on a fault does it through a {@link Handler},
   * so a new action cannot be added without every such place saying what it does (the compiler asks for it).
   *
   * @param handler what each action does
   */
  void dispatch(Handler handler);

  /** What a place that serves requests does for each action; one method per action, none with a default. */
  interface Handler {

    /**
     * Answer with the error.
     *
     * @param respond the action
     */
    void respond(Respond respond);

    /**
     * Serve the read from the past.
     *
     * @param staleRead the action
     */
    void staleRead(StaleRead staleRead);

    /**
     * Serve after the delay.
     *
     * @param delay the action
     */
    void delay(Delay delay);

    /**
     * Close the connection without an answer.
     *
     * @param drop the action
     */
    void drop(Drop drop);
  }

  /**
   * Answers with an error.
   *
   * @param description the fault text
   * @param error builds the error for the request it answers (kube's messages name the object)
   * @param retryAfterSeconds the {@code Retry-After} header value, or {@code null} for none
   */
  record Respond(String description, Function<FaultTarget, ApiError> error, Integer retryAfterSeconds)
      implements FaultAction {
    @Override
    public void dispatch(Handler handler) {
      handler.respond(this);
    }
  }

  /**
   * Waits, then serves the request normally: the request is processed when the delay ends. The delay is real time
   * (a Vert.x timer), whatever clock the cluster uses.
   *
   * @param delay how long, positive
   */
  record Delay(Duration delay) implements FaultAction {
    @Override
    public void dispatch(Handler handler) {
      handler.delay(this);
    }

    @Override
    public String description() {
      return "delay " + DurationText.of(delay);
    }
  }

  /** Closes the connection without answering. */
  record Drop() implements FaultAction {
    @Override
    public void dispatch(Handler handler) {
      handler.drop(this);
    }

    @Override
    public String description() {
      return "drop connection";
    }
  }

  /**
   * Serves a GET or LIST of a resource as the store was at {@code resourceVersion}; applies to no other request.
   *
   * @param resourceVersion a positive resourceVersion
   */
  record StaleRead(long resourceVersion) implements FaultAction {
    @Override
    public void dispatch(Handler handler) {
      handler.staleRead(this);
    }

    @Override
    public String description() {
      return "stale read at resourceVersion " + resourceVersion;
    }

    @Override
    public boolean appliesTo(dev.ctk.fake.values.ApiRequestRecord request) {
      return request.kind() != null && ("get".equals(request.verb()) || "list".equals(request.verb()));
    }
  }
}
