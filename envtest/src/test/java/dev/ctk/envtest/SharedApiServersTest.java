package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One server per key and JVM: started once, shared, closed once, failures remembered. */
class SharedApiServersTest {

  private final SharedApiServers shared = new SharedApiServers(false);

  @AfterEach
  void closeAll() {
    shared.closeAll();
  }

  @Test
  void parallel_callers_of_one_key_share_one_start() throws Exception {
    AtomicInteger starts = new AtomicInteger();
    CountDownLatch ready = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<ApiServer>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Callable<ApiServer> caller =
            () -> {
              ready.await();
              return shared.obtain("key", () -> new FakeServer("one-" + starts.incrementAndGet()));
            };
        results.add(pool.submit(caller));
      }
      ready.countDown();
      List<ApiServer> servers = new ArrayList<>();
      for (Future<ApiServer> result : results) {
        servers.add(result.get(10, TimeUnit.SECONDS));
      }

      assertThat(starts).hasValue(1);
      assertThat(servers).allSatisfy(server -> assertThat(server).isSameAs(servers.get(0)));
      assertThat(servers.get(0).description()).isEqualTo("fake one-1");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void different_keys_get_different_servers() {
    ApiServer first = shared.obtain("a", () -> new FakeServer("a"));
    ApiServer second = shared.obtain("b", () -> new FakeServer("b"));

    assertThat(first.description()).isEqualTo("fake a");
    assertThat(second.description()).isEqualTo("fake b");
  }

  @Test
  void close_of_the_shared_server_does_nothing_and_closeAll_closes_it_once() {
    FakeServer server = new FakeServer("x");
    ApiServer view = shared.obtain("key", () -> server);

    view.close();
    assertThat(server.closed).hasValue(0);

    shared.closeAll();
    shared.closeAll();
    assertThat(server.closed).hasValue(1);
    assertThat(catchThrowableOfType(IllegalStateException.class, () -> shared.obtain("key", () -> server)))
        .hasMessage("SharedApiServers are closed (the JVM is shutting down); no server is started now.");
  }

  @Test
  void a_failed_start_is_remembered_and_reported_with_the_same_message() {
    AtomicInteger attempts = new AtomicInteger();
    EnvtestException first =
        catchThrowableOfType(
            EnvtestException.class,
            () ->
                shared.obtain(
                    "broken",
                    () -> {
                      attempts.incrementAndGet();
                      throw new EnvtestException("kube-apiserver not found. Looked in: ...");
                    }));

    EnvtestException later =
        catchThrowableOfType(
            EnvtestException.class,
            () -> shared.obtain("broken", () -> new FakeServer("never started")));

    assertThat(attempts).hasValue(1);
    assertThat(later).hasMessage("kube-apiserver not found. Looked in: ...").hasCause(first);
  }

  @Test
  void a_remembered_failure_of_another_type_is_rethrown_as_it_was() {
    IllegalArgumentException first =
        catchThrowableOfType(
            IllegalArgumentException.class,
            () ->
                shared.obtain(
                    "misconfigured",
                    () -> {
                      throw new IllegalArgumentException("withStartTimeout(PT0S): the duration must be positive.");
                    }));

    IllegalArgumentException later =
        catchThrowableOfType(
            IllegalArgumentException.class,
            () -> shared.obtain("misconfigured", () -> new FakeServer("never started")));

    assertThat(later).isSameAs(first).hasMessage("withStartTimeout(PT0S): the duration must be positive.");
  }

  @Test
  void the_log_says_cold_start_first_and_reused_after() {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      shared.obtain("logged", () -> new FakeServer("logged"));
      shared.obtain("logged", () -> new FakeServer("logged again"));
    } finally {
      System.setErr(original);
    }

    assertThat(captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("SharedApiServers")))
        .satisfiesExactly(
            cold ->
                assertThat(cold)
                    .matches(
                        ".*INFO dev\\.ctk\\.envtest\\.SharedApiServers - shared API server \"logged\": cold"
                            + " start \\d+(?:\\.\\d)?(?:µs|ms|s) \\(fake logged\\)"),
            reused ->
                assertThat(reused)
                    .matches(
                        ".*INFO dev\\.ctk\\.envtest\\.SharedApiServers - shared API server \"logged\":"
                            + " reused \\(\\d+(?:\\.\\d)?(?:µs|ms|s)\\)"));
  }

  @Test
  void a_starter_that_returns_null_fails_with_a_message() {
    IllegalStateException failure =
        catchThrowableOfType(IllegalStateException.class, () -> shared.obtain("null", () -> null));

    assertThat(failure)
        .hasMessage("the starter of shared API server \"null\" returned null instead of a started server");
  }

  /** An ApiServer that only counts how often it was closed. */
  private static final class FakeServer implements ApiServer {
    private final String name;
    private final AtomicInteger closed = new AtomicInteger();

    FakeServer(String name) {
      this.name = name;
    }

    @Override
    public Config clientConfig() {
      return Config.empty();
    }

    @Override
    public String url() {
      return "https://fake";
    }

    @Override
    public String kubeconfig() {
      return "";
    }

    @Override
    public String version() {
      return "v0";
    }

    @Override
    public String description() {
      return "fake " + name;
    }

    @Override
    public boolean runsClusterControllers() {
      return false;
    }

    @Override
    public void close() {
      closed.incrementAndGet();
    }
  }
}
