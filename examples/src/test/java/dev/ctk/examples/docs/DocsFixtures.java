package dev.ctk.examples.docs;

import dev.ctk.examples.network.Network;
import dev.ctk.examples.network.NetworkSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;

/** Objects the docs' examples create, kept out of the regions the docs quote. */
final class DocsFixtures {

  private DocsFixtures() {}

  /** An nginx Deployment without a namespace: created in the client's namespace (the test's). */
  static Deployment nginxDeployment(String name, int port) {
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

  /** A Network without a namespace: created in the client's namespace. */
  static Network network(String name, String cidr, String gateway) {
    Network network = new Network();
    network.setMetadata(new ObjectMetaBuilder().withName(name).build());
    network.setSpec(new NetworkSpec(cidr, gateway));
    return network;
  }
}
