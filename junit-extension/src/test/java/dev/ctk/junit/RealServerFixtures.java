package dev.ctk.junit;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.Mode;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The real servers ctk's own tests run against: the same shared servers the fixtures get (same
 * settings: none), so that a test can look at what its fixture left behind. A test that needs one on
 * a machine without it is skipped with the reason, or fails when {@code CTK_REQUIRE_ENVTEST=true}
 * (as CI sets it): the policy ctk applies to users' tests.
 */
final class RealServerFixtures {

  private RealServerFixtures() {}

  /** The server of {@code mode} with default settings (plus {@code parameters}), or skip when it is unavailable. */
  static ApiServer serverOrSkip(Mode mode, String... parameters) {
    Map<String, String> map = new java.util.HashMap<>();
    for (int i = 0; i < parameters.length; i += 2) {
      map.put(parameters[i], parameters[i + 1]);
    }
    ServerConfig config = new ControllerTestConfig(name -> Optional.ofNullable(map.get(name)), name -> null)
        .serverConfig(mode);
    try {
      return RealServers.server(config);
    } catch (EnvtestUnavailableException e) {   // a server found but failing fails the test, as in the extension
      if ("true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"))) {
        throw e;
      }
      Assumptions.abort(e.getMessage());
      throw e;
    }
  }
}
