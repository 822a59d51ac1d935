package dev.ctk.harness.internal.realserver;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ContainerApiServer;
import java.nio.file.Path;

/**
 * Starts container mode's server. A class of its own, so that {@code ContainerApiServer} (and
 * Testcontainers behind it) is loaded only when container mode is used.
 */
public final class ContainerServerStart {

  private ContainerServerStart() {}

  public static ApiServer start(ServerConfig config) {
    ContainerApiServer.Builder builder;
    if (config.k3sImage() != null) {
      builder = ContainerApiServer.k3s().withK3sImage(config.k3sImage());
    } else {
      builder = ContainerApiServer.builder();
      Path assets = config.localImageAssets();
      if (assets != null) {
        builder.withLocalImage(assets);
      }
      if (config.apiServerImage() != null) {
        builder.withApiServerImage(config.apiServerImage());
      }
      if (config.etcdImage() != null) {
        builder.withEtcdImage(config.etcdImage());
      }
    }
    return builder.build().start();
  }
}
