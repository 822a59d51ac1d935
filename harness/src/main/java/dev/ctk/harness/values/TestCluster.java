package dev.ctk.harness.values;

import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * What a test scope runs against, in any mode: a client whose default namespace is the scope's
 * namespace, an event injector, and the server behind them. A fake cluster ({@link
 * dev.ctk.harness.internal.FakeTestCluster}) or a namespace on a real server ({@link dev.ctk.harness.internal.RealTestCluster}). Closing it closes
 * what the scope owns: the fake cluster, or the namespace and the client (never a shared server).
 */
public interface TestCluster extends AutoCloseable {

  /** The mode: {@code FAKE}, {@code ENVTEST}, {@code CONTAINER} or {@code EXISTING_CLUSTER}. */
  Mode mode();

  /** The client for the test; its default namespace is {@link #namespace()}. */
  KubernetesClient client();

  /** The namespace of the scope: {@code default} in fake mode, a fresh one in a real mode. */
  String namespace();

  /** One line naming the server, e.g. {@code ctk fake API server at http://127.0.0.1:40123}. */
  String description();

  /** The event injector: through the fake's store, or through the API of a real server. */
  EventInjector events();

  /** The fake cluster, in fake mode. */
  Optional<FakeCluster> fakeCluster();

  /** The real server, in a real mode. */
  Optional<ApiServer> apiServer();

  /**
   * The time source of the scope's controllers: its {@link VirtualTime} with virtual time, else
   * {@link TimeSource#system()}.
   */
  TimeSource time();

  /** The scope's virtual time, when {@code @ControllerTest(virtualTime = true)}; else empty. */
  Optional<VirtualTime> virtualTime();

  /** Closes what this scope owns; idempotent. */
  @Override
  void close();
}
