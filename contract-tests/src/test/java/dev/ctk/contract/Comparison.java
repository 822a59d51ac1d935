package dev.ctk.contract;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fake's observation of one scenario against a real server's: equal, different only where the scenario
 * declares known differences, or mismatched.
 *
 * <pre>{@code
 * Comparison c = Comparison.of(scenario, fakeObservation, realObservation);
 * if (c.result() == Comparison.Result.MISMATCH) throw new AssertionError(c.failureMessage("kube-apiserver v1.20.2"));
 * }</pre>
 *
 * @param scenario the scenario
 * @param result the verdict
 * @param differences every key whose values differ, in observation order
 */
public record Comparison(Scenario scenario, Result result, List<Difference> differences) {

  /** The verdict. */
  public enum Result {
    /** Every value is equal. */
    MATCH,
    /** Values differ only under keys the scenario declares as known differences. */
    KNOWN_DIFFERENCE,
    /** At least one value differs where the scenario does not expect it. */
    MISMATCH
  }

  /**
   * One key whose values differ.
   *
   * @param key the observation key
   * @param fake the fake's value ({@code <not observed>} when the fake did not record the key)
   * @param real the real server's value (same convention)
   * @param knownReason the declared reason, {@code null} for a mismatch
   */
  public record Difference(String key, String fake, String real, String knownReason) {

    /**
     * Whether the scenario declares this difference.
     *
     * @return {@code true} for a known difference
     */
    public boolean known() {
      return knownReason != null;
    }
  }

  static final String NOT_OBSERVED = "<not observed>";

  /**
   * Compares two observations of one scenario.
   *
   * @param scenario the scenario (for its known differences)
   * @param fake what the fake showed
   * @param real what the real server showed
   * @return the comparison
   */
  public static Comparison of(Scenario scenario, Map<String, String> fake, Map<String, String> real) {
    return of(scenario, fake, real, null);
  }

  /**
   * Compares two observations of one scenario, honouring the differences the scenario declares for servers older
   * than a version.
   *
   * @param scenario the scenario (for its known differences)
   * @param fake what the fake showed
   * @param real what the real server showed
   * @param realVersion the real server's {@code gitVersion} ({@code null} when unknown)
   * @return the comparison
   */
  public static Comparison of(Scenario scenario, Map<String, String> fake, Map<String, String> real,
      String realVersion) {
    Set<String> keys = new LinkedHashSet<>(fake.keySet());
    keys.addAll(real.keySet());
    List<Difference> differences = new ArrayList<>();
    for (String key : keys) {
      String f = fake.getOrDefault(key, NOT_OBSERVED);
      String r = real.getOrDefault(key, NOT_OBSERVED);
      if (!f.equals(r)) {
        differences.add(new Difference(key, f, r, scenario.knownDifference(key, realVersion)));
      }
    }
    Result result = differences.isEmpty() ? Result.MATCH
        : differences.stream().allMatch(Difference::known) ? Result.KNOWN_DIFFERENCE : Result.MISMATCH;
    return new Comparison(scenario, result, List.copyOf(differences));
  }

  /**
   * The assertion message for a mismatch: each differing value of both servers, then how to resolve it.
   *
   * @param realName the real server, e.g. {@code kube-apiserver v1.20.2}
   * @return the message
   */
  public String failureMessage(String realName) {
    StringBuilder m = new StringBuilder("Scenario \"" + scenario.displayName() + "\" differs between the fake and "
        + realName + ":");
    for (Difference d : differences) {
      m.append("\n  ").append(d.key()).append(d.known() ? " (known difference: " + d.knownReason() + ")" : "")
          .append(":\n    fake:           ").append(d.fake())
          .append("\n    real:           ").append(d.real());
    }
    return m.append("\nEither the fake is wrong (fix it in fake-client), or the difference is deliberate or specific "
        + "to this kube-apiserver version: then declare it in the scenario with knownDifference(key, reason).")
        .toString();
  }
}
