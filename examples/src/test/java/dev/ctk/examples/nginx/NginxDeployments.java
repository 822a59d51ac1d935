package dev.ctk.examples.nginx;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;

/** The nginx Deployments the nginx tests and the docs' examples create. */
public final class NginxDeployments {

  private NginxDeployments() {}

  /**
   * An nginx Deployment without a namespace: created in the client's namespace.
   *
   * @param name its name (and the {@code instance} label)
   * @param port the container port named {@code http}
   * @return the Deployment
   */
  public static Deployment nginxDeployment(String name, int port) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withLabels(Map.of("app", "nginx")).endMetadata()
        .withNewSpec()
          .withReplicas(1)
          .withNewSelector().withMatchLabels(Map.of("app", "nginx", "instance", name)).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(Map.of("app", "nginx", "instance", name)).endMetadata()
            .withNewSpec()
              .addNewContainer().withName("nginx").withImage("nginx:1.27")
                .addNewPort().withName("http").withContainerPort(port).endPort()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
