package dev.ctk.examples.network;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The {@code Network} custom resource ({@code networks.samplecrd.k8s.io/v1}); its CRD is
 * {@code crds/networks.samplecrd.k8s.io.yaml} on the classpath.
 *
 * @since 0.1.0
 */
@Group("samplecrd.k8s.io")
@Version("v1")
@Kind("Network")
@Plural("networks")
public class Network extends CustomResource<NetworkSpec, Void> implements Namespaced {
  private static final long serialVersionUID = 1L;
}
