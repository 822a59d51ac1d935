package dev.ctk.contract;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fake's observation of one scenario through its HTTP client transport against the one through its in-process
 * transport. Both talk to the same fake, so they must be equal value by value: unlike {@link Comparison}, a
 * scenario's known differences (which are about real kube-apiserver versions) do not apply here.
 *
 * <pre>{@code
 * TransportParity parity = TransportParity.of(scenario, httpObservation, inProcessObservation);
 * if (!parity.equal()) throw new AssertionError(parity.failureMessage());
 * }</pre>
 *
 * @param scenario the scenario
 * @param differences every key whose values differ, in observation order (known reasons are always {@code null})
 */
public record TransportParity(Scenario scenario, List<Comparison.Difference> differences) {

  /**
   * Compares the two fake observations of one scenario.
   *
   * @param scenario the scenario
   * @param http what the fake showed to a client on {@code ClientTransport.HTTP}
   * @param inProcess what it showed to a client on {@code ClientTransport.IN_PROCESS}
   * @return the comparison
   */
  public static TransportParity of(Scenario scenario, Map<String, String> http, Map<String, String> inProcess) {
    Set<String> keys = new LinkedHashSet<>(http.keySet());
    keys.addAll(inProcess.keySet());
    List<Comparison.Difference> differences = new ArrayList<>();
    for (String key : keys) {
      String h = http.getOrDefault(key, Comparison.NOT_OBSERVED);
      String i = inProcess.getOrDefault(key, Comparison.NOT_OBSERVED);
      if (!h.equals(i)) {
        differences.add(new Comparison.Difference(key, h, i, null));
      }
    }
    return new TransportParity(scenario, List.copyOf(differences));
  }

  /**
   * Whether both transports showed the same values.
   *
   * @return {@code true} when no key differs
   */
  public boolean equal() {
    return differences.isEmpty();
  }

  /**
   * The assertion message: each differing key with both values, then how to resolve it.
   *
   * @return the message
   */
  public String failureMessage() {
    StringBuilder m = new StringBuilder("Scenario \"" + scenario.displayName() + "\" observed " + differences.size()
        + " different value(s) on the fake's two client transports, which must show the same:");
    for (Comparison.Difference d : differences) {
      m.append("\n  ").append(d.key()).append(":")
          .append("\n    http:           ").append(d.fake())
          .append("\n    in-process:     ").append(d.real());
    }
    return m.append("\nThe in-process transport must answer exactly as HTTP does (same fake, same request): fix the "
        + "transport in fake-client (dev.ctk.fake.internal); known differences do not apply between transports.")
        .toString();
  }
}
