package dev.ctk.fake.values;

import java.time.Instant;

/**
 * One firing of a fault rule ({@link dev.ctk.fake.ApiFaults}): which request it hit and what the server did instead of its
 * normal answer.
 *
 * <pre>{@code
 * FaultFiring f = cluster.faults().firings().get(0);
 * f.toString();  // "#7 update configmaps default/web (resourceVersion=3) <- 409 Conflict
 *                //  [when update ConfigMap default/web: once -> 409 Conflict]"
 * }</pre>
 *
 * @param sequence the request's {@link ApiRequestRecord#sequence()} in the {@link dev.ctk.fake.RequestJournal}
 * @param time when the server received the request
 * @param rule the rule, as {@link dev.ctk.fake.FaultRule#toString()} prints it
 * @param request the request, as {@link ApiRequestRecord#describeRequest()} prints it
 * @param fault what the server did, e.g. {@code 409 Conflict}, {@code delay 2s}, {@code drop connection}
 * @since 0.1.0
 */
public record FaultFiring(long sequence, Instant time, String rule, String request, String fault) {

  /**
   * One line: the request, the fault, the rule.
   *
   * @return the text
   */
  @Override
  public String toString() {
    return request + " <- " + fault + " [" + rule + "]";
  }
}
