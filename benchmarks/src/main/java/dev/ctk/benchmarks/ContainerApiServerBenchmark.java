package dev.ctk.benchmarks;

import dev.ctk.envtest.ContainerApiServer;

/**
 * Benchmark 5, envtest in containers (etcd + kube-apiserver containers, {@link ContainerApiServer},
 * {@link RealServerKind#CONTAINER}) from an image built on this machine from the local binaries
 * ({@code withLocalImage}, tagged by their hash and reused once built, so only the first cold start of a machine
 * includes the image build): {@link ApiServerBenchmark}'s cold start and reused-server per-test setup. Runs only
 * with Docker and {@code ctk.container.local-image} set; {@link BenchmarksMain} skips it with the reason otherwise.
 *
 * <pre>{@code
 * java -Dctk.container.local-image=auto -jar benchmarks/target/benchmarks.jar ContainerApiServerBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
public class ContainerApiServerBenchmark extends ApiServerBenchmark {
}
