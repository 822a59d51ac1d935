package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.envtest.internal.FreePorts;
import dev.ctk.envtest.internal.HostEnvironment;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LocalApiServer on fake binaries (shell scripts): misuse, startup failures, no process left. */
class LocalApiServerTest {

  private static final String PORT_TAKEN_LINE =
      "failed to listen on 127.0.0.1:6443: listen tcp 127.0.0.1:6443: bind: address already in use";
  private static final String PORT_TAKEN_SCRIPT = "echo '" + PORT_TAKEN_LINE + "'; exit 1";

  @TempDir Path assets;

  private LocalApiServer server;

  @AfterEach
  void closeServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void a_kube_apiserver_that_exits_at_start_fails_with_its_last_50_lines_and_leaves_no_process() {
    FakeBinaries.healthyEtcd(assets);
    Path apiServer =
        FakeBinaries.kubeApiServer(
            assets, "1.20.2", "i=1; while [ $i -le 60 ]; do echo \"line $i\"; i=$((i + 1)); done; exit 1");
    server = LocalApiServer.builder().withAssetsDirectory(assets).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    String lines =
        IntStream.rangeClosed(11, 60).mapToObj(i -> "\n  line " + i).collect(Collectors.joining());
    assertThat(normalized(failure.getMessage()))
        .isEqualTo(
            "kube-apiserver exited with code 1 after <t>s while starting ("
                + apiServer
                + "). Last 50 of its 60 log lines:"
                + lines
                + "\nFix what its log says (flags given with withApiServerFlags(..) and"
                + " withEtcdFlags(..) are on its command line), or run with -Dctk.mode=fake.");
    assertNothingLeft();
  }

  @Test
  void withLogLines_bounds_the_lines_in_the_message() {
    FakeBinaries.healthyEtcd(assets);
    Path apiServer =
        FakeBinaries.kubeApiServer(assets, "1.20.2", "echo one; echo two; echo three; exit 3");
    server = LocalApiServer.builder().withAssetsDirectory(assets).withLogLines(2).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()))
        .isEqualTo(
            "kube-apiserver exited with code 3 after <t>s while starting ("
                + apiServer
                + "). Last 2 of its 3 log lines:\n  two\n  three\nFix what its log says (flags given"
                + " with withApiServerFlags(..) and withEtcdFlags(..) are on its command line), or run"
                + " with -Dctk.mode=fake.");
    assertNothingLeft();
  }

  @Test
  void an_etcd_that_exits_at_start_is_named_in_the_message() {
    Path etcd = FakeBinaries.etcd(assets, "echo 'etcdmain: cannot access data directory'; exit 2");
    FakeBinaries.kubeApiServer(assets, "1.20.2", "exit 0");
    server = LocalApiServer.builder().withAssetsDirectory(assets).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()))
        .isEqualTo(
            "etcd exited with code 2 after <t>s while starting ("
                + etcd
                + "). Its log (1 line):\n  etcdmain: cannot access data directory"
                + "\nFix what its log says (flags given with withApiServerFlags(..) and"
                + " withEtcdFlags(..) are on its command line), or run with -Dctk.mode=fake.");
    assertNothingLeft();
  }

  @Test
  void a_taken_free_port_is_tried_again_with_other_ports_then_gets_the_port_fix() {
    FakeBinaries.healthyEtcd(assets);
    Path apiServer = FakeBinaries.kubeApiServer(assets, "1.20.2", PORT_TAKEN_SCRIPT);
    server = LocalApiServer.builder().withAssetsDirectory(assets).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()).replaceAll("secure port \\d+ ", "secure port <port> "))
        .isEqualTo(
            "kube-apiserver exited with code 1 after <t>s while starting ("
                + apiServer
                + "). Its log (1 line):\n  "
                + PORT_TAKEN_LINE
                + "\nAnother process took a free port picked for kube-apiserver (last: secure port <port>"
                + " or another port it needs) before kube-apiserver could bind it, with each of 3 sets"
                + " of free ports. Stop the process that holds the port its log names, or run when"
                + " fewer processes open ports on this machine.");
    assertThat(server.processIds()).as("etcd and kube-apiserver, three times").hasSize(6);
    assertNothingLeft();
  }

  @Test
  void a_taken_etcd_port_is_tried_again_and_named_as_etcds() {
    Path etcd = FakeBinaries.etcd(assets, "echo '" + PORT_TAKEN_LINE + "'; exit 1");
    FakeBinaries.kubeApiServer(assets, "1.20.2", "exit 0");
    server = LocalApiServer.builder().withAssetsDirectory(assets).withSecurePort(FreePorts.pick(1)[0]).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()).replaceAll("port \\d+", "port <port>"))
        .isEqualTo(
            "etcd exited with code 1 after <t>s while starting ("
                + etcd
                + "). Its log (1 line):\n  "
                + PORT_TAKEN_LINE
                + "\nAnother process took a free port picked for etcd (last: client port <port> or peer"
                + " port <port>) before etcd could bind it, with each of 3 sets of free ports. Stop the"
                + " process that holds the port its log names, or run when fewer processes open ports"
                + " on this machine.");
    assertThat(server.processIds()).as("etcd, three times").hasSize(3);
    assertNothingLeft();
  }

  @Test
  void a_taken_fixed_port_is_not_tried_again() {
    FakeBinaries.healthyEtcd(assets);
    Path apiServer = FakeBinaries.kubeApiServer(assets, "1.20.2", PORT_TAKEN_SCRIPT);
    int port = FreePorts.pick(1)[0];
    server = LocalApiServer.builder().withAssetsDirectory(assets).withSecurePort(port).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()))
        .isEqualTo(
            "kube-apiserver exited with code 1 after <t>s while starting ("
                + apiServer
                + "). Its log (1 line):\n  "
                + PORT_TAKEN_LINE
                + "\nThe secure port "
                + port
                + " set with withSecurePort("
                + port
                + ") or another port kube-apiserver needs was taken by another process: leave"
                + " withSecurePort unset to get a free port, or stop the process that holds the port"
                + " its log names.");
    assertThat(server.processIds()).hasSize(2);
    assertNothingLeft();
  }

  @Test
  void a_secure_port_in_use_fails_before_any_process_starts() throws IOException {
    FakeBinaries.healthyEtcd(assets);
    FakeBinaries.kubeApiServer(assets, "1.20.2", "exit 0");
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      server = LocalApiServer.builder().withAssetsDirectory(assets).withSecurePort(port).build();

      assertThatThrownBy(server::start)
          .isInstanceOf(EnvtestException.class)
          .hasMessage(
              "Secure port "
                  + port
                  + " for kube-apiserver is already in use on 127.0.0.1 (withSecurePort("
                  + port
                  + ")). Leave withSecurePort unset to get a free port, or stop the process that"
                  + " listens on "
                  + port
                  + " (`ss -ltnp 'sport = :"
                  + port
                  + "'` names it).");
      assertThat(server.processIds()).isEmpty();
      assertThat(server.workDirectory()).isNull();
    }
  }

  @Test
  void a_server_that_never_gets_ready_times_out_and_one_that_ignores_TERM_is_killed() {
    FakeBinaries.healthyEtcd(assets);
    FakeBinaries.kubeApiServer(
        assets, "1.20.2", "trap '' TERM; echo 'waiting forever'; while :; do sleep 1; done");
    int port = FreePorts.pick(1)[0];
    server =
        LocalApiServer.builder()
            .withAssetsDirectory(assets)
            .withSecurePort(port)
            .withStartTimeout(Duration.ofSeconds(4))
            .withStopTimeout(Duration.ofMillis(500))
            .build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(normalized(failure.getMessage()))
        .isEqualTo(
            "kube-apiserver at https://127.0.0.1:"
                + port
                + " did not become ready within 4s (waited <t>s): it wrote no serving certificate"
                + " to "
                + server.workDirectory().resolve("cert-dir/apiserver.crt")
                + "; last answer: no such file. If the machine is only slow, raise the start"
                + " timeout; otherwise the lines below say why.\n"
                + "Its log (1 line):\n  waiting forever");
    assertNothingLeft();
  }

  @Test
  void close_during_start_makes_start_give_up_and_leaves_no_process() {
    FakeBinaries.healthyEtcd(assets);
    FakeBinaries.kubeApiServer(assets, "1.20.2", "echo 'never ready'; while :; do sleep 1; done");
    server =
        LocalApiServer.builder()
            .withAssetsDirectory(assets)
            .withStartTimeout(Duration.ofMinutes(5))
            .build();
    AtomicReference<Throwable> startFailure = new AtomicReference<>();
    Thread starter = new Thread(() -> startFailure.set(catchThrowable(server::start)), "starter");
    starter.start();
    await("etcd and kube-apiserver to be started")
        .atMost(Duration.ofSeconds(60))
        .until(() -> server.processIds().size() == 2);

    server.close();

    await("start() to give up").atMost(Duration.ofSeconds(30)).until(() -> !starter.isAlive());
    assertThat(startFailure.get())
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "LocalApiServer.close() was called while the server was starting; start() gave up and"
                + " stopped what it had started.");
    assertNothingLeft();
  }

  @Test
  void missing_binaries_fail_start_with_the_discovery_message() {
    server = LocalApiServer.builder().withHost(emptyHost()).build();

    Path home = assets.resolve("home");
    assertThatThrownBy(server::start)
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "kube-apiserver and etcd not found. Looked in: withAssetsDirectory=<unset>,"
                + " KUBEBUILDER_ASSETS=<unset>, CTK_ENVTEST_ASSETS=<unset>, "
                + home
                + "/.local/share/kubebuilder-envtest/k8s/* (no folders), "
                + home
                + "/.cache/ctk/envtest/k8s/* (no folders), PATH=<unset>. Run .ci/provision-envtest"
                + " (in ctk's repository; it builds 1.32.13, 1.34.4 and 1.37.2) or `setup-envtest use`, then set"
                + " KUBEBUILDER_ASSETS to the folder it prints; or run with -Dctk.mode=fake.");
    assertThat(server.processIds()).isEmpty();
  }

  @Test
  void build_may_be_called_once() {
    LocalApiServer.Builder builder = LocalApiServer.builder();
    builder.build();

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "LocalApiServer.Builder.build() was already called; call LocalApiServer.builder()"
                + " again for another server.");
  }

  @Test
  void start_may_be_called_once() {
    server = LocalApiServer.builder().withHost(emptyHost()).build();
    assertThatThrownBy(server::start).isInstanceOf(EnvtestException.class);

    assertThatThrownBy(server::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "LocalApiServer.start() cannot run: the server is closed. Build a new server with"
                + " LocalApiServer.builder() to start another one.");
  }

  @Test
  void accessors_need_a_running_server() {
    server = LocalApiServer.builder().build();

    assertThatThrownBy(server::url)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "LocalApiServer.url() needs a running server, but it is not started: call start()"
                + " first.");
    server.close();
    assertThatThrownBy(server::clientConfig)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("LocalApiServer.clientConfig() needs a running server, but it is closed.");
    assertThat(server.description()).isEqualTo("local kube-apiserver (not started)");
    assertThat(server.runsClusterControllers()).isFalse();
  }

  @Test
  void flags_that_ctk_owns_or_that_are_malformed_are_refused_at_once() {
    LocalApiServer.Builder builder = LocalApiServer.builder();

    assertThatThrownBy(() -> builder.withApiServerFlags("--v=4", "--secure-port=6443"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "withApiServerFlags(..): --secure-port is set by ctk and cannot be changed: use"
                + " withSecurePort(int) instead.");
    assertThatThrownBy(() -> builder.withEtcdFlags("--data-dir=/var/lib/etcd"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "withEtcdFlags(..): --data-dir is set by ctk and cannot be changed: etcd keeps its data"
                + " in ctk's temporary work folder, deleted on close.");
    assertThatThrownBy(() -> builder.withApiServerFlags("v=4"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "withApiServerFlags(..): \"v=4\" is not a flag. Pass each flag as one string"
                + " --name=value, e.g. --v=4.");
  }

  @Test
  void other_builder_values_are_checked_at_once() {
    LocalApiServer.Builder builder = LocalApiServer.builder();

    assertThatThrownBy(() -> builder.withVersion("latest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "withVersion(\"latest\"): not a Kubernetes version. Pass one like 1.20, 1.20.x or"
                + " 1.20.2.");
    assertThatThrownBy(() -> builder.withStartTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withStartTimeout(PT0S): the duration must be positive.");
    assertThatThrownBy(() -> builder.withSecurePort(70_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withSecurePort(70000): a TCP port is between 1 and 65535.");
    assertThatThrownBy(() -> builder.withLogLines(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withLogLines(0): at least 1 line.");
  }

  /** No environment variables and an empty home: discovery finds nothing. */
  private HostEnvironment emptyHost() {
    return new HostEnvironment(
        Map.<String, String>of()::get, assets.resolve("home"), "linux", "amd64");
  }

  private void assertNothingLeft() {
    List<Long> pids = server.processIds();
    assertThat(pids).isNotEmpty();
    assertThat(pids).noneMatch(Processes::running);
    assertThat(server.workDirectory()).isNotNull();
    assertThat(Files.exists(server.workDirectory())).isFalse();
  }

  /** Replaces measured times such as {@code 0.4s} after "after " or "waited " with {@code <t>s}. */
  private static String normalized(String message) {
    return message.replaceAll("(after|waited) \\d+(?:\\.\\d)?(?:µs|ms|s)", "$1 <t>s");
  }
}
