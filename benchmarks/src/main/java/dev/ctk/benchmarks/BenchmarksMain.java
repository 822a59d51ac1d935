package dev.ctk.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The main class of {@code benchmarks.jar}: JMH's own command line ({@code org.openjdk.jmh.Main}, every option
 * works), except that the real-server benchmarks this machine cannot run are excluded (JMH's {@code -e}) with one
 * line saying why, instead of failing, and that the {@link MeasuredFigures} profiler is always on (it prints the
 * figures benchmarks measure themselves). Everything else is JMH's.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar -f 1 -wi 0 -i 1 -r 1s WriteToInformerBenchmark -p n=1000
 * }</pre>
 *
 * @since 0.1.0
 */
public final class BenchmarksMain {

  private BenchmarksMain() {}

  /**
   * Runs JMH.
   *
   * @param args JMH's arguments ({@code -h} lists them)
   * @throws Exception whatever JMH throws
   */
  public static void main(String[] args) throws Exception {
    List<String> jmhArgs = new ArrayList<>(List.of(args));
    for (RealServerKind kind : RealServerKind.values()) {
      skip(jmhArgs, kind.benchmark().getSimpleName(), kind.unavailableReason());
    }
    if (!jmhArgs.contains(MeasuredFigures.class.getName())) {
      jmhArgs.add(0, MeasuredFigures.class.getName());
      jmhArgs.add(0, "-prof");
    }
    org.openjdk.jmh.Main.main(jmhArgs.toArray(String[]::new));
  }

  private static void skip(List<String> jmhArgs, String benchmark, Optional<String> reason) {
    reason.ifPresent(why -> {
      System.out.println("ctk benchmarks: skipping " + benchmark + " (not a failure): " + why);
      jmhArgs.add(0, "\\." + benchmark + "\\.");
      jmhArgs.add(0, "-e");
    });
  }
}
