package dev.ctk.fake.internal.fault;

/**
 * When a rule fires: from its {@code onCall}-th matching call on, each call that no earlier rule took fires with
 * {@code probability} (drawn from a {@code java.util.Random} seeded with {@code seed}), until it has fired
 * {@code times} times ({@code 0}: until removed).
 *
 * @param onCall the first matching call that may fire, from 1
 * @param times how many firings, {@code 0} for no limit
 * @param probability in [0, 1]; 1 draws nothing
 * @param seed the random seed
 * @param seedGiven whether the seed was chosen for this rule ({@code withSeed}) rather than derived
 */
public record FaultSchedule(int onCall, int times, double probability, long seed, boolean seedGiven) {

  /**
   * How the schedule reads, e.g. {@code "from the 2nd matching call, 3 times, with probability 0.3 (seed 42)"}.
   *
   * @return the text
   */
  public String describe() {
    StringBuilder out = new StringBuilder();
    if (onCall > 1 && times == 1) {
      out.append("once, on the ").append(ordinal(onCall)).append(" matching call");
    } else {
      if (onCall > 1) {
        out.append("from the ").append(ordinal(onCall)).append(" matching call, ");
      }
      out.append(times == 0 ? "until removed" : times == 1 ? "once" : times + " times");
    }
    if (probability < 1) {
      out.append(", with probability ").append(probability).append(" (seed ").append(seed).append(')');
    }
    return out.toString();
  }

  private static String ordinal(int n) {
    int lastTwo = n % 100;
    String suffix = lastTwo >= 11 && lastTwo <= 13 ? "th"
        : switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + suffix;
  }
}
