package dev.ctk.contract;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.ctk.contract.scenarios.Scenarios;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.FakeCluster;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract suite: every scenario of {@link Scenarios#all()} runs on a fresh fake (garbage collection off, as a
 * bare kube-apiserver has none) and must meet kube's expected answers there; then it runs on each real
 * kube-apiserver available (one per JVM, a fresh namespace per scenario) and both observations must be equal but
 * for the scenario's declared known differences. At the end the fidelity is printed and
 * {@code target/contract-report.md} written.
 *
 * <p>Targets: {@code CTK_CONTRACT_TARGETS} (comma-separated, default {@code fake,envtest}; {@code container} adds
 * the apiserver + etcd containers). A real server that cannot be had skips its tests with the reason, or fails them
 * when {@code CTK_REQUIRE_ENVTEST=true}.
 */
class ContractSuiteTest {

  private static final ContractReport REPORT = new ContractReport();
  private static final Map<Scenario, Map<String, String>> FAKE_OBSERVATIONS = new ConcurrentHashMap<>();
  private static final List<RealServer> REAL_SERVERS = RealServers.requested(System.getenv("CTK_CONTRACT_TARGETS"));
  private static final boolean REQUIRE_REAL = "true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"));
  private static final SecureRandom RANDOM = new SecureRandom();

  @TestFactory
  Stream<DynamicNode> scenarios() {
    return Scenarios.all().stream().map(scenario -> {
      List<DynamicNode> runs = new ArrayList<>();
      runs.add(dynamicTest("fake", () -> onFake(scenario)));
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
        if (server.asked() && server.server() == null) {
          REPORT.unavailable(server.displayName(), server.problem());
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

  private static void onFake(Scenario scenario) {
    Run run = runOnFake(scenario);
    List<String> unmet = run.observation().unmetExpectations();
    REPORT.fake(scenario, run.error() != null ? "error" : unmet.isEmpty() ? "ok" : unmet.size() + " unmet");
    if (run.error() != null) {
      throw new AssertionError("Scenario \"" + scenario.displayName() + "\" failed on the fake: " + run.error(),
          run.error());
    }
    if (!unmet.isEmpty()) {
      fail("Scenario \"" + scenario.displayName() + "\": the fake does not answer as kube-apiserver does:\n  "
          + String.join("\n  ", unmet));
    }
  }

  private static Run runOnFake(Scenario scenario) {
    String namespace = freshNamespace();
    try (FakeCluster cluster = scenario.configureFake(FakeCluster.builder().withGarbageCollection(false)).build();
        ContractTarget target = ContractTarget.open("fake", cluster.newClient(), namespace)) {
      Run run = Run.of(scenario, target);
      FAKE_OBSERVATIONS.put(scenario, run.observation().values());
      return run;
    }
  }

  private static void onReal(Scenario scenario, RealServer server) {
    ApiServer api = server.server();
    if (api == null && server.unavailable()) {
      String reason = server.displayName() + " is not available: " + server.problem();
      if (REQUIRE_REAL) {
        fail(reason + "\nCTK_REQUIRE_ENVTEST=true makes this a failure; unset it to skip instead.");
      }
      Assumptions.abort(reason);
    }
    if (api == null) {
      fail(server.displayName() + " did not start, so the scenario cannot be compared: " + server.problem());
    }
    Map<String, String> fake = FAKE_OBSERVATIONS.get(scenario);
    if (fake == null) {
      fake = runOnFake(scenario).observation().values();
    }
    Run real;
    try (ContractTarget target = ContractTarget.open(server.displayName(), api.newClient(), freshNamespace())) {
      real = Run.of(scenario, target);
    }
    Comparison comparison = Comparison.of(scenario, fake, real.observation().values());
    REPORT.real(server.displayName(), server.fidelityName(), comparison);
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
