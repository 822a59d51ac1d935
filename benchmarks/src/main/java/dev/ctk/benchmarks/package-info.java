/**
 * JMH benchmarks that put ctk's fake API server (through its default client transport and over HTTP), fabric8's
 * {@code KubernetesMockServer} in CRUD mode and, where one can run, a real kube-apiserver (local binaries or
 * containers) through the same work with the same fabric8 client:
 * per-test setup, write to informer, LIST and watch fan-out, a whole controller test, envtest cold start and reuse,
 * cost per operation against stored objects, and heap per 10,000 ConfigMaps. {@code BENCHMARKS.md} at the top of
 * the repository says how to run them and holds the table.
 *
 * <p>Write to informer also runs on {@code Target.FABRIC8_CLIENT_FLOOR} ({@link dev.ctk.benchmarks.floor}): the
 * same fabric8 client and informer against a server that does almost no work, which measures the floor that every
 * fake used through fabric8's client and informer stands on (fabric8's client, its informer and the JVM's thread
 * hand-offs; the server's share is about zero), and on three variants: with a delivery thread
 * ({@code FABRIC8_CLIENT_FLOOR_HANDOFF}), with that thread and the metadata kube adds to each created object
 * ({@code FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS}, the floor of a fake that answers as kube does), and with those answers
 * over loopback HTTP ({@code FABRIC8_CLIENT_FLOOR_HTTP}, the floor under {@code CTK_FAKE_HTTP}).
 *
 * <pre>{@code
 * ./mvnw -B -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar
 * }</pre>
 *
 * <p>What this package does not do:
 * <ul>
 *   <li>It asserts no timing: the reactor build compiles it, runs the few tests of its own tooling (the echo
 *       servers' input checks, and a create seen by an informer over the HTTP one) and packages the jar, nothing more.
 *   <li>Its servers all run in the benchmark's JVM, on the same cores as the client; a real kube-apiserver runs
 *       beside it as child processes or containers. No figure here is a remote cluster's.
 *   <li>Benchmark 4 uses its own small controller of the nginx example's shape, not the example itself (the
 *       examples module is not a dependency: it would bring the Java Operator SDK and the Kubernetes Java client).
 *   <li>ctk's fake is measured through its default client transport ({@code CTK_FAKE}) and over HTTP
 *       ({@code CTK_FAKE_HTTP}); the non-Java clients that only HTTP serves (kubectl, client-go, client-java) are
 *       not measured.
 *   <li>Figures a benchmark measures itself (heap, creates per second) appear only with the {@link
 *       dev.ctk.benchmarks.MeasuredFigures} profiler, which {@code BenchmarksMain} turns on.
 *   <li>The floor target is no API server (it stores and checks nothing): every benchmark but write to informer
 *       refuses it at setup with a message, and its figure is a lower bound for fakes reached through fabric8's
 *       client, not for fakes in general (a fake called without fabric8's client, or an informer that is not
 *       fabric8's, is not bounded by it).
 *   <li>fabric8's mock is not loaded with 100,000 objects by default: at its create cost that load does not finish
 *       in reasonable time.
 *   <li>The container variant never pulls images: it runs only with {@code ctk.container.local-image}.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.benchmarks;
