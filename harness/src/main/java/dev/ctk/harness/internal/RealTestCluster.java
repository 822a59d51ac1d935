package dev.ctk.harness.internal;

import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.TestNamespaces;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A real mode's scope: a fresh namespace on the shared server, a client whose default namespace it
 * is, and an event injector writing through that client. Closing it closes the client and deletes
 * the namespace (with what is in it); the server stays up for the next scope. With virtual time the
 * scope has a {@link VirtualTime} for its controllers, but the server stamps objects with its own,
 * real clock.
 */
public final class RealTestCluster implements TestCluster {

  private final Mode mode;
  private final ApiServer server;
  private final TestNamespaces namespaces;
  private final String namespace;
  private final KubernetesClient client;
  private final EventInjector events;
  private final VirtualTime virtualTime;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RealTestCluster(Mode mode, ApiServer server, TestNamespaces namespaces,
      String namespace, KubernetesClient client, VirtualTime virtualTime) {
    this.mode = mode;
    this.virtualTime = virtualTime;
    this.server = server;
    this.namespaces = namespaces;
    this.namespace = namespace;
    this.client = client;
    this.events = EventInjector.of(new ApiEventTarget(client, mode, server.description()));
  }

  /**
   * Gets the shared server of the spec's mode, installs its CRDs (once per server), creates a fresh
   * namespace named after {@code scopeName} and seeds the spec's objects into it.
   *
   * @param virtualTime the scope's virtual time for its controllers, or {@code null} (real time)
   * @throws dev.ctk.envtest.values.EnvtestException when the server cannot be had
   */
  public static RealTestCluster start(ClusterSpec spec, String scopeName, VirtualTime virtualTime) {
    ServerConfig config = spec.server();
    RealServers.Handle handle = RealServers.handle(config);
    ApiServer server = handle.server();
    SeedObjects seed = SeedObjects.read(spec.resources(), spec.objects());
    List<CustomResourceDefinition> crds = new ArrayList<>(spec.crdObjects());
    crds.addAll(seed.crds());
    RealServers.installCrds(handle, config, spec.crds(), crds);
    TestNamespaces namespaces = handle.namespaces();
    String namespace = namespaces.create(scopeName);
    KubernetesClient client = null;
    try {
      Config clientConfig = server.clientConfig();
      clientConfig.setNamespace(namespace);
      // As in fake mode (ClusterClients): the test's client never retries by itself, so every 409, 429 or 5xx
      // reaches the code under test in every mode, as docs/faults-and-time.md says.
      clientConfig.setRequestRetryBackoffLimit(0);
      client = new KubernetesClientBuilder().withConfig(clientConfig).build();
      seed.createIn(client, namespace, config.mode().configName() + " mode's "
          + server.description() + ", namespace " + namespace);
      return new RealTestCluster(config.mode(), server, namespaces, namespace, client,
          virtualTime);
    } catch (RuntimeException e) {
      if (client != null) {
        client.close();
      }
      namespaces.delete(namespace);
      throw e;
    }
  }

  @Override
  public Mode mode() {
    return mode;
  }

  @Override
  public KubernetesClient client() {
    return client;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public String description() {
    return server.description();
  }

  @Override
  public EventInjector events() {
    return events;
  }

  @Override
  public Optional<FakeCluster> fakeCluster() {
    return Optional.empty();
  }

  @Override
  public Optional<ApiServer> apiServer() {
    return Optional.of(server);
  }

  @Override
  public TimeSource time() {
    return virtualTime == null ? TimeSource.system() : virtualTime;
  }

  @Override
  public Optional<VirtualTime> virtualTime() {
    return Optional.ofNullable(virtualTime);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      client.close();
    } finally {
      namespaces.delete(namespace);
    }
  }
}
