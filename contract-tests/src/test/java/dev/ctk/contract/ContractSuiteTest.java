package dev.ctk.contract;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.ctk.contract.scenarios.Scenarios;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.ClientTransport;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.internal.version.KubeMinor;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract suite: every scenario of {@link Scenarios#all()} runs twice on a fresh fake (garbage collection off,
 * as a bare kube-apiserver has none), once per {@link ClientTransport} of its client: {@code fake (http)} and
 * {@code fake (in-process)}. Each run must meet kube's expected answers, and the in-process run's observation must
 * equal the HTTP run's exactly (no known differences between the transports). Then the scenario runs on each real
 * kube-apiserver available (one per JVM, a fresh namespace per scenario), whose observation must equal the HTTP
 * fake's but for the scenario's declared known differences. At the end the fidelity and the transport parity are
 * printed and {@code target/contract-report.md} written.
 *
 * <p>So each scenario is a container of 2 fake tests plus one test per real server asked for. A scenario that
 * {@link Scenario#needsClusterControllers() needs kube-controller-manager} skips on a real server without it.
 *
 * <p>Targets: {@code CTK_CONTRACT_TARGETS} (comma-separated, default {@code fake,envtest}; {@code container} adds
 * the apiserver + etcd containers). A real server that cannot be had skips its tests with the reason, or fails them
 * when {@code CTK_REQUIRE_ENVTEST=true}.
 */
class ContractSuiteTest {

  private static final ContractReport REPORT = new ContractReport();
  private static final Map<ClientTransport, Map<Scenario, Map<String, String>>> FAKE_OBSERVATIONS =
      new EnumMap<>(Map.of(ClientTransport.HTTP, new ConcurrentHashMap<>(),
          ClientTransport.IN_PROCESS, new ConcurrentHashMap<>()));
  private static final List<RealServer> REAL_SERVERS = RealServers.requested(System.getenv("CTK_CONTRACT_TARGETS"));
  private static final Map<KubeMinor, Map<Scenario, Map<String, String>>> FAKE_AT_MINOR = new ConcurrentHashMap<>();
  private static final boolean REQUIRE_REAL = "true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"));
  private static final SecureRandom RANDOM = new SecureRandom();

  @TestFactory
  Stream<DynamicNode> scenarios() {
    return Scenarios.all().stream().map(scenario -> {
      List<DynamicNode> runs = new ArrayList<>();
      runs.add(dynamicTest(fakeName(ClientTransport.HTTP), () -> onFake(scenario, ClientTransport.HTTP)));
      runs.add(dynamicTest(fakeName(ClientTransport.IN_PROCESS), () -> onFake(scenario, ClientTransport.IN_PROCESS)));
      for (RealServer server : REAL_SERVERS) {
        runs.add(dynamicTest("kube-apiserver (" + server.variant() + ")", () -> onReal(scenario, server)));
      }
      return dynamicContainer(scenario.displayName(), runs);
    });
  }

  @AfterAll
  static void report() {
    try {
      for (RealServer server : REAL_SERVERS) {
        String problem = server.anyProblem();
        if (problem != null) {
          REPORT.unavailable(server.displayName(), problem);
        }
      }
      if (REAL_SERVERS.isEmpty()) {
        REPORT.unavailable("kube-apiserver", "CTK_CONTRACT_TARGETS=" + System.getenv("CTK_CONTRACT_TARGETS")
            + " names no real server; add envtest or container");
      }
      REPORT.print(System.out);
      REPORT.writeMarkdown(Path.of("target", "contract-report.md"));
    } finally {
      REAL_SERVERS.forEach(RealServer::close);
    }
  }

  /**
   * One fake run: kube's expectations must be met; on the in-process transport the observation must also equal the
   * HTTP run's, value by value.
   */
  private static void onFake(Scenario scenario, ClientTransport transport) {
    Run run = runOnFake(scenario, transport);
    List<String> unmet = run.observation().unmetExpectations();
    TransportParity parity = transport == ClientTransport.IN_PROCESS
        ? TransportParity.of(scenario, fakeObservation(scenario, ClientTransport.HTTP), run.observation().values())
        : null;
    String outcome = run.error() != null ? "error" : unmet.isEmpty() ? "ok" : unmet.size() + " unmet";
    if (parity == null) {
      REPORT.fake(scenario, outcome);
    } else {
      REPORT.fakeInProcess(scenario, outcome, parity);
    }
    if (run.error() != null) {
      throw new AssertionError("Scenario \"" + scenario.displayName() + "\" failed on the " + fakeName(transport)
          + ": " + run.error(), run.error());
    }
    List<String> problems = new ArrayList<>();
    if (!unmet.isEmpty()) {
      problems.add("Scenario \"" + scenario.displayName() + "\": the " + fakeName(transport) + " does not answer as "
          + "kube-apiserver does:\n  " + String.join("\n  ", unmet));
    }
    if (parity != null && !parity.equal()) {
      problems.add(parity.failureMessage());
    }
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }

  private static Run runOnFake(Scenario scenario, ClientTransport transport) {
    Run run = runOnFake(scenario, transport, KubeMinor.DEFAULT);
    FAKE_OBSERVATIONS.get(transport).put(scenario, run.observation().values());
    return run;
  }

  private static Run runOnFake(Scenario scenario, ClientTransport transport, KubeMinor minor) {
    String namespace = freshNamespace();
    FakeCluster.Builder builder = FakeCluster.builder().withGarbageCollection(false).withClientTransport(transport)
        .withKubernetesVersion(minor.toString());
    try (FakeCluster cluster = scenario.configureFake(builder).build();
        ContractTarget target = ContractTarget.open(fakeName(transport), cluster.newClient(), namespace)) {
      requireTransport(target, transport);
      return Run.of(scenario, target);
    }
  }

  /**
   * The fake's HTTP observation when it emulates the minor of a real server's {@code gitVersion}: that minor when
   * the fake emulates it (so behaviours that changed between minors are compared with the server that has them),
   * else the fake's default minor (and the scenario's known differences for that version apply).
   */
  private static Map<String, String> fakeObservationFor(Scenario scenario, String realGitVersion) {
    KubeMinor minor = emulatedMinor(realGitVersion);
    if (minor.equals(KubeMinor.DEFAULT)) {
      return fakeObservation(scenario, ClientTransport.HTTP);
    }
    return FAKE_AT_MINOR.computeIfAbsent(minor, m -> new ConcurrentHashMap<>())
        .computeIfAbsent(scenario, s -> runOnFake(s, ClientTransport.HTTP, minor).observation().values());
  }

  /** The minor the fake emulates against a server of this gitVersion ({@code v1.37.2}): the same, or the default. */
  static KubeMinor emulatedMinor(String gitVersion) {
    Matcher m = gitVersion == null ? null : Pattern.compile("^v?(1\\.\\d+)").matcher(gitVersion);
    if (m == null || !m.find()) {
      return KubeMinor.DEFAULT;
    }
    try {
      return KubeMinor.parse(m.group(1));
    } catch (IllegalArgumentException notEmulated) {
      return KubeMinor.DEFAULT;
    }
  }

  /**
   * Guards against a run that silently used the other transport: an in-process client's master URL is a
   * {@code .invalid} host no socket can reach, an HTTP client's is the listener's loopback address.
   */
  private static void requireTransport(ContractTarget target, ClientTransport transport) {
    String url = target.client().getConfiguration().getMasterUrl();
    boolean inProcess = url.contains(".invalid");
    if (inProcess != (transport == ClientTransport.IN_PROCESS)) {
      throw new AssertionError("The " + fakeName(transport) + " run's client has master URL " + url
          + ", which is not the " + transport + " transport. Fix: build the fake with withClientTransport("
          + transport + ") and use cluster.newClient().");
    }
  }

  /** The fake's observation on one transport, from its own test when that ran, else from a run made now. */
  private static Map<String, String> fakeObservation(Scenario scenario, ClientTransport transport) {
    Map<String, String> observed = FAKE_OBSERVATIONS.get(transport).get(scenario);
    return observed != null ? observed : runOnFake(scenario, transport).observation().values();
  }

  private static String fakeName(ClientTransport transport) {
    return transport == ClientTransport.HTTP ? "fake (http)" : "fake (in-process)";
  }

  private static void onReal(Scenario scenario, RealServer server) {
    boolean controllers = scenario.needsClusterControllers();
    ApiServer api = server.server(controllers);
    if (api == null && server.unavailable(controllers)) {
      String reason = server.displayName() + " is not available: " + server.problem(controllers);
      if (REQUIRE_REAL) {
        fail(reason + "\nCTK_REQUIRE_ENVTEST=true makes this a failure; unset it to skip instead.");
      }
      Assumptions.abort(reason);
    }
    if (api == null && controllers && server.controllersMissing()) {
      String reason = server.displayName() + " cannot run kube-controller-manager (no garbage collector, no namespace "
          + "controller), whose work this scenario observes: " + server.problem(true);
      REPORT.skipped(server.displayName(), scenario, reason);
      if (REQUIRE_REAL) {
        fail(reason + "\nCTK_REQUIRE_ENVTEST=true makes this a failure; unset it to skip instead.");
      }
      Assumptions.abort(reason + ". A target with those controllers (k3s, an existing cluster) runs it.");
    }
    if (api == null) {
      fail(server.displayName() + " did not start, so the scenario cannot be compared: " + server.problem(controllers));
    }
    Run real;
    String version;
    try (ContractTarget target = ContractTarget.open(server.displayName(), api.newClient(), freshNamespace())) {
      version = target.version();
      real = Run.of(scenario, target);
    }
    Map<String, String> fake = fakeObservationFor(scenario, version);
    Comparison comparison = Comparison.of(scenario, fake, real.observation().values(), version);
    REPORT.real(server.displayName(), server.fidelityName(), emulatedMinor(version).toString(), comparison);
    if (comparison.result() == Comparison.Result.MISMATCH) {
      AssertionError failure = new AssertionError(comparison.failureMessage(server.displayName()));
      if (real.error() != null) {
        failure.addSuppressed(real.error());
      }
      throw failure;
    }
  }

  private static String freshNamespace() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder name = new StringBuilder("ctk-contract-");
    for (int i = 0; i < 5; i++) {
      name.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return name.toString().toLowerCase(Locale.ROOT);
  }

  /** One scenario's run on one target: what it recorded, and the exception that ended it early, if any. */
  private record Run(Observation observation, Throwable error) {

    static Run of(Scenario scenario, ContractTarget target) {
      Observation observation = new Observation(target.namespace());
      try {
        scenario.run(target, observation);
        return new Run(observation, null);
      } catch (Exception | AssertionError e) {
        observation.record("exception", e.getClass().getSimpleName() + ": " + e.getMessage());
        return new Run(observation, e);
      }
    }
  }
}
