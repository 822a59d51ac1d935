package dev.ctk.benchmarks;

import dev.ctk.envtest.LocalApiServer;

/**
 * Benchmark 5, envtest with local binaries (etcd + kube-apiserver child processes, {@link LocalApiServer},
 * {@link RealServerKind#LOCAL}): {@link ApiServerBenchmark}'s cold start and reused-server per-test setup. Runs
 * only where the binaries are found; {@link BenchmarksMain} skips it with the reason otherwise.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar LocalApiServerBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
public class LocalApiServerBenchmark extends ApiServerBenchmark {
}
