package dev.ctk.examples.docs;

import dev.ctk.examples.network.Network;
import dev.ctk.examples.network.NetworkSpec;
import dev.ctk.examples.nginx.NginxDeployments;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/** Objects the docs' examples create, kept out of the regions the docs quote. */
final class DocsFixtures {

  private DocsFixtures() {}

  /** An nginx Deployment without a namespace: created in the client's namespace (the test's). */
  static Deployment nginxDeployment(String name, int port) {
    return NginxDeployments.nginxDeployment(name, port);
  }

  /** A Network without a namespace: created in the client's namespace. */
  static Network network(String name, String cidr, String gateway) {
    Network network = new Network();
    network.setMetadata(new ObjectMetaBuilder().withName(name).build());
    network.setSpec(new NetworkSpec(cidr, gateway));
    return network;
  }
}
