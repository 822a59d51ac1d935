package dev.ctk.envtest;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.client.Config;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One API server per JVM per configuration key, shared by every test class that asks for the same
 * key: started on first use, closed by one JVM shutdown hook. The log says what it cost: {@code
 * shared API server "envtest-1.20": cold start 6.2s (...)} the first time, {@code ... reused (40µs)}
 * after.
 *
 * <pre>{@code
 * ApiServer server = SharedApiServers.get("envtest-1.20",
 *     () -> LocalApiServer.builder().withVersion("1.20").build().start());
 * try (KubernetesClient client = server.newClient()) {
 *   // give each test its own namespace: TestNamespaces
 * }
 * }</pre>
 *
 * <p>The returned server's {@link ApiServer#close()} does nothing: other classes still use it.
 * Thread-safe: parallel test classes asking for the same key wait for one start; different keys
 * start in parallel. A start that fails is remembered: later callers with the same key get the
 * same failure at once (the start is not retried for every class): a new {@link
 * EnvtestException} with the same message and the first one as its cause, or any other exception
 * (e.g. an {@link IllegalArgumentException} from a builder) rethrown as it is. The key must name everything that makes servers differ (mode, version, images, flags).
 *
 * @since 0.1.0
 */
public final class SharedApiServers {

  private static final Logger LOG = LoggerFactory.getLogger(SharedApiServers.class);
  private static final SharedApiServers JVM = new SharedApiServers(true);

  private final boolean shutdownHook;
  private final ConcurrentMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final List<ApiServer> started = new ArrayList<>();
  private boolean hookAdded;
  private boolean closed;

  SharedApiServers(boolean shutdownHook) {
    this.shutdownHook = shutdownHook;
  }

  /**
   * The server for {@code key}, started by {@code starter} if this JVM has none yet.
   *
   * @param key what makes this server different from others, e.g. {@code envtest-1.20}
   * @param starter starts the server (called at most once per key and JVM); must return a started
   *     server
   * @return the shared server; its {@code close()} does nothing
   * @throws EnvtestException if this start, or an earlier one for the same key, failed with one
   * @throws RuntimeException whatever else the starter threw, this time or an earlier time
   * @throws IllegalStateException if the JVM is shutting down
   */
  public static ApiServer get(String key, Supplier<? extends ApiServer> starter) {
    return JVM.obtain(key, starter);
  }

  ApiServer obtain(String key, Supplier<? extends ApiServer> starter) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(starter, "starter");
    long asked = System.nanoTime();
    return slots.computeIfAbsent(key, Slot::new).get(starter, asked);
  }

  /** Closes every server started here, newest first; later calls of {@code obtain} fail. */
  void closeAll() {
    List<ApiServer> servers;
    synchronized (this) {
      closed = true;
      servers = new ArrayList<>(started);
      started.clear();
    }
    for (int i = servers.size() - 1; i >= 0; i--) {
      try {
        servers.get(i).close();
      } catch (RuntimeException e) {
        LOG.warn("could not close shared {}: {}", servers.get(i).description(), e.toString());
      }
    }
  }

  /** Stops a started server before the others (it no longer serves); a failure is logged. */
  private void stopEarly(ApiServer server) {
    synchronized (this) {
      started.remove(server);
    }
    try {
      server.close();
    } catch (RuntimeException e) {
      LOG.warn("could not close shared {}: {}", server.description(), e.toString());
    }
  }

  private synchronized void register(ApiServer server) {
    if (closed) {
      server.close();
      throw new IllegalStateException(
          "SharedApiServers are closed (the JVM is shutting down); the server just started was"
              + " stopped again.");
    }
    started.add(server);
    if (shutdownHook && !hookAdded) {
      hookAdded = true;
      Runtime.getRuntime().addShutdownHook(new Thread(this::closeAll, "ctk-shared-api-servers"));
    }
  }

  private synchronized void requireOpen() {
    if (closed) {
      throw new IllegalStateException(
          "SharedApiServers are closed (the JVM is shutting down); no server is started now.");
    }
  }

  private final class Slot {

    private final String key;
    private ApiServer shared;
    private RuntimeException failure;

    private Slot(String key) {
      this.key = key;
    }

    synchronized ApiServer get(Supplier<? extends ApiServer> starter, long asked) {
      requireOpen();
      if (shared != null) {
        Optional<String> exited = shared.exited();
        if (exited.isEmpty()) {
          LOG.info("shared API server \"{}\": reused ({})", key, DurationText.since(asked));
          return shared;
        }
        failure = new EnvtestException("Shared API server \"" + key + "\" stopped serving: " + exited.get()
            + "\nIt is not started again in this JVM: this and every later use of it fail with this message. Fix "
            + "what the log says (a process killed from outside, out of memory, or etcd out of disk in "
            + "java.io.tmpdir are the usual causes), then run the tests again.");
        LOG.warn("{}", failure.getMessage());
        ApiServer dead = ((SharedView) shared).server;
        shared = null;
        stopEarly(dead);   // what is left of it (kube-apiserver without its etcd) would run until the JVM exits
      }
      if (failure instanceof EnvtestUnavailableException) {
        throw new EnvtestUnavailableException(failure.getMessage(), failure);
      }
      if (failure instanceof EnvtestException) {
        throw new EnvtestException(failure.getMessage(), failure);
      }
      if (failure != null) {
        throw failure;
      }
      long start = System.nanoTime();
      ApiServer server;
      try {
        server = starter.get();
        if (server == null) {
          throw new IllegalStateException(
              "the starter of shared API server \"" + key + "\" returned null instead of a started server");
        }
      } catch (RuntimeException e) {
        failure = e;
        LOG.warn(
            "shared API server \"{}\": start failed after {}; later requests for this key fail the same way",
            key,
            DurationText.since(start));
        throw e;
      }
      register(server);
      shared = new SharedView(server);
      LOG.info(
          "shared API server \"{}\": cold start {} ({})",
          key,
          DurationText.since(start),
          server.description());
      return shared;
    }
  }

  /** The server as callers see it: everything but {@code close()}. */
  private static final class SharedView implements ApiServer {

    private final ApiServer server;

    private SharedView(ApiServer server) {
      this.server = server;
    }

    @Override
    public Config clientConfig() {
      return server.clientConfig();
    }

    @Override
    public String url() {
      return server.url();
    }

    @Override
    public String kubeconfig() {
      return server.kubeconfig();
    }

    @Override
    public String version() {
      return server.version();
    }

    @Override
    public String description() {
      return server.description();
    }

    @Override
    public boolean runsClusterControllers() {
      return server.runsClusterControllers();
    }

    @Override
    public Optional<String> exited() {
      return server.exited();
    }

    /** Does nothing: the server is shared and closed when the JVM exits. */
    @Override
    public void close() {
      // shared: closed by the shutdown hook
    }

    @Override
    public String toString() {
      return "shared " + server;
    }
  }
}
