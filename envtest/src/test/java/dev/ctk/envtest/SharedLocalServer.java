package dev.ctk.envtest;

import dev.ctk.envtest.values.EnvtestException;
import org.junit.jupiter.api.Assumptions;

/**
 * The local API server that the CRD, namespace and existing-cluster tests share through {@link
 * SharedApiServers} (one per test JVM). Skipped with the discovery message when no envtest
 * binaries are found, unless {@code CTK_REQUIRE_ENVTEST=true}, which turns that into a failure.
 */
final class SharedLocalServer {

  private SharedLocalServer() {}

  static ApiServer get() {
    EnvtestAssets assets;
    try {
      assets = EnvtestAssets.find(null);
    } catch (EnvtestException e) {
      if ("true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"))) {
        throw e;
      }
      Assumptions.abort(e.getMessage());
      throw e;
    }
    return SharedApiServers.get(
        "envtest-tests-local",
        () -> LocalApiServer.builder().withAssetsDirectory(assets.directory()).build().start());
  }
}
