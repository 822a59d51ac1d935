package dev.ctk.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.profile.InternalProfiler;

/**
 * A JMH profiler that reports figures a benchmark measures itself (heap retained by a server, creates per second)
 * as secondary results: once per iteration, and over the run as the <em>mean</em> of the iterations.
 *
 * <p>Why not {@code @AuxCounters(EVENTS)}: JMH sums an EVENTS counter over the iterations of a run, so a figure
 * measured as 20,129 KiB in each of two iterations was printed as 40,258. A profiler's results carry their own
 * aggregation ({@link AggregationPolicy#AVG} here), so the run's figure is the one each iteration measured.
 *
 * <p>{@link BenchmarksMain} always adds {@code -prof dev.ctk.benchmarks.MeasuredFigures}; benchmarks that record
 * nothing get no extra result. With JMH's own main class, add that option yourself.
 *
 * <pre>{@code
 * MeasuredFigures.record("retainedKilobytes", (after - before) / 1024.0, "KiB");
 * }</pre>
 *
 * @since 0.1.0
 */
public final class MeasuredFigures implements InternalProfiler {

  private static final Map<String, Figure> FIGURES = new LinkedHashMap<>();

  /** JMH creates the profiler by reflection. */
  public MeasuredFigures() {
    // no options
  }

  /**
   * Records a figure for the running iteration; a later call with the same name replaces it.
   *
   * @param name the result's label, e.g. {@code retainedKilobytes}
   * @param value the figure
   * @param unit its unit, e.g. {@code KiB}
   */
  public static void record(String name, double value, String unit) {
    synchronized (FIGURES) {
      FIGURES.put(name, new Figure(value, unit));
    }
  }

  @Override
  public String getDescription() {
    return "ctk: figures the benchmarks measure themselves (heap retained, creates per second), averaged over "
        + "iterations";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    synchronized (FIGURES) {
      FIGURES.clear();
    }
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
      IterationParams iterationParams, IterationResult result) {
    List<Result> results = new ArrayList<>();
    synchronized (FIGURES) {
      FIGURES.forEach((name, figure) -> results.add(new ScalarResult(name, figure.value(), figure.unit(),
          AggregationPolicy.AVG)));
      FIGURES.clear();
    }
    return results;
  }

  private record Figure(double value, String unit) {
  }
}
